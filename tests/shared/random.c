// SPDX-License-Identifier: MIT
// Seeded random draws for the tests (see random.h).
#include "random.h"

float random_range(uint32_t *state, float lo, float hi)
{
	return lo + (hi - lo) * (float)spring_random_unit(state);
}

static uint64_t rng_state = 1;

void rng_seed(uint64_t seed)
{
	rng_state = seed ? seed : 1;
}

uint64_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

double rng_unit(void)
{
	return (double)(rng_next() >> 11) * 0x1p-53;
}
