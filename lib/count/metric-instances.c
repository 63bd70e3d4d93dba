// SPDX-License-Identifier: MIT
/* A formula's uncore events, PMU@EVENT@ where the kernel registers the PMU
 * once a device (uncore_imc_0 .. uncore_imc_N): the sum of every instance,
 * each count times its events/EVENT.scale, as perf merges uncore_imc/EVENT/
 * and scales it before its metrics. Written out when the metric is first
 * parsed, from this machine's sysfs (HWPROF_SYSFS_ROOT for tests). */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool token_char(const char *s, size_t i)
{
	unsigned char c = (unsigned char)s[i];

	if (isalnum(c) || c == '_' || c == '.' || c == ':' || c == '@')
		return true;
	return c == '-' && i > 0 && isalnum((unsigned char)s[i - 1]) &&
	       isalnum((unsigned char)s[i + 1]);
}

/* Instance @nr of @pmu's @event, times its scale where it has one. */
static int add_instance(struct strbuf *sb, const char *pmu, long nr, const char *event,
			bool first)
{
	char inst[300], rel[320], scale[64];
	char *end;

	snprintf(inst, sizeof(inst), "%s_%ld", pmu, nr);
	snprintf(rel, sizeof(rel), "events/%s.scale", event);
	strbuf_addf(sb, "%s%s@%s@", first ? "" : " + ", inst, event);
	if (pmu_read(inst, rel, scale, sizeof(scale)))
		return 0;
	if (!(strtod(scale, &end) > 0) || *end)
		return fail(-HWP_ERR_FORMAT,
			    "PMU '%s': %s is '%s', not a positive number; the kernel's sysfs is not what hwprof expects",
			    inst, rel, scale);
	strbuf_addf(sb, " * %s", scale);
	return 0;
}

/* The token @tok of @len bytes into @sb: written out if it is an uncore
 * PMU's event, else as it is. */
static int expand_token(struct strbuf *sb, const char *tok, size_t len)
{
	char name[256], *event, *at;
	uint32_t type;
	long *nrs = NULL;
	size_t nr = 0;
	int err = 0;

	snprintf(name, sizeof(name), "%.*s", (int)len, tok);
	event = strchr(name, '@');
	at = event ? strchr(event + 1, '@') : NULL;
	if (len >= sizeof(name) || !at || at[1] || at == event + 1) {
		strbuf_adds(sb, name);
		return 0;
	}
	*event++ = '\0';
	*at = '\0';
	if (pmu_type(name, &type) != -ENOENT || (err = pmu_instances(name, &nrs, &nr)) ||
	    !nr) {
		strbuf_addf(sb, "%.*s", (int)len, tok);
		return err;
	}
	strbuf_adds(sb, "(");
	for (size_t i = 0; i < nr && !err; i++)
		err = add_instance(sb, name, nrs[i], event, i == 0);
	strbuf_adds(sb, ")");
	free(nrs);
	return err;
}

int metric_expand_instances(const char *expr, char **out)
{
	struct strbuf sb = STRBUF_INIT;
	int err = 0;

	*out = NULL;
	for (size_t i = 0; expr[i] && !err;) {
		size_t start = i;

		/* a number whole, so that its exponent is not a name: 1e-9 */
		if (isdigit((unsigned char)expr[i]) || expr[i] == '.') {
			while (isalnum((unsigned char)expr[i]) || expr[i] == '.' ||
			       ((expr[i] == '-' || expr[i] == '+') &&
				tolower((unsigned char)expr[i - 1]) == 'e'))
				strbuf_addch(&sb, expr[i++]);
			continue;
		}
		if (!isalpha((unsigned char)expr[i]) && expr[i] != '_') {
			strbuf_addch(&sb, expr[i++]);
			continue;
		}
		while (token_char(expr, i))
			i++;
		err = expand_token(&sb, expr + start, i - start);
	}
	*out = err ? NULL : strbuf_detach(&sb);
	strbuf_release(&sb);
	if (!err && !*out)
		return fail(-ENOMEM, "out of memory");
	return err;
}
