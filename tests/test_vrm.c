// SPDX-License-Identifier: MIT
// The VRM reader (spring/vrm.h): the public models read into the skeletons they describe, and
// every malformed file refused with its JSON path and reason, nothing created.
#define _POSIX_C_SOURCE 200809L
#include <spring/vrm.h>

#include "test_macros.h"

#include <cjson/cJSON.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODELS SPRING_SOURCE_DIR "/tests/vrm/models/"

static spring_vrm_file *load(const char *name)
{
	spring_vrm_file *f = NULL;
	spring_file_error e;
	char path[512];
	snprintf(path, sizeof path, MODELS "%s", name);
	if (spring_vrm_load_file(path, &f, &e) != SPRING_OK) {
		printf("  %s\n", e.message);
		return NULL;
	}
	return f;
}

// The three-vrm samples: one spring of five joints A..E (E a tail only), one collider on the
// "Collider" node: a sphere of 0.5, an inside sphere of 1.25 (the extension replaces the far
// zero-radius fallback), a plane with normal +z (replacing the radius-10000 fallback).
static int test_samples(void)
{
	static const struct {
		const char *file;
		spring_skeleton_collider_type type;
		float radius;
		spring_vec3 offset, tail;
		float collider_scale;
	} samples[] = {
		{"sphere-collider.gltf", SPRING_SKELETON_COLLIDER_SPHERE, 0.5f, {0, 0, 0}, {0, 0, 0}, 0.5f},
		{"inside-collider.gltf", SPRING_SKELETON_COLLIDER_INSIDE_SPHERE, 1.25f, {0, 0, 0}, {0, 0, 0}, 1.35f},
		{"plane-collider.gltf", SPRING_SKELETON_COLLIDER_PLANE, 0.0f, {0, 0, 0}, {0, 0, 1}, 1.0f},
	};
	for (size_t m = 0; m < sizeof samples / sizeof samples[0]; m++) {
		spring_vrm_file *f = load(samples[m].file);
		ENSURE(f != NULL);
		const spring_skeleton_desc *d = spring_vrm_file_desc(f);
		ENSURE(spring_vrm_file_format(f) == SPRING_VRM_FORMAT_1_0);
		ENSURE(d->node_count == 6 && d->spring_count == 1 && d->collider_count == 1 && d->collider_group_count == 1);
		const spring_skeleton_spring *sp = &d->springs[0];
		ENSURE(sp->joint_count == 5 && !sp->has_end_tail && sp->center == -1 && sp->collider_group_count == 1);
		static const char *const names[5] = {"Spring A", "Spring B", "Spring C", "Spring D", "Spring E"};
		for (int k = 0; k < 5; k++) {
			ENSURE(sp->joints[k].node == k);
			ENSURE(strcmp(spring_vrm_file_node_name(f, k), names[k]) == 0);
			ENSURE(spring_vrm_file_find_node(f, names[k]) == k);
			// The last joint, a tail only, gives only its node: the schema's defaults fill the rest.
			ENSURE(sp->joints[k].stiffness == 1.0f && sp->joints[k].drag == (k < 4 ? 0.4f : 0.5f));
			ENSURE(sp->joints[k].hit_radius == (k < 4 ? 0.25f : 0.0f));
			ENSURE(sp->joints[k].gravity_power == 0.0f && sp->joints[k].gravity_dir.y == -1.0f);
		}
		ENSURE(d->nodes[0].parent == -1 && d->nodes[1].parent == 0 && d->nodes[4].parent == 3 && d->nodes[5].parent == -1);
		ENSURE(d->nodes[0].scale.x == 0.25f && d->nodes[0].translation.y == 2.0f &&
		       d->nodes[5].scale.z == samples[m].collider_scale);
		const spring_skeleton_collider *c = &d->colliders[0];
		ENSURE(c->node == 5 && c->type == samples[m].type && c->radius == samples[m].radius);
		ENSURE(c->offset.x == samples[m].offset.x && c->tail.z == samples[m].tail.z);
		ENSURE(d->collider_groups[0].collider_count == 1 && d->collider_groups[0].colliders[0] == 0);
		ENSURE(spring_skeleton_validate(d, NULL) == SPRING_OK);
		ENSURE(spring_vrm_file_node_name(f, 6) == NULL && spring_vrm_file_node_name(f, -1) == NULL);
		ENSURE(spring_vrm_file_find_node(f, "Spring F") == -1);
		spring_vrm_file_destroy(f);
	}
	return 0;
}

// Godette (VRM 0.x): three bone groups, eight roots each with one "_End" child, so eight springs
// of two joints, the second a leaf with a 7 cm virtual tail along its own local translation; two
// collider groups of two spheres each, offsets read as (x, y, -z).
static int test_godette(void)
{
	spring_vrm_file *f = load("Godette_vrm_v4.vrm");
	ENSURE(f != NULL);
	const spring_skeleton_desc *d = spring_vrm_file_desc(f);
	ENSURE(spring_vrm_file_format(f) == SPRING_VRM_FORMAT_0_X);
	ENSURE(d->node_count == 71 && d->spring_count == 8 && d->collider_count == 4 && d->collider_group_count == 2);
	static const char *const roots[8] = {"FrontHair_Center_L", "FrontHair_Center_R", "FrontHair_R",    "FrontHair_L", "Ribbon",
	                                     "HairBall_L",         "HairBall_R",         "HairBall_Center"};
	static const float stiffness[8] = {2.5f, 2.5f, 2.5f, 2.5f, 2.0f, 4.0f, 4.0f, 4.0f};
	static const float drag[8] = {0.4f, 0.4f, 0.4f, 0.4f, 0.4f, 0.1f, 0.1f, 0.1f};
	for (int s = 0; s < 8; s++) {
		const spring_skeleton_spring *sp = &d->springs[s];
		ENSURE(sp->joint_count == 2 && sp->has_end_tail && sp->center == -1);
		ENSURE(strcmp(spring_vrm_file_node_name(f, sp->joints[0].node), roots[s]) == 0);
		ENSURE(d->nodes[sp->joints[1].node].parent == sp->joints[0].node);
		ENSURE_NEAR(spring_vec3_length(sp->end_tail), 0.07, 1e-7);
		spring_vec3 t = d->nodes[sp->joints[1].node].translation;
		ENSURE_NEAR(spring_vec3_dot(sp->end_tail, t), 0.07 * spring_vec3_length(t), 1e-7);
		ENSURE(sp->joints[0].stiffness == stiffness[s] && sp->joints[1].drag == drag[s]);
		ENSURE(sp->joints[0].hit_radius == 0.02f && sp->joints[0].gravity_power == 0.0f);
		ENSURE(sp->collider_group_count == (s < 5 ? 1 : 0)); // the hair balls collide with nothing
	}
	// The first sphere: z -0.039999956 in the file.
	ENSURE(strcmp(spring_vrm_file_node_name(f, d->colliders[0].node), "chest_Armature") == 0);
	ENSURE(d->colliders[0].offset.z == 0.039999956265091896f && d->colliders[0].radius == 0.10000000149011612f);
	ENSURE(d->collider_groups[1].collider_count == 2 && d->collider_groups[1].colliders[0] == 2);
	spring_vrm_file_destroy(f);
	return 0;
}

// The benchmark's synthetic avatar (bench/models/synthetic-64.gltf, made by synthetic-64.mjs there;
// three-vrm loads it too): 81 nodes, 8 springs of 9 joints (the last a tail only: 64 bones), 7
// colliders (spheres on the head and hips, capsules on the neck, chest, shoulders and thighs) in 3
// groups, hair on the first two groups, skirt on the third; its motion loads against it.
static int test_synthetic_avatar(void)
{
	spring_vrm_file *f = NULL;
	spring_file_error e;
	if (spring_vrm_load_file(SPRING_SOURCE_DIR "/bench/models/synthetic-64.gltf", &f, &e) != SPRING_OK) {
		printf("  %s\n", e.message);
	}
	ENSURE(f != NULL);
	const spring_skeleton_desc *d = spring_vrm_file_desc(f);
	ENSURE(spring_vrm_file_format(f) == SPRING_VRM_FORMAT_1_0);
	ENSURE(d->node_count == 81 && d->spring_count == 8 && d->collider_count == 7 && d->collider_group_count == 3);
	for (int s = 0; s < 8; s++) {
		const spring_skeleton_spring *sp = &d->springs[s];
		ENSURE(sp->joint_count == 9 && !sp->has_end_tail && sp->center == -1);
		ENSURE(sp->collider_group_count == (s < 4 ? 2 : 1) && sp->collider_groups[0] == (s < 4 ? 0 : 2));
		ENSURE(strcmp(spring_vrm_file_node_name(f, d->nodes[sp->joints[0].node].parent), s < 4 ? "Head" : "Hips") == 0);
		for (int k = 1; k < 9; k++) {
			ENSURE(d->nodes[sp->joints[k].node].parent == sp->joints[k - 1].node);
		}
		// hair: stiffness 1 - 0.06 k, hit radius 1 cm; skirt: 1.5 - 0.1 k, 2 cm
		ENSURE_NEAR(sp->joints[7].stiffness, s < 4 ? 0.58 : 0.8, 1e-6);
		ENSURE(sp->joints[0].hit_radius == (s < 4 ? 0.01f : 0.02f));
	}
	static const spring_skeleton_collider_type types[7] = {SPRING_SKELETON_COLLIDER_SPHERE,  SPRING_SKELETON_COLLIDER_CAPSULE,
	                                                       SPRING_SKELETON_COLLIDER_CAPSULE, SPRING_SKELETON_COLLIDER_CAPSULE,
	                                                       SPRING_SKELETON_COLLIDER_SPHERE,  SPRING_SKELETON_COLLIDER_CAPSULE,
	                                                       SPRING_SKELETON_COLLIDER_CAPSULE};
	for (int c = 0; c < 7; c++) {
		ENSURE(d->colliders[c].type == types[c]);
	}
	// The shoulders: a capsule across the chest, offset and tail both off its node.
	const spring_skeleton_collider *shoulders = &d->colliders[3];
	ENSURE(strcmp(spring_vrm_file_node_name(f, shoulders->node), "Chest") == 0 && shoulders->radius == 0.05f);
	ENSURE(shoulders->offset.x == -0.17f && shoulders->offset.y == 0.19f && shoulders->tail.x == 0.17f &&
	       shoulders->tail.y == 0.19f);
	ENSURE(d->colliders[6].tail.y == -0.42f && d->collider_groups[2].collider_count == 3);
	spring_skeleton *sk = NULL;
	ENSURE(spring_skeleton_create(d, &sk, NULL) == SPRING_OK);
	ENSURE(spring_skeleton_bone_count(sk) == 64);
	spring_skeleton_destroy(sk);
	spring_vrm_motion *m = NULL;
	ENSURE(spring_vrm_motion_load_file(SPRING_SOURCE_DIR "/bench/models/synthetic-64-shake.json", f, &m, &e) == SPRING_OK);
	spring_vrm_motion_destroy(m);
	spring_vrm_file_destroy(f);
	return 0;
}

// A minimal VRM 1.0 document: nodes 0 (hips) -> 1 -> 2 -> 3, node 4 beside; the text between
// the markers replaced by each case.
static char *doc_with(const char *nodes, const char *ext)
{
	static char buf[8192];
	snprintf(buf, sizeof buf, "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": %s, \"extensions\": {%s}}", nodes, ext);
	return buf;
}

#define NODES                                                                                                        \
	"[{\"name\": \"hips\", \"children\": [1, 4]}, {\"name\": \"a\", \"translation\": [0, -0.1, 0], \"children\": "   \
	"[2]}, {\"name\": \"b\", \"translation\": [0, -0.1, 0], \"children\": [3]}, {\"name\": \"c\", \"translation\": " \
	"[0, -0.1, 0]}, {\"name\": \"arm\", \"translation\": [0.2, 0, 0]}]"
#define SPRING(joints, more)                                                                                 \
	"\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {\"sphere\": " \
	"{\"radius\": 0.1}}}], \"colliderGroups\": [{\"colliders\": [0]}], \"springs\": [{\"joints\": " joints   \
	", \"colliderGroups\": [0]" more "}]}"
#define JOINTS3 "[{\"node\": 1}, {\"node\": 2}, {\"node\": 3}]"

static int test_minimal_and_defaults(void)
{
	const char *text = doc_with(NODES, SPRING(JOINTS3, ""));
	spring_vrm_file *f = NULL;
	spring_file_error e;
	spring_result r = spring_vrm_load_memory(text, strlen(text), "mini.gltf", &f, &e);
	if (r != SPRING_OK) {
		printf("  %s\n", e.message);
	}
	ENSURE(r == SPRING_OK);
	const spring_skeleton_desc *d = spring_vrm_file_desc(f);
	const spring_skeleton_joint *j = &d->springs[0].joints[0];
	// The schema's defaults (three-vrm would take dragForce 0.4).
	ENSURE(j->stiffness == 1.0f && j->drag == 0.5f && j->gravity_power == 0.0f && j->hit_radius == 0.0f);
	ENSURE(j->gravity_dir.x == 0.0f && j->gravity_dir.y == -1.0f && j->gravity_dir.z == 0.0f);
	ENSURE(d->nodes[0].rotation.w == 1.0f && d->nodes[0].scale.y == 1.0f);
	spring_vrm_file_destroy(f);
	// Names: a duplicate, a missing one and one that looks like an index all become "#INDEX".
	text = doc_with("[{\"name\": \"x\", \"children\": [1, 2, 3, 4]}, {\"name\": \"x\"}, {}, {\"name\": \"#0\"}, "
	                "{\"name\": \"$root\"}]",
	                "");
	ENSURE(spring_vrm_load_memory(text, strlen(text), NULL, &f, &e) == SPRING_OK);
	ENSURE(spring_vrm_file_format(f) == SPRING_VRM_FORMAT_NONE && spring_vrm_file_desc(f)->spring_count == 0);
	for (int i = 0; i < 5; i++) {
		char want[8];
		snprintf(want, sizeof want, "#%d", i);
		ENSURE(strcmp(spring_vrm_file_node_name(f, i), want) == 0);
		ENSURE(spring_vrm_file_find_node(f, want) == i);
	}
	spring_vrm_file_destroy(f);
	// A matrix is decomposed: translation (1, 2, 3), 90 degrees about z, scale 2.
	text = doc_with("[{\"matrix\": [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1]}]", "");
	ENSURE(spring_vrm_load_memory(text, strlen(text), NULL, &f, &e) == SPRING_OK);
	const spring_skeleton_node *n = &spring_vrm_file_desc(f)->nodes[0];
	ENSURE(n->translation.x == 1.0f && n->translation.z == 3.0f);
	ENSURE_NEAR(n->scale.x, 2.0, 1e-6);
	ENSURE_NEAR(n->rotation.z, sqrt(0.5), 1e-6);
	ENSURE_NEAR(n->rotation.w, sqrt(0.5), 1e-6);
	spring_vrm_file_destroy(f);
	return 0;
}

typedef struct bad_doc {
	const char *what;
	const char *nodes; // NULL: NODES
	const char *ext;
	spring_result result;
	const char *path;
	const char *reason_has;
} bad_doc;

static const bad_doc bad_docs[] = {
	{"no nodes", "[]", "", SPRING_ERROR_BAD_DEFINITION, "$", "no nodes"},
	{"child out of range", "[{\"children\": [5]}]", "", SPRING_ERROR_INVALID_ARGUMENT, "$.nodes[0].children[0]",
     "not the index of a node"},
	{"own child", "[{\"children\": [0]}]", "", SPRING_ERROR_BAD_DEFINITION, "$.nodes[0].children[0]", "own child"},
	{"two parents", "[{\"children\": [2]}, {\"children\": [2]}, {}]", "", SPRING_ERROR_BAD_DEFINITION, "$.nodes[1].children[0]",
     "already a child of node 0"},
	{"cycle", "[{\"children\": [1]}, {\"children\": [0]}]", "", SPRING_ERROR_BAD_DEFINITION, "$.nodes[0]", "cycle"},
	{"matrix and translation", "[{\"matrix\": [1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1], \"translation\": [0,0,0]}]", "",
     SPRING_ERROR_BAD_DEFINITION, "$.nodes[0]", "both \"matrix\" and \"translation\""},
	{"shear", "[{\"matrix\": [1,0,0,0,1,1,0,0,0,0,1,0,0,0,0,1]}]", "", SPRING_ERROR_BAD_DEFINITION, "$.nodes[0].matrix",
     "decomposable"},
	{"short rotation", "[{\"rotation\": [0, 0, 1]}]", "", SPRING_ERROR_BAD_DEFINITION, "$.nodes[0].rotation", "4 numbers"},
	{"rotation not unit", "[{\"rotation\": [0, 0, 0, 0.5]}]", "", SPRING_ERROR_BAD_DEFINITION, "$.nodes[0].rotation",
     "unit quaternion"},
	{"zero scale", "[{\"scale\": [1, 0, 1]}]", "", SPRING_ERROR_OUT_OF_RANGE, "$.nodes[0]", "scale"},
	{"spec version", NULL, "\"VRMC_springBone\": {\"specVersion\": \"2.0\"}", SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.specVersion", "unsupported version"},
	{"one joint", NULL, SPRING("[{\"node\": 1}]", ""), SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.springs[0].joints", "at least two joints"},
	{"joint node range", NULL, SPRING("[{\"node\": 1}, {\"node\": 9}]", ""), SPRING_ERROR_INVALID_ARGUMENT,
     "$.extensions.VRMC_springBone.springs[0].joints[1].node", "not the index of a node"},
	{"joint not a descendant", NULL, SPRING("[{\"node\": 1}, {\"node\": 4}]", ""), SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.springs[0].joints[1].node", "not a descendant of the previous joint's node 1"},
	{"drag above 1", NULL, SPRING("[{\"node\": 1, \"dragForce\": 1.5}, {\"node\": 2}]", ""), SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.springs[0].joints[0].dragForce", "[0, 1] (got 1.5)"},
	{"negative stiffness", NULL, SPRING("[{\"node\": 1, \"stiffness\": -1}, {\"node\": 2}]", ""), SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.springs[0].joints[0].stiffness", "(got -1)"},
	{"centre below", NULL, SPRING(JOINTS3, ", \"center\": 2"), SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.springs[0].center", "nor one of its ancestors"},
	{"no shape", NULL, "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {}}]}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRMC_springBone.colliders[0].shape", "needs one of"},
	{"two shapes", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {\"sphere\": {}, "
     "\"capsule\": {}}}]}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRMC_springBone.colliders[0].shape", "more than one"},
	{"plane outside the extension", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {\"plane\": {}}}]}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRMC_springBone.colliders[0].shape", "needs one of"},
	{"extended version", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {\"sphere\": {}}, "
     "\"extensions\": {\"VRMC_springBone_extended_collider\": {\"specVersion\": \"0.9\", \"shape\": {}}}}]}",
     SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.colliders[0].extensions.VRMC_springBone_extended_collider.specVersion", "unsupported"},
	{"zero plane normal", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {\"sphere\": {}}, "
     "\"extensions\": {\"VRMC_springBone_extended_collider\": {\"specVersion\": \"1.0\", \"shape\": {\"plane\": "
     "{\"normal\": [0, 0, 0]}}}}}]}",
     SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRMC_springBone.colliders[0].extensions.VRMC_springBone_extended_collider.shape.plane.normal", "zero"},
	{"negative radius", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {\"sphere\": "
     "{\"radius\": -1}}}]}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRMC_springBone.colliders[0].shape.sphere.radius", "(got -1)"},
	{"collider group member", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"colliders\": [{\"node\": 0, \"shape\": {\"sphere\": {}}}], "
     "\"colliderGroups\": [{\"colliders\": [1]}]}",
     SPRING_ERROR_INVALID_ARGUMENT, "$.extensions.VRMC_springBone.colliderGroups[0].colliders[0]", "not the index of a collider"},
	{"spring's collider group", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"springs\": [{\"joints\": " JOINTS3 ", \"colliderGroups\": [0]}]}",
     SPRING_ERROR_INVALID_ARGUMENT, "$.extensions.VRMC_springBone.springs[0].colliderGroups[0]",
     "not the index of a collider group"},
	{"joint in two springs", NULL,
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"springs\": [{\"joints\": " JOINTS3
     "}, {\"joints\": [{\"node\": 2}, {\"node\": 3}]}]}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRMC_springBone.springs[1].joints[0].node", "already joint 1 of spring 0"},
	{"zero-length bone", "[{\"children\": [1]}, {\"children\": [2]}, {}]",
     "\"VRMC_springBone\": {\"specVersion\": \"1.0\", \"springs\": [{\"joints\": [{\"node\": 0}, {\"node\": "
     "1}]}]}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRMC_springBone.springs[0].joints[0]", "long at rest"},
	{"0.x bone range", NULL, "\"VRM\": {\"secondaryAnimation\": {\"boneGroups\": [{\"bones\": [7]}]}}",
     SPRING_ERROR_INVALID_ARGUMENT, "$.extensions.VRM.secondaryAnimation.boneGroups[0].bones[0]", "not the index of a node"},
	{"0.x drag", NULL, "\"VRM\": {\"secondaryAnimation\": {\"boneGroups\": [{\"bones\": [1], \"dragForce\": 2}]}}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRM.secondaryAnimation.boneGroups[0].dragForce", "(got 2)"},
	{"0.x centre below", NULL, "\"VRM\": {\"secondaryAnimation\": {\"boneGroups\": [{\"bones\": [1], \"center\": 3}]}}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRM.secondaryAnimation.boneGroups[0].bones[0]", "nor one of its ancestors"},
	{"0.x leaf at its parent", "[{\"children\": [1]}, {}]",
     "\"VRM\": {\"secondaryAnimation\": {\"boneGroups\": [{\"bones\": [1]}]}}", SPRING_ERROR_BAD_DEFINITION,
     "$.extensions.VRM.secondaryAnimation.boneGroups[0].bones[0]", "node 1 (#1): the bone to the end tail"},
	{"0.x collider group node", NULL,
     "\"VRM\": {\"secondaryAnimation\": {\"colliderGroups\": [{\"node\": 5, \"colliders\": []}]}}", SPRING_ERROR_INVALID_ARGUMENT,
     "$.extensions.VRM.secondaryAnimation.colliderGroups[0].node", "not the index of a node"},
	{"0.x sphere radius", NULL,
     "\"VRM\": {\"secondaryAnimation\": {\"colliderGroups\": [{\"node\": 0, \"colliders\": [{\"radius\": "
     "\"big\"}]}]}}",
     SPRING_ERROR_BAD_DEFINITION, "$.extensions.VRM.secondaryAnimation.colliderGroups[0].colliders[0].radius", "number"},
};

static int test_bad_documents(void)
{
	for (size_t i = 0; i < sizeof bad_docs / sizeof bad_docs[0]; i++) {
		const bad_doc *b = &bad_docs[i];
		const char *text = doc_with(b->nodes ? b->nodes : NODES, b->ext);
		spring_vrm_file *f = (spring_vrm_file *)(uintptr_t)0x1234;
		spring_file_error e;
		spring_result r = spring_vrm_load_memory(text, strlen(text), "bad.gltf", &f, &e);
		bool ok = r == b->result && strcmp(e.path, b->path) == 0 && strstr(e.reason, b->reason_has) != NULL &&
		          f == (spring_vrm_file *)(uintptr_t)0x1234 && strncmp(e.message, "bad.gltf: ", 10) == 0;
		if (!ok) {
			printf("  case %zu (%s): result %d: %s\n", i, b->what, (int)r, e.message);
		}
		ENSURE(ok);
	}
	return 0;
}

static void put32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
}

// A GLB around the minimal document; then each of its lengths made to lie.
static int test_glb_container(void)
{
	const char *json = doc_with(NODES, SPRING(JOINTS3, ""));
	size_t n = strlen(json), padded = (n + 3u) & ~(size_t)3u, total = 20 + padded + 8 + 4;
	unsigned char *b = (unsigned char *)calloc(1, total + 8);
	ENSURE(b != NULL);
	memcpy(b, "glTF", 4);
	put32(b + 4, 2);
	put32(b + 8, (uint32_t)total);
	put32(b + 12, (uint32_t)padded);
	put32(b + 16, 0x4E4F534Au);
	memcpy(b + 20, json, n);
	memset(b + 20 + n, ' ', padded - n);
	put32(b + 20 + padded, 4);
	put32(b + 24 + padded, 0x004E4942u);
	spring_vrm_file *f = NULL;
	spring_file_error e;
	ENSURE(spring_vrm_load_memory(b, total, "mini.glb", &f, &e) == SPRING_OK);
	ENSURE(spring_vrm_file_desc(f)->spring_count == 1);
	spring_vrm_file_destroy(f);
	f = NULL;
	static const struct {
		size_t at;
		uint32_t value;
		size_t size; // 0: total
		const char *reason_has;
	} lies[] = {
		{8, 0, 0, "gives a length of 0 bytes, the data has"},
		{8, 1u << 30, 0, "gives a length of"},
		{4, 1, 0, "GLB version 1"},
		{16, 0x004E4942u, 0, "not JSON"},
		{12, 1u << 20, 0, "JSON chunk gives a length of 1048576 bytes"},
		{12, 3, 0, "malformed JSON"},
		{0, 0x46546C67u, 19, "12-byte header"},
	};
	for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
		unsigned char copy[8192];
		memcpy(copy, b, total);
		put32(copy + lies[i].at, lies[i].value);
		size_t size = lies[i].size ? lies[i].size : total;
		if (lies[i].size) {
			put32(copy + 8, (uint32_t)size);
		}
		spring_result r = spring_vrm_load_memory(copy, size, "lie.glb", &f, &e);
		if (r == SPRING_OK || !strstr(e.reason, lies[i].reason_has)) {
			printf("  lie %zu: %s\n", i, e.message);
		}
		ENSURE(r != SPRING_OK && f == NULL && strstr(e.reason, lies[i].reason_has) != NULL);
	}
	// Truncated anywhere: never read beyond what is given.
	for (size_t size = 0; size < total; size += 7) {
		spring_result r = spring_vrm_load_memory(b, size, "cut.glb", &f, &e);
		ENSURE(r != SPRING_OK && f == NULL);
	}
	// The same bytes from a file: the reader reads the header and the JSON chunk only.
	char path[] = "/tmp/spring_test_vrm_XXXXXX";
	int fd = mkstemp(path);
	ENSURE(fd >= 0);
	FILE *out = fdopen(fd, "wb");
	ENSURE(out && fwrite(b, 1, total, out) == total);
	fclose(out);
	ENSURE(spring_vrm_load_file(path, &f, &e) == SPRING_OK);
	spring_vrm_file_destroy(f);
	f = NULL;
	out = fopen(path, "ab"); // a file longer than its header says
	ENSURE(out && fwrite("x", 1, 1, out) == 1);
	fclose(out);
	ENSURE(spring_vrm_load_file(path, &f, &e) == SPRING_ERROR_BAD_DEFINITION && f == NULL);
	ENSURE(strstr(e.reason, "the data has") != NULL);
	remove(path);
	ENSURE(spring_vrm_load_file(path, &f, &e) == SPRING_ERROR_INVALID_ARGUMENT && strstr(e.reason, "cannot open"));
	ENSURE(spring_vrm_load_file(NULL, &f, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_vrm_load_memory(b, total, NULL, NULL, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_vrm_load_memory(NULL, 4, NULL, &f, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	free(b);
	spring_vrm_file_destroy(NULL);
	ENSURE(spring_vrm_file_desc(NULL) == NULL && spring_vrm_file_node_name(NULL, 0) == NULL);
	return 0;
}

// Motions: tracks resolved to nodes, keys interpolated and held at the ends; bad motions refused.
static int test_motions(void)
{
	const char *text = doc_with(NODES, SPRING(JOINTS3, ""));
	spring_vrm_file *f = NULL;
	spring_file_error e;
	ENSURE(spring_vrm_load_memory(text, strlen(text), "mini.gltf", &f, &e) == SPRING_OK);
	const char *motion = "{\"duration\": 2, \"tracks\": [{\"node\": \"$root\", \"translation\": [[0.5, 0, 0, 0], [1.5, "
						 "2, 0, 0]]}, {\"node\": \"arm\", \"rotation\": [[0, 0, 0, 0, 2], [1, 0, 0, 1, 0]]}]}";
	spring_vrm_motion *m = NULL;
	ENSURE(spring_vrm_motion_load_json(motion, strlen(motion), "m.json", f, &m, &e) == SPRING_OK);
	ENSURE(spring_vrm_motion_duration(m) == 2.0f);
	spring_xform3 locals[5], root;
	ENSURE(spring_vrm_motion_sample(m, 0.25, &root, locals, 4) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_vrm_motion_sample(m, NAN, &root, locals, 5) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_vrm_motion_sample(m, 0.25, &root, locals, 5) == SPRING_OK);
	ENSURE(root.position.x == 0.0f);                                       // held before the first key
	ENSURE(locals[4].position.x == 0.2f && locals[1].position.y == -0.1f); // rest where not keyed
	ENSURE_NEAR(locals[4].rotation.z, sin(SPRING_PI / 8), 1e-7);           // a quarter of the way to 180 degrees
	ENSURE_NEAR(locals[4].rotation.w, cos(SPRING_PI / 8), 1e-7);
	ENSURE(spring_vrm_motion_sample(m, 1.0, &root, locals, 5) == SPRING_OK);
	ENSURE(root.position.x == 1.0f);
	ENSURE_NEAR(locals[4].rotation.z, 1.0, 1e-7); // the second key: 180 degrees about z
	ENSURE(spring_vrm_motion_sample(m, 0.5, &root, locals, 5) == SPRING_OK);
	ENSURE_NEAR(locals[4].rotation.z, sqrt(0.5), 1e-7); // half-way by slerp
	ENSURE_NEAR(locals[4].rotation.w, sqrt(0.5), 1e-7);
	ENSURE(spring_vrm_motion_sample(m, 9.0, &root, locals, 5) == SPRING_OK);
	ENSURE(root.position.x == 2.0f); // held after the last key
	spring_vrm_motion_destroy(m);
	static const struct {
		const char *json, *path, *reason_has;
	} bad[] = {
		{"[]", "$", "expected an object"},
		{"{\"tracks\": []}", "$", "duration"},
		{"{\"duration\": -1, \"tracks\": []}", "$.duration", "(got -1)"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"leg\"}]}", "$.tracks[0].node", "no node is named \"leg\""},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"b\"}]}", "$.tracks[0].node", "spring joint"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"c\"}]}", "$.tracks[0].node", "spring joint"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"arm\"}, {\"node\": \"arm\"}]}", "$.tracks[1].node", "has a track already"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"arm\", \"translation\": [[1, 0, 0, 0], [1, 1, 0, 0]]}]}",
	     "$.tracks[0].translation[1][0]", "must increase"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"arm\", \"rotation\": [[0, 0, 0, 0, 0]]}]}", "$.tracks[0].rotation[0]",
	     "zero quaternion"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"arm\", \"rotation\": [[0, 0, 0, 1]]}]}", "$.tracks[0].rotation[0]",
	     "expected [t, x, y, z, w]"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"arm\", \"translation\": []}]}", "$.tracks[0].translation",
	     "at least one key"},
		{"{\"duration\": 1, \"tracks\": [{\"node\": \"arm\", \"scale\": [[0, 1, 1, 1]]}]}", "$.tracks[0].scale", "scale"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		m = (spring_vrm_motion *)(uintptr_t)0x1234;
		spring_result r = spring_vrm_motion_load_json(bad[i].json, strlen(bad[i].json), "m.json", f, &m, &e);
		bool ok = r == SPRING_ERROR_BAD_DEFINITION && strcmp(e.path, bad[i].path) == 0 && strstr(e.reason, bad[i].reason_has) &&
		          m == (spring_vrm_motion *)(uintptr_t)0x1234;
		if (!ok) {
			printf("  motion %zu: %d %s\n", i, (int)r, e.message);
		}
		ENSURE(ok);
	}
	ENSURE(spring_vrm_motion_load_json("{}", 2, NULL, NULL, &m, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_vrm_motion_load_file("/nonexistent/m.json", f, &m, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	spring_vrm_file_destroy(f);
	return 0;
}

// The reader's memory, through cJSON's hooks (it allocates with cJSON_malloc): the peak of the
// bytes live at once. (The hooks stay until every block made through them is freed.)
static size_t live_bytes, peak_bytes;
static void *counting_malloc(size_t size)
{
	size_t *p = (size_t *)malloc(size + 16);
	if (!p) {
		return NULL;
	}
	*p = size;
	live_bytes += size;
	peak_bytes = live_bytes > peak_bytes ? live_bytes : peak_bytes;
	return (char *)p + 16;
}
static void counting_free(void *q)
{
	if (q) {
		size_t *p = (size_t *)(void *)((char *)q - 16);
		live_bytes -= *p;
		free(p);
	}
}

// Large inputs within the documented limits cost memory and time in proportion to their size: a
// 16384-node VRM 0.x model whose bone groups list 16384 bones (the first the chain, the rest its
// repeats) once took a node-sized stack for each bone (1 GB; the limits allowed 256 GB), and a
// motion track of 200,000 keys was read in quadratic time (cJSON_GetArrayItem for each key: 66 s
// for 100,000 keys, hours for the limit's 1,000,000).
static int test_large_inputs(void)
{
	enum { NODE_COUNT = 16384, GROUPS = 4, BONES = 4096, KEYS = 200000 };
	size_t cap = (size_t)NODE_COUNT * 4 + (size_t)GROUPS * (BONES * 2 + 32) + 512;
	char *doc = (char *)malloc(cap);
	ENSURE(doc != NULL);
	size_t n = (size_t)snprintf(doc, cap,
	                            "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"children\": [1]}, "
	                            "{\"translation\": [0, 1, 0]}");
	for (int i = 2; i < NODE_COUNT; i++) {
		n += (size_t)snprintf(doc + n, cap - n, ",{}");
	}
	n += (size_t)snprintf(doc + n, cap - n, "], \"extensions\": {\"VRM\": {\"secondaryAnimation\": {\"boneGroups\": [");
	for (int g = 0; g < GROUPS; g++) {
		n += (size_t)snprintf(doc + n, cap - n, "%s{\"bones\": [0", g ? "," : "");
		for (int b = 1; b < BONES; b++) {
			n += (size_t)snprintf(doc + n, cap - n, ",0");
		}
		n += (size_t)snprintf(doc + n, cap - n, "]}");
	}
	n += (size_t)snprintf(doc + n, cap - n, "]}}}}");
	ENSURE(n < cap);
	cJSON_Hooks hooks = {counting_malloc, counting_free};
	cJSON_InitHooks(&hooks);
	live_bytes = peak_bytes = 0;
	spring_vrm_file *f = NULL;
	spring_file_error e;
	spring_result r = spring_vrm_load_memory(doc, n, "large.gltf", &f, &e);
	size_t model_peak = peak_bytes;
	free(doc);
	if (r != SPRING_OK) {
		printf("  %s\n", e.message);
	}
	ENSURE(r == SPRING_OK && spring_vrm_file_desc(f)->spring_count == 1 && spring_vrm_file_desc(f)->springs[0].joint_count == 2);
	printf("  %d nodes, %d bones: %zu bytes at the peak\n", NODE_COUNT, GROUPS * BONES, model_peak);
	ENSURE(model_peak < ((size_t)64 << 20));

	size_t mcap = (size_t)KEYS * 24 + 128;
	char *motion = (char *)malloc(mcap);
	ENSURE(motion != NULL);
	size_t m = (size_t)snprintf(motion, mcap, "{\"duration\": 3600, \"tracks\": [{\"node\": \"$root\", \"translation\": [");
	for (int k = 0; k < KEYS; k++) {
		m += (size_t)snprintf(motion + m, mcap - m, "%s[%.4f,%d,0,0]", k ? "," : "", k * (3600.0 / KEYS), k % 7);
	}
	m += (size_t)snprintf(motion + m, mcap - m, "]}]}");
	ENSURE(m < mcap);
	spring_vrm_motion *mo = NULL;
	r = spring_vrm_motion_load_json(motion, m, "long.json", f, &mo, &e);
	free(motion);
	if (r != SPRING_OK) {
		printf("  %s\n", e.message);
	}
	ENSURE(r == SPRING_OK);
	spring_xform3 root;
	spring_xform3 *locals = (spring_xform3 *)malloc(NODE_COUNT * sizeof *locals);
	ENSURE(locals != NULL);
	ENSURE(spring_vrm_motion_sample(mo, 3600.0 * 9 / KEYS, &root, locals, NODE_COUNT) == SPRING_OK && root.position.x == 2.0f);
	free(locals);
	spring_vrm_motion_destroy(mo);
	spring_vrm_file_destroy(f);
	ENSURE(live_bytes == 0);
	cJSON_InitHooks(NULL); // after the last block made through the hooks is freed
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_samples);
	RUN_TEST(test_godette);
	RUN_TEST(test_synthetic_avatar);
	RUN_TEST(test_minimal_and_defaults);
	RUN_TEST(test_bad_documents);
	RUN_TEST(test_glb_container);
	RUN_TEST(test_motions);
	RUN_TEST(test_large_inputs);
	return TEST_SUMMARY();
}
