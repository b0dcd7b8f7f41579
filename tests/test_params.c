// SPDX-License-Identifier: MIT
// Parameterisations and queries: documented reference values and round trips.
#include "spring/spring.h"
#include "spring_internal.h"
#include "test_macros.h"

#include <string.h>

static int rel_near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

// Apple: Spring(duration: 0.5, bounce: 0.3) -> stiffness 157.9, damping 17.6, settling ~1.04 s.
static int test_swiftui_documented_values(void)
{
	spring_params p;
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.3f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 157.9, 0.05);
	ENSURE_NEAR(p.damping, 17.6, 0.05);
	ENSURE(p.mass == 1.0f);
	ENSURE_NEAR(p.stiffness, 157.913670, 1e-3);
	ENSURE_NEAR(p.damping, 17.592919, 1e-4);
	ENSURE_NEAR(spring_settling_duration(p, 1.0f, 0.0f, 0.001f), 1.04, 0.005);
	ENSURE_NEAR(spring_settling_duration(p, 1.0f, 0.0f, 0.001f), 1.04471, 1e-4);
	// The exact last time |x - 1| > 0.001 is much earlier than SwiftUI's estimate.
	ENSURE_NEAR(spring_settling_time(p, 1.0f, 0.0f, 0.001f), 0.81874, 1e-4);

	// Spring(mass: 1, stiffness: 100, damping: 10) -> duration 0.63, bounce 0.5.
	ENSURE(spring_params_from_physical(1.0f, 100.0f, 10.0f, &p) == SPRING_OK);
	ENSURE_NEAR(spring_duration(p), 0.63, 0.005);
	ENSURE_NEAR(spring_duration(p), 0.628319, 1e-5);
	ENSURE_NEAR(spring_bounce(p), 0.5, 1e-6);
	ENSURE_NEAR(spring_settling_duration(p, 1.0f, 0.0f, 0.001f), 1.7399, 1e-3);
	return 0;
}

static int test_response_equals_duration(void)
{
	spring_params a, b;
	ENSURE(spring_params_from_response(0.5f, 0.7f, &a) == SPRING_OK);
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.3f, &b) == SPRING_OK);
	ENSURE_NEAR(a.stiffness, b.stiffness, 1e-3);
	ENSURE_NEAR(a.damping, b.damping, 1e-4);
	// react-spring {frequency 0.5, damping 0.7} -> tension 157.914, friction 17.5929
	ENSURE_NEAR(a.stiffness, 157.914, 1e-3);
	ENSURE_NEAR(a.damping, 17.5929, 1e-4);
	return 0;
}

static int test_negative_bounce_is_overdamped(void)
{
	spring_params p;
	ENSURE(spring_params_from_duration_bounce(0.5f, -0.5f, &p) == SPRING_OK);
	ENSURE_NEAR(spring_damping_ratio(p), 2.0, 1e-5);
	ENSURE_NEAR(p.damping, 50.2655, 1e-3);
	ENSURE_NEAR(spring_settling_time(p, 1.0f, 0.0f, 0.001f), 2.07364, 1e-4);
	ENSURE_NEAR(spring_bounce(p), -0.5, 1e-6);
	ENSURE(spring_params_from_duration_bounce(0.5f, -0.3f, &p) == SPRING_OK);
	ENSURE_NEAR(p.damping, 35.9039, 1e-3);
	ENSURE_NEAR(spring_settling_time(p, 1.0f, 0.0f, 0.001f), 1.38164, 1e-4);
	// .smooth and .snappy true settle times
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.0f, &p) == SPRING_OK);
	ENSURE_NEAR(p.damping, 25.1327, 1e-3);
	ENSURE_NEAR(spring_settling_time(p, 1.0f, 0.0f, 0.001f), 0.73477, 1e-4);
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.15f, &p) == SPRING_OK);
	ENSURE_NEAR(spring_settling_time(p, 1.0f, 0.0f, 0.001f), 0.69669, 1e-4);
	ENSURE_NEAR(spring_settling_duration(p, 1.0f, 0.0f, 0.001f), 0.876827, 1e-4);
	return 0;
}

static int test_overshoot(void)
{
	spring_params p;
	ENSURE(spring_params_from_frequency(1.0f, 0.7f, &p) == SPRING_OK);
	ENSURE_NEAR(spring_overshoot(p), 0.046, 0.0005);
	ENSURE(spring_params_from_frequency(1.0f, 0.3f, &p) == SPRING_OK);
	ENSURE_NEAR(spring_overshoot(p), 0.37, 0.005);
	ENSURE(spring_params_from_frequency(1.0f, 1.0f, &p) == SPRING_OK);
	ENSURE(spring_overshoot(p) == 0.0f);
	ENSURE(spring_params_from_frequency(1.0f, 3.0f, &p) == SPRING_OK);
	ENSURE(spring_overshoot(p) == 0.0f);
	// The overshoot the closed form actually produces matches the formula.
	ENSURE(spring_params_from_frequency(2.0f, 0.3f, &p) == SPRING_OK);
	double peak = 0.0;
	spring_state s0 = {0.0f, 0.0f};
	for (int i = 1; i <= 4000; i++) {
		spring_state s = spring_evaluate(p, s0, 1.0f, (float)i * 0.0001f);
		peak = fmax(peak, s.x);
	}
	ENSURE_NEAR(peak - 1.0, spring_overshoot(p), 1e-4);
	return 0;
}

// SwiftUI settling init: envelope zeta/sqrt(1-zeta^2) exp(-zeta omega_n T) = epsilon.
static int test_settling_init(void)
{
	spring_params p;
	ENSURE(spring_params_from_settling(1.0f, 0.7f, 0.001f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 96.8186, 1e-3);
	ENSURE_NEAR(p.damping, 13.7755, 1e-4);
	ENSURE(spring_params_from_settling(1.0f, 1.0f, 0.001f, &p) == SPRING_OK);
	ENSURE_NEAR(spring_natural_frequency(p), 9.23341, 1e-4);
	ENSURE_NEAR(p.stiffness, 85.2559, 1e-3);
	ENSURE_NEAR(p.damping, 18.4668, 1e-4);
	// Equals Motion {duration: 800, bounce: 0.25}.
	ENSURE(spring_params_from_settling(0.8f, 0.75f, 0.001f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 137.414, 1e-3);
	ENSURE_NEAR(p.damping, 17.5835, 1e-4);
	// For zeta >= 1 the exact settling time of a unit move equals the requested duration.
	const float zetas[] = {1.0f, 1.3f, 2.0f, 5.0f};
	for (int i = 0; i < 4; i++) {
		ENSURE(spring_params_from_settling(0.6f, zetas[i], 0.001f, &p) == SPRING_OK);
		ENSURE_NEAR(spring_damping_ratio(p), zetas[i], 1e-5);
		ENSURE_NEAR(spring_settling_time(p, 1.0f, 0.0f, 0.001f), 0.6, 1e-4);
	}
	// For zeta < 1 the envelope equation holds.
	for (float z = 0.1f; z < 0.95f; z += 0.1f) {
		ENSURE(spring_params_from_settling(1.5f, z, 0.01f, &p) == SPRING_OK);
		double wn = spring_natural_frequency(p);
		double env = z / sqrt(1.0 - (double)z * z) * exp(-(double)z * wn * 1.5);
		ENSURE(rel_near(env, 0.01, 1e-4));
	}
	ENSURE(spring_params_from_settling(1.0f, 0.0005f, 0.001f, &p) == SPRING_ERROR_NO_SOLUTION);
	return 0;
}

// Motion visualDuration: v <-> SwiftUI duration 1.2 v for bounce >= 0; rescaled when overdamped.
static int test_visual_duration(void)
{
	spring_params p, q;
	ENSURE(spring_params_from_visual_duration(0.5f, 0.3f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 109.662, 1e-3);
	ENSURE_NEAR(p.damping, 14.6608, 1e-4);
	ENSURE(spring_params_from_duration_bounce(0.6f, 0.3f, &q) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, q.stiffness, 1e-3);
	ENSURE(spring_params_from_visual_duration(0.5f, 0.0f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 109.662, 1e-3);
	ENSURE_NEAR(p.damping, 20.944, 1e-3);
	ENSURE(spring_params_from_visual_duration(0.5f, -0.5f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 674.765, 0.01);
	ENSURE_NEAR(p.damping, 103.905, 1e-3);
	// Same gap left at the visual duration as the critically damped spring.
	ENSURE(spring_params_from_visual_duration(0.5f, 0.0f, &q) == SPRING_OK);
	spring_state s0 = {0.0f, 0.0f};
	ENSURE_NEAR(spring_evaluate(p, s0, 1.0f, 0.5f).x, spring_evaluate(q, s0, 1.0f, 0.5f).x, 1e-5);
	return 0;
}

static int test_half_life(void)
{
	spring_params p;
	const float hl[] = {0.01f, 0.1f, 0.25f, 1.0f, 7.0f};
	for (int i = 0; i < 5; i++) {
		ENSURE(spring_params_from_half_life(hl[i], &p) == SPRING_OK);
		ENSURE_NEAR(spring_damping_ratio(p), 1.0, 1e-6);
		spring_state s = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, hl[i]);
		ENSURE_NEAR(s.x, 0.5, 1e-6);
		ENSURE(rel_near(spring_half_life(p), hl[i], 1e-5));
	}
	// (1 + u) e^-u = 1/2
	ENSURE(spring_params_from_half_life(1.0f, &p) == SPRING_OK);
	ENSURE_NEAR(spring_natural_frequency(p), 1.67834699, 1e-6);
	return 0;
}

static int test_tension_friction_and_origami(void)
{
	spring_params p;
	ENSURE(spring_params_from_tension_friction(170.0f, 26.0f, &p) == SPRING_OK);
	ENSURE(p.stiffness == 170.0f && p.damping == 26.0f && p.mass == 1.0f);
	ENSURE(spring_params_from_origami(40.0f, 7.0f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 230.2, 1e-4);
	ENSURE_NEAR(p.damping, 22.0, 1e-5);
	ENSURE_NEAR(spring_damping_ratio(p), 0.725, 0.001);
	ENSURE_NEAR(spring_natural_frequency(p), 15.17, 0.005);
	float t, f;
	spring_params_to_origami(p, &t, &f);
	ENSURE_NEAR(t, 40.0, 1e-4);
	ENSURE_NEAR(f, 7.0, 1e-5);
	ENSURE(spring_params_from_origami(0.0f, 7.0f, &p) == SPRING_OK);
	ENSURE(spring_params_from_origami(-30.0f, 7.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	return 0;
}

// The per-frame port has the same one-frame transition eigenvalues (trace and determinant) as
// the legacy update at its native fps.
static int test_per_frame_port(void)
{
	const float ks[] = {0.1f, 0.02f, 0.3f, 0.5f};
	const float ds[] = {0.7f, 0.9f, 0.5f, 0.98f};
	const float fpss[] = {30.0f, 60.0f, 24.0f, 144.0f};
	for (int i = 0; i < 4; i++) {
		for (int j = 0; j < 4; j++) {
			spring_params p;
			ENSURE(spring_params_from_per_frame_exact(ks[i], ds[i], fpss[j], &p) == SPRING_OK);
			spring_transition tr;
			spring_transition_compute((double)p.stiffness, (double)p.damping, 1.0 / (double)fpss[j], &tr);
			double trace = tr.pp + tr.vv, det = tr.pp * tr.vv - tr.pv * tr.vp;
			ENSURE_NEAR(trace, 1.0 - (double)ds[i] * ks[i] + ds[i], 2e-5);
			ENSURE_NEAR(det, ds[i], 2e-5);
		}
	}
	// A sequence from a displacement matches the per-frame update's (same recurrence, same
	// first two values when started from the same two states).
	spring_params p;
	ENSURE(spring_params_from_per_frame_exact(0.1f, 0.7f, 30.0f, &p) == SPRING_OK);
	spring_transition tr;
	spring_transition_compute((double)p.stiffness, (double)p.damping, 1.0 / 30.0, &tr);
	double e_legacy[40], u = 0.0, e = 1.0;
	for (int n = 0; n < 40; n++) {
		e_legacy[n] = e;
		u = (u - 0.1 * e) * 0.7;
		e += u;
	}
	// Continuous sequence through the two-term recurrence seeded by e0, e1 of the legacy one.
	double a = e_legacy[0], b = e_legacy[1], trace = tr.pp + tr.vv, det = tr.pp * tr.vv - tr.pv * tr.vp;
	for (int n = 2; n < 40; n++) {
		double c = trace * b - det * a;
		ENSURE_NEAR(c, e_legacy[n], 1e-5);
		a = b;
		b = c;
	}
	ENSURE(spring_params_from_per_frame_exact(1.9f, 1.0f, 60.0f, &p) == SPRING_OK); // undamped ring
	ENSURE(p.damping == 0.0f);
	ENSURE(spring_params_from_per_frame_exact(3.5f, 0.9f, 60.0f, &p) ==
	       SPRING_OK); // complex pair past 90 degrees per frame: still a twin
	ENSURE(spring_params_from_per_frame_exact(30.0f, 0.1f, 60.0f, &p) == SPRING_ERROR_NO_SOLUTION);
	return 0;
}

// The literal reading: semi-implicit Euler at one frame per step reproduces the legacy loop.
static int test_per_frame_semi_implicit_port(void)
{
	const float ks[] = {0.1f, 0.02f, 0.3f};
	const float ds[] = {0.7f, 0.9f, 1.0f};
	const float fpss[] = {30.0f, 60.0f, 24.0f};
	for (int i = 0; i < 3; i++) {
		spring_params p;
		ENSURE(spring_params_from_per_frame(ks[i], ds[i], fpss[i], &p) == SPRING_OK);
		float x = 0.0f, u = 0.0f;
		spring_state s = {0.0f, 0.0f};
		for (int n = 0; n < 200; n++) {
			float target = n < 50 ? 10.0f : -4.0f;
			u = (u + (target - x) * ks[i]) * ds[i];
			x += u;
			ENSURE(spring_step_semi_implicit(p, &s, target, 1.0f / fpss[i]) == SPRING_OK);
			ENSURE_NEAR(s.x, x, 1e-4);
			ENSURE_NEAR(s.v / fpss[i], u, 1e-4);
		}
	}
	spring_params p;
	ENSURE(spring_params_from_per_frame(0.1f, 0.7f, 30.0f, &p) == SPRING_OK);
	ENSURE_NEAR(p.stiffness, 63.0, 1e-3);
	ENSURE_NEAR(p.damping, 9.0, 1e-4);
	ENSURE(spring_params_from_per_frame(5.0f, 0.9f, 30.0f, &p) == SPRING_ERROR_UNSTABLE);
	spring_params before = p;
	ENSURE(spring_params_from_per_frame(0.1f, 0.0f, 30.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_per_frame(NAN, 0.7f, 30.0f, &p) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_params_from_per_frame(0.1f, 0.7f, INFINITY, &p) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_params_from_per_frame(0.1f, 1.5f, 30.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_per_frame(-0.1f, 0.7f, 30.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_per_frame(0.1f, 0.7f, 30.0f, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(&before, &p, sizeof p) == 0);
	return 0;
}

// Every parameterisation round-trips through the queries.
static int test_round_trips(void)
{
	for (float d = 0.05f; d < 3.0f; d *= 1.7f) {
		for (float b = -0.9f; b <= 1.0f; b += 0.1f) {
			spring_params p;
			ENSURE(spring_params_from_duration_bounce(d, b, &p) == SPRING_OK);
			ENSURE(rel_near(spring_duration(p), d, 2e-6));
			ENSURE_NEAR(spring_bounce(p), b, 2e-5);
			ENSURE(spring_params_from_visual_duration(d, b, &p) == SPRING_OK);
			ENSURE(rel_near(spring_visual_duration(p), d, 1e-5));
			ENSURE_NEAR(spring_bounce(p), b, 2e-5);
		}
	}
	for (float f = 0.5f; f <= 6.0f; f += 0.5f) {
		for (float z = 0.0f; z <= 2.0f; z += 0.1f) {
			spring_params p;
			ENSURE(spring_params_from_frequency(f, z, &p) == SPRING_OK);
			ENSURE(rel_near(spring_frequency_hz(p), f, 2e-6));
			ENSURE_NEAR(spring_damping_ratio(p), z, 2e-6);
			ENSURE(rel_near(spring_natural_frequency(p), 2.0 * SPRING_PI * f, 2e-6));
			spring_params q;
			ENSURE(spring_params_from_response(spring_duration(p), spring_damping_ratio(p), &q) == SPRING_OK);
			ENSURE(rel_near(q.stiffness, p.stiffness, 1e-5));
			ENSURE_NEAR(q.damping, p.damping, 1e-5 * (1.0 + p.damping));
		}
	}
	spring_params p;
	ENSURE(spring_params_from_physical(2.0f, 50.0f, 3.0f, &p) == SPRING_OK);
	ENSURE(p.mass == 2.0f && p.stiffness == 50.0f && p.damping == 3.0f);
	ENSURE_NEAR(spring_damping_ratio(p), 3.0 / (2.0 * sqrt(100.0)), 1e-7);
	return 0;
}

// The default spring is the documented one (2 Hz, damping ratio 0.3, k 157.91, c 7.54, m 1), bit
// for bit what spring_params_from_frequency gives for the two macros.
// Compose spring(dampingRatio, stiffness) / Flutter withDampingRatio: c = 2 zeta sqrt(k m).
static int test_damping_ratio_form(void)
{
	spring_params p = {1.0f, 2.0f, 3.0f}, untouched = p;
	ENSURE(spring_params_from_damping_ratio(1.0f, 700.0f, 0.9f, &p) == SPRING_OK);
	ENSURE(p.stiffness == 700.0f && p.mass == 1.0f);
	ENSURE_NEAR(p.damping, 47.6235, 1e-3); // Flutter's documented 0.9 * 2 * sqrt(700), about 47.62
	ENSURE_NEAR(spring_damping_ratio(p), 0.9, 1e-6);
	ENSURE(spring_params_from_damping_ratio(2.0f, 100.0f, 0.5f, &p) == SPRING_OK);
	ENSURE_NEAR(p.damping, 2.0 * 0.5 * sqrt(200.0), 1e-4);
	ENSURE(p.mass == 2.0f);
	ENSURE(spring_params_from_damping_ratio(1.0f, 100.0f, 0.0f, &p) == SPRING_OK); // undamped is valid
	ENSURE(p.damping == 0.0f);
	p = untouched;
	ENSURE(spring_params_from_damping_ratio(1.0f, 100.0f, -1e-7f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_damping_ratio(0.0f, 100.0f, 1.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_damping_ratio(1.0f, 0.0f, 1.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_damping_ratio(1.0f, NAN, 1.0f, &p) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_params_from_damping_ratio(1.0f, 100.0f, 1.0f, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(&p, &untouched, sizeof p) == 0);
	return 0;
}

// Motion {type: "spring", duration, bounce}: figures computed with motion-dom 14.14.0's findSpring.
static int test_motion_duration(void)
{
	spring_params p = {1.0f, 2.0f, 3.0f}, untouched = p;
	ENSURE(spring_params_from_motion_duration(0.8f, 0.25f, &p) == SPRING_OK);
	ENSURE(rel_near(p.stiffness, 137.414, 1e-5) && rel_near(p.damping, 17.5835, 1e-5));
	ENSURE(spring_params_from_motion_duration(0.8f, 0.3f, &p) == SPRING_OK);
	ENSURE(rel_near(p.stiffness, 151.279, 1e-5) && rel_near(p.damping, 17.2194, 1e-5));
	ENSURE(spring_params_from_motion_duration(0.5f, 0.0f, &p) == SPRING_OK);
	ENSURE(rel_near(p.stiffness, 341.024, 1e-5) && rel_near(p.damping, 36.9337, 1e-5));
	// Not SwiftUI's duration: Spring(duration: 0.5) has k = 157.9.
	spring_params swift;
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.0f, &swift) == SPRING_OK);
	ENSURE(p.stiffness > 2.0f * swift.stiffness);
	// It is the settling form with epsilon 0.001.
	spring_params s;
	ENSURE(spring_params_from_motion_duration(1.2f, -0.5f, &p) == SPRING_OK);
	ENSURE(spring_params_from_settling(1.2f, 2.0f, 0.001f, &s) == SPRING_OK);
	ENSURE(memcmp(&p, &s, sizeof p) == 0);
	// The damping ratio stays in [0.05, 20], as in Motion: bounce 0.95 and 1 are the same spring.
	spring_params q;
	ENSURE(spring_params_from_motion_duration(1.0f, 0.96f, &p) == SPRING_OK);
	ENSURE(spring_params_from_motion_duration(1.0f, 1.0f, &q) == SPRING_OK);
	ENSURE(memcmp(&p, &q, sizeof p) == 0);
	ENSURE_NEAR(spring_damping_ratio(p), 0.05, 1e-6);
	ENSURE(spring_params_from_motion_duration(1.0f, 0.94f, &q) == SPRING_OK);
	ENSURE(spring_damping_ratio(q) > 0.0599f);
	ENSURE(spring_params_from_motion_duration(1.0f, -0.99f, &q) == SPRING_OK);
	ENSURE_NEAR(spring_damping_ratio(q), 20.0, 1e-4);
	// Both ends of the duration range, and just outside them.
	p = untouched;
	ENSURE(spring_params_from_motion_duration(0.01f, 0.0f, &q) == SPRING_OK);
	ENSURE(spring_params_from_motion_duration(10.0f, 0.0f, &q) == SPRING_OK);
	ENSURE(spring_params_from_motion_duration(nextafterf(0.01f, 0.0f), 0.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_motion_duration(nextafterf(10.0f, 11.0f), 0.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_motion_duration(1.0f, -1.0f, &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_motion_duration(1.0f, nextafterf(1.0f, 2.0f), &p) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_from_motion_duration(NAN, 0.0f, &p) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_params_from_motion_duration(1.0f, 0.0f, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(&p, &untouched, sizeof p) == 0);
	return 0;
}

static int test_presets(void)
{
	spring_params p, want;
	ENSURE(spring_params_from_preset("smooth", &p) == SPRING_OK);
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.0f, &want) == SPRING_OK && memcmp(&p, &want, sizeof p) == 0);
	ENSURE(spring_params_from_preset("snappy", &p) == SPRING_OK);
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.15f, &want) == SPRING_OK && memcmp(&p, &want, sizeof p) == 0);
	ENSURE(spring_params_from_preset("bouncy", &p) == SPRING_OK);
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.3f, &want) == SPRING_OK && memcmp(&p, &want, sizeof p) == 0);
	// Material 3 Expressive tokens (stiffness, damping ratio).
	static const struct {
		const char *name;
		float k, zeta;
	} m3[] = {
		{"standard-fast-spatial", 1400.0f, 0.9f},      {"standard-default-spatial", 700.0f, 0.9f},
		{"standard-slow-spatial", 300.0f, 0.9f},       {"standard-fast-effects", 3800.0f, 1.0f},
		{"standard-default-effects", 1600.0f, 1.0f},   {"standard-slow-effects", 800.0f, 1.0f},
		{"expressive-fast-spatial", 800.0f, 0.6f},     {"expressive-default-spatial", 380.0f, 0.8f},
		{"expressive-slow-spatial", 200.0f, 0.8f},     {"expressive-fast-effects", 3800.0f, 1.0f},
		{"expressive-default-effects", 1600.0f, 1.0f}, {"expressive-slow-effects", 800.0f, 1.0f},
	};
	for (size_t i = 0; i < sizeof m3 / sizeof m3[0]; i++) {
		ENSURE_MSG(spring_params_from_preset(m3[i].name, &p) == SPRING_OK, "%s", m3[i].name);
		ENSURE(p.stiffness == m3[i].k && p.mass == 1.0f);
		ENSURE_NEAR(spring_damping_ratio(p), m3[i].zeta, 1e-6);
	}
	// Every listed name converts; the list ends with NULL; 3 + 12 presets.
	int n = 0;
	while (spring_preset_name(n)) {
		ENSURE_MSG(spring_params_from_preset(spring_preset_name(n), &p) == SPRING_OK, "%s", spring_preset_name(n));
		n++;
	}
	ENSURE(n == 15);
	ENSURE(spring_preset_name(-1) == NULL);
	spring_params untouched = {1.0f, 2.0f, 3.0f};
	p = untouched;
	ENSURE(spring_params_from_preset("Snappy", &p) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_params_from_preset("snappy ", &p) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_params_from_preset("", &p) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_params_from_preset(NULL, &p) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_params_from_preset("snappy", NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(&p, &untouched, sizeof p) == 0);
	return 0;
}

// Largest x(t) of a unit move from rest, sampled finely over [0, until].
static double peak_of(spring_params p, double until)
{
	double peak = 0.0;
	for (int i = 0; i <= 4000; i++) {
		spring_state s = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)(until * i / 4000.0));
		peak = fmax(peak, (double)s.x);
	}
	return peak;
}

// The reduced-motion form: critically damped (never past the target), and it settles in at most
// half the original's time (never later, always sooner), for springs of every kind.
static int test_reduced_motion(void)
{
	static const float forms[][2] = {
		{0.5f, 0.0f}, {0.5f, 0.3f}, {0.5f, 0.15f}, {0.3f, 0.9f}, {1.0f, -0.5f}, {2.0f, -0.95f}, {0.05f, 0.6f}, {0.5f, 1.0f},
	};
	const double eps = 0.001;
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		spring_params p, r;
		ENSURE(spring_params_from_duration_bounce(forms[i][0], forms[i][1], &p) == SPRING_OK);
		ENSURE(spring_params_reduced_motion(p, &r) == SPRING_OK);
		ENSURE(r.mass == 1.0f);
		ENSURE_MSG(spring_damping_ratio(r) >= 1.0f, "%g/%g: ratio %.9g", (double)forms[i][0], (double)forms[i][1],
		           (double)spring_damping_ratio(r));
		ENSURE(spring_overshoot(r) == 0.0f);
		double t_orig = spring_settling_time(p, 1.0f, 0.0f, (float)eps);
		double t_red = spring_settling_time(r, 1.0f, 0.0f, (float)eps);
		ENSURE(t_red > 0.0);
		ENSURE_MSG(t_red <= 0.5 * t_orig * (1.0 + 1e-5), "%g/%g: %.9g vs %.9g", (double)forms[i][0], (double)forms[i][1], t_red,
		           t_orig);
		ENSURE(peak_of(r, 4.0 * t_red) <= 1.0);
		// Exactly half of the sooner of the original and the critical spring of its frequency.
		double critical = 9.23341 / spring_natural_frequency(p);
		ENSURE(rel_near(t_red, 0.5 * fmin(t_orig, critical), 1e-4));
		// Never slower-looking: at least twice the natural frequency.
		ENSURE(spring_natural_frequency(r) >= 2.0f * spring_natural_frequency(p) * (1.0f - 1e-6f));
	}
	// A critically damped spring of the same frequency settles by omega t = 9.2334: halved exactly.
	spring_params p, r;
	ENSURE(spring_params_from_duration_bounce(0.5f, 0.0f, &p) == SPRING_OK);
	ENSURE(spring_params_reduced_motion(p, &r) == SPRING_OK);
	ENSURE(rel_near(spring_settling_time(r, 1.0f, 0.0f, 0.001f), 0.5 * 0.73477, 1e-4));
	// Slightly underdamped springs settle sooner than the critical one: their settling time decides.
	ENSURE(spring_params_from_frequency(1.0f, 0.85f, &p) == SPRING_OK);
	ENSURE(spring_settling_time(p, 1.0f, 0.0f, 0.001f) * spring_natural_frequency(p) < 9.2f);
	ENSURE(spring_params_reduced_motion(p, &r) == SPRING_OK);
	ENSURE(rel_near(spring_settling_time(r, 1.0f, 0.0f, 0.001f), 0.5 * spring_settling_time(p, 1.0f, 0.0f, 0.001f), 1e-4));
	// Undamped (never settles): twice the frequency, critically damped.
	ENSURE(spring_params_from_frequency(1.0f, 0.0f, &p) == SPRING_OK);
	ENSURE(spring_params_reduced_motion(p, &r) == SPRING_OK);
	ENSURE(rel_near(spring_natural_frequency(r), 2.0 * spring_natural_frequency(p), 1e-6));
	ENSURE(spring_damping_ratio(r) >= 1.0f && spring_settling_time(r, 1.0f, 0.0f, 0.001f) < INFINITY);
	// Any mass: only k/m and c/m matter.
	spring_params heavy, light;
	ENSURE(spring_params_from_physical(4.0f, 400.0f, 20.0f, &p) == SPRING_OK);
	ENSURE(spring_params_reduced_motion(p, &heavy) == SPRING_OK);
	ENSURE(spring_params_from_physical(1.0f, 100.0f, 5.0f, &p) == SPRING_OK);
	ENSURE(spring_params_reduced_motion(p, &light) == SPRING_OK);
	ENSURE(memcmp(&heavy, &light, sizeof heavy) == 0);
	// Refusals change nothing.
	spring_params untouched = {1.0f, 2.0f, 3.0f};
	r = untouched;
	ENSURE(spring_params_reduced_motion((spring_params){0.0f, 1.0f, 1.0f}, &r) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_params_reduced_motion((spring_params){NAN, 1.0f, 1.0f}, &r) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_params_reduced_motion((spring_params){FLT_MAX, 0.0f, 1.0f}, &r) == SPRING_ERROR_OUT_OF_RANGE);
	// Both sides of the top of the range: an undamped spring's reduced form has 4 k (twice omega_n).
	ENSURE(spring_params_reduced_motion((spring_params){FLT_MAX / 3.9f, 0.0f, 1.0f}, &r) == SPRING_ERROR_OUT_OF_RANGE);
	spring_params big;
	ENSURE(spring_params_reduced_motion((spring_params){FLT_MAX / 4.1f, 0.0f, 1.0f}, &big) == SPRING_OK);
	ENSURE(isfinite(big.stiffness) && isfinite(big.damping) && spring_damping_ratio(big) >= 1.0f);
	ENSURE(spring_params_reduced_motion(p, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(&r, &untouched, sizeof r) == 0);
	return 0;
}

static int test_default_spring(void)
{
	spring_params d = spring_params_default(), f;
	ENSURE(SPRING_DEFAULT_HERTZ == 2.0f && SPRING_DEFAULT_DAMPING_RATIO == 0.3f);
	ENSURE(spring_params_from_frequency(SPRING_DEFAULT_HERTZ, SPRING_DEFAULT_DAMPING_RATIO, &f) == SPRING_OK);
	ENSURE(memcmp(&d, &f, sizeof d) == 0);
	ENSURE_NEAR(spring_frequency_hz(d), 2.0, 1e-6);
	ENSURE_NEAR(spring_damping_ratio(d), 0.3, 1e-6);
	ENSURE_NEAR(d.stiffness, 157.91, 0.01);
	ENSURE_NEAR(d.damping, 7.54, 0.01);
	ENSURE(d.mass == 1.0f);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_swiftui_documented_values);
	RUN_TEST(test_response_equals_duration);
	RUN_TEST(test_negative_bounce_is_overdamped);
	RUN_TEST(test_overshoot);
	RUN_TEST(test_settling_init);
	RUN_TEST(test_visual_duration);
	RUN_TEST(test_half_life);
	RUN_TEST(test_tension_friction_and_origami);
	RUN_TEST(test_per_frame_port);
	RUN_TEST(test_per_frame_semi_implicit_port);
	RUN_TEST(test_round_trips);
	RUN_TEST(test_default_spring);
	RUN_TEST(test_damping_ratio_form);
	RUN_TEST(test_motion_duration);
	RUN_TEST(test_presets);
	RUN_TEST(test_reduced_motion);
	return TEST_SUMMARY();
}
