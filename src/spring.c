// The core spring: parameterisations, queries, closed form, exact and semi-implicit stepping,
// rest detection, the fixed-step clock, follow and angle helpers.
//
// All coefficient work is done in double with the library's own transcendental functions
// (detmath.c), so results are bit-identical across compilers; states are stored as float.
#include "spring/spring.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>

#define TWO_PI (2.0 * SPRING_PI)
#define LN2 0.69314718055994530942

// ---------------------------------------------------------------------------------------------
// Validation helpers

static int finite_d(double x)
{
	return (x - x) == 0.0;
}

spring_result spring_params_validate(spring_params p)
{
	if (!spring_is_finite(p.stiffness) || !spring_is_finite(p.damping) || !spring_is_finite(p.mass)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(p.mass > 0.0f) || !(p.stiffness > 0.0f) || !(p.damping >= 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	// k/m and c/m must themselves be representable (a 1e-38 kg mass with 1e38 stiffness is not).
	double w2 = (double)p.stiffness / (double)p.mass;
	double g = (double)p.damping / (double)p.mass;
	if (!(w2 <= (double)FLT_MAX) || !(g <= (double)FLT_MAX) || !(w2 >= (double)FLT_MIN)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
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
// The exact transition. For e = x - target, gamma = c/m, w2 = k/m, lambda = gamma/2,
// D = w2 - lambda^2 (omega_d^2, negative when overdamped):
//   e(t) = E (C e0 + S (v0 + lambda e0)),  v(t) = E (C v0 - S (w2 e0 + lambda v0))
// with E = exp(-lambda t), C = cos(sqrt(D) t), S = sin(sqrt(D) t)/sqrt(D) (cosh/sinh when D < 0,
// 1 and t when D = 0). Near D t^2 = 0 both C and S are evaluated from their power series in D t^2,
// which makes the three regimes one continuous function (no division by omega_d near zeta = 1).
// Overdamped beyond the series uses the two decaying exponentials directly (no cosh overflow) with
// the slow rate computed as w2 / (lambda + mu), free of cancellation.

void spring_transition_compute(double w2, double gamma, double t, spring_transition *tr)
{
	double lambda = 0.5 * gamma;
	double wn = sqrt(w2);
	double d = (wn - lambda) * (wn + lambda);
	double dt2 = d * t * t;
	if (fabs(dt2) <= 1.0) {
		double z = -dt2;
		double c = 1.0, s = 1.0, tc = 1.0, ts = 1.0;
		for (int n = 1; n <= 10; n++) {
			tc *= z / (double)((2 * n - 1) * (2 * n));
			ts *= z / (double)((2 * n) * (2 * n + 1));
			c += tc;
			s += ts;
		}
		double e = spring_det_exp(-lambda * t);
		double ec = e * c, es = e * s * t;
		tr->pp = ec + lambda * es;
		tr->pv = es;
		tr->vp = -w2 * es;
		tr->vv = ec - lambda * es;
	} else if (d > 0.0) {
		double wd = sqrt(d);
		double sn, cs;
		spring_det_sincos(wd * t, &sn, &cs);
		double e = spring_det_exp(-lambda * t);
		double ec = e * cs, es = e * sn / wd;
		tr->pp = ec + lambda * es;
		tr->pv = es;
		tr->vp = -w2 * es;
		tr->vv = ec - lambda * es;
	} else {
		double mu = sqrt(-d);
		double fast = lambda + mu;
		double slow = w2 / fast;
		double es = spring_det_exp(-slow * t);
		double ef = spring_det_exp(-fast * t);
		double inv = 1.0 / (2.0 * mu);
		tr->pv = es * -spring_det_expm1(-2.0 * mu * t) * inv;
		tr->pp = (fast * es - slow * ef) * inv;
		tr->vv = (fast * ef - slow * es) * inv;
		tr->vp = -w2 * tr->pv;
	}
}

static void transition_for(spring_params p, double t, spring_transition *tr)
{
	double m = (double)p.mass;
	spring_transition_compute((double)p.stiffness / m, (double)p.damping / m, t, tr);
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

spring_result spring_params_from_duration_bounce(float duration, float bounce, spring_params *out)
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
	if (!(duration > 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
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
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(visual_duration)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_result r = check_bounce(bounce);
	if (r != SPRING_OK) {
		return r;
	}
	if (!(visual_duration > 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
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
	double k = (double)p.stiffness / (double)p.mass, c = (double)p.damping / (double)p.mass;
	if (origami_tension) {
		*origami_tension = (float)((k - 194.0) / 3.62 + 30.0);
	}
	if (origami_friction) {
		*origami_friction = (float)((c - 25.0) / 3.0 + 8.0);
	}
}

spring_result spring_params_from_per_frame_exact(float stiffness_per_frame, float damping_per_frame, float fps, spring_params *out)
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

spring_result spring_params_from_per_frame(float stiffness_per_frame, float damping_per_frame, float fps,
                                                         spring_params *out)
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

float spring_damping_ratio(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return (float)((double)p.damping / (2.0 * sqrt((double)p.stiffness * (double)p.mass)));
}

float spring_natural_frequency(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return (float)sqrt((double)p.stiffness / (double)p.mass);
}

float spring_frequency_hz(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return (float)(sqrt((double)p.stiffness / (double)p.mass) / TWO_PI);
}

float spring_duration(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	return (float)(TWO_PI / sqrt((double)p.stiffness / (double)p.mass));
}

static double zeta_d(spring_params p)
{
	return (double)p.damping / (2.0 * sqrt((double)p.stiffness * (double)p.mass));
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
	double wn = sqrt((double)p.stiffness / (double)p.mass);
	return (float)(z <= 1.0 ? TWO_PI / (1.2 * wn) : visual_overdamped_u(z) / wn);
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
	double m = (double)p.mass;
	double t = settling_exact((double)p.stiffness / m, (double)p.damping / m, -(double)distance, (double)velocity,
	                          (double)epsilon);
	return (float)t;
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
	double lambda = 0.5 * (double)p.damping / (double)p.mass;
	double dd = (double)distance, v0 = (double)velocity;
	double a = (fabs(lambda * dd - v0) + fabs(dd)) / (double)epsilon;
	if (!(a > 1.0)) {
		return 0.0f;
	}
	return (float)(spring_det_log(a) / lambda);
}

float spring_half_life(spring_params p)
{
	if (spring_params_validate(p) != SPRING_OK) {
		return 0.0f;
	}
	double m = (double)p.mass;
	double w2 = (double)p.stiffness / m, g = (double)p.damping / m;
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
	return (float)(0.5 * (lo + hi));
}

// ---------------------------------------------------------------------------------------------
// One implementation over n components
//
// The scalar, vec2, vec3 and angle variants of stepping, rest and follow are one algorithm applied
// to each of 1, 2 or 3 independent components. A typed public function describes its call as a
// `view` (where its components live, their targets, whether it is an angle) and runs the one
// kernel of its family on it (step_n, rest_n, follow_n, or stepper_component per component). The
// angle variants are the one-component kernels with `angle` set: the gap to the target is measured
// along the shortest arc and the result wrapped onto (-pi, pi]. Per component, each kernel performs
// exactly the float and double operations, in the same order, that the separate typed copies did,
// so every result is bit-identical to theirs (test_step's golden over the typed variants).

#define MAX_COMPONENTS 3

// The kernels are inlined into each typed function, so that there the component count and the
// angle flag are constants and the view mostly vanishes, as in separate typed code.
#if defined(__GNUC__)
#define KERNEL static inline __attribute__((always_inline))
#else
#define KERNEL static inline
#endif

// The components of one typed call: the addresses of each position and velocity in the caller's
// state, and the targets. The view of a NULL state has no components (n = 0).
typedef struct view {
	int n;     // 0 (NULL state) or 1 .. MAX_COMPONENTS
	int angle; // with n == 1: radians, gap along the shortest arc, result wrapped
	float *x[MAX_COMPONENTS], *v[MAX_COMPONENTS];
	float target[MAX_COMPONENTS];
} view;

KERNEL view view_1(spring_state *s, float target, int angle)
{
	return s ? (view){1, angle, {&s->x}, {&s->v}, {target}} : (view){0};
}

KERNEL view view_vec2(spring_state_vec2 *s, spring_vec2 target)
{
	return s ? (view){2, 0, {&s->x.x, &s->x.y}, {&s->v.x, &s->v.y}, {target.x, target.y}} : (view){0};
}

KERNEL view view_vec3(spring_state_vec3 *s, spring_vec3 target)
{
	return s ? (view){3, 0, {&s->x.x, &s->x.y, &s->x.z}, {&s->v.x, &s->v.y, &s->v.z}, {target.x, target.y, target.z}}
	         : (view){0};
}

// A kernel's working copy of a view's positions and velocities, written back only on success.
typedef struct values { float x[MAX_COMPONENTS], v[MAX_COMPONENTS]; } values;

KERNEL values read_view(const view *w)
{
	values c;
	for (int i = 0; i < w->n; i++) {
		c.x[i] = *w->x[i];
		c.v[i] = *w->v[i];
	}
	return c;
}

KERNEL void write_view(const view *w, const values *c)
{
	for (int i = 0; i < w->n; i++) {
		*w->x[i] = c->x[i];
		*w->v[i] = c->v[i];
	}
}

KERNEL int view_finite(const view *w)
{
	values c = read_view(w);
	return spring_internal_all_finite(w->target, w->n) && spring_internal_all_finite(c.x, w->n) &&
	       spring_internal_all_finite(c.v, w->n);
}

// Euclidean length, summed in double. With one component it is exactly |a[0]|: the square of a
// float is exact in double, and so is the square root of that square.
KERNEL float length_n(const float *a, int n)
{
	double sum = 0.0;
	for (int i = 0; i < n; i++) {
		sum += (double)a[i] * (double)a[i];
	}
	return (float)sqrt(sum);
}

static int time_ok(float t)
{
	return spring_is_finite(t) && t >= 0.0f;
}

static spring_result check_step_args(spring_params p, float dt)
{
	spring_result r = spring_params_validate(p);
	if (r != SPRING_OK) {
		return r;
	}
	if (!spring_is_finite(dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return dt >= 0.0f ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

// ---------------------------------------------------------------------------------------------
// Exact and semi-implicit stepping, closed form

// Applies a transition to one component; returns 0 (and writes nothing) when the result leaves
// float range. An angle works relative to its current value, so the target is on the shortest arc.
KERNEL int apply_transition(const spring_transition *tr, int angle, float target, float *x, float *v)
{
	double e = angle ? -(double)spring_angle_delta(*x, target) : (double)*x - (double)target;
	double vv = (double)*v;
	double ne = tr->pp * e + tr->pv * vv;
	double nv = tr->vp * e + tr->vv * vv;
	float fx = angle ? (float)((double)*x + (ne - e)) : (float)((double)target + ne);
	float fv = (float)nv;
	if (!spring_is_finite(fx) || !spring_is_finite(fv)) {
		return 0;
	}
	*x = angle ? spring_angle_wrap(fx) : fx;
	*v = fv;
	return 1;
}

// Semi-implicit Euler stability for x'' = -w2 e - g v with step h: the transition's eigenvalues
// lie strictly inside the unit circle iff g h < 2 and (w2 h^2 + 2 g h) < 4 (Jury criterion);
// with g = 0 the limit is omega h < 2 (marginal, energy conserved but never grown).
bool spring_semi_implicit_is_stable(spring_params p, float dt)
{
	if (spring_params_validate(p) != SPRING_OK || !time_ok(dt)) {
		return 0;
	}
	double m = (double)p.mass, h = (double)dt;
	double w2 = (double)p.stiffness / m, g = (double)p.damping / m;
	return w2 * h * h + 2.0 * g * h < 4.0;
}

// The classic two-line update in float on one component: velocity first, then position from the
// new velocity; returns 0 (and writes nothing) when the result leaves float range. An angle steps
// its offset from the shortest-arc target (from 0 towards the delta), then maps back onto the circle.
KERNEL int semi_implicit_component(spring_params p, float dt, int angle, float target, float *x, float *v)
{
	float from = angle ? 0.0f : *x;
	float to = angle ? spring_angle_delta(*x, target) : target;
	float a = (-p.stiffness * (from - to) - p.damping * *v) / p.mass;
	float nv = *v + a * dt;
	float nx = from + nv * dt;
	if (!spring_is_finite(nx) || !spring_is_finite(nv)) {
		return 0;
	}
	*x = angle ? spring_angle_wrap(*x + nx) : nx;
	*v = nv;
	return 1;
}

typedef enum integrator { EXACT, SEMI_IMPLICIT } integrator;

// Advances the components of `w` by dt with the chosen integrator. On error nothing is written.
KERNEL spring_result step_n(integrator method, spring_params p, view w, float dt)
{
	if (w.n == 0) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_step_args(p, dt);
	if (r != SPRING_OK) {
		return r;
	}
	if (method == SEMI_IMPLICIT && !spring_semi_implicit_is_stable(p, dt)) {
		return SPRING_ERROR_UNSTABLE;
	}
	if (!view_finite(&w)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_transition tr = {0.0, 0.0, 0.0, 0.0};
	if (method == EXACT) {
		transition_for(p, (double)dt, &tr);
	}
	values out = read_view(&w);
	for (int i = 0; i < w.n; i++) {
		int ok = method == EXACT ? apply_transition(&tr, w.angle, w.target[i], &out.x[i], &out.v[i])
		                         : semi_implicit_component(p, dt, w.angle, w.target[i], &out.x[i], &out.v[i]);
		if (!ok) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	write_view(&w, &out);
	return SPRING_OK;
}

spring_result spring_step_exact(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(EXACT, p, view_1(s, target, 0), dt);
}

spring_result spring_step_exact_vec2(spring_params p, spring_state_vec2 *s, spring_vec2 target, float dt)
{
	return step_n(EXACT, p, view_vec2(s, target), dt);
}

spring_result spring_step_exact_vec3(spring_params p, spring_state_vec3 *s, spring_vec3 target, float dt)
{
	return step_n(EXACT, p, view_vec3(s, target), dt);
}

spring_result spring_step_exact_angle(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(EXACT, p, view_1(s, target, 1), dt);
}

spring_result spring_step_semi_implicit(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_1(s, target, 0), dt);
}

spring_result spring_step_semi_implicit_vec2(spring_params p, spring_state_vec2 *s, spring_vec2 target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_vec2(s, target), dt);
}

spring_result spring_step_semi_implicit_vec3(spring_params p, spring_state_vec3 *s, spring_vec3 target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_vec3(s, target), dt);
}

spring_result spring_step_semi_implicit_angle(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_1(s, target, 1), dt);
}

// The closed form is the exact step from `start` (which stays as it was on invalid input).
spring_state spring_evaluate(spring_params p, spring_state start, float target, float t)
{
	(void)spring_step_exact(p, &start, target, t);
	return start;
}

spring_state_vec2 spring_evaluate_vec2(spring_params p, spring_state_vec2 start, spring_vec2 target, float t)
{
	(void)spring_step_exact_vec2(p, &start, target, t);
	return start;
}

spring_state_vec3 spring_evaluate_vec3(spring_params p, spring_state_vec3 start, spring_vec3 target, float t)
{
	(void)spring_step_exact_vec3(p, &start, target, t);
	return start;
}

spring_state spring_evaluate_angle(spring_params p, spring_state start, float target, float t)
{
	(void)spring_step_exact_angle(p, &start, target, t);
	return start;
}

// ---------------------------------------------------------------------------------------------
// Precomputed exact transition (the per-spring hot path: no validation, float only)

spring_result spring_stepper_init(spring_stepper *out, spring_params p, float step)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_step_args(p, step);
	if (r != SPRING_OK) {
		return r;
	}
	spring_transition tr;
	transition_for(p, (double)step, &tr);
	spring_stepper st = {(float)tr.pp, (float)tr.pv, (float)tr.vp, (float)tr.vv};
	if (!spring_is_finite(st.vp)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	*out = st;
	return SPRING_OK;
}

// e' = pp e + pv v, v' = vp e + vv v on one component, in place; an angle's e is minus the
// shortest-arc delta to its target, and its new value is wrapped. Each stepper calls it on its
// components directly: no copy, no view (the angle one is the hot path of angle chains).
static void stepper_component(const spring_stepper *st, int angle, float *x, float *v, float target)
{
	float e = angle ? -spring_angle_delta(*x, target) : *x - target;
	float v0 = *v;
	float ne = st->pp * e + st->pv * v0;
	*v = st->vp * e + st->vv * v0;
	*x = angle ? spring_angle_wrap(*x + (ne - e)) : target + ne;
}

void spring_stepper_step(const spring_stepper *st, spring_state *s, float target)
{
	stepper_component(st, 0, &s->x, &s->v, target);
}

void spring_stepper_step_angle(const spring_stepper *st, spring_state *s, float target)
{
	stepper_component(st, 1, &s->x, &s->v, target);
}

void spring_stepper_step_vec2(const spring_stepper *st, spring_state_vec2 *s, spring_vec2 target)
{
	stepper_component(st, 0, &s->x.x, &s->v.x, target.x);
	stepper_component(st, 0, &s->x.y, &s->v.y, target.y);
}

void spring_stepper_step_vec3(const spring_stepper *st, spring_state_vec3 *s, spring_vec3 target)
{
	stepper_component(st, 0, &s->x.x, &s->v.x, target.x);
	stepper_component(st, 0, &s->x.y, &s->v.y, target.y);
	stepper_component(st, 0, &s->x.z, &s->v.z, target.z);
}

// ---------------------------------------------------------------------------------------------
// Rest

static int thresholds_ok(float rest_delta, float rest_speed)
{
	return spring_is_finite(rest_delta) && spring_is_finite(rest_speed) && rest_delta >= 0.0f && rest_speed >= 0.0f;
}

// At rest: snaps the components of `w` onto their targets with velocity 0 and returns 1;
// otherwise (and for a NULL state) writes nothing and returns 0.
KERNEL int rest_n(view w, float rest_delta, float rest_speed)
{
	if (w.n == 0 || !thresholds_ok(rest_delta, rest_speed) || !view_finite(&w)) {
		return 0;
	}
	values c = read_view(&w);
	float gap[MAX_COMPONENTS];
	for (int i = 0; i < w.n; i++) {
		gap[i] = w.angle ? spring_angle_delta(c.x[i], w.target[i]) : c.x[i] - w.target[i];
	}
	if (!(length_n(gap, w.n) <= rest_delta && length_n(c.v, w.n) <= rest_speed)) {
		return 0;
	}
	for (int i = 0; i < w.n; i++) {
		c.x[i] = w.angle ? spring_angle_wrap(w.target[i]) : w.target[i];
		c.v[i] = 0.0f;
	}
	write_view(&w, &c);
	return 1;
}

bool spring_rest(spring_state *s, float target, float rest_delta, float rest_speed)
{
	return rest_n(view_1(s, target, 0), rest_delta, rest_speed);
}

bool spring_rest_vec2(spring_state_vec2 *s, spring_vec2 target, float rest_delta, float rest_speed)
{
	return rest_n(view_vec2(s, target), rest_delta, rest_speed);
}

bool spring_rest_vec3(spring_state_vec3 *s, spring_vec3 target, float rest_delta, float rest_speed)
{
	return rest_n(view_vec3(s, target), rest_delta, rest_speed);
}

bool spring_rest_angle(spring_state *s, float target, float rest_delta, float rest_speed)
{
	return rest_n(view_1(s, target, 1), rest_delta, rest_speed);
}

// ---------------------------------------------------------------------------------------------
// Clock

spring_result spring_clock_init(spring_clock *c, float step, int max_steps)
{
	if (!c) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(step)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (step == 0.0f) {
		step = SPRING_CLOCK_DEFAULT_STEP;
	}
	if (max_steps == 0) {
		max_steps = SPRING_CLOCK_DEFAULT_MAX_STEPS;
	}
	if (!(step > 0.0f && step <= 1.0f) || max_steps < 1 || max_steps > 1000) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_clock init = {0};
	init.step = step;
	init.max_steps = max_steps;
	*c = init;
	return SPRING_OK;
}

int spring_clock_advance(spring_clock *c, float frame_dt)
{
	if (!c || !(c->step > 0.0f) || c->max_steps < 1 || !spring_is_finite(c->accumulator)) {
		return -(int)SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(frame_dt)) {
		return -(int)SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return -(int)SPRING_ERROR_OUT_OF_RANGE;
	}
	double acc = (double)c->accumulator + (double)frame_dt;
	double step = (double)c->step;
	int n = 0;
	while (acc >= step && n < c->max_steps) {
		acc -= step;
		n++;
	}
	if (acc >= step) {
		// Over the cap: discard the excess (whole steps and the fraction) rather than spiral.
		c->dropped = (float)fmin((double)c->dropped + acc, (double)FLT_MAX); // saturates, never inf
		acc = 0.0;
	}
	c->accumulator = (float)acc;
	if (c->accumulator >= c->step) {
		c->accumulator = 0.0f;
	}
	c->alpha = c->accumulator / c->step;
	if (!(c->alpha < 1.0f)) {
		c->alpha = 0.0f;
	}
	c->frame_dt = frame_dt;
	c->last_steps = n;
	c->time += (double)n * step;
	return n;
}

float spring_clock_substep_fraction(const spring_clock *c, int i, int n)
{
	if (!c || n <= 0 || i < 0 || i >= n || !(c->frame_dt > 0.0f)) {
		return 1.0f;
	}
	double from_end = (double)c->accumulator + (double)(n - 1 - i) * (double)c->step;
	double f = 1.0 - from_end / (double)c->frame_dt;
	if (f < 0.0) {
		f = 0.0;
	}
	if (f > 1.0) {
		f = 1.0;
	}
	return (float)f;
}

// ---------------------------------------------------------------------------------------------
// Follow and angles

// Fraction of the gap closed in dt: 1 - 2^(-dt / half_life), computed without cancellation.
static int follow_factor(float half_life, float dt, double *out)
{
	if (!spring_is_finite(half_life) || !spring_is_finite(dt) || half_life < 0.0f || dt < 0.0f) {
		return 0;
	}
	if (half_life == 0.0f) {
		*out = dt > 0.0f ? 1.0 : 0.0;
		return 1;
	}
	*out = -spring_det_expm1(-LN2 * (double)dt / (double)half_life);
	return 1;
}

// Moves the positions of `w` (velocities untouched) the fraction of their gap that closes in dt;
// invalid input writes nothing. A whole fraction snaps onto the targets, except for an angle, which
// moves by its shortest-arc delta and is wrapped.
KERNEL void follow_n(view w, float half_life, float dt)
{
	double f;
	if (!view_finite(&w) || !follow_factor(half_life, dt, &f)) {
		return;
	}
	for (int i = 0; i < w.n; i++) {
		float x = *w.x[i], t = w.target[i];
		if (!w.angle && f >= 1.0) {
			*w.x[i] = t;
			continue;
		}
		double gap = w.angle ? (double)spring_angle_delta(x, t) : (double)t - (double)x;
		float moved = (float)((double)x + gap * f);
		*w.x[i] = w.angle ? spring_angle_wrap(moved) : moved;
	}
}

// The follow functions take values, not states: each runs on a state with velocity 0.
float spring_follow(float x, float target, float half_life, float dt)
{
	spring_state s = {x, 0.0f};
	follow_n(view_1(&s, target, 0), half_life, dt);
	return s.x;
}

spring_vec2 spring_follow_vec2(spring_vec2 x, spring_vec2 target, float half_life, float dt)
{
	spring_state_vec2 s = {x, {0.0f, 0.0f}};
	follow_n(view_vec2(&s, target), half_life, dt);
	return s.x;
}

spring_vec3 spring_follow_vec3(spring_vec3 x, spring_vec3 target, float half_life, float dt)
{
	spring_state_vec3 s = {x, {0.0f, 0.0f, 0.0f}};
	follow_n(view_vec3(&s, target), half_life, dt);
	return s.x;
}

float spring_follow_angle(float angle, float target, float half_life, float dt)
{
	spring_state s = {angle, 0.0f};
	follow_n(view_1(&s, target, 1), half_life, dt);
	return s.x;
}

// d folded onto (-pi, pi] in double; fmod is exact, so this is deterministic.
static double fold_d(double d)
{
	d = fmod(d, TWO_PI);
	if (d > SPRING_PI) {
		d -= TWO_PI;
	} else if (d <= -SPRING_PI) {
		d += TWO_PI;
	}
	return d;
}

float spring_internal_angle_fold(double d)
{
	float f = (float)fold_d(d);
	// Rounding to float can land exactly on -pi's float; keep the half-open interval.
	if (f <= -(float)SPRING_PI) {
		f = (float)SPRING_PI;
	}
	return f;
}

float spring_angle_delta(float from, float to)
{
	if (!spring_is_finite(from) || !spring_is_finite(to)) {
		return 0.0f;
	}
	return spring_internal_angle_fold((double)to - (double)from);
}

float spring_angle_wrap(float angle)
{
	if (!spring_is_finite(angle)) {
		return 0.0f;
	}
	return spring_internal_angle_fold((double)angle);
}

float spring_angle_lerp(float from, float to, float t)
{
	if (!spring_is_finite(from) || !spring_is_finite(to) || !spring_is_finite(t)) {
		return spring_angle_wrap(from);
	}
	return spring_internal_angle_fold((double)from + (double)spring_angle_delta(from, to) * (double)t);
}
