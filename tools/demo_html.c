// SPDX-License-Identifier: MIT
// `spring demo`: the self-contained page out/demo/index.html. Inline CSS and SVG only, and
// well-formed XML (XHTML syntax), so any XML parser reads it.
#include "compare.h"
#include "demo.h"
#include "rig_util.h"
#include "svg.h"

#include <spring/version.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char page_css[] =
	"body{font-family:Helvetica,Arial,sans-serif;max-width:820px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}"
	"h1{font-size:1.7em;margin-bottom:0.2em}h2{font-size:1.25em;margin-top:2.2em;border-bottom:1px solid #ddd}"
	"figure{margin:1em 0}figcaption{font-size:0.92em;color:#444;margin-top:0.4em}"
	"svg{max-width:100%;height:auto;border:1px solid #e4e4e4}"
	"table{border-collapse:collapse;font-size:0.85em;margin:0.8em 0}td,th{border:1px solid #ddd;padding:3px 7px;text-align:left}"
	"th{background:#f4f4f4}.pass{color:#1a7f37;font-weight:bold}.fail{color:#c62828;font-weight:bold}"
	"code{background:#f4f4f4;padding:0 3px}p.note{background:#fff8e1;border:1px solid #f0d98c;padding:0.5em 0.8em}";

// Text between markup: `open`, `text` escaped, `close`.
static void element(sbuf *b, const char *open, const char *text, const char *close)
{
	sb_puts(b, open);
	sb_xml(b, text);
	sb_puts(b, close);
}

static void section(sbuf *b, const char *id, const char *title)
{
	sb_printf(b, "<h2 id=\"%s\">", id);
	element(b, "", title, "</h2>\n");
}

static void para(sbuf *b, const char *text)
{
	element(b, "<p>", text, "</p>\n");
}

// A figure and its SVG, SVG_WIDTH wide (svg_end closes the SVG, caption() the figure).
static void figure(sbuf *b, double height, const char *title, const char *description)
{
	sb_puts(b, "<figure>\n");
	svg_begin(b, SVG_WIDTH, height, title, description, 0);
}

static void caption(sbuf *b, const char *text)
{
	element(b, "<figcaption>", text, "</figcaption>\n</figure>\n");
}

// 1. The three damping regimes from the closed form.
static void figure_regimes(sbuf *b)
{
	enum { n = 721 };
	static double t[n], x[3][n];
	const double zeta[3] = {0.3, 1.0, 2.0};
	char labels[3][96], n0[40];
	for (int k = 0; k < 3; k++) {
		spring_params p;
		spring_params_from_frequency(1.0f, (float)zeta[k], &p);
		for (int i = 0; i < n; i++) {
			t[i] = i / 240.0;
			x[k][i] = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)t[i]).x;
		}
		if (k == 0) {
			snprintf(labels[k], sizeof labels[k], "underdamped, ratio 0.3: overshoots %s%%",
			         fmt_num(n0, 100.0 * spring_overshoot(p), 3));
		} else if (k == 1) {
			snprintf(labels[k], sizeof labels[k], "critically damped, ratio 1");
		} else {
			snprintf(labels[k], sizeof labels[k], "overdamped, ratio 2");
		}
	}
	figure(b, 380, "Three damping regimes", "Position over time of a unit move for damping ratios 0.3, 1 and 2 at 1 Hz.");
	svg_plot p = svg_time_plot(380, "Same stiffness (1 Hz), three amounts of damping", "position");
	p.series_count = 3;
	for (int k = 0; k < 3; k++) {
		p.series[k] = (svg_series){labels[k], t, x[k], n, NULL, 0, 2.2, 0};
	}
	p.hline_count = 1;
	p.hlines[0] = (svg_refline){1.0, "target", "#2ca02c", 1};
	svg_plot_draw(b, &p);
	svg_end(b);
	caption(b, "spring_evaluate (the closed form) for a move from 0 to 1 from rest. Below a damping ratio of 1 the "
	           "spring overshoots, by exp(-pi zeta / sqrt(1 - zeta^2)) of the move; at 1 it arrives as fast as it can "
	           "without crossing the target; above 1 it creeps in.");
}

// 2. Tween versus spring on a retarget.
static int figure_compare(sbuf *b)
{
	compare_desc d;
	memset(&d, 0, sizeof d);
	spring_params_from_duration_bounce(0.5f, 0.0f, &d.p);
	d.spring_label = "duration 0.5 s, bounce 0";
	d.from = 0.0;
	d.to = 300.0;
	d.retarget_to = 600.0;
	d.retarget_at = 0.3;
	d.tween_duration = 0.6;
	d.dt = 1.0 / 60.0;
	d.until = compare_default_until(&d);
	compare_result r;
	if (compare_run(&d, &r) != 0) {
		return -1;
	}
	sb_puts(b, "<figure>\n");
	compare_svg(b, &d, &r, 0);
	char text[600], n0[40], n1[40], n2[40], n3[40];
	snprintf(
		text, sizeof text,
		"The tween-versus-spring retarget experiment (spring compare): a value heading from 0 to 300 is sent to 600 at 0.3 s. The tween "
		"(600 ms ease-in-out, restarted from the current position as a CSS transition is) drops from %s to %s units/s "
		"at the retarget and is still at %s one frame later: a speed cliff the eye reads as a jolt. The spring "
		"(spring_motion_set_target) keeps its velocity: %s units/s on both sides.",
		fmt_num(n0, r.tween_before, 4), fmt_num(n1, r.tween_after, 3), fmt_num(n2, r.tween_next, 3),
		fmt_num(n3, r.spring_before, 4));
	caption(b, text);
	compare_free(&r);
	return 0;
}

// 3. Energy: explicit Euler (the trap) versus semi-implicit versus exact.
static void figure_energy(sbuf *b)
{
	enum { steps = 180 };
	static double t[steps + 1], e[3][steps + 1];
	spring_params p;
	spring_params_from_frequency(1.5f, 0.05f, &p);
	const double h = 1.0 / 60.0, k = p.stiffness, c = p.damping, m = p.mass;
	// Explicit Euler, written out here because the library does not offer it: position from the
	// old velocity, velocity from the old position. It injects energy every step.
	double ex = 1.0, ev = 0.0;
	spring_state semi = {1.0f, 0.0f}, exact = {1.0f, 0.0f};
	double e0 = 0.5 * k;
	for (int i = 0; i <= steps; i++) {
		t[i] = i * h;
		e[0][i] = (0.5 * k * ex * ex + 0.5 * m * ev * ev) / e0;
		e[1][i] = (0.5 * k * (double)semi.x * semi.x + 0.5 * m * (double)semi.v * semi.v) / e0;
		e[2][i] = (0.5 * k * (double)exact.x * exact.x + 0.5 * m * (double)exact.v * exact.v) / e0;
		double a = (-k * ex - c * ev) / m;
		double nx = ex + ev * h, nv = ev + a * h;
		ex = nx;
		ev = nv;
		spring_step_semi_implicit(p, &semi, 0.0f, (float)h);
		spring_step_exact(p, &exact, 0.0f, (float)h);
	}
	figure(b, 380, "Energy of three integrators", "Total energy of a free decay relative to the start.");
	svg_plot pl = svg_time_plot(380, "Energy of a free decay: 1.5 Hz, damping ratio 0.05, one step per 60 fps frame",
	                            "energy / initial energy");
	pl.series_count = 3;
	pl.series[0] = (svg_series){"explicit Euler (the trap: not in the library)", t, e[0], steps + 1, "#d62728", 0, 2.2, 0};
	pl.series[1] = (svg_series){"semi-implicit Euler", t, e[1], steps + 1, "#ff7f0e", 0, 2.0, 0};
	pl.series[2] = (svg_series){"exact (closed form)", t, e[2], steps + 1, "#1f77b4", 0, 2.5, 0};
	pl.hline_count = 1;
	pl.hlines[0] = (svg_refline){1.0, "initial energy", "#888888", 1};
	svg_plot_draw(b, &pl);
	svg_end(b);
	char text[600], n0[40], n1[40], n2[40];
	snprintf(text, sizeof text,
	         "Kinetic plus spring energy, (k x^2 + m v^2) / 2, relative to the start, for the same lightly damped spring "
	         "stepped once per frame. Explicit Euler (position updated with the old velocity) gains energy every step: "
	         "x%s after 3 s although the spring is damped. Semi-implicit Euler (velocity first) wobbles around the true "
	         "decay and ends at %s; the exact step follows the closed form and ends at %s.",
	         fmt_num(n0, e[0][steps], 3), fmt_num(n1, e[1][steps], 3), fmt_num(n2, e[2][steps], 3));
	caption(b, text);
}

// 4. The sample character's tail at 30, 60 and 144 fps.
static void figure_tail(sbuf *b, char *note, size_t note_size)
{
	const char *relative = "examples/rigs/character.json";
	const char *path = rig_find_sample(relative);
	if (!path) {
		const char *data = rig_sample_data_dir();
		snprintf(note, note_size, "sample rig not found: looked for %s in the current directory and in %s", relative,
		         data ? data : "the spring command's data directory");
		element(b, "<p class=\"note\">", note, ": this figure is left out.</p>\n");
		return;
	}
	enum { seconds = 3, max_frames = 3 * 144 + 1 };
	const double rates[3] = {30.0, 60.0, 144.0};
	static double t[3][max_frames], y[3][max_frames], x[3][max_frames];
	int count[3] = {0, 0, 0};
	int chain = 0;
	double length = 1.0;
	char clip_name[SPRING_RIG_MAX_NAME + 1] = "";
	char chain_name[SPRING_RIG_MAX_NAME + 1] = "";
	for (int r = 0; r < 3; r++) {
		rig_file f;
		if (rig_file_open("demo", path, &f) != CLI_OK) {
			snprintf(note, note_size, "sample rig %s could not be read (see the message above): the tail figure is left out",
			         path);
			element(b, "<p class=\"note\">", note, "</p>\n");
			return;
		}
		int clip = spring_rig_find_clip(f.rig, "run");
		if (clip < 0) {
			rig_file_clip("demo", &f, NULL, &clip);
		}
		chain = 0;
		for (int c = 0; c < f.info->chain_count; c++) {
			if (strcmp(f.info->chains[c].name, "tail") == 0) {
				chain = c;
			}
		}
		if (f.info->chain_count == 0) {
			rig_file_close(&f);
			snprintf(note, note_size, "sample rig %s has no spring chain: the tail figure is left out", path);
			return;
		}
		snprintf(clip_name, sizeof clip_name, "%s", clip >= 0 ? f.info->clips[clip].name : "setup pose");
		snprintf(chain_name, sizeof chain_name, "%s", f.info->chains[chain].name);
		length = rig_chain_length(&f, chain);
		spring_xform2 world[SPRING_RIG_MAX_BONES];
		spring_rig_play(f.rig, clip, 0.0f);
		int frames = (int)(seconds * rates[r]);
		for (int i = 0; i <= frames; i++) {
			if (i > 0 && rig_file_update("demo", &f, (float)((double)i / rates[r] - (double)(i - 1) / rates[r]),
			                             (double)i / rates[r], NULL, NULL) != CLI_OK) {
				rig_file_close(&f);
				snprintf(note, note_size,
				         "sample rig %s could not be played (see the message above): the tail figure is left out", path);
				element(b, "<p class=\"note\">", note, "</p>\n");
				return;
			}
			spring_rig_get_world(f.rig, world, f.bone_count);
			spring_vec2 tip = rig_chain_tip(&f, world, chain);
			spring_xform2 root = spring_rig_root(f.rig);
			t[r][i] = (double)i / rates[r];
			x[r][i] = (double)tip.x - root.position.x;
			y[r][i] = (double)tip.y - root.position.y;
		}
		count[r] = frames + 1;
		rig_file_close(&f);
	}
	// Agreement at the times every rate has a frame (every 1/6 s).
	double worst = 0.0;
	for (int k = 0; k <= seconds * 6; k++) {
		int i30 = k * 5, i60 = k * 10, i144 = k * 24;
		worst = fmax(worst, hypot(x[0][i30] - x[2][i144], y[0][i30] - y[2][i144]));
		worst = fmax(worst, hypot(x[1][i60] - x[2][i144], y[1][i60] - y[2][i144]));
	}
	char title[200], text[1400], shown[300], n0[40];
	snprintf(title, sizeof title, "The sample character's %s tip, clip %s, at 30, 60 and 144 fps", chain_name, clip_name);
	figure(b, 620, title, "Tail tip position relative to the rig's root over time at three frame rates.");
	svg_plot p = svg_time_plot(310, title, "tip height above the root");
	p.series_count = 3;
	p.series[0] = (svg_series){"144 fps", t[2], y[2], count[2], "#1f77b4", 0, 3.0, 0};
	p.series[1] = (svg_series){"60 fps", t[1], y[1], count[1], "#2ca02c", 1, 1.8, 0};
	p.series[2] = (svg_series){"30 fps (dots)", t[0], y[0], count[0], "#d62728", 0, 0.8, 1};
	svg_plot_draw(b, &p);
	svg_plot q = p;
	q.top = 310;
	q.title = "Horizontal: tip x relative to the root";
	q.y_label = "tip x - root x";
	q.series[0].y = x[2];
	q.series[1].y = x[1];
	q.series[2].y = x[0];
	svg_plot_draw(b, &q);
	svg_end(b);
	cli_clean(shown, sizeof shown, path);
	snprintf(text, sizeof text,
	         "The %s chain of %s (the reader in tools/io, clip %s) played for 3 s at 30 fps (dots), 60 fps and 144 fps. "
	         "Clips, IK and springs run on the rig's fixed 1/120 s step and the output is interpolated, so the three "
	         "curves lie on top of each other: at the times all three share (every 1/6 s) they differ by at most %s%% of "
	         "the chain's length.",
	         chain_name, shown, clip_name, fmt_num(n0, 100.0 * worst / length, 3));
	caption(b, text);
	snprintf(note, note_size, "sample rig: %s (tail figure: 30/60/144 fps agree within %s%% of the tail length)", shown,
	         fmt_num(n0, 100.0 * worst / length, 3));
}

// 5. A teleport with and without reset: the run the terminal reported (report->teleport).
static int figure_teleport(sbuf *b, const demo_teleport *tp)
{
	if (tp->count == 0) {
		return -1;
	}
	figure(b, 380, "Teleport with and without reset", "Tail tip speed around a 2000-unit jump of the root.");
	svg_plot p = svg_time_plot(380, "Tip speed when the root jumps 2000 units at 2 s (log scale)", "tip speed (units/s)");
	p.log_y = 1;
	p.series_count = 3;
	p.series[0] = (svg_series){"not told (the jump is seen as motion)", tp->t, tp->naive, tp->count, "#d62728", 0, 2.0, 0};
	p.series[1] = (svg_series){
		"spring_chain_teleport (keeps its motion)", tp->t, tp->teleported, tp->count, "#1f77b4", 0, 2.5, 0};
	p.series[2] = (svg_series){"spring_chain_reset (snaps to rest)", tp->t, tp->reset, tp->count, "#2ca02c", 1, 2.0, 0};
	p.vline_count = 1;
	p.vlines[0] = (svg_refline){(double)DEMO_TELEPORT_BEFORE / 60.0, "root jumps 2000 units", "#555555", 1};
	svg_plot_draw(b, &p);
	svg_end(b);
	char text[700];
	snprintf(text, sizeof text,
	         "An 8-bone, 20-unit tail follows an animated root at 60 fps; at 2 s the root jumps 2000 units. A chain that is "
	         "not told sees the jump as motion: its tip peaks at %.0f units/s (before the jump the peak was %.0f). "
	         "Teleporting (the chain moves rigidly with the root) keeps the tail swinging as it was, peak %.0f afterwards; "
	         "resetting puts it at rest under the new root, peak %.0f. These are the figures the terminal printed.",
	         tp->peak_naive, tp->peak_before, tp->peak_teleported, tp->peak_reset);
	caption(b, text);
	return 0;
}

static void verification(sbuf *b, const demo_report *r)
{
	section(b, "verification", "Verification (the same figures as the terminal)");
	para(b, "The three objective checks of the library on four springs with both integrators, through a fixed 1/120 s "
	        "clock: (1) energy: every half-cycle peak of a free decay is smaller than the one before (600 frames at "
	        "60 fps); (2) rest: after a minute at a fixed target the motion over the last second is below 1e-6 of the "
	        "initial distance; (3) envelope: a moving target at 30, 60 and 144 fps and on a jittery clock stays within "
	        "1% of a 1 kHz run. spring verify runs the same checks on your own spring or rig file.");
	sb_puts(b, "<table>\n<tr><th>spring</th><th>integrator</th><th>1 energy: peaks, worst ratio</th><th>2 rest: last-second "
	           "move</th><th>3 envelope 30/60/144/jitter</th></tr>\n");
	for (int i = 0; i < r->row_count; i++) {
		const char *cells[5] = {r->rows[i].spring, r->rows[i].integrator, r->rows[i].energy, r->rows[i].rest,
		                        r->rows[i].envelope};
		sb_puts(b, "<tr>");
		for (int c = 0; c < 5; c++) {
			int pass = strncmp(cells[c], "PASS", 4) == 0, fail = strncmp(cells[c], "FAIL", 4) == 0;
			sb_puts(b, "<td>");
			if (pass || fail) {
				sb_printf(b, "<span class=\"%s\">%s</span>", pass ? "pass" : "fail", pass ? "PASS" : "FAIL");
				sb_xml(b, cells[c] + 4);
			} else {
				sb_xml(b, cells[c]);
			}
			sb_puts(b, "</td>");
		}
		sb_puts(b, "</tr>\n");
	}
	sb_puts(b, "</table>\n<p>Secondary motion (an 8-bone, 20-unit tail):</p>\n<ul>\n");
	for (int i = 0; i < r->line_count; i++) {
		sb_printf(b, "<li><span class=\"%s\">%s</span> ", r->chain_passed[i] ? "pass" : "fail",
		          r->chain_passed[i] ? "PASS" : "FAIL");
		sb_xml(b, r->chain_lines[i]);
		sb_puts(b, "</li>\n");
	}
	sb_puts(b, "</ul>\n");
	sb_printf(b, "<p><strong>%s</strong>: %d of %d checks passed.</p>\n",
	          r->failures ? "Some checks failed" : "All checks passed", r->checks - r->failures, r->checks);
}

int demo_write_html(const char *path, const demo_report *report, char *message, size_t message_size, char *rig_note,
                    size_t rig_note_size)
{
	sbuf b;
	sb_init(&b);
	sb_puts(&b,
	        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
	sb_printf(&b, "<title>libspring %s demo</title>\n<style>%s</style>\n</head>\n<body>\n", SPRING_VERSION_STRING, page_css);
	sb_printf(&b, "<h1>libspring %s: damped springs, shown</h1>\n", SPRING_VERSION_STRING);
	para(&b, "Every figure on this page was computed by the library when spring demo ran (make demo). The page is "
	         "self-contained: inline SVG and CSS, nothing loaded from anywhere.");
	section(&b, "regimes", "1. Three ways to settle");
	figure_regimes(&b);
	section(&b, "retarget", "2. Interrupted: tween versus spring");
	if (figure_compare(&b) != 0) {
		para(&b, "(the comparison could not be computed)");
	}
	section(&b, "energy", "3. Why the integrator matters: energy");
	figure_energy(&b);
	section(&b, "framerates", "4. The same tail at 30, 60 and 144 fps");
	figure_tail(&b, rig_note, rig_note_size);
	section(&b, "teleport", "5. A teleport, told and not told");
	if (figure_teleport(&b, &report->teleport) != 0) {
		para(&b, "(the teleport figure could not be computed)");
	}
	verification(&b, report);
	sb_puts(&b, "</body>\n</html>\n");
	int rc = 0;
	if (b.failed) {
		snprintf(message, message_size, "out of memory while building %s", path);
		rc = -1;
	} else {
		char dir[4096];
		snprintf(dir, sizeof dir, "%s", path);
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			if (cli_mkdirs(dir) != 0) {
				snprintf(message, message_size, "cannot create the directory '%s'", dir);
				rc = -1;
			}
		}
		if (rc == 0 && cli_write_file("demo", path, &b) != CLI_OK) {
			message[0] = '\0'; // cli_write_file said why
			rc = -1;
		}
	}
	sb_free(&b);
	return rc;
}
