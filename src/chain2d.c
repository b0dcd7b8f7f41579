// SPDX-License-Identifier: MIT
// spring_chain2d: one angle spring per segment, walked root to tip within every fixed step.
//
// Segment i's target world angle in a step is its parent's world angle *simulated in this same
// step* (the root's for segment 0) plus its rest and animated local angle, so a root rotation
// reaches the tip in the step it happens and every length is exact by construction (the pose is
// rebuilt by forward kinematics). Each segment keeps its deflection (angle minus target) unfolded
// from step to step: only the target's move since the last step is taken on the shortest arc, so
// a heading crossing +-180 degrees never whips, and a joint bent past half a turn is pulled back
// the way it bent (a deflection folded onto (-pi, pi] would pull it onward, round the far side).
//
// Forces. Each segment is a uniform rod of length L, mass m, pivoting at its start, at world angle
// theta, d = (cos theta, sin theta). In the frame of its pivot, which accelerates by a, a uniform
// field g_eff = gravity + wind - inertia a acts on its centre (the -a is the fictitious force):
//     theta'' = torque / moment = (L/2 m (d x g_eff)) / (m L^2 / 3) = (d x g_eff) / L',
// L' = 2L/3 (the rod's equivalent simple pendulum), d x g = d.x g.y - d.y g.x. So a pivot
// acceleration a adds -inertia (d x a) / L' = inertia (a x d) / L': a pivot pushed along +x under
// a segment hanging down (d = (0, -1)) gives theta'' < 0, the tip swings back towards -x (the tail
// lags). The pivot of segment 0 is the root. Its velocity is not the slope of the root path
// interpolated linearly inside the frame: that path's velocity is constant within a frame and
// jumps at frame boundaries, so a frame's whole change of velocity would arrive as one impulse,
// an error that grows with the square of the frame time (1.5% of a tail's length at 24 fps on a
// smooth run). The pivot's path u(t) instead goes through the root's positions at the ends of
// frames (its knots) as the cubic through the last four, whose orders above the first are
// weighted by how alike its last two second differences are (chain2d_kernel.h, K(fit)): on a
// smooth motion the weight is about 1 and the path is second-order accurate; a velocity step at
// a knot (a dash's start, a dead stop) makes one of them 0, the path the straight line between
// the two newest knots on either side of it, so the step reaches the chain as the same impulse in
// the one step that crosses the knot, at any frame rate (the plain cubic spread it over three
// frames, a different time at each rate). Frames shorter than a step join the next (the mean is
// taken over at least one step, so float noise in the root is never divided by a tiny time). The
// knots' displacements are capped at max_root_speed over their gaps, and u at
// SPRING_LANE_SPEED_MAX. The acceleration in a step is (u - the last step's u) / step; it
// telescopes, so the root's velocity the chain has felt never drifts from the root's. (The rig
// steps its chains one step at a time, each step a knot of this path, and places itself at each
// step on the same path through its frames' placements, spring_chain2d_path: a straight line a
// frame instead put the walk's tail 0.49% of its length off at 24 fps at inertia 1, the path
// 0.10%.) Every segment's pivot takes the
// root's acceleration; the parents' simulated motion reaches a child through its target (their
// angles, as without inertia), not through its pivot: in a one-way cascade (no reaction on the
// parent) the parent's tip acceleration fed to the child diverges on long chains -- its
// tangential part hands a child -1.5 L_i / L_(i+1) times its parent's angular acceleration
// (a whip amplified link after link: the heading sweep's per-frame jump grew from 5 to 30
// degrees, frame-rate errors fourfold), its centripetal part -L omega^2 d grows with the square of
// the speeds (a 256-link chain of 0.1 units under a gentle root ran away). In a real chain the
// links' reactions cancel both.
// A steady acceleration leans every segment (relative to its parent, like gravity): a tail leans
// back while the hip speeds up and swings on when it stops. Because the spring is
// linear, a constant angular acceleration over a step is the same as moving the target by
// alpha m / k (alpha taken at the step's start angle): the segment steps towards
// theta - deflection + alpha m / k, whose fixed point is the physical balance
// k deflection = m alpha(theta) for any strength (the deflection theta - target, never folded).
// A field stiffer than a step resolves (its stiffness beyond FIELD_STIFFNESS_MAX / step^2; a
// steady field counts its full |g + w| 1.5 / L wherever the segment points) turns the step into
// a Newton step onto that balance.
//
// Rest. After a step whose root, animation and root velocity did not change, every segment whose
// angular speed is within rest_angular_speed and which lies within rest_delta of its equilibrium
// (its target without forces; with forces the deflection u with k u = m alpha(t + u), found by
// bisection on the true torque next to the segment's deflection, or its limit) is snapped onto
// it with zero velocity, all segments or none; the chain then sleeps: a step with the same inputs
// does nothing, so stepping a sleeping chain and skipping it are the same. Any change of input or
// setting wakes it.
//
// Updates are all or nothing: every input is checked before anything changes, and a step cannot
// fail (the forces and the pivot's acceleration are bounded, the error a segment steps on too:
// chain2d_kernel.h), so an error never leaves a half-stepped chain and nothing is copied aside.
//
// Precision and speed: a segment's step, the chain's step (the pivot's path relative to its
// newest knot, the roots, the carried turn) and the pose are float arithmetic
// (chain2d_kernel.h: a bounded angle fold without fmod, a reduced-range polynomial sin/cos, no
// branch), the very code spring_chain2d_group runs on 4, 8 or 16 chains at once, so both give the
// same bits; the path's timeline (its knots' times, shared by a group's chains) and the rest test
// are in double.
//
// Memory: one block, the struct then dense per-segment arrays (structure of arrays), each
// 16-byte aligned (chain2d_block_internal.h). Arrays are addressed by offsets from the struct,
// never by stored pointers, so a chain made by spring_chain2d_init can be copied byte for byte
// (snapshots, rollback).
//
// Files: this one creates, steps, sets and queries; chain2d_validate.c checks descriptions and
// inputs, chain2d_snapshot.c takes and restores snapshots, the kernels (kernels_<set>.c) take the segments'
// fields a vector of segments at a time.
//
// Per-segment budget: 96 bytes (plus padding of each array to 16 bytes)
//   hot state, read and written every step     36 B: angle, velocity, prev_angle, target, the kept
//                                                     sin, cos and their angle, the offsets of the
//                                                     last step (the sleep test), anim_from
//   per-step configuration, read every step     48 B: k/m, 1/(k/m), transition (16) and limit,
//                                                     length, rest_angle, inertia, anim_to
//   cold                                        24 B: params, own_params (the segment's setting)
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/chain.h"

#include "chain2d_block_internal.h"
#include "chain2d_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

// Bisection steps of the equilibrium inside a bracket of twice the rest angle (far below float).
#define EQUILIBRIUM_ITERATIONS 40

// ---------------------------------------------------------------------------------------------
// The pivot's path (inertia)

// The timeline at creation: one knot, no gap, the last step at it.
static void timeline_restart(spring_chain2d_timeline *t)
{
	memset(t, 0, sizeof *t);
	t->count = 1;
}

// The reciprocals of the knots' distances the fit needs (0 for a knot the path does not have) and
// the nodes of the Newton basis.
void spring_chain2d_internal_timeline_fit(spring_chain2d_timeline *t)
{
	const int n = t->count;
	const double g0 = t->gap[0], g1 = t->gap[1], g2 = t->gap[2];
	const double dist[6] = {g0, g1, g2, g0 + g1, g1 + g2, (g0 + g1) + g2};
	const int need[6] = {2, 3, 4, 3, 4, 4}; // the knots each distance spans
	for (int k = 0; k < 6; k++) {
		t->recip[k] = n >= need[k] ? (float)(1.0 / dist[k]) : 0.0f;
	}
	t->node[0] = -g0;
	t->node[1] = -(g0 + g1);
}

double spring_chain2d_internal_timeline_advance(spring_chain2d_timeline *t, double frame_dt, int steps, const spring_clock *clock,
                                                spring_chain2d_basis *b)
{
	const double begin = t->elapsed, elapsed = begin + frame_dt;
	memset(b, 0, sizeof *b);
	// A frame the clock steps in ends a knot even when the frames' sum in double falls a rounding
	// short of a step (ten frames of 1/1200 s): otherwise that step would see no motion and the
	// next twice the root's speed, a jolt at 1200 fps that 1000 fps does not have.
	b->knot = steps > 0 || elapsed >= (double)clock->step;
	if (!b->knot) {
		t->elapsed = elapsed;
		return begin; // extends the newest cubic past its knot
	}
	// A hitch (the clock drops time): the knots before say nothing about this frame, and their
	// gaps would be lost against its length. The path over it is a straight line.
	b->hitch = elapsed > (double)clock->max_steps * (double)clock->step && t->count > 1;
	const int n = b->hitch ? 1 : t->count;
	t->gap[2] = t->gap[1];
	t->gap[1] = t->gap[0];
	t->gap[0] = elapsed;
	t->count = n < 4 ? n + 1 : 4;
	t->elapsed = 0.0;
	t->pivot_time -= elapsed;
	spring_chain2d_internal_timeline_fit(t);
	for (int k = 0; k < 6; k++) {
		b->r[k] = t->recip[k];
	}
	b->elapsed = (float)elapsed;
	return -elapsed + begin;
}

// A basis value as a finite float (bounded at 1e30).
static float basis_float(double w)
{
	return (float)(w > 1e30 ? 1e30 : w < -1e30 ? -1e30 : w);
}

void spring_chain2d_internal_timeline_step(spring_chain2d_timeline *t, double tau, spring_chain2d_basis *b)
{
	const double w1 = tau, w2 = w1 * (tau - t->node[0]), w3 = w2 * (tau - t->node[1]);
	const double span = tau - t->pivot_time;
	// Finite floats: a hitch's gap (a frame of any length) stays among the nodes for two frames,
	// where the orders whose basis it makes huge have zero coefficients; a zero times a finite
	// basis stays zero.
	b->w1 = basis_float(w1);
	b->w2 = basis_float(w2);
	b->w3 = basis_float(w3);
	b->has_span = span > 0.0;
	b->inv_span = b->has_span ? (float)(1.0 / span) : 0.0f;
	t->pivot_time = tau;
}

bool spring_chain2d_internal_timeline_valid(const spring_chain2d_timeline *t, float step)
{
	bool ok = t->count >= 1 && t->count <= 4 && t->elapsed >= 0.0 && t->elapsed < (double)step &&
	          t->pivot_time - t->pivot_time == 0.0;
	for (int g = 0; g < 3 && ok; g++) {
		// A knot's gap is the frames since the one before; gaps past the knots are 0 or stale.
		// (A frame the clock steps in ends a knot, however short: a knot's gap is positive, not a step.)
		ok = t->gap[g] - t->gap[g] == 0.0 && (g + 1 < t->count ? t->gap[g] > 0.0 : t->gap[g] >= 0.0);
	}
	if (!ok) {
		return false;
	}
	// One knot: as timeline_restart left it (no fit yet); more: the fit of their gaps.
	spring_chain2d_timeline fit = *t;
	if (t->count == 1) {
		memset(fit.gap, 0, sizeof fit.gap);
		memset(fit.node, 0, sizeof fit.node);
		memset(fit.recip, 0, sizeof fit.recip);
	} else {
		spring_chain2d_internal_timeline_fit(&fit);
	}
	return memcmp(fit.recip, t->recip, sizeof fit.recip) == 0 && memcmp(fit.node, t->node, sizeof fit.node) == 0 &&
	       memcmp(fit.gap, t->gap, sizeof fit.gap) == 0;
}

// ---------------------------------------------------------------------------------------------
// A placement's path (the rig's)

void spring_chain2d_internal_path_restart(spring_chain2d_path *p, spring_xform2 at)
{
	memset(p, 0, sizeof *p);
	timeline_restart(&p->time);
	p->knot = at;
}

// A knot's displacement (dx, dy) pushed onto a path's (newest first; a hitch drops the others)
// and the path through them fitted.
static void path_push(float *d, float *coef, const spring_chain2d_basis *b, float dx, float dy)
{
	for (int k = 5; k >= 2; k--) {
		d[k] = b->hitch ? 0.0f : d[k - 2];
	}
	d[0] = dx;
	d[1] = dy;
	spring_chain2d_lane_fit(b->r, d, coef);
}

double spring_chain2d_internal_path_frame(spring_chain2d_path *p, double frame_dt, int steps, const spring_clock *clock,
                                          spring_xform2 to)
{
	spring_chain2d_basis b;
	const double begin = spring_chain2d_internal_timeline_advance(&p->time, frame_dt, steps, clock, &b);
	if (b.knot) {
		path_push(p->d, p->coef, &b, to.position.x - p->knot.position.x, to.position.y - p->knot.position.y);
		path_push(p->turn_d, p->turn_coef, &b, spring_chain2d_delta(p->knot.angle, to.angle), 0.0f);
		p->knot = to;
	}
	return begin;
}

spring_xform2 spring_chain2d_internal_path_at(spring_chain2d_path *p, double tau)
{
	spring_chain2d_basis b;
	spring_chain2d_lane_basis lb;
	spring_chain2d_internal_timeline_step(&p->time, tau, &b);
	lb.w1 = b.w1;
	lb.w2 = b.w2;
	lb.w3 = b.w3;
	float x, y, turn, unused;
	spring_chain2d_lane_path(&lb, p->coef, &x, &y);
	spring_chain2d_lane_path(&lb, p->turn_coef, &turn, &unused);
	spring_xform2 at = p->knot;
	at.position.x += x;
	at.position.y += y;
	at.angle += turn; // near the knot's, as given (a placement's angle need not be folded)
	return at;
}

bool spring_chain2d_internal_path_valid(const spring_chain2d_path *p, float step, float max_d)
{
	if (!spring_chain2d_internal_timeline_valid(&p->time, step)) {
		return false;
	}
	for (int j = 0; j < 6; j++) {
		// Positions within max_d; turns the shortest (within half a turn), their partners 0.
		bool turn_ok = j % 2 == 0 ? fabsf(p->turn_d[j]) <= SPRING_LANE_PI : p->turn_d[j] == 0.0f;
		if (!(fabsf(p->d[j]) <= max_d) || !turn_ok) {
			return false;
		}
	}
	float coef[6], turn_coef[6];
	spring_chain2d_lane_fit(p->time.recip, p->d, coef);
	spring_chain2d_lane_fit(p->time.recip, p->turn_d, turn_coef);
	return memcmp(coef, p->coef, sizeof coef) == 0 && memcmp(turn_coef, p->turn_coef, sizeof turn_coef) == 0;
}

// A chain's pivot path standing at `position`: no displacement, the pivot at the newest knot.
static void path_restart(spring_chain2d *c, spring_vec2 position)
{
	memset(c->path_d, 0, sizeof c->path_d);
	memset(c->path_coef, 0, sizeof c->path_coef);
	memset(c->pivot, 0, sizeof c->pivot);
	c->input_position = position;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

// The block's layout is chain2d_block_internal.h's.
size_t spring_chain2d_internal_block_size(int n)
{
	return total_bytes(n);
}

// An acceleration as a float within +-SPRING_CHAIN2D_ACCEL_MAX.
static float bounded_accel(double a)
{
	return (float)(a > SPRING_CHAIN2D_ACCEL_MAX    ? SPRING_CHAIN2D_ACCEL_MAX
	               : a < -SPRING_CHAIN2D_ACCEL_MAX ? -SPRING_CHAIN2D_ACCEL_MAX
	                                               : a);
}

// The values every step reads that change only with the step or the forces.
void spring_chain2d_internal_cache_constants(spring_chain2d *c)
{
	const double h = (double)c->clock.step;
	c->inv_step = 1.0 / h;
	// Faster than half a turn per step is beyond what the step resolves; the bound keeps a violent
	// whip finite (its centripetal feed grows with the square of the speed).
	c->max_speed = (float)(SPRING_PI / h);
	c->held_max = (float)(SPRING_CHAIN2D_FIELD_STIFFNESS_MAX / (h * h));
	c->fx = bounded_accel((double)c->gravity.x + (double)c->wind.x);
	c->fy = bounded_accel((double)c->gravity.y + (double)c->wind.y);
	c->steady = (float)sqrt((double)c->fx * (double)c->fx + (double)c->fy * (double)c->fy);
}

// The prologue of every call taking a root: a chain and a finite root.
static spring_result check_chain_root(const spring_chain2d *chain, spring_xform2 root)
{
	return chain ? spring_chain2d_internal_check_root(root) : SPRING_ERROR_INVALID_ARGUMENT;
}

// The inertia a segment is stepped with: its own setting, else the chain's (0: none).
static float resolve_inertia(const spring_chain2d_desc *desc, const spring_chain2d_segment *s)
{
	if (s->no_inertia) {
		return 0.0f;
	}
	if (s->inertia > 0.0f) {
		return s->inertia;
	}
	if (desc->no_inertia) {
		return 0.0f;
	}
	return desc->inertia > 0.0f ? desc->inertia : SPRING_CHAIN2D_DEFAULT_INERTIA;
}

// ---------------------------------------------------------------------------------------------
// Creation

size_t spring_chain2d_memory_size(const spring_chain2d_desc *desc)
{
	chain2d_config cfg;
	if (spring_chain2d_internal_validate_desc(desc, &cfg, NULL) != SPRING_OK) {
		return 0;
	}
	return total_bytes(desc->segment_count);
}

// Every segment at rest under `root` (world angle = root + rest + animated offset, cumulative),
// history equal to the state.
static void place_at_rest(spring_chain2d *c, spring_xform2 root)
{
	int n = c->segment_count;
	float *angle = farr(c, ARR_ANGLE), *velocity = farr(c, ARR_VELOCITY), *prev = farr(c, ARR_PREV_ANGLE);
	float *target = farr(c, ARR_TARGET), *rest = farr(c, ARR_REST), *used = farr(c, ARR_OFFSET);
	float *from = farr(c, ARR_ANIM_FROM), *to = farr(c, ARR_ANIM_TO), *key = farr(c, ARR_KEY);
	float *bend = farr(c, ARR_DEFLECTION);
	float parent = root.angle;
	for (int i = 0; i < n; i++) {
		key[i] = NAN; // nothing kept
		from[i] = to[i];
		used[i] = to[i];
		float a = spring_det_fold_float((double)parent + (double)rest[i] + (double)to[i]);
		angle[i] = a;
		prev[i] = a;
		target[i] = a;
		velocity[i] = 0.0f;
		bend[i] = 0.0f;
		parent = a;
	}
	c->root = root;
	c->prev_root = root;
	c->input_root = root;
	c->root_velocity = spring_vec2_make(0.0f, 0.0f);
	path_restart(c, root.position);
	c->resting = false; // the next still step checks the balance under the forces
}

spring_result spring_chain2d_init(const spring_chain2d_desc *desc, void *memory, size_t size, spring_chain2d **out,
                                  spring_error *error)
{
	chain2d_config cfg;
	spring_result r = spring_chain2d_internal_validate_desc(desc, &cfg, error);
	if (r != SPRING_OK) {
		return r;
	}
	size_t need = total_bytes(desc->segment_count);
	r = spring_chain2d_internal_check_memory(memory, size, need, out, error);
	if (r != SPRING_OK) {
		return r;
	}
	memset(memory, 0, need);
	spring_chain2d *c = (spring_chain2d *)memory;
	c->segment_count = desc->segment_count;
	c->integrator = desc->integrator;
	c->params = cfg.params;
	c->tip_params = desc->tip_params;
	c->gravity = desc->gravity;
	c->wind = desc->wind;
	c->max_root_speed = desc->max_root_speed;
	c->max_root_angular_speed = desc->max_root_angular_speed;
	c->rest_delta = cfg.rest_delta;
	c->rest_angular_speed = cfg.rest_angular_speed;
	c->owner = (spring_internal_owner){0};
	r = spring_clock_init(&c->clock, cfg.step, cfg.max_steps);
	SPRING_ASSERT(r == SPRING_OK);
	spring_chain2d_internal_cache_constants(c);
	timeline_restart(&c->time);
	int n = c->segment_count;
	float *length = farr(c, ARR_LENGTH), *rest = farr(c, ARR_REST);
	float *inertia = farr(c, ARR_INERTIA);
	spring_params *params = parr(c, ARR_PARAMS), *own = parr(c, ARR_OWN_PARAMS);
	for (int i = 0; i < n; i++) {
		const spring_chain2d_segment *s = &desc->segments[i];
		length[i] = s->length;
		rest[i] = spring_chain2d_lane_fold(s->rest_angle);
		inertia[i] = resolve_inertia(desc, s);
		own[i] = s->params;
		r = spring_chain_internal_bone_params(s->params, c->params, c->tip_params, i, n, &params[i]);
		SPRING_ASSERT(r == SPRING_OK); // validated above
		r = spring_chain2d_internal_transition(c->integrator, params[i], c->clock.step, &steppers(c)[i]);
		SPRING_ASSERT(r == SPRING_OK); // validated parameters, validated step
		steppers(c)[i].limit = s->limit;
	}
	place_at_rest(c, spring_chain2d_internal_clean_root(desc->root));
	*out = c;
	return SPRING_OK;
}

SPRING_INTERNAL_DEFINE_CREATE(spring_chain2d, spring_chain2d, spring_chain2d_desc, "chain2d")

void spring_chain2d_destroy(spring_chain2d *chain)
{
	if (chain) {
		spring_internal_destroy(chain, &chain->owner);
	}
}

// ---------------------------------------------------------------------------------------------
// Stepping

spring_result spring_chain2d_internal_transition(spring_integrator integrator, spring_params p, float step,
                                                 spring_chain2d_lane_step_in *out)
{
	spring_stepper st;
	spring_result r = spring_chain_internal_stepper(integrator, p, step, &st);
	if (r != SPRING_OK) {
		return r;
	}
	const double w2 = (double)p.stiffness / (double)p.mass;
	out->w2 = (float)w2;
	out->inv_w2 = 1.0f / out->w2;
	if (integrator == SPRING_INTEGRATOR_SEMI_IMPLICIT) {
		// v' = v + h (-w2 e - g v), e' = e + h v': linear in (e, v) like the exact step.
		const double h = (double)step, g = (double)p.damping / (double)p.mass;
		out->pp = (float)(1.0 - h * h * w2);
		out->pv = (float)(h - h * h * g);
		out->vp = (float)(-h * w2);
		out->vv = (float)(1.0 - h * g);
	} else {
		out->pp = st.pp;
		out->pv = st.pv;
		out->vp = st.vp;
		out->vv = st.vv;
	}
	return SPRING_OK;
}

// The angular acceleration (rad/s^2) the uniform field (fx, fy) gives segment i held at world
// angle x (the rest test's torque, in double).
static double field_accel(const spring_chain2d *c, int i, double fx, double fy, double x)
{
	double s, co;
	spring_det_sincos_reduced(x, &s, &co);
	return 1.5 * (co * fy - s * fx) / (double)farr(c, ARR_LENGTH)[i];
}

// Net angular acceleration (rad/s^2) of segment i held still at deflection u from its target t
// (never folded): the spring's pull back, -w2 u, plus the field's (fx, fy) torque at t + u.
static double net_accel(const spring_chain2d *c, int i, float t, double fx, double fy, double u)
{
	spring_params p = parr(c, ARR_PARAMS)[i];
	return -(double)p.stiffness / (double)p.mass * u + field_accel(c, i, fx, fy, (double)t + u);
}

// The equilibrium deflection of segment i under target t and the field (fx, fy) if one lies
// within the rest angle of its deflection `bend`: 0 without a field; the limit when the field
// holds the segment against it; otherwise the zero of the net acceleration, found by bisection on
// the true torque inside [bend - rest, bend + rest] where it falls through zero (a stable
// balance). False when none.
static bool equilibrium(const spring_chain2d *c, int i, float t, double fx, double fy, double bend, double *out)
{
	const double near = (double)c->rest_delta;
	const double limit = (double)steppers(c)[i].limit;
	double eq = 0.0;
	if (fx != 0.0 || fy != 0.0) {
		double edge = bend > 0.0 ? limit : -limit;
		if (limit > 0.0 && fabs(bend) >= limit - near && (net_accel(c, i, t, fx, fy, edge) > 0.0) == (bend > 0.0)) {
			eq = edge; // pressed against the limit
		} else {
			double lo = bend - near, hi = bend + near;
			if (!(net_accel(c, i, t, fx, fy, lo) >= 0.0 && net_accel(c, i, t, fx, fy, hi) <= 0.0)) {
				return false;
			}
			for (int k = 0; k < EQUILIBRIUM_ITERATIONS; k++) {
				double mid = 0.5 * (lo + hi);
				if (net_accel(c, i, t, fx, fy, mid) > 0.0) {
					lo = mid;
				} else {
					hi = mid;
				}
			}
			eq = 0.5 * (lo + hi);
			if (limit > 0.0 && fabs(eq) > limit) {
				eq = eq > 0.0 ? limit : -limit;
			}
		}
	}
	*out = eq;
	return fabs(eq - bend) <= near;
}

// After a step whose inputs were those of the step before (a still root and animation): when
// every segment is slower than the rest angular speed and within the rest angle of its
// equilibrium, snaps them all onto it (root to tip, each under its snapped parent) with zero
// velocity and puts the chain to sleep; otherwise changes nothing.
void spring_chain2d_internal_try_rest(spring_chain2d *c)
{
	int n = c->segment_count;
	float *angle = farr(c, ARR_ANGLE), *velocity = farr(c, ARR_VELOCITY), *bend = farr(c, ARR_DEFLECTION);
	for (int i = 0; i < n; i++) {
		if (!(fabsf(velocity[i]) <= c->rest_angular_speed)) {
			return;
		}
	}
	const float *rest = farr(c, ARR_REST), *used = farr(c, ARR_OFFSET);
	const double fx = (double)c->gravity.x + (double)c->wind.x;
	const double fy = (double)c->gravity.y + (double)c->wind.y;
	float eq[SPRING_CHAIN_MAX_BONES], goal[SPRING_CHAIN_MAX_BONES], eq_bend[SPRING_CHAIN_MAX_BONES];
	float parent = c->root.angle;
	for (int i = 0; i < n; i++) {
		goal[i] = spring_det_fold_float((double)parent + (double)rest[i] + (double)used[i]);
		// The deflection from this goal, continuing the last step's (as a step does).
		const double from_goal = (double)bend[i] +
		                         (double)spring_det_fold_float((double)spring_chain2d_delta(goal[i], angle[i]) - (double)bend[i]);
		double u;
		if (!equilibrium(c, i, goal[i], fx, fy, from_goal, &u)) {
			return;
		}
		eq_bend[i] = (float)u;
		eq[i] = spring_det_fold_float((double)goal[i] + u);
		parent = eq[i];
	}
	memcpy(angle, eq, (size_t)n * sizeof(float));
	memcpy(farr(c, ARR_PREV_ANGLE), eq, (size_t)n * sizeof(float));
	memcpy(farr(c, ARR_TARGET), goal, (size_t)n * sizeof(float));
	memcpy(bend, eq_bend, (size_t)n * sizeof(float));
	memset(velocity, 0, (size_t)n * sizeof(float));
	c->resting = true;
}

// Carries n world angles rigidly by `turn` radians about the root (the part of a root rotation
// beyond max_root_angular_speed, or a teleport's turn): nothing swings.
static void carry_angles(float *angle, int n, double turn)
{
	for (int i = 0; i < n; i++) {
		angle[i] = spring_det_fold_float((double)angle[i] + turn);
	}
}

// carry_angles on the chain's world angles, and the root's velocity turns with them.
static void carry(spring_chain2d *c, double turn)
{
	carry_angles(farr(c, ARR_ANGLE), c->segment_count, turn);
	c->root_velocity = spring_vec2_rotate(c->root_velocity, (float)turn);
}

void spring_chain2d_internal_view(spring_chain2d *c, spring_chain2d_view *out)
{
	out->angle = farr(c, ARR_ANGLE);
	out->velocity = farr(c, ARR_VELOCITY);
	out->prev = farr(c, ARR_PREV_ANGLE);
	out->target = farr(c, ARR_TARGET);
	out->deflection = farr(c, ARR_DEFLECTION);
	out->inertia = farr(c, ARR_INERTIA);
	out->length = farr(c, ARR_LENGTH);
	out->rest = farr(c, ARR_REST);
	out->params = parr(c, ARR_PARAMS);
	out->own_params = parr(c, ARR_OWN_PARAMS);
	out->steppers = steppers(c);
	out->sin = farr(c, ARR_SIN);
	out->cos = farr(c, ARR_COS);
	out->key = farr(c, ARR_KEY);
	out->used = farr(c, ARR_OFFSET);
	out->anim_from = farr(c, ARR_ANIM_FROM);
	out->anim_to = farr(c, ARR_ANIM_TO);
}

#define SPRING_CHAIN2D_ONE(field) +1
_Static_assert((0 SPRING_CHAIN2D_LANE_FIELDS(SPRING_CHAIN2D_ONE)) == SPRING_CHAIN2D_LN_RESTING,
               "the lane fields and their indices agree");
#undef SPRING_CHAIN2D_ONE

void spring_chain2d_internal_lane_load(const spring_chain2d *c, spring_chain2d_lane_lane *L)
{
	float *v = L->v;
#define SPRING_CHAIN2D_LOAD(field) *v++ = c->field;
	SPRING_CHAIN2D_LANE_FIELDS(SPRING_CHAIN2D_LOAD)
#undef SPRING_CHAIN2D_LOAD
	const int32_t mask = c->resting ? -1 : 0;
	memcpy(&L->v[SPRING_CHAIN2D_LN_RESTING], &mask, sizeof mask);
}

void spring_chain2d_internal_lane_store(spring_chain2d *c, const spring_chain2d_lane_lane *L)
{
	const float *v = L->v;
#define SPRING_CHAIN2D_STORE(field) c->field = *v++;
	SPRING_CHAIN2D_LANE_FIELDS(SPRING_CHAIN2D_STORE)
#undef SPRING_CHAIN2D_STORE
	c->resting = lanes_scalar_bits(L->v[SPRING_CHAIN2D_LN_RESTING]) != 0;
}

void spring_chain2d_internal_basis_settings(const spring_chain2d *c, spring_chain2d_lane_basis *p)
{
	p->step = c->clock.step;
	p->inv_step = (float)c->inv_step;
	p->held_max = c->held_max;
	p->max_speed = c->max_speed;
	p->turns = c->max_root_angular_speed > 0.0f;
}

// The timeline's values in the lane basis.
static void basis_from(const spring_chain2d_basis *b, spring_chain2d_lane_basis *p)
{
	for (int k = 0; k < 6; k++) {
		p->r[k] = b->r[k];
	}
	p->elapsed = b->elapsed;
	p->hitch = b->hitch;
	p->w1 = b->w1;
	p->w2 = b->w2;
	p->w3 = b->w3;
	p->inv_span = b->inv_span;
	p->has_span = b->has_span;
}

// `steps` fixed steps of a frame of `frame_dt` to root `to` (clean) from input_root, the last
// ending the frame (`fraction` NULL: the clock's sub-step fractions; otherwise every step at
// that fraction), with the animated offsets `fixed` or, NULL, those of the frame
// interpolated from anim_from to anim_to: spring_chain2d_group's frame for one chain, with the
// same lane arithmetic (chain2d_kernel.h). It cannot fail: every input is checked before.
static void run_frame(spring_chain2d *c, spring_xform2 to, double frame_dt, int steps, const float *fraction, const float *fixed)
{
	const int n = c->segment_count;
	float *anim_from = farr(c, ARR_ANIM_FROM), *used = farr(c, ARR_OFFSET);
	const float *anim_to = farr(c, ARR_ANIM_TO);
	spring_chain2d_basis tb;
	spring_chain2d_lane_basis p;
	spring_chain2d_internal_basis_settings(c, &p);
	const double begin = spring_chain2d_internal_timeline_advance(&c->time, frame_dt, steps, &c->clock, &tb);
	basis_from(&tb, &p);
	spring_chain2d_lane_lane L;
	spring_chain2d_internal_lane_load(c, &L);
	const size_t offset_bytes = (size_t)n * sizeof(float);
	const bool animated = fixed == NULL && memcmp(anim_from, anim_to, offset_bytes) != 0;
	const float *frame_offsets = fixed ? fixed : anim_to;
	// Asleep and nothing changed, the pivot at rest on its path: every step would do nothing.
	const bool asleep = !animated && memcmp(frame_offsets, used, offset_bytes) == 0 &&
	                    spring_chain2d_lane_frame_asleep(&L, to.position.x, to.position.y, to.angle);
	if (tb.knot) {
		spring_chain2d_lane_knot(&p, to.position.x, to.position.y, &L);
	}
	float *angle = farr(c, ARR_ANGLE), *velocity = farr(c, ARR_VELOCITY), *target = farr(c, ARR_TARGET);
	float *prev = farr(c, ARR_PREV_ANGLE), *sn = farr(c, ARR_SIN), *cs = farr(c, ARR_COS), *key = farr(c, ARR_KEY);
	float *bend = farr(c, ARR_DEFLECTION);
	const float *length = farr(c, ARR_LENGTH), *inertia = farr(c, ARR_INERTIA), *rest = farr(c, ARR_REST);
	const spring_chain2d_lane_step_in *st = steppers(c);
	float offsets[SPRING_CHAIN_MAX_BONES];
	for (int k = 0; k < steps; k++) {
		const float f = fraction ? *fraction : spring_clock_substep_fraction(&c->clock, k, steps);
		const float *off = frame_offsets;
		if (animated) {
			for (int i = 0; i < n; i++) {
				offsets[i] = anim_from[i] == anim_to[i] ? anim_to[i] : spring_chain2d_lerp(anim_from[i], anim_to[i], f);
			}
			off = offsets;
		}
		spring_chain2d_internal_timeline_step(&c->time, begin + (double)f * frame_dt, &tb);
		basis_from(&tb, &p);
		p.g = 1.0f - f;
		spring_chain2d_lane_chain_in in;
		int still;
		const int same = memcmp(off, used, offset_bytes) == 0;
		if (!spring_chain2d_lane_begin(&p, &L, to.position.x, to.position.y, to.angle, !asleep, same, &in, &still)) {
			continue;
		}
		memcpy(prev, angle, offset_bytes);
		// The fields of every segment at once, then the walk down the chain.
		float alpha[SPRING_CHAIN_MAX_BONES], stiff[SPRING_CHAIN_MAX_BONES];
		const spring_chain2d_fields fields = {n, in.turn != 0.0f, in, angle, inertia, length, alpha, stiff, sn, cs, key};
		spring_chain2d_internal_fields(&fields);
		float parent = L.v[SPRING_CHAIN2D_LN_RA]; // this step's simulated angle of the parent
		for (int i = 0; i < n; i++) {
			spring_chain2d_lane_step(&st[i], st[i].limit > 0.0f, alpha[i], stiff[i], parent, rest[i], off[i] != 0.0f, off[i],
			                         in.held_max, in.max_speed, &angle[i], &velocity[i], &bend[i], &target[i]);
			parent = angle[i];
		}
		if (!same) {
			memcpy(used, off, offset_bytes);
		}
		if (still) {
			spring_chain2d_internal_lane_store(c, &L);
			spring_chain2d_internal_try_rest(c);
			spring_chain2d_internal_lane_load(c, &L);
		}
	}
	L.v[SPRING_CHAIN2D_LN_IX] = to.position.x;
	L.v[SPRING_CHAIN2D_LN_IY] = to.position.y;
	L.v[SPRING_CHAIN2D_LN_IA] = to.angle;
	spring_chain2d_internal_lane_store(c, &L);
	if (animated) { // otherwise the same bytes already
		memcpy(anim_from, anim_to, offset_bytes);
	}
}

spring_result spring_chain2d_update(spring_chain2d *chain, spring_xform2 root, float frame_dt)
{
	spring_result r = check_chain_root(chain, root);
	if (r == SPRING_OK) {
		r = spring_chain2d_internal_check_frame_dt(frame_dt);
	}
	if (r != SPRING_OK) {
		return r;
	}
	int steps = spring_clock_advance(&chain->clock, frame_dt); // checked: the only refusal, before any change
	if (steps < 0) {
		return (spring_result)(-steps);
	}
	run_frame(chain, spring_chain2d_internal_clean_root(root), (double)frame_dt, steps, NULL, NULL);
	return SPRING_OK;
}

spring_result spring_chain2d_internal_step(spring_chain2d *chain, spring_xform2 root, const float *anim_offsets)
{
	spring_result r = check_chain_root(chain, root);
	if (r == SPRING_OK && anim_offsets) {
		r = check_offsets(anim_offsets, chain->segment_count);
	}
	if (r != SPRING_OK) {
		return r;
	}
	const float *offsets = anim_offsets ? anim_offsets : farr(chain, ARR_ANIM_TO);
	spring_xform2 at = spring_chain2d_internal_clean_root(root);
	chain->input_root = at;
	// The rig interpolates its roots per step: each step is a frame of one step on the pivot's path.
	const float whole = 1.0f;
	run_frame(chain, at, (double)chain->clock.step, 1, &whole, offsets);
	return SPRING_OK;
}

spring_result spring_chain2d_internal_stepped_angles(const spring_chain2d *chain, float *world_angles, int capacity)
{
	if (!chain || !world_angles) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, chain->segment_count);
	if (room != SPRING_OK) {
		return room;
	}
	memcpy(world_angles, farr(chain, ARR_ANGLE), (size_t)chain->segment_count * sizeof(float));
	return SPRING_OK;
}

spring_result spring_chain2d_set_animation(spring_chain2d *chain, const float *local_offsets, int count)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int n = chain->segment_count;
	float *to = farr(chain, ARR_ANIM_TO);
	if (!local_offsets) {
		if (count != 0 && count != n) {
			return SPRING_ERROR_INVALID_ARGUMENT;
		}
		memset(to, 0, (size_t)n * sizeof(float));
		return SPRING_OK;
	}
	if (count != n) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_offsets(local_offsets, n);
	if (r != SPRING_OK) {
		return r;
	}
	memcpy(to, local_offsets, (size_t)n * sizeof(float));
	return SPRING_OK;
}

spring_result spring_chain2d_reset(spring_chain2d *chain, spring_xform2 root)
{
	spring_result r = check_chain_root(chain, root);
	if (r != SPRING_OK) {
		return r;
	}
	place_at_rest(chain, spring_chain2d_internal_clean_root(root));
	return SPRING_OK;
}

// p moved rigidly by the transform taking `from` onto `to` (rotation cs/sn about from's origin).
static spring_vec2 move_rigid(spring_vec2 p, spring_vec2 from, spring_vec2 to, double cs, double sn)
{
	double dx = (double)p.x - (double)from.x, dy = (double)p.y - (double)from.y;
	spring_vec2 out = {(float)((double)to.x + (cs * dx - sn * dy)), (float)((double)to.y + (sn * dx + cs * dy))};
	return out;
}

spring_result spring_chain2d_teleport(spring_chain2d *chain, spring_xform2 root)
{
	spring_result r = check_chain_root(chain, root);
	if (r != SPRING_OK) {
		return r;
	}
	spring_xform2 to = spring_chain2d_internal_clean_root(root);
	spring_xform2 old = chain->root;
	double delta = (double)spring_angle_delta(old.angle, to.angle);
	double sn, cs;
	spring_det_sincos_reduced(delta, &sn, &cs);
	int n = chain->segment_count;
	float *prev = farr(chain, ARR_PREV_ANGLE), *target = farr(chain, ARR_TARGET);
	for (int i = 0; i < n; i++) {
		prev[i] = spring_det_fold_float((double)prev[i] + delta);
		target[i] = spring_det_fold_float((double)target[i] + delta);
	}
	carry(chain, delta); // the angles and the root's velocity
	spring_xform2 prev_root = {move_rigid(chain->prev_root.position, old.position, to.position, cs, sn),
	                           spring_det_fold_float((double)chain->prev_root.angle + delta),
	                           {1.0f, 1.0f}};
	spring_xform2 input = {move_rigid(chain->input_root.position, old.position, to.position, cs, sn),
	                       spring_det_fold_float((double)chain->input_root.angle + delta),
	                       {1.0f, 1.0f}};
	chain->prev_root = prev_root;
	chain->input_root = input;
	// The pivot's path turns with the root (only its differences matter: its knots are displacements).
	chain->input_position = input.position;
	for (int j = 0; j < 4; j++) {
		float *p = j < 3 ? &chain->path_d[2 * j] : chain->pivot;
		double x = (double)p[0], y = (double)p[1];
		p[0] = (float)(cs * x - sn * y);
		p[1] = (float)(sn * x + cs * y);
	}
	spring_chain2d_lane_fit(chain->time.recip, chain->path_d, chain->path_coef);
	chain->root = to;
	chain->resting = false; // the forces now act at other angles
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Runtime settings (never touch the state)

spring_result spring_chain2d_translate(spring_chain2d *chain, spring_vec2 delta)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec2_is_finite(delta)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_xform2 root = chain->root;
	root.position = spring_vec2_add(root.position, delta);
	return spring_chain2d_teleport(chain, root);
}

spring_result spring_chain2d_rotate(spring_chain2d *chain, float angle, spring_vec2 pivot)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_internal_finite(angle) || !spring_vec2_is_finite(pivot)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_xform2 root = chain->root;
	root.position = spring_vec2_add(pivot, spring_vec2_rotate(spring_vec2_sub(root.position, pivot), angle));
	root.angle = spring_angle_wrap(root.angle + angle);
	return spring_chain2d_teleport(chain, root);
}

// What segment `segment` of `chain` is stepped with when its own setting is `params`: the
// effective params and the transition (limit unset). The rule of set_params and of restore.
spring_result spring_chain2d_internal_segment_settings(const spring_chain2d *chain, int segment, spring_params params,
                                                       spring_params *p, spring_chain2d_lane_step_in *st)
{
	spring_result r = spring_chain_internal_bone_params(params, chain->params, chain->tip_params, segment, chain->segment_count,
	                                                    p);
	if (r != SPRING_OK) {
		return r;
	}
	return spring_chain2d_internal_transition(chain->integrator, *p, chain->clock.step, st);
}

spring_result spring_chain2d_set_params(spring_chain2d *chain, int segment, spring_params params)
{
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_params p;
	spring_chain2d_lane_step_in st;
	spring_result r = spring_chain2d_internal_segment_settings(chain, segment, params, &p, &st);
	if (r != SPRING_OK) {
		return r;
	}
	spring_params *own = &parr(chain, ARR_OWN_PARAMS)[segment];
	chain->resting = chain->resting && memcmp(own, &params, sizeof params) == 0;
	parr(chain, ARR_PARAMS)[segment] = p;
	*own = params;
	st.limit = steppers(chain)[segment].limit;
	steppers(chain)[segment] = st;
	return SPRING_OK;
}

spring_result spring_chain2d_set_limit(spring_chain2d *chain, int segment, float limit)
{
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_limit(limit);
	if (r != SPRING_OK) {
		return r;
	}
	float *own = &steppers(chain)[segment].limit;
	chain->resting = chain->resting && *own == limit;
	*own = limit;
	return SPRING_OK;
}

spring_result spring_chain2d_set_forces(spring_chain2d *chain, spring_vec2 gravity, spring_vec2 wind)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_forces(gravity, wind);
	if (r != SPRING_OK) {
		return r;
	}
	chain->resting = chain->resting && memcmp(&chain->gravity, &gravity, sizeof gravity) == 0 &&
	                 memcmp(&chain->wind, &wind, sizeof wind) == 0;
	chain->gravity = gravity;
	chain->wind = wind;
	spring_chain2d_internal_cache_constants(chain);
	return SPRING_OK;
}

spring_result spring_chain2d_set_inertia(spring_chain2d *chain, int segment, float inertia)
{
	if (!chain || segment < -1 || segment >= chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_range(inertia, INERTIA_MAX);
	if (r != SPRING_OK) {
		return r;
	}
	int n = chain->segment_count;
	float *own = farr(chain, ARR_INERTIA);
	bool changed = false;
	for (int i = 0; i < n; i++) {
		if (segment < 0 || i == segment) {
			changed = changed || own[i] != inertia;
			own[i] = inertia;
		}
	}
	chain->resting = chain->resting && !changed;
	return SPRING_OK;
}

spring_result spring_chain2d_set_root_limits(spring_chain2d *chain, float max_root_speed, float max_root_angular_speed)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_root_limits(max_root_speed, max_root_angular_speed);
	if (r != SPRING_OK) {
		return r;
	}
	chain->resting = chain->resting && chain->max_root_speed == max_root_speed &&
	                 chain->max_root_angular_speed == max_root_angular_speed;
	chain->max_root_speed = max_root_speed;
	chain->max_root_angular_speed = max_root_angular_speed;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Queries

int spring_chain2d_segment_count(const spring_chain2d *chain)
{
	return chain ? chain->segment_count : 0;
}

spring_result spring_chain2d_internal_pose(const spring_chain2d *chain, float alpha, spring_xform2 *joints, float *local_angles,
                                           int capacity)
{
	if (!chain || (!joints && !local_angles)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int n = chain->segment_count;
	spring_result room = spring_internal_room(capacity, joints ? n + 1 : n);
	if (room != SPRING_OK) {
		return room;
	}
	if (!spring_internal_finite(alpha)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (alpha < 0.0f || alpha > 1.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	const spring_chain2d_pose_src src = {farr(chain, ARR_PREV_ANGLE), farr(chain, ARR_ANGLE),
	                                     farr(chain, ARR_SIN),        farr(chain, ARR_COS),
	                                     farr(chain, ARR_KEY),        1,
	                                     farr(chain, ARR_LENGTH),     n};
	spring_chain2d_pose_walk(&src, chain->prev_root, chain->root, alpha, joints, local_angles);
	return SPRING_OK;
}

spring_result spring_chain2d_get_pose(const spring_chain2d *chain, spring_xform2 *joints, float *local_angles, int capacity)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_chain2d_internal_pose(chain, chain->clock.alpha, joints, local_angles, capacity);
}

spring_result spring_chain2d_get_state(const spring_chain2d *chain, int segment, spring_state *world_angle)
{
	if (!chain || !world_angle || segment < 0 || segment >= chain->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_state s = {farr(chain, ARR_ANGLE)[segment], farr(chain, ARR_VELOCITY)[segment]};
	*world_angle = s;
	return SPRING_OK;
}

float spring_chain2d_get_target(const spring_chain2d *chain, int segment)
{
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return 0.0f;
	}
	return farr(chain, ARR_TARGET)[segment];
}

bool spring_chain2d_is_resting(const spring_chain2d *chain)
{
	return chain && chain->resting;
}

const spring_clock *spring_chain2d_clock(const spring_chain2d *chain)
{
	return chain ? &chain->clock : NULL;
}

spring_params spring_chain2d_internal_params(const spring_chain2d *chain, int segment)
{
	spring_params zero = {0.0f, 0.0f, 0.0f};
	if (!chain || segment < 0 || segment >= chain->segment_count) {
		return zero;
	}
	return parr(chain, ARR_PARAMS)[segment];
}
