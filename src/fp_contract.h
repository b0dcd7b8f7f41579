// SPDX-License-Identifier: MIT
// Included first by every src/*.c, before any header with inline float code: no fused
// multiply-add (a * b + c rounded once) wherever the library computes floats, whatever the build's
// flags, so that a vendored build gives the same bits as ours (README "Vendoring").
//
// clang honours the standard pragma (it contracts by default otherwise: a vendored `clang -O3
// -march=native` on an FMA machine changed the typed-variant, motion and rig goldens). gcc ignores it and
// warns, so it is left to gcc's flags: gcc does not contract in ISO C mode (-std=c11), and in GNU
// mode it needs -ffp-contract=off, which README "Vendoring" names (its `#pragma GCC optimize` is
// documented as not meant for production code, and it changes the inlining rules). MSVC has its
// own pragma (off by default before VS 2022's /fp:contract).
#ifndef SPRING_FP_CONTRACT_H
#define SPRING_FP_CONTRACT_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

#endif
