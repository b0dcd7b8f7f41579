// SPDX-License-Identifier: MIT
// The angle chain's step of one segment, shared by spring_chain2d (chain2d.c, with
// chain2d_validate.c and chain2d_snapshot.c) and spring_chain2d_group (chain2d_group.c, its
// kernels in kernels_<set>.c), which therefore give the same bits (not installed).
// The physics is described at the top of chain2d.c. The calls between these files go one way:
// chain2d_group.c calls the other four, chain2d_snapshot.c calls chain2d.c and
// chain2d_validate.c, chain2d.c calls chain2d_validate.c and the kernels (through simd.c), and those
// call none of them.
#ifndef SPRING_CHAIN2D_INTERNAL_H
#define SPRING_CHAIN2D_INTERNAL_H

#include "spring/chain.h"

#include "base_internal.h"
#include "chain_internal.h"
#include "detmath_internal.h"
#include "kernels_internal.h"
#include "lanes_scalar.h"
#include "path_internal.h"

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
	spring_params params;     // chain default (resolved: never zero)
	spring_params tip_params; // as given; zero -> no gradient
	spring_vec2 gravity;      // units/s^2
	spring_vec2 wind;         // units/s^2
	spring_chain2d_timeline time;
	// What a group keeps in rows across its chains (SPRING_CHAIN2D_LANE_FIELDS): floats.
	spring_xform2 root;        // root of the last step (angle wrapped, scale 1)
	spring_xform2 prev_root;   // root of the step before
	spring_xform2 input_root;  // root given to the last update (the next frame interpolates from it)
	spring_vec2 root_velocity; // units/s, the pivot's velocity u at the last step (capped)
	// The pivot's path, relative to its newest knot: the root's displacements between the last
	// knots (newest first, x y pairs; each capped at max_root_speed over its gap), the Newton
	// coefficients of the cubic through them (orders 1, 2, 3; 2 and 3 weighted, chain2d_kernel.h
	// K(fit)), the path's position at the last
	// step, and the root's (uncapped) position at the newest knot.
	float path_d[6];
	float path_coef[6];
	float pivot[2];
	spring_vec2 input_position;
	float max_root_speed;         // units/s; 0 no cap
	float max_root_angular_speed; // rad/s; 0 no cap
	float fx, fy, steady;         // units/s^2: gravity + wind (bounded) and its magnitude
	// Settings every chain of a group shares.
	double inv_step;             // 1/s: 1 / clock.step
	float max_speed;             // rad/s: pi / step, a segment's speed bound
	float held_max;              // 1/s^2: FIELD_STIFFNESS_MAX / step^2, the field stiffness taken explicitly
	float rest_delta;            // rad, resolved (> 0)
	float rest_angular_speed;    // rad/s, resolved (> 0)
	bool resting;                // snapped onto the equilibrium; a step with the same inputs does nothing
	spring_internal_owner owner; // set by create; zero for caller memory
};

/// The float fields of struct spring_chain2d a group keeps in rows, in row order (the lane
/// arithmetic's SPRING_CHAIN2D_LN_* indices; `resting` follows them as a mask).
#define SPRING_CHAIN2D_LANE_FIELDS(X) \
	X(root.position.x)                \
	X(root.position.y)                \
	X(root.angle)                     \
	X(prev_root.position.x)           \
	X(prev_root.position.y)           \
	X(prev_root.angle)                \
	X(input_root.position.x)          \
	X(input_root.position.y)          \
	X(input_root.angle)               \
	X(root_velocity.x)                \
	X(root_velocity.y)                \
	X(path_d[0])                      \
	X(path_d[1])                      \
	X(path_d[2])                      \
	X(path_d[3])                      \
	X(path_d[4])                      \
	X(path_d[5])                      \
	X(path_coef[0])                   \
	X(path_coef[1])                   \
	X(path_coef[2])                   \
	X(path_coef[3])                   \
	X(path_coef[4])                   \
	X(path_coef[5])                   \
	X(pivot[0])                       \
	X(pivot[1])                       \
	X(input_position.x)               \
	X(input_position.y)               \
	X(max_root_speed)                 \
	X(max_root_angular_speed)         \
	X(fx)                             \
	X(fy)                             \
	X(steady)

enum {
	SPRING_CHAIN2D_LN_RX, // root
	SPRING_CHAIN2D_LN_RY,
	SPRING_CHAIN2D_LN_RA,
	SPRING_CHAIN2D_LN_QX, // prev_root
	SPRING_CHAIN2D_LN_QY,
	SPRING_CHAIN2D_LN_QA,
	SPRING_CHAIN2D_LN_IX, // input_root
	SPRING_CHAIN2D_LN_IY,
	SPRING_CHAIN2D_LN_IA,
	SPRING_CHAIN2D_LN_VX, // root_velocity
	SPRING_CHAIN2D_LN_VY,
	SPRING_CHAIN2D_LN_D,                                 // path_d[6]
	SPRING_CHAIN2D_LN_COEF = SPRING_CHAIN2D_LN_D + 6,    // path_coef[6]
	SPRING_CHAIN2D_LN_PIVX = SPRING_CHAIN2D_LN_COEF + 6, // pivot
	SPRING_CHAIN2D_LN_PIVY,
	SPRING_CHAIN2D_LN_INX, // input_position
	SPRING_CHAIN2D_LN_INY,
	SPRING_CHAIN2D_LN_MAXV, // max_root_speed
	SPRING_CHAIN2D_LN_MAXW, // max_root_angular_speed
	SPRING_CHAIN2D_LN_FX,
	SPRING_CHAIN2D_LN_FY,
	SPRING_CHAIN2D_LN_STEADY,
	SPRING_CHAIN2D_LN_RESTING, // the mask (bits -1: resting)
	SPRING_CHAIN2D_LN_COUNT
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
#define SPRING_LANE_FOLD_MAX 1e7f // |angle| folded as this beyond it
#define SPRING_LANE_ACCEL_MAX ((float)SPRING_CHAIN2D_ACCEL_MAX)
#define SPRING_LANE_SPEED_MAX 1e15f                 // units/s: the pivot's velocity
#define SPRING_LANE_WRAP_MAX 9.42477f               // below 3 pi: one wrap folds a sum of two folded angles
#define SPRING_LANE_ERROR_MAX 1e6f                  // rad: the largest error a segment steps on
#define SPRING_LANE_ROUND 12582912.0f               // 1.5 2^23: (y + R) - R rounds y, |y| < 2^22
#define SPRING_LANE_PI 3.14159274f                  // pi rounded to float
#define SPRING_LANE_TWO_PI 6.28318548f              // twice that, exactly
#define SPRING_LANE_INV_TWO_PI 0.159154937f         // 1 / (2 pi)
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

// The plain-float instance of the lane arithmetic (chain2d_kernel.h over lanes_scalar.h):
// spring_chain2d_lane_fold, _sincos, _field, _step, _lerp and spring_chain2d_lane_step_in.
#define L LANES_SCALAR
#define K(name) spring_chain2d_lane_##name
#include "chain2d_kernel.h"
#undef L
#undef K

/// The root of the sub-step ending at fraction f of the frame from `from` to `to`, as a chain's
/// step computes it (chain2d_kernel.h, K(begin)).
static inline spring_xform2 spring_chain2d_internal_substep_root(spring_xform2 from, spring_xform2 to, float f)
{
	const float g = 1.0f - f;
	spring_xform2 at = {
		{to.position.x - (to.position.x - from.position.x) * g, to.position.y - (to.position.y - from.position.y) * g},
		spring_chain2d_lane_wrap(to.angle - spring_chain2d_lane_wrap(to.angle - from.angle) * g),
		{1.0f, 1.0f}};
	return at;
}

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
	spring_xform2 r = {alpha == 0.0f ? prev_root.position
	                   : alpha == 1.0f
	                       ? root.position
	                       : spring_vec2_make(prev_root.position.x + (root.position.x - prev_root.position.x) * alpha,
	                                          prev_root.position.y + (root.position.y - prev_root.position.y) * alpha),
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

/// spring_chain2d_pose_walk with `alpha` as given (0 or 1 exactly: `at` a constant in each copy,
/// -1 any other alpha).
static inline void spring_chain2d_pose_walk_at(const spring_chain2d_pose_src *src, spring_xform2 prev_root, spring_xform2 root,
                                               float alpha, int at_end, spring_xform2 *joints, float *local_angles)
{
	const spring_xform2 at = spring_chain2d_pose_root(prev_root, root, alpha);
	float ox = 0.0f, oy = 0.0f;
	float parent = at.angle;
	for (int i = 0; i < src->n; i++) {
		const ptrdiff_t k = i * src->stride;
		float a = at_end == 0   ? src->prev[k]
		          : at_end == 1 ? src->angle[k]
		                        : spring_chain2d_pose_angle(src->prev[k], src->angle[k], alpha);
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

/// The pose between the last two steps at `alpha` (see spring_chain2d_get_pose): forward
/// kinematics in float, each joint the drawn root plus the sum of the segments' vectors before it.
/// `joints` (n + 1) and `local_angles` (n) are optional.
static inline void spring_chain2d_pose_walk(const spring_chain2d_pose_src *src, spring_xform2 prev_root, spring_xform2 root,
                                            float alpha, spring_xform2 *joints, float *local_angles)
{
	if (alpha == 0.0f) {
		spring_chain2d_pose_walk_at(src, prev_root, root, 0.0f, 0, joints, local_angles);
	} else if (alpha == 1.0f) {
		spring_chain2d_pose_walk_at(src, prev_root, root, 1.0f, 1, joints, local_angles);
	} else {
		spring_chain2d_pose_walk_at(src, prev_root, root, alpha, -1, joints, local_angles);
	}
}

/// The field half of a step (K(segment_field)) for segments [0, n) of one chain at once.
typedef struct spring_chain2d_fields {
	int n, turning;
	spring_chain2d_lane_chain_in chain;
	float *angle;                           // in: the angles; out: carried by the chain's turn
	const float *inertia, *length;          // per segment
	float *alpha, *stiff, *sin, *cos, *key; // out
} spring_chain2d_fields;

/// K(segment_field) for every segment of `a`, by vectors of segments where the machine has them
/// (kernels_<set>.c, through the table of kernels; the same bits as one segment at a time).
static inline void spring_chain2d_internal_fields(const spring_chain2d_fields *a)
{
	const spring_angle_kernels *use = spring_internal_angle_kernels();
	int done = 0;
	for (int k = 0; k < 3 && use->fields[k]; k++) {
		done = use->fields[k](a, done);
	}
	(void)spring_chain2d_kernel_fields_scalar(a, done);
}

/// The one-step transition a segment of spring `p` is stepped with under `integrator` at `step`
/// (the exact stepper's, or the semi-implicit Euler step's written as the same 2x2 map), its
/// k/m in *w2. UNSTABLE for a semi-implicit step the spring does not survive.
spring_result spring_chain2d_internal_transition(spring_integrator integrator, spring_params p, float step,
                                                 spring_chain2d_lane_step_in *out);

/// Chain `c`'s lane state into *L and back.
void spring_chain2d_internal_lane_load(const spring_chain2d *c, spring_chain2d_lane_lane *L);
void spring_chain2d_internal_lane_store(spring_chain2d *c, const spring_chain2d_lane_lane *L);

/// The basis fields that come from the chain's settings (the same for every chain of a group).
void spring_chain2d_internal_basis_settings(const spring_chain2d *c, spring_chain2d_lane_basis *p);

/// The bytes of a chain's block with n segments (spring_chain2d_memory_size of a valid description).
size_t spring_chain2d_internal_block_size(int n);
/// Accepts `image` (a chain's block read from a snapshot, any alignment) for the chain whose struct
/// is `live` and whose segment lengths and rest angles are `length` and `rest` only when it is a
/// state that chain could reach by its own calls (see spring_chain2d_restore); otherwise fills
/// `error`. A group checks each of its chains with it (chain2d_snapshot.c).
spring_result spring_chain2d_internal_check_image(const spring_chain2d *live, const float *length, const float *rest,
                                                  const unsigned char *image, spring_error *error);
/// The same for a whole chain `live` (its own lengths and rest angles): a single chain's restore,
/// and a rig's for each of its angle chains.
spring_result spring_chain2d_internal_check_own_image(const spring_chain2d *live, const unsigned char *image,
                                                      spring_error *error);

/// The per-segment arrays of a chain (segment_count entries each), for the group's copies.
typedef struct spring_chain2d_view {
	float *angle, *velocity, *prev, *target, *inertia; // the state, then the per-chain setting
	float *deflection;                                 // state: angle minus target, never folded
	float *sin, *cos, *key;                            // kept by the last step's field
	float *length, *rest, *limit;                      // the shape
	float *used, *anim_from, *anim_to;                 // animated offsets: the last step's, the
	                                                   // last frame's, the next frame's
	spring_params *params, *own_params;
	spring_chain2d_lane_step_in *steppers; // w2, transition and limit of each segment
} spring_chain2d_view;
void spring_chain2d_internal_view(spring_chain2d *c, spring_chain2d_view *out);

/// The checks and cleaning of a root every call taking one runs (chain2d_validate.c): finite, within
/// SPRING_CHAIN_MAX_COORDINATE; cleaned: angle folded, scale 1.
spring_result spring_chain2d_internal_check_root(spring_xform2 root);
spring_xform2 spring_chain2d_internal_clean_root(spring_xform2 root);
/// An update's frame time: finite (NOT_FINITE) and >= 0 (OUT_OF_RANGE).
spring_result spring_chain2d_internal_check_frame_dt(float frame_dt);

/// The timeline's values a frame and a step feed every chain (as floats for the lanes).
typedef struct spring_chain2d_basis {
	bool knot;        // the frame adds a knot
	bool hitch;       // the knots before the new one are dropped
	float r[6];       // the timeline's reciprocals (when a knot is added)
	float elapsed;    // s: the new knot's gap
	float w1, w2, w3; // the step's Newton basis
	float inv_span;   // 1/s
	bool has_span;
} spring_chain2d_basis;

/// The pivot path's timeline advanced by a frame of `frame_dt` with `steps` steps (chain2d.c, "The pivot's path"):
/// returns the frame's start relative to the newest knot; *b receives whether a knot is added
/// (and its reciprocals).
double spring_chain2d_internal_timeline_advance(spring_chain2d_timeline *t, double frame_dt, int steps, const spring_clock *clock,
                                                spring_chain2d_basis *b);
/// The Newton basis of a step ending `tau` after the newest knot, into *b; the timeline's last step
/// moves there.
void spring_chain2d_internal_timeline_step(spring_chain2d_timeline *t, double tau, spring_chain2d_basis *b);

/// The rest test after a still step: snaps every segment onto its equilibrium with zero velocity
/// and puts the chain to sleep when all are within the rest thresholds; otherwise nothing.
void spring_chain2d_internal_try_rest(spring_chain2d *c);

#endif
