// SPDX-License-Identifier: MIT
// The public header compiles alone as C++, and links: extern "C" is right.
#include <hwprof/hwprof.h>

int main()
{
	struct hwp_stats_summary s = {};
	double v[] = { 1, 2, 3 };

	s.sz = sizeof(s);
	return hwp_stats_summarize(v, 3, &s) == 0 && s.mean == 2 ? 0 : 1;
}
