// spring_chain2d: one angle spring per segment, walked root to tip within every fixed step.
//
// Segment i's target world angle in a step is its parent's world angle *simulated in this same
// step* (the root's for segment 0) plus its rest and animated local angle, so a root rotation
// reaches the tip in the step it happens and every length is exact by construction (the pose is
// rebuilt by forward kinematics). The springs are the core's angle steppers, which fold the
// target onto the shortest arc, so a heading crossing +-180 degrees never whips.
//
// Gravity and wind act on each segment as on a uniform rod pivoting at its start:
//     alpha = torque / inertia = (L/2 m |g x d|) / (m L^2 / 3) = 1.5 cross(d, g) / L,
// d = (cos theta, sin theta). Because the spring is linear, a constant angular acceleration over a
// step is the same as moving the target by alpha m / k; alpha is taken at the step's start angle.
//
// Memory: one block, the struct then dense per-segment arrays (structure of arrays), each
// 16-byte aligned. Arrays are addressed by offsets from the struct, never by stored pointers,
// so a chain made by spring_chain2d_init can be copied byte for byte (snapshots, rollback).
//
// Per-segment budget: 76 bytes (plus padding of each array to 16 bytes)
//   hot state, read and written every step     16 B: angle, velocity, prev_angle, target
//   per-step configuration, read every step     48 B: exact transition (16), params (12), length,
//                                                     rest_angle, limit, anim_from, anim_to
//   cold                                        12 B: own_params (the segment's setting)
#include "spring/chain.h"

#include "chain_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define CHAIN2D_ALIGN 16u

// Float arrays, n entries each, in this order after the struct.
enum {
	ARR_ANGLE,      // world angle of the last step, radians in (-pi, pi]
	ARR_VELOCITY,   // angular velocity of the last step, rad/s
	ARR_PREV_ANGLE, // world angle of the step before (output interpolation)
	ARR_TARGET,     // target world angle of the last step, without forces, (-pi, pi]
	ARR_LENGTH,     // segment length, > 0
	ARR_REST,       // rest local angle, radians (as given)
	ARR_LIMIT,      // max swing from the target, (0, pi]; 0 unlimited
	ARR_ANIM_FROM,  // animated offsets of the previous frame
	ARR_ANIM_TO,    // animated offsets of the frame submitted by the next update
	ARR_FLOAT_COUNT
};
// spring_params arrays after the float arrays.
enum {
	ARR_PARAMS,     // parameters the segment is stepped with
	ARR_OWN_PARAMS, // the segment's own setting; all zero -> chain default or gradient
	ARR_PARAMS_COUNT
};

struct spring_chain2d {
	spring_clock clock;
	int segment_count;
	spring_integrator integrator;
	spring_params params;        // chain default (resolved: never zero)
	spring_params tip_params;    // as given; zero -> no gradient
	spring_vec2 gravity;         // units/s^2
	spring_vec2 wind;            // units/s^2
	spring_xform2 root;          // root of the last step (angle wrapped, scale 1)
	spring_xform2 prev_root;     // root of the step before
	spring_xform2 input_root;    // root given to the last update (the next frame interpolates from it)
	spring_internal_owner owner; // set by create; zero for caller memory
};

// ---------------------------------------------------------------------------------------------
// Layout

static size_t round_up(size_t x)
{
	return (x + (CHAIN2D_ALIGN - 1u)) & ~(size_t)(CHAIN2D_ALIGN - 1u);
}

static size_t header_bytes(void)
{
	return round_up(sizeof(spring_chain2d));
}

static size_t float_stride(int n)
{
	return round_up((size_t)n * sizeof(float));
}

static size_t params_stride(int n)
{
	return round_up((size_t)n * sizeof(spring_params));
}

static size_t stepper_stride(int n)
{
	return round_up((size_t)n * sizeof(spring_stepper));
}

static size_t total_bytes(int n)
{
	return header_bytes() + (size_t)ARR_FLOAT_COUNT * float_stride(n) + (size_t)ARR_PARAMS_COUNT * params_stride(n) +
	       stepper_stride(n);
}

static float *farr(const spring_chain2d *c, int which)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	return (float *)(void *)(base + header_bytes() + (size_t)which * float_stride(c->segment_count));
}

static spring_params *parr(const spring_chain2d *c, int which)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	size_t offset = header_bytes() + (size_t)ARR_FLOAT_COUNT * float_stride(c->segment_count);
	return (spring_params *)(void *)(base + offset + (size_t)which * params_stride(c->segment_count));
}

// The exact one-step transition of each segment (16 bytes), kept in step with ARR_PARAMS.
static spring_stepper *steppers(const spring_chain2d *c)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	size_t offset = header_bytes() + (size_t)ARR_FLOAT_COUNT * float_stride(c->segment_count) +
	                (size_t)ARR_PARAMS_COUNT * params_stride(c->segment_count);
	return (spring_stepper *)(void *)(base + offset);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

static spring_result check_root(spring_xform2 root)
{
	// The scale is ignored, so it is not checked.
	return spring_vec2_is_finite(root.position) && spring_is_finite(root.angle) ? SPRING_OK : SPRING_ERROR_NOT_FINITE;
}

// The prologue of every call taking a root: a chain and a finite root.
static spring_result check_chain_root(const spring_chain2d *chain, spring_xform2 root)
{
	return chain ? check_root(root) : SPRING_ERROR_INVALID_ARGUMENT;
}

static spring_xform2 clean_root(spring_xform2 root)
{
	spring_xform2 r = {root.position, spring_angle_wrap(root.angle), {1.0f, 1.0f}};
	return r;
}

static spring_result set_error(spring_error *error, spring_result r, int index, const char *field, const char *fmt, ...)
{
	spring_error_step at = {SPRING_ELEMENT_SEGMENT, index};
	va_list args;
	va_start(args, fmt);
	spring_internal_fail_v(error, r, "chain2d", &at, index >= 0 ? 1 : 0, field, fmt, args);
	va_end(args);
	return r;
}

static spring_result check_limit(float limit)
{
	if (!spring_is_finite(limit)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return limit >= 0.0f && limit <= (float)SPRING_PI ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

// ---------------------------------------------------------------------------------------------
// Validation of a description

typedef struct chain2d_config {
	float step;
	int max_steps;
	spring_params params;
} chain2d_config;

static spring_result validate_desc(const spring_chain2d_desc *desc, chain2d_config *cfg, spring_error *error)
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
	if (desc->integrator != SPRING_INTEGRATOR_EXACT && desc->integrator != SPRING_INTEGRATOR_SEMI_IMPLICIT) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "integrator", "integrator %d is not a spring_integrator",
		                 (int)desc->integrator);
	}
	if (!spring_is_finite(desc->step)) {
		return set_error(error, SPRING_ERROR_NOT_FINITE, -1, "step", "step must be finite (got %g)", (double)desc->step);
	}
	float step = desc->step == 0.0f ? SPRING_CLOCK_DEFAULT_STEP : desc->step;
	if (!(step > 0.0f && step <= 1.0f)) {
		return set_error(error, SPRING_ERROR_OUT_OF_RANGE, -1, "step", "step must be in (0, 1] seconds, 0 for 1/%d (got %g)",
		                 SPRING_CLOCK_DEFAULT_RATE, (double)desc->step);
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
	if (check_root(desc->root) != SPRING_OK) {
		return set_error(error, SPRING_ERROR_NOT_FINITE, -1, "root", "root position and angle must be finite (got %g, %g, %g)",
		                 (double)desc->root.position.x, (double)desc->root.position.y, (double)desc->root.angle);
	}
	spring_params base;
	spring_result r = spring_chain_internal_base_params(desc->params, &base);
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
		if (!spring_is_finite(s->length) || !(s->length > 0.0f)) {
			return set_error(error, spring_is_finite(s->length) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, i,
			                 "length", "length must be finite and > 0 (got %g)", (double)s->length);
		}
		if (!spring_is_finite(s->rest_angle)) {
			return set_error(error, SPRING_ERROR_NOT_FINITE, i, "rest_angle", "rest_angle must be finite (got %g)",
			                 (double)s->rest_angle);
		}
		r = check_limit(s->limit);
		if (r != SPRING_OK) {
			return set_error(error, r, i, "limit", "limit must be 0 (unlimited) or in (0, pi] radians (got %g)",
			                 (double)s->limit);
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
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Creation

size_t spring_chain2d_memory_size(const spring_chain2d_desc *desc)
{
	chain2d_config cfg;
	if (validate_desc(desc, &cfg, NULL) != SPRING_OK) {
		return 0;
	}
	return total_bytes(desc->segment_count);
}

// Every segment at rest under `root` (world angle = root + rest + animated offset, cumulative),
// history equal to the state.
static void place_at_rest(spring_chain2d *c, spring_xform2 root)
{
	int n = c->segment_count;
	float *angle = farr(c, ARR_ANGLE), *velocity = farr(c, ARR_VELOCITY), *prev = farr(c, ARR_PREV_ANGLE);
	float *target = farr(c, ARR_TARGET), *rest = farr(c, ARR_REST);
	float *from = farr(c, ARR_ANIM_FROM), *to = farr(c, ARR_ANIM_TO);
	float parent = root.angle;
	for (int i = 0; i < n; i++) {
		from[i] = to[i];
		float a = spring_internal_angle_fold((double)parent + (double)rest[i] + (double)to[i]);
		angle[i] = a;
		prev[i] = a;
		target[i] = a;
		velocity[i] = 0.0f;
		parent = a;
	}
	c->root = root;
	c->prev_root = root;
	c->input_root = root;
}

spring_result spring_chain2d_init(const spring_chain2d_desc *desc, void *memory, size_t size, spring_chain2d **out,
                                  spring_error *error)
{
	chain2d_config cfg;
	spring_result r = validate_desc(desc, &cfg, error);
	if (r != SPRING_OK) {
		return r;
	}
	if (!out) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "out", "out is NULL");
	}
	size_t need = total_bytes(desc->segment_count);
	if (!memory || ((uintptr_t)memory & (CHAIN2D_ALIGN - 1u)) != 0u) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "memory", "memory must be non-NULL and aligned to %u bytes",
		                 CHAIN2D_ALIGN);
	}
	if (size < need) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "memory", "memory is %zu bytes, %zu needed", size, need);
	}
	memset(memory, 0, need);
	spring_chain2d *c = (spring_chain2d *)memory;
	c->segment_count = desc->segment_count;
	c->integrator = desc->integrator;
	c->params = cfg.params;
	c->tip_params = desc->tip_params;
	c->gravity = desc->gravity;
	c->wind = desc->wind;
	c->owner = (spring_internal_owner){0};
	r = spring_clock_init(&c->clock, cfg.step, cfg.max_steps);
	SPRING_ASSERT(r == SPRING_OK);
	int n = c->segment_count;
	float *length = farr(c, ARR_LENGTH), *rest = farr(c, ARR_REST), *limit = farr(c, ARR_LIMIT);
	spring_params *params = parr(c, ARR_PARAMS), *own = parr(c, ARR_OWN_PARAMS);
	for (int i = 0; i < n; i++) {
		const spring_chain2d_segment *s = &desc->segments[i];
		length[i] = s->length;
		rest[i] = s->rest_angle;
		limit[i] = s->limit;
		own[i] = s->params;
		r = spring_chain_internal_bone_params(s->params, c->params, c->tip_params, i, n, &params[i]);
		SPRING_ASSERT(r == SPRING_OK); // validated above
		r = spring_chain_internal_stepper(c->integrator, params[i], c->clock.step, &steppers(c)[i]);
		SPRING_ASSERT(r == SPRING_OK); // validated parameters, validated step
	}
	place_at_rest(c, clean_root(desc->root));
	*out = c;
	return SPRING_OK;
}

SPRING_INTERNAL_DEFINE_CREATE(spring_chain2d, spring_chain2d, spring_chain2d_desc, "chain2d")

void spring_chain2d_destroy(spring_chain2d *chain)
{
	if (chain) {
		spring_internal_destroy(chain, &chain->owner);
	}
}

// ---------------------------------------------------------------------------------------------
// Stepping

// One fixed step under `root` (clean), root to tip, keeping the previous state for the output
// interpolation. The animated offsets are interpolated from `from` to `to` at `f` (the fraction
// of the frame at which the step ends); with from == to they are exactly `to`.
static spring_result step_once(spring_chain2d *c, spring_xform2 root, const float *from, const float *to, float f)
{
	int n = c->segment_count;
	float *angle = farr(c, ARR_ANGLE), *velocity = farr(c, ARR_VELOCITY), *target = farr(c, ARR_TARGET);
	const float *length = farr(c, ARR_LENGTH), *rest = farr(c, ARR_REST), *limit = farr(c, ARR_LIMIT);
	c->prev_root = c->root;
	memcpy(farr(c, ARR_PREV_ANGLE), angle, (size_t)n * sizeof(float));
	c->root = root;
	const spring_params *params = parr(c, ARR_PARAMS);
	const spring_stepper *step = steppers(c);
	const double fx = (double)c->gravity.x + (double)c->wind.x;
	const double fy = (double)c->gravity.y + (double)c->wind.y;
	const int forces = fx != 0.0 || fy != 0.0;
	const float h = c->clock.step;
	spring_result result = SPRING_OK;
	float parent = root.angle; // this step's simulated angle of the parent
	for (int i = 0; i < n; i++) {
		float offset = from[i] == to[i] ? to[i] : spring_angle_lerp(from[i], to[i], f);
		double goal = (double)parent + (double)rest[i] + (double)offset;
		float t = spring_internal_angle_fold(goal);
		spring_params p = params[i];
		float shifted = t;
		if (forces) {
			double s, co;
			spring_det_sincos((double)angle[i], &s, &co);
			double alpha = 1.5 * (co * fy - s * fx) / (double)length[i];
			shifted = spring_internal_angle_fold(goal + alpha * (double)p.mass / (double)p.stiffness);
		}
		spring_state st = {angle[i], velocity[i]};
		spring_result r = SPRING_OK;
		if (c->integrator == SPRING_INTEGRATOR_SEMI_IMPLICIT) {
			r = spring_step_semi_implicit_angle(p, &st, shifted, h);
		} else {
			spring_stepper_step_angle(&step[i], &st, shifted); // four multiply-adds
			if (!spring_is_finite(st.x) || !spring_is_finite(st.v)) {
				r = SPRING_ERROR_OUT_OF_RANGE;
			}
		}
		if (r != SPRING_OK) {
			// Unreachable with validated parameters: angles are wrapped, errors are folded onto
			// the shortest arc and the step is stable. Keep the segment and report.
			SPRING_ASSERT(r == SPRING_OK);
			result = result == SPRING_OK ? r : result;
			st.x = angle[i];
			st.v = velocity[i];
		}
		if (limit[i] > 0.0f) {
			float swing = spring_angle_delta(t, st.x);
			if (fabsf(swing) > limit[i]) {
				st.x = spring_internal_angle_fold((double)t + (swing > 0.0f ? (double)limit[i] : -(double)limit[i]));
				if ((st.v > 0.0f) == (swing > 0.0f) && st.v != 0.0f) {
					st.v = 0.0f; // remove the outward velocity, keep the inward
				}
			}
		}
		angle[i] = st.x;
		velocity[i] = st.v;
		target[i] = t;
		parent = st.x;
	}
	return result;
}

spring_result spring_chain2d_update(spring_chain2d *chain, spring_xform2 root, float frame_dt)
{
	spring_result r = check_chain_root(chain, root);
	if (r != SPRING_OK) {
		return r;
	}
	if (!spring_is_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	int steps = spring_clock_advance(&chain->clock, frame_dt);
	if (steps < 0) {
		return (spring_result)(-steps);
	}
	int n = chain->segment_count;
	const float *anim_from = farr(chain, ARR_ANIM_FROM), *anim_to = farr(chain, ARR_ANIM_TO);
	spring_xform2 from = chain->input_root, to = clean_root(root);
	spring_result result = SPRING_OK;
	for (int k = 0; k < steps; k++) {
		float f = spring_clock_substep_fraction(&chain->clock, k, steps);
		spring_xform2 at = {
			spring_vec2_lerp(from.position, to.position, f), spring_angle_lerp(from.angle, to.angle, f), {1.0f, 1.0f}};
		r = step_once(chain, at, anim_from, anim_to, f);
		if (r != SPRING_OK && result == SPRING_OK) {
			result = r;
		}
	}
	chain->input_root = to;
	memcpy(farr(chain, ARR_ANIM_FROM), anim_to, (size_t)n * sizeof(float));
	return result;
}

static spring_result check_offsets(const float *offsets, int n)
{
	for (int i = 0; i < n; i++) {
		if (!spring_is_finite(offsets[i])) {
			return SPRING_ERROR_NOT_FINITE;
		}
	}
	return SPRING_OK;
}

spring_result spring_chain2d_internal_step(spring_chain2d *chain, spring_xform2 root, const float *anim_offsets)
{
	spring_result r = check_chain_root(chain, root);
	if (r == SPRING_OK && anim_offsets) {
		r = check_offsets(anim_offsets, chain->segment_count);
	}
	if (r != SPRING_OK) {
		return r;
	}
	const float *offsets = anim_offsets ? anim_offsets : farr(chain, ARR_ANIM_TO);
	spring_xform2 at = clean_root(root);
	chain->input_root = at;
	return step_once(chain, at, offsets, offsets, 1.0f);
}

spring_result spring_chain2d_internal_stepped_angles(const spring_chain2d *chain, float *world_angles, int capacity)
{
	if (!chain || !world_angles || capacity < chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	memcpy(world_angles, farr(chain, ARR_ANGLE), (size_t)chain->segment_count * sizeof(float));
	return SPRING_OK;
}

spring_result spring_chain2d_set_animation(spring_chain2d *chain, const float *local_offsets, int count)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int n = chain->segment_count;
	float *to = farr(chain, ARR_ANIM_TO);
	if (!local_offsets) {
		if (count != 0 && count != n) {
			return SPRING_ERROR_INVALID_ARGUMENT;
		}
		memset(to, 0, (size_t)n * sizeof(float));
		return SPRING_OK;
	}
	if (count != n) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_offsets(local_offsets, n);
	if (r != SPRING_OK) {
		return r;
	}
	memcpy(to, local_offsets, (size_t)n * sizeof(float));
	return SPRING_OK;
}

spring_result spring_chain2d_reset(spring_chain2d *chain, spring_xform2 root)
{
	spring_result r = check_chain_root(chain, root);
	if (r != SPRING_OK) {
		return r;
	}
	place_at_rest(chain, clean_root(root));
	return SPRING_OK;
}

// p moved rigidly by the transform taking `from` onto `to` (rotation cs/sn about from's origin).
static spring_vec2 move_rigid(spring_vec2 p, spring_vec2 from, spring_vec2 to, double cs, double sn)
{
	double dx = (double)p.x - (double)from.x, dy = (double)p.y - (double)from.y;
	spring_vec2 out = {(float)((double)to.x + (cs * dx - sn * dy)), (float)((double)to.y + (sn * dx + cs * dy))};
	return out;
}

spring_result spring_chain2d_teleport(spring_chain2d *chain, spring_xform2 root)
{
	spring_result r = check_chain_root(chain, root);
	if (r != SPRING_OK) {
		return r;
	}
	spring_xform2 to = clean_root(root);
	spring_xform2 old = chain->root;
	double delta = (double)spring_angle_delta(old.angle, to.angle);
	double sn, cs;
	spring_det_sincos(delta, &sn, &cs);
	int n = chain->segment_count;
	float *angle = farr(chain, ARR_ANGLE), *prev = farr(chain, ARR_PREV_ANGLE), *target = farr(chain, ARR_TARGET);
	for (int i = 0; i < n; i++) {
		angle[i] = spring_internal_angle_fold((double)angle[i] + delta);
		prev[i] = spring_internal_angle_fold((double)prev[i] + delta);
		target[i] = spring_internal_angle_fold((double)target[i] + delta);
	}
	spring_xform2 prev_root = {move_rigid(chain->prev_root.position, old.position, to.position, cs, sn),
	                           spring_internal_angle_fold((double)chain->prev_root.angle + delta),
	                           {1.0f, 1.0f}};
	spring_xform2 input = {move_rigid(chain->input_root.position, old.position, to.position, cs, sn),
	                       spring_internal_angle_fold((double)chain->input_root.angle + delta),
	                       {1.0f, 1.0f}};
	chain->prev_root = prev_root;
	chain->input_root = input;
	chain->root = to;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Runtime settings (never touch the state)

spring_result spring_chain2d_translate(spring_chain2d *chain, spring_vec2 delta)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec2_is_finite(delta)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_xform2 root = chain->root;
	root.position = spring_vec2_add(root.position, delta);
	return spring_chain2d_teleport(chain, root);
}

spring_result spring_chain2d_rotate(spring_chain2d *chain, float angle, spring_vec2 pivot)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(angle) || !spring_vec2_is_finite(pivot)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_xform2 root = chain->root;
	root.position = spring_vec2_add(pivot, spring_vec2_rotate(spring_vec2_sub(root.position, pivot), angle));
	root.angle = spring_angle_wrap(root.angle + angle);
	return spring_chain2d_teleport(chain, root);
}

spring_result spring_chain2d_set_params(spring_chain2d *chain, int segment, spring_params params)
{
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_params p;
	spring_result r = spring_chain_internal_bone_params(params, chain->params, chain->tip_params, segment, chain->segment_count,
	                                                    &p);
	if (r != SPRING_OK) {
		return r;
	}
	spring_stepper st;
	r = spring_chain_internal_stepper(chain->integrator, p, chain->clock.step, &st);
	if (r != SPRING_OK) {
		return r;
	}
	parr(chain, ARR_PARAMS)[segment] = p;
	parr(chain, ARR_OWN_PARAMS)[segment] = params;
	steppers(chain)[segment] = st;
	return SPRING_OK;
}

spring_result spring_chain2d_set_limit(spring_chain2d *chain, int segment, float limit)
{
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_limit(limit);
	if (r != SPRING_OK) {
		return r;
	}
	farr(chain, ARR_LIMIT)[segment] = limit;
	return SPRING_OK;
}

spring_result spring_chain2d_set_forces(spring_chain2d *chain, spring_vec2 gravity, spring_vec2 wind)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec2_is_finite(gravity) || !spring_vec2_is_finite(wind)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	chain->gravity = gravity;
	chain->wind = wind;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Queries

int spring_chain2d_segment_count(const spring_chain2d *chain)
{
	return chain ? chain->segment_count : 0;
}

spring_result spring_chain2d_internal_pose(const spring_chain2d *chain, float alpha, spring_xform2 *joints, float *local_angles,
                                           int capacity)
{
	if (!chain || (!joints && !local_angles)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int n = chain->segment_count;
	if (capacity < (joints ? n + 1 : n)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(alpha)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (alpha < 0.0f || alpha > 1.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	const float *angle = farr(chain, ARR_ANGLE), *prev = farr(chain, ARR_PREV_ANGLE), *length = farr(chain, ARR_LENGTH);
	float root_angle = spring_angle_lerp(chain->prev_root.angle, chain->root.angle, alpha);
	spring_vec2 root_position = spring_vec2_lerp(chain->prev_root.position, chain->root.position, alpha);
	double px = (double)root_position.x, py = (double)root_position.y;
	float parent = root_angle;
	for (int i = 0; i < n; i++) {
		float a = spring_angle_lerp(prev[i], angle[i], alpha);
		if (joints) {
			spring_xform2 j = {{(float)px, (float)py}, a, {1.0f, 1.0f}};
			joints[i] = j;
			double s, c;
			spring_det_sincos((double)a, &s, &c);
			px += (double)length[i] * c;
			py += (double)length[i] * s;
		}
		if (local_angles) {
			local_angles[i] = spring_angle_delta(parent, a);
		}
		parent = a;
	}
	if (joints) {
		spring_xform2 tip = {{(float)px, (float)py}, parent, {1.0f, 1.0f}};
		joints[n] = tip;
	}
	return SPRING_OK;
}

spring_result spring_chain2d_get_pose(const spring_chain2d *chain, spring_xform2 *joints, float *local_angles, int capacity)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_chain2d_internal_pose(chain, chain->clock.alpha, joints, local_angles, capacity);
}

spring_result spring_chain2d_get_state(const spring_chain2d *chain, int segment, spring_state *world_angle)
{
	if (!chain || !world_angle || segment < 0 || segment >= chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_state s = {farr(chain, ARR_ANGLE)[segment], farr(chain, ARR_VELOCITY)[segment]};
	*world_angle = s;
	return SPRING_OK;
}

float spring_chain2d_get_target(const spring_chain2d *chain, int segment)
{
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return 0.0f;
	}
	return farr(chain, ARR_TARGET)[segment];
}

const spring_clock *spring_chain2d_clock(const spring_chain2d *chain)
{
	return chain ? &chain->clock : NULL;
}

spring_params spring_chain2d_internal_params(const spring_chain2d *chain, int segment)
{
	spring_params zero = {0.0f, 0.0f, 0.0f};
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return zero;
	}
	return parr(chain, ARR_PARAMS)[segment];
}
