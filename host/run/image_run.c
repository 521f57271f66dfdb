/* SPDX-License-Identifier: BSD-2-Clause */
/* Booting an image in QEMU and capturing its stream (image_run.h): the checks before QEMU
 * starts, the config file, the serial pipe and shared-memory consumer feeding the
 * capture, and what a stopped image still holds read back from its memory. */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "profile/target_log.h"
#include "report/summary.h"
#include "run/elf_boot.h"
#include "run/image_run.h"
#include "run/progress.h"
#include "run/qemu_uefi.h"
#include "run/recover_qemu.h"
#include "run/shm_qemu.h"
#include "symbol/elf_symbol.h"
#include "util/util.h"

#define DESCRIPTOR "bmprof_descriptor"

/* The status line of the run (one run at a time), erased before other output. */
static struct progress *status;

static void status_clear(void)
{
	if (status && status->shown) {
		fflush(stdout);
		progress_clear(status);
	}
}

static void print_text(void *ctx, const char *text, size_t len)
{
	status_clear();
	fwrite(text, 1, len, stdout);
	if (status)
		fflush(stdout);
}

static void print_log(void *ctx, uint8_t level, const char *text, size_t len)
{
	status_clear();
	fflush(stdout);
	target_log_print(stderr, level, text, len);
}

/* The capture's input: the serial pipe and, with --transport shm, the ring consumer's
 * thread, one push at a time (records arrive whole, so frames never interleave); and when
 * the last good frame arrived (qemu_now(); 0: none yet). */
struct feed {
	struct capture *cap;
	pthread_mutex_t lock;
	uint64_t frames;
	double last_frame;
};

/* Bytes from the serial port (whole = 0), or one whole frame from a ring record. */
static void feed_push(struct feed *f, const void *buf, size_t n, int whole)
{
	static int reported;
	int rc;

	pthread_mutex_lock(&f->lock);
	rc = whole ? capture_push_frame(f->cap, buf, n) : capture_push(f->cap, buf, n);
	if (rc && !reported) {
		bm_err("writing the profile file failed; still running");
		reported = 1;
	}
	if (capture_stats(f->cap)->frames_ok != f->frames) {
		f->frames = capture_stats(f->cap)->frames_ok;
		f->last_frame = qemu_now();
	}
	pthread_mutex_unlock(&f->lock);
}


/* ---- reading what a stopped image still holds (recover_qemu.h) ---- */

struct stopper {
	struct image_run *r;
	struct feed *feed;
	struct progress pg;
	uint64_t desc;              /* the descriptor's link-time address; 0: none (why) */
	char why[PATH_MAX + 200];   /* why nothing was read; "" */
	struct recover_run rr;
};

/* qemu_watch.last_progress: when the last good frame arrived */
static double stopper_last(void *ctx)
{
	struct feed *f = ((struct stopper *)ctx)->feed;
	double t;

	pthread_mutex_lock(&f->lock);
	t = f->last_frame;
	pthread_mutex_unlock(&f->lock);
	return t;
}

/* qemu_watch.tick: the status line, from what has arrived so far */
static void on_tick(void *ctx, double now)
{
	struct stopper *s = ctx;

	pthread_mutex_lock(&s->feed->lock);
	progress_show_profile(&s->pg, now, capture_profile(s->feed->cap));
	pthread_mutex_unlock(&s->feed->lock);
}

static const char *stop_name(enum qemu_end how)
{
	return how == QEMU_TIMEOUT ? "timeout" : how == QEMU_STALLED ? "stalled" :
	       "interrupted";
}

/* qemu_watch.on_stop: QEMU still runs; read the image's memory through the monitor. */
static void on_stop(void *ctx, enum qemu_end how, struct qmp *q)
{
	status_clear();
	struct stopper *s = ctx;
	const struct profile *p;
	int ended, hello;
	uint64_t bias;

	pthread_mutex_lock(&s->feed->lock);
	p = capture_profile(s->feed->cap);
	ended = p->have_end;
	hello = p->have_hello;
	bias = p->hello.load_bias;
	pthread_mutex_unlock(&s->feed->lock);
	if (ended || s->why[0])
		return;
	if (s->r->abs_efi[0] && !hello) {
		snprintf(s->why, sizeof s->why, "no HELLO frame arrived, so where the firmware "
			 "loaded the UEFI application is unknown");
		return;
	}
	fprintf(stderr, "bmprof: %s: stopping QEMU to read the samples the image still holds\n",
		stop_name(how));
	if (recover_qemu(&s->rr, q, s->desc + bias))
		snprintf(s->why, sizeof s->why, "%s", s->rr.err);
}

/* After QEMU and the rings: the recovered frames into the profile, or why there are none. */
static void recover_conclude(struct stopper *s)
{
	struct image_run *r = s->r;
	const struct recover_result *res = &r->rec;

	if (!s->rr.have) {
		if (s->why[0] && r->res.how != QEMU_EXITED && r->res.how != QEMU_KILLED)
			bm_err("cannot read the samples the image still held: %s", s->why);
		return;
	}
	if (recover_qemu_conclude(&s->rr, r->cap, stop_name(r->res.how), &r->rec))
		bm_err("writing the recovered samples into the profile failed");
	r->recovered = 1;
	fprintf(stderr, "bmprof: recovered %" PRIu64 " samples from the memory of %u CPU%s "
		"(%u stop%s)", res->samples, res->cpus, res->cpus == 1 ? "" : "s", s->rr.stops,
		s->rr.stops == 1 ? "" : "s");
	if (res->arrived || res->resent)
		fprintf(stderr, "; frames being sent: %u arrived, %u sent again", res->arrived,
			res->resent);
	if (res->stack_cpus)
		fprintf(stderr, "; call chains: %" PRIu64 " read from memory, %" PRIu64
			" had arrived", res->chains_read, res->chains_known);
	if (res->unchained)
		fprintf(stderr, ", %" PRIu64 " samples kept no chain (unreadable in memory)",
			res->unchained);
	if (res->raw_cpus)
		fprintf(stderr, "; raw samples: %" PRIu64 " read from memory", res->raw_samples);
	if (res->raw_unread)
		fprintf(stderr, ", %" PRIu64 " counted lost (a raw ring that did not add up)",
			res->raw_unread);
	fputc('\n', stderr);
	for (unsigned i = 0; i < s->rr.rec.ncpu; i++)
		if (s->rr.rec.cpu[i].present && s->rr.rec.cpu[i].problem[0])
			bm_err("cpu %u: not exact: %s", i, s->rr.rec.cpu[i].problem);
}

static void on_serial(void *ctx, const void *buf, size_t n)
{
	feed_push(ctx, buf, n, 0);
	fflush(stdout);
}

/* A ring record is one whole frame: it must not be spliced into the serial bytes, which
 * the reader may be holding in the middle of a frame (the runtime's messages before the
 * rings are set up travel on the serial port). */
static void on_ring(void *ctx, const void *buf, size_t n)
{
	feed_push(ctx, buf, n, 1);
}

/* QEMU binary for this image: 0 with the path, or -1 (reported). */
static int find_qemu(const struct image_run *r, char *path, size_t n)
{
	const struct qemu_machine *m = r->machine;

	if (r->qemu) {
		if (qemu_find_binary(r->qemu, path, n) == 0)
			return 0;
		bm_err("--qemu %s: no such executable", r->qemu);
		return -1;
	}
	if (qemu_find_binary(m->binary, path, n) == 0)
		return 0;
	bm_err("%s not found: install %s (or pass --qemu PATH)", m->binary, m->package);
	return -1;
}

/* A Cortex-M image: its board note, and none of what its runtime does not have. 0, or -1
 * (reported). */
static int prepare_board(struct image_run *r, char *err, size_t n)
{
	int found = cm_board_read(r->abs_image, &r->board, err, n);
	const char *no = r->smp > 1 ? "--smp (one CPU)" : r->shm ? "--transport shm" :
		r->raw ? "--data-space (raw samples)" : NULL;

	if (found <= 0) {
		if (!found)
			bm_err("%s is a 32-bit Arm ELF without bmprof's board note: build Cortex-M "
			       "images with make image ARCH=cortex-m3|cortex-m4|cortex-m33|cortex-m55 "
			       "(docs/integration-cortex-m.md)", r->image);
		else
			bm_err("%s", err);
		return -1;
	}
	if (no) {
		bm_err("%s: Cortex-M images do not have %s yet: run it without", r->image, no);
		return -1;
	}
	return 0;
}

/* The checks before starting QEMU: a readable ELF of a machine bmprof can boot, a QEMU,
 * an accelerator. 0, or -1 (reported). */
static int prepare(struct image_run *r, char *qemu_path, size_t qlen)
{
	char err[2 * PATH_MAX + 128], why[256], elf[PATH_MAX], efi[PATH_MAX];
	struct qemu_facts facts;
	int machine, uefi;

	/* a UEFI application boots under the firmware; its ELF is what gets symbolized */
	uefi = qemu_uefi_locate(r->image, elf, sizeof elf, efi, sizeof efi, err, sizeof err);
	if (uefi < 0) {
		bm_err("%s", err);
		return -1;
	}
	if (qemu_elf_machine(uefi ? elf : r->image, &machine, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (!realpath(uefi ? elf : r->image, r->abs_image) ||
	    (uefi && !realpath(efi, r->abs_efi))) {
		bm_err("%s: %s", r->image, strerror(errno));
		return -1;
	}
	if (!uefi)
		r->abs_efi[0] = 0;
	r->machine = qemu_machine_for(machine);
	if (!r->machine) {
		bm_err("%s is an ELF for machine %d, which bmprof cannot boot (it boots x86-64, "
		       "AArch64 and Cortex-M images)", r->image, machine);
		return -1;
	}
	if (!r->machine->ready) {
		bm_err("%s is an %s image: bmprof cannot boot %s images yet", r->image,
		       r->machine->arch, r->machine->arch);
		return -1;
	}
	if (!uefi && elf_bootable(r->image, machine, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (machine == EM_ARM && prepare_board(r, err, sizeof err))
		return -1;
	if (qemu_binary_matches(r->qemu, r->machine->arch, r->image, err, sizeof err)) {
		bm_err("%s", err);
		return -1;
	}
	if (uefi && !qemu_uefi_firmware(r->machine->arch)) {
		bm_err("%s: bmprof cannot boot %s UEFI applications", r->image, r->machine->arch);
		return -1;
	}
	if (r->user && (strcmp(r->machine->arch, "x86_64") || uefi)) {
		bm_err("--user runs main in ring 3 on the x86-64 runtime an image boots directly; "
		       "%s is %s: run it without --user", r->image,
		       uefi ? "a UEFI application" : "an AArch64 image");
		return -1;
	}
	if (r->firmware_log && *r->firmware_log && strcmp(r->machine->arch, "x86_64")) {
		bm_err("--firmware-log is for x86-64 (QEMU's debug console port): an %s firmware's "
		       "DEBUG build logs to the serial console, which goes to stdout; save that and "
		       "pass it to bmprof report --firmware-log", r->machine->arch);
		return -1;
	}
	if (find_qemu(r, qemu_path, qlen))
		return -1;
	qemu_probe(&facts);
	r->accel_used = qemu_choose_accel(r->accel, &facts, r->machine, why, sizeof why);
	if (r->accel_used < 0) {
		bm_err("%s", why);
		return -1;
	}
	fprintf(stderr, "bmprof: accel %s (%s)\n", qemu_accel_name(r->accel_used), why);
	return 0;
}

/* The config text into a new temporary file: 0 with its path, or -1 (reported). */
static int write_config(const char *text, char *path, size_t n)
{
	const char *dir = getenv("TMPDIR");
	size_t len = strlen(text);
	int fd;

	snprintf(path, n, "%s/bmprof-config-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		bm_err("cannot create the config file %s: %s", path, strerror(errno));
		return -1;
	}
	if (write(fd, text, len) != (ssize_t)len) {
		bm_err("cannot write the config file %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* config with the run's own settings after it (stack_depth=, flush_ms=, cpu_wait_ms=, raw=), as a new string
 * in *out, or *out NULL when there are none. 0, or -1 (out of memory, reported). */
static int run_settings(const struct image_run *r, const char *config, char **out)
{
	char more[96];
	int n = 0;

	*out = NULL;
	if (r->stack_depth)
		n += snprintf(more + n, sizeof more - (size_t)n, "stack_depth=%u\n", r->stack_depth);
	if (r->flush_ms)
		n += snprintf(more + n, sizeof more - (size_t)n, "flush_ms=%u\n", r->flush_ms);
	if (r->cpu_wait_ms)
		n += snprintf(more + n, sizeof more - (size_t)n, "cpu_wait_ms=%u\n", r->cpu_wait_ms);
	if (r->raw)
		n += snprintf(more + n, sizeof more - (size_t)n, "raw=1\n");
	if (!n)
		return 0;
	if ((config ? asprintf(out, "%s\n%s", config, more) :
	     asprintf(out, "freq=%lu\n%s", r->freq, more)) < 0) {
		*out = NULL;
		bm_err("out of memory");
		return -1;
	}
	return 0;
}

int image_run(struct image_run *r)
{
	char qemu_path[PATH_MAX], err[PATH_MAX + 256], cfg[PATH_MAX] = "";
	char freq_config[32];
	char freq[32], timeout[32], smp[16], *line = NULL, **qargv = NULL;
	struct bm_kv *meta = NULL;
	struct shm_file shm = { .path = "" };
	struct shm_consumer *con = NULL;
	struct qemu_uefi uefi = { .dir = "" };
	struct feed feed = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct stopper stop = { .r = r, .feed = &feed };
	char *shm_config = NULL, *run_config = NULL, **extra = r->extra;
	char flush[16], cpu_wait[16], stall[32], depth[16];
	const char *config;
	int rc = -1, nextra = r->nextra;
	uint64_t size;

	r->cap = NULL;
	r->shm_unused = 0;
	r->recovered = 0;
	/* A closed stdout (| head) loses console text, not the profile. */
	signal(SIGPIPE, SIG_IGN);
	if (prepare(r, qemu_path, sizeof qemu_path))
		return -1;
	if (r->abs_efi[0]) {
		if (qemu_uefi_prepare(&uefi, qemu_uefi_firmware(r->machine->arch), r->abs_efi, err,
				      sizeof err)) {
			bm_err("%s", err);
			goto out;
		}
		fprintf(stderr, "bmprof: UEFI boot of %s under %s (symbols from %s)\n", r->abs_efi,
			uefi.code, r->abs_image);
	}
	if (r->shm) {
		if (shm_file_create(&shm, r->shm_size ? r->shm_size : SHM_DEFAULT_SIZE, err,
				    sizeof err)) {
			bm_err("%s", err);
			goto out;
		}
		shm_config = shm_qemu_config(r->config, r->freq);
		extra = shm_qemu_args(&shm, r->machine->arch, r->abs_efi[0] != 0, r->extra,
				      r->nextra, &nextra);
		con = calloc(1, sizeof *con);
		if (!shm_config || !extra || !con) {
			bm_err("out of memory");
			goto out;
		}
	}
	config = shm_config ? shm_config : r->config;
	/* the status line counts what arrives: on a terminal, the image sends what it holds
	 * every second unless told otherwise */
	if (!r->flush_ms && r->progress_flush && progress_terminal())
		r->flush_ms = PROGRESS_FLUSH_MS;
	if (run_settings(r, config, &run_config))
		goto out;
	if (run_config)
		config = run_config;
	/* a board with no fw_cfg (the MPS boards, RISC-V virt) takes the config as a file in
	 * guest memory: always one, even freq= alone */
	if (!config && (r->board.machine[0] || r->machine->config_addr)) {
		snprintf(freq_config, sizeof freq_config, "freq=%lu\n", r->freq);
		config = freq_config;
	}
	if (r->board.machine[0] && strlen(config) >= r->board.config_size) {
		bm_err("the config is %zu bytes; %s's config area holds %u: shorten it", strlen(config),
		       r->image, r->board.config_size - 1);
		goto out;
	}
	if (config && write_config(config, cfg, sizeof cfg))
		goto out;
	if (r->recover && elf_symbol(r->abs_image, DESCRIPTOR, &stop.desc, &size, stop.why,
				     sizeof stop.why))
		stop.desc = 0;
	struct qemu_opts o = {
		.machine = r->machine, .qemu = qemu_path, .image = r->abs_image,
		.accel = r->accel_used, .icount = r->icount, .tcg_single = r->tcg_single,
		.smp = r->smp, .freq = r->freq,
		.config_file = cfg[0] ? cfg : NULL, .extra = extra, .nextra = nextra,
		.uefi = r->abs_efi[0] ? &uefi : NULL,
		.debugcon = r->firmware_log && *r->firmware_log ? r->firmware_log : NULL,
		.qmp = r->recover,
		.board = r->board.machine[0] ? &r->board : NULL,
	};
	qargv = qemu_build_argv(&o);
	line = qargv ? qemu_argv_string(qargv) : NULL;
	meta = calloc(r->nmeta + 16, sizeof *meta);
	if (!line || !meta) {
		bm_err("out of memory");
		goto out;
	}
	snprintf(freq, sizeof freq, "%lu", r->freq);
	snprintf(timeout, sizeof timeout, "%u", r->timeout);
	meta[0] = (struct bm_kv){ "qemu", line };
	/* what QEMU was given, --icount or -icount after -- alike */
	meta[1] = (struct bm_kv){ "icount", qemu_argv_icount(qargv) ? qemu_argv_icount(qargv) : "0" };
	meta[2] = (struct bm_kv){ "freq", freq };
	meta[3] = (struct bm_kv){ "timeout", timeout };
	size_t nmeta = 4;
	snprintf(smp, sizeof smp, "%u", r->smp);
	if (r->smp)
		meta[nmeta++] = (struct bm_kv){ "smp", smp };
	if (r->config)
		meta[nmeta++] = (struct bm_kv){ "config", r->config };
	if (r->shm)
		meta[nmeta++] = (struct bm_kv){ "transport", "shm" };
	if (o.debugcon)
		meta[nmeta++] = (struct bm_kv){ "firmware_log", r->firmware_log };
	if (r->firmware_debug && *r->firmware_debug)
		meta[nmeta++] = (struct bm_kv){ "firmware_debug", r->firmware_debug };
	if (r->params && *r->params)
		meta[nmeta++] = (struct bm_kv){ "params", r->params };
	if (r->user)
		meta[nmeta++] = (struct bm_kv){ "user_mode", "1" };
	snprintf(flush, sizeof flush, "%u", r->flush_ms);
	snprintf(stall, sizeof stall, "%g", r->stall);
	if (r->flush_ms)
		meta[nmeta++] = (struct bm_kv){ "flush_ms", flush };
	snprintf(depth, sizeof depth, "%u", r->stack_depth);
	if (r->stack_depth)
		meta[nmeta++] = (struct bm_kv){ "stack_depth", depth };
	snprintf(cpu_wait, sizeof cpu_wait, "%u", r->cpu_wait_ms);
	if (r->cpu_wait_ms)
		meta[nmeta++] = (struct bm_kv){ "cpu_wait_ms", cpu_wait };
	if (r->stall > 0)
		meta[nmeta++] = (struct bm_kv){ "stall", stall };
	if (r->raw)
		meta[nmeta++] = (struct bm_kv){ "data_space", "1" };
	if (r->nmeta)
		memcpy(meta + nmeta, r->meta, r->nmeta * sizeof *meta);
	nmeta += r->nmeta;
	struct capture_opts co = {
		.path = r->out, .elf = r->abs_image, .accel = qemu_accel_name(r->accel_used),
		.command = r->command, .meta = meta, .nmeta = nmeta, .on_text = r->on_text ? r->on_text : print_text,
		.on_log = print_log,
		.ctx = r->text_ctx,
	};
	r->cap = capture_open(&co, err, sizeof err);
	if (!r->cap) {
		bm_err("%s", err);
		goto out;
	}
	feed.cap = r->cap;
	if (con) {
		shm_consumer_init(con, shm.base, shm.size, on_ring, &feed);
		con->delay_us = r->shm_delay_us;
		con->hold = r->shm_at_end;
		if (shm_consumer_start(con)) {
			bm_err("cannot start the shared-memory consumer thread");
			goto out;
		}
	}
	progress_init(&stop.pg, qemu_now(), r->freq, qemu_argv_icount(qargv) &&
		      strcmp(qemu_argv_icount(qargv), "0"));
	if (r->step)
		snprintf(stop.pg.step, sizeof stop.pg.step, "%s", r->step);
	status = &stop.pg;
	struct qemu_watch watch = {
		.stall_s = r->stall, .last_progress = stopper_last,
		.on_stop = r->recover ? on_stop : NULL, .ctx = &stop,
		.tick = stop.pg.on ? on_tick : NULL, .tick_s = 0.5,
	};
	rc = qemu_run(qargv, r->timeout, &watch, on_serial, &feed, &r->res, err, sizeof err);
	status_clear();
	status = NULL;
	if (rc) {
		rc = -1;
		bm_err("%s", err);
		goto out;
	}
	rc = -1;
	if (con) {
		shm_consumer_stop(con);
		r->shm_unused = shm_qemu_conclude(r->cap, con, 1, r->res.how == QEMU_TIMEOUT ||
						  r->res.how == QEMU_INTERRUPTED ||
						  r->res.how == QEMU_STALLED) != 0;
	}
	if (r->recover)
		recover_conclude(&stop);
	capture_finish(r->cap);
	fflush(stdout);
	rc = 0;
out:
	if (rc && r->cap) {
		capture_free(r->cap);
		r->cap = NULL;
	}
	if (cfg[0])
		unlink(cfg);
	qemu_uefi_cleanup(&uefi);
	if (con)
		shm_consumer_stop(con);
	free(con);
	shm_file_destroy(&shm);
	free(shm_config);
	free(run_config);
	recover_free(&stop.rr.rec);
	if (extra != r->extra)
		shm_qemu_args_free(extra);
	free(meta);
	free(line);
	qemu_free_argv(qargv);
	return rc;
}

void image_run_free(struct image_run *r)
{
	if (r->cap)
		capture_free(r->cap);
	r->cap = NULL;
}

int image_exit_status(const struct image_run *r)
{
	const struct profile *p = capture_profile(r->cap);

	if (r->res.how == QEMU_INTERRUPTED)
		return EXIT_INTERRUPTED;
	if (r->res.how == QEMU_TIMEOUT || r->res.how == QEMU_STALLED)
		return EXIT_TIMEOUT;
	if (!p->have_end || p->end.reason != BMPROF_END_EXIT)
		return EXIT_CRASHED;
	return p->end.exit_code & 0xff;
}

void image_say_how_it_ended(const struct image_run *r)
{
	const struct profile *p = capture_profile(r->cap);
	const char *kept = r->recovered ? r->out ? "the profile keeps what arrived and what was "
		"read from the image's memory" : "showing what arrived and what was read from the "
		"image's memory" : r->out ? "the profile keeps what arrived" : "showing what arrived";

	switch (r->res.how) {
	case QEMU_TIMEOUT:
		bm_err("timeout after %u s: stopped QEMU; %s (--timeout SEC to wait longer, 0 for "
		       "no limit)", r->timeout, kept);
		break;
	case QEMU_INTERRUPTED:
		bm_err("interrupted: stopped QEMU; %s", kept);
		break;
	case QEMU_STALLED:
		bm_err("no frame for %g s: the image stopped answering (a hang?); stopped QEMU; %s "
		       "(--stall SEC to wait longer)", r->stall, kept);
		break;
	case QEMU_KILLED:
		bm_err("QEMU was killed by signal %d", r->res.status);
		break;
	case QEMU_EXITED:
		if (!p->have_end)
			bm_err("QEMU exited (status %d) without the image's END frame: it crashed, "
			       "reset or stopped without going through the bmprof runtime's exit",
			       r->res.status);
		break;
	}
}

