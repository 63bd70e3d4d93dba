// SPDX-License-Identifier: MIT
/* hwprof: the command table. Each command lives in cmd-<name>.c. */
#include "cli.h"

#include <string.h>

static const struct cli_cmd *const commands[] = {
	&cli_cmd_stat,
	&cli_cmd_compare,
	&cli_cmd_record,
	&cli_cmd_report,
	&cli_cmd_diff,
	&cli_cmd_list,
	&cli_cmd_doctor,
	&cli_cmd_serve,
};

static void usage(FILE *f)
{
	fprintf(f, "usage: hwprof [--version] [--help] COMMAND [ARGS]\n\n"
		   "Hardware-counter profiling on Linux, built on perf_event_open.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "  %-10s %s\n", "help", "Show the help of a command");
	fprintf(f, "\n'hwprof help COMMAND' or 'hwprof COMMAND --help' tells more.\n");
}

static const struct cli_cmd *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static int help(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	if (argc < 2) {
		usage(stdout);
		return cli_flush_stdout(NULL);
	}
	cmd = find(argv[1]);
	if (!cmd) {
		cli_error(NULL, "no command '%s'; 'hwprof --help' lists them", argv[1]);
		return CLI_EXIT_USAGE;
	}
	cli_help(cmd, stdout);
	return cli_flush_stdout(NULL);
}

/* Past the file size limit (ulimit -f), a write fails with EFBIG, which
 * the library explains, instead of SIGXFSZ killing hwprof and leaving a
 * temporary file behind. A handler, not SIG_IGN: a command that hwprof
 * starts gets the default action back at its exec. */
static void on_xfsz(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;
	struct sigaction sa = { .sa_handler = on_xfsz, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help(1, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("hwprof %s\n", hwp_version());
		return cli_flush_stdout(NULL);
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	cmd = find(argv[1]);
	if (!cmd) {
		cli_error(NULL, "no command '%s'; 'hwprof --help' lists them", argv[1]);
		return CLI_EXIT_USAGE;
	}
	return cmd->run(argc - 1, argv + 1);
}
