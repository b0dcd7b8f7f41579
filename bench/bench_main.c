// SPDX-License-Identifier: MIT
// libspring benchmark suite. Every row of the scenario table is timed `reps` times, the rows
// interleaved (every repetition runs every row once, so drift hits them all alike), and
// reported as the median rate and as a ratio to the row it is compared with: the machine is
// small and noisy, so absolute times mean little and side-by-side ratios mean much.
//
//   spring_bench [--reps N] [--csv FILE] [--only TEXT] [--rig FILE] [--markdown] [--tiny]
//   spring_bench N [FILE]          (the same as --reps N --csv FILE)
//
// --markdown prints the table and the targets as Markdown (for bench/RESULTS.md).
// --tiny runs every row once at a tiny size and checks that the rows of a family (the same
// workload through different code paths: per spring, batch, group, threads, blocks) agree bit
// for bit, or within the row's stated bound. It is registered with CTest; it never checks time.
#define _POSIX_C_SOURCE 200809L // clock_gettime, sched_yield, getrusage, sysconf
#include "bench.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

int bench_tiny;
static int g_markdown;

enum { max_rows = 96 };
static scenario g_rows[max_rows];
static int g_row_count;

scenario *bench_add(const scenario *s)
{
	if (g_row_count == max_rows) {
		fprintf(stderr, "spring_bench: more than %d rows\n", max_rows);
		return NULL;
	}
	g_rows[g_row_count] = *s;
	if (g_rows[g_row_count].threads < 1 || g_rows[g_row_count].threads > BENCH_MAX_THREADS) {
		g_rows[g_row_count].threads = g_rows[g_row_count].threads < 1 ? 1 : BENCH_MAX_THREADS;
	}
	return &g_rows[g_row_count++];
}

// A monotonic clock, the same for every thread (the two-thread runs compare their readings).
static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_part(const scenario *s, int part, long *first, long *count)
{
	long align = s->split > 1 ? s->split : 1;
	long begin = 0, end = s->count;
	if (part > 0) {
		begin = (s->count * part / s->threads + align / 2) / align * align;
	}
	if (part + 1 < s->threads) {
		end = (s->count * (part + 1) / s->threads + align / 2) / align * align;
	}
	begin = begin < s->count ? begin : s->count;
	end = end < begin ? begin : end < s->count ? end : s->count;
	*first = begin;
	*count = end - begin;
}

// Items [first, first + count) of one part in blocks of s->block (each block runs all its steps).
static void run_blocks(scenario *s, int part, long first, long count)
{
	if (s->block <= 0) {
		s->run_range(s, part, first, count);
		return;
	}
	for (long b = first; b < first + count; b += s->block) {
		long n = first + count - b < s->block ? first + count - b : s->block;
		s->run_range(s, part, b, n);
	}
}

// The threads of the two-thread rows. Part 0 runs on the main thread and part k > 0 on worker k,
// made once for the whole program: a timed run never includes a thread's creation. For every
// task the main thread wakes the workers (a condition variable), does part 0 itself and waits
// for them. A timed run starts with every part's thread spinning at a rendezvous, so all start
// together (waking a sleeping thread is not timed), with their clocks read inside.
enum bench_task { TASK_PREPARE, TASK_RESET, TASK_RUN, TASK_QUIT };

static struct bench_pool {
	pthread_t workers[BENCH_MAX_THREADS];
	int started; // workers made
	pthread_mutex_t lock;
	pthread_cond_t wake, done;
	unsigned generation; // bumped for every task
	int finished;        // workers done with the current task
	enum bench_task task;
	scenario *row;
	atomic_int arrived; // threads at the start rendezvous of a timed run
	double start[BENCH_MAX_THREADS], end[BENCH_MAX_THREADS];
	int failed[BENCH_MAX_THREADS];
} g_pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

// Part `part` of the current task, on its own thread.
static void pool_do(int part)
{
	scenario *s = g_pool.row;
	if (part >= s->threads) {
		return;
	}
	long first, count;
	bench_part(s, part, &first, &count);
	switch (g_pool.task) {
	case TASK_PREPARE: g_pool.failed[part] = s->prepare_part ? s->prepare_part(s, part, first, count) : 0; break;
	case TASK_RESET:
		if (s->reset_part) {
			s->reset_part(s, part, first, count);
		}
		break;
	case TASK_RUN: {
		atomic_fetch_add(&g_pool.arrived, 1);
		while (atomic_load(&g_pool.arrived) < s->threads) {
			sched_yield(); // the other thread may be waiting for this core
		}
		g_pool.start[part] = now_seconds();
		run_blocks(s, part, first, count);
		g_pool.end[part] = now_seconds();
		break;
	}
	case TASK_QUIT: break;
	}
}

static void *pool_worker(void *arg)
{
	int part = (int)(intptr_t)arg;
	unsigned seen = 0;
	for (;;) {
		pthread_mutex_lock(&g_pool.lock);
		while (g_pool.generation == seen) {
			pthread_cond_wait(&g_pool.wake, &g_pool.lock);
		}
		seen = g_pool.generation;
		enum bench_task task = g_pool.task;
		pthread_mutex_unlock(&g_pool.lock);
		if (task == TASK_QUIT) {
			return NULL;
		}
		pool_do(part);
		pthread_mutex_lock(&g_pool.lock);
		g_pool.finished++;
		pthread_cond_signal(&g_pool.done);
		pthread_mutex_unlock(&g_pool.lock);
	}
}

// Runs `task` for every part of row `s` (on one thread when the row has one part).
static void pool_run(enum bench_task task, scenario *s)
{
	g_pool.row = s;
	g_pool.task = task;
	atomic_store(&g_pool.arrived, 0);
	if (s->threads == 1) {
		pool_do(0);
		return;
	}
	for (; g_pool.started < s->threads - 1; g_pool.started++) {
		int part = g_pool.started + 1;
		if (pthread_create(&g_pool.workers[part], NULL, pool_worker, (void *)(intptr_t)part) != 0) {
			fprintf(stderr, "spring_bench: pthread_create failed\n");
			exit(2);
		}
	}
	pthread_mutex_lock(&g_pool.lock);
	g_pool.finished = 0;
	g_pool.generation++;
	pthread_cond_broadcast(&g_pool.wake);
	pthread_mutex_unlock(&g_pool.lock);
	pool_do(0);
	pthread_mutex_lock(&g_pool.lock);
	while (g_pool.finished < g_pool.started) {
		pthread_cond_wait(&g_pool.done, &g_pool.lock);
	}
	pthread_mutex_unlock(&g_pool.lock);
}

static void pool_stop(void)
{
	if (g_pool.started == 0) {
		return;
	}
	pthread_mutex_lock(&g_pool.lock);
	g_pool.task = TASK_QUIT;
	g_pool.generation++;
	pthread_cond_broadcast(&g_pool.wake);
	pthread_mutex_unlock(&g_pool.lock);
	for (int k = 1; k <= g_pool.started; k++) {
		pthread_join(g_pool.workers[k], NULL);
	}
	g_pool.started = 0;
}

// Prepares a row: `prepare` on the main thread, then each part's `prepare_part` on its thread.
static int prepare_row(scenario *s)
{
	if (s->prepare && s->prepare(s) != 0) {
		return 1;
	}
	pool_run(TASK_PREPARE, s);
	for (int k = 0; k < s->threads; k++) {
		if (g_pool.failed[k]) {
			return 1;
		}
	}
	return 0;
}

// One timed run (the reset before it untimed): from the first part's start to the last part's
// end, as read inside the threads. Not the slowest part's own time: when the two threads share
// one core (the other busy), one part may run to its end before the other starts, and only the
// span shows it.
// Each part's own time is kept in `s->part_times[k][rep]`.
static double run_once(scenario *s, int rep)
{
	if (s->reset) {
		s->reset(s);
	}
	pool_run(TASK_RESET, s);
	pool_run(TASK_RUN, s);
	double first = g_pool.start[0], last = g_pool.end[0];
	for (int k = 0; k < s->threads; k++) {
		first = fmin(first, g_pool.start[k]);
		last = fmax(last, g_pool.end[k]);
		s->part_times[k][rep] = g_pool.end[k] - g_pool.start[k];
	}
	return last - first;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double tmp[BENCH_MAX_REPS];
	memcpy(tmp, v, (size_t)n * sizeof *v);
	qsort(tmp, (size_t)n, sizeof *tmp, compare_doubles);
	return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

static const scenario *find_row(const char *name)
{
	for (int i = 0; i < g_row_count; i++) {
		if (name && strcmp(g_rows[i].name, name) == 0) {
			return &g_rows[i];
		}
	}
	return NULL;
}

// Rates in the largest prefix that keeps the number >= 1 (M, G).
static void format_rate(double rate, const char *unit, char *out, size_t size)
{
	if (rate >= 1e9) {
		snprintf(out, size, "%.2f G %ss/s", rate / 1e9, unit);
	} else if (rate >= 1e6) {
		snprintf(out, size, "%.1f M %ss/s", rate / 1e6, unit);
	} else {
		snprintf(out, size, "%.0f k %ss/s", rate / 1e3, unit);
	}
}

// --tiny: every row of a family against the family's first row.
static int check_families(void)
{
	int failures = 0, checked = 0;
	enum { cap = 1 << 20 };
	float *ref = malloc(cap * sizeof *ref), *got = malloc(cap * sizeof *got);
	if (!ref || !got) {
		fprintf(stderr, "spring_bench: out of memory\n");
		exit(2);
	}
	for (int i = 0; i < g_row_count; i++) {
		const scenario *s = &g_rows[i];
		if (!s->family || !s->result) {
			continue;
		}
		const scenario *first = s->reference ? find_row(s->reference) : NULL;
		for (int j = 0; j < i && !first; j++) {
			if (g_rows[j].family && strcmp(g_rows[j].family, s->family) == 0 && g_rows[j].result) {
				first = &g_rows[j];
			}
		}
		if (!first) {
			continue;
		}
		size_t n = first->result(first, ref, cap), m = s->result(s, got, cap);
		double largest = 0.0, worst = 0.0;
		size_t differing = 0;
		for (size_t k = 0; k < n && k < m; k++) {
			largest = fmax(largest, fabs((double)ref[k]));
		}
		for (size_t k = 0; k < n && k < m; k++) {
			double d = fabs((double)got[k] - (double)ref[k]);
			if (memcmp(&got[k], &ref[k], sizeof got[k]) != 0) {
				differing++;
				worst = fmax(worst, isnan(d) ? INFINITY : d);
			}
		}
		double bound = s->tolerance * fmax(largest, 1.0);
		int ok = n == m && n > 0 && (s->tolerance == 0.0 ? differing == 0 : worst <= bound);
		checked++;
		if (ok) {
			printf("agree  %-44s = %-36s %zu values, %s\n", s->name, first->name, n,
			       s->tolerance == 0.0 ? "bit for bit" : "within the bound");
			if (s->tolerance != 0.0) {
				printf("       largest difference %.3g (bound %.3g)\n", worst, bound);
			}
		} else {
			failures++;
			printf("DIFFER %-44s vs %-36s %zu/%zu values, %zu differ, largest difference %.3g (bound %.3g)\n", s->name,
			       first->name, m, n, differing, worst, bound);
		}
	}
	free(ref);
	free(got);
	printf("%d comparisons, %d failed\n", checked, failures);
	return failures;
}

// The performance targets that one run of this program can judge (the peers' are judged in
// bench/peers/peers.mjs). A target whose rows are absent is skipped.
typedef struct bench_target {
	const char *row;
	const char *baseline; // NULL: an absolute rate
	double minimum;       // speed ratio vs baseline, or rate per second
	const char *what;
} bench_target;

static const bench_target g_targets[] = {
	{"W1 spring_stepper_step_many", NULL, 3e9, ">= 3 G spring-steps/s on one core"},
	{"W1 spring_batch", NULL, 3e9, ">= 3 G spring-steps/s on one core"},
	{"W1 spring_stepper_step_many", "W1 plain C exact loop (-O2)", 2.5, ">= 2.5x the plain C exact loop"},
	{"W1 spring_batch", "W1 plain C exact loop (-O2)", 2.5, ">= 2.5x the plain C exact loop"},
	{"W1 spring_stepper_step_many", "W1 streaming loop (limit)", 0.6, ">= 60% of the streaming loop"},
	{"W1 spring_batch", "W1 streaming loop (limit)", 0.6, ">= 60% of the streaming loop"},
	{"W1 spring_stepper_step_many, 2 threads", "W1 spring_stepper_step_many", 1.8, ">= 1.8x one thread"},
	{"W1 spring_batch, 2 threads", "W1 spring_batch", 1.8, ">= 1.8x one thread"},
	{"W1 spring_step_exact_cached (per spring)", "W1 spring_step_exact (per spring)", 4.0, ">= 4x the uncached exact step"},
	{"W1 1e6 springs: spring_batch", "W1 1e6 springs: streaming loop (limit)", 0.6, ">= 60% of the streaming loop there"},
	{"W2 spring_chain2d (per chain)", "W2 spring_chain2d before the speed-ups (3ec4606)", 3.0, ">= 3x before the speed-ups"},
	{"W2 spring_chain (per chain)", "W2 spring_chain before the speed-ups (3ec4606)", 5.0, ">= 5x before the speed-ups"},
	{"W2 spring_chain2d_group", NULL, 100e6, ">= 100 M bone-frames/s on one core"},
	{"W2 spring_chain_group", NULL, 30e6, ">= 30 M bone-frames/s on one core"},
	{"W2 spring_chain2d_group, 2 threads", "W2 spring_chain2d_group", 1.8, ">= 1.8x one thread"},
	{"W2 spring_chain_group, 2 threads", "W2 spring_chain_group", 1.8, ">= 1.8x one thread"},
};

// Costs per item that stay flat across sizes: the slowest row of a family runs at least 0.8 of
// the fastest one's rate (within 20%, whichever sizes they are). Rows absent from a run are left
// out; a family with fewer than two rows is not judged.
typedef struct bench_flat {
	const char *what;
	const char *rows[5];
} bench_flat;

static const bench_flat g_flat[] = {
	{"W1 spring_batch: cost per spring flat from 1e3 to 1e6 springs (blocked at 1e6)",
     {"W1 1e3 springs: spring_batch", "W1 spring_batch", "W1 1e5 springs: spring_batch", "W1 1e6 springs blocked: spring_batch"}},
	{"W1 spring_batch_step_n: cost per spring flat from 1e3 to 1e6 springs",
     {"W1 1e3 springs: spring_batch_step_n", "W1 spring_batch_step_n", "W1 1e5 springs: spring_batch_step_n",
      "W1 1e6 springs: spring_batch_step_n"}},
	{"W2 spring_chain2d_group: cost per bone flat from 10 to 10,000 chains",
     {"W2 10 chains: spring_chain2d_group", "W2 spring_chain2d_group", "W2 1,000 chains: spring_chain2d_group",
      "W2 10,000 chains: spring_chain2d_group"}},
	{"W2 spring_chain_group: cost per bone flat from 10 to 10,000 chains",
     {"W2 10 chains: spring_chain_group", "W2 spring_chain_group", "W2 1,000 chains: spring_chain_group",
      "W2 10,000 chains: spring_chain_group"}},
	{"W2 spring_chain2d: cost per bone flat from 10 to 10,000 chains",
     {"W2 10 chains: spring_chain2d", "W2 spring_chain2d (per chain)", "W2 1,000 chains: spring_chain2d",
      "W2 10,000 chains: spring_chain2d"}},
	{"W2 spring_chain: cost per bone flat from 10 to 10,000 chains",
     {"W2 10 chains: spring_chain", "W2 spring_chain (per chain)", "W2 1,000 chains: spring_chain",
      "W2 10,000 chains: spring_chain"}},
};

static double row_rate(const scenario *s, int reps)
{
	return s->work / median(s->times, reps);
}

// The smallest and largest two-thread speed-ups of the machine's pure-compute rows in this run
// (0 and 0: none ran): what the two-thread rows can reach at most. They differ when the two
// virtual processors do not always act as two cores (one loop may meet a busy sibling).
static void machine_ceiling(int reps, double *least, double *most)
{
	*least = 0.0;
	*most = 0.0;
	for (int i = 0; i < g_row_count; i++) {
		const scenario *s = &g_rows[i], *b = find_row(s->baseline);
		if (b && s->threads > 1 && strncmp(s->name, "machine:", 8) == 0) {
			double r = row_rate(s, reps) / row_rate(b, reps);
			*least = *least > 0.0 ? fmin(*least, r) : r;
			*most = fmax(*most, r);
		}
	}
}

static void print_targets(int reps)
{
	int met = 0, judged = 0;
	printf("\nPerformance targets judged in this run:\n");
	for (size_t i = 0; i < sizeof g_targets / sizeof g_targets[0]; i++) {
		const bench_target *t = &g_targets[i];
		const scenario *row = find_row(t->row), *base = find_row(t->baseline);
		if (!row || (t->baseline && !base)) {
			continue;
		}
		double value = base ? row_rate(row, reps) / row_rate(base, reps) : row_rate(row, reps);
		int ok = value >= t->minimum;
		char text[64], ceiling[64] = "";
		if (base) {
			snprintf(text, sizeof text, "%.2fx", value);
		} else {
			format_rate(value, row->unit, text, sizeof text);
		}
		double least = 0.0, most = 0.0;
		if (row->threads > 1) {
			machine_ceiling(reps, &least, &most);
		}
		if (most > 0.0) {
			snprintf(ceiling, sizeof ceiling, " (pure compute: %.2fx to %.2fx)", least, most);
		}
		if (g_markdown) {
			printf("- %s: %s %s: measured %s%s%s%s\n", ok ? "met" : "**not met**", t->row, t->what, text, base ? " vs " : "",
			       base ? base->name : "", ceiling);
		} else {
			printf("  %-8s %-40s %-36s measured %s%s%s%s\n", ok ? "met" : "NOT MET", t->row, t->what, text, base ? " vs " : "",
			       base ? base->name : "", ceiling);
		}
		met += ok;
		judged++;
	}
	for (size_t i = 0; i < sizeof g_flat / sizeof g_flat[0]; i++) {
		const scenario *slow = NULL, *fast = NULL;
		for (int k = 0; k < 5 && g_flat[i].rows[k]; k++) {
			const scenario *row = find_row(g_flat[i].rows[k]);
			if (row) {
				slow = !slow || row_rate(row, reps) < row_rate(slow, reps) ? row : slow;
				fast = !fast || row_rate(row, reps) > row_rate(fast, reps) ? row : fast;
			}
		}
		if (slow == fast) { // none or one
			continue;
		}
		double value = row_rate(slow, reps) / row_rate(fast, reps);
		int ok = value >= 0.8;
		if (g_markdown) {
			printf("- %s: %s (within 20%%): the slowest size at %.2fx the fastest (%s; %s)\n", ok ? "met" : "**not met**",
			       g_flat[i].what, value, slow->name, fast->name);
		} else {
			printf("  %-8s %-77s slowest %.2fx the fastest (%s; %s)\n", ok ? "met" : "NOT MET", g_flat[i].what, value, slow->name,
			       fast->name);
		}
		met += ok;
		judged++;
	}
	printf("  %d of %d met\n", met, judged);
}

// The machine's CPU time since boot, in clock ticks (Linux /proc/stat): busy (not idle, not
// waiting for input/output), all, and taken by the hypervisor (steal). 0 when unknown.
typedef struct cpu_ticks {
	unsigned long long busy, all, steal;
} cpu_ticks;

static cpu_ticks read_cpu_ticks(void)
{
	cpu_ticks t = {0, 0, 0};
	unsigned long long v[8] = {0};
	FILE *f = fopen("/proc/stat", "r");
	if (f &&
	    fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (int k = 0; k < 8; k++) {
			t.all += v[k];
		}
		t.busy = t.all - v[3] - v[4];
		t.steal = v[7];
	}
	if (f) {
		fclose(f);
	}
	return t;
}

// This process's CPU time so far (all its threads), in seconds.
static double own_cpu_seconds(void)
{
	struct rusage u;
	if (getrusage(RUSAGE_SELF, &u) != 0) {
		return 0.0;
	}
	return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
	       1e-6 * (double)u.ru_stime.tv_usec;
}

// How busy the machine was with other work while the rows ran: the two-thread rows need a free
// second core, and the pure-compute rows show how free it was; this says why.
static void print_other_load(cpu_ticks before, cpu_ticks after, double own_seconds, double wall_seconds)
{
	long hz = sysconf(_SC_CLK_TCK);
	if (after.all <= before.all || hz <= 0 || wall_seconds <= 0.0) {
		return;
	}
	double busy = (double)(after.busy - before.busy) / (double)hz, steal = (double)(after.steal - before.steal) / (double)hz;
	double others = fmax(0.0, busy - steal - own_seconds) / wall_seconds;
	printf("\nOther work on the machine during the runs: %.2f cores busy on average (this program %.2f, hypervisor steal "
	       "%.2f; %ld cores online)\n",
	       others, own_seconds / wall_seconds, steal / wall_seconds, sysconf(_SC_NPROCESSORS_ONLN));
}

// Each part's own time in the two-thread rows (medians). The parts do equal work, so when one
// takes clearly longer than the other, its processor ran slower (a virtual processor sharing its
// core with other work on the host), which no code can make up for: the pure-compute rows show
// the same spread.
static void print_parts(int reps)
{
	int any = 0;
	for (int i = 0; i < g_row_count; i++) {
		const scenario *s = &g_rows[i];
		if (s->threads != 2) {
			continue;
		}
		if (!any) {
			printf(g_markdown ? "\nEach part's own time in the two-thread rows (medians; equal work, part 0 on the main "
			                    "thread):\n\n| scenario | part 0 | part 1 | slower / faster |\n| --- | --- | --- | --- |\n"
			                  : "\nEach part's own time in the two-thread rows (medians; equal work, part 0 on the main "
			                    "thread):\n");
			any = 1;
		}
		double t0 = median(s->part_times[0], reps), t1 = median(s->part_times[1], reps);
		double spread = fmax(t0, t1) / fmin(t0, t1);
		if (g_markdown) {
			printf("| %s | %.3f ms | %.3f ms | %.2f |\n", s->name, 1e3 * t0, 1e3 * t1, spread);
		} else {
			printf("  %-46s part 0 %8.3f ms  part 1 %8.3f ms  slower / faster %.2f\n", s->name, 1e3 * t0, 1e3 * t1, spread);
		}
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: spring_bench [--reps N] [--csv FILE] [--only TEXT] [--rig FILE] [--markdown] [--tiny]\n"
	                "       spring_bench N [FILE]\n");
}

int main(int argc, char **argv)
{
	int reps = 9;
	const char *csv = NULL, *only = NULL;
#ifdef SPRING_BENCH_RIG
	const char *rig_file = SPRING_BENCH_RIG;
#else
	const char *rig_file = NULL;
#endif
	int positional = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--tiny") == 0) {
			bench_tiny = 1;
		} else if (strcmp(a, "--markdown") == 0) {
			g_markdown = 1;
		} else if ((strcmp(a, "--reps") == 0 || strcmp(a, "--csv") == 0 || strcmp(a, "--only") == 0 || strcmp(a, "--rig") == 0) &&
		           i + 1 < argc) {
			const char *v = argv[++i];
			if (a[2] == 'r' && a[3] == 'e') {
				reps = atoi(v);
			} else if (a[2] == 'c') {
				csv = v;
			} else if (a[2] == 'o') {
				only = v;
			} else {
				rig_file = v;
			}
		} else if (a[0] != '-' && positional == 0) {
			reps = atoi(a);
			positional++;
		} else if (a[0] != '-' && positional == 1) {
			csv = a;
			positional++;
		} else {
			usage();
			return 2;
		}
	}
	if (reps < 1 || reps > BENCH_MAX_REPS) {
		fprintf(stderr, "spring_bench: reps must be 1..%d\n", BENCH_MAX_REPS);
		return 2;
	}
	if (bench_tiny) {
		reps = 1;
	}
	machine_register();
	w1_register();
	w2_register();
	rig_register(rig_file);
#ifdef SPRING_BENCH_SOURCE_DIR
	vrm_register(SPRING_BENCH_SOURCE_DIR);
#endif
	// Keep the rows asked for (and the rows they are compared with; with a two-thread row, the
	// machine's ceiling).
	int keep[max_rows] = {0}, threaded = 0;
	for (int i = 0; i < g_row_count; i++) {
		keep[i] = !only || strstr(g_rows[i].name, only) != NULL;
		threaded |= keep[i] && g_rows[i].threads > 1;
	}
	for (int i = 0; i < g_row_count; i++) {
		keep[i] |= threaded && strncmp(g_rows[i].name, "machine:", 8) == 0;
	}
	for (int i = 0; i < g_row_count; i++) {
		for (int j = 0; j < g_row_count && keep[i]; j++) {
			if (g_rows[i].baseline && strcmp(g_rows[j].name, g_rows[i].baseline) == 0) {
				keep[j] = 1;
			}
		}
	}
	int n = 0;
	for (int i = 0; i < g_row_count; i++) {
		if (keep[i]) {
			g_rows[n++] = g_rows[i];
		}
	}
	g_row_count = n;
	for (int i = 0; i < g_row_count; i++) {
		if (prepare_row(&g_rows[i]) != 0) {
			fprintf(stderr, "spring_bench: could not prepare \"%s\"\n", g_rows[i].name);
			return 2;
		}
	}
	cpu_ticks ticks_before = read_cpu_ticks();
	double own_before = own_cpu_seconds(), wall_before = now_seconds();
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < g_row_count; i++) {
			g_rows[i].times[r] = run_once(&g_rows[i], r);
		}
		if (!bench_tiny) {
			fprintf(stderr, "spring_bench: repetition %d of %d done\n", r + 1, reps);
		}
	}
	double own_seconds = own_cpu_seconds() - own_before, wall_seconds = now_seconds() - wall_before;
	cpu_ticks ticks_after = read_cpu_ticks();
	FILE *out = csv ? fopen(csv, "w") : NULL;
	if (csv && !out) {
		fprintf(stderr, "spring_bench: cannot write %s\n", csv);
		return 2;
	}
	if (out) {
		fprintf(out, "scenario,count,steps,threads,median_ms,rate_per_s,unit,speed_vs_baseline,baseline,checksum\n");
	}
	if (g_markdown) {
		printf("| scenario | median rate | speed | vs baseline |\n| --- | --- | --- | --- |\n");
	} else {
		printf("%-46s %-28s %9s  %s\n", "scenario", "median rate", "speed", "vs baseline");
	}
	for (int i = 0; i < g_row_count; i++) {
		scenario *s = &g_rows[i];
		if (s->result) {
			static float values[1 << 20];
			size_t m = s->result(s, values, sizeof values / sizeof values[0]);
			s->checksum = 0.0;
			for (size_t k = 0; k < m; k++) {
				s->checksum += (double)values[k];
			}
		}
		double t = median(s->times, reps), rate = s->work / t, ratio = 1.0;
		const scenario *b = find_row(s->baseline);
		if (b) {
			ratio = rate / (b->work / median(b->times, reps));
		}
		char text[64];
		format_rate(rate, s->unit, text, sizeof text);
		if (g_markdown) {
			printf("| %s | %s | %.2fx | %s |\n", s->name, text, ratio, b ? b->name : "-");
		} else {
			printf("%-46s %-28s %8.2fx  %s\n", s->name, text, ratio, b ? b->name : "-");
		}
		if (out) {
			fprintf(out, "\"%s\",%ld,%d,%d,%.4f,%.6g,%s,%.4f,\"%s\",%.9g\n", s->name, s->count, s->steps, s->threads, 1e3 * t,
			        rate, s->unit, ratio, b ? b->name : "", s->checksum);
		}
	}
	if (out) {
		fclose(out);
	}
	if (!bench_tiny) {
		print_other_load(ticks_before, ticks_after, own_seconds, wall_seconds);
		print_parts(reps);
		print_targets(reps);
	}
	pool_stop();
	int failures = bench_tiny ? check_families() : 0;
	for (int i = 0; i < g_row_count; i++) {
		if (g_rows[i].release) {
			g_rows[i].release(&g_rows[i]);
		}
	}
	return failures ? 1 : 0;
}
