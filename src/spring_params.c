// SPDX-License-Identifier: MIT
// Spring parameters: every parameterisation the library offers (all converted to stiffness,
// damping and mass, and checked by spring.c's spring_params_validate) and the queries that read a
// spring's character back out of them (damping ratio, frequency, duration, bounce, overshoot,
// settling and half-life).
//
// Coefficients are computed in double with the library's own transcendental functions, so they
// are bit-identical across compilers.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/spring.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define TWO_PI (2.0 * SPRING_PI)
#define LN2 0.69314718055994530942

// ---------------------------------------------------------------------------------------------
// Validation helpers

static int finite_d(double x)
{
	return (x - x) == 0.0;
}

// Writes a mass-1 spring from (k, c) computed in double, after checking it is a valid float spring.
static spring_result make_params(double stiffness, double damping, double mass, spring_params *out)
{
	if (!finite_d(stiffness) || !finite_d(damping) || !finite_d(mass)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_params p = {(float)stiffness, (float)damping, (float)mass};
	spring_result r = spring_params_validate(p);
	if (r != SPRING_OK) {
		return r == SPRING_ERROR_NOT_FINITE ? SPRING_ERROR_OUT_OF_RANGE : r;
	}
	*out = p;
	return SPRING_OK;
}

// mass-1 spring from natural frequency (rad/s) and damping ratio.
static spring_result make_from_omega(double omega, double zeta, spring_params *out)
{
	return make_params(omega * omega, 2.0 * zeta * omega, 1.0, out);
}

// ---------------------------------------------------------------------------------------------
// Parameterisations

spring_result spring_params_from_physical(float mass, float stiffness, float damping, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_params p = {stiffness, damping, mass};
	spring_result r = spring_params_validate(p);
	if (r == SPRING_OK) {
		*out = p;
	}
	return r;
}

spring_result spring_params_from_frequency(float hertz, float damping_ratio, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(hertz) || !spring_is_finite(damping_ratio)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(hertz > 0.0f) || !(damping_ratio >= 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return make_from_omega(TWO_PI * (double)hertz, (double)damping_ratio, out);
}

spring_params spring_params_default(void)
{
	spring_params p = {0.0f, 0.0f, 0.0f};
	spring_result r = spring_params_from_frequency(SPRING_DEFAULT_HERTZ, SPRING_DEFAULT_DAMPING_RATIO, &p);
	SPRING_ASSERT(r == SPRING_OK);
	(void)r;
	return p;
}

// SwiftUI's bounce -> damping ratio. Caller checked bounce is in (-1, 1].
static double zeta_from_bounce(double bounce)
{
	return bounce >= 0.0 ? 1.0 - bounce : 1.0 / (1.0 + bounce);
}

static spring_result check_bounce(float bounce)
{
	if (!spring_is_finite(bounce)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return (bounce > -1.0f && bounce <= 1.0f) ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

// The arguments of a (duration, bounce) form: an output, a finite duration > 0, a valid bounce
// (in that order of errors).
static spring_result check_duration_bounce(float duration, float bounce, const spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(duration)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_result r = check_bounce(bounce);
	if (r != SPRING_OK) {
		return r;
	}
	return duration > 0.0f ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

spring_result spring_params_from_duration_bounce(float duration, float bounce, spring_params *out)
{
	spring_result r = check_duration_bounce(duration, bounce, out);
	if (r != SPRING_OK) {
		return r;
	}
	return make_from_omega(TWO_PI / (double)duration, zeta_from_bounce((double)bounce), out);
}

spring_result spring_params_from_response(float response, float damping_fraction, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(response) || !spring_is_finite(damping_fraction)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(response > 0.0f) || !(damping_fraction >= 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return make_from_omega(TWO_PI / (double)response, (double)damping_fraction, out);
}

// Gap e(u) of a unit move from rest for a spring with omega_n = 1 and ratio zeta, at time u.
static double unit_step_gap(double zeta, double u)
{
	spring_transition tr;
	spring_transition_compute(1.0, 2.0 * zeta, u, &tr);
	return tr.pp;
}

// For zeta >= 1 (gap decreasing monotonically from 1 to 0): the u with unit_step_gap(zeta, u) = gap.
double spring_solve_unit_gap(double zeta, double gap)
{
	double hi = 1.0;
	while (unit_step_gap(zeta, hi) > gap && hi < 1e300) {
		hi *= 2.0;
	}
	double lo = 0.0;
	for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (unit_step_gap(zeta, mid) > gap) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	return 0.5 * (lo + hi);
}

spring_result spring_params_from_settling(float settling_duration, float damping_ratio, float epsilon, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(settling_duration) || !spring_is_finite(damping_ratio) || !spring_is_finite(epsilon)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(settling_duration > 0.0f) || !(damping_ratio > 0.0f) || !(epsilon > 0.0f && epsilon < 1.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	double zeta = (double)damping_ratio, eps = (double)epsilon, t = (double)settling_duration;
	double omega;
	if (zeta < 1.0) {
		double a = zeta / (eps * sqrt((1.0 - zeta) * (1.0 + zeta)));
		if (!(a > 1.0)) {
			return SPRING_ERROR_NO_SOLUTION;
		}
		omega = spring_det_log(a) / (zeta * t);
	} else {
		omega = spring_solve_unit_gap(zeta, eps) / t;
	}
	return make_from_omega(omega, zeta, out);
}

// Motion's overdamped frequency scale: u / f where the overdamped unit step at u has as far left
// to go as the critically damped one at f = 2 pi / 1.2.
static double visual_overdamped_u(double zeta)
{
	double f = TWO_PI / 1.2;
	return spring_solve_unit_gap(zeta, unit_step_gap(1.0, f));
}

spring_result spring_params_from_visual_duration(float visual_duration, float bounce, spring_params *out)
{
	spring_result r = check_duration_bounce(visual_duration, bounce, out);
	if (r != SPRING_OK) {
		return r;
	}
	double zeta = zeta_from_bounce((double)bounce);
	double v = (double)visual_duration;
	double omega = zeta <= 1.0 ? TWO_PI / (1.2 * v) : visual_overdamped_u(zeta) / v;
	return make_from_omega(omega, zeta, out);
}

// u with (1 + u) exp(-u) = 1/2: the critically damped unit step is half way at omega_n t = u.
static double half_life_u(void)
{
	return spring_solve_unit_gap(1.0, 0.5);
}

spring_result spring_params_from_half_life(float half_life, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(half_life)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(half_life > 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return make_from_omega(half_life_u() / (double)half_life, 1.0, out);
}

spring_result spring_params_from_tension_friction(float tension, float friction, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(tension) || !spring_is_finite(friction)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(tension > 0.0f) || !(friction >= 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return make_params((double)tension, (double)friction, 1.0, out);
}

spring_result spring_params_from_origami(float origami_tension, float origami_friction, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(origami_tension) || !spring_is_finite(origami_friction)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	double k = ((double)origami_tension - 30.0) * 3.62 + 194.0;
	double c = ((double)origami_friction - 8.0) * 3.0 + 25.0;
	if (!(k > 0.0) || !(c >= 0.0)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return make_params(k, c, 1.0, out);
}

void spring_params_to_origami(spring_params p, float *origami_tension, float *origami_friction)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return;
	}
	double k = spring_internal_w2(p), c = spring_internal_gamma(p);
	if (origami_tension) {
		*origami_tension = (float)((k - 194.0) / 3.62 + 30.0);
	}
	if (origami_friction) {
		*origami_friction = (float)((c - 25.0) / 3.0 + 8.0);
	}
}

// The arguments of both per-frame readings: an output, finite values, stiffness > 0, damping in
// (0, 1], fps > 0.
static spring_result check_per_frame(float stiffness_per_frame, float damping_per_frame, float fps, const spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(stiffness_per_frame) || !spring_is_finite(damping_per_frame) || !spring_is_finite(fps)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(stiffness_per_frame > 0.0f) || !(damping_per_frame > 0.0f && damping_per_frame <= 1.0f) || !(fps > 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

spring_result spring_params_from_per_frame_exact(float stiffness_per_frame, float damping_per_frame, float fps,
                                                 spring_params *out)
{
	spring_result checked = check_per_frame(stiffness_per_frame, damping_per_frame, fps, out);
	if (checked != SPRING_OK) {
		return checked;
	}
	// One frame maps (e, u) with u in units per frame through A = [[1 - d s, d], [-d s, d]]:
	// trace 1 - d s + d, determinant d. The time-based spring with the same eigenvalues over
	// h = 1/fps has exp(-c h) = d and, for a complex pair, cos(omega_d h) = trace / (2 sqrt d).
	double s = (double)stiffness_per_frame, d = (double)damping_per_frame, rate = (double)fps;
	double trace = 1.0 - d * s + d;
	double disc = trace * trace - 4.0 * d;
	if (disc < 0.0) {
		double cos_theta = trace / (2.0 * sqrt(d));
		double theta = spring_det_acos(cos_theta);
		double wd = theta * rate;
		double lambda = -0.5 * spring_det_log(d) * rate;
		return make_params(wd * wd + lambda * lambda, 2.0 * lambda, 1.0, out);
	}
	if (!(trace > 0.0)) {
		return SPRING_ERROR_NO_SOLUTION;
	}
	// Two positive real eigenvalues r1 >= r2: decay rates -ln(r) * fps; k = a1 a2, c = a1 + a2.
	double root = sqrt(disc);
	double r1 = 0.5 * (trace + root);
	double r2 = d / r1; // product of the roots is d; avoids cancellation
	double a1 = -spring_det_log(r1) * rate, a2 = -spring_det_log(r2) * rate;
	if (!(a1 > 0.0) || !(a2 > 0.0)) {
		return SPRING_ERROR_NO_SOLUTION;
	}
	return make_params(a1 * a2, a1 + a2, 1.0, out);
}

spring_result spring_params_from_per_frame(float stiffness_per_frame, float damping_per_frame, float fps, spring_params *out)
{
	spring_result checked = check_per_frame(stiffness_per_frame, damping_per_frame, fps, out);
	if (checked != SPRING_OK) {
		return checked;
	}
	// v_frame' = d (v_frame + s (t - x)), x' = x + v_frame' is v' = v (1 - c h) + k h (t - x),
	// x' = x + h v' with h = 1/fps, v = v_frame / h, k = d s / h^2, c = (1 - d) / h.
	double s = (double)stiffness_per_frame, d = (double)damping_per_frame, rate = (double)fps;
	if (d * s + 2.0 * (1.0 - d) >= 4.0) {
		return SPRING_ERROR_UNSTABLE;
	}
	spring_params p;
	spring_result r = make_params(d * s * rate * rate, (1.0 - d) * rate, 1.0, &p);
	if (r != SPRING_OK) {
		return r;
	}
	if (!spring_semi_implicit_is_stable(p, (float)(1.0 / rate))) {
		return SPRING_ERROR_UNSTABLE; // on the boundary after rounding to float
	}
	*out = p;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Queries

static double zeta_d(spring_params p)
{
	return (double)p.damping / (2.0 * sqrt((double)p.stiffness * (double)p.mass));
}

float spring_damping_ratio(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return spring_internal_saturate(zeta_d(p));
}

float spring_natural_frequency(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return (float)sqrt(spring_internal_w2(p));
}

float spring_frequency_hz(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return (float)(sqrt(spring_internal_w2(p)) / TWO_PI);
}

float spring_duration(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return (float)(TWO_PI / sqrt(spring_internal_w2(p)));
}

float spring_bounce(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	double z = zeta_d(p);
	return (float)(z <= 1.0 ? 1.0 - z : 1.0 / z - 1.0);
}

float spring_visual_duration(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	double z = zeta_d(p);
	double wn = sqrt(spring_internal_w2(p));
	return spring_internal_saturate(z <= 1.0 ? TWO_PI / (1.2 * wn) : visual_overdamped_u(z) / wn);
}

float spring_overshoot(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	double z = zeta_d(p);
	if (z >= 1.0) {
		return 0.0f;
	}
	return (float)spring_det_exp(-SPRING_PI * z / sqrt((1.0 - z) * (1.0 + z)));
}

// Gap and its velocity at time t for the motion starting at gap e0 with velocity v0.
static double gap_at(double w2, double g, double e0, double v0, double t, double *vel)
{
	spring_transition tr;
	spring_transition_compute(w2, g, t, &tr);
	if (vel) {
		*vel = tr.vp * e0 + tr.vv * v0;
	}
	return tr.pp * e0 + tr.pv * v0;
}

// Last time in [a, b] where |e| = eps, given e monotone on [a, b], |e(a)| > eps >= |e(b)|.
static double last_crossing_in(double w2, double g, double e0, double v0, double a, double b, double eps)
{
	double ea = gap_at(w2, g, e0, v0, a, NULL);
	double eb = gap_at(w2, g, e0, v0, b, NULL);
	if ((ea > 0.0) != (eb > 0.0) && eb != 0.0) {
		// e passes through zero inside: |e| is monotone only up to that zero.
		double lo = a, hi = b;
		for (int i = 0; i < 200 && lo < hi; i++) {
			double mid = 0.5 * (lo + hi);
			if (mid <= lo || mid >= hi) {
				break;
			}
			double em = gap_at(w2, g, e0, v0, mid, NULL);
			if ((em > 0.0) == (ea > 0.0) && em != 0.0) {
				lo = mid;
			} else {
				hi = mid;
			}
		}
		b = hi;
	}
	double lo = a, hi = b;
	for (int i = 0; i < 200 && lo < hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi) {
			break;
		}
		if (fabs(gap_at(w2, g, e0, v0, mid, NULL)) > eps) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	return 0.5 * (lo + hi);
}

// Exact last time |e(t)| = eps (the core of spring_settling_time), in double.
static double settling_exact(double w2, double g, double e0, double v0, double eps)
{
	if (e0 == 0.0 && v0 == 0.0) {
		return 0.0;
	}
	if (g == 0.0) {
		double amplitude = sqrt(e0 * e0 + v0 * v0 / w2);
		return amplitude <= eps ? 0.0 : INFINITY;
	}
	double lambda = 0.5 * g;
	double wn = sqrt(w2);
	double d = (wn - lambda) * (wn + lambda);
	if (d > 0.0) {
		// Underdamped: extrema of e are exactly pi/omega_d apart and shrink by r each time.
		double wd = sqrt(d);
		double bound = fabs(e0) + fabs(v0 + lambda * e0) / wd; // |e(t)| <= E(t) * bound
		if (bound <= eps) {
			return 0.0;
		}
		double tb = spring_det_log(bound / eps) / lambda; // |e| < eps from here on
		double half = SPRING_PI / wd;
		double theta0 = spring_det_atan2(v0 * wd, w2 * e0 + lambda * v0);
		if (theta0 < 0.0) {
			theta0 += SPRING_PI;
		}
		double t0 = theta0 / wd; // first extremum at t > 0 (or 0 when v0 = 0)
		if (t0 >= tb) {
			// No extremum before the envelope bound: e is monotone on [0, tb].
			return fabs(e0) > eps ? last_crossing_in(w2, g, e0, v0, 0.0, tb, eps) : 0.0;
		}
		double peak0 = fabs(gap_at(w2, g, e0, v0, t0, NULL));
		double log_r = lambda * half; // -ln of the ratio between successive extrema
		double kf = peak0 > eps ? floor(spring_det_log(peak0 / eps) / log_r) : -1.0;
		double kmax = floor((tb - t0) / half) + 1.0;
		if (kf > kmax) {
			kf = kmax;
		}
		// Verify around the estimate with real evaluations. Rounding in the log and in k * half
		// (which drifts from the true extremum by k ulps of pi) can put the true answer a few
		// extrema earlier when the damping is extremely light; past the search window the
		// envelope bound is returned (an upper bound, never an underestimate).
		if (kf > 1e15) {
			return tb; // k * half no longer resolves single extrema
		}
		for (double k = kf + 1.0; k >= 0.0 && k >= kf - 4096.0; k -= 1.0) {
			double tk = t0 + k * half;
			if (fabs(gap_at(w2, g, e0, v0, tk, NULL)) > eps) {
				return last_crossing_in(w2, g, e0, v0, tk, tk + half, eps);
			}
		}
		if (kf > 4096.0) {
			return tb;
		}
		return fabs(e0) > eps ? last_crossing_in(w2, g, e0, v0, 0.0, t0, eps) : 0.0;
	}
	// Critically or overdamped: e = c1 exp(-s t) + c2 exp(-f t) has at most one zero and one
	// extremum, both found in closed form (the critical formulas when the two rates nearly meet).
	// After both, |e| decreases monotonically to 0.
	double t_zero = -1.0, t_ext = -1.0;
	double mu = sqrt(-d);
	if (mu > 1e-6 * lambda) {
		double fast = lambda + mu, slow = w2 / fast;
		double c1 = (fast * e0 + v0) / (fast - slow), c2 = -(slow * e0 + v0) / (fast - slow);
		if (c1 != 0.0) {
			double rz = -c2 / c1, re = -fast * c2 / (slow * c1);
			t_zero = rz > 1.0 ? spring_det_log(rz) / (fast - slow) : -1.0;
			t_ext = re > 1.0 ? spring_det_log(re) / (fast - slow) : -1.0;
		}
	} else {
		double a = e0, b = v0 + lambda * e0;
		if (b != 0.0) {
			t_zero = -a / b;
			t_ext = 1.0 / lambda - a / b;
		}
	}
	double tb = fmax(fmax(t_zero, t_ext), 0.0) + 1.0 / lambda;
	for (int i = 0; i < 1100 && fabs(gap_at(w2, g, e0, v0, tb, NULL)) >= eps && tb < 1e300; i++) {
		tb *= 2.0;
	}
	if (t_ext > 0.0 && t_ext < tb) {
		if (fabs(gap_at(w2, g, e0, v0, t_ext, NULL)) > eps) {
			return last_crossing_in(w2, g, e0, v0, t_ext, tb, eps);
		}
		return fabs(e0) > eps ? last_crossing_in(w2, g, e0, v0, 0.0, t_ext, eps) : 0.0;
	}
	return fabs(e0) > eps ? last_crossing_in(w2, g, e0, v0, 0.0, tb, eps) : 0.0;
}

static int settling_args_ok(spring_params p, float distance, float velocity, float epsilon)
{
	return spring_params_validate(p) == SPRING_OK && spring_is_finite(distance) && spring_is_finite(velocity) &&
	       spring_is_finite(epsilon) && epsilon > 0.0f;
}

float spring_settling_time(spring_params p, float distance, float velocity, float epsilon)
{
	if (!settling_args_ok(p, distance, velocity, epsilon)) {
		return 0.0f;
	}
	double t = settling_exact(spring_internal_w2(p), spring_internal_gamma(p), -(double)distance, (double)velocity,
	                          (double)epsilon);
	return t == INFINITY ? INFINITY : spring_internal_saturate(t); // +inf only when undamped
}

float spring_settling_duration(spring_params p, float distance, float velocity, float epsilon)
{
	if (!settling_args_ok(p, distance, velocity, epsilon)) {
		return 0.0f;
	}
	double z = zeta_d(p);
	if (z >= 1.0 || p.damping == 0.0f) {
		return spring_settling_time(p, distance, velocity, epsilon);
	}
	// SwiftUI's estimate: ln((|lambda d - v0| + |d|) / eps) / lambda.
	double lambda = 0.5 * spring_internal_gamma(p);
	double dd = (double)distance, v0 = (double)velocity;
	double a = (fabs(lambda * dd - v0) + fabs(dd)) / (double)epsilon;
	if (!(a > 1.0)) {
		return 0.0f;
	}
	return spring_internal_saturate(spring_det_log(a) / lambda);
}

float spring_half_life(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	double w2 = spring_internal_w2(p), g = spring_internal_gamma(p);
	// From rest the gap falls monotonically from 1 until the first extremum (pi/omega_d when
	// underdamped, never otherwise) and passes 0.5 before reaching 0.
	double hi = 1.0 / sqrt(w2);
	while (gap_at(w2, g, 1.0, 0.0, hi, NULL) > 0.5 && hi < 1e300) {
		hi *= 2.0;
	}
	double lo = 0.0;
	double lambda = 0.5 * g, d = w2 - lambda * lambda;
	if (d > 0.0 && hi > SPRING_PI / sqrt(d)) {
		hi = SPRING_PI / sqrt(d);
	}
	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi) {
			break;
		}
		if (gap_at(w2, g, 1.0, 0.0, mid, NULL) > 0.5) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	return spring_internal_saturate(0.5 * (lo + hi));
}

// ---------------------------------------------------------------------------------------------
// Compose / Flutter stiffness and damping ratio, Motion's duration, presets, reduced motion

spring_result spring_params_from_damping_ratio(float mass, float stiffness, float damping_ratio, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(mass) || !spring_is_finite(stiffness) || !spring_is_finite(damping_ratio)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(mass > 0.0f) || !(stiffness > 0.0f) || !(damping_ratio >= 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	double m = (double)mass, k = (double)stiffness;
	return make_params(k, 2.0 * (double)damping_ratio * sqrt(k * m), m, out);
}

// Motion's limits on a duration-defined spring: the duration in [0.01, 10] s, zeta in [0.05, 20].
#define MOTION_MIN_DURATION 0.01f
#define MOTION_MAX_DURATION 10.0f
#define MOTION_MIN_DAMPING 0.05

spring_result spring_params_from_motion_duration(float duration, float bounce, spring_params *out)
{
	spring_result r = check_duration_bounce(duration, bounce, out);
	if (r != SPRING_OK) {
		return r;
	}
	if (!(duration >= MOTION_MIN_DURATION && duration <= MOTION_MAX_DURATION)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	double b = (double)bounce;
	double zeta = b >= 0.0 ? fmax(1.0 - b, MOTION_MIN_DAMPING) : 1.0 / fmax(1.0 + b, MOTION_MIN_DAMPING);
	return spring_params_from_settling(duration, (float)zeta, 0.001f, out);
}

typedef enum preset_form { PRESET_DURATION_BOUNCE, PRESET_STIFFNESS_RATIO } preset_form;

// SwiftUI's documented presets (duration, bounce) and the Material 3 Expressive spring tokens
// (stiffness, damping ratio) as androidx.compose.material3's StandardMotionTokens and
// ExpressiveMotionTokens publish them.
static const struct {
	const char *name;
	preset_form form;
	float a, b;
} presets[] = {
	{"smooth", PRESET_DURATION_BOUNCE, 0.5f, 0.0f},
	{"snappy", PRESET_DURATION_BOUNCE, 0.5f, 0.15f},
	{"bouncy", PRESET_DURATION_BOUNCE, 0.5f, 0.3f},
	{"standard-fast-spatial", PRESET_STIFFNESS_RATIO, 1400.0f, 0.9f},
	{"standard-default-spatial", PRESET_STIFFNESS_RATIO, 700.0f, 0.9f},
	{"standard-slow-spatial", PRESET_STIFFNESS_RATIO, 300.0f, 0.9f},
	{"standard-fast-effects", PRESET_STIFFNESS_RATIO, 3800.0f, 1.0f},
	{"standard-default-effects", PRESET_STIFFNESS_RATIO, 1600.0f, 1.0f},
	{"standard-slow-effects", PRESET_STIFFNESS_RATIO, 800.0f, 1.0f},
	{"expressive-fast-spatial", PRESET_STIFFNESS_RATIO, 800.0f, 0.6f},
	{"expressive-default-spatial", PRESET_STIFFNESS_RATIO, 380.0f, 0.8f},
	{"expressive-slow-spatial", PRESET_STIFFNESS_RATIO, 200.0f, 0.8f},
	{"expressive-fast-effects", PRESET_STIFFNESS_RATIO, 3800.0f, 1.0f},
	{"expressive-default-effects", PRESET_STIFFNESS_RATIO, 1600.0f, 1.0f},
	{"expressive-slow-effects", PRESET_STIFFNESS_RATIO, 800.0f, 1.0f},
};

#define PRESET_COUNT ((int)(sizeof presets / sizeof presets[0]))

spring_result spring_params_from_preset(const char *name, spring_params *out)
{
	if (!name || !out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < PRESET_COUNT; i++) {
		if (strcmp(presets[i].name, name) == 0) {
			return presets[i].form == PRESET_DURATION_BOUNCE
			           ? spring_params_from_duration_bounce(presets[i].a, presets[i].b, out)
			           : spring_params_from_damping_ratio(1.0f, presets[i].a, presets[i].b, out);
		}
	}
	return SPRING_ERROR_INVALID_ARGUMENT;
}

const char *spring_preset_name(int index)
{
	return index >= 0 && index < PRESET_COUNT ? presets[index].name : NULL;
}

// The epsilon of the reduced-motion rule: settling to 0.1% of a unit move.
#define REDUCED_EPSILON 0.001

spring_result spring_params_reduced_motion(spring_params p, spring_params *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_params_validate(p);
	if (r != SPRING_OK) {
		return r;
	}
	double w2 = spring_internal_w2(p), g = spring_internal_gamma(p);
	double u = spring_solve_unit_gap(1.0, REDUCED_EPSILON); // 9.2334: critical, within epsilon at omega_n t = u
	double settle = settling_exact(w2, g, -1.0, 0.0, REDUCED_EPSILON);
	double omega = 2.0 * sqrt(w2);
	if (settle < INFINITY && 2.0 * u / settle > omega) {
		omega = 2.0 * u / settle;
	}
	spring_params q;
	r = make_from_omega(omega, 1.0, &q);
	if (r != SPRING_OK) {
		return r;
	}
	// Rounded to float the ratio may land a hair under 1: never let the reduced form overshoot.
	for (int i = 0; i < 8 && zeta_d(q) < 1.0; i++) {
		q.damping = nextafterf(q.damping, INFINITY);
	}
	r = spring_params_validate(q);
	if (r == SPRING_OK) {
		*out = q;
	}
	return r;
}
