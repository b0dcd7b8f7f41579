// SPDX-License-Identifier: MIT
// Argument parsing for the `spring` commands: options, numbers in range, lists, --help.
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
	if (!spring_param_range_contains(range, v)) {
		char r[96];
		spring_param_range_text(r, sizeof r, range);
		return cli_error(command, "%s: %s is out of range (must be %s)", flag, shown, r);
	}
	*out = v == 0.0 ? 0.0 : v;
	return CLI_OK;
}

int cli_parse_list(const char *command, const char *flag, const char *text, double *out, int max, int *count, cli_range range)
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
			const char *names[CLI_MAX_OPTS];
			for (int k = 0; k < a->count; k++) {
				names[k] = a->opts[k].name;
			}
			char hint[96];
			const int same = cli_lookup_name(name, names, a->count, hint, sizeof hint);
			if (same >= 0) { // another case: --Duration
				snprintf(hint, sizeof hint, ": did you mean '%s'?", names[same]);
			}
			return cli_error(a->command, "unknown option '%s'%s (see spring %s --help)", cli_clean(shown, sizeof shown, name),
			                 hint, a->command);
		}
		if (o->seen) {
			return cli_error(a->command, "%s given twice", o->name);
		}
		o->seen = 1;
		o->position = i;
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

int cli_parse_command(cli_args *a, int argc, char **argv, const char *help, int *status)
{
	if (cli_parse(a, argc, argv, 2) != CLI_OK) {
		*status = CLI_USAGE;
		return 1;
	}
	if (a->help) {
		fputs(help, stdout);
		if (a->has_spring) {
			cli_print_spring_help(stdout);
		}
		*status = CLI_OK;
		return 1;
	}
	return 0;
}

void cli_add_outputs(cli_args *a, int csv, int svg)
{
	if (csv) {
		cli_add(a, "--csv", CLI_FLAG, NULL, CLI_ANY);
	}
	cli_add(a, "--json", CLI_FLAG, NULL, CLI_ANY);
	if (svg) {
		cli_add(a, "--svg", CLI_STRING, "FILE", CLI_ANY);
	}
}

int cli_check_outputs(cli_args *a)
{
	int csv = cli_flag(a, "--csv"), json = cli_flag(a, "--json");
	if (csv && json) {
		return cli_error(a->command, "--csv and --json: choose one output format");
	}
	const char *svg = cli_str(a, "--svg", NULL);
	if (svg && strcmp(svg, "-") == 0 && (csv || json)) {
		return cli_error(a->command, "--svg - writes the plot to standard output: it cannot be combined with %s",
		                 cli_find(a, "--csv") ? "--csv or --json" : "--json");
	}
	return CLI_OK;
}
