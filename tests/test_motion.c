// SPDX-License-Identifier: MIT
// spring_motion: the interruptible UI value (motion.h).
//
// Each test names the property it protects and the trap that must turn it red:
// 1. retargets keep position and velocity bit for bit (trap: a tween-style restart that zeroes the
//    velocity; the test runs that restart too and proves its own check rejects it);
// 2. any frame rate, regular or irregular, lands on the closed form from the last retarget
//    (trap: per-frame integration such as semi-implicit Euler, or ms-quantised time);
// 3. rest needs every channel inside its own thresholds, distance AND speed, then snaps exactly;
//    time_to_settle predicts the simulated rest within one frame and is never exceeded by more
//    than one frame (traps: shared thresholds, "any channel", distance-only or speed-only tests,
//    no snap, a position-only settling time, a retarget at rest that stays at rest);
// 4. the overshoot clamp stops each channel on its target, even when one large step crosses and
//    comes back (trap: checking only the signs at the ends of the step);
// 5. sampling equals the closed form and the driven motion, never writes past capacity, reports
//    truncation; the progress curve runs 0 -> 1;
// 6. a bad-input corpus and a seeded fuzz: errors change nothing, nothing is ever NaN;
// 7. 10 s and 1e6 s steps land on the target; 1e5 steps of 1e-5 s stay on the closed form (trap:
//    accumulating per-step float rounding, shown to drift 7e-5 of the move by the test itself).
#include "spring/motion.h"

#include "random.h"
#include "test_macros.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

#define NF SPRING_ERROR_NOT_FINITE
#define OOR SPRING_ERROR_OUT_OF_RANGE
#define IA SPRING_ERROR_INVALID_ARGUMENT

// Hash of the standard scenario (test_determinism_golden): identical for gcc, clang and wasm32.
#define SPRING_TEST_GOLDEN_MOTION 0x30a1bde886dc52daull

static uint32_t rng_state = SPRING_RANDOM_SEED; // reseeded by each test that draws
static float rnd(float lo, float hi)
{
	return random_range(&rng_state, lo, hi);
}

static spring_params params_db(float duration, float bounce)
{
	spring_params p = {0.0f, 0.0f, 0.0f};
	(void)spring_params_from_duration_bounce(duration, bounce, &p);
	return p;
}

static int bits_equal(float a, float b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

// =============================================================================================
// 1. Retargeting keeps position and velocity

// The property: right after a retarget the state is bit for bit the state right before it.
static int continuity_ok(const float *x_before, const float *v_before, const float *x_after, const float *v_after, int n)
{
	for (int c = 0; c < n; c++) {
		if (!bits_equal(x_before[c], x_after[c]) || !bits_equal(v_before[c], v_after[c])) {
			return 0;
		}
	}
	return 1;
}

// Drives a 2-channel motion at 60 Hz with retargets at random frames. `tween_restart` makes every
// retarget restart from rest as a tween does (the speed cliff). Returns the number of retargets
// that broke continuity, and the largest speed drop across a retarget in *cliff.
static int run_retargets(int tween_restart, uint32_t seed, int *retargets, float *cliff)
{
	rng_state = seed;
	spring_motion m;
	if (spring_motion_init(&m, &(spring_motion_desc){.channels = 2, .params = params_db(0.5f, 0.3f), .to = {300.0f, 200.0f}}) !=
	    SPRING_OK) {
		return -1;
	}
	int broken = 0;
	*retargets = 0;
	*cliff = 0.0f;
	for (int frame = 0; frame < 600; frame++) {
		if (spring_motion_update(&m, 1.0f / 60.0f) != SPRING_OK) {
			return -1;
		}
		if (rnd(0.0f, 1.0f) < 0.08f) {
			float xb[2], vb[2], xa[2], va[2];
			float target[2];
			target[0] = rnd(-500.0f, 500.0f);
			target[1] = rnd(-500.0f, 500.0f);
			spring_motion_get_value(&m, xb, vb, 2);
			if (spring_motion_set_target(&m, target, 2) != SPRING_OK) {
				return -1;
			}
			if (tween_restart) {
				spring_motion_set_value(&m, xb, NULL, 2); // what a tween does: restart from rest
			}
			spring_motion_get_value(&m, xa, va, 2);
			(*retargets)++;
			broken += !continuity_ok(xb, vb, xa, va, 2);
			float drop = sqrtf(vb[0] * vb[0] + vb[1] * vb[1]) - sqrtf(va[0] * va[0] + va[1] * va[1]);
			*cliff = fmaxf(*cliff, drop);
		}
	}
	return broken;
}

static int test_retarget_keeps_position_and_velocity(void)
{
	for (uint32_t seed = 1; seed <= 5; seed++) {
		int retargets;
		float cliff;
		int broken = run_retargets(0, seed, &retargets, &cliff);
		ENSURE(broken == 0);
		ENSURE(retargets > 20);
		ENSURE(cliff == 0.0f);
		// The same run with a tween-style restart: the check above must reject it.
		int broken_tween = run_retargets(1, seed, &retargets, &cliff);
		ENSURE_MSG(broken_tween > retargets / 2, "tween restart broke only %d of %d retargets", broken_tween, retargets);
		ENSURE_MSG(cliff > 500.0f, "tween speed cliff only %g px/s", (double)cliff);
	}
	// Mid-flight, right after the retarget, the speed carries on: one 1 ms frame later the velocity
	// has changed by at most |acceleration| * 1 ms.
	spring_motion m;
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1, .to = {100.0f}}) == SPRING_OK);
	for (int i = 0; i < 6; i++) {
		ENSURE(spring_motion_update(&m, 1.0f / 60.0f) == SPRING_OK);
	}
	float v_before = m.velocity[0], x_before = m.value[0];
	ENSURE(v_before > 300.0f);
	ENSURE(spring_motion_set_target(&m, (float[]){-100.0f}, 1) == SPRING_OK);
	ENSURE(bits_equal(m.value[0], x_before) && bits_equal(m.velocity[0], v_before));
	ENSURE(spring_motion_update(&m, 0.001f) == SPRING_OK);
	double accel = m.params.stiffness * (x_before + 100.0f) + m.params.damping * v_before;
	ENSURE(fabs(m.velocity[0] - v_before) <= accel * 0.001 * 1.05);
	return 0;
}

// =============================================================================================
// 2. Frame-rate independence: every frame equals the closed form from the last retarget

typedef struct rate_case {
	const char *name;
	float hz; // 0 = irregular frames of 4..40 ms
} rate_case;

static int run_rate(const rate_case *rc, spring_params p, float *max_err_rel)
{
	const int n = 3;
	const float from[3] = {0.0f, 1.0f, -20.0f};
	const float retarget_times[3] = {0.23f, 0.61f, 1.07f};
	const float retargets[3][3] = {{250.0f, 0.2f, 40.0f}, {-80.0f, 0.9f, 45.0f}, {120.0f, 0.5f, -10.0f}};
	float move[3] = {0.0f, 0.0f, 0.0f}; // largest move per channel, for the relative tolerance
	spring_motion m;
	spring_motion_desc d = {.channels = n, .params = p, .to = {100.0f, 0.0f, 30.0f}};
	for (int c = 0; c < n; c++) {
		d.from[c] = from[c];
		d.rest_delta[c] = 1e-7f; // keep it moving for the whole run (rest is test 3's business)
		d.rest_speed[c] = 1e-7f;
		move[c] = fabsf(d.to[c] - d.from[c]);
	}
	ENSURE(spring_motion_init(&m, &d) == SPRING_OK);
	spring_state anchor[3];
	float target[3];
	for (int c = 0; c < n; c++) {
		anchor[c] = (spring_state){d.from[c], 0.0f};
		target[c] = d.to[c];
	}
	double t = 0.0, t_anchor = 0.0;
	int next_retarget = 0;
	rng_state = 77;
	*max_err_rel = 0.0f;
	while (t < 1.6) {
		float dt = rc->hz > 0.0f ? 1.0f / rc->hz : rnd(0.004f, 0.040f);
		ENSURE(spring_motion_update(&m, dt) == SPRING_OK);
		t += (double)dt;
		for (int c = 0; c < n; c++) {
			spring_state ref = spring_evaluate(p, anchor[c], target[c], (float)(t - t_anchor));
			float err = fabsf(m.value[c] - ref.x) / move[c];
			*max_err_rel = fmaxf(*max_err_rel, err);
			ENSURE_MSG(err <= 1e-5f, "%s: t %.4f channel %d: %.9g vs closed form %.9g", rc->name, t, c, (double)m.value[c],
			           (double)ref.x);
			double wn = sqrt(p.stiffness / p.mass);
			ENSURE_MSG(fabs(m.velocity[c] - ref.v) <= 1e-5 * wn * move[c], "%s: t %.4f channel %d velocity", rc->name, t, c);
		}
		if (next_retarget < 3 && t >= retarget_times[next_retarget]) {
			ENSURE(spring_motion_set_target(&m, retargets[next_retarget], n) == SPRING_OK);
			for (int c = 0; c < n; c++) {
				anchor[c] = (spring_state){m.value[c], m.velocity[c]};
				move[c] = fmaxf(move[c], fabsf(retargets[next_retarget][c] - m.value[c]));
				target[c] = retargets[next_retarget][c];
			}
			t_anchor = t;
			next_retarget++;
		}
	}
	ENSURE(next_retarget == 3);
	return 0;
}

static int test_frame_rate_independent(void)
{
	const rate_case rates[] = {{"30 Hz", 30.0f},   {"60 Hz", 60.0f},   {"120 Hz", 120.0f},
	                           {"144 Hz", 144.0f}, {"240 Hz", 240.0f}, {"irregular 4..40 ms", 0.0f}};
	const spring_params ps[] = {params_db(0.5f, 0.3f), params_db(0.5f, 0.0f), params_db(0.4f, -0.5f), params_db(0.3f, 0.8f)};
	float worst = 0.0f;
	for (int i = 0; i < (int)(sizeof ps / sizeof ps[0]); i++) {
		for (int r = 0; r < (int)(sizeof rates / sizeof rates[0]); r++) {
			float e;
			if (run_rate(&rates[r], ps[i], &e)) {
				return 1;
			}
			worst = fmaxf(worst, e);
		}
	}
	printf("       max |motion - closed form| / move over all rates: %.3g\n", (double)worst);
	return 0;
}

// =============================================================================================
// 3. Rest: per-channel thresholds, both conditions, exact snap, time_to_settle

// A pixel channel and an opacity channel with thresholds in their own units. At every frame the
// test computes, from the closed form, which channels qualify; the motion must come to rest at the
// first frame where all of them do, and not before.
static int run_rest(spring_params p, float hz, float *settle_error_frames)
{
	const float h = 1.0f / hz;
	spring_motion m;
	spring_motion_desc d = {.channels = 2,
	                        .params = p,
	                        .from = {0.0f, 0.0f},
	                        .to = {300.0f, 1.0f},
	                        .velocity = {0.0f, 0.0f},
	                        .rest_delta = {0.5f, 0.0005f},
	                        .rest_speed = {2.0f, 0.001f}};
	ENSURE(spring_motion_init(&m, &d) == SPRING_OK);
	ENSURE(m.rest_delta[0] == 0.5f && m.rest_delta[1] == 0.0005f && m.rest_speed[0] == 2.0f && m.rest_speed[1] == 0.001f);
	float predicted = spring_motion_time_to_settle(&m);
	ENSURE(predicted > 0.0f && isfinite(predicted));
	int frame = 0, one_only = 0;
	double t = 0.0;
	for (;;) {
		ENSURE(frame < 100000);
		ENSURE(spring_motion_update(&m, h) == SPRING_OK);
		frame++;
		t += (double)h;
		int q[2];
		for (int c = 0; c < 2; c++) {
			spring_state ref = spring_evaluate(p, (spring_state){d.from[c], 0.0f}, d.to[c], (float)t);
			q[c] = fabsf(ref.x - d.to[c]) <= d.rest_delta[c] && fabsf(ref.v) <= d.rest_speed[c];
		}
		one_only += q[0] != q[1];
		ENSURE_MSG(m.at_rest == (q[0] && q[1]), "%g Hz frame %d: at_rest %d but qualifies %d %d", (double)hz, frame, m.at_rest,
		           q[0], q[1]);
		if (m.at_rest) {
			break;
		}
	}
	// The test has teeth only if the channels qualify at different frames.
	ENSURE(one_only > 0);
	// Snapped exactly.
	ENSURE(m.value[0] == 300.0f && m.value[1] == 1.0f && m.velocity[0] == 0.0f && m.velocity[1] == 0.0f);
	ENSURE(bits_equal(m.velocity[0], 0.0f) && bits_equal(m.velocity[1], 0.0f));
	ENSURE(spring_motion_time_to_settle(&m) == 0.0f);
	ENSURE(spring_motion_is_resting(&m) == 1);
	*settle_error_frames = (float)((t - (double)predicted) / (double)h);
	ENSURE_MSG(t >= (double)predicted - 1e-4 && t <= (double)predicted + (double)h + 1e-4,
	           "%g Hz: rest at %.4f s, time_to_settle said %.4f s", (double)hz, t, (double)predicted);
	// Once at rest it stays put.
	ENSURE(spring_motion_update(&m, 1.0f) == SPRING_OK && m.value[0] == 300.0f && m.at_rest);
	return 0;
}

static int test_rest_per_channel_thresholds(void)
{
	const spring_params ps[] = {params_db(0.5f, 0.0f), params_db(0.5f, -0.3f), params_db(0.8f, -0.6f), params_db(0.3f, 0.05f)};
	const float rates[] = {30.0f, 60.0f, 144.0f, 240.0f};
	float lo = 1e9f, hi = -1e9f;
	for (int i = 0; i < 4; i++) {
		for (int r = 0; r < 4; r++) {
			float err;
			if (run_rest(ps[i], rates[r], &err)) {
				printf("       (spring %d, %g Hz)\n", i, (double)rates[r]);
				return 1;
			}
			lo = fminf(lo, err);
			hi = fmaxf(hi, err);
		}
	}
	printf("       simulated rest - time_to_settle: %.3f .. %.3f frames\n", (double)lo, (double)hi);
	return 0;
}

// time_to_settle from a mid-flight state after a retarget, and on position AND speed: with a
// tight speed threshold the speed condition is the later one, which a position-only settling
// time would miss by many frames.
static int test_time_to_settle_mid_flight(void)
{
	const spring_params ps[] = {params_db(0.5f, 0.0f), params_db(0.6f, -0.4f), params_db(0.5f, 0.3f)};
	for (int i = 0; i < 3; i++) {
		for (int speed_bound = 0; speed_bound < 2; speed_bound++) {
			spring_motion m;
			ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1,
			                                                    .params = ps[i],
			                                                    .to = {1.0f},
			                                                    .rest_delta = {0.002f},
			                                                    .rest_speed = {speed_bound ? 0.0005f : 1.0f}}) == SPRING_OK);
			for (int f = 0; f < 9; f++) {
				ENSURE(spring_motion_update(&m, 1.0f / 60.0f) == SPRING_OK);
			}
			ENSURE(spring_motion_set_target(&m, (float[]){-0.5f}, 1) == SPRING_OK);
			float predicted = spring_motion_time_to_settle(&m);
			float pos_only = spring_settling_time(m.params, -0.5f - m.value[0], m.velocity[0], m.rest_delta[0]);
			const float h = 1.0f / 120.0f;
			double t = 0.0;
			while (!m.at_rest) {
				ENSURE(spring_motion_update(&m, h) == SPRING_OK);
				t += h;
				ENSURE(t < 100.0);
			}
			if (i < 2) { // critically and overdamped: no early rest at a turning point
				ENSURE_MSG(t >= predicted - 1e-4 && t <= predicted + h + 1e-4, "spring %d speed %d: rest %.4f predicted %.4f", i,
				           speed_bound, t, (double)predicted);
			} else {
				ENSURE(t <= predicted + h + 1e-4);
			}
			if (speed_bound && i < 2) {
				ENSURE_MSG(predicted > pos_only + 10.0f * h, "the speed condition should bind: %g vs %g", (double)predicted,
				           (double)pos_only);
			}
		}
	}
	return 0;
}

// Over random springs, moves, thresholds and frame rates: no frame after time_to_settle is still
// moving (an upper bound within one frame), and from rest with zeta >= 1 it is also not early.
// Underdamped motions may rest earlier: their state circles inside both thresholds at some phases
// before the oscillation is small enough to stay inside them for good.
static int test_time_to_settle_random(void)
{
	rng_state = 99;
	const float rates[] = {30.0f, 60.0f, 120.0f, 144.0f, 240.0f};
	int early = 0;
	double worst_early = 0.0;
	for (int trial = 0; trial < 400; trial++) {
		spring_params p;
		float hz = rnd(0.3f, 5.0f);
		float zeta = trial % 2 ? rnd(0.02f, 0.99f) : rnd(1.0f, 4.0f);
		ENSURE(spring_params_from_frequency(hz, zeta, &p) == SPRING_OK);
		spring_motion_desc d = {.channels = 2, .params = p};
		d.to[0] = rnd(-500.0f, 500.0f);
		d.to[1] = rnd(0.0f, 1.0f);
		if (trial % 4 >= 2) { // explicit thresholds, unrelated scales
			d.rest_delta[0] = rnd(0.01f, 1.0f);
			d.rest_speed[0] = rnd(0.01f, 5.0f);
			d.rest_delta[1] = rnd(1e-4f, 1e-2f);
			d.rest_speed[1] = rnd(1e-4f, 1e-1f);
		}
		spring_motion m;
		ENSURE(spring_motion_init(&m, &d) == SPRING_OK);
		float predicted = spring_motion_time_to_settle(&m);
		const float h = 1.0f / rates[trial % 5];
		double t = 0.0;
		while (!m.at_rest) {
			ENSURE(spring_motion_update(&m, h) == SPRING_OK);
			t += h;
			ENSURE(t < 300.0);
		}
		ENSURE_MSG(t <= predicted + h + 1e-4, "trial %d: rest at %.4f, time_to_settle %.4f", trial, t, (double)predicted);
		if (zeta >= 1.0f) {
			ENSURE_MSG(t >= predicted - 1e-4, "trial %d zeta %g: rest at %.4f, time_to_settle %.4f", trial, (double)zeta, t,
			           (double)predicted);
		} else if (t < predicted - 1e-4) {
			early++;
			worst_early = fmax(worst_early, (predicted - t) * 0.5 * p.damping / p.mass);
		}
	}
	printf("       underdamped: %d of 200 came to rest early, by up to %.2f / (zeta omega_n)\n", early, worst_early);
	return 0;
}

// Both conditions: passing through the target fast, or turning around far from it, is not rest.
static int test_rest_needs_both_conditions(void)
{
	spring_params p = params_db(0.5f, 0.3f);
	spring_motion_desc d = {.channels = 1, .params = p, .to = {1.0f}, .rest_delta = {0.01f}, .rest_speed = {0.05f}};
	// First zero crossing of x - 1 and first velocity zero (the overshoot peak), by bisection.
	double lo = 0.0, hi = 0.5;
	for (int i = 0; i < 60; i++) {
		double mid = 0.5 * (lo + hi);
		*(spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)mid).x < 1.0f ? &lo : &hi) = mid;
	}
	float t_cross = (float)hi;
	lo = t_cross;
	hi = 1.0;
	for (int i = 0; i < 60; i++) {
		double mid = 0.5 * (lo + hi);
		*(spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)mid).v > 0.0f ? &lo : &hi) = mid;
	}
	float t_peak = (float)lo;
	spring_motion m;
	ENSURE(spring_motion_init(&m, &d) == SPRING_OK);
	ENSURE(spring_motion_update(&m, t_cross) == SPRING_OK);
	ENSURE(fabsf(m.value[0] - 1.0f) <= 1e-4f); // within rest_delta...
	ENSURE(m.velocity[0] > 1.0f);              // ...but fast
	ENSURE(!m.at_rest);
	ENSURE(spring_motion_init(&m, &d) == SPRING_OK);
	ENSURE(spring_motion_update(&m, t_peak) == SPRING_OK);
	ENSURE(fabsf(m.velocity[0]) <= 0.05f);    // slow enough...
	ENSURE(fabsf(m.value[0] - 1.0f) > 0.01f); // ...but far (4.6 % overshoot)
	ENSURE(!m.at_rest);
	// Starting on the target with a flick is not rest either.
	ENSURE(spring_motion_init(
			   &m, &(spring_motion_desc){.channels = 1, .params = p, .from = {1.0f}, .to = {1.0f}, .velocity = {3.0f}}) ==
	       SPRING_OK);
	ENSURE(!m.at_rest);
	ENSURE(spring_motion_update(&m, 0.0f) == SPRING_OK && !m.at_rest);
	return 0;
}

// Both rest bounds are inclusive: a channel exactly rest_delta from its target and exactly
// rest_speed fast qualifies; a threshold one float step below does not (a `<` in the rest test
// fails here). advance(0) runs the rest test on the state as it is (the transition at t = 0 is
// the identity).
static int test_rest_thresholds_inclusive(void)
{
	for (int sign = -1; sign <= 1; sign += 2) {
		for (int which = 0; which < 3; which++) { // 0: both exact, 1: delta one step below, 2: speed
			spring_motion_desc d = {.channels = 2, .to = {10.0f, -3.0f}};
			d.from[0] = 10.0f + 0.5f * (float)sign; // the gap is exactly 0.5
			d.from[1] = -3.0f;
			d.velocity[0] = 2.0f * (float)sign;
			for (int c = 0; c < 2; c++) {
				d.rest_delta[c] = which == 1 ? nextafterf(0.5f, 0.0f) : 0.5f;
				d.rest_speed[c] = which == 2 ? nextafterf(2.0f, 0.0f) : 2.0f;
			}
			spring_motion m;
			ENSURE(spring_motion_init(&m, &d) == SPRING_OK && !m.at_rest);
			ENSURE(spring_motion_update(&m, 0.0f) == SPRING_OK);
			if (which == 0) {
				ENSURE_MSG(m.at_rest && m.value[0] == 10.0f && m.velocity[0] == 0.0f, "sign %d: not at rest", sign);
			} else {
				ENSURE_MSG(!m.at_rest && m.value[0] == d.from[0] && m.velocity[0] == d.velocity[0], "sign %d, case %d: rested",
				           sign, which);
			}
		}
	}
	return 0;
}

// Default thresholds: in the channel's units, scaled by the move, never zero.
static int test_default_thresholds(void)
{
	spring_motion m;
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 3, .to = {300.0f, 1.0f, 0.0f}}) == SPRING_OK);
	double wn = sqrt(m.params.stiffness / m.params.mass);
	// Zero params resolve to SwiftUI's default Spring(duration: 0.5, bounce: 0).
	ENSURE_NEAR(m.params.stiffness, 157.913670, 1e-3);
	ENSURE_NEAR(m.params.damping, 25.1327412, 1e-4);
	ENSURE(m.params.mass == 1.0f);
	spring_params d;
	ENSURE(SPRING_MOTION_DEFAULT_DURATION == 0.5f && SPRING_MOTION_DEFAULT_BOUNCE == 0.0f);
	ENSURE(spring_params_from_duration_bounce(SPRING_MOTION_DEFAULT_DURATION, SPRING_MOTION_DEFAULT_BOUNCE, &d) == SPRING_OK);
	ENSURE(memcmp(&d, &m.params, sizeof d) == 0);
	ENSURE_NEAR(m.rest_delta[0], 0.3, 1e-6);
	ENSURE_NEAR(m.rest_delta[1], 0.001, 1e-9);
	ENSURE(m.rest_delta[2] == SPRING_MOTION_REST_DELTA_FLOOR); // zero-length move: the floor, not 0
	ENSURE_NEAR(m.rest_speed[1], wn * 0.001, 1e-7);
	ENSURE(m.rest_speed[2] > 0.0f);
	// A flick on a zero-length move: scaled by |v| / omega_n.
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1, .velocity = {50.0f}}) == SPRING_OK);
	ENSURE_NEAR(m.rest_delta[0], 1e-3 * 50.0 / wn, 1e-7);
	// Large values: above float resolution.
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1, .from = {1e7f}, .to = {1e7f + 1.0f}}) == SPRING_OK);
	ENSURE(m.rest_delta[0] >= 1e7f * 0x1p-21f);
	// A motion created at rest then retargeted: thresholds follow the new move (channel 1 only).
	ENSURE(spring_motion_init(
			   &m, &(spring_motion_desc){.channels = 2, .from = {5.0f, 7.0f}, .to = {5.0f, 7.0f}, .rest_delta = {0.0f, 0.25f}}) ==
	       SPRING_OK);
	ENSURE(m.at_rest);
	ENSURE(spring_motion_set_target(&m, (float[]){205.0f, 9.0f}, 2) == SPRING_OK);
	ENSURE(!m.at_rest && m.velocity[0] == 0.0f && m.velocity[1] == 0.0f); // starts from rest
	ENSURE_NEAR(m.rest_delta[0], 0.2, 1e-6);
	ENSURE(m.rest_delta[1] == 0.25f); // explicit: kept
	ENSURE_NEAR(m.rest_speed[1], wn * 0.25, 1e-5);
	// A retarget to the current target changes nothing at all.
	ENSURE(spring_motion_update(&m, 0.1f) == SPRING_OK);
	spring_motion before = m;
	ENSURE(spring_motion_set_target(&m, (float[]){205.0f, 9.0f}, 2) == SPRING_OK);
	ENSURE(memcmp(&before, &m, sizeof m) == 0);
	// A default-thresholds motion comes to rest, at its target, in a sensible time.
	float predicted = spring_motion_time_to_settle(&m);
	int frames = 0;
	while (!m.at_rest && frames < 1000) {
		ENSURE(spring_motion_update(&m, 1.0f / 60.0f) == SPRING_OK);
		frames++;
	}
	ENSURE(m.at_rest && m.value[0] == 205.0f && m.value[1] == 9.0f);
	ENSURE(frames < 90);
	ENSURE(predicted > 0.0f && predicted < 1.5f);
	return 0;
}

// =============================================================================================
// 4. Overshoot clamp

static int test_overshoot_clamp(void)
{
	spring_params p = params_db(0.5f, 0.5f); // zeta 0.5: 16.3 % overshoot
	const float from[2] = {0.0f, 100.0f}, to[2] = {1.0f, -50.0f};
	for (int mode = 0; mode < 3; mode++) { // 60 Hz, 144 Hz, irregular
		spring_motion m;
		ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 2,
		                                                    .params = p,
		                                                    .from = {from[0], from[1]},
		                                                    .to = {to[0], to[1]},
		                                                    .velocity = {0.0f, 300.0f},
		                                                    .clamp_overshoot = 1}) == SPRING_OK);
		float predicted = spring_motion_time_to_settle(&m);
		rng_state = 5;
		double t = 0.0;
		int stopped[2] = {0, 0};
		float last_dt = 0.0f;
		while (!m.at_rest) {
			float dt = mode == 0 ? 1.0f / 60.0f : mode == 1 ? 1.0f / 144.0f : rnd(0.004f, 0.040f);
			ENSURE(spring_motion_update(&m, dt) == SPRING_OK);
			t += dt;
			last_dt = dt;
			ENSURE(t < 10.0);
			ENSURE(m.value[0] <= to[0]); // never passes its target
			ENSURE(m.value[1] >= to[1]);
			for (int c = 0; c < 2; c++) {
				if (stopped[c]) { // once stopped it stays on target, still, while the other moves
					ENSURE(m.value[c] == to[c] && m.velocity[c] == 0.0f);
				}
				stopped[c] = m.value[c] == to[c] && m.velocity[c] == 0.0f;
			}
		}
		ENSURE(m.value[0] == 1.0f && m.value[1] == -50.0f && m.velocity[0] == 0.0f && m.velocity[1] == 0.0f);
		ENSURE_MSG(t >= predicted - 1e-4 && t <= predicted + last_dt + 1e-4, "clamp rest %.4f predicted %.4f", t,
		           (double)predicted);
	}
	// Without the clamp it overshoots by spring_overshoot(p) of the distance.
	spring_motion m;
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1, .params = p, .to = {2.0f}}) == SPRING_OK);
	float peak = 0.0f;
	for (int i = 0; i < 2000; i++) {
		ENSURE(spring_motion_update(&m, 0.0005f) == SPRING_OK);
		peak = fmaxf(peak, m.value[0]);
	}
	ENSURE_NEAR((peak - 2.0f) / 2.0f, spring_overshoot(p), 1e-4);
	ENSURE(spring_overshoot(p) > 0.15f);
	// One large step that crosses the target and comes back to the starting side (to the first
	// undershoot, 2.7 % of the move): the clamp still stops it on the target.
	double t_ext = 2.0 * SPRING_PI / sqrt(p.stiffness - 0.25 * p.damping * p.damping); // 2nd extremum
	spring_state free_run = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)t_ext);
	ENSURE(free_run.x < 1.0f - 0.02f); // same side as the start, far outside any threshold
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1,
	                                                    .params = p,
	                                                    .to = {1.0f},
	                                                    .rest_delta = {1e-5f},
	                                                    .rest_speed = {1e-5f},
	                                                    .clamp_overshoot = 1}) == SPRING_OK);
	ENSURE(spring_motion_update(&m, (float)t_ext) == SPRING_OK);
	ENSURE_MSG(m.value[0] == 1.0f && m.velocity[0] == 0.0f && m.at_rest, "after one long step: %.9g, v %.9g", (double)m.value[0],
	           (double)m.velocity[0]);
	// A flick away from a target it sits on: it turns and stops on the way back, never crossing.
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1, .params = p, .velocity = {-4.0f}, .clamp_overshoot = 1}) ==
	       SPRING_OK);
	int frames = 0;
	while (!m.at_rest) {
		ENSURE(spring_motion_update(&m, 1.0f / 60.0f) == SPRING_OK);
		ENSURE(m.value[0] <= 0.0f);
		ENSURE(++frames < 600);
	}
	ENSURE(m.value[0] == 0.0f && frames > 5);
	return 0;
}

// =============================================================================================
// 5. Sampling and the progress curve

static int test_sample_matches_closed_form(void)
{
	spring_params p = params_db(0.45f, 0.25f);
	spring_motion m;
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){
									  .channels = 2, .params = p, .to = {120.0f, 1.0f}, .velocity = {0.0f, -2.0f}}) == SPRING_OK);
	for (int i = 0; i < 7; i++) {
		ENSURE(spring_motion_update(&m, 1.0f / 60.0f) == SPRING_OK);
	}
	ENSURE(spring_motion_set_target(&m, (float[]){-40.0f, 0.5f}, 2) == SPRING_OK);
	ENSURE(spring_motion_update(&m, 0.013f) == SPRING_OK);
	spring_motion before = m;
	enum { CAP = 400 };
	static float values[CAP * 2], velocities[CAP * 2];
	int count = -1, truncated = -1;
	const float interval = 1.0f / 90.0f;
	ENSURE(spring_motion_sample(&m, interval, 20.0f, values, velocities, CAP, &count, &truncated) == SPRING_OK);
	ENSURE(memcmp(&before, &m, sizeof m) == 0); // unchanged
	ENSURE(count > 10 && count < CAP && truncated == 0);
	// Each sample is the closed form from the current state at i * interval (the last one snapped).
	spring_state s0[2] = {{m.value[0], m.velocity[0]}, {m.value[1], m.velocity[1]}};
	for (int i = 0; i < count - 1; i++) {
		for (int c = 0; c < 2; c++) {
			spring_state ref = spring_evaluate(p, s0[c], m.target[c], (float)((double)i * interval));
			ENSURE_NEAR(values[i * 2 + c], ref.x, 1e-5 * 160.0);
			ENSURE_NEAR(velocities[i * 2 + c], ref.v, 1e-5 * 160.0 * 10.0);
		}
	}
	ENSURE(values[(count - 1) * 2] == -40.0f && values[(count - 1) * 2 + 1] == 0.5f);
	ENSURE(velocities[(count - 1) * 2] == 0.0f);
	// ...and bit for bit what driving the motion at that rate gives.
	spring_motion driven = m;
	for (int i = 1; i < count; i++) {
		ENSURE(spring_motion_update(&driven, interval) == SPRING_OK);
		ENSURE(bits_equal(driven.value[0], values[i * 2]) && bits_equal(driven.value[1], values[i * 2 + 1]));
		ENSURE(driven.at_rest == (i == count - 1));
	}
	// The sampled length agrees with time_to_settle within one interval.
	float predicted = spring_motion_time_to_settle(&m);
	ENSURE((count - 1) * interval <= predicted + interval + 1e-4f);
	// Cut by max_duration: truncated, samples up to the last time <= max_duration.
	ENSURE(spring_motion_sample(&m, interval, 0.1f, values, NULL, CAP, &count, &truncated) == SPRING_OK);
	ENSURE_MSG(truncated == 1 && count == 10, "truncated %d count %d", truncated, count); // t = 0 .. 9/90 s
	// Cut by capacity: never writes past it.
	float small[3 * 2 + 4];
	for (int i = 0; i < 10; i++) {
		small[i] = -12345.0f;
	}
	ENSURE(spring_motion_sample(&m, interval, 20.0f, small, NULL, 3, &count, &truncated) == SPRING_OK);
	ENSURE(count == 3 && truncated == 1);
	for (int i = 6; i < 10; i++) {
		ENSURE(small[i] == -12345.0f);
	}
	ENSURE(spring_motion_sample(&m, interval, 20.0f, NULL, NULL, 0, &count, &truncated) == SPRING_OK);
	ENSURE(count == 0 && truncated == 1);
	// A motion at rest samples to one point.
	ENSURE(spring_motion_sample(&driven, interval, 20.0f, values, NULL, CAP, &count, &truncated) == SPRING_OK);
	ENSURE(count == 1 && truncated == 0 && values[0] == -40.0f);
	return 0;
}

static int test_sample_progress(void)
{
	enum { CAP = 2001 };
	static float progress[CAP + 8];
	const spring_params ps[] = {params_db(0.5f, 0.0f), params_db(0.5f, 0.3f), params_db(0.6f, -0.5f)};
	const float v0s[] = {0.0f, 4.0f, -2.0f};
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			int count = -1, truncated = -1;
			const float interval = 0.01f;
			ENSURE(spring_motion_sample_progress(ps[i], v0s[j], interval, 20.0f, 0.0f, progress, CAP, &count, &truncated) ==
			       SPRING_OK);
			ENSURE(count >= 2 && truncated == 0);
			ENSURE(progress[0] == 0.0f && progress[count - 1] == 1.0f);
			float delta = 1e-3f * fmaxf(1.0f, fabsf(v0s[j]) / spring_natural_frequency(ps[i]));
			spring_state at_snap = spring_evaluate(ps[i], (spring_state){0.0f, v0s[j]}, 1.0f,
			                                       (float)((count - 1) * (double)interval));
			ENSURE(fabsf(at_snap.x - 1.0f) <= delta); // the snap to 1 is within the threshold
			ENSURE(fabsf(progress[count - 2] - 1.0f) > 0.0f);
			for (int k = 0; k < count - 1; k++) {
				spring_state ref = spring_evaluate(ps[i], (spring_state){0.0f, v0s[j]}, 1.0f, (float)(k * (double)interval));
				ENSURE_NEAR(progress[k], ref.x, 1e-5);
			}
			// The duration is the motion's time to settle, within one interval.
			spring_motion m;
			ENSURE(spring_motion_init(&m, &(spring_motion_desc){
											  .channels = 1, .params = ps[i], .to = {1.0f}, .velocity = {v0s[j]}}) == SPRING_OK);
			float settle = spring_motion_time_to_settle(&m);
			ENSURE((count - 1) * interval <= settle + interval + 1e-4f);
			if (i != 1) {
				ENSURE((count - 1) * interval >= settle - 1e-4f);
			}
		}
	}
	// The SwiftUI default spring as a 10 ms CSS linear(): about 0.9 s, 90 points.
	int count, truncated;
	ENSURE(spring_motion_sample_progress((spring_params){0.0f, 0.0f, 0.0f}, 0.0f, 0.01f, 20.0f, 0.0f, progress, CAP, &count,
	                                     &truncated) == SPRING_OK);
	printf("       default spring, 10 ms linear(): %d points, %.2f s\n", count, (double)((count - 1) * 0.01f));
	ENSURE(count > 60 && count < 120);
	// max_duration cuts it: truncated, and the last value is short of 1.
	ENSURE(spring_motion_sample_progress(ps[0], 0.0f, 0.01f, 0.25f, 0.0f, progress, CAP, &count, &truncated) == SPRING_OK);
	ENSURE(truncated == 1 && count == 26 && progress[count - 1] < 0.99f);
	// capacity cuts it, and nothing past capacity is written.
	for (int k = 0; k < 16; k++) {
		progress[k] = 7.0f;
	}
	ENSURE(spring_motion_sample_progress(ps[1], 0.0f, 0.01f, 20.0f, 0.0f, progress, 9, &count, &truncated) == SPRING_OK);
	ENSURE(truncated == 1 && count == 9);
	for (int k = 9; k < 16; k++) {
		ENSURE(progress[k] == 7.0f);
	}
	// A coarser explicit threshold ends sooner.
	int count_coarse;
	ENSURE(spring_motion_sample_progress(ps[1], 0.0f, 0.01f, 20.0f, 0.01f, progress, CAP, &count_coarse, &truncated) ==
	       SPRING_OK);
	ENSURE(spring_motion_sample_progress(ps[1], 0.0f, 0.01f, 20.0f, 0.0f, progress, CAP, &count, &truncated) == SPRING_OK);
	ENSURE(count_coarse < count);
	return 0;
}

// =============================================================================================
// 6. Bad input corpus and fuzz

static int test_bad_input_corpus(void)
{
	const float nan_ = NAN, inf_ = INFINITY;
	spring_motion m, snapshot;
	spring_motion_desc good = {.channels = 2, .to = {10.0f, 1.0f}};
	ENSURE(spring_motion_init(&m, &good) == SPRING_OK);
	ENSURE(spring_motion_update(&m, 0.05f) == SPRING_OK);
	snapshot = m;
	int cases = 0;
#define BAD(call, expected)                                                               \
	do {                                                                                  \
		spring_result r_ = (call);                                                        \
		ENSURE_MSG(r_ == (expected), "%s gave %s", #call, spring_result_string(r_));      \
		ENSURE_MSG(memcmp(&m, &snapshot, sizeof m) == 0, "%s changed the motion", #call); \
		cases++;                                                                          \
	} while (0)
	spring_motion_desc d;
	// init: the destination is untouched on every error.
	BAD(spring_motion_init(NULL, &good), IA);
	BAD(spring_motion_init(&m, NULL), IA);
	d = good, d.channels = 0;
	BAD(spring_motion_init(&m, &d), IA);
	d = good, d.channels = 5;
	BAD(spring_motion_init(&m, &d), IA);
	d = good, d.channels = -1;
	BAD(spring_motion_init(&m, &d), IA);
	d = good, d.from[1] = nan_;
	BAD(spring_motion_init(&m, &d), NF);
	d = good, d.to[0] = inf_;
	BAD(spring_motion_init(&m, &d), NF);
	d = good, d.velocity[1] = -inf_;
	BAD(spring_motion_init(&m, &d), NF);
	d = good, d.rest_delta[0] = nan_;
	BAD(spring_motion_init(&m, &d), NF);
	d = good, d.rest_speed[1] = inf_;
	BAD(spring_motion_init(&m, &d), NF);
	d = good, d.rest_delta[1] = -0.1f;
	BAD(spring_motion_init(&m, &d), OOR);
	d = good, d.rest_speed[0] = -1.0f;
	BAD(spring_motion_init(&m, &d), OOR);
	d = good, d.params = (spring_params){-100.0f, 10.0f, 1.0f};
	BAD(spring_motion_init(&m, &d), OOR);
	d = good, d.params = (spring_params){0.0f, 10.0f, 1.0f};
	BAD(spring_motion_init(&m, &d), OOR);
	d = good, d.params = (spring_params){100.0f, -1.0f, 1.0f};
	BAD(spring_motion_init(&m, &d), OOR);
	d = good, d.params = (spring_params){100.0f, 10.0f, -1.0f};
	BAD(spring_motion_init(&m, &d), OOR);
	d = good, d.params = (spring_params){100.0f, nan_, 1.0f};
	BAD(spring_motion_init(&m, &d), NF);
	d = good, d.params = (spring_params){inf_, 10.0f, 1.0f};
	BAD(spring_motion_init(&m, &d), NF);
	// set_target
	BAD(spring_motion_set_target(NULL, (float[]){1.0f, 2.0f}, 2), IA);
	BAD(spring_motion_set_target(&m, NULL, 2), IA);
	BAD(spring_motion_set_target(&m, (float[]){1.0f, 2.0f}, 1), IA);
	BAD(spring_motion_set_target(&m, (float[]){1.0f, 2.0f, 3.0f}, 3), IA);
	BAD(spring_motion_set_target(&m, (float[]){1.0f, nan_}, 2), NF);
	BAD(spring_motion_set_target(&m, (float[]){-inf_, 2.0f}, 2), NF);
	// set_params
	BAD(spring_motion_set_params(&m, (spring_params){nan_, 1.0f, 1.0f}), NF);
	BAD(spring_motion_set_params(&m, (spring_params){100.0f, -5.0f, 1.0f}), OOR);
	BAD(spring_motion_set_params(&m, (spring_params){1e-30f, 1.0f, 1e30f}), OOR);
	BAD(spring_motion_set_params(NULL, (spring_params){100.0f, 5.0f, 1.0f}), IA);
	// set_value
	BAD(spring_motion_set_value(&m, (float[]){nan_, 0.0f}, NULL, 2), NF);
	BAD(spring_motion_set_value(&m, (float[]){0.0f, 0.0f}, (float[]){0.0f, inf_}, 2), NF);
	BAD(spring_motion_set_value(&m, NULL, NULL, 2), IA);
	BAD(spring_motion_set_value(&m, (float[]){0.0f, 0.0f}, NULL, 4), IA);
	// advance
	BAD(spring_motion_update(&m, nan_), NF);
	BAD(spring_motion_update(&m, inf_), NF);
	BAD(spring_motion_update(&m, -0.001f), OOR);
	BAD(spring_motion_update(&m, -inf_), NF);
	BAD(spring_motion_update(NULL, 0.01f), IA);
	// get
	float out[4] = {9.0f, 9.0f, 9.0f, 9.0f};
	BAD(spring_motion_get_value(&m, out, NULL, 0), IA);
	BAD(spring_motion_get_value(&m, out, NULL, 3), IA);
	BAD(spring_motion_get_value(NULL, out, NULL, 1), IA);
	ENSURE(out[0] == 9.0f);
	// sample
	int count = -7, truncated = -7;
	float buf[64];
	BAD(spring_motion_sample(&m, 0.0f, 1.0f, buf, NULL, 32, &count, &truncated), OOR);
	BAD(spring_motion_sample(&m, -0.01f, 1.0f, buf, NULL, 32, &count, &truncated), OOR);
	BAD(spring_motion_sample(&m, nan_, 1.0f, buf, NULL, 32, &count, &truncated), NF);
	BAD(spring_motion_sample(&m, 0.01f, -1.0f, buf, NULL, 32, &count, &truncated), OOR);
	BAD(spring_motion_sample(&m, 0.01f, inf_, buf, NULL, 32, &count, &truncated), NF);
	BAD(spring_motion_sample(&m, 0.01f, 1.0f, buf, NULL, -1, &count, &truncated), IA);
	BAD(spring_motion_sample(&m, 0.01f, 1.0f, NULL, NULL, 32, &count, &truncated), IA);
	BAD(spring_motion_sample(&m, 0.01f, 1.0f, buf, NULL, 32, NULL, &truncated), IA);
	BAD(spring_motion_sample_progress((spring_params){100.0f, -1.0f, 1.0f}, 0.0f, 0.01f, 1.0f, 0.0f, buf, 64, &count, &truncated),
	    OOR);
	BAD(spring_motion_sample_progress((spring_params){0}, nan_, 0.01f, 1.0f, 0.0f, buf, 64, &count, &truncated), NF);
	BAD(spring_motion_sample_progress((spring_params){0}, 0.0f, 0.01f, 1.0f, -0.5f, buf, 64, &count, &truncated), OOR);
	BAD(spring_motion_sample_progress((spring_params){0}, 0.0f, 0.0f, 1.0f, 0.0f, buf, 64, &count, &truncated), OOR);
	BAD(spring_motion_sample_progress((spring_params){0}, 0.0f, 0.01f, nan_, 0.0f, buf, 64, &count, &truncated), NF);
	ENSURE(count == -7 && truncated == -7);
	// A corrupted struct is refused by every entry point.
	spring_motion bad = m;
	bad.channels = 9;
	ENSURE(spring_motion_update(&bad, 0.01f) == IA && spring_motion_is_resting(&bad) == 0);
	ENSURE(spring_motion_time_to_settle(&bad) == 0.0f);
	bad = m;
	bad.params.mass = nan_;
	ENSURE(spring_motion_set_target(&bad, (float[]){1.0f, 1.0f}, 2) == IA);
	bad = m;
	bad.rest_delta[1] = -1.0f;
	ENSURE(spring_motion_sample(&bad, 0.01f, 1.0f, buf, NULL, 32, &count, &truncated) == IA);
	cases += 4;
	// A result beyond float range is refused, state untouched.
	ENSURE(spring_motion_init(
			   &m, &(spring_motion_desc){.channels = 1, .params = params_db(0.5f, 0.9f), .from = {3e38f}, .to = {-3e38f}}) ==
	       SPRING_OK);
	snapshot = m;
	spring_result r = SPRING_OK;
	for (int i = 0; i < 100 && r == SPRING_OK; i++) {
		snapshot = m;
		r = spring_motion_update(&m, 0.01f);
	}
	ENSURE(r == OOR && memcmp(&m, &snapshot, sizeof m) == 0);
	// Unused channels are never read: NaN there is fine.
	d = good, d.channels = 1, d.from[3] = nan_, d.rest_delta[2] = -4.0f;
	ENSURE(spring_motion_init(&m, &d) == SPRING_OK);
#undef BAD
	ENSURE(cases >= 20);
	printf("       %d bad-input cases\n", cases);
	return 0;
}

static float fuzz_float(void)
{
	static const float specials[] = {0.0f,  -0.0f, 1.0f,   -1.0f,   1e-45f,  1e-30f, 1e-6f,    1e6f,
	                                 1e20f, 3e38f, -3e38f, FLT_MAX, FLT_MIN, NAN,    INFINITY, -INFINITY};
	float u = rnd(0.0f, 1.0f);
	if (u < 0.25f) {
		return specials[(int)rnd(0.0f, 15.999f)];
	}
	if (u < 0.5f) {
		float mantissa = rnd(-1.0f, 1.0f);
		return mantissa * (float)spring_det_exp(2.302585092994046 * (double)rnd(-8.0f, 8.0f));
	}
	return rnd(-500.0f, 500.0f);
}

static int motion_finite(const spring_motion *m)
{
	for (int c = 0; c < m->channels; c++) {
		if (!isfinite(m->value[c]) || !isfinite(m->velocity[c]) || !isfinite(m->target[c]) || !isfinite(m->anchor_value[c]) ||
		    !isfinite(m->anchor_velocity[c]) || !(m->rest_delta[c] > 0.0f) || !isfinite(m->rest_delta[c]) ||
		    !(m->rest_speed[c] > 0.0f) || !isfinite(m->rest_speed[c])) {
			return 0;
		}
	}
	return isfinite(m->elapsed) && m->elapsed >= 0.0;
}

static int test_fuzz(void)
{
	rng_state = 20240611u;
	long ok = 0, errors = 0;
	for (int trial = 0; trial < 600; trial++) {
		spring_motion_desc d = {0};
		d.channels = 1 + (int)rnd(0.0f, 3.999f);
		if (rnd(0.0f, 1.0f) < 0.7f) {
			spring_params p;
			float hz = rnd(0.05f, 30.0f);
			if (spring_params_from_frequency(hz, rnd(0.0f, 3.0f), &p) == SPRING_OK) {
				d.params = p;
			}
		} else {
			d.params.stiffness = fuzz_float(); // one statement each: argument and initialiser order
			d.params.damping = fuzz_float();   // is unspecified, and the run must not depend on it
			d.params.mass = fuzz_float();
		}
		for (int c = 0; c < 4; c++) {
			d.from[c] = rnd(0.0f, 1.0f) < 0.9f ? rnd(-1000.0f, 1000.0f) : fuzz_float();
			d.to[c] = rnd(0.0f, 1.0f) < 0.9f ? rnd(-1000.0f, 1000.0f) : fuzz_float();
			d.velocity[c] = rnd(0.0f, 1.0f) < 0.9f ? rnd(-3000.0f, 3000.0f) : fuzz_float();
			d.rest_delta[c] = rnd(0.0f, 1.0f) < 0.9f ? 0.0f : fuzz_float();
			d.rest_speed[c] = rnd(0.0f, 1.0f) < 0.9f ? 0.0f : fuzz_float();
		}
		d.clamp_overshoot = rnd(0.0f, 1.0f) < 0.3f;
		spring_motion m;
		memset(&m, 0x5a, sizeof m);
		spring_motion untouched = m;
		spring_result r = spring_motion_init(&m, &d);
		if (r != SPRING_OK) {
			ENSURE(memcmp(&m, &untouched, sizeof m) == 0);
			errors++;
			continue;
		}
		ENSURE(motion_finite(&m));
		for (int op = 0; op < 60; op++) {
			spring_motion before = m;
			int kind = (int)rnd(0.0f, 6.999f);
			float a[4], b[4];
			for (int c = 0; c < 4; c++) {
				a[c] = fuzz_float();
				b[c] = fuzz_float();
			}
			if (rnd(0.0f, 1.0f) < 0.6f) { // mostly sane numbers so the motion keeps moving
				for (int c = 0; c < 4; c++) {
					a[c] = rnd(-1000.0f, 1000.0f);
					b[c] = rnd(-2000.0f, 2000.0f);
				}
			}
			int channels = rnd(0.0f, 1.0f) < 0.9f ? m.channels : (int)rnd(-1.0f, 6.0f);
			float dt = rnd(0.0f, 1.0f) < 0.8f ? rnd(0.0f, 0.05f) : fuzz_float();
			switch (kind) {
			case 0:
			case 1:
			case 2: r = spring_motion_update(&m, dt); break;
			case 3: r = spring_motion_set_target(&m, a, channels); break;
			case 4: r = spring_motion_set_value(&m, a, rnd(0.0f, 1.0f) < 0.5f ? b : NULL, channels); break;
			case 5: {
				spring_params p;
				p.stiffness = fuzz_float();
				p.damping = fuzz_float();
				p.mass = fuzz_float();
				if (rnd(0.0f, 1.0f) < 0.6f) {
					float hz = rnd(0.05f, 30.0f);
					(void)spring_params_from_frequency(hz, rnd(0.0f, 3.0f), &p);
				}
				r = spring_motion_set_params(&m, p);
				break;
			}
			default: {
				float vals[16 * 4], vels[16 * 4];
				int count = 0, truncated = 0;
				float interval = rnd(0.0f, 1.0f) < 0.8f ? rnd(0.001f, 0.1f) : fuzz_float();
				float max_duration = rnd(0.0f, 1.0f) < 0.8f ? rnd(0.0f, 2.0f) : fuzz_float();
				r = spring_motion_sample(&m, interval, max_duration, vals, vels, 16, &count, &truncated);
				if (r == SPRING_OK) {
					ENSURE(count >= 0 && count <= 16);
					for (int i = 0; i < count * m.channels; i++) {
						ENSURE(isfinite(vals[i]) && isfinite(vels[i]));
					}
				}
				ENSURE(memcmp(&m, &before, sizeof m) == 0);
				break;
			}
			}
			if (r != SPRING_OK) {
				ENSURE_MSG(memcmp(&m, &before, sizeof m) == 0, "trial %d op %d kind %d: error %s changed the motion", trial, op,
				           kind, spring_result_string(r));
				errors++;
			} else {
				ok++;
				ENSURE_MSG(motion_finite(&m), "trial %d op %d kind %d: non-finite state", trial, op, kind);
			}
			float tts = spring_motion_time_to_settle(&m);
			ENSURE_MSG(!isnan(tts) && tts >= 0.0f, "trial %d op %d: time_to_settle %g", trial, op, (double)tts);
			if (m.at_rest) {
				for (int c = 0; c < m.channels; c++) {
					ENSURE(m.value[c] == m.target[c] && m.velocity[c] == 0.0f);
				}
			}
		}
	}
	printf("       fuzz: %ld calls succeeded, %ld refused\n", ok, errors);
	ENSURE(ok > 15000 && errors > 2000);
	return 0;
}

// =============================================================================================
// 7. Large and tiny steps

static int test_large_and_tiny_steps(void)
{
	const spring_params ps[] = {params_db(0.5f, 0.3f), params_db(0.5f, 0.0f), params_db(2.0f, -0.9f), params_db(0.1f, 0.95f)};
	const float big[] = {10.0f, 1e6f, FLT_MAX};
	for (int i = 0; i < 4; i++) {
		for (int j = 0; j < 3; j++) {
			for (int clamp = 0; clamp < 2; clamp++) {
				spring_motion m;
				ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 2,
				                                                    .params = ps[i],
				                                                    .from = {0.0f, 5.0f},
				                                                    .to = {300.0f, -1.0f},
				                                                    .velocity = {40.0f, 0.0f},
				                                                    .clamp_overshoot = clamp}) == SPRING_OK);
				ENSURE(spring_motion_update(&m, 0.05f) == SPRING_OK);
				ENSURE(spring_motion_set_target(&m, (float[]){-20.0f, 2.0f}, 2) == SPRING_OK);
				spring_result r = spring_motion_update(&m, big[j]);
				ENSURE(r == SPRING_OK);
				if (big[j] < 100.0f && i == 2) {
					// zeta 10, 2 s period: 10 s is not enough to settle (slow root ~ 0.16/s).
					ENSURE(!m.at_rest && isfinite(m.value[0]));
					continue;
				}
				ENSURE_MSG(m.at_rest && m.value[0] == -20.0f && m.value[1] == 2.0f && m.velocity[0] == 0.0f,
				           "spring %d dt %g clamp %d: %.9g %.9g", i, (double)big[j], clamp, (double)m.value[0],
				           (double)m.value[1]);
			}
		}
	}
	// Undamped: a huge step stays finite and on the orbit.
	spring_motion u;
	ENSURE(spring_motion_init(&u, &(spring_motion_desc){.channels = 1, .params = {100.0f, 0.0f, 1.0f}, .to = {1.0f}}) ==
	       SPRING_OK);
	ENSURE(spring_motion_update(&u, 1e6f) == SPRING_OK);
	ENSURE(isfinite(u.value[0]) && fabsf(u.value[0] - 1.0f) <= 1.0001f && !u.at_rest);
	ENSURE(isinf(spring_motion_time_to_settle(&u)));
	// 1e5 steps of 1e-5 s stay on the closed form; stepping the float state step by step (the trap)
	// drifts by several 1e-5 of the move.
	const float targets[] = {1.0f, 300.0f};
	for (int k = 0; k < 2; k++) {
		spring_params p = params_db(0.5f, 0.3f);
		spring_motion m;
		ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 1,
		                                                    .params = p,
		                                                    .to = {targets[k]},
		                                                    .rest_delta = {1e-9f},
		                                                    .rest_speed = {1e-9f}}) == SPRING_OK);
		spring_state naive = {0.0f, 0.0f};
		double t = 0.0;
		for (int i = 0; i < 100000; i++) {
			ENSURE(spring_motion_update(&m, 1e-5f) == SPRING_OK);
			ENSURE(spring_step_exact(p, &naive, targets[k], 1e-5f) == SPRING_OK);
			t += (double)1e-5f;
		}
		spring_state ref = spring_evaluate(p, (spring_state){0.0f, 0.0f}, targets[k], (float)t);
		float err = fabsf(m.value[0] - ref.x) / targets[k];
		float naive_err = fabsf(naive.x - ref.x) / targets[k];
		printf("       1e5 x 1e-5 s to %g: motion error %.3g, per-step float stepping %.3g (of the move)\n", (double)targets[k],
		       (double)err, (double)naive_err);
		ENSURE(err <= 1e-6f);
		ENSURE(naive_err > 1e-5f); // the check would catch the trap
	}
	return 0;
}

// =============================================================================================
// Layout and determinism

static int test_layout(void)
{
	ENSURE(sizeof(spring_motion) == 144);
	ENSURE(SPRING_MOTION_MAX_CHANNELS == 4);
	return 0;
}

static int test_determinism_golden(void)
{
	spring_motion m;
	ENSURE(spring_motion_init(&m, &(spring_motion_desc){.channels = 4,
	                                                    .params = params_db(0.45f, 0.35f),
	                                                    .from = {0.0f, 0.0f, 1.0f, 0.0f},
	                                                    .to = {320.0f, -80.0f, 1.2f, 1.0f},
	                                                    .velocity = {0.0f, 400.0f, 0.0f, 0.0f}}) == SPRING_OK);
	rng_state = 4242;
	uint64_t hash = SPRING_HASH_INIT;
	for (int f = 0; f < 400; f++) {
		ENSURE(spring_motion_update(&m, rnd(0.004f, 0.03f)) == SPRING_OK);
		if (f % 37 == 5) {
			float t[4];
			t[0] = rnd(-300.0f, 300.0f);
			t[1] = rnd(-300.0f, 300.0f);
			t[2] = rnd(0.5f, 1.5f);
			t[3] = rnd(0.0f, 1.0f);
			ENSURE(spring_motion_set_target(&m, t, 4) == SPRING_OK);
		}
		hash = spring_hash(hash, m.value, sizeof m.value);
		hash = spring_hash(hash, m.velocity, sizeof m.velocity);
	}
	float tts = spring_motion_time_to_settle(&m);
	hash = spring_hash(hash, &tts, sizeof tts);
	float progress[200];
	int count, truncated;
	ENSURE(spring_motion_sample_progress(params_db(0.5f, 0.3f), 1.5f, 0.01f, 2.0f, 0.0f, progress, 200, &count, &truncated) ==
	       SPRING_OK);
	hash = spring_hash(hash, progress, sizeof(float) * (size_t)count);
	if (SPRING_TEST_GOLDEN_MOTION == 0ull) {
		printf("       golden: 0x%016llxull\n", (unsigned long long)hash);
		return 0;
	}
	ENSURE_MSG(hash == SPRING_TEST_GOLDEN_MOTION, "hash 0x%016llx", (unsigned long long)hash);
	return 0;
}

// Snapshots: a motion restored from a blob replays the rest of a retargeting sequence bit for bit;
// a blob of another channel count or a tampered header is refused and changes nothing.
static int motion_script(spring_motion *m, int i, uint64_t *hash)
{
	if (i % 37 == 0) {
		float to[2] = {(float)((i * 73) % 400), (float)((i * 29) % 300)};
		ENSURE(spring_motion_set_target(m, to, 2) == SPRING_OK);
	}
	ENSURE(spring_motion_update(m, i % 250 == 125 ? 0.3f : 1.0f / 60.0f + (float)(i % 5) * 1e-3f) == SPRING_OK);
	float v[2], s[2];
	ENSURE(spring_motion_get_value(m, v, s, 2) == SPRING_OK);
	*hash = spring_hash(*hash, v, sizeof v);
	*hash = spring_hash(*hash, s, sizeof s);
	return 0;
}

static int test_snapshot_replays_bit_for_bit(void)
{
	spring_motion a, b;
	spring_motion_desc d = {.channels = 2, .to = {100.0f, 50.0f}};
	ENSURE(spring_motion_init(&a, &d) == SPRING_OK && spring_motion_init(&b, &d) == SPRING_OK);
	uint64_t ignored = SPRING_HASH_INIT, original = SPRING_HASH_INIT, replayed = SPRING_HASH_INIT;
	for (int i = 0; i < 3000; i++) {
		ENSURE(motion_script(&a, i, &ignored) == 0);
	}
	unsigned char blob[256];
	size_t size = spring_motion_snapshot_size(&a);
	ENSURE(size == SPRING_SNAPSHOT_HEADER_BYTES + sizeof a && size <= sizeof blob);
	ENSURE(spring_motion_snapshot(&a, blob, size) == SPRING_OK);
	for (int i = 3000; i < 10000; i++) {
		ENSURE(motion_script(&a, i, &original) == 0);
	}
	ENSURE(spring_motion_restore(&b, blob, size, NULL) == SPRING_OK);
	for (int i = 3000; i < 10000; i++) {
		ENSURE(motion_script(&b, i, &replayed) == 0);
	}
	ENSURE(replayed == original);
	spring_motion one, before;
	ENSURE(spring_motion_init(&one, &(spring_motion_desc){.channels = 1, .to = {1.0f}}) == SPRING_OK);
	before = one;
	ENSURE(spring_motion_restore(&one, blob, size, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	blob[0] = 'X';
	ENSURE(spring_motion_restore(&b, blob, size, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(&one, &before, sizeof one) == 0);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_snapshot_replays_bit_for_bit);
	RUN_TEST(test_layout);
	RUN_TEST(test_retarget_keeps_position_and_velocity);
	RUN_TEST(test_frame_rate_independent);
	RUN_TEST(test_rest_per_channel_thresholds);
	RUN_TEST(test_time_to_settle_mid_flight);
	RUN_TEST(test_time_to_settle_random);
	RUN_TEST(test_rest_needs_both_conditions);
	RUN_TEST(test_rest_thresholds_inclusive);
	RUN_TEST(test_default_thresholds);
	RUN_TEST(test_overshoot_clamp);
	RUN_TEST(test_sample_matches_closed_form);
	RUN_TEST(test_sample_progress);
	RUN_TEST(test_bad_input_corpus);
	RUN_TEST(test_fuzz);
	RUN_TEST(test_large_and_tiny_steps);
	RUN_TEST(test_determinism_golden);
	return TEST_SUMMARY();
}
