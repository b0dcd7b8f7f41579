// SPDX-License-Identifier: MIT
/// Seeded random draws for the tests, the same on every platform (rand() is not).
/// Two sequences: the library's own 32-bit one (spring_random_next, the jittery frame clock's)
/// for values in a range, and a 64-bit xorshift for fuzzing the bits of floats and doubles.
#ifndef SPRING_TEST_RANDOM_H
#define SPRING_TEST_RANDOM_H

#include "spring/verify.h"

#include <stdint.h>

/// Uniform in [lo, hi): lo + (hi - lo) * spring_random_unit(state), rounded to float.
float random_range(uint32_t *state, float lo, float hi);

/// The 64-bit sequence: xorshift64 (shifts 13, 7, 17) on one process-wide state.
void rng_seed(uint64_t seed); ///< 0 is replaced by 1
uint64_t rng_next(void);      ///< the next 64 random bits
double rng_unit(void);        ///< uniform in [0, 1), 53 random bits

#endif
