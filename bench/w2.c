// SPDX-License-Identifier: MIT
// W2: many chains on moving roots. 100 chains of 8 bones (the standard 20-unit tail of
// tests/shared/scenes), 600 frames at 60 fps, physics step 1/120 s. Chain c's root at time
// t = frame / 60 + 0.037 c: x = 2 L sin(2 pi 0.5 t), y = L sin(2 pi 1 t) (L = 20, one bone
// length), turned (30 degrees) sin(2 pi 0.7 t); the roots are computed every frame (each chain's
// three sines advanced by a frame's rotation, in double) and every chain's pose is read back
// every frame. Rate: chains x bones x frames per second
// (bone-frames). Also from 10 to 10,000 chains (the same work per chain where it fits), and the
// angle group and the tip group with every chain's animation set anew every frame.
#include "bench.h"
#include "scenes.h"
#include "simd_internal.h" // the kernels' instruction set, forced per row (src/, white-box)

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum w2_variant {
	W2_CHAIN2D,                // spring_chain2d, one object per chain
	W2_CHAIN,                  // spring_chain (3D tip springs), one object per chain
	W2_CHAIN2D_GROUP,          // spring_chain2d_group: one group per thread
	W2_CHAIN_GROUP,            // spring_chain_group: one group per thread
	W2_CHAIN2D_BEFORE,         // spring_chain2d as it was before the speed-ups (bench/before.sh)
	W2_CHAIN_BEFORE,           // spring_chain as it was before the speed-ups
	W2_CHAIN2D_GROUP_ANIMATED, // spring_chain2d_group, every chain's offsets set every frame
	W2_CHAIN_GROUP_ANIMATED,   // spring_chain_group, every chain's local transforms set every frame
	W2_CHAIN2D_GROUPS_OF_ONE,  // spring_chain2d_group, one group of one chain per chain
	W2_CHAIN2D_BASE,           // spring_chain2d before the one-engine work (bench/before.sh)
	W2_CHAIN_BASE,             // spring_chain before the one-engine work
	W2_CHAIN2D_GROUP_BASE,     // spring_chain2d_group before the one-engine work
	W2_CHAIN_GROUP_BASE,       // spring_chain_group before the one-engine work
};

// The single chains' calls of a library linked beside this one with its symbols renamed P*
// (bench/before.sh), declared by hand: its declarations and structs of single chains are this
// library's (its tip bones aside: w2_before_bone), and its table of them for w2_single_api.
#define W2_SINGLE_CALLS(P)                                                                                                 \
	size_t P##spring_chain2d_memory_size(const spring_chain2d_desc *desc);                                                 \
	spring_result P##spring_chain2d_init(const spring_chain2d_desc *desc, void *memory, size_t size, spring_chain2d **out, \
	                                     spring_error *error);                                                             \
	spring_result P##spring_chain2d_update(spring_chain2d *chain, spring_xform2 root, float frame_dt);                     \
	spring_result P##spring_chain2d_reset(spring_chain2d *chain, spring_xform2 root);                                      \
	spring_result P##spring_chain2d_get_pose(const spring_chain2d *chain, spring_xform2 *joints, float *local_angles,      \
	                                         int capacity);                                                                \
	size_t P##spring_chain_memory_size(const spring_chain_desc *desc);                                                     \
	spring_result P##spring_chain_init(const spring_chain_desc *desc, void *memory, size_t size, spring_chain **out,       \
	                                   spring_error *error);                                                               \
	spring_result P##spring_chain_update(spring_chain *chain, spring_xform3 root, float frame_dt);                         \
	spring_result P##spring_chain_reset(spring_chain *chain, spring_xform3 root);                                          \
	spring_result P##spring_chain_get_pose(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips, int capacity);
#define W2_SINGLE_TABLE(P)                                                                                         \
	{                                                                                                              \
		P##spring_chain2d_memory_size, P##spring_chain2d_init, P##spring_chain2d_update, P##spring_chain2d_reset,  \
			P##spring_chain2d_get_pose, P##spring_chain_memory_size, P##spring_chain_init, P##spring_chain_update, \
			P##spring_chain_reset, P##spring_chain_get_pose,                                                       \
	}

#ifdef SPRING_BENCH_BEFORE
// The library of commit 3ec4606, before the speed-ups (symbols before_*).
W2_SINGLE_CALLS(before_)
#endif

#ifdef SPRING_BENCH_BASE
// The library of commit 9944929, before the one-engine work (symbols base_*): its angle group's
// declarations are this library's too; its tip group took the chain description and the count
// apart.
W2_SINGLE_CALLS(base_)
size_t base_spring_chain2d_group_memory_size(const spring_chain2d_group_desc *desc);
spring_result base_spring_chain2d_group_init(const spring_chain2d_group_desc *desc, void *memory, size_t size,
                                             spring_chain2d_group **out, spring_error *error);
spring_result base_spring_chain2d_group_reset(spring_chain2d_group *group, int chain, spring_xform2 root);
spring_result base_spring_chain2d_group_update(spring_chain2d_group *group, const spring_xform2 *roots, float frame_dt);
spring_result base_spring_chain2d_group_get_poses(const spring_chain2d_group *group, spring_xform2 *joints, int capacity);
size_t base_spring_chain_group_memory_size(const spring_chain_desc *desc, int chain_count);
spring_result base_spring_chain_group_init(const spring_chain_desc *desc, int chain_count, void *memory, size_t size,
                                           spring_chain_group **out, spring_error *error);
spring_result base_spring_chain_group_reset(spring_chain_group *group, int chain, spring_xform3 root);
spring_result base_spring_chain_group_update(spring_chain_group *group, const spring_xform3 *roots, float frame_dt);
spring_result base_spring_chain_group_get_poses(const spring_chain_group *group, spring_xform3 *bones, spring_vec3 *tips,
                                                int capacity);
#endif

// The single-chain calls of a variant: this library's, or the one before the speed-ups.
typedef struct w2_single_api {
	size_t (*memory_size2)(const spring_chain2d_desc *desc);
	spring_result (*init2)(const spring_chain2d_desc *desc, void *memory, size_t size, spring_chain2d **out, spring_error *error);
	spring_result (*update2)(spring_chain2d *chain, spring_xform2 root, float frame_dt);
	spring_result (*reset2)(spring_chain2d *chain, spring_xform2 root);
	spring_result (*get_pose2)(const spring_chain2d *chain, spring_xform2 *joints, float *local_angles, int capacity);
	size_t (*memory_size3)(const spring_chain_desc *desc);
	spring_result (*init3)(const spring_chain_desc *desc, void *memory, size_t size, spring_chain **out, spring_error *error);
	spring_result (*update3)(spring_chain *chain, spring_xform3 root, float frame_dt);
	spring_result (*reset3)(spring_chain *chain, spring_xform3 root);
	spring_result (*get_pose3)(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips, int capacity);
} w2_single_api;

static const w2_single_api w2_now = W2_SINGLE_TABLE();
#ifdef SPRING_BENCH_BEFORE
static const w2_single_api w2_before = W2_SINGLE_TABLE(before_);
#endif
#ifdef SPRING_BENCH_BASE
static const w2_single_api w2_base = W2_SINGLE_TABLE(base_);
#endif

// The group calls of a variant, the tip group's in the shape of the library before the
// one-engine work (the chain description and the count apart).
typedef struct w2_group_api {
	size_t (*memory_size2)(const spring_chain2d_group_desc *desc);
	spring_result (*init2)(const spring_chain2d_group_desc *desc, void *memory, size_t size, spring_chain2d_group **out,
	                       spring_error *error);
	spring_result (*reset2)(spring_chain2d_group *group, int chain, spring_xform2 root);
	spring_result (*update2)(spring_chain2d_group *group, const spring_xform2 *roots, float frame_dt);
	spring_result (*get_poses2)(const spring_chain2d_group *group, spring_xform2 *joints, int capacity);
	size_t (*memory_size3)(const spring_chain_desc *desc, int chain_count);
	spring_result (*init3)(const spring_chain_desc *desc, int chain_count, void *memory, size_t size, spring_chain_group **out,
	                       spring_error *error);
	spring_result (*reset3)(spring_chain_group *group, int chain, spring_xform3 root);
	spring_result (*update3)(spring_chain_group *group, const spring_xform3 *roots, float frame_dt);
	spring_result (*get_poses3)(const spring_chain_group *group, spring_xform3 *bones, spring_vec3 *tips, int capacity);
} w2_group_api;

static size_t w2_tip_group_memory_size(const spring_chain_desc *desc, int chain_count)
{
	const spring_chain_group_desc g = {desc, chain_count, NULL};
	return spring_chain_group_memory_size(&g);
}
static spring_result w2_tip_group_init(const spring_chain_desc *desc, int chain_count, void *memory, size_t size,
                                       spring_chain_group **out, spring_error *error)
{
	const spring_chain_group_desc g = {desc, chain_count, NULL};
	return spring_chain_group_init(&g, memory, size, out, error);
}
static const w2_group_api w2_groups_now = {
	spring_chain2d_group_memory_size, spring_chain2d_group_init,    spring_chain2d_group_reset, spring_chain2d_group_update,
	spring_chain2d_group_get_poses,   w2_tip_group_memory_size,     w2_tip_group_init,          spring_chain_group_reset,
	spring_chain_group_update,        spring_chain_group_get_poses,
};
#ifdef SPRING_BENCH_BASE
static const w2_group_api w2_groups_base = {
	base_spring_chain2d_group_memory_size, base_spring_chain2d_group_init,      base_spring_chain2d_group_reset,
	base_spring_chain2d_group_update,      base_spring_chain2d_group_get_poses, base_spring_chain_group_memory_size,
	base_spring_chain_group_init,          base_spring_chain_group_reset,       base_spring_chain_group_update,
	base_spring_chain_group_get_poses,
};
#endif

// The group calls of variant v (NULL: a variant of single chains).
static const w2_group_api *w2_groups(int v)
{
#ifdef SPRING_BENCH_BASE
	if (v == W2_CHAIN2D_GROUP_BASE || v == W2_CHAIN_GROUP_BASE) {
		return &w2_groups_base;
	}
#endif
	return v == W2_CHAIN2D_GROUP || v == W2_CHAIN_GROUP || v == W2_CHAIN2D_GROUP_ANIMATED || v == W2_CHAIN_GROUP_ANIMATED
	           ? &w2_groups_now
	           : NULL;
}

// An angle chain as a group of one chain: what a single chain would run if it were stepped by
// the group's frame (its kernels step chains side by side, one vector of chains at a time).
static spring_chain2d_group_desc w2_one(const spring_chain2d_desc *desc)
{
	return (spring_chain2d_group_desc){.chain = desc, .chain_count = 1};
}
static size_t w2_one_memory_size(const spring_chain2d_desc *desc)
{
	const spring_chain2d_group_desc g = w2_one(desc);
	return spring_chain2d_group_memory_size(&g);
}
static spring_result w2_one_init(const spring_chain2d_desc *desc, void *memory, size_t size, spring_chain2d **out,
                                 spring_error *error)
{
	const spring_chain2d_group_desc g = w2_one(desc);
	return spring_chain2d_group_init(&g, memory, size, (spring_chain2d_group **)(void *)out, error);
}
static spring_result w2_one_update(spring_chain2d *chain, spring_xform2 root, float frame_dt)
{
	return spring_chain2d_group_update((spring_chain2d_group *)(void *)chain, &root, frame_dt);
}
static spring_result w2_one_reset(spring_chain2d *chain, spring_xform2 root)
{
	return spring_chain2d_group_reset((spring_chain2d_group *)(void *)chain, 0, root);
}
static spring_result w2_one_get_pose(const spring_chain2d *chain, spring_xform2 *joints, float *local_angles, int capacity)
{
	return spring_chain2d_group_get_pose((const spring_chain2d_group *)(const void *)chain, 0, joints, local_angles, capacity);
}
static const w2_single_api w2_groups_of_one = {
	w2_one_memory_size, w2_one_init, w2_one_update, w2_one_reset, w2_one_get_pose, NULL, NULL, NULL, NULL, NULL,
};

// The single-chain calls of variant v (NULL: a group variant).
static const w2_single_api *w2_api(int v)
{
#ifdef SPRING_BENCH_BEFORE
	if (v == W2_CHAIN2D_BEFORE || v == W2_CHAIN_BEFORE) {
		return &w2_before;
	}
#endif
	if (v == W2_CHAIN2D_GROUPS_OF_ONE) {
		return &w2_groups_of_one;
	}
#ifdef SPRING_BENCH_BASE
	if (v == W2_CHAIN2D_BASE || v == W2_CHAIN_BASE) {
		return &w2_base;
	}
#endif
	return v == W2_CHAIN2D || v == W2_CHAIN ? &w2_now : NULL;
}

// Angle chains (or tip chains) in variant v.
static int w2_angle(int v)
{
	return v == W2_CHAIN2D || v == W2_CHAIN2D_GROUP || v == W2_CHAIN2D_BEFORE || v == W2_CHAIN2D_GROUP_ANIMATED ||
	       v == W2_CHAIN2D_GROUPS_OF_ONE || v == W2_CHAIN2D_BASE || v == W2_CHAIN2D_GROUP_BASE;
}

enum { w2_bones = SCENE_TAIL_BONES };

// One thread's chains: [first, first + count) of the row, in memory of their own (allocated and
// first touched by the thread that steps them): one group, or one object per chain.
typedef struct w2_part {
	long first, count;
	void *memory;          // the group, or every chain at `stride` bytes (re-initialised by reset)
	size_t stride;         // bytes per chain in `memory` (per-chain variants)
	void **chains;         // count (per-chain variants)
	void *group;           // group variants
	void *roots;           // count roots (spring_xform2 or spring_xform3), computed every frame (groups)
	struct w2_wave *waves; // count: each chain's root path
	float *poses;          // count x pose_floats: the pose read back at the last frame
} w2_part;

// A bone's description as the library before the speed-ups reads it (its spring_chain_bone_desc
// had no `gravity`): the rows "before" get their bones in this layout.
typedef struct w2_before_bone {
	spring_xform3 rest_local;
	spring_vec3 tip;
	spring_params params;
	float tip_radius, cone_limit;
} w2_before_bone;

typedef struct w2_data {
	int pose_floats;
	spring_chain2d_segment segments[w2_bones];
	spring_chain_bone_desc bones[w2_bones];
	w2_before_bone bones_before[w2_bones];
	spring_chain2d_desc d2; // over `segments`; made once, only read by the threads
	spring_chain_desc d3;   // over `bones`
	w2_part parts[BENCH_MAX_THREADS];
} w2_data;

static double w2_time(long chain, int frame)
{
	return (double)frame / 60.0 + 0.037 * (double)chain;
}

// A chain's root path: its three sines (frequencies w2_hz, at t = frame / 60 + 0.037 chain) with
// their cosines, advanced a frame at a time by the angle-addition rule, so computing the roots
// every frame costs a few multiplications (in double: after 600 frames within 1e-13 of sin).
typedef struct w2_wave {
	double s[3], c[3];
	int frame;
} w2_wave;

static const double w2_hz[3] = {0.5, 1.0, 0.7}; // x, y, turn
static double w2_step_s[3], w2_step_c[3];       // a frame's rotation (set by w2_prepare)
static spring_quat w2_bend[9];                  // the animated tip group's turns about z: 0.05 (k - 4) rad

static void w2_wave_start(w2_wave *w, long chain)
{
	const double two_pi = 6.283185307179586476925;
	double t = w2_time(chain, 0);
	for (int k = 0; k < 3; k++) {
		w->s[k] = sin(two_pi * w2_hz[k] * t);
		w->c[k] = cos(two_pi * w2_hz[k] * t);
	}
	w->frame = 0;
}

// The wave at `frame`: the next frame's (the runs go frame by frame) or the start's.
static const w2_wave *w2_wave_at(w2_wave *w, long chain, int frame)
{
	if (frame == 0) {
		w2_wave_start(w, chain);
		return w;
	}
	if (frame != w->frame + 1) {
		fprintf(stderr, "spring_bench: W2: roots out of frame order\n");
		exit(2);
	}
	for (int k = 0; k < 3; k++) {
		double sn = w->s[k] * w2_step_c[k] + w->c[k] * w2_step_s[k];
		w->c[k] = w->c[k] * w2_step_c[k] - w->s[k] * w2_step_s[k];
		w->s[k] = sn;
	}
	w->frame = frame;
	return w;
}

// The root's position and angle from its wave.
static void w2_root(const w2_wave *w, float *x, float *y, float *angle)
{
	const double l = SCENE_TAIL_BONE_LENGTH;
	*x = (float)(2.0 * l * w->s[0]);
	*y = (float)(l * w->s[1]);
	*angle = (float)(0.52359877559829887 * w->s[2]);
}

static spring_xform2 w2_root2(w2_part *p, long chain, int frame)
{
	spring_xform2 r = {{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}};
	w2_root(w2_wave_at(&p->waves[chain - p->first], chain, frame), &r.position.x, &r.position.y, &r.angle);
	return r;
}

static spring_xform3 w2_root3(w2_part *p, long chain, int frame)
{
	float x, y, a;
	w2_root(w2_wave_at(&p->waves[chain - p->first], chain, frame), &x, &y, &a);
	spring_xform3 r = {{x, y, 0.0f}, {0.0f, 0.0f, sinf(0.5f * a), cosf(0.5f * a)}};
	return r;
}

static void w2_descs(const scenario *s, w2_data *w, spring_chain2d_desc *d2, spring_chain_desc *d3)
{
	(void)s;
	scene_tail_segments(w->segments, w2_bones);
	memset(d2, 0, sizeof *d2);
	d2->segment_count = w2_bones;
	d2->segments = w->segments;
	*d3 = scene_tail_desc(w->bones, w2_bones);
	for (int i = 0; i < w2_bones; i++) {
		const spring_chain_bone_desc *b = &w->bones[i];
		w->bones_before[i] = (w2_before_bone){b->rest_local, b->tip, b->params, b->tip_radius, b->cone_limit};
	}
}

// The tip chains' description for variant v: the bones in the layout its library reads.
static spring_chain_desc w2_desc3(const w2_data *w, int v)
{
	spring_chain_desc d3 = w->d3;
	if (v == W2_CHAIN_BEFORE || v == W2_CHAIN_BASE || v == W2_CHAIN_GROUP_BASE) {
		d3.bones = (const spring_chain_bone_desc *)(const void *)w->bones_before;
	}
	return d3;
}

static int w2_prepare(scenario *s)
{
	w2_data *w = calloc(1, sizeof *w);
	if (!w) {
		return 1;
	}
	s->data = w;
	for (int k = 0; k < 3; k++) {
		w2_step_s[k] = sin(6.283185307179586476925 * w2_hz[k] / 60.0);
		w2_step_c[k] = cos(6.283185307179586476925 * w2_hz[k] / 60.0);
	}
	for (int k = 0; k < 9; k++) {
		w2_bend[k] = spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), 0.05f * (float)(k - 4));
	}
	w2_descs(s, w, &w->d2, &w->d3);
	int angle = w2_angle(s->variant);
	w->pose_floats = angle ? (w2_bones + 1) * 5 : w2_bones * 7;
	return 0;
}

// On the part's own thread.
static int w2_prepare_part(scenario *s, int part, long first, long count)
{
	w2_data *w = s->data;
	w2_part *p = &w->parts[part];
	spring_chain2d_desc d2 = w->d2;
	int angle = w2_angle(s->variant);
	const w2_single_api *api = w2_api(s->variant);
	spring_chain_desc d3 = w2_desc3(w, s->variant);
	size_t size, total;
	p->first = first;
	p->count = count;
	if (api) {
		size = angle ? api->memory_size2(&d2) : api->memory_size3(&d3);
		p->stride = (size + 63) / 64 * 64;
		total = p->stride * (size_t)count;
		p->chains = calloc((size_t)count, sizeof *p->chains);
	} else {
		const w2_group_api *groups = w2_groups(s->variant);
		spring_chain2d_group_desc g = {&d2, (int)count, NULL};
		size = angle ? groups->memory_size2(&g) : groups->memory_size3(&d3, (int)count);
		total = (size + 63) / 64 * 64;
		p->roots = calloc((size_t)count, angle ? sizeof(spring_xform2) : sizeof(spring_xform3));
	}
	p->memory = size ? aligned_alloc(64, total) : NULL;
	p->poses = calloc((size_t)count * (size_t)w->pose_floats, sizeof *p->poses);
	p->waves = calloc((size_t)count, sizeof *p->waves);
	return !p->memory || !p->poses || !p->waves || !(p->chains || p->roots);
}

// On the part's own thread.
static void w2_reset_part(scenario *s, int part, long first, long count)
{
	w2_data *w = s->data;
	w2_part *p = &w->parts[part];
	spring_chain2d_desc d2 = w->d2;
	const w2_single_api *api = w2_api(s->variant);
	spring_chain_desc d3 = w2_desc3(w, s->variant);
	int n = (int)count;
	spring_result r = SPRING_OK;
	// A group starts with every chain at rest under the description's root; each is then reset
	// under its own first root.
	const w2_group_api *groups = w2_groups(s->variant);
	if (groups && w2_angle(s->variant)) {
		spring_chain2d_group_desc g = {&d2, n, NULL};
		spring_chain2d_group *group = NULL;
		r = groups->init2(&g, p->memory, groups->memory_size2(&g), &group, NULL);
		for (int c = 0; c < n && r == SPRING_OK; c++) {
			r = groups->reset2(group, c, w2_root2(p, first + c, 0));
		}
		p->group = group;
	} else if (groups) {
		spring_chain_group *group = NULL;
		r = groups->init3(&d3, n, p->memory, groups->memory_size3(&d3, n), &group, NULL);
		for (int c = 0; c < n && r == SPRING_OK; c++) {
			r = groups->reset3(group, c, w2_root3(p, first + c, 0));
		}
		p->group = group;
	}
	if (r != SPRING_OK) {
		fprintf(stderr, "spring_bench: W2: group init failed\n");
		exit(2);
	}
	for (int c = 0; c < n && p->chains; c++) {
		void *m = (char *)p->memory + (size_t)c * p->stride;
		// Made at the default root, then reset (snapped to rest) under the chain's first root,
		// exactly as a group is set up.
		if (w2_angle(s->variant)) {
			r = api->init2(&d2, m, p->stride, (spring_chain2d **)&p->chains[c], NULL);
			r = r != SPRING_OK ? r : api->reset2(p->chains[c], w2_root2(p, first + c, 0));
		} else {
			r = api->init3(&d3, m, p->stride, (spring_chain **)&p->chains[c], NULL);
			r = r != SPRING_OK ? r : api->reset3(p->chains[c], w2_root3(p, first + c, 0));
		}
		if (r != SPRING_OK) {
			fprintf(stderr, "spring_bench: W2: chain init failed\n");
			exit(2);
		}
	}
}

// A group's frames: the roots of its chains, one update, every pose read back.
static void w2_run_group(scenario *s, w2_part *p, long first, long count)
{
	const w2_data *w = s->data;
	const w2_group_api *groups = w2_groups(s->variant);
	if (first != p->first || count != p->count) {
		fprintf(stderr, "spring_bench: W2: a range that is not a group\n");
		exit(2);
	}
	spring_xform2 *roots2 = p->roots;
	spring_xform3 *roots3 = p->roots;
	float *poses = p->poses;
	for (int f = 1; f <= s->steps; f++) {
		spring_result r = SPRING_ERROR_INVALID_ARGUMENT;
		if (w2_angle(s->variant)) {
			for (long c = 0; c < count; c++) {
				roots2[c] = w2_root2(p, first + c, f);
			}
			for (long c = 0; s->variant == W2_CHAIN2D_GROUP_ANIMATED && c < count; c++) {
				float offsets[w2_bones]; // a bend that moves along the tail, a step of 0.05 rad a frame
				for (int i = 0; i < w2_bones; i++) {
					offsets[i] = 0.05f * (float)((f + (int)c + i) % 9 - 4);
				}
				(void)spring_chain2d_group_set_animation(p->group, (int)c, offsets, w2_bones);
			}
			r = groups->update2(p->group, roots2, BENCH_FRAME);
			r = r != SPRING_OK ? r : groups->get_poses2(p->group, (spring_xform2 *)poses, (int)count * (w2_bones + 1));
		} else {
			for (long c = 0; c < count; c++) {
				roots3[c] = w2_root3(p, first + c, f);
			}
			for (long c = 0; s->variant == W2_CHAIN_GROUP_ANIMATED && c < count; c++) {
				// The angle group's bend: each bone's rest turned about z by 0.05 rad steps.
				spring_xform3 local[w2_bones];
				for (int i = 0; i < w2_bones; i++) {
					local[i] = w->bones[i].rest_local;
					local[i].rotation = spring_quat_mul(local[i].rotation, w2_bend[(f + (int)c + i) % 9]);
				}
				(void)spring_chain_group_set_animation(p->group, (int)c, local, w2_bones);
			}
			r = groups->update3(p->group, roots3, BENCH_FRAME);
			r = r != SPRING_OK ? r : groups->get_poses3(p->group, (spring_xform3 *)poses, NULL, (int)count * w2_bones);
		}
		if (r != SPRING_OK) {
			fprintf(stderr, "spring_bench: W2: group update failed\n");
			exit(2);
		}
	}
}

static void w2_run_range(scenario *s, int part, long first, long count)
{
	w2_data *w = s->data;
	w2_part *p = &w->parts[part];
	if (p->group) {
		w2_run_group(s, p, first, count);
		return;
	}
	// The calls go through a table of pointers in both libraries' rows alike.
	const w2_single_api *api = w2_api(s->variant);
	const int angle = w2_angle(s->variant);
	for (int f = 1; f <= s->steps; f++) {
		for (long c = first; c < first + count; c++) {
			float *pose = p->poses + (size_t)(c - p->first) * (size_t)w->pose_floats;
			spring_result r;
			if (angle) {
				spring_chain2d *chain = p->chains[c - p->first];
				r = api->update2(chain, w2_root2(p, c, f), BENCH_FRAME);
				r = r != SPRING_OK ? r : api->get_pose2(chain, (spring_xform2 *)pose, NULL, w2_bones + 1);
			} else {
				spring_chain *chain = p->chains[c - p->first];
				r = api->update3(chain, w2_root3(p, c, f), BENCH_FRAME);
				r = r != SPRING_OK ? r : api->get_pose3(chain, (spring_xform3 *)pose, NULL, w2_bones);
			}
			if (r != SPRING_OK) {
				fprintf(stderr, "spring_bench: W2: update failed\n");
				exit(2);
			}
		}
	}
}

static size_t w2_result(const scenario *s, float *out, size_t capacity)
{
	const w2_data *w = s->data;
	size_t n = 0;
	for (int k = 0; k < s->threads; k++) {
		size_t m = (size_t)w->parts[k].count * (size_t)w->pose_floats;
		m = m < capacity - n ? m : capacity - n;
		memcpy(out + n, w->parts[k].poses, m * sizeof *out);
		n += m;
	}
	return n;
}

static void w2_release(scenario *s)
{
	w2_data *w = s->data;
	for (int k = 0; w && k < BENCH_MAX_THREADS; k++) {
		free(w->parts[k].memory);
		free(w->parts[k].chains);
		free(w->parts[k].roots);
		free(w->parts[k].waves);
		free(w->parts[k].poses);
	}
	free(w);
	s->data = NULL;
}

// Every row picks its kernels' instruction set (option; AUTO, 0: what the library would choose)
// before it runs; the threads of a two-thread row only read the choice.
static void w2_reset(scenario *s)
{
	if (!spring_internal_isa_force((spring_internal_isa)s->option)) {
		fprintf(stderr, "spring_bench: W2: instruction set %d is not available\n", s->option);
		exit(2);
	}
}

static scenario *w2_row(const char *name, const char *baseline, const char *family, int variant, long count, int frames,
                        int threads)
{
	scenario s = {0};
	s.name = name;
	s.baseline = baseline;
	s.unit = "bone-frame";
	s.family = family;
	s.prepare = w2_prepare;
	s.prepare_part = w2_prepare_part;
	s.reset_part = w2_reset_part;
	s.run_range = w2_run_range;
	s.result = w2_result;
	s.release = w2_release;
	s.variant = variant;
	s.count = bench_tiny ? (count < 19 ? count : 19) : count;
	s.steps = bench_tiny ? 30 : frames;
	s.threads = threads;
	s.work = (double)s.count * s.steps * w2_bones;
	s.reset = w2_reset;
	return bench_add(&s);
}

// Frames for a scaling row: 60,000 chain-frames per run (W2's work), at least 12 frames.
static int w2_scaled_frames(long chains)
{
	long frames = 60000L / chains;
	return frames < 12 ? 12 : (int)frames;
}

void w2_register(void)
{
	const char *angle = "W2 spring_chain2d (per chain)", *tip = "W2 spring_chain (per chain)";
	const char *angle_group = "W2 spring_chain2d_group", *tip_group = "W2 spring_chain_group";
#ifdef SPRING_BENCH_BEFORE
	// The single chains before the speed-ups (their results differ: no family).
	const char *angle_before = "W2 spring_chain2d before the speed-ups (3ec4606)";
	const char *tip_before = "W2 spring_chain before the speed-ups (3ec4606)";
	w2_row(angle_before, NULL, NULL, W2_CHAIN2D_BEFORE, 100, 600, 1);
	w2_row(tip_before, NULL, NULL, W2_CHAIN_BEFORE, 100, 600, 1);
#else
	const char *angle_before = NULL, *tip_before = NULL;
#endif
	w2_row(angle, angle_before, "w2-2d", W2_CHAIN2D, 100, 600, 1);
	w2_row(tip, tip_before, "w2-3d", W2_CHAIN, 100, 600, 1);
	w2_row(angle_group, angle, "w2-2d", W2_CHAIN2D_GROUP, 100, 600, 1);
	w2_row(tip_group, tip, "w2-3d", W2_CHAIN_GROUP, 100, 600, 1);
	w2_row("W2 spring_chain2d, 2 threads", angle, "w2-2d", W2_CHAIN2D, 100, 600, 2);
	w2_row("W2 spring_chain, 2 threads", tip, "w2-3d", W2_CHAIN, 100, 600, 2);
	w2_row("W2 spring_chain2d_group, 2 threads", angle_group, "w2-2d", W2_CHAIN2D_GROUP, 100, 600, 2);
	// Other results (the offsets move the chains): no family; the ratio is the animation's cost.
	w2_row("W2 spring_chain2d_group, animated", angle_group, NULL, W2_CHAIN2D_GROUP_ANIMATED, 100, 600, 1);
	w2_row("W2 spring_chain_group, animated", tip_group, NULL, W2_CHAIN_GROUP_ANIMATED, 100, 600, 1);
	w2_row("W2 spring_chain_group, 2 threads", tip_group, "w2-3d", W2_CHAIN_GROUP, 100, 600, 2);
	// A single angle chain computes its segments' fields a vector of segments at a time, then walks
	// down the chain; a group's kernels take a vector of chains at a time. The scalar row is the
	// most a one-lane group instance could reach (the same arithmetic, one segment at a time).
	w2_row("W2 spring_chain2d_group of one chain (per chain)", angle, "w2-2d", W2_CHAIN2D_GROUPS_OF_ONE, 100, 600, 1);
	scenario *scalar = w2_row("W2 spring_chain2d, scalar kernels only", angle, "w2-2d", W2_CHAIN2D, 100, 600, 1);
	if (scalar) {
		scalar->option = SPRING_INTERNAL_ISA_SCALAR;
	}
#ifdef SPRING_BENCH_BASE
	// The same work on the library before the one-engine work (9944929), beside each row of this
	// one: the one-engine work kept every result, so they are in the same families (bench_tiny
	// checks the bits), and each row's speed is relative to this library's row of the same work.
	static const int base_variants[] = {W2_CHAIN2D_BASE, W2_CHAIN_BASE, W2_CHAIN2D_GROUP_BASE, W2_CHAIN_GROUP_BASE};
	static const char *base_names[] = {
		"W2 spring_chain2d at the one-engine base (9944929)", "W2 spring_chain at the one-engine base (9944929)",
		"W2 spring_chain2d_group at the one-engine base (9944929)", "W2 spring_chain_group at the one-engine base (9944929)"};
	const char *now_names[] = {angle, tip, angle_group, tip_group};
	for (int p = 0; p < 4; p++) {
		w2_row(base_names[p], now_names[p], p % 2 ? "w2-3d" : "w2-2d", base_variants[p], 100, 600, 1);
	}
#endif
	// Scaling: the same work per run from 10 to 10,000 chains (100 is W2 itself).
	static const long sizes[] = {10, 1000, 10000};
	static const char *labels[] = {"10", "1,000", "10,000"};
	static const int variants[] = {W2_CHAIN2D, W2_CHAIN, W2_CHAIN2D_GROUP, W2_CHAIN_GROUP};
	static const char *paths[] = {"spring_chain2d", "spring_chain", "spring_chain2d_group", "spring_chain_group"};
	static char names[3][4][64], families[3][2][20];
	const char *w2_names[] = {angle, tip, angle_group, tip_group};
	for (int k = 0; k < 3; k++) {
		snprintf(families[k][0], sizeof families[k][0], "w2-2d-%ld", sizes[k]);
		snprintf(families[k][1], sizeof families[k][1], "w2-3d-%ld", sizes[k]);
		for (int p = 0; p < 4; p++) {
			snprintf(names[k][p], sizeof names[k][p], "W2 %s chains: %s", labels[k], paths[p]);
			w2_row(names[k][p], w2_names[p], families[k][p % 2], variants[p], sizes[k], w2_scaled_frames(sizes[k]), 1);
		}
	}
#ifdef SPRING_BENCH_BASE
	static char scaled_base[3][4][80];
	for (int k = 0; k < 3; k++) {
		for (int p = 0; p < 4; p++) {
			snprintf(scaled_base[k][p], sizeof scaled_base[k][p], "W2 %s chains: %s at the one-engine base (9944929)", labels[k],
			         paths[p]);
			w2_row(scaled_base[k][p], names[k][p], families[k][p % 2], base_variants[p], sizes[k], w2_scaled_frames(sizes[k]), 1);
		}
	}
#endif
	// Two threads on a thousand chains: W2's hundred split in two pad each half to whole vectors
	// (50 chains step 64 lanes on AVX-512), which a thousand do not.
	static const char *threaded[2] = {"W2 1,000 chains: spring_chain2d_group, 2 threads",
	                                  "W2 1,000 chains: spring_chain_group, 2 threads"};
	for (int p = 2; p < 4; p++) {
		w2_row(threaded[p - 2], names[1][p], families[1][p % 2], variants[p], sizes[1], w2_scaled_frames(sizes[1]), 2);
	}
}
