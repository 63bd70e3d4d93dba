/* SPDX-License-Identifier: MIT */
/* The other static work() of namesakes.c: the same loop, a quarter of the
 * iterations. */
extern volatile unsigned long namesakes_sink;

void other(unsigned long n);

static __attribute__((noinline)) void work(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i;
	namesakes_sink += acc;
}

__attribute__((noinline)) void other(unsigned long n)
{
	work(n);
}
