// Private access to spring_chain2d for the library and white-box tests (not installed).
#ifndef SPRING_CHAIN2D_INTERNAL_H
#define SPRING_CHAIN2D_INTERNAL_H

#include "spring/chain.h"

/// The parameters a segment is stepped with: its own when set, otherwise the chain's gradient
/// or default. All zero for a NULL chain or a segment out of range.
spring_params spring_chain2d_internal_params(const spring_chain2d *chain, int segment);

/// spring_chain2d_get_pose at an explicit interpolation factor `alpha` in [0, 1] between the
/// last two steps (get_pose passes the clock's alpha; 1 gives the last stepped state).
spring_result spring_chain2d_internal_pose(const spring_chain2d *chain, float alpha, spring_xform2 *joints,
                                           float *local_angles, int capacity);

#endif
