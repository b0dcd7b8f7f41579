// SPDX-License-Identifier: MIT
// spring_skeleton_validate: a sound description passes, at the edges of every range too, and every
// fault is refused with its code, its location (node, spring and joint, collider, collider group)
// and its field.
#include "spring/skeleton.h"

#include "test_macros.h"

#include <float.h>
#include <math.h>
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

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_sample_is_valid);
	RUN_TEST(test_bad_descriptions);
	RUN_TEST(test_edges_accepted);
	RUN_TEST(test_limits_reached);
	RUN_TEST(test_element_names);
	return TEST_SUMMARY();
}
