// SPDX-License-Identifier: MIT
// spring_chain2d_group: many angle chains of one shape, each segment's state stored across the
// chains (segment i of chain j at [i * stride + j], stride the chain count rounded up to 16), a
// frame stepped for a vector of chains at a time.
//
// Every chain is a spring_chain2d without animation: the per-step arithmetic is the very code of
// the single chain (chain2d_kernel.h: K(knot) and K(begin) for the pivot's path and the roots,
// K(segment) for each segment, the pose walk), instantiated here for 4, 8 and 16 lanes and chosen
// at run time with the batch springs' path; the pivot paths' timeline (the knots' times) is one
// for the group, as its chains share the frame times. The rare calls (teleport, reset,
// parameters, inertia, forces, the rest test) copy the chain into a scratch spring_chain2d, call
// the single chain's function and copy it back. So the results are the single chain's bit for
// bit, and each rule lives in chain2d.c and chain2d_kernel.h once.
//
// A frame runs in chunks of GROUP_CHUNK vectors of chains: each chunk's chain state is used where
// it lies (16 lanes; narrower vectors copy it in and out once), and every step walks the segments
// down the chains one segment at a time over the chunk's vectors (their walks are independent work
// the processor overlaps). A chunk of one vector (a small group) takes two steps with no rest test
// between them down together a segment apart (step k + 1's segment i - 1 beside step k's segment
// i), so it too has two walks in flight. A segment's settings are read once for all chains while every chain has the
// same bits; poses go out by 16 x 16 transposes on AVX-512. The padding lanes of a partial vector
// stand still under a step (fill_padding), so they need no selects; the timeline's values of a
// frame are the last frame's when it read the same (group_memo).
//
// Memory: one block. The struct (clock, timeline), the chains' headers (cold settings, a
// spring_chain2d struct each), the arrays across chains (state, kept sin and cos, settings), the
// chains' rows (their state between steps: roots, velocity, path, rest; by blocks of 16 chains),
// the parameters and the segments' same-settings flags; then, not in snapshots, the timeline's
// values of each step and what they were computed from (group_memo), the frame's target roots and
// the scratch chain. Arrays are addressed by offsets, never stored pointers, so a group in caller
// memory copies byte for byte. Nothing is copied aside per update: every input is checked before
// anything changes and a step cannot fail.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/chain.h"

#include "chain2d_internal.h"
#include "simd_internal.h"
#include "spring_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Rows of LANE_PAD floats: every row (one segment across the chains, or one value per chain) is
// padded to a whole number of the widest vectors, so the kernels never take a partial vector. The
// padding lanes hold an inert segment (w2 1, identity transition), never wake and stand still
// under a step (fill_padding).
#define LANE_PAD 16
// Blocks (vectors of chains) a frame steps together, segment by segment (see GROUP_FRAME).
#define GROUP_CHUNK 8
// The most blocks with chains (not padding only) a chunk may have for its frame to run two steps at
// a time, a segment apart (see GROUP_FRAME): a lone block has nothing else to overlap its walk with (about 1.1x on W2 at 10
// chains), while a chunk of several blocks already overlaps theirs, and pairing them measured 2-3%
// slower at 1,000 and 10,000 chains (more state in flight).
#define GROUP_PAIR_MAX 1

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
	G_STATE_COUNT,
	G_INERTIA = G_STATE_COUNT, // the per-chain settings
	G_W2,
	G_IW2,
	G_PP,
	G_PV,
	G_VP,
	G_VV,
	G_FLOAT_COUNT
};

// Per-chain rows (one float per chain, stored by blocks: see row_block): the lanes' state
// (SPRING_CHAIN2D_LN_*).
enum { R_ROW_COUNT = SPRING_CHAIN2D_LN_COUNT };

struct spring_chain2d_group {
	spring_clock clock;           // one clock: every chain is given the same frame times
	spring_chain2d_timeline time; // and so one timeline of the pivots' paths
	int chain_count, segment_count;
	int stride;                  // floats per row: chain_count rounded up to LANE_PAD
	spring_internal_owner owner; // set by create; zero for caller memory
};

// ---------------------------------------------------------------------------------------------
// Layout

typedef struct group_layout {
	size_t heads, floats, row_bytes, rows, params, own, same; // offsets from the struct
	size_t kept;                                              // bytes in snapshots
	size_t bases, memo, targets, scratch, total;
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

// Array `which`: segment i of chain j at [i * stride + j].
static float *garr(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return (float *)(void *)(base_of(g) + l->floats + (size_t)which * (size_t)g->segment_count * l->row_bytes);
}

// The chains' rows, by blocks of LANE_PAD chains: a block's R_ROW_COUNT rows of LANE_PAD floats
// are contiguous, so a 16-lane kernel steps a block's lane state where it lies (K(lane) is one
// row after the other).
static float *grows(const spring_chain2d_group *g, const group_layout *l)
{
	return (float *)(void *)(base_of(g) + l->rows);
}

// Where chain b's entry of row 0 lies among the rows (its other rows follow LANE_PAD floats apart).
static inline size_t row_block(size_t b)
{
	return b / LANE_PAD * (size_t)(R_ROW_COUNT * LANE_PAD) + b % LANE_PAD;
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
	float *dst[] = {v.angle, v.velocity, v.prev, v.target, v.deflection, v.sin, v.cos, v.key, v.inertia};
	const int src[] = {G_ANGLE, G_VELOCITY, G_PREV, G_TARGET, G_DEFLECTION, G_SIN, G_COS, G_KEY, G_INERTIA};
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
	const float *src[] = {v.angle, v.velocity, v.prev, v.target, v.deflection, v.sin, v.cos, v.key, v.inertia};
	const int dst[] = {G_ANGLE, G_VELOCITY, G_PREV, G_TARGET, G_DEFLECTION, G_SIN, G_COS, G_KEY, G_INERTIA};
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
// padding with them instead of keeping it by selects (GROUP_FRAME), and nothing in it drifts
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
// The segment kernels: every segment of every chain, one vector of chains at a time

// What a frame's kernels read: segment i of chain j at [i * stride + j] of each array, the chains'
// rows at [row * stride + j], the shape at [i]; the timeline's values of each step.
typedef struct group_frame {
	spring_chain2d_group *g;
	const group_layout *l;
	int n, stride, steps;
	float *angle, *velocity, *prev, *target, *deflection, *sin, *cos, *key;
	const float *inertia, *w2, *iw2, *pp, *pv, *vp, *vv;
	const int32_t *same;             // per segment: the settings above are chain 0's in every chain
	float *rows;                     // the chains' rows, R_ROW_COUNT of them
	const float *targets;            // the frame's roots: rows of x, y, angle (stride floats each)
	const float *k15, *rest, *limit; // per segment
	const spring_chain2d_basis *bases;
	const float *fractions;
	spring_chain2d_lane_basis settings; // step, inv_step, held_max, max_speed, turns
} group_frame;

static void frame_try_rest(const group_frame *fr, size_t b, size_t lanes, const int32_t *still);

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
			/* A block whose chains are all awake (its padding stands: fill_padding) with no still */                           \
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
				frame_try_rest(shared, b, lanes, still_bits);                                                                   \
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
		return ILT(index + (int32_t)b, (int32_t)r->g->chain_count);                        \
	}

// What get_poses reads: the angles' rows (prev, angle, kept sin, cos, key), the chains' rows,
// the lengths, the clock's alpha; the joints it writes (n + 1 per chain).
typedef struct group_pose {
	int n, stride, count;
	const float *prev, *angle, *sin, *cos, *key, *rows, *length;
	float alpha;
	spring_xform2 *joints;
} group_pose;

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
#include <wasm_simd128.h>
#define SQRT(x) ((T)wasm_f32x4_sqrt((v128_t)(x)))
#define ANY(m) wasm_v128_any_true((v128_t)(m))
#define MINV(a, b) ((T)wasm_f32x4_pmin((v128_t)(b), (v128_t)(a))) // a < b ? a : b
#define MAXV(a, b) ((T)wasm_f32x4_pmax((v128_t)(b), (v128_t)(a))) // a > b ? a : b
#elif SPRING_SIMD_NEON
#include <arm_neon.h>
#define SQRT(x) ((T)vsqrtq_f32((float32x4_t)(x)))
#define ANY(m) (vmaxvq_u32((uint32x4_t)(m)) != 0)
// SSE's minps/maxps exactly (the second operand when either is NaN), not NEON's fmin/fmax.
#define MINV(a, b) SEL((a) < (b), (a), (b))
#define MAXV(a, b) SEL((a) > (b), (a), (b))
#else
#include <immintrin.h>
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

// A frame of every chain.
static void run_frame(const group_frame *r)
{
	kernels_in_use()->frame(r);
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

// The segments' lengths (the scratch chain's shape).
static const float *group_lengths(const spring_chain2d_group *g, const group_layout *l)
{
	spring_chain2d_view shape;
	spring_chain2d_internal_view(scratch(g, l), &shape);
	return shape.length;
}

// Every chain's pose.
static void run_poses(const group_pose *r)
{
	kernels_in_use()->poses(r);
}

// The rest test of the block's chains whose step was still (the rows hold their state).
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
	                  .rows = grows(group, &l),
	                  .targets = targets,
	                  .k15 = k15,
	                  .rest = shape.rest,
	                  .limit = limit,
	                  .bases = bases,
	                  .fractions = fractions};
	spring_chain2d_internal_basis_settings(scratch(group, &l), &fr.settings);
	run_frame(&fr);
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
	int32_t mask;
	memcpy(&mask, grow(group, &l, SPRING_CHAIN2D_LN_RESTING, chain), sizeof mask);
	return mask != 0;
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
	const group_pose r = {group->segment_count,     group->stride,
	                      group->chain_count,       garr(group, &l, G_PREV),
	                      garr(group, &l, G_ANGLE), garr(group, &l, G_SIN),
	                      garr(group, &l, G_COS),   garr(group, &l, G_KEY),
	                      grows(group, &l),         group_lengths(group, &l),
	                      group->clock.alpha,       joints};
	run_poses(&r);
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Snapshots: the struct, the headers and the arrays (not the backup and scratch after them)

static uint64_t group_shape(const spring_chain2d_group *g, const group_layout *l)
{
	static const char tag[] = "chain2d_group, rows by blocks"; // the rows' layout: older blobs are refused
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
	return l->floats + (size_t)which * (size_t)g->segment_count * l->row_bytes +
	       ((size_t)i * (size_t)g->stride + (size_t)j) * sizeof(float);
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
	float *dst[] = {v.angle, v.velocity, v.prev, v.target, v.deflection, v.sin, v.cos, v.key, v.inertia};
	const int src[] = {G_ANGLE, G_VELOCITY, G_PREV, G_TARGET, G_DEFLECTION, G_SIN, G_COS, G_KEY, G_INERTIA};
	for (int i = 0; i < g->segment_count; i++) {
		for (int a = 0; a < (int)(sizeof src / sizeof src[0]); a++) {
			dst[a][i] = spring_internal_load_float(image, image_arr(g, l, src[a], i, j));
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
