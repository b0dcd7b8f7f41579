// SPDX-License-Identifier: MIT
// One vector instance of spring_chain2d_group's kernels, for kernels_set.h: the lane arithmetic
// (chain2d_kernel.h), then the kernels written over it (chain2d_group_frame.h), over the lane set
// L, named by K and SUFFIX, with the attributes K_ATTR, K_ATTR_ROWS and K_ATTR_INLINE (not
// installed; no include guard: it is meant to be included once per set). It undefines K, SUFFIX and
// the attributes.
#include "chain2d_kernel.h"

#include "chain2d_group_frame.h"
#undef SUFFIX
#undef K
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE
