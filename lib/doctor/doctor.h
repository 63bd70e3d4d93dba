/* SPDX-License-Identifier: MIT */
/* Private to hwprof doctor's stage: the facts it finds, as a measurement
 * keeps them (result/'s environment). */
#ifndef HWPROF_DOCTOR_H
#define HWPROF_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

/* One of hwprof doctor's facts, as a measurement keeps it. */
struct env_fact {
	char *name;
	char *value;
	bool noisy;
};

/* hwprof doctor's facts, malloc'ed, into *@facts and *@nr (the one place
 * they are found, for hwprof doctor and the results' environment): 0 or
 * -ENOMEM; on failure *@facts holds what was found, for its owner to free. */
int doctor_facts(struct env_fact **facts, size_t *nr);

#endif
