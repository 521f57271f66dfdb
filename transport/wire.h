/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof wire format, version 3: the one header both the target and the host include.
 *
 * A stream is a sequence of frames, possibly interleaved with console text on the same
 * UART. Every multi-byte field is little-endian. A frame is
 *
 *   off  size  field
 *   0    4     magic   B5 'B' 'M' 'P'  (0xB5 is not ASCII, so console text never forms it)
 *   4    1     type    BMPROF_FRAME_*
 *   5    1     flags   0 in version 1; readers ignore it
 *   6    2     len     payload length N, at most BMPROF_WIRE_MAX_PAYLOAD
 *   8    N     payload
 *   8+N  4     crc     CRC-32 (IEEE 802.3, as zlib's crc32) over bytes 4 .. 8+N-1
 *
 * Growth rules: a reader skips a frame whose type it does not know (it is counted, not
 * fatal), and ignores payload bytes past the fields it knows, so later versions append
 * fields at the end of a payload or add frame types. docs/wire-format.md is the prose form.
 *
 * This header is freestanding: it needs only <stdint.h>.
 */
#ifndef BMPROF_WIRE_H
#define BMPROF_WIRE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: STACKS and STACK_SAMPLES frames, TOTALS stack fields. 3: PHASE frames, the phase in
 * a sample entry's event_id; RAW_SAMPLES frames, TOTALS raw fields. A reader takes every
 * earlier version (1 is wire 1.0 .. 1.4: they only appended). */
#define BMPROF_WIRE_VERSION 3
#define BMPROF_MAGIC0 0xB5u
#define BMPROF_MAGIC1 'B'
#define BMPROF_MAGIC2 'M'
#define BMPROF_MAGIC3 'P'
#define BMPROF_FRAME_HDR 8u          /* magic + type + flags + len */
#define BMPROF_FRAME_CRC 4u
#define BMPROF_WIRE_MAX_PAYLOAD 65535u

enum bmprof_frame_type {
	/* sent by the target */
	BMPROF_FRAME_HELLO = 0x01,    /* once, first: who is talking */
	BMPROF_FRAME_EVENT = 0x02,    /* one per event the target samples */
	BMPROF_FRAME_SAMPLES = 0x03,  /* a batch of aggregated (pc, event, count) */
	BMPROF_FRAME_TOTALS = 0x04,   /* per-CPU counters at the end of a run */
	BMPROF_FRAME_END = 0x05,      /* last frame: how the run ended */
	BMPROF_FRAME_COUNTS = 0x06,   /* per-CPU event totals with enabled/running time */
	BMPROF_FRAME_LOG = 0x07,      /* a message from the runtime (wire 1.4), any time */
	BMPROF_FRAME_STACKS = 0x08,   /* call chains, each defined once per CPU (version 2) */
	BMPROF_FRAME_STACK_SAMPLES = 0x09,  /* (pc, event, stack id, count) (version 2) */
	BMPROF_FRAME_PHASE = 0x0A,    /* a phase's id and name (version 3) */
	BMPROF_FRAME_RAW_SAMPLES = 0x0B,    /* single samples with registers (version 3) */
	/* added by the host when it writes a profile file (never on a wire) */
	BMPROF_FRAME_HOST_META = 0x40,    /* key/value strings: elf path, accel, command... */
	BMPROF_FRAME_HOST_STREAM = 0x41,  /* what the reader rejected while receiving */
};

enum bmprof_arch { BMPROF_ARCH_X86_64 = 1, BMPROF_ARCH_AARCH64 = 2, BMPROF_ARCH_CORTEX_M = 3,
		   BMPROF_ARCH_RISCV64 = 4 };

/* Where samples come from. */
enum bmprof_source { BMPROF_SOURCE_TIMER = 1, BMPROF_SOURCE_PMU = 2, BMPROF_SOURCE_PMU_FIXED = 3 };

/* HELLO payload (fixed part, 60 bytes, then the build-id bytes):
 *   u16 version            BMPROF_WIRE_VERSION
 *   u8  arch               enum bmprof_arch
 *   u8  source             enum bmprof_source of the primary sampling source
 *   u16 ncpus              CPUs the target may report on
 *   u16 reserved           0
 *   u64 timebase_hz        ticks per second of the clock periods are measured in (TSC)
 *   u64 load_bias          runtime address minus link address of the image (0 if not relocated)
 *   char vendor[16]        CPU vendor string, NUL padded ("GenuineIntel", "AuthenticAMD", ...)
 *   u32 family, model, stepping   (x86: display family/model; aarch64: MIDR fields)
 *   u32 cpu_signature      raw CPUID.1:EAX (x86), MIDR_EL1 (aarch64) or marchid (riscv64)
 *   u8  build_id_len       0..BMPROF_BUILD_ID_MAX
 *   u8  reserved[3]
 *   u8  build_id[build_id_len]   the image's GNU build-id note descriptor
 *   then, appended in version 1.2 (a reader takes it when present):
 *   u64 core_hz            the core clock the target measured at boot, in the privilege
 *                          level the program runs in (0: unknown)
 */
#define BMPROF_HELLO_FIXED 60u
#define BMPROF_BUILD_ID_MAX 64u
#define BMPROF_HELLO_CORE_HZ 8u     /* bytes of the field appended after the build-id */

/* EVENT payload:
 *   u16 event_id           the id SAMPLES entries use
 *   u8  source             enum bmprof_source
 *   u8  flags              bit 0: period randomized
 *   u64 encoding           raw event encoding (0 for the timer)
 *   u64 period             nominal period, in events (PMU) or timebase ticks (timer)
 *   u64 jitter             width of the randomization window below the nominal period:
 *                          each period is uniform in [period - jitter, period]
 *   u8  name_len, char name[name_len]
 *   then, appended in version 1.1 (a reader takes them when present):
 *   u8  status             enum bmprof_event_status
 *   u8  reason             enum bmprof_event_reason: why the event is not counted, or why
 *                          the timer stands in for it
 *   u8  counter_kind       enum bmprof_counter_kind the event was placed on
 *   u8  counter            counter index within that kind (0xff: none)
 *   u8  group              multiplexing group (events of one group are always on the PMU
 *                          together; 0xff: not multiplexed)
 *   u8  ngroups            number of groups the PMU rotates through (1: no multiplexing)
 *   then, appended in version 3.1 (a reader takes it when present):
 *   u8  precise            enum bmprof_precise: whether the event samples by PEBS, or why
 *                          a memory event that could does not
 */
#define BMPROF_EVENT_FIXED 28u
#define BMPROF_EVENT_RANDOMIZED 0x01u
#define BMPROF_EVENT_COUNTING 0x02u   /* counted, not sampled (period 0) */

enum bmprof_event_status {
	BMPROF_EVST_ACTIVE = 0,       /* on a counter (or the timer), as requested */
	BMPROF_EVST_UNAVAILABLE = 1,  /* not counted; reason says why */
	BMPROF_EVST_FALLBACK = 2,     /* a PMU event the timer samples instead; reason says why */
};

enum bmprof_event_reason {
	BMPROF_EVR_NONE = 0,
	BMPROF_EVR_NO_PMU = 1,        /* the CPU has no PMU the target can use */
	BMPROF_EVR_UNSUPPORTED = 2,   /* this CPU does not implement the event */
	BMPROF_EVR_NO_COUNTER = 3,    /* no counter can hold it (e.g. a group larger than the PMU) */
	BMPROF_EVR_BAD_ENCODING = 4,  /* the encoding has no form for this CPU's vendor */
	BMPROF_EVR_NO_OVERFLOW = 5,   /* the counter cannot interrupt on overflow here */
};

/* How a sampling event's samples are taken: by the overflow interrupt (NONE), by PEBS
 * records (pc, registers and data address from the hardware), or by the interrupt because
 * PEBS could not be used for an event that has it (the reason). */
enum bmprof_precise {
	BMPROF_PRECISE_NONE = 0,      /* the overflow interrupt; PEBS not asked for */
	BMPROF_PRECISE_PEBS = 1,      /* Intel PEBS records */
	BMPROF_PRECISE_NO_DS = 2,     /* no PEBS: no debug store (CPUID.1:EDX[21] clear) */
	BMPROF_PRECISE_DISABLED = 3,  /* no PEBS: IA32_MISC_ENABLE[12] says PEBS unavailable */
	BMPROF_PRECISE_FORMAT = 4,    /* no PEBS: a record format the target does not read */
	BMPROF_PRECISE_NO_CAPS = 5,   /* no PEBS: no IA32_PERF_CAPABILITIES (CPUID.1:ECX[15]) */
};

enum bmprof_counter_kind {
	BMPROF_CTR_NONE = 0,
	BMPROF_CTR_GP = 1,            /* a general-purpose counter */
	BMPROF_CTR_FIXED = 2,         /* a fixed-function counter (x86 fixed, AArch64 PMCCNTR) */
	BMPROF_CTR_TIMER = 3,         /* the timer */
};

/* SAMPLES payload:
 *   u16 cpu
 *   u16 n                  number of entries
 *   u32 seq                per-CPU frame sequence number, from 0: a gap means frames lost
 *   then n entries, each three unsigned LEB128 varints:
 *     event_id             the event's id, plus phase << 16 (version 3): the phase the
 *                          samples were taken in (0: none, before the first PHASE)
 *     zigzag(pc - prev_pc) prev_pc is 0 for the first entry of the frame
 *     count                samples aggregated in this entry (>= 1)
 */
#define BMPROF_SAMPLES_FIXED 8u

/* PHASE payload (version 3): a phase began; later samples carry its id.
 *   u16 id                 1 .. 1023
 *   u8  name_len
 *   u8  reserved           0
 *   u64 at                 timebase ticks when it began (0: unknown)
 *   char name[name_len]
 * A target sends it once per phase, before or after the first samples of it; the host
 * names a phase with no PHASE frame "phase N". A later PHASE for the same id renames it.
 */
#define BMPROF_PHASE_FIXED 12u
#define BMPROF_PHASE_ID_MAX 1023u

/* A target's table entry keeps (event, phase) in 16 bits (bmprof.h, and what a host reads
 * back from memory): the event id in the low BMPROF_KEY_EVENT_BITS bits, the phase above.
 * On the wire that is event_id + (phase << 16). */
#define BMPROF_KEY_EVENT_BITS 6u
static inline uint64_t bmprof_key_wire_event(uint16_t key)
{
	return (key & ((1u << BMPROF_KEY_EVENT_BITS) - 1u)) |
	       (uint64_t)(key >> BMPROF_KEY_EVENT_BITS) << 16;
}

/* STACK_SAMPLES payload (version 2): as SAMPLES, each entry with a fourth varint:
 *     stack                the chain's id in this CPU's STACKS definitions; 0: no chain
 *                          (the pc is in the outermost function); 0xFFFF: the chain was
 *                          not kept (the target's stack table was full)
 * A target with stacks on sends every sample this way; a chain's STACKS definition comes
 * before the first STACK_SAMPLES frame that uses its id.
 *
 * STACKS payload (version 2):
 *   u16 cpu
 *   u16 n                  chains defined here
 *   u16 first_id           the first chain's id; the others follow in order
 *   u16 reserved           0
 *   then n chains, each:
 *     u8 flags             bit 0: frame 0 is a candidate for the caller of a leaf that
 *                          made no frame record (the AArch64 link register, the word at
 *                          the x86-64 rsp): keep it only where it is not in the leaf's own
 *                          function; bit 1: the chain was cut at the depth bound
 *     u8 depth             frames that follow, at most 64
 *     depth varints        zigzag(frame - prev), prev 0 for a chain's first frame: the
 *                          return addresses from the leaf's caller to the outermost frame
 */
#define BMPROF_STACKS_FIXED 8u
#define BMPROF_STACKF_LR_MAYBE 0x01u
#define BMPROF_STACKF_CUT 0x02u
#define BMPROF_STACK_DEPTH_WIRE_MAX 64u

/* RAW_SAMPLES payload (version 3): single samples, not aggregated, each with the registers
 * the sample interrupted, for data-space profiling (the host backtracks from pc to the
 * memory instruction and computes its address from them).
 *   u16 cpu
 *   u16 n                  records
 *   u32 seq                per-CPU RAW_SAMPLES sequence number, from 0
 *   u8  arch               enum bmprof_arch: which register numbering
 *   u8  nregs              register slots the architecture has (x86-64 16, AArch64 32)
 *   u16 reserved           0
 *   then n records, each:
 *     varint event         the event id, as in SAMPLES
 *     u8  flags            BMPROF_RAWF_*
 *     varint valid         bit i: register i follows (i < nregs)
 *     varint pc            the delivered pc (with BMPROF_RAWF_PC_EXACT: the instruction
 *                          that caused the event)
 *     varint data_addr     only with BMPROF_RAWF_DATA_ADDR: the data address the hardware
 *                          gave (PEBS, IBS, SPE)
 *     one varint per bit set in valid, lowest first: the register's value
 * Registers are numbered as DWARF numbers them: x86-64 0..15 = rax, rdx, rcx, rbx, rsi,
 * rdi, rbp, rsp, r8 .. r15; AArch64 0..30 = x0 .. x30, 31 = sp. */
#define BMPROF_RAW_FIXED 12u
#define BMPROF_RAW_REGS_MAX 32u
#define BMPROF_RAWF_DATA_ADDR 0x01u   /* data_addr is present */
#define BMPROF_RAWF_PC_EXACT 0x02u    /* pc is the instruction itself (PEBS EventingIP) */
#define BMPROF_RAWF_KNOWN (BMPROF_RAWF_DATA_ADDR | BMPROF_RAWF_PC_EXACT)

/* TOTALS payload: u16 cpu, u16 nfields, then nfields u64 counters in this order.
 * A reader takes the fields it knows; a writer may append more. A version 1.1 writer sends
 * the first eight. */
enum bmprof_total_field {
	BMPROF_TOTAL_TAKEN = 0,        /* samples taken by the handler */
	BMPROF_TOTAL_HITS,             /* hash table hits */
	BMPROF_TOTAL_MISSES,           /* hash table misses (insertions) */
	BMPROF_TOTAL_EVICTIONS,        /* entries evicted to an overflow buffer */
	BMPROF_TOTAL_DELIVERED,        /* samples (sum of counts) written to the transport */
	BMPROF_TOTAL_LOST_FULL,        /* samples dropped: both overflow buffers full */
	BMPROF_TOTAL_LOST_TRANSPORT,   /* samples dropped: the transport refused them */
	BMPROF_TOTAL_FRAMES,           /* SAMPLES frames sent */
	/* appended in version 1.2 */
	BMPROF_TOTAL_SAMPLED_TICKS,    /* timebase ticks the CPU ran outside the sampling timer's
					* handler while sampling (0: unknown) */
	/* appended in version 1.3 */
	BMPROF_TOTAL_ENABLED_TICKS,    /* timebase ticks the CPU sampled, handlers included
					* (0: unknown) */
	/* appended in version 2 */
	BMPROF_TOTAL_STACK_FULL,       /* samples whose chain found the stack table full (sent
					* with stack id 0xFFFF; they are in delivered as usual) */
	BMPROF_TOTAL_STACKS,           /* distinct chains the stack table holds */
	/* appended in version 3: raw samples, counted apart from the aggregated ones;
	 * raw_taken = raw_delivered + raw_lost_full + raw_lost_transport */
	BMPROF_TOTAL_RAW_TAKEN,        /* raw samples the handler took */
	BMPROF_TOTAL_RAW_DELIVERED,    /* raw samples written to the transport */
	BMPROF_TOTAL_RAW_LOST_FULL,    /* raw samples dropped: the raw buffer was full */
	BMPROF_TOTAL_RAW_LOST_TRANSPORT, /* raw samples dropped: the transport refused them */
	BMPROF_TOTAL_RAW_FRAMES,       /* RAW_SAMPLES sequence numbers used */
	BMPROF_TOTAL_NFIELDS
};
#define BMPROF_TOTALS_FIXED 4u

/* END payload:
 *   i32 exit_code          main's return value (or the code passed to the exit call)
 *   u8  reason             enum bmprof_end_reason
 *   u8  reserved[3]
 *   u64 fault_pc           for a CPU exception: the faulting instruction
 *   u32 vector             for a CPU exception: the vector number
 *   u32 reserved
 *   u64 fault_addr         for a page fault: CR2
 */
#define BMPROF_END_FIXED 32u
enum bmprof_end_reason {
	BMPROF_END_EXIT = 0,        /* the program returned or exited */
	BMPROF_END_EXCEPTION = 1,   /* a CPU exception the program did not handle */
	BMPROF_END_PANIC = 2,       /* the runtime gave up (a failed assertion, no memory) */
};

/* COUNTS payload: per-CPU event totals, sent at the end of a run (counting mode, and in
 * sampling mode when events were multiplexed) and may be sent periodically; a later frame
 * for the same (cpu, event) replaces an earlier one.
 *   u16 cpu
 *   u16 n
 *   then n records of 32 bytes:
 *     u16 event_id, u16 flags (bit 0: the counter overflowed its width and was extended by
 *                              software), u32 reserved
 *     u64 value            events counted while the event was on the PMU
 *     u64 enabled          timebase ticks the event was enabled
 *     u64 running          timebase ticks it was actually on a counter (< enabled when
 *                          multiplexed: scale value by enabled / running)
 */
#define BMPROF_COUNTS_FIXED 4u
#define BMPROF_COUNTS_RECORD 32u

/* LOG payload (version 1.4): one message from the runtime, for the user (the host shows it
 * apart from the program's console text, and keeps it in the profile):
 *   u8  level              enum bmprof_log_level
 *   u8  reserved           0
 *   u16 text_len
 *   char text[text_len]    not terminated, no newline at the end; the host escapes any
 *                          byte that is not printable ASCII before showing it
 *   then fields appended by later versions.
 * It may come before HELLO (a bad configuration, a runtime that cannot sample). */
#define BMPROF_LOG_FIXED 4u
enum bmprof_log_level {
	BMPROF_LOG_ERROR = 1,        /* the run cannot go on as asked (it usually ends) */
	BMPROF_LOG_WARNING = 2,      /* something is not done as asked: a setting ignored, an
				      * event not counted, a CPU left out */
	BMPROF_LOG_INFO = 3,         /* what the runtime found or measured */
};

/* HOST_META payload: repeated { u8 key_len, key, u16 value_len, value }, strings unterminated.
 * HOST_STREAM payload: u64 fields: frames_ok, frames_bad_crc, frames_unknown,
 *   bytes_skipped, frames_truncated (0 or 1: the stream ended inside a frame). */

/* Little-endian load/store, alignment-free. */
static inline void bmprof_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void bmprof_put32(uint8_t *p, uint32_t v)
{
	bmprof_put16(p, (uint16_t)v);
	bmprof_put16(p + 2, (uint16_t)(v >> 16));
}
static inline void bmprof_put64(uint8_t *p, uint64_t v)
{
	bmprof_put32(p, (uint32_t)v);
	bmprof_put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint16_t bmprof_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t bmprof_get32(const uint8_t *p)
{
	return (uint32_t)bmprof_get16(p) | ((uint32_t)bmprof_get16(p + 2) << 16);
}
static inline uint64_t bmprof_get64(const uint8_t *p)
{
	return (uint64_t)bmprof_get32(p) | ((uint64_t)bmprof_get32(p + 4) << 32);
}

/* LEB128 varints and zigzag; a u64 takes at most 10 bytes. */
#define BMPROF_VARINT_MAX 10u
static inline unsigned bmprof_put_varint(uint8_t *p, uint64_t v)
{
	unsigned n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}
/* One RAW_SAMPLES record (layout above): flags cut to the known ones, valid to nregs. The
 * target's drain and the host's recovery of undrained rings both write it. */
static inline unsigned bmprof_put_raw_record(uint8_t *p, uint16_t event, uint8_t flags,
					     uint32_t valid, uint64_t pc, uint64_t data_addr,
					     const uint64_t *r, unsigned nregs)
{
	unsigned n = bmprof_put_varint(p, event);

	flags &= BMPROF_RAWF_KNOWN;
	valid = nregs < 32 ? valid & ((1u << nregs) - 1) : valid;
	p[n++] = flags;
	n += bmprof_put_varint(p + n, valid);
	n += bmprof_put_varint(p + n, pc);
	if (flags & BMPROF_RAWF_DATA_ADDR)
		n += bmprof_put_varint(p + n, data_addr);
	for (unsigned i = 0; i < nregs; i++)
		if (valid >> i & 1)
			n += bmprof_put_varint(p + n, r[i]);
	return n;
}
static inline uint64_t bmprof_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t bmprof_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* Decode one varint from [p, end). Returns bytes used, 0 if truncated or over-long. */
static inline unsigned bmprof_get_varint(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
	uint64_t v = 0;
	unsigned n = 0, shift = 0;
	while (p + n < end && n < BMPROF_VARINT_MAX) {
		uint8_t b = p[n++];
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return n;
		}
		shift += 7;
	}
	return 0;
}

/* CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320), table-free so it fits the target.
 * crc = bmprof_crc32(0, p, n) for a whole buffer; chain calls to extend. */
uint32_t bmprof_crc32(uint32_t crc, const void *p, unsigned long n);

#ifdef __cplusplus
}
#endif

#endif
