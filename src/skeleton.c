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
