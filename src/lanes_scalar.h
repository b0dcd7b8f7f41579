// SPDX-License-Identifier: MIT
// The lane layer (lanes.h) for one lane, in plain C: every platform and compiler. A mask is an
// int, 0 or 1.
#ifndef SPRING_LANES_SCALAR_H
#define SPRING_LANES_SCALAR_H

#include "lanes.h"

#include <math.h>

#define LANES_SCALAR(name) lanes_scalar_##name
#define lanes_scalar_W 1
#define LANES_SCALAR_TARGET
typedef float lanes_scalar_f;
typedef int32_t lanes_scalar_i;
typedef float lanes_scalar_fu;
typedef int lanes_scalar_m;

LANES_INLINE float lanes_scalar_splat(float x)
{
	return x;
}

LANES_INLINE int32_t lanes_scalar_splati(int32_t n)
{
	return n;
}

LANES_INLINE float lanes_scalar_load(const float *p)
{
	return *p;
}

LANES_INLINE void lanes_scalar_store(float *p, float v)
{
	*p = v;
}

LANES_INLINE int32_t lanes_scalar_loadi(const int32_t *p)
{
	return *p;
}

LANES_INLINE void lanes_scalar_storei(int32_t *p, int32_t v)
{
	*p = v;
}

LANES_INLINE float lanes_scalar_sqrt(float v)
{
	return sqrtf(v);
}

LANES_INLINE float lanes_scalar_abs(float v)
{
	return fabsf(v);
}

LANES_INLINE float lanes_scalar_min(float a, float b)
{
	return a < b ? a : b;
}

LANES_INLINE float lanes_scalar_max(float a, float b)
{
	return a > b ? a : b;
}

LANES_INLINE int lanes_scalar_eq(float a, float b)
{
	return a == b;
}

LANES_INLINE int lanes_scalar_ne(float a, float b)
{
	return a != b;
}

LANES_INLINE int lanes_scalar_lt(float a, float b)
{
	return a < b;
}

LANES_INLINE int lanes_scalar_le(float a, float b)
{
	return a <= b;
}

LANES_INLINE int lanes_scalar_gt(float a, float b)
{
	return a > b;
}

LANES_INLINE int lanes_scalar_ge(float a, float b)
{
	return a >= b;
}

LANES_INLINE int lanes_scalar_ieq(int32_t a, int32_t b)
{
	return a == b;
}

LANES_INLINE int lanes_scalar_ilt(int32_t a, int32_t b)
{
	return a < b;
}

LANES_INLINE int lanes_scalar_itest(int32_t a, int32_t b)
{
	return (a & b) != 0;
}

LANES_INLINE int lanes_scalar_and(int m, int n)
{
	return m & n;
}

LANES_INLINE int lanes_scalar_or(int m, int n)
{
	return m | n;
}

LANES_INLINE int lanes_scalar_not(int m)
{
	return !m;
}

LANES_INLINE int lanes_scalar_any(int m)
{
	return m;
}

LANES_INLINE int lanes_scalar_all(int m)
{
	return m;
}

// The selects are C's conditional operator, which evaluates only the operand it takes: one lane's
// code may select between a cheap value and a costly one (a fold, a wrap) and compute the costly
// one only when it is taken (as a function, both would be computed on every call: the single
// angle chain's step measured 11% slower so).
#define lanes_scalar_sel(m, a, b) ((m) ? (a) : (b))
#define lanes_scalar_seli(m, a, b) ((m) ? (a) : (b))

LANES_INLINE int32_t lanes_scalar_mask(int m)
{
	return m;
}

LANES_INLINE int32_t lanes_scalar_bits(float x)
{
	int32_t i;
	memcpy(&i, &x, sizeof i);
	return i;
}

LANES_INLINE int32_t lanes_scalar_toint(float x)
{
	return (int32_t)x;
}

LANES_INLINE float lanes_scalar_get(float v, int l)
{
	(void)l;
	return v;
}

LANES_INLINE void lanes_scalar_set(float *v, int l, float x)
{
	(void)l;
	*v = x;
}

LANES_INLINE int32_t lanes_scalar_geti(int32_t v, int l)
{
	(void)l;
	return v;
}

LANES_INLINE void lanes_scalar_seti(int32_t *v, int l, int32_t x)
{
	(void)l;
	*v = x;
}

LANES_INLINE int lanes_scalar_has(int m, int l)
{
	(void)l;
	return m;
}

#endif
