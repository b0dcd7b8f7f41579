// SPDX-License-Identifier: MIT
// libspring benchmarks. Every scenario is timed `reps` times, interleaved with its baseline in
// the same process, and reported as medians and as a ratio to the baseline, because the
// machine is small and noisy: absolute times mean little, side-by-side ratios do.
//
//   spring_bench [reps] [csv-file]
#include <spring/chain.h>
#include <spring/spring.h>

#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile float g_sink;

// ---------------------------------------------------------------------------------------------
// Core: 4096 springs advanced 256 steps of 1/120 s.

enum { core_springs = 4096, core_steps = 256 };
static spring_state g_states[core_springs];
static float g_targets[core_springs];
static spring_params g_params;

static void core_reset(void)
{
	spring_params_from_frequency(2.0f, 0.3f, &g_params);
	for (int i = 0; i < core_springs; i++) {
		g_states[i].x = (float)(i % 97) * 0.1f;
		g_states[i].v = 0.0f;
		g_targets[i] = (float)(i % 13);
	}
}

static void core_semi_implicit(void)
{
	for (int s = 0; s < core_steps; s++) {
		for (int i = 0; i < core_springs; i++) {
			spring_step_semi_implicit(g_params, &g_states[i], g_targets[i], 1.0f / 120.0f);
		}
	}
	g_sink = g_states[7].x;
}

static void core_exact(void)
{
	for (int s = 0; s < core_steps; s++) {
		for (int i = 0; i < core_springs; i++) {
			spring_step_exact(g_params, &g_states[i], g_targets[i], 1.0f / 120.0f);
		}
	}
	g_sink = g_states[7].x;
}

static void core_stepper(void)
{
	spring_stepper st;
	spring_stepper_init(&st, g_params, 1.0f / 120.0f);
	for (int s = 0; s < core_steps; s++) {
		for (int i = 0; i < core_springs; i++) {
			spring_stepper_step(&st, &g_states[i], g_targets[i]);
		}
	}
	g_sink = g_states[7].x;
}

// ---------------------------------------------------------------------------------------------
// Chains: a thousand characters, each with an 8-bone tail, one second at 60 fps.

enum { characters = 1000, bones = SCENE_TAIL_BONES, frames = 60 };
static spring_chain *g_chains[characters];
static spring_xform3 g_roots[characters];
static spring_chain_bone_desc g_bones[bones];

typedef struct legacy_chain {
	spring_vec3 tip[bones], vel[bones];
} legacy_chain;
static legacy_chain g_legacy[characters];

static spring_xform3 root_for(int character, int frame)
{
	float t = (float)frame / 60.0f + (float)character * 0.01f;
	spring_xform3 r = {{(float)character * 50.0f + 30.0f * (t - (float)(int)t), 0.0f, 0.0f},
	                   spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), 0.3f * (t - (float)(int)t))};
	return r;
}

static void chains_setup(void)
{
	spring_chain_desc d = scene_tail_desc(g_bones, bones);
	d.gravity = spring_vec3_make(0.0f, -300.0f, 0.0f);
	for (int c = 0; c < characters; c++) {
		d.root = root_for(c, 0);
		if (spring_chain_create(&d, &g_chains[c], NULL) != SPRING_OK) {
			fprintf(stderr, "chain create failed\n");
			exit(1);
		}
	}
}

static void chains_tip(void)
{
	for (int f = 1; f <= frames; f++) {
		for (int c = 0; c < characters; c++) {
			g_roots[c] = root_for(c, f);
		}
		spring_chain_update_many(g_chains, g_roots, characters, 1.0f / 60.0f);
	}
	spring_state_vec3 s;
	spring_chain_get_state(g_chains[3], bones - 1, &s);
	g_sink = s.x.x;
}

static spring_chain2d *g_angle[characters];

static void angle_setup(void)
{
	spring_chain2d_segment seg[bones];
	scene_tail_segments(seg, bones);
	spring_chain2d_desc d = {0};
	d.segment_count = bones;
	d.segments = seg;
	d.gravity = spring_vec2_make(0.0f, -300.0f);
	for (int c = 0; c < characters; c++) {
		if (spring_chain2d_create(&d, &g_angle[c], NULL) != SPRING_OK) {
			fprintf(stderr, "chain2d create failed\n");
			exit(1);
		}
	}
}

static void chains_angle(void)
{
	for (int f = 1; f <= frames; f++) {
		for (int c = 0; c < characters; c++) {
			spring_xform3 r = root_for(c, f);
			float angle = 2.0f * (float)atan2((double)r.rotation.z, (double)r.rotation.w);
			spring_xform2 root = {{r.position.x, r.position.y}, angle, {1.0f, 1.0f}};
			spring_chain2d_update(g_angle[c], root, 1.0f / 60.0f);
		}
	}
	spring_state s;
	spring_chain2d_get_state(g_angle[3], bones - 1, &s);
	g_sink = s.x;
}

// The seed's per-frame loop (one step per frame, per-frame constants, no clock, no velocity
// fix, no colliders): the cheapest thing a tail can be, as the baseline.
static void chains_legacy(void)
{
	for (int f = 1; f <= frames; f++) {
		for (int c = 0; c < characters; c++) {
			spring_xform3 parent = root_for(c, f);
			legacy_chain *l = &g_legacy[c];
			for (int i = 0; i < bones; i++) {
				spring_xform3 rigid = spring_xform3_mul(parent, g_bones[i].rest_local);
				spring_vec3 rigid_tip = spring_xform3_apply(rigid, g_bones[i].tip);
				l->vel[i] = spring_vec3_scale(
					spring_vec3_add(l->vel[i], spring_vec3_scale(spring_vec3_sub(rigid_tip, l->tip[i]), 0.1f)), 0.7f);
				l->tip[i] = spring_vec3_add(l->tip[i], l->vel[i]);
				spring_vec3 pivot = rigid.position;
				l->tip[i] = spring_vec3_add(pivot,
				                            spring_vec3_scale(spring_vec3_normalize(spring_vec3_sub(l->tip[i], pivot)), 20.0f));
				spring_quat q = spring_quat_from_to(spring_vec3_sub(rigid_tip, pivot), spring_vec3_sub(l->tip[i], pivot));
				spring_xform3 bone = {pivot, spring_quat_normalize(spring_quat_mul(q, rigid.rotation))};
				parent = bone;
			}
		}
	}
	g_sink = g_legacy[3].tip[bones - 1].x;
}

// ---------------------------------------------------------------------------------------------

typedef struct scenario {
	const char *name;
	const char *baseline; // name of the scenario it is compared with (NULL for a baseline)
	void (*reset)(void);
	void (*run)(void);
	double work; // units of work per run, for the per-unit column
	const char *unit;
	double times[64];
} scenario;

static void nothing(void)
{
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double tmp[64];
	memcpy(tmp, v, (size_t)n * sizeof *v);
	qsort(tmp, (size_t)n, sizeof *tmp, compare_doubles);
	return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 9;
	if (reps < 1 || reps > 64) {
		fprintf(stderr, "spring_bench: reps must be 1..64\n");
		return 2;
	}
	const char *csv = argc > 2 ? argv[2] : NULL;
	chains_setup();
	angle_setup();
	scenario table[] = {
		// clang-format off
	    {"core semi-implicit", NULL, core_reset, core_semi_implicit, (double)core_springs * core_steps, "spring-step", {0}},
	    {"core exact", "core semi-implicit", core_reset, core_exact, (double)core_springs * core_steps, "spring-step", {0}},
	    {"core stepper", "core semi-implicit", core_reset, core_stepper, (double)core_springs * core_steps, "spring-step", {0}},
	    {"legacy per-frame tails", NULL, nothing, chains_legacy, (double)characters * frames, "tail-frame", {0}},
	    {"tip chains (1/120 s clock)", "legacy per-frame tails", nothing, chains_tip, (double)characters * frames, "tail-frame", {0}},
	    {"angle chains (1/120 s clock)", "legacy per-frame tails", nothing, chains_angle, (double)characters * frames, "tail-frame", {0}},
		// clang-format on
	};
	int n = (int)(sizeof table / sizeof table[0]);
	// Interleave: every repetition runs every scenario once, so drift hits them all alike.
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < n; i++) {
			table[i].reset();
			double t0 = now_seconds();
			table[i].run();
			table[i].times[r] = now_seconds() - t0;
		}
	}
	printf("%-28s %12s %14s %10s  %s\n", "scenario", "median ms", "ns per unit", "ratio", "baseline");
	FILE *out = csv ? fopen(csv, "w") : NULL;
	if (out) {
		fprintf(out, "scenario,median_ms,ns_per_unit,unit,ratio,baseline\n");
	}
	for (int i = 0; i < n; i++) {
		double m = median(table[i].times, reps);
		double ratio = 1.0;
		if (table[i].baseline) {
			for (int j = 0; j < n; j++) {
				if (strcmp(table[j].name, table[i].baseline) == 0) {
					ratio = m / median(table[j].times, reps);
				}
			}
		}
		printf("%-28s %12.3f %11.1f ns %9.2fx  %s (per %s)\n", table[i].name, 1e3 * m, 1e9 * m / table[i].work, ratio,
		       table[i].baseline ? table[i].baseline : "-", table[i].unit);
		if (out) {
			fprintf(out, "%s,%.4f,%.2f,%s,%.3f,%s\n", table[i].name, 1e3 * m, 1e9 * m / table[i].work, table[i].unit, ratio,
			        table[i].baseline ? table[i].baseline : "");
		}
	}
	if (out) {
		fclose(out);
	}
	for (int c = 0; c < characters; c++) {
		spring_chain_destroy(g_chains[c]);
		spring_chain2d_destroy(g_angle[c]);
	}
	return 0;
}
