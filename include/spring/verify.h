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
	float clock_step;    ///< fixed step in seconds; 0 -> 1/120
	int max_steps;        ///< clock cap; 0 -> 8
} spring_check_desc;

typedef struct spring_energy_report {
	int peaks;          ///< half-cycle peaks recorded
	int growths;        ///< how many peaks were >= the one before (0 to pass)
	float first_peak;   ///< |x - target| of the first peak (the displacement)
	float last_peak;    ///< the last recorded peak
	float worst_ratio;  ///< max over i of peak[i+1] / peak[i] (< 1 to pass)
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
	int rate_count;                         ///< fixed rates, then one jittery run when requested
	float fps[SPRING_CHECK_MAX_RATES];      ///< 0 marks the jittery run
	float max_error[SPRING_CHECK_MAX_RATES]; ///< max |x - reference| at the common times / amplitude
	float worst;                            ///< max of max_error
	float tolerance;                        ///< 0.01
	int passed;
} spring_envelope_report;

/// Check 3: the standard moving target (sin(2 pi 0.5 t) + 0.5 sin(2 pi 1.1 t), amplitude 1.5 units, 10 s) driven
/// at each rate in `fps` (count <= SPRING_CHECK_MAX_RATES - 1) and, if `jitter` is non-zero, by
/// a jittery clock with frame times uniform in [4, 40] ms; each is compared every 0.5 s with
/// the same pipeline driven at 1 kHz.
SPRING_API spring_result spring_check_envelope(spring_params p, const float *fps, int count, int jitter,
                                               const spring_check_desc *desc, spring_envelope_report *out);

/// The standard moving target used by spring_check_envelope, at time t seconds.
SPRING_API float spring_check_target(double t);

#ifdef __cplusplus
}
#endif
#endif
