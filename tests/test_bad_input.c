// SPDX-License-Identifier: MIT
// Bad-input corpus for the core API (spring.h).
//
// The rule under test: bad input (NaN, +-inf, negative mass, negative damping, zero stiffness,
// dt < 0, non-finite dt, bounce out of range, epsilon out of range, NULL pointers, ...) returns an
// error and leaves every output untouched, bit for bit. Nothing produces NaN from valid input.
//
// 1. a table-driven corpus over every spring_params_from_* function, one fault per row;
// 2. stepping functions (exact, semi-implicit, stepper) with every kind of fault, enormous dt,
//    float overflow of the result;
// 3. spring_evaluate* returning `start` unchanged;
// 4. queries returning 0 (never NaN);
// 5. the fixed-step clock;
// 6. follow and the angle helpers;
// 7. rest detection;
// 8. a seeded fuzz over valid and out-of-range input.
#include "spring/spring.h"

#include "base_internal.h"

#include "random.h"
#include "test_macros.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define NF SPRING_ERROR_NOT_FINITE
#define OOR SPRING_ERROR_OUT_OF_RANGE
#define IA SPRING_ERROR_INVALID_ARGUMENT
#define NS SPRING_ERROR_NO_SOLUTION
#define SENTINEL 0xA5

static int all_finite(const float *f, int n)
{
	for (int i = 0; i < n; i++) {
		if (!isfinite(f[i])) {
			return 0;
		}
	}
	return 1;
}

// =============================================================================================
// 1. Parameterisation corpus

typedef enum from_fn {
	FROM_PHYSICAL,
	FROM_FREQUENCY,
	FROM_DURATION_BOUNCE,
	FROM_RESPONSE,
	FROM_SETTLING,
	FROM_VISUAL_DURATION,
	FROM_HALF_LIFE,
	FROM_TENSION_FRICTION,
	FROM_ORIGAMI,
	FROM_PER_FRAME,
	FROM_COUNT
} from_fn;

static const char *const from_fn_names[FROM_COUNT] = {
	"from_physical",        "from_frequency", "from_duration_bounce",  "from_response", "from_settling",
	"from_visual_duration", "from_half_life", "from_tension_friction", "from_origami",  "from_per_frame",
};

// Number of float arguments each takes, and a valid argument set (used as the fuzz baseline and
// to check that each corpus row has exactly one fault).
static const int from_arity[FROM_COUNT] = {3, 2, 2, 2, 3, 2, 1, 2, 2, 3};
static const float from_valid[FROM_COUNT][3] = {
	{1.0f, 100.0f, 10.0f}, // mass, stiffness, damping
	{2.0f, 0.5f, 0.0f},    // hertz, damping ratio
	{0.5f, 0.3f, 0.0f},    // duration, bounce
	{0.5f, 0.8f, 0.0f},    // response, damping fraction
	{1.0f, 0.7f, 0.001f},  // settling duration, damping ratio, epsilon
	{0.3f, 0.2f, 0.0f},    // visual duration, bounce
	{0.1f, 0.0f, 0.0f},    // half life
	{170.0f, 26.0f, 0.0f}, // tension, friction
	{40.0f, 7.0f, 0.0f},   // origami tension, friction
	{0.1f, 0.9f, 60.0f},   // stiffness per frame, damping per frame, fps
};

static spring_result call_from(from_fn f, const float a[3], spring_params *out)
{
	switch (f) {
	case FROM_PHYSICAL: return spring_params_from_physical(a[0], a[1], a[2], out);
	case FROM_FREQUENCY: return spring_params_from_frequency(a[0], a[1], out);
	case FROM_DURATION_BOUNCE: return spring_params_from_duration_bounce(a[0], a[1], out);
	case FROM_RESPONSE: return spring_params_from_response(a[0], a[1], out);
	case FROM_SETTLING: return spring_params_from_settling(a[0], a[1], a[2], out);
	case FROM_VISUAL_DURATION: return spring_params_from_visual_duration(a[0], a[1], out);
	case FROM_HALF_LIFE: return spring_params_from_half_life(a[0], out);
	case FROM_TENSION_FRICTION: return spring_params_from_tension_friction(a[0], a[1], out);
	case FROM_ORIGAMI: return spring_params_from_origami(a[0], a[1], out);
	case FROM_PER_FRAME: return spring_params_from_per_frame_exact(a[0], a[1], a[2], out);
	case FROM_COUNT: break;
	}
	return SPRING_RESULT_COUNT;
}

typedef struct corpus_row {
	from_fn fn;
	const char *name;
	float a[3];
	int null_out;
	spring_result expect;
} corpus_row;

// clang-format off
#define ROW(fn, name, a0, a1, a2, expect) {fn, name, {a0, a1, a2}, 0, expect}
#define ROW_NULL(fn, a0, a1, a2) {fn, "NULL out", {a0, a1, a2}, 1, IA}
// clang-format on

static const corpus_row corpus[] = {
	// spring_params_from_physical(mass, stiffness, damping)
	ROW(FROM_PHYSICAL, "mass NaN", NAN, 100.0f, 10.0f, NF),
	ROW(FROM_PHYSICAL, "mass +inf", INFINITY, 100.0f, 10.0f, NF),
	ROW(FROM_PHYSICAL, "mass -inf", -INFINITY, 100.0f, 10.0f, NF),
	ROW(FROM_PHYSICAL, "mass 0", 0.0f, 100.0f, 10.0f, OOR),
	ROW(FROM_PHYSICAL, "mass -0", -0.0f, 100.0f, 10.0f, OOR),
	ROW(FROM_PHYSICAL, "mass -1", -1.0f, 100.0f, 10.0f, OOR),
	ROW(FROM_PHYSICAL, "stiffness NaN", 1.0f, NAN, 10.0f, NF),
	ROW(FROM_PHYSICAL, "stiffness +inf", 1.0f, INFINITY, 10.0f, NF),
	ROW(FROM_PHYSICAL, "stiffness -inf", 1.0f, -INFINITY, 10.0f, NF),
	ROW(FROM_PHYSICAL, "stiffness 0", 1.0f, 0.0f, 10.0f, OOR),
	ROW(FROM_PHYSICAL, "stiffness -1", 1.0f, -1.0f, 10.0f, OOR),
	ROW(FROM_PHYSICAL, "damping NaN", 1.0f, 100.0f, NAN, NF),
	ROW(FROM_PHYSICAL, "damping +inf", 1.0f, 100.0f, INFINITY, NF),
	ROW(FROM_PHYSICAL, "damping -inf", 1.0f, 100.0f, -INFINITY, NF),
	ROW(FROM_PHYSICAL, "damping -1", 1.0f, 100.0f, -1.0f, OOR),
	ROW(FROM_PHYSICAL, "damping -1e-30", 1.0f, 100.0f, -1e-30f, OOR),
	ROW(FROM_PHYSICAL, "k/m overflows float (mass 1e-38, k 1e38)", 1e-38f, 1e38f, 0.0f, OOR),
	ROW(FROM_PHYSICAL, "c/m overflows float (mass 1e-38, c 1e38)", 1e-38f, 1.0f, 1e38f, OOR),
	ROW(FROM_PHYSICAL, "k/m below FLT_MIN (k 1e-39)", 1.0f, 1e-39f, 0.0f, OOR),
	ROW_NULL(FROM_PHYSICAL, 1.0f, 100.0f, 10.0f),
	ROW_NULL(FROM_PHYSICAL, NAN, -1.0f, -1.0f),

	// spring_params_from_frequency(hertz, damping_ratio)
	ROW(FROM_FREQUENCY, "hertz NaN", NAN, 0.5f, 0.0f, NF),
	ROW(FROM_FREQUENCY, "hertz +inf", INFINITY, 0.5f, 0.0f, NF),
	ROW(FROM_FREQUENCY, "hertz -inf", -INFINITY, 0.5f, 0.0f, NF),
	ROW(FROM_FREQUENCY, "hertz 0", 0.0f, 0.5f, 0.0f, OOR),
	ROW(FROM_FREQUENCY, "hertz -2", -2.0f, 0.5f, 0.0f, OOR),
	ROW(FROM_FREQUENCY, "damping ratio NaN", 2.0f, NAN, 0.0f, NF),
	ROW(FROM_FREQUENCY, "damping ratio +inf", 2.0f, INFINITY, 0.0f, NF),
	ROW(FROM_FREQUENCY, "damping ratio -inf", 2.0f, -INFINITY, 0.0f, NF),
	ROW(FROM_FREQUENCY, "damping ratio -0.1", 2.0f, -0.1f, 0.0f, OOR),
	ROW(FROM_FREQUENCY, "damping ratio -1", 2.0f, -1.0f, 0.0f, OOR),
	ROW(FROM_FREQUENCY, "hertz 1e30 (k overflows)", 1e30f, 0.5f, 0.0f, OOR),
	ROW(FROM_FREQUENCY, "hertz 1e-30 (k underflows to 0)", 1e-30f, 0.5f, 0.0f, OOR),
	ROW(FROM_FREQUENCY, "damping ratio 1e38 (c overflows)", 2.0f, 1e38f, 0.0f, OOR),
	ROW_NULL(FROM_FREQUENCY, 2.0f, 0.5f, 0.0f),

	// spring_params_from_duration_bounce(duration, bounce)
	ROW(FROM_DURATION_BOUNCE, "duration NaN", NAN, 0.3f, 0.0f, NF),
	ROW(FROM_DURATION_BOUNCE, "duration +inf", INFINITY, 0.3f, 0.0f, NF),
	ROW(FROM_DURATION_BOUNCE, "duration -inf", -INFINITY, 0.3f, 0.0f, NF),
	ROW(FROM_DURATION_BOUNCE, "duration 0", 0.0f, 0.3f, 0.0f, OOR),
	ROW(FROM_DURATION_BOUNCE, "duration -1", -1.0f, 0.3f, 0.0f, OOR),
	ROW(FROM_DURATION_BOUNCE, "bounce NaN", 0.5f, NAN, 0.0f, NF),
	ROW(FROM_DURATION_BOUNCE, "bounce +inf", 0.5f, INFINITY, 0.0f, NF),
	ROW(FROM_DURATION_BOUNCE, "bounce -inf", 0.5f, -INFINITY, 0.0f, NF),
	ROW(FROM_DURATION_BOUNCE, "bounce -1", 0.5f, -1.0f, 0.0f, OOR),
	ROW(FROM_DURATION_BOUNCE, "bounce 1.0001", 0.5f, 1.0001f, 0.0f, OOR),
	ROW(FROM_DURATION_BOUNCE, "bounce 5", 0.5f, 5.0f, 0.0f, OOR),
	ROW(FROM_DURATION_BOUNCE, "bounce -3", 0.5f, -3.0f, 0.0f, OOR),
	ROW(FROM_DURATION_BOUNCE, "duration 1e-30 (k overflows)", 1e-30f, 0.3f, 0.0f, OOR),
	ROW_NULL(FROM_DURATION_BOUNCE, 0.5f, 0.3f, 0.0f),

	// spring_params_from_response(response, damping_fraction)
	ROW(FROM_RESPONSE, "response NaN", NAN, 0.8f, 0.0f, NF),
	ROW(FROM_RESPONSE, "response +inf", INFINITY, 0.8f, 0.0f, NF),
	ROW(FROM_RESPONSE, "response -inf", -INFINITY, 0.8f, 0.0f, NF),
	ROW(FROM_RESPONSE, "response 0", 0.0f, 0.8f, 0.0f, OOR),
	ROW(FROM_RESPONSE, "response -1", -1.0f, 0.8f, 0.0f, OOR),
	ROW(FROM_RESPONSE, "damping fraction NaN", 0.5f, NAN, 0.0f, NF),
	ROW(FROM_RESPONSE, "damping fraction +inf", 0.5f, INFINITY, 0.0f, NF),
	ROW(FROM_RESPONSE, "damping fraction -inf", 0.5f, -INFINITY, 0.0f, NF),
	ROW(FROM_RESPONSE, "damping fraction -0.5", 0.5f, -0.5f, 0.0f, OOR),
	ROW(FROM_RESPONSE, "response 1e-30 (k overflows)", 1e-30f, 0.8f, 0.0f, OOR),
	ROW_NULL(FROM_RESPONSE, 0.5f, 0.8f, 0.0f),

	// spring_params_from_settling(settling_duration, damping_ratio, epsilon)
	ROW(FROM_SETTLING, "duration NaN", NAN, 0.7f, 0.001f, NF),
	ROW(FROM_SETTLING, "duration +inf", INFINITY, 0.7f, 0.001f, NF),
	ROW(FROM_SETTLING, "duration -inf", -INFINITY, 0.7f, 0.001f, NF),
	ROW(FROM_SETTLING, "duration 0", 0.0f, 0.7f, 0.001f, OOR),
	ROW(FROM_SETTLING, "duration -1", -1.0f, 0.7f, 0.001f, OOR),
	ROW(FROM_SETTLING, "damping ratio NaN", 1.0f, NAN, 0.001f, NF),
	ROW(FROM_SETTLING, "damping ratio +inf", 1.0f, INFINITY, 0.001f, NF),
	ROW(FROM_SETTLING, "damping ratio -inf", 1.0f, -INFINITY, 0.001f, NF),
	ROW(FROM_SETTLING, "damping ratio 0", 1.0f, 0.0f, 0.001f, OOR),
	ROW(FROM_SETTLING, "damping ratio -0.5", 1.0f, -0.5f, 0.001f, OOR),
	ROW(FROM_SETTLING, "epsilon NaN", 1.0f, 0.7f, NAN, NF),
	ROW(FROM_SETTLING, "epsilon +inf", 1.0f, 0.7f, INFINITY, NF),
	ROW(FROM_SETTLING, "epsilon -inf", 1.0f, 0.7f, -INFINITY, NF),
	ROW(FROM_SETTLING, "epsilon 0", 1.0f, 0.7f, 0.0f, OOR),
	ROW(FROM_SETTLING, "epsilon 1", 1.0f, 0.7f, 1.0f, OOR),
	ROW(FROM_SETTLING, "epsilon -0.1", 1.0f, 0.7f, -0.1f, OOR),
	ROW(FROM_SETTLING, "epsilon 1.5", 1.0f, 0.7f, 1.5f, OOR),
	ROW(FROM_SETTLING, "zeta 1e-4, epsilon 1e-3: envelope starts below epsilon", 1.0f, 1e-4f, 1e-3f, NS),
	ROW(FROM_SETTLING, "zeta 1e-6, epsilon 0.5: envelope starts below epsilon", 0.5f, 1e-6f, 0.5f, NS),
	ROW(FROM_SETTLING, "zeta 5e-4, epsilon 0.01: envelope starts below epsilon", 2.0f, 5e-4f, 0.01f, NS),
	ROW(FROM_SETTLING, "duration 1e-30 (k overflows)", 1e-30f, 0.7f, 0.001f, OOR),
	ROW_NULL(FROM_SETTLING, 1.0f, 0.7f, 0.001f),
	ROW_NULL(FROM_SETTLING, 1.0f, 1e-4f, 1e-3f),

	// spring_params_from_visual_duration(visual_duration, bounce)
	ROW(FROM_VISUAL_DURATION, "visual duration NaN", NAN, 0.2f, 0.0f, NF),
	ROW(FROM_VISUAL_DURATION, "visual duration +inf", INFINITY, 0.2f, 0.0f, NF),
	ROW(FROM_VISUAL_DURATION, "visual duration -inf", -INFINITY, 0.2f, 0.0f, NF),
	ROW(FROM_VISUAL_DURATION, "visual duration 0", 0.0f, 0.2f, 0.0f, OOR),
	ROW(FROM_VISUAL_DURATION, "visual duration -1", -1.0f, 0.2f, 0.0f, OOR),
	ROW(FROM_VISUAL_DURATION, "bounce NaN", 0.3f, NAN, 0.0f, NF),
	ROW(FROM_VISUAL_DURATION, "bounce +inf", 0.3f, INFINITY, 0.0f, NF),
	ROW(FROM_VISUAL_DURATION, "bounce -inf", 0.3f, -INFINITY, 0.0f, NF),
	ROW(FROM_VISUAL_DURATION, "bounce -1", 0.3f, -1.0f, 0.0f, OOR),
	ROW(FROM_VISUAL_DURATION, "bounce 1.0001", 0.3f, 1.0001f, 0.0f, OOR),
	ROW(FROM_VISUAL_DURATION, "bounce 5", 0.3f, 5.0f, 0.0f, OOR),
	ROW(FROM_VISUAL_DURATION, "bounce -3", 0.3f, -3.0f, 0.0f, OOR),
	ROW(FROM_VISUAL_DURATION, "visual duration 1e-30 (k overflows)", 1e-30f, 0.2f, 0.0f, OOR),
	ROW_NULL(FROM_VISUAL_DURATION, 0.3f, 0.2f, 0.0f),

	// spring_params_from_half_life(half_life)
	ROW(FROM_HALF_LIFE, "half life NaN", NAN, 0.0f, 0.0f, NF),
	ROW(FROM_HALF_LIFE, "half life +inf", INFINITY, 0.0f, 0.0f, NF),
	ROW(FROM_HALF_LIFE, "half life -inf", -INFINITY, 0.0f, 0.0f, NF),
	ROW(FROM_HALF_LIFE, "half life 0", 0.0f, 0.0f, 0.0f, OOR),
	ROW(FROM_HALF_LIFE, "half life -1", -1.0f, 0.0f, 0.0f, OOR),
	ROW(FROM_HALF_LIFE, "half life 1e-30 (k overflows)", 1e-30f, 0.0f, 0.0f, OOR),
	ROW_NULL(FROM_HALF_LIFE, 0.1f, 0.0f, 0.0f),

	// spring_params_from_tension_friction(tension, friction)
	ROW(FROM_TENSION_FRICTION, "tension NaN", NAN, 26.0f, 0.0f, NF),
	ROW(FROM_TENSION_FRICTION, "tension +inf", INFINITY, 26.0f, 0.0f, NF),
	ROW(FROM_TENSION_FRICTION, "tension -inf", -INFINITY, 26.0f, 0.0f, NF),
	ROW(FROM_TENSION_FRICTION, "tension 0", 0.0f, 26.0f, 0.0f, OOR),
	ROW(FROM_TENSION_FRICTION, "tension -1", -1.0f, 26.0f, 0.0f, OOR),
	ROW(FROM_TENSION_FRICTION, "friction NaN", 170.0f, NAN, 0.0f, NF),
	ROW(FROM_TENSION_FRICTION, "friction +inf", 170.0f, INFINITY, 0.0f, NF),
	ROW(FROM_TENSION_FRICTION, "friction -inf", 170.0f, -INFINITY, 0.0f, NF),
	ROW(FROM_TENSION_FRICTION, "friction -1", 170.0f, -1.0f, 0.0f, OOR),
	ROW(FROM_TENSION_FRICTION, "tension 1e-39 (below FLT_MIN)", 1e-39f, 26.0f, 0.0f, OOR),
	ROW_NULL(FROM_TENSION_FRICTION, 170.0f, 26.0f, 0.0f),

	// spring_params_from_origami(origami_tension, origami_friction)
	ROW(FROM_ORIGAMI, "tension NaN", NAN, 7.0f, 0.0f, NF),
	ROW(FROM_ORIGAMI, "tension +inf", INFINITY, 7.0f, 0.0f, NF),
	ROW(FROM_ORIGAMI, "tension -inf", -INFINITY, 7.0f, 0.0f, NF),
	ROW(FROM_ORIGAMI, "friction NaN", 40.0f, NAN, 0.0f, NF),
	ROW(FROM_ORIGAMI, "friction +inf", 40.0f, INFINITY, 0.0f, NF),
	ROW(FROM_ORIGAMI, "friction -inf", 40.0f, -INFINITY, 0.0f, NF),
	ROW(FROM_ORIGAMI, "tension -30 gives k < 0", -30.0f, 7.0f, 0.0f, OOR),
	ROW(FROM_ORIGAMI, "tension -1000 gives k < 0", -1000.0f, 7.0f, 0.0f, OOR),
	ROW(FROM_ORIGAMI, "friction -1 gives c < 0", 40.0f, -1.0f, 0.0f, OOR),
	ROW(FROM_ORIGAMI, "friction -100 gives c < 0", 40.0f, -100.0f, 0.0f, OOR),
	ROW(FROM_ORIGAMI, "tension 1e38 (k overflows float)", 1e38f, 7.0f, 0.0f, OOR),
	ROW_NULL(FROM_ORIGAMI, 40.0f, 7.0f, 0.0f),

	// spring_params_from_per_frame_exact(stiffness_per_frame, damping_per_frame, fps)
	ROW(FROM_PER_FRAME, "stiffness NaN", NAN, 0.9f, 60.0f, NF),
	ROW(FROM_PER_FRAME, "stiffness +inf", INFINITY, 0.9f, 60.0f, NF),
	ROW(FROM_PER_FRAME, "stiffness -inf", -INFINITY, 0.9f, 60.0f, NF),
	ROW(FROM_PER_FRAME, "stiffness 0", 0.0f, 0.9f, 60.0f, OOR),
	ROW(FROM_PER_FRAME, "stiffness -0.1", -0.1f, 0.9f, 60.0f, OOR),
	ROW(FROM_PER_FRAME, "damping NaN", 0.1f, NAN, 60.0f, NF),
	ROW(FROM_PER_FRAME, "damping +inf", 0.1f, INFINITY, 60.0f, NF),
	ROW(FROM_PER_FRAME, "damping -inf", 0.1f, -INFINITY, 60.0f, NF),
	ROW(FROM_PER_FRAME, "damping 0", 0.1f, 0.0f, 60.0f, OOR),
	ROW(FROM_PER_FRAME, "damping 1.5", 0.1f, 1.5f, 60.0f, OOR),
	ROW(FROM_PER_FRAME, "damping 1.0001", 0.1f, 1.0001f, 60.0f, OOR),
	ROW(FROM_PER_FRAME, "damping -0.5", 0.1f, -0.5f, 60.0f, OOR),
	ROW(FROM_PER_FRAME, "fps NaN", 0.1f, 0.9f, NAN, NF),
	ROW(FROM_PER_FRAME, "fps +inf", 0.1f, 0.9f, INFINITY, NF),
	ROW(FROM_PER_FRAME, "fps -inf", 0.1f, 0.9f, -INFINITY, NF),
	ROW(FROM_PER_FRAME, "fps 0", 0.1f, 0.9f, 0.0f, OOR),
	ROW(FROM_PER_FRAME, "fps -60", 0.1f, 0.9f, -60.0f, OOR),
	ROW(FROM_PER_FRAME, "stiffness 4, damping 1: flips sign every frame", 4.0f, 1.0f, 60.0f, NS),
	ROW(FROM_PER_FRAME, "stiffness 10, damping 0.5: flips sign every frame", 10.0f, 0.5f, 60.0f, NS),
	ROW_NULL(FROM_PER_FRAME, 0.1f, 0.9f, 60.0f),
};

#define CORPUS_ROWS ((int)(sizeof corpus / sizeof corpus[0]))

// Every parameterisation accepts its baseline, and the result validates.
static int test_params_valid_baselines(void)
{
	for (int f = 0; f < FROM_COUNT; f++) {
		spring_params out;
		memset(&out, SENTINEL, sizeof out);
		spring_result r = call_from((from_fn)f, from_valid[f], &out);
		ENSURE_MSG(r == SPRING_OK, "%s baseline: %s", from_fn_names[f], spring_result_string(r));
		ENSURE_MSG(spring_params_validate(out) == SPRING_OK, "%s baseline output invalid", from_fn_names[f]);
	}
	return 0;
}

static int test_params_corpus(void)
{
	int failures = 0;
	int null_rows[FROM_COUNT] = {0};
	int rows_per_fn[FROM_COUNT] = {0};
	ENSURE(CORPUS_ROWS >= 60);
	for (int i = 0; i < CORPUS_ROWS; i++) {
		const corpus_row *row = &corpus[i];
		spring_params out, before;
		memset(&out, SENTINEL, sizeof out);
		memcpy(&before, &out, sizeof out);
		spring_result r = call_from(row->fn, row->a, row->null_out ? NULL : &out);
		rows_per_fn[row->fn]++;
		null_rows[row->fn] += row->null_out;
		if (r != row->expect) {
			fprintf(stderr, "  corpus row %d %s: %s (%g, %g, %g): expected %s, got %s\n", i, from_fn_names[row->fn], row->name,
			        (double)row->a[0], (double)row->a[1], (double)row->a[2], spring_result_string(row->expect),
			        spring_result_string(r));
			failures++;
		} else if (memcmp(&out, &before, sizeof out) != 0) {
			fprintf(stderr, "  corpus row %d %s: %s: output written on error\n", i, from_fn_names[row->fn], row->name);
			failures++;
		}
	}
	for (int f = 0; f < FROM_COUNT; f++) {
		ENSURE_MSG(null_rows[f] >= 1 && rows_per_fn[f] >= 5, "%s under-covered", from_fn_names[f]);
	}
	ENSURE_MSG(failures == 0, "%d of %d corpus rows failed", failures, CORPUS_ROWS);
	return 0;
}

// =============================================================================================
// Shared fixtures for the stepping, evaluation and query tests

typedef struct bad_params_case {
	const char *name;
	spring_params p;
	spring_result expect;
} bad_params_case;

static const bad_params_case bad_params[] = {
	{"stiffness NaN", {NAN, 10.0f, 1.0f}, NF},        {"stiffness +inf", {INFINITY, 10.0f, 1.0f}, NF},
	{"stiffness -inf", {-INFINITY, 10.0f, 1.0f}, NF}, {"damping NaN", {100.0f, NAN, 1.0f}, NF},
	{"damping +inf", {100.0f, INFINITY, 1.0f}, NF},   {"mass NaN", {100.0f, 10.0f, NAN}, NF},
	{"mass +inf", {100.0f, 10.0f, INFINITY}, NF},     {"mass -inf", {100.0f, 10.0f, -INFINITY}, NF},
	{"stiffness 0", {0.0f, 10.0f, 1.0f}, OOR},        {"stiffness -0", {-0.0f, 10.0f, 1.0f}, OOR},
	{"stiffness -1", {-1.0f, 10.0f, 1.0f}, OOR},      {"damping -1", {100.0f, -1.0f, 1.0f}, OOR},
	{"damping -1e-30", {100.0f, -1e-30f, 1.0f}, OOR}, {"mass 0", {100.0f, 10.0f, 0.0f}, OOR},
	{"mass -1", {100.0f, 10.0f, -1.0f}, OOR},         {"k/m overflows", {1e38f, 0.0f, 1e-38f}, OOR},
	{"c/m overflows", {1.0f, 1e38f, 1e-38f}, OOR},    {"k/m below FLT_MIN", {1e-39f, 0.0f, 1.0f}, OOR},
};
#define BAD_PARAMS_COUNT ((int)(sizeof bad_params / sizeof bad_params[0]))

typedef struct bad_time_case {
	const char *name;
	float t;
	spring_result expect;
} bad_time_case;

static const bad_time_case bad_times[] = {
	{"dt NaN", NAN, NF},
	{"dt +inf", INFINITY, NF},
	{"dt -inf", -INFINITY, NF},
	{"dt -1", -1.0f, OOR},
	{"dt -1e-30", -1e-30f, OOR},
	{"dt -FLT_MAX", -FLT_MAX, OOR},
	{"dt -FLT_TRUE_MIN", -FLT_TRUE_MIN, OOR},
};
#define BAD_TIMES_COUNT ((int)(sizeof bad_times / sizeof bad_times[0]))

static const float non_finite_values[3] = {NAN, INFINITY, -INFINITY};

static const spring_params good_p = {100.0f, 10.0f, 1.0f};
static const float good_dt = 1.0f / 60.0f;

// One state of any dimension: f[0..dim) is x, f[dim..2 dim) is v.
typedef union state_buf {
	spring_state s1;
	spring_state_vec2 s2;
	spring_state_vec3 s3;
	float f[6];
} state_buf;

_Static_assert(sizeof(spring_state) == 2 * sizeof(float), "spring_state layout");
_Static_assert(sizeof(spring_state_vec2) == 4 * sizeof(float), "spring_state_vec2 layout");
_Static_assert(sizeof(spring_state_vec3) == 6 * sizeof(float), "spring_state_vec3 layout");

static void fill_state(state_buf *s, int dim)
{
	memset(s, SENTINEL, sizeof *s);
	for (int i = 0; i < dim; i++) {
		s->f[i] = 0.5f - 0.375f * (float)i;
		s->f[dim + i] = 1.0f - 2.25f * (float)i;
	}
}

static void fill_target(float *t)
{
	t[0] = 0.25f;
	t[1] = 0.75f;
	t[2] = -0.5f;
}

static spring_vec2 v2(const float *t)
{
	return spring_vec2_make(t[0], t[1]);
}

static spring_vec3 v3(const float *t)
{
	return spring_vec3_make(t[0], t[1], t[2]);
}

typedef spring_result step_wrap_fn(spring_params p, state_buf *s, const float *target, float dt);

static spring_result w_exact(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_exact(p, s ? &s->s1 : NULL, t[0], dt);
}
static spring_result w_exact_vec2(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_exact_vec2(p, s ? &s->s2 : NULL, v2(t), dt);
}
static spring_result w_exact_vec3(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_exact_vec3(p, s ? &s->s3 : NULL, v3(t), dt);
}
static spring_result w_exact_angle(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_exact_angle(p, s ? &s->s1 : NULL, t[0], dt);
}
static spring_result w_semi(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_semi_implicit(p, s ? &s->s1 : NULL, t[0], dt);
}
static spring_result w_semi_vec2(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_semi_implicit_vec2(p, s ? &s->s2 : NULL, v2(t), dt);
}
static spring_result w_semi_vec3(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_semi_implicit_vec3(p, s ? &s->s3 : NULL, v3(t), dt);
}
static spring_result w_semi_angle(spring_params p, state_buf *s, const float *t, float dt)
{
	return spring_step_semi_implicit_angle(p, s ? &s->s1 : NULL, t[0], dt);
}

typedef struct step_kind {
	const char *name;
	int dim;
	int angle;
	int semi;
	step_wrap_fn *fn;
} step_kind;

static const step_kind step_kinds[] = {
	{"spring_step_exact", 1, 0, 0, w_exact},
	{"spring_step_exact_vec2", 2, 0, 0, w_exact_vec2},
	{"spring_step_exact_vec3", 3, 0, 0, w_exact_vec3},
	{"spring_step_exact_angle", 1, 1, 0, w_exact_angle},
	{"spring_step_semi_implicit", 1, 0, 1, w_semi},
	{"spring_step_semi_implicit_vec2", 2, 0, 1, w_semi_vec2},
	{"spring_step_semi_implicit_vec3", 3, 0, 1, w_semi_vec3},
	{"spring_step_semi_implicit_angle", 1, 1, 1, w_semi_angle},
};
#define STEP_KINDS ((int)(sizeof step_kinds / sizeof step_kinds[0]))

// Calls one step function expecting `expect` and an untouched state (or OK and a finite state).
static int check_step(const step_kind *k, spring_params p, state_buf *s, const float *target, float dt, spring_result expect,
                      const char *what)
{
	state_buf before;
	if (s) {
		memcpy(&before, s, sizeof before);
	}
	spring_result r = k->fn(p, s, target, dt);
	ENSURE_MSG(r == expect, "%s: %s: expected %s, got %s", k->name, what, spring_result_string(expect), spring_result_string(r));
	if (s && r != SPRING_OK) {
		ENSURE_MSG(memcmp(&before, s, sizeof before) == 0, "%s: %s: state written on error", k->name, what);
	}
	if (s && r == SPRING_OK) {
		ENSURE_MSG(all_finite(s->f, 2 * k->dim), "%s: %s: non-finite state after OK", k->name, what);
	}
	return 0;
}

// =============================================================================================
// 2. Stepping functions

static int test_step_bad_input(void)
{
	char what[128];
	for (int ki = 0; ki < STEP_KINDS; ki++) {
		const step_kind *k = &step_kinds[ki];
		state_buf s;
		float target[3];
		fill_target(target);

		// Sanity: the unfaulted call succeeds.
		fill_state(&s, k->dim);
		if (check_step(k, good_p, &s, target, good_dt, SPRING_OK, "baseline")) {
			return 1;
		}

		for (int i = 0; i < BAD_PARAMS_COUNT; i++) {
			fill_state(&s, k->dim);
			snprintf(what, sizeof what, "params %s", bad_params[i].name);
			if (check_step(k, bad_params[i].p, &s, target, good_dt, bad_params[i].expect, what)) {
				return 1;
			}
		}
		for (int i = 0; i < BAD_TIMES_COUNT; i++) {
			fill_state(&s, k->dim);
			if (check_step(k, good_p, &s, target, bad_times[i].t, bad_times[i].expect, bad_times[i].name)) {
				return 1;
			}
		}
		for (int c = 0; c < k->dim; c++) {
			for (int j = 0; j < 3; j++) {
				fill_state(&s, k->dim);
				fill_target(target);
				target[c] = non_finite_values[j];
				snprintf(what, sizeof what, "target[%d] = %g", c, (double)non_finite_values[j]);
				if (check_step(k, good_p, &s, target, good_dt, NF, what)) {
					return 1;
				}
			}
		}
		fill_target(target);
		for (int c = 0; c < 2 * k->dim; c++) {
			for (int j = 0; j < 3; j++) {
				fill_state(&s, k->dim);
				s.f[c] = non_finite_values[j];
				snprintf(what, sizeof what, "state %s[%d] = %g", c < k->dim ? "x" : "v", c % k->dim,
				         (double)non_finite_values[j]);
				if (check_step(k, good_p, &s, target, good_dt, NF, what)) {
					return 1;
				}
			}
		}
		if (check_step(k, good_p, NULL, target, good_dt, IA, "NULL state")) {
			return 1;
		}
		if (check_step(k, bad_params[0].p, NULL, target, NAN, IA, "NULL state with bad params and dt")) {
			return 1;
		}
	}
	return 0;
}

static int test_stepper_init_bad_input(void)
{
	spring_stepper st, before;
	memset(&st, SENTINEL, sizeof st);
	memcpy(&before, &st, sizeof st);
	ENSURE(spring_stepper_init(NULL, good_p, good_dt) == IA);
	ENSURE(spring_stepper_init(NULL, bad_params[0].p, NAN) == IA);
	for (int i = 0; i < BAD_PARAMS_COUNT; i++) {
		spring_result r = spring_stepper_init(&st, bad_params[i].p, good_dt);
		ENSURE_MSG(r == bad_params[i].expect, "params %s: got %s", bad_params[i].name, spring_result_string(r));
		ENSURE_MSG(memcmp(&st, &before, sizeof st) == 0, "params %s: stepper written", bad_params[i].name);
	}
	for (int i = 0; i < BAD_TIMES_COUNT; i++) {
		spring_result r = spring_stepper_init(&st, good_p, bad_times[i].t);
		ENSURE_MSG(r == bad_times[i].expect, "%s: got %s", bad_times[i].name, spring_result_string(r));
		ENSURE_MSG(memcmp(&st, &before, sizeof st) == 0, "%s: stepper written", bad_times[i].name);
	}
	// Enormous steps are valid and finite; a damped spring's transition decays to exactly 0.
	const float huge[] = {1e30f, FLT_MAX};
	for (int i = 0; i < 2; i++) {
		ENSURE(spring_stepper_init(&st, good_p, huge[i]) == SPRING_OK);
		ENSURE(st.pp == 0.0f && st.pv == 0.0f && st.vp == 0.0f && st.vv == 0.0f);
		spring_params undamped = {100.0f, 0.0f, 1.0f};
		ENSURE(spring_stepper_init(&st, undamped, huge[i]) == SPRING_OK);
		ENSURE(isfinite(st.pp) && isfinite(st.pv) && isfinite(st.vp) && isfinite(st.vv));
	}
	return 0;
}

static int test_semi_implicit_unstable(void)
{
	const spring_params cases[] = {
		{100.0f, 0.0f, 1.0f},  // omega 10: unstable from dt = 0.2
		{1.0f, 100.0f, 1.0f},  // heavy damping: unstable from 2 g dt + w2 dt^2 >= 4
		{100.0f, 20.0f, 1.0f}, // critically damped
		{1e6f, 10.0f, 0.01f},  // stiff
	};
	for (int ci = 0; ci < 4; ci++) {
		spring_params p = cases[ci];
		int saw_stable = 0, saw_unstable = 0;
		for (int di = 0; di <= 200; di++) {
			float dt = di == 200 ? 1e30f : (float)di * 0.005f;
			int stable = spring_semi_implicit_is_stable(p, dt);
			saw_stable |= stable;
			saw_unstable |= !stable;
			for (int ki = 0; ki < STEP_KINDS; ki++) {
				const step_kind *k = &step_kinds[ki];
				if (!k->semi) {
					continue;
				}
				state_buf s;
				float target[3];
				fill_state(&s, k->dim);
				fill_target(target);
				char what[96];
				snprintf(what, sizeof what, "params %d dt %g", ci, (double)dt);
				if (check_step(k, p, &s, target, dt, stable ? SPRING_OK : SPRING_ERROR_UNSTABLE, what)) {
					return 1;
				}
			}
		}
		ENSURE_MSG(saw_stable && saw_unstable, "case %d should cross the stability boundary", ci);
	}
	// Explicit points on each side of the boundary for omega = 10, undamped: (omega dt)^2 < 4.
	spring_params p = cases[0];
	ENSURE(spring_semi_implicit_is_stable(p, 0.19f));
	ENSURE(!spring_semi_implicit_is_stable(p, 0.25f));
	spring_state s = {1.0f, 0.0f}, before = s;
	ENSURE(spring_step_semi_implicit(p, &s, 0.0f, 0.25f) == SPRING_ERROR_UNSTABLE);
	ENSURE(memcmp(&s, &before, sizeof s) == 0);
	// Invalid input is never "stable".
	for (int i = 0; i < BAD_PARAMS_COUNT; i++) {
		ENSURE_MSG(!spring_semi_implicit_is_stable(bad_params[i].p, good_dt), "%s", bad_params[i].name);
	}
	for (int i = 0; i < BAD_TIMES_COUNT; i++) {
		ENSURE_MSG(!spring_semi_implicit_is_stable(good_p, bad_times[i].t), "%s", bad_times[i].name);
	}
	return 0;
}

static int test_step_enormous_dt(void)
{
	const spring_params damped[] = {
		{100.0f, 20.0f, 1.0f}, // critical
		{100.0f, 5.0f, 1.0f},  // under
		{100.0f, 50.0f, 1.0f}, // over
		{1.0f, 1e-3f, 1.0f},   // lightly damped
		{1e8f, 1e6f, 1e-4f},   {1e-6f, 1e-6f, 1e4f},
	};
	const float huge[] = {1e30f, FLT_MAX};
	for (int pi = 0; pi < 6; pi++) {
		for (int hi = 0; hi < 2; hi++) {
			spring_params p = damped[pi];
			float dt = huge[hi];
			spring_state s = {1234.5f, -987.25f};
			ENSURE_MSG(spring_step_exact(p, &s, -3.5f, dt) == SPRING_OK, "p%d dt %g", pi, (double)dt);
			ENSURE_MSG(s.x == -3.5f && isfinite(s.v) && fabsf(s.v) <= 1e-30f, "p%d dt %g: x %g v %g", pi, (double)dt, (double)s.x,
			           (double)s.v);

			spring_state_vec2 s2 = {{1.0f, -2.0f}, {300.0f, -400.0f}};
			ENSURE(spring_step_exact_vec2(p, &s2, spring_vec2_make(7.0f, -8.0f), dt) == SPRING_OK);
			ENSURE(s2.x.x == 7.0f && s2.x.y == -8.0f);
			ENSURE(fabsf(s2.v.x) <= 1e-30f && fabsf(s2.v.y) <= 1e-30f);

			spring_state_vec3 s3 = {{1.0f, -2.0f, 3.0f}, {300.0f, -400.0f, 5e5f}};
			ENSURE(spring_step_exact_vec3(p, &s3, spring_vec3_make(7.0f, -8.0f, 9.0f), dt) == SPRING_OK);
			ENSURE(s3.x.x == 7.0f && s3.x.y == -8.0f && s3.x.z == 9.0f);
			ENSURE(fabsf(s3.v.x) <= 1e-30f && fabsf(s3.v.y) <= 1e-30f && fabsf(s3.v.z) <= 1e-30f);

			spring_state sa = {3.0f, 40.0f};
			ENSURE(spring_step_exact_angle(p, &sa, -3.0f, dt) == SPRING_OK);
			ENSURE(isfinite(sa.x) && isfinite(sa.v) && fabsf(sa.v) <= 1e-30f);
			ENSURE_NEAR(spring_angle_delta(sa.x, -3.0f), 0.0, 1e-6);

			spring_state e = spring_evaluate(p, (spring_state){1234.5f, -987.25f}, -3.5f, dt);
			ENSURE(e.x == -3.5f && fabsf(e.v) <= 1e-30f);

			// Semi-implicit refuses such a step rather than exploding.
			spring_state si = {1.0f, 2.0f}, si0 = si;
			ENSURE(spring_step_semi_implicit(p, &si, 0.0f, dt) == SPRING_ERROR_UNSTABLE);
			ENSURE(memcmp(&si, &si0, sizeof si) == 0);
		}
	}
	// Undamped: no decay, but the result is valid and finite, within the energy bound.
	spring_params undamped = {100.0f, 0.0f, 1.0f};
	for (int hi = 0; hi < 2; hi++) {
		spring_state s = {2.0f, 10.0f};
		ENSURE(spring_step_exact(undamped, &s, 1.0f, huge[hi]) == SPRING_OK);
		ENSURE(isfinite(s.x) && isfinite(s.v));
		ENSURE(fabsf(s.x - 1.0f) <= 1.5f && fabsf(s.v) <= 15.0f); // amplitude sqrt(1 + 1) = 1.414
		spring_state sa = {2.0f, 10.0f};
		ENSURE(spring_step_exact_angle(undamped, &sa, 1.0f, huge[hi]) == SPRING_OK);
		ENSURE(isfinite(sa.x) && isfinite(sa.v) && fabsf(sa.x) <= (float)SPRING_PI);
	}
	return 0;
}

static int test_step_overflow(void)
{
	// k 1e30, m 1: omega 1e15. A 1e30 displacement gives |v| up to 1e45 a quarter period later.
	spring_params stiff = {1e30f, 0.0f, 1.0f};
	float dt = 1.5e-15f;
	{
		spring_state s = {1e30f, 0.0f}, before = s;
		ENSURE(spring_step_exact(stiff, &s, 0.0f, dt) == OOR);
		ENSURE(memcmp(&s, &before, sizeof s) == 0);
		spring_state e = spring_evaluate(stiff, before, 0.0f, dt);
		ENSURE(memcmp(&e, &before, sizeof e) == 0);
	}
	{
		// Only the last component overflows: nothing may be written, not even the first ones.
		spring_state_vec2 s = {{1.0f, 1e30f}, {0.0f, 0.0f}}, before = s;
		ENSURE(spring_step_exact_vec2(stiff, &s, spring_vec2_make(0.0f, 0.0f), dt) == OOR);
		ENSURE(memcmp(&s, &before, sizeof s) == 0);
		spring_state_vec2 e = spring_evaluate_vec2(stiff, before, spring_vec2_make(0.0f, 0.0f), dt);
		ENSURE(memcmp(&e, &before, sizeof e) == 0);
	}
	{
		spring_state_vec3 s = {{1.0f, 2.0f, -1e30f}, {0.0f, 0.0f, 0.0f}}, before = s;
		ENSURE(spring_step_exact_vec3(stiff, &s, spring_vec3_make(0.0f, 0.0f, 0.0f), dt) == OOR);
		ENSURE(memcmp(&s, &before, sizeof s) == 0);
		spring_state_vec3 e = spring_evaluate_vec3(stiff, before, spring_vec3_make(0.0f, 0.0f, 0.0f), dt);
		ENSURE(memcmp(&e, &before, sizeof e) == 0);
	}
	{
		// Position overflow: half a period of a unit spring from FLT_MAX around a -FLT_MAX target.
		spring_params unit = {1.0f, 0.0f, 1.0f};
		spring_state s = {FLT_MAX, 0.0f}, before = s;
		ENSURE(spring_step_exact(unit, &s, -FLT_MAX, (float)SPRING_PI) == OOR);
		ENSURE(memcmp(&s, &before, sizeof s) == 0);
		spring_stepper st;
		ENSURE(spring_stepper_init(&st, unit, (float)SPRING_PI) == SPRING_OK);
	}
	{
		// Semi-implicit: a stable step whose float acceleration overflows.
		spring_state s = {1e30f, 0.0f}, before = s;
		ENSURE(spring_semi_implicit_is_stable(stiff, 1e-15f));
		ENSURE(spring_step_semi_implicit(stiff, &s, 0.0f, 1e-15f) == OOR);
		ENSURE(memcmp(&s, &before, sizeof s) == 0);
		spring_state_vec3 s3 = {{0.0f, 0.0f, 1e30f}, {0.0f, 0.0f, 0.0f}}, b3 = s3;
		ENSURE(spring_step_semi_implicit_vec3(stiff, &s3, spring_vec3_make(0.0f, 0.0f, 0.0f), 1e-15f) == OOR);
		ENSURE(memcmp(&s3, &b3, sizeof s3) == 0);
	}
	{
		// Angle with an astronomically long unwrapped path: whatever the outcome, no inf/NaN and
		// the state stays on (-pi, pi] (or is untouched on error).
		spring_params soft = {1.2e-38f, 0.0f, 1.0f};
		spring_state s = {0.5f, 1e30f}, before = s;
		spring_result r = spring_step_exact_angle(soft, &s, 0.5f, 1e19f);
		ENSURE(r == SPRING_OK || r == OOR);
		if (r == SPRING_OK) {
			ENSURE(isfinite(s.x) && isfinite(s.v) && fabsf(s.x) <= (float)SPRING_PI);
		} else {
			ENSURE(memcmp(&s, &before, sizeof s) == 0);
		}
	}
	return 0;
}

// =============================================================================================
// 3. Closed form with invalid input returns start unchanged

typedef void eval_wrap_fn(spring_params p, const state_buf *start, const float *target, float t, state_buf *out);

static void e_scalar(spring_params p, const state_buf *start, const float *t, float time, state_buf *out)
{
	out->s1 = spring_evaluate(p, start->s1, t[0], time);
}
static void e_vec2(spring_params p, const state_buf *start, const float *t, float time, state_buf *out)
{
	out->s2 = spring_evaluate_vec2(p, start->s2, v2(t), time);
}
static void e_vec3(spring_params p, const state_buf *start, const float *t, float time, state_buf *out)
{
	out->s3 = spring_evaluate_vec3(p, start->s3, v3(t), time);
}
static void e_angle(spring_params p, const state_buf *start, const float *t, float time, state_buf *out)
{
	out->s1 = spring_evaluate_angle(p, start->s1, t[0], time);
}

static const struct {
	const char *name;
	int dim;
	eval_wrap_fn *fn;
} eval_kinds[] = {
	{"spring_evaluate", 1, e_scalar},
	{"spring_evaluate_vec2", 2, e_vec2},
	{"spring_evaluate_vec3", 3, e_vec3},
	{"spring_evaluate_angle", 1, e_angle},
};

static int check_eval_unchanged(int ki, spring_params p, const state_buf *start, const float *target, float t, const char *what)
{
	state_buf out;
	memset(&out, 0, sizeof out);
	eval_kinds[ki].fn(p, start, target, t, &out);
	ENSURE_MSG(memcmp(out.f, start->f, 2 * (size_t)eval_kinds[ki].dim * sizeof(float)) == 0, "%s: %s: did not return start",
	           eval_kinds[ki].name, what);
	return 0;
}

// Issue 10 bug 4: semi-implicit stepping works on k/m and c/m, so a valid spring whose k (x - target)
// overflows a float still steps. k = c = m = FLT_MAX is the spring k = c = m = 1, bit for bit, in
// every variant (before, any gap beyond 1 was refused as out of range).
static int test_semi_implicit_scale_free(void)
{
	const spring_params big = {FLT_MAX, FLT_MAX, FLT_MAX}, unit = {1.0f, 1.0f, 1.0f};
	uint32_t g = 0x9e3779b9u;
	for (int i = 0; i < 200; i++) {
		float dt = random_range(&g, 0.0f, 0.5f), scale = i % 2 ? 1e30f : 10.0f;
		spring_state_vec3 a = {{random_range(&g, -1.0f, 1.0f) * scale, random_range(&g, -1.0f, 1.0f) * scale,
		                        random_range(&g, -1.0f, 1.0f)},
		                       {random_range(&g, -1.0f, 1.0f) * scale, random_range(&g, -5.0f, 5.0f), 0.0f}},
						  b = a;
		spring_vec3 t = {random_range(&g, -1.0f, 1.0f) * scale, 0.0f, random_range(&g, -4.0f, 4.0f)};
		ENSURE_MSG(spring_step_semi_implicit_vec3(big, &a, t, dt) == SPRING_OK, "vec3 %d refused", i);
		ENSURE(spring_step_semi_implicit_vec3(unit, &b, t, dt) == SPRING_OK);
		ENSURE(memcmp(&a, &b, sizeof a) == 0);
		spring_state_vec2 a2 = {{a.x.x, a.x.y}, {a.v.x, a.v.y}}, b2 = a2;
		ENSURE(spring_step_semi_implicit_vec2(big, &a2, spring_vec2_make(t.x, t.y), dt) == SPRING_OK);
		ENSURE(spring_step_semi_implicit_vec2(unit, &b2, spring_vec2_make(t.x, t.y), dt) == SPRING_OK);
		ENSURE(memcmp(&a2, &b2, sizeof a2) == 0);
		spring_state a1 = {a.x.x, a.v.x}, b1 = a1, aa = {a.x.z, a.v.y}, ba = aa;
		ENSURE(spring_step_semi_implicit(big, &a1, t.x, dt) == SPRING_OK);
		ENSURE(spring_step_semi_implicit(unit, &b1, t.x, dt) == SPRING_OK);
		ENSURE(memcmp(&a1, &b1, sizeof a1) == 0);
		ENSURE(spring_step_semi_implicit_angle(big, &aa, t.z, dt) == SPRING_OK);
		ENSURE(spring_step_semi_implicit_angle(unit, &ba, t.z, dt) == SPRING_OK);
		ENSURE(memcmp(&aa, &ba, sizeof aa) == 0);
	}
	// The case, and a result truly beyond float range still refused, all or nothing.
	spring_state s = {0.0f, 0.0f};
	ENSURE(spring_step_semi_implicit((spring_params){3.4e38f, 3.4e38f, 3.4e38f}, &s, 10.0f, 1.0f / 60.0f) == SPRING_OK);
	ENSURE(s.x > 0.0f && s.x < 10.0f && s.v > 0.0f);
	spring_state_vec2 s2 = {{1.0f, 3e38f}, {0.0f, 3e38f}}, before = s2;
	ENSURE(spring_step_semi_implicit_vec2(big, &s2, spring_vec2_make(0.0f, 3e38f), 0.5f) == OOR); // x: 3.75e38
	ENSURE(memcmp(&s2, &before, sizeof s2) == 0);
	return 0;
}

// Issue 10 bug 5: the stepper never stores an infinity or a NaN. A gap beyond float range, a
// non-finite state or target, or coefficients that overflow are refused, all components untouched.
static int test_stepper_step_range(void)
{
	spring_stepper st;
	ENSURE(spring_stepper_init(&st, (spring_params){1.0f, 0.5f, 1.0f}, 1.0f / 60.0f) == SPRING_OK);
	const spring_stepper growing = {1.0f, 2.0f, 0.0f, 2.0f}; // v' = 2 v: not one init makes
	spring_state ok = {1.0f, 2.0f};
	ENSURE(spring_stepper_step(&st, &ok, 0.0f) == SPRING_OK && ok.x != 1.0f);
	ENSURE(spring_stepper_step(NULL, &ok, 0.0f) == IA && spring_stepper_step(&st, NULL, 0.0f) == IA);
	ENSURE(spring_stepper_step_vec2(&st, NULL, spring_vec2_make(0.0f, 0.0f)) == IA);
	ENSURE(spring_stepper_step_vec3(NULL, NULL, spring_vec3_make(0.0f, 0.0f, 0.0f)) == IA);
	ENSURE(spring_stepper_step_angle(&st, NULL, 0.0f) == IA);
	const struct {
		const char *name;
		const spring_stepper *st;
		float x, v, target;
		spring_result expect;
	} cases[] = {
		{"gap beyond float range", &st, 3e38f, 0.0f, -3e38f, OOR},
		{"velocity overflow", &growing, 0.0f, 3e38f, 0.0f, OOR},
		{"x NaN", &st, NAN, 0.0f, 0.0f, NF},
		{"v +inf", &st, 0.0f, INFINITY, 0.0f, NF},
		{"target -inf", &st, 0.0f, 0.0f, -INFINITY, NF},
	};
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
		spring_state s1 = {cases[i].x, cases[i].v}, b1 = s1;
		spring_result r = spring_stepper_step(cases[i].st, &s1, cases[i].target);
		ENSURE_MSG(r == cases[i].expect && memcmp(&s1, &b1, sizeof s1) == 0, "scalar %s: %s", cases[i].name,
		           spring_result_string(r));
		// The bad component last: the good ones before it must not be written either.
		spring_state_vec2 s2 = {{1.0f, cases[i].x}, {1.0f, cases[i].v}}, b2 = s2;
		r = spring_stepper_step_vec2(cases[i].st, &s2, spring_vec2_make(0.0f, cases[i].target));
		ENSURE_MSG(r == cases[i].expect && memcmp(&s2, &b2, sizeof s2) == 0, "vec2 %s: %s", cases[i].name,
		           spring_result_string(r));
		spring_state_vec3 s3 = {{1.0f, 2.0f, cases[i].x}, {1.0f, 2.0f, cases[i].v}}, b3 = s3;
		r = spring_stepper_step_vec3(cases[i].st, &s3, spring_vec3_make(0.0f, 0.0f, cases[i].target));
		ENSURE_MSG(r == cases[i].expect && memcmp(&s3, &b3, sizeof s3) == 0, "vec3 %s: %s", cases[i].name,
		           spring_result_string(r));
	}
	// Angles: the gap is always on (-pi, pi], but a NaN would fold to 0 and a velocity can overflow.
	const struct {
		float x, v, target;
		const spring_stepper *st;
		spring_result expect;
	} angles[] = {
		{NAN, 0.0f, 0.0f, &st, NF},
		{0.0f, 0.0f, NAN, &st, NF},
		{0.0f, -INFINITY, 0.0f, &st, NF},
		{0.5f, 3e38f, 0.0f, &growing, OOR},
		{3e38f, 0.0f, -3e38f, &st, SPRING_OK},
	};
	for (int i = 0; i < (int)(sizeof angles / sizeof angles[0]); i++) {
		spring_state s = {angles[i].x, angles[i].v}, b = s;
		spring_result r = spring_stepper_step_angle(angles[i].st, &s, angles[i].target);
		ENSURE_MSG(r == angles[i].expect, "angle %d: %s", i, spring_result_string(r));
		ENSURE(r == SPRING_OK ? isfinite(s.x) && isfinite(s.v) : memcmp(&s, &b, sizeof s) == 0);
	}
	return 0;
}

static int test_evaluate_bad_input(void)
{
	char what[128];
	for (int ki = 0; ki < 4; ki++) {
		int dim = eval_kinds[ki].dim;
		state_buf start;
		float target[3];
		fill_target(target);
		fill_state(&start, dim);
		for (int i = 0; i < BAD_PARAMS_COUNT; i++) {
			snprintf(what, sizeof what, "params %s", bad_params[i].name);
			if (check_eval_unchanged(ki, bad_params[i].p, &start, target, 0.5f, what)) {
				return 1;
			}
		}
		for (int i = 0; i < BAD_TIMES_COUNT; i++) {
			if (check_eval_unchanged(ki, good_p, &start, target, bad_times[i].t, bad_times[i].name)) {
				return 1;
			}
		}
		for (int c = 0; c < dim; c++) {
			for (int j = 0; j < 3; j++) {
				fill_target(target);
				target[c] = non_finite_values[j];
				snprintf(what, sizeof what, "target[%d] = %g", c, (double)non_finite_values[j]);
				if (check_eval_unchanged(ki, good_p, &start, target, 0.5f, what)) {
					return 1;
				}
			}
		}
		fill_target(target);
		for (int c = 0; c < 2 * dim; c++) {
			for (int j = 0; j < 3; j++) {
				fill_state(&start, dim);
				start.f[c] = non_finite_values[j];
				snprintf(what, sizeof what, "start[%d] = %g", c, (double)non_finite_values[j]);
				if (check_eval_unchanged(ki, good_p, &start, target, 0.5f, what)) {
					return 1;
				}
			}
		}
		// t = 0 is valid and is the identity.
		fill_state(&start, dim);
		if (check_eval_unchanged(ki, good_p, &start, target, 0.0f, "t = 0")) {
			return 1;
		}
	}
	return 0;
}

// =============================================================================================
// 4. Queries

typedef float query_fn(spring_params p);

static float q_settling_duration(spring_params p)
{
	return spring_settling_duration(p, 1.0f, 0.0f, 0.001f);
}
static float q_settling_time(spring_params p)
{
	return spring_settling_time(p, 1.0f, 0.0f, 0.001f);
}

static const struct {
	const char *name;
	query_fn *fn;
} queries[] = {
	{"spring_damping_ratio", spring_damping_ratio},
	{"spring_natural_frequency", spring_natural_frequency},
	{"spring_frequency_hz", spring_frequency_hz},
	{"spring_duration", spring_duration},
	{"spring_bounce", spring_bounce},
	{"spring_visual_duration", spring_visual_duration},
	{"spring_overshoot", spring_overshoot},
	{"spring_half_life", spring_half_life},
	{"spring_settling_duration", q_settling_duration},
	{"spring_settling_time", q_settling_time},
};
#define QUERY_COUNT ((int)(sizeof queries / sizeof queries[0]))

static int test_queries_bad_input(void)
{
	for (int i = 0; i < BAD_PARAMS_COUNT; i++) {
		for (int q = 0; q < QUERY_COUNT; q++) {
			float r = queries[q].fn(bad_params[i].p);
			ENSURE_MSG(r == 0.0f, "%s(params %s) = %g, expected 0", queries[q].name, bad_params[i].name, (double)r);
		}
		float ot, of;
		memset(&ot, SENTINEL, sizeof ot);
		memset(&of, SENTINEL, sizeof of);
		float ot0 = ot, of0 = of;
		spring_params_to_origami(bad_params[i].p, &ot, &of);
		ENSURE_MSG(memcmp(&ot, &ot0, sizeof ot) == 0 && memcmp(&of, &of0, sizeof of) == 0,
		           "spring_params_to_origami(%s) wrote its outputs", bad_params[i].name);
	}
	spring_params_to_origami(good_p, NULL, NULL); // must not crash

	// Settling functions: non-finite distance / velocity / epsilon, epsilon <= 0.
	const struct {
		const char *name;
		float d, v, eps;
	} bad_settle[] = {
		{"distance NaN", NAN, 0.0f, 0.001f},        {"distance +inf", INFINITY, 0.0f, 0.001f},
		{"distance -inf", -INFINITY, 0.0f, 0.001f}, {"velocity NaN", 1.0f, NAN, 0.001f},
		{"velocity +inf", 1.0f, INFINITY, 0.001f},  {"velocity -inf", 1.0f, -INFINITY, 0.001f},
		{"epsilon NaN", 1.0f, 0.0f, NAN},           {"epsilon +inf", 1.0f, 0.0f, INFINITY},
		{"epsilon -inf", 1.0f, 0.0f, -INFINITY},    {"epsilon 0", 1.0f, 0.0f, 0.0f},
		{"epsilon -0", 1.0f, 0.0f, -0.0f},          {"epsilon -0.001", 1.0f, 0.0f, -0.001f},
		{"epsilon -FLT_MAX", 1.0f, 0.0f, -FLT_MAX},
	};
	const spring_params settle_params[] = {
		{100.0f, 10.0f, 1.0f}, {100.0f, 20.0f, 1.0f}, {100.0f, 50.0f, 1.0f}, {100.0f, 0.0f, 1.0f}};
	for (int pi = 0; pi < 4; pi++) {
		for (int i = 0; i < (int)(sizeof bad_settle / sizeof bad_settle[0]); i++) {
			float a = spring_settling_duration(settle_params[pi], bad_settle[i].d, bad_settle[i].v, bad_settle[i].eps);
			float b = spring_settling_time(settle_params[pi], bad_settle[i].d, bad_settle[i].v, bad_settle[i].eps);
			ENSURE_MSG(a == 0.0f, "settling_duration(p%d, %s) = %g", pi, bad_settle[i].name, (double)a);
			ENSURE_MSG(b == 0.0f, "settling_time(p%d, %s) = %g", pi, bad_settle[i].name, (double)b);
		}
	}
	return 0;
}

// Valid but extreme springs: every query is finite (beyond float range it saturates at FLT_MAX);
// only the settling queries of an undamped spring may be +inf, as documented.
static int test_queries_extreme_valid(void)
{
	const spring_params extremes[] = {
		{FLT_MAX, 0.0f, 1.0f},
		{FLT_MAX, FLT_MAX, 1.0f},
		{1.0f, 1e30f, 1.0f},
		{1.2e-38f, 0.0f, 1.0f},
		{1.2e-38f, 1e-30f, 1.0f},
		{1e20f, 1e20f, 1e10f},
		{1e-20f, 1e-20f, 1e-10f},
		{1.0f, 2.0f, 1.0f},
		{1e-6f, 1e6f, 1e-4f},
		{1e8f, 0.0f, 1e4f},
		{1e8f, 1e-6f, 1e4f},
		{3.0f, 1e-3f, 1.0f},
		// zeta = 1.6e57 (k/m = FLT_MIN, c/m = FLT_MAX): ratio, visual duration and half-life beyond float range
		{FLT_MIN, FLT_MAX, 1.0f},
		{FLT_MAX, FLT_MAX, FLT_MAX},
		{1.0f, FLT_TRUE_MIN, 1.0f},
		{FLT_MIN, FLT_TRUE_MIN, 1.0f},
	};
	const float dist[] = {1.0f, -1e6f, 0.0f, FLT_MAX, 1e-30f};
	const float vel[] = {0.0f, 1e6f, -FLT_MAX, 3.0f};
	const float eps[] = {0.001f, 1e-30f, FLT_MAX, 0.5f};
	for (int pi = 0; pi < (int)(sizeof extremes / sizeof extremes[0]); pi++) {
		spring_params p = extremes[pi];
		ENSURE_MSG(spring_params_validate(p) == SPRING_OK, "extreme %d invalid", pi);
		for (int q = 0; q < QUERY_COUNT; q++) {
			float r = queries[q].fn(p);
			int settling = q >= QUERY_COUNT - 2;
			ENSURE_MSG(isfinite(r) || (settling && p.damping == 0.0f && r == INFINITY), "%s(extreme %d) = %g", queries[q].name,
			           pi, (double)r);
			ENSURE_MSG(r >= 0.0f || q == 4, "%s(extreme %d) = %g < 0", queries[q].name, pi, (double)r);
		}
		float ot = 0.0f, of = 0.0f;
		spring_params_to_origami(p, &ot, &of);
		ENSURE(isfinite(ot) && isfinite(of));
		for (int di = 0; di < 5; di++) {
			for (int vi = 0; vi < 4; vi++) {
				for (int ei = 0; ei < 4; ei++) {
					float a = spring_settling_duration(p, dist[di], vel[vi], eps[ei]);
					float b = spring_settling_time(p, dist[di], vel[vi], eps[ei]);
					int undamped = p.damping == 0.0f;
					ENSURE_MSG((isfinite(a) || (undamped && a == INFINITY)) && (isfinite(b) || (undamped && b == INFINITY)) &&
					               a >= 0.0f && b >= 0.0f,
					           "settling(extreme %d, d %g, v %g, eps %g) = %g, %g", pi, (double)dist[di], (double)vel[vi],
					           (double)eps[ei], (double)a, (double)b);
				}
			}
		}
	}
	return 0;
}

// Documented: the settling time is the last time |x(t) - target| = epsilon; for a lightly damped
// spring from rest with a unit move that is within a half period of ln(1/epsilon) / lambda.
// (Checked in order of increasing severity: the smallest damping ratios must also terminate.)
static int test_settling_time_light_damping(void)
{
	const float dampings[] = {1e-6f, 1e-9f, 1e-11f, 1e-13f, 1e-15f, 1e-17f, 1e-20f};
	for (int i = 0; i < (int)(sizeof dampings / sizeof dampings[0]); i++) {
		spring_params p = {1.0f, dampings[i], 1.0f}; // omega_n 1, lambda = c / 2
		double lambda = 0.5 * (double)dampings[i];
		double expect = log(1000.0) / lambda;
		float t = spring_settling_time(p, 1.0f, 0.0f, 0.001f);
		ENSURE_MSG(isfinite(t) && fabs((double)t - expect) <= 1e-3 * expect + 4.0,
		           "settling_time(k 1, c %g, m 1, d 1, v 0, eps 0.001) = %.9g, expected ~%.9g", (double)dampings[i], (double)t,
		           expect);
		float d = spring_settling_duration(p, 1.0f, 0.0f, 0.001f);
		ENSURE_MSG(isfinite(d) && fabs((double)d - expect) <= 1e-3 * expect + 4.0,
		           "settling_duration(k 1, c %g, m 1, ...) = %.9g, expected ~%.9g", (double)dampings[i], (double)d, expect);
	}
	// Damping ratios so small that the answer exceeds float range: must terminate, never NaN.
	const spring_params tiny[] = {{1.0f, 1e-45f, 1.0f}, {FLT_MAX, 1.0f, FLT_MAX}};
	for (int i = 0; i < 2; i++) {
		float t = spring_settling_time(tiny[i], 1.0f, 0.0f, 0.001f);
		ENSURE(!isnan(t) && t > 0.0f);
		float d = spring_settling_duration(tiny[i], 1.0f, 0.0f, 0.001f);
		ENSURE(!isnan(d) && d > 0.0f);
	}
	return 0;
}

// Documented: spring_half_life is the first time the gap from rest halves, for every spring.
// A heavily overdamped spring (k 1, c 1e32, m 1) creeps with rate k / c, so half life ~ ln2 c / k.
static int test_half_life_heavily_overdamped(void)
{
	const float cs[] = {1e3f, 1e10f, 1e20f, 1e28f, 1e32f, 1e36f};
	for (int i = 0; i < 6; i++) {
		spring_params p = {1.0f, cs[i], 1.0f};
		double expect = log(2.0) * (double)cs[i];
		float h = spring_half_life(p);
		ENSURE_MSG(fabs((double)h - expect) <= 1e-3 * expect, "half_life(k 1, c %g, m 1) = %g, expected %g", (double)cs[i],
		           (double)h, expect);
	}
	return 0;
}

// =============================================================================================
// 5. Clock

static int clock_has_nan(const spring_clock *c)
{
	return isnan(c->step) || isnan(c->accumulator) || isnan(c->alpha) || isnan(c->dropped) || isnan(c->frame_dt) ||
	       isnan(c->time);
}

static int test_clock_init_bad_input(void)
{
	spring_clock c, before;
	ENSURE(spring_clock_init(NULL, 0.0f, 0) == IA);
	ENSURE(spring_clock_init(NULL, NAN, -1) == IA);
	const struct {
		const char *name;
		float step;
		int max_steps;
		spring_result expect;
	} cases[] = {
		// clang-format off
		{"step NaN", NAN, 8, NF},           {"step +inf", INFINITY, 8, NF},
		{"step -inf", -INFINITY, 8, NF},    {"step -1", -1.0f, 8, OOR},
		{"step -1e-30", -1e-30f, 8, OOR},   {"step 1.0001", 1.0001f, 8, OOR},
		{"step 2", 2.0f, 8, OOR},           {"step FLT_MAX", FLT_MAX, 8, OOR},
		{"max_steps -1", 0.01f, -1, OOR},   {"max_steps 1001", 0.01f, 1001, OOR},
		{"max_steps INT_MIN", 0.01f, INT_MIN, OOR}, {"max_steps INT_MAX", 0.01f, INT_MAX, OOR},
		// clang-format on
		{"step NaN, max_steps -1", NAN, -1, NF},
	};
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
		memset(&c, SENTINEL, sizeof c);
		memcpy(&before, &c, sizeof c);
		spring_result r = spring_clock_init(&c, cases[i].step, cases[i].max_steps);
		ENSURE_MSG(r == cases[i].expect, "clock_init %s: got %s", cases[i].name, spring_result_string(r));
		ENSURE_MSG(memcmp(&c, &before, sizeof c) == 0, "clock_init %s: clock written", cases[i].name);
	}
	// The documented defaults and bounds are accepted.
	ENSURE(spring_clock_init(&c, 0.0f, 0) == SPRING_OK);
	ENSURE(c.step == 1.0f / 120.0f && c.max_steps == 8);
	ENSURE(spring_clock_init(&c, 1.0f, 1000) == SPRING_OK);
	ENSURE(spring_clock_init(&c, FLT_TRUE_MIN, 1) == SPRING_OK);
	return 0;
}

static int test_clock_advance_bad_input(void)
{
	ENSURE(spring_clock_advance(NULL, 0.016f) < 0);
	ENSURE(spring_clock_advance(NULL, NAN) < 0);
	spring_clock c, before;
	ENSURE(spring_clock_init(&c, 0.0f, 0) == SPRING_OK);
	ENSURE(spring_clock_advance(&c, 0.02f) == 2); // some non-trivial state
	const float bad[] = {NAN, INFINITY, -INFINITY, -1.0f, -1e-30f, -FLT_MAX, -FLT_TRUE_MIN};
	for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
		memcpy(&before, &c, sizeof c);
		int n = spring_clock_advance(&c, bad[i]);
		ENSURE_MSG(n < 0, "advance(%g) = %d", (double)bad[i], n);
		ENSURE_MSG(memcmp(&c, &before, sizeof c) == 0, "advance(%g) changed the clock", (double)bad[i]);
		ENSURE_MSG(n == -(int)(isfinite(bad[i]) ? OOR : NF), "advance(%g) = %d", (double)bad[i], n);
	}
	// A corrupted clock is refused without being touched.
	spring_clock broken[7];
	for (int i = 0; i < 7; i++) {
		broken[i] = c;
	}
	broken[0].step = 0.0f;
	broken[1].step = NAN;
	broken[2].max_steps = 0;
	broken[3].carried_ticks = -1;
	broken[4].carried_ticks = SPRING_CLOCK_TICKS_PER_STEP;
	broken[5].step = 1.5f;
	broken[6].max_steps = 1001;
	for (int i = 0; i < 7; i++) {
		memcpy(&before, &broken[i], sizeof before);
		int n = spring_clock_advance(&broken[i], 0.016f);
		ENSURE_MSG(n < 0, "corrupted clock %d: advance returned %d", i, n);
		ENSURE_MSG(memcmp(&broken[i], &before, sizeof before) == 0, "corrupted clock %d changed", i);
	}
	// A loop over a negative count runs nothing; substep_fraction stays in [0, 1].
	float f = spring_clock_substep_fraction(&c, 0, -3);
	ENSURE(f >= 0.0f && f <= 1.0f);
	ENSURE(spring_clock_substep_fraction(NULL, 0, 1) == 1.0f);
	return 0;
}

static int test_clock_advance_huge(void)
{
	const int maxes[] = {1, 8, 1000};
	const float steps[] = {0.0f, 1.0f / 60.0f, 1.0f, FLT_TRUE_MIN};
	const float huge[] = {1e30f, FLT_MAX};
	for (int mi = 0; mi < 3; mi++) {
		for (int si = 0; si < 4; si++) {
			for (int hi = 0; hi < 2; hi++) {
				spring_clock c;
				ENSURE(spring_clock_init(&c, steps[si], maxes[mi]) == SPRING_OK);
				for (int rep = 0; rep < 3; rep++) {
					int n = spring_clock_advance(&c, huge[hi]);
					ENSURE_MSG(n == maxes[mi], "advance(%g) with max %d step %g = %d", (double)huge[hi], maxes[mi],
					           (double)c.step, n);
					ENSURE(c.alpha >= 0.0f && c.alpha < 1.0f);
					ENSURE(c.accumulator >= 0.0f && c.accumulator < c.step);
					ENSURE_MSG(!clock_has_nan(&c), "NaN in clock after advance(%g)", (double)huge[hi]);
					ENSURE(isfinite(c.time) && c.last_steps == n && c.frame_dt == huge[hi]);
					for (int i = 0; i < n; i++) {
						float fr = spring_clock_substep_fraction(&c, i, n);
						ENSURE(fr >= 0.0f && fr <= 1.0f);
					}
					// And a normal frame afterwards still works.
					ENSURE(spring_clock_advance(&c, 0.0f) == 0);
				}
			}
		}
	}
	return 0;
}

// =============================================================================================
// 6. Follow and angles

static int float_bits_equal(float a, float b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static int test_follow_bad_input(void)
{
	const struct {
		const char *name;
		float half_life, dt;
	} bad[] = {
		{"half_life NaN", NAN, 0.1f},  {"half_life +inf", INFINITY, 0.1f},  {"half_life -inf", -INFINITY, 0.1f},
		{"half_life -1", -1.0f, 0.1f}, {"half_life -1e-30", -1e-30f, 0.1f}, {"dt NaN", 0.2f, NAN},
		{"dt +inf", 0.2f, INFINITY},   {"dt -inf", 0.2f, -INFINITY},        {"dt -1", 0.2f, -1.0f},
		{"dt -1e-30", 0.2f, -1e-30f},
	};
	const float x = 1.25f, target = -3.5f;
	for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
		float r = spring_follow(x, target, bad[i].half_life, bad[i].dt);
		ENSURE_MSG(float_bits_equal(r, x), "spring_follow(%s) = %g", bad[i].name, (double)r);
		spring_vec2 x2 = {x, -x}, r2 = spring_follow_vec2(x2, spring_vec2_make(target, 2.0f), bad[i].half_life, bad[i].dt);
		ENSURE_MSG(memcmp(&r2, &x2, sizeof r2) == 0, "spring_follow_vec2(%s) changed x", bad[i].name);
		spring_vec3 x3 = {x, -x, 0.5f},
					r3 = spring_follow_vec3(x3, spring_vec3_make(target, 2.0f, 3.0f), bad[i].half_life, bad[i].dt);
		ENSURE_MSG(memcmp(&r3, &x3, sizeof r3) == 0, "spring_follow_vec3(%s) changed x", bad[i].name);
		// Invalid input returns the angle unchanged (not even wrapped).
		float ra = spring_follow_angle(10.0f, 1.0f, bad[i].half_life, bad[i].dt);
		ENSURE_MSG(float_bits_equal(ra, 10.0f), "spring_follow_angle(%s) = %g", bad[i].name, (double)ra);
	}
	for (int j = 0; j < 3; j++) {
		float nf = non_finite_values[j];
		ENSURE(float_bits_equal(spring_follow(x, nf, 0.2f, 0.1f), x));
		ENSURE(float_bits_equal(spring_follow(nf, target, 0.2f, 0.1f), nf));
		spring_vec2 x2 = {x, -x}, r2 = spring_follow_vec2(x2, spring_vec2_make(2.0f, nf), 0.2f, 0.1f);
		ENSURE(memcmp(&r2, &x2, sizeof r2) == 0);
		spring_vec2 n2 = {nf, 1.0f}, q2 = spring_follow_vec2(n2, spring_vec2_make(2.0f, 3.0f), 0.2f, 0.1f);
		ENSURE(memcmp(&q2, &n2, sizeof q2) == 0);
		spring_vec3 x3 = {x, -x, 0.5f}, r3 = spring_follow_vec3(x3, spring_vec3_make(nf, 2.0f, 3.0f), 0.2f, 0.1f);
		ENSURE(memcmp(&r3, &x3, sizeof r3) == 0);
		spring_vec3 n3 = {1.0f, 2.0f, nf}, q3 = spring_follow_vec3(n3, spring_vec3_make(0.0f, 2.0f, 3.0f), 0.2f, 0.1f);
		ENSURE(memcmp(&q3, &n3, sizeof q3) == 0);
		ENSURE(float_bits_equal(spring_follow_angle(2.0f, nf, 0.2f, 0.1f), 2.0f));
		ENSURE(float_bits_equal(spring_follow_angle(nf, 2.0f, 0.2f, 0.1f), nf));
	}
	// Valid extremes are finite.
	ENSURE(spring_follow(x, target, 0.0f, 0.0f) == x);
	ENSURE(spring_follow(x, target, 0.0f, 1e-30f) == target);
	ENSURE(spring_follow(x, target, FLT_TRUE_MIN, FLT_MAX) == target);
	ENSURE(isfinite(spring_follow(x, target, FLT_MAX, FLT_TRUE_MIN)));
	ENSURE(isfinite(spring_follow(-FLT_MAX, FLT_MAX, 1.0f, 1.0f)));
	ENSURE(isfinite(spring_follow(-FLT_MAX, FLT_MAX, 1.0f, 1e-3f)));
	ENSURE(isfinite(spring_follow(-FLT_MAX, FLT_MAX, 1.0f, 1e3f)));
	float fa = spring_follow_angle(FLT_MAX, -FLT_MAX, 1.0f, 0.5f);
	ENSURE(isfinite(fa) && fabsf(fa) <= (float)SPRING_PI);
	return 0;
}

static int in_angle_range(float a)
{
	return isfinite(a) && a > -(float)SPRING_PI && a <= (float)SPRING_PI;
}

static int test_angle_helpers_bad_input(void)
{
	for (int j = 0; j < 3; j++) {
		float nf = non_finite_values[j];
		ENSURE(spring_angle_delta(nf, 1.0f) == 0.0f);
		ENSURE(spring_angle_delta(1.0f, nf) == 0.0f);
		ENSURE(spring_angle_delta(nf, nf) == 0.0f);
		ENSURE(spring_angle_wrap(nf) == 0.0f);
		ENSURE(in_angle_range(spring_angle_lerp(nf, 1.0f, 0.5f)));
		ENSURE(spring_angle_lerp(1.0f, nf, 0.5f) == 1.0f);
		ENSURE(spring_angle_lerp(1.0f, 2.0f, nf) == 1.0f);
		ENSURE(spring_angle_lerp(7.0f, 2.0f, nf) == spring_angle_wrap(7.0f));
	}
	const float big[] = {FLT_MAX,          -FLT_MAX,          1e30f, -1e30f, FLT_TRUE_MIN, -FLT_TRUE_MIN, 1e8f,
	                     (float)SPRING_PI, -(float)SPRING_PI, 0.0f,  -0.0f};
	for (int i = 0; i < (int)(sizeof big / sizeof big[0]); i++) {
		ENSURE_MSG(in_angle_range(spring_angle_wrap(big[i])), "wrap(%g)", (double)big[i]);
		for (int j = 0; j < (int)(sizeof big / sizeof big[0]); j++) {
			ENSURE_MSG(in_angle_range(spring_angle_delta(big[i], big[j])), "delta(%g, %g)", (double)big[i], (double)big[j]);
			ENSURE(in_angle_range(spring_angle_lerp(big[i], big[j], 0.5f)));
			ENSURE(in_angle_range(spring_angle_lerp(big[i], big[j], FLT_MAX)));
			ENSURE(in_angle_range(spring_angle_lerp(big[i], big[j], -FLT_MAX)));
		}
	}
	return 0;
}

// =============================================================================================
// 7. Rest

static int test_rest_bad_input(void)
{
	ENSURE(spring_rest(NULL, 0.0f, 1.0f, 1.0f) == 0);
	ENSURE(spring_rest_vec2(NULL, spring_vec2_make(0.0f, 0.0f), 1.0f, 1.0f) == 0);
	ENSURE(spring_rest_vec3(NULL, spring_vec3_make(0.0f, 0.0f, 0.0f), 1.0f, 1.0f) == 0);
	ENSURE(spring_rest_angle(NULL, 0.0f, 1.0f, 1.0f) == 0);
	const struct {
		const char *name;
		float delta, speed;
	} bad[] = {
		{"delta NaN", NAN, 1.0f},       {"delta +inf", INFINITY, 1.0f},  {"delta -inf", -INFINITY, 1.0f},
		{"delta -1", -1.0f, 1.0f},      {"delta -1e-30", -1e-30f, 1.0f}, {"speed NaN", 1.0f, NAN},
		{"speed +inf", 1.0f, INFINITY}, {"speed -inf", 1.0f, -INFINITY}, {"speed -1", 1.0f, -1.0f},
		{"both NaN", NAN, NAN},
	};
	// States well inside any sane threshold: a valid call would snap them.
	for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
		spring_state s = {0.5000001f, 1e-7f}, s0 = s;
		ENSURE_MSG(spring_rest(&s, 0.5f, bad[i].delta, bad[i].speed) == 0, "spring_rest(%s)", bad[i].name);
		ENSURE_MSG(memcmp(&s, &s0, sizeof s) == 0, "spring_rest(%s) changed state", bad[i].name);
		spring_state_vec2 s2 = {{1.0f, 2.0f}, {0.0f, 1e-7f}}, s20 = s2;
		ENSURE(spring_rest_vec2(&s2, spring_vec2_make(1.0f, 2.0f), bad[i].delta, bad[i].speed) == 0);
		ENSURE(memcmp(&s2, &s20, sizeof s2) == 0);
		spring_state_vec3 s3 = {{1.0f, 2.0f, 3.0f}, {0.0f, 1e-7f, 0.0f}}, s30 = s3;
		ENSURE(spring_rest_vec3(&s3, spring_vec3_make(1.0f, 2.0f, 3.0f), bad[i].delta, bad[i].speed) == 0);
		ENSURE(memcmp(&s3, &s30, sizeof s3) == 0);
		spring_state sa = {3.0f, 0.0f}, sa0 = sa;
		ENSURE(spring_rest_angle(&sa, 3.0f + 2.0f * (float)SPRING_PI, bad[i].delta, bad[i].speed) == 0);
		ENSURE(memcmp(&sa, &sa0, sizeof sa) == 0);
	}
	// Non-finite target or state: never at rest, never changed.
	for (int j = 0; j < 3; j++) {
		float nf = non_finite_values[j];
		spring_state s = {0.5f, 0.0f}, s0 = s;
		ENSURE(spring_rest(&s, nf, 1.0f, 1.0f) == 0 && memcmp(&s, &s0, sizeof s) == 0);
		ENSURE(spring_rest_angle(&s, nf, 1.0f, 1.0f) == 0 && memcmp(&s, &s0, sizeof s) == 0);
		spring_state n = {nf, 0.0f}, n0 = n;
		ENSURE(spring_rest(&n, 0.5f, 1.0f, 1.0f) == 0 && memcmp(&n, &n0, sizeof n) == 0);
		// |x - target| <= rest_delta is false for a non-finite x, so this is not at rest.
		int rested = spring_rest_angle(&n, 0.5f, 1.0f, 1.0f);
		ENSURE_MSG(rested == 0 && memcmp(&n, &n0, sizeof n) == 0,
		           "spring_rest_angle({x %g, v 0}, target 0.5, 1, 1) returned %d and left x = %g", (double)nf, rested,
		           (double)n.x);
		spring_state nv = {0.5f, nf}, nv0 = nv;
		ENSURE(spring_rest(&nv, 0.5f, 1.0f, 1.0f) == 0 && memcmp(&nv, &nv0, sizeof nv) == 0);
		spring_state_vec2 s2 = {{1.0f, 2.0f}, {0.0f, 0.0f}}, s20 = s2;
		ENSURE(spring_rest_vec2(&s2, spring_vec2_make(nf, 2.0f), 1.0f, 1.0f) == 0);
		ENSURE(memcmp(&s2, &s20, sizeof s2) == 0);
		spring_state_vec2 n2 = {{1.0f, nf}, {0.0f, 0.0f}}, n20 = n2;
		ENSURE(spring_rest_vec2(&n2, spring_vec2_make(1.0f, 2.0f), 1.0f, 1.0f) == 0);
		ENSURE(memcmp(&n2, &n20, sizeof n2) == 0);
		spring_state_vec3 s3 = {{1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 0.0f}}, s30 = s3;
		ENSURE(spring_rest_vec3(&s3, spring_vec3_make(1.0f, 2.0f, nf), 1.0f, 1.0f) == 0);
		ENSURE(memcmp(&s3, &s30, sizeof s3) == 0);
		spring_state_vec3 n3 = {{1.0f, 2.0f, 3.0f}, {0.0f, nf, 0.0f}}, n30 = n3;
		ENSURE(spring_rest_vec3(&n3, spring_vec3_make(1.0f, 2.0f, 3.0f), 1.0f, 1.0f) == 0);
		ENSURE(memcmp(&n3, &n30, sizeof n3) == 0);
	}
	// Sanity: the same states with valid thresholds do snap.
	spring_state s = {0.5000001f, 1e-7f};
	ENSURE(spring_rest(&s, 0.5f, 1e-3f, 1e-3f) == 1 && s.x == 0.5f && s.v == 0.0f);
	return 0;
}

// =============================================================================================
// 8. Seeded fuzz

static unsigned rng_below(unsigned n)
{
	return (unsigned)(rng_next() % n);
}

static float rng_log_uniform(double lo, double hi)
{
	return (float)exp(log(lo) + rng_unit() * (log(hi) - log(lo)));
}

// Signed, log-uniform magnitude in [lo, hi], sometimes exactly 0.
static float rng_signed(double lo, double hi)
{
	if (rng_below(16) == 0) {
		return 0.0f;
	}
	float m = rng_log_uniform(lo, hi);
	return rng_below(2) ? -m : m;
}

static spring_params random_valid_params(void)
{
	spring_params p;
	p.stiffness = rng_log_uniform(1e-6, 1e8);
	p.mass = rng_log_uniform(1e-4, 1e4);
	switch (rng_below(8)) {
	case 0: p.damping = 0.0f; break;
	case 1: p.damping = (float)(2.0 * sqrt((double)p.stiffness * (double)p.mass)); break; // critical
	default: p.damping = rng_log_uniform(1e-6, 1e6); break;
	}
	return p;
}

static float random_dt(void)
{
	return rng_below(16) == 0 ? 0.0f : rng_log_uniform(1e-6, 1e4);
}

// Step with a random valid input: OK and finite, or an error with the state untouched.
static int fuzz_one_step(const step_kind *k, spring_params p, state_buf *s, const float *target, float dt, long iter,
                         long *errors)
{
	state_buf before;
	memcpy(&before, s, sizeof before);
	spring_result r = k->fn(p, s, target, dt);
	if (r == SPRING_OK) {
		ENSURE_MSG(all_finite(s->f, 2 * k->dim), "fuzz %ld: %s gave a non-finite state (k %g c %g m %g dt %g)", iter, k->name,
		           (double)p.stiffness, (double)p.damping, (double)p.mass, (double)dt);
		if (k->angle) {
			ENSURE_MSG(in_angle_range(s->f[0]), "fuzz %ld: %s angle %g off (-pi, pi]", iter, k->name, (double)s->f[0]);
		}
	} else {
		(*errors)++;
		ENSURE_MSG(memcmp(&before, s, sizeof before) == 0, "fuzz %ld: %s error %s wrote the state", iter, k->name,
		           spring_result_string(r));
		ENSURE_MSG(r == OOR || (k->semi && r == SPRING_ERROR_UNSTABLE), "fuzz %ld: %s unexpected %s", iter, k->name,
		           spring_result_string(r));
		if (k->semi) {
			ENSURE(r != SPRING_ERROR_UNSTABLE || !spring_semi_implicit_is_stable(p, dt));
		}
	}
	if (k->semi && spring_semi_implicit_is_stable(p, dt)) {
		ENSURE_MSG(r != SPRING_ERROR_UNSTABLE, "fuzz %ld: %s UNSTABLE but is_stable says stable", iter, k->name);
	}
	return 0;
}

static int test_fuzz_step(void)
{
	rng_seed(0x9E3779B97F4A7C15ull);
	long errors_exact = 0, errors_semi = 0;
	const long iterations = 200000;
	for (long it = 0; it < iterations; it++) {
		spring_params p = random_valid_params();
		ENSURE_MSG(spring_params_validate(p) == SPRING_OK, "fuzz %ld: generated invalid params", it);
		float dt = random_dt();
		float target[3];
		state_buf s;
		memset(&s, 0, sizeof s);
		for (int i = 0; i < 3; i++) {
			target[i] = rng_signed(1e-6, 1e6);
		}
		const step_kind *k = &step_kinds[it % STEP_KINDS];
		for (int i = 0; i < 2 * k->dim; i++) {
			s.f[i] = rng_signed(1e-6, 1e6);
		}
		state_buf start = s;
		if (fuzz_one_step(k, p, &s, target, dt, it, k->semi ? &errors_semi : &errors_exact)) {
			return 1;
		}

		// Closed form: never NaN, and for the exact steppers identical to the step just taken.
		int ek = k->semi ? -1 : (k->angle ? 3 : k->dim - 1);
		if (ek >= 0) {
			state_buf out;
			eval_kinds[ek].fn(p, &start, target, dt, &out);
			ENSURE_MSG(all_finite(out.f, 2 * k->dim), "fuzz %ld: %s non-finite", it, eval_kinds[ek].name);
			ENSURE_MSG(memcmp(out.f, s.f, 2 * (size_t)k->dim * sizeof(float)) == 0, "fuzz %ld: %s differs from step", it,
			           eval_kinds[ek].name);
		}

		if (it % 4 == 0) {
			spring_stepper st;
			spring_result sr = spring_stepper_init(&st, p, dt);
			ENSURE(sr == SPRING_OK || sr == OOR);
			if (sr == SPRING_OK) {
				ENSURE_MSG(isfinite(st.pp) && isfinite(st.pv) && isfinite(st.vp) && isfinite(st.vv),
				           "fuzz %ld: stepper not finite", it);
			}
		}

		// Queries: never NaN; the settling functions give +inf only for an undamped spring.
		if (it % 8 == 0) {
			for (int q = 0; q < 8; q++) {
				float v = queries[q].fn(p);
				ENSURE_MSG(isfinite(v), "fuzz %ld: %s(k %g c %g m %g) = %g", it, queries[q].name, (double)p.stiffness,
				           (double)p.damping, (double)p.mass, (double)v);
			}
			float d = rng_signed(1e-6, 1e6), v0 = rng_signed(1e-6, 1e6);
			float eps = rng_log_uniform(1e-6, 1.0);
			float a = spring_settling_duration(p, d, v0, eps);
			float b = spring_settling_time(p, d, v0, eps);
			ENSURE_MSG(!isnan(a) && !isnan(b) && a >= 0.0f && b >= 0.0f,
			           "fuzz %ld: settling(k %g c %g m %g, d %g v %g eps %g) = %g, %g", it, (double)p.stiffness,
			           (double)p.damping, (double)p.mass, (double)d, (double)v0, (double)eps, (double)a, (double)b);
			ENSURE_MSG((isfinite(a) && isfinite(b)) || p.damping == 0.0f,
			           "fuzz %ld: settling infinite with damping %g (k %g m %g)", it, (double)p.damping, (double)p.stiffness,
			           (double)p.mass);
		}
	}
	// With |x|, |v| <= 1e6 and these parameter ranges, energy bounds keep every result in float range.
	ENSURE_MSG(errors_exact == 0, "%ld exact steps failed on valid in-range input", errors_exact);
	(void)errors_semi;
	return 0;
}

// A random finite argument, often out of range: specials, small integers, wide magnitudes.
static float random_param_arg(void)
{
	static const float specials[] = {0.0f,         -0.0f,   1.0f,     -1.0f, 0.5f,  1.0001f,    0.9999f,     -0.9999f,
	                                 -1.0001f,     2.0f,    5.0f,     -3.0f, 60.0f, 1e-4f,      1e-30f,      FLT_MIN,
	                                 FLT_TRUE_MIN, FLT_MAX, -FLT_MAX, 30.0f, 8.0f,  -23.59116f, -0.3333333f, 4.0f};
	switch (rng_below(4)) {
	case 0: return specials[rng_below((unsigned)(sizeof specials / sizeof specials[0]))];
	case 1: return (float)(rng_unit() * 4.0 - 2.0);
	case 2: return rng_log_uniform(1e-3, 1e3);
	default: {
		float m = rng_log_uniform(1e-45, 3e38);
		return rng_below(4) == 0 ? -m : m;
	}
	}
}

static int test_fuzz_params(void)
{
	rng_seed(0xD1B54A32D192ED03ull);
	long ok = 0, err = 0;
	const long iterations = 60000;
	for (long it = 0; it < iterations; it++) {
		from_fn f = (from_fn)(it % FROM_COUNT);
		float a[3];
		for (int i = 0; i < 3; i++) {
			// Mostly perturb one argument of a valid set, sometimes all of them.
			a[i] = from_valid[f][i];
		}
		if (rng_below(3) == 0) {
			for (int i = 0; i < from_arity[f]; i++) {
				a[i] = random_param_arg();
			}
		} else {
			a[rng_below((unsigned)from_arity[f])] = random_param_arg();
		}
		spring_params out, before;
		memset(&out, SENTINEL, sizeof out);
		memcpy(&before, &out, sizeof out);
		spring_result res = call_from(f, a, &out);
		if (res == SPRING_OK) {
			ok++;
			ENSURE_MSG(spring_params_validate(out) == SPRING_OK, "fuzz %ld: %s(%g, %g, %g) gave invalid params", it,
			           from_fn_names[f], (double)a[0], (double)a[1], (double)a[2]);
			// Queries of any produced spring are never NaN.
			for (int q = 0; q < 8; q++) {
				float v = queries[q].fn(out);
				ENSURE_MSG(!isnan(v), "fuzz %ld: %s of %s(%g, %g, %g) is NaN", it, queries[q].name, from_fn_names[f],
				           (double)a[0], (double)a[1], (double)a[2]);
			}
		} else {
			err++;
			ENSURE_MSG(memcmp(&out, &before, sizeof out) == 0, "fuzz %ld: %s(%g, %g, %g) -> %s wrote output", it,
			           from_fn_names[f], (double)a[0], (double)a[1], (double)a[2], spring_result_string(res));
			// Finite arguments are never reported as non-finite.
			ENSURE_MSG(res == OOR || res == NS, "fuzz %ld: %s(%g, %g, %g) -> %s", it, from_fn_names[f], (double)a[0],
			           (double)a[1], (double)a[2], spring_result_string(res));
			ENSURE_MSG(res != NS || f == FROM_SETTLING || f == FROM_PER_FRAME, "fuzz %ld: %s gave NO_SOLUTION", it,
			           from_fn_names[f]);
		}
	}
	ENSURE(ok > iterations / 10 && err > iterations / 10); // both paths exercised
	return 0;
}

// The byte counts of every layout (base_internal.h) saturate instead of wrapping, on either side
// of SIZE_MAX, and a block fits up to PTRDIFF_MAX bytes and not one more.
static int test_layout_sizes_saturate(void)
{
	ENSURE(spring_internal_size_add(SIZE_MAX - 2u, 2u) == SIZE_MAX - 0u &&
	       spring_internal_size_add(SIZE_MAX - 2u, 1u) == SIZE_MAX - 1u);
	ENSURE(spring_internal_size_add(SIZE_MAX - 2u, 3u) == SIZE_MAX && spring_internal_size_add(SIZE_MAX, SIZE_MAX) == SIZE_MAX);
	ENSURE(spring_internal_size_mul(SIZE_MAX / 3u, 3u) == SIZE_MAX / 3u * 3u &&
	       spring_internal_size_mul(SIZE_MAX / 3u + 1u, 3u) == SIZE_MAX);
	ENSURE(spring_internal_size_mul(SIZE_MAX, 0u) == 0u && spring_internal_size_mul(0u, SIZE_MAX) == 0u);
	ENSURE(spring_internal_size_mul((size_t)1 << (sizeof(size_t) * 4u), (size_t)1 << (sizeof(size_t) * 4u)) == SIZE_MAX);
	ENSURE(spring_internal_align16(SIZE_MAX - 30u) == SIZE_MAX - 15u && spring_internal_align16(SIZE_MAX - 14u) == SIZE_MAX);
	ENSURE(spring_internal_align16(17u) == 32u && spring_internal_align16(16u) == 16u);
	ENSURE(spring_internal_size_fits((size_t)PTRDIFF_MAX) && !spring_internal_size_fits((size_t)PTRDIFF_MAX + 1u));
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_layout_sizes_saturate);
	RUN_TEST(test_params_valid_baselines);
	RUN_TEST(test_params_corpus);
	RUN_TEST(test_step_bad_input);
	RUN_TEST(test_stepper_init_bad_input);
	RUN_TEST(test_semi_implicit_unstable);
	RUN_TEST(test_step_enormous_dt);
	RUN_TEST(test_step_overflow);
	RUN_TEST(test_semi_implicit_scale_free);
	RUN_TEST(test_stepper_step_range);
	RUN_TEST(test_evaluate_bad_input);
	RUN_TEST(test_queries_bad_input);
	RUN_TEST(test_queries_extreme_valid);
	RUN_TEST(test_settling_time_light_damping);
	RUN_TEST(test_half_life_heavily_overdamped);
	RUN_TEST(test_clock_init_bad_input);
	RUN_TEST(test_clock_advance_bad_input);
	RUN_TEST(test_clock_advance_huge);
	RUN_TEST(test_follow_bad_input);
	RUN_TEST(test_angle_helpers_bad_input);
	RUN_TEST(test_rest_bad_input);
	RUN_TEST(test_fuzz_step);
	RUN_TEST(test_fuzz_params);
	return TEST_SUMMARY();
}
