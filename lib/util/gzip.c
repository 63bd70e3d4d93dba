// SPDX-License-Identifier: MIT
/* A gzip stream onto a FILE: see gzip.h. The FILE stays the caller's, so
 * that the write dispatcher checks it (a full disk) as for every format. */
#include "util/gzip.h"
#include "util/dynlib.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <zlib.h>

/* zlib is loaded at the first pprof file (util/dynlib.h says why). */
#define LIBZ "libz.so.1"
#define Z_FUNCS(X) X(deflateInit2_) X(deflate) X(deflateEnd)

DYNLIB(Z_FUNCS, LIBZ, "zlib", "zlib1g")

const char *gz_unavailable(void)
{
	return dl_load();
}

struct gz_writer {
	z_stream z;
	FILE *f;
	int err;
	unsigned char out[64 * 1024];
};

int gz_begin(FILE *f, struct gz_writer **out)
{
	struct gz_writer *gz = calloc(1, sizeof(*gz));

	*out = NULL;
	if (dl_load()) {
		free(gz);
		return -ELIBACC;
	}
	if (!gz)
		return -ENOMEM;
	/* 15 + 16: a window of 2^15 bytes, with gzip's header and trailer. */
	if (dl.deflateInit2_(&gz->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			     Z_DEFAULT_STRATEGY, ZLIB_VERSION,
			     (int)sizeof(z_stream)) != Z_OK) {
		free(gz);
		return -ENOMEM;
	}
	gz->f = f;
	*out = gz;
	return 0;
}

static int pump(struct gz_writer *gz, int flush)
{
	int ret;

	do {
		size_t have;

		gz->z.next_out = gz->out;
		gz->z.avail_out = sizeof(gz->out);
		ret = dl.deflate(&gz->z, flush);
		if (ret == Z_STREAM_ERROR)
			return -EINVAL;
		have = sizeof(gz->out) - gz->z.avail_out;
		if (have && fwrite(gz->out, 1, have, gz->f) != have)
			return -EIO;
	} while (gz->z.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
	return 0;
}

int gz_write(struct gz_writer *gz, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (!gz->err && len) {
		/* avail_in is an unsigned int: a larger buffer goes in pieces. */
		uInt n = len > 1u << 30 ? 1u << 30 : (uInt)len;

		gz->z.next_in = (unsigned char *)p;
		gz->z.avail_in = n;
		gz->err = pump(gz, Z_NO_FLUSH);
		p += n;
		len -= n;
	}
	return gz->err;
}

int gz_finish(struct gz_writer *gz)
{
	int err;

	if (!gz)
		return 0;
	if (!gz->err) {
		gz->z.next_in = NULL;
		gz->z.avail_in = 0;
		gz->err = pump(gz, Z_FINISH);
	}
	err = gz->err;
	dl.deflateEnd(&gz->z);
	free(gz);
	return err;
}
