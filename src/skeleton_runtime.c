// SPDX-License-Identifier: MIT
// Spring skeletons: the runtime (spring/skeleton.h). Each step is the VRM specification's update
// in double (only +, -, *, / and sqrt, so the same bits on every platform), at the authoring rate,
// on the fixed-step clock; the host's pose is interpolated across a frame's steps.
//
// Instances of one model (a crowd) are stepped side by side: the model (tree, bones, colliders)
// is stored once, each instance's state in one lane of a block of SKELETON_LANES, and every
// operation of a step works on a block's lanes at once (vectors of doubles: SSE2 and NEON take two
// lanes an instruction, AVX two... four). A lane's numbers are those it would have alone: the same
// operations in the same order, per lane, with selects where a single instance would branch. A
// spring_skeleton is a crowd of one.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/skeleton.h"

#include "base_internal.h"
#include "skeleton_internal.h"
#include "skeleton_lanes.h"
#include "skeleton_runtime_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct layout {
	size_t parent, order, slot, needed, child_first, kids, head_bone, update_order, scale, unit_scale, rest, before, from, to,
		frames, state, resting, now, saved, world, bones, colliders, group_first, group_members, group_refs, size;
} layout;

static size_t take(size_t *at, size_t count, size_t size)
{
	size_t here = *at;
	*at = spring_internal_size_add(*at, spring_internal_align16(spring_internal_size_mul(count, size)));
	return here;
}

static int bone_total(const spring_skeleton_desc *d)
{
	int bones = 0;
	for (int s = 0; s < d->spring_count; s++) {
		bones += d->springs[s].has_end_tail ? d->springs[s].joint_count : d->springs[s].joint_count - 1;
	}
	return bones;
}

// The needed nodes' count bounds a pose's slots; the layout takes every node's room (the exact
// count is known only once the tree is built).
static layout make_layout(const spring_skeleton_desc *d, int count)
{
	layout l;
	size_t n = (size_t)d->node_count, b = (size_t)bone_total(d), members = 0, refs = 0;
	size_t blocks = ((size_t)count + SKELETON_LANES - 1) / SKELETON_LANES, stride = n + 1;
	for (int g = 0; g < d->collider_group_count; g++) {
		members += (size_t)d->collider_groups[g].collider_count;
	}
	for (int s = 0; s < d->spring_count; s++) {
		refs += (size_t)d->springs[s].collider_group_count;
	}
	size_t at = spring_internal_align16(sizeof(spring_skeleton_crowd));
	l.parent = take(&at, n, sizeof(int));
	l.order = take(&at, n, sizeof(int));
	l.slot = take(&at, n, sizeof(int));
	l.needed = take(&at, n, 1);
	l.child_first = take(&at, n + 1, sizeof(int));
	l.kids = take(&at, n, sizeof(int));
	l.head_bone = take(&at, n, sizeof(int));
	l.update_order = take(&at, b, sizeof(int));
	l.scale = take(&at, n, 3 * sizeof(double));
	l.unit_scale = take(&at, n, sizeof(bool));
	l.rest = take(&at, n, 7 * sizeof(double));
	l.before = take(&at, spring_internal_size_mul(blocks, stride), sizeof(llocal));
	l.from = take(&at, spring_internal_size_mul(blocks, stride), sizeof(llocal));
	l.to = take(&at, spring_internal_size_mul(blocks, stride), sizeof(llocal));
	l.frames = take(&at, blocks, sizeof(lclock));
	l.state = take(&at, spring_internal_size_mul(blocks, b), sizeof(lbone));
	l.resting = take(&at, blocks * SKELETON_LANES, 1);
	l.now = take(&at, stride, sizeof(llocal));
	l.saved = take(&at, b, sizeof(lbone));
	l.world = take(&at, n, sizeof(lmat));
	l.bones = take(&at, b, sizeof(bone));
	l.colliders = take(&at, (size_t)d->collider_count, sizeof(spring_skeleton_collider));
	l.group_first = take(&at, (size_t)d->collider_group_count + 1, sizeof(int));
	l.group_members = take(&at, members, sizeof(int));
	l.group_refs = take(&at, refs, sizeof(int));
	l.size = at;
	return l;
}

static bool crowd_desc_fine(const spring_skeleton_crowd_desc *desc)
{
	return desc && desc->count >= 1 && desc->count <= SPRING_SKELETON_MAX_INSTANCES &&
	       spring_skeleton_validate(desc->skeleton, NULL) == SPRING_OK;
}

size_t spring_skeleton_crowd_memory_size(const spring_skeleton_crowd_desc *desc)
{
	if (!crowd_desc_fine(desc)) {
		return 0;
	}
	layout l = make_layout(desc->skeleton, desc->count);
	return spring_internal_size_fits(l.size) ? l.size : 0;
}

size_t spring_skeleton_memory_size(const spring_skeleton_desc *desc)
{
	spring_skeleton_crowd_desc one = {desc, 1};
	return spring_skeleton_crowd_memory_size(&one);
}

// The turn taking a bone's rest axis `f` (unit, the same in every lane) to unit `t`: the shortest
// arc (f x t, 1 + f . t) normalised, or `along` (a half turn about an axis across f) where t
// points straight back.
static void from_to(const bone *bn, const lane t[3], lane q[4])
{
	const double *f = bn->axis;
	lane r = splat(f[0]) * t[0] + splat(f[1]) * t[1] + splat(f[2]) * t[2] + 1.0;
	lane_mask back = r < 1e-15;
	lane c[4] = {f[1] * t[2] - f[2] * t[1], f[2] * t[0] - f[0] * t[2], f[0] * t[1] - f[1] * t[0], r};
	for (int k = 0; k < 4; k++) {
		q[k] = lselect(back, splat(bn->along[k]), c[k]);
	}
	qnormalize(q);
}

// The pose at fraction u of a frame from `b` (its start) to `c` (its end), `a` the frame before:
// the parabola through the three (frames of dt_ab then dt_bc seconds), rotations per component
// on one hemisphere and normalised. A frame more than four times as long or short as the one
// before (a hitch, a first frame) takes the straight line instead: a parabola would overshoot.
// The weights are the same for every node of a step: make_weights makes them once.
typedef struct weights {
	lane_mask line; // the straight line from b to c at u
	bool any_line, all_line;
	lane u, la, lb, lc;
} weights;

static weights make_weights(const lclock *k, double u)
{
	weights w;
	lane p = k->dt_from, h = k->dt_to;
	w.line = ~(p > 0.0) | (h > 4.0 * p) | (p > 4.0 * h);
	w.any_line = any(w.line);
	w.all_line = all(w.line);
	w.u = splat(u);
	p = lselect(w.line, splat(1.0), p); // the line's lanes: any finite weights, unused
	h = lselect(w.line, splat(1.0), h);
	lane x = u * h;
	w.la = x * (x - h) / (p * (p + h));
	w.lb = -(x + p) * (x - h) / (p * h);
	w.lc = (x + p) * x / ((h + p) * h);
	return w;
}

static void blend3(const llocal *a, const llocal *b, const llocal *c, const weights *w, llocal *out)
{
	llocal line;
	if (w->any_line) {
		blend(b, c, w->u, &line);
		if (w->all_line) {
			*out = line;
			return;
		}
	}
	lane la = w->la, lb = w->lb, lc = w->lc;
	for (int k = 0; k < 3; k++) {
		out->t[k] = la * a->t[k] + lb * b->t[k] + lc * c->t[k];
	}
	lane sa = lselect(b->q[0] * a->q[0] + b->q[1] * a->q[1] + b->q[2] * a->q[2] + b->q[3] * a->q[3] < 0.0, splat(-1.0),
	                  splat(1.0));
	lane sc = lselect(b->q[0] * c->q[0] + b->q[1] * c->q[1] + b->q[2] * c->q[2] + b->q[3] * c->q[3] < 0.0, splat(-1.0),
	                  splat(1.0));
	for (int k = 0; k < 4; k++) {
		out->q[k] = la * sa * a->q[k] + lb * b->q[k] + lc * sc * c->q[k];
	}
	qnormalize(out->q);
	if (w->any_line) {
		for (int k = 0; k < 3; k++) {
			out->t[k] = lselect(w->line, line.t[k], out->t[k]);
		}
		for (int k = 0; k < 4; k++) {
			out->q[k] = lselect(w->line, line.q[k], out->q[k]);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Lanes in and out

static void set_lane(llocal *x, int l, spring_xform3 v)
{
	double q[4] = {v.rotation.x, v.rotation.y, v.rotation.z, v.rotation.w};
	double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	x->t[0][l] = v.position.x;
	x->t[1][l] = v.position.y;
	x->t[2][l] = v.position.z;
	for (int k = 0; k < 4; k++) {
		x->q[k][l] = q[k] / len;
	}
}

static void set_lane_rest(llocal *x, int l, const double rest[7])
{
	for (int k = 0; k < 3; k++) {
		x->t[k][l] = rest[k];
	}
	for (int k = 0; k < 4; k++) {
		x->q[k][l] = rest[3 + k];
	}
}

static void fill_lanes3(lane v[3], const double x[3])
{
	for (int k = 0; k < 3; k++) {
		v[k] = splat(x[k]);
	}
}

// ---------------------------------------------------------------------------------------------
// Creation

static int depth_of(const spring_skeleton_node *nodes, int node)
{
	int depth = 0;
	for (int at = nodes[node].parent; at >= 0; at = nodes[at].parent) {
		depth++;
	}
	return depth;
}

// Indices [0, n) sorted by key, stable (insertion sort runs of a counting pass: keys are depths,
// at most SPRING_SKELETON_MAX_DEPTH).
static void sort_by_depth(const int *keys, int n, int *out, int *count)
{
	memset(count, 0, (SPRING_SKELETON_MAX_DEPTH + 2) * sizeof(int));
	for (int i = 0; i < n; i++) {
		count[keys[i] + 1]++;
	}
	for (int k = 1; k <= SPRING_SKELETON_MAX_DEPTH + 1; k++) {
		count[k] += count[k - 1];
	}
	for (int i = 0; i < n; i++) {
		out[count[keys[i]]++] = i;
	}
}

enum {
	NODE_NEEDED = 1,    // a bone, a tail, a collider or a centre depends on the node
	NODE_LOOKED_AT = 2, // a collider or a centre is on it
	NODE_EARLY = 4,     // computed before the bones step (read before a bone's step makes it)
	NODE_MADE = 8       // mark_early's scratch: made already in this step
};

// Marks a node and its ancestors with `flag`.
static void mark_up(spring_skeleton_crowd *s, int node, unsigned char flag)
{
	for (int at = node; at >= 0 && !(s->needed[at] & flag); at = s->parent[at]) {
		s->needed[at] |= flag;
	}
}

static void world_below(spring_skeleton_crowd *s, const llocal *now, const lbone *st, int node, bool mark);

// A step read `node`'s matrix: if no bone's step has made it yet, it and its ancestors are
// computed before the bones step.
static void read_node(spring_skeleton_crowd *s, int node)
{
	if (node >= 0 && !(s->needed[node] & NODE_MADE)) {
		mark_up(s, node, NODE_EARLY);
	}
}

// Goes through a step's reads and writes of node matrices in the bones' order (step_bone's), and
// marks NODE_EARLY the nodes read before they are made, with their ancestors: only those are
// computed ahead (the same numbers as computing every needed node ahead, for less work).
static void mark_early(spring_skeleton_crowd *s)
{
	for (int k = 0; k < s->bone_count; k++) {
		const bone *bn = &s->bones[s->update_order[k]];
		read_node(s, s->parent[bn->head]);
		if (bn->head_read) {
			s->needed[bn->head] |= NODE_MADE;
		}
		if (s->length == SPRING_SKELETON_LENGTH_MEASURED) {
			read_node(s, bn->tail_node >= 0 ? bn->tail_node : bn->head);
		}
		read_node(s, bn->center);
		for (int g = 0; g < bn->group_count; g++) {
			int group = s->group_refs[bn->group_first + g];
			for (int m = s->group_first[group]; m < s->group_first[group + 1]; m++) {
				read_node(s, s->colliders[s->group_members[m]].node);
			}
		}
		s->needed[bn->head] |= NODE_MADE;
		world_below(s, NULL, NULL, bn->head, true);
	}
	for (int i = 0; i < s->node_count; i++) {
		s->needed[i] &= (unsigned char)~NODE_MADE;
	}
}

static void world_of(spring_skeleton_crowd *s, const llocal *now, const lbone *st, const lmat *root, int node);
static void rest_all(spring_skeleton_crowd *s, int block, unsigned lanes, const lmat *root);

static lmat root_matrix(const llocal *root)
{
	static const double one[3] = {1.0, 1.0, 1.0};
	return compose(root->t, root->q, one, true);
}

// A crowd of desc->count instances (`object` names it in errors: a single skeleton is a crowd of
// one).
static spring_result crowd_init(const spring_skeleton_crowd_desc *desc, void *memory, size_t size, spring_skeleton_crowd **out,
                                const char *object, spring_error *error)
{
	if (!desc) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, object, SPRING_ELEMENT_NONE, -1, "", "desc is NULL");
	}
	spring_result r = spring_skeleton_validate(desc->skeleton, error);
	if (r != SPRING_OK) {
		return r;
	}
	if (desc->count < 1 || desc->count > SPRING_SKELETON_MAX_INSTANCES) {
		return spring_internal_fail_at(error, SPRING_ERROR_OUT_OF_RANGE, object, SPRING_ELEMENT_NONE, -1, "count",
		                               "count must be in [1, %d]", SPRING_SKELETON_MAX_INSTANCES);
	}
	if (!out) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, object, SPRING_ELEMENT_NONE, -1, "", "out is NULL");
	}
	const spring_skeleton_desc *d = desc->skeleton;
	layout l = make_layout(d, desc->count);
	if (!spring_internal_size_fits(l.size)) {
		return spring_internal_fail_at(error, SPRING_ERROR_OUT_OF_RANGE, object, SPRING_ELEMENT_NONE, -1, "count",
		                               "the count needs more memory than one block can hold");
	}
	if (!memory || size < l.size || ((uintptr_t)memory & 15u) != 0) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, object, SPRING_ELEMENT_NONE, -1, "memory",
		                               "memory must be 16-byte aligned and hold %zu bytes", l.size);
	}
	unsigned char *base = (unsigned char *)memory;
	memset(base, 0, l.size);
	spring_skeleton_crowd *s = (spring_skeleton_crowd *)base;
	s->parent = (int *)(base + l.parent);
	s->order = (int *)(base + l.order);
	s->slot = (int *)(base + l.slot);
	s->needed = (unsigned char *)(base + l.needed);
	s->child_first = (int *)(base + l.child_first);
	s->kids = (int *)(base + l.kids);
	s->head_bone = (int *)(base + l.head_bone);
	s->update_order = (int *)(base + l.update_order);
	s->scale = (double(*)[3])(base + l.scale);
	s->unit_scale = (bool *)(base + l.unit_scale);
	s->rest = (double(*)[7])(base + l.rest);
	s->before = (llocal *)(base + l.before);
	s->from = (llocal *)(base + l.from);
	s->to = (llocal *)(base + l.to);
	s->frames = (lclock *)(base + l.frames);
	s->state = (lbone *)(base + l.state);
	s->resting = (unsigned char *)(base + l.resting);
	s->now = (llocal *)(base + l.now);
	s->saved = (lbone *)(base + l.saved);
	s->world = (lmat *)(base + l.world);
	s->bones = (bone *)(base + l.bones);
	s->colliders = (spring_skeleton_collider *)(base + l.colliders);
	s->group_first = (int *)(base + l.group_first);
	s->group_members = (int *)(base + l.group_members);
	s->group_refs = (int *)(base + l.group_refs);
	int n = d->node_count;
	s->count = desc->count;
	s->blocks = (desc->count + SKELETON_LANES - 1) / SKELETON_LANES;
	s->node_count = n;
	s->length = d->length;
	float rate = d->rate > 0.0f ? d->rate : SPRING_SKELETON_DEFAULT_RATE;
	s->step = 1.0 / (double)rate;
	spring_clock_init(&s->clock, 1.0f / rate, SPRING_SKELETON_MAX_STEPS);
	// The tree: parents, an order with parents first (the depths as scratch in `kids`), then the
	// children lists (head_bone as the cursor).
	int count[SPRING_SKELETON_MAX_DEPTH + 2];
	for (int i = 0; i < n; i++) {
		s->parent[i] = d->nodes[i].parent;
		s->kids[i] = depth_of(d->nodes, i);
		spring_internal_skeleton_node_scale(&d->nodes[i], s->scale[i]);
		s->unit_scale[i] = unit_scale(s->scale[i]);
		s->rest[i][0] = d->nodes[i].translation.x;
		s->rest[i][1] = d->nodes[i].translation.y;
		s->rest[i][2] = d->nodes[i].translation.z;
		spring_internal_skeleton_node_rotation(&d->nodes[i], &s->rest[i][3]);
	}
	sort_by_depth(s->kids, n, s->order, count);
	for (int i = 0; i < n; i++) {
		if (s->parent[i] >= 0) {
			s->child_first[s->parent[i] + 1]++;
		}
	}
	for (int i = 0; i < n; i++) {
		s->child_first[i + 1] += s->child_first[i];
		s->head_bone[i] = s->child_first[i];
	}
	for (int i = 0; i < n; i++) {
		if (s->parent[i] >= 0) {
			s->kids[s->head_bone[s->parent[i]]++] = i;
		}
	}
	for (int i = 0; i < n; i++) {
		s->head_bone[i] = -1;
		s->slot[i] = i + 1; // every node has a slot until the needed ones are known
	}
	// The rest pose with the root at identity, in every lane of the scratch pose.
	const lmat identity = identity_matrix();
	s->stride = n + 1;
	for (int i = 0; i < n; i++) {
		for (int ln = 0; ln < SKELETON_LANES; ln++) {
			set_lane_rest(&s->now[i + 1], ln, s->rest[i]);
		}
	}
	for (int i = 0; i < n; i++) {
		world_of(s, s->now, NULL, &identity, s->order[i]);
	}
	// Bones in the description's order.
	int b = 0, ref = 0;
	for (int sp_i = 0; sp_i < d->spring_count; sp_i++) {
		const spring_skeleton_spring *sp = &d->springs[sp_i];
		int bones = sp->has_end_tail ? sp->joint_count : sp->joint_count - 1;
		for (int k = 0; k < sp->collider_group_count; k++) {
			s->group_refs[ref + k] = sp->collider_groups[k];
		}
		for (int k = 0; k < bones; k++, b++) {
			bone *bn = &s->bones[b];
			const spring_skeleton_joint *j = &sp->joints[k];
			bn->head = j->node;
			bn->tail_node = k + 1 < sp->joint_count ? sp->joints[k + 1].node : -1;
			bn->spring = sp_i;
			bn->center = sp->center;
			bn->group_first = ref;
			bn->group_count = sp->collider_group_count;
			const double end_tail[3] = {sp->end_tail.x, sp->end_tail.y, sp->end_tail.z};
			bn->rest_length = skeleton_bone_rest(&s->world[bn->head], bn->tail_node >= 0 ? &s->world[bn->tail_node] : NULL,
			                                     end_tail, bn->tail_local);
			lane tl[3];
			fill_lanes3(tl, bn->tail_local);
			normalize(tl);
			for (int i = 0; i < 3; i++) {
				bn->axis[i] = tl[i][0];
			}
			memcpy(bn->q0, &s->rest[bn->head][3], sizeof bn->q0);
			const double *f = bn->axis;
			if (fabs(f[0]) > fabs(f[2])) {
				bn->along[0] = -f[1], bn->along[1] = f[0], bn->along[2] = 0.0;
			} else {
				bn->along[0] = 0.0, bn->along[1] = -f[2], bn->along[2] = f[1];
			}
			bn->along[3] = 0.0;
			bn->stiffness = j->stiffness;
			bn->drag = j->drag;
			bn->gravity_power = j->gravity_power;
			bn->gravity[0] = j->gravity_dir.x;
			bn->gravity[1] = j->gravity_dir.y;
			bn->gravity[2] = j->gravity_dir.z;
			bn->hit_radius = j->hit_radius;
			s->head_bone[bn->head] = b;
		}
		ref += sp->collider_group_count;
	}
	s->bone_count = b;
	// Update order: by the depth of the bone's spring's first joint (a spring hanging from another
	// spring's joint comes after it), then the description's order.
	for (int i = 0; i < b; i++) {
		s->bones[i].depth = depth_of(d->nodes, d->springs[s->bones[i].spring].joints[0].node);
	}
	for (int i = 0; i < b; i++) {
		s->update_order[i] = i;
	}
	for (int i = 1; i < b; i++) { // insertion sort: springs come nearly sorted
		int v = s->update_order[i], k = i - 1;
		while (k >= 0 && s->bones[s->update_order[k]].depth > s->bones[v].depth) {
			s->update_order[k + 1] = s->update_order[k];
			k--;
		}
		s->update_order[k + 1] = v;
	}
	s->collider_count = d->collider_count;
	if (d->collider_count) {
		memcpy(s->colliders, d->colliders, (size_t)d->collider_count * sizeof *s->colliders);
	}
	int m = 0;
	for (int g = 0; g < d->collider_group_count; g++) {
		s->group_first[g] = m;
		for (int k = 0; k < d->collider_groups[g].collider_count; k++) {
			s->group_members[m++] = d->collider_groups[g].colliders[k];
		}
	}
	s->group_first[d->collider_group_count] = m;
	// The nodes a step reads: every bone's head and tail, every collider's node, every centre, and
	// their ancestors; the steps compute and interpolate only those (an avatar's meshes and limbs
	// without springs cost nothing).
	for (int i = 0; i < b; i++) {
		mark_up(s, s->bones[i].head, NODE_NEEDED);
		if (s->bones[i].tail_node >= 0) {
			mark_up(s, s->bones[i].tail_node, NODE_NEEDED);
		}
		if (s->bones[i].center >= 0) {
			mark_up(s, s->bones[i].center, NODE_NEEDED);
			s->needed[s->bones[i].center] |= NODE_LOOKED_AT;
		}
	}
	for (int i = 0; i < d->collider_count; i++) {
		mark_up(s, d->colliders[i].node, NODE_NEEDED);
		s->needed[d->colliders[i].node] |= NODE_LOOKED_AT;
	}
	for (int i = 0; i < b; i++) {
		bone *bn = &s->bones[i];
		bn->head_read = (d->length == SPRING_SKELETON_LENGTH_MEASURED && bn->tail_node < 0) ||
		                (s->needed[bn->head] & NODE_LOOKED_AT);
	}
	mark_early(s);
	// Order: the nodes computed before the bones step, then the other needed nodes, then the rest,
	// each part in the tree's order (a stable partition: parents still come first).
	s->needed_count = s->early_count = 0;
	for (int i = 0; i < n; i++) {
		s->needed_count += (s->needed[s->order[i]] & NODE_NEEDED) != 0;
		s->early_count += (s->needed[s->order[i]] & NODE_EARLY) != 0;
	}
	int *sorted = (int *)(void *)s->world; // the rest matrices are not needed any more
	for (int i = 0, early = 0, later = s->early_count, rest = s->needed_count; i < n; i++) {
		int node = s->order[i];
		int *at = (s->needed[node] & NODE_EARLY) ? &early : (s->needed[node] & NODE_NEEDED) ? &later : &rest;
		sorted[(*at)++] = node;
	}
	memcpy(s->order, sorted, (size_t)n * sizeof *s->order);
	s->stride = 1 + s->needed_count;
	for (int i = 0; i < n; i++) {
		s->slot[i] = 0;
	}
	for (int k = 0; k < s->needed_count; k++) {
		s->slot[s->order[k]] = 1 + k;
	}
	// Every instance at rest in the rest pose, the root at identity.
	for (int blk = 0; blk < s->blocks; blk++) {
		llocal *to = &s->to[(size_t)blk * (size_t)s->stride];
		for (int ln = 0; ln < SKELETON_LANES; ln++) {
			static const double root_rest[7] = {0, 0, 0, 0, 0, 0, 1};
			set_lane_rest(&to[0], ln, root_rest);
			for (int k = 0; k < s->needed_count; k++) {
				set_lane_rest(&to[1 + k], ln, s->rest[s->order[k]]);
			}
		}
		memcpy(&s->from[(size_t)blk * (size_t)s->stride], to, (size_t)s->stride * sizeof *to);
		memcpy(&s->before[(size_t)blk * (size_t)s->stride], to, (size_t)s->stride * sizeof *to);
		rest_all(s, blk, (1u << SKELETON_LANES) - 1u, &identity);
	}
	*out = s;
	return SPRING_OK;
}

spring_result spring_skeleton_crowd_init(const spring_skeleton_crowd_desc *desc, void *memory, size_t size,
                                         spring_skeleton_crowd **out, spring_error *error)
{
	return crowd_init(desc, memory, size, out, CROWD, error);
}

SPRING_INTERNAL_DEFINE_CREATE(spring_skeleton_crowd, spring_skeleton_crowd, spring_skeleton_crowd_desc, CROWD)

void spring_skeleton_crowd_destroy(spring_skeleton_crowd *crowd)
{
	if (crowd) {
		spring_internal_destroy(crowd, &crowd->owner);
	}
}

spring_result spring_skeleton_init(const spring_skeleton_desc *desc, void *memory, size_t size, spring_skeleton **out,
                                   spring_error *error)
{
	spring_skeleton_crowd_desc one = {desc, 1};
	spring_skeleton_crowd *c = NULL;
	spring_result r = crowd_init(&one, memory, size, out ? &c : NULL, OBJECT, error);
	if (r == SPRING_OK) {
		*out = (spring_skeleton *)c;
	}
	return r;
}

SPRING_INTERNAL_DEFINE_CREATE_OWNER(spring_skeleton, spring_skeleton, spring_skeleton_desc, OBJECT, crowd.owner)

void spring_skeleton_destroy(spring_skeleton *skeleton)
{
	if (skeleton) {
		spring_internal_destroy(skeleton, &skeleton->crowd.owner);
	}
}

// ---------------------------------------------------------------------------------------------
// World matrices (one block: `now` its step's pose, `st` its bones' state)

static lmat parent_world(const spring_skeleton_crowd *s, const lmat *root, int node)
{
	int p = s->parent[node];
	return p >= 0 ? s->world[p] : *root;
}

static lmat node_local(const spring_skeleton_crowd *s, const llocal *now, const lbone *st, int node)
{
	const llocal *x = &now[s->slot[node]];
	int b = s->head_bone[node];
	return compose(x->t, b >= 0 && st ? st[b].q : x->q, s->scale[node], s->unit_scale[node]);
}

static void world_of(spring_skeleton_crowd *s, const llocal *now, const lbone *st, const lmat *root, int node)
{
	lmat p = parent_world(s, root, node), l = node_local(s, now, st, node);
	s->world[node] = mul(&p, &l);
}

// The nodes below `node` that are no bone's head, top-down (a head's own is made when it steps).
// Iterative: a validated tree is at most SPRING_SKELETON_MAX_DEPTH deep, so the stack is bounded.
// With `mark`, only marks them NODE_MADE (mark_early).
static void world_below(spring_skeleton_crowd *s, const llocal *now, const lbone *st, int node, bool mark)
{
	int stack[SPRING_SKELETON_MAX_DEPTH + 1], next[SPRING_SKELETON_MAX_DEPTH + 1], top = 0;
	stack[0] = node;
	next[0] = s->child_first[node];
	while (top >= 0) {
		int at = stack[top];
		if (next[top] >= s->child_first[at + 1]) {
			top--;
			continue;
		}
		int c = s->kids[next[top]++];
		if (s->head_bone[c] >= 0 || !(s->needed[c] & NODE_NEEDED)) {
			continue; // a head's own is made when it steps; nothing reads an unneeded node's
		}
		if (mark) {
			s->needed[c] |= NODE_MADE;
		} else {
			lmat l = node_local(s, now, st, c);
			s->world[c] = mul(&s->world[at], &l);
		}
		top++;
		stack[top] = c;
		next[top] = s->child_first[c];
	}
}

static void tail_world(const spring_skeleton_crowd *s, const bone *bn, lane out[3])
{
	if (bn->tail_node >= 0) {
		origin(&s->world[bn->tail_node], out);
	} else {
		point_const(&s->world[bn->head], bn->tail_local, out);
	}
}

// ---------------------------------------------------------------------------------------------
// The step

static lane collide(const spring_skeleton_crowd *s, const spring_skeleton_collider *c, const lane p[3], double hit, lane dir[3])
{
	const lmat *w = &s->world[c->node];
	const double off[3] = {c->offset.x, c->offset.y, c->offset.z}, tl[3] = {c->tail.x, c->tail.y, c->tail.z};
	lane a[3];
	point_const(w, off, a);
	lane delta[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
	if (c->type == SPRING_SKELETON_COLLIDER_PLANE) {
		lane inv[9];
		inverse3(w, inv); // a normal turns with the inverse transpose
		for (int i = 0; i < 3; i++) {
			dir[i] = inv[i] * tl[0] + inv[3 + i] * tl[1] + inv[6 + i] * tl[2];
		}
		normalize(dir);
		return dot(delta, dir) - hit;
	}
	if (c->type == SPRING_SKELETON_COLLIDER_CAPSULE || c->type == SPRING_SKELETON_COLLIDER_INSIDE_CAPSULE) {
		lane b[3], ab[3];
		point_const(w, tl, b);
		for (int i = 0; i < 3; i++) {
			ab[i] = b[i] - a[i];
		}
		lane along = dot(ab, delta), ab2 = dot(ab, ab);
		lane_mask low = along <= 0.0, high = along >= ab2;
		lane u = lselect(low, splat(0.0), lselect(high, splat(1.0), along / lselect(low | high, splat(1.0), ab2)));
		for (int i = 0; i < 3; i++) {
			delta[i] -= ab[i] * u;
		}
	}
	lane len = lsqrt(dot(delta, delta));
	bool inside = c->type == SPRING_SKELETON_COLLIDER_INSIDE_SPHERE || c->type == SPRING_SKELETON_COLLIDER_INSIDE_CAPSULE;
	lane_mask some = len > 0.0;
	lane by = lselect(some, len, splat(1.0));
	for (int i = 0; i < 3; i++) {
		dir[i] = lselect(some, (inside ? -delta[i] : delta[i]) / by, splat(0.0));
	}
	return inside ? (double)c->radius - hit - len : len - hit - (double)c->radius;
}

static void project(const lane head[3], lane length, lane p[3])
{
	lane dv[3] = {p[0] - head[0], p[1] - head[1], p[2] - head[2]};
	normalize(dv);
	for (int i = 0; i < 3; i++) {
		p[i] = head[i] + dv[i] * length;
	}
}

static void step_bone(spring_skeleton_crowd *s, const llocal *now, lbone *st, const lmat *root, int b)
{
	const bone *bn = &s->bones[b];
	lbone *x = &st[b];
	double dt = s->step;
	// The head's world with its rest rotation: its origin is the head's (a rotation does not move
	// it), its axis the rest direction of the tail.
	lmat pw = parent_world(s, root, bn->head);
	lane q0[4] = {splat(bn->q0[0]), splat(bn->q0[1]), splat(bn->q0[2]), splat(bn->q0[3])};
	lmat l0 = compose(now[s->slot[bn->head]].t, q0, s->scale[bn->head], s->unit_scale[bn->head]);
	lmat initial = mul(&pw, &l0);
	if (bn->head_read) {
		world_of(s, now, st, root, bn->head);
	}
	lane head[3];
	origin(&initial, head);
	lane length = splat(bn->rest_length);
	if (s->length == SPRING_SKELETON_LENGTH_MEASURED) {
		lane tw[3];
		tail_world(s, bn, tw); // the tail node where it stood before this bone's step
		lane dv[3] = {tw[0] - head[0], tw[1] - head[1], tw[2] - head[2]};
		length = lsqrt(dot(dv, dv));
	}
	lane next[3];
	for (int i = 0; i < 3; i++) {
		next[i] = x->cur[i] + (x->cur[i] - x->prev[i]) * (1.0 - bn->drag);
	}
	if (bn->center >= 0) {
		point(&s->world[bn->center], next, next);
	}
	lane axis[3];
	point_const(&initial, bn->axis, axis);
	for (int i = 0; i < 3; i++) {
		axis[i] -= head[i];
	}
	normalize(axis);
	for (int i = 0; i < 3; i++) {
		next[i] += axis[i] * (bn->stiffness * dt) + bn->gravity[i] * (bn->gravity_power * dt);
	}
	project(head, length, next);
	for (int k = 0; k < bn->group_count; k++) {
		int g = s->group_refs[bn->group_first + k];
		for (int m = s->group_first[g]; m < s->group_first[g + 1]; m++) {
			lane dir[3];
			lane dist = collide(s, &s->colliders[s->group_members[m]], next, bn->hit_radius, dir);
			lane_mask hit = dist < 0.0;
			if (any(hit)) {
				lane pushed[3];
				for (int i = 0; i < 3; i++) {
					pushed[i] = next[i] - dir[i] * dist;
				}
				project(head, length, pushed);
				for (int i = 0; i < 3; i++) {
					next[i] = lselect(hit, pushed[i], next[i]);
				}
			}
		}
	}
	memcpy(x->prev, x->cur, sizeof x->cur);
	if (bn->center >= 0) {
		lmat inv = inverse(&s->world[bn->center]);
		point(&inv, next, x->cur);
	} else {
		memcpy(x->cur, next, sizeof next);
	}
	memcpy(x->tail_before, x->tail_step, sizeof next);
	memcpy(x->tail_step, next, sizeof next);
	memcpy(x->q_before, x->q, sizeof x->q);
	lmat inv = inverse(&initial);
	lane to[3], turn[4];
	point(&inv, next, to);
	normalize(to);
	from_to(bn, to, turn);
	qmul(q0, turn, x->q);
	world_of(s, now, st, root, bn->head);
	world_below(s, now, st, bn->head, false);
}

// One step of block `blk` with the pose in `now` (its root at slot 0).
static void step_block(spring_skeleton_crowd *s, int blk)
{
	const llocal *now = s->now;
	lbone *st = &s->state[(size_t)blk * (size_t)s->bone_count];
	lmat rm = root_matrix(&now[0]);
	for (int i = 0; i < s->early_count; i++) {
		world_of(s, now, st, &rm, s->order[i]);
	}
	lane_mask resting = (lane_mask){0} - 1;
	for (int k = 0; k < s->bone_count; k++) {
		int b = s->update_order[k];
		step_bone(s, now, st, &rm, b);
		const lbone *x = &st[b];
		lane dv[3] = {x->tail_step[0] - x->tail_before[0], x->tail_step[1] - x->tail_before[1],
		              x->tail_step[2] - x->tail_before[2]};
		resting &= lsqrt(dot(dv, dv)) <= 1e-6 * s->bones[b].rest_length;
	}
	for (int l = 0; l < SKELETON_LANES; l++) {
		s->resting[blk * SKELETON_LANES + l] = resting[l] != 0 ? REST_STEPPED : 0;
	}
}

// ---------------------------------------------------------------------------------------------
// Input

// Whether a transform surely passes check_xform's tests, without branches: NaN and infinities
// carry through the sums and fail the comparisons; the sum of |coordinates| bounds each of them,
// the rotation's squared length in float is taken with a margin. A transform that fails this
// goes to the exact test.
static bool xform_fine(const spring_xform3 *x)
{
	float pos = fabsf(x->position.x) + fabsf(x->position.y) + fabsf(x->position.z);
	float qq = x->rotation.x * x->rotation.x + x->rotation.y * x->rotation.y + x->rotation.z * x->rotation.z +
	           x->rotation.w * x->rotation.w;
	return (pos <= SPRING_SKELETON_MAX_COORDINATE) & (qq >= 2e-12f) & (qq <= 1e30f);
}

static spring_result check_xform(spring_xform3 x)
{
	const float v[7] = {x.position.x, x.position.y, x.position.z, x.rotation.x, x.rotation.y, x.rotation.z, x.rotation.w};
	if (!spring_internal_all_finite(v, 7)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	for (int k = 0; k < 3; k++) {
		if (fabsf(v[k]) > SPRING_SKELETON_MAX_COORDINATE) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	double qq = (double)v[3] * v[3] + (double)v[4] * v[4] + (double)v[5] * v[5] + (double)v[6] * v[6];
	return qq >= 1e-12 ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

// `instances` poses: roots[i] and locals[i * node_count ...]. The first fault of the first bad
// transform (each instance's root before its nodes).
static spring_result check_poses(const spring_skeleton_crowd *s, const spring_xform3 *roots, const spring_xform3 *locals,
                                 int count, int instances)
{
	if (!s || !roots || (!locals && count > 0)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (count != s->node_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	bool fine = true;
	for (int i = 0; i < instances; i++) {
		fine &= xform_fine(&roots[i]);
	}
	size_t total = (size_t)instances * (size_t)count;
	for (size_t i = 0; i < total; i++) {
		fine &= xform_fine(&locals[i]);
	}
	if (fine) {
		return SPRING_OK;
	}
	for (int i = 0; i < instances; i++) {
		spring_result r = check_xform(roots[i]);
		for (int k = 0; r == SPRING_OK && k < count; k++) {
			r = check_xform(locals[(size_t)i * (size_t)count + (size_t)k]);
		}
		if (r != SPRING_OK) {
			return r;
		}
	}
	return SPRING_OK;
}

// Instance `i`'s pose into lane i % lanes of its block's `to` (the root at slot 0).
static void take_pose(spring_skeleton_crowd *s, int i, spring_xform3 root, const spring_xform3 *locals)
{
	llocal *to = block_pose(s->to, s, i / SKELETON_LANES);
	int l = i % SKELETON_LANES;
	set_lane(&to[0], l, root);
	for (int k = 0; k < s->needed_count; k++) {
		set_lane(&to[1 + k], l, locals[s->order[k]]);
	}
}

// The lanes past the last instance follow the last instance (finite, and never read).
static void fill_spare_lanes(spring_skeleton_crowd *s, const spring_xform3 *roots, const spring_xform3 *locals)
{
	int last = s->count - 1;
	for (int i = s->count; i < s->blocks * SKELETON_LANES; i++) {
		take_pose(s, i, roots[last], locals + (size_t)last * (size_t)s->node_count);
	}
}

// Lane l of a block: the earlier frames are this one's (no interpolation from before a reset or
// a jump).
static void forget_frames(spring_skeleton_crowd *s, int blk, int l)
{
	llocal *to = block_pose(s->to, s, blk), *from = block_pose(s->from, s, blk), *before = block_pose(s->before, s, blk);
	for (int k = 0; k < s->stride; k++) {
		copy_lane(from[k].t, to[k].t, 3, l);
		copy_lane(from[k].q, to[k].q, 4, l);
		copy_lane(before[k].t, to[k].t, 3, l);
		copy_lane(before[k].q, to[k].q, 4, l);
	}
	s->frames[blk].dt_from[l] = 0.0;
	s->frames[blk].dt_to[l] = 0.0;
}

// Rest and sleep: the lanes (a bit each) of block `blk` that rested at their last step (not only
// placed at rest by a reset: the rest pose need not be at rest under gravity) and whose
// pose this frame is the last frame's, number for number. Their steps would only creep towards
// the fixed point below the rest threshold: they sleep instead, their state kept as it is.
static unsigned asleep_lanes(const spring_skeleton_crowd *s, int blk)
{
	const llocal *from = block_pose(s->from, s, blk), *to = block_pose(s->to, s, blk);
	unsigned asleep = 0;
	for (int l = 0; l < SKELETON_LANES; l++) {
		bool same = s->resting[blk * SKELETON_LANES + l] == REST_STEPPED;
		for (int k = 0; k < s->stride && same; k++) {
			for (int c = 0; c < 3; c++) {
				same = same && from[k].t[c][l] == to[k].t[c][l];
			}
			for (int c = 0; c < 4; c++) {
				same = same && from[k].q[c][l] == to[k].q[c][l];
			}
		}
		asleep |= same ? 1u << l : 0u;
	}
	return asleep;
}

// The sleeping lanes of block `blk`: their bones back as they were before this frame's steps
// (`stepped`: the steps ran for the other lanes; s->saved holds the state before them), still
// (the last two steps equal, so the interpolated pose is the stepped one) and resting.
static void sleep_lanes(spring_skeleton_crowd *s, int blk, unsigned asleep, bool stepped)
{
	lbone *st = &s->state[(size_t)blk * (size_t)s->bone_count];
	for (int l = 0; l < SKELETON_LANES; l++) {
		if (!(asleep & (1u << l))) {
			continue;
		}
		for (int b = 0; b < s->bone_count; b++) {
			lbone *x = &st[b];
			if (stepped) {
				const lbone *was = &s->saved[b];
				copy_lane(x->cur, was->cur, 3, l);
				copy_lane(x->prev, was->prev, 3, l);
				copy_lane(x->q, was->q, 4, l);
				copy_lane(x->tail_step, was->tail_step, 3, l);
			}
			copy_lane(x->tail_before, x->tail_step, 3, l);
			copy_lane(x->q_before, x->q, 4, l);
		}
		s->resting[blk * SKELETON_LANES + l] = REST_STEPPED;
	}
}

spring_result spring_skeleton_crowd_update(spring_skeleton_crowd *s, const spring_xform3 *roots, const spring_xform3 *locals,
                                           int count, float frame_dt)
{
	spring_result r = check_poses(s, roots, locals, count, s ? s->count : 0);
	if (r != SPRING_OK) {
		return r;
	}
	if (!spring_internal_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_clock clock = s->clock;
	int steps = spring_clock_advance(&clock, frame_dt);
	if (steps < 0) {
		return (spring_result)(-steps);
	}
	s->clock = clock;
	// The three frames turn round (no copy).
	llocal *oldest = s->before;
	s->before = s->from;
	s->from = s->to;
	s->to = oldest;
	for (int blk = 0; blk < s->blocks; blk++) {
		s->frames[blk].dt_from = s->frames[blk].dt_to;
		s->frames[blk].dt_to = splat(frame_dt);
	}
	for (int i = 0; i < s->count; i++) {
		take_pose(s, i, roots[i], locals + (size_t)i * (size_t)count);
	}
	fill_spare_lanes(s, roots, locals);
	for (int blk = 0; blk < s->blocks && steps > 0; blk++) {
		unsigned asleep = asleep_lanes(s, blk), all_lanes = (1u << SKELETON_LANES) - 1u;
		lbone *st = &s->state[(size_t)blk * (size_t)s->bone_count];
		if (asleep != all_lanes) {
			if (asleep) {
				memcpy(s->saved, st, (size_t)s->bone_count * sizeof *st);
			}
			for (int k = 0; k < steps; k++) {
				weights w = make_weights(&s->frames[blk], spring_clock_substep_fraction(&s->clock, k, steps));
				const llocal *a = block_pose(s->before, s, blk), *b = block_pose(s->from, s, blk), *c = block_pose(s->to, s, blk);
				for (int slot = 0; slot < s->stride; slot++) {
					blend3(&a[slot], &b[slot], &c[slot], &w, &s->now[slot]);
				}
				step_block(s, blk);
			}
		}
		if (asleep) {
			sleep_lanes(s, blk, asleep, asleep != all_lanes);
		}
	}
	return SPRING_OK;
}

// Puts the bones of the lanes in `lanes` (a bit each) of block `blk` at rest under the pose in
// its `to` with root matrix `root` (the root's own when NULL).
static void rest_all(spring_skeleton_crowd *s, int blk, unsigned lanes, const lmat *root)
{
	const llocal *to = block_pose(s->to, s, blk);
	lbone *st = &s->state[(size_t)blk * (size_t)s->bone_count];
	lbone rest;
	for (int b = 0; b < s->bone_count; b++) {
		for (int k = 0; k < 4; k++) {
			rest.q[k] = splat(s->bones[b].q0[k]);
		}
		for (int l = 0; l < SKELETON_LANES; l++) {
			if (lanes & (1u << l)) {
				copy_lane(st[b].q, rest.q, 4, l);
			}
		}
	}
	lmat rm = root ? *root : root_matrix(&to[0]);
	for (int k = 0; k < s->needed_count; k++) {
		world_of(s, to, st, &rm, s->order[k]);
	}
	for (int b = 0; b < s->bone_count; b++) {
		const bone *bn = &s->bones[b];
		lane tw[3], cur[3];
		tail_world(s, bn, tw);
		memcpy(cur, tw, sizeof tw);
		if (bn->center >= 0) {
			lmat inv = inverse(&s->world[bn->center]);
			point(&inv, tw, cur);
		}
		for (int l = 0; l < SKELETON_LANES; l++) {
			if (lanes & (1u << l)) {
				copy_lane(st[b].tail_step, tw, 3, l);
				copy_lane(st[b].tail_before, tw, 3, l);
				copy_lane(st[b].q_before, st[b].q, 4, l);
				copy_lane(st[b].cur, cur, 3, l);
				copy_lane(st[b].prev, cur, 3, l);
			}
		}
	}
	for (int l = 0; l < SKELETON_LANES; l++) {
		if (lanes & (1u << l)) {
			s->resting[blk * SKELETON_LANES + l] = REST_PLACED;
		}
	}
}

// Instance i at rest under its pose (already checked); the clock is the caller's.
static void reset_instance(spring_skeleton_crowd *s, int i, spring_xform3 root, const spring_xform3 *locals)
{
	int blk = i / SKELETON_LANES, l = i % SKELETON_LANES;
	take_pose(s, i, root, locals);
	forget_frames(s, blk, l);
	rest_all(s, blk, 1u << l, NULL);
}

spring_result spring_skeleton_crowd_reset(spring_skeleton_crowd *s, const spring_xform3 *roots, const spring_xform3 *locals,
                                          int count)
{
	spring_result r = check_poses(s, roots, locals, count, s ? s->count : 0);
	if (r != SPRING_OK) {
		return r;
	}
	for (int i = 0; i < s->count; i++) {
		reset_instance(s, i, roots[i], locals + (size_t)i * (size_t)count);
	}
	for (int i = s->count; i < s->blocks * SKELETON_LANES; i++) {
		reset_instance(s, i, roots[s->count - 1], locals + (size_t)(s->count - 1) * (size_t)count);
	}
	spring_clock_init(&s->clock, s->clock.step, s->clock.max_steps);
	return SPRING_OK;
}

spring_result spring_skeleton_crowd_reset_instance(spring_skeleton_crowd *s, int instance, spring_xform3 root,
                                                   const spring_xform3 *locals, int count)
{
	spring_result r = check_instance(s, instance);
	r = r != SPRING_OK ? r : check_poses(s, &root, locals, count, 1);
	if (r != SPRING_OK) {
		return r;
	}
	reset_instance(s, instance, root, locals);
	return SPRING_OK;
}

// x' = D x for the rigid D taking the old root to the new one, in lane l.
static void move_lane(const lmat *d, lane p[3], int l)
{
	lane moved[3];
	point(d, p, moved);
	copy_lane(p, moved, 3, l);
}

spring_result spring_skeleton_crowd_teleport(spring_skeleton_crowd *s, int instance, spring_xform3 root,
                                             const spring_xform3 *locals, int count)
{
	spring_result r = check_instance(s, instance);
	r = r != SPRING_OK ? r : check_poses(s, &root, locals, count, 1);
	if (r != SPRING_OK) {
		return r;
	}
	int blk = instance / SKELETON_LANES, l = instance % SKELETON_LANES;
	lmat old_root = root_matrix(&block_pose(s->to, s, blk)[0]);
	take_pose(s, instance, root, locals);
	lmat new_root = root_matrix(&block_pose(s->to, s, blk)[0]), inv = inverse(&old_root);
	lmat d = mul(&new_root, &inv);
	lbone *st = &s->state[(size_t)blk * (size_t)s->bone_count];
	for (int b = 0; b < s->bone_count; b++) {
		if (s->bones[b].center < 0) { // a centre's space moves with the avatar already
			move_lane(&d, st[b].cur, l);
			move_lane(&d, st[b].prev, l);
		}
		move_lane(&d, st[b].tail_step, l);
		move_lane(&d, st[b].tail_before, l);
	}
	forget_frames(s, blk, l);
	if (s->resting[instance]) { // at rest, but gravity may now pull another way: measured again before it sleeps
		s->resting[instance] = REST_PLACED;
	}
	return SPRING_OK;
}

spring_result spring_skeleton_reset(spring_skeleton *skeleton, spring_xform3 root, const spring_xform3 *locals, int count)
{
	return spring_skeleton_crowd_reset(skeleton ? &skeleton->crowd : NULL, &root, locals, count);
}

spring_result spring_skeleton_update(spring_skeleton *skeleton, spring_xform3 root, const spring_xform3 *locals, int count,
                                     float frame_dt)
{
	return spring_skeleton_crowd_update(skeleton ? &skeleton->crowd : NULL, &root, locals, count, frame_dt);
}

spring_result spring_skeleton_teleport(spring_skeleton *skeleton, spring_xform3 root, const spring_xform3 *locals, int count)
{
	return spring_skeleton_crowd_teleport(skeleton ? &skeleton->crowd : NULL, 0, root, locals, count);
}
