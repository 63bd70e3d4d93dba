// SPDX-License-Identifier: MIT
#include "hwprof-internal.h"

HWP_API const char *hwp_version(void)
{
	return HWPROF_VERSION;
}
