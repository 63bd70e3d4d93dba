/* SPDX-License-Identifier: MIT */
/* What the tests of the CPU models' metrics share: a metric of a model's
 * table by name, and a function run in a child with the model forced, as
 * libpfm4 reads LIBPFM_FORCE_PMU once a process. After harness.h and the
 * library's private headers. */
#ifndef HWPROF_TEST_MODELS_H
#define HWPROF_TEST_MODELS_H

#include <sys/wait.h>

/* The metric @name of @model's table (metrics/<vendor>.def), or NULL. */
static inline const struct hwp_metric *model_metric(const char *model, const char *name)
{
	for (size_t i = 0; i < metric_model_nr_all(); i++) {
		const struct hwp_metric *m = metric_model_all(i);
		struct hwp_metric_info mi = { .sz = sizeof(mi) };

		if (m && !hwp_metric_info(m, &mi) && !strcmp(mi.model, model) &&
		    !strcmp(mi.name, name))
			return m;
	}
	return NULL;
}

/* @fn(@model, @arg) in a child whose libpfm4 is forced to @model: its exit
 * status, or -1 where it did not exit. 77 where this libpfm4 has no @model
 * (its tables are per architecture): the case under way is then skipped. */
static inline int in_forced_child(const char *model,
				  int (*fn)(const char *model, const void *arg),
				  const void *arg)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("LIBPFM_FORCE_PMU", model, 1);
		_exit(libpfm_pmu_present(model) ? fn(model, arg) : 77);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork: %s", strerror(errno));
	if (pid <= 0 || !WIFEXITED(status))
		return -1;
	if (WEXITSTATUS(status) == 77)
		t_case_skip("this libpfm4 has no PMU '%s' (its tables are per architecture)",
			    model);
	return WEXITSTATUS(status);
}

#endif
