// SPDX-License-Identifier: MIT
// Private declarations shared between the library's sources (and white-box tests).
#ifndef SPRING_INTERNAL_H
#define SPRING_INTERNAL_H

#include "spring/spring.h"

#include <float.h>

/// The scale-free rates every computation runs on: w2 = k/m (omega_n^2, 1/s^2) and gamma = c/m
/// (1/s), in double. For valid params both are in float range (spring_params_validate).
static inline double spring_internal_w2(spring_params p)
{
	return (double)p.stiffness / (double)p.mass;
}
static inline double spring_internal_gamma(spring_params p)
{
	return (double)p.damping / (double)p.mass;
}

/// A query's double result as a float: beyond float range it saturates at FLT_MAX (never inf).
static inline float spring_internal_saturate(double x)
{
	return x >= (double)FLT_MAX ? FLT_MAX : (float)x;
}

/// Exact transition of e = x - target over time t for w2 = k/m, gamma = c/m:
/// e' = pp e + pv v, v' = vp e + vv v. Continuous across critical damping, finite for any t.
typedef struct spring_transition {
	double pp, pv, vp, vv;
} spring_transition;
void spring_transition_compute(double w2, double gamma, double t, spring_transition *tr);

/// For zeta >= 1: the u with gap(u) = gap for a unit move from rest with omega_n = 1.
double spring_solve_unit_gap(double zeta, double gap);

/// `d` radians folded onto (-pi, pi] in double (fmod is exact) and rounded to float inside the
/// interval: the one angle fold behind spring_angle_wrap/delta/lerp and the chains.
float spring_internal_angle_fold(double d);

/// A clock read from a snapshot, against the live object's: NULL when it is one spring_clock_advance
/// could have left (the same step and cap, carried time in range with the accumulator and alpha
/// advance derives from it, the rest finite and in range), else the reason.
const char *spring_internal_clock_check(const spring_clock *live, const spring_clock *c);

#endif
