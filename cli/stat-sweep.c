// SPDX-License-Identifier: MIT
/* hwprof stat --sweep NAME=V1,V2,...: the command once per value, with
 * {NAME} in its arguments replaced, and one column per value. */
#include "stat.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void spec_release(struct sweep_spec *s)
{
	free(s->buf);
	free(s->values);
	memset(s, 0, sizeof(*s));
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

int parse_spec(const char *spec, const char *option, struct sweep_spec *s)
{
	char *eq, *v, *save = NULL;

	memset(s, 0, sizeof(*s));
	s->buf = strdup(spec);
	s->values = calloc(strlen(spec) + 1, sizeof(*s->values));
	if (!s->buf || !s->values) {
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	eq = strchr(s->buf, '=');
	if (!eq || !valid_name((*eq = '\0', s->buf)) || strlen(s->buf) > 64) {
		cli_error("stat", "%s '%s': write NAME=V1,V2,... with a NAME of letters, digits, '_' and '-'",
			  option, spec);
		return CLI_EXIT_USAGE;
	}
	s->name = s->buf;
	snprintf(s->placeholder, sizeof(s->placeholder), "{%s}", s->name);
	if (!eq[1] || eq[1] == ',' || eq[strlen(eq + 1)] == ',' || strstr(eq + 1, ",,")) {
		cli_error("stat", "%s '%s': a value is empty", option, spec);
		return CLI_EXIT_USAGE;
	}
	for (v = strtok_r(eq + 1, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		for (size_t i = 0; i < s->nr; i++)
			if (!strcmp(s->values[i], v)) {
				cli_error("stat", "%s: %s=%s is given twice", option,
					  s->name, v);
				return CLI_EXIT_USAGE;
			}
		s->values[s->nr++] = v;
	}
	return 0;
}

int spec_check(const char *spec, const char *option, char **argv)
{
	struct sweep_spec s;
	bool used = false;
	int ret = parse_spec(spec, option, &s);

	if (!ret && !argv) {
		cli_error("stat", "%s runs a command once per value; give one after --",
			  option);
		ret = CLI_EXIT_USAGE;
	}
	for (size_t i = 0; !ret && argv[i]; i++)
		used |= strstr(argv[i], s.placeholder) != NULL;
	if (!ret && !used) {
		cli_error("stat", "%s %s: no argument of the command has %s to replace",
			  option, s.name, s.placeholder);
		ret = CLI_EXIT_USAGE;
	}
	spec_release(&s);
	return ret;
}

/* --sweep and --variant name one parameter: a second one would be dropped
 * silently, leaving its {NAME} unreplaced in the command. */
int spec_once(const char **slot, const char *option, const char *spec)
{
	if (*slot) {
		cli_error("stat", "%s %s: one %s at a time (%s is already given); their product is not swept: run one %s for each value of the other",
			  option, spec, option, *slot, option);
		return CLI_EXIT_USAGE;
	}
	*slot = spec;
	return 0;
}

int sweep_check(const struct stat_config *c)
{
	return spec_check(c->sweep, "--sweep", c->target.argv);
}

/* @arg with every @from replaced by @to; NULL when out of memory. */
static char *replace_all(const char *arg, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), n = 0;
	const char *p;
	char *out, *o;

	for (p = strstr(arg, from); p; p = strstr(p + nf, from))
		n++;
	out = malloc(strlen(arg) + n * nt + 1);
	if (!out)
		return NULL;
	for (o = out; (p = strstr(arg, from)); arg = p + nf) {
		memcpy(o, arg, (size_t)(p - arg));
		o += p - arg;
		memcpy(o, to, nt);
		o += nt;
	}
	strcpy(o, arg);
	return out;
}

void argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

char **substitute(char **argv, const struct sweep_spec *s, const char *value)
{
	size_t n = 0;
	char **out;

	while (argv[n])
		n++;
	out = calloc(n + 1, sizeof(*out));
	for (size_t i = 0; out && i < n; i++)
		if (!(out[i] = replace_all(argv[i], s->placeholder, value))) {
			argv_free(out);
			return NULL;
		}
	return out;
}

/* Measure one value into a new result, added to @sw when it has runs. */
static int measure_value(struct stat_ctx *sc, struct hwp_sweep *sw,
			 const struct sweep_spec *s, size_t i, int *code)
{
	char **argv = substitute(sc->cfg->target.argv, s, s->values[i]);
	char label[160];
	int ret, err;

	if (!argv) {
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	ret = stat_new_result(sc, argv, &sc->result);
	if (!ret) {
		snprintf(label, sizeof(label), "%s=%s (%zu/%zu)", s->name, s->values[i],
			 i + 1, s->nr);
		sc->run_argv = argv;
		ret = stat_measure(sc, label, code);
		sc->run_argv = sc->cfg->target.argv;
	}
	/* What was measured is kept, even when a later run failed. */
	if (sc->result && hwp_result_nr_runs(sc->result)) {
		hwpriv_result_set_exit_status(sc->result, ret ? -1 : *code);
		err = hwpriv_sweep_add(sw, s->values[i], sc->result);
		if (err) {
			cli_lib_error("stat", err);
			ret = ret ? ret : CLI_EXIT_FAILURE;
		} else {
			sc->result = NULL;
		}
	}
	hwp_result_free(sc->result);
	sc->result = NULL;
	argv_free(argv);
	return ret;
}

int sweep_run(struct stat_ctx *sc, int *code)
{
	struct hwp_sweep *sw = NULL;
	struct sweep_spec s;
	int ret = parse_spec(sc->cfg->sweep, "--sweep", &s), err;

	/* prepare() made a result to check the metrics; each value gets its own. */
	hwp_result_free(sc->result);
	sc->result = NULL;
	if (!ret && ((err = hwpriv_sweep_new(s.name, &sw)) ||
		     (err = hwpriv_sweep_set_command(sw, sc->cfg->target.argv)))) {
		cli_lib_error("stat", err);
		ret = CLI_EXIT_FAILURE;
	}
	for (size_t i = 0; !ret && i < s.nr && !stat_stopped() && !sc->failed_stop; i++)
		ret = measure_value(sc, sw, &s, i, code);
	if (sw && hwp_sweep_nr_points(sw)) {
		err = hwp_sweep_write(sw, sc->stream, &sc->wopts);
		if (err) {
			cli_lib_error("stat", err);
			ret = ret ? ret : CLI_EXIT_FAILURE;
		}
		/* As for one result: a failed write is dropped, not committed. */
		sc->wrote = !err;
	}
	hwp_sweep_free(sw);
	spec_release(&s);
	return ret;
}
