// SPDX-License-Identifier: MIT
// The VRM spring-bone reference (vrm_reference.h).
#include "vrm_reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Affine 3x4, row-major: p' = L p + t (t in m[3], m[7], m[11]).
typedef struct mat {
	double m[12];
} mat;

static mat compose(const double t[3], const double q[4], const double s[3])
{
	double x = q[0], y = q[1], z = q[2], w = q[3];
	double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
	               2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
	               2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
	mat a;
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			a.m[i * 4 + j] = r[i * 3 + j] * s[j];
		}
		a.m[i * 4 + 3] = t[i];
	}
	return a;
}

static mat mul(const mat *a, const mat *b)
{
	mat c;
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 4; j++) {
			double v = a->m[i * 4 + 0] * b->m[j] + a->m[i * 4 + 1] * b->m[4 + j] + a->m[i * 4 + 2] * b->m[8 + j];
			c.m[i * 4 + j] = j == 3 ? v + a->m[i * 4 + 3] : v;
		}
	}
	return c;
}

static void point(const mat *a, const double p[3], double out[3])
{
	double r[3];
	for (int i = 0; i < 3; i++) {
		r[i] = a->m[i * 4] * p[0] + a->m[i * 4 + 1] * p[1] + a->m[i * 4 + 2] * p[2] + a->m[i * 4 + 3];
	}
	memcpy(out, r, sizeof r);
}

static void origin(const mat *a, double out[3])
{
	out[0] = a->m[3];
	out[1] = a->m[7];
	out[2] = a->m[11];
}

// The inverse of the linear part (cofactors) and the affine inverse.
static void inverse3(const mat *a, double inv[9])
{
	const double *m = a->m;
	double c00 = m[5] * m[10] - m[6] * m[9], c01 = m[6] * m[8] - m[4] * m[10], c02 = m[4] * m[9] - m[5] * m[8];
	double det = m[0] * c00 + m[1] * c01 + m[2] * c02;
	inv[0] = c00 / det;
	inv[1] = (m[2] * m[9] - m[1] * m[10]) / det;
	inv[2] = (m[1] * m[6] - m[2] * m[5]) / det;
	inv[3] = c01 / det;
	inv[4] = (m[0] * m[10] - m[2] * m[8]) / det;
	inv[5] = (m[2] * m[4] - m[0] * m[6]) / det;
	inv[6] = c02 / det;
	inv[7] = (m[1] * m[8] - m[0] * m[9]) / det;
	inv[8] = (m[0] * m[5] - m[1] * m[4]) / det;
}

static mat inverse(const mat *a)
{
	double l[9];
	inverse3(a, l);
	mat r;
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			r.m[i * 4 + j] = l[i * 3 + j];
		}
		r.m[i * 4 + 3] = -(l[i * 3] * a->m[3] + l[i * 3 + 1] * a->m[7] + l[i * 3 + 2] * a->m[11]);
	}
	return r;
}

static double dot(const double a[3], const double b[3])
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalize(double v[3])
{
	double len = sqrt(dot(v, v));
	if (len > 0.0) {
		v[0] /= len;
		v[1] /= len;
		v[2] /= len;
	}
}

// a * b (Hamilton)
static void qmul(const double a[4], const double b[4], double out[4])
{
	double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
	               a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
	memcpy(out, r, sizeof r);
}

// The shortest-arc rotation taking unit `from` onto unit `to`: (from x to, 1 + from . to)
// normalised; opposite vectors turn half-way about an axis perpendicular to `from`.
static void from_to(const double f[3], const double t[3], double q[4])
{
	double r = dot(f, t) + 1.0;
	if (r < 2.220446049250313e-16) {
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
	double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	for (int k = 0; k < 4; k++) {
		q[k] /= len;
	}
}

typedef struct bone {
	int head, tail_node; // tail_node -1: the spring's end tail
	int spring;
	double tail_local[3];   // the tail at rest in the head's space
	double axis[3];         // tail_local, unit
	double rest_length;     // world, at rest
	double q0[4];           // the head's rest rotation
	double cur[3], prev[3]; // the tail, in the centre's space (world without one)
	double q[4];            // the head's rotation now
	double out_tail[3];     // the tail in world after the last update
	const spring_skeleton_joint *joint;
} bone;

struct vrm_reference {
	const spring_skeleton_desc *d;
	bool measured;
	int n;
	int *order;       // nodes, parents first
	int *child_first; // children of node i: kids[child_first[i] .. child_first[i + 1])
	int *kids;
	int *head_bone; // node -> its bone, -1 when the node is no bone's head
	double (*rest_s)[3];
	mat *world;
	vrm_ref_local *local;
	int bone_count;
	bone *bones; // in update order
};

static void rest_rotation(const spring_skeleton_node *nd, double q[4])
{
	double x = nd->rotation.x, y = nd->rotation.y, z = nd->rotation.z, w = nd->rotation.w;
	double len = sqrt(x * x + y * y + z * z + w * w);
	if (len == 0.0) {
		q[0] = q[1] = q[2] = 0.0;
		q[3] = 1.0;
		return;
	}
	q[0] = x / len, q[1] = y / len, q[2] = z / len, q[3] = w / len;
}

static int depth_of(const spring_skeleton_desc *d, int node)
{
	int depth = 0;
	for (int at = d->nodes[node].parent; at >= 0; at = d->nodes[at].parent) {
		depth++;
	}
	return depth;
}

static mat parent_world(const vrm_reference *r, const mat *root, int node)
{
	int p = r->d->nodes[node].parent;
	return p >= 0 ? r->world[p] : *root;
}

static mat node_local(const vrm_reference *r, int node)
{
	const vrm_ref_local *l = &r->local[node];
	int b = r->head_bone[node];
	return compose(l->t, b >= 0 ? r->bones[b].q : l->q, r->rest_s[node]);
}

static void world_of(vrm_reference *r, const mat *root, int node)
{
	mat p = parent_world(r, root, node), l = node_local(r, node);
	r->world[node] = mul(&p, &l);
}

// The world matrices of the nodes below `node` that are no bone's head (theirs are computed when
// they are stepped), top-down.
static void world_below(vrm_reference *r, int node)
{
	for (int k = r->child_first[node]; k < r->child_first[node + 1]; k++) {
		int c = r->kids[k];
		if (r->head_bone[c] >= 0) {
			continue;
		}
		mat l = node_local(r, c);
		r->world[c] = mul(&r->world[node], &l);
		world_below(r, c);
	}
}

static int compare_depth(const void *a, const void *b)
{
	const int *x = (const int *)a, *y = (const int *)b;
	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

vrm_reference *vrm_reference_create(const spring_skeleton_desc *d, bool measured_length)
{
	vrm_reference *r = (vrm_reference *)calloc(1, sizeof *r);
	if (!r) {
		return NULL;
	}
	int n = d->node_count;
	r->d = d;
	r->measured = measured_length;
	r->n = n;
	int bones = 0;
	for (int s = 0; s < d->spring_count; s++) {
		bones += d->springs[s].has_end_tail ? d->springs[s].joint_count : d->springs[s].joint_count - 1;
	}
	r->order = (int *)calloc((size_t)n, sizeof(int));
	r->child_first = (int *)calloc((size_t)n + 1u, sizeof(int));
	r->kids = (int *)calloc((size_t)n, sizeof(int));
	r->head_bone = (int *)malloc((size_t)n * sizeof(int));
	r->rest_s = (double(*)[3])calloc((size_t)n, sizeof *r->rest_s);
	r->world = (mat *)calloc((size_t)n, sizeof(mat));
	r->local = (vrm_ref_local *)calloc((size_t)n, sizeof(vrm_ref_local));
	r->bones = (bone *)calloc((size_t)(bones ? bones : 1), sizeof(bone));
	int(*keyed)[2] = (int(*)[2])calloc((size_t)n, sizeof *keyed);
	int(*spring_order)[2] = (int(*)[2])calloc((size_t)(d->spring_count ? d->spring_count : 1), sizeof *spring_order);
	if (!r->order || !r->child_first || !r->kids || !r->head_bone || !r->rest_s || !r->world || !r->local || !r->bones ||
	    !keyed || !spring_order) {
		free(keyed);
		free(spring_order);
		vrm_reference_destroy(r);
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		keyed[i][0] = depth_of(d, i);
		keyed[i][1] = i;
		const spring_skeleton_node *nd = &d->nodes[i];
		bool unset = nd->scale.x == 0.0f && nd->scale.y == 0.0f && nd->scale.z == 0.0f;
		r->rest_s[i][0] = unset ? 1.0 : nd->scale.x;
		r->rest_s[i][1] = unset ? 1.0 : nd->scale.y;
		r->rest_s[i][2] = unset ? 1.0 : nd->scale.z;
		r->head_bone[i] = -1;
		if (nd->parent >= 0) {
			r->child_first[nd->parent + 1]++;
		}
	}
	qsort(keyed, (size_t)n, sizeof *keyed, compare_depth);
	for (int i = 0; i < n; i++) {
		r->order[i] = keyed[i][1];
		r->child_first[i + 1] += r->child_first[i];
	}
	int *fill = keyed[0]; // reuse as a cursor per node (n ints fit in 2n)
	memcpy(fill, r->child_first, (size_t)n * sizeof(int));
	for (int i = 0; i < n; i++) {
		int p = d->nodes[i].parent;
		if (p >= 0) {
			r->kids[fill[p]++] = i;
		}
	}
	// Springs whose first joint hangs deeper come later: a spring hanging from another spring's
	// joint is stepped after it.
	for (int s = 0; s < d->spring_count; s++) {
		spring_order[s][0] = depth_of(d, d->springs[s].joints[0].node);
		spring_order[s][1] = s;
	}
	qsort(spring_order, (size_t)d->spring_count, sizeof *spring_order, compare_depth);
	// Rest pose in the model's space (root at identity), for tails and rest lengths.
	for (int i = 0; i < n; i++) {
		const spring_skeleton_node *nd = &d->nodes[i];
		r->local[i].t[0] = nd->translation.x;
		r->local[i].t[1] = nd->translation.y;
		r->local[i].t[2] = nd->translation.z;
		rest_rotation(nd, r->local[i].q);
	}
	mat identity = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
	for (int i = 0; i < n; i++) {
		world_of(r, &identity, r->order[i]);
	}
	int b = 0;
	for (int o = 0; o < d->spring_count; o++) {
		int s = spring_order[o][1];
		const spring_skeleton_spring *sp = &d->springs[s];
		int count = sp->has_end_tail ? sp->joint_count : sp->joint_count - 1;
		for (int k = 0; k < count; k++, b++) {
			bone *bn = &r->bones[b];
			bn->spring = s;
			bn->joint = &sp->joints[k];
			bn->head = sp->joints[k].node;
			bn->tail_node = k + 1 < sp->joint_count ? sp->joints[k + 1].node : -1;
			if (bn->tail_node >= 0) {
				mat inv = inverse(&r->world[bn->head]);
				double tw[3];
				origin(&r->world[bn->tail_node], tw);
				point(&inv, tw, bn->tail_local);
			} else {
				bn->tail_local[0] = sp->end_tail.x;
				bn->tail_local[1] = sp->end_tail.y;
				bn->tail_local[2] = sp->end_tail.z;
			}
			memcpy(bn->axis, bn->tail_local, sizeof bn->axis);
			normalize(bn->axis);
			double hw[3], tw[3];
			origin(&r->world[bn->head], hw);
			point(&r->world[bn->head], bn->tail_local, tw);
			double dv[3] = {tw[0] - hw[0], tw[1] - hw[1], tw[2] - hw[2]};
			bn->rest_length = sqrt(dot(dv, dv));
			rest_rotation(&d->nodes[bn->head], bn->q0);
			memcpy(bn->q, bn->q0, sizeof bn->q);
			r->head_bone[bn->head] = b;
		}
	}
	r->bone_count = b;
	free(keyed);
	free(spring_order);
	return r;
}

void vrm_reference_destroy(vrm_reference *r)
{
	if (!r) {
		return;
	}
	free(r->order);
	free(r->child_first);
	free(r->kids);
	free(r->head_bone);
	free(r->rest_s);
	free(r->world);
	free(r->local);
	free(r->bones);
	free(r);
}

static mat root_matrix(const vrm_ref_local *root)
{
	static const double one[3] = {1, 1, 1};
	return compose(root->t, root->q, one);
}

// The pose: every node's local transform, then every world matrix.
static void apply_pose(vrm_reference *r, const mat *root, const vrm_ref_local *locals)
{
	memcpy(r->local, locals, (size_t)r->n * sizeof *r->local);
	for (int i = 0; i < r->n; i++) {
		world_of(r, root, r->order[i]);
	}
}

static void tail_world(const vrm_reference *r, const bone *b, double out[3])
{
	if (b->tail_node >= 0) {
		origin(&r->world[b->tail_node], out);
	} else {
		point(&r->world[b->head], b->tail_local, out);
	}
}

static int center_of(const vrm_reference *r, const bone *b)
{
	return r->d->springs[b->spring].center;
}

void vrm_reference_reset(vrm_reference *r, const vrm_ref_local *root, const vrm_ref_local *locals)
{
	for (int b = 0; b < r->bone_count; b++) {
		memcpy(r->bones[b].q, r->bones[b].q0, sizeof r->bones[b].q);
	}
	mat rm = root_matrix(root);
	apply_pose(r, &rm, locals);
	for (int b = 0; b < r->bone_count; b++) {
		bone *bn = &r->bones[b];
		double tw[3];
		tail_world(r, bn, tw);
		memcpy(bn->out_tail, tw, sizeof tw);
		int c = center_of(r, bn);
		if (c >= 0) {
			mat inv = inverse(&r->world[c]);
			point(&inv, tw, tw);
		}
		memcpy(bn->cur, tw, sizeof tw);
		memcpy(bn->prev, tw, sizeof tw);
	}
}

// How far `p` (with radius `hit`) is inside collider `c` (negative: inside), and the direction
// that pushes it out.
static double collide(const vrm_reference *r, const spring_skeleton_collider *c, const double p[3], double hit, double dir[3])
{
	const mat *w = &r->world[c->node];
	double a[3], off[3] = {c->offset.x, c->offset.y, c->offset.z}, tl[3] = {c->tail.x, c->tail.y, c->tail.z};
	point(w, off, a);
	if (c->type == SPRING_SKELETON_COLLIDER_PLANE) {
		double inv[9];
		inverse3(w, inv); // the normal goes through the inverse transpose
		for (int i = 0; i < 3; i++) {
			dir[i] = inv[i] * tl[0] + inv[3 + i] * tl[1] + inv[6 + i] * tl[2];
		}
		normalize(dir);
		double dv[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
		return dot(dv, dir) - hit;
	}
	double delta[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
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
	double distance = inside ? c->radius - hit - len : len - hit - c->radius;
	for (int i = 0; i < 3; i++) {
		dir[i] = len > 0.0 ? (inside ? -delta[i] : delta[i]) / len : 0.0;
	}
	return distance;
}

static void project(const double head[3], double length, double p[3])
{
	double dv[3] = {p[0] - head[0], p[1] - head[1], p[2] - head[2]};
	normalize(dv);
	for (int i = 0; i < 3; i++) {
		p[i] = head[i] + dv[i] * length;
	}
}

static void step_bone(vrm_reference *r, const mat *root, bone *bn, double dt)
{
	const spring_skeleton_desc *d = r->d;
	const spring_skeleton_joint *j = bn->joint;
	world_of(r, root, bn->head);
	double head[3];
	origin(&r->world[bn->head], head);
	double length = bn->rest_length;
	if (r->measured) {
		double tw[3];
		tail_world(r, bn, tw); // the tail node as it stood before this joint's step
		double dv[3] = {tw[0] - head[0], tw[1] - head[1], tw[2] - head[2]};
		length = sqrt(dot(dv, dv));
	}
	// Inertia in the centre's space, then stiffness and gravity in world space.
	double next[3];
	for (int i = 0; i < 3; i++) {
		next[i] = bn->cur[i] + (bn->cur[i] - bn->prev[i]) * (1.0 - (double)j->drag);
	}
	int c = center_of(r, bn);
	if (c >= 0) {
		point(&r->world[c], next, next);
	}
	mat pw = parent_world(r, root, bn->head);
	mat l0 = compose(r->local[bn->head].t, bn->q0, r->rest_s[bn->head]);
	mat initial = mul(&pw, &l0);
	double axis[3];
	point(&initial, bn->axis, axis);
	for (int i = 0; i < 3; i++) {
		axis[i] -= head[i];
	}
	normalize(axis);
	double g[3] = {j->gravity_dir.x, j->gravity_dir.y, j->gravity_dir.z};
	for (int i = 0; i < 3; i++) {
		next[i] += axis[i] * ((double)j->stiffness * dt) + g[i] * ((double)j->gravity_power * dt);
	}
	project(head, length, next);
	const spring_skeleton_spring *sp = &d->springs[bn->spring];
	for (int k = 0; k < sp->collider_group_count; k++) {
		const spring_skeleton_collider_group *grp = &d->collider_groups[sp->collider_groups[k]];
		for (int m = 0; m < grp->collider_count; m++) {
			double dir[3];
			double dist = collide(r, &d->colliders[grp->colliders[m]], next, j->hit_radius, dir);
			if (dist < 0.0) {
				for (int i = 0; i < 3; i++) {
					next[i] -= dir[i] * dist;
				}
				project(head, length, next);
			}
		}
	}
	memcpy(bn->prev, bn->cur, sizeof bn->cur);
	memcpy(bn->out_tail, next, sizeof next);
	if (c >= 0) {
		mat inv = inverse(&r->world[c]);
		point(&inv, next, bn->cur);
	} else {
		memcpy(bn->cur, next, sizeof next);
	}
	// The rotation that points the rest axis at the new tail, after the rest rotation.
	mat inv = inverse(&initial);
	double to[3];
	point(&inv, next, to);
	normalize(to);
	double turn[4];
	from_to(bn->axis, to, turn);
	qmul(bn->q0, turn, bn->q);
	world_of(r, root, bn->head);
	world_below(r, bn->head);
}

void vrm_reference_update(vrm_reference *r, const vrm_ref_local *root, const vrm_ref_local *locals, double dt)
{
	mat rm = root_matrix(root);
	apply_pose(r, &rm, locals);
	if (!(dt > 0.0)) {
		return;
	}
	for (int b = 0; b < r->bone_count; b++) {
		step_bone(r, &rm, &r->bones[b], dt);
	}
}

int vrm_reference_bone_count(const vrm_reference *r)
{
	return r->bone_count;
}

void vrm_reference_bone(const vrm_reference *r, int b, int *node, double q[4], double tail[3])
{
	const bone *bn = &r->bones[b];
	*node = bn->head;
	memcpy(q, bn->q, sizeof bn->q);
	memcpy(tail, bn->out_tail, sizeof bn->out_tail);
}
