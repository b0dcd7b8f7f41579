// SPDX-License-Identifier: MIT
// The single angle chain's block (the struct, then its per-segment arrays) and what the files of
// spring_chain2d share (not installed): chain2d.c (creation, stepping, settings, queries),
// chain2d_validate.c (the checks of a description and of every input) and chain2d_snapshot.c
// (snapshots and the checks of a restored image). The calls go one way: chain2d_snapshot.c uses
// the other two, chain2d.c uses chain2d_validate.c, which uses neither.
#ifndef SPRING_CHAIN2D_BLOCK_INTERNAL_H
#define SPRING_CHAIN2D_BLOCK_INTERNAL_H

#include "chain2d_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define CHAIN2D_ALIGN 16u

// Float arrays, n entries each, in this order after the struct. The mutable state comes first.
enum {
	ARR_ANGLE,      // world angle of the last step, radians in (-pi, pi]
	ARR_VELOCITY,   // angular velocity of the last step, rad/s
	ARR_PREV_ANGLE, // world angle of the step before (output interpolation)
	ARR_TARGET,     // target world angle of the last step, without forces, (-pi, pi]
	ARR_DEFLECTION, // angle minus target of the last step, rad, never folded (|.| <= 1e6)
	ARR_OFFSET,     // animated offsets the last step used
	ARR_ANIM_FROM,  // animated offsets of the previous frame
	ARR_SIN,        // sine of the angle the last step's field was taken at (its key)
	ARR_COS,        // its cosine
	ARR_KEY,        // that angle; NaN: nothing kept
	ARR_STATE_COUNT,
	ARR_LENGTH = ARR_STATE_COUNT, // segment length, > 0
	ARR_REST,                     // rest local angle, radians, folded onto (-pi, pi]
	ARR_INERTIA,                  // fraction of the pivot's acceleration felt, [0, 100]; 0 none
	ARR_ANIM_TO,                  // animated offsets of the frame submitted by the next update
	ARR_FLOAT_COUNT
};
// spring_params arrays after the float arrays.
enum {
	ARR_PARAMS,     // parameters the segment is stepped with
	ARR_OWN_PARAMS, // the segment's own setting; all zero -> chain default or gradient
	ARR_PARAMS_COUNT
};

// Bounds of the settings (documented in chain.h).
#define INERTIA_MAX 100.0f

// ---------------------------------------------------------------------------------------------
// Layout: each array 16-byte aligned, addressed by offsets from the struct

static inline size_t round_up(size_t x)
{
	return (x + (CHAIN2D_ALIGN - 1u)) & ~(size_t)(CHAIN2D_ALIGN - 1u);
}

static inline size_t header_bytes(void)
{
	return round_up(sizeof(spring_chain2d));
}

static inline size_t float_stride(int n)
{
	return round_up((size_t)n * sizeof(float));
}

static inline size_t params_stride(int n)
{
	return round_up((size_t)n * sizeof(spring_params));
}

static inline size_t stepper_stride(int n)
{
	return round_up((size_t)n * sizeof(spring_chain2d_lane_step_in));
}

static inline size_t total_bytes(int n)
{
	return header_bytes() + (size_t)ARR_FLOAT_COUNT * float_stride(n) + (size_t)ARR_PARAMS_COUNT * params_stride(n) +
	       stepper_stride(n);
}

static inline float *farr(const spring_chain2d *c, int which)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	return (float *)(void *)(base + header_bytes() + (size_t)which * float_stride(c->segment_count));
}

static inline spring_params *parr(const spring_chain2d *c, int which)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	size_t offset = header_bytes() + (size_t)ARR_FLOAT_COUNT * float_stride(c->segment_count);
	return (spring_params *)(void *)(base + offset + (size_t)which * params_stride(c->segment_count));
}

// Each segment's k/m and one-step transition (kept in step with ARR_PARAMS) and its limit: the max
// swing from the target, (0, pi]; 0 unlimited (24 bytes).
static inline spring_chain2d_lane_step_in *steppers(const spring_chain2d *c)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	size_t offset = header_bytes() + (size_t)ARR_FLOAT_COUNT * float_stride(c->segment_count) +
	                (size_t)ARR_PARAMS_COUNT * params_stride(c->segment_count);
	return (spring_chain2d_lane_step_in *)(void *)(base + offset);
}

// ---------------------------------------------------------------------------------------------
// The checks of a setting, shared by the call that takes it and by restore

// A finite value in [0, max] (a limit, an inertia, a cap or a threshold; max INFINITY: >= 0).
static inline spring_result check_range(float value, float max)
{
	if (!spring_internal_finite(value)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return value >= 0.0f && value <= max ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

static inline spring_result check_limit(float limit)
{
	return check_range(limit, (float)SPRING_PI);
}

// A rest angle or an animated offset: finite and within SPRING_CHAIN2D_MAX_ANGLE.
static inline spring_result check_angle(float angle)
{
	if (!spring_internal_finite(angle)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return angle >= -SPRING_CHAIN2D_MAX_ANGLE && angle <= SPRING_CHAIN2D_MAX_ANGLE ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

// Animated offsets (set_animation, a rig's step, restore): each one an angle as check_angle.
static inline spring_result check_offsets(const float *offsets, int n)
{
	for (int i = 0; i < n; i++) {
		spring_result r = check_angle(offsets[i]);
		if (r != SPRING_OK) {
			return r;
		}
	}
	return SPRING_OK;
}

// Gravity and wind (set_forces): finite.
static inline spring_result check_forces(spring_vec2 gravity, spring_vec2 wind)
{
	return spring_vec2_is_finite(gravity) && spring_vec2_is_finite(wind) ? SPRING_OK : SPRING_ERROR_NOT_FINITE;
}

// The caps on inherited motion (set_root_limits): finite and >= 0, 0 no cap.
static inline spring_result check_root_limits(float max_root_speed, float max_root_angular_speed)
{
	spring_result r = check_range(max_root_speed, INFINITY);
	return r == SPRING_OK ? check_range(max_root_angular_speed, INFINITY) : r;
}

// ---------------------------------------------------------------------------------------------
// Across the files

// What a valid description resolves to (chain2d_validate.c).
typedef struct chain2d_config {
	float step;
	int max_steps;
	spring_params params;
	float rest_delta, rest_angular_speed; // resolved
} chain2d_config;

/// The description's checks (chain2d_validate.c): fills *cfg and returns SPRING_OK, or fills
/// `error` (field, segment and reason) and returns why not.
spring_result spring_chain2d_internal_validate_desc(const spring_chain2d_desc *desc, chain2d_config *cfg, spring_error *error);
/// init's checks of where the chain goes (chain2d_validate.c): `out` non-NULL, `memory` non-NULL
/// and aligned to CHAIN2D_ALIGN, `size` at least `need` bytes.
spring_result spring_chain2d_internal_check_memory(const void *memory, size_t size, size_t need, const void *out,
                                                   spring_error *error);

/// The values every step reads that change only with the step or the forces (chain2d.c).
void spring_chain2d_internal_cache_constants(spring_chain2d *c);
/// The reciprocals of the knots' distances the fit needs (0 for a knot the path does not have) and
/// the nodes of the Newton basis (chain2d.c).
void spring_chain2d_internal_timeline_fit(spring_chain2d_timeline *t);
/// What segment `segment` of `chain` is stepped with when its own setting is `params`: the
/// effective params and the transition (limit unset). The rule of set_params and of restore
/// (chain2d.c).
spring_result spring_chain2d_internal_segment_settings(const spring_chain2d *chain, int segment, spring_params params,
                                                       spring_params *p, spring_chain2d_lane_step_in *st);

#endif
