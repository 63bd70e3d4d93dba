// SPDX-License-Identifier: MIT
/* Disassembly through capstone, in AT&T syntax on x86 as perf annotate and
 * objdump show it. One instruction buffer is reused for every decode. */
#include "sample.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <stdlib.h>

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
	switch (e_machine) {
	case EM_X86_64: arch = CS_ARCH_X86; mode = CS_MODE_64; break;
	case EM_386: arch = CS_ARCH_X86; mode = CS_MODE_32; break;
	case EM_AARCH64: arch = CS_ARCH_ARM64; mode = CS_MODE_ARM; break;
	default: return -EOPNOTSUPP;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	if (cs_open(arch, mode, &d->handle) != CS_ERR_OK) {
		free(d);
		return -EOPNOTSUPP;
	}
	if (arch == CS_ARCH_X86)
		cs_option(d->handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	d->insn = cs_malloc(d->handle);
	if (!d->insn) {
		cs_close(&d->handle);
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
	cs_free(d->insn, 1);
	cs_close(&d->handle);
	free(d);
}

int disasm_one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr, char *text,
	       size_t size)
{
	const uint8_t *p = code;
	size_t n = len;
	uint64_t a = addr;

	if (!cs_disasm_iter(d->handle, &p, &n, &a, d->insn))
		return -HWP_ERR_FORMAT;
	if (d->insn->op_str[0])
		snprintf(text, size, "%s %s", d->insn->mnemonic, d->insn->op_str);
	else
		snprintf(text, size, "%s", d->insn->mnemonic);
	return d->insn->size;
}
