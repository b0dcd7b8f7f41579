// SPDX-License-Identifier: MIT
// `spring simulate RIG.json`: play a rig file and print per-frame bone transforms.
#include "rig_util.h"
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char simulate_help[] =
	"usage: spring simulate RIG.json [--clip NAME] [--fps N] [--seconds S]\n"
	"                      [--teleport-at T [--teleport-by X,Y]] [--csv | --json] [--svg FILE]\n"
	"       spring simulate MODEL.vrm --motion MOTION.json ... (spring simulate MODEL.vrm --help)\n"
	"\n"
	"Plays a rig file (docs/rig-format.md) frame by frame: clips -> IK -> springs on every fixed\n"
	"step, and prints each bone's world transform (position, angle in degrees) per frame. Frame 0 is\n"
	"the rig as loaded (its setup pose), before the first update.\n"
	"\n"
	"  --clip NAME        the clip to play (default: the rig's first clip)\n"
	"  --fps N            frames per second (default 60)\n"
	"  --seconds S        how long to play (default 2)\n"
	"  --teleport-at T    teleport the rig at time T (before the first frame starting at or after T)\n"
	"  --teleport-by X,Y  the teleport's offset (default 2000,0); spring_rig_teleport keeps the chains'\n"
	"                     shape and motion\n"
	"  --csv              rows frame,time,bone,x,y,angle (angle in degrees)\n"
	"  --json             one JSON object with every frame\n"
	"  --svg FILE         a filmstrip of the skeleton over time and the chain tips' paths\n"
	"                     (FILE - for standard output)\n"
	"\n"
	"Clip events named \"teleport\" teleport the rig by the event's x, y (spring_rig_apply_events);\n"
	"one the library refuses (a chain carried past its coordinate range) stops the run with exit\n"
	"status 2.\n"
	"Text output (the default) summarises the run: teleports, each chain's tip, the final pose.\n";

#define SIM_MAX_FRAMES 200000
#define SIM_MAX_VALUES 5000000.0

typedef struct sim_run {
	int frames; // recorded poses: frames + 1 (frame 0 included)
	int bones;
	double fps;
	double *time;                // [frames]
	spring_xform2 *pose;         // [frames * bones]
	double *offset_x, *offset_y; // teleport offset applied before recording frame f
	double *root_x, *root_y;     // root position at frame f
	int teleport_count;
	double tele_time[64], tele_x[64], tele_y[64];
	const char *tele_source[64];
} sim_run;

static void sim_free(sim_run *r)
{
	free(r->time);
	free(r->pose);
	free(r->offset_x);
	free(r->offset_y);
	free(r->root_x);
	free(r->root_y);
	memset(r, 0, sizeof *r);
}

static void add_teleport(sim_run *r, double t, double x, double y, const char *source)
{
	if (r->teleport_count < 64) {
		r->tele_time[r->teleport_count] = t;
		r->tele_x[r->teleport_count] = x;
		r->tele_y[r->teleport_count] = y;
		r->tele_source[r->teleport_count] = source;
		r->teleport_count++;
	}
}

// Where rig_file_update reports a clip's teleport event: the frame being recorded.
typedef struct sim_frame {
	sim_run *r;
	int index;
	double time;
} sim_frame;

static void record_event_teleport(void *context, double dx, double dy)
{
	sim_frame *f = (sim_frame *)context;
	f->r->offset_x[f->index] += dx;
	f->r->offset_y[f->index] += dy;
	add_teleport(f->r, f->time, dx, dy, "clip event");
}

static int run(const char *cmd, rig_file *f, int clip, double fps, double seconds, int teleport, double tele_at, double tx,
               double ty, sim_run *r)
{
	memset(r, 0, sizeof *r);
	int n = (int)floor(seconds * fps + 0.5);
	if (n < 1) {
		n = 1;
	}
	r->frames = n + 1;
	r->bones = f->bone_count;
	r->fps = fps;
	size_t frames = (size_t)r->frames;
	r->time = malloc(sizeof(double) * frames);
	r->pose = malloc(sizeof(spring_xform2) * frames * (size_t)(r->bones > 0 ? r->bones : 1));
	r->offset_x = calloc(frames, sizeof(double));
	r->offset_y = calloc(frames, sizeof(double));
	r->root_x = malloc(sizeof(double) * frames);
	r->root_y = malloc(sizeof(double) * frames);
	if (!r->time || !r->pose || !r->offset_x || !r->offset_y || !r->root_x || !r->root_y) {
		sim_free(r);
		return cli_error(cmd, "out of memory");
	}
	if (spring_rig_play(f->rig, clip, 0.0f) != SPRING_OK) {
		sim_free(r);
		return cli_error(cmd, "cannot play the clip");
	}
	spring_rig_get_world(f->rig, r->pose, r->bones);
	r->time[0] = 0.0;
	r->root_x[0] = spring_rig_root(f->rig).position.x;
	r->root_y[0] = spring_rig_root(f->rig).position.y;
	int teleported = 0;
	for (int i = 1; i <= n; i++) {
		double t0 = (double)(i - 1) / fps, t1 = (double)i / fps;
		if (teleport && !teleported && t0 >= tele_at - 1e-9) {
			spring_error why;
			if (rig_file_teleport(f, tx, ty, &why) != 0) {
				sim_free(r);
				return cli_error(cmd, "--teleport-by %g,%g at %g s: %s", tx, ty, t0, spring_error_reason(&why));
			}
			r->offset_x[i] += tx;
			r->offset_y[i] += ty;
			add_teleport(r, t0, tx, ty, "--teleport-at");
			teleported = 1;
		}
		sim_frame frame = {r, i, t1};
		if (rig_file_update(cmd, f, (float)(t1 - t0), t1, record_event_teleport, &frame) != CLI_OK) {
			sim_free(r);
			return CLI_USAGE;
		}
		r->time[i] = t1;
		r->root_x[i] = spring_rig_root(f->rig).position.x;
		r->root_y[i] = spring_rig_root(f->rig).position.y;
		spring_rig_get_world(f->rig, r->pose + (size_t)i * (size_t)r->bones, r->bones);
	}
	return CLI_OK;
}

// An angle for people: degrees wrapped to one turn, -180 to 180 (the rig keeps world angles
// unwrapped). Half a turn stays on its side within float rounding: a float pi is 180.000005
// degrees, and a tail hanging straight back reads 180.000005, not -179.999995.
#define DEG_WRAP_SLACK 1e-3
static double deg(double rad)
{
	double d = fmod(rad * (180.0 / SPRING_PI), 360.0);
	if (d > 180.0 + DEG_WRAP_SLACK) {
		d -= 360.0;
	} else if (d < -180.0 - DEG_WRAP_SLACK) {
		d += 360.0;
	}
	return d == 0.0 ? 0.0 : d; // no -0
}

static void csv_name(sbuf *b, const char *name)
{
	if (strpbrk(name, ",\"")) {
		sb_putc(b, '"');
		for (const char *p = name; *p; p++) {
			if (*p == '"') {
				sb_putc(b, '"');
			}
			sb_putc(b, *p);
		}
		sb_putc(b, '"');
	} else {
		sb_puts(b, name);
	}
}

// Peak tip speed of a chain over the run, teleport offsets removed.
static double peak_tip_speed(const rig_file *f, const sim_run *r, int chain, double *at)
{
	double peak = 0.0;
	*at = 0.0;
	for (int i = 1; i < r->frames; i++) {
		spring_vec2 a = rig_chain_tip(f, r->pose + (size_t)(i - 1) * (size_t)r->bones, chain);
		spring_vec2 b = rig_chain_tip(f, r->pose + (size_t)i * (size_t)r->bones, chain);
		double dx = (double)b.x - a.x - r->offset_x[i], dy = (double)b.y - a.y - r->offset_y[i];
		double v = sqrt(dx * dx + dy * dy) / (r->time[i] - r->time[i - 1]);
		if (v > peak) {
			peak = v;
			*at = r->time[i];
		}
	}
	return peak;
}

// The box around every bone's pivot and tip.
static void skeleton_bounds(const rig_file *f, const spring_xform2 *w, int bones, double *x0, double *x1, double *y0, double *y1)
{
	*x0 = *y0 = INFINITY;
	*x1 = *y1 = -INFINITY;
	for (int i = 0; i < bones; i++) {
		spring_vec2 tip = rig_bone_tip(f, w, i);
		*x0 = fmin(*x0, fmin(w[i].position.x, tip.x));
		*x1 = fmax(*x1, fmax(w[i].position.x, tip.x));
		*y0 = fmin(*y0, fmin(w[i].position.y, tip.y));
		*y1 = fmax(*y1, fmax(w[i].position.y, tip.y));
	}
}
static void write_svg(sbuf *b, const rig_file *f, const sim_run *r, const char *file, const char *clip_name)
{
	int *chain_of = malloc(sizeof(int) * (size_t)(r->bones > 0 ? r->bones : 1));
	if (!chain_of) {
		b->failed = 1;
		return;
	}
	rig_bone_chains(f, chain_of);
	const int cols = 4, max_panels = 12;
	int panels = r->frames < max_panels ? r->frames : max_panels;
	int rows = (panels + cols - 1) / cols;
	const double pw = 200.0, ph = 220.0, head = 56.0, trail_h = 330.0;
	double width = cols * pw, height = head + rows * ph + trail_h;
	int picks[12];
	for (int k = 0; k < panels; k++) {
		picks[k] = panels == 1 ? 0 : (int)floor((double)k * (r->frames - 1) / (panels - 1) + 0.5);
	}
	// One scale for every panel: the largest skeleton extent among the frames shown.
	double extent = 1e-6;
	for (int k = 0; k < panels; k++) {
		const spring_xform2 *w = r->pose + (size_t)picks[k] * (size_t)r->bones;
		double x0, x1, y0, y1;
		skeleton_bounds(f, w, r->bones, &x0, &x1, &y0, &y1);
		extent = fmax(extent, fmax(x1 - x0, y1 - y0));
	}
	double scale = (fmin(pw, ph - 30.0) - 24.0) / extent;
	char title[400], shown[200], n0[40], n1[40];
	cli_clean(shown, sizeof shown, file);
	snprintf(title, sizeof title, "%s, clip %s: %d frames at %s fps", shown, clip_name, r->frames - 1, fmt_num(n0, r->fps, 6));
	svg_begin(b, width, height, title, "The skeleton over time (a filmstrip of frames) and the paths of the chain tips.", 1);
	svg_text(b, 10, 22, "start", 15, "bold", "#222222", title);
	// Legend: the other bones, then every chain in its colour (wrapping at the figure's width).
	double lx = 10, ly = 44;
	for (int c = -1; c < f->info->chain_count; c++) {
		const char *name = c < 0 ? "bones (not in a spring chain)" : f->info->chains[c].name;
		char unnamed[32];
		if (!name || !name[0]) {
			snprintf(unnamed, sizeof unnamed, "chain %d", c + 1);
			name = unnamed;
		}
		double w = 30 + 7.0 * (double)strlen(name);
		if (lx + w > width - 10 && lx > 10) {
			lx = 10;
			ly += 16;
		}
		sb_printf(b,
		          "<line class=\"legend-swatch\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		          "stroke-width=\"3\"/>\n",
		          lx, ly - 4, lx + 16, ly - 4, c < 0 ? "#333333" : svg_color(c));
		svg_text(b, lx + 20, ly, "start", 12, NULL, "#444444", name);
		lx += w;
	}
	for (int k = 0; k < panels; k++) {
		int fr = picks[k];
		const spring_xform2 *w = r->pose + (size_t)fr * (size_t)r->bones;
		double ox = (k % cols) * pw, oy = head + (k / cols) * ph;
		double x0, x1, y0, y1;
		skeleton_bounds(f, w, r->bones, &x0, &x1, &y0, &y1);
		double cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1);
		double pcx = ox + pw / 2.0, pcy = oy + 12.0 + (ph - 30.0) / 2.0;
		sb_printf(b, "<g class=\"frame\" data-frame=\"%d\">\n", fr);
		sb_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f7f7f7\" stroke=\"#dddddd\"/>\n", ox + 4,
		          oy + 4, pw - 8, ph - 8);
		char lab[64];
		snprintf(lab, sizeof lab, "frame %d, t = %s s", fr, fmt_num(n1, r->time[fr], 4));
		svg_text(b, ox + 12, oy + ph - 12, "start", 11, NULL, "#555555", lab);
		for (int pass = 0; pass < 2; pass++) {
			for (int i = 0; i < r->bones; i++) {
				int in_chain = chain_of[i] >= 0;
				if (in_chain != pass) {
					continue; // chains drawn on top
				}
				spring_vec2 p = w[i].position, q = rig_bone_tip(f, w, i);
				double px = pcx + ((double)p.x - cx) * scale, py = pcy - ((double)p.y - cy) * scale;
				double qx = pcx + ((double)q.x - cx) * scale, qy = pcy - ((double)q.y - cy) * scale;
				const char *color = in_chain ? svg_color(chain_of[i]) : "#333333";
				if (spring_rig_bone_length(f->rig, i) > 0.0f) {
					sb_printf(
						b,
						"<line class=\"bone\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"%s\" "
						"stroke-linecap=\"round\"/>\n",
						px, py, qx, qy, color, in_chain ? "2.5" : "3");
				}
				sb_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"1.8\" fill=\"%s\"/>\n", px, py, color);
			}
		}
		sb_puts(b, "</g>\n");
	}
	// Chain tips relative to the root over the whole run.
	int nc = f->info->chain_count < SVG_MAX_SERIES ? f->info->chain_count : SVG_MAX_SERIES;
	double *xs = malloc(sizeof(double) * (size_t)r->frames * (size_t)(nc > 0 ? nc : 1));
	double *ys = malloc(sizeof(double) * (size_t)r->frames * (size_t)(nc > 0 ? nc : 1));
	if (!xs || !ys) {
		b->failed = 1;
	} else if (nc > 0) {
		svg_plot p = {.top = head + rows * ph,
		              .width = width,
		              .height = trail_h,
		              .title = "Chain tips over the run, relative to the rig's root",
		              .x_label = "x - root x",
		              .y_label = "y - root y",
		              .series_count = nc};
		for (int c = 0; c < nc; c++) {
			for (int i = 0; i < r->frames; i++) {
				spring_vec2 tip = rig_chain_tip(f, r->pose + (size_t)i * (size_t)r->bones, c);
				xs[(size_t)c * r->frames + i] = (double)tip.x - r->root_x[i];
				ys[(size_t)c * r->frames + i] = (double)tip.y - r->root_y[i];
			}
			p.series[c] = (svg_series){
				f->info->chains[c].name, xs + (size_t)c * r->frames, ys + (size_t)c * r->frames, r->frames, NULL, 0, 1.5, 0};
		}
		svg_plot_draw(b, &p);
	} else {
		svg_text(b, 10, head + rows * ph + 24, "start", 12, NULL, "#555555", "This rig has no spring chains.");
	}
	free(xs);
	free(ys);
	free(chain_of);
	svg_end(b);
}

int cmd_simulate(int argc, char **argv)
{
	if (cli_is_vrm_model(argc, argv)) {
		return cmd_simulate_vrm(argc, argv);
	}
	const char *cmd = "simulate";
	cli_args a;
	cli_args_init(&a, cmd, 1);
	cli_add(&a, "--clip", CLI_STRING, "NAME", CLI_ANY);
	cli_add(&a, "--fps", CLI_NUMBER, "N", (cli_range){0.0, 1000.0, 1, 0});
	cli_add(&a, "--seconds", CLI_NUMBER, "S", (cli_range){0.0, 3600.0, 1, 0});
	cli_add(&a, "--teleport-at", CLI_NUMBER, "T", (cli_range){0.0, 3600.0, 0, 0});
	cli_add(&a, "--teleport-by", CLI_STRING, "X,Y", CLI_ANY);
	cli_add_outputs(&a, 1, 1);
	int status;
	if (cli_parse_command(&a, argc, argv, simulate_help, &status)) {
		return status;
	}
	if (a.positional_count != 1) {
		return cli_error(cmd, "give the rig file (spring simulate RIG.json; see --help)");
	}
	if (cli_check_outputs(&a) != CLI_OK) {
		return CLI_USAGE;
	}
	const char *svg_path = cli_str(&a, "--svg", NULL);
	double by[2] = {2000.0, 0.0};
	if (cli_flag(&a, "--teleport-by")) {
		if (!cli_flag(&a, "--teleport-at")) {
			return cli_error(cmd, "--teleport-by needs --teleport-at");
		}
		int count = 0;
		if (cli_parse_list(cmd, "--teleport-by", cli_str(&a, "--teleport-by", ""), by, 2, &count, (cli_range){-1e9, 1e9, 0, 0}) !=
		    CLI_OK) {
			return CLI_USAGE;
		}
		if (count != 2) {
			return cli_error(cmd, "--teleport-by: expected two numbers X,Y");
		}
	}
	double fps = cli_num(&a, "--fps", 60.0), seconds = cli_num(&a, "--seconds", 2.0);
	if (seconds * fps > SIM_MAX_FRAMES) {
		return cli_error(cmd, "--seconds %g at --fps %g is more than %d frames", seconds, fps, SIM_MAX_FRAMES);
	}
	rig_file f;
	if (rig_file_open(cmd, a.positional[0], &f) != CLI_OK) {
		return CLI_USAGE;
	}
	if ((seconds * fps + 1.0) * f.bone_count > SIM_MAX_VALUES) {
		rig_file_close(&f);
		return cli_error(cmd, "--seconds %g at --fps %g with %d bones is too much output: shorten the run", seconds, fps,
		                 f.bone_count);
	}
	int clip = -1;
	if (rig_file_clip(cmd, &f, cli_str(&a, "--clip", NULL), &clip) != CLI_OK) {
		rig_file_close(&f);
		return CLI_USAGE;
	}
	const char *clip_name = clip >= 0 ? f.info->clips[clip].name : "(none: setup pose)";
	sim_run r;
	int rc = run(cmd, &f, clip, fps, seconds, cli_flag(&a, "--teleport-at"), cli_num(&a, "--teleport-at", 0.0), by[0], by[1], &r);
	if (rc != CLI_OK) {
		rig_file_close(&f);
		return rc;
	}
	if (svg_path) {
		sbuf svg;
		sb_init(&svg);
		write_svg(&svg, &f, &r, a.positional[0], clip_name);
		if (cli_write_plot(cmd, svg_path, &svg, &rc)) {
			sim_free(&r);
			rig_file_close(&f);
			return rc;
		}
	}
	sbuf b;
	sb_init(&b);
	char n[8][40];
	if (cli_flag(&a, "--csv")) {
		sb_puts(&b, "frame,time,bone,x,y,angle\n");
		for (int i = 0; i < r.frames; i++) {
			const spring_xform2 *w = r.pose + (size_t)i * (size_t)r.bones;
			for (int k = 0; k < r.bones; k++) {
				sb_printf(&b, "%d,%s,", i, fmt_num(n[0], r.time[i], 9));
				csv_name(&b, spring_rig_bone_name(f.rig, k));
				sb_printf(&b, ",%s,%s,%s\n", fmt_num(n[1], w[k].position.x, 9), fmt_num(n[2], w[k].position.y, 9),
				          fmt_num(n[3], deg(w[k].angle), 9));
			}
		}
	} else if (cli_flag(&a, "--json")) {
		jw w;
		cli_json_begin(&w, &b, cmd);
		jw_str(&w, "file", a.positional[0]);
		jw_str(&w, "clip", clip >= 0 ? f.info->clips[clip].name : NULL);
		jw_num(&w, "fps", fps);
		jw_num(&w, "seconds", r.time[r.frames - 1]);
		jw_int(&w, "frames", r.frames);
		jw_array(&w, "bones", 0);
		for (int k = 0; k < r.bones; k++) {
			jw_object(&w, NULL);
			jw_str(&w, "name", spring_rig_bone_name(f.rig, k));
			int parent = spring_rig_bone_parent(f.rig, k);
			if (parent >= 0) {
				jw_str(&w, "parent", spring_rig_bone_name(f.rig, parent));
			} else {
				jw_null(&w, "parent");
			}
			jw_num(&w, "length", spring_rig_bone_length(f.rig, k));
			jw_object_end(&w);
		}
		jw_array_end(&w);
		jw_array(&w, "teleports", 0);
		for (int k = 0; k < r.teleport_count; k++) {
			jw_object(&w, NULL);
			jw_num(&w, "time", r.tele_time[k]);
			jw_num(&w, "x", r.tele_x[k]);
			jw_num(&w, "y", r.tele_y[k]);
			jw_str(&w, "source", r.tele_source[k]);
			jw_object_end(&w);
		}
		jw_array_end(&w);
		jw_array(&w, "chains", 0);
		for (int c = 0; c < f.info->chain_count; c++) {
			double at;
			double peak = peak_tip_speed(&f, &r, c, &at);
			jw_object(&w, NULL);
			jw_str(&w, "name", f.info->chains[c].name);
			jw_str(&w, "type", spring_rig_file_chain_type_name(f.info->chains[c].type));
			jw_int(&w, "bones", f.info->chains[c].bone_count);
			jw_num(&w, "length", rig_chain_length(&f, c));
			jw_num(&w, "peak_tip_speed", peak);
			jw_num(&w, "peak_tip_speed_time", at);
			jw_object_end(&w);
		}
		jw_array_end(&w);
		jw_str(&w, "angle_unit", "degrees");
		jw_array(&w, "poses", 0);
		for (int i = 0; i < r.frames; i++) {
			const spring_xform2 *wp = r.pose + (size_t)i * (size_t)r.bones;
			jw_object(&w, NULL);
			jw_int(&w, "frame", i);
			jw_num(&w, "time", r.time[i]);
			static const char *const values[] = {"x", "y", "angle"};
			for (int v = 0; v < 3; v++) {
				jw_array(&w, values[v], 1);
				for (int k = 0; k < r.bones; k++) {
					jw_num(&w, NULL, v == 0 ? wp[k].position.x : v == 1 ? wp[k].position.y : deg(wp[k].angle));
				}
				jw_array_end(&w);
			}
			jw_object_end(&w);
		}
		jw_array_end(&w);
		cli_json_end(&w);
	} else if (svg_path) {
		sb_printf(&b, "wrote %s (%d frames at %s fps, %s s)\n", svg_path, r.frames, fmt_num(n[0], fps, 6),
		          fmt_num(n[1], r.time[r.frames - 1], 6));
	} else {
		char shown[200];
		sb_printf(&b, "rig: %s (%d bones, %d clips, %d IK, %d chains)\n", cli_clean(shown, sizeof shown, a.positional[0]),
		          f.bone_count, f.info->clip_count, f.info->ik_count, f.info->chain_count);
		if (clip >= 0) {
			sb_printf(&b, "clip: %s (%s s, %s)\n", clip_name, fmt_num(n[0], f.info->clips[clip].duration, 6),
			          f.info->clips[clip].loop ? "loop" : "once");
		} else {
			sb_printf(&b, "clip: none (the rig has no clips: setup pose)\n");
		}
		sb_printf(&b, "%d frames at %s fps (%s s), physics step %s s\n", r.frames - 1, fmt_num(n[0], fps, 6),
		          fmt_num(n[1], r.time[r.frames - 1], 6), fmt_num(n[2], f.info->step, 6));
		if (r.teleport_count == 0) {
			sb_puts(&b, "teleports: none\n");
		}
		for (int k = 0; k < r.teleport_count; k++) {
			sb_printf(&b, "teleport at %s s by (%s, %s) (%s)\n", fmt_num(n[0], r.tele_time[k], 6), fmt_num(n[1], r.tele_x[k], 6),
			          fmt_num(n[2], r.tele_y[k], 6), r.tele_source[k]);
		}
		if (f.info->chain_count) {
			sb_printf(&b, "\n%-16s %5s %5s %8s  %-22s %-22s %s\n", "chain", "type", "bones", "length", "tip at start (x, y)",
			          "tip at end (x, y)", "peak tip speed (units/s)");
		}
		const spring_xform2 *first = r.pose, *last = r.pose + (size_t)(r.frames - 1) * (size_t)r.bones;
		for (int c = 0; c < f.info->chain_count; c++) {
			double at;
			double peak = peak_tip_speed(&f, &r, c, &at);
			spring_vec2 t0 = rig_chain_tip(&f, first, c), t1 = rig_chain_tip(&f, last, c);
			char p0[64], p1[64];
			snprintf(p0, sizeof p0, "(%s, %s)", fmt_num(n[0], t0.x, 6), fmt_num(n[1], t0.y, 6));
			snprintf(p1, sizeof p1, "(%s, %s)", fmt_num(n[0], t1.x, 6), fmt_num(n[1], t1.y, 6));
			sb_printf(&b, "%-16s %5s %5d %8s  %-22s %-22s %s at %s s\n", f.info->chains[c].name,
			          spring_rig_file_chain_type_name(f.info->chains[c].type), f.info->chains[c].bone_count,
			          fmt_num(n[2], rig_chain_length(&f, c), 6), p0, p1, fmt_num(n[3], peak, 6), fmt_num(n[4], at, 6));
		}
		sb_printf(&b, "\nfinal pose (frame %d, t = %s s), world transforms:\n", r.frames - 1,
		          fmt_num(n[0], r.time[r.frames - 1], 6));
		sb_printf(&b, "%-20s %12s %12s %12s\n", "bone", "x", "y", "angle (deg)");
		for (int k = 0; k < r.bones; k++) {
			sb_printf(&b, "%-20s %12s %12s %12s\n", spring_rig_bone_name(f.rig, k), fmt_num(n[0], last[k].position.x, 6),
			          fmt_num(n[1], last[k].position.y, 6), fmt_num(n[2], deg(last[k].angle), 6));
		}
		sb_puts(&b, "\n(--csv or --json for every frame, --svg FILE for a filmstrip)\n");
	}
	sim_free(&r);
	rig_file_close(&f);
	return cli_output(cmd, &b);
}
