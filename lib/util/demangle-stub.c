// SPDX-License-Identifier: MIT
/* Built without libiberty: names are shown as the symbol tables spell them. */
#include "util/demangle.h"

bool demangle(const char *name, struct strbuf *sb)
{
	(void)name;
	(void)sb;
	return false;
}

const char *demangle_unavailable(void)
{
	return "hwprof was built without libiberty (Debian: libiberty-dev), which demangles C++ and Rust names";
}
