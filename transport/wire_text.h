/* SPDX-License-Identifier: BSD-2-Clause */
/* The words and phrases for the wire's enums (wire.h): one table that both sides use, the
 * target's runtimes in their messages (LOG frames) and the host in its reports, JSON and
 * messages, so a status, reason or end reads the same wherever it is shown. A name is a
 * JSON word (lower case, no spaces); a text is a phrase for people. Values a build does
 * not know give "unknown" (tests/unit/test_wire_text.c checks every value has its own).
 * Freestanding: functions over switches, nothing to link. */
#ifndef BMPROF_WIRE_TEXT_H
#define BMPROF_WIRE_TEXT_H

#include <stdint.h>
#include "wire.h"

static inline const char *bmprof_arch_name(unsigned arch)
{
	switch (arch) {
	case BMPROF_ARCH_X86_64: return "x86_64";
	case BMPROF_ARCH_AARCH64: return "aarch64";
	case BMPROF_ARCH_CORTEX_M: return "cortex-m";
	case BMPROF_ARCH_RISCV64: return "riscv64";
	}
	return "unknown";
}

static inline const char *bmprof_source_name(unsigned source)
{
	switch (source) {
	case BMPROF_SOURCE_TIMER: return "timer";
	case BMPROF_SOURCE_PMU: return "pmu";
	case BMPROF_SOURCE_PMU_FIXED: return "pmu_fixed";
	}
	return "unknown";
}

static inline const char *bmprof_event_status_name(unsigned status)
{
	switch (status) {
	case BMPROF_EVST_ACTIVE: return "active";
	case BMPROF_EVST_UNAVAILABLE: return "unavailable";
	case BMPROF_EVST_FALLBACK: return "fallback";
	}
	return "unknown";
}

static inline const char *bmprof_event_reason_name(unsigned reason)
{
	switch (reason) {
	case BMPROF_EVR_NONE: return "none";
	case BMPROF_EVR_NO_PMU: return "no_pmu";
	case BMPROF_EVR_UNSUPPORTED: return "unsupported";
	case BMPROF_EVR_NO_COUNTER: return "no_counter";
	case BMPROF_EVR_BAD_ENCODING: return "bad_encoding";
	case BMPROF_EVR_NO_OVERFLOW: return "no_overflow";
	}
	return "unknown";
}

static inline const char *bmprof_event_reason_text(unsigned reason)
{
	switch (reason) {
	case BMPROF_EVR_NONE: return "no reason given";
	case BMPROF_EVR_NO_PMU: return "no PMU on this CPU";
	case BMPROF_EVR_UNSUPPORTED: return "this CPU does not implement the event";
	case BMPROF_EVR_NO_COUNTER: return "no counter could hold it";
	case BMPROF_EVR_BAD_ENCODING: return "no encoding for this CPU's vendor";
	case BMPROF_EVR_NO_OVERFLOW: return "its counter cannot interrupt on overflow here";
	}
	return "an unknown reason";
}

/* What became of an event, as lead + bmprof_event_reason_text(reason) + tail:
 * "not counted: no PMU on this CPU; sampled by the timer instead". Lead NULL: it counts
 * (and samples) as asked. An ACTIVE event with a reason counts but does not sample. */
static inline const char *bmprof_event_status_lead(unsigned status, unsigned reason)
{
	switch (status) {
	case BMPROF_EVST_ACTIVE: return reason ? "counted, not sampled: " : 0;
	case BMPROF_EVST_UNAVAILABLE:
	case BMPROF_EVST_FALLBACK: return "not counted: ";
	}
	return "unknown status: ";
}

static inline const char *bmprof_event_status_tail(unsigned status)
{
	return status == BMPROF_EVST_FALLBACK ? "; sampled by the timer instead" : "";
}

static inline const char *bmprof_counter_kind_name(unsigned kind)
{
	switch (kind) {
	case BMPROF_CTR_NONE: return "none";
	case BMPROF_CTR_GP: return "gp";
	case BMPROF_CTR_FIXED: return "fixed";
	case BMPROF_CTR_TIMER: return "timer";
	}
	return "unknown";
}

/* enum bmprof_precise as a word (report JSON). */
static inline const char *bmprof_precise_name(unsigned precise)
{
	switch (precise) {
	case BMPROF_PRECISE_NONE: return "none";
	case BMPROF_PRECISE_PEBS: return "pebs";
	case BMPROF_PRECISE_NO_DS: return "no_ds";
	case BMPROF_PRECISE_DISABLED: return "pebs_disabled";
	case BMPROF_PRECISE_FORMAT: return "pebs_format";
	case BMPROF_PRECISE_NO_CAPS: return "no_perf_capabilities";
	}
	return "unknown";
}

/* Why a memory event PEBS could sample was sampled by its interrupt (enum bmprof_precise). */
static inline const char *bmprof_precise_text(unsigned precise)
{
	switch (precise) {
	case BMPROF_PRECISE_NONE: return "PEBS not asked for";
	case BMPROF_PRECISE_PEBS: return "PEBS";
	case BMPROF_PRECISE_NO_DS: return "the CPU has no debug store (CPUID.1:EDX[21] clear)";
	case BMPROF_PRECISE_DISABLED: return "IA32_MISC_ENABLE[12] says PEBS is unavailable";
	case BMPROF_PRECISE_FORMAT:
		return "its PEBS record format is not one the target reads (2, 3, or adaptive 4 on)";
	case BMPROF_PRECISE_NO_CAPS:
		return "no IA32_PERF_CAPABILITIES to give the PEBS record format";
	}
	return "unknown reason";
}

static inline const char *bmprof_end_reason_name(unsigned reason)
{
	switch (reason) {
	case BMPROF_END_EXIT: return "exit";
	case BMPROF_END_EXCEPTION: return "exception";
	case BMPROF_END_PANIC: return "panic";
	}
	return "unknown";
}

static inline const char *bmprof_log_level_name(unsigned level)
{
	switch (level) {
	case BMPROF_LOG_ERROR: return "error";
	case BMPROF_LOG_WARNING: return "warning";
	case BMPROF_LOG_INFO: return "info";
	}
	return "unknown";
}

#endif
