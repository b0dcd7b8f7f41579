// SPDX-License-Identifier: MIT
// VRM spring bones (spring/vrm.h): .vrm/.glb/.gltf -> spring_skeleton_desc.
//
//   bytes --(GLB container: header, JSON chunk, lengths checked; or JSON text)--> JSON text
//         --(strict syntax check and cJSON, as rig files: rig_json.c)--> cJSON tree
//         --(nodes: children -> parents, TRS or a decomposed matrix; the tree checked alone)
//         --(VRMC_springBone 1.0, or VRM 0.x secondaryAnimation expanded into springs)
//         --> spring_skeleton_desc --(spring_skeleton_validate; errors mapped to JSON paths)
//         --> spring_vrm_file (one block: the description, its arrays and the node names)
#define _POSIX_C_SOURCE 200809L
#include "rig_json_internal.h"

#include <spring/vrm.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_SIZE (SPRING_VRM_MAX_NAME + 1)
#define GLB_MAGIC 0x46546C67u // "glTF"
#define GLB_JSON 0x4E4F534Au  // "JSON"
#define EXT_1 "$.extensions.VRMC_springBone"
#define EXT_0 "$.extensions.VRM.secondaryAnimation"

struct spring_vrm_file {
	spring_skeleton_desc desc;
	spring_vrm_format format;
	char (*names)[NAME_SIZE];
	int *by_name; // the nodes in the order of their names, for spring_vrm_file_find_node
};

// Where each element of the description came from, for errors.
typedef struct origin {
	char path[RJ_PATH_SIZE];
	bool joints_listed; // 1.0: joint k is path.joints[k]; 0.x: the joints are a bone's descendants
} origin;

typedef struct reader {
	rj *c;
	spring_vrm_format format;
	int node_count;
	spring_skeleton_node *nodes;
	int **children; // per node, its children (indices into the JSON's list)
	int *child_count;
	char (*names)[NAME_SIZE];
	int *by_name; // the nodes sorted by their final names
	int spring_count, spring_cap;
	spring_skeleton_spring *springs;
	origin *spring_origin;
	int joint_count, joint_cap;
	spring_skeleton_joint *joints; // all springs' joints, in order; springs point into it at the end
	int *joint_first;              // per spring, its first joint in `joints`
	int collider_count;
	spring_skeleton_collider *colliders;
	origin *collider_origin;
	int group_count;
	spring_skeleton_collider_group *groups;
	int *spring_groups_first, *spring_group_count; // per spring, a range of `group_refs`
	int group_ref_count, group_ref_cap;
	int *group_refs;
} reader;

// ---------------------------------------------------------------------------------------------
// Small readers

static spring_result get_vec3(rj *c, const cJSON *obj, const char *path, const char *key, spring_vec3 def, double bound,
                              spring_vec3 *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, 0, p);
	if (!j) {
		*out = def;
		return c->result;
	}
	if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != 3) {
		return rj_bad(c, p, "expected an array of 3 numbers, got %s", rj_type_name(j));
	}
	double v[3];
	for (int k = 0; k < 3; k++) {
		char pk[RJ_PATH_SIZE];
		PATH_INDEX(pk, p, k);
		if (rj_number_item(c, cJSON_GetArrayItem(j, k), pk, -bound, bound, 0, &v[k])) {
			return c->result;
		}
	}
	*out = spring_vec3_make((float)v[0], (float)v[1], (float)v[2]);
	return SPRING_OK;
}

// VRM 0.x vectors: {"x": .., "y": .., "z": ..}, each optional (0).
static spring_result get_xyz(rj *c, const cJSON *obj, const char *path, const char *key, spring_vec3 def, spring_vec3 *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, 0, p);
	if (!j) {
		*out = def;
		return c->result;
	}
	if (rj_expect_object(c, j, p, "an {\"x\", \"y\", \"z\"} vector")) {
		return c->result;
	}
	float v[3];
	static const char *const axes[3] = {"x", "y", "z"};
	for (int k = 0; k < 3; k++) {
		if (rj_get_float(c, j, p, axes[k], 0, 0.0, -RJ_BIG, RJ_BIG, 0, &v[k])) {
			return c->result;
		}
	}
	*out = spring_vec3_make(v[0], v[1], v[2]);
	return SPRING_OK;
}

static spring_result get_index(rj *c, const cJSON *obj, const char *path, const char *key, int required, int count,
                               const char *what, int *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, required, p);
	if (!j) {
		return c->result;
	}
	int v;
	if (rj_integer_item(c, j, p, INT32_MIN + 1, INT32_MAX, &v)) {
		return c->result;
	}
	if (v < 0 || v >= count) {
		return rj_fail(c, SPRING_ERROR_INVALID_ARGUMENT, p, "%d is not the index of %s (the model has %d)", v, what, count);
	}
	*out = v;
	return SPRING_OK;
}

static void *grow(rj *c, void *array, int count, int *cap, size_t size)
{
	if (count < *cap) {
		return array;
	}
	int next = *cap == 0 ? 16 : *cap * 2;
	void *bigger = rj_alloc(c, (size_t)next, size);
	if (bigger && count > 0) {
		memcpy(bigger, array, (size_t)count * size);
	}
	*cap = next;
	return bigger;
}

// ---------------------------------------------------------------------------------------------
// Nodes

static spring_result read_node(reader *rd, const cJSON *j, int i)
{
	rj *c = rd->c;
	char p[RJ_PATH_SIZE];
	PATH_INDEX(p, "$.nodes", i);
	if (rj_expect_object(c, j, p, "a node")) {
		return c->result;
	}
	spring_skeleton_node *n = &rd->nodes[i];
	n->scale = spring_vec3_make(1.0f, 1.0f, 1.0f);
	n->rotation = spring_quat_identity();
	char pm[RJ_PATH_SIZE];
	const cJSON *matrix = rj_member(c, j, p, "matrix", 0, pm);
	if (matrix) {
		static const char *const trs[] = {"translation", "rotation", "scale"};
		for (int k = 0; k < 3; k++) {
			if (cJSON_GetObjectItemCaseSensitive(j, trs[k])) {
				return rj_bad(c, p, "has both \"matrix\" and \"%s\" (glTF allows one or the other)", trs[k]);
			}
		}
		if (!cJSON_IsArray(matrix) || cJSON_GetArraySize(matrix) != 16) {
			return rj_bad(c, pm, "expected an array of 16 numbers, got %s", rj_type_name(matrix));
		}
		double m[16];
		for (int k = 0; k < 16; k++) {
			char pk[RJ_PATH_SIZE];
			PATH_INDEX(pk, pm, k);
			if (rj_number_item(c, cJSON_GetArrayItem(matrix, k), pk, -RJ_BIG, RJ_BIG, 0, &m[k])) {
				return c->result;
			}
		}
		if (!spring_skeleton_node_from_matrix(m, n)) {
			return rj_bad(c, pm, "is not a translation, rotation and scale (glTF requires a decomposable matrix)");
		}
	} else {
		if (get_vec3(c, j, p, "translation", spring_vec3_make(0, 0, 0), RJ_BIG, &n->translation) ||
		    get_vec3(c, j, p, "scale", spring_vec3_make(1, 1, 1), RJ_BIG, &n->scale)) {
			return c->result;
		}
		char pr[RJ_PATH_SIZE];
		const cJSON *rot = rj_member(c, j, p, "rotation", 0, pr);
		if (rot) {
			if (!cJSON_IsArray(rot) || cJSON_GetArraySize(rot) != 4) {
				return rj_bad(c, pr, "expected an array of 4 numbers (x, y, z, w), got %s", rj_type_name(rot));
			}
			double q[4];
			for (int k = 0; k < 4; k++) {
				char pk[RJ_PATH_SIZE];
				PATH_INDEX(pk, pr, k);
				if (rj_number_item(c, cJSON_GetArrayItem(rot, k), pk, -1.5, 1.5, 0, &q[k])) {
					return c->result;
				}
			}
			double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
			if (fabs(len - 1.0) > 1e-3) {
				return rj_bad(c, pr, "must be a unit quaternion (its length is %.6g)", len);
			}
			n->rotation = (spring_quat){(float)q[0], (float)q[1], (float)q[2], (float)q[3]};
		}
	}
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
	if (name && cJSON_IsString(name)) {
		rj_copy_str(rd->names[i], NAME_SIZE, name->valuestring);
	}
	n->parent = -1;
	return SPRING_OK;
}

// "#INDEX" for unnamed nodes, nodes whose name another node has, names that look like "#N" and
// "$root" (the motions' name for the model's root).
static int compare_names(const void *a, const void *b, void *names)
{
	const char(*n)[NAME_SIZE] = names;
	int ia = *(const int *)a, ib = *(const int *)b;
	int r = strcmp(n[ia], n[ib]);
	return r != 0 ? r : (ia > ib) - (ia < ib);
}

static char (*g_sort_names)[NAME_SIZE]; // qsort has no context argument in C11
static int compare_sorted(const void *a, const void *b)
{
	return compare_names(a, b, g_sort_names);
}

static spring_result unique_names(reader *rd)
{
	rj *c = rd->c;
	int n = rd->node_count;
	int *order = (int *)rj_alloc(c, (size_t)n, sizeof *order);
	bool *dup = (bool *)rj_alloc(c, (size_t)n, sizeof *dup);
	if (!order || !dup) {
		return c->result;
	}
	for (int i = 0; i < n; i++) {
		order[i] = i;
	}
	static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&sort_lock);
	g_sort_names = rd->names;
	qsort(order, (size_t)n, sizeof *order, compare_sorted);
	g_sort_names = NULL;
	pthread_mutex_unlock(&sort_lock);
	for (int k = 0; k + 1 < n; k++) {
		if (strcmp(rd->names[order[k]], rd->names[order[k + 1]]) == 0) {
			dup[order[k]] = dup[order[k + 1]] = true;
		}
	}
	for (int i = 0; i < n; i++) {
		const char *s = rd->names[i];
		bool hashlike = s[0] == '#', reserved = strcmp(s, "$root") == 0; // motions' name for the model root
		if (dup[i] || s[0] == '\0' || hashlike || reserved) {
			snprintf(rd->names[i], NAME_SIZE, "#%d", i);
		}
	}
	// The final names, sorted once more: each is unique now, so lookups can bisect.
	pthread_mutex_lock(&sort_lock);
	g_sort_names = rd->names;
	qsort(order, (size_t)n, sizeof *order, compare_sorted);
	g_sort_names = NULL;
	pthread_mutex_unlock(&sort_lock);
	rd->by_name = order;
	return SPRING_OK;
}

static spring_result read_nodes(reader *rd, const cJSON *doc)
{
	rj *c = rd->c;
	const cJSON *list = NULL;
	int n = 0;
	if (rj_get_array(c, doc, "$", "nodes", 0, SPRING_SKELETON_MAX_NODES, "nodes", &list, &n)) {
		return c->result;
	}
	if (n == 0) {
		return rj_bad(c, "$", "the model has no nodes (\"nodes\" is missing or empty)");
	}
	rd->node_count = n;
	rd->nodes = (spring_skeleton_node *)rj_alloc(c, (size_t)n, sizeof *rd->nodes);
	rd->names = (char(*)[NAME_SIZE])rj_alloc(c, (size_t)n, NAME_SIZE);
	rd->children = (int **)rj_alloc(c, (size_t)n, sizeof *rd->children);
	rd->child_count = (int *)rj_alloc(c, (size_t)n, sizeof *rd->child_count);
	if (!rd->nodes || !rd->names || !rd->children || !rd->child_count) {
		return c->result;
	}
	int i = 0;
	const cJSON *j;
	cJSON_ArrayForEach(j, list)
	{
		if (read_node(rd, j, i)) {
			return c->result;
		}
		i++;
	}
	// children -> parents: each node a child once at most, never its own
	i = 0;
	cJSON_ArrayForEach(j, list)
	{
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, "$.nodes", i);
		const cJSON *kids = NULL;
		int count = 0;
		if (rj_get_array(c, j, p, "children", 0, n, "children", &kids, &count)) {
			return c->result;
		}
		char pc[RJ_PATH_SIZE];
		PATH_KEY(pc, p, "children");
		rd->children[i] = count ? (int *)rj_alloc(c, (size_t)count, sizeof(int)) : NULL;
		if (count && !rd->children[i]) {
			return c->result;
		}
		const cJSON *kid = count ? kids->child : NULL; // walked, not indexed: cJSON_GetArrayItem is linear
		for (int k = 0; k < count; k++, kid = kid->next) {
			char pk[RJ_PATH_SIZE];
			PATH_INDEX(pk, pc, k);
			int child;
			if (rj_integer_item(c, kid, pk, INT32_MIN + 1, INT32_MAX, &child)) {
				return c->result;
			}
			if (child < 0 || child >= n) {
				return rj_fail(c, SPRING_ERROR_INVALID_ARGUMENT, pk, "%d is not the index of a node (the model has %d)", child,
				               n);
			}
			if (child == i) {
				return rj_bad(c, pk, "a node cannot be its own child");
			}
			if (rd->nodes[child].parent >= 0) {
				return rj_bad(c, pk, "node %d is already a child of node %d (a node has one parent)", child,
				              rd->nodes[child].parent);
			}
			rd->nodes[child].parent = i;
			rd->children[i][k] = child;
		}
		rd->child_count[i] = count;
		i++;
	}
	// The tree alone (cycles, depth, ranges) before anything walks it.
	spring_skeleton_desc tree;
	memset(&tree, 0, sizeof tree);
	tree.nodes = rd->nodes;
	tree.node_count = n;
	spring_error e;
	spring_result r = spring_skeleton_validate(&tree, &e);
	if (r != SPRING_OK) {
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, "$.nodes", spring_error_innermost(&e).index);
		return rj_fail(c, r, p, "%s", spring_error_reason(&e));
	}
	return unique_names(rd);
}

// ---------------------------------------------------------------------------------------------
// Springs, joints, colliders: shared

static spring_result add_spring(reader *rd, const char *path, bool joints_listed, int center)
{
	rj *c = rd->c;
	int cap = rd->spring_cap;
	spring_skeleton_spring *springs = grow(c, rd->springs, rd->spring_count, &cap, sizeof *springs);
	int cap2 = rd->spring_cap;
	origin *origins = grow(c, rd->spring_origin, rd->spring_count, &cap2, sizeof *origins);
	int cap3 = rd->spring_cap, cap4 = rd->spring_cap, cap5 = rd->spring_cap;
	int *first = grow(c, rd->joint_first, rd->spring_count, &cap3, sizeof *first);
	int *gfirst = grow(c, rd->spring_groups_first, rd->spring_count, &cap4, sizeof *gfirst);
	int *gcount = grow(c, rd->spring_group_count, rd->spring_count, &cap5, sizeof *gcount);
	if (!springs || !origins || !first || !gfirst || !gcount) {
		return c->result;
	}
	rd->springs = springs;
	rd->spring_origin = origins;
	rd->joint_first = first;
	rd->spring_groups_first = gfirst;
	rd->spring_group_count = gcount;
	rd->spring_cap = cap;
	if (rd->spring_count >= SPRING_SKELETON_MAX_SPRINGS) {
		return rj_fail(c, SPRING_ERROR_OUT_OF_RANGE, path, "the model has more than %d springs", SPRING_SKELETON_MAX_SPRINGS);
	}
	int s = rd->spring_count++;
	memset(&springs[s], 0, sizeof springs[s]);
	springs[s].center = center;
	rj_copy_str(origins[s].path, RJ_PATH_SIZE, path);
	origins[s].joints_listed = joints_listed;
	first[s] = rd->joint_count;
	gfirst[s] = rd->group_ref_count;
	gcount[s] = 0;
	return SPRING_OK;
}

static spring_result add_joint(reader *rd, const char *path, const spring_skeleton_joint *j)
{
	rj *c = rd->c;
	if (rd->joint_count >= SPRING_SKELETON_MAX_JOINTS) {
		return rj_fail(c, SPRING_ERROR_OUT_OF_RANGE, path, "the model has more than %d spring joints",
		               SPRING_SKELETON_MAX_JOINTS);
	}
	spring_skeleton_joint *joints = grow(c, rd->joints, rd->joint_count, &rd->joint_cap, sizeof *joints);
	if (!joints) {
		return c->result;
	}
	rd->joints = joints;
	joints[rd->joint_count++] = *j;
	rd->springs[rd->spring_count - 1].joint_count++;
	return SPRING_OK;
}

static spring_result add_group_ref(reader *rd, int group)
{
	int *refs = grow(rd->c, rd->group_refs, rd->group_ref_count, &rd->group_ref_cap, sizeof *refs);
	if (!refs) {
		return rd->c->result;
	}
	rd->group_refs = refs;
	refs[rd->group_ref_count++] = group;
	rd->spring_group_count[rd->spring_count - 1]++;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// VRMC_springBone 1.0

static spring_result read_shape(reader *rd, const cJSON *shape, const char *p, bool extended, spring_skeleton_collider *out)
{
	rj *c = rd->c;
	if (rj_expect_object(c, shape, p, "a shape")) {
		return c->result;
	}
	static const char *const kinds[] = {"sphere", "capsule", "plane"};
	int found = -1, count = 0;
	for (int k = 0; k < (extended ? 3 : 2); k++) {
		if (cJSON_GetObjectItemCaseSensitive(shape, kinds[k])) {
			found = k;
			count++;
		}
	}
	if (count != 1) {
		return rj_bad(c, p, count == 0 ? "needs one of %s" : "has more than one of %s",
		              extended ? "\"sphere\", \"capsule\", \"plane\"" : "\"sphere\", \"capsule\"");
	}
	char ps[RJ_PATH_SIZE];
	const cJSON *s = rj_member(c, shape, p, kinds[found], 1, ps);
	if (!s || rj_expect_object(c, s, ps, kinds[found])) {
		return c->result;
	}
	spring_vec3 zero = spring_vec3_make(0, 0, 0);
	if (get_vec3(c, s, ps, "offset", zero, RJ_BIG, &out->offset)) {
		return c->result;
	}
	if (found == 2) {
		out->type = SPRING_SKELETON_COLLIDER_PLANE;
		if (get_vec3(c, s, ps, "normal", spring_vec3_make(0, 0, 1), RJ_BIG, &out->tail)) {
			return c->result;
		}
		if (spring_vec3_length(out->tail) < 1e-6f) {
			char pn[RJ_PATH_SIZE];
			PATH_KEY(pn, ps, "normal");
			return rj_bad(c, pn, "a plane's normal must not be zero");
		}
		return SPRING_OK;
	}
	if (rj_get_float(c, s, ps, "radius", 0, 0.0, 0.0, RJ_BIG, 0, &out->radius)) {
		return c->result;
	}
	if (found == 1 && get_vec3(c, s, ps, "tail", zero, RJ_BIG, &out->tail)) {
		return c->result;
	}
	int inside = 0;
	if (extended && rj_get_bool(c, s, ps, "inside", 0, &inside)) {
		return c->result;
	}
	out->type = found == 0 ? (inside ? SPRING_SKELETON_COLLIDER_INSIDE_SPHERE : SPRING_SKELETON_COLLIDER_SPHERE)
	                       : (inside ? SPRING_SKELETON_COLLIDER_INSIDE_CAPSULE : SPRING_SKELETON_COLLIDER_CAPSULE);
	return SPRING_OK;
}

static spring_result read_collider_1(reader *rd, const cJSON *j, const char *p, spring_skeleton_collider *out)
{
	rj *c = rd->c;
	if (rj_expect_object(c, j, p, "a collider") || get_index(c, j, p, "node", 1, rd->node_count, "a node", &out->node)) {
		return c->result;
	}
	char pe[RJ_PATH_SIZE], px[RJ_PATH_SIZE];
	const cJSON *ext = rj_member(c, j, p, "extensions", 0, pe);
	const cJSON *x = ext && cJSON_IsObject(ext) ? rj_member(c, ext, pe, "VRMC_springBone_extended_collider", 0, px) : NULL;
	if (x) {
		if (rj_expect_object(c, x, px, "an extended collider")) {
			return c->result;
		}
		char pv[RJ_PATH_SIZE];
		const cJSON *v = rj_member(c, x, px, "specVersion", 1, pv);
		if (!v) {
			return c->result;
		}
		if (!cJSON_IsString(v) || (strcmp(v->valuestring, "1.0") != 0 && strcmp(v->valuestring, "1.0-draft") != 0)) {
			return rj_bad(c, pv, "unsupported version (this reader reads \"1.0\")");
		}
		char ps[RJ_PATH_SIZE];
		const cJSON *shape = rj_member(c, x, px, "shape", 1, ps);
		return shape ? read_shape(rd, shape, ps, true, out) : c->result;
	}
	char ps[RJ_PATH_SIZE];
	const cJSON *shape = rj_member(c, j, p, "shape", 1, ps);
	return shape ? read_shape(rd, shape, ps, false, out) : c->result;
}

static spring_result read_index_list(reader *rd, const cJSON *obj, const char *path, const char *key, int count, const char *what,
                                     int max, const cJSON **list, int *n)
{
	if (rj_get_array(rd->c, obj, path, key, 0, max, what, list, n)) {
		return rd->c->result;
	}
	char p[RJ_PATH_SIZE];
	PATH_KEY(p, path, key);
	const cJSON *item = *n ? (*list)->child : NULL; // walked, not indexed: cJSON_GetArrayItem is linear
	for (int k = 0; k < *n; k++, item = item->next) {
		char pk[RJ_PATH_SIZE];
		PATH_INDEX(pk, p, k);
		int v;
		if (rj_integer_item(rd->c, item, pk, INT32_MIN + 1, INT32_MAX, &v)) {
			return rd->c->result;
		}
		if (v < 0 || v >= count) {
			return rj_fail(rd->c, SPRING_ERROR_INVALID_ARGUMENT, pk, "%d is not the index of %s (there are %d)", v, what, count);
		}
	}
	return SPRING_OK;
}

static spring_result read_groups(reader *rd, const cJSON *list, int n, const char *path, int collider_count)
{
	rj *c = rd->c;
	rd->groups = (spring_skeleton_collider_group *)rj_alloc(c, (size_t)(n ? n : 1), sizeof *rd->groups);
	if (!rd->groups) {
		return c->result;
	}
	rd->group_count = n;
	for (int g = 0; g < n; g++) {
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, path, g);
		const cJSON *j = cJSON_GetArrayItem(list, g), *members = NULL;
		int count = 0;
		if (rj_expect_object(c, j, p, "a collider group") || read_index_list(rd, j, p, "colliders", collider_count, "a collider",
		                                                                     SPRING_SKELETON_MAX_COLLIDERS, &members, &count)) {
			return c->result;
		}
		int *ids = (int *)rj_alloc(c, (size_t)(count ? count : 1), sizeof *ids);
		if (!ids) {
			return c->result;
		}
		const cJSON *member = count ? members->child : NULL;
		for (int k = 0; k < count; k++, member = member->next) {
			ids[k] = member->valueint;
		}
		rd->groups[g] = (spring_skeleton_collider_group){ids, count};
	}
	return SPRING_OK;
}

static spring_result read_joint_1(reader *rd, const cJSON *j, const char *p, spring_skeleton_joint *out)
{
	rj *c = rd->c;
	if (rj_expect_object(c, j, p, "a joint") || get_index(c, j, p, "node", 1, rd->node_count, "a node", &out->node) ||
	    rj_get_float(c, j, p, "hitRadius", 0, 0.0, 0.0, RJ_BIG, 0, &out->hit_radius) ||
	    rj_get_float(c, j, p, "stiffness", 0, 1.0, 0.0, SPRING_SKELETON_MAX_SETTING, 0, &out->stiffness) ||
	    rj_get_float(c, j, p, "gravityPower", 0, 0.0, 0.0, SPRING_SKELETON_MAX_SETTING, 0, &out->gravity_power) ||
	    get_vec3(c, j, p, "gravityDir", spring_vec3_make(0, -1, 0), SPRING_SKELETON_MAX_SETTING, &out->gravity_dir) ||
	    rj_get_float(c, j, p, "dragForce", 0, 0.5, 0.0, 1.0, 0, &out->drag)) {
		return c->result;
	}
	return SPRING_OK;
}

static spring_result read_vrm1(reader *rd, const cJSON *ext)
{
	rj *c = rd->c;
	if (rj_expect_object(c, ext, EXT_1, "the VRMC_springBone extension")) {
		return c->result;
	}
	char pv[RJ_PATH_SIZE];
	const cJSON *v = rj_member(c, ext, EXT_1, "specVersion", 1, pv);
	if (!v) {
		return c->result;
	}
	if (!cJSON_IsString(v) || (strcmp(v->valuestring, "1.0") != 0 && strcmp(v->valuestring, "1.0-beta") != 0)) {
		return rj_bad(c, pv, "unsupported version (this reader reads \"1.0\")");
	}
	const cJSON *list = NULL;
	int n = 0;
	if (rj_get_array(c, ext, EXT_1, "colliders", 0, SPRING_SKELETON_MAX_COLLIDERS, "colliders", &list, &n)) {
		return c->result;
	}
	rd->colliders = (spring_skeleton_collider *)rj_alloc(c, (size_t)(n ? n : 1), sizeof *rd->colliders);
	rd->collider_origin = (origin *)rj_alloc(c, (size_t)(n ? n : 1), sizeof *rd->collider_origin);
	if (!rd->colliders || !rd->collider_origin) {
		return c->result;
	}
	rd->collider_count = n;
	for (int k = 0; k < n; k++) {
		PATH_INDEX(rd->collider_origin[k].path, EXT_1 ".colliders", k);
		if (read_collider_1(rd, cJSON_GetArrayItem(list, k), rd->collider_origin[k].path, &rd->colliders[k])) {
			return c->result;
		}
	}
	if (rj_get_array(c, ext, EXT_1, "colliderGroups", 0, SPRING_SKELETON_MAX_GROUPS, "collider groups", &list, &n) ||
	    read_groups(rd, list, n, EXT_1 ".colliderGroups", rd->collider_count)) {
		return c->result;
	}
	if (rj_get_array(c, ext, EXT_1, "springs", 0, SPRING_SKELETON_MAX_SPRINGS, "springs", &list, &n)) {
		return c->result;
	}
	for (int s = 0; s < n; s++) {
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, EXT_1 ".springs", s);
		const cJSON *j = cJSON_GetArrayItem(list, s);
		int center = -1;
		if (rj_expect_object(c, j, p, "a spring") || get_index(c, j, p, "center", 0, rd->node_count, "a node", &center) ||
		    add_spring(rd, p, true, center)) {
			return c->result;
		}
		const cJSON *joints = NULL, *groups = NULL;
		int joint_count = 0, group_count = 0;
		if (rj_get_array(c, j, p, "joints", 1, SPRING_SKELETON_MAX_JOINTS, "joints", &joints, &joint_count)) {
			return c->result;
		}
		char pj[RJ_PATH_SIZE];
		PATH_KEY(pj, p, "joints");
		if (joint_count < 2) {
			return rj_bad(c, pj, "a spring needs at least two joints (the last is only the tail of the one before)");
		}
		for (int k = 0; k < joint_count; k++) {
			char pk[RJ_PATH_SIZE];
			PATH_INDEX(pk, pj, k);
			spring_skeleton_joint joint;
			memset(&joint, 0, sizeof joint);
			if (read_joint_1(rd, cJSON_GetArrayItem(joints, k), pk, &joint) || add_joint(rd, pk, &joint)) {
				return c->result;
			}
		}
		if (read_index_list(rd, j, p, "colliderGroups", rd->group_count, "a collider group", SPRING_SKELETON_MAX_GROUPS, &groups,
		                    &group_count)) {
			return c->result;
		}
		const cJSON *group = group_count ? groups->child : NULL;
		for (int k = 0; k < group_count; k++, group = group->next) {
			if (add_group_ref(rd, group->valueint)) {
				return c->result;
			}
		}
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// VRM 0.x secondaryAnimation

// Joints from `start` down its first children; later children start springs of their own,
// pushed on `stack` (node_count entries, shared by all bones: depth-first, so the springs come in
// the order the nodes are met).
static spring_result expand_bone(reader *rd, int start, const char *p, const spring_skeleton_joint *settings, int center,
                                 int group_first, int group_count, bool *taken, int *stack)
{
	rj *c = rd->c;
	int top = 0;
	stack[top++] = start;
	while (top > 0) {
		int node = stack[--top];
		if (taken[node]) {
			continue; // listed by an earlier bone group or root: a node is a joint once
		}
		if (add_spring(rd, p, false, center)) {
			return c->result;
		}
		for (int k = 0; k < group_count; k++) {
			if (add_group_ref(rd, rd->group_refs[group_first + k])) {
				return c->result;
			}
		}
		for (;;) {
			spring_skeleton_joint j = *settings;
			j.node = node;
			taken[node] = true;
			if (add_joint(rd, p, &j)) {
				return c->result;
			}
			int kids = rd->child_count[node];
			for (int k = kids - 1; k >= 1; k--) {
				stack[top++] = rd->children[node][k]; // each node is pushed once: the tree has one parent per node
			}
			int next = kids > 0 ? rd->children[node][0] : -1;
			if (next < 0 || taken[next]) {
				break;
			}
			node = next;
		}
		spring_skeleton_spring *sp = &rd->springs[rd->spring_count - 1];
		int last = rd->joints[rd->joint_count - 1].node;
		spring_vec3 t = rd->nodes[last].translation;
		float len = spring_vec3_length(t);
		sp->has_end_tail = true;
		sp->end_tail = len > 0.0f ? spring_vec3_scale(t, SPRING_VRM_LEAF_TAIL / len) : spring_vec3_make(0, 0, 0);
	}
	return SPRING_OK;
}

static spring_result read_vrm0(reader *rd, const cJSON *sec)
{
	rj *c = rd->c;
	if (rj_expect_object(c, sec, EXT_0, "the secondaryAnimation object")) {
		return c->result;
	}
	const cJSON *list = NULL;
	int n = 0;
	if (rj_get_array(c, sec, EXT_0, "colliderGroups", 0, SPRING_SKELETON_MAX_GROUPS, "collider groups", &list, &n)) {
		return c->result;
	}
	// Each 0.x collider group is a node and spheres: the spheres become colliders, in order.
	int total = 0;
	for (int g = 0; g < n; g++) {
		const cJSON *sph = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(list, g), "colliders");
		total += cJSON_IsArray(sph) ? cJSON_GetArraySize(sph) : 0;
	}
	if (total > SPRING_SKELETON_MAX_COLLIDERS) {
		return rj_fail(c, SPRING_ERROR_OUT_OF_RANGE, EXT_0 ".colliderGroups", "%d colliders in all, more than %d", total,
		               SPRING_SKELETON_MAX_COLLIDERS);
	}
	rd->colliders = (spring_skeleton_collider *)rj_alloc(c, (size_t)(total ? total : 1), sizeof *rd->colliders);
	rd->collider_origin = (origin *)rj_alloc(c, (size_t)(total ? total : 1), sizeof *rd->collider_origin);
	rd->groups = (spring_skeleton_collider_group *)rj_alloc(c, (size_t)(n ? n : 1), sizeof *rd->groups);
	int *ids = (int *)rj_alloc(c, (size_t)(total ? total : 1), sizeof *ids);
	if (!rd->colliders || !rd->collider_origin || !rd->groups || !ids) {
		return c->result;
	}
	rd->group_count = n;
	for (int g = 0; g < n; g++) {
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, EXT_0 ".colliderGroups", g);
		const cJSON *j = cJSON_GetArrayItem(list, g), *spheres = NULL;
		int node = 0, count = 0;
		if (rj_expect_object(c, j, p, "a collider group") || get_index(c, j, p, "node", 1, rd->node_count, "a node", &node) ||
		    rj_get_array(c, j, p, "colliders", 0, SPRING_SKELETON_MAX_COLLIDERS, "colliders", &spheres, &count)) {
			return c->result;
		}
		rd->groups[g] = (spring_skeleton_collider_group){&ids[rd->collider_count], count};
		for (int k = 0; k < count; k++) {
			int i = rd->collider_count;
			char pc[RJ_PATH_SIZE];
			PATH_KEY(pc, p, "colliders");
			PATH_INDEX(rd->collider_origin[i].path, pc, k);
			const char *pk = rd->collider_origin[i].path;
			const cJSON *sj = cJSON_GetArrayItem(spheres, k);
			spring_skeleton_collider *col = &rd->colliders[i];
			spring_vec3 offset;
			if (rj_expect_object(c, sj, pk, "a sphere collider") ||
			    get_xyz(c, sj, pk, "offset", spring_vec3_make(0, 0, 0), &offset) ||
			    rj_get_float(c, sj, pk, "radius", 0, 0.0, 0.0, RJ_BIG, 0, &col->radius)) {
				return c->result;
			}
			col->node = node;
			col->type = SPRING_SKELETON_COLLIDER_SPHERE;
			col->offset = spring_vec3_make(offset.x, offset.y, -offset.z); // Unity's left-handed frame
			ids[i] = i;
			rd->collider_count++;
		}
	}
	if (rj_get_array(c, sec, EXT_0, "boneGroups", 0, SPRING_SKELETON_MAX_SPRINGS, "bone groups", &list, &n)) {
		return c->result;
	}
	// One stack for every bone: a stack each cost bones x nodes (4096 bones of a 16384-node model
	// took 256 MB; the document's limits allowed 256 GB).
	bool *taken = (bool *)rj_alloc(c, (size_t)rd->node_count, sizeof *taken);
	int *stack = (int *)rj_alloc(c, (size_t)rd->node_count, sizeof *stack);
	if (!taken || !stack) {
		return c->result;
	}
	for (int g = 0; g < n; g++) {
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, EXT_0 ".boneGroups", g);
		const cJSON *j = cJSON_GetArrayItem(list, g), *bones = NULL, *groups = NULL;
		spring_skeleton_joint settings;
		memset(&settings, 0, sizeof settings);
		int center = -1, bone_count = 0, group_count = 0;
		if (rj_expect_object(c, j, p, "a bone group") ||
		    rj_get_float(c, j, p, "stiffiness", 0, 1.0, 0.0, SPRING_SKELETON_MAX_SETTING, 0, &settings.stiffness) ||
		    rj_get_float(c, j, p, "gravityPower", 0, 0.0, 0.0, SPRING_SKELETON_MAX_SETTING, 0, &settings.gravity_power) ||
		    get_xyz(c, j, p, "gravityDir", spring_vec3_make(0, -1, 0), &settings.gravity_dir) ||
		    rj_get_float(c, j, p, "dragForce", 0, 0.5, 0.0, 1.0, 0, &settings.drag) ||
		    rj_get_float(c, j, p, "hitRadius", 0, 0.0, 0.0, RJ_BIG, 0, &settings.hit_radius) ||
		    rj_get_int(c, j, p, "center", -1, -1, rd->node_count - 1, &center) ||
		    read_index_list(rd, j, p, "bones", rd->node_count, "a node", SPRING_SKELETON_MAX_JOINTS, &bones, &bone_count) ||
		    read_index_list(rd, j, p, "colliderGroups", rd->group_count, "a collider group", SPRING_SKELETON_MAX_GROUPS, &groups,
		                    &group_count)) {
			return c->result;
		}
		// The group's collider list, once, at the end of the references; each spring copies it.
		int group_first = rd->group_ref_count;
		const cJSON *group = group_count ? groups->child : NULL;
		for (int k = 0; k < group_count; k++, group = group->next) {
			int *refs = grow(c, rd->group_refs, rd->group_ref_count, &rd->group_ref_cap, sizeof *refs);
			if (!refs) {
				return c->result;
			}
			rd->group_refs = refs;
			refs[rd->group_ref_count++] = group->valueint;
		}
		const cJSON *bone = bone_count ? bones->child : NULL;
		for (int b = 0; b < bone_count; b++, bone = bone->next) {
			char pb[RJ_PATH_SIZE], pbs[RJ_PATH_SIZE];
			PATH_KEY(pbs, p, "bones");
			PATH_INDEX(pb, pbs, b);
			if (expand_bone(rd, bone->valueint, pb, &settings, center, group_first, group_count, taken, stack)) {
				return c->result;
			}
		}
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// The skeleton's errors, mapped back to the JSON

static const char *json_field(const char *field)
{
	static const char *const map[][2] = {
		{"stiffness", "stiffness"},    {"drag", "dragForce"},       {"gravity_power", "gravityPower"},
		{"gravity_dir", "gravityDir"}, {"hit_radius", "hitRadius"}, {"node", "node"},
		{"center", "center"},          {"radius", "radius"},        {"offset", "offset"}};
	for (size_t k = 0; k < sizeof map / sizeof map[0]; k++) {
		if (strcmp(field, map[k][0]) == 0) {
			return map[k][1];
		}
	}
	return NULL;
}

static void map_error(reader *rd, spring_result r, const spring_error *e)
{
	rj *c = rd->c;
	char p[RJ_PATH_SIZE] = "$";
	const char *reason = spring_error_reason(e);
	spring_error_step outer = e->depth > 0 ? e->path[0] : (spring_error_step){SPRING_ELEMENT_NONE, -1};
	const char *field = json_field(e->field);
	if (outer.element == SPRING_ELEMENT_NODE) {
		PATH_INDEX(p, "$.nodes", outer.index);
	} else if (outer.element == SPRING_ELEMENT_COLLIDER && outer.index < rd->collider_count) {
		rj_copy_str(p, sizeof p, rd->collider_origin[outer.index].path);
	} else if (outer.element == SPRING_ELEMENT_COLLIDER_GROUP) {
		PATH_INDEX(p, rd->format == SPRING_VRM_FORMAT_1_0 ? EXT_1 ".colliderGroups" : EXT_0 ".colliderGroups", outer.index);
	} else if (outer.element == SPRING_ELEMENT_SPRING && outer.index < rd->spring_count) {
		const origin *o = &rd->spring_origin[outer.index];
		rj_copy_str(p, sizeof p, o->path);
		if (e->depth > 1 && o->joints_listed) {
			char pj[RJ_PATH_SIZE], pk[RJ_PATH_SIZE];
			PATH_KEY(pj, p, "joints");
			PATH_INDEX(pk, pj, e->path[1].index);
			rj_copy_str(p, sizeof p, pk);
		} else if (e->depth > 1) {
			// 0.x: the joints are the bone's descendants; say which node.
			int joint = rd->joint_first[outer.index] + e->path[1].index;
			int node = rd->joints[joint].node;
			rj_fail(c, r, p, "node %d (%s): %s", node, rd->names[node], reason);
			return;
		}
		if (field && o->joints_listed) {
			char pf[RJ_PATH_SIZE];
			PATH_KEY(pf, p, field);
			rj_copy_str(p, sizeof p, pf);
		}
	}
	rj_fail(c, r, p, "%s", reason);
}

// ---------------------------------------------------------------------------------------------
// The document

static size_t align16(size_t x)
{
	return (x + 15u) & ~(size_t)15u;
}

// Everything in one block: the object, then each array.
static spring_result build(reader *rd, spring_vrm_file **out)
{
	rj *c = rd->c;
	int member_count = 0;
	for (int g = 0; g < rd->group_count; g++) {
		member_count += rd->groups[g].collider_count;
	}
	int ref_count = 0;
	for (int s = 0; s < rd->spring_count; s++) {
		ref_count += rd->spring_group_count[s];
	}
	size_t at[10], size = align16(sizeof(spring_vrm_file));
	const size_t bytes[9] = {
		(size_t)rd->spring_count * sizeof(spring_skeleton_spring),
		(size_t)rd->group_count * sizeof(spring_skeleton_collider_group),
		(size_t)rd->node_count * sizeof(spring_skeleton_node),
		(size_t)rd->joint_count * sizeof(spring_skeleton_joint),
		(size_t)rd->collider_count * sizeof(spring_skeleton_collider),
		(size_t)member_count * sizeof(int),
		(size_t)ref_count * sizeof(int),
		(size_t)rd->node_count * NAME_SIZE,
		(size_t)rd->node_count * sizeof(int),
	};
	for (int k = 0; k < 9; k++) {
		at[k] = size;
		size += align16(bytes[k]);
	}
	at[9] = size;
	unsigned char *block = (unsigned char *)cJSON_malloc(size);
	if (!block) {
		return rj_fail(c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory (%zu bytes for the model)", size);
	}
	memset(block, 0, size);
	spring_vrm_file *f = (spring_vrm_file *)block;
	spring_skeleton_spring *springs = (spring_skeleton_spring *)(block + at[0]);
	spring_skeleton_collider_group *groups = (spring_skeleton_collider_group *)(block + at[1]);
	spring_skeleton_node *nodes = (spring_skeleton_node *)(block + at[2]);
	spring_skeleton_joint *joints = (spring_skeleton_joint *)(block + at[3]);
	spring_skeleton_collider *colliders = (spring_skeleton_collider *)(block + at[4]);
	int *members = (int *)(block + at[5]);
	int *refs = (int *)(block + at[6]);
	f->names = (char(*)[NAME_SIZE])(block + at[7]);
	f->by_name = (int *)(block + at[8]);
	memcpy(f->by_name, rd->by_name, bytes[8]);
	memcpy(nodes, rd->nodes, bytes[2]);
	if (bytes[3]) {
		memcpy(joints, rd->joints, bytes[3]);
	}
	if (bytes[4]) {
		memcpy(colliders, rd->colliders, bytes[4]);
	}
	memcpy(f->names, rd->names, bytes[7]);
	int m = 0;
	for (int g = 0; g < rd->group_count; g++) {
		groups[g].colliders = &members[m];
		groups[g].collider_count = rd->groups[g].collider_count;
		for (int k = 0; k < groups[g].collider_count; k++) {
			members[m++] = rd->groups[g].colliders[k];
		}
	}
	int rf = 0;
	for (int s = 0; s < rd->spring_count; s++) {
		springs[s] = rd->springs[s];
		springs[s].joints = &joints[rd->joint_first[s]];
		springs[s].collider_groups = &refs[rf];
		springs[s].collider_group_count = rd->spring_group_count[s];
		for (int k = 0; k < rd->spring_group_count[s]; k++) {
			refs[rf++] = rd->group_refs[rd->spring_groups_first[s] + k];
		}
	}
	f->format = rd->format;
	f->desc = (spring_skeleton_desc){nodes,  rd->node_count,  springs, rd->spring_count,           colliders, rd->collider_count,
	                                 groups, rd->group_count, 0.0f,    SPRING_SKELETON_LENGTH_REST};
	spring_error e;
	spring_result r = spring_skeleton_validate(&f->desc, &e);
	if (r != SPRING_OK) {
		map_error(rd, r, &e);
		cJSON_free(block);
		return c->result;
	}
	*out = f;
	return SPRING_OK;
}

static spring_result read_document(rj *c, const cJSON *doc, spring_vrm_file **out)
{
	if (!cJSON_IsObject(doc)) {
		return rj_bad(c, "$", "expected an object (a glTF document), got %s", rj_type_name(doc));
	}
	char pa[RJ_PATH_SIZE];
	const cJSON *asset = rj_member(c, doc, "$", "asset", 1, pa);
	if (!asset || rj_expect_object(c, asset, pa, "the glTF asset")) {
		return c->result;
	}
	char pv[RJ_PATH_SIZE];
	const cJSON *version = rj_member(c, asset, pa, "version", 1, pv);
	if (!version) {
		return c->result;
	}
	if (!cJSON_IsString(version) || strncmp(version->valuestring, "2.", 2) != 0) {
		return rj_bad(c, pv, "not a glTF 2 document (this reader reads glTF 2.x)");
	}
	reader rd;
	memset(&rd, 0, sizeof rd);
	rd.c = c;
	if (read_nodes(&rd, doc)) {
		return c->result;
	}
	char pe[RJ_PATH_SIZE];
	const cJSON *ext = rj_member(c, doc, "$", "extensions", 0, pe);
	if (ext && rj_expect_object(c, ext, pe, "the extensions")) {
		return c->result;
	}
	const cJSON *v1 = ext ? cJSON_GetObjectItemCaseSensitive(ext, "VRMC_springBone") : NULL;
	const cJSON *vrm = ext ? cJSON_GetObjectItemCaseSensitive(ext, "VRM") : NULL;
	const cJSON *v0 = vrm && cJSON_IsObject(vrm) ? cJSON_GetObjectItemCaseSensitive(vrm, "secondaryAnimation") : NULL;
	if (v1) {
		rd.format = SPRING_VRM_FORMAT_1_0;
		if (read_vrm1(&rd, v1)) {
			return c->result;
		}
	} else if (v0) {
		rd.format = SPRING_VRM_FORMAT_0_X;
		if (read_vrm0(&rd, v0)) {
			return c->result;
		}
	}
	return build(&rd, out);
}

static uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

// A GLB's header and first chunk header (`head`, 20 bytes) against the container's real size:
// where the JSON is and how long.
static spring_result glb_json(rj *c, const unsigned char *head, size_t size, size_t *offset, size_t *length)
{
	if (size < 20) {
		return rj_bad(c, "", "a GLB container needs a 12-byte header and a chunk (the data has %zu bytes)", size);
	}
	uint32_t version = le32(head + 4), total = le32(head + 8), chunk = le32(head + 12), type = le32(head + 16);
	if (version != 2) {
		return rj_bad(c, "", "GLB version %u (this reader reads version 2)", (unsigned)version);
	}
	if ((size_t)total != size) {
		return rj_bad(c, "", "the GLB header gives a length of %u bytes, the data has %zu", (unsigned)total, size);
	}
	if (type != GLB_JSON) {
		return rj_bad(c, "", "the GLB's first chunk is not JSON (type 0x%08X)", (unsigned)type);
	}
	if ((size_t)chunk > size - 20) {
		return rj_bad(c, "", "the GLB's JSON chunk gives a length of %u bytes, %zu follow", (unsigned)chunk, size - 20);
	}
	if (chunk > SPRING_VRM_FILE_MAX_BYTES) {
		return rj_fail(c, SPRING_ERROR_OUT_OF_RANGE, "", "the JSON chunk is larger than %u bytes (64 MiB): %u bytes",
		               SPRING_VRM_FILE_MAX_BYTES, (unsigned)chunk);
	}
	*offset = 20;
	*length = chunk;
	return SPRING_OK;
}

static bool is_glb(const unsigned char *b, size_t size)
{
	return size >= 4 && le32(b) == GLB_MAGIC;
}

// text[0..length) (a copy, NUL-terminated) -> the model.
static spring_result load_json(rj *c, char *text, size_t length, spring_vrm_file **out)
{
	cJSON *doc = rj_parse(c, text, length);
	if (!doc) {
		return c->result;
	}
	read_document(c, doc, out);
	cJSON_Delete(doc);
	return c->result;
}

spring_result spring_vrm_load_memory(const void *bytes, size_t size, const char *name_for_errors, spring_vrm_file **out,
                                     spring_file_error *error)
{
	rj c;
	rj_begin(&c, error, name_for_errors ? name_for_errors : "<memory>");
	if (!out || (!bytes && size > 0)) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : "bytes is NULL");
		return rj_finish(&c);
	}
	const unsigned char *b = (const unsigned char *)bytes;
	size_t offset = 0, length = size;
	if (is_glb(b, size)) {
		if (glb_json(&c, b, size, &offset, &length)) {
			return rj_finish(&c);
		}
	} else if (size > SPRING_VRM_FILE_MAX_BYTES) {
		rj_fail(&c, SPRING_ERROR_OUT_OF_RANGE, "", "the document is larger than %u bytes (64 MiB): %zu bytes",
		        SPRING_VRM_FILE_MAX_BYTES, size);
		return rj_finish(&c);
	}
	char *text = (char *)rj_alloc(&c, length + 1, 1);
	if (text) {
		if (length) {
			memcpy(text, b + offset, length);
		}
		load_json(&c, text, length, out);
	}
	return rj_finish(&c);
}

spring_result spring_vrm_load_file(const char *filename, spring_vrm_file **out, spring_file_error *error)
{
	rj c;
	rj_begin(&c, error, filename ? filename : "<null>");
	if (!filename || !out) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : "no file name given");
		return rj_finish(&c);
	}
	FILE *f = fopen(filename, "rb");
	if (!f) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot open the file: %s", strerror(errno));
		return rj_finish(&c);
	}
	long end = -1;
	if (fseek(f, 0, SEEK_END) == 0) {
		end = ftell(f);
	}
	if (end < 0 || fseek(f, 0, SEEK_SET) != 0) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot read the file: it is not a regular file");
		fclose(f);
		return rj_finish(&c);
	}
	size_t size = (size_t)end;
	unsigned char head[20];
	size_t got = fread(head, 1, sizeof head < size ? sizeof head : size, f);
	size_t offset = 0, length = size;
	if (got != (sizeof head < size ? sizeof head : size)) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot read the file: %s", strerror(errno));
	} else if (is_glb(head, got)) {
		glb_json(&c, head, size, &offset, &length);
	} else if (size > SPRING_VRM_FILE_MAX_BYTES) {
		rj_fail(&c, SPRING_ERROR_OUT_OF_RANGE, "", "the file is larger than %u bytes (64 MiB): %zu bytes",
		        SPRING_VRM_FILE_MAX_BYTES, size);
	}
	char *text = c.result == SPRING_OK ? (char *)rj_alloc(&c, length + 1, 1) : NULL;
	if (text) {
		if (fseek(f, (long)offset, SEEK_SET) != 0 || fread(text, 1, length, f) != length) {
			rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot read the file: it is shorter than it was");
		} else {
			load_json(&c, text, length, out);
		}
	}
	fclose(f);
	return rj_finish(&c);
}

void spring_vrm_file_destroy(spring_vrm_file *file)
{
	cJSON_free(file);
}

const spring_skeleton_desc *spring_vrm_file_desc(const spring_vrm_file *file)
{
	return file ? &file->desc : NULL;
}

spring_vrm_format spring_vrm_file_format(const spring_vrm_file *file)
{
	return file ? file->format : SPRING_VRM_FORMAT_NONE;
}

const char *spring_vrm_file_node_name(const spring_vrm_file *file, int node)
{
	return file && node >= 0 && node < file->desc.node_count ? file->names[node] : NULL;
}

int spring_vrm_file_find_node(const spring_vrm_file *file, const char *name)
{
	if (!file || !name) {
		return -1;
	}
	int lo = 0, hi = file->desc.node_count - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, node = file->by_name[mid];
		int r = strcmp(file->names[node], name);
		if (r == 0) {
			return node;
		}
		if (r < 0) {
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return -1;
}
