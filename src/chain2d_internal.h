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
	double inv_step;           // 1/s: 1 / clock.step
	float max_speed;           // rad/s: pi / step, a segment's speed bound
	float held_max;            // 1/s^2: FIELD_STIFFNESS_MAX / step^2, the field stiffness taken explicitly
	float fx, fy, steady;      // units/s^2: gravity + wind (bounded) and its magnitude
	// The pivot's path (see the header comment): the root's positions at the last knots (the ends
	// of frames at least a step after the knot before), each the one before plus the root's
	// displacement with its mean speed capped; the cubic through them; the path's last step.
	double knot[4][2];            // oldest first; knot[knot_count - 1] the newest
	double knot_gap[3];           // s, between knot[j] and knot[j + 1]
	int knot_count;               // 1..4
	double knot_elapsed;          // s from the newest knot to the end of the last frame (< step)
	double path_coef[4][2];       // Newton form about the newest knot (time 0) and the two before it
	double path_node[2];          // s, the times of the knots before the newest (negative)
	double recip[6];              // 1/s: path_fit's reciprocals of node distances...
	double recip_gap[3];          // s: ...for these gaps (newest first)...
	int recip_count;              // ...and this many knots (0: none kept)
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

// The field stiffness (1/s^2) taken explicitly is at most this over step^2 (omega h about 0.2).
#define SPRING_CHAIN2D_FIELD_STIFFNESS_MAX 0.05
// The forces and the pivot's acceleration a step feeds the segments are bounded by this
// (units/s^2), so every product in the segment's step (the field's square too) is a float: far
// beyond any motion a frame shows (1e6 units in a 1/1000 s step is 1e12).
#define SPRING_CHAIN2D_ACCEL_MAX 1e15

// The lane arithmetic's constants (chain2d_kernel.h).
#define SPRING_LANE_FOLD_MAX 1e7f                   // |angle| folded as this beyond it
#define SPRING_LANE_ERROR_MAX 1e6f                  // rad: the largest error a segment steps on
#define SPRING_LANE_ROUND 12582912.0f               // 1.5 2^23: (y + R) - R rounds y, |y| < 2^22
#define SPRING_LANE_PI 3.14159274f                  // pi rounded to float
#define SPRING_LANE_TWO_PI 6.28318548f              // twice that, exactly
#define SPRING_LANE_INV_TWO_PI 0.159154937f         // 1 / (2 pi)
#define SPRING_LANE_TWO_PI_A 6.28125f               // 2 pi = A + B (A: 8 significant bits)
#define SPRING_LANE_TWO_PI_B 1.93530717e-3f         //
#define SPRING_LANE_TWO_OVER_PI 0.636619747f        // 2 / pi
#define SPRING_LANE_PIO2_A 1.5703125f               // pi/2 = A + B + C, A and B short enough
#define SPRING_LANE_PIO2_B 4.837512969970703125e-4f // that q A and q B are exact for |q| <= 2
#define SPRING_LANE_PIO2_C 7.54978995489188216e-8f  //
#define SPRING_LANE_S1 -1.6666654611e-1f            // sin r = r + r z (S1 + z (S2 + z S3))
#define SPRING_LANE_S2 8.3321608736e-3f             //
#define SPRING_LANE_S3 -1.9515295891e-4f            //
#define SPRING_LANE_C1 4.166664568298827e-2f        // cos r = 1 - z/2 + z^2 (C1 + z (C2 + z C3))
#define SPRING_LANE_C2 -1.388731625493765e-3f       //
#define SPRING_LANE_C3 2.443315711809948e-5f        //

// The plain-float instance of the lane arithmetic: spring_chain2d_lane_fold, _sincos, _field,
// _step, _lerp and spring_chain2d_lane_step_in.
#define T float
#define TI int
#define K(name) spring_chain2d_lane_##name
#define SEL(m, a, b) ((m) ? (a) : (b))
#define TOINT(x) ((int)(x))
#define FABS(x) fabsf(x)
#define SPLAT(c) (c)
#include "chain2d_kernel.h"
#undef T
#undef TI
#undef K
#undef SEL
#undef TOINT
#undef FABS
#undef SPLAT

/// 1.5 / length: the field's factor for a uniform rod pivoting at its end (see chain2d.c).
static inline float spring_chain2d_k15(float length)
{
	return 1.5f / length;
}

/// A kept sine and cosine: those of the angle `key` (bit for bit; NaN: nothing kept).
static inline void spring_chain2d_kept_sincos(float a, float key, float ks, float kc, float *s, float *c)
{
	if (memcmp(&key, &a, sizeof a) == 0) {
		*s = ks;
		*c = kc;
	} else {
		spring_chain2d_lane_sincos(a, s, c);
	}
}

/// A drawn angle between two stepped ones: `prev` at alpha 0 and `angle` at 1 exactly (no
/// interpolation work there), otherwise along the shortest arc.
static inline float spring_chain2d_pose_angle(float prev, float angle, float alpha)
{
	return alpha == 0.0f ? prev : alpha == 1.0f ? angle : spring_chain2d_lane_lerp(prev, angle, alpha);
}

/// The root drawn at `alpha` between the last two steps' roots.
static inline spring_xform2 spring_chain2d_pose_root(spring_xform2 prev_root, spring_xform2 root, float alpha)
{
	spring_xform2 r = {alpha == 0.0f   ? prev_root.position
	                   : alpha == 1.0f ? root.position
	                                   : spring_vec2_lerp(prev_root.position, root.position, alpha),
	                   spring_chain2d_pose_angle(prev_root.angle, root.angle, alpha),
	                   {1.0f, 1.0f}};
	return r;
}

/// The arrays a pose reads, segment i's entries at [i * stride]: the last two steps' angles, the
/// sine and cosine kept by the last step's field (of the angle `key`), the segment lengths
/// (length[i], not strided).
typedef struct spring_chain2d_pose_src {
	const float *prev, *angle, *sin, *cos, *key;
	ptrdiff_t stride;
	const float *length;
	int n;
} spring_chain2d_pose_src;

/// The pose between the last two steps at `alpha` (see spring_chain2d_get_pose): forward
/// kinematics in float, each joint the drawn root plus the sum of the segments' vectors before it.
/// `joints` (n + 1) and `local_angles` (n) are optional.
static inline void spring_chain2d_pose_walk(const spring_chain2d_pose_src *src, spring_xform2 prev_root, spring_xform2 root,
                                            float alpha, spring_xform2 *joints, float *local_angles)
{
	const spring_xform2 at = spring_chain2d_pose_root(prev_root, root, alpha);
	float ox = 0.0f, oy = 0.0f;
	float parent = at.angle;
	for (int i = 0; i < src->n; i++) {
		const ptrdiff_t k = i * src->stride;
		float a = spring_chain2d_pose_angle(src->prev[k], src->angle[k], alpha);
		if (joints) {
			spring_xform2 j = {{at.position.x + ox, at.position.y + oy}, a, {1.0f, 1.0f}};
			joints[i] = j;
			float s, c;
			spring_chain2d_kept_sincos(a, src->key[k], src->sin[k], src->cos[k], &s, &c);
			ox = ox + src->length[i] * c;
			oy = oy + src->length[i] * s;
		}
		if (local_angles) {
			local_angles[i] = spring_chain2d_lane_fold(a - parent);
		}
		parent = a;
	}
	if (joints) {
		spring_xform2 tip = {{at.position.x + ox, at.position.y + oy}, parent, {1.0f, 1.0f}};
		joints[src->n] = tip;
	}
}

/// The one-step transition a segment of spring `p` is stepped with under `integrator` at `step`
/// (the exact stepper's, or the semi-implicit Euler step's written as the same 2x2 map), its
/// k/m in *w2. UNSTABLE for a semi-implicit step the spring does not survive.
spring_result spring_chain2d_internal_transition(spring_integrator integrator, spring_params p, float step,
                                                 spring_chain2d_lane_step_in *out);

/// The chain-level start of a step of `c` under `root` (clean; `same`: the root and animation of
/// the last step): false when the chain sleeps through it (nothing to do). Otherwise updates the
/// struct (wakes it, the root's velocity and the roots), fills `*in` (the forces, the pivot's
/// acceleration, and the turn the world angles are to be carried by after the history is kept)
/// and `*still` (the inputs and the root were those of the last step: the rest test follows).
bool spring_chain2d_internal_step_begin(spring_chain2d *c, spring_xform2 root, bool same, const double u[2],
                                        spring_chain2d_lane_chain_in *in, bool *still);

/// The bytes of a chain's block with n segments (spring_chain2d_memory_size of a valid description).
size_t spring_chain2d_internal_block_size(int n);

/// The per-segment arrays of a chain (segment_count entries each), for the group's copies.
typedef struct spring_chain2d_view {
	float *angle, *velocity, *prev, *target, *inertia; // the state, then the per-chain setting
	float *sin, *cos, *key;                            // kept by the last step's field
	float *length, *rest, *limit;                      // the shape
	spring_params *params, *own_params;
	spring_chain2d_lane_step_in *steppers; // w2, transition and limit of each segment
} spring_chain2d_view;
void spring_chain2d_internal_view(spring_chain2d *c, spring_chain2d_view *out);

/// The checks and cleaning of a root every call taking one runs (chain2d.c): finite, within
/// SPRING_CHAIN_MAX_COORDINATE; cleaned: angle folded, scale 1.
spring_result spring_chain2d_internal_check_root(spring_xform2 root);
spring_xform2 spring_chain2d_internal_clean_root(spring_xform2 root);
/// An update's frame time: finite (NOT_FINITE) and >= 0 (OUT_OF_RANGE).
spring_result spring_chain2d_internal_check_frame_dt(float frame_dt);
/// The root of the sub-step ending at fraction f of the frame from `from` to `to` (the position as
/// spring_vec2_lerp, inline).
static inline spring_xform2 spring_chain2d_internal_substep_root(spring_xform2 from, spring_xform2 to, float f)
{
	const double t = (double)f;
	spring_xform2 at = {{(float)((double)from.position.x + ((double)to.position.x - (double)from.position.x) * t),
	                     (float)((double)from.position.y + ((double)to.position.y - (double)from.position.y) * t)},
	                    spring_chain2d_lerp(from.angle, to.angle, f),
	                    {1.0f, 1.0f}};
	return at;
}
/// True when `root` is bit for bit the root of the last step.
bool spring_chain2d_internal_same_root(const spring_chain2d *c, spring_xform2 root);

/// The pivot's path (chain2d.c, "The pivot's path"): advanced by a frame ending with the root at
/// `to` (returns the frame's start relative to the newest knot); still (no step would move the
/// pivot); the pivot's velocity `u` in a step ending `tau` after the newest knot.
double spring_chain2d_internal_path_advance(spring_chain2d *c, spring_vec2 to, double frame_dt);
bool spring_chain2d_internal_path_is_still(const spring_chain2d *c, spring_vec2 to);
void spring_chain2d_internal_path_step(spring_chain2d *c, double tau, double u[2]);

/// The rest test after a still step: snaps every segment onto its equilibrium with zero velocity
/// and puts the chain to sleep when all are within the rest thresholds; otherwise nothing.
void spring_chain2d_internal_try_rest(spring_chain2d *c);

#endif
