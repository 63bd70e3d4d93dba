/* SPDX-License-Identifier: MIT */
/*
 * hwprof: hardware-counter profiling on Linux, built on perf_event_open.
 *
 * The umbrella header: it includes one header per concept, in the order
 * the data moves (docs/api.md). Each of them compiles alone too. The
 * conventions that hold for every function are in <hwprof/core.h>.
 */
#ifndef HWPROF_HWPROF_H
#define HWPROF_HWPROF_H

#include <hwprof/core.h>
#include <hwprof/event.h>
#include <hwprof/count.h>
#include <hwprof/workload.h>
#include <hwprof/stats.h>
#include <hwprof/result.h>
#include <hwprof/region.h>
#include <hwprof/compare.h>
#include <hwprof/doctor.h>
#include <hwprof/record.h>
#include <hwprof/profile.h>
#include <hwprof/diff.h>

#endif /* HWPROF_HWPROF_H */
