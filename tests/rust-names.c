// SPDX-License-Identifier: MIT
/* Functions named as rustc names them, without rustc: asm labels give the
 * symbols Rust's legacy mangling (_ZN...17h<hash>E) and its v0 mangling
 * (_R...). Built by tests/cli/test_demangle.py. */
#include <stdlib.h>

unsigned long legacy_spin(unsigned long n) __asm__("_ZN7mycrate6legacy4spin17h0123456789abcdefE");
unsigned long v0_spin(unsigned long n) __asm__("_RNvNtCs1234_7mycrate5inner4spin");

__attribute__((noinline)) unsigned long legacy_spin(unsigned long n)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i;
	return x;
}

__attribute__((noinline)) unsigned long v0_spin(unsigned long n)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i ^ 1;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;

	return (int)(legacy_spin(n) + v0_spin(n)) & 1;
}
