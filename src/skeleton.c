// SPDX-License-Identifier: MIT
// Spring skeletons: rest transforms of the node tree (skeleton_internal.h).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "skeleton_internal.h"

#include <math.h>

void spring_internal_skeleton_node_rotation(const spring_skeleton_node *node, double q[4])
{
	double x = node->rotation.x, y = node->rotation.y, z = node->rotation.z, w = node->rotation.w;
	double n = sqrt(x * x + y * y + z * z + w * w);
	if (n == 0.0) {
		q[0] = q[1] = q[2] = 0.0;
		q[3] = 1.0;
		return;
	}
	q[0] = x / n;
	q[1] = y / n;
	q[2] = z / n;
	q[3] = w / n;
}

void spring_internal_skeleton_node_scale(const spring_skeleton_node *node, double s[3])
{
	spring_vec3 v = node->scale;
	bool unset = v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
	s[0] = unset ? 1.0 : v.x;
	s[1] = unset ? 1.0 : v.y;
	s[2] = unset ? 1.0 : v.z;
}

spring_internal_affine spring_internal_affine_compose(const double t[3], const double q[4], const double s[3])
{
	double x = q[0], y = q[1], z = q[2], w = q[3];
	double r[9] = {
		1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w),       2.0 * (x * z + y * w),
		2.0 * (x * y + z * w),       1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
		2.0 * (x * z - y * w),       2.0 * (y * z + x * w),       1.0 - 2.0 * (x * x + y * y),
	};
	spring_internal_affine a;
	bool unit = s[0] == 1.0 && s[1] == 1.0 && s[2] == 1.0; // x 1 is exact: the same bits either way
	for (int row = 0; row < 3; row++) {
		for (int col = 0; col < 3; col++) {
			a.m[row * 4 + col] = unit ? r[row * 3 + col] : r[row * 3 + col] * s[col];
		}
		a.m[row * 4 + 3] = t[row];
	}
	return a;
}

spring_internal_affine spring_internal_skeleton_rest_local(const spring_skeleton_node *node)
{
	double q[4], s[3], t[3] = {node->translation.x, node->translation.y, node->translation.z};
	spring_internal_skeleton_node_rotation(node, q);
	spring_internal_skeleton_node_scale(node, s);
	return spring_internal_affine_compose(t, q, s);
}

void spring_internal_affine_inverse3(const spring_internal_affine *a, double inv[9])
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

spring_internal_affine spring_internal_affine_inverse(const spring_internal_affine *a)
{
	double l[9];
	spring_internal_affine_inverse3(a, l);
	spring_internal_affine r;
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			r.m[i * 4 + j] = l[i * 3 + j];
		}
		r.m[i * 4 + 3] = -(l[i * 3] * a->m[3] + l[i * 3 + 1] * a->m[7] + l[i * 3 + 2] * a->m[11]);
	}
	return r;
}

spring_internal_affine spring_internal_affine_mul(const spring_internal_affine *a, const spring_internal_affine *b)
{
	spring_internal_affine c;
	for (int row = 0; row < 3; row++) {
		const double *ar = &a->m[row * 4];
		for (int col = 0; col < 3; col++) {
			c.m[row * 4 + col] = ar[0] * b->m[col] + ar[1] * b->m[4 + col] + ar[2] * b->m[8 + col];
		}
		c.m[row * 4 + 3] = ar[0] * b->m[3] + ar[1] * b->m[7] + ar[2] * b->m[11] + ar[3];
	}
	return c;
}

void spring_internal_affine_point(const spring_internal_affine *a, double x, double y, double z, double out[3])
{
	for (int row = 0; row < 3; row++) {
		const double *r = &a->m[row * 4];
		out[row] = r[0] * x + r[1] * y + r[2] * z + r[3];
	}
}

spring_internal_affine spring_internal_skeleton_rest_world(const spring_skeleton_node *nodes, int node)
{
	spring_internal_affine w = spring_internal_skeleton_rest_local(&nodes[node]);
	int at = nodes[node].parent;
	for (int depth = 0; at >= 0 && depth < SPRING_SKELETON_MAX_DEPTH; depth++) {
		spring_internal_affine local = spring_internal_skeleton_rest_local(&nodes[at]);
		w = spring_internal_affine_mul(&local, &w);
		at = nodes[at].parent;
	}
	return w;
}
