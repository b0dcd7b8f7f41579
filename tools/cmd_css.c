// SPDX-License-Identifier: MIT
// `spring css`: a CSS linear() easing and its duration, from spring_motion_sample_progress.
#include "cli.h"

#include <spring/motion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char css_help[] =
	"usage: spring css [SPRING] [--resolution MS] [--max-duration S] [--json]\n"
	"\n"
	"A CSS linear() easing of the spring's 0 -> 1 progress from rest and its duration, ready to paste\n"
	"into a transition or an animation. Stops are evenly spaced and printed with 4 decimals; the\n"
	"last stop is exactly 1 (the spring at rest, within 0.1% of the move) unless the cap cut the curve.\n"
	"\n"
	"  --resolution MS    milliseconds between stops (default 10, made finer automatically when 10 ms\n"
	"                     would put the piecewise-linear curve more than 0.25% off the spring)\n"
	"  --max-duration S   cap on the easing's duration in seconds (default 10); a capped curve is\n"
	"                     reported as truncated\n"
	"  --json             one JSON object\n"
	"\n";

#define CSS_MAX_STOPS 100000

typedef struct css_curve {
	int count, truncated;
	double interval;  // seconds
	double deviation; // max |linear() - spring| over the curve, fraction of the move
	char *easing;     // "linear(...)"
	double *stops;    // the values as printed
} css_curve;

static void format_stop(char *buf, double v)
{
	snprintf(buf, 40, "%.4f", v);
	char *dot = strchr(buf, '.');
	if (dot) {
		char *end = buf + strlen(buf) - 1;
		while (end > dot && *end == '0') {
			*end-- = '\0';
		}
		if (end == dot) {
			*end = '\0';
		}
	}
	if (strcmp(buf, "-0") == 0) {
		strcpy(buf, "0");
	}
}

// Builds the curve at `interval` seconds. 0 on success; -1 out of memory; -2 library error.
static int build(spring_params p, double interval, double max_duration, css_curve *c)
{
	memset(c, 0, sizeof *c);
	c->interval = interval;
	int capacity = (int)floor(max_duration / interval + 1e-9) + 2;
	float *progress = malloc(sizeof(float) * (size_t)capacity);
	c->stops = malloc(sizeof(double) * (size_t)capacity);
	if (!progress || !c->stops) {
		free(progress);
		return -1;
	}
	int count = 0, truncated = 0;
	spring_result r = spring_motion_sample_progress(p, 0.0f, (float)interval, (float)max_duration, 0.0f, progress, capacity,
	                                                &count, &truncated);
	if (r != SPRING_OK || count < 1) {
		free(progress);
		return -2;
	}
	c->count = count;
	c->truncated = truncated;
	sbuf e;
	sb_init(&e);
	sb_puts(&e, "linear(");
	char buf[40];
	for (int i = 0; i < count; i++) {
		format_stop(buf, progress[i]);
		c->stops[i] = strtod(buf, NULL);
		sb_printf(&e, "%s%s", i ? ", " : "", buf);
	}
	sb_putc(&e, ')');
	free(progress);
	if (e.failed) {
		sb_free(&e);
		return -1;
	}
	c->easing = e.data;
	// How far the piecewise-linear curve strays from the closed form, between and at the stops.
	double worst = 0.0;
	const int sub = 8;
	for (int i = 0; i + 1 < count; i++) {
		for (int k = 0; k <= sub; k++) {
			double f = (double)k / sub;
			double t = ((double)i + f) * interval;
			spring_state st = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)t);
			double lin = c->stops[i] + (c->stops[i + 1] - c->stops[i]) * f;
			worst = fmax(worst, fabs(lin - (double)st.x));
		}
	}
	if (count == 1) {
		worst = fabs(c->stops[0]);
	}
	c->deviation = worst;
	return 0;
}

static void css_free(css_curve *c)
{
	free(c->easing);
	free(c->stops);
	memset(c, 0, sizeof *c);
}

int cmd_css(int argc, char **argv)
{
	const char *cmd = "css";
	cli_args a;
	cli_args_init(&a, cmd, 0);
	cli_add_spring_options(&a);
	cli_add(&a, "--resolution", CLI_NUMBER, "MS", (cli_range){1.0, 1000.0, 0, 0});
	cli_add(&a, "--max-duration", CLI_NUMBER, "S", (cli_range){0.0, 60.0, 1, 0});
	cli_add_outputs(&a, 0, 0);
	int status;
	cli_spring s;
	if (cli_parse_spring_command(&a, argc, argv, css_help, &s, &status)) {
		return status;
	}
	double max_duration = cli_num(&a, "--max-duration", 10.0);
	int explicit_resolution = cli_flag(&a, "--resolution");
	double resolution_ms = cli_num(&a, "--resolution", 10.0);
	if (max_duration / (resolution_ms / 1000.0) > CSS_MAX_STOPS) {
		return cli_error(cmd, "--max-duration %g s at --resolution %g ms would allow more than %d stops", max_duration,
		                 resolution_ms, CSS_MAX_STOPS);
	}
	if (cli_flag(&a, "--epsilon")) {
		return cli_error(cmd, "--epsilon: the CSS curve always ends at the spring's rest (0.1%% of the move)");
	}
	css_curve c;
	static const double refine[] = {10.0, 5.0, 4.0, 2.0, 1.0};
	int tries = explicit_resolution ? 1 : (int)(sizeof refine / sizeof refine[0]);
	for (int i = 0; i < tries; i++) {
		double ms = explicit_resolution ? resolution_ms : refine[i];
		if (i > 0 && max_duration / (ms / 1000.0) > CSS_MAX_STOPS) {
			break;
		}
		if (i > 0) {
			css_free(&c);
		}
		int r = build(s.p, ms / 1000.0, max_duration, &c);
		if (r != 0) {
			css_free(&c);
			return r == -1 ? cli_error(cmd, "out of memory") : cli_error(cmd, "%s: cannot sample this spring", s.description);
		}
		resolution_ms = ms;
		if (c.deviation <= 0.0025) {
			break;
		}
	}
	double duration_ms = (double)(c.count - 1) * resolution_ms;
	sbuf b;
	sb_init(&b);
	char n[6][40];
	if (cli_flag(&a, "--json")) {
		jw w;
		cli_json_begin(&w, &b, cmd);
		cli_json_spring(&w, "spring", &s);
		jw_num(&w, "resolution_ms", resolution_ms);
		jw_bool(&w, "resolution_given", explicit_resolution);
		jw_num(&w, "max_duration", max_duration);
		jw_int(&w, "stops", c.count);
		jw_num(&w, "duration_ms", duration_ms);
		jw_bool(&w, "truncated", c.truncated);
		jw_num(&w, "max_deviation", c.deviation);
		jw_str(&w, "easing", c.easing);
		char decl[64];
		snprintf(decl, sizeof decl, "%sms", fmt_num(n[0], duration_ms, 9));
		jw_str(&w, "duration", decl);
		jw_num_array(&w, "values", c.stops, c.count);
		cli_json_end(&w);
	} else {
		sb_printf(&b, "/* spring: %s. %d stops every %s ms; the linear() curve stays within %s%% of the spring */\n",
		          s.description, c.count, fmt_num(n[0], resolution_ms, 6), fmt_num(n[1], 100.0 * c.deviation, 2));
		if (c.truncated) {
			sb_printf(&b,
			          "/* truncated at %s s (--max-duration): the spring had not settled; the last stop is %s, so the value "
			          "jumps to the target when the animation ends */\n",
			          fmt_num(n[0], max_duration, 6), fmt_num(n[1], c.stops[c.count - 1], 6));
		}
		if (c.deviation > 0.005) {
			sb_printf(&b,
			          "/* note: at %s ms between stops the curve strays %s%% from the spring: use a smaller --resolution */\n",
			          fmt_num(n[0], resolution_ms, 6), fmt_num(n[1], 100.0 * c.deviation, 2));
		}
		sb_printf(&b, "transition-timing-function: %s;\n", c.easing);
		sb_printf(&b, "transition-duration: %sms;\n", fmt_num(n[0], duration_ms, 9));
		sb_printf(&b, "/* the same easing and duration work as animation-timing-function and animation-duration */\n");
	}
	css_free(&c);
	return cli_output(cmd, &b);
}
