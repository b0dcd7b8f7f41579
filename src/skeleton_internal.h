// SPDX-License-Identifier: MIT
// Spring skeletons: the rest transforms of the node tree, in double, on lanes (skeleton_lanes.h).
#ifndef SPRING_SKELETON_INTERNAL_H
#define SPRING_SKELETON_INTERNAL_H

#include "spring/skeleton.h"

#include "skeleton_lanes.h"

/// A node's rest rotation as a unit quaternion in double (all zero: identity) and its rest scale
/// (all zero: 1, 1, 1).
void spring_internal_skeleton_node_rotation(const spring_skeleton_node *node, double q[4]);
void spring_internal_skeleton_node_scale(const spring_skeleton_node *node, double s[3]);

/// The node's rest matrix in the model's space (the model root at identity), made root first as
/// the runtime makes it, for a validated tree (at most SPRING_SKELETON_MAX_DEPTH ancestors).
void spring_internal_skeleton_rest_world(const spring_skeleton_node *nodes, int node, lmat *out);

#endif
