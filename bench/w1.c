// W1: many independent springs. 10,000 springs (k 170, c 26, m 1) advanced 1,200 steps of
// 1/120 s from rest at 0; every 100 steps every spring gets a new target and keeps its position
// and velocity. Spring i's target in epoch e (steps 100 e .. 100 e + 99) is
// ((7919 i + 104729 e) mod 2001 - 1000) / 100, in [-10, 10] (bench/peers/peers.mjs uses the same).
// Rate: spring-steps per second. Also at 1e3 .. 1e6 springs (the same total work where it fits),
// and past the last-level cache in blocks that advance several steps at once.
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum w1_variant {
	W1_STEPPER, // spring_stepper_step, one call per spring
	W1_EXACT,   // spring_step_exact, one call per spring
	W1_PLAIN,   // the user's plain C loop over the stepper's coefficients (w1_baseline.c)
	W1_STREAM,  // the streaming limit (w1_stream.c): not a spring
};

typedef struct w1_data {
	spring_params params;
	spring_stepper stepper;
	spring_state *states; // count, array of structs
	float *targets;       // count
} w1_data;

static float w1_target(long i, int epoch)
{
	return (float)((i * 7919L + (long)epoch * 104729L) % 2001L - 1000L) * 0.01f;
}

static void w1_retarget(float *targets, long first, long count, int epoch)
{
	for (long i = first; i < first + count; i++) {
		targets[i] = w1_target(i, epoch);
	}
}

static int w1_prepare(scenario *s)
{
	w1_data *w = calloc(1, sizeof *w);
	if (!w) {
		return 1;
	}
	s->data = w;
	w->states = malloc((size_t)s->count * sizeof *w->states);
	w->targets = malloc((size_t)s->count * sizeof *w->targets);
	if (!w->states || !w->targets || spring_params_from_physical(1.0f, 170.0f, 26.0f, &w->params) != SPRING_OK ||
	    spring_stepper_init(&w->stepper, w->params, BENCH_STEP) != SPRING_OK) {
		return 1;
	}
	return 0;
}

static void w1_reset(scenario *s)
{
	w1_data *w = s->data;
	memset(w->states, 0, (size_t)s->count * sizeof *w->states);
	memset(w->targets, 0, (size_t)s->count * sizeof *w->targets);
}

static void w1_fail(const char *what)
{
	fprintf(stderr, "spring_bench: W1: %s failed\n", what);
	exit(2);
}

static void w1_run_range(scenario *s, long first, long count)
{
	w1_data *w = s->data;
	spring_state *st = w->states;
	const float *tg = w->targets;
	for (int step = 0; step < s->steps; step++) {
		if (step % 100 == 0) {
			w1_retarget(w->targets, first, count, step / 100);
		}
		switch (s->variant) {
		case W1_STEPPER:
			for (long i = first; i < first + count; i++) {
				if (spring_stepper_step(&w->stepper, &st[i], tg[i]) != SPRING_OK) {
					w1_fail("spring_stepper_step");
				}
			}
			break;
		case W1_EXACT:
			for (long i = first; i < first + count; i++) {
				if (spring_step_exact(w->params, &st[i], tg[i], BENCH_STEP) != SPRING_OK) {
					w1_fail("spring_step_exact");
				}
			}
			break;
		case W1_PLAIN: w1_plain_exact(&w->stepper, st + first, tg + first, count); break;
		case W1_STREAM: w1_stream(st + first, tg + first, count); break;
		}
	}
}

static size_t w1_result(const scenario *s, float *out, size_t capacity)
{
	const w1_data *w = s->data;
	size_t n = 0;
	for (long i = 0; i < s->count && n + 2 <= capacity; i++) {
		out[n++] = w->states[i].x;
		out[n++] = w->states[i].v;
	}
	return n;
}

static void w1_release(scenario *s)
{
	w1_data *w = s->data;
	if (w) {
		free(w->states);
		free(w->targets);
		free(w);
	}
	s->data = NULL;
}

static void w1_row(const char *name, const char *baseline, const char *family, double tolerance, int variant, long count,
                   int steps, int threads, int block)
{
	scenario s = {0};
	s.name = name;
	s.baseline = baseline;
	s.unit = "spring-step";
	s.family = family;
	s.tolerance = tolerance;
	s.prepare = w1_prepare;
	s.reset = w1_reset;
	s.run_range = w1_run_range;
	s.result = variant == W1_STREAM ? NULL : w1_result;
	s.release = w1_release;
	s.variant = variant;
	s.count = bench_tiny ? 37 + (count > 10000 ? 64 : 0) : count;
	s.steps = bench_tiny ? 250 : steps;
	s.threads = threads;
	s.block = bench_tiny && block ? 16 : block;
	s.work = (double)s.count * s.steps;
	bench_add(&s);
}

// Steps for a scaling row: 12 million spring-steps per run (W1's work).
static int w1_scaled_steps(long count)
{
	return (int)(12000000L / count);
}

void w1_register(void)
{
	const char *plain = "W1 plain C exact loop (-O2)";
	// spring_step_exact works in double with the transition computed per call; the stepper
	// in float: after 1,200 steps they differ by float rounding noise (measured 1.2e-6 of the
	// largest value; 1e-5 is the bound checked).
	w1_row("W1 spring_stepper_step (per spring)", plain, "w1", 0.0, W1_STEPPER, 10000, 1200, 1, 0);
	w1_row(plain, NULL, "w1", 0.0, W1_PLAIN, 10000, 1200, 1, 0);
	w1_row("W1 streaming loop (limit)", plain, NULL, 0.0, W1_STREAM, 10000, 1200, 1, 0);
	w1_row("W1 spring_step_exact (per spring)", plain, "w1", 1e-5, W1_EXACT, 10000, 1200, 1, 0);
	w1_row("W1 spring_stepper_step, 2 threads", "W1 spring_stepper_step (per spring)", "w1", 0.0, W1_STEPPER, 10000, 1200, 2, 0);
	// Scaling: the same work per spring from 1e3 to 1e6 springs.
	static const long sizes[] = {1000, 100000, 1000000};
	static const char *labels[] = {"1e3", "1e5", "1e6"};
	static char names[2][3][64], families[3][16];
	for (int k = 0; k < 3; k++) {
		snprintf(families[k], sizeof families[k], "w1-%ld", sizes[k]);
		snprintf(names[0][k], sizeof names[0][k], "W1 %s springs: plain C loop", labels[k]);
		snprintf(names[1][k], sizeof names[1][k], "W1 %s springs: spring_stepper_step", labels[k]);
		w1_row(names[0][k], plain, families[k], 0.0, W1_PLAIN, sizes[k], w1_scaled_steps(sizes[k]), 1, 0);
		w1_row(names[1][k], names[0][k], families[k], 0.0, W1_STEPPER, sizes[k], w1_scaled_steps(sizes[k]), 1, 0);
	}
	// Past the last-level cache (1e6 springs are 12 MB): blocks of 4,096 springs (48 KB) each
	// advanced all 12 steps before the next block.
	w1_row("W1 1e6 springs blocked: plain C loop", names[0][2], families[2], 0.0, W1_PLAIN, 1000000, 12, 1, 4096);
	w1_row("W1 1e6 springs blocked: spring_stepper_step", names[1][2], families[2], 0.0, W1_STEPPER, 1000000, 12, 1, 4096);
}
