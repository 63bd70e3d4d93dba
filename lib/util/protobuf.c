// SPDX-License-Identifier: MIT
/* Protocol Buffers' wire format: see protobuf.h. */
#include "util/protobuf.h"
#include "util/hash.h"

#include <stdlib.h>
#include <string.h>

enum { PB_VARINT = 0, PB_LEN = 2 };

static bool room(struct pb_buf *pb, size_t n)
{
	if (pb->failed)
		return false;
	if (n > SIZE_MAX - pb->len || vec_reserve(&pb->b, &pb->cap, pb->len + n, 1)) {
		pb->failed = true;
		return false;
	}
	return true;
}

static void varint(struct pb_buf *pb, uint64_t v)
{
	if (!room(pb, 10))
		return;
	while (v >= 0x80) {
		pb->b[pb->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	pb->b[pb->len++] = (uint8_t)v;
}

static void tag(struct pb_buf *pb, uint32_t field, unsigned int wire)
{
	varint(pb, (uint64_t)field << 3 | wire);
}

void pb_uint(struct pb_buf *pb, uint32_t field, uint64_t v)
{
	if (!v)
		return;
	tag(pb, field, PB_VARINT);
	varint(pb, v);
}

void pb_int(struct pb_buf *pb, uint32_t field, int64_t v)
{
	pb_uint(pb, field, (uint64_t)v);
}

void pb_bytes(struct pb_buf *pb, uint32_t field, const void *data, size_t len)
{
	tag(pb, field, PB_LEN);
	varint(pb, len);
	if (len && room(pb, len)) {
		memcpy(pb->b + pb->len, data, len);
		pb->len += len;
	}
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void pb_packed(struct pb_buf *pb, uint32_t field, const uint64_t *v, size_t n)
{
	size_t len = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		len += varint_len(v[i]);
	tag(pb, field, PB_LEN);
	varint(pb, len);
	for (size_t i = 0; i < n; i++)
		varint(pb, v[i]);
}

void pb_release(struct pb_buf *pb)
{
	free(pb->b);
	memset(pb, 0, sizeof(*pb));
}
