// SPDX-License-Identifier: MIT
// Spring objects in rig files: exactly one of the parameterisations of param_table.h (the table
// the `spring` command's flags use too), converted by the library's own function.
#include "rig_json_internal.h"

#include "param_table.h"

#include <stdio.h>
#include <string.h>

#define MAX_KEYS (SPRING_PARAM_FORM_COUNT * SPRING_PARAM_MAX_FIELDS)

// Every key of every form, once, in table order (each form's in listing order), NULL-terminated.
static void all_keys(const char *keys[MAX_KEYS + 1])
{
	int n = 0;
	for (int f = 0; f < SPRING_PARAM_FORM_COUNT; f++) {
		int order[SPRING_PARAM_MAX_FIELDS];
		int count = spring_param_form_listing(&spring_param_forms[f], order);
		for (int i = 0; i < count; i++) {
			const char *key = spring_param_forms[f].fields[order[i]].key;
			int seen = 0;
			for (int k = 0; k < n && !seen; k++) {
				seen = strcmp(keys[k], key) == 0;
			}
			if (!seen) {
				keys[n++] = key;
			}
		}
	}
	keys[n] = NULL;
}

// {"stiffness", "damping", "mass" (optional)}
static void form_text(char *buf, size_t size, const spring_param_form *form)
{
	int order[SPRING_PARAM_MAX_FIELDS];
	int count = spring_param_form_listing(form, order);
	size_t o = (size_t)snprintf(buf, size, "{");
	for (int i = 0; i < count && o < size; i++) {
		const spring_param_field *f = &form->fields[order[i]];
		o += (size_t)snprintf(buf + o, size - o, "%s\"%s\"%s", i ? ", " : "", f->key,
		                      spring_param_field_optional(f) ? " (optional)" : "");
	}
	if (o < size) {
		snprintf(buf + o, size - o, "}");
	}
}

static int has_key(const spring_param_form *form, const char *key)
{
	return spring_param_form_key_index(form, key) >= 0;
}

// The forms that have every key of `j` (their count); 0 with the error recorded when none has.
static int candidates_of(rj *c, const cJSON *j, const char *path, const spring_param_form **out)
{
	int n = 0;
	for (int f = 0; f < SPRING_PARAM_FORM_COUNT; f++) {
		int all = 1;
		for (const cJSON *k = j->child; k && all; k = k->next) {
			all = has_key(&spring_param_forms[f], k->string);
		}
		if (all) {
			out[n++] = &spring_param_forms[f];
		}
	}
	if (n > 0) {
		return n;
	}
	// Find two keys that never go together.
	for (const cJSON *a = j->child; a; a = a->next) {
		for (const cJSON *b = a->next; b; b = b->next) {
			int together = 0;
			for (int f = 0; f < SPRING_PARAM_FORM_COUNT && !together; f++) {
				together = has_key(&spring_param_forms[f], a->string) && has_key(&spring_param_forms[f], b->string);
			}
			if (!together) {
				rj_bad(c, path, "mixes two parameterisations: \"%s\" and \"%s\" do not go together (give exactly one)", a->string,
				       b->string);
				return 0;
			}
		}
	}
	rj_bad(c, path, "mixes keys of several parameterisations (give exactly one)");
	return 0;
}

// The first required key of `form` that `j` lacks, NULL when it has them all.
static const char *first_missing(const spring_param_form *form, const cJSON *j)
{
	int order[SPRING_PARAM_MAX_FIELDS];
	int count = spring_param_form_listing(form, order);
	for (int i = 0; i < count; i++) {
		const spring_param_field *f = &form->fields[order[i]];
		if (!spring_param_field_optional(f) && !cJSON_GetObjectItemCaseSensitive(j, f->key)) {
			return f->key;
		}
	}
	return NULL;
}

spring_result rj_spring_item(rj *c, const cJSON *j, const char *path, spring_params *out)
{
	const char *keys[MAX_KEYS + 1];
	all_keys(keys);
	if (rj_expect_object(c, j, path, "a spring") != SPRING_OK || rj_check_keys(c, j, path, keys, " in a spring") != SPRING_OK) {
		return c->result;
	}
	if (!j->child) {
		return rj_bad(c, path,
		              "no spring parameters: give exactly one parameterisation, e.g. {\"frequency\": 2, \"damping_ratio\": 0.3}");
	}
	const spring_param_form *candidates[SPRING_PARAM_FORM_COUNT];
	int nc = candidates_of(c, j, path, candidates);
	if (nc == 0) {
		return c->result;
	}
	const spring_param_form *form = NULL;
	for (int i = 0; i < nc && !form; i++) {
		if (!first_missing(candidates[i], j)) {
			form = candidates[i];
		}
	}
	// A bounce alone keeps SwiftUI's default duration, as the CLI's --bounce does.
	const cJSON *bounce = cJSON_GetObjectItemCaseSensitive(j, "bounce");
	const int bounce_alone = !form && bounce && !bounce->next && bounce == j->child;
	if (bounce_alone) {
		form = &spring_param_forms[SPRING_PARAM_DURATION];
	}
	if (!form) {
		char t1[160], t2[160];
		form_text(t1, sizeof t1, candidates[0]);
		if (nc == 1) {
			return rj_bad(c, path, "missing key \"%s\" (this parameterisation is %s)", first_missing(candidates[0], j), t1);
		}
		form_text(t2, sizeof t2, candidates[1]);
		return rj_bad(c, path, "incomplete spring: give %s or %s", t1, t2);
	}
	int order[SPRING_PARAM_MAX_FIELDS];
	int count = spring_param_form_listing(form, order);
	double v[SPRING_PARAM_MAX_FIELDS] = {0.0, 0.0, 0.0};
	for (int i = 0; i < count; i++) {
		const spring_param_field *f = &form->fields[order[i]];
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, f->key);
		v[order[i]] = bounce_alone && order[i] == form->primary ? SPRING_PARAM_DEFAULT_DURATION : f->fallback;
		if (e) {
			char p[256];
			PATH_KEY(p, path, f->key);
			if (rj_number_item(c, e, p, -RJ_BIG, RJ_BIG, 0, &v[order[i]]) != SPRING_OK) {
				return c->result;
			}
			// the key's own range, named as the CLI names it
			if (!spring_param_range_contains(f->range, v[order[i]])) {
				char range[96];
				spring_param_range_text(range, sizeof range, f->range);
				return rj_bad(c, p, "%.9g is out of range (must be %s)", v[order[i]], range);
			}
		}
	}
	spring_params p = {0.0f, 0.0f, 0.0f};
	spring_result r = spring_param_form_convert(form, v, &p);
	if (r != SPRING_OK) {
		char given[160];
		size_t o = 0;
		given[0] = '\0';
		for (int i = 0; i < count && o < sizeof given; i++) {
			o += (size_t)snprintf(given + o, sizeof given - o, "%s%s %.9g", i ? ", " : "", form->fields[order[i]].key,
			                      v[order[i]]);
		}
		return rj_bad(c, path, "invalid spring (%s): %s", given, spring_result_string(r));
	}
	*out = p;
	return SPRING_OK;
}

spring_result rj_get_spring(rj *c, const cJSON *obj, const char *path, const char *key, spring_params *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, 0, p);
	spring_params zero = {0.0f, 0.0f, 0.0f};
	*out = zero;
	return j ? rj_spring_item(c, j, p, out) : c->result;
}
