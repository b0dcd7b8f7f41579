// SPDX-License-Identifier: MIT
// The lane layer (lanes.h) for aarch64's Advanced SIMD (NEON, in every aarch64 processor): 4
// lanes. Min and max are selects: NEON's fmin/fmax treat NaN otherwise than SSE's minps/maxps.
#ifndef SPRING_LANES_NEON_H
#define SPRING_LANES_NEON_H

#include "lanes.h"

#include <arm_neon.h>

#define LANES_NEON(name) lanes_neon_##name
#define lanes_neon_W 4
#define LANES_NEON_TARGET
typedef float lanes_neon_f __attribute__((vector_size(16)));
typedef int32_t lanes_neon_i __attribute__((vector_size(16)));
typedef lanes_neon_f lanes_neon_fu; // the lanes as stored (aligned like the vector)

#define LP LANES_NEON
#define LANES_WIDTH 4
#define LANES_ATTR
#define LANES_SQRT(v) ((lanes_neon_f)vsqrtq_f32((float32x4_t)(v)))
#define LANES_MIN(a, b) lanes_neon_sel((a) < (b), (a), (b))
#define LANES_MAX(a, b) lanes_neon_sel((a) > (b), (a), (b))
#define LANES_ANY(m) (vmaxvq_u32((uint32x4_t)(m)) != 0)
#define LANES_ALL(m) (vminvq_u32((uint32x4_t)(m)) != 0)
#include "lanes_vector.h"

#endif
