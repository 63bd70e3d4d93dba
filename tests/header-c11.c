// SPDX-License-Identifier: MIT
/* The public header compiles alone, as strict C11. */
#include <hwprof/hwprof.h>

int main(void)
{
	HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_PROCESS);
	HWP_OPTS(hwp_write_opts, bare);	/* no fields: still C11 -pedantic */

	return o.sz == sizeof(o) && bare.sz == sizeof(bare) && hwp_version() ? 0 : 1;
}
