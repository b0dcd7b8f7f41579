// SPDX-License-Identifier: MIT
// Snapshots of the tip chains and restore's checks (chain_impl.h).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain_impl.h"

#include <math.h>

// ---------------------------------------------------------------------------------------------
// Snapshots

// The layout a blob must match: the block's size and where every array sits.
static uint64_t chain_shape(const spring_chain *c)
{
	uint64_t h = spring_hash(SPRING_HASH_INIT, &c->at, sizeof c->at);
	int counts[3] = {c->bone_count, c->max_colliders, c->mode_2d};
	return spring_hash(h, counts, sizeof counts);
}

size_t spring_chain_internal_block_total(const spring_chain *first)
{
	return first->at.total;
}

size_t spring_chain_snapshot_size(const spring_chain *chain)
{
	return chain ? SPRING_SNAPSHOT_HEADER_BYTES + chain->at.total : 0;
}

spring_result spring_chain_snapshot(const spring_chain *chain, void *blob, size_t size)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_internal_snapshot(chain, chain->at.total, offsetof(spring_chain, owner), SPRING_SNAPSHOT_CHAIN,
	                                           chain_shape(chain), blob, size);
	if (r == SPRING_OK) {
		spring_chain_internal_clear_scratch(chain, (unsigned char *)blob + SPRING_SNAPSHOT_HEADER_BYTES);
	}
	return r;
}

// ---------------------------------------------------------------------------------------------
// Restore's checks: a snapshot's chain `image` (any alignment) against the live chain `live` (a
// single chain, or one member of a group, the image then at the member's header). Structure and
// creation-time settings must be `live`'s (layout, counts, lanes, the rest pose, the tips); the
// settings a call can change must pass that call's check, and what it derives from them must be
// what it derives; the state must be what a step leaves: finite, positions and speeds within
// bounds far beyond any motion (SNAP_POSITION_MAX, SNAP_SPEED_MAX), rotations unit, flags 0 or 1.
// Scratch (a frame's roots, flags and step workspace) is written before it is read and not checked.

#define SNAP_POSITION_MAX 1e12f // units: a tip or a joint of a restored chain
#define SNAP_SPEED_MAX 1e15f    // units/s: a tip's velocity

typedef struct chain_snap_check {
	const spring_chain *live;
	const unsigned char *image; // at live's header
	spring_error *error;
} chain_snap_check;

static spring_result snap_bad(const chain_snap_check *k, spring_result r, spring_element element, int index, const char *field,
                              const char *why)
{
	return spring_internal_snapshot_bad(k->error, r, "chain", index >= 0 ? element : SPRING_ELEMENT_NONE, index, field, why);
}

// The image's bytes where `p` (a pointer into the live chain's block) points in the live chain.
static const unsigned char *snap_at(const chain_snap_check *k, const void *p)
{
	return k->image + ((const unsigned char *)p - (const unsigned char *)k->live);
}

static float snap_load(const chain_snap_check *k, const float *p)
{
	float x;
	memcpy(&x, snap_at(k, p), sizeof x);
	return x;
}

static bool snap_same(const chain_snap_check *k, const void *p, size_t size)
{
	return memcmp(snap_at(k, p), p, size) == 0;
}

static bool unit_quat(spring_quat q)
{
	if (!quat_is_finite(q)) {
		return false;
	}
	double n = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
	return n >= 1.0 - 1e-3 && n <= 1.0 + 1e-3;
}

// A transform a step or a call stores: finite, its position within `max`, its rotation unit.
static bool stored_xform3(spring_xform3 t, float max)
{
	return vec3_is_finite(t.position) && vec3_in_range(t.position, max) && unit_quat(t.rotation);
}

static bool vec3_within(spring_vec3 v, float max)
{
	return vec3_is_finite(v) && vec3_in_range(v, max);
}

static spring_xform3 snap_xform(const chain_snap_check *k, const spring_xform3 *p)
{
	spring_xform3 t;
	memcpy(&t, snap_at(k, p), sizeof t);
	return t;
}

// Bone i's animated local transform of a group lane in the image (its slots of `anim`, A_*).
static spring_xform3 snap_lane_local(const chain_snap_check *k, const chain_arrays *a, int i)
{
	spring_xform3 t;
	t.rotation = (spring_quat){snap_load(k, ANIM_AT(a, A_QX, i)), snap_load(k, ANIM_AT(a, A_QY, i)),
	                           snap_load(k, ANIM_AT(a, A_QZ, i)), snap_load(k, ANIM_AT(a, A_QW, i))};
	t.position = (spring_vec3){snap_load(k, ANIM_AT(a, A_PX, i)), snap_load(k, ANIM_AT(a, A_PY, i)),
	                           snap_load(k, ANIM_AT(a, A_PZ, i))};
	return t;
}

// Whether a group lane's animated locals in the image are ones its calls leave: an animation
// set_animation accepts (normalised) when the lane is animated, else exactly the rest pose.
static bool snap_lane_local_ok(const chain_snap_check *k, const chain_arrays *a, int i, int animated, const spring_chain *c)
{
	spring_xform3 t = snap_lane_local(k, a, i);
	if (!animated) {
		return same_bits(&t, &a->rest_local[i], sizeof t);
	}
	return spring_chain_impl_check_animation(c, &t, 1) == SPRING_OK && unit_quat(t.rotation);
}

// A plane transform (P_W, P_WPREV) of bone i in the image.
static spring_xform3 snap_plane_xform(const chain_snap_check *k, const chain_arrays *a, int slot, int i)
{
	const float *p = PLANE_AT(a, slot, i);
	const size_t d = (size_t)a->B;
	spring_xform3 t = {{snap_load(k, p), snap_load(k, p + d), snap_load(k, p + 2 * d)},
	                   {snap_load(k, p + 3 * d), snap_load(k, p + 4 * d), snap_load(k, p + 5 * d), snap_load(k, p + 6 * d)}};
	return t;
}

static spring_vec3 snap_plane_vec(const chain_snap_check *k, const chain_arrays *a, int slot, int i)
{
	return spring_vec3_make(snap_load(k, PLANE_AT(a, slot, i)), snap_load(k, PLANE_AT(a, slot + 1, i)),
	                        snap_load(k, PLANE_AT(a, slot + 2, i)));
}

static bool snap_pose2_ok(chain_pose2 p)
{
	spring_quat q = {p.c, p.s, 0.0f, 0.0f};
	return spring_internal_finite(p.x) && spring_internal_finite(p.y) && in_range(p.x, SNAP_POSITION_MAX) &&
	       in_range(p.y, SNAP_POSITION_MAX) && (unit_quat(q) || (p.c == 0.0f && p.s == 0.0f)); // zero: never stepped in 2D
}

// The header: the structure and creation-time settings, the runtime settings, the flags.
static spring_result check_image_header(const chain_snap_check *k, const spring_chain *h)
{
	const spring_chain *c = k->live;
	if (h->bone_count != c->bone_count || h->max_colliders != c->max_colliders || h->mode_2d != c->mode_2d ||
	    h->stride != c->stride || h->lanes != c->lanes || h->block != c->block || h->row != c->row || h->member != c->member ||
	    h->projection != c->projection || h->integrator != c->integrator || !same_bits(&h->at, &c->at, sizeof h->at) ||
	    !same_bits(&h->chain_params, &c->chain_params, sizeof h->chain_params) ||
	    !same_bits(&h->tip_params, &c->tip_params, sizeof h->tip_params) || !same_bits(&h->rest_distance, &c->rest_distance, 4) ||
	    !same_bits(&h->rest_speed, &c->rest_speed, 4)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "bone_count",
		                "or another setting fixed at creation (layout, colliders, lanes) differs from this chain's");
	}
	const char *why = spring_internal_clock_check(&c->clock, &h->clock);
	if (why) {
		return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "clock", why);
	}
	const int flags[] = {h->resting, h->sleep_off, h->anim_explicit, h->pose_2d, h->animated};
	const char *const names[] = {"resting", "sleep_off", "anim_explicit", "pose_2d", "animated"};
	for (int f = 0; f < (int)(sizeof flags / sizeof flags[0]); f++) {
		if (flags[f] != 0 && flags[f] != 1) {
			return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, names[f], "must be 0 or 1");
		}
	}
	if (h->still < 0 || h->still > 2 || (h->still > 0 && !h->resting) || h->walk < WALK_NONE || h->walk > WALK_2D ||
	    (h->pose_2d && !h->mode_2d) || h->steps_run < 0) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "still",
		                "(or walk, pose_2d, steps_run) is not a value a step leaves");
	}
	if (h->animated_lanes < 0 || h->animated_lanes > c->lanes || (c->block == 1 && h->animated_lanes != 0)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "animated_lanes",
		                "is not a count of the group's animated chains");
	}
	if (h->gravity_lanes < 0 || h->gravity_lanes > c->lanes || (c->block == 1 && h->gravity_lanes != 0)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "gravity_lanes",
		                "is not a count of the group's chains with bones of their own gravity");
	}
	if (h->collider_count < 0 || h->collider_count > h->max_colliders) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "collider_count",
		                "must be in 0..max_colliders");
	}
	if (!spring_vec3_is_finite(h->gravity) || !spring_vec3_is_finite(h->wind) ||
	    !vec3_in_range(h->gravity, SPRING_CHAIN_MAX_ACCELERATION) || !vec3_in_range(h->wind, SPRING_CHAIN_MAX_ACCELERATION)) {
		return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "gravity",
		                "or wind is not finite and within SPRING_CHAIN_MAX_ACCELERATION");
	}
	spring_vec3 accel = chain_accel(h->gravity, h->wind);
	if (!same_bits(&accel, &h->accel, sizeof accel)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "accel", "is not gravity + wind");
	}
	if (!spring_is_finite(h->max_root_speed) || !spring_is_finite(h->max_root_angular_speed) || h->max_root_speed < 0.0f ||
	    h->max_root_angular_speed < 0.0f) {
		return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "max_root_speed",
		                "or max_root_angular_speed is not finite and >= 0");
	}
	spring_chain derived = *h;
	spring_chain_impl_set_root_limits(&derived, h->max_root_speed, h->max_root_angular_speed);
	if (!same_bits(&derived.cap_distance, &h->cap_distance, sizeof h->cap_distance) ||
	    !same_bits(&derived.cap_cos_half, &h->cap_cos_half, sizeof h->cap_cos_half)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "cap_distance",
		                "(the caps' per-step forms) do not match the caps");
	}
	if (spring_chain_impl_accept_xform2(h->last_root2) != SPRING_OK) {
		return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "last_root2",
		                "is not finite and within the coordinate range");
	}
	return SPRING_OK;
}

static spring_result check_image_bones(const chain_snap_check *k, const spring_chain *h)
{
	const spring_chain *c = k->live;
	const chain_arrays a = arrays(c);
	const int n = c->bone_count;
	// The shape fixed at creation.
	if (!snap_same(k, a.rest_local, (size_t)n * sizeof *a.rest_local) ||
	    !snap_same(k, a.tip_local, (size_t)n * sizeof *a.tip_local) || !snap_same(k, a.length, (size_t)n * sizeof *a.length) ||
	    !snap_same(k, a.tip_radius, (size_t)n * sizeof *a.tip_radius)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "rest_local",
		                "(or the tips, lengths, tip radii) differs from this chain's");
	}
	int with_gravity = 0;
	for (int i = 0; i < n; i++) {
		const size_t at = (size_t)i * (size_t)a.s;
		spring_params own, effective, p;
		spring_vec3 gravity;
		memcpy(&own, snap_at(k, &a.params_set[at]), sizeof own);
		memcpy(&effective, snap_at(k, &a.params[at]), sizeof effective);
		memcpy(&gravity, snap_at(k, &a.gravity_set[at]), sizeof gravity);
		if (check_accel(gravity) != SPRING_OK) {
			return snap_bad(k, check_accel(gravity), SPRING_ELEMENT_BONE, i, "gravity",
			                "(the bone's own) is not finite and within +-1e9 units/s^2");
		}
		with_gravity += has_gravity(gravity);
		float trans[T_COUNT];
		spring_result r = spring_chain_impl_bone_settings(c, i, own, gravity, &p, trans);
		if (r != SPRING_OK) {
			return snap_bad(k, r, SPRING_ELEMENT_BONE, i, "params", "are not a spring set_params accepts");
		}
		bool same = same_bits(&p, &effective, sizeof p);
		for (int q = 0; q < T_COUNT && same; q++) {
			float t = snap_load(k, TRANS_AT(&a, q, i));
			same = same_bits(&t, &trans[q], sizeof t);
		}
		if (!same) {
			return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_BONE, i, "params",
			                "do not match the transition stepped with");
		}
		const float cone = snap_load(k, &a.cone_limit[i]);
		if (!spring_is_finite(cone) || cone < 0.0f || cone >= (float)SPRING_PI) {
			return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_BONE, i, "cone_limit", "must be in [0, pi)");
		}
		spring_xform3 anim = snap_xform(k, &a.anim_local[i]);
		if (c->block > 1
		        ? !snap_lane_local_ok(k, &a, i, h->animated, h)
		        : h->animated && (spring_chain_impl_check_animation(h, &anim, 1) != SPRING_OK || !unit_quat(anim.rotation))) {
			return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_BONE, i, "anim_local",
			                "is not an animation set_animation accepts");
		}
		// The state a step leaves.
		const spring_vec3 tip = snap_plane_vec(k, &a, P_TX, i), vel = snap_plane_vec(k, &a, P_VX, i);
		const spring_vec3 target = snap_plane_vec(k, &a, P_GX, i);
		if (!vec3_within(tip, SNAP_POSITION_MAX) || !vec3_within(target, SNAP_POSITION_MAX) ||
		    !vec3_within(vel, SNAP_SPEED_MAX) || (c->mode_2d && (tip.z != 0.0f || vel.z != 0.0f))) {
			return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_BONE, i, "tip",
			                "(or velocity, target) is not finite and within bounds");
		}
		if (!stored_xform3(snap_plane_xform(k, &a, P_W, i), SNAP_POSITION_MAX) ||
		    !stored_xform3(snap_plane_xform(k, &a, P_WPREV, i), SNAP_POSITION_MAX)) {
			return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_BONE, i, "world",
			                "(a bone's transform) is not finite, within bounds and of unit rotation");
		}
		if (c->lanes == 1) { // a single chain's own arrays
			spring_xform3 s3 = snap_xform(k, &a.step_local3[i]), lo = snap_xform(k, &a.locals[i]);
			if (check_xform3(&s3) != SPRING_OK || check_xform3(&lo) != SPRING_OK) { // as given; rotations unused
				return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_BONE, i, "locals",
				                "(the last step's explicit locals) are not finite and within bounds");
			}
			if (c->mode_2d) {
				chain_pose2 w, wp;
				spring_xform2 s2;
				memcpy(&w, snap_at(k, &a.world2[i]), sizeof w);
				memcpy(&wp, snap_at(k, &a.world2_prev[i]), sizeof wp);
				memcpy(&s2, snap_at(k, &a.step_local2[i]), sizeof s2);
				if (!snap_pose2_ok(w) || !snap_pose2_ok(wp) || spring_chain_impl_accept_xform2(s2) != SPRING_OK) {
					return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_BONE, i, "world2",
					                "(a bone's 2D pose) is not finite, within bounds and of unit direction");
				}
			}
		}
	}
	if (h->bone_gravity != with_gravity) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "bone_gravity",
		                "is not the count of the bones with their own gravity");
	}
	for (int j = 0; j < h->collider_count; j++) {
		spring_chain_collider col;
		memcpy(&col, snap_at(k, &a.colliders[j]), sizeof col);
		spring_result r = spring_chain_impl_validate_collider(&col, j, NULL);
		if (r != SPRING_OK) {
			return snap_bad(k, r, SPRING_ELEMENT_COLLIDER, j, "collider", "is not one set_colliders accepts");
		}
	}
	chain_roots roots;
	memcpy(&roots, snap_at(k, roots_of(c)), sizeof roots);
	if (!stored_xform3(roots.input, SPRING_CHAIN_MAX_COORDINATE) || !stored_xform3(roots.step, SPRING_CHAIN_MAX_COORDINATE) ||
	    !stored_xform3(roots.step_prev, SPRING_CHAIN_MAX_COORDINATE)) {
		return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "root",
		                "is not finite, within the coordinate range and of unit rotation");
	}
	return SPRING_OK;
}

// The scratch of the block of `first` (a single chain, or a group's member 0), from its header: the
// sleepers' copies [saved, params_set) and a frame's workspace, flags and roots [scratch,
// lane_roots). Every update writes them before it reads them; snapshots store them as zeros.
static void scratch_spans(const spring_chain *first, size_t span[2][2])
{
	const chain_layout *l = &first->at;
	span[0][0] = l->saved;
	span[0][1] = l->params_set - l->saved;
	span[1][0] = l->scratch;
	span[1][1] = l->lane_roots - l->scratch;
}

void spring_chain_internal_clear_scratch(const spring_chain *first, unsigned char *image)
{
	size_t span[2][2];
	scratch_spans(first, span);
	for (int k = 0; k < 2; k++) {
		memset(image + span[k][0], 0, span[k][1]);
	}
}

static bool scratch_zero(const spring_chain *first, const unsigned char *image)
{
	size_t span[2][2];
	scratch_spans(first, span);
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < span[k][1]; i++) {
			if (image[span[k][0] + i] != 0u) {
				return false;
			}
		}
	}
	return true;
}

spring_result spring_chain_internal_check_image(const spring_chain *live, const unsigned char *image, spring_error *error)
{
	const chain_snap_check k = {live, image, error};
	spring_chain h;
	memcpy(&h, image, sizeof h);
	spring_result r = check_image_header(&k, &h);
	if (r == SPRING_OK && live->lanes == 1 && !scratch_zero(live, image)) {
		r = snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "scratch",
		             "is not zero (as snapshots store it)");
	}
	return r == SPRING_OK ? check_image_bones(&k, &h) : r;
}

uint64_t spring_chain_internal_shape(const spring_chain *c)
{
	return chain_shape(c);
}

// A group's lanes: each member by spring_chain_internal_check_image, then what the lanes share:
// each bone's shared-transition state (TRANS_SHARED only when every lane has lane 0's transition
// and the shared row holds it), and the padding lanes of the last block and of the params' stride
// exactly the live group's (the kernels run whole vectors over them).
spring_result spring_chain_internal_check_lanes_image(const spring_chain *first, int lanes, const unsigned char *image,
                                                      spring_error *error)
{
	for (int j = 0; j < lanes; j++) {
		spring_error inner;
		const spring_chain *mj = member(first, j);
		spring_result r = spring_chain_internal_check_image(
			mj, image + ((const unsigned char *)mj - (const unsigned char *)first), error ? &inner : NULL);
		if (r != SPRING_OK) {
			return error ? spring_internal_error_nest(error, &inner, "chain_group", SPRING_ELEMENT_CHAIN, j) : r;
		}
	}
	const chain_snap_check k = {first, image, error};
	// Lane 0 counts the animated members and those with bones of their own gravity; the others
	// count nothing.
	int animated = 0, counted = 0, stray = 0, gravity = 0, gravity_counted = 0, gravity_stray = 0;
	for (int j = 0; j < lanes; j++) {
		spring_chain h;
		memcpy(&h, snap_at(&k, member(first, j)), sizeof h);
		animated += h.animated;
		counted = j == 0 ? h.animated_lanes : counted;
		stray |= j == 0 ? 0 : h.animated_lanes;
		gravity += h.bone_gravity > 0;
		gravity_counted = j == 0 ? h.gravity_lanes : gravity_counted;
		gravity_stray |= j == 0 ? 0 : h.gravity_lanes;
	}
	if (counted != animated || stray != 0) {
		return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "animated_lanes",
		                "is not the count of the group's animated chains");
	}
	if (gravity_counted != gravity || gravity_stray != 0) {
		return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "gravity_lanes",
		                "is not the count of the group's chains with bones of their own gravity");
	}
	if (!scratch_zero(first, image)) {
		return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "scratch",
		                "is not zero (as snapshots store it)");
	}
	const chain_arrays a = arrays(first);
	const size_t b = (size_t)a.B, n = (size_t)first->bone_count, blocks = ((size_t)lanes + b - 1u) / b;
	for (size_t i = 0; i < n; i++) {
		int state;
		memcpy(&state, snap_at(&k, &a.trans_state[i]), sizeof state);
		bool ok = state == TRANS_OWN || state == TRANS_SHARED || state == TRANS_CHANGED;
		for (int q = 0; q < T_COUNT && ok && state == TRANS_SHARED; q++) {
			const float *lane0 = TRANS_AT(&a, q, i);
			float t0 = snap_load(&k, lane0);
			for (size_t j = 1; j < (size_t)lanes && ok; j++) {
				float t = snap_load(&k, lane0 + j / b * n * T_COUNT * b + j % b);
				ok = same_bits(&t, &t0, sizeof t);
			}
			for (size_t l = 0; l < b && ok; l++) {
				float s = snap_load(&k, a.trans_shared + (i * T_COUNT + (size_t)q) * b + l);
				ok = same_bits(&s, &t0, sizeof s);
			}
		}
		if (!ok) {
			return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_BONE, (int)i, "trans_state",
			                "(the bone's shared transition) is not one the lanes have");
		}
	}
	for (size_t j = (size_t)lanes; j < blocks * b; j++) {
		for (size_t i = 0; i < n; i++) {
			bool same = true; // the planes: stepped with the chains (finite as theirs), the transitions fixed
			for (int slot = 0; slot < P_COUNT && same; slot++) {
				float x = snap_load(&k, a.planes + j / b * n * a.row + i * a.row + (size_t)slot * b + j % b);
				same = spring_internal_finite(x) && in_range(x, SNAP_SPEED_MAX);
			}
			for (int q = 0; q < T_COUNT && same; q++) {
				same = snap_same(&k, TRANS_AT(&a, q, i) + j / b * n * T_COUNT * b + j % b, sizeof(float));
			}
			chain_arrays pad = a; // the padding lane's animated locals: the rest pose
			pad.anim = a.anim + j / b * n * A_COUNT * b + j % b;
			same = same && snap_lane_local_ok(&k, &pad, (int)i, 0, first);
			if (!same) {
				return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "padding",
				                "(the lanes past the last chain) differs from this group's");
			}
		}
	}
	for (size_t j = (size_t)lanes; j < (size_t)a.s; j++) {
		for (size_t i = 0; i < n; i++) {
			if (!snap_same(&k, &a.params_set[i * (size_t)a.s + j], sizeof(spring_params)) ||
			    !snap_same(&k, &a.params[i * (size_t)a.s + j], sizeof(spring_params)) ||
			    !snap_same(&k, &a.gravity_set[i * (size_t)a.s + j], sizeof(spring_vec3))) {
				return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "padding",
				                "(the lanes past the last chain) differs from this group's");
			}
		}
	}
	return SPRING_OK;
}

spring_result spring_chain_restore(spring_chain *chain, const void *blob, size_t size, spring_error *error)
{
	if (!chain) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain", SPRING_ELEMENT_NONE, -1, "chain",
		                               "the chain is NULL");
	}
	const unsigned char *body;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_CHAIN, chain_shape(chain), chain->at.total,
	                                                  "chain", error, &body);
	if (r == SPRING_OK) {
		r = spring_chain_internal_check_image(chain, body, error);
	}
	if (r == SPRING_OK) {
		spring_internal_snapshot_install(chain, chain->at.total, offsetof(spring_chain, owner), body);
	}
	return r;
}
