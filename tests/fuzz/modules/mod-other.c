/* SPDX-License-Identifier: MIT */
/* The second file of the fuzz modules (mod.c): a second static helper(). */
void mod_other(unsigned long n);

extern volatile unsigned long mod_sink;

static __attribute__((noinline)) void helper(unsigned long n)
{
	while (n--)
		mod_sink += n;
}

__attribute__((noinline)) void mod_other(unsigned long n)
{
	helper(n);
}
