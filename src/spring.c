// SPDX-License-Identifier: MIT
// The core spring in motion: the exact transition, closed form, exact and semi-implicit stepping
// (one implementation over 1-3 components and angles), the precomputed stepper, rest detection,
// follow, the angle helpers, and the check of a valid spring.
//
// All coefficient work is done in double with the library's own transcendental functions
// (detmath.c), so results are bit-identical across compilers; states are stored as float.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/spring.h"

#include "base_internal.h"
#include "detmath_internal.h"
#include "spring/batch.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define LN2 0.69314718055994530942

// ---------------------------------------------------------------------------------------------
// A valid spring (here, below the parameterisations of spring_params.c, which call it)

spring_result spring_params_validate(spring_params p)
{
	if (!spring_is_finite(p.stiffness) || !spring_is_finite(p.damping) || !spring_is_finite(p.mass)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!(p.mass > 0.0f) || !(p.stiffness > 0.0f) || !(p.damping >= 0.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	// k/m and c/m must themselves be representable (a 1e-38 kg mass with 1e38 stiffness is not).
	double w2 = spring_internal_w2(p);
	double g = spring_internal_gamma(p);
	if (!(w2 <= (double)FLT_MAX) || !(g <= (double)FLT_MAX) || !(w2 >= (double)FLT_MIN)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
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
	spring_transition_compute(spring_internal_w2(p), spring_internal_gamma(p), t, tr);
}

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
	return s ? (view){3, 0, {&s->x.x, &s->x.y, &s->x.z}, {&s->v.x, &s->v.y, &s->v.z}, {target.x, target.y, target.z}} : (view){0};
}

// A kernel's working copy of a view's positions and velocities, written back only on success.
typedef struct values {
	float x[MAX_COMPONENTS], v[MAX_COMPONENTS];
} values;

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
	double h = (double)dt, w2 = spring_internal_w2(p), g = spring_internal_gamma(p);
	return w2 * h * h + 2.0 * g * h < 4.0;
}

// The classic two-line update on one component, in the scale-free form: the acceleration is
// -(w2 e + g v) with w2 = k/m and g = c/m in double, so no product of a force constant with a
// displacement can overflow (k = c = m = 3.4e38 is the stable w2 = g = 1). Velocity first, then
// position from the new (float) velocity. Returns 0 (and writes nothing) when the result leaves
// float range. An angle steps its offset from the shortest-arc target (from 0 towards the
// delta), then maps back onto the circle.
KERNEL int semi_implicit_component(double w2, double g, float dt, int angle, float target, float *x, float *v)
{
	float from = angle ? 0.0f : *x;
	float to = angle ? spring_angle_delta(*x, target) : target;
	double a = -(w2 * ((double)from - (double)to) + g * (double)*v);
	float nv = (float)((double)*v + a * (double)dt);
	float nx = (float)((double)from + (double)nv * (double)dt);
	if (!spring_is_finite(nx) || !spring_is_finite(nv)) {
		return 0;
	}
	*x = angle ? spring_angle_wrap(*x + nx) : nx;
	*v = nv;
	return 1;
}

typedef enum integrator { EXACT, SEMI_IMPLICIT } integrator;

// True when `cache` holds the transition of exactly (p, dt), bit for bit: a pair that passed
// check_step_args when it was stored.
static int cache_holds(const spring_exact_cache *cache, spring_params p, float dt)
{
	return cache && cache->valid && memcmp(&cache->params, &p, sizeof p) == 0 && memcmp(&cache->dt, &dt, sizeof dt) == 0;
}

// Applies `tr` to every component of `w`, all or nothing: OUT_OF_RANGE (nothing written) when a
// result would leave float range.
KERNEL spring_result apply_n(const spring_transition *tr, view w)
{
	values out = read_view(&w);
	for (int i = 0; i < w.n; i++) {
		if (!apply_transition(tr, w.angle, w.target[i], &out.x[i], &out.v[i])) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	write_view(&w, &out);
	return SPRING_OK;
}

// Advances the components of `w` by dt with the chosen integrator. On error nothing is written.
// An exact step takes its transition from `cache` when that holds (p, dt) (the checks of p and
// dt passed when it was stored) and stores a newly computed one there; `cache` may be NULL.
KERNEL spring_result step_n(integrator method, spring_params p, view w, float dt, spring_exact_cache *cache)
{
	if (w.n == 0) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (method == EXACT && cache_holds(cache, p, dt)) {
		if (!view_finite(&w)) {
			return SPRING_ERROR_NOT_FINITE;
		}
		spring_transition tr = {cache->transition[0], cache->transition[1], cache->transition[2], cache->transition[3]};
		return apply_n(&tr, w);
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
	double w2 = spring_internal_w2(p), g = spring_internal_gamma(p);
	if (method == EXACT) {
		spring_transition tr;
		spring_transition_compute(w2, g, (double)dt, &tr);
		if (cache) {
			*cache = (spring_exact_cache){p, dt, 1u, 0u, {tr.pp, tr.pv, tr.vp, tr.vv}};
		}
		return apply_n(&tr, w);
	}
	values out = read_view(&w);
	for (int i = 0; i < w.n; i++) {
		if (!semi_implicit_component(w2, g, dt, w.angle, w.target[i], &out.x[i], &out.v[i])) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	write_view(&w, &out);
	return SPRING_OK;
}

spring_result spring_step_exact(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(EXACT, p, view_1(s, target, 0), dt, NULL);
}

spring_result spring_step_exact_cached(spring_exact_cache *cache, spring_params p, spring_state *s, float target, float dt)
{
	return cache ? step_n(EXACT, p, view_1(s, target, 0), dt, cache) : SPRING_ERROR_INVALID_ARGUMENT;
}

spring_result spring_step_exact_vec2(spring_params p, spring_state_vec2 *s, spring_vec2 target, float dt)
{
	return step_n(EXACT, p, view_vec2(s, target), dt, NULL);
}

spring_result spring_step_exact_cached_vec2(spring_exact_cache *cache, spring_params p, spring_state_vec2 *s, spring_vec2 target,
                                            float dt)
{
	return cache ? step_n(EXACT, p, view_vec2(s, target), dt, cache) : SPRING_ERROR_INVALID_ARGUMENT;
}

spring_result spring_step_exact_vec3(spring_params p, spring_state_vec3 *s, spring_vec3 target, float dt)
{
	return step_n(EXACT, p, view_vec3(s, target), dt, NULL);
}

spring_result spring_step_exact_cached_vec3(spring_exact_cache *cache, spring_params p, spring_state_vec3 *s, spring_vec3 target,
                                            float dt)
{
	return cache ? step_n(EXACT, p, view_vec3(s, target), dt, cache) : SPRING_ERROR_INVALID_ARGUMENT;
}

spring_result spring_step_exact_angle(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(EXACT, p, view_1(s, target, 1), dt, NULL);
}

spring_result spring_step_exact_cached_angle(spring_exact_cache *cache, spring_params p, spring_state *s, float target, float dt)
{
	return cache ? step_n(EXACT, p, view_1(s, target, 1), dt, cache) : SPRING_ERROR_INVALID_ARGUMENT;
}

spring_result spring_step_semi_implicit(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_1(s, target, 0), dt, NULL);
}

spring_result spring_step_semi_implicit_vec2(spring_params p, spring_state_vec2 *s, spring_vec2 target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_vec2(s, target), dt, NULL);
}

spring_result spring_step_semi_implicit_vec3(spring_params p, spring_state_vec3 *s, spring_vec3 target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_vec3(s, target), dt, NULL);
}

spring_result spring_step_semi_implicit_angle(spring_params p, spring_state *s, float target, float dt)
{
	return step_n(SEMI_IMPLICIT, p, view_1(s, target, 1), dt, NULL);
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
// Precomputed exact transition (the per-spring hot path: float only, no parameter validation;
// the state is checked by the result)

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
	float k[4] = {(float)tr.pp, (float)tr.pv, (float)tr.vp, (float)tr.vv};
	if (!spring_internal_all_finite(k, 4)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	*out = (spring_stepper){k[0], k[1], k[2], k[3]};
	return SPRING_OK;
}

// e' = pp e + pv v, v' = vp e + vv v on the components of `w`, in float; an angle's e is minus
// the shortest-arc delta to its target, and its new value is wrapped. All or nothing: the new
// state is written only when every component is finite (and, for an angle, the value and target
// it started from, which the fold would otherwise turn into 0). The checks are subtractions;
// telling NOT_FINITE from OUT_OF_RANGE happens only on the error path.
KERNEL spring_result stepper_n(const spring_stepper *st, view w)
{
	if (!st || w.n == 0) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	values c = read_view(&w);
	bool ok = true;
	for (int i = 0; i < w.n; i++) {
		float x = c.x[i], v0 = c.v[i], target = w.target[i];
		float e = w.angle ? -spring_angle_delta(x, target) : x - target;
		float ne = st->pp * e + st->pv * v0;
		float nv = st->vp * e + st->vv * v0;
		float nx = w.angle ? x + (ne - e) : target + ne;
		ok = ok && spring_internal_finite(nx) && spring_internal_finite(nv) &&
		     (!w.angle || (spring_internal_finite(x) && spring_internal_finite(target)));
		c.x[i] = w.angle ? spring_angle_wrap(nx) : nx;
		c.v[i] = nv;
	}
	if (!ok) {
		return view_finite(&w) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
	}
	write_view(&w, &c);
	return SPRING_OK;
}

spring_result spring_stepper_step(const spring_stepper *st, spring_state *s, float target)
{
	return stepper_n(st, view_1(s, target, 0));
}

spring_result spring_stepper_step_angle(const spring_stepper *st, spring_state *s, float target)
{
	return stepper_n(st, view_1(s, target, 1));
}

spring_result spring_stepper_step_vec2(const spring_stepper *st, spring_state_vec2 *s, spring_vec2 target)
{
	return stepper_n(st, view_vec2(s, target));
}

spring_result spring_stepper_step_vec3(const spring_stepper *st, spring_state_vec3 *s, spring_vec3 target)
{
	return stepper_n(st, view_vec3(s, target));
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

float spring_internal_angle_fold(double d)
{
	return spring_det_fold_float(d);
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
