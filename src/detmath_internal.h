// SPDX-License-Identifier: MIT
// The deterministic maths the hot loops inline (not installed): the angle fold and sin/cos of an
// angle of moderate size. detmath.c builds spring_det_sincos on the same pieces, and spring.c its
// angle fold, so each rule lives here once and the inlined versions give the very same bits.
//
// Only IEEE-754 double +, -, * and exact operations (negation, comparisons, integer conversion),
// in a fixed order: with -ffp-contract=off the results are bit-identical on every conforming
// platform (gcc, clang, wasm32). No branch depends on anything but comparisons, so compilers turn
// the selects into conditional moves or blends and loops over many angles vectorise.
#ifndef SPRING_DETMATH_INTERNAL_H
#define SPRING_DETMATH_INTERNAL_H

#include "spring/base.h"

#include <math.h>
#include <stdint.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// ---------------------------------------------------------------------------------------------
// Angle fold

/// 2 pi and pi as the doubles the fold works with (2 pi is exactly twice pi).
#define SPRING_DET_TWO_PI (2.0 * SPRING_PI)

/// Largest |d| the bounded fold takes without fmod: below 3 pi one subtraction of 2 pi lands in
/// (-pi, pi], and by Sterbenz's lemma that subtraction is exact.
#define SPRING_DET_FOLD_BOUNDED 9.0

/// `d` folded onto (-pi, pi] in double: the exact d - m 2pi (m an integer) in that interval.
/// |d| < SPRING_DET_FOLD_BOUNDED: one exact subtraction chosen without a branch; beyond it fmod
/// (exact too). NaN and infinities give NaN.
static inline double spring_det_fold(double d)
{
	if (!(fabs(d) < SPRING_DET_FOLD_BOUNDED)) {
		d = fmod(d, SPRING_DET_TWO_PI); // exact; |result| < 2 pi, so one more subtraction suffices
	}
	// Exact where selected; `up` as a negated difference so that -2 pi folds to -0 as fmod does.
	double up = -(-d - SPRING_DET_TWO_PI), down = d - SPRING_DET_TWO_PI;
	return d > SPRING_PI ? down : (d <= -SPRING_PI ? up : d);
}

/// spring_det_fold rounded to float inside the interval: rounding can land exactly on -pi's
/// float, which becomes +pi's (the interval is half-open). The one angle fold behind
/// spring_angle_wrap/delta/lerp (spring_internal_angle_fold) and the chains.
static inline float spring_det_fold_float(double d)
{
	float f = (float)spring_det_fold(d);
	return f <= -(float)SPRING_PI ? (float)SPRING_PI : f;
}

// ---------------------------------------------------------------------------------------------
// sin and cos

/// Rounding error of s = a + b (s must be the rounded sum): a + b = s + error exactly.
static inline double spring_det_two_sum_error(double a, double b, double s)
{
	double bb = s - a;
	return (a - (s - bb)) + (b - bb);
}

/// v rounded to the nearest integer (halves away from zero), for |v| < 2^31 - 1.
static inline double spring_det_round_small(double v)
{
	double down = v - 0.5, up = v + 0.5; // both computed: a select, no branch (loops vectorise)
	return (double)(int32_t)(v < 0.0 ? down : up);
}

/// 2/pi rounded to double.
#define SPRING_DET_TWO_OVER_PI 0x1.45f306dc9c883p-1
/// pi/2 = P1 + P2 + P3 + P4 (+ 1e-37): P1..P3 have 22 significant bits, so n * Pk is exact for
/// |n| < 2^31.
#define SPRING_DET_PIO2_P1 0x1.921fb00000000p+0
#define SPRING_DET_PIO2_P2 0x1.5110b00000000p-22
#define SPRING_DET_PIO2_P3 0x1.1846980000000p-44
#define SPRING_DET_PIO2_P4 0x1.3198a2e037073p-69
/// Largest |x| the Cody-Waite reduction takes (spring_det_sincos reduces larger ones differently).
#define SPRING_DET_SINCOS_REDUCED 0x1p30

/// sin(y + ylo) for |y| <= pi/4 (a little more is fine), |ylo| <= ulp(y): the Taylor series of
/// sin to y^17 (coefficients 1/n! rounded to double).
static inline double spring_det_sin_kernel(double y, double ylo)
{
	double z = y * y;
	// sin y = y - y z q with q = 1/3! - z/5! + z^2/7! - ... - z^7/17!.
	double q = -2.8114572543455206e-15;  // -1/17!
	q = 7.647163731819816e-13 + z * q;   //  1/15!
	q = -1.6059043836821613e-10 + z * q; // -1/13!
	q = 2.505210838544172e-08 + z * q;   //  1/11!
	q = -2.7557319223985893e-06 + z * q; // -1/9!
	q = 0.0001984126984126984 + z * q;   //  1/7!
	q = -0.008333333333333333 + z * q;   // -1/5!
	q = 0.16666666666666666 + z * q;     //  1/3!
	return y + (ylo * (1.0 - 0.5 * z) - (y * z) * q);
}

/// cos(y + ylo) for |y| <= pi/4 (a little more is fine), |ylo| <= ulp(y): the Taylor series of
/// cos to y^16.
static inline double spring_det_cos_kernel(double y, double ylo)
{
	double z = y * y;
	double q = 4.779477332387385e-14;    //  1/16!
	q = -1.1470745597729725e-11 + z * q; // -1/14!
	q = 2.08767569878681e-09 + z * q;    //  1/12!
	q = -2.755731922398589e-07 + z * q;  // -1/10!
	q = 2.48015873015873e-05 + z * q;    //  1/8!
	q = -0.001388888888888889 + z * q;   // -1/6!
	q = 0.041666666666666664 + z * q;    //  1/4!
	double hz = 0.5 * z;
	double w = 1.0 - hz;
	// (1 - w) - hz is the rounding error of w, exactly (Sterbenz twice).
	return w + (((1.0 - w) - hz) + ((z * z) * q - y * ylo));
}

/// Cody-Waite: for |x| < SPRING_DET_SINCOS_REDUCED, x = n pi/2 + (*hi + *lo) with |*hi| <= pi/4
/// (about); returns n mod 4.
static inline unsigned spring_det_reduce_small(double x, double *hi, double *lo)
{
	double n = spring_det_round_small(x * SPRING_DET_TWO_OVER_PI); // |n| < 2^30
	double a = x - n * SPRING_DET_PIO2_P1;                         // exact (products exact, Sterbenz)
	double b = n * SPRING_DET_PIO2_P2;                             // exact
	double s = a - b;
	double err = spring_det_two_sum_error(a, -b, s);
	b = n * SPRING_DET_PIO2_P3; // exact
	double s2 = s - b;
	err += spring_det_two_sum_error(s, -b, s2);
	err -= n * SPRING_DET_PIO2_P4;
	double y = s2 + err;
	*hi = y;
	*lo = spring_det_two_sum_error(s2, err, y);
	return (unsigned)(int32_t)n & 3u;
}

/// sin and cos of a finite x with |x| < SPRING_DET_SINCOS_REDUCED (every angle a chain steps:
/// they are folded onto (-pi, pi]): bit-identical to spring_det_sincos there, without its calls
/// and branches (the quadrant is selected arithmetically). Error within 1 ulp of the exact values.
static inline void spring_det_sincos_reduced(double x, double *s, double *c)
{
	double y, ylo;
	unsigned n = spring_det_reduce_small(x, &y, &ylo);
	double sy = spring_det_sin_kernel(y, ylo), cy = spring_det_cos_kernel(y, ylo);
	// Selects between values all computed (no branch, so loops over many angles vectorise).
	double so = (n & 1u) ? cy : sy, co = (n & 1u) ? sy : cy;
	double nso = -so, nco = -co;
	so = (n & 2u) ? nso : so;
	co = ((n + 1u) & 2u) ? nco : co;
	// Below 2^-27, sin x = x and cos x = 1 to within half an ulp (this also keeps -0's sign).
	int tiny = fabs(x) < 0x1p-27;
	*s = tiny ? x : so;
	*c = tiny ? 1.0 : co;
}

#endif
