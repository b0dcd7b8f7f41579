// SPDX-License-Identifier: MIT
// The kernels over NEON's lanes (aarch64 Advanced SIMD, 4 lanes) and their tables.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "simd_internal.h"

#if SPRING_SIMD_NEON
#include "lanes_neon.h"
#define KERNELS_LANES LANES_NEON
#define KERNELS_TARGET LANES_NEON_TARGET
#define KERNELS_SET neon
#define KERNELS_PAIRS
#include "kernels_set.h"

const spring_batch_kernels spring_batch_kernels_neon = {
	{spring_kernel_soa_neon}, {spring_kernel_aos_neon}, spring_kernel_soa_steps_neon};
const spring_tip_kernels spring_tip_kernels_neon = {spring_kernel_fast_run_neon, spring_kernel_walk_neon,
                                                    spring_kernel_fast_pair_neon, spring_kernel_fast_pair_p2_neon};
const spring_angle_kernels spring_angle_kernels_neon = {
	spring_chain2d_kernel_frame_neon, spring_chain2d_kernel_poses_neon, {spring_chain2d_kernel_fields_neon}};
#endif
