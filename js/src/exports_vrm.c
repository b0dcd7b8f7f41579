// SPDX-License-Identifier: MIT
// The VRM module's export layer (js/vrm.js): a VRM avatar's spring bones (spring/vrm.h, the
// reader of the tools) stepped by spring_skeleton, and the drive motions of spring/vrm.h. Built
// into a module of its own (js/CMakeLists.txt); only marshalling, as in exports.c.
//
// A model is one allocation of the export layer (js_vrm) holding the file, the runtime and the
// arrays the per-frame calls read and write: `transforms`, the model root then each node's local
// transform (translation x, y, z, rotation x, y, z, w: spring_xform3, 7 floats), and each bone's
// head node, rotation and tail.
#include <spring/skeleton.h>
#include <spring/vrm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(spring_xform3) == 7 * sizeof(float), "transforms are 7 floats each");

typedef struct js_vrm {
	spring_vrm_file *file;
	spring_skeleton *skeleton;
	int node_count, bone_count;
	spring_xform3 *transforms; // 1 + node_count
	int *nodes;                // bone_count each
	spring_quat *rotations;
	spring_vec3 *tails;
	float *lengths;
	spring_skeleton_desc desc; // the file's, with the model's rate and length rule (for its crowds)
} js_vrm;

size_t js_vrm_error_size(void)
{
	return sizeof(spring_file_error);
}

const char *js_vrm_error_message(const spring_file_error *e)
{
	return e->message;
}

void js_vrm_destroy(js_vrm *v)
{
	if (v) {
		spring_skeleton_destroy(v->skeleton);
		spring_vrm_file_destroy(v->file);
		free(v->transforms);
		free(v->nodes);
		free(v->rotations);
		free(v->tails);
		free(v->lengths);
		free(v);
	}
}

static void fail(spring_file_error *error, const char *name, const char *reason)
{
	memset(error, 0, sizeof *error);
	snprintf(error->file, sizeof error->file, "%s", name);
	snprintf(error->reason, sizeof error->reason, "%s", reason);
	snprintf(error->message, sizeof error->message, "%s: %s", name, reason);
}

// Reads a model and makes its runtime (rate: 0 is the authoring rate, 60 Hz; length: a
// spring_skeleton_length). A model without spring bones is refused: it has nothing to move.
int js_vrm_load(const void *bytes, size_t size, const char *name, const float *args, int length, js_vrm **out,
                spring_file_error *error)
{
	spring_vrm_file *file = NULL;
	spring_result r = spring_vrm_load_memory(bytes, size, name, &file, error);
	if (r != SPRING_OK) {
		return (int)r;
	}
	if (spring_vrm_file_format(file) == SPRING_VRM_FORMAT_NONE) {
		spring_vrm_file_destroy(file);
		fail(error, name,
		     "$.extensions: no spring bones: the file has neither VRMC_springBone (VRM 1.0) nor "
		     "VRM.secondaryAnimation (VRM 0.x)");
		return (int)SPRING_ERROR_BAD_DEFINITION;
	}
	spring_skeleton_desc d = *spring_vrm_file_desc(file);
	d.rate = args[0];
	d.length = (spring_skeleton_length)length;
	js_vrm *v = (js_vrm *)calloc(1, sizeof *v);
	spring_error e;
	r = SPRING_ERROR_OUT_OF_MEMORY;
	if (!v || (r = spring_skeleton_create(&d, &v->skeleton, &e)) != SPRING_OK) {
		fail(error, name, v ? e.message : "out of memory");
		free(v);
		spring_vrm_file_destroy(file);
		return (int)r;
	}
	v->file = file;
	v->desc = d;
	v->node_count = d.node_count;
	v->bone_count = spring_skeleton_bone_count(v->skeleton);
	size_t bones = (size_t)(v->bone_count > 0 ? v->bone_count : 1);
	v->transforms = (spring_xform3 *)calloc((size_t)d.node_count + 1u, sizeof *v->transforms);
	v->nodes = (int *)calloc(bones, sizeof *v->nodes);
	v->rotations = (spring_quat *)calloc(bones, sizeof *v->rotations);
	v->tails = (spring_vec3 *)calloc(bones, sizeof *v->tails);
	v->lengths = (float *)calloc(bones, sizeof *v->lengths);
	if (!v->transforms || !v->nodes || !v->rotations || !v->tails || !v->lengths) {
		js_vrm_destroy(v);
		fail(error, name, "out of memory");
		return (int)SPRING_ERROR_OUT_OF_MEMORY;
	}
	spring_skeleton_get_pose(v->skeleton, v->nodes, v->rotations, v->tails, v->bone_count);
	spring_skeleton_get_rest_lengths(v->skeleton, v->lengths, v->bone_count);
	*out = v;
	return (int)SPRING_OK;
}

// out[0..4] = node count, bone count, format (spring_vrm_format), spring count, collider count.
void js_vrm_info(const js_vrm *v, int *out)
{
	const spring_skeleton_desc *d = spring_vrm_file_desc(v->file);
	out[0] = v->node_count;
	out[1] = v->bone_count;
	out[2] = (int)spring_vrm_file_format(v->file);
	out[3] = d->spring_count;
	out[4] = d->collider_count;
}

// The arrays JavaScript reads and writes: 0 transforms, 1 nodes, 2 rotations, 3 tails, 4 lengths.
void *js_vrm_array(const js_vrm *v, int which)
{
	void *const arrays[] = {v->transforms, v->nodes, v->rotations, v->tails, v->lengths};
	return which >= 0 && which < 5 ? arrays[which] : NULL;
}

const char *js_vrm_node_name(const js_vrm *v, int node)
{
	return spring_vrm_file_node_name(v->file, node);
}

// The rest pose into `transforms`: the model root at identity, each node's rest translation and
// rotation (identity for an all-zero one, as the skeleton reads it).
void js_vrm_rest(js_vrm *v)
{
	const spring_skeleton_desc *d = spring_vrm_file_desc(v->file);
	v->transforms[0] = spring_xform3_identity();
	for (int i = 0; i < d->node_count; i++) {
		spring_quat q = d->nodes[i].rotation;
		if (q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 0.0f) {
			q.w = 1.0f;
		}
		v->transforms[1 + i] = (spring_xform3){d->nodes[i].translation, q};
	}
}

// The pose into the bone arrays (stepped: at the last step, else interpolated).
int js_vrm_pose(js_vrm *v, int stepped)
{
	if (stepped) {
		return (int)spring_skeleton_get_stepped_pose(v->skeleton, v->nodes, v->rotations, v->tails, v->bone_count);
	}
	return (int)spring_skeleton_get_pose(v->skeleton, v->nodes, v->rotations, v->tails, v->bone_count);
}

// The per-frame calls read `transforms` and their numbers from memory (`args` in js/runtime.js;
// exports.c says why), then write the interpolated pose.
int js_vrm_update(js_vrm *v, const float *args) // frame dt
{
	spring_result r = spring_skeleton_update(v->skeleton, v->transforms[0], v->transforms + 1, v->node_count, args[0]);
	return r != SPRING_OK ? (int)r : js_vrm_pose(v, 0);
}

int js_vrm_reset(js_vrm *v)
{
	spring_result r = spring_skeleton_reset(v->skeleton, v->transforms[0], v->transforms + 1, v->node_count);
	return r != SPRING_OK ? (int)r : js_vrm_pose(v, 0);
}

int js_vrm_teleport(js_vrm *v)
{
	spring_result r = spring_skeleton_teleport(v->skeleton, v->transforms[0], v->transforms + 1, v->node_count);
	return r != SPRING_OK ? (int)r : js_vrm_pose(v, 0);
}

int js_vrm_is_resting(const js_vrm *v)
{
	return spring_skeleton_is_resting(v->skeleton) ? 1 : 0;
}

size_t js_vrm_snapshot_size(const js_vrm *v)
{
	return spring_skeleton_snapshot_size(v->skeleton);
}

int js_vrm_snapshot(const js_vrm *v, void *blob, size_t size)
{
	return (int)spring_skeleton_snapshot(v->skeleton, blob, size);
}

// A refusal's sentence stays here for js_vrm_restore_error (calls are synchronous: one at a time).
static spring_error restore_error;

int js_vrm_restore(js_vrm *v, const void *blob, size_t size)
{
	spring_result r = spring_skeleton_restore(v->skeleton, blob, size, &restore_error);
	return r != SPRING_OK ? (int)r : js_vrm_pose(v, 0);
}

const char *js_vrm_restore_error(void)
{
	return restore_error.message;
}

// Motions: read for a model (the motion copies what it needs), sampled at args[0] (the time, a
// double) into `transforms` (1 + node_count of them, laid out as a model's).
int js_vrm_motion_load(const char *text, size_t length, const char *name, const js_vrm *v, spring_vrm_motion **out,
                       spring_file_error *error)
{
	return (int)spring_vrm_motion_load_json(text, length, name, v->file, out, error);
}

int js_vrm_motion_sample(const spring_vrm_motion *m, spring_xform3 *transforms, int node_count, const double *args)
{
	return (int)spring_vrm_motion_sample(m, args[0], transforms, transforms + 1, node_count);
}

// Crowds of a model (spring_skeleton_crowd): `count` instances of it, made from its description
// (rate and length rule included). JavaScript writes every instance's root into `roots` and its
// nodes' local transforms into `locals` (count x node_count) and reads each instance's bones from
// `rotations` and `tails` (count x bone_count).
typedef struct js_vrm_crowd {
	spring_skeleton_crowd *crowd;
	int count, node_count, bone_count;
	spring_xform3 *roots;
	spring_xform3 *locals;
	spring_quat *rotations;
	spring_vec3 *tails;
} js_vrm_crowd;

void js_vrm_crowd_destroy(js_vrm_crowd *c)
{
	if (c) {
		spring_skeleton_crowd_destroy(c->crowd);
		free(c->roots);
		free(c->locals);
		free(c->rotations);
		free(c->tails);
		free(c);
	}
}

// A refused crowd's sentence stays here for js_vrm_crowd_error.
static spring_error crowd_error;

int js_vrm_crowd_create(const js_vrm *v, int count, js_vrm_crowd **out)
{
	spring_skeleton_crowd_desc d = {&v->desc, count};
	js_vrm_crowd *c = (js_vrm_crowd *)calloc(1, sizeof *c);
	spring_result r = SPRING_ERROR_OUT_OF_MEMORY;
	snprintf(crowd_error.message, sizeof crowd_error.message, "out of memory");
	if (!c || (r = spring_skeleton_crowd_create(&d, &c->crowd, &crowd_error)) != SPRING_OK) {
		free(c);
		return (int)r;
	}
	c->count = count;
	c->node_count = v->node_count;
	c->bone_count = v->bone_count;
	size_t n = (size_t)count, nodes = n * (size_t)(v->node_count > 0 ? v->node_count : 1),
		   bones = n * (size_t)(v->bone_count > 0 ? v->bone_count : 1);
	c->roots = (spring_xform3 *)calloc(n, sizeof *c->roots);
	c->locals = (spring_xform3 *)calloc(nodes, sizeof *c->locals);
	c->rotations = (spring_quat *)calloc(bones, sizeof *c->rotations);
	c->tails = (spring_vec3 *)calloc(bones, sizeof *c->tails);
	if (!c->roots || !c->locals || !c->rotations || !c->tails) {
		js_vrm_crowd_destroy(c);
		return (int)SPRING_ERROR_OUT_OF_MEMORY;
	}
	*out = c;
	return (int)SPRING_OK;
}

const char *js_vrm_crowd_error(void)
{
	return crowd_error.message;
}

// The arrays JavaScript reads and writes: 0 roots, 1 locals, 2 rotations, 3 tails.
void *js_vrm_crowd_array(const js_vrm_crowd *c, int which)
{
	void *const arrays[] = {c->roots, c->locals, c->rotations, c->tails};
	return which >= 0 && which < 4 ? arrays[which] : NULL;
}

// Every instance's pose into the bone arrays (stepped: at the last step, else interpolated).
int js_vrm_crowd_pose(js_vrm_crowd *c, int stepped)
{
	for (int i = 0; i < c->count; i++) {
		size_t at = (size_t)i * (size_t)c->bone_count;
		spring_result r =
			stepped ? spring_skeleton_crowd_get_stepped_pose(c->crowd, i, NULL, c->rotations + at, c->tails + at, c->bone_count)
					: spring_skeleton_crowd_get_pose(c->crowd, i, NULL, c->rotations + at, c->tails + at, c->bone_count);
		if (r != SPRING_OK) {
			return (int)r;
		}
	}
	return (int)SPRING_OK;
}

int js_vrm_crowd_update(js_vrm_crowd *c, const float *args) // frame dt
{
	spring_result r = spring_skeleton_crowd_update(c->crowd, c->roots, c->locals, c->node_count, args[0]);
	return r != SPRING_OK ? (int)r : js_vrm_crowd_pose(c, 0);
}

int js_vrm_crowd_reset(js_vrm_crowd *c)
{
	spring_result r = spring_skeleton_crowd_reset(c->crowd, c->roots, c->locals, c->node_count);
	return r != SPRING_OK ? (int)r : js_vrm_crowd_pose(c, 0);
}

// One instance jumped to its pose in `roots` and `locals`.
int js_vrm_crowd_teleport(js_vrm_crowd *c, int instance)
{
	if (instance < 0 || instance >= c->count) {
		return (int)SPRING_ERROR_OUT_OF_RANGE;
	}
	spring_result r = spring_skeleton_crowd_teleport(c->crowd, instance, c->roots[instance],
	                                                 c->locals + (size_t)instance * (size_t)c->node_count, c->node_count);
	return r != SPRING_OK ? (int)r : js_vrm_crowd_pose(c, 0);
}

// Whether instance `instance` rested at the last step; -1: whether every instance did.
int js_vrm_crowd_is_resting(const js_vrm_crowd *c, int instance)
{
	if (instance >= 0) {
		return spring_skeleton_crowd_is_resting(c->crowd, instance) ? 1 : 0;
	}
	for (int i = 0; i < c->count; i++) {
		if (!spring_skeleton_crowd_is_resting(c->crowd, i)) {
			return 0;
		}
	}
	return 1;
}
