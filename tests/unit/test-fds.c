// SPDX-License-Identifier: MIT
/* The fd matrix (event/fds.h) on software events with known counts: each
 * thread's slots hold that thread's counts, a group is enabled, disabled and
 * reset alone, a member opens in its leader's group, ids find their slots,
 * a counter alone counts its thread alone, and closing leaves no descriptor
 * open, nor does freeing a hold. */
#include "event/fds.h"
#include "harness.h"

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define NR_THREADS 3
#define PAGES_A_THREAD 200
#define SWITCHES 20

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* Fault @n fresh pages in, one fault each (no huge page). */
static void touch_pages(size_t n)
{
	size_t size = n * page_size();
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		abort();
	madvise(p, size, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < n; i++)
		p[i * page_size()] = 1;
	munmap(p, size);
}

/* Page faults beyond those asked for: a thread's stack, libc's. */
static uint64_t fault_margin(void)
{
	return t_under_valgrind() ? 2000 : 100;
}

static void read_all(int fd, void *buf, size_t n)
{
	if (read(fd, buf, n) != (ssize_t)n)
		abort();
}

static void write_all(int fd, const void *buf, size_t n)
{
	if (write(fd, buf, n) != (ssize_t)n)
		abort();
}

/* What an event's read gives with TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING. */
static struct hwp_count read_count(const struct fds *f, size_t inst, size_t e)
{
	struct hwp_count c = { 0 };
	ssize_t n = fds_read(f, inst, e, &c, sizeof(c));

	CHECK(n == (ssize_t)sizeof(c), "read of event %zu on instance %zu: %zd", e, inst,
	      n);
	return c;
}

/* Open @evl on @t as counting does: each group's leader disabled (its
 * members follow it), read alone. */
static int open_matrix(struct fds *f, const struct hwp_evlist *evl,
		       const struct targets *t, bool grouped)
{
	struct perf_event_attr *attrs = calloc(evl->nr_events, sizeof(*attrs));
	int ret = fds_init(f, evl, t, grouped);

	if (!attrs)
		abort();
	for (size_t e = 0; e < evl->nr_events; e++) {
		attrs[e] = evl->events[e].attr;
		attrs[e].size = sizeof(attrs[e]);
		attrs[e].read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	for (size_t inst = 0; !ret && inst < f->nr_inst; inst++)
		for (size_t e = 0; !ret && e < evl->nr_events; e++) {
			struct open_req req = {
				.ev = &evl->events[e],
				.attr = &attrs[e],
				.scope = HWP_SCOPE_THREAD,
			};
			int err;

			attrs[e].disabled = fds_leader(f, inst, fds_group_of(f, e)) < 0;
			if (fds_open(f, inst, e, &req, &err, NULL) != OPEN_DONE)
				ret = err ? err : -1;
		}
	free(attrs);
	return ret;
}

struct worker {
	pthread_t thread;
	pid_t tid;
	size_t pages;
	int go[2], done[2], leave[2];
};

/* Waits to be told to go, faults its pages in, says so, and waits (one
 * context switch at least) to be told to leave. */
static void *work(void *arg)
{
	struct worker *w = arg;
	char c = 0;

	w->tid = (pid_t)syscall(SYS_gettid);
	write_all(w->done[1], &c, 1);
	read_all(w->go[0], &c, 1);
	touch_pages(w->pages);
	write_all(w->done[1], &c, 1);
	read_all(w->leave[0], &c, 1);
	return NULL;
}

static void start_worker(struct worker *w, size_t pages)
{
	char c;

	w->pages = pages;
	if (pipe(w->go) || pipe(w->done) || pipe(w->leave) ||
	    pthread_create(&w->thread, NULL, work, w))
		abort();
	read_all(w->done[0], &c, 1);	/* its tid is known */
}

static void stop_worker(struct worker *w)
{
	char c = 0;

	write_all(w->leave[1], &c, 1);
	pthread_join(w->thread, NULL);
	for (int i = 0; i < 2; i++) {
		close(w->go[i]);
		close(w->done[i]);
		close(w->leave[i]);
	}
}

/* 2 events × 3 threads: each thread's slots count that thread alone. */
static void test_threads(void)
{
	struct worker w[NR_THREADS];
	int cpus[] = { -1 };
	pid_t tids[NR_THREADS];
	struct targets t = { cpus, 1, tids, NR_THREADS };
	struct hwp_evlist *evl = NULL;
	struct fds f;
	char c = 0;

	CHECK_ERR(hwp_evlist_parse("page-faults,context-switches", NULL, &evl), 0);
	for (size_t i = 0; i < NR_THREADS; i++) {
		start_worker(&w[i], PAGES_A_THREAD * (i + 1));
		tids[i] = w[i].tid;
	}
	CHECK_ERR(open_matrix(&f, evl, &t, false), 0);
	CHECK(f.nr_inst == NR_THREADS && fds_nr_open(&f) == 2 * NR_THREADS,
	      "%zu instances, %zu open", f.nr_inst, fds_nr_open(&f));
	CHECK_ERR(fds_ioctl(&f, PERF_EVENT_IOC_ENABLE), 0);
	for (size_t i = 0; i < NR_THREADS; i++) {
		write_all(w[i].go[1], &c, 1);
		read_all(w[i].done[0], &c, 1);
	}
	for (size_t i = 0; i < NR_THREADS; i++) {
		size_t inst = fds_inst(&f, 0, i);
		struct hwp_count faults = read_count(&f, inst, 0);
		struct hwp_count sw = read_count(&f, inst, 1);

		CHECK(faults.value >= w[i].pages &&
		      faults.value < w[i].pages + fault_margin(),
		      "thread %zu: %llu page faults, %zu pages touched", i,
		      (unsigned long long)faults.value, w[i].pages);
		/* Software events never multiplex: the scaled count is the count. */
		CHECK(faults.time_enabled > 0 &&
		      faults.time_running == faults.time_enabled,
		      "thread %zu: enabled %llu, running %llu", i,
		      (unsigned long long)faults.time_enabled,
		      (unsigned long long)faults.time_running);
		CHECK(hwp_count_scaled(&faults) == (double)faults.value, "scaled %g",
		      hwp_count_scaled(&faults));
		/* It blocked on its pipe once, at least, since the enable. */
		CHECK(sw.value >= 1, "thread %zu: %llu context switches", i,
		      (unsigned long long)sw.value);
	}
	CHECK_ERR(fds_ioctl(&f, PERF_EVENT_IOC_DISABLE), 0);
	fds_release(&f);
	for (size_t i = 0; i < NR_THREADS; i++)
		stop_worker(&w[i]);
	hwp_evlist_free(evl);
}

/* A thread that reads one byte and writes it back, @n times. */
static int ping[2], pong[2];

static void *echo(void *arg)
{
	char c;

	for (size_t i = 0; i < (size_t)(uintptr_t)arg; i++) {
		read_all(ping[0], &c, 1);
		write_all(pong[1], &c, 1);
	}
	return NULL;
}

/* @n round trips with the echo thread: the calling thread blocks, and so
 * switches out, @n times. */
static void switch_out(size_t n)
{
	pthread_t th;
	char c = 0;

	if (pipe(ping) || pipe(pong) ||
	    pthread_create(&th, NULL, echo, (void *)(uintptr_t)n))
		abort();
	for (size_t i = 0; i < n; i++) {
		write_all(ping[1], &c, 1);
		read_all(pong[0], &c, 1);
	}
	pthread_join(th, NULL);
	for (int i = 0; i < 2; i++) {
		close(ping[i]);
		close(pong[i]);
	}
}

struct self {
	int cpus[1];
	pid_t tids[1];
	struct targets t;
	struct hwp_evlist *evl;
	struct fds f;
};

/* {task-clock,page-faults},context-switches on the calling thread. */
static bool self_open(struct self *s, bool grouped)
{
	s->cpus[0] = -1;
	s->tids[0] = (pid_t)syscall(SYS_gettid);
	s->t = (struct targets){ s->cpus, 1, s->tids, 1 };
	s->evl = NULL;
	s->f = (struct fds){ 0 };
	CHECK_ERR(hwp_evlist_parse("{task-clock,page-faults},context-switches", NULL,
				   &s->evl), 0);
	if (!s->evl)
		return false;
	CHECK_ERR(open_matrix(&s->f, s->evl, &s->t, grouped), 0);
	return fds_nr_open(&s->f) == 3;
}

static void self_close(struct self *s)
{
	fds_release(&s->f);
	hwp_evlist_free(s->evl);
}

/* Enable, disable and reset one group: the other does not move. */
static void test_group_ioctl(void)
{
	struct hwp_count clock, faults, sw, sw2;
	struct self s;

	if (!self_open(&s, true))
		return self_close(&s);
	CHECK(s.f.nr_groups == 2 && fds_group_of(&s.f, 1) == 0 &&
	      fds_group_of(&s.f, 2) == 1, "%zu groups", s.f.nr_groups);
	CHECK_ERR(fds_group_ioctl(&s.f, 1, PERF_EVENT_IOC_ENABLE), 0);
	switch_out(SWITCHES);
	touch_pages(PAGES_A_THREAD);
	CHECK_ERR(fds_group_ioctl(&s.f, 1, PERF_EVENT_IOC_DISABLE), 0);
	clock = read_count(&s.f, 0, 0);
	faults = read_count(&s.f, 0, 1);
	sw = read_count(&s.f, 0, 2);
	CHECK(clock.value == 0 && clock.time_enabled == 0 && faults.value == 0,
	      "group 0 counted while disabled: %llu ns, %llu faults",
	      (unsigned long long)clock.value, (unsigned long long)faults.value);
	CHECK(sw.value >= SWITCHES, "%llu context switches, %d round trips",
	      (unsigned long long)sw.value, SWITCHES);

	CHECK_ERR(fds_group_ioctl(&s.f, 0, PERF_EVENT_IOC_ENABLE), 0);
	touch_pages(PAGES_A_THREAD);
	CHECK_ERR(fds_group_ioctl(&s.f, 0, PERF_EVENT_IOC_DISABLE), 0);
	clock = read_count(&s.f, 0, 0);
	faults = read_count(&s.f, 0, 1);
	sw2 = read_count(&s.f, 0, 2);
	CHECK(clock.value > 0 && faults.value >= PAGES_A_THREAD &&
	      faults.value < PAGES_A_THREAD + fault_margin(),
	      "group 0: %llu ns, %llu faults", (unsigned long long)clock.value,
	      (unsigned long long)faults.value);
	CHECK(sw2.value == sw.value, "group 1 counted while disabled: %llu, then %llu",
	      (unsigned long long)sw.value, (unsigned long long)sw2.value);

	CHECK_ERR(fds_group_ioctl(&s.f, 0, PERF_EVENT_IOC_RESET), 0);
	CHECK(read_count(&s.f, 0, 0).value == 0 && read_count(&s.f, 0, 1).value == 0,
	      "group 0 not reset");
	CHECK(read_count(&s.f, 0, 2).value == sw.value, "group 1 reset with group 0");
	CHECK_ERR(fds_ioctl(&s.f, PERF_EVENT_IOC_RESET), 0);
	CHECK(read_count(&s.f, 0, 2).value == 0, "context switches not reset");
	self_close(&s);
}

/* A member opens in its leader's group: one read of the leader gives both. */
static void test_group_read(void)
{
	struct self s;
	uint64_t buf[8] = { 0 };
	struct perf_event_attr a[2];
	struct fds f;
	int err;

	if (!self_open(&s, true))
		return self_close(&s);
	CHECK(fds_leader(&s.f, 0, 0) == fds_get(&s.f, 0, 0) &&
	      fds_leader(&s.f, 0, 1) == fds_get(&s.f, 0, 2), "leaders");
	/* The same events again, read as a group. */
	CHECK_ERR(fds_init(&f, s.evl, &s.t, true), 0);
	for (size_t e = 0; e < 2; e++) {
		struct open_req req = { .ev = &s.evl->events[e], .attr = &a[e],
					.scope = HWP_SCOPE_THREAD };

		a[e] = s.evl->events[e].attr;
		a[e].size = sizeof(a[e]);
		a[e].disabled = e == 0;
		a[e].read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		CHECK(fds_open(&f, 0, e, &req, &err, NULL) == OPEN_DONE, "open %zu", e);
		CHECK(req.group_fd == (e ? fds_get(&f, 0, 0) : -1) &&
		      req.group_opened == e && req.group_size == 2,
		      "event %zu: group fd %d, %zu opened of %zu", e, req.group_fd,
		      req.group_opened, req.group_size);
	}
	CHECK_ERR(fds_group_ioctl(&f, FDS_ALL_GROUPS, PERF_EVENT_IOC_ENABLE), 0);
	touch_pages(PAGES_A_THREAD);
	CHECK_ERR(fds_group_ioctl(&f, FDS_ALL_GROUPS, PERF_EVENT_IOC_DISABLE), 0);
	/* nr, then value and id a member, leader first */
	CHECK(fds_read(&f, 0, 0, buf, sizeof(buf)) == 5 * sizeof(uint64_t),
	      "group read size");
	CHECK(buf[0] == 2 && buf[2] == fds_id(&f, 0, 0) && buf[4] == fds_id(&f, 0, 1),
	      "group read: %llu members", (unsigned long long)buf[0]);
	CHECK(buf[1] > 0 && buf[3] >= PAGES_A_THREAD, "group read: %llu ns, %llu faults",
	      (unsigned long long)buf[1], (unsigned long long)buf[3]);
	CHECK(fds_read(&f, 0, 1, buf, sizeof(buf)) == 5 * sizeof(uint64_t),
	      "a member's read is its group's");
	fds_close_event(&f, 1);
	CHECK(fds_read(&f, 0, 1, buf, sizeof(buf)) == -EBADF, "closed slot read");
	fds_release(&f);
	self_close(&s);
}

/* Without grouping, each event is a group of its own; ids find slots. */
static void test_ungrouped_ids(void)
{
	struct self s;

	if (!self_open(&s, false))
		return self_close(&s);
	CHECK(s.f.nr_groups == 3 && fds_group_of(&s.f, 1) == 1, "%zu groups",
	      s.f.nr_groups);
	CHECK(fds_leader(&s.f, 0, 1) == fds_get(&s.f, 0, 1), "an event leads itself");
	for (size_t e = 0; e < 3; e++)
		CHECK(fds_find_id(&s.f, fds_id(&s.f, 0, e)) == (long)e, "id of %zu", e);
	CHECK(fds_id(&s.f, 0, 0) != fds_id(&s.f, 0, 1), "distinct ids");
	CHECK(fds_find_id(&s.f, (uint64_t)-1) == -1, "unknown id");
	fds_close_inst(&s.f, 0);
	CHECK(fds_nr_open(&s.f) == 0 && fds_leader(&s.f, 0, 0) == -1, "closed");
	CHECK_ERR(fds_ioctl(&s.f, PERF_EVENT_IOC_ENABLE), 0);
	self_close(&s);
}

/* Counters alone (open_req.alone) open as their attrs say but not
 * inherited, pinned nor writing records, each read alone: a thread
 * started after the open is not counted, and the caller's attr is left
 * as it was. */
static void test_alone(void)
{
	struct self s;
	struct perf_event_attr a[2];
	struct worker w;
	struct hwp_count faults;
	struct fds f;
	int err;

	if (!self_open(&s, true))
		return self_close(&s);
	CHECK_ERR(fds_init(&f, s.evl, &s.t, true), 0);
	for (size_t e = 0; e < 2; e++) {
		struct open_req req = { .ev = &s.evl->events[e], .attr = &a[e],
					.scope = HWP_SCOPE_THREAD, .alone = true };

		a[e] = s.evl->events[e].attr;
		a[e].size = sizeof(a[e]);
		a[e].disabled = e == 0;
		a[e].inherit = a[e].inherit_stat = a[e].comm = 1;
		a[e].pinned = e == 0;
		a[e].read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		CHECK(fds_open(&f, 0, e, &req, &err, NULL) == OPEN_DONE, "open %zu: %s",
		      e, hwp_errmsg());
		CHECK(req.attr == &a[e] && a[e].inherit && a[e].comm &&
		      a[e].pinned == (e == 0) &&
		      a[e].read_format == (PERF_FORMAT_GROUP | PERF_FORMAT_ID),
		      "event %zu: the caller's attr changed", e);
	}
	CHECK_ERR(fds_group_ioctl(&f, FDS_ALL_GROUPS, PERF_EVENT_IOC_ENABLE), 0);
	start_worker(&w, 3 * PAGES_A_THREAD);
	write_all(w.go[1], "", 1);
	read_all(w.done[0], (char[1]){ 0 }, 1);
	touch_pages(PAGES_A_THREAD);
	stop_worker(&w);
	CHECK_ERR(fds_group_ioctl(&f, FDS_ALL_GROUPS, PERF_EVENT_IOC_DISABLE), 0);
	faults = read_count(&f, 0, 1);
	CHECK(faults.value >= PAGES_A_THREAD &&
	      faults.value < PAGES_A_THREAD + fault_margin() && faults.time_running,
	      "%llu faults, this thread's %d and not its worker's %d",
	      (unsigned long long)faults.value, PAGES_A_THREAD, 3 * PAGES_A_THREAD);
	fds_release(&f);
	self_close(&s);
}

/* Closing the matrix closes every descriptor it opened. */
static void test_close_leaves_none(void)
{
	int before = t_count_fds();
	struct self s;

	if (self_open(&s, true))
		CHECK(t_count_fds() == before + 3, "%d fds, %d before", t_count_fds(),
		      before);
	self_close(&s);
	CHECK(t_count_fds() == before, "%d fds left, %d before", t_count_fds(), before);
	fds_release(&s.f);	/* twice: a released matrix is zeroed */
}

/* A hold keeps one disabled fd for each software event that turns a
 * kernel switch on (not the clocks; page-faults:u is page-faults), and
 * closes them all when freed. */
static void test_hold(void)
{
	int before = t_count_fds();
	struct hwp_evlist *evl = NULL;
	struct hwpriv_hold *h = NULL;

	CHECK_ERR(hwp_evlist_parse("page-faults,page-faults:u,task-clock,context-switches,cpu-clock",
				   NULL, &evl), 0);
	CHECK_ERR(hwpriv_hold_new(evl, &h), 0);
	CHECK(hwpriv_hold_nr_events(h) == 2, "%zu events held", hwpriv_hold_nr_events(h));
	CHECK(t_count_fds() == before + 2, "%d fds, %d before", t_count_fds(), before);
	hwpriv_hold_free(h);
	CHECK(t_count_fds() == before, "%d fds left, %d before", t_count_fds(), before);
	hwp_evlist_free(evl);
}

int main(void)
{
	t_init();
	t_run(test_threads);
	t_run(test_group_ioctl);
	t_run(test_group_read);
	t_run(test_ungrouped_ids);
	t_run(test_alone);
	t_run(test_close_leaves_none);
	t_run(test_hold);
	return t_done();
}
