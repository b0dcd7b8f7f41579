// SPDX-License-Identifier: MIT
// Private: math.c's normalisation and interpolation rules (double precision, rounded to float
// once) as inline functions, so that loops over many transforms (the tip chains' roots) run them
// without a call per value. math.c's public functions are these; the results are the same bits.
#ifndef SPRING_MATH_INTERNAL_H
#define SPRING_MATH_INTERNAL_H

#include "spring/math.h"

#include <math.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/// (x, y, z, w) normalised in double and rounded to float; a zero quaternion gives the identity.
static inline spring_quat spring_internal_quat_normalize_d(double x, double y, double z, double w)
{
	double length = sqrt(x * x + y * y + z * z + w * w);
	if (length == 0.0) {
		return (spring_quat){0.0f, 0.0f, 0.0f, 1.0f};
	}
	return (spring_quat){(float)(x / length), (float)(y / length), (float)(z / length), (float)(w / length)};
}

/// spring_quat_normalize.
static inline spring_quat spring_internal_quat_normalize(spring_quat q)
{
	return spring_internal_quat_normalize_d(q.x, q.y, q.z, q.w);
}

/// spring_quat_nlerp: the shorter way from a to b at t, normalised.
static inline spring_quat spring_internal_quat_nlerp(spring_quat a, spring_quat b, float t)
{
	double px = a.x, py = a.y, pz = a.z, pw = a.w, qx = b.x, qy = b.y, qz = b.z, qw = b.w;
	if (px * qx + py * qy + pz * qz + pw * qw < 0.0) {
		qx = -qx; // same rotation, shorter path
		qy = -qy;
		qz = -qz;
		qw = -qw;
	}
	double dt = t;
	return spring_internal_quat_normalize_d(px + (qx - px) * dt, py + (qy - py) * dt, pz + (qz - pz) * dt, pw + (qw - pw) * dt);
}

/// spring_vec3_lerp.
static inline spring_vec3 spring_internal_vec3_lerp(spring_vec3 a, spring_vec3 b, float t)
{
	double dt = t;
	return (spring_vec3){(float)(a.x + ((double)b.x - a.x) * dt), (float)(a.y + ((double)b.y - a.y) * dt),
	                     (float)(a.z + ((double)b.z - a.z) * dt)};
}

#endif
