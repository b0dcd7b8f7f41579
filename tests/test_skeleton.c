// SPDX-License-Identifier: MIT
// spring_skeleton_validate: a sound description passes, at the edges of every range too, and every
// fault is refused with its code, its location (node, spring and joint, collider, collider group)
// and its field.
#include "spring/skeleton.h"

#include "test_macros.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The sample: node 0 a hips root, 1 a head under it, 2..4 a three-node hair strand under the head
// (2 -> 3 -> 4), 5 an unrelated arm under the hips, 6 an end node under 4. One spring of joints
// 2, 3, 4 (4 a tail only); a second spring of joint 5 with an end tail; colliders on the head.
typedef struct sample {
	spring_skeleton_node nodes[7];
	spring_skeleton_joint hair[3];
	spring_skeleton_joint arm[1];
	int groups_of_hair[1];
	spring_skeleton_spring springs[2];
	spring_skeleton_collider colliders[3];
	int group_members[3];
	spring_skeleton_collider_group groups[1];
	spring_skeleton_desc desc;
} sample;

static spring_skeleton_joint joint(int node)
{
	spring_skeleton_joint j;
	memset(&j, 0, sizeof j);
	j.node = node;
	j.stiffness = 1.0f;
	j.drag = 0.4f;
	j.gravity_dir = spring_vec3_make(0.0f, -1.0f, 0.0f);
	j.hit_radius = 0.02f;
	return j;
}

static void make_sample(sample *s)
{
	memset(s, 0, sizeof *s);
	const int parents[7] = {-1, 0, 1, 2, 3, 0, 4};
	const float drops[7] = {1.0f, 0.5f, 0.1f, -0.1f, -0.1f, 0.2f, -0.05f};
	for (int i = 0; i < 7; i++) {
		s->nodes[i].parent = parents[i];
		s->nodes[i].translation = spring_vec3_make(0.0f, drops[i], 0.0f);
	}
	s->nodes[1].rotation = spring_quat_from_axis_angle(spring_vec3_make(0.0f, 1.0f, 0.0f), 0.3f);
	s->nodes[2].scale = spring_vec3_make(1.0f, 2.0f, 1.0f);
	for (int k = 0; k < 3; k++) {
		s->hair[k] = joint(2 + k);
	}
	s->arm[0] = joint(5);
	s->colliders[0] = (spring_skeleton_collider){1, SPRING_SKELETON_COLLIDER_SPHERE, {0, 0.1f, 0}, {0, 0, 0}, 0.1f};
	s->colliders[1] = (spring_skeleton_collider){1, SPRING_SKELETON_COLLIDER_CAPSULE, {0, 0, 0}, {0, 0.2f, 0}, 0.05f};
	s->colliders[2] = (spring_skeleton_collider){0, SPRING_SKELETON_COLLIDER_PLANE, {0, 0, 0}, {0, 1, 0}, 0.0f};
	for (int k = 0; k < 3; k++) {
		s->group_members[k] = k;
	}
	s->groups[0] = (spring_skeleton_collider_group){s->group_members, 3};
	s->groups_of_hair[0] = 0;
	s->springs[0] = (spring_skeleton_spring){s->hair, 3, false, {0, 0, 0}, 1, s->groups_of_hair, 1};
	s->springs[1] = (spring_skeleton_spring){s->arm, 1, true, {0.07f, 0, 0}, -1, NULL, 0};
	s->desc = (spring_skeleton_desc){s->nodes, 7,         s->springs, 2,    s->colliders,
	                                 3,        s->groups, 1,          0.0f, SPRING_SKELETON_LENGTH_REST};
}

static int test_sample_is_valid(void)
{
	sample s;
	make_sample(&s);
	spring_error e;
	ENSURE(spring_skeleton_validate(&s.desc, &e) == SPRING_OK);
	ENSURE(spring_skeleton_validate(NULL, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_validate(&s.desc, NULL) == SPRING_OK);
	// A skeleton without springs is a skeleton.
	s.desc.spring_count = 0;
	ENSURE(spring_skeleton_validate(&s.desc, &e) == SPRING_OK);
	return 0;
}

typedef void mutate_fn(sample *s);

typedef struct bad_case {
	const char *what;
	mutate_fn *mutate;
	spring_result result;
	int depth;
	spring_element element;  // innermost
	int index;               // innermost
	const char *field;       // "" for none
	const char *message_has; // a piece of the message
} bad_case;

static void no_nodes(sample *s)
{
	s->desc.node_count = 0;
}
static void too_many_nodes(sample *s)
{
	s->desc.node_count = SPRING_SKELETON_MAX_NODES + 1;
}
static void null_nodes(sample *s)
{
	s->desc.nodes = NULL;
}
static void null_springs(sample *s)
{
	s->desc.springs = NULL;
}
static void negative_colliders(sample *s)
{
	s->desc.collider_count = -1;
}
static void rate_negative(sample *s)
{
	s->desc.rate = -60.0f;
}
static void rate_nan(sample *s)
{
	s->desc.rate = NAN;
}
static void rate_high(sample *s)
{
	s->desc.rate = nextafterf(SPRING_SKELETON_MAX_RATE, INFINITY);
}
static void length_enum(sample *s)
{
	s->desc.length = SPRING_SKELETON_LENGTH_COUNT;
}
static void parent_range(sample *s)
{
	s->nodes[3].parent = 7;
}
static void parent_below(sample *s)
{
	s->nodes[3].parent = -2;
}
static void parent_self(sample *s)
{
	s->nodes[3].parent = 3;
}
static void cycle(sample *s)
{
	s->nodes[0].parent = 4;
}
static void translation_nan(sample *s)
{
	s->nodes[2].translation.y = NAN;
}
static void translation_big(sample *s)
{
	s->nodes[2].translation.x = nextafterf(SPRING_SKELETON_MAX_COORDINATE, INFINITY);
}
static void rotation_inf(sample *s)
{
	s->nodes[1].rotation.w = INFINITY;
}
static void rotation_tiny(sample *s)
{
	s->nodes[1].rotation = (spring_quat){0, 0, 0, 1e-7f};
}
static void scale_partly_zero(sample *s)
{
	s->nodes[2].scale = spring_vec3_make(1.0f, 0.0f, 1.0f);
}
static void scale_nan(sample *s)
{
	s->nodes[2].scale.z = NAN;
}
static void scale_big(sample *s)
{
	s->nodes[2].scale.y = 2e6f;
}
static void collider_node(sample *s)
{
	s->colliders[1].node = 7;
}
static void collider_type(sample *s)
{
	s->colliders[1].type = SPRING_SKELETON_COLLIDER_COUNT;
}
static void collider_radius(sample *s)
{
	s->colliders[0].radius = -0.01f;
}
static void collider_radius_nan(sample *s)
{
	s->colliders[0].radius = NAN;
}
static void collider_offset(sample *s)
{
	s->colliders[0].offset.z = INFINITY;
}
static void collider_tail(sample *s)
{
	s->colliders[1].tail.z = -2e6f;
}
static void plane_zero(sample *s)
{
	s->colliders[2].tail = spring_vec3_make(0, 0, 0);
}
static void group_member(sample *s)
{
	s->group_members[2] = 3;
}
static void group_null(sample *s)
{
	s->groups[0].colliders = NULL;
}
static void group_count(sample *s)
{
	s->groups[0].collider_count = -1;
}
static void spring_one_joint(sample *s)
{
	s->springs[0].joint_count = 1;
}
static void spring_no_joint(sample *s)
{
	s->springs[1].joint_count = 0;
}
static void spring_null_joints(sample *s)
{
	s->springs[0].joints = NULL;
}
static void joint_node(sample *s)
{
	s->hair[1].node = -1;
}
static void stiffness_negative(sample *s)
{
	s->hair[0].stiffness = -1.0f;
}
static void stiffness_nan(sample *s)
{
	s->hair[0].stiffness = NAN;
}
static void stiffness_big(sample *s)
{
	s->hair[0].stiffness = nextafterf(SPRING_SKELETON_MAX_SETTING, INFINITY);
}
static void drag_above(sample *s)
{
	s->hair[1].drag = nextafterf(1.0f, 2.0f);
}
static void drag_below(sample *s)
{
	s->hair[1].drag = -FLT_MIN;
}
static void gravity_power(sample *s)
{
	s->hair[0].gravity_power = -0.5f;
}
static void gravity_dir(sample *s)
{
	s->hair[0].gravity_dir.x = NAN;
}
static void hit_radius(sample *s)
{
	s->arm[0].hit_radius = -1.0f;
}
static void last_joint_settings(sample *s)
{
	s->hair[2].drag = 2.0f;
}
static void not_descendant(sample *s)
{
	s->hair[2].node = 5;
}
static void second_not_descendant(sample *s)
{
	s->hair[1].node = 5;
}
static void sibling_order(sample *s)
{
	s->hair[1].node = 4;
	s->hair[2].node = 3;
}
static void twice_in_spring(sample *s)
{
	s->hair[2].node = 2;
}
static void twice_across(sample *s)
{
	s->arm[0].node = 3;
}
static void center_range(sample *s)
{
	s->springs[0].center = 7;
}
static void center_below(sample *s)
{
	s->springs[0].center = 3;
}
static void center_aside(sample *s)
{
	s->springs[0].center = 5;
}
static void center_other_joint(sample *s)
{
	// Hair hangs from the arm's joint, the centre is that joint: it moves with the other spring.
	s->nodes[2].parent = 5;
	s->springs[0].center = 5;
}
static void end_tail_nan(sample *s)
{
	s->springs[1].end_tail.y = NAN;
}
static void end_tail_zero(sample *s)
{
	s->springs[1].end_tail = spring_vec3_make(0, 0, 0);
}
static void zero_bone(sample *s)
{
	s->nodes[3].translation = spring_vec3_make(0, 0, 0);
}
static void group_index(sample *s)
{
	s->groups_of_hair[0] = 1;
}
static void group_list_null(sample *s)
{
	s->springs[0].collider_groups = NULL;
}
static void too_many_joints(sample *s)
{
	s->springs[0].joint_count = SPRING_SKELETON_MAX_JOINTS + 1;
}
static void huge_pose(sample *s)
{
	for (int i = 0; i < 5; i++) {
		s->nodes[i].scale = spring_vec3_make(1e6f, 1e6f, 1e6f);
	}
}

#define INV SPRING_ERROR_INVALID_ARGUMENT
#define NF SPRING_ERROR_NOT_FINITE
#define OOR SPRING_ERROR_OUT_OF_RANGE
#define BAD SPRING_ERROR_BAD_DEFINITION
#define E_NONE SPRING_ELEMENT_NONE
#define E_NODE SPRING_ELEMENT_NODE
#define E_SPRING SPRING_ELEMENT_SPRING
#define E_JOINT SPRING_ELEMENT_JOINT
#define E_COLL SPRING_ELEMENT_COLLIDER
#define E_GROUP SPRING_ELEMENT_COLLIDER_GROUP

static const bad_case bad_cases[] = {
	{"no nodes", no_nodes, INV, 0, E_NONE, -1, "node_count", "node_count must be in [1, 16384]"},
	{"too many nodes", too_many_nodes, INV, 0, E_NONE, -1, "node_count", "got 16385"},
	{"NULL nodes", null_nodes, INV, 0, E_NONE, -1, "nodes", "must not be NULL"},
	{"NULL springs", null_springs, INV, 0, E_NONE, -1, "springs", "must not be NULL"},
	{"negative collider count", negative_colliders, INV, 0, E_NONE, -1, "collider_count", "got -1"},
	{"negative rate", rate_negative, OOR, 0, E_NONE, -1, "rate", "10000"},
	{"NaN rate", rate_nan, NF, 0, E_NONE, -1, "rate", "finite"},
	{"rate above the maximum", rate_high, OOR, 0, E_NONE, -1, "rate", "10000"},
	{"length enum", length_enum, INV, 0, E_NONE, -1, "length", "spring_skeleton_length"},
	{"parent out of range", parent_range, INV, 1, E_NODE, 3, "parent", "index of another node"},
	{"parent below -1", parent_below, INV, 1, E_NODE, 3, "parent", "-1"},
	{"parent itself", parent_self, BAD, 1, E_NODE, 3, "parent", "the node itself"},
	{"cycle", cycle, BAD, 1, E_NODE, 0, "parent", "cycle"},
	{"NaN translation", translation_nan, NF, 1, E_NODE, 2, "translation", "finite"},
	{"translation too far", translation_big, OOR, 1, E_NODE, 2, "translation", "1e6"},
	{"infinite rotation", rotation_inf, NF, 1, E_NODE, 1, "rotation", "finite"},
	{"tiny rotation", rotation_tiny, OOR, 1, E_NODE, 1, "rotation", "identity"},
	{"scale partly zero", scale_partly_zero, OOR, 1, E_NODE, 2, "scale", "all zero"},
	{"NaN scale", scale_nan, NF, 1, E_NODE, 2, "scale", "finite"},
	{"scale too big", scale_big, OOR, 1, E_NODE, 2, "scale", "1e6"},
	{"collider node", collider_node, INV, 1, E_COLL, 1, "node", "index of a node"},
	{"collider type", collider_type, INV, 1, E_COLL, 1, "type", "spring_skeleton_collider_type"},
	{"negative radius", collider_radius, OOR, 1, E_COLL, 0, "radius", "[0, "},
	{"NaN radius", collider_radius_nan, NF, 1, E_COLL, 0, "radius", "finite"},
	{"infinite offset", collider_offset, NF, 1, E_COLL, 0, "offset", "finite"},
	{"far tail", collider_tail, OOR, 1, E_COLL, 1, "tail", "1e6"},
	{"zero plane normal", plane_zero, OOR, 1, E_COLL, 2, "tail", "normal"},
	{"group member", group_member, INV, 1, E_GROUP, 0, "colliders", "colliders[2] = 3"},
	{"group NULL", group_null, INV, 1, E_GROUP, 0, "colliders", "NULL"},
	{"group count", group_count, INV, 1, E_GROUP, 0, "collider_count", "[0, "},
	{"one joint without a tail", spring_one_joint, INV, 1, E_SPRING, 0, "joint_count", "has_end_tail"},
	{"no joint", spring_no_joint, INV, 1, E_SPRING, 1, "joint_count", "[1, "},
	{"NULL joints", spring_null_joints, INV, 1, E_SPRING, 0, "joints", "NULL"},
	{"joint node", joint_node, INV, 2, E_JOINT, 1, "node", "index of a node"},
	{"negative stiffness", stiffness_negative, OOR, 2, E_JOINT, 0, "stiffness", "[0, "},
	{"NaN stiffness", stiffness_nan, NF, 2, E_JOINT, 0, "stiffness", "finite"},
	{"stiffness too big", stiffness_big, OOR, 2, E_JOINT, 0, "stiffness", "1e6"},
	{"drag above 1", drag_above, OOR, 2, E_JOINT, 1, "drag", "[0, 1]"},
	{"drag below 0", drag_below, OOR, 2, E_JOINT, 1, "drag", "[0, 1]"},
	{"negative gravity power", gravity_power, OOR, 2, E_JOINT, 0, "gravity_power", "[0, "},
	{"NaN gravity direction", gravity_dir, NF, 2, E_JOINT, 0, "gravity_dir", "finite"},
	{"negative hit radius", hit_radius, OOR, 2, E_JOINT, 0, "hit_radius", "[0, "},
	{"the last joint's settings", last_joint_settings, OOR, 2, E_JOINT, 2, "drag", "[0, 1]"},
	{"joint not a descendant", not_descendant, BAD, 2, E_JOINT, 2, "node", "not a descendant"},
	{"second joint not a descendant", second_not_descendant, BAD, 2, E_JOINT, 1, "node", "previous joint's node 2"},
	{"joints out of order", sibling_order, BAD, 2, E_JOINT, 2, "node", "not a descendant"},
	{"node twice in a spring", twice_in_spring, BAD, 2, E_JOINT, 2, "node", "not a descendant"},
	{"node in two springs", twice_across, BAD, 2, E_JOINT, 0, "node", "already joint 1 of spring 0"},
	{"centre out of range", center_range, INV, 1, E_SPRING, 0, "center", "index of a node"},
	{"centre below the first joint", center_below, BAD, 1, E_SPRING, 0, "center", "nor one of its ancestors"},
	{"centre beside the spring", center_aside, BAD, 1, E_SPRING, 0, "center", "nor one of its ancestors"},
	{"centre a joint of another spring", center_other_joint, BAD, 1, E_SPRING, 0, "center", "joint 0 of spring 1"},
	{"NaN end tail", end_tail_nan, NF, 1, E_SPRING, 1, "end_tail", "finite"},
	{"zero end tail", end_tail_zero, BAD, 2, E_JOINT, 0, "", "end tail"},
	{"zero-length bone", zero_bone, BAD, 2, E_JOINT, 0, "", "the next joint"},
	{"collider group index", group_index, INV, 1, E_SPRING, 0, "collider_groups", "collider_groups[0] = 1"},
	{"collider group list NULL", group_list_null, INV, 1, E_SPRING, 0, "collider_groups", "NULL"},
	{"too many joints", too_many_joints, INV, 1, E_SPRING, 0, "joint_count", "4096"},
	{"rest pose out of range", huge_pose, OOR, 2, E_JOINT, 0, "", "out of range"},
};

static int test_bad_descriptions(void)
{
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const bad_case *c = &bad_cases[i];
		sample s;
		make_sample(&s);
		c->mutate(&s);
		spring_error e;
		memset(&e, 0x55, sizeof e);
		spring_result r = spring_skeleton_validate(&s.desc, &e);
		spring_error_step inner = spring_error_innermost(&e);
		bool ok = r == c->result && e.result == r && e.depth == c->depth && inner.element == c->element &&
		          inner.index == c->index && strcmp(e.field, c->field) == 0 && strstr(e.message, c->message_has) &&
		          strcmp(e.object, "skeleton") == 0;
		if (!ok) {
			printf("  case %zu (%s): result %d depth %d element %d index %d field \"%s\": %s\n", i, c->what, (int)r, e.depth,
			       (int)inner.element, inner.index, e.field, e.message);
		}
		ENSURE(ok);
	}
	return 0;
}

// Both sides of each bound: the largest accepted values pass.
static int test_edges_accepted(void)
{
	sample s;
	make_sample(&s);
	s.desc.rate = SPRING_SKELETON_MAX_RATE;
	s.hair[0].stiffness = SPRING_SKELETON_MAX_SETTING;
	s.hair[0].gravity_power = SPRING_SKELETON_MAX_SETTING;
	s.hair[0].gravity_dir = spring_vec3_make(-SPRING_SKELETON_MAX_SETTING, 0, SPRING_SKELETON_MAX_SETTING);
	s.hair[0].drag = 1.0f;
	s.hair[1].drag = 0.0f;
	s.hair[1].stiffness = 0.0f;
	s.hair[1].hit_radius = SPRING_SKELETON_MAX_COORDINATE;
	s.nodes[5].translation.x = SPRING_SKELETON_MAX_COORDINATE;
	s.nodes[2].scale = spring_vec3_make(1.0f / SPRING_SKELETON_MAX_SCALE * 1.0001f, 1.0f, -1.0f);
	s.nodes[1].rotation = (spring_quat){0, 0, 0, 1e-5f};
	s.colliders[0].radius = SPRING_SKELETON_MAX_COORDINATE;
	s.colliders[2].tail = spring_vec3_make(0, 2e-6f, 0);
	s.springs[0].center = 0;
	s.springs[1].center = 5; // the first joint itself
	s.desc.length = SPRING_SKELETON_LENGTH_MEASURED;
	spring_error e;
	spring_result r = spring_skeleton_validate(&s.desc, &e);
	if (r != SPRING_OK) {
		printf("  %s\n", e.message);
	}
	ENSURE(r == SPRING_OK);
	// The bone-length floor: just above passes, just below fails.
	make_sample(&s);
	s.springs[1].end_tail = spring_vec3_make(2e-6f, 0, 0);
	ENSURE(spring_skeleton_validate(&s.desc, &e) == SPRING_OK);
	s.springs[1].end_tail = spring_vec3_make(0.5e-6f, 0, 0);
	ENSURE(spring_skeleton_validate(&s.desc, &e) == SPRING_ERROR_BAD_DEFINITION);
	// Scale enters the length: a node scaled by 1e-3 shrinks an end tail of 1e-3 to 1e-6.
	make_sample(&s);
	s.nodes[5].scale = spring_vec3_make(1e-3f, 1e-3f, 1e-3f);
	s.springs[1].end_tail = spring_vec3_make(0.5e-3f, 0, 0);
	ENSURE(spring_skeleton_validate(&s.desc, &e) == SPRING_ERROR_BAD_DEFINITION);
	s.springs[1].end_tail = spring_vec3_make(2e-3f, 0, 0);
	ENSURE(spring_skeleton_validate(&s.desc, &e) == SPRING_OK);
	return 0;
}

// The limits on counts and depth are reached, not only never exceeded.
static int test_limits_reached(void)
{
	static spring_skeleton_node nodes[SPRING_SKELETON_MAX_NODES];
	static spring_skeleton_joint joints[SPRING_SKELETON_MAX_JOINTS];
	memset(nodes, 0, sizeof nodes);
	// A single strand SPRING_SKELETON_MAX_DEPTH deep, the rest of the nodes flat under the root.
	for (int i = 0; i < SPRING_SKELETON_MAX_NODES; i++) {
		nodes[i].parent = i == 0 ? -1 : (i <= SPRING_SKELETON_MAX_DEPTH ? i - 1 : 0);
		nodes[i].translation = spring_vec3_make(0.0f, -0.01f, 0.0f);
	}
	for (int k = 0; k < SPRING_SKELETON_MAX_DEPTH; k++) {
		joints[k] = joint(k + 1);
	}
	spring_skeleton_spring spring = {joints, SPRING_SKELETON_MAX_DEPTH, false, {0, 0, 0}, 0, NULL, 0};
	spring_skeleton_desc d = {nodes, SPRING_SKELETON_MAX_NODES, &spring, 1, NULL, 0, NULL, 0, 0.0f, SPRING_SKELETON_LENGTH_REST};
	spring_error e;
	spring_result r = spring_skeleton_validate(&d, &e);
	if (r != SPRING_OK) {
		printf("  %s\n", e.message);
	}
	ENSURE(r == SPRING_OK);
	// One level deeper is refused as too deep, not as a cycle.
	nodes[SPRING_SKELETON_MAX_DEPTH + 1].parent = SPRING_SKELETON_MAX_DEPTH;
	ENSURE(spring_skeleton_validate(&d, &e) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_error_innermost(&e).element == SPRING_ELEMENT_NODE);
	ENSURE(strstr(e.message, "levels deep") != NULL);
	nodes[SPRING_SKELETON_MAX_DEPTH + 1].parent = 0;
	// A long cycle far from node 0 is found as a cycle.
	nodes[2000].parent = 2003;
	nodes[2001].parent = 2000;
	nodes[2002].parent = 2001;
	nodes[2003].parent = 2002;
	ENSURE(spring_skeleton_validate(&d, &e) == SPRING_ERROR_BAD_DEFINITION);
	ENSURE(strstr(e.message, "cycle") != NULL);
	ENSURE(spring_error_innermost(&e).index == 2000);
	for (int i = 2000; i < 2004; i++) {
		nodes[i].parent = 0;
	}
	// SPRING_SKELETON_MAX_JOINTS joints in all: reached, and one more refused.
	static spring_skeleton_spring springs[SPRING_SKELETON_MAX_JOINTS / 2];
	for (int k = 0; k < SPRING_SKELETON_MAX_JOINTS; k++) {
		joints[k] = joint(SPRING_SKELETON_MAX_DEPTH + 1 + k);
	}
	int spring_count = SPRING_SKELETON_MAX_JOINTS / 2 < SPRING_SKELETON_MAX_SPRINGS ? SPRING_SKELETON_MAX_JOINTS / 2
	                                                                                : SPRING_SKELETON_MAX_SPRINGS;
	int per = SPRING_SKELETON_MAX_JOINTS / spring_count; // 4 joints a spring, a strand under the root
	for (int s = 0; s < spring_count; s++) {
		int first = SPRING_SKELETON_MAX_DEPTH + 1 + s * per;
		for (int k = 1; k < per; k++) {
			nodes[first + k].parent = first + k - 1;
		}
		springs[s] = (spring_skeleton_spring){&joints[s * per], per, false, {0, 0, 0}, -1, NULL, 0};
	}
	d.springs = springs;
	d.spring_count = spring_count;
	r = spring_skeleton_validate(&d, &e);
	if (r != SPRING_OK) {
		printf("  %s\n", e.message);
	}
	ENSURE(r == SPRING_OK);
	springs[spring_count - 1].has_end_tail = true;
	springs[spring_count - 1].end_tail = spring_vec3_make(0, -0.01f, 0);
	springs[spring_count - 1].joint_count = per + 1; // one past the array: must be refused before it is read
	ENSURE(spring_skeleton_validate(&d, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(strstr(e.message, "4096") != NULL);
	return 0;
}

// Error names of the skeleton's elements.
static int test_element_names(void)
{
	ENSURE(strcmp(spring_element_name(SPRING_ELEMENT_NODE), "node") == 0);
	ENSURE(strcmp(spring_element_name(SPRING_ELEMENT_SPRING), "spring") == 0);
	ENSURE(strcmp(spring_element_name(SPRING_ELEMENT_JOINT), "joint") == 0);
	ENSURE(strcmp(spring_element_name(SPRING_ELEMENT_COLLIDER_GROUP), "collider group") == 0);
	ENSURE(strcmp(spring_element_name(SPRING_ELEMENT_COUNT), "") == 0);
	sample s;
	make_sample(&s);
	twice_across(&s);
	spring_error e;
	ENSURE(spring_skeleton_validate(&s.desc, &e) == SPRING_ERROR_BAD_DEFINITION);
	ENSURE_MSG(strncmp(e.message, "spring 1: joint 0: node ", 24) == 0, "%s", e.message);
	ENSURE(e.other.element == SPRING_ELEMENT_SPRING && e.other.index == 0);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// The runtime

static void rest_locals(const sample *s, spring_xform3 *locals)
{
	for (int i = 0; i < 7; i++) {
		locals[i].position = s->nodes[i].translation;
		spring_quat q = s->nodes[i].rotation;
		locals[i].rotation = q.x == 0 && q.y == 0 && q.z == 0 && q.w == 0 ? spring_quat_identity() : q;
	}
}

static int counted_allocs;
static void *counting_alloc(size_t size, size_t alignment, void *context)
{
	(void)context;
	counted_allocs++;
	return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
static void counting_free(void *p, void *context)
{
	(void)context;
	free(p);
}

// Bad input is refused with its code and changes nothing (the whole block stays byte-identical).
static int test_runtime_bad_input(void)
{
	sample s;
	make_sample(&s);
	size_t size = spring_skeleton_memory_size(&s.desc);
	ENSURE(size > 0);
	void *memory = aligned_alloc(16, (size + 15) / 16 * 16);
	void *copy = malloc(size);
	ENSURE(memory && copy);
	spring_skeleton *sk = NULL;
	spring_error e;
	ENSURE(spring_skeleton_init(&s.desc, memory, size - 16, &sk, &e) == SPRING_ERROR_INVALID_ARGUMENT && sk == NULL);
	ENSURE(spring_skeleton_init(&s.desc, (char *)memory + 8, size, &sk, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_init(&s.desc, memory, size, &sk, &e) == SPRING_OK);
	ENSURE(spring_skeleton_bone_count(sk) == 3); // hair: 2 bones; arm: 1 with its end tail
	spring_xform3 locals[7], root = spring_xform3_identity();
	rest_locals(&s, locals);
	root.position.x = 0.3f;
	ENSURE(spring_skeleton_update(sk, root, locals, 7, 0.1f) == SPRING_OK);
	memcpy(copy, memory, size);
	struct {
		int node, field; // field 0..6: position x..z, rotation x..w; -1: the root
		float value;
		spring_result result;
	} bad[] = {
		{3, 0, NAN, SPRING_ERROR_NOT_FINITE},    {-1, 1, INFINITY, SPRING_ERROR_NOT_FINITE},
		{4, 2, 2e6f, SPRING_ERROR_OUT_OF_RANGE}, {-1, 0, -2e6f, SPRING_ERROR_OUT_OF_RANGE},
		{5, 6, NAN, SPRING_ERROR_NOT_FINITE},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		spring_xform3 l[7], r = root;
		memcpy(l, locals, sizeof l);
		spring_xform3 *x = bad[i].node < 0 ? &r : &l[bad[i].node];
		float *f = bad[i].field < 3 ? &x->position.x + bad[i].field : &x->rotation.x + (bad[i].field - 3);
		*f = bad[i].value;
		ENSURE(spring_skeleton_update(sk, r, l, 7, 1.0f / 60) == bad[i].result);
		ENSURE(spring_skeleton_reset(sk, r, l, 7) == bad[i].result);
		ENSURE(spring_skeleton_teleport(sk, r, l, 7) == bad[i].result);
		ENSURE(memcmp(copy, memory, size) == 0);
	}
	spring_xform3 zero[7];
	memcpy(zero, locals, sizeof zero);
	zero[2].rotation = (spring_quat){0, 0, 0, 0};
	ENSURE(spring_skeleton_update(sk, root, zero, 7, 1.0f / 60) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_update(sk, root, locals, 6, 1.0f / 60) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_update(sk, root, NULL, 7, 1.0f / 60) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_update(sk, root, locals, 7, -1.0f / 60) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_update(sk, root, locals, 7, NAN) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_skeleton_update(NULL, root, locals, 7, 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(copy, memory, size) == 0);
	spring_vec3 tails[3];
	ENSURE(spring_skeleton_get_pose(sk, NULL, NULL, tails, 2) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_skeleton_get_pose(sk, NULL, NULL, tails, 3) == SPRING_OK);
	// An enormous frame runs at most SPRING_SKELETON_MAX_STEPS steps and stays finite.
	root.position.x = -1000.0f;
	ENSURE(spring_skeleton_update(sk, root, locals, 7, 1e30f) == SPRING_OK);
	ENSURE(spring_skeleton_clock(sk)->last_steps == SPRING_SKELETON_MAX_STEPS);
	ENSURE(spring_skeleton_get_pose(sk, NULL, NULL, tails, 3) == SPRING_OK);
	for (int b = 0; b < 3; b++) {
		ENSURE(spring_vec3_is_finite(tails[b]));
	}
	// An invalid description: no memory size, no object.
	s.hair[0].drag = 2.0f;
	ENSURE(spring_skeleton_memory_size(&s.desc) == 0);
	sk = (spring_skeleton *)(uintptr_t)0x1234;
	ENSURE(spring_skeleton_create(&s.desc, &sk, &e) == SPRING_ERROR_OUT_OF_RANGE && sk == (spring_skeleton *)(uintptr_t)0x1234);
	free(memory);
	free(copy);
	return 0;
}

// One allocation at creation, none per frame; the same input gives the same bytes.
static int test_runtime_allocation_and_determinism(void)
{
	sample s;
	make_sample(&s);
	s.hair[0].gravity_power = 0.5f;
	spring_allocator counting = {counting_alloc, counting_free, NULL};
	spring_set_allocator(&counting);
	counted_allocs = 0;
	spring_skeleton *a = NULL, *b = NULL;
	ENSURE(spring_skeleton_create(&s.desc, &a, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_create(&s.desc, &b, NULL) == SPRING_OK);
	ENSURE(counted_allocs == 2);
	spring_xform3 locals[7];
	rest_locals(&s, locals);
	for (int f = 0; f < 300; f++) {
		spring_xform3 root = spring_xform3_identity();
		root.position.x = 0.2f * sinf(0.1f * (float)f);
		root.rotation = spring_quat_from_axis_angle(spring_vec3_make(0, 1, 0), 0.5f * sinf(0.07f * (float)f));
		float dt = (f % 3 == 0) ? 0.011f : 0.019f;
		ENSURE(spring_skeleton_update(a, root, locals, 7, dt) == SPRING_OK);
		ENSURE(spring_skeleton_update(b, root, locals, 7, dt) == SPRING_OK);
	}
	ENSURE(counted_allocs == 2);
	spring_quat qa[3], qb[3];
	spring_vec3 ta[3], tb[3];
	ENSURE(spring_skeleton_get_pose(a, NULL, qa, ta, 3) == SPRING_OK);
	ENSURE(spring_skeleton_get_pose(b, NULL, qb, tb, 3) == SPRING_OK);
	ENSURE(memcmp(qa, qb, sizeof qa) == 0 && memcmp(ta, tb, sizeof ta) == 0);
	spring_skeleton_destroy(a);
	spring_skeleton_destroy(b);
	spring_set_allocator(NULL);
	return 0;
}

// Gravity pulls the hair down until it rests; a teleport carries it along; reset puts it at rest.
static int test_runtime_rest_teleport_reset(void)
{
	sample s;
	make_sample(&s);
	s.hair[0].gravity_power = 1.0f;
	s.hair[0].gravity_dir = spring_vec3_make(1, 0, 0);
	s.springs[0].center = -1; // in world space, so the teleport must carry its tails
	spring_skeleton *sk = NULL, *moved = NULL;
	ENSURE(spring_skeleton_create(&s.desc, &sk, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_create(&s.desc, &moved, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_is_resting(sk));
	spring_xform3 locals[7], root = spring_xform3_identity();
	rest_locals(&s, locals);
	ENSURE(spring_skeleton_update(sk, root, locals, 7, 1.0f / 60) == SPRING_OK);
	ENSURE(!spring_skeleton_is_resting(sk)); // gravity sideways: it moves
	int frames = 1;
	while (!spring_skeleton_is_resting(sk) && frames < 6000) {
		ENSURE(spring_skeleton_update(sk, root, locals, 7, 1.0f / 60) == SPRING_OK);
		frames++;
	}
	printf("  at rest after %d frames\n", frames);
	ENSURE(spring_skeleton_is_resting(sk) && frames > 10 && frames < 6000);
	spring_vec3 before[3], after[3];
	ENSURE(spring_skeleton_get_stepped_pose(sk, NULL, NULL, before, 3) == SPRING_OK);
	ENSURE(before[0].x > 0.0f); // the hair's tail swung towards +x
	// The same motion with the whole avatar 100 units away: a teleport there, and the tails follow
	// exactly (to float rounding of the far coordinates).
	for (int f = 0; f < 30; f++) {
		ENSURE(spring_skeleton_update(moved, root, locals, 7, 1.0f / 60) == SPRING_OK);
	}
	spring_xform3 far = root;
	far.position = spring_vec3_make(100.0f, 0.0f, 0.0f);
	ENSURE(spring_skeleton_teleport(moved, far, locals, 7) == SPRING_OK);
	spring_skeleton *ref = NULL;
	ENSURE(spring_skeleton_create(&s.desc, &ref, NULL) == SPRING_OK);
	for (int f = 0; f < 30; f++) {
		ENSURE(spring_skeleton_update(ref, root, locals, 7, 1.0f / 60) == SPRING_OK);
	}
	for (int f = 0; f < 30; f++) {
		ENSURE(spring_skeleton_update(moved, far, locals, 7, 1.0f / 60) == SPRING_OK);
		ENSURE(spring_skeleton_update(ref, root, locals, 7, 1.0f / 60) == SPRING_OK);
		spring_vec3 a[3], b[3]; // every frame, the first after the jump too
		ENSURE(spring_skeleton_get_stepped_pose(moved, NULL, NULL, a, 3) == SPRING_OK);
		ENSURE(spring_skeleton_get_stepped_pose(ref, NULL, NULL, b, 3) == SPRING_OK);
		for (int i = 0; i < 3; i++) {
			ENSURE_NEAR(a[i].x - 100.0f, b[i].x, 2e-5);
			ENSURE_NEAR(a[i].y, b[i].y, 2e-5);
			ENSURE_NEAR(a[i].z, b[i].z, 2e-5);
		}
	}
	// Without the teleport the same jump whips the hair: far from the reference.
	spring_skeleton *jumped = NULL;
	ENSURE(spring_skeleton_create(&s.desc, &jumped, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_update(jumped, root, locals, 7, 1.0f / 60) == SPRING_OK);
	ENSURE(spring_skeleton_update(jumped, far, locals, 7, 1.0f / 60) == SPRING_OK);
	ENSURE(!spring_skeleton_is_resting(jumped));
	// Reset: at rest in the rest pose under the root, clock cleared.
	ENSURE(spring_skeleton_reset(sk, far, locals, 7) == SPRING_OK);
	ENSURE(spring_skeleton_is_resting(sk) && spring_skeleton_clock(sk)->time == 0.0);
	ENSURE(spring_skeleton_get_pose(sk, NULL, NULL, after, 3) == SPRING_OK);
	ENSURE_NEAR(after[0].x, 100.0, 1e-4); // the hair hangs straight under the head again
	spring_skeleton_destroy(sk);
	spring_skeleton_destroy(moved);
	spring_skeleton_destroy(ref);
	spring_skeleton_destroy(jumped);
	return 0;
}

// Snapshots replay bit for bit, in the same skeleton and another; every hostile blob is refused and
// changes nothing.
static int test_runtime_snapshot(void)
{
	sample s;
	make_sample(&s);
	s.hair[0].gravity_power = 0.5f;
	size_t size = spring_skeleton_memory_size(&s.desc);
	void *ma = aligned_alloc(16, (size + 15) / 16 * 16), *mb = aligned_alloc(16, (size + 15) / 16 * 16);
	void *copy = malloc(size);
	spring_skeleton *a = NULL, *b = NULL;
	ENSURE(ma && mb && copy);
	ENSURE(spring_skeleton_init(&s.desc, ma, size, &a, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_init(&s.desc, mb, size, &b, NULL) == SPRING_OK);
	spring_xform3 locals[7];
	rest_locals(&s, locals);
	spring_xform3 root = spring_xform3_identity();
	for (int f = 0; f < 100; f++) {
		root.position.x = 0.3f * sinf(0.2f * (float)f);
		ENSURE(spring_skeleton_update(a, root, locals, 7, f % 4 == 0 ? 0.031f : 0.013f) == SPRING_OK);
	}
	size_t blob_size = spring_skeleton_snapshot_size(a);
	unsigned char *blob = (unsigned char *)malloc(blob_size), *bad = (unsigned char *)malloc(blob_size);
	ENSURE(blob && bad);
	ENSURE(spring_skeleton_snapshot(a, blob, blob_size - 1) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_snapshot(a, blob, blob_size) == SPRING_OK);
	spring_vec3 ta[50][3], tb[50][3];
	spring_quat qa[50][3], qb[50][3];
	for (int pass = 0; pass < 2; pass++) {
		spring_skeleton *target = pass == 0 ? b : a;
		ENSURE(spring_skeleton_restore(target, blob, blob_size, NULL) == SPRING_OK);
		for (int f = 0; f < 50; f++) {
			root.position.x = 0.3f * sinf(0.2f * (float)(f + 100));
			ENSURE(spring_skeleton_update(pass == 0 ? a : b, root, locals, 7, f % 4 == 0 ? 0.031f : 0.013f) == SPRING_OK);
			ENSURE(spring_skeleton_update(target, root, locals, 7, f % 4 == 0 ? 0.031f : 0.013f) == SPRING_OK);
			spring_skeleton_get_pose(target, NULL, qa[f], ta[f], 3);
			spring_skeleton_get_pose(pass == 0 ? a : b, NULL, qb[f], tb[f], 3);
		}
		ENSURE(memcmp(ta, tb, sizeof ta) == 0 && memcmp(qa, qb, sizeof qa) == 0);
		ENSURE(spring_skeleton_snapshot(a, blob, blob_size) == SPRING_OK); // both at the same state again
		ENSURE(spring_skeleton_restore(b, blob, blob_size, NULL) == SPRING_OK);
	}
	// Hostile blobs: nothing changes.
	memcpy(copy, a, size);
	spring_error e;
	ENSURE(spring_skeleton_restore(a, blob, blob_size - 1, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_restore(a, NULL, blob_size, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	const size_t body = SPRING_SNAPSHOT_HEADER_BYTES, doubles = body + 44;
	int refused = 0, slots = 0;
	for (size_t at = doubles; at + 8 <= blob_size; at += 8, slots++) {
		memcpy(bad, blob, blob_size);
		double x = NAN;
		memcpy(bad + at, &x, sizeof x);
		spring_result r = spring_skeleton_restore(a, bad, blob_size, &e);
		refused += r == SPRING_ERROR_NOT_FINITE;
		ENSURE_MSG(r == SPRING_ERROR_NOT_FINITE, "offset %zu: %d %s", at, (int)r, e.message);
		ENSURE(memcmp(copy, a, size) == 0);
	}
	ENSURE(refused == slots && slots == (int)((blob_size - doubles) / 8));
	for (size_t at = doubles; at + 8 <= blob_size; at += 8) { // far, but finite: out of range (or a time)
		memcpy(bad, blob, blob_size);
		double x = -1e12;
		memcpy(bad + at, &x, sizeof x);
		spring_result r = spring_skeleton_restore(a, bad, blob_size, &e);
		ENSURE_MSG(r == SPRING_ERROR_OUT_OF_RANGE, "offset %zu: %d %s", at, (int)r, e.message);
		ENSURE(memcmp(copy, a, size) == 0);
	}
	static const struct {
		size_t at;
		uint32_t bits;
	} clock_faults[] = {{0, 0x3f800000u},  {4, 0x7fc00000u},  {8, 0x40000000u},  {12, 0xbf800000u}, {16, 1000u},
	                    {20, 0x7f800000u}, {24, 0x7fffffffu}, {28, 0xffffffffu}, {40, 3u} /* resting */};
	for (size_t i = 0; i < sizeof clock_faults / sizeof clock_faults[0]; i++) {
		memcpy(bad, blob, blob_size);
		memcpy(bad + body + clock_faults[i].at, &clock_faults[i].bits, 4);
		spring_result r = spring_skeleton_restore(a, bad, blob_size, &e);
		ENSURE_MSG(r == SPRING_ERROR_OUT_OF_RANGE, "clock offset %zu: %d %s", clock_faults[i].at, (int)r, e.message);
		ENSURE(memcmp(copy, a, size) == 0);
	}
	memcpy(bad, blob, blob_size);
	double nan = NAN;
	memcpy(bad + body + 32, &nan, sizeof nan); // the clock's time
	ENSURE(spring_skeleton_restore(a, bad, blob_size, &e) != SPRING_OK && memcmp(copy, a, size) == 0);
	// A quaternion off the unit sphere.
	memcpy(bad, blob, blob_size);
	double half = 0.5;
	memcpy(bad + doubles + 16 + 24, &half, sizeof half); // root_before's rotation x after dt_from, dt_to, t
	ENSURE(spring_skeleton_restore(a, bad, blob_size, &e) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(strstr(e.message, "unit quaternion") != NULL && memcmp(copy, a, size) == 0);
	// Another skeleton's blob: refused by its shape.
	s.hair[1].drag = 0.45f;
	spring_skeleton *other = NULL;
	ENSURE(spring_skeleton_create(&s.desc, &other, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_restore(other, blob, blob_size, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	spring_skeleton_destroy(other);
	free(blob);
	free(bad);
	free(copy);
	free(ma);
	free(mb);
	return 0;
}

// Instance i's pose at frame f: the root sways and turns, the head nods, each instance its own way.
static void crowd_pose(const sample *s, int i, int f, spring_xform3 *root, spring_xform3 *locals)
{
	if (i == 1 && f > 140 && f < 400) {
		f = 140; // instance 1 stands still a while (it comes to rest and sleeps while the others move)
	}
	rest_locals(s, locals);
	*root = spring_xform3_identity();
	root->position.x = 0.2f * sinf(0.1f * (float)f + (float)i);
	root->rotation = spring_quat_from_axis_angle(spring_vec3_make(0, 1, 0), 0.5f * sinf(0.07f * (float)f + 0.3f * (float)i));
	spring_quat nod = spring_quat_from_axis_angle(spring_vec3_make(0, 0, 1), 0.6f * sinf(0.13f * (float)f + (float)i));
	locals[1].rotation = spring_quat_mul(locals[1].rotation, nod);
}

// Whether instance i of the crowd shows exactly what skeleton `one` shows.
static int crowd_matches(const spring_skeleton_crowd *c, int i, const spring_skeleton *one)
{
	int na[3], nb[3];
	spring_quat qa[3], qb[3];
	spring_vec3 ta[3], tb[3];
	ENSURE(spring_skeleton_crowd_get_pose(c, i, na, qa, ta, 3) == SPRING_OK);
	ENSURE(spring_skeleton_get_pose(one, nb, qb, tb, 3) == SPRING_OK);
	ENSURE(memcmp(na, nb, sizeof na) == 0 && memcmp(qa, qb, sizeof qa) == 0 && memcmp(ta, tb, sizeof ta) == 0);
	ENSURE(spring_skeleton_crowd_get_stepped_pose(c, i, NULL, qa, ta, 3) == SPRING_OK);
	ENSURE(spring_skeleton_get_stepped_pose(one, NULL, qb, tb, 3) == SPRING_OK);
	ENSURE(memcmp(qa, qb, sizeof qa) == 0 && memcmp(ta, tb, sizeof ta) == 0);
	ENSURE(spring_skeleton_crowd_is_resting(c, i) == spring_skeleton_is_resting(one));
	return 0;
}

// A crowd moves each instance exactly as a skeleton of its own would: 1, 2, 3 and 5 instances
// (lanes to spare in the last block), a pose of its own for each, steady frames (the parabola),
// hitches (the straight line), a teleport of one instance, a reset of all and of one, both
// length rules, outside and inside colliders.
static int test_runtime_crowd_matches_skeletons(void)
{
	static const int counts[] = {1, 2, 3, 5};
	long differing = 0; // frames where two instances' tails differ: the lanes hold different runs
	long slept = 0;     // frames instance 1 stood still at rest while instance 0 moved
	spring_vec3 last1[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
	for (int variant = 0; variant < 4; variant++) {
		sample s;
		make_sample(&s);
		s.hair[0].gravity_power = 0.5f;
		s.hair[1].stiffness = 0.3f;
		if (variant & 1) {
			s.desc.length = SPRING_SKELETON_LENGTH_MEASURED;
		}
		if (variant & 2) {
			s.colliders[0].type = SPRING_SKELETON_COLLIDER_INSIDE_SPHERE;
			s.colliders[0].radius = 0.25f;
			s.colliders[1].type = SPRING_SKELETON_COLLIDER_INSIDE_CAPSULE;
			s.colliders[1].radius = 0.3f;
		}
		for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
			int n = counts[ci];
			spring_skeleton_crowd_desc cd = {&s.desc, n};
			spring_skeleton_crowd *c = NULL;
			spring_skeleton *one[5] = {NULL};
			ENSURE(spring_skeleton_crowd_create(&cd, &c, NULL) == SPRING_OK);
			ENSURE(spring_skeleton_crowd_count(c) == n && spring_skeleton_crowd_bone_count(c) == 3);
			spring_xform3 roots[5], locals[5][7];
			for (int i = 0; i < n; i++) {
				ENSURE(spring_skeleton_create(&s.desc, &one[i], NULL) == SPRING_OK);
				crowd_pose(&s, i, 0, &roots[i], locals[i]);
				ENSURE(spring_skeleton_reset(one[i], roots[i], locals[i], 7) == SPRING_OK);
			}
			ENSURE(spring_skeleton_crowd_reset(c, roots, &locals[0][0], 7) == SPRING_OK);
			for (int f = 1; f <= 420; f++) {
				float dt = f == 40 ? 0.2f : f % 9 == 0 ? 0.004f : 1.0f / 60.0f;
				for (int i = 0; i < n; i++) {
					crowd_pose(&s, i, f, &roots[i], locals[i]);
				}
				if (f == 70) { // the last instance jumps 50 units
					roots[n - 1].position.z += 50.0f;
					ENSURE(spring_skeleton_crowd_teleport(c, n - 1, roots[n - 1], locals[n - 1], 7) == SPRING_OK);
					ENSURE(spring_skeleton_teleport(one[n - 1], roots[n - 1], locals[n - 1], 7) == SPRING_OK);
				}
				if (f > 70) {
					roots[n - 1].position.z += 50.0f;
				}
				if (f == 100) { // everyone at rest again, the clock cleared
					ENSURE(spring_skeleton_crowd_reset(c, roots, &locals[0][0], 7) == SPRING_OK);
					for (int i = 0; i < n; i++) {
						ENSURE(spring_skeleton_reset(one[i], roots[i], locals[i], 7) == SPRING_OK);
					}
				}
				if (f == 130) { // instance 0 alone at rest (its own skeleton: reset, which clears its clock)
					ENSURE(spring_skeleton_crowd_reset_instance(c, 0, roots[0], locals[0], 7) == SPRING_OK);
					ENSURE(spring_skeleton_reset(one[0], roots[0], locals[0], 7) == SPRING_OK);
					spring_vec3 a[3], b[3];
					ENSURE(spring_skeleton_crowd_get_stepped_pose(c, 0, NULL, NULL, a, 3) == SPRING_OK);
					ENSURE(spring_skeleton_get_stepped_pose(one[0], NULL, NULL, b, 3) == SPRING_OK);
					ENSURE(memcmp(a, b, sizeof a) == 0 && spring_skeleton_crowd_is_resting(c, 0));
				}
				ENSURE(spring_skeleton_crowd_update(c, roots, &locals[0][0], 7, dt) == SPRING_OK);
				for (int i = 0; i < n; i++) {
					ENSURE(spring_skeleton_update(one[i], roots[i], locals[i], 7, dt) == SPRING_OK);
					if (f < 130 || i > 0) { // after 130, instance 0's clock is the crowd's, its skeleton's its own
						ENSURE_MSG(crowd_matches(c, i, one[i]) == 0, "variant %d, %d instances, frame %d, instance %d", variant,
						           n, f, i);
					}
				}
				if (n > 1) {
					spring_vec3 a[3], b[3];
					spring_skeleton_get_pose(one[0], NULL, NULL, a, 3);
					spring_skeleton_get_pose(one[1], NULL, NULL, b, 3);
					differing += memcmp(a, b, sizeof a) != 0;
					spring_vec3 now1[3];
					spring_skeleton_get_stepped_pose(one[1], NULL, NULL, now1, 3);
					slept += f > 140 && f < 400 && spring_skeleton_is_resting(one[1]) && memcmp(now1, last1, sizeof now1) == 0;
					memcpy(last1, now1, sizeof now1);
				}
			}
			for (int i = 0; i < n; i++) {
				spring_skeleton_destroy(one[i]);
			}
			spring_skeleton_crowd_destroy(c);
		}
	}
	printf("  %ld frames apart, %ld frames of instance 1 asleep beside a moving instance 0\n", differing, slept);
	ENSURE(differing > 0 && slept > 100);
	return 0;
}

// Rest and sleep: under a still pose the springs come to rest and then stay exactly still (every
// number of the pose the same from frame to frame, where steps would creep below the threshold);
// any change of the pose wakes them; a fresh skeleton placed at rest under gravity moves.
static int test_runtime_sleep(void)
{
	sample s;
	make_sample(&s);
	s.hair[0].gravity_power = 1.0f;
	s.hair[0].gravity_dir = spring_vec3_make(1, 0, 0);
	spring_skeleton *sk = NULL;
	ENSURE(spring_skeleton_create(&s.desc, &sk, NULL) == SPRING_OK);
	spring_xform3 locals[7], root = spring_xform3_identity();
	rest_locals(&s, locals);
	int frames = 0;
	while (!spring_skeleton_is_resting(sk) || frames == 0) {
		ENSURE(spring_skeleton_update(sk, root, locals, 7, 1.0f / 60) == SPRING_OK && frames++ < 6000);
	}
	spring_quat q0[3], q[3];
	spring_vec3 t0[3], t[3], u[3];
	ENSURE(spring_skeleton_update(sk, root, locals, 7, 1.0f / 60) == SPRING_OK); // its first frame asleep
	ENSURE(spring_skeleton_get_pose(sk, NULL, q0, t0, 3) == SPRING_OK);
	int still = 0;
	for (int f = 0; f < 600; f++) { // frames of every length, a step or two each, or none
		ENSURE(spring_skeleton_update(sk, root, locals, 7, f % 3 == 0 ? 0.021f : f % 3 == 1 ? 0.013f : 0.004f) == SPRING_OK);
		ENSURE(spring_skeleton_get_pose(sk, NULL, q, t, 3) == SPRING_OK);
		ENSURE(spring_skeleton_get_stepped_pose(sk, NULL, NULL, u, 3) == SPRING_OK);
		still += memcmp(q, q0, sizeof q) == 0 && memcmp(t, t0, sizeof t) == 0 && memcmp(u, t0, sizeof u) == 0 &&
		         spring_skeleton_is_resting(sk);
	}
	printf("  at rest after %d frames, then still for %d frames of 600\n", frames, still);
	ENSURE(still == 600);
	// A change of a millimetre at the root wakes it.
	root.position.x = 1e-3f;
	ENSURE(spring_skeleton_update(sk, root, locals, 7, 1.0f / 60) == SPRING_OK);
	ENSURE(spring_skeleton_get_stepped_pose(sk, NULL, NULL, u, 3) == SPRING_OK && memcmp(u, t0, sizeof u) != 0);
	ENSURE(!spring_skeleton_is_resting(sk));
	spring_skeleton_destroy(sk);
	return 0;
}

// Bad input to a crowd: a refused call changes nothing; instances out of range; the count's
// bounds.
static int test_runtime_crowd_bad_input(void)
{
	sample s;
	make_sample(&s);
	spring_skeleton_crowd_desc cd = {&s.desc, 3};
	size_t size = spring_skeleton_crowd_memory_size(&cd);
	ENSURE(size > spring_skeleton_memory_size(&s.desc));
	void *memory = aligned_alloc(16, (size + 15) / 16 * 16), *copy = malloc(size);
	ENSURE(memory && copy);
	spring_skeleton_crowd *c = NULL;
	spring_error e;
	ENSURE(spring_skeleton_crowd_init(&cd, memory, size - 16, &c, &e) == SPRING_ERROR_INVALID_ARGUMENT && c == NULL);
	ENSURE(strstr(e.message, "skeleton crowd") != NULL);
	ENSURE(spring_skeleton_crowd_init(&cd, memory, size, &c, &e) == SPRING_OK);
	spring_xform3 roots[3], locals[3][7];
	for (int i = 0; i < 3; i++) {
		crowd_pose(&s, i, 5, &roots[i], locals[i]);
	}
	ENSURE(spring_skeleton_crowd_update(c, roots, &locals[0][0], 7, 1.0f / 60) == SPRING_OK);
	memcpy(copy, memory, size);
	// A NaN in the last instance's nodes, an infinite root of the second, a far coordinate.
	locals[2][3].position.y = NAN;
	ENSURE(spring_skeleton_crowd_update(c, roots, &locals[0][0], 7, 1.0f / 60) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_skeleton_crowd_reset(c, roots, &locals[0][0], 7) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_skeleton_crowd_reset_instance(c, 2, roots[2], locals[2], 7) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_skeleton_crowd_teleport(c, 2, roots[2], locals[2], 7) == SPRING_ERROR_NOT_FINITE);
	locals[2][3].position.y = 0.0f;
	roots[1].rotation.w = INFINITY;
	ENSURE(spring_skeleton_crowd_update(c, roots, &locals[0][0], 7, 1.0f / 60) == SPRING_ERROR_NOT_FINITE);
	roots[1].rotation.w = 1.0f;
	roots[1].position.x = 2e6f;
	ENSURE(spring_skeleton_crowd_update(c, roots, &locals[0][0], 7, 1.0f / 60) == SPRING_ERROR_OUT_OF_RANGE);
	roots[1].position.x = 0.9e6f; // each coordinate in range, their sum not: the exact test takes it
	roots[1].position.y = 0.9e6f;
	memcpy(copy, memory, size);
	ENSURE(spring_skeleton_crowd_teleport(c, 1, roots[1], locals[1], 7) == SPRING_OK);
	ENSURE(memcmp(copy, memory, size) != 0);
	memcpy(copy, memory, size);
	ENSURE(spring_skeleton_crowd_update(c, NULL, &locals[0][0], 7, 1.0f / 60) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_crowd_update(c, roots, &locals[0][0], 6, 1.0f / 60) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_crowd_update(c, roots, &locals[0][0], 7, -1.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_crowd_update(NULL, roots, &locals[0][0], 7, 0.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	// Instances out of range.
	spring_quat q[3];
	ENSURE(spring_skeleton_crowd_teleport(c, 3, roots[0], locals[0], 7) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_crowd_reset_instance(c, -1, roots[0], locals[0], 7) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_crowd_get_pose(c, 3, NULL, q, NULL, 3) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_crowd_get_pose(c, 2, NULL, q, NULL, 2) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_skeleton_crowd_get_pose(c, 2, NULL, q, NULL, 3) == SPRING_OK);
	ENSURE(!spring_skeleton_crowd_is_resting(c, 3) && !spring_skeleton_crowd_is_resting(NULL, 0));
	ENSURE(memcmp(copy, memory, size) == 0);
	// The count: 1 and SPRING_SKELETON_MAX_INSTANCES taken, 0 and one more refused.
	spring_skeleton_crowd_desc edge = {&s.desc, SPRING_SKELETON_MAX_INSTANCES};
	ENSURE(spring_skeleton_crowd_memory_size(&edge) > size);
	edge.count = 1;
	ENSURE(spring_skeleton_crowd_memory_size(&edge) == spring_skeleton_memory_size(&s.desc));
	edge.count = 0;
	ENSURE(spring_skeleton_crowd_memory_size(&edge) == 0);
	ENSURE(spring_skeleton_crowd_init(&edge, memory, size, &c, &e) == SPRING_ERROR_OUT_OF_RANGE);
	edge.count = SPRING_SKELETON_MAX_INSTANCES + 1;
	ENSURE(spring_skeleton_crowd_memory_size(&edge) == 0);
	spring_skeleton_crowd *none = NULL;
	ENSURE(spring_skeleton_crowd_create(&edge, &none, &e) == SPRING_ERROR_OUT_OF_RANGE && none == NULL);
	ENSURE(strstr(e.message, "count") != NULL);
	ENSURE(spring_skeleton_crowd_memory_size(NULL) == 0);
	ENSURE(spring_skeleton_crowd_create(NULL, &none, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	free(memory);
	free(copy);
	return 0;
}

// Crowd snapshots replay bit for bit; a blob of another count is refused; a crowd of one and a
// skeleton take each other's blobs; a fault in the last instance is found and named.
static int test_runtime_crowd_snapshot(void)
{
	sample s;
	make_sample(&s);
	s.hair[0].gravity_power = 0.5f;
	spring_skeleton_crowd_desc cd = {&s.desc, 3};
	spring_skeleton_crowd *a = NULL, *b = NULL, *two = NULL, *lone = NULL;
	spring_skeleton *single = NULL;
	ENSURE(spring_skeleton_crowd_create(&cd, &a, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_crowd_create(&cd, &b, NULL) == SPRING_OK);
	cd.count = 2;
	ENSURE(spring_skeleton_crowd_create(&cd, &two, NULL) == SPRING_OK);
	cd.count = 1;
	ENSURE(spring_skeleton_crowd_create(&cd, &lone, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_create(&s.desc, &single, NULL) == SPRING_OK);
	spring_xform3 roots[3], locals[3][7];
	for (int f = 0; f < 80; f++) {
		for (int i = 0; i < 3; i++) {
			crowd_pose(&s, i, f, &roots[i], locals[i]);
		}
		ENSURE(spring_skeleton_crowd_update(a, roots, &locals[0][0], 7, f % 4 == 0 ? 0.031f : 0.013f) == SPRING_OK);
		ENSURE(spring_skeleton_crowd_update(lone, roots, &locals[0][0], 7, f % 4 == 0 ? 0.031f : 0.013f) == SPRING_OK);
	}
	size_t blob_size = spring_skeleton_crowd_snapshot_size(a);
	ENSURE(blob_size > spring_skeleton_crowd_snapshot_size(two) && spring_skeleton_crowd_snapshot_size(two) > 0);
	unsigned char *blob = (unsigned char *)malloc(blob_size), *bad = (unsigned char *)malloc(blob_size);
	ENSURE(blob && bad);
	ENSURE(spring_skeleton_crowd_snapshot(a, blob, blob_size - 1) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_crowd_snapshot(a, blob, blob_size) == SPRING_OK);
	ENSURE(spring_skeleton_crowd_restore(b, blob, blob_size, NULL) == SPRING_OK);
	spring_error e;
	ENSURE(spring_skeleton_crowd_restore(two, blob, blob_size, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	for (int f = 80; f < 120; f++) {
		for (int i = 0; i < 3; i++) {
			crowd_pose(&s, i, f, &roots[i], locals[i]);
		}
		ENSURE(spring_skeleton_crowd_update(a, roots, &locals[0][0], 7, 0.017f) == SPRING_OK);
		ENSURE(spring_skeleton_crowd_update(b, roots, &locals[0][0], 7, 0.017f) == SPRING_OK);
		for (int i = 0; i < 3; i++) {
			spring_quat qa[3], qb[3];
			spring_vec3 ta[3], tb[3];
			spring_skeleton_crowd_get_pose(a, i, NULL, qa, ta, 3);
			spring_skeleton_crowd_get_pose(b, i, NULL, qb, tb, 3);
			ENSURE(memcmp(qa, qb, sizeof qa) == 0 && memcmp(ta, tb, sizeof ta) == 0);
		}
	}
	// A crowd of one and a skeleton: the same blob.
	size_t one_size = spring_skeleton_snapshot_size(single);
	ENSURE(spring_skeleton_crowd_snapshot_size(lone) == one_size);
	unsigned char *one_blob = (unsigned char *)malloc(one_size);
	ENSURE(one_blob && spring_skeleton_crowd_snapshot(lone, one_blob, one_size) == SPRING_OK);
	ENSURE(spring_skeleton_restore(single, one_blob, one_size, &e) == SPRING_OK);
	for (int f = 80; f < 100; f++) {
		crowd_pose(&s, 0, f, &roots[0], locals[0]);
		ENSURE(spring_skeleton_crowd_update(lone, roots, &locals[0][0], 7, 0.021f) == SPRING_OK);
		ENSURE(spring_skeleton_update(single, roots[0], locals[0], 7, 0.021f) == SPRING_OK);
		ENSURE(crowd_matches(lone, 0, single) == 0);
	}
	ENSURE(spring_skeleton_snapshot(single, one_blob, one_size) == SPRING_OK);
	ENSURE(spring_skeleton_crowd_restore(lone, one_blob, one_size, &e) == SPRING_OK);
	ENSURE(crowd_matches(lone, 0, single) == 0);
	// The last instance's last rotation made NaN: refused, named, nothing changed.
	ENSURE(spring_skeleton_crowd_snapshot(a, blob, blob_size) == SPRING_OK);
	memcpy(bad, blob, blob_size);
	double nan = NAN;
	memcpy(bad + blob_size - 8, &nan, sizeof nan);
	size_t object = spring_skeleton_crowd_snapshot_size(a); // compare the poses before and after
	(void)object;
	spring_quat before[3], after[3];
	spring_skeleton_crowd_get_pose(a, 2, NULL, before, NULL, 3);
	ENSURE(spring_skeleton_crowd_restore(a, bad, blob_size, &e) == SPRING_ERROR_NOT_FINITE);
	ENSURE(strstr(e.message, "rotation_before") != NULL);
	spring_skeleton_crowd_get_pose(a, 2, NULL, after, NULL, 3);
	ENSURE(memcmp(before, after, sizeof before) == 0);
	unsigned char *again = (unsigned char *)malloc(blob_size);
	ENSURE(again && spring_skeleton_crowd_snapshot(a, again, blob_size) == SPRING_OK && memcmp(again, blob, blob_size) == 0);
	free(again);
	free(one_blob);
	free(blob);
	free(bad);
	spring_skeleton_crowd_destroy(a);
	spring_skeleton_crowd_destroy(b);
	spring_skeleton_crowd_destroy(two);
	spring_skeleton_crowd_destroy(lone);
	spring_skeleton_destroy(single);
	return 0;
}

// x as a column-major 4x4 with scale `sc` (translation * rotation * scale).
static void xform_matrix(spring_xform3 x, spring_vec3 sc, float m[16])
{
	spring_vec3 axes[3] = {spring_quat_rotate(x.rotation, spring_vec3_make(sc.x, 0, 0)),
	                       spring_quat_rotate(x.rotation, spring_vec3_make(0, sc.y, 0)),
	                       spring_quat_rotate(x.rotation, spring_vec3_make(0, 0, sc.z))};
	for (int c = 0; c < 3; c++) {
		m[c * 4] = axes[c].x, m[c * 4 + 1] = axes[c].y, m[c * 4 + 2] = axes[c].z, m[c * 4 + 3] = 0.0f;
	}
	m[12] = x.position.x, m[13] = x.position.y, m[14] = x.position.z, m[15] = 1.0f;
}

// c = a b, column-major 4x4.
static void matrix_mul(const float a[16], const float b[16], float c[16])
{
	for (int col = 0; col < 4; col++) {
		for (int row = 0; row < 4; row++) {
			float v = 0.0f;
			for (int k = 0; k < 4; k++) {
				v += a[k * 4 + row] * b[col * 4 + k];
			}
			c[col * 4 + row] = v;
		}
	}
}

static bool same_rotation(spring_quat a, spring_quat b, double tolerance)
{
	double d = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w;
	return fabs(fabs(d) - 1.0) <= tolerance;
}

// A matrix as translation, rotation and scale: a known one back, a mirror on x, and both sides of
// each refusal's bound (axis length 1e-12, shear 1e-4).
static int test_node_from_matrix(void)
{
	spring_xform3 x = {{0.5f, -2.0f, 3.0f}, spring_quat_from_axis_angle(spring_vec3_make(0.267f, 0.535f, 0.802f), 1.1f)};
	float mf[16];
	xform_matrix(x, spring_vec3_make(2.0f, 0.5f, 3.0f), mf);
	double m[16];
	for (int k = 0; k < 16; k++) {
		m[k] = mf[k];
	}
	spring_skeleton_node n = {7, {0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}};
	ENSURE(spring_skeleton_node_from_matrix(m, &n) && n.parent == 7);
	ENSURE_NEAR(n.translation.y, -2.0, 1e-6);
	ENSURE_NEAR(n.scale.x, 2.0, 1e-5);
	ENSURE_NEAR(n.scale.y, 0.5, 1e-5);
	ENSURE_NEAR(n.scale.z, 3.0, 1e-5);
	ENSURE(same_rotation(n.rotation, x.rotation, 1e-6));
	double mirror[16];
	memcpy(mirror, m, sizeof m);
	for (int r = 0; r < 3; r++) {
		mirror[r] = -mirror[r];
	}
	ENSURE(spring_skeleton_node_from_matrix(mirror, &n) && n.scale.x < -1.9f && same_rotation(n.rotation, x.rotation, 1e-6));
	spring_skeleton_node before = n, after;
	double bad[16];
	const double axis_ok = 2e-12, axis_short = 0.5e-12, shear_ok = 0.5e-4, shear_big = 2e-4;
	double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
	memcpy(bad, identity, sizeof bad);
	bad[0] = axis_ok;
	ENSURE(spring_skeleton_node_from_matrix(bad, &after));
	bad[0] = axis_short;
	after = before;
	ENSURE(!spring_skeleton_node_from_matrix(bad, &after) && memcmp(&after, &before, sizeof after) == 0);
	memcpy(bad, identity, sizeof bad);
	bad[4] = shear_ok; // the y axis leans towards x
	ENSURE(spring_skeleton_node_from_matrix(bad, &after));
	bad[4] = shear_big;
	after = before;
	ENSURE(!spring_skeleton_node_from_matrix(bad, &after) && memcmp(&after, &before, sizeof after) == 0);
	memcpy(bad, identity, sizeof bad);
	bad[3] = 0.1; // a projection
	ENSURE(!spring_skeleton_node_from_matrix(bad, &after));
	bad[3] = NAN;
	ENSURE(!spring_skeleton_node_from_matrix(bad, &after) && !spring_skeleton_node_from_matrix(NULL, &after));
	ENSURE(memcmp(&after, &before, sizeof after) == 0);
	return 0;
}

// The host's pose from world matrices: the local transforms it came from, the same steps (to float
// rounding), the crowd's call the same; bad matrices refused with nothing written.
static int test_pose_from_world(void)
{
	sample s;
	make_sample(&s);
	spring_skeleton *sk = NULL, *direct = NULL;
	ENSURE(spring_skeleton_create(&s.desc, &sk, NULL) == SPRING_OK &&
	       spring_skeleton_create(&s.desc, &direct, NULL) == SPRING_OK);
	spring_xform3 root, locals[7], back_root, back[7];
	float root_world[16], worlds[7][16];
	for (int f = 0; f < 90; f++) {
		crowd_pose(&s, 1, f, &root, locals);
		locals[5].rotation = spring_quat_from_axis_angle(spring_vec3_make(1, 0, 0), 0.4f * sinf(0.05f * (float)f));
		xform_matrix(root, spring_vec3_make(1, 1, 1), root_world);
		for (int i = 0; i < 7; i++) { // parents come before children in the sample
			float local[16];
			spring_vec3 sc = s.nodes[i].scale;
			xform_matrix(locals[i], sc.x == 0.0f ? spring_vec3_make(1, 1, 1) : sc, local);
			matrix_mul(s.nodes[i].parent >= 0 ? worlds[s.nodes[i].parent] : root_world, local, worlds[i]);
		}
		ENSURE(spring_skeleton_pose_from_world(sk, root_world, &worlds[0][0], 7, &back_root, back) == SPRING_OK);
		for (int i = 0; i < 7; i++) {
			ENSURE_NEAR(back[i].position.x, locals[i].position.x, 1e-5);
			ENSURE_NEAR(back[i].position.y, locals[i].position.y, 1e-5);
			ENSURE_NEAR(back[i].position.z, locals[i].position.z, 1e-5);
			ENSURE(same_rotation(back[i].rotation, locals[i].rotation, 1e-5));
		}
		ENSURE(same_rotation(back_root.rotation, root.rotation, 1e-6));
		ENSURE_NEAR(back_root.position.x, root.position.x, 1e-6);
		ENSURE(spring_skeleton_update(sk, back_root, back, 7, 1.0f / 60) == SPRING_OK);
		ENSURE(spring_skeleton_update(direct, root, locals, 7, 1.0f / 60) == SPRING_OK);
		spring_vec3 a[3], b[3];
		ENSURE(spring_skeleton_get_pose(sk, NULL, NULL, a, 3) == SPRING_OK &&
		       spring_skeleton_get_pose(direct, NULL, NULL, b, 3) == SPRING_OK);
		for (int k = 0; k < 3; k++) {
			ENSURE_NEAR(a[k].x, b[k].x, 1e-4);
			ENSURE_NEAR(a[k].y, b[k].y, 1e-4);
			ENSURE_NEAR(a[k].z, b[k].z, 1e-4);
		}
	}
	// The crowd's call: the same numbers.
	spring_skeleton_crowd_desc cd = {&s.desc, 2};
	spring_skeleton_crowd *c = NULL;
	ENSURE(spring_skeleton_crowd_create(&cd, &c, NULL) == SPRING_OK);
	spring_xform3 crowd_root, crowd_locals[7];
	ENSURE(spring_skeleton_crowd_pose_from_world(c, root_world, &worlds[0][0], 7, &crowd_root, crowd_locals) == SPRING_OK);
	ENSURE(memcmp(crowd_locals, back, sizeof back) == 0 && memcmp(&crowd_root, &back_root, sizeof crowd_root) == 0);
	// Refused, nothing written: a NaN, a projection row, a zero axis, a shear, a wrong count, NULL.
	spring_xform3 keep[7], keep_root = back_root;
	memcpy(keep, back, sizeof keep);
	float saved[16];
	memcpy(saved, worlds[4], sizeof saved);
	worlds[4][13] = NAN;
	ENSURE(spring_skeleton_pose_from_world(sk, root_world, &worlds[0][0], 7, &back_root, back) == SPRING_ERROR_NOT_FINITE);
	memcpy(worlds[4], saved, sizeof saved);
	worlds[4][7] = 0.5f;
	ENSURE(spring_skeleton_pose_from_world(sk, root_world, &worlds[0][0], 7, &back_root, back) == SPRING_ERROR_OUT_OF_RANGE);
	memcpy(worlds[4], saved, sizeof saved);
	worlds[1][12] += 0.25f; // a valid change before the bad node: a call that wrote as it went would show it
	worlds[6][0] = worlds[6][1] = worlds[6][2] = 0.0f;
	ENSURE(spring_skeleton_pose_from_world(sk, root_world, &worlds[0][0], 7, &back_root, back) == SPRING_ERROR_OUT_OF_RANGE);
	worlds[6][0] = 1.0f, worlds[6][4] = 0.5f, worlds[6][5] = 1.0f; // x and y axes 27 degrees apart from square
	ENSURE(spring_skeleton_pose_from_world(sk, root_world, &worlds[0][0], 7, &back_root, back) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_skeleton_pose_from_world(sk, root_world, &worlds[0][0], 6, &back_root, back) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_pose_from_world(sk, NULL, &worlds[0][0], 7, &back_root, back) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_skeleton_pose_from_world(NULL, root_world, &worlds[0][0], 7, &back_root, back) ==
	       SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(keep, back, sizeof keep) == 0 && memcmp(&keep_root, &back_root, sizeof keep_root) == 0);
	spring_skeleton_crowd_destroy(c);
	spring_skeleton_destroy(sk);
	spring_skeleton_destroy(direct);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_sample_is_valid);
	RUN_TEST(test_bad_descriptions);
	RUN_TEST(test_edges_accepted);
	RUN_TEST(test_limits_reached);
	RUN_TEST(test_element_names);
	RUN_TEST(test_runtime_bad_input);
	RUN_TEST(test_runtime_allocation_and_determinism);
	RUN_TEST(test_runtime_rest_teleport_reset);
	RUN_TEST(test_runtime_snapshot);
	RUN_TEST(test_runtime_crowd_matches_skeletons);
	RUN_TEST(test_runtime_sleep);
	RUN_TEST(test_runtime_crowd_bad_input);
	RUN_TEST(test_runtime_crowd_snapshot);
	RUN_TEST(test_node_from_matrix);
	RUN_TEST(test_pose_from_world);
	return TEST_SUMMARY();
}
