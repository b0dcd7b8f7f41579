// SPDX-License-Identifier: MIT
// The angle chains' vector kernels: every segment of every chain of a spring_chain2d_group, one
// vector of chains at a time (a frame, the poses), and the field half of a single chain's step a
// vector of segments at a time (spring_chain2d_internal_fields, for spring_chain2d). The
// arithmetic is chain2d_kernel.h's, instantiated here for 4, 8 and 16 lanes
// (chain2d_group_instance.h) and chosen at run time from the one table of kernels
// (kernels_internal.h). The kernels call neither chain2d.c nor chain2d_group.c: a frame's job
// (chain2d_group_internal.h) brings the arrays and the group's rest test, and a single chain's
// fields job (chain2d_internal.h) its segments. The loops over the segments and every function
// they call are here and inline, so the per-segment code needs no link-time optimisation.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain2d_group_internal.h"
#include "chain2d_internal.h"
#include "kernels_internal.h"
#include "simd_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Blocks (vectors of chains) a frame steps together, segment by segment (chain2d_group_frame.h).
#define GROUP_CHUNK 8
// The most blocks with chains (not padding only) a chunk may have for its frame to run two steps at
// a time, a segment apart (chain2d_group_frame.h): a lone block has nothing else to overlap its walk
// with (about 1.1x on W2 at 10 chains), while a chunk of several blocks already overlaps theirs,
// and pairing them measured 2-3% slower at 1,000 and 10,000 chains (more state in flight).
#define GROUP_PAIR_MAX 1

// How a block's segments take a step (group_step's `how`): not at all (no chain awake); keeping
// the sleeping chains' state by selects; all its chains awake, storing the angles before, targets
// and kept sines (the frame's last step, or before a rest test); all awake, not storing them (the
// next step writes them again).
enum { GROUP_SEG_NONE, GROUP_SEG_BLEND, GROUP_SEG_KEEP, GROUP_SEG_ONLY };

// The chains of the block at b that exist (the padding lanes never wake): a comparison of the
// lanes' indices, read from a constant (no store of single lanes for a vector load to wait on).
static const int32_t group_lane_index[LANE_PAD] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

static inline size_t group_min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

// Joints a pose computes for a block before writing them out: GROUP_POSE_BATCH, 1 unless an
// instance writes them by transposes (AVX-512: GROUP_POSE_JOINTS).
#define GROUP_POSE_JOINTS 16
#define GROUP_POSE_BATCH 1

// The instances write joints lane by lane unless they define their own (AVX-512 below).
#define GROUP_OWN_WRITE_JOINTS 0

// Plain float (every platform; one chain at a time).
#define T float
#define TI int
#define TM int
#define TL float
#define LANES_OF(m) (m)
#define K(name) spring_chain2d_lane_##name
#define SEL(m, a, b) ((m) ? (a) : (b))
#define SPLAT(c) (c)
#define MNOT(m) (!(m))
#define ANY(m) ((m) != 0)
#define MINV(a, b) ((a) < (b) ? (a) : (b))
#define MAXV(a, b) ((a) > (b) ? (a) : (b))
#define BITS(x) spring_chain2d_bits(x)
#define K_ATTR_ROWS
#define K_ATTR_INLINE __attribute__((always_inline))
#define SUFFIX scalar
SPRING_CHAIN2D_SCALAR_MASKS_BEGIN
#include "chain2d_group_frame.h"
SPRING_CHAIN2D_SCALAR_MASKS_END
#undef SUFFIX
#undef T
#undef TI
#undef TM
#undef TL
#undef LANES_OF
#undef K
#undef SEL
#undef SPLAT
#undef MNOT
#undef ANY
#undef MINV
#undef MAXV
#undef BITS
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE

#if SPRING_SIMD_V4
// The vector instances: the generic arithmetic (chain2d_kernel.h) over GCC/Clang vector types.
#define TM TI
#define TL T
#define LANES_OF(m) (m)
#define SEL(m, a, b) ((T)(((TI)(m) & (TI)(a)) | (~(TI)(m) & (TI)(b))))
#define TOINT(x) __builtin_convertvector(x, TI)
#define BITS(x) ((TI)(x))
#define FABS(x) ((T)((TI)(x)&0x7fffffff))
#define SPLAT(c) ((c) - (T){0})
#define MNOT(m) (~(m))

typedef float group_vf4 __attribute__((vector_size(16)));
typedef int32_t group_vi4 __attribute__((vector_size(16)));
#define T group_vf4
#define TI group_vi4
#define K(name) group_v4_##name
#define K_ATTR
#define K_ATTR_ROWS
#define K_ATTR_INLINE __attribute__((always_inline))
#if SPRING_SIMD_WASM
#define SQRT(x) ((T)wasm_f32x4_sqrt((v128_t)(x)))
#define ANY(m) wasm_v128_any_true((v128_t)(m))
#define MINV(a, b) ((T)wasm_f32x4_pmin((v128_t)(b), (v128_t)(a))) // a < b ? a : b
#define MAXV(a, b) ((T)wasm_f32x4_pmax((v128_t)(b), (v128_t)(a))) // a > b ? a : b
#elif SPRING_SIMD_NEON
#define SQRT(x) ((T)vsqrtq_f32((float32x4_t)(x)))
#define ANY(m) (vmaxvq_u32((uint32x4_t)(m)) != 0)
// SSE's minps/maxps exactly (the second operand when either is NaN), not NEON's fmin/fmax.
#define MINV(a, b) SEL((a) < (b), (a), (b))
#define MAXV(a, b) SEL((a) > (b), (a), (b))
#else
#define SQRT(x) ((T)_mm_sqrt_ps((__m128)(x)))
#define ANY(m) (_mm_movemask_ps((__m128)(m)) != 0)
#define MINV(a, b) ((T)_mm_min_ps((__m128)(a), (__m128)(b)))
#define MAXV(a, b) ((T)_mm_max_ps((__m128)(a), (__m128)(b)))
#endif
#define SUFFIX v4
#include "chain2d_group_instance.h"
#endif

#if SPRING_SIMD_X86
typedef float group_vf8 __attribute__((vector_size(32)));
typedef int32_t group_vi8 __attribute__((vector_size(32)));
#define T group_vf8
#define TI group_vi8
#define K(name) group_avx2_##name
#define SQRT(x) ((T)_mm256_sqrt_ps((__m256)(x)))
#define ANY(m) (_mm256_movemask_ps((__m256)(m)) != 0)
#define MINV(a, b) ((T)_mm256_min_ps((__m256)(a), (__m256)(b)))
#define MAXV(a, b) ((T)_mm256_max_ps((__m256)(a), (__m256)(b)))
#define K_ATTR __attribute__((target("avx2"), always_inline))
#define K_ATTR_ROWS __attribute__((target("avx2")))
#define K_ATTR_INLINE __attribute__((target("avx2"), always_inline))
#define SUFFIX avx2
#include "chain2d_group_instance.h"

typedef float group_vf16 __attribute__((vector_size(64)));
typedef int32_t group_vi16 __attribute__((vector_size(64)));
#define T group_vf16
#define TI group_vi16
#define K(name) group_avx512_##name
#define SQRT(x) ((T)_mm512_sqrt_ps((__m512)(x)))
#define ANY(m) ((m) != 0)
// AVX-512's comparisons give mask registers (__mmask16) and its selects blend under them: two
// instructions where the vector masks took five (the same lanes, the same bits). The last
// instance: these replace the vector types' definitions for the rest of the file.
#undef TL
#undef TM
#undef LANES_OF
#undef SEL
#undef MNOT
#undef GT
#undef GE
#undef LT
#undef LE
#undef EQ
#undef NE
#undef IEQ
#undef ILT
#undef ITEST
#define TM __mmask16
// A block's lane state is used where it lies in the group (memory aligned to 16 bytes).
typedef group_vf16 group_vf16_rows __attribute__((aligned(4)));
#define TL group_vf16_rows
#define LANES_OF(m) ((TI)_mm512_maskz_mov_epi32((m), _mm512_set1_epi32(-1)))
#define SEL(m, a, b) ((T)_mm512_mask_blend_ps((m), (__m512)((b) - (T){0}), (__m512)((a) - (T){0})))
#define MNOT(m) ((__mmask16) ~(m))
#define GROUP_CMP(a, b, predicate) _mm512_cmp_ps_mask((__m512)((a) - (T){0}), (__m512)((b) - (T){0}), predicate)
#define GT(a, b) GROUP_CMP(a, b, _CMP_GT_OQ)
#define GE(a, b) GROUP_CMP(a, b, _CMP_GE_OQ)
#define LT(a, b) GROUP_CMP(a, b, _CMP_LT_OQ)
#define LE(a, b) GROUP_CMP(a, b, _CMP_LE_OQ)
#define EQ(a, b) GROUP_CMP(a, b, _CMP_EQ_OQ)
#define NE(a, b) GROUP_CMP(a, b, _CMP_NEQ_UQ)
#define IEQ(a, b) _mm512_cmpeq_epi32_mask((__m512i)((a) + (TI){0}), (__m512i)((b) + (TI){0}))
#define ILT(a, b) _mm512_cmplt_epi32_mask((__m512i)((a) + (TI){0}), (__m512i)((b) + (TI){0}))
#define ITEST(a, b) _mm512_test_epi32_mask((__m512i)((a) + (TI){0}), (__m512i)((b) + (TI){0}))
#define MINV(a, b) ((T)_mm512_min_ps((__m512)(a), (__m512)(b)))
#define MAXV(a, b) ((T)_mm512_max_ps((__m512)(a), (__m512)(b)))
#define K_ATTR __attribute__((target("avx512f"), always_inline))
#define K_ATTR_ROWS __attribute__((target("avx512f,prfchw"))) // prefetchw: every AVX-512 processor has it
#define K_ATTR_INLINE __attribute__((target("avx512f"), always_inline))

// The sixteen vectors at v as a 16 x 16 matrix of floats, transposed in place.
static inline K_ATTR_INLINE void transpose16_avx512(__m512 *v)
{
	__m512 t[16], u[16];
	for (int k = 0; k < 8; k++) {
		t[2 * k] = _mm512_unpacklo_ps(v[2 * k], v[2 * k + 1]);
		t[2 * k + 1] = _mm512_unpackhi_ps(v[2 * k], v[2 * k + 1]);
	}
	for (int k = 0; k < 4; k++) {
		u[4 * k] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
		u[4 * k + 1] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
		u[4 * k + 2] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
		u[4 * k + 3] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
	}
	for (int k = 0; k < 2; k++) {
		for (int j = 0; j < 4; j++) {
			t[8 * k + j] = _mm512_shuffle_f32x4(u[8 * k + j], u[8 * k + j + 4], 0x88);
			t[8 * k + j + 4] = _mm512_shuffle_f32x4(u[8 * k + j], u[8 * k + j + 4], 0xDD);
		}
	}
	for (int j = 0; j < 8; j++) {
		v[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
		v[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xDD);
	}
}

// write_joints_<suffix> (chain2d_group_frame.h) by transposes: a chain's records are contiguous floats (x, y,
// angle, 1, 1 per joint), so the rows x0 y0 a0 1 1 x1 ... transposed 16 at a time give each chain
// 16 of its floats in one vector and one store (lane-by-lane writes were most of a pose's time).
_Static_assert(sizeof(spring_xform2) == 5 * sizeof(float), "a joint record is five floats");
static inline K_ATTR_INLINE void write_joints_avx512(spring_xform2 *first, int per, size_t live, int count, const T *xs,
                                                     const T *ys, const T *as)
{
	__m512 rows[5 * GROUP_POSE_JOINTS];
	const __m512 one = _mm512_set1_ps(1.0f);
	for (int i = 0; i < count; i++) {
		rows[5 * i] = (__m512)xs[i];
		rows[5 * i + 1] = (__m512)ys[i];
		rows[5 * i + 2] = (__m512)as[i];
		rows[5 * i + 3] = one;
		rows[5 * i + 4] = one;
	}
	const int floats = 5 * count, tiles = (floats + 15) / 16;
	for (int m = floats; m < 16 * tiles; m++) {
		rows[m] = one;
	}
	for (int t = 0; t < tiles; t++) {
		transpose16_avx512(rows + 16 * t);
		const int valid = floats - 16 * t < 16 ? floats - 16 * t : 16;
		const __mmask16 mask = (__mmask16)((1u << valid) - 1u);
		for (size_t q = 0; q < live; q++) {
			_mm512_mask_storeu_ps((float *)(void *)(first + q * (size_t)per) + 16 * t, mask, rows[16 * t + q]);
		}
	}
}
#undef GROUP_OWN_WRITE_JOINTS
#define GROUP_OWN_WRITE_JOINTS 1
#undef GROUP_POSE_BATCH
#define GROUP_POSE_BATCH GROUP_POSE_JOINTS
#define SUFFIX avx512
#include "chain2d_group_instance.h"
#undef GROUP_CMP
#undef GROUP_OWN_WRITE_JOINTS
#define GROUP_OWN_WRITE_JOINTS 0
#undef GROUP_POSE_BATCH
#define GROUP_POSE_BATCH 1
#endif
