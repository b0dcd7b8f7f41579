// SPDX-License-Identifier: MIT
// The tip chains' frame driver and tip step (chain_impl.h; the design in chain.c): the kernel's
// instances (chain_kernel.h) and their table, the scalar per-lane calls the kernel makes for rare
// work, the 3D and 2D walks, sleep.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain_impl.h"
#include "simd_internal.h"

#include <float.h>
#include <math.h>

// ---------------------------------------------------------------------------------------------
// The step (chain_kernel.h)

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
	const spring_xform3 *locals; // every bone's local transform this step
} fast_job;

static spring_vec3 rest_position(const spring_chain *c, float w2, float len, spring_vec3 pivot, spring_vec3 rigid_tip,
                                 spring_vec3 accel);
static inline int rest_ok(const spring_chain *c, float x, float y, float z, float vx, float vy, float vz, float rx, float ry,
                          float rz, float per_step);
static spring_quat aim_flip(const spring_chain *c, spring_vec3 u, spring_quat rigid);
static void cone_lane(const spring_chain *c, float limit, spring_vec3 u, spring_vec3 *d, spring_vec3 *v);
static void collide_lane(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 *d, spring_vec3 *v);

// How a bone's tip step departs from the common case, the fast kernel's (every field 0: the exact
// transition, 3D, the projection's velocity removal, no cone limit, no colliders, stepping).
typedef struct tip_mode {
	int semi;    // semi-implicit Euler with the lanes' params (else the exact transition)
	int flat;    // 2D mode: z held at 0
	int keep;    // the projection keeps the radial velocity (SPRING_CHAIN_PROJECTION_KEEP_VELOCITY)
	int collide; // the chain has colliders
	int snap;    // the snapping walk: tips put exactly at their rest positions, still
	float cone;  // the bone's cone limit in radians (0: none)
} tip_mode;
#define FAST_MODE ((tip_mode){0, 0, 0, 0, 0, 0.0f})

// Bone i's mode in chain c's step (snap: the snapping walk's); the one place that tells.
static tip_mode bone_mode(const spring_chain *c, const chain_arrays *a, int i, int snap)
{
	const float cone = a->cone_limit[i];
	const tip_mode m = {c->integrator != SPRING_INTEGRATOR_EXACT,
	                    c->mode_2d != 0,
	                    c->projection != SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY,
	                    c->collider_count > 0,
	                    snap != 0,
	                    cone > 0.0f ? cone : 0.0f};
	return m;
}

// Whether bone i takes the fast kernel (its mode is the common case).
static int fast_bone(const spring_chain *c, const chain_arrays *a, int i)
{
	const tip_mode m = bone_mode(c, a, i, 0);
	return !m.semi && !m.flat && !m.keep && !m.collide && !(m.cone > 0.0f);
}

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
	void (*walk)(const fast_job *job, int snap);
	int (*pair)(const fast_job *first, const fast_job *second);
	int (*single_pair)(const fast_job *first, const fast_job *second);
} chain_kernels;

static const chain_kernels kernels[SPRING_INTERNAL_ISA_COUNT] = {
	[SPRING_INTERNAL_ISA_AUTO] = {fast_run_g1, walk_g1, fast_pair_g1, fast_pair_f}, // never in use: complete
	[SPRING_INTERNAL_ISA_SCALAR] = {fast_run_g1, walk_g1, fast_pair_g1, fast_pair_f},
#if SPRING_SIMD_X86
	[SPRING_INTERNAL_ISA_SSE2] = {fast_run_v4, walk_v4, fast_pair_v4, fast_pair_p2},
	[SPRING_INTERNAL_ISA_AVX2] = {fast_run_avx2, walk_avx2, fast_pair_avx2, fast_pair_p2},
	[SPRING_INTERNAL_ISA_AVX512] = {fast_run_avx512, walk_avx512, fast_pair_avx512, fast_pair_p2},
#endif
#if SPRING_SIMD_WASM
	[SPRING_INTERNAL_ISA_SIMD128] = {fast_run_v4, walk_v4, fast_pair_v4, fast_pair_p2},
#endif
#if SPRING_SIMD_NEON
	[SPRING_INTERNAL_ISA_NEON] = {fast_run_v4, walk_v4, fast_pair_v4, fast_pair_p2},
#endif
};

// The instruction set in use has an entry: it is one this build has (simd.c chooses only those).
static const chain_kernels *kernels_in_use(void)
{
	return &kernels[spring_internal_isa_current()];
}

// fast_pair_* of the instance walk_lanes takes: two steps a bone apart (chain_kernel.h).
static int fast_pair(const fast_job *first, const fast_job *second)
{
	const chain_kernels *k = kernels_in_use();
	return first->a->B == 1 ? k->single_pair(first, second) : k->pair(first, second);
}

// The view `a` (a block's first lane) moved on by `blocks` blocks of lanes of n bones.
static void skip_blocks(chain_arrays *a, int n, size_t blocks)
{
	a->planes += blocks * (size_t)n * a->row;
	a->trans += blocks * (size_t)n * T_COUNT * (size_t)a->B;
	a->params += blocks * (size_t)a->B;
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

// Whether a tip at (x, y, z) moving at (vx, vy, vz) is within the rest thresholds of the rest
// position r. Far from the origin floats are coarse: a tip at 1e4 units moves in steps of 1e-3,
// which may be above the thresholds. A few units in the last place of the coordinates (and that
// much per step in speed) is the finest rest floats can tell, so the thresholds never go below it.
// (The kernel's vector test, chain_kernel.h, is this one's operations lane by lane.)
static inline int rest_ok(const spring_chain *c, float x, float y, float z, float vx, float vy, float vz, float rx, float ry,
                          float rz, float per_step)
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

// The cone limit of one lane: the direction d clamped to within `limit` of the rigid direction u,
// the velocity v's part outward of the cone removed.
static void cone_lane(const spring_chain *c, float limit, spring_vec3 u, spring_vec3 *d, spring_vec3 *v)
{
	spring_vec3 outward;
	*d = spring_chain_impl_cone_clamp(*d, spring_vec3_normalize(u), limit, c->mode_2d, &outward);
	if (spring_vec3_length(outward) > 0.0f) {
		*v = spring_chain_impl_remove_component(*v, outward, 1);
	}
}

// The colliders of one lane at bone i: they slide the tip over the length sphere about the pivot
// and remove the velocity into them. They have the last word over the cone limit: a limit may be
// bent, a surface never crossed. A few passes settle tips touching several colliders at once.
static void collide_lane(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 *d, spring_vec3 *v)
{
	for (int pass = 0; pass < 4; pass++) {
		int moved = 0;
		for (int q = 0; q < c->collider_count; q++) {
			spring_vec3 normal;
			if (spring_chain_impl_collide(&a->colliders[q], a->tip_radius[i], pivot, a->length[i], d, c->mode_2d, &normal)) {
				*v = spring_chain_impl_remove_component(*v, normal, -1);
				moved = 1;
			}
		}
		if (!moved) {
			break;
		}
	}
}

// Within about 1e-4 rad of anti-parallel the half-way quaternion of the aim is mostly rounding:
// a half turn about an axis perpendicular to the rigid direction u (about z in 2D mode) instead.
static spring_quat aim_flip(const spring_chain *c, spring_vec3 u, spring_quat rigid)
{
	spring_quat arc = c->mode_2d ? (spring_quat){0.0f, 0.0f, 1.0f, 0.0f} : spring_quat_from_to(u, spring_vec3_scale(u, -1.0f));
	return spring_quat_normalize(spring_quat_mul(arc, rigid));
}

// Whether every bone of the chain takes the fast kernel.
static int all_fast(const spring_chain *c, const chain_arrays *a)
{
	int fast = 1;
	for (int i = 0; fast && i < c->bone_count; i++) {
		fast = fast_bone(c, a, i);
	}
	return fast;
}

// The walk of the 3D frame over the n lanes of `c` (lane 0; scratch K_COUNT * B floats per block,
// slots B floats apart): roots in K_RQ/K_RP, accelerations in K_A. The physics walk (snap 0) steps
// every tip and clears rest[j] for the lanes not within the rest thresholds; the snapping walk
// (snap 1) puts every tip exactly at its rest position, still, and rebuilds the pose on them (the
// previous pose is kept). `anim` (single chains; NULL: the stored animation or the rest pose)
// gives this step's local transforms, normalised here like set_animation does. Every bone of every
// lane runs the kernel (chain_kernel.h): the whole chain in the fast mode when every bone takes
// it, otherwise each bone in its own mode. Lanes side by side take the instruction set's vectors;
// one lane (a single chain, or a group's member snapped alone) takes the one-lane instance, which
// writes no other lane.
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
	const int fast = !snap && all_fast(c, a);
	if (n == 1) {
		const fast_job job = {c, a, 0, 0, k, rest, 1, 0, c->bone_count, locals};
		if (a->B == 1) {
			fast ? fast_run_f(&job) : walk_f(&job, snap);
		} else {
			fast ? fast_run_g1(&job) : walk_g1(&job, snap);
		}
		return;
	}
	// The whole chain, bone by bone over a few blocks at a time (their state stays in cache from
	// one bone to the next however many chains there are).
	const size_t block_floats = (size_t)c->bone_count * a->row;
	const size_t trans_floats = (size_t)c->bone_count * T_COUNT * (size_t)a->B;
	const chain_kernels *kern = kernels_in_use();
	chain_arrays ab = *a;
	for (int j0 = 0; j0 < n; j0 += CHUNK_BLOCKS * a->B) {
		const int lanes = n - j0 < CHUNK_BLOCKS * a->B ? n - j0 : CHUNK_BLOCKS * a->B;
		const fast_job job = {c, &ab, block_floats, trans_floats, k, rest + j0, lanes, 0, c->bone_count, locals};
		fast ? kern->run(&job) : kern->walk(&job, snap);
		skip_blocks(&ab, c->bone_count, CHUNK_BLOCKS);
		k += (size_t)CHUNK_BLOCKS * (size_t)K_COUNT * (size_t)a->B;
	}
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
				float *live = PLANE_AT(&a, slots[q], i), *copy = kept + ((size_t)i * S_COUNT + (size_t)q) * b;
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
			spring_chain_impl_cap_root_motion(mj, *root);
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
	int *rest = a.flags;
	rest[0] = 1;
	const float per_step = 1.0f / c->clock.step;
	chain_pose2 parent = root;
	for (int i = 0; i < c->bone_count; i++) {
		if (!snap) {
			a.world2_prev[i] = a.world2[i];
		}
		chain_pose2 local = anim ? pose2_of_xform2(anim[i]) : pose2_of_xform3(c->animated ? a.anim_local[i] : a.rest_local[i]);
		chain_pose2 rigid = pose2_mul(parent, local);
		spring_vec3 t = a.tip_local[i];
		double rc = rigid.c, rs = rigid.s;
		const float gx = (float)((double)rigid.x + (rc * t.x - rs * t.y)), gy = (float)((double)rigid.y + (rs * t.x + rc * t.y));
		// The tip step (the kernel's, one lane) in this frame.
		const float len = a.length[i], tiny = 1e-4f * len;
		const bone_k_f bk = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, len, 1.0f / len, 2.0f * len * tiny};
		const frame_f f = {rigid.x, rigid.y, 0.0f, gx - rigid.x, gy - rigid.y, 0.0f, gx, gy, 0.0f};
		const tip_mode m = bone_mode(c, &a, i, snap);
		float *p = PLANE_AT(&a, 0, i);
		const float *tr = TRANS_AT(&a, 0, i);
		const at_f at = {{p, p}, {tr, tr}, {rest, rest}, 1, &a, i, m.semi ? a.params + (size_t)i * (size_t)a.s : NULL};
		float dx, dy, dz;
		tip_f(c, &at, &bk, m, &f, c->accel.x, c->accel.y, c->accel.z, per_step, &dx, &dy, &dz);
		spring_vec3 tip = tip_of(&a, i);

		// Aim: turn the rigid rotation by the angle from (rigid_tip - pivot) to (tip - pivot).
		spring_vec3 from = {f.ux, f.uy, 0.0f}, to = spring_vec3_sub(tip, (spring_vec3){f.px, f.py, 0.0f});
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
	spring_chain_impl_cap_root_motion(c, root3);
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
		spring_chain_impl_share_transitions(c, &a, n);
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

spring_result spring_chain_internal_step(spring_chain *chain, const spring_xform3 *root, const spring_xform3 *anim_local)
{
	if (!chain || !root) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_xform3 at = *root;
	spring_result r = accept_xform3(&at);
	if (r == SPRING_OK && anim_local) {
		r = spring_chain_impl_check_animation(chain, anim_local, chain->bone_count);
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

spring_result spring_chain_internal_step2d(spring_chain *chain, spring_xform2 root, const spring_xform2 *anim_local)
{
	if (!chain || !chain->mode_2d) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_chain_impl_accept_xform2(root);
	for (int i = 0; r == SPRING_OK && anim_local && i < chain->bone_count; i++) {
		r = spring_chain_impl_accept_xform2(anim_local[i]);
	}
	if (r != SPRING_OK) {
		return r;
	}
	run_step_2d(chain, &root, anim_local);
	roots_of(chain)->input = roots_of(chain)->step;
	return SPRING_OK;
}
