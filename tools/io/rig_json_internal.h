// SPDX-License-Identifier: MIT
// What the files of the rig-file reader share (not installed, not for users):
//
//   rig_json_context.c   the reader's context: first error, temporary memory, the final message
//   json_check.c         the strict RFC 8259 syntax check and line/column positions
//   json_read.c          typed values out of cJSON with JSON paths in errors, "did you mean"
//   rig_json_spring.c    spring objects, through the parameterisation table (param_table.h)
//   rig_json_sections.c  the sections: root, bones, clips, IK, chains
//   rig_json_errors.c    spring_rig_create's errors mapped back to JSON paths
//   rig_json.c           the document and the public entry points (include/spring/io.h)
//   vrm.c                VRM spring bones into a spring skeleton (include/spring/vrm.h)
#ifndef SPRING_RIG_JSON_INTERNAL_H
#define SPRING_RIG_JSON_INTERNAL_H

#include <spring/io.h>

#include <cjson/cJSON.h>

#include <stddef.h>

#if defined(__GNUC__)
#define RJ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RJ_PRINTF(f, a)
#endif

#define RJ_BIG ((double)SPRING_RIG_MAX_COORDINATE) // the largest magnitude a rig accepts
#define RJ_MAX_DEPTH 64                            // JSON nesting accepted (the format needs 6)
#define RJ_MAX_NUMBER_CHARS 63                     // cJSON parses at most this many characters of a number
#define RJ_DEG_TO_RAD (SPRING_PI / 180.0)

// ---------------------------------------------------------------------------------------------
// Context, errors, temporary memory (rig_json_context.c)

typedef union rj_block {
	union rj_block *next;
	max_align_t align;
} rj_block;

typedef struct rj {
	spring_file_error *err;
	spring_result result; // first error (SPRING_OK while none)
	const char *text;     // the document as given (for line/column)
	size_t length;
	rj_block *blocks; // temporary allocations, freed together

	int bone_count;
	spring_rig_bone_desc *bones;

	int warning_count; // warnings raised; the first SPRING_RIG_FILE_MAX_WARNINGS kept
	char warnings[SPRING_RIG_FILE_MAX_WARNINGS][SPRING_RIG_FILE_WARNING_SIZE];
} rj;

/// Starts a read: clears `c` and `error` (optional) and names the document.
void rj_begin(rj *c, spring_file_error *error, const char *name);
/// Ends a read: frees the temporary memory, composes the error's message; returns the result.
spring_result rj_finish(rj *c);
/// Records the first error; returns its code so callers can `return rj_fail(...)`.
spring_result rj_fail(rj *c, spring_result code, const char *path, const char *fmt, ...) RJ_PRINTF(4, 5);
/// rj_fail with SPRING_ERROR_BAD_DEFINITION.
spring_result rj_bad(rj *c, const char *path, const char *fmt, ...) RJ_PRINTF(3, 4);
/// Records a warning ("path: reason"): the file is read on.
void rj_warn(rj *c, const char *path, const char *fmt, ...) RJ_PRINTF(3, 4);
/// Warns when `degrees`, read from a chain's `limit` at `path` (documented in degrees), looks like
/// radians: |degrees| < 2 pi with a fractional part. (Rotations and rotate keys are not checked:
/// small fractional degrees are common there, e.g. a 1.5 degree breath.)
void rj_check_degrees(rj *c, const char *path, double degrees);
/// Zeroed temporary memory, freed by rj_finish; NULL (the error recorded) when out of memory.
void *rj_alloc(rj *c, size_t count, size_t size);
/// strcpy that truncates to `size`.
void rj_copy_str(char *dst, size_t size, const char *src);

// ---------------------------------------------------------------------------------------------
// Syntax (json_check.c)

/// 1 when s[0..n) is one valid JSON document; else 0 with the byte offset and the reason.
int rj_json_check(const char *s, size_t n, size_t *err_pos, char *why, size_t why_size);
/// Parses `buf[0..length)` (buf[length] == '\0', the caller's copy; a UTF-8 byte order mark is
/// skipped) into a cJSON tree after the strict check, cJSON's parser under the readers' mutex;
/// NULL with the error recorded (malformed JSON with its line and column, empty input, memory).
/// (rig_json.c)
cJSON *rj_parse(rj *c, const char *buf, size_t length);
/// A whole file (at most `max_bytes`: beyond, OUT_OF_RANGE) read into cJSON_malloc memory with a
/// NUL after its `*length` bytes (free it with cJSON_free); NULL with the error recorded (a file
/// that cannot be opened or read: INVALID_ARGUMENT). Pipes work too. (rig_json.c)
char *rj_read_file(rj *c, const char *filename, size_t max_bytes, size_t *length);
/// Line and column (1-based; the column counts UTF-8 characters) of a byte offset.
void rj_line_column(const char *text, size_t length, size_t offset, int *line, int *column);

// ---------------------------------------------------------------------------------------------
// Values (json_read.c)

/// `s` quoted and escaped for a message, shortened to about `max` characters.
const char *rj_quoted(char *buf, size_t size, const char *s, size_t max);
/// base.key (or base["key"]) and base[index]; paths longer than the buffer are cut short.
void rj_path_key(char *out, size_t size, const char *base, const char *key);
void rj_path_index(char *out, size_t size, const char *base, int index);
#define PATH_KEY(out, base, key) rj_path_key(out, sizeof out, base, key)
#define PATH_INDEX(out, base, i) rj_path_index(out, sizeof out, base, i)
#define RJ_PATH_SIZE 256
/// obj[key], its path written to `p`; NULL when absent (an error recorded when `required`).
const cJSON *rj_member(rj *c, const cJSON *obj, const char *path, const char *key, int required, char p[RJ_PATH_SIZE]);
/// "a string", "a number", ... for "expected X, got Y".
const char *rj_type_name(const cJSON *j);

enum { RJ_LO_OPEN = 1, RJ_HI_OPEN = 2 };

/// Checks an object's keys against `allowed` (NULL-terminated, at most 32): no unknown key, no
/// duplicate. `what` (may be "") names the element for the message, e.g. " for a two-bone IK".
spring_result rj_check_keys(rj *c, const cJSON *obj, const char *path, const char *const *allowed, const char *what);
spring_result rj_expect_object(rj *c, const cJSON *j, const char *path, const char *what);
spring_result rj_missing(rj *c, const char *path, const char *key);
/// A number in [lo, hi] (bounds open per flags) that is a finite float.
spring_result rj_number_item(rj *c, const cJSON *j, const char *path, double lo, double hi, int flags, double *out);
spring_result rj_integer_item(rj *c, const cJSON *j, const char *path, int lo, int hi, int *out);
/// A name: a string of 1..SPRING_RIG_MAX_NAME bytes without control characters.
spring_result rj_name_item(rj *c, const cJSON *j, const char *path, const char **out);
spring_result rj_vec2_item(rj *c, const cJSON *j, const char *path, double lo, double hi, spring_vec2 *out);
/// obj[key] as a float: absent -> def (or an error when `required`).
spring_result rj_get_float(rj *c, const cJSON *obj, const char *path, const char *key, int required, double def, double lo,
                           double hi, int flags, float *out);
/// An angle in degrees in the file, radians out.
spring_result rj_get_degrees(rj *c, const cJSON *obj, const char *path, const char *key, int required, float *out);
spring_result rj_get_int(rj *c, const cJSON *obj, const char *path, const char *key, int def, int lo, int hi, int *out);
spring_result rj_get_bool(rj *c, const cJSON *obj, const char *path, const char *key, int def, int *out);
spring_result rj_get_name(rj *c, const cJSON *obj, const char *path, const char *key, const char **out);
/// obj[key] as one of `names` (NULL-terminated); absent -> def, or an error when def < 0.
spring_result rj_get_enum(rj *c, const cJSON *obj, const char *path, const char *key, const char *const *names, int def,
                          const char *what, int *out);
spring_result rj_get_vec2(rj *c, const cJSON *obj, const char *path, const char *key, int required, spring_vec2 def,
                          spring_vec2 *out);
/// Reads one element of an array (`path` is its own, e.g. "$.clips[2]") into `item` (zeroed);
/// `context` is rj_read_list's.
typedef spring_result (*rj_item_reader)(rj *c, const cJSON *j, const char *path, void *item, const void *context);
/// obj[key] as an array of at most `max` elements (`what` names them in messages), each read by
/// `read` into `size` bytes of temporary memory. Returns the elements and their count, NULL when
/// the array is absent or empty, or on an error (see c->result).
void *rj_read_list(rj *c, const cJSON *obj, const char *path, const char *key, int required, int max, const char *what,
                   size_t size, rj_item_reader read, const void *context, int *count);
/// An array with at most `max` elements (absent: *count 0 when optional).
spring_result rj_get_array(rj *c, const cJSON *obj, const char *path, const char *key, int required, int max, const char *what,
                           const cJSON **out, int *count);

// ---------------------------------------------------------------------------------------------
// Springs (rig_json_spring.c)

/// A spring object (any one parameterisation of param_table.h) converted by the library.
spring_result rj_spring_item(rj *c, const cJSON *j, const char *path, spring_params *out);
/// obj[key] as a spring; absent -> all zero (the rig's default).
spring_result rj_get_spring(rj *c, const cJSON *obj, const char *path, const char *key, spring_params *out);

// ---------------------------------------------------------------------------------------------
// Sections (rig_json_sections.c)

spring_result rj_read_root(rj *c, const cJSON *doc, spring_xform2 *root);
/// Fills c->bones and c->bone_count.
spring_result rj_read_bones(rj *c, const cJSON *doc);
spring_result rj_read_clips(rj *c, const cJSON *doc, spring_rig_desc *desc);
spring_result rj_read_iks(rj *c, const cJSON *doc, spring_rig_desc *desc);
spring_result rj_read_chains(rj *c, const cJSON *doc, spring_rig_desc *desc);

// ---------------------------------------------------------------------------------------------
// spring_rig_create's errors (rig_json_errors.c)

void rj_map_create_error(rj *c, const cJSON *doc, spring_result code, const spring_error *e);

// ---------------------------------------------------------------------------------------------
// For tests (rig_json.c): one spring object read as a rig file's chain reads it.

spring_result rj_load_spring_json(const char *text, size_t length, const char *name_for_errors, spring_params *out,
                                  spring_file_error *error);

#endif
