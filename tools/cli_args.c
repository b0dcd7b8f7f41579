// Argument parsing for the `spring` commands, and the spring parameterisation flags they share.
#include "cli.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_args_init(cli_args *a, const char *command, int max_positional)
{
	memset(a, 0, sizeof *a);
	a->command = command;
	a->max_positional = max_positional;
}

int cli_add(cli_args *a, const char *name, cli_kind kind, const char *meta, cli_range range)
{
	if (a->count >= CLI_MAX_OPTS) {
		return -1; // a programming error; the option simply stays unknown
	}
	cli_opt *o = &a->opts[a->count];
	memset(o, 0, sizeof *o);
	o->name = name;
	o->kind = kind;
	o->meta = meta;
	o->range = range;
	return a->count++;
}

cli_opt *cli_find(cli_args *a, const char *name)
{
	for (int i = 0; i < a->count; i++) {
		if (strcmp(a->opts[i].name, name) == 0) {
			return &a->opts[i];
		}
	}
	return NULL;
}

static void range_text(char *buf, size_t size, cli_range r)
{
	char lo[40], hi[40];
	fmt_num(lo, r.lo, 6);
	fmt_num(hi, r.hi, 6);
	int has_lo = r.lo > -1e29, has_hi = r.hi < 1e29;
	if (has_lo && has_hi) {
		snprintf(buf, size, "in %c%s, %s%c", r.lo_open ? '(' : '[', lo, hi, r.hi_open ? ')' : ']');
	} else if (has_lo) {
		snprintf(buf, size, "%s %s", r.lo_open ? ">" : ">=", lo);
	} else if (has_hi) {
		snprintf(buf, size, "%s %s", r.hi_open ? "<" : "<=", hi);
	} else {
		snprintf(buf, size, "a number");
	}
}

static int in_range(double v, cli_range r)
{
	if (r.lo_open ? !(v > r.lo) : !(v >= r.lo)) {
		return 0;
	}
	if (r.hi_open ? !(v < r.hi) : !(v <= r.hi)) {
		return 0;
	}
	return 1;
}

// Strict number: the whole text, no leading space, finite, within float range.
static int parse_number(const char *command, const char *flag, const char *text, cli_range range, double *out)
{
	char shown[160];
	cli_clean(shown, sizeof shown, text);
	if (text[0] == '\0') {
		return cli_error(command, "%s: empty value (expected a number)", flag);
	}
	if (text[0] == ' ' || text[0] == '\t' || text[0] == '\n' || text[0] == '\r' || text[0] == '\v' || text[0] == '\f') {
		return cli_error(command, "%s: '%s' is not a number", flag, shown);
	}
	errno = 0;
	char *end = NULL;
	double v = strtod(text, &end);
	if (end == text || *end != '\0') {
		return cli_error(command, "%s: '%s' is not a number", flag, shown);
	}
	if (isnan(v)) {
		return cli_error(command, "%s: '%s' is not a finite number (NaN)", flag, shown);
	}
	if (isinf(v) || fabs(v) > (double)FLT_MAX) {
		return cli_error(command, "%s: '%s' is not a finite number (too large)", flag, shown);
	}
	if (!in_range(v, range)) {
		char r[96];
		range_text(r, sizeof r, range);
		return cli_error(command, "%s: %s is out of range (must be %s)", flag, shown, r);
	}
	*out = v == 0.0 ? 0.0 : v;
	return CLI_OK;
}

int cli_parse_list(const char *command, const char *flag, const char *text, double *out, int max, int *count,
                   cli_range range)
{
	char buf[1024];
	char shown[160];
	size_t n = strlen(text);
	if (n >= sizeof buf) {
		return cli_error(command, "%s: list too long", flag);
	}
	memcpy(buf, text, n + 1);
	int k = 0;
	char *p = buf;
	for (;;) {
		char *comma = strchr(p, ',');
		if (comma) {
			*comma = '\0';
		}
		if (k >= max) {
			return cli_error(command, "%s: at most %d values ('%s')", flag, max, cli_clean(shown, sizeof shown, text));
		}
		if (parse_number(command, flag, p, range, &out[k]) != CLI_OK) {
			return CLI_USAGE;
		}
		k++;
		if (!comma) {
			break;
		}
		p = comma + 1;
	}
	*count = k;
	return CLI_OK;
}

int cli_parse(cli_args *a, int argc, char **argv, int first)
{
	char shown[160];
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			break;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			a->help = 1;
			return CLI_OK;
		}
	}
	int only_positional = 0;
	for (int i = first; i < argc; i++) {
		const char *arg = argv[i];
		if (!only_positional && strcmp(arg, "--") == 0) {
			only_positional = 1;
			continue;
		}
		if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
			if (a->positional_count >= a->max_positional) {
				if (a->max_positional == 0) {
					return cli_error(a->command, "unexpected argument '%s'", cli_clean(shown, sizeof shown, arg));
				}
				return cli_error(a->command, "unexpected extra argument '%s'", cli_clean(shown, sizeof shown, arg));
			}
			a->positional[a->positional_count++] = arg;
			continue;
		}
		if (arg[1] != '-') {
			return cli_error(a->command, "unknown option '%s' (options are spelled --name)", cli_clean(shown, sizeof shown, arg));
		}
		// --name or --name=value
		char name[64];
		const char *eq = strchr(arg, '=');
		size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
		if (len >= sizeof name) {
			return cli_error(a->command, "unknown option '%s'", cli_clean(shown, sizeof shown, arg));
		}
		memcpy(name, arg, len);
		name[len] = '\0';
		cli_opt *o = cli_find(a, name);
		if (!o) {
			return cli_error(a->command, "unknown option '%s' (see spring %s --help)", cli_clean(shown, sizeof shown, name),
			                 a->command);
		}
		if (o->seen) {
			return cli_error(a->command, "%s given twice", o->name);
		}
		o->seen = 1;
		if (o->kind == CLI_FLAG) {
			if (eq) {
				return cli_error(a->command, "%s takes no value", o->name);
			}
			continue;
		}
		const char *value;
		if (eq) {
			value = eq + 1;
		} else {
			if (i + 1 >= argc) {
				return cli_error(a->command, "%s needs a value (%s)", o->name, o->meta ? o->meta : "a value");
			}
			value = argv[++i];
		}
		if (o->kind == CLI_NUMBER) {
			if (parse_number(a->command, o->name, value, o->range, &o->number) != CLI_OK) {
				return CLI_USAGE;
			}
		} else {
			if (value[0] == '\0') {
				return cli_error(a->command, "%s: empty value", o->name);
			}
			if (!eq && value[0] == '-' && value[1] == '-') {
				return cli_error(a->command, "%s needs a value (%s), got the option '%s'", o->name, o->meta ? o->meta : "a value",
				                 cli_clean(shown, sizeof shown, value));
			}
			o->string = value;
		}
	}
	return CLI_OK;
}

double cli_num(cli_args *a, const char *name, double fallback)
{
	cli_opt *o = cli_find(a, name);
	return o && o->seen && o->kind == CLI_NUMBER ? o->number : fallback;
}

const char *cli_str(cli_args *a, const char *name, const char *fallback)
{
	cli_opt *o = cli_find(a, name);
	return o && o->seen && o->kind == CLI_STRING ? o->string : fallback;
}

int cli_flag(cli_args *a, const char *name)
{
	cli_opt *o = cli_find(a, name);
	return o && o->seen;
}

// ---------------------------------------------------------------------------------------------
// Spring flags

typedef struct spring_flag {
	const char *name;
	const char *json;
	const char *meta;
	cli_range range;
} spring_flag;

static const spring_flag spring_flags[] = {
	{"--duration", "duration", "S", {0.0, 1e30, 1, 0}},
	{"--bounce", "bounce", "B", {-1.0, 1.0, 1, 0}},
	{"--response", "response", "S", {0.0, 1e30, 1, 0}},
	{"--damping-fraction", "damping_fraction", "Z", {0.0, 1e30, 0, 0}},
	{"--frequency", "frequency", "HZ", {0.0, 1e30, 1, 0}},
	{"--damping-ratio", "damping_ratio", "Z", {0.0, 1e30, 0, 0}},
	{"--stiffness", "stiffness", "K", {0.0, 1e30, 1, 0}},
	{"--damping", "damping", "C", {0.0, 1e30, 0, 0}},
	{"--mass", "mass", "M", {0.0, 1e30, 1, 0}},
	{"--settling", "settling", "S", {0.0, 1e30, 1, 0}},
	{"--visual-duration", "visual_duration", "S", {0.0, 1e30, 1, 0}},
	{"--half-life", "half_life", "S", {0.0, 1e30, 1, 0}},
	{"--tension", "tension", "T", {0.0, 1e30, 1, 0}},
	{"--friction", "friction", "F", {0.0, 1e30, 0, 0}},
	{"--origami-tension", "origami_tension", "T", {-1e30, 1e30, 0, 0}},
	{"--origami-friction", "origami_friction", "F", {-1e30, 1e30, 0, 0}},
	{"--per-frame-stiffness", "per_frame_stiffness", "S", {0.0, 1e30, 1, 0}},
	{"--per-frame-damping", "per_frame_damping", "D", {0.0, 1.0, 1, 0}},
	{"--per-frame-fps", "per_frame_fps", "FPS", {0.0, 1e30, 1, 0}},
};
enum { spring_flag_count = (int)(sizeof spring_flags / sizeof spring_flags[0]) };

// A parameterisation: its leading flag and its partners (default NAN = required).
typedef struct spring_group {
	const char *primary;
	const char *kind;
	const char *partners[2];
	double defaults[2];
} spring_group;

static const spring_group spring_groups[] = {
	{"--duration", "duration-bounce", {"--bounce", NULL}, {0.0, 0.0}},
	{"--visual-duration", "visual-duration-bounce", {"--bounce", NULL}, {0.0, 0.0}},
	{"--response", "response-damping-fraction", {"--damping-fraction", NULL}, {NAN, 0.0}},
	{"--frequency", "frequency-damping-ratio", {"--damping-ratio", NULL}, {NAN, 0.0}},
	{"--stiffness", "physical", {"--damping", "--mass"}, {NAN, 1.0}},
	{"--settling", "settling-damping-ratio", {"--damping-ratio", NULL}, {NAN, 0.0}},
	{"--half-life", "half-life", {NULL, NULL}, {0.0, 0.0}},
	{"--tension", "tension-friction", {"--friction", NULL}, {NAN, 0.0}},
	{"--origami-tension", "origami", {"--origami-friction", NULL}, {NAN, 0.0}},
	{"--per-frame-stiffness", "per-frame", {"--per-frame-damping", "--per-frame-fps"}, {NAN, NAN}},
};
enum { spring_group_count = (int)(sizeof spring_groups / sizeof spring_groups[0]) };

const char cli_spring_help[] =
	"spring (give one parameterisation; with none, SwiftUI's default duration 0.5, bounce 0):\n"
	"  --duration S [--bounce B]           SwiftUI Spring(duration:bounce:); bounce in (-1, 1], default 0\n"
	"  --response S --damping-fraction Z   SwiftUI spring(response:dampingFraction:), react-spring\n"
	"                                      {frequency, damping}\n"
	"  --frequency HZ --damping-ratio Z    natural frequency (Hz) and damping ratio\n"
	"  --stiffness K --damping C [--mass M] physical (N/m, N*s/m, kg); mass default 1\n"
	"  --settling S --damping-ratio Z      SwiftUI Spring(settlingDuration:dampingRatio:epsilon:)\n"
	"                                      (epsilon from --epsilon)\n"
	"  --visual-duration S [--bounce B]    Motion {visualDuration, bounce}; bounce default 0\n"
	"  --half-life S                       critically damped, the gap halves every S seconds\n"
	"  --tension T --friction F            react-spring / Rebound tension and friction (mass 1)\n"
	"  --origami-tension T --origami-friction F   Origami (Facebook Rebound) slider values\n"
	"  --per-frame-stiffness S --per-frame-damping D --per-frame-fps N\n"
	"                                      legacy per-frame loop (v += (t - x) S; v *= D; x += v)\n"
	"  --epsilon E                         settling threshold, fraction of the move (default 0.001)\n";

void cli_add_spring_options(cli_args *a)
{
	for (int i = 0; i < spring_flag_count; i++) {
		cli_add(a, spring_flags[i].name, CLI_NUMBER, spring_flags[i].meta, spring_flags[i].range);
	}
	cli_add(a, "--epsilon", CLI_NUMBER, "E", (cli_range){0.0, 1.0, 1, 1});
}

static const spring_flag *flag_info(const char *name)
{
	for (int i = 0; i < spring_flag_count; i++) {
		if (strcmp(spring_flags[i].name, name) == 0) {
			return &spring_flags[i];
		}
	}
	return NULL;
}

static const spring_group *group_of_primary(const char *name)
{
	for (int g = 0; g < spring_group_count; g++) {
		if (strcmp(spring_groups[g].primary, name) == 0) {
			return &spring_groups[g];
		}
	}
	return NULL;
}

int cli_spring_flag_count(cli_args *a)
{
	int n = 0;
	for (int i = 0; i < spring_flag_count; i++) {
		n += cli_flag(a, spring_flags[i].name);
	}
	return n;
}

double cli_clean_bounce(double bounce)
{
	return fabs(bounce) < 1e-5 ? 0.0 : bounce;
}

static void add_given(cli_spring *s, const char *flag, double v)
{
	const spring_flag *f = flag_info(flag);
	if (s->given_count < 4) {
		s->given_name[s->given_count] = f ? f->json : flag + 2;
		s->given_value[s->given_count] = v;
		s->given_count++;
	}
}

int cli_resolve_spring(cli_args *a, int allow_default, cli_spring *out)
{
	memset(out, 0, sizeof *out);
	out->epsilon = cli_num(a, "--epsilon", 0.001);
	const spring_group *g = NULL;
	for (int i = 0; i < spring_group_count; i++) {
		if (cli_flag(a, spring_groups[i].primary)) {
			if (g) {
				return cli_error(a->command, "%s and %s are two different parameterisations: give one", g->primary,
				                 spring_groups[i].primary);
			}
			g = &spring_groups[i];
		}
	}
	// Partners must belong to the chosen parameterisation.
	for (int i = 0; i < spring_flag_count; i++) {
		const char *name = spring_flags[i].name;
		if (!cli_flag(a, name) || group_of_primary(name)) {
			continue;
		}
		int belongs = g && ((g->partners[0] && strcmp(g->partners[0], name) == 0) ||
		                    (g->partners[1] && strcmp(g->partners[1], name) == 0));
		if (!belongs) {
			char owners[160] = "";
			for (int k = 0; k < spring_group_count; k++) {
				for (int j = 0; j < 2; j++) {
					if (spring_groups[k].partners[j] && strcmp(spring_groups[k].partners[j], name) == 0) {
						if (owners[0]) {
							strncat(owners, " or ", sizeof owners - strlen(owners) - 1);
						}
						strncat(owners, spring_groups[k].primary, sizeof owners - strlen(owners) - 1);
					}
				}
			}
			if (g) {
				return cli_error(a->command, "%s does not go with %s (it goes with %s)", name, g->primary, owners);
			}
			return cli_error(a->command, "%s needs %s", name, owners);
		}
	}
	if (!g) {
		if (!allow_default) {
			return cli_error(a->command, "no spring given (for example --duration 0.5 --bounce 0.3; see --help)");
		}
		spring_params_from_duration_bounce(0.5f, 0.0f, &out->p);
		snprintf(out->kind, sizeof out->kind, "default");
		snprintf(out->description, sizeof out->description, "SwiftUI default: duration 0.5 s, bounce 0");
		add_given(out, "--duration", 0.5);
		add_given(out, "--bounce", 0.0);
		return CLI_OK;
	}
	double v[3];
	v[0] = cli_num(a, g->primary, 0.0);
	for (int j = 0; j < 2; j++) {
		if (!g->partners[j]) {
			v[j + 1] = 0.0;
			continue;
		}
		if (cli_flag(a, g->partners[j])) {
			v[j + 1] = cli_num(a, g->partners[j], 0.0);
		} else if (isnan(g->defaults[j])) {
			return cli_error(a->command, "%s needs %s", g->primary, g->partners[j]);
		} else {
			v[j + 1] = g->defaults[j];
		}
	}
	snprintf(out->kind, sizeof out->kind, "%s", g->kind);
	spring_result r = SPRING_OK;
	const char *k = g->kind;
	char n0[40], n1[40], n2[40], n3[40];
	fmt_num(n0, v[0], 6);
	fmt_num(n1, v[1], 6);
	fmt_num(n2, v[2], 6);
	fmt_num(n3, out->epsilon, 6);
	if (strcmp(k, "duration-bounce") == 0) {
		r = spring_params_from_duration_bounce((float)v[0], (float)v[1], &out->p);
		snprintf(out->description, sizeof out->description, "duration %s s, bounce %s", n0, n1);
		add_given(out, "--duration", v[0]);
		add_given(out, "--bounce", v[1]);
	} else if (strcmp(k, "visual-duration-bounce") == 0) {
		r = spring_params_from_visual_duration((float)v[0], (float)v[1], &out->p);
		snprintf(out->description, sizeof out->description, "visual duration %s s, bounce %s", n0, n1);
		add_given(out, "--visual-duration", v[0]);
		add_given(out, "--bounce", v[1]);
	} else if (strcmp(k, "response-damping-fraction") == 0) {
		r = spring_params_from_response((float)v[0], (float)v[1], &out->p);
		snprintf(out->description, sizeof out->description, "response %s s, damping fraction %s", n0, n1);
		add_given(out, "--response", v[0]);
		add_given(out, "--damping-fraction", v[1]);
	} else if (strcmp(k, "frequency-damping-ratio") == 0) {
		r = spring_params_from_frequency((float)v[0], (float)v[1], &out->p);
		snprintf(out->description, sizeof out->description, "%s Hz, damping ratio %s", n0, n1);
		add_given(out, "--frequency", v[0]);
		add_given(out, "--damping-ratio", v[1]);
	} else if (strcmp(k, "physical") == 0) {
		r = spring_params_from_physical((float)v[2], (float)v[0], (float)v[1], &out->p);
		snprintf(out->description, sizeof out->description, "mass %s kg, stiffness %s N/m, damping %s N*s/m", n2, n0, n1);
		add_given(out, "--mass", v[2]);
		add_given(out, "--stiffness", v[0]);
		add_given(out, "--damping", v[1]);
	} else if (strcmp(k, "settling-damping-ratio") == 0) {
		if (!(v[1] > 0.0)) {
			return cli_error(a->command, "--damping-ratio: must be > 0 with --settling (an undamped spring never settles)");
		}
		r = spring_params_from_settling((float)v[0], (float)v[1], (float)out->epsilon, &out->p);
		snprintf(out->description, sizeof out->description, "settling %s s, damping ratio %s, epsilon %s", n0, n1, n3);
		add_given(out, "--settling", v[0]);
		add_given(out, "--damping-ratio", v[1]);
		add_given(out, "--epsilon", out->epsilon);
	} else if (strcmp(k, "half-life") == 0) {
		r = spring_params_from_half_life((float)v[0], &out->p);
		snprintf(out->description, sizeof out->description, "half-life %s s (critically damped)", n0);
		add_given(out, "--half-life", v[0]);
	} else if (strcmp(k, "tension-friction") == 0) {
		r = spring_params_from_tension_friction((float)v[0], (float)v[1], &out->p);
		snprintf(out->description, sizeof out->description, "tension %s, friction %s (mass 1)", n0, n1);
		add_given(out, "--tension", v[0]);
		add_given(out, "--friction", v[1]);
	} else if (strcmp(k, "origami") == 0) {
		r = spring_params_from_origami((float)v[0], (float)v[1], &out->p);
		snprintf(out->description, sizeof out->description, "Origami tension %s, friction %s", n0, n1);
		add_given(out, "--origami-tension", v[0]);
		add_given(out, "--origami-friction", v[1]);
		if (r == SPRING_ERROR_OUT_OF_RANGE) {
			return cli_error(a->command,
			                 "--origami-tension %s --origami-friction %s: no spring (stiffness (T - 30) * 3.62 + 194 must "
			                 "be > 0 and damping (F - 8) * 3 + 25 >= 0)",
			                 n0, n1);
		}
	} else if (strcmp(k, "per-frame") == 0) {
		r = spring_params_from_per_frame((float)v[0], (float)v[1], (float)v[2], &out->p);
		snprintf(out->description, sizeof out->description, "per-frame stiffness %s, damping %s at %s fps", n0, n1, n2);
		add_given(out, "--per-frame-stiffness", v[0]);
		add_given(out, "--per-frame-damping", v[1]);
		add_given(out, "--per-frame-fps", v[2]);
		if (r == SPRING_ERROR_UNSTABLE) {
			return cli_error(a->command,
			                 "--per-frame-stiffness %s --per-frame-damping %s: the legacy loop itself is unstable "
			                 "(D * S + 2 * (1 - D) >= 4)",
			                 n0, n1);
		}
	}
	if (r != SPRING_OK) {
		// Name the flags as given.
		char flags[256];
		int used = snprintf(flags, sizeof flags, "%s %s", g->primary, n0);
		for (int j = 0; j < 2 && used > 0 && (size_t)used < sizeof flags; j++) {
			if (g->partners[j]) {
				char nv[40];
				used += snprintf(flags + used, sizeof flags - (size_t)used, " %s %s", g->partners[j], fmt_num(nv, v[j + 1], 6));
			}
		}
		if (r == SPRING_ERROR_NO_SOLUTION) {
			return cli_error(a->command, "%s: no spring has these parameters (epsilon %s)", flags, n3);
		}
		return cli_error(a->command, "%s: gives no usable spring (%s)", flags, spring_result_string(r));
	}
	return CLI_OK;
}

void cli_json_spring(jw *w, const char *key, const cli_spring *s)
{
	jw_object(w, key);
	jw_str(w, "parameterisation", s->kind);
	jw_str(w, "description", s->description);
	jw_object(w, "given");
	for (int i = 0; i < s->given_count; i++) {
		jw_num(w, s->given_name[i], s->given_value[i]);
	}
	jw_object_end(w);
	jw_num(w, "mass", s->p.mass);
	jw_num(w, "stiffness", s->p.stiffness);
	jw_num(w, "damping", s->p.damping);
	jw_object_end(w);
}
