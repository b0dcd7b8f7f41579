// SPDX-License-Identifier: MIT
// The lane layer (lanes.h) for x86-64 with AVX2: 8 lanes (no FMA is asked for: fp_contract.h).
#ifndef SPRING_LANES_AVX2_H
#define SPRING_LANES_AVX2_H

#include "lanes.h"

#include <immintrin.h>

#define LANES_AVX2(name) lanes_avx2_##name
#define lanes_avx2_W 8
#define LANES_AVX2_TARGET __attribute__((target("avx2")))
typedef float lanes_avx2_f __attribute__((vector_size(32)));
typedef int32_t lanes_avx2_i __attribute__((vector_size(32)));
typedef lanes_avx2_f lanes_avx2_fu; // the lanes as stored (aligned like the vector)

#define LP LANES_AVX2
#define LANES_WIDTH 8
#define LANES_ATTR LANES_AVX2_TARGET
#define LANES_SQRT(v) ((lanes_avx2_f)_mm256_sqrt_ps((__m256)(v)))
#define LANES_MIN(a, b) ((lanes_avx2_f)_mm256_min_ps((__m256)(a), (__m256)(b)))
#define LANES_MAX(a, b) ((lanes_avx2_f)_mm256_max_ps((__m256)(a), (__m256)(b)))
#define LANES_ANY(m) (_mm256_movemask_ps((__m256)(m)) != 0)
#define LANES_ALL(m) (_mm256_movemask_ps((__m256)(m)) == 0xff)
#include "lanes_vector.h"

#endif
