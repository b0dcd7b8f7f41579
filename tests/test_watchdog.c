// SPDX-License-Identifier: MIT
// The tests' watchdog (test_macros.h) counts processor time, not wall time: a test that waits
// (as a test does on a machine busy with other work) outlives the limit by the clock and passes;
// a test that spins is stopped once it has used the limit. CTest runs this program and expects
// both lines (tests/CMakeLists.txt).
#define _POSIX_C_SOURCE 200809L // nanosleep
#define TEST_SECONDS_EACH 1
#include "test_macros.h"

#include <time.h>

// Two seconds by the clock, almost no processor time.
static int test_waits_past_the_limit(void)
{
	struct timespec t = {2, 0};
	while (nanosleep(&t, &t) != 0) {
	}
	return 0;
}

// Runs until the watchdog stops the program (1 s of processor time).
static int test_spins(void)
{
	volatile unsigned long n = 0;
	for (;;) {
		n++;
	}
	return 0;
}

// SPRING_TEST_CPU_SCALE multiplies the limit (1 to 1000; tests/CMakeLists.txt checks that 0 and
// 1001 stop the program with an error naming the variable).
static int test_scale_multiplies_the_limit(void)
{
	const char *outer = getenv("SPRING_TEST_CPU_SCALE");
	char saved[32] = "";
	if (outer) {
		snprintf(saved, sizeof saved, "%s", outer);
	}
	ENSURE(unsetenv("SPRING_TEST_CPU_SCALE") == 0);
	ENSURE(test_seconds_each() == TEST_SECONDS_EACH);
	ENSURE(setenv("SPRING_TEST_CPU_SCALE", "", 1) == 0);
	ENSURE(test_seconds_each() == TEST_SECONDS_EACH);
	ENSURE(setenv("SPRING_TEST_CPU_SCALE", "1", 1) == 0);
	ENSURE(test_seconds_each() == TEST_SECONDS_EACH);
	ENSURE(setenv("SPRING_TEST_CPU_SCALE", "7", 1) == 0);
	ENSURE(test_seconds_each() == 7 * TEST_SECONDS_EACH);
	ENSURE(setenv("SPRING_TEST_CPU_SCALE", "1000", 1) == 0);
	ENSURE(test_seconds_each() == 1000 * TEST_SECONDS_EACH);
	ENSURE(outer ? setenv("SPRING_TEST_CPU_SCALE", saved, 1) == 0 : unsetenv("SPRING_TEST_CPU_SCALE") == 0);
	return 0;
}

int main(void)
{
	RUN_TEST(test_scale_multiplies_the_limit);
	RUN_TEST(test_waits_past_the_limit);
	RUN_TEST(test_spins);
	return TEST_SUMMARY();
}
