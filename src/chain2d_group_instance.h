// SPDX-License-Identifier: MIT
// One vector instance of spring_chain2d_group's kernels, included by chain2d_kernels.c once per
// vector width after defining T, TI, K, SUFFIX, the lane helpers (SEL, TOINT, BITS, FABS, SPLAT,
// MNOT, SQRT, ANY, MINV, MAXV) and K_ATTR, K_ATTR_ROWS, K_ATTR_INLINE (not installed; no include
// guard: it is meant to be included several times). It undefines the per-instance macros.
#include "chain2d_kernel.h" // the lane arithmetic first, then the kernels written over it

#include "chain2d_group_frame.h"
#undef SUFFIX
#undef SQRT
#undef ANY
#undef MINV
#undef MAXV
#undef T
#undef TI
#undef K
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE
