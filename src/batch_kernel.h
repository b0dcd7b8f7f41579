// SPDX-License-Identifier: MIT
// The batch kernels (batch.c runs them), written once over the lane layer and included once per
// vector instruction set (kernels_<set>.c).
// Before including, the unit defines L (the lane layer: lanes.h), KERNEL(name) (the name with the
// instruction set's suffix) and TARGET (the attribute enabling the set, may be empty); this file
// undefines KERNEL.
// Per lane these are exactly the float operations of spring_stepper_step, in the same order
// (contraction is off for the whole build, and none of the instruction sets is asked for FMA),
// followed, when rest detection is on, by exactly spring_rest's test and snap. Each kernel covers
// the whole vectors of its range and returns how many springs it did; batch.c steps the rest one
// at a time.

// The coefficients of steppers as the floats they are (pp pv vp vv each).
TARGET static inline const float *KERNEL(floats)(const spring_stepper *c)
{
	return &c->pp;
}

// The lowest clear lane of a mask that has one.
TARGET static inline int KERNEL(first_clear)(L(m) m)
{
	int k = 0;
	while (k < L(W) - 1 && L(has)(m, k)) {
		k++;
	}
	return k;
}

// The lanes of a that are finite floats.
TARGET static inline L(m) KERNEL(finite)(L(f) a)
{
	return L(le)(L(abs)(a), L(splat)(FLT_MAX));
}

// Springs [0, n) of the structure of arrays: whole vectors only. Returns the springs done (a
// multiple of L(W)); `*bad` gets the first refused index when it is still -1. Inlined into
// KERNEL(soa) once per (per-spring transitions, rest snapping) pair, so the loop never tests them.
TARGET LANES_INLINE int KERNEL(soa_body)(const batch_job *job, int n, int *bad, int per_spring, int snap)
{
	float *xs = job->x, *vs = job->v;
	const float *ts = job->target;
	const spring_stepper *steppers = job->steppers;
	L(f) pp = L(splat)(job->shared.pp), pv = L(splat)(job->shared.pv);
	L(f) vp = L(splat)(job->shared.vp), vv = L(splat)(job->shared.vv);
	L(f) rest_delta = L(splat)(job->rest_delta), rest_speed = L(splat)(job->rest_speed);
	L(f) zero = L(splat)(0.0f);
	int i = 0;
	for (; i + L(W) <= n; i += L(W)) {
		if (per_spring) {
			// L(W) steppers (pp pv vp vv each) transposed into one vector per coefficient.
			const spring_stepper *c = steppers + i;
			L(f) r0 = L(load)(KERNEL(floats)(c)), r1 = L(load)(KERNEL(floats)(c + L(W) / 4));
			L(f) r2 = L(load)(KERNEL(floats)(c + L(W) / 2)), r3 = L(load)(KERNEL(floats)(c + 3 * L(W) / 4));
			L(f) e01 = L(even)(r0, r1), o01 = L(odd)(r0, r1), e23 = L(even)(r2, r3), o23 = L(odd)(r2, r3);
			pp = L(even)(e01, e23);
			vp = L(odd)(e01, e23);
			pv = L(even)(o01, o23);
			vv = L(odd)(o01, o23);
		}
		L(f) x = L(load)(xs + i), v = L(load)(vs + i), t = L(load)(ts + i);
		L(f) e = x - t;
		L(f) ne = pp * e + pv * v;
		L(f) nv = vp * e + vv * v;
		L(f) nx = t + ne;
		L(m) ok = L(and)(KERNEL(finite)(nx), KERNEL(finite)(nv));
		if (snap) {
			// A refused lane never rests: its nx or nv is not finite.
			L(m) rest = L(and)(L(le)(L(abs)(nx - t), rest_delta), L(le)(L(abs)(nv), rest_speed));
			nx = L(sel)(rest, t, nx);
			nv = L(sel)(rest, zero, nv);
		}
		if (!L(all)(ok)) { // refused lanes keep their state
			nx = L(sel)(ok, nx, x);
			nv = L(sel)(ok, nv, v);
			*bad = *bad < 0 ? i + KERNEL(first_clear)(ok) : *bad;
		}
		L(store)(xs + i, nx);
		L(store)(vs + i, nv);
	}
	return i;
}

TARGET int KERNEL(soa)(const batch_job *job, int n, int *bad)
{
	if (job->steppers) {
		return job->rest ? KERNEL(soa_body)(job, n, bad, 1, 1) : KERNEL(soa_body)(job, n, bad, 1, 0);
	}
	return job->rest ? KERNEL(soa_body)(job, n, bad, 0, 1) : KERNEL(soa_body)(job, n, bad, 0, 0);
}

// `steps` steps of springs [0, n), whole vectors only, one step after another over the block (it
// stays in the cache), with the next block's k-th share fetched after step k (`next` NULL: none).
// Returns the springs done; `*bad` is the lowest index any step refused (-1: none).
TARGET LANES_INLINE int KERNEL(steps_body)(const batch_job *job, int n, int steps, const batch_job *next, int next_n, int *bad,
                                           int per_spring, int snap)
{
	int done = 0, lowest = -1;
	for (int k = 0; k < steps; k++) {
		int b = -1;
		done = KERNEL(soa_body)(job, n, &b, per_spring, snap);
		lowest = b >= 0 && (lowest < 0 || b < lowest) ? b : lowest;
		if (next) {
			batch_prefetch_share(next, next_n, k, steps);
		}
	}
	*bad = lowest;
	return done;
}

TARGET int KERNEL(soa_steps)(const batch_job *job, int n, int steps, const batch_job *next, int next_n, int *bad)
{
	if (job->steppers) {
		return job->rest ? KERNEL(steps_body)(job, n, steps, next, next_n, bad, 1, 1)
		                 : KERNEL(steps_body)(job, n, steps, next, next_n, bad, 1, 0);
	}
	return job->rest ? KERNEL(steps_body)(job, n, steps, next, next_n, bad, 0, 1)
	                 : KERNEL(steps_body)(job, n, steps, next, next_n, bad, 0, 0);
}

// Springs [0, n) of an array of spring_state (x v x v ...) with one stepper: whole vectors only,
// as KERNEL(soa). The positions and velocities are split with in-lane shuffles, so lane k holds
// spring AOS_ORDER[k] of the vector's springs; the targets are permuted to match.
TARGET int KERNEL(aos)(const spring_stepper *st, spring_state *states, const float *ts, int n, int *bad)
{
	L(f) pp = L(splat)(st->pp), pv = L(splat)(st->pv), vp = L(splat)(st->vp), vv = L(splat)(st->vv);
	int i = 0;
	for (; i + L(W) <= n; i += L(W)) {
		spring_state *s = states + i;
		L(f) a = L(load)(&s[0].x), b = L(load)(&s[L(W) / 2].x), t = L(load)(ts + i);
		L(f) x = L(unzip_even)(a, b), v = L(unzip_odd)(a, b);
		t = L(unzip_perm)(t);
		L(f) e = x - t;
		L(f) ne = pp * e + pv * v;
		L(f) nv = vp * e + vv * v;
		L(f) nx = t + ne;
		L(m) ok = L(and)(KERNEL(finite)(nx), KERNEL(finite)(nv));
		if (!L(all)(ok)) { // refused lanes keep their state
			nx = L(sel)(ok, nx, x);
			nv = L(sel)(ok, nv, v);
			int first = L(W);
			for (int k = 0; k < L(W); k++) {
				first = !L(has)(ok, k) && L(unzip_pair)(k) < first ? L(unzip_pair)(k) : first;
			}
			*bad = *bad < 0 ? i + first : *bad;
		}
		L(store)(&s[0].x, L(zip_lo)(nx, nv));
		L(store)(&s[L(W) / 2].x, L(zip_hi)(nx, nv));
	}
	return i;
}

#undef KERNEL
