// SPDX-License-Identifier: MIT
// Spring skeletons: the lanes of a block of instances and the maths on them, in double (only
// +, -, *, / and sqrt: the same bits on every platform), for the runtime (skeleton_runtime.c) and
// the rest pose the description's check measures (skeleton.c): one formula for both. A lane's
// numbers are those one instance would have alone; a single value is all lanes splat.
#ifndef SPRING_SKELETON_LANES_H
#define SPRING_SKELETON_LANES_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define SKELETON_LANES 2
// A block's lanes of one number. Stored 16-byte aligned (the memory a caller gives is).
typedef double lane __attribute__((vector_size(SKELETON_LANES * sizeof(double)), aligned(16)));
typedef long long lane_mask __attribute__((vector_size(SKELETON_LANES * sizeof(long long)), aligned(16)));

typedef struct lmat {
	lane m[12]; // rows of a 3x4 affine: m[row * 4 + col]
} lmat;

typedef struct llocal {
	lane t[3], q[4];
} llocal;

static inline lane splat(double x)
{
	return (lane){0} + x;
}

static inline lane lsqrt(lane x)
{
	lane r;
	for (int l = 0; l < SKELETON_LANES; l++) {
		r[l] = sqrt(x[l]);
	}
	return r;
}

static inline lane lselect(lane_mask m, lane a, lane b)
{
	return (lane)(((lane_mask)a & m) | ((lane_mask)b & ~m));
}

static inline bool any(lane_mask m)
{
	long long r = 0;
	for (int l = 0; l < SKELETON_LANES; l++) {
		r |= m[l];
	}
	return r != 0;
}

static inline bool all(lane_mask m)
{
	long long r = -1;
	for (int l = 0; l < SKELETON_LANES; l++) {
		r &= m[l];
	}
	return r != 0;
}

static inline lane dot(const lane a[3], const lane b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void normalize(lane v[3])
{
	lane len = lsqrt(dot(v, v));
	lane_mask some = len > 0.0;
	lane by = lselect(some, len, splat(1.0));
	for (int k = 0; k < 3; k++) {
		v[k] = lselect(some, v[k] / by, v[k]);
	}
}

static inline void qmul(const lane a[4], const lane b[4], lane out[4])
{
	lane r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
	             a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
	memcpy(out, r, sizeof r);
}

static inline void qnormalize(lane q[4])
{
	lane len = lsqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	for (int k = 0; k < 4; k++) {
		q[k] /= len;
	}
}

static inline lmat compose(const lane t[3], const lane q[4], const double s[3], bool unit)
{
	lane x = q[0], y = q[1], z = q[2], w = q[3];
	lane r[9] = {
		1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w),       2.0 * (x * z + y * w),
		2.0 * (x * y + z * w),       1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
		2.0 * (x * z - y * w),       2.0 * (y * z + x * w),       1.0 - 2.0 * (x * x + y * y),
	};
	lmat a;
	for (int row = 0; row < 3; row++) {
		for (int col = 0; col < 3; col++) {
			a.m[row * 4 + col] = unit ? r[row * 3 + col] : r[row * 3 + col] * s[col]; // x 1 is exact
		}
		a.m[row * 4 + 3] = t[row];
	}
	return a;
}

static inline lmat mul(const lmat *a, const lmat *b)
{
	lmat c;
	for (int row = 0; row < 3; row++) {
		const lane *ar = &a->m[row * 4];
		for (int col = 0; col < 3; col++) {
			c.m[row * 4 + col] = ar[0] * b->m[col] + ar[1] * b->m[4 + col] + ar[2] * b->m[8 + col];
		}
		c.m[row * 4 + 3] = ar[0] * b->m[3] + ar[1] * b->m[7] + ar[2] * b->m[11] + ar[3];
	}
	return c;
}

static inline void inverse3(const lmat *a, lane inv[9])
{
	const lane *m = a->m;
	lane c00 = m[5] * m[10] - m[6] * m[9], c01 = m[6] * m[8] - m[4] * m[10], c02 = m[4] * m[9] - m[5] * m[8];
	lane det = m[0] * c00 + m[1] * c01 + m[2] * c02;
	inv[0] = c00 / det;
	inv[1] = (m[2] * m[9] - m[1] * m[10]) / det;
	inv[2] = (m[1] * m[6] - m[2] * m[5]) / det;
	inv[3] = c01 / det;
	inv[4] = (m[0] * m[10] - m[2] * m[8]) / det;
	inv[5] = (m[2] * m[4] - m[0] * m[6]) / det;
	inv[6] = c02 / det;
	inv[7] = (m[1] * m[8] - m[0] * m[9]) / det;
	inv[8] = (m[0] * m[5] - m[1] * m[4]) / det;
}

static inline lmat inverse(const lmat *a)
{
	lane l[9];
	inverse3(a, l);
	lmat r;
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			r.m[i * 4 + j] = l[i * 3 + j];
		}
		r.m[i * 4 + 3] = -(l[i * 3] * a->m[3] + l[i * 3 + 1] * a->m[7] + l[i * 3 + 2] * a->m[11]);
	}
	return r;
}

static inline void point(const lmat *a, const lane p[3], lane out[3])
{
	lane x = p[0], y = p[1], z = p[2];
	for (int row = 0; row < 3; row++) {
		const lane *r = &a->m[row * 4];
		out[row] = r[0] * x + r[1] * y + r[2] * z + r[3];
	}
}

static inline void point_const(const lmat *a, const double p[3], lane out[3])
{
	lane v[3] = {splat(p[0]), splat(p[1]), splat(p[2])};
	point(a, v, out);
}

static inline void origin(const lmat *a, lane out[3])
{
	out[0] = a->m[3];
	out[1] = a->m[7];
	out[2] = a->m[11];
}

static inline lmat identity_matrix(void)
{
	lmat m;
	for (int k = 0; k < 12; k++) {
		m.m[k] = splat(k % 5 == 0 ? 1.0 : 0.0); // 0, 5, 10: the diagonal
	}
	return m;
}

// Whether compose may skip the scale (x 1 is exact: the same bits either way).
static inline bool unit_scale(const double s[3])
{
	return s[0] == 1.0 && s[1] == 1.0 && s[2] == 1.0;
}

// A bone's rest shape from its head's and tail's rest matrices (`tail` NULL: the end tail
// `end_tail`, in the head's space): the tail in the head's space into tail_local; returns the
// rest length (lane 0: the matrices are the same in every lane).
static inline double skeleton_bone_rest(const lmat *head, const lmat *tail, const double end_tail[3], double tail_local[3])
{
	lane tl[3], hw[3], tw[3];
	if (tail) {
		lmat inv = inverse(head);
		origin(tail, tw);
		point(&inv, tw, tl);
		for (int i = 0; i < 3; i++) {
			tail_local[i] = tl[i][0];
		}
	} else {
		memcpy(tail_local, end_tail, 3 * sizeof(double));
	}
	origin(head, hw);
	point_const(head, tail_local, tw);
	lane dv[3] = {tw[0] - hw[0], tw[1] - hw[1], tw[2] - hw[2]};
	return lsqrt(dot(dv, dv))[0];
}

#endif
