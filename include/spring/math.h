// SPDX-License-Identifier: MIT
/// @file math.h
/// Value-type maths used by the chains and the rig: 2D/3D vectors, quaternions and rigid
/// transforms. Everything is passed and returned by value. Degenerate input returns something
/// safe and documented (normalising a zero vector gives the zero vector).
/// Trigonometry goes through the library's deterministic functions (base.h).
#ifndef SPRING_MATH_H
#define SPRING_MATH_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spring_vec2 {
	float x, y;
} spring_vec2;
typedef struct spring_vec3 {
	float x, y, z;
} spring_vec3;
/// Unit quaternion (x, y, z vector part, w scalar part). Identity is {0, 0, 0, 1}.
typedef struct spring_quat {
	float x, y, z, w;
} spring_quat;
/// 2D rigid transform with uniform-or-not scale: p' = position + R(angle) * (scale * p).
typedef struct spring_xform2 {
	spring_vec2 position;
	float angle;
	spring_vec2 scale;
} spring_xform2;
/// 3D rigid transform: p' = position + rotation * p (no scale).
typedef struct spring_xform3 {
	spring_vec3 position;
	spring_quat rotation;
} spring_xform3;

/// 2D vector operations, by value.
SPRING_API spring_vec2 spring_vec2_make(float x, float y);
SPRING_API spring_vec2 spring_vec2_add(spring_vec2 a, spring_vec2 b);
SPRING_API spring_vec2 spring_vec2_sub(spring_vec2 a, spring_vec2 b);
SPRING_API spring_vec2 spring_vec2_scale(spring_vec2 a, float s);
SPRING_API spring_vec2 spring_vec2_lerp(spring_vec2 a, spring_vec2 b, float t);
SPRING_API float spring_vec2_dot(spring_vec2 a, spring_vec2 b);
SPRING_API float spring_vec2_cross(spring_vec2 a, spring_vec2 b); ///< z of the 3D cross product
SPRING_API float spring_vec2_length(spring_vec2 a);
SPRING_API spring_vec2 spring_vec2_normalize(spring_vec2 a);           ///< zero in, zero out
SPRING_API spring_vec2 spring_vec2_rotate(spring_vec2 a, float angle); ///< counter-clockwise, radians
SPRING_API bool spring_vec2_is_finite(spring_vec2 a);

/// 3D vector operations, by value.
SPRING_API spring_vec3 spring_vec3_make(float x, float y, float z);
SPRING_API spring_vec3 spring_vec3_add(spring_vec3 a, spring_vec3 b);
SPRING_API spring_vec3 spring_vec3_sub(spring_vec3 a, spring_vec3 b);
SPRING_API spring_vec3 spring_vec3_scale(spring_vec3 a, float s);
SPRING_API spring_vec3 spring_vec3_lerp(spring_vec3 a, spring_vec3 b, float t);
SPRING_API float spring_vec3_dot(spring_vec3 a, spring_vec3 b);
SPRING_API spring_vec3 spring_vec3_cross(spring_vec3 a, spring_vec3 b);
SPRING_API float spring_vec3_length(spring_vec3 a);
SPRING_API spring_vec3 spring_vec3_normalize(spring_vec3 a); ///< zero in, zero out
SPRING_API bool spring_vec3_is_finite(spring_vec3 a);

/// Unit quaternions (rotations), by value.
SPRING_API spring_quat spring_quat_identity(void);
SPRING_API spring_quat spring_quat_from_axis_angle(spring_vec3 axis,
                                                   float angle); ///< axis need not be unit; zero axis gives identity
SPRING_API spring_quat
spring_quat_mul(spring_quat a, spring_quat b); ///< Hamilton product a * b: rotating by the result rotates by b first, then by a
SPRING_API spring_quat spring_quat_conjugate(spring_quat q);
SPRING_API spring_quat spring_quat_normalize(spring_quat q); ///< zero in, identity out
SPRING_API spring_vec3 spring_quat_rotate(spring_quat q, spring_vec3 v);
/// Shortest-arc rotation taking direction `from` onto direction `to` (neither need be unit).
/// Parallel gives identity; anti-parallel gives a half turn about an axis perpendicular to `from`;
/// a zero vector gives identity.
SPRING_API spring_quat spring_quat_from_to(spring_vec3 from, spring_vec3 to);
SPRING_API spring_quat spring_quat_nlerp(spring_quat a, spring_quat b, float t); ///< shortest path, normalised
SPRING_API float spring_quat_angle(spring_quat q);                               ///< rotation angle in [0, pi]

/// Transforms: identity, applying to points and directions, composing.
SPRING_API spring_xform2 spring_xform2_identity(void);
SPRING_API spring_vec2 spring_xform2_apply(spring_xform2 t, spring_vec2 p);            ///< point
SPRING_API spring_vec2 spring_xform2_apply_dir(spring_xform2 t, spring_vec2 d);        ///< direction (no translation)
SPRING_API spring_xform2 spring_xform2_mul(spring_xform2 parent, spring_xform2 local); ///< parent * local
SPRING_API spring_xform3 spring_xform3_identity(void);
SPRING_API spring_vec3 spring_xform3_apply(spring_xform3 t, spring_vec3 p);
SPRING_API spring_xform3 spring_xform3_mul(spring_xform3 parent, spring_xform3 local);
/// Inverse of a rigid transform, computed with the conjugate (no matrix inverse).
SPRING_API spring_xform3 spring_xform3_inverse(spring_xform3 t);

#ifdef __cplusplus
}
#endif
#endif
