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

#include "chain2d_internal.h"
#include "spring_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// Float arrays across chains (n * count entries each). The state comes first: one copy backs it up.
enum { G_ANGLE, G_VELOCITY, G_PREV, G_TARGET, G_STATE_COUNT, G_INERTIA = G_STATE_COUNT, G_FLOAT_COUNT };

struct spring_chain2d_group {
	spring_clock clock; // one clock: every chain is given the same frame times
	int chain_count, segment_count;
	spring_internal_owner owner; // set by create; zero for caller memory
};

// Per chain, the inputs of one update (scratch, not in snapshots).
typedef struct group_lane {
	spring_xform2 from, to; // the roots the frame interpolates between
	spring_chain2d_step_input in;
	double begin;         // s: the frame's start on the pivot's path (relative to its newest knot)
	double turn;          // carried this step
	float parent;         // this step's simulated angle of the segment above
	unsigned char asleep; // sleeps through the whole update (as spring_chain2d_update skips it)
	unsigned char awake;  // steps in the current step
	unsigned char still;  // the rest test follows the current step
} group_lane;

// ---------------------------------------------------------------------------------------------
// Layout

typedef struct group_layout {
	size_t heads, floats, float_stride, params, own, steppers; // offsets from the struct
	size_t kept;                                               // bytes in snapshots
	size_t trig, backup_heads, backup_state, lanes, fields, forces, scratch, total;
} group_layout;

static size_t align16(size_t x)
{
	return spring_internal_align16(x);
}

// The block of `count` chains of n segments; false when it does not fit a size_t.
static bool layout_of(int count, int n, group_layout *l)
{
	size_t chain_bytes = spring_chain2d_internal_block_size(n);
	*l = (group_layout){0};
	uint64_t cells = (uint64_t)count * (uint64_t)n;
	if (cells > (uint64_t)(SIZE_MAX / 256u)) {
		return false;
	}
	size_t cn = (size_t)cells;
	size_t off = align16(sizeof(spring_chain2d_group));
	l->heads = off;
	off += align16((size_t)count * sizeof(spring_chain2d));
	l->floats = off;
	l->float_stride = align16(cn * sizeof(float));
	off += (size_t)G_FLOAT_COUNT * l->float_stride;
	l->params = off;
	off += align16(cn * sizeof(spring_params));
	l->own = off;
	off += align16(cn * sizeof(spring_params));
	l->steppers = off;
	off += align16(cn * sizeof(spring_stepper));
	l->kept = off;
	l->trig = off; // a cache (always sin and cos of its key): in no snapshot, no backup
	off += align16(cn * sizeof(spring_chain2d_trig));
	l->backup_heads = off;
	off += align16((size_t)count * sizeof(spring_chain2d));
	l->backup_state = off;
	off += (size_t)G_STATE_COUNT * l->float_stride;
	l->lanes = off;
	off += align16((size_t)count * sizeof(group_lane));
	l->fields = off;
	off += 2u * align16(cn * sizeof(double));
	l->forces = off;
	off += 4u * align16((size_t)count * sizeof(double));
	l->scratch = off;
	off += align16(chain_bytes);
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

static float *garr(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return (float *)(void *)(base_of(g) + l->floats + (size_t)which * l->float_stride);
}

static spring_params *gparams(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_params *)(void *)(base_of(g) + l->params);
}

static spring_params *gown(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_params *)(void *)(base_of(g) + l->own);
}

static spring_stepper *gsteppers(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_stepper *)(void *)(base_of(g) + l->steppers);
}

static spring_chain2d_trig *gtrig(const spring_chain2d_group *g, const group_layout *l)
{
	return (spring_chain2d_trig *)(void *)(base_of(g) + l->trig);
}

// The fields of the running step (scratch): alpha then held, n * count each.
static double *gfield(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return (double *)(void *)(base_of(g) + l->fields + (size_t)which * ((l->forces - l->fields) / 2u));
}

// Each chain's field inputs of the running step (scratch): fx, fy, px, py, count each.
static double *gforce(const spring_chain2d_group *g, const group_layout *l, int which)
{
	return (double *)(void *)(base_of(g) + l->forces + (size_t)which * ((l->scratch - l->forces) / 4u));
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
	const int n = g->segment_count, count = g->chain_count;
	const float *angle = garr(g, l, G_ANGLE), *velocity = garr(g, l, G_VELOCITY), *prev = garr(g, l, G_PREV);
	const float *target = garr(g, l, G_TARGET), *inertia = garr(g, l, G_INERTIA);
	const spring_params *params = gparams(g, l), *own = gown(g, l);
	const spring_stepper *st = gsteppers(g, l);
	const spring_chain2d_trig *trig = gtrig(g, l);
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)i * (size_t)count + (size_t)j;
		v.trig[i] = trig[k];
		v.angle[i] = angle[k];
		v.velocity[i] = velocity[k];
		v.prev[i] = prev[k];
		v.target[i] = target[k];
		v.inertia[i] = inertia[k];
		v.params[i] = params[k];
		v.own_params[i] = own[k];
		v.steppers[i] = st[k];
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
	const int n = g->segment_count, count = g->chain_count;
	float *angle = garr(g, l, G_ANGLE), *velocity = garr(g, l, G_VELOCITY), *prev = garr(g, l, G_PREV);
	float *target = garr(g, l, G_TARGET), *inertia = garr(g, l, G_INERTIA);
	spring_params *params = gparams(g, l), *own = gown(g, l);
	spring_stepper *st = gsteppers(g, l);
	spring_chain2d_trig *trig = gtrig(g, l);
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)i * (size_t)count + (size_t)j;
		trig[k] = v.trig[i];
		angle[k] = v.angle[i];
		velocity[k] = v.velocity[i];
		prev[k] = v.prev[i];
		target[k] = v.target[i];
		inertia[k] = v.inertia[i];
		params[k] = v.params[i];
		own[k] = v.own_params[i];
		st[k] = v.steppers[i];
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

static void backup_state(spring_chain2d_group *g, const group_layout *l)
{
	unsigned char *b = base_of(g);
	memcpy(b + l->backup_heads, b + l->heads, (size_t)g->chain_count * sizeof(spring_chain2d));
	memcpy(b + l->backup_state, b + l->floats, (size_t)G_STATE_COUNT * l->float_stride);
}

static void restore_state(spring_chain2d_group *g, const group_layout *l, spring_clock clock)
{
	unsigned char *b = base_of(g);
	memcpy(b + l->heads, b + l->backup_heads, (size_t)g->chain_count * sizeof(spring_chain2d));
	memcpy(b + l->floats, b + l->backup_state, (size_t)G_STATE_COUNT * l->float_stride);
	g->clock = clock;
}

// The field of every segment of every chain (spring_chain2d_segment_field): one loop without
// branches over arrays that do not overlap, which compilers vectorise (kept out of line, where
// `restrict` spares them the overlap checks).
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
fields_pass(int n, int count, const float *restrict length, const float *restrict inertia, const float *restrict angle,
            const double *restrict fx, const double *restrict fy, const double *restrict px, const double *restrict py,
            double *restrict alpha, double *restrict held, spring_chain2d_trig *restrict trig)
{
	for (int i = 0; i < n; i++) {
		const size_t row = (size_t)i * (size_t)count;
		const float len = length[i];
		for (int j = 0; j < count; j++) {
			size_t k = row + (size_t)j;
			spring_chain2d_segment_field(fx[j], fy[j], px[j], py[j], inertia[k], len, angle[k], &alpha[k], &held[k], &trig[k]);
		}
	}
}

// One fixed step of every chain at fraction f of the frame (spring_chain2d's step_once, chain by
// chain for the roots, then segment by segment across the awake chains).
static spring_result step_all(spring_chain2d_group *g, const group_layout *l, float f, float frame_dt)
{
	const int n = g->segment_count, count = g->chain_count;
	spring_chain2d *head = heads(g, l);
	group_lane *lane = lanes(g, l);
	float *angle = garr(g, l, G_ANGLE), *velocity = garr(g, l, G_VELOCITY), *prev = garr(g, l, G_PREV);
	float *target = garr(g, l, G_TARGET);
	const float *inertia = garr(g, l, G_INERTIA);
	const spring_params *params = gparams(g, l);
	const spring_stepper *st = gsteppers(g, l);
	spring_chain2d_trig *trig = gtrig(g, l);
	spring_chain2d_view shape;
	spring_chain2d_internal_view(scratch(g, l), &shape); // lengths, rest angles, limits
	for (int j = 0; j < count; j++) {
		group_lane *ln = &lane[j];
		bool still = false;
		ln->awake = 0;
		if (ln->asleep) {
			continue;
		}
		spring_xform2 at = spring_chain2d_internal_substep_root(ln->from, ln->to, f);
		double u[2];
		spring_chain2d_internal_path_step(&head[j], ln->begin + (double)f * (double)frame_dt, u);
		if (!spring_chain2d_internal_step_begin(&head[j], at, spring_chain2d_internal_same_root(&head[j], at), u, &ln->in,
		                                        &ln->turn, &still)) {
			continue;
		}
		ln->awake = 1;
		ln->still = still;
		ln->parent = at.angle;
		for (int i = 0; i < n; i++) {
			size_t k = (size_t)i * (size_t)count + (size_t)j;
			prev[k] = angle[k];
			if (ln->turn != 0.0) {
				angle[k] = spring_det_fold_float((double)angle[k] + ln->turn);
			}
		}
	}
	// The fields of every segment of every chain: one loop without branches (it vectorises).
	double *fx = gforce(g, l, 0), *fy = gforce(g, l, 1), *px = gforce(g, l, 2), *py = gforce(g, l, 3);
	for (int j = 0; j < count; j++) {
		fx[j] = lane[j].in.fx;
		fy[j] = lane[j].in.fy;
		px[j] = lane[j].in.px;
		py[j] = lane[j].in.py;
	}
	double *alpha = gfield(g, l, 0), *held = gfield(g, l, 1);
	fields_pass(n, count, shape.length, inertia, angle, fx, fy, px, py, alpha, held, trig);
	for (int i = 0; i < n; i++) {
		spring_chain2d_segment_input seg = {{0.0f, 0.0f, 0.0f}, NULL, shape.length[i], shape.rest[i], shape.limit[i], 0.0f};
		const size_t row = (size_t)i * (size_t)count;
		for (int j = 0; j < count; j++) {
			group_lane *ln = &lane[j];
			if (!ln->awake) {
				continue;
			}
			size_t k = row + (size_t)j;
			seg.params = params[k];
			seg.stepper = &st[k];
			seg.inertia = inertia[k];
			spring_state s = {angle[k], velocity[k]};
			spring_result r = spring_chain2d_segment_step(&ln->in, &seg, alpha[k], held[k], ln->parent, 0.0f, &s, &target[k]);
			if (r != SPRING_OK) {
				return r;
			}
			angle[k] = s.x;
			velocity[k] = s.v;
			ln->parent = s.x;
		}
	}
	for (int j = 0; j < count; j++) {
		if (lane[j].awake && lane[j].still) {
			spring_chain2d_internal_try_rest(gather(g, l, j));
			scatter(g, l, j);
		}
	}
	return SPRING_OK;
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
	}
	const spring_clock clock = group->clock;
	backup_state(group, &l);
	int steps = spring_clock_advance(&group->clock, frame_dt);
	if (steps < 0) {
		restore_state(group, &l, clock);
		return (spring_result)(-steps);
	}
	for (int j = 0; j < count; j++) {
		lane[j].begin = spring_chain2d_internal_path_advance(&head[j], lane[j].to.position, (double)frame_dt);
	}
	for (int k = 0; k < steps; k++) {
		r = step_all(group, &l, spring_clock_substep_fraction(&group->clock, k, steps), frame_dt);
		if (r != SPRING_OK) {
			restore_state(group, &l, clock);
			return r;
		}
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
	size_t k = (size_t)segment * (size_t)group->chain_count + (size_t)chain;
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
	spring_chain2d_pose_walk(garr(g, l, G_PREV) + j, garr(g, l, G_ANGLE) + j, gtrig(g, l) + j, (ptrdiff_t)g->chain_count,
	                         shape.length, g->segment_count, h->prev_root, h->root, g->clock.alpha, joints, local_angles);
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
