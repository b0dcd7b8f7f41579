// SPDX-License-Identifier: MIT
/// @file css_linear.h
/// The CSS `linear()` easing of a spring's 0 -> 1 progress from rest, and its duration: the
/// generator behind `spring css`, shared with the npm package (js/), so both print the same text.
///
/// Part of the tools, not of libspring: it only formats what spring_motion_sample_progress and
/// spring_evaluate compute. Stops are evenly spaced and printed with at most 4 decimals
/// (trailing zeros dropped, "-0" printed as "0").
#ifndef SPRING_CSS_LINEAR_H
#define SPRING_CSS_LINEAR_H

#include "spring/spring.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSS_LINEAR_MAX_STOPS 100000      ///< most stops a curve may need (max_duration / resolution)
#define CSS_LINEAR_DEFAULT_RESOLUTION 10 ///< ms between stops unless refined or given
#define CSS_LINEAR_TOLERANCE 0.0025      ///< automatic refinement stops once the curve is this close (fraction of the move)

/// A generated easing.
typedef struct css_linear {
	int count;            ///< stops
	int truncated;        ///< 1: max_duration cut the curve before the spring came to rest
	double resolution_ms; ///< milliseconds between stops
	double duration_ms;   ///< (count - 1) * resolution_ms
	double deviation;     ///< largest |linear() - spring| over the curve, fraction of the move
	char *easing;         ///< "linear(0, 0.0123, ..., 1)", NUL-terminated (malloc'd)
	double *stops;        ///< the count values as printed (malloc'd)
} css_linear;

/// What css_linear_make returns.
enum {
	CSS_LINEAR_OK = 0,
	CSS_LINEAR_OUT_OF_MEMORY = -1,
	CSS_LINEAR_CANNOT_SAMPLE = -2, ///< the library refused the spring (spring_motion_sample_progress)
	CSS_LINEAR_TOO_MANY_STOPS = -3 ///< max_duration / resolution exceeds CSS_LINEAR_MAX_STOPS
};

/// Builds the easing of `p` (all zero: spring_motion's default spring, SPRING_MOTION_DEFAULT_*) lasting at most
/// max_duration seconds (finite, >= 0). resolution_ms > 0: stops exactly that many ms apart;
/// 0: CSS_LINEAR_DEFAULT_RESOLUTION, made finer (5, 4, 2, 1 ms) while the curve strays more than
/// CSS_LINEAR_TOLERANCE from the spring and the stop count allows. On success `*out` owns memory
/// (css_linear_free); on failure it holds nothing to free.
int css_linear_make(spring_params p, double max_duration, double resolution_ms, css_linear *out);

/// A stop as printed: at most 4 decimals, trailing zeros dropped, "-0" as "0" (`size` >= 8).
void css_linear_format_stop(char *buf, size_t size, double v);

/// Frees what css_linear_make allocated and zeroes `*c`.
void css_linear_free(css_linear *c);

#ifdef __cplusplus
}
#endif
#endif
