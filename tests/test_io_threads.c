// SPDX-License-Identifier: MIT
// Rig files from several threads at once (tools/io/rig_json.c): four threads load the sample rigs
// (and a malformed one) again and again, starting together, and every load gives the rig a single
// thread gets, bit for bit, after stepping it. In the ordinary builds this checks the results;
// scripts/test-threads.sh runs it under ThreadSanitizer with cJSON built from source and
// instrumented (an uninstrumented libcjson hides the race on cJSON's global error record).
#define _POSIX_C_SOURCE 200809L

#include <spring/io.h>

#include "test_macros.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#ifndef SPRING_SOURCE_DIR
#define SPRING_SOURCE_DIR "."
#endif

enum { THREADS = 4, ROUNDS = 12, FRAMES = 30 };

static const char *const rig_files[] = {
	SPRING_SOURCE_DIR "/examples/rigs/character.json",
	SPRING_SOURCE_DIR "/examples/rigs/undulation.json",
	SPRING_SOURCE_DIR "/tests/rigs/good/minimal.json",
};
#define RIG_FILES ((int)(sizeof rig_files / sizeof rig_files[0]))

// Well-formed JSON that is not a rig: the error path runs in parallel too.
static const char not_a_rig[] = "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [{\"name\": 7}]}";

// FNV-1a over the world transforms after FRAMES steps; 0 when anything failed.
static uint64_t load_and_run(const char *path)
{
	spring_rig *rig = NULL;
	spring_file_error err;
	if (spring_rig_load_file(path, &rig, &err) != SPRING_OK) {
		fprintf(stderr, "  %s\n", err.message);
		return 0;
	}
	uint64_t h = 1469598103934665603ull;
	spring_xform2 w[SPRING_RIG_MAX_BONES];
	int n = spring_rig_bone_count(rig);
	for (int f = 0; f < FRAMES; f++) {
		if (spring_rig_update(rig, 1.0f / 60.0f) != SPRING_OK ||
		    spring_rig_get_world(rig, w, SPRING_RIG_MAX_BONES) != SPRING_OK) {
			spring_rig_destroy(rig);
			return 0;
		}
		const unsigned char *p = (const unsigned char *)w;
		for (size_t i = 0; i < (size_t)n * sizeof w[0]; i++) {
			h = (h ^ p[i]) * 1099511628211ull;
		}
	}
	spring_rig_destroy(rig);
	return h;
}

static uint64_t expected[RIG_FILES];
static char expected_error[sizeof((spring_file_error *)0)->message];
static pthread_barrier_t start;

typedef struct worker {
	int id;
	int mismatches;
} worker;

static void *work(void *arg)
{
	worker *me = (worker *)arg;
	pthread_barrier_wait(&start);
	for (int r = 0; r < ROUNDS; r++) {
		int which = (r + me->id) % RIG_FILES;
		if (load_and_run(rig_files[which]) != expected[which]) {
			me->mismatches++;
		}
		spring_rig *rig = NULL;
		spring_file_error err;
		if (spring_rig_load_json(not_a_rig, sizeof not_a_rig - 1, "bad.json", &rig, &err) == SPRING_OK ||
		    strcmp(err.message, expected_error) != 0) {
			me->mismatches++;
			spring_rig_destroy(rig);
		}
	}
	return NULL;
}

static int test_four_threads_load_at_once(void)
{
	for (int i = 0; i < RIG_FILES; i++) {
		expected[i] = load_and_run(rig_files[i]);
		ENSURE_MSG(expected[i] != 0, "%s does not load", rig_files[i]);
	}
	spring_rig *rig = NULL;
	spring_file_error err;
	ENSURE(spring_rig_load_json(not_a_rig, sizeof not_a_rig - 1, "bad.json", &rig, &err) != SPRING_OK);
	memcpy(expected_error, err.message, sizeof expected_error);

	ENSURE(pthread_barrier_init(&start, NULL, THREADS) == 0);
	pthread_t t[THREADS];
	worker w[THREADS];
	for (int i = 0; i < THREADS; i++) {
		w[i].id = i;
		w[i].mismatches = 0;
		ENSURE(pthread_create(&t[i], NULL, work, &w[i]) == 0);
	}
	int mismatches = 0;
	for (int i = 0; i < THREADS; i++) {
		ENSURE(pthread_join(t[i], NULL) == 0);
		mismatches += w[i].mismatches;
	}
	pthread_barrier_destroy(&start);
	ENSURE_MSG(mismatches == 0, "%d loads differ from the single-threaded result", mismatches);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_four_threads_load_at_once);
	return TEST_SUMMARY();
}
