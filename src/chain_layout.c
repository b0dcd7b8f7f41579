// SPDX-License-Identifier: MIT
// The tip chains' memory layout, the validation of descriptions, creation, and the pose at rest
// (chain_impl.h).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain_impl.h"

#include <math.h>
#include <stdio.h>

// ---------------------------------------------------------------------------------------------
// Small helpers

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

static void set_error_kind_text(spring_error *e, spring_result r, const char *kind, int index, const char *field,
                                const char *text)
{
	spring_element element = strcmp(kind, "collider") == 0 ? SPRING_ELEMENT_COLLIDER : SPRING_ELEMENT_BONE;
	spring_internal_fail_at(e, r, "chain", index >= 0 ? element : SPRING_ELEMENT_NONE, index, field, "%s %s", field, text);
}

static void set_error(spring_error *e, spring_result r, int index, const char *field, const char *fmt, double value)
{
	char text[160]; // the reason; the message (200) puts the location before it
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
	char text[160]; // the reason; the message (200) puts the location before it
	snprintf(text, sizeof text, fmt, value);
	set_error_kind_text(e, r, kind, index, field, text);
}

// What bone i steps with when its own settings are `own` and `gravity`: the effective params and
// its transition row (T_COUNT floats). The rule of set_params and set_bone_gravity (through
// prepare_bone) and of restore.
spring_result spring_chain_impl_bone_settings(const spring_chain *c, int i, spring_params own, spring_vec3 gravity,
                                              spring_params *out, float trans[T_COUNT])
{
	spring_params p;
	spring_result r = spring_chain_internal_bone_params(own, c->chain_params, c->tip_params, i, c->bone_count, &p);
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
	*out = p;
	trans[T_PP] = st.pp;
	trans[T_PV] = st.pv;
	trans[T_VP] = st.vp;
	trans[T_VV] = st.vv;
	trans[T_W2] = p.stiffness / p.mass;
	trans[T_F0] = (float)forced_position(w2, g, h, &tr);
	trans[T_F1] = (float)tr.pv;
	trans[T_GX] = gravity.x;
	trans[T_GY] = gravity.y;
	trans[T_GZ] = gravity.z;
	return SPRING_OK;
}

spring_result spring_chain_impl_prepare_bone(spring_chain *c, const chain_arrays *a, int i)
{
	size_t k = (size_t)i * (size_t)a->s;
	spring_params p;
	float trans[T_COUNT];
	spring_result r = spring_chain_impl_bone_settings(c, i, a->params_set[k], a->gravity_set[k], &p, trans);
	if (r != SPRING_OK) {
		return r;
	}
	a->params[k] = p;
	for (int q = 0; q < T_COUNT; q++) {
		TRANS_AT(a, q, i)[0] = trans[q];
	}
	if (c->lanes > 1) {
		a->trans_state[i] = TRANS_CHANGED; // the next frame update compares the lanes again
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Layout

static size_t row_of(int lanes)
{
	return (size_t)P_COUNT * (size_t)block_of(lanes);
}

// Offsets from the start of a block whose arrays begin at `start`, for `lanes` chains side by side
// (stride = lanes rounded up to 4 for a group, 1 for a single chain). Every byte count saturates
// (base_internal.h): a block too large for a size_t gets total SIZE_MAX, which no check lets fit.
static void layout_compute(int n, int colliders, int mode_2d, int lanes, int stride, size_t start, chain_layout *l)
{
	size_t at = spring_internal_align16(start);
	size_t un = (size_t)n, plane = spring_internal_size_mul(un, (size_t)stride);
	int single = lanes == 1 && stride == 1;
	size_t b = (size_t)block_of(lanes), blocks = ((size_t)lanes + b - 1u) / b;
	size_t bones_of_blocks = spring_internal_size_mul(blocks, un);
	// A group's sleeping copies: a chunk's lanes at a time (save_sleepers).
	size_t saved_floats = lanes > 1 ? (blocks < CHUNK_BLOCKS ? blocks : CHUNK_BLOCKS) * un * S_COUNT * b : 0u;
#define BYTES(count, each) spring_internal_size_mul((count), (each))
#define PLACE(field, bytes)                                                  \
	do {                                                                     \
		l->field = at;                                                       \
		at = spring_internal_align16(spring_internal_size_add(at, (bytes))); \
	} while (0)
	PLACE(planes, BYTES(bones_of_blocks, row_of(lanes) * sizeof(float)));
	PLACE(trans, BYTES(bones_of_blocks, T_COUNT * b * sizeof(float)));
	PLACE(anim, lanes > 1 ? BYTES(bones_of_blocks, A_COUNT * b * sizeof(float)) : 0u);
	PLACE(trans_shared, lanes > 1 ? un * T_COUNT * b * sizeof(float) : 0u);
	PLACE(trans_state, lanes > 1 ? un * sizeof(int) : 0u);
	PLACE(saved, saved_floats * sizeof(float));
	PLACE(params_set, BYTES(plane, sizeof(spring_params)));
	PLACE(params, BYTES(plane, sizeof(spring_params)));
	PLACE(gravity_set, BYTES(plane, sizeof(spring_vec3)));
	PLACE(scratch, (size_t)K_COUNT * (chunk_blocks(lanes) + 1u) * b * sizeof(float)); // a chunk's blocks, then one lane's
	PLACE(flags, BYTES(blocks, 3u * (size_t)block_of(lanes) * sizeof(int)));          // whole blocks: the kernels' rest flags
	PLACE(roots, 4u * (size_t)chunk_room(lanes) * sizeof(spring_xform3));
	PLACE(lane_roots, BYTES((size_t)lanes, sizeof(chain_roots)));
	PLACE(world2, single && mode_2d ? un * sizeof(chain_pose2) : 0u);
	PLACE(world2_prev, single && mode_2d ? un * sizeof(chain_pose2) : 0u);
	PLACE(rest_local, un * sizeof(spring_xform3));
	PLACE(anim_local, un * sizeof(spring_xform3));
	PLACE(tip_local, un * sizeof(spring_vec3));
	PLACE(length, un * sizeof(float));
	PLACE(tip_radius, un * sizeof(float));
	PLACE(cone_limit, un * sizeof(float));
	PLACE(colliders, (size_t)colliders * sizeof(spring_chain_collider));
	PLACE(step_local3, single ? un * sizeof(spring_xform3) : 0u);
	PLACE(step_local2, single && mode_2d ? un * sizeof(spring_xform2) : 0u);
	PLACE(locals, single ? un * sizeof(spring_xform3) : 0u);
#undef PLACE
#undef BYTES
	l->total = at;
}

// The layout seen from member j's header at byte `header` of the block: every offset relative to
// the header, the per-lane arrays moved to lane j (of `lanes` chains of n bones).
static chain_layout layout_of_member(const chain_layout *block, size_t header, int j, int n, int lanes)
{
	chain_layout l = *block;
	size_t *f = (size_t *)(void *)&l;
	for (size_t k = 0; k < sizeof l / sizeof(size_t) - 1; k++) {
		f[k] -= header;
	}
	size_t b = (size_t)block_of(lanes);
	l.planes += ((size_t)j / b * (size_t)n * row_of(lanes) + (size_t)j % b) * sizeof(float);
	l.trans += ((size_t)j / b * (size_t)n * T_COUNT * b + (size_t)j % b) * sizeof(float);
	l.anim += ((size_t)j / b * (size_t)n * A_COUNT * b + (size_t)j % b) * sizeof(float);
	l.params_set += (size_t)j * sizeof(spring_params);
	l.params += (size_t)j * sizeof(spring_params);
	l.gravity_set += (size_t)j * sizeof(spring_vec3);
	l.lane_roots += (size_t)j * sizeof(chain_roots);
	return l;
}
spring_result spring_chain_impl_validate_collider(const spring_chain_collider *k, int index, spring_error *error)
{
	if ((int)k->type < 0 || (int)k->type >= (int)SPRING_CHAIN_COLLIDER_COUNT) {
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
		spring_result r = spring_chain_impl_validate_collider(&d->colliders[i], i, error);
		if (r != SPRING_OK) {
			return r;
		}
	}
	spring_result ra = check_accel(d->gravity) != SPRING_OK ? check_accel(d->gravity) : check_accel(d->wind);
	if (ra == SPRING_ERROR_NOT_FINITE) {
		set_error_text(error, SPRING_ERROR_NOT_FINITE, -1, "gravity/wind", "must be finite");
		return SPRING_ERROR_NOT_FINITE;
	}
	if (ra != SPRING_OK) {
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
	if ((int)d->projection < 0 || (int)d->projection >= (int)SPRING_CHAIN_PROJECTION_COUNT) {
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
	if ((int)d->integrator < 0 || (int)d->integrator >= (int)SPRING_INTEGRATOR_COUNT) {
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
		r = check_accel(b->gravity);
		if (r != SPRING_OK) {
			set_error_text(
				error, r, i, "gravity",
				r == SPRING_ERROR_NOT_FINITE
					? "(the bone's own) has a NaN or infinite component"
					: "(the bone's own) must have every component within +-1e9 units/s^2 (SPRING_CHAIN_MAX_ACCELERATION)");
			return r;
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

// The padded stride of the per-lane params of `lanes` chains side by side (a multiple of 4); 1 for
// a single chain.
static int stride_of(int lanes)
{
	return lanes == 1 ? 1 : (lanes + 3) / 4 * 4;
}

size_t spring_chain_memory_size(const spring_chain_desc *desc)
{
	if (validate_desc(desc, NULL) != SPRING_OK) {
		return 0;
	}
	chain_layout l;
	layout_compute(desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, 1, 1, sizeof(spring_chain), &l);
	return l.total;
}

// Animation locals handed to the chain (set_animation, a direct step, restore): each a valid
// transform, and in a 2D chain in its plane (z 0).
spring_result spring_chain_impl_check_animation(const spring_chain *chain, const spring_xform3 *local, int count)
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

// A 2D transform handed to the chain: finite, its position within SPRING_CHAIN_MAX_COORDINATE.
spring_result spring_chain_impl_accept_xform2(spring_xform2 t)
{
	if (!spring_vec2_is_finite(t.position) || !spring_is_finite(t.angle)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!in_range(t.position.x, SPRING_CHAIN_MAX_COORDINATE) || !in_range(t.position.y, SPRING_CHAIN_MAX_COORDINATE)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Pose at rest

// Forget rest and sleep: the next step looks at the chain afresh.
void spring_chain_impl_wake(spring_chain *c)
{
	c->resting = 0;
	c->still = 0;
	c->walk = WALK_NONE;
}

// The per-step forms of the inherited-motion caps.
void spring_chain_impl_set_root_limits(spring_chain *c, float speed, float angular)
{
	c->max_root_speed = speed;
	c->max_root_angular_speed = angular;
	c->cap_distance = (float)((double)speed * (double)c->clock.step);
	double angle = (double)angular * (double)c->clock.step;
	c->cap_cos_half = spring_det_cos(0.5 * (angle < SPRING_PI ? angle : SPRING_PI));
}

// Rigid pose under `root`: every bone follows its parent exactly; tips at rest, no velocity.
void spring_chain_impl_pose_at_rest(spring_chain *c, spring_xform3 root)
{
	chain_arrays a = arrays(c);
	spring_xform3 parent = root;
	for (int i = 0; i < c->bone_count; i++) {
		spring_xform3 local = spring_chain_impl_local(c, &a, i);
		spring_xform3 rigid = xform3_normalized(spring_xform3_mul(parent, local));
		spring_vec3 tip = spring_xform3_apply(rigid, a.tip_local[i]);
		if (c->mode_2d) {
			tip.z = 0.0f;
		}
		set_tip(&a, i, tip, spring_vec3_make(0.0f, 0.0f, 0.0f));
		xform_set(&a, P_W, i, rigid);
		xform_set(&a, P_WPREV, i, rigid);
		vec_set(&a, P_GX, i, tip);
		parent = rigid;
	}
	c->pose_2d = 0;
	roots_of(c)->step = root;
	roots_of(c)->step_prev = root;
	roots_of(c)->input = root;
	spring_chain_impl_wake(c);
}

// Fills the header at `c` (validated description) whose arrays are described by `l`, for lane
// `lane` of `lanes` (stride `stride`, `member` bytes between headers), and puts it at rest.
static void init_header(spring_chain *c, const spring_chain_desc *desc, const chain_layout *l, int lanes, int stride,
                        size_t member_bytes)
{
	memset(c, 0, sizeof *c);
	c->bone_count = desc->bone_count;
	c->collider_count = desc->collider_count;
	c->max_colliders = collider_capacity(desc);
	c->mode_2d = desc->mode_2d != 0;
	c->stride = stride;
	c->lanes = lanes;
	c->block = block_of(lanes);
	c->row = row_of(lanes);
	c->member = member_bytes;
	c->projection = desc->projection;
	c->integrator = desc->integrator;
	spring_clock_init(&c->clock, desc->step, desc->max_steps);
	spring_chain_impl_set_root_limits(c, desc->max_root_speed, desc->max_root_angular_speed);
	c->gravity = desc->gravity;
	c->wind = desc->wind;
	c->accel = chain_accel(c->gravity, c->wind);
	c->chain_params = desc->params;
	c->tip_params = desc->tip_params;
	c->at = *l;
	chain_arrays a = arrays(c);
	float shortest = a.length[0];
	for (int i = 1; i < c->bone_count; i++) {
		shortest = a.length[i] < shortest ? a.length[i] : shortest;
	}
	c->rest_distance = desc->rest_distance > 0.0f ? desc->rest_distance : 1e-4f * shortest;
	c->rest_speed = desc->rest_speed > 0.0f ? desc->rest_speed : 1e-3f * shortest;
	for (int i = 0; i < c->bone_count; i++) {
		a.params_set[(size_t)i * (size_t)a.s] = desc->bones[i].params;
		a.gravity_set[(size_t)i * (size_t)a.s] = desc->bones[i].gravity;
		c->bone_gravity += has_gravity(desc->bones[i].gravity);
		spring_chain_impl_prepare_bone(c, &a, i); // validated
	}
	spring_xform3 root = desc->root;
	accept_xform3(&root); // validated
	spring_chain_impl_pose_at_rest(c, root);
}

// The shared per-bone configuration of a validated description, written once per block.
static void init_shared(const spring_chain_desc *desc, unsigned char *block, const chain_layout *l)
{
	for (int i = 0; i < desc->bone_count; i++) {
		const spring_chain_bone_desc *b = &desc->bones[i];
		spring_xform3 rest = b->rest_local;
		accept_xform3(&rest); // validated
		((spring_xform3 *)(void *)(block + l->rest_local))[i] = rest;
		((spring_vec3 *)(void *)(block + l->tip_local))[i] = b->tip;
		((float *)(void *)(block + l->length))[i] = spring_vec3_length(b->tip);
		((float *)(void *)(block + l->tip_radius))[i] = b->tip_radius;
		((float *)(void *)(block + l->cone_limit))[i] = b->cone_limit;
	}
	for (int i = 0; i < desc->collider_count; i++) {
		((spring_chain_collider *)(void *)(block + l->colliders))[i] = desc->colliders[i];
	}
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
	chain_layout l;
	layout_compute(desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, 1, 1, sizeof(spring_chain), &l);
	if (!memory || ((uintptr_t)memory & 15u) != 0 || size < l.total) {
		set_error(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "memory", "must be 16-byte aligned and at least %g bytes",
		          (double)l.total);
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	memset(memory, 0, l.total);
	init_shared(desc, (unsigned char *)memory, &l);
	spring_chain *c = (spring_chain *)memory;
	init_header(c, desc, &l, 1, 1, 0);
	*out = c;
	return SPRING_OK;
}

// Whether the n lanes of `c` (lane 0, n > 1) hold the same transition bits for each bone whose
// lanes' transitions changed since the last look (TRANS_CHANGED): the bone then gets its shared
// row (TRANS_SHARED, lane 0's values in every lane of the row), otherwise the lanes' own are read
// (TRANS_OWN). Stops at the first lane that differs.
void spring_chain_impl_share_transitions(const spring_chain *c, const chain_arrays *a, int n)
{
	const size_t b = (size_t)a->B, per_block = (size_t)c->bone_count * T_COUNT * b;
	for (int i = 0; i < c->bone_count; i++) {
		if (a->trans_state[i] != TRANS_CHANGED) {
			continue;
		}
		const float *first = TRANS_AT(a, 0, i);
		int same = 1;
		for (int j = 1; same && j < n; j++) {
			const float *t = first + (size_t)j / b * per_block + (size_t)j % b;
			for (int q = 0; q < T_COUNT; q++) {
				uint32_t u, v; // the bits (a -0 or a NaN's payload would step apart)
				memcpy(&u, &t[(size_t)q * b], sizeof u);
				memcpy(&v, &first[(size_t)q * b], sizeof v);
				same &= u == v;
			}
		}
		float *row = a->trans_shared + (size_t)i * T_COUNT * b;
		for (int q = 0; same && q < T_COUNT; q++) {
			for (size_t l = 0; l < b; l++) {
				row[(size_t)q * b + l] = first[(size_t)q * b];
			}
		}
		a->trans_state[i] = same ? TRANS_SHARED : TRANS_OWN;
	}
}

size_t spring_chain_internal_lanes_size(const spring_chain_desc *desc, int lanes, size_t offset)
{
	if (lanes < 1 || validate_desc(desc, NULL) != SPRING_OK) {
		return 0;
	}
	size_t member_bytes = spring_internal_align16(sizeof(spring_chain));
	chain_layout l;
	layout_compute(
		desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, lanes, stride_of(lanes),
		spring_internal_size_add(spring_internal_align16(offset), spring_internal_size_mul((size_t)lanes, member_bytes)), &l);
	return spring_internal_size_fits(l.total) ? l.total - offset : 0;
}

spring_result spring_chain_internal_lanes_init(const spring_chain_desc *desc, int lanes, void *block, size_t offset,
                                               spring_error *error)
{
	spring_result r = validate_desc(desc, error);
	if (r != SPRING_OK) {
		return r;
	}
	size_t member_bytes = spring_internal_align16(sizeof(spring_chain)), first = spring_internal_align16(offset);
	int stride = stride_of(lanes);
	chain_layout l;
	layout_compute(desc->bone_count, collider_capacity(desc), desc->mode_2d != 0, lanes, stride,
	               first + (size_t)lanes * member_bytes, &l);
	unsigned char *base = (unsigned char *)block;
	memset(base + first, 0, l.total - first);
	init_shared(desc, base, &l);
	for (int j = 0; j < lanes; j++) {
		size_t header = first + (size_t)j * member_bytes;
		chain_layout mine = layout_of_member(&l, header, j, desc->bone_count, lanes);
		init_header((spring_chain *)(void *)(base + header), desc, &mine, lanes, stride, member_bytes);
	}
	if (lanes > 1) {
		spring_chain *c = (spring_chain *)(void *)(base + first);
		c->gravity_lanes = c->bone_gravity > 0 ? lanes : 0; // every lane made from one description
		const chain_arrays a = arrays(c);
		spring_chain_impl_share_transitions(c, &a, lanes);
		// No lane is animated: every lane's animated locals, the padding's too, are the rest pose
		// (what an animated group's kernel reads for them).
		const size_t b = (size_t)a.B, blocks = ((size_t)lanes + b - 1u) / b;
		chain_arrays lane = a;
		for (size_t j = 0; j < blocks * b; j++) {
			lane.anim = a.anim + j / b * (size_t)desc->bone_count * A_COUNT * b + j % b;
			for (int i = 0; i < desc->bone_count; i++) {
				spring_chain_impl_set_lane_local(&lane, i, a.rest_local[i]);
			}
		}
	}
	return SPRING_OK;
}

spring_chain *spring_chain_internal_lane(spring_chain *first, int lane)
{
	return member(first, lane);
}
SPRING_INTERNAL_DEFINE_CREATE(spring_chain, spring_chain, spring_chain_desc, "chain")

void spring_chain_destroy(spring_chain *chain)
{
	// With the allocator that made it, even if the process-wide one changed since.
	if (chain) {
		spring_internal_destroy(chain, &chain->owner);
	}
}
