// SPDX-License-Identifier: MIT
/* The records of perf record -z: one zstd stream across all of a file's
 * PERF_RECORD_COMPRESSED records, decompressed as it comes, into a buffer
 * of the reader's, so that memory stays bounded whatever the file's size. */
#include "sample/sample.h"
#include "util/dynlib.h"

#include <stdlib.h>
#include <zstd.h>

/* libzstd is loaded at the first compressed file (util/dynlib.h says why). */
#define LIBZSTD "libzstd.so.1"
#define ZSTD_FUNCS(X)                                                        \
	X(ZSTD_createDStream) X(ZSTD_initDStream) X(ZSTD_freeDStream)        \
	X(ZSTD_decompressStream) X(ZSTD_isError) X(ZSTD_getErrorName)

DYNLIB(ZSTD_FUNCS, LIBZSTD, "libzstd", "libzstd1")

struct pd_zstd {
	ZSTD_DStream *ds;
};

int pd_zstd_new(struct pd_zstd **out)
{
	struct pd_zstd *z = calloc(1, sizeof(*z));

	*out = NULL;
	if (dl_load()) {
		free(z);
		return fail(-ELIBACC,
			    "%s; compressed records (perf record -z) cannot be read",
			    dl_load());
	}
	if (!z || !(z->ds = dl.ZSTD_createDStream())) {
		free(z);
		return fail(-ENOMEM, "out of memory");
	}
	dl.ZSTD_initDStream(z->ds);
	*out = z;
	return 0;
}

void pd_zstd_free(struct pd_zstd *z)
{
	if (!z)
		return;
	dl.ZSTD_freeDStream(z->ds);
	free(z);
}

int pd_zstd_step(struct pd_zstd *z, const void *in, size_t in_len, size_t *in_pos,
		 void *out, size_t out_cap, size_t *out_len)
{
	ZSTD_inBuffer ib = { in, in_len, *in_pos };
	ZSTD_outBuffer ob = { out, out_cap, *out_len };
	size_t ret = dl.ZSTD_decompressStream(z->ds, &ob, &ib);

	*in_pos = ib.pos;
	*out_len = ob.pos;
	if (dl.ZSTD_isError(ret))
		return fail(-HWP_ERR_FORMAT, "zstd: %s", dl.ZSTD_getErrorName(ret));
	return 0;
}
