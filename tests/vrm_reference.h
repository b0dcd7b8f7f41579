// SPDX-License-Identifier: MIT
// The VRM spring-bone reference: the specification's per-frame update (VRMC_springBone-1.0,
// "SpringBone algorithm"), written from its pseudo-code in double, independent of the library's
// own skeleton code, for the conformance tests. One step per frame with the frame's dt, root to
// tip; with `measured_length` the bone length is re-measured every frame from the tail node's
// world position as it stood before the joint's update (three-vrm 3.5.5), else constant from
// the rest pose (the specification, UniVRM).
#ifndef SPRING_TEST_VRM_REFERENCE_H
#define SPRING_TEST_VRM_REFERENCE_H

#include "spring/skeleton.h"

#include <stdbool.h>

/// A local transform in double (the motion sampler's: tools/io/vrm_internal.h has the same
/// layout).
typedef struct vrm_ref_local {
	double t[3];
	double q[4];
} vrm_ref_local;

typedef struct vrm_reference vrm_reference;

/// NULL when out of memory; `d` must be valid (spring_skeleton_validate).
vrm_reference *vrm_reference_create(const spring_skeleton_desc *d, bool measured_length);
void vrm_reference_destroy(vrm_reference *r);

/// Every bone at rest under the pose: the model root's transform and every node's local
/// translation and rotation (joints' own rotations are ignored: they start at rest).
void vrm_reference_reset(vrm_reference *r, const vrm_ref_local *root, const vrm_ref_local *locals);

/// One frame: the pose, then each bone stepped once with `dt` (nothing when dt <= 0).
void vrm_reference_update(vrm_reference *r, const vrm_ref_local *root, const vrm_ref_local *locals, double dt);

/// Bones: every joint with a tail, springs in order, each spring's joints in order.
int vrm_reference_bone_count(const vrm_reference *r);
/// Bone `b`: its joint's node, that node's local rotation, and the tail's world position.
void vrm_reference_bone(const vrm_reference *r, int b, int *node, double q[4], double tail[3]);

/// Bone `b`'s length at rest (world units).
double vrm_reference_rest_length(const vrm_reference *r, int b);

#endif
