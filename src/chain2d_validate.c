// SPDX-License-Identifier: MIT
// spring_chain2d's checks: of a description (every field, each segment's spring under the
// integrator and step it will be stepped with), of the memory init is given, of a root and of a
// frame time. They call nothing of the chain's other files; the checks of single settings, which
// restore runs too, are inline in chain2d_block_internal.h.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/chain.h"

#include "chain2d_block_internal.h"
#include "chain2d_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

// Derived rest thresholds: the tip moves at most REST_TIP_FRACTION of the chain's length when
// every segment is off by the rest angle; never below REST_ANGLE_MIN (a few float steps of pi).
#define REST_TIP_FRACTION 1e-4
#define REST_ANGLE_MIN 1e-6f
#define REST_SPEED_PER_ANGLE 10.0f

static spring_result set_error(spring_error *error, spring_result r, int index, const char *field, const char *fmt, ...)
{
	spring_error_step at = {SPRING_ELEMENT_SEGMENT, index};
	va_list args;
	va_start(args, fmt);
	spring_internal_fail_v(error, r, "chain2d", &at, index >= 0 ? 1 : 0, field, fmt, args);
	va_end(args);
	return r;
}

spring_result spring_chain2d_internal_check_root(spring_xform2 root)
{
	// The scale is ignored, so it is not checked. Positions stay within the chains' coordinate
	// range (chain.h), so every joint the chain computes stays finite.
	if (!spring_internal_finite(root.position.x) || !spring_internal_finite(root.position.y) ||
	    !spring_internal_finite(root.angle)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return fabsf(root.position.x) <= SPRING_CHAIN_MAX_COORDINATE && fabsf(root.position.y) <= SPRING_CHAIN_MAX_COORDINATE
	           ? SPRING_OK
	           : SPRING_ERROR_OUT_OF_RANGE;
}

spring_xform2 spring_chain2d_internal_clean_root(spring_xform2 root)
{
	spring_xform2 r = {root.position, spring_det_fold_float((double)root.angle), {1.0f, 1.0f}}; // finite (checked)
	return r;
}

spring_result spring_chain2d_internal_check_frame_dt(float frame_dt)
{
	if (!spring_internal_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return frame_dt < 0.0f ? SPRING_ERROR_OUT_OF_RANGE : SPRING_OK;
}

// The default rest angle: REST_TIP_FRACTION L / sum_i D_i (see chain.h), at least REST_ANGLE_MIN.
static float derived_rest_delta(const spring_chain2d_segment *segments, int n)
{
	double total = 0.0, lever = 0.0;
	for (int i = n - 1; i >= 0; i--) {
		total += (double)segments[i].length; // length from segment i's pivot to the tip
		lever += total;
	}
	float angle = (float)(REST_TIP_FRACTION * total / lever);
	return angle > REST_ANGLE_MIN ? angle : REST_ANGLE_MIN;
}

// ---------------------------------------------------------------------------------------------
// Validation of a description

spring_result spring_chain2d_internal_validate_desc(const spring_chain2d_desc *desc, chain2d_config *cfg, spring_error *error)
{
	if (!desc) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "desc", "the description is NULL");
	}
	int n = desc->segment_count;
	if (n < 1 || n > SPRING_CHAIN_MAX_BONES) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "segment_count", "segment_count must be in 1..%d (got %d)",
		                 SPRING_CHAIN_MAX_BONES, n);
	}
	if (!desc->segments) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "segments", "segments is NULL (%d expected)", n);
	}
	if ((int)desc->integrator < 0 || (int)desc->integrator >= (int)SPRING_INTEGRATOR_COUNT) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "integrator", "integrator %d is not a spring_integrator",
		                 (int)desc->integrator);
	}
	if (!spring_internal_finite(desc->step)) {
		return set_error(error, SPRING_ERROR_NOT_FINITE, -1, "step", "step must be finite (got %g)", (double)desc->step);
	}
	float step = desc->step == 0.0f ? SPRING_CLOCK_DEFAULT_STEP : desc->step;
	if (!(step >= SPRING_CHAIN2D_MIN_STEP && step <= 1.0f)) {
		return set_error(error, SPRING_ERROR_OUT_OF_RANGE, -1, "step", "step must be in [%g, 1] seconds, 0 for 1/%d (got %g)",
		                 (double)SPRING_CHAIN2D_MIN_STEP, SPRING_CLOCK_DEFAULT_RATE, (double)desc->step);
	}
	int max_steps = desc->max_steps == 0 ? SPRING_CLOCK_DEFAULT_MAX_STEPS : desc->max_steps;
	if (max_steps < 1 || max_steps > 1000) {
		return set_error(error, SPRING_ERROR_OUT_OF_RANGE, -1, "max_steps", "max_steps must be in 1..1000, 0 for %d (got %d)",
		                 SPRING_CLOCK_DEFAULT_MAX_STEPS, desc->max_steps);
	}
	if (!spring_vec2_is_finite(desc->gravity)) {
		return set_error(error, SPRING_ERROR_NOT_FINITE, -1, "gravity", "gravity must be finite (got %g, %g)",
		                 (double)desc->gravity.x, (double)desc->gravity.y);
	}
	if (!spring_vec2_is_finite(desc->wind)) {
		return set_error(error, SPRING_ERROR_NOT_FINITE, -1, "wind", "wind must be finite (got %g, %g)", (double)desc->wind.x,
		                 (double)desc->wind.y);
	}
	if (spring_chain2d_internal_check_root(desc->root) != SPRING_OK) {
		return set_error(error, SPRING_ERROR_NOT_FINITE, -1, "root", "root position and angle must be finite (got %g, %g, %g)",
		                 (double)desc->root.position.x, (double)desc->root.position.y, (double)desc->root.angle);
	}
	spring_result r = check_range(desc->inertia, INERTIA_MAX);
	if (r != SPRING_OK) {
		return set_error(error, r, -1, "inertia", "inertia must be finite and in [0, %g], 0 for 1 (got %g)", (double)INERTIA_MAX,
		                 (double)desc->inertia);
	}
	const struct {
		float value;
		const char *field, *unit;
	} caps[] = {{desc->max_root_speed, "max_root_speed", "units/s"},
	            {desc->max_root_angular_speed, "max_root_angular_speed", "rad/s"},
	            {desc->rest_delta, "rest_delta", "rad"},
	            {desc->rest_angular_speed, "rest_angular_speed", "rad/s"}};
	for (int k = 0; k < (int)(sizeof caps / sizeof caps[0]); k++) {
		r = check_range(caps[k].value, INFINITY);
		if (r != SPRING_OK) {
			return set_error(error, r, -1, caps[k].field, "%s must be finite and >= 0 %s, 0 for the default (got %g)",
			                 caps[k].field, caps[k].unit, (double)caps[k].value);
		}
	}
	spring_params base;
	r = spring_chain_internal_base_params(desc->params, &base);
	if (r != SPRING_OK) {
		return set_error(error, r, -1, "params", "params must be all zero or a valid spring (k %g, c %g, m %g)",
		                 (double)desc->params.stiffness, (double)desc->params.damping, (double)desc->params.mass);
	}
	if (!spring_chain_internal_params_unset(desc->tip_params)) {
		r = spring_params_validate(desc->tip_params);
		if (r != SPRING_OK) {
			return set_error(error, r, -1, "tip_params", "tip_params must be all zero or a valid spring (k %g, c %g, m %g)",
			                 (double)desc->tip_params.stiffness, (double)desc->tip_params.damping, (double)desc->tip_params.mass);
		}
	}
	for (int i = 0; i < n; i++) {
		const spring_chain2d_segment *s = &desc->segments[i];
		if (!spring_internal_finite(s->length) || !(s->length >= 1e-6f) || s->length > SPRING_CHAIN_MAX_COORDINATE) {
			return set_error(error, spring_internal_finite(s->length) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, i,
			                 "length", "length must be in [1e-6, %g] units (got %g)", (double)SPRING_CHAIN_MAX_COORDINATE,
			                 (double)s->length);
		}
		r = check_angle(s->rest_angle);
		if (r != SPRING_OK) {
			return set_error(error, r, i, "rest_angle", "rest_angle must be finite and within +-%g rad (got %g)",
			                 (double)SPRING_CHAIN2D_MAX_ANGLE, (double)s->rest_angle);
		}
		r = check_limit(s->limit);
		if (r != SPRING_OK) {
			return set_error(error, r, i, "limit", "limit must be 0 (unlimited) or in (0, pi] radians (got %g)",
			                 (double)s->limit);
		}
		r = check_range(s->inertia, INERTIA_MAX);
		if (r != SPRING_OK) {
			return set_error(error, r, i, "inertia", "inertia must be finite and in [0, %g], 0 for the chain's (got %g)",
			                 (double)INERTIA_MAX, (double)s->inertia);
		}
		spring_params p;
		r = spring_chain_internal_bone_params(s->params, base, desc->tip_params, i, n, &p);
		if (r != SPRING_OK && spring_chain_internal_params_unset(s->params)) {
			return set_error(error, r, i, "params", "the root-to-tip gradient gives no valid spring here");
		}
		if (r != SPRING_OK) {
			return set_error(error, r, i, "params", "params must be all zero or a valid spring (k %g, c %g, m %g)",
			                 (double)s->params.stiffness, (double)s->params.damping, (double)s->params.mass);
		}
		spring_stepper probe;
		if (spring_chain_internal_stepper(desc->integrator, p, step, &probe) == SPRING_ERROR_UNSTABLE) {
			return set_error(error, SPRING_ERROR_UNSTABLE, i, "params",
			                 "params (%g Hz, damping ratio %g) are unstable with the semi-implicit integrator at step %g s",
			                 (double)spring_frequency_hz(p), (double)spring_damping_ratio(p), (double)step);
		}
	}
	cfg->step = step;
	cfg->max_steps = max_steps;
	cfg->params = base;
	cfg->rest_delta = desc->rest_delta > 0.0f ? desc->rest_delta : derived_rest_delta(desc->segments, n);
	cfg->rest_angular_speed = desc->rest_angular_speed > 0.0f ? desc->rest_angular_speed : REST_SPEED_PER_ANGLE * cfg->rest_delta;
	return SPRING_OK;
}

spring_result spring_chain2d_internal_check_memory(const void *memory, size_t size, size_t need, const void *out,
                                                   spring_error *error)
{
	if (!out) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "out", "out is NULL");
	}
	if (!memory || ((uintptr_t)memory & (CHAIN2D_ALIGN - 1u)) != 0u) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "memory", "memory must be non-NULL and aligned to %u bytes",
		                 CHAIN2D_ALIGN);
	}
	if (size < need) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "memory", "memory is %zu bytes, %zu needed", size, need);
	}
	return SPRING_OK;
}
