// SPDX-License-Identifier: MIT
// spring_motion: the interruptible N-channel UI value.
//
// Exactness comes from anchoring: the motion keeps the state it had at its last re-anchoring
// (init, retarget, jump, new parameters, clamp stop, rest) and the time elapsed since, and every
// advance evaluates the closed-form transition at that elapsed time (one transition shared by all
// channels). Frame times only decide when the state is looked at, never what it is, so there is
// no accumulation of per-step rounding: 1e5 steps of 1e-5 s equal one step of 1 s.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/motion.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DERIVED_DELTA 1u
#define DERIVED_SPEED 2u
#define VALUE_RESOLUTION (1.0 / 2097152.0) // 2^-21: 4 float ulps, relative

// ---------------------------------------------------------------------------------------------
// Helpers

// Zero params -> the motion's default spring; mass 0 alone -> 1 kg; then the core's validation.
static spring_result resolve_params(spring_params p, spring_params *out)
{
	if (p.stiffness == 0.0f && p.damping == 0.0f && p.mass == 0.0f) {
		return spring_params_from_duration_bounce(SPRING_MOTION_DEFAULT_DURATION, SPRING_MOTION_DEFAULT_BOUNCE, out);
	}
	if (p.mass == 0.0f) {
		p.mass = 1.0f;
	}
	spring_result r = spring_params_validate(p);
	if (r == SPRING_OK) {
		*out = p;
	}
	return r;
}

// A structurally sound motion: what every entry point checks before trusting the fields.
static int motion_ok(const spring_motion *m)
{
	if (!m || m->channels < 1 || m->channels > SPRING_MOTION_MAX_CHANNELS) {
		return 0;
	}
	if (spring_params_validate(m->params) != SPRING_OK || !(m->elapsed >= 0.0) || !(m->elapsed - m->elapsed == 0.0)) {
		return 0;
	}
	int n = m->channels;
	const float *arrays[] = {m->value, m->velocity, m->target, m->anchor_value, m->anchor_velocity, m->rest_delta, m->rest_speed};
	for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
		if (!spring_internal_all_finite(arrays[k], n)) {
			return 0;
		}
	}
	for (int c = 0; c < n; c++) {
		if (!(m->rest_delta[c] > 0.0f) || !(m->rest_speed[c] > 0.0f)) {
			return 0;
		}
	}
	return 1;
}

// Recomputes the derived thresholds of channel c from its current value, velocity and target.
static void derive_rest(spring_motion *m, int c)
{
	double wn = sqrt(spring_internal_w2(m->params));
	double x = (double)m->value[c], t = (double)m->target[c], v = (double)m->velocity[c];
	if (m->derived_rest[c] & DERIVED_DELTA) {
		double a = fmax(fabs(t - x), fabs(v) / wn);
		double floor_ = fmax((double)SPRING_MOTION_REST_DELTA_FLOOR, VALUE_RESOLUTION * fmax(fabs(x), fabs(t)));
		m->rest_delta[c] = spring_internal_saturate(fmax((double)SPRING_MOTION_REST_FRACTION * a, floor_));
	}
	if (m->derived_rest[c] & DERIVED_SPEED) {
		float s = spring_internal_saturate(wn * (double)m->rest_delta[c]);
		m->rest_speed[c] = s > 0.0f ? s : FLT_MIN; // wn * delta can underflow for absurdly soft springs
	}
}

// Makes the current state the new anchor (elapsed 0) and recomputes the at-rest flag exactly.
static void reanchor(spring_motion *m)
{
	int rest = 1;
	for (int c = 0; c < m->channels; c++) {
		m->anchor_value[c] = m->value[c];
		m->anchor_velocity[c] = m->velocity[c];
		if (m->value[c] != m->target[c] || m->velocity[c] != 0.0f) {
			rest = 0;
		}
	}
	m->elapsed = 0.0;
	m->at_rest = rest;
}

#define ALL_CHANNELS ((1u << SPRING_MOTION_MAX_CHANNELS) - 1u)

// Starts a new move from `n`, an edited copy of the motion: derives the thresholds of the channels
// whose bit is set in `channels` (bit c for channel c), re-anchors, and commits `n` to `*m`.
static spring_result start_move(spring_motion *m, spring_motion n, unsigned channels)
{
	for (int c = 0; c < n.channels; c++) {
		if (channels & (1u << c)) {
			derive_rest(&n, c);
		}
	}
	reanchor(&n);
	*m = n;
	return SPRING_OK;
}

// Gap e(t) = x(t) - target from gap e0 and velocity v0.
static double gap_at(double w2, double g, double e0, double v0, double t)
{
	spring_transition tr;
	spring_transition_compute(w2, g, t, &tr);
	return tr.pp * e0 + tr.pv * v0;
}

// Which side of the target a channel is on: the sign of the gap, or of the velocity when it sits
// exactly on the target (leaving it). 0 when at the target and still.
static int side_of(double e, double v)
{
	if (e != 0.0) {
		return e > 0.0 ? 1 : -1;
	}
	return v > 0.0 ? 1 : (v < 0.0 ? -1 : 0);
}

// Does the gap reach 0 (or cross it) within (0, span]? If `when` is not NULL it receives the first
// such time, found by bisection on the closed form. Exact for any span: an underdamped gap has
// zeros exactly pi / omega_d apart (so the first one comes within 1.5 half periods and pieces of
// half a half period hold at most one); otherwise the gap has at most one zero and the sign at
// the end of the span decides.
static int first_crossing(double w2, double g, double e0, double v0, double span, double *when)
{
	int side = side_of(e0, v0);
	if (side == 0 || !(span > 0.0)) {
		return 0;
	}
	double lambda = 0.5 * g, wn = sqrt(w2);
	double d = (wn - lambda) * (wn + lambda);
	double window = span, piece = span;
	if (d > 0.0) {
		double half = SPRING_PI / sqrt(d);
		window = fmin(span, 1.5 * half);
		piece = 0.5 * half;
	}
	double a = 0.0;
	while (a < window) {
		double b = fmin(window, a + piece);
		if ((double)side * gap_at(w2, g, e0, v0, b) <= 0.0) {
			if (when) {
				double lo = a, hi = b;
				for (int i = 0; i < 200; i++) {
					double mid = 0.5 * (lo + hi);
					if (mid <= lo || mid >= hi) {
						break;
					}
					if ((double)side * gap_at(w2, g, e0, v0, mid) <= 0.0) {
						hi = mid;
					} else {
						lo = mid;
					}
				}
				*when = hi;
			}
			return 1;
		}
		if (b <= a) {
			break; // span too small to split further
		}
		a = b;
	}
	return 0;
}

// The step itself, on a valid motion with a valid dt. Writes *m only on success.
static spring_result motion_step(spring_motion *m, double dt)
{
	if (m->at_rest) {
		return SPRING_OK; // on the targets with velocity 0: the closed form stays there
	}
	spring_motion n = *m;
	double w2 = spring_internal_w2(m->params), g = spring_internal_gamma(m->params);
	double t = m->elapsed + dt;
	spring_transition tr;
	spring_transition_compute(w2, g, t, &tr);
	for (int c = 0; c < n.channels; c++) {
		double target = (double)n.target[c];
		double e0 = (double)n.anchor_value[c] - target, v0 = (double)n.anchor_velocity[c];
		float x = (float)(target + (tr.pp * e0 + tr.pv * v0));
		float v = (float)(tr.vp * e0 + tr.vv * v0);
		if (!spring_is_finite(x) || !spring_is_finite(v)) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
		if (n.clamp_overshoot) {
			double e = (double)m->value[c] - target, ve = (double)m->velocity[c];
			int side = side_of(e, ve);
			if (side != 0) {
				// Reaching the target within the step: the end of the step on the other side (or on
				// the target), or a zero inside it (a large step can cross and come back).
				double end = (double)x - target;
				int crossed = (double)side * end <= 0.0 || first_crossing(w2, g, e, ve, dt, NULL);
				if (crossed) {
					x = n.target[c];
					v = 0.0f;
					n.anchor_value[c] = x; // the closed form from (target, 0) stays on target
					n.anchor_velocity[c] = 0.0f;
				}
			}
		}
		n.value[c] = x;
		n.velocity[c] = v;
	}
	n.elapsed = t;
	int rest = 1;
	for (int c = 0; c < n.channels && rest; c++) {
		double e = fabs((double)n.value[c] - (double)n.target[c]);
		rest = e <= (double)n.rest_delta[c] && fabsf(n.velocity[c]) <= n.rest_speed[c];
	}
	if (rest) {
		for (int c = 0; c < n.channels; c++) {
			n.value[c] = n.target[c];
			n.velocity[c] = 0.0f;
		}
		reanchor(&n);
	}
	*m = n;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Public API

spring_result spring_motion_init(spring_motion *m, const spring_motion_desc *desc)
{
	if (!m || !desc || desc->channels < 1 || desc->channels > SPRING_MOTION_MAX_CHANNELS) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int n = desc->channels;
	if (!spring_internal_all_finite(desc->from, n) || !spring_internal_all_finite(desc->to, n) ||
	    !spring_internal_all_finite(desc->velocity, n) || !spring_internal_all_finite(desc->rest_delta, n) ||
	    !spring_internal_all_finite(desc->rest_speed, n)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_params p;
	spring_result r = resolve_params(desc->params, &p);
	if (r != SPRING_OK) {
		return r;
	}
	for (int c = 0; c < n; c++) {
		if (desc->rest_delta[c] < 0.0f || desc->rest_speed[c] < 0.0f) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	spring_motion out = {0};
	out.params = p;
	out.channels = n;
	out.clamp_overshoot = desc->clamp_overshoot != 0;
	for (int c = 0; c < n; c++) {
		out.value[c] = desc->from[c];
		out.velocity[c] = desc->velocity[c];
		out.target[c] = desc->to[c];
		out.rest_delta[c] = desc->rest_delta[c];
		out.rest_speed[c] = desc->rest_speed[c];
		out.derived_rest[c] = (uint8_t)((desc->rest_delta[c] == 0.0f ? DERIVED_DELTA : 0u) |
		                                (desc->rest_speed[c] == 0.0f ? DERIVED_SPEED : 0u));
	}
	return start_move(m, out, ALL_CHANNELS);
}

spring_result spring_motion_set_target(spring_motion *m, const float *target, int channels)
{
	if (!motion_ok(m) || !target || channels != m->channels) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_internal_all_finite(target, channels)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_motion n = *m;
	unsigned changed = 0;
	for (int c = 0; c < channels; c++) {
		if (target[c] != m->target[c]) {
			n.target[c] = target[c];
			changed |= 1u << c;
		}
	}
	return changed ? start_move(m, n, changed) : SPRING_OK;
}

spring_result spring_motion_set_params(spring_motion *m, spring_params params)
{
	if (!motion_ok(m)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_params p;
	spring_result r = resolve_params(params, &p);
	if (r != SPRING_OK) {
		return r;
	}
	spring_motion n = *m;
	n.params = p;
	return start_move(m, n, ALL_CHANNELS);
}

spring_result spring_motion_set_value(spring_motion *m, const float *value, const float *velocity, int channels)
{
	if (!motion_ok(m) || !value || channels != m->channels) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_internal_all_finite(value, channels) || (velocity && !spring_internal_all_finite(velocity, channels))) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_motion n = *m;
	for (int c = 0; c < channels; c++) {
		n.value[c] = value[c];
		n.velocity[c] = velocity ? velocity[c] : 0.0f;
	}
	return start_move(m, n, ALL_CHANNELS);
}

spring_result spring_motion_update(spring_motion *m, float dt)
{
	if (!motion_ok(m)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (dt < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return motion_step(m, (double)dt);
}

bool spring_motion_is_resting(const spring_motion *m)
{
	return motion_ok(m) && m->at_rest;
}

spring_result spring_motion_get_value(const spring_motion *m, float *value, float *velocity, int channels)
{
	if (!motion_ok(m) || channels < 1 || channels > m->channels) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int c = 0; c < channels; c++) {
		if (value) {
			value[c] = m->value[c];
		}
		if (velocity) {
			velocity[c] = m->velocity[c];
		}
	}
	return SPRING_OK;
}

// Last time |v| = rest_speed: the velocity obeys the same equation as the gap, starting from
// (v0, a0) with a0 = -(w2 e0 + g v0). The problem is linear, so it is scaled by a power of two
// when a0 would not fit in a float.
static double speed_settling_time(spring_params p, double e0, double v0, double rest_speed)
{
	double a0 = -(spring_internal_w2(p) * e0 + spring_internal_gamma(p) * v0);
	double scale = 1.0;
	while (fabs(a0 * scale) > 1e37 || fabs(v0 * scale) > 1e37) {
		scale *= 0x1p-64;
	}
	float eps = (float)(rest_speed * scale);
	if (!(eps > 0.0f)) {
		eps = FLT_MIN;
	}
	return (double)spring_settling_time(p, (float)(-v0 * scale), (float)(a0 * scale), eps);
}

float spring_motion_time_to_settle(const spring_motion *m)
{
	if (!motion_ok(m) || m->at_rest) {
		return 0.0f;
	}
	double w2 = spring_internal_w2(m->params), g = spring_internal_gamma(m->params);
	double worst = 0.0;
	for (int c = 0; c < m->channels; c++) {
		double e = (double)m->value[c] - (double)m->target[c], v = (double)m->velocity[c];
		double t_pos = (double)spring_settling_time(m->params, (float)-e, (float)v, m->rest_delta[c]);
		double t_vel = speed_settling_time(m->params, e, v, (double)m->rest_speed[c]);
		double t = fmax(t_pos, t_vel);
		double when;
		if (m->clamp_overshoot && first_crossing(w2, g, e, v, t, &when) && when < t) {
			t = when;
		}
		worst = fmax(worst, t);
	}
	return (float)worst;
}

spring_result spring_motion_sample(const spring_motion *m, float interval, float max_duration, float *values, float *velocities,
                                   int capacity, int *count, int *truncated)
{
	if (!motion_ok(m) || !count || capacity < 0 || (capacity > 0 && !values)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(interval) || !spring_is_finite(max_duration)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(interval > 0.0f) || max_duration < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_motion s = *m;
	int n = s.channels;
	int written = 0, cut = 1;
	for (;;) {
		if (written >= capacity) {
			break;
		}
		size_t at = (size_t)written * (size_t)n;
		for (int c = 0; c < n; c++) {
			values[at + (size_t)c] = s.value[c];
			if (velocities) {
				velocities[at + (size_t)c] = s.velocity[c];
			}
		}
		written++;
		if (s.at_rest) {
			cut = 0;
			break;
		}
		// Next sample time past max_duration (4 float ulps of slack, so that 0.1 s at 1/90 s
		// keeps its tenth sample although 9 * (float)(1/90) rounds above (float)0.1).
		if ((double)written * (double)interval > (double)max_duration * (1.0 + 4.0 * FLT_EPSILON)) {
			break;
		}
		if (motion_step(&s, (double)interval) != SPRING_OK) {
			break; // the future leaves float range: stop there, reported as truncated
		}
	}
	*count = written;
	if (truncated) {
		*truncated = cut;
	}
	return SPRING_OK;
}

spring_result spring_motion_sample_progress(spring_params params, float initial_velocity, float interval, float max_duration,
                                            float rest_delta, float *progress, int capacity, int *count, int *truncated)
{
	if (!count || capacity < 0 || (capacity > 0 && !progress)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(interval) || !spring_is_finite(max_duration)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_motion_desc desc = {0};
	desc.channels = 1;
	desc.params = params;
	desc.to[0] = 1.0f;
	desc.velocity[0] = initial_velocity;
	desc.rest_delta[0] = rest_delta;
	spring_motion m;
	spring_result r = spring_motion_init(&m, &desc);
	if (r != SPRING_OK) {
		return r;
	}
	return spring_motion_sample(&m, interval, max_duration, progress, NULL, capacity, count, truncated);
}

// ---------------------------------------------------------------------------------------------
// Snapshots

static uint64_t motion_shape(const spring_motion *m)
{
	int channels = m->channels;
	return spring_hash(SPRING_HASH_INIT, &channels, sizeof channels);
}

size_t spring_motion_snapshot_size(const spring_motion *m)
{
	return m ? SPRING_SNAPSHOT_HEADER_BYTES + sizeof *m : 0;
}

spring_result spring_motion_snapshot(const spring_motion *m, void *blob, size_t size)
{
	if (!m) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_internal_snapshot(m, sizeof *m, SIZE_MAX, SPRING_SNAPSHOT_MOTION, motion_shape(m), blob, size);
}

// A motion's snapshot body holds the struct itself. Accepted only when it is a motion of the same
// channel count that motion_ok trusts (the rule every entry point applies), with bools 0 or 1,
// threshold flags of two bits, the at-rest flag true only on the targets with velocity 0, and
// the unused channels zero (as every call leaves them).
static spring_result motion_check_body(const spring_motion *m, const unsigned char *body, spring_error *error)
{
	const size_t flags[2] = {offsetof(spring_motion, at_rest), offsetof(spring_motion, clamp_overshoot)};
	for (int k = 0; k < 2; k++) {
		if (body[flags[k]] > 1u) {
			return spring_internal_snapshot_bad(error, SPRING_ERROR_INVALID_ARGUMENT, "motion", SPRING_ELEMENT_NONE, -1,
			                                    k == 0 ? "at_rest" : "clamp_overshoot", "must be 0 or 1");
		}
	}
	spring_motion n;
	memcpy(&n, body, sizeof n);
	if (n.channels != m->channels) {
		return spring_internal_snapshot_bad(error, SPRING_ERROR_INVALID_ARGUMENT, "motion", SPRING_ELEMENT_NONE, -1, "channels",
		                                    "differs from this motion's channel count");
	}
	if (!motion_ok(&n)) {
		return spring_internal_snapshot_bad(error, SPRING_ERROR_OUT_OF_RANGE, "motion", SPRING_ELEMENT_NONE, -1, "state",
		                                    "holds a NaN, an infinity, invalid params, a negative time or a threshold <= 0");
	}
	const float *arrays[] = {n.value, n.velocity, n.target, n.anchor_value, n.anchor_velocity, n.rest_delta, n.rest_speed};
	for (int c = 0; c < SPRING_MOTION_MAX_CHANNELS; c++) {
		if (n.derived_rest[c] > (DERIVED_DELTA | DERIVED_SPEED) || (c >= n.channels && n.derived_rest[c] != 0u)) {
			return spring_internal_snapshot_bad(error, SPRING_ERROR_INVALID_ARGUMENT, "motion", SPRING_ELEMENT_NONE, -1,
			                                    "derived_rest", "holds flags no motion sets");
		}
		for (size_t k = 0; c >= n.channels && k < sizeof arrays / sizeof arrays[0]; k++) {
			if (arrays[k][c] != 0.0f) {
				return spring_internal_snapshot_bad(error, SPRING_ERROR_INVALID_ARGUMENT, "motion", SPRING_ELEMENT_NONE, -1,
				                                    "state", "has values in channels the motion does not have");
			}
		}
		if (c < n.channels && n.at_rest && (n.value[c] != n.target[c] || n.velocity[c] != 0.0f)) {
			return spring_internal_snapshot_bad(error, SPRING_ERROR_OUT_OF_RANGE, "motion", SPRING_ELEMENT_NONE, -1, "at_rest",
			                                    "is set off the targets");
		}
	}
	return SPRING_OK;
}

spring_result spring_motion_restore(spring_motion *m, const void *blob, size_t size, spring_error *error)
{
	if (!m) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "motion", SPRING_ELEMENT_NONE, -1, "m",
		                               "the motion is NULL");
	}
	const unsigned char *body;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_MOTION, motion_shape(m), sizeof *m, "motion",
	                                                  error, &body);
	if (r == SPRING_OK) {
		r = motion_check_body(m, body, error);
	}
	if (r == SPRING_OK) {
		spring_internal_snapshot_install(m, sizeof *m, SIZE_MAX, body);
	}
	return r;
}
