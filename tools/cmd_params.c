// SPDX-License-Identifier: MIT
// `spring params`: every equivalent parameterisation of one spring, and its settling figures.
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char params_help[] =
	"usage: spring params [SPRING] [--epsilon E] [--json]\n"
	"\n"
	"Prints every equivalent parameterisation of the spring (physical, mass-normalised, frequency and\n"
	"damping ratio, SwiftUI duration and bounce, response and damping fraction, Motion visual\n"
	"duration, react-spring and Origami tension and friction, half-life), its regime and overshoot,\n"
	"the perceptual duration, the SwiftUI settling duration (an envelope bound) and the exact\n"
	"settling time, both for a unit move from rest with threshold epsilon.\n"
	"\n"
	"  --json        one JSON object instead of text\n"
	"\n";

static const char *regime(double zeta, double damping)
{
	if (damping == 0.0) {
		return "undamped";
	}
	if (fabs(zeta - 1.0) < 1e-5) {
		return "critically damped";
	}
	return zeta < 1.0 ? "underdamped" : "overdamped";
}

typedef struct params_figures {
	double k, c, m, kn, cn, hz, omega, zeta, duration, bounce, visual, origami_t, origami_f, half_life, overshoot,
		settle_estimate, settle_exact;
} params_figures;

static void figures(const cli_spring *s, params_figures *f)
{
	spring_params p = s->p;
	float ot = 0.0f, of = 0.0f;
	spring_params_to_origami(p, &ot, &of);
	f->k = p.stiffness;
	f->c = p.damping;
	f->m = p.mass;
	f->kn = (double)p.stiffness / (double)p.mass;
	f->cn = (double)p.damping / (double)p.mass;
	f->hz = spring_frequency_hz(p);
	f->omega = spring_natural_frequency(p);
	f->zeta = spring_damping_ratio(p);
	f->duration = spring_duration(p);
	f->bounce = cli_clean_bounce(spring_bounce(p));
	f->visual = spring_visual_duration(p);
	f->origami_t = ot;
	f->origami_f = of;
	f->half_life = spring_half_life(p);
	f->overshoot = spring_overshoot(p);
	f->settle_estimate = spring_settling_duration(p, 1.0f, 0.0f, (float)s->epsilon);
	f->settle_exact = spring_settling_time(p, 1.0f, 0.0f, (float)s->epsilon);
}

// One row of the text table: the label, then the value formatted like printf.
static void line(sbuf *b, const char *label, const char *fmt, ...) CLI_PRINTF(3, 4);
static void line(sbuf *b, const char *label, const char *fmt, ...)
{
	char value[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(value, sizeof value, fmt, ap);
	va_end(ap);
	sb_printf(b, "  %-34s %s\n", label, value);
}

// An object of two numbers, e.g. "swiftui": {"duration": ..., "bounce": ...}.
static void json_pair(jw *w, const char *key, const char *k1, double v1, const char *k2, double v2)
{
	jw_object(w, key);
	jw_num(w, k1, v1);
	jw_num(w, k2, v2);
	jw_object_end(w);
}

int cmd_params(int argc, char **argv)
{
	cli_args a;
	cli_args_init(&a, "params", 0);
	cli_add_spring_options(&a);
	cli_add_outputs(&a, 0, 0);
	int status;
	cli_spring s;
	if (cli_parse_spring_command(&a, argc, argv, params_help, &s, &status)) {
		return status;
	}
	params_figures f;
	figures(&s, &f);
	sbuf b;
	sb_init(&b);
	char n[8][40];
	if (cli_flag(&a, "--json")) {
		jw w;
		cli_json_begin(&w, &b, "params");
		cli_json_spring(&w, "spring", &s);
		json_pair(&w, "mass_normalised", "stiffness", f.kn, "damping", f.cn);
		jw_object(&w, "frequency");
		jw_num(&w, "hertz", f.hz);
		jw_num(&w, "omega_rad_per_s", f.omega);
		jw_num(&w, "damping_ratio", f.zeta);
		jw_object_end(&w);
		json_pair(&w, "swiftui", "duration", f.duration, "bounce", f.bounce);
		json_pair(&w, "response", "response", f.duration, "damping_fraction", f.zeta);
		json_pair(&w, "motion", "visual_duration", f.visual, "bounce", f.bounce);
		jw_object(&w, "react_spring");
		jw_num(&w, "tension", f.kn);
		jw_num(&w, "friction", f.cn);
		jw_num(&w, "mass", 1.0);
		jw_object_end(&w);
		json_pair(&w, "origami", "tension", f.origami_t, "friction", f.origami_f);
		jw_num(&w, "half_life", f.half_life);
		jw_num(&w, "damping_ratio", f.zeta);
		jw_str(&w, "regime", regime(f.zeta, f.c));
		jw_num(&w, "overshoot", f.overshoot);
		jw_num(&w, "perceptual_duration", f.duration);
		jw_object(&w, "settling");
		jw_num(&w, "distance", 1.0);
		jw_num(&w, "initial_velocity", 0.0);
		jw_num(&w, "epsilon", s.epsilon);
		jw_num_or_null(&w, "duration_estimate", f.settle_estimate, "undamped: never settles");
		jw_num_or_null(&w, "time_exact", f.settle_exact, "undamped: never settles");
		jw_object_end(&w);
		cli_json_end(&w);
	} else {
		sb_printf(&b, "spring parameters: %s\n\n", s.description);
		line(&b, "mass, stiffness, damping", "%s kg, %s N/m, %s N*s/m", fmt_num(n[0], f.m, 6), fmt_num(n[1], f.k, 6),
		     fmt_num(n[2], f.c, 6));
		line(&b, "per unit mass", "stiffness %s, damping %s", fmt_num(n[0], f.kn, 6), fmt_num(n[1], f.cn, 6));
		line(&b, "frequency, damping ratio", "%s Hz (%s rad/s), damping ratio %s", fmt_num(n[0], f.hz, 6),
		     fmt_num(n[1], f.omega, 6), fmt_num(n[2], f.zeta, 6));
		line(&b, "SwiftUI duration, bounce", "%s s, bounce %s", fmt_num(n[0], f.duration, 6), fmt_num(n[1], f.bounce, 6));
		line(&b, "response, damping fraction", "%s s, damping fraction %s", fmt_num(n[0], f.duration, 6),
		     fmt_num(n[1], f.zeta, 6));
		line(&b, "Motion visualDuration, bounce", "%s s, bounce %s", fmt_num(n[0], f.visual, 6), fmt_num(n[1], f.bounce, 6));
		line(&b, "react-spring tension, friction", "%s, %s (mass 1)", fmt_num(n[0], f.kn, 6), fmt_num(n[1], f.cn, 6));
		line(&b, "Origami tension, friction", "%s, %s", fmt_num(n[0], f.origami_t, 6), fmt_num(n[1], f.origami_f, 6));
		line(&b, "half-life", "%s s (time for the gap to halve from rest)", fmt_num(n[0], f.half_life, 6));
		sb_putc(&b, '\n');
		line(&b, "damping ratio", "%s (%s)", fmt_num(n[0], f.zeta, 6), regime(f.zeta, f.c));
		if (f.overshoot > 0.0 && f.overshoot < 1e-6) {
			line(&b, "overshoot", "less than 0.0001%% of the move");
		} else {
			line(&b, "overshoot", "%s%% of the move", fmt_num(n[0], 100.0 * f.overshoot, 4));
		}
		line(&b, "perceptual duration", "%s s (when it looks finished: the SwiftUI duration)", fmt_num(n[0], f.duration, 6));
		fmt_num(n[1], s.epsilon, 6);
		if (isfinite(f.settle_estimate)) {
			line(&b, "settling duration", "%s s (SwiftUI estimate: envelope bound, epsilon %s)",
			     fmt_num(n[0], f.settle_estimate, 6), n[1]);
		} else {
			line(&b, "settling duration", "never (undamped)");
		}
		if (isfinite(f.settle_exact)) {
			line(&b, "settling time", "%s s (exact: last time |x - target| = %s)", fmt_num(n[0], f.settle_exact, 6), n[1]);
		} else {
			line(&b, "settling time", "never (undamped)");
		}
		sb_printf(&b, "\n  settling figures are for a unit move from rest (0 -> 1, velocity 0).\n");
	}
	return cli_output("params", &b);
}
