// SPDX-License-Identifier: MIT
/// @file motion.h
/// `spring_motion`: an interruptible UI value of 1 to 4 channels (x, y, scale, opacity, a colour)
/// driven toward a target by one damped spring.
///
/// - Retargeting mid-flight keeps position and velocity (no speed cliff): the new target simply
///   pulls on the state the motion already has, as SwiftUI, Motion's `followValue` and
///   react-spring do.
/// - Exact whatever the frame times: the motion keeps the state at its last re-anchoring (init,
///   retarget, jump, new parameters) and the time since then, and evaluates the closed form
///   (spring_evaluate) at that time. 30, 60, 120, 144, 240 Hz and irregular frames give the same
///   curve, a 10 s frame lands where ten thousand 1 ms frames land, and 1e-5 s steps do not drift.
/// - Rest: every channel no farther than its `rest_delta` from its target and no faster than its
///   `rest_speed` (each in that channel's own units; both bounds inclusive, |value - target| <=
///   rest_delta and |velocity| <= rest_speed, as spring_rest); then every channel snaps exactly
///   onto its target with velocity 0. Checked after each advance, so the moment of rest is the
///   first frame at which the state qualifies.
/// - Optional overshoot clamp (react-spring `clamp`, Rebound overshoot clamping): a channel that
///   reaches its target during a step stops there, exactly, with velocity 0.
/// - Export: sample the future curve without changing the motion, and the normalised 0 -> 1
///   progress curve a CSS `linear()` easing is made of.
///
/// The struct is a plain value the caller owns; nothing allocates. Every function validates its
/// input and on error changes nothing. Ranges: values, targets and velocities are any finite
/// floats (units, units/s), thresholds finite >= 0, times finite >= 0 seconds, params all zero or
/// a valid spring_params (spring.h); a NaN or infinity -> SPRING_ERROR_NOT_FINITE, a finite value
/// out of range -> SPRING_ERROR_OUT_OF_RANGE, NULL or a wrong channel count ->
/// SPRING_ERROR_INVALID_ARGUMENT. A motion whose future leaves float range refuses to advance
/// (OUT_OF_RANGE): no field ever holds an infinity or a NaN.
///
/// ```c
/// spring_motion m;
/// spring_motion_desc desc = {0}; // valid C and C++ (README.md's example is compiled as both)
/// desc.channels = 2;
/// desc.to[0] = 300.0f, desc.to[1] = 1.0f;
/// spring_motion_init(&m, &desc);
/// // each frame:  spring_motion_update(&m, frame_dt); spring_motion_get_value(&m, xy, NULL, 2);
/// // on a tap:    float tap[2] = {tap_x, 1.0f}; spring_motion_set_target(&m, tap, 2);
/// ```
#ifndef SPRING_MOTION_H
#define SPRING_MOTION_H

#include "spring.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPRING_MOTION_MAX_CHANNELS 4

/// The spring of a motion whose params are all zero: SwiftUI's default Spring(duration: 0.5,
/// bounce: 0), critically damped (k 157.91, c 25.13, m 1).
#define SPRING_MOTION_DEFAULT_DURATION 0.5f ///< seconds (spring_params_from_duration_bounce)
#define SPRING_MOTION_DEFAULT_BOUNCE 0.0f   ///< 0: critically damped

/// Default rest_delta as a fraction of the move: 0.1 %. A zero threshold in a description means
/// "derive it from the move", per channel, in that channel's units:
///
///     A          = max(|target - value|, |velocity| / omega_n)   (the move's size, in units)
///     rest_delta = max(SPRING_MOTION_REST_FRACTION * A,  SPRING_MOTION_REST_DELTA_FLOOR,
///                      2^-21 * max(|value|, |target|))
///     rest_speed = omega_n * rest_delta                          (units/s)
///
/// Why: the move's own size is the only scale a library that does not know the units can trust
/// (a fixed 0.5 px is far too coarse for opacity or scale: Motion issues #1979 and motionone #221;
/// react-spring and Motion's WAAPI path scale with the range too). 0.1 % is the epsilon of
/// SwiftUI's settlingDuration, of Motion's `findSpring` and of react-spring's `precision`
/// (0.001 * range); it is 1/4 of an 8-bit colour step on a 0..1 channel and 0.1 px on a
/// 100 px move. |velocity| / omega_n is the excursion a flick produces, so a value thrown from
/// rest at its own target still gets a non-zero, proportionate threshold. rest_speed = omega_n
/// * rest_delta is the peak speed of an oscillation of amplitude rest_delta, which makes the two
/// conditions equally strict (together: the oscillation left is about rest_delta); for the
/// SwiftUI default spring and a unit move it is 0.0126 units/s, Motion's "granular" 0.01.
/// The floors keep the threshold non-zero for a zero-length move (1e-6 units, far below anything
/// visible in px, opacity, scale or radians) and above the float resolution of large values
/// (2^-21 relative is 4 float ulps; react-spring PR #2520).
/// Derived thresholds are recomputed whenever a new move starts: at init, at set_value and
/// set_params for every channel, and at set_target for the channels whose target changed.
/// Thresholds given explicitly (non-zero) are kept as given.
#define SPRING_MOTION_REST_FRACTION 1e-3f
#define SPRING_MOTION_REST_DELTA_FLOOR 1e-6f

/// Description of a motion. Zero means default; only the first `channels` entries of each array
/// are read.
typedef struct spring_motion_desc {
	int channels;                                 ///< 1 .. SPRING_MOTION_MAX_CHANNELS
	spring_params params;                         ///< all zero -> the default spring (SPRING_MOTION_DEFAULT_DURATION,
	                                              ///< SPRING_MOTION_DEFAULT_BOUNCE); mass 0 alone -> 1 kg
	float from[SPRING_MOTION_MAX_CHANNELS];       ///< initial value per channel, units, any finite; default 0
	float to[SPRING_MOTION_MAX_CHANNELS];         ///< target per channel, units, any finite; default 0
	float velocity[SPRING_MOTION_MAX_CHANNELS];   ///< initial velocity per channel, units/s, any finite; default 0
	float rest_delta[SPRING_MOTION_MAX_CHANNELS]; ///< units, finite >= 0; 0 -> derived (see above)
	float rest_speed[SPRING_MOTION_MAX_CHANNELS]; ///< units/s, finite >= 0; 0 -> omega_n * rest_delta
	bool clamp_overshoot;                         ///< true: a channel reaching its target stops there (default false)
} spring_motion_desc;

/// The motion's whole state, 144 bytes. Read any field freely; change it only through the
/// functions below (they keep the anchor and the thresholds consistent).
typedef struct spring_motion {
	double elapsed;                                    ///< seconds since the last re-anchoring, >= 0
	spring_params params;                              ///< resolved, valid parameters
	float value[SPRING_MOTION_MAX_CHANNELS];           ///< current value per channel, units
	float velocity[SPRING_MOTION_MAX_CHANNELS];        ///< current velocity per channel, units/s
	float target[SPRING_MOTION_MAX_CHANNELS];          ///< target per channel, units
	float anchor_value[SPRING_MOTION_MAX_CHANNELS];    ///< value at the last re-anchoring
	float anchor_velocity[SPRING_MOTION_MAX_CHANNELS]; ///< velocity at the last re-anchoring
	float rest_delta[SPRING_MOTION_MAX_CHANNELS];      ///< resolved threshold per channel, units, > 0
	float rest_speed[SPRING_MOTION_MAX_CHANNELS];      ///< resolved threshold per channel, units/s, > 0
	int channels;                                      ///< 1 .. SPRING_MOTION_MAX_CHANNELS
	bool at_rest;                                      ///< true when every channel sits exactly on its target, velocity 0
	bool clamp_overshoot;                              ///< true when the overshoot clamp is on
	uint8_t derived_rest[SPRING_MOTION_MAX_CHANNELS];  ///< bit 0: rest_delta derived; bit 1: rest_speed derived
} spring_motion;

/// Initialises `*m` from `desc`. At rest at once when every channel starts on its target with
/// velocity 0. Errors: NULL or channels out of range -> INVALID_ARGUMENT; a NaN or infinity
/// in a read field -> NOT_FINITE; invalid params or a negative threshold -> OUT_OF_RANGE.
SPRING_API spring_result spring_motion_init(spring_motion *m, const spring_motion_desc *desc);

/// New targets (`channels` finite values; `channels` must equal m->channels). Position and velocity are kept
/// bit for bit; the spring now pulls toward the new target. A motion at rest starts moving again
/// (from velocity 0). Targets equal to the current ones: a no-op (nothing changes at all).
SPRING_API spring_result spring_motion_set_target(spring_motion *m, const float *target, int channels);

/// New parameters (all zero -> the default spring; mass 0 -> 1; otherwise a valid spring_params).
/// Position and velocity are kept.
SPRING_API spring_result spring_motion_set_params(spring_motion *m, spring_params params);

/// Jumps to `value` with `velocity` (NULL -> 0; both `channels` finite values, `channels` equal to
/// m->channels), keeping the targets: a teleport. At rest when
/// every channel lands exactly on its target with velocity 0.
SPRING_API spring_result spring_motion_set_value(spring_motion *m, const float *value, const float *velocity, int channels);

/// Advances by dt seconds (finite, >= 0; any size: the result is the closed form at the total
/// time since the last re-anchoring), applies the overshoot clamp, then the rest test.
/// A result beyond float range -> OUT_OF_RANGE (nothing changes).
SPRING_API spring_result spring_motion_update(spring_motion *m, float dt);

/// 1 when at rest, 0 when moving (or when `m` is NULL or invalid).
SPRING_API bool spring_motion_is_resting(const spring_motion *m);

/// Snapshots (see base.h): the motion in a flat, versioned blob of spring_motion_snapshot_size
/// bytes (176: the 144-byte state and the header); restore refuses a blob of another channel count.
SPRING_API size_t spring_motion_snapshot_size(const spring_motion *m);
SPRING_API spring_result spring_motion_snapshot(const spring_motion *m, void *blob, size_t size);
SPRING_API spring_result spring_motion_restore(spring_motion *m, const void *blob, size_t size, spring_error *error);

/// Copies the first `channels` (1 .. m->channels) values and velocities; either output may be NULL.
SPRING_API spring_result spring_motion_get_value(const spring_motion *m, float *value, float *velocity, int channels);

/// Seconds from now after which the rest test holds for good (0 at rest; +inf when undamped and
/// not already within the thresholds; 0 for NULL or an invalid motion). Per channel: the later of
/// the exact last time |value - target| equals rest_delta and the last time |velocity| equals
/// rest_speed (spring_settling_time on position and on velocity, which obeys the same equation);
/// with the clamp, the time the channel first reaches its target if that is earlier; then the
/// maximum over channels. An upper bound: any frame at or after it comes to rest, so the
/// simulated rest is never more than one frame later. From rest with zeta >= 1 (and in the
/// usual underdamped cases) it is also when the rest happens, within one frame. An underdamped
/// motion can come to rest earlier: its (distance, speed) state passes inside both thresholds at
/// some phases of a cycle before the oscillation is small enough to stay inside for good (with
/// the derived thresholds by up to about 1 / (zeta omega_n) seconds, mean 0.3 / (zeta omega_n)).
/// Finite for every damped motion: a time beyond float range saturates at FLT_MAX.
SPRING_API float spring_motion_time_to_settle(const spring_motion *m);

/// Samples the motion's future from its current state, without changing it: sample i is the state
/// after advancing a copy i times by `interval` (so the rest snap and the clamp appear exactly as
/// they would when driven at that rate), at t = i * interval, written to values[i * channels + c]
/// and, if `velocities` is not NULL, velocities[i * channels + c]. Stops after the first sample at
/// rest, or before the first sample past `max_duration` seconds, or when `capacity` samples are
/// written. *count receives the number written; *truncated (optional) 1 when the curve was cut
/// before rest (by max_duration, by capacity, or by a future beyond float range), else 0.
/// Sample times may exceed max_duration by float rounding (4 ulps), so 0.1 s at 1/90 s gives 10.
/// interval finite > 0, max_duration finite >= 0, capacity >= 0 (values may be NULL only when
/// capacity is 0).
SPRING_API spring_result spring_motion_sample(const spring_motion *m, float interval, float max_duration, float *values,
                                              float *velocities, int capacity, int *count, int *truncated);

/// The normalised progress curve of a 0 -> 1 move: a one-channel motion from 0 to 1 with
/// `params` (zero -> default) and `initial_velocity` (finite) in progress units per second (velocity in
/// units/s divided by the move's length), sampled every `interval` seconds as by
/// spring_motion_sample. rest_delta in progress units (0 -> derived: 0.001 for a move from rest);
/// finite >= 0; rest_speed is omega_n * rest_delta. interval, max_duration and capacity as for
/// spring_motion_sample; `count` not NULL. Unless truncated, progress[0] is 0 and the last value is
/// exactly 1; the curve lasts (*count - 1) * interval seconds. A CSS easing is then
/// `linear(progress[0], ..., progress[count - 1])` over that duration (Motion samples 10 ms for
/// WAAPI and 30 ms for toString(), with a 20 s cap).
SPRING_API spring_result spring_motion_sample_progress(spring_params params, float initial_velocity, float interval,
                                                       float max_duration, float rest_delta, float *progress, int capacity,
                                                       int *count, int *truncated);

#ifdef __cplusplus
}
#endif
#endif
