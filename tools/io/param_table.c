// SPDX-License-Identifier: MIT
// The spring parameterisations of the tools (param_table.h): one row each, read by the CLI's
// flags and by the rig-file reader.
#include "param_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// The library's conversions with the values in field order.
static spring_result physical(const float *v, spring_params *out)
{
	return spring_params_from_physical(v[0], v[1], v[2], out);
}
static spring_result frequency(const float *v, spring_params *out)
{
	return spring_params_from_frequency(v[0], v[1], out);
}
static spring_result duration_bounce(const float *v, spring_params *out)
{
	return spring_params_from_duration_bounce(v[0], v[1], out);
}
static spring_result response(const float *v, spring_params *out)
{
	return spring_params_from_response(v[0], v[1], out);
}
static spring_result settling(const float *v, spring_params *out)
{
	return spring_params_from_settling(v[0], v[1], v[2], out);
}
static spring_result visual_duration(const float *v, spring_params *out)
{
	return spring_params_from_visual_duration(v[0], v[1], out);
}
static spring_result half_life(const float *v, spring_params *out)
{
	return spring_params_from_half_life(v[0], out);
}
static spring_result tension_friction(const float *v, spring_params *out)
{
	return spring_params_from_tension_friction(v[0], v[1], out);
}
static spring_result origami(const float *v, spring_params *out)
{
	return spring_params_from_origami(v[0], v[1], out);
}
static spring_result per_frame(const float *v, spring_params *out)
{
	return spring_params_from_per_frame(v[0], v[1], v[2], out);
}
static spring_result stiffness_ratio(const float *v, spring_params *out)
{
	return spring_params_from_damping_ratio(v[2], v[0], v[1], out);
}
static spring_result motion_duration(const float *v, spring_params *out)
{
	return spring_params_from_motion_duration(v[0], v[1], out);
}

#define REQUIRED NAN
#define INF 1e30
// clang-format off
#define POSITIVE {0.0, INF, 1, 0}
#define NONNEGATIVE {0.0, INF, 0, 0}
#define ANY {-INF, INF, 0, 0}
#define BOUNCE {-1.0, 1.0, 1, 0}
// clang-format on

// Rig-file messages list the forms in this order ("give A or B"), and the CLI names the owners of a
// partner flag in it ("--bounce needs --duration or --visual-duration").
const spring_param_form spring_param_forms[SPRING_PARAM_FORM_COUNT] = {
	// clang-format off
	[SPRING_PARAM_PHYSICAL] = {"physical", 1, 3,
		{{"mass", "--mass", "M", 1.0, POSITIVE, 0, 0},
		 {"stiffness", "--stiffness", "K", REQUIRED, POSITIVE, 0, 0},
		 {"damping", "--damping", "C", REQUIRED, NONNEGATIVE, 0, 0}},
		physical, "mass %s kg, stiffness %s N/m, damping %s N*s/m", "physical (N/m, N*s/m, kg); mass default 1"},
	[SPRING_PARAM_FREQUENCY] = {"frequency-damping-ratio", 0, 2,
		{{"frequency", "--frequency", "HZ", REQUIRED, POSITIVE, 0, 0},
		 {"damping_ratio", "--damping-ratio", "Z", REQUIRED, NONNEGATIVE, 0, 0}},
		frequency, "%s Hz, damping ratio %s", "natural frequency (Hz) and damping ratio"},
	[SPRING_PARAM_DURATION] = {"duration-bounce", 0, 2,
		{{"duration", "--duration", "S", REQUIRED, POSITIVE, 0, 1},
		 {"bounce", "--bounce", "B", 0.0, BOUNCE, 0, 0}},
		duration_bounce, "duration %s s, bounce %s", "SwiftUI Spring(duration:bounce:); bounce in (-1, 1], default 0"},
	[SPRING_PARAM_RESPONSE] = {"response-damping-fraction", 0, 2,
		{{"response", "--response", "S", REQUIRED, POSITIVE, 0, 1},
		 {"damping_fraction", "--damping-fraction", "Z", REQUIRED, NONNEGATIVE, 0, 0}},
		response, "response %s s, damping fraction %s",
		"SwiftUI spring(response:dampingFraction:), react-spring\n{frequency, damping}"},
	[SPRING_PARAM_SETTLING] = {"settling-damping-ratio", 0, 3,
		{{"settling", "--settling", "S", REQUIRED, POSITIVE, 0, 1},
		 {"damping_ratio", "--damping-ratio", "Z", REQUIRED, NONNEGATIVE, 0, 0},
		 {"epsilon", "--epsilon", "E", 0.001, {0.0, 1.0, 1, 1}, 1, 0}},
		settling, "settling %s s, damping ratio %s, epsilon %s",
		"SwiftUI Spring(settlingDuration:dampingRatio:epsilon:)\n(epsilon from --epsilon)"},
	[SPRING_PARAM_VISUAL_DURATION] = {"visual-duration-bounce", 0, 2,
		{{"visual_duration", "--visual-duration", "S", REQUIRED, POSITIVE, 0, 1},
		 {"bounce", "--bounce", "B", 0.0, BOUNCE, 0, 0}},
		visual_duration, "visual duration %s s, bounce %s", "Motion {visualDuration, bounce}; bounce default 0"},
	[SPRING_PARAM_HALF_LIFE] = {"half-life", 0, 1,
		{{"half_life", "--half-life", "S", REQUIRED, POSITIVE, 0, 1}},
		half_life, "half-life %s s (critically damped)", "critically damped, the gap halves every S seconds"},
	[SPRING_PARAM_TENSION] = {"tension-friction", 0, 2,
		{{"tension", "--tension", "T", REQUIRED, POSITIVE, 0, 0},
		 {"friction", "--friction", "F", REQUIRED, NONNEGATIVE, 0, 0}},
		tension_friction, "tension %s, friction %s (mass 1)", "react-spring / Rebound tension and friction (mass 1)"},
	[SPRING_PARAM_ORIGAMI] = {"origami", 0, 2,
		{{"origami_tension", "--origami-tension", "T", REQUIRED, ANY, 0, 0},
		 {"origami_friction", "--origami-friction", "F", REQUIRED, ANY, 0, 0}},
		origami, "Origami tension %s, friction %s", "Origami (Facebook Rebound) slider values"},
	[SPRING_PARAM_PER_FRAME] = {"per-frame", 0, 3,
		{{"per_frame_stiffness", "--per-frame-stiffness", "S", REQUIRED, POSITIVE, 0, 0},
		 {"per_frame_damping", "--per-frame-damping", "D", REQUIRED, {0.0, 1.0, 1, 0}, 0, 0},
		 {"fps", "--per-frame-fps", "FPS", REQUIRED, POSITIVE, 0, 0}},
		per_frame, "per-frame stiffness %s, damping %s at %s fps",
		"legacy per-frame loop (v += (t - x) S; v *= D; x += v)"},
	[SPRING_PARAM_STIFFNESS_RATIO] = {"stiffness-damping-ratio", 0, 3,
		{{"stiffness", "--stiffness", "K", REQUIRED, POSITIVE, 0, 0},
		 {"damping_ratio", "--damping-ratio", "Z", REQUIRED, NONNEGATIVE, 0, 0},
		 {"mass", "--mass", "M", 1.0, POSITIVE, 0, 0}},
		stiffness_ratio, "stiffness %s N/m, damping ratio %s, mass %s kg",
		"Jetpack Compose spring(dampingRatio, stiffness), Flutter\nSpringDescription.withDampingRatio; mass default 1"},
	[SPRING_PARAM_MOTION_DURATION] = {"motion-duration-bounce", 0, 2,
		{{"motion_duration", "--motion-duration", "S", REQUIRED, {0.01, 10.0, 0, 0}, 0, 1},
		 {"bounce", "--bounce", "B", 0.3, BOUNCE, 0, 0}},
		motion_duration, "Motion duration %s s, bounce %s",
		"Motion {type: \"spring\", duration, bounce}: done after S s\n(within 0.1%), not SwiftUI's duration; bounce default 0.3"},
	// clang-format on
};

int spring_param_range_contains(spring_param_range r, double v)
{
	if (r.lo_open ? !(v > r.lo) : !(v >= r.lo)) {
		return 0;
	}
	return r.hi_open ? v < r.hi : v <= r.hi;
}

// A bound as messages show it: 6 significant digits, never "-0".
static void bound_text(char buf[40], double v)
{
	snprintf(buf, 40, "%.6g", v == 0.0 ? 0.0 : v);
}

void spring_param_range_text(char *buf, size_t size, spring_param_range r)
{
	char lo[40], hi[40];
	bound_text(lo, r.lo);
	bound_text(hi, r.hi);
	int has_lo = r.lo > -1e29, has_hi = r.hi < 1e29;
	if (has_lo && has_hi) {
		snprintf(buf, size, "in %c%s, %s%c", r.lo_open ? '(' : '[', lo, hi, r.hi_open ? ')' : ']');
	} else if (has_lo) {
		snprintf(buf, size, "%s %s", r.lo_open ? ">" : ">=", lo);
	} else if (has_hi) {
		snprintf(buf, size, "%s %s", r.hi_open ? "<" : "<=", hi);
	} else {
		snprintf(buf, size, "a number");
	}
}

int spring_param_field_optional(const spring_param_field *f)
{
	return !isnan(f->fallback);
}

int spring_param_form_listing(const spring_param_form *form, int order[SPRING_PARAM_MAX_FIELDS])
{
	int n = 0;
	order[n++] = form->primary;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < form->field_count; i++) {
			if (i != form->primary && spring_param_field_optional(&form->fields[i]) == pass) {
				order[n++] = i;
			}
		}
	}
	return n;
}

int spring_param_form_key_index(const spring_param_form *form, const char *key)
{
	for (int i = 0; i < form->field_count; i++) {
		if (strcmp(form->fields[i].key, key) == 0) {
			return i;
		}
	}
	return -1;
}

spring_result spring_param_form_convert(const spring_param_form *form, const double *values, spring_params *out)
{
	float v[SPRING_PARAM_MAX_FIELDS] = {0.0f, 0.0f, 0.0f};
	for (int i = 0; i < form->field_count; i++) {
		v[i] = (float)values[i];
	}
	return form->convert(v, out);
}
