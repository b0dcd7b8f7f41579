// SPDX-License-Identifier: MIT
// The one-lane kernels (every platform) and the scalar tables: the tip chain's kernel for a single
// chain (f: blocks of one lane) and for a group's blocks one lane at a time (g1), the angle group
// one chain at a time (over chain2d_internal.h's one-lane arithmetic); batches go one spring at a
// time (batch.c).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain2d_group_internal.h"
#include "chain2d_internal.h"
#include "chain_impl.h"
#include "kernels_internal.h"
#include "lanes_scalar.h"

#include <float.h>
#include <stdbool.h>
#include <string.h>

#define L LANES_SCALAR
#define TARGET LANES_SCALAR_TARGET
#define KERNEL(name) spring_kernel_##name##_f
#define B 1
#include "chain_kernel.h"

// A bone's tip step in the 2D walk's own frame (chain_step.c): pivot p, rigid direction u, rigid
// tip g.
void spring_kernel_tip2d_f(const spring_chain *c, const chain_arrays *a, int i, int snap, int *rest, float px, float py, float ux,
                           float uy, float gx, float gy, float per_step)
{
	const float len = a->length[i], tiny = 1e-4f * len;
	const spring_kernel_bone_k_f bk = {
		0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, len, 1.0f / len, 2.0f * len * tiny};
	const spring_kernel_frame_f f = {px, py, 0.0f, ux, uy, 0.0f, gx, gy, 0.0f};
	const tip_mode m = bone_mode(c, a, i, snap);
	float *p = PLANE_AT(a, 0, i);
	const float *tr = TRANS_AT(a, 0, i);
	const spring_kernel_at_f at = {{p, p}, {tr, tr}, {rest, rest}, 1, a, i, m.semi ? a->params + (size_t)i * (size_t)a->s : NULL};
	float dx, dy, dz;
	spring_kernel_tip_f(c, &at, &bk, m, &f, c->accel.x, c->accel.y, c->accel.z, per_step, &dx, &dy, &dz);
}

#define KERNEL(name) spring_kernel_##name##_g1
#define B GROUP_BLOCK
#include "chain_kernel.h"

// The angle group one chain at a time, over the one-lane arithmetic chain2d_internal.h built.
#define K(name) spring_chain2d_lane_##name
#define SUFFIX scalar
#define K_ATTR_ROWS
#define K_ATTR_INLINE LANES_INLINE_ATTR
#include "chain2d_group_frame.h"

const spring_batch_kernels spring_batch_kernels_scalar = {{NULL}, {NULL}, NULL};
const spring_tip_kernels spring_tip_kernels_scalar = {spring_kernel_fast_run_g1, spring_kernel_walk_g1,
                                                      spring_kernel_fast_pair_g1, spring_kernel_fast_pair_f};
const spring_angle_kernels spring_angle_kernels_scalar = {
	spring_chain2d_kernel_frame_scalar, spring_chain2d_kernel_poses_scalar, {NULL}};
