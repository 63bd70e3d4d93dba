// SPDX-License-Identifier: MIT
/*
 * What a comparison checks of its two inputs against each other: the
 * columns two sweeps share, the runs of each side, the conditions they
 * were measured in, and why two results have no row in common; and the
 * list of warnings that these checks, and compare.c's, add to.
 */
#include "core/core.h"
#include "compare/compare.h"
#include "result/result.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cmp_warn(struct hwp_compare *c, const char *fmt, ...)
{
	char **w = realloc(c->warnings, (c->nr_warnings + 1) * sizeof(*w));
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!w)
		return -ENOMEM;
	c->warnings = w;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	w[c->nr_warnings] = strbuf_detach(&sb);
	if (!w[c->nr_warnings])
		return -ENOMEM;
	c->nr_warnings++;
	return 0;
}

static bool same_strings(char *const *x, char *const *y)
{
	size_t i = 0;

	if (!x || !y)
		return x == y;
	for (; x[i] && y[i]; i++)
		if (strcmp(x[i], y[i]))
			return false;
	return !x[i] && !y[i];
}

/*
 * hwprof doctor's facts where A and B were measured, when they differ: a
 * governor, ASLR or SMT changed between two measurements moves the numbers
 * as a patch would. The load moves all the time: only its verdict counts.
 */
static int warn_facts(struct hwp_compare *c, const struct environment *ea,
		      const struct environment *eb)
{
	struct strbuf sb = STRBUF_INIT;
	int err = 0;

	for (size_t i = 0; i < ea->nr_facts; i++) {
		const struct env_fact *fa = &ea->facts[i], *fb = NULL;

		for (size_t k = 0; k < eb->nr_facts && !fb; k++)
			if (!strcmp(eb->facts[k].name, fa->name))
				fb = &eb->facts[k];
		if (!fb || (!strcmp(fa->name, "load") ? fa->noisy == fb->noisy :
							!strcmp(fa->value, fb->value)))
			continue;
		strbuf_addf(&sb, "%s%s '%s' in %s, '%s' in %s", sb.len ? "; " : "",
			    fa->name, fa->value, c->a_name, fb->value, c->b_name);
	}
	if (strbuf_failed(&sb))
		err = -ENOMEM;
	else if (sb.len)
		err = cmp_warn(c, "measured in different conditions (hwprof doctor): %s",
			       strbuf_str(&sb));
	strbuf_release(&sb);
	return err;
}

/* What makes two measurements less comparable than they look. */
int cmp_warn_context(struct hwp_compare *c, const struct hwp_sweep *a,
		     const struct hwp_sweep *b)
{
	const struct hwp_result *ra = a->results[0], *rb = b->results[0];
	char *const *ca = a->param ? a->argv : ra->argv;
	char *const *cb = b->param ? b->argv : rb->argv;
	const struct environment *ea = &ra->env, *eb = &rb->env;
	int err = 0;

	if (!same_strings(ca, cb)) {
		struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;

		command_line(ca, &x);
		command_line(cb, &y);
		err = cmp_warn(c, "the commands differ: %s ran '%s', %s ran '%s'",
			       c->a_name, strbuf_str(&x), c->b_name, strbuf_str(&y));
		strbuf_release(&x);
		strbuf_release(&y);
	}
	if (!err && ea->host && eb->host &&
	    (strcmp(ea->host, eb->host) || strcmp(ea->cpu, eb->cpu) ||
	     strcmp(ea->kernel, eb->kernel)))
		err = cmp_warn(c, "measured on different machines or kernels: %s on %s (%s, %s), %s on %s (%s, %s)",
			       c->a_name, ea->host, ea->cpu, ea->kernel, c->b_name,
			       eb->host, eb->cpu, eb->kernel);
	if (!err)
		err = warn_facts(c, ea, eb);
	if (!err && a->param && b->param && strcmp(a->param, b->param))
		err = cmp_warn(c, "the sweeps are over different parameters: %s and %s; columns are matched by value",
			       a->param, b->param);
	return err;
}

const char *cmp_side_name(const struct hwp_sweep *sw, const char *dflt)
{
	return sw->nr && sw->results[0]->source ? sw->results[0]->source : dflt;
}

/* Pair the columns by value; warn about the values on one side only. */
int cmp_pair_columns(struct hwp_compare *c, const struct hwp_sweep *a,
		     const struct hwp_sweep *b, size_t *pair_a, size_t *pair_b)
{
	struct strbuf only_a = STRBUF_INIT, only_b = STRBUF_INIT;
	int err = 0;

	for (size_t p = 0; p < a->nr; p++) {
		size_t q = 0;

		while (q < b->nr && !(a->values[p] == b->values[q] ||
				      (a->values[p] && b->values[q] &&
				       !strcmp(a->values[p], b->values[q]))))
			q++;
		if (q == b->nr) {
			strbuf_addf(&only_a, "%s%s", only_a.len ? ", " : "",
				    a->values[p]);
			continue;
		}
		c->columns[c->nr_columns] = a->values[p] ? strdup(a->values[p]) : NULL;
		if (a->values[p] && !c->columns[c->nr_columns])
			err = -ENOMEM;
		c->a_runs[c->nr_columns] = a->results[p]->nr_runs;
		c->b_runs[c->nr_columns] = b->results[q]->nr_runs;
		pair_a[c->nr_columns] = p;
		pair_b[c->nr_columns++] = q;
	}
	for (size_t q = 0; q < b->nr; q++) {
		bool found = false;

		for (size_t p = 0; p < a->nr && !found; p++)
			found = a->values[p] && !strcmp(a->values[p], b->values[q]);
		if (!found && b->values[q])
			strbuf_addf(&only_b, "%s%s", only_b.len ? ", " : "",
				    b->values[q]);
	}
	if (!err && only_a.len)
		err = cmp_warn(c, "%s=%s measured in %s only, not compared", a->param,
			       strbuf_str(&only_a), c->a_name);
	if (!err && only_b.len)
		err = cmp_warn(c, "%s=%s measured in %s only, not compared", b->param,
			       strbuf_str(&only_b), c->b_name);
	strbuf_release(&only_a);
	strbuf_release(&only_b);
	return err;
}

/* Each side needs a column of 2 runs or more to say anything. */
int cmp_check_runs(const struct hwp_compare *c)
{
	size_t most_a = 0, most_b = 0;

	for (size_t k = 0; k < c->nr_columns; k++) {
		most_a = c->a_runs[k] > most_a ? c->a_runs[k] : most_a;
		most_b = c->b_runs[k] > most_b ? c->b_runs[k] : most_b;
	}
	if (most_a < 2 || most_b < 2)
		return fail(-HWP_ERR_MISMATCH,
				"%s has %s: a comparison needs at least 2 runs on each side to tell a change from noise; measure with hwprof stat -r 5 (or more)",
				most_a < 2 ? c->a_name : c->b_name,
				c->param ? "one run per value" : "one run");
	return 0;
}

int cmp_mismatch_no_rows(const struct hwp_compare *c, const struct hwp_sweep *a,
			 const struct hwp_sweep *b, bool any_common)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int err;

	for (size_t i = 0; i < a->results[0]->nr_series; i++)
		strbuf_addf(&x, "%s%s", i ? ", " : "", a->results[0]->series[i].name);
	for (size_t i = 0; i < b->results[0]->nr_series; i++)
		strbuf_addf(&y, "%s%s", i ? ", " : "", b->results[0]->series[i].name);
	if (any_common)
		err = fail(-HWP_ERR_MISMATCH,
			       "%s and %s have no event or metric with values on both sides to compare (%s)",
			       c->a_name, c->b_name, c->warnings[c->nr_warnings - 1]);
	else
		err = fail(-HWP_ERR_MISMATCH,
			       "%s and %s have no event or metric in common: %s counted %s; %s counted %s; count the same events (-e) in both",
			       c->a_name, c->b_name, c->a_name, strbuf_str(&x), c->b_name,
			       strbuf_str(&y));
	strbuf_release(&x);
	strbuf_release(&y);
	return err;
}
