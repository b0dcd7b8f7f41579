// spring_rig_create's errors mapped back to the JSON path of the element that caused them.
//
// The rig names the offending element by kind and index (spring_error) and, inside a chain or a
// clip, only in its message ("collider 0", "track 2 key 1", "event 3"): this file reads both.
#include "rig_json_internal.h"

#include <stdio.h>
#include <string.h>

void rj_map_create_error(rj *c, spring_result code, const spring_error *e)
{
	char kind[16] = "";
	snprintf(kind, sizeof kind, "%s", e->kind);
	const char *field = e->field;
	char path[256] = "$";
	const char *section = NULL;
	if (strcmp(kind, "bone") == 0) {
		section = "$.bones";
	} else if (strcmp(kind, "clip") == 0) {
		section = "$.clips";
	} else if (strcmp(kind, "ik") == 0) {
		section = "$.ik";
	} else if (strcmp(kind, "chain") == 0) {
		section = "$.chains";
	}
	static const char *const renames[][2] = {
		{"params", "spring"}, {"tip_params", "tip_spring"}, {"target_bone", "target"}, {"bone_count", "bones"},
		{"clip_count", "clips"}, {"ik_count", "ik"}, {"chain_count", "chains"}, {"track_count", "tracks"},
		{"event_count", "events"}, {"setup", ""}, {"cone_limit", "limit"}, {"segment_count", ""}, {"rest_angle", ""},
	};
	for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++) {
		if (strcmp(field, renames[i][0]) == 0) {
			field = renames[i][1];
		}
	}
	if (section && e->index >= 0) {
		rj_path_index(path, sizeof path, section, e->index);
		// Rig-level field names that match the file's keys; "bones" of an IK or chain is its range.
		if (strcmp(kind, "chain") == 0 && strcmp(field, "bones") == 0) {
			field = "last";
		}
		if (strcmp(kind, "chain") == 0 && (strcmp(field, "length") == 0 || strcmp(field, "tip") == 0)) {
			field = ""; // a bone of the chain, reported as the chain
		}
		if (strcmp(kind, "ik") == 0 && strcmp(field, "bones") == 0) {
			field = "";
		}
		if (field[0]) {
			char base[256];
			rj_copy_str(base, sizeof base, path);
			rj_path_key(path, sizeof path, base, field);
		}
		int track = -1, key = -1, event = -1, collider = -1;
		const char *m = strstr(e->message, "track ");
		if (strcmp(kind, "chain") == 0 && (m = strstr(e->message, ": collider ")) && sscanf(m, ": collider %d", &collider) == 1) {
			// A collider refused by the chain: "chain 1: b is invalid: collider 0: b ...".
			rj_path_index(path, sizeof path, section, e->index);
			char base[256];
			rj_copy_str(base, sizeof base, path);
			rj_path_key(path, sizeof path, base, "colliders");
			rj_copy_str(base, sizeof base, path);
			rj_path_index(path, sizeof path, base, collider);
		} else if (m && sscanf(m, "track %d key %d", &track, &key) >= 1) {
			char base[256];
			rj_copy_str(base, sizeof base, path);
			rj_path_index(path, sizeof path, base, track);
			if (key >= 0) {
				rj_copy_str(base, sizeof base, path);
				rj_path_key(path, sizeof path, base, "keys");
				rj_copy_str(base, sizeof base, path);
				rj_path_index(path, sizeof path, base, key);
			}
		} else if ((m = strstr(e->message, "event ")) && sscanf(m, "event %d", &event) == 1) {
			char base[256];
			rj_copy_str(base, sizeof base, path);
			rj_path_index(path, sizeof path, base, event);
		}
	} else if (strcmp(kind, "rig") == 0 && field[0] && strcmp(field, "memory") != 0 && strcmp(field, "desc") != 0 &&
	           strcmp(field, "out") != 0) {
		rj_path_key(path, sizeof path, "$", field);
	}
	if (code == SPRING_ERROR_OUT_OF_MEMORY) {
		rj_fail(c, code, "", "out of memory creating the rig");
		return;
	}
	rj_fail(c, code, path, "rejected by spring_rig_create: %s", e->message[0] ? e->message : spring_result_string(code));
}
