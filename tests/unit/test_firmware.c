/* SPDX-License-Identifier: BSD-2-Clause */
/* Samples outside the image: EDK2 console load lines, reading a firmware log (modules
 * counted, malformed lines skipped and counted), and the flat profile's grouping of outside
 * pcs (by 4 KiB page when nothing names them; by module and symbol when a module does;
 * never merged with the image's rows). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "report/firmware.h"
#include "flat.h"

static void test_load_lines(void **state)
{
	uint64_t base = 0, entry = 0;
	char name[64];

	(void)state;
	assert_int_equal(firmware_parse_load_line("Loading driver at 0x0007E8E5000 EntryPoint="
		"0x0007E8E6C80 DxeCore.efi\r\n", &base, &entry, name, sizeof name), 1);
	assert_int_equal(base, 0x7E8E5000);
	assert_int_equal(entry, 0x7E8E6C80);
	assert_string_equal(name, "DxeCore.efi");
	assert_int_equal(firmware_parse_load_line("Loading PEIM at 0x0000FFD7B40 EntryPoint="
		"0x0000FFD7F80 PcdPeim.efi\n", &base, &entry, name, sizeof name), 1);
	assert_int_equal(base, 0xFFD7B40);
	assert_string_equal(name, "PcdPeim.efi");
	assert_int_equal(firmware_parse_load_line("Loading SMM driver at 0x0007FFA6000 EntryPoint="
		"0x0007FFA7E5A CpuIo2Smm.efi", &base, &entry, name, sizeof name), 1);
	assert_string_equal(name, "CpuIo2Smm.efi");
	/* not load lines */
	assert_int_equal(firmware_parse_load_line("Loading PEIM 9B3ADA4F-AE56-4C24-8DEA-"
		"F03B7558AE50\n", &base, &entry, name, sizeof name), 0);
	assert_int_equal(firmware_parse_load_line("Loading driver 9F3A0016-AE55-4288-829D-"
		"D22FD344C347\n", &base, &entry, name, sizeof name), 0);
	assert_int_equal(firmware_parse_load_line("InstallProtocolInterface: 5B1B31A1 7E8E6040",
		&base, &entry, name, sizeof name), 0);
	assert_int_equal(firmware_parse_load_line("", &base, &entry, name, sizeof name), 0);
	/* malformed: no hex, no EntryPoint, no name, a name too long */
	assert_int_equal(firmware_parse_load_line("Loading driver at 0xZZ EntryPoint=0x1 A.efi",
		&base, &entry, name, sizeof name), -1);
	assert_int_equal(firmware_parse_load_line("Loading driver at 0x1000 Entry=0x1 A.efi",
		&base, &entry, name, sizeof name), -1);
	assert_int_equal(firmware_parse_load_line("Loading driver at 0x1000 EntryPoint=0x1100",
		&base, &entry, name, sizeof name), -1);
	assert_int_equal(firmware_parse_load_line("Loading driver at 0x0007E8E5000 EntryPoint=",
		&base, &entry, name, sizeof name), -1);
	assert_int_equal(firmware_parse_load_line("Loading driver at 0x1 EntryPoint=0x2 "
		"AVeryLongModuleName.efi", &base, &entry, name, 8), -1);
}

/* Lines cut and mutated from real load lines: each parses, is no load line, or is
 * malformed, and a parsed name always fits and is non-empty (run under ASan). */
static void test_load_lines_mutated(void **state)
{
	static const char *const seeds[] = {
		"Loading driver at 0x0007E8E5000 EntryPoint=0x0007E8E6C80 DxeCore.efi\n",
		"Loading PEIM at 0x0000FFD7B40 EntryPoint=0x0000FFD7F80 PcdPeim.efi\n",
	};
	static const char alphabet[] = "Loading drivePIMat 0x7EeFntryPoi=.efi \t\r\n";
	uint64_t x = 88172645463325252ull, base, entry;
	char line[128], name[16];

	(void)state;
	for (int i = 0; i < 20000; i++) {
		const char *seed = seeds[i & 1];
		size_t len = strlen(seed);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t cut = x % (len + 1);
		memcpy(line, seed, cut);
		line[cut] = 0;
		for (int k = 0; k < (int)(x >> 60) && cut; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			line[x % cut] = alphabet[(x >> 32) % (sizeof alphabet - 1)];
		}
		int rc = firmware_parse_load_line(line, &base, &entry, name, sizeof name);
		assert_true(rc >= -1 && rc <= 1);
		if (rc == 1)
			assert_true(name[0] && strlen(name) < sizeof name);
	}
}

static void test_log_without_debug(void **state)
{
	char path[] = "/tmp/bmprof-fwlog-XXXXXX", err[512];
	struct firmware fw;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("SecCoreStartupWithStack(0xFFFCC000, 0x820000)\n"
	      "Loading PEIM at 0x0007FEE1000 EntryPoint=0x0007FEE2280 PcdPeim.efi\n"
	      "Loading driver at 0x0007E8E5000 EntryPoint=0x0007E8E6C80 DxeCore.efi\n"
	      "Loading driver at 0x0007E8E5000 EntryPoint=0xnothex DxeCore.efi\n"
	      "Loading driver at\n", f);
	fclose(f);
	assert_int_equal(firmware_load(&fw, path, NULL, NULL, 0, err, sizeof err), 0);
	assert_int_equal(fw.log_modules, 2);
	assert_int_equal(fw.log_malformed, 2);
	assert_int_equal(fw.nmods, 0);     /* no debug directory: nothing to symbolize with */
	assert_true(fw.nnotes >= 2);
	assert_non_null(strstr(fw.notes[0], "2 malformed module load lines skipped"));
	assert_null(firmware_find(&fw, 0x7E8E6000));
	firmware_free(&fw);
	unlink(path);
	assert_int_equal(firmware_load(&fw, path, NULL, NULL, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot read the firmware log"));
	char *missing[] = { "/nonexistent/Mod.debug@0x1000" };
	assert_int_equal(firmware_load(&fw, NULL, NULL, missing, 1, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot read /nonexistent/Mod.debug"));
	char *bad[] = { "/nonexistent/Mod.debug@0xq" };
	assert_int_equal(firmware_load(&fw, NULL, NULL, bad, 1, err, sizeof err), -1);
	assert_non_null(strstr(err, "must be hex"));
}

/* The image at link 0x1000..0x3000; two modules that both have "Entry" at link 0x240;
 * and firmware code nothing names, on two pages. */
static const struct flat_pcinfo info[] = {
	/* pc, addr, symbol, sym_lo, sym_hi, function, file, line, outside, module,
	   pc_last */
	{ 0x101000, 0x1000, "main", 0x1000, 0x1100, NULL, "a.c", 1, 0, NULL, 0 },
	{ 0x102f00, 0x2f00, NULL, 0, 0, NULL, NULL, 0, 0, NULL, 0 },
	{ 0x7ea1234, 0x7ea1234, NULL, 0, 0, NULL, NULL, 0, 1, NULL, 0 },
	{ 0x7ea1f00, 0x7ea1f00, NULL, 0, 0, NULL, NULL, 0, 1, NULL, 0 },
	{ 0x7eb0010, 0x7eb0010, NULL, 0, 0, NULL, NULL, 0, 1, NULL, 0 },
	{ 0x7e000244, 0x244, "Entry", 0x240, 0x280, NULL, "m.c", 7, 1, "ModA.efi", 0 },
	{ 0x7e100248, 0x248, "Entry", 0x240, 0x280, NULL, "m.c", 7, 1, "ModB.efi", 0 },
	{ 0x7e100900, 0x900, NULL, 0, 0, NULL, "m.c", 9, 1, "ModB.efi", 0 },   /* a line, no symbol */
};	/* sorted by pc, as flat_compute wants */
#define NINFO (sizeof info / sizeof info[0])

static struct profile_sample samples[] = {
	{ 0x101000, 100, 0, 0 }, { 0x102f00, 3, 0, 0 },
	{ 0x7e000244, 20, 0, 0 }, { 0x7e100248, 10, 0, 0 }, { 0x7e100900, 4, 0, 0 },
	{ 0x7ea1234, 30, 0, 0 }, { 0x7ea1f00, 10, 0, 1 }, { 0x7eb0010, 5, 0, 0 },
};

static const struct flat_row *find(const struct flat_result *res, const char *symbol,
				   const char *module, uint64_t region)
{
	for (size_t i = 0; i < res->nrows; i++) {
		const struct flat_row *r = &res->rows[i];
		if ((symbol ? r->symbol && !strcmp(r->symbol, symbol) : !r->symbol) &&
		    (module ? r->module && !strcmp(r->module, module) : !r->module) &&
		    r->region_lo == region)
			return r;
	}
	return NULL;
}

static void test_flat_outside(void **state)
{
	struct profile p;
	struct flat_result res;
	const struct flat_row *r;

	(void)state;
	memset(&p, 0, sizeof p);
	p.samples = samples;
	p.nsamples = sizeof samples / sizeof samples[0];
	for (enum flat_sort sort = FLAT_BY_FUNCTION; sort <= FLAT_BY_CPU; sort++) {
		uint64_t sum = 0;
		assert_int_equal(flat_compute(&p, FLAT_ALL_EVENTS, info, NINFO, sort, &res), 0);
		assert_int_equal(res.total, 182);
		assert_int_equal(res.outside, 79);
		assert_int_equal(res.outside_symbolized, 30);
		for (size_t i = 0; i < res.nrows; i++)
			sum += res.rows[i].samples;
		assert_int_equal(sum, 182);
		flat_free(&res);
	}
	assert_int_equal(flat_compute(&p, FLAT_ALL_EVENTS, info, NINFO, FLAT_BY_FUNCTION, &res), 0);
	assert_int_equal(res.nrows, 7);
	/* the same symbol in two modules: two rows */
	r = find(&res, "Entry", "ModA.efi", 0);
	assert_non_null(r);
	assert_int_equal(r->samples, 20);
	assert_true(r->outside);
	r = find(&res, "Entry", "ModB.efi", 0);
	assert_non_null(r);
	assert_int_equal(r->samples, 10);
	/* a module pc with no symbol: its page, under the module */
	r = find(&res, NULL, "ModB.efi", 0x7e100000);
	assert_non_null(r);
	assert_int_equal(r->samples, 4);
	assert_int_equal(r->region_hi, 0x7e101000);
	/* two pcs on one page: one row, the sampled range, both CPUs */
	r = find(&res, NULL, NULL, 0x7ea1000);
	assert_non_null(r);
	assert_int_equal(r->samples, 40);
	assert_int_equal(r->addr_lo, 0x7ea1234);
	assert_int_equal(r->addr_hi, 0x7ea1f01);
	assert_int_equal(r->nper_cpu, 2);
	r = find(&res, NULL, NULL, 0x7eb0000);
	assert_non_null(r);
	assert_int_equal(r->samples, 5);
	/* the image's own unnamed pc stays [unknown]: not outside, no region */
	r = find(&res, NULL, NULL, 0);
	assert_non_null(r);
	assert_false(r->outside);
	assert_int_equal(r->samples, 3);
	assert_string_equal(res.rows[0].symbol, "main");
	flat_free(&res);

	/* line rows: the page rows survive; the modules' lines stay apart */
	assert_int_equal(flat_compute(&p, FLAT_ALL_EVENTS, info, NINFO, FLAT_BY_LINE, &res), 0);
	assert_non_null(find(&res, NULL, NULL, 0x7ea1000));
	assert_int_equal(find(&res, "Entry", "ModA.efi", 0)->samples, 20);
	assert_int_equal(find(&res, "Entry", "ModB.efi", 0)->samples, 10);
	r = find(&res, NULL, "ModB.efi", 0);      /* by its line, not by page */
	assert_non_null(r);
	assert_string_equal(r->file, "m.c");
	assert_int_equal(r->line, 9);
	assert_int_equal(r->samples, 4);
	flat_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_lines),
		cmocka_unit_test(test_load_lines_mutated),
		cmocka_unit_test(test_log_without_debug),
		cmocka_unit_test(test_flat_outside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
