// SPDX-License-Identifier: MIT
/// @file vrm.h
/// VRM avatars' spring bones, read into a spring skeleton (spring/skeleton.h), and the drive
/// motions the command line and the conformance tests play on them.
///
/// Part of the optional component `spring::io` (spring/io.h says how to link it). Reads `.vrm`,
/// `.glb` (the glTF binary container: only its JSON chunk is read; the springs need no buffer)
/// and `.gltf` (JSON): the node tree (translation, rotation, scale, or a matrix), the scene's
/// root nodes, and
///
/// - `extensions.VRMC_springBone` 1.0: springs, joints, colliders (sphere, capsule), collider
///   groups, centre; each collider's `VRMC_springBone_extended_collider` 1.0 (inside sphere,
///   inside capsule, plane) replaces its fallback shape;
/// - VRM 0.x `extensions.VRM.secondaryAnimation`: every bone group's roots and all their
///   descendants are joints; a node's tail is its first child; a leaf gets a virtual tail 7 cm
///   along its own local translation; collider offsets are read as (x, y, -z) (VRM 0.x wrote
///   them in Unity's left-handed frame); `gravityDir` is used as written.
///
/// Missing fields take the schema's defaults: hitRadius 0, stiffness 1, gravityPower 0,
/// gravityDir (0, -1, 0), dragForce 0.5 (three-vrm uses 0.4; UniVRM and the schema 0.5).
///
/// Errors name the file, the JSON path and the reason, like the rig reader's:
///
///     avatar.vrm: $.extensions.VRMC_springBone.springs[2].joints[1].node: node 17 is not a
///     descendant of the previous joint's node 12
///
/// On any error nothing is created and `*out` is left untouched.
#ifndef SPRING_VRM_H
#define SPRING_VRM_H

#include "spring/io.h"
#include "spring/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPRING_VRM_FILE_MAX_BYTES (64u * 1024u * 1024u) ///< largest JSON document (a .gltf, or a .glb's JSON chunk)
#define SPRING_VRM_MAX_NAME 127                         ///< bytes of a node name kept (longer ones are cut)
#define SPRING_VRM_LEAF_TAIL 0.07f                      ///< metres: a VRM 0.x leaf's virtual tail

/// Which spring-bone extension a model was read from.
typedef enum spring_vrm_format {
	SPRING_VRM_FORMAT_NONE = 0, ///< no spring bones (a plain glTF): a skeleton without springs
	SPRING_VRM_FORMAT_1_0,      ///< VRMC_springBone 1.0
	SPRING_VRM_FORMAT_0_X,      ///< VRM 0.x secondaryAnimation
	SPRING_VRM_FORMAT_COUNT
} spring_vrm_format;

/// A model read from a file: its skeleton description and its node names. Owns all memory the
/// description points to.
typedef struct spring_vrm_file spring_vrm_file;

/// Reads a `.vrm`, `.glb` or `.gltf` file (the container is recognised by its first bytes, not by
/// its name). `error` is optional. Returns SPRING_OK, or INVALID_ARGUMENT (NULL filename or out,
/// an unreadable file), OUT_OF_RANGE (a JSON document beyond SPRING_VRM_FILE_MAX_BYTES, or a count
/// beyond a skeleton limit), OUT_OF_MEMORY, BAD_DEFINITION (anything else wrong in the contents,
/// including a container whose lengths disagree with the file), or the code
/// spring_skeleton_validate gives the result, mapped to the JSON path it comes from.
spring_result spring_vrm_load_file(const char *filename, spring_vrm_file **out, spring_file_error *error);

/// The same from memory (`size` bytes of a .vrm/.glb or of glTF JSON, not NUL-terminated).
/// `name_for_errors` (NULL: "<memory>") is what errors call it.
spring_result spring_vrm_load_memory(const void *bytes, size_t size, const char *name_for_errors, spring_vrm_file **out,
                                     spring_file_error *error);

/// Frees a model (NULL is ignored).
void spring_vrm_file_destroy(spring_vrm_file *file);

/// The skeleton: valid (spring_skeleton_validate passes), rate 0 (60 Hz) and the constant bone
/// length; copy it to change those. Lives as long as the file object.
const spring_skeleton_desc *spring_vrm_file_desc(const spring_vrm_file *file);

/// The spring-bone extension the model was read from.
spring_vrm_format spring_vrm_file_format(const spring_vrm_file *file);

/// A node's name: the glTF `name` as written in the file when no other node has it, else
/// "#INDEX" (the glTF node index; also for nodes without a name, and for names that start with
/// '#' or are "$root", which motions use for the model's root). NULL for an index out of range.
const char *spring_vrm_file_node_name(const spring_vrm_file *file, int node);

/// The node a name (as spring_vrm_file_node_name gives it) refers to; -1 when none.
int spring_vrm_file_find_node(const spring_vrm_file *file, const char *name);

/// @name Motions
/// A drive motion: keyed local translations and rotations of a model's nodes over time, the input
/// `spring simulate MODEL --motion` and the conformance tests play. JSON:
///
///     {"duration": 4, "tracks": [{"node": "$root", "translation": [[0, 0, 0, 0], [1, 0.2, 0, 0]],
///                                 "rotation": [[0, 0, 0, 0, 1], [1, 0, 0.38, 0, 0.92]]}]}
///
/// A key is [t, x, y, z] or [t, x, y, z, w] (times in seconds, increasing within a track). A track
/// replaces its node's rest translation and/or rotation (in the parent's space): translation
/// interpolated linearly, rotation by shortest-arc slerp of the normalised keys, the end values held
/// before the first and after the last key. `"$root"` is the model's own root, a parent of every
/// root node, identity at rest. Nodes are named as spring_vrm_file_node_name gives them. A track
/// on a spring joint (a node the springs move) is an error, and so is a node named twice.
/// @{
#define SPRING_VRM_MOTION_MAX_KEYS 1000000     ///< keys in one motion, all tracks together
#define SPRING_VRM_MOTION_MAX_DURATION 3600.0f ///< seconds

typedef struct spring_vrm_motion spring_vrm_motion;

/// Reads a motion for `model` (the motion copies what it needs: the model may be destroyed first).
/// Returns SPRING_OK, or INVALID_ARGUMENT (NULL arguments, an unreadable file), OUT_OF_RANGE (too
/// big), OUT_OF_MEMORY or BAD_DEFINITION, with the JSON path in `error` (optional).
spring_result spring_vrm_motion_load_file(const char *filename, const spring_vrm_file *model, spring_vrm_motion **out,
                                          spring_file_error *error);
spring_result spring_vrm_motion_load_json(const char *text, size_t length, const char *name_for_errors,
                                          const spring_vrm_file *model, spring_vrm_motion **out, spring_file_error *error);
void spring_vrm_motion_destroy(spring_vrm_motion *motion);

/// The motion's duration in seconds.
float spring_vrm_motion_duration(const spring_vrm_motion *motion);

/// The pose at time `t` (clamped to [0, duration]): each node's local transform (its rest
/// transform where no track moves it; scale is not animated and not written) into `locals`
/// (`capacity` >= the model's node_count, else BUFFER_TOO_SMALL), and the model root's transform
/// into `root` (optional). Computed in double, rounded once.
spring_result spring_vrm_motion_sample(const spring_vrm_motion *motion, double t, spring_xform3 *root, spring_xform3 *locals,
                                       int capacity);
/// @}

#ifdef __cplusplus
}
#endif
#endif
