// SPDX-License-Identifier: MIT
// Spring skeletons: the check of a description (spring/skeleton.h).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/skeleton.h"

#include "base_internal.h"
#include "skeleton_internal.h"

#include <math.h>

// ---------------------------------------------------------------------------------------------
// Reporting

#define OBJECT "skeleton"

static spring_result fail1(spring_error *e, spring_result r, spring_element element, int index, const char *field,
                           const char *reason)
{
	return spring_internal_fail_at(e, r, OBJECT, element, index, field, "%s%s%s", field, field[0] ? " " : "", reason);
}

// A fault in joint `joint` of spring `spring` (joint -1: the spring itself).
static spring_result fail_joint(spring_error *e, spring_result r, int spring, int joint, const char *field, const char *reason)
{
	spring_error_step path[2] = {{SPRING_ELEMENT_SPRING, spring}, {SPRING_ELEMENT_JOINT, joint}};
	return spring_internal_fail(e, r, OBJECT, path, joint >= 0 ? 2 : 1, field, "%s%s%s", field, field[0] ? " " : "", reason);
}

// ---------------------------------------------------------------------------------------------
// Numbers

// OK, NOT_FINITE or OUT_OF_RANGE for a value that must lie in [lo, hi].
static spring_result range(float x, float lo, float hi)
{
	if (!spring_internal_finite(x)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return x >= lo && x <= hi ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

static spring_result vec_range(spring_vec3 v, float bound)
{
	spring_result r = range(v.x, -bound, bound);
	if (r == SPRING_OK) {
		r = range(v.y, -bound, bound);
	}
	if (r == SPRING_OK) {
		r = range(v.z, -bound, bound);
	}
	return r;
}

static const char *vec_reason(spring_result r, const char *bound_text)
{
	return r == SPRING_ERROR_NOT_FINITE ? "must be finite" : bound_text;
}

// ---------------------------------------------------------------------------------------------
// The tree

// Walks up from `node` to find `ancestor` (strictly above it), at most SPRING_SKELETON_MAX_DEPTH
// steps (validated trees are never deeper).
static bool is_strict_ancestor(const spring_skeleton_node *nodes, int ancestor, int node)
{
	int at = nodes[node].parent;
	for (int steps = 0; at >= 0 && steps < SPRING_SKELETON_MAX_DEPTH; steps++) {
		if (at == ancestor) {
			return true;
		}
		at = nodes[at].parent;
	}
	return false;
}

// Fault in the tree: a cycle (a node its own ancestor) or a tree deeper than the limit.
static spring_result check_tree(const spring_skeleton_node *nodes, int n, spring_error *e)
{
	for (int i = 0; i < n; i++) {
		int at = i, depth = 0;
		while (nodes[at].parent >= 0 && depth <= SPRING_SKELETON_MAX_DEPTH) {
			at = nodes[at].parent;
			depth++;
		}
		if (depth <= SPRING_SKELETON_MAX_DEPTH) {
			continue;
		}
		// Too deep: a cycle, or a genuinely deep tree. A walk of n steps that meets no root has
		// visited some node twice.
		at = i;
		for (int steps = 0; at >= 0 && steps < n; steps++) {
			at = nodes[at].parent;
		}
		bool cycle = at >= 0;
		if (cycle) {
			return fail1(e, SPRING_ERROR_BAD_DEFINITION, SPRING_ELEMENT_NODE, i, "parent",
			             "makes the node its own ancestor (the parents form a cycle)");
		}
		return fail1(e, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NODE, i, "parent",
		             "puts the node more than SPRING_SKELETON_MAX_DEPTH (1024) levels deep");
	}
	return SPRING_OK;
}

static spring_result check_node(const spring_skeleton_node *node, int i, int n, spring_error *e)
{
	if (node->parent < -1 || node->parent >= n) {
		return fail1(e, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NODE, i, "parent",
		             "must be -1 or the index of another node");
	}
	if (node->parent == i) {
		return fail1(e, SPRING_ERROR_BAD_DEFINITION, SPRING_ELEMENT_NODE, i, "parent", "must not be the node itself");
	}
	spring_result r = vec_range(node->translation, SPRING_SKELETON_MAX_COORDINATE);
	if (r != SPRING_OK) {
		return fail1(e, r, SPRING_ELEMENT_NODE, i, "translation",
		             vec_reason(r, "components must be within +-SPRING_SKELETON_MAX_COORDINATE (1e6)"));
	}
	spring_quat q = node->rotation;
	if (!spring_internal_finite(q.x) || !spring_internal_finite(q.y) || !spring_internal_finite(q.z) ||
	    !spring_internal_finite(q.w)) {
		return fail1(e, SPRING_ERROR_NOT_FINITE, SPRING_ELEMENT_NODE, i, "rotation", "must be finite");
	}
	double qq = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
	if (qq != 0.0 && (qq < 1e-12 || qq > 1e12)) {
		return fail1(e, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NODE, i, "rotation",
		             "must be all zero (identity) or have a length in [1e-6, 1e6]");
	}
	spring_vec3 s = node->scale;
	if (s.x == 0.0f && s.y == 0.0f && s.z == 0.0f) {
		return SPRING_OK;
	}
	const float c[3] = {s.x, s.y, s.z};
	for (int k = 0; k < 3; k++) {
		if (!spring_internal_finite(c[k])) {
			return fail1(e, SPRING_ERROR_NOT_FINITE, SPRING_ELEMENT_NODE, i, "scale", "must be finite");
		}
		float m = fabsf(c[k]);
		if (!(m >= 1.0f / SPRING_SKELETON_MAX_SCALE && m <= SPRING_SKELETON_MAX_SCALE)) {
			return fail1(e, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NODE, i, "scale",
			             "must be all zero (1, 1, 1) or have every component's magnitude in [1e-6, 1e6]");
		}
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Colliders and groups

static spring_result check_collider(const spring_skeleton_collider *c, int i, int node_count, spring_error *e)
{
	if (c->node < 0 || c->node >= node_count) {
		return fail1(e, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_COLLIDER, i, "node", "must be the index of a node");
	}
	if ((int)c->type < 0 || c->type >= SPRING_SKELETON_COLLIDER_COUNT) {
		return fail1(e, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_COLLIDER, i, "type",
		             "must be a spring_skeleton_collider_type");
	}
	spring_result r = vec_range(c->offset, SPRING_SKELETON_MAX_COORDINATE);
	if (r != SPRING_OK) {
		return fail1(e, r, SPRING_ELEMENT_COLLIDER, i, "offset",
		             vec_reason(r, "components must be within +-SPRING_SKELETON_MAX_COORDINATE (1e6)"));
	}
	r = vec_range(c->tail, SPRING_SKELETON_MAX_COORDINATE);
	if (r != SPRING_OK) {
		return fail1(e, r, SPRING_ELEMENT_COLLIDER, i, "tail",
		             vec_reason(r, "components must be within +-SPRING_SKELETON_MAX_COORDINATE (1e6)"));
	}
	r = range(c->radius, 0.0f, SPRING_SKELETON_MAX_COORDINATE);
	if (r != SPRING_OK) {
		return fail1(e, r, SPRING_ELEMENT_COLLIDER, i, "radius",
		             vec_reason(r, "must be in [0, SPRING_SKELETON_MAX_COORDINATE (1e6)]"));
	}
	if (c->type == SPRING_SKELETON_COLLIDER_PLANE &&
	    (double)c->tail.x * c->tail.x + (double)c->tail.y * c->tail.y + (double)c->tail.z * c->tail.z < 1e-12) {
		return fail1(e, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_COLLIDER, i, "tail",
		             "is a plane's normal and must not be zero (length >= 1e-6)");
	}
	return SPRING_OK;
}

static spring_result check_group(const spring_skeleton_collider_group *g, int i, int collider_count, spring_error *e)
{
	if (g->collider_count < 0 || g->collider_count > SPRING_SKELETON_MAX_COLLIDERS) {
		return fail1(e, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_COLLIDER_GROUP, i, "collider_count",
		             "must be in [0, SPRING_SKELETON_MAX_COLLIDERS (1024)]");
	}
	if (g->collider_count > 0 && g->colliders == NULL) {
		return fail1(e, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_COLLIDER_GROUP, i, "colliders",
		             "must not be NULL when collider_count > 0");
	}
	for (int k = 0; k < g->collider_count; k++) {
		if (g->colliders[k] < 0 || g->colliders[k] >= collider_count) {
			return spring_internal_fail_at(e, SPRING_ERROR_INVALID_ARGUMENT, OBJECT, SPRING_ELEMENT_COLLIDER_GROUP, i,
			                               "colliders", "colliders[%d] = %d is not the index of a collider", k, g->colliders[k]);
		}
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Springs

static spring_result check_joint_settings(const spring_skeleton_joint *j, int s, int k, int node_count, spring_error *e)
{
	if (j->node < 0 || j->node >= node_count) {
		return fail_joint(e, SPRING_ERROR_INVALID_ARGUMENT, s, k, "node", "must be the index of a node");
	}
	spring_result r = range(j->stiffness, 0.0f, SPRING_SKELETON_MAX_SETTING);
	if (r != SPRING_OK) {
		return fail_joint(e, r, s, k, "stiffness", vec_reason(r, "must be in [0, SPRING_SKELETON_MAX_SETTING (1e6)]"));
	}
	r = range(j->drag, 0.0f, 1.0f);
	if (r != SPRING_OK) {
		return fail_joint(e, r, s, k, "drag", vec_reason(r, "must be in [0, 1]"));
	}
	r = range(j->gravity_power, 0.0f, SPRING_SKELETON_MAX_SETTING);
	if (r != SPRING_OK) {
		return fail_joint(e, r, s, k, "gravity_power", vec_reason(r, "must be in [0, SPRING_SKELETON_MAX_SETTING (1e6)]"));
	}
	r = vec_range(j->gravity_dir, SPRING_SKELETON_MAX_SETTING);
	if (r != SPRING_OK) {
		return fail_joint(e, r, s, k, "gravity_dir",
		                  vec_reason(r, "components must be within +-SPRING_SKELETON_MAX_SETTING (1e6)"));
	}
	r = range(j->hit_radius, 0.0f, SPRING_SKELETON_MAX_COORDINATE);
	if (r != SPRING_OK) {
		return fail_joint(e, r, s, k, "hit_radius", vec_reason(r, "must be in [0, SPRING_SKELETON_MAX_COORDINATE (1e6)]"));
	}
	return SPRING_OK;
}

// The shape of one spring, its joints' settings and their descent; not yet the other springs.
static spring_result check_spring(const spring_skeleton_desc *d, int s, spring_error *e)
{
	const spring_skeleton_spring *sp = &d->springs[s];
	int min = sp->has_end_tail ? 1 : 2;
	if (sp->joint_count < min || sp->joint_count > SPRING_SKELETON_MAX_JOINTS) {
		return fail_joint(e, SPRING_ERROR_INVALID_ARGUMENT, s, -1, "joint_count",
		                  sp->has_end_tail ? "must be in [1, SPRING_SKELETON_MAX_JOINTS (4096)]"
		                                   : "must be in [2, SPRING_SKELETON_MAX_JOINTS (4096)] (the last joint is "
		                                     "only a tail; 1 needs has_end_tail)");
	}
	if (sp->joints == NULL) {
		return fail_joint(e, SPRING_ERROR_INVALID_ARGUMENT, s, -1, "joints", "must not be NULL");
	}
	for (int k = 0; k < sp->joint_count; k++) {
		spring_result r = check_joint_settings(&sp->joints[k], s, k, d->node_count, e);
		if (r != SPRING_OK) {
			return r;
		}
		if (k > 0 && !is_strict_ancestor(d->nodes, sp->joints[k - 1].node, sp->joints[k].node)) {
			spring_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, OBJECT,
			                     (const spring_error_step[]){{SPRING_ELEMENT_SPRING, s}, {SPRING_ELEMENT_JOINT, k}}, 2, "node",
			                     "node %d is not a descendant of the previous joint's node %d", sp->joints[k].node,
			                     sp->joints[k - 1].node);
			spring_internal_error_other(e, SPRING_ELEMENT_JOINT, k - 1);
			return SPRING_ERROR_BAD_DEFINITION;
		}
	}
	if (sp->has_end_tail) {
		spring_result r = vec_range(sp->end_tail, SPRING_SKELETON_MAX_COORDINATE);
		if (r != SPRING_OK) {
			return fail_joint(e, r, s, -1, "end_tail",
			                  vec_reason(r, "components must be within +-SPRING_SKELETON_MAX_COORDINATE (1e6)"));
		}
	}
	if (sp->center < -1 || sp->center >= d->node_count) {
		return fail_joint(e, SPRING_ERROR_INVALID_ARGUMENT, s, -1, "center", "must be -1 or the index of a node");
	}
	if (sp->center >= 0 && sp->center != sp->joints[0].node && !is_strict_ancestor(d->nodes, sp->center, sp->joints[0].node)) {
		return spring_internal_fail(
			e, SPRING_ERROR_BAD_DEFINITION, OBJECT, (const spring_error_step[]){{SPRING_ELEMENT_SPRING, s}}, 1, "center",
			"center node %d is neither the first joint's node %d nor one of its ancestors", sp->center, sp->joints[0].node);
	}
	if (sp->collider_group_count < 0 || sp->collider_group_count > SPRING_SKELETON_MAX_GROUPS) {
		return fail_joint(e, SPRING_ERROR_INVALID_ARGUMENT, s, -1, "collider_group_count",
		                  "must be in [0, SPRING_SKELETON_MAX_GROUPS (1024)]");
	}
	if (sp->collider_group_count > 0 && sp->collider_groups == NULL) {
		return fail_joint(e, SPRING_ERROR_INVALID_ARGUMENT, s, -1, "collider_groups",
		                  "must not be NULL when collider_group_count > 0");
	}
	for (int k = 0; k < sp->collider_group_count; k++) {
		int g = sp->collider_groups[k];
		if (g < 0 || g >= d->collider_group_count) {
			return spring_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, OBJECT,
			                            (const spring_error_step[]){{SPRING_ELEMENT_SPRING, s}}, 1, "collider_groups",
			                            "collider_groups[%d] = %d is not the index of a collider group", k, g);
		}
	}
	return SPRING_OK;
}

// Finds node `node` among the joints of springs [0, spring_end) and of spring `spring_end` up to
// joint `joint_end` (exclusive); true with where.
static bool find_joint(const spring_skeleton_desc *d, int node, int spring_end, int joint_end, int *spring, int *joint)
{
	for (int s = 0; s <= spring_end && s < d->spring_count; s++) {
		int count = s < spring_end ? d->springs[s].joint_count : joint_end;
		for (int k = 0; k < count; k++) {
			if (d->springs[s].joints[k].node == node) {
				*spring = s;
				*joint = k;
				return true;
			}
		}
	}
	return false;
}

static spring_result check_springs_together(const spring_skeleton_desc *d, spring_error *e)
{
	for (int s = 0; s < d->spring_count; s++) {
		const spring_skeleton_spring *sp = &d->springs[s];
		for (int k = 0; k < sp->joint_count; k++) {
			int os, ok;
			if (find_joint(d, sp->joints[k].node, s, k, &os, &ok)) {
				spring_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, OBJECT,
				                     (const spring_error_step[]){{SPRING_ELEMENT_SPRING, s}, {SPRING_ELEMENT_JOINT, k}}, 2,
				                     "node", "node %d is already joint %d of spring %d (a node is a joint once)",
				                     sp->joints[k].node, ok, os);
				spring_internal_error_other(e, SPRING_ELEMENT_SPRING, os);
				return SPRING_ERROR_BAD_DEFINITION;
			}
		}
	}
	for (int s = 0; s < d->spring_count; s++) {
		const spring_skeleton_spring *sp = &d->springs[s];
		int os, ok;
		if (sp->center >= 0 && sp->center != sp->joints[0].node && find_joint(d, sp->center, d->spring_count, 0, &os, &ok)) {
			spring_internal_fail(
				e, SPRING_ERROR_BAD_DEFINITION, OBJECT, (const spring_error_step[]){{SPRING_ELEMENT_SPRING, s}}, 1, "center",
				"center node %d is joint %d of spring %d (a centre must not move with another spring)", sp->center, ok, os);
			spring_internal_error_other(e, SPRING_ELEMENT_SPRING, os);
			return SPRING_ERROR_BAD_DEFINITION;
		}
	}
	return SPRING_OK;
}

// Every bone's length at rest: finite and at least SPRING_SKELETON_MIN_BONE.
static spring_result check_lengths(const spring_skeleton_desc *d, spring_error *e)
{
	for (int s = 0; s < d->spring_count; s++) {
		const spring_skeleton_spring *sp = &d->springs[s];
		int bones = sp->has_end_tail ? sp->joint_count : sp->joint_count - 1;
		for (int k = 0; k < bones; k++) {
			lmat head, tail;
			spring_internal_skeleton_rest_world(d->nodes, sp->joints[k].node, &head);
			bool has_tail = k + 1 < sp->joint_count;
			if (has_tail) {
				spring_internal_skeleton_rest_world(d->nodes, sp->joints[k + 1].node, &tail);
			}
			const double end_tail[3] = {sp->end_tail.x, sp->end_tail.y, sp->end_tail.z};
			double tail_local[3];
			double length = skeleton_bone_rest(&head, has_tail ? &tail : NULL, end_tail, tail_local); // the runtime's
			if (!isfinite(length) || length > 1e9) {
				return spring_internal_fail(
					e, SPRING_ERROR_OUT_OF_RANGE, OBJECT,
					(const spring_error_step[]){{SPRING_ELEMENT_SPRING, s}, {SPRING_ELEMENT_JOINT, k}}, 2, "",
					"the bone's rest length is out of range (the rest pose's scales and translations multiply "
					"beyond 1e9)");
			}
			if (length < SPRING_SKELETON_MIN_BONE) {
				return spring_internal_fail(
					e, SPRING_ERROR_BAD_DEFINITION, OBJECT,
					(const spring_error_step[]){{SPRING_ELEMENT_SPRING, s}, {SPRING_ELEMENT_JOINT, k}}, 2, "",
					"the bone to %s is %.3g long at rest (below SPRING_SKELETON_MIN_BONE, 1e-6): it has no direction",
					k + 1 < sp->joint_count ? "the next joint" : "the end tail", length);
			}
		}
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// The whole description

static spring_result check_count(spring_error *e, int count, int lo, int hi, const void *array, const char *field,
                                 const char *array_field)
{
	if (count < lo || count > hi) {
		return spring_internal_fail_at(e, SPRING_ERROR_INVALID_ARGUMENT, OBJECT, SPRING_ELEMENT_NONE, -1, field,
		                               "%s must be in [%d, %d] (got %d)", field, lo, hi, count);
	}
	if (count > 0 && array == NULL) {
		return spring_internal_fail_at(e, SPRING_ERROR_INVALID_ARGUMENT, OBJECT, SPRING_ELEMENT_NONE, -1, array_field,
		                               "%s must not be NULL when %s > 0", array_field, field);
	}
	return SPRING_OK;
}

spring_result spring_skeleton_validate(const spring_skeleton_desc *d, spring_error *e)
{
	if (d == NULL) {
		return spring_internal_fail_at(e, SPRING_ERROR_INVALID_ARGUMENT, OBJECT, SPRING_ELEMENT_NONE, -1, "",
		                               "the description must not be NULL");
	}
	spring_result r = check_count(e, d->node_count, 1, SPRING_SKELETON_MAX_NODES, d->nodes, "node_count", "nodes");
	if (r == SPRING_OK) {
		r = check_count(e, d->spring_count, 0, SPRING_SKELETON_MAX_SPRINGS, d->springs, "spring_count", "springs");
	}
	if (r == SPRING_OK) {
		r = check_count(e, d->collider_count, 0, SPRING_SKELETON_MAX_COLLIDERS, d->colliders, "collider_count", "colliders");
	}
	if (r == SPRING_OK) {
		r = check_count(e, d->collider_group_count, 0, SPRING_SKELETON_MAX_GROUPS, d->collider_groups, "collider_group_count",
		                "collider_groups");
	}
	if (r != SPRING_OK) {
		return r;
	}
	r = range(d->rate, 0.0f, SPRING_SKELETON_MAX_RATE);
	if (r != SPRING_OK) {
		return fail1(e, r, SPRING_ELEMENT_NONE, -1, "rate",
		             vec_reason(r, "must be 0 (60 Hz) or in (0, SPRING_SKELETON_MAX_RATE (10000)] Hz"));
	}
	if ((int)d->length < 0 || d->length >= SPRING_SKELETON_LENGTH_COUNT) {
		return fail1(e, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "length", "must be a spring_skeleton_length");
	}
	for (int i = 0; i < d->node_count; i++) {
		r = check_node(&d->nodes[i], i, d->node_count, e);
		if (r != SPRING_OK) {
			return r;
		}
	}
	r = check_tree(d->nodes, d->node_count, e);
	if (r != SPRING_OK) {
		return r;
	}
	for (int i = 0; i < d->collider_count; i++) {
		r = check_collider(&d->colliders[i], i, d->node_count, e);
		if (r != SPRING_OK) {
			return r;
		}
	}
	for (int i = 0; i < d->collider_group_count; i++) {
		r = check_group(&d->collider_groups[i], i, d->collider_count, e);
		if (r != SPRING_OK) {
			return r;
		}
	}
	int joints = 0;
	for (int s = 0; s < d->spring_count; s++) {
		int count = d->springs[s].joint_count;
		joints += count > 0 && count <= SPRING_SKELETON_MAX_JOINTS ? count : 0; // else check_spring refuses it
		if (joints > SPRING_SKELETON_MAX_JOINTS) {
			return fail_joint(e, SPRING_ERROR_INVALID_ARGUMENT, s, -1, "joint_count",
			                  "brings the skeleton's joints beyond SPRING_SKELETON_MAX_JOINTS (4096)");
		}
		r = check_spring(d, s, e);
		if (r != SPRING_OK) {
			return r;
		}
	}
	r = check_springs_together(d, e);
	if (r != SPRING_OK) {
		return r;
	}
	return check_lengths(d, e);
}
