// SPDX-License-Identifier: MIT
/// @file detmath.c
/// The library's own exp, expm1, log, log1p, sin, cos, atan2 and acos (see base.h), and
/// spring_hash.
///
/// Only IEEE-754 double addition, subtraction, multiplication, division, square root and exact
/// operations (fabs, integer conversion, bit manipulation) are used, in a fixed order, so with
/// `-ffp-contract=off` the results are bit-identical on every conforming platform. No libm
/// transcendental function is called and nothing depends on the rounding of a wider type.
///
/// Method, per function:
/// - exp, expm1: x = k ln2 + r with |r| <= ln2/2 (ln2 split in a 33-bit head and a tail, so
///   k * head is exact), e^r - 1 by its Taylor series to r^13 (truncation < 2^-56 relative), then
///   scaling by 2^k built from its bit pattern.
/// - log, log1p: x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)), log(1 + f) = 2 atanh(s) with
///   s = f / (2 + f), written as f - s (f - R(s^2)) so the rounding of s barely matters; R is the
///   atanh series to s^19 (truncation < 2^-55 relative). log1p carries the rounding of 1 + x as a
///   first-order correction.
/// - sin, cos: x = n pi/2 + y with |y| <= pi/4 (about), y kept as a double-double. |x| < 2^30:
///   Cody-Waite with pi/2 split in three 22-bit parts (n * part is exact) and a 53-bit tail;
///   larger |x|: Payne-Hanek, x * 2/pi mod 4 in integer arithmetic from a 1280-bit table of
///   2/pi. Then the Taylor series of sin to y^17 and of cos to y^16.
/// - atan2: t = min/max of |y|, |x| (with the division's rounding carried as a correction),
///   atan(t) = atan(k/8) + atan(u), u = (t - k/8) / (1 + t k/8), |u| <= 1/16, atan(u) by its
///   Taylor series to u^13, atan(k/8) from a table of head and tail doubles. Quadrants by
///   pi/2 - a and pi - a with pi/2 and pi as head and tail.
/// - acos: atan2(sqrt((1 - x)(1 + x)), x).
///
/// Constants are mathematical constants rounded to double (computed with 1500-bit arithmetic);
/// the polynomial coefficients are the exact Taylor coefficients 1/n!, 1/n rounded to double.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/base.h"

#include "detmath_internal.h"

#include <math.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Exact helpers

static uint64_t bits_of(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u;
}

static double double_of(uint64_t u)
{
	double x;
	memcpy(&x, &u, sizeof x);
	return x;
}

/// 2^k for k in [-1022, 1023], exactly.
static double pow2i(int k)
{
	return double_of((uint64_t)(k + 1023) << 52);
}

/// p * 2^k with a single rounding, for p in [0.5, 2] and k in [-1100, 1100].
static double scale_pow2(double p, int k)
{
	if (k > 1023) {
		return p * 0x1p1023 * pow2i(k - 1023);
	}
	if (k < -1022) {
		return p * pow2i(k + 1000) * 0x1p-1000; // first product exact, second rounds once
	}
	return p * pow2i(k);
}

/// a * b = *hi + *lo exactly (Dekker), for |a|, |b| < 2^995 and no underflow.
static void two_product(double a, double b, double *hi, double *lo)
{
	const double split = 134217729.0; // 2^27 + 1
	double ca = split * a, cb = split * b;
	double ah = ca - (ca - a), bh = cb - (cb - b);
	double al = a - ah, bl = b - bh;
	*hi = a * b;
	*lo = ((ah * bh - *hi) + ah * bl + al * bh) + al * bl;
}

static double copy_sign(double magnitude, double sign)
{
	uint64_t m = bits_of(magnitude) & ~(1ull << 63);
	return double_of(m | (bits_of(sign) & (1ull << 63)));
}

// ---------------------------------------------------------------------------------------------
// Constants

static const double ln2_hi = 0x1.62e42fee00000p-1; // 33 significant bits
static const double ln2_lo = 0x1.a39ef35793c76p-33;
static const double inv_ln2 = 1.4426950408889634;

static const double pio2_hi = 0x1.921fb54442d18p+0;
static const double pio2_lo = 0x1.1a62633145c07p-54;
static const double pi_hi = 0x1.921fb54442d18p+1;
static const double pi_lo = 0x1.1a62633145c07p-53;
static const double pio4 = 0x1.921fb54442d18p-1;
static const double three_pio4 = 2.356194490192345;

// ---------------------------------------------------------------------------------------------
// exp and expm1

/// e^r - 1 for |r| <= 0.35 (Taylor series to r^13).
static double expm1_poly(double r)
{
	double q = 1.6059043836821613e-10;  // 1/13!
	q = 2.08767569878681e-09 + r * q;   // 1/12!
	q = 2.505210838544172e-08 + r * q;  // 1/11!
	q = 2.755731922398589e-07 + r * q;  // 1/10!
	q = 2.7557319223985893e-06 + r * q; // 1/9!
	q = 2.48015873015873e-05 + r * q;   // 1/8!
	q = 0.0001984126984126984 + r * q;  // 1/7!
	q = 0.001388888888888889 + r * q;   // 1/6!
	q = 0.008333333333333333 + r * q;   // 1/5!
	q = 0.041666666666666664 + r * q;   // 1/4!
	q = 0.16666666666666666 + r * q;    // 1/3!
	q = 0.5 + r * q;                    // 1/2!
	return r + (r * r) * q;
}

/// Splits x = k ln2 + r and returns e^r - 1, with the rounding of r folded in.
static double exp_reduce(double x, int *k)
{
	double kd = spring_det_round_small(x * inv_ln2);
	double hi = x - kd * ln2_hi; // exact: kd * ln2_hi is exact and close to x
	double lo = kd * ln2_lo;
	double r = hi - lo;
	double c = (hi - r) - lo; // r + c = hi - lo to within 2^-105 |r|
	double p = expm1_poly(r);
	*k = (int)kd;
	return p + (c + c * p); // e^(r + c) - 1 = p + c (1 + p) to first order
}

double spring_det_exp(double x)
{
	if (x != x) {
		return x + x;
	}
	if (x > 709.8) {
		return INFINITY; // e^709.79 > DBL_MAX
	}
	if (x < -746.0) {
		return 0.0; // e^-745.2 < 2^-1075
	}
	int k;
	double p = exp_reduce(x, &k);
	return scale_pow2(1.0 + p, k);
}

double spring_det_expm1(double x)
{
	if (x != x) {
		return x + x;
	}
	if (x > 709.8) {
		return INFINITY;
	}
	if (x < -38.0) {
		return -1.0; // e^-38 < 2^-54: -1 + e^x rounds to -1
	}
	if (x == 0.0) {
		return x; // keeps the sign of zero
	}
	if (fabs(x) < 0.34657359027997264) { // ln2 / 2: no reduction
		return expm1_poly(x);
	}
	int k;
	double p = exp_reduce(x, &k);
	if (k >= 1 && k <= 53) {
		return (p + (1.0 - pow2i(-k))) * pow2i(k); // 1 - 2^-k exact; no cancellation
	}
	if (k <= -1 && k >= -53) {
		return (p - (pow2i(-k) - 1.0)) * pow2i(k); // 2^-k - 1 exact
	}
	return scale_pow2(1.0 + p, k) - 1.0;
}

// ---------------------------------------------------------------------------------------------
// log and log1p

/// e ln2 + log(1 + f) + c, for f in [sqrt(1/2) - 1, sqrt(2) - 1] and a small correction c.
static double log_kernel(int e, double f, double c)
{
	double s = f / (2.0 + f);
	double z = s * s;
	// R = 2 (z/3 + z^2/5 + ... + z^9/19): log(1 + f) = 2s + s R and 2s = f - s f.
	double q = 2.0 / 19.0;
	q = 2.0 / 17.0 + z * q;
	q = 2.0 / 15.0 + z * q;
	q = 2.0 / 13.0 + z * q;
	q = 2.0 / 11.0 + z * q;
	q = 2.0 / 9.0 + z * q;
	q = 2.0 / 7.0 + z * q;
	q = 2.0 / 5.0 + z * q;
	q = 2.0 / 3.0 + z * q;
	double r = z * q;
	double ed = (double)e;
	return ed * ln2_hi + (f - (s * (f - r) - (ed * ln2_lo + c)));
}

/// Splits a positive normal x into 2^e * (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)).
static double log_split(double x, int *e)
{
	uint64_t u = bits_of(x);
	double m = double_of((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull); // [1, 2)
	*e = (int)(u >> 52) - 1023;
	if (m > 1.4142135623730951) {
		m *= 0.5;
		*e += 1;
	}
	return m - 1.0; // exact
}

double spring_det_log(double x)
{
	if (x != x) {
		return x + x;
	}
	if (x < 0.0) {
		return NAN;
	}
	if (x == 0.0) {
		return -INFINITY;
	}
	if (x == INFINITY) {
		return x;
	}
	int shift = 0;
	if (x < 0x1p-1022) {
		x *= 0x1p54; // subnormal: make it normal, exactly
		shift = -54;
	}
	int e;
	double f = log_split(x, &e);
	return log_kernel(e + shift, f, 0.0);
}

double spring_det_log1p(double x)
{
	if (x != x) {
		return x + x;
	}
	if (x < -1.0) {
		return NAN;
	}
	if (x == -1.0) {
		return -INFINITY;
	}
	if (x == INFINITY) {
		return x;
	}
	if (x == 0.0) {
		return x; // keeps the sign of zero
	}
	if (x > -0.2928932188134524 && x < 0.41421356237309503) {
		return log_kernel(0, x, 0.0); // 1 + x already in [sqrt(1/2), sqrt(2)): f = x exactly
	}
	double u = 1.0 + x;
	double err = x > 1.0 ? (x - u) + 1.0 : (1.0 - u) + x; // 1 + x = u + err exactly
	int e;
	double f = log_split(u, &e);
	return log_kernel(e, f, err / u);
}

// ---------------------------------------------------------------------------------------------
// sin and cos

/// 2/pi as 32-bit words after the binary point, preceded by one zero word (bits 1..1280).
static const uint32_t two_over_pi_words[41] = {
	0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
	0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026,
	0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f,
	0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1,
	0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d,
};

static int leading_zeros64(uint64_t v)
{
	int n = 0;
	// clang-format off
	if (!(v >> 32)) { n += 32; v <<= 32; }
	if (!(v >> 48)) { n += 16; v <<= 16; }
	if (!(v >> 56)) { n += 8; v <<= 8; }
	if (!(v >> 60)) { n += 4; v <<= 4; }
	if (!(v >> 62)) { n += 2; v <<= 2; }
	if (!(v >> 63)) { n += 1; }
	// clang-format on
	return n;
}

/// Payne-Hanek: for finite ax >= 2^30, ax = n pi/2 + (*hi + *lo); returns n mod 4.
static unsigned reduce_large(double ax, double *hi, double *lo)
{
	uint64_t u = bits_of(ax);
	int e = (int)(u >> 52) - 1075; // ax = m 2^e, m a 53-bit integer, e >= -22
	uint64_t m = (u & 0x000fffffffffffffull) | (1ull << 52);
	// ax 2/pi = m sum_i b_i 2^(e - i); terms with i <= e - 2 are multiples of 4. Take the 192
	// bits b_(e-1) .. b_(e+190) as an integer W: ax 2/pi = m W 2^-190 (mod 4) to within 2^-137.
	int pos = e - 1 + 31; // bit i lives in word (i + 31) / 32, at offset (i + 31) % 32 from the top
	int word = pos >> 5, shift = pos & 31;
	uint32_t w[6]; // least significant first
	for (int j = 0; j < 6; ++j) {
		uint32_t a = two_over_pi_words[word + j], b = two_over_pi_words[word + j + 1];
		w[5 - j] = shift ? (a << shift) | (b >> (32 - shift)) : a;
	}
	// P = m W, 256 bits in eight 32-bit limbs, least significant first.
	uint32_t p[8] = {0};
	uint32_t mlimb[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
	for (int i = 0; i < 2; ++i) {
		uint64_t carry = 0;
		for (int j = 0; j < 6; ++j) {
			uint64_t t = (uint64_t)mlimb[i] * w[j] + p[i + j] + carry;
			p[i + j] = (uint32_t)t;
			carry = t >> 32;
		}
		p[i + 6] = (uint32_t)carry;
	}
	// Bits 191..190 are n mod 4, bits 189..62 the fraction (128 bits, f1:f2).
	unsigned n = (p[5] >> 30) & 3u;
	uint64_t f1 = ((uint64_t)(p[5] & 0x3fffffffu) << 34) | ((uint64_t)p[4] << 2) | (p[3] >> 30);
	uint64_t f2 = ((uint64_t)(p[3] & 0x3fffffffu) << 34) | ((uint64_t)p[2] << 2) | (p[1] >> 30);
	int negative = 0;
	if (f1 >> 63) { // fraction >= 1/2: round n up, y = -(1 - fraction)
		n = (n + 1) & 3u;
		f2 = ~f2 + 1;
		f1 = ~f1 + (f2 == 0);
		negative = 1;
	}
	int exponent = 64; // fraction = (f1 + f2 2^-64) 2^-exponent
	if (f1 == 0) {
		f1 = f2;
		f2 = 0;
		exponent += 64;
	}
	if (f1 == 0) {
		*hi = 0.0;
		*lo = 0.0;
		return n;
	}
	int lz = leading_zeros64(f1);
	if (lz) {
		f1 = (f1 << lz) | (f2 >> (64 - lz));
		exponent += lz;
	}
	double fhi = (double)(f1 >> 11) * pow2i(11 - exponent); // exact, 53 bits
	double flo = (double)(f1 & 0x7ffu) * pow2i(-exponent);  // exact, 11 bits
	double ph, pl;
	two_product(fhi, pio2_hi, &ph, &pl);
	pl += fhi * pio2_lo + flo * pio2_hi;
	double y = ph + pl;
	double ylo = (ph - y) + pl;
	*hi = negative ? -y : y;
	*lo = negative ? -ylo : ylo;
	return n;
}

/// For finite x with |x| >= 2^-27: x = n pi/2 + (*hi + *lo), |*hi| <= pi/4 (about); returns
/// n mod 4.
static unsigned reduce_pio2(double x, double *hi, double *lo)
{
	if (fabs(x) < SPRING_DET_SINCOS_REDUCED) {
		return spring_det_reduce_small(x, hi, lo);
	}
	double yh, yl;
	unsigned n = reduce_large(fabs(x), &yh, &yl);
	if (x < 0.0) {
		yh = -yh;
		yl = -yl;
		n = (4u - n) & 3u;
	}
	*hi = yh;
	*lo = yl;
	return n;
}

void spring_det_sincos(double x, double *s, double *c)
{
	if (x - x != 0.0) { // NaN or infinity
		*s = *c = x - x;
		return;
	}
	if (fabs(x) < SPRING_DET_SINCOS_REDUCED) {
		spring_det_sincos_reduced(x, s, c);
		return;
	}
	double y, ylo;
	unsigned n = reduce_pio2(x, &y, &ylo);
	double sy = spring_det_sin_kernel(y, ylo), cy = spring_det_cos_kernel(y, ylo);
	switch (n) {
	// clang-format off
	case 0: *s = sy; *c = cy; break;
	case 1: *s = cy; *c = -sy; break;
	case 2: *s = -sy; *c = -cy; break;
	default: *s = -cy; *c = sy; break;
		// clang-format on
	}
}

double spring_det_sin(double x)
{
	if (x - x != 0.0) {
		return x - x;
	}
	if (fabs(x) < 0x1p-27) {
		return x;
	}
	double y, ylo;
	unsigned n = reduce_pio2(x, &y, &ylo);
	double r = (n & 1u) ? spring_det_cos_kernel(y, ylo) : spring_det_sin_kernel(y, ylo);
	return (n & 2u) ? -r : r;
}

double spring_det_cos(double x)
{
	if (x - x != 0.0) {
		return x - x;
	}
	if (fabs(x) < 0x1p-27) {
		return 1.0;
	}
	double y, ylo;
	unsigned n = reduce_pio2(x, &y, &ylo);
	double r = (n & 1u) ? spring_det_sin_kernel(y, ylo) : spring_det_cos_kernel(y, ylo);
	return ((n + 1u) & 2u) ? -r : r;
}

// ---------------------------------------------------------------------------------------------
// atan2 and acos

/// atan(k/8) = head + tail, k = 0..8.
static const double atan_head[9] = {
	0.0,
	0.12435499454676144,
	0.24497866312686414,
	0.35877067027057225,
	0.4636476090008061,
	0.5585993153435624,
	0.6435011087932844,
	0.7188299996216245,
	0.7853981633974483,
};
static const double atan_tail[9] = {
	0.0,
	-3.1253241424539383e-18,
	1.0698755618734451e-17,
	-2.4623815582638635e-17,
	2.2698777452961687e-17,
	-5.4556305485916264e-18,
	1.5834785051444286e-17,
	-2.1478388444456983e-17,
	3.061616997868383e-17,
};

/// atan(t + tlo) for t in [0, 1], |tlo| <= ulp(t).
static double atan_kernel(double t, double tlo)
{
	int k = (int)(t * 8.0 + 0.5);
	double c = (double)k * 0.125;
	double u = (t - c) / (1.0 + t * c); // t - c exact; |u| <= 1/16
	double z = u * u;
	double q = 1.0 / 13.0;
	q = -1.0 / 11.0 + z * q;
	q = 1.0 / 9.0 + z * q;
	q = -1.0 / 7.0 + z * q;
	q = 1.0 / 5.0 + z * q;
	q = -1.0 / 3.0 + z * q;
	double small = (u * z) * q + (tlo / (1.0 + t * t) + atan_tail[k]);
	return atan_head[k] + (u + small);
}

double spring_det_atan2(double y, double x)
{
	if (x != x || y != y) {
		return x + y;
	}
	double ay = fabs(y), ax = fabs(x);
	int x_negative = (bits_of(x) >> 63) != 0;
	double r;
	if (ay == 0.0) {
		r = x_negative ? pi_hi : 0.0; // atan2(+-0, -0) = +-pi, atan2(+-0, +0) = +-0
	} else if (ax == 0.0) {
		r = pio2_hi;
	} else if (ay == INFINITY) {
		r = ax == INFINITY ? (x_negative ? three_pio4 : pio4) : pio2_hi;
	} else if (ax == INFINITY) {
		r = x_negative ? pi_hi : 0.0;
	} else {
		int swapped = ay > ax;
		double num = swapped ? ax : ay, den = swapped ? ay : ax;
		// Scale out extreme exponents (exact) so the residual below is exact.
		if (den > 0x1p900) {
			num *= 0x1p-600;
			den *= 0x1p-600;
		} else if (den < 0x1p-900) {
			num *= 0x1p600;
			den *= 0x1p600;
		}
		double t = num / den;
		double tlo = 0.0;
		if (num > 0x1p-900) {
			double ph, pl;
			two_product(t, den, &ph, &pl);
			tlo = ((num - ph) - pl) / den; // num - ph exact
		}
		double a = atan_kernel(t, tlo);
		if (!swapped) {
			r = x_negative ? pi_hi - (a - pi_lo) : a;
		} else {
			r = x_negative ? pio2_hi + (a + pio2_lo) : pio2_hi - (a - pio2_lo);
		}
	}
	return copy_sign(r, y);
}

double spring_det_acos(double x)
{
	if (x != x) {
		return x + x;
	}
	if (x > 1.0) {
		x = 1.0;
	} else if (x < -1.0) {
		x = -1.0;
	}
	return spring_det_atan2(sqrt((1.0 - x) * (1.0 + x)), x);
}

// ---------------------------------------------------------------------------------------------

uint64_t spring_hash(uint64_t hash, const void *data, size_t size)
{
	const unsigned char *bytes = (const unsigned char *)data;
	for (size_t i = 0; i < size; ++i) {
		hash ^= bytes[i];
		hash *= 1099511628211ull;
	}
	return hash;
}
