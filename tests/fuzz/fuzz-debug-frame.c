// SPDX-License-Identifier: MIT
/* .debug_frame rewritten as .eh_frame (lib/profile/debug-frame.c): the
 * input is the section, every byte a file's. The first byte picks the
 * address size. What comes out must be what libunwind is told it is: a
 * table of entries sorted by start, each an FDE inside the rewrite whose
 * CIE pointer leads back to a CIE before it. */
#include "profile/profile.h"
#include "fuzz.h"

#define LO 0x1000ULL
#define HI 0x100000ULL

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void check_rewrite(const struct eh_rewrite *rw)
{
	int32_t last = INT32_MIN;

	FUZZ_ASSERT(rw->table % 8 == 0 && rw->table + rw->nr * 8 + 8 == rw->size);
	for (size_t i = 0; i < rw->nr; i++) {
		int32_t start, fde;
		uint32_t len, back;

		memcpy(&start, rw->data + rw->table + i * 8, 4);
		memcpy(&fde, rw->data + rw->table + i * 8 + 4, 4);
		FUZZ_ASSERT(start >= last && (uint64_t)start < HI - LO);
		last = start;
		FUZZ_ASSERT(fde >= 0 && (size_t)fde + 8 <= rw->table);
		memcpy(&len, rw->data + fde, 4);
		memcpy(&back, rw->data + fde + 4, 4);
		FUZZ_ASSERT((size_t)fde + 4 + len <= rw->table);
		/* the CIE it points back to, wholly before it: id 0 */
		FUZZ_ASSERT(back <= (uint32_t)fde + 4 && back >= 4 + 8);
		FUZZ_ASSERT(!memcmp(rw->data + fde + 4 - back + 4, "\0\0\0\0", 4));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eh_rewrite rw;
	int err;

	if (!size)
		return 0;
	err = debug_frame_rewrite(data + 1, size - 1, data[0] & 1 ? 4 : 8, LO, HI, &rw);
	FUZZ_ASSERT(err == 0 || err == -ENOENT || err == -ENOMEM || err == -EFBIG);
	if (!err) {
		check_rewrite(&rw);
		free(rw.data);
	}
	return 0;
}
