// SPDX-License-Identifier: MIT
// The angle chains' vector kernels: every segment of every chain of a spring_chain2d_group, one
// vector of chains at a time (a frame, the poses), and the field half of a single chain's step a
// vector of segments at a time (spring_chain2d_internal_fields, for spring_chain2d). The
// arithmetic is chain2d_kernel.h's, instantiated here for 4, 8 and 16 lanes
// (chain2d_group_instance.h) and chosen at run time from one table per instruction set (simd.c
// chooses the set). The kernels call neither chain2d.c nor chain2d_group.c: a frame's job
// (chain2d_group_internal.h) brings the arrays and the group's rest test, and a single chain's
// fields job (chain2d_internal.h) its segments. The loops over the segments and every function
// they call are here and inline, so the per-segment code needs no link-time optimisation.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain2d_group_internal.h"
#include "chain2d_internal.h"
#include "simd_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Blocks (vectors of chains) a frame steps together, segment by segment (see GROUP_FRAME).
#define GROUP_CHUNK 8
// The most blocks with chains (not padding only) a chunk may have for its frame to run two steps at
// a time, a segment apart (see GROUP_FRAME): a lone block has nothing else to overlap its walk
// with (about 1.1x on W2 at 10 chains), while a chunk of several blocks already overlaps theirs,
// and pairing them measured 2-3% slower at 1,000 and 10,000 chains (more state in flight).
#define GROUP_PAIR_MAX 1

// How a block's segments take a step (group_step's `how`): not at all (no chain awake); keeping
// the sleeping chains' state by selects; all its chains awake, storing the angles before, targets
// and kept sines (the frame's last step, or before a rest test); all awake, not storing them (the
// next step writes them again).
enum { GROUP_SEG_NONE, GROUP_SEG_BLEND, GROUP_SEG_KEEP, GROUP_SEG_ONLY };

// One instance per vector type: `frame_<suffix>` steps a whole frame of the chains, a block of one
// vector of chains at a time (its chains' state stays in registers through the steps); `segments`
// steps the segments of a block, and skips the selects that keep a sleeping chain's state when
// every chain of the block is awake (`blend` is a constant in each copy).
#define GROUP_FRAME(SUFFIX)                                                                                                     \
	static inline K_ATTR_INLINE bool any_##SUFFIX(TM m)                                                                         \
	{                                                                                                                           \
		return ANY(m);                                                                                                          \
	}                                                                                                                           \
	static inline K_ATTR_INLINE void segment_##SUFFIX(const group_frame *r, int i, size_t b, bool blend, bool keep,             \
	                                                  const K(chain_in) * ch, T * parent, TM awake)                             \
	{                                                                                                                           \
		const size_t k = (size_t)i * (size_t)r->stride + b;                                                                     \
		K(step_in) in;                                                                                                          \
		T inertia, x, v, d, x1, v1, d1, t1, s1, c1, key1;                                                                       \
		if (r->same[i]) {                                                                                                       \
			const size_t k0 = (size_t)i * (size_t)r->stride;                                                                    \
			in.w2 = SPLAT(r->w2[k0]);                                                                                           \
			in.inv_w2 = SPLAT(r->iw2[k0]);                                                                                      \
			in.pp = SPLAT(r->pp[k0]);                                                                                           \
			in.pv = SPLAT(r->pv[k0]);                                                                                           \
			in.vp = SPLAT(r->vp[k0]);                                                                                           \
			in.vv = SPLAT(r->vv[k0]);                                                                                           \
			inertia = SPLAT(r->inertia[k0]);                                                                                    \
		} else {                                                                                                                \
			memcpy(&in.w2, r->w2 + k, sizeof(T));                                                                               \
			memcpy(&in.inv_w2, r->iw2 + k, sizeof(T));                                                                          \
			memcpy(&in.pp, r->pp + k, sizeof(T));                                                                               \
			memcpy(&in.pv, r->pv + k, sizeof(T));                                                                               \
			memcpy(&in.vp, r->vp + k, sizeof(T));                                                                               \
			memcpy(&in.vv, r->vv + k, sizeof(T));                                                                               \
			memcpy(&inertia, r->inertia + k, sizeof(T));                                                                        \
		}                                                                                                                       \
		in.limit = SPLAT(r->limit[i]);                                                                                          \
		memcpy(&x, r->angle + k, sizeof(T));                                                                                    \
		memcpy(&v, r->velocity + k, sizeof(T));                                                                                 \
		memcpy(&d, r->deflection + k, sizeof(T));                                                                               \
		x1 = x;                                                                                                                 \
		v1 = v;                                                                                                                 \
		d1 = d;                                                                                                                 \
		K(segment)                                                                                                              \
		(&in, r->limit[i] > 0.0f, ch, r->settings.turns, inertia, SPLAT(r->k15[i]), *parent, SPLAT(r->rest[i]), 0, SPLAT(0.0f), \
		 &x1, &v1, &d1, &t1, &s1, &c1, &key1);                                                                                  \
		T prev = x;                                                                                                             \
		if (blend) {                                                                                                            \
			T old_prev, old_target, old_s, old_c, old_key;                                                                      \
			memcpy(&old_prev, r->prev + k, sizeof(T));                                                                          \
			memcpy(&old_target, r->target + k, sizeof(T));                                                                      \
			memcpy(&old_s, r->sin + k, sizeof(T));                                                                              \
			memcpy(&old_c, r->cos + k, sizeof(T));                                                                              \
			memcpy(&old_key, r->key + k, sizeof(T));                                                                            \
			prev = SEL(awake, x, old_prev);                                                                                     \
			x1 = SEL(awake, x1, x);                                                                                             \
			v1 = SEL(awake, v1, v);                                                                                             \
			d1 = SEL(awake, d1, d);                                                                                             \
			t1 = SEL(awake, t1, old_target);                                                                                    \
			s1 = SEL(awake, s1, old_s);                                                                                         \
			c1 = SEL(awake, c1, old_c);                                                                                         \
			key1 = SEL(awake, key1, old_key);                                                                                   \
		}                                                                                                                       \
		*parent = x1;                                                                                                           \
		memcpy(r->angle + k, &x1, sizeof(T));                                                                                   \
		memcpy(r->velocity + k, &v1, sizeof(T));                                                                                \
		memcpy(r->deflection + k, &d1, sizeof(T));                                                                              \
		if (keep) {                                                                                                             \
			memcpy(r->prev + k, &prev, sizeof(T));                                                                              \
			memcpy(r->target + k, &t1, sizeof(T));                                                                              \
			memcpy(r->sin + k, &s1, sizeof(T));                                                                                 \
			memcpy(r->cos + k, &c1, sizeof(T));                                                                                 \
			memcpy(r->key + k, &key1, sizeof(T));                                                                               \
		}                                                                                                                       \
	}                                                                                                                           \
	/* The lane state of the block at b: where it lies for a vector of LANE_PAD lanes, otherwise */                             \
	/* copied into *L (lanes_io: in or back out). */                                                                            \
	static inline K_ATTR_INLINE void lanes_io_##SUFFIX(const group_frame *r, size_t b, K(lane) * L, bool store)                 \
	{                                                                                                                           \
		if (sizeof(T) == LANE_PAD * sizeof(float)) {                                                                            \
			return;                                                                                                             \
		}                                                                                                                       \
		float *const rows = r->rows + row_block(b);                                                                             \
		for (int q = 0; q < SPRING_CHAIN2D_LN_COUNT; q++) {                                                                     \
			float *row = rows + (size_t)q * LANE_PAD;                                                                           \
			if (store) {                                                                                                        \
				memcpy(row, &L->v[q], sizeof(T));                                                                               \
			} else {                                                                                                            \
				memcpy(&L->v[q], row, sizeof(T));                                                                               \
			}                                                                                                                   \
		}                                                                                                                       \
	}                                                                                                                           \
	static inline K_ATTR_INLINE K(lane) * lanes_at_##SUFFIX(const group_frame *r, size_t b, K(lane) * L)                        \
	{                                                                                                                           \
		if (sizeof(T) == LANE_PAD * sizeof(float)) {                                                                            \
			return (K(lane) *)(void *)(r->rows + row_block(b));                                                                 \
		}                                                                                                                       \
		lanes_io_##SUFFIX(r, b, L, false);                                                                                      \
		return L;                                                                                                               \
	}                                                                                                                           \
	/* What a step of a chunk's blocks feeds their segments (K(begin)'s results per block). */                                  \
	typedef struct group_step_##SUFFIX {                                                                                        \
		TM awake[GROUP_CHUNK], still[GROUP_CHUNK];                                                                              \
		K(chain_in) ch[GROUP_CHUNK];                                                                                            \
		T parent[GROUP_CHUNK];                                                                                                  \
		int how[GROUP_CHUNK]; /* GROUP_SEG_*: how the block's segments step */                                                  \
		bool any_still;       /* some block has a still chain: the rest test follows the step */                                \
		bool last;            /* the frame's last step */                                                                       \
	} group_step_##SUFFIX;                                                                                                      \
	/* Step k's start for the chunk's nb blocks (K(begin) on each block's lane state). */                                       \
	static inline K_ATTR_INLINE void begin_##SUFFIX(const group_frame *r, K(basis) * p, int k, int nb, K(lane) *const *Lp,      \
	                                                T(*to)[3], const TM *awake_frame, const TM *live, group_step_##SUFFIX *s)   \
	{                                                                                                                           \
		const spring_chain2d_basis *at = &r->bases[k];                                                                          \
		const TM all = EQ(SPLAT(0.0f), SPLAT(0.0f));                                                                            \
		p->w1 = SPLAT(at->w1);                                                                                                  \
		p->w2 = SPLAT(at->w2);                                                                                                  \
		p->w3 = SPLAT(at->w3);                                                                                                  \
		p->inv_span = SPLAT(at->inv_span);                                                                                      \
		p->has_span = at->has_span;                                                                                             \
		p->g = SPLAT(1.0f - r->fractions[k]);                                                                                   \
		s->any_still = false;                                                                                                   \
		s->last = k == r->steps - 1;                                                                                            \
		for (int q = 0; q < nb; q++) {                                                                                          \
			T before = Lp[q]->v[SPRING_CHAIN2D_LN_RA];                                                                          \
			s->awake[q] = K(begin)(p, Lp[q], to[q][0], to[q][1], to[q][2], awake_frame[q], all, &s->ch[q], &s->still[q]);       \
			s->parent[q] = SEL(s->awake[q], Lp[q]->v[SPRING_CHAIN2D_LN_RA], before);                                            \
			const bool some = any_##SUFFIX(s->awake[q]);                                                                        \
			const bool every = some && !any_##SUFFIX(MNOT(s->awake[q]) & live[q]);                                              \
			const bool still = any_##SUFFIX(s->still[q]);                                                                       \
			/* A block whose chains are all awake (its padding stands: chain2d_group.c, fill_padding) with no still */          \
			/* chain is all awake in the next step (only the rest test puts a chain to sleep), which */                         \
			/* writes its angles before, targets and kept sines again: only the frame's last step */                            \
			/* stores them then. */                                                                                             \
			s->how[q] = !some ? GROUP_SEG_NONE : !every ? GROUP_SEG_BLEND : s->last || still ? GROUP_SEG_KEEP : GROUP_SEG_ONLY; \
			s->any_still = s->any_still || still;                                                                               \
		}                                                                                                                       \
	}                                                                                                                           \
	/* Segment i of block q (at b) in the step s, as the block's `how` says. */                                                 \
	static inline K_ATTR_INLINE void step_seg_##SUFFIX(const group_frame *r, int i, size_t b, int q, group_step_##SUFFIX *s)    \
	{                                                                                                                           \
		switch (s->how[q]) {                                                                                                    \
		case GROUP_SEG_KEEP: segment_##SUFFIX(r, i, b, false, true, &s->ch[q], &s->parent[q], s->awake[q]); break;              \
		case GROUP_SEG_ONLY: segment_##SUFFIX(r, i, b, false, false, &s->ch[q], &s->parent[q], s->awake[q]); break;             \
		case GROUP_SEG_BLEND: segment_##SUFFIX(r, i, b, true, true, &s->ch[q], &s->parent[q], s->awake[q]); break;              \
		default: break;                                                                                                         \
		}                                                                                                                       \
	}                                                                                                                           \
	/* The rest test after the step s of the chunk at c0, for the blocks with a still chain. */                                 \
	static inline K_ATTR_INLINE void rest_##SUFFIX(const group_frame *shared, size_t c0, int nb, K(lane) *const *Lp,            \
	                                               const group_step_##SUFFIX *s)                                                \
	{                                                                                                                           \
		const size_t lanes = sizeof(T) / sizeof(float);                                                                         \
		for (int q = 0; s->any_still && q < nb; q++) {                                                                          \
			if (any_##SUFFIX(s->still[q])) {                                                                                    \
				const size_t b = c0 + (size_t)q * lanes;                                                                        \
				int32_t still_bits[LANE_PAD];                                                                                   \
				const TI still_lanes = LANES_OF(s->still[q]);                                                                   \
				memcpy(still_bits, &still_lanes, sizeof still_lanes);                                                           \
				lanes_io_##SUFFIX(shared, b, Lp[q], true);                                                                      \
				shared->try_rest(shared, b, lanes, still_bits);                                                                 \
				lanes_io_##SUFFIX(shared, b, Lp[q], false);                                                                     \
			}                                                                                                                   \
		}                                                                                                                       \
	}                                                                                                                           \
	static K_ATTR_ROWS void frame_##SUFFIX(const group_frame *shared)                                                           \
	{                                                                                                                           \
		/* A local copy: the compiler knows the arrays' stores cannot change it (no reloads). */                                \
		const group_frame local = *shared, *r = &local;                                                                         \
		const size_t lanes = sizeof(T) / sizeof(float);                                                                         \
		K(basis) p;                                                                                                             \
		p.step = SPLAT(r->settings.step);                                                                                       \
		p.inv_step = SPLAT(r->settings.inv_step);                                                                               \
		p.held_max = SPLAT(r->settings.held_max);                                                                               \
		p.max_speed = SPLAT(r->settings.max_speed);                                                                             \
		p.turns = r->settings.turns;                                                                                            \
		const spring_chain2d_basis *frame = &r->bases[0];                                                                       \
		for (int q = 0; q < 6; q++) {                                                                                           \
			p.r[q] = SPLAT(frame->r[q]);                                                                                        \
		}                                                                                                                       \
		p.elapsed = SPLAT(frame->elapsed);                                                                                      \
		p.hitch = NE(SPLAT(frame->hitch ? 1.0f : 0.0f), 0.0f);                                                                  \
		/* A chunk of blocks at a time, each step segment by segment over the chunk's blocks: the */                            \
		/* blocks' walks down their chains are independent work the processor overlaps. */                                      \
		for (size_t c0 = 0; c0 < (size_t)r->stride; c0 += GROUP_CHUNK * lanes) {                                                \
			const int nb = (int)(((size_t)r->stride - c0) / lanes < GROUP_CHUNK ? ((size_t)r->stride - c0) / lanes              \
			                                                                    : GROUP_CHUNK);                                 \
			K(lane) L[GROUP_CHUNK], *Lp[GROUP_CHUNK];                                                                           \
			T to[GROUP_CHUNK][3];                                                                                               \
			TM awake_frame[GROUP_CHUNK], live[GROUP_CHUNK];                                                                     \
			int live_blocks = 0; /* blocks with chains (not padding only) */                                                    \
			for (int q = 0; q < nb; q++) {                                                                                      \
				const size_t b = c0 + (size_t)q * lanes;                                                                        \
				Lp[q] = lanes_at_##SUFFIX(r, b, &L[q]);                                                                         \
				for (int e = 0; e < 3; e++) {                                                                                   \
					memcpy(&to[q][e], r->targets + (size_t)e * (size_t)r->stride + b, sizeof(T));                               \
				}                                                                                                               \
				live[q] = r_padding_mask_##SUFFIX(r, b);                                                                        \
				live_blocks += any_##SUFFIX(live[q]);                                                                           \
				awake_frame[q] = MNOT(K(frame_asleep)(Lp[q], to[q][0], to[q][1], to[q][2])) & live[q];                          \
				if (frame->knot) {                                                                                              \
					K(knot)(&p, to[q][0], to[q][1], Lp[q]);                                                                     \
				}                                                                                                               \
			}                                                                                                                   \
			for (int k = 0; k < r->steps;) {                                                                                    \
				group_step_##SUFFIX s0, s1;                                                                                     \
				begin_##SUFFIX(r, &p, k, nb, Lp, to, awake_frame, live, &s0);                                                   \
				if (k + 1 < r->steps && !s0.any_still && live_blocks <= GROUP_PAIR_MAX) {                                       \
					/* Steps k and k + 1 a segment apart: no rest test between them, so step k + 1's */                         \
					/* start reads only what step k's start left in the lane state, and its segment */                          \
					/* i - 1 only step k's segment i - 1 and its own parent. Two walks overlap. */                              \
					begin_##SUFFIX(r, &p, k + 1, nb, Lp, to, awake_frame, live, &s1);                                           \
					for (int i = 0; i <= r->n; i++) {                                                                           \
						for (int q = 0; q < nb; q++) {                                                                          \
							const size_t b = c0 + (size_t)q * lanes;                                                            \
							if (i < r->n) {                                                                                     \
								step_seg_##SUFFIX(r, i, b, q, &s0);                                                             \
							}                                                                                                   \
							if (i > 0) {                                                                                        \
								step_seg_##SUFFIX(r, i - 1, b, q, &s1);                                                         \
							}                                                                                                   \
						}                                                                                                       \
					}                                                                                                           \
					rest_##SUFFIX(shared, c0, nb, Lp, &s1);                                                                     \
					k += 2;                                                                                                     \
				} else {                                                                                                        \
					for (int i = 0; i < r->n; i++) {                                                                            \
						for (int q = 0; q < nb; q++) {                                                                          \
							step_seg_##SUFFIX(r, i, c0 + (size_t)q * lanes, q, &s0);                                            \
						}                                                                                                       \
					}                                                                                                           \
					rest_##SUFFIX(shared, c0, nb, Lp, &s0);                                                                     \
					k += 1;                                                                                                     \
				}                                                                                                               \
			}                                                                                                                   \
			for (int q = 0; q < nb; q++) {                                                                                      \
				Lp[q]->v[SPRING_CHAIN2D_LN_IX] = to[q][0];                                                                      \
				Lp[q]->v[SPRING_CHAIN2D_LN_IY] = to[q][1];                                                                      \
				Lp[q]->v[SPRING_CHAIN2D_LN_IA] = to[q][2];                                                                      \
				lanes_io_##SUFFIX(r, c0 + (size_t)q * lanes, Lp[q], true);                                                      \
			}                                                                                                                   \
		}                                                                                                                       \
	}

// The chains of the block at b that exist (the padding lanes never wake): a comparison of the
// lanes' indices, read from a constant (no store of single lanes for a vector load to wait on).
static const int32_t group_lane_index[LANE_PAD] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
#define GROUP_PADDING_MASK(SUFFIX)                                                         \
	static inline K_ATTR_INLINE TM r_padding_mask_##SUFFIX(const group_frame *r, size_t b) \
	{                                                                                      \
		TI index;                                                                          \
		memcpy(&index, group_lane_index, sizeof index);                                    \
		return ILT(index + (int32_t)b, (int32_t)r->count);                                 \
	}

static inline size_t group_min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

// Joints a pose computes for a block before writing them out: GROUP_POSE_BATCH, 1 unless an
// instance writes them by transposes (AVX-512: GROUP_POSE_JOINTS).
#define GROUP_POSE_JOINTS 16
#define GROUP_POSE_BATCH 1

// One instance per vector type: `poses_<suffix>` is spring_chain2d_pose_walk (joints only) for a
// vector of chains at a time, the same float operations in the same order, GROUP_POSE_BATCH
// joints at a time handed to the instance's `write_joints_<suffix>`.
#define GROUP_POSES(SUFFIX)                                                                                              \
	static inline K_ATTR_INLINE T pose_angle_##SUFFIX(T prev, T angle, float alpha)                                      \
	{                                                                                                                    \
		return alpha == 0.0f ? prev : alpha == 1.0f ? angle : K(lerp)(prev, angle, SPLAT(alpha));                        \
	}                                                                                                                    \
	static K_ATTR_ROWS void poses_##SUFFIX(const group_pose *shared)                                                     \
	{                                                                                                                    \
		const group_pose local = *shared, *r = &local; /* not reloaded after the joints' stores */                       \
		const size_t lanes = sizeof(T) / sizeof(float);                                                                  \
		const float alpha = r->alpha;                                                                                    \
		const int per = r->n + 1;                                                                                        \
		for (size_t b = 0; b < (size_t)r->count; b += lanes) {                                                           \
			/* The next block's joints fetched for writing while this one is drawn, the first */                         \
			/* block's too at the start (a frame's work leaves them out of the first-level cache, */                     \
			/* and only the stores would bring them in). */                                                              \
			const size_t next = (b == 0 ? 0 : b + lanes) * (size_t)per * sizeof(spring_xform2);                          \
			const size_t next_end = group_min_size((b + 2u * lanes) * (size_t)per, (size_t)r->count * (size_t)per) *     \
			                        sizeof(spring_xform2);                                                               \
			for (size_t byte = next; byte < next_end; byte += 64u) {                                                     \
				__builtin_prefetch((const char *)r->joints + byte, 1, 3);                                                \
			}                                                                                                            \
			T row[6];                                                                                                    \
			for (int q = 0; q < 6; q++) {                                                                                \
				memcpy(&row[q], r->rows + row_block(b) + (size_t)(SPRING_CHAIN2D_LN_RX + q) * LANE_PAD, sizeof(T));      \
			}                                                                                                            \
			/* row: root x y a, then prev_root x y a */                                                                  \
			T rx = alpha == 0.0f ? row[3] : alpha == 1.0f ? row[0] : row[3] + (row[0] - row[3]) * alpha;                 \
			T ry = alpha == 0.0f ? row[4] : alpha == 1.0f ? row[1] : row[4] + (row[1] - row[4]) * alpha;                 \
			T ox = SPLAT(0.0f), oy = SPLAT(0.0f), a = pose_angle_##SUFFIX(row[5], row[2], alpha);                        \
			const size_t live = (size_t)r->count - b < lanes ? (size_t)r->count - b : lanes;                             \
			T xs[GROUP_POSE_BATCH], ys[GROUP_POSE_BATCH], as[GROUP_POSE_BATCH];                                          \
			for (int i = 0; i <= r->n; i++) {                                                                            \
				T s = SPLAT(0.0f), c = SPLAT(0.0f);                                                                      \
				if (i < r->n) {                                                                                          \
					const size_t k = (size_t)i * (size_t)r->stride + b;                                                  \
					T prev, angle, ks, kc, key;                                                                          \
					memcpy(&prev, r->prev + k, sizeof(T));                                                               \
					memcpy(&angle, r->angle + k, sizeof(T));                                                             \
					memcpy(&ks, r->sin + k, sizeof(T));                                                                  \
					memcpy(&kc, r->cos + k, sizeof(T));                                                                  \
					memcpy(&key, r->key + k, sizeof(T));                                                                 \
					a = pose_angle_##SUFFIX(prev, angle, alpha);                                                         \
					TM kept = IEQ(BITS(key), BITS(a));                                                                   \
					if (any_##SUFFIX(MNOT(kept))) {                                                                      \
						K(sincos)(a, &s, &c);                                                                            \
						s = SEL(kept, ks, s);                                                                            \
						c = SEL(kept, kc, c);                                                                            \
					} else {                                                                                             \
						s = ks;                                                                                          \
						c = kc;                                                                                          \
					}                                                                                                    \
				}                                                                                                        \
				const int slot = i % GROUP_POSE_BATCH;                                                                   \
				xs[slot] = rx + ox;                                                                                      \
				ys[slot] = ry + oy;                                                                                      \
				as[slot] = a;                                                                                            \
				if (slot == GROUP_POSE_BATCH - 1 || i == r->n) {                                                         \
					const int first = i - slot;                                                                          \
					write_joints_##SUFFIX(r->joints + b * (size_t)per + (size_t)first, per, live, slot + 1, xs, ys, as); \
				}                                                                                                        \
				if (i < r->n) {                                                                                          \
					ox = ox + r->length[i] * c;                                                                          \
					oy = oy + r->length[i] * s;                                                                          \
				}                                                                                                        \
			}                                                                                                            \
		}                                                                                                                \
	}

// `write_joints_<suffix>`: joints [0, count) of a block's `live` chains (x, y, angle of joint i in
// xs[i], ys[i], as[i]; chain q's first record at first[q * per]), lane by lane.
#define GROUP_WRITE_LANES(SUFFIX)                                                                                              \
	static inline K_ATTR_INLINE void write_joints_##SUFFIX(spring_xform2 *first, int per, size_t live, int count, const T *xs, \
	                                                       const T *ys, const T *as)                                           \
	{                                                                                                                          \
		for (int i = 0; i < count; i++) {                                                                                      \
			const unsigned char *x = (const unsigned char *)&xs[i], *y = (const unsigned char *)&ys[i];                        \
			const unsigned char *a = (const unsigned char *)&as[i];                                                            \
			for (size_t q = 0; q < live; q++) {                                                                                \
				spring_xform2 *jt = &first[q * (size_t)per + (size_t)i];                                                       \
				memcpy(&jt->position.x, x + q * sizeof(float), sizeof(float));                                                 \
				memcpy(&jt->position.y, y + q * sizeof(float), sizeof(float));                                                 \
				memcpy(&jt->angle, a + q * sizeof(float), sizeof(float));                                                      \
				jt->scale.x = 1.0f;                                                                                            \
				jt->scale.y = 1.0f;                                                                                            \
			}                                                                                                                  \
		}                                                                                                                      \
	}

// One instance per vector type: `fields_<suffix>` takes the field half of a step for the segments
// of one chain from `first` on, a vector of segments at a time; returns the first not taken.
#define GROUP_FIELDS(SUFFIX)                                                                                    \
	static K_ATTR_ROWS int fields_##SUFFIX(const spring_chain2d_fields *a, int first)                           \
	{                                                                                                           \
		const int lanes = (int)(sizeof(T) / sizeof(float));                                                     \
		K(chain_in) ch;                                                                                         \
		ch.fx = SPLAT(a->chain.fx);                                                                             \
		ch.fy = SPLAT(a->chain.fy);                                                                             \
		ch.steady = SPLAT(a->chain.steady);                                                                     \
		ch.px = SPLAT(a->chain.px);                                                                             \
		ch.py = SPLAT(a->chain.py);                                                                             \
		ch.turn = SPLAT(a->chain.turn);                                                                         \
		ch.held_max = SPLAT(a->chain.held_max);                                                                 \
		ch.max_speed = SPLAT(a->chain.max_speed);                                                               \
		int i = first;                                                                                          \
		for (; i + lanes <= a->n; i += lanes) {                                                                 \
			T x, inertia, length, alpha, stiff, s, c, key;                                                      \
			memcpy(&x, a->angle + i, sizeof(T));                                                                \
			memcpy(&inertia, a->inertia + i, sizeof(T));                                                        \
			memcpy(&length, a->length + i, sizeof(T));                                                          \
			K(segment_field)(&ch, a->turning, inertia, SPLAT(1.5f) / length, &x, &alpha, &stiff, &s, &c, &key); \
			memcpy(a->angle + i, &x, sizeof(T));                                                                \
			memcpy(a->alpha + i, &alpha, sizeof(T));                                                            \
			memcpy(a->stiff + i, &stiff, sizeof(T));                                                            \
			memcpy(a->sin + i, &s, sizeof(T));                                                                  \
			memcpy(a->cos + i, &c, sizeof(T));                                                                  \
			memcpy(a->key + i, &key, sizeof(T));                                                                \
		}                                                                                                       \
		return i;                                                                                               \
	}

// Every function of one instance; GROUP_ALL expands its argument first (a macro like SUFFIX).
#define GROUP_ALL_(S) GROUP_PADDING_MASK(S) GROUP_FRAME(S) GROUP_WRITE_JOINTS(S) GROUP_POSES(S) GROUP_FIELDS(S)
#define GROUP_ALL(S) GROUP_ALL_(S)
// The instances write joints lane by lane unless they define their own (AVX-512 below).
#define GROUP_WRITE_JOINTS(S) GROUP_WRITE_LANES(S)

// Plain float (every platform; one chain at a time).
#define T float
#define TI int
#define TM int
#define TL float
#define LANES_OF(m) (m)
#define K(name) spring_chain2d_lane_##name
#define SEL(m, a, b) ((m) ? (a) : (b))
#define SPLAT(c) (c)
#define MNOT(m) (!(m))
#define ANY(m) ((m) != 0)
#define MINV(a, b) ((a) < (b) ? (a) : (b))
#define MAXV(a, b) ((a) > (b) ? (a) : (b))
#define BITS(x) spring_chain2d_bits(x)
#define K_ATTR_ROWS
#define K_ATTR_INLINE __attribute__((always_inline))
SPRING_CHAIN2D_SCALAR_MASKS_BEGIN
GROUP_ALL(scalar)
SPRING_CHAIN2D_SCALAR_MASKS_END
#undef T
#undef TI
#undef TM
#undef TL
#undef LANES_OF
#undef K
#undef SEL
#undef SPLAT
#undef MNOT
#undef ANY
#undef MINV
#undef MAXV
#undef BITS
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE

#if SPRING_SIMD_V4
// The vector instances: the generic arithmetic (chain2d_kernel.h) over GCC/Clang vector types.
#define TM TI
#define TL T
#define LANES_OF(m) (m)
#define SEL(m, a, b) ((T)(((TI)(m) & (TI)(a)) | (~(TI)(m) & (TI)(b))))
#define TOINT(x) __builtin_convertvector(x, TI)
#define BITS(x) ((TI)(x))
#define FABS(x) ((T)((TI)(x)&0x7fffffff))
#define SPLAT(c) ((c) - (T){0})
#define MNOT(m) (~(m))

typedef float group_vf4 __attribute__((vector_size(16)));
typedef int32_t group_vi4 __attribute__((vector_size(16)));
#define T group_vf4
#define TI group_vi4
#define K(name) group_v4_##name
#define K_ATTR
#define K_ATTR_ROWS
#define K_ATTR_INLINE __attribute__((always_inline))
#if SPRING_SIMD_WASM
#define SQRT(x) ((T)wasm_f32x4_sqrt((v128_t)(x)))
#define ANY(m) wasm_v128_any_true((v128_t)(m))
#define MINV(a, b) ((T)wasm_f32x4_pmin((v128_t)(b), (v128_t)(a))) // a < b ? a : b
#define MAXV(a, b) ((T)wasm_f32x4_pmax((v128_t)(b), (v128_t)(a))) // a > b ? a : b
#elif SPRING_SIMD_NEON
#define SQRT(x) ((T)vsqrtq_f32((float32x4_t)(x)))
#define ANY(m) (vmaxvq_u32((uint32x4_t)(m)) != 0)
// SSE's minps/maxps exactly (the second operand when either is NaN), not NEON's fmin/fmax.
#define MINV(a, b) SEL((a) < (b), (a), (b))
#define MAXV(a, b) SEL((a) > (b), (a), (b))
#else
#define SQRT(x) ((T)_mm_sqrt_ps((__m128)(x)))
#define ANY(m) (_mm_movemask_ps((__m128)(m)) != 0)
#define MINV(a, b) ((T)_mm_min_ps((__m128)(a), (__m128)(b)))
#define MAXV(a, b) ((T)_mm_max_ps((__m128)(a), (__m128)(b)))
#endif
#define SUFFIX v4
#include "chain2d_group_instance.h"
#endif

#if SPRING_SIMD_X86
typedef float group_vf8 __attribute__((vector_size(32)));
typedef int32_t group_vi8 __attribute__((vector_size(32)));
#define T group_vf8
#define TI group_vi8
#define K(name) group_avx2_##name
#define SQRT(x) ((T)_mm256_sqrt_ps((__m256)(x)))
#define ANY(m) (_mm256_movemask_ps((__m256)(m)) != 0)
#define MINV(a, b) ((T)_mm256_min_ps((__m256)(a), (__m256)(b)))
#define MAXV(a, b) ((T)_mm256_max_ps((__m256)(a), (__m256)(b)))
#define K_ATTR __attribute__((target("avx2"), always_inline))
#define K_ATTR_ROWS __attribute__((target("avx2")))
#define K_ATTR_INLINE __attribute__((target("avx2"), always_inline))
#define SUFFIX avx2
#include "chain2d_group_instance.h"

typedef float group_vf16 __attribute__((vector_size(64)));
typedef int32_t group_vi16 __attribute__((vector_size(64)));
#define T group_vf16
#define TI group_vi16
#define K(name) group_avx512_##name
#define SQRT(x) ((T)_mm512_sqrt_ps((__m512)(x)))
#define ANY(m) ((m) != 0)
// AVX-512's comparisons give mask registers (__mmask16) and its selects blend under them: two
// instructions where the vector masks took five (the same lanes, the same bits). The last
// instance: these replace the vector types' definitions for the rest of the file.
#undef TL
#undef TM
#undef LANES_OF
#undef SEL
#undef MNOT
#undef GT
#undef GE
#undef LT
#undef LE
#undef EQ
#undef NE
#undef IEQ
#undef ILT
#undef ITEST
#define TM __mmask16
// A block's lane state is used where it lies in the group (memory aligned to 16 bytes).
typedef group_vf16 group_vf16_rows __attribute__((aligned(4)));
#define TL group_vf16_rows
#define LANES_OF(m) ((TI)_mm512_maskz_mov_epi32((m), _mm512_set1_epi32(-1)))
#define SEL(m, a, b) ((T)_mm512_mask_blend_ps((m), (__m512)((b) - (T){0}), (__m512)((a) - (T){0})))
#define MNOT(m) ((__mmask16) ~(m))
#define GROUP_CMP(a, b, predicate) _mm512_cmp_ps_mask((__m512)((a) - (T){0}), (__m512)((b) - (T){0}), predicate)
#define GT(a, b) GROUP_CMP(a, b, _CMP_GT_OQ)
#define GE(a, b) GROUP_CMP(a, b, _CMP_GE_OQ)
#define LT(a, b) GROUP_CMP(a, b, _CMP_LT_OQ)
#define LE(a, b) GROUP_CMP(a, b, _CMP_LE_OQ)
#define EQ(a, b) GROUP_CMP(a, b, _CMP_EQ_OQ)
#define NE(a, b) GROUP_CMP(a, b, _CMP_NEQ_UQ)
#define IEQ(a, b) _mm512_cmpeq_epi32_mask((__m512i)((a) + (TI){0}), (__m512i)((b) + (TI){0}))
#define ILT(a, b) _mm512_cmplt_epi32_mask((__m512i)((a) + (TI){0}), (__m512i)((b) + (TI){0}))
#define ITEST(a, b) _mm512_test_epi32_mask((__m512i)((a) + (TI){0}), (__m512i)((b) + (TI){0}))
#define MINV(a, b) ((T)_mm512_min_ps((__m512)(a), (__m512)(b)))
#define MAXV(a, b) ((T)_mm512_max_ps((__m512)(a), (__m512)(b)))
#define K_ATTR __attribute__((target("avx512f"), always_inline))
#define K_ATTR_ROWS __attribute__((target("avx512f,prfchw"))) // prefetchw: every AVX-512 processor has it
#define K_ATTR_INLINE __attribute__((target("avx512f"), always_inline))

// The sixteen vectors at v as a 16 x 16 matrix of floats, transposed in place.
static inline K_ATTR_INLINE void transpose16_avx512(__m512 *v)
{
	__m512 t[16], u[16];
	for (int k = 0; k < 8; k++) {
		t[2 * k] = _mm512_unpacklo_ps(v[2 * k], v[2 * k + 1]);
		t[2 * k + 1] = _mm512_unpackhi_ps(v[2 * k], v[2 * k + 1]);
	}
	for (int k = 0; k < 4; k++) {
		u[4 * k] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
		u[4 * k + 1] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
		u[4 * k + 2] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
		u[4 * k + 3] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
	}
	for (int k = 0; k < 2; k++) {
		for (int j = 0; j < 4; j++) {
			t[8 * k + j] = _mm512_shuffle_f32x4(u[8 * k + j], u[8 * k + j + 4], 0x88);
			t[8 * k + j + 4] = _mm512_shuffle_f32x4(u[8 * k + j], u[8 * k + j + 4], 0xDD);
		}
	}
	for (int j = 0; j < 8; j++) {
		v[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
		v[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xDD);
	}
}

// GROUP_WRITE_LANES's joints by transposes: a chain's records are contiguous floats (x, y,
// angle, 1, 1 per joint), so the rows x0 y0 a0 1 1 x1 ... transposed 16 at a time give each chain
// 16 of its floats in one vector and one store (lane-by-lane writes were most of a pose's time).
_Static_assert(sizeof(spring_xform2) == 5 * sizeof(float), "a joint record is five floats");
static inline K_ATTR_INLINE void write_joints_avx512(spring_xform2 *first, int per, size_t live, int count, const T *xs,
                                                     const T *ys, const T *as)
{
	__m512 rows[5 * GROUP_POSE_JOINTS];
	const __m512 one = _mm512_set1_ps(1.0f);
	for (int i = 0; i < count; i++) {
		rows[5 * i] = (__m512)xs[i];
		rows[5 * i + 1] = (__m512)ys[i];
		rows[5 * i + 2] = (__m512)as[i];
		rows[5 * i + 3] = one;
		rows[5 * i + 4] = one;
	}
	const int floats = 5 * count, tiles = (floats + 15) / 16;
	for (int m = floats; m < 16 * tiles; m++) {
		rows[m] = one;
	}
	for (int t = 0; t < tiles; t++) {
		transpose16_avx512(rows + 16 * t);
		const int valid = floats - 16 * t < 16 ? floats - 16 * t : 16;
		const __mmask16 mask = (__mmask16)((1u << valid) - 1u);
		for (size_t q = 0; q < live; q++) {
			_mm512_mask_storeu_ps((float *)(void *)(first + q * (size_t)per) + 16 * t, mask, rows[16 * t + q]);
		}
	}
}
#undef GROUP_WRITE_JOINTS
#define GROUP_WRITE_JOINTS(S)
#undef GROUP_POSE_BATCH
#define GROUP_POSE_BATCH GROUP_POSE_JOINTS
#define SUFFIX avx512
#include "chain2d_group_instance.h"
#undef GROUP_CMP
#undef GROUP_WRITE_JOINTS
#define GROUP_WRITE_JOINTS(S) GROUP_WRITE_LANES(S)
#undef GROUP_POSE_BATCH
#define GROUP_POSE_BATCH 1
#endif

// The kernels of each instruction set; `fields` widest first (on AVX-512: 16, 8, then 4 lanes),
// the scalar one finishing what whole vectors leave.
typedef struct group_kernels {
	void (*frame)(const group_frame *shared);
	void (*poses)(const group_pose *shared);
	int (*fields[3])(const spring_chain2d_fields *a, int first);
} group_kernels;

static const group_kernels kernels[SPRING_INTERNAL_ISA_COUNT] = {
	[SPRING_INTERNAL_ISA_AUTO] = {frame_scalar, poses_scalar, {NULL}}, // never in use: complete
	[SPRING_INTERNAL_ISA_SCALAR] = {frame_scalar, poses_scalar, {NULL}},
#if SPRING_SIMD_X86
	[SPRING_INTERNAL_ISA_SSE2] = {frame_v4, poses_v4, {fields_v4}},
	[SPRING_INTERNAL_ISA_AVX2] = {frame_avx2, poses_avx2, {fields_avx2, fields_v4}},
	[SPRING_INTERNAL_ISA_AVX512] = {frame_avx512, poses_avx512, {fields_avx512, fields_avx2, fields_v4}},
#endif
#if SPRING_SIMD_WASM
	[SPRING_INTERNAL_ISA_SIMD128] = {frame_v4, poses_v4, {fields_v4}},
#endif
#if SPRING_SIMD_NEON
	[SPRING_INTERNAL_ISA_NEON] = {frame_v4, poses_v4, {fields_v4}},
#endif
};

// The instruction set in use has an entry: it is one this build has (simd.c chooses only those).
static const group_kernels *kernels_in_use(void)
{
	return &kernels[spring_internal_isa_current()];
}

void spring_chain2d_internal_group_frame(const group_frame *r)
{
	kernels_in_use()->frame(r);
}

void spring_chain2d_internal_group_poses(const group_pose *r)
{
	kernels_in_use()->poses(r);
}

void spring_chain2d_internal_fields(const spring_chain2d_fields *a)
{
	const group_kernels *use = kernels_in_use();
	int done = 0;
	for (int k = 0; k < 3 && use->fields[k]; k++) {
		done = use->fields[k](a, done);
	}
	(void)fields_scalar(a, done);
}
