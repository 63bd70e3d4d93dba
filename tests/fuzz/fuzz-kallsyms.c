// SPDX-License-Identifier: MIT
/* The kernel's symbols: the reader of their cache file takes any bytes
 * and accepts only a whole file whose every name lies within it; text in
 * kallsyms' format parses to symbols that the cache keeps, reads back the
 * same, and refuses once a byte is changed; the reference symbol found
 * in its head is _text or _stext, at a non-zero address. The first byte
 * chooses: even, the rest is a cache file; odd, the rest is kallsyms text. */
#include "sample/sample.h"
#include "fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void cache_file(const uint8_t *data, size_t size)
{
	/* 8-aligned, as a mapping is */
	uint64_t *buf = malloc(size + 8);
	const struct ksym *syms = (const struct ksym *)((const char *)buf + 256);

	FUZZ_ASSERT(buf);
	memcpy(buf, data, size);
	if (!ksyms_cache_check(buf, size, NULL)) {
		uint64_t nr, names_size;
		const char *names;

		memcpy(&nr, (const char *)buf + 24, 8);
		memcpy(&names_size, (const char *)buf + 32, 8);
		names = (const char *)(syms + nr);
		FUZZ_ASSERT(256 + nr * sizeof(*syms) + names_size == size);
		for (uint64_t i = 0; i < nr; i++)
			FUZZ_ASSERT(memchr(names + syms[i].name, '\0',
					   names_size - syms[i].name));
	}
	free(buf);
}

static void text(const uint8_t *data, size_t size)
{
	char path[64];
	struct ksyms k;
	int fd = memfd_create("kallsyms", MFD_CLOEXEC);
	unsigned char *image;
	const char *ref_name;
	uint64_t ref;
	size_t len;
	int err;

	FUZZ_ASSERT(fd >= 0 && write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ksyms_load(&k, path, false);
	err = kallsyms_ref(path, &ref, &ref_name);
	FUZZ_ASSERT(err ? !ref && !ref_name :
		    ref && (!strcmp(ref_name, "_text") || !strcmp(ref_name, "_stext")));
	close(fd);
	FUZZ_ASSERT(!k.cached && (k.nr || k.problem));
	image = k.nr ? ksyms_cache_image(&k, "fuzz", &len) : NULL;
	if (image) {
		const struct ksym *syms = (const struct ksym *)(image + 256);
		const char *names = (const char *)(syms + k.nr);
		size_t at = (size_t)hash_bytes(data, size) % len;

		FUZZ_ASSERT(!ksyms_cache_check(image, len, "fuzz"));
		FUZZ_ASSERT(ksyms_cache_check(image, len, "other") == -ESTALE);
		for (size_t i = 0; i < k.nr; i++) {
			FUZZ_ASSERT(syms[i].addr == k.syms[i].addr &&
				    syms[i].end == k.syms[i].end);
			FUZZ_ASSERT(!strcmp(names + syms[i].name,
					    k.names + k.syms[i].name));
			FUZZ_ASSERT(i == 0 || syms[i - 1].addr <= syms[i].addr);
		}
		image[at] ^= 0x20;
		FUZZ_ASSERT(ksyms_cache_check(image, len, "fuzz"));
		FUZZ_ASSERT(ksyms_cache_check(image, len - 1, "fuzz"));
		free(image);
	}
	ksyms_release(&k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		text(data + 1, size - 1);
	else
		cache_file(data + 1, size - 1);
	return 0;
}
