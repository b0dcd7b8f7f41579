// SPDX-License-Identifier: MIT
// VRM conformance: the specification's per-frame reference (vrm_reference.c), with three-vrm's
// bone-length rule, reproduces three-vrm 3.5.5's own trajectories (tests/vrm/golden, made by
// tests/vrm/threevrm/gen.mjs) on the public models under every motion, to 1e-6 m and 1e-6 in the
// quaternions; with the specification's constant length it does not (the comparison can fail).
#include <spring/skeleton.h>
#include <spring/vrm.h>

#include "test_macros.h"
#include "vrm_internal.h"
#include "vrm_reference.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VRM_DIR SPRING_SOURCE_DIR "/tests/vrm/"

typedef struct model_info {
	const char *id, *file;
} model_info;

static const model_info models[] = {
	{"sphere-collider", "sphere-collider.gltf"},
	{"inside-collider", "inside-collider.gltf"},
	{"plane-collider", "plane-collider.gltf"},
	{"godette", "Godette_vrm_v4.vrm"},
};
static const char *const motions[] = {"sway", "turn", "walk", "shake"};

typedef struct errors {
	double tail, quat; // largest differences
	int rows;
} errors;

static FILE *open_motion(const char *model, const char *motion, char *path, size_t size)
{
	snprintf(path, size, VRM_DIR "motions/%s-%s.json", model, motion);
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(path, size, VRM_DIR "motions/%s.json", motion);
		f = fopen(path, "rb");
	}
	return f;
}

// Plays `motion` on `model` at `fps` through the reference and compares every row of the golden
// file; false when a file is missing or malformed.
static bool compare_run(const model_info *m, const char *motion, int fps, bool measured, errors *out)
{
	memset(out, 0, sizeof *out);
	char path[512];
	snprintf(path, sizeof path, VRM_DIR "models/%s", m->file);
	spring_vrm_file *model = NULL;
	spring_file_error e;
	if (spring_vrm_load_file(path, &model, &e) != SPRING_OK) {
		printf("  %s\n", e.message);
		return false;
	}
	FILE *mf = open_motion(m->id, motion, path, sizeof path);
	if (mf) {
		fclose(mf);
	}
	spring_vrm_motion *mo = NULL;
	if (!mf || spring_vrm_motion_load_file(path, model, &mo, &e) != SPRING_OK) {
		printf("  %s\n", mf ? e.message : "no motion file");
		spring_vrm_file_destroy(model);
		return false;
	}
	const spring_skeleton_desc *d = spring_vrm_file_desc(model);
	vrm_reference *ref = vrm_reference_create(d, measured);
	vrm_ref_local *locals = (vrm_ref_local *)calloc((size_t)d->node_count, sizeof *locals);
	int *bone_of_node = (int *)malloc((size_t)d->node_count * sizeof(int));
	snprintf(path, sizeof path, VRM_DIR "golden/%s-%s-%d.csv", m->id, motion, fps);
	FILE *g = fopen(path, "r");
	bool ok = ref && locals && bone_of_node && g;
	if (!g) {
		printf("  cannot open %s\n", path);
	}
	_Static_assert(sizeof(vrm_ref_local) == sizeof(spring_vrm_local_d), "the two local layouts agree");
	vrm_ref_local root;
	if (ok) {
		for (int i = 0; i < d->node_count; i++) {
			bone_of_node[i] = -1;
		}
		for (int b = 0; b < vrm_reference_bone_count(ref); b++) {
			int node;
			double q[4], t[3];
			vrm_reference_bone(ref, b, &node, q, t);
			bone_of_node[node] = b;
		}
		spring_vrm_motion_sample_d(mo, 0.0, (spring_vrm_local_d *)&root, (spring_vrm_local_d *)locals, d->node_count);
		vrm_reference_reset(ref, &root, locals);
		char line[512];
		ok = fgets(line, sizeof line, g) && strcmp(line, "fps,frame,time,node,qx,qy,qz,qw,tx,ty,tz\n") == 0;
		int frame = 0;
		while (ok && fgets(line, sizeof line, g)) {
			int rfps, rframe;
			double time, v[7];
			char name[160];
			if (sscanf(line, "%d,%d,%lf,%159[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf", &rfps, &rframe, &time, name, &v[0], &v[1], &v[2],
			           &v[3], &v[4], &v[5], &v[6]) != 11 ||
			    rfps != fps || rframe < frame || rframe > frame + 1) {
				printf("  %s: bad row: %s", path, line);
				ok = false;
				break;
			}
			if (rframe == frame + 1) {
				frame = rframe;
				spring_vrm_motion_sample_d(mo, (double)frame / fps, (spring_vrm_local_d *)&root, (spring_vrm_local_d *)locals,
				                           d->node_count);
				vrm_reference_update(ref, &root, locals, 1.0 / fps);
			}
			int node = spring_vrm_file_find_node(model, name);
			int b = node >= 0 ? bone_of_node[node] : -1;
			if (b < 0) {
				printf("  %s: %s is no bone of the model\n", path, name);
				ok = false;
				break;
			}
			int n2;
			double q[4], t[3];
			vrm_reference_bone(ref, b, &n2, q, t);
			for (int k = 0; k < 4; k++) {
				double dq = fabs(q[k] - v[k]);
				out->quat = dq > out->quat ? dq : out->quat;
			}
			double dx = t[0] - v[4], dy = t[1] - v[5], dz = t[2] - v[6];
			double dist = sqrt(dx * dx + dy * dy + dz * dz);
			out->tail = dist > out->tail ? dist : out->tail;
			out->rows++;
		}
		ok = ok && out->rows > 0 && frame == (int)(spring_vrm_motion_duration(mo) * fps + 0.5);
	}
	if (g) {
		fclose(g);
	}
	free(locals);
	free(bone_of_node);
	vrm_reference_destroy(ref);
	spring_vrm_motion_destroy(mo);
	spring_vrm_file_destroy(model);
	return ok;
}

static int test_reference_matches_three_vrm(void)
{
	double worst_tail = 0.0, worst_quat = 0.0;
	int runs = 0;
	for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
		for (size_t k = 0; k < sizeof motions / sizeof motions[0]; k++) {
			static const int rates[] = {60, 24, 30, 120, 240};
			for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
				char path[512];
				snprintf(path, sizeof path, VRM_DIR "golden/%s-%s-%d.csv", models[m].id, motions[k], rates[r]);
				FILE *f = fopen(path, "r");
				if (!f) {
					ENSURE_MSG(rates[r] != 60, "missing %s", path); // every model and motion at 60 fps
					continue;
				}
				fclose(f);
				errors e;
				ENSURE(compare_run(&models[m], motions[k], rates[r], true, &e));
				printf("  %-16s %-6s %3d fps: %5d rows, tails within %.2e m, quaternions within %.2e\n", models[m].id, motions[k],
				       rates[r], e.rows, e.tail, e.quat);
				ENSURE(e.tail <= 1e-6 && e.quat <= 1e-6);
				worst_tail = e.tail > worst_tail ? e.tail : worst_tail;
				worst_quat = e.quat > worst_quat ? e.quat : worst_quat;
				runs++;
			}
		}
	}
	printf("  %d runs: worst %.2e m, %.2e\n", runs, worst_tail, worst_quat);
	ENSURE(runs == 32);
	return 0;
}

// The specification's constant length is another algorithm: the same comparison tells them apart.
static int test_constant_length_differs(void)
{
	errors e;
	ENSURE(compare_run(&models[0], "sway", 60, false, &e));
	printf("  sphere-collider sway with the constant rest length: tails %.3g m from three-vrm\n", e.tail);
	ENSURE(e.tail > 1e-3);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// The import: the library's runtime (spring/skeleton.h) against the reference and itself

#define MAX_STEPS_RECORDED 512
#define MAX_BONES 64

typedef struct track_record {
	int bones;
	double chain_length[MAX_BONES]; // the bone's spring's length at rest
	bool have[MAX_STEPS_RECORDED];
	float tails[MAX_STEPS_RECORDED][MAX_BONES][3];
} track_record;

typedef struct loaded {
	spring_vrm_file *model;
	spring_vrm_motion *motion;
} loaded;

static bool load_pair(const model_info *m, const char *motion, loaded *out)
{
	char path[512];
	spring_file_error e;
	snprintf(path, sizeof path, VRM_DIR "models/%s", m->file);
	out->model = NULL;
	out->motion = NULL;
	if (spring_vrm_load_file(path, &out->model, &e) != SPRING_OK) {
		printf("  %s\n", e.message);
		return false;
	}
	FILE *f = open_motion(m->id, motion, path, sizeof path);
	if (f) {
		fclose(f);
	}
	if (!f || spring_vrm_motion_load_file(path, out->model, &out->motion, &e) != SPRING_OK) {
		printf("  %s\n", f ? e.message : "no motion");
		spring_vrm_file_destroy(out->model);
		return false;
	}
	return true;
}

static void unload(loaded *l)
{
	spring_vrm_motion_destroy(l->motion);
	spring_vrm_file_destroy(l->model);
}

// Runs the library's skeleton on the motion with frames at `times`, recording the stepped tails at
// every step a frame ends on (the step index from the clock's time at 60 Hz).
static bool run_runtime(const loaded *l, spring_skeleton_length rule, const double *times, int frames, track_record *rec)
{
	memset(rec, 0, sizeof *rec);
	spring_skeleton_desc d = *spring_vrm_file_desc(l->model);
	d.length = rule;
	spring_skeleton *sk = NULL;
	spring_error err;
	if (spring_skeleton_create(&d, &sk, &err) != SPRING_OK) {
		printf("  %s\n", err.message);
		return false;
	}
	int n = d.node_count, bones = spring_skeleton_bone_count(sk);
	spring_xform3 *locals = (spring_xform3 *)calloc((size_t)n, sizeof *locals);
	spring_vec3 tails[MAX_BONES];
	bool ok = locals && bones <= MAX_BONES;
	rec->bones = bones;
	if (ok) {
		spring_xform3 root;
		spring_vrm_motion_sample(l->motion, 0.0, &root, locals, n);
		ok = spring_skeleton_reset(sk, root, locals, n) == SPRING_OK;
		double before = 0.0;
		for (int i = 0; ok && i < frames; i++) {
			spring_vrm_motion_sample(l->motion, times[i], &root, locals, n);
			ok = spring_skeleton_update(sk, root, locals, n, (float)(times[i] - before)) == SPRING_OK;
			before = times[i];
			long step = lround(spring_skeleton_clock(sk)->time * 60.0);
			if (ok && step >= 0 && step < MAX_STEPS_RECORDED) {
				spring_skeleton_get_stepped_pose(sk, NULL, NULL, tails, MAX_BONES);
				rec->have[step] = true;
				for (int b = 0; b < bones; b++) {
					rec->tails[step][b][0] = tails[b].x;
					rec->tails[step][b][1] = tails[b].y;
					rec->tails[step][b][2] = tails[b].z;
				}
			}
		}
	}
	free(locals);
	spring_skeleton_destroy(sk);
	return ok;
}

// Each spring's chain length (the sum of its bones' rest lengths), per bone, from the reference.
static void chain_lengths(const spring_skeleton_desc *d, double *per_bone)
{
	vrm_reference *ref = vrm_reference_create(d, false);
	int b = 0;
	for (int s = 0; s < d->spring_count; s++) {
		const spring_skeleton_spring *sp = &d->springs[s];
		int bones = sp->has_end_tail ? sp->joint_count : sp->joint_count - 1;
		double sum = 0.0;
		for (int k = 0; k < bones; k++) {
			sum += vrm_reference_rest_length(ref, b + k);
		}
		for (int k = 0; k < bones; k++) {
			per_bone[b + k] = sum;
		}
		b += bones;
	}
	vrm_reference_destroy(ref);
}

typedef struct spread {
	double rms, max; // of tail distance / chain length, over bones and compared steps
	int samples;
} spread;

static spread compare_records(const track_record *a, const track_record *b, const double *lengths)
{
	spread s = {0, 0, 0};
	double sum = 0.0;
	for (int k = 1; k < MAX_STEPS_RECORDED; k++) {
		if (!a->have[k] || !b->have[k]) {
			continue;
		}
		for (int i = 0; i < a->bones; i++) {
			double dx = (double)a->tails[k][i][0] - b->tails[k][i][0], dy = (double)a->tails[k][i][1] - b->tails[k][i][1],
				   dz = (double)a->tails[k][i][2] - b->tails[k][i][2];
			double e = sqrt(dx * dx + dy * dy + dz * dz) / lengths[i];
			sum += e * e;
			s.max = e > s.max ? e : s.max;
			s.samples++;
		}
	}
	s.rms = s.samples ? sqrt(sum / s.samples) : 0.0;
	return s;
}

// The reference's tails at 60 fps frames, in the same record (its bone order is update order:
// matched through the head nodes).
static bool run_reference(const loaded *l, bool measured, track_record *rec)
{
	memset(rec, 0, sizeof *rec);
	const spring_skeleton_desc *d = spring_vrm_file_desc(l->model);
	spring_skeleton *sk = NULL;
	if (spring_skeleton_create(d, &sk, NULL) != SPRING_OK) {
		return false;
	}
	int nodes[MAX_BONES], bones = spring_skeleton_bone_count(sk);
	spring_skeleton_get_pose(sk, nodes, NULL, NULL, MAX_BONES);
	spring_skeleton_destroy(sk);
	vrm_reference *ref = vrm_reference_create(d, measured);
	vrm_ref_local *locals = (vrm_ref_local *)calloc((size_t)d->node_count, sizeof *locals);
	int order[MAX_BONES];
	for (int b = 0; b < bones; b++) {
		for (int r = 0; r < vrm_reference_bone_count(ref); r++) {
			int node;
			double q[4], t[3];
			vrm_reference_bone(ref, r, &node, q, t);
			if (node == nodes[b]) {
				order[b] = r;
			}
		}
	}
	rec->bones = bones;
	vrm_ref_local root;
	spring_vrm_motion_sample_d(l->motion, 0.0, (spring_vrm_local_d *)&root, (spring_vrm_local_d *)locals, d->node_count);
	vrm_reference_reset(ref, &root, locals);
	int frames = (int)(spring_vrm_motion_duration(l->motion) * 60.0f + 0.5f);
	for (int i = 1; i <= frames && i < MAX_STEPS_RECORDED; i++) {
		spring_vrm_motion_sample_d(l->motion, i / 60.0, (spring_vrm_local_d *)&root, (spring_vrm_local_d *)locals, d->node_count);
		vrm_reference_update(ref, &root, locals, 1.0 / 60.0);
		rec->have[i] = true;
		for (int b = 0; b < bones; b++) {
			int node;
			double q[4], t[3];
			vrm_reference_bone(ref, order[b], &node, q, t);
			for (int k = 0; k < 3; k++) {
				rec->tails[i][b][k] = (float)t[k];
			}
		}
	}
	free(locals);
	vrm_reference_destroy(ref);
	return true;
}

// At 60 fps the import is the reference (the same step at the same rate), for both length rules.
static int test_import_matches_reference(void)
{
	static track_record mine, ref;
	static double times[4096];
	double worst_rms = 0.0, worst_max = 0.0;
	for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
		for (size_t k = 0; k < sizeof motions / sizeof motions[0]; k++) {
			for (int rule = 0; rule < 2; rule++) {
				loaded l;
				ENSURE(load_pair(&models[m], motions[k], &l));
				double lengths[MAX_BONES];
				chain_lengths(spring_vrm_file_desc(l.model), lengths);
				int frames = spring_vrm_frame_times(60, spring_vrm_motion_duration(l.motion), times, 4096);
				ENSURE(
					run_runtime(&l, rule ? SPRING_SKELETON_LENGTH_MEASURED : SPRING_SKELETON_LENGTH_REST, times, frames, &mine));
				ENSURE(run_reference(&l, rule == 1, &ref));
				spread s = compare_records(&mine, &ref, lengths);
				printf("  %-16s %-6s %-8s: %4d samples, %.5f%% RMS, %.5f%% max of the chain length\n", models[m].id, motions[k],
				       rule ? "measured" : "rest", s.samples, 100 * s.rms, 100 * s.max);
				ENSURE(s.samples >= 60 * mine.bones);
				ENSURE(s.rms <= 0.0025 && s.max <= 0.01);
				worst_rms = s.rms > worst_rms ? s.rms : worst_rms;
				worst_max = s.max > worst_max ? s.max : worst_max;
				unload(&l);
			}
		}
	}
	printf("  worst: %.5f%% RMS, %.5f%% max\n", 100 * worst_rms, 100 * worst_max);
	return 0;
}

// three-vrm's own spread: its golden at `fps` against its golden at 60 fps, at the times both
// have a frame (the tails by row), as RMS and max of the chain length; false when no golden.
static bool three_vrm_spread(const model_info *m, const char *motion, int fps, const double *lengths, spread *out)
{
	char path[512];
	static float tails[2][MAX_STEPS_RECORDED * 4][MAX_BONES][3];
	static bool have[2][MAX_STEPS_RECORDED * 4];
	const int rates[2] = {60, fps};
	int bones = 0;
	memset(have, 0, sizeof have);
	for (int r = 0; r < 2; r++) {
		snprintf(path, sizeof path, VRM_DIR "golden/%s-%s-%d.csv", m->id, motion, rates[r]);
		FILE *f = fopen(path, "r");
		if (!f) {
			return false;
		}
		char line[512];
		int frame = -1, b = 0;
		while (fgets(line, sizeof line, f)) {
			int rf, fr;
			double t, v[7];
			char name[160];
			if (sscanf(line, "%d,%d,%lf,%159[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf", &rf, &fr, &t, name, &v[0], &v[1], &v[2], &v[3],
			           &v[4], &v[5], &v[6]) != 11) {
				continue; // the header
			}
			b = fr == frame ? b + 1 : 0;
			frame = fr;
			// the time in 1/240 s (every rate here divides 240 s^-1 but 144: its common times with 60 are
			// whole twelfths of a second, which are whole 1/240 s too)
			long tick = lround(t * 240.0);
			if (b < MAX_BONES && tick < MAX_STEPS_RECORDED * 4 && fabs(t * 240.0 - (double)tick) < 1e-6) {
				have[r][tick] = true;
				for (int k = 0; k < 3; k++) {
					tails[r][tick][b][k] = (float)v[4 + k];
				}
				bones = b + 1 > bones ? b + 1 : bones;
			}
		}
		fclose(f);
	}
	double sum = 0.0;
	memset(out, 0, sizeof *out);
	for (int k = 1; k < MAX_STEPS_RECORDED * 4; k++) {
		if (!have[0][k] || !have[1][k]) {
			continue;
		}
		for (int b = 0; b < bones; b++) {
			double dx = (double)tails[0][k][b][0] - tails[1][k][b][0], dy = (double)tails[0][k][b][1] - tails[1][k][b][1],
				   dz = (double)tails[0][k][b][2] - tails[1][k][b][2];
			double e = sqrt(dx * dx + dy * dy + dz * dz) / lengths[b];
			sum += e * e;
			out->max = e > out->max ? e : out->max;
			out->samples++;
		}
	}
	out->rms = out->samples ? sqrt(sum / out->samples) : 0.0;
	return out->samples > 0;
}

// Runs below the target (0.25% RMS, 1% max), measured and kept from getting worse: the fast 4 Hz
// shakes seen through 24 or 30 frames a second or the jittery clock. The host's pose is known only
// at its frames (six a shake at 24 fps) and interpolated between them (a parabola through the last
// three frames), so a 60 fps host gives the steps a pose the slower one cannot: the remaining gap
// is in the input, not the step (at 240 fps, where every step has its own frame, it is 0).
static const struct {
	const char *model, *motion;
	int fps; // 0: the jittery clock
	double rms, max;
} below_target[] = {
	{"plane-collider", "shake", 24, 0.0090, 0.0160}, {"plane-collider", "shake", 0, 0.0036, 0.0100},
	{"godette", "shake", 24, 0.0200, 0.0550},        {"godette", "shake", 30, 0.0085, 0.0300},
	{"godette", "shake", 0, 0.0115, 0.0420},
};

// At other frame rates and on a jittery clock the import stays its 60 fps self.
static int test_frame_rate_spread(void)
{
	static track_record base, other;
	static double times[4096];
	static const int rates[] = {24, 30, 144, 240, 0};
	int within = 0, runs = 0;
	for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
		for (size_t k = 0; k < sizeof motions / sizeof motions[0]; k++) {
			loaded l;
			ENSURE(load_pair(&models[m], motions[k], &l));
			double lengths[MAX_BONES];
			chain_lengths(spring_vrm_file_desc(l.model), lengths);
			double duration = spring_vrm_motion_duration(l.motion);
			int frames = spring_vrm_frame_times(60, duration, times, 4096);
			ENSURE(run_runtime(&l, SPRING_SKELETON_LENGTH_REST, times, frames, &base));
			for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
				frames = spring_vrm_frame_times(rates[r], duration, times, 4096);
				ENSURE(run_runtime(&l, SPRING_SKELETON_LENGTH_REST, times, frames, &other));
				spread s = compare_records(&other, &base, lengths);
				ENSURE(s.samples > 0);
				double rms_bound = 0.0025, max_bound = 0.01;
				bool below = false;
				for (size_t e = 0; e < sizeof below_target / sizeof below_target[0]; e++) {
					if (strcmp(below_target[e].model, models[m].id) == 0 && strcmp(below_target[e].motion, motions[k]) == 0 &&
					    below_target[e].fps == rates[r]) {
						rms_bound = below_target[e].rms;
						max_bound = below_target[e].max;
						below = true;
					}
				}
				char rate[16];
				snprintf(rate, sizeof rate, rates[r] ? "%d fps" : "jitter", rates[r]);
				spread tv;
				char theirs[96] = "";
				if (rates[r] && three_vrm_spread(&models[m], motions[k], rates[r] == 144 ? 120 : rates[r], lengths, &tv)) {
					snprintf(theirs, sizeof theirs, "   three-vrm at %d fps: %.3f%% / %.3f%%", rates[r] == 144 ? 120 : rates[r],
					         100 * tv.rms, 100 * tv.max);
				}
				printf("  %-16s %-6s %-7s %.3f%% RMS / %.3f%% max%s%s\n", models[m].id, motions[k], rate, 100 * s.rms,
				       100 * s.max, below ? "   BELOW TARGET (0.25% / 1%)" : "", theirs);
				ENSURE(s.rms <= rms_bound && s.max <= max_bound);
				within += s.rms <= 0.0025 && s.max <= 0.01;
				runs++;
			}
			unload(&l);
		}
	}
	printf("  %d of %d runs within 0.25%% RMS and 1%% max of the chain length (the stepped tails at the steps both "
	       "runs end a frame on)\n",
	       within, runs);
	ENSURE(within == runs - (int)(sizeof below_target / sizeof below_target[0]));
	return 0;
}

// ---------------------------------------------------------------------------------------------
// The published vectors (conformance/vrm): the reference with the specification's constant length
// at 60 fps. SPRING_VRM_WRITE_VECTORS=1 writes them; otherwise the committed files must be what the
// reference gives (to 1e-9), and libspring and three-vrm are measured against them.

#define VECTORS_DIR SPRING_SOURCE_DIR "/conformance/vrm/expected/"

typedef struct text {
	char *data;
	size_t length, capacity;
} text;

static void text_printf(text *t, const char *fmt, ...)
{
	va_list args;
	for (;;) {
		va_start(args, fmt);
		int n = vsnprintf(t->data ? t->data + t->length : NULL, t->data ? t->capacity - t->length : 0, fmt, args);
		va_end(args);
		if (n >= 0 && t->data && t->length + (size_t)n < t->capacity) {
			t->length += (size_t)n;
			return;
		}
		size_t capacity = t->capacity ? t->capacity * 2 : 1 << 20;
		char *bigger = (char *)realloc(t->data, capacity);
		if (!bigger) {
			return;
		}
		t->data = bigger;
		t->capacity = capacity;
	}
}

// The reference's CSV for a model and motion at 60 fps (three-vrm's golden format and order).
static bool reference_csv(const loaded *l, text *out)
{
	const spring_skeleton_desc *d = spring_vrm_file_desc(l->model);
	vrm_reference *ref = vrm_reference_create(d, false);
	vrm_ref_local *locals = (vrm_ref_local *)calloc((size_t)d->node_count, sizeof *locals);
	if (!ref || !locals) {
		free(locals);
		vrm_reference_destroy(ref);
		return false;
	}
	vrm_ref_local root;
	spring_vrm_motion_sample_d(l->motion, 0.0, (spring_vrm_local_d *)&root, (spring_vrm_local_d *)locals, d->node_count);
	vrm_reference_reset(ref, &root, locals);
	text_printf(out, "fps,frame,time,node,qx,qy,qz,qw,tx,ty,tz\n");
	int frames = (int)(spring_vrm_motion_duration(l->motion) * 60.0f + 0.5f);
	for (int i = 1; i <= frames; i++) {
		spring_vrm_motion_sample_d(l->motion, i / 60.0, (spring_vrm_local_d *)&root, (spring_vrm_local_d *)locals, d->node_count);
		vrm_reference_update(ref, &root, locals, 1.0 / 60.0);
		for (int b = 0; b < vrm_reference_bone_count(ref); b++) {
			int node;
			double q[4], t[3];
			vrm_reference_bone(ref, b, &node, q, t);
			text_printf(out, "60,%d,%.9g,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, i / 60.0,
			            spring_vrm_file_node_name(l->model, node), q[0], q[1], q[2], q[3], t[0], t[1], t[2]);
		}
	}
	free(locals);
	vrm_reference_destroy(ref);
	return true;
}

static char *read_all(const char *path, size_t *length)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		return NULL;
	}
	size_t cap = 1 << 20, n = 0;
	char *buf = (char *)malloc(cap + 1);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			char *bigger = (char *)realloc(buf, cap * 2 + 1);
			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*length = n;
	}
	return buf;
}

// Two CSVs of the same rows: the largest difference of their numbers (-1 when the rows differ).
static double csv_difference(const char *a, const char *b)
{
	double worst = 0.0;
	for (int row = 0; *a || *b; row++) {
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
		if (!ea || !eb) {
			return -1.0;
		}
		if (row > 0) {
			double va[10], vb[10];
			char na[160], nb[160];
			if (sscanf(a, "%lf,%lf,%lf,%159[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf", &va[0], &va[1], &va[2], na, &va[3], &va[4], &va[5],
			           &va[6], &va[7], &va[8], &va[9]) != 11 ||
			    sscanf(b, "%lf,%lf,%lf,%159[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf", &vb[0], &vb[1], &vb[2], nb, &vb[3], &vb[4], &vb[5],
			           &vb[6], &vb[7], &vb[8], &vb[9]) != 11 ||
			    strcmp(na, nb) != 0 || va[1] != vb[1]) {
				return -1.0;
			}
			for (int k = 3; k < 10; k++) {
				worst = fabs(va[k] - vb[k]) > worst ? fabs(va[k] - vb[k]) : worst;
			}
		} else if (ea - a != eb - b || strncmp(a, b, (size_t)(ea - a)) != 0) {
			return -1.0;
		}
		a = ea + 1;
		b = eb + 1;
	}
	return worst;
}

static int test_published_vectors(void)
{
	bool write = getenv("SPRING_VRM_WRITE_VECTORS") != NULL;
	double worst = 0.0;
	for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
		for (size_t k = 0; k < sizeof motions / sizeof motions[0]; k++) {
			loaded l;
			ENSURE(load_pair(&models[m], motions[k], &l));
			text t = {NULL, 0, 0};
			ENSURE(reference_csv(&l, &t) && t.data);
			char path[512];
			snprintf(path, sizeof path, VECTORS_DIR "%s-%s-60.csv", models[m].id, motions[k]);
			if (write) {
				FILE *f = fopen(path, "wb");
				ENSURE_MSG(f && fwrite(t.data, 1, t.length, f) == t.length, "cannot write %s", path);
				fclose(f);
			} else {
				size_t n;
				char *committed = read_all(path, &n);
				ENSURE_MSG(committed != NULL, "missing %s (SPRING_VRM_WRITE_VECTORS=1 writes it)", path);
				double d = csv_difference(committed, t.data);
				ENSURE_MSG(d >= 0.0 && d <= 1e-9, "%s: %g from the reference", path, d);
				worst = d > worst ? d : worst;
				free(committed);
			}
			free(t.data);
			unload(&l);
		}
	}
	printf("  %s 16 vector files; the committed ones are the reference's to %.2g\n", write ? "wrote" : "checked", worst);
	return 0;
}

// libspring's skeleton at 60 fps and three-vrm 3.5.5 (its goldens) against the vectors.
static int test_runtimes_against_vectors(void)
{
	static track_record mine, vec, theirs;
	static double times[4096];
	for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
		for (size_t k = 0; k < sizeof motions / sizeof motions[0]; k++) {
			loaded l;
			ENSURE(load_pair(&models[m], motions[k], &l));
			double lengths[MAX_BONES];
			chain_lengths(spring_vrm_file_desc(l.model), lengths);
			int frames = spring_vrm_frame_times(60, spring_vrm_motion_duration(l.motion), times, 4096);
			ENSURE(run_runtime(&l, SPRING_SKELETON_LENGTH_REST, times, frames, &mine));
			ENSURE(run_reference(&l, false, &vec));
			ENSURE(run_reference(&l, true, &theirs)); // three-vrm's rule: its goldens to 4e-8 m
			spread a = compare_records(&mine, &vec, lengths), b = compare_records(&theirs, &vec, lengths);
			printf("  %-16s %-6s libspring %.5f%% / %.5f%%   three-vrm %.3f%% / %.3f%% (RMS / max of the chain length)\n",
			       models[m].id, motions[k], 100 * a.rms, 100 * a.max, 100 * b.rms, 100 * b.max);
			ENSURE(a.rms <= 0.0025 && a.max <= 0.01);
			unload(&l);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_reference_matches_three_vrm);
	RUN_TEST(test_constant_length_differs);
	RUN_TEST(test_import_matches_reference);
	RUN_TEST(test_frame_rate_spread);
	RUN_TEST(test_published_vectors);
	RUN_TEST(test_runtimes_against_vectors);
	return TEST_SUMMARY();
}
