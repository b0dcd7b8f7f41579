// SPDX-License-Identifier: MIT
// Many springs at once: spring_stepper_step_many over arrays of spring_state and spring_batch over
// a structure of arrays, vectorised for the machine found at run time.
//
// One spring at a time the rule is spring_stepper_step (then spring_rest when the batch snaps at
// rest), and the scalar path and every vector tail call exactly those. The vector kernels
// (batch_kernel.h, built once per instruction set in kernels_<set>.c) perform the same float operations per lane
// in the same order; contraction is off for the whole build and no instruction set here is asked
// for FMA, so every path gives the same bits. Nothing allocates.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/batch.h"

#include "base_internal.h"
#include "batch_internal.h"
#include "kernels_internal.h"

#include <float.h>
#include <limits.h>
#include <string.h>

// One spring by the scalar rule; on success it is written back (and snapped at rest when asked).
static spring_result step_one(const batch_job *job, int i)
{
	spring_state s = {job->x[i], job->v[i]};
	float t = job->target[i];
	spring_result r = spring_stepper_step(job->steppers ? &job->steppers[i] : &job->shared, &s, t);
	if (r == SPRING_OK) {
		if (job->rest) {
			(void)spring_rest(&s, t, job->rest_delta, job->rest_speed);
		}
		job->x[i] = s.x;
		job->v[i] = s.v;
	}
	return r;
}

// ---------------------------------------------------------------------------------------------
// Running the kernels of the instruction set in use (kernels_internal.h)

// The job of the springs from `done` on.
static batch_job job_at(const batch_job *job, int done)
{
	batch_job rest = *job;
	rest.x += done;
	rest.v += done;
	rest.target += done;
	rest.steppers = rest.steppers ? rest.steppers + done : NULL;
	return rest;
}

// Springs [done, n) of a job by `kernel` (whole vectors of them); returns the new `done`. `*bad`
// gets the first refused index when it is still -1 (the springs go in index order).
static int soa_from(spring_batch_soa_kernel *kernel, const batch_job *job, int done, int n, int *bad)
{
	if (done >= n) {
		return done;
	}
	const batch_job rest = job_at(job, done);
	int b = -1, k = kernel(&rest, n - done, &b);
	*bad = *bad < 0 && b >= 0 ? done + b : *bad;
	return done + k;
}

static int aos_from(spring_batch_aos_kernel *kernel, const spring_stepper *st, spring_state *states, const float *ts, int done,
                    int n, int *bad)
{
	if (done >= n) { // also no arithmetic on the NULL arrays of an empty call
		return done;
	}
	int b = -1, k = kernel(st, states + done, ts + done, n - done, &b);
	*bad = *bad < 0 && b >= 0 ? done + b : *bad;
	return done + k;
}

// Springs [0, n) of a job: the whole vectors by the kernels `use`, the last few one at a time;
// every kernel gives the same bits. Returns the first refused spring's index, or -1.
static int run_soa_with(const spring_batch_kernels *use, const batch_job *job, int n)
{
	int bad = -1, done = 0;
	for (int k = 0; k < 3 && use->soa[k]; k++) {
		done = soa_from(use->soa[k], job, done, n, &bad);
	}
	for (int i = done; i < n; i++) {
		if (step_one(job, i) != SPRING_OK && bad < 0) {
			bad = i;
		}
	}
	return bad;
}

// run_soa_with the kernels in use.
static int run_soa(const batch_job *job, int n)
{
	return run_soa_with(spring_internal_batch_kernels(), job, n);
}

static int run_aos(const spring_stepper *st, spring_state *states, const float *targets, int n)
{
	int bad = -1, done = 0;
	const spring_batch_kernels *use = spring_internal_batch_kernels();
	for (int k = 0; k < 3 && use->aos[k]; k++) {
		done = aos_from(use->aos[k], st, states, targets, done, n, &bad);
	}
	for (int i = done; i < n; i++) {
		if (spring_stepper_step(st, &states[i], targets[i]) != SPRING_OK && bad < 0) {
			bad = i;
		}
	}
	return bad;
}

// ---------------------------------------------------------------------------------------------
// Public API

spring_result spring_stepper_step_many(const spring_stepper *st, spring_state *states, const float *targets, int count)
{
	if (!st || count < 0 || (count > 0 && (!states || !targets))) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	int bad = run_aos(st, states, targets, count);
	if (bad < 0) {
		return SPRING_OK;
	}
	// A refused spring was left as it was: stepping a copy again gives its reason.
	spring_state copy = states[bad];
	return spring_stepper_step(st, &copy, targets[bad]);
}

// The shared transition of (params, step) with the zero defaults; `*out` untouched on error.
static spring_result shared_stepper(spring_params params, float step, spring_stepper *out)
{
	if (spring_internal_is_zero(&params, sizeof params)) {
		params = spring_params_default();
	}
	if (step == 0.0f) {
		step = SPRING_CLOCK_DEFAULT_STEP;
	}
	return spring_stepper_init(out, params, step);
}

static int rest_threshold_ok(float t)
{
	return spring_is_finite(t) && t >= 0.0f;
}

spring_result spring_batch_init(spring_batch *out, const spring_batch_desc *desc)
{
	if (!out || !desc || desc->count < 0 || (desc->count > 0 && (!desc->x || !desc->v || !desc->target))) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(desc->rest_delta) || !spring_is_finite(desc->rest_speed)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (!rest_threshold_ok(desc->rest_delta) || !rest_threshold_ok(desc->rest_speed)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_stepper st;
	spring_result r = shared_stepper(desc->params, desc->step, &st);
	if (r != SPRING_OK) {
		return r;
	}
	*out = (spring_batch){desc->x, desc->v, desc->target, desc->steppers, desc->count, desc->rest_delta, desc->rest_speed, st};
	return SPRING_OK;
}

spring_result spring_batch_set_params(spring_batch *b, spring_params params, float step)
{
	if (!b) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return shared_stepper(params, step, &b->stepper);
}

static int range_ok(const spring_batch *b, int first, int count)
{
	return b && first >= 0 && count >= 0 && first <= b->count && count <= b->count - first;
}

// The job of the springs of `b` from `first` on.
static batch_job job_for(const spring_batch *b, int first)
{
	return (batch_job){b->x + first,      b->v + first,
	                   b->target + first, b->steppers ? b->steppers + first : NULL,
	                   b->stepper,        b->rest_delta > 0.0f || b->rest_speed > 0.0f,
	                   b->rest_delta,     b->rest_speed};
}

// The result of a range whose first refused spring is `first + bad` (bad -1: none), with that
// index in `*bad_index`. A refused spring was left as it was: stepping a copy again gives its reason.
static spring_result report_bad(const spring_batch *b, int first, int bad, int *bad_index)
{
	if (bad < 0) {
		return SPRING_OK;
	}
	int i = first + bad;
	if (bad_index) {
		*bad_index = i;
	}
	spring_state copy = {b->x[i], b->v[i]};
	return spring_stepper_step(b->steppers ? &b->steppers[i] : &b->stepper, &copy, b->target[i]);
}

spring_result spring_batch_step_range(const spring_batch *b, int first, int count, int *bad_index)
{
	if (bad_index) {
		*bad_index = -1;
	}
	if (!range_ok(b, first, count)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (count == 0) {
		return SPRING_OK;
	}
	batch_job job = job_for(b, first);
	return report_bad(b, first, run_soa(&job, count), bad_index);
}

// Springs per block of spring_batch_step_n: positions, velocities and targets of 1,024 springs
// are 12 KB, which stays in any first-level data cache (with per-spring transitions, 28 KB), next
// to the block being fetched.
#define ADVANCE_BLOCK 1024

spring_result spring_batch_step_n(const spring_batch *b, int first, int count, int steps, int *bad_index)
{
	if (bad_index) {
		*bad_index = -1;
	}
	if (!range_ok(b, first, count) || steps < 0) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (count == 0 || steps == 0) {
		return SPRING_OK;
	}
	int bad = -1;
	const spring_batch_kernels *use = spring_internal_batch_kernels(); // once, not per step
	for (int start = 0; start < count; start += ADVANCE_BLOCK) {
		batch_job job = job_for(b, first + start);
		int n = count - start < ADVANCE_BLOCK ? count - start : ADVANCE_BLOCK;
		int next_start = start + n, next_n = count - next_start < ADVANCE_BLOCK ? count - next_start : ADVANCE_BLOCK;
		batch_job next = job_for(b, first + (next_n > 0 ? next_start : start));
		// The widest kernel takes every step of the block's whole vectors in one call (and fetches
		// the next block); what it leaves (or all, without one) goes step by step.
		int block_bad = -1, done = 0;
		if (use->steps) {
			done = use->steps(&job, n, steps, next_n > 0 ? &next : NULL, next_n, &block_bad);
		}
		if (done < n) {
			const batch_job rest = job_at(&job, done);
			for (int k = 0; k < steps; k++) {
				int step_bad = run_soa_with(use, &rest, n - done);
				step_bad = step_bad >= 0 ? done + step_bad : -1;
				block_bad = step_bad >= 0 && (block_bad < 0 || step_bad < block_bad) ? step_bad : block_bad;
				if (next_n > 0 && !use->steps) {
					batch_prefetch_share(&next, next_n, k, steps);
				}
			}
		}
		if (block_bad >= 0 && bad < 0) {
			bad = start + block_bad; // blocks go in index order: the first block with a refusal has the lowest
		}
	}
	return report_bad(b, first, bad, bad_index);
}

spring_result spring_batch_step(const spring_batch *b, int *bad_index)
{
	return spring_batch_step_range(b, 0, b ? b->count : 0, bad_index);
}

int spring_batch_count_resting(const spring_batch *b, int first, int count)
{
	if (!range_ok(b, first, count)) {
		return -1;
	}
	int n = 0;
	for (int i = first; i < first + count; i++) {
		n += b->x[i] == b->target[i] && b->v[i] == 0.0f;
	}
	return n;
}
