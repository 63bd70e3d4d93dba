// SPDX-License-Identifier: MIT
/* The CFI rule of the return address (dw_module_ra_rule) and its stack
 * slot (dw_module_ra_slot), which tell a report whether a frame-pointer
 * chain skipped a caller and where it is (lib/profile/leaf-caller.c):
 * functions of this program written in assembly with their CFI (a leaf
 * whose return address stays in its register, one that saves it and
 * restores it, one that marks it undefined, one without CFI), read back
 * from this program's own file. */
#include "profile/dwarf.h"
#include "sample/sample.h"
#include "harness.h"

#include <link.h>

void cfi_leaf(void);
void cfi_saved(void);
void cfi_outermost(void);
void cfi_none(void);

/* RA_REG: the return address column; ENTRY: its rule at a function's
 * entry; SAVED_AT, RESTORED_AT: the offsets in cfi_saved after its save
 * and after its restore. */
#if defined(__aarch64__)
#define RA_REG 30
#define SAVE "stp x29, x30, [sp, #-16]!\n.cfi_def_cfa_offset 16\n" \
	     ".cfi_offset 29, -16\n.cfi_offset 30, -8\n"
#define RESTORE "ldp x29, x30, [sp], #16\n.cfi_restore 30\n.cfi_restore 29\n" \
		".cfi_def_cfa_offset 0\n"
#define ENTRY DW_RA_IN_REGISTER	/* arm64's return address comes in x30 */
#define SAVED_AT 4
#define RESTORED_AT 8
#define LEAF_RULE ""
#define UNDEFINED ".cfi_undefined x30\n"
#define NOP "nop\n"
#define SP 31
#define ENTRY_SLOT -ENOENT	/* in x30, on no stack */
#define SAVED_SLOT 8		/* x30 at CFA - 8, the CFA sp + 16 */
#elif defined(__x86_64__)
#define RA_REG 16
/* x86-64's return address comes on the stack: a rule that keeps it in
 * its column is written out, as no compiler would */
#define SAVE "push %rbp\n.cfi_def_cfa_offset 16\n.cfi_offset rbp, -16\n"
#define RESTORE "pop %rbp\n.cfi_def_cfa_offset 8\n.cfi_same_value rip\n"
#define ENTRY DW_RA_ELSEWHERE	/* on the stack */
#define SAVED_AT 1
#define RESTORED_AT 2
#define LEAF_RULE ".cfi_same_value rip\n"
#define UNDEFINED ".cfi_undefined rip\n"
#define NOP "nop\n"
#define SP 7
#define ENTRY_SLOT 0		/* at CFA - 8, the CFA rsp + 8 */
#define SAVED_SLOT 8		/* the CFA rsp + 16 after the push */
#endif

#ifdef RA_REG
#define FUNCTION(name, body) \
	".globl " name "\n.type " name ", %function\n" name ":\n" body \
	".size " name ", .-" name "\n"
__asm__(".text\n"
	FUNCTION("cfi_leaf", ".cfi_startproc\n" LEAF_RULE NOP "ret\n.cfi_endproc\n")
	FUNCTION("cfi_saved", ".cfi_startproc\n" SAVE RESTORE "ret\n.cfi_endproc\n")
	FUNCTION("cfi_outermost", ".cfi_startproc\n" UNDEFINED NOP "ret\n.cfi_endproc\n")
	FUNCTION("cfi_none", NOP "ret\n"));

static int first_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
	(void)size;
	*(uint64_t *)ctx = info->dlpi_addr;	/* the program's own load bias */
	return 1;
}

static int rule_at(struct dw_module *m, void (*fn)(void), uint64_t off, int *reg)
{
	uint64_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	*reg = -1;
	return dw_module_ra_rule(m, (uint64_t)(uintptr_t)fn - bias + off, reg);
}

static void check_rules(void)
{
	struct dw_module *m = NULL;
	int reg;

#ifndef HAVE_LIBDW
	CHECK_ERR(dw_module_open("/proc/self/exe", -1, false, &m), -EOPNOTSUPP);
	return;
#endif
	CHECK_ERR(dw_module_open("/proc/self/exe", -1, false, &m), 0);
	if (!m)
		return;
	CHECK_ERR(rule_at(m, cfi_leaf, 0, &reg), DW_RA_IN_REGISTER);
	CHECK(reg == RA_REG, "cfi_leaf: the return address in register %d", reg);
	CHECK_ERR(rule_at(m, cfi_saved, 0, &reg), ENTRY);
	CHECK_ERR(rule_at(m, cfi_saved, SAVED_AT, &reg), DW_RA_ELSEWHERE);
	CHECK_ERR(rule_at(m, cfi_saved, RESTORED_AT, &reg), DW_RA_IN_REGISTER);
	CHECK_ERR(rule_at(m, cfi_outermost, 0, &reg), DW_RA_UNDEFINED);
	CHECK_ERR(rule_at(m, cfi_none, 0, &reg), -ENOENT);
	dw_module_close(m);
}

static int slot_at(struct dw_module *m, void (*fn)(void), uint64_t off, int *base,
		   int64_t *offset)
{
	uint64_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	*base = -1;
	*offset = -1;
	return dw_module_ra_slot(m, (uint64_t)(uintptr_t)fn - bias + off, base, offset);
}

/* The slot of the return address, from the stack pointer, where the CFA is
 * the stack pointer's: at the entry on x86-64 (pushed by the call), after
 * a save on both; none where the address is in a register. */
static void check_slots(void)
{
	struct dw_module *m = NULL;
	int64_t offset;
	int base;

#ifndef HAVE_LIBDW
	t_case_skip("without libdw, no CFI");
	return;
#endif
	CHECK_ERR(dw_module_open("/proc/self/exe", -1, false, &m), 0);
	if (!m)
		return;
	CHECK_ERR(slot_at(m, cfi_saved, 0, &base, &offset), ENTRY_SLOT);
	if (ENTRY_SLOT == 0)
		CHECK(base == SP && offset == 0, "cfi_saved's entry: %d%+lld", base,
		      (long long)offset);
	CHECK_ERR(slot_at(m, cfi_saved, SAVED_AT, &base, &offset), 0);
	CHECK(base == SP && offset == SAVED_SLOT, "cfi_saved after its save: %d%+lld",
	      base, (long long)offset);
	CHECK_ERR(slot_at(m, cfi_leaf, 0, &base, &offset), -ENOENT);
	CHECK_ERR(slot_at(m, cfi_outermost, 0, &base, &offset), -ENOENT);
	CHECK_ERR(slot_at(m, cfi_none, 0, &base, &offset), -ENOENT);
	dw_module_close(m);
}
#else
static void check_rules(void)
{
	t_case_skip("no CFI written here for this architecture");
}

static void check_slots(void)
{
	t_case_skip("no CFI written here for this architecture");
}
#endif

int main(void)
{
	t_init();
	t_run(check_rules);
	t_run(check_slots);
	return t_done();
}
