// SPDX-License-Identifier: MIT
#include "core/core.h"

HWP_API const char *hwp_version(void)
{
	return HWPROF_VERSION;
}
