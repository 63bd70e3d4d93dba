/* SPDX-License-Identifier: MIT */
/* Shared by the fuzz targets: libFuzzer's entry points, and a copy of the
 * input as a C string. */
#ifndef HWPROF_FUZZ_H
#define HWPROF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input up to its first NUL, NUL-terminated; free() it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A broken invariant is a crash the fuzzer keeps. */
#define FUZZ_ASSERT(cond) \
	do {                      \
		if (!(cond))      \
			abort();  \
	} while (0)

#endif
