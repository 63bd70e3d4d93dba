// SPDX-License-Identifier: MIT
/* The names of the public enums, one table each: what the CLI's options
 * take and what the JSON and text outputs write, for hwp_enum_name() and
 * hwp_enum_parse(). */
#include "core/core.h"
#include "util/strbuf.h"

#include <string.h>

static const char *const log_levels[] = {
	[HWP_LOG_ERROR] = "error", [HWP_LOG_WARN] = "warn", [HWP_LOG_INFO] = "info",
	[HWP_LOG_DEBUG] = "debug",
};
static const char *const sources[] = {
	[HWP_SOURCE_GENERIC] = "generic", [HWP_SOURCE_PFM] = "pfm",
	[HWP_SOURCE_RAW] = "raw",
	[HWP_SOURCE_TRACEPOINT] = "tracepoint", [HWP_SOURCE_PMU] = "pmu",
};
static const char *const scopes[] = {
	[HWP_SCOPE_THREAD] = "thread", [HWP_SCOPE_PROCESS] = "process",
	[HWP_SCOPE_CPUS] = "cpus",
};
static const char *const aggrs[] = {
	[HWP_AGGR_GLOBAL] = "global", [HWP_AGGR_CPU] = "cpu", [HWP_AGGR_CORE] = "core",
	[HWP_AGGR_DIE] = "die", [HWP_AGGR_SOCKET] = "socket", [HWP_AGGR_NODE] = "node",
	[HWP_AGGR_THREAD] = "thread",
};
static const char *const statuses[] = {
	[HWP_EVENT_COUNTING] = "counting", [HWP_EVENT_NOT_SUPPORTED] = "not-supported",
	[HWP_EVENT_USER_ONLY] = "user-only", [HWP_EVENT_NOT_OPENED] = "not-opened",
};
static const char *const captures[] = {
	[HWP_CAPTURE_NONE] = "none", [HWP_CAPTURE_STDOUT] = "stdout",
	[HWP_CAPTURE_STDERR] = "stderr",
};
static const char *const tests[] = {
	[HWP_TEST_WELCH] = "welch", [HWP_TEST_MANN_WHITNEY] = "mann-whitney",
};
static const char *const orders[] = {
	[HWP_ORDER_ABBA] = "abba", [HWP_ORDER_RANDOM] = "random",
	[HWP_ORDER_SEQUENTIAL] = "sequential",
};
static const char *const formats[] = {
	[HWP_FORMAT_TEXT] = "text", [HWP_FORMAT_CSV] = "csv", [HWP_FORMAT_JSON] = "json",
	[HWP_FORMAT_FOLDED] = "folded", [HWP_FORMAT_OPENMETRICS] = "openmetrics",
	[HWP_FORMAT_PROMETHEUS] = "prometheus", [HWP_FORMAT_SPEEDSCOPE] = "speedscope",
	[HWP_FORMAT_PPROF] = "pprof", [HWP_FORMAT_HTML] = "html",
};
static const char *const sorts[] = {
	[HWP_SORT_SYM] = "sym", [HWP_SORT_RIP] = "rip", [HWP_SORT_LINE] = "line",
	[HWP_SORT_DSO] = "dso", [HWP_SORT_CPU] = "cpu", [HWP_SORT_COMM] = "comm",
	[HWP_SORT_PID] = "pid",
};
static const char *const kinds[] = {
	[HWP_SERIES_EVENT] = "event", [HWP_SERIES_METRIC] = "metric",
	[HWP_SERIES_SCORE] = "score", [HWP_SERIES_TIME] = "time",
};
static const char *const verdicts[] = {
	[HWP_VERDICT_UNCHANGED] = "unchanged", [HWP_VERDICT_INCREASE] = "increase",
	[HWP_VERDICT_DECREASE] = "decrease", [HWP_VERDICT_NONE] = "n/a",
};
static const char *const callchains[] = {
	[HWP_CALLCHAIN_NONE] = "none", [HWP_CALLCHAIN_FP] = "fp",
	[HWP_CALLCHAIN_DWARF] = "dwarf",
};

static const struct {
	const char *const *names;
	size_t nr;
	const char *what;
} tables[] = {
#define TABLE(e, t, what) [e] = { t, ARRAY_SIZE(t), what }
	TABLE(HWP_ENUM_LOG_LEVEL, log_levels, "log level"),
	TABLE(HWP_ENUM_EVENT_SOURCE, sources, "kind of event name"),
	TABLE(HWP_ENUM_SCOPE, scopes, "scope"),
	TABLE(HWP_ENUM_AGGR, aggrs, "aggregation"),
	TABLE(HWP_ENUM_EVENT_STATUS, statuses, "event status"),
	TABLE(HWP_ENUM_CAPTURE, captures, "stream to capture"),
	TABLE(HWP_ENUM_STATS_TEST, tests, "statistical test"),
	TABLE(HWP_ENUM_ORDER, orders, "run order"),
	TABLE(HWP_ENUM_FORMAT, formats, "format"),
	TABLE(HWP_ENUM_SORT, sorts, "sort key"),
	TABLE(HWP_ENUM_SERIES_KIND, kinds, "kind of row"),
	TABLE(HWP_ENUM_VERDICT, verdicts, "verdict"),
	TABLE(HWP_ENUM_CALLCHAIN, callchains, "call-chain mode"),
#undef TABLE
};

HWP_API const char *hwp_enum_name(enum hwp_enum e, int value)
{
	if ((unsigned int)e >= ARRAY_SIZE(tables) || !tables[e].names || value < 0 ||
	    (size_t)value >= tables[e].nr)
		return NULL;
	return tables[e].names[value];
}

HWP_API int hwp_enum_parse(enum hwp_enum e, const char *name, int *value)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, nr;
	int err;

	clear_error();
	if ((unsigned int)e >= ARRAY_SIZE(tables) || !tables[e].names)
		return fail(-EINVAL, "hwp_enum_parse: no enum %d", (int)e);
	if (!name || !value)
		return fail(-EINVAL, "hwp_enum_parse: NULL argument");
	nr = tables[e].nr;
	for (i = 0; i < nr; i++)
		if (tables[e].names[i] && !strcmp(tables[e].names[i], name)) {
			*value = (int)i;
			return 0;
		}
	for (i = 0; i < nr; i++)
		if (tables[e].names[i])
			strbuf_addf(&sb, "%s%s",
				    i == 0 ? "" : i + 1 == nr ? " or " : ", ",
				    tables[e].names[i]);
	err = fail(-EINVAL, "'%s' is not a %s: %s", name, tables[e].what,
		   strbuf_str(&sb));
	strbuf_release(&sb);
	return err;
}
