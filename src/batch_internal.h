// SPDX-License-Identifier: MIT
// Private hooks of the batch module (batch.c) for white-box tests.
#ifndef SPRING_BATCH_INTERNAL_H
#define SPRING_BATCH_INTERNAL_H

/// The instruction sets the batch kernels are built for. AUTO picks the widest the machine runs.
typedef enum spring_internal_batch_path {
	SPRING_INTERNAL_BATCH_AUTO = 0,
	SPRING_INTERNAL_BATCH_SCALAR,  ///< plain C, one spring at a time (every platform)
	SPRING_INTERNAL_BATCH_SSE2,    ///< x86-64, 4 lanes
	SPRING_INTERNAL_BATCH_AVX2,    ///< x86-64 with AVX2, 8 lanes
	SPRING_INTERNAL_BATCH_AVX512,  ///< x86-64 with AVX-512F, 16 lanes
	SPRING_INTERNAL_BATCH_SIMD128, ///< wasm32 built with -msimd128, 4 lanes
	SPRING_INTERNAL_BATCH_PATH_COUNT
} spring_internal_batch_path;

/// Test hook: makes every later batch call use `path` (AUTO: back to the run-time choice).
/// Returns 1 when `path` is built in and this machine runs it, otherwise 0 and changes nothing.
/// Not thread-safe: tests only.
int spring_internal_batch_force_path(spring_internal_batch_path path);

/// The path the next batch call takes.
spring_internal_batch_path spring_internal_batch_current_path(void);

/// "scalar", "sse2", "avx2", "avx512", "simd128" ("auto" for AUTO).
const char *spring_internal_batch_path_name(spring_internal_batch_path path);

#endif
