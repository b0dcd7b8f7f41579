// SPDX-License-Identifier: MIT
// The fixed-step clock: accumulates frame time, counts fixed steps (capped, the excess
// dropped and reported) and gives the interpolation factor for rendering between steps.
//
// Time is counted in whole ticks of step / SPRING_CLOCK_TICKS_PER_STEP: each frame's time is
// rounded once to the nearest tick, and the carried remainder is an integer, so no rounding ever
// accumulates. A frame rate whose frames are a whole number of ticks (every rate dividing
// SPRING_CLOCK_TICKS_PER_STEP times the step rate: 24, 25, 30, 50, 60, 90, 120, 144, 165, 240 fps
// and more, for any whole step rate) runs exactly floor(total time / step) steps: the float
// rounding of 1/24 s or 1/120 s is far below half a tick and vanishes in the rounding.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/spring.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define TICKS ((double)SPRING_CLOCK_TICKS_PER_STEP)

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

// frame_dt in ticks of the step, rounded to the nearest tick (exact integers up to 2^52; beyond,
// far past any cap, the unrounded value). Deterministic: one division, one product, one floor.
static double frame_ticks(float step, float frame_dt)
{
	double t = (double)frame_dt / (double)step * TICKS;
	return t < 0x1p52 ? floor(t + 0.5) : t;
}

// The fields spring_clock_advance trusts: a step in (0, 1], a cap in [1, 1000], a carried time in
// [0, SPRING_CLOCK_TICKS_PER_STEP) ticks.
static bool clock_usable(const spring_clock *c)
{
	return c && c->step > 0.0f && c->step <= 1.0f && c->max_steps >= 1 && c->max_steps <= 1000 && c->carried_ticks >= 0 &&
	       c->carried_ticks < SPRING_CLOCK_TICKS_PER_STEP;
}

// The accumulator and alpha of `carried` ticks (what advance stores beside them).
static void carried_time(float step, int32_t carried, float *accumulator, float *alpha)
{
	*accumulator = (float)((double)carried / TICKS * (double)step);
	if (!(*accumulator < step)) {
		*accumulator = nextafterf(step, 0.0f); // a denormal step: keep [0, step)
	}
	*alpha = (float)((double)carried / TICKS);
}

const char *spring_internal_clock_check(const spring_clock *live, const spring_clock *c)
{
	if (c->step != live->step || c->max_steps != live->max_steps) {
		return "step or max_steps differs from this object's";
	}
	if (!clock_usable(c)) {
		return "carried_ticks out of range";
	}
	float accumulator, alpha;
	carried_time(c->step, c->carried_ticks, &accumulator, &alpha);
	if (memcmp(&accumulator, &c->accumulator, sizeof accumulator) != 0 || memcmp(&alpha, &c->alpha, sizeof alpha) != 0) {
		return "accumulator or alpha does not match carried_ticks";
	}
	if (!spring_internal_finite(c->dropped) || !(c->dropped >= 0.0f) || !spring_internal_finite(c->frame_dt) ||
	    !(c->frame_dt >= 0.0f) || c->last_steps < 0 || c->last_steps > c->max_steps || !(c->time >= 0.0) ||
	    !(c->time - c->time == 0.0)) {
		return "dropped, frame_dt, last_steps or time out of range";
	}
	return NULL;
}

int spring_clock_advance(spring_clock *c, float frame_dt)
{
	if (!clock_usable(c)) {
		return -(int)SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(frame_dt)) {
		return -(int)SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return -(int)SPRING_ERROR_OUT_OF_RANGE;
	}
	double step = (double)c->step;
	double total = (double)c->carried_ticks + frame_ticks(c->step, frame_dt);
	double cap = (double)c->max_steps * TICKS;
	int n;
	int32_t carried;
	if (total >= cap + TICKS) {
		// Over the cap: run max_steps and discard the excess (whole steps and the fraction) rather
		// than spiral.
		n = c->max_steps;
		carried = 0;
		double excess = (total - cap) / TICKS * step;
		c->dropped = (float)fmin((double)c->dropped + excess, (double)FLT_MAX); // saturates, never inf
	} else {
		int64_t ticks = (int64_t)total; // exact: below (max_steps + 1) * TICKS
		n = (int)(ticks / SPRING_CLOCK_TICKS_PER_STEP);
		carried = (int32_t)(ticks % SPRING_CLOCK_TICKS_PER_STEP);
	}
	c->carried_ticks = carried;
	carried_time(c->step, carried, &c->accumulator, &c->alpha);
	c->frame_dt = frame_dt;
	c->last_steps = n;
	c->time += (double)n * step;
	return n;
}

float spring_clock_substep_fraction(const spring_clock *c, int i, int n)
{
	if (!c || n <= 0 || i < 0 || i >= n || !(c->frame_dt > 0.0f) || !(c->step > 0.0f)) {
		return 1.0f;
	}
	// In ticks, like the count: at 24 fps and 1/120 s the five steps end at exactly 0.2, 0.4, ...
	double frame = frame_ticks(c->step, c->frame_dt);
	if (!(frame > 0.0)) {
		return 1.0f;
	}
	double from_end = (double)c->carried_ticks + (double)(n - 1 - i) * TICKS;
	double f = 1.0 - from_end / frame;
	if (f < 0.0) {
		f = 0.0;
	}
	if (f > 1.0) {
		f = 1.0;
	}
	return (float)f;
}
