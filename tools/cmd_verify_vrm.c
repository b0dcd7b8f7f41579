// SPDX-License-Identifier: MIT
// `spring verify MODEL.vrm --motion MOTION.json`: the three objective checks on a VRM avatar's
// spring bones, and the frame-rate spread of the import beside that of per-frame stepping.
#include "cli.h"

#include <spring/skeleton.h>
#include <spring/vrm.h>

#include "vrm_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char verify_vrm_help[] =
	"usage: spring verify MODEL --motion MOTION.json [--fps LIST] [--rate HZ]\n"
	"\n"
	"The three objective checks on a VRM avatar's spring bones (MODEL: .vrm, .glb or .gltf), driven\n"
	"by MOTION (the format of spring simulate MODEL --help), each figure with PASS or FAIL. Exit\n"
	"status 0 when everything passes, 1 when a check fails, 2 for a usage or input error.\n"
	"\n"
	"  1 energy    the motion plays at 60 fps, then its last pose holds for 10 s: from the largest\n"
	"              swing after the motion on, the largest swing of the tails (from where they end up)\n"
	"              in each 0.5 s window is smaller than in the one before (until below 1e-5 of the\n"
	"              spring's length)\n"
	"  2 rest      at the end of the hold the skeleton is resting and no tail moved more than 1e-6\n"
	"              of its spring's length over the last second\n"
	"  3 envelope  the motion at each frame rate and on a jittery clock (4-45 ms frames) against the\n"
	"              60 fps run, at the steps both end a frame on: within 0.25% RMS and 1% max of each\n"
	"              spring's length; beside it, the same spread when the springs step once per frame\n"
	"              as VRM runtimes do (not checked: it is what the import avoids)\n"
	"\n"
	"  --motion FILE  the drive motion\n"
	"  --fps LIST     frame rates, comma-separated (default 24,30,144,240)\n"
	"  --rate HZ      the springs' authoring rate (default 60)\n";

#define VV_MAX_BONES 4096
#define VV_HOLD 10.0

typedef struct vv_model {
	spring_vrm_file *file;
	spring_vrm_motion *motion;
	spring_skeleton_desc desc;
	int bones;
	double *length; // per bone: its spring's length at rest
	spring_xform3 *locals;
} vv_model;

// A run's stepped tails at the 60 Hz steps its frames end on, for the frame-rate spread.
typedef struct vv_record {
	int steps, bones;
	unsigned char *have;
	float *tails; // [steps][bones][3]
} vv_record;

static bool record_init(vv_record *r, int steps, int bones)
{
	r->steps = steps;
	r->bones = bones;
	r->have = (unsigned char *)calloc((size_t)steps, 1);
	r->tails = (float *)calloc((size_t)steps * (size_t)bones * 3u, sizeof(float));
	return r->have && r->tails;
}

static void record_free(vv_record *r)
{
	free(r->have);
	free(r->tails);
}

// Plays the motion with frames at `times` on a skeleton stepping at `rate` (rate = the frame
// rate: once per frame), recording the stepped tails at the frames that fall on a 60 Hz step.
static bool vv_run(vv_model *m, double rate, const double *times, int frames, vv_record *rec)
{
	spring_skeleton_desc d = m->desc;
	d.rate = (float)rate;
	spring_skeleton *sk = NULL;
	if (spring_skeleton_create(&d, &sk, NULL) != SPRING_OK) {
		return false;
	}
	spring_vec3 *tails = (spring_vec3 *)malloc((size_t)m->bones * sizeof *tails);
	bool ok = tails != NULL;
	spring_xform3 root;
	spring_vrm_motion_sample(m->motion, 0.0, &root, m->locals, d.node_count);
	ok = ok && spring_skeleton_reset(sk, root, m->locals, d.node_count) == SPRING_OK;
	double before = 0.0;
	for (int i = 0; ok && i < frames; i++) {
		spring_vrm_motion_sample(m->motion, times[i], &root, m->locals, d.node_count);
		ok = spring_skeleton_update(sk, root, m->locals, d.node_count, (float)(times[i] - before)) == SPRING_OK;
		before = times[i];
		double at = spring_skeleton_clock(sk)->time * 60.0;
		long step = lround(at);
		if (ok && fabs(at - (double)step) < 1e-3 && step >= 0 && step < rec->steps) { // (the clock counts in floats)
			spring_skeleton_get_stepped_pose(sk, NULL, NULL, tails, m->bones);
			rec->have[step] = 1;
			for (int b = 0; b < m->bones; b++) {
				float *t = rec->tails + ((size_t)step * (size_t)m->bones + (size_t)b) * 3u;
				t[0] = tails[b].x, t[1] = tails[b].y, t[2] = tails[b].z;
			}
		}
	}
	free(tails);
	spring_skeleton_destroy(sk);
	return ok;
}

static void vv_spread(const vv_model *m, const vv_record *a, const vv_record *b, double *rms, double *max, int *samples)
{
	double sum = 0.0;
	*rms = *max = 0.0;
	*samples = 0;
	for (int k = 1; k < a->steps && k < b->steps; k++) {
		if (!a->have[k] || !b->have[k]) {
			continue;
		}
		for (int i = 0; i < m->bones; i++) {
			const float *p = a->tails + ((size_t)k * (size_t)m->bones + (size_t)i) * 3u;
			const float *q = b->tails + ((size_t)k * (size_t)m->bones + (size_t)i) * 3u;
			double dx = (double)p[0] - q[0], dy = (double)p[1] - q[1], dz = (double)p[2] - q[2];
			double e = sqrt(dx * dx + dy * dy + dz * dz) / m->length[i];
			sum += e * e;
			*max = e > *max ? e : *max;
			(*samples)++;
		}
	}
	*rms = *samples ? sqrt(sum / *samples) : 0.0;
}

// Each bone's spring length at rest: the sum of the spring's bone lengths.
static bool vv_lengths(vv_model *m)
{
	spring_skeleton *sk = NULL;
	if (spring_skeleton_create(&m->desc, &sk, NULL) != SPRING_OK) {
		return false;
	}
	float *bone = (float *)malloc((size_t)m->bones * sizeof *bone);
	bool ok = bone && spring_skeleton_get_rest_lengths(sk, bone, m->bones) == SPRING_OK;
	for (int s = 0, b = 0; ok && s < m->desc.spring_count; s++) {
		const spring_skeleton_spring *sp = &m->desc.springs[s];
		int count = sp->has_end_tail ? sp->joint_count : sp->joint_count - 1;
		double sum = 0.0;
		for (int k = 0; k < count; k++) {
			sum += bone[b + k];
		}
		for (int k = 0; k < count; k++) {
			m->length[b + k] = sum;
		}
		b += count;
	}
	free(bone);
	spring_skeleton_destroy(sk);
	return ok;
}

// The tails at every 60 fps frame of the motion and of a hold of its last pose.
static bool vv_hold(vv_model *m, int frames, float *tails_out, bool *rested)
{
	spring_skeleton *sk = NULL;
	if (spring_skeleton_create(&m->desc, &sk, NULL) != SPRING_OK) {
		return false;
	}
	int n = m->desc.node_count;
	double duration = spring_vrm_motion_duration(m->motion);
	spring_vec3 *tails = (spring_vec3 *)malloc((size_t)m->bones * sizeof *tails);
	spring_xform3 root;
	spring_vrm_motion_sample(m->motion, 0.0, &root, m->locals, n);
	bool ok = tails && spring_skeleton_reset(sk, root, m->locals, n) == SPRING_OK;
	for (int i = 1; ok && i <= frames; i++) {
		double t = (double)i / 60.0;
		spring_vrm_motion_sample(m->motion, t < duration ? t : duration, &root, m->locals, n);
		ok = spring_skeleton_update(sk, root, m->locals, n, 1.0f / 60.0f) == SPRING_OK &&
		     spring_skeleton_get_stepped_pose(sk, NULL, NULL, tails, m->bones) == SPRING_OK;
		for (int b = 0; ok && b < m->bones; b++) {
			float *o = tails_out + ((size_t)i * (size_t)m->bones + (size_t)b) * 3u;
			o[0] = tails[b].x, o[1] = tails[b].y, o[2] = tails[b].z;
		}
	}
	*rested = spring_skeleton_is_resting(sk);
	free(tails);
	spring_skeleton_destroy(sk);
	return ok;
}

static const char *verdict(bool pass)
{
	return pass ? "PASS" : "FAIL";
}

int cmd_verify_vrm(int argc, char **argv)
{
	const char *cmd = "verify";
	cli_args a;
	cli_args_init(&a, cmd, 1);
	cli_add(&a, "--motion", CLI_STRING, "FILE", CLI_ANY);
	cli_add(&a, "--fps", CLI_STRING, "LIST", CLI_ANY);
	cli_add(&a, "--rate", CLI_NUMBER, "HZ", (cli_range){0.0, SPRING_SKELETON_MAX_RATE, 1, 0});
	int status;
	if (cli_parse_command(&a, argc, argv, verify_vrm_help, &status)) {
		return status;
	}
	if (a.positional_count != 1) {
		return cli_error(cmd, "give one model file (spring verify MODEL.vrm --motion MOTION.json; see --help)");
	}
	if (!cli_flag(&a, "--motion")) {
		return cli_error(cmd, "a VRM model needs --motion MOTION.json (what moves the avatar; see --help)");
	}
	double rates[16] = {24, 30, 144, 240};
	int rate_count = 4;
	if (cli_flag(&a, "--fps") && cli_parse_list(cmd, "--fps", cli_str(&a, "--fps", ""), rates, 16, &rate_count,
	                                            (cli_range){1.0, 1000.0, 0, 0}) != CLI_OK) {
		return CLI_USAGE;
	}
	vv_model m;
	memset(&m, 0, sizeof m);
	spring_file_error fe;
	if (spring_vrm_load_file(a.positional[0], &m.file, &fe) != SPRING_OK) {
		return cli_error(cmd, "%s", fe.message);
	}
	if (spring_vrm_motion_load_file(cli_str(&a, "--motion", ""), m.file, &m.motion, &fe) != SPRING_OK) {
		spring_vrm_file_destroy(m.file);
		return cli_error(cmd, "%s", fe.message);
	}
	m.desc = *spring_vrm_file_desc(m.file);
	m.desc.rate = (float)cli_num(&a, "--rate", 60.0);
	spring_skeleton *probe = NULL;
	spring_error e;
	int rc = CLI_OK;
	if (spring_skeleton_create(&m.desc, &probe, &e) != SPRING_OK) {
		rc = cli_error(cmd, "%s: %s", a.positional[0], e.message);
	}
	m.bones = probe ? spring_skeleton_bone_count(probe) : 0;
	spring_skeleton_destroy(probe);
	double duration = spring_vrm_motion_duration(m.motion);
	int frames = (int)floor((duration + VV_HOLD) * 60.0 + 0.5);
	m.length = (double *)calloc((size_t)(m.bones ? m.bones : 1), sizeof *m.length);
	m.locals = (spring_xform3 *)calloc((size_t)m.desc.node_count, sizeof *m.locals);
	float *held = (float *)calloc(((size_t)frames + 1u) * (size_t)(m.bones ? m.bones : 1) * 3u, sizeof(float));
	if (rc == CLI_OK && (!m.length || !m.locals || !held || m.bones == 0 || !vv_lengths(&m))) {
		rc = cli_error(cmd, m.bones == 0 ? "%s has no spring bones" : "%s: out of memory", a.positional[0]);
	}
	sbuf b;
	sb_init(&b);
	bool all = true;
	if (rc == CLI_OK) {
		char shown[200];
		sb_printf(&b, "model: %s (%d spring%s, %d bone%s), motion %g s, springs at %g Hz\n\n",
		          cli_clean(shown, sizeof shown, a.positional[0]), m.desc.spring_count, m.desc.spring_count == 1 ? "" : "s",
		          m.bones, m.bones == 1 ? "" : "s", duration, (double)m.desc.rate);
		bool rested = false;
		if (!vv_hold(&m, frames, held, &rested)) {
			rc = cli_error(cmd, "the run failed");
		}
		// 1 energy and 2 rest, per spring (its last bone's tail).
		sb_puts(&b, "1 energy: the largest swing in each 0.5 s of the hold is smaller than in the one before\n");
		int start = (int)ceil(duration * 60.0), window = 30;
		bool energy_all = true, rest_all = true;
		for (int s = 0, bone = 0; rc == CLI_OK && s < m.desc.spring_count; s++) {
			const spring_skeleton_spring *sp = &m.desc.springs[s];
			int count = sp->has_end_tail ? sp->joint_count : sp->joint_count - 1;
			int last = bone + count - 1;
			bone += count;
			const float *end = held + ((size_t)frames * (size_t)m.bones + (size_t)last) * 3u;
			double prev = INFINITY, peak = 0.0;
			bool grew = false, started = false;
			for (int w = start; w + window <= frames; w += window) {
				double big = 0.0;
				for (int i = w; i < w + window; i++) {
					const float *p = held + ((size_t)i * (size_t)m.bones + (size_t)last) * 3u;
					double dx = (double)p[0] - end[0], dy = (double)p[1] - end[1], dz = (double)p[2] - end[2];
					double swing = sqrt(dx * dx + dy * dy + dz * dz) / m.length[last];
					big = swing > big ? swing : big;
				}
				if (!started) {
					peak = big;
					started = true;
				} else if (big >= 1e-5 && big > prev) {
					grew = true;
				}
				prev = big;
			}
			double moved = 0.0;
			for (int i = frames - 60; i <= frames; i++) {
				const float *p = held + ((size_t)i * (size_t)m.bones + (size_t)last) * 3u;
				double dx = (double)p[0] - end[0], dy = (double)p[1] - end[1], dz = (double)p[2] - end[2];
				double d = sqrt(dx * dx + dy * dy + dz * dz) / m.length[last];
				moved = d > moved ? d : moved;
			}
			sb_printf(&b, "  spring %-3d %-30s swing after the motion %.3g of its length, never growing: %s\n", s,
			          spring_vrm_file_node_name(m.file, sp->joints[0].node), peak, verdict(!grew));
			energy_all = energy_all && !grew;
			rest_all = rest_all && moved <= 1e-6;
			if (moved > 1e-6) {
				sb_printf(&b, "  spring %d moved %.3g of its length in the last second of the hold\n", s, moved);
			}
		}
		sb_printf(&b,
		          "2 rest: after %g s of hold the skeleton %s and no tail moved more than 1e-6 of its spring's "
		          "length in the last second: %s\n",
		          VV_HOLD, rested ? "is resting" : "is still moving", verdict(rested && rest_all));
		all = energy_all && rested && rest_all;
		// 3 envelope
		sb_puts(&b, "3 envelope: against the 60 fps run, RMS / max of the springs' length (per-frame stepping beside)\n");
		vv_record base, base_pf, other;
		int steps = (int)ceil(duration * 60.0) + 2;
		static double times[200000];
		if (rc == CLI_OK && (!record_init(&base, steps, m.bones) || !record_init(&base_pf, steps, m.bones) ||
		                     !record_init(&other, steps, m.bones))) {
			rc = cli_error(cmd, "out of memory");
		}
		if (rc == CLI_OK) {
			int n = spring_vrm_frame_times(60.0, duration, times, 200000);
			vv_run(&m, m.desc.rate, times, n, &base);
			vv_run(&m, 60.0, times, n, &base_pf);
			for (int r = 0; r <= rate_count; r++) {
				double fps = r < rate_count ? rates[r] : 0.0;
				n = spring_vrm_frame_times(fps, duration, times, 200000);
				memset(other.have, 0, (size_t)steps);
				vv_run(&m, m.desc.rate, times, n, &other);
				double rms, max, rms_pf = 0.0, max_pf = 0.0;
				int samples, samples_pf = 0;
				vv_spread(&m, &other, &base, &rms, &max, &samples);
				if (fps > 0.0) {
					memset(other.have, 0, (size_t)steps);
					vv_run(&m, fps, times, n, &other);
					vv_spread(&m, &other, &base_pf, &rms_pf, &max_pf, &samples_pf);
				}
				bool pass = samples > 0 && rms <= 0.0025 && max <= 0.01;
				all = all && pass;
				char label[32];
				snprintf(label, sizeof label, fps > 0.0 ? "%g fps" : "jittery 4-45 ms", fps);
				sb_printf(&b, "  %-16s %.3f%% / %.3f%%: %s", label, 100 * rms, 100 * max, verdict(pass));
				if (samples_pf > 0) {
					sb_printf(&b, "   per-frame stepping: %.3f%% / %.3f%%", 100 * rms_pf, 100 * max_pf);
				}
				sb_puts(&b, "\n");
			}
			record_free(&base);
			record_free(&base_pf);
			record_free(&other);
		}
		sb_printf(&b, "\n%s\n", all ? "PASS: all checks" : "FAIL: see above");
	}
	free(m.length);
	free(m.locals);
	free(held);
	spring_vrm_motion_destroy(m.motion);
	spring_vrm_file_destroy(m.file);
	if (rc != CLI_OK) {
		sb_free(&b);
		return rc;
	}
	rc = cli_output(cmd, &b);
	return rc != 0 ? rc : (all ? 0 : 1);
}
