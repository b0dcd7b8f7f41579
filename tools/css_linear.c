// SPDX-License-Identifier: MIT
// The CSS linear() generator shared by `spring css` and the npm package (css_linear.h).
#include "css_linear.h"

#include <spring/motion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void css_linear_format_stop(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.4f", v);
	char *dot = strchr(buf, '.');
	if (dot) {
		char *end = buf + strlen(buf) - 1;
		while (end > dot && *end == '0') {
			*end-- = '\0';
		}
		if (end == dot) {
			*end = '\0';
		}
	}
	if (strcmp(buf, "-0") == 0) {
		strcpy(buf, "0");
	}
}

void css_linear_free(css_linear *c)
{
	free(c->easing);
	free(c->stops);
	memset(c, 0, sizeof *c);
}

// The curve with stops `ms` milliseconds apart.
static int build(spring_params p, double ms, double max_duration, css_linear *c)
{
	memset(c, 0, sizeof *c);
	c->resolution_ms = ms;
	double interval = ms / 1000.0;
	int capacity = (int)floor(max_duration / interval + 1e-9) + 2;
	float *progress = malloc(sizeof(float) * (size_t)capacity);
	c->stops = malloc(sizeof(double) * (size_t)capacity);
	// "linear(" + at most "-0.1234, " per stop + ")"
	size_t text_size = 16u + 10u * (size_t)capacity;
	c->easing = malloc(text_size);
	if (!progress || !c->stops || !c->easing) {
		free(progress);
		css_linear_free(c);
		return CSS_LINEAR_OUT_OF_MEMORY;
	}
	int count = 0, truncated = 0;
	spring_result r = spring_motion_sample_progress(p, 0.0f, (float)interval, (float)max_duration, 0.0f, progress, capacity,
	                                                &count, &truncated);
	if (r != SPRING_OK || count < 1) {
		free(progress);
		css_linear_free(c);
		return CSS_LINEAR_CANNOT_SAMPLE;
	}
	c->count = count;
	c->truncated = truncated;
	size_t used = (size_t)snprintf(c->easing, text_size, "linear(");
	char buf[40];
	for (int i = 0; i < count; i++) {
		css_linear_format_stop(buf, sizeof buf, progress[i]);
		c->stops[i] = strtod(buf, NULL);
		used += (size_t)snprintf(c->easing + used, text_size - used, "%s%s", i ? ", " : "", buf);
	}
	snprintf(c->easing + used, text_size - used, ")");
	free(progress);
	// How far the piecewise-linear curve strays from the closed form, between and at the stops.
	double worst = 0.0;
	const int sub = 8;
	for (int i = 0; i + 1 < count; i++) {
		for (int k = 0; k <= sub; k++) {
			double f = (double)k / sub;
			double t = ((double)i + f) * interval;
			spring_state st = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)t);
			double lin = c->stops[i] + (c->stops[i + 1] - c->stops[i]) * f;
			worst = fmax(worst, fabs(lin - (double)st.x));
		}
	}
	if (count == 1) {
		worst = fabs(c->stops[0]);
	}
	c->deviation = worst;
	c->duration_ms = (double)(count - 1) * c->resolution_ms;
	return CSS_LINEAR_OK;
}

int css_linear_make(spring_params p, double max_duration, double resolution_ms, css_linear *out)
{
	static const double refine[] = {CSS_LINEAR_DEFAULT_RESOLUTION, 5.0, 4.0, 2.0, 1.0};
	int explicit_resolution = resolution_ms > 0.0;
	int tries = explicit_resolution ? 1 : (int)(sizeof refine / sizeof refine[0]);
	memset(out, 0, sizeof *out);
	if (p.stiffness == 0.0f && p.damping == 0.0f && p.mass == 0.0f &&
	    spring_params_from_duration_bounce(SPRING_MOTION_DEFAULT_DURATION, SPRING_MOTION_DEFAULT_BOUNCE, &p) != SPRING_OK) {
		return CSS_LINEAR_CANNOT_SAMPLE;
	}
	for (int i = 0; i < tries; i++) {
		double ms = explicit_resolution ? resolution_ms : refine[i];
		if (max_duration / (ms / 1000.0) > CSS_LINEAR_MAX_STOPS) {
			if (i == 0) {
				return CSS_LINEAR_TOO_MANY_STOPS;
			}
			break;
		}
		css_linear next;
		int r = build(p, ms, max_duration, &next);
		if (r != CSS_LINEAR_OK) {
			css_linear_free(out);
			return r;
		}
		css_linear_free(out);
		*out = next;
		if (out->deviation <= CSS_LINEAR_TOLERANCE) {
			break;
		}
	}
	return CSS_LINEAR_OK;
}
