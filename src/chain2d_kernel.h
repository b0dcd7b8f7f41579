// SPDX-License-Identifier: MIT
// The angle chain's arithmetic per segment, written once over the lane layer (lanes.h; not
// installed). chain2d_internal.h includes it for one lane (lanes_scalar.h), and kernels_set.h once
// per vector instruction set, one chain per lane. Every lane of every instance performs the same
// IEEE float operations in the same order (contraction is off for the whole build, nothing asks
// for FMA), so a group gives its chains the single chain's bits.
//
// The includer defines L (the lane set), K(name) (the name of this instance's function `name`)
// and may define K_ATTR (its function attributes); this file undefines K_ATTR.
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
static inline K_ATTR L(f) K(fold)(L(f) x)
{
	x = L(sel)(L(gt)(x, L(splat)(SPRING_LANE_FOLD_MAX)), L(splat)(SPRING_LANE_FOLD_MAX), x);
	x = L(sel)(L(lt)(x, L(splat)(-SPRING_LANE_FOLD_MAX)), L(splat)(-SPRING_LANE_FOLD_MAX), x);
	L(f) k = (x * SPRING_LANE_INV_TWO_PI + SPRING_LANE_ROUND) - SPRING_LANE_ROUND; // nearest, ties to even
	L(f) f = x - k * SPRING_LANE_TWO_PI;
	f = L(sel)(L(gt)(f, L(splat)(SPRING_LANE_PI)), f - SPRING_LANE_TWO_PI, f);
	return L(sel)(L(le)(f, L(splat)(-SPRING_LANE_PI)), f + SPRING_LANE_TWO_PI, f);
}

/// x folded as K(fold) does, for |x| < 3 pi (a sum or difference of two folded angles): one
/// subtraction or addition of 2 pi, exact (Sterbenz), chosen without a branch.
static inline K_ATTR L(f) K(wrap)(L(f) x)
{
	L(f) f = L(sel)(L(gt)(x, L(splat)(SPRING_LANE_PI)), x - SPRING_LANE_TWO_PI, x);
	return L(sel)(L(le)(f, L(splat)(-SPRING_LANE_PI)), f + SPRING_LANE_TWO_PI, f);
}

/// sin and cos of a folded angle x (|x| <= pi): the nearest quarter turn q pi/2 removed in three
/// exact-product parts, then minimax polynomials on [-pi/4, pi/4] (within about 2 ulp of float).
static inline K_ATTR void K(sincos)(L(f) x, L(f) * s, L(f) * c)
{
	L(f) q = (x * SPRING_LANE_TWO_OVER_PI + SPRING_LANE_ROUND) - SPRING_LANE_ROUND; // -2 .. 2
	L(f) r = ((x - q * SPRING_LANE_PIO2_A) - q * SPRING_LANE_PIO2_B) - q * SPRING_LANE_PIO2_C;
	L(f) z = r * r;
	L(f) sp = r + (r * z) * (SPRING_LANE_S1 + z * (SPRING_LANE_S2 + z * SPRING_LANE_S3));
	L(f) cp = (L(splat)(1.0f) - z * 0.5f) + (z * z) * (SPRING_LANE_C1 + z * (SPRING_LANE_C2 + z * SPRING_LANE_C3));
	L(i) n = L(toint)(q);
	L(m) odd = L(itest)(n, L(splati)(1));
	L(f) so = L(sel)(odd, cp, sp), co = L(sel)(odd, sp, cp);
	*s = L(sel)(L(itest)(n, L(splati)(2)), -so, so);
	*c = L(sel)(L(itest)(n + 1, L(splati)(2)), -co, co);
}

/// A segment's field at its world angle x (folded): the angular acceleration `alpha` (rad/s^2) the
/// uniform field f = (fx - inertia px, fy - inertia py) gives it, (d x f) k15 with
/// d = (cos x, sin x) and k15 = 1.5 / length, and its stiffness `held` = (d . f) k15 (1/s^2,
/// positive when the field holds the segment); *s and *c receive sin x and cos x.
static inline K_ATTR void K(field)(L(f) x, L(f) inertia, L(f) k15, L(f) fx, L(f) fy, L(f) px, L(f) py, L(f) * alpha, L(f) * held,
                                   L(f) * s, L(f) * c)
{
	K(sincos)(x, s, c);
	L(f) ax = fx - inertia * px, ay = fy - inertia * py;
	*alpha = (*c * ay - *s * ax) * k15;
	*held = (*c * ax + *s * ay) * k15;
}

/// What a segment's step reads besides its state.
typedef struct K(step_in) {
	L(f) w2;             // k / m, 1/s^2
	L(f) inv_w2;         // 1 / w2 (the bits of 1 / (w2 + 0))
	L(f) pp, pv, vp, vv; // the one-step transition of the chain's integrator
	L(f) limit;          // 0 or (0, pi]
} K(step_in);

/// One fixed step of a segment at world angle *x with angular velocity *v and deflection *bend (its
/// angle minus its target at the end of the last step, never folded), its field (alpha, stiff)
/// taken at *x: the target t = fold(parent + rest + offset) in the lanes whose offset is not 0
/// (`animated`: some lane may have one; 0: none has); the deflection at the step's start is
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
static inline K_ATTR void K(step)(const K(step_in) * in, int limited, L(f) alpha, L(f) stiff_field, L(f) parent, L(f) rest,
                                  int animated, L(f) offset, L(f) held_max, L(f) max_speed, L(f) * x, L(f) * v, L(f) * bend,
                                  L(f) * target)
{
	L(f) x0 = *x, v0 = *v, b0 = *bend;
	// parent and rest are folded: without an offset their sum needs one wrap (the same bits). Lane
	// by lane, as a single chain takes it for its own offset: adding a zero offset is not always
	// the same bits (-0 + 0 is +0).
	L(f)
	t = animated ? L(sel)(L(ne)(offset, L(splat)(0.0f)), K(fold)((parent + rest) + offset), K(wrap)(parent + rest))
	             : K(wrap)(parent + rest);
	// x0 and t are folded: their difference needs one wrap; the last deflection may be any.
	L(f) b = b0 + K(fold)(K(wrap)(x0 - t) - b0);
	L(f) delta = -b;
	L(f) excess = stiff_field - held_max;
	L(m) stiff = L(gt)(excess, L(splat)(0.0f));
	L(f) inv = L(any)(stiff) ? L(splat)(1.0f) / (in->w2 + L(sel)(stiff, excess, L(splat)(0.0f))) : in->inv_w2;
	L(f) error = L(sel)(stiff, delta * (in->w2 * inv), delta) + alpha * inv;
	error = L(max)(L(min)(error, L(splat)(SPRING_LANE_ERROR_MAX)), L(splat)(-SPRING_LANE_ERROR_MAX));
	L(f) e = -error; // the state relative to the shifted goal
	L(f) ne = in->pp * e + in->pv * v0;
	L(f) nv = in->vp * e + in->vv * v0;
	// The new angle: one wrap unless a lane left the three half turns it covers (a violent step,
	// rare); K(fold) gives the same bits on the lanes where both apply.
	L(f) nx = x0 + (ne - e);
	nx = L(any)(L(ge)(L(abs)(nx), L(splat)(SPRING_LANE_WRAP_MAX))) ? K(fold)(nx) : K(wrap)(nx);
	L(f) nb = b + (ne - e); // the same move, unfolded
	nb = L(max)(L(min)(nb, L(splat)(SPRING_LANE_ERROR_MAX)), L(splat)(-SPRING_LANE_ERROR_MAX));
	nv = L(max)(L(min)(nv, max_speed), -max_speed);
	if (limited) { // some lane has a limit (otherwise none is crossed: the same bits)
		L(m) over = L(gt)(in->limit, L(splat)(0.0f)) & L(gt)(L(abs)(nb), in->limit);
		L(m) up = L(gt)(nb, L(splat)(0.0f));
		L(f) swing = L(sel)(up, in->limit, -in->limit);
		nx = L(sel)(over, K(wrap)(t + swing), nx);
		nb = L(sel)(over, swing, nb);
		L(m) outward = over & L(ne)(nv, L(splat)(0.0f)) & L(not )(L(gt)(nv, L(splat)(0.0f)) ^ up);
		nv = L(sel)(outward, L(splat)(0.0f), nv);
	}
	*x = nx;
	*v = nv;
	*bend = nb;
	*target = t;
}

/// What a chain feeds all its segments in a step.
typedef struct K(chain_in) {
	L(f) fx, fy;    // gravity + wind, units/s^2
	L(f) steady;    // |gravity + wind|, units/s^2
	L(f) px, py;    // the pivot's acceleration, units/s^2
	L(f) turn;      // rad, |turn| < pi: the world angles are first carried by this (0: not)
	L(f) held_max;  // 1/s^2
	L(f) max_speed; // rad/s
} K(chain_in);

/// The first half of a segment's step, which reads nothing of the other segments (a chain's
/// segments can take it at once): its angle *x carried by the chain's turn, the field taken there
/// (kept: *s, *c of the angle *key) as `alpha` and the stiffness `stiff` K(step) folds into the aim.
static inline K_ATTR void K(segment_field)(const K(chain_in) * chain, int turning, L(f) inertia, L(f) k15, L(f) * x, L(f) * alpha,
                                           L(f) * stiff, L(f) * s, L(f) * c, L(f) * key)
{
	L(f) x0 = turning ? L(sel)(L(ne)(chain->turn, L(splat)(0.0f)), K(wrap)(*x + chain->turn), *x) : *x;
	L(f) held;
	K(field)(x0, inertia, k15, chain->fx, chain->fy, chain->px, chain->py, alpha, &held, s, c);
	// The steady field's stiffness at its balance, |g + w| k15, counts wherever the segment is: far
	// from the balance a strong steady field would otherwise whip it round and round.
	L(f) steady = chain->steady * k15;
	*stiff = L(sel)(L(gt)(steady, held), steady, held);
	*key = x0;
	*x = x0;
}

/// A segment's whole step: K(segment_field), then K(step) under the parent's angle of this step.
/// The caller keeps *x's old value as the previous angle.
static inline K_ATTR void K(segment)(const K(step_in) * in, int limited, const K(chain_in) * chain, int turning, L(f) inertia,
                                     L(f) k15, L(f) parent, L(f) rest, int animated, L(f) offset, L(f) * x, L(f) * v, L(f) * bend,
                                     L(f) * target, L(f) * s, L(f) * c, L(f) * key)
{
	L(f) alpha, stiff;
	K(segment_field)(chain, turning, inertia, k15, x, &alpha, &stiff, s, c, key);
	K(step)(in, limited, alpha, stiff, parent, rest, animated, offset, chain->held_max, chain->max_speed, x, v, bend, target);
}

/// The drawn angle between two stepped ones at `alpha` in (0, 1): along the shortest arc.
static inline K_ATTR L(f) K(lerp)(L(f) from, L(f) to, L(f) alpha)
{
	return K(wrap)(from + K(wrap)(to - from) * alpha);
}

/// A chain's state between steps, one lane per chain (SPRING_CHAIN2D_LN_* order; the resting flag
/// as a mask's bits).
typedef struct K(lane) {
	L(fu) v[SPRING_CHAIN2D_LN_COUNT];
} K(lane);

/// The timeline's values of one frame and step (spring_chain2d_basis), in every lane.
typedef struct K(basis) {
	L(f) r[6];       // 1/s: the reciprocals of the knots' distances
	L(f) elapsed;    // s: the new knot's gap
	L(m) hitch;      // the knots before the new one are dropped
	L(f) w1, w2, w3; // the step's Newton basis
	L(f) inv_span;   // 1/s: over the path time since the last step
	int has_span;    // that time is positive (otherwise the pivot keeps its velocity)
	L(f) g;          // 1 - the step's fraction of the frame
	L(f) step;       // s
	L(f) inv_step;   // 1/s
	L(f) held_max;   // 1/s^2
	L(f) max_speed;  // rad/s
	int turns;       // some chain caps its root's angular speed
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
static inline K_ATTR void K(fit)(const L(f) * r, const L(fu) * d, L(fu) * coef)
{
	L(f) a2[2], b2[2], a3[2];
	for (int k = 0; k < 2; k++) {
		L(f) a1 = d[k] * r[0], b1 = d[2 + k] * r[1], c1 = d[4 + k] * r[2];
		a2[k] = (a1 - b1) * r[3];
		b2[k] = (b1 - c1) * r[4];
		a3[k] = (a2[k] - b2[k]) * r[5];
		coef[k] = a1;
	}
	// Scaled by the largest component first, so no square overflows or underflows (and no
	// reciprocal of a denormal overflows: second differences below 1e-30 units/s^2 count as 0).
	L(f) s = L(max)(L(max)(L(abs)(a2[0]), L(abs)(a2[1])), L(max)(L(abs)(b2[0]), L(abs)(b2[1])));
	L(m) some = L(gt)(s, L(splat)(1e-30f));
	L(f) inv = L(splat)(1.0f) / L(sel)(some, s, L(splat)(1.0f));
	L(f) ax = a2[0] * inv, ay = a2[1] * inv, bx = b2[0] * inv, by = b2[1] * inv;
	L(f) w = (ax * bx + ay * by) / L(sel)(some, L(max)(ax * ax + ay * ay, bx * bx + by * by), L(splat)(1.0f));
	w = L(sel)(L(gt)(w, L(splat)(0.0f)), w, L(splat)(0.0f));
	w = L(sel)(L(gt)(w, L(splat)(1.0f)), L(splat)(1.0f), w);
	w = w * (L(splat)(2.0f) - w);
	for (int k = 0; k < 2; k++) {
		coef[2 + k] = a2[k] * w;
		coef[4 + k] = a3[k] * w;
	}
}

/// The path at the step's basis, relative to its newest knot, from its Newton coefficients (x y
/// pairs, K(fit)).
static inline K_ATTR void K(path)(const K(basis) * p, const L(fu) * coef, L(f) * x, L(f) * y)
{
	*x = (p->w1 * coef[0] + p->w2 * coef[2]) + p->w3 * coef[4];
	*y = (p->w1 * coef[1] + p->w2 * coef[3]) + p->w3 * coef[5];
}

/// A frame that adds a knot, the root ending it at (tox, toy): the displacement since the last
/// knot, its mean speed over the gap capped at the lane's max_root_speed, becomes the newest; the
/// pivot, kept relative to the newest knot, moves back by it.
static inline K_ATTR void K(knot)(const K(basis) * p, L(f) tox, L(f) toy, K(lane) * L)
{
	L(fu) *v = L->v, *d = v + SPRING_CHAIN2D_LN_D;
	L(f) dx = tox - v[SPRING_CHAIN2D_LN_INX], dy = toy - v[SPRING_CHAIN2D_LN_INY];
	L(m) capped = L(gt)(v[SPRING_CHAIN2D_LN_MAXV], L(splat)(0.0f));
	if (L(any)(capped)) { // otherwise no lane is capped (the same bits: dx and dy times 1)
		L(f) dist = L(sqrt)(dx * dx + dy * dy), most = v[SPRING_CHAIN2D_LN_MAXV] * p->elapsed;
		L(m) over = capped & L(gt)(dist, most);
		L(f) scale = L(sel)(over, most / dist, L(splat)(1.0f));
		dx = dx * scale;
		dy = dy * scale;
	}
	d[4] = L(sel)(p->hitch, L(splat)(0.0f), d[2]);
	d[5] = L(sel)(p->hitch, L(splat)(0.0f), d[3]);
	d[2] = L(sel)(p->hitch, L(splat)(0.0f), d[0]);
	d[3] = L(sel)(p->hitch, L(splat)(0.0f), d[1]);
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
static inline K_ATTR L(m) K(frame_asleep)(const K(lane) * L, L(f) tox, L(f) toy, L(f) toa)
{
	const L(fu) *v = L->v, *d = v + SPRING_CHAIN2D_LN_D;
	L(m) resting = L(itest)(L(bits)(v[SPRING_CHAIN2D_LN_RESTING]), L(splati)(-1));
	if (!L(any)(resting)) {
		return resting; // no lane rests (most frames of moving chains): none sleeps
	}
	L(m)
	same = L(ieq)(L(bits)(tox), L(bits)(v[SPRING_CHAIN2D_LN_RX])) & L(ieq)(L(bits)(toy), L(bits)(v[SPRING_CHAIN2D_LN_RY])) &
	       L(ieq)(L(bits)(toa), L(bits)(v[SPRING_CHAIN2D_LN_RA]));
	L(m)
	held = L(ieq)(L(bits)(tox), L(bits)(v[SPRING_CHAIN2D_LN_IX])) & L(ieq)(L(bits)(toy), L(bits)(v[SPRING_CHAIN2D_LN_IY])) &
	       L(ieq)(L(bits)(toa), L(bits)(v[SPRING_CHAIN2D_LN_IA]));
	L(m)
	still = L(ieq)(L(bits)(tox), L(bits)(v[SPRING_CHAIN2D_LN_INX])) & L(ieq)(L(bits)(toy), L(bits)(v[SPRING_CHAIN2D_LN_INY])) &
	        L(eq)(d[0], L(splat)(0.0f)) & L(eq)(d[1], L(splat)(0.0f)) & L(eq)(d[2], L(splat)(0.0f)) &
	        L(eq)(d[3], L(splat)(0.0f)) & L(eq)(d[4], L(splat)(0.0f)) & L(eq)(d[5], L(splat)(0.0f)) &
	        L(eq)(v[SPRING_CHAIN2D_LN_PIVX], L(splat)(0.0f)) & L(eq)(v[SPRING_CHAIN2D_LN_PIVY], L(splat)(0.0f));
	return resting & same & held & still;
}

/// The chain-level start of a step: the pivot's velocity u from its path; the root of the
/// sub-step (fraction f of the frame from input_root to (tox, toy, toa)); awake unless the frame
/// sleeps (`frame_awake` clear) or the chain rests with the root, the animation (`same_extra`) and
/// the pivot as they were; still (*still: the rest test follows) when those inputs are the last
/// step's and the pivot neither moves nor did. For an awake lane: the root turned by more than
/// max_root_angular_speed allows carries the excess rigidly (`turn`), the pivot's acceleration,
/// the roots and velocity move on, and the chain wakes. *ch receives what the segments read.
static inline K_ATTR L(m) K(begin)(const K(basis) * p, K(lane) * L, L(f) tox, L(f) toy, L(f) toa, L(m) frame_awake,
                                   L(m) same_extra, K(chain_in) * ch, L(m) * still)
{
	L(fu) *v = L->v;
	L(f) prx, pry;
	K(path)(p, v + SPRING_CHAIN2D_LN_COEF, &prx, &pry);
	L(f) ux = v[SPRING_CHAIN2D_LN_VX], uy = v[SPRING_CHAIN2D_LN_VY];
	if (p->has_span) {
		ux = (prx - v[SPRING_CHAIN2D_LN_PIVX]) * p->inv_span;
		uy = (pry - v[SPRING_CHAIN2D_LN_PIVY]) * p->inv_span;
	}
	// Bounded, so no difference of two infinities arises later (a root jumping across the whole
	// range every step is far below it).
	ux = L(sel)(L(gt)(ux, L(splat)(SPRING_LANE_SPEED_MAX)), L(splat)(SPRING_LANE_SPEED_MAX), ux);
	ux = L(sel)(L(lt)(ux, L(splat)(-SPRING_LANE_SPEED_MAX)), L(splat)(-SPRING_LANE_SPEED_MAX), ux);
	uy = L(sel)(L(gt)(uy, L(splat)(SPRING_LANE_SPEED_MAX)), L(splat)(SPRING_LANE_SPEED_MAX), uy);
	uy = L(sel)(L(lt)(uy, L(splat)(-SPRING_LANE_SPEED_MAX)), L(splat)(-SPRING_LANE_SPEED_MAX), uy);
	v[SPRING_CHAIN2D_LN_PIVX] = prx;
	v[SPRING_CHAIN2D_LN_PIVY] = pry;
	// The frame's root at its fraction f, counted back from its end (exactly the end at f = 1).
	L(f) atx = tox - (tox - v[SPRING_CHAIN2D_LN_IX]) * p->g;
	L(f) aty = toy - (toy - v[SPRING_CHAIN2D_LN_IY]) * p->g;
	L(f) ata = K(wrap)(toa - K(wrap)(toa - v[SPRING_CHAIN2D_LN_IA]) * p->g);
	L(m)
	same = L(ieq)(L(bits)(atx), L(bits)(v[SPRING_CHAIN2D_LN_RX])) & L(ieq)(L(bits)(aty), L(bits)(v[SPRING_CHAIN2D_LN_RY])) &
	       L(ieq)(L(bits)(ata), L(bits)(v[SPRING_CHAIN2D_LN_RA])) & same_extra;
	L(m) unmoved = L(eq)(ux, L(splat)(0.0f)) & L(eq)(uy, L(splat)(0.0f));
	L(m) resting = L(itest)(L(bits)(v[SPRING_CHAIN2D_LN_RESTING]), L(splati)(-1));
	L(m) awake = frame_awake & L(not )(resting & same & unmoved);
	L(f) rvx = v[SPRING_CHAIN2D_LN_VX], rvy = v[SPRING_CHAIN2D_LN_VY];
	*still = awake & same & unmoved & L(eq)(rvx, L(splat)(0.0f)) & L(eq)(rvy, L(splat)(0.0f));
	L(f) turn = L(splat)(0.0f);
	if (p->turns) {
		L(f) d = K(wrap)(ata - v[SPRING_CHAIN2D_LN_RA]);
		L(f) most = v[SPRING_CHAIN2D_LN_MAXW] * p->step;
		L(m) over = L(gt)(v[SPRING_CHAIN2D_LN_MAXW], L(splat)(0.0f)) & L(gt)(L(abs)(d), most);
		turn = L(sel)(over, L(sel)(L(gt)(d, L(splat)(0.0f)), d - most, d + most), L(splat)(0.0f));
		L(f) s, c;
		K(sincos)(turn, &s, &c);
		L(f) nx = rvx * c - rvy * s, ny = rvx * s + rvy * c;
		rvx = L(sel)(over, nx, rvx);
		rvy = L(sel)(over, ny, rvy);
	}
	L(f) px = (ux - rvx) * p->inv_step, py = (uy - rvy) * p->inv_step;
	px = L(sel)(L(gt)(px, L(splat)(SPRING_LANE_ACCEL_MAX)), L(splat)(SPRING_LANE_ACCEL_MAX), px);
	px = L(sel)(L(lt)(px, L(splat)(-SPRING_LANE_ACCEL_MAX)), L(splat)(-SPRING_LANE_ACCEL_MAX), px);
	py = L(sel)(L(gt)(py, L(splat)(SPRING_LANE_ACCEL_MAX)), L(splat)(SPRING_LANE_ACCEL_MAX), py);
	py = L(sel)(L(lt)(py, L(splat)(-SPRING_LANE_ACCEL_MAX)), L(splat)(-SPRING_LANE_ACCEL_MAX), py);
	ch->fx = v[SPRING_CHAIN2D_LN_FX];
	ch->fy = v[SPRING_CHAIN2D_LN_FY];
	ch->steady = v[SPRING_CHAIN2D_LN_STEADY];
	ch->px = px;
	ch->py = py;
	ch->turn = turn;
	ch->held_max = p->held_max;
	ch->max_speed = p->max_speed;
	v[SPRING_CHAIN2D_LN_VX] = L(sel)(awake, ux, v[SPRING_CHAIN2D_LN_VX]);
	v[SPRING_CHAIN2D_LN_VY] = L(sel)(awake, uy, v[SPRING_CHAIN2D_LN_VY]);
	for (int k = 0; k < 3; k++) {
		v[SPRING_CHAIN2D_LN_QX + k] = L(sel)(awake, v[SPRING_CHAIN2D_LN_RX + k], v[SPRING_CHAIN2D_LN_QX + k]);
	}
	v[SPRING_CHAIN2D_LN_RX] = L(sel)(awake, atx, v[SPRING_CHAIN2D_LN_RX]);
	v[SPRING_CHAIN2D_LN_RY] = L(sel)(awake, aty, v[SPRING_CHAIN2D_LN_RY]);
	v[SPRING_CHAIN2D_LN_RA] = L(sel)(awake, ata, v[SPRING_CHAIN2D_LN_RA]);
	v[SPRING_CHAIN2D_LN_RESTING] = L(sel)(awake, L(splat)(0.0f), v[SPRING_CHAIN2D_LN_RESTING]);
	return awake;
}

#undef K_ATTR
