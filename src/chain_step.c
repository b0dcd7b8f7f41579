// SPDX-License-Identifier: MIT
// The tip chains' frame driver and tip step (chain_impl.h; the design in chain.c): the kernel's
// instances (chain_kernel.h) and their table, the scalar per-lane calls the kernel makes for rare
// work, the 3D and 2D walks, sleep.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain_impl.h"
#include "kernels_internal.h"

#include <float.h>
#include <math.h>

// ---------------------------------------------------------------------------------------------
// The step (chain_kernel.h)

// Whether bone i takes the fast kernel (its mode is the common case).
static int fast_bone(const spring_chain *c, const chain_arrays *a, int i)
{
	const tip_mode m = bone_mode(c, a, i, 0);
	return !m.semi && !m.flat && !m.keep && !m.collide && !(m.cone > 0.0f);
}

// fast_pair_* of the instance walk_lanes takes: two steps a bone apart (chain_kernel.h).
static int fast_pair(const fast_job *first, const fast_job *second)
{
	const spring_tip_kernels *k = spring_internal_tip_kernels();
	return first->a->B == 1 ? k->single_pair(first, second) : k->pair(first, second);
}

// The view `a` (a block's first lane) moved on by `blocks` blocks of lanes of n bones.
static void skip_blocks(chain_arrays *a, int n, size_t blocks)
{
	a->planes += blocks * (size_t)n * a->row;
	a->trans += blocks * (size_t)n * T_COUNT * (size_t)a->B;
	a->anim += blocks * (size_t)n * A_COUNT * (size_t)a->B;
	a->params += blocks * (size_t)a->B;
}

// ---------------------------------------------------------------------------------------------
// Stepping

// Whether every bone of the chain takes the fast kernel.
static int all_fast(const spring_chain *c, const chain_arrays *a)
{
	int fast = 1;
	for (int i = 0; fast && i < c->bone_count; i++) {
		fast = fast_bone(c, a, i);
	}
	return fast;
}

// The local transforms every lane of `c` (its view `a`) shares in a step: a single chain's own
// animation or the rest pose (a group's lanes animated on their own read `anim` instead: lane_anim).
static const spring_xform3 *shared_locals(const spring_chain *c, const chain_arrays *a)
{
	return c->animated && c->block == 1 ? a->anim_local : a->rest_local;
}

// The animated locals the kernel reads per lane in the view `a` of `c` (a group's lane 0, or a
// member walked alone), or NULL when every lane takes shared_locals: a group reads them while any
// of its lanes is animated (the others' slots hold the rest pose, the same bits as rest_local).
static const float *lane_anim(const spring_chain *c, const chain_arrays *a)
{
	return c->block > 1 && (c->animated || c->animated_lanes > 0) ? a->anim : NULL;
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
	const spring_xform3 *locals = shared_locals(c, a);
	if (anim) {
		for (int i = 0; i < c->bone_count; i++) {
			a->locals[i] = anim[i];
			a->locals[i].rotation = spring_quat_normalize(anim[i].rotation);
		}
		locals = a->locals;
	}
	const int fast = !snap && all_fast(c, a);
	if (n == 1) {
		const fast_job job = {c, a, 0, 0, k, rest, 1, 0, c->bone_count, locals, lane_anim(c, a)};
		if (a->B == 1) {
			fast ? spring_kernel_fast_run_f(&job) : spring_kernel_walk_f(&job, snap);
		} else {
			fast ? spring_kernel_fast_run_g1(&job) : spring_kernel_walk_g1(&job, snap);
		}
		return;
	}
	// The whole chain, bone by bone over a few blocks at a time (their state stays in cache from
	// one bone to the next however many chains there are).
	const size_t block_floats = (size_t)c->bone_count * a->row;
	const size_t trans_floats = (size_t)c->bone_count * T_COUNT * (size_t)a->B;
	const spring_tip_kernels *kern = spring_internal_tip_kernels();
	chain_arrays ab = *a;
	for (int j0 = 0; j0 < n; j0 += CHUNK_BLOCKS * a->B) {
		const int lanes = n - j0 < CHUNK_BLOCKS * a->B ? n - j0 : CHUNK_BLOCKS * a->B;
		const fast_job job = {c, &ab,           block_floats, trans_floats,     k, rest + j0, lanes,
		                      0, c->bone_count, locals,       lane_anim(c, &ab)};
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
		chain_pose2 local = anim ? pose2_of_xform2(anim[i]) : pose2_of_xform3(spring_chain_impl_local(c, &a, i));
		chain_pose2 rigid = pose2_mul(parent, local);
		spring_vec3 t = a.tip_local[i];
		double rc = rigid.c, rs = rigid.s;
		const float gx = (float)((double)rigid.x + (rc * t.x - rs * t.y)), gy = (float)((double)rigid.y + (rs * t.x + rc * t.y));
		// The tip step (the kernel's, one lane) in this frame.
		const float px = (float)rigid.x, py = (float)rigid.y, ux = (float)(gx - rigid.x), uy = (float)(gy - rigid.y);
		spring_kernel_tip2d_f(c, &a, i, snap, rest, px, py, ux, uy, gx, gy, per_step);
		spring_vec3 tip = tip_of(&a, i);

		// Aim: turn the rigid rotation by the angle from (rigid_tip - pivot) to (tip - pivot).
		spring_vec3 from = {ux, uy, 0.0f}, to = spring_vec3_sub(tip, (spring_vec3){px, py, 0.0f});
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
	const spring_xform3 *locals = shared_locals(c, &a);
	const float *lanes_anim = lane_anim(c, &a);
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
			const fast_job first = {c, &a, 0, 0, k, rest + j0, m, 0, c->bone_count, locals, lanes_anim};
			const fast_job second = {c, &a, 0, 0, solo, rest2 + j0, m, 0, c->bone_count, locals, lanes_anim};
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
