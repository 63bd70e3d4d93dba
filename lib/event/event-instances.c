// SPDX-License-Identifier: MIT
/* An event of a PMU that the kernel registers once a device (uncore_imc_0
 * .. uncore_imc_N, a memory controller each) written by the PMU's name
 * alone, uncore_imc/cas_count_read/, as perf takes it: one event an
 * instance, whose counts a result adds up into one row (perf stat's merge,
 * which its --no-merge turns off). */
#include "core/core.h"
#include "event/event.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The PMU's name of "pmu/terms/mods" into @pmu: false if it has none. */
static bool pmu_part(const char *tok, size_t len, char *pmu, size_t size)
{
	const char *slash = memchr(tok, '/', len);
	size_t n = slash ? (size_t)(slash - tok) : 0;

	if (!n || n >= size || !memchr(slash + 1, '/', len - n - 1) ||
	    memchr(tok, '.', n) || memchr(tok, ':', n))
		return false;
	memcpy(pmu, tok, n);
	pmu[n] = '\0';
	return true;
}

int event_instance_specs(const char *tok, size_t len, char ***specs, size_t *nr)
{
	char pmu[256];
	uint32_t type;
	long *nrs = NULL;
	size_t n = 0, pmu_len;
	char **out;
	int err;

	*specs = NULL;
	*nr = 0;
	if (!pmu_part(tok, len, pmu, sizeof(pmu)) || pmu_type(pmu, &type) != -ENOENT)
		return 0;
	err = pmu_instances(pmu, &nrs, &n);
	if (err || !n)
		return err;
	pmu_len = strlen(pmu);
	out = calloc(n, sizeof(*out));
	for (size_t i = 0; out && i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s_%ld%.*s", pmu, nrs[i], (int)(len - pmu_len),
			    tok + pmu_len);
		out[i] = strbuf_detach(&sb);
		strbuf_release(&sb);
		if (!out[i]) {
			while (i-- > 0)
				free(out[i]);
			free(out);
			out = NULL;
		}
	}
	free(nrs);
	if (!out)
		return fail(-ENOMEM, "out of memory");
	*specs = out;
	*nr = n;
	return 0;
}

bool event_is_instance(const char *instance, const char *written)
{
	char pmu[256];
	size_t n;
	const char *p;

	if (!pmu_part(written, strlen(written), pmu, sizeof(pmu)))
		return false;
	n = strlen(pmu);
	if (strncasecmp(instance, pmu, n) || instance[n] != '_' ||
	    !isdigit((unsigned char)instance[n + 1]))
		return false;
	for (p = instance + n + 1; isdigit((unsigned char)*p); p++)
		;
	return !strcasecmp(p, written + n);
}

size_t evlist_row_events(const struct hwp_evlist *evl, size_t e)
{
	size_t n = 1;

	if (e >= evl->nr_events || evl->events[e].merged)
		return 1;
	while (e + n < evl->nr_events && evl->events[e + n].merged)
		n++;
	return n;
}

size_t evlist_nr_rows(const struct hwp_evlist *evl)
{
	size_t n = 0;

	for (size_t e = 0; e < evl->nr_events; e++)
		n += !evl->events[e].merged;
	return n;
}

/* Whether @name, as a formula writes it (@ for /), is @canonical. */
static bool same_pmu_name(const char *name, const char *canonical)
{
	for (; *name && *canonical; name++, canonical++) {
		char c = *name == '@' ? '/' : *name;

		if (tolower((unsigned char)c) != tolower((unsigned char)*canonical))
			return false;
	}
	return !*name && !*canonical;
}

size_t evlist_operand_events(const struct hwp_evlist *evl, size_t e, const char *name)
{
	size_t n = evlist_row_events(evl, e);

	return n > 1 && same_pmu_name(name, evl->events[e].canonical) ? 1 : n;
}
