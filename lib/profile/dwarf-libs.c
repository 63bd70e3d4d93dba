// SPDX-License-Identifier: MIT
/* libdw and libelf, loaded on first use, as libpfm4 is (event-pfm.c):
 * linked in, they and capstone (disasm.c) tripled the start of every hwprof
 * command, stat included, for libraries that only reports need. */
#include "core/log.h"
#include "profile/dwarf-libs.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#define LIBDW "libdw.so.1"
#define LIBELF "libelf.so.1"

struct dw_funcs dw;

static pthread_once_t dw_once = PTHREAD_ONCE_INIT;
static char dw_error[512];

static void *resolve(void *h, const char *lib, const char *sym)
{
	void *p = dlsym(h, sym);

	if (!p && !dw_error[0])
		snprintf(dw_error, sizeof(dw_error), "%s lacks %s: elfutils is too old",
			 lib, sym);
	return p;
}

static void dw_load_once(void)
{
	void *h = dlopen(LIBDW, RTLD_NOW | RTLD_LOCAL);
	void *e = dlopen(LIBELF, RTLD_NOW | RTLD_LOCAL);

	if (!h || !e) {
		snprintf(dw_error, sizeof(dw_error),
			 "elfutils (%s) cannot be loaded: %s; install it with: sudo apt-get install libdw1",
			 LIBDW, dlerror());
		return;
	}
#define X(fn) *(void **)&dw.fn = resolve(h, LIBDW, #fn);
	DW_FUNCS(X)
#undef X
#define X(fn) *(void **)&dw.fn = resolve(e, LIBELF, #fn);
	ELF_FUNCS(X)
#undef X
	/* The handles stay open for the life of the process. */
}

int dw_load(void)
{
	static bool said;

	pthread_once(&dw_once, dw_load_once);
	if (!dw_error[0])
		return 0;
	if (!said)
		pr_warn("%s", dw_error);
	said = true;
	return -ELIBACC;
}
