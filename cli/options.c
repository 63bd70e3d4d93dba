// SPDX-License-Identifier: MIT
/* A command's option table: getopt's string, the long options and the
 * lines of --help, from one entry an option (perf's parse-options). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The options getopt_long() is given: @opts without the other forms. */
static size_t nr_options(const struct cli_option *opts)
{
	size_t n = 0;

	for (const struct cli_option *o = opts; o->key; o++)
		n += !o->form;
	return n;
}

/* @cmd's table as getopt_long() takes it, into *@shorts and *@longs
 * (malloc'ed). 0 or -ENOMEM. */
static int getopt_tables(const struct cli_cmd *cmd, char **shorts, struct option **longs)
{
	size_t n = nr_options(cmd->options), s = 0, l = 0;
	char *str = malloc(3 * n + 3);
	struct option *lo = calloc(n + 1, sizeof(*lo));

	if (!str || !lo) {
		free(str);
		free(lo);
		return -ENOMEM;
	}
	if (cmd->flags & CLI_STOP_AT_COMMAND)
		str[s++] = '+';
	for (const struct cli_option *o = cmd->options; o->key; o++) {
		if (o->form)
			continue;
		if (o->key < CLI_OPT_LONG) {
			str[s++] = (char)o->key;
			if (o->arg)
				str[s++] = ':';
		}
		if (o->name)
			lo[l++] = (struct option){ o->name, o->arg ? required_argument :
						   no_argument, NULL, o->key };
	}
	str[s] = '\0';
	*shorts = str;
	*longs = lo;
	return 0;
}

static int unknown_option(const struct cli_cmd *cmd, const char *arg)
{
	bool value = cmd->flags & CLI_SAY_MISSING_VALUE;

	cli_error(cmd->name, "unknown option%s '%s'; 'hwprof %s --help' lists them",
		  value ? " or missing value" : "", arg, cmd->name);
	return CLI_EXIT_USAGE;
}

int cli_parse_options(const struct cli_cmd *cmd, int argc, char **argv,
		      cli_option_fn fn, void *ctx, bool *help)
{
	struct option *longs;
	char *shorts;
	int opt, ret = 0;

	*help = false;
	if (getopt_tables(cmd, &shorts, &longs)) {
		cli_error(cmd->name, "out of memory");
		return CLI_EXIT_FAILURE;
	}
	optind = 1;
	opterr = 0;
	while (!ret && (opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (opt == '?') {
			ret = unknown_option(cmd, argv[optind - 1]);
		} else if (opt == 'h') {
			*help = true;
			break;
		} else {
			ret = fn(ctx, opt, optarg);
		}
	}
	free(shorts);
	free(longs);
	return ret;
}

/* The line of @o in --help: "  -K, --NAME ARG", then its text from the
 * column @width, on lines of their own after a first line of its own too
 * long for the column; the text's further lines start at that column. */
static void help_option(const struct cli_option *o, int width, FILE *f)
{
	const char *text = o->help, *nl;
	int len;

	if (o->key < CLI_OPT_LONG)
		len = fprintf(f, "  -%c%s%s", o->key, o->name ? ", --" : "",
			      o->name ? o->name : "");
	else
		len = fprintf(f, "      --%s", o->name);
	if (o->arg)
		len += fprintf(f, " %s", o->arg);
	for (bool first = true; text; first = false) {
		nl = strchr(text, '\n');
		if (!first)
			len = 0;
		if (nl != text || !first)
			fprintf(f, "%*s%.*s", len < width ? width - len : 2, "",
				nl ? (int)(nl - text) : (int)strlen(text), text);
		fputc('\n', f);
		text = nl ? nl + 1 : NULL;
	}
}

void cli_help(const struct cli_cmd *cmd, FILE *f)
{
	fputs(cmd->usage, f);
	for (const struct cli_option *o = cmd->options; o->key; o++)
		if (o->help)
			help_option(o, cmd->help_width, f);
	fputs(cmd->tail, f);
}

int cli_show_help(const struct cli_cmd *cmd)
{
	cli_help(cmd, stdout);
	return cli_flush_stdout(cmd->name);
}
