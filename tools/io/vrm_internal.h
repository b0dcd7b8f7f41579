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

/// The frame times of a VRM run (`spring verify`, the conformance tests): `fps` > 0 regular
/// frames (times i / fps for i = 1 .. round(duration fps)), 0 a jittery clock (frames of 4 to
/// 45 ms from a fixed seed, until `duration` is reached). times[i] is the end of frame i; returns
/// the frame count (at most `max`).
int spring_vrm_frame_times(double fps, double duration, double *times, int max);

#endif
