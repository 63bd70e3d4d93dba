// SPDX-License-Identifier: MIT
/* Built without libunwind: DWARF call chains keep their kernel part, and
 * the report says why their user part is missing. */
#include "profile/profile.h"

const char *unwind_unavailable(void)
{
	return "hwprof was built without libunwind (install libunwind-dev and rebuild)";
}

int unwinder_new(struct machine *m, struct symbolizer *sym, struct unwinder **out)
{
	(void)m, (void)sym;
	*out = NULL;
	return -EOPNOTSUPP;
}

void unwinder_free(struct unwinder *u)
{
	(void)u;
}

void unwinder_flush(struct unwinder *u)
{
	(void)u;
}

size_t unwind_sample(struct unwinder *u, const struct pd_sample *s, uint64_t *ips,
		     size_t max, struct unwind_result *res)
{
	(void)u, (void)s, (void)ips, (void)max;
	res->end = UNWIND_FAILED;
	res->dso = 0;
	res->need = 0;
	return 0;
}
