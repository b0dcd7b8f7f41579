// SPDX-License-Identifier: MIT
// The pivot path's timeline and a placement's path (chain2d.c, "The pivot's path"), apart from the
// angle chains' lane arithmetic so that the rig can hold a path (not installed).
#ifndef SPRING_PATH_INTERNAL_H
#define SPRING_PATH_INTERNAL_H

#include "spring/spring.h"

#include "base_internal.h"

#include <stdbool.h>

/// The pivot path's clock (chain2d.c, "The pivot's path"): the times of its knots (the ends of
/// frames at least a step after the knot before) and of its last step. A group of chains shares
/// one, since its chains are given the same frame times; the knots' positions are per chain.
typedef struct spring_chain2d_timeline {
	double gap[3];     // s between consecutive knots, newest first
	int count;         // knots 1..4 (the path is a polynomial of degree count - 1)
	double elapsed;    // s from the newest knot to the end of the last frame (< step)
	double pivot_time; // s, the last step's time relative to the newest knot (<= 0 after a knot)
	double node[2];    // s, the times of the two knots before the newest (negative)
	float recip[6];    // 1/s: 1/g0, 1/g1, 1/g2, 1/(g0 + g1), 1/(g1 + g2), 1/(g0 + g1 + g2); 0 past count
} spring_chain2d_timeline;

/// A placement's path through the roots of its frames' ends (position and angle): the pivot's
/// path (chain2d.c, "The pivot's path") with its timeline, its weighted cubic and its hitches, and
/// no cap. A rig moves its placement along it between its frames' roots, so that its chains feel
/// the smooth motion a stand-alone chain's pivot path makes of the same roots, not one straight
/// line a frame (whose kinks a chain feels as jolts at the frames' ends).
typedef struct spring_chain2d_path {
	spring_chain2d_timeline time;
	spring_xform2 knot; // the root at the newest knot (cleaned)
	float d[6];         // the position's displacements between the knots (x y pairs, newest first)
	float coef[6];      // the Newton coefficients of the path through them (K(fit))
	float turn_d[6];    // the same of the angle (the shortest turns; pairs of the turn and 0)
	float turn_coef[6];
} spring_chain2d_path;

/// The path standing at `at` (clean), one knot.
void spring_chain2d_internal_path_restart(spring_chain2d_path *p, spring_xform2 at);
/// A frame of `frame_dt` with `steps` steps of `clock` ending at root `to` (clean): the timeline
/// advanced, a knot at `to` when the frame makes one. Returns the frame's start relative to the
/// newest knot (a step at fraction f of the frame is at begin + f frame_dt).
double spring_chain2d_internal_path_frame(spring_chain2d_path *p, double frame_dt, int steps, const spring_clock *clock,
                                          spring_xform2 to);
/// The path's root at `tau` s after its newest knot (tau <= 0: inside the last frame); its scale
/// is the knot's.
spring_xform2 spring_chain2d_internal_path_at(spring_chain2d_path *p, double tau);
/// Whether a timeline is one frames leave (the knots' gaps, their fit) with a clock of `step`.
bool spring_chain2d_internal_timeline_valid(const spring_chain2d_timeline *t, float step);
/// Whether a path is one frames leave with a clock of `step`, its positions' displacements within
/// `max_d` (the knot itself is the caller's to check).
bool spring_chain2d_internal_path_valid(const spring_chain2d_path *p, float step, float max_d);

#endif
