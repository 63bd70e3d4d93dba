// SPDX-License-Identifier: MIT
/* hwprof stat's runs: the command started and counted, each interval of
 * -I written, the counts of a run added to the result. */
#include "stat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Everything one run holds; released by run_release(). */
struct run {
	struct stat_ctx *sc;
	struct cli_watch watch;	/* the command, or the process of -p */
	struct hwp_session *s;	/* closed when nothing could be counted */
	bool uncounted;		/* no event opened: the command runs all the same */
	struct hwp_count *counts;	/* nr_units * the events */
	struct hwp_count *prev;	/* what counts start from: 0, or --skip-first's */
	size_t nr_units;	/* in counts and prev: they grow with the units */
	struct hwp_count *total;	/* -I of OpenMetrics: the sum of the intervals */
	double t_start;
	double t_last;		/* the end of the last interval printed */
	double t_next;		/* the next interval's end; INFINITY without -I */
	double t_skip;		/* --skip-first's end; 0 once passed */
};

static void run_release(struct run *r)
{
	hwp_session_free(r->s);
	cli_watch_release(&r->watch);
	free(r->counts);
	free(r->prev);
	free(r->total);
}

bool stat_stopped(void)
{
	return cli_stop_count != 0;
}

/* What @r measured: the command @argv, or the target of -p, -a or -C. */
static int result_label(struct stat_ctx *sc, char **argv, struct hwp_result *r)
{
	const struct cli_target *t = &sc->cfg->target;
	char target[256];
	int err = 0;

	if (argv)
		err = hwp_result_set_command(r, argv);
	if (err || cli_target_command_only(t))
		return err;
	if (t->pid)
		snprintf(target, sizeof(target), "process id %d", (int)t->pid);
	else if (t->cpus)
		snprintf(target, sizeof(target), "CPUs %s", t->cpus);
	else
		snprintf(target, sizeof(target), "system wide");
	return hwpriv_result_set_target(r, target);
}

/* Room for @nr units in counts and prev; the new ones start from 0. */
static int grow_units(struct run *r, size_t nr, size_t n)
{
	struct hwp_count *c, *p;

	if (nr <= r->nr_units)
		return 0;
	c = realloc(r->counts, nr * n * sizeof(*c));
	if (c)
		r->counts = c;
	p = c ? realloc(r->prev, nr * n * sizeof(*p)) : NULL;
	if (!p)
		return -ENOMEM;
	r->prev = p;
	memset(&p[r->nr_units * n], 0, (nr - r->nr_units) * n * sizeof(*p));
	r->nr_units = nr;
	return 0;
}

/* Read every event of every unit, and what it counted since r->prev,
 * which moves on: *@delta (malloc'ed) of *@nr_units units. */
static int read_delta(struct run *r, struct hwp_count **delta, size_t *nr_units)
{
	size_t n = hwp_session_nr_events(r->s), units = 1;
	int err;

	*delta = NULL;
	*nr_units = 0;
	if (r->uncounted) {
		*delta = calloc(n, sizeof(**delta));
		*nr_units = 1;
		return *delta ? 0 : -ENOMEM;
	}
	/* Threads that exited since add units: room for them, and again. */
	do {
		units = hwp_session_nr_units(r->s);
		err = grow_units(r, units, n) ?:
		      hwp_session_read_units(r->s, r->counts, r->nr_units * n);
	} while (err == -ENOSPC);
	if (err)
		return err;
	units = hwp_session_nr_units(r->s);
	*delta = calloc(units * n, sizeof(**delta));
	if (!*delta)
		return -ENOMEM;
	for (size_t i = 0; i < units * n; i++) {
		const struct hwp_count *c = &r->counts[i], *p = &r->prev[i];

		(*delta)[i].value = c->value - p->value;
		(*delta)[i].time_enabled = c->time_enabled - p->time_enabled;
		(*delta)[i].time_running = c->time_running - p->time_running;
	}
	memcpy(r->prev, r->counts, units * n * sizeof(**delta));
	*nr_units = units;
	return 0;
}

/* The run's counts into @res: unit by unit when the session has units. */
static int add_run(struct hwp_result *res, const struct run *r,
		   const struct hwp_count *delta, size_t nr_units, double seconds)
{
	if (r->uncounted)
		return hwp_result_add_run(res, r->s, delta, seconds);
	return hwpriv_result_add_run_units(res, r->s, delta, nr_units, seconds);
}

static int print_interval(struct stat_ctx *sc, struct run *r, double t, double dt)
{
	size_t n = hwp_session_nr_events(r->s), nr_units;
	struct hwp_count *delta;
	struct hwp_result *res = NULL;
	struct hwp_write_opts o = sc->wopts;
	int err;

	err = read_delta(r, &delta, &nr_units);
	if (err)
		goto out;
	/* OpenMetrics counters are totals, which a scrape takes the rate of. */
	if (r->total) {
		for (size_t i = 0; i < n; i++) {
			r->total[i].value += delta[i].value;
			r->total[i].time_enabled += delta[i].time_enabled;
			r->total[i].time_running += delta[i].time_running;
		}
		memcpy(delta, r->total, n * sizeof(*delta));
		dt = t;
	}
	err = hwp_result_new(&res);
	for (size_t i = 0; !err && i < sc->cfg->nr_metrics; i++)
		err = hwp_result_add_metric(res, sc->metrics[i]);
	if (!err)
		err = result_label(sc, sc->run_argv, res);
	if (!err)
		err = add_run(res, r, delta, nr_units, dt);
	o.interval = t;
	o.no_header = sc->interval_header_done;
	if (!err)
		err = interval_write(sc, res, &o);
	sc->interval_header_done = true;
	sc->wrote |= !err;
out:
	hwp_result_free(res);
	free(delta);
	return err;
}

/* When the wait must wake at the latest: an interval's end, or --skip-first's. */
static double next_timer(void *arg)
{
	const struct run *r = arg;

	return r->t_skip && r->t_skip < r->t_next ? r->t_skip : r->t_next;
}

/* At each wake of the wait: print an interval that has ended, or start
 * counting over after --skip-first. An interval that ends within the
 * skipped seconds is not printed; counting starts over when they end. */
static int on_wake(void *arg)
{
	struct run *r = arg;
	struct stat_ctx *sc = r->sc;
	double t = cli_now();
	int err = 0;

	if (hwp_workload_output_fd(r->watch.wl) >= 0)
		err = score_drain(sc, hwp_workload_output_fd(r->watch.wl));
	if (!err && sc->cfg->interval_ms && t >= r->t_next) {
		if (!r->t_skip)
			err = print_interval(sc, r, t - r->t_start, t - r->t_last);
		r->t_last = t;
		r->t_next += sc->cfg->interval_ms / 1000.0;
	}
	if (!err && r->t_skip && t >= r->t_skip) {
		struct hwp_count *skipped;
		size_t nr_units;

		err = read_delta(r, &skipped, &nr_units);
		free(skipped);
		r->t_last = t;
		r->t_skip = 0;
	}
	if (!err)
		return 0;
	cli_lib_error("stat", err);
	return CLI_EXIT_FAILURE;
}

static int open_session(struct stat_ctx *sc, struct run *r)
{
	struct cli_scope t = cli_watch_scope(&r->watch);
	HWP_OPTS(hwp_session_opts, so, .scope = t.scope, .pid = t.pid, .cpus = t.cpus,
		 .enable_on_exec = t.enable_on_exec, .no_inherit = sc->cfg->no_inherit,
		 .aggr = sc->cfg->aggr, .cgroup = sc->cfg->cgroup);

	return hwp_session_new(sc->evl, &so, &r->s) ?: hwp_session_open(r->s);
}

/* Start the command (if any) and the counters of one run. */
static int start_run(struct stat_ctx *sc, struct run *r)
{
	struct stat_config *c = sc->cfg;
	size_t n;
	int ret, err;

	ret = score_begin_run(sc) ?:
	      cli_watch_prepare(&r->watch, &c->target, sc->run_argv, "stat");
	if (ret)
		return ret;
	err = open_session(sc, r);
	if (err == -HWP_ERR_NOTHING_COUNTED && !c->strict) {
		/* As perf does: the work a wrapper wraps is never skipped. */
		if (!sc->warned_uncounted)
			cli_warn("stat", "none of the events can be counted here: the command runs all the same, and each event says why (--strict: fail instead)");
		sc->warned_uncounted = true;
		r->uncounted = true;
	} else if (err) {
		cli_lib_error("stat", err);
		return cli_exit_for(err);
	}
	n = hwp_session_nr_events(r->s);
	if (c->interval_ms && exposition(c->format))
		r->total = calloc(n, sizeof(*r->total));
	if (grow_units(r, 1, n) ||
	    (c->interval_ms && exposition(c->format) && !r->total))
		return cli_lib_error("stat", -ENOMEM);
	/* A command counted from its exec enables itself; the rest we enable. */
	if (!r->uncounted && !cli_watch_self_enabled(&r->watch) &&
	    (err = hwp_session_enable(r->s)))
		return cli_lib_error("stat", err);
	r->t_start = r->t_last = cli_now();
	r->t_next = c->interval_ms ? r->t_start + c->interval_ms / 1000.0 : INFINITY;
	r->t_skip = c->skip_first ? r->t_start + c->skip_first : 0;
	return cli_watch_start(&r->watch);
}

/* What the run counted, after its end: the last partial interval with -I
 * (what it counted is not dropped), else the run added to the result. */
static int finish_run(struct stat_ctx *sc, struct run *r, double seconds, bool keep)
{
	struct hwp_count *delta;
	double t = cli_now(), *scores;
	size_t nr_units;
	int err, ret;

	if (r->t_skip) {
		cli_error("stat", "the run ended after %.3f s, within --skip-first %g s: nothing was counted",
			  t - r->t_start, sc->cfg->skip_first);
		return CLI_EXIT_FAILURE;
	}
	if (sc->cfg->interval_ms) {
		err = print_interval(sc, r, t - r->t_start, t - r->t_last);
		return err ? cli_lib_error("stat", err) : 0;
	}
	scores = calloc(sc->nr_scores + 1, sizeof(*scores));
	if (!scores)
		return cli_lib_error("stat", -ENOMEM);
	err = read_delta(r, &delta, &nr_units);
	/* Against the command's whole CPU time: not with part left out. */
	if (!err && !r->uncounted && !sc->cfg->no_inherit && !sc->cfg->skip_first)
		cli_watch_detached(&r->watch, delta, hwp_session_nr_events(r->s),
				   nr_units);
	/* A warm-up run's output is shown, not scored. */
	ret = keep && !err ? score_end_run(sc, scores) : 0;
	/* The rates divide by the time counted, without the skipped seconds;
	 * scores are the whole run's (-A, --per-* are refused with them). */
	if (!err && !ret && keep && sc->nr_scores)
		err = hwpriv_result_add_scored_run(sc->result, r->s, delta,
						seconds - sc->cfg->skip_first, scores,
						sc->nr_scores);
	else if (!err && !ret && keep)
		err = add_run(sc->result, r, delta, nr_units,
			      seconds - sc->cfg->skip_first);
	free(delta);
	free(scores);
	return err ? cli_lib_error("stat", err) : ret;
}

/* The first run failed after all (first_failed()): the result, which holds
 * it alone, starts over for this run. */
static int drop_first_run(struct stat_ctx *sc)
{
	struct hwp_result *fresh;
	int ret;

	sc->check->drop_first = false;
	ret = stat_new_result(sc, sc->run_argv, &fresh);
	if (ret)
		return ret;
	hwp_result_free(sc->result);
	sc->result = fresh;
	return 0;
}

/* One run; a warm-up run is not kept, nor a failed one. *code gets the
 * command's exit status (0 without a command). */
int stat_one_run(struct stat_ctx *sc, bool keep, int *code)
{
	struct run r = { .sc = sc, .watch = { .pidfd = -1 } };
	struct cli_wait_ops intervals = {
		.next = next_timer,
		.work = on_wake,
		.ctx = &r,
	};
	double seconds, user, system;
	size_t runs;
	int ret, command_code, err;

	ret = start_run(sc, &r);
	if (ret)
		goto out;
	/* The output --score reads wakes the wait: a full pipe would stop the
	 * command. */
	intervals.fd = hwp_workload_output_fd(r.watch.wl);
	ret = cli_watch_wait(&r.watch, &intervals);
	if (!r.uncounted && !cli_watch_self_enabled(&r.watch))
		hwp_session_disable(r.s);
	seconds = cli_now() - r.t_start;
	cli_watch_reap(&r.watch, &command_code);
	/* What the command wrote before it ended; not what a child it left
	 * behind writes later. */
	if (!ret && hwp_workload_output_fd(r.watch.wl) >= 0 &&
	    (err = score_drain(sc, hwp_workload_output_fd(r.watch.wl))))
		ret = cli_lib_error("stat", err);
	if (r.watch.wl && !sc->cfg->target.pid)
		seconds = hwp_workload_elapsed(r.watch.wl);
	if (ret)
		goto out;
	if (r.watch.wl && stat_run_failed(sc, r.watch.status, keep))
		keep = false;
	if (sc->check && sc->check->drop_first && (ret = drop_first_run(sc)))
		goto out;
	runs = keep && sc->result ? hwp_result_nr_runs(sc->result) : 0;
	ret = finish_run(sc, &r, seconds, keep);
	/* The command's CPU time, when the run was kept: rows compare tests. */
	if (!ret && keep && sc->result && hwp_result_nr_runs(sc->result) > runs &&
	    !cli_watch_cpu_times(&r.watch, &user, &system) &&
	    (err = hwp_result_set_run_times(sc->result, user, system)))
		ret = cli_lib_error("stat", err);
	regions_collect(sc, keep && !ret);
	if (!ret)
		*code = command_code;
out:
	run_release(&r);
	return ret;
}

int stat_measure(struct stat_ctx *sc, const char *label, int *code)
{
	const struct stat_config *c = sc->cfg;
	struct run_check check = { 0 };

	sc->check = &check;
	for (long i = 0; i < c->warmup + c->repeat && !cli_stop_count &&
	     (!check.nr_failed || c->keep_going); i++) {
		bool warm = i < c->warmup;
		char name[64];
		int ret;

		snprintf(name, sizeof(name), "%srun %ld of %ld", warm ? "warm-up " : "",
			 (warm ? i : i - c->warmup) + 1, warm ? c->warmup : c->repeat);
		sc->run_name = name;
		progress_show(&sc->progress, label, warm, warm ? i : i - c->warmup,
			      warm ? c->warmup : c->repeat);
		ret = stat_one_run(sc, !warm, code);
		if (ret)
			return ret;
	}
	cli_progress_clear();
	sc->failed_stop = stat_runs_failed(sc, &check, code) && !c->keep_going;
	sc->check = NULL;
	return 0;
}

int stat_new_result(struct stat_ctx *sc, char **argv, struct hwp_result **out)
{
	struct stat_config *c = sc->cfg;
	struct hwp_result *r;
	int err = hwp_result_new(&r);

	*out = NULL;
	for (size_t i = 0; !err && i < c->nr_metrics; i++)
		err = hwp_result_add_metric(r, sc->metrics[i]);
	for (size_t i = 0; !err && i < sc->nr_scores; i++)
		err = hwpriv_result_add_score(r, hwpriv_score_name(sc->scores[i]));
	/* What the JSON keeps of the machine, hwprof doctor's facts with it,
	 * read before the runs; text has no place for it, and does not pay. */
	if (!err && (c->format == HWP_FORMAT_JSON || c->save))
		err = hwpriv_result_read_environment(r);
	if (!err)
		err = result_label(sc, argv, r);
	if (err) {
		cli_lib_error("stat", err);
		hwp_result_free(r);
		return err == -EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
	}
	*out = r;
	return 0;
}
