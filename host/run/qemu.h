/* SPDX-License-Identifier: BSD-2-Clause */
/* Running an image in QEMU: which accelerator, which QEMU and which command line, and a
 * loop that starts QEMU and hands its serial output to the caller as it arrives.
 *
 * The guest's serial port is a pipe bmprof creates (QEMU's fd 3, "-chardev
 * file,path=/dev/fd/3"), so nothing QEMU itself prints can be mistaken for the stream:
 * QEMU's stdout and stderr both go to bmprof's stderr, its stdin is /dev/null.
 */
#ifndef BMPROF_QEMU_H
#define BMPROF_QEMU_H

#include <stddef.h>
#include <stdint.h>

struct qemu_uefi;
struct cm_board;

/* What the machine offers for KVM, as qemu_probe() finds it (injected in tests). */
struct qemu_facts {
	int dev_kvm_exists;      /* /dev/kvm is there */
	int dev_kvm_accessible;  /* and this user may open it read-write */
	int kvm_intel, kvm_amd;  /* /sys/module/kvm_intel, /sys/module/kvm_amd */
	int kvm_pvm;             /* /sys/module/kvm_pvm: KVM provided by a software virtualizer */
	char host_arch[16];      /* uname -m: "x86_64", "aarch64" */
};

enum qemu_accel { QEMU_ACCEL_AUTO, QEMU_ACCEL_KVM, QEMU_ACCEL_TCG };

struct qemu_machine;

void qemu_probe(struct qemu_facts *f);
/* The accelerator to use for an image of machine m: QEMU_ACCEL_KVM or QEMU_ACCEL_TCG, with
 * the reason in why ("hardware-assisted: kvm_intel is loaded"); or -1 if the request
 * cannot be met, with the error in why. KVM is chosen by auto only when it is
 * hardware-assisted, and only for an image of the host's own architecture (m's kvm_host:
 * KVM does not run an AArch64 guest on an x86-64 host). An empty host_arch is not
 * checked. */
int qemu_choose_accel(enum qemu_accel want, const struct qemu_facts *f,
		      const struct qemu_machine *m, char *why, size_t n);
const char *qemu_accel_name(int accel);

/* How to boot an image of one ELF machine. */
struct qemu_machine {
	int e_machine;           /* EM_* */
	const char *arch;        /* "x86_64" */
	const char *binary;      /* QEMU system emulator */
	const char *package;     /* the Debian package that has it */
	const char *const *args; /* board, memory and exit device, NULL-terminated */
	const char *cpu_kvm, *cpu_tcg;
	const char *kvm_host;    /* the host architecture (uname -m) KVM can run it on */
	int ready;               /* the boot runtime for this machine exists */
	/* 0: the config goes in as the fw_cfg file opt/bmprof/config; else the board takes no
	 * -fw_cfg files (QEMU 7.2's RISC-V virt) and the config file is loaded at this guest
	 * address (-device loader), where the runtime reads it up to its first NUL */
	unsigned long config_addr;
};

/* NULL if bmprof knows no way to boot this machine. */
const struct qemu_machine *qemu_machine_for(int e_machine);

struct qemu_opts {
	const struct qemu_machine *machine;
	const char *qemu;        /* path of the QEMU binary */
	const char *image;
	int accel;               /* QEMU_ACCEL_KVM or QEMU_ACCEL_TCG */
	int icount;
	int tcg_single;          /* TCG: one thread for all vCPUs (-accel tcg,thread=single) */
	unsigned smp;            /* CPUs (-smp N); 0: QEMU's default, one */
	unsigned long freq;      /* sampling Hz, passed in fw_cfg "opt/bmprof/config" */
	const char *config_file; /* or, when set, the whole config from this file */
	char *const *extra;      /* appended verbatim */
	int nextra;
	/* a UEFI boot (qemu_uefi.h): the firmware and the application's disk instead of
	 * -kernel image; NULL: -kernel */
	const struct qemu_uefi *uefi;
	/* x86-64: the debug console (I/O port 0x402, where EDK2 DEBUG builds log) into this
	 * file; NULL: none */
	const char *debugcon;
	/* QEMU's QMP monitor on a socket bmprof passes as QEMU_QMP_FD (qemu_run with a
	 * watch's on_stop) */
	int qmp;
	/* a Cortex-M image's board (cm_board.h): -M and -cpu from it, semihosting on, and the
	 * config file (config_file, which must be set) loaded into its config area with
	 * -device loader instead of fw_cfg; NULL: not one */
	const struct cm_board *board;
};

#define QEMU_SERIAL_FD 3    /* the serial pipe's fd in QEMU */
#define QEMU_QMP_FD 4       /* the monitor socket's fd in QEMU */
#define QEMU_MAX_SMP 8      /* the most CPUs the bmprof runtimes start */

/* The value of an --smp option, 1 to QEMU_MAX_SMP: 0 with *n set, or -1 with the reason
 * in err ("--smp takes ..."). */
int qemu_parse_smp(const char *s, unsigned *n, char *err, size_t errlen);

/* --icount: guest time advances one nanosecond per instruction, and never while the guest
 * idles (sleep=off), so two runs of an image are instruction for instruction the same. */
#define QEMU_ICOUNT_ARGS "shift=0,sleep=off"

/* The argument of the last -icount (or --icount) in argv, "" if it has none, NULL if there
 * is no -icount: what the run's metadata records, whoever put it there. */
const char *qemu_argv_icount(char *const *argv);
/* argv has the option -name or --name ("singlestep"). */
int qemu_argv_has(char *const *argv, const char *name);

/* The full command line, NULL-terminated, malloc'd (qemu_free_argv); NULL if out of memory. */
char **qemu_build_argv(const struct qemu_opts *o);
void qemu_free_argv(char **argv);
/* The -fw_cfg argument for a config file: "name=opt/bmprof/config,file=PATH" with the
 * commas of PATH doubled (QEMU's option escaping). malloc'd; NULL if out of memory. */
char *qemu_fw_cfg_file(const char *path);
/* The -device argument that loads a config file at addr: "loader,file=PATH,addr=0x...,
 * force-raw=on", commas doubled as above. malloc'd; NULL if out of memory. */
char *qemu_loader_file(const char *path, uint32_t addr);
/* argv as one shell-quoted line (malloc'd), for messages and the profile's metadata. */
char *qemu_argv_string(char *const *argv);

/* e_machine of the ELF at path: 0, or -1 with a one-line reason (missing, not an ELF). */
int qemu_elf_machine(const char *path, int *machine, char *err, size_t n);
/* Find an executable: name with a '/' is taken as is, else searched in $PATH. 0 or -1. */
int qemu_find_binary(const char *name, char *out, size_t n);

enum qemu_end {
	QEMU_EXITED,        /* exited by itself; status holds its exit status */
	QEMU_KILLED,        /* died of a signal bmprof did not send; status holds it */
	QEMU_TIMEOUT,       /* bmprof stopped it at the timeout */
	QEMU_INTERRUPTED,   /* bmprof stopped it on SIGINT or SIGTERM */
	QEMU_STALLED,       /* bmprof stopped it: no progress for the stall limit */
};

struct qmp;

/* What qemu_run watches besides the serial pipe (all optional). */
struct qemu_watch {
	/* Stop QEMU when last_progress() (qemu_now() seconds; 0: nothing yet, the limit is
	 * not running) is stall_s or more in the past. 0: never. */
	double stall_s;
	double (*last_progress)(void *ctx);
	/* Called once when bmprof stops QEMU (timeout, signal, stall) and QEMU still runs,
	 * with its monitor (QEMU started with qemu_opts.qmp); the serial pipe is served while
	 * it waits on the monitor. QEMU is killed after it returns. */
	void (*on_stop)(void *ctx, enum qemu_end how, struct qmp *q);
	/* Called every tick_s seconds while QEMU runs (first at the start); tick_s 0: never. */
	void (*tick)(void *ctx, double now);
	double tick_s;
	void *ctx;
};

/* CLOCK_MONOTONIC, in seconds. */
double qemu_now(void);

struct qemu_result {
	enum qemu_end how;
	int status;
	double seconds;     /* wall time from start to exit */
	uint64_t bytes;     /* serial bytes received */
};

/* Start argv[0] with the serial pipe on QEMU_SERIAL_FD and call on_bytes with everything
 * it writes there until it exits. timeout_s 0: no timeout. SIGINT and SIGTERM stop QEMU
 * (the serial output until then is still delivered); so do the watch's stall limit, and
 * its on_stop runs first (w may be NULL). Returns 0 with res filled, or -1 if QEMU could
 * not be started (err says why). */
int qemu_run(char *const *argv, unsigned timeout_s, const struct qemu_watch *w,
	     void (*on_bytes)(void *ctx, const void *buf, size_t n), void *ctx,
	     struct qemu_result *res, char *err, size_t errlen);

#endif
