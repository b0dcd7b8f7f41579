// SPDX-License-Identifier: MIT
// `spring css`: a CSS linear() easing and its duration, from spring_motion_sample_progress.
#include "cli.h"
#include "css_linear.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char css_help[] =
	"usage: spring css [SPRING] [--resolution MS] [--max-duration S] [--fallback]\n"
	"                  [--keyframes NAME [--property P] [--from A] [--to B] [--unit U]] [--json]\n"
	"\n"
	"A CSS linear() easing of the spring's 0 -> 1 progress from rest and its duration, ready to paste\n"
	"into a transition or an animation. Stops are evenly spaced and printed with 4 decimals; the\n"
	"last stop is exactly 1 (the spring at rest, within 0.1% of the move) unless the cap cut the curve.\n"
	"\n"
	"The duration is when the spring comes to rest on the stops' grid: within 0.1% of the move and\n"
	"slower than omega_n * 0.1% of the move per second. `spring params` and `spring curve` report the\n"
	"settling time instead, the exact last moment the gap is epsilon (0.1%) of the move; the two\n"
	"differ by up to a stop or so, more for a spring still fast when it is that close (a comment\n"
	"says so when they differ by more than one stop).\n"
	"\n"
	"  --resolution MS    milliseconds between stops (default 10, made finer automatically when 10 ms\n"
	"                     would put the piecewise-linear curve more than 0.25% off the spring)\n"
	"  --max-duration S   cap on the easing's duration in seconds (default 10); a capped curve is\n"
	"                     reported as truncated\n"
	"  --fallback         also a cubic-bezier() fitted to the spring, declared before linear(): browsers\n"
	"                     without linear() (before Chrome 113, Firefox 112, Safari 17.2) keep it; its\n"
	"                     largest distance from the spring is printed (one cubic cannot bounce twice)\n"
	"  --keyframes NAME   also an @keyframes NAME rule with one keyframe per stop, played with linear\n"
	"                     timing between them: the spring's shape in browsers without linear() too\n"
	"  --property P       the property the keyframes animate (default translate)\n"
	"  --from A, --to B   its values at the start and the end (default 0 and 100)\n"
	"  --unit U           their unit (default px; none for a plain number such as opacity or scale)\n"
	"  --json             one JSON object\n"
	"\n";

// A cubic-bezier(x1, y1, x2, y2) easing at progress x in [0, 1] (x1, x2 in [0, 1]: x(s) is monotone).
static double bezier_at(const double b[4], double x)
{
	double lo = 0.0, hi = 1.0;
	for (int i = 0; i < 48; i++) {
		double s = 0.5 * (lo + hi), u = 1.0 - s;
		double bx = 3.0 * u * u * s * b[0] + 3.0 * u * s * s * b[2] + s * s * s;
		if (bx < x) {
			lo = s;
		} else {
			hi = s;
		}
	}
	double s = 0.5 * (lo + hi), u = 1.0 - s;
	return 3.0 * u * u * s * b[1] + 3.0 * u * s * s * b[3] + s * s * s;
}

#define FIT_SAMPLES 120

// Largest distance between the bezier and the stops (at up to FIT_SAMPLES of them).
static double bezier_error(const double b[4], const css_linear *c)
{
	double worst = 0.0;
	int step = c->count > FIT_SAMPLES ? c->count / FIT_SAMPLES : 1;
	for (int i = 0; i < c->count; i += step) {
		double x = c->count > 1 ? (double)i / (c->count - 1) : 1.0;
		worst = fmax(worst, fabs(bezier_at(b, x) - c->stops[i]));
	}
	return worst;
}

void css_fit_cubic_bezier(const css_linear *c, double out[4], double *deviation)
{
	// A coarse grid, then a pattern search with halving steps (x1, x2 kept in [0, 1]).
	double best[4] = {0.25, 0.1, 0.25, 1.0};
	double best_err = bezier_error(best, c);
	for (int i1 = 0; i1 <= 5; i1++) {
		for (int i2 = 0; i2 <= 5; i2++) {
			for (int j1 = 0; j1 <= 8; j1++) {
				for (int j2 = 0; j2 <= 8; j2++) {
					double b[4] = {0.2 * i1, -0.5 + 0.4375 * j1, 0.2 * i2, 0.25 * j2};
					double e = bezier_error(b, c);
					if (e < best_err) {
						best_err = e;
						memcpy(best, b, sizeof best);
					}
				}
			}
		}
	}
	for (double step = 0.1; step > 1e-4; step *= 0.5) {
		int improved = 1;
		while (improved) {
			improved = 0;
			for (int k = 0; k < 8; k++) {
				double b[4];
				memcpy(b, best, sizeof b);
				b[k / 2] += k % 2 ? -step : step;
				if ((k / 2 == 0 || k / 2 == 2) && (b[k / 2] < 0.0 || b[k / 2] > 1.0)) {
					continue;
				}
				double e = bezier_error(b, c);
				if (e < best_err) {
					best_err = e;
					memcpy(best, b, sizeof best);
					improved = 1;
				}
			}
		}
	}
	for (int k = 0; k < 4; k++) {
		out[k] = round(best[k] * 1000.0) / 1000.0; // as printed
	}
	*deviation = bezier_error(out, c);
}

// A CSS name (identifier): letters, digits, '-' and '_', not starting with a digit.
static int css_identifier(const char *s)
{
	if (!s[0] || (s[0] >= '0' && s[0] <= '9')) {
		return 0;
	}
	for (const char *p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
			return 0;
		}
	}
	return 1;
}

// The @keyframes rule: one keyframe per stop, the property at from + (to - from) * progress.
static void keyframes(sbuf *b, const css_linear *c, const char *name, const char *property, double from, double to,
                      const char *unit)
{
	sb_printf(b, "@keyframes %s {\n", name);
	for (int i = 0; i < c->count; i++) {
		char pct[40], v[40];
		css_linear_format_stop(pct, sizeof pct, c->count > 1 ? 100.0 * i / (c->count - 1) : 100.0);
		double value = i == c->count - 1 && !c->truncated ? to : from + (to - from) * c->stops[i];
		sb_printf(b, "  %s%% { %s: %s%s; }\n", pct, property, fmt_num(v, value, 6), unit);
	}
	sb_puts(b, "}\n");
}

int cmd_css(int argc, char **argv)
{
	const char *cmd = "css";
	cli_args a;
	cli_args_init(&a, cmd, 0);
	cli_add_spring_options(&a);
	cli_add(&a, "--resolution", CLI_NUMBER, "MS", (cli_range){1.0, 1000.0, 0, 0});
	cli_add(&a, "--max-duration", CLI_NUMBER, "S", (cli_range){0.0, 60.0, 1, 0});
	cli_add(&a, "--fallback", CLI_FLAG, NULL, CLI_ANY);
	cli_add(&a, "--keyframes", CLI_STRING, "NAME", CLI_ANY);
	cli_add(&a, "--property", CLI_STRING, "P", CLI_ANY);
	cli_add(&a, "--from", CLI_NUMBER, "A", CLI_VALUE);
	cli_add(&a, "--to", CLI_NUMBER, "B", CLI_VALUE);
	cli_add(&a, "--unit", CLI_STRING, "U", CLI_ANY);
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
	const char *kf_name = cli_str(&a, "--keyframes", NULL);
	const char *property = cli_str(&a, "--property", "translate");
	const char *unit = cli_str(&a, "--unit", "px");
	static const char *const kf_only[] = {"--property", "--from", "--to", "--unit"};
	for (size_t i = 0; i < sizeof kf_only / sizeof kf_only[0]; i++) {
		if (!kf_name && cli_flag(&a, kf_only[i])) {
			return cli_error(cmd, "%s needs --keyframes NAME", kf_only[i]);
		}
	}
	char shown[160];
	if (kf_name && !css_identifier(kf_name)) {
		return cli_error(cmd, "--keyframes: '%s' is not a CSS name (letters, digits, - and _)",
		                 cli_clean(shown, sizeof shown, kf_name));
	}
	if (!css_identifier(property)) {
		return cli_error(cmd, "--property: '%s' is not a CSS property name", cli_clean(shown, sizeof shown, property));
	}
	if (strcmp(unit, "none") == 0) {
		unit = "";
	} else if (strspn(unit, "abcdefghijklmnopqrstuvwxyz%") != strlen(unit)) {
		return cli_error(cmd, "--unit: '%s' is not a CSS unit (e.g. px, rem, deg, %%, or none)",
		                 cli_clean(shown, sizeof shown, unit));
	}
	css_linear c;
	int r = css_linear_make(s.p, max_duration, explicit_resolution ? resolution_ms : 0.0, &c);
	if (r != CSS_LINEAR_OK) {
		return r == CSS_LINEAR_OUT_OF_MEMORY ? cli_error(cmd, "out of memory")
		                                     : cli_error(cmd, "%s: cannot sample this spring", s.description);
	}
	resolution_ms = c.resolution_ms;
	double duration_ms = c.duration_ms;
	double settle_ms = 1000.0 * spring_settling_time(s.p, 1.0f, 0.0f, 0.001f);
	int differs = !c.truncated && fabs(duration_ms - settle_ms) > resolution_ms;
	double bezier[4] = {0.0, 0.0, 1.0, 1.0}, bezier_dev = 0.0;
	if (cli_flag(&a, "--fallback")) {
		css_fit_cubic_bezier(&c, bezier, &bezier_dev);
	}
	double from = cli_num(&a, "--from", 0.0), to = cli_num(&a, "--to", 100.0);
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
		jw_num_or_null(&w, "settling_time_ms", settle_ms, "undamped: never settles");
		jw_bool(&w, "truncated", c.truncated);
		jw_num(&w, "max_deviation", c.deviation);
		jw_str(&w, "easing", c.easing);
		char decl[64];
		snprintf(decl, sizeof decl, "%sms", fmt_num(n[0], duration_ms, 9));
		jw_str(&w, "duration", decl);
		jw_num_array(&w, "values", c.stops, c.count);
		if (cli_flag(&a, "--fallback")) {
			jw_object(&w, "fallback");
			char easing[200];
			snprintf(easing, sizeof easing, "cubic-bezier(%s, %s, %s, %s)", fmt_num(n[0], bezier[0], 6),
			         fmt_num(n[1], bezier[1], 6), fmt_num(n[2], bezier[2], 6), fmt_num(n[3], bezier[3], 6));
			jw_str(&w, "easing", easing);
			jw_num(&w, "max_deviation", bezier_dev);
			jw_object_end(&w);
		}
		if (kf_name) {
			sbuf k;
			sb_init(&k);
			keyframes(&k, &c, kf_name, property, from, to, unit);
			jw_str(&w, "keyframes", k.failed ? "" : k.data);
			sb_free(&k);
		}
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
		if (differs) {
			sb_printf(&b,
			          "/* the duration, %s ms, is when the spring comes to rest on this grid (within 0.1%% of the move and "
			          "slow); spring params and spring curve give its settling time, %s ms, the last moment the gap is "
			          "0.1%% of the move */\n",
			          fmt_num(n[0], duration_ms, 9), fmt_num(n[1], settle_ms, 4));
		}
		if (cli_flag(&a, "--fallback")) {
			sb_printf(&b,
			          "transition-timing-function: cubic-bezier(%s, %s, %s, %s); /* for browsers without linear(), which "
			          "drop the next line: within %s%% of the spring */\n",
			          fmt_num(n[0], bezier[0], 6), fmt_num(n[1], bezier[1], 6), fmt_num(n[2], bezier[2], 6),
			          fmt_num(n[3], bezier[3], 6), fmt_num(n[4], 100.0 * bezier_dev, 2));
		}
		sb_printf(&b, "transition-timing-function: %s;\n", c.easing);
		sb_printf(&b, "transition-duration: %sms;\n", fmt_num(n[0], duration_ms, 9));
		sb_printf(&b, "/* the same easing and duration work as animation-timing-function and animation-duration */\n");
		if (kf_name) {
			keyframes(&b, &c, kf_name, property, from, to, unit);
			sb_printf(&b,
			          "/* animation: %s %sms linear both; linear between the keyframes, so it keeps the spring's shape "
			          "without linear() support */\n",
			          kf_name, fmt_num(n[0], duration_ms, 9));
		}
	}
	css_linear_free(&c);
	return cli_output(cmd, &b);
}
