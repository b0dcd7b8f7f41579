// SPDX-License-Identifier: MIT
// spring_chain2d_group: many angle chains of one shape, each segment's state stored across the
// chains (segment i of chain j at [i * stride + j], stride the chain count rounded up to 16), a
// frame stepped for a vector of chains at a time.
//
// Every chain is a spring_chain2d: the per-step arithmetic is the very code of the single chain
// (chain2d_kernel.h: K(knot) and K(begin) for the pivot's path and the roots, K(segment) for each
// segment, the pose walk), instantiated for 4, 8 and 16 lanes in kernels_<set>.c and chosen at run
// time from the angle kernels' table (simd.c); the pivot paths' timeline (the knots' times) is one
// for the group, as its chains share the frame times. The rare calls (teleport, reset, parameters,
// inertia, forces, animation, the rest test) copy the chain into a scratch spring_chain2d, call the
// single chain's function and copy it back. So the results are the single chain's bit for bit,
// and each rule lives in chain2d.c and chain2d_kernel.h once. This file holds the memory and the
// calls; a frame's steps and the poses are the kernels' (chain2d_group_frame.h), handed the arrays
// and the rest test in a job (chain2d_group_internal.h).
//
// A frame runs in chunks of GROUP_CHUNK vectors of chains (chain2d_group_frame.h): each chunk's
// chain state is used where it lies (16 lanes; narrower vectors copy it in and out once), and every
// step walks the segments down the chains one segment at a time over the chunk's vectors (their
// walks are independent work the processor overlaps). A chunk of one vector (a small group) takes
// two steps with no rest test between them down together a segment apart (step k + 1's segment
// i - 1 beside step k's segment i), so it too has two walks in flight. A segment's settings are
// read once for all chains while every chain has the same bits; poses go out by 16 x 16
// transposes on AVX-512. The padding lanes of a partial vector stand still under a step
// (fill_padding), so they need no selects; the timeline's values of a frame are the last frame's
// when it read the same (group_memo). Animated offsets cost nothing until a chain has some: the
// group keeps whether any offset is set or in flight (`animated`), and only then do its frames
// run the kernels' animated copy (each step's offsets interpolated as a single chain does, its
// sleep test and the targets with offsets, lane by lane).
//
// Memory: one block. The struct (clock, timeline), the chains' headers (cold settings, a
// spring_chain2d struct each), the arrays across chains (state, kept sin and cos, offsets,
// settings), the chains' rows (their state between steps: roots, velocity, path, rest; by blocks
// of 16 chains), the parameters and the segments' same-settings flags; then, not in snapshots, the
// timeline's values of each step and what they were computed from (group_memo), the frame's
// target roots, a chunk's offsets of two steps and the scratch chain. Arrays are addressed by
// offsets, never stored pointers, so a group in caller memory copies byte for byte. Nothing is
// copied aside per update: every input is checked before anything changes and a step cannot fail.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/chain.h"

#include "chain2d_group_internal.h"
#include "chain2d_internal.h"
#include "spring_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Float arrays across chains, a row of `stride` floats per segment. The state comes first.
enum {
	G_ANGLE,
	G_VELOCITY,
	G_PREV,
	G_TARGET,
	G_DEFLECTION, // angle minus target, never folded
	G_SIN,        // kept by the last step's field: sin and cos of G_KEY
	G_COS,
	G_KEY,
	G_OFFSET,    // the animated offsets the last step used
	G_ANIM_FROM, // the animated offsets of the last frame
	G_STATE_COUNT,
	G_INERTIA = G_STATE_COUNT, // the per-chain settings
	G_W2,
	G_IW2,
	G_PP,
	G_PV,
	G_VP,
	G_VV,
	G_ANIM_TO, // the animated offsets of the next frame (a per-chain setting, not shared)
	G_FLOAT_COUNT
};

struct spring_chain2d_group {
	spring_clock clock;           // one clock: every chain is given the same frame times
	spring_chain2d_timeline time; // and so one timeline of the pivots' paths
	int chain_count, segment_count;
	int stride;                  // floats per row: chain_count rounded up to LANE_PAD
	int animated;                // 1 while some chain has an offset (a bit of G_OFFSET, G_ANIM_FROM or
	                             // G_ANIM_TO not 0); 0: every offset is +0 (frames run without them)
	spring_internal_owner owner; // set by create; zero for caller memory
};

// ---------------------------------------------------------------------------------------------
// Layout

typedef struct group_layout {
	size_t heads, floats, row_bytes, rows, params, own, same; // offsets from the struct
	size_t kept;                                              // bytes in snapshots
	size_t bases, memo, targets, step_offsets, scratch, total;
} group_layout;

// The last frame's timeline work (scratch): what it read (the timeline before it, the frame time,
// the clock's step, cap and carried time after it, the steps) and the timeline after it. The
// bases and fractions it wrote stay beside it until the next frame's, so a frame that reads the
// same (every frame of a steady frame rate, once the path has its knots) takes them as they are:
// the same function of the same inputs.
typedef struct group_memo {
	int valid, steps, max_steps;
	int32_t carried_ticks;
	float frame_dt, step;
	spring_chain2d_timeline before, after;
} group_memo;

static size_t align64(size_t x)
{
	return x > SIZE_MAX - 63u ? SIZE_MAX : (x + 63u) & ~(size_t)63u;
}

static int padded(int count)
{
	return (count + LANE_PAD - 1) / LANE_PAD * LANE_PAD;
}

// The block of `count` chains of n segments stepped at most max_steps times a frame; false when
// it does not fit (spring_internal_size_fits: the byte counts saturate instead of wrapping).
static bool layout_of(int count, int n, int max_steps, group_layout *l)
{
	size_t chain_bytes = spring_chain2d_internal_block_size(n);
	*l = (group_layout){0};
	size_t cn = spring_internal_size_mul((size_t)padded(count), (size_t)n);
	size_t off = align64(sizeof(spring_chain2d_group));
#define MUL spring_internal_size_mul
#define ADD(bytes) (off = spring_internal_size_add(off, (bytes)))
	l->heads = off;
	ADD(align64(MUL((size_t)count, sizeof(spring_chain2d))));
	l->floats = off;
	l->row_bytes = MUL((size_t)padded(count), sizeof(float));
	ADD(align64(MUL(cn, (size_t)G_FLOAT_COUNT * sizeof(float))));
	l->rows = off;
	ADD(MUL((size_t)R_ROW_COUNT, l->row_bytes));
	l->params = off;
	ADD(align64(MUL(cn, sizeof(spring_params))));
	l->own = off;
	ADD(align64(MUL(cn, sizeof(spring_params))));
	l->same = off;
	ADD(align64((size_t)n * sizeof(int32_t)));
	l->kept = off; // scratch from here: in no snapshot
	l->bases = off;
	ADD(align64(MUL((size_t)max_steps, sizeof(spring_chain2d_basis) + sizeof(float))));
	l->memo = off;
	ADD(align64(sizeof(group_memo)));
	l->targets = off;
	ADD(MUL(3u, l->row_bytes));
	l->step_offsets = off;
	ADD(align64(MUL((size_t)n, 2u * GROUP_CHUNK_LANES * sizeof(float))));
	l->scratch = off;
	ADD(align64(chain_bytes));
#undef ADD
#undef MUL
	l->total = off;
	return spring_internal_size_fits(l->total);
}

static unsigned char *base_of(const spring_chain2d_group *g)
{
	return (unsigned char *)(uintptr_t)g;
}

static spring_chain2d *heads(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_chain2d *)(void *)(base_of(g) + l->heads);
}

// Where array `which` starts in the block (or an image of it).
static size_t arr_offset(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return l->floats + (size_t)which * (size_t)g->segment_count * l->row_bytes;
}

// Array `which`: segment i of chain j at [i * stride + j].
static float *garr(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return (float *)(void *)(base_of(g) + arr_offset(g, l, which));
}

// The chains' rows, by blocks of LANE_PAD chains (row_block).
static float *grows(const spring_chain2d_group *g, const group_layout *l)
{
	return (float *)(void *)(base_of(g) + l->rows);
}

// Chain j's entry in row `which` (R_* or SPRING_CHAIN2D_LN_*).
static float *grow(const spring_chain2d_group *g, const group_layout *l, int which, int j)
{
	return grows(g, l) + row_block((size_t)j) + (size_t)which * LANE_PAD;
}

static spring_params *gparams(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_params *)(void *)(base_of(g) + l->params);
}

static spring_params *gown(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_params *)(void *)(base_of(g) + l->own);
}

// Per segment: non-zero when its settings (G_INERTIA .. G_VV) are the same bits in every chain, so
// that a frame reads chain 0's once for all (W2's chains, and any group whose chains keep the
// description's parameters). Cleared for good when a chain's differ; the padding lanes do not count.
static int32_t *gsame(const spring_chain2d_group *g, const group_layout *l)
{
	return (int32_t *)(void *)(base_of(g) + l->same);
}

// Chains j and m have segment i's settings bit for bit.
static bool same_settings(const spring_chain2d_group *g, const group_layout *l, int i, int j, int m)
{
	const size_t row = (size_t)i * (size_t)g->stride;
	for (int a = G_INERTIA; a <= G_VV; a++) {
		const float *arr = garr(g, l, a) + row;
		if (memcmp(&arr[j], &arr[m], sizeof(float)) != 0) {
			return false;
		}
	}
	return true;
}

// No chain of `block` (the group's own, or an image of it) has an animated offset: every bit of
// the three offset arrays is 0 (then `animated` may be 0).
static bool no_offsets(const spring_chain2d_group *g, const group_layout *l, const unsigned char *block)
{
	const int arrays[3] = {G_OFFSET, G_ANIM_FROM, G_ANIM_TO};
	const size_t bytes = (size_t)g->segment_count * l->row_bytes;
	unsigned char bits = 0;
	for (int a = 0; a < 3; a++) {
		const unsigned char *p = block + arr_offset(g, l, arrays[a]);
		for (size_t k = 0; k < bytes; k++) {
			bits |= p[k];
		}
	}
	return bits == 0;
}

// The timeline's values of each step of the running frame, then the steps' fractions (scratch).
static spring_chain2d_basis *gbases(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_chain2d_basis *)(void *)(base_of(g) + l->bases);
}

static group_memo *gmemo(const spring_chain2d_group *g, const group_layout *l)
{
	return (group_memo *)(void *)(base_of(g) + l->memo);
}

// The frame's roots, cleaned: rows of x, y and angle (scratch, written by the update's checks).
static float *gtargets(const spring_chain2d_group *g, const group_layout *l)
{
	return (float *)(void *)(base_of(g) + l->targets);
}

static float *gfractions(const spring_chain2d_group *g, const group_layout *l)
{
	return (float *)(void *)(gbases(g, l) + g->clock.max_steps);
}

// Two steps' offsets of a frame's chunk of chains (scratch, group_frame.step_offsets).
static float *gstep_offsets(const spring_chain2d_group *g, const group_layout *l)
{
	return (float *)(void *)(base_of(g) + l->step_offsets);
}

static spring_chain2d *scratch(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_chain2d *)(void *)(base_of(g) + l->scratch);
}

static group_layout layout(const spring_chain2d_group *g)
{
	group_layout l;
	bool ok = layout_of(g->chain_count, g->segment_count, g->clock.max_steps, &l);
	SPRING_ASSERT(ok); // checked at init
	(void)ok;
	return l;
}

// ---------------------------------------------------------------------------------------------
// Copies between the group and the scratch chain

// The per-segment float arrays both a chain and the group keep: the group's, and the chain's in
// the same order (gather and scatter copy each into the other).
#define CHAIN_ARRAYS 12
static const int chain_arrays[CHAIN_ARRAYS] = {G_ANGLE, G_VELOCITY, G_PREV,    G_TARGET, G_DEFLECTION, G_SIN,
                                               G_COS,   G_KEY,      G_INERTIA, G_OFFSET, G_ANIM_FROM,  G_ANIM_TO};
static void chain_views(const spring_chain2d_view *v, float *out[CHAIN_ARRAYS])
{
	float *const in[CHAIN_ARRAYS] = {v->angle, v->velocity, v->prev,    v->target, v->deflection, v->sin,
	                                 v->cos,   v->key,      v->inertia, v->used,   v->anim_from,  v->anim_to};
	memcpy(out, in, sizeof in);
}

// Chain j into the scratch chain (its shape arrays stay as init left them).
static spring_chain2d *gather(const spring_chain2d_group *g, const group_layout *l, int j)
{
	spring_chain2d *c = scratch(g, l);
	spring_chain2d_view v;
	*c = heads(g, l)[j];
	c->time = g->time;
	spring_chain2d_lane_lane lane;
	for (int k = 0; k < SPRING_CHAIN2D_LN_COUNT; k++) {
		lane.v[k] = *grow(g, l, k, j);
	}
	spring_chain2d_internal_lane_store(c, &lane);
	spring_chain2d_internal_view(c, &v);
	const int n = g->segment_count;
	float *dst[CHAIN_ARRAYS];
	chain_views(&v, dst);
	for (int a = 0; a < CHAIN_ARRAYS; a++) {
		const float *from = garr(g, l, chain_arrays[a]);
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
		st->inv_w2 = garr(g, l, G_IW2)[k];
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
	spring_chain2d_lane_lane lane;
	spring_chain2d_internal_lane_load(c, &lane);
	for (int k = 0; k < SPRING_CHAIN2D_LN_COUNT; k++) {
		*grow(g, l, k, j) = lane.v[k];
	}
	spring_chain2d_internal_view(c, &v);
	const int n = g->segment_count;
	float *src[CHAIN_ARRAYS];
	chain_views(&v, src);
	for (int a = 0; a < CHAIN_ARRAYS; a++) {
		float *to = garr(g, l, chain_arrays[a]);
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
		garr(g, l, G_IW2)[k] = st->inv_w2;
		garr(g, l, G_PP)[k] = st->pp;
		garr(g, l, G_PV)[k] = st->pv;
		garr(g, l, G_VP)[k] = st->vp;
		garr(g, l, G_VV)[k] = st->vv;
	}
	for (int i = 0; i < n && g->chain_count > 1; i++) {
		if (gsame(g, l)[i] && !same_settings(g, l, i, j, j == 0 ? 1 : 0)) {
			gsame(g, l)[i] = 0;
		}
	}
}

// The padding lanes [count, stride): an inert segment, never awake, standing where a step would
// leave it: no field (no forces, inertia or pivot motion), root angle 0, each segment at its
// target (the parent's angle plus its rest angle, wrapped as a step wraps it), at rest, its sine
// and cosine kept. A step of any settings gives these lanes back the same angles (the error is 0,
// so the spring adds 0) and a zero velocity, so a block whose chains are all awake steps its
// padding with them instead of keeping it by selects (frame_<suffix>, chain2d_group_frame.h), and nothing in it drifts
// (no subnormals, no slow paths).
static void fill_padding(spring_chain2d_group *g, const group_layout *l)
{
	spring_chain2d_view shape;
	spring_chain2d_internal_view(scratch(g, l), &shape);
	for (int j = g->chain_count; j < g->stride; j++) {
		float parent = 0.0f; // the lane's root angle (its row is zero)
		for (int i = 0; i < g->segment_count; i++) {
			size_t k = (size_t)i * (size_t)g->stride + (size_t)j;
			const float x = spring_chain2d_lane_wrap(parent + shape.rest[i]);
			float s, c;
			spring_chain2d_lane_sincos(x, &s, &c);
			garr(g, l, G_W2)[k] = 1.0f;
			garr(g, l, G_IW2)[k] = 1.0f;
			garr(g, l, G_PP)[k] = 1.0f;
			garr(g, l, G_VV)[k] = 1.0f;
			garr(g, l, G_ANGLE)[k] = x;
			garr(g, l, G_VELOCITY)[k] = 0.0f;
			garr(g, l, G_PREV)[k] = x;
			garr(g, l, G_TARGET)[k] = x;
			garr(g, l, G_DEFLECTION)[k] = 0.0f;
			garr(g, l, G_KEY)[k] = x;
			garr(g, l, G_SIN)[k] = s;
			garr(g, l, G_COS)[k] = c;
			parent = x;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Creation

// The clock's most steps a frame for a valid description.
static int group_max_steps(const spring_chain2d_group_desc *desc)
{
	return desc->chain->max_steps == 0 ? SPRING_CLOCK_DEFAULT_MAX_STEPS : desc->chain->max_steps;
}

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
	if (!layout_of(desc->chain_count, desc->chain->segment_count, group_max_steps(desc), &l)) {
		return set_error(error, SPRING_ERROR_OUT_OF_RANGE, "chain_count",
		                 "%d chains of %d segments need more than %zu bytes, the most one block can hold here", desc->chain_count,
		                 desc->chain->segment_count, SPRING_INTERNAL_MAX_BLOCK_BYTES);
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
	layout_of(desc->chain_count, desc->chain->segment_count, group_max_steps(desc), &l);
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
	layout_of(count, n, group_max_steps(desc), &l);
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
	g->time = c->time;
	for (int j = 0; j < count; j++) {
		if (desc->roots) {
			r = spring_chain2d_reset(c, desc->roots[j]); // = made at this root
			SPRING_ASSERT(r == SPRING_OK);
		}
		scatter(g, &l, j);
	}
	fill_padding(g, &l);
	for (int i = 0; i < n; i++) {
		bool same = true;
		for (int j = 1; j < count && same; j++) {
			same = same_settings(g, &l, i, j, 0);
		}
		gsame(g, &l)[i] = same;
	}
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
// A frame: its checks and its timeline here, its steps in the kernels (chain2d_group_frame.h)

// The segments' lengths (the scratch chain's shape).
static const float *group_lengths(const spring_chain2d_group *g, const group_layout *l)
{
	spring_chain2d_view shape;
	spring_chain2d_internal_view(scratch(g, l), &shape);
	return shape.length;
}

// The rest test of the block's chains whose step was still (the rows hold their state): the
// frame's group_rest_fn, on the scratch chain.
static void frame_try_rest(const group_frame *fr, size_t b, size_t lanes, const int32_t *still)
{
	for (size_t q = 0; q < lanes; q++) {
		if (still[q]) {
			const int j = (int)(b + q);
			spring_chain2d_internal_try_rest(gather(fr->g, fr->l, j));
			scatter(fr->g, fr->l, j);
		}
	}
}

// The timelines a and b are the same bits (field by field: not the struct's padding).
static bool same_timeline(const spring_chain2d_timeline *a, const spring_chain2d_timeline *b)
{
	return memcmp(a->gap, b->gap, sizeof a->gap) == 0 && a->count == b->count &&
	       memcmp(&a->elapsed, &b->elapsed, sizeof a->elapsed) == 0 &&
	       memcmp(&a->pivot_time, &b->pivot_time, sizeof a->pivot_time) == 0 && memcmp(a->node, b->node, sizeof a->node) == 0 &&
	       memcmp(a->recip, b->recip, sizeof a->recip) == 0;
}

// The timeline's values of the frame and of each step (the same for every chain) into the bases
// and fractions, the clock advanced by `steps` for frame_dt: taken from the last frame when it
// read the same (group_memo), otherwise computed and remembered.
static void frame_timeline(spring_chain2d_group *g, const group_layout *l, float frame_dt, int steps)
{
	group_memo *m = gmemo(g, l);
	const spring_clock *clock = &g->clock;
	if (m->valid && m->steps == steps && m->carried_ticks == clock->carried_ticks && m->max_steps == clock->max_steps &&
	    memcmp(&m->frame_dt, &frame_dt, sizeof frame_dt) == 0 && memcmp(&m->step, &clock->step, sizeof m->step) == 0 &&
	    same_timeline(&m->before, &g->time)) {
		g->time = m->after;
		return;
	}
	m->valid = 1;
	m->steps = steps;
	m->carried_ticks = clock->carried_ticks;
	m->max_steps = clock->max_steps;
	m->frame_dt = frame_dt;
	m->step = clock->step;
	m->before = g->time;
	spring_chain2d_basis *bases = gbases(g, l);
	float *fractions = gfractions(g, l);
	spring_chain2d_basis frame;
	const double begin = spring_chain2d_internal_timeline_advance(&g->time, (double)frame_dt, steps, clock, &frame);
	for (int k = 0; k < steps; k++) {
		fractions[k] = spring_clock_substep_fraction(clock, k, steps);
		bases[k] = frame;
		spring_chain2d_internal_timeline_step(&g->time, begin + (double)fractions[k] * (double)frame_dt, &bases[k]);
	}
	if (steps == 0) {
		bases[0] = frame;
	}
	m->after = g->time;
}

spring_result spring_chain2d_group_update(spring_chain2d_group *group, const spring_xform2 *roots, float frame_dt)
{
	if (!group || !roots) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const int count = group->chain_count;
	const group_layout l = layout(group);
	float *targets = gtargets(group, &l); // scratch: written while checking (a refusal leaves no trace)
	const size_t stride = (size_t)group->stride;
	for (int j = 0; j < count; j++) {
		spring_result r = spring_chain2d_internal_check_root(roots[j]);
		if (r != SPRING_OK) {
			return r;
		}
		const spring_xform2 to = spring_chain2d_internal_clean_root(roots[j]);
		targets[j] = to.position.x;
		targets[stride + (size_t)j] = to.position.y;
		targets[2u * stride + (size_t)j] = to.angle;
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
	spring_chain2d_basis *bases = gbases(group, &l);
	float *fractions = gfractions(group, &l);
	frame_timeline(group, &l, frame_dt, steps);
	spring_chain2d_view shape;
	spring_chain2d_internal_view(scratch(group, &l), &shape); // lengths, rest angles, limits
	const int n = group->segment_count;
	float k15[SPRING_CHAIN_MAX_BONES], limit[SPRING_CHAIN_MAX_BONES];
	for (int i = 0; i < n; i++) {
		k15[i] = spring_chain2d_k15(shape.length[i]);
		limit[i] = shape.steppers[i].limit;
	}
	group_frame fr = {.g = group,
	                  .l = &l,
	                  .try_rest = frame_try_rest,
	                  .count = count,
	                  .n = n,
	                  .stride = group->stride,
	                  .steps = steps,
	                  .angle = garr(group, &l, G_ANGLE),
	                  .velocity = garr(group, &l, G_VELOCITY),
	                  .prev = garr(group, &l, G_PREV),
	                  .target = garr(group, &l, G_TARGET),
	                  .deflection = garr(group, &l, G_DEFLECTION),
	                  .sin = garr(group, &l, G_SIN),
	                  .cos = garr(group, &l, G_COS),
	                  .key = garr(group, &l, G_KEY),
	                  .inertia = garr(group, &l, G_INERTIA),
	                  .w2 = garr(group, &l, G_W2),
	                  .iw2 = garr(group, &l, G_IW2),
	                  .pp = garr(group, &l, G_PP),
	                  .pv = garr(group, &l, G_PV),
	                  .vp = garr(group, &l, G_VP),
	                  .vv = garr(group, &l, G_VV),
	                  .same = gsame(group, &l),
	                  .animated = group->animated,
	                  .anim_to = garr(group, &l, G_ANIM_TO),
	                  .anim_from = garr(group, &l, G_ANIM_FROM),
	                  .used = garr(group, &l, G_OFFSET),
	                  .step_offsets = gstep_offsets(group, &l),
	                  .rows = grows(group, &l),
	                  .targets = targets,
	                  .k15 = k15,
	                  .rest = shape.rest,
	                  .limit = limit,
	                  .bases = bases,
	                  .fractions = fractions};
	spring_chain2d_internal_basis_settings(scratch(group, &l), &fr.settings);
	spring_chain2d_internal_group_frame(&fr);
	// Every offset back to 0 (the animations cleared, their last frames run): the frames run
	// without animation again.
	if (group->animated && no_offsets(group, &l, base_of(group))) {
		group->animated = 0;
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
// The per-chain calls; from CALL_SET_PARAMS on, settings, which `chain` -1 gives every chain.
typedef enum chain_call_kind {
	CALL_RESET,
	CALL_TELEPORT,
	CALL_SET_PARAMS,
	CALL_SET_INERTIA,
	CALL_SET_FORCES,
	CALL_SET_ANIMATION
} chain_call_kind;

typedef struct chain_call {
	chain_call_kind kind;
	int segment;
	spring_xform2 root;
	spring_params params;
	float inertia;
	spring_vec2 gravity, wind;
	const float *offsets;
	int count;
} chain_call;

// Runs `call` on a copy of chain `chain` and keeps the result when the call succeeds.
static spring_result call_on_copy(spring_chain2d_group *group, int chain, const chain_call *call)
{
	if (group && chain == -1 && call->kind >= CALL_SET_PARAMS) {
		// A setting for every chain: the first one checks (a refused call changes nothing), the
		// rest take the same setting and cannot refuse it.
		spring_result r = call_on_copy(group, 0, call);
		for (int c = 1; r == SPRING_OK && c < group->chain_count; c++) {
			r = call_on_copy(group, c, call);
		}
		return r;
	}
	if (!valid_chain(group, chain)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const group_layout l = layout(group);
	// set_animation reads nothing of the chain but its segment count and writes the whole of its
	// anim_to (or refuses): it runs on the scratch chain as it is, and only anim_to comes back. A
	// whole copy each way cost animated frames more than their steps (every chain's offsets set
	// every frame: 57% of the time).
	const bool offsets_only = call->kind == CALL_SET_ANIMATION;
	spring_chain2d *c = offsets_only ? scratch(group, &l) : gather(group, &l, chain);
	spring_result r = SPRING_ERROR_INVALID_ARGUMENT;
	switch (call->kind) {
	case CALL_RESET: r = spring_chain2d_reset(c, call->root); break;
	case CALL_TELEPORT: r = spring_chain2d_teleport(c, call->root); break;
	case CALL_SET_PARAMS: r = spring_chain2d_set_params(c, call->segment, call->params); break;
	case CALL_SET_INERTIA: r = spring_chain2d_set_inertia(c, call->segment, call->inertia); break;
	case CALL_SET_FORCES: r = spring_chain2d_set_forces(c, call->gravity, call->wind); break;
	case CALL_SET_ANIMATION: r = spring_chain2d_set_animation(c, call->offsets, call->count); break;
	}
	if (r == SPRING_OK && offsets_only) {
		spring_chain2d_view v;
		spring_chain2d_internal_view(c, &v);
		float *to = garr(group, &l, G_ANIM_TO);
		for (int i = 0; i < group->segment_count; i++) {
			to[(size_t)i * (size_t)group->stride + (size_t)chain] = v.anim_to[i];
		}
	} else if (r == SPRING_OK) {
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

spring_result spring_chain2d_group_set_animation(spring_chain2d_group *group, int chain, const float *local_offsets, int count)
{
	spring_result r = call_on_copy(group, chain,
	                               &(chain_call){.kind = CALL_SET_ANIMATION, .offsets = local_offsets, .count = count});
	for (int i = 0; r == SPRING_OK && local_offsets && i < count && !group->animated; i++) {
		group->animated = lanes_scalar_bits(local_offsets[i]) != 0; // a +0 offset changes nothing
	}
	return r;
}

bool spring_chain2d_group_is_resting(const spring_chain2d_group *group, int chain)
{
	if (!valid_chain(group, chain)) {
		return false;
	}
	const group_layout l = layout(group);
	int32_t mask;
	memcpy(&mask, grow(group, &l, SPRING_CHAIN2D_LN_RESTING, chain), sizeof mask);
	return mask != 0;
}

// ---------------------------------------------------------------------------------------------
// Queries

const spring_chain2d *spring_chain2d_internal_group_chain(const spring_chain2d_group *group, int chain)
{
	if (!valid_chain(group, chain)) {
		return NULL;
	}
	const group_layout l = layout(group);
	return gather(group, &l, chain);
}

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
	const spring_xform2 root = {{*grow(g, l, SPRING_CHAIN2D_LN_RX, j), *grow(g, l, SPRING_CHAIN2D_LN_RY, j)},
	                            *grow(g, l, SPRING_CHAIN2D_LN_RA, j),
	                            {1.0f, 1.0f}};
	const spring_xform2 prev_root = {{*grow(g, l, SPRING_CHAIN2D_LN_QX, j), *grow(g, l, SPRING_CHAIN2D_LN_QY, j)},
	                                 *grow(g, l, SPRING_CHAIN2D_LN_QA, j),
	                                 {1.0f, 1.0f}};
	const spring_chain2d_pose_src src = {garr(g, l, G_PREV) + j, garr(g, l, G_ANGLE) + j, garr(g, l, G_SIN) + j,
	                                     garr(g, l, G_COS) + j,  garr(g, l, G_KEY) + j,   (ptrdiff_t)g->stride,
	                                     shape.length,           g->segment_count};
	spring_chain2d_pose_walk(&src, prev_root, root, g->clock.alpha, joints, local_angles);
}

spring_result spring_chain2d_group_get_pose(const spring_chain2d_group *group, int chain, spring_xform2 *joints,
                                            float *local_angles, int capacity)
{
	if (!valid_chain(group, chain) || (!joints && !local_angles)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, joints ? group->segment_count + 1 : group->segment_count);
	if (room != SPRING_OK) {
		return room;
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
	spring_result room = spring_internal_room(capacity, (int64_t)group->chain_count * per);
	if (room != SPRING_OK) {
		return room;
	}
	const group_layout l = layout(group);
	const group_pose r = {group->segment_count,     group->stride,
	                      group->chain_count,       garr(group, &l, G_PREV),
	                      garr(group, &l, G_ANGLE), garr(group, &l, G_SIN),
	                      garr(group, &l, G_COS),   garr(group, &l, G_KEY),
	                      grows(group, &l),         group_lengths(group, &l),
	                      group->clock.alpha,       joints};
	spring_chain2d_internal_group_poses(&r);
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Snapshots: the struct, the headers and the arrays (not the backup and scratch after them)

static uint64_t group_shape(const spring_chain2d_group *g, const group_layout *l)
{
	// The layout (rows by blocks, animated offsets): older blobs are refused.
	static const char tag[] = "chain2d_group, rows by blocks, animated offsets";
	uint64_t h = spring_hash(SPRING_HASH_INIT, tag, sizeof tag);
	h = spring_hash(h, &g->chain_count, sizeof g->chain_count);
	h = spring_hash(h, &g->segment_count, sizeof g->segment_count);
	h = spring_hash(h, &g->clock.max_steps, sizeof g->clock.max_steps); // the scratch's size after the kept bytes
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
	return spring_internal_snapshot(group, l.kept, offsetof(spring_chain2d_group, owner), SPRING_SNAPSHOT_CHAIN2D_GROUP,
	                                group_shape(group, &l), blob, size);
}

// A snapshot's group (`image`, any alignment): its own structure and clock those of `live`, every
// chain one spring_chain2d_internal_check_image accepts (gathered from the image into the scratch
// chain, which is scratch: every update writes it before reading it), the padding lanes as the
// live group's (inert), the rest flags masks, the same-settings flags true only where every chain
// has the same settings.
static spring_result group_bad(spring_error *error, spring_result r, int chain, const char *field, const char *why)
{
	return spring_internal_snapshot_bad(error, r, "chain2d_group", chain >= 0 ? SPRING_ELEMENT_CHAIN : SPRING_ELEMENT_NONE, chain,
	                                    field, why);
}

// Offsets in the image of chain j's entry of array `which` at segment i, and of its row `row`.
static size_t image_arr(const spring_chain2d_group *g, const group_layout *l, int which, int i, int j)
{
	return arr_offset(g, l, which) + ((size_t)i * (size_t)g->stride + (size_t)j) * sizeof(float);
}

static size_t image_row(const group_layout *l, int row, int j)
{
	return l->rows + (row_block((size_t)j) + (size_t)row * LANE_PAD) * sizeof(float);
}

// gather() from an image: chain j of `image` into the chain `c` (the scratch chain).
static void gather_image(const spring_chain2d_group *g, const group_layout *l, const unsigned char *image, int j,
                         spring_chain2d *c)
{
	memcpy(c, image + l->heads + (size_t)j * sizeof(spring_chain2d), sizeof *c);
	memcpy(&c->time, image + offsetof(spring_chain2d_group, time), sizeof c->time);
	spring_chain2d_lane_lane lane;
	for (int k = 0; k < SPRING_CHAIN2D_LN_COUNT; k++) {
		lane.v[k] = spring_internal_load_float(image, image_row(l, k, j));
	}
	spring_chain2d_internal_lane_store(c, &lane);
	spring_chain2d_view v;
	spring_chain2d_internal_view(c, &v);
	float *dst[CHAIN_ARRAYS];
	chain_views(&v, dst);
	for (int i = 0; i < g->segment_count; i++) {
		for (int a = 0; a < CHAIN_ARRAYS; a++) {
			dst[a][i] = spring_internal_load_float(image, image_arr(g, l, chain_arrays[a], i, j));
		}
		size_t k = (size_t)i * (size_t)g->stride + (size_t)j;
		memcpy(&v.params[i], image + l->params + k * sizeof(spring_params), sizeof(spring_params));
		memcpy(&v.own_params[i], image + l->own + k * sizeof(spring_params), sizeof(spring_params));
		spring_chain2d_lane_step_in *st = &v.steppers[i];
		st->w2 = spring_internal_load_float(image, image_arr(g, l, G_W2, i, j));
		st->inv_w2 = spring_internal_load_float(image, image_arr(g, l, G_IW2, i, j));
		st->pp = spring_internal_load_float(image, image_arr(g, l, G_PP, i, j));
		st->pv = spring_internal_load_float(image, image_arr(g, l, G_PV, i, j));
		st->vp = spring_internal_load_float(image, image_arr(g, l, G_VP, i, j));
		st->vv = spring_internal_load_float(image, image_arr(g, l, G_VV, i, j));
	}
}

// The padding lanes of the image: exactly the live group's (the kernels step them with the chains).
static bool padding_inert(const spring_chain2d_group *live, const group_layout *l, const unsigned char *image)
{
	const unsigned char *base = base_of(live);
	for (int j = live->chain_count; j < live->stride; j++) {
		for (int k = 0; k < SPRING_CHAIN2D_LN_COUNT; k++) {
			if (memcmp(image + image_row(l, k, j), base + image_row(l, k, j), sizeof(float)) != 0) {
				return false;
			}
		}
		for (int i = 0; i < live->segment_count; i++) {
			for (int a = 0; a < G_FLOAT_COUNT; a++) {
				if (memcmp(image + image_arr(live, l, a, i, j), base + image_arr(live, l, a, i, j), sizeof(float)) != 0) {
					return false;
				}
			}
			size_t k = ((size_t)i * (size_t)live->stride + (size_t)j) * sizeof(spring_params);
			if (memcmp(image + l->params + k, base + l->params + k, sizeof(spring_params)) != 0 ||
			    memcmp(image + l->own + k, base + l->own + k, sizeof(spring_params)) != 0) {
				return false;
			}
		}
	}
	return true;
}

static spring_result group_check_image(spring_chain2d_group *live, const group_layout *l, const unsigned char *image,
                                       spring_error *error)
{
	spring_chain2d_group h;
	memcpy(&h, image, sizeof h);
	if (h.chain_count != live->chain_count || h.segment_count != live->segment_count || h.stride != live->stride) {
		return group_bad(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "chain_count", "or segment_count differs from this group's");
	}
	const char *why = spring_internal_clock_check(&live->clock, &h.clock);
	if (why) {
		return group_bad(error, SPRING_ERROR_OUT_OF_RANGE, -1, "clock", why);
	}
	// A frame of a group whose flag is clear reads no offset: it is clear only where none is set.
	if ((h.animated != 0 && h.animated != 1) || (h.animated == 0 && !no_offsets(live, l, image))) {
		return group_bad(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "animated",
		                 "must be 0 or 1, and 1 where a chain has an animated offset");
	}
	if (!padding_inert(live, l, image)) {
		return group_bad(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "padding", "(the lanes past the last chain) is not inert");
	}
	spring_chain2d *c = scratch(live, l);
	spring_chain2d_view shape;
	spring_chain2d_internal_view(c, &shape);
	for (int j = 0; j < live->chain_count; j++) {
		int32_t mask;
		memcpy(&mask, image + image_row(l, SPRING_CHAIN2D_LN_RESTING, j), sizeof mask);
		if ((mask != 0 && mask != -1) ||
		    image[l->heads + (size_t)j * sizeof(spring_chain2d) + offsetof(spring_chain2d, resting)] > 1u) {
			return group_bad(error, SPRING_ERROR_INVALID_ARGUMENT, j, "resting", "must be 0 or 1 (all bits or none)");
		}
		int segments; // the head's count decides where gather_image writes: checked first
		memcpy(&segments, image + l->heads + (size_t)j * sizeof(spring_chain2d) + offsetof(spring_chain2d, segment_count),
		       sizeof segments);
		if (segments != live->segment_count) {
			return group_bad(error, SPRING_ERROR_INVALID_ARGUMENT, j, "segment_count", "differs from this group's");
		}
		gather_image(live, l, image, j, c);
		spring_error inner;
		spring_result r = spring_chain2d_internal_check_image(&heads(live, l)[j], shape.length, shape.rest,
		                                                      (const unsigned char *)c, error ? &inner : NULL);
		if (r != SPRING_OK) {
			return error ? spring_internal_error_nest(error, &inner, "chain2d_group", SPRING_ELEMENT_CHAIN, j) : r;
		}
	}
	for (int i = 0; i < live->segment_count; i++) {
		int32_t same;
		memcpy(&same, image + l->same + (size_t)i * sizeof same, sizeof same);
		bool ok = same == 0 || same == 1;
		for (int j = 1; j < live->chain_count && ok && same; j++) {
			for (int a = G_INERTIA; a <= G_VV && ok; a++) {
				ok = memcmp(image + image_arr(live, l, a, i, j), image + image_arr(live, l, a, i, 0), sizeof(float)) == 0;
			}
		}
		if (!ok) {
			return group_bad(error, SPRING_ERROR_INVALID_ARGUMENT, -1, "same",
			                 "(a segment's shared-settings flag) is set where the chains' settings differ");
		}
	}
	return SPRING_OK;
}

spring_result spring_chain2d_group_restore(spring_chain2d_group *group, const void *blob, size_t size, spring_error *error)
{
	if (!group) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain2d_group", SPRING_ELEMENT_NONE, -1, "group",
		                               "the group is NULL");
	}
	const group_layout l = layout(group);
	const unsigned char *body;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_CHAIN2D_GROUP, group_shape(group, &l), l.kept,
	                                                  "chain2d_group", error, &body);
	if (r == SPRING_OK) {
		r = group_check_image(group, &l, body, error);
	}
	if (r == SPRING_OK) {
		spring_internal_snapshot_install(group, l.kept, offsetof(spring_chain2d_group, owner), body);
		fill_padding(group, &l);
	}
	return r;
}
