// SPDX-License-Identifier: MIT
// The lane layer (lanes.h) for wasm32 built with -msimd128: 4 lanes.
#ifndef SPRING_LANES_SIMD128_H
#define SPRING_LANES_SIMD128_H

#include "lanes.h"

#include <wasm_simd128.h>

#define LANES_SIMD128(name) lanes_simd128_##name
#define lanes_simd128_W 4
#define LANES_SIMD128_TARGET
typedef float lanes_simd128_f __attribute__((vector_size(16)));
typedef int32_t lanes_simd128_i __attribute__((vector_size(16)));
typedef lanes_simd128_f lanes_simd128_fu; // the lanes as stored (aligned like the vector)

#define LP LANES_SIMD128
#define LANES_WIDTH 4
#define LANES_ATTR
#define LANES_SQRT(v) ((lanes_simd128_f)wasm_f32x4_sqrt((v128_t)(v)))
// pmin(b, a) is a < b ? a : b, SSE's minps exactly (pmax likewise).
#define LANES_MIN(a, b) ((lanes_simd128_f)wasm_f32x4_pmin((v128_t)(b), (v128_t)(a)))
#define LANES_MAX(a, b) ((lanes_simd128_f)wasm_f32x4_pmax((v128_t)(b), (v128_t)(a)))
#define LANES_ANY(m) wasm_v128_any_true((v128_t)(m))
#define LANES_ALL(m) wasm_i32x4_all_true((v128_t)(m))
#include "lanes_vector.h"

#endif
