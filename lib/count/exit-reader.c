// SPDX-License-Identifier: MIT
/* The exit records of a command counted per thread, read while it runs.
 *
 * The kernel writes a record when each thread exits, into a ring a CPU;
 * when a ring is full it drops the record, and says so only on its next
 * write to that ring, which may never come. Read only when the counts are,
 * a ring holds a few thousand exits: a thread of our own empties the rings
 * whenever the kernel wakes it (the rings' watermark), into a queue that
 * the session's reads take. The thread touches nothing but the rings and
 * the queue: records become counts on the session's own thread. What the
 * kernel drops all the same, the reads' PERF_FORMAT_LOST counts, and
 * session-exits.c's exits_complete() finds where the kernel did not count it. */
#include "count/count.h"
#include "event/ring.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct exit_reader {
	pthread_mutex_t lock;	/* the rings' tails, the queue, stop, err */
	pthread_t thread;
	pid_t owner;		/* the process of the thread (not a fork's child) */
	bool started;
	bool stop;
	int wake_fd;		/* an eventfd: new rings, or stop */
	struct ring *rings;	/* borrowed from the session */
	size_t nr_rings;
	uint64_t *last;		/* each ring's latest record time read */
	bool changed;		/* the rings: the thread's poll set is old */
	unsigned char *queue;	/* records read, not yet taken */
	size_t len, cap;
	int err;		/* the thread's first failure */
};

static int enqueue(const struct perf_event_header *h, void *ctx)
{
	struct exit_reader *r = ctx;

	if (r->len + h->size > r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 65536;
		unsigned char *q;

		while (cap < r->len + h->size)
			cap *= 2;
		q = realloc(r->queue, cap);
		if (!q)
			return -ENOMEM;
		r->queue = q;
		r->cap = cap;
	}
	memcpy(r->queue + r->len, h, h->size);
	r->len += h->size;
	return 0;
}

/* Where the kernel's records end, as it says (data_head). */
static uint64_t ring_head(const struct ring *r)
{
	const struct perf_event_mmap_page *pc = r->base;

	/* Acquire: what the kernel wrote before it, we see. */
	return __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
}

/* @len bytes at ring position @pos (they may wrap) into @dst. */
static void ring_copy(const struct ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = pos & r->mask, first = r->mask + 1 - off;

	if (first > len)
		first = len;
	memcpy(dst, r->data + off, first);
	memcpy((char *)dst + first, r->data, len - first);
}

/* A record a lap old is older than the last read by a lap's time (tens
 * of ms at the least for 512 KiB); a record written late, by the time
 * its thread was held between taking its time and writing it. */
#define STALE_NS 20000000ULL

/* The time of a record (sample_id_all, EXIT_SAMPLE_ID_ALL: the first
 * word of its trailer), of @len bytes at ring position @pos. */
static uint64_t record_time(const struct ring *r, uint64_t pos, size_t len)
{
	uint64_t t;

	ring_copy(r, pos + len - EXIT_TRAILER_WORDS * sizeof(t), &t, sizeof(t));
	return t;
}

/*
 * A CPU's ring takes the exit records of threads ending on every CPU, and
 * the kernel's ring is made for one writer (its head and nesting count are
 * per-CPU local_t): with threads ending on two CPUs at once, it may move
 * data_head past a record not yet written (the bytes there are of a record
 * a lap older), or never move it again, its records written past it.
 * Every record has its time: one far older than the last read (or 0,
 * the first lap) is not written yet, and the kernel writes the time last
 * (x86 stores are seen in order). So the records are read up to the first
 * not written, past data_head.
 *
 * Move ring @i's records into the queue, up to one not written yet, to be
 * read later. With @final (the command and its threads gone: nothing is
 * being written), one not written before data_head is an error.
 */
static int drain_ring(struct exit_reader *rd, size_t i, bool final)
{
	struct ring *r = &rd->rings[i];
	struct perf_event_mmap_page *pc = r->base;
	uint64_t tail = pc->data_tail, head = ring_head(r), t;
	uint64_t end = tail + r->mask + 1;
	int err = 0;

	while (end - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		ring_copy(r, tail, &h, sizeof(h));
		t = 0;
		if (h.size >= sizeof(h) + EXIT_TRAILER_WORDS * sizeof(t) &&
		    !(h.size % 8) &&
		    h.size <= end - tail)
			t = record_time(r, tail, h.size);
		/* Once nothing is written, what data_head covers is all
		 * written: a record that came late keeps its early time. */
		if (!t || (t + STALE_NS < rd->last[i] && !(final && tail < head))) {
			err = final && tail < head ? -EIO : 0;
			break;
		}
		if (t > rd->last[i])
			rd->last[i] = t;
		ring_copy(r, tail, r->scratch, h.size);
		err = enqueue((const struct perf_event_header *)r->scratch, rd);
		if (err)
			break;
		tail += h.size;
	}
	/* Release: the reads are done before the kernel may write there. */
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}

/* Every ring into the queue; with the lock held. */
static int drain_locked(struct exit_reader *r, bool final)
{
	for (size_t i = 0; i < r->nr_rings; i++) {
		/* A CPU whose counters did not open has no ring. */
		int err = r->rings[i].base ? drain_ring(r, i, final) : 0;

		if (err)
			return err;
	}
	return 0;
}

/* The thread's own poll set, rebuilt when the rings change. */
static int poll_set(struct exit_reader *r, struct pollfd **pfd, size_t *n)
{
	struct pollfd *p = realloc(*pfd, (r->nr_rings + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	p[0] = (struct pollfd){ .fd = r->wake_fd, .events = POLLIN };
	for (size_t i = 0; i < r->nr_rings; i++)
		p[i + 1] = (struct pollfd){ .fd = r->rings[i].fd, .events = POLLIN };
	*pfd = p;
	*n = r->nr_rings + 1;
	r->changed = false;
	return 0;
}

static void *reader_main(void *arg)
{
	struct exit_reader *r = arg;
	struct pollfd *pfd = NULL;
	size_t n = 0;
	uint64_t v;

	pthread_mutex_lock(&r->lock);
	while (!r->stop && !r->err) {
		if (r->changed && (r->err = poll_set(r, &pfd, &n)))
			break;
		pthread_mutex_unlock(&r->lock);
		if (poll(pfd, n, -1) < 0 && errno != EINTR) {
			pthread_mutex_lock(&r->lock);
			r->err = -errno;
			break;
		}
		if (pfd[0].revents & POLLIN && read(r->wake_fd, &v, sizeof(v)) < 0)
			v = 0;	/* another wake took it */
		pthread_mutex_lock(&r->lock);
		r->err = drain_locked(r, false);
		/* A ring whose task and threads are all gone has nothing more
		 * to say: poll() would answer POLLHUP at once, for ever. */
		for (size_t i = 1; !r->changed && i < n; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR | POLLNVAL))
				pfd[i].fd = -1;
	}
	pthread_mutex_unlock(&r->lock);
	free(pfd);
	return NULL;
}

static void wake(struct exit_reader *r)
{
	uint64_t one = 1;

	if (write(r->wake_fd, &one, sizeof(one)) < 0)
		(void)one;	/* the counter is full: it is awake already */
}

int exit_reader_new(bool threaded, struct exit_reader **out)
{
	struct exit_reader *r = calloc(1, sizeof(*r));
	sigset_t all, old;
	int err;

	*out = NULL;
	if (!r)
		return fail(-ENOMEM, "out of memory");
	pthread_mutex_init(&r->lock, NULL);
	r->changed = true;
	r->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->wake_fd < 0) {
		err = fail(-errno, "counts per thread: eventfd failed: %s",
			   errno_text(errno));
		exit_reader_free(r);
		return err;
	}
	if (threaded) {
		/* Signals are for the caller's threads, which wait for them. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		err = -pthread_create(&r->thread, NULL, reader_main, r);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (err) {
			exit_reader_free(r);
			return fail(err, "counts per thread: cannot start the thread that reads the threads' exits: %s",
				    errno_text(-err));
		}
		r->started = true;
		r->owner = getpid();
	}
	*out = r;
	return 0;
}

int exit_reader_watch(struct exit_reader *r, struct ring *rings, size_t nr)
{
	uint64_t *last = calloc(nr ? nr : 1, sizeof(*last));

	if (!last)
		return fail(-ENOMEM, "out of memory");
	pthread_mutex_lock(&r->lock);
	free(r->last);
	r->last = last;
	r->rings = rings;
	r->nr_rings = nr;
	r->changed = true;
	pthread_mutex_unlock(&r->lock);
	wake(r);
	return 0;
}

int exit_reader_take(struct exit_reader *r, ring_record_fn fn, void *ctx)
{
	unsigned char *q;
	size_t len;
	int err;

	pthread_mutex_lock(&r->lock);
	err = r->err ?: drain_locked(r, exit_rings_hup(r->rings, r->nr_rings));
	q = r->queue;
	len = r->len;
	r->queue = NULL;
	r->len = r->cap = 0;
	pthread_mutex_unlock(&r->lock);
	if (err == -ENOMEM)
		err = fail(err, "out of memory");
	else if (err == -EIO)	/* see drain_ring() */
		err = fail(-EOVERFLOW, "counts per thread: the kernel lost records of the threads' exits: a CPU's ring holds a record it never finished (threads ended on several CPUs at once, and the ring is made for one writer); count the threads together (without counts per thread)");
	else if (err)
		err = fail(err, "counts per thread: reading the threads' exit records failed: %s",
			   errno_text(-err));
	for (size_t off = 0; !err && off < len;) {
		const struct perf_event_header *h = (const void *)(q + off);

		off += h->size;
		err = fn(h, ctx);
	}
	free(q);
	return err;
}

void exit_reader_free(struct exit_reader *r)
{
	if (!r)
		return;
	/* A fork's child has a copy of the reader but not its thread, and
	 * maybe a lock the thread held: it only frees the memory. */
	if (r->started && r->owner != getpid()) {
		if (r->wake_fd >= 0)
			close(r->wake_fd);
		free(r->last);
		free(r->queue);
		free(r);
		return;
	}
	if (r->started) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_mutex_unlock(&r->lock);
		wake(r);
		pthread_join(r->thread, NULL);
	}
	if (r->wake_fd >= 0)
		close(r->wake_fd);
	pthread_mutex_destroy(&r->lock);
	free(r->last);
	free(r->queue);
	free(r);
}

size_t exit_ring_pages(bool *unread)
{
	const char *env = getenv("HWPROF_EXIT_RING");
	unsigned long pages;
	char *end;

	*unread = false;
	if (!env || !*env)
		return EXIT_RING_PAGES;
	pages = strtoul(env, &end, 10);
	if (end == env || !pages || (pages & (pages - 1)) || pages > 1024 ||
	    (*end && strcmp(end, ",unread"))) {
		pr_warn("HWPROF_EXIT_RING=%s: not PAGES[,unread] with PAGES a power of two up to 1024; %d pages",
			env, EXIT_RING_PAGES);
		return EXIT_RING_PAGES;
	}
	*unread = *end != '\0';
	return pages;
}

static bool lost_format;
static pthread_once_t lost_once = PTHREAD_ONCE_INIT;

static void probe_lost_format(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.read_format = PERF_FORMAT_LOST,
	};
	long fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	lost_format = fd >= 0;
	if (fd >= 0)
		close((int)fd);
}

bool exit_lost_format(void)
{
	pthread_once(&lost_once, probe_lost_format);
	return lost_format;
}

size_t exit_ring_kib(size_t pages)
{
	return pages * (size_t)sysconf(_SC_PAGESIZE) / 1024;
}

int exit_lost_error(uint64_t lost, size_t pages)
{
	if (!lost)
		return 0;
	return fail(-EOVERFLOW, "counts per thread: the kernel lost %llu records of the threads' exits (its ring of %zu KiB a CPU was full), so the counts of some threads would show in the wrong row or in none; count the threads together (without counts per thread), or start fewer of them at once",
		    (unsigned long long)lost, exit_ring_kib(pages));
}

bool exit_rings_hup(const struct ring *rings, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct pollfd p = { .fd = rings[i].fd, .events = POLLIN };

		if (rings[i].fd >= 0 && (poll(&p, 1, 0) != 1 || !(p.revents & POLLHUP)))
			return false;
	}
	return nr > 0;
}

int exit_ring_map(struct ring *r, int fd, size_t *pages)
{
	for (;;) {
		int err = ring_map(r, fd, *pages);

		if ((err != -EPERM && err != -ENOMEM) || *pages <= EXIT_RING_MIN_PAGES)
			return err;
		*pages /= 2;
	}
}
