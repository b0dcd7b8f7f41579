// SPDX-License-Identifier: MIT
/// Every kind of object that takes snapshots, behind one interface, for the snapshot tests and
/// the restore fuzzer: a made object in a mid-run state, its snapshot calls, and a drive that
/// steps and reads it and says whether every call kept its promises (base.h, "Snapshots").
#ifndef SPRING_TEST_SNAPSHOT_KINDS_H
#define SPRING_TEST_SNAPSHOT_KINDS_H

#include "spring/chain.h"
#include "spring/motion.h"
#include "spring/rig.h"
#include "spring/skeleton.h"

typedef struct snapshot_kind {
	const char *name;
	void *object;
	size_t (*size)(const void *object);
	spring_result (*snapshot)(const void *object, void *blob, size_t size);
	spring_result (*restore)(void *object, const void *blob, size_t size, spring_error *error);
	/// Runs `frames` frames (every fifth a 0.25 s hitch) and reads everything out; NULL when every
	/// call returned OK (a motion's advance may say OUT_OF_RANGE) and every output is finite,
	/// otherwise the first broken promise.
	const char *(*drive)(void *object, int frames);
	void (*destroy)(void *object);
} snapshot_kind;

/// The frame time of frame `frame` in every drive: 1/60 s, every fifth frame (3, 8, ...) 0.25 s.
float snapshot_frame_dt(int frame);

/// A 2-channel motion towards (300, 1) with a velocity, advanced by 0.07 s when `frames` > 0.
/// The motion lives in static storage (one at a time); its destroy does nothing.
snapshot_kind snapshot_kind_motion(int frames);

/// The tail's angle description: `n` segments (at most 8) written to `segs`, segment 1 limited
/// to 0.8 rad, gravity (0, -200), root speed cap 500.
spring_chain2d_desc snapshot_chain2d_desc(spring_chain2d_segment *segs, int n);

/// An angle chain of `n` segments (at most 8), its last segment stiffer, driven `frames` frames.
snapshot_kind snapshot_kind_chain2d(int n, int frames);

/// An angle group of `count` chains (at most 4) of `n` segments (at most 8) and `max_steps`.
spring_chain2d_group *snapshot_new_group2d(int count, int n, int max_steps);
/// That group with one chain's spring and another's forces changed, driven `frames` frames.
snapshot_kind snapshot_kind_group2d(int count, int n, int max_steps, int frames);

/// A tip chain of `n` bones (at most 8), in 2D mode or not, with a sphere and a plane collider
/// (room for three), a root speed cap, a cone limit on its last bone, driven `frames` frames.
snapshot_kind snapshot_kind_chain(int n, bool mode_2d, int frames);

/// A tip group of `count` chains (at most 5) of `n` bones (at most 4), a cone limit on the last.
spring_chain_group *snapshot_new_group(int count, int n);
/// That group with one chain's spring and another's forces changed and chain 0 animated
/// (snapshot_group_pose), driven `frames` frames.
snapshot_kind snapshot_kind_group(int count, int n, int frames);
/// The animation of chain 0 of snapshot_kind_group: each bone's rest turned about x, its position
/// moved up by SNAPSHOT_GROUP_POSE_Y (a value found again in the blob).
void snapshot_group_pose(int n, spring_xform3 *pose);
#define SNAPSHOT_GROUP_POSE_Y 0.3125f

/// The offsets past the snapshot header of the blob's 4-byte-aligned floats with the bits of x,
/// first first, into at[] (at most max of them); returns how many there are in all.
int snapshot_find_floats(const unsigned char *blob, size_t size, float x, size_t *at, int max);

/// The rig's bone count.
#define SNAPSHOT_RIG_BONES 8
/// The description of a rig: a hip walking by a clip with an event, a two-bone arm reaching by
/// IK, an angle tail and a tip-chain ribbon with a collider (its arrays in static storage, the
/// same for every call).
spring_rig_desc snapshot_rig_desc(void);
/// That rig, not playing (NULL on failure, reported on stderr).
spring_rig *snapshot_new_rig(void);
/// That rig playing its clip with an IK target when `frames` > 0, driven `frames` frames.
snapshot_kind snapshot_kind_rig(int frames);

/// A crowd of three instances of a seven-node skeleton (a hair strand with a centre and three
/// colliders, an arm with an end tail), each posed its own way, driven `frames` frames.
snapshot_kind snapshot_kind_skeleton_crowd(int frames);

#endif
