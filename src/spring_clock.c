// The fixed-step clock: accumulates frame time, counts fixed steps (capped, the excess
// dropped and reported) and gives the interpolation factor for rendering between steps.
#include "spring/spring.h"

#include "base_internal.h"

#include <float.h>
#include <math.h>

// ---------------------------------------------------------------------------------------------
// Clock

spring_result spring_clock_init(spring_clock *c, float step, int max_steps)
{
	if (!c) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(step)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (step == 0.0f) {
		step = SPRING_CLOCK_DEFAULT_STEP;
	}
	if (max_steps == 0) {
		max_steps = SPRING_CLOCK_DEFAULT_MAX_STEPS;
	}
	if (!(step > 0.0f && step <= 1.0f) || max_steps < 1 || max_steps > 1000) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_clock init = {0};
	init.step = step;
	init.max_steps = max_steps;
	*c = init;
	return SPRING_OK;
}

int spring_clock_advance(spring_clock *c, float frame_dt)
{
	if (!c || !(c->step > 0.0f) || c->max_steps < 1 || !spring_is_finite(c->accumulator)) {
		return -(int)SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(frame_dt)) {
		return -(int)SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return -(int)SPRING_ERROR_OUT_OF_RANGE;
	}
	double acc = (double)c->accumulator + (double)frame_dt;
	double step = (double)c->step;
	int n = 0;
	while (acc >= step && n < c->max_steps) {
		acc -= step;
		n++;
	}
	if (acc >= step) {
		// Over the cap: discard the excess (whole steps and the fraction) rather than spiral.
		c->dropped = (float)fmin((double)c->dropped + acc, (double)FLT_MAX); // saturates, never inf
		acc = 0.0;
	}
	c->accumulator = (float)acc;
	if (c->accumulator >= c->step) {
		c->accumulator = 0.0f;
	}
	c->alpha = c->accumulator / c->step;
	if (!(c->alpha < 1.0f)) {
		c->alpha = 0.0f;
	}
	c->frame_dt = frame_dt;
	c->last_steps = n;
	c->time += (double)n * step;
	return n;
}

float spring_clock_substep_fraction(const spring_clock *c, int i, int n)
{
	if (!c || n <= 0 || i < 0 || i >= n || !(c->frame_dt > 0.0f)) {
		return 1.0f;
	}
	double from_end = (double)c->accumulator + (double)(n - 1 - i) * (double)c->step;
	double f = 1.0 - from_end / (double)c->frame_dt;
	if (f < 0.0) {
		f = 0.0;
	}
	if (f > 1.0) {
		f = 1.0;
	}
	return (float)f;
}

// ---------------------------------------------------------------------------------------------
