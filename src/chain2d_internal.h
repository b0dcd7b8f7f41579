// SPDX-License-Identifier: MIT
// The angle chain's step of one segment, shared by spring_chain2d (chain2d.c) and
// spring_chain2d_group (chain2d_group.c), which therefore give the same bits (not installed).
// The physics is described at the top of chain2d.c.
#ifndef SPRING_CHAIN2D_INTERNAL_H
#define SPRING_CHAIN2D_INTERNAL_H

#include "spring/chain.h"

#include "base_internal.h"
#include "chain_internal.h"
#include "detmath_internal.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/// The chain's header; its dense per-segment arrays follow it in the block (chain2d.c).
struct spring_chain2d {
	spring_clock clock;
	int segment_count;
	spring_integrator integrator;
	spring_params params;      // chain default (resolved: never zero)
	spring_params tip_params;  // as given; zero -> no gradient
	spring_vec2 gravity;       // units/s^2
	spring_vec2 wind;          // units/s^2
	spring_xform2 root;        // root of the last step (angle wrapped, scale 1)
	spring_xform2 prev_root;   // root of the step before
	spring_xform2 input_root;  // root given to the last update (the next frame interpolates from it)
	spring_vec2 root_velocity; // units/s, the pivot's velocity u at the last step (capped)
	// The pivot's path (see the header comment): the root's positions at the last knots (the ends
	// of frames at least a step after the knot before), each the one before plus the root's
	// displacement with its mean speed capped; the cubic through them; the path's last step.
	double knot[4][2];            // oldest first; knot[knot_count - 1] the newest
	double knot_gap[3];           // s, between knot[j] and knot[j + 1]
	int knot_count;               // 1..4
	double knot_elapsed;          // s from the newest knot to the end of the last frame (< step)
	double path_coef[4][2];       // Newton form about the newest knot (time 0) and the two before it
	double path_node[2];          // s, the times of the knots before the newest (negative)
	double pivot[2];              // the path's position at the last step
	double pivot_time;            // s, the last step's time relative to the newest knot
	spring_vec2 input_position;   // the root's (uncapped) position at the newest knot
	float max_root_speed;         // units/s; 0 no cap
	float max_root_angular_speed; // rad/s; 0 no cap
	float rest_angle;             // rad, resolved (> 0)
	float rest_angular_speed;     // rad/s, resolved (> 0)
	bool resting;                 // snapped onto the equilibrium; a step with the same inputs does nothing
	spring_internal_owner owner;  // set by create; zero for caller memory
};

// The gravity-shifted goal may be folded onto the circle only while the total error (shortest
// arc to the target plus the shift) stays this far inside a half turn; beyond it the segment
// steps on the unfolded error.
#define SPRING_CHAIN2D_FOLD_SAFE 3.0
// The field stiffness (1/s^2) taken explicitly is at most this over step^2 (omega h about 0.2).
#define SPRING_CHAIN2D_FIELD_STIFFNESS_MAX 0.05

/// The shortest arc from `from` to `to` for finite angles: spring_angle_delta without its
/// finiteness checks (the chains' angles are finite by construction).
static inline float spring_chain2d_delta(float from, float to)
{
	return spring_det_fold_float((double)to - (double)from);
}

/// spring_angle_lerp for finite arguments.
static inline float spring_chain2d_lerp(float from, float to, float t)
{
	return spring_det_fold_float((double)from + (double)spring_chain2d_delta(from, to) * (double)t);
}

/// sin and cos of a segment's world angle at the start of its last step (the angle its field was
/// taken at), kept so that the pose at alpha 0 (that very angle) needs no trigonometry. Always
/// s, c = spring_det_sincos_reduced(key), so a match of `key` (bit for bit) gives the same bits as
/// computing them. 24 bytes.
typedef struct spring_chain2d_trig {
	double s, c;
	float key; // radians; NaN: nothing kept
} spring_chain2d_trig;

/// sin and cos of `a`: from `kept` when it was computed for `a` bit for bit (kept may be NULL).
static inline void spring_chain2d_sincos(float a, const spring_chain2d_trig *kept, double *s, double *c)
{
	if (kept && memcmp(&kept->key, &a, sizeof a) == 0) {
		*s = kept->s;
		*c = kept->c;
	} else {
		spring_det_sincos_reduced((double)a, s, c);
	}
}

/// A drawn angle between two stepped ones: `prev` at alpha 0 and `angle` at 1 exactly (no
/// interpolation work there), otherwise along the shortest arc.
static inline float spring_chain2d_pose_angle(float prev, float angle, float alpha)
{
	return alpha == 0.0f ? prev : alpha == 1.0f ? angle : spring_chain2d_lerp(prev, angle, alpha);
}

/// Forward kinematics: the joint (*px, *py) moved along a segment of `length` at world angle `a`
/// (its sin and cos from `kept` when they were kept for `a`).
static inline void spring_chain2d_pose_advance(float length, float a, const spring_chain2d_trig *kept, double *px, double *py)
{
	double s, c;
	spring_chain2d_sincos(a, kept, &s, &c);
	*px += (double)length * c;
	*py += (double)length * s;
}

/// The pose between the last two steps at `alpha` (see spring_chain2d_get_pose): segment i's
/// angles at prev[i * stride] and angle[i * stride], its length at length[i]; the root between
/// prev_root and root; the kept sin and cos at trig[i * stride]. `joints` (n + 1) and
/// `local_angles` (n) are optional.
static inline void spring_chain2d_pose_walk(const float *prev, const float *angle, const spring_chain2d_trig *trig,
                                            ptrdiff_t stride, const float *length, int n, spring_xform2 prev_root,
                                            spring_xform2 root, float alpha, spring_xform2 *joints, float *local_angles)
{
	float root_angle = spring_chain2d_pose_angle(prev_root.angle, root.angle, alpha);
	spring_vec2 root_position = alpha == 0.0f   ? prev_root.position
	                            : alpha == 1.0f ? root.position
	                                            : spring_vec2_lerp(prev_root.position, root.position, alpha);
	double px = (double)root_position.x, py = (double)root_position.y;
	float parent = root_angle;
	for (int i = 0; i < n; i++) {
		float a = spring_chain2d_pose_angle(prev[i * stride], angle[i * stride], alpha);
		if (joints) {
			spring_xform2 j = {{(float)px, (float)py}, a, {1.0f, 1.0f}};
			joints[i] = j;
			spring_chain2d_pose_advance(length[i], a, &trig[i * stride], &px, &py);
		}
		if (local_angles) {
			local_angles[i] = spring_chain2d_delta(parent, a);
		}
		parent = a;
	}
	if (joints) {
		spring_xform2 tip = {{(float)px, (float)py}, parent, {1.0f, 1.0f}};
		joints[n] = tip;
	}
}

/// The angular acceleration (rad/s^2) a uniform field (fx, fy) (units/s^2) gives a segment of
/// `length` at world angle `angle` (in (-pi, pi]): (d x f) / L'. `*stiffness` receives minus its
/// derivative, (d . f) / L' (1/s^2): positive when the field holds the segment. `*keep` receives
/// the angle's sin and cos (always written: no branch).
static inline double spring_chain2d_field_accel(double fx, double fy, double length, double angle, double *stiffness,
                                                spring_chain2d_trig *keep)
{
	double s, co;
	spring_det_sincos_reduced(angle, &s, &co);
	keep->s = s;
	keep->c = co;
	keep->key = (float)angle; // exact where it is kept: the chains' angles are floats
	*stiffness = 1.5 * (co * fx + s * fy) / length;
	return 1.5 * (co * fy - s * fx) / length;
}

/// Holds a stepped segment within `limit` (0: none) of its target t, removing the outward velocity.
static inline void spring_chain2d_apply_limit(float limit, float t, spring_state *st)
{
	if (limit > 0.0f) {
		float swing = spring_chain2d_delta(t, st->x);
		if (fabsf(swing) > limit) {
			st->x = spring_det_fold_float((double)t + (swing > 0.0f ? (double)limit : -(double)limit));
			if ((st->v > 0.0f) == (swing > 0.0f) && st->v != 0.0f) {
				st->v = 0.0f; // remove the outward velocity, keep the inward
			}
		}
	}
}

/// What every segment of a chain shares in one step.
typedef struct spring_chain2d_step_input {
	spring_integrator integrator;
	float step;      // s
	float max_speed; // rad/s: pi / step
	double fx, fy;   // gravity + wind, units/s^2
	double px, py;   // the root's (every pivot's) acceleration this step, units/s^2
	double held_max; // 1/s^2: FIELD_STIFFNESS_MAX / step^2, the field stiffness taken explicitly
} spring_chain2d_step_input;

/// One segment's settings for a step.
typedef struct spring_chain2d_segment_input {
	spring_params params;
	const spring_stepper *stepper;
	float length, rest, limit, inertia;
} spring_chain2d_segment_input;

/// The exact angle step of spring_stepper_step_angle for finite x and target, inline: on a
/// result out of float range the state is left as it was.
static inline void spring_chain2d_stepper_angle(const spring_stepper *st, spring_state *s, float target)
{
	float x = s->x, v0 = s->v;
	float e = -spring_chain2d_delta(x, target);
	float ne = st->pp * e + st->pv * v0;
	float nv = st->vp * e + st->vv * v0;
	float nx = x + (ne - e);
	if (spring_internal_finite(nx) && spring_internal_finite(nv)) {
		s->x = spring_det_fold_float((double)nx);
		s->v = nv;
	}
}

/// The rare paths of a segment's step, out of line (chain2d.c): the step on the unfolded error
/// (the shifted goal would fold onto the wrong side of the circle, or a stiff field is folded
/// into the aim) with `error` the shortest arc to the target plus the shift, and the
/// semi-implicit integrator towards `shifted`. On error (a result out of float range) *st is
/// undefined: the caller drops the whole update.
spring_result spring_chain2d_internal_step_unfolded(const spring_chain2d_step_input *in, const spring_chain2d_segment_input *seg,
                                                    double error, spring_state *st);
spring_result spring_chain2d_internal_step_semi_implicit(const spring_chain2d_segment_input *seg, float step, float shifted,
                                                         spring_state *st);

/// The field a segment feels in a step (forces (fx, fy) minus its pivot's acceleration (px, py)
/// times its inertia; see spring_chain2d_step_input),
/// as its angular acceleration `alpha` (rad/s^2; 0 without a field) and the stiffness `held`
/// (1/s^2) at `angle`, the segment's world angle at the step's start; `*trig` receives the sin and
/// cos of `angle`. It depends on the segment's own angle only, so a chain's (or a group's) fields
/// are computed in one pass before the walk down the chain: a loop without branches, which
/// compilers vectorise.
static inline void spring_chain2d_segment_field(double fx, double fy, double px, double py, float inertia, float length,
                                                float angle, double *alpha, double *held, spring_chain2d_trig *trig)
{
	// Every value computed, then selected (no branch).
	double ax0 = fx, ay0 = fy;
	double ax1 = ax0 - (double)inertia * px, ay1 = ay0 - (double)inertia * py;
	double ax = inertia > 0.0f ? ax1 : ax0, ay = inertia > 0.0f ? ay1 : ay0;
	double h;
	double a = spring_chain2d_field_accel(ax, ay, (double)length, (double)angle, &h, trig);
	bool on = ax != 0.0 || ay != 0.0;
	*alpha = on ? a : 0.0;
	*held = on ? h : 0.0;
}

/// One fixed step of one segment under its parent's simulated angle `parent` (this step's) with
/// the animated offset `offset` and its field (`alpha`, `held` from spring_chain2d_segment_field):
/// the target, the field as a shift of the goal, the spring, the speed bound and the limit. On
/// SPRING_OK `*st` holds the new state and `*target` the target; on error the chain's update is
/// to be dropped.
static inline spring_result spring_chain2d_segment_step(const spring_chain2d_step_input *in,
                                                        const spring_chain2d_segment_input *seg, double alpha, double held,
                                                        float parent, float offset, spring_state *st, float *target)
{
	double goal = (double)parent + (double)seg->rest + (double)offset;
	float t = spring_det_fold_float(goal);
	float shifted = t;
	bool stepped = false; // on the unfolded error
	if (alpha != 0.0) {
		spring_params p = seg->params;
		double shift = alpha * (double)p.mass / (double)p.stiffness;
		double error = (double)spring_chain2d_delta(st->x, t) + shift;
		// A stiff field taken at the step's start overshoots and grows (a short segment under
		// strong gravity or a violent acceleration): its stiffness beyond held_max is folded
		// into the aim, which becomes a Newton step onto the balance (the same fixed point).
		double excess = held - in->held_max;
		if (excess > 0.0) {
			double w2 = (double)p.stiffness / (double)p.mass;
			error *= w2 / (w2 + excess);
		}
		if (fabs(error) < SPRING_CHAIN2D_FOLD_SAFE && excess <= 0.0) {
			shifted = spring_det_fold_float(goal + shift);
		} else {
			spring_result r = spring_chain2d_internal_step_unfolded(in, seg, error, st);
			if (r != SPRING_OK) {
				return r;
			}
			stepped = true;
		}
	}
	if (!stepped) {
		if (in->integrator == SPRING_INTEGRATOR_EXACT) {
			spring_chain2d_stepper_angle(seg->stepper, st, shifted); // four multiply-adds
		} else {
			spring_result r = spring_chain2d_internal_step_semi_implicit(seg, in->step, shifted, st);
			if (r != SPRING_OK) {
				return r;
			}
		}
	}
	if (fabsf(st->v) > in->max_speed) {
		st->v = st->v > 0.0f ? in->max_speed : -in->max_speed; // never more than half a turn per step
	}
	spring_chain2d_apply_limit(seg->limit, t, st);
	*target = t;
	return SPRING_OK;
}

/// The chain-level start of a step of `c` under `root` (clean; `same`: the root and animation of
/// the last step): false when the chain sleeps through it (nothing to do). Otherwise updates the
/// struct (wakes it, the root's velocity and the roots), fills `*in` and `*still` (the inputs
/// and the root were those of the last step: the rest test follows the step) and sets `*carried`
/// to the turn (radians, 0 none) the world angles are to be carried by after the history is kept.
bool spring_chain2d_internal_step_begin(spring_chain2d *c, spring_xform2 root, bool same, const double u[2],
                                        spring_chain2d_step_input *in, double *carried, bool *still);

/// The bytes of a chain's block with n segments (spring_chain2d_memory_size of a valid description).
size_t spring_chain2d_internal_block_size(int n);

/// The per-segment arrays of a chain (segment_count entries each), for the group's copies.
typedef struct spring_chain2d_view {
	float *angle, *velocity, *prev, *target, *inertia; // the state, then the per-chain setting
	float *length, *rest, *limit;                      // the shape
	spring_params *params, *own_params;
	spring_stepper *steppers;
	spring_chain2d_trig *trig;
} spring_chain2d_view;
void spring_chain2d_internal_view(spring_chain2d *c, spring_chain2d_view *out);

/// The checks and cleaning of a root every call taking one runs (chain2d.c): finite, within
/// SPRING_CHAIN_MAX_COORDINATE; cleaned: angle folded, scale 1.
spring_result spring_chain2d_internal_check_root(spring_xform2 root);
spring_xform2 spring_chain2d_internal_clean_root(spring_xform2 root);
/// An update's frame time: finite (NOT_FINITE) and >= 0 (OUT_OF_RANGE).
spring_result spring_chain2d_internal_check_frame_dt(float frame_dt);
/// The root of the sub-step ending at fraction f of the frame from `from` to `to`.
spring_xform2 spring_chain2d_internal_substep_root(spring_xform2 from, spring_xform2 to, float f);
/// True when `root` is bit for bit the root of the last step.
bool spring_chain2d_internal_same_root(const spring_chain2d *c, spring_xform2 root);

/// The pivot's path (chain2d.c, "The pivot's path"): advanced by a frame ending with the root at
/// `to` (returns the frame's start relative to the newest knot); still (no step would move the
/// pivot); the pivot's velocity `u` in a step ending `tau` after the newest knot.
double spring_chain2d_internal_path_advance(spring_chain2d *c, spring_vec2 to, double frame_dt);
bool spring_chain2d_internal_path_is_still(const spring_chain2d *c, spring_vec2 to);
void spring_chain2d_internal_path_step(spring_chain2d *c, double tau, double u[2]);

/// Segment i's settings as the step reads them.
void spring_chain2d_internal_segment(const spring_chain2d *c, int i, spring_chain2d_segment_input *out);

/// The rest test after a still step: snaps every segment onto its equilibrium with zero velocity
/// and puts the chain to sleep when all are within the rest thresholds; otherwise nothing.
void spring_chain2d_internal_try_rest(spring_chain2d *c);

#endif
