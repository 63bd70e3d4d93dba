// SPDX-License-Identifier: MIT
/* Runs a fuzz target over files and directories of inputs, without
 * libFuzzer: the seed corpus and every crash ever found are replayed in
 * the normal test suite (and under the sanitizers with make test-asan). */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

static int replay_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		size_t got = fread(buf + len, 1, cap - len, f);

		if (!got)
			break;
		len += got;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	(*n)++;
	return 0;
}

static int replay(const char *path, size_t *n)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (stat(path, &st)) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path, n);
	d = opendir(path);
	if (!d)
		return 1;
	while ((de = readdir(d))) {
		char sub[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		err |= replay(sub, n);
	}
	closedir(d);
	return err;
}

int main(int argc, char **argv)
{
	size_t n = 0;
	int err = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		err |= replay(argv[i], &n);
	printf("%zu inputs replayed\n", n);
	return err || !n;
}
