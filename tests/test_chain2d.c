// SPDX-License-Identifier: MIT
// spring_chain2d: the angle-spring chain. Each test names the trap it protects against and
// fails when that trap is re-introduced; several carry a negative control (the trap written out
// in the test) to prove the measurement can fail.
//
//  1. energy never grows (explicit Euler would);            8. limits hold, no outward velocity;
//  2. exactly at rest under a still root;                   9. gravity/wind balance the spring;
//  3. the same motion at any frame rate (clock + lerp);    10. output interpolation is smooth;
//  4. root to tip within the same step (no n-step lag);    11. one allocation, none per frame;
//  5. lengths exact (no stretch), also interpolated;       12. bad definitions and bad input;
//  6. heading sweep across +-180 never whips;              13. runtime changes keep the state;
//  7. reset / teleport inject no motion;                   14. the root-to-tip gradient.
#include "spring/chain.h"

#include "spring/verify.h"

#include "chain2d_internal.h"
#include "scenes.h"
#include "test_macros.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PI_F ((float)SPRING_PI)
#define DEG ((float)(SPRING_PI / 180.0))
#define STEP_120 (1.0f / 120.0f)
#define MAXN 16

// Hash of the standard chain2d scenario: identical for gcc, clang and wasm32 (determinism).
// Without inertia (no_inertia): pure angle springs, as before inertia existed.
#define SPRING_TEST_GOLDEN_CHAIN2D 0x3483c0d85d210eddull
// The same scenario with the default inertia (SPRING_CHAIN2D_DEFAULT_INERTIA, 0.2).
#define SPRING_TEST_GOLDEN_CHAIN2D_INERTIA 0xe1884e4cad0b51e8ull

// ---------------------------------------------------------------------------------------------
// Helpers

typedef struct box {
	spring_chain2d *c;
	void *memory;
	size_t size;
} box;

// A chain in caller memory of exactly spring_chain2d_memory_size bytes (so a copy is a twin).
static int box_make(box *b, const spring_chain2d_desc *desc)
{
	memset(b, 0, sizeof *b);
	b->size = spring_chain2d_memory_size(desc);
	if (b->size == 0 || b->size % 16 != 0) {
		return 0;
	}
	b->memory = aligned_alloc(16, b->size);
	if (!b->memory) {
		return 0;
	}
	spring_error e;
	if (spring_chain2d_init(desc, b->memory, b->size, &b->c, &e) != SPRING_OK) {
		fprintf(stderr, "  init: %s\n", e.message);
		free(b->memory);
		b->memory = NULL;
		return 0;
	}
	return 1;
}

static int box_clone(box *dst, const box *src)
{
	*dst = *src;
	dst->memory = aligned_alloc(16, src->size);
	if (!dst->memory) {
		return 0;
	}
	memcpy(dst->memory, src->memory, src->size);
	dst->c = (spring_chain2d *)dst->memory;
	return 1;
}

static void box_free(box *b)
{
	free(b->memory);
	memset(b, 0, sizeof *b);
}

static spring_params hz(float hertz, float ratio)
{
	spring_params p = {0.0f, 0.0f, 0.0f};
	if (spring_params_from_frequency(hertz, ratio, &p) != SPRING_OK) {
		fprintf(stderr, "  bad test params %g %g\n", (double)hertz, (double)ratio);
	}
	return p;
}

static void fill_segments(spring_chain2d_segment *s, int n, float length, float rest)
{
	memset(s, 0, (size_t)n * sizeof *s);
	for (int i = 0; i < n; i++) {
		s[i].length = length;
		s[i].rest_angle = rest;
	}
}

static double sin_d(double x)
{
	return spring_det_sin(x);
}

static double cos_d(double x)
{
	return spring_det_cos(x);
}

#define TAU (2.0 * SPRING_PI)

// The standard root animation: moving and rotating smoothly (a few sinusoids), `scale` units.
static spring_xform2 anim_root(double t, float scale)
{
	double a = 0.6 * sin_d(TAU * 0.5 * t) + 0.3 * sin_d(TAU * 1.1 * t);
	double x = 0.8 * sin_d(TAU * 0.4 * t) + 0.2 * sin_d(TAU * 1.7 * t);
	double y = 0.5 * sin_d(TAU * 0.9 * t);
	return scene_xform2((float)(x * scale), (float)(y * scale), (float)a);
}

static float chain_length(const spring_chain2d_segment *s, int n)
{
	float total = 0.0f;
	for (int i = 0; i < n; i++) {
		total += s[i].length;
	}
	return total;
}

static spring_vec2 tip_of(const spring_chain2d *c)
{
	spring_xform2 j[MAXN + 1];
	spring_vec2 zero = {0.0f, 0.0f};
	if (spring_chain2d_get_pose(c, j, NULL, MAXN + 1) != SPRING_OK) {
		return zero;
	}
	return j[spring_chain2d_segment_count(c)].position;
}

static double dist2(spring_vec2 a, spring_vec2 b)
{
	double dx = (double)a.x - (double)b.x, dy = (double)a.y - (double)b.y;
	return sqrt(dx * dx + dy * dy);
}

// Joints in root space (relative to the interpolated root the pose was built from) and the
// local angles. Returns 0 on failure.
static int pose_in_root_space(const spring_chain2d *c, spring_vec2 *joints, float *local)
{
	spring_xform2 j[MAXN + 1];
	int n = spring_chain2d_segment_count(c);
	if (spring_chain2d_get_pose(c, j, local, MAXN + 1) != SPRING_OK) {
		return 0;
	}
	double ra = (double)j[0].angle - (double)local[0];
	double cs = cos_d(ra), sn = sin_d(ra);
	for (int i = 0; i <= n; i++) {
		double dx = (double)j[i].position.x - (double)j[0].position.x;
		double dy = (double)j[i].position.y - (double)j[0].position.y;
		joints[i].x = (float)(cs * dx + sn * dy);
		joints[i].y = (float)(-sn * dx + cs * dy);
	}
	return 1;
}

// Half-cycle peak tracker over a sampled signal: every local maximum of |e| (refined by the
// parabola through its neighbours) must be smaller than the one before.
typedef struct peaks {
	double before, here, last;
	double floor; // peaks below this are float noise and are ignored
	int samples, count, growths;
	double worst_ratio;
} peaks;

static void peaks_init(peaks *p, double first, double floor)
{
	memset(p, 0, sizeof *p);
	p->floor = floor;
	p->before = p->here = first;
	p->last = fabs(first);
	p->samples = 1;
}

static void peaks_add(peaks *p, double next)
{
	if (p->samples >= 2) {
		double a = p->before, b = p->here, c = next;
		if (b != 0.0 && (b > 0.0) == (a > 0.0) && (b > 0.0) == (c > 0.0) && fabs(b) > fabs(a) && fabs(b) >= fabs(c)) {
			double curvature = a - 2.0 * b + c, mag = fabs(b);
			if (curvature != 0.0) {
				double refined = fabs(b - (c - a) * (c - a) / (8.0 * curvature));
				if (refined >= mag && refined <= 2.0 * mag) {
					mag = refined;
				}
			}
			if (mag > p->floor) {
				if (mag >= p->last) {
					p->growths++;
				}
				if (mag / p->last > p->worst_ratio) {
					p->worst_ratio = mag / p->last;
				}
				p->count++;
				p->last = mag;
			}
		}
	}
	p->before = p->here;
	p->here = next;
	p->samples++;
}

// ---------------------------------------------------------------------------------------------
// 1. Energy: root pinned, every segment rotated 0.5 rad off rest, free decay. Segment 0's angle
// error is one damped spring: its half-cycle peaks must strictly decrease. For a one-segment
// chain that is also the tip's distance from its rest position. (Deeper segments of a chain are
// driven by their parent at their own resonance, so the tip's peaks of a multi-segment chain
// may legitimately grow for a while; all of them must still die out.) The control runs
// explicit Euler on segment 0's spring and must be caught.

// Displaces every segment by `offset` rad (local) from rest and releases it: at rest under the
// animated offsets, which are then cleared for the next frame (reached in its first step).
static int displace(spring_chain2d *c, spring_xform2 root, float offset)
{
	float off[MAXN];
	int n = spring_chain2d_segment_count(c);
	for (int i = 0; i < n; i++) {
		off[i] = offset;
	}
	if (spring_chain2d_set_animation(c, off, n) != SPRING_OK || spring_chain2d_reset(c, root) != SPRING_OK) {
		return 0;
	}
	return spring_chain2d_set_animation(c, NULL, 0) == SPRING_OK;
}

// Rest position of the tip: root + sum of lengths along the cumulative rest angles.
static spring_vec2 rest_tip(spring_xform2 root, const spring_chain2d_segment *s, int n)
{
	double x = (double)root.position.x, y = (double)root.position.y, a = (double)root.angle;
	for (int i = 0; i < n; i++) {
		a += (double)s[i].rest_angle;
		x += (double)s[i].length * cos_d(a);
		y += (double)s[i].length * sin_d(a);
	}
	spring_vec2 p = {(float)x, (float)y};
	return p;
}

static int test_energy_never_grows(void)
{
	const float pairs[][2] = {{6.0f, 0.1f}, {2.0f, 0.3f}, {1.0f, 0.05f}, {4.0f, 0.7f}, {3.0f, 0.02f}};
	const spring_integrator integrators[] = {SPRING_INTEGRATOR_EXACT, SPRING_INTEGRATOR_SEMI_IMPLICIT};
	spring_chain2d_segment segs[5];
	fill_segments(segs, 5, 1.0f, 0.2f);
	spring_xform2 root = scene_xform2(1.0f, 2.0f, 0.3f);
	for (int k = 0; k < (int)(sizeof pairs / sizeof pairs[0]); k++) {
		for (int g = 0; g < 2; g++) {
			for (int n = 1; n <= 5; n += 4) {
				spring_chain2d_desc d = {.segment_count = n,
				                         .segments = segs,
				                         .params = hz(pairs[k][0], pairs[k][1]),
				                         .integrator = integrators[g],
				                         .root = root};
				box b;
				ENSURE(box_make(&b, &d));
				ENSURE(displace(b.c, root, 0.5f));
				spring_vec2 tip0 = rest_tip(root, segs, n);
				peaks seg0, tip;
				peaks_init(&seg0, 0.5, 1e-4);
				peaks_init(&tip, dist2(tip_of(b.c), tip0), 1e-4);
				double first_second = 0.0, last_second = 0.0;
				const int frames = 20 * 120;
				for (int f = 0; f < frames; f++) {
					ENSURE(spring_chain2d_update(b.c, root, STEP_120) == SPRING_OK);
					ENSURE(spring_chain2d_clock(b.c)->last_steps == 1);
					spring_state s;
					ENSURE(spring_chain2d_get_state(b.c, 0, &s) == SPRING_OK);
					peaks_add(&seg0, (double)spring_angle_delta(spring_chain2d_get_target(b.c, 0), s.x));
					double tip_distance = dist2(tip_of(b.c), tip0);
					// One segment: the tip's displacement, signed by the side it is on.
					double e0 = (double)spring_angle_delta(spring_chain2d_get_target(b.c, 0), s.x);
					peaks_add(&tip, e0 < 0.0 ? -tip_distance : tip_distance);
					if (f < 120) {
						first_second = fmax(first_second, tip_distance);
					}
					if (f >= frames - 120) {
						last_second = fmax(last_second, tip_distance);
					}
				}
				ENSURE_MSG(seg0.growths == 0 && seg0.count >= 2,
				           "%g Hz ratio %g integrator %d n %d: %d peaks, %d growths, worst %g", (double)pairs[k][0],
				           (double)pairs[k][1], g, n, seg0.count, seg0.growths, seg0.worst_ratio);
				if (n == 1) {
					ENSURE_MSG(tip.growths == 0, "%g Hz ratio %g integrator %d: tip of one segment: %d growths, worst %g",
					           (double)pairs[k][0], (double)pairs[k][1], g, tip.growths, tip.worst_ratio);
				}
				// Everything dies out where the damping allows it within 20 s (zeta omega >= 1/s).
				if (pairs[k][1] * pairs[k][0] * 6.2831853f >= 1.0f) {
					ENSURE_MSG(last_second < 0.01 * first_second,
					           "%g Hz ratio %g n %d: tip %g in the last second, %g in the first", (double)pairs[k][0],
					           (double)pairs[k][1], n, last_second, first_second);
				}
				box_free(&b);
			}
		}
	}
	// Control: explicit Euler on segment 0's spring (6 Hz, 0.1) at the same step must be caught.
	spring_params p = hz(6.0f, 0.1f);
	double x = 0.5, v = 0.0;
	peaks euler;
	peaks_init(&euler, x, 1e-5);
	for (int f = 0; f < 20 * 120; f++) {
		double a = -((double)p.stiffness * x + (double)p.damping * v) / (double)p.mass;
		x += v * (double)STEP_120; // position from the OLD velocity: the trap
		v += a * (double)STEP_120;
		peaks_add(&euler, x);
	}
	ENSURE_MSG(euler.growths > 0, "the energy check missed explicit Euler");
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 2. Rest: a still root for 60 s, from a displacement: the tip's motion over the last second is
// below 1e-6 of the chain length, also under gravity and resting against a limit (where keeping
// the outward velocity would leave a velocity that never dies).

static int test_rest(void)
{
	spring_chain2d_segment segs[4];
	fill_segments(segs, 4, 1.5f, 0.25f);
	const float length = chain_length(segs, 4);
	spring_xform2 root = scene_xform2(-3.0f, 4.0f, -0.7f);
	for (int scenario = 0; scenario < 4; scenario++) {
		spring_chain2d_desc d = {.segment_count = 4, .segments = segs, .root = root};
		if (scenario >= 1) {
			d.gravity = spring_vec2_make(0.0f, -9.81f);
			d.wind = spring_vec2_make(1.5f, 0.0f);
		}
		if (scenario == 2) {
			d.integrator = SPRING_INTEGRATOR_SEMI_IMPLICIT;
		}
		if (scenario == 3) {
			// Segment 1 rests against its limit: gravity sags it further than 0.02 rad.
			segs[1].limit = 0.02f;
		}
		box b;
		ENSURE(box_make(&b, &d));
		segs[1].limit = 0.0f;
		ENSURE(displace(b.c, root, 0.5f));
		float lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
		const int frames = 60 * 60;
		for (int f = 0; f < frames; f++) {
			ENSURE(spring_chain2d_update(b.c, root, 1.0f / 60.0f) == SPRING_OK);
			if (f >= frames - 60) {
				spring_vec2 t = tip_of(b.c);
				lo_x = fminf(lo_x, t.x);
				hi_x = fmaxf(hi_x, t.x);
				lo_y = fminf(lo_y, t.y);
				hi_y = fmaxf(hi_y, t.y);
			}
		}
		float move = fmaxf(hi_x - lo_x, hi_y - lo_y);
		ENSURE_MSG(move < 1e-6f * length, "scenario %d: tip moved %g over the last second", scenario, (double)move);
		for (int i = 0; i < 4; i++) {
			spring_state s;
			ENSURE(spring_chain2d_get_state(b.c, i, &s) == SPRING_OK);
			// Float noise of a resting angle under gravity is about one ulp per step (< 1e-5 rad/s);
			// an outward velocity kept at a limit would be ~0.05 rad/s.
			ENSURE_MSG(fabsf(s.v) < 1e-4f, "scenario %d segment %d: velocity %g at rest", scenario, i, (double)s.v);
		}
		if (scenario == 3) {
			spring_state s;
			ENSURE(spring_chain2d_get_state(b.c, 1, &s) == SPRING_OK);
			float swing = spring_angle_delta(spring_chain2d_get_target(b.c, 1), s.x);
			ENSURE_MSG(fabsf(fabsf(swing) - 0.02f) < 1e-5f, "segment 1 should rest on its limit (swing %g)", (double)swing);
		}
		box_free(&b);
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 3. Envelope: the same root animation (and animated offsets) at 24, 30, 60, 144, 240 fps and on a jittery clock gives
// tip trajectories within 1% of the chain length of a 1 kHz reference at common times (frames
// clipped to land on them). Control: stepping once per frame with the frame's dt and the root
// held (no clock, no input interpolation) differs by more than 1% between 24 and 240 fps.

#define ENV_CHECKPOINTS 20
#define ENV_INTERVAL 0.5
#define ENV_SCALE 1.0f

// Per-frame control chain written with the core: the root held at the frame's end, each segment
// stepped once with the frame's dt, root to tip.
typedef struct direct_chain {
	int n;
	spring_state s[MAXN];
	float length[MAXN], rest[MAXN];
	spring_params p;
	spring_xform2 root;
} direct_chain;

static void direct_frame(direct_chain *dc, spring_xform2 root, float dt)
{
	float parent = root.angle;
	for (int i = 0; i < dc->n; i++) {
		(void)spring_step_exact_angle(dc->p, &dc->s[i], parent + dc->rest[i], dt);
		parent = dc->s[i].x;
	}
	dc->root = root;
}

static spring_vec2 direct_tip(const direct_chain *dc)
{
	double x = (double)dc->root.position.x, y = (double)dc->root.position.y;
	for (int i = 0; i < dc->n; i++) {
		x += (double)dc->length[i] * cos_d((double)dc->s[i].x);
		y += (double)dc->length[i] * sin_d((double)dc->s[i].x);
	}
	spring_vec2 t = {(float)x, (float)y};
	return t;
}

// Runs the envelope animation at `fps` (0: the jittery frame clock), recording the tip at
// every checkpoint. `direct` non-NULL runs the per-frame control instead of the chain.
// The animated local offset of segment i at time t (the envelope animates the pose too).
static float anim_offset(double t, int i)
{
	return (float)(0.25 * sin_d(TAU * 0.8 * t + 0.7 * (double)i));
}

static int envelope_run(const spring_chain2d_desc *d, float fps, direct_chain *direct, spring_vec2 out[ENV_CHECKPOINTS])
{
	box b;
	if (!direct) {
		// Start at rest under the animation's first pose.
		float offsets[MAXN];
		for (int i = 0; i < d->segment_count; i++) {
			offsets[i] = anim_offset(0.0, i);
		}
		if (!box_make(&b, d)) {
			return 0;
		}
		if (spring_chain2d_set_animation(b.c, offsets, d->segment_count) != SPRING_OK ||
		    spring_chain2d_reset(b.c, d->root) != SPRING_OK) {
			box_free(&b);
			return 0;
		}
	}
	spring_frame_clock clock;
	if (spring_frame_clock_init(&clock, (double)fps, ENV_INTERVAL, 0) != SPRING_OK) {
		if (!direct) {
			box_free(&b);
		}
		return 0;
	}
	while (clock.checkpoints < ENV_CHECKPOINTS) {
		float dt = spring_frame_clock_next(&clock);
		spring_xform2 root = anim_root(clock.time, ENV_SCALE);
		float offsets[MAXN];
		for (int i = 0; !direct && i < d->segment_count; i++) {
			offsets[i] = anim_offset(clock.time, i);
		}
		if (!direct && spring_chain2d_set_animation(b.c, offsets, d->segment_count) != SPRING_OK) {
			box_free(&b);
			return 0;
		}
		if (direct) {
			direct_frame(direct, root, dt);
		} else if (spring_chain2d_update(b.c, root, dt) != SPRING_OK) {
			box_free(&b);
			return 0;
		}
		if (clock.at_checkpoint) {
			out[clock.checkpoints - 1] = direct ? direct_tip(direct) : tip_of(b.c);
		}
	}
	if (!direct) {
		box_free(&b);
	}
	return 1;
}

static double envelope_error(const spring_vec2 *a, const spring_vec2 *b)
{
	double worst = 0.0;
	for (int k = 0; k < ENV_CHECKPOINTS; k++) {
		worst = fmax(worst, dist2(a[k], b[k]));
	}
	return worst;
}

static int test_envelope_matches_across_frame_rates(void)
{
	spring_chain2d_segment segs[4];
	fill_segments(segs, 4, 1.0f, 0.3f);
	const double length = (double)chain_length(segs, 4);
	const spring_integrator integrators[] = {SPRING_INTEGRATOR_EXACT, SPRING_INTEGRATOR_SEMI_IMPLICIT};
	const float rates[] = {24.0f, 30.0f, 60.0f, 144.0f, 240.0f, 0.0f};
	for (int g = 0; g < 2; g++) {
		spring_chain2d_desc d = {.segment_count = 4,
		                         .segments = segs,
		                         .params = hz(3.0f, 0.2f),
		                         .integrator = integrators[g],
		                         .root = anim_root(0.0, ENV_SCALE)};
		spring_vec2 reference[ENV_CHECKPOINTS], run[ENV_CHECKPOINTS];
		ENSURE(envelope_run(&d, 1000.0f, NULL, reference));
		for (int r = 0; r < (int)(sizeof rates / sizeof rates[0]); r++) {
			ENSURE(envelope_run(&d, rates[r], NULL, run));
			double error = envelope_error(run, reference) / length;
			char label[32];
			if (rates[r] > 0.0f) {
				snprintf(label, sizeof label, "%g fps", (double)rates[r]);
			} else {
				snprintf(label, sizeof label, "jittery clock");
			}
			printf("  envelope %-13s %-13s worst %.5f of the chain length\n", g ? "semi-implicit" : "exact", label, error);
			ENSURE_MSG(error < 0.01, "%g fps: %g", (double)rates[r], error);
		}
	}
	// Control: per-frame stepping with the root held.
	direct_chain dc;
	memset(&dc, 0, sizeof dc);
	dc.n = 4;
	dc.p = hz(3.0f, 0.2f);
	spring_xform2 root0 = anim_root(0.0, ENV_SCALE);
	float parent = root0.angle;
	for (int i = 0; i < 4; i++) {
		dc.length[i] = segs[i].length;
		dc.rest[i] = segs[i].rest_angle;
		parent += segs[i].rest_angle;
		dc.s[i].x = parent;
	}
	dc.root = root0;
	direct_chain d24 = dc, d240 = dc;
	spring_vec2 at24[ENV_CHECKPOINTS], at240[ENV_CHECKPOINTS];
	ENSURE(envelope_run(NULL, 24.0f, &d24, at24));
	ENSURE(envelope_run(NULL, 240.0f, &d240, at240));
	double control = envelope_error(at24, at240) / length;
	printf("  envelope control (per-frame dt, root held): 24 vs 240 fps differ by %.4f of the chain length\n", control);
	ENSURE_MSG(control > 0.01, "the control should diverge: %g", control);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 4. Same-step propagation: from rest, the root rotates in an update that runs exactly one step;
// every segment's target changes in that same step, and each target is its parent's angle
// simulated in this step plus the rest angle. Control: a lagged chain (each segment reading its
// parent's angle of the previous step) leaves the tip's target unchanged.

static int test_root_reaches_tip_in_the_same_step(void)
{
	enum { N = 5 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.1f);
	spring_chain2d_desc d = {
		.segment_count = N, .segments = segs, .params = hz(8.0f, 0.3f), .root = scene_xform2(0.0f, 0.0f, 0.0f)};
	box b;
	ENSURE(box_make(&b, &d));
	float before[N], after[N];
	for (int i = 0; i < N; i++) {
		before[i] = spring_chain2d_get_target(b.c, i);
	}
	ENSURE(spring_chain2d_update(b.c, scene_xform2(0.0f, 0.0f, 0.3f), STEP_120) == SPRING_OK);
	ENSURE(spring_chain2d_clock(b.c)->last_steps == 1);
	for (int i = 0; i < N; i++) {
		after[i] = spring_chain2d_get_target(b.c, i);
		ENSURE_MSG(after[i] != before[i], "segment %d's target did not change in the step the root moved", i);
		float parent = 0.3f;
		if (i > 0) {
			spring_state s;
			ENSURE(spring_chain2d_get_state(b.c, i - 1, &s) == SPRING_OK);
			parent = s.x;
		}
		ENSURE_NEAR(spring_angle_delta(parent + segs[i].rest_angle, after[i]), 0.0, 1e-7);
	}
	box_free(&b);

	// Control: the lagged order, written with the core.
	spring_params p = hz(8.0f, 0.3f);
	spring_state s[N];
	float target[N], lag_before[N], parent = 0.0f;
	for (int i = 0; i < N; i++) {
		parent += segs[i].rest_angle;
		s[i].x = parent;
		s[i].v = 0.0f;
		lag_before[i] = parent;
	}
	float previous[N];
	for (int i = 0; i < N; i++) {
		previous[i] = s[i].x; // last step's angles
	}
	for (int i = 0; i < N; i++) {
		target[i] = (i == 0 ? 0.3f : previous[i - 1]) + segs[i].rest_angle;
		ENSURE(spring_step_exact_angle(p, &s[i], target[i], STEP_120) == SPRING_OK);
	}
	ENSURE(target[0] != lag_before[0]);
	ENSURE_MSG(target[N - 1] == lag_before[N - 1], "the lagged control should leave the tip's target unchanged");
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 5. No stretch: joint distances equal the segment lengths (relative 1e-5) at every frame, with
// interpolation (144 fps over 120 Hz physics), during violent motion.

static int test_lengths_are_exact(void)
{
	enum { N = 5 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.4f);
	const float lengths[N] = {0.5f, 1.0f, 2.0f, 0.25f, 1.5f};
	for (int i = 0; i < N; i++) {
		segs[i].length = lengths[i];
	}
	spring_chain2d_desc d = {
		.segment_count = N, .segments = segs, .params = hz(2.0f, 0.1f), .gravity = {0.0f, -9.81f}, .root = anim_root(0.0, 3.0f)};
	box b;
	ENSURE(box_make(&b, &d));
	double worst = 0.0;
	int interpolated = 0;
	for (int f = 1; f <= 144 * 5; f++) {
		spring_xform2 root = anim_root((double)f / 144.0, 3.0f);
		root.angle *= 4.0f; // violent
		ENSURE(spring_chain2d_update(b.c, root, 1.0f / 144.0f) == SPRING_OK);
		interpolated += spring_chain2d_clock(b.c)->alpha > 0.0f;
		spring_xform2 j[N + 1];
		ENSURE(spring_chain2d_get_pose(b.c, j, NULL, N + 1) == SPRING_OK);
		for (int i = 0; i < N; i++) {
			double e = fabs(dist2(j[i].position, j[i + 1].position) - (double)lengths[i]) / (double)lengths[i];
			worst = fmax(worst, e);
		}
	}
	printf("  worst relative length error %.3g\n", worst);
	ENSURE(interpolated > 100);
	ENSURE(worst < 1e-5);
	box_free(&b);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 6. Heading sweep: the root turns a full circle each way in 1-degree steps per frame, from
// several headings including near 180: no segment's world angle jumps more than a few degrees
// per frame and the tip never swings the long way (it stays near its rigid target). Control: the
// same chain stepped with the plain (non-angle) spring on wrapped angles whips at the crossing.

static int sweep(spring_chain2d *c, float start, int control, const spring_chain2d_segment *segs, int n, float *worst_jump,
                 float *worst_lag)
{
	spring_state plain[MAXN];
	spring_params p = hz(2.0f, 0.3f);
	float parent = spring_angle_wrap(start);
	for (int i = 0; i < n; i++) {
		parent = spring_angle_wrap(parent + segs[i].rest_angle);
		plain[i].x = parent;
		plain[i].v = 0.0f;
	}
	float last[MAXN];
	spring_xform2 j[MAXN + 1];
	if (!control) {
		if (spring_chain2d_reset(c, scene_xform2(0.0f, 0.0f, start)) != SPRING_OK ||
		    spring_chain2d_get_pose(c, j, NULL, MAXN + 1) != SPRING_OK) {
			return 0;
		}
	}
	for (int i = 0; i < n; i++) {
		last[i] = control ? plain[i].x : j[i].angle;
	}
	*worst_jump = 0.0f;
	*worst_lag = 0.0f;
	// +360 degrees, then -720 degrees (back through the start and a full turn the other way).
	for (int f = 1; f <= 360 + 720; f++) {
		int k = f <= 360 ? f : 720 - f;
		float heading = start + (float)k * DEG; // unwrapped input, as a game would pass it
		float a[MAXN];
		if (control) {
			// The trap: plain subtraction on wrapped angles (spring_step_exact, not _angle).
			float target = spring_angle_wrap(heading);
			for (int s = 0; s < 2; s++) {
				float par = target;
				for (int i = 0; i < n; i++) {
					(void)spring_step_exact(p, &plain[i], spring_angle_wrap(par + segs[i].rest_angle), STEP_120);
					plain[i].x = spring_angle_wrap(plain[i].x);
					par = plain[i].x;
				}
			}
			for (int i = 0; i < n; i++) {
				a[i] = plain[i].x;
			}
		} else {
			if (spring_chain2d_update(c, scene_xform2(0.0f, 0.0f, heading), 1.0f / 60.0f) != SPRING_OK ||
			    spring_chain2d_get_pose(c, j, NULL, MAXN + 1) != SPRING_OK) {
				return 0;
			}
			for (int i = 0; i < n; i++) {
				a[i] = j[i].angle;
			}
		}
		float rigid = heading;
		for (int i = 0; i < n; i++) {
			*worst_jump = fmaxf(*worst_jump, fabsf(spring_angle_delta(last[i], a[i])));
			last[i] = a[i];
			rigid += segs[i].rest_angle;
		}
		*worst_lag = fmaxf(*worst_lag, fabsf(spring_angle_delta(rigid, a[n - 1])));
	}
	return 1;
}

static int test_heading_sweep_never_whips(void)
{
	enum { N = 5 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.15f);
	const float starts[] = {0.0f, PI_F - 0.5f * DEG, -PI_F + 0.5f * DEG, PI_F, 3.0f * PI_F, -2.0f};
	float worst_jump = 0.0f, worst_lag = 0.0f;
	for (int g = 0; g < 2; g++) {
		float best_jump = INFINITY, best_lag = INFINITY, most_jump = 0.0f, most_lag = 0.0f;
		spring_chain2d_desc d = {.segment_count = N,
		                         .segments = segs,
		                         .params = hz(2.0f, 0.3f),
		                         .integrator = g ? SPRING_INTEGRATOR_SEMI_IMPLICIT : SPRING_INTEGRATOR_EXACT};
		box b;
		ENSURE(box_make(&b, &d));
		for (int k = 0; k < (int)(sizeof starts / sizeof starts[0]); k++) {
			float jump, lag;
			ENSURE(sweep(b.c, starts[k], 0, segs, N, &jump, &lag));
			if (k == 1) {
				printf("  sweep (%s) from 179.5 deg: worst per-frame jump %.2f deg, worst tip lag %.2f deg\n",
				       g ? "semi-implicit" : "exact", (double)(jump / DEG), (double)(lag / DEG));
			}
			worst_jump = fmaxf(worst_jump, jump);
			worst_lag = fmaxf(worst_lag, lag);
			most_jump = fmaxf(most_jump, jump);
			most_lag = fmaxf(most_lag, lag);
			best_jump = fminf(best_jump, jump);
			best_lag = fminf(best_lag, lag);
		}
		// The heading does not matter: every start gives the same figures.
		ENSURE(most_jump - best_jump < 1e-3f * DEG && most_lag - best_lag < 1e-3f * DEG);
		box_free(&b);
	}
	float jump, lag;
	ENSURE(sweep(NULL, PI_F - 0.5f * DEG, 1, segs, N, &jump, &lag));
	printf("  control (plain subtraction): worst jump %.1f deg, worst tip lag %.1f deg\n", (double)(jump / DEG),
	       (double)(lag / DEG));
	ENSURE_MSG(jump > 20.0f * DEG && lag > 90.0f * DEG, "the sweep control should whip");
	// The chain's own dynamics (the reversal after a full turn) move the tip up to ~5 degrees in
	// a frame; a whip is tens of degrees per frame and the tip on the far side.
	ENSURE(worst_jump < 8.0f * DEG && worst_lag < 45.0f * DEG);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 7. Teleport: the root jumps 2000 units and turns 90 degrees while the chain swings.
//  - reset: the peak tip speed over the next second stays below the peak before the jump
//    (control: feeding the jump as motion makes the chain thrash above it);
//  - teleport: the shape relative to the root is unchanged by the call and afterwards the chain
//    moves exactly like a twin that never jumped (in root space).

#define TP_FPS 60.0f
#define TP_JUMP_FRAME 90 // 1.5 s

// Root animation before the jump: a swing in the first second, then a slow drift.
static spring_xform2 tp_root(int frame)
{
	double t = (double)frame / (double)TP_FPS;
	double a = t < 1.0 ? 0.5 * sin_d(TAU * 0.5 * t) : 0.0; // one half wave, back to 0
	return scene_xform2((float)(10.0 * sin_d(TAU * 0.5 * t)), (float)(5.0 * sin_d(TAU * 0.3 * t)), (float)a);
}

// The rigid jump T: rotate by 90 degrees about the origin and move by (2000, 300).
static spring_xform2 tp_jump(spring_xform2 r)
{
	spring_xform2 out = scene_xform2(-r.position.y + 2000.0f, r.position.x + 300.0f, r.angle + 0.5f * PI_F);
	return out;
}

// mode 0: reset at the jump; 1: no call (the jump is seen as motion); returns the peak tip speed
// before the jump and over the second after it.
static int tp_speeds(const spring_chain2d_desc *d, int mode, double *before, double *after)
{
	box b;
	if (!box_make(&b, d)) {
		return 0;
	}
	*before = 0.0;
	*after = 0.0;
	spring_vec2 last = tip_of(b.c);
	const float dt = 1.0f / TP_FPS;
	for (int f = 1; f <= TP_JUMP_FRAME + 60; f++) {
		spring_xform2 root = f >= TP_JUMP_FRAME ? tp_jump(tp_root(f)) : tp_root(f);
		if (f == TP_JUMP_FRAME && mode == 0 && spring_chain2d_reset(b.c, root) != SPRING_OK) {
			return 0;
		}
		if (spring_chain2d_update(b.c, root, dt) != SPRING_OK) {
			return 0;
		}
		spring_vec2 tip = tip_of(b.c);
		double speed = dist2(tip, last) / (double)dt;
		last = tip;
		if (f < TP_JUMP_FRAME) {
			*before = fmax(*before, speed);
		} else if (f > TP_JUMP_FRAME + 1) {
			// The jump moves the pose 2000 units by definition; without a reset the output
			// interpolation spreads that over two frames (a streak), so both are skipped: what is
			// measured is the swing.
			*after = fmax(*after, speed);
		}
	}
	box_free(&b);
	return 1;
}

static int test_teleport(void)
{
	enum { N = 5 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 20.0f, 0.2f);
	const double length = (double)chain_length(segs, N);
	spring_chain2d_desc d = {.segment_count = N, .segments = segs, .params = hz(2.0f, 0.2f), .root = tp_root(0)};
	double before, after;
	ENSURE(tp_speeds(&d, 0, &before, &after));
	printf("  reset: peak tip speed %.1f before, %.1f after\n", before, after);
	ENSURE(before > 100.0);
	ENSURE(after < before);
	ENSURE(tp_speeds(&d, 1, &before, &after));
	printf("  control (jump fed as motion): peak tip speed %.1f before, %.1f after\n", before, after);
	ENSURE_MSG(after > 2.0 * before, "the control should thrash");

	// Teleport keeps the shape and the motion.
	box b, twin;
	ENSURE(box_make(&b, &d));
	const float dt = 1.0f / TP_FPS;
	for (int f = 1; f < TP_JUMP_FRAME; f++) {
		ENSURE(spring_chain2d_update(b.c, tp_root(f), dt) == SPRING_OK);
	}
	spring_vec2 j0[N + 1], j1[N + 1];
	float l0[N], l1[N];
	// Reset puts a swinging chain exactly at rest: rest local angles, zero velocities, and the
	// output no longer interpolates from the old state.
	ENSURE(box_clone(&twin, &b));
	ENSURE(spring_chain2d_reset(twin.c, tp_jump(tp_root(TP_JUMP_FRAME))) == SPRING_OK);
	ENSURE(pose_in_root_space(twin.c, j0, l0));
	for (int i = 0; i < N; i++) {
		spring_state s;
		ENSURE(spring_chain2d_get_state(twin.c, i, &s) == SPRING_OK);
		ENSURE(s.v == 0.0f);
		ENSURE_NEAR(l0[i], segs[i].rest_angle, 1e-6);
		ENSURE_NEAR(spring_chain2d_get_target(twin.c, i), s.x, 1e-6);
	}
	spring_xform2 at0[N + 1], at1[N + 1];
	ENSURE(spring_chain2d_internal_pose(twin.c, 0.0f, at0, NULL, N + 1) == SPRING_OK);
	ENSURE(spring_chain2d_internal_pose(twin.c, 1.0f, at1, NULL, N + 1) == SPRING_OK);
	ENSURE(memcmp(at0, at1, sizeof at0) == 0);
	box_free(&twin);

	ENSURE(box_clone(&twin, &b));
	ENSURE(pose_in_root_space(b.c, j0, l0));
	spring_state s0[N], s1[N];
	for (int i = 0; i < N; i++) {
		ENSURE(spring_chain2d_get_state(b.c, i, &s0[i]) == SPRING_OK);
	}
	ENSURE(spring_chain2d_teleport(b.c, tp_jump(tp_root(TP_JUMP_FRAME - 1))) == SPRING_OK);
	ENSURE(pose_in_root_space(b.c, j1, l1));
	for (int i = 0; i < N; i++) {
		ENSURE(spring_chain2d_get_state(b.c, i, &s1[i]) == SPRING_OK);
		ENSURE_NEAR(spring_angle_delta(l0[i], l1[i]), 0.0, 1e-5);
		ENSURE(s1[i].v == s0[i].v); // angular velocities unchanged
	}
	for (int i = 0; i <= N; i++) {
		ENSURE_NEAR(j0[i].x, j1[i].x, 1e-4 * length);
		ENSURE_NEAR(j0[i].y, j1[i].y, 1e-4 * length);
	}
	double worst_angle = 0.0, worst_position = 0.0, moving = 0.0;
	for (int f = TP_JUMP_FRAME; f <= TP_JUMP_FRAME + 60; f++) {
		ENSURE(spring_chain2d_update(b.c, tp_jump(tp_root(f)), dt) == SPRING_OK);
		ENSURE(spring_chain2d_update(twin.c, tp_root(f), dt) == SPRING_OK);
		ENSURE(pose_in_root_space(b.c, j1, l1));
		ENSURE(pose_in_root_space(twin.c, j0, l0));
		for (int i = 0; i < N; i++) {
			worst_angle = fmax(worst_angle, fabs((double)spring_angle_delta(l0[i], l1[i])));
			spring_state s;
			ENSURE(spring_chain2d_get_state(twin.c, i, &s) == SPRING_OK);
			moving = fmax(moving, fabs((double)s.v));
		}
		for (int i = 0; i <= N; i++) {
			worst_position = fmax(worst_position, dist2(j0[i], j1[i]) / length);
		}
	}
	printf("  teleport vs twin: worst local angle %.2g rad, worst root-space position %.2g of the chain length\n", worst_angle,
	       worst_position);
	ENSURE(moving > 0.5); // the chain was still swinging: the comparison is not trivial
	ENSURE(worst_angle < 1e-4);
	ENSURE(worst_position < 1e-4);
	// translate / rotate: the same teleport expressed as a rigid move of the current root; the
	// local angles (the shape) do not change.
	ENSURE(pose_in_root_space(b.c, j0, l0));
	ENSURE(spring_chain2d_translate(b.c, spring_vec2_make(-700.0f, 250.0f)) == SPRING_OK);
	ENSURE(spring_chain2d_rotate(b.c, 2.5f, spring_vec2_make(30.0f, -40.0f)) == SPRING_OK);
	ENSURE(pose_in_root_space(b.c, j1, l1));
	for (int i = 0; i < N; i++) {
		ENSURE_NEAR(spring_angle_delta(l0[i], l1[i]), 0.0, 1e-5);
	}
	for (int i = 0; i <= N; i++) {
		ENSURE_NEAR(j0[i].x, j1[i].x, 1e-4 * length);
		ENSURE_NEAR(j0[i].y, j1[i].y, 1e-4 * length);
	}
	ENSURE(spring_chain2d_translate(b.c, spring_vec2_make(INFINITY, 0.0f)) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_rotate(b.c, NAN, spring_vec2_make(0.0f, 0.0f)) == SPRING_ERROR_NOT_FINITE);
	box_free(&b);
	box_free(&twin);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 8. Limits: a 30-degree limit under a violently moving root: after every step every segment's
// swing from its target is within the limit and the velocity at the clamp is not outward.
// Control: without the limit the same motion swings far beyond 30 degrees.

static int limit_run(int limited, spring_integrator integrator, float *worst_swing, int *clamped)
{
	enum { N = 4 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.2f);
	const float limit = 30.0f * DEG;
	for (int i = 0; i < N; i++) {
		segs[i].limit = limited ? limit : 0.0f;
	}
	spring_chain2d_desc d = {
		.segment_count = N, .segments = segs, .params = hz(3.0f, 0.1f), .integrator = integrator, .gravity = {0.0f, -30.0f}};
	box b;
	if (!box_make(&b, &d)) {
		return 0;
	}
	*worst_swing = 0.0f;
	*clamped = 0;
	uint32_t seed = 12345u;
	float heading = 0.0f;
	for (int f = 0; f < 5 * 120; f++) {
		if (f % 20 == 0) {
			heading = 2.5f * ((float)spring_random_unit(&seed) - 0.5f) * 2.0f; // jumps of up to 2.5 rad
		}
		float a = heading + 1.5f * (float)sin_d(TAU * 3.0 * (double)f / 120.0);
		if (spring_chain2d_update(b.c, scene_xform2(0.0f, 0.0f, a), STEP_120) != SPRING_OK) {
			return 0;
		}
		for (int i = 0; i < N; i++) {
			spring_state s;
			if (spring_chain2d_get_state(b.c, i, &s) != SPRING_OK) {
				return 0;
			}
			float swing = spring_angle_delta(spring_chain2d_get_target(b.c, i), s.x);
			*worst_swing = fmaxf(*worst_swing, fabsf(swing));
			if (limited && fabsf(swing) >= limit - 1e-6f) {
				(*clamped)++;
				if (s.v * swing > 0.0f) {
					fprintf(stderr, "  outward velocity %g at the clamp (swing %g)\n", (double)s.v, (double)swing);
					return 0;
				}
			}
		}
	}
	box_free(&b);
	return 1;
}

static int test_limits(void)
{
	for (int g = 0; g < 2; g++) {
		spring_integrator integrator = g ? SPRING_INTEGRATOR_SEMI_IMPLICIT : SPRING_INTEGRATOR_EXACT;
		float swing;
		int clamped;
		ENSURE(limit_run(1, integrator, &swing, &clamped));
		ENSURE_MSG(swing <= 30.0f * DEG + 1e-5f, "swing %g deg", (double)(swing / DEG));
		ENSURE(clamped > 50);
		if (g == 0) {
			printf("  limited: worst swing %.4f deg, %d clamped segment-steps\n", (double)(swing / DEG), clamped);
		}
		ENSURE(limit_run(0, integrator, &swing, &clamped));
		ENSURE_MSG(swing > 60.0f * DEG, "the unlimited control swings only %g deg", (double)(swing / DEG));
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 9. Gravity and wind: a horizontal chain settles where the spring torque balances the gravity
// torque of a uniform rod, k (theta - target) / m = 1.5 cross(d, g) / L, for every segment; wind
// adds to gravity; a hanging chain is pushed downwind.

static int check_balance(const spring_chain2d *c, const spring_chain2d_segment *segs, int n, spring_vec2 force)
{
	for (int i = 0; i < n; i++) {
		spring_state s;
		if (spring_chain2d_get_state(c, i, &s) != SPRING_OK) {
			return 0;
		}
		spring_params p = spring_chain2d_internal_params(c, i);
		double swing = (double)spring_angle_delta(spring_chain2d_get_target(c, i), s.x);
		double spring_side = (double)p.stiffness * swing / (double)p.mass;
		double dx = cos_d((double)s.x), dy = sin_d((double)s.x);
		double gravity_side = 1.5 * (dx * (double)force.y - dy * (double)force.x) / (double)segs[i].length;
		if (!(fabs(spring_side - gravity_side) < 1e-3) || fabs(gravity_side) < 0.5) {
			fprintf(stderr, "  segment %d: spring %g vs gravity %g\n", i, spring_side, gravity_side);
			return 0;
		}
	}
	return 1;
}

static int settle(spring_chain2d *c, spring_xform2 root, float seconds)
{
	for (int f = 0; f < (int)(seconds * 60.0f); f++) {
		if (spring_chain2d_update(c, root, 1.0f / 60.0f) != SPRING_OK) {
			return 0;
		}
	}
	return 1;
}

static int test_gravity_and_wind(void)
{
	enum { N = 3 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.0f);
	segs[1].length = 2.0f;
	const spring_vec2 g = {0.0f, -9.81f}, wind = {2.0f, 5.0f};
	for (int k = 0; k < 2; k++) {
		spring_chain2d_desc d = {.segment_count = N,
		                         .segments = segs,
		                         .params = hz(2.0f, 0.5f),
		                         .gravity = g,
		                         .integrator = k ? SPRING_INTEGRATOR_SEMI_IMPLICIT : SPRING_INTEGRATOR_EXACT,
		                         .root = scene_xform2(0.0f, 0.0f, 0.0f)};
		box b;
		ENSURE(box_make(&b, &d));
		ENSURE(settle(b.c, d.root, 20.0f));
		ENSURE(check_balance(b.c, segs, N, g));
		spring_vec2 tip = tip_of(b.c);
		ENSURE(tip.y < -0.1f); // sags down, not up
		spring_state before;
		ENSURE(spring_chain2d_get_state(b.c, 0, &before) == SPRING_OK);
		ENSURE(spring_chain2d_set_forces(b.c, g, wind) == SPRING_OK);
		ENSURE(settle(b.c, d.root, 20.0f));
		ENSURE(check_balance(b.c, segs, N, spring_vec2_add(g, wind)));
		spring_state with_wind;
		ENSURE(spring_chain2d_get_state(b.c, 0, &with_wind) == SPRING_OK);
		ENSURE(with_wind.x - before.x > 0.01f); // wind (2, 5) lifts a chain pointing +x
		box_free(&b);
	}
	// Hanging chain with wind only: pushed downwind (+x).
	spring_chain2d_desc d = {.segment_count = N,
	                         .segments = segs,
	                         .params = hz(2.0f, 0.5f),
	                         .wind = {3.0f, 0.0f},
	                         .root = scene_xform2(5.0f, 5.0f, -0.5f * PI_F)};
	box b;
	ENSURE(box_make(&b, &d));
	ENSURE(settle(b.c, d.root, 20.0f));
	ENSURE(check_balance(b.c, segs, N, d.wind));
	ENSURE(tip_of(b.c).x > 5.1f);
	box_free(&b);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 10. Interpolation smoothness: rendering at 144 and 240 Hz over 120 Hz physics, the RMS second
// difference of the tip is clearly lower with the interpolated pose than with the last stepped
// one (which stutters when frames get 0 or 2 steps).

static int test_interpolation_is_smooth(void)
{
	enum { N = 4 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.2f);
	const float rates[] = {144.0f, 240.0f};
	for (int r = 0; r < 2; r++) {
		spring_chain2d_desc d = {.segment_count = N, .segments = segs, .params = hz(2.0f, 0.4f), .root = anim_root(0.0, 1.0f)};
		box b;
		ENSURE(box_make(&b, &d));
		spring_vec2 hist[2][3];
		double sum[2] = {0.0, 0.0};
		int count = 0;
		const int frames = (int)(rates[r] * 4.0f);
		for (int f = 1; f <= frames; f++) {
			ENSURE(spring_chain2d_update(b.c, anim_root((double)f / (double)rates[r], 1.0f), 1.0f / rates[r]) == SPRING_OK);
			spring_xform2 j[N + 1];
			for (int m = 0; m < 2; m++) {
				if (m == 0) {
					ENSURE(spring_chain2d_get_pose(b.c, j, NULL, N + 1) == SPRING_OK);
				} else {
					ENSURE(spring_chain2d_internal_pose(b.c, 1.0f, j, NULL, N + 1) == SPRING_OK);
				}
				hist[m][0] = hist[m][1];
				hist[m][1] = hist[m][2];
				hist[m][2] = j[N].position;
				if (f >= 3) {
					double ax = (double)hist[m][2].x - 2.0 * (double)hist[m][1].x + (double)hist[m][0].x;
					double ay = (double)hist[m][2].y - 2.0 * (double)hist[m][1].y + (double)hist[m][0].y;
					sum[m] += ax * ax + ay * ay;
				}
			}
			count += f >= 3;
		}
		double with = sqrt(sum[0] / count), without = sqrt(sum[1] / count);
		printf("  %g Hz render: RMS second difference %.3g interpolated, %.3g last step (ratio %.3f)\n", (double)rates[r], with,
		       without, with / without);
		ENSURE(with < 0.5 * without);
		box_free(&b);
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 11. Memory: create makes exactly one allocation through the hooks, updates make none; init
// works in caller memory of exactly spring_chain2d_memory_size bytes and refuses one byte less
// or misaligned memory; destroy frees once, and never a byte copy.

static int test_memory(void)
{
	enum { N = 6 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.2f);
	spring_chain2d_desc d = {.segment_count = N, .segments = segs, .gravity = {0.0f, -9.81f}};
	scene_alloc_counter count = {.alignment = 16};
	spring_allocator counting = scene_counting_allocator(&count);
	spring_set_allocator(&counting);
	spring_chain2d *c = NULL;
	spring_error e;
	int ok = spring_chain2d_create(&d, &c, &e) == SPRING_OK && c != NULL;
	int after_create = count.allocs;
	float offsets[N] = {0.1f, -0.1f, 0.2f, 0.0f, 0.3f, 0.0f};
	uint32_t seed = 7u;
	for (int f = 0; ok && f < 10000; f++) {
		float dt = 0.002f + 0.03f * (float)spring_random_unit(&seed);
		ok = spring_chain2d_set_animation(c, (f & 1) ? offsets : NULL, N) == SPRING_OK &&
		     spring_chain2d_update(c, anim_root((double)f * 0.01, 2.0f), dt) == SPRING_OK;
		spring_xform2 j[N + 1];
		float local[N];
		ok = ok && spring_chain2d_get_pose(c, j, local, N + 1) == SPRING_OK;
		if (f == 5000) {
			ok = ok && spring_chain2d_teleport(c, scene_xform2(100.0f, 0.0f, 1.0f)) == SPRING_OK &&
			     spring_chain2d_reset(c, scene_xform2(0.0f, 0.0f, 0.0f)) == SPRING_OK;
		}
	}
	int after_updates = count.allocs;
	// A byte copy of a created chain is never freed by destroy (it does not own its block).
	size_t size = spring_chain2d_memory_size(&d);
	void *copy = aligned_alloc(16, size);
	if (copy && c) {
		memcpy(copy, c, size);
		spring_chain2d_destroy((spring_chain2d *)copy);
	}
	int frees_after_copy = count.frees;
	spring_chain2d_destroy(c);
	spring_chain2d_destroy(NULL);
	int frees = count.frees;
	// Out of memory.
	count.fail = 1;
	spring_chain2d *none = NULL;
	spring_result oom = spring_chain2d_create(&d, &none, &e);
	count.fail = 0;
	spring_set_allocator(NULL);
	free(copy);
	ENSURE(ok);
	ENSURE(after_create == 1);
	ENSURE(after_updates == 1);
	ENSURE(frees_after_copy == 0);
	ENSURE(frees == 1);
	ENSURE(oom == SPRING_ERROR_OUT_OF_MEMORY && none == NULL && e.result == SPRING_ERROR_OUT_OF_MEMORY);

	// Caller memory: exactly the size works, one byte less and misaligned fail.
	ENSURE(size > 0 && size % 16 == 0);
	ENSURE(size >= (size_t)N * 60);
	unsigned char *memory = (unsigned char *)aligned_alloc(16, size + 16);
	ENSURE(memory);
	spring_chain2d *in = NULL;
	ENSURE(spring_chain2d_init(&d, memory, size - 1, &in, &e) == SPRING_ERROR_INVALID_ARGUMENT && in == NULL);
	ENSURE(strcmp(e.field, "memory") == 0);
	ENSURE(spring_chain2d_init(&d, memory + 8, size, &in, &e) == SPRING_ERROR_INVALID_ARGUMENT && in == NULL);
	ENSURE(spring_chain2d_init(&d, NULL, size, &in, &e) == SPRING_ERROR_INVALID_ARGUMENT && in == NULL);
	ENSURE(spring_chain2d_init(&d, memory, size, NULL, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	free(memory);
	// Exactly `size` bytes (so the sanitizer sees any overrun).
	memory = (unsigned char *)aligned_alloc(16, size);
	ENSURE(memory);
	ENSURE(spring_chain2d_init(&d, memory, size, &in, &e) == SPRING_OK && in == (spring_chain2d *)(void *)memory);
	for (int f = 0; f < 200; f++) {
		ENSURE(spring_chain2d_update(in, anim_root((double)f / 30.0, 1.0f), 1.0f / 30.0f) == SPRING_OK);
	}
	spring_chain2d_destroy(in); // no-op for caller memory
	free(memory);
	// The largest chain.
	spring_chain2d_segment *many = (spring_chain2d_segment *)calloc(SPRING_CHAIN_MAX_BONES, sizeof *many);
	ENSURE(many);
	fill_segments(many, SPRING_CHAIN_MAX_BONES, 0.1f, 0.01f);
	spring_chain2d_desc big = {.segment_count = SPRING_CHAIN_MAX_BONES, .segments = many};
	spring_chain2d *bc = NULL;
	ENSURE(spring_chain2d_create(&big, &bc, NULL) == SPRING_OK);
	for (int f = 0; f < 60; f++) {
		ENSURE(spring_chain2d_update(bc, anim_root((double)f / 60.0, 1.0f), 1.0f / 60.0f) == SPRING_OK);
	}
	spring_chain2d_destroy(bc);
	free(many);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 12. Bad definitions and bad input: every invalid description is refused with the right code
// and an error naming the segment and field; bad runtime input changes nothing, bit for bit.

#define IA SPRING_ERROR_INVALID_ARGUMENT
#define NF SPRING_ERROR_NOT_FINITE
#define OOR SPRING_ERROR_OUT_OF_RANGE
#define UNST SPRING_ERROR_UNSTABLE

typedef struct bad_case {
	const char *what;
	spring_result code;
	int index;
	const char *field;
} bad_case;

static const bad_case bad_cases[] = {
	{"negative length", OOR, 3, "length"},
	{"NaN length", NF, 1, "length"},
	{"zero length", OOR, 0, "length"},
	{"infinite length", NF, 2, "length"},
	{"NaN rest angle", NF, 2, "rest_angle"},
	{"negative damping", OOR, 1, "params"},
	{"NaN stiffness", NF, 0, "params"},
	{"zero stiffness with a mass", OOR, 3, "params"},
	{"limit above pi", OOR, 1, "limit"},
	{"negative limit", OOR, 0, "limit"},
	{"NaN limit", NF, 2, "limit"},
	{"segment_count 0", IA, -1, "segment_count"},
	{"segment_count above the max", IA, -1, "segment_count"},
	{"NULL segments", IA, -1, "segments"},
	{"NaN gravity", NF, -1, "gravity"},
	{"infinite wind", NF, -1, "wind"},
	{"negative step", OOR, -1, "step"},
	{"NaN step", NF, -1, "step"},
	{"step above 1 s", OOR, -1, "step"},
	{"negative max_steps", OOR, -1, "max_steps"},
	{"max_steps above 1000", OOR, -1, "max_steps"},
	{"unknown integrator", IA, -1, "integrator"},
	{"semi-implicit unstable on one segment", UNST, 2, "params"},
	{"semi-implicit unstable chain params", UNST, 0, "params"},
	{"chain params with negative damping", OOR, -1, "params"},
	{"tip_params with NaN mass", NF, -1, "tip_params"},
	{"NaN root", NF, -1, "root"},
	{"NULL description", IA, -1, "desc"},
	{"step one float below the shortest", OOR, -1, "step"},
	{"denormal step", OOR, -1, "step"},
	{"rest angle past the largest", OOR, 1, "rest_angle"},
	{"rest angle past minus the largest", OOR, 3, "rest_angle"},
};

static const spring_chain2d_desc *make_bad(int k, spring_chain2d_desc *d, spring_chain2d_segment *s)
{
	const float nan = NAN, inf = INFINITY;
	switch (k) {
	case 0: s[3].length = -1.0f; break;
	case 1: s[1].length = nan; break;
	case 2: s[0].length = 0.0f; break;
	case 3: s[2].length = inf; break;
	case 4: s[2].rest_angle = nan; break;
	case 5: s[1].params = (spring_params){10.0f, -1.0f, 1.0f}; break;
	case 6: s[0].params = (spring_params){nan, 1.0f, 1.0f}; break;
	case 7: s[3].params = (spring_params){0.0f, 0.0f, 1.0f}; break;
	case 8: s[1].limit = 4.0f; break;
	case 9: s[0].limit = -0.1f; break;
	case 10: s[2].limit = nan; break;
	case 11: d->segment_count = 0; break;
	case 12: d->segment_count = SPRING_CHAIN_MAX_BONES + 1; break;
	case 13: d->segments = NULL; break;
	case 14: d->gravity.y = nan; break;
	case 15: d->wind.x = -inf; break;
	case 16: d->step = -0.01f; break;
	case 17: d->step = nan; break;
	case 18: d->step = 2.0f; break;
	case 19: d->max_steps = -1; break;
	case 20: d->max_steps = 5000; break;
	case 21: d->integrator = SPRING_INTEGRATOR_COUNT; break;
	case 22:
		d->integrator = SPRING_INTEGRATOR_SEMI_IMPLICIT;
		d->step = 1.0f / 60.0f;
		s[2].params = hz(30.0f, 0.1f);
		break;
	case 23:
		d->integrator = SPRING_INTEGRATOR_SEMI_IMPLICIT;
		d->params = hz(40.0f, 0.2f);
		break;
	case 24: d->params = (spring_params){10.0f, -1.0f, 1.0f}; break;
	case 25: d->tip_params = (spring_params){10.0f, 1.0f, nan}; break;
	case 26: d->root.angle = nan; break;
	case 27: return NULL;
	case 28: d->step = nextafterf(SPRING_CHAIN2D_MIN_STEP, 0.0f); break;
	case 29: d->step = 4.5e-41f; break;
	case 30: s[1].rest_angle = nextafterf(SPRING_CHAIN2D_MAX_ANGLE, INFINITY); break;
	case 31: s[3].rest_angle = -1e30f; break;
	default: break;
	}
	return d;
}

static int bytes_equal(const box *b, const unsigned char *snapshot)
{
	return memcmp(b->memory, snapshot, b->size) == 0;
}

static int test_bad_definitions(void)
{
	enum { N = 5 };
	const int count = (int)(sizeof bad_cases / sizeof bad_cases[0]);
	ENSURE(count >= 15);
	for (int k = 0; k < count; k++) {
		spring_chain2d_segment s[N];
		fill_segments(s, N, 1.0f, 0.1f);
		spring_chain2d_desc d = {.segment_count = N, .segments = s};
		const spring_chain2d_desc *bad = make_bad(k, &d, s);
		const bad_case *expect = &bad_cases[k];
		spring_chain2d *out = (spring_chain2d *)(uintptr_t)0x10; // sentinel: must stay untouched
		spring_error e;
		memset(&e, 0, sizeof e);
		spring_result r = spring_chain2d_create(bad, &out, &e);
		ENSURE_MSG(r == expect->code, "%s: got %d, expected %d (%s)", expect->what, (int)r, (int)expect->code, e.message);
		ENSURE_MSG(out == (spring_chain2d *)(uintptr_t)0x10, "%s: out was written", expect->what);
		ENSURE_MSG(e.result == r && spring_error_innermost(&e).index == expect->index && strcmp(e.field, expect->field) == 0,
		           "%s: error %d index %d field '%s' (%s)", expect->what, (int)e.result, spring_error_innermost(&e).index,
		           e.field, e.message);
		ENSURE_MSG(strcmp(e.object, "chain2d") == 0 &&
		               spring_error_innermost(&e).element == (expect->index >= 0 ? SPRING_ELEMENT_SEGMENT : SPRING_ELEMENT_NONE),
		           "%s: object '%s' depth %d", expect->what, e.object, e.depth);
		if (expect->index >= 0) {
			char needle[32];
			snprintf(needle, sizeof needle, "segment %d", expect->index);
			ENSURE_MSG(strstr(e.message, needle) != NULL, "%s: message '%s' does not name the segment", expect->what, e.message);
		}
		ENSURE_MSG(strstr(e.message, expect->field) != NULL, "%s: message '%s' does not name the field", expect->what, e.message);
		ENSURE(spring_chain2d_memory_size(bad) == 0);
		_Alignas(16) unsigned char memory[256];
		ENSURE(spring_chain2d_init(bad, memory, sizeof memory, &out, NULL) == expect->code);
		if (k == 0) {
			printf("  e.g. \"%s\"\n", e.message);
		}
	}
	// The bounds themselves are accepted: the shortest step (a chain stepping at it stays finite
	// through frames of a second and of 1e30 s), the longest.
	const float edges[] = {SPRING_CHAIN2D_MIN_STEP, 1.0f};
	for (int k = 0; k < 2; k++) {
		spring_chain2d_segment s[N];
		fill_segments(s, N, 1.0f, 0.1f);
		spring_chain2d_desc d = {
			.segment_count = N, .segments = s, .step = edges[k], .max_steps = 1000, .gravity = {0.0f, -9.81f}};
		box b;
		ENSURE(box_make(&b, &d));
		for (int f = 0; f < 3; f++) {
			const float dt = f == 1 ? 1e30f : 1.0f;
			ENSURE(spring_chain2d_update(b.c, scene_xform2(1e6f * (float)(f % 2), -1e6f, 3.0f * (float)f), dt) == SPRING_OK);
			spring_state st;
			ENSURE(spring_chain2d_get_state(b.c, N - 1, &st) == SPRING_OK && spring_is_finite(st.x) && spring_is_finite(st.v));
		}
		box_free(&b);
	}
	// Rest angles of +-SPRING_CHAIN2D_MAX_ANGLE are accepted and step like their folded angles
	// would (finite states).
	{
		spring_chain2d_segment s[N];
		fill_segments(s, N, 1.0f, 0.1f);
		s[1].rest_angle = SPRING_CHAIN2D_MAX_ANGLE;
		s[3].rest_angle = -SPRING_CHAIN2D_MAX_ANGLE;
		spring_chain2d_desc d = {.segment_count = N, .segments = s, .gravity = {0.0f, -9.81f}};
		box b;
		ENSURE(box_make(&b, &d));
		// So are animated offsets of +-SPRING_CHAIN2D_MAX_ANGLE, on top of those rest angles.
		const float M = SPRING_CHAIN2D_MAX_ANGLE, far[N] = {M, -M, M, -M, 0.5f};
		ENSURE(spring_chain2d_set_animation(b.c, far, N) == SPRING_OK);
		for (int f = 0; f < 30; f++) {
			ENSURE(spring_chain2d_update(b.c, anim_root((double)f / 60.0, 1.0f), 1.0f / 60.0f) == SPRING_OK);
		}
		for (int i = 0; i < N; i++) {
			spring_state st;
			ENSURE(spring_chain2d_get_state(b.c, i, &st) == SPRING_OK && spring_is_finite(st.x) && spring_is_finite(st.v) &&
			       fabsf(st.x) <= (float)SPRING_PI);
		}
		box_free(&b);
	}
	// The valid baseline is accepted (the table's rows differ from it in one field each).
	spring_chain2d_segment s[N];
	fill_segments(s, N, 1.0f, 0.1f);
	spring_chain2d_desc d = {.segment_count = N, .segments = s, .integrator = SPRING_INTEGRATOR_SEMI_IMPLICIT};
	box b;
	ENSURE(box_make(&b, &d));
	for (int f = 0; f < 50; f++) {
		ENSURE(spring_chain2d_update(b.c, anim_root((double)f / 60.0, 1.0f), 1.0f / 60.0f) == SPRING_OK);
	}
	unsigned char *snapshot = (unsigned char *)malloc(b.size);
	ENSURE(snapshot);
	memcpy(snapshot, b.memory, b.size);
	const float nan = NAN, inf = INFINITY;
	spring_xform2 good = scene_xform2(1.0f, 2.0f, 0.5f);
	spring_xform2 bad_roots[] = {scene_xform2(nan, 0.0f, 0.0f), scene_xform2(0.0f, inf, 0.0f), scene_xform2(0.0f, 0.0f, nan),
	                             scene_xform2(0.0f, 0.0f, -inf)};
	// update
	ENSURE(spring_chain2d_update(b.c, good, nan) == NF && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_update(b.c, good, inf) == NF && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_update(b.c, good, -0.016f) == OOR && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_update(NULL, good, 0.016f) == IA);
	for (int i = 0; i < 4; i++) {
		ENSURE(spring_chain2d_update(b.c, bad_roots[i], 0.016f) == NF && bytes_equal(&b, snapshot));
		ENSURE(spring_chain2d_reset(b.c, bad_roots[i]) == NF && bytes_equal(&b, snapshot));
		ENSURE(spring_chain2d_teleport(b.c, bad_roots[i]) == NF && bytes_equal(&b, snapshot));
	}
	// setters
	spring_params fine = hz(3.0f, 0.5f);
	ENSURE(spring_chain2d_set_params(b.c, -1, fine) == IA && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_params(b.c, N, fine) == IA && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_params(b.c, 1, (spring_params){10.0f, -1.0f, 1.0f}) == OOR && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_params(b.c, 1, (spring_params){nan, 1.0f, 1.0f}) == NF && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_params(b.c, 1, hz(40.0f, 0.1f)) == UNST && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_limit(b.c, N, 0.1f) == IA && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_limit(b.c, 0, 4.0f) == OOR && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_limit(b.c, 0, -0.5f) == OOR && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_limit(b.c, 0, nan) == NF && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_forces(b.c, spring_vec2_make(nan, 0.0f), spring_vec2_make(0.0f, 0.0f)) == NF &&
	       bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_forces(b.c, spring_vec2_make(0.0f, 0.0f), spring_vec2_make(0.0f, inf)) == NF &&
	       bytes_equal(&b, snapshot));
	float offsets[N + 1] = {0.1f, 0.2f, nan, 0.0f, 0.0f, 0.0f};
	ENSURE(spring_chain2d_set_animation(b.c, offsets, N) == NF && bytes_equal(&b, snapshot));
	// Past SPRING_CHAIN2D_MAX_ANGLE an offset is refused (1e30 was once folded into an arbitrary angle).
	const float too_far[3] = {1e30f, nextafterf(SPRING_CHAIN2D_MAX_ANGLE, INFINITY),
	                          -nextafterf(SPRING_CHAIN2D_MAX_ANGLE, INFINITY)};
	for (int k = 0; k < 3; k++) {
		float far[N] = {0.1f, 0.2f, 0.0f, 0.0f};
		far[k + 1] = too_far[k];
		ENSURE(spring_chain2d_set_animation(b.c, far, N) == OOR && bytes_equal(&b, snapshot));
	}
	ENSURE(spring_chain2d_set_animation(b.c, offsets, N + 1) == IA && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_animation(b.c, offsets, N - 1) == IA && bytes_equal(&b, snapshot));
	ENSURE(spring_chain2d_set_animation(b.c, NULL, 3) == IA && bytes_equal(&b, snapshot));
	// queries
	spring_xform2 joints[N + 1];
	float local[N];
	memset(joints, 0x5a, sizeof joints);
	ENSURE(spring_chain2d_get_pose(b.c, joints, local, N) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain2d_get_pose(b.c, NULL, local, N - 1) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain2d_get_pose(b.c, joints, local, -1) == IA);
	ENSURE(spring_chain2d_get_pose(b.c, NULL, NULL, N + 1) == IA);
	ENSURE(spring_chain2d_get_pose(NULL, joints, local, N + 1) == IA);
	ENSURE(joints[0].position.x != joints[0].position.x || joints[0].angle != 0.0f); // untouched (0x5a pattern)
	ENSURE(spring_chain2d_get_pose(b.c, NULL, local, N) == SPRING_OK);
	spring_state st = {7.0f, 7.0f};
	ENSURE(spring_chain2d_get_state(b.c, N, &st) == IA && st.x == 7.0f && st.v == 7.0f);
	ENSURE(spring_chain2d_get_state(b.c, 0, NULL) == IA);
	ENSURE(spring_chain2d_get_target(b.c, -1) == 0.0f && spring_chain2d_get_target(NULL, 0) == 0.0f);
	ENSURE(spring_chain2d_segment_count(NULL) == 0 && spring_chain2d_clock(NULL) == NULL);
	ENSURE(bytes_equal(&b, snapshot));
	// Enormous frame times are valid: the clock caps the steps and drops the rest.
	ENSURE(spring_chain2d_update(b.c, good, 1e30f) == SPRING_OK);
	ENSURE(spring_chain2d_clock(b.c)->last_steps == 8);
	ENSURE(spring_chain2d_update(b.c, good, 0.0f) == SPRING_OK);
	ENSURE(spring_chain2d_clock(b.c)->last_steps == 0);
	free(snapshot);
	box_free(&b);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 13. Runtime changes: params, limits, forces and animation change mid-motion without touching
// the state (angles and velocities bitwise equal right after the calls), and they take effect.

static int test_runtime_changes_keep_state(void)
{
	enum { N = 4 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.2f);
	spring_chain2d_desc d = {.segment_count = N, .segments = segs, .params = hz(2.0f, 0.2f), .tip_params = hz(4.0f, 0.4f)};
	box b, twin;
	ENSURE(box_make(&b, &d));
	for (int f = 0; f < 45; f++) {
		ENSURE(spring_chain2d_update(b.c, anim_root((double)f / 60.0, 1.0f), 1.0f / 60.0f) == SPRING_OK);
	}
	ENSURE(box_clone(&twin, &b));
	spring_state before[N], after[N];
	spring_xform2 pose0[N + 1], pose1[N + 1];
	for (int i = 0; i < N; i++) {
		ENSURE(spring_chain2d_get_state(b.c, i, &before[i]) == SPRING_OK);
	}
	ENSURE(spring_chain2d_get_pose(b.c, pose0, NULL, N + 1) == SPRING_OK);
	ENSURE(fabsf(before[N - 1].v) > 0.1f); // in motion
	ENSURE(spring_chain2d_set_params(b.c, 1, hz(5.0f, 0.1f)) == SPRING_OK);
	ENSURE(spring_chain2d_set_params(b.c, 2, (spring_params){0.0f, 0.0f, 0.0f}) == SPRING_OK);
	ENSURE(spring_chain2d_set_limit(b.c, 3, 0.05f) == SPRING_OK);
	ENSURE(spring_chain2d_set_forces(b.c, spring_vec2_make(0.0f, -9.81f), spring_vec2_make(1.0f, 0.0f)) == SPRING_OK);
	float offsets[N] = {0.3f, 0.0f, -0.2f, 0.1f};
	ENSURE(spring_chain2d_set_animation(b.c, offsets, N) == SPRING_OK);
	for (int i = 0; i < N; i++) {
		ENSURE(spring_chain2d_get_state(b.c, i, &after[i]) == SPRING_OK);
		ENSURE(memcmp(&before[i], &after[i], sizeof before[i]) == 0);
		ENSURE(spring_chain2d_get_target(b.c, i) == spring_chain2d_get_target(twin.c, i));
	}
	ENSURE(spring_chain2d_get_pose(b.c, pose1, NULL, N + 1) == SPRING_OK);
	ENSURE(memcmp(pose0, pose1, sizeof pose0) == 0);
	// They take effect on the next step.
	ENSURE(spring_chain2d_update(b.c, anim_root(45.0 / 60.0, 1.0f), 1.0f / 60.0f) == SPRING_OK);
	ENSURE(spring_chain2d_update(twin.c, anim_root(45.0 / 60.0, 1.0f), 1.0f / 60.0f) == SPRING_OK);
	for (int i = 0; i < N; i++) {
		spring_state x, y;
		ENSURE(spring_chain2d_get_state(b.c, i, &x) == SPRING_OK);
		ENSURE(spring_chain2d_get_state(twin.c, i, &y) == SPRING_OK);
		ENSURE(x.x != y.x);
	}
	box_free(&b);
	box_free(&twin);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 14. Gradient: params 1 Hz and tip_params 4 Hz over 4 segments give 1, 2, 3, 4 Hz (damping ratio
// interpolated too); a segment's own params win; zero params restore the gradient; zero chain
// params mean 2 Hz, ratio 0.3. The effective frequency is also measured from the motion.

static int test_gradient(void)
{
	enum { N = 4 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 1.0f, 0.0f);
	spring_chain2d_desc d = {.segment_count = N, .segments = segs, .params = hz(1.0f, 0.2f), .tip_params = hz(4.0f, 0.8f)};
	box b;
	ENSURE(box_make(&b, &d));
	for (int i = 0; i < N; i++) {
		spring_params p = spring_chain2d_internal_params(b.c, i);
		ENSURE_NEAR(spring_frequency_hz(p), 1.0 + i, 1e-5);
		ENSURE_NEAR(spring_damping_ratio(p), 0.2 + 0.2 * i, 1e-5);
	}
	ENSURE(spring_chain2d_set_params(b.c, 1, hz(7.0f, 0.5f)) == SPRING_OK);
	ENSURE_NEAR(spring_frequency_hz(spring_chain2d_internal_params(b.c, 1)), 7.0, 1e-5);
	ENSURE(spring_chain2d_set_params(b.c, 1, (spring_params){0.0f, 0.0f, 0.0f}) == SPRING_OK);
	ENSURE_NEAR(spring_frequency_hz(spring_chain2d_internal_params(b.c, 1)), 2.0, 1e-5);
	box_free(&b);

	// Own params in the description; default chain params; tip-only gradient from the default.
	segs[2].params = hz(9.0f, 1.0f);
	spring_chain2d_desc e = {.segment_count = N, .segments = segs, .tip_params = hz(5.0f, 0.9f)};
	ENSURE(box_make(&b, &e));
	ENSURE_NEAR(spring_frequency_hz(spring_chain2d_internal_params(b.c, 0)), 2.0, 1e-5);
	ENSURE_NEAR(spring_damping_ratio(spring_chain2d_internal_params(b.c, 0)), 0.3, 1e-5);
	ENSURE_NEAR(spring_frequency_hz(spring_chain2d_internal_params(b.c, 1)), 3.0, 1e-5);
	ENSURE_NEAR(spring_damping_ratio(spring_chain2d_internal_params(b.c, 1)), 0.5, 1e-5);
	ENSURE_NEAR(spring_frequency_hz(spring_chain2d_internal_params(b.c, 2)), 9.0, 1e-5);
	ENSURE_NEAR(spring_frequency_hz(spring_chain2d_internal_params(b.c, 3)), 5.0, 1e-5);
	box_free(&b);
	segs[2].params = (spring_params){0.0f, 0.0f, 0.0f};

	// Measured in the chain: displace only segment i (its parents stay exactly at rest, the root
	// is pinned) and time the zero crossings of its angle error: its damped frequency.
	spring_chain2d_desc m = {.segment_count = N, .segments = segs, .params = hz(1.0f, 0.01f), .tip_params = hz(4.0f, 0.01f)};
	for (int i = 0; i < N; i++) {
		ENSURE(box_make(&b, &m));
		float offsets[N] = {0.0f, 0.0f, 0.0f, 0.0f};
		offsets[i] = 0.3f;
		ENSURE(spring_chain2d_set_animation(b.c, offsets, N) == SPRING_OK);
		ENSURE(spring_chain2d_reset(b.c, scene_xform2(0.0f, 0.0f, 0.0f)) == SPRING_OK);
		ENSURE(spring_chain2d_set_animation(b.c, NULL, 0) == SPRING_OK);
		int crossings = 0;
		double first = -1.0, last = -1.0, prev_e = 0.3;
		for (int f = 1; f <= 4 * 120; f++) {
			ENSURE(spring_chain2d_update(b.c, scene_xform2(0.0f, 0.0f, 0.0f), STEP_120) == SPRING_OK);
			spring_state s;
			ENSURE(spring_chain2d_get_state(b.c, i, &s) == SPRING_OK);
			double err = (double)spring_angle_delta(spring_chain2d_get_target(b.c, i), s.x);
			if ((err > 0.0) != (prev_e > 0.0)) {
				double t = ((double)f - err / (err - prev_e)) / 120.0; // linear interpolation
				if (first < 0.0) {
					first = t;
				}
				last = t;
				crossings++;
			}
			prev_e = err;
		}
		ENSURE(crossings >= 6);
		double measured = 0.5 * (double)(crossings - 1) / (last - first);
		printf("  segment %d: measured %.4f Hz\n", i, measured);
		ENSURE_NEAR(measured, 1.0 + i, 0.01 * (1.0 + i));
		box_free(&b);
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Determinism golden: a standard scenario (gradient, gravity and wind, a limit, animation,
// jittery frames, a teleport) hashed; the same constant for gcc, clang and wasm32.

static int golden_hash(bool no_inertia, uint64_t *out)
{
	enum { N = 6 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 0.8f, 0.15f);
	segs[3].limit = 0.4f;
	segs[4].params = hz(5.0f, 0.25f);
	// clang-format off
	spring_chain2d_desc d = {.segment_count = N, .segments = segs, .params = hz(1.5f, 0.2f), .tip_params = hz(3.5f, 0.4f),
	                         .gravity = {0.0f, -9.81f}, .wind = {1.0f, 0.5f}, .root = anim_root(0.0, 2.0f),
	                         .no_inertia = no_inertia};
	// clang-format on
	uint64_t h = SPRING_HASH_INIT;
	for (int g = 0; g < 2; g++) {
		d.integrator = g ? SPRING_INTEGRATOR_SEMI_IMPLICIT : SPRING_INTEGRATOR_EXACT;
		box b;
		ENSURE(box_make(&b, &d));
		uint32_t seed = 99u;
		double t = 0.0;
		for (int f = 0; f < 900; f++) {
			float dt = 0.004f + 0.036f * (float)spring_random_unit(&seed);
			t += (double)dt;
			float offsets[N];
			for (int i = 0; i < N; i++) {
				offsets[i] = 0.2f * (float)sin_d(3.0 * t + (double)i);
			}
			ENSURE(spring_chain2d_set_animation(b.c, offsets, N) == SPRING_OK);
			ENSURE(spring_chain2d_update(b.c, anim_root(t, 2.0f), dt) == SPRING_OK);
			if (f == 450) {
				ENSURE(spring_chain2d_teleport(b.c, scene_xform2(50.0f, -20.0f, 2.5f)) == SPRING_OK);
			}
			spring_xform2 j[N + 1];
			float local[N];
			ENSURE(spring_chain2d_get_pose(b.c, j, local, N + 1) == SPRING_OK);
			h = spring_hash(h, j, sizeof j);
			h = spring_hash(h, local, sizeof local);
		}
		box_free(&b);
	}
	*out = h;
	return 0;
}

static int test_determinism_golden(void)
{
	uint64_t plain, inertia;
	ENSURE(golden_hash(true, &plain) == 0);
	ENSURE(golden_hash(false, &inertia) == 0);
	printf("  determinism hash %016llx (no_inertia), %016llx (inertia)\n", (unsigned long long)plain,
	       (unsigned long long)inertia);
	ENSURE(plain == SPRING_TEST_GOLDEN_CHAIN2D);
	ENSURE(inertia == SPRING_TEST_GOLDEN_CHAIN2D_INERTIA);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 15. A direct step (spring_chain2d_internal_step) is the step of the frame-level update: the
// update's clock loop replayed with direct steps (same fractions, interpolated roots and
// offsets) stays bit-identical, read with spring_chain2d_internal_stepped_angles: over jittery
// frames without inertia (with inertia the update's pivot follows a smooth path through the
// frames' roots, the direct step the step-to-step one), and with inertia when every frame is one
// step (both paths then pass through every step's root).

static int internal_step_matches(bool inertia)
{
	enum { N = 6 };
	spring_chain2d_segment segs[N];
	fill_segments(segs, N, 0.8f, 0.15f);
	segs[3].limit = 0.4f;
	// clang-format off
	spring_chain2d_desc d = {.segment_count = N, .segments = segs, .params = hz(1.5f, 0.2f), .tip_params = hz(3.5f, 0.4f),
	                         .gravity = {0.0f, -9.81f}, .wind = {1.0f, 0.5f}, .root = anim_root(0.0, 2.0f),
	                         .no_inertia = !inertia};
	// clang-format on
	box a, b;
	ENSURE(box_make(&a, &d));
	ENSURE(box_make(&b, &d));
	spring_clock clock;
	ENSURE(spring_clock_init(&clock, d.step, d.max_steps) == SPRING_OK);
	spring_xform2 from = anim_root(0.0, 2.0f);
	from.angle = spring_angle_wrap(from.angle);
	float off_from[N] = {0}, off_to[N];
	uint32_t seed = 7u;
	double t = 0.0;
	for (int f = 0; f < 400; f++) {
		float dt = inertia ? SPRING_CLOCK_DEFAULT_STEP : 0.004f + 0.036f * (float)spring_random_unit(&seed);
		t += (double)dt;
		for (int i = 0; i < N; i++) {
			off_to[i] = 0.2f * (float)sin_d(3.0 * t + (double)i);
		}
		spring_xform2 to = anim_root(t, 2.0f);
		ENSURE(spring_chain2d_set_animation(a.c, off_to, N) == SPRING_OK);
		ENSURE(spring_chain2d_update(a.c, to, dt) == SPRING_OK);
		to.angle = spring_angle_wrap(to.angle);
		int n = spring_clock_advance(&clock, dt);
		for (int k = 0; k < n; k++) {
			float fr = spring_clock_substep_fraction(&clock, k, n);
			spring_xform2 at = spring_chain2d_internal_substep_root(from, to, fr); // the update's own
			float off[N];
			for (int i = 0; i < N; i++) {
				off[i] = off_from[i] == off_to[i] ? off_to[i] : spring_angle_lerp(off_from[i], off_to[i], fr);
			}
			ENSURE(spring_chain2d_internal_step(b.c, at, off) == SPRING_OK);
		}
		from = to;
		memcpy(off_from, off_to, sizeof off_from);
		float wa[N], wb[N];
		ENSURE(spring_chain2d_internal_stepped_angles(a.c, wa, N) == SPRING_OK);
		ENSURE(spring_chain2d_internal_stepped_angles(b.c, wb, N) == SPRING_OK);
		ENSURE_MSG(memcmp(wa, wb, sizeof wa) == 0, "frame %d", f);
		for (int i = 0; i < N; i++) {
			spring_state s;
			ENSURE(spring_chain2d_get_state(a.c, i, &s) == SPRING_OK);
			ENSURE(s.x == wa[i]);
			ENSURE(spring_chain2d_get_target(a.c, i) == spring_chain2d_get_target(b.c, i));
		}
	}
	// Bad input changes nothing; NULL offsets use the stored animation.
	float before[N], after[N];
	ENSURE(spring_chain2d_internal_stepped_angles(b.c, before, N) == SPRING_OK);
	float bad[N] = {0.0f, 0.0f, NAN, 0.0f, 0.0f, 0.0f};
	ENSURE(spring_chain2d_internal_step(b.c, scene_xform2(0.0f, 0.0f, 0.0f), bad) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_internal_step(b.c, scene_xform2(NAN, 0.0f, 0.0f), NULL) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_internal_step(NULL, scene_xform2(0.0f, 0.0f, 0.0f), NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_internal_stepped_angles(b.c, after, N - 1) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain2d_internal_stepped_angles(b.c, after, N) == SPRING_OK);
	ENSURE(memcmp(before, after, sizeof before) == 0);
	ENSURE(spring_chain2d_set_animation(a.c, off_to, N) == SPRING_OK);
	ENSURE(spring_chain2d_internal_step(a.c, scene_xform2(1.0f, 2.0f, 0.5f), NULL) == SPRING_OK);
	ENSURE(spring_chain2d_internal_step(b.c, scene_xform2(1.0f, 2.0f, 0.5f), off_to) == SPRING_OK);
	ENSURE(spring_chain2d_internal_stepped_angles(a.c, before, N) == SPRING_OK);
	ENSURE(spring_chain2d_internal_stepped_angles(b.c, after, N) == SPRING_OK);
	ENSURE(memcmp(before, after, sizeof before) == 0);
	box_free(&a);
	box_free(&b);
	return 0;
}

static int test_internal_step_is_the_update_step(void)
{
	ENSURE(internal_step_matches(false) == 0);
	ENSURE(internal_step_matches(true) == 0);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 16. Inertia: the root's acceleration swings the segments (issue 9). A root darting +-30 units
// sideways without turning swings a hanging tail's tip by more than 20% of the chain's length
// (without inertia: local angles move by ~1e-7 rad, as before); no_inertia on the desc, on every
// segment, or the setter at 0 give the same bits; a segment's own inertia overrides the chain's.

#define TAIL_N 4
#define TAIL_LENGTH 15.0f

static spring_chain2d_desc tail_desc(spring_chain2d_segment *segs)
{
	fill_segments(segs, TAIL_N, TAIL_LENGTH, 0.0f);
	spring_chain2d_desc d = {
		.segment_count = TAIL_N, .segments = segs, .params = hz(2.0f, 0.3f), .root = scene_xform2(0.0f, 0.0f, -0.5f * PI_F)};
	d.inertia = 1.0f; // the whole pivot acceleration (the default is SPRING_CHAIN2D_DEFAULT_INERTIA)
	return d;
}

// The dart: 0 -> +30 -> -30 -> 0 units along x in 0.3 s, then still; returns the largest local
// angle swing from rest and the largest tip distance from its rigid place (root space).
static int dart(spring_chain2d *c, float *swing, float *tip_off)
{
	*swing = 0.0f;
	*tip_off = 0.0f;
	for (int f = 0; f < 120; f++) {
		double t = (double)(f + 1) / 60.0;
		float x = t < 0.1   ? (float)(300.0 * t)
		          : t < 0.2 ? (float)(30.0 - 600.0 * (t - 0.1))
		          : t < 0.3 ? (float)(-30.0 + 300.0 * (t - 0.2))
		                    : 0.0f;
		spring_xform2 root = scene_xform2(x, 0.0f, -0.5f * PI_F);
		if (spring_chain2d_update(c, root, 1.0f / 60.0f) != SPRING_OK) {
			return 0;
		}
		float local[TAIL_N];
		spring_xform2 j[TAIL_N + 1];
		if (spring_chain2d_get_pose(c, j, local, TAIL_N + 1) != SPRING_OK) {
			return 0;
		}
		for (int i = 0; i < TAIL_N; i++) {
			*swing = fmaxf(*swing, fabsf(spring_angle_delta(0.0f, local[i])));
		}
		float dx = j[TAIL_N].position.x - j[0].position.x;
		*tip_off = fmaxf(*tip_off, fabsf(dx));
	}
	return 1;
}

static int stepped_equal(const spring_chain2d *a, const spring_chain2d *b)
{
	int n = spring_chain2d_segment_count(a);
	for (int i = 0; i < n; i++) {
		spring_state sa, sb;
		if (spring_chain2d_get_state(a, i, &sa) != SPRING_OK || spring_chain2d_get_state(b, i, &sb) != SPRING_OK ||
		    memcmp(&sa, &sb, sizeof sa) != 0 || spring_chain2d_get_target(a, i) != spring_chain2d_get_target(b, i)) {
			return 0;
		}
	}
	return 1;
}

static int test_inertia_swings_the_tail(void)
{
	spring_chain2d_segment segs[TAIL_N];
	spring_chain2d_desc d = tail_desc(segs);
	const float length = TAIL_N * TAIL_LENGTH;
	box on, off;
	ENSURE(box_make(&on, &d));
	d.no_inertia = true;
	ENSURE(box_make(&off, &d));
	float swing_on, tip_on, swing_off, tip_off;
	ENSURE(dart(on.c, &swing_on, &tip_on));
	ENSURE(dart(off.c, &swing_off, &tip_off));
	printf("  +-30 dart: tip swings %.2f units (%.1f%% of the length) with inertia, local angles %.2g rad without\n",
	       (double)tip_on, (double)(100.0f * tip_on / length), (double)swing_off);
	ENSURE(tip_on > 0.2f * length);
	ENSURE(swing_off < 1e-5f);
	// The same bits without inertia, however it is said.
	box seg_off, set_off;
	spring_chain2d_segment own[TAIL_N];
	d = tail_desc(own);
	for (int i = 0; i < TAIL_N; i++) {
		own[i].no_inertia = true;
	}
	ENSURE(box_make(&seg_off, &d));
	d = tail_desc(segs);
	ENSURE(box_make(&set_off, &d));
	ENSURE(spring_chain2d_set_inertia(set_off.c, -1, 0.0f) == SPRING_OK);
	ENSURE(dart(seg_off.c, &swing_on, &tip_on));
	ENSURE(dart(set_off.c, &swing_on, &tip_on));
	ENSURE(stepped_equal(off.c, seg_off.c) && stepped_equal(off.c, set_off.c));
	// A segment's own inertia overrides the chain's no_inertia: only that segment swings.
	box one;
	d = tail_desc(own);
	d.no_inertia = true;
	for (int i = 0; i < TAIL_N; i++) {
		own[i].no_inertia = false;
	}
	own[2].inertia = 1.0f;
	ENSURE(box_make(&one, &d));
	ENSURE(dart(one.c, &swing_on, &tip_on));
	float local[TAIL_N];
	ENSURE(spring_chain2d_get_pose(one.c, NULL, local, TAIL_N) == SPRING_OK);
	ENSURE(swing_on > 0.05f);
	// Bad settings change nothing.
	ENSURE(spring_chain2d_set_inertia(one.c, TAIL_N, 1.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain2d_set_inertia(one.c, 0, -1.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain2d_set_inertia(one.c, 0, NAN) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain2d_set_root_limits(one.c, -1.0f, 0.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain2d_set_root_limits(one.c, 0.0f, INFINITY) == SPRING_ERROR_NOT_FINITE);
	box_free(&on);
	box_free(&off);
	box_free(&seg_off);
	box_free(&set_off);
	box_free(&one);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 17. Envelope with inertia: a root that runs and bobs without turning gives the same tip motion
// at 24, 30, 60, 144, 240 fps and on a jittery clock within 0.5% of the chain's length of a
// 1 kHz run (measured 0.37% at 24 fps, 0.13% at 30, 0.12% jittery; 0.13%, 0.06% and 0.04% before the
// pivot's path weighted its cubic, chain2d_kernel.h K(fit)). Controls: the frame's root
// jump fed to one step (no interpolation inside the frame) misses by more than the chain's length;
// the pivot taking the linear path between frames (its velocity constant in a frame, so a frame's
// change of velocity arrives as one impulse) misses by more than 1% at 24 fps.

// Starts still (no impulse at t = 0), speeds up to 60 units/s with a surging stride (+-6 units
// at 1.2 Hz) and bobs 3 units at 2.4 Hz.
static spring_xform2 run_root(double t)
{
	double x = 60.0 * t * t / (t + 1.0) + 6.0 * (1.0 - cos_d(TAU * 1.2 * t));
	double y = 3.0 * (1.0 - cos_d(TAU * 2.4 * t));
	return scene_xform2((float)x, (float)y, -0.5f * PI_F);
}

// A frame replayed with direct steps, the way a rig feeds its chains: the clock's steps, each
// with the root interpolated linearly from `*from` (position; the angle held at the frame's), so
// the pivot's velocity is the step-to-step one (constant in a frame, a jump at each frame's end).
static spring_result linear_frame(spring_chain2d *c, spring_clock *steps, spring_xform2 *from, spring_xform2 root, float dt)
{
	spring_result r = SPRING_OK;
	int n = spring_clock_advance(steps, dt);
	for (int k = 0; r == SPRING_OK && k < n; k++) {
		float f = spring_clock_substep_fraction(steps, k, n);
		spring_xform2 at = {spring_vec2_lerp(from->position, root.position, f), root.angle, {1.0f, 1.0f}};
		r = spring_chain2d_internal_step(c, at, NULL);
	}
	*from = root;
	return r;
}

enum { BOB_UPDATE, BOB_HELD, BOB_LINEAR };

// `mode`: BOB_UPDATE the chain's update; BOB_HELD the trap (the frame's root jump fed to one step,
// no interpolation inside the frame); BOB_LINEAR linear_frame.
static int run_bob(float fps, int mode, spring_vec2 out[ENV_CHECKPOINTS])
{
	spring_clock steps;
	spring_xform2 from = run_root(0.0);
	from.angle = spring_angle_wrap(from.angle);
	spring_chain2d_segment segs[TAIL_N];
	spring_chain2d_desc d = tail_desc(segs);
	d.root = run_root(0.0);
	box b;
	if (!box_make(&b, &d)) {
		return 0;
	}
	spring_frame_clock clock;
	if (spring_frame_clock_init(&clock, (double)fps, ENV_INTERVAL, 0) != SPRING_OK) {
		box_free(&b);
		return 0;
	}
	if (spring_clock_init(&steps, d.step, d.max_steps) != SPRING_OK) {
		box_free(&b);
		return 0;
	}
	while (clock.checkpoints < ENV_CHECKPOINTS) {
		float dt = spring_frame_clock_next(&clock);
		spring_xform2 root = run_root(clock.time);
		root.angle = spring_angle_wrap(root.angle);
		spring_result r = SPRING_OK;
		if (mode == BOB_HELD) {
			r = spring_chain2d_internal_step(b.c, root, NULL);
		} else if (mode == BOB_LINEAR) {
			r = linear_frame(b.c, &steps, &from, root, dt);
		} else {
			r = spring_chain2d_update(b.c, root, dt);
		}
		if (r != SPRING_OK) {
			box_free(&b);
			return 0;
		}
		if (clock.at_checkpoint) {
			spring_xform2 j[TAIL_N + 1];
			spring_chain2d_internal_pose(b.c, mode == BOB_LINEAR ? steps.alpha : 1.0f, j, NULL, TAIL_N + 1);
			if (mode == BOB_UPDATE) {
				spring_chain2d_get_pose(b.c, j, NULL, TAIL_N + 1);
			}
			// Root space (the root only translates).
			out[clock.checkpoints - 1] = spring_vec2_sub(j[TAIL_N].position, j[0].position);
		}
	}
	box_free(&b);
	return 1;
}

static int test_inertia_envelope_across_frame_rates(void)
{
	const double length = TAIL_N * TAIL_LENGTH;
	const float rates[] = {24.0f, 30.0f, 60.0f, 144.0f, 240.0f, 0.0f};
	spring_vec2 reference[ENV_CHECKPOINTS], run[ENV_CHECKPOINTS];
	ENSURE(run_bob(1000.0f, BOB_UPDATE, reference));
	for (int r = 0; r < (int)(sizeof rates / sizeof rates[0]); r++) {
		ENSURE(run_bob(rates[r], BOB_UPDATE, run));
		double error = envelope_error(run, reference) / length;
		printf("  run and bob, %g fps%s: worst %.5f of the chain length\n", (double)rates[r], rates[r] > 0.0f ? "" : " (jittery)",
		       error);
		ENSURE_MSG(error < 0.005, "%g fps: %g", (double)rates[r], error);
	}
	ENSURE(run_bob(24.0f, BOB_HELD, run));
	double control = envelope_error(run, reference) / length;
	printf("  control (one step per frame at 24 fps): worst %.4f of the chain length\n", control);
	ENSURE(control > 1.0);
	ENSURE(run_bob(24.0f, BOB_LINEAR, run));
	control = envelope_error(run, reference) / length;
	printf("  control (linear root path inside frames at 24 fps): worst %.4f of the chain length\n", control);
	ENSURE(control > 0.01);
	return 0;
}

// 17b. A hitch while running: a root running steadily at 60 units/s (after a smooth start), then one frame of 0.5 s (the
// clock runs its 8 steps and drops the rest), then 60 fps again. The steps spread over the long
// frame cover the root's whole 30-unit run; the pivot still moves at the root's 60 units/s (its
// velocity is the path's displacement over the path's time), so the tail barely stirs. Control:
// the same steps fed the step-to-step velocity (30 units in 8 steps: a dash at 450 units/s)
// throw it far.
static int hitch_swing(bool direct, float *worst)
{
	spring_chain2d_segment segs[TAIL_N];
	spring_chain2d_desc d = tail_desc(segs);
	box b;
	if (!box_make(&b, &d)) {
		return 0;
	}
	spring_clock steps;
	(void)spring_clock_init(&steps, d.step, d.max_steps);
	spring_xform2 from = d.root;
	float settled[TAIL_N], local[TAIL_N];
	double t = 0.0;
	*worst = 0.0f;
	for (int f = 0; f < 500; f++) {
		float dt = f == 400 ? 0.5f : 1.0f / 60.0f;
		t += (double)dt;
		// Speeds up smoothly (60 (1 - e^(-3t)) units/s), so the tail has long settled by the hitch.
		spring_xform2 root = scene_xform2((float)(60.0 * (t - (1.0 - exp(-3.0 * t)) / 3.0)), 0.0f, -0.5f * PI_F);
		root.angle = spring_angle_wrap(root.angle);
		spring_result r = direct ? linear_frame(b.c, &steps, &from, root, dt) : spring_chain2d_update(b.c, root, dt);
		if (r != SPRING_OK) {
			box_free(&b);
			return 0;
		}
		spring_chain2d_internal_pose(b.c, 1.0f, NULL, f < 400 ? settled : local, TAIL_N);
		for (int i = 0; f >= 400 && i < TAIL_N; i++) {
			*worst = fmaxf(*worst, fabsf(local[i] - settled[i]));
		}
	}
	box_free(&b);
	return 1;
}

static int test_inertia_through_a_hitch(void)
{
	float path, direct;
	ENSURE(hitch_swing(false, &path));
	ENSURE(hitch_swing(true, &direct));
	printf("  hitch of 0.5 s while running: worst local swing %.4f rad (step-to-step velocity: %.3f rad)\n", (double)path,
	       (double)direct);
	ENSURE(path < 0.01f);
	ENSURE(direct > 0.1f);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 18. Inherited-motion caps: a dash at 3000 units/s capped at 300 gives exactly the angles of a
// dash at 300 units/s; a spin at 20 rad/s capped at 2 rad/s swings the chain (root space) like a
// spin at 2 rad/s; without caps the fast ones swing far more.

static int dash(float speed, float cap, float spin, float spin_cap, float out[TAIL_N], float *worst)
{
	spring_chain2d_segment segs[TAIL_N];
	spring_chain2d_desc d = tail_desc(segs);
	d.max_root_speed = cap;
	d.max_root_angular_speed = spin_cap;
	box b;
	if (!box_make(&b, &d)) {
		return 0;
	}
	*worst = 0.0f;
	for (int f = 0; f < 60; f++) {
		double t = (double)(f + 1) / 60.0;
		double moving = t < 0.25 ? t : 0.25;
		spring_xform2 root = scene_xform2((float)(speed * moving), 0.0f, (float)(-0.5 * SPRING_PI + spin * moving));
		if (spring_chain2d_update(b.c, root, 1.0f / 60.0f) != SPRING_OK) {
			box_free(&b);
			return 0;
		}
		spring_chain2d_get_pose(b.c, NULL, out, TAIL_N);
		for (int i = 0; i < TAIL_N; i++) {
			*worst = fmaxf(*worst, fabsf(out[i]));
		}
	}
	box_free(&b);
	return 1;
}

static int test_root_limits(void)
{
	float fast[TAIL_N], capped[TAIL_N], slow[TAIL_N];
	float w_fast, w_capped, w_slow;
	ENSURE(dash(3000.0f, 0.0f, 0.0f, 0.0f, fast, &w_fast));
	ENSURE(dash(3000.0f, 5.0f, 0.0f, 0.0f, capped, &w_capped));
	ENSURE(dash(5.0f, 0.0f, 0.0f, 0.0f, slow, &w_slow));
	printf("  dash: worst local swing %.3f rad at 3000 units/s, %.3f capped at 5, %.3f at 5\n", (double)w_fast, (double)w_capped,
	       (double)w_slow);
	for (int i = 0; i < TAIL_N; i++) {
		ENSURE_NEAR(capped[i], slow[i], 1e-4);
	}
	ENSURE_NEAR(w_capped, w_slow, 1e-4);
	ENSURE(w_fast > 2.0f * w_capped);
	ENSURE(dash(0.0f, 0.0f, 20.0f, 0.0f, fast, &w_fast));
	ENSURE(dash(0.0f, 0.0f, 20.0f, 2.0f, capped, &w_capped));
	ENSURE(dash(0.0f, 0.0f, 2.0f, 0.0f, slow, &w_slow));
	printf("  spin: worst local swing %.3f rad at 20 rad/s, %.3f capped at 2, %.3f at 2\n", (double)w_fast, (double)w_capped,
	       (double)w_slow);
	for (int i = 0; i < TAIL_N; i++) {
		ENSURE_NEAR(capped[i], slow[i], 1e-4);
	}
	ENSURE_NEAR(w_capped, w_slow, 1e-4);
	ENSURE(w_fast > 2.0f * w_capped);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 19. Exact rest and sleep: under a still root (with gravity and wind, and with inertia) the chain
// lands on its balance with exactly zero velocity and reports it; stepping the sleeping chain
// (updates and direct steps) and not stepping it give the same bits; an unchanged setting does
// not wake it, a changed root or setting does. Without the sleep, stepping a chain at rest under
// gravity moves it by float noise, so the bit comparison would fail.

static int test_exact_rest_and_sleep(void)
{
	spring_chain2d_segment segs[TAIL_N];
	spring_chain2d_desc d = tail_desc(segs);
	d.gravity = spring_vec2_make(0.0f, -300.0f);
	d.wind = spring_vec2_make(40.0f, 0.0f);
	d.root = scene_xform2(5.0f, 6.0f, 0.0f);
	for (int g = 0; g < 2; g++) {
		d.integrator = g ? SPRING_INTEGRATOR_SEMI_IMPLICIT : SPRING_INTEGRATOR_EXACT;
		box a, b;
		ENSURE(box_make(&a, &d));
		ENSURE(displace(a.c, d.root, 0.4f));
		ENSURE(!spring_chain2d_is_resting(a.c));
		int frames = 0;
		while (!spring_chain2d_is_resting(a.c) && frames < 60 * 60) {
			ENSURE(spring_chain2d_update(a.c, d.root, 1.0f / 60.0f) == SPRING_OK);
			frames++;
		}
		printf("  %s: resting after %.2f s\n", g ? "semi-implicit" : "exact", frames / 60.0);
		ENSURE(spring_chain2d_is_resting(a.c));
		for (int i = 0; i < TAIL_N; i++) {
			spring_state s;
			ENSURE(spring_chain2d_get_state(a.c, i, &s) == SPRING_OK);
			ENSURE(s.v == 0.0f);
		}
		// Asleep: stepped (updates, direct steps, unchanged settings) == not stepped.
		ENSURE(box_clone(&b, &a));
		spring_xform2 pose_b[TAIL_N + 1], pose_a[TAIL_N + 1];
		ENSURE(spring_chain2d_internal_pose(b.c, 1.0f, pose_b, NULL, TAIL_N + 1) == SPRING_OK);
		for (int f = 0; f < 300; f++) {
			ENSURE(spring_chain2d_update(a.c, d.root, 1.0f / 60.0f) == SPRING_OK);
			ENSURE(spring_chain2d_internal_step(a.c, d.root, NULL) == SPRING_OK);
			ENSURE(spring_chain2d_set_forces(a.c, d.gravity, d.wind) == SPRING_OK);
			ENSURE(spring_chain2d_set_inertia(a.c, -1, 1.0f) == SPRING_OK);
		}
		ENSURE(spring_chain2d_is_resting(a.c));
		ENSURE(stepped_equal(a.c, b.c));
		ENSURE(spring_chain2d_internal_pose(a.c, 1.0f, pose_a, NULL, TAIL_N + 1) == SPRING_OK);
		ENSURE(memcmp(pose_a, pose_b, sizeof pose_a) == 0);
		// A change wakes it; the same change on both keeps them equal.
		ENSURE(spring_chain2d_set_forces(a.c, d.gravity, spring_vec2_make(0.0f, 0.0f)) == SPRING_OK);
		ENSURE(!spring_chain2d_is_resting(a.c));
		ENSURE(spring_chain2d_set_forces(b.c, d.gravity, spring_vec2_make(0.0f, 0.0f)) == SPRING_OK);
		spring_xform2 moved = scene_xform2(6.0f, 6.0f, 0.0f);
		for (int f = 0; f < 30; f++) {
			ENSURE(spring_chain2d_internal_step(a.c, moved, NULL) == SPRING_OK);
			ENSURE(spring_chain2d_internal_step(b.c, moved, NULL) == SPRING_OK);
		}
		ENSURE(stepped_equal(a.c, b.c));
		box_free(&a);
		box_free(&b);
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 20. Strong gravity (issue 10, bug 2): 1 Hz, damping ratio 1, gravity 2000 (and 5000) down, a
// 20-unit bone pointing sideways: the physical balance hangs below the horizontal (the
// gravity-shifted goal folded past a half turn pointed it up, never resting). The chain rests
// exactly there: spring torque and gravity's balance, and it points down.

static int test_strong_gravity_balance(void)
{
	const float gravities[] = {2000.0f, 5000.0f, 50000.0f, 5e6f};
	for (int k = 0; k < (int)(sizeof gravities / sizeof gravities[0]); k++) {
		spring_chain2d_segment seg[1];
		fill_segments(seg, 1, 20.0f, 0.0f);
		spring_params p = hz(1.0f, 1.0f);
		spring_chain2d_desc d = {.segment_count = 1, .segments = seg, .params = p, .gravity = {0.0f, -gravities[k]}};
		box b;
		ENSURE(box_make(&b, &d));
		for (int f = 0; f < 600 && !spring_chain2d_is_resting(b.c); f++) {
			ENSURE(spring_chain2d_update(b.c, d.root, 1.0f / 60.0f) == SPRING_OK);
		}
		spring_state s;
		ENSURE(spring_chain2d_get_state(b.c, 0, &s) == SPRING_OK);
		double spring_torque = -(double)p.stiffness * (double)s.x;
		double gravity_torque = (double)p.mass * 1.5 * (cos_d((double)s.x) * (double)-gravities[k]) / 20.0;
		printf("  gravity %g: rests at %.2f deg, balance residual %.2g of the spring's torque scale\n", (double)gravities[k],
		       (double)(s.x / DEG), fabs(spring_torque + gravity_torque) / (double)p.stiffness);
		ENSURE(spring_chain2d_is_resting(b.c));
		ENSURE(s.x < 0.0f && s.x > -PI_F / 2.0f);
		// Within a float step of the angle: residual / (spring + gravity stiffness) below 1e-5 rad.
		ENSURE(fabs(spring_torque + gravity_torque) < 1e-5 * ((double)p.stiffness + 1.5 * (double)gravities[k] / 20.0));
		box_free(&b);
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 21. Updates are all or nothing (issue 10, bug 4): a semi-implicit chain whose spring overflows
// float in k (x - target) (k = c = m = 3.4e38, stable k/m = 1) with gravity fails the update
// with an error and no assertion, and nothing changed, although segment 0 could step.

// 21b. A step cannot fail: the largest valid forces, inertia 100 and a root jumping across the
// coordinate range every frame (and every 1e-5 s) leave every update OK, the state finite and
// every segment's speed within half a turn per step.
static int extreme_inputs_stay_finite(spring_vec2 gravity, spring_vec2 wind)
{
	spring_chain2d_segment segs[4];
	fill_segments(segs, 4, 1e-6f, 0.3f);
	segs[2].length = 1e6f;
	segs[1].limit = 0.5f;
	const spring_params stiff = {3.4e38f, 1.0f, 1.0f}, soft = {1.2e-38f, 0.0f, 1.0f};
	spring_chain2d_desc d = {.segment_count = 4,
	                         .segments = segs,
	                         .params = stiff,
	                         .tip_params = soft,
	                         .gravity = gravity,
	                         .wind = wind,
	                         .inertia = 100.0f};
	box b;
	ENSURE(box_make(&b, &d));
	const float max_speed = (float)(SPRING_PI / (double)SPRING_CLOCK_DEFAULT_STEP);
	for (int f = 0; f < 400; f++) {
		float x = (f % 2 ? 1e6f : -1e6f), y = (f % 3 ? -1e6f : 1e6f);
		float dt = f % 5 ? 1.0f / 60.0f : 1e-5f;
		ENSURE(spring_chain2d_update(b.c, scene_xform2(x, y, (float)f), dt) == SPRING_OK);
		spring_xform2 pose[5];
		ENSURE(spring_chain2d_get_pose(b.c, pose, NULL, 5) == SPRING_OK);
		for (int i = 0; i < 4; i++) {
			spring_state s;
			ENSURE(spring_chain2d_get_state(b.c, i, &s) == SPRING_OK);
			ENSURE_MSG(spring_is_finite(s.x) && fabsf(s.v) <= max_speed, "frame %d segment %d: %g %g", f, i, (double)s.x,
			           (double)s.v);
			ENSURE(spring_is_finite(pose[i + 1].position.x) && spring_is_finite(pose[i + 1].position.y));
		}
	}
	box_free(&b);
	return 0;
}

static int test_extreme_inputs_stay_finite(void)
{
	// A frame of 3.4e38 s (the longest float, a hitch) then one of 100 s keep their gaps among the
	// path's nodes: the basis they make huge meets zero coefficients, never an infinity.
	{
		spring_chain2d_segment segs[3];
		fill_segments(segs, 3, 2.0f, 0.2f);
		spring_chain2d_desc d = {.segment_count = 3, .segments = segs, .gravity = {0.0f, -9.81f}};
		box b;
		ENSURE(box_make(&b, &d));
		const float dts[] = {1.0f / 60.0f, 1.0f / 60.0f, 3.4e38f, 100.0f, 1.0f / 60.0f, 1.0f / 60.0f};
		for (int f = 0; f < (int)(sizeof dts / sizeof dts[0]); f++) {
			ENSURE(spring_chain2d_update(b.c, scene_xform2((float)f, 0.5f * (float)f, 0.1f * (float)f), dts[f]) == SPRING_OK);
			for (int i = 0; i < 3; i++) {
				spring_state s;
				ENSURE(spring_chain2d_get_state(b.c, i, &s) == SPRING_OK);
				ENSURE_MSG(spring_is_finite(s.x) && spring_is_finite(s.v), "frame %d segment %d", f, i);
			}
		}
		box_free(&b);
	}
	// The largest valid forces (every field stiff), then none: the pivot's acceleration alone
	// pulls the softest valid spring (k/m 1.2e-38) far past float range.
	ENSURE(extreme_inputs_stay_finite(spring_vec2_make(FLT_MAX, -FLT_MAX), spring_vec2_make(FLT_MAX, FLT_MAX)) == 0);
	ENSURE(extreme_inputs_stay_finite(spring_vec2_make(0.0f, 0.0f), spring_vec2_make(0.0f, 0.0f)) == 0);
	return 0;
}

static int test_update_all_or_nothing(void)
{
	spring_chain2d_segment segs[3];
	fill_segments(segs, 3, 1.0f, 0.0f);
	spring_params huge = {3.4e38f, 3.4e38f, 3.4e38f};
	spring_chain2d_desc d = {.segment_count = 3,
	                         .segments = segs,
	                         .params = huge,
	                         .gravity = {0.0f, -9.81f},
	                         .integrator = SPRING_INTEGRATOR_SEMI_IMPLICIT};
	box b;
	ENSURE(box_make(&b, &d));
	float off[3] = {0.0f, 0.0f, 2.5f};
	ENSURE(spring_chain2d_set_animation(b.c, off, 3) == SPRING_OK);
	ENSURE(spring_chain2d_reset(b.c, d.root) == SPRING_OK);
	float zero[3] = {0.0f, 0.0f, 0.0f};
	ENSURE(spring_chain2d_set_animation(b.c, zero, 3) == SPRING_OK);
	box before;
	ENSURE(box_clone(&before, &b));
	double time = spring_chain2d_clock(b.c)->time;
	// The core steps k/m and c/m in double, so this valid spring steps (it once overflowed float in
	// k (x - target) and failed after segment 0 had stepped); the result is finite.
	spring_result r = spring_chain2d_update(b.c, scene_xform2(0.5f, 0.0f, 0.0f), 1.0f / 30.0f);
	printf("  huge but valid spring: %s\n", spring_result_string(r));
	ENSURE(r == SPRING_OK);
	ENSURE(spring_chain2d_clock(b.c)->time > time);
	spring_xform2 pa[4];
	ENSURE(spring_chain2d_get_pose(b.c, pa, NULL, 4) == SPRING_OK);
	for (int i = 0; i < 4; i++) {
		ENSURE(spring_is_finite(pa[i].position.x) && spring_is_finite(pa[i].position.y) && spring_is_finite(pa[i].angle));
	}
	// A refused update (a root out of range) changes nothing at all.
	box_free(&before);
	ENSURE(box_clone(&before, &b));
	r = spring_chain2d_update(b.c, scene_xform2(2e30f, 0.0f, 0.0f), 1.0f / 30.0f);
	ENSURE(r != SPRING_OK);
	ENSURE(stepped_equal(b.c, before.c));
	box_free(&b);
	box_free(&before);
	return 0;
}

// Snapshots: an angle chain restored from a blob taken mid-run replays the rest bit for bit
// (10,000 steps, jittery frames, hitches, teleports, parameter and force changes, inertia on); a
// blob of another segment count is refused and changes nothing.
static int chain2d_script(spring_chain2d *c, int frame, uint32_t *seed, uint64_t *hash)
{
	double t = frame / 60.0;
	float dt = frame % 997 == 500 ? 0.4f : (float)(0.004 + 0.03 * spring_random_unit(seed));
	spring_xform2 root = scene_xform2((float)(30.0 * spring_det_sin(2.1 * t)), (float)(10.0 * spring_det_sin(3.3 * t)),
	                                  (float)(0.6 * spring_det_sin(1.3 * t)));
	if (frame % 1500 == 700) {
		ENSURE(spring_chain2d_teleport(c, root) == SPRING_OK);
	}
	if (frame % 2000 == 1300) {
		ENSURE(spring_chain2d_set_params(c, frame % 4, hz(1.0f + (float)(frame % 7), 0.25f)) == SPRING_OK);
		ENSURE(spring_chain2d_set_forces(c, spring_vec2_make(0.0f, -100.0f - (float)(frame % 300)),
		                                 spring_vec2_make(5.0f, 0.0f)) == SPRING_OK);
	}
	ENSURE(spring_chain2d_update(c, root, dt) == SPRING_OK);
	spring_xform2 joints[5];
	ENSURE(spring_chain2d_get_pose(c, joints, NULL, 5) == SPRING_OK);
	*hash = spring_hash(*hash, joints, sizeof joints);
	return 0;
}

static int test_snapshot_replays_bit_for_bit(void)
{
	spring_chain2d_segment segs[4];
	fill_segments(segs, 4, 15.0f, 0.2f);
	spring_chain2d_desc d = {.segment_count = 4, .segments = segs, .gravity = {0.0f, -200.0f}};
	spring_chain2d *a, *b;
	ENSURE(spring_chain2d_create(&d, &a, NULL) == SPRING_OK && spring_chain2d_create(&d, &b, NULL) == SPRING_OK);
	uint32_t seed = 3u;
	uint64_t ignored = SPRING_HASH_INIT, original = SPRING_HASH_INIT, replayed = SPRING_HASH_INIT;
	for (int f = 0; f < 3000; f++) {
		ENSURE(chain2d_script(a, f, &seed, &ignored) == 0);
	}
	size_t size = spring_chain2d_snapshot_size(a);
	unsigned char *blob = malloc(size);
	ENSURE(blob != NULL && spring_chain2d_snapshot(a, blob, size) == SPRING_OK);
	uint32_t seed_at = seed;
	for (int f = 3000; f < 10000; f++) {
		ENSURE(chain2d_script(a, f, &seed, &original) == 0);
	}
	ENSURE(spring_chain2d_restore(b, blob, size, NULL) == SPRING_OK);
	seed = seed_at;
	for (int f = 3000; f < 10000; f++) {
		ENSURE(chain2d_script(b, f, &seed, &replayed) == 0);
	}
	ENSURE(replayed == original);
	spring_chain2d_desc shorter = d;
	shorter.segment_count = 3;
	spring_chain2d *other;
	ENSURE(spring_chain2d_create(&shorter, &other, NULL) == SPRING_OK);
	ENSURE(spring_chain2d_restore(other, blob, size, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	printf("  snapshot of a 4-segment chain: %zu bytes\n", size);
	free(blob);
	spring_chain2d_destroy(other);
	spring_chain2d_destroy(a);
	spring_chain2d_destroy(b);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_snapshot_replays_bit_for_bit);
	RUN_TEST(test_energy_never_grows);
	RUN_TEST(test_rest);
	RUN_TEST(test_envelope_matches_across_frame_rates);
	RUN_TEST(test_root_reaches_tip_in_the_same_step);
	RUN_TEST(test_lengths_are_exact);
	RUN_TEST(test_heading_sweep_never_whips);
	RUN_TEST(test_teleport);
	RUN_TEST(test_limits);
	RUN_TEST(test_gravity_and_wind);
	RUN_TEST(test_interpolation_is_smooth);
	RUN_TEST(test_memory);
	RUN_TEST(test_bad_definitions);
	RUN_TEST(test_runtime_changes_keep_state);
	RUN_TEST(test_gradient);
	RUN_TEST(test_determinism_golden);
	RUN_TEST(test_internal_step_is_the_update_step);
	RUN_TEST(test_inertia_swings_the_tail);
	RUN_TEST(test_inertia_envelope_across_frame_rates);
	RUN_TEST(test_inertia_through_a_hitch);
	RUN_TEST(test_root_limits);
	RUN_TEST(test_exact_rest_and_sleep);
	RUN_TEST(test_strong_gravity_balance);
	RUN_TEST(test_extreme_inputs_stay_finite);
	RUN_TEST(test_update_all_or_nothing);
	return TEST_SUMMARY();
}
