// SPDX-License-Identifier: MIT
// What a batch kernel steps (batch.c calls them, batch_kernel.h is them).
#ifndef SPRING_BATCH_INTERNAL_H
#define SPRING_BATCH_INTERNAL_H

#include "spring/spring.h"

#include <stddef.h>

// What one call steps: the arrays from the first spring of the range, the shared or per-spring
// transitions and the rest thresholds.
typedef struct batch_job {
	float *x, *v;
	const float *target;
	const spring_stepper *steppers; // from the first spring of the range, or NULL
	spring_stepper shared;
	int rest; // snap at rest after each step
	float rest_delta, rest_speed;
} batch_job;

#define BATCH_CACHE_LINE 64

// The prefetch helpers are forced inline: as calls, gcc finds them free of side effects and
// drops them.
#if defined(__GNUC__)
#define BATCH_PREFETCH_INLINE inline __attribute__((always_inline))
#define BATCH_PREFETCH(p) __builtin_prefetch((p), 1, 3)
#else
#define BATCH_PREFETCH_INLINE inline
#define BATCH_PREFETCH(p) ((void)(p))
#endif

// Asks for the cache lines [from, to) of `bytes` bytes at `p` (no effect on results).
static BATCH_PREFETCH_INLINE void batch_prefetch_lines(const void *p, size_t bytes, size_t from, size_t to)
{
	const char *c = p;
	for (size_t off = from * BATCH_CACHE_LINE; off < to * BATCH_CACHE_LINE && off < bytes; off += BATCH_CACHE_LINE) {
		BATCH_PREFETCH(c + off);
	}
}

// While a block of spring_batch_step_n takes step `k` of `steps`, the k-th share of the next
// block's (n springs of `next`) lines is fetched, so that the next block's first step finds its
// springs in the cache instead of waiting on memory (past the last-level cache the hardware
// prefetchers stop at every 4 KB page, and a block's array is one page).
static BATCH_PREFETCH_INLINE void batch_prefetch_share(const batch_job *next, int n, int k, int steps)
{
	size_t floats = (size_t)n * sizeof(float), lines = (floats + BATCH_CACHE_LINE - 1) / BATCH_CACHE_LINE;
	size_t from = lines * (size_t)k / (size_t)steps, to = lines * (size_t)(k + 1) / (size_t)steps;
	batch_prefetch_lines(next->x, floats, from, to);
	batch_prefetch_lines(next->v, floats, from, to);
	batch_prefetch_lines(next->target, floats, from, to);
	if (next->steppers) {
		size_t per = sizeof(spring_stepper) / sizeof(float);
		batch_prefetch_lines(next->steppers, floats * per, from * per, to * per);
	}
}

#endif
