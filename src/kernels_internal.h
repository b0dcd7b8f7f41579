// SPDX-License-Identifier: MIT
// The tables of vector kernels: for each instruction set (simd_internal.h), the kernels of every
// family that runs many lanes at once, built in that set's unit kernels_<set>.c over its lane
// layer (lanes_<set>.h). simd.c's one list of instruction sets makes each family's table and
// chooses the set once per process; every family calls through its spring_internal_*_kernels().
// Adding an instruction set: lanes.h says how.
#ifndef SPRING_KERNELS_INTERNAL_H
#define SPRING_KERNELS_INTERNAL_H

#include "simd_internal.h"

#include "spring/spring.h"

struct batch_job;             // batch_internal.h
struct fast_job;              // chain_impl.h
struct group_frame;           // chain2d_group_internal.h
struct group_pose;            // chain2d_group_internal.h
struct spring_chain2d_fields; // chain2d_internal.h

/// Whole vectors of springs [0, n) of a structure of arrays; returns the springs done, `*bad` the
/// first refused one (batch_kernel.h).
typedef int spring_batch_soa_kernel(const struct batch_job *job, int n, int *bad);
/// The same over an array of spring_state with one stepper.
typedef int spring_batch_aos_kernel(const spring_stepper *st, spring_state *states, const float *ts, int n, int *bad);

/// `steps` steps of the whole vectors of springs [0, n) in one call, fetching the next block's
/// springs (`next`, next_n of them; NULL: none) as it goes; returns the springs done, `*bad` the
/// lowest refused (spring_batch_step_n).
typedef int spring_batch_steps_kernel(const struct batch_job *job, int n, int steps, const struct batch_job *next, int next_n,
                                      int *bad);

/// A set's batch kernels (batch.c): the kernels a range goes through, widest first (on AVX-512:
/// 16, 8, then 4 lanes), and the widest one's many-step form; none: one spring at a time.
typedef struct spring_batch_kernels {
	spring_batch_soa_kernel *soa[3];
	spring_batch_aos_kernel *aos[3];
	spring_batch_steps_kernel *steps;
} spring_batch_kernels;

/// A set's tip-chain kernels (chain_step.c, chain_kernel.h): a group's step in the fast mode, in
/// each bone's own mode, two steps a bone apart, and a single chain's two steps side by side.
typedef struct spring_tip_kernels {
	void (*run)(const struct fast_job *job);
	void (*walk)(const struct fast_job *job, int snap);
	int (*pair)(const struct fast_job *first, const struct fast_job *second);
	int (*single_pair)(const struct fast_job *first, const struct fast_job *second);
} spring_tip_kernels;

/// A set's angle-chain kernels (chain2d_group_frame.h): a group's frame and poses; a single chain's
/// fields, widest first, the one-lane kernel finishing what whole vectors leave.
typedef struct spring_angle_kernels {
	void (*frame)(const struct group_frame *shared);
	void (*poses)(const struct group_pose *shared);
	int (*fields[3])(const struct spring_chain2d_fields *a, int first);
} spring_angle_kernels;

/// Each family's kernels of the instruction set in use (chosen on the first call:
/// simd_internal.h). One table per family, so that a program using one family links only its
/// kernels.
const spring_batch_kernels *spring_internal_batch_kernels(void);
const spring_tip_kernels *spring_internal_tip_kernels(void);
const spring_angle_kernels *spring_internal_angle_kernels(void);

// Each set's tables (kernels_<set>.c).
#define SPRING_KERNEL_TABLES_DECLARE(set)                         \
	extern const spring_batch_kernels spring_batch_kernels_##set; \
	extern const spring_tip_kernels spring_tip_kernels_##set;     \
	extern const spring_angle_kernels spring_angle_kernels_##set;
SPRING_KERNEL_TABLES_DECLARE(scalar)
SPRING_KERNEL_TABLES_DECLARE(sse2)
SPRING_KERNEL_TABLES_DECLARE(avx2)
SPRING_KERNEL_TABLES_DECLARE(avx512)
SPRING_KERNEL_TABLES_DECLARE(simd128)
SPRING_KERNEL_TABLES_DECLARE(neon)

/// The kernels a lane set's unit defines (KERNEL(name) is spring_kernel_<name>_<set>).
#define SPRING_KERNELS_DECLARE(set)                                      \
	spring_batch_soa_kernel spring_kernel_soa_##set;                     \
	spring_batch_aos_kernel spring_kernel_aos_##set;                     \
	spring_batch_steps_kernel spring_kernel_soa_steps_##set;             \
	void spring_kernel_fast_run_##set(const struct fast_job *job);       \
	void spring_kernel_walk_##set(const struct fast_job *job, int snap); \
	int spring_kernel_fast_pair_##set(const struct fast_job *first, const struct fast_job *second);
SPRING_KERNELS_DECLARE(sse2)
SPRING_KERNELS_DECLARE(avx2)
SPRING_KERNELS_DECLARE(avx512)
SPRING_KERNELS_DECLARE(simd128)
SPRING_KERNELS_DECLARE(neon)
/// The one-lane tip kernels: a single chain (f, blocks of one lane) and a group's blocks one lane
/// at a time (g1); kernels_scalar.c.
void spring_kernel_fast_run_f(const struct fast_job *job);
void spring_kernel_walk_f(const struct fast_job *job, int snap);
int spring_kernel_fast_pair_f(const struct fast_job *first, const struct fast_job *second);
void spring_kernel_fast_run_g1(const struct fast_job *job);
void spring_kernel_walk_g1(const struct fast_job *job, int snap);
int spring_kernel_fast_pair_g1(const struct fast_job *first, const struct fast_job *second);
struct spring_chain;
struct chain_arrays;
/// A bone's one-lane tip step in the 2D walk's frame (chain_step.c): pivot p, rigid direction u,
/// rigid tip g.
void spring_kernel_tip2d_f(const struct spring_chain *c, const struct chain_arrays *a, int i, int snap, int *rest, float px,
                           float py, float ux, float uy, float gx, float gy, float per_step);
/// A single chain's two steps side by side in the lanes of a four-lane set (chain_kernel.h's GATHER).
int spring_kernel_fast_pair_p2_sse2(const struct fast_job *first, const struct fast_job *second);
int spring_kernel_fast_pair_p2_simd128(const struct fast_job *first, const struct fast_job *second);
int spring_kernel_fast_pair_p2_neon(const struct fast_job *first, const struct fast_job *second);

// The angle chains' kernels (chain2d_group_frame.h over each set).
void spring_chain2d_kernel_frame_scalar(const struct group_frame *shared);
void spring_chain2d_kernel_poses_scalar(const struct group_pose *shared);
int spring_chain2d_kernel_fields_scalar(const struct spring_chain2d_fields *a, int first);
#define SPRING_ANGLE_KERNELS_DECLARE(set)                                     \
	void spring_chain2d_kernel_frame_##set(const struct group_frame *shared); \
	void spring_chain2d_kernel_poses_##set(const struct group_pose *shared);  \
	int spring_chain2d_kernel_fields_##set(const struct spring_chain2d_fields *a, int first);
SPRING_ANGLE_KERNELS_DECLARE(sse2)
SPRING_ANGLE_KERNELS_DECLARE(avx2)
SPRING_ANGLE_KERNELS_DECLARE(avx512)
SPRING_ANGLE_KERNELS_DECLARE(simd128)
SPRING_ANGLE_KERNELS_DECLARE(neon)

#endif
