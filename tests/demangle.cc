// SPDX-License-Identifier: MIT
// C++ functions whose symbols are mangled (the Itanium ABI): in a namespace,
// and a template. Built by tests/cli/test_demangle.py with g++.
#include <cstdlib>

namespace bench {
__attribute__((noinline)) unsigned long mapwork(unsigned long n)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i * 3;
	return x;
}

template <typename T> __attribute__((noinline)) T twice(T n)
{
	volatile T x = 0;

	for (T i = 0; i < n; i++)
		x += i;
	return x;
}
} // namespace bench

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], nullptr, 10) : 100000000;

	return (int)(bench::mapwork(n) + bench::twice<unsigned long>(n / 3)) & 1;
}
