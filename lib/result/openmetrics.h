/* SPDX-License-Identifier: MIT */
/* The families that the writer of results (result-openmetrics.c) and the
 * writer of live counts that hwprof serve answers a scrape with
 * (openmetrics-counts.c) both write; the format's pieces are
 * util/openmetrics.h's: one writer of the formats, not two. */
#ifndef HWPROF_RESULT_OPENMETRICS_H
#define HWPROF_RESULT_OPENMETRICS_H

#include "util/openmetrics.h"

/* hwprof_event_running_ratio and hwprof_event_supported, which a result
 * and live counts write alike. */
extern const struct om_family om_event_ratio, om_event_supported;

#endif
