// SPDX-License-Identifier: MIT
// The rules both chain kinds share: parameters (default, root-to-tip gradient), the per-bone
// transition, freeing a created block.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain_internal.h"
#include "spring_internal.h"

int spring_chain_internal_params_unset(spring_params p)
{
	return p.stiffness == 0.0f && p.damping == 0.0f && p.mass == 0.0f;
}

spring_result spring_chain_internal_base_params(spring_params given, spring_params *out)
{
	if (spring_chain_internal_params_unset(given)) {
		*out = spring_params_default();
		return SPRING_OK;
	}
	spring_result r = spring_params_validate(given);
	if (r == SPRING_OK) {
		*out = given;
	}
	return r;
}

spring_result spring_chain_internal_bone_params(spring_params own, spring_params chain, spring_params tip, int i, int n,
                                                spring_params *out)
{
	if (!spring_chain_internal_params_unset(own)) {
		spring_result r = spring_params_validate(own);
		if (r == SPRING_OK) {
			*out = own;
		}
		return r;
	}
	spring_params base;
	spring_result r = spring_chain_internal_base_params(chain, &base);
	if (r != SPRING_OK) {
		return r;
	}
	if (spring_chain_internal_params_unset(tip) || i <= 0 || n < 2) {
		*out = base;
		return SPRING_OK;
	}
	if (i >= n - 1) {
		r = spring_params_validate(tip);
		if (r == SPRING_OK) {
			*out = tip;
		}
		return r;
	}
	double t = (double)i / (double)(n - 1);
	double f0 = (double)spring_frequency_hz(base), f1 = (double)spring_frequency_hz(tip);
	double z0 = (double)spring_damping_ratio(base), z1 = (double)spring_damping_ratio(tip);
	return spring_params_from_frequency((float)(f0 + (f1 - f0) * t), (float)(z0 + (z1 - z0) * t), out);
}

spring_result spring_chain_internal_stepper(spring_integrator integrator, spring_params p, float step, spring_stepper *out)
{
	if (integrator == SPRING_INTEGRATOR_SEMI_IMPLICIT && !spring_semi_implicit_is_stable(p, step)) {
		return SPRING_ERROR_UNSTABLE;
	}
	return spring_stepper_init(out, p, step);
}
