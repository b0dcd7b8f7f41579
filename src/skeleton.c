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

// The node's rest matrix in the model's space, root first as the runtime makes it (world_of from
// the identity root down).
void spring_internal_skeleton_rest_world(const spring_skeleton_node *nodes, int node, lmat *out)
{
	int path[SPRING_SKELETON_MAX_DEPTH + 1], depth = 0;
	for (int at = node; at >= 0 && depth <= SPRING_SKELETON_MAX_DEPTH; at = nodes[at].parent) {
		path[depth++] = at;
	}
	lmat w = identity_matrix();
	while (depth > 0) {
		const spring_skeleton_node *nd = &nodes[path[--depth]];
		double q[4], sc[3];
		spring_internal_skeleton_node_rotation(nd, q);
		spring_internal_skeleton_node_scale(nd, sc);
		lane t[3] = {splat(nd->translation.x), splat(nd->translation.y), splat(nd->translation.z)};
		lane lq[4] = {splat(q[0]), splat(q[1]), splat(q[2]), splat(q[3])};
		lmat local = compose(t, lq, sc, unit_scale(sc));
		w = mul(&w, &local);
	}
	*out = w;
}

bool spring_skeleton_node_from_matrix(const double m[16], spring_skeleton_node *n)
{
	if (!m || !n) {
		return false;
	}
	for (int k = 0; k < 16; k++) {
		if (!isfinite(m[k])) {
			return false;
		}
	}
	if (m[3] != 0.0 || m[7] != 0.0 || m[11] != 0.0 || m[15] != 1.0) {
		return false;
	}
	double col[3][3], s[3];
	for (int k = 0; k < 3; k++) {
		for (int r = 0; r < 3; r++) {
			col[k][r] = m[k * 4 + r];
		}
		s[k] = sqrt(col[k][0] * col[k][0] + col[k][1] * col[k][1] + col[k][2] * col[k][2]);
		if (!(s[k] > 1e-12)) {
			return false;
		}
	}
	double det = col[0][0] * (col[1][1] * col[2][2] - col[2][1] * col[1][2]) -
	             col[1][0] * (col[0][1] * col[2][2] - col[2][1] * col[0][2]) +
	             col[2][0] * (col[0][1] * col[1][2] - col[1][1] * col[0][2]);
	if (det < 0.0) {
		s[0] = -s[0]; // a mirror: put it on x
	}
	double r[3][3]; // r[row][col]
	for (int k = 0; k < 3; k++) {
		for (int row = 0; row < 3; row++) {
			r[row][k] = col[k][row] / s[k];
		}
	}
	// Orthonormal within a tolerance, else the matrix has a shear.
	for (int a = 0; a < 3; a++) {
		for (int b = 0; b < 3; b++) {
			double d = r[0][a] * r[0][b] + r[1][a] * r[1][b] + r[2][a] * r[2][b];
			if (fabs(d - (a == b ? 1.0 : 0.0)) > 1e-4) {
				return false;
			}
		}
	}
	double q[4], tr = r[0][0] + r[1][1] + r[2][2];
	if (tr > 0.0) {
		double k = 0.5 / sqrt(tr + 1.0);
		q[3] = 0.25 / k;
		q[0] = (r[2][1] - r[1][2]) * k;
		q[1] = (r[0][2] - r[2][0]) * k;
		q[2] = (r[1][0] - r[0][1]) * k;
	} else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
		double k = 2.0 * sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]);
		q[3] = (r[2][1] - r[1][2]) / k;
		q[0] = 0.25 * k;
		q[1] = (r[0][1] + r[1][0]) / k;
		q[2] = (r[0][2] + r[2][0]) / k;
	} else if (r[1][1] > r[2][2]) {
		double k = 2.0 * sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]);
		q[3] = (r[0][2] - r[2][0]) / k;
		q[0] = (r[0][1] + r[1][0]) / k;
		q[1] = 0.25 * k;
		q[2] = (r[1][2] + r[2][1]) / k;
	} else {
		double k = 2.0 * sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]);
		q[3] = (r[1][0] - r[0][1]) / k;
		q[0] = (r[0][2] + r[2][0]) / k;
		q[1] = (r[1][2] + r[2][1]) / k;
		q[2] = 0.25 * k;
	}
	n->translation = spring_vec3_make((float)m[12], (float)m[13], (float)m[14]);
	n->rotation = (spring_quat){(float)q[0], (float)q[1], (float)q[2], (float)q[3]};
	n->scale = spring_vec3_make((float)s[0], (float)s[1], (float)s[2]);
	return true;
}
