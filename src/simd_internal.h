// SPDX-License-Identifier: MIT
// The instruction sets the vector kernels are built for, and the one place that chooses among
// them (simd.c): once per process, the widest this build has and this machine runs. Its row of
// the one table of kernels (kernels_internal.h) is what every family calls.
#ifndef SPRING_SIMD_INTERNAL_H
#define SPRING_SIMD_INTERNAL_H

// Which instruction sets this build has kernels for (the vector types are GCC/Clang's).
#if defined(__GNUC__) && defined(__x86_64__)
#define SPRING_SIMD_X86 1
#else
#define SPRING_SIMD_X86 0
#endif
#if defined(__wasm_simd128__)
#define SPRING_SIMD_WASM 1
#else
#define SPRING_SIMD_WASM 0
#endif
#if defined(__GNUC__) && defined(__aarch64__) && defined(__ARM_NEON)
#define SPRING_SIMD_NEON 1
#else
#define SPRING_SIMD_NEON 0
#endif
/// 1 when some four-lane vector instance is built (SSE2, wasm simd128 or NEON).
#define SPRING_SIMD_V4 (SPRING_SIMD_X86 || SPRING_SIMD_WASM || SPRING_SIMD_NEON)

// The intrinsics of the instruction sets built in, for the kernel units.
#if SPRING_SIMD_X86
#include <immintrin.h>
#endif
#if SPRING_SIMD_WASM
#include <wasm_simd128.h>
#endif
#if SPRING_SIMD_NEON
#include <arm_neon.h>
#endif

/// The instruction sets. AUTO is the run-time choice. Adding one: a value here, its lane layer
/// (lanes_<set>.h) and kernels (kernels_<set>.c, which build every family over it: lanes.h), and
/// its row in simd.c's table (its name, rank, run-time check and kernels).
typedef enum spring_internal_isa {
	SPRING_INTERNAL_ISA_AUTO = 0,
	SPRING_INTERNAL_ISA_SCALAR,  ///< plain C, one lane (every platform)
	SPRING_INTERNAL_ISA_SSE2,    ///< x86-64, 4 lanes
	SPRING_INTERNAL_ISA_AVX2,    ///< x86-64 with AVX2, 8 lanes
	SPRING_INTERNAL_ISA_AVX512,  ///< x86-64 with AVX-512F, 16 lanes
	SPRING_INTERNAL_ISA_SIMD128, ///< wasm32 built with -msimd128, 4 lanes
	SPRING_INTERNAL_ISA_NEON,    ///< aarch64 (Advanced SIMD, always present), 4 lanes
	SPRING_INTERNAL_ISA_COUNT
} spring_internal_isa;

/// The instruction set in use (a spring_internal_isa), 0 (AUTO) until the first kernel call
/// chooses it. Read through spring_internal_isa_current.
extern int spring_internal_isa_in_use;

/// Chooses the instruction set (the widest this build has and this machine runs), keeps it in
/// spring_internal_isa_in_use and returns it: the first call's slow path.
spring_internal_isa spring_internal_isa_choose(void);

/// The instruction set every kernel call takes: chosen on the first call and kept for the
/// process (thread-safe: threads racing on the first call choose the same), unless a test forced
/// one. Inline: a load and a test per kernel call.
static inline spring_internal_isa spring_internal_isa_current(void)
{
#if defined(__GNUC__)
	const int isa = __atomic_load_n(&spring_internal_isa_in_use, __ATOMIC_RELAXED);
#else
	const int isa = spring_internal_isa_in_use;
#endif
	return isa != SPRING_INTERNAL_ISA_AUTO ? (spring_internal_isa)isa : spring_internal_isa_choose();
}

/// Test hook: makes every later kernel call use `isa` (AUTO: back to the run-time choice).
/// Returns 1 when `isa` is built in and this machine runs it, otherwise 0 and changes nothing.
/// Not thread-safe: tests only.
int spring_internal_isa_force(spring_internal_isa isa);

/// "scalar", "sse2", "avx2", "avx512", "simd128", "neon" ("auto" for AUTO, "unknown" otherwise).
const char *spring_internal_isa_name(spring_internal_isa isa);

#endif
