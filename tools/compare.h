// SPDX-License-Identifier: MIT
// The tween-versus-spring retarget experiment, shared by `spring compare` and the demo page: a value moving from A to
// B is retargeted to C mid-flight. The tween (CSS ease-in-out) restarts from rest at the current
// position; the spring (spring_motion) keeps its position and velocity.
#ifndef SPRING_TOOLS_COMPARE_H
#define SPRING_TOOLS_COMPARE_H

#include "cli.h"

typedef struct compare_desc {
	spring_params p;
	const char *spring_label; ///< e.g. "duration 0.5 s, bounce 0"
	double from, to, retarget_to, retarget_at, tween_duration, dt, until;
} compare_desc;

typedef struct compare_result {
	int n; ///< samples; the retarget time appears twice (before, after)
	double *t, *tween_x, *tween_v, *spring_x, *spring_v, *tween_speed, *spring_speed;
	int retarget_index;                                            ///< index of the "after" sample at the retarget time
	double tween_before, tween_after, spring_before, spring_after; ///< speeds at the retarget
	double tween_next, spring_next;                                ///< speeds one frame after the retarget
	double spring_rest_time;                                       ///< when the spring came to rest (NAN if not within the run)
	double tween_end_time;                                         ///< when the second tween ends
} compare_result;

/// Default `until` for a description whose other fields are set: the retarget time plus the
/// longer of the tween and the spring's settling after the retarget, rounded up to 0.1 s, <= 10 s.
double compare_default_until(const compare_desc *d);
/// Runs the experiment. 0 on success, -1 out of memory, -2 invalid spring.
int compare_run(const compare_desc *d, compare_result *r);
void compare_free(compare_result *r);
/// Two panels (position, speed) as one <svg>.
void compare_svg(sbuf *b, const compare_desc *d, const compare_result *r, int standalone);
/// CSS ease-in-out, cubic-bezier(0.42, 0, 0.58, 1): progress and its derivative at u in [0, 1].
void compare_ease_in_out(double u, double *y, double *dy_du);

#endif
