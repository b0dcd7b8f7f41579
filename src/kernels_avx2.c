// SPDX-License-Identifier: MIT
// The kernels over AVX2's lanes (x86-64, 8 lanes) and their tables: ranges of springs and a
// single chain's fields go on to the 4-lane kernels, a single chain's paired steps are SSE2's.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "simd_internal.h"

#if SPRING_SIMD_X86
#include "lanes_avx2.h"
#define KERNELS_LANES LANES_AVX2
#define KERNELS_TARGET LANES_AVX2_TARGET
#define KERNELS_SET avx2
#include "kernels_set.h"

const spring_batch_kernels spring_batch_kernels_avx2 = {{spring_kernel_soa_avx2, spring_kernel_soa_sse2},
                                                        {spring_kernel_aos_avx2, spring_kernel_aos_sse2},
                                                        spring_kernel_soa_steps_avx2};
const spring_tip_kernels spring_tip_kernels_avx2 = {spring_kernel_fast_run_avx2, spring_kernel_walk_avx2,
                                                    spring_kernel_fast_pair_avx2, spring_kernel_fast_pair_p2_sse2};
const spring_angle_kernels spring_angle_kernels_avx2 = {spring_chain2d_kernel_frame_avx2,
                                                        spring_chain2d_kernel_poses_avx2,
                                                        {spring_chain2d_kernel_fields_avx2, spring_chain2d_kernel_fields_sse2}};
#endif
