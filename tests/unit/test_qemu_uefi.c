/* SPDX-License-Identifier: BSD-2-Clause */
/* UEFI boots without QEMU: which file boots and which symbolizes, the firmware table, the
 * temporary boot directory (application, VARS copy, padding, cleanup, missing firmware)
 * and the QEMU command line of a UEFI boot on both architectures. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "run/qemu.h"
#include "run/qemu_uefi.h"
#include "run/shm_qemu.h"

static char tmp[256];

static void put(const char *name, const char *text, char *path, size_t n)
{
	FILE *f;

	snprintf(path, n, "%s/%s", tmp, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof tmp, "/tmp/bmprof-test-uefi-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static int find(char **argv, const char *s)
{
	for (int i = 0; argv[i]; i++)
		if (!strcmp(argv[i], s))
			return i;
	return -1;
}

static void test_locate(void **state)
{
	char elf[PATH_MAX], efi[PATH_MAX], err[512], p[PATH_MAX], q[PATH_MAX];

	(void)state;
	put("app.elf", "\177ELF....", p, sizeof p);
	put("app.efi", "MZ......", q, sizeof q);
	/* the ELF with its .efi beside it: boots the .efi, symbolizes the ELF */
	assert_int_equal(qemu_uefi_locate(p, elf, sizeof elf, efi, sizeof efi, err, sizeof err), 1);
	assert_string_equal(elf, p);
	assert_string_equal(efi, q);
	/* the .efi itself: the same */
	memset(elf, 0, sizeof elf);
	assert_int_equal(qemu_uefi_locate(q, elf, sizeof elf, efi, sizeof efi, err, sizeof err), 1);
	assert_string_equal(elf, p);
	assert_string_equal(efi, q);
	/* an ELF alone boots with -kernel */
	put("plain.elf", "\177ELF....", p, sizeof p);
	assert_int_equal(qemu_uefi_locate(p, elf, sizeof elf, efi, sizeof efi, err, sizeof err), 0);
	/* a sibling .efi that is not a PE does not make it UEFI */
	put("plain.efi", "not a PE", q, sizeof q);
	assert_int_equal(qemu_uefi_locate(p, elf, sizeof elf, efi, sizeof efi, err, sizeof err), 0);
	/* a .efi without its ELF is an error that says what to do */
	put("lone.efi", "MZ......", q, sizeof q);
	assert_int_equal(qemu_uefi_locate(q, elf, sizeof elf, efi, sizeof efi, err, sizeof err), -1);
	assert_non_null(strstr(err, "lone.efi is a UEFI application"));
	assert_non_null(strstr(err, "make image BOOT=uefi"));
	/* a missing file is not UEFI here: the ELF check names it */
	snprintf(p, sizeof p, "%s/none.elf", tmp);
	assert_int_equal(qemu_uefi_locate(p, elf, sizeof elf, efi, sizeof efi, err, sizeof err), 0);
}

static void test_firmware_table(void **state)
{
	const struct qemu_firmware *x = qemu_uefi_firmware("x86_64");
	const struct qemu_firmware *a = qemu_uefi_firmware("aarch64");

	(void)state;
	assert_non_null(x);
	assert_non_null(a);
	assert_null(qemu_uefi_firmware("riscv64"));
	assert_string_equal(x->boot_file, "BOOTX64.EFI");
	assert_string_equal(x->package, "ovmf");
	assert_string_equal(x->code[0], "/usr/share/OVMF/OVMF_CODE_4M.fd");
	assert_string_equal(x->vars[0], "/usr/share/OVMF/OVMF_VARS_4M.fd");
	assert_int_equal(x->virtio_disk, 0);
	assert_string_equal(x->args[0], "-vga");
	assert_string_equal(x->args[1], "none");
	assert_null(x->args[2]);
	assert_string_equal(a->boot_file, "BOOTAA64.EFI");
	assert_string_equal(a->package, "qemu-efi-aarch64");
	assert_string_equal(a->code[0], "/usr/share/AAVMF/AAVMF_CODE.fd");
	assert_int_equal(a->pad, 64ll << 20);
	assert_int_equal(a->virtio_disk, 1);
}

/* With the firmware from the environment: the application lands at EFI/BOOT/BOOTAA64.EFI,
 * VARS and CODE are copied and padded to 64 MiB, and cleanup removes everything, files
 * QEMU might have added included. */
static void test_prepare(void **state)
{
	char code[PATH_MAX], vars[PATH_MAX], efi[PATH_MAX], path[PATH_MAX + 32], err[512];
	struct qemu_uefi u;
	struct stat st;
	FILE *f;
	char buf[8] = "";

	(void)state;
	put("code.fd", "CODE", code, sizeof code);
	put("vars.fd", "VARS", vars, sizeof vars);
	put("app.efi", "MZapp", efi, sizeof efi);
	setenv("TMPDIR", tmp, 1);
	setenv("BMPROF_UEFI_CODE", code, 1);
	setenv("BMPROF_UEFI_VARS", vars, 1);
	assert_int_equal(qemu_uefi_prepare(&u, qemu_uefi_firmware("aarch64"), efi, err,
					   sizeof err), 0);
	assert_int_equal(strncmp(u.dir, tmp, strlen(tmp)), 0);
	snprintf(path, sizeof path, "%s/EFI/BOOT/BOOTAA64.EFI", u.esp);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	assert_string_equal(buf, "MZapp");
	assert_int_equal(stat(u.vars, &st), 0);
	assert_int_equal(st.st_size, 64ll << 20);
	assert_int_not_equal(strcmp(u.code, code), 0);
	assert_int_equal(stat(u.code, &st), 0);
	assert_int_equal(st.st_size, 64ll << 20);
	snprintf(path, sizeof path, "%s/NvVars", u.esp);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof path, "%s", u.dir);
	qemu_uefi_cleanup(&u);
	assert_int_not_equal(stat(path, &st), 0);
	qemu_uefi_cleanup(&u);

	/* x86-64: no padding, CODE used in place */
	assert_int_equal(qemu_uefi_prepare(&u, qemu_uefi_firmware("x86_64"), efi, err,
					   sizeof err), 0);
	assert_string_equal(u.code, code);
	assert_int_equal(stat(u.vars, &st), 0);
	assert_int_equal(st.st_size, 4);
	snprintf(path, sizeof path, "%s/EFI/BOOT/BOOTX64.EFI", u.esp);
	assert_int_equal(stat(path, &st), 0);
	qemu_uefi_cleanup(&u);

	/* only one of the two variables */
	unsetenv("BMPROF_UEFI_VARS");
	assert_int_equal(qemu_uefi_prepare(&u, qemu_uefi_firmware("x86_64"), efi, err,
					   sizeof err), -1);
	assert_non_null(strstr(err, "set both BMPROF_UEFI_CODE and BMPROF_UEFI_VARS"));
	/* a firmware file that is not there */
	setenv("BMPROF_UEFI_VARS", "/nonexistent/VARS.fd", 1);
	assert_int_equal(qemu_uefi_prepare(&u, qemu_uefi_firmware("x86_64"), efi, err,
					   sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent/VARS.fd"));
	unsetenv("BMPROF_UEFI_CODE");
	unsetenv("BMPROF_UEFI_VARS");
	unsetenv("TMPDIR");
}

static void test_argv_uefi(void **state)
{
	struct qemu_uefi u = { .dir = "/t", .esp = "/t/a,b/esp", .code = "/fw/CODE.fd",
			       .vars = "/t/vars.fd" };
	struct qemu_opts o = {
		.machine = qemu_machine_for(EM_X86_64), .qemu = "/usr/bin/qemu-system-x86_64",
		.image = "/img/app.elf", .accel = QEMU_ACCEL_TCG, .freq = 4000, .uefi = &u,
	};

	u.args = qemu_uefi_firmware("x86_64")->args;
	char **argv = qemu_build_argv(&o), *line;
	int i;

	(void)state;
	assert_non_null(argv);
	assert_int_equal(find(argv, "-kernel"), -1);
	assert_int_equal(find(argv, "/img/app.elf"), -1);
	line = qemu_argv_string(argv);
	assert_string_equal(line, "/usr/bin/qemu-system-x86_64 -M q35 -m 256M -device "
		"isa-debug-exit,iobase=0xf4,iosize=0x04 -display none -no-reboot -monitor none "
		"-serial chardev:s0 -chardev file,id=s0,path=/dev/fd/3 "
		"-drive if=pflash,format=raw,unit=0,readonly=on,file=/fw/CODE.fd "
		"-drive if=pflash,format=raw,unit=1,file=/t/vars.fd "
		"-drive format=raw,file=fat:rw:/t/a,,b/esp -vga none "
		"-fw_cfg name=opt/bmprof/config,string=freq=4000 -accel tcg -cpu max");
	free(line);
	qemu_free_argv(argv);

	/* AArch64: the disk on virtio-blk-pci, and AAVMF's own arguments */
	u.virtio_disk = 1;
	u.args = qemu_uefi_firmware("aarch64")->args;
	snprintf(u.esp, sizeof u.esp, "/t/esp");
	o.machine = qemu_machine_for(EM_AARCH64);
	o.qemu = "/usr/bin/qemu-system-aarch64";
	argv = qemu_build_argv(&o);
	assert_non_null(argv);
	assert_int_equal(find(argv, "-kernel"), -1);
	i = find(argv, "if=none,id=bmprof-esp,format=raw,file=fat:rw:/t/esp");
	assert_true(i > 0);
	assert_string_equal(argv[i - 1], "-drive");
	assert_string_equal(argv[i + 1], "-device");
	assert_string_equal(argv[i + 2], "virtio-blk-pci,drive=bmprof-esp");
	assert_true(find(argv, "if=pflash,format=raw,unit=0,readonly=on,file=/fw/CODE.fd") > 0);
	assert_true(find(argv, "virt") > 0);
	i = find(argv, "-boot");
	assert_true(i > 0);
	assert_string_equal(argv[i + 1], "menu=on,splash-time=0");
	i = find(argv, "-nic");
	assert_true(i > 0);
	assert_string_equal(argv[i + 1], "none");
	qemu_free_argv(argv);
}

/* --transport shm: the ivshmem device always; highmem=off only for a plain AArch64 image
 * (its runtime reaches the ECAM below 4 GiB), never under UEFI (the firmware does PCI). */
static void test_shm_args(void **state)
{
	struct shm_file f = { .path = "/dev/shm/a,b", .size = 1 << 22 };
	char *user[] = { "-s" };
	char **v;
	int n;

	(void)state;
	v = shm_qemu_args(&f, "aarch64", 0, user, 1, &n);
	assert_non_null(v);
	v[n] = NULL;
	assert_true(find(v, "ivshmem-plain,memdev=bmshm") > 0);
	assert_true(find(v, "memory-backend-file,id=bmshm,share=on,size=4194304,"
			    "mem-path=/dev/shm/a,,b") > 0);
	assert_true(find(v, "highmem=off") > 0);
	assert_string_equal(v[n - 1], "-s");
	shm_qemu_args_free(v);

	v = shm_qemu_args(&f, "aarch64", 1, user, 1, &n);
	assert_non_null(v);
	v[n] = NULL;
	assert_true(find(v, "ivshmem-plain,memdev=bmshm") > 0);
	assert_int_equal(find(v, "highmem=off"), -1);
	assert_string_equal(v[n - 1], "-s");
	shm_qemu_args_free(v);

	v = shm_qemu_args(&f, "x86_64", 1, user, 1, &n);
	assert_non_null(v);
	v[n] = NULL;
	assert_true(find(v, "ivshmem-plain,memdev=bmshm") > 0);
	assert_int_equal(find(v, "highmem=off"), -1);
	shm_qemu_args_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_locate, setup, teardown),
		cmocka_unit_test(test_firmware_table),
		cmocka_unit_test_setup_teardown(test_prepare, setup, teardown),
		cmocka_unit_test(test_argv_uefi),
		cmocka_unit_test(test_shm_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
