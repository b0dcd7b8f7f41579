// SPDX-License-Identifier: MIT
// `spring simulate MODEL.vrm --motion MOTION.json`: a VRM avatar's spring bones played through
// the library's skeleton, a CSV row per frame and per bone.
#include "cli.h"
#include "svg.h"

#include <spring/skeleton.h>
#include <spring/vrm.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char simulate_vrm_help[] =
	"usage: spring simulate MODEL --motion MOTION.json [--fps F] [--seconds S] [--rate HZ | --per-frame]\n"
	"                      [--length rest|measured] [--csv OUT] [--svg FILE]\n"
	"\n"
	"Plays a drive motion on the spring bones of a VRM avatar (MODEL: .vrm, .glb or .gltf with\n"
	"VRMC_springBone 1.0 or VRM 0.x secondaryAnimation) through spring_skeleton, frame by frame.\n"
	"The springs start at rest under the motion's pose at t = 0; frame i (1, 2, ...) is at t = i/F.\n"
	"\n"
	"  --motion FILE      the motion: {\"duration\": S, \"tracks\": [{\"node\": NAME, \"translation\":\n"
	"                     [[t, x, y, z], ...], \"rotation\": [[t, x, y, z, w], ...]}]} (\"$root\": the\n"
	"                     model's root; a node name as in the file when unique, else \"#INDEX\")\n"
	"  --fps F            frames per second (default 60)\n"
	"  --seconds S        how long to play (default: the motion's duration)\n"
	"  --rate HZ          the springs' stepping rate, the rate the avatar was authored at (default 60)\n"
	"  --per-frame        one step per frame with the frame's time (rate = fps), as VRM runtimes step:\n"
	"                     the look then changes with the frame rate\n"
	"  --length RULE      bone length: rest (constant, the specification's; default) or measured\n"
	"                     (re-measured every step, as three-vrm does)\n"
	"  --csv OUT          write fps,frame,time,node,qx,qy,qz,qw,tx,ty,tz rows: each bone's head node,\n"
	"                     its local rotation, its tail's world position (OUT - for standard output)\n"
	"  --svg FILE         a plot of the first spring's last tail over time at 24, 60 and 144 fps: the\n"
	"                     springs at --rate, and stepped once per frame as VRM runtimes do\n"
	"\n"
	"Where every frame is a whole number of steps (60 Hz springs at 60 or 30 fps) the rows are the\n"
	"stepped pose; otherwise the pose interpolated between the last two steps (one step behind).\n"
	"Text output (the default) summarises the model and the run.\n";

#define VRM_SIM_MAX_ROWS 20000000.0

static bool is_model_name(const char *path)
{
	size_t n = strlen(path);
	static const char *const ext[] = {".vrm", ".glb", ".gltf", ".VRM", ".GLB", ".GLTF"};
	for (size_t k = 0; k < sizeof ext / sizeof ext[0]; k++) {
		size_t e = strlen(ext[k]);
		if (n > e && strcmp(path + n - e, ext[k]) == 0) {
			return true;
		}
	}
	return false;
}

bool cli_is_vrm_model(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		if (argv[i][0] != '-' && is_model_name(argv[i])) {
			return true;
		}
		if (strcmp(argv[i], "--motion") == 0 || strcmp(argv[i], "--csv") == 0 || strcmp(argv[i], "--length") == 0 ||
		    strcmp(argv[i], "--fps") == 0 || strcmp(argv[i], "--seconds") == 0 || strcmp(argv[i], "--rate") == 0) {
			i++; // its value
		}
	}
	return false;
}

// One run for the plot: the first spring's last tail in the model root's frame, along `axis`
// (-1: returns all three, choose later), every frame at `fps`, springs at `rate`.
typedef struct vrm_trace {
	int n;
	double *t, *v[3];
} vrm_trace;

static void trace_free(vrm_trace *tr)
{
	free(tr->t);
	for (int k = 0; k < 3; k++) {
		free(tr->v[k]);
	}
}

static bool trace_run(const spring_vrm_motion *motion, spring_skeleton_desc d, double fps, double rate, double seconds,
                      vrm_trace *tr)
{
	memset(tr, 0, sizeof *tr);
	d.rate = (float)rate;
	spring_skeleton *sk = NULL;
	if (spring_skeleton_create(&d, &sk, NULL) != SPRING_OK) {
		return false;
	}
	int bones = spring_skeleton_bone_count(sk), frames = (int)floor(seconds * fps + 0.5);
	const spring_skeleton_spring *sp = &d.springs[0];
	int last = (sp->has_end_tail ? sp->joint_count : sp->joint_count - 1) - 1;
	spring_xform3 *locals = (spring_xform3 *)calloc((size_t)d.node_count, sizeof *locals);
	spring_vec3 *tails = (spring_vec3 *)calloc((size_t)bones, sizeof *tails);
	tr->t = (double *)calloc((size_t)frames + 1u, sizeof(double));
	for (int k = 0; k < 3; k++) {
		tr->v[k] = (double *)calloc((size_t)frames + 1u, sizeof(double));
	}
	bool ok = locals && tails && tr->t && tr->v[0] && tr->v[1] && tr->v[2];
	spring_xform3 root;
	if (ok) {
		spring_vrm_motion_sample(motion, 0.0, &root, locals, d.node_count);
		ok = spring_skeleton_reset(sk, root, locals, d.node_count) == SPRING_OK;
	}
	for (int i = 0; ok && i <= frames; i++) {
		double t = (double)i / fps;
		if (i > 0) {
			spring_vrm_motion_sample(motion, t, &root, locals, d.node_count);
			ok = spring_skeleton_update(sk, root, locals, d.node_count, (float)(1.0 / fps)) == SPRING_OK;
		}
		// Between steps the interpolated pose, drawn at the time it shows (one step back); a run
		// stepping once per frame shows its step.
		bool between = fabs(rate - fps) > 1e-9;
		ok = ok && (between ? spring_skeleton_get_pose(sk, NULL, NULL, tails, bones)
		                    : spring_skeleton_get_stepped_pose(sk, NULL, NULL, tails, bones)) == SPRING_OK;
		spring_vec3 rel = spring_quat_rotate(spring_quat_conjugate(root.rotation), spring_vec3_sub(tails[last], root.position));
		tr->t[i] = between && i > 0 ? t - 1.0 / rate : t;
		tr->v[0][i] = rel.x, tr->v[1][i] = rel.y, tr->v[2][i] = rel.z;
		tr->n = i + 1;
	}
	free(locals);
	free(tails);
	spring_skeleton_destroy(sk);
	return ok;
}

static int write_vrm_svg(const char *cmd, const char *path, const char *model_name, const spring_vrm_file *model,
                         const spring_vrm_motion *motion, const spring_skeleton_desc *d, double rate, double seconds)
{
	static const double rates[3] = {24.0, 60.0, 144.0};
	vrm_trace runs[2][3];
	bool ok = true;
	for (int mode = 0; mode < 2; mode++) {
		for (int r = 0; r < 3; r++) {
			ok = trace_run(motion, *d, rates[r], mode == 0 ? rate : rates[r], seconds, &runs[mode][r]) && ok;
		}
	}
	int axis = 0; // the axis the tail moves most along in the 60 fps run
	double best = -1.0;
	for (int k = 0; ok && k < 3; k++) {
		double lo = INFINITY, hi = -INFINITY;
		for (int i = 0; i < runs[0][1].n; i++) {
			lo = fmin(lo, runs[0][1].v[k][i]);
			hi = fmax(hi, runs[0][1].v[k][i]);
		}
		if (hi - lo > best) {
			best = hi - lo;
			axis = k;
		}
	}
	int rc = CLI_OK;
	if (!ok) {
		rc = cli_error(cmd, "the runs for the plot failed");
	} else {
		static const char *const axes = "xyz";
		char title[256], ylab[160], names[2][3][64];
		const char *spring = spring_vrm_file_node_name(model, d->springs[0].joints[0].node);
		snprintf(title, sizeof title, "%s: the tail of spring \"%s\"", model_name, spring);
		snprintf(ylab, sizeof ylab, "tail %c in the model's frame (m)", axes[axis]);
		sbuf b;
		sb_init(&b);
		svg_begin(&b, SVG_WIDTH, 700, title,
		          "The first spring's last tail over time at 24, 60 and 144 fps: stepped at the authoring rate (the "
		          "curves coincide), and stepped once per frame as VRM runtimes do (they part).",
		          1);
		for (int mode = 0; mode < 2; mode++) {
			char panel[200];
			snprintf(panel, sizeof panel,
			         mode == 0 ? "libspring: springs stepped at %g Hz, at every frame rate"
			                   : "stepped once per frame, as VRM runtimes do",
			         rate);
			svg_plot p = svg_time_plot(340, panel, ylab);
			p.top = mode * 350.0;
			for (int r = 0; r < 3; r++) {
				snprintf(names[mode][r], sizeof names[mode][r], "%g fps", rates[r]);
				p.series[r] = (svg_series){names[mode][r],        runs[mode][r].t,
				                           runs[mode][r].v[axis], runs[mode][r].n,
				                           svg_color(r),          mode,
				                           r == 1 ? 2.5 : 1.5,    0};
			}
			p.series_count = 3;
			svg_plot_draw(&b, &p);
		}
		svg_end(&b);
		if (cli_write_plot(cmd, path, &b, &rc)) {
			rc = rc == CLI_OK ? -1 : rc; // -1: done, the plot went to standard output
		}
	}
	for (int mode = 0; mode < 2; mode++) {
		for (int r = 0; r < 3; r++) {
			trace_free(&runs[mode][r]);
		}
	}
	return rc;
}

int cmd_simulate_vrm(int argc, char **argv)
{
	const char *cmd = "simulate";
	cli_args a;
	cli_args_init(&a, cmd, 1);
	cli_add(&a, "--motion", CLI_STRING, "FILE", CLI_ANY);
	cli_add(&a, "--fps", CLI_NUMBER, "F", (cli_range){0.0, 10000.0, 1, 0});
	cli_add(&a, "--seconds", CLI_NUMBER, "S", (cli_range){0.0, 3600.0, 0, 0});
	cli_add(&a, "--rate", CLI_NUMBER, "HZ", (cli_range){0.0, SPRING_SKELETON_MAX_RATE, 1, 0});
	cli_add(&a, "--per-frame", CLI_FLAG, NULL, CLI_ANY);
	cli_add(&a, "--length", CLI_STRING, "RULE", CLI_ANY);
	cli_add(&a, "--csv", CLI_STRING, "OUT", CLI_ANY);
	cli_add(&a, "--svg", CLI_STRING, "FILE", CLI_ANY);
	int status;
	if (cli_parse_command(&a, argc, argv, simulate_vrm_help, &status)) {
		return status;
	}
	if (a.positional_count != 1) {
		return cli_error(cmd, "give one model file (spring simulate MODEL.vrm --motion MOTION.json; see --help)");
	}
	if (!cli_flag(&a, "--motion")) {
		return cli_error(cmd, "a VRM model needs --motion MOTION.json (what moves the avatar; see --help)");
	}
	if (cli_flag(&a, "--per-frame") && cli_flag(&a, "--rate")) {
		return cli_error(cmd, "--per-frame steps at the frame rate: give it or --rate, not both");
	}
	const char *rule = cli_str(&a, "--length", "rest");
	spring_skeleton_length length = SPRING_SKELETON_LENGTH_REST;
	if (strcmp(rule, "measured") == 0) {
		length = SPRING_SKELETON_LENGTH_MEASURED;
	} else if (strcmp(rule, "rest") != 0) {
		return cli_error(cmd, "--length: \"%s\" is not a rule (rest or measured)", rule);
	}
	double fps = cli_num(&a, "--fps", 60.0);
	double rate = cli_flag(&a, "--per-frame") ? fps : cli_num(&a, "--rate", 60.0);
	if (rate > SPRING_SKELETON_MAX_RATE) {
		return cli_error(cmd, "--per-frame at --fps %g: the skeleton steps at most %g times a second", fps,
		                 (double)SPRING_SKELETON_MAX_RATE);
	}
	spring_vrm_file *model = NULL;
	spring_file_error fe;
	cli_note_input(a.positional[0]);
	if (spring_vrm_load_file(a.positional[0], &model, &fe) != SPRING_OK) {
		return cli_error(cmd, "%s", fe.message);
	}
	const char *motion_path = cli_str(&a, "--motion", "");
	cli_note_input(motion_path);
	spring_vrm_motion *motion = NULL;
	if (spring_vrm_motion_load_file(motion_path, model, &motion, &fe) != SPRING_OK) {
		spring_vrm_file_destroy(model);
		return cli_error(cmd, "%s", fe.message);
	}
	spring_skeleton_desc d = *spring_vrm_file_desc(model);
	d.rate = (float)rate;
	d.length = length;
	double seconds = cli_num(&a, "--seconds", spring_vrm_motion_duration(motion));
	int frames = (int)floor(seconds * fps + 0.5);
	spring_skeleton *sk = NULL;
	spring_error e;
	spring_result r = spring_skeleton_create(&d, &sk, &e);
	int bones = sk ? spring_skeleton_bone_count(sk) : 0;
	spring_xform3 *locals = (spring_xform3 *)calloc((size_t)d.node_count, sizeof *locals);
	int *nodes = (int *)calloc((size_t)(bones ? bones : 1), sizeof *nodes);
	spring_quat *rot = (spring_quat *)calloc((size_t)(bones ? bones : 1), sizeof *rot);
	spring_vec3 *tails = (spring_vec3 *)calloc((size_t)(bones ? bones : 1), sizeof *tails);
	int rc = CLI_OK;
	if (r != SPRING_OK) {
		rc = cli_error(cmd, "%s: %s", a.positional[0], e.message);
	} else if (!locals || !nodes || !rot || !tails) {
		rc = cli_error(cmd, "out of memory");
	} else if ((double)frames * bones > VRM_SIM_MAX_ROWS) {
		rc = cli_error(cmd, "--seconds %g at --fps %g with %d bones is too much output: shorten the run", seconds, fps, bones);
	}
	// Every frame ends on a step when a frame is a whole number of steps.
	double per = rate / fps;
	bool stepped = fabs(per - floor(per + 0.5)) < 1e-9 && floor(per + 0.5) >= 1.0;
	bool svg_to_stdout = false;
	sbuf csv, text;
	sb_init(&csv);
	sb_init(&text);
	const char *csv_path = cli_str(&a, "--csv", NULL);
	double max_tail_speed = 0.0;
	if (rc == CLI_OK) {
		spring_xform3 root;
		spring_vrm_motion_sample(motion, 0.0, &root, locals, d.node_count);
		spring_skeleton_reset(sk, root, locals, d.node_count);
		spring_skeleton_get_stepped_pose(sk, NULL, NULL, tails, bones);
		spring_vec3 *last = (spring_vec3 *)calloc((size_t)(bones ? bones : 1), sizeof *last);
		if (last) {
			memcpy(last, tails, (size_t)bones * sizeof *last);
		}
		sb_puts(&csv, "fps,frame,time,node,qx,qy,qz,qw,tx,ty,tz\n");
		for (int i = 1; i <= frames && rc == CLI_OK; i++) {
			double t = (double)i / fps;
			spring_vrm_motion_sample(motion, t, &root, locals, d.node_count);
			r = spring_skeleton_update(sk, root, locals, d.node_count, (float)(1.0 / fps));
			if (r != SPRING_OK) {
				rc = cli_error(cmd, "frame %d: %s", i, spring_result_string(r));
				break;
			}
			if (stepped) {
				spring_skeleton_get_stepped_pose(sk, nodes, rot, tails, bones);
			} else {
				spring_skeleton_get_pose(sk, nodes, rot, tails, bones);
			}
			for (int b = 0; b < bones; b++) {
				if (csv_path) {
					sb_printf(&csv, "%.9g,%d,%.9g,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", fps, i, t,
					          spring_vrm_file_node_name(model, nodes[b]), rot[b].x, rot[b].y, rot[b].z, rot[b].w, tails[b].x,
					          tails[b].y, tails[b].z);
				}
				if (last) {
					double speed = spring_vec3_length(spring_vec3_sub(tails[b], last[b])) * fps;
					max_tail_speed = speed > max_tail_speed ? speed : max_tail_speed;
					last[b] = tails[b];
				}
			}
		}
		free(last);
	}
	const char *svg_path = cli_str(&a, "--svg", NULL);
	if (rc == CLI_OK && svg_path) {
		if (csv_path && strcmp(csv_path, "-") == 0 && strcmp(svg_path, "-") == 0) {
			rc = cli_error(cmd, "--csv - and --svg - cannot both go to standard output");
		} else {
			char shown[200];
			int r2 = write_vrm_svg(cmd, svg_path, cli_clean(shown, sizeof shown, a.positional[0]), model, motion, &d, rate,
			                       seconds);
			if (r2 == -1) {
				svg_to_stdout = true;
			} else if (r2 != CLI_OK) {
				rc = r2;
			}
		}
	}
	if (rc == CLI_OK) {
		static const char *const formats[] = {"no spring bones", "VRMC_springBone 1.0", "VRM 0.x secondaryAnimation"};
		char shown[200];
		sb_printf(&text, "model: %s (%s: %d nodes, %d spring%s, %d bone%s, %d collider%s)\n",
		          cli_clean(shown, sizeof shown, a.positional[0]), formats[spring_vrm_file_format(model)], d.node_count,
		          d.spring_count, d.spring_count == 1 ? "" : "s", bones, bones == 1 ? "" : "s", d.collider_count,
		          d.collider_count == 1 ? "" : "s");
		sb_printf(&text, "motion: %s (%g s)\n", cli_clean(shown, sizeof shown, motion_path),
		          (double)spring_vrm_motion_duration(motion));
		sb_printf(&text, "%d frames at %g fps, springs stepped at %g Hz (%s), bone length %s, %s pose\n", frames, fps, rate,
		          cli_flag(&a, "--per-frame") ? "once per frame" : "fixed steps", rule, stepped ? "stepped" : "interpolated");
		sb_printf(&text, "fastest tail: %.4g m/s\n", max_tail_speed);
		if (csv_path && strcmp(csv_path, "-") != 0) {
			sb_printf(&text, "wrote %s\n", csv_path);
		}
		if (svg_path && strcmp(svg_path, "-") != 0) {
			sb_printf(&text, "wrote %s\n", svg_path);
		}
	}
	free(locals);
	free(nodes);
	free(rot);
	free(tails);
	spring_skeleton_destroy(sk);
	spring_vrm_motion_destroy(motion);
	spring_vrm_file_destroy(model);
	if (rc != CLI_OK) {
		sb_free(&csv);
		sb_free(&text);
		return rc;
	}
	if (svg_to_stdout) { // the plot was the output
		sb_free(&text);
		sb_free(&csv);
		return CLI_OK;
	}
	if (csv_path && strcmp(csv_path, "-") == 0) {
		sb_free(&text);
		return cli_output(cmd, &csv);
	}
	if (csv_path) {
		rc = cli_write_file(cmd, csv_path, &csv);
		sb_free(&csv);
		if (rc != CLI_OK) {
			sb_free(&text);
			return rc;
		}
	} else {
		sb_free(&csv);
	}
	return cli_output(cmd, &text);
}
