// SPDX-License-Identifier: MIT
// Undefines the lane types and operations chain_lane_ops.h (or chain_step.c, for a vector
// instance) defined: included after each instance of chain_lane_ops.h or chain_kernel.h.
#undef VF
#undef VI
#undef W
#undef SPLAT
#undef SQRT
#undef SEL
#undef NOT
#undef ANY
#undef ABSV
#undef LANE
