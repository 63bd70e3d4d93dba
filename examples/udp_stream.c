// SPDX-License-Identifier: MIT
/* A UDP loopback stream in the spirit of netperf UDP_STREAM: a sender and a
 * receiver thread on 127.0.0.1, each pinned to its own CPU, for a number of
 * messages of a given size. Reports the throughput and LLC misses per CPU
 * migration (undefined, and said why, where the machine has no PMU).
 * Usage: udp_stream [MESSAGE_SIZE] [MESSAGES] */
#include <hwprof/hwprof.h>

#include <arpa/inet.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long size = 1024, count = 20000;
static int sock_rx, sock_tx;
static struct sockaddr_in addr;
static volatile long received;
static struct timespec t_last;	/* the last message received */

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % (int)sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *receiver(void *arg)
{
	char *buf = malloc((size_t)size);

	(void)arg;
	pin(1);
	while (buf && recv(sock_rx, buf, (size_t)size, 0) > 0) {
		received++;	/* until the socket is shut down */
		clock_gettime(CLOCK_MONOTONIC, &t_last);
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_count c[4];
	struct timespec t0;
	pthread_t rx;
	char *buf;
	double secs, per_migration;

	if (argc > 1)
		size = atol(argv[1]);
	if (argc > 2)
		count = atol(argv[2]);
	buf = calloc(1, (size_t)size);
	sock_rx = socket(AF_INET, SOCK_DGRAM, 0);
	sock_tx = socket(AF_INET, SOCK_DGRAM, 0);
	addr = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (!buf || size < 1 || size > 65000 ||
	    bind(sock_rx, (struct sockaddr *)&addr, sizeof(addr)))
		return 2;
	getsockname(sock_rx, (struct sockaddr *)&addr, &(socklen_t){ sizeof(addr) });
	/* Counted: this thread and the receiver it creates (inherited). */
	if (hwp_evlist_parse("cache-misses,cpu-migrations,context-switches,task-clock",
			     NULL, &evl) ||
	    hwp_session_new(evl, NULL, &s) || hwp_session_open(s) ||
	    hwp_session_enable(s)) {
		fprintf(stderr, "udp_stream: %s\n", hwp_errmsg());
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&rx, NULL, receiver, NULL);
	pin(0);
	for (long i = 0; i < count; i++)
		sendto(sock_tx, buf, (size_t)size, 0, (struct sockaddr *)&addr,
		       sizeof(addr));
	usleep(100000);	/* let the receiver drain, then stop it */
	shutdown(sock_rx, SHUT_RDWR);
	pthread_join(rx, NULL);
	hwp_session_disable(s);
	hwp_session_read(s, c, 4);
	secs = (double)(t_last.tv_sec - t0.tv_sec) +
	       (double)(t_last.tv_nsec - t0.tv_nsec) * 1e-9;
	printf("sent %ld, received %ld messages of %ld bytes: %.1f MB/s received\n",
	       count, received, size, (double)received * (double)size / secs / 1e6);
	printf("cpu-migrations %.0f, context-switches %.0f\n", hwp_count_scaled(&c[1]),
	       hwp_count_scaled(&c[2]));
	if (hwp_session_metric(s, c, secs, hwp_metric_builtin(0), &per_migration))
		printf("LLC-misses/migration: <undefined>: %s\n", hwp_errmsg());
	else
		printf("LLC-misses/migration: %.1f\n", per_migration);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	free(buf);
	close(sock_rx);
	close(sock_tx);
	return 0;
}
