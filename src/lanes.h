// SPDX-License-Identifier: MIT
// The lane layer: one vocabulary of inline functions over a vector of float lanes, a vector of
// int32 lanes and a lane mask, which every vector kernel of the library is written against
// (batch_kernel.h, chain_kernel.h). Each instruction set defines it once, in its own file:
//   lanes_scalar.h   one lane, plain C (every platform and compiler)
//   lanes_sse2.h     x86-64, 4 lanes          lanes_avx2.h     x86-64 with AVX2, 8 lanes
//   lanes_avx512.h   x86-64 with AVX-512F, 16 lanes, masks in mask registers
//   lanes_simd128.h  wasm32 with simd128, 4 lanes
//   lanes_neon.h     aarch64 Advanced SIMD, 4 lanes
// (the vector ones share lanes_vector.h, the GCC/Clang vector-type half). The names carry the
// set's prefix so that two sets can sit in one file: LANES_SSE2(f) is lanes_sse2_f. A kernel
// template is written with L(name) and instantiated with `#define L LANES_SSE2`.
//
// Types: L(f) floats, L(i) int32s, L(m) a mask (0/1 in one lane, all-ones/zero int32 lanes in
// vectors, a __mmask16 on AVX-512; masks also combine with & | ^), L(fu) floats as stored where
// only a float's alignment is known (L(f) but on AVX-512); L(W) the lanes (a constant expression).
// Every operation is the same float operation in every lane and on every set (no fused
// multiply-add: fp_contract.h; min and max are SSE's: the second operand when either is NaN),
// so a kernel gives the same bits on every instruction set:
//   splat(x), splati(n)          x or n in every lane
//   load(p), store(p, v)         W floats at p (any alignment); loadi, storei: W ints
//   sqrt, abs, min, max          per lane (abs clears the sign bit)
//   eq ne lt le gt ge            float comparisons to a mask (ne is true for NaN, the rest false)
//   ieq, ilt, itest(a, b)        int lanes equal, less; (a & b) != 0
//   mask(m)                      int lanes, nonzero where m is set
//   bits(v), toint(v)            the floats' bits; the floats (whole numbers) converted
//   and, or, not                 masks
//   any(m), all(m)               some, every lane of m set
//   sel(m, a, b), seli(m, a, b)  a where m is set, b elsewhere (floats, ints)
//   get(v, l), set(&v, l, x)     lane l of floats; geti, seti: of ints; has(m, l): mask lane set
//   even(a, b), odd(a, b)        the even and odd lanes of the concatenation a:b, in order
//   unzip_even, unzip_odd, unzip_perm(t), zip_lo, zip_hi, unzip_pair(k):
//                                the cheapest split of interleaved pairs a:b into their first and
//                                second members (lane k holding pair unzip_pair(k)), the same
//                                permutation of a vector t, and its inverse (the pairs back)
// Adding an instruction set: its lanes_<set>.h, its kernels_<set>.c (every family built over it
// and its tables: copy kernels_sse2.c), a value in simd_internal.h's enum and one line in
// simd.c's list of instruction sets. NEON was added so.
#ifndef SPRING_LANES_H
#define SPRING_LANES_H

#include <stdint.h>
#include <string.h>

// Forced inlining is for speed: a build for size (-Os, -Oz: the npm package's wasm) leaves the
// choice to the compiler (chain_impl.h's ALWAYS_INLINE likewise).
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__)
#define LANES_INLINE_ATTR __attribute__((always_inline))
#else
#define LANES_INLINE_ATTR
#endif
#define LANES_INLINE static inline LANES_INLINE_ATTR

#endif
