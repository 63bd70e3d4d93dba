// SPDX-License-Identifier: MIT
/* hwprof stat --sweep NAME=V1,V2,...: the command once per value, with
 * {NAME} in its arguments replaced, and one column per value. */
#include "stat.h"

#include <stdlib.h>
#include <string.h>

int sweep_check(const struct stat_config *c)
{
	return spec_check(c->sweep, "--sweep", c->target.argv);
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
		hwp_result_set_exit_status(sc->result, ret ? -1 : *code);
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
