// SPDX-License-Identifier: MIT
// The rig-file reader's context: the first error, the temporary memory (freed together), and the
// final "file: path: reason" message.
#include "rig_json_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void rj_copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size) {
		n = size - 1;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

spring_result rj_fail(rj *c, spring_result code, const char *path, const char *fmt, ...)
{
	if (c->result != SPRING_OK) {
		return c->result;
	}
	c->result = code;
	if (c->err) {
		rj_copy_str(c->err->path, sizeof c->err->path, path);
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err->reason, sizeof c->err->reason, fmt, ap);
		va_end(ap);
	}
	return code;
}

void rj_warn(rj *c, const char *path, const char *fmt, ...)
{
	if (c->warning_count < SPRING_RIG_FILE_MAX_WARNINGS) {
		char reason[256];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(reason, sizeof reason, fmt, ap);
		va_end(ap);
		snprintf(c->warnings[c->warning_count], sizeof c->warnings[0], "%s: %s", path, reason);
	}
	c->warning_count++;
}

void rj_check_degrees(rj *c, const char *path, double degrees)
{
	if (fabs(degrees) < 2.0 * SPRING_PI && degrees != floor(degrees)) {
		rj_warn(c, path, "%.6g looks like radians, but this value is in degrees (%.6g radians would be %.4g degrees)", degrees,
		        degrees, degrees / RJ_DEG_TO_RAD);
	}
}

spring_result rj_bad(rj *c, const char *path, const char *fmt, ...)
{
	if (c->result != SPRING_OK) {
		return c->result;
	}
	char reason[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	return rj_fail(c, SPRING_ERROR_BAD_DEFINITION, path, "%s", reason);
}

void *rj_alloc(rj *c, size_t count, size_t size)
{
	if (size != 0 && count > (SIZE_MAX - sizeof(rj_block)) / size) {
		rj_fail(c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory");
		return NULL;
	}
	size_t bytes = count * size;
	rj_block *b = (rj_block *)cJSON_malloc(sizeof(rj_block) + bytes);
	if (!b) {
		rj_fail(c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory (%zu bytes)", bytes);
		return NULL;
	}
	memset(b + 1, 0, bytes);
	b->next = c->blocks;
	c->blocks = b;
	return b + 1;
}

static void rj_free_all(rj *c)
{
	while (c->blocks) {
		rj_block *next = c->blocks->next;
		cJSON_free(c->blocks);
		c->blocks = next;
	}
}

void rj_begin(rj *c, spring_file_error *error, const char *name)
{
	memset(c, 0, sizeof *c);
	c->err = error;
	if (error) {
		memset(error, 0, sizeof *error);
		rj_copy_str(error->file, sizeof error->file, name);
	}
}

spring_result rj_finish(rj *c)
{
	rj_free_all(c);
	spring_file_error *e = c->err;
	if (e && c->result != SPRING_OK) {
		if (e->path[0]) {
			snprintf(e->message, sizeof e->message, "%s: %s: %s", e->file, e->path, e->reason);
		} else {
			snprintf(e->message, sizeof e->message, "%s: %s", e->file, e->reason);
		}
	}
	return c->result;
}
