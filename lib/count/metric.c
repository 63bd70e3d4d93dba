// SPDX-License-Identifier: MIT
/* Metric formulas: parsed once into a small tree, evaluated on each reading. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "util/text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define EXPR_MAX 4096
#define DEPTH_MAX 64

enum node_op { OP_NUM, OP_NAME, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN };

struct node {
	enum node_op op;
	double num;
	char *name;
	int left, right;
};

struct hwp_metric {
	char *name;
	char *expr;
	const char *unit;
	const char *desc;
	const char *group, *model, *source;	/* of a CPU model's table */
	const struct metric_beside *beside;	/* built-ins perf prints by an event */
	struct node *nodes;
	size_t nr_nodes, cap_nodes;
	int root;
	bool builtin;
};

struct mparser {
	const char *def;	/* the whole definition, for messages */
	const char *s;		/* the expression */
	size_t off;		/* offset of the expression in def */
	size_t pos;
	int depth;
	struct hwp_metric *m;
};

static int msyntax(const struct mparser *p, size_t pos, const char *what)
{
	size_t at = p->off + pos;

	if (strlen(p->def) <= 160)
		return fail(-HWP_ERR_SYNTAX,
			    "metric '%s': %s at position %zu\n  %s\n  %*s^",
			    p->def, what, at, p->def, (int)at, "");
	return fail(-HWP_ERR_SYNTAX, "metric '%s': %s at position %zu", p->def, what, at);
}

static int new_node(struct mparser *p, enum node_op op, int left, int right)
{
	struct hwp_metric *m = p->m;
	struct node *n = m->nodes;

	/* Doubling: a 4096-character formula has ~2000 nodes, and a realloc
	 * per node would copy the array ~2000 times. */
	if (m->nr_nodes == m->cap_nodes) {
		size_t cap = m->cap_nodes ? 2 * m->cap_nodes : 16;

		n = realloc(m->nodes, cap * sizeof(*n));
		if (!n)
			return fail(-ENOMEM, "out of memory");
		m->nodes = n;
		m->cap_nodes = cap;
	}
	n[m->nr_nodes] = (struct node){ .op = op, .left = left, .right = right };
	return (int)m->nr_nodes++;
}

static void skip_ws(struct mparser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

static bool name_char(const char *s, size_t i)
{
	unsigned char c = (unsigned char)s[i];

	/* '@' as perf's metrics write a PMU event: msr@aperf@ for msr/aperf/. */
	if (isalnum(c) || c == '_' || c == '.' || c == ':' || (c == '@' && i > 0))
		return true;
	/* "cache-misses" is one name; "a - b" is a subtraction. */
	return c == '-' && i > 0 && isalnum((unsigned char)s[i - 1]) &&
	       isalnum((unsigned char)s[i + 1]);
}

bool metric_is_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (size_t i = 0; s[i]; i++)
		if (!name_char(s, i))
			return false;
	return strcmp(s, "seconds") != 0;
}

static int parse_expr(struct mparser *p);

/* max(a, b) and min(a, b), as the vendors' formulas clamp a difference at
 * 0 (TMA's max(0, Frontend_Bound - Fetch_Latency)): after the name. */
static int parse_call(struct mparser *p, enum node_op op, size_t start)
{
	static const char *const want[] = {
		"expected ',' between the two arguments",
		"expected ')' after the two arguments",
	};
	int arg[2];

	if (++p->depth > DEPTH_MAX)
		return msyntax(p, start, "nested more than 64 deep");
	for (int k = 0; k < 2; k++) {
		p->pos++;	/* '(', then ',' */
		arg[k] = parse_expr(p);
		if (arg[k] < 0)
			return arg[k];
		skip_ws(p);
		if (p->s[p->pos] != (k ? ')' : ','))
			return msyntax(p, p->pos, want[k]);
	}
	p->pos++;
	p->depth--;
	return new_node(p, op, arg[0], arg[1]);
}

static int parse_primary(struct mparser *p)
{
	const char *s = p->s;
	size_t start;
	int id, err;

	skip_ws(p);
	start = p->pos;
	if (s[p->pos] == '(') {
		p->pos++;
		if (++p->depth > DEPTH_MAX)
			return msyntax(p, start, "nested more than 64 deep");
		id = parse_expr(p);
		p->depth--;
		if (id < 0)
			return id;
		skip_ws(p);
		if (s[p->pos] != ')')
			return msyntax(p, p->pos, "expected ')'");
		p->pos++;
		return id;
	}
	if (isdigit((unsigned char)s[p->pos]) ||
	    (s[p->pos] == '.' && isdigit((unsigned char)s[p->pos + 1]))) {
		char *end;
		double v = strtod(s + p->pos, &end);

		if (end == s + p->pos)
			return msyntax(p, start, "bad number");
		if (!isfinite(v))
			return msyntax(p, start, "number out of range");
		p->pos = (size_t)(end - s);
		if (isalpha((unsigned char)s[p->pos]) || s[p->pos] == '_')
			return msyntax(p, p->pos, "a name cannot start with a digit");
		id = new_node(p, OP_NUM, -1, -1);
		if (id >= 0)
			p->m->nodes[id].num = v;
		return id;
	}
	if (isalpha((unsigned char)s[p->pos]) || s[p->pos] == '_') {
		while (name_char(s, p->pos))
			p->pos++;
		if (p->pos - start == 3 && s[p->pos] == '(' &&
		    (!strncmp(s + start, "max", 3) || !strncmp(s + start, "min", 3)))
			return parse_call(p, s[start + 1] == 'a' ? OP_MAX : OP_MIN,
					  start);
		id = new_node(p, OP_NAME, -1, -1);
		if (id < 0)
			return id;
		p->m->nodes[id].name = strndup(s + start, p->pos - start);
		if (!p->m->nodes[id].name)
			return fail(-ENOMEM, "out of memory");
		return id;
	}
	if (!s[p->pos])
		return msyntax(p, p->pos,
			       "expected a number, a name or '(' before the end");
	err = msyntax(p, p->pos, "expected a number, a name or '('");
	return err;
}

static int parse_unary(struct mparser *p)
{
	int id;

	skip_ws(p);
	if (p->s[p->pos] == '-' || p->s[p->pos] == '+') {
		bool neg = p->s[p->pos] == '-';
		size_t start = p->pos;

		p->pos++;
		if (++p->depth > DEPTH_MAX)
			return msyntax(p, start, "nested more than 64 deep");
		id = parse_unary(p);
		p->depth--;
		if (id < 0 || !neg)
			return id;
		return new_node(p, OP_NEG, id, -1);
	}
	return parse_primary(p);
}

static int parse_term(struct mparser *p)
{
	int left = parse_unary(p);

	while (left >= 0) {
		char c;
		int right;

		skip_ws(p);
		c = p->s[p->pos];
		if (c != '*' && c != '/')
			break;
		p->pos++;
		right = parse_unary(p);
		if (right < 0)
			return right;
		left = new_node(p, c == '*' ? OP_MUL : OP_DIV, left, right);
	}
	return left;
}

static int parse_expr(struct mparser *p)
{
	int left = parse_term(p);

	while (left >= 0) {
		char c;
		int right;

		skip_ws(p);
		c = p->s[p->pos];
		if (c != '+' && c != '-')
			break;
		p->pos++;
		right = parse_term(p);
		if (right < 0)
			return right;
		left = new_node(p, c == '+' ? OP_ADD : OP_SUB, left, right);
	}
	return left;
}

static void metric_free(struct hwp_metric *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_nodes; i++)
		free(m->nodes[i].name);
	free(m->nodes);
	free(m->name);
	free(m->expr);
	free(m);
}

static char *trim_dup(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return strndup(s, len);
}

/* A parsed metric keeps only the nodes it has: the built-in ones live as
 * long as the process, and the 16 a formula starts with would spread
 * them over a few more heap pages (a page fault each) than they fill. */
static void shrink_nodes(struct hwp_metric *m)
{
	struct node *n = m->nr_nodes ? realloc(m->nodes, m->nr_nodes * sizeof(*n)) : NULL;

	if (n) {
		m->nodes = n;
		m->cap_nodes = m->nr_nodes;
	}
}

static int metric_parse(const char *def, struct hwp_metric **out)
{
	struct mparser p = { .def = def };
	const char *eq = strchr(def, '=');
	struct hwp_metric *m;
	int root;

	*out = NULL;
	if (strlen(def) > EXPR_MAX)
		return fail(-HWP_ERR_SYNTAX, "metric: longer than %d characters",
			    EXPR_MAX);
	m = calloc(1, sizeof(*m));
	if (!m)
		return fail(-ENOMEM, "out of memory");
	m->unit = "";
	m->desc = "";
	m->group = m->model = m->source = "";
	p.m = m;
	p.s = eq ? eq + 1 : def;
	p.off = (size_t)(p.s - def);
	m->name = eq ? trim_dup(def, (size_t)(eq - def)) : trim_dup(def, strlen(def));
	m->expr = trim_dup(p.s, strlen(p.s));
	if (!m->name || !m->expr) {
		metric_free(m);
		return fail(-ENOMEM, "out of memory");
	}
	if (eq && !m->name[0]) {
		metric_free(m);
		return fail(-HWP_ERR_SYNTAX, "metric '%s': the name before '=' is empty",
			    def);
	}
	root = parse_expr(&p);
	if (root >= 0) {
		skip_ws(&p);
		if (p.s[p.pos])
			root = msyntax(&p, p.pos, p.s[p.pos] == ')' ? "unbalanced ')'"
								     : "expected an operator");
	}
	if (root < 0) {
		metric_free(m);
		return root;
	}
	m->root = root;
	shrink_nodes(m);
	*out = m;
	return 0;
}

HWP_API int hwp_metric_parse(const char *def, struct hwp_metric **out)
{
	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_metric_parse: out is NULL");
	*out = NULL;
	if (!def)
		return fail(-EINVAL, "hwp_metric_parse: definition is NULL");
	return metric_parse(def, out);
}

HWP_API void hwp_metric_free(struct hwp_metric *m)
{
	if (m && !m->builtin)
		metric_free(m);
}

HWP_API const char *hwp_metric_name(const struct hwp_metric *m)
{
	return m ? m->name : "";
}

const char *metric_expr(const struct hwp_metric *m)
{
	return m ? m->expr : "";
}

const char *metric_unit(const struct hwp_metric *m)
{
	return m ? m->unit : "";
}

const char *metric_desc(const struct hwp_metric *m)
{
	return m ? m->desc : "";
}

HWP_API int hwp_metric_info(const struct hwp_metric *m, struct hwp_metric_info *info)
{
	struct hwp_metric_info i = { .sz = sizeof(i) };

	clear_error();
	if (!m || !info)
		return fail(-EINVAL, "hwp_metric_info: NULL argument");
	i.name = m->name;
	i.expr = m->expr;
	i.unit = m->unit;
	i.desc = m->desc;
	i.group = m->group;
	i.model = m->model;
	i.source = m->source;
	i.builtin = m->builtin;
	return info_fill(info, &i, sizeof(i));
}

struct hwp_metric *metric_new_static(const struct metric_def *d)
{
	struct hwp_metric *m;
	char *def;

	if (asprintf(&def, "%s=%s", d->name, d->expr) < 0)
		return NULL;
	if (metric_parse(def, &m))
		m = NULL;
	free(def);
	if (!m)
		return NULL;
	m->builtin = true;
	m->unit = d->unit;
	m->desc = d->desc;
	m->group = d->group;
	m->model = d->model;
	m->source = d->source;
	return m;
}

static pthread_mutex_t statics_lock = PTHREAD_MUTEX_INITIALIZER;

const struct hwp_metric *metric_static_once(struct hwp_metric **slot,
					    const struct metric_def *d,
					    metric_make_fn make)
{
	struct hwp_metric *m = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (m)
		return m;
	pthread_mutex_lock(&statics_lock);
	m = *slot;
	if (!m) {
		m = make(d);
		__atomic_store_n(slot, m, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&statics_lock);
	return m;
}

struct eval {
	const struct hwp_metric *m;
	hwp_value_fn lookup;
	void *ctx;
};

static int eval_node(const struct eval *ev, int id, double *out)
{
	const struct node *n = &ev->m->nodes[id];
	double a, b;
	int err;

	switch (n->op) {
	case OP_NUM:
		*out = n->num;
		return 0;
	case OP_NAME:
		err = ev->lookup(n->name, out, ev->ctx);
		if (err == -ENOENT)
			return fail(-HWP_ERR_UNKNOWN_NAME,
				    "metric '%s': '%s' is not an event of the list%s",
				    ev->m->name, n->name,
				    strchr(n->name, '-') ?
				    " (write 'a - b', with spaces, to subtract)" : "");
		if (err == -EOPNOTSUPP) {
			char why[512];	/* the lookup's reason, before fail() */

			snprintf(why, sizeof(why), "%s", hwp_errmsg());
			return fail(-HWP_ERR_UNDEFINED,
				    "metric '%s': '%s' is not supported here: %s",
				    ev->m->name, n->name, why);
		}
		if (err)
			return fail(-HWP_ERR_UNDEFINED,
				    "metric '%s': '%s' was not counted",
				    ev->m->name, n->name);
		if (isnan(*out))
			return fail(-HWP_ERR_UNDEFINED, "metric '%s': '%s' has no value",
					ev->m->name, n->name);
		return 0;
	case OP_NEG:
		err = eval_node(ev, n->left, &a);
		*out = -a;
		return err;
	default:
		break;
	}
	err = eval_node(ev, n->left, &a);
	if (err)
		return err;
	err = eval_node(ev, n->right, &b);
	if (err)
		return err;
	switch (n->op) {
	case OP_ADD:
		*out = a + b;
		break;
	case OP_SUB:
		*out = a - b;
		break;
	case OP_MUL:
		*out = a * b;
		break;
	case OP_MAX:
	case OP_MIN:
		*out = (n->op == OP_MAX) == (a > b) ? a : b;
		break;
	default:
		if (b == 0)
			return fail(-HWP_ERR_UNDEFINED, "metric '%s': division by zero",
					ev->m->name);
		*out = a / b;
		break;
	}
	if (!isfinite(*out))
		return fail(-HWP_ERR_UNDEFINED, "metric '%s': the result overflows",
				ev->m->name);
	return 0;
}

HWP_API int hwp_metric_eval(const struct hwp_metric *m, hwp_value_fn lookup, void *ctx,
			    double *value)
{
	struct eval ev = { m, lookup, ctx };
	double v = NAN;
	int err;

	if (!m || !lookup || !value)
		return fail(-EINVAL, "hwp_metric_eval: NULL argument");
	err = eval_node(&ev, m->root, &v);
	*value = err ? NAN : v;
	return err;
}

int metric_foreach_input(const struct hwp_metric *m,
			     int (*fn)(const char *name, void *ctx), void *ctx)
{
	for (size_t i = 0; i < m->nr_nodes; i++) {
		int ret;

		if (m->nodes[i].op != OP_NAME || !strcmp(m->nodes[i].name, "seconds"))
			continue;
		ret = fn(m->nodes[i].name, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- built-in metrics ---- */

/* perf stat's own: the metric it prints after '#' on an event's line. */
static const struct metric_beside cpus_utilized = {
	"task-clock", "CPUs utilized", 3, false
};
static const struct metric_beside per_sec_cs = { "context-switches", "/sec", 3, true };
static const struct metric_beside per_sec_faults = { "page-faults", "/sec", 3, true };
static const struct metric_beside per_sec_migrations = {
	"cpu-migrations", "/sec", 3, true
};
static const struct metric_beside insn_per_cycle = {
	"instructions", "insn per cycle", 2, false
};
static const struct metric_beside of_cache_refs = {
	"cache-misses", "of all cache refs", 3, false
};
static const struct metric_beside of_branches = {
	"branch-misses", "of all branches", 2, false
};

static const struct {
	const char *def;
	const char *unit;
	const char *desc;
	const struct metric_beside *beside;
} builtin_defs[] = {
	{ "LLC-misses/migration=cache-misses / cpu-migrations", "",
	  "LLC misses per CPU migration: cancels the noise of threads moving between CPUs",
	  NULL },
	{ "IPC=instructions / cycles", "insn/cycle", "Instructions per cycle",
	  &insn_per_cycle },
	{ "LLC-MPKI=cache-misses * 1000 / instructions", "misses/kinsn",
	  "LLC misses per thousand instructions", NULL },
	{ "CPUs-utilized=task-clock / (seconds * 1e9)", "CPUs",
	  "Task time over wall time: how many CPUs were busy", &cpus_utilized },
	/* Per second of task-clock (CPU time), as perf's K/sec: not per
	 * second of wall time. */
	{ "migrations/sec=cpu-migrations * 1e9 / task-clock", "/sec",
	  "CPU migrations per second of task-clock, as perf stat's /sec",
	  &per_sec_migrations },
	{ "cs/sec=context-switches * 1e9 / task-clock", "/sec",
	  "Context switches per second of task-clock, as perf stat's /sec", &per_sec_cs },
	{ "faults/sec=page-faults * 1e9 / task-clock", "/sec",
	  "Page faults per second of task-clock, as perf stat's /sec", &per_sec_faults },
	{ "cache-miss-rate=100 * cache-misses / cache-references", "%",
	  "LLC misses per LLC access", &of_cache_refs },
	{ "branch-miss-rate=100 * branch-misses / branches", "%",
	  "Mispredicted branches per branch", &of_branches },
	{ "effective-GHz=msr@aperf@ / task-clock", "GHz",
	  "Cycles at the actual frequency (aperf) per nanosecond on a CPU", NULL },
	{ "aperf/mperf=100 * msr@aperf@ / msr@mperf@", "%",
	  "Actual frequency over the nominal one while not halted", NULL },
	{ "tsc-GHz=msr@tsc@ / task-clock", "GHz",
	  "Time-stamp counter ticks per nanosecond on a CPU: the nominal frequency",
	  NULL },
	{ "core-C1-residency=100 * cstate_core@c1-residency@ / msr@tsc@", "%",
	  "Time the cores spent in C1 (with -a)", NULL },
	{ "core-C3-residency=100 * cstate_core@c3-residency@ / msr@tsc@", "%",
	  "Time the cores spent in C3 (with -a)", NULL },
	{ "core-C6-residency=100 * cstate_core@c6-residency@ / msr@tsc@", "%",
	  "Time the cores spent in C6 (with -a)", NULL },
	{ "core-C7-residency=100 * cstate_core@c7-residency@ / msr@tsc@", "%",
	  "Time the cores spent in C7 (with -a)", NULL },
	{ "pkg-C2-residency=100 * cstate_pkg@c2-residency@ / msr@tsc@", "%",
	  "Time the packages spent in C2 (with -a)", NULL },
	{ "pkg-C3-residency=100 * cstate_pkg@c3-residency@ / msr@tsc@", "%",
	  "Time the packages spent in C3 (with -a)", NULL },
	{ "pkg-C6-residency=100 * cstate_pkg@c6-residency@ / msr@tsc@", "%",
	  "Time the packages spent in C6 (with -a)", NULL },
};

/* Each parsed at its first use, not all at the first (a 'stat -- true' on a
 * machine without PMU reads four of them): published with release order,
 * so that a thread that sees the pointer sees the parse. */
static struct hwp_metric *builtins[ARRAY_SIZE(builtin_defs)];
static pthread_mutex_t builtins_lock = PTHREAD_MUTEX_INITIALIZER;

static struct hwp_metric *builtin_parse(size_t idx)
{
	struct hwp_metric *m;

	pthread_mutex_lock(&builtins_lock);
	m = builtins[idx];
	if (!m && !metric_parse(builtin_defs[idx].def, &m)) {
		m->builtin = true;
		m->unit = builtin_defs[idx].unit;
		m->desc = builtin_defs[idx].desc;
		m->beside = builtin_defs[idx].beside;
		__atomic_store_n(&builtins[idx], m, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&builtins_lock);
	return m;	/* NULL: out of memory; their parse cannot fail otherwise */
}

HWP_API const struct hwp_metric *hwp_metric_builtin(size_t idx)
{
	struct hwp_metric *m;

	if (idx >= ARRAY_SIZE(builtins))
		return NULL;
	m = __atomic_load_n(&builtins[idx], __ATOMIC_ACQUIRE);
	return m ? m : builtin_parse(idx);
}

size_t metric_nr_builtins(void)
{
	return ARRAY_SIZE(builtin_defs);
}

size_t metric_builtins_parsed(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
		n += __atomic_load_n(&builtins[i], __ATOMIC_ACQUIRE) != NULL;
	return n;
}

/* The names of a formula's text, as parse_primary() reads them: a number
 * (1e9) is skipped whole, so that its exponent is not a name (a built-in's
 * numbers are digits, '.' and an exponent; no strtod() needed). */
int metric_builtin_foreach_input(size_t idx, int (*fn)(const char *name, void *ctx),
				 void *ctx)
{
	const char *s = strchr(builtin_defs[idx].def, '=') + 1;
	char name[64];

	for (size_t i = 0, start; s[i];) {
		int ret;

		if (isdigit((unsigned char)s[i]) || s[i] == '.') {
			while (isalnum((unsigned char)s[i]) || s[i] == '.')
				i++;
			continue;
		}
		if (!isalpha((unsigned char)s[i]) && s[i] != '_') {
			i++;
			continue;
		}
		for (start = i; name_char(s, i); i++)
			;
		if (i - start >= sizeof(name))
			return -ENAMETOOLONG;	/* none is; the tests read them all */
		memcpy(name, s + start, i - start);
		name[i - start] = '\0';
		ret = strcmp(name, "seconds") ? fn(name, ctx) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

bool metric_is_builtin(const struct hwp_metric *m)
{
	return m && m->builtin;
}

const struct metric_beside *metric_beside(const struct hwp_metric *m)
{
	return m ? m->beside : NULL;
}

HWP_API const char *hwpriv_metric_input(const struct hwp_metric *m, size_t idx)
{
	for (size_t i = 0; m && i < m->nr_nodes; i++) {
		const struct node *n = &m->nodes[i];
		bool seen = false;

		if (n->op != OP_NAME || !strcmp(n->name, "seconds"))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = m->nodes[j].op == OP_NAME &&
			       !strcmp(m->nodes[j].name, n->name);
		if (!seen && idx-- == 0)
			return n->name;
	}
	return NULL;
}
