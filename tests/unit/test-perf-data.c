// SPDX-License-Identifier: MIT
/* perf.data written and read back, with records made by hand: two events
 * told apart by IDENTIFIER, rounds whose records are out of time order,
 * address spaces that fork and exec, LOST, THROTTLE and unknown records.
 * The samples point into this test's own executable, so that the symbols
 * they resolve to are known. Then the same file, truncated at every length
 * and with bytes overwritten everywhere: errors, never a crash (the suite
 * runs under ASan too). And records of 8 KB over many of the reader's
 * reads, one held back from the first round to the last. */
#include "sample/perf-data-read.h"
#include "harness.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define ID_A 1001		/* the first event */
#define ID_B 2002		/* the second */
#define BASE 0x10000000ULL	/* where the records say the executable is mapped */

int known_function(int x);

__attribute__((noinline)) int known_function(int x)
{
	return x * 3 + 1;
}

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = 2 * (b->len + n);
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

/* Where known_function is in the executable's file, and its path. */
static uint64_t function_offset(char *path, size_t size, uint64_t *pgoff)
{
	uintptr_t fn = (uintptr_t)known_function;
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	uint64_t off = 0;

	*pgoff = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, pg;
		char file[PATH_MAX] = "";

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &s, &e, &pg,
			   file) >= 3 && fn >= s && fn < e) {
			snprintf(path, size, "%s", file);
			*pgoff = pg;
			off = fn - s;
		}
	}
	if (f)
		fclose(f);
	return off;
}

/* A sample of the layout IDENTIFIER|IP|TID|TIME|CPU|PERIOD. */
static void sample(struct buf *b, uint64_t id, uint32_t pid, uint64_t ip, uint64_t time)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				       8 + 6 * 8 };
	uint32_t pt[2] = { pid, pid }, cpu[2] = { 0, 0 };

	put(b, &h, sizeof(h));
	put64(b, id);
	put64(b, ip);
	put(b, pt, 8);
	put64(b, time);
	put(b, cpu, 8);
	put64(b, 1000);	/* period */
}

/* The sample_id trailer: TID, TIME, CPU, IDENTIFIER. */
static void trailer(struct buf *b, uint64_t id, uint32_t pid, uint64_t time)
{
	uint32_t pt[2] = { pid, pid }, cpu[2] = { 0, 0 };

	put(b, pt, 8);
	put64(b, time);
	put(b, cpu, 8);
	put64(b, id);
}

static void mmap2(struct buf *b, uint32_t pid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *file, uint64_t time)
{
	size_t name = (strlen(file) + 1 + 7) & ~(size_t)7;
	struct perf_event_header h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER,
				       (uint16_t)(8 + 64 + name + 32) };
	uint32_t fields[2] = { pid, pid }, prot[2] = { PROT_READ | PROT_EXEC,
						       MAP_PRIVATE };
	char padded[PATH_MAX + 8] = { 0 };

	put(b, &h, sizeof(h));
	put(b, fields, 8);
	put64(b, start);
	put64(b, len);
	put64(b, pgoff);
	put64(b, 0);	/* maj, min */
	put64(b, 0);	/* ino */
	put64(b, 0);	/* ino_generation */
	put(b, prot, 8);
	strcpy(padded, file);
	put(b, padded, name);
	trailer(b, ID_A, pid, time);
}

/* A record of event @id other than a sample. */
static void record_of(struct buf *b, uint64_t id, uint32_t type, uint16_t misc,
		      const uint64_t *fields, size_t n, uint32_t pid, uint64_t time)
{
	struct perf_event_header h = { type, misc, (uint16_t)(8 + 8 * n + 32) };

	put(b, &h, sizeof(h));
	put(b, fields, 8 * n);
	trailer(b, id, pid, time);
}

static void simple(struct buf *b, uint32_t type, uint16_t misc, const uint64_t *fields,
		   size_t n, uint32_t pid, uint64_t time)
{
	record_of(b, ID_A, type, misc, fields, n, pid, time);
}

static void round_end(struct buf *b)
{
	struct perf_event_header h = { PD_RECORD_FINISHED_ROUND, 0, 8 };

	put(b, &h, sizeof(h));
}

/* The data section: what each check below relies on. */
static void make_records(struct buf *b, const char *exe, uint64_t off, uint64_t pgoff)
{
	uint64_t ip = BASE + off, lost[2] = { ID_A, 7 }, lost_b[2] = { ID_B, 5 };
	uint64_t lost_samples_a = 2, lost_samples_b = 8, thr[3] = { 50, ID_A, 0 };
	uint64_t fork[3] = { 101 | (100ULL << 32), 101 | (100ULL << 32), 60 };
	uint64_t comm[2] = { 101 | (101ULL << 32), 0x6c6c6168 };	/* "hall" */
	uint64_t unknown[2] = { 1, 2 };

	/* Round 1, out of order: the sample (t=20) comes before the mapping
	 * it needs (t=10) in the file; sorted, it resolves. */
	sample(b, ID_A, 100, ip, 20);
	mmap2(b, 100, BASE, 1 << 24, pgoff, exe, 10);
	sample(b, ID_B, 100, ip, 25);
	round_end(b);
	/* Round 2: lost (a ring's LOST names whichever event wrote next:
	 * they count for the whole file, and the events' own counts of the
	 * same drops, LOST_SAMPLES, are the smaller sum here), throttled, a
	 * record type nobody knows, a fork. */
	simple(b, PERF_RECORD_LOST, 0, lost, 2, 100, 40);
	record_of(b, ID_B, PERF_RECORD_LOST, 0, lost_b, 2, 100, 41);
	record_of(b, ID_A, PERF_RECORD_LOST_SAMPLES, 0, &lost_samples_a, 1, 100, 42);
	record_of(b, ID_B, PERF_RECORD_LOST_SAMPLES, 0, &lost_samples_b, 1, 100, 43);
	simple(b, PERF_RECORD_THROTTLE, 0, thr, 3, 100, 50);
	simple(b, PERF_RECORD_THROTTLE, 0, thr, 3, 100, 51);
	simple(b, 200, 0, unknown, 2, 100, 52);
	simple(b, PERF_RECORD_FORK, 0, fork, 3, 101, 60);
	sample(b, ID_A, 101, ip, 70);	/* the child has the parent's maps */
	round_end(b);
	/* Round 3: the child execs; its old maps are gone. */
	simple(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, comm, 2, 101, 80);
	sample(b, ID_A, 101, ip, 90);
	sample(b, ID_A, 100, ip, 95);
	round_end(b);
}

/* The samples' layout of the files written here (see sample()). */
static const struct perf_event_attr sample_attr = {
	.size = sizeof(sample_attr), .type = PERF_TYPE_SOFTWARE,
	.config = PERF_COUNT_SW_CPU_CLOCK, .sample_id_all = 1,
	.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD
};

/* @pipe: in perf's pipe format (perf record -o -). */
static FILE *write_file(const char *exe, uint64_t off, uint64_t pgoff, bool pipe)
{
	struct perf_event_attr attr = sample_attr;
	struct perf_event_attr attr2 = attr;
	uint64_t ids_a[] = { ID_A }, ids_b[] = { ID_B };
	struct pd_write_event ev[2] = { { &attr, "cpu-clock", ids_a, 1 },
					{ &attr2, "task-clock", ids_b, 1 } };
	struct pd_writer *w;
	struct buf b = { 0 };
	char *argv[] = { "record", "--", "test", NULL };
	FILE *f = tmpfile();

	attr2.config = PERF_COUNT_SW_TASK_CLOCK;
	if (pipe)
		CHECK_ERR(pd_writer_begin_pipe(f, ev, 2, argv, &w), 0);
	else
		CHECK_ERR(pd_writer_begin(f, ev, 2, &w), 0);
	make_records(&b, exe, off, pgoff);
	fwrite(b.p, 1, b.len, f);
	CHECK(pipe || pd_writer_data_size(w) == (int64_t)b.len, "data size");
	CHECK_ERR(pd_writer_add_file_stat(w, exe), 0);
	CHECK_ERR(pd_writer_add_file_stat(w, "/nonexistent/hwprof-test"), 0);
	CHECK_ERR(pd_writer_finish(w, argv), 0);
	fflush(f);
	free(b.p);
	return f;
}

struct order {
	uint64_t last_time;
	int records, out_of_order, samples;
};

static int check_order(const struct pd_record *rec, void *ctx)
{
	struct order *o = ctx;

	o->records++;
	o->out_of_order += rec->time < o->last_time;
	o->last_time = rec->time;
	o->samples += rec->h->type == PERF_RECORD_SAMPLE;
	return 0;
}

static void check_read_back(int fd)
{
	struct pd_file *f;
	struct order o = { 0 };
	struct pd_stats st;
	const char *cmdline;

	CHECK_ERR(pd_open(NULL, fd, &f), 0);
	if (!f)
		return;
	CHECK(pd_nr_events(f) == 2, "two events");
	CHECK(!strcmp(pd_event(f, 0)->name, "cpu-clock") &&
	      !strcmp(pd_event(f, 1)->name, "task-clock"),
	      "names from EVENT_DESC: %s, %s", pd_event(f, 0)->name,
	      pd_event(f, 1)->name);
	CHECK(pd_event(f, 1)->nr_ids == 1 && pd_event(f, 1)->ids[0] == ID_B, "ids");
	cmdline = pd_feature_string(f, PD_FEAT_CMDLINE);
	CHECK(cmdline && strstr(cmdline, "hwprof record -- test"), "cmdline: %s",
	      cmdline);
	CHECK_ERR(pd_foreach(f, check_order, &o), 0);
	/* The record of type 200, perf's range and unknown, is skipped by
	 * the reader and counted. */
	CHECK(o.records == 14 && o.samples == 5, "%d records, %d samples", o.records,
	      o.samples);
	pd_get_stats(f, &st);
	CHECK(st.skipped == 1, "%llu records skipped", (unsigned long long)st.skipped);
	CHECK(o.out_of_order == 0, "%d records out of time order", o.out_of_order);
	pd_close(f);
}

struct file_stats {
	const char *path;
	struct pd_file_stat st;
	int nr;
};

static int note_file_stat(const char *path, const struct pd_file_stat *st, void *ctx)
{
	struct file_stats *s = ctx;

	s->nr++;
	s->path = path;
	s->st = *st;
	return 0;
}

/* PD_FEAT_HWPROF_FILES: what stat() said of @exe, as it says now; of a
 * file it cannot see, nothing; and nothing in a pipe (perf would warn). */
static void check_file_stats(int fd, const char *exe, bool pipe)
{
	struct file_stats s = { 0 };
	struct pd_file_stat now;
	struct pd_file *f;

	CHECK_ERR(pd_open(NULL, fd, &f), 0);
	if (!f)
		return;
	CHECK_ERR(pd_foreach_file_stat(f, note_file_stat, &s), 0);
	CHECK_ERR(pd_file_stat_of(exe, &now), 0);
	if (pipe)
		CHECK(s.nr == 0, "%d files named in a pipe", s.nr);
	else
		CHECK(s.nr == 1 && !strcmp(s.path, exe) &&
		      !memcmp(&s.st, &now, sizeof(now)) && now.size && now.ino,
		      "%d files named: %s, %llu bytes", s.nr, s.path ? s.path : "",
		      (unsigned long long)s.st.size);
	pd_close(f);
}

/* A child that writes the file @fd into a pipe, whose read end goes to
 * *@rd; with @hold >= 0 it then keeps the pipe open until it reads a byte
 * from @hold (it has the write end too: a close is no end there). Its
 * pid. */
static pid_t pipe_writer(int fd, int hold, int *rd)
{
	char buf[4096];
	int pfd[2];
	ssize_t n;
	off_t at = 0;
	pid_t pid;

	CHECK(!pipe(pfd), "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
			if (write(pfd[1], buf, (size_t)n) != n)
				_exit(1);
			at += n;
		}
		if (hold >= 0)
			(void)!read(hold, buf, 1);
		_exit(0);
	}
	close(pfd[1]);
	*rd = pfd[0];
	return pid;
}

/* The file @fd, read as a stream by @check: a child writes it into a
 * pipe. */
static void through_pipe(int fd, void (*check)(int fd))
{
	int rd;
	pid_t pid = pipe_writer(fd, -1, &rd);

	check(rd);
	close(rd);
	CHECK(pid > 0 && waitpid(pid, NULL, 0) == pid, "the writer ends");
}

/* ---- records larger than a page, over many of the reader's reads ---- */

#define BIG_ROUNDS 3
#define BIG_PER_ROUND 400	/* 3.2 MB a round, read in pieces of 256 KiB */
#define BIG_WORDS 1000		/* a sample of 8 KB, as a DWARF one */

/* @f with @b's records as its data section, then its features. */
static FILE *finish_file(FILE *f, struct pd_writer *w, struct buf *b, char **argv)
{
	fwrite(b->p, 1, b->len, f);
	CHECK_ERR(pd_writer_finish(w, argv), 0);
	fflush(f);
	free(b->p);
	return f;
}

/* Samples of BIG_WORDS words, each word after the six fixed ones a
 * function of the sample's time: a sample read from the wrong bytes does
 * not pass. In each round the times go down, so that the round's first
 * sample waits to be sorted while the rest of the round is read. In the
 * middle of the even rounds, a record of 12 bytes: the records that
 * follow it are not 8-aligned, and are copied to be read. */
static FILE *write_big_file(bool pipe)
{
	struct perf_event_attr attr = sample_attr;
	uint64_t ids[] = { ID_A };
	struct pd_write_event ev = { &attr, "cpu-clock", ids, 1 };
	struct perf_event_header odd = { PD_RECORD_FINISHED_INIT, 0, 12 };
	struct pd_writer *w;
	struct buf b = { 0 };
	char *argv[] = { "record", "--", "test", NULL };
	FILE *f = tmpfile();

	if (pipe)
		CHECK_ERR(pd_writer_begin_pipe(f, &ev, 1, argv, &w), 0);
	else
		CHECK_ERR(pd_writer_begin(f, &ev, 1, &w), 0);
	for (uint64_t r = 0; r < BIG_ROUNDS; r++) {
		for (uint64_t j = 0; j < BIG_PER_ROUND; j++) {
			uint64_t t = r * 1000 + BIG_PER_ROUND - j;
			struct perf_event_header h = { PERF_RECORD_SAMPLE,
						       PERF_RECORD_MISC_USER,
						       8 + 8 * BIG_WORDS };
			uint32_t pt[2] = { 7, 7 }, cpu[2] = { 0, 0 };

			put(&b, &h, sizeof(h));
			put64(&b, ID_A);
			put64(&b, BASE);
			put(&b, pt, 8);
			put64(&b, t);
			put(&b, cpu, 8);
			put64(&b, 1);
			for (uint64_t i = 6; i < BIG_WORDS; i++)
				put64(&b, t * 1000 + i);
			if (r % 2 == 0 && j == BIG_PER_ROUND / 2) {
				put(&b, &odd, sizeof(odd));
				put(&b, "oddx", 4);
			}
		}
		round_end(&b);
	}
	return finish_file(f, w, &b, argv);
}

struct big {
	uint64_t last_time;
	int samples, out_of_order, wrong;
};

static int check_big_sample(const struct pd_record *rec, void *ctx)
{
	struct big *b = ctx;
	const uint64_t *w = (const uint64_t *)(rec->h + 1);

	if (rec->h->type != PERF_RECORD_SAMPLE)
		return 0;
	b->samples++;
	b->out_of_order += rec->time < b->last_time;
	b->last_time = rec->time;
	if (rec->h->size != 8 + 8 * BIG_WORDS || w[3] != rec->time) {
		b->wrong++;
		return 0;
	}
	for (uint64_t i = 6; i < BIG_WORDS; i++)
		if (w[i] != rec->time * 1000 + i) {
			b->wrong++;
			break;
		}
	return 0;
}

/* What the reader keeps for queued records before it copies them out:
 * its own limit (0), or one smaller than a round. */
static size_t big_keep_max;

static void check_big(int fd)
{
	struct pd_file *f;
	struct big b = { 0 };

	CHECK_ERR(pd_open(NULL, fd, &f), 0);
	if (!f)
		return;
	if (big_keep_max)
		f->keep_max = big_keep_max;
	CHECK_ERR(pd_foreach(f, check_big_sample, &b), 0);
	CHECK(b.samples == BIG_ROUNDS * BIG_PER_ROUND, "%d samples", b.samples);
	CHECK(!b.out_of_order, "%d samples out of time order", b.out_of_order);
	CHECK(!b.wrong, "%d samples not read whole from their own bytes", b.wrong);
	CHECK(b.last_time == (BIG_ROUNDS - 1) * 1000 + BIG_PER_ROUND,
	      "the last sample's time is %llu", (unsigned long long)b.last_time);
	pd_close(f);
}

static void check_big_files(void)
{
	static const size_t keep[] = { 0, 32 << 10 };

	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *f = write_big_file(pipe);

		for (size_t k = 0; k < ARRAY_SIZE(keep); k++) {
			big_keep_max = keep[k];
			check_big(fileno(f));
			if (pipe)
				through_pipe(fileno(f), check_big);
		}
		fclose(f);
	}
}

/* ---- rounds as the rings write them ---- */

#define RINGS 3
#define RING_SAMPLES 50

/* Rounds as a recorder writes them: each CPU's ring, in time order, one
 * after the other, the rings' times interleaved, some equal (the same
 * time on two CPUs: the earlier in the file goes first). The second round
 * is in order as a whole; the third's rings overlap the second's. */
static FILE *write_ring_file(void)
{
	struct perf_event_attr attr = sample_attr;
	uint64_t ids[] = { ID_A };
	struct pd_write_event ev = { &attr, "cpu-clock", ids, 1 };
	static const uint64_t round_base[] = { 1000, 2000, 1900 };
	struct pd_writer *w;
	struct buf b = { 0 };
	char *argv[] = { "record", "--", "test", NULL };
	FILE *f = tmpfile();

	CHECK_ERR(pd_writer_begin(f, &ev, 1, &w), 0);
	for (size_t r = 0; r < ARRAY_SIZE(round_base); r++) {
		for (uint64_t ring = 0; ring < RINGS; ring++)
			for (uint64_t j = 0; j < RING_SAMPLES; j++) {
				uint64_t t = round_base[r] + j * RINGS + ring % 2;

				if (r == 1)	/* one run: in order as a whole */
					t = round_base[r] + ring * RING_SAMPLES + j;
				sample(&b, ID_A, 7, BASE, t);
			}
		round_end(&b);
	}
	return finish_file(f, w, &b, argv);
}

struct by_time {
	uint64_t time, offset;
	int records, wrong;
};

static int check_time_offset(const struct pd_record *rec, void *ctx)
{
	struct by_time *o = ctx;

	if (o->records++ && (rec->time < o->time ||
			     (rec->time == o->time && rec->offset <= o->offset)))
		o->wrong++;
	o->time = rec->time;
	o->offset = rec->offset;
	return 0;
}

/* Every record, in the order of (time, offset in the file). */
static void check_rings(void)
{
	FILE *f = write_ring_file();
	struct by_time o = { 0 };
	struct pd_file *pf;

	CHECK_ERR(pd_open(NULL, fileno(f), &pf), 0);
	if (pf) {
		CHECK_ERR(pd_foreach(pf, check_time_offset, &o), 0);
		CHECK(o.records == 3 * RINGS * RING_SAMPLES, "%d records", o.records);
		CHECK(!o.wrong, "%d records out of (time, offset) order", o.wrong);
		CHECK(o.time == 2000 + RINGS * RING_SAMPLES - 1, "the last time is %llu",
		      (unsigned long long)o.time);
		pd_close(pf);
	}
	fclose(f);
}

/* ---- the records read on a thread of their own (pd_foreach_threads) ---- */

/* What a walk of a file's records saw: a word for each record, of its
 * bytes, offset, time and event and of the file's events as the callback
 * sees them; and how it ended. */
struct walk {
	const struct pd_file *f;
	uint64_t *seen;
	size_t nr, cap;
	long stop_at;		/* the callback fails at this record; -1: never */
	int err;
	char msg[512];
};

static int note_record(const struct pd_record *rec, void *ctx)
{
	struct walk *w = ctx;
	const unsigned char *p = (const unsigned char *)rec->h;
	size_t nr_events = pd_nr_events(w->f);
	uint64_t h = 1469598103934665603ULL;

	if ((long)w->nr == w->stop_at)
		return fail(-EIO, "the callback stops at record %zu", w->nr);
	for (size_t i = 0; i < rec->h->size; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	h ^= rec->offset * 31 + rec->time * 17 + (uint64_t)(rec->event + 1) * 7;
	/* the events the callback may look at, as they are at this record */
	h ^= nr_events << 56;
	if (rec->event >= 0 && (size_t)rec->event < nr_events)
		h ^= pd_event(w->f, (size_t)rec->event)->attr.config << 48;
	if (vec_reserve(&w->seen, &w->cap, w->nr + 1, sizeof(*w->seen)))
		return fail(-ENOMEM, "out of memory");
	w->seen[w->nr++] = h;
	return 0;
}

/* pd_foreach() itself, for walk_fd()'s @threads. */
#define PLAIN (-1)

/* @fd's records by pd_foreach() (@threads PLAIN) or pd_foreach_threads()
 * (0 for its own choice). */
static void walk_fd(int fd, int threads, struct walk *w)
{
	struct pd_file *f;

	w->err = pd_open(NULL, fd, &f);
	if (!w->err) {
		w->f = f;
		w->err = threads == PLAIN ? pd_foreach(f, note_record, w) :
			 pd_foreach_threads(f, (unsigned int)threads, note_record, w);
	}
	snprintf(w->msg, sizeof(w->msg), "%s", w->err ? hwp_errmsg() : "");
	pd_close(f);
}

static bool same_walk(const char *what, const struct walk *one, const struct walk *two)
{
	bool same_end = one->err == two->err && !strcmp(one->msg, two->msg);
	size_t i = 0;

	while (i < one->nr && i < two->nr && one->seen[i] == two->seen[i])
		i++;
	CHECK(one->nr == two->nr && i == one->nr,
	      "%s: %zu records by one thread, %zu by two, the same up to %zu", what,
	      one->nr, two->nr, i);
	CHECK(same_end, "%s: one thread ends with %d '%s', two with %d '%s'", what,
	      one->err, one->msg, two->err, two->msg);
	return one->nr == two->nr && i == one->nr && same_end;
}

/* The file @fd read by one thread and by two: the same records, in the
 * same order, and the same end; with the callback stopping in the middle
 * too. */
static void check_threads_agree(const char *what, int fd, size_t min_records)
{
	struct walk one = { .stop_at = -1 }, two = { .stop_at = -1 };

	walk_fd(fd, PLAIN, &one);
	walk_fd(fd, 2, &two);
	CHECK(!one.err && one.nr >= min_records, "%s: %zu records, error %d", what,
	      one.nr, one.err);
	if (same_walk(what, &one, &two) && one.nr > 2) {
		struct walk stop_one = { .stop_at = (long)one.nr / 2 };
		struct walk stop_two = { .stop_at = (long)one.nr / 2 };

		walk_fd(fd, PLAIN, &stop_one);
		walk_fd(fd, 2, &stop_two);
		CHECK(stop_one.err == -EIO, "%s: the callback's error: %d", what,
		      stop_one.err);
		same_walk(what, &stop_one, &stop_two);
		free(stop_one.seen);
		free(stop_two.seen);
	}
	free(one.seen);
	free(two.seen);
}

/* A pipe's stream read twice, by one thread and by two. */
static struct walk pipe_walk[2];

static void walk_pipe_one(int fd)
{
	walk_fd(fd, PLAIN, &pipe_walk[0]);
}

static void walk_pipe_two(int fd)
{
	walk_fd(fd, 2, &pipe_walk[1]);
}

/* A stream that describes its second event after its first samples: the
 * callback sees one event up to that record, two after it, whatever the
 * thread that read it. */
static FILE *write_late_event_file(void)
{
	struct perf_event_attr attr = sample_attr, late = sample_attr;
	uint64_t ids[] = { ID_A };
	struct pd_write_event ev = { &attr, "cpu-clock", ids, 1 };
	struct perf_event_header h = { PD_RECORD_HEADER_ATTR, 0,
				       (uint16_t)(8 + sizeof(late) + 8) };
	struct pd_writer *w;
	struct buf b = { 0 };
	char *argv[] = { "record", "--", "test", NULL };
	FILE *f = tmpfile();
	uint64_t t = 0;

	late.config = PERF_COUNT_SW_TASK_CLOCK;
	CHECK_ERR(pd_writer_begin_pipe(f, &ev, 1, argv, &w), 0);
	for (int r = 0; r < 3; r++) {
		for (int i = 0; i < 500; i++)
			sample(&b, ID_A, 7, BASE + (uint64_t)i, ++t);
		round_end(&b);
	}
	put(&b, &h, sizeof(h));
	put(&b, &late, sizeof(late));
	put64(&b, ID_B);
	for (int i = 0; i < 500; i++)
		sample(&b, i % 2 ? ID_A : ID_B, 7, BASE, ++t);
	round_end(&b);
	return finish_file(f, w, &b, argv);
}

/* Whether the thread reading fails to start (the wrapper below). */
static int thread_error;

int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
			  void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
			  void *arg);

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
			  void *arg)
{
	return thread_error ? thread_error : __real_pthread_create(t, a, fn, arg);
}

static char debug_log[4096];

static void keep_debug(enum hwp_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == HWP_LOG_DEBUG &&
	    strlen(debug_log) + strlen(msg) + 2 < sizeof(debug_log))
		strcat(strcat(debug_log, msg), "\n");
}

/* No second thread: the caller's reads alone, and says why in the debug log. */
static void check_no_thread(int fd)
{
	struct walk one = { .stop_at = -1 }, two = { .stop_at = -1 };

	walk_fd(fd, PLAIN, &one);
	hwp_log_set(keep_debug, NULL);
	hwp_log_set_level(HWP_LOG_DEBUG);
	thread_error = EAGAIN;
	walk_fd(fd, 2, &two);
	thread_error = 0;
	hwp_log_set(NULL, NULL);
	hwp_log_set_level(HWP_LOG_WARN);
	same_walk("no second thread", &one, &two);
	CHECK(strstr(debug_log, "read on one thread: no second thread (Resource temporarily unavailable)"),
	      "the debug log: %s", debug_log);
	free(one.seen);
	free(two.seen);
}

/* A pipe whose writer keeps it open after the file, until the walk has
 * ended: the callback fails at the second record, two threads asked for,
 * and the walk ends there with its error. A reader thread blocked in
 * read() on the quiet pipe would wait for the writer, which waits for the
 * walk: a hang (the test's timeout). */
static void check_quiet_pipe(int fd)
{
	struct walk w = { .stop_at = 1 };
	int done[2], rd;
	pid_t pid;

	CHECK(!pipe(done), "pipe: %s", strerror(errno));
	pid = pipe_writer(fd, done[0], &rd);
	close(done[0]);
	walk_fd(rd, 2, &w);
	CHECK(w.err == -EIO && w.nr == 1, "a quiet pipe: %zu records, then %d '%s'", w.nr,
	      w.err, w.msg);
	CHECK(write(done[1], "", 1) == 1, "the writer told");
	close(done[1]);
	close(rd);
	CHECK(pid > 0 && waitpid(pid, NULL, 0) == pid, "the writer ends");
	free(w.seen);
}

/* The default (0) on a file of a few MB: one thread, said at debug level
 * (a second's start and the first touch of its batches cost more than it
 * saves there), the records the same. */
static void check_small_file_default(int fd)
{
	struct walk one = { .stop_at = -1 }, dflt = { .stop_at = -1 };
	cpu_set_t set;

	walk_fd(fd, PLAIN, &one);
	debug_log[0] = '\0';
	hwp_log_set(keep_debug, NULL);
	hwp_log_set_level(HWP_LOG_DEBUG);
	walk_fd(fd, 0, &dflt);
	hwp_log_set(NULL, NULL);
	hwp_log_set_level(HWP_LOG_WARN);
	same_walk("the default on a small file", &one, &dflt);
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 1)
		CHECK(strstr(debug_log, "read on one thread") &&
		      strstr(debug_log, "too few to repay a second"), "the debug log: %s",
		      debug_log);
	free(one.seen);
	free(dflt.seen);
}

static void check_threads(void)
{
	FILE *f;
	long len;
	int fd;

	if (t_case("threads: files")) {
		f = write_big_file(false);
		check_threads_agree("big file", fileno(f), BIG_ROUNDS * BIG_PER_ROUND);
		check_no_thread(fileno(f));
		check_small_file_default(fileno(f));
		fclose(f);
		f = write_ring_file();
		check_threads_agree("rings", fileno(f), 3 * RINGS * RING_SAMPLES);
		fclose(f);
	}
	if (t_case("threads: a late event")) {
		f = write_late_event_file();
		check_threads_agree("late event", fileno(f), 2000);
		pipe_walk[0].stop_at = pipe_walk[1].stop_at = -1;
		through_pipe(fileno(f), walk_pipe_one);
		through_pipe(fileno(f), walk_pipe_two);
		same_walk("late event through a pipe", &pipe_walk[0], &pipe_walk[1]);
		CHECK(!pipe_walk[0].err && pipe_walk[0].nr >= 2000,
		      "%zu records, error %d", pipe_walk[0].nr, pipe_walk[0].err);
		free(pipe_walk[0].seen);
		free(pipe_walk[1].seen);
		fclose(f);
	}
	/* A stream saved to a file and cut short: the records before the cut
	 * (the rounds before it: none for the first cuts), then the same error. */
	if (t_case("threads: truncated")) {
		size_t before = 0;

		f = write_big_file(true);
		len = lseek(fileno(f), 0, SEEK_END);
		fd = memfd_create("cut", MFD_CLOEXEC);
		for (long cut = len / 7; cut < len; cut += len / 7 + 13) {
			unsigned char *bytes = malloc((size_t)cut);
			struct walk one = { .stop_at = -1 }, two = { .stop_at = -1 };
			char what[64];

			CHECK(pread(fileno(f), bytes, (size_t)cut, 0) == cut, "read");
			ftruncate(fd, 0);
			pwrite(fd, bytes, (size_t)cut, 0);
			free(bytes);
			walk_fd(fd, PLAIN, &one);
			walk_fd(fd, 2, &two);
			snprintf(what, sizeof(what), "cut at %ld of %ld", cut, len);
			CHECK(one.err == -HWP_ERR_FORMAT && strstr(one.msg, "bytes long"),
			      "%s: %d '%s' after %zu records", what, one.err, one.msg,
			      one.nr);
			before += one.nr;
			same_walk(what, &one, &two);
			free(one.seen);
			free(two.seen);
		}
		CHECK(before > 0, "records before the cuts: %zu", before);
		close(fd);
		fclose(f);
	}
	t_case_end();
}

struct top {
	const char *sym[8];
	const char *dso[8];
	uint64_t samples[8];
	int n;
};

static int collect_top(const struct hwp_entry *e, void *ctx)
{
	struct top *t = ctx;

	if (t->n < 8) {
		t->sym[t->n] = e->symbol;
		t->dso[t->n] = e->dso;
		t->samples[t->n] = e->samples;
		t->n++;
	}
	return 0;
}

static void check_profile(const char *path, const char *exe)
{
	struct hwp_profile *p;
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct top t = { 0 };
	HWP_OPTS(hwp_profile_opts, o, .event = "task-clock");

	CHECK_ERR(hwp_profile_load(path, NULL, &p), 0);
	if (!p)
		return;
	CHECK_ERR(hwp_profile_info(p, &in), 0);
	CHECK(in.samples == 4 && in.other_samples == 1 && in.period == 4000,
	      "samples %llu, other %llu",
	      (unsigned long long)in.samples, (unsigned long long)in.other_samples);
	CHECK(in.lost == 12 && in.throttled == 2 && in.skipped == 1,
	      "lost %llu throttled %llu skipped %llu",
	      (unsigned long long)in.lost, (unsigned long long)in.throttled,
	      (unsigned long long)in.skipped);
	CHECK(!strcmp(in.event, "cpu-clock") && in.nr_events == 2, "event %s", in.event);
	CHECK_ERR(hwp_profile_foreach_entry(p, HWP_SORT_SYM, 0, collect_top, &t), 0);
#ifdef HAVE_LIBDW
	/* Three resolve (the parent twice, the forked child once); the child's
	 * sample after its exec has no mapping. */
	CHECK(t.n == 2 && t.sym[0] && !strcmp(t.sym[0], "known_function") &&
	      t.samples[0] == 3 && !strcmp(t.dso[0], exe),
	      "top: %s in %s, %llu samples", t.sym[0], t.dso[0],
	      (unsigned long long)t.samples[0]);
	CHECK(t.n == 2 && !t.sym[1] && !strcmp(t.dso[1], "[unknown]") &&
	      t.samples[1] == 1, "after exec: %s", t.dso[1]);
#else
	/* Without libdw the mapping still places them in the executable. */
	CHECK(t.n == 2 && !strcmp(t.dso[0], exe) && t.samples[0] == 3, "top in %s",
	      t.dso[0]);
#endif
	hwp_profile_free(p);
	CHECK_ERR(hwp_profile_load(path, &o, &p), 0);
	if (p) {
		hwp_profile_info(p, &in);
		CHECK(in.samples == 1 && !strcmp(in.event, "task-clock"),
		      "the second event");
		CHECK(in.lost == 12, "the file's lost samples, whatever event: %llu",
		      (unsigned long long)in.lost);
		hwp_profile_free(p);
	}
	o.event = "cycles";
	CHECK_ERR(hwp_profile_load(path, &o, &p), -ENOENT);
	CHECK(strstr(hwp_errmsg(), "it has: cpu-clock, task-clock"), "%s", hwp_errmsg());
}

/* A file of @nr events that all name the @blob bytes of ids at @ids_at;
 * the attributes follow the blob, and the data section is empty. */
static int shared_ids_file(size_t nr, size_t blob, uint64_t ids_at)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP
	};
	uint64_t attrs = PD_FILE_HEADER_SIZE + blob, entry = sizeof(struct pd_file_attr);
	struct pd_file_header hdr = {
		.magic = PD_MAGIC,
		.size = PD_FILE_HEADER_SIZE,
		.attr_size = entry,
		.attrs = { attrs, nr * entry },
		.data = { attrs + nr * entry, 0 },
	};
	int fd = memfd_create("shared-ids", MFD_CLOEXEC);
	struct buf b = { 0 };

	put(&b, &hdr, sizeof(hdr));
	for (size_t i = 0; i < blob / 8; i++)
		put64(&b, i + 1);
	for (size_t i = 0; i < nr; i++) {
		put(&b, &attr, sizeof(attr));
		put64(&b, ids_at);
		put64(&b, blob);
	}
	CHECK(pwrite(fd, b.p, b.len, 0) == (ssize_t)b.len, "write the file");
	free(b.p);
	return fd;
}

/* 1,024 events whose ids are the same 128 KiB: refused before any is
 * copied, not after 128 MiB of copies. Run first: the peak memory of the
 * process is what is measured. */
static void check_shared_ids(void)
{
	struct rusage before, after;
	struct pd_file *f = NULL;
	int fd = shared_ids_file(1024, 128 << 10, PD_FILE_HEADER_SIZE);

	getrusage(RUSAGE_SELF, &before);
	CHECK_ERR(pd_open(NULL, fd, &f), -HWP_ERR_FORMAT);
	getrusage(RUSAGE_SELF, &after);
	CHECK(strstr(hwp_errmsg(), "'(in memory)' is not a valid perf.data file: the ids of event 0 (131072 bytes at 104) overlap those of event 1 (131072 bytes at 104)"),
	      "%s", hwp_errmsg());
	CHECK(after.ru_maxrss - before.ru_maxrss < 16 * 1024,
	      "the peak memory grew by %ld KiB", after.ru_maxrss - before.ru_maxrss);
	pd_close(f);
	close(fd);
	/* Ids that are the attributes themselves. */
	fd = shared_ids_file(1, 8, PD_FILE_HEADER_SIZE + 8);
	CHECK_ERR(pd_open(NULL, fd, &f), -HWP_ERR_FORMAT);
	CHECK(strstr(hwp_errmsg(),
		     "the ids of event 0 (8 bytes at 112) overlap the attribute section"),
	      "%s", hwp_errmsg());
	pd_close(f);
	close(fd);
}

/* Every truncation and every byte overwritten: an error or a profile, whose
 * report (one in eight, as symbols take time) works too. */
static void check_hostile(const unsigned char *good, size_t len)
{
	static const unsigned char values[] = { 0x00, 0xff, 0x81 };
	int fd = memfd_create("hostile", MFD_CLOEXEC);
	char path[64];
	int opened = 0, failed = 0, runs = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (size_t n = 0; n < len; n++) {
		struct hwp_profile *p = NULL;

		ftruncate(fd, 0);
		pwrite(fd, good, n, 0);
		runs++;
		if (hwp_profile_load(path, NULL, &p) == 0)
			opened++;
		else
			failed += p == NULL;
		hwp_profile_free(p);
	}
	CHECK(opened == 0 && failed == runs, "%d truncations: %d opened", runs, opened);
	opened = failed = 0;
	for (size_t pos = 0; pos < len; pos++)
		for (size_t v = 0; v < sizeof(values); v++) {
			unsigned char *bad = malloc(len);
			struct hwp_profile *p = NULL;

			memcpy(bad, good, len);
			bad[pos] = values[v];
			ftruncate(fd, 0);
			pwrite(fd, bad, len, 0);
			if (!hwp_profile_load(path, NULL, &p)) {
				opened++;
				if ((pos + v) % 8 == 0)
					hwp_profile_foreach_entry(p, HWP_SORT_RIP, 0,
								  collect_top,
								  &(struct top){ 0 });
			} else {
				failed++;
			}
			hwp_profile_free(p);
			free(bad);
		}
	/* Both outcomes, so the bytes reached every part of the parser. */
	CHECK(opened > 0 && failed > 0,
	      "%zu bytes overwritten: %d files read, %d refused", len, opened, failed);
	close(fd);
}

int main(void)
{
	char exe[PATH_MAX], path[64];
	uint64_t pgoff, off = function_offset(exe, sizeof(exe), &pgoff);
	unsigned char *good;
	FILE *f;
	long len;

	t_init();
	t_run(check_shared_ids);
	t_run(check_big_files);
	t_run(check_rings);
	check_threads();
	/* One file written, then read back three ways: each a case. */
	t_case("write");
	CHECK(known_function(1) == 4 && exe[0] == '/', "this test's executable: %s", exe);
	f = write_file(exe, off, pgoff, false);
	len = lseek(fileno(f), 0, SEEK_END);
	if (t_case("read back"))
		check_read_back(fileno(f));
	if (t_case("files without a build-id"))
		check_file_stats(fileno(f), exe, false);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(f));
	if (t_case("profile"))
		check_profile(path, exe);
	if (t_case("hostile files")) {
		good = malloc((size_t)len);
		CHECK(pread(fileno(f), good, (size_t)len, 0) == len, "read back");
		check_hostile(good, (size_t)len);
		free(good);
	}
	t_case_end();
	fclose(f);
	/* The same in perf's pipe format: saved, and through a pipe. */
	t_case("pipe format");
	f = write_file(exe, off, pgoff, true);
	check_read_back(fileno(f));
	check_file_stats(fileno(f), exe, true);
	if (t_case("through a pipe")) {
		through_pipe(fileno(f), check_read_back);
		check_quiet_pipe(fileno(f));
	}
	t_case_end();
	fclose(f);
	return t_done();
}
