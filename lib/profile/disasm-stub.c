// SPDX-License-Identifier: MIT
/* Built without capstone: instructions show their bytes but no text. */
#include "core/core.h"
#include "profile/disasm.h"

int disasm_open(int e_machine, struct disasm **out)
{
	(void)e_machine;
	*out = NULL;
	return -EOPNOTSUPP;
}

void disasm_close(struct disasm *d)
{
	(void)d;
}

int disasm_one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
	       char *text, size_t size)
{
	(void)d, (void)code, (void)len, (void)addr, (void)text, (void)size;
	return -EOPNOTSUPP;
}
