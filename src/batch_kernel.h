// SPDX-License-Identifier: MIT
// The vector kernels of batch.c, written once and included there once per instruction set.
// Before including, batch.c defines (and this file undefines at its end):
//   KERNEL(name)   the name with the instruction set's suffix
//   TARGET         the function attribute that enables the instruction set (may be empty)
//   LANES          floats per vector; VF, VI: float and int32 vectors of LANES lanes
//   ALL(m)         nonzero when every lane of the mask m is set (MASK: see below)
//   EVEN(a, b), ODD(a, b)  the even and odd lanes of the concatenation a:b
//   AOS_X(a, b), AOS_V(a, b), AOS_T(t), AOS_LO(x, v), AOS_HI(x, v), AOS_ORDER: the positions
//                  and velocities of the spring_states in a:b, the targets in the same order, the
//                  two halves of x and v interleaved back, and which spring each lane holds
// Per lane these are exactly the float operations of spring_stepper_step, in the same order
// (contraction is off for the whole build, and none of the instruction sets is asked for FMA),
// followed, when rest detection is on, by exactly spring_rest's test and snap. Each kernel covers
// the whole vectors of its range and returns how many springs it did; batch.c steps the rest one
// at a time.

// Lane masks: vectors of all-ones / zero lanes unless the instruction set has mask registers
// (AVX-512 defines MASK, LE, AND, BLEND and SET itself).
#ifndef MASK
#define MASK VI
#define LE(a, b) ((a) <= (b))
#define AND(m, n) ((m) & (n))
#define BLEND(m, a, b) ((VF)((((VI)(a)) & (m)) | (((VI)(b)) & ~(m))))
#define SET(m, k) ((m)[k])
#endif
// |a|, and the lanes of a that are finite floats.
#define ABS(a) ((VF)((VI)(a)&0x7fffffff))
#define FINITE(a) LE(ABS(a), KERNEL(splat)(FLT_MAX))

TARGET static inline VF KERNEL(load)(const void *p)
{
	VF r;
	memcpy(&r, p, sizeof r);
	return r;
}

TARGET static inline void KERNEL(store)(void *p, VF a)
{
	memcpy(p, &a, sizeof a);
}

TARGET static inline VF KERNEL(splat)(float s)
{
	VF r;
	for (int k = 0; k < LANES; k++) {
		r[k] = s;
	}
	return r;
}

// The lowest clear lane of a mask that has one.
TARGET static inline int KERNEL(first_clear)(MASK m)
{
	int k = 0;
	while (k < LANES - 1 && SET(m, k)) {
		k++;
	}
	return k;
}

// Springs [0, n) of the structure of arrays: whole vectors only. Returns the springs done (a
// multiple of LANES); `*bad` gets the first refused index when it is still -1. Inlined into
// KERNEL(soa) once per (per-spring transitions, rest snapping) pair, so the loop never tests them.
TARGET static inline ALWAYS_INLINE int KERNEL(soa_body)(const batch_job *job, int n, int *bad, int per_spring, int snap)
{
	float *xs = job->x, *vs = job->v;
	const float *ts = job->target;
	const spring_stepper *steppers = job->steppers;
	VF pp = KERNEL(splat)(job->shared.pp), pv = KERNEL(splat)(job->shared.pv);
	VF vp = KERNEL(splat)(job->shared.vp), vv = KERNEL(splat)(job->shared.vv);
	VF rest_delta = KERNEL(splat)(job->rest_delta), rest_speed = KERNEL(splat)(job->rest_speed);
	VF zero = KERNEL(splat)(0.0f);
	int i = 0;
	for (; i + LANES <= n; i += LANES) {
		if (per_spring) {
			// LANES steppers (pp pv vp vv each) transposed into one vector per coefficient.
			const spring_stepper *c = steppers + i;
			VF r0 = KERNEL(load)(c), r1 = KERNEL(load)(c + LANES / 4);
			VF r2 = KERNEL(load)(c + LANES / 2), r3 = KERNEL(load)(c + 3 * LANES / 4);
			VF e01 = EVEN(r0, r1), o01 = ODD(r0, r1), e23 = EVEN(r2, r3), o23 = ODD(r2, r3);
			pp = EVEN(e01, e23);
			vp = ODD(e01, e23);
			pv = EVEN(o01, o23);
			vv = ODD(o01, o23);
		}
		VF x = KERNEL(load)(xs + i), v = KERNEL(load)(vs + i), t = KERNEL(load)(ts + i);
		VF e = x - t;
		VF ne = pp * e + pv * v;
		VF nv = vp * e + vv * v;
		VF nx = t + ne;
		MASK ok = AND(FINITE(nx), FINITE(nv));
		if (snap) {
			// A refused lane never rests: its nx or nv is not finite.
			MASK rest = AND(LE(ABS(nx - t), rest_delta), LE(ABS(nv), rest_speed));
			nx = BLEND(rest, t, nx);
			nv = BLEND(rest, zero, nv);
		}
		if (!ALL(ok)) { // refused lanes keep their state
			nx = BLEND(ok, nx, x);
			nv = BLEND(ok, nv, v);
			*bad = *bad < 0 ? i + KERNEL(first_clear)(ok) : *bad;
		}
		KERNEL(store)(xs + i, nx);
		KERNEL(store)(vs + i, nv);
	}
	return i;
}

TARGET static int KERNEL(soa)(const batch_job *job, int n, int *bad)
{
	if (job->steppers) {
		return job->rest ? KERNEL(soa_body)(job, n, bad, 1, 1) : KERNEL(soa_body)(job, n, bad, 1, 0);
	}
	return job->rest ? KERNEL(soa_body)(job, n, bad, 0, 1) : KERNEL(soa_body)(job, n, bad, 0, 0);
}

// Springs [0, n) of an array of spring_state (x v x v ...) with one stepper: whole vectors only,
// as KERNEL(soa). The positions and velocities are split with in-lane shuffles, so lane k holds
// spring AOS_ORDER[k] of the vector's springs; the targets are permuted to match.
TARGET static int KERNEL(aos)(const spring_stepper *st, spring_state *states, const float *ts, int n, int *bad)
{
	static const int order[LANES] = {AOS_ORDER};
	VF pp = KERNEL(splat)(st->pp), pv = KERNEL(splat)(st->pv), vp = KERNEL(splat)(st->vp), vv = KERNEL(splat)(st->vv);
	int i = 0;
	for (; i + LANES <= n; i += LANES) {
		spring_state *s = states + i;
		VF a = KERNEL(load)(s), b = KERNEL(load)(s + LANES / 2), t = KERNEL(load)(ts + i);
		VF x = AOS_X(a, b), v = AOS_V(a, b);
		t = AOS_T(t);
		VF e = x - t;
		VF ne = pp * e + pv * v;
		VF nv = vp * e + vv * v;
		VF nx = t + ne;
		MASK ok = AND(FINITE(nx), FINITE(nv));
		if (!ALL(ok)) { // refused lanes keep their state
			nx = BLEND(ok, nx, x);
			nv = BLEND(ok, nv, v);
			int first = LANES;
			for (int k = 0; k < LANES; k++) {
				first = !SET(ok, k) && order[k] < first ? order[k] : first;
			}
			*bad = *bad < 0 ? i + first : *bad;
		}
		KERNEL(store)(s, AOS_LO(nx, nv));
		KERNEL(store)(s + LANES / 2, AOS_HI(nx, nv));
	}
	return i;
}

#undef MASK
#undef LE
#undef AND
#undef BLEND
#undef SET
#undef ABS
#undef FINITE
// The parameters too, for the next instruction set.
#undef KERNEL
#undef TARGET
#undef LANES
#undef VF
#undef VI
#undef ALL
#undef EVEN
#undef ODD
#undef AOS_X
#undef AOS_V
#undef AOS_T
#undef AOS_LO
#undef AOS_HI
#undef AOS_ORDER
