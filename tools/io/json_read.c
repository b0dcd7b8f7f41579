// SPDX-License-Identifier: MIT
// Typed values out of cJSON for the rig-file reader: every getter checks the type and the range
// and reports an error with the JSON path of the element; quoting, paths and "did you mean".
#include "rig_json_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *rj_quoted(char *buf, size_t size, const char *s, size_t max)
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
void rj_path_key(char *out, size_t size, const char *base, const char *key)
{
	int n;
	if (is_identifier(key) && strlen(key) <= 64) {
		n = snprintf(out, size, "%s.%s", base, key);
	} else {
		char q[96];
		n = snprintf(out, size, "%s[%s]", base, rj_quoted(q, sizeof q, key, 40));
	}
	if (n < 0 || (size_t)n >= size) {
		out[size - 1] = '\0';
	}
}

void rj_path_index(char *out, size_t size, const char *base, int index)
{
	int n = snprintf(out, size, "%s[%d]", base, index);
	if (n < 0 || (size_t)n >= size) {
		out[size - 1] = '\0';
	}
}

const char *rj_type_name(const cJSON *j)
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

// ---------------------------------------------------------------------------------------------
// Reading values

spring_result rj_check_keys(rj *c, const cJSON *obj, const char *path, const char *const *allowed, const char *what)
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
			int hint = spring_closest_name(k->string, allowed, -1);
			char list[200];
			size_t o = 0;
			list[0] = '\0';
			for (int a = 0; allowed[a]; a++) {
				if (o < sizeof list) {
					o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", a ? ", " : "", allowed[a]);
				}
			}
			if (hint >= 0) {
				return rj_bad(c, p, "unknown key %s%s (did you mean \"%s\"?)", rj_quoted(q, sizeof q, k->string, 40), what,
				              allowed[hint]);
			}
			return rj_bad(c, p, "unknown key %s%s (expected one of: %s)", rj_quoted(q, sizeof q, k->string, 40), what, list);
		}
		if (seen & (1u << found)) {
			return rj_bad(c, p, "duplicate key %s", rj_quoted(q, sizeof q, k->string, 40));
		}
		seen |= 1u << found;
	}
	return SPRING_OK;
}

spring_result rj_expect_object(rj *c, const cJSON *j, const char *path, const char *what)
{
	if (!cJSON_IsObject(j)) {
		return rj_bad(c, path, "expected an object (%s), got %s", what, rj_type_name(j));
	}
	return SPRING_OK;
}

spring_result rj_missing(rj *c, const char *path, const char *key)
{
	return rj_bad(c, path, "missing key \"%s\"", key);
}

static void range_text(char *buf, size_t size, double lo, double hi, int flags)
{
	snprintf(buf, size, "in %s%.9g, %.9g%s", flags & RJ_LO_OPEN ? "(" : "[", lo, hi, flags & RJ_HI_OPEN ? ")" : "]");
}

spring_result rj_number_item(rj *c, const cJSON *j, const char *path, double lo, double hi, int flags, double *out)
{
	if (!cJSON_IsNumber(j)) {
		return rj_bad(c, path, "expected a number, got %s", rj_type_name(j));
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
	if ((low || high) && lo <= -RJ_BIG && hi >= RJ_BIG) {
		return rj_bad(c, path, "must be within +-%.9g, the largest magnitude a rig accepts (got %.9g)", RJ_BIG, v);
	}
	if (low || high) {
		char r[96];
		range_text(r, sizeof r, lo, hi, flags);
		return rj_bad(c, path, "must be %s (got %.9g)", r, v);
	}
	*out = v;
	return SPRING_OK;
}

const cJSON *rj_member(rj *c, const cJSON *obj, const char *path, const char *key, int required, char p[RJ_PATH_SIZE])
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j) {
		if (required) {
			rj_missing(c, path, key);
		}
		return NULL;
	}
	rj_path_key(p, RJ_PATH_SIZE, path, key);
	return j;
}

// obj[key] as a float: absent -> def (or an error when `required`).
spring_result rj_get_float(rj *c, const cJSON *obj, const char *path, const char *key, int required, double def, double lo,
                           double hi, int flags, float *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, required, p);
	if (!j) {
		*out = (float)def;
		return c->result;
	}
	double v = 0.0;
	if (rj_number_item(c, j, p, lo, hi, flags, &v) != SPRING_OK) {
		return c->result;
	}
	*out = (float)v;
	return SPRING_OK;
}

spring_result rj_get_degrees(rj *c, const cJSON *obj, const char *path, const char *key, int required, float *out)
{
	float deg = 0.0f;
	if (rj_get_float(c, obj, path, key, required, 0.0, -RJ_BIG, RJ_BIG, 0, &deg) != SPRING_OK) {
		return c->result;
	}
	*out = (float)((double)deg * RJ_DEG_TO_RAD);
	return SPRING_OK;
}

spring_result rj_integer_item(rj *c, const cJSON *j, const char *path, int lo, int hi, int *out)
{
	if (!cJSON_IsNumber(j)) {
		return rj_bad(c, path, "expected an integer, got %s", rj_type_name(j));
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

spring_result rj_get_int(rj *c, const cJSON *obj, const char *path, const char *key, int def, int lo, int hi, int *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, 0, p);
	if (!j) {
		*out = def;
		return c->result;
	}
	return rj_integer_item(c, j, p, lo, hi, out);
}

spring_result rj_get_bool(rj *c, const cJSON *obj, const char *path, const char *key, int def, int *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, 0, p);
	if (!j) {
		*out = def;
		return c->result;
	}
	if (!cJSON_IsBool(j)) {
		return rj_bad(c, p, "expected true or false, got %s", rj_type_name(j));
	}
	*out = cJSON_IsTrue(j) ? 1 : 0;
	return SPRING_OK;
}

// A name: a string of 1..SPRING_RIG_MAX_NAME bytes without control characters (the syntax
// check already guaranteed valid UTF-8 and no NUL).
spring_result rj_name_item(rj *c, const cJSON *j, const char *path, const char **out)
{
	if (!cJSON_IsString(j)) {
		return rj_bad(c, path, "expected a name (a string), got %s", rj_type_name(j));
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

spring_result rj_get_name(rj *c, const cJSON *obj, const char *path, const char *key, const char **out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, 1, p);
	return j ? rj_name_item(c, j, p, out) : c->result;
}

// obj[key] as one of `names` (NULL-terminated); absent -> def, or an error when def < 0.
spring_result rj_get_enum(rj *c, const cJSON *obj, const char *path, const char *key, const char *const *names, int def,
                          const char *what, int *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, def < 0, p);
	if (!j) {
		*out = def;
		return c->result;
	}
	char list[160];
	size_t o = 0;
	for (int i = 0; names[i]; i++) {
		o += (size_t)snprintf(list + o, sizeof list - o, "%s\"%s\"", i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
		if (o >= sizeof list) {
			break;
		}
	}
	if (!cJSON_IsString(j)) {
		return rj_bad(c, p, "expected %s, got %s", list, rj_type_name(j));
	}
	for (int i = 0; names[i]; i++) {
		if (strcmp(j->valuestring, names[i]) == 0) {
			*out = i;
			return SPRING_OK;
		}
	}
	char q[96];
	return rj_bad(c, p, "unknown %s %s (expected %s)", what, rj_quoted(q, sizeof q, j->valuestring, 40), list);
}

spring_result rj_vec2_item(rj *c, const cJSON *j, const char *path, double lo, double hi, spring_vec2 *out)
{
	int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : -1;
	if (n != 2) {
		if (n < 0) {
			return rj_bad(c, path, "expected [x, y] (an array of 2 numbers), got %s", rj_type_name(j));
		}
		return rj_bad(c, path, "expected [x, y] (an array of 2 numbers), got %d element%s", n, n == 1 ? "" : "s");
	}
	double v[2] = {0.0, 0.0};
	int i = 0;
	for (const cJSON *e = j->child; e; e = e->next, i++) {
		char p[256];
		PATH_INDEX(p, path, i);
		if (rj_number_item(c, e, p, lo, hi, 0, &v[i]) != SPRING_OK) {
			return c->result;
		}
	}
	out->x = (float)v[0];
	out->y = (float)v[1];
	return SPRING_OK;
}

spring_result rj_get_vec2(rj *c, const cJSON *obj, const char *path, const char *key, int required, spring_vec2 def,
                          spring_vec2 *out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, required, p);
	if (!j) {
		*out = def;
		return c->result;
	}
	return rj_vec2_item(c, j, p, -RJ_BIG, RJ_BIG, out);
}

spring_result rj_get_array(rj *c, const cJSON *obj, const char *path, const char *key, int required, int max, const char *what,
                           const cJSON **out, int *count)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, required, p);
	*out = NULL;
	*count = 0;
	if (!j) {
		return c->result;
	}
	if (!cJSON_IsArray(j)) {
		return rj_bad(c, p, "expected an array of %s, got %s", what, rj_type_name(j));
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

void *rj_read_list(rj *c, const cJSON *obj, const char *path, const char *key, int required, int max, const char *what,
                   size_t size, rj_item_reader read, const void *context, int *count)
{
	const cJSON *arr;
	if (rj_get_array(c, obj, path, key, required, max, what, &arr, count) != SPRING_OK || *count == 0) {
		return NULL;
	}
	char *items = (char *)rj_alloc(c, (size_t)*count, size);
	if (!items) {
		return NULL;
	}
	char array_path[RJ_PATH_SIZE];
	rj_path_key(array_path, RJ_PATH_SIZE, path, key);
	int i = 0;
	for (const cJSON *e = arr->child; e; e = e->next, i++) {
		char p[RJ_PATH_SIZE];
		PATH_INDEX(p, array_path, i);
		if (read(c, e, p, items + (size_t)i * size, context) != SPRING_OK) {
			return NULL;
		}
	}
	return items;
}
