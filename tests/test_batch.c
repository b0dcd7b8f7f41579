// SPDX-License-Identifier: MIT
// Batch springs (batch.h): every vector path gives the scalar stepper's bits on random states
// (denormals, huge values, signed zeros, results beyond float range), for every count around the
// vector widths and unaligned starts; ranges touch exactly their springs; bad springs are refused
// alone; nothing allocates per call; a golden hash ties the paths of every platform together.
// The cached exact steps give spring_step_exact's bits.
#include "spring/batch.h"

#include "kernels_internal.h"
#include "scenes.h"
#include "simd_internal.h"
#include "test_macros.h"

#include <float.h>
#include <limits.h>
#include <stdint.h>

// The determinism golden of test_golden_many_springs, the same for every compiler, path and wasm.
#define SPRING_TEST_GOLDEN_BATCH 0xd605e8c07bcdec86ull

#define MAX_SPRINGS 1024
#define MAX_START 3

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static float bits_float(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static uint32_t float_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

// A finite float from a spread of classes: ordinary values, signed zeros, denormals, tiny and
// huge normals (whose steps leave float range), values near a target.
static float random_value(void)
{
	uint32_t r = rng_next();
	uint32_t sign = (rng_next() & 1u) << 31;
	switch (r % 8u) {
	case 0: return bits_float(sign);                                                                           // +-0
	case 1: return bits_float(sign | (rng_next() & 0x007fffffu));                                              // denormal
	case 2: return bits_float(sign | ((uint32_t)(1 + rng_next() % 20u) << 23) | (rng_next() & 0x007fffffu));   // tiny normal
	case 3: return bits_float(sign | ((uint32_t)(240 + rng_next() % 14u) << 23) | (rng_next() & 0x007fffffu)); // huge, to FLT_MAX
	default: return (float)((double)(int32_t)rng_next() / 2147483648.0 * 100.0); // ordinary, [-100, 100)
	}
}

// Transitions of a spread of springs and steps: the benchmark's spring, undamped, overdamped,
// near-critical, a long step, a step of 0 (the identity) and a very stiff spring (coefficients
// far beyond 1, so that ordinary states leave float range).
#define STEPPER_COUNT 7
static spring_stepper test_stepper(int k)
{
	static const float table[STEPPER_COUNT][4] = {
		{170.0f, 26.0f, 1.0f, 1.0f / 120.0f}, {157.9f, 0.0f, 1.0f, 1.0f / 60.0f}, {10.0f, 40.0f, 1.0f, 1.0f / 120.0f},
		{100.0f, 20.0f, 1.0f, 1.0f / 30.0f},  {3.0f, 0.5f, 1.0f, 2.5f},           {50.0f, 5.0f, 2.0f, 0.0f},
		{3.0e30f, 1.0e10f, 1.0f, 1.0e-16f},
	};
	spring_stepper st = {0.0f, 0.0f, 0.0f, 0.0f};
	spring_params p = {table[k][0], table[k][1], table[k][2]};
	(void)spring_stepper_init(&st, p, table[k][3]);
	return st;
}

static int paths[SPRING_INTERNAL_ISA_COUNT], path_count;

// The paths built in and runnable here (AUTO first: the run-time choice).
static void find_paths(void)
{
	static int printed;
	path_count = 0;
	for (int p = 0; p < SPRING_INTERNAL_ISA_COUNT; p++) {
		if (spring_internal_isa_force((spring_internal_isa)p)) {
			paths[path_count++] = p;
			if (!printed) {
				printf("    path %s\n", spring_internal_isa_name((spring_internal_isa)p));
			}
		} else if (!printed) {
			printf("    path %s: not built for or not run by this machine, skipped\n",
			       spring_internal_isa_name((spring_internal_isa)p));
		}
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	printed = 1;
}

static const int counts[] = {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 1000};
#define COUNT_COUNT ((int)(sizeof counts / sizeof counts[0]))

// The oracle: spring_stepper_step on each spring, the first refusal's result and index.
static spring_result reference_many(const spring_stepper *st, spring_state *s, const float *t, int n, int *bad)
{
	spring_result first = SPRING_OK;
	*bad = -1;
	for (int i = 0; i < n; i++) {
		spring_result r = spring_stepper_step(st, &s[i], t[i]);
		if (r != SPRING_OK && *bad < 0) {
			first = r;
			*bad = i;
		}
	}
	return first;
}

// spring_stepper_step_many on every path, count and start against the oracle, bit for bit.
static int test_step_many_matches_scalar(void)
{
	static spring_state states[MAX_SPRINGS + MAX_START], expect[MAX_SPRINGS + MAX_START];
	static float targets[MAX_SPRINGS + MAX_START];
	find_paths();
	int refusals = 0;
	for (int k = 0; k < STEPPER_COUNT; k++) {
		spring_stepper st = test_stepper(k);
		for (int c = 0; c < COUNT_COUNT; c++) {
			for (int start = 0; start <= MAX_START; start++) {
				for (int i = 0; i < MAX_SPRINGS + MAX_START; i++) {
					states[i] = (spring_state){random_value(), random_value()};
					targets[i] = random_value();
				}
				int n = counts[c], bad;
				memcpy(expect, states, sizeof states);
				spring_result want = reference_many(&st, expect + start, targets + start, n, &bad);
				refusals += bad >= 0;
				for (int p = 0; p < path_count; p++) {
					static spring_state got[MAX_SPRINGS + MAX_START];
					memcpy(got, states, sizeof states);
					ENSURE(spring_internal_isa_force((spring_internal_isa)paths[p]));
					spring_result r = spring_stepper_step_many(&st, got + start, targets + start, n);
					ENSURE_MSG(r == want && memcmp(got, expect, sizeof got) == 0, "path %s, stepper %d, count %d, start %d",
					           spring_internal_isa_name((spring_internal_isa)paths[p]), k, n, start);
				}
			}
		}
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	ENSURE(refusals > 50); // the random states do exercise refusals
	return 0;
}

// The batch oracle: each spring of [first, first + n) by spring_stepper_step then spring_rest.
static spring_result reference_batch(const spring_batch *b, float *x, float *v, int first, int n, int *bad)
{
	spring_result result = SPRING_OK;
	*bad = -1;
	for (int i = first; i < first + n; i++) {
		spring_state s = {x[i], v[i]};
		spring_result r = spring_stepper_step(b->steppers ? &b->steppers[i] : &b->stepper, &s, b->target[i]);
		if (r == SPRING_OK) {
			if (b->rest_delta > 0.0f || b->rest_speed > 0.0f) {
				(void)spring_rest(&s, b->target[i], b->rest_delta, b->rest_speed);
			}
			x[i] = s.x;
			v[i] = s.v;
		} else if (*bad < 0) {
			result = r;
			*bad = i;
		}
	}
	return result;
}

// spring_batch_step_range on every path: shared and per-spring transitions, with and without
// rest snapping, every count and start; springs outside the range keep their bits.
static int test_batch_matches_scalar(void)
{
	static float x[MAX_SPRINGS + MAX_START], v[MAX_SPRINGS + MAX_START], t[MAX_SPRINGS + MAX_START];
	static float ex[MAX_SPRINGS + MAX_START], ev[MAX_SPRINGS + MAX_START], gx[MAX_SPRINGS + MAX_START],
		gv[MAX_SPRINGS + MAX_START];
	static spring_stepper steppers[MAX_SPRINGS + MAX_START];
	const int total = MAX_SPRINGS + MAX_START;
	find_paths();
	int snapped = 0;
	for (int mode = 0; mode < 4; mode++) {
		int per_spring = mode & 1, rest = mode >> 1;
		for (int c = 0; c < COUNT_COUNT; c++) {
			for (int first = 0; first <= MAX_START; first++) {
				for (int i = 0; i < total; i++) {
					x[i] = random_value();
					v[i] = random_value();
					t[i] = random_value();
					if (rest && i % 3 == 0) { // near their targets: some snap, some not
						x[i] = t[i] + (float)(int)(rng_next() % 9u - 4u) * 0.001f;
						v[i] = (float)(int)(rng_next() % 9u - 4u) * 0.01f;
					}
					steppers[i] = test_stepper((int)(rng_next() % STEPPER_COUNT));
				}
				spring_batch b;
				spring_batch_desc desc = {
					.x = gx, .v = gv, .target = t, .count = total, .steppers = per_spring ? steppers : NULL};
				desc.params = (spring_params){170.0f, 26.0f, 1.0f};
				desc.rest_delta = rest ? 0.002f : 0.0f;
				desc.rest_speed = rest ? 0.02f : 0.0f;
				ENSURE(spring_batch_init(&b, &desc) == SPRING_OK);
				int n = counts[c], want_bad;
				memcpy(ex, x, sizeof x);
				memcpy(ev, v, sizeof v);
				spring_result want = reference_batch(&b, ex, ev, first, n, &want_bad);
				for (int i = first; i < first + n; i++) {
					snapped += rest && ex[i] == t[i] && ev[i] == 0.0f && x[i] != t[i];
				}
				for (int p = 0; p < path_count; p++) {
					memcpy(gx, x, sizeof x);
					memcpy(gv, v, sizeof v);
					ENSURE(spring_internal_isa_force((spring_internal_isa)paths[p]));
					int bad = 12345;
					spring_result r = spring_batch_step_range(&b, first, n, &bad);
					ENSURE_MSG(r == want && bad == want_bad && memcmp(gx, ex, sizeof gx) == 0 && memcmp(gv, ev, sizeof gv) == 0,
					           "path %s, mode %d, count %d, first %d: result %d/%d, bad %d/%d",
					           spring_internal_isa_name((spring_internal_isa)paths[p]), mode, n, first, r, want, bad, want_bad);
				}
			}
		}
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	ENSURE(snapped > 100); // rest snapping does happen
	return 0;
}

// Rest snapping happens at the thresholds inclusive and not a float beyond; count_resting counts
// exact rest (-0 on a +0 target with velocity -0 rests too).
static int test_batch_rest(void)
{
	float x[20], v[20], t[20];
	spring_batch b;
	spring_batch_desc desc = {.x = x, .v = v, .target = t, .count = 20, .step = 0.0f};
	find_paths();
	for (int p = 0; p < path_count; p++) {
		ENSURE(spring_internal_isa_force((spring_internal_isa)paths[p]));
		desc.rest_delta = desc.rest_speed = 0.0f;
		ENSURE(spring_batch_init(&b, &desc) == SPRING_OK);
		for (int i = 0; i < 20; i++) {
			x[i] = -0.0f;
			v[i] = -0.0f;
			t[i] = 0.0f;
		}
		ENSURE(spring_batch_count_resting(&b, 0, 20) == 20);
		x[7] = FLT_TRUE_MIN;
		v[9] = -FLT_TRUE_MIN;
		ENSURE(spring_batch_count_resting(&b, 0, 20) == 18);

		// With thresholds: a spring exactly at rest_delta after the step snaps; one a float beyond does not.
		desc.rest_delta = 0.5f;
		desc.rest_speed = 1.0f;
		ENSURE(spring_batch_init(&b, &desc) == SPRING_OK);
		spring_stepper identity;
		ENSURE(spring_stepper_init(&identity, (spring_params){1.0f, 1.0f, 1.0f}, 0.0f) == SPRING_OK);
		b.stepper = identity; // step 0: the state stays, so the thresholds see it as given
		for (int i = 0; i < 20; i++) {
			t[i] = 10.0f;
			x[i] = i % 2 ? 10.5f : nextafterf(10.5f, 11.0f);
			v[i] = i % 4 < 2 ? 1.0f : nextafterf(1.0f, 2.0f);
		}
		ENSURE(spring_batch_step(&b, NULL) == SPRING_OK);
		for (int i = 0; i < 20; i++) {
			int rests = i % 4 == 1;
			ENSURE_MSG(rests ? x[i] == 10.0f && float_bits(v[i]) == 0u : x[i] != 10.0f, "spring %d", i);
		}
		ENSURE(spring_batch_count_resting(&b, 0, 20) == 5);
		ENSURE(spring_batch_count_resting(&b, 1, 1) == 1);
		ENSURE(spring_batch_count_resting(&b, 0, 1) == 0);
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	ENSURE(spring_batch_count_resting(NULL, 0, 0) == -1);
	ENSURE(spring_batch_count_resting(&b, 0, 21) == -1);
	ENSURE(spring_batch_count_resting(&b, -1, 1) == -1);
	ENSURE(spring_batch_count_resting(&b, 20, 0) == 0);
	return 0;
}

// A NaN or infinite target or state, anywhere in the vectors or the tail, refuses only its own
// spring (left bit for bit), the others step as if it were not there, and the first refused index
// and its reason are reported; an overflowing spring is OUT_OF_RANGE the same way.
static int test_bad_springs_refused_alone(void)
{
	enum { N = 37 };
	static const float poison[3] = {NAN, INFINITY, -INFINITY};
	float x[N], v[N], t[N], ex[N], ev[N];
	spring_state s[N], es[N];
	find_paths();
	spring_stepper st = test_stepper(0);
	for (int p = 0; p < path_count; p++) {
		ENSURE(spring_internal_isa_force((spring_internal_isa)paths[p]));
		for (int where = 0; where < 3; where++) {
			for (int a = 0; a < N; a += 5) {
				int b2 = (a * 7 + 3) % N; // a second bad spring, before or after the first
				for (int i = 0; i < N; i++) {
					x[i] = (float)i;
					v[i] = (float)-i;
					t[i] = 1.0f;
				}
				float *field = where == 0 ? x : where == 1 ? v : t;
				field[a] = poison[a % 3];
				x[b2] = 3.0e38f; // overflows: OUT_OF_RANGE
				t[b2] = -3.0e38f;
				for (int i = 0; i < N; i++) {
					s[i] = (spring_state){x[i], v[i]};
				}
				memcpy(es, s, sizeof s);
				int want_bad;
				spring_result want = reference_many(&st, es, t, N, &want_bad);
				ENSURE(want_bad == (a < b2 ? a : b2));
				ENSURE(want == (a <= b2 ? SPRING_ERROR_NOT_FINITE : SPRING_ERROR_OUT_OF_RANGE));
				ENSURE(spring_stepper_step_many(&st, s, t, N) == want);
				ENSURE(memcmp(s, es, sizeof s) == 0);
				ENSURE(memcmp(&s[a], &(spring_state){x[a], v[a]}, sizeof s[a]) == 0);

				spring_batch b;
				ENSURE(spring_batch_init(
						   &b, &(spring_batch_desc){.x = x, .v = v, .target = t, .count = N, .params = {170.0f, 26.0f, 1.0f}}) ==
				       SPRING_OK);
				ENSURE(memcmp(&b.stepper, &st, sizeof st) == 0);
				for (int i = 0; i < N; i++) {
					ex[i] = es[i].x;
					ev[i] = es[i].v;
				}
				int bad = -2;
				ENSURE(spring_batch_step(&b, &bad) == want);
				ENSURE(bad == want_bad);
				ENSURE(memcmp(x, ex, sizeof x) == 0 && memcmp(v, ev, sizeof v) == 0);
			}
		}
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	return 0;
}

// Argument checks, both sides of every bound; a refused call writes nothing.
static int test_bad_arguments(void)
{
	// Room beyond the batch's 4 springs, to see that refused ranges write nothing there.
	float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, v[8] = {0}, t[8] = {0};
	spring_state s[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}};
	spring_stepper st = test_stepper(0);
	ENSURE(spring_stepper_step_many(NULL, s, t, 4) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_stepper_step_many(&st, NULL, t, 4) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_stepper_step_many(&st, s, NULL, 4) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_stepper_step_many(&st, s, t, -1) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(s[0].x == 1.0f && s[3].x == 4.0f);
	ENSURE(spring_stepper_step_many(&st, NULL, NULL, 0) == SPRING_OK);

	spring_batch b, before;
	memset(&b, 0x5a, sizeof b);
	before = b;
	spring_batch_desc d = {.x = x, .v = v, .target = t, .count = 4};
	ENSURE(spring_batch_init(NULL, &d) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_init(&b, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	const spring_batch_desc bad_descs[] = {
		{.x = x, .v = v, .target = t, .count = -1},
		{.v = v, .target = t, .count = 1},
		{.x = x, .target = t, .count = 1},
		{.x = x, .v = v, .count = 1},
	};
	for (int i = 0; i < 4; i++) {
		ENSURE(spring_batch_init(&b, &bad_descs[i]) == SPRING_ERROR_INVALID_ARGUMENT);
	}
	struct {
		spring_batch_desc d;
		spring_result r;
	} cases[] = {
		{{.x = x, .v = v, .target = t, .count = 4, .step = -FLT_TRUE_MIN}, SPRING_ERROR_OUT_OF_RANGE},
		{{.x = x, .v = v, .target = t, .count = 4, .step = NAN}, SPRING_ERROR_NOT_FINITE},
		{{.x = x, .v = v, .target = t, .count = 4, .params = {-1.0f, 1.0f, 1.0f}}, SPRING_ERROR_OUT_OF_RANGE},
		{{.x = x, .v = v, .target = t, .count = 4, .rest_delta = -FLT_TRUE_MIN}, SPRING_ERROR_OUT_OF_RANGE},
		{{.x = x, .v = v, .target = t, .count = 4, .rest_speed = -FLT_TRUE_MIN}, SPRING_ERROR_OUT_OF_RANGE},
		{{.x = x, .v = v, .target = t, .count = 4, .rest_delta = INFINITY}, SPRING_ERROR_NOT_FINITE},
		{{.x = x, .v = v, .target = t, .count = 4, .rest_speed = NAN}, SPRING_ERROR_NOT_FINITE},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ENSURE_MSG(spring_batch_init(&b, &cases[i].d) == cases[i].r, "case %d", (int)i);
	}
	ENSURE(memcmp(&b, &before, sizeof b) == 0);
	// The accepted sides: count 0 with NULL arrays, thresholds 0 and FLT_MAX, the smallest step.
	ENSURE(spring_batch_init(&b, &(spring_batch_desc){0}) == SPRING_OK && b.count == 0);
	ENSURE(spring_batch_init(
			   &b,
			   &(spring_batch_desc){
				   .x = x, .v = v, .target = t, .count = 4, .step = FLT_TRUE_MIN, .rest_delta = FLT_MAX, .rest_speed = 0.0f}) ==
	       SPRING_OK);
	// Zeroed params and step are the defaults.
	ENSURE(spring_batch_init(&b, &d) == SPRING_OK);
	spring_stepper def;
	ENSURE(spring_stepper_init(&def, spring_params_default(), SPRING_CLOCK_DEFAULT_STEP) == SPRING_OK);
	ENSURE(memcmp(&b.stepper, &def, sizeof def) == 0);
	ENSURE(b.x == x && b.v == v && b.target == t && b.count == 4 && b.steppers == NULL);

	// set_params: checked like init, nothing changes on error.
	ENSURE(spring_batch_set_params(NULL, (spring_params){0}, 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_set_params(&b, (spring_params){1.0f, 1.0f, 0.0f}, 0.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_batch_set_params(&b, (spring_params){0}, INFINITY) == SPRING_ERROR_NOT_FINITE);
	ENSURE(memcmp(&b.stepper, &def, sizeof def) == 0);
	ENSURE(spring_batch_set_params(&b, (spring_params){170.0f, 26.0f, 1.0f}, 1.0f / 120.0f) == SPRING_OK);
	ENSURE(memcmp(&b.stepper, &st, sizeof st) == 0);

	// Ranges: both sides of every bound.
	int bad = 7;
	ENSURE(spring_batch_step_range(NULL, 0, 0, &bad) == SPRING_ERROR_INVALID_ARGUMENT && bad == -1);
	ENSURE(spring_batch_step(NULL, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_range(&b, -1, 1, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_range(&b, 0, -1, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_range(&b, 0, 5, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_range(&b, 4, 1, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_range(&b, 5, 0, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_range(&b, 1, INT_MAX, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	for (int i = 0; i < 8; i++) {
		ENSURE(x[i] == (float)(i + 1) && v[i] == 0.0f);
	}
	ENSURE(spring_batch_step_range(&b, 4, 0, &bad) == SPRING_OK && bad == -1);
	ENSURE(x[3] == 4.0f);
	ENSURE(spring_batch_step_range(&b, 0, 4, &bad) == SPRING_OK && bad == -1);
	ENSURE(x[0] != 1.0f && x[3] != 4.0f && x[4] == 5.0f);
	return 0;
}

// spring_batch_step_n gives the bits of as many spring_batch_step_range calls, across block
// boundaries (1,024 springs), with refusals, rest snapping and per-spring transitions, on every
// path; the lowest refused index and its reason are reported.
static int test_advance_matches_repeated_steps(void)
{
	enum { TOTAL = 2600 };
	static float x[TOTAL], v[TOTAL], t[TOTAL], ex[TOTAL], ev[TOTAL];
	static spring_stepper steppers[TOTAL];
	static const int ranges[][2] = {{0, 0}, {0, 1}, {3, 1023}, {0, 1024}, {1, 1025}, {5, 2500}, {2047, 553}};
	static const int step_counts[] = {0, 1, 3, 7};
	find_paths();
	int refused = 0;
	for (int p = 0; p < path_count; p++) {
		ENSURE(spring_internal_isa_force((spring_internal_isa)paths[p]));
		for (int mode = 0; mode < 4; mode++) {
			for (int r = 0; r < (int)(sizeof ranges / sizeof ranges[0]); r++) {
				int first = ranges[r][0], n = ranges[r][1], steps = step_counts[(r + mode) % 4];
				for (int i = 0; i < TOTAL; i++) {
					int wild = rng_next() % 200u == 0; // now and then a spring that is refused
					x[i] = wild ? random_value() : (float)((int32_t)rng_next() % 1000) * 0.1f;
					v[i] = wild ? random_value() : 0.0f;
					t[i] = wild && rng_next() % 2u ? NAN : (float)((int32_t)rng_next() % 1000) * 0.1f;
					steppers[i] = test_stepper((int)(rng_next() % 4u));
				}
				spring_batch b;
				ENSURE(spring_batch_init(&b, &(spring_batch_desc){.x = ex,
				                                                  .v = ev,
				                                                  .target = t,
				                                                  .count = TOTAL,
				                                                  .steppers = mode & 1 ? steppers : NULL,
				                                                  .rest_delta = mode & 2 ? 0.01f : 0.0f,
				                                                  .rest_speed = mode & 2 ? 0.1f : 0.0f}) == SPRING_OK);
				memcpy(ex, x, sizeof x);
				memcpy(ev, v, sizeof v);
				spring_result want = SPRING_OK;
				int want_bad = -1;
				for (int k = 0; k < steps; k++) {
					int bad;
					spring_result res = spring_batch_step_range(&b, first, n, &bad);
					if (bad >= 0 && (want_bad < 0 || bad < want_bad)) {
						want_bad = bad;
						want = res;
					}
				}
				refused += want_bad >= 0;
				float gx[TOTAL], gv[TOTAL];
				memcpy(gx, ex, sizeof gx);
				memcpy(gv, ev, sizeof gv);
				memcpy(ex, x, sizeof x);
				memcpy(ev, v, sizeof v);
				int bad = 12345;
				spring_result got = spring_batch_step_n(&b, first, n, steps, &bad);
				ENSURE_MSG(got == want && bad == want_bad && memcmp(gx, ex, sizeof gx) == 0 && memcmp(gv, ev, sizeof gv) == 0,
				           "path %s, mode %d, first %d, count %d, steps %d: result %d/%d, bad %d/%d",
				           spring_internal_isa_name((spring_internal_isa)paths[p]), mode, first, n, steps, got, want, bad,
				           want_bad);
			}
		}
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	ENSURE(refused > 10);

	// Refusals only beyond the first block (and two in one block): the index counts from `first`.
	for (int i = 0; i < TOTAL; i++) {
		ex[i] = (float)i;
		ev[i] = 0.0f;
		t[i] = 0.0f;
	}
	t[1500] = NAN;
	t[1400] = INFINITY;
	ex[1300] = 3.0e38f;
	t[1300] = -3.0e38f;
	spring_batch big;
	ENSURE(spring_batch_init(&big, &(spring_batch_desc){.x = ex, .v = ev, .target = t, .count = TOTAL}) == SPRING_OK);
	int where = 0;
	ENSURE(spring_batch_step_n(&big, 1, 2000, 2, &where) == SPRING_ERROR_OUT_OF_RANGE && where == 1300);
	ENSURE(spring_batch_step_n(&big, 1350, 1000, 2, &where) == SPRING_ERROR_NOT_FINITE && where == 1400);
	ENSURE(ex[1500] == 1500.0f && ex[1300] == 3.0e38f && ex[1301] != 1301.0f);

	float x1[2] = {1.0f, 2.0f}, v1[2] = {0.0f, 0.0f}, t1[2] = {0.0f, 0.0f};
	spring_batch b;
	ENSURE(spring_batch_init(&b, &(spring_batch_desc){.x = x1, .v = v1, .target = t1, .count = 1}) == SPRING_OK);
	int bad = 7;
	ENSURE(spring_batch_step_n(NULL, 0, 0, 1, &bad) == SPRING_ERROR_INVALID_ARGUMENT && bad == -1);
	ENSURE(spring_batch_step_n(&b, 0, 1, -1, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_n(&b, 0, 2, 1, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_n(&b, 1, 1, 1, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_batch_step_n(&b, -1, 1, 1, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(x1[0] == 1.0f && x1[1] == 2.0f);
	ENSURE(spring_batch_step_n(&b, 0, 1, 0, &bad) == SPRING_OK && bad == -1 && x1[0] == 1.0f);
	ENSURE(spring_batch_step_n(&b, 1, 0, 5, &bad) == SPRING_OK && bad == -1);
	ENSURE(spring_batch_step_n(&b, 0, 1, 2, &bad) == SPRING_OK && bad == -1 && x1[0] != 1.0f && x1[1] == 2.0f);
	return 0;
}

// Retargeting keeps x and v: a batch retargeted every 100 steps equals the scalar stepper
// retargeted the same way, and two threads' worth of ranges equal one whole step.
static int test_retarget_and_split_ranges(void)
{
	enum { N = 1000 };
	static float x[N], v[N], t[N];
	static spring_state ref[N];
	find_paths();
	for (int p = 0; p < path_count; p++) {
		ENSURE(spring_internal_isa_force((spring_internal_isa)paths[p]));
		spring_batch b;
		ENSURE(spring_batch_init(&b, &(spring_batch_desc){
										 .x = x, .v = v, .target = t, .count = N, .params = {170.0f, 26.0f, 1.0f}}) == SPRING_OK);
		for (int i = 0; i < N; i++) {
			x[i] = v[i] = 0.0f;
			ref[i] = (spring_state){0.0f, 0.0f};
		}
		for (int step = 0; step < 400; step++) {
			if (step % 100 == 0) {
				for (int i = 0; i < N; i++) {
					t[i] = (float)((i * 37 + step) % 101) - 50.0f;
				}
			}
			// Uneven split points, as a job system might choose them.
			ENSURE(spring_batch_step_range(&b, 0, 333, NULL) == SPRING_OK);
			ENSURE(spring_batch_step_range(&b, 333, 1, NULL) == SPRING_OK);
			ENSURE(spring_batch_step_range(&b, 334, N - 334, NULL) == SPRING_OK);
			for (int i = 0; i < N; i++) {
				ENSURE(spring_stepper_step(&b.stepper, &ref[i], t[i]) == SPRING_OK);
			}
		}
		for (int i = 0; i < N; i++) {
			ENSURE(float_bits(x[i]) == float_bits(ref[i].x) && float_bits(v[i]) == float_bits(ref[i].v));
		}
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	return 0;
}

// No call allocates: the allocator hooks see nothing during many steps of every kind.
static int test_no_allocation(void)
{
	enum { N = 100 };
	static float x[N], v[N], t[N];
	static spring_state s[N];
	static spring_stepper steppers[N];
	scene_alloc_counter count = {0};
	spring_allocator counting = scene_counting_allocator(&count);
	spring_set_allocator(&counting);
	spring_stepper st = test_stepper(0);
	for (int i = 0; i < N; i++) {
		t[i] = (float)i;
		steppers[i] = st;
	}
	t[N / 2] = NAN; // the error path too
	spring_batch b, bp;
	int ok = spring_batch_init(&b, &(spring_batch_desc){.x = x, .v = v, .target = t, .count = N, .rest_delta = 0.01f}) ==
	         SPRING_OK;
	ok = ok &&
	     spring_batch_init(&bp, &(spring_batch_desc){.x = x, .v = v, .target = t, .count = N, .steppers = steppers}) == SPRING_OK;
	for (int k = 0; k < 100; k++) {
		int bad;
		ok = ok && spring_stepper_step_many(&st, s, t, N) == SPRING_ERROR_NOT_FINITE;
		ok = ok && spring_batch_step(&b, &bad) == SPRING_ERROR_NOT_FINITE && bad == N / 2;
		ok = ok && spring_batch_step_range(&bp, 3, 40, &bad) == SPRING_OK;
		ok = ok && spring_batch_step_n(&b, 0, N, 3, &bad) == SPRING_ERROR_NOT_FINITE && bad == N / 2;
		ok = ok && spring_batch_set_params(&b, (spring_params){0}, 0.0f) == SPRING_OK;
		ok = ok && spring_batch_count_resting(&b, 0, N) >= 0;
	}
	spring_set_allocator(NULL);
	ENSURE(ok);
	ENSURE(count.allocs == 0 && count.frees == 0);
	return 0;
}

// Determinism golden: 1,000 springs of the benchmark's spring, retargeted every 100 steps, 1,200
// steps, hashed; every path and platform gives this constant.
static int test_golden_many_springs(void)
{
	enum { N = 1000 };
	static spring_state s[N];
	static float t[N];
	find_paths();
	uint64_t first = 0;
	for (int p = 0; p < path_count; p++) {
		ENSURE(spring_internal_isa_force((spring_internal_isa)paths[p]));
		spring_stepper st = test_stepper(0);
		uint64_t h = SPRING_HASH_INIT;
		for (int i = 0; i < N; i++) {
			s[i] = (spring_state){(float)i * 0.01f, 0.0f};
		}
		for (int step = 0; step < 1200; step++) {
			if (step % 100 == 0) {
				for (int i = 0; i < N; i++) {
					t[i] = (float)((i * 7919 + step * 13) % 2001) * 0.05f - 50.0f;
				}
			}
			ENSURE(spring_stepper_step_many(&st, s, t, N) == SPRING_OK);
			if (step % 50 == 49) {
				h = spring_hash(h, s, sizeof s);
			}
		}
		printf("    %s: golden hash %016llx\n", spring_internal_isa_name((spring_internal_isa)paths[p]), (unsigned long long)h);
		if (p == 0) {
			first = h;
		}
		ENSURE(h == first);
	}
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	ENSURE(first == SPRING_TEST_GOLDEN_BATCH);
	return 0;
}

// The four cached exact steps give spring_step_exact's bits and result codes on random states
// (non-finite ones too) while params and dt change between calls in every way: other springs,
// one ulp apart, other steps, invalid ones; a zeroed cache is empty; NULL is refused.
static int test_exact_cache_matches_uncached(void)
{
	spring_params ps[6] = {{170.0f, 26.0f, 1.0f}, {170.0f, 26.0f, 1.0f}, {10.0f, 40.0f, 1.0f},
	                       {157.9f, 0.0f, 1.0f},  {1.0f, -1.0f, 1.0f},   {170.0f, 26.0f, 1.0f}};
	ps[1].damping = nextafterf(26.0f, 27.0f); // one ulp apart
	ps[5].mass = nextafterf(1.0f, 2.0f);
	const float dts[5] = {1.0f / 120.0f, 1.0f / 60.0f, 0.0f, 2.5f, -1.0f};
	spring_exact_cache cache[4];
	memset(cache, 0, sizeof cache);
	int hits_differ = 0;
	for (int k = 0; k < 20000; k++) {
		spring_params p = ps[rng_next() % 6u];
		float dt = dts[rng_next() % 5u];
		int repeat = (int)(rng_next() % 4u); // runs of the same pair, so that the cache is used
		for (int r = 0; r <= repeat; r++) {
			float q[9];
			for (int i = 0; i < 9; i++) {
				q[i] = rng_next() % 50u == 0 ? NAN : (float)((int32_t)rng_next() % 20000) * 0.01f;
			}
			spring_state a = {q[0], q[1]}, b = a, c = a, d = a;
			spring_state_vec2 a2 = {{q[0], q[1]}, {q[2], q[3]}}, b2 = a2;
			spring_state_vec3 a3 = {{q[0], q[1], q[2]}, {q[3], q[4], q[5]}}, b3 = a3;
			spring_vec2 t2 = {q[6], q[7]};
			spring_vec3 t3 = {q[6], q[7], q[8]};
			spring_result r1 = spring_step_exact(p, &a, q[6], dt), r2 = spring_step_exact_cached(&cache[0], p, &b, q[6], dt);
			ENSURE(r1 == r2 && memcmp(&a, &b, sizeof a) == 0);
			r1 = spring_step_exact_angle(p, &c, q[6] * 3.0f, dt);
			r2 = spring_step_exact_cached_angle(&cache[1], p, &d, q[6] * 3.0f, dt);
			ENSURE(r1 == r2 && memcmp(&c, &d, sizeof c) == 0);
			r1 = spring_step_exact_vec2(p, &a2, t2, dt);
			r2 = spring_step_exact_cached_vec2(&cache[2], p, &b2, t2, dt);
			ENSURE(r1 == r2 && memcmp(&a2, &b2, sizeof a2) == 0);
			r1 = spring_step_exact_vec3(p, &a3, t3, dt);
			r2 = spring_step_exact_cached_vec3(&cache[3], p, &b3, t3, dt);
			ENSURE(r1 == r2 && memcmp(&a3, &b3, sizeof a3) == 0);
		}
	}
	// One ulp of damping moves the result: a cache that ignored it would be caught above.
	for (int i = 0; i < 100 && !hits_differ; i++) {
		spring_state a = {(float)i, 1.0f}, b = a;
		(void)spring_step_exact(ps[0], &a, 100.0f, 2.5f);
		(void)spring_step_exact(ps[1], &b, 100.0f, 2.5f);
		hits_differ = memcmp(&a, &b, sizeof a) != 0;
	}
	ENSURE(hits_differ);

	// Empty and NULL caches.
	spring_exact_cache empty;
	memset(&empty, 0, sizeof empty);
	spring_state s = {1.0f, 0.0f};
	ENSURE(spring_step_exact_cached(&empty, (spring_params){0}, &s, 0.0f, 0.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(s.x == 1.0f && empty.valid == 0u);
	ENSURE(spring_step_exact_cached(NULL, ps[0], &s, 0.0f, 0.01f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_step_exact_cached_angle(NULL, ps[0], &s, 0.0f, 0.01f) == SPRING_ERROR_INVALID_ARGUMENT);
	spring_state_vec2 s2 = {{1.0f, 1.0f}, {0.0f, 0.0f}};
	spring_state_vec3 s3 = {{1.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 0.0f}};
	ENSURE(spring_step_exact_cached_vec2(NULL, ps[0], &s2, (spring_vec2){0}, 0.01f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_step_exact_cached_vec3(NULL, ps[0], &s3, (spring_vec3){0}, 0.01f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_step_exact_cached(&empty, ps[0], NULL, 0.0f, 0.01f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(s.x == 1.0f && s2.x.x == 1.0f && s3.x.x == 1.0f);
	// The first valid call fills it; the remembered pair is the one given.
	ENSURE(spring_step_exact_cached(&empty, ps[0], &s, 0.0f, 0.01f) == SPRING_OK);
	ENSURE(empty.valid == 1u && memcmp(&empty.params, &ps[0], sizeof ps[0]) == 0 && empty.dt == 0.01f);
	return 0;
}

// Each instruction set, forced, runs its own kernels: its tables in every family (simd.c's list
// names them), and a vector set's differ from the one-lane kernels.
static int test_each_set_runs_its_own_kernels(void)
{
	struct own {
		spring_internal_isa isa;
		const spring_batch_kernels *batch;
		const spring_tip_kernels *tip;
		const spring_angle_kernels *angle;
	} sets[] = {
		{SPRING_INTERNAL_ISA_SCALAR, &spring_batch_kernels_scalar, &spring_tip_kernels_scalar, &spring_angle_kernels_scalar},
#if SPRING_SIMD_X86
		{SPRING_INTERNAL_ISA_SSE2, &spring_batch_kernels_sse2, &spring_tip_kernels_sse2, &spring_angle_kernels_sse2},
		{SPRING_INTERNAL_ISA_AVX2, &spring_batch_kernels_avx2, &spring_tip_kernels_avx2, &spring_angle_kernels_avx2},
		{SPRING_INTERNAL_ISA_AVX512, &spring_batch_kernels_avx512, &spring_tip_kernels_avx512, &spring_angle_kernels_avx512},
#endif
#if SPRING_SIMD_WASM
		{SPRING_INTERNAL_ISA_SIMD128, &spring_batch_kernels_simd128, &spring_tip_kernels_simd128, &spring_angle_kernels_simd128},
#endif
#if SPRING_SIMD_NEON
		{SPRING_INTERNAL_ISA_NEON, &spring_batch_kernels_neon, &spring_tip_kernels_neon, &spring_angle_kernels_neon},
#endif
	};
	int vector_sets = 0;
	for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
		if (!spring_internal_isa_force(sets[k].isa)) {
			printf("    %s: not run by this machine, skipped\n", spring_internal_isa_name(sets[k].isa));
			continue;
		}
		ENSURE(spring_internal_batch_kernels() == sets[k].batch);
		ENSURE(spring_internal_tip_kernels() == sets[k].tip);
		ENSURE(spring_internal_angle_kernels() == sets[k].angle);
		if (sets[k].isa != SPRING_INTERNAL_ISA_SCALAR) {
			vector_sets++;
			ENSURE(sets[k].batch->soa[0] && sets[k].batch->aos[0] && sets[k].angle->fields[0]);
			ENSURE(sets[k].tip->run != spring_tip_kernels_scalar.run && sets[k].tip->walk != spring_tip_kernels_scalar.walk);
			ENSURE(sets[k].angle->frame != spring_angle_kernels_scalar.frame);
			ENSURE(sets[k].angle->poses != spring_angle_kernels_scalar.poses);
		}
	}
	ENSURE(spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO));
	printf("    %d vector instruction sets checked\n", vector_sets);
#if SPRING_SIMD_V4
	ENSURE(vector_sets > 0); // every build with vectors runs at least its 4-lane set
#endif
	return 0;
}

// The test hook itself: unknown paths are refused, AUTO restores the run-time choice.
static int test_force_path_hook(void)
{
	spring_internal_isa chosen = spring_internal_isa_current();
	ENSURE(chosen != SPRING_INTERNAL_ISA_AUTO);
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_COUNT));
	ENSURE(!spring_internal_isa_force((spring_internal_isa)-1));
	ENSURE(spring_internal_isa_current() == chosen);
	ENSURE(spring_internal_isa_force(SPRING_INTERNAL_ISA_SCALAR));
	ENSURE(spring_internal_isa_current() == SPRING_INTERNAL_ISA_SCALAR);
	ENSURE(spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO));
	ENSURE(spring_internal_isa_current() == chosen);
	printf("    run-time choice: %s\n", spring_internal_isa_name(chosen));
#if defined(__x86_64__)
	// The widest this machine runs.
	ENSURE(chosen == (__builtin_cpu_supports("avx512f") ? SPRING_INTERNAL_ISA_AVX512
	                  : __builtin_cpu_supports("avx2")  ? SPRING_INTERNAL_ISA_AVX2
	                                                    : SPRING_INTERNAL_ISA_SSE2));
	ENSURE(spring_internal_isa_force(SPRING_INTERNAL_ISA_SSE2));
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_SIMD128));
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_NEON));
#endif
#if defined(__wasm_simd128__)
	ENSURE(chosen == SPRING_INTERNAL_ISA_SIMD128);
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_NEON));
#endif
#if defined(__aarch64__)
	// 64-bit ARM (make test-aarch64): the NEON kernels are the choice; the x86 and wasm kernels are
	// not built in, forcing them is refused and the tests that force each kernel skip them.
	ENSURE(chosen == SPRING_INTERNAL_ISA_NEON);
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_SSE2));
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_AVX2));
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_AVX512));
	ENSURE(!spring_internal_isa_force(SPRING_INTERNAL_ISA_SIMD128));
	ENSURE(spring_internal_isa_current() == chosen);
#endif
	static const char *const names[SPRING_INTERNAL_ISA_COUNT] = {"auto", "scalar", "sse2", "avx2", "avx512", "simd128", "neon"};
	for (int i = 0; i < SPRING_INTERNAL_ISA_COUNT; i++) {
		ENSURE(strcmp(spring_internal_isa_name((spring_internal_isa)i), names[i]) == 0);
	}
	ENSURE(strcmp(spring_internal_isa_name(SPRING_INTERNAL_ISA_COUNT), "unknown") == 0);
	ENSURE(strcmp(spring_internal_isa_name((spring_internal_isa)-1), "unknown") == 0);
	(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_force_path_hook);
	RUN_TEST(test_each_set_runs_its_own_kernels);
	RUN_TEST(test_step_many_matches_scalar);
	RUN_TEST(test_batch_matches_scalar);
	RUN_TEST(test_batch_rest);
	RUN_TEST(test_bad_springs_refused_alone);
	RUN_TEST(test_bad_arguments);
	RUN_TEST(test_advance_matches_repeated_steps);
	RUN_TEST(test_retarget_and_split_ranges);
	RUN_TEST(test_no_allocation);
	RUN_TEST(test_golden_many_springs);
	RUN_TEST(test_exact_cache_matches_uncached);
	return TEST_SUMMARY();
}
