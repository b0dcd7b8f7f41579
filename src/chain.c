// SPDX-License-Identifier: MIT
// spring_chain: tip springs (the undulation recipe), 3D with a 2D mode.
//
// Per fixed step, root to tip, for bone i:
//   rigid      = parent_simulated * rest_local[i]          (parent = root for bone 0)
//   pivot      = rigid.position,  rigid_tip = rigid * tip[i]
//   tip, vel  <- spring step toward rigid_tip (+ constant forces as an equilibrium shift)
//   cone limit around the rigid direction, projection back to the bone length (and the
//   projected-away relative velocity removed), colliders (sliding on the length sphere)
//   world[i]   = shortest-arc rotation (rigid_tip - pivot -> tip - pivot) * rigid, at the pivot
//
// Lanes: the per-bone state of a chain is stored as float slots in blocks of lanes,
// [block][bone][slot][lane in block], so that a group of chains of one shape (chain_group.c) is
// the same code with its chains side by side (blocks of GROUP_BLOCK lanes; a single chain is one
// block of one lane): every chain of a group has its own spring_chain header whose array offsets
// point at its lane. The transitions (read, never written, by a step) are in an array of their
// own laid out the same; a group whose chains all have the same for a bone (the common case)
// reads one shared row of it instead, so a frame streams only the state it writes. The step is
// one kernel (chain_kernel.h) instantiated for one lane and for the vectors of each instruction
// set, for every chain and mode: the common case (the exact integrator, 3D, no cone limit, no
// colliders) with its mode a constant, the rest bone by bone in each bone's mode. Every operation of a step is an IEEE float
// operation on one lane (no contraction, no reassociation), so a lane's bits do not depend on its
// neighbours or on vectorisation. Rare per-lane work (cone limits, colliders, degenerate
// directions, rest under forces, the inherited-motion caps) runs as scalar code on the lanes that
// need it. A frame update takes a group's chains chunk by chunk (CHUNK_BLOCKS blocks) through all
// the frame's steps, and the chunk's awake, uncapped chains through them without per-step
// bookkeeping (plain_steps); lanes that fill one block (a single chain, a small group) take two
// steps at a time a bone apart (fast_pair), so that the two walks down the chain overlap.
//
// Two frame walks share the kernel's tip step (`tip` in chain_kernel.h): walk_lanes in 3D with
// quaternions, and walk_2d, for mode_2d chains driven
// through spring_chain_internal_step2d, where rotations are unit complex numbers (cos, sin) and
// no trigonometry runs per bone except for an animated local angle.
// The pose of the last step is kept in the representation of the walk that made it (the world
// planes or world2, `pose_2d` says which) and converted only when read the other way.
//
// Unit quaternions: roots and locals are normalised once when they come in; a step composes them
// in float and keeps each bone's rotation unit by one Newton step on its norm (no square root,
// no division), which holds the norm within a few ulp whatever the chain's length. The aim is the
// shortest arc from the rigid to the simulated direction with one square root.
//
// Memory: one block, the struct then 16-byte aligned arrays addressed by offsets from the
// struct (never stored pointers), so a chain can be copied byte for byte and keep working.
//
// This file is the API's runtime changes, moves and output; chain_impl.h lists the other parts.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain_impl.h"
#include "lanes_scalar.h"
#include "simd_internal.h" // SPRING_SIMD_X86 and its intrinsics (the pose's transposes)

#include <math.h>

// The fast kernel's one-lane rotation (rot_f): the tips drawn are the kernel's bits.
#define L LANES_SCALAR
#define KERNEL(name) name##_f
#define TARGET
#include "chain_lane_ops.h"
#undef L
#undef KERNEL
#undef TARGET

// Before a loop over lanes whose arrays never overlap (different planes and scratch slots): lets
// the compiler vectorise it without run-time alias checks. Changes no result.
#if defined(__clang__)
// (A single chain runs the same loop once: clang then reports that it could not vectorise it.)
#pragma clang diagnostic ignored "-Wpass-failed"
#define LANES_INDEPENDENT _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define LANES_INDEPENDENT _Pragma("GCC ivdep")
#else
#define LANES_INDEPENDENT
#endif

// ---------------------------------------------------------------------------------------------
// Updates of many chains, resets and moves

spring_result spring_chain_update_many(spring_chain *const *chains, const spring_xform3 *roots, int count, float frame_dt)
{
	if (!chains || !roots || count < 0) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	// Everything an update checks, checked for every chain before any moves: a refused call
	// changes no chain.
	spring_result r = check_frame_dt(frame_dt);
	for (int i = 0; i < count && r == SPRING_OK; i++) {
		r = chains[i] ? check_xform3(&roots[i]) : SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < count && r == SPRING_OK; i++) {
		r = spring_chain_update(chains[i], roots[i], frame_dt);
	}
	return r;
}

spring_result spring_chain_reset(spring_chain *chain, spring_xform3 root)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = accept_xform3(&root);
	if (r != SPRING_OK) {
		return r;
	}
	spring_chain_impl_pose_at_rest(chain, root);
	return SPRING_OK;
}

spring_result spring_chain_teleport(spring_chain *chain, spring_xform3 root)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = accept_xform3(&root);
	if (r != SPRING_OK) {
		return r;
	}
	spring_chain_impl_move_rigidly(chain, root);
	roots_of(chain)->input = root;
	spring_chain_impl_wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_translate(spring_chain *chain, spring_vec3 delta)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec3_is_finite(delta)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_xform3 root = roots_of(chain)->step;
	root.position = spring_vec3_add(root.position, delta);
	return spring_chain_teleport(chain, root);
}

spring_result spring_chain_rotate(spring_chain *chain, spring_quat rotation, spring_vec3 pivot)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!quat_is_finite(rotation) || !spring_vec3_is_finite(pivot)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(pivot, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	rotation = spring_quat_normalize(rotation); // zero means identity
	spring_xform3 root = roots_of(chain)->step;
	root.position = spring_vec3_add(pivot, spring_quat_rotate(rotation, spring_vec3_sub(root.position, pivot)));
	root.rotation = spring_quat_normalize(spring_quat_mul(rotation, root.rotation));
	return spring_chain_teleport(chain, root);
}

// ---------------------------------------------------------------------------------------------
// Runtime changes

spring_result spring_chain_internal_set_lane_animation(spring_chain *first, int lane, const spring_xform3 *local, int count)
{
	spring_chain *c = member(first, lane);
	if (local ? count != c->bone_count : count != 0 && count != c->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = local ? spring_chain_impl_check_animation(c, local, count) : SPRING_OK;
	if (r != SPRING_OK) {
		return r;
	}
	const chain_arrays a = arrays(c);
	for (int i = 0; i < c->bone_count; i++) {
		spring_xform3 t = local ? local[i] : a.rest_local[i];
		t.rotation = local ? spring_quat_normalize(t.rotation) : t.rotation;
		if (c->block > 1) {
			spring_chain_impl_set_lane_local(&a, i, t); // a group's lane
		} else if (local) {
			a.anim_local[i] = t;
		}
	}
	if (c->block > 1) {
		first->animated_lanes += (local != NULL) - c->animated;
	}
	c->animated = local != NULL;
	spring_chain_impl_wake(c);
	return SPRING_OK;
}

spring_result spring_chain_set_animation(spring_chain *chain, const spring_xform3 *local, int count)
{
	return chain ? spring_chain_internal_set_lane_animation(chain, 0, local, count) : SPRING_ERROR_INVALID_ARGUMENT;
}

spring_result spring_chain_set_params(spring_chain *chain, int bone, spring_params params)
{
	if (!chain || bone < 0 || bone >= chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	chain_arrays a = arrays(chain);
	size_t at = (size_t)bone * (size_t)a.s;
	spring_params old = a.params_set[at];
	a.params_set[at] = params;
	spring_result r = spring_chain_impl_prepare_bone(chain, &a, bone);
	if (r != SPRING_OK) {
		a.params_set[at] = old;
	} else {
		spring_chain_impl_wake(chain);
	}
	return r;
}

spring_result spring_chain_set_cone_limit(spring_chain *chain, int bone, float cone_limit)
{
	if (!chain || bone < 0 || bone >= chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(cone_limit)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (cone_limit < 0.0f || cone_limit >= (float)SPRING_PI) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	arrays(chain).cone_limit[bone] = cone_limit;
	spring_chain_impl_wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_internal_set_lane_bone_gravity(spring_chain *first, int lane, int bone, spring_vec3 gravity)
{
	spring_chain *chain = first ? member(first, lane) : NULL;
	if (!chain || bone < 0 || bone >= chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_accel(gravity);
	if (r != SPRING_OK) {
		return r;
	}
	chain_arrays a = arrays(chain);
	spring_vec3 *own = &a.gravity_set[(size_t)bone * (size_t)a.s];
	const int had = chain->bone_gravity > 0;
	chain->bone_gravity += has_gravity(gravity) - has_gravity(*own);
	if (chain->block > 1) {
		first->gravity_lanes += (chain->bone_gravity > 0) - had;
	}
	*own = gravity;
	spring_chain_impl_prepare_bone(chain, &a, bone); // the params are the bone's, accepted before
	spring_chain_impl_wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_bone_gravity(spring_chain *chain, int bone, spring_vec3 gravity)
{
	return spring_chain_internal_set_lane_bone_gravity(chain, 0, bone, gravity);
}

spring_result spring_chain_set_forces(spring_chain *chain, spring_vec3 gravity, spring_vec3 wind)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_accel(gravity) != SPRING_OK ? check_accel(gravity) : check_accel(wind);
	if (r != SPRING_OK) {
		return r;
	}
	chain->gravity = gravity;
	chain->wind = wind;
	chain->accel = chain_accel(gravity, wind);
	spring_chain_impl_wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_colliders(spring_chain *chain, const spring_chain_collider *colliders, int count)
{
	if (!chain || count < 0 || count > chain->max_colliders || (count > 0 && !colliders)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < count; i++) {
		spring_result r = spring_chain_impl_validate_collider(&colliders[i], i, NULL);
		if (r != SPRING_OK) {
			return r;
		}
	}
	chain_arrays a = arrays(chain);
	for (int i = 0; i < count; i++) {
		a.colliders[i] = colliders[i];
	}
	chain->collider_count = count;
	spring_chain_impl_wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_root_limits(spring_chain *chain, float max_root_speed, float max_root_angular_speed)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(max_root_speed) || !spring_is_finite(max_root_angular_speed)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (max_root_speed < 0.0f || max_root_angular_speed < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_chain_impl_set_root_limits(chain, max_root_speed, max_root_angular_speed);
	spring_chain_impl_wake(chain);
	return SPRING_OK;
}

bool spring_chain_is_resting(const spring_chain *chain)
{
	return chain && chain->resting;
}

void spring_chain_internal_set_sleep(spring_chain *chain, bool allowed)
{
	if (chain) {
		chain->sleep_off = !allowed;
	}
}

long long spring_chain_internal_steps_run(const spring_chain *chain)
{
	return chain ? chain->steps_run : 0;
}

// ---------------------------------------------------------------------------------------------
// Output

int spring_chain_bone_count(const spring_chain *chain)
{
	return chain ? chain->bone_count : 0;
}

// The last stepped pose of bone i in 3D, whichever walk made it.
static spring_xform3 world_at(const spring_chain *c, const chain_arrays *a, int i, int prev)
{
	if (c->pose_2d) {
		return xform3_of_pose2(prev ? a->world2_prev[i] : a->world2[i]);
	}
	return xform_get(a, prev ? P_WPREV : P_W, i);
}

spring_result spring_chain_internal_pose(const spring_chain *chain, float alpha, spring_xform3 *bones, spring_vec3 *tips,
                                         int capacity)
{
	if (!chain || (!bones && !tips)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, chain->bone_count);
	if (room != SPRING_OK) {
		return room;
	}
	chain_arrays a = arrays(chain);
	// Root to tip: the interpolated root, then each bone's transform relative to its parent
	// interpolated between the two steps (position linearly, rotation by nlerp) and carried by
	// the parent's drawn transform, so each joint sits on its parent's drawn bone. Alpha 0 and 1
	// are the stepped poses themselves (no interpolation work).
	int stepped = alpha >= 1.0f || alpha <= 0.0f;
	spring_xform3 parent_prev = roots_of(chain)->step_prev, parent = roots_of(chain)->step;
	spring_xform3 drawn_parent = stepped ? parent : xform3_lerp(parent_prev, parent, alpha);
	for (int i = 0; i < chain->bone_count; i++) {
		spring_xform3 b;
		if (stepped) {
			b = world_at(chain, &a, i, alpha <= 0.0f);
		} else {
			spring_xform3 prev = world_at(chain, &a, i, 1), cur = world_at(chain, &a, i, 0);
			spring_xform3 local_prev = spring_xform3_mul(spring_xform3_inverse(parent_prev), prev);
			spring_xform3 local = spring_xform3_mul(spring_xform3_inverse(parent), cur);
			b = xform3_normalized(spring_xform3_mul(drawn_parent, xform3_lerp(local_prev, local, alpha)));
			parent_prev = prev;
			parent = cur;
			drawn_parent = b;
		}
		if (bones) {
			bones[i] = b;
		}
		if (tips) {
			// From the transform, so the rendered bone keeps its exact length.
			spring_vec3 t = a.tip_local[i], r;
			rot_f(b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w, t.x, t.y, t.z, &r.x, &r.y, &r.z);
			tips[i] = spring_vec3_make(b.position.x + r.x, b.position.y + r.y, b.position.z + r.z);
		}
	}
	return SPRING_OK;
}

#if SPRING_SIMD_X86
// Four lanes' transforms (slots P_W .. P_W + 6 from px .. qw, lane j at [j]) into out[0], out[step],
// out[2 step], out[3 step]: the rows of the planes transposed (the same floats, moved).
static void pose4(const float *px, const float *py, const float *pz, const float *qx, const float *qy, const float *qz,
                  const float *qw, spring_xform3 *out, size_t step)
{
	__m128 a = _mm_loadu_ps(px), b = _mm_loadu_ps(py), c = _mm_loadu_ps(pz), d = _mm_loadu_ps(qx);
	__m128 e = d, f = _mm_loadu_ps(qy), g = _mm_loadu_ps(qz), h = _mm_loadu_ps(qw);
	_MM_TRANSPOSE4_PS(a, b, c, d); // lane j: position x y z, rotation x
	_MM_TRANSPOSE4_PS(e, f, g, h); // lane j: rotation x y z w
	const __m128 head[4] = {a, b, c, d}, tail[4] = {e, f, g, h};
	for (int j = 0; j < 4; j++) {
		float *o = &out[(size_t)j * step].position.x; // 7 consecutive floats
		_mm_storeu_ps(o, head[j]);
		_mm_storeu_ps(o + 3, tail[j]); // rotation x again, the same value
	}
}
#endif

spring_result spring_chain_internal_lanes_pose(const spring_chain *first, int lanes, float alpha, spring_xform3 *bones,
                                               spring_vec3 *tips)
{
	const int n = first->bone_count;
	if (!(alpha >= 1.0f || alpha <= 0.0f)) {
		for (int j = 0; j < lanes; j++) {
			size_t at = (size_t)j * (size_t)n;
			spring_chain_internal_pose(member(first, j), alpha, bones ? bones + at : NULL, tips ? tips + at : NULL, n);
		}
		return SPRING_OK;
	}
	// A stepped pose (alpha 0 or 1): the planes themselves, bone by bone across the chains; the
	// tips computed over a block of lanes at once (the same operations as spring_chain_internal_pose).
	const chain_arrays a0 = arrays(first);
	const int slot = alpha <= 0.0f ? P_WPREV : P_W;
	enum { BLOCK = GROUP_BLOCK };
	float tx[BLOCK], ty[BLOCK], tz[BLOCK];
	for (int j0 = 0; j0 < lanes; j0 += a0.B) {
		chain_arrays a = a0;
		a.planes += (size_t)(j0 / a0.B) * (size_t)n * a0.row;
		int m = lanes - j0 < a0.B ? lanes - j0 : a0.B;
#if defined(__GNUC__)
		// The lines read here of the block two on (7 of each bone's row: a pattern with gaps that
		// the hardware's prefetchers follow less well than a stream) fetched ahead: the planes of
		// many chains are out of the nearer caches by the time the poses are read.
		if (j0 + 2 * a0.B < lanes) {
			const float *ahead = a.planes + 2u * (size_t)n * a0.row + (size_t)slot * (size_t)a0.B;
			for (int i = 0; i < n; i++) {
				for (int q = 0; q < 7; q++) {
					__builtin_prefetch(ahead + (size_t)i * a0.row + (size_t)q * (size_t)a0.B);
				}
			}
		}
#endif
		for (int i = 0; i < n; i++) {
			const float *px = PLANE_AT(&a, slot, i), *py = PLANE_AT(&a, slot + 1, i), *pz = PLANE_AT(&a, slot + 2, i);
			const float *qx = PLANE_AT(&a, slot + 3, i), *qy = PLANE_AT(&a, slot + 4, i), *qz = PLANE_AT(&a, slot + 5, i),
						*qw = PLANE_AT(&a, slot + 6, i);
			const spring_vec3 t = a.tip_local[i];
			if (tips) {
				LANES_INDEPENDENT
				for (int j = 0; j < m; j++) {
					float rx, ry, rz;
					rot_f(qx[j], qy[j], qz[j], qw[j], t.x, t.y, t.z, &rx, &ry, &rz);
					tx[j] = px[j] + rx;
					ty[j] = py[j] + ry;
					tz[j] = pz[j] + rz;
				}
			}
			int j4 = bones ? 0 : m;
#if SPRING_SIMD_X86
			// Four lanes at a time: the planes' rows transposed into the transforms.
			for (; j4 + 4 <= m; j4 += 4) {
				pose4(px + j4, py + j4, pz + j4, qx + j4, qy + j4, qz + j4, qw + j4,
				      &bones[(size_t)(j0 + j4) * (size_t)n + (size_t)i], (size_t)n);
			}
#endif
			for (int j = j4; j < m; j++) {
				spring_xform3 *o = &bones[(size_t)(j0 + j) * (size_t)n + (size_t)i];
				o->position.x = px[j];
				o->position.y = py[j];
				o->position.z = pz[j];
				o->rotation.x = qx[j];
				o->rotation.y = qy[j];
				o->rotation.z = qz[j];
				o->rotation.w = qw[j];
			}
			for (int j = 0; tips && j < m; j++) {
				tips[(size_t)(j0 + j) * (size_t)n + (size_t)i] = (spring_vec3){tx[j], ty[j], tz[j]};
			}
		}
	}
	return SPRING_OK;
}

int spring_chain_internal_lanes_transition(const spring_chain *first, int bone)
{
	if (!first || first->lanes < 2 || bone < 0 || bone >= first->bone_count) {
		return -1;
	}
	return arrays(first).trans_state[bone];
}

spring_result spring_chain_get_pose(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips, int capacity)
{
	return spring_chain_internal_pose(chain, chain ? chain->clock.alpha : 0.0f, bones, tips, capacity);
}

spring_result spring_chain_get_stepped_pose(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips, int capacity)
{
	return spring_chain_internal_pose(chain, 1.0f, bones, tips, capacity);
}

spring_result spring_chain_internal_stepped_pose2d(const spring_chain *chain, spring_xform2 *world_out)
{
	if (!chain || !world_out || !chain->mode_2d) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	chain_arrays a = arrays(chain);
	for (int i = 0; i < chain->bone_count; i++) {
		chain_pose2 p = chain->pose_2d ? a.world2[i] : pose2_of_xform3(xform_get(&a, P_W, i));
		spring_xform2 t = {{p.x, p.y}, pose2_angle(p), {1.0f, 1.0f}};
		world_out[i] = t;
	}
	return SPRING_OK;
}

spring_result spring_chain_get_state(const spring_chain *chain, int bone, spring_state_vec3 *tip)
{
	if (!chain || !tip || bone < 0 || bone >= chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	chain_arrays a = arrays(chain);
	tip->x = tip_of(&a, bone);
	tip->v = vel_of(&a, bone);
	return SPRING_OK;
}

spring_vec3 spring_chain_get_target(const spring_chain *chain, int bone)
{
	if (!chain || bone < 0 || bone >= chain->bone_count) {
		return spring_vec3_make(0.0f, 0.0f, 0.0f);
	}
	chain_arrays a = arrays(chain);
	return vec_get(&a, P_GX, bone);
}

const spring_clock *spring_chain_clock(const spring_chain *chain)
{
	return chain ? &chain->clock : NULL;
}

spring_result spring_chain_internal_accept_root(spring_xform3 *root)
{
	return accept_xform3(root);
}
