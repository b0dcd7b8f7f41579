// SPDX-License-Identifier: MIT
// Every kernel family built over one vector lane set, for its unit kernels_<set>.c, which first
// defines L (the set's prefix macro: lanes.h), TARGET (its function attribute), KERNELS_SUFFIX
// (_sse2: the kernels are spring_kernel_<name>_sse2) and, for a four-lane set, KERNELS_P2_SUFFIX
// (_p2_sse2: a single chain's two steps side by side, chain_kernel.h's GATHER).
#include "batch_internal.h"
#include "chain_impl.h"
#include "kernels_internal.h"

#include <float.h>
#include <string.h>

#define KERNELS_CAT_(a, b, c) a##b##c
#define KERNELS_CAT(a, b, c) KERNELS_CAT_(a, b, c)

#define KERNEL(name) KERNELS_CAT(spring_kernel_, name, KERNELS_SUFFIX)
#include "batch_kernel.h"

#define KERNEL(name) KERNELS_CAT(spring_kernel_, name, KERNELS_SUFFIX)
#define B GROUP_BLOCK
#include "chain_kernel.h"

#if defined(KERNELS_P2_SUFFIX)
#define GATHER
#define KERNEL(name) KERNELS_CAT(spring_kernel_, name, KERNELS_P2_SUFFIX)
#define B 1
#include "chain_kernel.h"
#undef GATHER
#endif
