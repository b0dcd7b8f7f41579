// SPDX-License-Identifier: MIT
// spring_chain2d_group: many angle chains of one shape stepped together. Each test names the trap
// it protects against:
//
//  1. the group is N single chains bit for bit (per-chain roots, hitches, teleports, resets,
//     parameter, inertia and force changes, animated offsets set, changed and cleared per chain
//     and for all, sleeping chains, both integrators, root caps, a small group's two steps a frame
//     run a segment apart);
//  2. one allocation at creation, none per frame; caller memory of exactly the size asked;
//  3. bad descriptions and bad input are refused and change nothing (the block stays byte-identical);
//  4. snapshots replay bit for bit, animations in flight too; a blob with a bad offset is refused.
#include "spring/chain.h"

#include "spring/verify.h"

#include "../src/chain2d_group_internal.h"
#include "../src/chain2d_internal.h"
#include "../src/simd_internal.h"
#include "scenes.h"
#include "snapshot_kinds.h"
#include "test_macros.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHAINS 64
#define MAX_SEGMENTS 8

static spring_params hz(float hertz, float ratio)
{
	spring_params p;
	spring_params_from_frequency(hertz, ratio, &p);
	return p;
}

// A chain shape: lengths, rest angles and a limit that differ per segment.
static void shape(spring_chain2d_segment *segs, int n)
{
	memset(segs, 0, (size_t)n * sizeof *segs);
	for (int i = 0; i < n; i++) {
		segs[i].length = 1.0f + 0.25f * (float)(i % 3);
		segs[i].rest_angle = i == 0 ? -1.5f : 0.1f * (float)((i % 3) - 1);
		segs[i].limit = i == n - 1 ? 0.6f : 0.0f;
	}
}

// Chain j's root at frame f: a sine path per chain; every fifth chain holds still (it rests and
// sleeps), others stop for a while and start again.
static spring_xform2 root_of(int j, int f)
{
	if (j % 5 == 0 || (f > 150 && f < 260 && j % 3 == 0)) {
		f = j % 5 == 0 ? 0 : 150;
	}
	double t = f / 60.0 + 0.13 * j;
	return scene_xform2((float)(3.0 * j + 2.0 * spring_det_sin(3.1 * t)), (float)(1.0 * spring_det_sin(6.3 * t)),
	                    (float)(0.52 * spring_det_sin(4.4 * t)));
}

// The frame times: mostly 60 fps, with jitter, zero frames and hitches beyond the step cap.
static float frame_dt(int f, uint32_t *seed)
{
	if (f % 97 == 50) {
		return 0.3f; // hitch: more than max_steps steps
	}
	if (f % 41 == 7) {
		return 0.0f;
	}
	return f % 3 == 0 ? 1.0f / 60.0f : (float)(0.004 + 0.03 * spring_random_unit(seed));
}

typedef struct twins {
	spring_chain2d_group *group;
	spring_chain2d *single[MAX_CHAINS];
	int count, n;
	bool animate;                 // the calls include animated offsets (twins_animate)
	bool has_offsets[MAX_CHAINS]; // chain j was last given offsets (not cleared)
	int animated_resting;         // chain-frames resting with offsets
} twins;

// `roots` (optional): the chains' first roots; NULL: root_of(j, 0).
static int twins_make_at(twins *t, const spring_chain2d_desc *d, int count, const spring_xform2 *first)
{
	memset(t, 0, sizeof *t);
	t->count = count;
	t->n = d->segment_count;
	spring_xform2 roots[MAX_CHAINS];
	spring_chain2d_desc each = *d;
	for (int j = 0; j < count; j++) {
		roots[j] = first ? first[j] : root_of(j, 0);
		each.root = roots[j];
		ENSURE(spring_chain2d_create(&each, &t->single[j], NULL) == SPRING_OK);
	}
	spring_chain2d_group_desc gd = {.chain = d, .chain_count = count, .roots = roots};
	spring_error e;
	spring_result r = spring_chain2d_group_create(&gd, &t->group, &e);
	ENSURE_MSG(r == SPRING_OK, "%s", e.message);
	ENSURE(spring_chain2d_group_chain_count(t->group) == count);
	ENSURE(spring_chain2d_group_segment_count(t->group) == d->segment_count);
	return 0;
}

static int twins_make(twins *t, const spring_chain2d_desc *d, int count)
{
	return twins_make_at(t, d, count, NULL);
}

static void twins_free(twins *t)
{
	for (int j = 0; j < t->count; j++) {
		spring_chain2d_destroy(t->single[j]);
	}
	spring_chain2d_group_destroy(t->group);
}

// Chain j's arrays in the group against its twin's, bit for bit: what the public calls do not show
// (the targets, the deflections, the kept sines, the animated offsets set, last framed and used).
static int twins_arrays_equal(const twins *t, int j, int frame)
{
	spring_chain2d_view a, b;
	spring_chain2d_internal_view((spring_chain2d *)(uintptr_t)spring_chain2d_internal_group_chain(t->group, j), &a);
	spring_chain2d_internal_view(t->single[j], &b);
	const float *in_group[] = {a.angle, a.velocity, a.prev,    a.target, a.deflection, a.sin,
	                           a.cos,   a.key,      a.inertia, a.used,   a.anim_from,  a.anim_to};
	const float *in_single[] = {b.angle, b.velocity, b.prev,    b.target, b.deflection, b.sin,
	                            b.cos,   b.key,      b.inertia, b.used,   b.anim_from,  b.anim_to};
	static const char *names[] = {"angle", "velocity", "prev",    "target", "deflection", "sin",
	                              "cos",   "key",      "inertia", "used",   "anim_from",  "anim_to"};
	for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++) {
		ENSURE_MSG(memcmp(in_group[k], in_single[k], (size_t)t->n * sizeof(float)) == 0, "frame %d chain %d: %s differs", frame,
		           j, names[k]);
	}
	return 0;
}

// Every chain of the group against its single twin, bit for bit: poses (joints and local
// angles, one chain and all at once), stepped states, rest, the clock, every array.
static int twins_equal(const twins *t, int frame)
{
	spring_xform2 all[MAX_CHAINS * (MAX_SEGMENTS + 1)];
	const int per = t->n + 1;
	ENSURE(spring_chain2d_group_get_poses(t->group, all, t->count * per) == SPRING_OK);
	for (int j = 0; j < t->count; j++) {
		spring_xform2 a[MAX_SEGMENTS + 1], b[MAX_SEGMENTS + 1];
		float la[MAX_SEGMENTS], lb[MAX_SEGMENTS];
		ENSURE(spring_chain2d_group_get_pose(t->group, j, a, la, per) == SPRING_OK);
		ENSURE(spring_chain2d_get_pose(t->single[j], b, lb, per) == SPRING_OK);
		ENSURE_MSG(memcmp(a, b, (size_t)per * sizeof a[0]) == 0, "frame %d chain %d: pose differs", frame, j);
		ENSURE_MSG(memcmp(la, lb, (size_t)t->n * sizeof la[0]) == 0, "frame %d chain %d: local angles differ", frame, j);
		ENSURE(memcmp(all + (size_t)j * (size_t)per, a, (size_t)per * sizeof a[0]) == 0);
		for (int i = 0; i < t->n; i++) {
			spring_state sa, sb;
			ENSURE(spring_chain2d_group_get_state(t->group, j, i, &sa) == SPRING_OK);
			ENSURE(spring_chain2d_get_state(t->single[j], i, &sb) == SPRING_OK);
			ENSURE_MSG(memcmp(&sa, &sb, sizeof sa) == 0, "frame %d chain %d segment %d: state differs", frame, j, i);
		}
		ENSURE_MSG(spring_chain2d_group_is_resting(t->group, j) == spring_chain2d_is_resting(t->single[j]),
		           "frame %d chain %d: rest differs", frame, j);
		ENSURE(twins_arrays_equal(t, j, frame) == 0);
	}
	const spring_clock *cg = spring_chain2d_group_clock(t->group), *cs = spring_chain2d_clock(t->single[0]);
	ENSURE(cg->time == cs->time && cg->alpha == cs->alpha);
	return 0;
}

// Chain j's offsets at frame f: a wave that moves every frame, or (`held`) one that does not.
static void offsets_of(float *o, int n, int j, int f, bool held)
{
	for (int i = 0; i < n; i++) {
		o[i] = held ? 0.15f * (float)(i + 1) * (j % 2 ? 1.0f : -1.0f)
		            : (float)(0.3 * spring_det_sin(0.11 * f + 0.7 * i + 0.3 * j));
	}
}

// set_animation on chain j of the group and on its twin (`j` -1: every chain), the same result.
static int twins_set_animation(twins *t, int j, const float *o, int count)
{
	spring_result r = spring_chain2d_group_set_animation(t->group, j, o, count);
	for (int k = j < 0 ? 0 : j; k < (j < 0 ? t->count : j + 1); k++) {
		ENSURE_MSG(spring_chain2d_set_animation(t->single[k], o, count) == r, "chain %d: %d", k, (int)r);
		if (r == SPRING_OK) {
			t->has_offsets[k] = o != NULL;
		}
	}
	return 0;
}

// The animated offsets of frame f, the same calls on both: chains 1 mod 4 follow a wave set anew
// every frame from frame 20 to 150, then are cleared (NULL, 0), chain 0 from 130 to 140;
// chains 2 mod 4 take one set at frame 60 and another at 200 (with -0, more than a turn and 1e30:
// any finite offset is taken); chains 3 mod 4 are given the same offsets again every frame from
// 60 to 400 (they rest and sleep under them where their roots hold still); at 400 every chain
// takes one set (-1), at 520 every chain is cleared (-1, NULL, segment_count); from 540 to 560
// chains 3 mod 7 follow a wave again, then are cleared. The group then has no offset left and
// runs without animation again.
static int twins_animate(twins *t, int f)
{
	const int n = t->n;
	float o[MAX_SEGMENTS];
	for (int j = 0; j < t->count; j++) {
		int r = 0;
		if ((j % 4 == 1 && f >= 20 && f < 150) || (j == 0 && f >= 130 && f < 140)) {
			offsets_of(o, n, j, f, false);
			r = twins_set_animation(t, j, o, n);
		} else if ((j % 4 == 1 && f == 150) || (j == 0 && f == 140)) {
			r = twins_set_animation(t, j, NULL, 0);
		} else if (j % 4 == 2 && (f == 60 || f == 200)) {
			offsets_of(o, n, j, f, true);
			if (f == 200) {
				o[0] = -0.0f;
				o[n - 1] = 7.0f;
				o[n / 2] = j % 8 == 2 ? 1e30f : o[n / 2];
			}
			r = twins_set_animation(t, j, o, n);
		} else if (j % 4 == 3 && f >= 60 && f < 400) {
			offsets_of(o, n, j, 100, true);
			r = twins_set_animation(t, j, o, n);
		} else if (j % 7 == 3 && f >= 540 && f < 560) {
			offsets_of(o, n, j, f, false);
			r = twins_set_animation(t, j, o, n);
		} else if (j % 7 == 3 && f == 560) {
			r = twins_set_animation(t, j, NULL, n);
		}
		ENSURE(r == 0);
	}
	if (f == 400) {
		offsets_of(o, n, 5, f, false);
		ENSURE(twins_set_animation(t, -1, o, n) == 0);
	}
	if (f == 520) {
		ENSURE(twins_set_animation(t, -1, NULL, n) == 0);
	}
	return 0;
}

// The same calls on both: a frame, and now and then a per-chain change.
static int twins_frame(twins *t, int f, uint32_t *seed, int *resting_seen, int *moving_seen)
{
	const int c = t->count;
	if (t->animate) {
		ENSURE(twins_animate(t, f) == 0);
	}
	const int j = (f * 7) % c;
	if (f % 53 == 20) {
		spring_xform2 to = scene_xform2(50.0f + (float)j, -20.0f, 2.5f);
		ENSURE(spring_chain2d_group_teleport(t->group, j, to) == spring_chain2d_teleport(t->single[j], to));
	}
	if (f % 89 == 30) {
		spring_xform2 to = root_of(j, f);
		ENSURE(spring_chain2d_group_reset(t->group, j, to) == spring_chain2d_reset(t->single[j], to));
	}
	if (f % 61 == 10) {
		spring_params p = hz(1.0f + (float)(f % 5), 0.2f + 0.1f * (float)(f % 3));
		int seg = f % t->n;
		ENSURE(spring_chain2d_group_set_params(t->group, j, seg, p) == spring_chain2d_set_params(t->single[j], seg, p));
		ENSURE(spring_chain2d_group_set_inertia(t->group, (j + 1) % c, seg - 1, 0.5f + (float)(f % 3)) ==
		       spring_chain2d_set_inertia(t->single[(j + 1) % c], seg - 1, 0.5f + (float)(f % 3)));
	}
	if (f % 71 == 15) {
		spring_vec2 g = {0.0f, -9.81f * (float)(f % 4)}, w = {(float)(f % 3) - 1.0f, 0.0f};
		ENSURE(spring_chain2d_group_set_forces(t->group, j, g, w) == spring_chain2d_set_forces(t->single[j], g, w));
	}
	if (f == 40) {
		// A setting for every chain (-1), against the same call on each single chain.
		spring_params p = hz(3.0f, 0.7f);
		spring_vec2 g = {0.5f, -4.0f}, w = {0.0f, 0.0f};
		int seg = t->n - 1;
		ENSURE(spring_chain2d_group_set_params(t->group, -1, seg, p) == SPRING_OK);
		ENSURE(spring_chain2d_group_set_inertia(t->group, -1, seg, 0.75f) == SPRING_OK);
		ENSURE(spring_chain2d_group_set_forces(t->group, -1, g, w) == SPRING_OK);
		for (int k = 0; k < c; k++) {
			ENSURE(spring_chain2d_set_params(t->single[k], seg, p) == SPRING_OK);
			ENSURE(spring_chain2d_set_inertia(t->single[k], seg, 0.75f) == SPRING_OK);
			ENSURE(spring_chain2d_set_forces(t->single[k], g, w) == SPRING_OK);
		}
	}
	spring_xform2 roots[MAX_CHAINS];
	for (int k = 0; k < c; k++) {
		roots[k] = root_of(k, f);
	}
	float dt = frame_dt(f, seed);
	ENSURE(spring_chain2d_group_update(t->group, roots, dt) == SPRING_OK);
	for (int k = 0; k < c; k++) {
		ENSURE(spring_chain2d_update(t->single[k], roots[k], dt) == SPRING_OK);
		if (spring_chain2d_is_resting(t->single[k])) {
			(*resting_seen)++;
			t->animated_resting += t->has_offsets[k];
		} else {
			(*moving_seen)++;
		}
	}
	return twins_equal(t, f);
}

// `animate`: with twins_animate's offsets; *animated_resting (optional) receives the chain-frames
// compared resting with offsets.
static int run_twins(const spring_chain2d_desc *d, int count, int frames, bool animate, int *animated_resting)
{
	twins t;
	ENSURE(twins_make(&t, d, count) == 0);
	t.animate = animate;
	ENSURE(twins_equal(&t, 0) == 0);
	uint32_t seed = 3u;
	int resting = 0, moving = 0;
	for (int f = 1; f <= frames; f++) {
		if (twins_frame(&t, f, &seed, &resting, &moving)) {
			twins_free(&t);
			return 1;
		}
	}
	twins_free(&t);
	printf("    %d chains x %d frames%s: %d chain-frames resting (%d animated), %d moving, all bit for bit\n", count, frames,
	       animate ? ", animated" : "", resting, t.animated_resting, moving);
	ENSURE(moving > 0 && (resting > 0 || animate)); // both kinds were compared (animated, a few chains rest)
	if (animated_resting) {
		*animated_resting = t.animated_resting;
	}
	return 0;
}

static int group_is_single_chains(void)
{
	spring_chain2d_segment segs[MAX_SEGMENTS];
	shape(segs, 6);
	spring_chain2d_desc d = {.segment_count = 6, .segments = segs, .gravity = {0.0f, -9.81f}, .tip_params = hz(4.0f, 0.5f)};
	int asleep_animated = 0;
	if (run_twins(&d, 37, 600, false, NULL) || run_twins(&d, 37, 600, true, &asleep_animated)) {
		return 1;
	}
	ENSURE(asleep_animated > 0); // chains slept under their offsets, and woke
	// No field at all (pure angle springs), one chain.
	spring_chain2d_desc pure = {.segment_count = 3, .segments = segs, .no_inertia = true};
	if (run_twins(&pure, 1, 300, false, NULL) || run_twins(&pure, 1, 600, true, NULL)) {
		return 1;
	}
	// Semi-implicit, root caps (the excess carried rigidly), strong gravity, 8 segments.
	shape(segs, MAX_SEGMENTS);
	spring_chain2d_desc capped = {.segment_count = MAX_SEGMENTS,
	                              .segments = segs,
	                              .integrator = SPRING_INTEGRATOR_SEMI_IMPLICIT,
	                              .gravity = {2.0f, -300.0f},
	                              .max_root_speed = 20.0f,
	                              .max_root_angular_speed = 3.0f,
	                              .inertia = 2.0f};
	return run_twins(&capped, MAX_CHAINS, 400, false, NULL) || run_twins(&capped, MAX_CHAINS, 600, true, NULL);
}

// `run` on every kernel the machine runs (scalar, SSE2/AVX2/AVX-512 or wasm simd128), each
// forced in turn: each steps 1, 4, 8 or 16 chains per vector and must give the single chain's bits.
static int on_every_kernel(int (*run)(void))
{
	int tried = 0;
	for (int p = SPRING_INTERNAL_ISA_SCALAR; p < SPRING_INTERNAL_ISA_COUNT; p++) {
		if (!spring_internal_isa_force((spring_internal_isa)p)) {
			printf("  kernel %s: not built for or not run by this machine, skipped\n",
			       spring_internal_isa_name((spring_internal_isa)p));
			continue;
		}
		printf("  kernel %s\n", spring_internal_isa_name((spring_internal_isa)p));
		int failed = run();
		(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
		ENSURE_MSG(!failed, "kernel %s", spring_internal_isa_name((spring_internal_isa)p));
		tried++;
	}
	ENSURE(tried >= 1);
	return 0;
}

static int test_group_is_single_chains_bit_for_bit(void)
{
	return on_every_kernel(group_is_single_chains);
}

// A negative control: the comparison sees a one-ulp difference in one chain's root.
static int test_comparison_can_fail(void)
{
	spring_chain2d_segment segs[4];
	shape(segs, 4);
	spring_chain2d_desc d = {.segment_count = 4, .segments = segs};
	twins t;
	ENSURE(twins_make(&t, &d, 3) == 0);
	spring_xform2 roots[3] = {root_of(0, 1), root_of(1, 1), root_of(2, 1)};
	ENSURE(spring_chain2d_group_update(t.group, roots, 1.0f / 60.0f) == SPRING_OK);
	for (int k = 0; k < 3; k++) {
		spring_xform2 r = roots[k];
		if (k == 1) {
			r.position.x = nextafterf(r.position.x, 1e9f);
		}
		ENSURE(spring_chain2d_update(t.single[k], r, 1.0f / 60.0f) == SPRING_OK);
	}
	printf("    (a FAILED line below is expected)\n");
	int differs = twins_equal(&t, 1);
	twins_free(&t);
	ENSURE(differs);
	return 0;
}

// A chain without offsets in the vector of an animated one takes its own target formula, lane by
// lane: its rest angles and root angle -0, its first target is -0 (adding a zero offset, as an
// animated lane's formula does, would make it +0), as the single chain's; on every kernel.
static int zero_offsets_once(void)
{
	spring_chain2d_segment segs[3];
	shape(segs, 3);
	for (int i = 0; i < 3; i++) {
		segs[i].rest_angle = -0.0f;
	}
	spring_chain2d_desc d = {.segment_count = 3, .segments = segs, .gravity = {0.0f, -9.81f}};
	spring_xform2 roots[2] = {scene_xform2(0.0f, 0.0f, -0.0f), scene_xform2(3.0f, 0.0f, -0.0f)};
	twins t;
	ENSURE(twins_make_at(&t, &d, 2, roots) == 0);
	const float offsets[3] = {0.25f, 0.0f, -0.5f};
	int failed = twins_set_animation(&t, 1, offsets, 3);
	for (int f = 1; f <= 30 && !failed; f++) {
		roots[1].position.y = 0.01f * (float)f;
		failed = spring_chain2d_group_update(t.group, roots, 1.0f / 60.0f) != SPRING_OK;
		for (int j = 0; j < 2 && !failed; j++) {
			failed = spring_chain2d_update(t.single[j], roots[j], 1.0f / 60.0f) != SPRING_OK;
		}
		failed = failed || twins_equal(&t, f);
	}
	const float first = spring_chain2d_get_target(t.single[0], 0);
	twins_free(&t);
	ENSURE(!failed);
	ENSURE(first == 0.0f && signbit(first)); // the case the test is for
	return 0;
}

static int test_zero_offsets_keep_their_sign(void)
{
	return on_every_kernel(zero_offsets_once);
}

// Long chains on every kernel: 20 segments (AVX-512 writes a pose's joints 16 at a time, so 21
// joints take two groups, the second partial) and 21 chains (a partial block), every pose read
// at once against the single twins; the joints array has exactly the capacity asked and a guard
// after it stays untouched.
#define LONG_SEGMENTS 20
#define LONG_CHAINS 21
static int long_chains_once(void)
{
	spring_chain2d_segment segs[LONG_SEGMENTS];
	shape(segs, LONG_SEGMENTS);
	spring_chain2d_desc d = {.segment_count = LONG_SEGMENTS, .segments = segs, .gravity = {0.0f, -9.81f}};
	spring_xform2 roots[LONG_CHAINS];
	spring_chain2d *single[LONG_CHAINS];
	for (int j = 0; j < LONG_CHAINS; j++) {
		roots[j] = root_of(j, 0);
		spring_chain2d_desc each = d;
		each.root = roots[j];
		ENSURE(spring_chain2d_create(&each, &single[j], NULL) == SPRING_OK);
	}
	spring_chain2d_group_desc gd = {.chain = &d, .chain_count = LONG_CHAINS, .roots = roots};
	spring_chain2d_group *g = NULL;
	ENSURE(spring_chain2d_group_create(&gd, &g, NULL) == SPRING_OK);
	enum { PER = LONG_SEGMENTS + 1, ALL = LONG_CHAINS * PER, GUARD = 8 };
	static spring_xform2 all[ALL + GUARD];
	int failed = 0;
	for (int f = 1; f <= 40 && !failed; f++) {
		for (int j = 0; j < LONG_CHAINS; j++) {
			roots[j] = root_of(j, f);
			failed |= spring_chain2d_update(single[j], roots[j], f % 4 == 0 ? 0.011f : 1.0f / 60.0f) != SPRING_OK;
		}
		failed |= spring_chain2d_group_update(g, roots, f % 4 == 0 ? 0.011f : 1.0f / 60.0f) != SPRING_OK;
		memset(all, 0x5a, sizeof all);
		failed |= spring_chain2d_group_get_poses(g, all, ALL) != SPRING_OK;
		for (int j = 0; j < LONG_CHAINS && !failed; j++) {
			spring_xform2 b[PER];
			failed |= spring_chain2d_get_pose(single[j], b, NULL, PER) != SPRING_OK;
			if (memcmp(all + (size_t)j * PER, b, sizeof b) != 0) {
				printf("    frame %d chain %d: pose differs\n", f, j);
				failed = 1;
			}
		}
		for (int k = 0; k < (int)(GUARD * sizeof all[0]) && !failed; k++) {
			failed |= ((const unsigned char *)(all + ALL))[k] != 0x5a;
		}
	}
	for (int j = 0; j < LONG_CHAINS; j++) {
		spring_chain2d_destroy(single[j]);
	}
	spring_chain2d_group_destroy(g);
	ENSURE(!failed);
	return 0;
}

static int test_long_chains_poses(void)
{
	return on_every_kernel(long_chains_once);
}

// Two and three steps a frame, a block's steps run two at a time (a segment apart) when no chain
// of it is still between them (each step with its own animated offsets, twins_animate): 1, 2 and 3 chains (one block with padding
// on every vector kernel, one chain a block on the scalar one) against their single twins on every kernel. First every root moves
// all the time (every frame pairs: 2 steps as a pair, 3 as a pair and one alone); then chain `holder` holds its root still from
// frame 40 to 220 (still steps in the middle of a frame, its rest test before the next step, then asleep beside moving chains)
// and moves again.
static spring_xform2 paired_root(int j, int f, int holder)
{
	if (j == holder && f > 40 && f < 220) {
		f = 40;
	}
	double t = f / 60.0 + 0.21 * j;
	return scene_xform2((float)(2.0 * j + 1.5 * spring_det_sin(2.3 * t)), (float)(0.8 * spring_det_sin(5.1 * t)),
	                    (float)(0.4 * spring_det_sin(3.7 * t)));
}

static int paired_twins(const spring_chain2d_desc *d, int count, int holder, int frames, bool animate)
{
	twins t;
	ENSURE(twins_make(&t, d, count) == 0);
	int resting = 0, moving = 0, steps[4] = {0};
	for (int f = 1; f <= frames; f++) {
		if (animate) {
			ENSURE(twins_animate(&t, f) == 0);
		}
		const int n = f % 4 == 0 ? 3 : 2; // 1/120 s steps
		const float dt = (float)n / 120.0f;
		spring_xform2 roots[MAX_CHAINS];
		for (int j = 0; j < count; j++) {
			roots[j] = paired_root(j, f, holder);
			ENSURE(spring_chain2d_update(t.single[j], roots[j], dt) == SPRING_OK);
			if (spring_chain2d_is_resting(t.single[j])) {
				resting++;
			} else {
				moving++;
			}
		}
		ENSURE(spring_chain2d_group_update(t.group, roots, dt) == SPRING_OK);
		const int ran = spring_chain2d_group_clock(t.group)->last_steps;
		ENSURE(ran >= 0 && ran < 4);
		steps[ran]++;
		if (twins_equal(&t, f)) {
			twins_free(&t);
			return 1;
		}
	}
	twins_free(&t);
	printf("    %d chains, %s%s: frames of 2 steps %d, of 3 steps %d; %d chain-frames resting, %d moving\n", count,
	       holder < 0 ? "every root moving" : "one root held", animate ? ", animated" : "", steps[2], steps[3], resting, moving);
	ENSURE(steps[2] > 0 && steps[3] > 0 && steps[0] == 0 && steps[1] == 0);
	ENSURE(holder >= 0 ? resting > 0 : resting == 0); // held: it came to rest; moving: nothing rests
	ENSURE(moving > 0);
	return 0;
}

static int paired_steps_once(void)
{
	spring_chain2d_segment segs[MAX_SEGMENTS];
	shape(segs, MAX_SEGMENTS);
	spring_chain2d_desc d = {
		.segment_count = MAX_SEGMENTS, .segments = segs, .gravity = {0.0f, -9.81f}, .inertia = 1.5f, .params = hz(3.0f, 0.9f)};
	for (int count = 1; count <= 3; count++) {
		if (paired_twins(&d, count, -1, 120, false) || paired_twins(&d, count, count - 1, 300, false) ||
		    paired_twins(&d, count, -1, 160, true) || paired_twins(&d, count, 0, 300, true)) {
			return 1;
		}
	}
	return 0;
}

static int test_paired_steps_bit_for_bit(void)
{
	return on_every_kernel(paired_steps_once);
}

// ---------------------------------------------------------------------------------------------
// Memory

static int test_memory(void)
{
	spring_chain2d_segment segs[5];
	shape(segs, 5);
	spring_chain2d_desc d = {.segment_count = 5, .segments = segs, .gravity = {0.0f, -9.81f}};
	spring_chain2d_group_desc gd = {.chain = &d, .chain_count = 20};
	scene_alloc_counter count = {.alignment = 16};
	spring_allocator counting = scene_counting_allocator(&count);
	spring_set_allocator(&counting);
	spring_chain2d_group *g = NULL;
	int ok = spring_chain2d_group_create(&gd, &g, NULL) == SPRING_OK && g != NULL;
	int after_create = count.allocs;
	uint32_t seed = 9u;
	spring_xform2 roots[20], joints[20 * 6];
	for (int f = 1; ok && f <= 2000; f++) {
		for (int j = 0; j < 20; j++) {
			roots[j] = root_of(j, f);
		}
		ok = spring_chain2d_group_update(g, roots, frame_dt(f, &seed)) == SPRING_OK &&
		     spring_chain2d_group_get_poses(g, joints, 20 * 6) == SPRING_OK;
		if (f % 100 == 0) {
			ok = ok && spring_chain2d_group_teleport(g, f % 20, roots[0]) == SPRING_OK &&
			     spring_chain2d_group_reset(g, (f + 1) % 20, roots[1]) == SPRING_OK &&
			     spring_chain2d_group_set_params(g, f % 20, 2, hz(3.0f, 0.4f)) == SPRING_OK &&
			     spring_chain2d_group_set_inertia(g, f % 20, -1, 2.0f) == SPRING_OK &&
			     spring_chain2d_group_set_forces(g, f % 20, spring_vec2_make(0.0f, -1.0f), spring_vec2_make(0.0f, 0.0f)) ==
			         SPRING_OK;
		}
	}
	int after_updates = count.allocs;
	spring_chain2d_group_destroy(g);
	spring_chain2d_group_destroy(NULL);
	int frees = count.frees;
	count.fail = 1;
	spring_chain2d_group *none = NULL;
	spring_result oom = spring_chain2d_group_create(&gd, &none, NULL);
	count.fail = 0;
	spring_set_allocator(NULL);
	ENSURE(ok);
	ENSURE(after_create == 1);
	ENSURE(after_updates == 1);
	ENSURE(frees == 1);
	ENSURE(oom == SPRING_ERROR_OUT_OF_MEMORY && none == NULL);
	// Caller memory: exactly the size asked, 16-byte aligned; one byte less or misaligned refused.
	size_t size = spring_chain2d_group_memory_size(&gd);
	ENSURE(size > 0 && size % 16 == 0);
	unsigned char *memory = aligned_alloc(16, size + 16);
	ENSURE(memory);
	spring_error e;
	ENSURE(spring_chain2d_group_init(&gd, memory, size - 1, &g, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(strstr(e.message, "needed") != NULL);
	ENSURE(spring_chain2d_group_init(&gd, memory + 8, size, &g, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_init(&gd, memory, size, NULL, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_init(&gd, memory, size, &g, NULL) == SPRING_OK && (void *)g == (void *)memory);
	ENSURE(spring_chain2d_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
	spring_chain2d_group_destroy(g); // caller memory: nothing freed
	free(memory);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Bad input

// Sizes never wrap (base_internal.h): the most chains of the most segments are sized in full
// where the block fits (64-bit) and refused, naming the counts, where it does not (wasm32), where
// the largest group that fits is still sized.
static int test_group_sizes_never_wrap(void)
{
	static spring_chain2d_segment segs[SPRING_CHAIN_MAX_BONES];
	shape(segs, SPRING_CHAIN_MAX_BONES);
	spring_chain2d_desc d = {.segment_count = SPRING_CHAIN_MAX_BONES, .segments = segs};
	spring_chain2d_group_desc gd = {.chain = &d, .chain_count = 1024};
	size_t a = spring_chain2d_group_memory_size(&gd);
	gd.chain_count = 2048;
	size_t b = spring_chain2d_group_memory_size(&gd);
	ENSURE(a > 0 && b > a);
	double per_chain = (double)(b - a) / 1024.0;
	double want = (double)a + per_chain * (SPRING_CHAIN2D_GROUP_MAX_CHAINS - 1024);
	ENSURE_MSG(want > 4.3e9, "%g", want);
	gd.chain_count = SPRING_CHAIN2D_GROUP_MAX_CHAINS;
	size_t most = spring_chain2d_group_memory_size(&gd);
	spring_chain2d_group *g = NULL;
	spring_error e;
	if (want <= (double)PTRDIFF_MAX) {
		ENSURE_MSG((double)most >= want * 0.98 && (double)most <= want * 1.02, "%zu for %g", most, want);
	} else {
		ENSURE_MSG(most == 0, "%zu", most);
		ENSURE(spring_chain2d_group_create(&gd, &g, &e) == SPRING_ERROR_OUT_OF_RANGE && g == NULL);
		ENSURE_MSG(strstr(e.message, "1048576 chains of 256 segments") != NULL, "%s", e.message);
		// The largest count that fits, found by bisection (the vector width pads the count, so
		// the per-chain estimate above is not exact): it is sized, within a chain of the bound,
		// and one chain more is refused.
		int fits = 1024, refused = SPRING_CHAIN2D_GROUP_MAX_CHAINS;
		while (refused - fits > 1) {
			gd.chain_count = fits + (refused - fits) / 2;
			*(spring_chain2d_group_memory_size(&gd) > 0 ? &fits : &refused) = gd.chain_count;
		}
		gd.chain_count = fits;
		size_t near = spring_chain2d_group_memory_size(&gd);
		ENSURE_MSG(near > (size_t)PTRDIFF_MAX / 100u * 98u && near <= (size_t)PTRDIFF_MAX, "%d chains: %zu", fits, near);
		gd.chain_count = fits + 1;
		ENSURE(spring_chain2d_group_memory_size(&gd) == 0);
	}
	return 0;
}

static int test_bad_descriptions(void)
{
	spring_chain2d_segment segs[3];
	shape(segs, 3);
	spring_chain2d_desc d = {.segment_count = 3, .segments = segs};
	spring_chain2d_group *g = NULL;
	spring_error e;
	ENSURE(spring_chain2d_group_memory_size(NULL) == 0);
	ENSURE(spring_chain2d_group_create(NULL, &g, &e) == SPRING_ERROR_INVALID_ARGUMENT && g == NULL);
	spring_chain2d_group_desc gd = {.chain = NULL, .chain_count = 2};
	ENSURE(spring_chain2d_group_create(&gd, &g, &e) == SPRING_ERROR_INVALID_ARGUMENT && strcmp(e.field, "chain") == 0);
	gd.chain = &d;
	gd.chain_count = 0;
	ENSURE(spring_chain2d_group_create(&gd, &g, &e) == SPRING_ERROR_INVALID_ARGUMENT && strcmp(e.field, "chain_count") == 0);
	gd.chain_count = SPRING_CHAIN2D_GROUP_MAX_CHAINS + 1;
	ENSURE(spring_chain2d_group_memory_size(&gd) == 0);
	gd.chain_count = 1; // the lower bound is accepted
	ENSURE(spring_chain2d_group_memory_size(&gd) > 0);
	// The chain's own checks, with the chain's message.
	segs[1].length = -1.0f;
	gd.chain_count = 2;
	ENSURE(spring_chain2d_group_create(&gd, &g, &e) == SPRING_ERROR_OUT_OF_RANGE && strcmp(e.field, "length") == 0);
	ENSURE(spring_chain2d_group_memory_size(&gd) == 0);
	segs[1].length = 1.0f;
	spring_xform2 roots[2] = {scene_xform2(0.0f, 0.0f, 0.0f), scene_xform2(NAN, 0.0f, 0.0f)};
	gd.roots = roots;
	ENSURE(spring_chain2d_group_create(&gd, &g, &e) == SPRING_ERROR_NOT_FINITE && strcmp(e.field, "roots") == 0);
	ENSURE(strstr(e.message, "roots[1]") != NULL);
	roots[1] = scene_xform2(2e6f, 0.0f, 0.0f);
	ENSURE(spring_chain2d_group_create(&gd, &g, &e) == SPRING_ERROR_OUT_OF_RANGE);
	roots[1] = scene_xform2(1e6f, 0.0f, 0.0f); // the edge is accepted
	ENSURE(spring_chain2d_group_create(&gd, &g, &e) == SPRING_OK);
	spring_chain2d_group_destroy(g);
	return 0;
}

// The whole block as a snapshot: a refused call must leave it byte for byte.
static int same_block(const spring_chain2d_group *g, const unsigned char *before, size_t size)
{
	unsigned char *now = malloc(size);
	int same = now && spring_chain2d_group_snapshot(g, now, size) == SPRING_OK && memcmp(now, before, size) == 0;
	free(now);
	return same;
}

static int test_bad_input_changes_nothing(void)
{
	spring_chain2d_segment segs[4];
	shape(segs, 4);
	spring_chain2d_desc d = {.segment_count = 4, .segments = segs, .gravity = {0.0f, -9.81f}};
	spring_chain2d_group_desc gd = {.chain = &d, .chain_count = 8};
	spring_chain2d_group *g;
	ENSURE(spring_chain2d_group_create(&gd, &g, NULL) == SPRING_OK);
	spring_xform2 roots[8];
	const float held[4] = {0.5f, 0.0f, -0.25f, 1.0f}, next[4] = {-0.5f, 0.125f, 0.0f, 2.0f};
	for (int f = 1; f < 30; f++) {
		for (int j = 0; j < 8; j++) {
			roots[j] = root_of(j + 1, f);
		}
		if (f == 10) {
			ENSURE(spring_chain2d_group_set_animation(g, 2, held, 4) == SPRING_OK);
		}
		ENSURE(spring_chain2d_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
	}
	ENSURE(spring_chain2d_group_set_animation(g, 6, next, 4) == SPRING_OK); // in flight: not yet stepped
	size_t size = spring_chain2d_group_snapshot_size(g);
	unsigned char *before = malloc(size);
	ENSURE(before && spring_chain2d_group_snapshot(g, before, size) == SPRING_OK);
	spring_xform2 bad = roots[5];
	bad.position.y = NAN;
	spring_xform2 saved = roots[5];
	roots[5] = bad;
	ENSURE(spring_chain2d_group_update(g, roots, 1.0f / 60.0f) == SPRING_ERROR_NOT_FINITE);
	roots[5] = scene_xform2(0.0f, -1.5e6f, 0.0f);
	ENSURE(spring_chain2d_group_update(g, roots, 1.0f / 60.0f) == SPRING_ERROR_OUT_OF_RANGE);
	roots[5] = saved;
	ENSURE(spring_chain2d_group_update(g, roots, NAN) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_update(g, roots, -1e-9f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain2d_group_update(g, NULL, 1.0f / 60.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_update(NULL, roots, 1.0f / 60.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	// Bad chain and segment indices, both sides of each bound.
	ENSURE(spring_chain2d_group_teleport(g, -1, roots[0]) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_teleport(g, 8, roots[0]) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_reset(g, 8, roots[0]) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_teleport(g, 7, bad) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_reset(g, 0, bad) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_set_params(g, 0, 4, hz(2.0f, 0.5f)) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_params(g, 0, -1, hz(2.0f, 0.5f)) == SPRING_ERROR_INVALID_ARGUMENT);
	spring_params nan_params = {NAN, 1.0f, 1.0f};
	ENSURE(spring_chain2d_group_set_params(g, 0, 0, nan_params) != SPRING_OK);
	ENSURE(spring_chain2d_group_set_inertia(g, 0, 0, 100.5f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain2d_group_set_inertia(g, 0, -2, 1.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_inertia(g, 8, 0, 1.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_forces(g, 0, spring_vec2_make(INFINITY, 0.0f), spring_vec2_make(0.0f, 0.0f)) ==
	       SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_set_forces(g, -1, spring_vec2_make(NAN, 0.0f), spring_vec2_make(0.0f, 0.0f)) ==
	       SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_set_params(g, -1, 0, nan_params) != SPRING_OK);
	ENSURE(spring_chain2d_group_set_inertia(g, -1, 0, 100.5f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain2d_group_set_params(g, -2, 0, hz(2.0f, 0.5f)) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_params(NULL, -1, 0, hz(2.0f, 0.5f)) == SPRING_ERROR_INVALID_ARGUMENT);
	// Animated offsets: a NaN or an infinity (in one chain or for every chain), a count that is not
	// the segment count, NULL with a count that is neither 0 nor it, bad chain indices.
	const float wave[4] = {0.1f, -0.2f, 0.3f, 0.4f}, nan_at_2[4] = {0.1f, -0.2f, NAN, 0.4f};
	const float inf_at_3[4] = {0.1f, -0.2f, 0.3f, -INFINITY};
	ENSURE(spring_chain2d_group_set_animation(g, 0, nan_at_2, 4) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_set_animation(g, 7, inf_at_3, 4) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_set_animation(g, -1, nan_at_2, 4) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_set_animation(g, -1, inf_at_3, 4) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_group_set_animation(g, 0, wave, 3) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(g, 0, wave, 5) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(g, -1, wave, 0) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(g, 0, NULL, 2) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(g, -1, NULL, 5) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(g, 8, wave, 4) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(g, -2, wave, 4) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(NULL, 0, wave, 4) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_set_animation(NULL, -1, NULL, 0) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(!spring_chain2d_group_is_resting(g, 8) && !spring_chain2d_group_is_resting(g, -1) &&
	       !spring_chain2d_group_is_resting(NULL, 0));
	spring_xform2 joints[8 * 5];
	float local[4];
	spring_state s;
	ENSURE(spring_chain2d_group_get_pose(g, 0, joints, NULL, 4) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain2d_group_get_pose(g, 0, joints, NULL, 5) == SPRING_OK);
	ENSURE(spring_chain2d_group_get_pose(g, 0, NULL, local, 3) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain2d_group_get_pose(g, 0, NULL, local, 4) == SPRING_OK);
	ENSURE(spring_chain2d_group_get_pose(g, 8, joints, NULL, 5) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_get_poses(g, joints, 8 * 5 - 1) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain2d_group_get_poses(g, joints, -1) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_get_poses(g, joints, 8 * 5) == SPRING_OK);
	ENSURE(spring_chain2d_group_get_state(g, 0, 4, &s) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_group_get_state(g, 0, 3, &s) == SPRING_OK);
	ENSURE(spring_chain2d_group_get_state(g, 0, 3, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(same_block(g, before, size));
	// A good update after all that still runs.
	ENSURE(spring_chain2d_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
	ENSURE(!same_block(g, before, size));
	free(before);
	spring_chain2d_group_destroy(g);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Snapshots

// Frames [from, to) of 12 chains of 5 segments with animated offsets: every 50 frames one chain
// takes offsets it keeps, chain 5 follows a wave from frame 650 to 750, every 300 frames one
// chain is cleared.
static int group_run(spring_chain2d_group *g, int from, int to, uint64_t *hash)
{
	uint32_t seed = (uint32_t)from;
	spring_xform2 roots[12], joints[12 * 6];
	for (int f = from; f < to; f++) {
		for (int j = 0; j < 12; j++) {
			roots[j] = root_of(j, f);
		}
		if (f % 300 == 100) {
			ENSURE(spring_chain2d_group_teleport(g, f % 12, roots[3]) == SPRING_OK);
		}
		float o[5];
		if (f % 50 == 0) {
			offsets_of(o, 5, f / 50, f, true);
			ENSURE(spring_chain2d_group_set_animation(g, (f / 50) % 12, o, 5) == SPRING_OK);
		}
		if (f >= 650 && f < 750) {
			offsets_of(o, 5, 5, f, false);
			ENSURE(spring_chain2d_group_set_animation(g, 5, o, 5) == SPRING_OK);
		}
		if (f % 300 == 150) {
			ENSURE(spring_chain2d_group_set_animation(g, (f / 300) % 12, NULL, 0) == SPRING_OK);
		}
		ENSURE(spring_chain2d_group_update(g, roots, frame_dt(f, &seed)) == SPRING_OK);
		ENSURE(spring_chain2d_group_get_poses(g, joints, 12 * 6) == SPRING_OK);
		*hash = spring_hash(*hash, joints, sizeof joints);
	}
	return 0;
}

// The start of the group's struct (chain2d_group.c), to find its `animated` flag in a blob.
typedef struct group_head {
	spring_clock clock;
	spring_chain2d_timeline time;
	int chain_count, segment_count, stride, animated;
} group_head;

// A blob whose animated offsets are not finite, or whose `animated` flag is not 0 or 1 or is 0
// while a chain has offsets, or whose offsets are past SPRING_CHAIN2D_MAX_ANGLE, is refused (naming
// the field) and changes nothing; the flag 1 without offsets is a state the group can be in (before
// its next frame clears it), and an offset of +-SPRING_CHAIN2D_MAX_ANGLE one a call can set: both
// accepted.
static int test_restore_refuses_bad_offsets(void)
{
	spring_chain2d_segment segs[5];
	shape(segs, 5);
	spring_chain2d_desc d = {.segment_count = 5, .segments = segs, .gravity = {0.0f, -9.81f}};
	spring_chain2d_group_desc gd = {.chain = &d, .chain_count = 6};
	spring_chain2d_group *g;
	ENSURE(spring_chain2d_group_create(&gd, &g, NULL) == SPRING_OK);
	const size_t size = spring_chain2d_group_snapshot_size(g);
	unsigned char *blob = malloc(size), *bad = malloc(size);
	ENSURE(blob && bad && spring_chain2d_group_snapshot(g, blob, size) == SPRING_OK);
	const size_t flag_at = SPRING_SNAPSHOT_HEADER_BYTES + offsetof(group_head, animated);
	spring_error e;
	memcpy(bad, blob, size);
	bad[flag_at] = 1; // no offsets, the flag set
	ENSURE_MSG(spring_chain2d_group_restore(g, bad, size, &e) == SPRING_OK, "%s", e.message);
	ENSURE(spring_chain2d_group_restore(g, blob, size, NULL) == SPRING_OK);
	// Chain 4's offsets held through two frames: the set, the last frame's and the used ones.
	const float marked[5] = {0.0123f, -0.0246f, 0.0369f, 0.0492f, -0.0615f};
	spring_xform2 roots[6];
	for (int f = 1; f <= 3; f++) {
		for (int j = 0; j < 6; j++) {
			roots[j] = root_of(j, f);
		}
		if (f == 2) {
			ENSURE(spring_chain2d_group_set_animation(g, 4, marked, 5) == SPRING_OK);
		}
		ENSURE(spring_chain2d_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
	}
	ENSURE(spring_chain2d_group_snapshot(g, blob, size) == SPRING_OK);
	size_t at[8];
	ENSURE(snapshot_find_floats(blob, size, marked[2], at, 8) == 3);
	const float poison[3] = {NAN, INFINITY, -INFINITY};
	for (int k = 0; k < 3; k++) {
		for (int p = 0; p < 3; p++) {
			memcpy(bad, blob, size);
			memcpy(bad + at[k], &poison[p], sizeof poison[p]);
			ENSURE(spring_chain2d_group_restore(g, bad, size, &e) == SPRING_ERROR_NOT_FINITE);
			ENSURE_MSG(strcmp(e.field, "anim_offset") == 0 && strstr(e.message, "finite") != NULL, "%s", e.message);
			ENSURE(same_block(g, blob, size));
		}
		// Past SPRING_CHAIN2D_MAX_ANGLE an offset is refused as set_animation refuses it
		// (1e30 was once accepted and folded into an arbitrary angle); the bound itself is
		// accepted and steps.
		const float huge[3] = {1e30f, nextafterf(SPRING_CHAIN2D_MAX_ANGLE, INFINITY),
		                       -nextafterf(SPRING_CHAIN2D_MAX_ANGLE, INFINITY)};
		for (int p = 0; p < 3; p++) {
			memcpy(bad, blob, size);
			memcpy(bad + at[k], &huge[p], sizeof huge[p]);
			ENSURE(spring_chain2d_group_restore(g, bad, size, &e) == SPRING_ERROR_OUT_OF_RANGE);
			ENSURE_MSG(strcmp(e.field, "anim_offset") == 0 && strstr(e.message, "1e6") != NULL, "%s", e.message);
			ENSURE(same_block(g, blob, size));
		}
		memcpy(bad, blob, size);
		const float edge = k == 1 ? -SPRING_CHAIN2D_MAX_ANGLE : SPRING_CHAIN2D_MAX_ANGLE;
		memcpy(bad + at[k], &edge, sizeof edge);
		ENSURE_MSG(spring_chain2d_group_restore(g, bad, size, &e) == SPRING_OK, "%s", e.message);
		ENSURE(spring_chain2d_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
		ENSURE(spring_chain2d_group_restore(g, blob, size, NULL) == SPRING_OK);
	}
	const unsigned char flags[2] = {0, 2};
	for (int k = 0; k < 2; k++) {
		memcpy(bad, blob, size);
		bad[flag_at] = flags[k];
		ENSURE(spring_chain2d_group_restore(g, bad, size, &e) == SPRING_ERROR_INVALID_ARGUMENT);
		ENSURE_MSG(strcmp(e.field, "animated") == 0, "%s", e.message);
		ENSURE(same_block(g, blob, size));
	}
	free(bad);
	free(blob);
	spring_chain2d_group_destroy(g);
	return 0;
}

static int test_snapshot_replays_bit_for_bit(void)
{
	spring_chain2d_segment segs[5];
	shape(segs, 5);
	spring_chain2d_desc d = {.segment_count = 5, .segments = segs, .gravity = {0.0f, -30.0f}};
	spring_chain2d_group_desc gd = {.chain = &d, .chain_count = 12};
	spring_chain2d_group *g;
	ENSURE(spring_chain2d_group_create(&gd, &g, NULL) == SPRING_OK);
	uint64_t ignored = SPRING_HASH_INIT, original = SPRING_HASH_INIT, replayed = SPRING_HASH_INIT;
	ENSURE(group_run(g, 1, 700, &ignored) == 0);
	// Offsets set and not yet stepped (chain 3's frame 750 changes them): the blob must hold them.
	const float in_flight[5] = {0.0123f, -0.0246f, 0.0369f, 0.0492f, -0.0615f};
	ENSURE(spring_chain2d_group_set_animation(g, 3, in_flight, 5) == SPRING_OK);
	size_t size = spring_chain2d_group_snapshot_size(g);
	unsigned char *blob = malloc(size);
	ENSURE(blob && spring_chain2d_group_snapshot(g, blob, size) == SPRING_OK);
	ENSURE(group_run(g, 700, 1500, &original) == 0);
	ENSURE(spring_chain2d_group_restore(g, blob, size, NULL) == SPRING_OK);
	ENSURE(group_run(g, 700, 1500, &replayed) == 0);
	ENSURE(original == replayed);
	// Another chain count: refused, nothing changes.
	gd.chain_count = 11;
	spring_chain2d_group *other;
	ENSURE(spring_chain2d_group_create(&gd, &other, NULL) == SPRING_OK);
	size_t other_size = spring_chain2d_group_snapshot_size(other);
	unsigned char *other_before = malloc(other_size);
	ENSURE(other_before && spring_chain2d_group_snapshot(other, other_before, other_size) == SPRING_OK);
	ENSURE(spring_chain2d_group_restore(other, blob, size, NULL) != SPRING_OK);
	ENSURE(same_block(other, other_before, other_size));
	ENSURE(spring_chain2d_group_snapshot(g, blob, size - 1) != SPRING_OK);
	free(other_before);
	free(blob);
	spring_chain2d_group_destroy(other);
	spring_chain2d_group_destroy(g);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_group_is_single_chains_bit_for_bit);
	RUN_TEST(test_comparison_can_fail);
	RUN_TEST(test_zero_offsets_keep_their_sign);
	RUN_TEST(test_long_chains_poses);
	RUN_TEST(test_paired_steps_bit_for_bit);
	RUN_TEST(test_memory);
	RUN_TEST(test_bad_descriptions);
	RUN_TEST(test_group_sizes_never_wrap);
	RUN_TEST(test_bad_input_changes_nothing);
	RUN_TEST(test_snapshot_replays_bit_for_bit);
	RUN_TEST(test_restore_refuses_bad_offsets);
	return TEST_SUMMARY();
}
