// SPDX-License-Identifier: MIT
// Rig files (tools/io/rig_json.c): the reader of docs/rig-format.md. Each test names what it
// protects:
//
//  1. the malformed-file corpus (tests/rigs/bad): every file fails with the expected JSON path
//     and reason, *out untouched, the message starting with the file name;
//  2. every corpus file is in the table (no untested file);
//  3. limits found only in big documents, built here (counts, nesting, 16 MiB);
//  4. I/O errors (missing file, a directory, empty) name the file;
//  5. the sample rigs (and the example in docs/rig-format.md) load with the expected counts and
//     run without NaN;
//  6. degrees in the file are radians in the rig; defaults are the documented ones;
//  7. every spring parameterisation goes through the library's own conversion (bit-identical
//     to the same spring given as stiffness/damping/mass), optional values taking their defaults;
//  8. every truncation and random byte mutations of the sample rig fail cleanly (no crash, no
//     leak under ASan, *out untouched);
//  9. out of memory at every allocation fails cleanly (cJSON hooks, spring allocator);
// 10. in-memory documents need no terminator; NULL arguments are refused.
#define _POSIX_C_SOURCE 200809L

#include <spring/io.h>

#include "test_macros.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef SPRING_SOURCE_DIR
#define SPRING_SOURCE_DIR "."
#endif
#define BAD_DIR SPRING_SOURCE_DIR "/tests/rigs/bad"
#define CHARACTER SPRING_SOURCE_DIR "/examples/rigs/character.json"
#define UNDULATION SPRING_SOURCE_DIR "/examples/rigs/undulation.json"
#define MINIMAL SPRING_SOURCE_DIR "/tests/rigs/good/minimal.json"
#define DEG ((float)(SPRING_PI / 180.0))

// A pointer that must survive every failed load unchanged.
static int sentinel_storage;
#define SENTINEL ((spring_rig *)(void *)&sentinel_storage)

// ---------------------------------------------------------------------------------------------
// Helpers

typedef struct text {
	char *data;
	size_t size;
} text;

static text read_all(const char *path)
{
	text t = {NULL, 0};
	FILE *f = fopen(path, "rb");
	if (!f) {
		return t;
	}
	size_t cap = 1 << 16;
	t.data = (char *)malloc(cap + 1);
	while (t.data) {
		size_t got = fread(t.data + t.size, 1, cap - t.size, f);
		t.size += got;
		if (got == 0) {
			break;
		}
		if (t.size == cap) {
			cap *= 2;
			char *grown = (char *)realloc(t.data, cap + 1);
			if (!grown) {
				free(t.data);
			}
			t.data = grown;
		}
	}
	fclose(f);
	if (t.data) {
		t.data[t.size] = '\0'; // for strstr in the tests; the reader is given t.size
	}
	return t;
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

// A failed load must leave *out alone, fill every field and start the message with the file.
static int check_failure(spring_result r, spring_rig *out, const spring_file_error *e, const char *file)
{
	ENSURE_MSG(r != SPRING_OK, "%s loaded but should not have", file);
	ENSURE_MSG(out == SENTINEL, "%s: *out was written on failure", file);
	ENSURE_MSG(strcmp(e->file, file) == 0, "file \"%s\" != \"%s\"", e->file, file);
	ENSURE_MSG(e->reason[0] != '\0', "%s: empty reason", file);
	char prefix[300];
	snprintf(prefix, sizeof prefix, "%s: ", file);
	ENSURE_MSG(starts_with(e->message, prefix), "message \"%s\" does not start with \"%s\"", e->message, prefix);
	ENSURE_MSG(strstr(e->message, e->reason) != NULL, "message \"%s\" lacks the reason", e->message);
	if (e->path[0]) {
		ENSURE_MSG(e->path[0] == '$', "path \"%s\" is not a JSON path", e->path);
		ENSURE_MSG(strstr(e->message, e->path) != NULL, "message \"%s\" lacks the path", e->message);
	}
	return 0;
}

static int load_json_expect(const char *json, const char *name, const char *path, const char *reason)
{
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	spring_result r = spring_rig_load_json(json, strlen(json), name, &rig, &e);
	if (check_failure(r, rig, &e, name)) {
		return 1;
	}
	ENSURE_MSG(strcmp(e.path, path) == 0, "%s: path \"%s\", expected \"%s\" (%s)", name, e.path, path, e.message);
	ENSURE_MSG(strstr(e.reason, reason) != NULL, "%s: reason \"%s\" lacks \"%s\"", name, e.reason, reason);
	return 0;
}

// A growing string buffer for documents built in the tests.
typedef struct buf {
	char *data;
	size_t size, cap;
} buf;

static void buf_add(buf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = b->cap - b->size;
		va_start(ap, fmt);
		int n = vsnprintf(b->data ? b->data + b->size : NULL, b->data ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			return;
		}
		if ((size_t)n < room) {
			b->size += (size_t)n;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->size + (size_t)n + 1) {
			cap *= 2;
		}
		char *grown = (char *)realloc(b->data, cap);
		if (!grown) {
			return;
		}
		b->data = grown;
		b->cap = cap;
	}
}

static int world_is_finite(const spring_rig *rig)
{
	spring_xform2 w[SPRING_RIG_MAX_BONES];
	int n = spring_rig_bone_count(rig);
	if (spring_rig_get_world(rig, w, SPRING_RIG_MAX_BONES) != SPRING_OK) {
		return 0;
	}
	for (int i = 0; i < n; i++) {
		if (!isfinite(w[i].position.x) || !isfinite(w[i].position.y) || !isfinite(w[i].angle) || !isfinite(w[i].scale.x) ||
		    !isfinite(w[i].scale.y)) {
			return 0;
		}
	}
	return 1;
}

// ---------------------------------------------------------------------------------------------
// 1, 2. The corpus: one specific error per file, with its JSON path and a reason substring
// (an empty path: malformed JSON or a file-level error).

typedef struct bad_case {
	const char *file;
	const char *path;
	const char *reason;
} bad_case;

static const bad_case corpus[] = {
	{"json_truncated.json", "", "malformed JSON near line 6, column 40: unexpected end of file (an object is not closed)"},
	{"json_truncated_in_string.json", "", "the file ends inside a string (opened at line 6, column 41)"},
	{"json_trailing_comma.json", "", "malformed JSON near line 4, column 46: trailing comma before ']'"},
	{"json_bad_token.json", "", "malformed JSON near line 5, column 48: expected a value, found 'tru'"},
	{"json_nan_literal.json", "", "NaN and Infinity are not JSON numbers"},
	{"json_trailing_content.json", "", "after the end of the document"},
	{"json_leading_zero.json", "", "leading zeros"},
	{"json_missing_comma.json", "", "expected ',' or '}' after a member, found '\"' (missing comma?)"},
	{"json_nul_escape.json", "", "\\u0000 (NUL) is not allowed"},
	{"json_invalid_utf8.json", "", "invalid UTF-8"},
	{"empty.json", "", "the file is empty"},
	{"whitespace_only.json", "", "only white space"},
	{"not_an_object.json", "$", "expected an object (a libspring rig), got an array"},
	{"format_missing.json", "$", "missing key \"format\""},
	{"format_wrong.json", "$.format", "expected \"libspring-rig\", got \"spine\""},
	{"version_unsupported.json", "$.version", "unsupported version 2"},
	{"unknown_key_top.json", "$.bone", "unknown key \"bone\" (did you mean \"bones\"?)"},
	{"duplicate_key.json", "$.step", "duplicate key \"step\""},
	{"step_out_of_range.json", "$.step", "must be in (0, 1] (got 2)"},
	{"max_steps_fraction.json", "$.max_steps", "must be an integer (got 2.5)"},
	{"root_rotation_string.json", "$.root.rotation", "expected a number, got a string"},
	{"bones_missing.json", "$", "missing key \"bones\""},
	{"bones_empty.json", "$.bones", "must list at least one bone"},
	{"bones_not_array.json", "$.bones", "expected an array of bones, got an object"},
	{"bone_unknown_parent.json", "$.bones[2].parent", "unknown bone \"uper\" (did you mean \"upper\"?) (see $.bones[1])"},
	{"bone_parent_after_child.json", "$.bones[1].parent",
     "parent \"leg1\" is listed after this bone: list parents before their children (see $.bones[4])"},
	{"bone_self_parent.json", "$.bones[1].parent", "bone \"upper\" is its own parent"},
	{"bone_cycle.json", "$.bones[1].parent", "cycle through bones upper -> lower -> upper"},
	{"bone_duplicate_name.json", "$.bones[3].name", "duplicate bone name \"upper\" (see $.bones[1])"},
	{"bone_name_too_long.json", "$.bones[3].name", "is longer than 63 bytes (got 64)"},
	{"bone_name_empty.json", "$.bones[3].name", "must not be empty"},
	{"bone_name_not_string.json", "$.bones[3].name", "expected a name (a string), got a number"},
	{"bone_name_missing.json", "$.bones[3]", "missing key \"name\""},
	{"bone_name_control_char.json", "$.bones[3].name", "must not contain control characters"},
	{"bone_length_overflow.json", "$.bones[0].length", "must be finite (the number overflows)"},
	{"bone_rotation_overflow.json", "$.bones[0].rotation", "must be finite (the number overflows)"},
	{"bone_x_float_overflow.json", "$.bones[3].x", "must be finite as a float (got 1e+300)"},
	{"bone_length_negative.json", "$.bones[1].length", "length must be in [0, 1e+06] (got -3)"},
	{"bone_length_too_big.json", "$.bones[1].length",
     "must be within +-1000000, the largest magnitude a rig accepts (got 2000000)"},
	{"bone_length_string.json", "$.bones[1].length", "expected a number, got a string"},
	{"bone_parent_number.json", "$.bones[1].parent", "expected a bone name or null, got a number"},
	{"bone_unknown_key.json", "$.bones[1].lenght", "unknown key \"lenght\" in a bone (did you mean \"length\"?)"},
	{"bone_scale_zero.json", "$.bones[1].scale_y", "must not be 0"},
	{"bone_not_object.json", "$.bones[2]", "expected an object (a bone), got a string"},
	{"clip_duplicate_name.json", "$.clips[1].name", "duplicate clip name \"move\" (see $.clips[0])"},
	{"clip_duration_zero.json", "$.clips[0].duration", "duration must be in (0, 1e+06] seconds (got 0)"},
	{"clip_duration_missing.json", "$.clips[0]", "missing key \"duration\""},
	{"clip_loop_not_bool.json", "$.clips[0].loop", "expected true or false, got a number"},
	{"track_unknown_type.json", "$.clips[0].tracks[0].type",
     "unknown track type \"rotation\" (expected \"rotate\", \"translate\" or \"scale\")"},
	{"track_unknown_bone.json", "$.clips[0].tracks[1].bone", "unknown bone \"hand\""},
	{"track_duplicate.json", "$.clips[0].tracks[2]",
     "duplicate track: bone \"root\" already has a rotate track in this clip (see $.clips[0].tracks[0])"},
	{"keys_not_increasing.json", "$.clips[0].tracks[0].keys[1].time", "key times must increase (0 after 0"},
	{"key_negative_time.json", "$.clips[0].tracks[0].keys[0].time", "time must be in [0, 1e+06] (got -0.5)"},
	{"keys_empty.json", "$.clips[0].tracks[0].keys", "a track needs 1..65536 keys (got 0)"},
	{"keys_missing.json", "$.clips[0].tracks[0]", "missing key \"keys\""},
	{"key_value_missing.json", "$.clips[0].tracks[0].keys[1]", "missing key \"value\""},
	{"rotate_key_with_x.json", "$.clips[0].tracks[0].keys[1].x",
     "unknown key \"x\" in a rotate key (expected one of: time, value, curve)"},
	{"bezier_x1_out_of_range.json", "$.clips[0].tracks[0].keys[0].curve[0]", "must be in [0, 1] (got 1.5)"},
	{"bezier_wrong_arity.json", "$.clips[0].tracks[0].keys[0].curve", "a Bezier curve is [x1, y1, x2, y2]: 4 numbers (got 3)"},
	{"curve_unknown_name.json", "$.clips[0].tracks[0].keys[0].curve", "unknown curve \"smooth\""},
	{"event_after_duration.json", "$.clips[0].events[0].time", "time must be in [0, the clip's duration 1] (got 1.5)"},
	{"event_out_of_order.json", "$.clips[0].events[1].time", "events must be in time order (0.25 after 0.5"},
	{"ik_unknown_bone.json", "$.ik[0].bones[1]", "unknown bone \"forearm\""},
	{"ik_two_bone_not_child.json", "$.ik[0].bones[1]",
     "\"leg2\" is not a child of \"upper\": a two-bone IK needs a bone and its child"},
	{"ik_two_bone_arity.json", "$.ik[0].bones", "expected [upper, lower] (2 bone names), got 3"},
	{"ik_ccd_not_linked.json", "$.ik[1].last", "\"tail2\" does not descend from \"leg1\""},
	{"ik_iterations_zero.json", "$.ik[1].iterations", "must be in 1..1000 (got 0)"},
	{"ik_iterations_fraction.json", "$.ik[1].iterations", "must be an integer (got 2.5)"},
	{"ik_tolerance_zero.json", "$.ik[1].tolerance", "must be > 0 (got 0)"},
	{"ik_mix_too_big.json", "$.ik[0].mix", "must be in [0, 1] (got 1.5)"},
	{"ik_unknown_type.json", "$.ik[0].type", "unknown IK type \"fabrik\""},
	{"ik_key_of_other_type.json", "$.ik[0].iterations", "unknown key \"iterations\" for a two-bone IK"},
	{"ik_target_in_ik.json", "$.ik[0].target", "the target \"lower\" is one of this IK's bones"},
	{"ik_target_moved_by_ik.json", "$.ik[0].target", "the target \"hand\" is moved by this IK (it descends from \"lower\")"},
	{"ik_bend_unknown.json", "$.ik[0].bend", "unknown bend \"left\" (expected \"positive\" or \"negative\")"},
	{"ik_duplicate_name.json", "$.ik[1].name", "duplicate IK name \"arm\" (see $.ik[0])"},
	{"chain_not_linked.json", "$.chains[0].last",
     "\"cape2\" does not descend from \"tail1\": a chain needs a parent-linked range"},
	{"chain_first_unknown.json", "$.chains[0].first", "unknown bone \"tail0\""},
	{"chain_duplicate_name.json", "$.chains[1].name", "duplicate chain name \"tail\" (see $.chains[0])"},
	{"chain_overlap.json", "$.chains[1]",
     "bone \"tail2\" is already in chain \"tail\": chains must not overlap (see $.chains[0])"},
	{"chain_zero_length_bone.json", "$.chains[0]",
     "bone \"tail2\" has length 0: every bone of a chain needs a length > 0 (see $.bones[8])"},
	{"chain_unknown_type.json", "$.chains[0].type", "unknown chain type \"rope\""},
	{"chain_mix_negative.json", "$.chains[0].mix", "must be in [0, 1] (got -0.25)"},
	{"spring_mixed.json", "$.chains[0].spring", "mixes two parameterisations: \"frequency\" and \"duration\" do not go together"},
	{"spring_none.json", "$.chains[0].spring", "no spring parameters"},
	{"spring_incomplete.json", "$.chains[0].spring", "missing key \"damping_ratio\""},
	{"spring_ambiguous.json", "$.chains[0].spring",
     "incomplete spring: give {\"frequency\", \"damping_ratio\"} or {\"settling\", \"damping_ratio\", \"epsilon\" (optional)}"},
	{"spring_unknown_key.json", "$.chains[0].spring.frequncy",
     "unknown key \"frequncy\" in a spring (did you mean \"frequency\"?)"},
	{"spring_negative_damping.json", "$.chains[0].spring.damping", "-1 is out of range (must be >= 0)"},
	{"spring_bounce_too_big.json", "$.chains[1].tip_spring.bounce", "2 is out of range (must be in (-1, 1])"},
	{"spring_per_frame_unstable.json", "$.chains[0].spring", "the integrator is unstable"},
	{"spring_not_object.json", "$.chains[0].spring", "expected an object (a spring), got a number"},
	{"limit_angle_out_of_range.json", "$.chains[0].limit", "must be in (0, 180] (got 190)"},
	{"limit_zero.json", "$.chains[0].limit", "must be in (0, 180] (got 0)"},
	{"limit_tip_180.json", "$.chains[1].cone_limit", "must be in (0, 180) (got 180)"},
	{"limit_on_tip_chain.json", "$.chains[1].limit",
     "a tip chain's limit is \"cone_limit\" since 0.2.0 (\"limit\" is an angle chain's swing limit)"},
	{"collider_unknown_type.json", "$.chains[1].colliders[0].type",
     "unknown collider type \"box\" (expected \"sphere\", \"capsule\" or \"plane\")"},
	{"collider_circle.json", "$.chains[1].colliders[0].type",
     "\"circle\" is called \"sphere\" since 0.2.0 (as SPRING_CHAIN_COLLIDER_SPHERE in C and npm)"},
	{"collider_negative_radius.json", "$.chains[1].colliders[0].radius", "must be >= 0 (got -1)"},
	{"collider_plane_zero_normal.json", "$.chains[1].colliders[0].normal", "b (the plane normal) must be non-zero"},
	{"collider_capsule_bad_point.json", "$.chains[1].colliders[0].b", "expected [x, y] (an array of 2 numbers), got 3 elements"},
	{"colliders_on_angle_chain.json", "$.chains[0].colliders", "unknown key \"colliders\" for an angle chain"},
	{"gravity_wrong_arity.json", "$.chains[0].gravity", "expected [x, y] (an array of 2 numbers), got 1 element"},
	{"bone_gravity_count.json", "$.chains[1].bone_gravity", "needs one entry per bone of the chain (2), got 1"},
	{"bone_gravity_wrong_arity.json", "$.chains[1].bone_gravity[1]", "expected [x, y] (an array of 2 numbers), got 3 elements"},
	{"bone_gravity_too_large.json", "$.chains[1].bone_gravity[1][1]", "must be within +-1000000"},
	{"bone_gravity_on_angle_chain.json", "$.chains[0].bone_gravity", "unknown key \"bone_gravity\" for an angle chain"},
};

#define CORPUS_COUNT ((int)(sizeof corpus / sizeof corpus[0]))

static int test_corpus(void)
{
	ENSURE(CORPUS_COUNT >= 30);
	for (int i = 0; i < CORPUS_COUNT; i++) {
		char file[512];
		snprintf(file, sizeof file, "%s/%s", BAD_DIR, corpus[i].file);
		spring_rig *rig = SENTINEL;
		spring_file_error e;
		memset(&e, 0x5a, sizeof e); // garbage in: every field must be rewritten
		spring_result r = spring_rig_load_file(file, &rig, &e);
		if (check_failure(r, rig, &e, file)) {
			return 1;
		}
		ENSURE_MSG(strcmp(e.path, corpus[i].path) == 0, "%s: path \"%s\", expected \"%s\" (%s)", corpus[i].file, e.path,
		           corpus[i].path, e.message);
		ENSURE_MSG(strstr(e.reason, corpus[i].reason) != NULL, "%s: reason \"%s\"\n    lacks \"%s\"", corpus[i].file, e.reason,
		           corpus[i].reason);
		int malformed = starts_with(e.reason, "malformed JSON");
		ENSURE_MSG(malformed == (e.line > 0), "%s: line %d for \"%s\"", corpus[i].file, e.line, e.reason);
		if (malformed) {
			char where[64];
			snprintf(where, sizeof where, "near line %d, column %d", e.line, e.column);
			ENSURE_MSG(strstr(e.reason, where) != NULL, "%s: \"%s\" vs line %d column %d", corpus[i].file, e.reason, e.line,
			           e.column);
		}
		// The same bytes from memory give the same answer, named as given.
		text t = read_all(file);
		ENSURE(t.data != NULL || t.size == 0);
		spring_file_error m;
		rig = SENTINEL;
		r = spring_rig_load_json(t.data, t.size, corpus[i].file, &rig, &m);
		free(t.data);
		if (check_failure(r, rig, &m, corpus[i].file)) {
			return 1;
		}
		ENSURE_MSG(strcmp(m.path, e.path) == 0 && strcmp(m.reason, e.reason) == 0, "%s: memory gives \"%s\"", corpus[i].file,
		           m.message);
	}
	printf("       %d corpus files\n", CORPUS_COUNT);
	return 0;
}

static int test_corpus_is_all_listed(void)
{
	DIR *d = opendir(BAD_DIR);
	ENSURE(d != NULL);
	int files = 0, unlisted = 0;
	struct dirent *ent;
	while ((ent = readdir(d)) != NULL) {
		if (ent->d_name[0] == '.') {
			continue;
		}
		files++;
		int found = 0;
		for (int i = 0; i < CORPUS_COUNT && !found; i++) {
			found = strcmp(corpus[i].file, ent->d_name) == 0;
		}
		if (!found) {
			fprintf(stderr, "  %s/%s is not in the expectation table\n", BAD_DIR, ent->d_name);
			unlisted++;
		}
	}
	closedir(d);
	ENSURE(unlisted == 0);
	ENSURE(files == CORPUS_COUNT);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 3. Limits of big documents, generated

// A valid rig with `bones` bones in one parent-linked line, `clips` clips of `tracks` tracks
// and one tip chain with `colliders` colliders.
static char *generate(int bones, int clips, int tracks, int colliders)
{
	buf b = {NULL, 0, 0};
	buf_add(&b, "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [");
	for (int i = 0; i < bones; i++) {
		if (i == 0) {
			buf_add(&b, "{\"name\": \"b0\", \"length\": 1}");
		} else {
			buf_add(&b, ",\n{\"name\": \"b%d\", \"parent\": \"b%d\", \"length\": 1, \"x\": 1}", i, i - 1);
		}
	}
	buf_add(&b, "], \"clips\": [");
	for (int c = 0; c < clips; c++) {
		buf_add(&b, "%s{\"name\": \"clip%d\", \"duration\": 1, \"tracks\": [", c ? ", " : "", c);
		for (int t = 0; t < tracks; t++) {
			static const char *const types[3] = {"translate", "scale", "rotate"};
			buf_add(&b, "%s{\"bone\": \"b%d\", \"type\": \"%s\", \"keys\": [{\"time\": 0, \"%s\": 1}]}", t ? ", " : "",
			        (t / 3) % bones, types[t % 3], t % 3 == 2 ? "value" : "x");
		}
		buf_add(&b, "]}");
	}
	buf_add(&b, "], \"chains\": [{\"name\": \"c\", \"type\": \"tip\", \"first\": \"b0\", \"last\": \"b%d\", \"colliders\": [",
	        bones < 200 ? bones - 1 : 199);
	for (int k = 0; k < colliders; k++) {
		buf_add(&b, "%s{\"type\": \"sphere\", \"x\": %d, \"y\": 50, \"radius\": 1}", k ? ", " : "", k);
	}
	buf_add(&b, "]}]}\n");
	return b.data;
}

static int load_generated(int bones, int clips, int tracks, int colliders, const char *path, const char *reason)
{
	char *json = generate(bones, clips, tracks, colliders);
	ENSURE(json != NULL);
	int rc;
	if (path) {
		rc = load_json_expect(json, "generated.json", path, reason);
	} else {
		spring_rig *rig = SENTINEL;
		spring_file_error e;
		spring_result r = spring_rig_load_json(json, strlen(json), "generated.json", &rig, &e);
		rc = r == SPRING_OK ? 0 : 1;
		if (rc) {
			fprintf(stderr, "  generated rig (%d bones) failed: %s\n", bones, e.message);
		} else {
			rc = spring_rig_bone_count(rig) == bones ? 0 : 1;
			spring_rig_destroy(rig);
		}
	}
	free(json);
	return rc;
}

static int test_generated_limits(void)
{
	// At the limits: loads. One past: the count is named at the array.
	ENSURE(load_generated(SPRING_RIG_MAX_BONES, 1, 4, SPRING_CHAIN_MAX_COLLIDERS, NULL, NULL) == 0);
	ENSURE(load_generated(SPRING_RIG_MAX_BONES + 1, 1, 1, 0, "$.bones", "more than 512 bones") == 0);
	ENSURE(load_generated(4, SPRING_RIG_MAX_CLIPS, 2, 0, NULL, NULL) == 0);
	ENSURE(load_generated(4, SPRING_RIG_MAX_CLIPS + 1, 1, 0, "$.clips", "more than 64 clips") == 0);
	// One track per bone and type at most, so 512 bones allow 1536 tracks; 2049 are refused by count.
	ENSURE(load_generated(SPRING_RIG_MAX_BONES, 1, 3 * SPRING_RIG_MAX_BONES, 0, NULL, NULL) == 0);
	ENSURE(load_generated(SPRING_RIG_MAX_BONES, 1, SPRING_RIG_MAX_TRACKS + 1, 0, "$.clips[0].tracks", "more than 2048 tracks") ==
	       0);
	ENSURE(load_generated(4, 1, 1, SPRING_CHAIN_MAX_COLLIDERS + 1, "$.chains[0].colliders", "more than 64 colliders") == 0);
	// A chain longer than a chain can be.
	ENSURE(load_generated(300, 0, 0, 0, NULL, NULL) == 0);
	{
		char *json = generate(300, 0, 0, 0);
		ENSURE(json != NULL);
		char *last = strstr(json, "\"last\": \"b199\"");
		ENSURE(last != NULL);
		memcpy(last, "\"last\": \"b299\"", 14);
		int rc = load_json_expect(json, "long_chain.json", "$.chains[0].last", "the chain has 300 bones (at most 256)");
		free(json);
		ENSURE(rc == 0);
	}
	// Too many keys in one track.
	{
		buf b = {NULL, 0, 0};
		buf_add(&b,
		        "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [{\"name\": \"a\"}], \"clips\": [{\"name\": \"c\", "
		        "\"duration\": 1, \"tracks\": [{\"bone\": \"a\", \"type\": \"rotate\", \"keys\": [");
		for (int k = 0; k <= SPRING_RIG_MAX_KEYS; k++) {
			buf_add(&b, "%s{\"time\":%d,\"value\":0}", k ? "," : "", k);
		}
		buf_add(&b, "]}]}]}");
		ENSURE(b.data != NULL);
		int rc = load_json_expect(b.data, "keys.json", "$.clips[0].tracks[0].keys", "more than 65536 keys");
		free(b.data);
		ENSURE(rc == 0);
	}
	// Nesting: the format needs 6 levels; 64 are accepted, more are refused before cJSON recurses.
	{
		buf b = {NULL, 0, 0};
		buf_add(&b, "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [{\"name\": \"a\"}], \"x\": ");
		for (int i = 0; i < 100000; i++) {
			buf_add(&b, "[");
		}
		ENSURE(b.data != NULL);
		int rc = load_json_expect(b.data, "deep.json", "", "nested deeper than 64 levels");
		free(b.data);
		ENSURE(rc == 0);
	}
	// A name of exactly 63 bytes is fine; 64 is not (the corpus has that one).
	{
		char json[512];
		snprintf(json, sizeof json, "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [{\"name\": \"%.63s\"}]}",
		         "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz");
		spring_rig *rig = SENTINEL;
		spring_file_error e;
		ENSURE_MSG(spring_rig_load_json(json, strlen(json), NULL, &rig, &e) == SPRING_OK, "%s", e.message);
		ENSURE(strlen(spring_rig_bone_name(rig, 0)) == 63);
		spring_rig_destroy(rig);
	}
	return 0;
}

// A rig file placed where its chains cannot step is refused at "$.root", naming the chain and the
// limit; before, one at the documented maximum (x 1e6) loaded and every update failed. The
// farthest placement that loads steps for 3 s.
static int test_root_within_chains(void)
{
	const char *fmt = "{\"format\": \"libspring-rig\", \"version\": 1, \"root\": {\"x\": %.9g}, \"bones\": ["
					  "{\"name\": \"body\", \"length\": 30, \"y\": 50}, {\"name\": \"t1\", \"parent\": \"body\", "
					  "\"length\": 12, \"rotation\": 180}, {\"name\": \"t2\", \"parent\": \"t1\", \"length\": 10, \"x\": 12}], "
					  "\"chains\": [{\"name\": \"tail\", \"type\": \"angle\", \"first\": \"t1\", \"last\": \"t2\", "
					  "\"gravity\": [0, -50]}]}";
	char json[1024];
	snprintf(json, sizeof json, fmt, 1e6);
	ENSURE(load_json_expect(json, "far.json", "$.root", "carries chain \"tail\"") == 0);
	ENSURE(load_json_expect(json, "far.json", "$.root", "at most 999000") == 0);
	// The chain's bones reach 50 + 12 + 10 units from the root (the body, not in the chain, 80):
	// the root may go to 999000 less that.
	double reach = 72.0;
	snprintf(json, sizeof json, fmt, (double)SPRING_RIG_CHAIN_MAX_REACH - reach - 0.01);
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	ENSURE_MSG(spring_rig_load_json(json, strlen(json), "near.json", &rig, &e) == SPRING_OK, "%s", e.message);
	for (int f = 0; f < 180; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	}
	ENSURE(world_is_finite(rig));
	spring_rig_destroy(rig);
	snprintf(json, sizeof json, fmt, (double)SPRING_RIG_CHAIN_MAX_REACH - reach + 0.1);
	ENSURE(load_json_expect(json, "far.json", "$.root", "carries chain \"tail\"") == 0);
	return 0;
}

// Loading costs time linear in the file's size (docs/rig-format.md): a file four times larger
// (four times the bones, four times the tracks per clip) loads in about four times the time. The
// reach check once compared names bones^2 x tracks times (a 4.2 MB file of 343 bones and 64 clips
// of 1,024 tracks took 54 s): 64 times the work for this scaling; name lookups by a linear scan
// gave x10.4. Processor time (another program keeping the machine busy changes the clock's
// time, not this), and a bound of 10 on the ratio: no absolute time is asserted. Each size is
// loaded again and again until 0.25 s of processor time has passed, and the time per load taken;
// the best of three such rounds. (Some kernels count processor time in ticks of 4 ms: one load of
// the small file in the release build, about 3 ms, then measured 0 or 4 ms, and the ratio of
// single loads went from 0 to x12.6.) (The library's part is also counted exactly: test_rig's
// name comparisons.)
static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double load_seconds(const char *json)
{
	double best = INFINITY;
	for (int round = 0; round < 3; round++) {
		int loads = 0;
		double start = cpu_seconds(), spent = 0.0;
		while (loads < 3 || spent < 0.25) {
			spring_rig *rig = SENTINEL;
			spring_file_error e;
			spring_result r = spring_rig_load_json(json, strlen(json), "scaled.json", &rig, &e);
			if (r != SPRING_OK) {
				fprintf(stderr, "  scaled rig failed: %s\n", e.message);
				return -1.0;
			}
			spring_rig_destroy(rig);
			loads++;
			spent = cpu_seconds() - start;
		}
		best = spent / loads < best ? spent / loads : best;
	}
	return best;
}

static int test_load_time_linear(void)
{
	char *one = generate(86, 4, 256, 0), *four = generate(344, 4, 1024, 0);
	ENSURE(one && four);
	double ratio_size = (double)strlen(four) / (double)strlen(one);
	double t1 = load_seconds(one), t4 = load_seconds(four);
	free(one);
	free(four);
	ENSURE(t1 > 0.0 && t4 > 0.0);
	printf("    x%.2f the bytes: %.2f ms, then %.2f ms (x%.2f)\n", ratio_size, t1 * 1e3, t4 * 1e3, t4 / t1);
	ENSURE(ratio_size > 3.8 && ratio_size < 4.2);
	ENSURE_MSG(t4 / t1 < 10.0, "x%.1f the time for x%.1f the bytes", t4 / t1, ratio_size);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 4. Files that cannot be read, too big, empty

static int write_temp(char *path, size_t size, const char *content, size_t length, size_t pad_to)
{
	snprintf(path, size, "/tmp/spring_rig_json_XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0) {
		return 1;
	}
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		return 1;
	}
	int ok = fwrite(content, 1, length, f) == length;
	static char spaces[65536];
	memset(spaces, ' ', sizeof spaces);
	for (size_t n = length; ok && n < pad_to;) {
		size_t chunk = pad_to - n < sizeof spaces ? pad_to - n : sizeof spaces;
		ok = fwrite(spaces, 1, chunk, f) == chunk;
		n += chunk;
	}
	return (fclose(f) == 0 && ok) ? 0 : 1;
}

static int test_file_errors(void)
{
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	const char *missing = SPRING_SOURCE_DIR "/tests/rigs/no_such_rig.json";
	spring_result r = spring_rig_load_file(missing, &rig, &e);
	ENSURE(check_failure(r, rig, &e, missing) == 0);
	ENSURE(r == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(e.path[0] == '\0' && e.line == 0);
	ENSURE_MSG(strstr(e.reason, "cannot open the file") && strstr(e.reason, "No such file"), "%s", e.reason);
	// A directory opens but does not read.
	r = spring_rig_load_file(BAD_DIR, &rig, &e);
	ENSURE(check_failure(r, rig, &e, BAD_DIR) == 0);
	ENSURE_MSG(strstr(e.reason, "cannot") != NULL, "%s", e.reason);

	// The size limit: 16 MiB loads (a valid rig padded with spaces), one byte more does not.
	text t = read_all(MINIMAL);
	ENSURE(t.data != NULL);
	char path[64];
	ENSURE(write_temp(path, sizeof path, t.data, t.size, SPRING_RIG_FILE_MAX_BYTES) == 0);
	r = spring_rig_load_file(path, &rig, &e);
	remove(path);
	ENSURE_MSG(r == SPRING_OK, "%s", e.message);
	spring_rig_destroy(rig);
	rig = SENTINEL;
	ENSURE(write_temp(path, sizeof path, t.data, t.size, SPRING_RIG_FILE_MAX_BYTES + 1) == 0);
	r = spring_rig_load_file(path, &rig, &e);
	remove(path);
	ENSURE(check_failure(r, rig, &e, path) == 0);
	ENSURE(r == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE_MSG(strstr(e.reason, "larger than 16 MiB") != NULL, "%s", e.reason);
	// The same limit from memory (the buffer is never read past the limit check).
	r = spring_rig_load_json(t.data, (size_t)SPRING_RIG_FILE_MAX_BYTES + 1, "big", &rig, &e);
	ENSURE(check_failure(r, rig, &e, "big") == 0);
	ENSURE(r == SPRING_ERROR_OUT_OF_RANGE);
	free(t.data);

	// Empty, from a file and from memory.
	ENSURE(write_temp(path, sizeof path, "", 0, 0) == 0);
	r = spring_rig_load_file(path, &rig, &e);
	remove(path);
	ENSURE(check_failure(r, rig, &e, path) == 0);
	ENSURE_MSG(strstr(e.reason, "empty") != NULL, "%s", e.reason);
	r = spring_rig_load_json(NULL, 0, NULL, &rig, &e);
	ENSURE(check_failure(r, rig, &e, "<memory>") == 0);
	ENSURE_MSG(strstr(e.reason, "empty") != NULL, "%s", e.reason);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 5. The sample rigs

static int run_clip(spring_rig *rig, const char *clip, float seconds, int *teleports)
{
	int c = spring_rig_find_clip(rig, clip);
	ENSURE_MSG(c >= 0, "no clip %s", clip);
	ENSURE(spring_rig_play(rig, c, 0.0f) == SPRING_OK);
	int frames = (int)(seconds * 60.0f + 0.5f);
	for (int f = 0; f < frames; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
		ENSURE_MSG(world_is_finite(rig), "NaN in clip %s at frame %d", clip, f);
		spring_rig_event ev[8];
		int n = spring_rig_get_events(rig, ev, 8, NULL);
		for (int i = 0; i < n; i++) {
			if (teleports && strcmp(ev[i].name, "teleport") == 0) {
				ENSURE_NEAR(ev[i].value[0], 400.0f, 0.0f);
				(*teleports)++;
			}
		}
	}
	return 0;
}

// Largest angle (radians) between a bone's final world angle and the pose the springs were
// layered on: > 0 shows the springs are doing something.
static float spring_deviation(const spring_rig *rig)
{
	spring_xform2 w[SPRING_RIG_MAX_BONES], b[SPRING_RIG_MAX_BONES];
	spring_rig_get_world(rig, w, SPRING_RIG_MAX_BONES);
	spring_rig_get_base_world(rig, b, SPRING_RIG_MAX_BONES);
	float most = 0.0f;
	for (int i = 0; i < spring_rig_bone_count(rig); i++) {
		float d = fabsf(spring_angle_delta(b[i].angle, w[i].angle));
		most = d > most ? d : most;
	}
	return most;
}

static int test_sample_character(void)
{
	static spring_rig_file_info info; // ~15 KB
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	ENSURE_MSG(spring_rig_load_file_ex(CHARACTER, &rig, &info, &e) == SPRING_OK, "%s", e.message);
	ENSURE(spring_rig_bone_count(rig) == 34 && info.bone_count == 34);
	ENSURE(spring_rig_chain_count(rig) == 4 && info.chain_count == 4);
	ENSURE(info.clip_count == 3 && info.ik_count == 2);
	ENSURE(strcmp(info.clips[0].name, "idle") == 0 && info.clips[0].duration == 2.0f && info.clips[0].loop);
	ENSURE(strcmp(info.clips[1].name, "walk") == 0 && info.clips[1].duration == 1.0f && info.clips[1].event_count == 1);
	ENSURE(strcmp(info.clips[2].name, "run") == 0 && info.clips[2].duration == 0.6f);
	ENSURE(strcmp(info.iks[0].name, "front_arm") == 0 && info.iks[0].type == SPRING_RIG_IK_TWO_BONE);
	ENSURE(info.iks[0].target_bone == spring_rig_find_bone(rig, "hand_target"));
	ENSURE(strcmp(info.iks[1].name, "back_arm") == 0 && info.iks[1].type == SPRING_RIG_IK_CCD);
	const char *chains[4] = {"tail", "hair_back", "hair_front", "cape"};
	const int counts[4] = {6, 3, 3, 4};
	for (int i = 0; i < 4; i++) {
		ENSURE(strcmp(info.chains[i].name, chains[i]) == 0 && info.chains[i].bone_count == counts[i]);
	}
	ENSURE(info.chains[0].type == SPRING_RIG_CHAIN_ANGLE && info.chains[3].type == SPRING_RIG_CHAIN_TIP);
	ENSURE(info.chains[3].collider_count == 2);
	ENSURE(spring_rig_find_bone(rig, "tail6") >= 0 && spring_rig_find_bone(rig, "head") >= 0);
	ENSURE_NEAR(info.step, 0.008333f, 0.0f);
	// An output array too small for the 34 bones is its own code, nothing written; the count
	// spring_rig_bone_count gives is enough, for each of the pose getters.
	typedef spring_result (*pose_getter)(const spring_rig *, spring_xform2 *, int);
	const pose_getter getters[] = {spring_rig_get_world, spring_rig_get_local, spring_rig_get_stepped_world,
	                               spring_rig_get_stepped_local, spring_rig_get_base_world};
	static spring_xform2 world[34], untouched[34];
	memset(untouched, 0x5a, sizeof untouched);
	for (int g = 0; g < (int)(sizeof getters / sizeof getters[0]); g++) {
		memcpy(world, untouched, sizeof world);
		ENSURE(getters[g](rig, world, 4) == SPRING_ERROR_BUFFER_TOO_SMALL);
		ENSURE(getters[g](rig, world, 33) == SPRING_ERROR_BUFFER_TOO_SMALL);
		ENSURE(getters[g](rig, world, -1) == SPRING_ERROR_INVALID_ARGUMENT);
		ENSURE(memcmp(world, untouched, sizeof world) == 0);
		ENSURE(getters[g](rig, world, spring_rig_bone_count(rig)) == SPRING_OK);
		ENSURE(memcmp(world, untouched, sizeof world) != 0);
	}
	memcpy(world, untouched, sizeof world);
	ENSURE(spring_rig_sample_clip(rig, 0, 0.5f, world, 33) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(memcmp(world, untouched, sizeof world) == 0);
	ENSURE(spring_rig_sample_clip(rig, 0, 0.5f, world, 34) == SPRING_OK);
	// Each clip for a few seconds: no error, no NaN, the springs move.
	int teleports = 0;
	ENSURE(run_clip(rig, "idle", 3.0f, NULL) == 0);
	ENSURE(run_clip(rig, "walk", 2.0f, &teleports) == 0);
	ENSURE(spring_deviation(rig) > 2.0f * DEG);
	ENSURE(run_clip(rig, "run", 3.0f, NULL) == 0);
	ENSURE(spring_deviation(rig) > 2.0f * DEG);
	ENSURE_MSG(teleports == 2, "%d teleport events in 2 s of walk", teleports);
	spring_rig_destroy(rig);
	return 0;
}

static int test_sample_undulation(void)
{
	static spring_rig_file_info info;
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	ENSURE_MSG(spring_rig_load_file_ex(UNDULATION, &rig, &info, &e) == SPRING_OK, "%s", e.message);
	ENSURE(spring_rig_bone_count(rig) == 8 && info.clip_count == 1 && info.chain_count == 1 && info.ik_count == 0);
	ENSURE(info.chains[0].type == SPRING_RIG_CHAIN_TIP && info.chains[0].bone_count == 7);
	for (int i = 0; i < 8; i++) {
		ENSURE(spring_rig_bone_length(rig, i) == 20.0f);
	}
	ENSURE(!info.clips[0].loop);
	// The root moves in the first 0.2 s and holds; the wave runs down and dies out.
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	float early = 0.0f, late = 0.0f;
	for (int f = 0; f < 10 * 60; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
		ENSURE(world_is_finite(rig));
		float d = spring_deviation(rig);
		if (f < 60) {
			early = d > early ? d : early;
		}
		if (f >= 9 * 60) {
			late = d > late ? d : late;
		}
	}
	ENSURE_MSG(early > 20.0f * DEG, "early swing %g deg", (double)(early / DEG));
	ENSURE_MSG(late < 0.5f * DEG, "still swinging %g deg after 9 s", (double)(late / DEG));
	spring_rig_destroy(rig);
	return 0;
}

// The undulation sample reproduces the legacy per-frame loop it was ported from: a literal loop,
// written as the tutorial writes it, on the same animated root bone, frame for frame at 30 fps;
// at 60 and 144 fps the rig keeps that motion.
typedef struct undulation_loop {
	spring_vec2 tip[7], vel[7];
} undulation_loop;

static void undulation_frame(undulation_loop *l, spring_xform2 root, int init)
{
	spring_xform2 parent = root;
	for (int i = 0; i < 7; i++) {
		spring_xform2 local = {{20.0f, 0.0f}, 0.0f, {1.0f, 1.0f}};
		spring_xform2 rigid = spring_xform2_mul(parent, local);
		spring_vec2 rigid_tip = spring_xform2_apply(rigid, spring_vec2_make(20.0f, 0.0f));
		if (init) { // at rest on the rigid pose
			l->tip[i] = rigid_tip;
			l->vel[i] = spring_vec2_make(0.0f, 0.0f);
			parent = rigid;
			continue;
		}
		l->vel[i] = spring_vec2_add(l->vel[i],
		                            spring_vec2_scale(spring_vec2_sub(rigid_tip, l->tip[i]), 0.1f)); // vel += (rigid - tip) * k
		l->vel[i] = spring_vec2_scale(l->vel[i], 0.7f);                                              // vel *= d
		l->tip[i] = spring_vec2_add(l->tip[i], l->vel[i]);                                           // tip += vel
		spring_vec2 arm = spring_vec2_normalize(spring_vec2_sub(l->tip[i], rigid.position));         // project to length
		l->tip[i] = spring_vec2_add(rigid.position, spring_vec2_scale(arm, 20.0f));
		parent = rigid; // aim: the bone turns to its tip
		parent.angle = atan2f(arm.y, arm.x);
	}
}

// The tips of the chain's bones (bones 1..7) in a world pose.
static void undulation_tips(const spring_xform2 *world, spring_vec2 *tips)
{
	for (int i = 0; i < 7; i++) {
		tips[i] = spring_xform2_apply(world[i + 1], spring_vec2_make(20.0f, 0.0f));
	}
}

enum { undulation_samples = 4 * 30 };

// The rig at `fps` for 4 s; the drawn tips at every 1/30 s (times the frame rate reaches).
static int undulation_run(float fps, spring_vec2 (*drawn)[7], float *loop_gap)
{
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	ENSURE_MSG(spring_rig_load_file_ex(UNDULATION, &rig, NULL, &e) == SPRING_OK, "%s", e.message);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	undulation_loop l;
	spring_xform2 world[8];
	spring_vec2 tips[7];
	int frames = (int)(4.0f * fps), per = (int)(fps + 0.5f);
	*loop_gap = 0.0f;
	ENSURE(spring_rig_get_stepped_world(rig, world, 8) == SPRING_OK);
	undulation_frame(&l, world[0], 1);
	for (int f = 1; f <= frames; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / fps) == SPRING_OK);
		if (fps == 30.0f) {
			// The loop on the root bone the rig's chain hangs from, at the same frames.
			ENSURE(spring_rig_get_stepped_world(rig, world, 8) == SPRING_OK);
			undulation_frame(&l, world[0], 0);
			undulation_tips(world, tips);
			for (int i = 0; i < 7; i++) {
				*loop_gap = fmaxf(*loop_gap, spring_vec2_length(spring_vec2_sub(tips[i], l.tip[i])) / 140.0f);
			}
		}
		if ((f * 30) % per == 0 && f * 30 / per <= undulation_samples) {
			ENSURE(spring_rig_get_world(rig, world, 8) == SPRING_OK);
			undulation_tips(world, drawn[f * 30 / per - 1]);
		}
	}
	spring_rig_destroy(rig);
	return 0;
}

static int test_undulation_reproduces_the_loop(void)
{
	static spring_vec2 at30[undulation_samples][7], other[undulation_samples][7];
	float gap;
	ENSURE(undulation_run(30.0f, at30, &gap) == 0);
	printf("    undulation.json vs the literal per-frame loop at 30 fps: %.2g of the chain length\n", (double)gap);
	ENSURE_MSG(gap <= 1e-4f, "%g", (double)gap);
	const float fps[] = {60.0f, 144.0f};
	for (int k = 0; k < 2; k++) {
		ENSURE(undulation_run(fps[k], other, &gap) == 0);
		int step = fps[k] == 144.0f ? 5 : 1; // 144 fps reaches every fifth 1/30 s
		float worst = 0.0f;
		for (int s = step - 1; s < undulation_samples; s += step) {
			for (int i = 0; i < 7; i++) {
				worst = fmaxf(worst, spring_vec2_length(spring_vec2_sub(other[s][i], at30[s][i])) / 140.0f);
			}
		}
		printf("    undulation.json at %g fps vs 30 fps: %.2g of the chain length\n", (double)fps[k], (double)worst);
		ENSURE_MSG(worst <= 1e-3f, "%g fps: %g", (double)fps[k], (double)worst);
	}
	// Unknown names are refused with the choices.
	const char *bad = "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [{\"name\": \"a\", \"length\": 10},"
					  "{\"name\": \"b\", \"parent\": \"a\", \"length\": 10, \"x\": 10}], \"chains\": [{\"name\": \"c\","
					  "\"type\": \"tip\", \"first\": \"b\", \"last\": \"b\", \"projection\": \"keep\"}]}";
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	ENSURE(spring_rig_load_json_ex(bad, strlen(bad), "bad", &rig, NULL, &e) != SPRING_OK);
	ENSURE_MSG(strstr(e.message, "\"remove-velocity\" or \"keep-velocity\""), "%s", e.message);
	return 0;
}

// The example in docs/rig-format.md is a valid rig.
static int test_doc_example(void)
{
	text t = read_all(SPRING_SOURCE_DIR "/docs/rig-format.md");
	ENSURE(t.data != NULL);
	const char *start = strstr(t.data, "```json\n");
	ENSURE(start != NULL);
	start += 8;
	const char *end = strstr(start, "```");
	ENSURE(end != NULL);
	static spring_rig_file_info info;
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	spring_result r = spring_rig_load_json_ex(start, (size_t)(end - start), "rig-format.md example", &rig, &info, &e);
	free(t.data);
	ENSURE_MSG(r == SPRING_OK, "%s", e.message);
	ENSURE(info.clip_count == 1 && info.ik_count == 1 && info.chain_count == 2 && info.chains[1].collider_count == 3);
	ENSURE(run_clip(rig, "walk", 2.0f, NULL) == 0);
	spring_rig_destroy(rig);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 6. Units and defaults

static int test_degrees_and_defaults(void)
{
	const char *json = "{\"format\": \"libspring-rig\", \"version\": 1,"
					   " \"root\": {\"x\": 5, \"y\": -2, \"rotation\": 90},"
					   " \"bones\": [{\"name\": \"a\", \"parent\": null, \"length\": 10, \"rotation\": 30},"
					   "             {\"name\": \"b\", \"parent\": \"a\", \"x\": 10, \"rotation\": -45, \"scale_x\": 2},"
					   "             {\"name\": \"c\"}]}";
	static spring_rig_file_info info;
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	ENSURE_MSG(spring_rig_load_json_ex(json, strlen(json), "units", &rig, &info, &e) == SPRING_OK, "%s", e.message);
	spring_xform2 w[3];
	ENSURE(spring_rig_get_world(rig, w, 3) == SPRING_OK);
	ENSURE_NEAR(w[0].position.x, 5.0f, 1e-5f);
	ENSURE_NEAR(w[0].position.y, -2.0f, 1e-5f);
	ENSURE_NEAR(w[0].angle, 120.0f * DEG, 1e-5f);
	ENSURE_NEAR(w[1].angle, 75.0f * DEG, 1e-5f);
	ENSURE_NEAR(w[1].scale.x, 2.0f, 0.0f);
	ENSURE_NEAR(w[1].scale.y, 1.0f, 0.0f);
	// b sits at a's tip: root + R(120 deg) * (10, 0).
	ENSURE_NEAR(w[1].position.x, 5.0f + 10.0f * cosf(120.0f * DEG), 1e-4f);
	ENSURE_NEAR(w[1].position.y, -2.0f + 10.0f * sinf(120.0f * DEG), 1e-4f);
	// Defaults: a bone without parent is a root bone, length 0; step 1/120, 8 steps.
	ENSURE(spring_rig_bone_parent(rig, 2) == -1 && spring_rig_bone_length(rig, 2) == 0.0f);
	ENSURE(info.step == 1.0f / 120.0f && info.max_steps == 8);
	ENSURE(spring_rig_clock(rig)->step == 1.0f / 120.0f && spring_rig_clock(rig)->max_steps == 8);
	ENSURE_NEAR(info.root.angle, 90.0f * DEG, 1e-6f);
	ENSURE(info.clip_count == 0 && info.ik_count == 0 && info.chain_count == 0);
	spring_rig_destroy(rig);

	// IK with a null target: the program sets it (target_bone -1); defaults for CCD.
	rig = SENTINEL;
	ENSURE_MSG(spring_rig_load_file_ex(MINIMAL, &rig, &info, &e) == SPRING_OK, "%s", e.message);
	ENSURE(info.ik_count == 2 && info.iks[1].target_bone == -1 && info.iks[0].target_bone == spring_rig_find_bone(rig, "target"));
	ENSURE(spring_rig_set_ik_target(rig, 1, spring_vec2_make(0.0f, -20.0f)) == SPRING_OK);
	ENSURE(spring_rig_play(rig, spring_rig_find_clip(rig, "move"), 0.0f) == SPRING_OK);
	for (int f = 0; f < 120; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
		ENSURE(world_is_finite(rig));
	}
	spring_rig_destroy(rig);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 7. Every parameterisation is converted by the library's own function

// The minimal rig's angle chain with `spring` as its spring, run for 1.5 s of the clip; the
// final world pose of the chain's bones goes to `out`.
static int run_spring(const char *spring, spring_xform2 *out, int capacity)
{
	text t = read_all(MINIMAL);
	ENSURE(t.data != NULL);
	const char *from = "{\"frequency\": 2, \"damping_ratio\": 0.3}";
	char *at = strstr(t.data, from);
	ENSURE(at != NULL);
	buf b = {NULL, 0, 0};
	buf_add(&b, "%.*s%s%s", (int)(at - t.data), t.data, spring, at + strlen(from));
	free(t.data);
	ENSURE(b.data != NULL);
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	spring_result r = spring_rig_load_json(b.data, b.size, "spring.json", &rig, &e);
	free(b.data);
	ENSURE_MSG(r == SPRING_OK, "%s: %s", spring, e.message);
	ENSURE(spring_rig_play(rig, 0, 0.0f) == SPRING_OK);
	for (int f = 0; f < 90; f++) {
		ENSURE(spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK);
	}
	ENSURE(spring_rig_get_world(rig, out, capacity) == SPRING_OK);
	spring_rig_destroy(rig);
	return 0;
}

static int test_every_parameterisation(void)
{
	typedef struct pcase {
		const char *json;
		spring_result r;
		spring_params p;
	} pcase;
	pcase cases[13];
	int n = 0;
#define PCASE(text, call)     \
	do {                      \
		cases[n].json = text; \
		cases[n].r = call;    \
		n++;                  \
	} while (0)
	PCASE("{\"stiffness\": 150, \"damping\": 4}", spring_params_from_physical(1.0f, 150.0f, 4.0f, &cases[n].p));
	PCASE("{\"stiffness\": 150, \"damping\": 4, \"mass\": 2.5}", spring_params_from_physical(2.5f, 150.0f, 4.0f, &cases[n].p));
	PCASE("{\"damping_ratio\": 0.25, \"frequency\": 1.7}", spring_params_from_frequency(1.7f, 0.25f, &cases[n].p));
	PCASE("{\"duration\": 0.6, \"bounce\": -0.3}", spring_params_from_duration_bounce(0.6f, -0.3f, &cases[n].p));
	PCASE("{\"response\": 0.45, \"damping_fraction\": 0.6}", spring_params_from_response(0.45f, 0.6f, &cases[n].p));
	PCASE("{\"settling\": 0.9, \"damping_ratio\": 0.4}", spring_params_from_settling(0.9f, 0.4f, 0.001f, &cases[n].p));
	PCASE("{\"visual_duration\": 0.3, \"bounce\": 0.25}", spring_params_from_visual_duration(0.3f, 0.25f, &cases[n].p));
	// bounce is optional (default 0), as for the CLI's --duration and --visual-duration.
	PCASE("{\"duration\": 0.5}", spring_params_from_duration_bounce(0.5f, 0.0f, &cases[n].p));
	PCASE("{\"visual_duration\": 0.3}", spring_params_from_visual_duration(0.3f, 0.0f, &cases[n].p));
	PCASE("{\"half_life\": 0.07}", spring_params_from_half_life(0.07f, &cases[n].p));
	PCASE("{\"tension\": 170, \"friction\": 26}", spring_params_from_tension_friction(170.0f, 26.0f, &cases[n].p));
	PCASE("{\"origami_tension\": 40, \"origami_friction\": 7}", spring_params_from_origami(40.0f, 7.0f, &cases[n].p));
	PCASE("{\"per_frame_stiffness\": 0.1, \"per_frame_damping\": 0.7, \"fps\": 30}",
	      spring_params_from_per_frame(0.1f, 0.7f, 30.0f, &cases[n].p));
#undef PCASE
	for (int i = 0; i < n; i++) {
		ENSURE(cases[i].r == SPRING_OK);
		char physical[160];
		snprintf(physical, sizeof physical, "{\"stiffness\": %.9g, \"damping\": %.9g, \"mass\": %.9g}",
		         (double)cases[i].p.stiffness, (double)cases[i].p.damping, (double)cases[i].p.mass);
		spring_xform2 a[16], b[16];
		ENSURE(run_spring(cases[i].json, a, 16) == 0);
		ENSURE(run_spring(physical, b, 16) == 0);
		ENSURE_MSG(memcmp(a, b, sizeof a[0] * 11) == 0, "%s differs from %s", cases[i].json, physical);
	}
	// And the springs differ from each other (the comparison can fail).
	spring_xform2 a[16], b[16];
	ENSURE(run_spring(cases[2].json, a, 16) == 0);
	ENSURE(run_spring(cases[3].json, b, 16) == 0);
	ENSURE(memcmp(a, b, sizeof a[0] * 11) != 0);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 8. Truncations and mutations

static int load_must_be_clean(const char *data, size_t size, const char *name, int *loaded)
{
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	spring_result r = spring_rig_load_json(data, size, name, &rig, &e);
	if (r == SPRING_OK) {
		ENSURE(rig != SENTINEL && rig != NULL);
		for (int f = 0; f < 10; f++) {
			ENSURE(spring_rig_update(rig, 1.0f / 30.0f) == SPRING_OK);
			ENSURE(world_is_finite(rig));
		}
		spring_rig_destroy(rig);
		(*loaded)++;
		return 0;
	}
	return check_failure(r, rig, &e, name);
}

static int test_every_truncation(void)
{
	const char *files[2] = {CHARACTER, UNDULATION};
	for (int k = 0; k < 2; k++) {
		text t = read_all(files[k]);
		ENSURE(t.data != NULL && t.size > 100);
		int loaded = 0;
		for (size_t n = 0; n <= t.size; n++) {
			// An exact-size copy, so ASan sees any read past the given length.
			char *copy = (char *)malloc(n ? n : 1);
			ENSURE(copy != NULL);
			memcpy(copy, t.data, n);
			int rc = load_must_be_clean(copy, n, "truncated.json", &loaded);
			free(copy);
			if (rc) {
				fprintf(stderr, "  at %zu of %zu bytes\n", n, t.size);
				free(t.data);
				return 1;
			}
		}
		// Only the whole file and the file minus its final newline are complete documents.
		ENSURE_MSG(loaded == 2, "%d truncations loaded", loaded);
		free(t.data);
	}
	return 0;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

static int test_mutations(void)
{
	text t = read_all(CHARACTER);
	ENSURE(t.data != NULL);
	static const char interesting[] = "0123456789-.eE+\"{}[],: \n\\ntfaxyl";
	char *copy = (char *)malloc(t.size);
	ENSURE(copy != NULL);
	int loaded = 0;
	for (int i = 0; i < 4000; i++) {
		memcpy(copy, t.data, t.size);
		int edits = 1 + (int)(rng() % 3);
		for (int k = 0; k < edits; k++) {
			size_t at = rng() % t.size;
			uint32_t how = rng() % 4;
			copy[at] = how == 0 ? (char)(rng() & 0xff) : interesting[rng() % (sizeof interesting - 1)];
		}
		if (load_must_be_clean(copy, t.size, "mutated.json", &loaded)) {
			fprintf(stderr, "  mutation %d\n", i);
			free(copy);
			free(t.data);
			return 1;
		}
	}
	printf("       %d of 4000 mutations still loaded\n", loaded);
	free(copy);
	free(t.data);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 9. Out of memory at every allocation

static long alloc_countdown = -1; // fail when it reaches 0; -1: never
static long alloc_count;

static void *failing_malloc(size_t size)
{
	alloc_count++;
	if (alloc_countdown >= 0 && alloc_countdown-- == 0) {
		return NULL;
	}
	return malloc(size);
}

static void *spring_failing_alloc(size_t size, size_t alignment, void *context)
{
	(void)context;
	alloc_count++;
	if (alloc_countdown >= 0 && alloc_countdown-- == 0) {
		return NULL;
	}
	size_t a = alignment < sizeof(void *) ? sizeof(void *) : alignment;
	return aligned_alloc(a, (size + a - 1) / a * a);
}

static void spring_failing_free(void *p, void *context)
{
	(void)context;
	free(p);
}

static int test_out_of_memory(void)
{
	text t = read_all(MINIMAL);
	ENSURE(t.data != NULL);
	cJSON_Hooks hooks = {failing_malloc, free};
	spring_allocator sa = {spring_failing_alloc, spring_failing_free, NULL};
	cJSON_InitHooks(&hooks);
	spring_set_allocator(&sa);
	// Count the allocations of a successful load, then fail each in turn.
	alloc_count = 0;
	alloc_countdown = -1;
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	spring_result r = spring_rig_load_json(t.data, t.size, "oom.json", &rig, &e);
	long total = alloc_count;
	int rc = 0;
	if (r != SPRING_OK || total < 10) {
		fprintf(stderr, "  baseline load: %s (%ld allocations)\n", e.message, total);
		rc = 1;
	} else {
		spring_rig_destroy(rig);
	}
	for (long k = 0; k < total && rc == 0; k++) {
		alloc_countdown = k;
		rig = SENTINEL;
		r = spring_rig_load_json(t.data, t.size, "oom.json", &rig, &e);
		if (check_failure(r, rig, &e, "oom.json") || r != SPRING_ERROR_OUT_OF_MEMORY || !strstr(e.reason, "out of memory")) {
			fprintf(stderr, "  allocation %ld of %ld failed: %d %s\n", k, total, (int)r, e.message);
			rc = 1;
		}
	}
	alloc_countdown = -1;
	cJSON_InitHooks(NULL);
	spring_set_allocator(NULL);
	free(t.data);
	ENSURE(rc == 0);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// 10. The in-memory interface

static int test_memory_interface(void)
{
	text t = read_all(MINIMAL);
	ENSURE(t.data != NULL);
	// No terminator needed: an exact-size buffer (ASan catches a read past it).
	char *exact = (char *)malloc(t.size);
	ENSURE(exact != NULL);
	memcpy(exact, t.data, t.size);
	spring_rig *rig = SENTINEL;
	spring_file_error e;
	ENSURE_MSG(spring_rig_load_json(exact, t.size, NULL, &rig, &e) == SPRING_OK, "%s", e.message);
	spring_rig_destroy(rig);
	// Only `length` bytes count: garbage after them is never seen.
	char *longer = (char *)malloc(t.size + 8);
	ENSURE(longer != NULL);
	memcpy(longer, t.data, t.size);
	memcpy(longer + t.size, "garbage!", 8);
	rig = SENTINEL;
	ENSURE_MSG(spring_rig_load_json(longer, t.size, NULL, &rig, &e) == SPRING_OK, "%s", e.message);
	spring_rig_destroy(rig);
	// ... but inside them it is.
	rig = SENTINEL;
	spring_result r = spring_rig_load_json(longer, t.size + 8, NULL, &rig, &e);
	ENSURE(check_failure(r, rig, &e, "<memory>") == 0);
	ENSURE_MSG(strstr(e.reason, "after the end of the document") != NULL, "%s", e.reason);
	free(longer);
	free(exact);
	// A UTF-8 byte order mark is skipped.
	buf b = {NULL, 0, 0};
	buf_add(&b, "\xEF\xBB\xBF%s", t.data);
	rig = SENTINEL;
	ENSURE_MSG(spring_rig_load_json(b.data, b.size, "bom.json", &rig, &e) == SPRING_OK, "%s", e.message);
	spring_rig_destroy(rig);
	free(b.data);
	// ... and takes no column in positions.
	rig = SENTINEL;
	r = spring_rig_load_json("\xEF\xBB\xBF{,}", 6, "bom.json", &rig, &e);
	ENSURE(check_failure(r, rig, &e, "bom.json") == 0);
	ENSURE_MSG(e.line == 1 && e.column == 2, "line %d column %d", e.line, e.column);
	// NULL arguments; a NULL error pointer is allowed.
	rig = SENTINEL;
	ENSURE(spring_rig_load_json(t.data, t.size, NULL, NULL, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_load_json(NULL, 5, NULL, &rig, &e) == SPRING_ERROR_INVALID_ARGUMENT && rig == SENTINEL);
	ENSURE(spring_rig_load_file(NULL, &rig, &e) == SPRING_ERROR_INVALID_ARGUMENT && rig == SENTINEL);
	ENSURE(spring_rig_load_file(MINIMAL, NULL, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_rig_load_json("[]", 2, NULL, &rig, NULL) == SPRING_ERROR_BAD_DEFINITION && rig == SENTINEL);
	ENSURE(spring_rig_load_file(MINIMAL, &rig, NULL) == SPRING_OK && rig != SENTINEL);
	spring_rig_destroy(rig);
	// A long file name is truncated in `file`, never overflowed.
	char name[600];
	memset(name, 'n', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	rig = SENTINEL;
	ENSURE(spring_rig_load_json("{}", 2, name, &rig, &e) == SPRING_ERROR_BAD_DEFINITION);
	ENSURE(strlen(e.file) == sizeof e.file - 1 && strlen(e.message) < sizeof e.message);
	free(t.data);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_corpus);
	RUN_TEST(test_corpus_is_all_listed);
	RUN_TEST(test_generated_limits);
	RUN_TEST(test_root_within_chains);
	RUN_TEST(test_load_time_linear);
	RUN_TEST(test_file_errors);
	RUN_TEST(test_sample_character);
	RUN_TEST(test_sample_undulation);
	RUN_TEST(test_undulation_reproduces_the_loop);
	RUN_TEST(test_doc_example);
	RUN_TEST(test_degrees_and_defaults);
	RUN_TEST(test_every_parameterisation);
	RUN_TEST(test_every_truncation);
	RUN_TEST(test_mutations);
	RUN_TEST(test_out_of_memory);
	RUN_TEST(test_memory_interface);
	return TEST_SUMMARY();
}
