/* SPDX-License-Identifier: MIT */
/* The code of the small modules that the report fuzz target's inputs name
 * (make.sh builds them; README.md in this folder says what each is for).
 * Nothing runs it: it is here for its symbols, lines and inlines. A
 * static helper() here and another in mod-other.c give two symbols of one
 * name; nosize has no size, as hand-written assembly often has none. */
void mod_other(unsigned long n);
void mod_outer(unsigned long n);
void _start(void);

volatile unsigned long mod_sink;

static inline __attribute__((always_inline)) unsigned long mod_inlined(unsigned long x)
{
	return x * 3 + (x >> 2);
}

static __attribute__((noinline)) void helper(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		mod_sink += mod_inlined(i);
}

__attribute__((noinline)) void mod_outer(unsigned long n)
{
	helper(n);
	mod_other(n);
	mod_sink ^= n;
}

__asm__(".text\n.globl mod_nosize\nmod_nosize:\n\tnop\n\tnop\n\tret\n");

void _start(void)
{
	for (;;)
		mod_outer(100);
}
