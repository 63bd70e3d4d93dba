// SPDX-License-Identifier: MIT
/* Disassembly through capstone, in AT&T syntax on x86 as perf annotate and
 * objdump show it. One instruction buffer is reused for every decode.
 * capstone is loaded on first use (dwarf.c says why): its 77,000
 * relocations would cost every start of hwprof, stat included. */
#include "sample/sample.h"

#include <capstone/capstone.h>
#include <dlfcn.h>
#include <elf.h>
#include <pthread.h>
#include <stdlib.h>

#define STR_(x) #x
#define STR(x) STR_(x)
/* The major version the headers describe: cs_insn's layout changes with it. */
#define LIBCAPSTONE "libcapstone.so." STR(CS_API_MAJOR)

#define CS_FUNCS(X) \
	X(cs_open) X(cs_option) X(cs_malloc) X(cs_free) X(cs_close) X(cs_disasm_iter)

static struct {
#define X(fn) __typeof__(fn) *fn;
	CS_FUNCS(X)
#undef X
} cs;

static pthread_once_t cs_once = PTHREAD_ONCE_INIT;
static bool cs_loaded;

static void cs_load_once(void)
{
	void *h = dlopen(LIBCAPSTONE, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		pr_warn("capstone (%s) cannot be loaded: %s; instructions are shown without their disassembly (install it with: sudo apt-get install libcapstone4)",
			LIBCAPSTONE, dlerror());
		return;
	}
#define X(fn) *(void **)&cs.fn = dlsym(h, #fn);
	CS_FUNCS(X)
#undef X
	cs_loaded = cs.cs_open && cs.cs_option && cs.cs_malloc && cs.cs_free &&
		    cs.cs_close && cs.cs_disasm_iter;
}

struct disasm {
	csh handle;
	cs_insn *insn;
};

int disasm_open(int e_machine, struct disasm **out)
{
	struct disasm *d;
	cs_arch arch;
	cs_mode mode;

	*out = NULL;
	pthread_once(&cs_once, cs_load_once);
	if (!cs_loaded)
		return -ELIBACC;
	switch (e_machine) {
	case EM_X86_64: arch = CS_ARCH_X86; mode = CS_MODE_64; break;
	case EM_386: arch = CS_ARCH_X86; mode = CS_MODE_32; break;
	case EM_AARCH64: arch = CS_ARCH_ARM64; mode = CS_MODE_ARM; break;
	default: return -EOPNOTSUPP;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	if (cs.cs_open(arch, mode, &d->handle) != CS_ERR_OK) {
		free(d);
		return -EOPNOTSUPP;
	}
	if (arch == CS_ARCH_X86)
		cs.cs_option(d->handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	d->insn = cs.cs_malloc(d->handle);
	if (!d->insn) {
		cs.cs_close(&d->handle);
		free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	cs.cs_free(d->insn, 1);
	cs.cs_close(&d->handle);
	free(d);
}

int disasm_one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
	       char *text, size_t size)
{
	const uint8_t *p = code;
	size_t n = len;
	uint64_t a = addr;

	if (!cs.cs_disasm_iter(d->handle, &p, &n, &a, d->insn))
		return -HWP_ERR_FORMAT;
	if (d->insn->op_str[0])
		snprintf(text, size, "%s %s", d->insn->mnemonic, d->insn->op_str);
	else
		snprintf(text, size, "%s", d->insn->mnemonic);
	return d->insn->size;
}
