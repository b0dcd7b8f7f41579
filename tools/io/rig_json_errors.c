// SPDX-License-Identifier: MIT
// spring_rig_create's errors turned into the JSON path of the element that caused them.
//
// The library is the one judge of what a rig means; it names the element at fault by a structured
// location (spring_error.path: kind and index pairs, outermost first, and the field). This file
// only translates that location into the file's vocabulary with two tables: where each element
// lives in the document, and what the description's fields are called in the file.
#include "rig_json_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Where an element's list lives: at the top of the document, or inside its parent element.
static const struct {
	spring_element element;
	const char *key;
} g_lists[] = {
	{SPRING_ELEMENT_BONE, "bones"},   {SPRING_ELEMENT_CLIP, "clips"},         {SPRING_ELEMENT_TRACK, "tracks"},
	{SPRING_ELEMENT_KEY, "keys"},     {SPRING_ELEMENT_EVENT, "events"},       {SPRING_ELEMENT_IK, "ik"},
	{SPRING_ELEMENT_CHAIN, "chains"}, {SPRING_ELEMENT_COLLIDER, "colliders"},
};

// A description field and the file key it comes from ("" for the element as a whole), per element
// (NONE: the rig itself). Fields not listed keep their name.
static const struct {
	spring_element element;
	const char *field;
	const char *key;
} g_fields[] = {
	{SPRING_ELEMENT_NONE, "bone_count", "bones"},
	{SPRING_ELEMENT_NONE, "clip_count", "clips"},
	{SPRING_ELEMENT_NONE, "ik_count", "ik"},
	{SPRING_ELEMENT_NONE, "chain_count", "chains"},
	{SPRING_ELEMENT_BONE, "setup", ""},
	{SPRING_ELEMENT_CLIP, "track_count", "tracks"},
	{SPRING_ELEMENT_CLIP, "event_count", "events"},
	{SPRING_ELEMENT_KEY, "bezier", "curve"},
	{SPRING_ELEMENT_KEY, "bezier[0]", "curve[0]"},
	{SPRING_ELEMENT_KEY, "bezier[2]", "curve[2]"},
	{SPRING_ELEMENT_KEY, "value", ""},
	{SPRING_ELEMENT_EVENT, "value", ""},
	{SPRING_ELEMENT_CHAIN, "params", "spring"},
	{SPRING_ELEMENT_CHAIN, "tip_params", "tip_spring"},
	{SPRING_ELEMENT_CHAIN, "collider_count", "colliders"},
	{SPRING_ELEMENT_COLLIDER, "a", ""},
	{SPRING_ELEMENT_COLLIDER, "a/b/radius", ""},
};

static const char *list_key(spring_element element)
{
	for (size_t i = 0; i < sizeof g_lists / sizeof g_lists[0]; i++) {
		if (g_lists[i].element == element) {
			return g_lists[i].key;
		}
	}
	return NULL;
}

static const char *field_key(spring_element element, const char *field)
{
	for (size_t i = 0; i < sizeof g_fields / sizeof g_fields[0]; i++) {
		if (g_fields[i].element == element && strcmp(g_fields[i].field, field) == 0) {
			return g_fields[i].key;
		}
	}
	return field;
}

// The JSON path of `steps` (and `field`, when given) in `doc`. A step that has no element of its
// own in the file (a bone or segment of a rig chain: the chain's bones are a range) stops the
// path at its parent. Two-bone IK constraints name their bones as "bones": [upper, lower].
static void json_path(char *out, size_t size, const cJSON *doc, const spring_error_step *steps, int depth, const char *field)
{
	char base[RJ_PATH_SIZE];
	rj_copy_str(out, size, "$");
	spring_element parent = SPRING_ELEMENT_NONE;
	const cJSON *node = doc;
	int reached = 0;
	for (int i = 0; i < depth; i++) {
		const char *key = list_key(steps[i].element);
		if (!key || (i > 0 && steps[i].element == SPRING_ELEMENT_BONE)) {
			break;
		}
		rj_copy_str(base, sizeof base, out);
		rj_path_key(out, size, base, key);
		rj_copy_str(base, sizeof base, out);
		rj_path_index(out, size, base, steps[i].index);
		node = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(node, key), steps[i].index);
		parent = steps[i].element;
		reached = i + 1;
	}
	if (!field || !field[0] || reached < depth) {
		return;
	}
	const char *key = field_key(parent, field);
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(node, "type");
	bool two_bone = parent == SPRING_ELEMENT_IK && cJSON_IsString(type) && strcmp(type->valuestring, "two-bone") == 0;
	bool plane = parent == SPRING_ELEMENT_COLLIDER && cJSON_IsString(type) && strcmp(type->valuestring, "plane") == 0;
	if (two_bone && strcmp(field, "first") == 0) {
		key = "bones[0]";
	} else if (two_bone && strcmp(field, "last") == 0) {
		key = "bones[1]";
	} else if (plane && strcmp(field, "b") == 0) {
		key = "normal";
	}
	if (key[0]) {
		char name[32];
		int index = -1;
		const char *bracket = strchr(key, '[');
		rj_copy_str(name, sizeof name, key);
		if (bracket && (size_t)(bracket - key) < sizeof name) {
			name[bracket - key] = '\0'; // "curve[0]": an element of an array member
			index = atoi(bracket + 1);
		}
		rj_copy_str(base, sizeof base, out);
		rj_path_key(out, size, base, name);
		if (index >= 0) {
			rj_copy_str(base, sizeof base, out);
			rj_path_index(out, size, base, index);
		}
	}
}

void rj_map_create_error(rj *c, const cJSON *doc, spring_result code, const spring_error *e)
{
	if (code == SPRING_ERROR_OUT_OF_MEMORY) {
		rj_fail(c, code, "", "out of memory creating the rig");
		return;
	}
	char path[RJ_PATH_SIZE];
	json_path(path, sizeof path, doc, e->path, e->depth, e->field);
	const char *reason = e->message[0] ? spring_error_reason(e) : spring_result_string(code);
	if (e->other.element != SPRING_ELEMENT_NONE && e->depth > 0) {
		// The other element sits in the same list as the innermost one.
		spring_error_step steps[SPRING_ERROR_MAX_DEPTH];
		int depth = 0;
		for (int i = 0; i < e->depth; i++) {
			steps[depth++] = e->path[i];
		}
		if (steps[depth - 1].element == e->other.element) {
			steps[depth - 1] = e->other;
		} else {
			steps[0] = e->other; // an element of a top-level list (a bone named by a chain)
			depth = 1;
		}
		char other[RJ_PATH_SIZE];
		json_path(other, sizeof other, doc, steps, depth, NULL);
		rj_fail(c, code, path, "%s (see %s)", reason, other);
		return;
	}
	rj_fail(c, code, path, "%s", reason);
}
