// SPDX-License-Identifier: MIT
// Private layer of both chain kinds (spring_chain2d, spring_chain) for the library and white-box
// tests (not installed): the pieces the two share (chain_common.c) and the entry points the rig
// drives at its own fixed step.
//
// Stepping from outside: spring_chain2d_internal_step, spring_chain_internal_step and
// spring_chain_internal_step2d each run exactly one fixed step of the chain's own length
// (its clock's `step`) with the root and animation of that step, keeping the previous stepped
// state for interpolation. The frame-level *_update functions are the clock loop around the
// same step, so both paths run one code. A direct step does not advance the chain's clock (the
// caller's clock is the time base) and sets the root the next frame-level update interpolates
// from. Read the result with the stepped readers below (or get_state), not with get_pose
// (interpolated by the chain's own clock).
//
// Animation arguments of the direct steps: non-NULL is the animation of this step only (the
// animation stored by *_set_animation is neither used nor changed); NULL uses the stored one.
#ifndef SPRING_CHAIN_INTERNAL_H
#define SPRING_CHAIN_INTERNAL_H

#include "spring/chain.h"

#include "base_internal.h"

// ---------------------------------------------------------------------------------------------
// Shared by both kinds (chain_common.c)

/// True when a parameter block means "not set": all three fields compare equal to zero.
int spring_chain_internal_params_unset(spring_params p);

/// The chain's default spring: `given` when set (validated), otherwise 2 Hz, ratio 0.3.
spring_result spring_chain_internal_base_params(spring_params given, spring_params *out);

/// The parameters bone (segment) `i` of `n` is stepped with: `own` when set (validated);
/// otherwise the root-to-tip gradient from the chain's `chain` (resolved by
/// spring_chain_internal_base_params) to `tip`: exactly the base at bone 0, exactly `tip` at the
/// last bone, in between natural frequency and damping ratio interpolated linearly in double and
/// the spring rebuilt with mass 1. Without `tip` (unset) or with one bone: the base.
spring_result spring_chain_internal_bone_params(spring_params own, spring_params chain, spring_params tip, int i, int n,
                                                spring_params *out);

/// The exact one-step transition of `p` at `step`; SPRING_ERROR_UNSTABLE when `integrator` is
/// semi-implicit and (p, step) is outside its stability region. `*out` untouched on error.
spring_result spring_chain_internal_stepper(spring_integrator integrator, spring_params p, float step, spring_stepper *out);

// ---------------------------------------------------------------------------------------------
// spring_chain2d

/// The parameters a segment is stepped with: its own when set, otherwise the chain's gradient
/// or default. All zero for a NULL chain or a segment out of range.
spring_params spring_chain2d_internal_params(const spring_chain2d *chain, int segment);

/// spring_chain2d_get_pose at an explicit interpolation factor `alpha` in [0, 1] between the
/// last two steps (get_pose passes the clock's alpha; 1 gives the last stepped state).
spring_result spring_chain2d_internal_pose(const spring_chain2d *chain, float alpha, spring_xform2 *joints, float *local_angles,
                                           int capacity);

/// One fixed step under `root` (position and angle; scale ignored) with `anim_offsets`
/// (segment_count local angle offsets added to the rest angles, or NULL: the stored ones).
/// SPRING_ERROR_INVALID_ARGUMENT for a NULL chain, SPRING_ERROR_NOT_FINITE for a non-finite
/// root or offset (nothing changes then). Identical to the step a frame-level update runs when
/// its interpolated root and offsets are these.
spring_result spring_chain2d_internal_step(spring_chain2d *chain, spring_xform2 root, const float *anim_offsets);

/// The last stepped world angle of every segment (segment_count floats, radians in (-pi, pi]):
/// a copy, no interpolation, no trigonometry. `capacity` must be at least segment_count.
spring_result spring_chain2d_internal_stepped_angles(const spring_chain2d *chain, float *world_angles, int capacity);

// ---------------------------------------------------------------------------------------------
// spring_chain

/// One fixed step under `*root` (finite, a zero rotation meaning identity; normalised here) with `anim_local`
/// (bone_count local transforms like spring_chain_set_animation's, rotations normalised here, or
/// NULL: the stored animation or the rest pose). SPRING_ERROR_INVALID_ARGUMENT for a NULL chain
/// or root, SPRING_ERROR_NOT_FINITE / SPRING_ERROR_OUT_OF_RANGE as set_animation and update
/// (nothing changes then). Bit-identical to set_animation(anim_local) followed by an update
/// whose one step is at this root (an update interpolates its roots: see the tests).
spring_result spring_chain_internal_step(spring_chain *chain, const spring_xform3 *root, const spring_xform3 *anim_local);

/// The same step for a chain made with mode_2d, in 2D without quaternions: `root` and
/// `anim_local` (bone_count local transforms: position and angle, scale ignored; NULL: the stored
/// animation or the rest pose, whose rotations must be about z) as spring_xform2. The same
/// results as spring_chain_internal_step with the matching 3D transforms to float rounding, not
/// bit for bit. SPRING_ERROR_INVALID_ARGUMENT for a NULL chain or a chain without mode_2d,
/// SPRING_ERROR_NOT_FINITE for a non-finite root or animation (nothing changes then).
spring_result spring_chain_internal_step2d(spring_chain *chain, spring_xform2 root, const spring_xform2 *anim_local);

/// The last stepped world transform of every bone in 2D (bone_count entries: position = the
/// bone's pivot, angle = the world angle of its x axis in (-pi, pi], scale 1), no interpolation.
/// After a 2D step this is one atan2 per bone; after a 3D step (or a reset) it is read from the
/// quaternions. SPRING_ERROR_INVALID_ARGUMENT for a NULL chain or output, or a chain without mode_2d.
spring_result spring_chain_internal_stepped_pose2d(const spring_chain *chain, spring_xform2 *world_out);

/// Allows (the default) or forbids skipping the steps of a sleeping chain; forbidden, every step
/// runs the physics, which must give bit-identical results (the tests compare the two).
void spring_chain_internal_set_sleep(spring_chain *chain, bool allowed);

/// How many fixed steps ran the physics since creation (skipped sleeping steps do not count).
long long spring_chain_internal_steps_run(const spring_chain *chain);

/// spring_chain_get_pose at an explicit interpolation factor `alpha` in [0, 1] between the last
/// two steps (1: the stepped pose, 0: the one before).
spring_result spring_chain_internal_pose(const spring_chain *chain, float alpha, spring_xform3 *bones, spring_vec3 *tips,
                                         int capacity);

// ---------------------------------------------------------------------------------------------
// Lanes of tip chains (spring_chain_group, chain_group.c)
//
// A block holding `lanes` spring_chain headers side by side (the group's members, each a full
// spring_chain whose per-bone state is its lane of planes shared by all) after `offset` bytes of
// the caller's own header. Every spring_chain function that takes a chain works on a member
// (its per-lane state); spring_chain_internal_update_lanes steps all members at once.

/// Bytes after `offset` that spring_chain_internal_lanes_init needs for `lanes` (>= 1) chains of
/// `desc`; 0 for an invalid description.
size_t spring_chain_internal_lanes_size(const spring_chain_desc *desc, int lanes, size_t offset);

/// Builds the members in `block` from byte `offset` on (16-aligned block, sized as above), each
/// at rest under desc->root. Errors as spring_chain_init (nothing checked about memory).
spring_result spring_chain_internal_lanes_init(const spring_chain_desc *desc, int lanes, void *block, size_t offset,
                                               spring_error *error);

/// Member `lane` of the lanes whose member 0 is `first`.
spring_chain *spring_chain_internal_lane(spring_chain *first, int lane);
/// spring_chain_set_animation for member `lane` of the lanes whose member 0 is `first` (a single
/// chain: itself, lane 0): the same checks and meaning, the animation kept in the lane's own slots
/// for a group (and counted in first's animated_lanes). A refused call changes nothing.
spring_result spring_chain_internal_set_lane_animation(spring_chain *first, int lane, const spring_xform3 *local, int count);
/// spring_chain_set_bone_gravity for member `lane` of the lanes whose member 0 is `first` (counted
/// in the member's bone_gravity and first's gravity_lanes). A refused call changes nothing.
spring_result spring_chain_internal_set_lane_bone_gravity(spring_chain *first, int lane, int bone, spring_vec3 gravity);
/// The check a chain's root gets (finite, the position within SPRING_CHAIN_MAX_COORDINATE; a zero
/// rotation means identity, written back): for a group's initial roots.
spring_result spring_chain_internal_accept_root(spring_xform3 *root);

/// The frame update of all `lanes` members on `clock`, roots[j] driving member j: exactly what
/// spring_chain_update does to each (bit for bit). Every root is checked before anything changes.
spring_result spring_chain_internal_update_lanes(spring_chain *first, int lanes, spring_clock *clock, const spring_xform3 *roots,
                                                 float frame_dt);

/// spring_chain_internal_pose of every member at `alpha` into bones / tips (either may be NULL,
/// not both; lanes * bone_count entries each, member j's bone i at [j * bone_count + i]): the
/// same bits, computed bone by bone across the members when alpha is 0 or 1.
spring_result spring_chain_internal_lanes_pose(const spring_chain *first, int lanes, float alpha, spring_xform3 *bones,
                                               spring_vec3 *tips);

/// How the kernels read bone `bone`'s transition in the lanes whose member 0 is `first`: 1 when
/// every lane has the same bits (one shared row), 0 when they differ (each lane's own), 2 when a
/// lane's changed since the last frame update compared them (each lane's own until the next one
/// does); -1 for a NULL `first`, a single chain or a bone out of range.
int spring_chain_internal_lanes_transition(const spring_chain *first, int bone);

/// Bytes from the group's start to chain `chain`'s member header (white-box tests: a snapshot's
/// body holds the group at the same offsets); 0 for NULL or a bad index.
size_t spring_chain_group_internal_member_offset(const spring_chain_group *group, int chain);
/// spring_chain_internal_lanes_transition of a group's chains (white-box tests); -1 for NULL.
int spring_chain_group_internal_transition(const spring_chain_group *group, int bone);

/// Accepts `image` (a chain's block read from a snapshot, any alignment; a group member's image at
/// the member's header) for the live chain `live` only when it is a state `live` could reach by its
/// own calls (see base.h, Snapshots); otherwise fills `error` (object "chain").
spring_result spring_chain_internal_check_image(const spring_chain *live, const unsigned char *image, spring_error *error);
/// The same for a group's `lanes` members from `first` (image at first's header): each member, the
/// bones' shared transitions and the padding lanes (object "chain_group").
spring_result spring_chain_internal_check_lanes_image(const spring_chain *first, int lanes, const unsigned char *image,
                                                      spring_error *error);
/// Zeroes the scratch (a frame's workspace, written before it is read) in `image`, a snapshot's copy
/// of the block of `first` at first's header: snapshots store it as zeros and restore requires them.
void spring_chain_internal_clear_scratch(const spring_chain *first, unsigned char *image);
/// The hash of a chain's layout a snapshot's header carries (its array offsets and counts).
uint64_t spring_chain_internal_shape(const spring_chain *c);
/// Bytes of the block `first` (a single chain, or a group's member 0) lives in, from its start.
size_t spring_chain_internal_block_total(const spring_chain *first);

#endif
