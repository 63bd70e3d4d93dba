// SPDX-License-Identifier: MIT
/* hwprof doctor: what on this machine adds noise to measurements. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static const char doctor_usage[] =
	"usage: hwprof doctor [--json]\n"
	"\n"
	"What on this machine adds noise to measurements, each with its current value,\n"
	"why it matters and the command that fixes it: the CPU frequency governor,\n"
	"turbo/boost, SMT siblings, C-states, the NMI watchdog, perf_event_paranoid,\n"
	"kptr_restrict, transparent huge pages, ASLR, irqbalance, a virtual machine or\n"
	"no hardware PMU, and the load of other processes. Read from /proc and /sys\n"
	"now; nothing is changed.\n"
	"\n";

enum { OPT_JSON = CLI_OPT_LONG };

static const struct cli_option doctor_options[] = {
	CLI_OPT(OPT_JSON, "json", NULL, "JSON, schema hwprof-doctor/1"),
	CLI_OPT('h', "help", NULL, "this text"),
	CLI_OPT_END,
};

static const char doctor_tail[] =
	"\n"
	"Exit status: 0 (whatever it found), 2 for a usage error, 1 for other failures.\n"
	"\n"
	"The full manual: man hwprof-doctor\n";

static int doctor_option(void *ctx, int key, char *arg)
{
	struct hwp_write_opts *o = ctx;

	(void)arg;
	if (key == OPT_JSON)
		o->format = HWP_FORMAT_JSON;
	return 0;
}

static int doctor_run(int argc, char **argv)
{
	HWP_OPTS(hwp_write_opts, o, .format = HWP_FORMAT_TEXT);
	struct hwp_doctor *d = NULL;
	bool help;
	int err;

	err = cli_parse_options(&cli_cmd_doctor, argc, argv, doctor_option, &o, &help);
	if (err || help)
		return err ?: cli_show_help(&cli_cmd_doctor);
	if (optind < argc) {
		cli_error("doctor", "'%s': doctor takes no arguments", argv[optind]);
		return CLI_EXIT_USAGE;
	}
	err = hwp_doctor_new(&d);
	if (!err)
		err = hwp_doctor_write(d, stdout, &o);
	hwp_doctor_free(d);
	if (err)
		return cli_lib_error("doctor", err);
	return cli_flush_stdout("doctor");
}

const struct cli_cmd cli_cmd_doctor = {
	.name = "doctor",
	.summary = "What on this machine adds noise to measurements, and the fix",
	.usage = doctor_usage,
	.options = doctor_options,
	.tail = doctor_tail,
	.help_width = 15,
	.flags = CLI_STOP_AT_COMMAND,
	.run = doctor_run,
};
