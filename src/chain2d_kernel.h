// SPDX-License-Identifier: MIT
// The angle chain's arithmetic per segment, written once over a generic float type (not
// installed). chain2d_internal.h includes it for plain float, and chain2d_group.c once per vector
// width (4 lanes SSE2 or wasm simd128, 8 AVX2, 16 AVX-512F), one chain per lane. Every lane of
// every instance performs the same IEEE float operations in the same order (contraction is off for
// the whole build, nothing asks for FMA), so a group gives its chains the single chain's bits.
//
// The includer defines:
//   T            the float type (float, or a vector of floats)
//   TI           the matching 32-bit integer type (comparisons of T give TI masks)
//   K(name)      the name of this instance's function `name`
//   SEL(m, a, b) per lane: a where the mask m is set, otherwise b (a, b of type T)
//   MNOT(m)      the mask's negation
//   TOINT(x)     x (whole numbers) converted to TI
//   BITS(x)      x's bits as TI
//   FABS(x)      |x|
//   SPLAT(c)     the constant c in every lane
// and may define K_ATTR (a target attribute). Comparisons give masks that & and | combine.
//
// Everything here is finite for finite inputs within the documented bounds; nothing can produce
// an infinity or a NaN that reaches the state (see K(step)).

#ifndef K_ATTR
#define K_ATTR
#endif

/// x folded onto (-pi, pi] (pi as the float 3.14159274): x - k 2pi with k the nearest whole number,
/// then one correction either way. |x| is first bounded by SPRING_LANE_FOLD_MAX (beyond it the angle
/// means nothing in float anyway, and the rounding trick below needs |x / 2pi| < 2^22).
static inline K_ATTR T K(fold)(T x)
{
	x = SEL(x > SPRING_LANE_FOLD_MAX, SPLAT(SPRING_LANE_FOLD_MAX), x);
	x = SEL(x < -SPRING_LANE_FOLD_MAX, SPLAT(-SPRING_LANE_FOLD_MAX), x);
	T k = (x * SPRING_LANE_INV_TWO_PI + SPRING_LANE_ROUND) - SPRING_LANE_ROUND; // nearest, ties to even
	T f = (x - k * SPRING_LANE_TWO_PI_A) - k * SPRING_LANE_TWO_PI_B;
	f = SEL(f > SPRING_LANE_PI, f - SPRING_LANE_TWO_PI, f);
	return SEL(f <= -SPRING_LANE_PI, f + SPRING_LANE_TWO_PI, f);
}

/// x folded as K(fold) does, for |x| < 3 pi (a sum or difference of two folded angles): one
/// subtraction or addition of 2 pi, exact (Sterbenz), chosen without a branch.
static inline K_ATTR T K(wrap)(T x)
{
	T f = SEL(x > SPRING_LANE_PI, x - SPRING_LANE_TWO_PI, x);
	return SEL(f <= -SPRING_LANE_PI, f + SPRING_LANE_TWO_PI, f);
}

/// sin and cos of a folded angle x (|x| <= pi): the nearest quarter turn q pi/2 removed in three
/// exact-product parts, then minimax polynomials on [-pi/4, pi/4] (within about 2 ulp of float).
static inline K_ATTR void K(sincos)(T x, T *s, T *c)
{
	T q = (x * SPRING_LANE_TWO_OVER_PI + SPRING_LANE_ROUND) - SPRING_LANE_ROUND; // -2 .. 2
	T r = ((x - q * SPRING_LANE_PIO2_A) - q * SPRING_LANE_PIO2_B) - q * SPRING_LANE_PIO2_C;
	T z = r * r;
	T sp = r + (r * z) * (SPRING_LANE_S1 + z * (SPRING_LANE_S2 + z * SPRING_LANE_S3));
	T cp = (SPLAT(1.0f) - z * 0.5f) + (z * z) * (SPRING_LANE_C1 + z * (SPRING_LANE_C2 + z * SPRING_LANE_C3));
	TI n = TOINT(q);
	TI odd = (n & 1) != 0;
	T so = SEL(odd, cp, sp), co = SEL(odd, sp, cp);
	*s = SEL((n & 2) != 0, -so, so);
	*c = SEL(((n + 1) & 2) != 0, -co, co);
}

/// A segment's field at its world angle x (folded): the angular acceleration `alpha` (rad/s^2) the
/// uniform field f = (fx - inertia px, fy - inertia py) gives it, (d x f) k15 with
/// d = (cos x, sin x) and k15 = 1.5 / length, and its stiffness `held` = (d . f) k15 (1/s^2,
/// positive when the field holds the segment); *s and *c receive sin x and cos x.
static inline K_ATTR void K(field)(T x, T inertia, T k15, T fx, T fy, T px, T py, T *alpha, T *held, T *s, T *c)
{
	K(sincos)(x, s, c);
	T ax = fx - inertia * px, ay = fy - inertia * py;
	*alpha = (*c * ay - *s * ax) * k15;
	*held = (*c * ax + *s * ay) * k15;
}

/// What a segment's step reads besides its state.
typedef struct K(step_in) {
	T w2;             // k / m, 1/s^2
	T pp, pv, vp, vv; // the one-step transition of the chain's integrator
	T limit;          // 0 or (0, pi]
} K(step_in);

/// One fixed step of a segment at world angle *x with angular velocity *v, its field (alpha,
/// stiff) taken at *x: the target t = fold(parent + rest + offset); the goal moved by the field,
/// which over a step is the same as shifting the error by alpha / w2; where the field is stiffer
/// than held_max (`stiff_field`: taken at the step's start it would overshoot and grow), a Newton
/// step onto the balance instead: the error
/// (delta w2 + alpha) / (w2 + excess), whose fixed point is the same balance; the spring on the
/// unfolded error; the speed bound +-max_speed; the limit about t with the outward velocity
/// removed. The error is bounded by SPRING_LANE_ERROR_MAX and every product of finite values stays
/// a float or an infinity that a bound removes, so the new state is finite. *target receives t.
static inline K_ATTR void K(step)(const K(step_in) * in, T alpha, T stiff_field, T parent, T rest, T offset, T held_max,
                                  T max_speed, T *x, T *v, T *target)
{
	T x0 = *x, v0 = *v;
	T t = K(fold)((parent + rest) + offset);
	T delta = K(wrap)(t - x0);
	T excess = stiff_field - held_max;
	TI stiff = excess > 0.0f;
	T inv = SPLAT(1.0f) / (in->w2 + SEL(stiff, excess, SPLAT(0.0f)));
	T error = SEL(stiff, delta * (in->w2 * inv), delta) + alpha * inv;
	error = SEL(error > SPRING_LANE_ERROR_MAX, SPLAT(SPRING_LANE_ERROR_MAX), error);
	error = SEL(error < -SPRING_LANE_ERROR_MAX, SPLAT(-SPRING_LANE_ERROR_MAX), error);
	T e = -error; // the state relative to the shifted goal
	T ne = in->pp * e + in->pv * v0;
	T nv = in->vp * e + in->vv * v0;
	T nx = K(fold)(x0 + (ne - e));
	nv = SEL(nv > max_speed, max_speed, nv);
	nv = SEL(nv < -max_speed, -max_speed, nv);
	T swing = K(wrap)(nx - t);
	TI over = (in->limit > 0.0f) & (FABS(swing) > in->limit);
	TI up = swing > 0.0f;
	T edge = K(wrap)(t + SEL(up, in->limit, -in->limit));
	*x = SEL(over, edge, nx);
	TI outward = over & (nv != 0.0f) & ((nv > 0.0f) == up);
	*v = SEL(outward, SPLAT(0.0f), nv);
	*target = t;
}

/// What a chain feeds all its segments in a step.
typedef struct K(chain_in) {
	T fx, fy;    // gravity + wind, units/s^2
	T steady;    // |gravity + wind|, units/s^2
	T px, py;    // the pivot's acceleration, units/s^2
	T turn;      // rad, |turn| < pi: the world angles are first carried by this (0: not)
	T held_max;  // 1/s^2
	T max_speed; // rad/s
} K(chain_in);

/// A segment's whole step: its angle *x carried by the chain's turn, the field taken there (kept:
/// *s, *c of the angle *key), then K(step) under the parent's angle of this step. The caller keeps
/// *x's old value as the previous angle.
static inline K_ATTR void K(segment)(const K(step_in) * in, const K(chain_in) * chain, T inertia, T k15, T parent, T rest,
                                     T offset, T *x, T *v, T *target, T *s, T *c, T *key)
{
	T x0 = SEL(chain->turn != 0.0f, K(wrap)(*x + chain->turn), *x);
	T alpha, held;
	K(field)(x0, inertia, k15, chain->fx, chain->fy, chain->px, chain->py, &alpha, &held, s, c);
	// The steady field's stiffness at its balance, |g + w| k15, counts wherever the segment is: far
	// from the balance a strong steady field would otherwise whip it round and round.
	T steady = chain->steady * k15;
	*key = x0;
	*x = x0;
	K(step)(in, alpha, SEL(steady > held, steady, held), parent, rest, offset, chain->held_max, chain->max_speed, x, v, target);
}

/// The drawn angle between two stepped ones at `alpha` in (0, 1): along the shortest arc.
static inline K_ATTR T K(lerp)(T from, T to, T alpha)
{
	return K(wrap)(from + K(wrap)(to - from) * alpha);
}

#undef K_ATTR
