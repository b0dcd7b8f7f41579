// SPDX-License-Identifier: MIT
// spring_rig: clips -> IK -> world -> springs, per fixed step; keyframes, IK, pause, time scale,
// teleport, events, memory and bad definitions.
#include "random.h"
#include "rig_internal.h"
#include "scenes.h"
#include "spring/rig.h"
#include "spring/verify.h"
#include "test_macros.h"

#include <stdlib.h>
#include <string.h>

#define DEG ((float)(SPRING_PI / 180.0))

// ---------------------------------------------------------------------------------------------
// A small character: hip (animated: walk), a six-segment tail, an arm reaching an animated
// target by two-bone IK, and a three-segment ribbon hanging from the forearm's tip.

enum { B_ROOT, B_HIP, B_T1, B_T2, B_T3, B_T4, B_T5, B_T6, B_SHOULDER, B_UPPER, B_FORE, B_R1, B_R2, B_R3, B_TARGET, B_COUNT };
static spring_rig_bone_desc g_bones[B_COUNT];
static spring_rig_key g_keys[8][8];
static spring_rig_track g_tracks[8];
static spring_rig_clip_desc g_clips[3];
static spring_rig_event g_events[2];
static spring_rig_ik_desc g_iks[1];
static spring_rig_chain_desc g_chains[2];

#define TAIL_LEN 90.0f

static const char *const g_names[B_COUNT] = {"root",     "hip",   "tail1", "tail2",   "tail3",   "tail4",   "tail5", "tail6",
                                             "shoulder", "upper", "fore",  "ribbon1", "ribbon2", "ribbon3", "target"};

// A bone reference by name (the description's way), from the enum.
static const char *bone(int b)
{
	return b >= 0 && b < B_COUNT ? g_names[b] : "no such bone";
}

static spring_rig_desc character(int with_ik, int with_chains)
{
	memset(g_bones, 0, sizeof g_bones);
	const struct {
		const char *name;
		int parent;
		float length;
		spring_xform2 setup;
	} b[B_COUNT] = {
		{"root", -1, 0.0f, scene_xform2(0, 0, 0)},           {"hip", B_ROOT, 20.0f, scene_xform2(0, 100, 0)},
		{"tail1", B_HIP, 15.0f, scene_xform2(0, 0, 3.0f)},   {"tail2", B_T1, 15.0f, scene_xform2(15, 0, 0.1f)},
		{"tail3", B_T2, 15.0f, scene_xform2(15, 0, 0.1f)},   {"tail4", B_T3, 15.0f, scene_xform2(15, 0, 0.1f)},
		{"tail5", B_T4, 15.0f, scene_xform2(15, 0, 0.1f)},   {"tail6", B_T5, 15.0f, scene_xform2(15, 0, 0.1f)},
		{"shoulder", B_HIP, 0.0f, scene_xform2(20, 30, 0)},  {"upper", B_SHOULDER, 50.0f, scene_xform2(0, 0, -1.2f)},
		{"fore", B_UPPER, 40.0f, scene_xform2(50, 0, 0.5f)}, {"ribbon1", B_FORE, 12.0f, scene_xform2(40, 0, -0.3f)},
		{"ribbon2", B_R1, 12.0f, scene_xform2(12, 0, 0)},    {"ribbon3", B_R2, 12.0f, scene_xform2(12, 0, 0)},
		{"target", B_ROOT, 0.0f, scene_xform2(80, 60, 0)},
	};
	for (int i = 0; i < B_COUNT; i++) {
		g_bones[i].name = b[i].name;
		g_bones[i].parent = b[i].parent < 0 ? NULL : bone(b[i].parent);
		g_bones[i].length = b[i].length;
		g_bones[i].setup = b[i].setup;
	}
	memset(g_keys, 0, sizeof g_keys);
	// walk (1 s loop): hip bobs and sways, the IK target circles.
	spring_rig_key hip_move[5] = {{0.0f, {0, 0}, SPRING_RIG_CURVE_BEZIER, {0.42f, 0, 0.58f, 1}},
	                              {0.25f, {6, 8}, SPRING_RIG_CURVE_BEZIER, {0.42f, 0, 0.58f, 1}},
	                              {0.5f, {0, 0}, SPRING_RIG_CURVE_BEZIER, {0.42f, 0, 0.58f, 1}},
	                              {0.75f, {-6, 8}, SPRING_RIG_CURVE_BEZIER, {0.42f, 0, 0.58f, 1}},
	                              {1.0f, {0, 0}, SPRING_RIG_CURVE_LINEAR, {0}}};
	spring_rig_key hip_turn[3] = {{0.0f, {-0.15f, 0}, SPRING_RIG_CURVE_LINEAR, {0}},
	                              {0.5f, {0.15f, 0}, SPRING_RIG_CURVE_LINEAR, {0}},
	                              {1.0f, {-0.15f, 0}, SPRING_RIG_CURVE_LINEAR, {0}}};
	spring_rig_key target_move[5] = {{0.0f, {0, 0}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                 {0.25f, {-20, 25}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                 {0.5f, {-40, 0}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                 {0.75f, {-20, -25}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                 {1.0f, {0, 0}, SPRING_RIG_CURVE_LINEAR, {0}}};
	memcpy(g_keys[0], hip_move, sizeof hip_move);
	memcpy(g_keys[1], hip_turn, sizeof hip_turn);
	memcpy(g_keys[2], target_move, sizeof target_move);
	g_tracks[0] = (spring_rig_track){bone(B_HIP), SPRING_RIG_TRACK_TRANSLATE, 5, g_keys[0]};
	g_tracks[1] = (spring_rig_track){bone(B_HIP), SPRING_RIG_TRACK_ROTATE, 3, g_keys[1]};
	g_tracks[2] = (spring_rig_track){bone(B_TARGET), SPRING_RIG_TRACK_TRANSLATE, 5, g_keys[2]};
	g_events[0] = (spring_rig_event){0.0f, "loop", {0.0f, 0.0f}};
	g_events[1] = (spring_rig_event){0.5f, "step", {1.0f, 2.0f}};
	g_clips[0] = (spring_rig_clip_desc){"walk", 1.0f, 1, 3, g_tracks, 2, g_events};
	// still: a clamped clip that holds the setup pose (for free-decay tests)
	spring_rig_key hold[1] = {{0.0f, {0, 0}, SPRING_RIG_CURVE_LINEAR, {0}}};
	memcpy(g_keys[3], hold, sizeof hold);
	g_tracks[3] = (spring_rig_track){bone(B_HIP), SPRING_RIG_TRACK_TRANSLATE, 1, g_keys[3]};
	g_clips[1] = (spring_rig_clip_desc){"still", 2.0f, 0, 1, &g_tracks[3], 0, NULL};
	// reach: only the IK target moves (the body is still)
	g_clips[2] = (spring_rig_clip_desc){"reach", 1.0f, 1, 1, &g_tracks[2], 0, NULL};
	memset(g_iks, 0, sizeof g_iks);
	g_iks[0].name = "arm";
	g_iks[0].type = SPRING_RIG_IK_TWO_BONE;
	g_iks[0].first = bone(B_UPPER);
	g_iks[0].last = bone(B_FORE);
	g_iks[0].target = bone(B_TARGET);
	g_iks[0].bend_positive = false;
	memset(g_chains, 0, sizeof g_chains);
	g_chains[0].name = "tail";
	g_chains[0].type = SPRING_RIG_CHAIN_ANGLE;
	g_chains[0].first = bone(B_T1);
	g_chains[0].last = bone(B_T6);
	spring_params_from_frequency(2.0f, 0.3f, &g_chains[0].params);
	spring_params_from_frequency(3.5f, 0.4f, &g_chains[0].tip_params);
	g_chains[0].gravity = spring_vec2_make(0.0f, -200.0f);
	g_chains[1].name = "ribbon";
	g_chains[1].type = SPRING_RIG_CHAIN_ANGLE;
	g_chains[1].first = bone(B_R1);
	g_chains[1].last = bone(B_R3);
	spring_params_from_frequency(2.5f, 0.25f, &g_chains[1].params);
	spring_rig_desc d = {0};
	d.bone_count = B_COUNT;
	d.bones = g_bones;
	d.clip_count = 3;
	d.clips = g_clips;
	d.ik_count = with_ik ? 1 : 0;
	d.iks = g_iks;
	d.chain_count = with_chains ? 2 : 0;
	d.chains = g_chains;
	d.root = scene_xform2(0, 0, 0);
	return d;
}

static spring_vec2 tip_of(const spring_xform2 *world, int bone)
{
	return spring_xform2_apply(world[bone], spring_vec2_make(g_bones[bone].length, 0.0f));
}

static float dist(spring_vec2 a, spring_vec2 b)
{
	return spring_vec2_length(spring_vec2_sub(a, b));
}

// The farthest root along +x (angle 0) that spring_rig_check_root takes; the next float it refuses.
static float farthest_root_x(const spring_rig *rig)
{
	float lo = 0.0f, hi = 2e6f;
	while (nextafterf(lo, hi) < hi) {
		float mid = lo + (hi - lo) * 0.5f;
		mid = mid > lo && mid < hi ? mid : nextafterf(lo, hi);
		*(spring_rig_check_root(rig, scene_xform2(mid, 0.0f, 0.0f), NULL) == SPRING_OK ? &lo : &hi) = mid;
	}
	return lo;
}

// ---------------------------------------------------------------------------------------------
// 1. Order: springs layered after IK keep their secondary motion; springs run before IK lose it.

static int test_springs_layer_after_ik(void)
{
	spring_rig_desc d = character(1, 1);
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 2, 0.0f) == SPRING_OK); // reach: only the IK target moves
	float worst = 0.0f;
	for (int f = 0; f < 180; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
		spring_xform2 world[B_COUNT], base[B_COUNT];
		ENSURE(spring_rig_get_base_world(rig, base, B_COUNT) == SPRING_OK);
		ENSURE(spring_rig_get_stepped_world(rig, world, B_COUNT) == SPRING_OK);
		if (f > 60) {
			// The IK arm itself is exactly where IK put it (springs never overwrite IK)...
			ENSURE(dist(tip_of(world, B_FORE), tip_of(base, B_FORE)) < 1e-4f);
			// ...and the ribbon hanging from it lags behind the IK-only pose.
			worst = fmaxf(worst, dist(tip_of(base, B_R3), tip_of(world, B_R3)));
		}
	}
	printf("    ribbon tip off the IK-only pose by up to %.2f units (correct order)\n", (double)worst);
	ENSURE(worst > 3.0f);
	// In the correct order the ribbon's own local angles swing (that is the secondary motion).
	spring_rig_destroy(rig);

	// The mis-ordered pipeline, built here from the same parts: the springs step on the clip
	// pose (before IK), then IK turns the arm. The ribbon's spring never saw the arm move.
	spring_rig_desc plain = character(0, 0);
	spring_rig *pose_rig;
	ENSURE(spring_rig_create(&plain, &pose_rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(pose_rig, 2, 0.0f) == SPRING_OK);
	spring_chain2d_segment seg[3];
	for (int i = 0; i < 3; i++) {
		seg[i] = (spring_chain2d_segment){
			.length = 12.0f, .rest_angle = g_bones[B_R1 + i].setup.angle, .params = g_chains[1].params};
	}
	spring_chain2d_desc cd = {0};
	cd.segment_count = 3;
	cd.segments = seg;
	spring_chain2d *ribbon;
	spring_xform2 world[B_COUNT];
	ENSURE(spring_rig_get_world(pose_rig, world, B_COUNT) == SPRING_OK);
	cd.root = scene_xform2(world[B_R1].position.x, world[B_R1].position.y, world[B_FORE].angle);
	ENSURE(spring_chain2d_create(&cd, &ribbon, NULL) == SPRING_OK);
	float worst_swing = 0.0f;
	for (int f = 0; f < 180; f++) {
		ENSURE(spring_rig_update(pose_rig, 1.0f / 60.0f) == SPRING_OK);
		ENSURE(spring_rig_get_base_world(pose_rig, world, B_COUNT) == SPRING_OK); // clips only: no IK here
		spring_xform2 root = scene_xform2(world[B_R1].position.x, world[B_R1].position.y, world[B_FORE].angle);
		ENSURE(spring_chain2d_update(ribbon, root, 1.0f / 60.0f) == SPRING_OK);
		// IK would now rotate upper/fore; the ribbon's local angles (what the springs produced)
		// are carried along rigidly. Their swing away from rest is all the secondary motion left.
		float locals[3];
		ENSURE(spring_chain2d_get_pose(ribbon, NULL, locals, 3) == SPRING_OK);
		if (f > 60) {
			for (int i = 0; i < 3; i++) {
				worst_swing = fmaxf(worst_swing, fabsf(spring_angle_delta(g_bones[B_R1 + i].setup.angle, locals[i])));
			}
		}
	}
	printf("    mis-ordered (springs before IK): ribbon swings at most %.4f degrees\n", (double)(worst_swing / DEG));
	ENSURE(worst_swing < 0.5f * DEG);
	spring_chain2d_destroy(ribbon);
	spring_rig_destroy(pose_rig);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 2. Envelope: the tail tip at 24/30/60/144/240 fps and a jittery clock vs 1 kHz.

#define CHECKS 12

// The walk at `fps` (0: jittery) with the chains' inertia (0: the default), the character walking
// across the world from (ox, oy); the tail's tip relative to that place.
static int envelope_run_at(float fps, float inertia, double ox, double oy, spring_vec2 out[CHECKS])
{
	spring_rig_desc d = character(1, 1);
	for (int c = 0; c < d.chain_count; c++) {
		g_chains[c].inertia = inertia;
	}
	d.root = scene_xform2((float)ox, (float)oy, 0.0f); // where the walk starts
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	spring_frame_clock clock;
	ENSURE(spring_frame_clock_init(&clock, (double)fps, 0.5, 0x1234567u) == SPRING_OK);
	while (clock.checkpoints < CHECKS) {
		float dt = spring_frame_clock_next(&clock);
		// The character also walks and sways across the world (the rig root is an input sampled
		// once a frame, at the frame's end, and interpolated across the sub-steps).
		double t = clock.time;
		ENSURE(spring_rig_set_root(rig, scene_xform2((float)(ox + 40.0 * t + 15.0 * spring_det_sin(5.0 * t)),
		                                             (float)(oy + 10.0 * spring_det_sin(7.0 * t)),
		                                             (float)(0.2 * spring_det_sin(3.0 * t)))) == SPRING_OK);
		ENSURE(spring_rig_update(rig, dt) == SPRING_OK);
		if (clock.at_checkpoint) {
			spring_xform2 world[B_COUNT];
			ENSURE(spring_rig_get_world(rig, world, B_COUNT) == SPRING_OK);
			spring_vec2 tip = tip_of(world, B_T6);
			out[clock.checkpoints - 1] = spring_vec2_make((float)((double)tip.x - ox), (float)((double)tip.y - oy));
		}
	}
	spring_rig_destroy(rig);
	return 0;
}

static int envelope_run(float fps, spring_vec2 out[CHECKS])
{
	return envelope_run_at(fps, 0.0f, 0.0, 0.0, out);
}

// The worst tip distance between two runs, as a fraction of the tail's length.
static double worst_of(const spring_vec2 *a, const spring_vec2 *b)
{
	double worst = 0.0;
	for (int k = 0; k < CHECKS; k++) {
		worst = fmax(worst, hypot((double)a[k].x - (double)b[k].x, (double)a[k].y - (double)b[k].y) / TAIL_LEN);
	}
	return worst;
}

static int test_envelope_across_frame_rates(void)
{
	spring_vec2 ref[CHECKS], run[CHECKS];
	ENSURE(envelope_run(1000.0f, ref) == 0);
	const float rates[] = {24.0f, 30.0f, 60.0f, 144.0f, 240.0f, 0.0f};
	for (int i = 0; i < 6; i++) {
		ENSURE(envelope_run(rates[i], run) == 0);
		float worst = 0.0f;
		for (int k = 0; k < CHECKS; k++) {
			worst = fmaxf(worst, dist(run[k], ref[k]) / TAIL_LEN);
		}
		printf("    tail tip at %s%g fps: worst %.3f%% of the tail length\n", rates[i] > 0.0f ? "" : "jittery ", (double)rates[i],
		       100.0 * worst);
		ENSURE(worst <= 0.01f);
	}
	return 0;
}

// 2a. The placement between frames: the rig's steps take their roots from the placement's path
// through the frames' roots (the path a stand-alone chain's pivot takes), not from a straight line
// a frame, whose kinks every chain with inertia felt as a jolt at each frame's end. The walk
// against an 8 kHz run, worst tip distance in % of the tail: with a line a frame it was 0.178 at
// 24 fps and 0.112 at 30 at the default inertia, 0.487 and 0.300 at inertia 1; on the path 0.013
// and 0.007, 0.097 and 0.048. The 4 kHz run is within 0.0001% of the 8 kHz one: the reference
// has converged.
static int test_steps_follow_the_placement_path(void)
{
	const float inertias[] = {0.0f, 1.0f};
	const double bound[] = {0.02, 0.15}; // %
	const float rates[] = {24.0f, 30.0f, 60.0f, 144.0f, 240.0f, 1000.0f, 0.0f};
	for (int k = 0; k < 2; k++) {
		spring_vec2 ref[CHECKS], run[CHECKS];
		ENSURE(envelope_run_at(8000.0f, inertias[k], 0.0, 0.0, ref) == 0);
		double worst = 0.0;
		for (int f = 0; f < 7; f++) {
			ENSURE(envelope_run_at(rates[f], inertias[k], 0.0, 0.0, run) == 0);
			worst = fmax(worst, 100.0 * worst_of(run, ref));
		}
		ENSURE(envelope_run_at(4000.0f, inertias[k], 0.0, 0.0, run) == 0);
		const double converged = 100.0 * worst_of(run, ref);
		printf("    inertia %g (0: the default): worst %.3f%% of the tail off an 8 kHz run; 4 kHz %.5f%%\n", (double)inertias[k],
		       worst, converged);
		ENSURE_MSG(worst <= bound[k], "inertia %g: %.3f%% (bound %.2f%%)", (double)inertias[k], worst, bound[k]);
		ENSURE(converged <= 0.001);
	}
	return 0;
}

// 2b. Far from the origin: the walk 4,000 units out ((4000, -500)) moves its tail as at the origin
// within 1e-5 of the tail's length at the chains' defaults (measured 5.0e-6 at 60 fps; the
// chains' pivot paths are kept relative to their newest knot, as stand-alone chains'). Farther
// out the float positions themselves are coarser than the bound: 40,000 units has floats 0.004
// units apart (4.3e-5 of the tail), 400,000 units 0.03 (3.5e-4), and the tail there is 5.5e-5
// and 4.5e-4 off (`test_rig far` prints them, and at inertia 1: 2.3e-5, 6.7e-4, 1.7e-3).
static int test_far_from_the_origin(void)
{
	spring_vec2 at0[CHECKS], run[CHECKS];
	ENSURE(envelope_run_at(60.0f, 0.0f, 0.0, 0.0, at0) == 0);
	ENSURE(envelope_run_at(60.0f, 0.0f, 4000.0, -500.0, run) == 0);
	double near = worst_of(run, at0);
	ENSURE(envelope_run_at(60.0f, 0.0f, 40000.0, -5000.0, run) == 0);
	double farther = worst_of(run, at0);
	printf("    tail at (4000, -500): %.2g of its length from the origin's; at (40000, -5000): %.2g\n", near, farther);
	ENSURE_MSG(near <= 1e-5, "(4000, -500): %.3g of the tail's length", near);
	// The other side: the measure sees the float spacing 40,000 units out.
	ENSURE(farther > 1e-5);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 3. IK

static uint32_t g_rng = 0xdeadbeefu;
static float rnd(float lo, float hi)
{
	return random_range(&g_rng, lo, hi);
}

static int test_two_bone_ik(void)
{
	for (int i = 0; i < 5000; i++) {
		spring_vec2 pivot = spring_vec2_make(rnd(-50, 50), rnd(-50, 50));
		float l1 = rnd(5, 60), l2 = rnd(5, 60);
		float reach = rnd(fabsf(l1 - l2) + 1e-3f * (l1 + l2), (l1 + l2) * 0.999f);
		float dir = rnd(-3.14f, 3.14f);
		spring_vec2 target = spring_vec2_add(pivot, spring_vec2_scale(spring_vec2_make(cosf(dir), sinf(dir)), reach));
		for (int bend = 0; bend < 2; bend++) {
			float a1, a2;
			spring_rig_ik_two_bone(pivot, l1, l2, target, bend, 0.0f, &a1, &a2);
			spring_vec2 elbow = spring_vec2_add(pivot, spring_vec2_scale(spring_vec2_make(cosf(a1), sinf(a1)), l1));
			spring_vec2 eff = spring_vec2_add(elbow, spring_vec2_scale(spring_vec2_make(cosf(a2), sinf(a2)), l2));
			ENSURE_MSG(dist(eff, target) <= 1e-4f * (l1 + l2), "off by %g of %g", dist(eff, target), l1 + l2);
			// Bend direction: the elbow lies left (counter-clockwise) of pivot->target when positive.
			float side = spring_vec2_cross(spring_vec2_sub(target, pivot), spring_vec2_sub(elbow, pivot));
			ENSURE(bend ? side >= -1e-3f : side <= 1e-3f);
		}
	}
	// Unreachable: straight at the target, effector as close as the bones allow.
	float a1, a2;
	spring_rig_ik_two_bone(spring_vec2_make(0, 0), 30, 20, spring_vec2_make(0, 100), 1, 0.0f, &a1, &a2);
	ENSURE_NEAR(a1, SPRING_PI / 2, 1e-5);
	ENSURE_NEAR(a2, SPRING_PI / 2, 1e-5);
	// Too close: folded, still pointing at the target as well as it can, no NaN.
	spring_rig_ik_two_bone(spring_vec2_make(0, 0), 30, 20, spring_vec2_make(5, 0), 1, 0.0f, &a1, &a2);
	ENSURE(spring_is_finite(a1) && spring_is_finite(a2));
	spring_vec2 elbow = spring_vec2_make(30 * cosf(a1), 30 * sinf(a1));
	spring_vec2 eff = spring_vec2_add(elbow, spring_vec2_make(20 * cosf(a2), 20 * sinf(a2)));
	ENSURE_NEAR(dist(eff, spring_vec2_make(0, 0)), 10.0, 1e-3); // |l1 - l2|
	// Zero distance: keeps the fallback angle, no NaN.
	spring_rig_ik_two_bone(spring_vec2_make(3, 4), 30, 20, spring_vec2_make(3, 4), 0, 0.7f, &a1, &a2);
	ENSURE_NEAR(a1, 0.7, 1e-6);
	ENSURE(spring_is_finite(a2));
	// Degenerate lengths: no NaN.
	spring_rig_ik_two_bone(spring_vec2_make(0, 0), 0.0f, 20, spring_vec2_make(5, 0), 0, 0.2f, &a1, &a2);
	ENSURE(spring_is_finite(a1) && spring_is_finite(a2));
	return 0;
}

// Two-bone IK inside the rig, with mix, and CCD on a longer chain.
static int test_rig_ik(void)
{
	spring_rig_desc d = character(1, 0);
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	float arm = 90.0f;
	for (int f = 0; f < 120; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
		spring_xform2 w[B_COUNT];
		ENSURE(spring_rig_get_base_world(rig, w, B_COUNT) == SPRING_OK);
		float reach = dist(w[B_UPPER].position, w[B_TARGET].position);
		if (reach < arm * 0.99f && reach > 15.0f) {
			ENSURE_MSG(dist(tip_of(w, B_FORE), w[B_TARGET].position) <= 1e-4f * arm, "frame %d: %g", f,
			           dist(tip_of(w, B_FORE), w[B_TARGET].position));
		}
	}
	// Mix 0 leaves the clip pose; a runtime target overrides the bone.
	ENSURE(spring_rig_set_ik_mix(rig, 0, 0.0f) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	spring_xform2 w[B_COUNT];
	ENSURE(spring_rig_get_base_world(rig, w, B_COUNT) == SPRING_OK);
	ENSURE_NEAR(spring_angle_delta(w[B_UPPER].angle, w[B_SHOULDER].angle + g_bones[B_UPPER].setup.angle), 0.0, 1e-5);
	ENSURE(spring_rig_set_ik_mix(rig, 0, 1.0f) == SPRING_OK);
	ENSURE(spring_rig_set_ik_target(rig, 0, spring_vec2_make(60.0f, 190.0f)) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	ENSURE(spring_rig_get_base_world(rig, w, B_COUNT) == SPRING_OK);
	ENSURE(dist(tip_of(w, B_FORE), spring_vec2_make(60.0f, 190.0f)) <= 1e-4f * arm);
	ENSURE(spring_rig_set_ik_mix(rig, 0, 1.5f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(strcmp(spring_rig_ik_name(rig, 0), "arm") == 0 && spring_rig_find_ik(rig, "arm") == 0);
	ENSURE(spring_rig_ik_name(rig, 1) == NULL && spring_rig_find_ik(rig, "leg") == -1);
	spring_rig_destroy(rig);
	// `off` starts the constraint at mix 0: the clip pose passes through, as with mix set to 0.
	g_iks[0].off = true;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK && spring_rig_update(rig, 0.25f) == SPRING_OK);
	ENSURE(spring_rig_get_base_world(rig, w, B_COUNT) == SPRING_OK);
	ENSURE_NEAR(spring_angle_delta(w[B_UPPER].angle, w[B_SHOULDER].angle + g_bones[B_UPPER].setup.angle), 0.0, 1e-5);
	ENSURE(spring_rig_set_ik_mix(rig, 0, 1.0f) == SPRING_OK && spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	ENSURE(spring_rig_get_base_world(rig, w, B_COUNT) == SPRING_OK);
	ENSURE(fabsf(spring_angle_delta(w[B_UPPER].angle, w[B_SHOULDER].angle + g_bones[B_UPPER].setup.angle)) > 1e-3f);
	g_iks[0].off = false;
	spring_rig_destroy(rig);

	// CCD: five bones of 10 units reaching random targets.
	spring_rig_bone_desc bones[6];
	memset(bones, 0, sizeof bones);
	const char *names[6] = {"base", "c1", "c2", "c3", "c4", "c5"};
	for (int i = 0; i < 6; i++) {
		bones[i].name = names[i];
		bones[i].parent = i == 0 ? NULL : names[i - 1];
		bones[i].length = i == 0 ? 0.0f : 10.0f;
		bones[i].setup = scene_xform2(i <= 1 ? 0.0f : 10.0f, 0.0f, 0.0f);
	}
	spring_rig_ik_desc ccd = {0};
	ccd.name = "reach";
	ccd.type = SPRING_RIG_IK_CCD;
	ccd.first = "c1";
	ccd.last = "c5";
	ccd.iterations = 500;
	ccd.tolerance = 1e-3f;
	spring_rig_desc cd = {0};
	cd.bone_count = 6;
	cd.bones = bones;
	cd.ik_count = 1;
	cd.iks = &ccd;
	ENSURE(spring_rig_create(&cd, &rig, NULL) == SPRING_OK);
	for (int i = 0; i < 200; i++) {
		float r = rnd(5.0f, 45.0f), a = rnd(-3.0f, 3.0f);
		spring_vec2 target = spring_vec2_make(r * cosf(a), r * sinf(a));
		ENSURE(spring_rig_set_ik_target(rig, 0, target) == SPRING_OK);
		ENSURE(spring_rig_update(rig, 1.0f / 120.0f) == SPRING_OK);
		spring_xform2 cw[6];
		ENSURE(spring_rig_get_base_world(rig, cw, 6) == SPRING_OK);
		spring_vec2 eff = spring_xform2_apply(cw[5], spring_vec2_make(10.0f, 0.0f));
		ENSURE_MSG(dist(eff, target) <= 1e-4f * 50.0f, "CCD missed by %g", dist(eff, target));
	}
	// Unreachable: straightened towards it.
	ENSURE(spring_rig_set_ik_target(rig, 0, spring_vec2_make(0.0f, 500.0f)) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 1.0f / 120.0f) == SPRING_OK);
	spring_xform2 cw[6];
	ENSURE(spring_rig_get_base_world(rig, cw, 6) == SPRING_OK);
	spring_vec2 eff = spring_xform2_apply(cw[5], spring_vec2_make(10.0f, 0.0f));
	ENSURE_NEAR(dist(eff, spring_vec2_make(0.0f, 500.0f)), 450.0, 0.5);
	spring_rig_destroy(rig);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 4. Keyframes and CSS cubic-bezier

static double bezier_reference(double x1, double y1, double x2, double y2, double x)
{
	// Independent: bisection on the parametric x(s) in long double-free double, 200 steps.
	double lo = 0.0, hi = 1.0, s = 0.5;
	for (int i = 0; i < 200; i++) {
		s = 0.5 * (lo + hi);
		double u = 1.0 - s;
		double bx = 3.0 * u * u * s * x1 + 3.0 * u * s * s * x2 + s * s * s;
		if (bx < x) {
			lo = s;
		} else {
			hi = s;
		}
	}
	double u = 1.0 - s;
	return 3.0 * u * u * s * y1 + 3.0 * u * s * s * y2 + s * s * s;
}

static int test_keyframes_and_bezier(void)
{
	// CSS named easings at known points (values as browsers compute them).
	ENSURE_NEAR(spring_rig_cubic_bezier(0.25f, 0.1f, 0.25f, 1.0f, 0.5f), 0.8024033877, 2e-6); // ease
	ENSURE_NEAR(spring_rig_cubic_bezier(0.42f, 0.0f, 0.58f, 1.0f, 0.5f), 0.5, 1e-6);          // ease-in-out
	ENSURE_NEAR(spring_rig_cubic_bezier(0.0f, 0.0f, 1.0f, 1.0f, 0.3f), 0.3, 1e-6);            // linear
	ENSURE(spring_rig_cubic_bezier(0.42f, 0.0f, 1.0f, 1.0f, 0.0f) == 0.0f);
	ENSURE(spring_rig_cubic_bezier(0.42f, 0.0f, 1.0f, 1.0f, 1.0f) == 1.0f);
	for (int i = 0; i < 3000; i++) {
		float x1 = rnd(0, 1), y1 = rnd(-1, 2), x2 = rnd(0, 1), y2 = rnd(-1, 2), x = rnd(0, 1);
		if (i % 10 == 0) {
			x1 = 0.0f; // flat start: Newton's slope vanishes there
		}
		double ref = bezier_reference(x1, y1, x2, y2, x);
		ENSURE_MSG(fabs(spring_rig_cubic_bezier(x1, y1, x2, y2, x) - ref) < 2e-5, "(%g %g %g %g) at %g", x1, y1, x2, y2, x);
	}
	// Tracks in a rig: linear, stepped, bezier, clamped and looping clips.
	spring_rig_bone_desc one = {"b", NULL, 10.0f, scene_xform2(1.0f, 2.0f, 0.5f)};
	spring_rig_key lin[2] = {{0.0f, {0.0f, 0}, SPRING_RIG_CURVE_LINEAR, {0}}, {1.0f, {1.0f, 0}, SPRING_RIG_CURVE_LINEAR, {0}}};
	spring_rig_key step[2] = {{0.0f, {2.0f, 4.0f}, SPRING_RIG_CURVE_STEPPED, {0}},
	                          {1.0f, {6.0f, 8.0f}, SPRING_RIG_CURVE_LINEAR, {0}}};
	spring_rig_key bez[2] = {{0.0f, {1.0f, 1.0f}, SPRING_RIG_CURVE_BEZIER, {0.25f, 0.1f, 0.25f, 1.0f}},
	                         {1.0f, {3.0f, 5.0f}, SPRING_RIG_CURVE_LINEAR, {0}}};
	spring_rig_track tracks[3] = {{"b", SPRING_RIG_TRACK_ROTATE, 2, lin},
	                              {"b", SPRING_RIG_TRACK_TRANSLATE, 2, step},
	                              {"b", SPRING_RIG_TRACK_SCALE, 2, bez}};
	spring_rig_clip_desc clips[2] = {{"clamp", 1.0f, false, 3, tracks, 0, NULL}, {"loop", 1.0f, true, 3, tracks, 0, NULL}};
	spring_rig_desc d = {0};
	d.bone_count = 1;
	d.bones = &one;
	d.clip_count = 2;
	d.clips = clips;
	d.step = 0.01f;
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	// The rig samples at step ends: play from t - step so the first step lands on t.
	const float times[] = {0.25f, 0.5f, 0.75f, 1.25f};
	for (int c = 0; c < 2; c++) {
		for (int k = 0; k < 4; k++) {
			float t = times[k];
			ENSURE(spring_rig_play(rig, c, t - 0.01f) == SPRING_OK);
			ENSURE(spring_rig_update(rig, 0.01f) == SPRING_OK);
			spring_xform2 local;
			ENSURE(spring_rig_get_stepped_local(rig, &local, 1) == SPRING_OK);
			float u = c == 0 ? fminf(t, 1.0f) : t - floorf(t); // clamped / looped clip time
			float eased = spring_rig_cubic_bezier(0.25f, 0.1f, 0.25f, 1.0f, u);
			ENSURE_NEAR(local.angle, 0.5f + u, 2e-5);
			float sx = u >= 1.0f ? 6.0f : 2.0f, sy = u >= 1.0f ? 8.0f : 4.0f; // stepped
			ENSURE_NEAR(local.position.x, 1.0f + sx, 1e-5);
			ENSURE_NEAR(local.position.y, 2.0f + sy, 1e-5);
			ENSURE_NEAR(local.scale.x, 1.0f + 2.0f * eased, 2e-5);
			ENSURE_NEAR(local.scale.y, 1.0f + 4.0f * eased, 2e-5);
		}
	}
	// Sampling at any time, without stepping: between frames and past the end.
	for (int k = 0; k < 200; k++) {
		float t = rnd(-0.5f, 3.0f);
		spring_xform2 sampled;
		ENSURE(spring_rig_sample_clip(rig, 1, t, &sampled, 1) == SPRING_OK);
		float u = t - floorf(t);
		ENSURE_NEAR(sampled.angle, 0.5f + u, 2e-5);
		ENSURE_NEAR(sampled.scale.x, 1.0f + 2.0f * spring_rig_cubic_bezier(0.25f, 0.1f, 0.25f, 1.0f, u), 2e-5);
		ENSURE(spring_rig_sample_clip(rig, 0, t, &sampled, 1) == SPRING_OK);
		ENSURE_NEAR(sampled.angle, 0.5f + fminf(fmaxf(t, 0.0f), 1.0f), 2e-5);
	}
	spring_xform2 sampled;
	ENSURE(spring_rig_sample_clip(rig, -1, 0.3f, &sampled, 1) == SPRING_OK);
	ENSURE(sampled.angle == 0.5f && sampled.position.x == 1.0f);
	ENSURE(spring_rig_sample_clip(rig, 5, 0.3f, &sampled, 1) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_sample_clip(rig, 0, NAN, &sampled, 1) == SPRING_ERROR_NOT_FINITE);
	// Hand-computed: linear rotate at 0.25 -> 0.5 + 0.25; ease at 0.5 -> scale 1 + 2 * 0.8024.
	ENSURE(spring_rig_play(rig, 0, 0.49f) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 0.01f) == SPRING_OK);
	spring_xform2 local;
	ENSURE(spring_rig_get_stepped_local(rig, &local, 1) == SPRING_OK);
	ENSURE_NEAR(local.scale.x, 1.0 + 2.0 * 0.8024033877, 1e-4);
	spring_rig_destroy(rig);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 6. Pause / resume and time scale: no jump, no energy injection.

static int run_tail(spring_rig *rig, int frames, float dt, spring_vec2 *last)
{
	for (int f = 0; f < frames; f++) {
		ENSURE(spring_rig_update(rig, dt) == SPRING_OK);
	}
	spring_xform2 w[B_COUNT];
	ENSURE(spring_rig_get_world(rig, w, B_COUNT) == SPRING_OK);
	*last = tip_of(w, B_T6);
	return 0;
}

static int test_pause_and_time_scale(void)
{
	spring_rig_desc d = character(1, 1);
	spring_rig *a, *b, *c;
	ENSURE(spring_rig_create(&d, &a, NULL) == SPRING_OK);
	ENSURE(spring_rig_create(&d, &b, NULL) == SPRING_OK);
	ENSURE(spring_rig_create(&d, &c, NULL) == SPRING_OK);
	spring_rig_play(a, 0, 0.0f);
	spring_rig_play(b, 0, 0.0f);
	spring_rig_play(c, 0, 0.0f);
	spring_vec2 pa, pb, pc, paused_at;
	// a: 2 s straight. b: 1 s, paused 0.7 s (output frozen), resumed 1 s.
	float one_frame = 0.0f; // a's largest one-frame tip motion
	for (int f = 0; f < 120; f++) {
		spring_vec2 before_frame = pa;
		ENSURE(run_tail(a, 1, 1.0f / 60.0f, &pa) == 0);
		one_frame = f > 0 ? fmaxf(one_frame, dist(pa, before_frame)) : 0.0f;
	}
	ENSURE(run_tail(b, 60, 1.0f / 60.0f, &pb) == 0);
	ENSURE(spring_rig_set_paused(b, 1) == SPRING_OK);
	paused_at = pb;
	for (int f = 0; f < 42; f++) {
		ENSURE(run_tail(b, 1, 1.0f / 60.0f, &pb) == 0);
		ENSURE(pb.x == paused_at.x && pb.y == paused_at.y); // frozen, exactly
	}
	ENSURE(spring_rig_set_paused(b, 0) == SPRING_OK);
	ENSURE(run_tail(b, 1, 1.0f / 60.0f, &pb) == 0);
	// No jump on resume: no more than the unpaused run's own largest one-frame motion.
	ENSURE_MSG(dist(pb, paused_at) <= one_frame, "moved %g, at most %g in a frame unpaused", dist(pb, paused_at), one_frame);
	ENSURE(run_tail(b, 59, 1.0f / 60.0f, &pb) == 0);
	ENSURE_MSG(pa.x == pb.x && pa.y == pb.y, "after the pause: %g %g vs %g %g", pb.x, pb.y, pa.x, pa.y);
	// c: half speed for 4 s of frames == a's 2 s (the same fixed steps, the same inputs).
	ENSURE(spring_rig_set_time_scale(c, 0.5f) == SPRING_OK);
	ENSURE(run_tail(c, 240, 1.0f / 60.0f, &pc) == 0);
	ENSURE_MSG(dist(pa, pc) < 1e-4f, "half speed %g %g vs %g %g", pc.x, pc.y, pa.x, pa.y);
	spring_rig_destroy(a);
	spring_rig_destroy(b);
	spring_rig_destroy(c);

	// Energy: the tail released from a swing on a still clip; flipping the time scale between
	// 0.3 and 2.5 every frame must not make any swing grow.
	spring_rig_desc dd = character(0, 1);
	spring_rig *e;
	ENSURE(spring_rig_create(&dd, &e, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(e, 0, 0.0f) == SPRING_OK);
	ENSURE(run_tail(e, 60, 1.0f / 60.0f, &pa) == 0);  // get it swinging
	ENSURE(spring_rig_play(e, 1, 0.0f) == SPRING_OK); // then hold still: the clip switch jerks the
	ENSURE(run_tail(e, 90, 1.0f / 60.0f, &pa) == 0);  // hip once; let that kick arrive at the tip
	float prev2 = 0, prev1 = 0, last_peak = INFINITY;
	int peaks = 0;
	spring_vec2 rest;
	{
		spring_rig *ref;
		ENSURE(spring_rig_create(&dd, &ref, NULL) == SPRING_OK);
		ENSURE(spring_rig_play(ref, 1, 0.0f) == SPRING_OK);
		ENSURE(run_tail(ref, 1200, 1.0f / 60.0f, &rest) == 0); // where the tail rests
		spring_rig_destroy(ref);
	}
	for (int f = 0; f < 1200; f++) {
		ENSURE(spring_rig_set_time_scale(e, f % 2 ? 0.3f : 2.5f) == SPRING_OK);
		ENSURE(run_tail(e, 1, 1.0f / 60.0f, &pa) == 0);
		float y = pa.y - rest.y;
		if (f > 2 && fabsf(prev1) > fabsf(prev2) && fabsf(prev1) >= fabsf(y) && fabsf(prev1) > 1e-3f) {
			if (peaks > 0) {
				ENSURE_MSG(fabsf(prev1) < last_peak * 1.001f, "peak %d: %g after %g", peaks, fabsf(prev1), last_peak);
			}
			last_peak = fabsf(prev1);
			peaks++;
		}
		prev2 = prev1;
		prev1 = y;
	}
	ENSURE(peaks >= 2);
	ENSURE(spring_rig_set_time_scale(e, -1.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_rig_set_time_scale(e, NAN) == SPRING_ERROR_NOT_FINITE);
	spring_rig_destroy(e);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Teleport and reset, events, memory, bad definitions, determinism.

static int teleport_case(spring_rig_chain_type ribbon_type)
{
	spring_rig_desc d = character(1, 1);
	g_chains[1].type = ribbon_type;
	spring_rig *a, *twin;
	ENSURE(spring_rig_create(&d, &a, NULL) == SPRING_OK);
	ENSURE(spring_rig_create(&d, &twin, NULL) == SPRING_OK);
	spring_rig_play(a, 0, 0.0f);
	spring_rig_play(twin, 0, 0.0f);
	spring_vec2 p, q;
	ENSURE(run_tail(a, 90, 1.0f / 60.0f, &p) == 0);
	ENSURE(run_tail(twin, 90, 1.0f / 60.0f, &q) == 0);
	// A quarter-turn teleport keeps the pose in root space exactly at the jump...
	spring_xform2 before[B_COUNT], after[B_COUNT];
	ENSURE(spring_rig_get_world(a, before, B_COUNT) == SPRING_OK);
	spring_xform2 turn = scene_xform2(-500.0f, 40.0f, 1.5707963f);
	ENSURE(spring_rig_teleport(a, turn) == SPRING_OK);
	ENSURE(spring_rig_get_world(a, after, B_COUNT) == SPRING_OK);
	for (int i = 0; i < B_COUNT; i++) {
		spring_vec2 local = spring_vec2_rotate(spring_vec2_sub(after[i].position, turn.position), -turn.angle);
		ENSURE(dist(local, before[i].position) < 1e-3f);
	}
	ENSURE(spring_rig_teleport(a, scene_xform2(0.0f, 0.0f, 0.0f)) == SPRING_OK);
	// ...and a 2000-unit jump continues the motion exactly as in the twin (gravity is world
	// space, so the continuation is compared without a turn).
	spring_xform2 jump = scene_xform2(2000.0f, -300.0f, 0.0f);
	ENSURE(spring_rig_teleport(a, jump) == SPRING_OK);
	ENSURE(spring_rig_set_root(a, jump) == SPRING_OK);
	for (int f = 0; f < 60; f++) {
		ENSURE(spring_rig_update(a, 1.0f / 60.0f) == SPRING_OK);
		ENSURE(spring_rig_update(twin, 1.0f / 60.0f) == SPRING_OK);
		spring_xform2 wa[B_COUNT], wt[B_COUNT];
		ENSURE(spring_rig_get_world(a, wa, B_COUNT) == SPRING_OK);
		ENSURE(spring_rig_get_world(twin, wt, B_COUNT) == SPRING_OK);
		spring_vec2 local = spring_vec2_rotate(spring_vec2_sub(tip_of(wa, B_T6), jump.position), -jump.angle);
		ENSURE_MSG(dist(local, tip_of(wt, B_T6)) < 2e-2f, "frame %d: %g", f, dist(local, tip_of(wt, B_T6)));
		spring_vec2 ribbon = spring_vec2_rotate(spring_vec2_sub(tip_of(wa, B_R3), jump.position), -jump.angle);
		ENSURE_MSG(dist(ribbon, tip_of(wt, B_R3)) < 2e-2f, "frame %d ribbon: %g", f, dist(ribbon, tip_of(wt, B_R3)));
	}
	// Reset: the chains rest on the pose: right after, the tail matches the base pose.
	ENSURE(spring_rig_reset(a) == SPRING_OK);
	spring_xform2 w[B_COUNT], base[B_COUNT];
	ENSURE(spring_rig_get_world(a, w, B_COUNT) == SPRING_OK);
	ENSURE(spring_rig_get_base_world(a, base, B_COUNT) == SPRING_OK);
	ENSURE(dist(tip_of(w, B_T6), tip_of(base, B_T6)) < 1e-3f);
	ENSURE(dist(tip_of(w, B_R3), tip_of(base, B_R3)) < 1e-3f);
	spring_rig_destroy(a);
	spring_rig_destroy(twin);
	return 0;
}

// A tip chain's bone gravity: the same pull given to every bone of the ribbon or to the chain gives
// the same rig, bit for bit, while the walk plays; given to its last bone only, the bones before it
// are unchanged and the last one hangs lower.
static int test_tip_chain_bone_gravity(void)
{
	spring_vec2 each[3], last_only[3] = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, -400.0f}};
	spring_rig *rig[3];
	for (int k = 0; k < 3; k++) {
		spring_rig_desc d = character(1, 1);
		g_chains[1].type = SPRING_RIG_CHAIN_TIP;
		for (int i = 0; i < 3; i++) {
			each[i] = spring_vec2_make(30.0f, -400.0f);
		}
		if (k == 0) {
			g_chains[1].gravity = spring_vec2_make(30.0f, -400.0f);
		} else {
			g_chains[1].gravity = spring_vec2_make(0.0f, 0.0f);
			g_chains[1].bone_gravity_count = 3;
			g_chains[1].bone_gravity = k == 1 ? each : last_only;
		}
		ENSURE(spring_rig_create(&d, &rig[k], NULL) == SPRING_OK);
		ENSURE(spring_rig_play(rig[k], 0, 0.0f) == SPRING_OK);
	}
	spring_rig_desc plain_desc = character(1, 1);
	g_chains[1].type = SPRING_RIG_CHAIN_TIP;
	g_chains[1].gravity = spring_vec2_make(0.0f, 0.0f);
	spring_rig *plain;
	ENSURE(spring_rig_create(&plain_desc, &plain, NULL) == SPRING_OK && spring_rig_play(plain, 0, 0.0f) == SPRING_OK);
	float lower = 0.0f;
	for (int f = 0; f < 240; f++) {
		spring_xform2 w[4][B_COUNT];
		for (int k = 0; k < 4; k++) {
			spring_rig *r = k < 3 ? rig[k] : plain;
			ENSURE(spring_rig_update(r, 1.0f / 60.0f) == SPRING_OK);
			ENSURE(spring_rig_get_world(r, w[k], B_COUNT) == SPRING_OK);
		}
		ENSURE_MSG(memcmp(w[0], w[1], sizeof w[0]) == 0, "frame %d", f);
		ENSURE(memcmp(&w[2][B_R1], &w[3][B_R1], 2 * sizeof w[2][0]) == 0); // the ribbon's first two bones
		lower += tip_of(w[3], B_R3).y - tip_of(w[2], B_R3).y;
	}
	printf("    the ribbon's last bone pulled alone hangs %.3g units lower on average\n", (double)(lower / 240.0f));
	ENSURE(lower / 240.0f > 0.25f);
	for (int k = 0; k < 3; k++) {
		spring_rig_destroy(rig[k]);
	}
	spring_rig_destroy(plain);
	return 0;
}

// Teleport and reset with the ribbon as an angle chain and as a tip chain.
static int test_teleport_and_reset(void)
{
	ENSURE(teleport_case(SPRING_RIG_CHAIN_ANGLE) == 0);
	ENSURE(teleport_case(SPRING_RIG_CHAIN_TIP) == 0);
	return 0;
}

static int test_events(void)
{
	spring_rig_desc d = character(0, 0);
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	int steps = 0, loops = 0;
	for (int f = 0; f < 300; f++) { // 5 s at 60 fps, and a few long frames
		float dt = f % 50 == 0 ? 0.06f : 1.0f / 60.0f;
		ENSURE(spring_rig_update(rig, dt) == SPRING_OK);
		spring_rig_event ev[8];
		int total;
		int n = spring_rig_get_events(rig, ev, 8, &total);
		ENSURE(n == total);
		for (int i = 0; i < n; i++) {
			if (strcmp(ev[i].name, "step") == 0) {
				ENSURE(ev[i].value[0] == 1.0f && ev[i].value[1] == 2.0f);
				steps++;
			} else if (strcmp(ev[i].name, "loop") == 0) {
				loops++;
			}
		}
	}
	ENSURE(spring_rig_clip_count(rig) == 3 && strcmp(spring_rig_clip_name(rig, 2), "reach") == 0);
	ENSURE(spring_rig_clip_duration(rig, 0) == 1.0f && spring_rig_clip_name(rig, 3) == NULL);
	ENSURE(spring_rig_find_clip(rig, "still") == 1 && spring_rig_find_clip(rig, "nope") == SPRING_RIG_NOT_FOUND);
	ENSURE(spring_rig_find_bone(rig, "tail3") == B_T3 && spring_rig_ik_count(rig) == 0);
	float t = spring_rig_time(rig);
	ENSURE_MSG(steps == (int)floorf(t - 0.5f) + 1, "step fired %d times in %g s", steps, t);
	ENSURE_MSG(loops == (int)floorf(t), "loop fired %d times in %g s", loops, t);
	ENSURE(spring_rig_find_clip(rig, NULL) == SPRING_RIG_NOT_FOUND &&
	       spring_rig_find_clip(NULL, "still") == SPRING_RIG_NOT_FOUND);
	ENSURE(spring_rig_find_bone(rig, "nope") == SPRING_RIG_NOT_FOUND && spring_rig_find_bone(rig, "hip") == B_HIP);
	// A failed lookup is refused, not taken as the setup pose: the clip playing goes on unchanged.
	ENSURE(spring_rig_play(rig, 1, 0.25f) == SPRING_OK);
	ENSURE(spring_rig_play(rig, spring_rig_find_clip(rig, "Still"), 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_play_named(rig, "Still", 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_play_named(rig, NULL, 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_play_named(NULL, "still", 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_play_named(rig, "still", NAN) == SPRING_ERROR_NOT_FINITE);
	spring_xform2 sampled[B_COUNT];
	ENSURE(spring_rig_sample_clip(rig, SPRING_RIG_NOT_FOUND, 0.0f, sampled, B_COUNT) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_sample_clip(rig, SPRING_RIG_SETUP_POSE, 0.0f, sampled, B_COUNT) == SPRING_OK);
	ENSURE(spring_rig_play_named(rig, "still", 0.5f) == SPRING_OK &&
	       spring_rig_play(rig, SPRING_RIG_SETUP_POSE, 0.0f) == SPRING_OK);
	spring_rig_destroy(rig);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// The events the library defines (spring_rig_apply_events): a "teleport" moves the rig's root by
// its payload and teleports the rig there, in order, once per update, all or nothing.

// The walk with teleports: at 0.25 s by (300, 0); at 0.5 s by (-100, 25), then by (200, -25).
enum { EV_QUARTER = 1, EV_HALF_FIRST = 3, EV_HALF_SECOND = 4, EV_COUNT = 5 };
static spring_rig_event g_teleports[EV_COUNT];

static spring_rig_desc teleporting_character(void)
{
	spring_rig_desc d = character(1, 1);
	g_teleports[0] = (spring_rig_event){0.0f, "loop", {0.0f, 0.0f}};
	g_teleports[EV_QUARTER] = (spring_rig_event){0.25f, SPRING_RIG_EVENT_TELEPORT, {300.0f, 0.0f}};
	g_teleports[2] = (spring_rig_event){0.5f, "step", {1.0f, 2.0f}};
	g_teleports[EV_HALF_FIRST] = (spring_rig_event){0.5f, SPRING_RIG_EVENT_TELEPORT, {-100.0f, 25.0f}};
	g_teleports[EV_HALF_SECOND] = (spring_rig_event){0.5f, SPRING_RIG_EVENT_TELEPORT, {200.0f, -25.0f}};
	g_clips[0].event_count = EV_COUNT;
	g_clips[0].events = g_teleports;
	return d;
}

// The rule, against the same calls by hand (each teleport from where the one before left the
// root, through spring_rig_teleport): the same bits every frame, the events still listed, a second
// call a no-op; a rig that is not told stays where it was.
static int test_apply_events(void)
{
	spring_rig_desc d = teleporting_character();
	const size_t size = spring_rig_memory_size(&d);
	spring_rig *rig, *by_hand, *untold;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK && spring_rig_create(&d, &by_hand, NULL) == SPRING_OK &&
	       spring_rig_create(&d, &untold, NULL) == SPRING_OK);
	unsigned char *before = malloc(size);
	ENSURE(before != NULL);
	const spring_xform2 start = scene_xform2(10.0f, -5.0f, 0.3f);
	spring_rig *const all[3] = {rig, by_hand, untold};
	for (int k = 0; k < 3; k++) {
		ENSURE(spring_rig_apply_events(all[k], NULL) == SPRING_OK); // before any update: nothing to do
		ENSURE(spring_rig_teleport(all[k], start) == SPRING_OK && spring_rig_play(all[k], 0, 0.0f) == SPRING_OK);
	}
	int teleports = 0;
	for (int f = 0; f < 150; f++) { // 2.97 s: teleports at 0.25, 0.5 (two), 1.25, 1.5 (two), 2.25, 2.5 (two) s
		for (int k = 0; k < 3; k++) {
			ENSURE(spring_rig_update(all[k], f % 11 == 5 ? 0.05f : 1.0f / 60.0f) == SPRING_OK);
		}
		spring_rig_event ev[8];
		int n = spring_rig_get_events(by_hand, ev, 8, NULL);
		for (int i = 0; i < n; i++) {
			if (strcmp(ev[i].name, "teleport") == 0) {
				spring_xform2 root = spring_rig_root(by_hand);
				root.position.x = (float)((double)root.position.x + (double)ev[i].value[0]);
				root.position.y = (float)((double)root.position.y + (double)ev[i].value[1]);
				ENSURE(spring_rig_teleport(by_hand, root) == SPRING_OK);
				teleports++;
			}
		}
		ENSURE(spring_rig_apply_events(rig, NULL) == SPRING_OK);
		memcpy(before, rig, size);
		ENSURE(spring_rig_apply_events(rig, NULL) == SPRING_OK); // once per update
		ENSURE_MSG(memcmp(before, rig, size) == 0, "frame %d: applied twice", f);
		spring_rig_event listed[8];
		ENSURE(spring_rig_get_events(rig, listed, 8, NULL) == n);
		spring_xform2 wr[B_COUNT], wh[B_COUNT];
		ENSURE(spring_rig_get_world(rig, wr, B_COUNT) == SPRING_OK && spring_rig_get_world(by_hand, wh, B_COUNT) == SPRING_OK);
		spring_xform2 rr = spring_rig_root(rig), rh = spring_rig_root(by_hand);
		ENSURE_MSG(memcmp(wr, wh, sizeof wr) == 0 && memcmp(&rr, &rh, sizeof rr) == 0, "frame %d", f);
	}
	ENSURE_MSG(teleports == 9, "%d teleports", teleports);
	spring_xform2 root = spring_rig_root(rig), left = spring_rig_root(untold);
	ENSURE_MSG(root.position.x == 1210.0f && root.position.y == -5.0f && root.angle == start.angle, "%.9g, %.9g",
	           (double)root.position.x, (double)root.position.y);
	ENSURE(memcmp(&left, &start, sizeof left) == 0);
	// A snapshot between the update and the call carries the events still to apply; one after it,
	// none.
	const size_t blob_size = spring_rig_snapshot_size(rig);
	unsigned char *blob = malloc(blob_size);
	ENSURE(blob != NULL);
	ENSURE(spring_rig_play(rig, 0, 0.24f) == SPRING_OK && spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	ENSURE(spring_rig_snapshot(rig, blob, blob_size) == SPRING_OK);
	ENSURE(spring_rig_restore(untold, blob, blob_size, NULL) == SPRING_OK);
	ENSURE(spring_rig_apply_events(rig, NULL) == SPRING_OK && spring_rig_apply_events(untold, NULL) == SPRING_OK);
	root = spring_rig_root(rig);
	left = spring_rig_root(untold);
	ENSURE(root.position.x == 1510.0f && memcmp(&root, &left, sizeof root) == 0);
	ENSURE(spring_rig_snapshot(rig, blob, blob_size) == SPRING_OK);
	ENSURE(spring_rig_restore(untold, blob, blob_size, NULL) == SPRING_OK);
	ENSURE(spring_rig_apply_events(untold, NULL) == SPRING_OK && spring_rig_root(untold).position.x == 1510.0f);
	free(blob);
	free(before);
	spring_rig_destroy(rig);
	spring_rig_destroy(by_hand);
	spring_rig_destroy(untold);
	return 0;
}

// All or nothing at the chains' limit, both sides of it: a teleport landing on the farthest root
// spring_rig_check_root takes is applied; one landing on the next float is refused
// (OUT_OF_RANGE), naming the clip, the event and the limit, with the rig byte for byte as it was
// and the events still to apply. At 0.5 s the second teleport is judged from where the first
// leaves the root, and its refusal leaves the first unapplied too.
static int test_apply_events_refused(void)
{
	spring_rig_desc d = teleporting_character();
	size_t size = spring_rig_memory_size(&d);
	unsigned char *mem = aligned_alloc(16, (size + 15) / 16 * 16), *copy = malloc(size);
	ENSURE(mem && copy);
	spring_rig *rig;
	ENSURE(spring_rig_init(&d, mem, size, &rig, NULL) == SPRING_OK);
	const float lo = farthest_root_x(rig);
	const struct {
		float play_at, moved; // the clip time the update starts at; how far along x its teleports take the root
		int event;            // the last teleport of the update (the one refused past the bound)
	} cases[2] = {{0.24f, 300.0f, EV_QUARTER}, {0.49f, 100.0f, EV_HALF_SECOND}};
	for (int c = 0; c < 2; c++) {
		for (int side = 0; side < 2; side++) {
			float x = side == 0 ? lo - cases[c].moved : nextafterf(lo - cases[c].moved, INFINITY);
			ENSURE(spring_rig_teleport(rig, scene_xform2(x, 0.0f, 0.0f)) == SPRING_OK);
			ENSURE(spring_rig_play(rig, 0, cases[c].play_at) == SPRING_OK && spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
			memcpy(copy, mem, size);
			spring_error err;
			spring_result r = spring_rig_apply_events(rig, &err);
			if (side == 0) {
				ENSURE_MSG(r == SPRING_OK && spring_rig_root(rig).position.x == lo && spring_rig_root(rig).position.y == 0.0f,
				           "case %d: %s", c, err.message);
				continue;
			}
			ENSURE_MSG(r == SPRING_ERROR_OUT_OF_RANGE && err.result == r, "case %d: %d", c, (int)r);
			ENSURE(memcmp(copy, mem, size) == 0);
			ENSURE(err.depth == 2 && err.path[0].element == SPRING_ELEMENT_CLIP && err.path[0].index == 0);
			ENSURE(err.path[1].element == SPRING_ELEMENT_EVENT && err.path[1].index == cases[c].event);
			ENSURE(strcmp(err.field, "value") == 0);
			char where[32];
			snprintf(where, sizeof where, "clip 0: event %d: ", cases[c].event);
			ENSURE_MSG(strncmp(err.message, where, strlen(where)) == 0 && strstr(err.message, "of clip \"walk\"") &&
			               strstr(err.message, "carries chain \"ribbon\"") && strstr(err.message, "at most 999000"),
			           "%s", err.message);
			printf("    %s\n", err.message);
			// Not consumed: refused again (no error to fill), the rig still as it was.
			ENSURE(spring_rig_apply_events(rig, NULL) == SPRING_ERROR_OUT_OF_RANGE && memcmp(copy, mem, size) == 0);
		}
	}
	// The next update's events are its own.
	ENSURE(spring_rig_teleport(rig, scene_xform2(0.0f, 0.0f, 0.0f)) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK && spring_rig_apply_events(rig, NULL) == SPRING_OK);
	// NULL.
	spring_error err;
	ENSURE(spring_rig_apply_events(NULL, &err) == SPRING_ERROR_INVALID_ARGUMENT && err.result == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_apply_events(NULL, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	spring_xform2 none = spring_rig_root(NULL), identity = spring_xform2_identity();
	ENSURE(memcmp(&none, &identity, sizeof none) == 0);
	free(copy);
	free(mem);
	return 0;
}

// An update records SPRING_RIG_MAX_UPDATE_EVENTS events: one that crossed teleports past them is
// refused (nothing applied), not applied in part; events past them that are not teleports leave
// the recorded teleports to apply.
static int test_apply_events_past_the_record(void)
{
	spring_rig_bone_desc bones[1] = {{"body", NULL, 10.0f, scene_xform2(0.0f, 0.0f, 0.0f)}};
	enum { TICKS = 100 };
	spring_rig_event ticks[TICKS];
	spring_rig_clip_desc clip = {"buzz", 0.06f, false, 0, NULL, TICKS, ticks};
	spring_rig_desc d = {.bone_count = 1, .bones = bones, .clip_count = 1, .clips = &clip};
	for (int all = 0; all < 2; all++) {
		for (int i = 0; i < TICKS; i++) { // 0.0005 s apart, every one within an update of 8 steps
			const char *name = i == 0 || all ? SPRING_RIG_EVENT_TELEPORT : "tick";
			ticks[i] = (spring_rig_event){0.0005f * (float)(i + 1), name, {1.0f, 0.0f}};
		}
		spring_rig *rig;
		ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK && spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
		ENSURE(spring_rig_update(rig, 8.0f / 120.0f) == SPRING_OK);
		int total = 0;
		ENSURE(spring_rig_get_events(rig, NULL, 0, &total) == 0 && total == TICKS);
		spring_error err;
		spring_result r = spring_rig_apply_events(rig, &err);
		if (all) {
			ENSURE_MSG(r == SPRING_ERROR_OUT_OF_RANGE && strcmp(err.field, "events") == 0 && strstr(err.message, "\"buzz\"") &&
			               strstr(err.message, "36 teleport events") && strstr(err.message, "none applied"),
			           "%s", err.message);
			ENSURE(spring_rig_root(rig).position.x == 0.0f);
		} else {
			ENSURE_MSG(r == SPRING_OK && spring_rig_root(rig).position.x == 1.0f, "%s", err.message);
		}
		spring_rig_destroy(rig);
	}
	return 0;
}

static int test_memory(void)
{
	scene_alloc_counter count = {0};
	spring_allocator a = scene_counting_allocator(&count);
	spring_set_allocator(&a);
	spring_rig_desc d = character(1, 1);
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(count.allocs == 1);
	spring_rig_play(rig, 0, 0.0f);
	for (int f = 0; f < 2000; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	}
	ENSURE(count.allocs == 1);
	count.frees = 0;
	spring_set_allocator(NULL); // destroy must still use the allocator that created the rig
	spring_rig_destroy(rig);
	ENSURE(count.frees == 1);
	size_t size = spring_rig_memory_size(&d);
	ENSURE(size > 0);
	void *mem = aligned_alloc(16, (size + 15) / 16 * 16);
	ENSURE(spring_rig_init(&d, mem, size - 1, &rig, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_init(&d, mem, size, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 0.5f) == SPRING_OK);
	spring_rig_destroy(rig);
	free(mem);
	return 0;
}

// A rig block holds offsets, not pointers: a byte copy of a running rig (a save state, a
// rollback snapshot) keeps running on its own, bit for bit like the original would have.
static int test_block_copy(void)
{
	spring_rig_desc d = character(1, 1);
	size_t size = spring_rig_memory_size(&d);
	ENSURE(size > 0);
	size_t rounded = (size + 15) / 16 * 16;
	unsigned char *a = aligned_alloc(16, rounded), *b = aligned_alloc(16, rounded), *twin_mem = aligned_alloc(16, rounded);
	ENSURE(a && b && twin_mem);
	spring_rig *rig, *twin;
	ENSURE(spring_rig_init(&d, a, size, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_init(&d, twin_mem, size, &twin, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK && spring_rig_play(twin, 0, 0.0f) == SPRING_OK);
	for (int f = 0; f < 90; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK && spring_rig_update(twin, 1.0f / 60.0f) == SPRING_OK);
	}
	memcpy(b, a, size);
	memset(a, 0xA5, size); // the original is gone
	spring_rig *copy = (spring_rig *)(void *)b;
	for (int f = 0; f < 90; f++) {
		float dt = f % 7 == 3 ? 1.0f / 24.0f : 1.0f / 60.0f;
		ENSURE(spring_rig_update(copy, dt) == SPRING_OK && spring_rig_update(twin, dt) == SPRING_OK);
	}
	spring_xform2 wc[B_COUNT], wt[B_COUNT];
	ENSURE(spring_rig_get_world(copy, wc, B_COUNT) == SPRING_OK && spring_rig_get_world(twin, wt, B_COUNT) == SPRING_OK);
	ENSURE(memcmp(wc, wt, sizeof wc) == 0);
	ENSURE(strcmp(spring_rig_bone_name(copy, B_T6), "tail6") == 0);
	// A byte copy of a created rig is not the block create made: destroying it frees nothing.
	scene_alloc_counter count = {0};
	spring_allocator counting = scene_counting_allocator(&count);
	spring_set_allocator(&counting);
	spring_rig *made;
	ENSURE(spring_rig_create(&d, &made, NULL) == SPRING_OK);
	memcpy(b, made, size);
	spring_rig_destroy((spring_rig *)(void *)b);
	ENSURE(count.frees == 0);
	spring_rig_destroy(made);
	ENSURE(count.allocs == 1 && count.frees == 1);
	spring_set_allocator(NULL);
	free(a);
	free(b);
	free(twin_mem);
	return 0;
}

// World transforms stay finite: scales multiply down the hierarchy, so a deep chain of scaled bones
// (40 bones of scale 10, 10 units apart) would overflow float; it is refused at creation, naming the
// first bone that could leave SPRING_RIG_MAX_REACH, and a root that would carry bones past it is
// refused at run time with the rig unchanged.
static int test_reach_stays_finite(void)
{
	enum { N = 40 };
	static char names[N][8];
	spring_rig_bone_desc bones[N];
	memset(bones, 0, sizeof bones);
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "b%d", i);
		bones[i].name = names[i];
		bones[i].parent = i ? names[i - 1] : NULL;
		bones[i].length = 10.0f;
		bones[i].setup = scene_xform2(i ? 10.0f : 0.0f, 0.0f, 0.0f);
		bones[i].setup.scale = spring_vec2_make(10.0f, 10.0f);
	}
	spring_rig_desc d = {0};
	d.bones = bones;
	d.bone_count = N;
	spring_rig *rig = NULL;
	spring_error err;
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_ERROR_OUT_OF_RANGE && rig == NULL);
	spring_error_step at = spring_error_innermost(&err);
	// Bone 9's tip is about 1.1e11 units out; bone 10 (scale 1e11, length 10) passes 1e12.
	ENSURE_MSG(at.element == SPRING_ELEMENT_BONE && at.index == 10, "%s", err.message);
	// The same rig ten bones deep is fine, and runs finite.
	d.bone_count = 10;
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 0.1f) == SPRING_OK);
	spring_xform2 w[N];
	ENSURE(spring_rig_get_world(rig, w, N) == SPRING_OK);
	for (int i = 0; i < 10; i++) {
		ENSURE(spring_is_finite(w[i].position.x) && spring_is_finite(w[i].scale.x));
	}
	// A root scale that would carry its tips past the reach is refused, and nothing changes.
	spring_xform2 big = scene_xform2(0.0f, 0.0f, 0.0f);
	big.scale = spring_vec2_make(10.0f, 10.0f);
	ENSURE(spring_rig_set_root(rig, big) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_rig_teleport(rig, big) == SPRING_ERROR_OUT_OF_RANGE);
	big.scale = spring_vec2_make(0.5f, 0.5f); // halves the reach: fine
	ENSURE(spring_rig_set_root(rig, big) == SPRING_OK && spring_rig_update(rig, 0.1f) == SPRING_OK);
	spring_rig_destroy(rig);
	// Scale keys count too: a clip that scales bone 0 by 1e3 makes a 9-bone rig too big.
	spring_rig_key keys[2] = {{0.0f, {1.0f, 1.0f}, SPRING_RIG_CURVE_LINEAR, {0}},
	                          {1.0f, {1e3f, 1e3f}, SPRING_RIG_CURVE_LINEAR, {0}}};
	spring_rig_track track = {"b0", SPRING_RIG_TRACK_SCALE, 2, keys};
	spring_rig_clip_desc clip = {"grow", 1.0f, false, 1, &track, 0, NULL};
	d.clips = &clip;
	d.clip_count = 1;
	d.bone_count = 9;
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_ERROR_OUT_OF_RANGE);
	d.clip_count = 0;
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_OK);
	spring_rig_destroy(rig);
	return 0;
}

// Every count in range, the keys of all tracks together too many: 64 clips x 1,024 tracks (342
// bones, a rotate, translate and scale track each) x 65,536 keys (one key array per kind) is 2^32
// keys, which an int sum wrapped to 0 (memory size 1.1 MB, create wrote out of bounds). Refused
// before a key is looked at; the limit itself is accepted and sized in full.
static int test_total_keys_bound(void)
{
	enum { PER_TRACK = SPRING_RIG_MAX_KEYS, TRACKS = 1024, CLIPS = SPRING_RIG_MAX_CLIPS, BONES = (TRACKS + 2) / 3 };
	static spring_rig_key keys[3][PER_TRACK];
	static spring_rig_track tracks[TRACKS + 1];
	static spring_rig_clip_desc clips[CLIPS];
	static char clip_names[CLIPS][8];
	static spring_rig_bone_desc bones[BONES];
	static char bone_names[BONES][8];
	for (int k = 0; k < PER_TRACK; k++) {
		for (int kind = 0; kind < 3; kind++) {
			float v = kind == SPRING_RIG_TRACK_SCALE ? 1.0f : 0.0f;
			keys[kind][k] = (spring_rig_key){(float)k / PER_TRACK, {v, v}, SPRING_RIG_CURVE_LINEAR, {0}};
		}
	}
	for (int b = 0; b < BONES; b++) {
		snprintf(bone_names[b], sizeof bone_names[b], "b%d", b);
		bones[b] = (spring_rig_bone_desc){0};
		bones[b].name = bone_names[b];
		bones[b].length = 1.0f;
		bones[b].setup = scene_xform2(0, 0, 0);
	}
	for (int t = 0; t <= TRACKS; t++) {
		int kind = t % 3;
		tracks[t] = (spring_rig_track){bone_names[t / 3 % BONES], (spring_rig_track_type)kind, PER_TRACK, keys[kind]};
	}
	for (int c = 0; c < CLIPS; c++) {
		snprintf(clip_names[c], sizeof clip_names[c], "c%d", c);
		clips[c] = (spring_rig_clip_desc){clip_names[c], 1.0f, 0, TRACKS, tracks, 0, NULL};
	}
	spring_rig_desc d = {0};
	d.bone_count = BONES;
	d.bones = bones;
	d.clip_count = CLIPS;
	d.clips = clips;
	d.root = scene_xform2(0, 0, 0);
	spring_rig *rig = NULL;
	spring_error err;
	ENSURE(spring_rig_memory_size(&d) == 0);
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_ERROR_OUT_OF_RANGE && rig == NULL);
	ENSURE_MSG(strstr(err.message, "16777216") != NULL, "%s", err.message);
	// The limit reached: 256 tracks of 65,536 keys in one clip (2^24 keys, 512 MiB of them).
	d.clip_count = 1;
	clips[0].track_count = SPRING_RIG_MAX_TOTAL_KEYS / PER_TRACK;
	size_t size = spring_rig_memory_size(&d);
	ENSURE_MSG(spring_rig_init(&d, NULL, 0, &rig, &err) == SPRING_ERROR_INVALID_ARGUMENT && strstr(err.message, "bytes"), "%s",
	           err.message);
	ENSURE_MSG(size >= (size_t)SPRING_RIG_MAX_TOTAL_KEYS * sizeof(spring_rig_key), "%zu: %s", size, err.message);
	// One key past it, in a second clip.
	tracks[TRACKS].key_count = 1;
	clips[1] = (spring_rig_clip_desc){"c1", 1.0f, 0, 1, &tracks[TRACKS], 0, NULL};
	d.clip_count = 2;
	ENSURE(spring_rig_memory_size(&d) == 0);
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_ERROR_OUT_OF_RANGE && rig == NULL);
	ENSURE_MSG(spring_error_innermost(&err).element == SPRING_ELEMENT_CLIP && spring_error_innermost(&err).index == 1, "%s",
	           err.message);
	return 0;
}

// A rig never gets stuck: its chains take coordinates only up to SPRING_CHAIN_MAX_COORDINATE, so a
// rig with chains is placed only where every chain bone stays within SPRING_RIG_CHAIN_MAX_REACH.
// Before, set_root took a root 2e6 units out (within the 1e12 reach) and every later update
// returned OUT_OF_RANGE while advancing the clock, the clip and the bones.
static int test_placement_within_chains(void)
{
	spring_rig_desc d = character(1, 1);
	size_t size = spring_rig_memory_size(&d);
	unsigned char *mem = aligned_alloc(16, (size + 15) / 16 * 16), *copy = malloc(size);
	ENSURE(mem && copy);
	spring_rig *rig;
	ENSURE(spring_rig_init(&d, mem, size, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	for (int f = 0; f < 30; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	}
	// 2e6 units out: refused by set_root and teleport, nothing changed, the chain and limit named.
	memcpy(copy, mem, size);
	spring_xform2 far = scene_xform2(2e6f, 0.0f, 0.0f);
	ENSURE(spring_rig_set_root(rig, far) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_rig_teleport(rig, far) == SPRING_ERROR_OUT_OF_RANGE);
	spring_error err;
	ENSURE(spring_rig_check_root(rig, far, &err) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE_MSG(strstr(err.message, "\"tail\"") && strstr(err.message, "999000"), "%s", err.message);
	ENSURE(strcmp(err.field, "root") == 0);
	ENSURE(memcmp(copy, mem, size) == 0);
	ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	// The bound on both sides: the farthest root along x that is taken, and the next float refused.
	float lo = farthest_root_x(rig), hi = nextafterf(lo, INFINITY);
	ENSURE_MSG(lo > 9e5f && lo < (float)SPRING_RIG_CHAIN_MAX_REACH, "%.9g", (double)lo);
	ENSURE(spring_rig_set_root(rig, scene_xform2(hi, 0.0f, 0.0f)) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_rig_teleport(rig, scene_xform2(lo, 0.0f, 0.0f)) == SPRING_OK);
	// At the limit, walking (clip translations included) and turning, every update steps.
	for (int f = 0; f < 600; f++) {
		spring_xform2 root = scene_xform2(lo, 0.0f, (float)f * 0.05f);
		ENSURE(spring_rig_set_root(rig, root) == SPRING_OK);
		ENSURE_MSG(spring_rig_update(rig, f % 9 == 4 ? 0.1f : 1.0f / 60.0f) == SPRING_OK, "frame %d", f);
	}
	spring_xform2 w[B_COUNT];
	ENSURE(spring_rig_get_world(rig, w, B_COUNT) == SPRING_OK);
	for (int i = 0; i < B_COUNT; i++) {
		ENSURE(spring_is_finite(w[i].position.x) && fabsf(w[i].position.x) <= SPRING_CHAIN_MAX_COORDINATE);
	}
	// Decelerating onto the limit and back (a parabola whose top, half a frame after a frame's
	// end, is 1,500 units past the limit while every frame's root is within it): the placement's
	// path between those two roots would leave the limit, by more than the 1,000 units the chains
	// keep beyond it (it reaches the top: checked on a copy), so those steps take the straight
	// line, and every update steps.
	ENSURE(spring_rig_teleport(rig, scene_xform2(lo - 2e5f, 0.0f, 0.0f)) == SPRING_OK);
	bool beyond = false;
	for (int f = 26; f <= 36; f++) {
		const double top = 30.5 / 60.0, t = f / 60.0;
		const float x = (float)((double)lo + 1500.0 - 1600.0 * 14400.0 * (t - top) * (t - top));
		ENSURE_MSG(x <= lo, "frame %d: %.9g", f, (double)x);
		ENSURE(spring_rig_set_root(rig, scene_xform2(x, 0.0f, 0.0f)) == SPRING_OK);
		ENSURE_MSG(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK, "frame %d", f);
		if (f == 31) {
			spring_chain2d_path path = rig->root_path;
			spring_xform2 at_top = spring_chain2d_internal_path_at(&path, -0.5 / 60.0);
			beyond = at_top.position.x > lo + 1400.0f && spring_rig_check_root(rig, at_top, NULL) == SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	ENSURE(beyond);
	// A refused update changes nothing, whatever refuses it: a root from elsewhere (a block
	// written by hand) 2e6 units out is refused before the clock, the clip or a bone moves.
	rig->root_input = far;
	memcpy(copy, mem, size);
	ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_rig_update(rig, NAN) == SPRING_ERROR_NOT_FINITE);
	ENSURE(memcmp(copy, mem, size) == 0);
	free(copy);
	free(mem);
	// A description placed past the chains' limit is refused at creation, naming the chain; the
	// same rig without chains goes up to SPRING_RIG_MAX_REACH.
	d.root = far;
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE_MSG(strstr(err.message, "\"tail\"") && strstr(err.message, "999000"), "%s", err.message);
	d.root = scene_xform2(lo, 0.0f, 0.0f);
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 0.5f) == SPRING_OK);
	spring_rig_destroy(rig);
	d = character(1, 0);
	d.root = far;
	ENSURE(spring_rig_create(&d, &rig, &err) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 0.5f) == SPRING_OK);
	ENSURE(spring_rig_set_root(rig, scene_xform2(9e11f, 0.0f, 0.0f)) == SPRING_OK);
	ENSURE(spring_rig_set_root(rig, scene_xform2(1e12f, 0.0f, 0.0f)) == SPRING_ERROR_OUT_OF_RANGE);
	spring_rig_destroy(rig);
	return 0;
}

// Validating a description costs work linear in its size: every bone reference is found through
// a name index built once (rig_refs.name_compares counts the string comparisons). Four times the
// bones and four times the tracks per clip: about four times the comparisons (they were
// bones x tracks for the reach check alone, 64 times as many here, and tracks^2 for duplicates).
static int count_name_compares(int bones, int tracks, unsigned long *out)
{
	static spring_rig_bone_desc b[SPRING_RIG_MAX_BONES];
	static char names[SPRING_RIG_MAX_BONES][16];
	static spring_rig_track tr[SPRING_RIG_MAX_TRACKS];
	static spring_rig_clip_desc clips[4];
	static const spring_rig_key key[3] = {{0.0f, {0.0f, 0.0f}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                      {0.0f, {1.0f, 0.0f}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                      {0.0f, {1.0f, 1.0f}, SPRING_RIG_CURVE_LINEAR, {0}}};
	for (int i = 0; i < bones; i++) {
		snprintf(names[i], sizeof names[i], "b%d", i);
		b[i] = (spring_rig_bone_desc){0};
		b[i].name = names[i];
		b[i].parent = i ? names[i - 1] : NULL;
		b[i].length = 1.0f;
		b[i].setup = scene_xform2(i ? 1.0f : 0.0f, 0.0f, 0.0f);
	}
	for (int t = 0; t < tracks; t++) {
		tr[t] = (spring_rig_track){names[t / 3 % bones], (spring_rig_track_type)(t % 3), 1, &key[t % 3]};
	}
	for (int c = 0; c < 4; c++) {
		clips[c] = (spring_rig_clip_desc){c == 0 ? "c0" : c == 1 ? "c1" : c == 2 ? "c2" : "c3", 1.0f, 0, tracks, tr, 0, NULL};
	}
	spring_rig_desc d = {0};
	d.bone_count = bones;
	d.bones = b;
	d.clip_count = 4;
	d.clips = clips;
	rig_refs refs;
	ENSURE(spring_rig_internal_validate(&d, &refs, NULL) == SPRING_OK);
	*out = refs.name_compares;
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	spring_rig_destroy(rig);
	return 0;
}

static int test_validation_linear(void)
{
	unsigned long one = 0, four = 0;
	ENSURE(count_name_compares(86, 256, &one) == 0 && count_name_compares(344, 1024, &four) == 0);
	printf("    %lu name comparisons, then %lu for four times the description (x%.2f)\n", one, four, (double)four / (double)one);
	ENSURE(one >= 86 + 4 * 256); // every reference is looked up
	ENSURE_MSG((double)four <= 8.0 * (double)one, "%lu then %lu", one, four);
	return 0;
}

// Every enum of a rig description is refused at its _COUNT (INVALID_ARGUMENT, naming the field)
// and taken at its last value: a track's type, a key's curve, an IK's type, a chain's type.
static int test_enum_counts(void)
{
	spring_rig *rig = NULL;
	spring_error e;
	for (int which = 0; which < 4; which++) {
		for (int past = 0; past < 2; past++) {
			spring_rig_desc d = character(1, 1);
			const char *field = "type";
			switch (which) {
			case 0: // the still clip's track, as a scale of 1
				g_keys[3][0].value[0] = 1.0f;
				g_keys[3][0].value[1] = 1.0f;
				g_tracks[3].type = past ? SPRING_RIG_TRACK_COUNT : SPRING_RIG_TRACK_SCALE;
				break;
			case 1:
				g_keys[1][1].curve = past ? SPRING_RIG_CURVE_COUNT : SPRING_RIG_CURVE_BEZIER;
				g_keys[1][1].bezier[2] = 1.0f;
				g_keys[1][1].bezier[3] = 1.0f;
				field = "curve";
				break;
			case 2: g_iks[0].type = past ? SPRING_RIG_IK_COUNT : SPRING_RIG_IK_CCD; break;
			default: g_chains[1].type = past ? SPRING_RIG_CHAIN_COUNT : SPRING_RIG_CHAIN_TIP; break;
			}
			spring_result r = spring_rig_create(&d, &rig, &e);
			if (past) {
				ENSURE_MSG(r == SPRING_ERROR_INVALID_ARGUMENT && strcmp(e.field, field) == 0, "case %d: %d %s", which, r,
				           e.message);
			} else {
				ENSURE_MSG(r == SPRING_OK, "case %d: %s", which, e.message);
				spring_rig_destroy(rig);
			}
		}
	}
	return 0;
}

static int test_bad_definitions(void)
{
	typedef struct {
		const char *name;
		int what;
		spring_result expect;
		const char *kind, *field;
		int index;
	} bad;
	const bad cases[] = {
		{"duplicate bone name", 0, SPRING_ERROR_BAD_DEFINITION, "bone", "name", 3},
		{"parent after child", 1, SPRING_ERROR_BAD_DEFINITION, "bone", "parent", 2},
		{"self parent", 2, SPRING_ERROR_BAD_DEFINITION, "bone", "parent", 4},
		{"negative length", 3, SPRING_ERROR_OUT_OF_RANGE, "bone", "length", 5},
		{"NaN setup", 4, SPRING_ERROR_NOT_FINITE, "bone", "setup", 6},
		{"empty name", 5, SPRING_ERROR_INVALID_ARGUMENT, "bone", "name", 1},
		{"keys not increasing", 6, SPRING_ERROR_BAD_DEFINITION, "key", "time", 1},
		{"bezier x out of range", 7, SPRING_ERROR_OUT_OF_RANGE, "key", "bezier[0]", 0},
		{"track bone missing", 8, SPRING_ERROR_BAD_DEFINITION, "track", "bone", 2},
		{"clip duration 0", 9, SPRING_ERROR_OUT_OF_RANGE, "clip", "duration", 1},
		{"two-bone IK not parent/child", 10, SPRING_ERROR_BAD_DEFINITION, "ik", "last", 0},
		{"IK mix 2", 11, SPRING_ERROR_OUT_OF_RANGE, "ik", "mix", 0},
		{"chains overlap", 12, SPRING_ERROR_BAD_DEFINITION, "chain", "", 1},
		{"chain not linked", 13, SPRING_ERROR_BAD_DEFINITION, "chain", "last", 0},
		{"chain negative damping", 14, SPRING_ERROR_OUT_OF_RANGE, "chain", "params", 1},
		{"chain limit 4 rad", 15, SPRING_ERROR_OUT_OF_RANGE, "chain", "limit", 0},
		{"colliders on angle chain", 16, SPRING_ERROR_BAD_DEFINITION, "chain", "colliders", 0},
		{"NaN root", 17, SPRING_ERROR_NOT_FINITE, "rig", "root", -1},
		{"IK target moved by its own solve", 18, SPRING_ERROR_BAD_DEFINITION, "ik", "target", 0},
		{"chain on a zero-length bone", 19, SPRING_ERROR_BAD_DEFINITION, "chain", "", 1},
		{"duplicate track", 20, SPRING_ERROR_BAD_DEFINITION, "track", "", 1},
		{"events out of order", 21, SPRING_ERROR_BAD_DEFINITION, "event", "time", 1},
		{"event after the clip's end", 22, SPRING_ERROR_OUT_OF_RANGE, "event", "time", 1},
		{"parent cycle", 23, SPRING_ERROR_BAD_DEFINITION, "bone", "parent", 2},
		{"tip chain collider radius", 24, SPRING_ERROR_OUT_OF_RANGE, "collider", "radius", 0},
		{"one zero scale", 25, SPRING_ERROR_OUT_OF_RANGE, "bone", "setup", 7},
		{"IK target is its own bone", 26, SPRING_ERROR_BAD_DEFINITION, "ik", "target", 0},
		{"IK without a name", 27, SPRING_ERROR_INVALID_ARGUMENT, "ik", "name", 0},
		{"chain without a first bone", 28, SPRING_ERROR_INVALID_ARGUMENT, "chain", "first", 1},
		{"bone gravity on an angle chain", 29, SPRING_ERROR_BAD_DEFINITION, "chain", "bone_gravity", 1},
		{"bone gravity, one entry short", 30, SPRING_ERROR_OUT_OF_RANGE, "chain", "bone_gravity", 1},
		{"bone gravity NaN", 31, SPRING_ERROR_NOT_FINITE, "chain", "bone_gravity", 1},
		{"bone gravity past 1e9", 32, SPRING_ERROR_OUT_OF_RANGE, "chain", "bone_gravity", 1},
		{"bone gravity count without entries", 33, SPRING_ERROR_OUT_OF_RANGE, "chain", "bone_gravity", 1},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const bad *c = &cases[k];
		spring_rig_desc d = character(1, 1);
		spring_rig_key bad_keys[2] = {{0.5f, {0, 0}, SPRING_RIG_CURVE_LINEAR, {0}}, {0.5f, {1, 0}, SPRING_RIG_CURVE_LINEAR, {0}}};
		spring_rig_key bad_bez[2] = {{0.0f, {0, 0}, SPRING_RIG_CURVE_BEZIER, {1.5f, 0, 0.5f, 1}},
		                             {1.0f, {1, 0}, SPRING_RIG_CURVE_LINEAR, {0}}};
		spring_chain_collider col = {SPRING_CHAIN_COLLIDER_SPHERE, {0, 0, 0}, {0, 0, 0}, 5.0f};
		spring_vec2 pulls[3] = {{0.0f, -50.0f}, {0.0f, -50.0f}, {0.0f, -50.0f}};
		if (c->what >= 29) {
			g_chains[1].type = c->what == 29 ? SPRING_RIG_CHAIN_ANGLE : SPRING_RIG_CHAIN_TIP;
			g_chains[1].bone_gravity_count = c->what == 30 ? 2 : 3;
			g_chains[1].bone_gravity = c->what == 33 ? NULL : pulls;
			pulls[2].x = c->what == 31 ? NAN : c->what == 32 ? -nextafterf(SPRING_CHAIN_MAX_ACCELERATION, INFINITY) : 0.0f;
		}
		switch (c->what) {
		case 0: g_bones[3].name = "tail1"; break;
		case 1: g_bones[2].parent = bone(7); break;
		case 2: g_bones[4].parent = bone(4); break;
		case 3: g_bones[5].length = -2.0f; break;
		case 4: g_bones[6].setup.angle = NAN; break;
		case 5: g_bones[1].name = ""; break;
		// clang-format off
		case 6: g_tracks[0].keys = bad_keys; g_tracks[0].key_count = 2; break;
		case 7: g_tracks[1].keys = bad_bez; g_tracks[1].key_count = 2; break;
		// clang-format on
		case 8: g_tracks[2].bone = "hnad"; break;
		case 9: g_clips[1].duration = 0.0f; break;
		case 10: g_iks[0].last = bone(B_R1); break;
		case 11: g_iks[0].mix = 2.0f; break;
		// clang-format off
		case 12: g_chains[1].first = bone(B_T5); g_chains[1].last = bone(B_T6); break;
		case 13: g_chains[0].first = bone(B_T6); g_chains[0].last = bone(B_T1); break;
		// clang-format on
		case 14: g_chains[1].params = (spring_params){10.0f, -1.0f, 1.0f}; break;
		case 15: g_chains[0].limit = 4.0f; break;
		case 16:
			g_chains[0].collider_count = 1;
			g_chains[0].colliders = &col;
			break;
		case 17: d.root.position.x = NAN; break;
		case 18: g_iks[0].target = bone(B_R2); break; // hangs from the forearm the IK turns
		case 19: g_bones[B_R2].length = 0.0f; break;
		case 20: g_tracks[1].type = SPRING_RIG_TRACK_TRANSLATE; break;
		case 21:
			g_events[1].time = 0.0f;
			g_events[0].time = 0.25f;
			break;
		case 22: g_events[1].time = 1.5f; break;
		case 23: g_bones[2].parent = bone(3); break; // tail1 -> tail2 -> tail1
		case 24:
			g_chains[1].type = SPRING_RIG_CHAIN_TIP;
			col.radius = -1.0f;
			g_chains[1].collider_count = 1;
			g_chains[1].colliders = &col;
			break;
		case 25: g_bones[7].setup.scale = spring_vec2_make(0.0f, 2.0f); break;
		case 26: g_iks[0].target = bone(B_FORE); break;
		case 27: g_iks[0].name = NULL; break;
		case 28: g_chains[1].first = NULL; break;
		}
		spring_error err;
		spring_rig *rig = (spring_rig *)(uintptr_t)0x1;
		spring_result r = spring_rig_create(&d, &rig, &err);
		ENSURE_MSG(r == c->expect, "%s: got %s (%s)", c->name, spring_result_string(r), err.message);
		spring_error_step at = spring_error_innermost(&err);
		const char *kind = err.depth ? spring_element_name(at.element) : err.object;
		ENSURE_MSG(at.index == c->index && strcmp(err.field, c->field) == 0 && strcmp(kind, c->kind) == 0, "%s: %s %d '%s' '%s'",
		           c->name, kind, at.index, err.field, err.message);
		ENSURE(rig == (spring_rig *)(uintptr_t)0x1);
		if (c->what == 8) { // "hnad": did you mean "hand"? no such bone here; "target" is not close either
			ENSURE(err.other.element == SPRING_ELEMENT_NONE && strstr(err.message, "unknown bone \"hnad\"") != NULL);
		}
		if (c->what == 1) { // a parent listed later: the other element is that parent
			ENSURE(err.other.element == SPRING_ELEMENT_BONE && err.other.index == 7);
		}
		// The message starts with the location, outermost first ("chain 1: collider 0: ").
		char where[128] = "rig: ";
		for (int i = 0, used = 0; i < err.depth; i++) { // "clip 0: track 1: key 0: "
			used += snprintf(where + (i ? used : 0), sizeof where - (size_t)used,
			                 "%s %d: ", spring_element_name(err.path[i].element), err.path[i].index);
		}
		ENSURE_MSG(strncmp(err.message, where, strlen(where)) == 0, "%s: '%s'", c->name, err.message);
		// The reason is the message without its location, for readers that put their own in front.
		ENSURE_MSG(spring_error_reason(&err) == err.message + strlen(where) && spring_error_reason(&err)[0] != '\0',
		           "%s: reason '%s'", c->name, spring_error_reason(&err));
		ENSURE(spring_rig_memory_size(&d) == 0);
	}
	// Bad runtime input changes nothing.
	spring_rig_desc d = character(1, 1);
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_update(rig, NAN) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_rig_update(rig, -0.1f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_rig_play(rig, 7, 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_set_root(rig, scene_xform2(INFINITY, 0, 0)) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_rig_teleport(rig, scene_xform2(0, NAN, 0)) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_rig_set_chain_mix(rig, 9, 0.5f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK && spring_rig_update(rig, 0.2f) == SPRING_OK);
	// Each refused call leaves the whole block as it was, byte for byte.
	size_t size = spring_rig_memory_size(&d);
	unsigned char *before = malloc(size);
	ENSURE(before != NULL);
	memcpy(before, rig, size);
	const spring_result nf = SPRING_ERROR_NOT_FINITE, oor = SPRING_ERROR_OUT_OF_RANGE;
	const float nonfinite[] = {NAN, INFINITY, -INFINITY};
	for (int k = 0; k < 3; k++) {
		ENSURE(spring_rig_set_chain_mix(rig, 0, nonfinite[k]) == nf);
		ENSURE(spring_rig_set_ik_mix(rig, 0, nonfinite[k]) == nf);
		ENSURE(spring_rig_play(rig, 1, nonfinite[k]) == nf);
		ENSURE(spring_rig_set_ik_target(rig, 0, spring_vec2_make(nonfinite[k], 0.0f)) == nf);
		ENSURE(spring_rig_set_ik_target(rig, 0, spring_vec2_make(0.0f, nonfinite[k])) == nf);
		ENSURE(spring_rig_set_time_scale(rig, nonfinite[k]) == nf);
		ENSURE(spring_rig_set_root(rig, scene_xform2(0.0f, 0.0f, nonfinite[k])) == nf);
		ENSURE(memcmp(before, rig, size) == 0);
	}
	ENSURE(spring_rig_set_chain_mix(rig, 1, 1.5f) == oor && spring_rig_set_chain_mix(rig, 1, -0.25f) == oor);
	ENSURE(spring_rig_set_ik_mix(rig, 0, 1.0001f) == oor && spring_rig_set_time_scale(rig, -1.0f) == oor);
	ENSURE(memcmp(before, rig, size) == 0);
	// The bounds themselves are accepted.
	ENSURE(spring_rig_set_chain_mix(rig, 1, 0.0f) == SPRING_OK && spring_rig_set_chain_mix(rig, 1, 1.0f) == SPRING_OK);
	ENSURE(spring_rig_set_ik_target(rig, 0, spring_vec2_make(1.0f, 2.0f)) == SPRING_OK);
	ENSURE(spring_rig_clear_ik_target(rig, 0) == SPRING_OK &&
	       spring_rig_clear_ik_target(rig, 3) == SPRING_ERROR_INVALID_ARGUMENT);
	free(before);
	ENSURE(spring_rig_chain_count(rig) == 2 && strcmp(spring_rig_chain_name(rig, 1), "ribbon") == 0);
	int cb[8];
	ENSURE(spring_rig_chain_bones(rig, 0, cb, 8) == 6 && cb[0] == B_T1 && cb[5] == B_T6);
	ENSURE(spring_rig_update(rig, 1e30f) == SPRING_OK); // a hitch: capped, not refused
	spring_xform2 w[B_COUNT];
	ENSURE(spring_rig_get_world(rig, w, B_COUNT) == SPRING_OK);
	for (int i = 0; i < B_COUNT; i++) {
		ENSURE(spring_is_finite(w[i].position.x) && spring_is_finite(w[i].angle));
	}
	spring_rig_destroy(rig);
	return 0;
}

#define SPRING_TEST_GOLDEN_RIG 0x31a9dc3cf4b82d3dull

static int test_determinism_golden(void)
{
	spring_rig_desc d = character(1, 1);
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	uint64_t h = SPRING_HASH_INIT;
	for (int f = 0; f < 300; f++) {
		ENSURE(spring_rig_set_root(rig, scene_xform2((float)f, 0.0f, 0.001f * (float)f)) == SPRING_OK);
		ENSURE(spring_rig_update(rig, f % 7 == 0 ? 0.031f : 1.0f / 60.0f) == SPRING_OK);
		spring_xform2 w[B_COUNT];
		ENSURE(spring_rig_get_world(rig, w, B_COUNT) == SPRING_OK);
		h = spring_hash(h, w, sizeof w);
	}
	spring_rig_destroy(rig);
	printf("  rig determinism hash %016llx\n", (unsigned long long)h);
	ENSURE(h == SPRING_TEST_GOLDEN_RIG);
	return 0;
}

// Snapshots: the whole rig (clip time, clock, inputs and its chains) restored from a blob taken
// mid-run replays the rest bit for bit over 10,000 steps with hitches, teleports, resets and mix
// changes, in another rig of the same description; a blob of another rig is refused.
static int rig_script(spring_rig *rig, int frame, uint32_t *seed, uint64_t *hash)
{
	float dt = frame % 900 == 450 ? 0.3f : (float)(0.004 + 0.03 * spring_random_unit(seed));
	double t = frame / 60.0;
	spring_xform2 root = scene_xform2((float)(40.0 * spring_det_sin(0.7 * t)), 0.0f, (float)(0.2 * spring_det_sin(0.5 * t)));
	ENSURE(spring_rig_set_root(rig, root) == SPRING_OK);
	if (frame % 1700 == 800) {
		root.position.x += 300.0f;
		ENSURE(spring_rig_teleport(rig, root) == SPRING_OK);
	}
	if (frame % 2300 == 1100) {
		ENSURE(spring_rig_reset(rig) == SPRING_OK);
		ENSURE(spring_rig_set_chain_mix(rig, 1, (float)(frame % 10) / 10.0f) == SPRING_OK);
	}
	ENSURE(spring_rig_update(rig, dt) == SPRING_OK);
	spring_xform2 w[B_COUNT];
	ENSURE(spring_rig_get_world(rig, w, B_COUNT) == SPRING_OK);
	*hash = spring_hash(*hash, w, sizeof w);
	return 0;
}

static int test_snapshot_replays_bit_for_bit(void)
{
	spring_rig_desc d = character(1, 1);
	spring_rig *a, *b;
	ENSURE(spring_rig_create(&d, &a, NULL) == SPRING_OK && spring_rig_create(&d, &b, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(a, 0, 0.0f) == SPRING_OK);
	uint32_t seed = 5u;
	uint64_t ignored = SPRING_HASH_INIT, original = SPRING_HASH_INIT, replayed = SPRING_HASH_INIT;
	for (int f = 0; f < 2500; f++) {
		ENSURE(rig_script(a, f, &seed, &ignored) == 0);
	}
	size_t size = spring_rig_snapshot_size(a);
	unsigned char *blob = malloc(size);
	ENSURE(blob != NULL && spring_rig_snapshot(a, blob, size) == SPRING_OK);
	uint32_t seed_at = seed;
	for (int f = 2500; f < 10000; f++) {
		ENSURE(rig_script(a, f, &seed, &original) == 0);
	}
	ENSURE(spring_rig_restore(b, blob, size, NULL) == SPRING_OK);
	seed = seed_at;
	for (int f = 2500; f < 10000; f++) {
		ENSURE(rig_script(b, f, &seed, &replayed) == 0);
	}
	ENSURE(replayed == original);
	// A rig of another description (no IK, no chains) refuses the blob.
	spring_rig_desc other_desc = character(0, 0);
	spring_rig *other;
	ENSURE(spring_rig_create(&other_desc, &other, NULL) == SPRING_OK);
	ENSURE(spring_rig_restore(other, blob, size, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	free(blob);
	spring_rig_destroy(other);
	spring_rig_destroy(a);
	spring_rig_destroy(b);
	return 0;
}

// Exact rest: on a held pose every chain lands exactly (velocity zero) and reports it; moving
// the root wakes them; no chains at all is "resting".
static int test_rig_comes_to_rest(void)
{
	spring_rig_desc d = character(0, 1);
	spring_rig *rig;
	ENSURE(spring_rig_create(&d, &rig, NULL) == SPRING_OK);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 0.5f) == SPRING_OK);
	ENSURE(!spring_rig_is_resting(rig));                // walking
	ENSURE(spring_rig_play(rig, 1, 0.0f) == SPRING_OK); // hold still
	int frames = 0;
	while (!spring_rig_is_resting(rig) && frames < 60 * 120) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
		frames++;
	}
	ENSURE_MSG(spring_rig_is_resting(rig), "not at rest after %d frames", frames);
	printf("    at rest after %.2f s\n", frames / 60.0);
	ENSURE(spring_rig_chain_is_resting(rig, 0) && spring_rig_chain_is_resting(rig, 1) && !spring_rig_chain_is_resting(rig, 2));
	spring_xform2 w1[B_COUNT], w2[B_COUNT];
	ENSURE(spring_rig_get_stepped_world(rig, w1, B_COUNT) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 1.0f) == SPRING_OK && spring_rig_is_resting(rig));
	ENSURE(spring_rig_get_stepped_world(rig, w2, B_COUNT) == SPRING_OK);
	ENSURE(memcmp(w1, w2, sizeof w1) == 0); // exactly still
	ENSURE(spring_rig_set_root(rig, scene_xform2(30.0f, 0.0f, 0.0f)) == SPRING_OK);
	ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK && !spring_rig_is_resting(rig));
	spring_rig_destroy(rig);
	spring_rig_desc none = character(0, 0);
	ENSURE(spring_rig_create(&none, &rig, NULL) == SPRING_OK && spring_rig_is_resting(rig));
	spring_rig_destroy(rig);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "rates") == 0) {
		// The walk's tail at each rate against an 8 kHz run, % of the tail's length.
		const float inertias[] = {0.0f, 0.5f, 1.0f}, rates[] = {24.0f, 30.0f, 60.0f, 144.0f, 240.0f, 1000.0f, 0.0f};
		for (int k = 0; k < 3; k++) {
			spring_vec2 ref[CHECKS], ref4[CHECKS], run[CHECKS];
			(void)envelope_run_at(8000.0f, inertias[k], 0.0, 0.0, ref);
			(void)envelope_run_at(4000.0f, inertias[k], 0.0, 0.0, ref4);
			printf("inertia %g (0: default), 24 30 60 144 240 1000 jitter:", (double)inertias[k]);
			for (int f = 0; f < 7; f++) {
				(void)envelope_run_at(rates[f], inertias[k], 0.0, 0.0, run);
				printf(" %.3f", 100.0 * worst_of(run, ref));
			}
			printf(" | 4 kHz %.4f\n", 100.0 * worst_of(ref4, ref));
		}
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "far") == 0) {
		const double offsets[] = {4e3, 4e4, 4e5};
		const float inertias[] = {0.0f, 1.0f};
		for (int k = 0; k < 2; k++) {
			spring_vec2 at0[CHECKS], run[CHECKS];
			(void)envelope_run_at(60.0f, inertias[k], 0.0, 0.0, at0);
			printf("inertia %g (0: default):", (double)inertias[k]);
			for (int o = 0; o < 3; o++) {
				if (envelope_run_at(60.0f, inertias[k], offsets[o], -offsets[o] / 8.0, run) != 0) {
					printf(" (failed)");
				}
				printf(" %g: %.2e;", offsets[o], worst_of(run, at0));
			}
			printf("\n");
		}
		return 0;
	}
	TEST_INIT(argc, argv);
	RUN_TEST(test_springs_layer_after_ik);
	RUN_TEST(test_envelope_across_frame_rates);
	RUN_TEST(test_steps_follow_the_placement_path);
	RUN_TEST(test_far_from_the_origin);
	RUN_TEST(test_two_bone_ik);
	RUN_TEST(test_rig_ik);
	RUN_TEST(test_keyframes_and_bezier);
	RUN_TEST(test_pause_and_time_scale);
	RUN_TEST(test_teleport_and_reset);
	RUN_TEST(test_tip_chain_bone_gravity);
	RUN_TEST(test_events);
	RUN_TEST(test_apply_events);
	RUN_TEST(test_apply_events_refused);
	RUN_TEST(test_apply_events_past_the_record);
	RUN_TEST(test_memory);
	RUN_TEST(test_block_copy);
	RUN_TEST(test_reach_stays_finite);
	RUN_TEST(test_rig_comes_to_rest);
	RUN_TEST(test_snapshot_replays_bit_for_bit);
	RUN_TEST(test_bad_definitions);
	RUN_TEST(test_enum_counts);
	RUN_TEST(test_total_keys_bound);
	RUN_TEST(test_placement_within_chains);
	RUN_TEST(test_validation_linear);
	RUN_TEST(test_determinism_golden);
	return TEST_SUMMARY();
}
