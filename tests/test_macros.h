// SPDX-License-Identifier: MIT
/// Tiny test harness: ENSURE, ENSURE_NEAR, RUN_TEST with a name filter, and the closing line
/// "N passed, N failed". A test file defines its tests as `static int test_x(void)` returning 0
/// on success and calls RUN_TEST for each from main, then returns TEST_SUMMARY().
#ifndef SPRING_TEST_MACROS_H
#define SPRING_TEST_MACROS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed_count, test_failed_count;
static const char *test_filter;

// A test that runs away (a loop that lost its bound, say a clock without its cap) fails once it
// has used TEST_SECONDS_EACH seconds of processor time, instead of hanging until CTest's timeout.
// Processor time, not wall time: on a machine busy with other work a test gets slower by the
// clock but uses the same processor time, so a busy machine cannot fail it (tests/test_watchdog.c).
// Under an emulator (qemu-user, scripts/test-aarch64.sh) the same work takes several times the
// processor time: SPRING_TEST_CPU_SCALE=N (a whole number from 1 to 1000) multiplies the limit.
// POSIX only: the wasm build runs without the watchdog.
#ifndef TEST_SECONDS_EACH
#define TEST_SECONDS_EACH 120
#endif
#if defined(__unix__) && !defined(__wasi__)
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
// volatile: only the signal handler reads it, so the compiler must not drop the stores
static const char *volatile test_running;
static void test_watchdog(int sig)
{
	(void)sig;
	static const char prefix[] = "  FAIL (ran past the per-test processor-time limit) ";
	(void)!write(2, prefix, sizeof prefix - 1);
	(void)!write(2, test_running, strlen(test_running));
	(void)!write(2, "\n", 1);
	_exit(1);
}
// Arms (seconds > 0) or disarms (0) the processor-time alarm: SIGPROF after that much user and
// system time of the process.
static void test_alarm(long seconds)
{
	struct itimerval t;
	memset(&t, 0, sizeof t);
	t.it_value.tv_sec = seconds;
	(void)setitimer(ITIMER_PROF, &t, NULL);
}
// TEST_SECONDS_EACH times SPRING_TEST_CPU_SCALE (1 when unset; anything else is refused loudly,
// so that a typo cannot leave the limit other than asked).
static long test_seconds_each(void)
{
	const char *text = getenv("SPRING_TEST_CPU_SCALE");
	if (!text || !*text) {
		return TEST_SECONDS_EACH;
	}
	char *end = NULL;
	long scale = strtol(text, &end, 10);
	if (*end != '\0' || scale < 1 || scale > 1000) {
		fprintf(stderr, "SPRING_TEST_CPU_SCALE must be a whole number from 1 to 1000, not \"%s\"\n", text);
		exit(2);
	}
	return TEST_SECONDS_EACH * scale;
}
#define TEST_WATCH(name) (test_running = (name), signal(SIGPROF, test_watchdog), test_alarm(test_seconds_each()))
#define TEST_UNWATCH() test_alarm(0)
#else
#define TEST_WATCH(name) ((void)(name))
#define TEST_UNWATCH() ((void)0)
#endif

#define ENSURE(c)                                                            \
	do {                                                                     \
		if (!(c)) {                                                          \
			fprintf(stderr, "  FAILED %s:%d: %s\n", __FILE__, __LINE__, #c); \
			return 1;                                                        \
		}                                                                    \
	} while (0)

#define ENSURE_MSG(c, ...)                                                   \
	do {                                                                     \
		if (!(c)) {                                                          \
			fprintf(stderr, "  FAILED %s:%d: %s: ", __FILE__, __LINE__, #c); \
			fprintf(stderr, __VA_ARGS__);                                    \
			fprintf(stderr, "\n");                                           \
			return 1;                                                        \
		}                                                                    \
	} while (0)

#define ENSURE_NEAR(a, b, tol)                                                                                                   \
	do {                                                                                                                         \
		double ensure_a_ = (double)(a), ensure_b_ = (double)(b), ensure_t_ = (double)(tol);                                      \
		if (!(fabs(ensure_a_ - ensure_b_) <= ensure_t_)) {                                                                       \
			fprintf(stderr, "  FAILED %s:%d: %s = %.9g, %s = %.9g, |diff| %.3g > %.3g\n", __FILE__, __LINE__, #a, ensure_a_, #b, \
			        ensure_b_, fabs(ensure_a_ - ensure_b_), ensure_t_);                                                          \
			return 1;                                                                                                            \
		}                                                                                                                        \
	} while (0)

#define RUN_TEST(fn)                                    \
	do {                                                \
		if (!test_filter || strstr(#fn, test_filter)) { \
			TEST_WATCH(#fn);                            \
			int test_rc_ = fn();                        \
			TEST_UNWATCH();                             \
			if (test_rc_ == 0) {                        \
				test_passed_count++;                    \
				printf("  ok   %s\n", #fn);             \
			} else {                                    \
				test_failed_count++;                    \
				printf("  FAIL %s\n", #fn);             \
			}                                           \
			fflush(stdout);                             \
		}                                               \
	} while (0)

#define TEST_INIT(argc, argv) (test_filter = (argc) > 1 ? (argv)[1] : NULL)

#define TEST_SUMMARY()                                                       \
	(printf("%d passed, %d failed\n", test_passed_count, test_failed_count), \
	 test_failed_count == 0 && test_passed_count > 0 ? 0 : 1)

#endif
