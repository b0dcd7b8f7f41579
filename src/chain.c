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
// reads one shared row of it instead, so a frame streams only the state it writes. The common
// step (the exact integrator, 3D, no cone limit, no colliders) is one kernel (chain_kernel.h)
// instantiated for one lane and for the vectors of each instruction set; the rest runs bone by
// bone over the lanes of a block in plain float loops. Every operation of a step is an IEEE float
// operation on one lane (no contraction, no reassociation), so a lane's bits do not depend on its
// neighbours or on vectorisation. Rare per-lane work (cone limits, colliders, degenerate
// directions, rest under forces, the inherited-motion caps) runs as scalar code on the lanes that
// need it. A frame update takes a group's chains chunk by chunk (CHUNK_BLOCKS blocks) through all
// the frame's steps, and the chunk's awake, uncapped chains through them without per-step
// bookkeeping (plain_steps); lanes that fill one block (a single chain, a small group) take two
// steps at a time a bone apart (fast_pair), so that the two walks down the chain overlap.
//
// Two frame walks share the tip step (tip_lanes): the 3D one with quaternions, and for mode_2d
// chains driven through spring_chain_internal_step2d a 2D one where rotations are unit complex
// numbers (cos, sin) and no trigonometry runs per bone except for an animated local angle.
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
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/chain.h"

#include "chain_internal.h"
#include "math_internal.h"
#include "simd_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
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

#if SPRING_SIMD_X86
#include <immintrin.h>
#endif
#if SPRING_SIMD_WASM
#include <wasm_simd128.h>
#endif
#if SPRING_SIMD_NEON
#include <arm_neon.h>
#endif

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
enum { T_PP, T_PV, T_VP, T_VV, T_F0, T_F1, T_W2, T_COUNT };

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

// Per-lane scratch of a step, each `lanes` floats, [slot * lanes + lane].
enum {
	K_RQX, // parent rotation x y z w, then position x y z (bone 0: the root)
	K_RQY,
	K_RQZ,
	K_RQW,
	K_RPX,
	K_RPY,
	K_RPZ,
	K_QX, // rigid rotation
	K_QY,
	K_QZ,
	K_QW,
	K_PX, // pivot
	K_PY,
	K_PZ,
	K_UX, // rigid tip - pivot
	K_UY,
	K_UZ,
	K_GX, // rigid tip
	K_GY,
	K_GZ,
	K_XX, // stepped tip before the constraints, then the rest position
	K_XY,
	K_XZ,
	K_VX, // velocity
	K_VY,
	K_VZ,
	K_DX, // unit direction pivot -> tip
	K_DY,
	K_DZ,
	K_N2, // squared distance pivot -> stepped tip, then the aim's squared norm
	K_AX, // the lane's constant acceleration (gravity + wind)
	K_AY,
	K_AZ,
	K_COUNT
};

// Byte offsets of the arrays from the start of the chain's header. For the planes (and the
// per-lane params) they point at the chain's own lane.
typedef struct chain_layout {
	size_t planes, trans, trans_shared, trans_state, saved, params_set, params, rest_local, anim_local, tip_local, length,
		tip_radius, cone_limit, world2, world2_prev;
	size_t colliders, step_local3, step_local2, locals, scratch, flags, roots, lane_roots, total;
} chain_layout;

// Which walk made the last step (the inputs the sleep test compares with).
enum { WALK_NONE = 0, WALK_3D, WALK_2D };

struct spring_chain {
	// What a frame update reads or writes of each lane's header (first: within one cache line).
	// Rest and sleep: `resting` = the last step ended snapped at rest; `still` counts the resting
	// steps in a row with identical inputs (2 = asleep: stepping again changes nothing).
	int resting, still, sleep_off;
	int walk;          // WALK_*: the walk of the last step
	int anim_explicit; // the last step's locals came from the step call (step_local3/2), not the store
	int pose_2d;       // the last step was a 2D walk: world2/world2_prev hold the pose, the world planes are stale
	float max_root_speed, max_root_angular_speed; // inherited-motion caps (0 = none)
	spring_vec3 accel;                            // gravity + wind
	long long steps_run;                          // physics steps actually run (white-box tests)
	int bone_count;
	int collider_count;
	int max_colliders;
	int mode_2d;
	int stride;    // lanes side by side in the per-lane params: 1 for a single chain, a group's padded count
	int lanes;     // lanes stepped together (1 for a single chain; every member of a group holds the count)
	int block;     // lanes per block of the planes: 1 for a single chain, GROUP_BLOCK for a group
	size_t row;    // floats from one bone's slots to the next bone's in a block: slots * block
	size_t member; // bytes from one group member's header to the next (0 for a single chain)
	spring_chain_projection projection;
	int animated; // anim_local is used instead of rest_local
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
	float *trans_shared;       // a group's shared rows: slot k of bone i at [(i * T_COUNT + k) * B], B copies (else unused)
	int *trans_state;          // a group's TRANS_* per bone (else unused)
	float *saved;              // a group's sleeping copies of a chunk's lanes (save_sleepers; else unused)
	spring_params *params_set; // as given (zero = default), per lane
	spring_params *params;     // effective, per lane
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

static chain_arrays arrays(const spring_chain *c)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	const chain_layout *l = &c->at;
	chain_arrays a;
	a.s = c->stride;
	a.B = c->block;
	a.planes = (float *)(void *)(base + l->planes);
	a.row = c->row;
	a.trans = (float *)(void *)(base + l->trans);
	a.trans_shared = (float *)(void *)(base + l->trans_shared);
	a.trans_state = (int *)(void *)(base + l->trans_state);
	a.saved = (float *)(void *)(base + l->saved);
	a.params_set = (spring_params *)(void *)(base + l->params_set);
	a.params = (spring_params *)(void *)(base + l->params);
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

// Member j of the lanes that `c` (lane 0) steps.
static spring_chain *member(const spring_chain *c, int j)
{
	return (spring_chain *)(void *)((unsigned char *)(uintptr_t)c + (size_t)j * c->member);
}

// The roots of chain c (its lane's).
static chain_roots *roots_of(const spring_chain *c)
{
	return (chain_roots *)(void *)((unsigned char *)(uintptr_t)c + c->at.lane_roots);
}

// ---------------------------------------------------------------------------------------------
// The fast step (chain_kernel.h)

// The bones [i0, i1) of `lanes` lanes from the first block's, stepped by fast_run.
typedef struct fast_job {
	const spring_chain *c;
	const chain_arrays *a;       // the first block's view
	size_t block_floats;         // floats from one block's planes to the next's
	size_t trans_floats;         // floats from one block's transitions to the next's
	const float *k;              // the first block's scratch: roots (K_RQ, K_RP) and accelerations (K_A)
	int *rest;                   // the lanes' rest flags (0 or 1, whole vectors), cleared for lanes not at rest
	int lanes;                   // lanes (whole vectors run: the padding lanes' results are unused)
	int i0, i1;                  // bones
	const spring_xform3 *locals; // every bone's local transform this step
} fast_job;

static spring_vec3 rest_position(const spring_chain *c, float w2, float len, spring_vec3 pivot, spring_vec3 rigid_tip,
                                 spring_vec3 accel);
static inline int rest_ok(const spring_chain *c, float x, float y, float z, float vx, float vy, float vz, float rx, float ry,
                          float rz, float per_step);
static spring_quat aim_flip(const spring_chain *c, spring_vec3 u, spring_quat rigid);

// One lane (chain_kernel.h's float defaults): single chains (a block of one lane), and the
// quaternion helpers of the scalar code.
#define KERNEL(name) name##_f
#define TARGET
#define B 1
#include "chain_kernel.h"

// A group's blocks one lane at a time (no vectors on this platform, or the scalar path forced).
#define KERNEL(name) name##_g1
#define TARGET
#define B GROUP_BLOCK
#include "chain_kernel.h"

#if SPRING_SIMD_V4
// Four lanes: SSE2 (the x86-64 baseline), wasm simd128 or NEON.
typedef float chain_vf4 __attribute__((vector_size(16)));
typedef int32_t chain_vi4 __attribute__((vector_size(16)));
#define KERNEL(name) name##_v4
#define TARGET
#define VF chain_vf4
#define VI chain_vi4
#define W 4
#define B GROUP_BLOCK
#define SPLAT(x) ((VF){0.0f, 0.0f, 0.0f, 0.0f} + (x))
#if SPRING_SIMD_X86
#define SQRT(v) ((VF)_mm_sqrt_ps((__m128)(v)))
#define ANY(m) _mm_movemask_ps((__m128)(m))
#elif SPRING_SIMD_WASM
#define SQRT(v) ((VF)wasm_f32x4_sqrt((v128_t)(v)))
#define ANY(m) wasm_v128_any_true((v128_t)(m))
#else
#define SQRT(v) ((VF)vsqrtq_f32((float32x4_t)(v)))
#define ANY(m) (vmaxvq_u32((uint32x4_t)(m)) != 0)
#endif
#define SEL(m, a, b) ((VF)((((VI)(a)) & (m)) | (((VI)(b)) & ~(m))))
#define NOT(m) (~(m))
#define ABSV(v) ((VF)((VI)(v)&0x7fffffff))
#define LANE(v, l) ((v)[l])
#define KEEP_LANE_OPS
#include "chain_kernel.h"
#undef KEEP_LANE_OPS

// A single chain's two steps side by side in the same four-lane vectors (chain_kernel.h's GATHER).
#define GATHER
#define KERNEL(name) name##_p2
#define TARGET
#define B 1
#include "chain_kernel.h"
#undef GATHER
#endif

#if SPRING_SIMD_X86
typedef float chain_vf8 __attribute__((vector_size(32)));
typedef int32_t chain_vi8 __attribute__((vector_size(32)));
#define KERNEL(name) name##_avx2
#define TARGET __attribute__((target("avx2")))
#define VF chain_vf8
#define VI chain_vi8
#define W 8
#define B GROUP_BLOCK
#define SPLAT(x) ((VF){0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f} + (x))
#define SQRT(v) ((VF)_mm256_sqrt_ps((__m256)(v)))
#define ANY(m) _mm256_movemask_ps((__m256)(m))
#define SEL(m, a, b) ((VF)((((VI)(a)) & (m)) | (((VI)(b)) & ~(m))))
#define NOT(m) (~(m))
#define ABSV(v) ((VF)((VI)(v)&0x7fffffff))
#define LANE(v, l) ((v)[l])
#include "chain_kernel.h"

typedef float chain_vf16 __attribute__((vector_size(64)));
typedef int32_t chain_vi16 __attribute__((vector_size(64)));
#define KERNEL(name) name##_avx512
#define TARGET __attribute__((target("avx512f")))
#define VF chain_vf16
#define VI chain_vi16
#define W 16
#define B GROUP_BLOCK
#define SPLAT(x) ((VF){0.0f} + (x))
#define SQRT(v) ((VF)_mm512_sqrt_ps((__m512)(v)))
#define ANY(m) _mm512_test_epi32_mask((__m512i)(m), (__m512i)(m))
#define SEL(m, a, b) ((VF)((((VI)(a)) & (m)) | (((VI)(b)) & ~(m))))
#define NOT(m) (~(m))
#define ABSV(v) ((VF)((VI)(v)&0x7fffffff))
#define LANE(v, l) ((v)[l])
#include "chain_kernel.h"
#endif

// The group kernels of each instruction set (one lane at a time where it has none), and the
// single chain's two steps side by side in vectors (fast_pair_p2) wherever there are vectors.
typedef struct chain_kernels {
	void (*run)(const fast_job *job);
	int (*pair)(const fast_job *first, const fast_job *second);
	int (*single_pair)(const fast_job *first, const fast_job *second);
} chain_kernels;

static const chain_kernels kernels[SPRING_INTERNAL_ISA_COUNT] = {
	[SPRING_INTERNAL_ISA_AUTO] = {fast_run_g1, fast_pair_g1, fast_pair_f}, // never in use: complete
	[SPRING_INTERNAL_ISA_SCALAR] = {fast_run_g1, fast_pair_g1, fast_pair_f},
#if SPRING_SIMD_X86
	[SPRING_INTERNAL_ISA_SSE2] = {fast_run_v4, fast_pair_v4, fast_pair_p2},
	[SPRING_INTERNAL_ISA_AVX2] = {fast_run_avx2, fast_pair_avx2, fast_pair_p2},
	[SPRING_INTERNAL_ISA_AVX512] = {fast_run_avx512, fast_pair_avx512, fast_pair_p2},
#endif
#if SPRING_SIMD_WASM
	[SPRING_INTERNAL_ISA_SIMD128] = {fast_run_v4, fast_pair_v4, fast_pair_p2},
#endif
#if SPRING_SIMD_NEON
	[SPRING_INTERNAL_ISA_NEON] = {fast_run_v4, fast_pair_v4, fast_pair_p2},
#endif
};

// The instruction set in use has an entry: it is one this build has (simd.c chooses only those).
static const chain_kernels *kernels_in_use(void)
{
	return &kernels[spring_internal_isa_current()];
}

// The kernel for a block of B lanes: one lane for a single chain; for a group the widest vectors
// of the instruction set in use (the tests force each in turn).
static void fast_run(const fast_job *job)
{
	if (job->a->B == 1) {
		fast_run_f(job);
		return;
	}
	kernels_in_use()->run(job);
}

// fast_pair_* of the same instance as fast_run: two steps a bone apart (chain_kernel.h).
static int fast_pair(const fast_job *first, const fast_job *second)
{
	const chain_kernels *k = kernels_in_use();
	return first->a->B == 1 ? k->single_pair(first, second) : k->pair(first, second);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

static int quat_is_finite(spring_quat q)
{
	return spring_internal_finite(q.x) && spring_internal_finite(q.y) && spring_internal_finite(q.z) &&
	       spring_internal_finite(q.w);
}

static int vec3_is_finite(spring_vec3 v)
{
	return spring_internal_finite(v.x) && spring_internal_finite(v.y) && spring_internal_finite(v.z);
}

static int in_range(float v, float max)
{
	return (v >= -max) & (v <= max);
}

static int vec3_in_range(spring_vec3 p, float max)
{
	return in_range(p.x, max) && in_range(p.y, max) && in_range(p.z, max);
}

// A transform handed to the chain: SPRING_ERROR_NOT_FINITE for a non-finite component,
// SPRING_ERROR_OUT_OF_RANGE for a position beyond SPRING_CHAIN_MAX_COORDINATE; accept_xform3 then
// normalises its rotation in place (zero means identity).
static spring_result check_xform3(const spring_xform3 *t)
{
	if (!vec3_is_finite(t->position) || !quat_is_finite(t->rotation)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(t->position, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

static spring_result accept_xform3(spring_xform3 *t)
{
	spring_result r = check_xform3(t);
	if (r == SPRING_OK) {
		t->rotation = spring_internal_quat_normalize(t->rotation); // zero in, identity out
	}
	return r;
}

static int same_bits(const void *a, const void *b, size_t size)
{
	return memcmp(a, b, size) == 0;
}

// Position and velocity response of one step to a unit constant acceleration from rest, for
// w2 = k/m, g = c/m and step t, in double without cancellation however soft the spring (the
// plain (1 - pp) / w2 loses everything once w2 t^2 is far below 1).
static double forced_position(double w2, double g, double t, const spring_transition *tr)
{
	double e1 = g * t, e2 = w2 * t * t;
	if (e2 >= 0.5) {
		return (1.0 - tr->pp) / w2;
	}
	if (e1 <= 4.0) {
		// Taylor series: t^2 sum_{n>=1} (-1)^(n+1) h_(n-1) / (n+1)!, where h are the complete
		// symmetric polynomials of the two rates (h_n = e1 h_(n-1) - e2 h_(n-2)).
		double h_prev = 0.0, h = 1.0, fact = 2.0, sum = 0.0, sign = 1.0;
		for (int n = 1; n <= 40; n++) {
			sum += sign * h / fact;
			double next = e1 * h - e2 * h_prev;
			h_prev = h;
			h = next;
			fact *= (double)(n + 2);
			sign = -sign;
		}
		return t * t * sum;
	}
	// Strongly overdamped (lambda t > 2 > w t): two real rates, the difference of two
	// well-separated effective times.
	double lambda = 0.5 * g, wn = sqrt(w2);
	double mu = sqrt((lambda - wn) * (lambda + wn));
	double fast = lambda + mu, slow = w2 / fast;
	double ts = slow > 0.0 ? -spring_det_expm1(-slow * t) / slow : t;
	double tf = -spring_det_expm1(-fast * t) / fast;
	return (ts - tf) / (fast - slow);
}

static spring_xform3 xform3_normalized(spring_xform3 t)
{
	t.rotation = spring_internal_quat_normalize(t.rotation);
	return t;
}

// Transform `slot` (P_W or P_WPREV) of bone i.
static spring_xform3 xform_get(const chain_arrays *a, int slot, int i)
{
	const float *p = PLANE_AT(a, slot, i);
	const size_t d = (size_t)a->B;
	spring_xform3 t = {{p[0], p[d], p[2 * d]}, {p[3 * d], p[4 * d], p[5 * d], p[6 * d]}};
	return t;
}

static void xform_set(const chain_arrays *a, int slot, int i, spring_xform3 t)
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

static spring_vec3 vec_get(const chain_arrays *a, int slot, int i)
{
	return spring_vec3_make(PLANE_AT(a, slot, i)[0], PLANE_AT(a, slot + 1, i)[0], PLANE_AT(a, slot + 2, i)[0]);
}

static void vec_set(const chain_arrays *a, int slot, int i, spring_vec3 v)
{
	PLANE_AT(a, slot, i)[0] = v.x;
	PLANE_AT(a, slot + 1, i)[0] = v.y;
	PLANE_AT(a, slot + 2, i)[0] = v.z;
}

static spring_vec3 tip_of(const chain_arrays *a, int i)
{
	return vec_get(a, P_TX, i);
}

static spring_vec3 vel_of(const chain_arrays *a, int i)
{
	return vec_get(a, P_VX, i);
}

static void set_tip(const chain_arrays *a, int i, spring_vec3 p, spring_vec3 v)
{
	vec_set(a, P_TX, i, p);
	vec_set(a, P_VX, i, v);
}

static void set_error_kind_text(spring_error *e, spring_result r, const char *kind, int index, const char *field,
                                const char *text)
{
	spring_element element = strcmp(kind, "collider") == 0 ? SPRING_ELEMENT_COLLIDER : SPRING_ELEMENT_BONE;
	spring_internal_fail_at(e, r, "chain", index >= 0 ? element : SPRING_ELEMENT_NONE, index, field, "%s %s", field, text);
}

static void set_error(spring_error *e, spring_result r, int index, const char *field, const char *fmt, double value)
{
	char text[96];
	snprintf(text, sizeof text, fmt, value);
	set_error_kind_text(e, r, "bone", index, field, text);
}

static void set_error_text(spring_error *e, spring_result r, int index, const char *field, const char *text)
{
	set_error_kind_text(e, r, "bone", index, field, text);
}

static void set_error_kind(spring_error *e, spring_result r, const char *kind, int index, const char *field, const char *fmt,
                           double value)
{
	char text[96];
	snprintf(text, sizeof text, fmt, value);
	set_error_kind_text(e, r, kind, index, field, text);
}

// What bone i steps with when its own setting is `own`: the effective params and its transition
// row (T_COUNT floats). The rule of set_params (through prepare_bone) and of restore.
static spring_result bone_settings(const spring_chain *c, int i, spring_params own, spring_params *out, float trans[T_COUNT])
{
	spring_params p;
	spring_result r = spring_chain_internal_bone_params(own, c->chain_params, c->tip_params, i, c->bone_count, &p);
	if (r != SPRING_OK) {
		return r;
	}
	spring_stepper st;
	r = spring_chain_internal_stepper(c->integrator, p, c->clock.step, &st);
	if (r != SPRING_OK) {
		return r;
	}
	double m = (double)p.mass, h = (double)c->clock.step;
	double w2 = (double)p.stiffness / m, g = (double)p.damping / m;
	spring_transition tr;
	spring_transition_compute(w2, g, h, &tr);
	*out = p;
	trans[T_PP] = st.pp;
	trans[T_PV] = st.pv;
	trans[T_VP] = st.vp;
	trans[T_VV] = st.vv;
	trans[T_W2] = p.stiffness / p.mass;
	trans[T_F0] = (float)forced_position(w2, g, h, &tr);
	trans[T_F1] = (float)tr.pv;
	return SPRING_OK;
}

static spring_result prepare_bone(spring_chain *c, const chain_arrays *a, int i)
{
	size_t k = (size_t)i * (size_t)a->s;
	spring_params p;
	float trans[T_COUNT];
	spring_result r = bone_settings(c, i, a->params_set[k], &p, trans);
	if (r != SPRING_OK) {
		return r;
	}
	a->params[k] = p;
	for (int q = 0; q < T_COUNT; q++) {
		TRANS_AT(a, q, i)[0] = trans[q];
	}
	if (c->lanes > 1) {
		a->trans_state[i] = TRANS_CHANGED; // the next frame update compares the lanes again
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Layout

// The lanes per block of the planes and the floats per bone of a block of `lanes` chains side by
// side (a single chain is one lane).
static int block_of(int lanes)
{
	return lanes == 1 ? 1 : GROUP_BLOCK;
}

// The lanes of a chunk that a frame update takes through its steps (CHUNK_BLOCKS blocks, or all
// of fewer lanes): the room of each row of the roots' scratch, indexed from the chunk's first lane.
static int chunk_room(int lanes)
{
	const int chunk = CHUNK_BLOCKS * block_of(lanes);
	return lanes < chunk ? lanes : chunk;
}

// The blocks of a chunk (chunk_room's lanes).
static size_t chunk_blocks(int lanes)
{
	return ((size_t)chunk_room(lanes) + (size_t)block_of(lanes) - 1u) / (size_t)block_of(lanes);
}

static size_t row_of(int lanes)
{
	return (size_t)P_COUNT * (size_t)block_of(lanes);
}

// The view `a` (a block's first lane) moved on by `blocks` blocks of lanes of n bones.
static void skip_blocks(chain_arrays *a, int n, size_t blocks)
{
	a->planes += blocks * (size_t)n * a->row;
	a->trans += blocks * (size_t)n * T_COUNT * (size_t)a->B;
}

// Offsets from the start of a block whose arrays begin at `start`, for `lanes` chains side by side
// (stride = lanes rounded up to 4 for a group, 1 for a single chain). Every byte count saturates
// (base_internal.h): a block too large for a size_t gets total SIZE_MAX, which no check lets fit.
static void layout_compute(int n, int colliders, int mode_2d, int lanes, int stride, size_t start, chain_layout *l)
{
	size_t at = spring_internal_align16(start);
	size_t un = (size_t)n, plane = spring_internal_size_mul(un, (size_t)stride);
	int single = lanes == 1 && stride == 1;
	size_t b = (size_t)block_of(lanes), blocks = ((size_t)lanes + b - 1u) / b;
	size_t bones_of_blocks = spring_internal_size_mul(blocks, un);
	// A group's sleeping copies: a chunk's lanes at a time (save_sleepers).
	size_t saved_floats = lanes > 1 ? (blocks < CHUNK_BLOCKS ? blocks : CHUNK_BLOCKS) * un * S_COUNT * b : 0u;
#define BYTES(count, each) spring_internal_size_mul((count), (each))
#define PLACE(field, bytes)                                                  \
	do {                                                                     \
		l->field = at;                                                       \
		at = spring_internal_align16(spring_internal_size_add(at, (bytes))); \
	} while (0)
	PLACE(planes, BYTES(bones_of_blocks, row_of(lanes) * sizeof(float)));
	PLACE(trans, BYTES(bones_of_blocks, T_COUNT * b * sizeof(float)));
	PLACE(trans_shared, lanes > 1 ? un * T_COUNT * b * sizeof(float) : 0u);
	PLACE(trans_state, lanes > 1 ? un * sizeof(int) : 0u);
	PLACE(saved, saved_floats * sizeof(float));
	PLACE(params_set, BYTES(plane, sizeof(spring_params)));
	PLACE(params, BYTES(plane, sizeof(spring_params)));
	PLACE(scratch, (size_t)K_COUNT * (chunk_blocks(lanes) + 1u) * b * sizeof(float)); // a chunk's blocks, then one lane's
	PLACE(flags, BYTES(blocks, 3u * (size_t)block_of(lanes) * sizeof(int)));          // whole blocks: the kernels' rest flags
	PLACE(roots, 4u * (size_t)chunk_room(lanes) * sizeof(spring_xform3));
	PLACE(lane_roots, BYTES((size_t)lanes, sizeof(chain_roots)));
	PLACE(world2, single && mode_2d ? un * sizeof(chain_pose2) : 0u);
	PLACE(world2_prev, single && mode_2d ? un * sizeof(chain_pose2) : 0u);
	PLACE(rest_local, un * sizeof(spring_xform3));
	PLACE(anim_local, un * sizeof(spring_xform3));
	PLACE(tip_local, un * sizeof(spring_vec3));
	PLACE(length, un * sizeof(float));
	PLACE(tip_radius, un * sizeof(float));
	PLACE(cone_limit, un * sizeof(float));
	PLACE(colliders, (size_t)colliders * sizeof(spring_chain_collider));
	PLACE(step_local3, single ? un * sizeof(spring_xform3) : 0u);
	PLACE(step_local2, single && mode_2d ? un * sizeof(spring_xform2) : 0u);
	PLACE(locals, single ? un * sizeof(spring_xform3) : 0u);
#undef PLACE
#undef BYTES
	l->total = at;
}

// The layout seen from member j's header at byte `header` of the block: every offset relative to
// the header, the per-lane arrays moved to lane j (of `lanes` chains of n bones).
static chain_layout layout_of_member(const chain_layout *block, size_t header, int j, int n, int lanes)
{
	chain_layout l = *block;
	size_t *f = (size_t *)(void *)&l;
	for (size_t k = 0; k < sizeof l / sizeof(size_t) - 1; k++) {
		f[k] -= header;
	}
	size_t b = (size_t)block_of(lanes);
	l.planes += ((size_t)j / b * (size_t)n * row_of(lanes) + (size_t)j % b) * sizeof(float);
	l.trans += ((size_t)j / b * (size_t)n * T_COUNT * b + (size_t)j % b) * sizeof(float);
	l.params_set += (size_t)j * sizeof(spring_params);
	l.params += (size_t)j * sizeof(spring_params);
	l.lane_roots += (size_t)j * sizeof(chain_roots);
	return l;
}
static spring_result validate_collider(const spring_chain_collider *k, int index, spring_error *error)
{
	if ((int)k->type < 0 || (int)k->type > (int)SPRING_CHAIN_COLLIDER_PLANE) {
		set_error_kind(error, SPRING_ERROR_INVALID_ARGUMENT, "collider", index, "type", "is not a collider type (got %g)",
		               (double)k->type);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec3_is_finite(k->a) || !spring_vec3_is_finite(k->b) || !spring_is_finite(k->radius)) {
		set_error_kind_text(error, SPRING_ERROR_NOT_FINITE, "collider", index, "a/b/radius", "must be finite");
		return SPRING_ERROR_NOT_FINITE;
	}
	if (k->radius < 0.0f || k->radius > SPRING_CHAIN_MAX_COORDINATE) {
		set_error_kind(error, SPRING_ERROR_OUT_OF_RANGE, "collider", index, "radius",
		               k->radius < 0.0f ? "must be >= 0 (got %g)" : "must be at most 1e6 (got %g)", (double)k->radius);
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (!vec3_in_range(k->a, SPRING_CHAIN_MAX_COORDINATE) || !vec3_in_range(k->b, SPRING_CHAIN_MAX_COORDINATE)) {
		set_error_kind_text(error, SPRING_ERROR_OUT_OF_RANGE, "collider", index, "a/b",
		                    "must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (k->type == SPRING_CHAIN_COLLIDER_PLANE && spring_vec3_length(k->b) == 0.0f) {
		set_error_kind_text(error, SPRING_ERROR_OUT_OF_RANGE, "collider", index, "b", "(the plane normal) must be non-zero");
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

static spring_result validate_desc(const spring_chain_desc *d, spring_error *error)
{
	if (!d) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "desc", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (d->bone_count < 1 || d->bone_count > SPRING_CHAIN_MAX_BONES) {
		set_error(error, SPRING_ERROR_OUT_OF_RANGE, -1, "bone_count", "must be in 1..256 (got %g)", (double)d->bone_count);
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (!d->bones) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "bones", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int cap = d->max_colliders ? d->max_colliders : d->collider_count;
	if (d->collider_count < 0 || d->max_colliders < 0 || cap > SPRING_CHAIN_MAX_COLLIDERS || d->collider_count > cap) {
		set_error(error, SPRING_ERROR_OUT_OF_RANGE, -1, "collider_count", "must be in 0..max_colliders <= 64 (got %g)",
		          (double)d->collider_count);
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (d->collider_count > 0 && !d->colliders) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "colliders", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < d->collider_count; i++) {
		spring_result r = validate_collider(&d->colliders[i], i, error);
		if (r != SPRING_OK) {
			return r;
		}
	}
	if (!spring_vec3_is_finite(d->gravity) || !spring_vec3_is_finite(d->wind)) {
		set_error_text(error, SPRING_ERROR_NOT_FINITE, -1, "gravity/wind", "must be finite");
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(d->gravity, SPRING_CHAIN_MAX_ACCELERATION) || !vec3_in_range(d->wind, SPRING_CHAIN_MAX_ACCELERATION)) {
		set_error_text(error, SPRING_ERROR_OUT_OF_RANGE, -1, "gravity/wind",
		               "must have every component within +-1e9 units/s^2 (SPRING_CHAIN_MAX_ACCELERATION)");
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	const float limits[4] = {d->max_root_speed, d->max_root_angular_speed, d->rest_distance, d->rest_speed};
	const char *const limit_names[4] = {"max_root_speed", "max_root_angular_speed", "rest_distance", "rest_speed"};
	for (int k = 0; k < 4; k++) {
		if (!spring_is_finite(limits[k]) || limits[k] < 0.0f) {
			spring_result lr = spring_is_finite(limits[k]) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
			set_error(error, lr, -1, limit_names[k], "must be finite and >= 0 (0: the default; got %g)", (double)limits[k]);
			return lr;
		}
	}
	if ((int)d->projection < 0 || (int)d->projection > (int)SPRING_CHAIN_PROJECTION_KEEP_VELOCITY) {
		set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "projection",
		          "is not a spring_chain_projection (got %g; 0 removes the projected velocity, 1 keeps it)",
		          (double)d->projection);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_chain_internal_params_unset(d->params) && spring_params_validate(d->params) != SPRING_OK) {
		set_error(error, spring_params_validate(d->params), -1, "params", "is not a valid spring (k %g)",
		          (double)d->params.stiffness);
		return spring_params_validate(d->params);
	}
	if (!spring_chain_internal_params_unset(d->tip_params) && spring_params_validate(d->tip_params) != SPRING_OK) {
		set_error(error, spring_params_validate(d->tip_params), -1, "tip_params", "is not a valid spring (k %g)",
		          (double)d->tip_params.stiffness);
		return spring_params_validate(d->tip_params);
	}
	if ((int)d->integrator < 0 || (int)d->integrator > (int)SPRING_INTEGRATOR_SEMI_IMPLICIT) {
		set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "integrator", "is unknown (got %g)", (double)d->integrator);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_clock probe;
	spring_result r = spring_clock_init(&probe, d->step, d->max_steps);
	if (r != SPRING_OK) {
		set_error(error, r, -1, "step/max_steps", "must be a step in (0, 1] s and 0..1000 steps (step %g)", (double)d->step);
		return r;
	}
	spring_xform3 root = d->root;
	r = accept_xform3(&root);
	if (r != SPRING_OK) {
		set_error_text(error, r, -1, "root",
		               r == SPRING_ERROR_NOT_FINITE
		                   ? "has a NaN or infinite position or rotation component (a zero rotation means identity)"
		                   : "position must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
		return r;
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_chain_bone_desc *b = &d->bones[i];
		spring_xform3 rest = b->rest_local;
		r = accept_xform3(&rest);
		if (r != SPRING_OK) {
			set_error_text(error, r, i, "rest_local",
			               r == SPRING_ERROR_NOT_FINITE
			                   ? "has a NaN or infinite position or rotation component (a zero rotation means identity)"
			                   : "position must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
			return r;
		}
		if (!spring_vec3_is_finite(b->tip)) {
			set_error_text(error, SPRING_ERROR_NOT_FINITE, i, "tip", "has a NaN or infinite component");
			return SPRING_ERROR_NOT_FINITE;
		}
		if (!vec3_in_range(b->tip, SPRING_CHAIN_MAX_COORDINATE)) {
			set_error_text(error, SPRING_ERROR_OUT_OF_RANGE, i, "tip",
			               "must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
			return SPRING_ERROR_OUT_OF_RANGE;
		}
		float len = spring_vec3_length(b->tip);
		if (!(len > 1e-6f) || !spring_is_finite(len)) {
			set_error(error, SPRING_ERROR_OUT_OF_RANGE, i, "tip", "must be a non-zero offset (length %g)", (double)len);
			return SPRING_ERROR_OUT_OF_RANGE;
		}
		if (d->mode_2d && (b->tip.z != 0.0f || b->rest_local.position.z != 0.0f)) {
			set_error(error, SPRING_ERROR_OUT_OF_RANGE, i, "tip", "must lie in the z = 0 plane in 2D mode (z %g)",
			          (double)b->tip.z);
			return SPRING_ERROR_OUT_OF_RANGE;
		}
		if (!spring_is_finite(b->tip_radius) || b->tip_radius < 0.0f) {
			set_error(error, spring_is_finite(b->tip_radius) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, i,
			          "tip_radius", "must be finite and >= 0 (got %g)", (double)b->tip_radius);
			return spring_is_finite(b->tip_radius) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
		}
		if (!spring_is_finite(b->cone_limit) || b->cone_limit < 0.0f || b->cone_limit >= (float)SPRING_PI) {
			set_error(error, spring_is_finite(b->cone_limit) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, i,
			          "cone_limit", "must be 0 (none) or an angle in (0, pi) radians (got %g)", (double)b->cone_limit);
			return spring_is_finite(b->cone_limit) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
		}
		spring_params p;
		r = spring_chain_internal_bone_params(b->params, d->params, d->tip_params, i, d->bone_count, &p);
		if (r != SPRING_OK) {
			set_error(error, r, i, "params", "is not a valid spring (stiffness %g)", (double)b->params.stiffness);
			return r;
		}
		spring_stepper st;
		if (spring_chain_internal_stepper(d->integrator, p, probe.step, &st) == SPRING_ERROR_UNSTABLE) {
			set_error(error, SPRING_ERROR_UNSTABLE, i, "params",
			          "is unstable with the semi-implicit integrator at this step (%g Hz)", (double)spring_frequency_hz(p));
			return SPRING_ERROR_UNSTABLE;
		}
	}
	return SPRING_OK;
}

static int collider_capacity(const spring_chain_desc *d)
{
	return d->max_colliders ? d->max_colliders : d->collider_count;
}

// The padded stride of the per-lane params of `lanes` chains side by side (a multiple of 4); 1 for
// a single chain.
static int stride_of(int lanes)
{
	return lanes == 1 ? 1 : (lanes + 3) / 4 * 4;
}

size_t spring_chain_memory_size(const spring_chain_desc *desc)
{
	if (validate_desc(desc, NULL) != SPRING_OK) {
		return 0;
	}
	chain_layout l;
	layout_compute(desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, 1, 1, sizeof(spring_chain), &l);
	return l.total;
}

// ---------------------------------------------------------------------------------------------
// Pose at rest

// Forget rest and sleep: the next step looks at the chain afresh.
static void wake(spring_chain *c)
{
	c->resting = 0;
	c->still = 0;
	c->walk = WALK_NONE;
}

// The per-step forms of the inherited-motion caps.
static void set_root_limits(spring_chain *c, float speed, float angular)
{
	c->max_root_speed = speed;
	c->max_root_angular_speed = angular;
	c->cap_distance = (float)((double)speed * (double)c->clock.step);
	double angle = (double)angular * (double)c->clock.step;
	c->cap_cos_half = spring_det_cos(0.5 * (angle < SPRING_PI ? angle : SPRING_PI));
}

// Rigid pose under `root`: every bone follows its parent exactly; tips at rest, no velocity.
static void pose_at_rest(spring_chain *c, spring_xform3 root)
{
	chain_arrays a = arrays(c);
	spring_xform3 parent = root;
	for (int i = 0; i < c->bone_count; i++) {
		spring_xform3 local = c->animated ? a.anim_local[i] : a.rest_local[i];
		spring_xform3 rigid = xform3_normalized(spring_xform3_mul(parent, local));
		spring_vec3 tip = spring_xform3_apply(rigid, a.tip_local[i]);
		if (c->mode_2d) {
			tip.z = 0.0f;
		}
		set_tip(&a, i, tip, spring_vec3_make(0.0f, 0.0f, 0.0f));
		xform_set(&a, P_W, i, rigid);
		xform_set(&a, P_WPREV, i, rigid);
		vec_set(&a, P_GX, i, tip);
		parent = rigid;
	}
	c->pose_2d = 0;
	roots_of(c)->step = root;
	roots_of(c)->step_prev = root;
	roots_of(c)->input = root;
	wake(c);
}

// Fills the header at `c` (validated description) whose arrays are described by `l`, for lane
// `lane` of `lanes` (stride `stride`, `member` bytes between headers), and puts it at rest.
static void init_header(spring_chain *c, const spring_chain_desc *desc, const chain_layout *l, int lanes, int stride,
                        size_t member_bytes)
{
	memset(c, 0, sizeof *c);
	c->bone_count = desc->bone_count;
	c->collider_count = desc->collider_count;
	c->max_colliders = collider_capacity(desc);
	c->mode_2d = desc->mode_2d != 0;
	c->stride = stride;
	c->lanes = lanes;
	c->block = block_of(lanes);
	c->row = row_of(lanes);
	c->member = member_bytes;
	c->projection = desc->projection;
	c->integrator = desc->integrator;
	spring_clock_init(&c->clock, desc->step, desc->max_steps);
	set_root_limits(c, desc->max_root_speed, desc->max_root_angular_speed);
	c->gravity = desc->gravity;
	c->wind = desc->wind;
	c->accel = spring_vec3_add(c->gravity, c->wind);
	c->chain_params = desc->params;
	c->tip_params = desc->tip_params;
	c->at = *l;
	chain_arrays a = arrays(c);
	float shortest = a.length[0];
	for (int i = 1; i < c->bone_count; i++) {
		shortest = a.length[i] < shortest ? a.length[i] : shortest;
	}
	c->rest_distance = desc->rest_distance > 0.0f ? desc->rest_distance : 1e-4f * shortest;
	c->rest_speed = desc->rest_speed > 0.0f ? desc->rest_speed : 1e-3f * shortest;
	for (int i = 0; i < c->bone_count; i++) {
		a.params_set[(size_t)i * (size_t)a.s] = desc->bones[i].params;
		prepare_bone(c, &a, i); // validated
	}
	spring_xform3 root = desc->root;
	accept_xform3(&root); // validated
	pose_at_rest(c, root);
}

// The shared per-bone configuration of a validated description, written once per block.
static void init_shared(const spring_chain_desc *desc, unsigned char *block, const chain_layout *l)
{
	for (int i = 0; i < desc->bone_count; i++) {
		const spring_chain_bone_desc *b = &desc->bones[i];
		spring_xform3 rest = b->rest_local;
		accept_xform3(&rest); // validated
		((spring_xform3 *)(void *)(block + l->rest_local))[i] = rest;
		((spring_vec3 *)(void *)(block + l->tip_local))[i] = b->tip;
		((float *)(void *)(block + l->length))[i] = spring_vec3_length(b->tip);
		((float *)(void *)(block + l->tip_radius))[i] = b->tip_radius;
		((float *)(void *)(block + l->cone_limit))[i] = b->cone_limit;
	}
	for (int i = 0; i < desc->collider_count; i++) {
		((spring_chain_collider *)(void *)(block + l->colliders))[i] = desc->colliders[i];
	}
}

spring_result spring_chain_init(const spring_chain_desc *desc, void *memory, size_t size, spring_chain **out, spring_error *error)
{
	if (error) {
		memset(error, 0, sizeof *error);
	}
	if (!out) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "out", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = validate_desc(desc, error);
	if (r != SPRING_OK) {
		return r;
	}
	chain_layout l;
	layout_compute(desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, 1, 1, sizeof(spring_chain), &l);
	if (!memory || ((uintptr_t)memory & 15u) != 0 || size < l.total) {
		set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "memory", "must be 16-byte aligned and at least %g bytes",
		          (double)l.total);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	memset(memory, 0, l.total);
	init_shared(desc, (unsigned char *)memory, &l);
	spring_chain *c = (spring_chain *)memory;
	init_header(c, desc, &l, 1, 1, 0);
	*out = c;
	return SPRING_OK;
}

// Whether the n lanes of `c` (lane 0, n > 1) hold the same transition bits for each bone whose
// lanes' transitions changed since the last look (TRANS_CHANGED): the bone then gets its shared
// row (TRANS_SHARED, lane 0's values in every lane of the row), otherwise the lanes' own are read
// (TRANS_OWN). Stops at the first lane that differs.
static void share_transitions(const spring_chain *c, const chain_arrays *a, int n)
{
	const size_t b = (size_t)a->B, per_block = (size_t)c->bone_count * T_COUNT * b;
	for (int i = 0; i < c->bone_count; i++) {
		if (a->trans_state[i] != TRANS_CHANGED) {
			continue;
		}
		const float *first = TRANS_AT(a, 0, i);
		int same = 1;
		for (int j = 1; same && j < n; j++) {
			const float *t = first + (size_t)j / b * per_block + (size_t)j % b;
			for (int q = 0; q < T_COUNT; q++) {
				uint32_t u, v; // the bits (a -0 or a NaN's payload would step apart)
				memcpy(&u, &t[(size_t)q * b], sizeof u);
				memcpy(&v, &first[(size_t)q * b], sizeof v);
				same &= u == v;
			}
		}
		float *row = a->trans_shared + (size_t)i * T_COUNT * b;
		for (int q = 0; same && q < T_COUNT; q++) {
			for (size_t l = 0; l < b; l++) {
				row[(size_t)q * b + l] = first[(size_t)q * b];
			}
		}
		a->trans_state[i] = same ? TRANS_SHARED : TRANS_OWN;
	}
}

size_t spring_chain_internal_lanes_size(const spring_chain_desc *desc, int lanes, size_t offset)
{
	if (lanes < 1 || validate_desc(desc, NULL) != SPRING_OK) {
		return 0;
	}
	size_t member_bytes = spring_internal_align16(sizeof(spring_chain));
	chain_layout l;
	layout_compute(
		desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, lanes, stride_of(lanes),
		spring_internal_size_add(spring_internal_align16(offset), spring_internal_size_mul((size_t)lanes, member_bytes)), &l);
	return spring_internal_size_fits(l.total) ? l.total - offset : 0;
}

spring_result spring_chain_internal_lanes_init(const spring_chain_desc *desc, int lanes, void *block, size_t offset,
                                               spring_error *error)
{
	spring_result r = validate_desc(desc, error);
	if (r != SPRING_OK) {
		return r;
	}
	size_t member_bytes = spring_internal_align16(sizeof(spring_chain)), first = spring_internal_align16(offset);
	int stride = stride_of(lanes);
	chain_layout l;
	layout_compute(desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, lanes, stride,
	               first + (size_t)lanes * member_bytes, &l);
	unsigned char *base = (unsigned char *)block;
	memset(base + first, 0, l.total - first);
	init_shared(desc, base, &l);
	for (int j = 0; j < lanes; j++) {
		size_t header = first + (size_t)j * member_bytes;
		chain_layout mine = layout_of_member(&l, header, j, desc->bone_count, lanes);
		init_header((spring_chain *)(void *)(base + header), desc, &mine, lanes, stride, member_bytes);
	}
	if (lanes > 1) {
		const spring_chain *c = (const spring_chain *)(void *)(base + first);
		const chain_arrays a = arrays(c);
		share_transitions(c, &a, lanes);
	}
	return SPRING_OK;
}

spring_chain *spring_chain_internal_lane(spring_chain *first, int lane)
{
	return member(first, lane);
}
SPRING_INTERNAL_DEFINE_CREATE(spring_chain, spring_chain, spring_chain_desc, "chain")

void spring_chain_destroy(spring_chain *chain)
{
	// With the allocator that made it, even if the process-wide one changed since.
	if (chain) {
		spring_internal_destroy(chain, &chain->owner);
	}
}

// ---------------------------------------------------------------------------------------------
// Constraints

// Rotation about z taking `from` onto `to` (both in the xy plane), anti-parallel included.
static spring_vec3 any_perpendicular(spring_vec3 d)
{
	spring_vec3 axis = fabsf(d.x) < 0.57f ? spring_vec3_make(1.0f, 0.0f, 0.0f) : spring_vec3_make(0.0f, 1.0f, 0.0f);
	return spring_vec3_normalize(spring_vec3_cross(d, axis));
}

// Keeps direction `dir` (unit) within `limit` radians of `axis` (unit); returns the clamped
// direction and, through `outward`, the unit direction of increasing angle (zero if inside).
static spring_vec3 cone_clamp(spring_vec3 dir, spring_vec3 axis, float limit, int mode_2d, spring_vec3 *outward)
{
	*outward = spring_vec3_make(0.0f, 0.0f, 0.0f);
	float cosang = spring_vec3_dot(dir, axis);
	if (cosang >= (float)spring_det_cos((double)limit)) {
		return dir;
	}
	// Unit tangent at the axis pointing towards dir.
	spring_vec3 perp = spring_vec3_sub(dir, spring_vec3_scale(axis, cosang));
	if (spring_vec3_length(perp) < 1e-12f) {
		perp = mode_2d ? spring_vec3_make(-axis.y, axis.x, 0.0f) : any_perpendicular(axis);
	}
	perp = spring_vec3_normalize(perp);
	double s, co;
	spring_det_sincos((double)limit, &s, &co);
	spring_vec3 out = spring_vec3_add(spring_vec3_scale(axis, (float)co), spring_vec3_scale(perp, (float)s));
	// Outward = direction of increasing angle at the clamped point.
	*outward = spring_vec3_sub(spring_vec3_scale(perp, (float)co), spring_vec3_scale(axis, (float)s));
	return spring_vec3_normalize(out);
}

// Pushes a point at distance `len` from `pivot` (direction `dir`) out of a ball (centre, r)
// while keeping the distance: the direction is turned away from the centre until the point is
// on the ball's surface. Returns 1 when it moved; `normal` gets the contact normal.
static int slide_out_of_ball(spring_vec3 pivot, float len, spring_vec3 *dir, spring_vec3 centre, float r, int mode_2d,
                             spring_vec3 *normal)
{
	spring_vec3 tip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
	spring_vec3 d = spring_vec3_sub(tip, centre);
	float dist = spring_vec3_length(d);
	if (dist >= r) {
		return 0;
	}
	spring_vec3 w = spring_vec3_sub(centre, pivot);
	double wl = (double)spring_vec3_length(w);
	if (wl < 1e-9) {
		// The pivot is at the centre: no direction gets out; leave it (the bone is inside).
		return 0;
	}
	spring_vec3 wn = spring_vec3_scale(w, (float)(1.0 / wl));
	// Angle theta between dir and w with |pivot + len dir - centre| = r.
	double cos_min = ((double)len * len + wl * wl - (double)r * r) / (2.0 * len * wl);
	if (cos_min <= -1.0) {
		// The whole length sphere is inside the ball: point straight away from it.
		*dir = spring_vec3_scale(wn, -1.0f);
		*normal = *dir;
		return 1;
	}
	if (cos_min > 1.0) {
		return 0;
	}
	spring_vec3 perp = spring_vec3_sub(*dir, spring_vec3_scale(wn, spring_vec3_dot(*dir, wn)));
	if (spring_vec3_length(perp) < 1e-9f) {
		perp = mode_2d ? spring_vec3_make(-wn.y, wn.x, 0.0f) : any_perpendicular(wn);
	}
	perp = spring_vec3_normalize(perp);
	// A hair beyond the surface so rounding never leaves the tip inside.
	double sin_min = sqrt(fmax(0.0, 1.0 - cos_min * cos_min));
	spring_vec3 nd = spring_vec3_add(spring_vec3_scale(wn, (float)cos_min), spring_vec3_scale(perp, (float)sin_min));
	*dir = spring_vec3_normalize(nd);
	spring_vec3 ntip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
	*normal = spring_vec3_normalize(spring_vec3_sub(ntip, centre));
	return 1;
}

static spring_vec3 closest_on_segment(spring_vec3 p, spring_vec3 a, spring_vec3 b)
{
	spring_vec3 ab = spring_vec3_sub(b, a);
	float den = spring_vec3_dot(ab, ab);
	float t = den > 0.0f ? spring_vec3_dot(spring_vec3_sub(p, a), ab) / den : 0.0f;
	t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
	return spring_vec3_add(a, spring_vec3_scale(ab, t));
}

// Keeps the tip (at distance len from pivot along dir) outside one collider; returns 1 and the
// contact normal when it moved the tip.
static int collide(const spring_chain_collider *k, float tip_radius, spring_vec3 pivot, float len, spring_vec3 *dir, int mode_2d,
                   spring_vec3 *normal)
{
	const float margin = 1e-4f; // pushed a hair beyond the surface so tests with 1e-4 hold
	float r = k->radius + tip_radius;
	switch (k->type) {
	case SPRING_CHAIN_COLLIDER_SPHERE: {
		spring_vec3 centre = k->a;
		if (mode_2d) {
			centre.z = 0.0f;
		}
		return slide_out_of_ball(pivot, len, dir, centre, r + margin, mode_2d, normal);
	}
	case SPRING_CHAIN_COLLIDER_CAPSULE: {
		int moved = 0;
		for (int it = 0; it < 4; it++) {
			spring_vec3 tip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
			spring_vec3 centre = closest_on_segment(tip, k->a, k->b);
			if (mode_2d) {
				centre.z = 0.0f;
			}
			if (!slide_out_of_ball(pivot, len, dir, centre, r + margin, mode_2d, normal)) {
				break;
			}
			moved = 1;
		}
		return moved;
	}
	case SPRING_CHAIN_COLLIDER_PLANE: {
		spring_vec3 n = spring_vec3_normalize(k->b);
		// Need dot(pivot + len dir - a, n) >= r  <=>  dot(dir, n) >= s.
		float s = (r + 2.0f * margin - spring_vec3_dot(spring_vec3_sub(pivot, k->a), n)) / len;
		float dn = spring_vec3_dot(*dir, n);
		if (dn >= s - margin / len) {
			return 0;
		}
		if (s > 1.0f) {
			*dir = n; // cannot reach the allowed side: get as far out as the bone allows
		} else {
			spring_vec3 perp = spring_vec3_sub(*dir, spring_vec3_scale(n, dn));
			if (spring_vec3_length(perp) < 1e-9f) {
				perp = mode_2d ? spring_vec3_make(-n.y, n.x, 0.0f) : any_perpendicular(n);
			}
			perp = spring_vec3_normalize(perp);
			float c = s < -1.0f ? -1.0f : s;
			*dir = spring_vec3_normalize(
				spring_vec3_add(spring_vec3_scale(n, c), spring_vec3_scale(perp, sqrtf(fmaxf(0.0f, 1.0f - c * c)))));
		}
		*normal = n;
		return 1;
	}
	}
	return 0;
}

// Removes the component of v along `n` when it points the way `sign` forbids: sign > 0 removes
// a positive component (moving outwards along n), sign < 0 a negative one (moving into a
// surface whose normal is n), sign == 0 removes the component whatever its sign.
static spring_vec3 remove_component(spring_vec3 v, spring_vec3 n, int sign)
{
	float c = spring_vec3_dot(v, n);
	if (sign == 0 || (sign > 0 && c > 0.0f) || (sign < 0 && c < 0.0f)) {
		v = spring_vec3_sub(v, spring_vec3_scale(n, c));
	}
	return v;
}

// ---------------------------------------------------------------------------------------------
// Stepping
static chain_pose2 pose2_make(double x, double y, double c, double s)
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
static chain_pose2 pose2_mul(chain_pose2 parent, chain_pose2 local)
{
	double pc = parent.c, ps = parent.s, lx = local.x, ly = local.y, lc = local.c, ls = local.s;
	return pose2_make((double)parent.x + (pc * lx - ps * ly), (double)parent.y + (ps * lx + pc * ly), pc * lc - ps * ls,
	                  ps * lc + pc * ls);
}

// The in-plane part of a 3D transform: its position's xy and the direction of its x axis.
static chain_pose2 pose2_of_xform3(spring_xform3 t)
{
	double x = (double)t.rotation.x, y = (double)t.rotation.y, z = (double)t.rotation.z, w = (double)t.rotation.w;
	return pose2_make(t.position.x, t.position.y, 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z));
}

static chain_pose2 pose2_of_xform2(spring_xform2 t)
{
	double s, c;
	spring_det_sincos((double)t.angle, &s, &c);
	return pose2_make(t.position.x, t.position.y, c, s);
}

// The rotation about z by the unit direction (c, s), from half-angle identities (no trigonometry).
static spring_quat quat_of_direction(double c, double s)
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

static spring_xform3 xform3_of_pose2(chain_pose2 p)
{
	spring_xform3 t = {spring_vec3_make(p.x, p.y, 0.0f), quat_of_direction(p.c, p.s)};
	return t;
}

// The world angle of a 2D pose, in (-pi, pi].
static float pose2_angle(chain_pose2 p)
{
	return spring_internal_angle_fold(spring_det_atan2((double)p.s, (double)p.c));
}

// ---------------------------------------------------------------------------------------------
// Stepping

static int is_zero3(spring_vec3 v)
{
	return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
}

// Where a bone's tip rests: the rigid tip, or under a constant acceleration the equilibrium of
// the pendulum (spring toward the rigid tip plus the force, on the sphere of the bone's length
// `len` about the pivot): the direction of w2 (rigid_tip - pivot) + accel, which never overflows
// (w2: the lane's k / m, T_W2).
static spring_vec3 rest_position(const spring_chain *c, float w2_lane, float len, spring_vec3 pivot, spring_vec3 rigid_tip,
                                 spring_vec3 accel)
{
	if (is_zero3(accel)) {
		return rigid_tip;
	}
	double w2 = (double)w2_lane;
	double dx = w2 * ((double)rigid_tip.x - pivot.x) + accel.x;
	double dy = w2 * ((double)rigid_tip.y - pivot.y) + accel.y;
	double dz = c->mode_2d ? 0.0 : w2 * ((double)rigid_tip.z - pivot.z) + accel.z;
	double n = sqrt(dx * dx + dy * dy + dz * dz);
	if (!(n > 0.0)) {
		return rigid_tip; // the force cancels the spring exactly at the pivot: any direction rests
	}
	double k = (double)len / n;
	return spring_vec3_make((float)(pivot.x + dx * k), (float)(pivot.y + dy * k), (float)(pivot.z + dz * k));
}

// Scratch slot `slot` of a step over the lanes of a block (lane j at [j]).
#define KS(slot) (k + (size_t)(slot) * (size_t)a->B)
// Slot `slot` of bone i (the block's lane 0; lane j at [j]).
#define PL(slot, i) PLANE_AT(a, slot, i)
#define PL_A(slot, i) PLANE_AT(&a, slot, i)

// The parent of bone i in every lane: the root (K_RQ, K_RP) for bone 0, the last bone's new world
// transform otherwise; p[0..2] position, p[3..6] rotation.
static ALWAYS_INLINE void parent_lanes(const chain_arrays *a, int i, float *k, const float *p[7])
{
	for (int q = 0; q < 7; q++) {
		p[q] = i == 0 ? KS(q < 3 ? K_RPX + q : K_RQX + q - 3) : PL(P_W + q, i - 1);
	}
}

// One lane's rigid frame from its parent b (position, rotation): rotation r = parent * local, pivot
// p, rigid tip direction u = r * tip. (Values, not pointers: the loops' memory accesses stay in
// the loops, where the compilers see they are independent.)
static ALWAYS_INLINE void frame_one(const float b[7], const spring_xform3 *local, spring_vec3 t, float r[4], float p[3],
                                    float u[3])
{
	float bx = b[3], by = b[4], bz = b[5], bw = b[6], ox, oy, oz;
	qmul_f(bx, by, bz, bw, local->rotation.x, local->rotation.y, local->rotation.z, local->rotation.w, &r[0], &r[1], &r[2],
	       &r[3]);
	rot_f(bx, by, bz, bw, local->position.x, local->position.y, local->position.z, &ox, &oy, &oz);
	rot_f(r[0], r[1], r[2], r[3], t.x, t.y, t.z, &u[0], &u[1], &u[2]);
	p[0] = b[0] + ox;
	p[1] = b[1] + oy;
	p[2] = b[2] + oz;
}

// One lane's aim: the rigid rotation r turned by the shortest arc from u (|u| = len) to the unit
// d, kept unit by one Newton step, into w; returns the arc's squared norm before normalising
// (aim_fix redoes the lanes where it is too small). One square root: for |u| = len and a unit d,
// the half-way quaternion (u x d, len + u.d) has the norm sqrt(2 len (len + u.d)).
static ALWAYS_INLINE float aim_one(const float u[3], float dx, float dy, float dz, float len, const float r[4], float w[4])
{
	float cx = u[1] * dz - u[2] * dy;
	float cy = u[2] * dx - u[0] * dz;
	float cz = u[0] * dy - u[1] * dx;
	float cw = len + (u[0] * dx + u[1] * dy + u[2] * dz);
	float m2 = (cx * cx + cy * cy) + (cz * cz + cw * cw);
	float inv = 1.0f / sqrtf(m2);
	qmul_f(cx * inv, cy * inv, cz * inv, cw * inv, r[0], r[1], r[2], r[3], &w[0], &w[1], &w[2], &w[3]);
	float s = 1.5f - 0.5f * ((w[0] * w[0] + w[1] * w[1]) + (w[2] * w[2] + w[3] * w[3]));
	w[0] *= s;
	w[1] *= s;
	w[2] *= s;
	w[3] *= s;
	return m2;
}

// The rigid frame of bone i in every lane: parent (the root in K_RQ/K_RP for bone 0, the last
// bone's new world transform otherwise) times `local`: rotation K_Q, pivot K_P, rigid tip K_G and
// K_U = K_G - K_P (in 2D mode the z components are 0).
static void frame_lanes(const spring_chain *c, const chain_arrays *a, int i, int n, const spring_xform3 *local, float *k)
{
	const float *par[7];
	parent_lanes(a, i, k, par);
	const spring_vec3 t = a->tip_local[i];
	float *restrict qx = KS(K_QX), *restrict qy = KS(K_QY), *restrict qz = KS(K_QZ), *restrict qw = KS(K_QW);
	float *restrict px = KS(K_PX), *restrict py = KS(K_PY), *restrict pz = KS(K_PZ);
	float *restrict ux = KS(K_UX), *restrict uy = KS(K_UY), *restrict uz = KS(K_UZ);
	float *restrict gx = KS(K_GX), *restrict gy = KS(K_GY), *restrict gz = KS(K_GZ);
	for (int j = 0; j < n; j++) {
		const float b[7] = {par[0][j], par[1][j], par[2][j], par[3][j], par[4][j], par[5][j], par[6][j]};
		float r[4], p[3], u[3];
		frame_one(b, local, t, r, p, u);
		qx[j] = r[0];
		qy[j] = r[1];
		qz[j] = r[2];
		qw[j] = r[3];
		px[j] = p[0];
		py[j] = p[1];
		pz[j] = p[2];
		ux[j] = u[0];
		uy[j] = u[1];
		uz[j] = u[2];
		gx[j] = p[0] + u[0];
		gy[j] = p[1] + u[1];
		gz[j] = p[2] + u[2];
	}
	if (c->mode_2d) {
		for (int j = 0; j < n; j++) {
			pz[j] = 0.0f;
			uz[j] = 0.0f;
			gz[j] = 0.0f;
		}
	}
}

// Whether a tip at (x, y, z) moving at (vx, vy, vz) is within the rest thresholds of the rest
// position r. Far from the origin floats are coarse: a tip at 1e4 units moves in steps of 1e-3,
// which may be above the thresholds. A few units in the last place of the coordinates (and that
// much per step in speed) is the finest rest floats can tell, so the thresholds never go below it.
static inline int rest_ok_at(float rest_distance, float rest_speed, float x, float y, float z, float vx, float vy, float vz,
                             float rx, float ry, float rz, float per_step)
{
	float ax = fabsf(rx), ay = fabsf(ry), az = fabsf(rz);
	float m = ax > ay ? ax : ay;
	m = m > az ? m : az;
	float grain = 8.0f * FLT_EPSILON * m;
	float rd = rest_distance > grain ? rest_distance : grain;
	float gs = grain * per_step;
	float rs = rest_speed > gs ? rest_speed : gs;
	float ex = x - rx, ey = y - ry, ez = z - rz;
	return (vx * vx + vy * vy + vz * vz <= rs * rs) & (ex * ex + ey * ey + ez * ez <= rd * rd); // no branch: vectorises
}

static inline int rest_ok(const spring_chain *c, float x, float y, float z, float vx, float vy, float vz, float rx, float ry,
                          float rz, float per_step)
{
	return rest_ok_at(c->rest_distance, c->rest_speed, x, y, z, vx, vy, vz, rx, ry, rz, per_step);
}

// The spring part of the tip step of bone i in every lane: K_X, K_V get the tip and velocity
// stepped toward the rigid tip K_G under the lane's constant acceleration K_A; K_D the unit
// direction from the pivot (the rigid one when the tip sits on the pivot), K_N2 its squared length.
static void spring_lanes(const spring_chain *c, const chain_arrays *a, int i, int n, float *k)
{
	const float *restrict tx = PL(P_TX, i), *restrict ty = PL(P_TY, i), *restrict tz = PL(P_TZ, i);
	const float *restrict vx = PL(P_VX, i), *restrict vy = PL(P_VY, i), *restrict vz = PL(P_VZ, i);
	const float *restrict gx = KS(K_GX), *restrict gy = KS(K_GY), *restrict gz = KS(K_GZ);
	const float *restrict ax = KS(K_AX), *restrict ay = KS(K_AY), *restrict az = KS(K_AZ);
	float *restrict xx = KS(K_XX), *restrict xy = KS(K_XY), *restrict xz = KS(K_XZ);
	float *restrict nx = KS(K_VX), *restrict ny = KS(K_VY), *restrict nz = KS(K_VZ);
	if (c->integrator == SPRING_INTEGRATOR_EXACT) {
		const float *restrict pp = TRANS_AT(a, T_PP, i), *restrict pv = TRANS_AT(a, T_PV, i), *restrict vp = TRANS_AT(a, T_VP, i);
		const float *restrict vv = TRANS_AT(a, T_VV, i), *restrict f0 = TRANS_AT(a, T_F0, i), *restrict f1 = TRANS_AT(a, T_F1, i);
		for (int j = 0; j < n; j++) {
			float ex = tx[j] - gx[j], ey = ty[j] - gy[j], ez = tz[j] - gz[j];
			xx[j] = gx[j] + ((pp[j] * ex + pv[j] * vx[j]) + f0[j] * ax[j]);
			xy[j] = gy[j] + ((pp[j] * ey + pv[j] * vy[j]) + f0[j] * ay[j]);
			xz[j] = gz[j] + ((pp[j] * ez + pv[j] * vz[j]) + f0[j] * az[j]);
			nx[j] = (vp[j] * ex + vv[j] * vx[j]) + f1[j] * ax[j];
			ny[j] = (vp[j] * ey + vv[j] * vy[j]) + f1[j] * ay[j];
			nz[j] = (vp[j] * ez + vv[j] * vz[j]) + f1[j] * az[j];
		}
	} else {
		const spring_params *p = a->params + (size_t)i * (size_t)a->s;
		const float dt = c->clock.step;
		for (int j = 0; j < n; j++) {
			float ks = p[j].stiffness, ds = p[j].damping, ms = p[j].mass;
			nx[j] = vx[j] + ((-ks * (tx[j] - gx[j]) - ds * vx[j]) / ms + ax[j]) * dt;
			ny[j] = vy[j] + ((-ks * (ty[j] - gy[j]) - ds * vy[j]) / ms + ay[j]) * dt;
			nz[j] = vz[j] + ((-ks * (tz[j] - gz[j]) - ds * vz[j]) / ms + az[j]) * dt;
			xx[j] = tx[j] + nx[j] * dt;
			xy[j] = ty[j] + ny[j] * dt;
			xz[j] = tz[j] + nz[j] * dt;
		}
	}
	if (c->mode_2d) {
		for (int j = 0; j < n; j++) {
			xz[j] = 0.0f;
			nz[j] = 0.0f;
		}
	}
	const float *restrict px = KS(K_PX), *restrict py = KS(K_PY), *restrict pz = KS(K_PZ);
	float *restrict dx = KS(K_DX), *restrict dy = KS(K_DY), *restrict dz = KS(K_DZ), *restrict n2 = KS(K_N2);
	const float *restrict kux = KS(K_UX), *restrict kuy = KS(K_UY), *restrict kuz = KS(K_UZ);
	const float ilen = 1.0f / a->length[i];
	for (int j = 0; j < n; j++) {
		float ux = xx[j] - px[j], uy = xy[j] - py[j], uz = xz[j] - pz[j];
		float d2 = ux * ux + uy * uy + uz * uz;
		float inv = 1.0f / sqrtf(d2);
		// The tip on the pivot (or too close to tell): the rigid direction instead.
		int okd = (d2 > 0.0f) & (d2 <= FLT_MAX);
		n2[j] = d2;
		float sx0 = ux * inv, sy0 = uy * inv, sz0 = uz * inv, rx0 = kux[j] * ilen, ry0 = kuy[j] * ilen, rz0 = kuz[j] * ilen;
		dx[j] = okd ? sx0 : rx0;
		dy[j] = okd ? sy0 : ry0;
		dz[j] = okd ? sz0 : rz0;
	}
}

// Reads and writes a lane's (dir, velocity) scratch as vectors (slots `b` floats apart).
static spring_vec3 kvec(const float *k, int b, int slot, int j)
{
	const float *p = k + (size_t)slot * (size_t)b + (size_t)j;
	return spring_vec3_make(p[0], p[b], p[2 * b]);
}

static void kvec_set(float *k, int b, int slot, int j, spring_vec3 v)
{
	float *p = k + (size_t)slot * (size_t)b + (size_t)j;
	p[0] = v.x;
	p[b] = v.y;
	p[2 * b] = v.z;
}

// The constraints of bone i in every lane, on K_D and K_V: the cone limit around the rigid
// direction, the length projection's velocity removal, the colliders.
static void constrain_lanes(const spring_chain *c, const chain_arrays *a, int i, int n, float *k)
{
	float limit = a->cone_limit[i];
	if (limit > 0.0f) {
		for (int j = 0; j < n; j++) {
			spring_vec3 outward, v = kvec(k, a->B, K_VX, j);
			spring_vec3 axis = spring_vec3_normalize(kvec(k, a->B, K_UX, j));
			spring_vec3 dir = cone_clamp(kvec(k, a->B, K_DX, j), axis, limit, c->mode_2d, &outward);
			if (spring_vec3_length(outward) > 0.0f) {
				kvec_set(k, a->B, K_VX, j, remove_component(v, outward, 1));
			}
			kvec_set(k, a->B, K_DX, j, dir);
		}
	}
	// Length: the projection moves the tip along dir; remove the radial part of the velocity
	// too, or it lingers and the tip never settles. (Removing only the part relative to the
	// moving pivot would hand the parent's radial motion to the child every step: with no
	// back-reaction on the parent that pumps energy down a whipping chain; measured, it
	// turned a 0.01 rad nudge of an 8-bone chain into a 37-unit swing.)
	if (c->projection == SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY) {
		const float *restrict dx = KS(K_DX), *restrict dy = KS(K_DY), *restrict dz = KS(K_DZ);
		float *restrict vx = KS(K_VX), *restrict vy = KS(K_VY), *restrict vz = KS(K_VZ);
		for (int j = 0; j < n; j++) {
			float along = vx[j] * dx[j] + vy[j] * dy[j] + vz[j] * dz[j];
			vx[j] = vx[j] - dx[j] * along;
			vy[j] = vy[j] - dy[j] * along;
			vz[j] = vz[j] - dz[j] * along;
		}
	}
	// Colliders slide the tip over the length sphere; velocity into a collider is removed.
	// They have the last word over the cone limit: a limit may be bent, a surface never
	// crossed. A few passes settle tips touching several colliders at once.
	for (int j = 0; c->collider_count > 0 && j < n; j++) {
		spring_vec3 pivot = kvec(k, a->B, K_PX, j), dir = kvec(k, a->B, K_DX, j), v = kvec(k, a->B, K_VX, j);
		for (int pass = 0; pass < 4; pass++) {
			int moved = 0;
			for (int q = 0; q < c->collider_count; q++) {
				spring_vec3 normal;
				if (collide(&a->colliders[q], a->tip_radius[i], pivot, a->length[i], &dir, c->mode_2d, &normal)) {
					v = remove_component(v, normal, -1);
					moved = 1;
				}
			}
			if (!moved) {
				break;
			}
		}
		kvec_set(k, a->B, K_DX, j, dir);
		kvec_set(k, a->B, K_VX, j, v);
	}
}

// The rest position of bone i in every lane into K_X: the rigid tip, or under a force the
// pendulum's equilibrium (scalar, on the lanes with a force).
static void rest_lanes(const spring_chain *c, const chain_arrays *a, int i, int n, float *k)
{
	memcpy(KS(K_XX), KS(K_GX), 3u * (size_t)a->B * sizeof(float)); // K_G* and K_X* are consecutive slots
	const float *ax = KS(K_AX), *ay = KS(K_AY), *az = KS(K_AZ);
	for (int j = 0; j < n; j++) {
		if (ax[j] != 0.0f || ay[j] != 0.0f || az[j] != 0.0f) {
			kvec_set(k, a->B, K_XX, j,
			         rest_position(c, TRANS_AT(a, T_W2, i)[j], a->length[i], kvec(k, a->B, K_PX, j), kvec(k, a->B, K_GX, j),
			                       kvec(k, a->B, K_AX, j)));
		}
	}
}

// The end of the tip step of bone i: the tip at the bone length along K_D, stored with its
// velocity and the rigid tip in the lanes marked active; `rest` cleared in the lanes whose tip is
// not within the rest thresholds of its rest position. With `snap` the tips are put exactly at
// their rest positions, still, instead (and K_D aimed at them).
static void finish_lanes(const spring_chain *c, const chain_arrays *a, int i, int n, float *k, int *rest, int snap)
{
	float *restrict tx = PL(P_TX, i), *restrict ty = PL(P_TY, i), *restrict tz = PL(P_TZ, i);
	float *restrict vx = PL(P_VX, i), *restrict vy = PL(P_VY, i), *restrict vz = PL(P_VZ, i);
	float *restrict tgx = PL(P_GX, i), *restrict tgy = PL(P_GY, i), *restrict tgz = PL(P_GZ, i);
	const float *restrict gx = KS(K_GX), *restrict gy = KS(K_GY), *restrict gz = KS(K_GZ);
	const float *restrict px = KS(K_PX), *restrict py = KS(K_PY), *restrict pz = KS(K_PZ);
	float *restrict dx = KS(K_DX), *restrict dy = KS(K_DY), *restrict dz = KS(K_DZ);
	const float *restrict nx = KS(K_VX), *restrict ny = KS(K_VY), *restrict nz = KS(K_VZ);
	const float len = a->length[i];
	if (snap) {
		rest_lanes(c, a, i, n, k);
		const float *restrict rx = KS(K_XX), *restrict ry = KS(K_XY), *restrict rz = KS(K_XZ);
		for (int j = 0; j < n; j++) {
			float ux = rx[j] - px[j], uy = ry[j] - py[j], uz = rz[j] - pz[j];
			float inv = 1.0f / sqrtf(ux * ux + uy * uy + uz * uz);
			dx[j] = ux * inv;
			dy[j] = uy * inv;
			dz[j] = uz * inv;
			tx[j] = rx[j];
			ty[j] = ry[j];
			tz[j] = rz[j];
			vx[j] = 0.0f;
			vy[j] = 0.0f;
			vz[j] = 0.0f;
			tgx[j] = gx[j];
			tgy[j] = gy[j];
			tgz[j] = gz[j];
		}
		return;
	}
	for (int j = 0; j < n; j++) {
		float x = px[j] + dx[j] * len, y = py[j] + dy[j] * len, z = pz[j] + dz[j] * len;
		tx[j] = x;
		ty[j] = y;
		tz[j] = z;
		vx[j] = nx[j];
		vy[j] = ny[j];
		vz[j] = nz[j];
		tgx[j] = gx[j];
		tgy[j] = gy[j];
		tgz[j] = gz[j];
	}
	if (c->mode_2d) {
		for (int j = 0; j < n; j++) {
			tz[j] = 0.0f;
		}
	}
	rest_lanes(c, a, i, n, k);
	const float *restrict rx = KS(K_XX), *restrict ry = KS(K_XY), *restrict rz = KS(K_XZ);
	const float per_step = 1.0f / c->clock.step;
	for (int j = 0; j < n; j++) {
		rest[j] = rest[j] & rest_ok(c, tx[j], ty[j], tz[j], vx[j], vy[j], vz[j], rx[j], ry[j], rz[j], per_step);
	}
}

// Within about 1e-4 rad of anti-parallel the half-way quaternion of the aim is mostly rounding:
// a half turn about an axis perpendicular to the rigid direction u (about z in 2D mode) instead.
static spring_quat aim_flip(const spring_chain *c, spring_vec3 u, spring_quat rigid)
{
	spring_quat arc = c->mode_2d ? (spring_quat){0.0f, 0.0f, 1.0f, 0.0f} : spring_quat_from_to(u, spring_vec3_scale(u, -1.0f));
	return spring_quat_normalize(spring_quat_mul(arc, rigid));
}

// aim_flip on the lanes whose aim's squared norm K_N2 is too small (below 2 len 1e-4 len).
static ALWAYS_INLINE void aim_fix(const spring_chain *c, const chain_arrays *a, int i, int n, float *k)
{
	const float *n2 = KS(K_N2);
	const float len = a->length[i], tiny = 1e-4f * len;
	for (int j = 0; j < n; j++) {
		if (!(n2[j] >= 2.0f * len * tiny)) {
			spring_quat rigid = {KS(K_QX)[j], KS(K_QY)[j], KS(K_QZ)[j], KS(K_QW)[j]};
			spring_quat r = aim_flip(c, kvec(k, a->B, K_UX, j), rigid);
			PL(P_W + 3, i)[j] = r.x;
			PL(P_W + 4, i)[j] = r.y;
			PL(P_W + 5, i)[j] = r.z;
			PL(P_W + 6, i)[j] = r.w;
		}
	}
}

// The aim of bone i in every lane: the rigid rotation K_Q turned by the shortest arc from the
// rigid direction K_U to the simulated one K_D, at the pivot; stored as the bone's world
// transform in the active lanes. One square root: for |U| = len and a unit D, the half-way
// quaternion (U x D, len + U.D) has the norm sqrt(2 len (len + U.D)).
static void aim_lanes(const spring_chain *c, const chain_arrays *a, int i, int n, float *k)
{
	const float *restrict ux = KS(K_UX), *restrict uy = KS(K_UY), *restrict uz = KS(K_UZ);
	const float *restrict dx = KS(K_DX), *restrict dy = KS(K_DY), *restrict dz = KS(K_DZ);
	const float *restrict qx = KS(K_QX), *restrict qy = KS(K_QY), *restrict qz = KS(K_QZ), *restrict qw = KS(K_QW);
	const float *restrict px = KS(K_PX), *restrict py = KS(K_PY), *restrict pz = KS(K_PZ);
	float *restrict n2 = KS(K_N2);
	float *restrict wpx = PL(P_W, i), *restrict wpy = PL(P_W + 1, i), *restrict wpz = PL(P_W + 2, i);
	float *restrict wqx = PL(P_W + 3, i), *restrict wqy = PL(P_W + 4, i), *restrict wqz = PL(P_W + 5, i);
	float *restrict wqw = PL(P_W + 6, i);
	const float len = a->length[i];
	for (int j = 0; j < n; j++) {
		const float u[3] = {ux[j], uy[j], uz[j]}, r[4] = {qx[j], qy[j], qz[j], qw[j]};
		float w[4];
		n2[j] = aim_one(u, dx[j], dy[j], dz[j], len, r, w);
		wpx[j] = px[j];
		wpy[j] = py[j];
		wpz[j] = pz[j];
		wqx[j] = w[0];
		wqy[j] = w[1];
		wqz[j] = w[2];
		wqw[j] = w[3];
	}
	aim_fix(c, a, i, n, k);
}

// Whether the chain's bones may take the fast kernel (chain_kernel.h), and whether bone i does.
static int fast_chain(const spring_chain *c)
{
	return c->integrator == SPRING_INTEGRATOR_EXACT && !c->mode_2d && c->projection == SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY &&
	       c->collider_count == 0;
}

static int fast_bone(const spring_chain *c, const chain_arrays *a, int i)
{
	return fast_chain(c) && !(a->cone_limit[i] > 0.0f);
}

// Whether every bone takes the fast kernel.
static int all_fast(const spring_chain *c, const chain_arrays *a)
{
	int fast = fast_chain(c);
	for (int i = 0; fast && i < c->bone_count; i++) {
		fast = !(a->cone_limit[i] > 0.0f);
	}
	return fast;
}

// One walk of the 3D frame over the n lanes (at most a block) of the block view `ap` with the
// block's scratch `k` (slots B floats apart): roots in K_RQ/K_RP, accelerations in K_A; `locals`
// every bone's local transform. The physics walk (snap 0) steps every tip and clears rest[j] for
// the lanes not within the rest thresholds; the snapping walk (snap 1) puts every tip exactly at
// its rest position, still, and rebuilds the pose on them (the previous pose is kept).
static void walk_block(const spring_chain *c, const chain_arrays *ap, int n, const spring_xform3 *locals, int snap, float *k,
                       int *rest)
{
	const chain_arrays a = *ap;
	for (int i = 0; i < c->bone_count; i++) {
		if (!snap && fast_bone(c, &a, i)) {
			// The run of bones from i that take the fast step, in one pass per vector of lanes.
			int end = i + 1;
			while (end < c->bone_count && fast_bone(c, &a, end)) {
				end++;
			}
			const fast_job job = {c, &a, 0, 0, k, rest, n, i, end, locals};
			fast_run(&job);
			i = end - 1;
			continue;
		}
		if (!snap) {
			for (int q = 0; q < 7; q++) {
				const float *restrict w = PL_A(P_W + q, i);
				float *restrict prev = PL_A(P_WPREV + q, i);
				for (int j = 0; j < n; j++) {
					prev[j] = w[j];
				}
			}
		}
		frame_lanes(c, &a, i, n, &locals[i], k);
		if (!snap) {
			spring_lanes(c, &a, i, n, k);
			constrain_lanes(c, &a, i, n, k);
		}
		finish_lanes(c, &a, i, n, k, rest, snap);
		aim_lanes(c, &a, i, n, k);
	}
}

// The walk over every block of the n lanes of `c` (lane 0; scratch K_COUNT * B floats per block):
// the fast kernel over all of them when every bone takes it, otherwise walk_block per block.
// `anim` (single chains; NULL: the stored animation or the rest pose) gives this step's local
// transforms, normalised here like set_animation does.
static void walk_lanes(const spring_chain *c, const chain_arrays *a, int n, const spring_xform3 *anim, int snap, float *k,
                       int *rest)
{
	const spring_xform3 *locals = c->animated ? a->anim_local : a->rest_local;
	if (anim) {
		for (int i = 0; i < c->bone_count; i++) {
			a->locals[i] = anim[i];
			a->locals[i].rotation = spring_quat_normalize(anim[i].rotation);
		}
		locals = a->locals;
	}
	const size_t block_floats = (size_t)c->bone_count * a->row;
	const size_t trans_floats = (size_t)c->bone_count * T_COUNT * (size_t)a->B;
	if (!snap && all_fast(c, a)) {
		// The whole chain, bone by bone over a few blocks at a time (their state stays in cache
		// from one bone to the next however many chains there are).
		chain_arrays ab = *a;
		for (int j0 = 0; j0 < n; j0 += CHUNK_BLOCKS * a->B) {
			const int lanes = n - j0 < CHUNK_BLOCKS * a->B ? n - j0 : CHUNK_BLOCKS * a->B;
			const fast_job job = {c, &ab, block_floats, trans_floats, k, rest + j0, lanes, 0, c->bone_count, locals};
			fast_run(&job);
			skip_blocks(&ab, c->bone_count, CHUNK_BLOCKS);
			k += (size_t)CHUNK_BLOCKS * (size_t)K_COUNT * (size_t)a->B;
		}
		return;
	}
	if (n <= a->B) {
		walk_block(c, a, n, locals, snap, k, rest);
		return;
	}
	chain_arrays ab = *a;
	for (int j0 = 0; j0 < n; j0 += a->B) {
		walk_block(c, &ab, n - j0 < a->B ? n - j0 : a->B, locals, snap, k, rest + j0);
		skip_blocks(&ab, c->bone_count, 1);
		k += (size_t)K_COUNT * (size_t)a->B;
	}
}

// The last stepped pose of bone i in 3D, whichever walk made it.
static spring_xform3 world_at(const spring_chain *c, const chain_arrays *a, int i, int prev)
{
	if (c->pose_2d) {
		return xform3_of_pose2(prev ? a->world2_prev[i] : a->world2[i]);
	}
	return xform_get(a, prev ? P_WPREV : P_W, i);
}

// Moves everything simulated rigidly with the root from the last step's root to `to`
// (normalised): tips, velocities, both stepped poses, targets and the previous root. The root
// input of the frame is left to the caller.
static void move_rigidly(spring_chain *c, spring_xform3 to)
{
	// D maps the old root frame onto the new one; everything simulated moves with it.
	spring_xform3 d = xform3_normalized(spring_xform3_mul(to, spring_xform3_inverse(roots_of(c)->step)));
	if (c->mode_2d) {
		// Keep the plane: only the rotation about z and the xy translation survive.
		d.position.z = 0.0f;
		d.rotation.x = 0.0f;
		d.rotation.y = 0.0f;
		d.rotation = spring_quat_normalize(d.rotation);
	}
	chain_arrays a = arrays(c);
	chain_pose2 d2 = c->pose_2d ? pose2_of_xform3(d) : (chain_pose2){0.0f, 0.0f, 1.0f, 0.0f};
	for (int i = 0; i < c->bone_count; i++) {
		spring_vec3 tip = spring_xform3_apply(d, tip_of(&a, i));
		spring_vec3 vel = spring_quat_rotate(d.rotation, vel_of(&a, i));
		set_tip(&a, i, tip, vel);
		if (c->pose_2d) {
			a.world2[i] = pose2_mul(d2, a.world2[i]);
			a.world2_prev[i] = pose2_mul(d2, a.world2_prev[i]);
		} else {
			xform_set(&a, P_W, i, xform3_normalized(spring_xform3_mul(d, xform_get(&a, P_W, i))));
			xform_set(&a, P_WPREV, i, xform3_normalized(spring_xform3_mul(d, xform_get(&a, P_WPREV, i))));
		}
		vec_set(&a, P_GX, i, spring_xform3_apply(d, vec_get(&a, P_GX, i)));
	}
	roots_of(c)->step_prev = xform3_normalized(spring_xform3_mul(d, roots_of(c)->step_prev));
	roots_of(c)->step = to;
}

// The inherited-motion caps. When this step's root moves or turns further from the last step's
// root than the caps allow in one step, the chain is first moved rigidly by the excess (as by a
// teleport), so the motion it feels is the capped part only and it stays attached to the root.
static void cap_root_motion(spring_chain *c, spring_xform3 root)
{
	if (!(c->max_root_speed > 0.0f) && !(c->max_root_angular_speed > 0.0f)) {
		return;
	}
	spring_xform3 from = roots_of(c)->step, start = from;
	int capped = 0;
	if (c->max_root_speed > 0.0f) {
		double dx = (double)root.position.x - from.position.x, dy = (double)root.position.y - from.position.y;
		double dz = (double)root.position.z - from.position.z;
		double len = sqrt(dx * dx + dy * dy + dz * dz);
		if (len > (double)c->cap_distance) {
			double k = (double)c->cap_distance / len;
			start.position = spring_vec3_make((float)(root.position.x - dx * k), (float)(root.position.y - dy * k),
			                                  (float)(root.position.z - dz * k));
			capped = 1;
		}
	}
	if (c->max_root_angular_speed > 0.0f) {
		spring_quat rel = spring_quat_mul(root.rotation, spring_quat_conjugate(from.rotation));
		double sign = rel.w < 0.0f ? -1.0 : 1.0; // the shorter way round
		double x = sign * rel.x, y = sign * rel.y, z = sign * rel.z, w = sign * rel.w;
		double sn = sqrt(x * x + y * y + z * z);
		if (sn > 0.0 && w / sqrt(sn * sn + w * w) < c->cap_cos_half) {
			double s, co;
			spring_det_sincos(0.5 * (double)c->max_root_angular_speed * (double)c->clock.step, &s, &co);
			spring_quat seen = {(float)(x / sn * s), (float)(y / sn * s), (float)(z / sn * s), (float)co};
			start.rotation = spring_quat_normalize(spring_quat_mul(spring_quat_conjugate(seen), root.rotation));
			capped = 1;
		}
	}
	if (capped) {
		move_rigidly(c, start);
	}
}

// Rest and sleep bookkeeping after a step that ran.
static void after_step(spring_chain *c, int walk, int at_rest, int same_inputs)
{
	c->steps_run++;
	c->resting = at_rest;
	c->still = at_rest ? (same_inputs && c->still > 0 ? 2 : 1) : 0;
	c->walk = walk;
}

// Lane j's slot 0 in the scratch `k` of a walk over blocks of b lanes (slot q at [q * b]).
static ALWAYS_INLINE float *lane_scratch(float *k, int b, int j)
{
	// b is 1 or GROUP_BLOCK (a constant divisor: no division instruction).
	float *kb = k + (size_t)(b == 1 ? j : j / GROUP_BLOCK) * (size_t)K_COUNT * (size_t)b;
	return kb + (size_t)(b == 1 ? 0 : j % GROUP_BLOCK);
}

// Lane j's root into the scratch `k` of a walk over blocks of b lanes.
static ALWAYS_INLINE void set_lane_root(float *k, int b, int j, const spring_xform3 *root)
{
	float *p = lane_scratch(k, b, j);
	const size_t s = (size_t)b;
	p[K_RQX * s] = root->rotation.x;
	p[K_RQY * s] = root->rotation.y;
	p[K_RQZ * s] = root->rotation.z;
	p[K_RQW * s] = root->rotation.w;
	p[K_RPX * s] = root->position.x;
	p[K_RPY * s] = root->position.y;
	p[K_RPZ * s] = root->position.z;
}

// Lane j's constant acceleration into the scratch `k` of a walk over blocks of b lanes.
static ALWAYS_INLINE void set_lane_accel(float *k, int b, int j, spring_vec3 accel)
{
	float *p = lane_scratch(k, b, j);
	const size_t s = (size_t)b;
	p[K_AX * s] = accel.x;
	p[K_AY * s] = accel.y;
	p[K_AZ * s] = accel.z;
}

// Lane j's root and constant acceleration into the scratch `k` of a walk over blocks of b lanes.
static ALWAYS_INLINE void set_lane_inputs(float *k, int b, int j, spring_xform3 root, spring_vec3 accel)
{
	set_lane_root(k, b, j, &root);
	set_lane_accel(k, b, j, accel);
}

// The lanes of a group that sleep are stepped with the others (the loops run over every lane) and
// then put back: their tip, velocity, world transform and target planes (P_TX .. P_W + 6 and
// P_GX .. P_GZ) saved before the walk (`back` 0) and restored after it (`back` 1). Their previous
// pose needs nothing: asleep, it equals the current one, which the walk copies into it. The
// copies of the chunk of lanes [j0, j1) (at most CHUNK_BLOCKS blocks from a block's first lane)
// sit in the group's `saved` array, lane j - j0 of it, laid out like the planes.
static void save_sleepers(const spring_chain *c, int j0, int j1, const int *ran, int back)
{
	static const int slots[S_COUNT] = {P_TX,    P_TY,    P_TZ,    P_VX,    P_VY,    P_VZ, P_W,  P_W + 1,
	                                   P_W + 2, P_W + 3, P_W + 4, P_W + 5, P_W + 6, P_GX, P_GY, P_GZ};
	const size_t b = (size_t)c->block, n = (size_t)c->bone_count;
	float *saved = arrays(c).saved;
	for (int j = j0; j < j1; j++) {
		if (ran[j]) {
			continue;
		}
		chain_arrays a = arrays(member(c, j));
		const size_t in = (size_t)(j - j0);
		float *kept = saved + in / b * n * S_COUNT * b + in % b;
		for (int q = 0; q < S_COUNT; q++) {
			for (int i = 0; i < c->bone_count; i++) {
				float *live = PL_A(slots[q], i), *copy = kept + ((size_t)i * S_COUNT + (size_t)q) * b;
				if (back) {
					*live = *copy;
				} else {
					*copy = *live;
				}
			}
		}
	}
}

// Whether member m's last step was a 3D step with `root` and the same animation source as this one
// (after a 3D step its root is that step's root: a teleport or reset moves it but also wakes).
static int same_inputs(const spring_chain *m, const spring_xform3 *root, const spring_xform3 *anim, const chain_arrays *a)
{
	return m->walk == WALK_3D && same_bits(root, &roots_of(m)->step, sizeof *root) &&
	       (anim ? m->anim_explicit && same_bits(anim, a->step_local3, (size_t)m->bone_count * sizeof *anim) : !m->anim_explicit);
}

// Member m snapped at rest under `root` after a step that found it resting: one lane alone, the
// member's view of the planes, the solo scratch (a block's worth after the blocks' scratch).
static void snap_lane(spring_chain *m, const spring_xform3 *root, const spring_xform3 *anim, float *solo)
{
	int solo_rest = 1;
	const chain_arrays ma = arrays(m);
	set_lane_inputs(solo, ma.B, 0, *root, m->accel);
	walk_lanes(m, &ma, 1, anim, 1, solo, &solo_rest);
}

// One fixed step of the 3D walk over the lanes [j0, j0 + m) of the n lanes of `c` (lane 0; j0 a
// multiple of the block) under the roots in row 1 of the roots' scratch (normalised; lane j at
// [chunk_room(n) + j - j0]), each lane independent of the others: the chunks of a group's lanes
// may take their steps one chunk after the other. A lane asleep with the inputs of its last step
// (it rested through two steps with them, so a step would change no bit) does not step: a single
// chain returns at once; in a group the physics runs over every lane side by side and the
// sleeping lanes are then put back (save_sleepers). The other lanes get the caps, the physics,
// and the snap when they came to rest. `anim`: explicit locals of a single chain, or NULL.
static void step_lanes(spring_chain *c, const chain_arrays *ap, int n, int j0, int m, const spring_xform3 *anim)
{
	chain_arrays a = *ap;
	const size_t blocks = ((size_t)n + (size_t)a.B - 1u) / (size_t)a.B;
	float *k = a.scratch, *solo = k + (size_t)K_COUNT * chunk_blocks(n) * (size_t)a.B; // the chunk's, one lane's
	const int padded = (int)blocks * a.B, j1 = j0 + m;
	int *rest = a.flags, *ran = a.flags + padded, *same = a.flags + 2 * padded;
	const spring_xform3 *roots = a.roots + chunk_room(n); // the step's, lane j's at [j - j0]
	int running = 0;
	for (int j = j0; j < j1; j++) {
		spring_chain *mj = member(c, j);
		const spring_xform3 *root = &roots[j - j0];
		// Whether the inputs repeat matters only to a chain that rested (after_step); asleep (two
		// resting steps in a row with these inputs), this step would change no bit.
		same[j] = mj->still > 0 && same_inputs(mj, root, anim, &a);
		ran[j] = !(mj->still >= 2 && !mj->sleep_off && same[j]);
		rest[j] = 1;
		set_lane_inputs(k, a.B, j - j0, *root, mj->accel);
		if (!ran[j]) {
			continue;
		}
		running++;
		if (mj->pose_2d) {
			chain_arrays ma = arrays(mj);
			for (int i = 0; i < mj->bone_count; i++) {
				xform_set(&ma, P_W, i, xform3_of_pose2(ma.world2[i]));
			}
			mj->pose_2d = 0;
		}
		if (mj->max_root_speed > 0.0f || mj->max_root_angular_speed > 0.0f) {
			cap_root_motion(mj, *root);
		}
		roots_of(mj)->step_prev = roots_of(mj)->step;
		roots_of(mj)->step = *root;
	}
	if (running == 0) {
		return;
	}
	if (running < m) {
		save_sleepers(c, j0, j1, ran, 0);
	}
	skip_blocks(&a, c->bone_count, (size_t)(j0 / a.B));
	walk_lanes(c, &a, m, anim, 0, k, rest + j0);
	if (running < m) {
		save_sleepers(c, j0, j1, ran, 1);
	}
	for (int j = j0; j < j1; j++) {
		if (!ran[j]) {
			continue;
		}
		spring_chain *mj = member(c, j);
		int at_rest = rest[j];
		if (at_rest) {
			snap_lane(mj, &roots[j - j0], anim, solo);
		}
		after_step(mj, WALK_3D, at_rest, same[j]);
		mj->anim_explicit = anim != NULL;
	}
	if (anim && ran[0]) {
		memcpy(a.step_local3, anim, (size_t)c->bone_count * sizeof *anim);
	}
}

// The 2D walk (mode_2d chains): the same bones as the 3D walk with rotations as unit directions,
// sharing its tip step (one lane). `anim` (NULL: the stored animation or the rest pose) gives this
// step's locals.
static int walk_2d(spring_chain *c, chain_pose2 root, const spring_xform2 *anim, int snap)
{
	chain_arrays a = arrays(c);
	const int n = 1;
	float *k = a.scratch;
	int *rest = a.flags;
	rest[0] = 1;
	kvec_set(k, n, K_AX, 0, c->accel);
	chain_pose2 parent = root;
	for (int i = 0; i < c->bone_count; i++) {
		if (!snap) {
			a.world2_prev[i] = a.world2[i];
		}
		chain_pose2 local = anim ? pose2_of_xform2(anim[i]) : pose2_of_xform3(c->animated ? a.anim_local[i] : a.rest_local[i]);
		chain_pose2 rigid = pose2_mul(parent, local);
		spring_vec3 pivot = spring_vec3_make(rigid.x, rigid.y, 0.0f);
		spring_vec3 t = a.tip_local[i];
		double rc = rigid.c, rs = rigid.s;
		spring_vec3 rigid_tip = spring_vec3_make((float)((double)rigid.x + (rc * t.x - rs * t.y)),
		                                         (float)((double)rigid.y + (rs * t.x + rc * t.y)), 0.0f);
		kvec_set(k, n, K_PX, 0, pivot);
		kvec_set(k, n, K_GX, 0, rigid_tip);
		kvec_set(k, n, K_UX, 0, spring_vec3_sub(rigid_tip, pivot));
		if (!snap) {
			spring_lanes(c, &a, i, n, k);
			constrain_lanes(c, &a, i, n, k);
		}
		finish_lanes(c, &a, i, n, k, rest, snap);
		spring_vec3 tip = tip_of(&a, i);

		// Aim: turn the rigid rotation by the angle from (rigid_tip - pivot) to (tip - pivot).
		spring_vec3 from = spring_vec3_sub(rigid_tip, pivot), to = spring_vec3_sub(tip, pivot);
		double cr = (double)from.x * to.y - (double)from.y * to.x;
		double dt = (double)from.x * to.x + (double)from.y * to.y;
		chain_pose2 bone = rigid;
		if (cr != 0.0 || dt != 0.0) {
			double nn = sqrt(cr * cr + dt * dt);
			double qc = dt / nn, qs = cr / nn;
			bone = pose2_make(rigid.x, rigid.y, qc * rc - qs * rs, qs * rc + qc * rs);
		}
		a.world2[i] = bone;
		parent = bone;
	}
	return rest[0];
}

// One fixed step of the 2D walk: the caps, the physics, and the snap when it came to rest.
static int step_chain_2d(spring_chain *c, spring_xform2 root, const spring_xform2 *anim)
{
	if (!c->pose_2d) {
		chain_arrays a = arrays(c);
		for (int i = 0; i < c->bone_count; i++) {
			a.world2[i] = pose2_of_xform3(xform_get(&a, P_W, i));
		}
		c->pose_2d = 1;
	}
	chain_pose2 parent = pose2_of_xform2(root);
	// The root is kept in 3D for teleports and the caps.
	spring_xform3 root3 = xform3_of_pose2(parent);
	cap_root_motion(c, root3);
	roots_of(c)->step_prev = roots_of(c)->step;
	roots_of(c)->step = root3;
	int at_rest = walk_2d(c, parent, anim, 0);
	if (at_rest) {
		walk_2d(c, parent, anim, 1);
	}
	return at_rest;
}

// A step of the 2D walk (single chains), or nothing when the chain is asleep and the inputs are
// the last step's.
static void run_step_2d(spring_chain *c, const spring_xform2 *root, const spring_xform2 *anim)
{
	chain_arrays a = arrays(c);
	size_t bytes = (size_t)c->bone_count * sizeof *anim;
	int same = c->walk == WALK_2D && same_bits(root, &c->last_root2, sizeof *root) &&
	           (anim ? c->anim_explicit && same_bits(anim, a.step_local2, bytes) : !c->anim_explicit);
	if (same && c->still >= 2 && !c->sleep_off) {
		return;
	}
	int at_rest = step_chain_2d(c, *root, anim);
	after_step(c, WALK_2D, at_rest, same);
	c->last_root2 = *root;
	c->anim_explicit = anim != NULL;
	if (anim) {
		memcpy(a.step_local2, anim, bytes);
	}
}

static ALWAYS_INLINE spring_xform3 xform3_lerp(spring_xform3 a, spring_xform3 b, float t)
{
	spring_xform3 r = {spring_internal_vec3_lerp(a.position, b.position, t),
	                   spring_internal_quat_nlerp(a.rotation, b.rotation, t)};
	return r;
}

// A sub-step's root: fraction f of the way from the last frame's root to this frame's, which is
// taken as it is at f >= 1 and when the root has not moved. (Interpolating a root onto itself
// renormalises its rotation, which can change its last bit: a held root must give every step the
// same bits, or a chain at rest never falls asleep on frames of several steps.)
static ALWAYS_INLINE spring_xform3 substep_root(const spring_xform3 *from, const spring_xform3 *to, float f)
{
	if (f >= 1.0f || memcmp(from, to, sizeof *to) == 0) {
		return *to;
	}
	return xform3_lerp(*from, *to, f);
}

// Whether every member of the lanes [j0, j0 + m) is awake (not resting), uncapped and in 3D: then
// a step runs every lane and needs no per-lane work until one comes to rest (plain_steps).
static int plain_lanes(const spring_chain *c, int j0, int m)
{
	int plain = 1;
	for (int j = j0; j < j0 + m; j++) {
		const spring_chain *mj = member(c, j);
		plain &= (mj->still == 0) & (mj->pose_2d == 0) & !(mj->max_root_speed > 0.0f) & !(mj->max_root_angular_speed > 0.0f);
	}
	return plain;
}

// The steps of a frame for plain lanes [j0, j0 + m) (plain_lanes), exactly as step_lanes runs them
// but with each member's bookkeeping (roots of the last two steps, steps run, rest) written once
// at the end: every lane runs every step, and none rested before the last. When a lane comes to
// rest at step s, the bookkeeping of steps 0 .. s is written then (and the resting lanes snapped)
// and s + 1 is returned, for step_lanes to run the rest; otherwise `steps`.
static int plain_steps(spring_chain *c, const chain_arrays *ap, int n, int j0, int m, const spring_clock *clock, int steps)
{
	chain_arrays a = *ap;
	const size_t blocks = ((size_t)n + (size_t)a.B - 1u) / (size_t)a.B;
	float *k = a.scratch, *solo = k + (size_t)K_COUNT * chunk_blocks(n) * (size_t)a.B; // the chunk's, one lane's
	int *rest = a.flags, *rest2 = a.flags + blocks * (size_t)a.B; // the second step's of a pair (the `ran` flags' room)
	const int j1 = j0 + m;
	skip_blocks(&a, c->bone_count, (size_t)(j0 / a.B));
	// Lanes that fill one block take their steps two at a time (fast_pair), the second step's
	// inputs in the solo scratch (a block's worth; snapping comes after).
	const int pairs = m <= a.B && all_fast(c, &a);
	const spring_xform3 *locals = c->animated ? a.anim_local : a.rest_local;
	for (int j = j0; j < j1; j++) {
		set_lane_accel(k, a.B, j - j0, member(c, j)->accel);
		if (pairs) {
			set_lane_accel(solo, a.B, j - j0, member(c, j)->accel);
		}
	}
	// The roots of the last step run in cur, of the one before in prev (lane j at [j - j0]); the
	// buffers rotate among the rows 1, 2 and 3 of the roots' scratch (row 0: the frame's roots).
	const int room = chunk_room(n);
	spring_xform3 *cur = a.roots + room, *prev = a.roots + 2 * room, *spare = a.roots + 3 * room;
	int s = 0, rested = 0;
	while (s < steps && !rested) {
		const int two = pairs && s + 1 < steps;
		for (int q = 0; q <= two; q++) {
			spring_xform3 *out = q == 0 ? spare : prev; // step s + q's roots
			const float f = spring_clock_substep_fraction(clock, s + q, steps);
			for (int j = j0; j < j1; j++) {
				spring_xform3 *o = &out[j - j0];
				*o = substep_root(&a.lane_roots[j].input, &a.roots[j - j0], f);
				set_lane_root(q == 0 ? k : solo, a.B, j - j0, o);
				(q == 0 ? rest : rest2)[j] = 1;
			}
		}
		int ran = 1;
		if (two) {
			const fast_job first = {c, &a, 0, 0, k, rest + j0, m, 0, c->bone_count, locals};
			const fast_job second = {c, &a, 0, 0, solo, rest2 + j0, m, 0, c->bone_count, locals};
			ran = fast_pair(&first, &second);
		} else {
			walk_lanes(c, &a, m, NULL, 0, k, rest + j0);
		}
		spring_xform3 *t = spare;
		if (ran == 2) {
			// Steps s (in spare) and s + 1 (in prev).
			spare = cur;
			cur = prev;
			prev = t;
			for (int j = j0; j < j1; j++) {
				rest[j] = rest2[j];
			}
		} else {
			spare = prev;
			prev = cur;
			cur = t;
		}
		s += ran;
		for (int j = j0; j < j1; j++) {
			rested |= rest[j];
		}
	}
	// s steps ran; the last (s - 1) may have found lanes at rest.
	for (int j = j0; j < j1; j++) {
		spring_chain *mj = member(c, j);
		chain_roots *r = &a.lane_roots[j];
		r->step_prev = s >= 2 ? prev[j - j0] : r->step;
		r->step = cur[j - j0];
		mj->steps_run += s - 1;
		if (rest[j]) {
			snap_lane(mj, &cur[j - j0], NULL, solo);
		}
		after_step(mj, WALK_3D, rest[j], 0);
		mj->anim_explicit = 0;
	}
	return s;
}

// The frame update of the n lanes of `c` (lane 0) on `clock`: every root checked (nothing
// changes on an error) and normalised, then each sub-step's roots interpolated from each lane's
// last frame root (the last sub-step is the frame's root itself) and stepped.
// A frame time an update takes: finite (NOT_FINITE) and >= 0 (OUT_OF_RANGE).
static spring_result check_frame_dt(float frame_dt)
{
	if (!spring_internal_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return frame_dt < 0.0f ? SPRING_ERROR_OUT_OF_RANGE : SPRING_OK;
}

static spring_result update_lanes(spring_chain *c, int n, spring_clock *clock, const spring_xform3 *roots, float frame_dt)
{
	chain_arrays a = arrays(c);
#if defined(__GNUC__)
	if (n == 1) {
		// A single chain's arrays from its planes to its bones' shape, fetched while the roots are
		// checked (one of many chains is out of the nearer caches by its next frame, and its walk
		// is one chain of dependent steps).
		const unsigned char *p = (const unsigned char *)a.planes;
		const size_t bytes = (size_t)((const unsigned char *)(a.cone_limit + c->bone_count) - p);
		for (size_t o = 0; o < bytes; o += 64) {
			__builtin_prefetch(p + o, 1);
		}
	}
#endif
	// Every root valid (finite, positions in range) in one pass without branches; on a failure
	// check_xform3 finds the first bad root and says why.
	int valid = 1;
	for (int j = 0; j < n; j++) {
		const spring_xform3 *t = &roots[j];
		const float lim = SPRING_CHAIN_MAX_COORDINATE;
		valid &= in_range(t->position.x, lim) & in_range(t->position.y, lim) & in_range(t->position.z, lim);
		valid &= (int)spring_internal_finite(t->rotation.x) & (int)spring_internal_finite(t->rotation.y) &
		         (int)spring_internal_finite(t->rotation.z) & (int)spring_internal_finite(t->rotation.w);
	}
	for (int j = 0; !valid && j < n; j++) {
		spring_result r = check_xform3(&roots[j]);
		if (r != SPRING_OK) {
			return r;
		}
	}
	spring_result r = check_frame_dt(frame_dt);
	if (r != SPRING_OK) {
		return r;
	}
	if (n > 1) {
		share_transitions(c, &a, n);
	}
	int steps = spring_clock_advance(clock, frame_dt);
	// Chunk by chunk of lanes, every step of the frame (the lanes are independent): a chunk's
	// state stays in cache from one step to the next however many chains there are.
	// The roots' scratch holds a chunk's (lane j at [j - j0]): row 0 the frame's, normalised.
	const int chunk = CHUNK_BLOCKS * a.B, room = chunk_room(n);
	for (int j0 = 0; j0 < n; j0 += chunk) {
		const int m = n - j0 < chunk ? n - j0 : chunk;
		for (int j = 0; j < m; j++) {
			a.roots[j].position = roots[j0 + j].position;
			a.roots[j].rotation = spring_internal_quat_normalize(roots[j0 + j].rotation); // zero in, identity out
		}
		int s = steps > 0 && plain_lanes(c, j0, m) ? plain_steps(c, &a, n, j0, m, clock, steps) : 0;
		for (; s < steps; s++) {
			float f = spring_clock_substep_fraction(clock, s, steps);
			for (int j = 0; j < m; j++) {
				a.roots[room + j] = substep_root(&a.lane_roots[j0 + j].input, &a.roots[j], f);
			}
			step_lanes(c, &a, n, j0, m, NULL);
		}
		for (int j = 0; j < m; j++) {
			a.lane_roots[j0 + j].input = a.roots[j];
		}
	}
	return SPRING_OK;
}

spring_result spring_chain_update(spring_chain *chain, spring_xform3 root, float frame_dt)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return update_lanes(chain, 1, &chain->clock, &root, frame_dt);
}

spring_result spring_chain_internal_update_lanes(spring_chain *first, int lanes, spring_clock *clock, const spring_xform3 *roots,
                                                 float frame_dt)
{
	return update_lanes(first, lanes, clock, roots, frame_dt);
}
static spring_result check_animation(const spring_chain *chain, const spring_xform3 *local, int count)
{
	for (int i = 0; i < count; i++) {
		spring_xform3 t = local[i];
		spring_result r = accept_xform3(&t);
		if (r != SPRING_OK) {
			return r;
		}
		if (chain->mode_2d && local[i].position.z != 0.0f) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	return SPRING_OK;
}

spring_result spring_chain_internal_step(spring_chain *chain, const spring_xform3 *root, const spring_xform3 *anim_local)
{
	if (!chain || !root) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_xform3 at = *root;
	spring_result r = accept_xform3(&at);
	if (r == SPRING_OK && anim_local) {
		r = check_animation(chain, anim_local, chain->bone_count);
	}
	if (r != SPRING_OK) {
		return r;
	}
	const chain_arrays a = arrays(chain);
	a.roots[chunk_room(1)] = at; // row 1: the step's root
	step_lanes(chain, &a, 1, 0, 1, anim_local);
	roots_of(chain)->input = at;
	return SPRING_OK;
}

// A 2D transform handed to the chain: finite, its position within SPRING_CHAIN_MAX_COORDINATE.
static spring_result accept_xform2(spring_xform2 t)
{
	if (!spring_vec2_is_finite(t.position) || !spring_is_finite(t.angle)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!in_range(t.position.x, SPRING_CHAIN_MAX_COORDINATE) || !in_range(t.position.y, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

spring_result spring_chain_internal_step2d(spring_chain *chain, spring_xform2 root, const spring_xform2 *anim_local)
{
	if (!chain || !chain->mode_2d) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = accept_xform2(root);
	for (int i = 0; r == SPRING_OK && anim_local && i < chain->bone_count; i++) {
		r = accept_xform2(anim_local[i]);
	}
	if (r != SPRING_OK) {
		return r;
	}
	run_step_2d(chain, &root, anim_local);
	roots_of(chain)->input = roots_of(chain)->step;
	return SPRING_OK;
}

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
	pose_at_rest(chain, root);
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
	move_rigidly(chain, root);
	roots_of(chain)->input = root;
	wake(chain);
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

spring_result spring_chain_set_animation(spring_chain *chain, const spring_xform3 *local, int count)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!local) {
		if (count != 0 && count != chain->bone_count) {
			return SPRING_ERROR_INVALID_ARGUMENT;
		}
		chain->animated = 0;
		wake(chain);
		return SPRING_OK;
	}
	if (count != chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_animation(chain, local, count);
	if (r != SPRING_OK) {
		return r;
	}
	chain_arrays a = arrays(chain);
	for (int i = 0; i < count; i++) {
		a.anim_local[i] = local[i];
		a.anim_local[i].rotation = spring_quat_normalize(local[i].rotation);
	}
	chain->animated = 1;
	wake(chain);
	return SPRING_OK;
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
	spring_result r = prepare_bone(chain, &a, bone);
	if (r != SPRING_OK) {
		a.params_set[at] = old;
	} else {
		wake(chain);
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
	wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_forces(spring_chain *chain, spring_vec3 gravity, spring_vec3 wind)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec3_is_finite(gravity) || !spring_vec3_is_finite(wind)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(gravity, SPRING_CHAIN_MAX_ACCELERATION) || !vec3_in_range(wind, SPRING_CHAIN_MAX_ACCELERATION)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	chain->gravity = gravity;
	chain->wind = wind;
	chain->accel = spring_vec3_add(gravity, wind);
	wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_colliders(spring_chain *chain, const spring_chain_collider *colliders, int count)
{
	if (!chain || count < 0 || count > chain->max_colliders || (count > 0 && !colliders)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < count; i++) {
		spring_result r = validate_collider(&colliders[i], i, NULL);
		if (r != SPRING_OK) {
			return r;
		}
	}
	chain_arrays a = arrays(chain);
	for (int i = 0; i < count; i++) {
		a.colliders[i] = colliders[i];
	}
	chain->collider_count = count;
	wake(chain);
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
	set_root_limits(chain, max_root_speed, max_root_angular_speed);
	wake(chain);
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

// ---------------------------------------------------------------------------------------------
// Output

int spring_chain_bone_count(const spring_chain *chain)
{
	return chain ? chain->bone_count : 0;
}

spring_result spring_chain_internal_pose(const spring_chain *chain, float alpha, spring_xform3 *bones, spring_vec3 *tips,
                                         int capacity)
{
	if (!chain || (!bones && !tips) || capacity < chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
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
			const float *px = PL_A(slot, i), *py = PL_A(slot + 1, i), *pz = PL_A(slot + 2, i);
			const float *qx = PL_A(slot + 3, i), *qy = PL_A(slot + 4, i), *qz = PL_A(slot + 5, i), *qw = PL_A(slot + 6, i);
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
	if (h->collider_count < 0 || h->collider_count > h->max_colliders) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "collider_count",
		                "must be in 0..max_colliders");
	}
	if (!spring_vec3_is_finite(h->gravity) || !spring_vec3_is_finite(h->wind) ||
	    !vec3_in_range(h->gravity, SPRING_CHAIN_MAX_ACCELERATION) || !vec3_in_range(h->wind, SPRING_CHAIN_MAX_ACCELERATION)) {
		return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "gravity",
		                "or wind is not finite and within SPRING_CHAIN_MAX_ACCELERATION");
	}
	spring_vec3 accel = spring_vec3_add(h->gravity, h->wind);
	if (!same_bits(&accel, &h->accel, sizeof accel)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "accel", "is not gravity + wind");
	}
	if (!spring_is_finite(h->max_root_speed) || !spring_is_finite(h->max_root_angular_speed) || h->max_root_speed < 0.0f ||
	    h->max_root_angular_speed < 0.0f) {
		return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "max_root_speed",
		                "or max_root_angular_speed is not finite and >= 0");
	}
	spring_chain derived = *h;
	set_root_limits(&derived, h->max_root_speed, h->max_root_angular_speed);
	if (!same_bits(&derived.cap_distance, &h->cap_distance, sizeof h->cap_distance) ||
	    !same_bits(&derived.cap_cos_half, &h->cap_cos_half, sizeof h->cap_cos_half)) {
		return snap_bad(k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "cap_distance",
		                "(the caps' per-step forms) do not match the caps");
	}
	if (accept_xform2(h->last_root2) != SPRING_OK) {
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
	for (int i = 0; i < n; i++) {
		const size_t at = (size_t)i * (size_t)a.s;
		spring_params own, effective, p;
		memcpy(&own, snap_at(k, &a.params_set[at]), sizeof own);
		memcpy(&effective, snap_at(k, &a.params[at]), sizeof effective);
		float trans[T_COUNT];
		spring_result r = bone_settings(c, i, own, &p, trans);
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
		if (h->animated && (check_animation(h, &anim, 1) != SPRING_OK || !unit_quat(anim.rotation))) {
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
				if (!snap_pose2_ok(w) || !snap_pose2_ok(wp) || accept_xform2(s2) != SPRING_OK) {
					return snap_bad(k, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_BONE, i, "world2",
					                "(a bone's 2D pose) is not finite, within bounds and of unit direction");
				}
			}
		}
	}
	for (int j = 0; j < h->collider_count; j++) {
		spring_chain_collider col;
		memcpy(&col, snap_at(k, &a.colliders[j]), sizeof col);
		spring_result r = validate_collider(&col, j, NULL);
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
			return error ? spring_internal_error_nest(error, &inner, "chain group", SPRING_ELEMENT_CHAIN, j) : r;
		}
	}
	const chain_snap_check k = {first, image, error};
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
			if (!same) {
				return snap_bad(&k, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "padding",
				                "(the lanes past the last chain) differs from this group's");
			}
		}
	}
	for (size_t j = (size_t)lanes; j < (size_t)a.s; j++) {
		for (size_t i = 0; i < n; i++) {
			if (!snap_same(&k, &a.params_set[i * (size_t)a.s + j], sizeof(spring_params)) ||
			    !snap_same(&k, &a.params[i * (size_t)a.s + j], sizeof(spring_params))) {
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
