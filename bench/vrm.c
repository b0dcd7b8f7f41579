// SPDX-License-Identifier: MIT
// The VRM scenarios: a model read through the tools' VRM reader, a thousand times, each avatar
// driven by a motion for 60 frames at 60 fps (the avatars a little apart: avatar a's root 0.01 (a %
// 100) m further along x), its springs on spring_skeleton at 60 Hz, the pose read back every
// frame. The motion is sampled once, untimed; the timed work is, per frame and avatar,
// spring_skeleton_update (the sampled local transforms of every node and the root) and
// spring_skeleton_get_pose (the bones' local rotations). Rate: joint-frames per second (bones with
// a tail x frames). The crowd rows step the thousand avatars as one spring_skeleton_crowd
// instead: per frame the host writes every avatar's root and local transforms into the crowd's
// input arrays (timed: it is the pose an engine's animation hands over), then one
// spring_skeleton_crowd_update and each avatar's spring_skeleton_crowd_get_pose; their outputs
// must equal the per-avatar rows' bit for bit (--tiny). The models (bench/peers/peers.mjs drives
// the same ones in three-vrm):
// - Godette (tests/vrm/models, VRM 0.x: 16 spring bones in 8 springs, 4 sphere colliders, 71
//   nodes) shaking her head (tests/vrm/motions/godette-shake.json);
// - the synthetic avatar (bench/models/synthetic-64.gltf, VRM 1.0: 64 joints in 8 springs, 2
//   sphere and 5 capsule colliders, 81 nodes) swaying, shaking its head and swinging its legs
//   (bench/models/synthetic-64-shake.json).
#include "bench.h"
#include <spring/skeleton.h>
#include <spring/vrm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vrm_data {
	spring_vrm_file *model;
	spring_vrm_motion *motion;
	spring_skeleton **avatars;    // count (the per-avatar rows)
	spring_skeleton_crowd *crowd; // the crowd rows
	spring_xform3 *crowd_roots;   // count: the crowd's input
	spring_xform3 *crowd_locals;  // count x nodes
	spring_xform3 *locals;        // frames x nodes: the motion sampled once (untimed)
	spring_xform3 *roots;         // frames
	spring_quat *rotations;       // count x bones: the last frame's pose
	int nodes, bones;
} vrm_data;

typedef struct vrm_case {
	const char *model, *motion; // paths from the source tree's root
} vrm_case;

enum { vrm_godette, vrm_synthetic, vrm_crowd = 0x100 }; // a model, | vrm_crowd for a crowd row
static const vrm_case g_cases[] = {
	[vrm_godette] = {"tests/vrm/models/Godette_vrm_v4.vrm", "tests/vrm/motions/godette-shake.json"},
	[vrm_synthetic] = {"bench/models/synthetic-64.gltf", "bench/models/synthetic-64-shake.json"},
};

static const char *g_source_dir;

static int vrm_prepare(scenario *s)
{
	vrm_data *w = calloc(1, sizeof *w);
	if (!w) {
		return 1;
	}
	s->data = w;
	char path[1024];
	spring_file_error err;
	const vrm_case *c = &g_cases[s->variant & ~vrm_crowd];
	snprintf(path, sizeof path, "%s/%s", g_source_dir, c->model);
	if (spring_vrm_load_file(path, &w->model, &err) != SPRING_OK) {
		fprintf(stderr, "spring_bench: %s\n", err.message);
		return 1;
	}
	snprintf(path, sizeof path, "%s/%s", g_source_dir, c->motion);
	if (spring_vrm_motion_load_file(path, w->model, &w->motion, &err) != SPRING_OK) {
		fprintf(stderr, "spring_bench: %s\n", err.message);
		return 1;
	}
	const spring_skeleton_desc *d = spring_vrm_file_desc(w->model);
	w->nodes = d->node_count;
	w->avatars = calloc((size_t)s->count, sizeof *w->avatars);
	w->locals = calloc((size_t)(s->steps + 1) * (size_t)w->nodes, sizeof *w->locals);
	w->roots = calloc((size_t)(s->steps + 1), sizeof *w->roots);
	if (!w->avatars || !w->locals || !w->roots) {
		return 1;
	}
	for (int f = 0; f <= s->steps; f++) {
		spring_vrm_motion_sample(w->motion, (double)f / 60.0, &w->roots[f], w->locals + (size_t)f * (size_t)w->nodes, w->nodes);
	}
	if (s->variant & vrm_crowd) {
		spring_skeleton_crowd_desc cd = {d, (int)s->count};
		w->crowd_roots = calloc((size_t)s->count, sizeof *w->crowd_roots);
		w->crowd_locals = calloc((size_t)s->count * (size_t)w->nodes, sizeof *w->crowd_locals);
		if (!w->crowd_roots || !w->crowd_locals || spring_skeleton_crowd_create(&cd, &w->crowd, NULL) != SPRING_OK) {
			return 1;
		}
		w->bones = spring_skeleton_crowd_bone_count(w->crowd);
	} else {
		for (long a = 0; a < s->count; a++) {
			if (spring_skeleton_create(d, &w->avatars[a], NULL) != SPRING_OK) {
				return 1;
			}
		}
		w->bones = spring_skeleton_bone_count(w->avatars[0]);
	}
	w->rotations = calloc((size_t)s->count * (size_t)w->bones, sizeof *w->rotations);
	if (!w->rotations) {
		return 1;
	}
	s->work = (double)s->count * s->steps * w->bones;
	return 0;
}

// Avatar a's root at frame f: a little further along the root's path than avatar 0's, so that
// the avatars differ.
static spring_xform3 avatar_root(const vrm_data *w, int f, long a)
{
	spring_xform3 root = w->roots[f];
	root.position.x += 0.01f * (float)(a % 100);
	return root;
}

// The host's pose of every avatar at frame f into the crowd's input.
static void crowd_input(vrm_data *w, int f, long count)
{
	const spring_xform3 *locals = w->locals + (size_t)f * (size_t)w->nodes;
	for (long a = 0; a < count; a++) {
		w->crowd_roots[a] = avatar_root(w, f, a);
		memcpy(w->crowd_locals + (size_t)a * (size_t)w->nodes, locals, (size_t)w->nodes * sizeof *locals);
	}
}

static void vrm_reset(scenario *s)
{
	vrm_data *w = s->data;
	if (w->crowd) {
		crowd_input(w, 0, s->count);
		if (spring_skeleton_crowd_reset(w->crowd, w->crowd_roots, w->crowd_locals, w->nodes) != SPRING_OK) {
			fprintf(stderr, "spring_bench: crowd reset failed\n");
			exit(2);
		}
		return;
	}
	for (long a = 0; a < s->count; a++) {
		if (spring_skeleton_reset(w->avatars[a], avatar_root(w, 0, a), w->locals, w->nodes) != SPRING_OK) {
			fprintf(stderr, "spring_bench: skeleton reset failed\n");
			exit(2);
		}
	}
}

static void vrm_run_range(scenario *s, int part, long first, long count)
{
	(void)part;
	vrm_data *w = s->data;
	if (w->crowd) { // one part: the whole crowd
		for (int f = 1; f <= s->steps; f++) {
			crowd_input(w, f, count);
			spring_result r = spring_skeleton_crowd_update(w->crowd, w->crowd_roots, w->crowd_locals, w->nodes, BENCH_FRAME);
			for (long a = 0; a < count && r == SPRING_OK; a++) {
				r = spring_skeleton_crowd_get_pose(w->crowd, (int)a, NULL, w->rotations + (size_t)a * (size_t)w->bones, NULL,
				                                   w->bones);
			}
			if (r != SPRING_OK) {
				fprintf(stderr, "spring_bench: crowd update failed\n");
				exit(2);
			}
		}
		return;
	}
	for (int f = 1; f <= s->steps; f++) {
		const spring_xform3 *locals = w->locals + (size_t)f * (size_t)w->nodes;
		for (long a = first; a < first + count; a++) {
			spring_result r = spring_skeleton_update(w->avatars[a], avatar_root(w, f, a), locals, w->nodes, BENCH_FRAME);
			r = r != SPRING_OK
			        ? r
			        : spring_skeleton_get_pose(w->avatars[a], NULL, w->rotations + (size_t)a * (size_t)w->bones, NULL, w->bones);
			if (r != SPRING_OK) {
				fprintf(stderr, "spring_bench: skeleton update failed\n");
				exit(2);
			}
		}
	}
}

static size_t vrm_result(const scenario *s, float *out, size_t capacity)
{
	const vrm_data *w = s->data;
	size_t n = 0;
	for (long i = 0; i < s->count * w->bones && n + 4 <= capacity; i++) {
		out[n++] = w->rotations[i].x;
		out[n++] = w->rotations[i].y;
		out[n++] = w->rotations[i].z;
		out[n++] = w->rotations[i].w;
	}
	return n;
}

static void vrm_release(scenario *s)
{
	vrm_data *w = s->data;
	if (w) {
		for (long a = 0; w->avatars && a < s->count; a++) {
			spring_skeleton_destroy(w->avatars[a]);
		}
		free(w->avatars);
		spring_skeleton_crowd_destroy(w->crowd);
		free(w->crowd_roots);
		free(w->crowd_locals);
		free(w->locals);
		free(w->roots);
		free(w->rotations);
		spring_vrm_motion_destroy(w->motion);
		spring_vrm_file_destroy(w->model);
		free(w);
	}
	s->data = NULL;
}

static void vrm_row(const char *name, const char *baseline, int which, const char *family, long count, int threads)
{
	scenario s = {0};
	s.name = name;
	s.baseline = baseline;
	s.unit = "joint-frame";
	s.family = family;
	s.variant = which;
	s.prepare = vrm_prepare;
	s.reset = vrm_reset;
	s.run_range = vrm_run_range;
	s.result = vrm_result;
	s.release = vrm_release;
	s.count = bench_tiny ? 3 : count;
	s.steps = 60;
	s.threads = threads;
	bench_add(&s);
}

void vrm_register(const char *source_dir)
{
	if (!source_dir) {
		return;
	}
	g_source_dir = source_dir;
	// Compared per joint-frame with W2's tip chains' per-bone rate (a VRM joint is one bone); the
	// synthetic avatar with Godette.
	vrm_row("vrm: Godette x 1,000 (spring_skeleton)", "W2 spring_chain (per chain)", vrm_godette, "vrm", 1000, 1);
	vrm_row("vrm: Godette x 1,000, 2 threads", "vrm: Godette x 1,000 (spring_skeleton)", vrm_godette, "vrm", 1000, 2);
	vrm_row("vrm: Godette x 1,000 (spring_skeleton_crowd)", "vrm: Godette x 1,000 (spring_skeleton)", vrm_godette | vrm_crowd,
	        "vrm", 1000, 1);
	vrm_row("vrm: synthetic 64-joint x 1,000", "vrm: Godette x 1,000 (spring_skeleton)", vrm_synthetic, "vrm synthetic", 1000, 1);
	vrm_row("vrm: synthetic 64-joint x 1,000 (spring_skeleton_crowd)", "vrm: synthetic 64-joint x 1,000",
	        vrm_synthetic | vrm_crowd, "vrm synthetic", 1000, 1);
}
