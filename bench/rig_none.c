// SPDX-License-Identifier: MIT
// Without the tools (SPRING_BUILD_TOOLS off) there is no rig reader: no rig scenario.
#include "bench.h"

void rig_register(const char *rig_file)
{
	(void)rig_file;
}

// Nor a VRM reader: no VRM scenario.
void vrm_register(const char *vrm_dir)
{
	(void)vrm_dir;
}
