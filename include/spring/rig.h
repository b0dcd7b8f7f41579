// SPDX-License-Identifier: MIT
/// @file rig.h
/// A 2D skeletal rig whose per-frame order is the library's structure:
///
///     for each fixed physics step (spring_clock):
///         sample the keyframe clips at the step's time          (base pose)
///         solve IK on that pose                                  (final bone angles)
///         compute world transforms, root to tip
///         run the spring chains on that final pose, root to tip  (secondary motion, last)
///     interpolate the output between the last two steps by alpha
///
/// Springs always layer on the pose already finalised for the step, so IK can never overwrite
/// them, and clips are sampled at step times (not frame times), so the result is the same at any
/// frame rate. Teleports and resets are explicit calls; so is acting on the clip events the
/// library defines (spring_rig_apply_events: a "teleport" event teleports). One allocation at
/// creation (or caller memory sized by a query); nothing allocates in update.
///
/// Conventions: angles in radians (counter-clockwise), lengths in rig units, bones listed parent
/// before child. A bone's local transform is relative to its parent (the rig root for a root
/// bone); its length runs along its local +x axis.
#ifndef SPRING_RIG_H
#define SPRING_RIG_H

#include "chain.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPRING_RIG_MAX_BONES 512
#define SPRING_RIG_MAX_CLIPS 64
#define SPRING_RIG_MAX_TRACKS 2048 ///< per clip
#define SPRING_RIG_MAX_KEYS 65536  ///< per track
#define SPRING_RIG_MAX_EVENTS 1024 ///< per clip
/// Keys of every track of every clip together (2^24: 512 MiB of keys; each track within
/// SPRING_RIG_MAX_KEYS). A rig may share one key array between tracks; its copy holds every key.
#define SPRING_RIG_MAX_TOTAL_KEYS 16777216
#define SPRING_RIG_MAX_IK 64
#define SPRING_RIG_MAX_CHAINS 64
#define SPRING_RIG_MAX_NAME 63 ///< bytes, excluding the terminator
/// Largest magnitude of a length, position, scale, key value, time or radius in a rig
/// description (rig units or seconds).
#define SPRING_RIG_MAX_COORDINATE 1e6f
/// Largest distance from the origin any bone (pivot or tip) may reach, rig units. Scales multiply
/// down the hierarchy, so a rig whose clips could carry a bone beyond it (40 nested bones of scale
/// 10, say) is refused at creation, naming the first such bone, and a root that would carry one
/// beyond it is refused by spring_rig_set_root and spring_rig_teleport.
#define SPRING_RIG_MAX_REACH 1e12f
/// Largest distance from the origin any bone of a spring chain may reach, rig units: the chains
/// take coordinates up to SPRING_CHAIN_MAX_COORDINATE (1e6), less 1,000 units left for the
/// rounding of the bones' world transforms. A rig with chains is placed (its description's root,
/// spring_rig_set_root, spring_rig_teleport) only where every bone of every chain, under any
/// clip, stays within it; spring_rig_check_root says which chain would not.
#define SPRING_RIG_CHAIN_MAX_REACH 999000.0f

// ---------------------------------------------------------------------------------------------
// Skeleton

typedef struct spring_rig_bone_desc {
	const char *name;    ///< unique, 1..63 bytes
	const char *parent;  ///< name of the parent bone, listed earlier; NULL for a root bone
	float length;        ///< >= 0, along local +x
	spring_xform2 setup; ///< local setup transform (position, rotation, scale; scale 0,0 -> 1,1)
} spring_rig_bone_desc;

// ---------------------------------------------------------------------------------------------
// Clips

typedef enum spring_rig_curve {
	SPRING_RIG_CURVE_LINEAR = 0, ///< straight to the next key
	SPRING_RIG_CURVE_STEPPED,    ///< holds this key's value until the next key
	SPRING_RIG_CURVE_BEZIER,     ///< CSS cubic-bezier(x1, y1, x2, y2) easing to the next key
	SPRING_RIG_CURVE_COUNT       ///< how many there are (not a curve)
} spring_rig_curve;

typedef struct spring_rig_key {
	float time;             ///< seconds from the clip's start, >= 0, strictly increasing in a track
	float value[2];         ///< rotate: value[0] radians; translate: x, y; scale: x, y
	spring_rig_curve curve; ///< how to go from this key to the next
	float bezier[4];        ///< x1, y1, x2, y2 for SPRING_RIG_CURVE_BEZIER; x1, x2 in [0, 1]
} spring_rig_key;

typedef enum spring_rig_track_type {
	SPRING_RIG_TRACK_ROTATE = 0, ///< added to the setup rotation; keys interpolate as plain
	                             ///< numbers, so 0 -> 720 degrees spins twice
	SPRING_RIG_TRACK_TRANSLATE,  ///< added to the setup position
	SPRING_RIG_TRACK_SCALE,      ///< multiplies the setup scale
	SPRING_RIG_TRACK_COUNT       ///< how many types there are (not a type)
} spring_rig_track_type;

typedef struct spring_rig_track {
	const char *bone; ///< name of the animated bone
	spring_rig_track_type type;
	int key_count; ///< 1 .. SPRING_RIG_MAX_KEYS
	const spring_rig_key *keys;
} spring_rig_track;

typedef struct spring_rig_event {
	float time;       ///< seconds from the clip's start
	const char *name; ///< 1..63 bytes, e.g. SPRING_RIG_EVENT_TELEPORT or "footstep"
	float value[2];   ///< payload (a teleport's offset, for example)
} spring_rig_event;

/// The one event name the library acts on (spring_rig_apply_events): the rig's root moves by the
/// payload (x, y, world units) and the rig is teleported there. Every other name is the
/// program's to read (spring_rig_get_events).
#define SPRING_RIG_EVENT_TELEPORT "teleport"

typedef struct spring_rig_clip_desc {
	const char *name; ///< unique, 1..63 bytes
	float duration;   ///< seconds, > 0 (keys past it are allowed but never reached)
	bool loop;        ///< true: time wraps; false: clamped at the ends
	int track_count;
	const spring_rig_track *tracks;
	int event_count;
	const spring_rig_event *events;
} spring_rig_clip_desc;

// ---------------------------------------------------------------------------------------------
// IK

typedef enum spring_rig_ik_type {
	SPRING_RIG_IK_TWO_BONE = 0, ///< analytic: `bones[0]` the upper bone, `bones[1]` its child
	SPRING_RIG_IK_CCD,          ///< cyclic coordinate descent over a parent-linked chain
	SPRING_RIG_IK_COUNT         ///< how many types there are (not a type)
} spring_rig_ik_type;

typedef struct spring_rig_ik_desc {
	const char *name; ///< unique among IK constraints, 1..63 bytes
	spring_rig_ik_type type;
	const char *first;  ///< name of the constraint's first bone (two-bone: the upper bone)
	const char *last;   ///< name of its last bone, a descendant (two-bone: the lower bone, a child
	                    ///< of the upper); the end effector is this bone's tip
	const char *target; ///< name of the bone whose world position is the target (animated by
	                    ///< clips); NULL: the target comes from spring_rig_set_ik_target
	bool bend_positive; ///< two-bone: true bends counter-clockwise, false clockwise
	float mix;          ///< blend from the clip pose to the solved one, in (0, 1]; 0 -> 1 (a
	                    ///< zeroed description solves fully)
	bool off;           ///< starts with mix 0: the clip pose passes through until
	                    ///< spring_rig_set_ik_mix (mix is then ignored)
	int iterations;     ///< CCD: 1..1000; 0 -> 16
	float tolerance;    ///< CCD: stop when the effector is this close (units); 0 -> 1e-4
} spring_rig_ik_desc;

// ---------------------------------------------------------------------------------------------
// Spring chains on bone ranges

typedef enum spring_rig_chain_type {
	SPRING_RIG_CHAIN_ANGLE = 0, ///< spring_chain2d: one angle spring per bone
	SPRING_RIG_CHAIN_TIP,       ///< spring_chain in 2D mode: tip springs, colliders, cone limits
	SPRING_RIG_CHAIN_COUNT      ///< how many types there are (not a type)
} spring_rig_chain_type;

typedef struct spring_rig_chain_desc {
	const char *name; ///< unique among chains, 1..63 bytes
	spring_rig_chain_type type;
	const char *first;                      ///< name of the bone the chain starts at...
	const char *last;                       ///< ...down the parent links to this one (each bone's parent is the
	                                        ///< one before it in the range)
	float mix;                              ///< blend from the final pose to the simulated one, in (0, 1];
	                                        ///< 0 -> 1
	bool off;                               ///< starts with mix 0 (the chain still simulates; its result
	                                        ///< is not shown until spring_rig_set_chain_mix)
	spring_params params;                   ///< root bone's spring (zero -> 2 Hz, ratio 0.3)
	spring_params tip_params;               ///< non-zero: gradient to the last bone
	float limit;                            ///< angle chains: max swing per bone (radians, (0, pi]), as
	                                        ///< spring_chain2d_segment.limit; 0 -> none
	float cone_limit;                       ///< tip chains: cone limit (radians, (0, 0.99999 pi]), as
	                                        ///< spring_chain_bone_desc.cone_limit; 0 -> none
	spring_vec2 gravity, wind;              ///< units/s^2
	int collider_count;                     ///< tip chains only
	const spring_chain_collider *colliders; ///< world-space colliders (z ignored)
	float tip_radius;                       ///< tip chains: collision radius of every tip
	int bone_gravity_count;                 ///< tip chains: 0, or the chain's bone count
	const spring_vec2 *bone_gravity;        ///< tip chains: each bone's own gravity (units/s^2, first
	                                        ///< bone to last), added to gravity and wind
	spring_integrator integrator;           ///< default SPRING_INTEGRATOR_EXACT; semi-implicit (at the
	                                        ///< rig's step) reproduces a legacy per-frame loop
	spring_chain_projection projection;     ///< tip chains: the velocity after the length projection
	                                        ///< (default: removed; KEEP_VELOCITY as legacy loops do)
	float inertia;                          ///< angle chains: fraction of the pivot's acceleration each
	               ///< segment feels, [0, 100]; 0 -> SPRING_CHAIN2D_DEFAULT_INERTIA (0.2: a tail lags when the hip
	               ///< runs)
	bool no_inertia;              ///< angle chains: pure angle springs (inertia 0)
	float max_root_speed;         ///< units/s of the chain root's speed that reach the chain;
	                              ///< 0 = no cap (a dash does not whip the chain)
	float max_root_angular_speed; ///< rad/s, the same for its turning; 0 = no cap
} spring_rig_chain_desc;

// ---------------------------------------------------------------------------------------------
// The rig

typedef struct spring_rig_desc {
	int bone_count;
	const spring_rig_bone_desc *bones;
	int clip_count;
	const spring_rig_clip_desc *clips;
	int ik_count;
	const spring_rig_ik_desc *iks;
	int chain_count;
	const spring_rig_chain_desc *chains;
	float step;         ///< physics step; 0 -> SPRING_CLOCK_DEFAULT_STEP (1/120 s)
	int max_steps;      ///< 0 -> SPRING_CLOCK_DEFAULT_MAX_STEPS (8)
	spring_xform2 root; ///< initial placement of the whole skeleton (scale 0 -> 1)
} spring_rig_desc;

typedef struct spring_rig spring_rig;

/// Bytes needed for this description (0 when invalid).
SPRING_API size_t spring_rig_memory_size(const spring_rig_desc *desc);
/// Builds a rig in caller memory (16-byte aligned). Everything the description points to
/// (names, keys...) is copied. `error` (optional) names the element, index and field at fault.
SPRING_API spring_result spring_rig_init(const spring_rig_desc *desc, void *memory, size_t size, spring_rig **out,
                                         spring_error *error);
/// Creation (and spring_rig_memory_size) work on the stack, about 40 KB at the limits: give wasm32
/// builds more than wasm-ld's default 64 KB stack (`-Wl,-z,stack-size=262144`).
SPRING_API spring_result spring_rig_create(const spring_rig_desc *desc, spring_rig **out, spring_error *error);
SPRING_API void spring_rig_destroy(spring_rig *rig);

#define SPRING_RIG_SETUP_POSE (-1) ///< a clip index meaning no clip: the setup pose
#define SPRING_RIG_NOT_FOUND \
	(-2) ///< what spring_rig_find_clip and spring_rig_find_bone return
	     ///< for a name the rig does not have; every call refuses it

/// Samples a clip at any time (seconds; looped or clamped as the clip says) into `local`
/// (bone_count transforms): the setup pose with the clip's tracks applied, no IK, no springs.
/// Changes nothing in the rig. clip SPRING_RIG_SETUP_POSE gives the setup pose. `capacity` below
/// spring_rig_bone_count is SPRING_ERROR_BUFFER_TOO_SMALL (nothing written).
SPRING_API spring_result spring_rig_sample_clip(const spring_rig *rig, int clip, float time, spring_xform2 *local, int capacity);
/// Plays a clip from `time` seconds (SPRING_RIG_SETUP_POSE: no clip, the setup pose; any other
/// index outside the clips, SPRING_RIG_NOT_FOUND included, is INVALID_ARGUMENT and changes
/// nothing). Does not reset springs.
SPRING_API spring_result spring_rig_play(spring_rig *rig, int clip, float time);
/// spring_rig_play of the clip named `name`: INVALID_ARGUMENT, nothing changed, when the rig has no
/// clip of that name (names are compared byte for byte).
SPRING_API spring_result spring_rig_play_named(spring_rig *rig, const char *name, float time);
/// The index of the clip (bone) named `name`; SPRING_RIG_NOT_FOUND when there is none (or for NULL).
SPRING_API int spring_rig_find_clip(const spring_rig *rig, const char *name);
SPRING_API int spring_rig_find_bone(const spring_rig *rig, const char *name);
/// Sets where the whole skeleton is placed at the end of the next update. Its sub-steps take
/// their placement from the smooth path through the frames' placements that an angle chain's
/// pivot takes through its roots (its scale from the straight line between the frame's two), so
/// its chains feel the same motion at every frame rate; where that path would leave the placement
/// rule, the straight line. OUT_OF_RANGE, nothing changed, where spring_rig_check_root refuses
/// `root`.
SPRING_API spring_result spring_rig_set_root(spring_rig *rig, spring_xform2 root);
/// Whether spring_rig_set_root and spring_rig_teleport take `root` (finite; placing every bone
/// within SPRING_RIG_MAX_REACH of the origin and every bone of a spring chain within
/// SPRING_RIG_CHAIN_MAX_REACH, under any clip). Refused: `error` names the chain (or the rig),
/// how far its bones would reach and the limit. Changes nothing.
SPRING_API spring_result spring_rig_check_root(const spring_rig *rig, spring_xform2 root, spring_error *error);
/// World-space IK target (finite) for an IK constraint without a target bone, or overriding it
/// until spring_rig_clear_ik_target.
SPRING_API spring_result spring_rig_set_ik_target(spring_rig *rig, int ik, spring_vec2 target);
/// Back to the constraint's target bone after spring_rig_set_ik_target; a constraint without a
/// target bone keeps the last target set (the origin before any).
SPRING_API spring_result spring_rig_clear_ik_target(spring_rig *rig, int ik);
SPRING_API spring_result spring_rig_set_ik_mix(spring_rig *rig, int ik, float mix);
SPRING_API spring_result spring_rig_set_chain_mix(spring_rig *rig, int chain, float mix);
/// Time scale (>= 0; 1 normal) and pause. Pausing freezes clip time and physics; resuming does
/// not jump (no time accumulates while paused).
SPRING_API spring_result spring_rig_set_time_scale(spring_rig *rig, float scale);
SPRING_API spring_result spring_rig_set_paused(spring_rig *rig, bool paused);

/// Advances by frame_dt seconds (>= 0, finite): per fixed step, clips -> IK -> world -> chains.
/// A refused update changes nothing (clock, clip time, bones, chains).
SPRING_API spring_result spring_rig_update(spring_rig *rig, float frame_dt);

/// Explicit teleport: the skeleton's root jumps to `root` and every chain moves rigidly with
/// it, keeping its shape and motion (the jump is not seen as motion). Refused, nothing changed,
/// where spring_rig_check_root refuses `root`.
SPRING_API spring_result spring_rig_teleport(spring_rig *rig, spring_xform2 root);
/// Explicit reset: every chain snaps to rest on the current pose, velocities zero.
SPRING_API spring_result spring_rig_reset(spring_rig *rig);

/// Snapshots (see base.h): the whole rig, its chains included, in a flat blob of
/// spring_rig_snapshot_size bytes; restoring it into a rig made from the same description
/// reproduces the run bit for bit (clip time, clock, inputs, chains).
SPRING_API size_t spring_rig_snapshot_size(const spring_rig *rig);
SPRING_API spring_result spring_rig_snapshot(const spring_rig *rig, void *blob, size_t size);
SPRING_API spring_result spring_rig_restore(spring_rig *rig, const void *blob, size_t size, spring_error *error);

/// The skeleton: bone count (0 for NULL); a bone's name (NULL), parent index (-1 for a root bone)
/// and length in units (0) -- the values in parentheses for an index out of range.
SPRING_API int spring_rig_bone_count(const spring_rig *rig);
SPRING_API const char *spring_rig_bone_name(const spring_rig *rig, int bone);
SPRING_API int spring_rig_bone_parent(const spring_rig *rig, int bone);
SPRING_API float spring_rig_bone_length(const spring_rig *rig, int bone);
/// Interpolated output for rendering: world transforms and local transforms. Each pose getter
/// below writes spring_rig_bone_count transforms: a smaller `capacity` is
/// SPRING_ERROR_BUFFER_TOO_SMALL (nothing written), a negative one SPRING_ERROR_INVALID_ARGUMENT.
SPRING_API spring_result spring_rig_get_world(const spring_rig *rig, spring_xform2 *world, int capacity);
SPRING_API spring_result spring_rig_get_local(const spring_rig *rig, spring_xform2 *local, int capacity);
/// The last step's own pose (no interpolation): for gameplay queries and exact checks.
SPRING_API spring_result spring_rig_get_stepped_world(const spring_rig *rig, spring_xform2 *world, int capacity);
SPRING_API spring_result spring_rig_get_stepped_local(const spring_rig *rig, spring_xform2 *local, int capacity);
/// The pose of the last step before the springs were applied (clips + IK): what the springs
/// were layered on. For comparisons and debugging.
SPRING_API spring_result spring_rig_get_base_world(const spring_rig *rig, spring_xform2 *world, int capacity);

#define SPRING_RIG_MAX_UPDATE_EVENTS 64 ///< events an update records for spring_rig_get_events
/// Events crossed by the last update, in order (name, payload, clip time). Returns the number
/// written (at most capacity); `total` (optional) gets how many there were. An update records the
/// first SPRING_RIG_MAX_UPDATE_EVENTS; `total` counts them all. Applying them
/// (spring_rig_apply_events) does not remove them from this list.
SPRING_API int spring_rig_get_events(const spring_rig *rig, spring_rig_event *events, int capacity, int *total);

/// Acts on the events crossed by the last update that the library defines, in order; today only
/// SPRING_RIG_EVENT_TELEPORT: the rig's root (spring_rig_root) moves by the event's payload
/// (x, y, world units; the angle and scale stay) and the rig is teleported there
/// (spring_rig_teleport: chains move rigidly and keep their motion). Other events are left to
/// the program. Call it after spring_rig_update, before reading the pose.
///
/// Once per update: the events of an update are applied by the first call that succeeds; later
/// calls before the next update do nothing and return SPRING_OK (the events stay listed by
/// spring_rig_get_events). All or nothing: where a teleport would give a root that
/// spring_rig_check_root refuses, or where the update crossed teleports past the
/// SPRING_RIG_MAX_UPDATE_EVENTS events it records, it returns OUT_OF_RANGE (NOT_FINITE for a
/// root that is not finite), changes nothing and leaves the events to apply; `error`
/// (optional) names the clip and the event (its index in the clip) and, for a root, how far
/// which chain would reach and the limit. INVALID_ARGUMENT for a NULL rig. Allocates nothing.
SPRING_API spring_result spring_rig_apply_events(spring_rig *rig, spring_error *error);

/// Number of spring chains (0 for NULL).
SPRING_API int spring_rig_chain_count(const spring_rig *rig);
/// Whether a chain came to exact rest in the last step (on its targets, velocity exactly zero; a
/// resting chain whose inputs do not change skips its physics). False for an invalid index.
SPRING_API bool spring_rig_chain_is_resting(const spring_rig *rig, int chain);
/// Whether every chain of the rig is resting (true for a rig without chains).
SPRING_API bool spring_rig_is_resting(const spring_rig *rig);
SPRING_API const char *spring_rig_chain_name(const spring_rig *rig, int chain); ///< NULL when out of range
/// The bones of a chain, root first: writes up to `capacity` indices, returns the count.
SPRING_API int spring_rig_chain_bones(const spring_rig *rig, int chain, int *bones, int capacity);
SPRING_API int spring_rig_clip_count(const spring_rig *rig);
SPRING_API const char *spring_rig_clip_name(const spring_rig *rig, int clip); ///< NULL when out of range
SPRING_API float spring_rig_clip_duration(const spring_rig *rig, int clip);   ///< 0 when out of range
SPRING_API int spring_rig_ik_count(const spring_rig *rig);
SPRING_API const char *spring_rig_ik_name(const spring_rig *rig, int ik);   ///< NULL when out of range
SPRING_API int spring_rig_find_ik(const spring_rig *rig, const char *name); ///< -1 when none
SPRING_API const spring_clock *spring_rig_clock(const spring_rig *rig);
SPRING_API float spring_rig_time(const spring_rig *rig); ///< clip time of the last step, seconds
/// Where the rig is placed: the root the next update ends at (the description's root, then the
/// last spring_rig_set_root or spring_rig_teleport, moved by spring_rig_apply_events). The
/// identity for NULL.
SPRING_API spring_xform2 spring_rig_root(const spring_rig *rig);

// ---------------------------------------------------------------------------------------------
// Building blocks, usable on their own

/// CSS cubic-bezier(x1, y1, x2, y2) easing at progress x in [0, 1] (x1, x2 in [0, 1]); NaN-free.
SPRING_API float spring_rig_cubic_bezier(float x1, float y1, float x2, float y2, float x);

/// Analytic two-bone IK in 2D. Bone lengths l1, l2 > 0, the upper bone's pivot, a target, the
/// bend direction: returns the two world angles (radians). Unreachable targets straighten the
/// chain towards them; a target on the pivot keeps `fallback_angle` for the upper bone.
SPRING_API void spring_rig_ik_two_bone(spring_vec2 pivot, float l1, float l2, spring_vec2 target, bool bend_positive,
                                       float fallback_angle, float *angle1, float *angle2);

#ifdef __cplusplus
}
#endif
#endif
