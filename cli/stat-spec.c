// SPDX-License-Identifier: MIT
/* NAME=V1,V2,...: the specs of hwprof stat --sweep and --variant, and the
 * command with {NAME} replaced by one value. */
#include "stat.h"

#include <ctype.h>
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
