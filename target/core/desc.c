/* SPDX-License-Identifier: BSD-2-Clause */
/* The recovery descriptor (bmprof_desc.h): built at compile time from the structs' layout;
 * bmprof_cpu_init() lists each CPU in it. */
#include <stddef.h>
#include "bmprof_desc.h"
#include "core.h"

#define FIELD(type, member) \
	((uint32_t)offsetof(type, member) | (uint32_t)sizeof(((type *)0)->member) << 16)
#define CPU(m) FIELD(struct bmprof_cpu, m)

struct bmprof_desc bmprof_descriptor __attribute__((used, aligned(64))) = {
	.magic = BMPROF_DESC_MAGIC,
	.version = BMPROF_DESC_VERSION,
	.nfields = BMPROF_DF_COUNT,
	.max_cpus = BMPROF_DESC_MAX_CPUS,
	.ptr_size = sizeof(void *),
#if UINTPTR_MAX > 0xFFFFFFFFu   /* 32-bit: an address is no 64-bit constant; set at register */
	.self = (uint64_t)(uintptr_t)&bmprof_descriptor,
#endif
	.cpu_size = sizeof(struct bmprof_cpu),
	.ovf_size = sizeof(struct bmprof_ovf),
	.entry_size = sizeof(struct bmprof_entry),
	.ways = BMPROF_WAYS,
	.cpus_off = offsetof(struct bmprof_desc, cpu),
	.field = {
		[BMPROF_DF_TABLE] = CPU(table),
		[BMPROF_DF_MASK] = CPU(mask),
		[BMPROF_DF_TAKEN] = CPU(taken),
		[BMPROF_DF_HITS] = CPU(hits),
		[BMPROF_DF_IN_RECORD] = CPU(in_record),
		[BMPROF_DF_FLUSHING] = CPU(flushing),
		[BMPROF_DF_OVF] = CPU(ovf),
		[BMPROF_DF_MISSES] = CPU(misses),
		[BMPROF_DF_EVICTIONS] = CPU(evictions),
		[BMPROF_DF_LOST_FULL] = CPU(lost_full),
		[BMPROF_DF_DELIVERED] = CPU(delivered),
		[BMPROF_DF_LOST_TRANSPORT] = CPU(lost_transport),
		[BMPROF_DF_FRAMES] = CPU(frames),
		[BMPROF_DF_CPU_ID] = CPU(cpu_id),
		[BMPROF_DF_SAMPLED_TICKS] = CPU(sampled_ticks),
		[BMPROF_DF_IN_DRAIN] = CPU(in_drain),
		[BMPROF_DF_XFER_SRC] = CPU(xfer.src),
		[BMPROF_DF_XFER_N] = CPU(xfer.n),
		[BMPROF_DF_XFER_DONE] = CPU(xfer.done),
		[BMPROF_DF_XFER_END] = CPU(xfer.end),
		[BMPROF_DF_XFER_SEQ] = CPU(xfer.seq),
		[BMPROF_DF_XFER_SAMPLES] = CPU(xfer.samples),
		[BMPROF_DF_FLUSHES] = CPU(flushes),
		[BMPROF_DF_OVF_SLOT] = FIELD(struct bmprof_ovf, slot),
		[BMPROF_DF_OVF_CAP] = FIELD(struct bmprof_ovf, cap),
		[BMPROF_DF_OVF_FILL] = FIELD(struct bmprof_ovf, fill),
		[BMPROF_DF_OVF_STATE] = FIELD(struct bmprof_ovf, state),
		[BMPROF_DF_ENTRY_PC] = FIELD(struct bmprof_entry, pc),
		[BMPROF_DF_ENTRY_COUNT] = FIELD(struct bmprof_entry, count),
		[BMPROF_DF_ENTRY_EVENT] = FIELD(struct bmprof_entry, event),
		[BMPROF_DF_ENTRY_STACK] = FIELD(struct bmprof_entry, stack),
		[BMPROF_DF_STK_INDEX] = CPU(stacks.index),
		[BMPROF_DF_STK_DEF] = CPU(stacks.def),
		[BMPROF_DF_STK_FRAMES] = CPU(stacks.frames),
		[BMPROF_DF_STK_MASK] = CPU(stacks.mask),
		[BMPROF_DF_STK_MAX_IDS] = CPU(stacks.max_ids),
		[BMPROF_DF_STK_FRAMES_CAP] = CPU(stacks.frames_cap),
		[BMPROF_DF_STK_FRAMES_USED] = CPU(stacks.frames_used),
		[BMPROF_DF_STK_N] = CPU(stacks.n),
		[BMPROF_DF_STK_SENT] = CPU(stacks.sent),
		[BMPROF_DF_STK_DEPTH] = CPU(stacks.depth),
		[BMPROF_DF_STK_FULL] = CPU(stacks.full),
		[BMPROF_DF_SDEF] = (uint32_t)sizeof(struct bmprof_stack_def) << 16,
		[BMPROF_DF_SDEF_OFF] = FIELD(struct bmprof_stack_def, off),
		[BMPROF_DF_SDEF_DEPTH] = FIELD(struct bmprof_stack_def, depth),
		[BMPROF_DF_SDEF_FLAGS] = FIELD(struct bmprof_stack_def, flags),
		[BMPROF_DF_RAW_SLOT] = CPU(raw.slot),
		[BMPROF_DF_RAW_CAP] = CPU(raw.cap),
		[BMPROF_DF_RAW_ARCH] = CPU(raw.arch),
		[BMPROF_DF_RAW_NREGS] = CPU(raw.nregs),
		[BMPROF_DF_RAW_HEAD] = CPU(raw.head),
		[BMPROF_DF_RAW_TAIL] = CPU(raw.tail),
		[BMPROF_DF_RAW_SENDING] = CPU(raw.sending),
		[BMPROF_DF_RAW_FRAMES] = CPU(raw.frames),
		[BMPROF_DF_RAW_TAKEN] = CPU(raw.taken),
		[BMPROF_DF_RAW_DELIVERED] = CPU(raw.delivered),
		[BMPROF_DF_RAW_LOST_FULL] = CPU(raw.lost_full),
		[BMPROF_DF_RAW_LOST_TRANSPORT] = CPU(raw.lost_transport),
		[BMPROF_DF_RAWREC] = (uint32_t)sizeof(struct bmprof_raw) | 1u << 16,
		[BMPROF_DF_RAWREC_PC] = FIELD(struct bmprof_raw, pc),
		[BMPROF_DF_RAWREC_DATA_ADDR] = FIELD(struct bmprof_raw, data_addr),
		[BMPROF_DF_RAWREC_VALID] = FIELD(struct bmprof_raw, valid),
		[BMPROF_DF_RAWREC_EVENT] = FIELD(struct bmprof_raw, event),
		[BMPROF_DF_RAWREC_FLAGS] = FIELD(struct bmprof_raw, flags),
		[BMPROF_DF_RAWREC_R] = FIELD(struct bmprof_raw, r[0]),
	},
};

_Static_assert(offsetof(struct bmprof_desc, field) == BMPROF_DESC_HDR, "descriptor header");
_Static_assert(sizeof(struct bmprof_cpu) < 65536, "field offsets are 16 bits");
_Static_assert(sizeof(struct bmprof_stack_def) < 256, "field sizes are 8 bits");
_Static_assert(sizeof(struct bmprof_raw) < 65536, "a record's size is 16 bits");
_Static_assert(sizeof(((struct bmprof_stacks *)0)->frames[0]) == 8, "frames are 8 bytes");

void bmprof_desc_register(struct bmprof_cpu *c)
{
	struct bmprof_desc *d = &bmprof_descriptor;
	uint32_t id = c->cpu_id;

	d->self = (uint64_t)(uintptr_t)d;
	if (id >= BMPROF_DESC_MAX_CPUS) {
		d->unregistered = d->unregistered + 1;
		return;
	}
	d->cpu[id] = (uint64_t)(uintptr_t)c;
	if (id + 1 > d->ncpus)
		d->ncpus = id + 1;
}
