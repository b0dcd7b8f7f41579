// SPDX-License-Identifier: MIT
// What the VRM reader's files share with the tests and the command line (not installed).
#ifndef SPRING_VRM_INTERNAL_H
#define SPRING_VRM_INTERNAL_H

#include <spring/vrm.h>

/// A local transform in double: translation and unit rotation (x, y, z, w).
typedef struct spring_vrm_local_d {
	double t[3];
	double q[4];
} spring_vrm_local_d;

/// spring_vrm_motion_sample in double, unrounded (the conformance oracle's input): `root` and
/// `locals[0..node_count)`.
spring_result spring_vrm_motion_sample_d(const spring_vrm_motion *motion, double t, spring_vrm_local_d *root,
                                         spring_vrm_local_d *locals, int capacity);

/// The motion's tracked node (-1: the model root) of track `track`; the number of tracks.
int spring_vrm_motion_track_count(const spring_vrm_motion *motion);
int spring_vrm_motion_track_node(const spring_vrm_motion *motion, int track);

#endif
