// SPDX-License-Identifier: MIT
/// @file batch.h
/// Many springs at once: the precomputed exact transition (`spring_stepper`) applied to arrays of
/// springs, vectorised inside the library.
///
/// - `spring_stepper_step_many` steps an array of `spring_state` towards an array of targets with
///   one shared stepper.
/// - `spring_step_exact_cached` is spring_step_exact with the transition remembered in a cache
///   the caller owns, for springs that share parameters and a step.
/// - `spring_batch` describes springs stored as a structure of arrays (positions, velocities,
///   targets in caller-owned arrays) with one shared transition or one per spring, optional rest
///   snapping, a `first, count` range entry point so that a job system can split the work, and
///   `spring_batch_step_n` for several steps at once, block by block in the cache.
///
/// Every result is bit-identical to `spring_stepper_step` on each spring in turn (then
/// `spring_rest` when the batch asks for rest detection), on every machine: the library picks
/// SSE2, AVX2 or AVX-512 at run time on x86-64 (the build itself only assumes SSE2), wasm simd128
/// when built with -msimd128, and plain C elsewhere; all of them perform the same float operations
/// in the same order, without fused multiply-adds. Nothing allocates; calls are reentrant, and two
/// threads may step disjoint ranges of the same batch at once.
///
/// Bad springs never poison the others: each spring is stepped or refused on its own, exactly as
/// `spring_stepper_step` would. A spring whose state or target is not finite, or whose new state
/// would leave float range, keeps its state bit for bit while every other spring steps; the call
/// then returns the reason of the refused spring with the lowest index (NOT_FINITE for a state or
/// target that is not finite, OUT_OF_RANGE for a step that would leave float range) and, for the
/// batch, that index. The error path costs nothing while every spring steps.
#ifndef SPRING_BATCH_H
#define SPRING_BATCH_H

#include "spring.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Steps `count` springs by one step of `st`: for each i, as spring_stepper_step(st, &states[i],
/// targets[i]). `st` not NULL; `states` and `targets` not NULL unless count is 0; count >= 0
/// (otherwise INVALID_ARGUMENT, nothing written). The arrays need no alignment and must not
/// overlap. Returns SPRING_OK when every spring stepped, otherwise the result of the first refused
/// spring (NOT_FINITE or OUT_OF_RANGE); refused springs are left untouched, the others stepped.
SPRING_API spring_result spring_stepper_step_many(const spring_stepper *st, spring_state *states, const float *targets,
                                                  int count);

/// Describes a batch of springs stored as a structure of arrays. Zero is the default for every
/// field; the arrays belong to the caller and must outlive the batch.
typedef struct spring_batch_desc {
	float *x;             ///< positions (units), `count` floats; not NULL unless count is 0
	float *v;             ///< velocities (units/s), `count` floats; not NULL unless count is 0
	const float *target;  ///< targets (units), `count` floats; not NULL unless count is 0. Retarget
	                      ///< by writing new values here between steps: positions and velocities
	                      ///< carry on from where they are.
	int count;            ///< number of springs, >= 0; default 0
	spring_params params; ///< the spring every spring shares; all zero -> spring_params_default()
	float step;           ///< seconds per step, finite > 0; 0 -> SPRING_CLOCK_DEFAULT_STEP (1/120 s)
	/// One transition per spring (`count` of them, made by spring_stepper_init), or NULL (default):
	/// every spring uses `params` and `step`. Coefficients that are not finite refuse their spring
	/// (OUT_OF_RANGE) and leave it untouched.
	const spring_stepper *steppers;
	/// Rest detection after each step, as spring_rest: a spring with |x - target| <= rest_delta
	/// (units) and |v| <= rest_speed (units/s) is snapped exactly onto its target with velocity 0.
	/// Both finite >= 0. Both 0 (default): no rest detection (not even exact zeros are snapped).
	float rest_delta;
	float rest_speed; ///< see rest_delta
} spring_batch_desc;

/// A batch made by spring_batch_init. 64 bytes; no heap memory. Read any field; change them only
/// through the functions below (the arrays' contents are the caller's to change between steps).
typedef struct spring_batch {
	float *x;                       ///< positions, from the description
	float *v;                       ///< velocities, from the description
	const float *target;            ///< targets, from the description
	const spring_stepper *steppers; ///< per-spring transitions, or NULL
	int count;                      ///< number of springs, >= 0
	float rest_delta;               ///< rest snapping distance (units), >= 0
	float rest_speed;               ///< rest snapping speed (units/s), >= 0
	spring_stepper stepper;         ///< the shared transition (used when steppers is NULL)
} spring_batch;

/// Fills `*out` from `desc`. INVALID_ARGUMENT for a NULL `out` or `desc`, a negative count or a
/// NULL array with count > 0; params and step as spring_stepper_init (NOT_FINITE, OUT_OF_RANGE;
/// step 0 is the default, a negative step OUT_OF_RANGE); rest thresholds finite >= 0. On error
/// `*out` is untouched.
SPRING_API spring_result spring_batch_init(spring_batch *out, const spring_batch_desc *desc);

/// Replaces the shared transition: params (all zero -> default) and step (0 -> default), checked
/// as in spring_batch_init. Positions and velocities are kept. On error nothing changes.
SPRING_API spring_result spring_batch_set_params(spring_batch *b, spring_params params, float step);

/// Steps springs [first, first + count) of `b` by one step; the rest of the arrays is not read or
/// written, so threads may step disjoint ranges of one batch at the same time. Requires `b` not
/// NULL, first >= 0, count >= 0, first + count <= b->count (otherwise INVALID_ARGUMENT, nothing
/// written). Returns SPRING_OK, or the first refused spring's reason with its index in
/// `*bad_index` (when not NULL; -1 on success); refused springs are left untouched, the others
/// stepped.
SPRING_API spring_result spring_batch_step_range(const spring_batch *b, int first, int count, int *bad_index);

/// Advances springs [first, first + count) by `steps` steps (>= 0) with the targets as they are:
/// the same bits as `steps` calls of spring_batch_step_range, but each block of springs that fits
/// the first-level cache takes all its steps while it is there, so batches larger than the caches
/// cost the same per spring-step as small ones. Range errors as spring_batch_step_range (steps < 0:
/// INVALID_ARGUMENT). A refused spring stays as it was from the step that refused it on; the
/// result and `*bad_index` name the refused spring with the lowest index.
SPRING_API spring_result spring_batch_step_n(const spring_batch *b, int first, int count, int steps, int *bad_index);

/// spring_batch_step_range over the whole batch.
SPRING_API spring_result spring_batch_step(const spring_batch *b, int *bad_index);

/// How many springs of [first, first + count) rest exactly on their target with velocity 0 (what
/// rest detection leaves). -1 for a NULL batch or a range outside it.
SPRING_API int spring_batch_count_resting(const spring_batch *b, int first, int count);

/// @name Exact steps with a remembered transition
/// spring_step_exact recomputes the closed-form transition of (params, dt) in double on every
/// call (an exponential and a power series or a sine). These forms keep the last pair's
/// transition in a `spring_exact_cache` that the caller owns and recompute it only when params or
/// dt change (compared bit for bit), so stepping many springs with one spring and one dt, or one
/// spring at a fixed step, costs a few multiplications per spring. Results, result codes and the
/// untouched-on-error behaviour are exactly those of spring_step_exact and its vec2, vec3 and
/// angle forms; `cache` NULL: INVALID_ARGUMENT. Every call may write the cache: give each thread
/// (or call site) its own. A zeroed cache is empty; only these functions write one.
/// @{
typedef struct spring_exact_cache {
	spring_params params; ///< the parameters of the remembered transition
	float dt;             ///< its step, seconds
	uint32_t valid;       ///< 0: empty (a zeroed cache)
	uint32_t reserved;    ///< 0
	double transition[4]; ///< pp, pv, vp, vv of e' = pp e + pv v, v' = vp e + vv v, e = x - target
} spring_exact_cache;     // 56 bytes

/// spring_step_exact (scalar, vec2, vec3, angle) through `cache`: same bits, same result codes.
SPRING_API spring_result spring_step_exact_cached(spring_exact_cache *cache, spring_params p, spring_state *s, float target,
                                                  float dt);
SPRING_API spring_result spring_step_exact_cached_vec2(spring_exact_cache *cache, spring_params p, spring_state_vec2 *s,
                                                       spring_vec2 target, float dt);
SPRING_API spring_result spring_step_exact_cached_vec3(spring_exact_cache *cache, spring_params p, spring_state_vec3 *s,
                                                       spring_vec3 target, float dt);
SPRING_API spring_result spring_step_exact_cached_angle(spring_exact_cache *cache, spring_params p, spring_state *s, float target,
                                                        float dt);
/// @}

#ifdef __cplusplus
}
#endif
#endif
