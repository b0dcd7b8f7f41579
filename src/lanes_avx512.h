// SPDX-License-Identifier: MIT
// The lane layer (lanes.h) for x86-64 with AVX-512F: 16 lanes. Comparisons give mask registers
// (__mmask16) and selects blend under them: the same lanes and bits as vector masks, in two
// instructions where those take five.
#ifndef SPRING_LANES_AVX512_H
#define SPRING_LANES_AVX512_H

#include "lanes.h"

#include <immintrin.h>

#define LANES_AVX512(name) lanes_avx512_##name
#define lanes_avx512_W 16
#define LANES_AVX512_TARGET __attribute__((target("avx512f")))
typedef float lanes_avx512_f __attribute__((vector_size(64)));
typedef int32_t lanes_avx512_i __attribute__((vector_size(64)));
typedef __mmask16 lanes_avx512_m;
// Lanes stored where only a float's alignment is known (the angle group's lane state).
typedef lanes_avx512_f lanes_avx512_fu __attribute__((aligned(4)));

#define LANES_AVX512_FN LANES_INLINE LANES_AVX512_TARGET
#define LANES_AVX512_CMP(name, predicate)                                             \
	LANES_AVX512_FN __mmask16 lanes_avx512_##name(lanes_avx512_f a, lanes_avx512_f b) \
	{                                                                                 \
		return _mm512_cmp_ps_mask((__m512)a, (__m512)b, predicate);                   \
	}
LANES_AVX512_CMP(eq, _CMP_EQ_OQ)
LANES_AVX512_CMP(ne, _CMP_NEQ_UQ)
LANES_AVX512_CMP(lt, _CMP_LT_OQ)
LANES_AVX512_CMP(le, _CMP_LE_OQ)
LANES_AVX512_CMP(gt, _CMP_GT_OQ)
LANES_AVX512_CMP(ge, _CMP_GE_OQ)
#undef LANES_AVX512_CMP

LANES_AVX512_FN __mmask16 lanes_avx512_ieq(lanes_avx512_i a, lanes_avx512_i b)
{
	return _mm512_cmpeq_epi32_mask((__m512i)a, (__m512i)b);
}

LANES_AVX512_FN __mmask16 lanes_avx512_ilt(lanes_avx512_i a, lanes_avx512_i b)
{
	return _mm512_cmplt_epi32_mask((__m512i)a, (__m512i)b);
}

LANES_AVX512_FN __mmask16 lanes_avx512_itest(lanes_avx512_i a, lanes_avx512_i b)
{
	return _mm512_test_epi32_mask((__m512i)a, (__m512i)b);
}

LANES_AVX512_FN __mmask16 lanes_avx512_and(__mmask16 m, __mmask16 n)
{
	return (__mmask16)(m & n);
}

LANES_AVX512_FN __mmask16 lanes_avx512_or(__mmask16 m, __mmask16 n)
{
	return (__mmask16)(m | n);
}

LANES_AVX512_FN __mmask16 lanes_avx512_not(__mmask16 m)
{
	return (__mmask16)~m;
}

LANES_AVX512_FN int lanes_avx512_any(__mmask16 m)
{
	return m != 0;
}

LANES_AVX512_FN int lanes_avx512_all(__mmask16 m)
{
	return m == 0xffff;
}

LANES_AVX512_FN lanes_avx512_f lanes_avx512_sel(__mmask16 m, lanes_avx512_f a, lanes_avx512_f b)
{
	return (lanes_avx512_f)_mm512_mask_blend_ps(m, (__m512)b, (__m512)a);
}

LANES_AVX512_FN lanes_avx512_i lanes_avx512_seli(__mmask16 m, lanes_avx512_i a, lanes_avx512_i b)
{
	return (lanes_avx512_i)_mm512_mask_blend_epi32(m, (__m512i)b, (__m512i)a);
}

LANES_AVX512_FN int lanes_avx512_has(__mmask16 m, int l)
{
	return (m >> l) & 1;
}

LANES_AVX512_FN lanes_avx512_i lanes_avx512_mask(__mmask16 m)
{
	return (lanes_avx512_i)_mm512_maskz_mov_epi32(m, _mm512_set1_epi32(-1));
}
#undef LANES_AVX512_FN

#define LP LANES_AVX512
#define LANES_WIDTH 16
#define LANES_ATTR LANES_AVX512_TARGET
#define LANES_OWN_MASKS
#define LANES_SQRT(v) ((lanes_avx512_f)_mm512_sqrt_ps((__m512)(v)))
#define LANES_MIN(a, b) ((lanes_avx512_f)_mm512_min_ps((__m512)(a), (__m512)(b)))
#define LANES_MAX(a, b) ((lanes_avx512_f)_mm512_max_ps((__m512)(a), (__m512)(b)))
#include "lanes_vector.h"

#endif
