// SPDX-License-Identifier: MIT
// What a batch kernel steps (batch.c calls them, batch_kernel.h is them).
#ifndef SPRING_BATCH_INTERNAL_H
#define SPRING_BATCH_INTERNAL_H

#include "spring/spring.h"

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

#endif
