// SPDX-License-Identifier: MIT
/* The caller that a frame-pointer chain skips. The kernel's walk starts at
 * the sampled PC, then returns through the frame records from the frame
 * pointer; a function that has not stored its own record yet (arm64's leaf
 * functions keep none: GCC's -momit-leaf-frame-pointer; any function
 * before its prologue's stp x29, x30) leaves the frame pointer at its
 * caller's record, whose return address is the caller's caller's. Its own
 * return address is then still in a register, the link register, which
 * arm64 samples carry (regs.c's fp_mask; perf 5.19 records it too): where
 * the CFI at the PC says the return address is in that register, it is
 * the missing caller. The CFI is read once a (module, address). */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>

/* arm64's user addresses, unless a program asks mmap for more (52 bits) */
#define USER_ADDR_BITS 48

struct ra_site {
	struct location loc;
	int8_t reg;		/* the return address's DWARF register, or -1 */
	int e_machine;
};

static bool ra_eq(size_t idx, const void *key, const void *ctx)
{
	const struct leaf_callers *lc = ctx;
	const struct location *loc = key;

	return lc->v[idx].loc.dso == loc->dso && lc->v[idx].loc.addr == loc->addr;
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
	int reg = -1;

	if (i >= 0)
		return &lc->v[i];
	if (vec_reserve(&lc->v, &lc->cap, lc->nr + 1, sizeof(*lc->v)) ||
	    hidx_add(&lc->idx, h, lc->nr))
		return NULL;
	rs = &lc->v[lc->nr++];
	*rs = (struct ra_site){ .loc = *loc, .reg = -1 };
	mod = symbolize_module(p->sym, loc->dso);
	if (!mod || !dw_module_vaddr(mod, loc->addr, &vaddr) ||
	    dw_module_ra_rule(mod, vaddr, &reg) != DW_RA_IN_REGISTER || reg < 0 ||
	    reg > INT8_MAX)
		return rs;
	rs->reg = (int8_t)reg;
	rs->e_machine = dw_module_elf_machine(mod);
	return rs;
}

uint64_t leaf_caller(struct hwp_profile *p, const struct pd_sample *s, uint64_t pc,
		     const struct location *loc)
{
	const struct regs_arch *a;
	const struct ra_site *rs;
	uint64_t v;

	if (!s->regs_abi || !s->regs_mask)
		return 0;	/* no registers, or a kernel thread's */
	rs = ra_site_of(p, loc);
	/* a return address "in" the PC's own column is no caller (x86-64's
	 * CFI never says so; a file made up to might) */
	if (!rs || rs->reg < 0 || !(a = regs_arch_of(rs->e_machine)) || rs->reg == a->ip)
		return 0;
	/* registers of another moment than the chain's (hwprof records the
	 * PC with them; perf does not) are not its caller */
	if (!regs_dwarf_value(a, s, a->ip, &v) && v != pc)
		return 0;
	/* bits above a user address: a return address signed by pointer
	 * authentication (paciasp), whose key the sample does not have */
	if (regs_dwarf_value(a, s, rs->reg, &v) || v < 4096 || v >> USER_ADDR_BITS)
		return 0;
	return v;
}

void leaf_callers_free(struct leaf_callers *lc)
{
	hidx_release(&lc->idx);
	free(lc->v);
	memset(lc, 0, sizeof(*lc));
}
