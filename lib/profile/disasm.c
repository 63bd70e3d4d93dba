// SPDX-License-Identifier: MIT
/* Disassembly through capstone, in AT&T syntax on x86 as perf annotate and
 * objdump show it. One instruction buffer is reused for every decode.
 * capstone is loaded on first use (util/dynlib.h says why): its 77,000
 * relocations would cost every start of hwprof, stat included. */
#include "core/core.h"
#include "profile/disasm.h"
#include "util/dynlib.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <stdlib.h>

/* The major version the headers describe: cs_insn's layout changes with it. */
#define LIBCAPSTONE "libcapstone.so." DYNLIB_STR(CS_API_MAJOR)

#define CS_FUNCS(X) \
	X(cs_open) X(cs_option) X(cs_malloc) X(cs_free) X(cs_close) X(cs_disasm_iter)

DYNLIB(CS_FUNCS, LIBCAPSTONE, "capstone", "libcapstone4")

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
	if (dl_load()) {
		static bool said;

		/* once: the instructions are shown without their disassembly */
		if (!said)
			pr_warn("%s; instructions are shown without their disassembly",
				dl_load());
		said = true;
		return -ELIBACC;
	}
	switch (e_machine) {
	case EM_X86_64: arch = CS_ARCH_X86; mode = CS_MODE_64; break;
	case EM_386: arch = CS_ARCH_X86; mode = CS_MODE_32; break;
	case EM_AARCH64: arch = CS_ARCH_ARM64; mode = CS_MODE_ARM; break;
	default: return -EOPNOTSUPP;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	if (dl.cs_open(arch, mode, &d->handle) != CS_ERR_OK) {
		free(d);
		return -EOPNOTSUPP;
	}
	if (arch == CS_ARCH_X86)
		dl.cs_option(d->handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	d->insn = dl.cs_malloc(d->handle);
	if (!d->insn) {
		dl.cs_close(&d->handle);
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
	dl.cs_free(d->insn, 1);
	dl.cs_close(&d->handle);
	free(d);
}

int disasm_one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
	       char *text, size_t size)
{
	const uint8_t *p = code;
	size_t n = len;
	uint64_t a = addr;

	if (!dl.cs_disasm_iter(d->handle, &p, &n, &a, d->insn))
		return -HWP_ERR_FORMAT;
	if (d->insn->op_str[0])
		snprintf(text, size, "%s %s", d->insn->mnemonic, d->insn->op_str);
	else
		snprintf(text, size, "%s", d->insn->mnemonic);
	return d->insn->size;
}
