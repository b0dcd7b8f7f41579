// SPDX-License-Identifier: MIT
// The angle chain's arithmetic per segment, written once over a generic float type (not
// installed). chain2d_internal.h includes it for plain float, and chain2d_kernels.c once per vector
// width (4 lanes SSE2 or wasm simd128, 8 AVX2, 16 AVX-512F), one chain per lane. Every lane of
// every instance performs the same IEEE float operations in the same order (contraction is off for
// the whole build, nothing asks for FMA), so a group gives its chains the single chain's bits.
//
// The includer defines:
//   T            the float type (float, or a vector of floats)
//   TI           the matching 32-bit integer type
//   TM           the masks' type (TI, or AVX-512's __mmask16)
//   TL           T as stored in a chain's lane state (K(lane)): T, or T with a float's alignment
//   GT(a, b), GE, LT, LE, EQ, NE  per lane a > b, ... of T values (or float constants), as TM
//   IEQ(a, b), ILT(a, b), ITEST(a, b)  per lane a == b, a < b and (a & b) != 0 of TI values, as TM
//   K(name)      the name of this instance's function `name`
//   SEL(m, a, b) per lane: a where the mask m is set, otherwise b (a, b of type T)
//   TOINT(x)     x (whole numbers) converted to TI
//   BITS(x)      x's bits as TI
//   FABS(x)      |x|
//   SQRT(x)      the correctly rounded square root (IEEE: the same bits everywhere)
//   MNOT(m)      the mask's complement
//   ANY(m)       true when a lane of the mask is set
//   MINV(a, b)   a < b ? a : b per lane; MAXV(a, b) a > b ? a : b (x86's minps and maxps)
//   SPLAT(c)     the constant c in every lane
// and may define K_ATTR (a target attribute). Masks combine with &, | and ^.
//
// Everything here is finite for finite inputs within the documented bounds; nothing can produce
// an infinity or a NaN that reaches the state (see K(step)).

#ifndef K_ATTR
#define K_ATTR
#endif

/// x folded onto (-pi, pi] (pi as the float 3.14159274, 2 pi as twice that): x - k 2pi with k the
/// nearest whole number, then one correction either way. For |x| < 3 pi this is K(wrap)'s result
/// bit for bit (x - 2pi is exact there), so either may be used where both apply. |x| is first
/// bounded by SPRING_LANE_FOLD_MAX (beyond it the angle means nothing in float anyway, and the
/// rounding trick needs |x / 2pi| < 2^22).
static inline K_ATTR T K(fold)(T x)
{
	x = SEL(GT(x, SPRING_LANE_FOLD_MAX), SPLAT(SPRING_LANE_FOLD_MAX), x);
	x = SEL(LT(x, -SPRING_LANE_FOLD_MAX), SPLAT(-SPRING_LANE_FOLD_MAX), x);
	T k = (x * SPRING_LANE_INV_TWO_PI + SPRING_LANE_ROUND) - SPRING_LANE_ROUND; // nearest, ties to even
	T f = x - k * SPRING_LANE_TWO_PI;
	f = SEL(GT(f, SPRING_LANE_PI), f - SPRING_LANE_TWO_PI, f);
	return SEL(LE(f, -SPRING_LANE_PI), f + SPRING_LANE_TWO_PI, f);
}

/// x folded as K(fold) does, for |x| < 3 pi (a sum or difference of two folded angles): one
/// subtraction or addition of 2 pi, exact (Sterbenz), chosen without a branch.
static inline K_ATTR T K(wrap)(T x)
{
	T f = SEL(GT(x, SPRING_LANE_PI), x - SPRING_LANE_TWO_PI, x);
	return SEL(LE(f, -SPRING_LANE_PI), f + SPRING_LANE_TWO_PI, f);
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
	TM odd = ITEST(n, 1);
	T so = SEL(odd, cp, sp), co = SEL(odd, sp, cp);
	*s = SEL(ITEST(n, 2), -so, so);
	*c = SEL(ITEST(n + 1, 2), -co, co);
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
	T inv_w2;         // 1 / w2 (the bits of 1 / (w2 + 0))
	T pp, pv, vp, vv; // the one-step transition of the chain's integrator
	T limit;          // 0 or (0, pi]
} K(step_in);

/// One fixed step of a segment at world angle *x with angular velocity *v and deflection *bend (its
/// angle minus its target at the end of the last step, never folded), its field (alpha, stiff)
/// taken at *x: the target t = fold(parent + rest + offset); the deflection at the step's start is
/// the last one moved by the shortest arc of (x - t) - *bend (the target's heading unwrapped as
/// it moves, the chain's turn with it), so the spring pulls back the way the joint bent at any
/// deflection; the goal moved by the field, which over a step is the same as shifting the error by
/// alpha / w2; where the field is stiffer than held_max (`stiff_field`: taken at the step's start
/// it would overshoot and grow), a Newton step onto the balance instead: the error
/// (delta w2 + alpha) / (w2 + excess), whose fixed point is the same balance; the spring; the
/// speed bound +-max_speed; the limit on the deflection with the outward velocity removed. The
/// error and the deflection are bounded by SPRING_LANE_ERROR_MAX and every product of finite
/// values stays a float or an infinity that a bound removes, so the new state is finite. *target
/// receives t.
static inline K_ATTR void K(step)(const K(step_in) * in, int limited, T alpha, T stiff_field, T parent, T rest, int animated,
                                  T offset, T held_max, T max_speed, T *x, T *v, T *bend, T *target)
{
	T x0 = *x, v0 = *v, b0 = *bend;
	// parent and rest are folded: without an offset their sum needs one wrap (the same bits).
	T t = animated ? K(fold)((parent + rest) + offset) : K(wrap)(parent + rest);
	// x0 and t are folded: their difference needs one wrap; the last deflection may be any.
	T b = b0 + K(fold)(K(wrap)(x0 - t) - b0);
	T delta = -b;
	T excess = stiff_field - held_max;
	TM stiff = GT(excess, 0.0f);
	T inv = ANY(stiff) ? SPLAT(1.0f) / (in->w2 + SEL(stiff, excess, SPLAT(0.0f))) : in->inv_w2;
	T error = SEL(stiff, delta * (in->w2 * inv), delta) + alpha * inv;
	error = MAXV(MINV(error, SPLAT(SPRING_LANE_ERROR_MAX)), SPLAT(-SPRING_LANE_ERROR_MAX));
	T e = -error; // the state relative to the shifted goal
	T ne = in->pp * e + in->pv * v0;
	T nv = in->vp * e + in->vv * v0;
	// The new angle: one wrap unless a lane left the three half turns it covers (a violent step,
	// rare); K(fold) gives the same bits on the lanes where both apply.
	T nx = x0 + (ne - e);
	nx = ANY(GE(FABS(nx), SPRING_LANE_WRAP_MAX)) ? K(fold)(nx) : K(wrap)(nx);
	T nb = b + (ne - e); // the same move, unfolded
	nb = MAXV(MINV(nb, SPLAT(SPRING_LANE_ERROR_MAX)), SPLAT(-SPRING_LANE_ERROR_MAX));
	nv = MAXV(MINV(nv, max_speed), -max_speed);
	if (limited) { // some lane has a limit (otherwise none is crossed: the same bits)
		TM over = GT(in->limit, 0.0f) & GT(FABS(nb), in->limit);
		TM up = GT(nb, 0.0f);
		T swing = SEL(up, in->limit, -in->limit);
		nx = SEL(over, K(wrap)(t + swing), nx);
		nb = SEL(over, swing, nb);
		TM outward = over & NE(nv, 0.0f) & MNOT(GT(nv, 0.0f) ^ up);
		nv = SEL(outward, SPLAT(0.0f), nv);
	}
	*x = nx;
	*v = nv;
	*bend = nb;
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

/// The first half of a segment's step, which reads nothing of the other segments (a chain's
/// segments can take it at once): its angle *x carried by the chain's turn, the field taken there
/// (kept: *s, *c of the angle *key) as `alpha` and the stiffness `stiff` K(step) folds into the aim.
static inline K_ATTR void K(segment_field)(const K(chain_in) * chain, int turning, T inertia, T k15, T *x, T *alpha, T *stiff,
                                           T *s, T *c, T *key)
{
	T x0 = turning ? SEL(NE(chain->turn, 0.0f), K(wrap)(*x + chain->turn), *x) : *x;
	T held;
	K(field)(x0, inertia, k15, chain->fx, chain->fy, chain->px, chain->py, alpha, &held, s, c);
	// The steady field's stiffness at its balance, |g + w| k15, counts wherever the segment is: far
	// from the balance a strong steady field would otherwise whip it round and round.
	T steady = chain->steady * k15;
	*stiff = SEL(GT(steady, held), steady, held);
	*key = x0;
	*x = x0;
}

/// A segment's whole step: K(segment_field), then K(step) under the parent's angle of this step.
/// The caller keeps *x's old value as the previous angle.
static inline K_ATTR void K(segment)(const K(step_in) * in, int limited, const K(chain_in) * chain, int turning, T inertia, T k15,
                                     T parent, T rest, int animated, T offset, T *x, T *v, T *bend, T *target, T *s, T *c, T *key)
{
	T alpha, stiff;
	K(segment_field)(chain, turning, inertia, k15, x, &alpha, &stiff, s, c, key);
	K(step)(in, limited, alpha, stiff, parent, rest, animated, offset, chain->held_max, chain->max_speed, x, v, bend, target);
}

/// The drawn angle between two stepped ones at `alpha` in (0, 1): along the shortest arc.
static inline K_ATTR T K(lerp)(T from, T to, T alpha)
{
	return K(wrap)(from + K(wrap)(to - from) * alpha);
}

/// A chain's state between steps, one lane per chain (SPRING_CHAIN2D_LN_* order; the resting flag
/// as a mask's bits).
typedef struct K(lane) {
	TL v[SPRING_CHAIN2D_LN_COUNT];
} K(lane);

/// The timeline's values of one frame and step (spring_chain2d_basis), in every lane.
typedef struct K(basis) {
	T r[6];       // 1/s: the reciprocals of the knots' distances
	T elapsed;    // s: the new knot's gap
	TM hitch;     // the knots before the new one are dropped
	T w1, w2, w3; // the step's Newton basis
	T inv_span;   // 1/s: over the path time since the last step
	int has_span; // that time is positive (otherwise the pivot keeps its velocity)
	T g;          // 1 - the step's fraction of the frame
	T step;       // s
	T inv_step;   // 1/s
	T held_max;   // 1/s^2
	T max_speed;  // rad/s
	int turns;    // some chain caps its root's angular speed
} K(basis);

/// The Newton coefficients of the pivot's path through the displacements d (x y pairs, newest
/// first); a reciprocal of 0 (a knot the path does not have yet) drops the orders that need it.
/// The orders above the first (the line between the two newest knots) are weighted by w in
/// [0, 1], how alike the path's last two second differences are (r, their dot product over the
/// larger's square, at least 0; w = r (2 - r), flat at r = 1): about 1 on a smooth motion,
/// where the cubic is second-order accurate (a run and bob at 24 fps: 0.37% of the tail off a
/// 1 kHz run, 0.13% unweighted, 1.45% with the line alone), and 0
/// when either is 0 -- a velocity step at a knot (a dash's start, a dead stop) leaves the line
/// on one side of it, so the step reaches the chain in the one step that crosses that knot at any
/// frame rate, not spread over the cubic's three gaps. With fewer than four knots w is 0.
static inline K_ATTR void K(fit)(const T *r, const TL *d, TL *coef)
{
	T a2[2], b2[2], a3[2];
	for (int k = 0; k < 2; k++) {
		T a1 = d[k] * r[0], b1 = d[2 + k] * r[1], c1 = d[4 + k] * r[2];
		a2[k] = (a1 - b1) * r[3];
		b2[k] = (b1 - c1) * r[4];
		a3[k] = (a2[k] - b2[k]) * r[5];
		coef[k] = a1;
	}
	// Scaled by the largest component first, so no square overflows or underflows (and no
	// reciprocal of a denormal overflows: second differences below 1e-30 units/s^2 count as 0).
	T s = MAXV(MAXV(FABS(a2[0]), FABS(a2[1])), MAXV(FABS(b2[0]), FABS(b2[1])));
	TM some = GT(s, 1e-30f);
	T inv = SPLAT(1.0f) / SEL(some, s, SPLAT(1.0f));
	T ax = a2[0] * inv, ay = a2[1] * inv, bx = b2[0] * inv, by = b2[1] * inv;
	T w = (ax * bx + ay * by) / SEL(some, MAXV(ax * ax + ay * ay, bx * bx + by * by), SPLAT(1.0f));
	w = SEL(GT(w, 0.0f), w, SPLAT(0.0f));
	w = SEL(GT(w, 1.0f), SPLAT(1.0f), w);
	w = w * (SPLAT(2.0f) - w);
	for (int k = 0; k < 2; k++) {
		coef[2 + k] = a2[k] * w;
		coef[4 + k] = a3[k] * w;
	}
}

/// The path at the step's basis, relative to its newest knot, from its Newton coefficients (x y
/// pairs, K(fit)).
static inline K_ATTR void K(path)(const K(basis) * p, const TL *coef, T *x, T *y)
{
	*x = (p->w1 * coef[0] + p->w2 * coef[2]) + p->w3 * coef[4];
	*y = (p->w1 * coef[1] + p->w2 * coef[3]) + p->w3 * coef[5];
}

/// A frame that adds a knot, the root ending it at (tox, toy): the displacement since the last
/// knot, its mean speed over the gap capped at the lane's max_root_speed, becomes the newest; the
/// pivot, kept relative to the newest knot, moves back by it.
static inline K_ATTR void K(knot)(const K(basis) * p, T tox, T toy, K(lane) * L)
{
	TL *v = L->v, *d = v + SPRING_CHAIN2D_LN_D;
	T dx = tox - v[SPRING_CHAIN2D_LN_INX], dy = toy - v[SPRING_CHAIN2D_LN_INY];
	TM capped = GT(v[SPRING_CHAIN2D_LN_MAXV], 0.0f);
	if (ANY(capped)) { // otherwise no lane is capped (the same bits: dx and dy times 1)
		T dist = SQRT(dx * dx + dy * dy), most = v[SPRING_CHAIN2D_LN_MAXV] * p->elapsed;
		TM over = capped & GT(dist, most);
		T scale = SEL(over, most / dist, SPLAT(1.0f));
		dx = dx * scale;
		dy = dy * scale;
	}
	d[4] = SEL(p->hitch, SPLAT(0.0f), d[2]);
	d[5] = SEL(p->hitch, SPLAT(0.0f), d[3]);
	d[2] = SEL(p->hitch, SPLAT(0.0f), d[0]);
	d[3] = SEL(p->hitch, SPLAT(0.0f), d[1]);
	d[0] = dx;
	d[1] = dy;
	v[SPRING_CHAIN2D_LN_INX] = tox;
	v[SPRING_CHAIN2D_LN_INY] = toy;
	v[SPRING_CHAIN2D_LN_PIVX] = v[SPRING_CHAIN2D_LN_PIVX] - dx;
	v[SPRING_CHAIN2D_LN_PIVY] = v[SPRING_CHAIN2D_LN_PIVY] - dy;
	K(fit)(p->r, d, v + SPRING_CHAIN2D_LN_COEF);
}

/// Asleep through a whole frame to (tox, toy, toa): resting, the root already there and the same as
/// the frame before, the pivot at rest on its path (no step would move anything).
static inline K_ATTR TM K(frame_asleep)(const K(lane) * L, T tox, T toy, T toa)
{
	const TL *v = L->v, *d = v + SPRING_CHAIN2D_LN_D;
	TM resting = ITEST(BITS(v[SPRING_CHAIN2D_LN_RESTING]), -1);
	if (!ANY(resting)) {
		return resting; // no lane rests (most frames of moving chains): none sleeps
	}
	TM same = IEQ(BITS(tox), BITS(v[SPRING_CHAIN2D_LN_RX])) & IEQ(BITS(toy), BITS(v[SPRING_CHAIN2D_LN_RY])) &
	          IEQ(BITS(toa), BITS(v[SPRING_CHAIN2D_LN_RA]));
	TM held = IEQ(BITS(tox), BITS(v[SPRING_CHAIN2D_LN_IX])) & IEQ(BITS(toy), BITS(v[SPRING_CHAIN2D_LN_IY])) &
	          IEQ(BITS(toa), BITS(v[SPRING_CHAIN2D_LN_IA]));
	TM still = IEQ(BITS(tox), BITS(v[SPRING_CHAIN2D_LN_INX])) & IEQ(BITS(toy), BITS(v[SPRING_CHAIN2D_LN_INY])) & EQ(d[0], 0.0f) &
	           EQ(d[1], 0.0f) & EQ(d[2], 0.0f) & EQ(d[3], 0.0f) & EQ(d[4], 0.0f) & EQ(d[5], 0.0f) &
	           EQ(v[SPRING_CHAIN2D_LN_PIVX], 0.0f) & EQ(v[SPRING_CHAIN2D_LN_PIVY], 0.0f);
	return resting & same & held & still;
}

/// The chain-level start of a step: the pivot's velocity u from its path; the root of the
/// sub-step (fraction f of the frame from input_root to (tox, toy, toa)); awake unless the frame
/// sleeps (`frame_awake` clear) or the chain rests with the root, the animation (`same_extra`) and
/// the pivot as they were; still (*still: the rest test follows) when those inputs are the last
/// step's and the pivot neither moves nor did. For an awake lane: the root turned by more than
/// max_root_angular_speed allows carries the excess rigidly (`turn`), the pivot's acceleration,
/// the roots and velocity move on, and the chain wakes. *ch receives what the segments read.
static inline K_ATTR TM K(begin)(const K(basis) * p, K(lane) * L, T tox, T toy, T toa, TM frame_awake, TM same_extra,
                                 K(chain_in) * ch, TM *still)
{
	TL *v = L->v;
	T prx, pry;
	K(path)(p, v + SPRING_CHAIN2D_LN_COEF, &prx, &pry);
	T ux = v[SPRING_CHAIN2D_LN_VX], uy = v[SPRING_CHAIN2D_LN_VY];
	if (p->has_span) {
		ux = (prx - v[SPRING_CHAIN2D_LN_PIVX]) * p->inv_span;
		uy = (pry - v[SPRING_CHAIN2D_LN_PIVY]) * p->inv_span;
	}
	// Bounded, so no difference of two infinities arises later (a root jumping across the whole
	// range every step is far below it).
	ux = SEL(GT(ux, SPRING_LANE_SPEED_MAX), SPLAT(SPRING_LANE_SPEED_MAX), ux);
	ux = SEL(LT(ux, -SPRING_LANE_SPEED_MAX), SPLAT(-SPRING_LANE_SPEED_MAX), ux);
	uy = SEL(GT(uy, SPRING_LANE_SPEED_MAX), SPLAT(SPRING_LANE_SPEED_MAX), uy);
	uy = SEL(LT(uy, -SPRING_LANE_SPEED_MAX), SPLAT(-SPRING_LANE_SPEED_MAX), uy);
	v[SPRING_CHAIN2D_LN_PIVX] = prx;
	v[SPRING_CHAIN2D_LN_PIVY] = pry;
	// The frame's root at its fraction f, counted back from its end (exactly the end at f = 1).
	T atx = tox - (tox - v[SPRING_CHAIN2D_LN_IX]) * p->g;
	T aty = toy - (toy - v[SPRING_CHAIN2D_LN_IY]) * p->g;
	T ata = K(wrap)(toa - K(wrap)(toa - v[SPRING_CHAIN2D_LN_IA]) * p->g);
	TM same = IEQ(BITS(atx), BITS(v[SPRING_CHAIN2D_LN_RX])) & IEQ(BITS(aty), BITS(v[SPRING_CHAIN2D_LN_RY])) &
	          IEQ(BITS(ata), BITS(v[SPRING_CHAIN2D_LN_RA])) & same_extra;
	TM unmoved = EQ(ux, 0.0f) & EQ(uy, 0.0f);
	TM resting = ITEST(BITS(v[SPRING_CHAIN2D_LN_RESTING]), -1);
	TM awake = frame_awake & MNOT(resting & same & unmoved);
	T rvx = v[SPRING_CHAIN2D_LN_VX], rvy = v[SPRING_CHAIN2D_LN_VY];
	*still = awake & same & unmoved & EQ(rvx, 0.0f) & EQ(rvy, 0.0f);
	T turn = SPLAT(0.0f);
	if (p->turns) {
		T d = K(wrap)(ata - v[SPRING_CHAIN2D_LN_RA]);
		T most = v[SPRING_CHAIN2D_LN_MAXW] * p->step;
		TM over = GT(v[SPRING_CHAIN2D_LN_MAXW], 0.0f) & GT(FABS(d), most);
		turn = SEL(over, SEL(GT(d, 0.0f), d - most, d + most), SPLAT(0.0f));
		T s, c;
		K(sincos)(turn, &s, &c);
		T nx = rvx * c - rvy * s, ny = rvx * s + rvy * c;
		rvx = SEL(over, nx, rvx);
		rvy = SEL(over, ny, rvy);
	}
	T px = (ux - rvx) * p->inv_step, py = (uy - rvy) * p->inv_step;
	px = SEL(GT(px, SPRING_LANE_ACCEL_MAX), SPLAT(SPRING_LANE_ACCEL_MAX), px);
	px = SEL(LT(px, -SPRING_LANE_ACCEL_MAX), SPLAT(-SPRING_LANE_ACCEL_MAX), px);
	py = SEL(GT(py, SPRING_LANE_ACCEL_MAX), SPLAT(SPRING_LANE_ACCEL_MAX), py);
	py = SEL(LT(py, -SPRING_LANE_ACCEL_MAX), SPLAT(-SPRING_LANE_ACCEL_MAX), py);
	ch->fx = v[SPRING_CHAIN2D_LN_FX];
	ch->fy = v[SPRING_CHAIN2D_LN_FY];
	ch->steady = v[SPRING_CHAIN2D_LN_STEADY];
	ch->px = px;
	ch->py = py;
	ch->turn = turn;
	ch->held_max = p->held_max;
	ch->max_speed = p->max_speed;
	v[SPRING_CHAIN2D_LN_VX] = SEL(awake, ux, v[SPRING_CHAIN2D_LN_VX]);
	v[SPRING_CHAIN2D_LN_VY] = SEL(awake, uy, v[SPRING_CHAIN2D_LN_VY]);
	for (int k = 0; k < 3; k++) {
		v[SPRING_CHAIN2D_LN_QX + k] = SEL(awake, v[SPRING_CHAIN2D_LN_RX + k], v[SPRING_CHAIN2D_LN_QX + k]);
	}
	v[SPRING_CHAIN2D_LN_RX] = SEL(awake, atx, v[SPRING_CHAIN2D_LN_RX]);
	v[SPRING_CHAIN2D_LN_RY] = SEL(awake, aty, v[SPRING_CHAIN2D_LN_RY]);
	v[SPRING_CHAIN2D_LN_RA] = SEL(awake, ata, v[SPRING_CHAIN2D_LN_RA]);
	v[SPRING_CHAIN2D_LN_RESTING] = SEL(awake, SPLAT(0.0f), v[SPRING_CHAIN2D_LN_RESTING]);
	return awake;
}

#undef K_ATTR
