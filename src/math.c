// SPDX-License-Identifier: MIT
/// @file math.c
/// Value-type maths (math.h). Products and sums are formed in double and rounded to float once
/// at the end: a product of two floats is exact in double and no sum of a few of them can
/// overflow, so finite input never gives NaN (a result beyond FLT_MAX becomes infinity), and
/// the results stay deterministic under -ffp-contract=off. Trigonometry uses spring_det_*.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/math.h"

#include "math_internal.h"

#include <math.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Internal double-precision helpers

typedef struct dvec3 {
	double x, y, z;
} dvec3;
typedef struct dquat {
	double x, y, z, w;
} dquat;

static int float_is_finite(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	return (u & 0x7f800000u) != 0x7f800000u;
}

static dvec3 dvec3_of(spring_vec3 v)
{
	return (dvec3){v.x, v.y, v.z};
}

static spring_vec3 vec3_of(dvec3 v)
{
	return (spring_vec3){(float)v.x, (float)v.y, (float)v.z};
}

static dvec3 dvec3_cross(dvec3 a, dvec3 b)
{
	return (dvec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static double dvec3_dot(dvec3 a, dvec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

/// Unit vector, or the zero vector for a zero vector.
static dvec3 dvec3_normalize(dvec3 a)
{
	double length = sqrt(dvec3_dot(a, a));
	if (length == 0.0) {
		return (dvec3){0.0, 0.0, 0.0};
	}
	return (dvec3){a.x / length, a.y / length, a.z / length};
}

static dquat dquat_of(spring_quat q)
{
	return (dquat){q.x, q.y, q.z, q.w};
}

/// Rounded to float and normalised; a zero quaternion gives the identity.
static spring_quat quat_normalized_of(dquat q)
{
	return spring_internal_quat_normalize_d(q.x, q.y, q.z, q.w);
}

/// q v q* for unit q: v + w t + u x t with t = 2 u x v.
static dvec3 dquat_rotate(dquat q, dvec3 v)
{
	dvec3 u = {q.x, q.y, q.z};
	dvec3 t = dvec3_cross(u, v);
	t = (dvec3){2.0 * t.x, 2.0 * t.y, 2.0 * t.z};
	dvec3 ut = dvec3_cross(u, t);
	return (dvec3){v.x + q.w * t.x + ut.x, v.y + q.w * t.y + ut.y, v.z + q.w * t.z + ut.z};
}

// ---------------------------------------------------------------------------------------------
// vec2

spring_vec2 spring_vec2_make(float x, float y)
{
	return (spring_vec2){x, y};
}

spring_vec2 spring_vec2_add(spring_vec2 a, spring_vec2 b)
{
	return (spring_vec2){a.x + b.x, a.y + b.y};
}

spring_vec2 spring_vec2_sub(spring_vec2 a, spring_vec2 b)
{
	return (spring_vec2){a.x - b.x, a.y - b.y};
}

spring_vec2 spring_vec2_scale(spring_vec2 a, float s)
{
	return (spring_vec2){a.x * s, a.y * s};
}

spring_vec2 spring_vec2_lerp(spring_vec2 a, spring_vec2 b, float t)
{
	double dt = t;
	return (spring_vec2){(float)(a.x + ((double)b.x - a.x) * dt), (float)(a.y + ((double)b.y - a.y) * dt)};
}

float spring_vec2_dot(spring_vec2 a, spring_vec2 b)
{
	return (float)((double)a.x * b.x + (double)a.y * b.y);
}

float spring_vec2_cross(spring_vec2 a, spring_vec2 b)
{
	return (float)((double)a.x * b.y - (double)a.y * b.x);
}

float spring_vec2_length(spring_vec2 a)
{
	return (float)sqrt((double)a.x * a.x + (double)a.y * a.y);
}

spring_vec2 spring_vec2_normalize(spring_vec2 a)
{
	double length = sqrt((double)a.x * a.x + (double)a.y * a.y);
	if (length == 0.0) {
		return (spring_vec2){0.0f, 0.0f};
	}
	return (spring_vec2){(float)(a.x / length), (float)(a.y / length)};
}

spring_vec2 spring_vec2_rotate(spring_vec2 a, float angle)
{
	double s, c;
	spring_det_sincos(angle, &s, &c);
	return (spring_vec2){(float)(a.x * c - a.y * s), (float)(a.x * s + a.y * c)};
}

bool spring_vec2_is_finite(spring_vec2 a)
{
	return float_is_finite(a.x) && float_is_finite(a.y);
}

// ---------------------------------------------------------------------------------------------
// vec3

spring_vec3 spring_vec3_make(float x, float y, float z)
{
	return (spring_vec3){x, y, z};
}

spring_vec3 spring_vec3_add(spring_vec3 a, spring_vec3 b)
{
	return (spring_vec3){a.x + b.x, a.y + b.y, a.z + b.z};
}

spring_vec3 spring_vec3_sub(spring_vec3 a, spring_vec3 b)
{
	return (spring_vec3){a.x - b.x, a.y - b.y, a.z - b.z};
}

spring_vec3 spring_vec3_scale(spring_vec3 a, float s)
{
	return (spring_vec3){a.x * s, a.y * s, a.z * s};
}

spring_vec3 spring_vec3_lerp(spring_vec3 a, spring_vec3 b, float t)
{
	return spring_internal_vec3_lerp(a, b, t);
}

float spring_vec3_dot(spring_vec3 a, spring_vec3 b)
{
	return (float)dvec3_dot(dvec3_of(a), dvec3_of(b));
}

spring_vec3 spring_vec3_cross(spring_vec3 a, spring_vec3 b)
{
	return vec3_of(dvec3_cross(dvec3_of(a), dvec3_of(b)));
}

float spring_vec3_length(spring_vec3 a)
{
	dvec3 d = dvec3_of(a);
	return (float)sqrt(dvec3_dot(d, d));
}

spring_vec3 spring_vec3_normalize(spring_vec3 a)
{
	return vec3_of(dvec3_normalize(dvec3_of(a)));
}

bool spring_vec3_is_finite(spring_vec3 a)
{
	return float_is_finite(a.x) && float_is_finite(a.y) && float_is_finite(a.z);
}

// ---------------------------------------------------------------------------------------------
// quat

spring_quat spring_quat_identity(void)
{
	return (spring_quat){0.0f, 0.0f, 0.0f, 1.0f};
}

spring_quat spring_quat_from_axis_angle(spring_vec3 axis, float angle)
{
	dvec3 n = dvec3_normalize(dvec3_of(axis));
	if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) {
		return spring_quat_identity();
	}
	double s, c;
	spring_det_sincos(0.5 * (double)angle, &s, &c);
	return (spring_quat){(float)(n.x * s), (float)(n.y * s), (float)(n.z * s), (float)c};
}

spring_quat spring_quat_mul(spring_quat a, spring_quat b)
{
	dquat p = dquat_of(a), q = dquat_of(b);
	return (spring_quat){
		(float)(p.w * q.x + p.x * q.w + p.y * q.z - p.z * q.y),
		(float)(p.w * q.y - p.x * q.z + p.y * q.w + p.z * q.x),
		(float)(p.w * q.z + p.x * q.y - p.y * q.x + p.z * q.w),
		(float)(p.w * q.w - p.x * q.x - p.y * q.y - p.z * q.z),
	};
}

spring_quat spring_quat_conjugate(spring_quat q)
{
	return (spring_quat){-q.x, -q.y, -q.z, q.w};
}

spring_quat spring_quat_normalize(spring_quat q)
{
	return quat_normalized_of(dquat_of(q));
}

spring_vec3 spring_quat_rotate(spring_quat q, spring_vec3 v)
{
	return vec3_of(dquat_rotate(dquat_of(q), dvec3_of(v)));
}

spring_quat spring_quat_from_to(spring_vec3 from, spring_vec3 to)
{
	dvec3 f = dvec3_normalize(dvec3_of(from));
	dvec3 t = dvec3_normalize(dvec3_of(to));
	if ((f.x == 0.0 && f.y == 0.0 && f.z == 0.0) || (t.x == 0.0 && t.y == 0.0 && t.z == 0.0)) {
		return spring_quat_identity();
	}
	// The half-way rotation is (f x t, 1 + f.t), and 1 + f.t = |f + t|^2 / 2 without the
	// cancellation of 1 + f.t near anti-parallel.
	dvec3 sum = {f.x + t.x, f.y + t.y, f.z + t.z};
	double sum2 = dvec3_dot(sum, sum);
	if (sum2 < 1e-16) {
		// Within 1e-8 rad of anti-parallel, where f x t is mostly rounding: a half turn about
		// f x e, e the coordinate axis along f's smallest component (the first one on a tie).
		double ax = fabs(f.x), ay = fabs(f.y), az = fabs(f.z);
		dvec3 e = ax <= ay && ax <= az ? (dvec3){1.0, 0.0, 0.0} : ay <= az ? (dvec3){0.0, 1.0, 0.0} : (dvec3){0.0, 0.0, 1.0};
		dvec3 axis = dvec3_normalize(dvec3_cross(f, e));
		return quat_normalized_of((dquat){axis.x, axis.y, axis.z, 0.0});
	}
	dvec3 c = dvec3_cross(f, t);
	return quat_normalized_of((dquat){c.x, c.y, c.z, 0.5 * sum2});
}

spring_quat spring_quat_nlerp(spring_quat a, spring_quat b, float t)
{
	return spring_internal_quat_nlerp(a, b, t);
}

float spring_quat_angle(spring_quat q)
{
	double v = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z);
	return (float)(2.0 * spring_det_atan2(v, fabs((double)q.w)));
}

// ---------------------------------------------------------------------------------------------
// Transforms

spring_xform2 spring_xform2_identity(void)
{
	return (spring_xform2){{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}};
}

/// R(angle) (scale * d) in double.
static void xform2_linear(spring_xform2 t, spring_vec2 d, double *x, double *y)
{
	double s, c;
	spring_det_sincos(t.angle, &s, &c);
	double sx = (double)t.scale.x * d.x, sy = (double)t.scale.y * d.y;
	*x = sx * c - sy * s;
	*y = sx * s + sy * c;
}

spring_vec2 spring_xform2_apply(spring_xform2 t, spring_vec2 p)
{
	double x, y;
	xform2_linear(t, p, &x, &y);
	return (spring_vec2){(float)(t.position.x + x), (float)(t.position.y + y)};
}

spring_vec2 spring_xform2_apply_dir(spring_xform2 t, spring_vec2 d)
{
	double x, y;
	xform2_linear(t, d, &x, &y);
	return (spring_vec2){(float)x, (float)y};
}

spring_xform2 spring_xform2_mul(spring_xform2 parent, spring_xform2 local)
{
	spring_xform2 r;
	r.position = spring_xform2_apply(parent, local.position);
	r.angle = parent.angle + local.angle;
	r.scale = (spring_vec2){parent.scale.x * local.scale.x, parent.scale.y * local.scale.y};
	return r;
}

spring_xform3 spring_xform3_identity(void)
{
	return (spring_xform3){{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
}

spring_vec3 spring_xform3_apply(spring_xform3 t, spring_vec3 p)
{
	dvec3 r = dquat_rotate(dquat_of(t.rotation), dvec3_of(p));
	return (spring_vec3){(float)(t.position.x + r.x), (float)(t.position.y + r.y), (float)(t.position.z + r.z)};
}

spring_xform3 spring_xform3_mul(spring_xform3 parent, spring_xform3 local)
{
	spring_xform3 r;
	r.position = spring_xform3_apply(parent, local.position);
	r.rotation = spring_quat_mul(parent.rotation, local.rotation);
	return r;
}

spring_xform3 spring_xform3_inverse(spring_xform3 t)
{
	spring_xform3 r;
	r.rotation = spring_quat_conjugate(t.rotation);
	dvec3 p = dquat_rotate(dquat_of(r.rotation), dvec3_of(t.position));
	r.position = (spring_vec3){(float)-p.x, (float)-p.y, (float)-p.z};
	return r;
}
