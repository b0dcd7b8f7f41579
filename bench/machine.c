// SPDX-License-Identifier: MIT
// The machine's own ceiling for the two-thread rows: loops that only compute (no memory beyond
// registers), run on one thread and on two, interleaved with the other rows. Their two-thread
// speed-up is the most any workload can show in the same run: when it is well below 2, the
// second core was not free (a shared host or other work on the machine), and the two-thread rows
// of W1, W2 and the rig are to be read against it. Three loops, each with enough independent
// chains to keep its arithmetic units busy (two threads on one physical core would show): scalar
// integer arithmetic, and float multiply-adds (a multiply and an add: contraction is off) in
// AVX2 and AVX-512 vectors where the machine runs them. Rate: iterations per second (one
// iteration: six shift-xor-multiply steps, or a multiply and an add on twelve vectors).
#include "bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum machine_variant { MACHINE_SCALAR, MACHINE_AVX2, MACHINE_AVX512 };

enum { machine_items = 64 }; // chains of arithmetic per run, split between the threads

typedef struct machine_data {
	float out[machine_items];
} machine_data;

// Six independent chains of integer operations (xorshift and multiply), seeded by `item`: more
// multiplies than the core's multiplier can start, so the loop is bound by the arithmetic units,
// not by one chain's latency (a core shared with another thread shows it). Not inlined, so the
// compiler cannot interchange it with the loop over items and vectorise across them.
static __attribute__((noinline)) float machine_scalar(long item, int iterations)
{
	uint64_t a[6];
	for (int j = 0; j < 6; j++) {
		a[j] = 0x9e3779b97f4a7c15u * (uint64_t)(item + 1 + j);
	}
	for (int i = 0; i < iterations; i++) {
		for (int j = 0; j < 6; j++) {
			a[j] ^= a[j] >> 29;
			a[j] *= 0xbf58476d1ce4e5b9u;
		}
	}
	return (float)((a[0] + a[1] + a[2] + a[3] + a[4] + a[5]) >> 40);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define MACHINE_X86 1
typedef float machine_vf8 __attribute__((vector_size(32)));
typedef float machine_vf16 __attribute__((vector_size(64)));

// Twelve independent vectors, each x = x * 0.999 + c per iteration (a multiply, then an add):
// more than the vector units can start, so the loop is bound by them, not by latency.
#define MACHINE_VECTOR_LOOP(VF, LANES)       \
	VF x[12], m, c;                          \
	for (int k = 0; k < LANES; k++) {        \
		m[k] = 0.999f;                       \
		c[k] = 1e-3f * (float)(k + 1);       \
	}                                        \
	for (int j = 0; j < 12; j++) {           \
		for (int k = 0; k < LANES; k++) {    \
			x[j][k] = (float)(item + j + k); \
		}                                    \
	}                                        \
	for (int i = 0; i < iterations; i++) {   \
		for (int j = 0; j < 12; j++) {       \
			x[j] = x[j] * m + c;             \
		}                                    \
	}                                        \
	float sum = 0.0f;                        \
	for (int j = 0; j < 12; j++) {           \
		for (int k = 0; k < LANES; k++) {    \
			sum += x[j][k];                  \
		}                                    \
	}                                        \
	return sum;

static __attribute__((noinline, target("avx2"))) float machine_avx2(long item, int iterations)
{
	MACHINE_VECTOR_LOOP(machine_vf8, 8)
}

static __attribute__((noinline, target("avx512f"))) float machine_avx512(long item, int iterations)
{
	MACHINE_VECTOR_LOOP(machine_vf16, 16)
}
#else
#define MACHINE_X86 0
#endif

static int machine_prepare(scenario *s)
{
	s->data = calloc(1, sizeof(machine_data));
	return s->data == NULL;
}

static void machine_run_range(scenario *s, int part, long first, long count)
{
	(void)part;
	machine_data *w = s->data;
	for (long i = first; i < first + count; i++) {
		float r = 0.0f;
		switch (s->variant) {
		case MACHINE_SCALAR: r = machine_scalar(i, s->steps); break;
#if MACHINE_X86
		case MACHINE_AVX2: r = machine_avx2(i, s->steps); break;
		case MACHINE_AVX512: r = machine_avx512(i, s->steps); break;
#endif
		}
		w->out[i] = r;
	}
}

static size_t machine_result(const scenario *s, float *out, size_t capacity)
{
	const machine_data *w = s->data;
	size_t n = (size_t)s->count < capacity ? (size_t)s->count : capacity;
	memcpy(out, w->out, n * sizeof *out);
	return n;
}

static void machine_release(scenario *s)
{
	free(s->data);
	s->data = NULL;
}

static void machine_row(const char *name, const char *baseline, const char *family, int variant, int iterations, int threads)
{
	scenario s = {0};
	s.name = name;
	s.baseline = baseline;
	s.unit = "iteration";
	s.family = family;
	s.prepare = machine_prepare;
	s.run_range = machine_run_range;
	s.result = machine_result;
	s.release = machine_release;
	s.variant = variant;
	s.count = machine_items;
	s.steps = bench_tiny ? 100 : iterations;
	s.threads = threads;
	s.work = (double)s.count * s.steps;
	bench_add(&s);
}

void machine_register(void)
{
	// About 10 ms per run on one thread (the W1 rows take 3 to 40 ms).
	machine_row("machine: pure compute, scalar", NULL, "machine-scalar", MACHINE_SCALAR, 40000, 1);
	machine_row("machine: pure compute, scalar, 2 threads", "machine: pure compute, scalar", "machine-scalar", MACHINE_SCALAR,
	            40000, 2);
#if MACHINE_X86
	if (__builtin_cpu_supports("avx2")) {
		machine_row("machine: pure compute, avx2", NULL, "machine-avx2", MACHINE_AVX2, 40000, 1);
		machine_row("machine: pure compute, avx2, 2 threads", "machine: pure compute, avx2", "machine-avx2", MACHINE_AVX2, 40000,
		            2);
	}
	if (__builtin_cpu_supports("avx512f")) {
		machine_row("machine: pure compute, avx512", NULL, "machine-avx512", MACHINE_AVX512, 20000, 1);
		machine_row("machine: pure compute, avx512, 2 threads", "machine: pure compute, avx512", "machine-avx512", MACHINE_AVX512,
		            20000, 2);
	}
#endif
}
