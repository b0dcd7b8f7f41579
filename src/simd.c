// SPDX-License-Identifier: MIT
// The one choice of instruction set (simd_internal.h).
#include "kernels_internal.h"
#include "simd_internal.h"

#include <stddef.h>

static int always(void)
{
	return 1;
}

#if SPRING_SIMD_X86
static int cpu_has_avx2(void)
{
	return __builtin_cpu_supports("avx2");
}

static int cpu_has_avx512f(void)
{
	return __builtin_cpu_supports("avx512f");
}
#define IF_X86(check) check
#else
#define IF_X86(check) NULL
#endif
#if SPRING_SIMD_WASM
#define IF_WASM(check) check // a module built with simd128 runs only where it exists
#else
#define IF_WASM(check) NULL
#endif
#if SPRING_SIMD_NEON
#define IF_NEON(check) check // part of every aarch64 processor
#else
#define IF_NEON(check) NULL
#endif

#if SPRING_SIMD_X86
#define IF_X86_KERNELS(k) &k
#else
#define IF_X86_KERNELS(k) NULL
#endif
#if SPRING_SIMD_WASM
#define IF_WASM_KERNELS(k) &k
#else
#define IF_WASM_KERNELS(k) NULL
#endif
#if SPRING_SIMD_NEON
#define IF_NEON_KERNELS(k) &k
#else
#define IF_NEON_KERNELS(k) NULL
#endif

// Every instruction set: its name, its rank in the order of preference (the widest highest), the
// check that this machine runs it and its kernels (kernels_<set>.c), NULL when this build has no
// kernels for it. A new instruction set is a value in simd_internal.h's enum, its lane layer and
// kernels (lanes.h says how) and a row here.
static const struct isa_row {
	const char *name;
	int rank;
	int (*runs)(void);
	const spring_internal_kernels *kernels;
} rows[SPRING_INTERNAL_ISA_COUNT] = {
	[SPRING_INTERNAL_ISA_AVX512] = {"avx512", 5, IF_X86(cpu_has_avx512f), IF_X86_KERNELS(spring_internal_kernels_avx512)},
	[SPRING_INTERNAL_ISA_AVX2] = {"avx2", 4, IF_X86(cpu_has_avx2), IF_X86_KERNELS(spring_internal_kernels_avx2)},
	[SPRING_INTERNAL_ISA_SSE2] = {"sse2", 3, IF_X86(always), IF_X86_KERNELS(spring_internal_kernels_sse2)}, // x86-64's baseline
	[SPRING_INTERNAL_ISA_SIMD128] = {"simd128", 2, IF_WASM(always), IF_WASM_KERNELS(spring_internal_kernels_simd128)},
	[SPRING_INTERNAL_ISA_NEON] = {"neon", 2, IF_NEON(always), IF_NEON_KERNELS(spring_internal_kernels_neon)},
	[SPRING_INTERNAL_ISA_SCALAR] = {"scalar", 1, always, &spring_internal_kernels_scalar},
};

static const struct isa_row *row_of(spring_internal_isa isa)
{
	return isa > SPRING_INTERNAL_ISA_AUTO && isa < SPRING_INTERNAL_ISA_COUNT && rows[isa].name ? &rows[isa] : NULL;
}

// 1 when the row's instruction set has kernels in this build and this machine runs it.
static int row_runs(const struct isa_row *r)
{
	return r && r->runs && r->kernels && r->runs();
}

// The widest instruction set this build has and this machine runs (scalar always runs).
static spring_internal_isa widest(void)
{
	spring_internal_isa best = SPRING_INTERNAL_ISA_SCALAR;
	for (int k = SPRING_INTERNAL_ISA_AUTO + 1; k < SPRING_INTERNAL_ISA_COUNT; k++) {
		if (row_runs(&rows[k]) && rows[k].rank > rows[best].rank) {
			best = (spring_internal_isa)k;
		}
	}
	return best;
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
	if (isa != SPRING_INTERNAL_ISA_AUTO && !row_runs(row_of(isa))) {
		return 0;
	}
	keep(isa); // AUTO: the next kernel call chooses again
	return 1;
}

const char *spring_internal_isa_name(spring_internal_isa isa)
{
	const struct isa_row *r = row_of(isa);
	return isa == SPRING_INTERNAL_ISA_AUTO ? "auto" : r ? r->name : "unknown";
}

const spring_internal_kernels *spring_internal_kernels_current(void)
{
	return rows[spring_internal_isa_current()].kernels;
}
