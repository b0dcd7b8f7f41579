// SPDX-License-Identifier: MIT
/// @file chain.h
/// Secondary-motion chains: hair, tails, capes, ears and antennae dragged along by a root.
///
/// Two recipes:
/// - `spring_chain2d`: one angle spring per segment (2D). Each segment's target world angle is
///   its parent's *simulated* world angle this step plus its rest (and animated) local angle, so
///   length is preserved by construction and limits read as "swings at most 30 degrees". Each
///   segment also feels the root's acceleration (`inertia`), gravity and wind as a torque, and the
///   chain comes to an exact rest and sleeps (`spring_chain2d_is_resting`). A joint's deflection
///   (its angle minus its target) is continuous: only the target's move from step to step is taken
///   on the shortest arc, so a root spinning through +-180 degrees never whips and a joint bent past
///   half a turn swings back the way it bent.
/// - `spring_chain`: tip springs (the undulation recipe), 3D with a 2D mode. Each bone's tip is
///   a point mass springing toward where the bone would be if it followed its simulated parent
///   rigidly; colliders and a cone limit act on it; it is projected back to the bone length
///   (and the projected-away velocity removed); the bone is aimed at it by the shortest arc.
///
/// Both recipes are one-way cascades: a bone follows its parent and never acts back on it. A
/// disturbance travelling down a long, lightly damped chain is therefore amplified by each
/// bone's resonance before it dies out (the tip of an 8-bone chain at damping ratio 0.3 can
/// swing several times further than the root moved); a root-to-tip gradient that stiffens
/// toward the tip, or more damping, tames it. Nothing grows once the motion has arrived.
///
/// Both run on a `spring_clock` (fixed step, capped sub-steps, excess dropped), interpolate the
/// root input across the sub-steps of a frame, interpolate their output between the last two
/// steps by alpha, walk root to tip within each step, and allocate once at creation (or use
/// caller memory sized by a query). Teleports are explicit calls; parameters, limits, forces and
/// colliders can change at any time without resetting the simulation.
#ifndef SPRING_CHAIN_H
#define SPRING_CHAIN_H

#include "spring.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPRING_CHAIN_MAX_BONES 256
#define SPRING_CHAIN_MAX_COLLIDERS 64

/// How a chain integrates its springs each fixed step.
typedef enum spring_integrator {
	SPRING_INTEGRATOR_EXACT = 0,     ///< closed-form transition (default): stable for any parameters
	SPRING_INTEGRATOR_SEMI_IMPLICIT, ///< classic update; creation fails if unstable at the step
	SPRING_INTEGRATOR_COUNT          ///< how many there are (not an integrator)
} spring_integrator;

// =============================================================================================
// spring_chain2d: angle springs

typedef struct spring_chain2d_segment {
	float length;         ///< units, in [1e-6, SPRING_CHAIN_MAX_COORDINATE]
	float rest_angle;     ///< rest local angle relative to the parent segment (the root for
	                      ///< segment 0), radians, within +-SPRING_CHAIN2D_MAX_ANGLE
	spring_params params; ///< all zero -> the chain's params (or the root-to-tip gradient)
	float limit;          ///< maximum swing away from the target local angle, radians, in
	                      ///< (0, pi]; 0 -> unlimited
	float inertia;        ///< fraction of the pivot's acceleration this segment feels, in [0, 100];
	                      ///< 0 -> the chain's
	bool no_inertia;      ///< true: this segment feels no pivot acceleration (whatever the chain's)
} spring_chain2d_segment;

#define SPRING_CHAIN2D_MIN_STEP 1e-6f ///< s: the shortest physics step of an angle chain (1 MHz)
/// rad: the largest magnitude of a segment's rest angle or of an animated offset
/// (spring_chain2d_set_animation). Angles are folded onto (-pi, pi] as they step; a float angle
/// of 1e6 rad is known only to 0.06 rad, and past about 1e7 rad it means nothing (the next float
/// is a radian away), so larger ones are refused (SPRING_ERROR_OUT_OF_RANGE) instead of being
/// folded into an arbitrary angle.
#define SPRING_CHAIN2D_MAX_ANGLE 1e6f
/// The inertia an angle chain feels by default (spring_chain2d_desc.inertia). Measured on a
/// 7-segment, 77-unit tail at 2 Hz, damping ratio 0.3, under a hip swaying at up to 130 units/s
/// that stops dead, and under a dash from rest at 150 units/s: 0.2 keeps every joint within 160
/// degrees of its target (0.3 bends one to 231, 1 to 439) and the tail within 0.5% of its length
/// of an 8 kHz run at every frame rate from 24 fps up.
#define SPRING_CHAIN2D_DEFAULT_INERTIA 0.2f

typedef struct spring_chain2d_desc {
	int segment_count;                      ///< 1 .. SPRING_CHAIN_MAX_BONES
	const spring_chain2d_segment *segments; ///< segment_count entries, root first
	spring_params params;                   ///< default for segments; zero -> spring_params_default() (2 Hz, damping ratio 0.3)
	spring_params tip_params;               ///< non-zero: the last segment's params; segments in between
	                                        ///< interpolate frequency and damping ratio linearly root to tip
	                                        ///< (a single segment uses `params`)
	spring_vec2 gravity;                    ///< units/s^2 acting on each segment as a torque (default none)
	spring_vec2 wind;                       ///< units/s^2, same treatment as gravity (default none)
	float step;                             ///< fixed physics step in seconds, [SPRING_CHAIN2D_MIN_STEP, 1];
	                                        ///< 0 -> SPRING_CLOCK_DEFAULT_STEP (1/120 s)
	int max_steps;                          ///< cap on steps per update; 0 -> SPRING_CLOCK_DEFAULT_MAX_STEPS (8)
	spring_integrator integrator;
	spring_xform2 root;           ///< initial root (position and angle; scale ignored); the chain
	                              ///< starts at rest under it
	float inertia;                ///< fraction of each pivot's acceleration the segments feel (the root's
	                              ///< and the parents' motion), in [0, 100]; 0 -> SPRING_CHAIN2D_DEFAULT_INERTIA (0.2)
	bool no_inertia;              ///< true: pure angle springs, no pivot acceleration (segments may override)
	float max_root_speed;         ///< units/s, >= 0: the root speed the chain inherits (its mean over
	                              ///< each frame) is capped there: a faster dash reaches the inertia as
	                              ///< this speed; 0 -> no cap
	float max_root_angular_speed; ///< rad/s, >= 0: root rotation beyond this carries the chain rigidly
	                              ///< instead of swinging it; 0 -> no cap
	float rest_delta;             ///< rad, >= 0: rest threshold on each segment's distance from its
	                              ///< equilibrium; 0 -> 1e-4 L / sum_i D_i (L the chain's length, D_i the
	                              ///< length from segment i's pivot to the tip), at least 1e-6
	float rest_angular_speed;     ///< rad/s, >= 0: rest threshold on each angular speed; 0 -> 10 rest_delta
} spring_chain2d_desc;

typedef struct spring_chain2d spring_chain2d;

/// Bytes needed by spring_chain2d_init for this description (0 if the description is invalid).
SPRING_API size_t spring_chain2d_memory_size(const spring_chain2d_desc *desc);
/// Creates a chain in caller memory of at least spring_chain2d_memory_size bytes, aligned to 16.
/// `error` (optional) names the segment and field of an invalid description. The description and
/// its arrays are copied: they may be changed or freed as soon as init (or create) returns.
SPRING_API spring_result spring_chain2d_init(const spring_chain2d_desc *desc, void *memory, size_t size, spring_chain2d **out,
                                             spring_error *error);
/// Creates a chain with one allocation through the allocator hooks.
SPRING_API spring_result spring_chain2d_create(const spring_chain2d_desc *desc, spring_chain2d **out, spring_error *error);
/// Frees a chain made by spring_chain2d_create (no-op for NULL or caller memory).
SPRING_API void spring_chain2d_destroy(spring_chain2d *chain);

/// Advances by frame_dt seconds with `root` as this frame's root transform. The root is
/// interpolated from the previous frame's across the sub-steps (position linearly, angle along
/// the shortest arc). The acceleration the segments feel (inertia) comes from a smooth path
/// through the last four frames' root positions, so it does not arrive as one jolt per frame and
/// 24 fps moves the chain like 240 fps; where the root's velocity changes at once at a frame's end
/// (a dash's start, a dead stop) the path is straight on either side, and the change reaches the
/// chain as the same impulse, in the one step that crosses that frame's end, at any frame rate.
/// The segments step in float (the arithmetic a group runs
/// on 4, 8 or 16 chains at once, the same bits on every platform); every input is checked before
/// anything changes and a step cannot fail: the forces and the pivot's acceleration a segment
/// feels are bounded at 1e15 units/s^2 and the error it steps on at 1e6 rad, far beyond any
/// motion a frame can show. No allocation.
SPRING_API spring_result spring_chain2d_update(spring_chain2d *chain, spring_xform2 root, float frame_dt);
/// Animated local angle offsets (radians, added to each rest angle) for the frame being
/// submitted by the next update; interpolated across its sub-steps like the root. `count`
/// must equal the segment count; NULL (with count 0 or segment_count) clears them. Each offset
/// is finite (else SPRING_ERROR_NOT_FINITE) and within +-SPRING_CHAIN2D_MAX_ANGLE (else
/// SPRING_ERROR_OUT_OF_RANGE); a refused call changes nothing.
SPRING_API spring_result spring_chain2d_set_animation(spring_chain2d *chain, const float *local_offsets, int count);

/// Teleport by snapping: the chain is put at rest under `root` with zero velocities.
SPRING_API spring_result spring_chain2d_reset(spring_chain2d *chain, spring_xform2 root);
/// Teleport keeping the motion: the whole state moves rigidly with the root from its current
/// transform to `root` (translation and rotation), so the shape relative to the root is kept
/// and the jump is not seen as motion.
SPRING_API spring_result spring_chain2d_teleport(spring_chain2d *chain, spring_xform2 root);
/// Teleport by a rigid move of the current root: translate by `delta`, or rotate by `angle`
/// radians about `pivot` (world space). Same semantics as spring_chain2d_teleport.
SPRING_API spring_result spring_chain2d_translate(spring_chain2d *chain, spring_vec2 delta);
SPRING_API spring_result spring_chain2d_rotate(spring_chain2d *chain, float angle, spring_vec2 pivot);

/// Runtime changes; none of them resets the simulation state.
SPRING_API spring_result spring_chain2d_set_params(spring_chain2d *chain, int segment, spring_params params);
SPRING_API spring_result spring_chain2d_set_limit(spring_chain2d *chain, int segment, float limit);
SPRING_API spring_result spring_chain2d_set_forces(spring_chain2d *chain, spring_vec2 gravity, spring_vec2 wind);
/// The fraction of its pivot's acceleration `segment` (-1: every segment) feels, in [0, 100];
/// 0 turns it off (pure angle spring, as no_inertia).
SPRING_API spring_result spring_chain2d_set_inertia(spring_chain2d *chain, int segment, float inertia);
/// The inherited-motion caps (units/s and rad/s, >= 0, 0 = no cap), as in the description.
SPRING_API spring_result spring_chain2d_set_root_limits(spring_chain2d *chain, float max_root_speed,
                                                        float max_root_angular_speed);
/// True once every segment came within the rest thresholds of its equilibrium under a still root
/// and animation: the chain was then snapped onto it with zero velocities and sleeps (an update
/// costs a comparison) until the root, the animation or a setting changes. False for NULL.
SPRING_API bool spring_chain2d_is_resting(const spring_chain2d *chain);

/// Number of segments (0 for NULL).
SPRING_API int spring_chain2d_segment_count(const spring_chain2d *chain);

/// Snapshots (see base.h): the whole state in a flat blob of spring_chain2d_snapshot_size bytes;
/// restoring it into a chain made from the same description reproduces the run bit for bit.
SPRING_API size_t spring_chain2d_snapshot_size(const spring_chain2d *chain);
SPRING_API spring_result spring_chain2d_snapshot(const spring_chain2d *chain, void *blob, size_t size);
SPRING_API spring_result spring_chain2d_restore(spring_chain2d *chain, const void *blob, size_t size, spring_error *error);
/// Interpolated (by the clock's alpha) output. `joints` (optional) receives segment_count + 1
/// transforms: joint i is the start of segment i with the segment's world angle; the last is the
/// tip. `local_angles` (optional) receives each segment's angle relative to its parent.
/// `capacity` must be at least spring_chain2d_segment_count + 1 when `joints` is given,
/// spring_chain2d_segment_count otherwise; less is SPRING_ERROR_BUFFER_TOO_SMALL (nothing written).
SPRING_API spring_result spring_chain2d_get_pose(const spring_chain2d *chain, spring_xform2 *joints, float *local_angles,
                                                 int capacity);
/// The last stepped (not interpolated) simulated state of a segment: world angle and angular
/// velocity (rad/s).
SPRING_API spring_result spring_chain2d_get_state(const spring_chain2d *chain, int segment, spring_state *world_angle);
/// The target world angle used for `segment` in the last step (its parent's simulated angle plus
/// the rest and animated local angle); 0 for a NULL chain or an invalid index.
SPRING_API float spring_chain2d_get_target(const spring_chain2d *chain, int segment);
SPRING_API const spring_clock *spring_chain2d_clock(const spring_chain2d *chain);

// =============================================================================================
// spring_chain: tip springs, 3D or 2D
//
// Valid ranges (enforced; out of range is SPRING_ERROR_OUT_OF_RANGE and changes nothing): every
// coordinate a tip chain is given (root and teleport positions, translations, rest_local
// positions, bone tips, collider points and radii) has a magnitude of at most
// SPRING_CHAIN_MAX_COORDINATE units per component; gravity and wind at most
// SPRING_CHAIN_MAX_ACCELERATION units/s^2 per component. Within them every update that returns
// SPRING_OK leaves a finite state.
//
// Rest and sleep: a step after which every bone's tip is within `rest_distance` of its rest
// position (the rigid tip, or with gravity or wind the pendulum's equilibrium on the bone's
// length sphere: the direction of k/m (rigid tip - pivot) + gravity + wind) and slower than
// `rest_speed` snaps every tip exactly onto it with zero velocity (spring_chain_is_resting).
// A chain that rested through two steps with the same root and animation is asleep: further
// steps with the same inputs are skipped (a comparison instead of the physics; the result is
// bit-identical to stepping). Any runtime change (animation, parameters, limits, forces,
// colliders, teleports, reset) wakes it. A tip held off its rest position by a collider or a
// cone limit never rests.

#define SPRING_CHAIN_MAX_COORDINATE 1e6f   ///< units: largest magnitude of a coordinate component
#define SPRING_CHAIN_MAX_ACCELERATION 1e9f ///< units/s^2: largest gravity or wind component

/// What the length projection does to a tip's velocity (spring_chain_desc.projection).
typedef enum spring_chain_projection {
	/// Default: the part of the velocity along the bone (what the projection took away) is
	/// removed, so a tip comes to rest exactly and a chain under gravity does not jitter.
	SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY = 0,
	/// The velocity is kept as the spring left it, as the legacy per-frame undulation loops do:
	/// use it only to reproduce such a loop frame for frame (with the semi-implicit integrator at
	/// the loop's own step); under gravity the kept radial velocity never settles.
	SPRING_CHAIN_PROJECTION_KEEP_VELOCITY,
	SPRING_CHAIN_PROJECTION_COUNT ///< how many there are (not a projection)
} spring_chain_projection;

typedef enum spring_chain_collider_type {
	SPRING_CHAIN_COLLIDER_SPHERE = 0, ///< centre `a`, radius (a circle in 2D mode)
	SPRING_CHAIN_COLLIDER_CAPSULE,    ///< segment `a`-`b`, radius
	SPRING_CHAIN_COLLIDER_PLANE,      ///< point `a`, normal `b` (need not be unit); the tip stays on the
	                                  ///< normal's side, radius is an extra offset
	SPRING_CHAIN_COLLIDER_COUNT       ///< how many types there are (not a type)
} spring_chain_collider_type;

typedef struct spring_chain_collider {
	spring_chain_collider_type type;
	spring_vec3 a, b; ///< world space
	float radius;     ///< >= 0
} spring_chain_collider;

typedef struct spring_chain_bone_desc {
	spring_xform3 rest_local; ///< rest transform relative to the parent bone (bone 0: relative to
	                          ///< the root); rotation zero -> identity
	spring_vec3 tip;          ///< the bone's tip in its own space (non-zero; its length is the
	                          ///< bone length)
	spring_params params;     ///< zero -> the chain's params (or the gradient)
	float tip_radius;         ///< collision radius of the tip, >= 0
	float cone_limit;         ///< max angle (radians, (0, pi)) between the simulated and the rigid
	                          ///< bone direction; 0 -> unlimited
	spring_vec3 gravity;      ///< units/s^2 on this bone's tip, added to the chain's gravity and
	                          ///< wind (a VRM joint's gravity power times its direction); default none
} spring_chain_bone_desc;

typedef struct spring_chain_desc {
	int bone_count;                         ///< 1 .. SPRING_CHAIN_MAX_BONES
	const spring_chain_bone_desc *bones;    ///< root to tip; each bone's parent is the one before
	spring_params params;                   ///< default; zero -> spring_params_default() (2 Hz, damping ratio 0.3)
	spring_params tip_params;               ///< non-zero: root-to-tip gradient (frequency and ratio)
	spring_vec3 gravity;                    ///< units/s^2 on each tip (default none)
	spring_vec3 wind;                       ///< units/s^2 on each tip (default none)
	const spring_chain_collider *colliders; ///< copied at creation
	int collider_count;                     ///< 0 .. max_colliders
	int max_colliders;                      ///< capacity for later spring_chain_set_colliders; 0 ->
	                                        ///< collider_count; at most SPRING_CHAIN_MAX_COLLIDERS
	bool mode_2d;                           ///< true: everything stays in the z = 0 plane
	spring_chain_projection projection;     ///< velocity after the length projection; default
	                                        ///< SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY
	float step;                             ///< fixed physics step; 0 -> SPRING_CLOCK_DEFAULT_STEP (1/120 s)
	int max_steps;                          ///< 0 -> SPRING_CLOCK_DEFAULT_MAX_STEPS (8)
	spring_integrator integrator;
	spring_xform3 root;           ///< initial root (rotation zero -> identity); the chain starts
	                              ///< at rest under it
	float max_root_speed;         ///< units/s, >= 0: the root speed the chain feels is capped here
	                              ///< (the excess moves the chain rigidly, like a teleport); 0 -> no cap
	float max_root_angular_speed; ///< rad/s, >= 0: the same for the root's rotation; 0 -> no cap
	float rest_distance;          ///< units, >= 0: rest threshold of each tip's distance from its rest
	                              ///< position; 0 -> 1e-4 of the shortest bone length
	float rest_speed;             ///< units/s, >= 0: rest threshold of each tip's speed; 0 -> 1e-3 of
	                              ///< the shortest bone length per second
} spring_chain_desc;

typedef struct spring_chain spring_chain;

/// Tip chains: the same life cycle as spring_chain2d (memory_size, init in caller memory aligned
/// to 16, create with one allocation, destroy; `error` optional, naming the bone and field; the
/// description, its bones and colliders copied, free to go once init or create returns).
SPRING_API size_t spring_chain_memory_size(const spring_chain_desc *desc);
SPRING_API spring_result spring_chain_init(const spring_chain_desc *desc, void *memory, size_t size, spring_chain **out,
                                           spring_error *error);
SPRING_API spring_result spring_chain_create(const spring_chain_desc *desc, spring_chain **out, spring_error *error);
SPRING_API void spring_chain_destroy(spring_chain *chain);

/// Advances by frame_dt with `root` as this frame's root transform (interpolated across the
/// sub-steps: position linearly, rotation by normalised lerp on the shortest path). In every
/// transform given to a tip chain a zero rotation means identity; other rotations are normalised.
SPRING_API spring_result spring_chain_update(spring_chain *chain, spring_xform3 root, float frame_dt);
/// Steps many chains with one frame time; roots[i] drives chains[i]. Every chain, root and the
/// frame time are checked first (as spring_chain_update checks them): on an error no chain moves.
SPRING_API spring_result spring_chain_update_many(spring_chain *const *chains, const spring_xform3 *roots, int count,
                                                  float frame_dt);

/// Teleport by snapping: the chain is put at rest under `root` with zero velocities.
SPRING_API spring_result spring_chain_reset(spring_chain *chain, spring_xform3 root);
/// Rigid teleport keeping the shape and motion relative to the root (see spring_chain2d_teleport).
SPRING_API spring_result spring_chain_teleport(spring_chain *chain, spring_xform3 root);
/// Teleport by a rigid move of the current root: translate by `delta`, or rotate by `rotation`
/// about `pivot` (world space). Same semantics as spring_chain_teleport.
SPRING_API spring_result spring_chain_translate(spring_chain *chain, spring_vec3 delta);
SPRING_API spring_result spring_chain_rotate(spring_chain *chain, spring_quat rotation, spring_vec3 pivot);

/// Animated local transforms (relative to each parent, like rest_local) that replace the rest
/// pose as the rigid reference from the next step on; `count` must equal the bone count; NULL
/// goes back to the rest pose. Not interpolated across sub-steps: set them at the physics rate
/// (as spring_rig does) or accept a held value per frame.
SPRING_API spring_result spring_chain_set_animation(spring_chain *chain, const spring_xform3 *local, int count);
SPRING_API spring_result spring_chain_set_params(spring_chain *chain, int bone, spring_params params);
SPRING_API spring_result spring_chain_set_cone_limit(spring_chain *chain, int bone, float cone_limit);
SPRING_API spring_result spring_chain_set_forces(spring_chain *chain, spring_vec3 gravity, spring_vec3 wind);
/// A bone's own gravity (spring_chain_bone_desc.gravity): NOT_FINITE or OUT_OF_RANGE (a component
/// past SPRING_CHAIN_MAX_ACCELERATION) change nothing.
SPRING_API spring_result spring_chain_set_bone_gravity(spring_chain *chain, int bone, spring_vec3 gravity);
SPRING_API spring_result spring_chain_set_colliders(spring_chain *chain, const spring_chain_collider *colliders, int count);
/// The inherited-motion caps of spring_chain_desc (units/s and rad/s, >= 0, 0 = no cap).
SPRING_API spring_result spring_chain_set_root_limits(spring_chain *chain, float max_root_speed, float max_root_angular_speed);
/// True when the last step ended at exact rest (see "Rest and sleep" above); false for NULL.
SPRING_API bool spring_chain_is_resting(const spring_chain *chain);

/// Number of bones (0 for NULL).
SPRING_API int spring_chain_bone_count(const spring_chain *chain);

/// Snapshots (see base.h): the whole state in a flat blob of spring_chain_snapshot_size bytes;
/// restoring it into a chain made from the same description reproduces the run bit for bit.
SPRING_API size_t spring_chain_snapshot_size(const spring_chain *chain);
SPRING_API spring_result spring_chain_snapshot(const spring_chain *chain, void *blob, size_t size);
SPRING_API spring_result spring_chain_restore(spring_chain *chain, const void *blob, size_t size, spring_error *error);
/// Interpolated world transforms of the bones (bone_count entries) and, optionally, the world
/// tips (bone_count entries). Built root to tip: the interpolated root, then each bone's local
/// transform (relative to its parent) interpolated between the last two steps, so every joint
/// stays on its parent's drawn bone; alpha 0 and 1 give the two stepped poses exactly.
/// `capacity` (entries of each given array) must be at least spring_chain_bone_count; less is
/// SPRING_ERROR_BUFFER_TOO_SMALL (nothing written).
SPRING_API spring_result spring_chain_get_pose(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips, int capacity);
/// The pose of the last physics step itself (no interpolation): for gameplay queries, or to see
/// exactly what the next step's children were built on. `capacity` as spring_chain_get_pose.
SPRING_API spring_result spring_chain_get_stepped_pose(const spring_chain *chain, spring_xform3 *bones, spring_vec3 *tips,
                                                       int capacity);
/// Last stepped (not interpolated) simulated tip and velocity of a bone.
SPRING_API spring_result spring_chain_get_state(const spring_chain *chain, int bone, spring_state_vec3 *tip);
/// The rigid tip (target) of a bone in the last step.
SPRING_API spring_vec3 spring_chain_get_target(const spring_chain *chain, int bone);
SPRING_API const spring_clock *spring_chain_clock(const spring_chain *chain);

// =============================================================================================
// Groups of tip chains
//
// spring_chain_group: `chain_count` tip chains of one shape (one spring_chain_desc) stepped
// together on one clock. Each bone's state is stored across the chains (structure of arrays),
// so a step runs bone by bone over all chains at once and vectorises over the chains. Every
// chain gets exactly the results (bit for bit) of a spring_chain made from the same description
// and driven by the same calls; `make test` checks it over hundreds of frames with different
// roots per chain, hitches, teleports, resets, parameter changes and sleeping chains.
//
// What a group does not take: colliders (desc.collider_count and desc.max_colliders must be 0;
// use single chains for tips that collide). Everything else works as for spring_chain, including
// each chain's own animation (spring_chain_group_set_animation), mode_2d, cone limits, forces,
// the inherited-motion caps and the rest thresholds. Rest and sleep are per chain, with the
// results of single chains; a sleeping chain is computed with the others (the loops run over all
// chains) and put back, so it saves work only when every chain of the group sleeps (then an update
// costs a comparison per chain). The step is vectorised over the chains (SSE2, AVX2 or AVX-512
// chosen at run time, as the batch springs; wasm simd128 when built with -msimd128); the results
// do not depend on the width. No allocation
// after create/init; the group is thread-free (one group per thread, or different groups per thread).

typedef struct spring_chain_group spring_chain_group;

/// The most chains in one group, of either kind (spring_chain_group, spring_chain2d_group): 2^20.
#define SPRING_GROUP_MAX_CHAINS 1048576

/// A group: how many chains of which shape, and where each starts (the same form as
/// spring_chain2d_group_desc).
typedef struct spring_chain_group_desc {
	const spring_chain_desc *chain; ///< the shape and settings of every chain (its `root` is the
	                                ///< start of chains without one in `roots`); not NULL
	int chain_count;                ///< 1 .. SPRING_CHAIN_GROUP_MAX_CHAINS
	const spring_xform3 *roots;     ///< optional: chain_count initial roots (each chain at rest under
	                                ///< its own); NULL -> every chain starts at chain->root
} spring_chain_group_desc;

/// Bytes needed by spring_chain_group_init for this description; 0 if it is invalid.
SPRING_API size_t spring_chain_group_memory_size(const spring_chain_group_desc *desc);
/// Creates a group in caller memory of at least spring_chain_group_memory_size bytes, aligned to 16.
/// `error` (optional) names the field of an invalid description (the same checks as
/// spring_chain_init, plus colliders refused, and each root as a root). The descriptions and
/// their arrays (bones, roots) are copied, free to go once init or create returns.
SPRING_API spring_result spring_chain_group_init(const spring_chain_group_desc *desc, void *memory, size_t size,
                                                 spring_chain_group **out, spring_error *error);
/// Creates a group with one allocation through the allocator hooks.
SPRING_API spring_result spring_chain_group_create(const spring_chain_group_desc *desc, spring_chain_group **out,
                                                   spring_error *error);
/// Frees a group made by spring_chain_group_create (no-op for NULL or caller memory).
SPRING_API void spring_chain_group_destroy(spring_chain_group *group);

#define SPRING_CHAIN_GROUP_MAX_CHAINS SPRING_GROUP_MAX_CHAINS ///< largest chain_count of a group

SPRING_API int spring_chain_group_chain_count(const spring_chain_group *group); ///< 0 for NULL
SPRING_API int spring_chain_group_bone_count(const spring_chain_group *group);  ///< 0 for NULL

/// Advances every chain by frame_dt seconds; `roots` holds chain_count root transforms (chain i
/// follows roots[i], interpolated across the sub-steps as spring_chain_update does). Every root
/// is checked before anything moves: a non-finite or out-of-range root (or frame_dt) returns the
/// error and changes nothing. No allocation.
SPRING_API spring_result spring_chain_group_update(spring_chain_group *group, const spring_xform3 *roots, float frame_dt);

/// One chain's interpolated pose, as spring_chain_get_pose: `bones` and/or `tips` (bone_count
/// entries each, `capacity` >= spring_chain_group_bone_count, else SPRING_ERROR_BUFFER_TOO_SMALL).
SPRING_API spring_result spring_chain_group_get_pose(const spring_chain_group *group, int chain, spring_xform3 *bones,
                                                     spring_vec3 *tips, int capacity);
/// Every chain's interpolated pose: chain c's bone b at [c * bone_count + b] of `bones` and/or
/// `tips`; `capacity` >= chain_count * bone_count (spring_chain_group_chain_count and
/// spring_chain_group_bone_count), else SPRING_ERROR_BUFFER_TOO_SMALL (nothing written).
SPRING_API spring_result spring_chain_group_get_poses(const spring_chain_group *group, spring_xform3 *bones, spring_vec3 *tips,
                                                      int capacity);
/// Last stepped (not interpolated) simulated tip and velocity of one bone of one chain.
SPRING_API spring_result spring_chain_group_get_state(const spring_chain_group *group, int chain, int bone,
                                                      spring_state_vec3 *tip);

/// Per chain, as the spring_chain functions of the same name (`chain` in 0 .. chain_count - 1).
SPRING_API spring_result spring_chain_group_reset(spring_chain_group *group, int chain, spring_xform3 root);
SPRING_API spring_result spring_chain_group_teleport(spring_chain_group *group, int chain, spring_xform3 root);
/// `chain` -1: every chain. Invalid params change nothing.
SPRING_API spring_result spring_chain_group_set_params(spring_chain_group *group, int chain, int bone, spring_params params);
/// `chain` -1: every chain.
SPRING_API spring_result spring_chain_group_set_forces(spring_chain_group *group, int chain, spring_vec3 gravity,
                                                       spring_vec3 wind);
/// spring_chain_set_bone_gravity for chain `chain`; -1: every chain.
SPRING_API spring_result spring_chain_group_set_bone_gravity(spring_chain_group *group, int chain, int bone, spring_vec3 gravity);
/// spring_chain_set_animation for chain `chain` (its own animated locals; NULL: back to the rest
/// pose); -1: every chain. While any chain of the group is animated, a step reads each chain's
/// locals per bone instead of the shared rest pose (7 more floats per bone and chain).
SPRING_API spring_result spring_chain_group_set_animation(spring_chain_group *group, int chain, const spring_xform3 *local,
                                                          int count);
/// True when chain `chain`'s last step ended at exact rest; false for NULL or a bad index.
SPRING_API bool spring_chain_group_is_resting(const spring_chain_group *group, int chain);
/// The group's clock (one for all chains).
SPRING_API const spring_clock *spring_chain_group_clock(const spring_chain_group *group);
/// Snapshots (see base.h) of the whole group: restoring one into a group made from the same
/// description and chain count reproduces the run bit for bit.
SPRING_API size_t spring_chain_group_snapshot_size(const spring_chain_group *group);
SPRING_API spring_result spring_chain_group_snapshot(const spring_chain_group *group, void *blob, size_t size);
SPRING_API spring_result spring_chain_group_restore(spring_chain_group *group, const void *blob, size_t size,
                                                    spring_error *error);

// =============================================================================================
// Groups of angle chains
//
// `spring_chain2d_group`: many angle chains of one shape (one spring_chain2d_desc) stepped
// together, each segment's state stored across the chains (structure of arrays): a frame is
// stepped for a vector of chains at a time (SSE2, AVX2 or AVX-512 chosen at run time on x86-64,
// simd128 in a wasm build made with -msimd128, plain C elsewhere), and the poses are drawn the
// same way. Every chain behaves exactly as a spring_chain2d made
// from the same description and given the same calls: the results are bit-identical (tested over
// hundreds of frames with different roots, hitches, teleports, resets and sleeping chains). The
// chains share the description's settings and one clock (one frame_dt for all); each chain has its
// own root, motion, rest and sleep, and its own parameters, inertia, forces and animated offsets
// once set. A group none of whose chains has offsets pays nothing for them.
// Like the single chain: one allocation at creation (or caller memory), none per frame; a refused
// call changes nothing.

#define SPRING_CHAIN2D_GROUP_MAX_CHAINS SPRING_GROUP_MAX_CHAINS ///< most chains in one group

typedef struct spring_chain2d_group_desc {
	const spring_chain2d_desc *chain; ///< the shape and settings of every chain (its `root` is the
	                                  ///< start of chains without one in `roots`); not NULL
	int chain_count;                  ///< 1 .. SPRING_CHAIN2D_GROUP_MAX_CHAINS
	const spring_xform2 *roots;       ///< optional: chain_count initial roots (scale ignored);
	                                  ///< NULL -> every chain starts at chain->root
} spring_chain2d_group_desc;

typedef struct spring_chain2d_group spring_chain2d_group;

/// Bytes needed by spring_chain2d_group_init for this description (0 if it is invalid).
SPRING_API size_t spring_chain2d_group_memory_size(const spring_chain2d_group_desc *desc);
/// Creates a group in caller memory of at least spring_chain2d_group_memory_size bytes, aligned
/// to 16. `error` (optional) names the field (and segment) of an invalid description. The
/// descriptions and their arrays (segments, roots) are copied, free to go once init or create
/// returns.
SPRING_API spring_result spring_chain2d_group_init(const spring_chain2d_group_desc *desc, void *memory, size_t size,
                                                   spring_chain2d_group **out, spring_error *error);
/// Creates a group with one allocation through the allocator hooks.
SPRING_API spring_result spring_chain2d_group_create(const spring_chain2d_group_desc *desc, spring_chain2d_group **out,
                                                     spring_error *error);
/// Frees a group made by spring_chain2d_group_create (no-op for NULL or caller memory).
SPRING_API void spring_chain2d_group_destroy(spring_chain2d_group *group);

SPRING_API int spring_chain2d_group_chain_count(const spring_chain2d_group *group);   ///< 0 for NULL
SPRING_API int spring_chain2d_group_segment_count(const spring_chain2d_group *group); ///< 0 for NULL
SPRING_API const spring_clock *spring_chain2d_group_clock(const spring_chain2d_group *group);

/// Advances every chain by frame_dt seconds; roots[i] (chain_count entries, finite, within
/// SPRING_CHAIN_MAX_COORDINATE) is chain i's root this frame, as spring_chain2d_update. All or
/// nothing: on any error (a bad root, a bad frame_dt, a step out of float range) no chain changes.
SPRING_API spring_result spring_chain2d_group_update(spring_chain2d_group *group, const spring_xform2 *roots, float frame_dt);

/// Chain `chain`'s interpolated pose, exactly as spring_chain2d_get_pose (its segment count is
/// spring_chain2d_group_segment_count; a smaller `capacity` is SPRING_ERROR_BUFFER_TOO_SMALL).
SPRING_API spring_result spring_chain2d_group_get_pose(const spring_chain2d_group *group, int chain, spring_xform2 *joints,
                                                       float *local_angles, int capacity);
/// Every chain's joints at once: chain i's segment_count + 1 joints (as get_pose) start at
/// joints[i * (segment_count + 1)]; `capacity` must be at least chain_count * (segment_count + 1)
/// (spring_chain2d_group_chain_count, spring_chain2d_group_segment_count), else
/// SPRING_ERROR_BUFFER_TOO_SMALL (nothing written).
SPRING_API spring_result spring_chain2d_group_get_poses(const spring_chain2d_group *group, spring_xform2 *joints, int capacity);
/// Chain `chain`'s stepped state of a segment, as spring_chain2d_get_state.
SPRING_API spring_result spring_chain2d_group_get_state(const spring_chain2d_group *group, int chain, int segment,
                                                        spring_state *world_angle);

/// Per chain, as the spring_chain2d calls of the same name (`chain` in 0 .. chain_count - 1;
/// INVALID_ARGUMENT otherwise; a refused call changes nothing). The settings (set_params,
/// set_inertia, set_forces, set_animation) take `chain` -1 for every chain, as the tip chain
/// group's do.
SPRING_API spring_result spring_chain2d_group_reset(spring_chain2d_group *group, int chain, spring_xform2 root);
SPRING_API spring_result spring_chain2d_group_teleport(spring_chain2d_group *group, int chain, spring_xform2 root);
SPRING_API spring_result spring_chain2d_group_set_params(spring_chain2d_group *group, int chain, int segment,
                                                         spring_params params);
SPRING_API spring_result spring_chain2d_group_set_inertia(spring_chain2d_group *group, int chain, int segment, float inertia);
SPRING_API spring_result spring_chain2d_group_set_forces(spring_chain2d_group *group, int chain, spring_vec2 gravity,
                                                         spring_vec2 wind);
/// Chain `chain`'s (-1: every chain's) animated local angle offsets for the frame submitted by the
/// next update, exactly as spring_chain2d_set_animation: `count` must equal the segment count,
/// every offset finite (NOT_FINITE otherwise); NULL (with count 0 or segment_count) clears them.
/// Kept until changed; snapshots include them.
SPRING_API spring_result spring_chain2d_group_set_animation(spring_chain2d_group *group, int chain, const float *local_offsets,
                                                            int count);
/// True when chain `chain` rests and sleeps (see spring_chain2d_is_resting); false for NULL or a
/// bad index.
SPRING_API bool spring_chain2d_group_is_resting(const spring_chain2d_group *group, int chain);

/// Snapshots (see base.h) of the whole group: restoring one into a group made from the same
/// description reproduces the run bit for bit.
SPRING_API size_t spring_chain2d_group_snapshot_size(const spring_chain2d_group *group);
SPRING_API spring_result spring_chain2d_group_snapshot(const spring_chain2d_group *group, void *blob, size_t size);
SPRING_API spring_result spring_chain2d_group_restore(spring_chain2d_group *group, const void *blob, size_t size,
                                                      spring_error *error);

#ifdef __cplusplus
}
#endif
#endif
