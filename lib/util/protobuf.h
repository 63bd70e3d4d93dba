/* SPDX-License-Identifier: MIT */
/* Protocol Buffers' wire format, as much of it as a writer of proto3
 * messages needs (https://protobuf.dev/programming-guides/encoding/):
 * varints, and length-delimited fields (strings, bytes, packed repeated
 * numbers, embedded messages). The field numbers belong to each schema's
 * writer; this knows none. Allocation failure is sticky, as strbuf's is. */
#ifndef HWPROF_UTIL_PROTOBUF_H
#define HWPROF_UTIL_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pb_buf {
	uint8_t *b;
	size_t len, cap;
	bool failed;
};

/* A uint64/int64/bool field, wire type 0. Proto3 leaves out zeros: so does
 * this, as the schema's readers take a missing field for 0. */
void pb_uint(struct pb_buf *pb, uint32_t field, uint64_t v);
/* int64: negative values as their two's complement, in ten bytes. */
void pb_int(struct pb_buf *pb, uint32_t field, int64_t v);
/* A bytes or string field, wire type 2, written even when empty (a
 * repeated string's "" is an element). */
void pb_bytes(struct pb_buf *pb, uint32_t field, const void *data, size_t len);
/* A packed repeated uint64 field; nothing for none. */
void pb_packed(struct pb_buf *pb, uint32_t field, const uint64_t *v, size_t n);
/* Embedded message @msg as field @field of @pb. */
static inline void pb_message(struct pb_buf *pb, uint32_t field, const struct pb_buf *msg)
{
	pb_bytes(pb, field, msg->b, msg->len);
	pb->failed |= msg->failed;
}

static inline void pb_reset(struct pb_buf *pb)
{
	pb->len = 0;
}

void pb_release(struct pb_buf *pb);

#endif
