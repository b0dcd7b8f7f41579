// SPDX-License-Identifier: MIT
// Rig files (docs/rig-format.md) -> spring_rig: the document and the public entry points.
//
//   text --(size, BOM, strict RFC 8259 check with line/column: json_check.c)--> cJSON tree
//        --(every element validated, degrees -> radians, names -> indices: rig_json_sections.c)
//        --> spring_rig_desc
//        --(spring_rig_create; its errors mapped back to JSON paths: rig_json_errors.c)--> spring_rig
//
// After the strict syntax check passes, cJSON can only fail for lack of memory. Everything
// temporary is freed on every path; `*out` is written only on success.
//
// Threads: cJSON's parser records its last error in a global (every cJSON_Parse* call of
// cJSON 1.7 writes it, even on success), so loads on several threads would race there. One
// mutex serialises the parse call; everything else a load touches is its own.
#define _POSIX_C_SOURCE 200809L
#include "rig_json_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// The document

static void fill_info(const spring_rig *rig, const spring_rig_desc *d, spring_rig_file_info *info)
{
	memset(info, 0, sizeof *info);
	info->version = SPRING_RIG_FILE_VERSION;
	info->bone_count = d->bone_count;
	info->step = d->step;
	info->max_steps = d->max_steps;
	info->root = d->root;
	info->clip_count = d->clip_count;
	for (int i = 0; i < d->clip_count; i++) {
		spring_rig_file_clip *cl = &info->clips[i];
		rj_copy_str(cl->name, sizeof cl->name, d->clips[i].name);
		cl->duration = d->clips[i].duration;
		cl->loop = d->clips[i].loop;
		cl->track_count = d->clips[i].track_count;
		cl->event_count = d->clips[i].event_count;
	}
	info->ik_count = d->ik_count;
	for (int i = 0; i < d->ik_count; i++) {
		spring_rig_file_ik *ik = &info->iks[i];
		rj_copy_str(ik->name, sizeof ik->name, d->iks[i].name);
		ik->type = d->iks[i].type;
		ik->first_bone = spring_rig_find_bone(rig, d->iks[i].first);
		ik->last_bone = spring_rig_find_bone(rig, d->iks[i].last);
		ik->target_bone = d->iks[i].target ? spring_rig_find_bone(rig, d->iks[i].target) : -1; // -1: the program's
	}
	info->chain_count = d->chain_count;
	for (int i = 0; i < d->chain_count; i++) {
		spring_rig_file_chain *ch = &info->chains[i];
		rj_copy_str(ch->name, sizeof ch->name, d->chains[i].name);
		ch->type = d->chains[i].type;
		ch->first_bone = spring_rig_find_bone(rig, d->chains[i].first);
		ch->last_bone = spring_rig_find_bone(rig, d->chains[i].last);
		ch->bone_count = spring_rig_chain_bones(rig, i, NULL, 0);
		ch->collider_count = d->chains[i].collider_count;
	}
}

static spring_result read_document(rj *c, const cJSON *doc, spring_rig **out, spring_rig_file_info *info)
{
	if (!cJSON_IsObject(doc)) {
		return rj_bad(c, "$", "expected an object (a libspring rig), got %s", rj_type_name(doc));
	}
	const cJSON *format = cJSON_GetObjectItemCaseSensitive(doc, "format");
	if (!format) {
		return rj_bad(c, "$", "missing key \"format\" (a rig file starts with \"format\": \"libspring-rig\")");
	}
	if (!cJSON_IsString(format) || strcmp(format->valuestring, "libspring-rig") != 0) {
		char q[96];
		return rj_bad(c, "$.format", "expected \"libspring-rig\", got %s",
		              cJSON_IsString(format) ? rj_quoted(q, sizeof q, format->valuestring, 40) : rj_type_name(format));
	}
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "version");
	if (!version) {
		return rj_bad(c, "$", "missing key \"version\" (this reader reads version %d)", SPRING_RIG_FILE_VERSION);
	}
	int v = 0;
	if (rj_integer_item(c, version, "$.version", INT32_MIN + 1, INT32_MAX, &v) != SPRING_OK) {
		return c->result;
	}
	if (v != SPRING_RIG_FILE_VERSION) {
		return rj_bad(c, "$.version", "unsupported version %d (this reader reads version %d)", v, SPRING_RIG_FILE_VERSION);
	}
	static const char *keys[] = {"format", "version", "root", "step", "max_steps", "bones", "clips", "ik", "chains", NULL};
	spring_rig_desc desc;
	memset(&desc, 0, sizeof desc);
	if (rj_check_keys(c, doc, "$", keys, "") || rj_read_root(c, doc, &desc.root) ||
	    rj_get_float(c, doc, "$", "step", 0, SPRING_CLOCK_DEFAULT_STEP, 0.0, 1.0, RJ_LO_OPEN, &desc.step) ||
	    rj_get_int(c, doc, "$", "max_steps", SPRING_CLOCK_DEFAULT_MAX_STEPS, 1, 1000, &desc.max_steps) || rj_read_bones(c, doc)) {
		return c->result;
	}
	desc.bone_count = c->bone_count;
	desc.bones = c->bones;
	if (rj_read_clips(c, doc, &desc) || rj_read_iks(c, doc, &desc) || rj_read_chains(c, doc, &desc)) {
		return c->result;
	}
	spring_rig *rig = NULL;
	spring_error e;
	memset(&e, 0, sizeof e);
	spring_result r = spring_rig_create(&desc, &rig, &e);
	if (r != SPRING_OK) {
		rj_map_create_error(c, doc, r, &e);
		return c->result;
	}
	if (info) {
		fill_info(rig, &desc, info);
		info->warning_count = c->warning_count;
		memcpy(info->warnings, c->warnings, sizeof info->warnings);
	}
	*out = rig;
	return SPRING_OK;
}

static int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

cJSON *rj_parse(rj *c, const char *buf, size_t length)
{
	c->text = buf;
	c->length = length;
	size_t start = 0;
	if (length >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) {
		start = 3; // a UTF-8 byte order mark
	}
	size_t i = start;
	while (i < length && is_space(buf[i])) {
		i++;
	}
	if (i == length) {
		rj_bad(c, "", length == 0 ? "the file is empty" : "the file contains no JSON (only white space)");
		return NULL;
	}
	size_t err_pos = 0;
	char why[160];
	const char *nul = (const char *)memchr(buf, '\0', length);
	if (nul || !rj_json_check(buf + start, length - start, &err_pos, why, sizeof why)) {
		if (nul) {
			err_pos = (size_t)(nul - buf);
			snprintf(why, sizeof why, "NUL byte in the file (is it a text file?)");
		} else {
			err_pos += start;
		}
		int line, column;
		rj_line_column(buf, length, err_pos, &line, &column);
		rj_bad(c, "", "malformed JSON near line %d, column %d: %s", line, column, why);
		if (c->err) {
			c->err->line = line;
			c->err->column = column;
		}
		return NULL;
	}
	static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;
	const char *end = NULL;
	pthread_mutex_lock(&parse_lock);
	cJSON *doc = cJSON_ParseWithLengthOpts(buf + start, length - start, &end, 0);
	pthread_mutex_unlock(&parse_lock);
	if (!doc) {
		// The syntax is valid, so cJSON ran out of memory.
		rj_fail(c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory while parsing the JSON");
	}
	return doc;
}

// Parses `buf[0..length)` (buf[length] == '\0', the caller's copy) into a rig.
static spring_result load_buffer(rj *c, const char *buf, size_t length, spring_rig **out, spring_rig_file_info *info)
{
	cJSON *doc = rj_parse(c, buf, length);
	if (!doc) {
		return c->result;
	}
	spring_result r = read_document(c, doc, out, info);
	cJSON_Delete(doc);
	return r;
}

// text[0..length) and a terminating NUL in temporary memory (NULL when out of memory).
static char *copy_text(rj *c, const char *text, size_t length)
{
	char *copy = (char *)rj_alloc(c, length + 1, 1);
	if (copy) {
		if (length > 0) {
			memcpy(copy, text, length);
		}
		copy[length] = '\0';
	}
	return copy;
}

spring_result spring_rig_load_json_ex(const char *text, size_t length, const char *name_for_errors, spring_rig **out,
                                      spring_rig_file_info *info, spring_file_error *error)
{
	rj c;
	rj_begin(&c, error, name_for_errors ? name_for_errors : "<memory>");
	if (!out || (!text && length > 0)) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : "text is NULL");
		return rj_finish(&c);
	}
	if (length > SPRING_RIG_FILE_MAX_BYTES) {
		rj_fail(&c, SPRING_ERROR_OUT_OF_RANGE, "", "the document is larger than %u bytes (16 MiB): %zu bytes",
		        SPRING_RIG_FILE_MAX_BYTES, length);
		return rj_finish(&c);
	}
	char *copy = copy_text(&c, text, length);
	if (copy) {
		load_buffer(&c, copy, length, out, info);
	}
	return rj_finish(&c);
}

spring_result spring_rig_load_json(const char *text, size_t length, const char *name_for_errors, spring_rig **out,
                                   spring_file_error *error)
{
	return spring_rig_load_json_ex(text, length, name_for_errors, out, NULL, error);
}

char *rj_read_file(rj *c, const char *filename, size_t max_bytes, size_t *length)
{
	FILE *f = fopen(filename, "rb");
	if (!f) {
		rj_fail(c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot open the file: %s", strerror(errno));
		return NULL;
	}
	// Read in chunks (works for pipes too), at most the limit plus one byte to detect "too big".
	const size_t limit = max_bytes + 1u;
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int failed = 0;
	for (;;) {
		if (n == cap) {
			if (cap >= limit) {
				break;
			}
			size_t next = cap == 0 ? 64u * 1024u : cap * 2u;
			next = next > limit ? limit : next;
			char *grown = (char *)cJSON_malloc(next + 1);
			if (!grown) {
				rj_fail(c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory reading the file");
				failed = 1;
				break;
			}
			if (n > 0) {
				memcpy(grown, buf, n);
			}
			cJSON_free(buf);
			buf = grown;
			cap = next;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				int err = errno;
				rj_fail(c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot read the file: %s", err ? strerror(err) : "read error");
				failed = 1;
			}
			break;
		}
	}
	fclose(f);
	if (!failed && n > max_bytes) {
		rj_fail(c, SPRING_ERROR_OUT_OF_RANGE, "", "the file is larger than %zu MiB (%zu bytes)", max_bytes / (1024u * 1024u),
		        max_bytes);
		failed = 1;
	}
	if (failed) {
		cJSON_free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*length = n;
	return buf;
}

spring_result spring_rig_load_file_ex(const char *filename, spring_rig **out, spring_rig_file_info *info,
                                      spring_file_error *error)
{
	rj c;
	rj_begin(&c, error, filename ? filename : "<null>");
	if (!filename || !out) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : "no file name given");
		return rj_finish(&c);
	}
	size_t length = 0;
	char *buf = rj_read_file(&c, filename, SPRING_RIG_FILE_MAX_BYTES, &length);
	if (buf) {
		load_buffer(&c, buf, length, out, info);
	}
	cJSON_free(buf);
	return rj_finish(&c);
}

spring_result spring_rig_load_file(const char *filename, spring_rig **out, spring_file_error *error)
{
	return spring_rig_load_file_ex(filename, out, NULL, error);
}

spring_result rj_load_spring_json(const char *text, size_t length, const char *name_for_errors, spring_params *out,
                                  spring_file_error *error)
{
	rj c;
	rj_begin(&c, error, name_for_errors ? name_for_errors : "<memory>");
	if (!out || !text) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : "text is NULL");
		return rj_finish(&c);
	}
	char *copy = copy_text(&c, text, length);
	cJSON *doc = copy ? rj_parse(&c, copy, length) : NULL;
	if (doc) {
		rj_spring_item(&c, doc, "$", out);
		cJSON_Delete(doc);
	}
	return rj_finish(&c);
}
