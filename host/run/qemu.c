/* SPDX-License-Identifier: BSD-2-Clause */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "run/cm_board.h"
#include "run/qemu.h"
#include "run/qemu_uefi.h"
#include "run/qmp.h"
#include "util/util.h"

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

void qemu_probe(struct qemu_facts *f)
{
	f->dev_kvm_exists = exists("/dev/kvm");
	f->dev_kvm_accessible = f->dev_kvm_exists && access("/dev/kvm", R_OK | W_OK) == 0;
	f->kvm_intel = exists("/sys/module/kvm_intel");
	f->kvm_amd = exists("/sys/module/kvm_amd");
	f->kvm_pvm = exists("/sys/module/kvm_pvm");
	struct utsname u;
	snprintf(f->host_arch, sizeof f->host_arch, "%.15s", uname(&u) ? "" : u.machine);
}

const char *qemu_accel_name(int accel)
{
	return accel == QEMU_ACCEL_KVM ? "kvm" : accel == QEMU_ACCEL_TCG ? "tcg" : "auto";
}

static int kvm_error(const struct qemu_facts *f, char *why, size_t n)
{
	if (!f->dev_kvm_exists)
		snprintf(why, n, "--accel kvm: /dev/kvm does not exist (KVM is not available on "
			 "this machine): use --accel tcg");
	else
		snprintf(why, n, "--accel kvm: /dev/kvm is not accessible to this user: add the "
			 "user to the kvm group, or use --accel tcg");
	return -1;
}

/* KVM runs only guests of the host's own architecture. */
static int foreign(const struct qemu_facts *f, const struct qemu_machine *m)
{
	return m && m->kvm_host && f->host_arch[0] && strcmp(f->host_arch, m->kvm_host);
}

int qemu_choose_accel(enum qemu_accel want, const struct qemu_facts *f,
		      const struct qemu_machine *m, char *why, size_t n)
{
	/* On an Arm host KVM is the CPU's own virtualization; no module says so. */
	int arm_host = !strcmp(f->host_arch, "aarch64");
	const char *hw = f->kvm_intel ? "kvm_intel is loaded" : f->kvm_amd ? "kvm_amd is loaded"
		: "KVM on an aarch64 host";

	if (foreign(f, m)) {
		if (want == QEMU_ACCEL_KVM) {
			snprintf(why, n, "--accel kvm: an %s image needs an %s host for KVM; this "
				 "host is %s: use --accel tcg", m->arch, m->kvm_host, f->host_arch);
			return -1;
		}
		snprintf(why, n, "%s%s image on an %s host: KVM cannot run it",
			 want == QEMU_ACCEL_TCG ? "--accel tcg; " : "", m->arch, f->host_arch);
		return QEMU_ACCEL_TCG;
	}
	switch (want) {
	case QEMU_ACCEL_TCG:
		snprintf(why, n, "--accel tcg");
		return QEMU_ACCEL_TCG;
	case QEMU_ACCEL_KVM:
		if (!f->dev_kvm_exists || !f->dev_kvm_accessible)
			return kvm_error(f, why, n);
		if (f->kvm_pvm)
			snprintf(why, n, "--accel kvm; /dev/kvm is kvm_pvm, a software "
				 "virtualizer: ring-0 code runs slower than TCG");
		else
			snprintf(why, n, "--accel kvm");
		return QEMU_ACCEL_KVM;
	case QEMU_ACCEL_AUTO:
		break;
	}
	if (!f->dev_kvm_exists) {
		snprintf(why, n, "no /dev/kvm");
		return QEMU_ACCEL_TCG;
	}
	/* A software virtualizer exposes /dev/kvm without VT-x/AMD-V: guest ring-0 code is
	 * emulated instruction by instruction there, far slower than TCG. */
	if (f->kvm_pvm) {
		snprintf(why, n, "/dev/kvm is kvm_pvm, a software virtualizer: ring-0 code runs "
			 "slower than TCG; --accel kvm to force");
		return QEMU_ACCEL_TCG;
	}
	if (!f->kvm_intel && !f->kvm_amd && !arm_host) {
		snprintf(why, n, "/dev/kvm is not known to be hardware-assisted (neither kvm_intel "
			 "nor kvm_amd is loaded); --accel kvm to force");
		return QEMU_ACCEL_TCG;
	}
	if (!f->dev_kvm_accessible) {
		snprintf(why, n, "/dev/kvm is not accessible to this user (add the user to the kvm "
			 "group to use KVM)");
		return QEMU_ACCEL_TCG;
	}
	snprintf(why, n, "hardware-assisted: %s", hw);
	return QEMU_ACCEL_KVM;
}

static const char *const x86_64_args[] = {
	"-M", "q35", "-m", "256M",
	"-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
	NULL,
};

/* AArch64: the virt board; the runtime ends the run through semihosting's
 * SYS_EXIT_EXTENDED, which gives the same exit status as x86's isa-debug-exit. */
static const char *const aarch64_args[] = {
	"-M", "virt", "-m", "256M", "-semihosting",
	NULL,
};

/* Cortex-M: the board and the CPU come from the image's board note (cm_board.h). */
static const char *const cortexm_args[] = { NULL };
/* RISC-V: the virt board in machine mode with no firmware (every hart starts at the
 * image's 0x80000000); the runtime ends the run through the SiFive test device. QEMU 7.2
 * takes no -fw_cfg file on this board, so the config goes into RAM (qemu.h). */
static const char *const riscv64_args[] = {
	"-M", "virt", "-m", "256M", "-bios", "none",
	NULL,
};
#define RISCV64_CONFIG_ADDR 0x8F000000ul   /* boot/riscv64/fwcfg.c, linker/riscv64.ld */

/* Under KVM an x86-64 guest sees the host's cache descriptors (CPUID leaf 4): QEMU's own
 * describe an 8-way L1D whatever the host has, and what the image sizes by them (bmprof
 * bhive's written frames) would be sized for a cache the CPU does not have. */
static const struct qemu_machine machines[] = {
	{ EM_X86_64, "x86_64", "qemu-system-x86_64", "qemu-system-x86", x86_64_args,
	  "host,host-cache-info=on", "max", "x86_64", 1, 0 },
	/* a 32-bit multiboot wrapper of an x86-64 image boots the same way */
	{ EM_386, "x86_64", "qemu-system-x86_64", "qemu-system-x86", x86_64_args,
	  "host,host-cache-info=on", "max", "x86_64", 1, 0 },
	{ EM_AARCH64, "aarch64", "qemu-system-aarch64", "qemu-system-arm", aarch64_args,
	  "host", "max", "aarch64", 1, 0 },
	{ EM_ARM, "cortex-m", "qemu-system-arm", "qemu-system-arm", cortexm_args,
	  "", "", "cortex-m", 1, 0 },
	{ EM_RISCV, "riscv64", "qemu-system-riscv64", "qemu-system-misc", riscv64_args,
	  "host", "rv64,sscofpmf=true", "riscv64", 1, RISCV64_CONFIG_ADDR },
};

const struct qemu_machine *qemu_machine_for(int e_machine)
{
	for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++)
		if (machines[i].e_machine == e_machine)
			return &machines[i];
	return NULL;
}

struct argv_buf {
	char **v;
	size_t n, cap;
	int oom;
};

static void push(struct argv_buf *a, const char *s)
{
	if (a->oom)
		return;
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		char **v = realloc(a->v, cap * sizeof *v);
		if (!v) {
			a->oom = 1;
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	if (!(a->v[a->n] = strdup(s))) {
		a->oom = 1;
		return;
	}
	a->v[++a->n] = NULL;
}

char **qemu_build_argv(const struct qemu_opts *o)
{
	struct argv_buf a = { 0 };
	char buf[64];
	int kvm = o->accel == QEMU_ACCEL_KVM;

	push(&a, o->qemu);
	for (const char *const *p = o->machine->args; *p; p++)
		push(&a, *p);
	if (o->board) {
		/* the MPS boards: their own RAM sizes; the run ends through semihosting */
		push(&a, "-M");
		push(&a, o->board->machine);
		push(&a, "-semihosting-config");
		push(&a, "enable=on,target=native");
	}
	push(&a, "-display");
	push(&a, "none");
	push(&a, "-no-reboot");
	push(&a, "-monitor");
	push(&a, "none");
	if (o->qmp) {
		snprintf(buf, sizeof buf, "socket,id=bmqmp,fd=%d", QEMU_QMP_FD);
		push(&a, "-chardev");
		push(&a, buf);
		push(&a, "-mon");
		push(&a, "chardev=bmqmp,mode=control");
	}
	push(&a, "-serial");
	push(&a, "chardev:s0");
	push(&a, "-chardev");
	snprintf(buf, sizeof buf, "file,id=s0,path=/dev/fd/%d", QEMU_SERIAL_FD);
	push(&a, buf);
	if (o->uefi) {
		char **u = qemu_uefi_argv(o->uefi);

		a.oom |= !u;
		for (char **p = u; p && *p; p++) {
			push(&a, *p);
			free(*p);
		}
		free(u);
	} else {
		push(&a, "-kernel");
		push(&a, o->image);
	}
	if (o->board || (o->machine->config_addr && o->config_file)) {
		/* no fw_cfg on the board: the config file is loaded into guest memory */
		uint32_t addr = o->board ? o->board->config_addr : (uint32_t)o->machine->config_addr;
		char *arg = o->config_file ? qemu_loader_file(o->config_file, addr) : NULL;

		a.oom |= !arg;
		push(&a, "-device");
		push(&a, arg ? arg : "");
		free(arg);
	} else if (o->config_file) {
		char *arg = qemu_fw_cfg_file(o->config_file);

		push(&a, "-fw_cfg");
		if (!arg)
			a.oom = 1;
		else
			push(&a, arg);
		free(arg);
	} else {
		snprintf(buf, sizeof buf, "name=opt/bmprof/config,string=freq=%lu", o->freq);
		push(&a, "-fw_cfg");
		push(&a, buf);
	}
	if (o->icount) {
		push(&a, "-icount");
		push(&a, QEMU_ICOUNT_ARGS);
	}
	push(&a, "-accel");
	push(&a, kvm ? "kvm" : o->tcg_single ? "tcg,thread=single" : "tcg");
	push(&a, "-cpu");
	push(&a, o->board ? o->board->cpu : kvm ? o->machine->cpu_kvm : o->machine->cpu_tcg);
	if (o->smp) {
		snprintf(buf, sizeof buf, "%u", o->smp);
		push(&a, "-smp");
		push(&a, buf);
	}
	if (o->debugcon) {
		char *arg = NULL;

		a.oom |= asprintf(&arg, "file:%s", o->debugcon) < 0;
		push(&a, "-debugcon");
		push(&a, arg ? arg : "");
		push(&a, "-global");
		push(&a, "isa-debugcon.iobase=0x402");
		free(arg);
	}
	for (int i = 0; i < o->nextra; i++)
		push(&a, o->extra[i]);
	if (a.oom) {
		qemu_free_argv(a.v);
		return NULL;
	}
	return a.v;
}

/* "-icount" or "--icount", QEMU's two spellings of an option */
static int is_option(const char *arg, const char *name)
{
	return arg[0] == '-' && !strcmp(arg + 1 + (arg[1] == '-'), name);
}

const char *qemu_argv_icount(char *const *argv)
{
	const char *v = NULL;

	for (char *const *p = argv; *p; p++)
		if (is_option(*p, "icount"))
			v = p[1] ? p[1] : "";
	return v;
}

int qemu_argv_has(char *const *argv, const char *name)
{
	for (char *const *p = argv; *p; p++)
		if (is_option(*p, name))
			return 1;
	return 0;
}

int qemu_parse_smp(const char *s, unsigned *n, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !isdigit((unsigned char)*s) || *end || v < 1 || v > QEMU_MAX_SMP) {
		snprintf(err, errlen, "--smp takes a number of CPUs from 1 to %d, not '%s'",
			 QEMU_MAX_SMP, s);
		return -1;
	}
	*n = (unsigned)v;
	return 0;
}

void qemu_free_argv(char **argv)
{
	if (!argv)
		return;
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}

/* head, then path with its commas doubled, then tail */
static char *option_with_path(const char *head, const char *path, const char *tail)
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

char *qemu_fw_cfg_file(const char *path)
{
	return option_with_path("name=opt/bmprof/config,file=", path, "");
}

char *qemu_loader_file(const char *path, uint32_t addr)
{
	char tail[48];

	snprintf(tail, sizeof tail, ",addr=0x%08x,force-raw=on", addr);
	return option_with_path("loader,file=", path, tail);
}

static int shell_safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_-./=:,+@%", *s))
			return 0;
	return 1;
}

char *qemu_argv_string(char *const *argv)
{
	size_t len = 1;
	for (char *const *p = argv; *p; p++)
		len += 4 * strlen(*p) + 3;
	char *out = malloc(len), *o = out;
	if (!out)
		return NULL;
	for (char *const *p = argv; *p; p++) {
		if (p != argv)
			*o++ = ' ';
		if (shell_safe(*p)) {
			o = stpcpy(o, *p);
			continue;
		}
		*o++ = '\'';
		for (const char *s = *p; *s; s++)
			o = *s == '\'' ? stpcpy(o, "'\\''") : (*o = *s, o + 1);
		*o++ = '\'';
	}
	*o = 0;
	return out;
}

int qemu_elf_machine(const char *path, int *machine, char *err, size_t n)
{
	unsigned char h[EI_NIDENT + 4];
	int fd = bm_open_regular(path, "an ELF image", err, n);

	if (fd < 0)
		return -1;
	ssize_t r = read(fd, h, sizeof h);
	close(fd);
	if (r != (ssize_t)sizeof h || memcmp(h, ELFMAG, SELFMAG) != 0) {
		snprintf(err, n, "%s is not an ELF file: pass the image's ELF (e.g. "
			 "build/x86_64/NAME.elf)", path);
		return -1;
	}
	if (h[EI_DATA] == ELFDATA2MSB)
		*machine = h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3];
	else
		*machine = h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2];
	return 0;
}

static int executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int qemu_find_binary(const char *name, char *out, size_t n)
{
	if (strchr(name, '/')) {
		if (!executable(name))
			return -1;
		snprintf(out, n, "%s", name);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		snprintf(out, n, "%.*s/%s", len ? (int)len : 1, len ? path : ".", name);
		if (executable(out))
			return 0;
		path += len;
		if (*path == ':')
			path++;
	}
	return -1;
}

/* Signals received: the first stops QEMU, a later one cuts a recovery short. */
static volatile sig_atomic_t stop_signals;

static void on_stop(int sig)
{
	(void)sig;
	stop_signals++;
}

double qemu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the forked child: serial pipe on QEMU_SERIAL_FD, the monitor socket (when there is
 * one) on QEMU_QMP_FD, stdin /dev/null, stdout to stderr, own process group (a terminal's
 * Ctrl-C reaches bmprof only, which then stops QEMU), and killed if bmprof dies. Exec
 * failure is reported as errno through errfd. */
static void child(char *const *argv, int serial, int qmp, int errfd, const sigset_t *mask,
		  pid_t parent)
{
	int e = fcntl(errfd, F_DUPFD_CLOEXEC, 10);
	int s = fcntl(serial, F_DUPFD_CLOEXEC, 10);
	int m = qmp >= 0 ? fcntl(qmp, F_DUPFD_CLOEXEC, 10) : -1;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	if (e >= 0 && s >= 0 && null >= 0 && (qmp < 0 || m >= 0) && dup2(null, 0) >= 0 &&
	    dup2(2, 1) >= 0 && dup2(s, QEMU_SERIAL_FD) >= 0 &&
	    (qmp < 0 || dup2(m, QEMU_QMP_FD) >= 0))
		execv(argv[0], argv);
	int err = errno;
	if (e >= 0) {
		ssize_t w = write(e, &err, sizeof err);
		(void)w;
	}
	_exit(127);
}

static void restore(const struct sigaction *oi, const struct sigaction *ot, const sigset_t *mask)
{
	sigaction(SIGINT, oi, NULL);
	sigaction(SIGTERM, ot, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
}

/* One run: the serial pipe, what to tell on_bytes, and the monitor. */
struct run {
	int serial;
	void (*on_bytes)(void *ctx, const void *buf, size_t n);
	void *ctx;
	struct qemu_result *res;
	int eof;
	sig_atomic_t signals_at_stop;
};

static unsigned char serial_buf[65536];

/* Read what the serial pipe has: 1 bytes delivered, 0 end of file, -1 nothing (EINTR,
 * EAGAIN) or an error (eof set). */
static int pump(struct run *r)
{
	ssize_t n = read(r->serial, serial_buf, sizeof serial_buf);

	if (n > 0) {
		r->res->bytes += (uint64_t)n;
		r->on_bytes(r->ctx, serial_buf, (size_t)n);
		return 1;
	}
	if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
		r->eof = 1;
		return 0;
	}
	return -1;
}

static void pump_aux(void *ctx)
{
	struct run *r = ctx;

	if (!r->eof)
		pump(r);
}

/* A signal after the one that stopped QEMU cuts the monitor work short. */
static int cancelled(void *ctx)
{
	const struct run *r = ctx;

	return stop_signals > r->signals_at_stop;
}

/* bmprof decided to stop QEMU: let the watcher read it over the monitor first (the serial
 * pipe is served meanwhile), then ask QEMU to quit (over the monitor when there is one,
 * else with SIGTERM). */
static void stop_qemu(struct run *r, const struct qemu_watch *w, int qmp_fd,
		      const sigset_t *waitmask, pid_t pid)
{
	int quit = 0;

	if (w && w->on_stop && qmp_fd >= 0) {
		struct qmp q;
		char err[256];

		qmp_init(&q, qmp_fd);
		q.aux_fd = r->eof ? -1 : r->serial;
		q.aux = pump_aux;
		q.aux_ctx = r;
		q.mask = waitmask;
		q.cancelled = cancelled;
		q.cancel_ctx = r;
		r->signals_at_stop = stop_signals;
		w->on_stop(w->ctx, r->res->how, &q);
		quit = !qmp_exec(&q, "{\"execute\":\"quit\"}", 2.0, NULL, err, sizeof err);
		qmp_free(&q);
	}
	if (!quit)
		kill(pid, SIGTERM);
}

/* When the loop must wake up next: the timeout, the stall limit, or the kill. 0: never. */
static double wake_at(const struct qemu_watch *w, int stopping, double deadline,
		      double kill_at)
{
	double t = stopping ? kill_at : deadline, last;

	if (stopping || !w || w->stall_s <= 0 || !w->last_progress)
		return t;
	last = w->last_progress(w->ctx);
	/* frames may come through another thread: look again at least every quarter second */
	if (last <= 0)
		last = qemu_now() - w->stall_s + 0.25;
	last += w->stall_s;
	if (last > qemu_now() + 0.25)
		last = qemu_now() + 0.25;
	return t > 0 && t < last ? t : last;
}

static int stalled(const struct qemu_watch *w, double t)
{
	double last;

	if (!w || w->stall_s <= 0 || !w->last_progress)
		return 0;
	last = w->last_progress(w->ctx);
	return last > 0 && t - last >= w->stall_s;
}

int qemu_run(char *const *argv, unsigned timeout_s, const struct qemu_watch *w,
	     void (*on_bytes)(void *ctx, const void *buf, size_t n), void *ctx,
	     struct qemu_result *res, char *err, size_t errlen)
{
	int sp[2], ep[2] = { -1, -1 }, mp[2] = { -1, -1 }, st = 0, stopping = 0;
	sigset_t block, old, waitmask;
	struct sigaction sa = { .sa_handler = on_stop }, oi, ot;
	double start = qemu_now(), deadline = timeout_s ? start + timeout_s : 0, kill_at = 0;
	struct run r = { .on_bytes = on_bytes, .ctx = ctx, .res = res };

	memset(res, 0, sizeof *res);
	if (pipe2(sp, O_CLOEXEC) < 0)
		goto syserr;
	if (pipe2(ep, O_CLOEXEC) < 0 ||
	    (w && w->on_stop && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, mp) < 0)) {
		int e = errno;
		close(sp[0]);
		close(sp[1]);
		if (ep[0] >= 0) {
			close(ep[0]);
			close(ep[1]);
		}
		errno = e;
		goto syserr;
	}
	r.serial = sp[0];
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	stop_signals = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oi);
	sigaction(SIGTERM, &sa, &ot);

	pid_t self = getpid(), pid = fork();
	if (pid == 0)
		child(argv, sp[1], mp[1], ep[1], &old, self);
	close(sp[1]);
	close(ep[1]);
	if (mp[1] >= 0)
		close(mp[1]);
	if (pid < 0) {
		close(sp[0]);
		close(ep[0]);
		if (mp[0] >= 0)
			close(mp[0]);
		restore(&oi, &ot, &old);
		goto syserr;
	}
	setpgid(pid, pid);
	int child_errno;
	ssize_t got = read(ep[0], &child_errno, sizeof child_errno);
	close(ep[0]);
	if (got == (ssize_t)sizeof child_errno) {
		close(sp[0]);
		if (mp[0] >= 0)
			close(mp[0]);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		restore(&oi, &ot, &old);
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(child_errno));
		return -1;
	}

	/* Signals are taken only inside ppoll, so none is missed between checks. */
	waitmask = old;
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	res->how = QEMU_EXITED;
	double next_tick = w && w->tick && w->tick_s > 0 ? start : 0;
	while (!r.eof) {
		struct pollfd pfd = { .fd = sp[0], .events = POLLIN };
		double wake = wake_at(w, stopping, deadline, kill_at), t = qemu_now();
		if (next_tick > 0 && !stopping) {
			if (t >= next_tick) {
				w->tick(w->ctx, t);
				while (next_tick <= t)
					next_tick += w->tick_s;
			}
			if (wake <= 0 || next_tick < wake)
				wake = next_tick;
		}
		struct timespec to, *top = NULL;
		if (wake > 0) {
			double d = wake > t ? wake - t : 0;
			to.tv_sec = (time_t)d;
			to.tv_nsec = (long)((d - (double)to.tv_sec) * 1e9);
			top = &to;
		}
		int n = ppoll(&pfd, 1, top, &waitmask);
		if (n < 0 && errno != EINTR)
			break;
		t = qemu_now();
		if (!stopping) {
			enum qemu_end why = stop_signals ? QEMU_INTERRUPTED :
				deadline > 0 && t >= deadline ? QEMU_TIMEOUT :
				stalled(w, t) ? QEMU_STALLED : QEMU_EXITED;
			if (why != QEMU_EXITED) {
				res->how = why;
				stopping = 1;
				stop_qemu(&r, w, mp[0], &waitmask, pid);
				kill_at = qemu_now() + 5;
				continue;
			}
		}
		if (n > 0) {
			pump(&r);
			continue;
		}
		if (stopping && kill_at > 0 && t >= kill_at) {
			kill(pid, SIGKILL);
			kill_at = 0;
		}
	}
	close(sp[0]);
	if (mp[0] >= 0)
		close(mp[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	/* A second Ctrl-C still pending must not kill bmprof once the old handler is back. */
	struct timespec zero = { 0, 0 };
	while (sigtimedwait(&block, NULL, &zero) > 0)
		;
	restore(&oi, &ot, &old);
	res->seconds = qemu_now() - start;
	if (WIFEXITED(st)) {
		res->status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		res->status = WTERMSIG(st);
		if (res->how == QEMU_EXITED)
			res->how = QEMU_KILLED;
	}
	return 0;
syserr:
	snprintf(err, errlen, "cannot start QEMU: %s", strerror(errno));
	return -1;
}
