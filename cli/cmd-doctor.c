// SPDX-License-Identifier: MIT
/* hwprof doctor: what on this machine adds noise to measurements. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static const char doctor_help[] =
	"usage: hwprof doctor [--json]\n"
	"\n"
	"What on this machine adds noise to measurements, each with its current value,\n"
	"why it matters and the command that fixes it: the CPU frequency governor,\n"
	"turbo/boost, SMT siblings, C-states, the NMI watchdog, perf_event_paranoid,\n"
	"kptr_restrict, transparent huge pages, ASLR, irqbalance, a virtual machine or\n"
	"no hardware PMU, and the load of other processes. Read from /proc and /sys\n"
	"now; nothing is changed.\n"
	"\n"
	"      --json   JSON, schema hwprof-doctor/1\n"
	"  -h, --help   this text\n"
	"\n"
	"Exit status: 0 (whatever it found), 2 for a usage error, 1 for other failures.\n"
	"\n"
	"The full manual: man hwprof-doctor\n";

static int doctor_run(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	HWP_OPTS(hwp_write_opts, o, .format = HWP_FORMAT_TEXT);
	struct hwp_doctor *d = NULL;
	int opt, err;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (opt) {
		case 'J': o.format = HWP_FORMAT_JSON; break;
		case 'h': return cli_show_help(&cli_cmd_doctor);
		default:
			cli_error("doctor", "unknown option '%s'; 'hwprof doctor --help' lists them",
				  argv[optind - 1]);
			return CLI_EXIT_USAGE;
		}
	}
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
	.help = doctor_help,
	.run = doctor_run,
};
