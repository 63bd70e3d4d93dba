/* SPDX-License-Identifier: MIT */
/*
 * The command table and what every command shares.
 *
 * One return convention, in every file of the CLI:
 *
 * - A function that can fail, and says why, returns 0 or the exit status
 *   hwprof should end with (CLI_EXIT_* below: never 0), after printing the
 *   message on stderr. Its caller prints nothing more and passes the status
 *   up, releasing what it holds; where more must still be done (a report
 *   written), the first failure's status is the one kept.
 * - A helper that prints nothing returns 0 or a negative errno, as the
 *   library does, and so do the callbacks the library calls; the caller
 *   that prints the message turns it into an exit status. No function
 *   returns both kinds.
 * - A measured command's exit status is not a failure: it comes back
 *   through an `int *code` parameter, and only a command's run function
 *   (struct cli_cmd) returns it, when nothing failed. --help is not a
 *   failure either: the options set a flag that the run function reads.
 */
#ifndef HWPROF_CLI_H
#define HWPROF_CLI_H

#include <hwprof/hwprof.h>
/* The CLI's plumbing, not API: output files, escaping, result builders
 * (lib/private/hwprof-private.h, docs/api.md). */
#include <hwprof-private.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One option of a command. A table of these, ended by an entry whose key
 * is 0, gives getopt_long() its string and its long options, and --help
 * its option lines (perf's parse-options): an option is written once. */
struct cli_option {
	int key;		/* -KEY's letter, or from CLI_OPT_LONG: --NAME alone */
	const char *name;	/* --NAME, or NULL: -KEY alone */
	const char *arg;	/* the value's name in --help; NULL: takes none */
	/* Its text in --help, lines split by '\n' (an empty first line: the
	 * text starts under the option); NULL: no line of its own. */
	const char *help;
	bool form;		/* the option above again, for a line of --help */
};
#define CLI_OPT_LONG 256
/* An option with its line in --help; one without (an "Also:" of the
 * text after the lines, or one alias of another); another form of the
 * option above, for a line of --help; the end of the table. */
#define CLI_OPT(key, name, arg, help) { key, name, arg, help, false }
#define CLI_OPT_ALSO(key, name, arg) { key, name, arg, NULL, false }
#define CLI_OPT_FORM(key, name, arg, help) { key, name, arg, help, true }
#define CLI_OPT_END { 0, NULL, NULL, NULL, false }

/* Parse @argv's options by @cmd's table, for its run function. Parsing
 * stops at the first argument that is not an option with
 * CLI_STOP_AT_COMMAND (a command to run follows), and at the key 'h' (-h,
 * --help), which sets *@help. @fn is called for each other option with
 * its key and its value (in argv, as getopt's optarg: NULL for an option
 * without one), and returns 0 or an exit status, which ends the parsing;
 * an unknown option is a usage error, said here. The arguments left
 * start at optind. */
struct cli_cmd;
typedef int (*cli_option_fn)(void *ctx, int key, char *arg);
int cli_parse_options(const struct cli_cmd *cmd, int argc, char **argv,
		      cli_option_fn fn, void *ctx, bool *help);

struct cli_cmd {
	const char *name;
	const char *summary;	/* one line, for 'hwprof --help' */
	/* 'hwprof CMD --help': @usage, the lines of @options, then @tail. */
	const char *usage;
	const struct cli_option *options;
	const char *tail;
	int help_width;		/* the column of the options' text */
	unsigned int flags;	/* CLI_STOP_AT_COMMAND, CLI_SAY_MISSING_VALUE */
	int (*run)(int argc, char **argv);
};
enum {
	CLI_STOP_AT_COMMAND = 1 << 0,
	/* "unknown option or missing value": the message of report and diff */
	CLI_SAY_MISSING_VALUE = 1 << 1,
};

extern const struct cli_cmd cli_cmd_stat;
extern const struct cli_cmd cli_cmd_list;
/* util.c: why an event does not open, short ("no: permission"), for hwprof
 * list and list --metrics. */
void list_short_reason(int err, char *buf, size_t size);
/* A metric formula's event name as an event list writes it: msr@aperf@
 * is msr/aperf/ (stat-metrics.c); freed by the caller, NULL: no memory. */
char *formula_event_spec(const char *name);
/* list-metrics.c: hwprof list --metrics [--names] [--no-probe]. */
int list_metrics(bool names_only, bool probe);
extern const struct cli_cmd cli_cmd_compare;
extern const struct cli_cmd cli_cmd_record;
extern const struct cli_cmd cli_cmd_report;
extern const struct cli_cmd cli_cmd_diff;
extern const struct cli_cmd cli_cmd_doctor;
extern const struct cli_cmd cli_cmd_serve;

/* Exit statuses (see hwprof(1), EXIT STATUS). */
enum {
	CLI_EXIT_FAILURE = 1,
	CLI_EXIT_USAGE = 2,
	CLI_EXIT_NOEXEC = 126,
	CLI_EXIT_NOTFOUND = 127,
};

/* A line on stderr that the next message replaces: stat's progress during
 * repeated runs. cli_error() erases it first, so that no message lands in
 * the middle of it, whoever prints the message. */
void cli_progress_show(const char *line);
void cli_progress_clear(void);
/* "hwprof CMD: error: ..." on stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "hwprof CMD: note: ...": a fact about the run, as it is set up. */
void cli_note(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "hwprof CMD: warning: ...", likewise. */
void cli_warn(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Report a library failure: its detailed message, or hwp_strerror().
 * Returns CLI_EXIT_FAILURE; cli_exit_for(@err) where bad input is a usage error. */
int cli_lib_error(const char *cmd, int err);
/* The exit status for a library error: 2 for bad input, 1 otherwise. */
int cli_exit_for(int err);
/* Print @cmd's help on @f. */
void cli_help(const struct cli_cmd *cmd, FILE *f);
/* 'hwprof CMD --help': the help on stdout, flushed; 0 or CLI_EXIT_FAILURE. */
int cli_show_help(const struct cli_cmd *cmd);
/* Flush stdout and report a failed write (a full disk): 0 or 1. */
int cli_flush_stdout(const char *cmd);
/* CLOCK_MONOTONIC, in seconds. */
double cli_now(void);
/* Parse a whole decimal number in [min, max]; false if it is not one. */
bool cli_parse_long(const char *s, long min, long max, long *out);

/* The output options that report and diff share, into @o: -s/--sort KEY,
 * -f/--format FMT (the first @nr_formats of text, csv, json, folded,
 * speedscope, pprof, html; CLI_ALL_FORMATS: each, and any added later),
 * -n/--top N and -x/--field-separator S. Whether @opt is one of them; if so
 * *@ret is 0, or CLI_EXIT_USAGE after a message for a bad @arg. */
bool cli_output_option(const char *cmd, int opt, const char *arg,
		       struct hwp_write_opts *o, size_t nr_formats, int *ret);
#define CLI_ALL_FORMATS SIZE_MAX
/* --alpha: a significance level, strictly between 0 and 1. 0, or
 * CLI_EXIT_USAGE after saying that @s is not one. */
int cli_alpha_option(const char *cmd, const char *s, double *out);

/* Output files (output.c), through hwpriv_ofile: whole under their name, or
 * not there at all. */
/* Start writing @path ("-": standard output): *@of, and *@f to write to
 * (borrowed). 0 or a negative errno, the message in hwp_errmsg(); then
 * *@f is left as it was. */
int cli_ofile_open(const char *path, struct hwpriv_ofile **of, FILE **f);
/* Commit @of when @keep, else drop it; NULL: nothing to do. 0, or the
 * negative errno of the commit (hwp_errmsg() names the file). */
int cli_ofile_end(struct hwpriv_ofile *of, bool keep);
/* Write @of with @write(@ctx, stream), which returns 0 or a negative
 * errno, then commit it if that is 0, else drop it; @of is freed. 0, or
 * the negative errno of @write or of the commit. */
typedef int (*cli_write_fn)(void *ctx, FILE *f);
int cli_ofile_write(struct hwpriv_ofile *of, cli_write_fn write, void *ctx);
/* Likewise, into @path ("-": standard output), opened here; or the
 * negative errno of the open. */
int cli_write_file(const char *path, cli_write_fn write, void *ctx);

/* A comma-separated list grown by repeated options (-e a -e b: "a,b"). */
struct cli_list {
	char *buf;		/* NULL while empty */
	size_t len;
};
/* 0 or -ENOMEM. */
int cli_list_add(struct cli_list *l, const char *item);

/* Ctrl-C, SIGTERM and SIGHUP while a command runs (signals.c). The handler only
 * counts; the signals stay blocked except inside ppoll() with an empty
 * mask, so that a signal cannot slip in between a check and a wait. */
#include <signal.h>
extern volatile sig_atomic_t cli_stop_count;
void cli_install_stop_signals(void);
/* Pass a stop request on to the command: a terminal's Ctrl-C reached it
 * already, a kill aimed at hwprof alone did not; a second one kills it. */
void cli_forward_stop(struct hwp_workload *wl);

#endif
