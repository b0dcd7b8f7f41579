// Private declarations shared between the library's sources (and white-box tests).
#ifndef SPRING_INTERNAL_H
#define SPRING_INTERNAL_H

/// Exact transition of e = x - target over time t for w2 = k/m, gamma = c/m:
/// e' = pp e + pv v, v' = vp e + vv v. Continuous across critical damping, finite for any t.
typedef struct spring_transition { double pp, pv, vp, vv; } spring_transition;
void spring_transition_compute(double w2, double gamma, double t, spring_transition *tr);

/// For zeta >= 1: the u with gap(u) = gap for a unit move from rest with omega_n = 1.
double spring_solve_unit_gap(double zeta, double gap);

/// The test behind spring_is_finite, inline for loops over many floats: x - x is 0 for a finite x
/// and NaN for an infinity or a NaN, and every comparison with NaN is false.
static inline int spring_internal_finite(float x)
{
	return (x - x) == 0.0f;
}

/// 1 when all n floats at `a` are finite.
static inline int spring_internal_all_finite(const float *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (!spring_internal_finite(a[i])) {
			return 0;
		}
	}
	return 1;
}

#endif
