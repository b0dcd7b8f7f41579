// SPDX-License-Identifier: MIT
// The one choice of instruction set (simd_internal.h).
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

// Every instruction set, in the order of preference (the widest first): its name and the check
// that this machine runs it, NULL when this build has no kernels for it. A new instruction set is
// a value in simd_internal.h's enum and a row here (and its kernels in each family's table).
static const struct isa_row {
	spring_internal_isa isa;
	const char *name;
	int (*runs)(void);
} rows[] = {
	{SPRING_INTERNAL_ISA_AVX512, "avx512", IF_X86(cpu_has_avx512f)},
	{SPRING_INTERNAL_ISA_AVX2, "avx2", IF_X86(cpu_has_avx2)},
	{SPRING_INTERNAL_ISA_SSE2, "sse2", IF_X86(always)}, // the x86-64 baseline
	{SPRING_INTERNAL_ISA_SIMD128, "simd128", IF_WASM(always)},
	{SPRING_INTERNAL_ISA_NEON, "neon", IF_NEON(always)},
	{SPRING_INTERNAL_ISA_SCALAR, "scalar", always},
};
enum { ROW_COUNT = (int)(sizeof rows / sizeof rows[0]) };
_Static_assert(ROW_COUNT == SPRING_INTERNAL_ISA_COUNT - 1, "one row per instruction set but AUTO");

static const struct isa_row *row_of(spring_internal_isa isa)
{
	for (int k = 0; k < ROW_COUNT; k++) {
		if (rows[k].isa == isa) {
			return &rows[k];
		}
	}
	return NULL;
}

// 1 when the row's instruction set has kernels in this build and this machine runs it.
static int row_runs(const struct isa_row *r)
{
	return r && r->runs && r->runs();
}

// The widest instruction set this build has and this machine runs (scalar, the last row, always).
static spring_internal_isa widest(void)
{
	int k = 0;
	while (!row_runs(&rows[k])) {
		k++;
	}
	return rows[k].isa;
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
