// SPDX-License-Identifier: MIT
/// @file skeleton.h
/// 3D spring skeletons: the spring bones of an avatar (VRM's `VRMC_springBone` and VRM 0.x
/// `secondaryAnimation`, or any node tree with springs hanging from it) described as plain data.
///
/// A skeleton is a tree of nodes with a rest transform each (translation, rotation, scale, as in
/// glTF), springs running down paths of that tree, colliders attached to nodes and collider
/// groups a spring collides with. Each spring is a list of joints, root first; consecutive joints
/// are a bone (the head's settings drive it, the tail is where it points); a joint must be a
/// descendant of the previous one (nodes in between are carried along rigidly). The last joint
/// of a spring is its last tail and has no settings of its own, unless the spring gives an
/// `end_tail`: then the last joint is a bone too, pointing at that virtual tail (VRM 0.x gives
/// every leaf one, 7 cm along its local translation).
///
/// Units are the file's (metres for VRM); rotations are unit quaternions (x, y, z, w).
///
/// spring_skeleton_validate says whether a description is sound, and why not, naming the node,
/// spring, joint or collider at fault; spring_skeleton_create makes the runtime that steps it. The files avatars ship in (`.vrm`,
/// `.glb`, `.gltf`) are read into this description by the `spring::io` component (spring/vrm.h).
#ifndef SPRING_SKELETON_H
#define SPRING_SKELETON_H

#include "spring/base.h"
#include "spring/math.h"
#include "spring/spring.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPRING_SKELETON_MAX_NODES 16384     ///< nodes in one skeleton
#define SPRING_SKELETON_MAX_SPRINGS 1024    ///< springs in one skeleton
#define SPRING_SKELETON_MAX_JOINTS 4096     ///< joints in one skeleton, all springs together
#define SPRING_SKELETON_MAX_COLLIDERS 1024  ///< colliders in one skeleton
#define SPRING_SKELETON_MAX_GROUPS 1024     ///< collider groups in one skeleton
#define SPRING_SKELETON_MAX_DEPTH 1024      ///< levels of the node tree (a root is at level 0)
#define SPRING_SKELETON_MAX_COORDINATE 1e6f ///< largest magnitude of a translation or offset component
#define SPRING_SKELETON_MAX_SCALE 1e6f      ///< largest magnitude of a scale component (and 1 / the smallest)
#define SPRING_SKELETON_MAX_SETTING 1e6f    ///< largest stiffness, gravity power or gravity direction component
#define SPRING_SKELETON_MIN_BONE 1e-6f      ///< shortest bone at rest (world units): a direction needs a length
#define SPRING_SKELETON_DEFAULT_RATE 60.0f  ///< Hz: the rate VRM springs are authored at (one step per 60 fps frame)
#define SPRING_SKELETON_MAX_RATE 10000.0f   ///< Hz: the highest stepping rate

/// A node of the tree. An all-zero rotation means identity, an all-zero scale means (1, 1, 1), so
/// a zero-initialised node sits at its parent's origin; any other rotation is normalised.
typedef struct spring_skeleton_node {
	int parent;              ///< index of the parent node; -1: a root (a child of the model's own root)
	spring_vec3 translation; ///< rest translation in the parent's space
	spring_quat rotation;    ///< rest rotation in the parent's space
	spring_vec3 scale;       ///< rest scale along the node's own axes; no component may be zero
} spring_skeleton_node;

/// The shape of a collider. Inside shapes keep joints within them instead of out of them.
typedef enum spring_skeleton_collider_type {
	SPRING_SKELETON_COLLIDER_SPHERE = 0,     ///< offset: centre; radius
	SPRING_SKELETON_COLLIDER_CAPSULE,        ///< offset and tail: the segment's ends; radius
	SPRING_SKELETON_COLLIDER_PLANE,          ///< offset: a point on the plane; tail: its normal (need not
	                                         ///< be unit, must not be zero); joints stay on its positive side
	SPRING_SKELETON_COLLIDER_INSIDE_SPHERE,  ///< like SPHERE, joints kept inside
	SPRING_SKELETON_COLLIDER_INSIDE_CAPSULE, ///< like CAPSULE, joints kept inside
	SPRING_SKELETON_COLLIDER_COUNT
} spring_skeleton_collider_type;

/// A collider attached to a node; positions are in the node's space (scaled by it).
typedef struct spring_skeleton_collider {
	int node;
	spring_skeleton_collider_type type;
	spring_vec3 offset;
	spring_vec3 tail;
	float radius; ///< >= 0 (unused by PLANE)
} spring_skeleton_collider;

/// A set of colliders a spring collides with.
typedef struct spring_skeleton_collider_group {
	const int *colliders; ///< indices into spring_skeleton_desc.colliders
	int collider_count;   ///< >= 0
} spring_skeleton_collider_group;

/// A joint: a node and the settings of the bone from it to the next joint. The settings are the
/// VRM ones, per step of the authoring rate: `stiffness` pulls the tail back to its rest direction
/// by stiffness / rate per step, `drag` removes that fraction of the tail's velocity each step (1:
/// none kept), `gravity_dir * gravity_power` pulls the tail by gravity_power / rate per step.
/// Zero is a value here, not "unset": a reader fills the file format's defaults in.
typedef struct spring_skeleton_joint {
	int node;
	float stiffness;         ///< in [0, SPRING_SKELETON_MAX_SETTING]
	float drag;              ///< in [0, 1]
	float gravity_power;     ///< in [0, SPRING_SKELETON_MAX_SETTING]
	spring_vec3 gravity_dir; ///< in world space, used as given (VRM runtimes do not normalise it)
	float hit_radius;        ///< the tail's radius against colliders, in [0, SPRING_SKELETON_MAX_COORDINATE]
} spring_skeleton_joint;

/// A spring: joints from its root down.
typedef struct spring_skeleton_spring {
	const spring_skeleton_joint *joints; ///< root first; each a descendant of the one before
	int joint_count;                     ///< >= 2, or >= 1 with has_end_tail; at most SPRING_SKELETON_MAX_JOINTS in all
	bool has_end_tail;                   ///< the last joint is a bone too, pointing at `end_tail`
	spring_vec3 end_tail;                ///< the last joint's virtual tail, in that joint's space (scaled by it)
	int center;                          ///< -1: none; else a node the springs' motion is measured relative to: the first
	                                     ///< joint's node or one of its ancestors, and no other spring's joint
	const int *collider_groups;          ///< indices into spring_skeleton_desc.collider_groups
	int collider_group_count;            ///< >= 0
} spring_skeleton_spring;

/// How a bone's length is set as the skeleton moves.
typedef enum spring_skeleton_length {
	SPRING_SKELETON_LENGTH_REST = 0, ///< constant, from the rest pose (the VRM specification, UniVRM)
	SPRING_SKELETON_LENGTH_MEASURED, ///< re-measured each step from the tail node's previous world
	                                 ///< position (three-vrm), for matching that runtime
	SPRING_SKELETON_LENGTH_COUNT
} spring_skeleton_length;

/// A whole skeleton. The arrays are read during the call they are passed to and may be freed after
/// it.
typedef struct spring_skeleton_desc {
	const spring_skeleton_node *nodes;
	int node_count; ///< in [1, SPRING_SKELETON_MAX_NODES]
	const spring_skeleton_spring *springs;
	int spring_count; ///< in [0, SPRING_SKELETON_MAX_SPRINGS]
	const spring_skeleton_collider *colliders;
	int collider_count; ///< in [0, SPRING_SKELETON_MAX_COLLIDERS]
	const spring_skeleton_collider_group *collider_groups;
	int collider_group_count; ///< in [0, SPRING_SKELETON_MAX_GROUPS]
	float rate;               ///< Hz, the authoring rate the settings are per step of; 0: 60 Hz
	spring_skeleton_length length;
} spring_skeleton_desc;

/// Checks a description: every count within its limit, every number finite and in its range,
/// every index in range; the node tree free of cycles; each joint a descendant of the joint before
/// it; no node a joint twice (in one spring or two); a centre that is the first joint or its
/// ancestor and no other spring's joint; every bone longer than SPRING_SKELETON_MIN_BONE at rest.
/// Returns SPRING_OK, or INVALID_ARGUMENT (NULL desc, a count, index or enum out of range, NULL
/// array with a positive count), NOT_FINITE, OUT_OF_RANGE, BAD_DEFINITION (the tree or a spring
/// is inconsistent), with `error` (optional) naming the element: a node, spring and joint, a
/// collider or a collider group.
SPRING_API spring_result spring_skeleton_validate(const spring_skeleton_desc *desc, spring_error *error);

/// A column-major 4x4 matrix (glTF's `matrix`, three.js's `Matrix4.elements`: m[12..14] the
/// translation) as the translation, rotation and scale of `node` (its parent untouched). False,
/// with `node` unchanged, when it is not one: a number not finite, a last row other than (0, 0, 0,
/// 1), an axis shorter than 1e-12, a shear (axes not orthogonal within 1e-4). A mirror is put on
/// the x scale.
SPRING_API bool spring_skeleton_node_from_matrix(const double matrix[16], spring_skeleton_node *node);

/// @name The runtime
/// A spring skeleton stepped at its authoring rate: each step is the VRM specification's update
/// (root to tip: inertia kept by 1 - drag, a pull of stiffness / rate back to the rest direction,
/// gravity_power / rate along gravity_dir, the tail put back at the bone's length, pushed out of
/// each collider of the spring's groups and put back at the length again), so at 60 Hz an avatar
/// moves as it was authored, at whatever rate the host renders: frame times go through a
/// spring_clock (fixed steps of 1 / rate, at most 64 a frame), the host's pose is interpolated
/// across the steps of a frame, and the output is interpolated between the last two steps
/// (spring_skeleton_get_pose) or taken at the last step (spring_skeleton_get_stepped_pose, for a
/// host whose frames coincide with the steps).
///
/// The host's pose is every node's local translation and rotation (`locals`, node_count of them;
/// scale stays the rest scale) and the model root's transform. The springs own their joints'
/// rotations: what `locals` gives for a bone's head node is ignored. Each call checks its input
/// first and changes nothing when it refuses it. Nothing allocates after creation.
/// @{
#define SPRING_SKELETON_MAX_STEPS 64 ///< steps one update may run (the rest of a long frame is dropped)

typedef struct spring_skeleton spring_skeleton;

/// Bytes spring_skeleton_init needs (0 when the description is invalid).
SPRING_API size_t spring_skeleton_memory_size(const spring_skeleton_desc *desc);
/// Builds a skeleton in caller memory (16-byte aligned, spring_skeleton_memory_size bytes), at
/// rest in its rest pose. The description's arrays may be freed afterwards.
SPRING_API spring_result spring_skeleton_init(const spring_skeleton_desc *desc, void *memory, size_t size, spring_skeleton **out,
                                              spring_error *error);
/// The same in memory from the library's allocator (spring_set_allocator).
SPRING_API spring_result spring_skeleton_create(const spring_skeleton_desc *desc, spring_skeleton **out, spring_error *error);
SPRING_API void spring_skeleton_destroy(spring_skeleton *skeleton);

/// Every bone at rest under the pose (tails where the rest pose puts them, no velocity) and the
/// clock cleared. `count` must equal the node count (INVALID_ARGUMENT); a NaN or infinite value
/// gives NOT_FINITE, a coordinate beyond SPRING_SKELETON_MAX_COORDINATE or a zero rotation
/// OUT_OF_RANGE.
SPRING_API spring_result spring_skeleton_reset(spring_skeleton *skeleton, spring_xform3 root, const spring_xform3 *locals,
                                               int count);
/// One frame: `frame_dt` seconds (finite, >= 0) later the host's pose is this one. Runs the steps
/// that fall in the frame, the pose interpolated from the previous frame's. Errors as reset.
SPRING_API spring_result spring_skeleton_update(spring_skeleton *skeleton, spring_xform3 root, const spring_xform3 *locals,
                                                int count, float frame_dt);
/// The whole avatar jumped: every tail moves rigidly with the model root from its last transform
/// to `root`, velocities turn with it, and the pose becomes this one without interpolation.
SPRING_API spring_result spring_skeleton_teleport(spring_skeleton *skeleton, spring_xform3 root, const spring_xform3 *locals,
                                                  int count);

/// Bones: every joint with a tail (a spring's last joint is one only with an end tail), springs in
/// the description's order, each spring's joints in order.
SPRING_API int spring_skeleton_bone_count(const spring_skeleton *skeleton);
/// The pose interpolated between the last two steps: for each bone its head node (`nodes`), that
/// node's local rotation to write back (`rotations`) and the tail's world position (`tails`); any
/// of the three may be NULL. `capacity` must reach spring_skeleton_bone_count (BUFFER_TOO_SMALL).
SPRING_API spring_result spring_skeleton_get_pose(const spring_skeleton *skeleton, int *nodes, spring_quat *rotations,
                                                  spring_vec3 *tails, int capacity);
/// The same at the last step itself.
SPRING_API spring_result spring_skeleton_get_stepped_pose(const spring_skeleton *skeleton, int *nodes, spring_quat *rotations,
                                                          spring_vec3 *tails, int capacity);
/// Each bone's length at rest (world units, the model root at identity): the constant length of
/// SPRING_SKELETON_LENGTH_REST. `capacity` must reach spring_skeleton_bone_count.
SPRING_API spring_result spring_skeleton_get_rest_lengths(const spring_skeleton *skeleton, float *lengths, int capacity);
/// True when the last step moved no tail by more than 1e-6 of its bone's length (and after
/// creation, reset and teleport). Rest and sleep: once a step has found the skeleton at rest, a
/// frame whose pose (root and every needed node) is the last frame's, number for number, runs no
/// steps for it: its state and outputs stay exactly as they are (where the steps would creep
/// towards the fixed point below that threshold), until the pose changes. A skeleton placed at
/// rest by creation, reset or teleport steps first (gravity may not let the rest pose be at rest).
SPRING_API bool spring_skeleton_is_resting(const spring_skeleton *skeleton);
/// Snapshots (base.h, "Snapshots"): the whole state (clock, the poses being interpolated, every
/// bone's tail, velocity and rotation) after the 32-byte header; restoring and stepping reproduces
/// the run bit for bit. Restore refuses a blob of another skeleton (another tree, bones, rate or
/// setting) with INVALID_ARGUMENT and one holding a value the steps never produce (NaN, a position
/// beyond range, a quaternion not of length 1, a bad clock) with NOT_FINITE or OUT_OF_RANGE, and
/// then changes nothing.
SPRING_API size_t spring_skeleton_snapshot_size(const spring_skeleton *skeleton);
SPRING_API spring_result spring_skeleton_snapshot(const spring_skeleton *skeleton, void *blob, size_t size);
SPRING_API spring_result spring_skeleton_restore(spring_skeleton *skeleton, const void *blob, size_t size, spring_error *error);
/// The skeleton's clock (step 1 / rate).
SPRING_API const spring_clock *spring_skeleton_clock(const spring_skeleton *skeleton);
/// The host's pose from world matrices, for a host whose animation gives those: `root_world` the
/// model root's and `worlds + 16 * node` each node's (column-major 4x4 floats, as
/// spring_skeleton_node_from_matrix reads them; `count` must equal the node count) into `root` and
/// `locals` as spring_skeleton_update takes them: each node's transform relative to its parent's
/// world (a root node's to the model root's). Scales are dropped: the skeleton keeps its rest
/// scales (so the host's scales should be those). INVALID_ARGUMENT for a NULL or a wrong count,
/// NOT_FINITE, OUT_OF_RANGE for a matrix that is not a translation, rotation and scale; then
/// nothing is written.
SPRING_API spring_result spring_skeleton_pose_from_world(const spring_skeleton *skeleton, const float *root_world,
                                                         const float *worlds, int count, spring_xform3 *root,
                                                         spring_xform3 *locals);
/// @}

/// @name Crowds: many instances of one model
/// A crowd holds `count` instances of one skeleton description: the model (tree, bones,
/// colliders) is stored once, and the instances are stepped side by side, four at a time in the
/// lanes of vector instructions. Each instance moves exactly as a spring_skeleton of the same
/// description given the same calls would, bit for bit; they share one clock (one frame time for
/// all). Poses go in as arrays over the instances: `roots[i]` and `locals[i * node_count + node]`.
/// Each call checks all its input first and changes nothing when it refuses it. Nothing
/// allocates after creation.
/// @{
#define SPRING_SKELETON_MAX_INSTANCES 65536 ///< instances in one crowd

typedef struct spring_skeleton_crowd spring_skeleton_crowd;

/// A crowd: the model every instance is and how many there are.
typedef struct spring_skeleton_crowd_desc {
	const spring_skeleton_desc *skeleton; ///< read during init/create only
	int count;                            ///< instances, in [1, SPRING_SKELETON_MAX_INSTANCES]
} spring_skeleton_crowd_desc;

/// Bytes spring_skeleton_crowd_init needs (0 when the description is invalid).
SPRING_API size_t spring_skeleton_crowd_memory_size(const spring_skeleton_crowd_desc *desc);
/// Builds a crowd in caller memory (16-byte aligned, spring_skeleton_crowd_memory_size bytes),
/// every instance at rest in the rest pose.
SPRING_API spring_result spring_skeleton_crowd_init(const spring_skeleton_crowd_desc *desc, void *memory, size_t size,
                                                    spring_skeleton_crowd **out, spring_error *error);
/// The same in memory from the library's allocator (spring_set_allocator).
SPRING_API spring_result spring_skeleton_crowd_create(const spring_skeleton_crowd_desc *desc, spring_skeleton_crowd **out,
                                                      spring_error *error);
SPRING_API void spring_skeleton_crowd_destroy(spring_skeleton_crowd *crowd);
SPRING_API int spring_skeleton_crowd_count(const spring_skeleton_crowd *crowd);
/// Bones per instance (spring_skeleton_bone_count).
SPRING_API int spring_skeleton_crowd_bone_count(const spring_skeleton_crowd *crowd);

/// Every instance at rest under its pose and the clock cleared (spring_skeleton_reset). `count`
/// is the node count of one instance.
SPRING_API spring_result spring_skeleton_crowd_reset(spring_skeleton_crowd *crowd, const spring_xform3 *roots,
                                                     const spring_xform3 *locals, int count);
/// One instance at rest under its pose; the others and the clock go on. OUT_OF_RANGE for an
/// instance outside [0, count).
SPRING_API spring_result spring_skeleton_crowd_reset_instance(spring_skeleton_crowd *crowd, int instance, spring_xform3 root,
                                                              const spring_xform3 *locals, int count);
/// One frame of every instance (spring_skeleton_update).
SPRING_API spring_result spring_skeleton_crowd_update(spring_skeleton_crowd *crowd, const spring_xform3 *roots,
                                                      const spring_xform3 *locals, int count, float frame_dt);
/// One instance jumped (spring_skeleton_teleport).
SPRING_API spring_result spring_skeleton_crowd_teleport(spring_skeleton_crowd *crowd, int instance, spring_xform3 root,
                                                        const spring_xform3 *locals, int count);
/// One instance's pose, interpolated or at the last step (spring_skeleton_get_pose,
/// spring_skeleton_get_stepped_pose).
SPRING_API spring_result spring_skeleton_crowd_get_pose(const spring_skeleton_crowd *crowd, int instance, int *nodes,
                                                        spring_quat *rotations, spring_vec3 *tails, int capacity);
SPRING_API spring_result spring_skeleton_crowd_get_stepped_pose(const spring_skeleton_crowd *crowd, int instance, int *nodes,
                                                                spring_quat *rotations, spring_vec3 *tails, int capacity);
/// Whether one instance rested at the last step (false for an instance out of range).
SPRING_API bool spring_skeleton_crowd_is_resting(const spring_skeleton_crowd *crowd, int instance);
/// Snapshots of the whole crowd: the clock, then each instance as a spring_skeleton snapshot holds
/// it (a crowd of one and a spring_skeleton of the same description take each other's blobs).
SPRING_API size_t spring_skeleton_crowd_snapshot_size(const spring_skeleton_crowd *crowd);
SPRING_API spring_result spring_skeleton_crowd_snapshot(const spring_skeleton_crowd *crowd, void *blob, size_t size);
SPRING_API spring_result spring_skeleton_crowd_restore(spring_skeleton_crowd *crowd, const void *blob, size_t size,
                                                       spring_error *error);
/// The crowd's clock.
SPRING_API const spring_clock *spring_skeleton_crowd_clock(const spring_skeleton_crowd *crowd);
/// One instance's pose from world matrices (spring_skeleton_pose_from_world); write it at
/// `roots + i` and `locals + i * count` for instance i.
SPRING_API spring_result spring_skeleton_crowd_pose_from_world(const spring_skeleton_crowd *crowd, const float *root_world,
                                                               const float *worlds, int count, spring_xform3 *root,
                                                               spring_xform3 *locals);
/// @}

#ifdef __cplusplus
}
#endif
#endif
