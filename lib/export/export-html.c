// SPDX-License-Identifier: MIT
/* A flame graph in one self-contained HTML page: flamegraph.html with its
 * script and styles, embedded at build time (flamegraph-page.c), around the
 * profile as JSON in a <script type="application/json"> element. The
 * chains of each event are merged into a call tree here, and frames under
 * HTML_MIN_SHARE of the event's period are left out of the page, counted,
 * so that a profile of many distinct stacks gives a page a browser opens.
 * The page's data (its script reads it):
 *
 *   { "input", "host", "min_share", "note",
 *     "events": [{ "event", "unit", "samples", "period", "callchains",
 *                  "hidden_frames", "hidden_period",
 *                  "funcs": [[name, file or null, line, period, samples]],
 *                  "nodes": [func, period, samples, n, ...] }] }
 *
 * "funcs" are the functions of the frames shown; their period and samples
 * are those of the stacks that hold them, each stack counted once however
 * often the function recurses in it. "nodes" is the call tree in preorder,
 * four numbers a node: its function (-1 for the root, -2 for the frames
 * hidden under a node, which comes last among its children), its period
 * and samples (its stacks', as the widths and tooltips show them), and n:
 * its children (for the hidden, how many frames they are). Children come
 * heaviest first. The first event is the profile's, the others follow in
 * the file's order. */
#include "export/export.h"
#include "util/hash.h"
#include "util/json-writer.h"

#include <stdlib.h>
#include <string.h>

/* Frames narrower than this share of the event's period are hidden. */
#define HTML_MIN_SHARE 0.001

struct fg_node {
	uint32_t func;		/* unused for the root, node 0 */
	uint32_t parent;
	uint64_t period, samples;
};

struct fg_func {
	uint64_t period, samples;	/* of the stacks that hold it */
	size_t last_chain;	/* the chain that counted it last, + 1 */
	long shown;		/* its number in the page, or -1 */
};

struct fg_tree {
	struct fg_node *nodes;
	size_t nr, cap;
	struct hidx idx;	/* (parent, func) to node */
	struct fg_func *funcs;
	size_t nr_funcs, cap_funcs;
	size_t chains;
	/* after the walk: the children of node i are child[first[i]..first[i+1]) */
	uint32_t *first, *child;
	const struct profile_function *names;
	uint64_t total;		/* the event's period */
	/* the functions of the page, in the order they were numbered */
	uint32_t *shown;
	size_t nr_shown;
	size_t hidden_frames;
	uint64_t hidden_period;
};

static void tree_release(struct fg_tree *t)
{
	hidx_release(&t->idx);
	free(t->nodes);
	free(t->funcs);
	free(t->first);
	free(t->child);
	free(t->shown);
}

static bool node_eq(size_t idx, const void *key, const void *ctx)
{
	const struct fg_tree *t = ctx;
	const struct fg_node *k = key;

	return t->nodes[idx].parent == k->parent && t->nodes[idx].func == k->func;
}

static long tree_child(struct fg_tree *t, uint32_t parent, uint32_t func)
{
	struct fg_node k = { .func = func, .parent = parent };
	uint64_t h = hash_mix(hash_u64(parent), func);
	long i = hidx_find(&t->idx, h, node_eq, &k, t);

	if (i >= 0)
		return i;
	if (t->nr >= UINT32_MAX - 1 ||
	    vec_reserve(&t->nodes, &t->cap, t->nr + 1, sizeof(*t->nodes)) ||
	    hidx_add(&t->idx, h, t->nr))
		return -ENOMEM;
	t->nodes[t->nr] = k;
	return (long)t->nr++;
}

/* Once per stack, however often it recurses there. */
static int count_func(struct fg_tree *t, uint32_t f, uint64_t samples, uint64_t period)
{
	if (f >= t->nr_funcs) {
		size_t want = (size_t)f + 1;

		if (vec_reserve(&t->funcs, &t->cap_funcs, want, sizeof(*t->funcs)))
			return -ENOMEM;
		for (size_t i = t->nr_funcs; i <= f; i++)
			t->funcs[i] = (struct fg_func){ .shown = -1 };
		t->nr_funcs = want;
	}
	if (t->funcs[f].last_chain == t->chains)
		return 0;
	t->funcs[f].last_chain = t->chains;
	t->funcs[f].period += period;
	t->funcs[f].samples += samples;
	return 0;
}

static int add_chain(const uint32_t *funcs, size_t nr, uint64_t samples, uint64_t period,
		     void *arg)
{
	struct fg_tree *t = arg;
	uint32_t at = 0;

	t->chains++;
	t->nodes[0].period += period;
	t->nodes[0].samples += samples;
	for (size_t i = 0; i < nr; i++) {
		long c = tree_child(t, at, funcs[i]);

		if (c < 0 || count_func(t, funcs[i], samples, period))
			return -ENOMEM;
		at = (uint32_t)c;
		t->nodes[at].period += period;
		t->nodes[at].samples += samples;
	}
	return 0;
}

static int heaviest_first(const void *a, const void *b, void *arg)
{
	const struct fg_tree *t = arg;
	const struct fg_node *x = &t->nodes[*(const uint32_t *)a];
	const struct fg_node *y = &t->nodes[*(const uint32_t *)b];

	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	return strcmp(t->names[x->func].name, t->names[y->func].name);
}

/* Each node's children, heaviest first (ties by name, for a stable page). */
static int link_children(struct fg_tree *t)
{
	size_t n = t->nr;

	t->first = calloc(n + 1, sizeof(*t->first));
	t->child = malloc(n * sizeof(*t->child));
	t->shown = malloc((t->nr_funcs ? t->nr_funcs : 1) * sizeof(*t->shown));
	if (!t->first || !t->child || !t->shown)
		return -ENOMEM;
	/* Counted into first[parent + 1], summed, then each child put at
	 * first[parent]++, which leaves first[] shifted by one place. */
	for (size_t i = 1; i < n; i++)
		t->first[t->nodes[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		t->first[i + 1] += t->first[i];
	for (size_t i = 1; i < n; i++)
		t->child[t->first[t->nodes[i].parent]++] = (uint32_t)i;
	memmove(t->first + 1, t->first, n * sizeof(*t->first));
	t->first[0] = 0;
	for (size_t i = 0; i < n; i++)
		if (t->first[i + 1] - t->first[i] > 1)
			qsort_r(t->child + t->first[i], t->first[i + 1] - t->first[i],
				sizeof(*t->child), heaviest_first, t);
	return 0;
}

static bool shown(const struct fg_tree *t, uint32_t node)
{
	return (double)t->nodes[node].period >= HTML_MIN_SHARE * (double)t->total;
}

static size_t subtree_size(const struct fg_tree *t, uint32_t node)
{
	size_t n = 1;

	for (uint32_t i = t->first[node]; i < t->first[node + 1]; i++)
		n += subtree_size(t, t->child[i]);
	return n;
}

static void put_node(struct json_writer *w, long func, uint64_t period, uint64_t samples,
		     size_t n)
{
	jw_int(w, func);
	jw_uint(w, period);
	jw_uint(w, samples);
	jw_uint(w, n);
}

static long shown_func(struct fg_tree *t, uint32_t func)
{
	if (t->funcs[func].shown < 0) {
		t->shown[t->nr_shown] = func;
		t->funcs[func].shown = (long)t->nr_shown++;
	}
	return t->funcs[func].shown;
}

/* Node @node and what is shown under it, in preorder. Recursive: a tree is
 * as deep as a call chain, PROFILE_MAX_FRAMES at most. */
static void put_subtree(struct json_writer *w, struct fg_tree *t, uint32_t node)
{
	uint32_t from = t->first[node], to = t->first[node + 1], end = from;
	uint64_t hidden_period = 0, hidden_samples = 0;
	size_t hidden = 0;

	while (end < to && shown(t, t->child[end]))
		end++;
	for (uint32_t i = end; i < to; i++) {
		hidden += subtree_size(t, t->child[i]);
		hidden_period += t->nodes[t->child[i]].period;
		hidden_samples += t->nodes[t->child[i]].samples;
	}
	put_node(w, node ? shown_func(t, t->nodes[node].func) : -1, t->nodes[node].period,
		 t->nodes[node].samples, end - from + (hidden > 0));
	for (uint32_t i = from; i < end; i++)
		put_subtree(w, t, t->child[i]);
	if (hidden)
		put_node(w, -2, hidden_period, hidden_samples, hidden);
	t->hidden_frames += hidden;
	t->hidden_period += hidden_period;
}

static void put_funcs(struct json_writer *w, const struct fg_tree *t)
{
	jw_key(w, "funcs");
	jw_array_begin(w, false);
	for (size_t i = 0; i < t->nr_shown; i++) {
		const struct profile_function *pf = &t->names[t->shown[i]];
		const struct fg_func *f = &t->funcs[t->shown[i]];

		jw_array_begin(w, true);
		jw_string(w, pf->name);
		jw_string(w, pf->file);
		jw_uint(w, pf->line);
		jw_uint(w, f->period);
		jw_uint(w, f->samples);
		jw_array_end(w);
	}
	jw_array_end(w);
}

/* One event's object: its totals, its call tree and its functions. */
static int put_event(struct json_writer *w, struct hwp_profile *p)
{
	struct hwp_profile_info info = { .sz = sizeof(info) };
	struct profile_function *names = NULL;
	struct fg_tree t = { 0 };
	size_t nr_names = 0;
	int err = hwp_profile_info(p, &info);

	if (err)
		return err;
	if (vec_reserve(&t.nodes, &t.cap, 1, sizeof(*t.nodes))) {
		err = -ENOMEM;
		goto out;
	}
	t.nodes[t.nr++] = (struct fg_node){ 0 };
	err = profile_foreach_chain(p, add_chain, &t, &names, &nr_names);
	t.names = names;
	t.total = t.nodes[0].period;
	if (!err)
		err = link_children(&t);
	if (err)
		goto out;
	jw_object_begin(w);
	jw_kv_string(w, "event", info.event);
	jw_kv_string(w, "unit", event_in_ns(p, info.event) ? "nanoseconds" : "events");
	jw_kv_uint(w, "samples", info.samples);
	jw_kv_uint(w, "period", info.period);
	jw_key(w, "callchains");
	jw_bool(w, info.callchains);
	jw_key(w, "nodes");
	jw_array_begin(w, true);
	put_subtree(w, &t, 0);
	jw_array_end(w);
	jw_kv_uint(w, "hidden_frames", t.hidden_frames);
	jw_kv_uint(w, "hidden_period", t.hidden_period);
	put_funcs(w, &t);
	jw_object_end(w);
out:
	tree_release(&t);
	free(names);
	return err == -ENOMEM ? fail(-ENOMEM, "out of memory") : err;
}

static bool seen_before(const struct hwp_profile *p, size_t idx, const char *first)
{
	const char *name = profile_event_name(p, idx);

	if (!strcmp(name, first))
		return true;
	for (size_t i = 0; i < idx; i++)
		if (!strcmp(profile_event_name(p, i), name))
			return true;
	return false;
}

/* The file's other events, each read again: their frames are not in @p. A
 * recording in memory cannot be read again: the page says so instead. */
static int put_other_events(struct json_writer *w, struct hwp_profile *p,
			    const struct hwp_profile_info *info, const char **note)
{
	int err = 0;

	for (size_t i = 0; i < info->nr_events && !err; i++) {
		struct hwp_profile *other;

		if (seen_before(p, i, info->event))
			continue;
		err = profile_open_event(p, i, &other);
		if (err == -EOPNOTSUPP) {
			*note = "The recording's other events are not shown: it was read from memory, once.";
			return 0;
		}
		if (!err)
			err = put_event(w, other);
		hwp_profile_free(other);
	}
	return err;
}

static void put_lines(FILE *f, const char *const *lines)
{
	for (; *lines; lines++)
		fputs(*lines, f);
}

int export_html(struct hwp_profile *p, FILE *f)
{
	struct hwp_profile_info info = { .sz = sizeof(info) };
	struct json_writer w;
	const char *note = NULL;
	int err = hwp_profile_info(p, &info);

	if (err)
		return err;
	put_lines(f, flamegraph_page_head);
	jw_init(&w, f, false);
	w.html = true;
	jw_object_begin(&w);
	jw_kv_string(&w, "input", info.input);
	jw_kv_string(&w, "host", info.hostname);
	jw_key(&w, "min_share");
	jw_number(&w, HTML_MIN_SHARE);
	jw_key(&w, "events");
	jw_array_begin(&w, false);
	err = put_event(&w, p);
	if (!err)
		err = put_other_events(&w, p, &info, &note);
	jw_array_end(&w);
	jw_kv_string(&w, "note", note);
	jw_object_end(&w);
	jw_finish(&w);
	put_lines(f, flamegraph_page_tail);
	return err;
}
