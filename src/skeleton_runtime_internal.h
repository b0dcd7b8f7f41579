// SPDX-License-Identifier: MIT
// Spring skeletons: the runtime's object (a crowd; a spring_skeleton is a crowd of one) and the
// small helpers its units share: skeleton_runtime.c (creation, input, the steps) and
// skeleton_access.c (output, world matrices in, snapshots).
#ifndef SPRING_SKELETON_RUNTIME_INTERNAL_H
#define SPRING_SKELETON_RUNTIME_INTERNAL_H

#include "spring/skeleton.h"

#include "base_internal.h"
#include "skeleton_lanes.h"
#include "spring_internal.h"

#define OBJECT "skeleton"
#define CROWD "skeleton crowd"

// A bone's model: what every instance shares.
typedef struct bone {
	int head, tail_node; // tail_node -1: the spring's end tail
	int spring, center, depth;
	int group_first, group_count; // into group_refs
	bool head_read;               // the step reads the head's own matrix before it turns (a collider
	                              // or a centre on it, or a measured end tail)
	double tail_local[3];         // the tail at rest in the head's space
	double axis[3];               // tail_local, unit
	double rest_length;
	double q0[4]; // the head's rest rotation
	double stiffness, drag, gravity_power, gravity[3], hit_radius;
	double along[4]; // from_to's turn when the tail points straight back along `axis`
} bone;

// A bone's state in a block's lanes.
typedef struct lbone {
	lane cur[3], prev[3];              // the tail, in the centre's space (world without one)
	lane q[4];                         // the head's local rotation now
	lane tail_step[3], tail_before[3]; // the tail in world at the last step and the one before
	lane q_before[4];                  // the rotation at the step before
} lbone;

// An instance's rest: moving, placed at rest (creation, reset, teleport: not measured), or found
// at rest by its last step (then it may sleep).
enum { REST_PLACED = 1, REST_STEPPED = 2 };

// Per lane: the previous frame's length and this one's (0 and 0 after a reset or a jump: no
// interpolation from before it).
typedef struct lclock {
	lane dt_from, dt_to;
} lclock;

struct spring_skeleton_crowd {
	spring_internal_owner owner;
	spring_clock clock;
	spring_skeleton_length length;
	double step;
	int count, blocks;
	int node_count, bone_count, collider_count;
	int needed_count;      // the first needed_count nodes of `order` are the ones the steps read,
	int early_count;       // of which the first early_count are read before a bone's step makes them
	int stride;            // slots of a block's pose: the root, then the needed nodes in `order`
	int *parent;           // [node_count]
	int *order;            // parents first; the needed nodes (needed_count) before the others
	int *slot;             // node -> its slot in a pose (1 + its place in `order`), 0 when not needed
	unsigned char *needed; // node -> NODE_* flags
	int *child_first;      // [node_count + 1]
	int *kids;
	int *head_bone;    // node -> bone, -1
	int *update_order; // bones, a spring hanging from another's joint after it
	double (*scale)[3];
	bool *unit_scale;
	double (*rest)[7];          // node -> its rest translation and rotation
	llocal *before, *from, *to; // [blocks * stride]: the pose two frames ago, the previous frame's, this one's
	lclock *frames;             // [blocks]
	lbone *state;               // [blocks * bone_count]
	unsigned char *resting;     // [blocks * SKELETON_LANES]: REST_* (0: moving)
	llocal *now;                // [stride]: a step's pose, one block at a time (scratch)
	lbone *saved;               // [bone_count]: a block's bones before its steps (scratch)
	lmat *world;                // [node_count]: a step's matrices, one block at a time (scratch)
	bone *bones;
	spring_skeleton_collider *colliders;
	int *group_first; // [group_count + 1] into group_members
	int *group_members;
	int *group_refs; // per bone's spring
};

struct spring_skeleton {
	spring_skeleton_crowd crowd;
};

// ---------------------------------------------------------------------------------------------
// Layout

// a + (b - a) u for translations, shortest-path nlerp for rotations.
static inline void blend(const llocal *a, const llocal *b, lane u, llocal *out)
{
	lane sign = lselect(a->q[0] * b->q[0] + a->q[1] * b->q[1] + a->q[2] * b->q[2] + a->q[3] * b->q[3] < 0.0, splat(-1.0),
	                    splat(1.0));
	for (int k = 0; k < 3; k++) {
		out->t[k] = a->t[k] + (b->t[k] - a->t[k]) * u;
	}
	for (int k = 0; k < 4; k++) {
		out->q[k] = a->q[k] + (sign * b->q[k] - a->q[k]) * u;
	}
	qnormalize(out->q);
}

static inline void copy_lane(lane *dst, const lane *src, int n, int l)
{
	for (int k = 0; k < n; k++) {
		dst[k][l] = src[k][l];
	}
}

static inline llocal *block_pose(llocal *frames, const spring_skeleton_crowd *s, int blk)
{
	return &frames[(size_t)blk * (size_t)s->stride];
}

static inline spring_result check_instance(const spring_skeleton_crowd *s, int instance)
{
	return !s ? SPRING_ERROR_INVALID_ARGUMENT : instance < 0 || instance >= s->count ? SPRING_ERROR_OUT_OF_RANGE : SPRING_OK;
}

#endif
