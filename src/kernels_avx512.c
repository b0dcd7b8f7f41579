// SPDX-License-Identifier: MIT
// The kernels over AVX-512F's lanes (x86-64, 16 lanes, mask registers) and their tables: ranges of
// springs and a single chain's fields go on to the 8- and 4-lane kernels, a single chain's paired
// steps are SSE2's; the angle group's poses write joints by transposes.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "simd_internal.h"

#if SPRING_SIMD_X86
#include "lanes_avx512.h"
#define KERNELS_LANES LANES_AVX512
#define KERNELS_TARGET LANES_AVX512_TARGET
#define KERNELS_SET avx512
#define KERNELS_ROWS_TARGET __attribute__((target("avx512f,prfchw"))) // prefetchw: every AVX-512 processor has it
#define KERNELS_ANGLE_JOINTS "chain2d_joints_avx512.h"
#include "kernels_set.h"

const spring_batch_kernels spring_batch_kernels_avx512 = {
	{spring_kernel_soa_avx512, spring_kernel_soa_avx2, spring_kernel_soa_sse2},
	{spring_kernel_aos_avx512, spring_kernel_aos_avx2, spring_kernel_aos_sse2},
	spring_kernel_soa_steps_avx512};
const spring_tip_kernels spring_tip_kernels_avx512 = {spring_kernel_fast_run_avx512, spring_kernel_walk_avx512,
                                                      spring_kernel_fast_pair_avx512, spring_kernel_fast_pair_p2_sse2};
const spring_angle_kernels spring_angle_kernels_avx512 = {
	spring_chain2d_kernel_frame_avx512,
	spring_chain2d_kernel_poses_avx512,
	{spring_chain2d_kernel_fields_avx512, spring_chain2d_kernel_fields_avx2, spring_chain2d_kernel_fields_sse2}};
#endif
