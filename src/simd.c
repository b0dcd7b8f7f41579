// SPDX-License-Identifier: MIT
// The one choice of instruction set (simd_internal.h).
#include "simd_internal.h"

// 1 when `isa` has kernels in this build and this machine runs it.
static int isa_runs(spring_internal_isa isa)
{
	switch (isa) {
	case SPRING_INTERNAL_ISA_SCALAR: return 1;
#if SPRING_SIMD_X86
	case SPRING_INTERNAL_ISA_SSE2: return 1; // the x86-64 baseline
	case SPRING_INTERNAL_ISA_AVX2: return __builtin_cpu_supports("avx2");
	case SPRING_INTERNAL_ISA_AVX512: return __builtin_cpu_supports("avx512f");
#endif
#if SPRING_SIMD_WASM
	case SPRING_INTERNAL_ISA_SIMD128: return 1; // a module built with it runs only where it exists
#endif
#if SPRING_SIMD_NEON
	case SPRING_INTERNAL_ISA_NEON: return 1; // part of every aarch64 processor
#endif
	default: return 0;
	}
}

// The widest instruction set this build has and this machine runs.
static spring_internal_isa widest(void)
{
	static const spring_internal_isa preference[] = {SPRING_INTERNAL_ISA_AVX512, SPRING_INTERNAL_ISA_AVX2,
	                                                 SPRING_INTERNAL_ISA_SSE2, SPRING_INTERNAL_ISA_SIMD128,
	                                                 SPRING_INTERNAL_ISA_NEON};
	for (unsigned k = 0; k < sizeof preference / sizeof preference[0]; k++) {
		if (isa_runs(preference[k])) {
			return preference[k];
		}
	}
	return SPRING_INTERNAL_ISA_SCALAR;
}

int spring_internal_isa_in_use = SPRING_INTERNAL_ISA_AUTO;

// Stores the choice. Threads that race on the first call store the same value; with GCC/Clang the
// relaxed atomics make that race well defined (without their vector types there are no vector
// kernels, and the choice is always scalar).
static void keep(spring_internal_isa isa)
{
#if defined(__GNUC__)
	__atomic_store_n(&spring_internal_isa_in_use, (int)isa, __ATOMIC_RELAXED);
#else
	spring_internal_isa_in_use = (int)isa;
#endif
}

spring_internal_isa spring_internal_isa_choose(void)
{
	const spring_internal_isa isa = widest();
	keep(isa);
	return isa;
}

int spring_internal_isa_force(spring_internal_isa isa)
{
	if (isa != SPRING_INTERNAL_ISA_AUTO && ((unsigned)isa >= SPRING_INTERNAL_ISA_COUNT || !isa_runs(isa))) {
		return 0;
	}
	keep(isa); // AUTO: the next kernel call chooses again
	return 1;
}

const char *spring_internal_isa_name(spring_internal_isa isa)
{
	static const char *const names[SPRING_INTERNAL_ISA_COUNT] = {"auto", "scalar", "sse2", "avx2", "avx512", "simd128", "neon"};
	return (unsigned)isa < SPRING_INTERNAL_ISA_COUNT ? names[isa] : "unknown";
}
