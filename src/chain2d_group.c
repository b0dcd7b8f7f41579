// SPDX-License-Identifier: MIT
// spring_chain2d_group: many angle chains of one shape, each segment's state stored across the
// chains (segment i of chain j at [i * chain_count + j]), stepped segment by segment over all
// chains.
//
// Every chain is a spring_chain2d without animation: the per-step physics is the very code of
// the single chain (chain2d_internal.h: spring_chain2d_internal_step_begin for the root's motion,
// spring_chain2d_segment_step for each segment, spring_chain2d_pose_walk for the pose), and the
// rare calls (teleport, reset, parameters, inertia, forces, the rest test) copy the chain into a
// scratch spring_chain2d, call the single chain's function and copy it back. So the results are
// the single chain's bit for bit, and each rule lives in chain2d.c once.
//
// Memory: one block. The struct, the chains' headers (a spring_chain2d struct each: root, root
// velocity, the pivot's path, forces, rest state), then the arrays across chains, then (not part
// of snapshots) the kept sin and cos (a cache: every entry is the sin and cos of its key, so its
// bytes never change a result), the backup an update restores on error, the per-update scratch
// and the scratch chain. Arrays are
// addressed by offsets, never stored pointers, so a group in caller memory copies byte for byte.
//
// Per chain and segment: 60 bytes of state (angle, velocity, previous angle, target, inertia: 20;
// params and own params: 24; transition: 16), 24 of kept sin and cos, 16 of backup and 16 of
// per-step scratch; per chain its header twice (state and backup) and the update's scratch.
#include "spring/chain.h"

#include "batch_internal.h"
#include "chain2d_internal.h"
#include "spring_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// Rows of LANE_PAD floats: every row (one segment across the chains, or one value per chain) is
// padded to a whole number of the widest vectors, so the kernels never take a partial vector. The
// padding lanes hold an inert segment (w2 1, identity transition) and never wake.
#define LANE_PAD 16

// Float arrays across chains, a row of `stride` floats per segment. The state comes first.
enum {
	G_ANGLE,
	G_VELOCITY,
	G_PREV,
	G_TARGET,
	G_SIN, // kept by the last step's field: sin and cos of G_KEY
	G_COS,
	G_KEY,
	G_STATE_COUNT,
	G_INERTIA = G_STATE_COUNT, // the per-chain settings
	G_W2,
	G_PP,
	G_PV,
	G_VP,
	G_VV,
	G_FLOAT_COUNT
};

// Per-chain rows of one step (scratch): the chain_in fields, the parent's angle, awake (-1) or not (0).
enum { L_FX, L_FY, L_STEADY, L_PX, L_PY, L_TURN, L_PARENT, L_AWAKE, L_ROW_COUNT };

struct spring_chain2d_group {
	spring_clock clock; // one clock: every chain is given the same frame times
	int chain_count, segment_count;
	int stride;                  // floats per row: chain_count rounded up to LANE_PAD
	spring_internal_owner owner; // set by create; zero for caller memory
};

// Per chain, the inputs of one update (scratch, not in snapshots).
typedef struct group_lane {
	spring_xform2 from, to; // the roots the frame interpolates between
	double begin;           // s: the frame's start on the pivot's path (relative to its newest knot)
	unsigned char asleep;   // sleeps through the whole update (as spring_chain2d_update skips it)
	unsigned char still;    // the rest test follows the current step
} group_lane;

// ---------------------------------------------------------------------------------------------
// Layout

typedef struct group_layout {
	size_t heads, floats, row_bytes, params, own; // offsets from the struct
	size_t kept;                                  // bytes in snapshots
	size_t lanes, rows, scratch, total;
} group_layout;

static size_t align64(size_t x)
{
	return (x + 63u) & ~(size_t)63u;
}

static int padded(int count)
{
	return (count + LANE_PAD - 1) / LANE_PAD * LANE_PAD;
}

// The block of `count` chains of n segments; false when it does not fit a size_t.
static bool layout_of(int count, int n, group_layout *l)
{
	size_t chain_bytes = spring_chain2d_internal_block_size(n);
	*l = (group_layout){0};
	uint64_t cells = (uint64_t)padded(count) * (uint64_t)n;
	if (cells > (uint64_t)(SIZE_MAX / 256u)) {
		return false;
	}
	size_t cn = (size_t)cells;
	size_t off = align64(sizeof(spring_chain2d_group));
	l->heads = off;
	off += align64((size_t)count * sizeof(spring_chain2d));
	l->floats = off;
	l->row_bytes = (size_t)padded(count) * sizeof(float);
	off += align64((size_t)G_FLOAT_COUNT * cn * sizeof(float));
	l->params = off;
	off += align64(cn * sizeof(spring_params));
	l->own = off;
	off += align64(cn * sizeof(spring_params));
	l->kept = off;
	l->lanes = off; // scratch from here: in no snapshot
	off += align64((size_t)count * sizeof(group_lane));
	l->rows = off;
	off += (size_t)L_ROW_COUNT * l->row_bytes;
	l->scratch = off;
	off += align64(chain_bytes);
	l->total = off;
	return (uint64_t)l->total < (uint64_t)SIZE_MAX / 2u;
}

static unsigned char *base_of(const spring_chain2d_group *g)
{
	return (unsigned char *)(uintptr_t)g;
}

static spring_chain2d *heads(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_chain2d *)(void *)(base_of(g) + l->heads);
}

// Array `which`: segment i of chain j at [i * stride + j].
static float *garr(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return (float *)(void *)(base_of(g) + l->floats + (size_t)which * (size_t)g->segment_count * l->row_bytes);
}

static spring_params *gparams(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_params *)(void *)(base_of(g) + l->params);
}

static spring_params *gown(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_params *)(void *)(base_of(g) + l->own);
}

// Per-chain row `which` of the running step (scratch).
static float *grow(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return (float *)(void *)(base_of(g) + l->rows + (size_t)which * l->row_bytes);
}

static spring_chain2d *scratch(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_chain2d *)(void *)(base_of(g) + l->scratch);
}

static group_lane *lanes(const spring_chain2d_group *g, const group_layout *l)
{
	return (group_lane *)(void *)(base_of(g) + l->lanes);
}

static group_layout layout(const spring_chain2d_group *g)
{
	group_layout l;
	bool ok = layout_of(g->chain_count, g->segment_count, &l);
	SPRING_ASSERT(ok); // checked at init
	(void)ok;
	return l;
}

// ---------------------------------------------------------------------------------------------
// Copies between the group and the scratch chain

// Chain j into the scratch chain (its shape arrays stay as init left them).
static spring_chain2d *gather(const spring_chain2d_group *g, const group_layout *l, int j)
{
	spring_chain2d *c = scratch(g, l);
	spring_chain2d_view v;
	*c = heads(g, l)[j];
	spring_chain2d_internal_view(c, &v);
	const int n = g->segment_count;
	float *dst[] = {v.angle, v.velocity, v.prev, v.target, v.sin, v.cos, v.key, v.inertia};
	const int src[] = {G_ANGLE, G_VELOCITY, G_PREV, G_TARGET, G_SIN, G_COS, G_KEY, G_INERTIA};
	for (int a = 0; a < (int)(sizeof src / sizeof src[0]); a++) {
		const float *from = garr(g, l, src[a]);
		for (int i = 0; i < n; i++) {
			dst[a][i] = from[(size_t)i * (size_t)g->stride + (size_t)j];
		}
	}
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)i * (size_t)g->stride + (size_t)j;
		v.params[i] = gparams(g, l)[k];
		v.own_params[i] = gown(g, l)[k];
		spring_chain2d_lane_step_in *st = &v.steppers[i];
		st->w2 = garr(g, l, G_W2)[k];
		st->pp = garr(g, l, G_PP)[k];
		st->pv = garr(g, l, G_PV)[k];
		st->vp = garr(g, l, G_VP)[k];
		st->vv = garr(g, l, G_VV)[k];
	}
	return c;
}

// The scratch chain back into chain j.
static void scatter(spring_chain2d_group *g, const group_layout *l, int j)
{
	spring_chain2d *c = scratch(g, l);
	spring_chain2d_view v;
	heads(g, l)[j] = *c;
	spring_chain2d_internal_view(c, &v);
	const int n = g->segment_count;
	const float *src[] = {v.angle, v.velocity, v.prev, v.target, v.sin, v.cos, v.key, v.inertia};
	const int dst[] = {G_ANGLE, G_VELOCITY, G_PREV, G_TARGET, G_SIN, G_COS, G_KEY, G_INERTIA};
	for (int a = 0; a < (int)(sizeof dst / sizeof dst[0]); a++) {
		float *to = garr(g, l, dst[a]);
		for (int i = 0; i < n; i++) {
			to[(size_t)i * (size_t)g->stride + (size_t)j] = src[a][i];
		}
	}
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)i * (size_t)g->stride + (size_t)j;
		gparams(g, l)[k] = v.params[i];
		gown(g, l)[k] = v.own_params[i];
		const spring_chain2d_lane_step_in *st = &v.steppers[i];
		garr(g, l, G_W2)[k] = st->w2;
		garr(g, l, G_PP)[k] = st->pp;
		garr(g, l, G_PV)[k] = st->pv;
		garr(g, l, G_VP)[k] = st->vp;
		garr(g, l, G_VV)[k] = st->vv;
	}
}

// The padding lanes [count, stride): an inert segment, never awake.
static void fill_padding(spring_chain2d_group *g, const group_layout *l)
{
	for (int i = 0; i < g->segment_count; i++) {
		for (int j = g->chain_count; j < g->stride; j++) {
			size_t k = (size_t)i * (size_t)g->stride + (size_t)j;
			garr(g, l, G_W2)[k] = 1.0f;
			garr(g, l, G_PP)[k] = 1.0f;
			garr(g, l, G_VV)[k] = 1.0f;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// The segment kernels: every segment of every chain, one vector of chains at a time

// What the kernels read: segment i of chain j at [i * stride + j] of each array, the chains' rows
// at [j], the shape at [i].
typedef struct group_rows {
	int n, stride;
	float *angle, *velocity, *prev, *target, *sin, *cos, *key;
	const float *inertia, *w2, *pp, *pv, *vp, *vv;
	const float *fx, *fy, *steady, *px, *py, *turn, *awake;
	float *parent;
	const float *k15, *rest, *limit; // per segment
	float held_max, max_speed;
} group_rows;

// True when every chain of the block starting at b is awake.
static inline bool block_awake(const float *awake, size_t b, size_t lanes)
{
	for (size_t j = b; j < b + lanes; j++) {
		int32_t on;
		memcpy(&on, &awake[j], sizeof on);
		if (!on) {
			return false;
		}
	}
	return true;
}

// One instance per vector type: `rows_<suffix>` steps every segment of chains [0, stride), a block
// of one vector of chains at a time; a block whose chains are all awake skips the selects that
// keep a sleeping chain's state (the common case, compiled apart: `blend` is a constant there).
#define GROUP_ROWS(SUFFIX)                                                                                                     \
	static inline K_ATTR_INLINE void block_##SUFFIX(const group_rows *r, size_t b, bool blend)                                 \
	{                                                                                                                          \
		K(chain_in) ch;                                                                                                        \
		T parent, awake_f;                                                                                                     \
		memcpy(&ch.fx, r->fx + b, sizeof(T));                                                                                  \
		memcpy(&ch.fy, r->fy + b, sizeof(T));                                                                                  \
		memcpy(&ch.steady, r->steady + b, sizeof(T));                                                                          \
		memcpy(&ch.px, r->px + b, sizeof(T));                                                                                  \
		memcpy(&ch.py, r->py + b, sizeof(T));                                                                                  \
		memcpy(&ch.turn, r->turn + b, sizeof(T));                                                                              \
		memcpy(&parent, r->parent + b, sizeof(T));                                                                             \
		memcpy(&awake_f, r->awake + b, sizeof(T));                                                                             \
		ch.held_max = SPLAT(r->held_max);                                                                                      \
		ch.max_speed = SPLAT(r->max_speed);                                                                                    \
		TI awake = BITS(awake_f) != 0;                                                                                         \
		for (int i = 0; i < r->n; i++) {                                                                                       \
			const size_t k = (size_t)i * (size_t)r->stride + b;                                                                \
			K(step_in) in;                                                                                                     \
			T inertia, x, v, x1, v1, t1, s1, c1, key1;                                                                         \
			memcpy(&in.w2, r->w2 + k, sizeof(T));                                                                              \
			memcpy(&in.pp, r->pp + k, sizeof(T));                                                                              \
			memcpy(&in.pv, r->pv + k, sizeof(T));                                                                              \
			memcpy(&in.vp, r->vp + k, sizeof(T));                                                                              \
			memcpy(&in.vv, r->vv + k, sizeof(T));                                                                              \
			in.limit = SPLAT(r->limit[i]);                                                                                     \
			memcpy(&inertia, r->inertia + k, sizeof(T));                                                                       \
			memcpy(&x, r->angle + k, sizeof(T));                                                                               \
			memcpy(&v, r->velocity + k, sizeof(T));                                                                            \
			x1 = x;                                                                                                            \
			v1 = v;                                                                                                            \
			K(segment)                                                                                                         \
			(&in, &ch, inertia, SPLAT(r->k15[i]), parent, SPLAT(r->rest[i]), SPLAT(0.0f), &x1, &v1, &t1, &s1, &c1, &key1);     \
			T prev = x;                                                                                                        \
			if (blend) {                                                                                                       \
				T old_prev, old_target, old_s, old_c, old_key;                                                                 \
				memcpy(&old_prev, r->prev + k, sizeof(T));                                                                     \
				memcpy(&old_target, r->target + k, sizeof(T));                                                                 \
				memcpy(&old_s, r->sin + k, sizeof(T));                                                                         \
				memcpy(&old_c, r->cos + k, sizeof(T));                                                                         \
				memcpy(&old_key, r->key + k, sizeof(T));                                                                       \
				prev = SEL(awake, x, old_prev);                                                                                \
				x1 = SEL(awake, x1, x);                                                                                        \
				v1 = SEL(awake, v1, v);                                                                                        \
				t1 = SEL(awake, t1, old_target);                                                                               \
				s1 = SEL(awake, s1, old_s);                                                                                    \
				c1 = SEL(awake, c1, old_c);                                                                                    \
				key1 = SEL(awake, key1, old_key);                                                                              \
			}                                                                                                                  \
			parent = SEL(awake, x1, parent);                                                                                   \
			memcpy(r->angle + k, &x1, sizeof(T));                                                                              \
			memcpy(r->velocity + k, &v1, sizeof(T));                                                                           \
			memcpy(r->prev + k, &prev, sizeof(T));                                                                             \
			memcpy(r->target + k, &t1, sizeof(T));                                                                             \
			memcpy(r->sin + k, &s1, sizeof(T));                                                                                \
			memcpy(r->cos + k, &c1, sizeof(T));                                                                                \
			memcpy(r->key + k, &key1, sizeof(T));                                                                              \
		}                                                                                                                      \
	}                                                                                                                          \
	static K_ATTR_ROWS void rows_##SUFFIX(const group_rows *r)                                                                 \
	{                                                                                                                          \
		const size_t lanes = sizeof(T) / sizeof(float);                                                                        \
		for (size_t b = 0; b < (size_t)r->stride; b += lanes) {                                                                \
			if (block_awake(r->awake, b, lanes)) {                                                                             \
				block_##SUFFIX(r, b, false);                                                                                   \
			} else {                                                                                                           \
				block_##SUFFIX(r, b, true);                                                                                    \
			}                                                                                                                  \
		}                                                                                                                      \
	}

// Plain float (every platform; one chain at a time).
#define T float
#define TI int
#define K(name) spring_chain2d_lane_##name
#define SEL(m, a, b) ((m) ? (a) : (b))
#define SPLAT(c) (c)
#define BITS(x) group_bits(x)
#define K_ATTR_ROWS
#define K_ATTR_INLINE __attribute__((always_inline))
static inline int32_t group_bits(float x)
{
	int32_t i;
	memcpy(&i, &x, sizeof i);
	return i;
}
GROUP_ROWS(scalar)
#undef T
#undef TI
#undef K
#undef SEL
#undef SPLAT
#undef BITS
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE

#if (defined(__GNUC__) && defined(__x86_64__)) || defined(__wasm_simd128__)
#define GROUP_VECTORS 1
// The vector instances: the generic arithmetic (chain2d_kernel.h) over GCC/Clang vector types.
#define SEL(m, a, b) ((T)(((TI)(m) & (TI)(a)) | (~(TI)(m) & (TI)(b))))
#define TOINT(x) __builtin_convertvector(x, TI)
#define BITS(x) ((TI)(x))
#define FABS(x) ((T)((TI)(x)&0x7fffffff))
#define SPLAT(c) ((c) - (T){0})

typedef float group_vf4 __attribute__((vector_size(16)));
typedef int32_t group_vi4 __attribute__((vector_size(16)));
#define T group_vf4
#define TI group_vi4
#define K(name) group_v4_##name
#define K_ATTR
#define K_ATTR_ROWS
#define K_ATTR_INLINE __attribute__((always_inline))
#include "chain2d_kernel.h"
GROUP_ROWS(v4)
#undef T
#undef TI
#undef K
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE
#else
#define GROUP_VECTORS 0
#endif

#if defined(__GNUC__) && defined(__x86_64__)
typedef float group_vf8 __attribute__((vector_size(32)));
typedef int32_t group_vi8 __attribute__((vector_size(32)));
#define T group_vf8
#define TI group_vi8
#define K(name) group_avx2_##name
#define K_ATTR __attribute__((target("avx2"), always_inline))
#define K_ATTR_ROWS __attribute__((target("avx2")))
#define K_ATTR_INLINE __attribute__((target("avx2"), always_inline))
#include "chain2d_kernel.h"
GROUP_ROWS(avx2)
#undef T
#undef TI
#undef K
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE

typedef float group_vf16 __attribute__((vector_size(64)));
typedef int32_t group_vi16 __attribute__((vector_size(64)));
#define T group_vf16
#define TI group_vi16
#define K(name) group_avx512_##name
#define K_ATTR __attribute__((target("avx512f"), always_inline))
#define K_ATTR_ROWS __attribute__((target("avx512f")))
#define K_ATTR_INLINE __attribute__((target("avx512f"), always_inline))
#include "chain2d_kernel.h"
GROUP_ROWS(avx512)
#undef T
#undef TI
#undef K
#undef K_ATTR_ROWS
#undef K_ATTR_INLINE
#endif

// Every segment of every chain by the widest kernel this machine runs (the batch module's choice).
static void run_rows(const group_rows *r)
{
	switch (spring_internal_batch_current_path()) {
#if defined(__GNUC__) && defined(__x86_64__)
	case SPRING_INTERNAL_BATCH_SSE2: rows_v4(r); return;
	case SPRING_INTERNAL_BATCH_AVX2: rows_avx2(r); return;
	case SPRING_INTERNAL_BATCH_AVX512: rows_avx512(r); return;
#endif
#if defined(__wasm_simd128__)
	case SPRING_INTERNAL_BATCH_SIMD128: rows_v4(r); return;
#endif
	default: rows_scalar(r); return;
	}
}

// ---------------------------------------------------------------------------------------------
// Creation

static spring_result set_error(spring_error *error, spring_result r, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static spring_result set_error(spring_error *error, spring_result r, const char *field, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	spring_internal_fail_v(error, r, "chain2d_group", NULL, 0, field, fmt, args);
	va_end(args);
	return r;
}

// The description's checks; the chain's own are spring_chain2d's (its message is kept).
static spring_result validate(const spring_chain2d_group_desc *desc, spring_error *error)
{
	if (!desc) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, "desc", "the description is NULL");
	}
	if (!desc->chain) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, "chain", "chain (the shape of every chain) is NULL");
	}
	if (desc->chain_count < 1 || desc->chain_count > SPRING_CHAIN2D_GROUP_MAX_CHAINS) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, "chain_count", "chain_count must be in 1..%d (got %d)",
		                 SPRING_CHAIN2D_GROUP_MAX_CHAINS, desc->chain_count);
	}
	if (spring_chain2d_memory_size(desc->chain) == 0) {
		spring_chain2d *ignored;
		return spring_chain2d_init(desc->chain, NULL, 0, &ignored, error); // reports the reason
	}
	group_layout l;
	if (!layout_of(desc->chain_count, desc->chain->segment_count, &l)) {
		return set_error(error, SPRING_ERROR_OUT_OF_RANGE, "chain_count", "%d chains of %d segments do not fit in memory",
		                 desc->chain_count, desc->chain->segment_count);
	}
	for (int j = 0; desc->roots && j < desc->chain_count; j++) {
		spring_result r = spring_chain2d_internal_check_root(desc->roots[j]);
		if (r != SPRING_OK) {
			return set_error(error, r, "roots", "roots[%d] must be finite and within %g units (got %g, %g, %g)", j,
			                 (double)SPRING_CHAIN_MAX_COORDINATE, (double)desc->roots[j].position.x,
			                 (double)desc->roots[j].position.y, (double)desc->roots[j].angle);
		}
	}
	return SPRING_OK;
}

size_t spring_chain2d_group_memory_size(const spring_chain2d_group_desc *desc)
{
	if (validate(desc, NULL) != SPRING_OK) {
		return 0;
	}
	group_layout l;
	layout_of(desc->chain_count, desc->chain->segment_count, &l);
	return l.total;
}

spring_result spring_chain2d_group_init(const spring_chain2d_group_desc *desc, void *memory, size_t size,
                                        spring_chain2d_group **out, spring_error *error)
{
	spring_result r = validate(desc, error);
	if (r != SPRING_OK) {
		return r;
	}
	if (!out) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, "out", "out is NULL");
	}
	const int n = desc->chain->segment_count, count = desc->chain_count;
	group_layout l;
	layout_of(count, n, &l);
	if (!memory || ((uintptr_t)memory & 15u) != 0u) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, "memory", "memory must be non-NULL and aligned to 16 bytes");
	}
	if (size < l.total) {
		return set_error(error, SPRING_ERROR_INVALID_ARGUMENT, "memory", "memory is %zu bytes, %zu needed", size, l.total);
	}
	memset(memory, 0, l.total);
	spring_chain2d_group *g = (spring_chain2d_group *)memory;
	g->chain_count = count;
	g->segment_count = n;
	g->stride = padded(count);
	g->owner = (spring_internal_owner){0};
	spring_chain2d *c;
	r = spring_chain2d_init(desc->chain, base_of(g) + l.scratch, spring_chain2d_internal_block_size(n), &c, NULL);
	SPRING_ASSERT(r == SPRING_OK && c == scratch(g, &l)); // validated above
	g->clock = c->clock;
	for (int j = 0; j < count; j++) {
		if (desc->roots) {
			r = spring_chain2d_reset(c, desc->roots[j]); // = made at this root
			SPRING_ASSERT(r == SPRING_OK);
		}
		scatter(g, &l, j);
	}
	fill_padding(g, &l);
	*out = g;
	return SPRING_OK;
}

SPRING_INTERNAL_DEFINE_CREATE(spring_chain2d_group, spring_chain2d_group, spring_chain2d_group_desc, "chain2d_group")

void spring_chain2d_group_destroy(spring_chain2d_group *group)
{
	if (group) {
		spring_internal_destroy(group, &group->owner);
	}
}

int spring_chain2d_group_chain_count(const spring_chain2d_group *group)
{
	return group ? group->chain_count : 0;
}

int spring_chain2d_group_segment_count(const spring_chain2d_group *group)
{
	return group ? group->segment_count : 0;
}

const spring_clock *spring_chain2d_group_clock(const spring_chain2d_group *group)
{
	return group ? &group->clock : NULL;
}

// ---------------------------------------------------------------------------------------------
// Stepping

// One fixed step of every chain at fraction f of the frame (spring_chain2d's step_once: chain by
// chain for the roots, then the segment kernels across the chains).
static void step_all(spring_chain2d_group *g, const group_layout *l, float f, float frame_dt)
{
	const int count = g->chain_count;
	spring_chain2d *head = heads(g, l);
	group_lane *lane = lanes(g, l);
	float *fx = grow(g, l, L_FX), *fy = grow(g, l, L_FY), *steady = grow(g, l, L_STEADY);
	float *px = grow(g, l, L_PX), *py = grow(g, l, L_PY);
	float *turn = grow(g, l, L_TURN), *parent = grow(g, l, L_PARENT), *awake = grow(g, l, L_AWAKE);
	const int32_t yes = -1, no = 0;
	bool any = false;
	for (int j = 0; j < count; j++) {
		group_lane *ln = &lane[j];
		bool still = false;
		memcpy(&awake[j], &no, sizeof no);
		if (ln->asleep) {
			continue;
		}
		spring_xform2 at = spring_chain2d_internal_substep_root(ln->from, ln->to, f);
		double u[2];
		spring_chain2d_internal_path_step(&head[j], ln->begin + (double)f * (double)frame_dt, u);
		spring_chain2d_lane_chain_in in;
		if (!spring_chain2d_internal_step_begin(&head[j], at, spring_chain2d_internal_same_root(&head[j], at), u, &in, &still)) {
			continue;
		}
		memcpy(&awake[j], &yes, sizeof yes);
		any = true;
		ln->still = still;
		fx[j] = in.fx;
		fy[j] = in.fy;
		steady[j] = in.steady;
		px[j] = in.px;
		py[j] = in.py;
		turn[j] = in.turn;
		parent[j] = at.angle;
	}
	if (!any) {
		return;
	}
	spring_chain2d_view shape;
	spring_chain2d_internal_view(scratch(g, l), &shape); // lengths, rest angles, limits
	const int n = g->segment_count;
	float k15[SPRING_CHAIN_MAX_BONES], limit[SPRING_CHAIN_MAX_BONES];
	for (int i = 0; i < n; i++) {
		k15[i] = spring_chain2d_k15(shape.length[i]);
		limit[i] = shape.steppers[i].limit;
	}
	const double h = (double)g->clock.step;
	const group_rows rows = {n,
	                         g->stride,
	                         garr(g, l, G_ANGLE),
	                         garr(g, l, G_VELOCITY),
	                         garr(g, l, G_PREV),
	                         garr(g, l, G_TARGET),
	                         garr(g, l, G_SIN),
	                         garr(g, l, G_COS),
	                         garr(g, l, G_KEY),
	                         garr(g, l, G_INERTIA),
	                         garr(g, l, G_W2),
	                         garr(g, l, G_PP),
	                         garr(g, l, G_PV),
	                         garr(g, l, G_VP),
	                         garr(g, l, G_VV),
	                         fx,
	                         fy,
	                         steady,
	                         px,
	                         py,
	                         turn,
	                         awake,
	                         parent,
	                         k15,
	                         shape.rest,
	                         limit,
	                         (float)(SPRING_CHAIN2D_FIELD_STIFFNESS_MAX / (h * h)),
	                         (float)(SPRING_PI / h)};
	run_rows(&rows);
	for (int j = 0; j < count; j++) {
		int32_t on;
		memcpy(&on, &awake[j], sizeof on);
		if (on && lane[j].still) {
			spring_chain2d_internal_try_rest(gather(g, l, j));
			scatter(g, l, j);
		}
	}
}

spring_result spring_chain2d_group_update(spring_chain2d_group *group, const spring_xform2 *roots, float frame_dt)
{
	if (!group || !roots) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const int count = group->chain_count;
	for (int j = 0; j < count; j++) {
		spring_result r = spring_chain2d_internal_check_root(roots[j]);
		if (r != SPRING_OK) {
			return r;
		}
	}
	spring_result r = spring_chain2d_internal_check_frame_dt(frame_dt);
	if (r != SPRING_OK) {
		return r;
	}
	// Every input is checked and a step cannot fail (chain2d.c): from here nothing is refused.
	int steps = spring_clock_advance(&group->clock, frame_dt);
	if (steps < 0) {
		return (spring_result)(-steps);
	}
	const group_layout l = layout(group);
	spring_chain2d *head = heads(group, &l);
	group_lane *lane = lanes(group, &l);
	for (int j = 0; j < count; j++) {
		group_lane *ln = &lane[j];
		ln->from = head[j].input_root;
		ln->to = spring_chain2d_internal_clean_root(roots[j]);
		// Asleep, nothing changed, the pivot at rest on its path: spring_chain2d_update runs no step.
		ln->asleep = head[j].resting && memcmp(&ln->from, &ln->to, sizeof ln->to) == 0 &&
		             spring_chain2d_internal_path_is_still(&head[j], ln->to.position) &&
		             spring_chain2d_internal_same_root(&head[j], ln->to);
		ln->begin = spring_chain2d_internal_path_advance(&head[j], ln->to.position, (double)frame_dt);
	}
	for (int k = 0; k < steps; k++) {
		step_all(group, &l, spring_clock_substep_fraction(&group->clock, k, steps), frame_dt);
	}
	for (int j = 0; j < count; j++) {
		head[j].input_root = lane[j].to;
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Per-chain calls: the single chain's, on a copy

static bool valid_chain(const spring_chain2d_group *g, int chain)
{
	return g && chain >= 0 && chain < g->chain_count;
}

// A per-chain call: the single chain's function of that name with these arguments.
typedef enum chain_call_kind { CALL_RESET, CALL_TELEPORT, CALL_SET_PARAMS, CALL_SET_INERTIA, CALL_SET_FORCES } chain_call_kind;

typedef struct chain_call {
	chain_call_kind kind;
	int segment;
	spring_xform2 root;
	spring_params params;
	float inertia;
	spring_vec2 gravity, wind;
} chain_call;

// Runs `call` on a copy of chain `chain` and keeps the result when the call succeeds.
static spring_result call_on_copy(spring_chain2d_group *group, int chain, const chain_call *call)
{
	if (!valid_chain(group, chain)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const group_layout l = layout(group);
	spring_chain2d *c = gather(group, &l, chain);
	spring_result r = SPRING_ERROR_INVALID_ARGUMENT;
	switch (call->kind) {
	case CALL_RESET: r = spring_chain2d_reset(c, call->root); break;
	case CALL_TELEPORT: r = spring_chain2d_teleport(c, call->root); break;
	case CALL_SET_PARAMS: r = spring_chain2d_set_params(c, call->segment, call->params); break;
	case CALL_SET_INERTIA: r = spring_chain2d_set_inertia(c, call->segment, call->inertia); break;
	case CALL_SET_FORCES: r = spring_chain2d_set_forces(c, call->gravity, call->wind); break;
	}
	if (r == SPRING_OK) {
		scatter(group, &l, chain);
	}
	return r;
}

spring_result spring_chain2d_group_reset(spring_chain2d_group *group, int chain, spring_xform2 root)
{
	return call_on_copy(group, chain, &(chain_call){.kind = CALL_RESET, .root = root});
}

spring_result spring_chain2d_group_teleport(spring_chain2d_group *group, int chain, spring_xform2 root)
{
	return call_on_copy(group, chain, &(chain_call){.kind = CALL_TELEPORT, .root = root});
}

spring_result spring_chain2d_group_set_params(spring_chain2d_group *group, int chain, int segment, spring_params params)
{
	return call_on_copy(group, chain, &(chain_call){.kind = CALL_SET_PARAMS, .segment = segment, .params = params});
}

spring_result spring_chain2d_group_set_inertia(spring_chain2d_group *group, int chain, int segment, float inertia)
{
	return call_on_copy(group, chain, &(chain_call){.kind = CALL_SET_INERTIA, .segment = segment, .inertia = inertia});
}

spring_result spring_chain2d_group_set_forces(spring_chain2d_group *group, int chain, spring_vec2 gravity, spring_vec2 wind)
{
	return call_on_copy(group, chain, &(chain_call){.kind = CALL_SET_FORCES, .gravity = gravity, .wind = wind});
}

bool spring_chain2d_group_is_resting(const spring_chain2d_group *group, int chain)
{
	if (!valid_chain(group, chain)) {
		return false;
	}
	const group_layout l = layout(group);
	return heads(group, &l)[chain].resting;
}

// ---------------------------------------------------------------------------------------------
// Queries

spring_result spring_chain2d_group_get_state(const spring_chain2d_group *group, int chain, int segment, spring_state *world_angle)
{
	if (!valid_chain(group, chain) || !world_angle || segment < 0 || segment >= group->segment_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const group_layout l = layout(group);
	size_t k = (size_t)segment * (size_t)group->stride + (size_t)chain;
	spring_state s = {garr(group, &l, G_ANGLE)[k], garr(group, &l, G_VELOCITY)[k]};
	*world_angle = s;
	return SPRING_OK;
}

// Chain j's pose at the clock's alpha (the checks done by the callers).
static void pose_of(const spring_chain2d_group *g, const group_layout *l, int j, spring_xform2 *joints, float *local_angles)
{
	spring_chain2d_view shape;
	spring_chain2d_internal_view(scratch(g, l), &shape);
	const spring_chain2d *h = &heads(g, l)[j];
	const spring_chain2d_pose_src src = {garr(g, l, G_PREV) + j, garr(g, l, G_ANGLE) + j, garr(g, l, G_SIN) + j,
	                                     garr(g, l, G_COS) + j,  garr(g, l, G_KEY) + j,   (ptrdiff_t)g->stride,
	                                     shape.length,           g->segment_count};
	spring_chain2d_pose_walk(&src, h->prev_root, h->root, g->clock.alpha, joints, local_angles);
}

spring_result spring_chain2d_group_get_pose(const spring_chain2d_group *group, int chain, spring_xform2 *joints,
                                            float *local_angles, int capacity)
{
	if (!valid_chain(group, chain) || (!joints && !local_angles)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (capacity < (joints ? group->segment_count + 1 : group->segment_count)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const group_layout l = layout(group);
	pose_of(group, &l, chain, joints, local_angles);
	return SPRING_OK;
}

spring_result spring_chain2d_group_get_poses(const spring_chain2d_group *group, spring_xform2 *joints, int capacity)
{
	if (!group || !joints) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const int per = group->segment_count + 1;
	if ((int64_t)capacity < (int64_t)group->chain_count * per) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const group_layout l = layout(group);
	for (int j = 0; j < group->chain_count; j++) {
		pose_of(group, &l, j, joints + (size_t)j * (size_t)per, NULL);
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Snapshots: the struct, the headers and the arrays (not the backup and scratch after them)

static uint64_t group_shape(const spring_chain2d_group *g, const group_layout *l)
{
	static const char tag[] = "chain2d_group";
	uint64_t h = spring_hash(SPRING_HASH_INIT, tag, sizeof tag);
	h = spring_hash(h, &g->chain_count, sizeof g->chain_count);
	h = spring_hash(h, &g->segment_count, sizeof g->segment_count);
	return spring_hash(h, &l->kept, sizeof l->kept);
}

size_t spring_chain2d_group_snapshot_size(const spring_chain2d_group *group)
{
	return group ? SPRING_SNAPSHOT_HEADER_BYTES + layout(group).kept : 0;
}

spring_result spring_chain2d_group_snapshot(const spring_chain2d_group *group, void *blob, size_t size)
{
	if (!group) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const group_layout l = layout(group);
	return spring_internal_snapshot(group, l.kept, offsetof(spring_chain2d_group, owner), SPRING_SNAPSHOT_CHAIN2D,
	                                group_shape(group, &l), blob, size);
}

spring_result spring_chain2d_group_restore(spring_chain2d_group *group, const void *blob, size_t size)
{
	if (!group) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const group_layout l = layout(group);
	return spring_internal_restore(group, l.kept, offsetof(spring_chain2d_group, owner), SPRING_SNAPSHOT_CHAIN2D,
	                               group_shape(group, &l), blob, size);
}
