// SPDX-License-Identifier: MIT
// The kernels over SIMD128's lanes (wasm32 built with -msimd128, 4 lanes) and their tables.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "simd_internal.h"

#if SPRING_SIMD_WASM
#include "lanes_simd128.h"
#define KERNELS_LANES LANES_SIMD128
#define KERNELS_TARGET LANES_SIMD128_TARGET
#define KERNELS_SET simd128
#define KERNELS_PAIRS
#include "kernels_set.h"

const spring_batch_kernels spring_batch_kernels_simd128 = {
	{spring_kernel_soa_simd128}, {spring_kernel_aos_simd128}, spring_kernel_soa_steps_simd128};
const spring_tip_kernels spring_tip_kernels_simd128 = {spring_kernel_fast_run_simd128, spring_kernel_walk_simd128,
                                                       spring_kernel_fast_pair_simd128, spring_kernel_fast_pair_p2_simd128};
const spring_angle_kernels spring_angle_kernels_simd128 = {
	spring_chain2d_kernel_frame_simd128, spring_chain2d_kernel_poses_simd128, {spring_chain2d_kernel_fields_simd128}};
#endif
