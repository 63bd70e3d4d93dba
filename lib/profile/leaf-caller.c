// SPDX-License-Identifier: MIT
/* The caller that a frame-pointer chain skips. The kernel's walk starts at
 * the sampled PC, then returns through the frame records from the frame
 * pointer; a function that has not stored its own record yet (arm64's leaf
 * functions keep none: GCC's -momit-leaf-frame-pointer; x86-64's leaf
 * functions that keep nothing on the stack, even with
 * -fno-omit-frame-pointer; any function before its prologue's stp x29, x30
 * or push %rbp, or after its epilogue) leaves the frame pointer at its
 * caller's record, whose return address is the caller's caller's. Its own
 * return address is then still where the call put it: on arm64 in the link
 * register, which arm64 samples carry (regs.c's fp_mask; perf 5.19 records
 * it too); on x86-64 on the stack, at an offset of the stack pointer, of
 * which x86-64 samples carry a few words (regs.c's fp_stack: without the
 * registers, which would make perf read the samples as DWARF's). Where the
 * CFI at the PC says the return address is in that register, or at an
 * offset of a CFA that is the stack pointer's (so the function has set up
 * no frame of its own), that is the missing caller. The CFI is read once a
 * (module, address). */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>

/* arm64's and x86-64's user addresses, unless a program asks mmap for more */
#define USER_ADDR_BITS 48

struct ra_site {
	struct location loc;
	int8_t reg;		/* the return address's DWARF register, or -1 */
	/* or its offset from the stack pointer, where it is on the stack
	 * and the CFA is the stack pointer's (x86-64), or -1 */
	int32_t sp_offset;
	int e_machine;
};

static bool ra_eq(size_t idx, const void *key, const void *ctx)
{
	const struct leaf_callers *lc = ctx;
	const struct location *loc = key;

	return lc->v[idx].loc.dso == loc->dso && lc->v[idx].loc.addr == loc->addr;
}

/* Where the return address is at module address @vaddr of @mod: @rs's
 * register or offset from the stack pointer. */
static void ra_site_read(struct ra_site *rs, struct dw_module *mod, uint64_t vaddr)
{
	const struct regs_arch *a = regs_arch_of(dw_module_elf_machine(mod));
	int64_t offset;
	int reg = -1;

	if (!a)
		return;
	rs->e_machine = a->e_machine;
	/* one CFI lookup: where samples of the machine keep the return
	 * address, a register (arm64) or the stack (x86-64) */
	if (a->fp_mask && dw_module_ra_rule(mod, vaddr, &reg) == DW_RA_IN_REGISTER) {
		/* a return address "in" the PC's own column is no caller
		 * (x86-64's CFI never says so; a file made up to might) */
		if (reg >= 0 && reg <= INT8_MAX && reg != a->ip)
			rs->reg = (int8_t)reg;
	} else if (a->fp_stack && !dw_module_ra_slot(mod, vaddr, &reg, &offset) &&
		   reg == a->sp && offset >= 0 && offset <= INT32_MAX) {
		rs->sp_offset = (int32_t)offset;
	}
}

/* Where the return address is at @loc, as its module's CFI says. */
static const struct ra_site *ra_site_of(struct hwp_profile *p, const struct location *loc)
{
	struct leaf_callers *lc = &p->leaf_callers;
	uint64_t h = hash_mix(hash_u64(loc->addr), loc->dso);
	long i = hidx_find(&lc->idx, h, ra_eq, loc, lc);
	struct dw_module *mod;
	struct ra_site *rs;
	uint64_t vaddr;

	if (i >= 0)
		return &lc->v[i];
	if (vec_reserve(&lc->v, &lc->cap, lc->nr + 1, sizeof(*lc->v)) ||
	    hidx_add(&lc->idx, h, lc->nr))
		return NULL;
	rs = &lc->v[lc->nr++];
	*rs = (struct ra_site){ .loc = *loc, .reg = -1, .sp_offset = -1 };
	mod = symbolize_module(p->sym, loc->dso);
	if (mod && dw_module_vaddr(mod, loc->addr, &vaddr))
		ra_site_read(rs, mod, vaddr);
	return rs;
}

/* The word at @offset from the user stack pointer, in @s's copy of the
 * stack, which the kernel takes from there: -ENOENT where the copy does
 * not reach it. */
static int stack_word(const struct pd_sample *s, int32_t offset, uint64_t *v)
{
	if (!s->stack || (uint64_t)offset + sizeof(*v) > s->stack_dyn_size)
		return -ENOENT;
	memcpy(v, s->stack + offset, sizeof(*v));
	return 0;
}

/* The return address in @rs's register of @s: 0, or -ENOENT. */
static int reg_word(const struct regs_arch *a, const struct pd_sample *s,
		    const struct ra_site *rs, uint64_t pc, uint64_t *v)
{
	if (!s->regs_abi || !s->regs_mask)
		return -ENOENT;	/* no registers, or a kernel thread's */
	/* registers of another moment than the chain's (hwprof records the
	 * PC with them; perf does not) are not its caller */
	if (!regs_dwarf_value(a, s, a->ip, v) && *v != pc)
		return -ENOENT;
	return regs_dwarf_value(a, s, rs->reg, v);
}

uint64_t leaf_caller(struct hwp_profile *p, const struct pd_sample *s, uint64_t pc,
		     const struct location *loc)
{
	const struct regs_arch *a;
	const struct ra_site *rs;
	uint64_t v;

	if (!s->regs_mask && !s->stack_dyn_size)
		return 0;	/* neither registers nor stack, or a kernel thread's */
	rs = ra_site_of(p, loc);
	if (!rs || !(a = regs_arch_of(rs->e_machine)))
		return 0;
	/* the stack's copy is of the moment of the chain's first user frame:
	 * the kernel takes both from the same user registers */
	if (rs->reg >= 0 ? reg_word(a, s, rs, pc, &v) :
	    rs->sp_offset < 0 || stack_word(s, rs->sp_offset, &v))
		return 0;
	/* bits above a user address: a return address signed by pointer
	 * authentication (paciasp), whose key the sample does not have */
	if (v < 4096 || v >> USER_ADDR_BITS)
		return 0;
	return v;
}

void leaf_callers_free(struct leaf_callers *lc)
{
	hidx_release(&lc->idx);
	free(lc->v);
	memset(lc, 0, sizeof(*lc));
}
