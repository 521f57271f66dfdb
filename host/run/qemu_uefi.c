/* SPDX-License-Identifier: BSD-2-Clause */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run/qemu_uefi.h"
#include "util/util.h"

static const char *const ovmf_code[] = {
	"/usr/share/OVMF/OVMF_CODE_4M.fd", "/usr/share/OVMF/OVMF_CODE.fd", NULL,
};
static const char *const ovmf_vars[] = {
	"/usr/share/OVMF/OVMF_VARS_4M.fd", "/usr/share/OVMF/OVMF_VARS.fd", NULL,
};
static const char *const aavmf_code[] = { "/usr/share/AAVMF/AAVMF_CODE.fd", NULL };
static const char *const aavmf_vars[] = { "/usr/share/AAVMF/AAVMF_VARS.fd", NULL };

/* AAVMF waits QEMU's boot-menu time (5 s unless given) before booting; no network
 * device, no network boot options. */
static const char *const aavmf_args[] = {
	"-nic", "none", "-boot", "menu=on,splash-time=0", NULL,
};

/* Without a display device OVMF sets up no graphics console: 1.5 s less boot under TCG. */
static const char *const ovmf_args[] = { "-vga", "none", NULL };

static const struct qemu_firmware firmwares[] = {
	{ "x86_64", "ovmf", ovmf_code, ovmf_vars, "BOOTX64.EFI", 0, 0, ovmf_args },
	/* QEMU virt's flash banks are 64 MiB each; the images must fill them */
	{ "aarch64", "qemu-efi-aarch64", aavmf_code, aavmf_vars, "BOOTAA64.EFI",
	  64ll << 20, 1, aavmf_args },
};

const struct qemu_firmware *qemu_uefi_firmware(const char *arch)
{
	for (size_t i = 0; i < sizeof firmwares / sizeof firmwares[0]; i++)
		if (!strcmp(firmwares[i].arch, arch))
			return &firmwares[i];
	return NULL;
}

/* 1: the file starts with "MZ" (a PE/COFF image); 0: it does not or cannot be read. */
static int is_pe(const char *path)
{
	char m[2];
	char err[64];
	int fd = bm_open_regular(path, "a PE image", err, sizeof err);
	ssize_t r;

	if (fd < 0)
		return 0;
	r = read(fd, m, sizeof m);
	close(fd);
	return r == 2 && m[0] == 'M' && m[1] == 'Z';
}

/* path with its extension (after the last '/') replaced by ext. */
static int with_ext(const char *path, const char *ext, char *out, size_t n)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);

	return snprintf(out, n, "%.*s%s", (int)stem, path, ext) >= (int)n ? -1 : 0;
}

int qemu_uefi_locate(const char *image, char *elf, size_t elfn, char *efi, size_t efin,
		     char *err, size_t errn)
{
	struct stat st;

	if (is_pe(image)) {
		if (with_ext(image, ".elf", elf, elfn) || stat(elf, &st)) {
			snprintf(err, errn, "%s is a UEFI application; bmprof symbolizes against the "
				 "ELF it was made from, NAME.elf beside it, which is missing: build "
				 "both with make image BOOT=uefi", image);
			return -1;
		}
		snprintf(efi, efin, "%s", image);
		return 1;
	}
	if (with_ext(image, ".efi", efi, efin) || !is_pe(efi))
		return 0;
	snprintf(elf, elfn, "%s", image);
	return 1;
}

/* Copy src to dst, zero-padded to pad bytes when it is shorter. */
static int copy_file(const char *src, const char *dst, long long pad, char *err, size_t errn)
{
	static char buf[1 << 16];
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	long long total = 0;
	ssize_t r;

	if (in < 0) {
		snprintf(err, errn, "%s: %s", src, strerror(errno));
		return -1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		snprintf(err, errn, "cannot create %s: %s", dst, strerror(errno));
		close(in);
		return -1;
	}
	while ((r = read(in, buf, sizeof buf)) > 0) {
		if (write(out, buf, (size_t)r) != r)
			break;
		total += r;
	}
	if (r != 0 || (pad > total && ftruncate(out, pad)) || close(out)) {
		snprintf(err, errn, "cannot copy %s to %s: %s", src, dst, strerror(errno));
		close(in);
		return -1;
	}
	close(in);
	return 0;
}

/* The firmware pair: both from the environment, or a packaged pair that exists. */
static int find_firmware(const struct qemu_firmware *fw, const char **code, const char **vars,
			 char *err, size_t errn)
{
	const char *ec = getenv("BMPROF_UEFI_CODE"), *ev = getenv("BMPROF_UEFI_VARS");
	struct stat st;

	if ((ec && *ec) || (ev && *ev)) {
		if (!ec || !*ec || !ev || !*ev) {
			snprintf(err, errn, "set both BMPROF_UEFI_CODE and BMPROF_UEFI_VARS (the "
				 "firmware's CODE and VARS images), or neither");
			return -1;
		}
		if (stat(ec, &st) || stat(ev, &st)) {
			snprintf(err, errn, "BMPROF_UEFI_CODE=%s, BMPROF_UEFI_VARS=%s: %s", ec, ev,
				 strerror(errno));
			return -1;
		}
		*code = ec;
		*vars = ev;
		return 0;
	}
	for (size_t i = 0; fw->code[i]; i++)
		if (!stat(fw->code[i], &st) && !stat(fw->vars[i], &st)) {
			*code = fw->code[i];
			*vars = fw->vars[i];
			return 0;
		}
	snprintf(err, errn, "no UEFI firmware for %s (%s): install %s, or set BMPROF_UEFI_CODE "
		 "and BMPROF_UEFI_VARS", fw->arch, fw->code[0], fw->package);
	return -1;
}

static int path_in(char *out, size_t n, const char *dir, const char *rest)
{
	return snprintf(out, n, "%s/%s", dir, rest) >= (int)n ? -1 : 0;
}

int qemu_uefi_prepare(struct qemu_uefi *u, const struct qemu_firmware *fw, const char *efi,
		      char *err, size_t errn)
{
	const char *tmp = getenv("TMPDIR"), *code, *vars;
	char boot[PATH_MAX], sub[PATH_MAX];
	struct stat st;

	memset(u, 0, sizeof *u);
	u->virtio_disk = fw->virtio_disk;
	u->args = fw->args;
	if (find_firmware(fw, &code, &vars, err, errn))
		return -1;
	snprintf(u->dir, sizeof u->dir, "%s/bmprof-uefi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(u->dir)) {
		snprintf(err, errn, "cannot create a temporary directory %s: %s", u->dir,
			 strerror(errno));
		u->dir[0] = 0;
		return -1;
	}
	if (path_in(u->esp, sizeof u->esp, u->dir, "esp") ||
	    path_in(sub, sizeof sub, u->esp, "EFI/BOOT") ||
	    path_in(boot, sizeof boot, sub, fw->boot_file) ||
	    path_in(u->vars, sizeof u->vars, u->dir, "vars.fd")) {
		snprintf(err, errn, "%s: path too long", u->dir);
		goto fail;
	}
	if (mkdir(u->esp, 0755) || path_in(sub, sizeof sub, u->esp, "EFI") ||
	    mkdir(sub, 0755) || path_in(sub, sizeof sub, u->esp, "EFI/BOOT") ||
	    mkdir(sub, 0755)) {
		snprintf(err, errn, "cannot create %s: %s", sub, strerror(errno));
		goto fail;
	}
	if (copy_file(efi, boot, 0, err, errn) || copy_file(vars, u->vars, fw->pad, err, errn))
		goto fail;
	/* a CODE image smaller than its flash bank gets a padded copy */
	if (fw->pad && !stat(code, &st) && st.st_size < fw->pad) {
		if (path_in(u->code, sizeof u->code, u->dir, "code.fd") ||
		    copy_file(code, u->code, fw->pad, err, errn))
			goto fail;
	} else {
		snprintf(u->code, sizeof u->code, "%s", code);
	}
	return 0;
fail:
	qemu_uefi_cleanup(u);
	return -1;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(path);
	return 0;
}

void qemu_uefi_cleanup(struct qemu_uefi *u)
{
	if (!u->dir[0])
		return;
	nftw(u->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	u->dir[0] = 0;
}

/* "KEY=" path with QEMU's option escaping (a comma doubled), malloc'd. */
static char *opt(const char *head, const char *path, const char *tail)
{
	char *out = malloc(strlen(head) + 2 * strlen(path) + strlen(tail) + 1), *o;

	if (!out)
		return NULL;
	o = stpcpy(out, head);
	for (; *path; path++) {
		*o++ = *path;
		if (*path == ',')
			*o++ = ',';
	}
	strcpy(o, tail);
	return out;
}

char **qemu_uefi_argv(const struct qemu_uefi *u)
{
	int n = 0, oom = 0, nargs = 0;
	char **v;

	while (u->args && u->args[nargs])
		nargs++;
	v = calloc(9 + (size_t)nargs, sizeof *v);
	if (!v)
		return NULL;
	v[n++] = strdup("-drive");
	v[n++] = opt("if=pflash,format=raw,unit=0,readonly=on,file=", u->code, "");
	v[n++] = strdup("-drive");
	v[n++] = opt("if=pflash,format=raw,unit=1,file=", u->vars, "");
	v[n++] = strdup("-drive");
	if (u->virtio_disk) {
		v[n++] = opt("if=none,id=bmprof-esp,format=raw,file=fat:rw:", u->esp, "");
		v[n++] = strdup("-device");
		v[n++] = strdup("virtio-blk-pci,drive=bmprof-esp");
	} else {
		v[n++] = opt("format=raw,file=fat:rw:", u->esp, "");
	}
	for (int i = 0; i < nargs; i++)
		v[n++] = strdup(u->args[i]);
	for (int i = 0; i < n; i++)
		oom |= !v[i];
	if (oom) {
		for (int i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return NULL;
	}
	return v;
}
