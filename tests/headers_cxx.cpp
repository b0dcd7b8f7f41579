// SPDX-License-Identifier: MIT
// Compile-only check: every public header is valid C++ and declares C linkage.
#include <spring/base.h>
#include <spring/batch.h>
#include <spring/chain.h>
#include <spring/math.h>
#include <spring/motion.h>
#include <spring/rig.h>
#include <spring/spring.h>
#include <spring/verify.h>
#include <spring/version.h>

extern "C" int spring_headers_cxx_probe(void);
int spring_headers_cxx_probe(void)
{
	spring_params p = {157.9f, 17.6f, 1.0f};
	spring_state s = {0.0f, 0.0f};
	return spring_params_validate(p) == SPRING_OK && s.x == 0.0f ? 0 : 1;
}
