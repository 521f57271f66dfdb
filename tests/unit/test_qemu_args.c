/* SPDX-License-Identifier: BSD-2-Clause */
/* The QEMU runner without QEMU: the accel decision over injected system facts, the machine
 * table, the command line, ELF checks, and the run loop driven by a shell standing in for
 * QEMU (serial pipe on fd 3, exit status, timeout, interruption, exec failure), the stall
 * limit, and the monitor hook with a stand-in QMP peer on fd 4. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <elf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "run/cm_board.h"
#include "run/elf_boot.h"
#include "run/qemu.h"
#include "run/qmp.h"

/* facts: exists, accessible, kvm_intel, kvm_amd, kvm_pvm; an x86-64 image, host_arch
 * not checked */
static int choose(int want, struct qemu_facts f, char *why, size_t n)
{
	return qemu_choose_accel(want, &f, qemu_machine_for(EM_X86_64), why, n);
}

static int choose_on(int want, struct qemu_facts f, const char *host, int machine, char *why,
		     size_t n)
{
	snprintf(f.host_arch, sizeof f.host_arch, "%s", host);
	return qemu_choose_accel(want, &f, qemu_machine_for(machine), why, n);
}

/* KVM runs only an image of the host's own architecture. */
static void test_accel_host_arch(void **state)
{
	(void)state;
	char why[256];
	const struct qemu_facts hw = { 1, 1, 1, 0, 0, "" }, none = { 0, 0, 0, 0, 0, "" };

	/* an AArch64 image on an x86-64 host: TCG, and --accel kvm is an error */
	assert_int_equal(choose_on(QEMU_ACCEL_AUTO, hw, "x86_64", EM_AARCH64, why, sizeof why),
			 QEMU_ACCEL_TCG);
	assert_string_equal(why, "aarch64 image on an x86_64 host: KVM cannot run it");
	assert_int_equal(choose_on(QEMU_ACCEL_KVM, hw, "x86_64", EM_AARCH64, why, sizeof why), -1);
	assert_string_equal(why, "--accel kvm: an aarch64 image needs an aarch64 host for KVM; "
			    "this host is x86_64: use --accel tcg");
	assert_int_equal(choose_on(QEMU_ACCEL_TCG, hw, "x86_64", EM_AARCH64, why, sizeof why),
			 QEMU_ACCEL_TCG);
	/* the same image on an AArch64 host: KVM needs no kvm_intel there */
	const struct qemu_facts arm = { 1, 1, 0, 0, 0, "" };
	assert_int_equal(choose_on(QEMU_ACCEL_AUTO, arm, "aarch64", EM_AARCH64, why, sizeof why),
			 QEMU_ACCEL_KVM);
	assert_string_equal(why, "hardware-assisted: KVM on an aarch64 host");
	assert_int_equal(choose_on(QEMU_ACCEL_KVM, arm, "aarch64", EM_AARCH64, why, sizeof why),
			 QEMU_ACCEL_KVM);
	assert_int_equal(choose_on(QEMU_ACCEL_AUTO, none, "aarch64", EM_AARCH64, why, sizeof why),
			 QEMU_ACCEL_TCG);
	/* and an x86-64 image on it is foreign */
	assert_int_equal(choose_on(QEMU_ACCEL_KVM, arm, "aarch64", EM_X86_64, why, sizeof why), -1);
	assert_non_null(strstr(why, "an x86_64 image needs an x86_64 host"));
	/* x86-64 on x86-64: the usual rules */
	assert_int_equal(choose_on(QEMU_ACCEL_AUTO, hw, "x86_64", EM_X86_64, why, sizeof why),
			 QEMU_ACCEL_KVM);
	assert_string_equal(why, "hardware-assisted: kvm_intel is loaded");

	/* this machine, as probed */
	struct qemu_facts f;
	qemu_probe(&f);
	assert_true(f.host_arch[0] != 0);
}

static void test_accel_auto(void **state)
{
	(void)state;
	char why[256];

	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 0, 0, 0, 0, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_TCG);
	assert_string_equal(why, "no /dev/kvm");

	/* this machine: /dev/kvm from a software virtualizer */
	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 1, 1, 0, 0, 1, "" }, why, sizeof why),
			 QEMU_ACCEL_TCG);
	assert_non_null(strstr(why, "kvm_pvm, a software virtualizer"));
	assert_non_null(strstr(why, "--accel kvm to force"));
	/* even if a hardware module is also loaded */
	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 1, 1, 1, 0, 1, "" }, why, sizeof why),
			 QEMU_ACCEL_TCG);

	/* /dev/kvm with no hardware module: not trusted */
	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 1, 1, 0, 0, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_TCG);
	assert_non_null(strstr(why, "neither kvm_intel nor kvm_amd"));

	/* hardware-assisted but not ours to open */
	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 1, 0, 1, 0, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_TCG);
	assert_non_null(strstr(why, "not accessible"));

	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 1, 1, 1, 0, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_KVM);
	assert_string_equal(why, "hardware-assisted: kvm_intel is loaded");
	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 1, 1, 0, 1, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_KVM);
	assert_string_equal(why, "hardware-assisted: kvm_amd is loaded");

	/* a module without the device node */
	assert_int_equal(choose(QEMU_ACCEL_AUTO, (struct qemu_facts){ 0, 0, 1, 0, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_TCG);
}

static void test_accel_forced(void **state)
{
	(void)state;
	char why[256];

	assert_int_equal(choose(QEMU_ACCEL_TCG, (struct qemu_facts){ 1, 1, 1, 0, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_TCG);
	assert_int_equal(choose(QEMU_ACCEL_KVM, (struct qemu_facts){ 1, 1, 0, 0, 1, "" }, why, sizeof why),
			 QEMU_ACCEL_KVM);
	assert_non_null(strstr(why, "software virtualizer"));
	assert_int_equal(choose(QEMU_ACCEL_KVM, (struct qemu_facts){ 1, 1, 0, 0, 0, "" }, why, sizeof why),
			 QEMU_ACCEL_KVM);
	assert_int_equal(choose(QEMU_ACCEL_KVM, (struct qemu_facts){ 0, 0, 0, 0, 0, "" }, why, sizeof why), -1);
	assert_non_null(strstr(why, "/dev/kvm does not exist"));
	assert_int_equal(choose(QEMU_ACCEL_KVM, (struct qemu_facts){ 1, 0, 1, 0, 0, "" }, why, sizeof why), -1);
	assert_non_null(strstr(why, "not accessible"));
}

static void test_machines(void **state)
{
	(void)state;
	const struct qemu_machine *m = qemu_machine_for(EM_X86_64);
	assert_non_null(m);
	assert_string_equal(m->binary, "qemu-system-x86_64");
	assert_string_equal(m->package, "qemu-system-x86");
	assert_true(m->ready);
	m = qemu_machine_for(EM_AARCH64);
	assert_non_null(m);
	assert_string_equal(m->binary, "qemu-system-aarch64");
	assert_string_equal(m->package, "qemu-system-arm");
	assert_string_equal(m->arch, "aarch64");
	assert_true(m->ready);
	assert_int_equal(m->config_addr, 0);
	m = qemu_machine_for(EM_RISCV);
	assert_non_null(m);
	assert_string_equal(m->binary, "qemu-system-riscv64");
	assert_string_equal(m->package, "qemu-system-misc");
	assert_string_equal(m->arch, "riscv64");
	assert_true(m->config_addr != 0);
	assert_null(qemu_machine_for(EM_SPARC));
}

/* index of the first argument equal to s at or after from, or -1 */
static int find_arg(char **argv, const char *s, int from)
{
	for (int i = from; argv[i]; i++)
		if (!strcmp(argv[i], s))
			return i;
	return -1;
}

static void assert_pair(char **argv, const char *opt, const char *val)
{
	int i = find_arg(argv, opt, 1);
	assert_true(i > 0);
	assert_non_null(argv[i + 1]);
	assert_string_equal(argv[i + 1], val);
}

/* RISC-V virt: no firmware, Sscofpmf, and the config file loaded into RAM, never through
 * -fw_cfg (QEMU 7.2's board has no fw_cfg files); a comma in its path doubled. */
static void test_argv_riscv64(void **state)
{
	(void)state;
	struct qemu_opts o = {
		.machine = qemu_machine_for(EM_RISCV), .qemu = "/usr/bin/qemu-system-riscv64",
		.image = "/img/demo.elf", .accel = QEMU_ACCEL_TCG, .freq = 4000,
		.config_file = "/tmp/a,b",
	};
	char **argv = qemu_build_argv(&o);
	char want[128];

	assert_non_null(argv);
	assert_pair(argv, "-M", "virt");
	assert_pair(argv, "-bios", "none");
	assert_pair(argv, "-kernel", "/img/demo.elf");
	assert_pair(argv, "-cpu", "rv64,sscofpmf=true");
	snprintf(want, sizeof want, "loader,file=/tmp/a,,b,addr=0x%08lx,force-raw=on",
		 o.machine->config_addr);
	assert_pair(argv, "-device", want);
	assert_int_equal(find_arg(argv, "-fw_cfg", 1), -1);
	qemu_free_argv(argv);
}

static void test_argv(void **state)
{
	(void)state;
	char *extra[] = { "-smp", "2" };
	struct qemu_opts o = {
		.machine = qemu_machine_for(EM_X86_64), .qemu = "/usr/bin/qemu-system-x86_64",
		.image = "/img/demo.elf", .accel = QEMU_ACCEL_TCG, .icount = 0, .freq = 4000,
	};
	char **argv = qemu_build_argv(&o);
	assert_non_null(argv);
	assert_string_equal(argv[0], "/usr/bin/qemu-system-x86_64");
	assert_pair(argv, "-M", "q35");
	assert_pair(argv, "-m", "256M");
	assert_pair(argv, "-display", "none");
	assert_pair(argv, "-monitor", "none");
	assert_pair(argv, "-serial", "chardev:s0");
	assert_pair(argv, "-chardev", "file,id=s0,path=/dev/fd/3");
	assert_pair(argv, "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04");
	assert_pair(argv, "-kernel", "/img/demo.elf");
	assert_pair(argv, "-fw_cfg", "name=opt/bmprof/config,string=freq=4000");
	assert_pair(argv, "-accel", "tcg");
	assert_pair(argv, "-cpu", "max");
	assert_true(find_arg(argv, "-no-reboot", 1) > 0);
	assert_int_equal(find_arg(argv, "-icount", 1), -1);
	char *line = qemu_argv_string(argv);
	assert_string_equal(line, "/usr/bin/qemu-system-x86_64 -M q35 -m 256M -device "
		"isa-debug-exit,iobase=0xf4,iosize=0x04 -display none -no-reboot -monitor none "
		"-serial chardev:s0 -chardev file,id=s0,path=/dev/fd/3 -kernel /img/demo.elf "
		"-fw_cfg name=opt/bmprof/config,string=freq=4000 -accel tcg -cpu max");
	free(line);
	qemu_free_argv(argv);

	o.accel = QEMU_ACCEL_KVM;
	o.icount = 1;
	o.extra = extra;
	o.nextra = 2;
	argv = qemu_build_argv(&o);
	assert_pair(argv, "-accel", "kvm");
	/* the guest is told the host's caches (CPUID leaf 4), not QEMU's made-up ones */
	assert_pair(argv, "-cpu", "host,host-cache-info=on");
	assert_pair(argv, "-icount", "shift=0,sleep=off");
	/* extra arguments come last, in order */
	int n = 0;
	while (argv[n])
		n++;
	assert_string_equal(argv[n - 2], "-smp");
	assert_string_equal(argv[n - 1], "2");
	qemu_free_argv(argv);

	/* TCG in one thread (the instruction-counting plugin's inline counters); KVM ignores
	 * it */
	o.tcg_single = 1;
	argv = qemu_build_argv(&o);
	assert_pair(argv, "-accel", "kvm");
	qemu_free_argv(argv);
	o.accel = QEMU_ACCEL_TCG;
	argv = qemu_build_argv(&o);
	assert_pair(argv, "-accel", "tcg,thread=single");
	qemu_free_argv(argv);
}

/* --smp N: after -cpu, before the arguments after --; none without it. */
static void test_argv_smp(void **state)
{
	(void)state;
	char *extra[] = { "-d", "int" };
	struct qemu_opts o = {
		.machine = qemu_machine_for(EM_X86_64), .qemu = "/usr/bin/qemu-system-x86_64",
		.image = "/img/smp.elf", .accel = QEMU_ACCEL_TCG, .smp = 4, .freq = 1000,
		.extra = extra, .nextra = 2,
	};
	char **argv = qemu_build_argv(&o);
	assert_non_null(argv);
	char *line = qemu_argv_string(argv);
	assert_non_null(strstr(line, " -kernel /img/smp.elf -fw_cfg "
			       "name=opt/bmprof/config,string=freq=1000 -accel tcg -cpu max "
			       "-smp 4 -d int"));
	assert_int_equal(find_arg(argv, "-smp", find_arg(argv, "-smp", 1) + 1), -1);
	free(line);
	qemu_free_argv(argv);

	o.smp = 0;
	argv = qemu_build_argv(&o);
	assert_int_equal(find_arg(argv, "-smp", 1), -1);
	qemu_free_argv(argv);

	o.machine = qemu_machine_for(EM_AARCH64);
	o.smp = 8;
	o.nextra = 0;
	argv = qemu_build_argv(&o);
	assert_pair(argv, "-smp", "8");
	qemu_free_argv(argv);
}

/* A Cortex-M image: the board and CPU from its note, semihosting on, the config file
 * loaded into the config area (commas doubled) instead of fw_cfg, TCG only. */
static void test_argv_cortexm(void **state)
{
	(void)state;
	struct cm_board b = { .machine = "mps2-an505", .cpu = "cortex-m33",
			      .config_addr = 0x38003000, .config_size = 512 };
	struct qemu_opts o = {
		.machine = qemu_machine_for(EM_ARM), .qemu = "/usr/bin/qemu-system-arm",
		.image = "/img/s.elf", .accel = QEMU_ACCEL_TCG, .icount = 1, .freq = 20000,
		.config_file = "/tmp/a,b", .board = &b,
	};
	char **argv = qemu_build_argv(&o), *line;
	char why[256];

	assert_non_null(argv);
	line = qemu_argv_string(argv);
	assert_non_null(strstr(line, "/usr/bin/qemu-system-arm -M mps2-an505 -semihosting-config "
			       "enable=on,target=native -display none"));
	assert_pair(argv, "-device", "loader,file=/tmp/a,,b,addr=0x38003000,force-raw=on");
	assert_pair(argv, "-kernel", "/img/s.elf");
	assert_pair(argv, "-cpu", "cortex-m33");
	assert_pair(argv, "-accel", "tcg");
	assert_int_equal(find_arg(argv, "-fw_cfg", 1), -1);
	assert_int_equal(find_arg(argv, "-m", 1), -1);
	free(line);
	qemu_free_argv(argv);
	/* no config file: no loader argument can be made */
	o.config_file = NULL;
	assert_null(qemu_build_argv(&o));

	struct qemu_facts f = { .dev_kvm_exists = 1, .dev_kvm_accessible = 1, .kvm_intel = 1,
				.host_arch = "x86_64" };
	assert_int_equal(qemu_choose_accel(QEMU_ACCEL_AUTO, &f, o.machine, why, sizeof why),
			 QEMU_ACCEL_TCG);
	assert_int_equal(qemu_choose_accel(QEMU_ACCEL_KVM, &f, o.machine, why, sizeof why), -1);
	assert_int_equal(qemu_binary_matches("/usr/bin/qemu-system-arm", "cortex-m", "s.elf", why,
					     sizeof why), 0);
	assert_int_equal(qemu_binary_matches("qemu-system-aarch64", "cortex-m", "s.elf", why,
					     sizeof why), -1);
	assert_non_null(strstr(why, "use qemu-system-arm"));
}

/* A debug console file: -debugcon file:PATH on port 0x402, before the arguments after --;
 * none without it. */
static void test_argv_debugcon(void **state)
{
	(void)state;
	char *extra[] = { "-d", "int" };
	struct qemu_opts o = {
		.machine = qemu_machine_for(EM_X86_64), .qemu = "/usr/bin/qemu-system-x86_64",
		.image = "/img/fw.elf", .accel = QEMU_ACCEL_TCG, .freq = 1000, .extra = extra,
		.nextra = 2, .debugcon = "/tmp/fw log.txt",
	};
	char **argv = qemu_build_argv(&o);
	assert_non_null(argv);
	assert_pair(argv, "-debugcon", "file:/tmp/fw log.txt");
	assert_pair(argv, "-global", "isa-debugcon.iobase=0x402");
	char *line = qemu_argv_string(argv);
	assert_non_null(strstr(line, " -cpu max -debugcon 'file:/tmp/fw log.txt' -global "
			       "isa-debugcon.iobase=0x402 -d int"));
	free(line);
	qemu_free_argv(argv);

	o.debugcon = NULL;
	argv = qemu_build_argv(&o);
	assert_int_equal(find_arg(argv, "-debugcon", 1), -1);
	assert_int_equal(find_arg(argv, "-global", 1), -1);
	qemu_free_argv(argv);
}

static void test_parse_smp(void **state)
{
	(void)state;
	static const char *const bad[] = { "0", "9", "-1", "+4", " 4", "4 ", "4x", "x", "",
					   "99999999999999999999", "0x4" };
	char err[128];
	unsigned n = 77;

	for (unsigned v = 1; v <= QEMU_MAX_SMP; v++) {
		char s[8];
		snprintf(s, sizeof s, "%u", v);
		assert_int_equal(qemu_parse_smp(s, &n, err, sizeof err), 0);
		assert_int_equal(n, v);
	}
	assert_int_equal(qemu_parse_smp("04", &n, err, sizeof err), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char want[128];
		n = 77;
		assert_int_equal(qemu_parse_smp(bad[i], &n, err, sizeof err), -1);
		assert_int_equal(n, 77);
		snprintf(want, sizeof want, "--smp takes a number of CPUs from 1 to 8, not '%s'",
			 bad[i]);
		assert_string_equal(err, want);
	}
}

static void test_argv_aarch64(void **state)
{
	(void)state;
	struct qemu_opts o = {
		.machine = qemu_machine_for(EM_AARCH64), .qemu = "/usr/bin/qemu-system-aarch64",
		.image = "/img/shares.elf", .accel = QEMU_ACCEL_TCG, .icount = 1, .freq = 1000,
		.config_file = "/tmp/bm,cfg",
	};
	char **argv = qemu_build_argv(&o);
	assert_non_null(argv);
	char *line = qemu_argv_string(argv);
	assert_string_equal(line, "/usr/bin/qemu-system-aarch64 -M virt -m 256M -semihosting "
		"-display none -no-reboot -monitor none -serial chardev:s0 "
		"-chardev file,id=s0,path=/dev/fd/3 -kernel /img/shares.elf "
		"-fw_cfg name=opt/bmprof/config,file=/tmp/bm,,cfg -icount shift=0,sleep=off -accel tcg "
		"-cpu max");
	free(line);
	qemu_free_argv(argv);
	o.accel = QEMU_ACCEL_KVM;
	argv = qemu_build_argv(&o);
	assert_pair(argv, "-cpu", "host");
	assert_pair(argv, "-accel", "kvm");
	qemu_free_argv(argv);

	char *arg = qemu_fw_cfg_file("a,b,,c");
	assert_string_equal(arg, "name=opt/bmprof/config,file=a,,b,,,,c");
	free(arg);
}

static void test_argv_string_quoting(void **state)
{
	(void)state;
	char *argv[] = { "qemu", "a b", "it's", "", "x=1,y", NULL };
	char *s = qemu_argv_string(argv);
	assert_string_equal(s, "qemu 'a b' 'it'\\''s' '' x=1,y");
	free(s);
}

static void test_elf_machine(void **state)
{
	(void)state;
	char path[] = "/tmp/bmprof-test-elf-XXXXXX", err[256];
	int fd = mkstemp(path), m = 0;
	assert_true(fd >= 0);

	/* too short / not an ELF */
	assert_int_equal(write(fd, "hello", 5), 5);
	assert_int_equal(qemu_elf_machine(path, &m, err, sizeof err), -1);
	assert_non_null(strstr(err, "is not an ELF file"));

	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof eh);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_machine = EM_X86_64;
	assert_int_equal(pwrite(fd, &eh, sizeof eh, 0), (ssize_t)sizeof eh);
	assert_int_equal(qemu_elf_machine(path, &m, err, sizeof err), 0);
	assert_int_equal(m, EM_X86_64);
	close(fd);
	unlink(path);

	assert_int_equal(qemu_elf_machine(path, &m, err, sizeof err), -1);
	assert_non_null(strstr(err, "no such file"));
	assert_int_equal(qemu_elf_machine("/tmp", &m, err, sizeof err), -1);
	assert_non_null(strstr(err, "directory"));
}

static void test_find_binary(void **state)
{
	(void)state;
	char out[4096];
	assert_int_equal(qemu_find_binary("sh", out, sizeof out), 0);
	assert_true(access(out, X_OK) == 0);
	assert_non_null(strchr(out, '/'));
	assert_int_equal(qemu_find_binary("bmprof-no-such-binary-xyz", out, sizeof out), -1);
	assert_int_equal(qemu_find_binary("/bin/sh", out, sizeof out), 0);
	assert_string_equal(out, "/bin/sh");
	assert_int_equal(qemu_find_binary("/nonexistent/qemu", out, sizeof out), -1);
	assert_int_equal(qemu_find_binary("/tmp", out, sizeof out), -1);
}

struct sink {
	char data[256];
	size_t len;
};

static void collect(void *ctx, const void *buf, size_t n)
{
	struct sink *s = ctx;
	if (n > sizeof s->data - 1 - s->len)
		n = sizeof s->data - 1 - s->len;
	memcpy(s->data + s->len, buf, n);
	s->len += n;
	s->data[s->len] = 0;
}

static void test_run_pipe(void **state)
{
	(void)state;
	/* serial bytes on fd 3 reach the callback; stdout/stderr do not */
	char *argv[] = { "/bin/sh", "-c",
		"printf 'to stdout\\n'; printf 'to stderr\\n' >&2; printf 'ser\\0ial' >&3; exit 7",
		NULL };
	struct sink s = { .len = 0 };
	struct qemu_result res;
	char err[256];
	assert_int_equal(qemu_run(argv, 0, NULL, collect, &s, &res, err, sizeof err), 0);
	assert_int_equal(res.how, QEMU_EXITED);
	assert_int_equal(res.status, 7);
	assert_int_equal(s.len, 7);
	assert_memory_equal(s.data, "ser\0ial", 7);
	assert_int_equal(res.bytes, 7);
}

static void test_run_timeout(void **state)
{
	(void)state;
	char *argv[] = { "/bin/sh", "-c", "printf early >&3; exec sleep 30", NULL };
	struct sink s = { .len = 0 };
	struct qemu_result res;
	char err[256];
	assert_int_equal(qemu_run(argv, 1, NULL, collect, &s, &res, err, sizeof err), 0);
	assert_int_equal(res.how, QEMU_TIMEOUT);
	assert_string_equal(s.data, "early");
	assert_true(res.seconds >= 0.9 && res.seconds < 10);
}

static void test_run_interrupted(void **state)
{
	(void)state;
	/* the stand-in sends bmprof a SIGINT, as a Ctrl-C would; bmprof stops it and
	 * survives */
	char *argv[] = { "/bin/sh", "-c", "printf before >&3; kill -INT $PPID; exec sleep 30", NULL };
	struct sink s = { .len = 0 };
	struct qemu_result res;
	char err[256];
	assert_int_equal(qemu_run(argv, 20, NULL, collect, &s, &res, err, sizeof err), 0);
	assert_int_equal(res.how, QEMU_INTERRUPTED);
	assert_string_equal(s.data, "before");
	assert_true(res.seconds < 10);
	/* the default disposition is back afterwards */
	struct sigaction sa;
	sigaction(SIGINT, NULL, &sa);
	assert_true(sa.sa_handler == SIG_DFL);
}

static void test_run_exec_failure(void **state)
{
	(void)state;
	char *argv[] = { "/nonexistent/qemu-system-x86_64", NULL };
	struct sink s = { .len = 0 };
	struct qemu_result res;
	char err[256];
	assert_int_equal(qemu_run(argv, 0, NULL, collect, &s, &res, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot run /nonexistent/qemu-system-x86_64"));
	assert_non_null(strstr(err, "No such file"));
}

/* ---- the watch: stall limit and the monitor hook ---- */

struct watched {
	struct sink s;
	size_t bytes;
	double last;             /* when bytes last came */
	int stops;
	enum qemu_end how;
	char reply[256], refused[256], after[64];
	int ok_stop, ok_bad;
};

static void count_bytes(void *ctx, const void *buf, size_t n)
{
	struct watched *w = ctx;
	w->bytes += n;
	w->last = qemu_now();
	if (w->s.len < 200)
		collect(&w->s, buf, n);
}

static double last_progress(void *ctx)
{
	return ((struct watched *)ctx)->last;
}

static void test_run_stall(void **state)
{
	(void)state;
	/* bytes, then nothing: stopped by the stall limit, not the (long) timeout */
	char *argv[] = { "/bin/sh", "-c", "printf hello >&3; exec sleep 60", NULL };
	struct watched w = { .last = 0 };
	struct qemu_watch watch = { .stall_s = 0.5, .last_progress = last_progress, .ctx = &w };
	struct qemu_result res;
	char err[256];

	assert_int_equal(qemu_run(argv, 50, &watch, count_bytes, &w, &res, err, sizeof err), 0);
	assert_int_equal(res.how, QEMU_STALLED);
	assert_int_equal(w.bytes, 5);
	assert_true(res.seconds < 40);
}

static void on_stop(void *ctx, enum qemu_end how, struct qmp *q)
{
	struct watched *w = ctx;
	char *reply = NULL;
	char err[256];

	w->stops++;
	w->how = how;
	w->ok_stop = !qmp_exec(q, "{\"execute\":\"stop\"}", 20, &reply, err, sizeof err);
	if (reply)
		snprintf(w->reply, sizeof w->reply, "%s", reply);
	free(reply);
	w->ok_bad = !qmp_exec(q, "{\"execute\":\"bogus\"}", 20, NULL, w->refused,
			      sizeof w->refused);
	if (!qmp_exec(q, "{\"execute\":\"human-monitor-command\"}", 20, &reply, err,
		      sizeof err))
		qmp_string(reply, "return", w->after, sizeof w->after);
	free(reply);
}

/* A QMP peer on fd 4: the greeting, an event before each reply; before answering "stop"
 * it writes 256 KiB to the serial pipe, more than a pipe holds, so it only answers if the
 * runner keeps reading the serial side while it waits on the monitor. */
static const char qmp_peer[] =
	"import os, sys\n"
	"m = os.fdopen(4, 'rb+', buffering=0)\n"
	"os.write(3, b'up')\n"
	"m.write(b'{\"QMP\": {\"version\": {}}}\\r\\n')\n"
	"for line in iter(m.readline, b''):\n"
	"    m.write(b'{\"timestamp\": {}, \"event\": \"X\"}\\r\\n')\n"
	"    if b'stop' in line:\n"
	"        d = b'z' * (256 << 10)\n"
	"        while d: d = d[os.write(3, d):]\n"
	"        m.write(b'{\"return\": {}}\\r\\n')\n"
	"    elif b'bogus' in line:\n"
	"        m.write(b'{\"error\": {\"class\": \"CommandNotFound\", \"desc\": \"The command bogus has not been found\"}}\\r\\n')\n"
	"    elif b'quit' in line:\n"
	"        m.write(b'{\"return\": {}}\\r\\n')\n"
	"        sys.exit(0)\n"
	"    elif b'human' in line:\n"
	"        m.write(b'{\"return\": \"a\\\\\"b\\\\r\\\\nc\\\\u0041\"}\\r\\n')\n"
	"    else:\n"
	"        m.write(b'{\"return\": {}}\\r\\n')\n"
	"import time\n"
	"time.sleep(60)\n";

static void test_run_monitor_hook(void **state)
{
	(void)state;
	char *argv[] = { "/usr/bin/python3", "-c", (char *)qmp_peer, NULL };
	struct watched w = { .last = 0 };
	struct qemu_watch watch = { .stall_s = 0.5, .last_progress = last_progress,
				    .on_stop = on_stop, .ctx = &w };
	struct qemu_result res;
	char err[256];

	if (access(argv[0], X_OK))
		skip();
	assert_int_equal(qemu_run(argv, 50, &watch, count_bytes, &w, &res, err, sizeof err), 0);
	assert_int_equal(res.how, QEMU_STALLED);
	assert_int_equal(w.stops, 1);
	assert_int_equal(w.how, QEMU_STALLED);
	assert_true(w.ok_stop);
	assert_string_equal(w.reply, "{\"return\": {}}");
	assert_false(w.ok_bad);
	assert_non_null(strstr(w.refused, "The command bogus has not been found"));
	assert_string_equal(w.after, "a\"b\r\ncA");
	/* every serial byte written while the hook waited arrived */
	assert_int_equal(w.bytes, 2 + (256 << 10));
	/* then asked to quit over the monitor: it exited by itself, not by a signal */
	assert_int_equal(res.status, 0);
}

static void test_qmp_json(void **state)
{
	(void)state;
	char out[64];

	assert_int_equal(qmp_quote("/tmp/a\"b\\c\n", out, sizeof out), 0);
	assert_string_equal(out, "\"/tmp/a\\\"b\\\\c\\u000a\"");
	assert_int_equal(qmp_quote("0123456789", out, 8), -1);
	assert_int_equal(qmp_string("{\"desc\": \"x\\ty\"}", "desc", out, sizeof out), 0);
	assert_string_equal(out, "x\ty");
	assert_int_equal(qmp_string("{\"desc\": 5}", "desc", out, sizeof out), -1);
	assert_int_equal(qmp_string("{\"desc\": \"open", "desc", out, sizeof out), -1);
	assert_int_equal(qmp_string("{\"other\": \"x\"}", "desc", out, sizeof out), -1);
	assert_int_equal(qmp_string("{\"desc\": \"abcdef\"}", "desc", out, 4), 0);
	assert_string_equal(out, "abc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accel_auto),
		cmocka_unit_test(test_accel_forced),
		cmocka_unit_test(test_accel_host_arch),
		cmocka_unit_test(test_machines),
		cmocka_unit_test(test_argv),
		cmocka_unit_test(test_argv_smp),
		cmocka_unit_test(test_argv_debugcon),
		cmocka_unit_test(test_parse_smp),
		cmocka_unit_test(test_argv_aarch64),
		cmocka_unit_test(test_argv_riscv64),
		cmocka_unit_test(test_argv_string_quoting),
		cmocka_unit_test(test_elf_machine),
		cmocka_unit_test(test_find_binary),
		cmocka_unit_test(test_run_pipe),
		cmocka_unit_test(test_run_timeout),
		cmocka_unit_test(test_run_interrupted),
		cmocka_unit_test(test_run_exec_failure),
		cmocka_unit_test(test_run_stall),
		cmocka_unit_test(test_run_monitor_hook),
		cmocka_unit_test(test_qmp_json),
		cmocka_unit_test(test_argv_cortexm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
