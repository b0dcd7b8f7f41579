// Private declarations shared between the library's sources (and white-box tests).
#ifndef SPRING_INTERNAL_H
#define SPRING_INTERNAL_H

#include "spring/spring.h"

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

#endif
