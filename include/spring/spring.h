// SPDX-License-Identifier: MIT
/// @file spring.h
/// The core of libspring: one damped spring, a = -(k (x - target) + c v) / m.
///
/// - `spring_params` is the one canonical form; every designer-facing parameterisation converts
///   into it (`spring_params_from_*`) and the queries convert back.
/// - `spring_evaluate` is the closed-form solution: exact in all three damping regimes,
///   continuous across critical damping, finite for any time.
/// - `spring_step_exact` advances a state by the closed form: unconditionally stable and
///   independent of how time is split into steps. `spring_step_semi_implicit` is the classic
///   two-line update, offered for compatibility and refused where it is unstable.
/// - `spring_clock` turns variable frame times into fixed steps with a cap and interpolation.
/// - `spring_follow` is the first-order lag (no overshoot) parameterised by half-life.
///
/// Units: seconds, units and units per second; angles in radians.
///
/// Valid ranges: every input's range is stated at its declaration and enforced. A NaN or an
/// infinity is refused with SPRING_ERROR_NOT_FINITE, a finite value outside its range with
/// SPRING_ERROR_OUT_OF_RANGE, a NULL pointer with SPRING_ERROR_INVALID_ARGUMENT, and a refused call
/// changes nothing (functions that return a value instead of a result say what they return).
/// A result that would leave float range is refused the same way (OUT_OF_RANGE) or, for the
/// queries, saturates at FLT_MAX: from finite, in-range input no function returns or stores an
/// infinity or a NaN, except the settling queries of an undamped spring (+inf: it never settles).
#ifndef SPRING_SPRING_H
#define SPRING_SPRING_H

#include "base.h"
#include "math.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Canonical spring parameters. Valid when all three are finite, mass > 0, stiffness > 0,
/// damping >= 0, and the scale-free rates every computation runs on are floats: k/m (omega_n^2)
/// in [FLT_MIN, FLT_MAX] and c/m in [0, FLT_MAX]. Only the ratios matter: k = c = m = 3.4e38 is
/// the same spring as k = c = m = 1.
typedef struct spring_params {
	float stiffness; ///< k, force per unit of displacement (N/m). > 0, with k/m in [FLT_MIN, FLT_MAX].
	float damping;   ///< c, force per unit of velocity (N*s/m). >= 0, with c/m <= FLT_MAX; 0 is undamped.
	float mass;      ///< m (kg). > 0; 1 in every designer parameterisation.
} spring_params;

/// One scalar spring's state: position and velocity (units/s). 8 bytes.
// clang-format off
typedef struct spring_state { float x, v; } spring_state;
typedef struct spring_state_vec2 { spring_vec2 x, v; } spring_state_vec2;
typedef struct spring_state_vec3 { spring_vec3 x, v; } spring_state_vec3;
// clang-format on

/// SPRING_OK when `p` is a valid spring, otherwise the reason (NOT_FINITE, OUT_OF_RANGE).
SPRING_API spring_result spring_params_validate(spring_params p);

/// @name The default spring
/// What chains, angle chains and rigs use when their parameters are left zero: a soft, lively
/// spring for secondary motion (hair, tails, cloth strips) that overshoots by about 37 %.
/// @{
#define SPRING_DEFAULT_HERTZ 2.0f         ///< natural frequency of the default spring, hertz
#define SPRING_DEFAULT_DAMPING_RATIO 0.3f ///< damping ratio zeta of the default spring
/// The default spring: spring_params_from_frequency(SPRING_DEFAULT_HERTZ, SPRING_DEFAULT_DAMPING_RATIO),
/// that is k = (2 pi f)^2 = 157.91 N/m, c = 2 zeta (2 pi f) = 7.54 N*s/m, m = 1 kg.
SPRING_API spring_params spring_params_default(void);
/// @}

/// @name Parameterisations. Each writes `*out` only on success.
/// `out` NULL: INVALID_ARGUMENT. Each argument's range is given below (NaN or infinity:
/// NOT_FINITE; outside the range: OUT_OF_RANGE); a spring that lands outside spring_params' range
/// (k/m or c/m beyond float range, k/m below FLT_MIN: a frequency above about 2.9e18 Hz or
/// below about 1.7e-20 Hz) is OUT_OF_RANGE too.
/// @{

/// Physical mass (kg, > 0), stiffness (N/m, > 0), damping (N*s/m, >= 0): spring_params' ranges.
SPRING_API spring_result spring_params_from_physical(float mass, float stiffness, float damping, spring_params *out);
/// Natural frequency in hertz (> 0) and damping ratio zeta (>= 0): k = (2 pi f)^2, c = 2 zeta (2 pi f).
SPRING_API spring_result spring_params_from_frequency(float hertz, float damping_ratio, spring_params *out);
/// SwiftUI `Spring(duration:bounce:)`: omega_n = 2 pi / duration; zeta = 1 - bounce for bounce in
/// [0, 1], 1 / (1 + bounce) for bounce in (-1, 0). duration > 0 seconds.
SPRING_API spring_result spring_params_from_duration_bounce(float duration, float bounce, spring_params *out);
/// SwiftUI `spring(response:dampingFraction:)` and react-spring `{frequency, damping}`:
/// response is the undamped period in seconds (> 0), damping_fraction is zeta (>= 0).
SPRING_API spring_result spring_params_from_response(float response, float damping_fraction, spring_params *out);
/// SwiftUI `Spring(settlingDuration:dampingRatio:epsilon:)`: the spring whose envelope falls to
/// epsilon (in (0, 1)) of a unit move after settling_duration (> 0) seconds; damping_ratio > 0. For zeta < 1 the envelope
/// is zeta/sqrt(1-zeta^2) * exp(-zeta omega_n T); for zeta = 1 it is exp(-u)(1 + u), u = omega_n T;
/// for zeta > 1 the exact step response. SPRING_ERROR_NO_SOLUTION when the envelope starts below
/// epsilon (zeta tiny).
SPRING_API spring_result spring_params_from_settling(float settling_duration, float damping_ratio, float epsilon,
                                                     spring_params *out);
/// Motion `{visualDuration, bounce}`: for bounce >= 0 the SwiftUI spring of duration
/// 1.2 * visual_duration; for bounce < 0 the frequency is raised so that the overdamped spring
/// has as far left to go at the visual duration as the critically damped one (as Motion does).
/// visual_duration > 0 seconds, bounce in (-1, 1].
SPRING_API spring_result spring_params_from_visual_duration(float visual_duration, float bounce, spring_params *out);
/// Critically damped spring whose gap, starting from rest, is exactly halved after half_life
/// seconds: (1 + u) exp(-u) = 1/2 with u = omega_n * half_life (u = 1.6783...). half_life > 0.
SPRING_API spring_result spring_params_from_half_life(float half_life, spring_params *out);
/// react-spring / Rebound tension and friction with mass 1 (tension = k > 0, friction = c >= 0).
SPRING_API spring_result spring_params_from_tension_friction(float tension, float friction, spring_params *out);
/// Origami (Facebook Rebound) slider values (any finite): k = (t - 30) * 3.62 + 194, c = (f - 8) * 3 + 25.
/// SPRING_ERROR_OUT_OF_RANGE when that gives k <= 0 or c < 0.
SPRING_API spring_result spring_params_from_origami(float origami_tension, float origami_friction, spring_params *out);
/// Port of the legacy per-frame update, run once per frame at `fps`:
///     v += (target - x) * stiffness_per_frame;  v *= damping_per_frame;  x += v;
/// read as what it literally is: semi-implicit Euler with a step of one frame. With these
/// parameters (k = d s fps^2, c = (1 - d) fps, mass 1), spring_step_semi_implicit at a fixed
/// step of 1/fps reproduces the loop exactly at its native fps, and a spring_clock (or chain)
/// with that step keeps the look identical at every other frame rate.
/// stiffness_per_frame s > 0, damping_per_frame d in (0, 1], fps > 0.
/// SPRING_ERROR_UNSTABLE when the legacy loop itself was unstable (d s + 2 (1 - d) >= 4).
SPRING_API spring_result spring_params_from_per_frame(float stiffness_per_frame, float damping_per_frame, float fps,
                                                      spring_params *out);
/// The continuous twin of the same loop, for the exact integrator at any step: the spring whose
/// exact one-frame transition has the loop's eigenvalues, so it decays and rings exactly like
/// the loop. (Its response to a moving target differs a little from the loop's in the first
/// frame: the loop reacts to a new target one frame ahead.)
/// SPRING_ERROR_NO_SOLUTION when the loop flips sign every frame (no continuous twin).
SPRING_API spring_result spring_params_from_per_frame_exact(float stiffness_per_frame, float damping_per_frame, float fps,
                                                            spring_params *out);
/// Jetpack Compose `spring(dampingRatio, stiffness)` (mass 1) and Flutter
/// `SpringDescription.withDampingRatio(mass:stiffness:ratio:)`: c = 2 zeta sqrt(k m).
/// mass > 0 kg, stiffness > 0 N/m, damping_ratio zeta >= 0.
SPRING_API spring_result spring_params_from_damping_ratio(float mass, float stiffness, float damping_ratio, spring_params *out);
/// Motion `{type: "spring", duration, bounce}` (Motion's own `duration`, which is not SwiftUI's):
/// the spring whose envelope falls to 0.001 of a unit move after `duration`, that is
/// spring_params_from_settling(duration, zeta, 0.001), with zeta from bounce as SwiftUI maps it
/// and kept in [0.05, 20] as Motion keeps it (bounce 0.95 to 1 all give zeta 0.05).
/// duration in [0.01, 10] seconds (Motion's own limits), bounce in (-1, 1].
SPRING_API spring_result spring_params_from_motion_duration(float duration, float bounce, spring_params *out);
/// @}

/// @name Named presets
/// The platforms' named springs, each converted by the parameterisation it is published in:
/// - SwiftUI `Spring.smooth`, `.snappy`, `.bouncy`: "smooth", "snappy", "bouncy"
///   (spring_params_from_duration_bounce with duration 0.5 s and bounce 0, 0.15, 0.3);
/// - Material 3 Expressive spring tokens (Jetpack Compose `MotionScheme.standard()` /
///   `.expressive()`): "<scheme>-<speed>-<type>" with scheme standard or expressive, speed fast,
///   default or slow, type spatial (movement, size, shape) or effects (colour, opacity: never
///   overshoots), e.g. "expressive-default-spatial" (spring_params_from_damping_ratio with mass 1
///   and the token's stiffness and damping ratio).
/// @{

/// The preset called `name` (exact, lower case). `name` or `out` NULL, or a name that is no preset:
/// INVALID_ARGUMENT. Writes `*out` only on success.
SPRING_API spring_result spring_params_from_preset(const char *name, spring_params *out);
/// The name of preset `index` (0, 1, ...), in the order listed above; NULL past the last one.
SPRING_API const char *spring_preset_name(int index);
/// @}

/// @name Reduced motion
/// For people who ask their system to reduce motion (Apple: with Reduce Motion on, "UI should
/// avoid large animations", and bouncing, multi-speed motion is a trigger to soften, while removing
/// animations that carry meaning makes an app harder to follow; Material: what must not overshoot
/// uses the critically damped effects springs). The reduced form of a spring is critically damped (never
/// overshoots) and settles, to 0.1% of a unit move from rest, in at most half the time the
/// original takes (spring_settling_time, epsilon 0.001), and no later than half the time of the
/// critically damped spring of the original's natural frequency (so an undamped spring, which
/// never settles, gets one too): omega_n' = max(2 u / T, 2 omega_n) with T the original's
/// settling time and u = 9.2334 (the critically damped unit move is within 0.001 at omega_n t = u).
/// Mass 1.
/// @{

/// `p` valid (NOT_FINITE, OUT_OF_RANGE otherwise), `out` not NULL (INVALID_ARGUMENT);
/// OUT_OF_RANGE when the reduced spring's stiffness would leave float range (omega_n' above about
/// 1.8e19 rad/s). Writes `*out` only on success.
SPRING_API spring_result spring_params_reduced_motion(spring_params p, spring_params *out);
/// @}

/// @name Queries. On invalid parameters each returns 0.
/// For every valid spring each result is finite: a value beyond float range saturates at FLT_MAX
/// (the damping ratio of k/m = FLT_MIN, c/m = FLT_MAX is 1.6e57; that spring's visual duration
/// and half-life are beyond 1e76 s). The one exception: the settling queries of an undamped
/// spring return +inf (it never settles).
/// @{
SPRING_API float spring_damping_ratio(spring_params p);     ///< zeta = c / (2 sqrt(k m))
SPRING_API float spring_natural_frequency(spring_params p); ///< omega_n = sqrt(k / m), rad/s
SPRING_API float spring_frequency_hz(spring_params p);      ///< omega_n / (2 pi)
SPRING_API float spring_duration(spring_params p);          ///< 2 pi / omega_n (= SwiftUI duration = response)
SPRING_API float spring_bounce(spring_params p);            ///< 1 - zeta (zeta <= 1), 1/zeta - 1 (zeta > 1)
SPRING_API float spring_visual_duration(spring_params p);   ///< inverse of spring_params_from_visual_duration
SPRING_API float spring_overshoot(spring_params p);         ///< exp(-pi zeta / sqrt(1 - zeta^2)); 0 when zeta >= 1
/// Time for the gap to halve from rest (the inverse of spring_params_from_half_life for a
/// critically damped spring; defined for every spring, the first time |x - target| = 0.5 |x0 - target|).
SPRING_API float spring_half_life(spring_params p);
/// Origami slider values of the mass-1 equivalent spring (k/m, c/m). Invalid params: nothing written;
/// either output may be NULL.
SPRING_API void spring_params_to_origami(spring_params p, float *origami_tension, float *origami_friction);
/// SwiftUI-compatible settling duration: for zeta < 1, ln((|zeta omega_n d - v0| + |d|) / epsilon)
/// / (zeta omega_n) (an estimate: 1.0447 s for duration 0.5, bounce 0.3, d 1, epsilon 0.001);
/// for zeta >= 1 the time after which the exact envelope stays below epsilon.
/// `distance` is target - start, `velocity` the initial velocity towards +distance.
/// +inf when undamped (and the motion is not already within epsilon). distance and velocity finite,
/// epsilon finite > 0 (units); otherwise 0.
SPRING_API float spring_settling_duration(spring_params p, float distance, float velocity, float epsilon);
/// Exact settling time: the last time |x(t) - target| equals epsilon (absolute, in units),
/// found from the closed form (0.8187 s for duration 0.5, bounce 0.3, d 1, epsilon 0.001).
/// 0 when the motion never leaves the epsilon band; +inf when undamped. Arguments as for
/// spring_settling_duration (otherwise 0).
SPRING_API float spring_settling_time(spring_params p, float distance, float velocity, float epsilon);
/// @}

/// @name Closed form and exact stepping
/// @{

/// State at time t >= 0 seconds after `start`, pulled towards a fixed `target`. Exact in all
/// regimes. Invalid input (invalid params, non-finite values, t < 0) or a result beyond float
/// range returns `start` unchanged.
SPRING_API spring_state spring_evaluate(spring_params p, spring_state start, float target, float t);
SPRING_API spring_state_vec2 spring_evaluate_vec2(spring_params p, spring_state_vec2 start, spring_vec2 target, float t);
SPRING_API spring_state_vec3 spring_evaluate_vec3(spring_params p, spring_state_vec3 start, spring_vec3 target, float t);
/// Angle spring (radians): the target is approached along the shortest arc, the result is
/// wrapped onto (-pi, pi].
SPRING_API spring_state spring_evaluate_angle(spring_params p, spring_state start, float target, float t);

/// Advances `*s` by dt seconds (finite, >= 0, any size) with the closed-form transition. Any dt is
/// stable; splitting a span into any steps gives the closed form over the span. Ranges: `s` not
/// NULL, params valid, state and target any finite floats (the gap is taken in double). On error
/// `*s` is untouched; a result that would leave float range -> SPRING_ERROR_OUT_OF_RANGE.
SPRING_API spring_result spring_step_exact(spring_params p, spring_state *s, float target, float dt);
SPRING_API spring_result spring_step_exact_vec2(spring_params p, spring_state_vec2 *s, spring_vec2 target, float dt);
SPRING_API spring_result spring_step_exact_vec3(spring_params p, spring_state_vec3 *s, spring_vec3 target, float dt);
SPRING_API spring_result spring_step_exact_angle(spring_params p, spring_state *s, float target, float dt);

/// Semi-implicit (symplectic) Euler: v += a dt; x += v dt, with a = -(k/m (x - target) + c/m v)
/// computed in double (the scale-free form: no product k (x - target) can overflow, so every
/// valid spring steps). Stable only while (omega_n dt)^2 + 2 (c/m) dt < 4 (which implies
/// omega_n dt < 2); outside that it returns SPRING_ERROR_UNSTABLE and does not step.
/// Frame-rate dependent: drive it with spring_clock. Ranges and errors as spring_step_exact.
SPRING_API spring_result spring_step_semi_implicit(spring_params p, spring_state *s, float target, float dt);
SPRING_API spring_result spring_step_semi_implicit_vec2(spring_params p, spring_state_vec2 *s, spring_vec2 target, float dt);
SPRING_API spring_result spring_step_semi_implicit_vec3(spring_params p, spring_state_vec3 *s, spring_vec3 target, float dt);
SPRING_API spring_result spring_step_semi_implicit_angle(spring_params p, spring_state *s, float target, float dt);
/// True when (p, dt) is inside the semi-implicit stability region; false for invalid params or a
/// dt that is not finite and >= 0.
SPRING_API bool spring_semi_implicit_is_stable(spring_params p, float dt);

/// Exact transition for a fixed (params, step): e' = pp e + pv v, v' = vp e + vv v with
/// e = x - target. 16 bytes; a step is four multiply-adds. Use it for many springs sharing
/// parameters and a fixed clock step.
typedef struct spring_stepper {
	float pp, pv, vp, vv; ///< the transition's coefficients, finite (as spring_stepper_init makes them)
} spring_stepper;
/// `out` not NULL, params valid, step finite >= 0 seconds (any size); OUT_OF_RANGE if a coefficient
/// would not fit a float.
SPRING_API spring_result spring_stepper_init(spring_stepper *out, spring_params p, float step);
/// One step in float. Range: the gap x - target, each product and the new state must be finite
/// floats (|x - target| <= FLT_MAX; spring_step_exact, which works in double, also takes gaps up
/// to 2 FLT_MAX). The stepper never stores an infinity or a NaN: when any new component would not
/// be finite it returns SPRING_ERROR_OUT_OF_RANGE (SPRING_ERROR_NOT_FINITE when the state or the
/// target already was not) and leaves `*s` untouched, all components. NULL: INVALID_ARGUMENT.
SPRING_API spring_result spring_stepper_step(const spring_stepper *st, spring_state *s, float target);
SPRING_API spring_result spring_stepper_step_vec2(const spring_stepper *st, spring_state_vec2 *s, spring_vec2 target);
SPRING_API spring_result spring_stepper_step_vec3(const spring_stepper *st, spring_state_vec3 *s, spring_vec3 target);
/// Angle spring (radians) with a precomputed transition: the target is taken on the shortest
/// arc and the result wrapped onto (-pi, pi], like spring_step_exact_angle. Value and target any
/// finite floats; errors as spring_stepper_step.
SPRING_API spring_result spring_stepper_step_angle(const spring_stepper *st, spring_state *s, float target);
/// @}

/// @name Rest detection
/// A spring is at rest when |x - target| <= rest_delta and |v| <= rest_speed, thresholds in the
/// value's own units (units, units/s). Both bounds are inclusive: a state exactly at a threshold
/// rests, one a float step beyond it does not. At rest the state is snapped exactly onto the
/// target with zero velocity and true is returned; otherwise nothing changes and false is
/// returned. Vector variants use the Euclidean distance and speed (computed in double); the angle
/// variant the shortest-arc distance. Ranges: thresholds finite >= 0, state and target finite,
/// `s` not NULL; anything else never matches (false, nothing written).
/// @{
SPRING_API bool spring_rest(spring_state *s, float target, float rest_delta, float rest_speed);
SPRING_API bool spring_rest_vec2(spring_state_vec2 *s, spring_vec2 target, float rest_delta, float rest_speed);
SPRING_API bool spring_rest_vec3(spring_state_vec3 *s, spring_vec3 target, float rest_delta, float rest_speed);
SPRING_API bool spring_rest_angle(spring_state *s, float target, float rest_delta, float rest_speed);
/// @}

/// @name Fixed-step clock
/// Turns variable frame times into fixed physics steps:
///     int n = spring_clock_advance(&clock, frame_dt);
///     for (int i = 0; i < n; i++) { float f = spring_clock_substep_fraction(&clock, i, n); ... step ... }
///     render lerp(previous, current, clock.alpha)
/// At most max_steps run per frame; time beyond that is discarded (added to `dropped`), so a
/// multi-second hitch costs at most max_steps steps and never spirals.
/// Exact step count: time is kept as a whole number of ticks of step / SPRING_CLOCK_TICKS_PER_STEP,
/// each frame_dt rounded once to the nearest tick, so rounding never accumulates. After any
/// sequence of frames the steps taken are exactly floor(total ticks / SPRING_CLOCK_TICKS_PER_STEP)
/// minus the whole steps the cap dropped; for frame rates whose frames are a whole number of ticks
/// (24, 25, 30, 50, 60, 90, 120, 144, 165 and 240 fps with any whole number of steps per second,
/// up to 52 steps per frame) that is floor(total time / step): 1/24 s frames with the default step
/// take exactly 5 steps each, never 4 then 6.
/// The defaults below are also those of every object driven by a clock (chains, angle chains,
/// rigs, the checks in verify.h) when its step or max_steps is left 0.
/// @{
#define SPRING_CLOCK_DEFAULT_RATE 120                                ///< steps per second of the default step
#define SPRING_CLOCK_DEFAULT_STEP (1.0f / SPRING_CLOCK_DEFAULT_RATE) ///< default fixed step: 1/120 s
/// Default cap on steps per advance: with the default step, frames up to 1/15 s lose no time.
#define SPRING_CLOCK_DEFAULT_MAX_STEPS 8
/// Ticks per step of the clock's time keeping: 2^5 3^2 5^2 11, so that a frame of 1/F s is a whole
/// number of ticks for every frame rate F dividing 79200 and any whole step rate (about 0.1 us at
/// the default step; a frame shorter than half a tick counts as no time).
#define SPRING_CLOCK_TICKS_PER_STEP 79200

/// Read any field; change them only through the functions below. 40 bytes.
typedef struct spring_clock {
	float step;            ///< fixed step in seconds, (0, 1]; default SPRING_CLOCK_DEFAULT_STEP
	float accumulator;     ///< unsimulated time carried to the next frame, seconds, in [0, step): carried_ticks in seconds
	float alpha;           ///< carried_ticks / SPRING_CLOCK_TICKS_PER_STEP, in [0, 1): how far render time is past the last step
	float dropped;         ///< total seconds discarded by the cap since init, saturating at FLT_MAX
	int max_steps;         ///< cap on steps per advance, [1, 1000]; default SPRING_CLOCK_DEFAULT_MAX_STEPS
	float frame_dt;        ///< the last valid frame_dt passed to advance, seconds
	int last_steps;        ///< steps returned by the last advance
	int32_t carried_ticks; ///< the carried time itself, in ticks, [0, SPRING_CLOCK_TICKS_PER_STEP)
	double time;           ///< simulated seconds so far (steps * step)
} spring_clock;

/// step 0 -> SPRING_CLOCK_DEFAULT_STEP, max_steps 0 -> SPRING_CLOCK_DEFAULT_MAX_STEPS. step must be
/// finite in (0, 1] (NOT_FINITE, OUT_OF_RANGE), max_steps in [0, 1000] (OUT_OF_RANGE).
SPRING_API spring_result spring_clock_init(spring_clock *c, float step, int max_steps);
/// Adds frame_dt (finite, >= 0, any size: the cap drops what does not fit) and returns how many
/// fixed steps to run now. Invalid frame_dt or clock (a field out of its range): returns the
/// negated spring_result (< 0, so a `for (i < n)` loop runs nothing) and changes nothing.
SPRING_API int spring_clock_advance(spring_clock *c, float frame_dt);
/// For substep i of the n returned by the last advance: where in the frame, as a fraction in
/// [0, 1] from the previous frame's time (0) to this frame's (1), that step ends (counted in the
/// same ticks). Use it to interpolate inputs sampled once per frame across the substeps. Any
/// other i, n or clock: 1.
SPRING_API float spring_clock_substep_fraction(const spring_clock *c, int i, int n);
/// @}

/// @name Follow (first-order lag, never overshoots)
/// x + (target - x) * (1 - exp(-ln2 * dt / half_life)): the gap halves every half_life seconds
/// whatever the frame rate; two half steps equal one whole. half_life 0 snaps. Ranges: x and
/// target any finite floats, half_life and dt finite >= 0 seconds; invalid input returns x
/// unchanged. The result always lies between x and target.
/// @{
SPRING_API float spring_follow(float x, float target, float half_life, float dt);
SPRING_API spring_vec2 spring_follow_vec2(spring_vec2 x, spring_vec2 target, float half_life, float dt);
SPRING_API spring_vec3 spring_follow_vec3(spring_vec3 x, spring_vec3 target, float half_life, float dt);
/// Follows along the shortest arc; result wrapped onto (-pi, pi].
SPRING_API float spring_follow_angle(float angle, float target, float half_life, float dt);
/// @}

/// @name Angles (radians)
/// Any finite angle is accepted; a NaN or infinity gives 0 (delta, wrap) or wrap(from) (lerp,
/// also for a non-finite t). t of lerp is any finite float (outside [0, 1] it extrapolates).
/// @{
SPRING_API float spring_angle_delta(float from, float to);         ///< to - from folded onto (-pi, pi]
SPRING_API float spring_angle_wrap(float angle);                   ///< onto (-pi, pi]
SPRING_API float spring_angle_lerp(float from, float to, float t); ///< along the shortest arc, wrapped
/// @}

#ifdef __cplusplus
}
#endif
#endif
