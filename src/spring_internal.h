// Private declarations shared between the library's sources (and white-box tests).
#ifndef SPRING_INTERNAL_H
#define SPRING_INTERNAL_H

/// Exact transition of e = x - target over time t for w2 = k/m, gamma = c/m:
/// e' = pp e + pv v, v' = vp e + vv v. Continuous across critical damping, finite for any t.
typedef struct spring_transition { double pp, pv, vp, vv; } spring_transition;
void spring_transition_compute(double w2, double gamma, double t, spring_transition *tr);

/// For zeta >= 1: the u with gap(u) = gap for a unit move from rest with omega_n = 1.
double spring_solve_unit_gap(double zeta, double gap);

#include "spring/base.h"

/// Builds an object in caller memory: the `*_init` of chains and rigs behind one signature.
typedef spring_result spring_init_thunk(const void *desc, void *memory, size_t size, void **out, spring_error *error);

/// The `*_create` every object shares: one 16-byte-aligned allocation of `size` bytes through
/// the allocator in force (recorded in `*used` for the matching destroy), then `init`. A `size`
/// of 0 (an invalid description) calls `init` without memory so that it reports the reason.
/// On failure nothing stays allocated and `*out` is untouched.
spring_result spring_internal_create(const void *desc, size_t size, spring_init_thunk *init, void **out,
                                     spring_allocator *used, const char *kind, spring_error *error);

#endif
