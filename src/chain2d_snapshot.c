// SPDX-License-Identifier: MIT
// spring_chain2d's snapshots: the block byte for byte, and on restore the checks that the image
// is a state the chain could reach by its own calls (spring_chain2d_internal_check_image, which a
// group and a rig run on each of their angle chains too).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/chain.h"

#include "chain2d_block_internal.h"
#include "chain2d_internal.h"
#include "spring_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static uint64_t chain2d_shape(const spring_chain2d *c)
{
	int n = c->segment_count;
	size_t total = total_bytes(n);
	uint64_t h = spring_hash(SPRING_HASH_INIT, &n, sizeof n);
	return spring_hash(h, &total, sizeof total);
}

size_t spring_chain2d_snapshot_size(const spring_chain2d *chain)
{
	return chain ? SPRING_SNAPSHOT_HEADER_BYTES + total_bytes(chain->segment_count) : 0;
}

spring_result spring_chain2d_snapshot(const spring_chain2d *chain, void *blob, size_t size)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_internal_snapshot(chain, total_bytes(chain->segment_count), offsetof(spring_chain2d, owner),
	                                SPRING_SNAPSHOT_CHAIN2D, chain2d_shape(chain), blob, size);
}

// A snapshot's chain: `image` (any alignment) is the block a chain of `live`'s shape would have.
// Structure and creation-time settings must be those of `live`; every setting a call can change
// must pass that call's check (and its derived values must be what the call derives); every
// piece of state must be what a step can leave: angles folded, speeds within the step's bound,
// roots within the coordinate range, the pivot's path and the kept sines consistent.
typedef struct chain2d_snap_check {
	const unsigned char *image;
	size_t header, stride; // byte offsets of the float arrays
	spring_error *error;
} chain2d_snap_check;

static spring_result snap_bad(const chain2d_snap_check *k, spring_result r, int segment, const char *field, const char *why)
{
	return spring_internal_snapshot_bad(k->error, r, "chain2d", segment >= 0 ? SPRING_ELEMENT_SEGMENT : SPRING_ELEMENT_NONE,
	                                    segment, field, why);
}

static float snap_float(const chain2d_snap_check *k, int which, int i)
{
	return spring_internal_load_float(k->image, k->header + (size_t)which * k->stride + (size_t)i * sizeof(float));
}

// A world angle as every step leaves it: folded onto (-pi, pi].
static bool folded(float a)
{
	return a > -SPRING_LANE_PI && a <= SPRING_LANE_PI;
}

static bool within(float x, float bound)
{
	return x >= -bound && x <= bound;
}

static bool same_bits(const void *a, const void *b, size_t size)
{
	return memcmp(a, b, size) == 0;
}

spring_result spring_chain2d_internal_check_image(const spring_chain2d *live, const float *length, const float *rest,
                                                  const unsigned char *image, spring_error *error)
{
	const int n = live->segment_count;
	chain2d_snap_check k = {image, header_bytes(), float_stride(n), error};
	if (image[offsetof(spring_chain2d, resting)] > 1u) {
		return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, -1, "resting", "must be 0 or 1");
	}
	spring_chain2d h;
	memcpy(&h, image, sizeof h);
	// Structure and settings fixed at creation.
	if (h.segment_count != n || h.integrator != live->integrator || !same_bits(&h.params, &live->params, sizeof h.params) ||
	    !same_bits(&h.tip_params, &live->tip_params, sizeof h.tip_params) || h.rest_delta != live->rest_delta ||
	    h.rest_angular_speed != live->rest_angular_speed) {
		return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, -1, "segment_count",
		                "or another setting fixed at creation differs from this chain's");
	}
	const char *why = spring_internal_clock_check(&live->clock, &h.clock);
	if (why) {
		return snap_bad(&k, SPRING_ERROR_OUT_OF_RANGE, -1, "clock", why);
	}
	// Settings a call can change, checked by that call's rule; the values it derives from them.
	spring_result r = check_forces(h.gravity, h.wind);
	if (r != SPRING_OK) {
		return snap_bad(&k, r, -1, "gravity", "or wind is not finite");
	}
	r = check_root_limits(h.max_root_speed, h.max_root_angular_speed);
	if (r != SPRING_OK) {
		return snap_bad(&k, r, -1, "max_root_speed", "or max_root_angular_speed is not finite and >= 0");
	}
	spring_chain2d derived = h;
	spring_chain2d_internal_cache_constants(&derived);
	if (!same_bits(&derived.inv_step, &h.inv_step, sizeof h.inv_step) ||
	    !same_bits(&derived.max_speed, &h.max_speed, sizeof(float)) ||
	    !same_bits(&derived.held_max, &h.held_max, sizeof(float)) || !same_bits(&derived.fx, &h.fx, sizeof(float)) ||
	    !same_bits(&derived.fy, &h.fy, sizeof(float)) || !same_bits(&derived.steady, &h.steady, sizeof(float))) {
		return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, -1, "fx",
		                "or another value derived from the settings does not match them");
	}
	// The pivot's path: its knots, their reciprocals and the weighted cubic through them.
	const bool timeline_ok = spring_chain2d_internal_timeline_valid(&h.time, h.clock.step);
	if (!timeline_ok) {
		return snap_bad(&k, SPRING_ERROR_OUT_OF_RANGE, -1, "time", "(the pivot's path) is not one a step leaves");
	}
	const spring_xform2 roots[3] = {h.root, h.prev_root, h.input_root};
	for (int j = 0; j < 3; j++) {
		if (spring_chain2d_internal_check_root(roots[j]) != SPRING_OK || !folded(roots[j].angle)) {
			return snap_bad(&k, SPRING_ERROR_OUT_OF_RANGE, -1,
			                j == 0   ? "root"
			                : j == 1 ? "prev_root"
			                         : "input_root",
			                "is not finite, folded and within the coordinate range");
		}
	}
	spring_xform2 input = {h.input_position, 0.0f, {1.0f, 1.0f}};
	bool path_ok = spring_chain2d_internal_check_root(input) == SPRING_OK && within(h.root_velocity.x, SPRING_LANE_SPEED_MAX) &&
	               within(h.root_velocity.y, SPRING_LANE_SPEED_MAX) && within(h.pivot[0], SPRING_LANE_SPEED_MAX) &&
	               within(h.pivot[1], SPRING_LANE_SPEED_MAX);
	for (int j = 0; j < 6 && path_ok; j++) {
		path_ok = within(h.path_d[j], 2.0f * SPRING_CHAIN_MAX_COORDINATE);
	}
	if (path_ok) {
		float coef[6];
		spring_chain2d_lane_fit(h.time.recip, h.path_d, coef);
		path_ok = same_bits(coef, h.path_coef, sizeof coef);
	}
	if (!path_ok) {
		return snap_bad(&k, SPRING_ERROR_OUT_OF_RANGE, -1, "path_d", "(the pivot's path) is not one a step leaves");
	}
	// Per segment: its settings by set_params', set_limit's, set_inertia's and set_animation's rules.
	const size_t params_at = k.header + (size_t)ARR_FLOAT_COUNT * k.stride, pstride = params_stride(n);
	const size_t steppers_at = params_at + (size_t)ARR_PARAMS_COUNT * pstride;
	for (int i = 0; i < n; i++) {
		if (snap_float(&k, ARR_LENGTH, i) != length[i] || snap_float(&k, ARR_REST, i) != rest[i]) {
			return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, i, "length", "or rest_angle differs from this chain's");
		}
		spring_params own, effective, p;
		spring_chain2d_lane_step_in st, kept;
		memcpy(&own, image + params_at + (size_t)ARR_OWN_PARAMS * pstride + (size_t)i * sizeof own, sizeof own);
		memcpy(&effective, image + params_at + (size_t)ARR_PARAMS * pstride + (size_t)i * sizeof effective, sizeof effective);
		memcpy(&kept, image + steppers_at + (size_t)i * sizeof kept, sizeof kept);
		r = spring_chain2d_internal_segment_settings(live, i, own, &p, &st);
		if (r != SPRING_OK) {
			return snap_bad(&k, r, i, "params", "are not a spring set_params accepts");
		}
		st.limit = kept.limit;
		if (!same_bits(&p, &effective, sizeof p) || !same_bits(&st, &kept, sizeof st)) {
			return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, i, "params", "do not match the transition stepped with");
		}
		r = check_limit(kept.limit);
		if (r != SPRING_OK) {
			return snap_bad(&k, r, i, "limit", "must be 0 (unlimited) or in (0, pi] radians");
		}
		r = check_range(snap_float(&k, ARR_INERTIA, i), INERTIA_MAX);
		if (r != SPRING_OK) {
			return snap_bad(&k, r, i, "inertia", "must be finite and in [0, 100]");
		}
		const int offsets[3] = {ARR_OFFSET, ARR_ANIM_FROM, ARR_ANIM_TO};
		for (int j = 0; j < 3; j++) {
			float o = snap_float(&k, offsets[j], i);
			r = check_angle(o);
			if (r != SPRING_OK) {
				return snap_bad(&k, r, i, "anim_offset", "must be finite and within +-1e6 rad (SPRING_CHAIN2D_MAX_ANGLE)");
			}
		}
		// State as a step leaves it.
		const float angle = snap_float(&k, ARR_ANGLE, i), velocity = snap_float(&k, ARR_VELOCITY, i);
		const float prev = snap_float(&k, ARR_PREV_ANGLE, i), target = snap_float(&k, ARR_TARGET, i);
		if (!folded(angle) || !folded(prev) || !folded(target)) {
			return snap_bad(&k, SPRING_ERROR_OUT_OF_RANGE, i, "angle",
			                "(or prev_angle, target) is not finite and folded onto (-pi, pi]");
		}
		if (!within(velocity, h.max_speed)) {
			return snap_bad(&k, SPRING_ERROR_OUT_OF_RANGE, i, "velocity", "is not finite and within pi / step");
		}
		if (!within(snap_float(&k, ARR_DEFLECTION, i), SPRING_LANE_ERROR_MAX)) {
			return snap_bad(&k, SPRING_ERROR_OUT_OF_RANGE, i, "deflection", "is not finite and within 1e6 rad");
		}
		const float key = snap_float(&k, ARR_KEY, i);
		if (key == key) { // a kept sine and cosine: those of the angle they are kept for
			float sn = 0.0f, cs = 0.0f;
			const float ks = snap_float(&k, ARR_SIN, i), kc = snap_float(&k, ARR_COS, i);
			if (folded(key)) {
				spring_chain2d_lane_sincos(key, &sn, &cs);
			}
			if (!folded(key) || !same_bits(&sn, &ks, sizeof sn) || !same_bits(&cs, &kc, sizeof cs)) {
				return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, i, "sin",
				                "(the kept sine and cosine) do not match their angle");
			}
		}
	}
	return SPRING_OK;
}

spring_result spring_chain2d_internal_check_own_image(const spring_chain2d *live, const unsigned char *image, spring_error *error)
{
	return spring_chain2d_internal_check_image(live, farr(live, ARR_LENGTH), farr(live, ARR_REST), image, error);
}

spring_result spring_chain2d_restore(spring_chain2d *chain, const void *blob, size_t size, spring_error *error)
{
	if (!chain) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain2d", SPRING_ELEMENT_NONE, -1, "chain",
		                               "the chain is NULL");
	}
	const size_t bytes = total_bytes(chain->segment_count);
	const unsigned char *body;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_CHAIN2D, chain2d_shape(chain), bytes, "chain2d",
	                                                  error, &body);
	if (r == SPRING_OK) {
		r = spring_chain2d_internal_check_own_image(chain, body, error);
	}
	if (r == SPRING_OK) {
		spring_internal_snapshot_install(chain, bytes, offsetof(spring_chain2d, owner), body);
	}
	return r;
}
