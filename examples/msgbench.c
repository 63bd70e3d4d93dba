// SPDX-License-Identifier: MIT
/* A messaging benchmark in the spirit of hackbench: groups of a sender and
 * a receiver thread exchange messages over socket pairs. Each phase is a
 * region, and the messages are its operations, so the results give context
 * switches and CPU migrations per message. The program picks no events:
 * $HWPROF_EVENTS does (default: the library's); it saves the JSON to
 * $HWPROF_OUTPUT before it returns, and fails when it cannot.
 * Usage: msgbench [GROUPS] [MESSAGES] */
#include <hwprof/hwprof.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSG_SIZE 100

static long messages = 2000;

static void *sender(void *arg)
{
	int fd = *(int *)arg;
	char msg[MSG_SIZE] = "ping";

	hwp_region_begin("send");
	for (long i = 0; i < messages; i++)
		if (write(fd, msg, sizeof(msg)) != sizeof(msg))
			break;
	hwp_region_end_ops("send", (uint64_t)messages);
	return NULL;
}

static void *receiver(void *arg)
{
	int fd = *(int *)arg;
	char msg[MSG_SIZE];

	hwp_region_begin("receive");
	for (long got = 0; got < messages * MSG_SIZE;) {
		ssize_t n = read(fd, msg, sizeof(msg));

		if (n <= 0)
			break;
		got += n;
	}
	hwp_region_end_ops("receive", (uint64_t)messages);
	return NULL;
}

static int print_region(const struct hwp_region_info *r, void *ctx)
{
	(void)ctx;
	if (r->tid || !r->ops)
		return 0;	/* the totals of the messaging phases */
	printf("%-8s %zu threads, %llu messages:", r->name, r->nr_threads,
	       (unsigned long long)r->ops);
	for (size_t e = 0; e < r->nr_events; e++) {
		struct hwp_event_info ev = { .sz = sizeof(ev) };

		hwp_evlist_event(r->evlist, e, &ev);
		if (!isnan(r->values[e]))
			printf(" %.3f %s/msg", r->values[e] / (double)r->ops, ev.name);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	long groups = argc > 1 ? atol(argv[1]) : 4;
	int (*fds)[2] = calloc((size_t)groups, sizeof(*fds));
	pthread_t *t = calloc(2 * (size_t)groups, sizeof(*t));
	int err;

	if (argc > 2)
		messages = atol(argv[2]);
	if (groups < 1 || messages < 1 || !fds || !t)
		return 2;
	err = hwp_region_begin("setup");
	if (err) {
		fprintf(stderr, "msgbench: %s\n", hwp_errmsg());
		return 1;
	}
	for (long g = 0; g < groups; g++)
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds[g]))
			return 1;
	hwp_region_end("setup");
	for (long g = 0; g < groups; g++) {
		pthread_create(&t[2 * g], NULL, sender, &fds[g][0]);
		pthread_create(&t[2 * g + 1], NULL, receiver, &fds[g][1]);
	}
	for (long i = 0; i < 2 * groups; i++)
		pthread_join(t[i], NULL);
	hwp_region_foreach(print_region, NULL);
	/* Save the results where HWPROF_OUTPUT says, now, and check: the
	 * library's at-exit writer cannot change the exit status, and a
	 * benchmark whose results are lost must not exit 0. */
	err = hwp_region_save(NULL);
	if (err) {
		fprintf(stderr, "msgbench: %s\n", hwp_errmsg());
		return 1;
	}
	for (long g = 0; g < groups; g++) {
		close(fds[g][0]);
		close(fds[g][1]);
	}
	free(fds);
	free(t);
	return 0;
}
