// SPDX-License-Identifier: MIT
/* The public header compiles alone, as strict C11. */
#include <hwprof/hwprof.h>

int main(void)
{
	HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_PROCESS);

	return o.sz == sizeof(o) && hwp_version() ? 0 : 1;
}
