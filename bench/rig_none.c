// SPDX-License-Identifier: MIT
// Without the tools (SPRING_BUILD_TOOLS off) there is no rig reader: no rig scenario.
#include "bench.h"

void rig_register(const char *rig_file)
{
	(void)rig_file;
}

// Nor a VRM reader: no VRM scenarios.
void vrm_register(const char *source_dir)
{
	(void)source_dir;
}
