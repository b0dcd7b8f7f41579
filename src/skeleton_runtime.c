// SPDX-License-Identifier: MIT
// Spring skeletons: the runtime (spring/skeleton.h). Each step is the VRM specification's update
// in double (only +, -, *, / and sqrt, so the same bits on every platform), at the authoring rate,
// on the fixed-step clock; the host's pose is interpolated across a frame's steps.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/skeleton.h"

#include "base_internal.h"
#include "skeleton_internal.h"
#include "spring_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define OBJECT "skeleton"

typedef spring_internal_affine mat;

typedef struct bone {
	int head, tail_node; // tail_node -1: the spring's end tail
	int spring, center, depth;
	int group_first, group_count; // into group_refs
	bool head_read;               // the step reads the head's own matrix before it turns (a collider
	                              // or a centre on it, or a measured end tail)
	double tail_local[3];         // the tail at rest in the head's space
	double axis[3];               // tail_local, unit
	double rest_length;
	double q0[4]; // the head's rest rotation
	double stiffness, drag, gravity_power, gravity[3], hit_radius;
	double cur[3], prev[3];              // the tail, in the centre's space (world without one)
	double q[4];                         // the head's local rotation now
	double tail_step[3], tail_before[3]; // the tail in world at the last step and the one before
	double q_before[4];                  // the rotation at the step before
} bone;

typedef struct local_d {
	double t[3], q[4];
} local_d;

struct spring_skeleton {
	spring_internal_owner owner;
	spring_clock clock;
	spring_skeleton_length length;
	double step;
	int node_count, bone_count, collider_count;
	int needed_count; // the first needed_count nodes of `order` are the ones the steps read,
	int early_count;  // of which the first early_count are read before a bone's step makes them
	bool resting;
	int *parent;           // [node_count]
	int *order;            // parents first; the nodes the steps need (needed_count) before the others
	unsigned char *needed; // node -> NODE_* flags
	int *child_first;      // [node_count + 1]
	int *kids;
	int *head_bone;    // node -> bone, -1
	int *update_order; // bones, a spring hanging from another's joint after it
	double (*scale)[3];
	local_d *before, *from, *to, *now; // the pose two frames ago, the previous frame's, this one's, this step's
	local_d root_before, root_from, root_to;
	double dt_from, dt_to; // the previous frame's length and this one's
	mat *world;
	bone *bones;
	spring_skeleton_collider *colliders;
	int *group_first; // [group_count + 1] into group_members
	int *group_members;
	int *group_refs; // per bone's spring
};

// ---------------------------------------------------------------------------------------------
// Layout

typedef struct layout {
	size_t parent, order, needed, child_first, kids, head_bone, update_order, scale, before, from, to, now, world, bones,
		colliders, group_first, group_members, group_refs, size;
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

static layout make_layout(const spring_skeleton_desc *d)
{
	layout l;
	size_t n = (size_t)d->node_count, b = (size_t)bone_total(d), members = 0, refs = 0;
	for (int g = 0; g < d->collider_group_count; g++) {
		members += (size_t)d->collider_groups[g].collider_count;
	}
	for (int s = 0; s < d->spring_count; s++) {
		refs += (size_t)d->springs[s].collider_group_count;
	}
	size_t at = spring_internal_align16(sizeof(spring_skeleton));
	l.parent = take(&at, n, sizeof(int));
	l.order = take(&at, n, sizeof(int));
	l.needed = take(&at, n, 1);
	l.child_first = take(&at, n + 1, sizeof(int));
	l.kids = take(&at, n, sizeof(int));
	l.head_bone = take(&at, n, sizeof(int));
	l.update_order = take(&at, b, sizeof(int));
	l.scale = take(&at, n, 3 * sizeof(double));
	l.before = take(&at, n, sizeof(local_d));
	l.from = take(&at, n, sizeof(local_d));
	l.to = take(&at, n, sizeof(local_d));
	l.now = take(&at, n, sizeof(local_d));
	l.world = take(&at, n, sizeof(mat));
	l.bones = take(&at, b, sizeof(bone));
	l.colliders = take(&at, (size_t)d->collider_count, sizeof(spring_skeleton_collider));
	l.group_first = take(&at, (size_t)d->collider_group_count + 1, sizeof(int));
	l.group_members = take(&at, members, sizeof(int));
	l.group_refs = take(&at, refs, sizeof(int));
	l.size = at;
	return l;
}

size_t spring_skeleton_memory_size(const spring_skeleton_desc *desc)
{
	if (spring_skeleton_validate(desc, NULL) != SPRING_OK) {
		return 0;
	}
	layout l = make_layout(desc);
	return spring_internal_size_fits(l.size) ? l.size : 0;
}

// ---------------------------------------------------------------------------------------------
// Maths in double

static mat compose(const local_d *l, const double s[3])
{
	return spring_internal_affine_compose(l->t, l->q, s);
}

static void origin(const mat *a, double out[3])
{
	out[0] = a->m[3];
	out[1] = a->m[7];
	out[2] = a->m[11];
}

static void inverse3(const mat *a, double inv[9])
{
	spring_internal_affine_inverse3(a, inv);
}

static mat inverse(const mat *a)
{
	return spring_internal_affine_inverse(a);
}

static void point(const mat *a, const double p[3], double out[3])
{
	spring_internal_affine_point(a, p[0], p[1], p[2], out);
}

static double dot(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalize(double v[3])
{
	double len = sqrt(dot(v, v));
	if (len > 0.0) {
		v[0] /= len, v[1] /= len, v[2] /= len;
	}
}

static void qmul(const double a[4], const double b[4], double out[4])
{
	double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
	               a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
	memcpy(out, r, sizeof r);
}

static void qnormalize(double q[4])
{
	double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	for (int k = 0; k < 4; k++) {
		q[k] /= len;
	}
}

// Shortest arc from unit `f` to unit `t`: (f x t, 1 + f . t) normalised.
static void from_to(const double f[3], const double t[3], double q[4])
{
	double r = dot(f, t) + 1.0;
	if (r < 1e-15) {
		if (fabs(f[0]) > fabs(f[2])) {
			q[0] = -f[1], q[1] = f[0], q[2] = 0.0;
		} else {
			q[0] = 0.0, q[1] = -f[2], q[2] = f[1];
		}
		q[3] = 0.0;
	} else {
		q[0] = f[1] * t[2] - f[2] * t[1];
		q[1] = f[2] * t[0] - f[0] * t[2];
		q[2] = f[0] * t[1] - f[1] * t[0];
		q[3] = r;
	}
	qnormalize(q);
}

// a + (b - a) u for translations, shortest-path nlerp for rotations.
static void blend(const local_d *a, const local_d *b, double u, local_d *out)
{
	double sign = a->q[0] * b->q[0] + a->q[1] * b->q[1] + a->q[2] * b->q[2] + a->q[3] * b->q[3] < 0.0 ? -1.0 : 1.0;
	for (int k = 0; k < 3; k++) {
		out->t[k] = a->t[k] + (b->t[k] - a->t[k]) * u;
	}
	for (int k = 0; k < 4; k++) {
		out->q[k] = a->q[k] + (sign * b->q[k] - a->q[k]) * u;
	}
	qnormalize(out->q);
}

// The pose at fraction u of a frame from `b` (its start) to `c` (its end), `a` the frame before:
// the parabola through the three (frames of dt_ab then dt_bc seconds), rotations per component
// on one hemisphere and normalised. A frame more than four times as long or short as the one
// before (a hitch, a first frame) takes the straight line instead: a parabola would overshoot.
// The weights are the same for every node of a step: blend3_weights makes them once.
typedef struct blend3_weights {
	bool line; // the straight line from b to c at u
	double u, la, lb, lc;
} blend3_weights;

static blend3_weights make_blend3_weights(double dt_ab, double dt_bc, double u)
{
	blend3_weights w = {true, u, 0.0, 0.0, 0.0};
	if (!(dt_ab > 0.0) || dt_bc > 4.0 * dt_ab || dt_ab > 4.0 * dt_bc) {
		return w;
	}
	double x = u * dt_bc, h = dt_bc, p = dt_ab;
	w.line = false;
	w.la = x * (x - h) / (p * (p + h));
	w.lb = -(x + p) * (x - h) / (p * h);
	w.lc = (x + p) * x / ((h + p) * h);
	return w;
}

static void blend3(const local_d *a, const local_d *b, const local_d *c, const blend3_weights *w, local_d *out)
{
	if (w->line) {
		blend(b, c, w->u, out);
		return;
	}
	double la = w->la, lb = w->lb, lc = w->lc;
	for (int k = 0; k < 3; k++) {
		out->t[k] = la * a->t[k] + lb * b->t[k] + lc * c->t[k];
	}
	double sa = b->q[0] * a->q[0] + b->q[1] * a->q[1] + b->q[2] * a->q[2] + b->q[3] * a->q[3] < 0.0 ? -1.0 : 1.0;
	double sc = b->q[0] * c->q[0] + b->q[1] * c->q[1] + b->q[2] * c->q[2] + b->q[3] * c->q[3] < 0.0 ? -1.0 : 1.0;
	for (int k = 0; k < 4; k++) {
		out->q[k] = la * sa * a->q[k] + lb * b->q[k] + lc * sc * c->q[k];
	}
	qnormalize(out->q);
}

static local_d to_local(spring_xform3 x)
{
	local_d l = {{x.position.x, x.position.y, x.position.z}, {x.rotation.x, x.rotation.y, x.rotation.z, x.rotation.w}};
	qnormalize(l.q);
	return l;
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

static void world_of(spring_skeleton *s, const mat *root, int node);

enum {
	NODE_NEEDED = 1,    // a bone, a tail, a collider or a centre depends on the node
	NODE_LOOKED_AT = 2, // a collider or a centre is on it
	NODE_EARLY = 4,     // computed before the bones step (read before a bone's step makes it)
	NODE_MADE = 8       // mark_early's scratch: made already in this step
};

// Marks a node and its ancestors with `flag`.
static void mark_up(spring_skeleton *s, int node, unsigned char flag)
{
	for (int at = node; at >= 0 && !(s->needed[at] & flag); at = s->parent[at]) {
		s->needed[at] |= flag;
	}
}

// Marks a node and its ancestors as read by the steps.
static void mark_needed(spring_skeleton *s, int node)
{
	mark_up(s, node, NODE_NEEDED);
}

static void world_below(spring_skeleton *s, int node, bool mark);

// A step read `node`'s matrix: if no bone's step has made it yet, it and its ancestors are
// computed before the bones step.
static void read_node(spring_skeleton *s, int node)
{
	if (node >= 0 && !(s->needed[node] & NODE_MADE)) {
		mark_up(s, node, NODE_EARLY);
	}
}

// Goes through a step's reads and writes of node matrices in the bones' order (step_bone's), and
// marks NODE_EARLY the nodes read before they are made, with their ancestors: only those are
// computed ahead (the same numbers as computing every needed node ahead, for less work).
static void mark_early(spring_skeleton *s)
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
		world_below(s, bn->head, true);
	}
	for (int i = 0; i < s->node_count; i++) {
		s->needed[i] &= (unsigned char)~NODE_MADE;
	}
}

spring_result spring_skeleton_init(const spring_skeleton_desc *d, void *memory, size_t size, spring_skeleton **out,
                                   spring_error *error)
{
	spring_result r = spring_skeleton_validate(d, error);
	if (r != SPRING_OK) {
		return r;
	}
	if (!out) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, OBJECT, SPRING_ELEMENT_NONE, -1, "", "out is NULL");
	}
	layout l = make_layout(d);
	if (!memory || size < l.size || ((uintptr_t)memory & 15u) != 0) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, OBJECT, SPRING_ELEMENT_NONE, -1, "memory",
		                               "memory must be 16-byte aligned and hold %zu bytes", l.size);
	}
	unsigned char *base = (unsigned char *)memory;
	memset(base, 0, l.size);
	spring_skeleton *s = (spring_skeleton *)base;
	s->parent = (int *)(base + l.parent);
	s->order = (int *)(base + l.order);
	s->needed = (unsigned char *)(base + l.needed);
	s->child_first = (int *)(base + l.child_first);
	s->kids = (int *)(base + l.kids);
	s->head_bone = (int *)(base + l.head_bone);
	s->update_order = (int *)(base + l.update_order);
	s->scale = (double(*)[3])(base + l.scale);
	s->before = (local_d *)(base + l.before);
	s->from = (local_d *)(base + l.from);
	s->to = (local_d *)(base + l.to);
	s->now = (local_d *)(base + l.now);
	s->world = (mat *)(base + l.world);
	s->bones = (bone *)(base + l.bones);
	s->colliders = (spring_skeleton_collider *)(base + l.colliders);
	s->group_first = (int *)(base + l.group_first);
	s->group_members = (int *)(base + l.group_members);
	s->group_refs = (int *)(base + l.group_refs);
	int n = d->node_count;
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
	}
	// Rest pose with the root at identity.
	for (int i = 0; i < n; i++) {
		const spring_skeleton_node *nd = &d->nodes[i];
		s->now[i].t[0] = nd->translation.x;
		s->now[i].t[1] = nd->translation.y;
		s->now[i].t[2] = nd->translation.z;
		spring_internal_skeleton_node_rotation(nd, s->now[i].q);
	}
	mat identity = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
	for (int i = 0; i < n; i++) {
		world_of(s, &identity, s->order[i]);
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
			if (bn->tail_node >= 0) {
				mat inv = inverse(&s->world[bn->head]);
				double tw[3];
				origin(&s->world[bn->tail_node], tw);
				point(&inv, tw, bn->tail_local);
			} else {
				bn->tail_local[0] = sp->end_tail.x;
				bn->tail_local[1] = sp->end_tail.y;
				bn->tail_local[2] = sp->end_tail.z;
			}
			memcpy(bn->axis, bn->tail_local, sizeof bn->axis);
			normalize(bn->axis);
			double hw[3], tw[3];
			origin(&s->world[bn->head], hw);
			point(&s->world[bn->head], bn->tail_local, tw);
			double dv[3] = {tw[0] - hw[0], tw[1] - hw[1], tw[2] - hw[2]};
			bn->rest_length = sqrt(dot(dv, dv));
			spring_internal_skeleton_node_rotation(&d->nodes[bn->head], bn->q0);
			memcpy(bn->q, bn->q0, sizeof bn->q);
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
		mark_needed(s, s->bones[i].head);
		if (s->bones[i].tail_node >= 0) {
			mark_needed(s, s->bones[i].tail_node);
		}
		if (s->bones[i].center >= 0) {
			mark_needed(s, s->bones[i].center);
		}
	}
	for (int i = 0; i < d->collider_count; i++) {
		mark_needed(s, d->colliders[i].node);
		s->needed[d->colliders[i].node] |= NODE_LOOKED_AT;
	}
	for (int i = 0; i < b; i++) {
		if (s->bones[i].center >= 0) {
			s->needed[s->bones[i].center] |= NODE_LOOKED_AT;
		}
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
	int *scratch = (int *)(void *)s->before; // not in use yet: it is filled below
	for (int i = 0, early = 0, later = s->early_count, rest = s->needed_count; i < n; i++) {
		int node = s->order[i];
		int *at = (s->needed[node] & NODE_EARLY) ? &early : (s->needed[node] & NODE_NEEDED) ? &later : &rest;
		scratch[(*at)++] = node;
	}
	memcpy(s->order, scratch, (size_t)n * sizeof *s->order);
	// At rest in the rest pose.
	memcpy(s->from, s->now, (size_t)n * sizeof *s->from);
	memcpy(s->before, s->now, (size_t)n * sizeof *s->before);
	memcpy(s->to, s->now, (size_t)n * sizeof *s->to);
	s->root_before = s->root_from = s->root_to = (local_d){{0, 0, 0}, {0, 0, 0, 1}};
	for (int i = 0; i < b; i++) {
		bone *bn = &s->bones[i];
		double tw[3];
		if (bn->tail_node >= 0) {
			origin(&s->world[bn->tail_node], tw);
		} else {
			point(&s->world[bn->head], bn->tail_local, tw);
		}
		memcpy(bn->cur, tw, sizeof tw);
		memcpy(bn->prev, tw, sizeof tw);
		memcpy(bn->tail_step, tw, sizeof tw);
		memcpy(bn->tail_before, tw, sizeof tw);
		memcpy(bn->q_before, bn->q, sizeof bn->q);
	}
	s->resting = true;
	*out = s;
	return SPRING_OK;
}

SPRING_INTERNAL_DEFINE_CREATE(spring_skeleton, spring_skeleton, spring_skeleton_desc, OBJECT)

void spring_skeleton_destroy(spring_skeleton *skeleton)
{
	if (skeleton) {
		spring_internal_destroy(skeleton, &skeleton->owner);
	}
}

// ---------------------------------------------------------------------------------------------
// World matrices

static mat parent_world(const spring_skeleton *s, const mat *root, int node)
{
	int p = s->parent[node];
	return p >= 0 ? s->world[p] : *root;
}

static mat node_local(const spring_skeleton *s, int node)
{
	int b = s->head_bone[node];
	if (b < 0) {
		return compose(&s->now[node], s->scale[node]);
	}
	local_d l = s->now[node];
	memcpy(l.q, s->bones[b].q, sizeof l.q);
	return compose(&l, s->scale[node]);
}

static void world_of(spring_skeleton *s, const mat *root, int node)
{
	mat p = parent_world(s, root, node), l = node_local(s, node);
	s->world[node] = spring_internal_affine_mul(&p, &l);
}

// The nodes below `node` that are no bone's head, top-down (a head's own is made when it steps).
// Iterative: a validated tree is at most SPRING_SKELETON_MAX_DEPTH deep, so the stack is bounded.
// With `mark`, only marks them NODE_MADE (mark_early).
static void world_below(spring_skeleton *s, int node, bool mark)
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
			mat l = node_local(s, c);
			s->world[c] = spring_internal_affine_mul(&s->world[at], &l);
		}
		top++;
		stack[top] = c;
		next[top] = s->child_first[c];
	}
}

static mat root_matrix(const local_d *root)
{
	static const double one[3] = {1.0, 1.0, 1.0};
	return compose(root, one);
}

static void tail_world(const spring_skeleton *s, const bone *bn, double out[3])
{
	if (bn->tail_node >= 0) {
		origin(&s->world[bn->tail_node], out);
	} else {
		point(&s->world[bn->head], bn->tail_local, out);
	}
}

// ---------------------------------------------------------------------------------------------
// The step

static double collide(const spring_skeleton *s, const spring_skeleton_collider *c, const double p[3], double hit, double dir[3])
{
	const mat *w = &s->world[c->node];
	double a[3], off[3] = {c->offset.x, c->offset.y, c->offset.z}, tl[3] = {c->tail.x, c->tail.y, c->tail.z};
	point(w, off, a);
	double delta[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
	if (c->type == SPRING_SKELETON_COLLIDER_PLANE) {
		double inv[9];
		inverse3(w, inv); // a normal turns with the inverse transpose
		for (int i = 0; i < 3; i++) {
			dir[i] = inv[i] * tl[0] + inv[3 + i] * tl[1] + inv[6 + i] * tl[2];
		}
		normalize(dir);
		return dot(delta, dir) - hit;
	}
	if (c->type == SPRING_SKELETON_COLLIDER_CAPSULE || c->type == SPRING_SKELETON_COLLIDER_INSIDE_CAPSULE) {
		double b[3], ab[3];
		point(w, tl, b);
		for (int i = 0; i < 3; i++) {
			ab[i] = b[i] - a[i];
		}
		double along = dot(ab, delta), ab2 = dot(ab, ab);
		double u = along <= 0.0 ? 0.0 : (along >= ab2 ? 1.0 : along / ab2);
		for (int i = 0; i < 3; i++) {
			delta[i] -= ab[i] * u;
		}
	}
	double len = sqrt(dot(delta, delta));
	bool inside = c->type == SPRING_SKELETON_COLLIDER_INSIDE_SPHERE || c->type == SPRING_SKELETON_COLLIDER_INSIDE_CAPSULE;
	for (int i = 0; i < 3; i++) {
		dir[i] = len > 0.0 ? (inside ? -delta[i] : delta[i]) / len : 0.0;
	}
	return inside ? (double)c->radius - hit - len : len - hit - (double)c->radius;
}

static void project(const double head[3], double length, double p[3])
{
	double dv[3] = {p[0] - head[0], p[1] - head[1], p[2] - head[2]};
	normalize(dv);
	for (int i = 0; i < 3; i++) {
		p[i] = head[i] + dv[i] * length;
	}
}

static void step_bone(spring_skeleton *s, const mat *root, bone *bn)
{
	double dt = s->step;
	// The head's world with its rest rotation: its origin is the head's (a rotation does not move
	// it), its axis the rest direction of the tail.
	mat pw = parent_world(s, root, bn->head);
	local_d rest = s->now[bn->head];
	memcpy(rest.q, bn->q0, sizeof rest.q);
	mat l0 = compose(&rest, s->scale[bn->head]);
	mat initial = spring_internal_affine_mul(&pw, &l0);
	if (bn->head_read) {
		world_of(s, root, bn->head);
	}
	double head[3];
	origin(&initial, head);
	double length = bn->rest_length;
	if (s->length == SPRING_SKELETON_LENGTH_MEASURED) {
		double tw[3];
		tail_world(s, bn, tw); // the tail node where it stood before this bone's step
		double dv[3] = {tw[0] - head[0], tw[1] - head[1], tw[2] - head[2]};
		length = sqrt(dot(dv, dv));
	}
	double next[3];
	for (int i = 0; i < 3; i++) {
		next[i] = bn->cur[i] + (bn->cur[i] - bn->prev[i]) * (1.0 - bn->drag);
	}
	if (bn->center >= 0) {
		point(&s->world[bn->center], next, next);
	}
	double axis[3];
	point(&initial, bn->axis, axis);
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
			double dir[3];
			double dist = collide(s, &s->colliders[s->group_members[m]], next, bn->hit_radius, dir);
			if (dist < 0.0) {
				for (int i = 0; i < 3; i++) {
					next[i] -= dir[i] * dist;
				}
				project(head, length, next);
			}
		}
	}
	memcpy(bn->prev, bn->cur, sizeof bn->cur);
	if (bn->center >= 0) {
		mat inv = inverse(&s->world[bn->center]);
		point(&inv, next, bn->cur);
	} else {
		memcpy(bn->cur, next, sizeof next);
	}
	memcpy(bn->tail_before, bn->tail_step, sizeof next);
	memcpy(bn->tail_step, next, sizeof next);
	memcpy(bn->q_before, bn->q, sizeof bn->q);
	mat inv = inverse(&initial);
	double to[3], turn[4];
	point(&inv, next, to);
	normalize(to);
	from_to(bn->axis, to, turn);
	qmul(bn->q0, turn, bn->q);
	world_of(s, root, bn->head);
	world_below(s, bn->head, false);
}

// One step with the pose `now` and the root `root`.
static void step(spring_skeleton *s, const local_d *root)
{
	mat rm = root_matrix(root);
	for (int i = 0; i < s->early_count; i++) {
		world_of(s, &rm, s->order[i]);
	}
	bool resting = true;
	for (int k = 0; k < s->bone_count; k++) {
		bone *bn = &s->bones[s->update_order[k]];
		step_bone(s, &rm, bn);
		double dv[3] = {bn->tail_step[0] - bn->tail_before[0], bn->tail_step[1] - bn->tail_before[1],
		                bn->tail_step[2] - bn->tail_before[2]};
		resting = resting && sqrt(dot(dv, dv)) <= 1e-6 * bn->rest_length;
	}
	s->resting = resting;
}

// ---------------------------------------------------------------------------------------------
// Input

// Whether a transform passes check_pose's tests, without branches (NaN fails every comparison).
static bool xform_fine(const spring_xform3 *x)
{
	const float m = SPRING_SKELETON_MAX_COORDINATE;
	// In float, against twice check_pose's bound: a length near the bound goes to the exact test.
	float qq = x->rotation.x * x->rotation.x + x->rotation.y * x->rotation.y + x->rotation.z * x->rotation.z +
	           x->rotation.w * x->rotation.w;
	return (fabsf(x->position.x) <= m) & (fabsf(x->position.y) <= m) & (fabsf(x->position.z) <= m) &
	       (fabsf(x->rotation.x) <= FLT_MAX) & (fabsf(x->rotation.y) <= FLT_MAX) & (fabsf(x->rotation.z) <= FLT_MAX) &
	       (fabsf(x->rotation.w) <= FLT_MAX) & (qq >= 2e-12f);
}

static spring_result check_pose(const spring_skeleton *s, spring_xform3 root, const spring_xform3 *locals, int count)
{
	if (!s || (!locals && count > 0)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (count != s->node_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	bool fine = xform_fine(&root);
	for (int i = 0; i < count; i++) {
		fine &= xform_fine(&locals[i]);
	}
	if (fine) {
		return SPRING_OK;
	}
	for (int i = -1; i < count; i++) { // which fault, the first transform's first
		spring_xform3 x = i < 0 ? root : locals[i];
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
		if (!(qq >= 1e-12)) {
			return SPRING_ERROR_OUT_OF_RANGE;
		}
	}
	return SPRING_OK;
}

// The pose of the earlier frames is this one's (no interpolation from before a reset or a jump).
static void forget_frames(spring_skeleton *s)
{
	memcpy(s->from, s->to, (size_t)s->node_count * sizeof *s->from);
	memcpy(s->before, s->to, (size_t)s->node_count * sizeof *s->before);
	s->root_from = s->root_before = s->root_to;
	s->dt_from = s->dt_to = 0.0;
}

// The three frames turn round (no copy); only the nodes the steps read are taken from the host's
// pose (the others keep their rest transforms in all three).
static void set_pose(spring_skeleton *s, spring_xform3 root, const spring_xform3 *locals, double frame_dt)
{
	local_d *oldest = s->before;
	s->before = s->from;
	s->from = s->to;
	s->to = oldest;
	s->root_before = s->root_from;
	s->root_from = s->root_to;
	s->dt_from = s->dt_to;
	s->dt_to = frame_dt;
	for (int k = 0; k < s->needed_count; k++) {
		int i = s->order[k];
		s->to[i] = to_local(locals[i]);
	}
	s->root_to = to_local(root);
}

spring_result spring_skeleton_update(spring_skeleton *s, spring_xform3 root, const spring_xform3 *locals, int count,
                                     float frame_dt)
{
	spring_result r = check_pose(s, root, locals, count);
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
	set_pose(s, root, locals, frame_dt);
	for (int k = 0; k < steps; k++) {
		double f = spring_clock_substep_fraction(&s->clock, k, steps);
		blend3_weights w = make_blend3_weights(s->dt_from, s->dt_to, f);
		local_d rt;
		blend3(&s->root_before, &s->root_from, &s->root_to, &w, &rt);
		for (int k2 = 0; k2 < s->needed_count; k2++) {
			int i = s->order[k2];
			blend3(&s->before[i], &s->from[i], &s->to[i], &w, &s->now[i]);
		}
		step(s, &rt);
	}
	return SPRING_OK;
}

// Puts every bone at rest under the pose already in `now` with root `root`.
static void rest_under(spring_skeleton *s, const local_d *root)
{
	mat rm = root_matrix(root);
	for (int b = 0; b < s->bone_count; b++) {
		memcpy(s->bones[b].q, s->bones[b].q0, sizeof s->bones[b].q);
	}
	for (int i = 0; i < s->node_count; i++) {
		world_of(s, &rm, s->order[i]);
	}
	for (int b = 0; b < s->bone_count; b++) {
		bone *bn = &s->bones[b];
		double tw[3];
		tail_world(s, bn, tw);
		memcpy(bn->tail_step, tw, sizeof tw);
		memcpy(bn->tail_before, tw, sizeof tw);
		memcpy(bn->q_before, bn->q, sizeof bn->q);
		if (bn->center >= 0) {
			mat inv = inverse(&s->world[bn->center]);
			point(&inv, tw, tw);
		}
		memcpy(bn->cur, tw, sizeof tw);
		memcpy(bn->prev, tw, sizeof tw);
	}
	s->resting = true;
}

spring_result spring_skeleton_reset(spring_skeleton *s, spring_xform3 root, const spring_xform3 *locals, int count)
{
	spring_result r = check_pose(s, root, locals, count);
	if (r != SPRING_OK) {
		return r;
	}
	set_pose(s, root, locals, 0.0);
	forget_frames(s);
	memcpy(s->now, s->to, (size_t)s->node_count * sizeof *s->now);
	spring_clock_init(&s->clock, s->clock.step, s->clock.max_steps);
	rest_under(s, &s->root_to);
	return SPRING_OK;
}

// x' = D x for the rigid D taking the old root to the new one.
static void move_point(const mat *d, double p[3])
{
	point(d, p, p);
}

spring_result spring_skeleton_teleport(spring_skeleton *s, spring_xform3 root, const spring_xform3 *locals, int count)
{
	spring_result r = check_pose(s, root, locals, count);
	if (r != SPRING_OK) {
		return r;
	}
	mat old_root = root_matrix(&s->root_to);
	set_pose(s, root, locals, 0.0);
	mat new_root = root_matrix(&s->root_to), inv = inverse(&old_root);
	mat d = spring_internal_affine_mul(&new_root, &inv);
	for (int b = 0; b < s->bone_count; b++) {
		bone *bn = &s->bones[b];
		if (bn->center < 0) { // a centre's space moves with the avatar already
			move_point(&d, bn->cur);
			move_point(&d, bn->prev);
		}
		move_point(&d, bn->tail_step);
		move_point(&d, bn->tail_before);
	}
	forget_frames(s);
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Output

int spring_skeleton_bone_count(const spring_skeleton *s)
{
	return s ? s->bone_count : 0;
}

static spring_result get(const spring_skeleton *s, double alpha, int *nodes, spring_quat *rotations, spring_vec3 *tails,
                         int capacity)
{
	if (!s) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_internal_room(capacity, s->bone_count);
	if (r != SPRING_OK) {
		return r;
	}
	for (int b = 0; b < s->bone_count; b++) {
		const bone *bn = &s->bones[b];
		if (nodes) {
			nodes[b] = bn->head;
		}
		if (rotations) {
			local_d a, z, q;
			memcpy(a.q, bn->q_before, sizeof a.q);
			memcpy(z.q, bn->q, sizeof z.q);
			memset(a.t, 0, sizeof a.t);
			memset(z.t, 0, sizeof z.t);
			blend(&a, &z, alpha, &q);
			rotations[b] = (spring_quat){(float)q.q[0], (float)q.q[1], (float)q.q[2], (float)q.q[3]};
		}
		if (tails) {
			double t[3];
			for (int i = 0; i < 3; i++) {
				t[i] = bn->tail_before[i] + (bn->tail_step[i] - bn->tail_before[i]) * alpha;
			}
			tails[b] = spring_vec3_make((float)t[0], (float)t[1], (float)t[2]);
		}
	}
	return SPRING_OK;
}

spring_result spring_skeleton_get_pose(const spring_skeleton *s, int *nodes, spring_quat *rotations, spring_vec3 *tails,
                                       int capacity)
{
	return get(s, s ? (double)s->clock.alpha : 0.0, nodes, rotations, tails, capacity);
}

spring_result spring_skeleton_get_stepped_pose(const spring_skeleton *s, int *nodes, spring_quat *rotations, spring_vec3 *tails,
                                               int capacity)
{
	return get(s, 1.0, nodes, rotations, tails, capacity);
}

spring_result spring_skeleton_get_rest_lengths(const spring_skeleton *s, float *lengths, int capacity)
{
	if (!s || !lengths) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_internal_room(capacity, s->bone_count);
	if (r != SPRING_OK) {
		return r;
	}
	for (int b = 0; b < s->bone_count; b++) {
		lengths[b] = (float)s->bones[b].rest_length;
	}
	return SPRING_OK;
}

bool spring_skeleton_is_resting(const spring_skeleton *s)
{
	return s && s->resting;
}

const spring_clock *spring_skeleton_clock(const spring_skeleton *s)
{
	return s ? &s->clock : NULL;
}

// ---------------------------------------------------------------------------------------------
// Snapshots: the state field by field after the header (the block holds pointers), every field
// visited by one function for writing, checking and reading, so the three cannot disagree.

enum { IO_WRITE, IO_CHECK, IO_READ };

typedef enum io_check {
	CHECK_POSITION, // finite, |x| <= 1e9 (tails, centre-space tails, interpolated poses)
	CHECK_POSE,     // finite, |x| <= SPRING_SKELETON_MAX_COORDINATE (the host's poses)
	CHECK_TIME,     // finite, in [0, FLT_MAX]
	CHECK_QUAT      // four finite numbers of length 1 within 1e-6
} io_check;

typedef struct io {
	unsigned char *p;
	int mode;
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

static void io_doubles(io *c, double *x, int n, io_check check, spring_element element, int index, const char *field)
{
	size_t bytes = (size_t)n * sizeof(double);
	if (c->mode == IO_WRITE) {
		memcpy(c->p, x, bytes);
	} else if (c->mode == IO_READ) {
		memcpy(x, c->p, bytes);
	} else {
		double v[4];
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

static void io_local(io *c, local_d *l, io_check check, spring_element element, int index, const char *field)
{
	io_doubles(c, l->t, 3, check, element, index, field);
	io_doubles(c, l->q, 4, CHECK_QUAT, element, index, field);
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

static void io_state(spring_skeleton *s, io *c)
{
	io_clock(c, &s->clock);
	int32_t resting = s->resting ? 1 : 0;
	if (c->mode == IO_CHECK) {
		memcpy(&resting, c->p, sizeof resting);
		if (resting != 0 && resting != 1) {
			io_fault(c, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "resting", "must be 0 or 1");
		}
		c->p += sizeof resting;
	} else {
		io_raw(c, &resting, sizeof resting);
		if (c->mode == IO_READ) {
			s->resting = resting != 0;
		}
	}
	io_doubles(c, &s->dt_from, 1, CHECK_TIME, SPRING_ELEMENT_NONE, -1, "dt_from");
	io_doubles(c, &s->dt_to, 1, CHECK_TIME, SPRING_ELEMENT_NONE, -1, "dt_to");
	io_local(c, &s->root_before, CHECK_POSE, SPRING_ELEMENT_NONE, -1, "root_before");
	io_local(c, &s->root_from, CHECK_POSE, SPRING_ELEMENT_NONE, -1, "root_from");
	io_local(c, &s->root_to, CHECK_POSE, SPRING_ELEMENT_NONE, -1, "root_to");
	for (int i = 0; i < s->node_count; i++) {
		io_local(c, &s->before[i], CHECK_POSE, SPRING_ELEMENT_NODE, i, "before");
		io_local(c, &s->from[i], CHECK_POSE, SPRING_ELEMENT_NODE, i, "from");
		io_local(c, &s->to[i], CHECK_POSE, SPRING_ELEMENT_NODE, i, "to");
		io_local(c, &s->now[i], CHECK_POSITION, SPRING_ELEMENT_NODE, i, "now");
	}
	for (int b = 0; b < s->bone_count; b++) {
		bone *bn = &s->bones[b];
		io_doubles(c, bn->cur, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "cur");
		io_doubles(c, bn->prev, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "prev");
		io_doubles(c, bn->q, 4, CHECK_QUAT, SPRING_ELEMENT_BONE, b, "rotation");
		io_doubles(c, bn->tail_step, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "tail_step");
		io_doubles(c, bn->tail_before, 3, CHECK_POSITION, SPRING_ELEMENT_BONE, b, "tail_before");
		io_doubles(c, bn->q_before, 4, CHECK_QUAT, SPRING_ELEMENT_BONE, b, "rotation_before");
	}
}

static size_t state_size(const spring_skeleton *s)
{
	size_t clock = 4 * sizeof(float) + sizeof(int) + sizeof(float) + sizeof(int) + sizeof(int32_t) + sizeof(double);
	return clock + sizeof(int32_t) + 2 * sizeof(double) + 3 * sizeof(local_d) + (size_t)s->node_count * 4 * sizeof(local_d) +
	       (size_t)s->bone_count * 20 * sizeof(double);
}

// What a blob must have been made by: the same tree, bones and settings.
static uint64_t skeleton_shape(const spring_skeleton *s)
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
	return h;
}

size_t spring_skeleton_snapshot_size(const spring_skeleton *s)
{
	return s ? SPRING_SNAPSHOT_HEADER_BYTES + state_size(s) : 0;
}

spring_result spring_skeleton_snapshot(const spring_skeleton *s, void *blob, size_t size)
{
	if (!s || !blob) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (size < spring_skeleton_snapshot_size(s)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_internal_snapshot_write_header(SPRING_SNAPSHOT_SKELETON, skeleton_shape(s), state_size(s), blob);
	io c = {(unsigned char *)blob + SPRING_SNAPSHOT_HEADER_BYTES, IO_WRITE, SPRING_OK, SPRING_ELEMENT_NONE, -1, "", ""};
	io_state((spring_skeleton *)s, &c); // writing reads the object only
	return SPRING_OK;
}

spring_result spring_skeleton_restore(spring_skeleton *s, const void *blob, size_t size, spring_error *error)
{
	if (!s) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, OBJECT, SPRING_ELEMENT_NONE, -1, "",
		                               "the skeleton is NULL");
	}
	const unsigned char *body = NULL;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_SKELETON, skeleton_shape(s), state_size(s),
	                                                  OBJECT, error, &body);
	if (r != SPRING_OK) {
		return r;
	}
	io c = {(unsigned char *)(uintptr_t)body, IO_CHECK, SPRING_OK, SPRING_ELEMENT_NONE, -1, "", ""};
	io_state(s, &c);
	if (c.result != SPRING_OK) {
		return spring_internal_snapshot_bad(error, c.result, OBJECT, c.element, c.index, c.field, c.reason);
	}
	c.p = (unsigned char *)(uintptr_t)body;
	c.mode = IO_READ;
	io_state(s, &c);
	return SPRING_OK;
}
