// SPDX-License-Identifier: MIT
// The spring flags every command shares: one parameterisation of the table in tools/io
// (param_table.h, the one the rig-file reader uses too) resolved into spring_params.
#include "cli.h"

#include "param_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// SwiftUI's default duration: the spring when none is given, and the duration --bounce alone keeps.

static int resolve_spring(cli_args *a, int allow_default, cli_spring *out);

// Each field with a spring flag, once per flag (a flag such as --bounce serves two forms).
static int spring_fields(const spring_param_field **out)
{
	int n = 0;
	for (int f = 0; f < SPRING_PARAM_FORM_COUNT; f++) {
		for (int i = 0; i < spring_param_forms[f].field_count; i++) {
			const spring_param_field *field = &spring_param_forms[f].fields[i];
			int seen = 0;
			for (int k = 0; k < n && !seen; k++) {
				seen = strcmp(out[k]->flag, field->flag) == 0;
			}
			if (!seen) {
				out[n++] = field;
			}
		}
	}
	return n;
}

void cli_add_spring_options(cli_args *a)
{
	const spring_param_field *fields[SPRING_PARAM_FORM_COUNT * SPRING_PARAM_MAX_FIELDS];
	int n = spring_fields(fields);
	for (int i = 0; i < n; i++) {
		cli_add(a, fields[i]->flag, CLI_NUMBER, fields[i]->meta, fields[i]->range);
	}
	cli_add(a, "--preset", CLI_STRING, "NAME", CLI_ANY);
	cli_add(a, "--reduced-motion", CLI_FLAG, NULL, CLI_ANY);
	a->has_spring = 1;
}

int cli_spring_flag_count(cli_args *a)
{
	const spring_param_field *fields[SPRING_PARAM_FORM_COUNT * SPRING_PARAM_MAX_FIELDS];
	int n = spring_fields(fields), given = 0;
	for (int i = 0; i < n; i++) {
		given += !fields[i]->shared_flag && cli_flag(a, fields[i]->flag);
	}
	return given + cli_flag(a, "--preset") + cli_flag(a, "--reduced-motion");
}

void cli_print_spring_help(FILE *f)
{
	fprintf(f,
	        "spring (give one parameterisation or a preset; with none, SwiftUI's default duration %g, bounce 0;\n"
	        "--bounce alone keeps that duration):\n",
	        SPRING_PARAM_DEFAULT_DURATION);
	for (int k = 0; k < SPRING_PARAM_FORM_COUNT; k++) {
		const spring_param_form *form = &spring_param_forms[k];
		int order[SPRING_PARAM_MAX_FIELDS];
		int count = spring_param_form_listing(form, order);
		char usage[160];
		size_t o = 0;
		for (int i = 0; i < count && o < sizeof usage; i++) {
			const spring_param_field *field = &form->fields[order[i]];
			if (!field->shared_flag) {
				int optional = spring_param_field_optional(field);
				o += (size_t)snprintf(usage + o, sizeof usage - o, "%s%s%s %s%s", i ? " " : "", optional ? "[" : "", field->flag,
				                      field->meta, optional ? "]" : "");
			}
		}
		// Usage, then the description from column 38 (on the next line when the usage is long).
		fprintf(f, "  %-35s", usage);
		if (strlen(usage) > 40) {
			fprintf(f, "\n%38s", "");
		} else {
			fputc(' ', f);
		}
		for (const char *h = form->help; *h; h++) {
			fputc(*h, f);
			if (*h == '\n') {
				fprintf(f, "%38s", "");
			}
		}
		fputc('\n', f);
	}
	fprintf(f, "  %-35s settling threshold, fraction of the move (default 0.001)\n", "--epsilon E");
	fprintf(f,
	        "  %-35s a platform's named spring: SwiftUI smooth, snappy, bouncy;\n"
	        "%38sMaterial 3 Expressive tokens SCHEME-SPEED-TYPE: standard or\n"
	        "%38sexpressive, fast, default or slow, spatial or effects\n"
	        "%38s(e.g. expressive-default-spatial)\n",
	        "--preset NAME", "", "", "");
	fprintf(f,
	        "  %-35s the spring's reduced-motion form (for Reduce Motion /\n%38sprefers-reduced-motion): critically damped, "
	        "settles in\n%38shalf the time or less\n",
	        "--reduced-motion", "", "");
}

double cli_clean_bounce(double bounce)
{
	return fabs(bounce) < 1e-5 ? 0.0 : bounce;
}

static void add_given(cli_spring *s, const char *key, double v)
{
	if (s->given_count < 4) {
		s->given_name[s->given_count] = key;
		s->given_value[s->given_count] = v;
		s->given_count++;
	}
}

// 1 when every spring flag given belongs to `form`.
static int form_fits(cli_args *a, const spring_param_form *form)
{
	const spring_param_field *fields[SPRING_PARAM_FORM_COUNT * SPRING_PARAM_MAX_FIELDS];
	int n = spring_fields(fields);
	for (int i = 0; i < n; i++) {
		if (!fields[i]->shared_flag && cli_flag(a, fields[i]->flag) && spring_param_form_key_index(form, fields[i]->key) < 0) {
			return 0;
		}
	}
	return 1;
}

// The form whose primary flag was given (NULL: none); CLI_USAGE after the error when two were.
// Forms sharing a primary flag (--stiffness with --damping or with --damping-ratio) are told
// apart by their partners: the first that takes every flag given, else the first.
static int chosen_form(cli_args *a, const spring_param_form **out)
{
	*out = NULL;
	for (int k = 0; k < SPRING_PARAM_FORM_COUNT; k++) {
		const spring_param_form *form = &spring_param_forms[k];
		cli_opt *o = cli_find(a, form->fields[form->primary].flag);
		if (!o || !o->seen) {
			continue;
		}
		if (*out && strcmp((*out)->fields[(*out)->primary].flag, o->name) == 0) {
			if (!form_fits(a, *out) && form_fits(a, form)) {
				*out = form;
			}
			continue;
		}
		if (*out) {
			// Named in the order given.
			const cli_opt *first = cli_find(a, (*out)->fields[(*out)->primary].flag);
			const cli_opt *a1 = first->position < o->position ? first : o, *a2 = a1 == o ? first : o;
			return cli_error(a->command, "%s and %s are two different parameterisations: give one", a1->name, a2->name);
		}
		*out = form;
	}
	return CLI_OK;
}

static int is_primary(const char *flag)
{
	for (int k = 0; k < SPRING_PARAM_FORM_COUNT; k++) {
		if (strcmp(spring_param_forms[k].fields[spring_param_forms[k].primary].flag, flag) == 0) {
			return 1;
		}
	}
	return 0;
}

// Another form with the same primary flag as `form` (--stiffness: with --damping or with
// --damping-ratio), NULL when none.
static const spring_param_form *sibling_form(const spring_param_form *form)
{
	for (int k = 0; k < SPRING_PARAM_FORM_COUNT; k++) {
		const spring_param_form *other = &spring_param_forms[k];
		if (other != form && strcmp(other->fields[other->primary].flag, form->fields[form->primary].flag) == 0) {
			return other;
		}
	}
	return NULL;
}

// The first required field of `form` that `sibling` lacks (--damping for the physical form).
static const spring_param_field *own_required(const spring_param_form *form, const spring_param_form *sibling)
{
	for (int i = 0; i < form->field_count; i++) {
		const spring_param_field *f = &form->fields[i];
		if (!spring_param_field_optional(f) && spring_param_form_key_index(sibling, f->key) < 0) {
			return f;
		}
	}
	return NULL;
}

// Every partner flag given must belong to `form`; CLI_USAGE after the error otherwise.
static int check_partners(cli_args *a, const spring_param_form *form)
{
	const spring_param_field *fields[SPRING_PARAM_FORM_COUNT * SPRING_PARAM_MAX_FIELDS];
	int n = spring_fields(fields);
	for (int i = 0; i < n; i++) {
		const char *flag = fields[i]->flag;
		if (fields[i]->shared_flag || !cli_flag(a, flag) || is_primary(flag) ||
		    (form && spring_param_form_key_index(form, fields[i]->key) >= 0)) {
			continue;
		}
		char owners[160] = "";
		for (int k = 0; k < SPRING_PARAM_FORM_COUNT; k++) {
			const spring_param_form *owner = &spring_param_forms[k];
			const spring_param_form *sibling = sibling_form(owner);
			if (spring_param_form_key_index(owner, fields[i]->key) >= 0 &&
			    !(sibling && sibling < owner && spring_param_form_key_index(sibling, fields[i]->key) >= 0)) {
				if (owners[0]) {
					strncat(owners, " or ", sizeof owners - strlen(owners) - 1);
				}
				strncat(owners, owner->fields[owner->primary].flag, sizeof owners - strlen(owners) - 1);
			}
		}
		const spring_param_form *sibling = form ? sibling_form(form) : NULL;
		if (sibling && spring_param_form_key_index(sibling, fields[i]->key) >= 0 && own_required(form, sibling)) {
			return cli_error(a->command, "%s takes %s or %s, not both", form->fields[form->primary].flag,
			                 own_required(form, sibling)->flag, flag);
		}
		if (form) {
			return cli_error(a->command, "%s does not go with %s (it goes with %s)", flag, form->fields[form->primary].flag,
			                 owners);
		}
		return cli_error(a->command, "%s needs %s", flag, owners);
	}
	return CLI_OK;
}

// Why the library refused a form's values, where the CLI can say more than the result code.
static const struct {
	spring_param_form_id form;
	spring_result code;
	const char *why;
} refusals[] = {
	{SPRING_PARAM_ORIGAMI, SPRING_ERROR_OUT_OF_RANGE,
     "no spring (stiffness (T - 30) * 3.62 + 194 must be > 0 and damping (F - 8) * 3 + 25 >= 0)"},
	{SPRING_PARAM_PER_FRAME, SPRING_ERROR_UNSTABLE, "the legacy loop itself is unstable (D * S + 2 * (1 - D) >= 4)"},
};

int cli_parse_spring_command(cli_args *a, int argc, char **argv, const char *help, cli_spring *out, int *status)
{
	if (cli_parse_command(a, argc, argv, help, status)) {
		return 1;
	}
	*status = cli_check_outputs(a);
	if (*status == CLI_OK) {
		*status = cli_resolve_spring(a, 1, out) == CLI_OK ? CLI_OK : CLI_USAGE;
	}
	return *status != CLI_OK;
}

// --preset NAME: the library's named spring, described by the form it is published in.
static int resolve_preset(cli_args *a, cli_spring *out)
{
	const char *given = cli_str(a, "--preset", "");
	char shown[160];
	cli_clean(shown, sizeof shown, given);
	enum { MAX_PRESETS = 64 };
	const char *presets[MAX_PRESETS];
	int count = 0;
	while (count < MAX_PRESETS && spring_preset_name(count)) {
		presets[count] = spring_preset_name(count);
		count++;
	}
	char hint[96];
	const int which = cli_lookup_name(given, presets, count, hint, sizeof hint);
	const char *name = which >= 0 ? presets[which] : given; // the preset's own spelling
	if (which < 0 || spring_params_from_preset(name, &out->p) != SPRING_OK) {
		char names[600] = "";
		for (int i = 0; i < count; i++) {
			strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
			strncat(names, presets[i], sizeof names - strlen(names) - 1);
		}
		return cli_error(a->command, "--preset: no preset is called '%s'%s (the presets: %s)", shown, hint, names);
	}
	snprintf(out->kind, sizeof out->kind, "preset");
	snprintf(out->preset, sizeof out->preset, "%s", name);
	// Described, and given (a rig file's spring object), in the form it is published in: SwiftUI's
	// duration and bounce, or a Material token's stiffness and damping ratio (mass 1), to 6 digits.
	int material = strchr(name, '-') != NULL;
	const char *keys[2] = {material ? "stiffness" : "duration", material ? "damping_ratio" : "bounce"};
	double values[2] = {material ? out->p.stiffness : spring_duration(out->p),
	                    material ? spring_damping_ratio(out->p) : cli_clean_bounce(spring_bounce(out->p))};
	char n[2][40];
	for (int i = 0; i < 2; i++) {
		add_given(out, keys[i], strtod(fmt_num(n[i], values[i], 6), NULL));
	}
	if (material) {
		snprintf(out->description, sizeof out->description,
		         "preset %s (Material 3 Expressive token: stiffness %s N/m, damping ratio %s)", name, n[0], n[1]);
	} else {
		snprintf(out->description, sizeof out->description, "preset %s (SwiftUI .%s: duration %s s, bounce %s)", name, name, n[0],
		         n[1]);
	}
	return CLI_OK;
}

// --reduced-motion: the resolved spring turned into its reduced-motion form.
static int apply_reduced_motion(cli_args *a, cli_spring *out)
{
	if (!cli_flag(a, "--reduced-motion")) {
		return CLI_OK;
	}
	spring_result r = spring_params_reduced_motion(out->p, &out->p);
	if (r != SPRING_OK) {
		return cli_error(a->command, "--reduced-motion: %s has no reduced-motion form (%s)", out->description,
		                 spring_result_string(r));
	}
	out->reduced_motion = 1;
	size_t len = strlen(out->description);
	snprintf(out->description + len, sizeof out->description - len, ", reduced motion");
	return CLI_OK;
}

// 1 when --bounce is the only spring flag given (it then keeps SwiftUI's default duration).
static int bounce_alone(cli_args *a)
{
	return cli_flag(a, "--bounce") && cli_spring_flag_count(a) - cli_flag(a, "--reduced-motion") == 1;
}

int cli_resolve_spring(cli_args *a, int allow_default, cli_spring *out)
{
	int status = resolve_spring(a, allow_default, out);
	return status == CLI_OK ? apply_reduced_motion(a, out) : status;
}

// The commonest unit mistake: milliseconds given for seconds (--duration 500). A time of
// SPRING_CLI_PLAUSIBLE_SECONDS or more is taken as given, with a note on stderr.
#define SPRING_CLI_PLAUSIBLE_SECONDS 10.0
static void note_milliseconds(const cli_args *a, const spring_param_field *field, double seconds)
{
	if (field->seconds && seconds >= SPRING_CLI_PLAUSIBLE_SECONDS) {
		char given[40], meant[40];
		fprintf(stderr, "spring: %s: note: %s %s is %s seconds; did you mean %s s (%s milliseconds)?\n", a->command, field->flag,
		        fmt_num(given, seconds, 6), given, fmt_num(meant, seconds / 1000.0, 6), given);
	}
}

static int resolve_spring(cli_args *a, int allow_default, cli_spring *out)
{
	memset(out, 0, sizeof *out);
	const spring_param_form *form = NULL;
	if (cli_flag(a, "--preset")) {
		int others = cli_spring_flag_count(a) - 1 - cli_flag(a, "--reduced-motion");
		if (others > 0) {
			return cli_error(a->command, "--preset is a whole spring: give it without other spring flags");
		}
	}
	if (chosen_form(a, &form) != CLI_OK) {
		return CLI_USAGE;
	}
	int implicit_duration = !form && bounce_alone(a);
	if (implicit_duration) {
		form = &spring_param_forms[SPRING_PARAM_DURATION];
	}
	if (check_partners(a, form) != CLI_OK) {
		return CLI_USAGE;
	}
	const spring_param_form *settling = &spring_param_forms[SPRING_PARAM_SETTLING];
	const spring_param_field *epsilon = &settling->fields[spring_param_form_key_index(settling, "epsilon")];
	out->epsilon = cli_num(a, epsilon->flag, epsilon->fallback);
	if (cli_flag(a, "--preset")) {
		return resolve_preset(a, out);
	}
	double v[SPRING_PARAM_MAX_FIELDS] = {0.0, 0.0, 0.0};
	if (!form) {
		if (!allow_default) {
			return cli_error(a->command, "no spring given (for example --duration 0.5 --bounce 0.3; see --help)");
		}
		form = &spring_param_forms[SPRING_PARAM_DURATION];
		v[0] = SPRING_PARAM_DEFAULT_DURATION;
		v[1] = form->fields[1].fallback;
		snprintf(out->kind, sizeof out->kind, "default");
		snprintf(out->description, sizeof out->description, "SwiftUI default: duration %g s, bounce 0",
		         SPRING_PARAM_DEFAULT_DURATION);
	} else {
		int order[SPRING_PARAM_MAX_FIELDS];
		int count = spring_param_form_listing(form, order);
		for (int i = 0; i < count; i++) {
			const spring_param_field *field = &form->fields[order[i]];
			if (cli_flag(a, field->flag)) {
				v[order[i]] = cli_num(a, field->flag, 0.0);
				note_milliseconds(a, field, v[order[i]]);
			} else if (implicit_duration && order[i] == form->primary) {
				v[order[i]] = SPRING_PARAM_DEFAULT_DURATION;
			} else if (spring_param_field_optional(field)) {
				v[order[i]] = field->fallback;
			} else {
				const spring_param_form *sibling = sibling_form(form);
				const spring_param_field *other = sibling ? own_required(sibling, form) : NULL;
				if (other && !form_fits(a, sibling)) {
					other = NULL; // a partner of this form was given: it alone is missing
				}
				return cli_error(a->command, "%s needs %s%s%s", form->fields[form->primary].flag, field->flag,
				                 other ? " or " : "", other ? other->flag : "");
			}
		}
		char n[SPRING_PARAM_MAX_FIELDS][40];
		for (int i = 0; i < SPRING_PARAM_MAX_FIELDS; i++) {
			fmt_num(n[i], v[i], 6);
		}
		snprintf(out->kind, sizeof out->kind, "%s", form->name);
		snprintf(out->description, sizeof out->description, form->summary, n[0], n[1], n[2]);
	}
	for (int i = 0; i < form->field_count; i++) {
		add_given(out, form->fields[i].key, v[i]);
	}
	if (form == settling && !(v[1] > 0.0)) {
		return cli_error(a->command, "--damping-ratio: must be > 0 with --settling (an undamped spring never settles)");
	}
	spring_result r = spring_param_form_convert(form, v, &out->p);
	if (r == SPRING_OK) {
		return CLI_OK;
	}
	// Name the flags as given.
	char flags[256];
	size_t used = 0;
	int order[SPRING_PARAM_MAX_FIELDS];
	int count = spring_param_form_listing(form, order);
	flags[0] = '\0';
	for (int i = 0; i < count && used < sizeof flags; i++) {
		const spring_param_field *field = &form->fields[order[i]];
		if (!field->shared_flag) {
			char nv[40];
			used += (size_t)snprintf(flags + used, sizeof flags - used, "%s%s %s", i ? " " : "", field->flag,
			                         fmt_num(nv, v[order[i]], 6));
		}
	}
	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		if (form == &spring_param_forms[refusals[i].form] && r == refusals[i].code) {
			return cli_error(a->command, "%s: %s", flags, refusals[i].why);
		}
	}
	if (r == SPRING_ERROR_NO_SOLUTION) {
		char ne[40];
		return cli_error(a->command, "%s: no spring has these parameters (epsilon %s)", flags, fmt_num(ne, out->epsilon, 6));
	}
	return cli_error(a->command, "%s: gives no usable spring (%s)", flags, spring_result_string(r));
}

void cli_json_spring(jw *w, const char *key, const cli_spring *s)
{
	jw_object(w, key);
	jw_str(w, "parameterisation", s->kind);
	jw_str(w, "description", s->description);
	if (s->preset[0]) {
		jw_str(w, "preset", s->preset);
	}
	if (s->reduced_motion) {
		jw_bool(w, "reduced_motion", 1);
	}
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
