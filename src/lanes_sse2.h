// SPDX-License-Identifier: MIT
// The lane layer (lanes.h) for SSE2, the x86-64 baseline: 4 lanes.
#ifndef SPRING_LANES_SSE2_H
#define SPRING_LANES_SSE2_H

#include "lanes.h"

#include <immintrin.h>

#define LANES_SSE2(name) lanes_sse2_##name
#define lanes_sse2_W 4
#define LANES_SSE2_TARGET
typedef float lanes_sse2_f __attribute__((vector_size(16)));
typedef int32_t lanes_sse2_i __attribute__((vector_size(16)));
typedef lanes_sse2_f lanes_sse2_fu; // the lanes as stored (aligned like the vector)

#define LP LANES_SSE2
#define LANES_WIDTH 4
#define LANES_ATTR
#define LANES_SQRT(v) ((lanes_sse2_f)_mm_sqrt_ps((__m128)(v)))
#define LANES_MIN(a, b) ((lanes_sse2_f)_mm_min_ps((__m128)(a), (__m128)(b)))
#define LANES_MAX(a, b) ((lanes_sse2_f)_mm_max_ps((__m128)(a), (__m128)(b)))
#define LANES_ANY(m) (_mm_movemask_ps((__m128)(m)) != 0)
#define LANES_ALL(m) (_mm_movemask_ps((__m128)(m)) == 0xf)
#include "lanes_vector.h"

#endif
