// SPDX-License-Identifier: MIT
// spring_chain: tip springs (the undulation recipe), 3D with a 2D mode.
//
// Per fixed step, root to tip, for bone i:
//   rigid      = parent_simulated * rest_local[i]          (parent = root for bone 0)
//   pivot      = rigid.position,  rigid_tip = rigid * tip[i]
//   tip, vel  <- spring step toward rigid_tip (+ constant forces as an equilibrium shift)
//   cone limit around the rigid direction, projection back to the bone length (and the
//   projected-away relative velocity removed), colliders (sliding on the length sphere)
//   world[i]   = shortest-arc rotation (rigid_tip - pivot -> tip - pivot) * rigid, at the pivot
//
// Two frame walks share that middle (move_tip): the 3D one with quaternions, and for mode_2d
// chains driven through spring_chain_internal_step2d a 2D one where rotations are unit complex
// numbers (cos, sin) and no trigonometry runs per bone except for an animated local angle.
// The pose of the last step is kept in the representation of the walk that made it (world or
// world2, `pose_2d` says which) and converted only when read the other way.
//
// Memory: one block, the struct then 16-byte aligned arrays addressed by offsets from the
// struct (never stored pointers), so a chain can be copied byte for byte and keep working.
#include "spring/chain.h"

#include "chain_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

// Byte offsets of the per-bone arrays from the start of the block.
typedef struct chain_layout {
	size_t rest_local, anim_local, tip_local, length, tip_radius, cone_limit, params_set, params, w2, force, stepper;
	size_t tx, ty, tz, vx, vy, vz, world, world_prev, world2, world2_prev, target, colliders, step_local3, step_local2, total;
} chain_layout;

// Which walk made the last step (the inputs the sleep test compares with).
enum { WALK_NONE = 0, WALK_3D, WALK_2D };

struct spring_chain {
	int bone_count;
	int collider_count;
	int max_colliders;
	int mode_2d;
	spring_chain_projection projection;
	int animated; // anim_local is used instead of rest_local
	int pose_2d;  // the last step was a 2D walk: world2/world2_prev hold the pose, world/world_prev are stale
	spring_integrator integrator;
	spring_clock clock;
	spring_vec3 gravity, wind;
	// Inherited-motion caps (0 = none) and their per-step forms.
	float max_root_speed, max_root_angular_speed;
	float cap_distance;              // max_root_speed * step
	double cap_cos_half;             // cos(min(max_root_angular_speed * step, pi) / 2)
	float rest_distance, rest_speed; // effective thresholds
	// Rest and sleep: `resting` = the last step ended snapped at rest; `still` counts the resting
	// steps in a row with identical inputs (2 = asleep: stepping again changes nothing).
	int resting, still, sleep_off;
	int walk;                 // WALK_*: the walk of the last step
	int anim_explicit;        // the last step's locals came from the step call (step_local3/2), not the store
	spring_xform3 last_root;  // the (normalised) root of the last 3D step
	spring_xform2 last_root2; // the root of the last 2D step, as given
	long long steps_run;      // physics steps actually run (white-box tests)
	spring_params chain_params, tip_params;
	spring_xform3 root_input;     // root passed with the previous frame
	spring_xform3 root_step;      // root of the last step
	spring_xform3 root_step_prev; // root of the step before
	spring_internal_owner owner;  // set by create; zero for caller memory
	chain_layout at;              // where the arrays are
};

// A 2D bone transform: pivot and the unit direction (cos, sin) of its x axis. 16 bytes.
typedef struct chain_pose2 {
	float x, y, c, s;
} chain_pose2;

// The arrays of a block, resolved from the offsets for one call.
typedef struct chain_arrays {
	// Cold per-bone configuration.
	spring_xform3 *rest_local;
	spring_xform3 *anim_local;
	spring_vec3 *tip_local;
	float *length;
	float *tip_radius;
	float *cone_limit;
	spring_params *params_set; // as given (zero = default)
	spring_params *params;     // effective
	float *w2;                 // k / m, for the rest position under forces
	float *force;              // 2 per bone: position and velocity response to a unit acceleration
	spring_stepper *stepper;   // exact transition over one step
	// Hot per-bone state, structure of arrays: simulated tip and velocity, 24 bytes a bone.
	float *tx, *ty, *tz, *vx, *vy, *vz;
	// Output: bone transforms at the last step and the one before (56 bytes each; 16 bytes each
	// in 2D, mode_2d only), rigid tips.
	spring_xform3 *world;
	spring_xform3 *world_prev;
	chain_pose2 *world2;
	chain_pose2 *world2_prev;
	spring_vec3 *target;
	spring_chain_collider *colliders;
	spring_xform3 *step_local3; // the explicit locals of the last 3D step, as given
	spring_xform2 *step_local2; // the explicit locals of the last 2D step, as given (mode_2d only)
} chain_arrays;

static chain_arrays arrays(const spring_chain *c)
{
	unsigned char *base = (unsigned char *)(uintptr_t)c;
	const chain_layout *l = &c->at;
	chain_arrays a;
	a.rest_local = (spring_xform3 *)(void *)(base + l->rest_local);
	a.anim_local = (spring_xform3 *)(void *)(base + l->anim_local);
	a.tip_local = (spring_vec3 *)(void *)(base + l->tip_local);
	a.length = (float *)(void *)(base + l->length);
	a.tip_radius = (float *)(void *)(base + l->tip_radius);
	a.cone_limit = (float *)(void *)(base + l->cone_limit);
	a.params_set = (spring_params *)(void *)(base + l->params_set);
	a.params = (spring_params *)(void *)(base + l->params);
	a.w2 = (float *)(void *)(base + l->w2);
	a.force = (float *)(void *)(base + l->force);
	a.stepper = (spring_stepper *)(void *)(base + l->stepper);
	a.tx = (float *)(void *)(base + l->tx);
	a.ty = (float *)(void *)(base + l->ty);
	a.tz = (float *)(void *)(base + l->tz);
	a.vx = (float *)(void *)(base + l->vx);
	a.vy = (float *)(void *)(base + l->vy);
	a.vz = (float *)(void *)(base + l->vz);
	a.world = (spring_xform3 *)(void *)(base + l->world);
	a.world_prev = (spring_xform3 *)(void *)(base + l->world_prev);
	a.world2 = (chain_pose2 *)(void *)(base + l->world2);
	a.world2_prev = (chain_pose2 *)(void *)(base + l->world2_prev);
	a.target = (spring_vec3 *)(void *)(base + l->target);
	a.colliders = (spring_chain_collider *)(void *)(base + l->colliders);
	a.step_local3 = (spring_xform3 *)(void *)(base + l->step_local3);
	a.step_local2 = (spring_xform2 *)(void *)(base + l->step_local2);
	return a;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

static int quat_is_finite(spring_quat q)
{
	return spring_is_finite(q.x) && spring_is_finite(q.y) && spring_is_finite(q.z) && spring_is_finite(q.w);
}

static int in_range(float v, float max)
{
	return v >= -max && v <= max;
}

static int vec3_in_range(spring_vec3 p, float max)
{
	return in_range(p.x, max) && in_range(p.y, max) && in_range(p.z, max);
}

// A transform handed to the chain: SPRING_ERROR_NOT_FINITE for a non-finite component,
// SPRING_ERROR_OUT_OF_RANGE for a position beyond SPRING_CHAIN_MAX_COORDINATE; otherwise its
// rotation is normalised in place (zero means identity).
static spring_result accept_xform3(spring_xform3 *t)
{
	if (!spring_vec3_is_finite(t->position) || !quat_is_finite(t->rotation)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(t->position, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	t->rotation = spring_quat_normalize(t->rotation); // zero in, identity out
	return SPRING_OK;
}

static int same_bits(const void *a, const void *b, size_t size)
{
	return memcmp(a, b, size) == 0;
}

// Position and velocity response of one step to a unit constant acceleration from rest, for
// w2 = k/m, g = c/m and step t, in double without cancellation however soft the spring (the
// plain (1 - pp) / w2 loses everything once w2 t^2 is far below 1).
static double forced_position(double w2, double g, double t, const spring_transition *tr)
{
	double e1 = g * t, e2 = w2 * t * t;
	if (e2 >= 0.5) {
		return (1.0 - tr->pp) / w2;
	}
	if (e1 <= 4.0) {
		// Taylor series: t^2 sum_{n>=1} (-1)^(n+1) h_(n-1) / (n+1)!, where h are the complete
		// symmetric polynomials of the two rates (h_n = e1 h_(n-1) - e2 h_(n-2)).
		double h_prev = 0.0, h = 1.0, fact = 2.0, sum = 0.0, sign = 1.0;
		for (int n = 1; n <= 40; n++) {
			sum += sign * h / fact;
			double next = e1 * h - e2 * h_prev;
			h_prev = h;
			h = next;
			fact *= (double)(n + 2);
			sign = -sign;
		}
		return t * t * sum;
	}
	// Strongly overdamped (lambda t > 2 > w t): two real rates, the difference of two
	// well-separated effective times.
	double lambda = 0.5 * g, wn = sqrt(w2);
	double mu = sqrt((lambda - wn) * (lambda + wn));
	double fast = lambda + mu, slow = w2 / fast;
	double ts = slow > 0.0 ? -spring_det_expm1(-slow * t) / slow : t;
	double tf = -spring_det_expm1(-fast * t) / fast;
	return (ts - tf) / (fast - slow);
}

static spring_xform3 xform3_normalized(spring_xform3 t)
{
	t.rotation = spring_quat_normalize(t.rotation);
	return t;
}

static spring_vec3 tip_of(const chain_arrays *a, int i)
{
	return spring_vec3_make(a->tx[i], a->ty[i], a->tz[i]);
}

static spring_vec3 vel_of(const chain_arrays *a, int i)
{
	return spring_vec3_make(a->vx[i], a->vy[i], a->vz[i]);
}

static void set_tip(const chain_arrays *a, int i, spring_vec3 p, spring_vec3 v)
{
	a->tx[i] = p.x;
	a->ty[i] = p.y;
	a->tz[i] = p.z;
	a->vx[i] = v.x;
	a->vy[i] = v.y;
	a->vz[i] = v.z;
}

static void set_error_kind_text(spring_error *e, spring_result r, const char *kind, int index, const char *field,
                                const char *text)
{
	spring_element element = strcmp(kind, "collider") == 0 ? SPRING_ELEMENT_COLLIDER : SPRING_ELEMENT_BONE;
	spring_internal_fail_at(e, r, "chain", index >= 0 ? element : SPRING_ELEMENT_NONE, index, field, "%s %s", field, text);
}

static void set_error(spring_error *e, spring_result r, int index, const char *field, const char *fmt, double value)
{
	char text[96];
	snprintf(text, sizeof text, fmt, value);
	set_error_kind_text(e, r, "bone", index, field, text);
}

static void set_error_text(spring_error *e, spring_result r, int index, const char *field, const char *text)
{
	set_error_kind_text(e, r, "bone", index, field, text);
}

static void set_error_kind(spring_error *e, spring_result r, const char *kind, int index, const char *field, const char *fmt,
                           double value)
{
	char text[96];
	snprintf(text, sizeof text, fmt, value);
	set_error_kind_text(e, r, kind, index, field, text);
}

static spring_result prepare_bone(spring_chain *c, const chain_arrays *a, int i)
{
	spring_params p;
	spring_result r = spring_chain_internal_bone_params(a->params_set[i], c->chain_params, c->tip_params, i, c->bone_count, &p);
	if (r != SPRING_OK) {
		return r;
	}
	spring_stepper st;
	r = spring_chain_internal_stepper(c->integrator, p, c->clock.step, &st);
	if (r != SPRING_OK) {
		return r;
	}
	double m = (double)p.mass, h = (double)c->clock.step;
	double w2 = (double)p.stiffness / m, g = (double)p.damping / m;
	spring_transition tr;
	spring_transition_compute(w2, g, h, &tr);
	a->params[i] = p;
	a->stepper[i] = st;
	a->w2[i] = p.stiffness / p.mass;
	a->force[2 * i] = (float)forced_position(w2, g, h, &tr);
	a->force[2 * i + 1] = (float)tr.pv;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Layout

static void layout_compute(int n, int colliders, int mode_2d, chain_layout *l)
{
	size_t at = spring_internal_align16(sizeof(spring_chain));
	size_t un = (size_t)n;
#define PLACE(field, bytes)                         \
	do {                                            \
		l->field = at;                              \
		at = spring_internal_align16(at + (bytes)); \
	} while (0)
	PLACE(tx, un * sizeof(float));
	PLACE(ty, un * sizeof(float));
	PLACE(tz, un * sizeof(float));
	PLACE(vx, un * sizeof(float));
	PLACE(vy, un * sizeof(float));
	PLACE(vz, un * sizeof(float));
	PLACE(stepper, un * sizeof(spring_stepper));
	PLACE(w2, un * sizeof(float));
	PLACE(force, 2u * un * sizeof(float));
	PLACE(world, un * sizeof(spring_xform3));
	PLACE(world_prev, un * sizeof(spring_xform3));
	PLACE(world2, mode_2d ? un * sizeof(chain_pose2) : 0u);
	PLACE(world2_prev, mode_2d ? un * sizeof(chain_pose2) : 0u);
	PLACE(target, un * sizeof(spring_vec3));
	PLACE(rest_local, un * sizeof(spring_xform3));
	PLACE(anim_local, un * sizeof(spring_xform3));
	PLACE(tip_local, un * sizeof(spring_vec3));
	PLACE(length, un * sizeof(float));
	PLACE(tip_radius, un * sizeof(float));
	PLACE(cone_limit, un * sizeof(float));
	PLACE(params_set, un * sizeof(spring_params));
	PLACE(params, un * sizeof(spring_params));
	PLACE(colliders, (size_t)colliders * sizeof(spring_chain_collider));
	PLACE(step_local3, un * sizeof(spring_xform3));
	PLACE(step_local2, mode_2d ? un * sizeof(spring_xform2) : 0u);
#undef PLACE
	l->total = at;
}

static spring_result validate_collider(const spring_chain_collider *k, int index, spring_error *error)
{
	if ((int)k->type < 0 || (int)k->type > (int)SPRING_CHAIN_COLLIDER_PLANE) {
		set_error_kind(error, SPRING_ERROR_INVALID_ARGUMENT, "collider", index, "type", "is not a collider type (got %g)",
		               (double)k->type);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec3_is_finite(k->a) || !spring_vec3_is_finite(k->b) || !spring_is_finite(k->radius)) {
		set_error_kind_text(error, SPRING_ERROR_NOT_FINITE, "collider", index, "a/b/radius", "must be finite");
		return SPRING_ERROR_NOT_FINITE;
	}
	if (k->radius < 0.0f || k->radius > SPRING_CHAIN_MAX_COORDINATE) {
		set_error_kind(error, SPRING_ERROR_OUT_OF_RANGE, "collider", index, "radius",
		               k->radius < 0.0f ? "must be >= 0 (got %g)" : "must be at most 1e6 (got %g)", (double)k->radius);
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (!vec3_in_range(k->a, SPRING_CHAIN_MAX_COORDINATE) || !vec3_in_range(k->b, SPRING_CHAIN_MAX_COORDINATE)) {
		set_error_kind_text(error, SPRING_ERROR_OUT_OF_RANGE, "collider", index, "a/b",
		                    "must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (k->type == SPRING_CHAIN_COLLIDER_PLANE && spring_vec3_length(k->b) == 0.0f) {
		set_error_kind_text(error, SPRING_ERROR_OUT_OF_RANGE, "collider", index, "b", "(the plane normal) must be non-zero");
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

static spring_result validate_desc(const spring_chain_desc *d, spring_error *error)
{
	if (!d) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "desc", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (d->bone_count < 1 || d->bone_count > SPRING_CHAIN_MAX_BONES) {
		set_error(error, SPRING_ERROR_OUT_OF_RANGE, -1, "bone_count", "must be in 1..256 (got %g)", (double)d->bone_count);
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (!d->bones) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "bones", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int cap = d->max_colliders ? d->max_colliders : d->collider_count;
	if (d->collider_count < 0 || d->max_colliders < 0 || cap > SPRING_CHAIN_MAX_COLLIDERS || d->collider_count > cap) {
		set_error(error, SPRING_ERROR_OUT_OF_RANGE, -1, "collider_count", "must be in 0..max_colliders <= 64 (got %g)",
		          (double)d->collider_count);
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	if (d->collider_count > 0 && !d->colliders) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "colliders", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < d->collider_count; i++) {
		spring_result r = validate_collider(&d->colliders[i], i, error);
		if (r != SPRING_OK) {
			return r;
		}
	}
	if (!spring_vec3_is_finite(d->gravity) || !spring_vec3_is_finite(d->wind)) {
		set_error_text(error, SPRING_ERROR_NOT_FINITE, -1, "gravity/wind", "must be finite");
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(d->gravity, SPRING_CHAIN_MAX_ACCELERATION) || !vec3_in_range(d->wind, SPRING_CHAIN_MAX_ACCELERATION)) {
		set_error_text(error, SPRING_ERROR_OUT_OF_RANGE, -1, "gravity/wind",
		               "must have every component within +-1e9 units/s^2 (SPRING_CHAIN_MAX_ACCELERATION)");
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	const float limits[4] = {d->max_root_speed, d->max_root_angular_speed, d->rest_distance, d->rest_speed};
	const char *const limit_names[4] = {"max_root_speed", "max_root_angular_speed", "rest_distance", "rest_speed"};
	for (int k = 0; k < 4; k++) {
		if (!spring_is_finite(limits[k]) || limits[k] < 0.0f) {
			spring_result lr = spring_is_finite(limits[k]) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
			set_error(error, lr, -1, limit_names[k], "must be finite and >= 0 (0: the default; got %g)", (double)limits[k]);
			return lr;
		}
	}
	if ((int)d->projection < 0 || (int)d->projection > (int)SPRING_CHAIN_PROJECTION_KEEP_VELOCITY) {
		set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "projection",
		          "is not a spring_chain_projection (got %g; 0 removes the projected velocity, 1 keeps it)",
		          (double)d->projection);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_chain_internal_params_unset(d->params) && spring_params_validate(d->params) != SPRING_OK) {
		set_error(error, spring_params_validate(d->params), -1, "params", "is not a valid spring (k %g)",
		          (double)d->params.stiffness);
		return spring_params_validate(d->params);
	}
	if (!spring_chain_internal_params_unset(d->tip_params) && spring_params_validate(d->tip_params) != SPRING_OK) {
		set_error(error, spring_params_validate(d->tip_params), -1, "tip_params", "is not a valid spring (k %g)",
		          (double)d->tip_params.stiffness);
		return spring_params_validate(d->tip_params);
	}
	if ((int)d->integrator < 0 || (int)d->integrator > (int)SPRING_INTEGRATOR_SEMI_IMPLICIT) {
		set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "integrator", "is unknown (got %g)", (double)d->integrator);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_clock probe;
	spring_result r = spring_clock_init(&probe, d->step, d->max_steps);
	if (r != SPRING_OK) {
		set_error(error, r, -1, "step/max_steps", "must be a step in (0, 1] s and 0..1000 steps (step %g)", (double)d->step);
		return r;
	}
	spring_xform3 root = d->root;
	r = accept_xform3(&root);
	if (r != SPRING_OK) {
		set_error_text(error, r, -1, "root",
		               r == SPRING_ERROR_NOT_FINITE
		                   ? "has a NaN or infinite position or rotation component (a zero rotation means identity)"
		                   : "position must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
		return r;
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_chain_bone_desc *b = &d->bones[i];
		spring_xform3 rest = b->rest_local;
		r = accept_xform3(&rest);
		if (r != SPRING_OK) {
			set_error_text(error, r, i, "rest_local",
			               r == SPRING_ERROR_NOT_FINITE
			                   ? "has a NaN or infinite position or rotation component (a zero rotation means identity)"
			                   : "position must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
			return r;
		}
		if (!spring_vec3_is_finite(b->tip)) {
			set_error_text(error, SPRING_ERROR_NOT_FINITE, i, "tip", "has a NaN or infinite component");
			return SPRING_ERROR_NOT_FINITE;
		}
		if (!vec3_in_range(b->tip, SPRING_CHAIN_MAX_COORDINATE)) {
			set_error_text(error, SPRING_ERROR_OUT_OF_RANGE, i, "tip",
			               "must have every component within +-1e6 (SPRING_CHAIN_MAX_COORDINATE)");
			return SPRING_ERROR_OUT_OF_RANGE;
		}
		float len = spring_vec3_length(b->tip);
		if (!(len > 1e-6f) || !spring_is_finite(len)) {
			set_error(error, SPRING_ERROR_OUT_OF_RANGE, i, "tip", "must be a non-zero offset (length %g)", (double)len);
			return SPRING_ERROR_OUT_OF_RANGE;
		}
		if (d->mode_2d && (b->tip.z != 0.0f || b->rest_local.position.z != 0.0f)) {
			set_error(error, SPRING_ERROR_OUT_OF_RANGE, i, "tip", "must lie in the z = 0 plane in 2D mode (z %g)",
			          (double)b->tip.z);
			return SPRING_ERROR_OUT_OF_RANGE;
		}
		if (!spring_is_finite(b->tip_radius) || b->tip_radius < 0.0f) {
			set_error(error, spring_is_finite(b->tip_radius) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, i,
			          "tip_radius", "must be finite and >= 0 (got %g)", (double)b->tip_radius);
			return spring_is_finite(b->tip_radius) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
		}
		if (!spring_is_finite(b->cone_limit) || b->cone_limit < 0.0f || b->cone_limit >= (float)SPRING_PI) {
			set_error(error, spring_is_finite(b->cone_limit) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, i,
			          "cone_limit", "must be 0 (none) or an angle in (0, pi) radians (got %g)", (double)b->cone_limit);
			return spring_is_finite(b->cone_limit) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
		}
		spring_params p;
		r = spring_chain_internal_bone_params(b->params, d->params, d->tip_params, i, d->bone_count, &p);
		if (r != SPRING_OK) {
			set_error(error, r, i, "params", "is not a valid spring (stiffness %g)", (double)b->params.stiffness);
			return r;
		}
		spring_stepper st;
		if (spring_chain_internal_stepper(d->integrator, p, probe.step, &st) == SPRING_ERROR_UNSTABLE) {
			set_error(error, SPRING_ERROR_UNSTABLE, i, "params",
			          "is unstable with the semi-implicit integrator at this step (%g Hz)", (double)spring_frequency_hz(p));
			return SPRING_ERROR_UNSTABLE;
		}
	}
	return SPRING_OK;
}

static int collider_capacity(const spring_chain_desc *d)
{
	return d->max_colliders ? d->max_colliders : d->collider_count;
}

size_t spring_chain_memory_size(const spring_chain_desc *desc)
{
	if (validate_desc(desc, NULL) != SPRING_OK) {
		return 0;
	}
	chain_layout l;
	layout_compute(desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, &l);
	return l.total;
}

// ---------------------------------------------------------------------------------------------
// Pose at rest

// Forget rest and sleep: the next step looks at the chain afresh.
static void wake(spring_chain *c)
{
	c->resting = 0;
	c->still = 0;
	c->walk = WALK_NONE;
}

// The per-step forms of the inherited-motion caps.
static void set_root_limits(spring_chain *c, float speed, float angular)
{
	c->max_root_speed = speed;
	c->max_root_angular_speed = angular;
	c->cap_distance = (float)((double)speed * (double)c->clock.step);
	double angle = (double)angular * (double)c->clock.step;
	c->cap_cos_half = spring_det_cos(0.5 * (angle < SPRING_PI ? angle : SPRING_PI));
}

// Rigid pose under `root`: every bone follows its parent exactly; tips at rest, no velocity.
static void pose_at_rest(spring_chain *c, spring_xform3 root)
{
	chain_arrays a = arrays(c);
	spring_xform3 parent = root;
	for (int i = 0; i < c->bone_count; i++) {
		spring_xform3 local = c->animated ? a.anim_local[i] : a.rest_local[i];
		spring_xform3 rigid = xform3_normalized(spring_xform3_mul(parent, local));
		spring_vec3 tip = spring_xform3_apply(rigid, a.tip_local[i]);
		if (c->mode_2d) {
			tip.z = 0.0f;
		}
		set_tip(&a, i, tip, spring_vec3_make(0.0f, 0.0f, 0.0f));
		a.world[i] = rigid;
		a.world_prev[i] = rigid;
		a.target[i] = tip;
		parent = rigid;
	}
	c->pose_2d = 0;
	c->root_step = root;
	c->root_step_prev = root;
	c->root_input = root;
	wake(c);
}

spring_result spring_chain_init(const spring_chain_desc *desc, void *memory, size_t size, spring_chain **out, spring_error *error)
{
	if (error) {
		memset(error, 0, sizeof *error);
	}
	if (!out) {
		set_error_text(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "out", "is NULL");
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = validate_desc(desc, error);
	if (r != SPRING_OK) {
		return r;
	}
	int cap = collider_capacity(desc);
	chain_layout l;
	layout_compute(desc->bone_count, cap, desc->mode_2d != 0, &l);
	if (!memory || ((uintptr_t)memory & 15u) != 0 || size < l.total) {
		set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "memory", "must be 16-byte aligned and at least %g bytes",
		          (double)l.total);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	memset(memory, 0, l.total);
	spring_chain *c = (spring_chain *)memory;
	c->bone_count = desc->bone_count;
	c->collider_count = desc->collider_count;
	c->max_colliders = cap;
	c->mode_2d = desc->mode_2d != 0;
	c->projection = desc->projection;
	c->integrator = desc->integrator;
	spring_clock_init(&c->clock, desc->step, desc->max_steps);
	set_root_limits(c, desc->max_root_speed, desc->max_root_angular_speed);
	c->gravity = desc->gravity;
	c->wind = desc->wind;
	c->chain_params = desc->params;
	c->tip_params = desc->tip_params;
	c->owner = (spring_internal_owner){0};
	c->at = l;
	chain_arrays a = arrays(c);
	for (int i = 0; i < c->bone_count; i++) {
		const spring_chain_bone_desc *b = &desc->bones[i];
		a.rest_local[i] = b->rest_local;
		accept_xform3(&a.rest_local[i]); // validated above
		a.tip_local[i] = b->tip;
		a.length[i] = spring_vec3_length(b->tip);
		a.tip_radius[i] = b->tip_radius;
		a.cone_limit[i] = b->cone_limit;
		a.params_set[i] = b->params;
		prepare_bone(c, &a, i); // validated above
	}
	for (int i = 0; i < c->collider_count; i++) {
		a.colliders[i] = desc->colliders[i];
	}
	float shortest = a.length[0];
	for (int i = 1; i < c->bone_count; i++) {
		shortest = a.length[i] < shortest ? a.length[i] : shortest;
	}
	c->rest_distance = desc->rest_distance > 0.0f ? desc->rest_distance : 1e-4f * shortest;
	c->rest_speed = desc->rest_speed > 0.0f ? desc->rest_speed : 1e-3f * shortest;
	spring_xform3 root = desc->root;
	accept_xform3(&root); // validated above
	pose_at_rest(c, root);
	*out = c;
	return SPRING_OK;
}

SPRING_INTERNAL_DEFINE_CREATE(spring_chain, spring_chain, spring_chain_desc, "chain")

void spring_chain_destroy(spring_chain *chain)
{
	// With the allocator that made it, even if the process-wide one changed since.
	if (chain) {
		spring_internal_destroy(chain, &chain->owner);
	}
}

// ---------------------------------------------------------------------------------------------
// Constraints

// Rotation about z taking `from` onto `to` (both in the xy plane), anti-parallel included.
static spring_quat quat_from_to_2d(spring_vec3 from, spring_vec3 to)
{
	double cr = (double)from.x * to.y - (double)from.y * to.x;
	double dt = (double)from.x * to.x + (double)from.y * to.y;
	if (cr == 0.0 && dt == 0.0) {
		return spring_quat_identity();
	}
	double half = 0.5 * spring_det_atan2(cr, dt);
	double s, co;
	spring_det_sincos(half, &s, &co);
	spring_quat q = {0.0f, 0.0f, (float)s, (float)co};
	return q;
}

static spring_vec3 any_perpendicular(spring_vec3 d)
{
	spring_vec3 axis = fabsf(d.x) < 0.57f ? spring_vec3_make(1.0f, 0.0f, 0.0f) : spring_vec3_make(0.0f, 1.0f, 0.0f);
	return spring_vec3_normalize(spring_vec3_cross(d, axis));
}

// Keeps direction `dir` (unit) within `limit` radians of `axis` (unit); returns the clamped
// direction and, through `outward`, the unit direction of increasing angle (zero if inside).
static spring_vec3 cone_clamp(spring_vec3 dir, spring_vec3 axis, float limit, int mode_2d, spring_vec3 *outward)
{
	*outward = spring_vec3_make(0.0f, 0.0f, 0.0f);
	float cosang = spring_vec3_dot(dir, axis);
	if (cosang >= (float)spring_det_cos((double)limit)) {
		return dir;
	}
	// Unit tangent at the axis pointing towards dir.
	spring_vec3 perp = spring_vec3_sub(dir, spring_vec3_scale(axis, cosang));
	if (spring_vec3_length(perp) < 1e-12f) {
		perp = mode_2d ? spring_vec3_make(-axis.y, axis.x, 0.0f) : any_perpendicular(axis);
	}
	perp = spring_vec3_normalize(perp);
	double s, co;
	spring_det_sincos((double)limit, &s, &co);
	spring_vec3 out = spring_vec3_add(spring_vec3_scale(axis, (float)co), spring_vec3_scale(perp, (float)s));
	// Outward = direction of increasing angle at the clamped point.
	*outward = spring_vec3_sub(spring_vec3_scale(perp, (float)co), spring_vec3_scale(axis, (float)s));
	return spring_vec3_normalize(out);
}

// Pushes a point at distance `len` from `pivot` (direction `dir`) out of a ball (centre, r)
// while keeping the distance: the direction is turned away from the centre until the point is
// on the ball's surface. Returns 1 when it moved; `normal` gets the contact normal.
static int slide_out_of_ball(spring_vec3 pivot, float len, spring_vec3 *dir, spring_vec3 centre, float r, int mode_2d,
                             spring_vec3 *normal)
{
	spring_vec3 tip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
	spring_vec3 d = spring_vec3_sub(tip, centre);
	float dist = spring_vec3_length(d);
	if (dist >= r) {
		return 0;
	}
	spring_vec3 w = spring_vec3_sub(centre, pivot);
	double wl = (double)spring_vec3_length(w);
	if (wl < 1e-9) {
		// The pivot is at the centre: no direction gets out; leave it (the bone is inside).
		return 0;
	}
	spring_vec3 wn = spring_vec3_scale(w, (float)(1.0 / wl));
	// Angle theta between dir and w with |pivot + len dir - centre| = r.
	double cos_min = ((double)len * len + wl * wl - (double)r * r) / (2.0 * len * wl);
	if (cos_min <= -1.0) {
		// The whole length sphere is inside the ball: point straight away from it.
		*dir = spring_vec3_scale(wn, -1.0f);
		*normal = *dir;
		return 1;
	}
	if (cos_min > 1.0) {
		return 0;
	}
	spring_vec3 perp = spring_vec3_sub(*dir, spring_vec3_scale(wn, spring_vec3_dot(*dir, wn)));
	if (spring_vec3_length(perp) < 1e-9f) {
		perp = mode_2d ? spring_vec3_make(-wn.y, wn.x, 0.0f) : any_perpendicular(wn);
	}
	perp = spring_vec3_normalize(perp);
	// A hair beyond the surface so rounding never leaves the tip inside.
	double sin_min = sqrt(fmax(0.0, 1.0 - cos_min * cos_min));
	spring_vec3 nd = spring_vec3_add(spring_vec3_scale(wn, (float)cos_min), spring_vec3_scale(perp, (float)sin_min));
	*dir = spring_vec3_normalize(nd);
	spring_vec3 ntip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
	*normal = spring_vec3_normalize(spring_vec3_sub(ntip, centre));
	return 1;
}

static spring_vec3 closest_on_segment(spring_vec3 p, spring_vec3 a, spring_vec3 b)
{
	spring_vec3 ab = spring_vec3_sub(b, a);
	float den = spring_vec3_dot(ab, ab);
	float t = den > 0.0f ? spring_vec3_dot(spring_vec3_sub(p, a), ab) / den : 0.0f;
	t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
	return spring_vec3_add(a, spring_vec3_scale(ab, t));
}

// Keeps the tip (at distance len from pivot along dir) outside one collider; returns 1 and the
// contact normal when it moved the tip.
static int collide(const spring_chain_collider *k, float tip_radius, spring_vec3 pivot, float len, spring_vec3 *dir, int mode_2d,
                   spring_vec3 *normal)
{
	const float margin = 1e-4f; // pushed a hair beyond the surface so tests with 1e-4 hold
	float r = k->radius + tip_radius;
	switch (k->type) {
	case SPRING_CHAIN_COLLIDER_SPHERE: {
		spring_vec3 centre = k->a;
		if (mode_2d) {
			centre.z = 0.0f;
		}
		return slide_out_of_ball(pivot, len, dir, centre, r + margin, mode_2d, normal);
	}
	case SPRING_CHAIN_COLLIDER_CAPSULE: {
		int moved = 0;
		for (int it = 0; it < 4; it++) {
			spring_vec3 tip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
			spring_vec3 centre = closest_on_segment(tip, k->a, k->b);
			if (mode_2d) {
				centre.z = 0.0f;
			}
			if (!slide_out_of_ball(pivot, len, dir, centre, r + margin, mode_2d, normal)) {
				break;
			}
			moved = 1;
		}
		return moved;
	}
	case SPRING_CHAIN_COLLIDER_PLANE: {
		spring_vec3 n = spring_vec3_normalize(k->b);
		// Need dot(pivot + len dir - a, n) >= r  <=>  dot(dir, n) >= s.
		float s = (r + 2.0f * margin - spring_vec3_dot(spring_vec3_sub(pivot, k->a), n)) / len;
		float dn = spring_vec3_dot(*dir, n);
		if (dn >= s - margin / len) {
			return 0;
		}
		if (s > 1.0f) {
			*dir = n; // cannot reach the allowed side: get as far out as the bone allows
		} else {
			spring_vec3 perp = spring_vec3_sub(*dir, spring_vec3_scale(n, dn));
			if (spring_vec3_length(perp) < 1e-9f) {
				perp = mode_2d ? spring_vec3_make(-n.y, n.x, 0.0f) : any_perpendicular(n);
			}
			perp = spring_vec3_normalize(perp);
			float c = s < -1.0f ? -1.0f : s;
			*dir = spring_vec3_normalize(
				spring_vec3_add(spring_vec3_scale(n, c), spring_vec3_scale(perp, sqrtf(fmaxf(0.0f, 1.0f - c * c)))));
		}
		*normal = n;
		return 1;
	}
	}
	return 0;
}

// Removes the component of v along `n` when it points the way `sign` forbids: sign > 0 removes
// a positive component (moving outwards along n), sign < 0 a negative one (moving into a
// surface whose normal is n), sign == 0 removes the component whatever its sign.
static spring_vec3 remove_component(spring_vec3 v, spring_vec3 n, int sign)
{
	float c = spring_vec3_dot(v, n);
	if (sign == 0 || (sign > 0 && c > 0.0f) || (sign < 0 && c < 0.0f)) {
		v = spring_vec3_sub(v, spring_vec3_scale(n, c));
	}
	return v;
}

// ---------------------------------------------------------------------------------------------
// Stepping

static int is_zero3(spring_vec3 v)
{
	return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
}

// One component of a spring step toward `target` under the constant acceleration `acc`: the
// exact transition plus its response to `acc` (force[0], force[1]), or the semi-implicit
// update with `acc` added. The offset from the target stays small whatever the spring's
// softness (no equilibrium shift acc / w2 is ever formed).
static void forced_component(const spring_chain *c, const chain_arrays *a, int i, float *x, float *v, float target, float acc)
{
	if (c->integrator == SPRING_INTEGRATOR_EXACT) {
		const spring_stepper *st = &a->stepper[i];
		float e = *x - target, v0 = *v;
		float ne = st->pp * e + st->pv * v0 + a->force[2 * i] * acc;
		*v = st->vp * e + st->vv * v0 + a->force[2 * i + 1] * acc;
		*x = target + ne;
	} else {
		spring_params p = a->params[i];
		float dt = c->clock.step;
		float acc_total = (-p.stiffness * (*x - target) - p.damping * *v) / p.mass + acc;
		*v = *v + acc_total * dt;
		*x = *x + *v * dt;
	}
}

// Where bone i's tip rests: the rigid tip, or under a constant acceleration the equilibrium of
// the pendulum (spring toward the rigid tip plus the force, on the bone's length sphere about
// the pivot): the direction of w2 (rigid_tip - pivot) + accel, which never overflows.
static spring_vec3 rest_position(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 rigid_tip,
                                 spring_vec3 accel)
{
	if (is_zero3(accel)) {
		return rigid_tip;
	}
	double w2 = (double)a->w2[i];
	double dx = w2 * ((double)rigid_tip.x - pivot.x) + accel.x;
	double dy = w2 * ((double)rigid_tip.y - pivot.y) + accel.y;
	double dz = c->mode_2d ? 0.0 : w2 * ((double)rigid_tip.z - pivot.z) + accel.z;
	double n = sqrt(dx * dx + dy * dy + dz * dz);
	if (!(n > 0.0)) {
		return rigid_tip; // the force cancels the spring exactly at the pivot: any direction rests
	}
	double k = (double)a->length[i] / n;
	return spring_vec3_make((float)(pivot.x + dx * k), (float)(pivot.y + dy * k), (float)(pivot.z + dz * k));
}

// Whether bone i, just stepped to `tip`, is within the rest thresholds of its rest position.
static int tip_at_rest(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 rigid_tip,
                       spring_vec3 accel, spring_vec3 tip)
{
	spring_vec3 r = rest_position(c, a, i, pivot, rigid_tip, accel);
	// Far from the origin floats are coarse: a tip at 1e4 units moves in steps of 1e-3, which may
	// be above the thresholds. A few units in the last place of the coordinates (and that much per
	// step in speed) is the finest rest floats can tell, so the thresholds never go below it.
	double magnitude = fmax(fabs((double)r.x), fmax(fabs((double)r.y), fabs((double)r.z)));
	double grain = 8.0 * (double)FLT_EPSILON * magnitude;
	double rd = fmax((double)c->rest_distance, grain), rs = fmax((double)c->rest_speed, grain / (double)c->clock.step);
	double vx = a->vx[i], vy = a->vy[i], vz = a->vz[i];
	if (vx * vx + vy * vy + vz * vz > rs * rs) {
		return 0;
	}
	double dx = (double)tip.x - r.x, dy = (double)tip.y - r.y, dz = (double)tip.z - r.z;
	return dx * dx + dy * dy + dz * dz <= rd * rd;
}

// The snapping counterpart of move_tip: bone i's tip exactly at its rest position, still.
static spring_vec3 snap_tip(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 rigid_tip,
                            spring_vec3 accel)
{
	a->target[i] = rigid_tip;
	spring_vec3 tip = rest_position(c, a, i, pivot, rigid_tip, accel);
	set_tip(a, i, tip, spring_vec3_make(0.0f, 0.0f, 0.0f));
	return tip;
}

// The middle of a step for bone i, the same for both walks: the simulated tip springs toward
// `rigid_tip` under the constant acceleration (gravity and wind), then the cone limit around
// the rigid direction, the bone length and the colliders act on it. Stores the new tip, its
// velocity and the rigid tip (target); returns the new tip.
static spring_vec3 move_tip(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 rigid_tip,
                            spring_vec3 accel)
{
	a->target[i] = rigid_tip;
	spring_state_vec3 s = {tip_of(a, i), vel_of(a, i)};
	if (!is_zero3(accel)) {
		forced_component(c, a, i, &s.x.x, &s.v.x, rigid_tip.x, accel.x);
		forced_component(c, a, i, &s.x.y, &s.v.y, rigid_tip.y, accel.y);
		forced_component(c, a, i, &s.x.z, &s.v.z, rigid_tip.z, accel.z);
	} else if (c->integrator == SPRING_INTEGRATOR_EXACT) {
		spring_stepper_step_vec3(&a->stepper[i], &s, rigid_tip);
	} else if (spring_step_semi_implicit_vec3(a->params[i], &s, rigid_tip, c->clock.step) != SPRING_OK) {
		s.x = tip_of(a, i); // cannot happen for validated input; keep the state
		s.v = vel_of(a, i);
	}
	if (c->mode_2d) {
		s.x.z = 0.0f;
		s.v.z = 0.0f;
	}

	// Direction from the pivot; degenerate (tip on the pivot) falls back to the rigid one.
	float len = a->length[i];
	spring_vec3 rigid_dir = spring_vec3_normalize(spring_vec3_sub(rigid_tip, pivot));
	spring_vec3 dir = spring_vec3_normalize(spring_vec3_sub(s.x, pivot));
	if (spring_vec3_length(dir) == 0.0f) {
		dir = rigid_dir;
	}
	// Cone limit around the rigid direction.
	spring_vec3 outward;
	if (a->cone_limit[i] > 0.0f) {
		dir = cone_clamp(dir, rigid_dir, a->cone_limit[i], c->mode_2d, &outward);
		if (spring_vec3_length(outward) > 0.0f) {
			s.v = remove_component(s.v, outward, 1);
		}
	}
	// Length: the projection moves the tip along dir; remove the radial part of the velocity
	// too, or it lingers and the tip never settles. (Removing only the part relative to the
	// moving pivot would hand the parent's radial motion to the child every step: with no
	// back-reaction on the parent that pumps energy down a whipping chain; measured, it
	// turned a 0.01 rad nudge of an 8-bone chain into a 37-unit swing.)
	if (c->projection == SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY) {
		s.v = remove_component(s.v, dir, 0);
	}
	// Colliders slide the tip over the length sphere; velocity into a collider is removed.
	// They have the last word over the cone limit: a limit may be bent, a surface never
	// crossed. A few passes settle tips touching several colliders at once.
	for (int pass = 0; pass < 4; pass++) {
		int moved = 0;
		for (int k = 0; k < c->collider_count; k++) {
			spring_vec3 normal;
			if (collide(&a->colliders[k], a->tip_radius[i], pivot, len, &dir, c->mode_2d, &normal)) {
				s.v = remove_component(s.v, normal, -1);
				moved = 1;
			}
		}
		if (!moved) {
			break;
		}
	}
	spring_vec3 tip = spring_vec3_add(pivot, spring_vec3_scale(dir, len));
	if (c->mode_2d) {
		tip.z = 0.0f;
	}
	set_tip(a, i, tip, s.v);
	return tip;
}

// 2D transforms as unit complex rotations; products in double, rounded once.

static chain_pose2 pose2_make(double x, double y, double c, double s)
{
	double n = sqrt(c * c + s * s);
	chain_pose2 p = {(float)x, (float)y, 1.0f, 0.0f};
	if (n > 0.0) {
		p.c = (float)(c / n);
		p.s = (float)(s / n);
	}
	return p;
}

// parent * local: local's pivot and rotation carried into the parent's frame.
static chain_pose2 pose2_mul(chain_pose2 parent, chain_pose2 local)
{
	double pc = parent.c, ps = parent.s, lx = local.x, ly = local.y, lc = local.c, ls = local.s;
	return pose2_make((double)parent.x + (pc * lx - ps * ly), (double)parent.y + (ps * lx + pc * ly), pc * lc - ps * ls,
	                  ps * lc + pc * ls);
}

// The in-plane part of a 3D transform: its position's xy and the direction of its x axis.
static chain_pose2 pose2_of_xform3(spring_xform3 t)
{
	double x = (double)t.rotation.x, y = (double)t.rotation.y, z = (double)t.rotation.z, w = (double)t.rotation.w;
	return pose2_make(t.position.x, t.position.y, 1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z));
}

static chain_pose2 pose2_of_xform2(spring_xform2 t)
{
	double s, c;
	spring_det_sincos((double)t.angle, &s, &c);
	return pose2_make(t.position.x, t.position.y, c, s);
}

// The rotation about z by the unit direction (c, s), from half-angle identities (no trigonometry).
static spring_quat quat_of_direction(double c, double s)
{
	double w, z;
	if (c >= 0.0) {
		w = sqrt(0.5 * (1.0 + c));
		z = s / (2.0 * w);
	} else {
		z = sqrt(0.5 * (1.0 - c));
		z = s < 0.0 ? -z : z;
		w = s / (2.0 * z);
	}
	spring_quat q = {0.0f, 0.0f, (float)z, (float)w};
	return spring_quat_normalize(q);
}

static spring_xform3 xform3_of_pose2(chain_pose2 p)
{
	spring_xform3 t = {spring_vec3_make(p.x, p.y, 0.0f), quat_of_direction(p.c, p.s)};
	return t;
}

// The world angle of a 2D pose, in (-pi, pi].
static float pose2_angle(chain_pose2 p)
{
	return spring_internal_angle_fold(spring_det_atan2((double)p.s, (double)p.c));
}

// The last stepped pose of bone i in 3D, whichever walk made it.
static spring_xform3 world_at(const spring_chain *c, const chain_arrays *a, int i, int prev)
{
	if (c->pose_2d) {
		return xform3_of_pose2(prev ? a->world2_prev[i] : a->world2[i]);
	}
	return prev ? a->world_prev[i] : a->world[i];
}

// Moves everything simulated rigidly with the root from the last step's root to `to`
// (normalised): tips, velocities, both stepped poses, targets and the previous root. The root
// input of the frame is left to the caller.
static void move_rigidly(spring_chain *c, spring_xform3 to)
{
	// D maps the old root frame onto the new one; everything simulated moves with it.
	spring_xform3 d = xform3_normalized(spring_xform3_mul(to, spring_xform3_inverse(c->root_step)));
	if (c->mode_2d) {
		// Keep the plane: only the rotation about z and the xy translation survive.
		d.position.z = 0.0f;
		d.rotation.x = 0.0f;
		d.rotation.y = 0.0f;
		d.rotation = spring_quat_normalize(d.rotation);
	}
	chain_arrays a = arrays(c);
	chain_pose2 d2 = c->pose_2d ? pose2_of_xform3(d) : (chain_pose2){0.0f, 0.0f, 1.0f, 0.0f};
	for (int i = 0; i < c->bone_count; i++) {
		spring_vec3 tip = spring_xform3_apply(d, tip_of(&a, i));
		spring_vec3 vel = spring_quat_rotate(d.rotation, vel_of(&a, i));
		set_tip(&a, i, tip, vel);
		if (c->pose_2d) {
			a.world2[i] = pose2_mul(d2, a.world2[i]);
			a.world2_prev[i] = pose2_mul(d2, a.world2_prev[i]);
		} else {
			a.world[i] = xform3_normalized(spring_xform3_mul(d, a.world[i]));
			a.world_prev[i] = xform3_normalized(spring_xform3_mul(d, a.world_prev[i]));
		}
		a.target[i] = spring_xform3_apply(d, a.target[i]);
	}
	c->root_step_prev = xform3_normalized(spring_xform3_mul(d, c->root_step_prev));
	c->root_step = to;
}

// The inherited-motion caps. When this step's root moves or turns further from the last step's
// root than the caps allow in one step, the chain is first moved rigidly by the excess (as by a
// teleport), so the motion it feels is the capped part only and it stays attached to the root.
static void cap_root_motion(spring_chain *c, spring_xform3 root)
{
	if (!(c->max_root_speed > 0.0f) && !(c->max_root_angular_speed > 0.0f)) {
		return;
	}
	spring_xform3 from = c->root_step, start = from;
	int capped = 0;
	if (c->max_root_speed > 0.0f) {
		double dx = (double)root.position.x - from.position.x, dy = (double)root.position.y - from.position.y;
		double dz = (double)root.position.z - from.position.z;
		double len = sqrt(dx * dx + dy * dy + dz * dz);
		if (len > (double)c->cap_distance) {
			double k = (double)c->cap_distance / len;
			start.position = spring_vec3_make((float)(root.position.x - dx * k), (float)(root.position.y - dy * k),
			                                  (float)(root.position.z - dz * k));
			capped = 1;
		}
	}
	if (c->max_root_angular_speed > 0.0f) {
		spring_quat rel = spring_quat_mul(root.rotation, spring_quat_conjugate(from.rotation));
		double sign = rel.w < 0.0f ? -1.0 : 1.0; // the shorter way round
		double x = sign * rel.x, y = sign * rel.y, z = sign * rel.z, w = sign * rel.w;
		double sn = sqrt(x * x + y * y + z * z);
		if (sn > 0.0 && w / sqrt(sn * sn + w * w) < c->cap_cos_half) {
			double s, co;
			spring_det_sincos(0.5 * (double)c->max_root_angular_speed * (double)c->clock.step, &s, &co);
			spring_quat seen = {(float)(x / sn * s), (float)(y / sn * s), (float)(z / sn * s), (float)co};
			start.rotation = spring_quat_normalize(spring_quat_mul(spring_quat_conjugate(seen), root.rotation));
			capped = 1;
		}
	}
	if (capped) {
		move_rigidly(c, start);
	}
}

// One walk of the 3D frame under `root` (normalised); `anim` (NULL: the stored animation or the
// rest pose) gives this step's local transforms, normalised here like set_animation does. The
// physics walk (snap 0) steps every tip and returns whether all ended within the rest
// thresholds; the snapping walk (snap 1) puts every tip exactly at its rest position, still,
// and rebuilds the pose on them (the previous pose is kept).
static int walk_3d(spring_chain *c, spring_xform3 root, const spring_xform3 *anim, int snap)
{
	chain_arrays a = arrays(c);
	const spring_vec3 accel = spring_vec3_add(c->gravity, c->wind);
	spring_xform3 parent = root;
	int at_rest = 1;
	for (int i = 0; i < c->bone_count; i++) {
		if (!snap) {
			a.world_prev[i] = a.world[i];
		}
		spring_xform3 local = c->animated ? a.anim_local[i] : a.rest_local[i];
		if (anim) {
			local = anim[i];
			local.rotation = spring_quat_normalize(anim[i].rotation);
		}
		spring_xform3 rigid = xform3_normalized(spring_xform3_mul(parent, local));
		spring_vec3 pivot = rigid.position;
		spring_vec3 rigid_tip = spring_xform3_apply(rigid, a.tip_local[i]);
		if (c->mode_2d) {
			pivot.z = 0.0f;
			rigid_tip.z = 0.0f;
		}
		spring_vec3 tip;
		if (snap) {
			tip = snap_tip(c, &a, i, pivot, rigid_tip, accel);
		} else {
			tip = move_tip(c, &a, i, pivot, rigid_tip, accel);
			at_rest = at_rest && tip_at_rest(c, &a, i, pivot, rigid_tip, accel, tip);
		}

		// Aim the bone at the simulated tip about its own pivot (shortest arc, no twist).
		spring_vec3 from = spring_vec3_sub(rigid_tip, pivot), to = spring_vec3_sub(tip, pivot);
		spring_quat q = c->mode_2d ? quat_from_to_2d(from, to) : spring_quat_from_to(from, to);
		spring_xform3 bone = {pivot, spring_quat_normalize(spring_quat_mul(q, rigid.rotation))};
		a.world[i] = bone;
		parent = bone;
	}
	return at_rest;
}

// One fixed step of the 3D walk: the caps, the physics, and the snap when it came to rest.
static int step_chain(spring_chain *c, spring_xform3 root, const spring_xform3 *anim)
{
	if (c->pose_2d) {
		chain_arrays a = arrays(c);
		for (int i = 0; i < c->bone_count; i++) {
			a.world[i] = xform3_of_pose2(a.world2[i]);
		}
		c->pose_2d = 0;
	}
	cap_root_motion(c, root);
	c->root_step_prev = c->root_step;
	c->root_step = root;
	int at_rest = walk_3d(c, root, anim, 0);
	if (at_rest) {
		walk_3d(c, root, anim, 1);
	}
	return at_rest;
}

// The 2D walk (mode_2d chains): the same bones as walk_3d with rotations as unit directions.
// `anim` (NULL: the stored animation or the rest pose) gives this step's locals.
static int walk_2d(spring_chain *c, chain_pose2 root, const spring_xform2 *anim, int snap)
{
	chain_arrays a = arrays(c);
	const spring_vec3 accel = spring_vec3_add(c->gravity, c->wind);
	chain_pose2 parent = root;
	int at_rest = 1;
	for (int i = 0; i < c->bone_count; i++) {
		if (!snap) {
			a.world2_prev[i] = a.world2[i];
		}
		chain_pose2 local = anim ? pose2_of_xform2(anim[i]) : pose2_of_xform3(c->animated ? a.anim_local[i] : a.rest_local[i]);
		chain_pose2 rigid = pose2_mul(parent, local);
		spring_vec3 pivot = spring_vec3_make(rigid.x, rigid.y, 0.0f);
		spring_vec3 t = a.tip_local[i];
		double rc = rigid.c, rs = rigid.s;
		spring_vec3 rigid_tip = spring_vec3_make((float)((double)rigid.x + (rc * t.x - rs * t.y)),
		                                         (float)((double)rigid.y + (rs * t.x + rc * t.y)), 0.0f);
		spring_vec3 tip;
		if (snap) {
			tip = snap_tip(c, &a, i, pivot, rigid_tip, accel);
		} else {
			tip = move_tip(c, &a, i, pivot, rigid_tip, accel);
			at_rest = at_rest && tip_at_rest(c, &a, i, pivot, rigid_tip, accel, tip);
		}

		// Aim: turn the rigid rotation by the angle from (rigid_tip - pivot) to (tip - pivot).
		spring_vec3 from = spring_vec3_sub(rigid_tip, pivot), to = spring_vec3_sub(tip, pivot);
		double cr = (double)from.x * to.y - (double)from.y * to.x;
		double dt = (double)from.x * to.x + (double)from.y * to.y;
		chain_pose2 bone = rigid;
		if (cr != 0.0 || dt != 0.0) {
			double n = sqrt(cr * cr + dt * dt);
			double qc = dt / n, qs = cr / n;
			bone = pose2_make(rigid.x, rigid.y, qc * rc - qs * rs, qs * rc + qc * rs);
		}
		a.world2[i] = bone;
		parent = bone;
	}
	return at_rest;
}

// One fixed step of the 2D walk: the caps, the physics, and the snap when it came to rest.
static int step_chain_2d(spring_chain *c, spring_xform2 root, const spring_xform2 *anim)
{
	if (!c->pose_2d) {
		chain_arrays a = arrays(c);
		for (int i = 0; i < c->bone_count; i++) {
			a.world2[i] = pose2_of_xform3(a.world[i]);
		}
		c->pose_2d = 1;
	}
	chain_pose2 parent = pose2_of_xform2(root);
	// The root is kept in 3D for teleports and the caps.
	spring_xform3 root3 = xform3_of_pose2(parent);
	cap_root_motion(c, root3);
	c->root_step_prev = c->root_step;
	c->root_step = root3;
	int at_rest = walk_2d(c, parent, anim, 0);
	if (at_rest) {
		walk_2d(c, parent, anim, 1);
	}
	return at_rest;
}

// Rest and sleep bookkeeping after a step that ran.
static void after_step(spring_chain *c, int walk, int at_rest, int same_inputs)
{
	c->steps_run++;
	c->resting = at_rest;
	c->still = at_rest ? (same_inputs && c->still > 0 ? 2 : 1) : 0;
	c->walk = walk;
}

// A step of either walk (`root` a spring_xform3 for WALK_3D, a spring_xform2 for WALK_2D; `anim`
// bone_count of the same type, or NULL), or nothing when the chain is asleep and the inputs are
// the last step's: it rested through two steps with them, so the step would change no bit.
static void run_step(spring_chain *c, int walk, const void *root, const void *anim)
{
	chain_arrays a = arrays(c);
	int is_3d = walk == WALK_3D;
	size_t root_size = is_3d ? sizeof(spring_xform3) : sizeof(spring_xform2);
	size_t bytes = (size_t)c->bone_count * root_size;
	void *last_root = is_3d ? (void *)&c->last_root : (void *)&c->last_root2;
	void *last_anim = is_3d ? (void *)a.step_local3 : (void *)a.step_local2;
	int same = c->walk == walk && same_bits(root, last_root, root_size) &&
	           (anim ? c->anim_explicit && same_bits(anim, last_anim, bytes) : !c->anim_explicit);
	if (same && c->still >= 2 && !c->sleep_off) {
		return;
	}
	int at_rest = is_3d ? step_chain(c, *(const spring_xform3 *)root, (const spring_xform3 *)anim)
	                    : step_chain_2d(c, *(const spring_xform2 *)root, (const spring_xform2 *)anim);
	after_step(c, walk, at_rest, same);
	memcpy(last_root, root, root_size);
	c->anim_explicit = anim != NULL;
	if (anim) {
		memcpy(last_anim, anim, bytes);
	}
}

static spring_xform3 xform3_lerp(spring_xform3 a, spring_xform3 b, float t)
{
	spring_xform3 r = {spring_vec3_lerp(a.position, b.position, t), spring_quat_nlerp(a.rotation, b.rotation, t)};
	return r;
}

spring_result spring_chain_update(spring_chain *chain, spring_xform3 root, float frame_dt)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = accept_xform3(&root);
	if (r != SPRING_OK) {
		return r;
	}
	if (!spring_is_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	int n = spring_clock_advance(&chain->clock, frame_dt);
	for (int i = 0; i < n; i++) {
		float f = spring_clock_substep_fraction(&chain->clock, i, n);
		spring_xform3 at = xform3_lerp(chain->root_input, root, f);
		run_step(chain, WALK_3D, &at, NULL);
	}
	chain->root_input = root;
	return SPRING_OK;
}

// set_animation's rules for `count` local transforms.
static spring_result check_animation(const spring_chain *chain, const spring_xform3 *local, int count)
{
	for (int i = 0; i < count; i++) {
		spring_xform3 t = local[i];
		spring_result r = accept_xform3(&t);
		if (r != SPRING_OK) {
			return r;
		}
		if (chain->mode_2d && local[i].position.z != 0.0f) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	return SPRING_OK;
}

spring_result spring_chain_internal_step(spring_chain *chain, const spring_xform3 *root, const spring_xform3 *anim_local)
{
	if (!chain || !root) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_xform3 at = *root;
	spring_result r = accept_xform3(&at);
	if (r == SPRING_OK && anim_local) {
		r = check_animation(chain, anim_local, chain->bone_count);
	}
	if (r != SPRING_OK) {
		return r;
	}
	run_step(chain, WALK_3D, &at, anim_local);
	chain->root_input = at;
	return SPRING_OK;
}

// A 2D transform handed to the chain: finite, its position within SPRING_CHAIN_MAX_COORDINATE.
static spring_result accept_xform2(spring_xform2 t)
{
	if (!spring_vec2_is_finite(t.position) || !spring_is_finite(t.angle)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!in_range(t.position.x, SPRING_CHAIN_MAX_COORDINATE) || !in_range(t.position.y, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

spring_result spring_chain_internal_step2d(spring_chain *chain, spring_xform2 root, const spring_xform2 *anim_local)
{
	if (!chain || !chain->mode_2d) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = accept_xform2(root);
	for (int i = 0; r == SPRING_OK && anim_local && i < chain->bone_count; i++) {
		r = accept_xform2(anim_local[i]);
	}
	if (r != SPRING_OK) {
		return r;
	}
	run_step(chain, WALK_2D, &root, anim_local);
	chain->root_input = chain->root_step;
	return SPRING_OK;
}

spring_result spring_chain_update_many(spring_chain *const *chains, const spring_xform3 *roots, int count, float frame_dt)
{
	if (!chains || !roots || count < 0) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < count; i++) {
		spring_result r = spring_chain_update(chains[i], roots[i], frame_dt);
		if (r != SPRING_OK) {
			return r;
		}
	}
	return SPRING_OK;
}

spring_result spring_chain_reset(spring_chain *chain, spring_xform3 root)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = accept_xform3(&root);
	if (r != SPRING_OK) {
		return r;
	}
	pose_at_rest(chain, root);
	return SPRING_OK;
}

spring_result spring_chain_teleport(spring_chain *chain, spring_xform3 root)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = accept_xform3(&root);
	if (r != SPRING_OK) {
		return r;
	}
	move_rigidly(chain, root);
	chain->root_input = root;
	wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_translate(spring_chain *chain, spring_vec3 delta)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec3_is_finite(delta)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	spring_xform3 root = chain->root_step;
	root.position = spring_vec3_add(root.position, delta);
	return spring_chain_teleport(chain, root);
}

spring_result spring_chain_rotate(spring_chain *chain, spring_quat rotation, spring_vec3 pivot)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!quat_is_finite(rotation) || !spring_vec3_is_finite(pivot)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(pivot, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	rotation = spring_quat_normalize(rotation); // zero means identity
	spring_xform3 root = chain->root_step;
	root.position = spring_vec3_add(pivot, spring_quat_rotate(rotation, spring_vec3_sub(root.position, pivot)));
	root.rotation = spring_quat_normalize(spring_quat_mul(rotation, root.rotation));
	return spring_chain_teleport(chain, root);
}

// ---------------------------------------------------------------------------------------------
// Runtime changes

spring_result spring_chain_set_animation(spring_chain *chain, const spring_xform3 *local, int count)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!local) {
		if (count != 0 && count != chain->bone_count) {
			return SPRING_ERROR_INVALID_ARGUMENT;
		}
		chain->animated = 0;
		wake(chain);
		return SPRING_OK;
	}
	if (count != chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_animation(chain, local, count);
	if (r != SPRING_OK) {
		return r;
	}
	chain_arrays a = arrays(chain);
	for (int i = 0; i < count; i++) {
		a.anim_local[i] = local[i];
		a.anim_local[i].rotation = spring_quat_normalize(local[i].rotation);
	}
	chain->animated = 1;
	wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_params(spring_chain *chain, int bone, spring_params params)
{
	if (!chain || bone < 0 || bone >= chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	chain_arrays a = arrays(chain);
	spring_params old = a.params_set[bone];
	a.params_set[bone] = params;
	spring_result r = prepare_bone(chain, &a, bone);
	if (r != SPRING_OK) {
		a.params_set[bone] = old;
	} else {
		wake(chain);
	}
	return r;
}

spring_result spring_chain_set_cone_limit(spring_chain *chain, int bone, float cone_limit)
{
	if (!chain || bone < 0 || bone >= chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(cone_limit)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (cone_limit < 0.0f || cone_limit >= (float)SPRING_PI) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	arrays(chain).cone_limit[bone] = cone_limit;
	wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_forces(spring_chain *chain, spring_vec3 gravity, spring_vec3 wind)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_vec3_is_finite(gravity) || !spring_vec3_is_finite(wind)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!vec3_in_range(gravity, SPRING_CHAIN_MAX_ACCELERATION) || !vec3_in_range(wind, SPRING_CHAIN_MAX_ACCELERATION)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	chain->gravity = gravity;
	chain->wind = wind;
	wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_colliders(spring_chain *chain, const spring_chain_collider *colliders, int count)
{
	if (!chain || count < 0 || count > chain->max_colliders || (count > 0 && !colliders)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	for (int i = 0; i < count; i++) {
		spring_result r = validate_collider(&colliders[i], i, NULL);
		if (r != SPRING_OK) {
			return r;
		}
	}
	chain_arrays a = arrays(chain);
	for (int i = 0; i < count; i++) {
		a.colliders[i] = colliders[i];
	}
	chain->collider_count = count;
	wake(chain);
	return SPRING_OK;
}

spring_result spring_chain_set_root_limits(spring_chain *chain, float max_root_speed, float max_root_angular_speed)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(max_root_speed) || !spring_is_finite(max_root_angular_speed)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (max_root_speed < 0.0f || max_root_angular_speed < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	set_root_limits(chain, max_root_speed, max_root_angular_speed);
	wake(chain);
	return SPRING_OK;
}

bool spring_chain_is_resting(const spring_chain *chain)
{
	return chain && chain->resting;
}

void spring_chain_internal_set_sleep(spring_chain *chain, bool allowed)
{
	if (chain) {
		chain->sleep_off = !allowed;
	}
}

long long spring_chain_internal_steps_run(const spring_chain *chain)
{
	return chain ? chain->steps_run : 0;
}

// ---------------------------------------------------------------------------------------------
// Output

int spring_chain_bone_count(const spring_chain *chain)
{
	return chain ? chain->bone_count : 0;
}

spring_result spring_chain_internal_pose(const spring_chain *chain, float alpha, spring_xform3 *bones, spring_vec3 *tips,
                                         int capacity)
{
	if (!chain || (!bones && !tips) || capacity < chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	chain_arrays a = arrays(chain);
	// Root to tip: the interpolated root, then each bone's transform relative to its parent
	// interpolated between the two steps (position linearly, rotation by nlerp) and carried by
	// the parent's drawn transform, so each joint sits on its parent's drawn bone.
	spring_xform3 parent_prev = chain->root_step_prev, parent = chain->root_step;
	spring_xform3 drawn_parent = xform3_lerp(parent_prev, parent, alpha);
	for (int i = 0; i < chain->bone_count; i++) {
		spring_xform3 b;
		if (alpha >= 1.0f) {
			b = world_at(chain, &a, i, 0);
		} else if (alpha <= 0.0f) {
			b = world_at(chain, &a, i, 1);
		} else {
			spring_xform3 prev = world_at(chain, &a, i, 1), cur = world_at(chain, &a, i, 0);
			spring_xform3 local_prev = spring_xform3_mul(spring_xform3_inverse(parent_prev), prev);
			spring_xform3 local = spring_xform3_mul(spring_xform3_inverse(parent), cur);
			b = xform3_normalized(spring_xform3_mul(drawn_parent, xform3_lerp(local_prev, local, alpha)));
			parent_prev = prev;
			parent = cur;
			drawn_parent = b;
		}
		if (bones) {
			bones[i] = b;
		}
		if (tips) {
			// From the transform, so the rendered bone keeps its exact length.
			tips[i] = spring_xform3_apply(b, a.tip_local[i]);
		}
	}
	return SPRING_OK;
}

spring_result spring_chain_get_pose(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips, int capacity)
{
	return spring_chain_internal_pose(chain, chain ? chain->clock.alpha : 0.0f, bones, tips, capacity);
}

spring_result spring_chain_get_stepped_pose(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips, int capacity)
{
	return spring_chain_internal_pose(chain, 1.0f, bones, tips, capacity);
}

spring_result spring_chain_internal_stepped_pose2d(const spring_chain *chain, spring_xform2 *world_out)
{
	if (!chain || !world_out || !chain->mode_2d) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	chain_arrays a = arrays(chain);
	for (int i = 0; i < chain->bone_count; i++) {
		chain_pose2 p = chain->pose_2d ? a.world2[i] : pose2_of_xform3(a.world[i]);
		spring_xform2 t = {{p.x, p.y}, pose2_angle(p), {1.0f, 1.0f}};
		world_out[i] = t;
	}
	return SPRING_OK;
}

spring_result spring_chain_get_state(const spring_chain *chain, int bone, spring_state_vec3 *tip)
{
	if (!chain || !tip || bone < 0 || bone >= chain->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	chain_arrays a = arrays(chain);
	tip->x = tip_of(&a, bone);
	tip->v = vel_of(&a, bone);
	return SPRING_OK;
}

spring_vec3 spring_chain_get_target(const spring_chain *chain, int bone)
{
	if (!chain || bone < 0 || bone >= chain->bone_count) {
		return spring_vec3_make(0.0f, 0.0f, 0.0f);
	}
	return arrays(chain).target[bone];
}

const spring_clock *spring_chain_clock(const spring_chain *chain)
{
	return chain ? &chain->clock : NULL;
}

// ---------------------------------------------------------------------------------------------
// Snapshots

// The layout a blob must match: the block's size and where every array sits.
static uint64_t chain_shape(const spring_chain *c)
{
	uint64_t h = spring_hash(SPRING_HASH_INIT, &c->at, sizeof c->at);
	int counts[3] = {c->bone_count, c->max_colliders, c->mode_2d};
	return spring_hash(h, counts, sizeof counts);
}

size_t spring_chain_snapshot_size(const spring_chain *chain)
{
	return chain ? SPRING_SNAPSHOT_HEADER_BYTES + chain->at.total : 0;
}

spring_result spring_chain_snapshot(const spring_chain *chain, void *blob, size_t size)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_internal_snapshot(chain, chain->at.total, offsetof(spring_chain, owner), SPRING_SNAPSHOT_CHAIN,
	                                chain_shape(chain), blob, size);
}

spring_result spring_chain_restore(spring_chain *chain, const void *blob, size_t size)
{
	if (!chain) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_internal_restore(chain, chain->at.total, offsetof(spring_chain, owner), SPRING_SNAPSHOT_CHAIN,
	                               chain_shape(chain), blob, size);
}
