// SPDX-License-Identifier: MIT
// The kernels over SSE2's lanes (x86-64's baseline, 4 lanes) and their tables.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "simd_internal.h"

#if SPRING_SIMD_X86
#include "lanes_sse2.h"
#define KERNELS_LANES LANES_SSE2
#define KERNELS_TARGET LANES_SSE2_TARGET
#define KERNELS_SET sse2
#define KERNELS_PAIRS
#include "kernels_set.h"

const spring_batch_kernels spring_batch_kernels_sse2 = {
	{spring_kernel_soa_sse2}, {spring_kernel_aos_sse2}, spring_kernel_soa_steps_sse2};
const spring_tip_kernels spring_tip_kernels_sse2 = {spring_kernel_fast_run_sse2, spring_kernel_walk_sse2,
                                                    spring_kernel_fast_pair_sse2, spring_kernel_fast_pair_p2_sse2};
const spring_angle_kernels spring_angle_kernels_sse2 = {
	spring_chain2d_kernel_frame_sse2, spring_chain2d_kernel_poses_sse2, {spring_chain2d_kernel_fields_sse2}};
#endif
