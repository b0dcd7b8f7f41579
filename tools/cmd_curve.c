// SPDX-License-Identifier: MIT
// `spring curve`: position and velocity over time from the closed form.
#include "cli.h"
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char curve_help[] =
	"usage: spring curve [SPRING] [--from A] [--to B] [--velocity V] [--dt S] [--until T]\n"
	"                    [--csv | --json] [--svg FILE]\n"
	"\n"
	"Position and velocity over time of a move from A to B starting with velocity V, from the exact\n"
	"closed form (spring_evaluate), sampled every S seconds.\n"
	"\n"
	"  --from A       start (default 0)\n"
	"  --to B         target (default 1)\n"
	"  --velocity V   initial velocity in units/s (default 0)\n"
	"  --dt S         sample interval in seconds (default 1/60)\n"
	"  --until T      last sample time in seconds (default: 1.25 times the exact settling time,\n"
	"                 at most 10 s)\n"
	"  --epsilon E    settled means within E of the move's size for good (default 0.001)\n"
	"  --csv          print t,x,v rows\n"
	"  --json         print one JSON object\n"
	"  --svg FILE     write a plot (position with the target and the settle line, velocity);\n"
	"                 FILE - writes it to standard output\n"
	"\n";

#define CURVE_MAX_SAMPLES 1000000
#define CURVE_DEFAULT_CAP 10.0

typedef struct curve_data {
	int n;
	double *t, *x, *v;
} curve_data;

static void curve_free(curve_data *c)
{
	free(c->t);
	free(c->x);
	free(c->v);
}

static void write_svg(sbuf *b, const cli_spring *s, const curve_data *c, double from, double to, double settle, double eps)
{
	char title[256], lab[128], n0[40], n1[40];
	snprintf(title, sizeof title, "Spring %s: %s to %s", s->description, fmt_num(n0, from, 6), fmt_num(n1, to, 6));
	svg_begin(b, SVG_WIDTH, 640, title, "Position and velocity over time from the closed form (libspring spring curve).", 1);
	svg_plot pp = svg_time_plot(360, title, "position");
	pp.series_count = 1;
	pp.series[0] = (svg_series){"position x(t)", c->t, c->x, c->n, NULL, 0, 2.5, 0};
	pp.hline_count = 1;
	pp.hlines[0] = (svg_refline){to, "target", "#2ca02c", 1};
	if (isfinite(settle) && settle <= c->t[c->n - 1]) {
		snprintf(lab, sizeof lab, "settled (within %s) at %s s", fmt_num(n0, eps, 3), fmt_num(n1, settle, 4));
		pp.vline_count = 1;
		pp.vlines[0] = (svg_refline){settle, lab, "#d62728", 1};
	}
	svg_plot_draw(b, &pp);
	svg_plot pv = pp;
	pv.top = 360;
	pv.height = 280;
	pv.title = "Velocity";
	pv.y_label = "velocity (units/s)";
	pv.series[0] = (svg_series){"velocity v(t)", c->t, c->v, c->n, "#ff7f0e", 0, 2.0, 0};
	pv.hlines[0] = (svg_refline){0.0, NULL, "#888888", 0};
	if (pv.vline_count) {
		pv.vlines[0].label = NULL;
	}
	svg_plot_draw(b, &pv);
	svg_end(b);
}

int cmd_curve(int argc, char **argv)
{
	const char *cmd = "curve";
	cli_args a;
	cli_args_init(&a, cmd, 0);
	cli_add_spring_options(&a);
	cli_add(&a, "--from", CLI_NUMBER, "A", CLI_VALUE);
	cli_add(&a, "--to", CLI_NUMBER, "B", CLI_VALUE);
	cli_add(&a, "--velocity", CLI_NUMBER, "V", CLI_VALUE);
	cli_add(&a, "--dt", CLI_NUMBER, "S", (cli_range){0.0, 10.0, 1, 0});
	cli_add(&a, "--until", CLI_NUMBER, "T", (cli_range){0.0, 3600.0, 0, 0});
	cli_add_outputs(&a, 1, 1);
	int status;
	cli_spring s;
	if (cli_parse_spring_command(&a, argc, argv, curve_help, &s, &status)) {
		return status;
	}
	const char *svg_path = cli_str(&a, "--svg", NULL);
	double from = cli_num(&a, "--from", 0.0), to = cli_num(&a, "--to", 1.0), vel = cli_num(&a, "--velocity", 0.0);
	double dt = cli_num(&a, "--dt", 1.0 / 60.0);
	double omega = spring_natural_frequency(s.p);
	double scale = fmax(fabs(to - from), omega > 0.0 ? fabs(vel) / omega : 0.0);
	double eps = s.epsilon * scale;
	double settle = scale > 0.0 ? spring_settling_time(s.p, (float)(to - from), (float)vel, (float)eps) : 0.0;
	double until;
	int capped = 0;
	if (cli_flag(&a, "--until")) {
		until = cli_num(&a, "--until", 0.0);
	} else {
		until = 1.25 * settle; // a little of the settled tail after the settle line
		if (!(until <= CURVE_DEFAULT_CAP)) {
			until = CURVE_DEFAULT_CAP;
			capped = 1;
		}
		until = fmax(until, dt);
	}
	double steps = ceil(until / dt - 1e-9);
	if (!(steps + 1.0 <= CURVE_MAX_SAMPLES)) {
		return cli_error(cmd, "--until / --dt gives %.0f samples (at most %d): raise --dt or lower --until", steps + 1.0,
		                 CURVE_MAX_SAMPLES);
	}
	curve_data c;
	c.n = (int)steps + 1;
	c.t = malloc(sizeof(double) * (size_t)c.n);
	c.x = malloc(sizeof(double) * (size_t)c.n);
	c.v = malloc(sizeof(double) * (size_t)c.n);
	if (!c.t || !c.x || !c.v) {
		curve_free(&c);
		return cli_error(cmd, "out of memory");
	}
	for (int i = 0; i < c.n; i++) {
		double t = (double)i * dt;
		spring_state st = spring_evaluate(s.p, (spring_state){(float)from, (float)vel}, (float)to, (float)t);
		c.t[i] = t;
		c.x[i] = st.x;
		c.v[i] = st.v;
	}
	sbuf out;
	sb_init(&out);
	char n[6][40];
	if (svg_path) {
		sbuf svg;
		sb_init(&svg);
		write_svg(&svg, &s, &c, from, to, settle, eps);
		int rc;
		if (cli_write_plot(cmd, svg_path, &svg, &rc)) {
			curve_free(&c);
			return rc;
		}
	}
	if (cli_flag(&a, "--csv")) {
		sb_puts(&out, "t,x,v\n");
		for (int i = 0; i < c.n; i++) {
			sb_printf(&out, "%s,%s,%s\n", fmt_num(n[0], c.t[i], 9), fmt_num(n[1], c.x[i], 9), fmt_num(n[2], c.v[i], 9));
		}
	} else if (cli_flag(&a, "--json")) {
		jw w;
		cli_json_begin(&w, &out, cmd);
		cli_json_spring(&w, "spring", &s);
		jw_num(&w, "from", from);
		jw_num(&w, "to", to);
		jw_num(&w, "velocity", vel);
		jw_num(&w, "dt", dt);
		jw_num(&w, "until", until);
		jw_num(&w, "epsilon", s.epsilon);
		jw_num_or_null(&w, "settling_time", settle, "undamped: never settles");
		jw_int(&w, "samples", c.n);
		jw_num_array(&w, "t", c.t, c.n);
		jw_num_array(&w, "x", c.x, c.n);
		jw_num_array(&w, "v", c.v, c.n);
		cli_json_end(&w);
	} else if (svg_path) {
		sb_printf(&out, "wrote %s (%d samples, %s to %s s)\n", svg_path, c.n, fmt_num(n[0], 0.0, 6),
		          fmt_num(n[1], c.t[c.n - 1], 6));
	} else {
		sb_printf(&out, "spring parameters: %s\n", s.description);
		sb_printf(&out, "move: %s -> %s, initial velocity %s units/s\n", fmt_num(n[0], from, 6), fmt_num(n[1], to, 6),
		          fmt_num(n[2], vel, 6));
		if (isfinite(settle)) {
			sb_printf(&out, "settled (within %s of the target for good) at %s s\n", fmt_num(n[0], eps, 6),
			          fmt_num(n[1], settle, 6));
		} else {
			sb_printf(&out, "never settles (undamped)\n");
		}
		sb_printf(&out, "%d samples every %s s until %s s%s\n\n", c.n, fmt_num(n[0], dt, 6), fmt_num(n[1], c.t[c.n - 1], 6),
		          capped ? " (capped at 10 s; use --until)" : "");
		sb_printf(&out, "%12s %14s %14s\n", "t (s)", "x", "v (units/s)");
		for (int i = 0; i < c.n; i++) {
			sb_printf(&out, "%12s %14s %14s\n", fmt_num(n[0], c.t[i], 6), fmt_num(n[1], c.x[i], 6), fmt_num(n[2], c.v[i], 6));
		}
	}
	curve_free(&c);
	return cli_output(cmd, &out);
}
