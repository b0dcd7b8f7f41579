// SPDX-License-Identifier: MIT
// `spring code --for PLATFORM`: a paste-ready snippet of the same spring in a platform's own
// parameters, with how far the platform's spring is from this one.
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char code_help[] =
	"usage: spring code --for PLATFORM [SPRING] [--json]\n"
	"\n"
	"A snippet of the spring in a platform's own parameters, ready to paste:\n"
	"  swiftui        .spring(duration:bounce:) (and .interpolatingSpring(mass:stiffness:damping:))\n"
	"  compose        Jetpack Compose spring(dampingRatio, stiffness) (mass 1: the spring per unit mass)\n"
	"  flutter        SpringDescription(mass:, stiffness:, damping:)\n"
	"  motion         Motion { type: \"spring\", stiffness, damping, mass } (and visualDuration, bounce)\n"
	"  react-spring   config { tension, friction, mass }\n"
	"  css            a transition with the linear() easing of spring css\n"
	"\n"
	"Each snippet says how far the platform's spring is from this one, as the largest gap between the\n"
	"two curves of a 0 -> 1 move from rest, in % of the move: the numbers are printed to 6\n"
	"significant digits, a form that cannot hold the spring exactly says so, and react-spring's own\n"
	"integrator (semi-implicit Euler every 1 ms) is run to measure what it adds.\n"
	"\n"
	"  --for PLATFORM     swiftui, compose, flutter, motion, react-spring or css (any case)\n"
	"  --json             one JSON object: the spring, the platform and the snippet as a string\n"
	"\n";

#define CODE_DIGITS 6

// A number as printed in a snippet, and the value the platform reads back from it.
static double printed(char *buf, double v)
{
	fmt_num(buf, v, CODE_DIGITS);
	return strtod(buf, NULL);
}

// How long to compare two curves: until both have settled (1e-4 of the move) and a quarter more,
// at least 0.1 s, at most 10 s.
static double compare_span(spring_params p, spring_params q)
{
	double t = fmax(spring_settling_time(p, 1.0f, 0.0f, 1e-4f), spring_settling_time(q, 1.0f, 0.0f, 1e-4f));
	t = 1.25 * t;
	return isfinite(t) ? fmin(fmax(t, 0.1), 10.0) : 10.0;
}

// Largest |x_p(t) - x_q(t)| of a 0 -> 1 move from rest (closed form), fraction of the move.
static double curve_gap(spring_params p, spring_params q)
{
	double span = compare_span(p, q), worst = 0.0;
	const int n = 4000;
	for (int i = 0; i <= n; i++) {
		float t = (float)(span * i / n);
		spring_state a = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, t);
		spring_state b = spring_evaluate(q, (spring_state){0.0f, 0.0f}, 1.0f, t);
		worst = fmax(worst, fabs((double)a.x - (double)b.x));
	}
	return worst;
}

// The same for react-spring's integrator: semi-implicit Euler with 1 ms steps on `q`.
static double euler_gap(spring_params p, spring_params q, int *unstable)
{
	double span = compare_span(p, q), worst = 0.0;
	int steps = (int)ceil(span * 1000.0);
	spring_state s = {0.0f, 0.0f};
	*unstable = 0;
	for (int i = 1; i <= steps; i++) {
		if (spring_step_semi_implicit(q, &s, 1.0f, 0.001f) != SPRING_OK) {
			*unstable = 1;
			return INFINITY;
		}
		spring_state e = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)(i * 0.001));
		worst = fmax(worst, fabs((double)s.x - (double)e.x));
	}
	return worst;
}

// A comment line: "the same spring" (within the printed rounding) or how far the curve strays.
// `css`: a CSS comment (/* */), otherwise a // comment.
static void gap_comment(sbuf *b, int css, const char *what, double gap)
{
	char n[40];
	sb_puts(b, css ? "/* " : "// ");
	if (gap < 1e-5) {
		sb_printf(b, "%s: the same spring to the %d digits printed (within 0.001%% of the move)", what, CODE_DIGITS);
	} else {
		sb_printf(b, "%s: its curve strays up to %s%% of the move from this spring", what, fmt_num(n, 100.0 * gap, 2));
	}
	sb_puts(b, css ? " */\n" : "\n");
}

typedef struct code_spring {
	double k, c, m;  // as given (mass-1 forms use k/m, c/m)
	double kn, cn;   // per unit mass
	double zeta;     // damping ratio
	double duration; // SwiftUI duration (2 pi / omega_n)
	double bounce;   // SwiftUI bounce
	spring_params p; // the spring
} code_spring;

// Mass, stiffness and damping as printed, and the spring a platform builds from them (1 when valid).
static int physical_printed(const code_spring *s, char m[40], char k[40], char c[40], spring_params *back)
{
	return spring_params_from_physical((float)printed(m, s->m), (float)printed(k, s->k), (float)printed(c, s->c), back) ==
	       SPRING_OK;
}

static void swiftui(sbuf *b, const code_spring *s)
{
	char d[40], bo[40], m[40], k[40], c[40];
	spring_params back;
	int ok = spring_params_from_duration_bounce((float)printed(d, s->duration), (float)printed(bo, s->bounce), &back) ==
	         SPRING_OK;
	sb_printf(b, "// SwiftUI (iOS 17+): Spring(duration: %s, bounce: %s)\n", d, bo);
	if (ok) {
		gap_comment(b, 0, "duration and bounce", curve_gap(s->p, back));
	}
	sb_printf(b, "withAnimation(.spring(duration: %s, bounce: %s)) {\n    // change the state here\n}\n", d, bo);
	if (s->zeta <= 1.0) {
		spring_params phys;
		ok = physical_printed(s, m, k, c, &phys);
		sb_printf(b, "// the same physics, adding up overlapping animations' velocities instead of replacing them:\n");
		sb_printf(b, "// .interpolatingSpring(mass: %s, stiffness: %s, damping: %s)\n", m, k, c);
		if (ok) {
			gap_comment(b, 0, "mass, stiffness and damping", curve_gap(s->p, phys));
		}
	}
}

static void compose(sbuf *b, const code_spring *s)
{
	char z[40], k[40];
	spring_params back;
	int ok = spring_params_from_damping_ratio(1.0f, (float)printed(k, s->kn), (float)printed(z, s->zeta), &back) == SPRING_OK;
	sb_printf(b, "// Jetpack Compose: spring(dampingRatio, stiffness) with mass 1 (stiffness per unit mass)\n");
	if (ok) {
		gap_comment(b, 0, "damping ratio and stiffness", curve_gap(s->p, back));
	}
	sb_printf(b, "val spec = spring<Float>(dampingRatio = %sf, stiffness = %sf)\n", z, k);
	sb_printf(b, "// e.g. animateFloatAsState(targetValue = target, animationSpec = spec)\n");
}

// The title line of a platform that takes mass, stiffness and damping, then (when `what` is given)
// how far the printed numbers are from the spring. Returns 1 when they make a valid spring.
static int physical_intro(sbuf *b, const code_spring *s, const char *title, const char *what, char m[40], char k[40], char c[40],
                          spring_params *back)
{
	int ok = physical_printed(s, m, k, c, back);
	sb_printf(b, "// %s\n", title);
	if (ok && what) {
		gap_comment(b, 0, what, curve_gap(s->p, *back));
	}
	return ok;
}

static void flutter(sbuf *b, const code_spring *s)
{
	char m[40], k[40], c[40];
	spring_params back;
	physical_intro(b, s, "Flutter: SpringDescription(mass, stiffness, damping)", "mass, stiffness and damping", m, k, c, &back);
	sb_printf(b, "const spring = SpringDescription(mass: %s, stiffness: %s, damping: %s);\n", m, k, c);
	sb_printf(b, "// e.g. controller.animateWith(SpringSimulation(spring, 0, 1, 0));\n");
}

static void motion(sbuf *b, const code_spring *s)
{
	char m[40], k[40], c[40];
	spring_params back;
	physical_intro(b, s, "Motion (motion.dev): a physics spring", "stiffness, damping and mass", m, k, c, &back);
	sb_printf(b, "// Motion ends the animation once within restDelta and slower than restSpeed (0.005 and 0.01\n"
	             "// for moves under 5 units, else 0.5 and 2): set them smaller for a longer tail\n");
	sb_printf(b, "const transition = { type: \"spring\", stiffness: %s, damping: %s, mass: %s };\n", k, c, m);
	// Motion maps bounce to a damping ratio in [0.05, 20].
	if (s->zeta >= 0.05 && s->zeta <= 20.0) {
		char v[40], bo[40];
		spring_params vb;
		int ok = spring_params_from_visual_duration((float)printed(v, spring_visual_duration(s->p)),
		                                            (float)printed(bo, s->bounce), &vb) == SPRING_OK;
		sb_printf(b, "// or by time: { type: \"spring\", visualDuration: %s, bounce: %s }\n", v, bo);
		if (ok) {
			gap_comment(b, 0, "visualDuration and bounce", curve_gap(s->p, vb));
		}
	} else {
		sb_printf(b, "// (no visualDuration and bounce: Motion keeps the damping ratio in [0.05, 20], this one is %s)\n",
		          fmt_num(m, s->zeta, 6));
	}
}

static void react_spring(sbuf *b, const code_spring *s)
{
	char m[40], k[40], c[40];
	spring_params back;
	if (physical_intro(b, s, "react-spring: tension (stiffness), friction (damping), mass", NULL, m, k, c, &back)) {
		int unstable = 0;
		double gap = euler_gap(s->p, back, &unstable);
		if (unstable) {
			sb_printf(b, "// react-spring's integrator (semi-implicit Euler every 1 ms) is unstable for this spring: it "
			             "will blow up\n");
		} else {
			gap_comment(b, 0, "react-spring steps semi-implicit Euler every 1 ms", gap);
		}
	}
	sb_printf(b, "const config = { tension: %s, friction: %s, mass: %s };\n", k, c, m);
	sb_printf(b, "// e.g. useSpring({ to: { x: 1 }, from: { x: 0 }, config })\n");
}

static int css(sbuf *b, const code_spring *s, const char *cmd)
{
	css_linear c;
	int r = css_linear_make(s->p, 10.0, 0.0, &c);
	if (r != CSS_LINEAR_OK) {
		return r == CSS_LINEAR_OUT_OF_MEMORY ? cli_error(cmd, "out of memory") : cli_error(cmd, "cannot sample this spring");
	}
	char n[3][40];
	double duration_ms = c.duration_ms;
	sb_printf(b, "/* CSS: the linear() easing of a 0 -> 1 move, %d stops every %s ms */\n", c.count,
	          fmt_num(n[0], c.resolution_ms, 6));
	gap_comment(b, 1, "linear() between the stops", c.deviation);
	if (c.truncated) {
		sb_printf(b, "/* truncated at 10 s: the spring has not settled by then; the value jumps to the target */\n");
	}
	sb_printf(b, "/* spring css adds @keyframes and a fallback for browsers without linear() */\n");
	sb_printf(b, "transition: transform %sms %s;\n", fmt_num(n[1], duration_ms, 9), c.easing);
	css_linear_free(&c);
	return CLI_OK;
}

static const char *const platforms[] = {"swiftui", "compose", "flutter", "motion", "react-spring", "css"};

int cmd_code(int argc, char **argv)
{
	const char *cmd = "code";
	cli_args a;
	cli_args_init(&a, cmd, 0);
	cli_add_spring_options(&a);
	cli_add(&a, "--for", CLI_STRING, "PLATFORM", CLI_ANY);
	cli_add_outputs(&a, 0, 0);
	int status;
	cli_spring sp;
	if (cli_parse_spring_command(&a, argc, argv, code_help, &sp, &status)) {
		return status;
	}
	const char *target = cli_str(&a, "--for", NULL);
	if (!target) {
		return cli_error(cmd, "--for PLATFORM is needed (swiftui, compose, flutter, motion, react-spring or css)");
	}
	char shown[160], hint[96];
	const int which = cli_lookup_name(target, platforms, (int)(sizeof platforms / sizeof platforms[0]), hint, sizeof hint);
	if (which < 0) {
		return cli_error(cmd, "--for: unknown platform '%s'%s (swiftui, compose, flutter, motion, react-spring or css)",
		                 cli_clean(shown, sizeof shown, target), hint);
	}
	if (cli_flag(&a, "--epsilon")) {
		return cli_error(cmd, "--epsilon: a snippet carries the spring, not a settling threshold");
	}
	code_spring s;
	s.p = sp.p;
	s.k = sp.p.stiffness;
	s.c = sp.p.damping;
	s.m = sp.p.mass;
	s.kn = (double)sp.p.stiffness / (double)sp.p.mass;
	s.cn = (double)sp.p.damping / (double)sp.p.mass;
	s.zeta = spring_damping_ratio(sp.p);
	s.duration = spring_duration(sp.p);
	s.bounce = cli_clean_bounce(spring_bounce(sp.p));
	sbuf b;
	sb_init(&b);
	sb_printf(&b, which == 5 ? "/* spring: %s */\n" : "// spring: %s\n", sp.description);
	switch (which) {
	case 0: swiftui(&b, &s); break;
	case 1: compose(&b, &s); break;
	case 2: flutter(&b, &s); break;
	case 3: motion(&b, &s); break;
	case 4: react_spring(&b, &s); break;
	default:
		if (css(&b, &s, cmd) != CLI_OK) {
			sb_free(&b);
			return CLI_USAGE;
		}
		break;
	}
	if (cli_flag(&a, "--json")) {
		sbuf j;
		sb_init(&j);
		jw w;
		cli_json_begin(&w, &j, cmd);
		cli_json_spring(&w, "spring", &sp);
		jw_str(&w, "for", platforms[which]);
		jw_str(&w, "code", b.data);
		cli_json_end(&w);
		sb_free(&b);
		return cli_output(cmd, &j);
	}
	return cli_output(cmd, &b);
}
