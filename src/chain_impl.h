// SPDX-License-Identifier: MIT
// Private to the tip chains' sources (not installed; other modules use chain_internal.h): the
// chain's memory block, the small helpers every part reads it with, and what the parts share.
//   chain.c          the design; the API's runtime changes, resets and moves, output
//   chain_layout.c   layout, validation, creation, the pose at rest
//   chain_step.c     the frame driver and the step: the kernel's instances (chain_kernel.h) and
//                    their table, the scalar per-lane calls, the 3D and 2D walks, sleep
//   chain_constrain.c  cone limits, colliders, the inherited-motion caps and rigid moves
//   chain_snapshot.c snapshots and restore's checks
// Calls go one way: chain.c to chain_step.c, and every part to chain_layout.c and
// chain_constrain.c, which call no other part.
#ifndef SPRING_CHAIN_IMPL_H
#define SPRING_CHAIN_IMPL_H

#include "spring/chain.h"

#include "chain_internal.h"
#include "math_internal.h"
#include "spring_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Forced inlining (and kernels kept out of line) is for speed: a build for size (-Os, -Oz: the npm
// package's wasm, which must stay under 150 KB) leaves the choice to the compiler. Same results.
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#else
#define ALWAYS_INLINE inline
#define NOINLINE
#endif

// The float planes of a chain's lane, the state a step reads and writes (each slot of a block of
// lanes one row of `block` floats, [block][bone][slot][lane in block]).
enum {
	P_TX, // simulated tip and velocity
	P_TY,
	P_TZ,
	P_VX,
	P_VY,
	P_VZ,
	P_W,                // world transform of the last step: position x y z, rotation x y z w (7 planes)
	P_WPREV = P_W + 7,  // the step before (7 planes)
	P_GX = P_WPREV + 7, // rigid tip (target) of the last step
	P_GY,
	P_GZ,
	P_COUNT
};

// The per-bone transition of a lane, stored like the planes but in an array of its own
// ([block][bone][slot][lane in block]): the exact transition and its response to a unit
// acceleration (force position, velocity), and k / m for the rest position under forces. A step
// only reads them, and when every chain of a group has the same for a bone (the common case) it
// reads the group's one shared row of that bone instead (trans_shared, trans_state).
enum { T_PP, T_PV, T_VP, T_VV, T_F0, T_F1, T_W2, T_GX, T_GY, T_GZ, T_COUNT }; // T_G: the bone's own gravity

// A group's animated local transform of each bone per lane (spring_chain_group_set_animation),
// stored like the transitions in an array of its own ([block][bone][slot][lane in block]): the
// rotation x y z w (normalised), then the position. A lane without animation holds the rest
// transform. The kernel reads it only while some lane of the group is animated (animated_lanes);
// otherwise every lane takes the shared rest transform. A single chain keeps its one animation
// in anim_local instead.
enum { A_QX, A_QY, A_QZ, A_QW, A_PX, A_PY, A_PZ, A_COUNT };

// What trans_state says of a bone of a group: every lane's transition differs somewhere from the
// others' (the lanes' own are read), all are the same (the shared row is), or a lane's changed
// since it was last looked at (the lanes' own are read until the next frame update compares them).
enum { TRANS_OWN = 0, TRANS_SHARED = 1, TRANS_CHANGED = 2 };

// A group's sleeping lanes' tip, velocity, world transform and target are copied aside while the
// physics runs over every lane of their chunk (save_sleepers): S_COUNT slots per bone.
enum { S_COUNT = 16 };

// Lanes per block of a group's planes (a single chain is one block of one lane): the planes are
// stored [block][bone][slot][lane in block], so that one pointer per (block, bone) reaches every
// slot at a constant offset (slot * BLOCK floats) and a block of a slot is one 64-byte line.
enum { GROUP_BLOCK = 16 };

// Blocks of lanes a frame update takes through all its steps (and the fast kernel through the
// whole chain) before the next ones: 128 chains of 8 bones keep about 100 KB of planes in cache.
enum { CHUNK_BLOCKS = 8 };

// Per-lane scratch of a step, each `lanes` floats, [slot * lanes + lane]: the step's inputs the
// kernel reads per lane (chain_kernel.h keeps everything else in registers).
enum {
	K_RQX, // parent rotation x y z w, then position x y z (bone 0: the root)
	K_RQY,
	K_RQZ,
	K_RQW,
	K_RPX,
	K_RPY,
	K_RPZ,
	K_AX, // the lane's constant acceleration (gravity + wind)
	K_AY,
	K_AZ,
	K_COUNT
};

// Byte offsets of the arrays from the start of the chain's header. For the planes (and the
// per-lane params) they point at the chain's own lane.
typedef struct chain_layout {
	size_t planes, trans, anim, trans_shared, trans_state, saved, params_set, params, gravity_set, rest_local, anim_local,
		tip_local, length, tip_radius, cone_limit, world2, world2_prev;
	size_t colliders, step_local3, step_local2, locals, scratch, flags, roots, lane_roots, total;
} chain_layout;

// Which walk made the last step (the inputs the sleep test compares with).
enum { WALK_NONE = 0, WALK_3D, WALK_2D };

struct spring_chain {
	// (bone_gravity and gravity_lanes sit in what was alignment padding: a larger header would make
	// the largest group, SPRING_GROUP_MAX_CHAINS chains of 8 bones, too big for wasm32.)
	// What a frame update reads or writes of each lane's header (first: within one cache line).
	// Rest and sleep: `resting` = the last step ended snapped at rest; `still` counts the resting
	// steps in a row with identical inputs (2 = asleep: stepping again changes nothing).
	int resting, still, sleep_off;
	int walk;          // WALK_*: the walk of the last step
	int anim_explicit; // the last step's locals came from the step call (step_local3/2), not the store
	int pose_2d;       // the last step was a 2D walk: world2/world2_prev hold the pose, the world planes are stale
	float max_root_speed, max_root_angular_speed; // inherited-motion caps (0 = none)
	spring_vec3 accel;                            // gravity + wind (chain_accel)
	int bone_gravity;    // how many of the chain's (a group's lane's) bones have their own gravity (not 0)
	long long steps_run; // physics steps actually run (white-box tests)
	int bone_count;
	int collider_count;
	int max_colliders;
	int mode_2d;
	int stride;        // lanes side by side in the per-lane params: 1 for a single chain, a group's padded count
	int lanes;         // lanes stepped together (1 for a single chain; every member of a group holds the count)
	int block;         // lanes per block of the planes: 1 for a single chain, GROUP_BLOCK for a group
	int gravity_lanes; // a group's lane 0: how many of its lanes have bone_gravity > 0 (0 for a single chain and other lanes)
	size_t row;        // floats from one bone's slots to the next bone's in a block: slots * block
	size_t member;     // bytes from one group member's header to the next (0 for a single chain)
	spring_chain_projection projection;
	int animated;       // the chain (a group's lane) has its own animation: anim_local (a group: its lane of `anim`)
	int animated_lanes; // a group's lane 0: how many of its lanes are animated (0 for a single chain and other lanes)
	spring_integrator integrator;
	spring_clock clock;
	spring_vec3 gravity, wind;
	// The inherited-motion caps' per-step forms.
	float cap_distance;              // max_root_speed * step
	double cap_cos_half;             // cos(min(max_root_angular_speed * step, pi) / 2)
	float rest_distance, rest_speed; // effective thresholds
	spring_xform2 last_root2;        // the root of the last 2D step, as given
	spring_params chain_params, tip_params;
	spring_internal_owner owner; // set by create; zero for caller memory
	chain_layout at;             // where the arrays are
};

// A 2D bone transform: pivot and the unit direction (cos, sin) of its x axis. 16 bytes.
typedef struct chain_pose2 {
	float x, y, c, s;
} chain_pose2;

// A lane's roots (per lane, side by side: a group's frame update reads and writes them in turn).
typedef struct chain_roots {
	spring_xform3 input;     // root passed with the previous frame
	spring_xform3 step;      // root of the last step
	spring_xform3 step_prev; // root of the step before
} chain_roots;

// The arrays of a chain (its lane), resolved from the offsets for one call. Per-lane arrays are
// indexed [bone * s]; shared ones [bone].
typedef struct chain_arrays {
	int s;         // stride of the per-lane params
	int B;         // lanes per block of the planes
	float *planes; // slot k of bone i of lane 0 (this chain's lane, or a block's first) at planes + i * row + k * B
	size_t row;
	float *trans;              // the transition, likewise: slot k of bone i at trans + i * T_COUNT * B + k * B
	float *anim;               // a group's animated locals, likewise: slot k (A_*) of bone i at anim + i * A_COUNT * B + k * B
	float *trans_shared;       // a group's shared rows: slot k of bone i at [(i * T_COUNT + k) * B], B copies (else unused)
	int *trans_state;          // a group's TRANS_* per bone (else unused)
	float *saved;              // a group's sleeping copies of a chunk's lanes (save_sleepers; else unused)
	spring_params *params_set; // as given (zero = default), per lane
	spring_params *params;     // effective, per lane
	spring_vec3 *gravity_set;  // the bone's own gravity (units/s^2 on its tip, added to the chain's), per lane
	// Shared per-bone configuration.
	spring_xform3 *rest_local;
	spring_xform3 *anim_local;
	spring_vec3 *tip_local;
	float *length;
	float *tip_radius;
	float *cone_limit;
	// Single chains only (stride 1): the 2D walk's poses, colliders, the explicit locals.
	chain_pose2 *world2;
	chain_pose2 *world2_prev;
	spring_chain_collider *colliders;
	spring_xform3 *step_local3; // the explicit locals of the last 3D step, as given
	spring_xform2 *step_local2; // the explicit locals of the last 2D step, as given (mode_2d only)
	spring_xform3 *locals;      // the explicit locals of a 3D step, normalised
	float *scratch;             // a chunk's blocks' scratch (chunk_blocks), then one lane's (lane 0's header only)
	int *flags;                 // 3 * padded lanes ints: at rest, ran, same inputs (lane 0's header only)
	spring_xform3 *roots;       // 4 rows of a chunk's roots (chunk_room): the frame's, then three of steps (lane 0's header only)
	chain_roots *lane_roots;    // per lane: this chain's at [0] (a group's lane j at [j] from lane 0's header)
} chain_arrays;

// Slot `slot` of bone i of the chain's lane (or of a block's lane l at [l]).
#define PLANE_AT(a, slot, i) ((a)->planes + (size_t)(i) * (a)->row + (size_t)(slot) * (size_t)(a)->B)
// Transition slot `slot` (T_*) of bone i of the chain's lane (or of a block's lane l at [l]).
#define TRANS_AT(a, slot, i) ((a)->trans + ((size_t)(i)*T_COUNT + (size_t)(slot)) * (size_t)(a)->B)
// Animation slot `slot` (A_*) of bone i of a group member's lane (or of a block's lane l at [l]).
#define ANIM_AT(a, slot, i) ((a)->anim + ((size_t)(i)*A_COUNT + (size_t)(slot)) * (size_t)(a)->B)

static inline chain_arrays arrays(const spring_chain *c)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	const chain_layout *l = &c->at;
	chain_arrays a;
	a.s = c->stride;
	a.B = c->block;
	a.planes = (float *)(void *)(base + l->planes);
	a.row = c->row;
	a.trans = (float *)(void *)(base + l->trans);
	a.anim = (float *)(void *)(base + l->anim);
	a.trans_shared = (float *)(void *)(base + l->trans_shared);
	a.trans_state = (int *)(void *)(base + l->trans_state);
	a.saved = (float *)(void *)(base + l->saved);
	a.params_set = (spring_params *)(void *)(base + l->params_set);
	a.params = (spring_params *)(void *)(base + l->params);
	a.gravity_set = (spring_vec3 *)(void *)(base + l->gravity_set);
	a.rest_local = (spring_xform3 *)(void *)(base + l->rest_local);
	a.anim_local = (spring_xform3 *)(void *)(base + l->anim_local);
	a.tip_local = (spring_vec3 *)(void *)(base + l->tip_local);
	a.length = (float *)(void *)(base + l->length);
	a.tip_radius = (float *)(void *)(base + l->tip_radius);
	a.cone_limit = (float *)(void *)(base + l->cone_limit);
	a.world2 = (chain_pose2 *)(void *)(base + l->world2);
	a.world2_prev = (chain_pose2 *)(void *)(base + l->world2_prev);
	a.colliders = (spring_chain_collider *)(void *)(base + l->colliders);
	a.step_local3 = (spring_xform3 *)(void *)(base + l->step_local3);
	a.step_local2 = (spring_xform2 *)(void *)(base + l->step_local2);
	a.locals = (spring_xform3 *)(void *)(base + l->locals);
	a.scratch = (float *)(void *)(base + l->scratch);
	a.flags = (int *)(void *)(base + l->flags);
	a.roots = (spring_xform3 *)(void *)(base + l->roots);
	a.lane_roots = (chain_roots *)(void *)(base + l->lane_roots);
	return a;
}

// Bone i's local transform in the lane of `c` (its view `a`) as its steps take it: its own
// animation (a single chain's anim_local, a group lane's slots of `anim`), else the rest pose.
static inline spring_xform3 spring_chain_impl_local(const spring_chain *c, const chain_arrays *a, int i)
{
	if (!c->animated) {
		return a->rest_local[i];
	}
	if (c->block == 1) {
		return a->anim_local[i];
	}
	spring_xform3 t;
	t.rotation = (spring_quat){*ANIM_AT(a, A_QX, i), *ANIM_AT(a, A_QY, i), *ANIM_AT(a, A_QZ, i), *ANIM_AT(a, A_QW, i)};
	t.position = (spring_vec3){*ANIM_AT(a, A_PX, i), *ANIM_AT(a, A_PY, i), *ANIM_AT(a, A_PZ, i)};
	return t;
}

// Writes bone i's local transform `t` into the lane of a group member's view `a` (its slots of `anim`).
static inline void spring_chain_impl_set_lane_local(const chain_arrays *a, int i, spring_xform3 t)
{
	*ANIM_AT(a, A_QX, i) = t.rotation.x;
	*ANIM_AT(a, A_QY, i) = t.rotation.y;
	*ANIM_AT(a, A_QZ, i) = t.rotation.z;
	*ANIM_AT(a, A_QW, i) = t.rotation.w;
	*ANIM_AT(a, A_PX, i) = t.position.x;
	*ANIM_AT(a, A_PY, i) = t.position.y;
	*ANIM_AT(a, A_PZ, i) = t.position.z;
}

// Member j of the lanes that `c` (lane 0) steps.
static inline spring_chain *member(const spring_chain *c, int j)
{
	return (spring_chain *)(void *)((unsigned char *)(uintptr_t)c + (size_t)j * c->member);
}

// The roots of chain c (its lane's).
static inline chain_roots *roots_of(const spring_chain *c)
{
	return (chain_roots *)(void *)((unsigned char *)(uintptr_t)c + c->at.lane_roots);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

static inline int quat_is_finite(spring_quat q)
{
	return spring_internal_finite(q.x) && spring_internal_finite(q.y) && spring_internal_finite(q.z) &&
	       spring_internal_finite(q.w);
}

static inline int vec3_is_finite(spring_vec3 v)
{
	return spring_internal_finite(v.x) && spring_internal_finite(v.y) && spring_internal_finite(v.z);
}

static inline int in_range(float v, float max)
{
	return (v >= -max) & (v <= max);
}

static inline int vec3_in_range(spring_vec3 p, float max)
{
	return in_range(p.x, max) && in_range(p.y, max) && in_range(p.z, max);
}

// An acceleration (gravity, wind, a bone's own gravity): finite, every component within
// SPRING_CHAIN_MAX_ACCELERATION.
static inline spring_result check_accel(spring_vec3 v)
{
	if (!spring_vec3_is_finite(v)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return vec3_in_range(v, SPRING_CHAIN_MAX_ACCELERATION) ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

// A chain's constant acceleration: gravity + wind, a -0 component made +0 (so that the kernel may
// skip adding a zero bone gravity to it: lanes_gravity).
static inline spring_vec3 chain_accel(spring_vec3 gravity, spring_vec3 wind)
{
	const spring_vec3 a = spring_vec3_add(gravity, wind);
	return (spring_vec3){a.x + 0.0f, a.y + 0.0f, a.z + 0.0f};
}

// Whether a bone's own gravity is not zero (+0 or -0 in every component).
static inline int has_gravity(spring_vec3 g)
{
	return g.x != 0.0f || g.y != 0.0f || g.z != 0.0f;
}

// A transform handed to the chain: SPRING_ERROR_NOT_FINITE for a non-finite component,
// SPRING_ERROR_OUT_OF_RANGE for a position beyond SPRING_CHAIN_MAX_COORDINATE; accept_xform3 then
// normalises its rotation in place (zero means identity).
static inline spring_result check_xform3(const spring_xform3 *t)
{
	if (!vec3_is_finite(t->position) || !quat_is_finite(t->rotation)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(t->position, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

static inline spring_result accept_xform3(spring_xform3 *t)
{
	spring_result r = check_xform3(t);
	if (r == SPRING_OK) {
		t->rotation = spring_internal_quat_normalize(t->rotation); // zero in, identity out
	}
	return r;
}

static inline int same_bits(const void *a, const void *b, size_t size)
{
	return memcmp(a, b, size) == 0;
}

static inline spring_xform3 xform3_normalized(spring_xform3 t)
{
	t.rotation = spring_internal_quat_normalize(t.rotation);
	return t;
}

// Transform `slot` (P_W or P_WPREV) of bone i.
static inline spring_xform3 xform_get(const chain_arrays *a, int slot, int i)
{
	const float *p = PLANE_AT(a, slot, i);
	const size_t d = (size_t)a->B;
	spring_xform3 t = {{p[0], p[d], p[2 * d]}, {p[3 * d], p[4 * d], p[5 * d], p[6 * d]}};
	return t;
}

static inline void xform_set(const chain_arrays *a, int slot, int i, spring_xform3 t)
{
	float *p = PLANE_AT(a, slot, i);
	const size_t d = (size_t)a->B;
	p[0] = t.position.x;
	p[d] = t.position.y;
	p[2 * d] = t.position.z;
	p[3 * d] = t.rotation.x;
	p[4 * d] = t.rotation.y;
	p[5 * d] = t.rotation.z;
	p[6 * d] = t.rotation.w;
}

static inline spring_vec3 vec_get(const chain_arrays *a, int slot, int i)
{
	return spring_vec3_make(PLANE_AT(a, slot, i)[0], PLANE_AT(a, slot + 1, i)[0], PLANE_AT(a, slot + 2, i)[0]);
}

static inline void vec_set(const chain_arrays *a, int slot, int i, spring_vec3 v)
{
	PLANE_AT(a, slot, i)[0] = v.x;
	PLANE_AT(a, slot + 1, i)[0] = v.y;
	PLANE_AT(a, slot + 2, i)[0] = v.z;
}

static inline spring_vec3 tip_of(const chain_arrays *a, int i)
{
	return vec_get(a, P_TX, i);
}

static inline spring_vec3 vel_of(const chain_arrays *a, int i)
{
	return vec_get(a, P_VX, i);
}

static inline void set_tip(const chain_arrays *a, int i, spring_vec3 p, spring_vec3 v)
{
	vec_set(a, P_TX, i, p);
	vec_set(a, P_VX, i, v);
}

// The lanes per block of the planes and the floats per bone of a block of `lanes` chains side by
// side (a single chain is one lane).
static inline int block_of(int lanes)
{
	return lanes == 1 ? 1 : GROUP_BLOCK;
}

// The lanes of a chunk that a frame update takes through its steps (CHUNK_BLOCKS blocks, or all
// of fewer lanes): the room of each row of the roots' scratch, indexed from the chunk's first lane.
static inline int chunk_room(int lanes)
{
	const int chunk = CHUNK_BLOCKS * block_of(lanes);
	return lanes < chunk ? lanes : chunk;
}

// The blocks of a chunk (chunk_room's lanes).
static inline size_t chunk_blocks(int lanes)
{
	return ((size_t)chunk_room(lanes) + (size_t)block_of(lanes) - 1u) / (size_t)block_of(lanes);
}

// 2D poses: a pivot and a unit direction (cos, sin).
static inline chain_pose2 pose2_make(double x, double y, double c, double s)
{
	double n = sqrt(c * c + s * s);
	chain_pose2 p = {(float)x, (float)y, 1.0f, 0.0f};
	if (n > 0.0) {
		p.c = (float)(c / n);
		p.s = (float)(s / n);
	}
	return p;
}

// parent * local: local's pivot and rotation carried into the parent's frame.
static inline chain_pose2 pose2_mul(chain_pose2 parent, chain_pose2 local)
{
	double pc = parent.c, ps = parent.s, lx = local.x, ly = local.y, lc = local.c, ls = local.s;
	return pose2_make((double)parent.x + (pc * lx - ps * ly), (double)parent.y + (ps * lx + pc * ly), pc * lc - ps * ls,
	                  ps * lc + pc * ls);
}

// The in-plane part of a 3D transform: its position's xy and the direction of its x axis.
static inline chain_pose2 pose2_of_xform3(spring_xform3 t)
{
	double x = (double)t.rotation.x, y = (double)t.rotation.y, z = (double)t.rotation.z, w = (double)t.rotation.w;
	return pose2_make(t.position.x, t.position.y, 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z));
}

static inline chain_pose2 pose2_of_xform2(spring_xform2 t)
{
	double s, c;
	spring_det_sincos((double)t.angle, &s, &c);
	return pose2_make(t.position.x, t.position.y, c, s);
}

// The rotation about z by the unit direction (c, s), from half-angle identities (no trigonometry).
static inline spring_quat quat_of_direction(double c, double s)
{
	double w, z;
	if (c >= 0.0) {
		w = sqrt(0.5 * (1.0 + c));
		z = s / (2.0 * w);
	} else {
		z = sqrt(0.5 * (1.0 - c));
		z = s < 0.0 ? -z : z;
		w = s / (2.0 * z);
	}
	spring_quat q = {0.0f, 0.0f, (float)z, (float)w};
	return spring_quat_normalize(q);
}

static inline spring_xform3 xform3_of_pose2(chain_pose2 p)
{
	spring_xform3 t = {spring_vec3_make(p.x, p.y, 0.0f), quat_of_direction(p.c, p.s)};
	return t;
}

// The world angle of a 2D pose, in (-pi, pi].
static inline float pose2_angle(chain_pose2 p)
{
	return spring_internal_angle_fold(spring_det_atan2((double)p.s, (double)p.c));
}

static ALWAYS_INLINE spring_xform3 xform3_lerp(spring_xform3 a, spring_xform3 b, float t)
{
	spring_xform3 r = {spring_internal_vec3_lerp(a.position, b.position, t),
	                   spring_internal_quat_nlerp(a.rotation, b.rotation, t)};
	return r;
}

// Rest and sleep bookkeeping after a step that ran.
static inline void after_step(spring_chain *c, int walk, int at_rest, int same_inputs)
{
	c->steps_run++;
	c->resting = at_rest;
	c->still = at_rest ? (same_inputs && c->still > 0 ? 2 : 1) : 0;
	c->walk = walk;
}

// A frame time an update takes: finite (NOT_FINITE) and >= 0 (OUT_OF_RANGE).
static inline spring_result check_frame_dt(float frame_dt)
{
	if (!spring_internal_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return frame_dt < 0.0f ? SPRING_ERROR_OUT_OF_RANGE : SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Shared between the parts (spring_chain_impl_*: every symbol of the library starts with spring_)

// chain_layout.c
spring_result spring_chain_impl_bone_settings(const spring_chain *c, int i, spring_params own, spring_vec3 gravity,
                                              spring_params *out, float trans[T_COUNT]);
spring_result spring_chain_impl_prepare_bone(spring_chain *c, const chain_arrays *a, int i);
spring_result spring_chain_impl_validate_collider(const spring_chain_collider *k, int index, spring_error *error);
spring_result spring_chain_impl_check_animation(const spring_chain *chain, const spring_xform3 *local, int count);
spring_result spring_chain_impl_accept_xform2(spring_xform2 t);
void spring_chain_impl_wake(spring_chain *c);
void spring_chain_impl_set_root_limits(spring_chain *c, float speed, float angular);
void spring_chain_impl_pose_at_rest(spring_chain *c, spring_xform3 root);
void spring_chain_impl_share_transitions(const spring_chain *c, const chain_arrays *a, int n);

// chain_constrain.c
spring_vec3 spring_chain_impl_cone_clamp(spring_vec3 dir, spring_vec3 axis, float limit, int mode_2d, spring_vec3 *outward);
int spring_chain_impl_collide(const spring_chain_collider *k, float tip_radius, spring_vec3 pivot, float len, spring_vec3 *dir,
                              int mode_2d, spring_vec3 *normal);
spring_vec3 spring_chain_impl_remove_component(spring_vec3 v, spring_vec3 n, int sign);
void spring_chain_impl_move_rigidly(spring_chain *c, spring_xform3 to);
void spring_chain_impl_cap_root_motion(spring_chain *c, spring_xform3 root);

// ---------------------------------------------------------------------------------------------
// The step's kernel (chain_kernel.h, built in kernels_<set>.c) and what it calls

// The bones [i0, i1) of `lanes` lanes from the first block's, stepped by the kernel.
typedef struct fast_job {
	const spring_chain *c;
	const chain_arrays *a;       // the first block's view
	size_t block_floats;         // floats from one block's planes to the next's
	size_t trans_floats;         // floats from one block's transitions to the next's
	const float *k;              // the first block's scratch: roots (K_RQ, K_RP) and accelerations (K_A)
	int *rest;                   // the lanes' rest flags (0 or 1, whole vectors), cleared for lanes not at rest
	int lanes;                   // lanes (whole vectors run: the padding lanes' results are unused)
	int i0, i1;                  // bones
	const spring_xform3 *locals; // every bone's local transform this step, the same in every lane
	const float *anim;           // NULL, or the first block's animated locals (A_*): each lane's own instead of `locals`
} fast_job;

// How a bone's tip step departs from the common case, the fast kernel's (every field 0: the exact
// transition, 3D, the projection's velocity removal, no cone limit, no colliders, stepping).
typedef struct tip_mode {
	int semi;    // semi-implicit Euler with the lanes' params (else the exact transition)
	int flat;    // 2D mode: z held at 0
	int keep;    // the projection keeps the radial velocity (SPRING_CHAIN_PROJECTION_KEEP_VELOCITY)
	int collide; // the chain has colliders
	int snap;    // the snapping walk: tips put exactly at their rest positions, still
	float cone;  // the bone's cone limit in radians (0: none)
	int gravity; // some bone of some lane has its own gravity (added to the lane's acceleration)
} tip_mode;
#define FAST_MODE ((tip_mode){0, 0, 0, 0, 0, 0.0f, 0})
#define FAST_MODE_GRAVITY ((tip_mode){0, 0, 0, 0, 0, 0.0f, 1})

// Whether the lanes of `c` (a single chain, a group's lane 0, or a member walked alone) add the
// bones' own gravity. Without any, the add is skipped: every T_G slot is zero then, and adding a
// zero to an acceleration that is never -0 (chain_accel) changes no bit.
static inline int lanes_gravity(const spring_chain *c)
{
	return c->bone_gravity > 0 || c->gravity_lanes > 0;
}

// Bone i's mode in chain c's step (snap: the snapping walk's); the one place that tells.
static inline tip_mode bone_mode(const spring_chain *c, const chain_arrays *a, int i, int snap)
{
	const float cone = a->cone_limit[i];
	const tip_mode m = {c->integrator != SPRING_INTEGRATOR_EXACT,
	                    c->mode_2d != 0,
	                    c->projection != SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY,
	                    c->collider_count > 0,
	                    snap != 0,
	                    cone > 0.0f ? cone : 0.0f,
	                    lanes_gravity(c)};
	return m;
}

// Whether a tip at (x, y, z) moving at (vx, vy, vz) is within the rest thresholds of the rest
// position r. Far from the origin floats are coarse: a tip at 1e4 units moves in steps of 1e-3,
// which may be above the thresholds. A few units in the last place of the coordinates (and that
// much per step in speed) is the finest rest floats can tell, so the thresholds never go below it.
// (The kernel's vector test, chain_kernel.h, is this one's operations lane by lane.)
static inline int spring_chain_impl_rest_ok(const spring_chain *c, float x, float y, float z, float vx, float vy, float vz,
                                            float rx, float ry, float rz, float per_step)
{
	float ax = fabsf(rx), ay = fabsf(ry), az = fabsf(rz);
	float m = ax > ay ? ax : ay;
	m = m > az ? m : az;
	float grain = 8.0f * FLT_EPSILON * m;
	float rd = c->rest_distance > grain ? c->rest_distance : grain;
	float gs = grain * per_step;
	float rs = c->rest_speed > gs ? c->rest_speed : gs;
	float ex = x - rx, ey = y - ry, ez = z - rz;
	return (vx * vx + vy * vy + vz * vz <= rs * rs) & (ex * ex + ey * ey + ez * ez <= rd * rd);
}

// The tip kernel's scalar calls for a lane's rare work (chain_constrain.c): its rest position
// (the rigid tip, or under a constant acceleration the pendulum's equilibrium), its cone limit and
// colliders, and the aim's half turn near anti-parallel.
spring_vec3 spring_chain_impl_rest_position(const spring_chain *c, float w2, float len, spring_vec3 pivot, spring_vec3 rigid_tip,
                                            spring_vec3 accel);
void spring_chain_impl_cone_lane(const spring_chain *c, float limit, spring_vec3 u, spring_vec3 *d, spring_vec3 *v);
void spring_chain_impl_collide_lane(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 *d,
                                    spring_vec3 *v);
spring_quat spring_chain_impl_aim_flip(const spring_chain *c, spring_vec3 u, spring_quat rigid);

#endif
