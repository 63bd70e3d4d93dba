/* SPDX-License-Identifier: MIT */
/* Private to the profile stage: instructions decoded for annotation. */
#ifndef HWPROF_PROFILE_DISASM_H
#define HWPROF_PROFILE_DISASM_H

#include <stddef.h>
#include <stdint.h>

/* ---- disasm.c (capstone) or disasm-stub.c ---- */

struct disasm;

/* A disassembler for ELF machine @e_machine: -EOPNOTSUPP without capstone
 * or for a machine it does not know. */
int disasm_open(int e_machine, struct disasm **out);
void disasm_close(struct disasm *d);
/* Decode the instruction at @code (module address @addr) into @text: its
 * length in bytes, or a negative error when the bytes are no instruction. */
int disasm_one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
	       char *text, size_t size);

#endif
