// SPDX-License-Identifier: MIT
// Private to the rig's sources (rig.c, rig_validate.c, rig_clip.c, rig_ik.c, rig_chain.c) and
// white-box tests: the rig's memory block and the pieces its sources share.
#ifndef SPRING_RIG_INTERNAL_H
#define SPRING_RIG_INTERNAL_H

#include "spring/rig.h"

#include "base_internal.h"
#include "path_internal.h"

#include <stdint.h>

#define NAME_BYTES (SPRING_RIG_MAX_NAME + 1)
#define MAX_FIRED SPRING_RIG_MAX_UPDATE_EVENTS

typedef char rig_name[NAME_BYTES];

/// Byte offsets of the rig's arrays from the start of its block.
typedef struct rig_offsets {
	size_t names, parent, length, setup, local, world, base_world, final_local, final_local_prev, clips, tracks, keys, events,
		iks, ik_bones, chains, chain_bones, bone_chain, ik_saved, scratch_angles, scratch_xf2, fk_mark;
} rig_offsets;

typedef struct rig_clip {
	char name[NAME_BYTES];
	float duration;
	int loop;
	int first_track, track_count;
	int first_event, event_count;
} rig_clip;

typedef struct rig_track {
	int bone;
	spring_rig_track_type type;
	int first_key, key_count;
} rig_track;

typedef struct rig_event {
	float time;
	float value[2];
	char name[NAME_BYTES];
} rig_event;

typedef struct rig_ik {
	char name[NAME_BYTES];
	spring_rig_ik_type type;
	int target; // bone, -1 when the target comes from spring_rig_set_ik_target
	bool bend_positive;
	int iterations;  // CCD
	float tolerance; // CCD
	float mix;
	int bone_count;  // bones in the chain (2 for two-bone)
	int first_index; // into ik_bones
	int has_override;
	spring_vec2 override_target;
} rig_ik;

typedef struct rig_chain {
	char name[NAME_BYTES];
	spring_rig_chain_type type;
	int bone_count;
	int first_index; // into chain_bones
	float mix;
	size_t memory;      // offset of the chain object (angle or tip) in the rig's block
	spring_xform2 root; // the chain root passed in the last step
} rig_chain;

struct spring_rig {
	int bone_count, clip_count, track_count, key_count, event_count, ik_count, chain_count;
	spring_internal_owner owner; // set by create; zero for caller memory
	spring_clock clock;
	float time_scale;
	int paused;
	int clip;
	double clip_time;         // clip time of the last step
	spring_xform2 root_input; // root set for the coming update
	spring_xform2 root_prev_input;
	spring_xform2 root_step, root_step_prev;
	// The placement's path through the roots of the frames' ends: the steps' roots lie on it.
	spring_chain2d_path root_path;
	double reach;                              // how far from the root any bone can get, in root units (scale 1)
	double chain_reach[SPRING_RIG_MAX_CHAINS]; // the same for the bones of each chain
	int fired_count, fired_total;
	spring_rig_event fired[MAX_FIRED];
	char fired_names[MAX_FIRED][NAME_BYTES];
	int fired_clip;             // the clip the last update played (-1: none): the one its events are of
	int fired_index[MAX_FIRED]; // each recorded event's index in that clip
	int fired_lost_teleports;   // teleport events the last update crossed past the MAX_FIRED it records
	int events_applied;         // 1 once spring_rig_apply_events applied the last update's events

	// Every array lives in the same block, found by its offset from the struct's address, so the
	// block can be copied byte for byte (snapshots, save states) and keeps working.
	rig_offsets at;
	size_t total; // bytes of the whole block
};

// Array accessors: the block's address plus the array's offset.
static inline rig_name *rig_names(const spring_rig *r)
{
	return (rig_name *)(void *)((unsigned char *)(uintptr_t)r + r->at.names);
}
static inline int *rig_parent(const spring_rig *r)
{
	return (int *)(void *)((unsigned char *)(uintptr_t)r + r->at.parent);
}
static inline float *rig_length(const spring_rig *r)
{
	return (float *)(void *)((unsigned char *)(uintptr_t)r + r->at.length);
}
static inline spring_xform2 *rig_setup(const spring_rig *r)
{
	return (spring_xform2 *)(void *)((unsigned char *)(uintptr_t)r + r->at.setup);
}
static inline spring_xform2 *rig_local(const spring_rig *r)
{
	return (spring_xform2 *)(void *)((unsigned char *)(uintptr_t)r + r->at.local);
}
static inline spring_xform2 *rig_world(const spring_rig *r)
{
	return (spring_xform2 *)(void *)((unsigned char *)(uintptr_t)r + r->at.world);
}
static inline spring_xform2 *rig_base_world(const spring_rig *r)
{
	return (spring_xform2 *)(void *)((unsigned char *)(uintptr_t)r + r->at.base_world);
}
static inline spring_xform2 *rig_final_local(const spring_rig *r)
{
	return (spring_xform2 *)(void *)((unsigned char *)(uintptr_t)r + r->at.final_local);
}
static inline spring_xform2 *rig_final_local_prev(const spring_rig *r)
{
	return (spring_xform2 *)(void *)((unsigned char *)(uintptr_t)r + r->at.final_local_prev);
}
static inline rig_clip *rig_clips(const spring_rig *r)
{
	return (rig_clip *)(void *)((unsigned char *)(uintptr_t)r + r->at.clips);
}
static inline rig_track *rig_tracks(const spring_rig *r)
{
	return (rig_track *)(void *)((unsigned char *)(uintptr_t)r + r->at.tracks);
}
static inline spring_rig_key *rig_keys(const spring_rig *r)
{
	return (spring_rig_key *)(void *)((unsigned char *)(uintptr_t)r + r->at.keys);
}
static inline rig_event *rig_events(const spring_rig *r)
{
	return (rig_event *)(void *)((unsigned char *)(uintptr_t)r + r->at.events);
}
static inline rig_ik *rig_iks(const spring_rig *r)
{
	return (rig_ik *)(void *)((unsigned char *)(uintptr_t)r + r->at.iks);
}
static inline int *rig_ik_bones(const spring_rig *r)
{
	return (int *)(void *)((unsigned char *)(uintptr_t)r + r->at.ik_bones);
}
static inline rig_chain *rig_chains(const spring_rig *r)
{
	return (rig_chain *)(void *)((unsigned char *)(uintptr_t)r + r->at.chains);
}
static inline int *rig_chain_bones(const spring_rig *r)
{
	return (int *)(void *)((unsigned char *)(uintptr_t)r + r->at.chain_bones);
}
static inline int *rig_bone_chain(const spring_rig *r)
{
	return (int *)(void *)((unsigned char *)(uintptr_t)r + r->at.bone_chain);
}
static inline float *rig_ik_saved(const spring_rig *r)
{
	return (float *)(void *)((unsigned char *)(uintptr_t)r + r->at.ik_saved);
}
static inline float *rig_scratch_angles(const spring_rig *r)
{
	return (float *)(void *)((unsigned char *)(uintptr_t)r + r->at.scratch_angles);
}
static inline spring_xform2 *rig_scratch_xf2(const spring_rig *r)
{
	return (spring_xform2 *)(void *)((unsigned char *)(uintptr_t)r + r->at.scratch_xf2);
}
static inline unsigned char *rig_fk_mark(const spring_rig *r)
{
	return (unsigned char *)(void *)((unsigned char *)(uintptr_t)r + r->at.fk_mark);
}

// Forward kinematics: the world transforms of every bone from their locals (parents listed first).
// Here, not in rig.c, so that the clip, IK and chain units call down to it, never back up.
static inline void spring_rig_internal_forward(const spring_rig *r, spring_xform2 root, const spring_xform2 *local,
                                               spring_xform2 *world)
{
	for (int i = 0; i < r->bone_count; i++) {
		spring_xform2 parent = rig_parent(r)[i] < 0 ? root : world[rig_parent(r)[i]];
		world[i] = spring_xform2_mul(parent, local[i]);
	}
}

/// Recomputes the world transforms of `top` and its descendants only (after their locals changed).
static inline void spring_rig_internal_forward_subtree(const spring_rig *r, spring_xform2 root, const spring_xform2 *local,
                                                       spring_xform2 *world, int top)
{
	// Bones are listed parent before child, so the subtree of `top` is found in one pass over
	// the bones after it: a bone belongs when its parent does.
	const int *parent = rig_parent(r);
	unsigned char *mark = rig_fk_mark(r);
	world[top] = spring_xform2_mul(parent[top] < 0 ? root : world[parent[top]], local[top]);
	mark[top] = 1;
	for (int i = top + 1; i < r->bone_count; i++) {
		if (parent[i] >= 0 && mark[parent[i]]) {
			world[i] = spring_xform2_mul(world[parent[i]], local[i]);
			mark[i] = 1;
		}
	}
	memset(mark + top, 0, (size_t)(r->bone_count - top));
}

static inline spring_chain2d *rig_chain_angle(const spring_rig *r, const rig_chain *ch)
{
	return (spring_chain2d *)(void *)((unsigned char *)(uintptr_t)r + ch->memory);
}
static inline spring_chain *rig_chain_tip(const spring_rig *r, const rig_chain *ch)
{
	return (spring_chain *)(void *)((unsigned char *)(uintptr_t)r + ch->memory);
}

// ---------------------------------------------------------------------------------------------
// Shared between the rig's sources

// Validation (rig_validate.c): the one judge of a description's meaning.
spring_result spring_rig_internal_fail(spring_error *e, spring_result r, const char *kind, int index, const char *field,
                                       const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;
spring_element spring_rig_internal_element_of(const char *kind);
int spring_rig_internal_finite2(spring_vec2 v);
int spring_rig_internal_xform2_finite(spring_xform2 t);
int spring_rig_internal_name_ok(const char *name);
/// The slots of a description's bone-name index: a power of two, at least twice the most bones.
#define RIG_NAME_SLOTS 1024
/// A description's bone references (names) resolved to indices; -1: none (NULL) or unknown.
/// Names are found through a hash index built once (spring_rig_internal_resolve), so that
/// validating and creating a rig costs time linear in its description (docs/rig-format.md).
typedef struct rig_refs {
	int parent[SPRING_RIG_MAX_BONES];
	int ik[SPRING_RIG_MAX_IK][3];        // first, last, target
	int chain[SPRING_RIG_MAX_CHAINS][2]; // first, last
	int16_t name_slot[RIG_NAME_SLOTS];   // bone index + 1 of the first bone of each name; 0: empty
	unsigned long name_compares;         // string comparisons made with the index (the tests' measure)
} rig_refs;
/// The largest distance from the root (placed at the origin with scale 1) that any bone's pivot or
/// tip can reach under any clip (IK and chains only turn bones); the first bone beyond
/// SPRING_RIG_MAX_REACH in `*far_bone` (-1 when none); the same for the bones of each chain in
/// `chain_reach` (d->chain_count of them).
double spring_rig_internal_reach(const spring_rig_desc *d, rig_refs *refs, int *far_bone, double *chain_reach);
/// Where a rig may be placed, the one rule (creation, set_root, teleport, check_root): with its
/// root at `root` (clean), every bone within SPRING_RIG_MAX_REACH of the origin (`reach`: the
/// rig's) and every bone of a chain within SPRING_RIG_CHAIN_MAX_REACH (`chain_reach`: each of
/// the `chain_count` chains'). Returns RIG_PLACEMENT_FITS, RIG_PLACEMENT_REACH (the rig's reach
/// passed) or the first chain whose bones would pass the chains' limit; how far in `*far`.
enum { RIG_PLACEMENT_FITS = -2, RIG_PLACEMENT_REACH = -1 };
int spring_rig_internal_placement(spring_xform2 root, double reach, const double *chain_reach, int chain_count, double *far);
/// The refusal of a placement that spring_rig_internal_placement found `misfit` (not FITS):
/// OUT_OF_RANGE, `e` (when not NULL) naming the chain `chain_name` (or the rig), how far its bones
/// would reach and the limit.
spring_result spring_rig_internal_placement_error(spring_error *e, spring_xform2 root, int misfit, double far,
                                                  const char *chain_name);
/// The same refusal located at `path` (`depth` steps; 0: the rig) and its `field`, the reason after
/// `prefix`.
spring_result spring_rig_internal_placement_error_at(spring_error *e, const spring_error_step *path, int depth, const char *field,
                                                     const char *prefix, spring_xform2 root, int misfit, double far,
                                                     const char *chain_name);
/// Validates `d` and resolves its bone references into `refs` (meaningful only on success).
spring_result spring_rig_internal_validate(const spring_rig_desc *d, rig_refs *refs, spring_error *e);
/// Index of the first bone called `name` in the description, -1 when none (or `name` is NULL),
/// through the index of `refs` (built by spring_rig_internal_resolve): constant expected time.
int spring_rig_internal_find_bone(const spring_rig_desc *d, rig_refs *refs, const char *name);
/// Builds the bone-name index and resolves every reference of a description whose counts are
/// valid.
void spring_rig_internal_resolve(const spring_rig_desc *d, rig_refs *refs);
/// The bones of a parent-linked range first..last, root first; returns the count or -1.
int spring_rig_internal_range_bones(const int *parent, int bone_count, int first, int last, int *out, int capacity);
int spring_rig_internal_params_zero(spring_params p);
/// A setup or root transform with the zero scale read as 1.
spring_xform2 spring_rig_internal_clean_xform(spring_xform2 t);

// Interpolation (rig.c).
spring_xform2 spring_rig_internal_xform2_lerp(spring_xform2 a, spring_xform2 b, float t);

// Clips (rig_clip.c).
void spring_rig_internal_sample_pose(spring_rig *r, double t);
void spring_rig_internal_fire_events(spring_rig *r, double from, double to);
/// Whether an event called `name` is one spring_rig_apply_events acts on (a teleport).
bool spring_rig_internal_is_teleport(const char *name);

// IK (rig_ik.c).
void spring_rig_internal_solve_ik(spring_rig *r, spring_xform2 *world);

// Chains on the final pose (rig_chain.c).
// Creation-time scratch for one chain's description (only one kind is in use at a time). It
// lives on the stack of create and memory_size, so it is kept small: about 19 KB.
typedef struct chain_scratch {
	int bones[SPRING_RIG_MAX_BONES];
	union {
		spring_chain2d_segment segments[SPRING_CHAIN_MAX_BONES];
		spring_chain_bone_desc tip_bones[SPRING_CHAIN_MAX_BONES];
	} kind;
	spring_chain_collider colliders[SPRING_CHAIN_MAX_COLLIDERS];
} chain_scratch;
spring_xform3 spring_rig_internal_to_xform3(spring_xform2 t);
/// Fills the description of chain c (angle or tip), its bones in s->bones; the count or -1.
int spring_rig_internal_chain_desc(const spring_rig_desc *d, const rig_refs *refs, int c, chain_scratch *s,
                                   spring_chain2d_desc *a, spring_chain_desc *t);
/// The chain's root for this step: the first bone's pivot, oriented like its parent.
spring_xform2 spring_rig_internal_chain_root(const spring_rig *r, const rig_chain *ch, const spring_xform2 *world);
spring_result spring_rig_internal_step_chains(spring_rig *r, spring_xform2 *world);

#endif
