// SPDX-License-Identifier: MIT
// The three objective checks (energy, rest, envelope across frame rates).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/verify.h"

#include <math.h>
#include <string.h>

spring_result spring_step_fn_exact(void *user, spring_params p, spring_state *s, float target, float dt)
{
	(void)user;
	return spring_step_exact(p, s, target, dt);
}

spring_result spring_step_fn_semi_implicit(void *user, spring_params p, spring_state *s, float target, float dt)
{
	(void)user;
	return spring_step_semi_implicit(p, s, target, dt);
}

// ---------------------------------------------------------------------------------------------
// The driver: feeds frames to an integrator either directly or through a spring_clock.

typedef struct driver {
	spring_params p;
	spring_step_fn *step;
	void *user;
	int direct;
	spring_clock clock;
	spring_state s, prev;
	float target_prev;
	spring_result error;
} driver;

static spring_result driver_init(driver *d, spring_params p, const spring_check_desc *desc, spring_state s0, float target0)
{
	spring_check_desc def = {0};
	if (!desc) {
		desc = &def;
	}
	memset(d, 0, sizeof *d);
	d->p = p;
	d->step = desc->step ? desc->step : spring_step_fn_exact;
	d->user = desc->user;
	d->direct = desc->direct;
	d->s = s0;
	d->prev = s0;
	d->target_prev = target0;
	if (!d->direct) {
		return spring_clock_init(&d->clock, desc->clock_step, desc->max_steps);
	}
	return SPRING_OK;
}

// Runs one frame of frame_dt whose input (sampled at the frame's end) is target_now; returns the
// rendered value.
static float driver_frame(driver *d, float frame_dt, float target_now)
{
	if (d->error != SPRING_OK) {
		return d->s.x;
	}
	if (d->direct) {
		d->error = d->step(d->user, d->p, &d->s, target_now, frame_dt);
		return d->s.x;
	}
	int n = spring_clock_advance(&d->clock, frame_dt);
	for (int i = 0; i < n && d->error == SPRING_OK; i++) {
		float f = spring_clock_substep_fraction(&d->clock, i, n);
		float target = d->target_prev + (target_now - d->target_prev) * f;
		d->prev = d->s;
		d->error = d->step(d->user, d->p, &d->s, target, d->clock.step);
	}
	d->target_prev = target_now;
	return d->prev.x + (d->s.x - d->prev.x) * d->clock.alpha;
}

static int fps_ok(float fps)
{
	return spring_is_finite(fps) && fps >= 1.0f && fps <= 100000.0f;
}

// ---------------------------------------------------------------------------------------------
// Check 1: energy

// Value of a sampled extremum refined by the parabola through its two neighbours.
static double refine_peak(double a, double b, double c)
{
	double curvature = a - 2.0 * b + c;
	if (curvature == 0.0) {
		return b;
	}
	double slope = c - a;
	double refined = b - slope * slope / (8.0 * curvature);
	// The parabola can only make the peak larger in magnitude; never trust a wild extrapolation.
	if (fabs(refined) < fabs(b) || fabs(refined) > 2.0 * fabs(b)) {
		return b;
	}
	return refined;
}

spring_result spring_check_energy(spring_params p, float fps, int frames, const spring_check_desc *desc,
                                  spring_energy_report *out)
{
	if (!out || frames < 3 || frames > 10000000) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_params_validate(p);
	if (r != SPRING_OK) {
		return r;
	}
	if (!fps_ok(fps)) {
		return spring_is_finite(fps) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
	}
	driver d;
	spring_state s0 = {1.0f, 0.0f};
	r = driver_init(&d, p, desc, s0, 0.0f);
	if (r != SPRING_OK) {
		return r;
	}
	spring_energy_report rep = {0};
	rep.first_peak = 1.0f;
	rep.last_peak = 1.0f;
	rep.peaks = 1;
	float dt = 1.0f / fps;
	// Samples: e[0] = 1 at t = 0 (an extremum: v = 0), then one per frame.
	double before = 1.0, here = 1.0; // e at the previous two samples
	double last = 1.0;               // magnitude of the last recorded peak
	int have_here = 0;
	for (int i = 0; i < frames; i++) {
		double next = (double)driver_frame(&d, dt, 0.0f);
		if (d.error != SPRING_OK) {
			return d.error;
		}
		if (!have_here) {
			before = 1.0;
			here = next;
			have_here = 1;
			continue;
		}
		// Every local maximum of |e| (refined by a parabola) must be smaller than the last one.
		if (here != 0.0 && (here > 0.0) == (before > 0.0) && (here > 0.0) == (next > 0.0) && fabs(here) > fabs(before) &&
		    fabs(here) >= fabs(next)) {
			double mag = fabs(refine_peak(before, here, next));
			if (mag > 1e-30) {
				if (mag >= last) {
					rep.growths++;
				}
				float ratio = (float)(mag / last);
				if (ratio > rep.worst_ratio) {
					rep.worst_ratio = ratio;
				}
				rep.peaks++;
				rep.last_peak = (float)mag;
				last = mag;
			}
		}
		before = here;
		here = next;
	}
	rep.passed = rep.growths == 0 && !(rep.worst_ratio >= 1.0f);
	*out = rep;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Check 2: rest

spring_result spring_check_rest(spring_params p, float fps, float seconds, const spring_check_desc *desc, spring_rest_report *out)
{
	if (!out) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_params_validate(p);
	if (r != SPRING_OK) {
		return r;
	}
	if (!fps_ok(fps) || !spring_is_finite(seconds)) {
		return spring_is_finite(fps) && spring_is_finite(seconds) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
	}
	if (!(seconds >= 2.0f && seconds <= 3600.0f)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	const float target = 1.0f, distance = 1.0f;
	driver d;
	spring_state s0 = {0.0f, 0.0f};
	r = driver_init(&d, p, desc, s0, target);
	if (r != SPRING_OK) {
		return r;
	}
	long frames = (long)ceil((double)seconds * (double)fps);
	long last_second = (long)floor((double)fps);
	float dt = 1.0f / fps;
	float lo = INFINITY, hi = -INFINITY, x = 0.0f;
	for (long i = 0; i < frames; i++) {
		x = driver_frame(&d, dt, target);
		if (d.error != SPRING_OK) {
			return d.error;
		}
		if (i >= frames - last_second) {
			lo = fminf(lo, x);
			hi = fmaxf(hi, x);
		}
	}
	spring_rest_report rep = {0};
	rep.seconds = (float)((double)frames / (double)fps);
	rep.last_second_move = (hi - lo) / distance;
	rep.final_offset = fabsf(x - target) / distance;
	rep.passed = rep.last_second_move < 1e-6f;
	*out = rep;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Check 3: envelope across frame rates

#define ENVELOPE_SECONDS 10.0
#define ENVELOPE_INTERVAL 0.5
#define ENVELOPE_CHECKPOINTS 20
#define ENVELOPE_AMPLITUDE 1.5

float spring_check_target(double t)
{
	const double two_pi = 2.0 * SPRING_PI;
	return (float)(spring_det_sin(two_pi * 0.5 * t) + 0.5 * spring_det_sin(two_pi * 1.1 * t));
}

// Drives the standard target at `fps` (0: the jittery frame clock) and records the output at
// every checkpoint.
static spring_result envelope_run(spring_params p, float fps, const spring_check_desc *desc, double outputs[ENVELOPE_CHECKPOINTS])
{
	driver d;
	spring_state s0 = {spring_check_target(0.0), 0.0f};
	spring_result r = driver_init(&d, p, desc, s0, s0.x);
	if (r != SPRING_OK) {
		return r;
	}
	spring_frame_clock clock;
	r = spring_frame_clock_init(&clock, (double)fps, ENVELOPE_INTERVAL, 0);
	if (r != SPRING_OK) {
		return r;
	}
	while (clock.checkpoints < ENVELOPE_CHECKPOINTS) {
		float dt = spring_frame_clock_next(&clock);
		float out = driver_frame(&d, dt, spring_check_target(clock.time));
		if (d.error != SPRING_OK) {
			return d.error;
		}
		if (clock.at_checkpoint) {
			outputs[clock.checkpoints - 1] = (double)out;
		}
	}
	return SPRING_OK;
}

spring_result spring_check_envelope(spring_params p, const float *fps, int count, int jitter, const spring_check_desc *desc,
                                    spring_envelope_report *out)
{
	if (!out || (count > 0 && !fps) || count < 0 || count > SPRING_CHECK_MAX_RATES - 1 || (count == 0 && !jitter)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_params_validate(p);
	if (r != SPRING_OK) {
		return r;
	}
	for (int i = 0; i < count; i++) {
		if (!fps_ok(fps[i])) {
			return spring_is_finite(fps[i]) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE;
		}
	}
	double reference[ENVELOPE_CHECKPOINTS], run[ENVELOPE_CHECKPOINTS];
	r = envelope_run(p, 1000.0f, desc, reference);
	if (r != SPRING_OK) {
		return r;
	}
	spring_envelope_report rep = {0};
	rep.tolerance = 0.01f;
	int total = count + (jitter ? 1 : 0);
	for (int i = 0; i < total; i++) {
		float rate = i < count ? fps[i] : 0.0f;
		r = envelope_run(p, rate, desc, run);
		if (r != SPRING_OK) {
			return r;
		}
		double worst = 0.0;
		for (int k = 0; k < ENVELOPE_CHECKPOINTS; k++) {
			worst = fmax(worst, fabs(run[k] - reference[k]) / ENVELOPE_AMPLITUDE);
		}
		rep.fps[i] = rate;
		rep.max_error[i] = (float)worst;
		rep.worst = fmaxf(rep.worst, (float)worst);
	}
	rep.rate_count = total;
	rep.passed = rep.worst <= rep.tolerance;
	*out = rep;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Random sequence and frame clock

uint32_t spring_random_next(uint32_t *state)
{
	if (!state) {
		return 0;
	}
	uint32_t x = *state ? *state : SPRING_RANDOM_SEED;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

double spring_random_unit(uint32_t *state)
{
	if (!state) {
		return 0.0;
	}
	return (double)(spring_random_next(state) >> 8) / 16777216.0;
}

#define FRAME_CLOCK_DEFAULT_INTERVAL 0.5
#define FRAME_CLOCK_SNAP 1e-9 // a frame ending this close before a checkpoint ends on it

static int frame_clock_fps_ok(double fps)
{
	return fps == 0.0 || (fps >= 1.0 && fps <= 100000.0);
}

static int frame_clock_interval_ok(double interval)
{
	return interval >= 0.001 && interval <= 1e6;
}

spring_result spring_frame_clock_init(spring_frame_clock *clock, double fps, double interval, uint32_t seed)
{
	if (!clock) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!isfinite(fps) || !isfinite(interval)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (interval == 0.0) {
		interval = FRAME_CLOCK_DEFAULT_INTERVAL;
	}
	if (!frame_clock_fps_ok(fps) || !frame_clock_interval_ok(interval)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_frame_clock init = {0};
	init.fps = fps;
	init.interval = interval;
	init.random = seed ? seed : SPRING_RANDOM_SEED;
	*clock = init;
	return SPRING_OK;
}

float spring_frame_clock_next(spring_frame_clock *clock)
{
	if (!clock || !isfinite(clock->fps) || !frame_clock_fps_ok(clock->fps) || !isfinite(clock->interval) ||
	    !frame_clock_interval_ok(clock->interval) || !isfinite(clock->time) || clock->frames < 0 || clock->checkpoints < 0) {
		return 0.0f;
	}
	double checkpoint = clock->interval * (double)(clock->checkpoints + 1);
	double next;
	if (clock->fps > 0.0) {
		next = (double)(clock->frames + 1) / clock->fps;
	} else {
		next = clock->time + SPRING_FRAME_CLOCK_JITTER_MIN + SPRING_FRAME_CLOCK_JITTER_SPAN * spring_random_unit(&clock->random);
	}
	int at_checkpoint = next >= checkpoint - FRAME_CLOCK_SNAP;
	if (at_checkpoint) {
		next = checkpoint;
	}
	// A fixed-rate frame cut short by the checkpoint is finished by the next frame.
	if (clock->fps > 0.0 && (double)(clock->frames + 1) / clock->fps <= checkpoint + FRAME_CLOCK_SNAP) {
		clock->frames++;
	}
	float dt = (float)(next - clock->time);
	clock->time = next;
	clock->at_checkpoint = at_checkpoint;
	clock->checkpoints += at_checkpoint;
	return dt;
}
