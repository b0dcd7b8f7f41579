// SPDX-License-Identifier: MIT
// Fuzz target: closed-form evaluation and stepping with arbitrary float bits, every typed
// variant (scalar, vec2, vec3, angle), the precomputed stepper, rest detection, follow, angle
// helpers and the fixed-step clock. Promises checked:
//  - spring_step_exact* and spring_step_semi_implicit* return a defined code; on error the state
//    is untouched; on OK it is finite (an angle wrapped onto (-pi, pi]); the semi-implicit step
//    never steps outside its stability region;
//  - spring_evaluate* (no error channel) return either a finite state or `start` unchanged;
//  - spring_stepper_init: on error untouched, on OK finite; spring_stepper_step* (no error
//    channel) leave a finite state finite or do not change it;
//  - spring_rest*: at rest the state sits on the target with velocity 0, otherwise untouched;
//  - spring_follow*: a finite result or `x` unchanged;
//  - angle helpers: a finite angle in gives an angle in (-pi, pi];
//  - spring_clock: refused init and advance change nothing; an accepted advance returns
//    0..max_steps with the accumulator in [0, step) and alpha in [0, 1).
#include "fuzz.h"

#define PI_F ((float)SPRING_PI) // the float just above pi: every wrapped angle is within it

static bool wrapped(float a)
{
	return spring_is_finite(a) && a >= -PI_F && a <= PI_F;
}

static void check_step(spring_result r, const void *before, const void *now, size_t bytes, const char *what)
{
	FZ_CHECK_RESULT(r, what);
	if (r != SPRING_OK) {
		FZ_CHECK_UNCHANGED(before, now, bytes, what, r);
	} else {
		FZ_CHECK(fz_all_finite(now, bytes / sizeof(float)), "%s returned OK with a non-finite state", what);
	}
}

// A state after a call without an error channel: finite, or exactly what it was.
static void check_finite_or_same(const void *before, const void *now, size_t bytes, const char *what)
{
	FZ_CHECK(fz_all_finite(now, bytes / sizeof(float)) || memcmp(before, now, bytes) == 0,
	         "%s made the state non-finite (and did not leave it untouched)", what);
}

static void stepping(fz_reader *r)
{
	spring_params p = fz_params(r);
	float dt = fz_dt(r);
	int variant = fz_int(r, 0, 3);
	bool semi = fz_bool(r);
	const char *name = semi ? "spring_step_semi_implicit" : "spring_step_exact";
	if (variant == 0 || variant == 3) {
		spring_state s = {fz_float(r), fz_float(r)}, before = s;
		float target = fz_float(r);
		spring_result res;
		if (variant == 0) {
			res = semi ? spring_step_semi_implicit(p, &s, target, dt) : spring_step_exact(p, &s, target, dt);
		} else {
			res = semi ? spring_step_semi_implicit_angle(p, &s, target, dt) : spring_step_exact_angle(p, &s, target, dt);
			FZ_CHECK(res != SPRING_OK || wrapped(s.x), "%s_angle returned OK with angle %a", name, s.x);
		}
		check_step(res, &before, &s, sizeof s, name);
	} else if (variant == 1) {
		spring_state_vec2 s = {fz_vec2(r), fz_vec2(r)}, before = s;
		spring_vec2 target = fz_vec2(r);
		spring_result res = semi ? spring_step_semi_implicit_vec2(p, &s, target, dt) : spring_step_exact_vec2(p, &s, target, dt);
		check_step(res, &before, &s, sizeof s, name);
	} else {
		spring_state_vec3 s = {fz_vec3(r), fz_vec3(r)}, before = s;
		spring_vec3 target = fz_vec3(r);
		spring_result res = semi ? spring_step_semi_implicit_vec3(p, &s, target, dt) : spring_step_exact_vec3(p, &s, target, dt);
		check_step(res, &before, &s, sizeof s, name);
	}
	if (semi && !spring_semi_implicit_is_stable(p, dt)) {
		spring_state s = {1.0f, 0.0f};
		FZ_CHECK(spring_step_semi_implicit(p, &s, 0.0f, dt) != SPRING_OK,
		         "spring_step_semi_implicit stepped outside its stability region (k %a c %a m %a dt %a)", p.stiffness, p.damping,
		         p.mass, dt);
	}
}

static void evaluating(fz_reader *r)
{
	spring_params p = fz_params(r);
	float t = fz_dt(r);
	if (fz_bool(r)) {
		t = fz_float(r);
	}
	switch (fz_int(r, 0, 3)) {
	case 0: {
		spring_state s = {fz_float(r), fz_float(r)};
		spring_state out = spring_evaluate(p, s, fz_float(r), t);
		check_finite_or_same(&s, &out, sizeof s, "spring_evaluate");
		break;
	}
	case 1: {
		spring_state s = {fz_float(r), fz_float(r)};
		spring_state out = spring_evaluate_angle(p, s, fz_float(r), t);
		check_finite_or_same(&s, &out, sizeof s, "spring_evaluate_angle");
		FZ_CHECK(memcmp(&s, &out, sizeof s) == 0 || wrapped(out.x), "spring_evaluate_angle gave angle %a", out.x);
		break;
	}
	case 2: {
		spring_state_vec2 s = {fz_vec2(r), fz_vec2(r)};
		spring_state_vec2 out = spring_evaluate_vec2(p, s, fz_vec2(r), t);
		check_finite_or_same(&s, &out, sizeof s, "spring_evaluate_vec2");
		break;
	}
	default: {
		spring_state_vec3 s = {fz_vec3(r), fz_vec3(r)};
		spring_state_vec3 out = spring_evaluate_vec3(p, s, fz_vec3(r), t);
		check_finite_or_same(&s, &out, sizeof s, "spring_evaluate_vec3");
	}
	}
}

static void stepper(fz_reader *r)
{
	spring_params p = fz_params(r);
	float step = fz_dt(r);
	spring_stepper st = {-7.0f, -7.0f, -7.0f, -7.0f}, before = st;
	spring_result res = spring_stepper_init(&st, p, step);
	check_step(res, &before, &st, sizeof st, "spring_stepper_init");
	if (res != SPRING_OK) {
		return;
	}
	int steps = fz_int(r, 1, 8);
	switch (fz_int(r, 0, 3)) {
	case 0: {
		spring_state s = {fz_float(r), fz_float(r)};
		float target = fz_float(r);
		for (int i = 0; i < steps && fz_all_finite(&s, FZ_FLOATS(s)); i++) {
			spring_state b = s;
			spring_stepper_step(&st, &s, target);
			FZ_CHECK(!spring_is_finite(target) || fz_all_finite(&s, FZ_FLOATS(s)) || memcmp(&b, &s, sizeof s) == 0,
			         "spring_stepper_step (pp %a pv %a vp %a vv %a) took x %a v %a target %a to x %a v %a", st.pp, st.pv, st.vp,
			         st.vv, b.x, b.v, target, s.x, s.v);
		}
		break;
	}
	case 1: {
		spring_state s = {fz_float(r), fz_float(r)};
		float target = fz_float(r);
		for (int i = 0; i < steps && fz_all_finite(&s, FZ_FLOATS(s)); i++) {
			spring_state b = s;
			spring_stepper_step_angle(&st, &s, target);
			FZ_CHECK(!spring_is_finite(target) || memcmp(&b, &s, sizeof s) == 0 || (wrapped(s.x) && spring_is_finite(s.v)),
			         "spring_stepper_step_angle took x %a v %a target %a to x %a v %a", b.x, b.v, target, s.x, s.v);
		}
		break;
	}
	case 2: {
		spring_state_vec2 s = {fz_vec2(r), fz_vec2(r)};
		spring_vec2 target = fz_vec2(r);
		for (int i = 0; i < steps && fz_all_finite(&s, FZ_FLOATS(s)); i++) {
			spring_state_vec2 b = s;
			spring_stepper_step_vec2(&st, &s, target);
			FZ_CHECK(
				!spring_vec2_is_finite(target) || fz_all_finite(&s, FZ_FLOATS(s)) || memcmp(&b, &s, sizeof s) == 0,
				"spring_stepper_step_vec2 (pp %a pv %a vp %a vv %a) took x (%a %a) v (%a %a) target (%a %a) to x (%a %a) v (%a %a)",
				st.pp, st.pv, st.vp, st.vv, b.x.x, b.x.y, b.v.x, b.v.y, target.x, target.y, s.x.x, s.x.y, s.v.x, s.v.y);
		}
		break;
	}
	default: {
		spring_state_vec3 s = {fz_vec3(r), fz_vec3(r)};
		spring_vec3 target = fz_vec3(r);
		for (int i = 0; i < steps && fz_all_finite(&s, FZ_FLOATS(s)); i++) {
			spring_state_vec3 b = s;
			spring_stepper_step_vec3(&st, &s, target);
			FZ_CHECK(
				!spring_vec3_is_finite(target) || fz_all_finite(&s, FZ_FLOATS(s)) || memcmp(&b, &s, sizeof s) == 0,
				"spring_stepper_step_vec3 (pp %a pv %a vp %a vv %a) took x (%a %a %a) v (%a %a %a) target (%a %a %a) to x (%a %a %a)",
				st.pp, st.pv, st.vp, st.vv, b.x.x, b.x.y, b.x.z, b.v.x, b.v.y, b.v.z, target.x, target.y, target.z, s.x.x, s.x.y,
				s.x.z);
		}
	}
	}
}

static void rest_and_follow(fz_reader *r)
{
	float delta = fz_float(r), speed = fz_float(r), half_life = fz_float(r), dt = fz_dt(r);
	switch (fz_int(r, 0, 3)) {
	case 0: {
		spring_state s = {fz_float(r), fz_float(r)}, before = s;
		float target = fz_float(r);
		if (spring_rest(&s, target, delta, speed)) {
			FZ_CHECK(s.x == target && s.v == 0.0f, "spring_rest at rest but x %a v %a (target %a)", s.x, s.v, target);
		} else {
			FZ_CHECK_UNCHANGED(&before, &s, sizeof s, "spring_rest", SPRING_OK);
		}
		float x = fz_float(r), f = spring_follow(x, target, half_life, dt);
		FZ_CHECK(spring_is_finite(f) || memcmp(&f, &x, sizeof f) == 0, "spring_follow(%a, %a, %a, %a) gave %a", x, target,
		         half_life, dt, f);
		break;
	}
	case 1: {
		spring_state s = {fz_float(r), fz_float(r)}, before = s;
		float target = fz_float(r);
		if (spring_rest_angle(&s, target, delta, speed)) {
			FZ_CHECK(spring_is_finite(s.x) && s.v == 0.0f, "spring_rest_angle at rest but x %a v %a", s.x, s.v);
		} else {
			FZ_CHECK_UNCHANGED(&before, &s, sizeof s, "spring_rest_angle", SPRING_OK);
		}
		float a = fz_float(r), f = spring_follow_angle(a, target, half_life, dt);
		FZ_CHECK(wrapped(f) || memcmp(&f, &a, sizeof f) == 0, "spring_follow_angle(%a, %a, %a, %a) gave %a", a, target, half_life,
		         dt, f);
		if (spring_is_finite(a) && spring_is_finite(target)) {
			float t = fz_float(r);
			FZ_CHECK(wrapped(spring_angle_wrap(a)), "spring_angle_wrap(%a) = %a", a, spring_angle_wrap(a));
			FZ_CHECK(wrapped(spring_angle_delta(a, target)), "spring_angle_delta(%a, %a)", a, target);
			FZ_CHECK(!spring_is_finite(t) || wrapped(spring_angle_lerp(a, target, t)), "spring_angle_lerp(%a, %a, %a) = %a", a,
			         target, t, spring_angle_lerp(a, target, t));
		}
		break;
	}
	case 2: {
		spring_state_vec2 s = {fz_vec2(r), fz_vec2(r)}, before = s;
		spring_vec2 target = fz_vec2(r);
		if (spring_rest_vec2(&s, target, delta, speed)) {
			FZ_CHECK(memcmp(&s.x, &target, sizeof target) == 0 && s.v.x == 0.0f && s.v.y == 0.0f,
			         "spring_rest_vec2 at rest off the target");
		} else {
			FZ_CHECK_UNCHANGED(&before, &s, sizeof s, "spring_rest_vec2", SPRING_OK);
		}
		spring_vec2 x = fz_vec2(r), f = spring_follow_vec2(x, target, half_life, dt);
		FZ_CHECK(spring_vec2_is_finite(f) || memcmp(&f, &x, sizeof f) == 0, "spring_follow_vec2 gave a non-finite value");
		break;
	}
	default: {
		spring_state_vec3 s = {fz_vec3(r), fz_vec3(r)}, before = s;
		spring_vec3 target = fz_vec3(r);
		if (spring_rest_vec3(&s, target, delta, speed)) {
			FZ_CHECK(memcmp(&s.x, &target, sizeof target) == 0 && s.v.x == 0.0f && s.v.y == 0.0f && s.v.z == 0.0f,
			         "spring_rest_vec3 at rest off the target");
		} else {
			FZ_CHECK_UNCHANGED(&before, &s, sizeof s, "spring_rest_vec3", SPRING_OK);
		}
		spring_vec3 x = fz_vec3(r), f = spring_follow_vec3(x, target, half_life, dt);
		FZ_CHECK(spring_vec3_is_finite(f) || memcmp(&f, &x, sizeof f) == 0, "spring_follow_vec3 gave a non-finite value");
	}
	}
}

static void clock(fz_reader *r)
{
	spring_clock c;
	memset(&c, 0x5a, sizeof c);
	spring_clock before = c;
	float step = fz_bool(r) ? fz_float(r) : 0.0f;
	int max_steps = fz_bool(r) ? (int)fz_u32(r) : fz_int(r, 0, 16);
	spring_result res = spring_clock_init(&c, step, max_steps);
	FZ_CHECK_RESULT(res, "spring_clock_init");
	if (res != SPRING_OK) {
		FZ_CHECK_UNCHANGED(&before, &c, sizeof c, "spring_clock_init", res);
		return;
	}
	int frames = fz_int(r, 1, 16);
	for (int i = 0; i < frames; i++) {
		float dt = fz_dt(r);
		before = c;
		int n = spring_clock_advance(&c, dt);
		if (n < 0) {
			FZ_CHECK_RESULT(-n, "spring_clock_advance");
			FZ_CHECK_UNCHANGED(&before, &c, sizeof c, "spring_clock_advance", (spring_result)-n);
			continue;
		}
		FZ_CHECK(n <= c.max_steps, "spring_clock_advance returned %d steps, cap %d", n, c.max_steps);
		FZ_CHECK(c.accumulator >= 0.0f && c.accumulator < c.step, "accumulator %a, step %a", c.accumulator, c.step);
		FZ_CHECK(c.alpha >= 0.0f && c.alpha < 1.0f, "alpha %a", c.alpha);
		FZ_CHECK(spring_is_finite(c.dropped) && c.dropped >= 0.0f && isfinite(c.time), "dropped %a time %g", c.dropped, c.time);
		for (int k = 0; k < n; k++) {
			float f = spring_clock_substep_fraction(&c, k, n);
			FZ_CHECK(f >= 0.0f && f <= 1.0f, "substep fraction %d of %d is %a", k, n, f);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_reader r = fz_make(data, size);
	int ops = fz_int(&r, 1, 16);
	for (int i = 0; i < ops && r.n > 0; i++) {
		switch (fz_int(&r, 0, 4)) {
		case 0: stepping(&r); break;
		case 1: evaluating(&r); break;
		case 2: stepper(&r); break;
		case 3: rest_and_follow(&r); break;
		default: clock(&r);
		}
	}
	return 0;
}
