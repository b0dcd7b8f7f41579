// SPDX-License-Identifier: MIT
// libspring benchmark suite: the scenario table shared by the workload files (w1.c, w2.c,
// rig.c) and the driver (bench_main.c). Not installed; uses the public API only.
#ifndef SPRING_BENCH_H
#define SPRING_BENCH_H

#include <spring/spring.h>

#include <stddef.h>

#define BENCH_MAX_REPS 64
#define BENCH_MAX_THREADS 2        ///< threads of a row: the main thread runs part 0, persistent workers the others
#define BENCH_STEP (1.0f / 120.0f) ///< the physics step of every workload, seconds
#define BENCH_FRAME (1.0f / 60.0f) ///< the frame time of W2 and the rig scenario, seconds

typedef struct scenario scenario;

/// One row of the table. A workload file fills `prepare` (builds objects once, untimed),
/// `reset` (puts the initial state back before every repetition, untimed), `run_range` (the
/// timed work on items [first, first + count) of one part) and `result` (the final outputs as
/// floats, for the agreement checks of --tiny). The items are split into `threads` parts
/// (bench_part); part k always runs on the same thread (part 0 on the main thread, the others on
/// persistent workers), and `prepare_part` and `reset_part`, when set, run on that thread too, so
/// a part's memory is allocated and first touched by the thread that steps it.
struct scenario {
	const char *name;
	const char *baseline;        ///< name of the row it is compared with; NULL: a baseline itself
	const char *unit;            ///< what `work` counts ("spring-step", "bone-frame")
	const char *family;          ///< rows of one family must agree (--tiny); NULL: not compared
	const char *reference;       ///< non-NULL: compared with this row instead of the family's first
	double tolerance;            ///< 0: bit for bit with the family's first row; else the bound relative
	                             ///< to the largest magnitude of that row's outputs
	int (*prepare)(scenario *s); ///< on the main thread, once; non-zero: failed
	/// On part `part`'s own thread, once after `prepare` (items [first, first + count)); non-zero: failed.
	int (*prepare_part)(scenario *s, int part, long first, long count);
	void (*reset)(scenario *s); ///< on the main thread, before every repetition
	/// On part `part`'s own thread, after `reset`, before every repetition.
	void (*reset_part)(scenario *s, int part, long first, long count);
	/// The timed work: items [first, first + count), all inside part `part`.
	void (*run_range)(scenario *s, int part, long first, long count);
	size_t (*result)(const scenario *s, float *out, size_t capacity);
	void (*release)(scenario *s);
	long count;  ///< springs, chains or rigs
	int steps;   ///< steps or frames
	int variant; ///< which code path (the workload's own enum)
	int threads; ///< 1 .. BENCH_MAX_THREADS
	int split;   ///< > 1: the parts of a threaded row start at multiples of this many items
	int block;   ///< > 0: items per block, each block advanced all its steps before the next
	int option;  ///< the workload's own setting (W1: the batch kernels' instruction set, 0 = automatic)
	double work; ///< units of work per run
	void *data;  ///< the workload's state
	double times[BENCH_MAX_REPS];
	double part_times[BENCH_MAX_THREADS][BENCH_MAX_REPS]; ///< each part's own time (threaded rows)
	double checksum;                                      ///< sum of the final outputs (printed, so the work is real)
};

/// The items [*first, *first + *count) of part `part` of a row: `threads` nearly equal parts,
/// each (but the first) starting at a multiple of `split` items.
void bench_part(const scenario *s, int part, long *first, long *count);
/// Appends a row (copied); returns it, or NULL when the table is full.
scenario *bench_add(const scenario *s);
/// Non-zero in --tiny mode: every workload registers itself at a tiny size.
extern int bench_tiny;

/// The machine's ceiling for the two-thread rows: pure compute on one thread and on two (machine.c).
void machine_register(void);
void w1_register(void);
void w2_register(void);
void rig_register(const char *rig_file);
/// The VRM scenarios (bench/vrm.c): Godette (tests/vrm) and the synthetic avatar (bench/models),
/// found under `source_dir` (the source tree's root); NULL registers nothing.
void vrm_register(const char *source_dir);

/// The user's own exact loop over a stepper's four coefficients, array of structs
/// (w1_baseline.c, compiled -O2 as a user would; see CMakeLists.txt).
void w1_plain_exact(const spring_stepper *st, spring_state *states, const float *targets, long count);
/// A loop that only streams the same arrays (reads state and target, writes state; w1_stream.c).
void w1_stream(spring_state *states, const float *targets, long count);

#endif
