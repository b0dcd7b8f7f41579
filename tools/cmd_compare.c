// SPDX-License-Identifier: MIT
// `spring compare`: the tween-versus-spring retarget experiment as numbers and an SVG.
#include "compare.h"
#include "svg.h"

#include <spring/motion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char compare_help[] =
	"usage: spring compare [SPRING] [--from A] [--to B] [--retarget-to C] [--retarget-at T]\n"
	"                      [--tween-duration S] [--dt S] [--until T] [--json] [--svg FILE]\n"
	"\n"
	"The interruption experiment: a value moves from A towards B and at time T its target changes\n"
	"to C. The tween (CSS ease-in-out, as a transition does) restarts from rest at the current\n"
	"position; the spring keeps its position and velocity (spring_motion_set_target). Prints\n"
	"position and speed for both over time and the speed on either side of the retarget: the\n"
	"tween's speed falls off a cliff, the spring's is continuous.\n"
	"\n"
	"  --from A            start (default 0)\n"
	"  --to B              first target (default 300)\n"
	"  --retarget-to C     new target (default 600)\n"
	"  --retarget-at T     when the target changes, seconds (default 0.3)\n"
	"  --tween-duration S  each tween's duration, seconds (default 0.6, ease-in-out)\n"
	"  --dt S              frame interval, seconds (default 1/60)\n"
	"  --until T           end of the run (default: until both have arrived, at most 10 s)\n"
	"  --json              one JSON object with every sample\n"
	"  --svg FILE          write the position and speed graphs (FILE - for standard output)\n"
	"\n";

#define COMPARE_MAX_SAMPLES 200000

void compare_ease_in_out(double u, double *y, double *dy_du)
{
	const double x1 = 0.42, y1 = 0.0, x2 = 0.58, y2 = 1.0;
	if (u <= 0.0 || u >= 1.0) {
		*y = u <= 0.0 ? 0.0 : 1.0;
		*dy_du = 0.0;
		return;
	}
	// B(s) = 3(1-s)^2 s p1 + 3(1-s) s^2 p2 + s^3; X is monotone for x1, x2 in [0, 1]: bisect.
	double lo = 0.0, hi = 1.0, s = u;
	for (int i = 0; i < 60; i++) {
		s = 0.5 * (lo + hi);
		double xs = 3.0 * (1 - s) * (1 - s) * s * x1 + 3.0 * (1 - s) * s * s * x2 + s * s * s;
		if (xs < u) {
			lo = s;
		} else {
			hi = s;
		}
	}
	double ys = 3.0 * (1 - s) * (1 - s) * s * y1 + 3.0 * (1 - s) * s * s * y2 + s * s * s;
	double dx = 3.0 * (1 - s) * (1 - s) * x1 + 6.0 * (1 - s) * s * (x2 - x1) + 3.0 * s * s * (1 - x2);
	double dy = 3.0 * (1 - s) * (1 - s) * y1 + 6.0 * (1 - s) * s * (y2 - y1) + 3.0 * s * s * (1 - y2);
	*y = ys;
	*dy_du = dx > 0.0 ? dy / dx : 0.0;
}

static void tween_at(double a, double b, double t0, double duration, double t, double *x, double *v)
{
	double u = (t - t0) / duration, y, dy;
	compare_ease_in_out(u, &y, &dy);
	*x = a + (b - a) * y;
	*v = (b - a) * dy / duration;
}

// The experiment's spring: one channel from `from` toward `to`.
static spring_result init_motion(spring_motion *m, const compare_desc *d)
{
	spring_motion_desc md;
	memset(&md, 0, sizeof md);
	md.channels = 1;
	md.params = d->p;
	md.from[0] = (float)d->from;
	md.to[0] = (float)d->to;
	return spring_motion_init(m, &md);
}

double compare_default_until(const compare_desc *d)
{
	spring_motion m;
	if (init_motion(&m, d) != SPRING_OK) {
		return 1.0;
	}
	spring_motion_update(&m, (float)d->retarget_at);
	float target = (float)d->retarget_to;
	spring_motion_set_target(&m, &target, 1);
	double settle = spring_motion_time_to_settle(&m);
	double end = d->retarget_at + fmax(d->tween_duration, isfinite(settle) ? settle : 1e9);
	end = ceil(end * 10.0 - 1e-6) / 10.0;
	return fmin(fmax(end, d->retarget_at + d->dt), 10.0);
}

int compare_run(const compare_desc *d, compare_result *r)
{
	memset(r, 0, sizeof *r);
	double frames = floor(d->until / d->dt + 1e-9);
	if (frames + 3.0 > COMPARE_MAX_SAMPLES) {
		return -1;
	}
	int cap = (int)frames + 3;
	double *mem = malloc(sizeof(double) * 7 * (size_t)cap);
	if (!mem) {
		return -1;
	}
	r->t = mem;
	r->tween_x = mem + cap;
	r->tween_v = mem + 2 * cap;
	r->spring_x = mem + 3 * cap;
	r->spring_v = mem + 4 * cap;
	r->tween_speed = mem + 5 * cap;
	r->spring_speed = mem + 6 * cap;
	spring_motion m;
	if (init_motion(&m, d) != SPRING_OK) {
		compare_free(r);
		return -2;
	}
	double now = 0.0;
	int retargeted = 0, n = 0;
	double tween_start = d->from; // position where the second tween starts
	r->spring_rest_time = NAN;
	r->tween_end_time = d->retarget_at + d->tween_duration;
	r->retarget_index = -1;
	for (long i = 0;; i++) {
		double t = (double)i * d->dt;
		if (!retargeted && t > d->retarget_at - 1e-9) {
			t = d->retarget_at;
		}
		if (t > d->until + 1e-9 || n >= cap) {
			break;
		}
		if (t > now) {
			spring_motion_update(&m, (float)(t - now));
			now = t;
		}
		float x = 0.0f, v = 0.0f;
		spring_motion_get_value(&m, &x, &v, 1);
		if (isnan(r->spring_rest_time) && spring_motion_is_resting(&m) && retargeted) {
			r->spring_rest_time = t;
		}
		double tx, tv;
		if (!retargeted) {
			tween_at(d->from, d->to, 0.0, d->tween_duration, t, &tx, &tv);
		} else {
			tween_at(tween_start, d->retarget_to, d->retarget_at, d->tween_duration, t, &tx, &tv);
		}
		r->t[n] = t;
		r->tween_x[n] = tx;
		r->tween_v[n] = tv;
		r->spring_x[n] = x;
		r->spring_v[n] = v;
		n++;
		if (!retargeted && t == d->retarget_at) {
			// The target changes now: the "after" sample at the same time.
			r->tween_before = fabs(tv);
			r->spring_before = fabs(v);
			tween_start = tx;
			float target = (float)d->retarget_to;
			spring_motion_set_target(&m, &target, 1);
			spring_motion_get_value(&m, &x, &v, 1);
			tween_at(tween_start, d->retarget_to, d->retarget_at, d->tween_duration, t, &tx, &tv);
			if (n < cap) {
				r->t[n] = t;
				r->tween_x[n] = tx;
				r->tween_v[n] = tv;
				r->spring_x[n] = x;
				r->spring_v[n] = v;
				r->retarget_index = n;
				n++;
			}
			r->tween_after = fabs(tv);
			r->spring_after = fabs(v);
			retargeted = 1;
			if ((double)i * d->dt > d->retarget_at + 1e-9) {
				i--; // this frame's own time is still to come
			}
		}
	}
	r->n = n;
	for (int i = 0; i < n; i++) {
		r->tween_speed[i] = fabs(r->tween_v[i]);
		r->spring_speed[i] = fabs(r->spring_v[i]);
	}
	int k = r->retarget_index + 1;
	if (r->retarget_index >= 0 && k < n) {
		r->tween_next = r->tween_speed[k];
		r->spring_next = r->spring_speed[k];
	}
	return 0;
}

void compare_free(compare_result *r)
{
	free(r->t);
	memset(r, 0, sizeof *r);
}

void compare_svg(sbuf *b, const compare_desc *d, const compare_result *r, int standalone)
{
	char tween_label[96], spring_label[200], retarget[96], n0[40], n1[40], n2[40];
	snprintf(tween_label, sizeof tween_label, "tween (%s ms ease-in-out, restarted)", fmt_num(n0, d->tween_duration * 1000.0, 6));
	snprintf(spring_label, sizeof spring_label, "spring (%s)", d->spring_label);
	snprintf(retarget, sizeof retarget, "retarget at %s s", fmt_num(n0, d->retarget_at, 6));
	char title[256], n3[40];
	snprintf(title, sizeof title, "Retargeted mid-flight: %s -> %s, then -> %s at %s s", fmt_num(n0, d->from, 6),
	         fmt_num(n1, d->to, 6), fmt_num(n2, d->retarget_to, 6), fmt_num(n3, d->retarget_at, 6));
	svg_begin(b, SVG_WIDTH, 660, title,
	          "Tween versus spring when the target changes mid-flight: the tween restarts from rest (its speed falls "
	          "off a cliff), the spring keeps its velocity.",
	          standalone);
	svg_plot p = svg_time_plot(330, title, "position");
	p.series_count = 2;
	p.series[0] = (svg_series){tween_label, r->t, r->tween_x, r->n, "#d62728", 0, 2.0, 0};
	p.series[1] = (svg_series){spring_label, r->t, r->spring_x, r->n, "#1f77b4", 0, 2.5, 0};
	p.hline_count = 2;
	p.hlines[0] = (svg_refline){d->to, "first target", "#999999", 1};
	p.hlines[1] = (svg_refline){d->retarget_to, "new target", "#2ca02c", 1};
	p.vline_count = 1;
	p.vlines[0] = (svg_refline){d->retarget_at, retarget, "#555555", 1};
	svg_plot_draw(b, &p);
	svg_plot s = p;
	s.top = 330;
	s.title = "Speed: the tween falls off a cliff at the retarget, the spring bends";
	s.y_label = "speed (units/s)";
	s.series[0].y = r->tween_speed;
	s.series[1].y = r->spring_speed;
	s.hline_count = 0;
	svg_plot_draw(b, &s);
	svg_end(b);
}

int cmd_compare(int argc, char **argv)
{
	const char *cmd = "compare";
	cli_args a;
	cli_args_init(&a, cmd, 0);
	cli_add_spring_options(&a);
	cli_add(&a, "--from", CLI_NUMBER, "A", CLI_VALUE);
	cli_add(&a, "--to", CLI_NUMBER, "B", CLI_VALUE);
	cli_add(&a, "--retarget-to", CLI_NUMBER, "C", CLI_VALUE);
	cli_add(&a, "--retarget-at", CLI_NUMBER, "T", (cli_range){0.0, 60.0, 1, 0});
	cli_add(&a, "--tween-duration", CLI_NUMBER, "S", (cli_range){0.0, 60.0, 1, 0});
	cli_add(&a, "--dt", CLI_NUMBER, "S", (cli_range){0.0, 1.0, 1, 0});
	cli_add(&a, "--until", CLI_NUMBER, "T", (cli_range){0.0, 600.0, 1, 0});
	cli_add_outputs(&a, 0, 1);
	int status;
	cli_spring s;
	if (cli_parse_spring_command(&a, argc, argv, compare_help, &s, &status)) {
		return status;
	}
	const char *svg_path = cli_str(&a, "--svg", NULL);
	compare_desc d;
	d.p = s.p;
	d.spring_label = s.description;
	d.from = cli_num(&a, "--from", 0.0);
	d.to = cli_num(&a, "--to", 300.0);
	d.retarget_to = cli_num(&a, "--retarget-to", 600.0);
	d.retarget_at = cli_num(&a, "--retarget-at", 0.3);
	d.tween_duration = cli_num(&a, "--tween-duration", 0.6);
	d.dt = cli_num(&a, "--dt", 1.0 / 60.0);
	d.until = cli_flag(&a, "--until") ? cli_num(&a, "--until", 1.0) : compare_default_until(&d);
	if (!(d.retarget_at < d.until)) {
		return cli_error(cmd, "--retarget-at %g s must be before --until %g s", d.retarget_at, d.until);
	}
	if (d.until / d.dt > COMPARE_MAX_SAMPLES - 3) {
		return cli_error(cmd, "--until / --dt gives more than %d samples: raise --dt or lower --until", COMPARE_MAX_SAMPLES - 3);
	}
	compare_result r;
	int rc = compare_run(&d, &r);
	if (rc != 0) {
		return rc == -1 ? cli_error(cmd, "out of memory") : cli_error(cmd, "%s: cannot animate this spring", s.description);
	}
	if (svg_path) {
		sbuf svg;
		sb_init(&svg);
		compare_svg(&svg, &d, &r, 1);
		if (cli_write_plot(cmd, svg_path, &svg, &rc)) {
			compare_free(&r);
			return rc;
		}
	}
	sbuf b;
	sb_init(&b);
	char n[8][40];
	if (cli_flag(&a, "--json")) {
		jw w;
		cli_json_begin(&w, &b, cmd);
		cli_json_spring(&w, "spring", &s);
		jw_num(&w, "from", d.from);
		jw_num(&w, "to", d.to);
		jw_num(&w, "retarget_to", d.retarget_to);
		jw_num(&w, "retarget_at", d.retarget_at);
		jw_num(&w, "tween_duration", d.tween_duration);
		jw_str(&w, "tween_easing", "cubic-bezier(0.42, 0, 0.58, 1)");
		jw_num(&w, "dt", d.dt);
		jw_num(&w, "until", d.until);
		jw_object(&w, "at_retarget");
		jw_num(&w, "tween_speed_before", r.tween_before);
		jw_num(&w, "tween_speed_after", r.tween_after);
		jw_num(&w, "tween_speed_next_frame", r.tween_next);
		jw_num(&w, "spring_speed_before", r.spring_before);
		jw_num(&w, "spring_speed_after", r.spring_after);
		jw_num(&w, "spring_speed_next_frame", r.spring_next);
		jw_object_end(&w);
		jw_num(&w, "tween_end_time", r.tween_end_time);
		jw_num_or_null(&w, "spring_rest_time", r.spring_rest_time, "not at rest within the run");
		jw_int(&w, "samples", r.n);
		jw_int(&w, "retarget_index", r.retarget_index);
		const struct {
			const char *key;
			const double *v;
		} cols[] = {
			{"t", r.t}, {"tween_x", r.tween_x}, {"tween_v", r.tween_v}, {"spring_x", r.spring_x}, {"spring_v", r.spring_v}};
		for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
			jw_num_array(&w, cols[c].key, cols[c].v, r.n);
		}
		cli_json_end(&w);
	} else if (svg_path) {
		sb_printf(&b, "wrote %s (tween and spring, %s to %s s)\n", svg_path, fmt_num(n[0], 0.0, 6), fmt_num(n[1], d.until, 6));
	} else {
		sb_printf(&b, "spring parameters: %s\n", s.description);
		sb_printf(&b, "tween: %s ms ease-in-out (cubic-bezier(0.42, 0, 0.58, 1)), restarted from rest on a retarget\n",
		          fmt_num(n[0], d.tween_duration * 1000.0, 6));
		sb_printf(&b, "move: %s -> %s, retargeted to %s at %s s; frames every %s s until %s s\n\n", fmt_num(n[0], d.from, 6),
		          fmt_num(n[1], d.to, 6), fmt_num(n[2], d.retarget_to, 6), fmt_num(n[3], d.retarget_at, 6),
		          fmt_num(n[4], d.dt, 6), fmt_num(n[5], d.until, 6));
		sb_printf(&b, "%10s  %12s %12s   %12s %12s\n", "t (s)", "tween x", "tween speed", "spring x", "spring speed");
		for (int i = 0; i < r.n; i++) {
			double q = r.t[i] / 0.1;
			int row = fabs(q - floor(q + 0.5)) < 1e-6 || i == r.retarget_index || i == r.retarget_index - 1 ||
			          i == r.retarget_index + 1 || i == r.n - 1;
			if (!row) {
				continue;
			}
			const char *note = i == r.retarget_index - 1   ? "  before the retarget"
			                   : i == r.retarget_index     ? "  after the retarget"
			                   : i == r.retarget_index + 1 ? "  one frame later"
			                                               : "";
			sb_printf(&b, "%10s  %12s %12s   %12s %12s%s\n", fmt_num(n[0], r.t[i], 5), fmt_num(n[1], r.tween_x[i], 6),
			          fmt_num(n[2], r.tween_speed[i], 6), fmt_num(n[3], r.spring_x[i], 6), fmt_num(n[4], r.spring_speed[i], 6),
			          note);
		}
		sb_printf(&b, "\nat the retarget (t = %s s), speed in units/s:\n", fmt_num(n[0], d.retarget_at, 6));
		sb_printf(&b, "  tween   %s -> %s (one frame later %s): a cliff of %s units/s in no time\n",
		          fmt_num(n[0], r.tween_before, 6), fmt_num(n[1], r.tween_after, 6), fmt_num(n[2], r.tween_next, 6),
		          fmt_num(n[3], r.tween_before - r.tween_after, 6));
		sb_printf(&b, "  spring  %s -> %s (one frame later %s): continuous, the velocity carries on\n",
		          fmt_num(n[0], r.spring_before, 6), fmt_num(n[1], r.spring_after, 6), fmt_num(n[2], r.spring_next, 6));
		sb_printf(&b, "the tween arrives at %s s", fmt_num(n[0], r.tween_end_time, 6));
		if (isfinite(r.spring_rest_time)) {
			sb_printf(&b, "; the spring comes to rest at %s s\n", fmt_num(n[1], r.spring_rest_time, 6));
		} else {
			sb_printf(&b, "; the spring is not at rest by %s s\n", fmt_num(n[1], d.until, 6));
		}
	}
	compare_free(&r);
	return cli_output(cmd, &b);
}
