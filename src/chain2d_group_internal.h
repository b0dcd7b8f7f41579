// SPDX-License-Identifier: MIT
// What spring_chain2d_group (chain2d_group.c: the group's memory and calls) hands its kernels
// (kernels_<set>.c, chain2d_group_frame.h: every segment of every chain, a vector of chains at a time) for a frame and
// for the poses (not installed). The kernels call nothing of the group's or of the single
// chain's: what they need comes in these jobs.
#ifndef SPRING_CHAIN2D_GROUP_INTERNAL_H
#define SPRING_CHAIN2D_GROUP_INTERNAL_H

#include "chain2d_internal.h"
#include "kernels_internal.h"

#include <stddef.h>
#include <stdint.h>

// Rows of LANE_PAD floats: every row (one segment across the chains, or one value per chain) is
// padded to a whole number of the widest vectors, so the kernels never take a partial vector. The
// padding lanes hold an inert segment (w2 1, identity transition), never wake and stand still
// under a step (chain2d_group.c, fill_padding).
#define LANE_PAD 16

// Per-chain rows (one float per chain, stored by blocks: see row_block): the lanes' state
// (SPRING_CHAIN2D_LN_*).
enum { R_ROW_COUNT = SPRING_CHAIN2D_LN_COUNT };

// Where chain b's entry of row 0 lies among the rows (its other rows follow LANE_PAD floats apart):
// a block's R_ROW_COUNT rows of LANE_PAD floats are contiguous, so a 16-lane kernel steps a
// block's lane state where it lies (K(lane) is one row after the other).
static inline size_t row_block(size_t b)
{
	return b / LANE_PAD * (size_t)(R_ROW_COUNT * LANE_PAD) + b % LANE_PAD;
}

// Blocks (vectors of chains) a frame steps together, segment by segment (chain2d_group_frame.h),
// and the most chains that makes on any instruction set: a row of a chunk's step offsets.
#define GROUP_CHUNK 8
#define GROUP_CHUNK_LANES (GROUP_CHUNK * LANE_PAD)

// Joints a pose computes for a block before writing them out: GROUP_POSE_BATCH
// (chain2d_group_frame.h), 1 unless an instance writes them by transposes (AVX-512:
// GROUP_POSE_JOINTS, chain2d_joints_avx512.h).
#define GROUP_POSE_JOINTS 16

struct group_layout; // the group's offsets (chain2d_group.c)
typedef struct group_frame group_frame;

/// The rest test of the chains of the block at b whose step was still (`still[q]` non-zero for
/// chain b + q; the rows hold their state): the group's, which a frame's kernel calls after such
/// a step.
typedef void group_rest_fn(const group_frame *fr, size_t b, size_t lanes, const int32_t *still);

// What a frame's kernels read: segment i of chain j at [i * stride + j] of each array, the chains'
// rows at [row * stride + j], the shape at [i]; the timeline's values of each step.
struct group_frame {
	spring_chain2d_group *g;      // for try_rest
	const struct group_layout *l; // for try_rest
	group_rest_fn *try_rest;
	int count; // chains: the lanes from here to stride are padding
	int n, stride, steps;
	float *angle, *velocity, *prev, *target, *deflection, *sin, *cos, *key;
	const float *inertia, *w2, *iw2, *pp, *pv, *vp, *vv;
	const int32_t *same; // per segment: the settings above are chain 0's in every chain
	// The animated offsets (chain2d.c's ARR_ANIM_TO, ARR_ANIM_FROM, ARR_OFFSET across the chains),
	// read only when `animated` (some chain has offsets set or in flight; otherwise all are 0),
	// and two steps' offsets of a chunk's chains (scratch: segment i of the chunk's lane q at
	// [i * GROUP_CHUNK_LANES + q], the second step's n rows after the first's).
	int animated;
	const float *anim_to;
	float *anim_from, *used, *step_offsets;
	float *rows;                     // the chains' rows, R_ROW_COUNT of them
	const float *targets;            // the frame's roots: rows of x, y, angle (stride floats each)
	const float *k15, *rest, *limit; // per segment
	const spring_chain2d_basis *bases;
	const float *fractions;
	spring_chain2d_lane_basis settings; // step, inv_step, held_max, max_speed, turns
};

// What get_poses reads: the angles' rows (prev, angle, kept sin, cos, key), the chains' rows,
// the lengths, the clock's alpha; the joints it writes (n + 1 per chain).
typedef struct group_pose {
	int n, stride, count;
	const float *prev, *angle, *sin, *cos, *key, *rows, *length;
	float alpha;
	spring_xform2 *joints;
} group_pose;

/// Chain `chain` of the group as a spring_chain2d (its copy in the group's scratch chain, which the
/// next call into the group overwrites; NULL for a bad index): for the tests, which compare every
/// array of it with a single chain's (chain2d_group.c).
const spring_chain2d *spring_chain2d_internal_group_chain(const spring_chain2d_group *group, int chain);

/// A frame of every chain, with the kernels of the instruction set in use.
static inline void spring_chain2d_internal_group_frame(const group_frame *r)
{
	spring_internal_angle_kernels()->frame(r);
}

/// Every chain's pose, the same way.
static inline void spring_chain2d_internal_group_poses(const group_pose *r)
{
	spring_internal_angle_kernels()->poses(r);
}

#endif
