// SPDX-License-Identifier: MIT
// The strict JSON syntax check (RFC 8259) that runs before cJSON, which is lenient: it accepts
// "01", "1.", control characters and trailing content, truncates strings at \u0000, and reports
// only a position. This check gives the line, the column and a reason; iterative, depth-limited.
#include "rig_json_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// Records a syntax error at byte `at`: the position in *pos and the reason in `why`. Returns 0, the
// checkers' "not valid".
static int js_fail(size_t *pos, size_t at, char *why, size_t why_size, const char *fmt, ...) RJ_PRINTF(5, 6);
static int js_fail(size_t *pos, size_t at, char *why, size_t why_size, const char *fmt, ...)
{
	*pos = at;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return 0;
}

void rj_line_column(const char *text, size_t length, size_t offset, int *line, int *column)
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

// What may follow a complete value when `depth` containers are open (stack[depth - 1] innermost).
static js_state after_value(const char *stack, int depth)
{
	return depth == 0 ? JS_END : (stack[depth - 1] == '[' ? JS_ARRAY_NEXT : JS_OBJECT_NEXT);
}

// Closes the innermost container at s[*i] (its ']' or '}'), a complete value.
static js_state close_container(const char *stack, int *depth, size_t *i)
{
	(*depth)--;
	(*i)++;
	return after_value(stack, *depth);
}

static const char *describe_byte(char *buf, size_t size, const char *s, size_t n, size_t pos)
{
	if (pos >= n) {
		return "the end of the file";
	}
	unsigned char ch = (unsigned char)s[pos];
	if (ch >= 0x21 && ch < 0x7f) {
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
			size_t e = pos;
			while (
				e < n && e - pos < 24 &&
				((s[e] >= 'a' && s[e] <= 'z') || (s[e] >= 'A' && s[e] <= 'Z') || (s[e] >= '0' && s[e] <= '9') || s[e] == '_')) {
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
			int line, col;
			rj_line_column(s, n, open, &line, &col);
			return js_fail(pos, n, why, why_size, "the file ends inside a string (opened at line %d, column %d)", line, col);
		}
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"') {
			*pos = i + 1;
			return 1;
		}
		if (ch < 0x20u) {
			return js_fail(pos, i, why, why_size, "control character (byte 0x%02x) in a string: write it as an escape", ch);
		}
		if (ch == '\\') {
			if (i + 1 >= n) {
				return js_fail(pos, n, why, why_size, "the file ends inside a string");
			}
			char e = s[i + 1];
			if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
				i += 2;
				continue;
			}
			if (e != 'u') {
				return js_fail(pos, i, why, why_size, "invalid escape '\\%c' in a string", (e >= 0x20 && e < 0x7f) ? e : '?');
			}
			unsigned int u;
			if (!hex4(s, n, i + 2, &u)) {
				return js_fail(pos, i, why, why_size, "\\u must be followed by 4 hexadecimal digits");
			}
			if (u == 0) {
				return js_fail(pos, i, why, why_size, "\\u0000 (NUL) is not allowed in strings");
			}
			if (u >= 0xDC00u && u <= 0xDFFFu) {
				return js_fail(pos, i, why, why_size, "unpaired surrogate \\u%04x in a string", u);
			}
			if (u >= 0xD800u && u <= 0xDBFFu) {
				unsigned int low;
				if (i + 7 >= n || s[i + 6] != '\\' || s[i + 7] != 'u' || !hex4(s, n, i + 8, &low) || low < 0xDC00u ||
				    low > 0xDFFFu) {
					return js_fail(pos, i, why, why_size, "unpaired surrogate \\u%04x in a string", u);
				}
				i += 12;
				continue;
			}
			i += 6;
			continue;
		}
		size_t len = utf8_sequence((const unsigned char *)s + i, n - i);
		if (len == 0) {
			return js_fail(pos, i, why, why_size, "invalid UTF-8 (byte 0x%02x) in a string", ch);
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
		return js_fail(pos, i, why, why_size, "expected a digit after '-'");
	}
	if (s[i] == '0') {
		i++;
		if (i < n && is_digit(s[i])) {
			return js_fail(pos, i - 1, why, why_size, "numbers must not have leading zeros");
		}
	} else {
		while (i < n && is_digit(s[i])) {
			i++;
		}
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i >= n || !is_digit(s[i])) {
			return js_fail(pos, i, why, why_size, "expected a digit after the decimal point");
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
			return js_fail(pos, i, why, why_size, "expected a digit in the exponent");
		}
		while (i < n && is_digit(s[i])) {
			i++;
		}
	}
	if (i - start > RJ_MAX_NUMBER_CHARS) {
		return js_fail(pos, start, why, why_size, "number longer than %d characters", RJ_MAX_NUMBER_CHARS);
	}
	*pos = i;
	return 1;
}

int rj_json_check(const char *s, size_t n, size_t *err_pos, char *why, size_t why_size)
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
			const char *open = depth == 0                ? ""
			                   : stack[depth - 1] == '{' ? " (an object is not closed)"
			                                             : " (an array is not closed)";
			return js_fail(err_pos, n, why, why_size, "unexpected end of file%s", open);
		}
		char ch = s[i];
		int value = 0; // 1: parse a value at i
		switch (st) {
		case JS_END:
			return js_fail(err_pos, i, why, why_size, "unexpected %s after the end of the document",
			               describe_byte(b, sizeof b, s, n, i));
		case JS_ARRAY_FIRST:
			if (ch == ']') {
				st = close_container(stack, &depth, &i);
				continue;
			}
			value = 1;
			break;
		case JS_ARRAY_AFTER:
			if (ch == ']') {
				return js_fail(err_pos, i, why, why_size, "trailing comma before ']'");
			}
			value = 1;
			break;
		case JS_VALUE: value = 1; break;
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
				st = close_container(stack, &depth, &i);
				continue;
			}
			if (ch == '}') {
				return js_fail(err_pos, i, why, why_size, "trailing comma before '}'");
			}
			return js_fail(err_pos, i, why, why_size, "expected a key in double quotes, found %s",
			               describe_byte(b, sizeof b, s, n, i));
		case JS_COLON:
			if (ch == ':') {
				i++;
				st = JS_VALUE;
				continue;
			}
			return js_fail(err_pos, i, why, why_size, "expected ':' after the key, found %s",
			               describe_byte(b, sizeof b, s, n, i));
		case JS_ARRAY_NEXT:
		case JS_OBJECT_NEXT: {
			int array = st == JS_ARRAY_NEXT;
			char close = array ? ']' : '}';
			if (ch == ',') {
				i++;
				st = array ? JS_ARRAY_AFTER : JS_OBJECT_KEY;
				continue;
			}
			if (ch == close) {
				st = close_container(stack, &depth, &i);
				continue;
			}
			return js_fail(err_pos, i, why, why_size, "expected ',' or '%c' after %s, found %s%s", close,
			               array ? "an array element" : "a member", describe_byte(b, sizeof b, s, n, i),
			               !array && ch == '"' ? " (missing comma?)" : "");
		}
		}
		if (!value) {
			continue;
		}
		// A value at i.
		if (ch == '{' || ch == '[') {
			if (depth >= RJ_MAX_DEPTH) {
				return js_fail(err_pos, i, why, why_size, "nested deeper than %d levels", RJ_MAX_DEPTH);
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
			int nonfinite = (ch == 'N' || ch == 'n' || ch == 'I' || ch == 'i');
			return js_fail(err_pos, i, why, why_size, "expected a value, found %s%s", describe_byte(b, sizeof b, s, n, i),
			               nonfinite ? " (NaN and Infinity are not JSON numbers)" : "");
		}
		st = after_value(stack, depth);
	}
}
