// SPDX-License-Identifier: MIT
// Every kernel family built over one vector lane set, for its unit kernels_<set>.c, which first
// defines KERNELS_LANES (the set's prefix macro: lanes.h), KERNELS_TARGET (its function
// attribute), KERNELS_SET (its name: the kernels are spring_kernel_<name>_<set>, the angle
// group's spring_chain2d_kernel_<name>_<set>) and may define KERNELS_PAIRS (a four-lane set: a
// single chain's two steps side by side, chain_kernel.h's GATHER), KERNELS_ROWS_TARGET (the angle
// frames' attribute, if not KERNELS_TARGET) and KERNELS_ANGLE_JOINTS (a header writing the angle
// group's joints its own way: chain2d_group_frame.h).
#include "batch_internal.h"
#include "chain2d_group_internal.h"
#include "chain2d_internal.h"
#include "chain_impl.h"
#include "kernels_internal.h"

#include <float.h>
#include <stdbool.h>
#include <string.h>

#define KERNELS_CAT_(a, b, c) a##b##c
#define KERNELS_CAT(a, b, c) KERNELS_CAT_(a, b, c)

#define L KERNELS_LANES
#define TARGET KERNELS_TARGET

#define KERNEL(name) KERNELS_CAT(spring_kernel_, name, KERNELS_CAT(_, KERNELS_SET, ))
#include "batch_kernel.h"

#define KERNEL(name) KERNELS_CAT(spring_kernel_, name, KERNELS_CAT(_, KERNELS_SET, ))
#define B GROUP_BLOCK
#include "chain_kernel.h"

#if defined(KERNELS_PAIRS)
#define GATHER
#define KERNEL(name) KERNELS_CAT(spring_kernel_, name, KERNELS_CAT(_p2_, KERNELS_SET, ))
#define B 1
#include "chain_kernel.h"
#undef GATHER
#endif

// The angle chains: the lane arithmetic and the group's frames, poses and fields.
#if !defined(KERNELS_ROWS_TARGET)
#define KERNELS_ROWS_TARGET KERNELS_TARGET
#endif
#if defined(KERNELS_ANGLE_JOINTS)
#include KERNELS_ANGLE_JOINTS
#endif
#define K(name) KERNELS_CAT(group_, KERNELS_SET, _##name)
#define SUFFIX KERNELS_SET
#define K_ATTR KERNELS_TARGET __attribute__((always_inline))
#define K_ATTR_ROWS KERNELS_ROWS_TARGET
#define K_ATTR_INLINE KERNELS_TARGET __attribute__((always_inline))
#include "chain2d_group_instance.h"
