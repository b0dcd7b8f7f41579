// SPDX-License-Identifier: MIT
// The one choice of instruction set (simd_internal.h).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

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
#endif

// IF_BUILT(flag, x): x when the build flag (0 or 1) is 1, NULL otherwise (x is then not compiled).
#define IF_BUILT(flag, x) IF_BUILT_(flag, x)
#define IF_BUILT_(flag, x) IF_BUILT_##flag(x)
#define IF_BUILT_0(x) NULL
#define IF_BUILT_1(x) x

// The one list of instruction sets: the enum name (simd_internal.h), the name (its kernels'
// tables are spring_<family>_kernels_<name>, in kernels_<name>.c), the rank in the order of
// preference (the widest highest), whether this build has its kernels, and the check that this
// machine runs it (wasm: a module built with simd128 runs only where it exists; NEON is part of
// every aarch64 processor; SSE2 of every x86-64 one). A new instruction set is a value in
// simd_internal.h's enum, its lane layer and kernels (lanes.h says how) and a line here.
#define SPRING_ISA_LIST(X)                                 \
	X(AVX512, avx512, 5, SPRING_SIMD_X86, cpu_has_avx512f) \
	X(AVX2, avx2, 4, SPRING_SIMD_X86, cpu_has_avx2)        \
	X(SSE2, sse2, 3, SPRING_SIMD_X86, always)              \
	X(SIMD128, simd128, 2, SPRING_SIMD_WASM, always)       \
	X(NEON, neon, 2, SPRING_SIMD_NEON, always)             \
	X(SCALAR, scalar, 1, 1, always)

static const struct isa_row {
	const char *name;
	int rank;
	int (*runs)(void); // NULL: this build has no kernels for it
} rows[SPRING_INTERNAL_ISA_COUNT] = {
#define ROW(e, name, rank, built, check) [SPRING_INTERNAL_ISA_##e] = {#name, rank, IF_BUILT(built, check)},
	SPRING_ISA_LIST(ROW)
#undef ROW
};

// Each family's table of the instruction sets, from the same list (separate tables: a program
// that calls no kernel of a family links none of them).
#define TABLE_ROW(family, e, name, built) [SPRING_INTERNAL_ISA_##e] = IF_BUILT(built, &spring_##family##_kernels_##name),
#define BATCH_ROW(e, name, rank, built, check) TABLE_ROW(batch, e, name, built)
#define TIP_ROW(e, name, rank, built, check) TABLE_ROW(tip, e, name, built)
#define ANGLE_ROW(e, name, rank, built, check) TABLE_ROW(angle, e, name, built)
static const spring_batch_kernels *const batch_tables[SPRING_INTERNAL_ISA_COUNT] = {SPRING_ISA_LIST(BATCH_ROW)};
static const spring_tip_kernels *const tip_tables[SPRING_INTERNAL_ISA_COUNT] = {SPRING_ISA_LIST(TIP_ROW)};
static const spring_angle_kernels *const angle_tables[SPRING_INTERNAL_ISA_COUNT] = {SPRING_ISA_LIST(ANGLE_ROW)};

static const struct isa_row *row_of(spring_internal_isa isa)
{
	return isa > SPRING_INTERNAL_ISA_AUTO && isa < SPRING_INTERNAL_ISA_COUNT && rows[isa].name ? &rows[isa] : NULL;
}

// 1 when the row's instruction set has kernels in this build and this machine runs it.
static int row_runs(const struct isa_row *r)
{
	return r && r->runs && r->runs();
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

const spring_batch_kernels *spring_internal_batch_kernels(void)
{
	return batch_tables[spring_internal_isa_current()];
}

const spring_tip_kernels *spring_internal_tip_kernels(void)
{
	return tip_tables[spring_internal_isa_current()];
}

const spring_angle_kernels *spring_internal_angle_kernels(void)
{
	return angle_tables[spring_internal_isa_current()];
}
