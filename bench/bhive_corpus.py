# SPDX-License-Identifier: BSD-2-Clause
"""A BHive-style corpus from the x86-64 ELF files of a directory (default /usr/bin).

Each file's straight-line blocks come from `bmprof blocks` (the branch that ends a block
dropped, cut at calls and system instructions); blocks are de-duplicated by their bytes
over all files, and the N whose SHA-1 of the bytes is smallest are kept: the same files
give the same corpus, and the choice does not lean towards any file or function.

usage: bhive_corpus.py BMPROF N OUT.csv [DIR]
Writes OUT.csv (hex,where) and prints one line: files, blocks listed, blocks kept."""
import hashlib
import heapq
import os
import subprocess
import sys


def x86_64_elf(path):
    try:
        with open(path, "rb") as f:
            h = f.read(20)
    except OSError:
        return False
    # ELF magic, 64-bit, little-endian, e_machine 62 (EM_X86_64)
    return len(h) == 20 and h[:4] == b"\x7fELF" and h[4] == 2 and h[5] == 1 and \
        int.from_bytes(h[18:20], "little") == 62


def main():
    bmprof, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    top = sys.argv[4] if len(sys.argv) > 4 else "/usr/bin"
    files = sorted(os.path.join(top, f) for f in os.listdir(top))
    files = [f for f in files if os.path.isfile(f) and not os.path.islink(f) and x86_64_elf(f)]
    heap, kept, listed, used = [], {}, 0, 0   # max-heap of (-hash, hex) over the n smallest
    for path in files:
        r = subprocess.run([bmprof, "blocks", path], capture_output=True, text=True)
        if r.returncode != 0:
            continue   # stripped of every symbol, or no function: no blocks to list
        used += 1
        for line in r.stdout.splitlines():
            hexs, _, where = line.partition(",")
            if not hexs:
                continue
            listed += 1
            h = hashlib.sha1(bytes.fromhex(hexs)).digest()
            if h in kept:
                continue
            if len(heap) < n:
                heapq.heappush(heap, (bytes(255 - b for b in h), h))
                kept[h] = (hexs, f"{os.path.basename(path)}:{where}")
            elif h < heap[0][1]:
                _, old = heapq.heapreplace(heap, (bytes(255 - b for b in h), h))
                del kept[old]
                kept[h] = (hexs, f"{os.path.basename(path)}:{where}")
    rows = sorted(kept.items())
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        for _, (hexs, where) in rows:
            f.write(f"{hexs},{where}\n")
    os.replace(tmp, out)
    print(f"{len(files)} x86-64 ELF files in {top}, {used} with symbols to list blocks by, "
          f"{listed} blocks listed (each file's distinct); kept the {len(rows)} distinct "
          f"blocks with the smallest SHA-1 of their bytes")


if __name__ == "__main__":
    main()
