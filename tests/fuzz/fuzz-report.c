// SPDX-License-Identifier: MIT
/* The whole report on a perf.data file: aggregation, address spaces from
 * MMAP/COMM/FORK records, symbols, call chains, every sort and format.
 * The modules an input names are the small ones of modules/, opened here
 * once as the descriptors the seeds name (/proc/self/fd/200...;
 * modules/seeds.py): real libraries made each input cost ~10 ms, most of
 * it libdw inflating the compressed debug sections of libc. The kernel's
 * symbols come from a small file of our own too: /proc/kallsyms, 5 MB
 * formatted by the kernel, made each input cost ~80 ms. */
#include "core/core.h"
#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* As modules/seeds.py numbers them; 206 stays closed, a module that is gone. */
static const char *const modules[] = { "mod", "mod-nodebug", "mod-stripped", "mod.so",
				       "mod.c", "." };
enum { FIRST_MODULE_FD = 200 };

static void open_modules(void)
{
	for (size_t i = 0; i < sizeof(modules) / sizeof(modules[0]); i++) {
		char path[4096];
		int fd, want = FIRST_MODULE_FD + (int)i;

		snprintf(path, sizeof(path), "%s/%s", FUZZ_MODULES, modules[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fcntl(want, F_GETFD) != -1 ||
		    dup3(fd, want, O_CLOEXEC) != want) {
			perror(path);
			abort();
		}
		close(fd);
	}
}

static char kallsyms[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char syms[] = "ffffffff81000000 T _stext\n"
				   "ffffffff81001000 T kernel_hot\n"
				   "ffffffff81002000 t kernel_cold\n"
				   "ffffffffc0000000 t mod_fn\t[some_module]\n"
				   "ffffffff81003000 T _etext\n";
	int fd = memfd_create("fuzz-kallsyms", MFD_CLOEXEC);

	(void)argc;
	(void)argv;
	hwp_log_set_level(HWP_LOG_ERROR);
	open_modules();
	if (fd < 0 || write(fd, syms, sizeof(syms) - 1) != (ssize_t)sizeof(syms) - 1)
		abort();
	snprintf(kallsyms, sizeof(kallsyms), "/proc/self/fd/%d", fd);
	return 0;
}

static int on_entry(const struct hwp_entry *e, void *ctx)
{
	(void)ctx;
	FUZZ_ASSERT(e->samples > 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-report", MFD_CLOEXEC);
	struct hwp_profile *p = NULL;
	char path[64];
	HWP_OPTS(hwp_profile_opts, po, .kallsyms = kallsyms);

	FUZZ_ASSERT(fd >= 0);
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!hwp_profile_load(path, &po, &p)) {
		static const enum hwp_sort sorts[] = { HWP_SORT_RIP, HWP_SORT_SYM,
						       HWP_SORT_LINE, HWP_SORT_DSO };
		FILE *out = fopen("/dev/null", "we");

		for (size_t i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
			hwp_profile_foreach_entry(p, sorts[i], 20, on_entry, NULL);
		/* Every format, the ones a profile refuses too. */
		for (int fmt = HWP_FORMAT_TEXT; out && fmt <= HWP_FORMAT_HTML;
		     fmt++) {
			HWP_OPTS(hwp_write_opts, o, .format = (enum hwp_format)fmt,
				 .sort = HWP_SORT_SYM, .top = 10);

			hwp_profile_write(p, out, &o);
		}
		if (out)
			fclose(out);
		hwp_profile_free(p);
	}
	close(fd);
	return 0;
}
