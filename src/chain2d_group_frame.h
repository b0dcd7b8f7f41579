// SPDX-License-Identifier: MIT
// The angle chain group's kernels over one lane set (lanes.h: L), included once per set
// (chain2d_group_instance.h from kernels_set.h; the scalar one from kernels_scalar.c) after
// defining L, K (the lane arithmetic's names: chain2d_kernel.h), K_ATTR_ROWS, K_ATTR_INLINE and
// SUFFIX, the set's name (not installed; no include guard: it is meant to be included several
// times). G(name) is the instance's function `name_<suffix>`. An instance that writes a block's
// joints its own way (AVX-512, by transposes: chain2d_joints_avx512.h) defines
// GROUP_OWN_WRITE_JOINTS to 1, GROUP_POSE_BATCH and its own write_joints_<suffix>.
#ifndef SPRING_CHAIN2D_GROUP_FRAME_SHARED
#define SPRING_CHAIN2D_GROUP_FRAME_SHARED
// The most blocks with chains (not padding only) a chunk may have for its frame to run two steps at
// a time, a segment apart (chain2d_group_frame.h): a lone block has nothing else to overlap its walk
// with (about 1.1x on W2 at 10 chains), while a chunk of several blocks already overlaps theirs,
// and pairing them measured 2-3% slower at 1,000 and 10,000 chains (more state in flight).
#define GROUP_PAIR_MAX 1

// How a block's segments take a step (group_step's `how`): not at all (no chain awake); keeping
// the sleeping chains' state by selects; all its chains awake, storing the angles before, targets
// and kept sines (the frame's last step, or before a rest test); all awake, not storing them (the
// next step writes them again).
enum { GROUP_SEG_NONE, GROUP_SEG_BLEND, GROUP_SEG_KEEP, GROUP_SEG_ONLY };

// The chains of the block at b that exist (the padding lanes never wake): a comparison of the
// lanes' indices, read from a constant (no store of single lanes for a vector load to wait on).
static const int32_t group_lane_index[LANE_PAD] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

static inline size_t group_min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

#endif

// Joints a pose computes before writing them out, and whether the instance writes them its own way.
#ifndef GROUP_POSE_BATCH
#define GROUP_POSE_BATCH 1
#endif
#ifndef GROUP_OWN_WRITE_JOINTS
#define GROUP_OWN_WRITE_JOINTS 0
#endif

#define G(name) G_NAME(name, SUFFIX)
#define G_NAME(name, suffix) G_NAME_(name, suffix)
#define G_NAME_(name, suffix) name##_##suffix

// The vector of floats at p + k (any alignment).
static inline K_ATTR_INLINE L(f) G(at)(const float *p, size_t k)
{
	L(f) v;
	memcpy(&v, p + k, sizeof v);
	return v;
}

static inline K_ATTR_INLINE L(m) G(r_padding_mask)(const group_frame *r, size_t b)
{
	L(i) index;
	memcpy(&index, group_lane_index, sizeof index);
	return L(ilt)(index + (int32_t)b, L(splati)((int32_t)r->count));
}

// One instance per vector type: `frame_<suffix>` steps a whole frame of the chains, a block of one
// vector of chains at a time (its chains' state stays in registers through the steps); `segments`
// steps the segments of a block, and skips the selects that keep a sleeping chain's state when
// every chain of the block is awake (`blend` is a constant in each copy).
static inline K_ATTR_INLINE bool G(any)(L(m) m)
{
	return L(any)(m);
}
static inline K_ATTR_INLINE void G(segment)(const group_frame *r, int i, size_t b, bool blend, bool keep, bool animated,
                                            const float *off, const K(chain_in) * ch, L(f) * parent, L(m) awake)
{
	const size_t k = (size_t)i * (size_t)r->stride + b;
	K(step_in) in;
	L(f) inertia, x, v, d, x1, v1, d1, t1, s1, c1, key1;
	if (r->same[i]) {
		const size_t k0 = (size_t)i * (size_t)r->stride;
		in.w2 = L(splat)(r->w2[k0]);
		in.inv_w2 = L(splat)(r->iw2[k0]);
		in.pp = L(splat)(r->pp[k0]);
		in.pv = L(splat)(r->pv[k0]);
		in.vp = L(splat)(r->vp[k0]);
		in.vv = L(splat)(r->vv[k0]);
		inertia = L(splat)(r->inertia[k0]);
	} else {
		memcpy(&in.w2, r->w2 + k, sizeof(L(f)));
		memcpy(&in.inv_w2, r->iw2 + k, sizeof(L(f)));
		memcpy(&in.pp, r->pp + k, sizeof(L(f)));
		memcpy(&in.pv, r->pv + k, sizeof(L(f)));
		memcpy(&in.vp, r->vp + k, sizeof(L(f)));
		memcpy(&in.vv, r->vv + k, sizeof(L(f)));
		memcpy(&inertia, r->inertia + k, sizeof(L(f)));
	}
	in.limit = L(splat)(r->limit[i]);
	memcpy(&x, r->angle + k, sizeof(L(f)));
	memcpy(&v, r->velocity + k, sizeof(L(f)));
	memcpy(&d, r->deflection + k, sizeof(L(f)));
	x1 = x;
	v1 = v;
	d1 = d;
	// The step's offsets (`off`: the block's lanes of the chunk's rows); without animation none.
	const L(f) offset = animated ? G(at)(off, (size_t)i * GROUP_CHUNK_LANES) : L(splat)(0.0f);
	K(segment)
	(&in, r->limit[i] > 0.0f, ch, r->settings.turns, inertia, L(splat)(r->k15[i]), *parent, L(splat)(r->rest[i]), animated,
	 offset, &x1, &v1, &d1, &t1, &s1, &c1, &key1);
	L(f) prev = x;
	if (blend) {
		const L(f) old_prev = G(at)(r->prev, k), old_target = G(at)(r->target, k), old_s = G(at)(r->sin, k),
				   old_c = G(at)(r->cos, k), old_key = G(at)(r->key, k);
		prev = L(sel)(awake, x, old_prev);
		x1 = L(sel)(awake, x1, x);
		v1 = L(sel)(awake, v1, v);
		d1 = L(sel)(awake, d1, d);
		t1 = L(sel)(awake, t1, old_target);
		s1 = L(sel)(awake, s1, old_s);
		c1 = L(sel)(awake, c1, old_c);
		key1 = L(sel)(awake, key1, old_key);
	}
	*parent = x1;
	memcpy(r->angle + k, &x1, sizeof(L(f)));
	memcpy(r->velocity + k, &v1, sizeof(L(f)));
	memcpy(r->deflection + k, &d1, sizeof(L(f)));
	if (keep) {
		memcpy(r->prev + k, &prev, sizeof(L(f)));
		memcpy(r->target + k, &t1, sizeof(L(f)));
		memcpy(r->sin + k, &s1, sizeof(L(f)));
		memcpy(r->cos + k, &c1, sizeof(L(f)));
		memcpy(r->key + k, &key1, sizeof(L(f)));
	}
}
/* The lane state of the block at b: where it lies for a vector of LANE_PAD lanes, otherwise */
/* copied into *L (lanes_io: in or back out). */
static inline K_ATTR_INLINE void G(lanes_io)(const group_frame *r, size_t b, K(lane) * L, bool store)
{
	if (sizeof(L(f)) == LANE_PAD * sizeof(float)) {
		return;
	}
	float *const rows = r->rows + row_block(b);
	for (int q = 0; q < SPRING_CHAIN2D_LN_COUNT; q++) {
		float *row = rows + (size_t)q * LANE_PAD;
		if (store) {
			memcpy(row, &L->v[q], sizeof(L(f)));
		} else {
			memcpy(&L->v[q], row, sizeof(L(f)));
		}
	}
}
static inline K_ATTR_INLINE K(lane) * G(lanes_at)(const group_frame *r, size_t b, K(lane) * L)
{
	if (sizeof(L(f)) == LANE_PAD * sizeof(float)) {
		return (K(lane) *)(void *)(r->rows + row_block(b));
	}
	G(lanes_io)(r, b, L, false);
	return L;
}
/* What a step of a chunk's blocks feeds their segments (K(begin)'s results per block). */
typedef struct G(group_step) {
	L(m) awake[GROUP_CHUNK], still[GROUP_CHUNK];
	K(chain_in) ch[GROUP_CHUNK];
	L(f) parent[GROUP_CHUNK];
	int how[GROUP_CHUNK]; /* GROUP_SEG_*: how the block's segments step */
	float *off;           /* the step's offsets of the chunk's chains (animated frames; otherwise NULL) */
	bool any_still;       /* some block has a still chain: the rest test follows the step */
	bool last;            /* the frame's last step */
} G(group_step);
/* The offsets of a step at fraction f of the frame for the block at b, as a single chain */
/* interpolates them (spring_chain2d_lerp; a segment whose offsets end the frame where they began */
/* takes them as they are), into `out` (a row of GROUP_CHUNK_LANES a segment); they become the */
/* offsets the chains last used. Returns the lanes whose offsets are the last used, bit for bit. */
static inline K_ATTR_INLINE L(m) G(step_offsets)(const group_frame *r, size_t b, float f, float *out)
{
	const size_t lanes = sizeof(L(f)) / sizeof(float);
	L(m) same = L(eq)(L(splat)(0.0f), L(splat)(0.0f));
	for (int i = 0; i < r->n; i++) {
		const size_t k = (size_t)i * (size_t)r->stride + b;
		L(f) o = G(at)(r->anim_to, k);
		if (!L(all)(L(eq)(G(at)(r->anim_from, k), o))) { /* a lerp in double, lane by lane */
			float lane[LANE_PAD];
			for (size_t q = 0; q < lanes; q++) {
				const float from = r->anim_from[k + q], to = r->anim_to[k + q];
				lane[q] = from == to ? to : spring_chain2d_lerp(from, to, f);
			}
			memcpy(&o, lane, sizeof o);
		}
		same = same & L(ieq)(L(bits)(o), L(bits)(G(at)(r->used, k)));
		memcpy(r->used + k, &o, sizeof o);
		memcpy(out + (size_t)i * GROUP_CHUNK_LANES, &o, sizeof o);
	}
	return same;
}
/* The lanes of the block at b whose offsets stay through the frame (the same bits at its start */
/* and end) and are the last used: a single chain's frame may sleep only then. */
static inline K_ATTR_INLINE L(m) G(offsets_held)(const group_frame *r, size_t b)
{
	L(m) held = L(eq)(L(splat)(0.0f), L(splat)(0.0f));
	for (int i = 0; i < r->n; i++) {
		const size_t k = (size_t)i * (size_t)r->stride + b;
		const L(i) to = L(bits)(G(at)(r->anim_to, k));
		held = held & L(ieq)(L(bits)(G(at)(r->anim_from, k)), to) & L(ieq)(to, L(bits)(G(at)(r->used, k)));
	}
	return held;
}
/* Step k's start for the chunk's nb blocks at c0 (K(begin) on each block's lane state); with */
/* `animated`, the step's offsets first. */
static inline K_ATTR_INLINE void G(begin)(const group_frame *r, K(basis) * p, int k, size_t c0, int nb, K(lane) *const *Lp,
                                          L(f) (*to)[3], const L(m) * awake_frame, const L(m) * live, bool animated,
                                          G(group_step) * s)
{
	const spring_chain2d_basis *at = &r->bases[k];
	const size_t lanes = sizeof(L(f)) / sizeof(float);
	const L(m) all = L(eq)(L(splat)(0.0f), L(splat)(0.0f));
	/* Two buffers: a pair of steps (k, k + 1) holds both steps' offsets at once. */
	s->off = animated ? r->step_offsets + (size_t)(k & 1) * (size_t)r->n * GROUP_CHUNK_LANES : NULL;
	p->w1 = L(splat)(at->w1);
	p->w2 = L(splat)(at->w2);
	p->w3 = L(splat)(at->w3);
	p->inv_span = L(splat)(at->inv_span);
	p->has_span = at->has_span;
	p->g = L(splat)(1.0f - r->fractions[k]);
	s->any_still = false;
	s->last = k == r->steps - 1;
	for (int q = 0; q < nb; q++) {
		L(f) before = Lp[q]->v[SPRING_CHAIN2D_LN_RA];
		const L(m) same = animated ? G(step_offsets)(r, c0 + (size_t)q * lanes, r->fractions[k], s->off + (size_t)q * lanes)
		                           : all;
		s->awake[q] = K(begin)(p, Lp[q], to[q][0], to[q][1], to[q][2], awake_frame[q], same, &s->ch[q], &s->still[q]);
		s->parent[q] = L(sel)(s->awake[q], Lp[q]->v[SPRING_CHAIN2D_LN_RA], before);
		const bool some = G(any)(s->awake[q]);
		const bool every = some && !G(any)(L(not )(s->awake[q]) & live[q]);
		const bool still = G(any)(s->still[q]);
		/* A block whose chains are all awake (its padding stands: chain2d_group.c, fill_padding) with no still */
		/* chain is all awake in the next step (only the rest test puts a chain to sleep), which */
		/* writes its angles before, targets and kept sines again: only the frame's last step */
		/* stores them then. */
		s->how[q] = !some ? GROUP_SEG_NONE : !every ? GROUP_SEG_BLEND : s->last || still ? GROUP_SEG_KEEP : GROUP_SEG_ONLY;
		s->any_still = s->any_still || still;
	}
}
/* Segment i of block q (at b) in the step s, as the block's `how` says. */
static inline K_ATTR_INLINE void G(step_seg)(const group_frame *r, int i, size_t b, int q, G(group_step) * s, bool animated)
{
	const float *off = animated ? s->off + (size_t)q * (sizeof(L(f)) / sizeof(float)) : NULL;
	switch (s->how[q]) {
	case GROUP_SEG_KEEP: G(segment)(r, i, b, false, true, animated, off, &s->ch[q], &s->parent[q], s->awake[q]); break;
	case GROUP_SEG_ONLY: G(segment)(r, i, b, false, false, animated, off, &s->ch[q], &s->parent[q], s->awake[q]); break;
	case GROUP_SEG_BLEND: G(segment)(r, i, b, true, true, animated, off, &s->ch[q], &s->parent[q], s->awake[q]); break;
	default: break;
	}
}
/* The rest test after the step s of the chunk at c0, for the blocks with a still chain. */
static inline K_ATTR_INLINE void G(rest)(const group_frame *shared, size_t c0, int nb, K(lane) *const *Lp,
                                         const G(group_step) * s)
{
	const size_t lanes = sizeof(L(f)) / sizeof(float);
	for (int q = 0; s->any_still && q < nb; q++) {
		if (G(any)(s->still[q])) {
			const size_t b = c0 + (size_t)q * lanes;
			int32_t still_bits[LANE_PAD];
			const L(i) still_lanes = L(mask)(s->still[q]);
			memcpy(still_bits, &still_lanes, sizeof still_lanes);
			G(lanes_io)(shared, b, Lp[q], true);
			shared->try_rest(shared, b, lanes, still_bits);
			G(lanes_io)(shared, b, Lp[q], false);
		}
	}
}
/* A frame; `animated` (a constant in each copy) when some chain has offsets set or in flight, */
/* otherwise the offsets are all 0 and none is read. */
static inline K_ATTR_INLINE void G(frame)(const group_frame *shared, bool animated)
{
	/* A local copy: the compiler knows the arrays' stores cannot change it (no reloads). */
	const group_frame local = *shared, *r = &local;
	const size_t lanes = sizeof(L(f)) / sizeof(float);
	K(basis) p;
	p.step = L(splat)(r->settings.step);
	p.inv_step = L(splat)(r->settings.inv_step);
	p.held_max = L(splat)(r->settings.held_max);
	p.max_speed = L(splat)(r->settings.max_speed);
	p.turns = r->settings.turns;
	const spring_chain2d_basis *frame = &r->bases[0];
	for (int q = 0; q < 6; q++) {
		p.r[q] = L(splat)(frame->r[q]);
	}
	p.elapsed = L(splat)(frame->elapsed);
	p.hitch = L(ne)(L(splat)(frame->hitch ? 1.0f : 0.0f), L(splat)(0.0f));
	/* A chunk of blocks at a time, each step segment by segment over the chunk's blocks: the */
	/* blocks' walks down their chains are independent work the processor overlaps. */
	for (size_t c0 = 0; c0 < (size_t)r->stride; c0 += GROUP_CHUNK * lanes) {
		const int nb = (int)(((size_t)r->stride - c0) / lanes < GROUP_CHUNK ? ((size_t)r->stride - c0) / lanes : GROUP_CHUNK);
		K(lane) L[GROUP_CHUNK], *Lp[GROUP_CHUNK];
		L(f) to[GROUP_CHUNK][3];
		L(m) awake_frame[GROUP_CHUNK], live[GROUP_CHUNK];
		int live_blocks = 0; /* blocks with chains (not padding only) */
		for (int q = 0; q < nb; q++) {
			const size_t b = c0 + (size_t)q * lanes;
			Lp[q] = G(lanes_at)(r, b, &L[q]);
			for (int e = 0; e < 3; e++) {
				memcpy(&to[q][e], r->targets + (size_t)e * (size_t)r->stride + b, sizeof(L(f)));
			}
			live[q] = G(r_padding_mask)(r, b);
			live_blocks += G(any)(live[q]);
			L(m) asleep = K(frame_asleep)(Lp[q], to[q][0], to[q][1], to[q][2]);
			if (animated && G(any)(asleep)) {
				asleep = asleep & G(offsets_held)(r, b);
			}
			awake_frame[q] = L(not )(asleep) & live[q];
			if (frame->knot) {
				K(knot)(&p, to[q][0], to[q][1], Lp[q]);
			}
		}
		for (int k = 0; k < r->steps;) {
			G(group_step) s0, s1;
			G(begin)(r, &p, k, c0, nb, Lp, to, awake_frame, live, animated, &s0);
			if (k + 1 < r->steps && !s0.any_still && live_blocks <= GROUP_PAIR_MAX) {
				/* Steps k and k + 1 a segment apart: no rest test between them, so step k + 1's */
				/* start reads only what step k's start left in the lane state, and its segment */
				/* i - 1 only step k's segment i - 1 and its own parent. Two walks overlap. */
				G(begin)(r, &p, k + 1, c0, nb, Lp, to, awake_frame, live, animated, &s1);
				for (int i = 0; i <= r->n; i++) {
					for (int q = 0; q < nb; q++) {
						const size_t b = c0 + (size_t)q * lanes;
						if (i < r->n) {
							G(step_seg)(r, i, b, q, &s0, animated);
						}
						if (i > 0) {
							G(step_seg)(r, i - 1, b, q, &s1, animated);
						}
					}
				}
				G(rest)(shared, c0, nb, Lp, &s1);
				k += 2;
			} else {
				for (int i = 0; i < r->n; i++) {
					for (int q = 0; q < nb; q++) {
						G(step_seg)(r, i, c0 + (size_t)q * lanes, q, &s0, animated);
					}
				}
				G(rest)(shared, c0, nb, Lp, &s0);
				k += 1;
			}
		}
		for (int q = 0; q < nb; q++) {
			Lp[q]->v[SPRING_CHAIN2D_LN_IX] = to[q][0];
			Lp[q]->v[SPRING_CHAIN2D_LN_IY] = to[q][1];
			Lp[q]->v[SPRING_CHAIN2D_LN_IA] = to[q][2];
			G(lanes_io)(r, c0 + (size_t)q * lanes, Lp[q], true);
		}
		/* The next frame's offsets start where this frame's end (a single chain's anim_from = anim_to). */
		for (int i = 0; animated && i < r->n; i++) {
			const size_t k = (size_t)i * (size_t)r->stride + c0;
			memcpy(r->anim_from + k, r->anim_to + k, (size_t)nb * lanes * sizeof(float));
		}
	}
}
K_ATTR_ROWS void G(spring_chain2d_kernel_frame)(const group_frame *shared)
{
	if (shared->animated) {
		G(frame)(shared, true);
	} else {
		G(frame)(shared, false);
	}
}

#if !GROUP_OWN_WRITE_JOINTS
// `write_joints_<suffix>`: joints [0, count) of a block's `live` chains (x, y, angle of joint i in
// xs[i], ys[i], as[i]; chain q's first record at first[q * per]), lane by lane.
static inline K_ATTR_INLINE void G(write_joints)(spring_xform2 *first, int per, size_t live, int count, const L(f) * xs,
                                                 const L(f) * ys, const L(f) * as)
{
	for (int i = 0; i < count; i++) {
		const unsigned char *x = (const unsigned char *)&xs[i], *y = (const unsigned char *)&ys[i];
		const unsigned char *a = (const unsigned char *)&as[i];
		for (size_t q = 0; q < live; q++) {
			spring_xform2 *jt = &first[q * (size_t)per + (size_t)i];
			memcpy(&jt->position.x, x + q * sizeof(float), sizeof(float));
			memcpy(&jt->position.y, y + q * sizeof(float), sizeof(float));
			memcpy(&jt->angle, a + q * sizeof(float), sizeof(float));
			jt->scale.x = 1.0f;
			jt->scale.y = 1.0f;
		}
	}
}
#endif

// One instance per vector type: `poses_<suffix>` is spring_chain2d_pose_walk (joints only) for a
// vector of chains at a time, the same float operations in the same order, GROUP_POSE_BATCH
// joints at a time handed to the instance's `write_joints_<suffix>`.
static inline K_ATTR_INLINE L(f) G(pose_angle)(L(f) prev, L(f) angle, float alpha)
{
	return alpha == 0.0f ? prev : alpha == 1.0f ? angle : K(lerp)(prev, angle, L(splat)(alpha));
}
K_ATTR_ROWS void G(spring_chain2d_kernel_poses)(const group_pose *shared)
{
	const group_pose local = *shared, *r = &local; /* not reloaded after the joints' stores */
	const size_t lanes = sizeof(L(f)) / sizeof(float);
	const float alpha = r->alpha;
	const int per = r->n + 1;
	for (size_t b = 0; b < (size_t)r->count; b += lanes) {
		/* The next block's joints fetched for writing while this one is drawn, the first */
		/* block's too at the start (a frame's work leaves them out of the first-level cache, */
		/* and only the stores would bring them in). */
		const size_t next = (b == 0 ? 0 : b + lanes) * (size_t)per * sizeof(spring_xform2);
		const size_t next_end = group_min_size((b + 2u * lanes) * (size_t)per, (size_t)r->count * (size_t)per) *
		                        sizeof(spring_xform2);
		for (size_t byte = next; byte < next_end; byte += 64u) {
			__builtin_prefetch((const char *)r->joints + byte, 1, 3);
		}
		L(f) row[6];
		for (int q = 0; q < 6; q++) {
			memcpy(&row[q], r->rows + row_block(b) + (size_t)(SPRING_CHAIN2D_LN_RX + q) * LANE_PAD, sizeof(L(f)));
		}
		/* row: root x y a, then prev_root x y a */
		L(f) rx = alpha == 0.0f ? row[3] : alpha == 1.0f ? row[0] : row[3] + (row[0] - row[3]) * alpha;
		L(f) ry = alpha == 0.0f ? row[4] : alpha == 1.0f ? row[1] : row[4] + (row[1] - row[4]) * alpha;
		L(f) ox = L(splat)(0.0f), oy = L(splat)(0.0f), a = G(pose_angle)(row[5], row[2], alpha);
		const size_t live = (size_t)r->count - b < lanes ? (size_t)r->count - b : lanes;
		L(f) xs[GROUP_POSE_BATCH], ys[GROUP_POSE_BATCH], as[GROUP_POSE_BATCH];
		for (int i = 0; i <= r->n; i++) {
			L(f) s = L(splat)(0.0f), c = L(splat)(0.0f);
			if (i < r->n) {
				const size_t k = (size_t)i * (size_t)r->stride + b;
				const L(f) prev = G(at)(r->prev, k), angle = G(at)(r->angle, k), ks = G(at)(r->sin, k), kc = G(at)(r->cos, k),
						   key = G(at)(r->key, k);
				a = G(pose_angle)(prev, angle, alpha);
				L(m) kept = L(ieq)(L(bits)(key), L(bits)(a));
				if (G(any)(L(not )(kept))) {
					K(sincos)(a, &s, &c);
					s = L(sel)(kept, ks, s);
					c = L(sel)(kept, kc, c);
				} else {
					s = ks;
					c = kc;
				}
			}
			const int slot = i % GROUP_POSE_BATCH;
			xs[slot] = rx + ox;
			ys[slot] = ry + oy;
			as[slot] = a;
			if (slot == GROUP_POSE_BATCH - 1 || i == r->n) {
				const int first = i - slot;
				G(write_joints)(r->joints + b * (size_t)per + (size_t)first, per, live, slot + 1, xs, ys, as);
			}
			if (i < r->n) {
				ox = ox + r->length[i] * c;
				oy = oy + r->length[i] * s;
			}
		}
	}
}

// One instance per vector type: `fields_<suffix>` takes the field half of a step for the segments
// of one chain from `first` on, a vector of segments at a time; returns the first not taken.
K_ATTR_ROWS int G(spring_chain2d_kernel_fields)(const spring_chain2d_fields *a, int first)
{
	const int lanes = (int)(sizeof(L(f)) / sizeof(float));
	K(chain_in) ch;
	ch.fx = L(splat)(a->chain.fx);
	ch.fy = L(splat)(a->chain.fy);
	ch.steady = L(splat)(a->chain.steady);
	ch.px = L(splat)(a->chain.px);
	ch.py = L(splat)(a->chain.py);
	ch.turn = L(splat)(a->chain.turn);
	ch.held_max = L(splat)(a->chain.held_max);
	ch.max_speed = L(splat)(a->chain.max_speed);
	int i = first;
	for (; i + lanes <= a->n; i += lanes) {
		L(f) x, inertia, length, alpha, stiff, s, c, key;
		memcpy(&x, a->angle + i, sizeof(L(f)));
		memcpy(&inertia, a->inertia + i, sizeof(L(f)));
		memcpy(&length, a->length + i, sizeof(L(f)));
		K(segment_field)(&ch, a->turning, inertia, L(splat)(1.5f) / length, &x, &alpha, &stiff, &s, &c, &key);
		memcpy(a->angle + i, &x, sizeof(L(f)));
		memcpy(a->alpha + i, &alpha, sizeof(L(f)));
		memcpy(a->stiff + i, &stiff, sizeof(L(f)));
		memcpy(a->sin + i, &s, sizeof(L(f)));
		memcpy(a->cos + i, &c, sizeof(L(f)));
		memcpy(a->key + i, &key, sizeof(L(f)));
	}
	return i;
}

#undef G
#undef G_NAME
#undef G_NAME_
#undef GROUP_POSE_BATCH
#undef GROUP_OWN_WRITE_JOINTS
