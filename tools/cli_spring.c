// SPDX-License-Identifier: MIT
// The spring flags every command shares: one parameterisation of the table in tools/io
// (param_table.h, the one the rig-file reader uses too) resolved into spring_params.
#include "cli.h"

#include "param_table.h"

#include <math.h>
#include <string.h>

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
		const spring_param_range r = fields[i]->range;
		cli_add(a, fields[i]->flag, CLI_NUMBER, fields[i]->meta, (cli_range){r.lo, r.hi, r.lo_open, r.hi_open});
	}
	a->has_spring = 1;
}

int cli_spring_flag_count(cli_args *a)
{
	const spring_param_field *fields[SPRING_PARAM_FORM_COUNT * SPRING_PARAM_MAX_FIELDS];
	int n = spring_fields(fields), given = 0;
	for (int i = 0; i < n; i++) {
		given += !fields[i]->shared_flag && cli_flag(a, fields[i]->flag);
	}
	return given;
}

void cli_print_spring_help(FILE *f)
{
	fprintf(f, "spring (give one parameterisation; with none, SwiftUI's default duration 0.5, bounce 0):\n");
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

// The form whose primary flag was given (NULL: none); CLI_USAGE after the error when two were.
static int chosen_form(cli_args *a, const spring_param_form **out)
{
	*out = NULL;
	for (int k = 0; k < SPRING_PARAM_FORM_COUNT; k++) {
		const spring_param_form *form = &spring_param_forms[k];
		cli_opt *o = cli_find(a, form->fields[form->primary].flag);
		if (!o || !o->seen) {
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
			if (spring_param_form_key_index(&spring_param_forms[k], fields[i]->key) >= 0) {
				const spring_param_form *owner = &spring_param_forms[k];
				if (owners[0]) {
					strncat(owners, " or ", sizeof owners - strlen(owners) - 1);
				}
				strncat(owners, owner->fields[owner->primary].flag, sizeof owners - strlen(owners) - 1);
			}
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

int cli_resolve_spring(cli_args *a, int allow_default, cli_spring *out)
{
	memset(out, 0, sizeof *out);
	const spring_param_form *form = NULL;
	if (chosen_form(a, &form) != CLI_OK || check_partners(a, form) != CLI_OK) {
		return CLI_USAGE;
	}
	const spring_param_form *settling = &spring_param_forms[SPRING_PARAM_SETTLING];
	const spring_param_field *epsilon = &settling->fields[spring_param_form_key_index(settling, "epsilon")];
	out->epsilon = cli_num(a, epsilon->flag, epsilon->fallback);
	double v[SPRING_PARAM_MAX_FIELDS] = {0.0, 0.0, 0.0};
	if (!form) {
		if (!allow_default) {
			return cli_error(a->command, "no spring given (for example --duration 0.5 --bounce 0.3; see --help)");
		}
		form = &spring_param_forms[SPRING_PARAM_DURATION];
		v[0] = 0.5;
		v[1] = form->fields[1].fallback;
		snprintf(out->kind, sizeof out->kind, "default");
		snprintf(out->description, sizeof out->description, "SwiftUI default: duration 0.5 s, bounce 0");
	} else {
		int order[SPRING_PARAM_MAX_FIELDS];
		int count = spring_param_form_listing(form, order);
		for (int i = 0; i < count; i++) {
			const spring_param_field *field = &form->fields[order[i]];
			if (cli_flag(a, field->flag)) {
				v[order[i]] = cli_num(a, field->flag, 0.0);
			} else if (spring_param_field_optional(field)) {
				v[order[i]] = field->fallback;
			} else {
				return cli_error(a->command, "%s needs %s", form->fields[form->primary].flag, field->flag);
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
