// SPDX-License-Identifier: MIT
/* AArch64's and Arm's mapping symbols ($x, $d, $a, $t, and their
 * "$x.N" forms) mark where code and data begin, not functions: perf skips
 * them, and so must dw_module_symbol, or samples of a hand-written
 * function (its label sizeless, as _start's) are named "$x". On arm64 the
 * assembler writes them itself; elsewhere they are written here by name.
 * The symbols are read back from this program's own file. */
#include "profile/dwarf.h"
#include "profile/symbolize.h"
#include "harness.h"

#include <link.h>

void maps_fn(void);
void maps_next(void);

#if defined(__aarch64__) || defined(__arm__)
/* the assembler's own: $x at the code, $d at the data, $x after it */
__asm__(".text\n.globl maps_fn\nmaps_fn:\nnop\n.long 0\nnop\nnop\nnop\n"
	".globl maps_next\nmaps_next:\nnop\n");
#define AT_CODE 0
#define AT_DATA 4
#define AT_CODE_AGAIN 8
#define AT_LAST 16
#else
__asm__(".text\n.globl maps_fn\nmaps_fn:\n"
	"\"$x\":\n.long 0\n\"$d\":\n.long 0\n\"$x.1\":\n.long 0\n"
	"\"$a\":\n.long 0\n\"$t.22\":\n.long 0\n"
	".globl maps_next\nmaps_next:\n\"$x.2\":\n.long 0\n");
#define AT_CODE 0
#define AT_DATA 4
#define AT_CODE_AGAIN 9
#define AT_LAST 17
#endif

static int first_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
	(void)size;
	*(uint64_t *)ctx = info->dlpi_addr;	/* the program's own load bias */
	return 1;
}

/* The name dw_module_symbol gives @off bytes into @fn, or "" for none. */
static const char *name_at(struct dw_module *m, void (*fn)(void), uint64_t off,
			   uint64_t *start)
{
	uint64_t bias = 0, size, at;
	const char *name;

	dl_iterate_phdr(first_object, &bias);
	at = (uint64_t)(uintptr_t)fn - bias + off;
	if (dw_module_symbol(m, at, &name, start, &size))
		return "";
	*start += bias;
	return name;
}

static void test_mapping_symbols_name_nothing(void)
{
	static const uint64_t offs[] = { AT_CODE, AT_DATA, AT_CODE_AGAIN, AT_LAST };
	struct dw_module *m = NULL;
	uint64_t start;

#ifndef HAVE_LIBDW
	CHECK_ERR(dw_module_open("/proc/self/exe", -1, false, &m), -EOPNOTSUPP);
	t_case_skip("hwprof was built without libdw: no symbols");
	return;
#endif
	CHECK_ERR(dw_module_open("/proc/self/exe", -1, false, &m), 0);
	if (!m)
		return;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		const char *name = name_at(m, maps_fn, offs[i], &start);

		CHECK(!strcmp(name, "maps_fn") && start == (uint64_t)(uintptr_t)maps_fn,
		      "maps_fn+%llu: named '%s' at %#llx, want maps_fn at %p",
		      (unsigned long long)offs[i], name, (unsigned long long)start,
		      (void *)maps_fn);
	}
	CHECK(!strcmp(name_at(m, maps_next, 0, &start), "maps_next"),
	      "maps_next+0: named '%s'", name_at(m, maps_next, 0, &start));
	dw_module_close(m);
}

int main(void)
{
	t_init();
	t_run(test_mapping_symbols_name_nothing);
	return t_done();
}
