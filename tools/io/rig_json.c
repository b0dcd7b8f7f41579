// Rig files (docs/rig-format.md) -> spring_rig.
//
//   text --(size, BOM, strict RFC 8259 check with line/column)--> cJSON tree
//        --(every element validated, degrees -> radians, names -> indices)--> spring_rig_desc
//        --(spring_rig_create; its errors mapped back to JSON paths)--> spring_rig
//
// The strict syntax check runs first because cJSON is lenient (it accepts "01", "1.", control
// characters and trailing content, and truncates strings at \u0000) and reports only a position;
// after it passes, cJSON can only fail for lack of memory. Everything temporary is freed on every
// path; `*out` is written only on success.
#include "rig_json.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RJ_BIG 1e6                 // the sane range of most numbers: [-1e6, 1e6]
#define RJ_MAX_DEPTH 64            // JSON nesting accepted (the format needs 6)
#define RJ_MAX_NUMBER_CHARS 63     // cJSON parses at most this many characters of a number
#define RJ_DEG_TO_RAD (SPRING_PI / 180.0)
#define RJ_HASH_SLOTS 1024         // >= 2 * SPRING_RIG_MAX_BONES, a power of two

// ---------------------------------------------------------------------------------------------
// Context, errors, temporary memory

typedef union rj_block {
	union rj_block *next;
	max_align_t align;
} rj_block;

typedef struct rj {
	spring_rig_file_error *err;
	spring_result result;        // first error (SPRING_OK while none)
	const char *text;            // the document as given (for line/column)
	size_t length;
	rj_block *blocks;            // temporary allocations, freed together

	int bone_count;
	spring_rig_bone_desc *bones;
	int *hash;                   // bone name -> index + 1 (0: empty slot)
	int *bone_chain;             // chain index owning each bone, -1 if none
	int *track_seen;             // per clip: (bone, type) -> track index, -1 if none
} rj;

static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size) {
		n = size - 1;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

// Records the first error; returns its code so callers can `return rj_fail(...)`.
static spring_result rj_fail(rj *c, spring_result code, const char *path, const char *fmt, ...)
{
	if (c->result != SPRING_OK) {
		return c->result;
	}
	c->result = code;
	if (c->err) {
		copy_str(c->err->path, sizeof c->err->path, path);
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err->reason, sizeof c->err->reason, fmt, ap);
		va_end(ap);
	}
	return code;
}

static spring_result rj_bad(rj *c, const char *path, const char *fmt, ...)
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

static void *rj_alloc(rj *c, size_t count, size_t size)
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

// Line and column (1-based; the column counts UTF-8 characters) of a byte offset.
static void line_column(const char *text, size_t length, size_t offset, int *line, int *column)
{
	int l = 1, col = 1;
	if (offset > length) {
		offset = length;
	}
	size_t start = length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 && offset >= 3 ? 3 : 0; // a BOM takes no column
	for (size_t i = start; i < offset; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (ch == '\n') {
			l++;
			col = 1;
		} else if ((ch & 0xC0u) != 0x80u) {
			col++;
		}
	}
	*line = l;
	*column = col;
}

// `s` quoted and escaped for a message, shortened to about `max` characters.
static const char *quoted(char *buf, size_t size, const char *s, size_t max)
{
	size_t o = 0;
	if (size < 8) {
		return "";
	}
	buf[o++] = '"';
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++) {
		if (n >= max || o + 8 >= size) {
			o += (size_t)snprintf(buf + o, size - o, "...");
			break;
		}
		if (*p == '"' || *p == '\\') {
			buf[o++] = '\\';
			buf[o++] = (char)*p;
		} else if (*p < 0x20u || *p == 0x7fu) {
			o += (size_t)snprintf(buf + o, size - o, "\\u%04x", *p);
		} else {
			buf[o++] = (char)*p;
		}
	}
	if (o + 2 > size) {
		o = size - 2;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

static int is_identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) {
		return 0;
	}
	for (; *s; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_')) {
			return 0;
		}
	}
	return 1;
}

// Paths longer than the buffer are cut short (the return values are checked only to say so).
static void path_key(char *out, size_t size, const char *base, const char *key)
{
	int n;
	if (is_identifier(key) && strlen(key) <= 64) {
		n = snprintf(out, size, "%s.%s", base, key);
	} else {
		char q[96];
		n = snprintf(out, size, "%s[%s]", base, quoted(q, sizeof q, key, 40));
	}
	if (n < 0 || (size_t)n >= size) {
		out[size - 1] = '\0';
	}
}

static void path_index(char *out, size_t size, const char *base, int index)
{
	int n = snprintf(out, size, "%s[%d]", base, index);
	if (n < 0 || (size_t)n >= size) {
		out[size - 1] = '\0';
	}
}

#define PATH_KEY(out, base, key) path_key(out, sizeof out, base, key)
#define PATH_INDEX(out, base, i) path_index(out, sizeof out, base, i)

static const char *type_name(const cJSON *j)
{
	if (cJSON_IsString(j)) {
		return "a string";
	}
	if (cJSON_IsNumber(j)) {
		return "a number";
	}
	if (cJSON_IsObject(j)) {
		return "an object";
	}
	if (cJSON_IsArray(j)) {
		return "an array";
	}
	if (cJSON_IsBool(j)) {
		return cJSON_IsTrue(j) ? "true" : "false";
	}
	if (cJSON_IsNull(j)) {
		return "null";
	}
	return "something else";
}

// Levenshtein distance, capped (for "did you mean" hints).
static int edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 63 || m > 63) {
		return 99;
	}
	int row[64];
	for (size_t j = 0; j <= m; j++) {
		row[j] = (int)j;
	}
	for (size_t i = 1; i <= n; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= m; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best) {
				best = up + 1;
			}
			if (row[j - 1] + 1 < best) {
				best = row[j - 1] + 1;
			}
			row[j] = best;
			diag = up;
		}
	}
	return row[m];
}

// ---------------------------------------------------------------------------------------------
// Strict JSON syntax check (RFC 8259), iterative, with a precise position and reason.

typedef enum js_state {
	JS_VALUE,        // a value
	JS_ARRAY_FIRST,  // a value or ']'
	JS_ARRAY_AFTER,  // a value after ',' (']' here is a trailing comma)
	JS_ARRAY_NEXT,   // ',' or ']'
	JS_OBJECT_FIRST, // a key or '}'
	JS_OBJECT_KEY,   // a key after ',' ('}' here is a trailing comma)
	JS_COLON,        // ':'
	JS_OBJECT_NEXT,  // ',' or '}'
	JS_END           // nothing more
} js_state;

static const char *describe_byte(char *buf, size_t size, const char *s, size_t n, size_t pos)
{
	if (pos >= n) {
		return "the end of the file";
	}
	unsigned char ch = (unsigned char)s[pos];
	if (ch >= 0x21 && ch < 0x7f) {
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
			size_t e = pos;
			while (e < n && e - pos < 24 && ((s[e] >= 'a' && s[e] <= 'z') || (s[e] >= 'A' && s[e] <= 'Z') || (s[e] >= '0' && s[e] <= '9') || s[e] == '_')) {
				e++;
			}
			snprintf(buf, size, "'%.*s'", (int)(e - pos), s + pos);
		} else {
			snprintf(buf, size, "'%c'", ch);
		}
	} else {
		snprintf(buf, size, "byte 0x%02x", ch);
	}
	return buf;
}

static size_t utf8_sequence(const unsigned char *p, size_t left)
{
	unsigned char c0 = p[0];
	size_t need;
	unsigned int min;
	unsigned int cp;
	if (c0 < 0x80u) {
		return 1;
	} else if (c0 >= 0xC2u && c0 <= 0xDFu) {
		need = 2;
		min = 0x80u;
		cp = c0 & 0x1Fu;
	} else if (c0 >= 0xE0u && c0 <= 0xEFu) {
		need = 3;
		min = 0x800u;
		cp = c0 & 0x0Fu;
	} else if (c0 >= 0xF0u && c0 <= 0xF4u) {
		need = 4;
		min = 0x10000u;
		cp = c0 & 0x07u;
	} else {
		return 0;
	}
	if (left < need) {
		return 0;
	}
	for (size_t i = 1; i < need; i++) {
		if ((p[i] & 0xC0u) != 0x80u) {
			return 0;
		}
		cp = (cp << 6) | (p[i] & 0x3Fu);
	}
	if (cp < min || cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu)) {
		return 0;
	}
	return need;
}

static int hex4(const char *s, size_t n, size_t pos, unsigned int *out)
{
	unsigned int v = 0;
	if (pos + 4 > n) {
		return 0;
	}
	for (size_t i = 0; i < 4; i++) {
		char ch = s[pos + i];
		v <<= 4;
		if (ch >= '0' && ch <= '9') {
			v |= (unsigned int)(ch - '0');
		} else if (ch >= 'a' && ch <= 'f') {
			v |= (unsigned int)(ch - 'a' + 10);
		} else if (ch >= 'A' && ch <= 'F') {
			v |= (unsigned int)(ch - 'A' + 10);
		} else {
			return 0;
		}
	}
	*out = v;
	return 1;
}

// Scans the string starting at s[*pos] == '"'; on success *pos is just past the closing quote.
static int js_string(const char *s, size_t n, size_t *pos, char *why, size_t why_size)
{
	size_t open = *pos, i = *pos + 1;
	for (;;) {
		if (i >= n) {
			*pos = n;
			int line, col;
			line_column(s, n, open, &line, &col);
			snprintf(why, why_size, "the file ends inside a string (opened at line %d, column %d)", line, col);
			return 0;
		}
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"') {
			*pos = i + 1;
			return 1;
		}
		if (ch < 0x20u) {
			*pos = i;
			snprintf(why, why_size, "control character (byte 0x%02x) in a string: write it as an escape", ch);
			return 0;
		}
		if (ch == '\\') {
			if (i + 1 >= n) {
				*pos = n;
				snprintf(why, why_size, "the file ends inside a string");
				return 0;
			}
			char e = s[i + 1];
			if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
				i += 2;
				continue;
			}
			if (e != 'u') {
				*pos = i;
				snprintf(why, why_size, "invalid escape '\\%c' in a string", (e >= 0x20 && e < 0x7f) ? e : '?');
				return 0;
			}
			unsigned int u;
			if (!hex4(s, n, i + 2, &u)) {
				*pos = i;
				snprintf(why, why_size, "\\u must be followed by 4 hexadecimal digits");
				return 0;
			}
			if (u == 0) {
				*pos = i;
				snprintf(why, why_size, "\\u0000 (NUL) is not allowed in strings");
				return 0;
			}
			if (u >= 0xDC00u && u <= 0xDFFFu) {
				*pos = i;
				snprintf(why, why_size, "unpaired surrogate \\u%04x in a string", u);
				return 0;
			}
			if (u >= 0xD800u && u <= 0xDBFFu) {
				unsigned int low;
				if (i + 7 >= n || s[i + 6] != '\\' || s[i + 7] != 'u' || !hex4(s, n, i + 8, &low) || low < 0xDC00u ||
				    low > 0xDFFFu) {
					*pos = i;
					snprintf(why, why_size, "unpaired surrogate \\u%04x in a string", u);
					return 0;
				}
				i += 12;
				continue;
			}
			i += 6;
			continue;
		}
		size_t len = utf8_sequence((const unsigned char *)s + i, n - i);
		if (len == 0) {
			*pos = i;
			snprintf(why, why_size, "invalid UTF-8 (byte 0x%02x) in a string", ch);
			return 0;
		}
		i += len;
	}
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static int js_number(const char *s, size_t n, size_t *pos, char *why, size_t why_size)
{
	size_t start = *pos, i = *pos;
	if (s[i] == '-') {
		i++;
	}
	if (i >= n || !is_digit(s[i])) {
		*pos = i;
		snprintf(why, why_size, "expected a digit after '-'");
		return 0;
	}
	if (s[i] == '0') {
		i++;
		if (i < n && is_digit(s[i])) {
			*pos = i - 1;
			snprintf(why, why_size, "numbers must not have leading zeros");
			return 0;
		}
	} else {
		while (i < n && is_digit(s[i])) {
			i++;
		}
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i >= n || !is_digit(s[i])) {
			*pos = i;
			snprintf(why, why_size, "expected a digit after the decimal point");
			return 0;
		}
		while (i < n && is_digit(s[i])) {
			i++;
		}
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-')) {
			i++;
		}
		if (i >= n || !is_digit(s[i])) {
			*pos = i;
			snprintf(why, why_size, "expected a digit in the exponent");
			return 0;
		}
		while (i < n && is_digit(s[i])) {
			i++;
		}
	}
	if (i - start > RJ_MAX_NUMBER_CHARS) {
		*pos = start;
		snprintf(why, why_size, "number longer than %d characters", RJ_MAX_NUMBER_CHARS);
		return 0;
	}
	*pos = i;
	return 1;
}

// 1 when s[0..n) is one valid JSON document; else 0 with the byte offset and the reason.
static int json_check(const char *s, size_t n, size_t *err_pos, char *why, size_t why_size)
{
	char stack[RJ_MAX_DEPTH];
	int depth = 0;
	js_state st = JS_VALUE;
	size_t i = 0;
	char b[48];
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
			i++;
		}
		if (i >= n) {
			if (st == JS_END) {
				return 1;
			}
			*err_pos = n;
			snprintf(why, why_size, "unexpected end of file%s", depth > 0 ? (stack[depth - 1] == '{' ? " (an object is not closed)" : " (an array is not closed)") : "");
			return 0;
		}
		char ch = s[i];
		int value = 0; // 1: parse a value at i
		switch (st) {
		case JS_END:
			*err_pos = i;
			snprintf(why, why_size, "unexpected %s after the end of the document", describe_byte(b, sizeof b, s, n, i));
			return 0;
		case JS_ARRAY_FIRST:
			if (ch == ']') {
				depth--;
				i++;
				st = depth == 0 ? JS_END : (stack[depth - 1] == '[' ? JS_ARRAY_NEXT : JS_OBJECT_NEXT);
				continue;
			}
			value = 1;
			break;
		case JS_ARRAY_AFTER:
			if (ch == ']') {
				*err_pos = i;
				snprintf(why, why_size, "trailing comma before ']'");
				return 0;
			}
			value = 1;
			break;
		case JS_VALUE:
			value = 1;
			break;
		case JS_ARRAY_NEXT:
			if (ch == ',') {
				i++;
				st = JS_ARRAY_AFTER;
				continue;
			}
			if (ch == ']') {
				depth--;
				i++;
				st = depth == 0 ? JS_END : (stack[depth - 1] == '[' ? JS_ARRAY_NEXT : JS_OBJECT_NEXT);
				continue;
			}
			*err_pos = i;
			snprintf(why, why_size, "expected ',' or ']' after an array element, found %s", describe_byte(b, sizeof b, s, n, i));
			return 0;
		case JS_OBJECT_FIRST:
		case JS_OBJECT_KEY:
			if (ch == '"') {
				if (!js_string(s, n, &i, why, why_size)) {
					*err_pos = i;
					return 0;
				}
				st = JS_COLON;
				continue;
			}
			if (ch == '}' && st == JS_OBJECT_FIRST) {
				depth--;
				i++;
				st = depth == 0 ? JS_END : (stack[depth - 1] == '[' ? JS_ARRAY_NEXT : JS_OBJECT_NEXT);
				continue;
			}
			*err_pos = i;
			if (ch == '}') {
				snprintf(why, why_size, "trailing comma before '}'");
			} else {
				snprintf(why, why_size, "expected a key in double quotes, found %s", describe_byte(b, sizeof b, s, n, i));
			}
			return 0;
		case JS_COLON:
			if (ch == ':') {
				i++;
				st = JS_VALUE;
				continue;
			}
			*err_pos = i;
			snprintf(why, why_size, "expected ':' after the key, found %s", describe_byte(b, sizeof b, s, n, i));
			return 0;
		case JS_OBJECT_NEXT:
			if (ch == ',') {
				i++;
				st = JS_OBJECT_KEY;
				continue;
			}
			if (ch == '}') {
				depth--;
				i++;
				st = depth == 0 ? JS_END : (stack[depth - 1] == '[' ? JS_ARRAY_NEXT : JS_OBJECT_NEXT);
				continue;
			}
			*err_pos = i;
			snprintf(why, why_size, "expected ',' or '}' after a member, found %s%s", describe_byte(b, sizeof b, s, n, i),
			         ch == '"' ? " (missing comma?)" : "");
			return 0;
		}
		if (!value) {
			continue;
		}
		// A value at i.
		if (ch == '{' || ch == '[') {
			if (depth >= RJ_MAX_DEPTH) {
				*err_pos = i;
				snprintf(why, why_size, "nested deeper than %d levels", RJ_MAX_DEPTH);
				return 0;
			}
			stack[depth++] = ch;
			i++;
			st = ch == '{' ? JS_OBJECT_FIRST : JS_ARRAY_FIRST;
			continue;
		}
		if (ch == '"') {
			if (!js_string(s, n, &i, why, why_size)) {
				*err_pos = i;
				return 0;
			}
		} else if (ch == '-' || is_digit(ch)) {
			if (!js_number(s, n, &i, why, why_size)) {
				*err_pos = i;
				return 0;
			}
		} else if (n - i >= 4 && memcmp(s + i, "true", 4) == 0) {
			i += 4;
		} else if (n - i >= 5 && memcmp(s + i, "false", 5) == 0) {
			i += 5;
		} else if (n - i >= 4 && memcmp(s + i, "null", 4) == 0) {
			i += 4;
		} else {
			*err_pos = i;
			const char *what = describe_byte(b, sizeof b, s, n, i);
			int nonfinite = (ch == 'N' || ch == 'n' || ch == 'I' || ch == 'i');
			snprintf(why, why_size, "expected a value, found %s%s", what,
			         nonfinite ? " (NaN and Infinity are not JSON numbers)" : "");
			return 0;
		}
		st = depth == 0 ? JS_END : (stack[depth - 1] == '[' ? JS_ARRAY_NEXT : JS_OBJECT_NEXT);
	}
}

// ---------------------------------------------------------------------------------------------
// Reading values

// Checks an object's keys against `allowed` (NULL-terminated): no unknown key, no duplicate.
// `what` (may be "") names the element for the message, e.g. " for a two-bone IK".
static spring_result check_keys(rj *c, const cJSON *obj, const char *path, const char *const *allowed, const char *what)
{
	unsigned int seen = 0; // bit per allowed key (at most 32)
	for (const cJSON *k = obj->child; k; k = k->next) {
		int found = -1;
		for (int a = 0; allowed[a]; a++) {
			if (strcmp(k->string, allowed[a]) == 0) {
				found = a;
				break;
			}
		}
		char p[256], q[96];
		PATH_KEY(p, path, k->string);
		if (found < 0) {
			const char *best = NULL;
			int best_d = 3;
			char list[200];
			size_t o = 0;
			list[0] = '\0';
			for (int a = 0; allowed[a]; a++) {
				int d = edit_distance(k->string, allowed[a]);
				if (d < best_d && d <= (int)strlen(allowed[a]) / 2) {
					best_d = d;
					best = allowed[a];
				}
				if (o < sizeof list) {
					o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", a ? ", " : "", allowed[a]);
				}
			}
			if (best) {
				return rj_bad(c, p, "unknown key %s%s (did you mean \"%s\"?)", quoted(q, sizeof q, k->string, 40), what, best);
			}
			return rj_bad(c, p, "unknown key %s%s (expected one of: %s)", quoted(q, sizeof q, k->string, 40), what, list);
		}
		if (seen & (1u << found)) {
			return rj_bad(c, p, "duplicate key %s", quoted(q, sizeof q, k->string, 40));
		}
		seen |= 1u << found;
	}
	return SPRING_OK;
}

static spring_result expect_object(rj *c, const cJSON *j, const char *path, const char *what)
{
	if (!cJSON_IsObject(j)) {
		return rj_bad(c, path, "expected an object (%s), got %s", what, type_name(j));
	}
	return SPRING_OK;
}

static spring_result missing(rj *c, const char *path, const char *key)
{
	return rj_bad(c, path, "missing key \"%s\"", key);
}

enum { RJ_LO_OPEN = 1, RJ_HI_OPEN = 2 };

static void range_text(char *buf, size_t size, double lo, double hi, int flags)
{
	snprintf(buf, size, "in %s%.9g, %.9g%s", flags & RJ_LO_OPEN ? "(" : "[", lo, hi, flags & RJ_HI_OPEN ? ")" : "]");
}

// A number in [lo, hi] (bounds open per flags) that is a finite float.
static spring_result number_item(rj *c, const cJSON *j, const char *path, double lo, double hi, int flags, double *out)
{
	if (!cJSON_IsNumber(j)) {
		return rj_bad(c, path, "expected a number, got %s", type_name(j));
	}
	double v = j->valuedouble;
	if (!isfinite(v)) {
		return rj_bad(c, path, "must be finite (the number overflows)");
	}
	if (fabs(v) > (double)FLT_MAX) {
		return rj_bad(c, path, "must be finite as a float (got %.9g)", v);
	}
	double f = (double)(float)v; // what the library will see
	int low = (flags & RJ_LO_OPEN) ? !(f > lo) : !(f >= lo);
	int high = (flags & RJ_HI_OPEN) ? !(f < hi) : !(f <= hi);
	if (low && hi >= RJ_BIG && lo > -RJ_BIG) {
		return rj_bad(c, path, "must be %s %.9g (got %.9g)", flags & RJ_LO_OPEN ? ">" : ">=", lo, v);
	}
	if (high && hi >= RJ_BIG && lo > -RJ_BIG) {
		return rj_bad(c, path, "must be %s %.9g (got %.9g)", flags & RJ_HI_OPEN ? "<" : "<=", hi, v);
	}
	if (low || high) {
		char r[96];
		range_text(r, sizeof r, lo, hi, flags);
		return rj_bad(c, path, "must be %s (got %.9g)", r, v);
	}
	*out = v;
	return SPRING_OK;
}

// obj[key] as a float: absent -> def (or an error when `required`).
static spring_result get_float(rj *c, const cJSON *obj, const char *path, const char *key, int required, double def,
                               double lo, double hi, int flags, float *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		if (required) {
			return missing(c, path, key);
		}
		*out = (float)def;
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, key);
	double v = 0.0;
	if (number_item(c, j, p, lo, hi, flags, &v) != SPRING_OK) {
		return c->result;
	}
	*out = (float)v;
	return SPRING_OK;
}

// An angle in degrees in the file, radians out.
static spring_result get_degrees(rj *c, const cJSON *obj, const char *path, const char *key, int required, float *out)
{
	float deg = 0.0f;
	if (get_float(c, obj, path, key, required, 0.0, -RJ_BIG, RJ_BIG, 0, &deg) != SPRING_OK) {
		return c->result;
	}
	*out = (float)((double)deg * RJ_DEG_TO_RAD);
	return SPRING_OK;
}

static spring_result integer_item(rj *c, const cJSON *j, const char *path, int lo, int hi, int *out)
{
	if (!cJSON_IsNumber(j)) {
		return rj_bad(c, path, "expected an integer, got %s", type_name(j));
	}
	double v = j->valuedouble;
	if (!isfinite(v)) {
		return rj_bad(c, path, "must be finite (the number overflows)");
	}
	if (v != floor(v)) {
		return rj_bad(c, path, "must be an integer (got %.9g)", v);
	}
	if (v < (double)lo || v > (double)hi) {
		return rj_bad(c, path, "must be in %d..%d (got %.9g)", lo, hi, v);
	}
	*out = (int)v;
	return SPRING_OK;
}

static spring_result get_int(rj *c, const cJSON *obj, const char *path, const char *key, int def, int lo, int hi, int *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		*out = def;
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, key);
	return integer_item(c, j, p, lo, hi, out);
}

static spring_result get_bool(rj *c, const cJSON *obj, const char *path, const char *key, int def, int *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		*out = def;
		return SPRING_OK;
	}
	if (!cJSON_IsBool(j)) {
		char p[256];
		PATH_KEY(p, path, key);
		return rj_bad(c, p, "expected true or false, got %s", type_name(j));
	}
	*out = cJSON_IsTrue(j) ? 1 : 0;
	return SPRING_OK;
}

// A name: a string of 1..SPRING_RIG_MAX_NAME bytes without control characters (the syntax
// check already guaranteed valid UTF-8 and no NUL).
static spring_result name_item(rj *c, const cJSON *j, const char *path, const char **out)
{
	if (!cJSON_IsString(j)) {
		return rj_bad(c, path, "expected a name (a string), got %s", type_name(j));
	}
	const char *s = j->valuestring;
	size_t n = strlen(s);
	if (n == 0) {
		return rj_bad(c, path, "must not be empty");
	}
	if (n > SPRING_RIG_MAX_NAME) {
		return rj_bad(c, path, "is longer than %d bytes (got %zu)", SPRING_RIG_MAX_NAME, n);
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20u || ch == 0x7fu) {
			return rj_bad(c, path, "must not contain control characters");
		}
	}
	*out = s;
	return SPRING_OK;
}

static spring_result get_name(rj *c, const cJSON *obj, const char *path, const char *key, const char **out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		return missing(c, path, key);
	}
	char p[256];
	PATH_KEY(p, path, key);
	return name_item(c, j, p, out);
}

// obj[key] as one of `names` (NULL-terminated); absent -> def, or an error when def < 0.
static spring_result get_enum(rj *c, const cJSON *obj, const char *path, const char *key, const char *const *names, int def,
                              const char *what, int *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		if (def < 0) {
			return missing(c, path, key);
		}
		*out = def;
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, key);
	char list[160];
	size_t o = 0;
	for (int i = 0; names[i]; i++) {
		o += (size_t)snprintf(list + o, sizeof list - o, "%s\"%s\"", i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
		if (o >= sizeof list) {
			break;
		}
	}
	if (!cJSON_IsString(j)) {
		return rj_bad(c, p, "expected %s, got %s", list, type_name(j));
	}
	for (int i = 0; names[i]; i++) {
		if (strcmp(j->valuestring, names[i]) == 0) {
			*out = i;
			return SPRING_OK;
		}
	}
	char q[96];
	return rj_bad(c, p, "unknown %s %s (expected %s)", what, quoted(q, sizeof q, j->valuestring, 40), list);
}

static spring_result vec2_item(rj *c, const cJSON *j, const char *path, double lo, double hi, spring_vec2 *out)
{
	int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : -1;
	if (n != 2) {
		if (n < 0) {
			return rj_bad(c, path, "expected [x, y] (an array of 2 numbers), got %s", type_name(j));
		}
		return rj_bad(c, path, "expected [x, y] (an array of 2 numbers), got %d element%s", n, n == 1 ? "" : "s");
	}
	double v[2] = {0.0, 0.0};
	int i = 0;
	for (const cJSON *e = j->child; e; e = e->next, i++) {
		char p[256];
		PATH_INDEX(p, path, i);
		if (number_item(c, e, p, lo, hi, 0, &v[i]) != SPRING_OK) {
			return c->result;
		}
	}
	out->x = (float)v[0];
	out->y = (float)v[1];
	return SPRING_OK;
}

static spring_result get_vec2(rj *c, const cJSON *obj, const char *path, const char *key, int required, spring_vec2 def,
                              spring_vec2 *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		if (required) {
			return missing(c, path, key);
		}
		*out = def;
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, key);
	return vec2_item(c, j, p, -RJ_BIG, RJ_BIG, out);
}

// An array with at most `max` elements (absent: *count 0 when optional).
static spring_result get_array(rj *c, const cJSON *obj, const char *path, const char *key, int required, int max,
                               const char *what, const cJSON **out, int *count)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	*out = NULL;
	*count = 0;
	if (!j) {
		if (required) {
			return missing(c, path, key);
		}
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, key);
	if (!cJSON_IsArray(j)) {
		return rj_bad(c, p, "expected an array of %s, got %s", what, type_name(j));
	}
	int n = 0;
	for (const cJSON *e = j->child; e; e = e->next) {
		if (++n > max) {
			return rj_bad(c, p, "more than %d %s", max, what);
		}
	}
	*out = j;
	*count = n;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Bones by name

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++) {
		h = (h ^ (unsigned char)*s) * 16777619u;
	}
	return h;
}

// Index of the bone called `name` among the first c->bone_count bones, -1 if none.
static int find_bone(const rj *c, const char *name)
{
	for (uint32_t i = name_hash(name) & (RJ_HASH_SLOTS - 1);; i = (i + 1) & (RJ_HASH_SLOTS - 1)) {
		int v = c->hash[i];
		if (v == 0) {
			return -1;
		}
		if (strcmp(c->bones[v - 1].name, name) == 0) {
			return v - 1;
		}
	}
}

static void insert_bone(rj *c, const char *name, int index)
{
	uint32_t i = name_hash(name) & (RJ_HASH_SLOTS - 1);
	while (c->hash[i] != 0) {
		i = (i + 1) & (RJ_HASH_SLOTS - 1);
	}
	c->hash[i] = index + 1;
}

// A bone reference: a bone name, or null when `allow_null` (-> -1).
static spring_result bone_ref_item(rj *c, const cJSON *j, const char *path, int allow_null, int *out)
{
	if (allow_null && cJSON_IsNull(j)) {
		*out = -1;
		return SPRING_OK;
	}
	if (!cJSON_IsString(j)) {
		return rj_bad(c, path, "expected a bone name%s, got %s", allow_null ? " or null" : "", type_name(j));
	}
	int b = find_bone(c, j->valuestring);
	if (b < 0) {
		char q[96];
		const char *best = NULL;
		int best_d = 3;
		for (int i = 0; i < c->bone_count; i++) {
			int d = edit_distance(j->valuestring, c->bones[i].name);
			if (d < best_d && d <= (int)strlen(c->bones[i].name) / 2) {
				best_d = d;
				best = c->bones[i].name;
			}
		}
		if (best) {
			char q2[96];
			return rj_bad(c, path, "unknown bone %s (did you mean %s?)", quoted(q, sizeof q, j->valuestring, 64),
			              quoted(q2, sizeof q2, best, 64));
		}
		return rj_bad(c, path, "unknown bone %s", quoted(q, sizeof q, j->valuestring, 64));
	}
	*out = b;
	return SPRING_OK;
}

static spring_result get_bone_ref(rj *c, const cJSON *obj, const char *path, const char *key, int required, int *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		if (required) {
			return missing(c, path, key);
		}
		*out = -1;
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, key);
	return bone_ref_item(c, j, p, !required, out);
}

// Is `bone` equal to or a descendant of `ancestor`?
static int descends(const rj *c, int bone, int ancestor)
{
	for (int b = bone, steps = 0; b >= 0 && steps <= c->bone_count; b = c->bones[b].parent, steps++) {
		if (b == ancestor) {
			return 1;
		}
	}
	return 0;
}

// Number of bones from first down to last along parent links, or -1 if last does not descend from first.
static int range_count(const rj *c, int first, int last)
{
	int n = 0;
	for (int b = last; b >= 0 && n <= c->bone_count; b = c->bones[b].parent) {
		n++;
		if (b == first) {
			return n;
		}
	}
	return -1;
}

static spring_result check_range(rj *c, const char *path, int first, int last, const char *what)
{
	if (range_count(c, first, last) < 0) {
		char q1[96], q2[96];
		return rj_bad(c, path, "%s does not descend from %s: %s needs a parent-linked range (first is an ancestor of last)",
		              quoted(q1, sizeof q1, c->bones[last].name, 64), quoted(q2, sizeof q2, c->bones[first].name, 64), what);
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Springs: any one of the core's parameterisations

typedef enum rj_param_kind {
	RJ_P_PHYSICAL,
	RJ_P_FREQUENCY,
	RJ_P_DURATION,
	RJ_P_RESPONSE,
	RJ_P_SETTLING,
	RJ_P_VISUAL,
	RJ_P_HALF_LIFE,
	RJ_P_TENSION,
	RJ_P_ORIGAMI,
	RJ_P_PER_FRAME,
	RJ_P_COUNT
} rj_param_kind;

typedef struct rj_param_set {
	const char *keys[4];   // NULL-terminated
	int optional;          // bit i: keys[i] may be omitted
	double defaults[3];
} rj_param_set;

static const rj_param_set param_sets[RJ_P_COUNT] = {
	{{"stiffness", "damping", "mass", NULL}, 4, {0, 0, 1}},
	{{"frequency", "damping_ratio", NULL, NULL}, 0, {0, 0, 0}},
	{{"duration", "bounce", NULL, NULL}, 0, {0, 0, 0}},
	{{"response", "damping_fraction", NULL, NULL}, 0, {0, 0, 0}},
	{{"settling", "damping_ratio", "epsilon", NULL}, 4, {0, 0, 0.001}},
	{{"visual_duration", "bounce", NULL, NULL}, 0, {0, 0, 0}},
	{{"half_life", NULL, NULL, NULL}, 0, {0, 0, 0}},
	{{"tension", "friction", NULL, NULL}, 0, {0, 0, 0}},
	{{"origami_tension", "origami_friction", NULL, NULL}, 0, {0, 0, 0}},
	{{"per_frame_stiffness", "per_frame_damping", "fps", NULL}, 0, {0, 0, 0}},
};

static int param_key_index(int set, const char *key)
{
	for (int i = 0; param_sets[set].keys[i]; i++) {
		if (strcmp(param_sets[set].keys[i], key) == 0) {
			return i;
		}
	}
	return -1;
}

static void set_text(char *buf, size_t size, int set)
{
	size_t o = (size_t)snprintf(buf, size, "{");
	for (int i = 0; param_sets[set].keys[i] && o < size; i++) {
		o += (size_t)snprintf(buf + o, size - o, "%s\"%s\"%s", i ? ", " : "", param_sets[set].keys[i],
		                      (param_sets[set].optional >> i) & 1 ? " (optional)" : "");
	}
	if (o < size) {
		snprintf(buf + o, size - o, "}");
	}
}

static spring_result spring_item(rj *c, const cJSON *j, const char *path, spring_params *out)
{
	if (expect_object(c, j, path, "a spring") != SPRING_OK) {
		return c->result;
	}
	// Every key must belong to some parameterisation, once.
	static const char *all_keys[] = {"stiffness", "damping", "mass", "frequency", "damping_ratio", "duration", "bounce",
	                                 "response", "damping_fraction", "settling", "epsilon", "visual_duration", "half_life",
	                                 "tension", "friction", "origami_tension", "origami_friction", "per_frame_stiffness",
	                                 "per_frame_damping", "fps", NULL};
	if (check_keys(c, j, path, all_keys, " in a spring") != SPRING_OK) {
		return c->result;
	}
	if (!j->child) {
		return rj_bad(c, path, "no spring parameters: give exactly one parameterisation, e.g. {\"frequency\": 2, \"damping_ratio\": 0.3}");
	}
	// Which parameterisations contain every key given?
	int candidates[RJ_P_COUNT], nc = 0;
	for (int s = 0; s < RJ_P_COUNT; s++) {
		int all = 1;
		for (const cJSON *k = j->child; k && all; k = k->next) {
			all = param_key_index(s, k->string) >= 0;
		}
		if (all) {
			candidates[nc++] = s;
		}
	}
	if (nc == 0) {
		// Find two keys that never go together.
		for (const cJSON *a = j->child; a; a = a->next) {
			for (const cJSON *b = a->next; b; b = b->next) {
				int together = 0;
				for (int s = 0; s < RJ_P_COUNT && !together; s++) {
					together = param_key_index(s, a->string) >= 0 && param_key_index(s, b->string) >= 0;
				}
				if (!together) {
					return rj_bad(c, path, "mixes two parameterisations: \"%s\" and \"%s\" do not go together (give exactly one)",
					              a->string, b->string);
				}
			}
		}
		return rj_bad(c, path, "mixes keys of several parameterisations (give exactly one)");
	}
	int chosen = -1;
	for (int i = 0; i < nc && chosen < 0; i++) {
		const rj_param_set *ps = &param_sets[candidates[i]];
		int complete = 1;
		for (int k = 0; ps->keys[k] && complete; k++) {
			complete = ((ps->optional >> k) & 1) || cJSON_GetObjectItemCaseSensitive(j, ps->keys[k]) != NULL;
		}
		if (complete) {
			chosen = candidates[i];
		}
	}
	if (chosen < 0) {
		char t1[160], t2[160];
		set_text(t1, sizeof t1, candidates[0]);
		if (nc == 1) {
			const rj_param_set *ps = &param_sets[candidates[0]];
			for (int k = 0; ps->keys[k]; k++) {
				if (!((ps->optional >> k) & 1) && !cJSON_GetObjectItemCaseSensitive(j, ps->keys[k])) {
					return rj_bad(c, path, "missing key \"%s\" (this parameterisation is %s)", ps->keys[k], t1);
				}
			}
		}
		set_text(t2, sizeof t2, candidates[1]);
		return rj_bad(c, path, "incomplete spring: give %s or %s", t1, t2);
	}
	const rj_param_set *ps = &param_sets[chosen];
	double v[3] = {ps->defaults[0], ps->defaults[1], ps->defaults[2]};
	for (int k = 0; ps->keys[k]; k++) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, ps->keys[k]);
		if (e) {
			char p[256];
			PATH_KEY(p, path, ps->keys[k]);
			if (number_item(c, e, p, -RJ_BIG, RJ_BIG, 0, &v[k]) != SPRING_OK) {
				return c->result;
			}
		}
	}
	float a = (float)v[0], b = (float)v[1], d = (float)v[2];
	spring_params p = {0.0f, 0.0f, 0.0f};
	spring_result r = SPRING_ERROR_INVALID_ARGUMENT;
	switch ((rj_param_kind)chosen) {
	case RJ_P_PHYSICAL: r = spring_params_from_physical(d, a, b, &p); break;
	case RJ_P_FREQUENCY: r = spring_params_from_frequency(a, b, &p); break;
	case RJ_P_DURATION: r = spring_params_from_duration_bounce(a, b, &p); break;
	case RJ_P_RESPONSE: r = spring_params_from_response(a, b, &p); break;
	case RJ_P_SETTLING: r = spring_params_from_settling(a, b, d, &p); break;
	case RJ_P_VISUAL: r = spring_params_from_visual_duration(a, b, &p); break;
	case RJ_P_HALF_LIFE: r = spring_params_from_half_life(a, &p); break;
	case RJ_P_TENSION: r = spring_params_from_tension_friction(a, b, &p); break;
	case RJ_P_ORIGAMI: r = spring_params_from_origami(a, b, &p); break;
	case RJ_P_PER_FRAME: r = spring_params_from_per_frame(a, b, d, &p); break;
	case RJ_P_COUNT: break;
	}
	if (r != SPRING_OK) {
		char given[160];
		size_t o = 0;
		given[0] = '\0';
		for (int k = 0; ps->keys[k] && o < sizeof given; k++) {
			o += (size_t)snprintf(given + o, sizeof given - o, "%s%s %.9g", k ? ", " : "", ps->keys[k], v[k]);
		}
		return rj_bad(c, path, "invalid spring (%s): %s", given, spring_result_string(r));
	}
	*out = p;
	return SPRING_OK;
}

static spring_result get_spring(rj *c, const cJSON *obj, const char *path, const char *key, spring_params *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	spring_params zero = {0.0f, 0.0f, 0.0f};
	*out = zero;
	if (!j) {
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, key);
	return spring_item(c, j, p, out);
}

// ---------------------------------------------------------------------------------------------
// Sections

static spring_result read_root(rj *c, const cJSON *doc, spring_xform2 *root)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(doc, "root");
	root->position = spring_vec2_make(0.0f, 0.0f);
	root->angle = 0.0f;
	root->scale = spring_vec2_make(1.0f, 1.0f);
	if (!j) {
		return SPRING_OK;
	}
	const char *path = "$.root";
	static const char *keys[] = {"x", "y", "rotation", "scale_x", "scale_y", NULL};
	if (expect_object(c, j, path, "the root placement") || check_keys(c, j, path, keys, "") ||
	    get_float(c, j, path, "x", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &root->position.x) ||
	    get_float(c, j, path, "y", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &root->position.y) ||
	    get_degrees(c, j, path, "rotation", 0, &root->angle) ||
	    get_float(c, j, path, "scale_x", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &root->scale.x) ||
	    get_float(c, j, path, "scale_y", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &root->scale.y)) {
		return c->result;
	}
	if (root->scale.x == 0.0f || root->scale.y == 0.0f) {
		char p[256];
		PATH_KEY(p, path, root->scale.x == 0.0f ? "scale_x" : "scale_y");
		return rj_bad(c, p, "must not be 0");
	}
	return SPRING_OK;
}

static spring_result read_bones(rj *c, const cJSON *doc)
{
	const cJSON *arr;
	int n;
	if (get_array(c, doc, "$", "bones", 1, SPRING_RIG_MAX_BONES, "bones", &arr, &n) != SPRING_OK) {
		return c->result;
	}
	if (n == 0) {
		return rj_bad(c, "$.bones", "must list at least one bone");
	}
	c->bones = (spring_rig_bone_desc *)rj_alloc(c, (size_t)n, sizeof *c->bones);
	c->hash = (int *)rj_alloc(c, RJ_HASH_SLOTS, sizeof(int));
	c->bone_chain = (int *)rj_alloc(c, (size_t)n, sizeof(int));
	c->track_seen = (int *)rj_alloc(c, (size_t)n * 3u, sizeof(int));
	const cJSON **parents = (const cJSON **)rj_alloc(c, (size_t)n, sizeof *parents);
	if (!c->bones || !c->hash || !c->bone_chain || !c->track_seen || !parents) {
		return c->result;
	}
	static const char *keys[] = {"name", "parent", "length", "x", "y", "rotation", "scale_x", "scale_y", NULL};
	int i = 0;
	for (const cJSON *b = arr->child; b; b = b->next, i++) {
		char path[256];
		PATH_INDEX(path, "$.bones", i);
		spring_rig_bone_desc *d = &c->bones[i];
		if (expect_object(c, b, path, "a bone") || check_keys(c, b, path, keys, " in a bone") ||
		    get_name(c, b, path, "name", &d->name)) {
			return c->result;
		}
		c->bone_count = i; // look up among the earlier bones only
		int first = find_bone(c, d->name);
		if (first >= 0) {
			char p[256], q[96];
			PATH_KEY(p, path, "name");
			return rj_bad(c, p, "duplicate bone name %s (first at $.bones[%d])", quoted(q, sizeof q, d->name, 64), first);
		}
		insert_bone(c, d->name, i);
		c->bone_count = i + 1;
		d->parent = -1;
		parents[i] = cJSON_GetObjectItemCaseSensitive(b, "parent");
		if (get_float(c, b, path, "length", 0, 0.0, 0.0, RJ_BIG, 0, &d->length) ||
		    get_float(c, b, path, "x", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &d->setup.position.x) ||
		    get_float(c, b, path, "y", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &d->setup.position.y) ||
		    get_degrees(c, b, path, "rotation", 0, &d->setup.angle) ||
		    get_float(c, b, path, "scale_x", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &d->setup.scale.x) ||
		    get_float(c, b, path, "scale_y", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &d->setup.scale.y)) {
			return c->result;
		}
		if (d->setup.scale.x == 0.0f || d->setup.scale.y == 0.0f) {
			char p[256];
			PATH_KEY(p, path, d->setup.scale.x == 0.0f ? "scale_x" : "scale_y");
			return rj_bad(c, p, "must not be 0");
		}
	}
	c->bone_count = n;
	// Parents by name (any bone), then the order: parents before children, no cycles.
	for (i = 0; i < n; i++) {
		if (parents[i]) {
			char path[256], p[256];
			PATH_INDEX(path, "$.bones", i);
			PATH_KEY(p, path, "parent");
			if (bone_ref_item(c, parents[i], p, 1, &c->bones[i].parent) != SPRING_OK) {
				return c->result;
			}
		}
	}
	for (i = 0; i < n; i++) {
		int p = c->bones[i].parent;
		if (p < i) {
			continue;
		}
		char path[256], pp[256], q[96];
		PATH_INDEX(path, "$.bones", i);
		PATH_KEY(pp, path, "parent");
		if (p == i) {
			return rj_bad(c, pp, "bone %s is its own parent", quoted(q, sizeof q, c->bones[i].name, 64));
		}
		// A later parent: is it a cycle back to this bone?
		int steps = 0, b = p;
		while (b >= 0 && b != i && steps <= n) {
			b = c->bones[b].parent;
			steps++;
		}
		if (b == i) {
			char text[200];
			size_t o = (size_t)snprintf(text, sizeof text, "%s", c->bones[i].name);
			for (b = p; o < sizeof text; b = c->bones[b].parent) {
				o += (size_t)snprintf(text + o, sizeof text - o, " -> %s", c->bones[b].name);
				if (b == i) {
					break;
				}
			}
			return rj_bad(c, pp, "cycle through bones %s", text);
		}
		return rj_bad(c, pp, "parent %s is listed after this bone (at $.bones[%d]): list parents before their children",
		              quoted(q, sizeof q, c->bones[p].name, 64), p);
	}
	return SPRING_OK;
}

static spring_result read_curve(rj *c, const cJSON *key, const char *path, spring_rig_key *k)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(key, "curve");
	k->curve = SPRING_RIG_CURVE_LINEAR;
	if (!j) {
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, "curve");
	if (cJSON_IsString(j)) {
		if (strcmp(j->valuestring, "linear") == 0) {
			return SPRING_OK;
		}
		if (strcmp(j->valuestring, "stepped") == 0) {
			k->curve = SPRING_RIG_CURVE_STEPPED;
			return SPRING_OK;
		}
		char q[96];
		return rj_bad(c, p, "unknown curve %s (expected \"linear\", \"stepped\" or a Bezier [x1, y1, x2, y2])",
		              quoted(q, sizeof q, j->valuestring, 40));
	}
	if (!cJSON_IsArray(j)) {
		return rj_bad(c, p, "expected \"linear\", \"stepped\" or a Bezier [x1, y1, x2, y2], got %s", type_name(j));
	}
	int n = cJSON_GetArraySize(j);
	if (n != 4) {
		return rj_bad(c, p, "a Bezier curve is [x1, y1, x2, y2]: 4 numbers (got %d)", n);
	}
	int i = 0;
	for (const cJSON *e = j->child; e; e = e->next, i++) {
		char pe[256];
		PATH_INDEX(pe, p, i);
		double v = 0.0;
		int x = (i % 2) == 0;
		if (number_item(c, e, pe, x ? 0.0 : -RJ_BIG, x ? 1.0 : RJ_BIG, 0, &v) != SPRING_OK) {
			return c->result;
		}
		k->bezier[i] = (float)v;
	}
	k->curve = SPRING_RIG_CURVE_BEZIER;
	return SPRING_OK;
}

static const char *const track_types[] = {"rotate", "translate", "scale", NULL};

static spring_result read_track(rj *c, const cJSON *t, const char *path, int clip_track, spring_rig_track *out)
{
	static const char *keys[] = {"bone", "type", "keys", NULL};
	int type = 0;
	if (expect_object(c, t, path, "a track") || check_keys(c, t, path, keys, " in a track") ||
	    get_bone_ref(c, t, path, "bone", 1, &out->bone) ||
	    get_enum(c, t, path, "type", track_types, -1, "track type", &type)) {
		return c->result;
	}
	out->type = (spring_rig_track_type)type;
	int *seen = &c->track_seen[out->bone * 3 + type];
	if (*seen >= 0) {
		char q[96];
		char base[256];
		copy_str(base, sizeof base, path);
		char *bracket = strrchr(base, '[');
		if (bracket) {
			*bracket = '\0';
		}
		return rj_bad(c, path, "duplicate track: bone %s already has a %s track in this clip (at %s[%d])",
		              quoted(q, sizeof q, c->bones[out->bone].name, 64), track_types[type], base, *seen);
	}
	*seen = clip_track;
	const cJSON *arr;
	int n;
	if (get_array(c, t, path, "keys", 1, SPRING_RIG_MAX_KEYS, "keys", &arr, &n) != SPRING_OK) {
		return c->result;
	}
	char kp[256];
	PATH_KEY(kp, path, "keys");
	if (n == 0) {
		return rj_bad(c, kp, "a track needs at least one key");
	}
	spring_rig_key *k = (spring_rig_key *)rj_alloc(c, (size_t)n, sizeof *k);
	if (!k) {
		return c->result;
	}
	static const char *rotate_keys[] = {"time", "value", "curve", NULL};
	static const char *xy_keys[] = {"time", "x", "y", "curve", NULL};
	int i = 0;
	for (const cJSON *e = arr->child; e; e = e->next, i++) {
		char p[256];
		PATH_INDEX(p, kp, i);
		const char *what = type == SPRING_RIG_TRACK_ROTATE ? " in a rotate key" : type == SPRING_RIG_TRACK_TRANSLATE ? " in a translate key" : " in a scale key";
		if (expect_object(c, e, p, "a key") || check_keys(c, e, p, type == SPRING_RIG_TRACK_ROTATE ? rotate_keys : xy_keys, what) ||
		    get_float(c, e, p, "time", 1, 0.0, 0.0, RJ_BIG, 0, &k[i].time)) {
			return c->result;
		}
		if (i > 0 && !(k[i].time > k[i - 1].time)) {
			char pt[256];
			PATH_KEY(pt, p, "time");
			return rj_bad(c, pt, "key times must increase (%.9g after %.9g at %s[%d])", (double)k[i].time,
			              (double)k[i - 1].time, kp, i - 1);
		}
		if (type == SPRING_RIG_TRACK_ROTATE) {
			if (get_degrees(c, e, p, "value", 1, &k[i].value[0])) {
				return c->result;
			}
		} else {
			double def = type == SPRING_RIG_TRACK_SCALE ? 1.0 : 0.0;
			if (get_float(c, e, p, "x", 0, def, -RJ_BIG, RJ_BIG, 0, &k[i].value[0]) ||
			    get_float(c, e, p, "y", 0, def, -RJ_BIG, RJ_BIG, 0, &k[i].value[1])) {
				return c->result;
			}
		}
		if (read_curve(c, e, p, &k[i])) {
			return c->result;
		}
	}
	out->key_count = n;
	out->keys = k;
	return SPRING_OK;
}

static spring_result read_clips(rj *c, const cJSON *doc, spring_rig_desc *desc)
{
	const cJSON *arr;
	int n;
	if (get_array(c, doc, "$", "clips", 0, SPRING_RIG_MAX_CLIPS, "clips", &arr, &n) != SPRING_OK || n == 0) {
		return c->result;
	}
	spring_rig_clip_desc *clips = (spring_rig_clip_desc *)rj_alloc(c, (size_t)n, sizeof *clips);
	if (!clips) {
		return c->result;
	}
	static const char *keys[] = {"name", "duration", "loop", "tracks", "events", NULL};
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		char path[256];
		PATH_INDEX(path, "$.clips", i);
		spring_rig_clip_desc *cl = &clips[i];
		if (expect_object(c, j, path, "a clip") || check_keys(c, j, path, keys, " in a clip") ||
		    get_name(c, j, path, "name", &cl->name)) {
			return c->result;
		}
		for (int o = 0; o < i; o++) {
			if (strcmp(clips[o].name, cl->name) == 0) {
				char p[256], q[96];
				PATH_KEY(p, path, "name");
				return rj_bad(c, p, "duplicate clip name %s (first at $.clips[%d])", quoted(q, sizeof q, cl->name, 64), o);
			}
		}
		if (get_float(c, j, path, "duration", 1, 0.0, 0.0, RJ_BIG, RJ_LO_OPEN, &cl->duration) ||
		    get_bool(c, j, path, "loop", 0, &cl->loop)) {
			return c->result;
		}
		const cJSON *tracks;
		int nt;
		if (get_array(c, j, path, "tracks", 0, SPRING_RIG_MAX_TRACKS, "tracks", &tracks, &nt) != SPRING_OK) {
			return c->result;
		}
		if (nt > 0) {
			spring_rig_track *tr = (spring_rig_track *)rj_alloc(c, (size_t)nt, sizeof *tr);
			if (!tr) {
				return c->result;
			}
			for (int b = 0; b < c->bone_count * 3; b++) {
				c->track_seen[b] = -1;
			}
			char tp[256];
			PATH_KEY(tp, path, "tracks");
			int t = 0;
			for (const cJSON *e = tracks->child; e; e = e->next, t++) {
				char p[256];
				PATH_INDEX(p, tp, t);
				if (read_track(c, e, p, t, &tr[t]) != SPRING_OK) {
					return c->result;
				}
			}
			cl->track_count = nt;
			cl->tracks = tr;
		}
		const cJSON *events;
		int ne;
		if (get_array(c, j, path, "events", 0, SPRING_RIG_MAX_EVENTS, "events", &events, &ne) != SPRING_OK) {
			return c->result;
		}
		if (ne > 0) {
			spring_rig_event *ev = (spring_rig_event *)rj_alloc(c, (size_t)ne, sizeof *ev);
			if (!ev) {
				return c->result;
			}
			char ep[256];
			PATH_KEY(ep, path, "events");
			static const char *event_keys[] = {"time", "name", "x", "y", NULL};
			int v = 0;
			for (const cJSON *e = events->child; e; e = e->next, v++) {
				char p[256];
				PATH_INDEX(p, ep, v);
				if (expect_object(c, e, p, "an event") || check_keys(c, e, p, event_keys, " in an event") ||
				    get_float(c, e, p, "time", 1, 0.0, 0.0, RJ_BIG, 0, &ev[v].time) ||
				    get_name(c, e, p, "name", &ev[v].name) ||
				    get_float(c, e, p, "x", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &ev[v].value[0]) ||
				    get_float(c, e, p, "y", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &ev[v].value[1])) {
					return c->result;
				}
				char pt[256];
				PATH_KEY(pt, p, "time");
				if (ev[v].time > cl->duration) {
					return rj_bad(c, pt, "must be <= the clip's duration %.9g (got %.9g)", (double)cl->duration, (double)ev[v].time);
				}
				if (v > 0 && ev[v].time < ev[v - 1].time) {
					return rj_bad(c, pt, "events must be in time order (%.9g after %.9g at %s[%d])", (double)ev[v].time,
					              (double)ev[v - 1].time, ep, v - 1);
				}
			}
			cl->event_count = ne;
			cl->events = ev;
		}
	}
	desc->clip_count = n;
	desc->clips = clips;
	return SPRING_OK;
}

static const char *const ik_types[] = {"two-bone", "ccd", NULL};

static spring_result read_iks(rj *c, const cJSON *doc, spring_rig_desc *desc, const char **names)
{
	const cJSON *arr;
	int n;
	if (get_array(c, doc, "$", "ik", 0, SPRING_RIG_MAX_IK, "IK constraints", &arr, &n) != SPRING_OK || n == 0) {
		return c->result;
	}
	spring_rig_ik_desc *iks = (spring_rig_ik_desc *)rj_alloc(c, (size_t)n, sizeof *iks);
	if (!iks) {
		return c->result;
	}
	static const char *two_keys[] = {"name", "type", "bones", "target", "bend", "mix", NULL};
	static const char *ccd_keys[] = {"name", "type", "first", "last", "target", "iterations", "tolerance", "mix", NULL};
	static const char *const bends[] = {"positive", "negative", NULL};
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		char path[256];
		PATH_INDEX(path, "$.ik", i);
		spring_rig_ik_desc *ik = &iks[i];
		int type = 0;
		if (expect_object(c, j, path, "an IK constraint") ||
		    get_enum(c, j, path, "type", ik_types, -1, "IK type", &type) ||
		    check_keys(c, j, path, type == 0 ? two_keys : ccd_keys, type == 0 ? " for a two-bone IK" : " for a CCD IK") ||
		    get_name(c, j, path, "name", &names[i])) {
			return c->result;
		}
		for (int o = 0; o < i; o++) {
			if (strcmp(names[o], names[i]) == 0) {
				char p[256], q[96];
				PATH_KEY(p, path, "name");
				return rj_bad(c, p, "duplicate IK name %s (first at $.ik[%d])", quoted(q, sizeof q, names[i], 64), o);
			}
		}
		ik->type = (spring_rig_ik_type)type;
		char q1[96], q2[96];
		if (type == SPRING_RIG_IK_TWO_BONE) {
			const cJSON *bones = cJSON_GetObjectItemCaseSensitive(j, "bones");
			char bp[256];
			PATH_KEY(bp, path, "bones");
			if (!bones) {
				return missing(c, path, "bones");
			}
			int nb = cJSON_IsArray(bones) ? cJSON_GetArraySize(bones) : -1;
			if (nb != 2) {
				if (nb < 0) {
					return rj_bad(c, bp, "expected [upper, lower] (2 bone names), got %s", type_name(bones));
				}
				return rj_bad(c, bp, "expected [upper, lower] (2 bone names), got %d", nb);
			}
			char p0[256], p1[256];
			PATH_INDEX(p0, bp, 0);
			PATH_INDEX(p1, bp, 1);
			if (bone_ref_item(c, bones->child, p0, 0, &ik->first_bone) ||
			    bone_ref_item(c, bones->child->next, p1, 0, &ik->last_bone)) {
				return c->result;
			}
			const spring_rig_bone_desc *lower = &c->bones[ik->last_bone];
			if (lower->parent != ik->first_bone) {
				return rj_bad(c, bp, "%s is not a child of %s: a two-bone IK needs a bone and its child",
				              quoted(q1, sizeof q1, lower->name, 64), quoted(q2, sizeof q2, c->bones[ik->first_bone].name, 64));
			}
			if (!(lower->length > 0.0f)) {
				return rj_bad(c, p1, "%s has length 0: the lower bone of a two-bone IK needs a length > 0",
				              quoted(q1, sizeof q1, lower->name, 64));
			}
			if (lower->setup.position.x == 0.0f && lower->setup.position.y == 0.0f) {
				return rj_bad(c, p1, "%s sits on the pivot of %s (x = y = 0): the upper bone of a two-bone IK needs a length",
				              quoted(q1, sizeof q1, lower->name, 64), quoted(q2, sizeof q2, c->bones[ik->first_bone].name, 64));
			}
			int bend = 0;
			if (get_enum(c, j, path, "bend", bends, 0, "bend", &bend)) {
				return c->result;
			}
			ik->bend_positive = bend == 0;
		} else {
			char lp[256];
			PATH_KEY(lp, path, "last");
			if (get_bone_ref(c, j, path, "first", 1, &ik->first_bone) || get_bone_ref(c, j, path, "last", 1, &ik->last_bone) ||
			    check_range(c, lp, ik->first_bone, ik->last_bone, "a CCD IK") ||
			    get_int(c, j, path, "iterations", 16, 1, 1000, &ik->iterations) ||
			    get_float(c, j, path, "tolerance", 0, 1e-4, 0.0, RJ_BIG, RJ_LO_OPEN, &ik->tolerance)) {
				return c->result;
			}
		}
		const cJSON *target = cJSON_GetObjectItemCaseSensitive(j, "target");
		ik->target_bone = -1;
		if (target) {
			char tp[256];
			PATH_KEY(tp, path, "target");
			if (bone_ref_item(c, target, tp, 1, &ik->target_bone)) {
				return c->result;
			}
			if (ik->target_bone >= 0) {
				for (int b = ik->last_bone;; b = c->bones[b].parent) {
					if (ik->target_bone == b) {
						return rj_bad(c, tp, "the target %s is one of this IK's bones",
						              quoted(q1, sizeof q1, c->bones[b].name, 64));
					}
					if (descends(c, ik->target_bone, b)) {
						return rj_bad(c, tp, "the target %s is moved by this IK (it descends from %s)",
						              quoted(q1, sizeof q1, c->bones[ik->target_bone].name, 64),
						              quoted(q2, sizeof q2, c->bones[b].name, 64));
					}
					if (b == ik->first_bone) {
						break;
					}
				}
			}
		}
		ik->mix_set = 1;
		if (get_float(c, j, path, "mix", 0, 1.0, 0.0, 1.0, 0, &ik->mix)) {
			return c->result;
		}
	}
	desc->ik_count = n;
	desc->iks = iks;
	return SPRING_OK;
}

static const char *const chain_types[] = {"angle", "tip", NULL};
static const char *const collider_types[] = {"circle", "capsule", "plane", NULL};

static spring_result read_collider(rj *c, const cJSON *j, const char *path, spring_collider *out)
{
	static const char *circle_keys[] = {"type", "x", "y", "radius", NULL};
	static const char *capsule_keys[] = {"type", "a", "b", "radius", NULL};
	static const char *plane_keys[] = {"type", "point", "normal", "radius", NULL};
	static const char *const *keys[] = {circle_keys, capsule_keys, plane_keys};
	static const char *what[] = {" for a circle collider", " for a capsule collider", " for a plane collider"};
	int type = 0;
	memset(out, 0, sizeof *out);
	if (expect_object(c, j, path, "a collider") ||
	    get_enum(c, j, path, "type", collider_types, -1, "collider type", &type) ||
	    check_keys(c, j, path, keys[type], what[type])) {
		return c->result;
	}
	spring_vec2 zero = {0.0f, 0.0f}, a = zero, b = zero;
	if (type == 0) {
		out->type = SPRING_COLLIDER_SPHERE;
		if (get_float(c, j, path, "x", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &a.x) ||
		    get_float(c, j, path, "y", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &a.y) ||
		    get_float(c, j, path, "radius", 1, 0.0, 0.0, RJ_BIG, 0, &out->radius)) {
			return c->result;
		}
	} else if (type == 1) {
		out->type = SPRING_COLLIDER_CAPSULE;
		if (get_vec2(c, j, path, "a", 1, zero, &a) || get_vec2(c, j, path, "b", 1, zero, &b) ||
		    get_float(c, j, path, "radius", 1, 0.0, 0.0, RJ_BIG, 0, &out->radius)) {
			return c->result;
		}
	} else {
		out->type = SPRING_COLLIDER_PLANE;
		if (get_vec2(c, j, path, "point", 0, zero, &a) || get_vec2(c, j, path, "normal", 1, zero, &b) ||
		    get_float(c, j, path, "radius", 0, 0.0, 0.0, RJ_BIG, 0, &out->radius)) {
			return c->result;
		}
		if (!(spring_vec3_length(spring_vec3_make(b.x, b.y, 0.0f)) > 0.0f)) { // as the chain measures it
			char p[256];
			PATH_KEY(p, path, "normal");
			return rj_bad(c, p, "must not be [0, 0] (the plane needs a direction; got a length of %.9g)",
			              hypot((double)b.x, (double)b.y));
		}
	}
	out->a = spring_vec3_make(a.x, a.y, 0.0f);
	out->b = spring_vec3_make(b.x, b.y, 0.0f);
	return SPRING_OK;
}

static spring_result read_chains(rj *c, const cJSON *doc, spring_rig_desc *desc)
{
	const cJSON *arr;
	int n;
	if (get_array(c, doc, "$", "chains", 0, SPRING_RIG_MAX_CHAINS, "chains", &arr, &n) != SPRING_OK || n == 0) {
		return c->result;
	}
	spring_rig_chain_desc *chains = (spring_rig_chain_desc *)rj_alloc(c, (size_t)n, sizeof *chains);
	if (!chains) {
		return c->result;
	}
	for (int b = 0; b < c->bone_count; b++) {
		c->bone_chain[b] = -1;
	}
	static const char *angle_keys[] = {"name", "type", "first", "last", "mix", "spring", "tip_spring", "limit", "gravity", "wind", NULL};
	static const char *tip_keys[] = {"name", "type", "first", "last", "mix", "spring", "tip_spring", "limit", "gravity", "wind",
	                                 "colliders", "tip_radius", NULL};
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		char path[256];
		PATH_INDEX(path, "$.chains", i);
		spring_rig_chain_desc *ch = &chains[i];
		int type = 0;
		if (expect_object(c, j, path, "a chain") || get_enum(c, j, path, "type", chain_types, -1, "chain type", &type) ||
		    check_keys(c, j, path, type == 0 ? angle_keys : tip_keys, type == 0 ? " for an angle chain" : " for a tip chain") ||
		    get_name(c, j, path, "name", &ch->name)) {
			return c->result;
		}
		ch->type = (spring_rig_chain_type)type;
		char q1[96], q2[96];
		for (int o = 0; o < i; o++) {
			if (strcmp(chains[o].name, ch->name) == 0) {
				char p[256];
				PATH_KEY(p, path, "name");
				return rj_bad(c, p, "duplicate chain name %s (first at $.chains[%d])", quoted(q1, sizeof q1, ch->name, 64), o);
			}
		}
		char lp[256];
		PATH_KEY(lp, path, "last");
		if (get_bone_ref(c, j, path, "first", 1, &ch->first_bone) || get_bone_ref(c, j, path, "last", 1, &ch->last_bone) ||
		    check_range(c, lp, ch->first_bone, ch->last_bone, "a chain")) {
			return c->result;
		}
		int count = range_count(c, ch->first_bone, ch->last_bone);
		if (count > SPRING_CHAIN_MAX_BONES) {
			return rj_bad(c, lp, "the chain has %d bones (at most %d)", count, SPRING_CHAIN_MAX_BONES);
		}
		for (int b = ch->last_bone;; b = c->bones[b].parent) {
			if (c->bone_chain[b] >= 0) {
				return rj_bad(c, path, "bone %s is already in chain %s ($.chains[%d]): chains must not overlap",
				              quoted(q1, sizeof q1, c->bones[b].name, 64), quoted(q2, sizeof q2, chains[c->bone_chain[b]].name, 64),
				              c->bone_chain[b]);
			}
			if (!(c->bones[b].length > 0.0f)) {
				return rj_bad(c, path, "bone %s ($.bones[%d]) has length 0: every bone of a chain needs a length > 0",
				              quoted(q1, sizeof q1, c->bones[b].name, 64), b);
			}
			c->bone_chain[b] = i;
			if (b == ch->first_bone) {
				break;
			}
		}
		ch->mix_set = 1;
		spring_vec2 zero = {0.0f, 0.0f};
		if (get_float(c, j, path, "mix", 0, 1.0, 0.0, 1.0, 0, &ch->mix) || get_spring(c, j, path, "spring", &ch->params) ||
		    get_spring(c, j, path, "tip_spring", &ch->tip_params) || get_vec2(c, j, path, "gravity", 0, zero, &ch->gravity) ||
		    get_vec2(c, j, path, "wind", 0, zero, &ch->wind)) {
			return c->result;
		}
		if (cJSON_GetObjectItemCaseSensitive(j, "limit")) {
			float deg = 0.0f;
			char p[256];
			PATH_KEY(p, path, "limit");
			if (get_float(c, j, path, "limit", 0, 0.0, 0.0, 180.0, type == 0 ? RJ_LO_OPEN : RJ_LO_OPEN | RJ_HI_OPEN, &deg)) {
				return c->result;
			}
			ch->limit = (float)((double)deg * RJ_DEG_TO_RAD);
			if (type == SPRING_RIG_CHAIN_TIP && ch->limit > (float)SPRING_PI * 0.99999f) {
				return rj_bad(c, p, "must be < 180 (got %.9g; a cone limit reaches at most 179.998)", (double)deg);
			}
		}
		if (type == SPRING_RIG_CHAIN_TIP) {
			const cJSON *cols;
			int nc;
			if (get_array(c, j, path, "colliders", 0, SPRING_CHAIN_MAX_COLLIDERS, "colliders", &cols, &nc) ||
			    get_float(c, j, path, "tip_radius", 0, 0.0, 0.0, RJ_BIG, 0, &ch->tip_radius)) {
				return c->result;
			}
			if (nc > 0) {
				spring_collider *col = (spring_collider *)rj_alloc(c, (size_t)nc, sizeof *col);
				if (!col) {
					return c->result;
				}
				char cp[256];
				PATH_KEY(cp, path, "colliders");
				int k = 0;
				for (const cJSON *e = cols->child; e; e = e->next, k++) {
					char p[256];
					PATH_INDEX(p, cp, k);
					if (read_collider(c, e, p, &col[k])) {
						return c->result;
					}
				}
				ch->collider_count = nc;
				ch->colliders = col;
			}
		}
	}
	desc->chain_count = n;
	desc->chains = chains;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// spring_rig_create's errors -> JSON paths

static void map_create_error(rj *c, spring_result code, const spring_error *e)
{
	char kind[16] = "";
	snprintf(kind, sizeof kind, "%s", e->depth > 0 ? spring_element_name(e->path[0].element) : e->object);
	const int index = e->depth > 0 ? e->path[0].index : -1;
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
	if (section && index >= 0) {
		path_index(path, sizeof path, section, index);
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
			copy_str(base, sizeof base, path);
			path_key(path, sizeof path, base, field);
		}
		int track = -1, key = -1, event = -1, collider = -1;
		const char *m = strstr(e->message, "track ");
		if (strcmp(kind, "chain") == 0 && (m = strstr(e->message, ": collider ")) && sscanf(m, ": collider %d", &collider) == 1) {
			// A collider refused by the chain: "chain 1: b is invalid: collider 0: b ...".
			path_index(path, sizeof path, section, index);
			char base[256];
			copy_str(base, sizeof base, path);
			path_key(path, sizeof path, base, "colliders");
			copy_str(base, sizeof base, path);
			path_index(path, sizeof path, base, collider);
		} else if (m && sscanf(m, "track %d key %d", &track, &key) >= 1) {
			char base[256];
			copy_str(base, sizeof base, path);
			path_index(path, sizeof path, base, track);
			if (key >= 0) {
				copy_str(base, sizeof base, path);
				path_key(path, sizeof path, base, "keys");
				copy_str(base, sizeof base, path);
				path_index(path, sizeof path, base, key);
			}
		} else if ((m = strstr(e->message, "event ")) && sscanf(m, "event %d", &event) == 1) {
			char base[256];
			copy_str(base, sizeof base, path);
			path_index(path, sizeof path, base, event);
		}
	} else if (strcmp(kind, "rig") == 0 && field[0] && strcmp(field, "memory") != 0 && strcmp(field, "desc") != 0 &&
	           strcmp(field, "out") != 0) {
		path_key(path, sizeof path, "$", field);
	}
	if (code == SPRING_ERROR_OUT_OF_MEMORY) {
		rj_fail(c, code, "", "out of memory creating the rig");
		return;
	}
	rj_fail(c, code, path, "rejected by spring_rig_create: %s", e->message[0] ? e->message : spring_result_string(code));
}

// ---------------------------------------------------------------------------------------------
// The document

static void fill_info(const rj *c, const spring_rig_desc *d, const char *const *ik_names, spring_rig_file_info *info)
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
		copy_str(cl->name, sizeof cl->name, d->clips[i].name);
		cl->duration = d->clips[i].duration;
		cl->loop = d->clips[i].loop;
		cl->track_count = d->clips[i].track_count;
		cl->event_count = d->clips[i].event_count;
	}
	info->ik_count = d->ik_count;
	for (int i = 0; i < d->ik_count; i++) {
		spring_rig_file_ik *ik = &info->iks[i];
		copy_str(ik->name, sizeof ik->name, ik_names[i]);
		ik->type = d->iks[i].type;
		ik->first_bone = d->iks[i].first_bone;
		ik->last_bone = d->iks[i].last_bone;
		ik->target_bone = d->iks[i].target_bone;
	}
	info->chain_count = d->chain_count;
	for (int i = 0; i < d->chain_count; i++) {
		spring_rig_file_chain *ch = &info->chains[i];
		copy_str(ch->name, sizeof ch->name, d->chains[i].name);
		ch->type = d->chains[i].type;
		ch->first_bone = d->chains[i].first_bone;
		ch->last_bone = d->chains[i].last_bone;
		ch->bone_count = range_count(c, d->chains[i].first_bone, d->chains[i].last_bone);
		ch->collider_count = d->chains[i].collider_count;
	}
}

static spring_result read_document(rj *c, const cJSON *doc, spring_rig **out, spring_rig_file_info *info)
{
	if (!cJSON_IsObject(doc)) {
		return rj_bad(c, "$", "expected an object (a libspring rig), got %s", type_name(doc));
	}
	const cJSON *format = cJSON_GetObjectItemCaseSensitive(doc, "format");
	if (!format) {
		return rj_bad(c, "$", "missing key \"format\" (a rig file starts with \"format\": \"libspring-rig\")");
	}
	if (!cJSON_IsString(format) || strcmp(format->valuestring, "libspring-rig") != 0) {
		char q[96];
		return rj_bad(c, "$.format", "expected \"libspring-rig\", got %s",
		              cJSON_IsString(format) ? quoted(q, sizeof q, format->valuestring, 40) : type_name(format));
	}
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "version");
	if (!version) {
		return rj_bad(c, "$", "missing key \"version\" (this reader reads version %d)", SPRING_RIG_FILE_VERSION);
	}
	int v = 0;
	if (integer_item(c, version, "$.version", INT32_MIN + 1, INT32_MAX, &v) != SPRING_OK) {
		return c->result;
	}
	if (v != SPRING_RIG_FILE_VERSION) {
		return rj_bad(c, "$.version", "unsupported version %d (this reader reads version %d)", v, SPRING_RIG_FILE_VERSION);
	}
	static const char *keys[] = {"format", "version", "root", "step", "max_steps", "bones", "clips", "ik", "chains", NULL};
	spring_rig_desc desc;
	memset(&desc, 0, sizeof desc);
	if (check_keys(c, doc, "$", keys, "") || read_root(c, doc, &desc.root) ||
	    get_float(c, doc, "$", "step", 0, 1.0 / 120.0, 0.0, 1.0, RJ_LO_OPEN, &desc.step) ||
	    get_int(c, doc, "$", "max_steps", 8, 1, 1000, &desc.max_steps) || read_bones(c, doc)) {
		return c->result;
	}
	desc.bone_count = c->bone_count;
	desc.bones = c->bones;
	const char **ik_names = (const char **)rj_alloc(c, SPRING_RIG_MAX_IK, sizeof *ik_names);
	if (!ik_names || read_clips(c, doc, &desc) || read_iks(c, doc, &desc, ik_names) || read_chains(c, doc, &desc)) {
		return c->result;
	}
	spring_rig *rig = NULL;
	spring_error e;
	memset(&e, 0, sizeof e);
	spring_result r = spring_rig_create(&desc, &rig, &e);
	if (r != SPRING_OK) {
		map_create_error(c, r, &e);
		return c->result;
	}
	if (info) {
		fill_info(c, &desc, ik_names, info);
	}
	*out = rig;
	return SPRING_OK;
}

static int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

// Parses `buf[0..length)` (buf[length] == '\0', the caller's copy) into a rig.
static spring_result load_buffer(rj *c, const char *buf, size_t length, spring_rig **out, spring_rig_file_info *info)
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
		return rj_bad(c, "", length == 0 ? "the file is empty" : "the file contains no JSON (only white space)");
	}
	size_t err_pos = 0;
	char why[160];
	const char *nul = (const char *)memchr(buf, '\0', length);
	if (nul || !json_check(buf + start, length - start, &err_pos, why, sizeof why)) {
		if (nul) {
			err_pos = (size_t)(nul - buf);
			snprintf(why, sizeof why, "NUL byte in the file (is it a text file?)");
		} else {
			err_pos += start;
		}
		int line, column;
		line_column(buf, length, err_pos, &line, &column);
		rj_bad(c, "", "malformed JSON near line %d, column %d: %s", line, column, why);
		if (c->err) {
			c->err->line = line;
			c->err->column = column;
		}
		return c->result;
	}
	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithLengthOpts(buf + start, length - start, &end, 0);
	if (!doc) {
		// The syntax is valid, so cJSON ran out of memory.
		return rj_fail(c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory while parsing the JSON");
	}
	spring_result r = read_document(c, doc, out, info);
	cJSON_Delete(doc);
	return r;
}

static void begin(rj *c, spring_rig_file_error *error, const char *name)
{
	memset(c, 0, sizeof *c);
	c->err = error;
	if (error) {
		memset(error, 0, sizeof *error);
		copy_str(error->file, sizeof error->file, name);
	}
}

static spring_result finish(rj *c)
{
	rj_free_all(c);
	spring_rig_file_error *e = c->err;
	if (e && c->result != SPRING_OK) {
		if (e->path[0]) {
			snprintf(e->message, sizeof e->message, "%s: %s: %s", e->file, e->path, e->reason);
		} else {
			snprintf(e->message, sizeof e->message, "%s: %s", e->file, e->reason);
		}
	}
	return c->result;
}

spring_result spring_rig_load_json_ex(const char *text, size_t length, const char *name_for_errors, spring_rig **out,
                                      spring_rig_file_info *info, spring_rig_file_error *error)
{
	rj c;
	begin(&c, error, name_for_errors ? name_for_errors : "<memory>");
	if (!out || (!text && length > 0)) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : "text is NULL");
		return finish(&c);
	}
	if (length > SPRING_RIG_FILE_MAX_BYTES) {
		rj_fail(&c, SPRING_ERROR_OUT_OF_RANGE, "", "the document is larger than %u bytes (16 MiB): %zu bytes",
		        SPRING_RIG_FILE_MAX_BYTES, length);
		return finish(&c);
	}
	char *copy = (char *)rj_alloc(&c, length + 1, 1);
	if (copy) {
		if (length > 0) {
			memcpy(copy, text, length);
		}
		copy[length] = '\0';
		load_buffer(&c, copy, length, out, info);
	}
	return finish(&c);
}

spring_result spring_rig_load_json(const char *text, size_t length, const char *name_for_errors, spring_rig **out,
                                   spring_rig_file_error *error)
{
	return spring_rig_load_json_ex(text, length, name_for_errors, out, NULL, error);
}

spring_result spring_rig_load_file_ex(const char *filename, spring_rig **out, spring_rig_file_info *info,
                                      spring_rig_file_error *error)
{
	rj c;
	begin(&c, error, filename ? filename : "<null>");
	if (!filename || !out) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", !out ? "out is NULL" : "no file name given");
		return finish(&c);
	}
	FILE *f = fopen(filename, "rb");
	if (!f) {
		rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot open the file: %s", strerror(errno));
		return finish(&c);
	}
	// Read in chunks (works for pipes too), at most the limit plus one byte to detect "too big".
	const size_t limit = (size_t)SPRING_RIG_FILE_MAX_BYTES + 1u;
	size_t cap = 0, length = 0;
	char *buf = NULL;
	int failed = 0;
	for (;;) {
		if (length == cap) {
			if (cap >= limit) {
				break;
			}
			size_t next = cap == 0 ? 64u * 1024u : cap * 2u;
			next = next > limit ? limit : next;
			char *grown = (char *)cJSON_malloc(next + 1);
			if (!grown) {
				rj_fail(&c, SPRING_ERROR_OUT_OF_MEMORY, "", "out of memory reading the file");
				failed = 1;
				break;
			}
			if (length > 0) {
				memcpy(grown, buf, length);
			}
			cJSON_free(buf);
			buf = grown;
			cap = next;
		}
		size_t got = fread(buf + length, 1, cap - length, f);
		length += got;
		if (got == 0) {
			if (ferror(f)) {
				int err = errno;
				rj_fail(&c, SPRING_ERROR_INVALID_ARGUMENT, "", "cannot read the file: %s", err ? strerror(err) : "read error");
				failed = 1;
			}
			break;
		}
	}
	fclose(f);
	if (!failed) {
		if (length > SPRING_RIG_FILE_MAX_BYTES) {
			rj_fail(&c, SPRING_ERROR_OUT_OF_RANGE, "", "the file is larger than 16 MiB (%u bytes)", SPRING_RIG_FILE_MAX_BYTES);
		} else {
			buf[length] = '\0';
			load_buffer(&c, buf, length, out, info);
		}
	}
	cJSON_free(buf);
	return finish(&c);
}

spring_result spring_rig_load_file(const char *filename, spring_rig **out, spring_rig_file_error *error)
{
	return spring_rig_load_file_ex(filename, out, NULL, error);
}
