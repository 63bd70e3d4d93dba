// SPDX-License-Identifier: MIT
/* What 'hwprof stat -- CMD' cannot avoid, and nothing more: the kernel work
 * of its default events (the same attributes, each its own group, opened
 * on ourselves inherited and enabled at the command's exec), posix_spawn
 * of the command, the wait, one read and one close of each counter. No
 * library but libc, no parsing, no output. bench-wrapper times it beside
 * hwprof stat and perf stat: the lowest ratio to perf stat that any
 * implementation could reach on the machine, in the same run.
 * Usage: stat-floor CMD [ARGS...] */
#include <linux/perf_event.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int open_counter(unsigned int type, unsigned long long config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.inherit = 1;
	a.enable_on_exec = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int main(int argc, char **argv)
{
	static const struct { unsigned int type; unsigned long long config; } ev[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	};
	int fd[8], st;
	char buf[64];
	pid_t pid;

	if (argc < 2)
		return 2;
	for (int i = 0; i < 8; i++)
		fd[i] = open_counter(ev[i].type, ev[i].config);
	if (posix_spawnp(&pid, argv[1], NULL, NULL, &argv[1], environ))
		return 127;
	if (waitpid(pid, &st, 0) < 0)
		return 1;
	for (int i = 0; i < 8; i++)
		if (fd[i] >= 0) {
			(void)!read(fd[i], buf, sizeof(buf));
			close(fd[i]);
		}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
