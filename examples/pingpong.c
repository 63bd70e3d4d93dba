// SPDX-License-Identifier: MIT
/* A request-response benchmark in the spirit of netperf's TCP_RR and
 * tbench: two threads pass a message back and forth over a socket pair,
 * and the program prints its own throughput, as those benchmarks do:
 *   Throughput 12.345 MB/sec (5000 round trips of 1024 bytes)
 * The second argument is extra work on every message, a stand-in for the
 * regression a patch brings: the same messages, the same context
 * switches, fewer MB a second. hwprof(1)'s regression hunt (and
 * README.md's tour) uses it with hwprof stat --score.
 * Usage: pingpong [ROUND_TRIPS] [EXTRA_WORK] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG_SIZE 1024

static long round_trips = 5000;
static long extra_work;

/* Work the compiler cannot drop: a few ns an iteration. */
static void spin(long n)
{
	static volatile unsigned long sink;
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

/* Read exactly one message; false at the end or on an error. */
static int read_msg(int fd, char *buf)
{
	size_t got = 0;

	while (got < MSG_SIZE) {
		ssize_t n = read(fd, buf + got, MSG_SIZE - got);

		if (n <= 0)
			return 0;
		got += (size_t)n;
	}
	return 1;
}

static void *server(void *arg)
{
	int fd = *(int *)arg;
	char buf[MSG_SIZE];

	while (read_msg(fd, buf)) {
		spin(extra_work);
		if (write(fd, buf, MSG_SIZE) != MSG_SIZE)
			break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char buf[MSG_SIZE] = "ping";
	struct timespec t0, t1;
	pthread_t tid;
	double secs;
	int sv[2];

	if (argc > 1)
		round_trips = atol(argv[1]);
	if (argc > 2)
		extra_work = atol(argv[2]);
	if (round_trips <= 0 || extra_work < 0) {
		fprintf(stderr, "usage: pingpong [ROUND_TRIPS] [EXTRA_WORK]\n");
		return 2;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    pthread_create(&tid, NULL, server, &sv[1])) {
		perror("pingpong");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < round_trips; i++) {
		spin(extra_work);
		if (write(sv[0], buf, MSG_SIZE) != MSG_SIZE || !read_msg(sv[0], buf)) {
			perror("pingpong");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	shutdown(sv[0], SHUT_WR);
	pthread_join(tid, NULL);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("Throughput %.3f MB/sec (%ld round trips of %d bytes)\n",
	       2.0 * MSG_SIZE * (double)round_trips / secs / 1e6, round_trips, MSG_SIZE);
	return 0;
}
