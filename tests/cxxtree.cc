// SPDX-License-Identifier: MIT
// calltree.c's call tree in C++, for the DWARF call-chain tests, which
// build it themselves with -O2 -fomit-frame-pointer: leaf() does the work,
// reached as main -> a -> b -> leaf for two thirds of it and main -> c ->
// leaf for the other third. What C++ adds to the unwind tables is there:
// functions in a namespace, a class whose method is inlined into leaf(), a
// try/catch inlined into b() and c() (CIEs with a personality routine and
// an LSDA, augmentation "zPLR"), a cleanup of a std::vector in a() (a
// landing pad), and an exception thrown by leaf() on c()'s path every call.
//
// Usage: cxxtree ROUNDS   (~3 units of calltree.c's work a round)
#include <cstdlib>
#include <vector>

namespace cxxtree {

volatile unsigned long sink;

constexpr unsigned long unit = 1000000UL;	// leaf iterations a unit of work

struct Done {
	unsigned long value;
};

class Acc {
public:
	// Inlined into leaf(): DWARF records it as an inlined subroutine.
	inline void add(unsigned long i)
	{
		v += i ^ (v >> 3);
		sink = v;
	}
	unsigned long v = 0;
};

__attribute__((noinline)) unsigned long leaf(unsigned long n)
{
	Acc acc;

	for (unsigned long i = 0; i < n; i++)
		acc.add(i);
	if (n & 1)
		throw Done{ acc.v };
	return acc.v;
}

static inline unsigned long guarded(unsigned long n)
{
	try {
		return leaf(n);
	} catch (const Done &d) {
		return d.value;
	}
}

// Each call is followed by work of its caller: no tail call leaves a
// caller off the stack.
__attribute__((noinline)) unsigned long b(unsigned long n)
{
	return guarded(n) * 3 + sink;
}

__attribute__((noinline)) unsigned long a(unsigned long n)
{
	std::vector<unsigned long> v{ b(n), sink };

	return v[0] * 5 + v[1];
}

__attribute__((noinline)) unsigned long c(unsigned long n)
{
	return guarded(n) * 7 + sink;
}

} // namespace cxxtree

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 0;

	if (rounds <= 0)
		return 2;
	for (long r = 0; r < rounds; r++) {
		cxxtree::sink += cxxtree::a(2 * cxxtree::unit);
		cxxtree::sink += cxxtree::c(cxxtree::unit + 1);	// leaf throws
	}
	return 0;
}
