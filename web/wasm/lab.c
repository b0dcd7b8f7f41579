// SPDX-License-Identifier: MIT
// The playground's own wasm exports (web/): the scenes of the page driven through the library's
// public API, and the traps. Everything the page shows is computed here or in the library; the
// page's JavaScript only moves numbers in and out of lab_in() / lab_out() and draws them.
//
// The traps are the mistakes the library exists to avoid. Where the library offers the mistake
// as an option (the tip chain's SPRING_CHAIN_PROJECTION_KEEP_VELOCITY; a root jump fed to update
// instead of spring_chain_teleport; a chain fed the pose before IK) the library runs it. The rest
// are not in the library on purpose and are written here, in a small angle-chain and a small
// tip-chain loop that reproduce the library's model with one mistake switched in each:
// explicit Euler, a step per frame, parents read from the previous frame, no angle folding, no
// length projection.
#include <spring/chain.h>
#include <spring/motion.h>
#include <spring/rig.h>
#include <spring/verify.h>

#include "scenes.h"
#include "spring/io.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define LAB_EXPORT(name) __attribute__((export_name(#name)))

enum { LAB_IN = 256, LAB_OUT = 4096, MAXS = 16 };
static float lab_in_buf[LAB_IN];
static float lab_out_buf[LAB_OUT];

LAB_EXPORT(lab_in) float *lab_in(void)
{
	return lab_in_buf;
}

LAB_EXPORT(lab_out) float *lab_out(void)
{
	return lab_out_buf;
}

LAB_EXPORT(lab_result_string) const char *lab_result_string(int r)
{
	return spring_result_string((spring_result)r);
}

static spring_xform2 xf2(float x, float y, float angle)
{
	spring_xform2 t = {{x, y}, angle, {1.0f, 1.0f}};
	return t;
}

static spring_xform3 xf3(float x, float y, float angle)
{
	spring_xform3 t = {spring_vec3_make(x, y, 0.0f), spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), angle)};
	return t;
}

static spring_vec2 dir2(float angle)
{
	return spring_vec2_rotate(spring_vec2_make(1.0f, 0.0f), angle);
}

// =============================================================================================
// Retarget: a ball sent by clicks, as a spring (spring_motion, keeps its velocity) and as a
// restarted ease-in-out tween (CSS ease-in-out through the library's cubic-bezier).

static spring_motion ball;
static struct {
	float from[2], to[2], time, duration, pos[2], speed;
} tween;

static float ease_in_out(float u)
{
	return spring_rig_cubic_bezier(0.42f, 0.0f, 0.58f, 1.0f, u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u);
}

/// Starts both at (x, y): the spring with (duration, bounce), the tween lasting `tween_duration`.
LAB_EXPORT(lab_retarget_init) int lab_retarget_init(float x, float y, float duration, float bounce, float tween_duration)
{
	spring_motion_desc d = {.channels = 2};
	spring_result r = spring_params_from_duration_bounce(duration, bounce, &d.params);
	if (r != SPRING_OK) {
		return (int)r;
	}
	d.from[0] = d.to[0] = x;
	d.from[1] = d.to[1] = y;
	r = spring_motion_init(&ball, &d);
	if (r != SPRING_OK) {
		return (int)r;
	}
	tween.from[0] = tween.to[0] = tween.pos[0] = x;
	tween.from[1] = tween.to[1] = tween.pos[1] = y;
	tween.time = tween_duration;
	tween.duration = tween_duration;
	tween.speed = 0.0f;
	return SPRING_OK;
}

/// A click: both go to (x, y). The spring keeps its velocity; the tween restarts from where it is.
LAB_EXPORT(lab_retarget_click) int lab_retarget_click(float x, float y)
{
	float target[2] = {x, y};
	spring_result r = spring_motion_set_target(&ball, target, 2);
	if (r != SPRING_OK) {
		return (int)r;
	}
	memcpy(tween.from, tween.pos, sizeof tween.from);
	tween.to[0] = x;
	tween.to[1] = y;
	tween.time = 0.0f;
	return SPRING_OK;
}

static void tween_at(float time, float out[2])
{
	float e = ease_in_out(time / tween.duration);
	out[0] = tween.from[0] + (tween.to[0] - tween.from[0]) * e;
	out[1] = tween.from[1] + (tween.to[1] - tween.from[1]) * e;
}

/// Advances both by dt; lab_out: spring x, y, speed, tween x, y, speed (units/s).
LAB_EXPORT(lab_retarget_advance) int lab_retarget_advance(float dt)
{
	spring_result r = spring_motion_update(&ball, dt);
	if (r != SPRING_OK) {
		return (int)r;
	}
	float v[2], x[2];
	spring_motion_get_value(&ball, x, v, 2);
	float before[2];
	tween_at(tween.time, before);
	tween.time = fminf(tween.time + dt, tween.duration);
	tween_at(tween.time, tween.pos);
	// The tween's speed: its derivative at the new time (central difference of the easing,
	// clamped inside the tween, so a restart shows the speed the tween really has: zero).
	const float h = 1e-3f;
	float a[2], b[2];
	float t0 = fmaxf(tween.time - h, 0.0f), t1 = fminf(tween.time + h, tween.duration);
	tween_at(t0, a);
	tween_at(t1, b);
	tween.speed = t1 > t0 ? spring_vec2_length(spring_vec2_make(b[0] - a[0], b[1] - a[1])) / (t1 - t0) : 0.0f;
	if (tween.time >= tween.duration) {
		tween.speed = 0.0f;
	}
	float *o = lab_out_buf;
	o[0] = x[0];
	o[1] = x[1];
	o[2] = spring_vec2_length(spring_vec2_make(v[0], v[1]));
	o[3] = tween.pos[0];
	o[4] = tween.pos[1];
	o[5] = tween.speed;
	return SPRING_OK;
}

// =============================================================================================
// Tail and hair: the traps.

enum {
	TRAP_EULER = 1 << 0,          ///< explicit Euler (x += v dt with the old v, then v += a dt)
	TRAP_VARIABLE_STEP = 1 << 1,  ///< one step of frame_dt per frame, no fixed-step clock
	TRAP_PREVIOUS_ORDER = 1 << 2, ///< each segment chases its parent's angle of the previous frame
	TRAP_NO_PROJECTION = 1 << 3,  ///< tip springs never projected back to the bone length
	TRAP_KEEP_VELOCITY = 1 << 4,  ///< projection keeps the radial velocity (the library's option)
	TRAP_NO_FOLDING = 1 << 5,     ///< angle springs on raw angles: no shortest arc
	TRAP_SPRINGS_BEFORE_IK = 1 << 6,
	TRAP_TELEPORT_NO_RESET = 1 << 7,
	TRAP_ANGLE_SIM = TRAP_EULER | TRAP_VARIABLE_STEP | TRAP_PREVIOUS_ORDER | TRAP_NO_FOLDING
};

typedef struct tail_config {
	int n;
	float len[MAXS], rest[MAXS]; // units, radians
	spring_params p[MAXS];       // per segment (the root-to-tip gradient resolved)
	spring_params p0, p1;        // root and tip springs as given
} tail_config;

// The angle-chain loop with the trap switches (the library's spring_chain2d without inertia,
// gravity and limits, when no switch is on).
typedef struct angle_sim {
	int flags;
	float a[MAXS], w[MAXS], prev[MAXS], frame_start[MAXS];
	spring_clock clock;
	spring_xform2 root, root_prev;
} angle_sim;

static float sim_root_angle(const angle_sim *s, float frac)
{
	float from = spring_angle_wrap(s->root_prev.angle), to = spring_angle_wrap(s->root.angle);
	// no folding: the raw stored angles are interpolated, the long way round when they wrap
	return (s->flags & TRAP_NO_FOLDING) ? from + (to - from) * frac : spring_angle_lerp(from, to, frac);
}

static void angle_sim_step(angle_sim *s, const tail_config *c, float root_angle, float h)
{
	memcpy(s->prev, s->a, sizeof s->prev);
	bool fold = !(s->flags & TRAP_NO_FOLDING);
	for (int i = 0; i < c->n; i++) {
		float parent = i == 0 ? root_angle : (s->flags & TRAP_PREVIOUS_ORDER) ? s->frame_start[i - 1] : s->a[i - 1];
		float target = parent + c->rest[i];
		spring_state st = {s->a[i], s->w[i]};
		if (s->flags & TRAP_EULER) {
			float e = fold ? spring_angle_delta(target, st.x) : st.x - target;
			float acc = -(c->p[i].stiffness * e + c->p[i].damping * st.v) / c->p[i].mass;
			st.x += st.v * h;
			st.v += acc * h;
			if (fold) {
				st.x = spring_angle_wrap(st.x);
			}
		} else if (fold) {
			spring_step_exact_angle(c->p[i], &st, target, h);
		} else {
			spring_step_exact(c->p[i], &st, target, h);
		}
		// keep the loop finite whatever the mistake does (a blown-up chain is drawn spinning)
		if (!spring_is_finite(st.x) || !spring_is_finite(st.v) || fabsf(st.v) > 1e4f) {
			st.v = copysignf(1e4f, st.v);
			st.x = spring_angle_wrap(spring_is_finite(st.x) ? st.x : 0.0f);
		}
		s->a[i] = st.x;
		s->w[i] = st.v;
	}
}

static void angle_sim_update(angle_sim *s, const tail_config *c, spring_xform2 root, float frame_dt)
{
	s->root_prev = s->root;
	s->root = root;
	memcpy(s->frame_start, s->a, sizeof s->frame_start);
	if (s->flags & TRAP_VARIABLE_STEP) {
		if (frame_dt > 0.0f) {
			angle_sim_step(s, c, sim_root_angle(s, 1.0f), frame_dt);
		}
		memcpy(s->prev, s->a, sizeof s->prev);
		return;
	}
	int n = spring_clock_advance(&s->clock, frame_dt);
	for (int i = 0; i < n; i++) {
		angle_sim_step(s, c, sim_root_angle(s, spring_clock_substep_fraction(&s->clock, i, n)), s->clock.step);
	}
}

// The drawn angle of segment i (interpolated between the last two steps like the library's).
static float angle_sim_pose(const angle_sim *s, int i)
{
	float t = s->clock.alpha;
	return (s->flags & TRAP_NO_FOLDING) ? s->prev[i] + (s->a[i] - s->prev[i]) * t : spring_angle_lerp(s->prev[i], s->a[i], t);
}

typedef struct hair_config {
	int n;
	float len[MAXS], rest[MAXS];
	spring_params p[MAXS];
	spring_params p0, p1;
	spring_vec2 gravity;
} hair_config;

// The tip-chain loop without the length projection (the library's spring_chain in 2D when the
// projection is put back).
typedef struct tip_sim {
	spring_state_vec2 tip[MAXS];
	spring_vec2 prev[MAXS];
	spring_clock clock;
	spring_xform2 root, root_prev;
} tip_sim;

static void tip_sim_rest(tip_sim *s, const hair_config *c, spring_xform2 root)
{
	spring_vec2 pivot = root.position;
	float angle = root.angle;
	for (int i = 0; i < c->n; i++) {
		angle += c->rest[i];
		s->tip[i].x = spring_vec2_add(pivot, spring_vec2_scale(dir2(angle), c->len[i]));
		s->tip[i].v = spring_vec2_make(0.0f, 0.0f);
		s->prev[i] = s->tip[i].x;
		pivot = s->tip[i].x;
	}
	s->root = s->root_prev = root;
}

static void tip_sim_step(tip_sim *s, const hair_config *c, spring_xform2 root, float h)
{
	spring_vec2 pivot = root.position, parent_pivot = root.position;
	float parent_angle = root.angle;
	for (int i = 0; i < c->n; i++) {
		s->prev[i] = s->tip[i].x;
		if (i > 0) {
			spring_vec2 d = spring_vec2_sub(s->tip[i - 1].x, parent_pivot);
			parent_angle = atan2f(d.y, d.x);
		}
		// the rigid tip, moved to where the spring balances gravity (k/m x = g)
		float wn2 = c->p[i].stiffness / c->p[i].mass;
		spring_vec2 target = spring_vec2_add(pivot, spring_vec2_scale(dir2(parent_angle + c->rest[i]), c->len[i]));
		target = spring_vec2_add(target, spring_vec2_scale(c->gravity, 1.0f / wn2));
		spring_step_exact_vec2(c->p[i], &s->tip[i], target, h);
		parent_pivot = pivot;
		pivot = s->tip[i].x;
	}
}

static void tip_sim_update(tip_sim *s, const hair_config *c, spring_xform2 root, float frame_dt)
{
	s->root_prev = s->root;
	s->root = root;
	int n = spring_clock_advance(&s->clock, frame_dt);
	for (int i = 0; i < n; i++) {
		float f = spring_clock_substep_fraction(&s->clock, i, n);
		spring_xform2 r = xf2(s->root_prev.position.x + (root.position.x - s->root_prev.position.x) * f,
		                      s->root_prev.position.y + (root.position.y - s->root_prev.position.y) * f,
		                      spring_angle_lerp(s->root_prev.angle, root.angle, f));
		tip_sim_step(s, c, r, s->clock.step);
	}
}

// ---------------------------------------------------------------------------------------------
// The scene: a tail (angle chain), a lock of hair (tip chain) and an arm reaching by IK with a
// ribbon hanging from its hand.

enum { RIBBON = 4 };
static const float ribbon_len = 9.0f;

typedef struct scene {
	int flags;
	tail_config tail;
	hair_config hair;
	float arm_len[2];
	// the library's objects
	spring_chain2d *tail_chain;
	spring_chain *hair_chain, *hair_keep;
	spring_chain2d *ribbon;
	// the traps' loops
	angle_sim tail_sim;
	tip_sim hair_sim;
	// inputs of the last update
	spring_xform2 tail_root, hair_root, shoulder;
	spring_vec2 ik_target;
	float setup[2];
	spring_xform2 hand, hand_before_ik;
	spring_frame_clock jitter;
} scene;

static scene live;
static unsigned char memory_pool[8][16384] __attribute__((aligned(16)));

static spring_params resolve_gradient(spring_params p0, spring_params p1, int i, int n)
{
	if (n < 2 || p1.stiffness == 0.0f) {
		return p0;
	}
	float u = (float)i / (float)(n - 1);
	float f = spring_frequency_hz(p0) + (spring_frequency_hz(p1) - spring_frequency_hz(p0)) * u;
	float z = spring_damping_ratio(p0) + (spring_damping_ratio(p1) - spring_damping_ratio(p0)) * u;
	spring_params p;
	return spring_params_from_frequency(f, z, &p) == SPRING_OK ? p : p0;
}

static spring_result make_tail_chain(scene *s, spring_xform2 root, void *memory)
{
	spring_chain2d_segment seg[MAXS];
	memset(seg, 0, sizeof seg);
	for (int i = 0; i < s->tail.n; i++) {
		seg[i].length = s->tail.len[i];
		seg[i].rest_angle = s->tail.rest[i];
	}
	spring_chain2d_desc d = {.segment_count = s->tail.n,
	                         .segments = seg,
	                         .params = s->tail.p0,
	                         .tip_params = s->tail.p1,
	                         .root = root,
	                         .no_inertia = true};
	return spring_chain2d_init(&d, memory, sizeof memory_pool[0], &s->tail_chain, NULL);
}

static spring_result make_hair_chain(scene *s, spring_xform2 root, spring_chain_projection projection, void *memory,
                                     spring_chain **out)
{
	spring_chain_bone_desc bones[MAXS];
	memset(bones, 0, sizeof bones);
	for (int i = 0; i < s->hair.n; i++) {
		bones[i].rest_local = xf3(i == 0 ? 0.0f : s->hair.len[i - 1], 0.0f, s->hair.rest[i]);
		bones[i].tip = spring_vec3_make(s->hair.len[i], 0.0f, 0.0f);
	}
	spring_chain_desc d = {.bone_count = s->hair.n,
	                       .bones = bones,
	                       .params = s->hair.p0,
	                       .tip_params = s->hair.p1,
	                       .gravity = spring_vec3_make(s->hair.gravity.x, s->hair.gravity.y, 0.0f),
	                       .mode_2d = true,
	                       .projection = projection,
	                       .root = xf3(root.position.x, root.position.y, root.angle)};
	return spring_chain_init(&d, memory, sizeof memory_pool[0], out, NULL);
}

static spring_result make_ribbon(scene *s, spring_xform2 root, void *memory)
{
	spring_chain2d_segment seg[RIBBON];
	memset(seg, 0, sizeof seg);
	for (int i = 0; i < RIBBON; i++) {
		seg[i].length = ribbon_len;
		seg[i].rest_angle = i == 0 ? 0.0f : 0.15f;
	}
	spring_chain2d_desc d = {.segment_count = RIBBON, .segments = seg, .root = root, .gravity = {0.0f, -150.0f}};
	return spring_params_from_frequency(2.2f, 0.25f, &d.params) != SPRING_OK
	           ? SPRING_ERROR_INVALID_ARGUMENT
	           : spring_chain2d_init(&d, memory, sizeof memory_pool[0], &s->ribbon, NULL);
}

static void arm_pose(const scene *s, spring_xform2 shoulder, spring_vec2 target, spring_xform2 *hand_before, float angles[2])
{
	float a1 = shoulder.angle + s->setup[0], a2 = a1 + s->setup[1];
	spring_vec2 elbow = spring_vec2_add(shoulder.position, spring_vec2_scale(dir2(a1), s->arm_len[0]));
	*hand_before = xf2(elbow.x + s->arm_len[1] * cosf(a2), elbow.y + s->arm_len[1] * sinf(a2), a2);
	spring_rig_ik_two_bone(shoulder.position, s->arm_len[0], s->arm_len[1], target, false, a1, &angles[0], &angles[1]);
}

static spring_xform2 hand_of(const scene *s, spring_vec2 shoulder, const float angles[2])
{
	spring_vec2 elbow = spring_vec2_add(shoulder, spring_vec2_scale(dir2(angles[0]), s->arm_len[0]));
	spring_vec2 hand = spring_vec2_add(elbow, spring_vec2_scale(dir2(angles[1]), s->arm_len[1]));
	return xf2(hand.x, hand.y, angles[1]);
}

// The character's bones the scene hangs on, and its chains the scene's replace.
static spring_rig *rig;
static struct {
	int hip, tail1, head, hair1, chest, upper_arm, forearm;
	int tail_chain, hair_chain;
	float root_x, speed;
	int clip;
	spring_state flip; // the root's turn (radians, not folded: a flip is a whole turn)
	float flip_target;
} cast;

// Segment lengths and rest angles of the bones from `first` on (`n` of them) in the rig's setup pose.
static spring_result read_bones(int first, int n, float *len, float *rest)
{
	spring_xform2 setup[SPRING_RIG_MAX_BONES];
	spring_result r = spring_rig_sample_clip(rig, -1, 0.0f, setup, SPRING_RIG_MAX_BONES);
	for (int i = 0; r == SPRING_OK && i < n; i++) {
		len[i] = spring_rig_bone_length(rig, first + i);
		rest[i] = setup[first + i].angle;
	}
	return r;
}

// The scene's springs from lab_in (the character file's numbers): tail root and tip frequency
// (Hz) and damping ratio; hair root and tip duration (s) and bounce; hair gravity x, y. Lengths,
// rest angles and the arm come from the rig.
static spring_result read_config(scene *s, const float *in)
{
	spring_result r = spring_params_from_frequency(in[0], in[1], &s->tail.p0);
	if (r == SPRING_OK) {
		r = spring_params_from_frequency(in[2], in[3], &s->tail.p1);
	}
	if (r == SPRING_OK) {
		r = spring_params_from_duration_bounce(in[4], in[5], &s->hair.p0);
	}
	if (r == SPRING_OK) {
		r = spring_params_from_duration_bounce(in[6], in[7], &s->hair.p1);
	}
	s->hair.gravity = spring_vec2_make(in[8], in[9]);
	s->tail.n = spring_rig_chain_bones(rig, cast.tail_chain, NULL, 0);
	s->hair.n = spring_rig_chain_bones(rig, cast.hair_chain, NULL, 0);
	if (r == SPRING_OK && (s->tail.n < 1 || s->tail.n > MAXS || s->hair.n < 1 || s->hair.n > MAXS)) {
		r = SPRING_ERROR_OUT_OF_RANGE;
	}
	if (r == SPRING_OK) {
		r = read_bones(cast.tail1, s->tail.n, s->tail.len, s->tail.rest);
	}
	if (r == SPRING_OK) {
		r = read_bones(cast.hair1, s->hair.n, s->hair.len, s->hair.rest);
	}
	if (r == SPRING_OK) {
		r = read_bones(cast.upper_arm, 2, s->arm_len, s->setup);
	}
	for (int i = 0; i < s->tail.n; i++) {
		s->tail.p[i] = resolve_gradient(s->tail.p0, s->tail.p1, i, s->tail.n);
	}
	for (int i = 0; i < s->hair.n; i++) {
		s->hair.p[i] = resolve_gradient(s->hair.p0, s->hair.p1, i, s->hair.n);
	}
	return r;
}

// Builds a scene at rest under the given roots (copies `config` from another scene when given).
static spring_result scene_init(scene *s, const scene *config, int pool, spring_xform2 tail_root, spring_xform2 hair_root,
                                spring_xform2 shoulder, spring_vec2 ik_target)
{
	if (config) {
		s->tail = config->tail;
		s->hair = config->hair;
		memcpy(s->arm_len, config->arm_len, sizeof s->arm_len);
		memcpy(s->setup, config->setup, sizeof s->setup);
	}
	s->flags = 0;
	s->tail_root = tail_root;
	s->hair_root = hair_root;
	s->shoulder = shoulder;
	s->ik_target = ik_target;
	float angles[2];
	arm_pose(s, shoulder, ik_target, &s->hand_before_ik, angles);
	s->hand = hand_of(s, shoulder.position, angles);
	spring_result r = make_tail_chain(s, tail_root, memory_pool[pool]);
	if (r == SPRING_OK) {
		r = make_hair_chain(s, hair_root, SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY, memory_pool[pool + 1], &s->hair_chain);
	}
	if (r == SPRING_OK) {
		r = make_hair_chain(s, hair_root, SPRING_CHAIN_PROJECTION_KEEP_VELOCITY, memory_pool[pool + 2], &s->hair_keep);
	}
	if (r == SPRING_OK) {
		r = make_ribbon(s, s->hand, memory_pool[pool + 3]);
	}
	if (r != SPRING_OK) {
		return r;
	}
	memset(&s->tail_sim, 0, sizeof s->tail_sim);
	spring_clock_init(&s->tail_sim.clock, 0.0f, 0);
	s->tail_sim.root = s->tail_sim.root_prev = tail_root;
	float angle = tail_root.angle;
	for (int i = 0; i < s->tail.n; i++) {
		angle += s->tail.rest[i];
		s->tail_sim.a[i] = s->tail_sim.prev[i] = s->tail_sim.frame_start[i] = angle;
	}
	memset(&s->hair_sim, 0, sizeof s->hair_sim);
	spring_clock_init(&s->hair_sim.clock, 0.0f, 0);
	tip_sim_rest(&s->hair_sim, &s->hair, hair_root);
	return spring_frame_clock_init(&s->jitter, 0.0, 1e6, 0);
}

// The trap loops take over from the library's state when a switch turns them on.
static void scene_set_flags(scene *s, int flags)
{
	int was = s->flags;
	s->flags = flags;
	s->tail_sim.flags = flags;
	if ((flags & TRAP_ANGLE_SIM) && !(was & TRAP_ANGLE_SIM)) {
		for (int i = 0; i < s->tail.n; i++) {
			spring_state st;
			spring_chain2d_get_state(s->tail_chain, i, &st);
			s->tail_sim.a[i] = s->tail_sim.prev[i] = s->tail_sim.frame_start[i] = st.x;
			s->tail_sim.w[i] = st.v;
		}
		s->tail_sim.root = s->tail_sim.root_prev = s->tail_root;
		spring_clock_init(&s->tail_sim.clock, 0.0f, 0);
	}
	if ((flags & TRAP_NO_PROJECTION) && !(was & TRAP_NO_PROJECTION)) {
		spring_vec3 tips[MAXS];
		spring_chain_get_stepped_pose(s->hair_chain, NULL, tips, s->hair.n);
		for (int i = 0; i < s->hair.n; i++) {
			spring_state_vec3 st;
			spring_chain_get_state(s->hair_chain, i, &st);
			s->hair_sim.tip[i].x = s->hair_sim.prev[i] = spring_vec2_make(tips[i].x, tips[i].y);
			s->hair_sim.tip[i].v = spring_vec2_make(st.v.x, st.v.y);
		}
		s->hair_sim.root = s->hair_sim.root_prev = s->hair_root;
		spring_clock_init(&s->hair_sim.clock, 0.0f, 0);
	}
	// TRAP_KEEP_VELOCITY: the library chain with that projection has run beside the other all
	// along; the switch only chooses which one is drawn.
	if ((flags ^ was) & TRAP_SPRINGS_BEFORE_IK) {
		spring_chain2d_teleport(s->ribbon, (flags & TRAP_SPRINGS_BEFORE_IK) ? s->hand_before_ik : s->hand);
	}
}

static void scene_update(scene *s, spring_xform2 tail_root, spring_xform2 hair_root, spring_xform2 shoulder,
                         spring_vec2 ik_target, float dt)
{
	s->tail_root = tail_root;
	s->hair_root = hair_root;
	s->shoulder = shoulder;
	s->ik_target = ik_target;
	spring_chain2d_update(s->tail_chain, tail_root, dt);
	angle_sim_update(&s->tail_sim, &s->tail, tail_root, dt);
	spring_xform3 h3 = xf3(hair_root.position.x, hair_root.position.y, hair_root.angle);
	spring_chain_update(s->hair_chain, h3, dt);
	spring_chain_update(s->hair_keep, h3, dt);
	tip_sim_update(&s->hair_sim, &s->hair, hair_root, dt);
	// The arm: IK first, then the ribbon on the final hand. With the trap, the ribbon is run on
	// the hand of the pose before IK (which IK then moves away from under it).
	float angles[2];
	arm_pose(s, shoulder, ik_target, &s->hand_before_ik, angles);
	s->hand = hand_of(s, shoulder.position, angles);
	spring_chain2d_update(s->ribbon, (s->flags & TRAP_SPRINGS_BEFORE_IK) ? s->hand_before_ik : s->hand, dt);
}

// A teleport of everything by (dx, dy): the library's teleport calls, or (the trap) nothing:
// the next update sees the jump as motion.
static void scene_teleport(scene *s, float dx, float dy)
{
	if (s->flags & TRAP_TELEPORT_NO_RESET) {
		return;
	}
	spring_vec2 d = spring_vec2_make(dx, dy);
	spring_vec3 d3 = spring_vec3_make(dx, dy, 0.0f);
	spring_chain2d_translate(s->tail_chain, d);
	spring_chain_translate(s->hair_chain, d3);
	spring_chain_translate(s->hair_keep, d3);
	spring_chain2d_translate(s->ribbon, d);
	s->tail_sim.root.position = spring_vec2_add(s->tail_sim.root.position, d);
	s->tail_sim.root_prev = s->tail_sim.root;
	for (int i = 0; i < s->hair.n; i++) {
		s->hair_sim.tip[i].x = spring_vec2_add(s->hair_sim.tip[i].x, d);
		s->hair_sim.prev[i] = spring_vec2_add(s->hair_sim.prev[i], d);
	}
	s->hair_sim.root.position = spring_vec2_add(s->hair_sim.root.position, d);
	s->hair_sim.root_prev = s->hair_sim.root;
}

// Writes the drawn points: tail joints (n + 1), hair joints (n + 1), arm (shoulder, elbow,
// hand), ribbon joints (RIBBON + 1); returns the number of floats.
static int scene_pose(const scene *s, float *o)
{
	int k = 0;
	spring_xform2 j[MAXS + 1];
	if (s->flags & TRAP_ANGLE_SIM) {
		spring_vec2 p = s->tail_root.position;
		o[k++] = p.x;
		o[k++] = p.y;
		for (int i = 0; i < s->tail.n; i++) {
			p = spring_vec2_add(p, spring_vec2_scale(dir2(angle_sim_pose(&s->tail_sim, i)), s->tail.len[i]));
			o[k++] = p.x;
			o[k++] = p.y;
		}
	} else {
		spring_chain2d_get_pose(s->tail_chain, j, NULL, MAXS + 1);
		for (int i = 0; i <= s->tail.n; i++) {
			o[k++] = j[i].position.x;
			o[k++] = j[i].position.y;
		}
	}
	if (s->flags & TRAP_NO_PROJECTION) {
		float t = s->hair_sim.clock.alpha;
		spring_vec2 root = spring_vec2_lerp(s->hair_sim.root_prev.position, s->hair_sim.root.position, t);
		o[k++] = root.x;
		o[k++] = root.y;
		for (int i = 0; i < s->hair.n; i++) {
			spring_vec2 p = spring_vec2_lerp(s->hair_sim.prev[i], s->hair_sim.tip[i].x, t);
			o[k++] = p.x;
			o[k++] = p.y;
		}
	} else {
		spring_vec3 tips[MAXS];
		spring_xform3 bones[MAXS];
		spring_chain_get_pose((s->flags & TRAP_KEEP_VELOCITY) ? s->hair_keep : s->hair_chain, bones, tips, s->hair.n);
		o[k++] = bones[0].position.x; // the interpolated root, where the drawn hair starts
		o[k++] = bones[0].position.y;
		for (int i = 0; i < s->hair.n; i++) {
			o[k++] = tips[i].x;
			o[k++] = tips[i].y;
		}
	}
	float angles[2];
	spring_xform2 before;
	arm_pose(s, s->shoulder, s->ik_target, &before, angles);
	spring_vec2 elbow = spring_vec2_add(s->shoulder.position, spring_vec2_scale(dir2(angles[0]), s->arm_len[0]));
	o[k++] = s->shoulder.position.x;
	o[k++] = s->shoulder.position.y;
	o[k++] = elbow.x;
	o[k++] = elbow.y;
	o[k++] = s->hand.position.x;
	o[k++] = s->hand.position.y;
	spring_chain2d_get_pose(s->ribbon, j, NULL, RIBBON + 1);
	for (int i = 0; i <= RIBBON; i++) {
		o[k++] = j[i].position.x;
		o[k++] = j[i].position.y;
	}
	return k;
}

// ---------------------------------------------------------------------------------------------
// Measurements: each trap's property in a scripted scene, with the current switches.

static float tail_energy(const scene *s)
{
	double e = 0.0;
	for (int i = 0; i < s->tail.n; i++) {
		float wn2 = s->tail.p[i].stiffness / s->tail.p[i].mass;
		float x, v, target;
		if (s->flags & TRAP_ANGLE_SIM) {
			x = s->tail_sim.a[i];
			v = s->tail_sim.w[i];
			float parent = i == 0 ? spring_angle_wrap(s->tail_sim.root.angle) : s->tail_sim.a[i - 1];
			target = parent + s->tail.rest[i];
		} else {
			spring_state st;
			spring_chain2d_get_state(s->tail_chain, i, &st);
			x = st.x;
			v = st.v;
			target = spring_chain2d_get_target(s->tail_chain, i);
		}
		float d = spring_angle_delta(target, x);
		e += 0.5 * ((double)v * v + (double)wn2 * d * d);
	}
	return (float)e;
}

static spring_vec2 tail_tip(const scene *s)
{
	float o[4 * (MAXS + 1) + 32];
	scene_pose(s, o);
	return spring_vec2_make(o[2 * s->tail.n], o[2 * s->tail.n + 1]);
}

static float tail_tip_angle(const scene *s)
{
	if (s->flags & TRAP_ANGLE_SIM) {
		return s->tail_sim.a[s->tail.n - 1];
	}
	spring_state st;
	spring_chain2d_get_state(s->tail_chain, s->tail.n - 1, &st);
	return st.x;
}

static scene probe;

static spring_result probe_start(int flags, spring_xform2 tail_root, spring_xform2 hair_root)
{
	spring_result r = scene_init(&probe, &live, 0, tail_root, hair_root, live.shoulder, live.ik_target);
	if (r == SPRING_OK) {
		scene_set_flags(&probe, flags);
	}
	return r;
}

static void probe_run(float fps, double seconds, spring_xform2 (*tail_root)(double), spring_xform2 (*hair_root)(double))
{
	spring_frame_clock fc;
	spring_frame_clock_init(&fc, fps, seconds, 0);
	while (fc.checkpoints < 1) {
		float dt = spring_frame_clock_next(&fc);
		scene_update(&probe, tail_root(fc.time), hair_root(fc.time), probe.shoulder, probe.ik_target, dt);
	}
}

static spring_xform2 still(double t)
{
	(void)t;
	return xf2(0.0f, 0.0f, 0.0f);
}
static spring_xform2 swing(double t)
{
	// swung up by 0.8 rad over 0.25 s, then held
	double u = t / 0.25 > 1.0 ? 1.0 : t / 0.25;
	return xf2(0.0f, 0.0f, (float)(0.8 * u * u * (3.0 - 2.0 * u)));
}
static spring_xform2 wave(double t)
{
	return xf2(0.0f, 0.0f, (float)(0.6 * sin(2.0 * 3.14159265358979 * 0.8 * t)));
}
static spring_xform2 spin(double t)
{
	return xf2(0.0f, 0.0f, spring_angle_wrap((float)(2.5 * t)));
}
static spring_xform2 shake(double t)
{
	return xf2((float)(25.0 * sin(2.0 * 3.14159265358979 * 1.5 * t)), 0.0f, 0.0f);
}
static spring_xform2 shake_then_still(double t)
{
	return t < 1.0 ? shake(t) : xf2(0.0f, 0.0f, 0.0f);
}

enum {
	M_ENERGY,     ///< tail energy 1 s after a swing, relative to the library's
	M_SPREAD,     ///< tail tip spread across 24, 30, 60, 144, 240 fps and jittery frames, % of its length
	M_LAG,        ///< tail tip behind the library's in a steady spin, degrees
	M_FOLD,       ///< largest angle between a tail segment and its target in a spin, degrees
	M_STRETCH,    ///< largest hair bone stretch while shaken, % of its length
	M_REST_SPEED, ///< hair tip speed 3 s after the shaking stops, units/s
	M_IK_GAP,     ///< largest gap between the hand and the ribbon's root, units
	M_TELEPORT,   ///< largest hair tip swing after a 300-unit teleport, units
	M_COUNT
};

static bool library_measured;

static float energy_after_swing(int flags)
{
	if (probe_start(flags, still(0.0), still(0.0)) != SPRING_OK) {
		return -1.0f;
	}
	probe_run(60.0f, 1.25, swing, still);
	return tail_energy(&probe);
}

static float spin_tip(int flags, float *max_error)
{
	*max_error = 0.0f;
	if (probe_start(flags, still(0.0), still(0.0)) != SPRING_OK) {
		return 0.0f;
	}
	spring_frame_clock fc;
	spring_frame_clock_init(&fc, 60.0, 3.0, 0);
	while (fc.checkpoints < 1) {
		float dt = spring_frame_clock_next(&fc);
		scene_update(&probe, spin(fc.time), still(0.0), probe.shoulder, probe.ik_target, dt);
		for (int i = 0; i < probe.tail.n; i++) {
			float err;
			if (probe.flags & TRAP_ANGLE_SIM) {
				float parent = i == 0 ? spring_angle_wrap(probe.tail_sim.root.angle) : probe.tail_sim.a[i - 1];
				float target = parent + probe.tail.rest[i];
				err = (probe.flags & TRAP_NO_FOLDING) ? probe.tail_sim.a[i] - target
				                                      : spring_angle_delta(target, probe.tail_sim.a[i]);
			} else {
				spring_state st;
				spring_chain2d_get_state(probe.tail_chain, i, &st);
				err = spring_angle_delta(spring_chain2d_get_target(probe.tail_chain, i), st.x);
			}
			*max_error = fmaxf(*max_error, fabsf(err) * 57.29578f);
		}
	}
	return tail_tip_angle(&probe);
}

/// Measures every trap's property with the switches `flags` (and, for comparison, the library's
/// values with none) into lab_out[0 .. M_COUNT) and lab_out[M_COUNT .. 2 M_COUNT).
LAB_EXPORT(lab_measure) int lab_measure(int flags)
{
	// the library's figures (no switch on) are measured once per loaded character
	static float m[2][M_COUNT];
	for (int pass = 0; pass < 2; pass++) {
		int f = pass == 0 ? flags : 0;
		if (pass == 1 && library_measured) {
			break;
		}
		float *o = m[pass];
		o[M_ENERGY] = energy_after_swing(f);
		// spread across frame rates: the tip at the same moment (1 s) of the same wave
		static const float rates[] = {24.0f, 30.0f, 60.0f, 144.0f, 240.0f, 0.0f};
		spring_vec2 tips[6];
		float length = 0.0f;
		for (int i = 0; i < 6; i++) {
			probe_start(f, wave(0.0), still(0.0));
			probe_run(rates[i], 1.0, wave, still);
			tips[i] = tail_tip(&probe);
		}
		for (int i = 0; i < live.tail.n; i++) {
			length += live.tail.len[i];
		}
		float spread = 0.0f;
		for (int i = 0; i < 6; i++) {
			for (int k = i + 1; k < 6; k++) {
				spread = fmaxf(spread, spring_vec2_length(spring_vec2_sub(tips[i], tips[k])));
			}
		}
		o[M_SPREAD] = 100.0f * spread / length;
		float fold = 0.0f;
		o[M_LAG] = spin_tip(f, &fold);
		o[M_FOLD] = fold;
		// hair: stretch while shaken, then its speed 3 s after the shaking stopped
		probe_start(f, still(0.0), still(0.0));
		float stretch = 0.0f;
		spring_frame_clock fc;
		spring_frame_clock_init(&fc, 60.0, 4.0, 0);
		while (fc.checkpoints < 1) {
			float dt = spring_frame_clock_next(&fc);
			scene_update(&probe, still(0.0), shake_then_still(fc.time), probe.shoulder, probe.ik_target, dt);
			float pts[4 * (MAXS + 1) + 32];
			scene_pose(&probe, pts);
			const float *hair = pts + 2 * (probe.tail.n + 1);
			for (int i = 0; i < probe.hair.n; i++) {
				float l = spring_vec2_length(spring_vec2_make(hair[2 * i + 2] - hair[2 * i], hair[2 * i + 3] - hair[2 * i + 1]));
				stretch = fmaxf(stretch, fabsf(l - probe.hair.len[i]) / probe.hair.len[i]);
			}
		}
		o[M_STRETCH] = 100.0f * stretch;
		float speed = 0.0f;
		for (int i = 0; i < probe.hair.n; i++) {
			spring_state_vec3 st;
			if (probe.flags & TRAP_NO_PROJECTION) {
				st.v = spring_vec3_make(probe.hair_sim.tip[i].v.x, probe.hair_sim.tip[i].v.y, 0.0f);
			} else {
				spring_chain_get_state((probe.flags & TRAP_KEEP_VELOCITY) ? probe.hair_keep : probe.hair_chain, i, &st);
			}
			speed = fmaxf(speed, spring_vec3_length(st.v));
		}
		o[M_REST_SPEED] = speed;
		// the arm reaching round a circle: the ribbon's root against the hand
		probe_start(f, still(0.0), still(0.0));
		float gap = 0.0f;
		spring_frame_clock_init(&fc, 60.0, 2.0, 0);
		while (fc.checkpoints < 1) {
			float dt = spring_frame_clock_next(&fc);
			float a = (float)(2.0 * 3.14159265358979 * 0.7 * fc.time);
			spring_vec2 target = spring_vec2_add(live.shoulder.position,
			                                     spring_vec2_make(30.0f * cosf(a) - 20.0f, 30.0f * sinf(a)));
			scene_update(&probe, still(0.0), still(0.0), live.shoulder, target, dt);
			spring_xform2 j[RIBBON + 1];
			spring_chain2d_get_pose(probe.ribbon, j, NULL, RIBBON + 1);
			if (fc.time > 0.25) { // after the first reach
				gap = fmaxf(gap, spring_vec2_length(spring_vec2_sub(j[0].position, probe.hand.position)));
			}
		}
		o[M_IK_GAP] = gap;
		// teleport: 300 units to the right at 0.5 s; the hair tip's largest distance from where
		// it was relative to the root just before, over the next second
		probe_start(f, still(0.0), still(0.0));
		spring_vec2 rest_tip = spring_vec2_make(0.0f, 0.0f); // relative to the root, just before the jump
		spring_frame_clock_init(&fc, 60.0, 1.5, 0);
		float whip = 0.0f;
		bool jumped = false;
		while (fc.checkpoints < 1) {
			float dt = spring_frame_clock_next(&fc);
			float x = 0.0f;
			if (fc.time > 0.5) {
				x = 300.0f;
				if (!jumped) {
					scene_teleport(&probe, 300.0f, 0.0f);
					jumped = true;
				}
			}
			scene_update(&probe, still(0.0), xf2(x, 0.0f, 0.0f), probe.shoulder, probe.ik_target, dt);
			float pts[4 * (MAXS + 1) + 32];
			scene_pose(&probe, pts);
			const float *hair = pts + 2 * (probe.tail.n + 1);
			// the tip relative to the drawn root (the pose is interpolated between steps)
			spring_vec2 tipv = spring_vec2_make(hair[2 * probe.hair.n] - hair[0], hair[2 * probe.hair.n + 1] - hair[1]);
			if (!jumped) {
				rest_tip = tipv;
			} else {
				whip = fmaxf(whip, spring_vec2_length(spring_vec2_sub(tipv, rest_tip)));
			}
		}
		o[M_TELEPORT] = whip;
	}
	// energy and lag relative to the library's own
	float out[2][M_COUNT];
	memcpy(out, m, sizeof out);
	for (int pass = 0; pass < 2; pass++) {
		out[pass][M_ENERGY] = m[1][M_ENERGY] > 0.0f ? m[pass][M_ENERGY] / m[1][M_ENERGY] : 1.0f;
		out[pass][M_LAG] = fabsf(spring_angle_delta(m[1][M_LAG], m[pass][M_LAG])) * 57.29578f;
	}
	library_measured = true;
	memcpy(lab_out_buf, out, sizeof out);
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// The sample character (examples/rigs/character.json, read by the rig-file reader, spring/io.h): clips, IK and
// its chains, its root following the pointer, carrying the scene.

static char rig_text[65536];

/// Where the page writes a rig file's text (at most 65536 bytes) for lab_character_load.
LAB_EXPORT(lab_text) char *lab_text(void)
{
	return rig_text;
}

static spring_xform2 base_pose[SPRING_RIG_MAX_BONES], world_pose[SPRING_RIG_MAX_BONES];

// The scene's roots on the base pose (clips and IK, before the springs).
static void character_roots(spring_xform2 *tail, spring_xform2 *hair, spring_xform2 *shoulder)
{
	*tail = xf2(base_pose[cast.tail1].position.x, base_pose[cast.tail1].position.y, base_pose[cast.hip].angle);
	*hair = xf2(base_pose[cast.hair1].position.x, base_pose[cast.hair1].position.y, base_pose[cast.head].angle);
	*shoulder = xf2(base_pose[cast.upper_arm].position.x, base_pose[cast.upper_arm].position.y, base_pose[cast.chest].angle);
}

// The root: at root_x on the ground, turned by the flip about the hip (92 units up).
static spring_xform2 character_root(void)
{
	spring_vec2 pivot = spring_vec2_make(cast.root_x, 92.0f);
	spring_vec2 feet = spring_vec2_add(pivot, spring_vec2_rotate(spring_vec2_make(0.0f, -92.0f), cast.flip.x));
	return xf2(feet.x, feet.y, spring_angle_wrap(cast.flip.x));
}

static int find_chain(const char *name)
{
	for (int i = 0; i < spring_rig_chain_count(rig); i++) {
		if (strcmp(spring_rig_chain_name(rig, i), name) == 0) {
			return i;
		}
	}
	return -1;
}

/// Loads the rig file of `length` bytes in lab_text() and builds the scene on it, the springs of
/// its tail and front hair from lab_in (see read_config). On error returns the negated result and
/// leaves the reader's message in lab_text().
LAB_EXPORT(lab_character_load) int lab_character_load(int length)
{
	if (length < 0 || length >= (int)sizeof rig_text) {
		return -(int)SPRING_ERROR_OUT_OF_RANGE;
	}
	static spring_file_error err;
	spring_rig_destroy(rig);
	rig = NULL;
	spring_result r = spring_rig_load_json(rig_text, (size_t)length, "character.json", &rig, &err);
	if (r != SPRING_OK) {
		snprintf(rig_text, sizeof rig_text, "%s", err.message);
		return -(int)r;
	}
	cast.hip = spring_rig_find_bone(rig, "hip");
	cast.tail1 = spring_rig_find_bone(rig, "tail1");
	cast.head = spring_rig_find_bone(rig, "head");
	cast.hair1 = spring_rig_find_bone(rig, "hair_front1");
	cast.chest = spring_rig_find_bone(rig, "chest");
	cast.upper_arm = spring_rig_find_bone(rig, "upper_arm");
	cast.forearm = spring_rig_find_bone(rig, "forearm");
	cast.tail_chain = find_chain("tail");
	cast.hair_chain = find_chain("hair_front");
	if (cast.hip < 0 || cast.tail1 < 0 || cast.head < 0 || cast.hair1 < 0 || cast.chest < 0 || cast.upper_arm < 0 ||
	    cast.forearm < 0 || cast.tail_chain < 0 || cast.hair_chain < 0) {
		snprintf(rig_text, sizeof rig_text, "character.json: not the sample character (a bone or chain is missing)");
		return -(int)SPRING_ERROR_INVALID_ARGUMENT;
	}
	// the scene's tail and hair are drawn instead of the rig's own
	spring_rig_set_chain_mix(rig, cast.tail_chain, 0.0f);
	spring_rig_set_chain_mix(rig, cast.hair_chain, 0.0f);
	library_measured = false;
	cast.root_x = 0.0f;
	cast.flip.x = cast.flip.v = cast.flip_target = 0.0f;
	cast.clip = spring_rig_find_clip(rig, "idle");
	spring_rig_play(rig, cast.clip, 0.0f);
	spring_rig_update(rig, 0.0f);
	r = read_config(&live, lab_in_buf);
	if (r == SPRING_OK) {
		r = spring_rig_get_base_world(rig, base_pose, SPRING_RIG_MAX_BONES);
	}
	if (r != SPRING_OK) {
		return -(int)r;
	}
	spring_xform2 tail, hair, shoulder;
	character_roots(&tail, &hair, &shoulder);
	spring_vec2 reach = spring_vec2_add(shoulder.position, spring_vec2_make(-30.0f, -20.0f));
	return -(int)scene_init(&live, NULL, 4, tail, hair, shoulder, reach);
}

/// The trap switches (TRAP_* bits) of the live scene.
LAB_EXPORT(lab_scene_set_traps) void lab_scene_set_traps(int flags)
{
	scene_set_flags(&live, flags);
}

/// One frame of `frame_dt` seconds: the root follows the pointer's x (half-life 0.25 s; idle,
/// walk or run by its speed), the arm reaches for the pointer (x, y). lab_out: the bone count,
/// then per bone x, y, angle, length, scale x (world, interpolated), then the scene's points
/// (scene_pose). Returns the floats written, or a negated error.
LAB_EXPORT(lab_character_frame) int lab_character_frame(float pointer_x, float pointer_y, float frame_dt)
{
	if (!rig || !spring_is_finite(frame_dt) || frame_dt < 0.0f || !spring_is_finite(pointer_x) || !spring_is_finite(pointer_y)) {
		return -(int)SPRING_ERROR_INVALID_ARGUMENT;
	}
	float x = spring_follow(cast.root_x, pointer_x, 0.25f, frame_dt);
	if (frame_dt > 0.0f) {
		cast.speed = fabsf(x - cast.root_x) / frame_dt;
	}
	cast.root_x = x;
	int clip = spring_rig_find_clip(rig, cast.speed < 25.0f ? "idle" : cast.speed < 160.0f ? "walk" : "run");
	if (clip != cast.clip) {
		cast.clip = clip;
		spring_rig_play(rig, clip, 0.0f);
	}
	// a flip turns the whole character about its hip (92 units up) by a critically damped spring
	spring_params flip;
	spring_result r = spring_params_from_duration_bounce(0.9f, 0.0f, &flip);
	if (r == SPRING_OK) {
		r = spring_step_exact(flip, &cast.flip, cast.flip_target, frame_dt);
	}
	if (r == SPRING_OK) {
		r = spring_rig_set_root(rig, character_root());
	}
	if (r == SPRING_OK) {
		r = spring_rig_update(rig, frame_dt);
	}
	if (r == SPRING_OK) {
		r = spring_rig_get_base_world(rig, base_pose, SPRING_RIG_MAX_BONES);
	}
	if (r == SPRING_OK) {
		r = spring_rig_get_world(rig, world_pose, SPRING_RIG_MAX_BONES);
	}
	if (r != SPRING_OK) {
		return -(int)r;
	}
	spring_xform2 tail, hair, shoulder;
	character_roots(&tail, &hair, &shoulder);
	scene_update(&live, tail, hair, shoulder, spring_vec2_make(pointer_x, pointer_y), frame_dt);
	int n = spring_rig_bone_count(rig);
	float *o = lab_out_buf;
	int k = 0;
	o[k++] = (float)n;
	for (int i = 0; i < n; i++) {
		o[k++] = world_pose[i].position.x;
		o[k++] = world_pose[i].position.y;
		o[k++] = world_pose[i].angle;
		o[k++] = spring_rig_bone_length(rig, i);
		o[k++] = world_pose[i].scale.x;
	}
	return k + scene_pose(&live, o + k);
}

/// The bone's name (NUL-terminated, in wasm memory) and its chain membership: lab_out[0] = 1
/// when the scene draws the bone instead (the tail, the front hair, the front arm).
LAB_EXPORT(lab_character_bone) const char *lab_character_bone(int bone)
{
	int bones[SPRING_RIG_MAX_BONES];
	bool replaced = bone == cast.upper_arm || bone == cast.forearm;
	for (int c = 0; c < 2; c++) {
		int n = spring_rig_chain_bones(rig, c == 0 ? cast.tail_chain : cast.hair_chain, bones, SPRING_RIG_MAX_BONES);
		for (int i = 0; i < n; i++) {
			replaced = replaced || bones[i] == bone;
		}
	}
	lab_out_buf[0] = replaced ? 1.0f : 0.0f;
	return spring_rig_bone_name(rig, bone);
}

/// Starts a flip: the character turns once round its hip (its angles cross +-pi on the way).
LAB_EXPORT(lab_character_flip) void lab_character_flip(void)
{
	cast.flip_target += 2.0f * 3.14159265f;
}

/// Teleports the character by dx: spring_rig_teleport and the scene's teleports, or, with the
/// teleport trap, nothing but the new root: the next update sees the jump as motion.
LAB_EXPORT(lab_character_teleport) int lab_character_teleport(float dx)
{
	if (!rig || !spring_is_finite(dx)) {
		return -(int)SPRING_ERROR_INVALID_ARGUMENT;
	}
	cast.root_x += dx;
	if (!(live.flags & TRAP_TELEPORT_NO_RESET)) {
		spring_result r = spring_rig_teleport(rig, character_root());
		if (r != SPRING_OK) {
			return -(int)r;
		}
		scene_teleport(&live, dx, 0.0f);
	}
	return SPRING_OK;
}

/// The next frame time of the jittery frame clock (the library's spring_frame_clock), seconds.
LAB_EXPORT(lab_jitter_dt) float lab_jitter_dt(void)
{
	return spring_frame_clock_next(&live.jitter);
}

// =============================================================================================
// Undulation: the standard tail (tests/shared) as a 3D tip chain around a sphere.

static spring_chain *undulation;
static unsigned char undulation_memory[65536] __attribute__((aligned(16)));
static spring_chain_collider undulation_ball;

/// Builds the chain at rest under an identity root with a sphere (centre x, y, z, radius).
LAB_EXPORT(lab_undulation_init) int lab_undulation_init(float x, float y, float z, float radius)
{
	spring_chain_bone_desc bones[SCENE_TAIL_BONES];
	spring_chain_desc d = scene_tail_desc(bones, SCENE_TAIL_BONES);
	undulation_ball.type = SPRING_CHAIN_COLLIDER_SPHERE;
	undulation_ball.a = spring_vec3_make(x, y, z);
	undulation_ball.radius = radius;
	d.colliders = &undulation_ball;
	d.collider_count = 1;
	d.gravity = spring_vec3_make(0.0f, -60.0f, 0.0f);
	for (int i = 0; i < SCENE_TAIL_BONES; i++) {
		bones[i].tip_radius = 3.0f;
	}
	return (int)spring_chain_init(&d, undulation_memory, sizeof undulation_memory, &undulation, NULL);
}

/// One frame: root at (x, y, z) turned by `yaw` about +y and `roll` about +x (radians). lab_out:
/// the root then the 8 tips (x, y, z each), then the deepest a tip is inside the sphere (units,
/// 0 when none).
LAB_EXPORT(lab_undulation_update) int lab_undulation_update(float x, float y, float z, float yaw, float roll, float dt)
{
	spring_quat q = spring_quat_mul(spring_quat_from_axis_angle(spring_vec3_make(0.0f, 1.0f, 0.0f), yaw),
	                                spring_quat_from_axis_angle(spring_vec3_make(1.0f, 0.0f, 0.0f), roll));
	spring_xform3 root = {spring_vec3_make(x, y, z), q};
	spring_result r = spring_chain_update(undulation, root, dt);
	if (r != SPRING_OK) {
		return -(int)r;
	}
	spring_vec3 tips[SCENE_TAIL_BONES];
	spring_chain_get_pose(undulation, NULL, tips, SCENE_TAIL_BONES);
	float *o = lab_out_buf;
	o[0] = x;
	o[1] = y;
	o[2] = z;
	float depth = 0.0f;
	for (int i = 0; i < SCENE_TAIL_BONES; i++) {
		o[3 + 3 * i] = tips[i].x;
		o[4 + 3 * i] = tips[i].y;
		o[5 + 3 * i] = tips[i].z;
		float d = undulation_ball.radius - spring_vec3_length(spring_vec3_sub(tips[i], undulation_ball.a));
		depth = fmaxf(depth, d);
	}
	o[3 + 3 * SCENE_TAIL_BONES] = depth;
	return 4 + 3 * SCENE_TAIL_BONES;
}

// ---------------------------------------------------------------------------------------------
// The tuner's presets and its reduced-motion preview: the library's own tables and rule
// (spring_params_from_preset, spring_params_reduced_motion), read back as (k, c, m).

static void put_params(spring_params p)
{
	lab_out_buf[0] = p.stiffness;
	lab_out_buf[1] = p.damping;
	lab_out_buf[2] = p.mass;
}

// The name of preset `index` (NULL past the last); its spring in lab_out()[0..2].
LAB_EXPORT(lab_preset) const char *lab_preset(int index)
{
	const char *name = spring_preset_name(index);
	spring_params p;
	if (!name || spring_params_from_preset(name, &p) != SPRING_OK) {
		return NULL;
	}
	put_params(p);
	return name;
}

// The reduced-motion form of the spring (k, c, m) in lab_out()[0..2]; the library's result code.
LAB_EXPORT(lab_reduced_motion) int lab_reduced_motion(float stiffness, float damping, float mass)
{
	spring_params p = {stiffness, damping, mass}, q;
	spring_result r = spring_params_reduced_motion(p, &q);
	if (r == SPRING_OK) {
		put_params(q);
	}
	return (int)r;
}
