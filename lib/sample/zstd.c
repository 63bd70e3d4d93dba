// SPDX-License-Identifier: MIT
/* The records of perf record -z: one zstd stream across all of a file's
 * PERF_RECORD_COMPRESSED records, decompressed as it comes, into a buffer
 * of the reader's, so that memory stays bounded whatever the file's size. */
#include "sample/sample.h"
#include "util/dynlib.h"

#include <pthread.h>
#include <stdlib.h>
#include <zstd.h>

/* libzstd is loaded at the first compressed file (util/dynlib.h says why). */
#define LIBZSTD "libzstd.so.1"
#define ZSTD_FUNCS(X)                                                        \
	X(ZSTD_createDStream) X(ZSTD_initDStream) X(ZSTD_freeDStream)        \
	X(ZSTD_decompressStream) X(ZSTD_isError) X(ZSTD_getErrorName)

static struct {
#define X(fn) __typeof__(fn) *fn;
	ZSTD_FUNCS(X)
#undef X
} zs;

static pthread_once_t zs_once = PTHREAD_ONCE_INIT;
static char zs_error[512];

static void zs_load_once(void)
{
	static const struct dynlib_sym syms[] = {
#define X(fn) { #fn, (void **)&zs.fn },
		ZSTD_FUNCS(X)
#undef X
	};

	dynlib_open(LIBZSTD, "libzstd", "libzstd1", syms, sizeof(syms) / sizeof(syms[0]),
		    zs_error, sizeof(zs_error));
}

struct pd_zstd {
	ZSTD_DStream *ds;
};

int pd_zstd_new(struct pd_zstd **out)
{
	struct pd_zstd *z = calloc(1, sizeof(*z));

	*out = NULL;
	pthread_once(&zs_once, zs_load_once);
	if (zs_error[0]) {
		free(z);
		return fail(-ELIBACC,
			    "%s; compressed records (perf record -z) cannot be read",
			    zs_error);
	}
	if (!z || !(z->ds = zs.ZSTD_createDStream())) {
		free(z);
		return fail(-ENOMEM, "out of memory");
	}
	zs.ZSTD_initDStream(z->ds);
	*out = z;
	return 0;
}

void pd_zstd_free(struct pd_zstd *z)
{
	if (!z)
		return;
	zs.ZSTD_freeDStream(z->ds);
	free(z);
}

int pd_zstd_step(struct pd_zstd *z, const void *in, size_t in_len, size_t *in_pos,
		 void *out, size_t out_cap, size_t *out_len)
{
	ZSTD_inBuffer ib = { in, in_len, *in_pos };
	ZSTD_outBuffer ob = { out, out_cap, *out_len };
	size_t ret = zs.ZSTD_decompressStream(z->ds, &ob, &ib);

	*in_pos = ib.pos;
	*out_len = ob.pos;
	if (zs.ZSTD_isError(ret))
		return fail(-HWP_ERR_FORMAT, "zstd: %s", zs.ZSTD_getErrorName(ret));
	return 0;
}
