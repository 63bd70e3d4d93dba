// SPDX-License-Identifier: MIT
/*
 * The --fail-on rules of a comparison: "ROW:increase>PCT" parsed, checked
 * against the rows, and broken where a verdict says so.
 */
#include "core/core.h"
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- --fail-on rules ---- */

#define RULE_FORM "ROW:increase or ROW:decrease, optionally with a threshold in percent (page-faults:increase>5)"

/* "ROW:increase[>PCT[%]]": ROW may hold colons ("cycles:u:increase"). */
static int rule_parse(const char *spec, struct cmp_rule *r)
{
	const char *colon = spec ? strrchr(spec, ':') : NULL, *cond;
	size_t len;
	char *end;

	if (!spec)
		return fail(-EINVAL, "hwp_compare_opts.fail_on: a NULL rule");
	r->spec = strdup(spec);
	if (!r->spec)
		return fail(-ENOMEM, "out of memory");
	if (!colon || colon == spec)
		return fail(-EINVAL, "fail-on rule '%s': no %s; expected " RULE_FORM,
			    spec,
			    colon ? "row before the ':'" : "':'");
	cond = colon + 1;
	len = strcspn(cond, ">");
	if (len == 8 && !strncmp(cond, "increase", 8))
		r->change = HWP_VERDICT_INCREASE;
	else if (len == 8 && !strncmp(cond, "decrease", 8))
		r->change = HWP_VERDICT_DECREASE;
	else
		return fail(-EINVAL,
			    "fail-on rule '%s': '%.*s' is not increase or decrease; expected "
			    RULE_FORM,
			    spec, (int)len, cond);
	if (cond[len] == '>') {
		errno = 0;
		r->pct = strtod(cond + len + 1, &end);
		if (*end == '%')
			end++;
		if (end == cond + len + 1 || *end || errno || !(r->pct >= 0) ||
		    !isfinite(r->pct))
			return fail(-EINVAL,
				    "fail-on rule '%s': '%s' is not a threshold in percent, such as >5 or >2.5%%; expected "
				    RULE_FORM,
				    spec, cond + len + 1);
	}
	r->row = strndup(spec, (size_t)(colon - spec));
	return r->row ? 0 : fail(-ENOMEM, "out of memory");
}

int cmp_rules_parse(struct hwp_compare *c, const char *const *rules, size_t n)
{
	if (n && !rules)
		return fail(-EINVAL, "hwp_compare_opts: fail_on is NULL, nr_fail_on %zu",
			    n);
	c->rules = calloc(n + 1, sizeof(*c->rules));
	if (!c->rules)
		return fail(-ENOMEM, "out of memory");
	for (; c->nr_rules < n; c->nr_rules++) {
		int err = rule_parse(rules[c->nr_rules], &c->rules[c->nr_rules]);

		if (err) {
			c->nr_rules++;	/* freed with the rest */
			return err;
		}
	}
	return 0;
}

/* "increase (B/A 1.099, +9.94%), p <0.001 after Holm's correction". */
static void describe_change(const struct hwp_compare *c, const struct hwp_compare_info *i,
			    struct strbuf *sb)
{
	if (i->verdict == HWP_VERDICT_NONE) {
		strbuf_addf(sb, "no test (%s)", i->reason ? i->reason : "no values");
		return;
	}
	strbuf_adds(sb, hwp_enum_name(HWP_ENUM_VERDICT, i->verdict));
	if (!isnan(i->ratio))
		strbuf_addf(sb, " (B/A %.4g, %+.3g%%)", i->ratio, 100 * (i->ratio - 1));
	if (i->p_value < 0.001)
		strbuf_adds(sb, ", p <0.001");
	else
		strbuf_addf(sb, ", p %.3f", i->p_value);
	if (c->corrected)
		strbuf_adds(sb, " after Holm's correction");
}

/* Whether cell @i breaks rule @r: the change, past the threshold (a
 * change without a ratio, from a mean of 0, is past any). */
static bool breaks(const struct cmp_rule *r, const struct hwp_compare_info *i)
{
	double pct;

	if (i->verdict != r->change)
		return false;
	if (isnan(i->ratio))
		return true;
	pct = 100 * (i->ratio - 1) * (r->change == HWP_VERDICT_INCREASE ? 1 : -1);
	return pct > r->pct;
}

/* Whether @name names @row: its label ("page-faults", "CPU0 page-faults"),
 * or a clock's as the table prints it ("task-clock (msec)"). */
static bool rule_names_row(const char *name, const struct cmp_row *row)
{
	size_t len = strlen(row->label);

	if (!strcmp(row->label, name))
		return true;
	return row->kind == HWP_SERIES_EVENT && !strcmp(row->unit, "ns") &&
	       !strncmp(name, row->label, len) && !strcmp(name + len, " (msec)");
}

static bool rule_row_exists(const struct hwp_compare *c, const char *name)
{
	for (size_t i = 0; i < c->nr_rows; i++)
		if (rule_names_row(name, &c->rows[i]))
			return true;
	return false;
}

static int rule_unknown_row(const struct hwp_compare *c, const struct cmp_rule *r)
{
	struct strbuf rows = STRBUF_INIT;
	const char *untested = NULL;
	size_t len = strlen(r->row);
	int err;

	for (size_t i = 0; i < c->nr_rows; i++)
		strbuf_addf(&rows, "%s%s", i ? ", " : "", c->rows[i].label);
	for (size_t i = 0; i < c->nr_warnings && !untested; i++)
		if (!strncmp(c->warnings[i], "no test for ", 12) &&
		    !strncmp(c->warnings[i] + 12, r->row, len) &&
		    c->warnings[i][12 + len] == ':')
			untested = c->warnings[i];
	if (untested)
		err = fail(-EINVAL, "fail-on rule '%s': %s; the rule cannot be checked",
			   r->spec, untested);
	else
		err = fail(-EINVAL, "fail-on rule '%s': the comparison has no row '%s'; its rows: %s",
			   r->spec, r->row, strbuf_str(&rows));
	strbuf_release(&rows);
	return err;
}

int cmp_rules_check(struct hwp_compare *c)
{
	for (size_t k = 0; k < c->nr_rules; k++) {
		struct cmp_rule *r = &c->rules[k];
		struct strbuf sb = STRBUF_INIT;
		size_t told = 0;

		if (!rule_row_exists(c, r->row))
			return rule_unknown_row(c, r);
		for (size_t i = 0; i < c->nr_rows; i++) {
			if (!rule_names_row(r->row, &c->rows[i]))
				continue;
			for (size_t col = 0; col < c->nr_columns; col++) {
				const struct hwp_compare_info *in =
					&c->rows[i].cells[col].info;
				bool b = breaks(r, in);

				r->broken |= b;
				strbuf_addf(&sb, "%s%s", told++ ? "; " : "", r->row);
				if (c->param)
					strbuf_addf(&sb, " at %s=%s", c->param,
						    c->columns[col]);
				strbuf_adds(&sb, ": ");
				describe_change(c, in, &sb);
				if (r->pct > 0 && in->verdict == r->change)
					strbuf_addf(&sb, ", %s %g%%",
						    b ? "past" : "not past", r->pct);
			}
		}
		c->nr_broken += r->broken;
		r->finding = strbuf_detach(&sb);
		if (!r->finding)
			return -ENOMEM;
	}
	return 0;
}

HWP_API size_t hwp_compare_failed(const struct hwp_compare *c)
{
	return c ? c->nr_broken : 0;
}

HWP_API const char *hwp_compare_rule(const struct hwp_compare *c, size_t idx,
				     bool *broken, const char **finding)
{
	if (!c || idx >= c->nr_rules)
		return NULL;
	if (broken)
		*broken = c->rules[idx].broken;
	if (finding)
		*finding = c->rules[idx].finding;
	return c->rules[idx].spec;
}
