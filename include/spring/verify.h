// SPDX-License-Identifier: MIT
/// @file verify.h
/// The three objective checks for spring motion, runnable on any parameters and any integrator:
///  1. energy: pin the target, displace once, decay freely: every half-cycle peak is strictly
///     smaller than the one before (a single growth means the integrator injects energy);
///  2. rest: after a minute at a fixed target the motion over the last second is at
///     floating-point noise (below 1e-6 of the initial distance);
///  3. envelope: the same moving target driven at several frame rates (and a jittery frame clock)
///     gives trajectories that agree, at common times, with a 1 kHz reference to within 1% of
///     the target's amplitude.
/// The tests, the CLI's `spring verify` and the demo all call these.
#ifndef SPRING_VERIFY_H
#define SPRING_VERIFY_H

#include "spring.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An integrator under test: advance `*s` by dt towards `target`. Return SPRING_OK or an error
/// (an error stops the check and fails it).
typedef spring_result spring_step_fn(void *user, spring_params p, spring_state *s, float target, float dt);

/// The library's own integrators as spring_step_fn (user is ignored).
SPRING_API spring_result spring_step_fn_exact(void *user, spring_params p, spring_state *s, float target, float dt);
SPRING_API spring_result spring_step_fn_semi_implicit(void *user, spring_params p, spring_state *s, float target, float dt);

/// How a check drives the integrator. Zero fields take the defaults given.
typedef struct spring_check_desc {
	spring_step_fn *step; ///< integrator; NULL -> spring_step_fn_exact
	void *user;           ///< passed to step
	/// 0: drive through a spring_clock (fixed step `clock_step`, default 1/120 s, cap
	/// `max_steps`), the per-frame target interpolated across the sub-steps and the output
	/// interpolated by alpha: the game pattern. Non-zero: one step of the frame's dt per frame with
	/// the target sampled at the frame's end (what UI code that steps per frame does).
	int direct;
	float clock_step; ///< fixed step in seconds; 0 -> SPRING_CLOCK_DEFAULT_STEP (1/120 s)
	int max_steps;    ///< clock cap; 0 -> SPRING_CLOCK_DEFAULT_MAX_STEPS (8)
} spring_check_desc;

typedef struct spring_energy_report {
	int peaks;         ///< half-cycle peaks recorded
	int growths;       ///< how many peaks were >= the one before (0 to pass)
	float first_peak;  ///< |x - target| of the first peak (the displacement)
	float last_peak;   ///< the last recorded peak
	float worst_ratio; ///< max over i of peak[i+1] / peak[i] (< 1 to pass)
	int passed;
} spring_energy_report;

/// Check 1 at `fps` for `frames` frames (600 in the sources) from a unit displacement.
SPRING_API spring_result spring_check_energy(spring_params p, float fps, int frames, const spring_check_desc *desc,
                                             spring_energy_report *out);

typedef struct spring_rest_report {
	float seconds;          ///< simulated time
	float last_second_move; ///< max - min of x over the last second, divided by the initial distance
	float final_offset;     ///< |x - target| at the end, divided by the initial distance
	int passed;             ///< last_second_move < 1e-6
} spring_rest_report;

/// Check 2: `seconds` (60 in the sources) at `fps` with a fixed target, from a displacement.
SPRING_API spring_result spring_check_rest(spring_params p, float fps, float seconds, const spring_check_desc *desc,
                                           spring_rest_report *out);

#define SPRING_CHECK_MAX_RATES 16

typedef struct spring_envelope_report {
	int rate_count;                          ///< fixed rates, then one jittery run when requested
	float fps[SPRING_CHECK_MAX_RATES];       ///< 0 marks the jittery run
	float max_error[SPRING_CHECK_MAX_RATES]; ///< max |x - reference| at the common times / amplitude
	float worst;                             ///< max of max_error
	float tolerance;                         ///< 0.01
	int passed;
} spring_envelope_report;

/// Check 3: the standard moving target (sin(2 pi 0.5 t) + 0.5 sin(2 pi 1.1 t), amplitude 1.5 units, 10 s) driven
/// at each rate in `fps` (count <= SPRING_CHECK_MAX_RATES - 1) and, if `jitter` is non-zero, by
/// the jittery frame clock (spring_frame_clock, default seed); each is compared every 0.5 s with
/// the same pipeline driven at 1 kHz.
SPRING_API spring_result spring_check_envelope(spring_params p, const float *fps, int count, int jitter,
                                               const spring_check_desc *desc, spring_envelope_report *out);

/// The standard moving target used by spring_check_envelope, at time t seconds.
SPRING_API float spring_check_target(double t);

/// @name Deterministic random sequence
/// xorshift32 (Marsaglia's shifts 13, 17, 5): the same numbers on every platform and compiler,
/// unlike rand(). It drives the jittery frame clock; tests use it for their seeded draws too.
/// @{

/// The seed used when a state (or a frame clock's seed) is 0, which xorshift cannot leave.
#define SPRING_RANDOM_SEED 0x9e3779b9u

/// Advances `*state` (0 is replaced by SPRING_RANDOM_SEED first) and returns the new state, never
/// 0. The period is 2^32 - 1. NULL returns 0.
SPRING_API uint32_t spring_random_next(uint32_t *state);

/// Uniform in [0, 1) with 24 random bits: (spring_random_next(state) >> 8) / 2^24, exact in
/// float and double. NULL returns 0.
SPRING_API double spring_random_unit(uint32_t *state);
/// @}

/// @name Frame clock
/// The frame times `spring verify`, spring_check_envelope, the tests and the demo drive a scene
/// with: frames at a fixed rate, or jittery frames of SPRING_FRAME_CLOCK_JITTER_MIN +
/// SPRING_FRAME_CLOCK_JITTER_SPAN * spring_random_unit() seconds (uniform in [4, 40) ms). Frames are cut so that
/// one ends exactly on every checkpoint (every `interval` seconds from 0), where runs at
/// different rates are compared; at a fixed rate the frame cut short is finished by the next one,
/// so the frames after a checkpoint keep landing on multiples of 1/fps.
///
///     spring_frame_clock clock;
///     spring_frame_clock_init(&clock, 60.0, 0.5, 0); // 0 fps: jittery
///     while (clock.checkpoints < 20) {
///         float dt = spring_frame_clock_next(&clock);
///         update(input_at(clock.time), dt);          // clock.time: this frame's end
///         if (clock.at_checkpoint) record(clock.checkpoints - 1);
///     }
/// @{

#define SPRING_FRAME_CLOCK_JITTER_MIN 0.004  ///< shortest jittery frame, seconds
#define SPRING_FRAME_CLOCK_JITTER_SPAN 0.036 ///< jittery frames are shorter than MIN + SPAN, seconds

/// State of a frame clock: written by spring_frame_clock_init, advanced by spring_frame_clock_next,
/// readable at any time. 48 bytes.
typedef struct spring_frame_clock {
	double fps;        ///< frames per second, in [1, 100000]; 0 for jittery frames
	double interval;   ///< seconds between checkpoints, in [0.001, 1e6]; default 0.5
	double time;       ///< end of the last frame, seconds from the start; 0 before the first frame
	int64_t frames;    ///< fixed rate: frames of 1/fps completed (a frame cut by a checkpoint counts
	                   ///< when the next one finishes it); 0 for jittery frames
	int checkpoints;   ///< checkpoints reached so far; checkpoint k (from 1) is at k * interval
	int at_checkpoint; ///< non-zero when the last frame ended exactly on checkpoint `checkpoints`
	uint32_t random;   ///< jittery frames: the spring_random_next state
} spring_frame_clock;

/// Starts a clock at time 0. `fps`: frames per second in [1, 100000], or 0 for jittery frames.
/// `interval`: seconds between checkpoints in [0.001, 1e6]; 0 means 0.5. `seed`: the jittery
/// sequence's start (0 means SPRING_RANDOM_SEED; ignored at a fixed rate). On error (NULL clock:
/// SPRING_ERROR_INVALID_ARGUMENT, NaN or infinity: SPRING_ERROR_NOT_FINITE, a negative or
/// out-of-range value: SPRING_ERROR_OUT_OF_RANGE) `*clock` is untouched.
SPRING_API spring_result spring_frame_clock_init(spring_frame_clock *clock, double fps, double interval, uint32_t seed);

/// Advances to the next frame and returns its duration in seconds (> 0): up to the next multiple
/// of 1/fps, or a jittery duration, but never past the next checkpoint (a frame that would end
/// within 1e-9 s of it, or beyond, ends exactly on it). Updates time, frames, checkpoints and
/// at_checkpoint. Returns 0 and changes nothing for NULL or a clock that init did not accept.
SPRING_API float spring_frame_clock_next(spring_frame_clock *clock);
/// @}

#ifdef __cplusplus
}
#endif
#endif
