// SPDX-License-Identifier: MIT
// `spring css`: a CSS linear() easing and its duration, from spring_motion_sample_progress.
#include "cli.h"
#include "css_linear.h"

#include <stdio.h>

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
	if (max_duration / (resolution_ms / 1000.0) > CSS_LINEAR_MAX_STOPS) {
		return cli_error(cmd, "--max-duration %g s at --resolution %g ms would allow more than %d stops", max_duration,
		                 resolution_ms, CSS_LINEAR_MAX_STOPS);
	}
	if (cli_flag(&a, "--epsilon")) {
		return cli_error(cmd, "--epsilon: the CSS curve always ends at the spring's rest (0.1%% of the move)");
	}
	css_linear c;
	int r = css_linear_make(s.p, max_duration, explicit_resolution ? resolution_ms : 0.0, &c);
	if (r != CSS_LINEAR_OK) {
		return r == CSS_LINEAR_OUT_OF_MEMORY ? cli_error(cmd, "out of memory")
		                                     : cli_error(cmd, "%s: cannot sample this spring", s.description);
	}
	resolution_ms = c.resolution_ms;
	double duration_ms = c.duration_ms;
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
	css_linear_free(&c);
	return cli_output(cmd, &b);
}
