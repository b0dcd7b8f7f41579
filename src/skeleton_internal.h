// SPDX-License-Identifier: MIT
// Spring skeletons: the rest transforms of the node tree, in double (spring/skeleton.h).
#ifndef SPRING_SKELETON_INTERNAL_H
#define SPRING_SKELETON_INTERNAL_H

#include "spring/skeleton.h"

/// An affine transform, row-major 3x4: p' = M[0..2] p + M[3] per row (m[3], m[7], m[11]: the
/// translation).
typedef struct spring_internal_affine {
	double m[12];
} spring_internal_affine;

/// A node's rest rotation as a unit quaternion in double (all zero: identity) and its rest scale
/// (all zero: 1, 1, 1).
void spring_internal_skeleton_node_rotation(const spring_skeleton_node *node, double q[4]);
void spring_internal_skeleton_node_scale(const spring_skeleton_node *node, double s[3]);

/// translation * rotation (unit quaternion x, y, z, w) * scale.
spring_internal_affine spring_internal_affine_compose(const double t[3], const double q[4], const double s[3]);

/// The inverse of the linear part (row-major 3x3) and the whole affine inverse.
void spring_internal_affine_inverse3(const spring_internal_affine *a, double inv[9]);
spring_internal_affine spring_internal_affine_inverse(const spring_internal_affine *a);

/// translation * rotation * scale of a node at rest, in its parent's space.
spring_internal_affine spring_internal_skeleton_rest_local(const spring_skeleton_node *node);

/// The node's rest transform in the model's space (the model root at identity), for a validated
/// tree (at most SPRING_SKELETON_MAX_DEPTH ancestors are followed).
spring_internal_affine spring_internal_skeleton_rest_world(const spring_skeleton_node *nodes, int node);

spring_internal_affine spring_internal_affine_mul(const spring_internal_affine *a, const spring_internal_affine *b);
void spring_internal_affine_point(const spring_internal_affine *a, double x, double y, double z, double out[3]);

#endif
