// SPDX-License-Identifier: MIT
// Fuzz target: the VRM reader (tools/io, spring/vrm.h: spring_vrm_load_memory) and the drive
// motions read for the model it gives (spring_vrm_motion_load_json, spring_vrm_motion_sample).
// The input is a model (.vrm/.glb bytes or glTF JSON), optionally followed by the separator
// "\n--motion--\n" and a motion document (JSON) for that model; without the separator the motion
// is the same bytes as the model. A model that is not a GLB container is also read a second time
// wrapped in one (a GLB header, the bytes as its JSON chunk padded with spaces, an empty BIN
// chunk), so that what the fuzzer learns about the JSON reaches the container path too.
// Promises checked:
//  - the reader returns a defined code; on error `*out` is untouched and the message is a
//    non-empty string (path, reason and message NUL-terminated); nothing leaks (LeakSanitizer);
//  - the wrapped model gives the same result as the bare one, and on success the same skeleton
//    (counts, nodes, names);
//  - on success the description validates (spring_skeleton_validate), the format is defined,
//    every node has a name, at most SPRING_VRM_MAX_NAME bytes, spring_vrm_file_find_node gives
//    the node back, and indices out of range have no name;
//  - a motion refused leaves `*out` untouched with a message; an accepted one has a duration in
//    (0, SPRING_VRM_MOTION_MAX_DURATION] and, sampled after its model is destroyed (the motion
//    copies what it needs) at 0, duration/2, duration, -1 and 1e9, gives finite translations and
//    rotations of unit length within 1e-3 for every node and the model root; a too-small array
//    gives BUFFER_TOO_SMALL, a NaN time NOT_FINITE.
#include "fuzz.h"

#include <spring/vrm.h>

#define SEPARATOR "\n--motion--\n"
#define WRAP_MAX ((size_t)1 << 20) // the bare model's bytes wrapped into a GLB at most

static void check_error(const spring_file_error *e, spring_result r, const char *what)
{
	FZ_CHECK(memchr(e->message, '\0', sizeof e->message) && e->message[0] != '\0', "%s returned %s without a message", what,
	         spring_result_string(r));
	FZ_CHECK(memchr(e->path, '\0', sizeof e->path) && memchr(e->reason, '\0', sizeof e->reason) &&
	             memchr(e->file, '\0', sizeof e->file),
	         "%s: an unterminated error field", what);
	FZ_CHECK(e->line >= 0 && e->column >= 0, "%s: error at line %d column %d", what, e->line, e->column);
}

// Loads `size` bytes; the model, or NULL when refused (the refusal checked).
static spring_vrm_file *load(const uint8_t *bytes, size_t size, const char *what, spring_result *res)
{
	static spring_file_error error;
	memset(&error, 0, sizeof error);
	spring_vrm_file *f = (spring_vrm_file *)(uintptr_t)0x1;
	*res = spring_vrm_load_memory(bytes, size, what, &f, &error);
	FZ_TRACE("%s: %zu bytes -> %s %s", what, size, spring_result_string(*res), *res ? error.message : "");
	FZ_CHECK_RESULT(*res, what);
	if (*res != SPRING_OK) {
		FZ_CHECK(f == (spring_vrm_file *)(uintptr_t)0x1, "a refused %s wrote *out", what);
		check_error(&error, *res, what);
		return NULL;
	}
	FZ_CHECK(f != NULL && f != (spring_vrm_file *)(uintptr_t)0x1, "%s returned OK without a model", what);
	return f;
}

static void check_model(const spring_vrm_file *f)
{
	const spring_skeleton_desc *d = spring_vrm_file_desc(f);
	FZ_CHECK(d != NULL, "no description");
	spring_result r = spring_skeleton_validate(d, NULL);
	FZ_CHECK(r == SPRING_OK, "the model's description does not validate: %s", spring_result_string(r));
	spring_vrm_format format = spring_vrm_file_format(f);
	FZ_CHECK(format >= SPRING_VRM_FORMAT_NONE && format < SPRING_VRM_FORMAT_COUNT, "format %d", (int)format);
	FZ_CHECK(format != SPRING_VRM_FORMAT_NONE || d->spring_count == 0, "%d springs in a model without spring bones",
	         d->spring_count);
	for (int i = 0; i < d->node_count; i++) {
		const char *name = spring_vrm_file_node_name(f, i);
		FZ_CHECK(name != NULL, "node %d has no name", i);
		FZ_CHECK(strlen(name) <= SPRING_VRM_MAX_NAME, "node %d: a name of %zu bytes", i, strlen(name));
		int found = spring_vrm_file_find_node(f, name);
		FZ_CHECK(found == i, "node %d is named \"%s\", which finds node %d", i, name, found);
	}
	FZ_CHECK(spring_vrm_file_node_name(f, -1) == NULL && spring_vrm_file_node_name(f, d->node_count) == NULL,
	         "an index out of range has a name");
}

// The bare and the wrapped model describe the same skeleton.
static void check_same(const spring_vrm_file *a, const spring_vrm_file *b)
{
	const spring_skeleton_desc *x = spring_vrm_file_desc(a), *y = spring_vrm_file_desc(b);
	FZ_CHECK(x->node_count == y->node_count && x->spring_count == y->spring_count && x->collider_count == y->collider_count &&
	             x->collider_group_count == y->collider_group_count && spring_vrm_file_format(a) == spring_vrm_file_format(b),
	         "the GLB-wrapped model differs from the bare one");
	FZ_CHECK(memcmp(x->nodes, y->nodes, (size_t)x->node_count * sizeof *x->nodes) == 0, "the GLB-wrapped model's nodes differ");
	for (int i = 0; i < x->node_count; i++) {
		FZ_CHECK(strcmp(spring_vrm_file_node_name(a, i), spring_vrm_file_node_name(b, i)) == 0,
		         "the GLB-wrapped model names node %d otherwise", i);
	}
	for (int s = 0; s < x->spring_count; s++) {
		FZ_CHECK(x->springs[s].joint_count == y->springs[s].joint_count &&
		             memcmp(x->springs[s].joints, y->springs[s].joints,
		                    (size_t)x->springs[s].joint_count * sizeof *x->springs[s].joints) == 0,
		         "the GLB-wrapped model's spring %d differs", s);
	}
}

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

// `size` bytes as the JSON chunk of a GLB (padded with spaces to 4 bytes, an empty BIN chunk).
static uint8_t *wrap_glb(const uint8_t *json, size_t size, size_t *total)
{
	size_t padded = (size + 3u) & ~(size_t)3u;
	*total = 12 + 8 + padded + 8;
	uint8_t *b = malloc(*total);
	if (!b) {
		return NULL;
	}
	memcpy(b, "glTF", 4);
	put32(b + 4, 2);
	put32(b + 8, (uint32_t)*total);
	put32(b + 12, (uint32_t)padded);
	put32(b + 16, 0x4E4F534Au); // "JSON"
	if (size) {
		memcpy(b + 20, json, size);
	}
	memset(b + 20 + size, ' ', padded - size);
	put32(b + 20 + padded, 0);
	put32(b + 24 + padded, 0x004E4942u); // "BIN\0"
	return b;
}

static void check_pose(const spring_xform3 *x, const char *which, int node, double t)
{
	FZ_CHECK(fz_all_finite(x, FZ_FLOATS(*x)), "sample(%g): %s %d not finite", t, which, node);
	const spring_quat *q = &x->rotation;
	double len = sqrt((double)q->x * q->x + (double)q->y * q->y + (double)q->z * q->z + (double)q->w * q->w);
	FZ_CHECK(fabs(len - 1.0) <= 1e-3, "sample(%g): %s %d has a rotation of length %.9g", t, which, node, len);
}

static void drive_motion(const char *text, size_t length, spring_vrm_file *model)
{
	static spring_file_error error;
	memset(&error, 0, sizeof error);
	spring_vrm_motion *m = (spring_vrm_motion *)(uintptr_t)0x1;
	spring_result res = spring_vrm_motion_load_json(text, length, "fuzz.json", model, &m, &error);
	FZ_TRACE("motion: %zu bytes -> %s %s", length, spring_result_string(res), res ? error.message : "");
	FZ_CHECK_RESULT(res, "spring_vrm_motion_load_json");
	int nodes = spring_vrm_file_desc(model)->node_count;
	spring_vrm_file_destroy(model); // the motion copies what it needs
	if (res != SPRING_OK) {
		FZ_CHECK(m == (spring_vrm_motion *)(uintptr_t)0x1, "a refused motion wrote *out");
		check_error(&error, res, "spring_vrm_motion_load_json");
		return;
	}
	FZ_CHECK(m != NULL && m != (spring_vrm_motion *)(uintptr_t)0x1, "the motion loaded OK without an object");
	double duration = spring_vrm_motion_duration(m);
	FZ_CHECK(duration > 0.0 && duration <= SPRING_VRM_MOTION_MAX_DURATION, "a duration of %g", duration);
	spring_xform3 *locals = malloc((size_t)nodes * sizeof *locals);
	if (locals) {
		const double times[] = {0.0, duration / 2.0, duration, -1.0, 1e9};
		for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
			spring_xform3 root;
			res = spring_vrm_motion_sample(m, times[k], &root, locals, nodes);
			FZ_CHECK(res == SPRING_OK, "sample(%g) returned %s", times[k], spring_result_string(res));
			check_pose(&root, "the root", -1, times[k]);
			for (int i = 0; i < nodes; i++) {
				check_pose(&locals[i], "node", i, times[k]);
			}
		}
		res = spring_vrm_motion_sample(m, duration, NULL, locals, nodes - 1);
		FZ_CHECK(res == SPRING_ERROR_BUFFER_TOO_SMALL, "sample into %d of %d nodes returned %s", nodes - 1, nodes,
		         spring_result_string(res));
		res = spring_vrm_motion_sample(m, NAN, NULL, locals, nodes);
		FZ_CHECK(res == SPRING_ERROR_NOT_FINITE, "sample(NaN) returned %s", spring_result_string(res));
		free(locals);
	}
	spring_vrm_motion_destroy(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char separator[] = SEPARATOR;
	const size_t sep_len = sizeof separator - 1;
	size_t model_size = size;
	const char *motion = (const char *)data;
	size_t motion_size = size;
	for (size_t i = 0; size >= sep_len && i <= size - sep_len; i++) {
		if (data[i] == '\n' && memcmp(data + i, separator, sep_len) == 0) {
			model_size = i;
			motion = (const char *)data + i + sep_len;
			motion_size = size - i - sep_len;
			break;
		}
	}

	spring_result res;
	spring_vrm_file *f = load(data, model_size, "fuzz.vrm", &res);
	if (f) {
		check_model(f);
	}
	if (!(model_size >= 4 && memcmp(data, "glTF", 4) == 0) && model_size <= WRAP_MAX) {
		size_t total = 0;
		uint8_t *glb = wrap_glb(data, model_size, &total);
		if (glb) {
			spring_result wrapped_res;
			spring_vrm_file *g = load(glb, total, "fuzz.glb", &wrapped_res);
			FZ_CHECK(wrapped_res == res, "the model read %s bare and %s wrapped in a GLB", spring_result_string(res),
			         spring_result_string(wrapped_res));
			if (g) {
				check_model(g);
				check_same(f, g);
				spring_vrm_file_destroy(g);
			}
			free(glb);
		}
	}
	if (f) {
		drive_motion(motion, motion_size, f); // destroys f
	}
	return 0;
}
