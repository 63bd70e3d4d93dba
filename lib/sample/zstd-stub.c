// SPDX-License-Identifier: MIT
/* Built without libzstd: compressed recordings are refused, with the fix. */
#include "sample/sample.h"

int pd_zstd_new(struct pd_zstd **out)
{
	*out = NULL;
	return fail(-EOPNOTSUPP,
		    "the file is compressed (perf record -z, zstd) and this hwprof was built without libzstd: install libzstd-dev and rebuild (meson option -Dzstd=enabled), or decompress it with 'perf inject -i FILE -o OUT'");
}

void pd_zstd_free(struct pd_zstd *z)
{
	(void)z;
}

int pd_zstd_step(struct pd_zstd *z, const void *in, size_t in_len, size_t *in_pos,
		 void *out, size_t out_cap, size_t *out_len)
{
	(void)z, (void)in, (void)in_len, (void)in_pos, (void)out, (void)out_cap;
	(void)out_len;
	return -EOPNOTSUPP;
}
