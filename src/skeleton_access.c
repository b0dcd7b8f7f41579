// SPDX-License-Identifier: MIT
// Spring skeletons: what a runtime gives out (poses, rest lengths, rest, the clock), the host's
// pose from world matrices, and snapshots (skeleton_runtime_internal.h).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "skeleton_internal.h"
#include "skeleton_runtime_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Output

int spring_skeleton_crowd_count(const spring_skeleton_crowd *s)
{
	return s ? s->count : 0;
}

int spring_skeleton_crowd_bone_count(const spring_skeleton_crowd *s)
{
	return s ? s->bone_count : 0;
}

int spring_skeleton_bone_count(const spring_skeleton *skeleton)
{
	return skeleton ? skeleton->crowd.bone_count : 0;
}

static spring_result get(const spring_skeleton_crowd *s, int instance, double alpha, int *nodes, spring_quat *rotations,
                         spring_vec3 *tails, int capacity)
{
	spring_result r = check_instance(s, instance);
	r = r != SPRING_OK ? r : spring_internal_room(capacity, s->bone_count);
	if (r != SPRING_OK) {
		return r;
	}
	int l = instance % SKELETON_LANES;
	const lbone *st = &s->state[(size_t)(instance / SKELETON_LANES) * (size_t)s->bone_count];
	for (int b = 0; b < s->bone_count; b++) {
		const lbone *x = &st[b];
		if (nodes) {
			nodes[b] = s->bones[b].head;
		}
		if (rotations) {
			llocal a, z, q;
			memset(&a, 0, sizeof a);
			memset(&z, 0, sizeof z);
			memcpy(a.q, x->q_before, sizeof a.q);
			memcpy(z.q, x->q, sizeof z.q);
			blend(&a, &z, splat(alpha), &q);
			rotations[b] = (spring_quat){(float)q.q[0][l], (float)q.q[1][l], (float)q.q[2][l], (float)q.q[3][l]};
		}
		if (tails) {
			double t[3];
			for (int i = 0; i < 3; i++) {
				t[i] = x->tail_before[i][l] + (x->tail_step[i][l] - x->tail_before[i][l]) * alpha;
			}
			tails[b] = spring_vec3_make((float)t[0], (float)t[1], (float)t[2]);
		}
	}
	return SPRING_OK;
}

spring_result spring_skeleton_crowd_get_pose(const spring_skeleton_crowd *s, int instance, int *nodes, spring_quat *rotations,
                                             spring_vec3 *tails, int capacity)
{
	return get(s, instance, s ? (double)s->clock.alpha : 0.0, nodes, rotations, tails, capacity);
}

spring_result spring_skeleton_crowd_get_stepped_pose(const spring_skeleton_crowd *s, int instance, int *nodes,
                                                     spring_quat *rotations, spring_vec3 *tails, int capacity)
{
	return get(s, instance, 1.0, nodes, rotations, tails, capacity);
}

spring_result spring_skeleton_get_pose(const spring_skeleton *s, int *nodes, spring_quat *rotations, spring_vec3 *tails,
                                       int capacity)
{
	return spring_skeleton_crowd_get_pose(s ? &s->crowd : NULL, 0, nodes, rotations, tails, capacity);
}

spring_result spring_skeleton_get_stepped_pose(const spring_skeleton *s, int *nodes, spring_quat *rotations, spring_vec3 *tails,
                                               int capacity)
{
	return spring_skeleton_crowd_get_stepped_pose(s ? &s->crowd : NULL, 0, nodes, rotations, tails, capacity);
}

spring_result spring_skeleton_get_rest_lengths(const spring_skeleton *skeleton, float *lengths, int capacity)
{
	if (!skeleton || !lengths) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	const spring_skeleton_crowd *s = &skeleton->crowd;
	spring_result r = spring_internal_room(capacity, s->bone_count);
	if (r != SPRING_OK) {
		return r;
	}
	for (int b = 0; b < s->bone_count; b++) {
		lengths[b] = (float)s->bones[b].rest_length;
	}
	return SPRING_OK;
}

bool spring_skeleton_crowd_is_resting(const spring_skeleton_crowd *s, int instance)
{
	return check_instance(s, instance) == SPRING_OK && s->resting[instance] != 0;
}

bool spring_skeleton_is_resting(const spring_skeleton *s)
{
	return spring_skeleton_crowd_is_resting(s ? &s->crowd : NULL, 0);
}

const spring_clock *spring_skeleton_crowd_clock(const spring_skeleton_crowd *s)
{
	return s ? &s->clock : NULL;
}

const spring_clock *spring_skeleton_clock(const spring_skeleton *s)
{
	return s ? &s->crowd.clock : NULL;
}

// ---------------------------------------------------------------------------------------------
// World matrices in

// A column-major 4x4 float matrix as an affine in every lane (its last row is checked apart).
static lmat from_column_major(const float *m)
{
	lmat a;
	for (int row = 0; row < 3; row++) {
		for (int col = 0; col < 4; col++) {
			a.m[row * 4 + col] = splat(m[col * 4 + row]);
		}
	}
	return a;
}

// `a` (lane 0) as a transform through the one decomposition (spring_skeleton_node_from_matrix);
// false when it is not a translation, rotation and scale.
static bool to_xform(const lmat *a, spring_xform3 *out)
{
	double m[16];
	for (int row = 0; row < 3; row++) {
		for (int col = 0; col < 4; col++) {
			m[col * 4 + row] = a->m[row * 4 + col][0];
		}
	}
	m[3] = m[7] = m[11] = 0.0;
	m[15] = 1.0;
	spring_skeleton_node n;
	if (!spring_skeleton_node_from_matrix(m, &n) || fabsf(n.translation.x) > SPRING_SKELETON_MAX_COORDINATE ||
	    fabsf(n.translation.y) > SPRING_SKELETON_MAX_COORDINATE || fabsf(n.translation.z) > SPRING_SKELETON_MAX_COORDINATE) {
		return false;
	}
	out->position = n.translation;
	out->rotation = n.rotation;
	return true;
}

static spring_result pose_from_world(const spring_skeleton_crowd *s, const float *root_world, const float *worlds, int count,
                                     spring_xform3 *root, spring_xform3 *locals)
{
	if (!s || !root_world || !worlds || !root || !locals || count != s->node_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_internal_all_finite(root_world, 16) || !spring_internal_all_finite(worlds, 16 * count)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	for (int i = -1; i < count; i++) {
		const float *m = i < 0 ? root_world : worlds + 16 * i;
		if (m[3] != 0.0f || m[7] != 0.0f || m[11] != 0.0f || m[15] != 1.0f) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	// Two passes: every local transform made and checked, then made again and written (a failure
	// writes nothing).
	spring_xform3 r;
	lmat rw = from_column_major(root_world);
	if (!to_xform(&rw, &r)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < count; i++) {
			int p = s->parent[i];
			lmat pw = p >= 0 ? from_column_major(worlds + 16 * p) : rw, w = from_column_major(worlds + 16 * i);
			lmat inv = inverse(&pw), l = mul(&inv, &w);
			spring_xform3 x;
			if (!to_xform(&l, &x)) {
				return SPRING_ERROR_OUT_OF_RANGE;
			}
			if (pass == 1) {
				locals[i] = x;
			}
		}
	}
	*root = r;
	return SPRING_OK;
}

spring_result spring_skeleton_pose_from_world(const spring_skeleton *skeleton, const float *root_world, const float *worlds,
                                              int count, spring_xform3 *root, spring_xform3 *locals)
{
	return pose_from_world(skeleton ? &skeleton->crowd : NULL, root_world, worlds, count, root, locals);
}

spring_result spring_skeleton_crowd_pose_from_world(const spring_skeleton_crowd *crowd, const float *root_world,
                                                    const float *worlds, int count, spring_xform3 *root, spring_xform3 *locals)
{
	return pose_from_world(crowd, root_world, worlds, count, root, locals);
}

// ---------------------------------------------------------------------------------------------
// Snapshots: the state field by field after the header (the block holds pointers), every field
// visited by one function for writing, checking and reading, so the three cannot disagree.

enum { IO_WRITE, IO_CHECK, IO_READ };

typedef enum io_check {
	CHECK_POSITION, // finite, |x| <= 1e9 (tails, centre-space tails)
	CHECK_POSE,     // finite, |x| <= SPRING_SKELETON_MAX_COORDINATE (the host's poses)
	CHECK_TIME,     // finite, in [0, FLT_MAX]
	CHECK_QUAT      // four finite numbers of length 1 within 1e-6
} io_check;

typedef struct io {
	unsigned char *p;
	int mode;
	int lane;             // the instance's lane in its block
	spring_result result; // CHECK: the first fault
	spring_element element;
	int index;
	const char *field, *reason;
} io;

static void io_fault(io *c, spring_result r, spring_element element, int index, const char *field, const char *reason)
{
	if (c->result == SPRING_OK) {
		c->result = r;
		c->element = element;
		c->index = index;
		c->field = field;
		c->reason = reason;
	}
}

// n numbers, lane c->lane of x[0..n).
static void io_lanes(io *c, lane *x, int n, io_check check, spring_element element, int index, const char *field)
{
	double v[4];
	size_t bytes = (size_t)n * sizeof(double);
	if (c->mode == IO_WRITE) {
		for (int k = 0; k < n; k++) {
			v[k] = x[k][c->lane];
		}
		memcpy(c->p, v, bytes);
	} else if (c->mode == IO_READ) {
		memcpy(v, c->p, bytes);
		for (int k = 0; k < n; k++) {
			x[k][c->lane] = v[k];
		}
	} else {
		memcpy(v, c->p, bytes);
		double qq = 0.0;
		for (int k = 0; k < n; k++) {
			if (!isfinite(v[k])) {
				io_fault(c, SPRING_ERROR_NOT_FINITE, element, index, field, "must be finite");
				c->p += bytes;
				return;
			}
			double bound = check == CHECK_POSE ? (double)SPRING_SKELETON_MAX_COORDINATE : 1e9;
			if ((check == CHECK_POSITION || check == CHECK_POSE) && fabs(v[k]) > bound) {
				io_fault(c, SPRING_ERROR_OUT_OF_RANGE, element, index, field, "is out of range");
			}
			if (check == CHECK_TIME && !(v[k] >= 0.0 && v[k] <= (double)FLT_MAX)) {
				io_fault(c, SPRING_ERROR_OUT_OF_RANGE, element, index, field, "must be a time >= 0");
			}
			qq += v[k] * v[k];
		}
		if (check == CHECK_QUAT && !(fabs(qq - 1.0) <= 1e-6)) {
			io_fault(c, SPRING_ERROR_OUT_OF_RANGE, element, index, field, "must be a unit quaternion");
		}
	}
	c->p += bytes;
}

static void io_local(io *c, llocal *l, spring_element element, int index, const char *field)
{
	io_lanes(c, l->t, 3, CHECK_POSE, element, index, field);
	io_lanes(c, l->q, 4, CHECK_QUAT, element, index, field);
}

static void io_raw(io *c, void *x, size_t bytes)
{
	if (c->mode == IO_WRITE) {
		memcpy(c->p, x, bytes);
	} else if (c->mode == IO_READ) {
		memcpy(x, c->p, bytes);
	}
	c->p += bytes;
}

// The clock, field by field (no padding in the blob); CHECK reads it whole and asks the clock's
// own check.
static void io_clock(io *c, spring_clock *live)
{
	spring_clock k = *live;
	io sub = *c;
	sub.mode = c->mode == IO_WRITE ? IO_WRITE : IO_READ;
	io_raw(&sub, &k.step, sizeof k.step);
	io_raw(&sub, &k.accumulator, sizeof k.accumulator);
	io_raw(&sub, &k.alpha, sizeof k.alpha);
	io_raw(&sub, &k.dropped, sizeof k.dropped);
	io_raw(&sub, &k.max_steps, sizeof k.max_steps);
	io_raw(&sub, &k.frame_dt, sizeof k.frame_dt);
	io_raw(&sub, &k.last_steps, sizeof k.last_steps);
	io_raw(&sub, &k.carried_ticks, sizeof k.carried_ticks);
	io_raw(&sub, &k.time, sizeof k.time);
	c->p = sub.p;
	if (c->mode == IO_CHECK) {
		const char *why = spring_internal_clock_check(live, &k);
		if (why) {
			io_fault(c, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "clock", why);
		}
	} else if (c->mode == IO_READ) {
		*live = k;
	}
}

// One instance: its resting flag, frame lengths, the three frames of its pose (the root, then
// every needed node in index order) and its bones.
static void io_instance(spring_skeleton_crowd *s, io *c, int i)
{
	int blk = i / SKELETON_LANES;
	c->lane = i % SKELETON_LANES;
	int32_t resting = s->resting[i];
	if (c->mode == IO_CHECK) {
		memcpy(&resting, c->p, sizeof resting);
		if (resting < 0 || resting > REST_STEPPED) {
			io_fault(c, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "resting", "must be 0, 1 or 2");
		}
		c->p += sizeof resting;
	} else {
		io_raw(c, &resting, sizeof resting);
		if (c->mode == IO_READ) {
			s->resting[i] = (unsigned char)resting;
		}
	}
	io_lanes(c, &s->frames[blk].dt_from, 1, CHECK_TIME, SPRING_ELEMENT_NONE, -1, "dt_from");
	io_lanes(c, &s->frames[blk].dt_to, 1, CHECK_TIME, SPRING_ELEMENT_NONE, -1, "dt_to");
	llocal *before = block_pose(s->before, s, blk), *from = block_pose(s->from, s, blk), *to = block_pose(s->to, s, blk);
	io_local(c, &before[0], SPRING_ELEMENT_NONE, -1, "root_before");
	io_local(c, &from[0], SPRING_ELEMENT_NONE, -1, "root_from");
	io_local(c, &to[0], SPRING_ELEMENT_NONE, -1, "root_to");
	for (int node = 0; node < s->node_count; node++) {
		int k = s->slot[node];
		if (k > 0) {
			io_local(c, &before[k], SPRING_ELEMENT_NODE, node, "before");
			io_local(c, &from[k], SPRING_ELEMENT_NODE, node, "from");
			io_local(c, &to[k], SPRING_ELEMENT_NODE, node, "to");
		}
	}
	lbone *st = &s->state[(size_t)blk * (size_t)s->bone_count];
	for (int b = 0; b < s->bone_count; b++) {
		lbone *x = &st[b];
		io_lanes(c, x->cur, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "cur");
		io_lanes(c, x->prev, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "prev");
		io_lanes(c, x->q, 4, CHECK_QUAT, SPRING_ELEMENT_BONE, b, "rotation");
		io_lanes(c, x->tail_step, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "tail_step");
		io_lanes(c, x->tail_before, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "tail_before");
		io_lanes(c, x->q_before, 4, CHECK_QUAT, SPRING_ELEMENT_BONE, b, "rotation_before");
	}
}

static void io_state(spring_skeleton_crowd *s, io *c)
{
	io_clock(c, &s->clock);
	for (int i = 0; i < s->count; i++) {
		io_instance(s, c, i);
	}
}

static size_t instance_size(const spring_skeleton_crowd *s)
{
	return sizeof(int32_t) + 2 * sizeof(double) + (size_t)s->stride * 3 * 7 * sizeof(double) +
	       (size_t)s->bone_count * 20 * sizeof(double);
}

static size_t state_size(const spring_skeleton_crowd *s)
{
	size_t clock = 4 * sizeof(float) + sizeof(int) + sizeof(float) + sizeof(int) + sizeof(int32_t) + sizeof(double);
	return clock + (size_t)s->count * instance_size(s);
}

// What a blob must have been made by: the same tree, bones and settings, and as many instances
// (a crowd of one and a single skeleton take each other's blobs).
static uint64_t skeleton_shape(const spring_skeleton_crowd *s)
{
	uint64_t h = spring_hash(SPRING_HASH_INIT, &s->node_count, sizeof s->node_count);
	h = spring_hash(h, &s->bone_count, sizeof s->bone_count);
	h = spring_hash(h, &s->step, sizeof s->step);
	h = spring_hash(h, &s->length, sizeof s->length);
	h = spring_hash(h, s->parent, (size_t)s->node_count * sizeof *s->parent);
	for (int b = 0; b < s->bone_count; b++) {
		const bone *bn = &s->bones[b];
		h = spring_hash(h, &bn->head, sizeof bn->head);
		h = spring_hash(h, &bn->tail_node, sizeof bn->tail_node);
		h = spring_hash(h, &bn->rest_length, sizeof bn->rest_length);
		h = spring_hash(h, &bn->stiffness, sizeof bn->stiffness);
		h = spring_hash(h, &bn->drag, sizeof bn->drag);
	}
	if (s->count != 1) {
		h = spring_hash(h, &s->count, sizeof s->count);
	}
	return h;
}

size_t spring_skeleton_crowd_snapshot_size(const spring_skeleton_crowd *s)
{
	return s ? SPRING_SNAPSHOT_HEADER_BYTES + state_size(s) : 0;
}

spring_result spring_skeleton_crowd_snapshot(const spring_skeleton_crowd *s, void *blob, size_t size)
{
	if (!s || !blob) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (size < spring_skeleton_crowd_snapshot_size(s)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_internal_snapshot_write_header(SPRING_SNAPSHOT_SKELETON, skeleton_shape(s), state_size(s), blob);
	io c = {(unsigned char *)blob + SPRING_SNAPSHOT_HEADER_BYTES, IO_WRITE, 0, SPRING_OK, SPRING_ELEMENT_NONE, -1, "", ""};
	io_state((spring_skeleton_crowd *)s, &c); // writing reads the object only
	return SPRING_OK;
}

static spring_result restore(spring_skeleton_crowd *s, const void *blob, size_t size, const char *object, spring_error *error)
{
	if (!s) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, object, SPRING_ELEMENT_NONE, -1, "",
		                               "the skeleton is NULL");
	}
	const unsigned char *body = NULL;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_SKELETON, skeleton_shape(s), state_size(s),
	                                                  object, error, &body);
	if (r != SPRING_OK) {
		return r;
	}
	io c = {(unsigned char *)(uintptr_t)body, IO_CHECK, 0, SPRING_OK, SPRING_ELEMENT_NONE, -1, "", ""};
	io_state(s, &c);
	if (c.result != SPRING_OK) {
		return spring_internal_snapshot_bad(error, c.result, object, c.element, c.index, c.field, c.reason);
	}
	c.p = (unsigned char *)(uintptr_t)body;
	c.mode = IO_READ;
	io_state(s, &c);
	return SPRING_OK;
}

spring_result spring_skeleton_crowd_restore(spring_skeleton_crowd *s, const void *blob, size_t size, spring_error *error)
{
	return restore(s, blob, size, CROWD, error);
}

size_t spring_skeleton_snapshot_size(const spring_skeleton *s)
{
	return spring_skeleton_crowd_snapshot_size(s ? &s->crowd : NULL);
}

spring_result spring_skeleton_snapshot(const spring_skeleton *s, void *blob, size_t size)
{
	return spring_skeleton_crowd_snapshot(s ? &s->crowd : NULL, blob, size);
}

spring_result spring_skeleton_restore(spring_skeleton *s, const void *blob, size_t size, spring_error *error)
{
	return restore(s ? &s->crowd : NULL, blob, size, OBJECT, error);
}
