// SPDX-License-Identifier: MIT
// W2: many chains on moving roots. 100 chains of 8 bones (the standard 20-unit tail of
// tests/shared/scenes), 600 frames at 60 fps, physics step 1/120 s. Chain c's root at time
// t = frame / 60 + 0.037 c: x = 2 L sin(2 pi 0.5 t), y = L sin(2 pi 1 t) (L = 20, one bone
// length), turned (30 degrees) sin(2 pi 0.7 t); the roots are computed every frame (float sines)
// and every chain's pose is read back every frame. Rate: chains x bones x frames per second
// (bone-frames). Also from 10 to 10,000 chains (the same work per chain where it fits).
#include "bench.h"
#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum w2_variant {
	W2_CHAIN2D,       // spring_chain2d, one object per chain
	W2_CHAIN,         // spring_chain (3D tip springs), one object per chain
	W2_CHAIN2D_GROUP, // spring_chain2d_group: one group per thread
	W2_CHAIN_GROUP,   // spring_chain_group: one group per thread
};

enum { w2_bones = SCENE_TAIL_BONES };

typedef struct w2_data {
	void *memory;  // every chain, in caller memory (re-initialised by reset)
	size_t stride; // bytes per chain in `memory`
	void **chains; // count
	float *poses;  // count x pose_floats: the pose read back at the last frame
	int pose_floats;
	spring_chain2d_segment segments[w2_bones];
	spring_chain_bone_desc bones[w2_bones];
	// Groups: one per thread, part k holding chains [part_first[k], part_first[k] + part_count[k]).
	int parts;
	long part_first[2], part_count[2];
	size_t part_offset[2];
	void *groups[2];
	void *roots; // count roots (spring_xform2 or spring_xform3), computed every frame
} w2_data;

static double w2_time(long chain, int frame)
{
	return (double)frame / 60.0 + 0.037 * (double)chain;
}

// The fractional part of cycles >= 0, as a float.
static float w2_phase(double cycles)
{
	return (float)(cycles - (double)(long long)cycles);
}

// The root's position and angle at time t >= 0 (float sines of arguments reduced to one period).
static void w2_root(double t, float *x, float *y, float *angle)
{
	const float two_pi = 6.28318530717958647692f;
	float l = SCENE_TAIL_BONE_LENGTH;
	*x = 2.0f * l * sinf(two_pi * w2_phase(0.5 * t));
	*y = l * sinf(two_pi * w2_phase(t));
	*angle = 0.52359877559829887f * sinf(two_pi * w2_phase(0.7 * t));
}

static spring_xform2 w2_root2(long chain, int frame)
{
	spring_xform2 r = {{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}};
	w2_root(w2_time(chain, frame), &r.position.x, &r.position.y, &r.angle);
	return r;
}

static spring_xform3 w2_root3(long chain, int frame)
{
	float x, y, a;
	w2_root(w2_time(chain, frame), &x, &y, &a);
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
}

static int w2_prepare(scenario *s)
{
	w2_data *w = calloc(1, sizeof *w);
	if (!w) {
		return 1;
	}
	s->data = w;
	spring_chain2d_desc d2;
	spring_chain_desc d3;
	w2_descs(s, w, &d2, &d3);
	int angle = s->variant == W2_CHAIN2D || s->variant == W2_CHAIN2D_GROUP;
	w->pose_floats = angle ? (w2_bones + 1) * 5 : w2_bones * 7;
	size_t total = 0, size = 0;
	if (s->variant == W2_CHAIN2D || s->variant == W2_CHAIN) {
		size = angle ? spring_chain2d_memory_size(&d2) : spring_chain_memory_size(&d3);
		w->stride = (size + 63) / 64 * 64;
		total = w->stride * (size_t)s->count;
	} else {
		w->parts = s->threads;
		for (int k = 0; k < w->parts; k++) {
			w->part_first[k] = k == 0 ? 0 : s->count / 2;
			w->part_count[k] = w->parts == 1 ? s->count : k == 0 ? s->count / 2 : s->count - s->count / 2;
			spring_chain2d_group_desc g = {&d2, (int)w->part_count[k], NULL};
			size = angle ? spring_chain2d_group_memory_size(&g) : spring_chain_group_memory_size(&d3, (int)w->part_count[k]);
			w->part_offset[k] = total;
			total += (size + 63) / 64 * 64;
		}
		w->roots = malloc((size_t)s->count * (angle ? sizeof(spring_xform2) : sizeof(spring_xform3)));
		if (!w->roots) {
			return 1;
		}
	}
	w->memory = aligned_alloc(64, total);
	w->chains = calloc((size_t)s->count, sizeof *w->chains);
	w->poses = calloc((size_t)s->count * (size_t)w->pose_floats, sizeof *w->poses);
	return size == 0 || !w->memory || !w->chains || !w->poses;
}

static void w2_reset(scenario *s)
{
	w2_data *w = s->data;
	spring_chain2d_desc d2;
	spring_chain_desc d3;
	w2_descs(s, w, &d2, &d3);
	for (int k = 0; k < w->parts; k++) {
		// A group starts with every chain at rest under the description's root; each is then
		// reset under its own first root.
		void *m = (char *)w->memory + w->part_offset[k];
		int n = (int)w->part_count[k];
		spring_result r;
		if (s->variant == W2_CHAIN2D_GROUP) {
			spring_chain2d_group_desc g = {&d2, n, NULL};
			spring_chain2d_group *group = NULL;
			r = spring_chain2d_group_init(&g, m, spring_chain2d_group_memory_size(&g), &group, NULL);
			for (int c = 0; c < n && r == SPRING_OK; c++) {
				r = spring_chain2d_group_reset(group, c, w2_root2(w->part_first[k] + c, 0));
			}
			w->groups[k] = group;
		} else {
			spring_chain_group *group = NULL;
			r = spring_chain_group_init(&d3, n, m, spring_chain_group_memory_size(&d3, n), &group, NULL);
			for (int c = 0; c < n && r == SPRING_OK; c++) {
				r = spring_chain_group_reset(group, c, w2_root3(w->part_first[k] + c, 0));
			}
			w->groups[k] = group;
		}
		if (r != SPRING_OK) {
			fprintf(stderr, "spring_bench: W2: group init failed\n");
			exit(2);
		}
	}
	for (long c = 0; c < s->count && !w->parts; c++) {
		void *m = (char *)w->memory + (size_t)c * w->stride;
		spring_result r;
		// Made at the default root, then reset (snapped to rest) under the chain's first root,
		// exactly as a group is set up.
		if (s->variant == W2_CHAIN2D) {
			r = spring_chain2d_init(&d2, m, w->stride, (spring_chain2d **)&w->chains[c], NULL);
			r = r != SPRING_OK ? r : spring_chain2d_reset(w->chains[c], w2_root2(c, 0));
		} else {
			r = spring_chain_init(&d3, m, w->stride, (spring_chain **)&w->chains[c], NULL);
			r = r != SPRING_OK ? r : spring_chain_reset(w->chains[c], w2_root3(c, 0));
		}
		if (r != SPRING_OK) {
			fprintf(stderr, "spring_bench: W2: chain init failed\n");
			exit(2);
		}
	}
}

// A group's frames: the roots of its chains, one update, every pose read back.
static void w2_run_group(scenario *s, long first, long count)
{
	w2_data *w = s->data;
	int k = w->parts == 2 && first != 0;
	if (first != w->part_first[k] || count != w->part_count[k]) {
		fprintf(stderr, "spring_bench: W2: a range that is not a group\n");
		exit(2);
	}
	spring_xform2 *roots2 = (spring_xform2 *)w->roots + first;
	spring_xform3 *roots3 = (spring_xform3 *)w->roots + first;
	float *poses = w->poses + (size_t)first * (size_t)w->pose_floats;
	for (int f = 1; f <= s->steps; f++) {
		spring_result r = SPRING_ERROR_INVALID_ARGUMENT;
		if (s->variant == W2_CHAIN2D_GROUP) {
			for (long c = 0; c < count; c++) {
				roots2[c] = w2_root2(first + c, f);
			}
			r = spring_chain2d_group_update(w->groups[k], roots2, BENCH_FRAME);
			r = r != SPRING_OK
			        ? r
			        : spring_chain2d_group_get_poses(w->groups[k], (spring_xform2 *)poses, (int)count * (w2_bones + 1));
		} else {
			for (long c = 0; c < count; c++) {
				roots3[c] = w2_root3(first + c, f);
			}
			r = spring_chain_group_update(w->groups[k], roots3, BENCH_FRAME);
			r = r != SPRING_OK ? r
			                   : spring_chain_group_get_poses(w->groups[k], (spring_xform3 *)poses, NULL, (int)count * w2_bones);
		}
		if (r != SPRING_OK) {
			fprintf(stderr, "spring_bench: W2: group update failed\n");
			exit(2);
		}
	}
}

static void w2_run_range(scenario *s, long first, long count)
{
	w2_data *w = s->data;
	if (w->parts) {
		w2_run_group(s, first, count);
		return;
	}
	for (int f = 1; f <= s->steps; f++) {
		for (long c = first; c < first + count; c++) {
			float *pose = w->poses + (size_t)c * (size_t)w->pose_floats;
			spring_result r;
			if (s->variant == W2_CHAIN2D) {
				spring_chain2d *chain = w->chains[c];
				r = spring_chain2d_update(chain, w2_root2(c, f), BENCH_FRAME);
				r = r != SPRING_OK ? r : spring_chain2d_get_pose(chain, (spring_xform2 *)pose, NULL, w2_bones + 1);
			} else {
				spring_chain *chain = w->chains[c];
				r = spring_chain_update(chain, w2_root3(c, f), BENCH_FRAME);
				r = r != SPRING_OK ? r : spring_chain_get_pose(chain, (spring_xform3 *)pose, NULL, w2_bones);
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
	size_t n = (size_t)s->count * (size_t)w->pose_floats;
	n = n < capacity ? n : capacity;
	memcpy(out, w->poses, n * sizeof *out);
	return n;
}

static void w2_release(scenario *s)
{
	w2_data *w = s->data;
	if (w) {
		free(w->memory);
		free(w->chains);
		free(w->poses);
		free(w->roots);
		free(w);
	}
	s->data = NULL;
}

static void w2_row(const char *name, const char *baseline, const char *family, int variant, long count, int frames, int threads)
{
	scenario s = {0};
	s.name = name;
	s.baseline = baseline;
	s.unit = "bone-frame";
	s.family = family;
	s.prepare = w2_prepare;
	s.reset = w2_reset;
	s.run_range = w2_run_range;
	s.result = w2_result;
	s.release = w2_release;
	s.variant = variant;
	s.count = bench_tiny ? (count < 19 ? count : 19) : count;
	s.steps = bench_tiny ? 30 : frames;
	s.threads = threads;
	s.work = (double)s.count * s.steps * w2_bones;
	bench_add(&s);
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
	w2_row(angle, NULL, "w2-2d", W2_CHAIN2D, 100, 600, 1);
	w2_row(tip, NULL, "w2-3d", W2_CHAIN, 100, 600, 1);
	w2_row(angle_group, angle, "w2-2d", W2_CHAIN2D_GROUP, 100, 600, 1);
	w2_row(tip_group, tip, "w2-3d", W2_CHAIN_GROUP, 100, 600, 1);
	w2_row("W2 spring_chain2d, 2 threads", angle, "w2-2d", W2_CHAIN2D, 100, 600, 2);
	w2_row("W2 spring_chain, 2 threads", tip, "w2-3d", W2_CHAIN, 100, 600, 2);
	w2_row("W2 spring_chain2d_group, 2 threads", angle_group, "w2-2d", W2_CHAIN2D_GROUP, 100, 600, 2);
	w2_row("W2 spring_chain_group, 2 threads", tip_group, "w2-3d", W2_CHAIN_GROUP, 100, 600, 2);
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
}
