// SPDX-License-Identifier: MIT
/// Tests for the value-type maths (src/math.c): vectors, quaternions and transforms, their
/// degenerate cases (zero vectors, parallel and anti-parallel directions) and that finite input
/// never gives NaN.
#include "random.h"
#include "spring/math.h"
#include "test_macros.h"

#include <float.h>
#include <stdint.h>

// ---------------------------------------------------------------------------------------------
// Helpers

/// Uniform in [lo, hi).
static float rng_range(float lo, float hi)
{
	return lo + (hi - lo) * (float)rng_unit();
}

/// Any finite float: random sign, exponent and mantissa bits (no NaN, no infinity).
static float rng_any_finite(void)
{
	uint32_t u = (uint32_t)(rng_next() >> 32);
	if ((u & 0x7f800000u) == 0x7f800000u) {
		u &= ~0x00800000u; // exponent 0xff -> 0xfe
	}
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static spring_vec3 rng_vec3(float range)
{
	return spring_vec3_make(rng_range(-range, range), rng_range(-range, range), rng_range(-range, range));
}

/// A direction uniform enough for testing (rejects near-zero draws).
static spring_vec3 rng_unit_vec3(void)
{
	for (;;) {
		spring_vec3 v = rng_vec3(1.0f);
		float l = spring_vec3_length(v);
		if (l > 0.1f && l <= 1.0f) {
			return spring_vec3_scale(v, 1.0f / l);
		}
	}
}

static spring_quat rng_quat(void)
{
	return spring_quat_from_axis_angle(rng_unit_vec3(), rng_range(-7.0f, 7.0f));
}

static float quat_length(spring_quat q)
{
	return sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
}

/// Distance between rotations: 0 when a and b are the same rotation (q and -q included).
static float quat_distance(spring_quat a, spring_quat b)
{
	float d = fabsf(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
	return 1.0f - fminf(d, 1.0f);
}

static float vec3_distance(spring_vec3 a, spring_vec3 b)
{
	return spring_vec3_length(spring_vec3_sub(a, b));
}

#define ENSURE_VEC3_NEAR(a, b, tol)                                                                                      \
	do {                                                                                                                 \
		spring_vec3 ev_a_ = (a), ev_b_ = (b);                                                                            \
		ENSURE_MSG(vec3_distance(ev_a_, ev_b_) <= (tol), "(%g %g %g) vs (%g %g %g)", ev_a_.x, ev_a_.y, ev_a_.z, ev_b_.x, \
		           ev_b_.y, ev_b_.z);                                                                                    \
	} while (0)

#define ENSURE_VEC2_NEAR(a, b, tol)                                                                                             \
	do {                                                                                                                        \
		spring_vec2 ev_a_ = (a), ev_b_ = (b);                                                                                   \
		ENSURE_MSG(spring_vec2_length(spring_vec2_sub(ev_a_, ev_b_)) <= (tol), "(%g %g) vs (%g %g)", ev_a_.x, ev_a_.y, ev_b_.x, \
		           ev_b_.y);                                                                                                    \
	} while (0)

static int quat_bits_equal(spring_quat a, spring_quat b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static int quat_finite(spring_quat q)
{
	return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
}

static const float pi_f = (float)SPRING_PI;

// ---------------------------------------------------------------------------------------------
// Vectors

static int test_vec_basics(void)
{
	spring_vec2 a = spring_vec2_make(3.0f, -4.0f), b = spring_vec2_make(1.0f, 2.0f);
	ENSURE(spring_vec2_add(a, b).x == 4.0f && spring_vec2_add(a, b).y == -2.0f);
	ENSURE(spring_vec2_sub(a, b).x == 2.0f && spring_vec2_sub(a, b).y == -6.0f);
	ENSURE(spring_vec2_scale(a, 2.0f).x == 6.0f && spring_vec2_scale(a, 2.0f).y == -8.0f);
	ENSURE(spring_vec2_dot(a, b) == -5.0f);
	ENSURE(spring_vec2_cross(a, b) == 10.0f); // 3*2 - (-4)*1
	ENSURE(spring_vec2_length(a) == 5.0f);
	ENSURE_VEC2_NEAR(spring_vec2_lerp(a, b, 0.25f), spring_vec2_make(2.5f, -2.5f), 0.0f);
	ENSURE_VEC2_NEAR(spring_vec2_lerp(a, b, 1.0f), b, 0.0f);
	ENSURE_VEC2_NEAR(spring_vec2_normalize(a), spring_vec2_make(0.6f, -0.8f), 1e-7f);

	spring_vec3 c = spring_vec3_make(1.0f, 2.0f, 2.0f), d = spring_vec3_make(0.0f, 1.0f, 0.0f);
	ENSURE(spring_vec3_length(c) == 3.0f);
	ENSURE(spring_vec3_dot(c, d) == 2.0f);
	ENSURE_VEC3_NEAR(spring_vec3_cross(spring_vec3_make(1, 0, 0), d), spring_vec3_make(0, 0, 1), 0.0f);
	ENSURE_VEC3_NEAR(spring_vec3_cross(c, d), spring_vec3_make(-2, 0, 1), 0.0f);
	ENSURE_VEC3_NEAR(spring_vec3_add(c, d), spring_vec3_make(1, 3, 2), 0.0f);
	ENSURE_VEC3_NEAR(spring_vec3_sub(c, d), spring_vec3_make(1, 1, 2), 0.0f);
	ENSURE_VEC3_NEAR(spring_vec3_scale(c, -1.0f), spring_vec3_make(-1, -2, -2), 0.0f);
	ENSURE_VEC3_NEAR(spring_vec3_lerp(c, d, 0.5f), spring_vec3_make(0.5f, 1.5f, 1.0f), 0.0f);
	ENSURE_VEC3_NEAR(spring_vec3_normalize(c), spring_vec3_make(1 / 3.0f, 2 / 3.0f, 2 / 3.0f), 1e-7f);

	ENSURE(spring_vec2_is_finite(a) && spring_vec3_is_finite(c));
	ENSURE(!spring_vec2_is_finite(spring_vec2_make(NAN, 0.0f)));
	ENSURE(!spring_vec2_is_finite(spring_vec2_make(0.0f, INFINITY)));
	ENSURE(!spring_vec3_is_finite(spring_vec3_make(0.0f, 0.0f, -INFINITY)));
	ENSURE(spring_vec3_is_finite(spring_vec3_make(FLT_MAX, -FLT_MAX, 1e-45f)));
	return 0;
}

static int test_normalize_degenerate(void)
{
	spring_vec2 z2 = spring_vec2_normalize(spring_vec2_make(0.0f, 0.0f));
	ENSURE(z2.x == 0.0f && z2.y == 0.0f);
	spring_vec3 z3 = spring_vec3_normalize(spring_vec3_make(0.0f, -0.0f, 0.0f));
	ENSURE(z3.x == 0.0f && z3.y == 0.0f && z3.z == 0.0f);
	ENSURE(quat_bits_equal(spring_quat_normalize((spring_quat){0, 0, 0, 0}), spring_quat_identity()));
	// Tiny and huge vectors still normalise (no underflow to zero, no overflow to NaN).
	ENSURE_VEC3_NEAR(spring_vec3_normalize(spring_vec3_make(1e-40f, 0.0f, 0.0f)), spring_vec3_make(1, 0, 0), 1e-6f);
	ENSURE_VEC3_NEAR(spring_vec3_normalize(spring_vec3_make(3e38f, 3e38f, 0.0f)), spring_vec3_make(0.70710678f, 0.70710678f, 0),
	                 1e-6f);
	ENSURE_VEC2_NEAR(spring_vec2_normalize(spring_vec2_make(0.0f, -1e-44f)), spring_vec2_make(0, -1), 1e-6f);
	ENSURE(spring_vec3_length(spring_vec3_make(3e38f, 3e38f, 0.0f)) == INFINITY);
	spring_quat q = spring_quat_normalize((spring_quat){0, 0, 2e-30f, 0});
	ENSURE_NEAR(q.z, 1.0f, 1e-7f);
	return 0;
}

static int test_vec2_rotate_counter_clockwise(void)
{
	ENSURE_VEC2_NEAR(spring_vec2_rotate(spring_vec2_make(1, 0), pi_f / 2), spring_vec2_make(0, 1), 1e-7f);
	ENSURE_VEC2_NEAR(spring_vec2_rotate(spring_vec2_make(0, 1), pi_f / 2), spring_vec2_make(-1, 0), 1e-7f);
	ENSURE_VEC2_NEAR(spring_vec2_rotate(spring_vec2_make(2, 0), pi_f / 6), spring_vec2_make(1.7320508f, 1.0f), 1e-6f);
	rng_seed(11);
	for (int i = 0; i < 1000; ++i) {
		spring_vec2 v = spring_vec2_make(rng_range(-10, 10), rng_range(-10, 10));
		float angle = rng_range(-10, 10);
		spring_vec2 r = spring_vec2_rotate(v, angle);
		ENSURE_NEAR(spring_vec2_length(r), spring_vec2_length(v), 1e-5f);
		ENSURE_VEC2_NEAR(spring_vec2_rotate(r, -angle), v, 1e-5f);
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Quaternions

static int test_quat_axis_angle(void)
{
	spring_quat q = spring_quat_from_axis_angle(spring_vec3_make(0, 0, 5), pi_f / 2);
	ENSURE_NEAR(quat_length(q), 1.0f, 1e-7f);
	ENSURE_VEC3_NEAR(spring_quat_rotate(q, spring_vec3_make(1, 0, 0)), spring_vec3_make(0, 1, 0), 1e-7f);
	ENSURE(quat_bits_equal(spring_quat_from_axis_angle(spring_vec3_make(0, 0, 0), 1.0f), spring_quat_identity()));
	ENSURE_NEAR(spring_quat_angle(spring_quat_identity()), 0.0f, 0.0f);
	return 0;
}

static int test_quat_from_to_random(void)
{
	rng_seed(12);
	for (int i = 0; i < 10000; ++i) {
		spring_vec3 from = spring_vec3_scale(rng_unit_vec3(), rng_range(0.01f, 100.0f));
		spring_vec3 to = spring_vec3_scale(rng_unit_vec3(), rng_range(0.01f, 100.0f));
		spring_quat q = spring_quat_from_to(from, to);
		ENSURE_NEAR(quat_length(q), 1.0f, 1e-6f);
		ENSURE_VEC3_NEAR(spring_quat_rotate(q, spring_vec3_normalize(from)), spring_vec3_normalize(to), 1e-6f);
		// Shortest arc: the rotation angle is the angle between the directions.
		float cosine = spring_vec3_dot(spring_vec3_normalize(from), spring_vec3_normalize(to));
		ENSURE_NEAR(cosf(spring_quat_angle(q)), cosine, 1e-5f);
	}
	return 0;
}

static int test_quat_from_to_degenerate(void)
{
	spring_vec3 x = spring_vec3_make(1, 0, 0);
	// Parallel, whatever the lengths: exactly the identity.
	ENSURE(quat_bits_equal(spring_quat_from_to(x, x), spring_quat_identity()));
	ENSURE(quat_bits_equal(spring_quat_from_to(spring_vec3_make(0, 2, 0), spring_vec3_make(0, 7, 0)), spring_quat_identity()));
	// Zero vectors: identity.
	spring_vec3 zero = spring_vec3_make(0, 0, 0);
	ENSURE(quat_bits_equal(spring_quat_from_to(zero, x), spring_quat_identity()));
	ENSURE(quat_bits_equal(spring_quat_from_to(x, zero), spring_quat_identity()));
	ENSURE(quat_bits_equal(spring_quat_from_to(zero, zero), spring_quat_identity()));

	// Anti-parallel: a half turn about an axis perpendicular to from, the same every time.
	spring_quat q = spring_quat_from_to(x, spring_vec3_make(-3, 0, 0));
	ENSURE(quat_finite(q) && q.w == 0.0f);
	ENSURE_NEAR(quat_length(q), 1.0f, 1e-7f);
	ENSURE_VEC3_NEAR(spring_quat_rotate(q, x), spring_vec3_make(-1, 0, 0), 1e-6f);
	ENSURE(quat_bits_equal(q, spring_quat_from_to(x, spring_vec3_make(-1, 0, 0))));
	ENSURE_VEC3_NEAR(spring_vec3_make(q.x, q.y, q.z), spring_vec3_make(0, 0, 1), 0.0f); // x cross y
	rng_seed(13);
	for (int i = 0; i < 2000; ++i) {
		spring_vec3 from = rng_unit_vec3();
		if (i < 3) {
			from = spring_vec3_make(i == 0, i == 1, i == 2); // the coordinate axes
		}
		spring_vec3 to = spring_vec3_scale(from, -rng_range(0.5f, 2.0f));
		q = spring_quat_from_to(from, to);
		ENSURE_NEAR(quat_length(q), 1.0f, 1e-6f);
		ENSURE_NEAR(spring_quat_angle(q), pi_f, 1e-5f);
		ENSURE_NEAR(spring_vec3_dot(spring_vec3_make(q.x, q.y, q.z), from), 0.0f, 1e-6f);
		ENSURE_VEC3_NEAR(spring_quat_rotate(q, from), spring_vec3_normalize(to), 1e-5f);
		ENSURE(quat_bits_equal(q, spring_quat_from_to(from, to)));
	}
	// Near anti-parallel, 1e-7 off (and closer): maps from onto to, no NaN.
	float offsets[] = {1e-7f, -1e-7f, 3e-8f, 1e-9f, 1e-20f, 1e-38f, 1e-45f};
	for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; ++i) {
		spring_vec3 to = spring_vec3_make(-1.0f, offsets[i], 0.0f);
		q = spring_quat_from_to(x, to);
		ENSURE(quat_finite(q));
		ENSURE_NEAR(quat_length(q), 1.0f, 1e-6f);
		ENSURE_VEC3_NEAR(spring_quat_rotate(q, x), spring_vec3_normalize(to), 1e-6f);
	}
	for (int i = 0; i < 2000; ++i) {
		spring_vec3 from = rng_unit_vec3();
		spring_vec3 to = spring_vec3_add(spring_vec3_scale(from, -1.0f), spring_vec3_scale(rng_unit_vec3(), 1e-7f));
		q = spring_quat_from_to(from, to);
		ENSURE_NEAR(quat_length(q), 1.0f, 1e-6f);
		ENSURE_VEC3_NEAR(spring_quat_rotate(q, from), spring_vec3_normalize(to), 1e-6f);
	}
	return 0;
}

static int test_rotation_preserves_length(void)
{
	rng_seed(14);
	for (int i = 0; i < 10000; ++i) {
		spring_quat q = rng_quat();
		spring_vec3 v = rng_vec3(100.0f);
		float before = spring_vec3_length(v), after = spring_vec3_length(spring_quat_rotate(q, v));
		ENSURE_NEAR(after, before, 1e-6f * before + 1e-30f);
		// The conjugate undoes the rotation.
		ENSURE_VEC3_NEAR(spring_quat_rotate(spring_quat_conjugate(q), spring_quat_rotate(q, v)), v, 1e-4f);
	}
	return 0;
}

static int test_quat_mul_composition(void)
{
	// Rotating by a * b rotates by b first: b takes x to y (about z), then a takes y to z (about x).
	spring_quat a = spring_quat_from_axis_angle(spring_vec3_make(1, 0, 0), pi_f / 2);
	spring_quat b = spring_quat_from_axis_angle(spring_vec3_make(0, 0, 1), pi_f / 2);
	ENSURE_VEC3_NEAR(spring_quat_rotate(spring_quat_mul(a, b), spring_vec3_make(1, 0, 0)), spring_vec3_make(0, 0, 1), 1e-6f);
	ENSURE_VEC3_NEAR(spring_quat_rotate(spring_quat_mul(b, a), spring_vec3_make(1, 0, 0)), spring_vec3_make(0, 1, 0), 1e-6f);
	ENSURE(quat_bits_equal(spring_quat_mul(spring_quat_identity(), a), a));
	ENSURE(quat_bits_equal(spring_quat_mul(a, spring_quat_identity()), a));

	rng_seed(15);
	for (int i = 0; i < 10000; ++i) {
		spring_quat p = rng_quat(), q = rng_quat(), r = rng_quat();
		spring_vec3 v = rng_vec3(10.0f);
		ENSURE_VEC3_NEAR(spring_quat_rotate(spring_quat_mul(p, q), v), spring_quat_rotate(p, spring_quat_rotate(q, v)), 1e-4f);
		ENSURE(quat_distance(spring_quat_mul(spring_quat_mul(p, q), r), spring_quat_mul(p, spring_quat_mul(q, r))) <= 1e-6f);
		ENSURE(quat_distance(spring_quat_mul(q, spring_quat_conjugate(q)), spring_quat_identity()) <= 1e-6f);
	}
	return 0;
}

static int test_quat_nlerp_shortest_path(void)
{
	spring_quat a = spring_quat_identity();
	spring_quat b = spring_quat_from_axis_angle(spring_vec3_make(0, 0, 1), 0.2f);
	spring_quat nb = {-b.x, -b.y, -b.z, -b.w}; // the same rotation, on the far hemisphere
	spring_quat m = spring_quat_nlerp(a, nb, 0.5f);
	ENSURE_NEAR(quat_length(m), 1.0f, 1e-6f);
	ENSURE_NEAR(spring_quat_angle(m), 0.1f, 1e-6f); // not the long way round
	ENSURE(quat_distance(spring_quat_nlerp(a, nb, 0.0f), a) <= 1e-7f);
	ENSURE(quat_distance(spring_quat_nlerp(a, nb, 1.0f), b) <= 1e-7f);
	ENSURE(quat_distance(spring_quat_nlerp(a, b, 0.5f), m) <= 1e-7f);
	// Opposite quaternions that cancel: still unit, no NaN.
	spring_quat z = spring_quat_nlerp((spring_quat){0, 0, 0, 0}, (spring_quat){0, 0, 0, 0}, 0.5f);
	ENSURE(quat_bits_equal(z, spring_quat_identity()));
	rng_seed(16);
	for (int i = 0; i < 5000; ++i) {
		spring_quat p = rng_quat(), q = rng_quat();
		float t = rng_range(0.0f, 1.0f);
		spring_quat r = spring_quat_nlerp(p, q, t);
		ENSURE_NEAR(quat_length(r), 1.0f, 1e-6f);
		// The interpolated rotation lies between the two: never further from p than q is.
		float dpq = 1.0f - fabsf(p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w);
		ENSURE(quat_distance(p, r) <= dpq + 1e-6f);
	}
	return 0;
}

static int test_quat_angle_range(void)
{
	spring_vec3 axis = spring_vec3_make(1, 2, 3);
	for (int i = 0; i <= 100; ++i) {
		float angle = (float)i * (2.0f * pi_f) / 100.0f;
		spring_quat q = spring_quat_from_axis_angle(axis, angle);
		float want = angle <= pi_f ? angle : 2.0f * pi_f - angle;
		float got = spring_quat_angle(q);
		ENSURE(got >= 0.0f && got <= pi_f);
		ENSURE_NEAR(got, want, 1e-5f);
		spring_quat nq = {-q.x, -q.y, -q.z, -q.w};
		ENSURE(spring_quat_angle(nq) == got);
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Transforms

static int test_xform2_hand_computed(void)
{
	spring_xform2 parent = {{1.0f, 2.0f}, pi_f / 2, {2.0f, 3.0f}};
	spring_xform2 local = {{1.0f, 1.0f}, 0.25f, {0.5f, 4.0f}};
	spring_xform2 r = spring_xform2_mul(parent, local);
	// parent.scale * local.position = (2, 3); rotated a quarter turn = (-3, 2); plus (1, 2).
	ENSURE_VEC2_NEAR(r.position, spring_vec2_make(-2.0f, 4.0f), 1e-6f);
	ENSURE(r.angle == pi_f / 2 + 0.25f);
	ENSURE(r.scale.x == 1.0f && r.scale.y == 12.0f);
	ENSURE_VEC2_NEAR(spring_xform2_apply(parent, spring_vec2_make(1, 0)), spring_vec2_make(1, 4), 1e-6f);
	ENSURE_VEC2_NEAR(spring_xform2_apply_dir(parent, spring_vec2_make(1, 0)), spring_vec2_make(0, 2), 1e-6f);
	ENSURE_VEC2_NEAR(spring_xform2_apply_dir(parent, spring_vec2_make(0, 1)), spring_vec2_make(-3, 0), 1e-6f);
	// Angles add without wrapping.
	spring_xform2 spin = {{0, 0}, 3.0f, {1, 1}};
	ENSURE(spring_xform2_mul(spin, spin).angle == 6.0f);

	spring_xform2 id = spring_xform2_identity();
	ENSURE(id.position.x == 0 && id.position.y == 0 && id.angle == 0 && id.scale.x == 1 && id.scale.y == 1);
	r = spring_xform2_mul(id, local);
	ENSURE_VEC2_NEAR(r.position, local.position, 0.0f);
	ENSURE(r.angle == local.angle && r.scale.x == local.scale.x && r.scale.y == local.scale.y);

	// With uniform scale, composition equals applying local then parent.
	rng_seed(17);
	for (int i = 0; i < 2000; ++i) {
		float sp = rng_range(0.1f, 3.0f), sl = rng_range(0.1f, 3.0f);
		spring_xform2 p = {{rng_range(-5, 5), rng_range(-5, 5)}, rng_range(-4, 4), {sp, sp}};
		spring_xform2 l = {{rng_range(-5, 5), rng_range(-5, 5)}, rng_range(-4, 4), {sl, sl}};
		spring_vec2 pt = spring_vec2_make(rng_range(-5, 5), rng_range(-5, 5));
		ENSURE_VEC2_NEAR(spring_xform2_apply(spring_xform2_mul(p, l), pt), spring_xform2_apply(p, spring_xform2_apply(l, pt)),
		                 1e-4f);
	}
	return 0;
}

static int test_xform3_inverse_and_mul(void)
{
	spring_xform3 id = spring_xform3_identity();
	ENSURE(quat_bits_equal(id.rotation, spring_quat_identity()));
	ENSURE(id.position.x == 0 && id.position.y == 0 && id.position.z == 0);
	rng_seed(18);
	for (int i = 0; i < 10000; ++i) {
		spring_xform3 t = {rng_vec3(10.0f), rng_quat()};
		spring_xform3 u = {rng_vec3(10.0f), rng_quat()};
		spring_vec3 p = rng_vec3(10.0f);
		spring_xform3 inv = spring_xform3_inverse(t);
		spring_xform3 e = spring_xform3_mul(inv, t);
		ENSURE_VEC3_NEAR(e.position, spring_vec3_make(0, 0, 0), 1e-5f);
		ENSURE(quat_distance(e.rotation, spring_quat_identity()) <= 1e-6f);
		e = spring_xform3_mul(t, inv);
		ENSURE_VEC3_NEAR(e.position, spring_vec3_make(0, 0, 0), 1e-5f);
		ENSURE_VEC3_NEAR(spring_xform3_apply(inv, spring_xform3_apply(t, p)), p, 1e-5f);
		ENSURE_VEC3_NEAR(spring_xform3_apply(spring_xform3_mul(t, u), p), spring_xform3_apply(t, spring_xform3_apply(u, p)),
		                 1e-4f);
		ENSURE_VEC3_NEAR(spring_xform3_apply(id, p), p, 0.0f);
	}
	// Hand-computed: a quarter turn about z, then a shift.
	spring_xform3 t = {{1, 2, 3}, spring_quat_from_axis_angle(spring_vec3_make(0, 0, 1), pi_f / 2)};
	ENSURE_VEC3_NEAR(spring_xform3_apply(t, spring_vec3_make(1, 0, 0)), spring_vec3_make(1, 3, 3), 1e-6f);
	ENSURE_VEC3_NEAR(spring_xform3_inverse(t).position, spring_vec3_make(-2, 1, -3), 1e-6f);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// No NaN from finite input

static int no_nan2(spring_vec2 v)
{
	return !isnan(v.x) && !isnan(v.y);
}

static int no_nan3(spring_vec3 v)
{
	return !isnan(v.x) && !isnan(v.y) && !isnan(v.z);
}

static int no_nanq(spring_quat q)
{
	return !isnan(q.x) && !isnan(q.y) && !isnan(q.z) && !isnan(q.w);
}

static int test_no_nan_from_finite_input(void)
{
	rng_seed(19);
	for (int i = 0; i < 20000; ++i) {
		// Alternate between any finite float (including FLT_MAX-sized and subnormal) and
		// ordinary magnitudes.
		float (*draw)(void) = rng_any_finite;
		float s = i & 1 ? rng_range(-10, 10) : draw();
		spring_vec2 a2 = {draw(), draw()}, b2 = {draw(), draw()};
		spring_vec3 a3 = {draw(), draw(), draw()}, b3 = {draw(), draw(), draw()};
		spring_quat qa = {draw(), draw(), draw(), draw()}, qb = {draw(), draw(), draw(), draw()};
		if (i & 1) {
			a3 = rng_vec3(10.0f);
			qa = rng_quat();
		}
		ENSURE(no_nan2(spring_vec2_add(a2, b2)) && no_nan2(spring_vec2_sub(a2, b2)));
		ENSURE(no_nan2(spring_vec2_scale(a2, s)) && no_nan2(spring_vec2_lerp(a2, b2, s)));
		ENSURE(!isnan(spring_vec2_dot(a2, b2)) && !isnan(spring_vec2_cross(a2, b2)));
		ENSURE(!isnan(spring_vec2_length(a2)) && no_nan2(spring_vec2_normalize(a2)));
		ENSURE(no_nan2(spring_vec2_rotate(a2, s)) && no_nan2(spring_vec2_rotate(a2, draw())));
		ENSURE(no_nan3(spring_vec3_add(a3, b3)) && no_nan3(spring_vec3_sub(a3, b3)));
		ENSURE(no_nan3(spring_vec3_scale(a3, s)) && no_nan3(spring_vec3_lerp(a3, b3, s)));
		ENSURE(!isnan(spring_vec3_dot(a3, b3)) && no_nan3(spring_vec3_cross(a3, b3)));
		ENSURE(!isnan(spring_vec3_length(a3)) && no_nan3(spring_vec3_normalize(a3)));
		ENSURE(quat_finite(spring_quat_from_axis_angle(a3, s)));
		ENSURE(quat_finite(spring_quat_from_axis_angle(b3, draw())));
		ENSURE(no_nanq(spring_quat_mul(qa, qb)) && no_nanq(spring_quat_conjugate(qa)));
		ENSURE(quat_finite(spring_quat_normalize(qb)));
		ENSURE(no_nan3(spring_quat_rotate(qa, a3)) && no_nan3(spring_quat_rotate(qb, b3)));
		ENSURE(quat_finite(spring_quat_from_to(a3, b3)));
		ENSURE(quat_finite(spring_quat_from_to(a3, spring_vec3_scale(a3, -1.0f))));
		ENSURE(quat_finite(spring_quat_nlerp(qa, qb, s)));
		ENSURE(!isnan(spring_quat_angle(qa)) && !isnan(spring_quat_angle(qb)));
		spring_xform2 t2 = {a2, s, b2}, u2 = {b2, draw(), a2};
		ENSURE(no_nan2(spring_xform2_apply(t2, b2)) && no_nan2(spring_xform2_apply_dir(u2, a2)));
		spring_xform2 m2 = spring_xform2_mul(t2, u2);
		ENSURE(no_nan2(m2.position) && !isnan(m2.angle) && no_nan2(m2.scale));
		spring_xform3 t3 = {a3, qa}, u3 = {b3, qb};
		ENSURE(no_nan3(spring_xform3_apply(t3, b3)) && no_nan3(spring_xform3_apply(u3, a3)));
		spring_xform3 m3 = spring_xform3_mul(t3, u3);
		ENSURE(no_nan3(m3.position) && no_nanq(m3.rotation));
		spring_xform3 i3 = spring_xform3_inverse(u3);
		ENSURE(no_nan3(i3.position) && no_nanq(i3.rotation));
	}
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_vec_basics);
	RUN_TEST(test_normalize_degenerate);
	RUN_TEST(test_vec2_rotate_counter_clockwise);
	RUN_TEST(test_quat_axis_angle);
	RUN_TEST(test_quat_from_to_random);
	RUN_TEST(test_quat_from_to_degenerate);
	RUN_TEST(test_rotation_preserves_length);
	RUN_TEST(test_quat_mul_composition);
	RUN_TEST(test_quat_nlerp_shortest_path);
	RUN_TEST(test_quat_angle_range);
	RUN_TEST(test_xform2_hand_computed);
	RUN_TEST(test_xform3_inverse_and_mul);
	RUN_TEST(test_no_nan_from_finite_input);
	return TEST_SUMMARY();
}
