// SPDX-License-Identifier: MIT
// The tip chains' physics step, the only one (chain_step.c's walks run it for every chain, group,
// rig chain and mode): written once and included by chain_step.c once per lane type, a float (one
// lane: single chains, and groups without vectors) and the float vectors of each instruction set.
// The common case (the exact integrator, 3D, the projected velocity removed, no cone limit, no
// colliders) is fast_run and fast_pair, with the mode a constant (two: with the bones' own gravity
// or, when no bone has one, without its add: lanes_gravity); `walk` runs each bone in its own
// mode (tip_mode: semi-implicit Euler, 2D, the radial velocity kept, a cone limit or colliders as a
// scalar call per lane, the snapping walk); the 2D walk calls the tip step (`tip`) in its own
// frame. Before including, the unit defines (this file undefines KERNEL and B at its end):
//   L             the lane layer (lanes.h): L(f) the lanes' floats, L(W) of them
//   KERNEL(name)  the name with the instance's suffix; TARGET the attribute enabling the
//                 instruction set (may be empty)
//   B             the lanes per block of the planes (slots B floats apart)
// chain_impl.h brings fast_job, tip_mode, FAST_MODE, bone_mode and the scalar per-lane calls
// (rest_position, rest_ok, aim_flip, cone_lane, collide_lane).
// Every lane performs exactly the float operations of the scalar code of a single chain, in the
// same order (no contraction, no reassociation), so a lane's bits depend neither on the instance
// nor on its neighbours. Bone by bone, every vector of L(W) lanes (independent work for the
// processor); one pointer per bone and block reaches every slot at a constant offset. fast_pair
// runs two steps a bone apart (lanes that fill one vector have no other independent work); with
// GATHER defined (B 1, four-lane vectors) it puts a single chain's two steps side by side in the
// lanes of one vector, each lane reading and writing its own bone's slots.

#include "chain_lane_ops.h"

// The constants of bone i for a step: its local transform and rigid tip in every lane, its length
// (a group's lanes animated on their own replace the local transform per vector: KERNEL(bone)).
typedef struct KERNEL(bone_k) {
	L(f) lqx, lqy, lqz, lqw, lpx, lpy, lpz, tlx, tly, tlz;
	L(f) len, ilen, fix_below; // the length, its reciprocal, the aim's smallest squared norm
} KERNEL(bone_k);

TARGET static ALWAYS_INLINE KERNEL(bone_k) KERNEL(bone_consts)(const fast_job *job, int i)
{
	const spring_xform3 *local = &job->locals[i];
	const spring_vec3 t = job->a->tip_local[i];
	const float len = job->a->length[i], tiny = 1e-4f * len;
	KERNEL(bone_k)
	b = {L(splat)(local->rotation.x),
	     L(splat)(local->rotation.y),
	     L(splat)(local->rotation.z),
	     L(splat)(local->rotation.w),
	     L(splat)(local->position.x),
	     L(splat)(local->position.y),
	     L(splat)(local->position.z),
	     L(splat)(t.x),
	     L(splat)(t.y),
	     L(splat)(t.z),
	     L(splat)(len),
	     L(splat)(1.0f / len),
	     L(splat)(2.0f * len * tiny)};
	return b;
}

// Where a vector of lanes reads and writes: plane slot q of lane l at p[l] + q * B (one pointer
// for lanes side by side, GATHER: one per lane, lanes 2 and 3 copies of 0 and 1), transition slot
// q at t[l] + q * B (the lanes' own or a shared row), rest flags at rest[l] (likewise); `valid`
// lanes of the vector in use. The rare modes' per-lane data: `a` and bone `i` (colliders, the cone
// limit), the lanes' params at sp[l] (the semi-implicit integrator; NULL otherwise).
typedef struct KERNEL(at) {
	float *p[2];
	const float *t[2];
	int *rest[2];
	int valid;
	const chain_arrays *a;
	int i;
	const spring_params *sp;
} KERNEL(at);

#if defined(GATHER)
#define PLD(q) ((L(f)){at->p[0][q], at->p[1][q], at->p[0][q], at->p[1][q]})
#define PST(q, v) (at->p[0][q] = (v)[0], at->p[1][q] = (v)[1])
#define TLD(q) ((L(f)){at->t[0][q], at->t[1][q], at->t[0][q], at->t[1][q]})
#define TLANE(q, l) (at->t[l][q])
#define RLD() ((L(i)){*at->rest[0], *at->rest[1], *at->rest[0], *at->rest[1]})
#define RST(r) (*at->rest[0] = (r)[0], *at->rest[1] = (r)[1])
#define RSET(l, v) (*at->rest[l] = (v))
#else
#define PLD(q) L(load)(at->p[0] + (size_t)(q)*B)
#define PST(q, v) L(store)(at->p[0] + (size_t)(q)*B, v)
#define TLD(q) L(load)(at->t[0] + (size_t)(q)*B)
#define TLANE(q, l) (at->t[0][(size_t)(q)*B + (size_t)(l)])
#define RLD() L(loadi)(at->rest[0])
#define RST(r) L(storei)(at->rest[0], r)
#define RSET(l, v) (at->rest[0][l] = (v))
#endif

// Lane l of three vectors as a spring_vec3, and back.
TARGET static inline spring_vec3 KERNEL(lane3)(L(f) x, L(f) y, L(f) z, int l)
{
	return (spring_vec3){L(get)(x, l), L(get)(y, l), L(get)(z, l)};
}

TARGET static inline void KERNEL(put3)(L(f) * x, L(f) * y, L(f) * z, int l, spring_vec3 v)
{
	L(set)(x, l, v.x);
	L(set)(y, l, v.y);
	L(set)(z, l, v.z);
}

// A bone's rigid frame in a vector of lanes: the pivot p, the rigid tip g and u = g - p (z 0 in
// 2D mode: the 3D walk's frame, or the 2D walk's).
typedef struct KERNEL(frame) {
	L(f) px, py, pz, ux, uy, uz, gx, gy, gz;
} KERNEL(frame);

// The tip step of a bone in a vector of lanes, every walk's (the 3D kernel below and the 2D walk):
// the spring from the last tip toward the rigid tip under the constant acceleration ka (the exact
// transition or semi-implicit Euler), the unit direction from the pivot (the rigid one when the tip
// is on the pivot), the constraints (the cone limit, the projection's velocity removal unless the
// chain keeps it, the colliders: a scalar call per lane for the rare two), the tip at the bone
// length, stored with its velocity and the rigid tip, and the rest flags cleared for the lanes not
// within the rest thresholds of their rest positions. With m.snap the tips are put exactly at their
// rest positions, still, instead. The direction goes to (dx, dy, dz). A mode known at the call
// (the fast kernel's, all zero) leaves only its own code.
TARGET static ALWAYS_INLINE void KERNEL(tip)(const spring_chain *c, const KERNEL(at) * at, const KERNEL(bone_k) * bk, tip_mode m,
                                             const KERNEL(frame) * f, L(f) kax, L(f) kay, L(f) kaz, float per_step, L(f) * odx,
                                             L(f) * ody, L(f) * odz)
{
	const float rest_distance = c->rest_distance, rest_speed = c->rest_speed;
	const L(f) zero = L(splat)(0.0f);
	const L(f) len = bk->len, ilen = bk->ilen;
	const L(f) px = f->px, py = f->py, pz = f->pz, ux = f->ux, uy = f->uy, uz = f->uz, gx = f->gx, gy = f->gy, gz = f->gz;
	// The bone's own gravity on top of the lane's (skipped when no bone has one: m.gravity).
	if (m.gravity) {
		kax = kax + TLD(T_GX);
		kay = kay + TLD(T_GY);
		kaz = kaz + TLD(T_GZ);
	}
	const L(m) forced = L(or)(L(or)(L(ne)(kax, zero), L(ne)(kay, zero)), L(ne)(kaz, zero));
	if (m.snap) {
		// The rest position: the rigid tip, or under a force the pendulum's equilibrium.
		L(f) ex = gx, ey = gy, ez = gz;
		if (L(any)(forced)) {
			for (int l = 0; l < at->valid; l++) {
				if (L(has)(forced, l)) {
					spring_vec3 e = spring_chain_impl_rest_position(c, TLANE(T_W2, l), L(get)(len, l),
					                                                KERNEL(lane3)(px, py, pz, l), KERNEL(lane3)(gx, gy, gz, l),
					                                                KERNEL(lane3)(kax, kay, kaz, l));
					KERNEL(put3)(&ex, &ey, &ez, l, e);
				}
			}
		}
		const L(f) qx = ex - px, qy = ey - py, qz = ez - pz;
		const L(f) inv = 1.0f / L(sqrt)(qx * qx + qy * qy + qz * qz);
		*odx = qx * inv;
		*ody = qy * inv;
		*odz = qz * inv;
		PST(P_TX, ex);
		PST(P_TY, ey);
		PST(P_TZ, ez);
		PST(P_VX, zero);
		PST(P_VY, zero);
		PST(P_VZ, zero);
		PST(P_GX, gx);
		PST(P_GY, gy);
		PST(P_GZ, gz);
		return;
	}
	// The spring toward the rigid tip under the constant acceleration.
	const L(f) tx = PLD(P_TX), ty = PLD(P_TY);
	const L(f) tz = PLD(P_TZ);
	const L(f) vx = PLD(P_VX), vy = PLD(P_VY);
	const L(f) vz = PLD(P_VZ);
	L(f) xx, xy, xz, nx, ny, nz;
	if (!m.semi) {
		const L(f) pp = TLD(T_PP), pv = TLD(T_PV);
		const L(f) vp = TLD(T_VP), vv = TLD(T_VV);
		const L(f) f0 = TLD(T_F0), f1 = TLD(T_F1);
		const L(f) ex = tx - gx, ey = ty - gy, ez = tz - gz;
		xx = gx + ((pp * ex + pv * vx) + f0 * kax);
		xy = gy + ((pp * ey + pv * vy) + f0 * kay);
		xz = gz + ((pp * ez + pv * vz) + f0 * kaz);
		nx = (vp * ex + vv * vx) + f1 * kax;
		ny = (vp * ey + vv * vy) + f1 * kay;
		nz = (vp * ez + vv * vz) + f1 * kaz;
	} else {
		// The lanes' own params (lanes past the chains: no spring, unit mass, and their tips then
		// put on the rigid tips, still, as the exact step's zero transitions put them: left behind,
		// a tip could come to lie opposite the rigid one, where the aim is 0/0).
		L(f) ks = zero, ds = zero, ms = L(splat)(1.0f), chain = zero;
		for (int l = 0; l < at->valid; l++) {
			L(set)(&ks, l, at->sp[l].stiffness);
			L(set)(&ds, l, at->sp[l].damping);
			L(set)(&ms, l, at->sp[l].mass);
			L(set)(&chain, l, 1.0f);
		}
		const L(m) real = L(gt)(chain, zero);
		const L(f) dt = L(splat)(c->clock.step);
		nx = vx + ((-ks * (tx - gx) - ds * vx) / ms + kax) * dt;
		ny = vy + ((-ks * (ty - gy) - ds * vy) / ms + kay) * dt;
		nz = vz + ((-ks * (tz - gz) - ds * vz) / ms + kaz) * dt;
		xx = L(sel)(real, tx + nx * dt, gx);
		xy = L(sel)(real, ty + ny * dt, gy);
		xz = L(sel)(real, tz + nz * dt, gz);
		nx = L(sel)(real, nx, zero);
		ny = L(sel)(real, ny, zero);
		nz = L(sel)(real, nz, zero);
	}
	if (m.flat) {
		xz = zero;
		nz = zero;
	}
	// The direction from the pivot (the rigid one when the tip is on the pivot).
	L(f) dx = xx - px, dy = xy - py, dz = xz - pz;
	const L(f) d2 = dx * dx + dy * dy + dz * dz;
	const L(f) inv = 1.0f / L(sqrt)(d2);
	const L(m) okd = L(and)(L(gt)(d2, zero), L(le)(d2, L(splat)(FLT_MAX)));
	const L(f) sx0 = dx * inv, sy0 = dy * inv, sz0 = dz * inv, rx0 = ux * ilen, ry0 = uy * ilen, rz0 = uz * ilen;
	dx = L(sel)(okd, sx0, rx0);
	dy = L(sel)(okd, sy0, ry0);
	dz = L(sel)(okd, sz0, rz0);
	for (int l = 0; m.cone > 0.0f && l < at->valid; l++) {
		spring_vec3 d = KERNEL(lane3)(dx, dy, dz, l), v = KERNEL(lane3)(nx, ny, nz, l);
		spring_chain_impl_cone_lane(c, m.cone, KERNEL(lane3)(ux, uy, uz, l), &d, &v);
		KERNEL(put3)(&dx, &dy, &dz, l, d);
		KERNEL(put3)(&nx, &ny, &nz, l, v);
	}
	// The projection's velocity removal (chain_constrain.c says why it is the default).
	if (!m.keep) {
		const L(f) along = nx * dx + ny * dy + nz * dz;
		nx = nx - dx * along;
		ny = ny - dy * along;
		nz = nz - dz * along;
	}
	for (int l = 0; m.collide && l < at->valid; l++) {
		spring_vec3 d = KERNEL(lane3)(dx, dy, dz, l), v = KERNEL(lane3)(nx, ny, nz, l);
		spring_chain_impl_collide_lane(c, at->a, at->i, KERNEL(lane3)(px, py, pz, l), &d, &v);
		KERNEL(put3)(&dx, &dy, &dz, l, d);
		KERNEL(put3)(&nx, &ny, &nz, l, v);
	}
	*odx = dx;
	*ody = dy;
	*odz = dz;
	// The tip at the bone length.
	const L(f) x = px + dx * len, y = py + dy * len;
	const L(f) z = m.flat ? zero : pz + dz * len;
	PST(P_TX, x);
	PST(P_TY, y);
	PST(P_TZ, z);
	PST(P_VX, nx);
	PST(P_VY, ny);
	PST(P_VZ, nz);
	PST(P_GX, gx);
	PST(P_GY, gy);
	PST(P_GZ, gz);
	// Rest (rest_ok_at) against the rigid tip; a lane under a force against its own rest
	// position below. Lanes already found moving at an earlier bone need no test.
	L(i) r = RLD();
	const L(m) live = L(itest)(r, r); // lanes still at rest, as a mask
	if (L(any)(live)) {
		const L(f) ax = L(abs)(gx), ay = L(abs)(gy), az = L(abs)(gz);
		L(f) mg = L(sel)(L(gt)(ax, ay), ax, ay);
		mg = L(sel)(L(gt)(mg, az), mg, az);
		const L(f) grain = 8.0f * FLT_EPSILON * mg;
		const L(f) rd = L(sel)(L(gt)(L(splat)(rest_distance), grain), L(splat)(rest_distance), grain);
		const L(f) gs = grain * per_step;
		const L(f) rs = L(sel)(L(gt)(L(splat)(rest_speed), gs), L(splat)(rest_speed), gs);
		const L(f) qx = x - gx, qy = y - gy, qz = z - gz;
		const L(m) ok = L(and)(L(le)(nx * nx + ny * ny + nz * nz, rs * rs), L(le)(qx * qx + qy * qy + qz * qz, rd * rd));
		r = L(seli)(L(or)(forced, ok), r, L(splati)(0));
		RST(r);
		if (L(any)(L(and)(forced, live))) {
			for (int l = 0; l < at->valid; l++) {
				if (L(has)(forced, l) && L(geti)(r, l)) {
					spring_vec3 e = spring_chain_impl_rest_position(c, TLANE(T_W2, l), L(get)(bk->len, l),
					                                                KERNEL(lane3)(px, py, pz, l), KERNEL(lane3)(gx, gy, gz, l),
					                                                KERNEL(lane3)(kax, kay, kaz, l));
					RSET(l, spring_chain_impl_rest_ok(c, L(get)(x, l), L(get)(y, l), L(get)(z, l), L(get)(nx, l), L(get)(ny, l),
					                                  L(get)(nz, l), e.x, e.y, e.z, per_step));
				}
			}
		}
	}
}

// A bone's step in a vector of lanes of the 3D walk, the parent (bp, bq) and the constant
// acceleration (ka) given: the rigid frame, the tip step, the aim.
TARGET static ALWAYS_INLINE void KERNEL(core)(const spring_chain *c, const KERNEL(at) * at, const KERNEL(bone_k) * bk, tip_mode m,
                                              L(f) bpx, L(f) bpy, L(f) bpz, L(f) bqx, L(f) bqy, L(f) bqz, L(f) bqw, L(f) kax,
                                              L(f) kay, L(f) kaz, float per_step)
{
	const L(f) zero = L(splat)(0.0f);
	const L(f) len = bk->len, fix_below = bk->fix_below;
	const L(f) lqx = bk->lqx, lqy = bk->lqy, lqz = bk->lqz, lqw = bk->lqw, lpx = bk->lpx, lpy = bk->lpy, lpz = bk->lpz;
	const L(f) tlx = bk->tlx, tly = bk->tly, tlz = bk->tlz;
	// The last step's pose becomes the previous one (the snapping walk keeps it).
	if (!m.snap) {
		for (int q = 0; q < 7; q++) {
			PST(P_WPREV + q, PLD(P_W + q));
		}
	}
	// The rigid frame: rotation r = parent * local, pivot p, rigid tip g = p + r * tip.
	L(f) rx, ry, rz, rw, ox, oy, oz, ux, uy, uz;
	KERNEL(qmul)(bqx, bqy, bqz, bqw, lqx, lqy, lqz, lqw, &rx, &ry, &rz, &rw);
	KERNEL(rot)(bqx, bqy, bqz, bqw, lpx, lpy, lpz, &ox, &oy, &oz);
	KERNEL(rot)(rx, ry, rz, rw, tlx, tly, tlz, &ux, &uy, &uz);
	KERNEL(frame) f = {bpx + ox, bpy + oy, bpz + oz, ux, uy, uz, zero, zero, zero};
	f.gx = f.px + ux;
	f.gy = f.py + uy;
	f.gz = f.pz + uz;
	if (m.flat) {
		f.pz = zero;
		f.uz = zero;
		f.gz = zero;
		uz = zero;
	}
	L(f) dx, dy, dz;
	KERNEL(tip)(c, at, bk, m, &f, kax, kay, kaz, per_step, &dx, &dy, &dz);
	// The aim: the rigid rotation turned by the shortest arc from the rigid direction u (|u| = len)
	// to the unit d, kept unit by one Newton step. One square root: the half-way quaternion
	// (u x d, len + u.d) has the norm sqrt(2 len (len + u.d)). Within about 1e-4 rad of
	// anti-parallel it is mostly rounding: aim_flip's half turn instead.
	L(f) wx, wy, wz, ww;
	{
		const L(f) cx = uy * dz - uz * dy;
		const L(f) cy = uz * dx - ux * dz;
		const L(f) cz = ux * dy - uy * dx;
		const L(f) cw = len + (ux * dx + uy * dy + uz * dz);
		const L(f) m2 = (cx * cx + cy * cy) + (cz * cz + cw * cw);
		const L(f) ainv = 1.0f / L(sqrt)(m2);
		KERNEL(qmul)(cx * ainv, cy * ainv, cz * ainv, cw * ainv, rx, ry, rz, rw, &wx, &wy, &wz, &ww);
		const L(f) s = 1.5f - 0.5f * ((wx * wx + wy * wy) + (wz * wz + ww * ww));
		wx = wx * s;
		wy = wy * s;
		wz = wz * s;
		ww = ww * s;
		const L(m) fix = L(not )(L(ge)(m2, fix_below));
		if (L(any)(fix)) {
			for (int l = 0; l < at->valid; l++) {
				if (L(has)(fix, l)) {
					spring_quat q = spring_chain_impl_aim_flip(
						c, KERNEL(lane3)(ux, uy, uz, l),
						(spring_quat){L(get)(rx, l), L(get)(ry, l), L(get)(rz, l), L(get)(rw, l)});
					L(set)(&wx, l, q.x);
					L(set)(&wy, l, q.y);
					L(set)(&wz, l, q.z);
					L(set)(&ww, l, q.w);
				}
			}
		}
	}
	PST(P_W, f.px);
	PST(P_W + 1, f.py);
	PST(P_W + 2, f.pz);
	PST(P_W + 3, wx);
	PST(P_W + 4, wy);
	PST(P_W + 5, wz);
	PST(P_W + 6, ww);
}

#if !defined(GATHER)
// Bone i of the L(W) lanes from l0 (a step of one vector of lanes).
// `own` (a constant at each call: KERNEL(lanes)): the lanes' own local transforms (job->anim).
TARGET static ALWAYS_INLINE void KERNEL(bone)(const fast_job *job, int i, int l0, const KERNEL(bone_k) * bk, tip_mode m,
                                              float per_step, int own)
{
	const chain_arrays *a = job->a;
	const size_t row = a->row;
	// Lane l0 is lane l0 % B of block l0 / B (B is a multiple of L(W)).
	const size_t blk = (size_t)(l0 / B), in = (size_t)(l0 % B);
	float *p = a->planes + blk * job->block_floats + in + (size_t)i * row;
	const int valid = job->lanes - l0 < L(W) ? job->lanes - l0 : L(W);
	// The transition: the group's shared row of bone i when every lane has the same, else the
	// lanes' own; a vector with padding lanes past the last chain reads the lanes' own too, whose
	// zeros keep the padding lanes still (the shared spring would swing them down to denormal
	// speeds over the frames, which the processor computes far slower).
	const float *t = B > 1 && valid == L(W) && a->trans_state[i] == TRANS_SHARED
	                     ? a->trans_shared + (size_t)i * T_COUNT * B + in
	                     : a->trans + blk * job->trans_floats + in + (size_t)i * T_COUNT * B;
	const float *k = job->k + blk * (size_t)K_COUNT * B + in;
	// The parent: the root (K_RP, K_RQ) or bone i - 1's new world transform.
	const float *pos = i == 0 ? k + (size_t)K_RPX * B : p - row + (size_t)P_W * B;
	const float *rot = i == 0 ? k + (size_t)K_RQX * B : pos + 3 * B;
	const spring_params *sp = m.semi ? a->params + (size_t)i * (size_t)a->s + l0 : NULL;
	const KERNEL(at) at = {{p, p}, {t, t}, {job->rest + l0, job->rest + l0}, valid, a, i, sp};
	KERNEL(bone_k) mine;
	if (own) {
		// The lanes' own local transforms (a group with animated lanes), the rest as shared.
		const float *an = job->anim + blk * (size_t)job->c->bone_count * A_COUNT * B + in + (size_t)i * A_COUNT * B;
		mine = *bk;
		mine.lqx = L(load)(an + (size_t)A_QX * B);
		mine.lqy = L(load)(an + (size_t)A_QY * B);
		mine.lqz = L(load)(an + (size_t)A_QZ * B);
		mine.lqw = L(load)(an + (size_t)A_QW * B);
		mine.lpx = L(load)(an + (size_t)A_PX * B);
		mine.lpy = L(load)(an + (size_t)A_PY * B);
		mine.lpz = L(load)(an + (size_t)A_PZ * B);
		bk = &mine;
	}
	KERNEL(core)
	(job->c, &at, bk, m, L(load)(pos), L(load)(pos + B), L(load)(pos + 2 * B), L(load)(rot), L(load)(rot + B),
	 L(load)(rot + 2 * B), L(load)(rot + 3 * B), L(load)(k + (size_t)K_AX * B), L(load)(k + (size_t)K_AY * B),
	 L(load)(k + (size_t)K_AZ * B), per_step);
}

// Bone i of every vector of the job's lanes; the test for the lanes' own locals taken once, so
// that a group without animation runs the bone exactly as it would without them.
TARGET static ALWAYS_INLINE void KERNEL(lanes)(const fast_job *job, int i, const KERNEL(bone_k) * bk, tip_mode m, float per_step)
{
	if (B > 1 && job->anim) { // a single chain (B 1) keeps its animation in job->locals
		for (int l0 = 0; l0 < job->lanes; l0 += L(W)) {
			KERNEL(bone)(job, i, l0, bk, m, per_step, 1);
		}
	} else {
		for (int l0 = 0; l0 < job->lanes; l0 += L(W)) {
			KERNEL(bone)(job, i, l0, bk, m, per_step, 0);
		}
	}
}

// KERNEL(lanes) of two steps a bone apart, vector by vector (bone i of `first`, i - 1 of `second`).
TARGET static ALWAYS_INLINE void KERNEL(lanes2)(const fast_job *first, const fast_job *second, int i, const KERNEL(bone_k) * b1,
                                                const KERNEL(bone_k) * b2, tip_mode m, float per_step)
{
	if (B > 1 && first->anim) {
		for (int l0 = 0; l0 < first->lanes; l0 += L(W)) {
			KERNEL(bone)(first, i, l0, b1, m, per_step, 1);
			KERNEL(bone)(second, i - 1, l0, b2, m, per_step, 1);
		}
	} else {
		for (int l0 = 0; l0 < first->lanes; l0 += L(W)) {
			KERNEL(bone)(first, i, l0, b1, m, per_step, 0);
			KERNEL(bone)(second, i - 1, l0, b2, m, per_step, 0);
		}
	}
}
#endif

#if defined(GATHER)
// fast_pair for one lane (a single chain, B == 1) with the two steps side by side in the lanes of
// a vector: lane 0 the first step's bone i, lane 1 the second step's bone i - 1 (lanes 2 and 3
// copies), each lane exactly its scalar step's operations. The first step's bone 0 and the second's
// last bone run one lane alone (fast_run_f).
TARGET static ALWAYS_INLINE int KERNEL(pair_in)(const fast_job *first, const fast_job *second, tip_mode m)
{
	const float per_step = 1.0f / first->c->clock.step;
	const int n = first->i1;
	const chain_arrays *a = first->a;
	fast_job alone = *first;
	alone.i1 = 1;
	spring_kernel_fast_run_f(&alone);
	if (first->rest[0]) {
		alone.i0 = 1;
		alone.i1 = n;
		spring_kernel_fast_run_f(&alone);
		return 1;
	}
	const float *k0 = first->k, *k1 = second->k;
	const L(f) kax = L(splat)(k0[K_AX]), kay = L(splat)(k0[K_AY]), kaz = L(splat)(k0[K_AZ]);
	for (int i = 1; i < n; i++) {
		float *p0 = a->planes + (size_t)i * a->row, *p1 = p0 - a->row;
		const float *tr0 = a->trans + (size_t)i * T_COUNT, *tr1 = tr0 - T_COUNT;
		// Parents: bone i - 1 (first step, done) and bone i - 2 or the second step's root.
		const float *pos0 = p1 + P_W, *rot0 = pos0 + 3;
		const float *pos1 = i == 1 ? k1 + K_RPX : p1 - a->row + P_W, *rot1 = i == 1 ? k1 + K_RQX : pos1 + 3;
		const spring_xform3 *l0 = &first->locals[i], *l1 = &first->locals[i - 1];
		const spring_vec3 t0 = a->tip_local[i], t1 = a->tip_local[i - 1];
		const float len0 = a->length[i], len1 = a->length[i - 1], tiny0 = 1e-4f * len0, tiny1 = 1e-4f * len1;
#define TWO(u, v) ((L(f)){u, v, u, v})
		const KERNEL(bone_k) bk = {TWO(l0->rotation.x, l1->rotation.x),
		                           TWO(l0->rotation.y, l1->rotation.y),
		                           TWO(l0->rotation.z, l1->rotation.z),
		                           TWO(l0->rotation.w, l1->rotation.w),
		                           TWO(l0->position.x, l1->position.x),
		                           TWO(l0->position.y, l1->position.y),
		                           TWO(l0->position.z, l1->position.z),
		                           TWO(t0.x, t1.x),
		                           TWO(t0.y, t1.y),
		                           TWO(t0.z, t1.z),
		                           TWO(len0, len1),
		                           TWO(1.0f / len0, 1.0f / len1),
		                           TWO(2.0f * len0 * tiny0, 2.0f * len1 * tiny1)};
		const KERNEL(at) at = {{p0, p1}, {tr0, tr1}, {first->rest, second->rest}, 2, a, i, NULL};
		KERNEL(core)
		(first->c, &at, &bk, m, TWO(pos0[0], pos1[0]), TWO(pos0[1], pos1[1]), TWO(pos0[2], pos1[2]), TWO(rot0[0], rot1[0]),
		 TWO(rot0[1], rot1[1]), TWO(rot0[2], rot1[2]), TWO(rot0[3], rot1[3]), kax, kay, kaz, per_step);
#undef TWO
	}
	alone = *second;
	alone.i0 = n - 1;
	spring_kernel_fast_run_f(&alone);
	return 2;
}

TARGET NOINLINE int KERNEL(fast_pair)(const fast_job *first, const fast_job *second)
{
	return lanes_gravity(first->c) ? KERNEL(pair_in)(first, second, FAST_MODE_GRAVITY)
	                               : KERNEL(pair_in)(first, second, FAST_MODE);
}
#else
// A step of the bones [i0, i1) of every lane: bone by bone over every vector of lanes (the
// vectors of a bone are independent work).
// The fast mode with or without the bones' own gravity (a constant at each call).
TARGET static ALWAYS_INLINE void KERNEL(run_in)(const fast_job *job, tip_mode m)
{
	const float per_step = 1.0f / job->c->clock.step;
	for (int i = job->i0; i < job->i1; i++) {
		const KERNEL(bone_k) bk = KERNEL(bone_consts)(job, i);
		KERNEL(lanes)(job, i, &bk, m, per_step);
	}
}

TARGET NOINLINE void KERNEL(fast_run)(const fast_job *job)
{
	lanes_gravity(job->c) ? KERNEL(run_in)(job, FAST_MODE_GRAVITY) : KERNEL(run_in)(job, FAST_MODE);
}

// A step, or with `snap` the snapping walk, of the bones [i0, i1) of every lane in each bone's
// own mode (bone_mode: the integrator, 2D, the projection, the cone limit, colliders).
TARGET NOINLINE void KERNEL(walk)(const fast_job *job, int snap)
{
	const float per_step = 1.0f / job->c->clock.step;
	for (int i = job->i0; i < job->i1; i++) {
		const KERNEL(bone_k) bk = KERNEL(bone_consts)(job, i);
		const tip_mode m = bone_mode(job->c, job->a, i, snap);
		KERNEL(lanes)(job, i, &bk, m, per_step);
	}
}

// Two steps of every bone of the lanes, the second a bone behind the first: the second step's
// bone i - 1 runs beside the first step's bone i (it needs the first step's bone i - 1, done, and
// its own bone i - 2), so that the processor overlaps the two walks down the chains (for lanes
// that fill one vector or a few, whose walk is otherwise one chain of dependent operations).
// `second`'s scratch holds the second step's roots. Only once the first step has found every lane
// moving (the rest flags cleared at bone 0): otherwise the first step runs alone (a step that
// ends at rest must be snapped before the next) and 1 is returned; 2 when both ran.
TARGET static ALWAYS_INLINE int KERNEL(pair_in)(const fast_job *first, const fast_job *second, tip_mode m)
{
	const float per_step = 1.0f / first->c->clock.step;
	const int n = first->i1;
	KERNEL(bone_k) bk = KERNEL(bone_consts)(first, 0);
	KERNEL(lanes)(first, 0, &bk, m, per_step);
	int resting = 0;
	for (int j = 0; j < first->lanes; j++) {
		resting |= first->rest[j];
	}
	if (resting) {
		for (int i = 1; i < n; i++) {
			bk = KERNEL(bone_consts)(first, i);
			KERNEL(lanes)(first, i, &bk, m, per_step);
		}
		return 1;
	}
	// Bone i's constants in ks[i % 2], bone i - 1's (the second step's) in the other: not copied.
	KERNEL(bone_k) ks[2];
	ks[0] = bk;
	for (int i = 1; i < n; i++) {
		ks[i & 1] = KERNEL(bone_consts)(first, i);
		KERNEL(lanes2)(first, second, i, &ks[i & 1], &ks[(i - 1) & 1], m, per_step);
	}
	KERNEL(lanes)(second, n - 1, &ks[(n - 1) & 1], m, per_step);
	return 2;
}

TARGET NOINLINE int KERNEL(fast_pair)(const fast_job *first, const fast_job *second)
{
	return lanes_gravity(first->c) ? KERNEL(pair_in)(first, second, FAST_MODE_GRAVITY)
	                               : KERNEL(pair_in)(first, second, FAST_MODE);
}

#endif

#undef PLD
#undef PST
#undef TLD
#undef TLANE
#undef RLD
#undef RST
#undef RSET
#undef KERNEL
#undef B
