// SPDX-License-Identifier: MIT
// W1: many independent springs. 10,000 springs (k 170, c 26, m 1) advanced 1,200 steps of
// 1/120 s from rest at 0; every 100 steps every spring gets a new target and keeps its position
// and velocity. Spring i's target in epoch e (steps 100 e .. 100 e + 99) is
// ((7919 i + 104729 e) mod 2001 - 1000) / 100, in [-10, 10] (bench/peers/peers.mjs uses the same).
// Rate: spring-steps per second. Also at 1e3 .. 1e6 springs (the same total work where it fits),
// and past the last-level cache in blocks that advance several steps at once.
#include "bench.h"

#include <spring/batch.h>

#include "simd_internal.h" // the kernels' instruction set, forced per row (src/, white-box)

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum w1_variant {
	W1_STEPPER,      // spring_stepper_step, one call per spring
	W1_EXACT,        // spring_step_exact, one call per spring
	W1_PLAIN,        // the user's plain C loop over the stepper's coefficients (w1_baseline.c)
	W1_STREAM,       // the streaming limit (w1_stream.c): not a spring
	W1_STEP_MANY,    // spring_stepper_step_many over the range
	W1_BATCH,        // spring_batch_step_range (structure of arrays) over the range
	W1_EXACT_CACHED, // spring_step_exact_cached, one call per spring, one cache per thread
	W1_ADVANCE,      // spring_batch_step_n: the steps between two retargets in one call
	W1_BATCH_BASE,   // W1_BATCH on the library before the one-engine work (bench/before.sh)
	W1_ADVANCE_BASE, // W1_ADVANCE on that library
	W1_MANY_BASE,    // W1_STEP_MANY on that library
};

// The batch calls of a variant: this library's, or (SPRING_BENCH_BASE) those of commit 9944929,
// before the one-engine work, linked beside it with their symbols renamed base_* (bench/before.sh;
// spring_batch and its description are the same in both).
typedef struct w1_batch_api {
	spring_result (*init)(spring_batch *out, const spring_batch_desc *desc);
	spring_result (*step_range)(const spring_batch *b, int first, int count, int *bad_index);
	spring_result (*advance)(const spring_batch *b, int first, int count, int steps, int *bad_index);
	spring_result (*step_many)(const spring_stepper *st, spring_state *states, const float *targets, int count);
} w1_batch_api;
static const w1_batch_api w1_batch_now = {spring_batch_init, spring_batch_step_range, spring_batch_step_n,
                                          spring_stepper_step_many};
#ifdef SPRING_BENCH_BASE
spring_result base_spring_batch_init(spring_batch *out, const spring_batch_desc *desc);
spring_result base_spring_batch_step_range(const spring_batch *b, int first, int count, int *bad_index);
spring_result base_spring_batch_advance(const spring_batch *b, int first, int count, int steps, int *bad_index);
spring_result base_spring_stepper_step_many(const spring_stepper *st, spring_state *states, const float *targets, int count);
static const w1_batch_api w1_batch_base = {base_spring_batch_init, base_spring_batch_step_range, base_spring_batch_advance,
                                           base_spring_stepper_step_many};
#endif

static const w1_batch_api *w1_batch_calls(int variant)
{
#ifdef SPRING_BENCH_BASE
	if (variant == W1_BATCH_BASE || variant == W1_ADVANCE_BASE || variant == W1_MANY_BASE) {
		return &w1_batch_base;
	}
#else
	(void)variant;
#endif
	return &w1_batch_now;
}

// Whether variant v steps a spring_batch (its own x and v arrays).
static int w1_batched(int v)
{
	return v == W1_BATCH || v == W1_ADVANCE || v == W1_BATCH_BASE || v == W1_ADVANCE_BASE;
}

// One thread's springs: items [first, first + count) of the row, in arrays of their own
// (64-byte aligned, allocated and first touched by the thread that steps them).
typedef struct w1_part {
	long first, count;
	spring_state *states; // count, array of structs
	float *targets;       // count
	float *x, *v;         // count each: the batch's structure of arrays
	spring_batch batch;   // over x, v and targets
} w1_part;

typedef struct w1_data {
	spring_params params;
	spring_stepper stepper;
	w1_part parts[BENCH_MAX_THREADS];
} w1_data;

static float w1_target(long i, int epoch)
{
	return (float)((i * 7919L + (long)epoch * 104729L) % 2001L - 1000L) * 0.01f;
}

// The targets repeat every 2001 springs, and epoch e's are epoch 0's shifted by e * w1_shift
// springs (7919 has an inverse modulo 2001): target(i, e) = g_w1_table[(i + e * w1_shift) mod
// 2001]. So a retarget copies runs of a table (two periods long) instead of computing an
// integer remainder per spring; when the 1e6 rows ran 12 steps, that remainder was a fifth of
// their time (3% at 1e3 springs): the host's work, not the library's.
enum { w1_period = 2001 };
static float g_w1_table[2 * w1_period];
static long w1_shift;

static void w1_make_table(void)
{
	long inverse = 1;
	while (inverse * 7919L % w1_period != 1) {
		inverse++;
	}
	w1_shift = 104729L * inverse % w1_period;
	for (long j = 0; j < 2 * w1_period; j++) {
		g_w1_table[j] = w1_target(j, 0);
	}
}

// Springs [first, first + count) of the row get epoch `epoch`'s targets, into `targets` (which
// holds spring `first` at index 0).
static void w1_retarget(float *targets, long first, long count, int epoch)
{
	long j = (first % w1_period + (long)epoch % w1_period * w1_shift) % w1_period;
	for (long done = 0; done < count;) {
		long n = count - done < w1_period ? count - done : w1_period;
		memcpy(targets + done, g_w1_table + j, (size_t)n * sizeof *targets);
		done += n;
	}
}

// --tiny: the table gives exactly the formula's targets (bit for bit) for every epoch a row uses.
static int w1_check_table(void)
{
	float got[3 * w1_period];
	for (int e = 0; e <= 120; e++) {
		w1_retarget(got, 1000 * e, 3 * w1_period, e);
		for (long i = 0; i < 3 * w1_period; i++) {
			float want = w1_target(1000L * e + i, e);
			if (memcmp(&got[i], &want, sizeof want) != 0) {
				fprintf(stderr, "spring_bench: W1: the target table differs from the formula (epoch %d, spring %ld)\n", e,
				        1000L * e + i);
				return 1;
			}
		}
	}
	return 0;
}

static void *w1_alloc(long count, size_t size)
{
	size_t bytes = ((size_t)count * size + 63) / 64 * 64;
	return aligned_alloc(64, bytes ? bytes : 64);
}

static int w1_prepare(scenario *s)
{
	w1_data *w = calloc(1, sizeof *w);
	if (!w) {
		return 1;
	}
	s->data = w;
	return spring_params_from_physical(1.0f, 170.0f, 26.0f, &w->params) != SPRING_OK ||
	       spring_stepper_init(&w->stepper, w->params, BENCH_STEP) != SPRING_OK;
}

static void w1_zero_part(const scenario *s, w1_part *p)
{
	memset(p->states, 0, (size_t)p->count * sizeof *p->states);
	memset(p->targets, 0, (size_t)p->count * sizeof *p->targets);
	if (w1_batched(s->variant)) {
		memset(p->x, 0, (size_t)p->count * sizeof *p->x);
		memset(p->v, 0, (size_t)p->count * sizeof *p->v);
	}
}

// On the part's own thread.
static int w1_prepare_part(scenario *s, int part, long first, long count)
{
	w1_data *w = s->data;
	w1_part *p = &w->parts[part];
	p->first = first;
	p->count = count;
	p->states = w1_alloc(count, sizeof *p->states);
	p->targets = w1_alloc(count, sizeof *p->targets);
	if (!p->states || !p->targets) {
		return 1;
	}
	if (w1_batched(s->variant)) {
		p->x = w1_alloc(count, sizeof *p->x);
		p->v = w1_alloc(count, sizeof *p->v);
		spring_batch_desc d = {0};
		d.x = p->x;
		d.v = p->v;
		d.target = p->targets;
		d.count = (int)count;
		d.params = w->params;
		d.step = BENCH_STEP;
		if (!p->x || !p->v || w1_batch_calls(s->variant)->init(&p->batch, &d) != SPRING_OK) {
			return 1;
		}
	}
	w1_zero_part(s, p);
	return 0;
}

static void w1_reset(scenario *s)
{
	// Every row picks its batch kernels (AUTO: what the library would choose) before it runs;
	// the threads of a two-thread row only read the choice.
	if (!spring_internal_isa_force((spring_internal_isa)s->option)) {
		fprintf(stderr, "spring_bench: W1: batch path %d is not available\n", s->option);
		exit(2);
	}
}

static void w1_reset_part(scenario *s, int part, long first, long count)
{
	(void)first;
	(void)count;
	w1_zero_part(s, &((w1_data *)s->data)->parts[part]);
}

static void w1_fail(const char *what)
{
	fprintf(stderr, "spring_bench: W1: %s failed\n", what);
	exit(2);
}

static void w1_run_range(scenario *s, int part, long first, long count)
{
	w1_data *w = s->data;
	w1_part *p = &w->parts[part];
	long local = first - p->first; // the range in the part's arrays
	spring_state *st = p->states + local;
	float *tg = p->targets + local;
	spring_exact_cache cache = {0};
	const w1_batch_api *calls = w1_batch_calls(s->variant);
	if (s->variant == W1_ADVANCE || s->variant == W1_ADVANCE_BASE) {
		// The library's own blocking: every step up to the next retarget in one call.
		for (int step = 0; step < s->steps;) {
			if (step % 100 == 0) {
				w1_retarget(tg, first, count, step / 100);
			}
			int n = 100 - step % 100 < s->steps - step ? 100 - step % 100 : s->steps - step;
			if (calls->advance(&p->batch, (int)local, (int)count, n, NULL) != SPRING_OK) {
				w1_fail("spring_batch_step_n");
			}
			step += n;
		}
		return;
	}
	for (int step = 0; step < s->steps; step++) {
		if (step % 100 == 0) {
			w1_retarget(tg, first, count, step / 100);
		}
		switch (s->variant) {
		case W1_STEPPER:
			for (long i = 0; i < count; i++) {
				if (spring_stepper_step(&w->stepper, &st[i], tg[i]) != SPRING_OK) {
					w1_fail("spring_stepper_step");
				}
			}
			break;
		case W1_EXACT:
			for (long i = 0; i < count; i++) {
				if (spring_step_exact(w->params, &st[i], tg[i], BENCH_STEP) != SPRING_OK) {
					w1_fail("spring_step_exact");
				}
			}
			break;
		case W1_PLAIN: w1_plain_exact(&w->stepper, st, tg, count); break;
		case W1_STREAM: w1_stream(st, tg, count); break;
		case W1_EXACT_CACHED:
			for (long i = 0; i < count; i++) {
				if (spring_step_exact_cached(&cache, w->params, &st[i], tg[i], BENCH_STEP) != SPRING_OK) {
					w1_fail("spring_step_exact_cached");
				}
			}
			break;
		case W1_STEP_MANY:
		case W1_MANY_BASE:
			if (calls->step_many(&w->stepper, st, tg, (int)count) != SPRING_OK) {
				w1_fail("spring_stepper_step_many");
			}
			break;
		case W1_BATCH:
		case W1_BATCH_BASE:
			if (calls->step_range(&p->batch, (int)local, (int)count, NULL) != SPRING_OK) {
				w1_fail("spring_batch_step_range");
			}
			break;
		}
	}
}

static size_t w1_result(const scenario *s, float *out, size_t capacity)
{
	const w1_data *w = s->data;
	size_t n = 0;
	for (int k = 0; k < s->threads; k++) {
		const w1_part *p = &w->parts[k];
		for (long i = 0; i < p->count && n + 2 <= capacity; i++) {
			out[n++] = p->x ? p->x[i] : p->states[i].x;
			out[n++] = p->x ? p->v[i] : p->states[i].v;
		}
	}
	return n;
}

static void w1_release(scenario *s)
{
	w1_data *w = s->data;
	for (int k = 0; w && k < BENCH_MAX_THREADS; k++) {
		free(w->parts[k].states);
		free(w->parts[k].targets);
		free(w->parts[k].x);
		free(w->parts[k].v);
	}
	free(w);
	s->data = NULL;
}

static scenario *w1_row(const char *name, const char *baseline, const char *family, double tolerance, int variant, long count,
                        int steps, int threads, int block)
{
	scenario s = {0};
	s.name = name;
	s.baseline = baseline;
	s.unit = "spring-step";
	s.family = family;
	s.tolerance = tolerance;
	s.prepare = w1_prepare;
	s.prepare_part = w1_prepare_part;
	s.reset = w1_reset;
	s.reset_part = w1_reset_part;
	s.run_range = w1_run_range;
	s.result = variant == W1_STREAM ? NULL : w1_result;
	s.release = w1_release;
	s.variant = variant;
	s.count = bench_tiny ? 37 + (count > 10000 ? 64 : 0) : count;
	s.steps = bench_tiny ? 250 : steps;
	s.threads = threads;
	s.split = 16; // two threads' springs split at a multiple of 16 floats (64 bytes, one AVX-512 vector)
	s.block = bench_tiny && block ? 16 : block;
	s.work = (double)s.count * s.steps;
	return bench_add(&s);
}

// Steps for a scaling row: 12 million spring-steps per run (W1's work).
// Steps for a scaling row: about W1's 12 M spring-steps per run, in whole epochs of 100 steps
// (1e3 springs: 12,000 steps, 1e5 and 1e6: 100), so that every size retargets once per 100 steps
// as W1 does. (Runs of 12 steps at 1e6 springs retargeted at their first step: one spring in 12
// steps got a new target, eight times W1's share, and that write pass over 4 MB was charged to
// the stepping.)
static int w1_scaled_steps(long count)
{
	long steps = 12000000L / count / 100 * 100;
	return steps < 100 ? 100 : (int)steps;
}

void w1_register(void)
{
	w1_make_table();
	if (bench_tiny && w1_check_table() != 0) {
		exit(1);
	}
	const char *plain = "W1 plain C exact loop (-O2)", *stepper = "W1 spring_stepper_step (per spring)";
	const char *many = "W1 spring_stepper_step_many", *batch = "W1 spring_batch";
	// spring_step_exact works in double with the transition computed per call; the stepper
	// in float: after 1,200 steps they differ by float rounding noise (measured 1.2e-6 of the
	// largest value; 1e-5 is the bound checked). Every other row is bit for bit.
	w1_row(stepper, plain, "w1", 0.0, W1_STEPPER, 10000, 1200, 1, 0);
	w1_row(plain, NULL, "w1", 0.0, W1_PLAIN, 10000, 1200, 1, 0);
	w1_row("W1 streaming loop (limit)", plain, NULL, 0.0, W1_STREAM, 10000, 1200, 1, 0);
	w1_row("W1 spring_step_exact (per spring)", plain, "w1", 1e-5, W1_EXACT, 10000, 1200, 1, 0);
	scenario *cached = w1_row("W1 spring_step_exact_cached (per spring)", "W1 spring_step_exact (per spring)", "w1", 0.0,
	                          W1_EXACT_CACHED, 10000, 1200, 1, 0);
	if (cached) {
		cached->reference = "W1 spring_step_exact (per spring)"; // the same bits as the uncached call
	}
	w1_row(many, plain, "w1", 0.0, W1_STEP_MANY, 10000, 1200, 1, 0);
	w1_row(batch, plain, "w1", 0.0, W1_BATCH, 10000, 1200, 1, 0);
	// Each instruction set of the batch kernels this machine runs (the library picks the widest).
	static char path_names[SPRING_INTERNAL_ISA_COUNT][64];
	for (int p = SPRING_INTERNAL_ISA_SCALAR; p < SPRING_INTERNAL_ISA_COUNT; p++) {
		if (spring_internal_isa_force((spring_internal_isa)p)) {
			snprintf(path_names[p], sizeof path_names[p], "W1 spring_batch, %s kernels only",
			         spring_internal_isa_name((spring_internal_isa)p));
			scenario *row = w1_row(path_names[p], batch, "w1", 0.0, W1_BATCH, 10000, 1200, 1, 0);
			if (row) {
				row->option = p;
			}
		}
	}
	spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
	w1_row("W1 spring_batch_step_n", batch, "w1", 0.0, W1_ADVANCE, 10000, 1200, 1, 0);
#ifdef SPRING_BENCH_BASE
	// The library before the one-engine work (9944929), beside this one's rows of the same work.
	w1_row("W1 spring_batch at the one-engine base (9944929)", batch, "w1", 0.0, W1_BATCH_BASE, 10000, 1200, 1, 0);
	w1_row("W1 spring_batch_step_n at the one-engine base (9944929)", "W1 spring_batch_step_n", "w1", 0.0, W1_ADVANCE_BASE, 10000,
	       1200, 1, 0);
	w1_row("W1 spring_stepper_step_many at the one-engine base (9944929)", many, "w1", 0.0, W1_MANY_BASE, 10000, 1200, 1, 0);
#endif
	w1_row("W1 spring_stepper_step_many, 2 threads", many, "w1", 0.0, W1_STEP_MANY, 10000, 1200, 2, 0);
	w1_row("W1 spring_batch, 2 threads", batch, "w1", 0.0, W1_BATCH, 10000, 1200, 2, 0);
	w1_row("W1 spring_stepper_step, 2 threads", stepper, "w1", 0.0, W1_STEPPER, 10000, 1200, 2, 0);
	// Scaling: the same work per run from 1e3 to 1e6 springs (1e4 is W1 itself).
	static const long sizes[] = {1000, 100000, 1000000};
	static const char *labels[] = {"1e3", "1e5", "1e6"};
	static const int variants[] = {W1_PLAIN, W1_STEPPER, W1_STEP_MANY, W1_BATCH};
	static const char *paths[] = {"plain C loop", "spring_stepper_step", "spring_stepper_step_many", "spring_batch"};
	const char *w1_names[] = {plain, stepper, many, batch};
	static char names[3][4][80], blocked[4][80], families[3][16];
	for (int k = 0; k < 3; k++) {
		snprintf(families[k], sizeof families[k], "w1-%ld", sizes[k]);
		for (int p = 0; p < 4; p++) {
			snprintf(names[k][p], sizeof names[k][p], "W1 %s springs: %s", labels[k], paths[p]);
			w1_row(names[k][p], w1_names[p], families[k], 0.0, variants[p], sizes[k], w1_scaled_steps(sizes[k]), 1, 0);
		}
	}
	// Past the caches of a core (1e6 springs are 12 MB; this machine's second level is 2 MB):
	// blocks of 2,048 springs (24 KB, half of a 48 KB first-level data cache; 4,096 springs filled
	// it and ran about 10% slower), each advanced all its steps before the next (the batch through
	// its range entry point).
	for (int p = 0; p < 4; p++) {
		snprintf(blocked[p], sizeof blocked[p], "W1 1e6 springs blocked: %s", paths[p]);
		w1_row(blocked[p], names[2][p], families[2], 0.0, variants[p], 1000000, w1_scaled_steps(1000000), 1, 2048);
	}
	// The library's blocking (spring_batch_step_n), past the cache and at the smallest size.
	w1_row("W1 1e6 springs: spring_batch_step_n", names[2][3], families[2], 0.0, W1_ADVANCE, 1000000, w1_scaled_steps(1000000), 1,
	       0);
	w1_row("W1 1e3 springs: spring_batch_step_n", names[0][3], families[0], 0.0, W1_ADVANCE, 1000, w1_scaled_steps(1000), 1, 0);
	w1_row("W1 1e5 springs: spring_batch_step_n", names[1][3], families[1], 0.0, W1_ADVANCE, 100000, w1_scaled_steps(100000), 1,
	       0);
	// The memory's own limit one step per pass: the streaming loop at the smallest and largest
	// sizes (what "W1 1e6 springs: spring_batch", which cannot block, is to be read against).
	w1_row("W1 1e3 springs: streaming loop (limit)", "W1 streaming loop (limit)", NULL, 0.0, W1_STREAM, 1000,
	       w1_scaled_steps(1000), 1, 0);
	w1_row("W1 1e6 springs: streaming loop (limit)", "W1 1e3 springs: streaming loop (limit)", NULL, 0.0, W1_STREAM, 1000000,
	       w1_scaled_steps(1000000), 1, 0);
}
