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
#include <stdio.h>
#include <string.h>

// Byte offsets of the per-bone arrays from the start of the block.
typedef struct chain_layout {
	size_t rest_local, anim_local, tip_local, length, tip_radius, cone_limit, params_set, params, w2, stepper;
	size_t tx, ty, tz, vx, vy, vz, world, world_prev, world2, world2_prev, target, colliders, total;
} chain_layout;

struct spring_chain {
	int bone_count;
	int collider_count;
	int max_colliders;
	int mode_2d;
	int keep_projected_velocity;
	int animated; // anim_local is used instead of rest_local
	int pose_2d;  // the last step was a 2D walk: world2/world2_prev hold the pose, world/world_prev are stale
	spring_integrator integrator;
	spring_clock clock;
	spring_vec3 gravity, wind;
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
	float *w2;                 // k / m, for the force shift
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
	return a;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

static int quat_is_zero(spring_quat q)
{
	return q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 0.0f;
}

static int quat_is_finite(spring_quat q)
{
	return spring_is_finite(q.x) && spring_is_finite(q.y) && spring_is_finite(q.z) && spring_is_finite(q.w);
}

static int xform3_is_finite(spring_xform3 t)
{
	return spring_vec3_is_finite(t.position) && quat_is_finite(t.rotation) && !quat_is_zero(t.rotation);
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
	a->params[i] = p;
	a->stepper[i] = st;
	a->w2[i] = p.stiffness / p.mass;
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
	if (k->radius < 0.0f) {
		set_error_kind(error, SPRING_ERROR_OUT_OF_RANGE, "collider", index, "radius", "must be >= 0 (got %g)", (double)k->radius);
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
	if (quat_is_zero(root.rotation)) {
		root.rotation = spring_quat_identity();
	}
	if (!xform3_is_finite(root)) {
		set_error_text(error, SPRING_ERROR_NOT_FINITE, -1, "root", "must be a finite transform");
		return SPRING_ERROR_NOT_FINITE;
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_chain_bone_desc *b = &d->bones[i];
		if (!spring_vec3_is_finite(b->rest_local.position) || !quat_is_finite(b->rest_local.rotation)) {
			set_error_text(error, SPRING_ERROR_NOT_FINITE, i, "rest_local", "must be finite");
			return SPRING_ERROR_NOT_FINITE;
		}
		if (!spring_vec3_is_finite(b->tip)) {
			set_error_text(error, SPRING_ERROR_NOT_FINITE, i, "tip", "must be finite");
			return SPRING_ERROR_NOT_FINITE;
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
	c->keep_projected_velocity = desc->keep_projected_velocity != 0;
	c->integrator = desc->integrator;
	spring_clock_init(&c->clock, desc->step, desc->max_steps);
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
		if (quat_is_zero(a.rest_local[i].rotation)) {
			a.rest_local[i].rotation = spring_quat_identity();
		}
		a.rest_local[i].rotation = spring_quat_normalize(a.rest_local[i].rotation);
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
	spring_xform3 root = desc->root;
	if (quat_is_zero(root.rotation)) {
		root.rotation = spring_quat_identity();
	}
	pose_at_rest(c, xform3_normalized(root));
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

// The middle of a step for bone i, the same for both walks: the simulated tip springs toward
// `rigid_tip` (a constant force shifts the equilibrium by a / w2), then the cone limit around
// the rigid direction, the bone length and the colliders act on it. Stores the new tip, its
// velocity and the rigid tip (target); returns the new tip.
static spring_vec3 move_tip(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 rigid_tip,
                            spring_vec3 accel)
{
	a->target[i] = rigid_tip;
	float w2 = a->w2[i];
	spring_vec3 shifted = spring_vec3_add(rigid_tip, spring_vec3_scale(accel, 1.0f / w2));
	spring_state_vec3 s = {tip_of(a, i), vel_of(a, i)};
	if (c->integrator == SPRING_INTEGRATOR_EXACT) {
		spring_stepper_step_vec3(&a->stepper[i], &s, shifted);
	} else if (spring_step_semi_implicit_vec3(a->params[i], &s, shifted, c->clock.step) != SPRING_OK) {
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
	if (!c->keep_projected_velocity) {
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

// One fixed step of the 3D walk under `root` (normalised); `anim` (NULL: the stored animation or
// the rest pose) gives this step's local transforms, normalised here like set_animation does.
static void step_chain(spring_chain *c, spring_xform3 root, const spring_xform3 *anim)
{
	chain_arrays a = arrays(c);
	if (c->pose_2d) {
		for (int i = 0; i < c->bone_count; i++) {
			a.world[i] = xform3_of_pose2(a.world2[i]);
		}
		c->pose_2d = 0;
	}
	const spring_vec3 accel = spring_vec3_add(c->gravity, c->wind);
	spring_xform3 parent = root;
	c->root_step_prev = c->root_step;
	c->root_step = root;
	for (int i = 0; i < c->bone_count; i++) {
		a.world_prev[i] = a.world[i];
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
		spring_vec3 tip = move_tip(c, &a, i, pivot, rigid_tip, accel);

		// Aim the bone at the simulated tip about its own pivot (shortest arc, no twist).
		spring_vec3 from = spring_vec3_sub(rigid_tip, pivot), to = spring_vec3_sub(tip, pivot);
		spring_quat q = c->mode_2d ? quat_from_to_2d(from, to) : spring_quat_from_to(from, to);
		spring_xform3 bone = {pivot, spring_quat_normalize(spring_quat_mul(q, rigid.rotation))};
		a.world[i] = bone;
		parent = bone;
	}
}

// One fixed step of the 2D walk (mode_2d chains): the same bones as step_chain with rotations as
// unit directions. `anim` (NULL: the stored animation or the rest pose) gives this step's locals.
static void step_chain_2d(spring_chain *c, spring_xform2 root, const spring_xform2 *anim)
{
	chain_arrays a = arrays(c);
	if (!c->pose_2d) {
		for (int i = 0; i < c->bone_count; i++) {
			a.world2[i] = pose2_of_xform3(a.world[i]);
		}
		c->pose_2d = 1;
	}
	const spring_vec3 accel = spring_vec3_add(c->gravity, c->wind);
	chain_pose2 parent = pose2_of_xform2(root);
	// The root is kept in 3D for teleports.
	c->root_step_prev = c->root_step;
	c->root_step = xform3_of_pose2(parent);
	for (int i = 0; i < c->bone_count; i++) {
		a.world2_prev[i] = a.world2[i];
		chain_pose2 local = anim ? pose2_of_xform2(anim[i]) : pose2_of_xform3(c->animated ? a.anim_local[i] : a.rest_local[i]);
		chain_pose2 rigid = pose2_mul(parent, local);
		spring_vec3 pivot = spring_vec3_make(rigid.x, rigid.y, 0.0f);
		spring_vec3 t = a.tip_local[i];
		double rc = rigid.c, rs = rigid.s;
		spring_vec3 rigid_tip = spring_vec3_make((float)((double)rigid.x + (rc * t.x - rs * t.y)),
		                                         (float)((double)rigid.y + (rs * t.x + rc * t.y)), 0.0f);
		spring_vec3 tip = move_tip(c, &a, i, pivot, rigid_tip, accel);

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
}

static spring_xform3 xform3_lerp(spring_xform3 a, spring_xform3 b, float t)
{
	spring_xform3 r = {spring_vec3_lerp(a.position, b.position, t), spring_quat_nlerp(a.rotation, b.rotation, t)};
	return r;
}

static spring_result check_root(const spring_chain *chain, const spring_xform3 *root)
{
	if (!chain || !root) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return xform3_is_finite(*root) ? SPRING_OK : SPRING_ERROR_NOT_FINITE;
}

spring_result spring_chain_update(spring_chain *chain, spring_xform3 root, float frame_dt)
{
	spring_result r = check_root(chain, &root);
	if (r != SPRING_OK) {
		return r;
	}
	if (!spring_is_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	root = xform3_normalized(root);
	int n = spring_clock_advance(&chain->clock, frame_dt);
	for (int i = 0; i < n; i++) {
		float f = spring_clock_substep_fraction(&chain->clock, i, n);
		step_chain(chain, xform3_lerp(chain->root_input, root, f), NULL);
	}
	chain->root_input = root;
	return SPRING_OK;
}

// set_animation's rules for `count` local transforms.
static spring_result check_animation(const spring_chain *chain, const spring_xform3 *local, int count)
{
	for (int i = 0; i < count; i++) {
		if (!spring_vec3_is_finite(local[i].position) || !quat_is_finite(local[i].rotation) || quat_is_zero(local[i].rotation)) {
			return SPRING_ERROR_NOT_FINITE;
		}
		if (chain->mode_2d && local[i].position.z != 0.0f) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	return SPRING_OK;
}

spring_result spring_chain_internal_step(spring_chain *chain, const spring_xform3 *root, const spring_xform3 *anim_local)
{
	spring_result r = check_root(chain, root);
	if (r == SPRING_OK && anim_local) {
		r = check_animation(chain, anim_local, chain->bone_count);
	}
	if (r != SPRING_OK) {
		return r;
	}
	spring_xform3 at = xform3_normalized(*root);
	step_chain(chain, at, anim_local);
	chain->root_input = at;
	return SPRING_OK;
}

static int xform2_is_finite(spring_xform2 t)
{
	return spring_vec2_is_finite(t.position) && spring_is_finite(t.angle);
}

spring_result spring_chain_internal_step2d(spring_chain *chain, spring_xform2 root, const spring_xform2 *anim_local)
{
	if (!chain || !chain->mode_2d) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!xform2_is_finite(root)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	for (int i = 0; anim_local && i < chain->bone_count; i++) {
		if (!xform2_is_finite(anim_local[i])) {
			return SPRING_ERROR_NOT_FINITE;
		}
	}
	step_chain_2d(chain, root, anim_local);
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
	spring_result r = check_root(chain, &root);
	if (r != SPRING_OK) {
		return r;
	}
	pose_at_rest(chain, xform3_normalized(root));
	return SPRING_OK;
}

spring_result spring_chain_teleport(spring_chain *chain, spring_xform3 root)
{
	spring_result r = check_root(chain, &root);
	if (r != SPRING_OK) {
		return r;
	}
	root = xform3_normalized(root);
	// D maps the old root frame onto the new one; everything simulated moves with it.
	spring_xform3 d = xform3_normalized(spring_xform3_mul(root, spring_xform3_inverse(chain->root_step)));
	if (chain->mode_2d) {
		// Keep the plane: only the rotation about z and the xy translation survive.
		d.position.z = 0.0f;
		d.rotation.x = 0.0f;
		d.rotation.y = 0.0f;
		d.rotation = spring_quat_normalize(d.rotation);
	}
	chain_arrays a = arrays(chain);
	chain_pose2 d2 = chain->pose_2d ? pose2_of_xform3(d) : (chain_pose2){0.0f, 0.0f, 1.0f, 0.0f};
	for (int i = 0; i < chain->bone_count; i++) {
		spring_vec3 tip = spring_xform3_apply(d, tip_of(&a, i));
		spring_vec3 vel = spring_quat_rotate(d.rotation, vel_of(&a, i));
		set_tip(&a, i, tip, vel);
		if (chain->pose_2d) {
			a.world2[i] = pose2_mul(d2, a.world2[i]);
			a.world2_prev[i] = pose2_mul(d2, a.world2_prev[i]);
		} else {
			a.world[i] = xform3_normalized(spring_xform3_mul(d, a.world[i]));
			a.world_prev[i] = xform3_normalized(spring_xform3_mul(d, a.world_prev[i]));
		}
		a.target[i] = spring_xform3_apply(d, a.target[i]);
	}
	chain->root_step_prev = xform3_normalized(spring_xform3_mul(d, chain->root_step_prev));
	chain->root_step = root;
	chain->root_input = root;
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
	if (!quat_is_finite(rotation) || quat_is_zero(rotation) || !spring_vec3_is_finite(pivot)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	rotation = spring_quat_normalize(rotation);
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
	chain->gravity = gravity;
	chain->wind = wind;
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
	return SPRING_OK;
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
	for (int i = 0; i < chain->bone_count; i++) {
		spring_xform3 b = alpha >= 1.0f ? world_at(chain, &a, i, 0)
		                                : xform3_lerp(world_at(chain, &a, i, 1), world_at(chain, &a, i, 0), alpha);
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
