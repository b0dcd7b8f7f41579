// SPDX-License-Identifier: MIT
// The rig scenario: the sample character (examples/rigs/character.json: 34 bones, clips, IK,
// two angle chains and two tip chains), loaded through the tools' rig reader, a thousand times,
// each playing "walk" with its root on W2's path, 30 frames at 60 fps (half a second: a thousand
// characters are heavy), the world pose read back every frame. Rate: bone-frames per second
// (bones of the rig x frames).
#include "bench.h"
#include <spring/io.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rig_data {
	spring_rig **rigs; // count
	void *snapshot;    // the state after loading and starting the clip
	size_t snapshot_size;
	spring_xform2 *world; // count x bones: the world pose read back at the last frame
	int bones;
} rig_data;

static const char *g_rig_file;

static int rig_prepare(scenario *s)
{
	rig_data *w = calloc(1, sizeof *w);
	if (!w) {
		return 1;
	}
	s->data = w;
	w->rigs = calloc((size_t)s->count, sizeof *w->rigs);
	if (!w->rigs) {
		return 1;
	}
	for (long r = 0; r < s->count; r++) {
		spring_file_error err;
		if (spring_rig_load_file(g_rig_file, &w->rigs[r], &err) != SPRING_OK) {
			fprintf(stderr, "spring_bench: %s\n", err.message);
			return 1;
		}
	}
	spring_rig *first = w->rigs[0];
	int walk = spring_rig_find_clip(first, "walk");
	if (walk < 0 || spring_rig_play(first, walk, 0.0f) != SPRING_OK) {
		fprintf(stderr, "spring_bench: the rig has no clip \"walk\"\n");
		return 1;
	}
	w->bones = spring_rig_bone_count(first);
	w->snapshot_size = spring_rig_snapshot_size(first);
	w->snapshot = malloc(w->snapshot_size);
	w->world = calloc((size_t)s->count * (size_t)w->bones, sizeof *w->world);
	if (!w->snapshot || !w->world || spring_rig_snapshot(first, w->snapshot, w->snapshot_size) != SPRING_OK) {
		return 1;
	}
	s->work = (double)s->count * s->steps * w->bones;
	return 0;
}

static void rig_reset(scenario *s)
{
	rig_data *w = s->data;
	for (long r = 0; r < s->count; r++) {
		if (spring_rig_restore(w->rigs[r], w->snapshot, w->snapshot_size, NULL) != SPRING_OK) {
			fprintf(stderr, "spring_bench: rig restore failed\n");
			exit(2);
		}
	}
}

static void rig_run_range(scenario *s, int part, long first, long count)
{
	(void)part;
	rig_data *w = s->data;
	for (int f = 1; f <= s->steps; f++) {
		for (long r = first; r < first + count; r++) {
			spring_rig *rig = w->rigs[r];
			double t = (double)f / 60.0 + 0.037 * (double)r;
			spring_xform2 root = {{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}};
			// W2's root path, at the character's scale (its tail bones are about 20 units too).
			root.position.x = (float)(40.0 * spring_det_sin(3.14159265358979 * t));
			root.position.y = (float)(20.0 * spring_det_sin(6.28318530717959 * t));
			spring_result res = spring_rig_set_root(rig, root);
			res = res != SPRING_OK ? res : spring_rig_update(rig, BENCH_FRAME);
			res = res != SPRING_OK ? res : spring_rig_get_world(rig, w->world + (size_t)r * (size_t)w->bones, w->bones);
			if (res != SPRING_OK) {
				fprintf(stderr, "spring_bench: rig update failed\n");
				exit(2);
			}
		}
	}
}

static size_t rig_result(const scenario *s, float *out, size_t capacity)
{
	const rig_data *w = s->data;
	size_t n = 0;
	for (long i = 0; i < s->count * w->bones && n + 3 <= capacity; i++) {
		out[n++] = w->world[i].position.x;
		out[n++] = w->world[i].position.y;
		out[n++] = w->world[i].angle;
	}
	return n;
}

static void rig_release(scenario *s)
{
	rig_data *w = s->data;
	if (w) {
		for (long r = 0; w->rigs && r < s->count; r++) {
			spring_rig_destroy(w->rigs[r]);
		}
		free(w->rigs);
		free(w->snapshot);
		free(w->world);
		free(w);
	}
	s->data = NULL;
}

static void rig_row(const char *name, const char *baseline, long count, int threads)
{
	scenario s = {0};
	s.name = name;
	s.baseline = baseline;
	s.unit = "bone-frame";
	s.family = "rig";
	s.prepare = rig_prepare;
	s.reset = rig_reset;
	s.run_range = rig_run_range;
	s.result = rig_result;
	s.release = rig_release;
	s.count = bench_tiny ? 3 : count;
	s.steps = 30;
	s.threads = threads;
	bench_add(&s);
}

void rig_register(const char *rig_file)
{
	if (!rig_file) {
		return;
	}
	g_rig_file = rig_file;
	// Compared per bone-frame with W2's tip chains: a rig bone is either animated (clip, IK) or
	// one bone of one of its four spring chains.
	rig_row("rig: sample character x 1,000", "W2 spring_chain (per chain)", 1000, 1);
	rig_row("rig: sample character x 1,000, 2 threads", "rig: sample character x 1,000", 1000, 2);
}
