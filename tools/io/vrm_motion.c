// SPDX-License-Identifier: MIT
// Drive motions for VRM models (spring/vrm.h): keyed local translations and rotations.
#define _POSIX_C_SOURCE 200809L
#include "rig_json_internal.h"
#include "vrm_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct track {
	int node;             // -1: the model root
	int t_first, t_count; // keys in motion->keys: [t, x, y, z]
	int r_first, r_count; // [t, x, y, z, w], normalised
} track;

struct spring_vrm_motion {
	double duration;
	int node_count;
	int track_count;
	track *tracks;
	double *keys;             // 5 doubles a key (translation keys leave the fifth 0)
	spring_vrm_local_d *rest; // the model's rest locals (node_count)
};

// ---------------------------------------------------------------------------------------------
// Reading

typedef struct motion_reader {
	rj *c;
	const spring_vrm_file *model;
	bool *is_joint;
	int key_count, key_cap;
	double *keys;
} motion_reader;

static spring_result read_keys(motion_reader *mr, const cJSON *tr, const char *p, const char *key, int width, int *first,
                               int *count)
{
	rj *c = mr->c;
	const cJSON *list = NULL;
	int n = 0;
	*first = mr->key_count;
	*count = 0;
	if (rj_get_array(c, tr, p, key, 0, SPRING_VRM_MOTION_MAX_KEYS, "keys", &list, &n)) {
		return c->result;
	}
	char pk[RJ_PATH_SIZE];
	PATH_KEY(pk, p, key);
	if (list && n == 0) {
		return rj_bad(c, pk, "a track needs at least one key (or leave \"%s\" out)", key);
	}
	if (mr->key_count + n > SPRING_VRM_MOTION_MAX_KEYS) {
		return rj_fail(c, SPRING_ERROR_OUT_OF_RANGE, pk, "the motion has more than %d keys", SPRING_VRM_MOTION_MAX_KEYS);
	}
	if (mr->key_count + n > mr->key_cap) {
		int cap = mr->key_cap ? mr->key_cap : 256;
		while (cap < mr->key_count + n) {
			cap *= 2;
		}
		double *bigger = (double *)rj_alloc(c, (size_t)cap * 5u, sizeof(double));
		if (!bigger) {
			return c->result;
		}
		if (mr->key_count) {
			memcpy(bigger, mr->keys, (size_t)mr->key_count * 5u * sizeof(double));
		}
		mr->keys = bigger;
		mr->key_cap = cap;
	}
	const cJSON *j = n ? list->child : NULL; // walked, not indexed: cJSON_GetArrayItem is linear
	for (int k = 0; k < n; k++, j = j->next) {
		char pi[RJ_PATH_SIZE];
		PATH_INDEX(pi, pk, k);
		if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != width) {
			return rj_bad(c, pi, "expected [t, x, y, z%s], got %s", width == 5 ? ", w" : "", rj_type_name(j));
		}
		double *v = &mr->keys[(size_t)(mr->key_count + k) * 5u];
		v[4] = 0.0;
		for (int e = 0; e < width; e++) {
			char pe[RJ_PATH_SIZE];
			PATH_INDEX(pe, pi, e);
			double lo = e == 0 ? 0.0 : -RJ_BIG, hi = e == 0 ? SPRING_VRM_MOTION_MAX_DURATION : RJ_BIG;
			if (rj_number_item(c, cJSON_GetArrayItem(j, e), pe, lo, hi, 0, &v[e])) {
				return c->result;
			}
		}
		if (k > 0 && !(v[0] > v[-5])) {
			char pt[RJ_PATH_SIZE];
			PATH_INDEX(pt, pi, 0);
			return rj_bad(c, pt, "key times must increase (%.9g after %.9g)", v[0], v[-5]);
		}
		if (width == 5) {
			double len = sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3] + v[4] * v[4]);
			if (!(len > 1e-9)) {
				return rj_bad(c, pi, "a rotation key must not be a zero quaternion");
			}
			for (int e = 1; e < 5; e++) {
				v[e] /= len;
			}
		}
	}
	mr->key_count += n;
	*count = n;
	return SPRING_OK;
}

static spring_result read_motion(rj *c, const cJSON *doc, const spring_vrm_file *model, spring_vrm_motion **out)
{
	if (!cJSON_IsObject(doc)) {
		return rj_bad(c, "$", "expected an object (a motion), got %s", rj_type_name(doc));
	}
	static const char *const keys[] = {"duration", "tracks", NULL};
	float duration = 0.0f;
	if (rj_check_keys(c, doc, "$", keys, "") ||
	    rj_get_float(c, doc, "$", "duration", 1, 0.0, 0.0, SPRING_VRM_MOTION_MAX_DURATION, RJ_LO_OPEN, &duration)) {
		return c->result;
	}
	const spring_skeleton_desc *d = spring_vrm_file_desc(model);
	motion_reader mr;
	memset(&mr, 0, sizeof mr);
	mr.c = c;
	mr.model = model;
	mr.is_joint = (bool *)rj_alloc(c, (size_t)d->node_count, sizeof(bool));
	bool *tracked = (bool *)rj_alloc(c, (size_t)d->node_count + 1u, sizeof(bool));
	if (!mr.is_joint || !tracked) {
		return c->result;
	}
	for (int s = 0; s < d->spring_count; s++) {
		for (int k = 0; k < d->springs[s].joint_count; k++) {
			mr.is_joint[d->springs[s].joints[k].node] = true;
		}
	}
	const cJSON *list = NULL;
	int n = 0;
	if (rj_get_array(c, doc, "$", "tracks", 1, d->node_count + 1, "tracks", &list, &n)) {
		return c->result;
	}
	track *tracks = (track *)rj_alloc(c, (size_t)(n ? n : 1), sizeof *tracks);
	if (!tracks) {
		return c->result;
	}
	for (int i = 0; i < n; i++) {
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, "$.tracks", i);
		const cJSON *tr = cJSON_GetArrayItem(list, i);
		static const char *const track_keys[] = {"node", "translation", "rotation", NULL};
		const char *name = NULL;
		if (rj_expect_object(c, tr, p, "a track") || rj_check_keys(c, tr, p, track_keys, " in a track") ||
		    rj_get_name(c, tr, p, "node", &name)) {
			return c->result;
		}
		char pn[RJ_PATH_SIZE];
		PATH_KEY(pn, p, "node");
		int node = strcmp(name, "$root") == 0 ? -1 : spring_vrm_file_find_node(model, name);
		char q[96];
		if (node < 0 && strcmp(name, "$root") != 0) {
			return rj_bad(c, pn, "no node is named %s (a name used by several nodes, or none, is \"#INDEX\")",
			              rj_quoted(q, sizeof q, name, 60));
		}
		if (node >= 0 && mr.is_joint[node]) {
			return rj_bad(c, pn, "%s is a spring joint: the springs move it", rj_quoted(q, sizeof q, name, 60));
		}
		if (tracked[node + 1]) {
			return rj_bad(c, pn, "%s has a track already", rj_quoted(q, sizeof q, name, 60));
		}
		tracked[node + 1] = true;
		tracks[i].node = node;
		if (read_keys(&mr, tr, p, "translation", 4, &tracks[i].t_first, &tracks[i].t_count) ||
		    read_keys(&mr, tr, p, "rotation", 5, &tracks[i].r_first, &tracks[i].r_count)) {
			return c->result;
		}
	}
	// One block, each part at a multiple of 16 bytes.
	size_t at_tracks = (sizeof(spring_vrm_motion) + 15u) & ~(size_t)15u;
	size_t at_keys = at_tracks + (((size_t)(n ? n : 1) * sizeof(track) + 15u) & ~(size_t)15u);
	size_t at_rest = at_keys + (size_t)mr.key_count * 5u * sizeof(double);
	size_t size = at_rest + (size_t)d->node_count * sizeof(spring_vrm_local_d);
	unsigned char *block = (unsigned char *)cJSON_malloc(size);
	if (!block) {
		return rj_fail(c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory (%zu bytes for the motion)", size);
	}
	spring_vrm_motion *m = (spring_vrm_motion *)block;
	m->duration = duration;
	m->node_count = d->node_count;
	m->track_count = n;
	m->tracks = (track *)(block + at_tracks);
	m->keys = (double *)(block + at_keys);
	m->rest = (spring_vrm_local_d *)(block + at_rest);
	memcpy(m->tracks, tracks, (size_t)n * sizeof(track));
	if (mr.key_count) {
		memcpy(m->keys, mr.keys, (size_t)mr.key_count * 5u * sizeof(double));
	}
	for (int i = 0; i < d->node_count; i++) {
		const spring_skeleton_node *nd = &d->nodes[i];
		spring_vrm_local_d *r = &m->rest[i];
		r->t[0] = nd->translation.x;
		r->t[1] = nd->translation.y;
		r->t[2] = nd->translation.z;
		double x = nd->rotation.x, y = nd->rotation.y, z = nd->rotation.z, w = nd->rotation.w;
		double len = sqrt(x * x + y * y + z * z + w * w);
		if (len == 0.0) {
			x = y = z = 0.0;
			w = len = 1.0;
		}
		r->q[0] = x / len;
		r->q[1] = y / len;
		r->q[2] = z / len;
		r->q[3] = w / len;
	}
	*out = m;
	return SPRING_OK;
}

static spring_result load_text(rj *c, char *text, size_t length, const spring_vrm_file *model, spring_vrm_motion **out)
{
	cJSON *doc = rj_parse(c, text, length);
	if (doc) {
		read_motion(c, doc, model, out);
		cJSON_Delete(doc);
	}
	return c->result;
}

spring_result spring_vrm_motion_load_json(const char *text, size_t length, const char *name_for_errors,
                                          const spring_vrm_file *model, spring_vrm_motion **out, spring_file_error *error)
{
	rj c;
	rj_begin(&c, error, name_for_errors ? name_for_errors : "<memory>");
	if (!out || !model || (!text && length > 0)) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : !model ? "model is NULL" : "text is NULL");
		return rj_finish(&c);
	}
	if (length > SPRING_RIG_FILE_MAX_BYTES) {
		rj_fail(&c, SPRING_ERROR_OUT_OF_RANGE, "", "the document is larger than %u bytes (16 MiB): %zu bytes",
		        SPRING_RIG_FILE_MAX_BYTES, length);
		return rj_finish(&c);
	}
	char *copy = (char *)rj_alloc(&c, length + 1, 1);
	if (copy) {
		if (length) {
			memcpy(copy, text, length);
		}
		load_text(&c, copy, length, model, out);
	}
	return rj_finish(&c);
}

spring_result spring_vrm_motion_load_file(const char *filename, const spring_vrm_file *model, spring_vrm_motion **out,
                                          spring_file_error *error)
{
	rj c;
	rj_begin(&c, error, filename ? filename : "<null>");
	if (!filename || !out || !model) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : !model ? "model is NULL" : "no file name given");
		return rj_finish(&c);
	}
	size_t length = 0;
	char *buf = rj_read_file(&c, filename, SPRING_RIG_FILE_MAX_BYTES, &length);
	if (buf) {
		load_text(&c, buf, length, model, out);
		cJSON_free(buf);
	}
	return rj_finish(&c);
}

void spring_vrm_motion_destroy(spring_vrm_motion *motion)
{
	cJSON_free(motion);
}

float spring_vrm_motion_duration(const spring_vrm_motion *motion)
{
	return motion ? (float)motion->duration : 0.0f;
}

int spring_vrm_motion_track_count(const spring_vrm_motion *motion)
{
	return motion ? motion->track_count : 0;
}

int spring_vrm_motion_track_node(const spring_vrm_motion *motion, int index)
{
	return motion && index >= 0 && index < motion->track_count ? motion->tracks[index].node : -2;
}

// ---------------------------------------------------------------------------------------------
// Sampling

// The keys around t: a (and b), and u in [0, 1); held at the ends.
static void segment(const double *keys, int count, double t, const double **a, const double **b, double *u)
{
	const double *last = keys + (size_t)(count - 1) * 5u;
	*u = 0.0;
	if (t <= keys[0]) {
		*a = *b = keys;
		return;
	}
	if (t >= last[0]) {
		*a = *b = last;
		return;
	}
	int k = 0;
	while (keys[(size_t)(k + 1) * 5u] <= t) {
		k++;
	}
	*a = keys + (size_t)k * 5u;
	*b = *a + 5;
	*u = (t - (*a)[0]) / ((*b)[0] - (*a)[0]);
}

static void sample_translation(const double *keys, int count, double t, double out[3])
{
	const double *a, *b;
	double u;
	segment(keys, count, t, &a, &b, &u);
	for (int e = 0; e < 3; e++) {
		out[e] = a[1 + e] + (b[1 + e] - a[1 + e]) * u;
	}
}

static void sample_rotation(const double *keys, int count, double t, double out[4])
{
	const double *a, *b;
	double u;
	segment(keys, count, t, &a, &b, &u);
	double qb[4] = {b[1], b[2], b[3], b[4]};
	double d = a[1] * qb[0] + a[2] * qb[1] + a[3] * qb[2] + a[4] * qb[3];
	if (d < 0.0) {
		for (int e = 0; e < 4; e++) {
			qb[e] = -qb[e];
		}
		d = -d;
	}
	double wa, wb;
	if (d > 1.0 - 1e-12) {
		wa = 1.0 - u;
		wb = u;
	} else {
		double th = acos(d < 1.0 ? d : 1.0), s = sin(th);
		wa = sin((1.0 - u) * th) / s;
		wb = sin(u * th) / s;
	}
	double q[4], len = 0.0;
	for (int e = 0; e < 4; e++) {
		q[e] = wa * a[1 + e] + wb * qb[e];
		len += q[e] * q[e];
	}
	len = sqrt(len);
	for (int e = 0; e < 4; e++) {
		out[e] = q[e] / len;
	}
}

// Track `i` at time t (already clamped) over `l`: what it keys replaces l's translation or rotation.
static void apply_track(const spring_vrm_motion *m, int i, double t, spring_vrm_local_d *l)
{
	const track *tr = &m->tracks[i];
	if (tr->t_count) {
		sample_translation(m->keys + (size_t)tr->t_first * 5u, tr->t_count, t, l->t);
	}
	if (tr->r_count) {
		sample_rotation(m->keys + (size_t)tr->r_first * 5u, tr->r_count, t, l->q);
	}
}

static spring_result check_sample(const spring_vrm_motion *m, double t, const void *locals, int capacity)
{
	if (!m || !locals) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (capacity < m->node_count) {
		return SPRING_ERROR_BUFFER_TOO_SMALL;
	}
	return isfinite(t) ? SPRING_OK : SPRING_ERROR_NOT_FINITE;
}

static double clamp_time(const spring_vrm_motion *m, double t)
{
	return t < 0.0 ? 0.0 : (t > m->duration ? m->duration : t);
}

spring_result spring_vrm_motion_sample_d(const spring_vrm_motion *m, double t, spring_vrm_local_d *root,
                                         spring_vrm_local_d *locals, int capacity)
{
	spring_result r = check_sample(m, t, locals, capacity);
	if (r != SPRING_OK) {
		return r;
	}
	t = clamp_time(m, t);
	memcpy(locals, m->rest, (size_t)m->node_count * sizeof *locals);
	spring_vrm_local_d model_root = {{0, 0, 0}, {0, 0, 0, 1}};
	for (int i = 0; i < m->track_count; i++) {
		apply_track(m, i, t, m->tracks[i].node >= 0 ? &locals[m->tracks[i].node] : &model_root);
	}
	if (root) {
		*root = model_root;
	}
	return SPRING_OK;
}

static spring_xform3 to_float(const spring_vrm_local_d *l)
{
	spring_xform3 x;
	x.position = spring_vec3_make((float)l->t[0], (float)l->t[1], (float)l->t[2]);
	x.rotation = (spring_quat){(float)l->q[0], (float)l->q[1], (float)l->q[2], (float)l->q[3]};
	return x;
}

spring_result spring_vrm_motion_sample(const spring_vrm_motion *m, double t, spring_xform3 *root, spring_xform3 *locals,
                                       int capacity)
{
	spring_result r = check_sample(m, t, locals, capacity);
	if (r != SPRING_OK) {
		return r;
	}
	t = clamp_time(m, t);
	for (int i = 0; i < m->node_count; i++) {
		locals[i] = to_float(&m->rest[i]);
	}
	spring_vrm_local_d model_root = {{0, 0, 0}, {0, 0, 0, 1}};
	for (int i = 0; i < m->track_count; i++) {
		int node = m->tracks[i].node;
		spring_vrm_local_d l = node >= 0 ? m->rest[node] : model_root;
		apply_track(m, i, t, &l);
		if (node >= 0) {
			locals[node] = to_float(&l);
		} else {
			model_root = l;
		}
	}
	if (root) {
		*root = to_float(&model_root);
	}
	return SPRING_OK;
}

int spring_vrm_frame_times(double fps, double duration, double *times, int max)
{
	int n = 0;
	if (fps > 0.0) {
		int frames = (int)floor(duration * fps + 0.5);
		for (int i = 1; i <= frames && n < max; i++) {
			times[n++] = (double)i / fps;
		}
		return n;
	}
	uint32_t state = 12345u;
	double t = 0.0;
	while (t < duration && n < max) {
		state = state * 1664525u + 1013904223u;
		t += 0.004 + 0.041 * (double)(state >> 8) / 16777216.0;
		times[n++] = t;
	}
	return n;
}
