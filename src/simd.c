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

static spring_internal_isa forced = SPRING_INTERNAL_ISA_AUTO;

#if defined(__GNUC__)
// The run-time choice, made once. Threads that race on the first call compute the same value;
// the relaxed atomics make that race well defined.
static int chosen; // 0: not yet chosen (AUTO)

spring_internal_isa spring_internal_isa_current(void)
{
	if (forced != SPRING_INTERNAL_ISA_AUTO) {
		return forced;
	}
	int isa = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
	if (isa == SPRING_INTERNAL_ISA_AUTO) {
		isa = (int)widest();
		__atomic_store_n(&chosen, isa, __ATOMIC_RELAXED);
	}
	return (spring_internal_isa)isa;
}
#else
// Without GCC/Clang vector types there are no vector kernels: the choice is always scalar.
spring_internal_isa spring_internal_isa_current(void)
{
	return forced != SPRING_INTERNAL_ISA_AUTO ? forced : SPRING_INTERNAL_ISA_SCALAR;
}
#endif

int spring_internal_isa_force(spring_internal_isa isa)
{
	if (isa != SPRING_INTERNAL_ISA_AUTO && ((unsigned)isa >= SPRING_INTERNAL_ISA_COUNT || !isa_runs(isa))) {
		return 0;
	}
	forced = isa;
	return 1;
}

const char *spring_internal_isa_name(spring_internal_isa isa)
{
	static const char *const names[SPRING_INTERNAL_ISA_COUNT] = {"auto", "scalar", "sse2", "avx2", "avx512", "simd128", "neon"};
	return (unsigned)isa < SPRING_INTERNAL_ISA_COUNT ? names[isa] : "unknown";
}
