// SPDX-License-Identifier: MIT
// Result strings, float checks, allocator and assertion hooks.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/base.h"

#include "base_internal.h"

#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *spring_result_string(spring_result r)
{
	switch (r) {
	case SPRING_OK: return "ok";
	case SPRING_ERROR_INVALID_ARGUMENT: return "invalid argument (NULL pointer, bad count or enum value)";
	case SPRING_ERROR_NOT_FINITE: return "a number is NaN or infinite";
	case SPRING_ERROR_OUT_OF_RANGE: return "a number is outside its allowed range";
	case SPRING_ERROR_UNSTABLE: return "the integrator is unstable for these parameters and step";
	case SPRING_ERROR_NO_SOLUTION: return "no spring has these parameters";
	case SPRING_ERROR_OUT_OF_MEMORY: return "out of memory";
	case SPRING_ERROR_BAD_DEFINITION: return "inconsistent chain or rig definition";
	case SPRING_ERROR_BUFFER_TOO_SMALL: return "an output array is too small for what the call writes";
	case SPRING_RESULT_COUNT: break;
	}
	return "unknown spring_result";
}

bool spring_is_finite(float x)
{
	return spring_internal_finite(x);
}

static void *default_alloc(size_t size, size_t alignment, void *context)
{
	(void)context;
	if (alignment < sizeof(void *)) {
		alignment = sizeof(void *);
	}
	// Portable aligned allocation: over-allocate and store the original pointer before the block.
	size_t total = size + alignment + sizeof(void *);
	if (total < size) {
		return NULL;
	}
	unsigned char *raw = (unsigned char *)malloc(total);
	if (!raw) {
		return NULL;
	}
	uintptr_t start = (uintptr_t)(raw + sizeof(void *));
	uintptr_t aligned = (start + (alignment - 1)) & ~(uintptr_t)(alignment - 1);
	memcpy((void *)(aligned - sizeof(void *)), &raw, sizeof raw);
	return (void *)aligned;
}

static void default_free(void *pointer, void *context)
{
	(void)context;
	if (pointer) {
		void *raw;
		memcpy(&raw, (unsigned char *)pointer - sizeof(void *), sizeof raw);
		free(raw);
	}
}

static spring_allocator g_allocator = {default_alloc, default_free, NULL};

void spring_set_allocator(const spring_allocator *allocator)
{
	if (allocator && allocator->alloc && allocator->free) {
		g_allocator = *allocator;
	} else {
		g_allocator.alloc = default_alloc;
		g_allocator.free = default_free;
		g_allocator.context = NULL;
	}
}

spring_allocator spring_get_allocator(void)
{
	return g_allocator;
}

static spring_assert_fn *g_assert_fn;

void spring_set_assert(spring_assert_fn *fn)
{
	g_assert_fn = fn;
}

#if !defined(NDEBUG) || defined(SPRING_ENABLE_ASSERT)
int spring_internal_assert(const char *condition, const char *file, int line)
{
	if (g_assert_fn) {
		if (!g_assert_fn(condition, file, line)) {
			return 0;
		}
	} else {
		fprintf(stderr, "libspring: assertion failed: %s (%s:%d)\n", condition, file, line);
	}
	abort();
}
#endif

spring_result spring_internal_create(const void *desc, size_t size, spring_init_thunk *init, void **out, spring_allocator *used,
                                     const char *kind, spring_error *error)
{
	if (size == 0 || !out) {
		return init(desc, NULL, 0, out, error); // reports the reason
	}
	spring_allocator a = g_allocator;
	void *memory = a.alloc(size, 16, a.context);
	if (!memory) {
		spring_internal_fail_at(error, SPRING_ERROR_OUT_OF_MEMORY, kind, SPRING_ELEMENT_NONE, -1, "memory",
		                        "memory: the allocator returned NULL for %zu bytes", size);
		return SPRING_ERROR_OUT_OF_MEMORY;
	}
	void *object = NULL;
	spring_result r = init(desc, memory, size, &object, error);
	if (r != SPRING_OK) {
		a.free(memory, a.context); // for example a custom allocator that ignored the alignment
		return r;
	}
	*used = a;
	*out = object;
	return SPRING_OK;
}

void spring_internal_destroy(void *object, const spring_internal_owner *owner)
{
	if (object && owner->block == object && owner->allocator.free) {
		owner->allocator.free(object, owner->allocator.context);
	}
}

// ---------------------------------------------------------------------------------------------
// Errors with a structured location

static const char *const g_element_names[SPRING_ELEMENT_COUNT] = {
	"",      "bone", "segment", "collider", "clip",   "track", "key",
	"event", "ik",   "chain",   "node",     "spring", "joint", "collider group",
};

const char *spring_element_name(spring_element element)
{
	return element >= 0 && element < SPRING_ELEMENT_COUNT ? g_element_names[element] : "";
}

spring_error_step spring_error_innermost(const spring_error *error)
{
	spring_error_step none = {SPRING_ELEMENT_NONE, -1};
	if (!error || error->depth <= 0 || error->depth > SPRING_ERROR_MAX_DEPTH) {
		return none;
	}
	return error->path[error->depth - 1];
}

bool spring_internal_is_zero(const void *p, size_t size)
{
	const unsigned char *b = (const unsigned char *)p;
	for (size_t i = 0; i < size; i++) {
		if (b[i]) {
			return false;
		}
	}
	return true;
}

// "chain 1: collider 2: " for a path, "rig: " for the object itself; returns the length written.
static int location_text(char *out, size_t size, const char *object, const spring_error_step *path, int depth)
{
	int used = 0;
	if (depth == 0) {
		used = snprintf(out, size, "%s: ", object);
	}
	for (int i = 0; i < depth && used >= 0 && (size_t)used < size; i++) {
		int n = snprintf(out + used, size - (size_t)used, "%s %d: ", spring_element_name(path[i].element), path[i].index);
		used = n < 0 ? -1 : used + n;
	}
	return used < 0 ? 0 : (size_t)used < size ? used : (int)size - 1;
}

const char *spring_error_reason(const spring_error *error)
{
	if (!error) {
		return "";
	}
	char where[sizeof error->message];
	int depth = error->depth < 0 ? 0 : error->depth > SPRING_ERROR_MAX_DEPTH ? SPRING_ERROR_MAX_DEPTH : error->depth;
	int n = location_text(where, sizeof where, error->object, error->path, depth);
	size_t len = 0;
	while (len < sizeof error->message && error->message[len]) {
		len++;
	}
	if ((size_t)n <= len && strncmp(error->message, where, (size_t)n) == 0) {
		return error->message + n;
	}
	return error->message;
}

spring_result spring_internal_fail_v(spring_error *e, spring_result r, const char *object, const spring_error_step *path,
                                     int depth, const char *field, const char *fmt, va_list args)
{
	if (!e) {
		return r;
	}
	spring_error x;
	memset(&x, 0, sizeof x);
	x.result = r;
	snprintf(x.object, sizeof x.object, "%s", object);
	x.depth = depth < 0 ? 0 : depth > SPRING_ERROR_MAX_DEPTH ? SPRING_ERROR_MAX_DEPTH : depth;
	for (int i = 0; i < x.depth; i++) {
		x.path[i] = path[i];
	}
	x.other.index = -1;
	snprintf(x.field, sizeof x.field, "%s", field ? field : "");
	int used = location_text(x.message, sizeof x.message, object, x.path, x.depth);
	vsnprintf(x.message + used, sizeof x.message - (size_t)used, fmt, args);
	*e = x;
	return r;
}

spring_result spring_internal_fail(spring_error *e, spring_result r, const char *object, const spring_error_step *path, int depth,
                                   const char *field, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	spring_internal_fail_v(e, r, object, path, depth, field, fmt, args);
	va_end(args);
	return r;
}

spring_result spring_internal_fail_at(spring_error *e, spring_result r, const char *object, spring_element element, int index,
                                      const char *field, const char *fmt, ...)
{
	spring_error_step step = {element, index};
	va_list args;
	va_start(args, fmt);
	spring_internal_fail_v(e, r, object, &step, element == SPRING_ELEMENT_NONE ? 0 : 1, field, fmt, args);
	va_end(args);
	return r;
}

void spring_internal_error_other(spring_error *e, spring_element element, int index)
{
	if (e) {
		e->other.element = element;
		e->other.index = index;
	}
}

spring_result spring_internal_error_nest(spring_error *e, const spring_error *inner, const char *object, spring_element element,
                                         int index)
{
	if (!e) {
		return inner->result;
	}
	spring_error x = *inner;
	int depth = inner->depth < SPRING_ERROR_MAX_DEPTH ? inner->depth : SPRING_ERROR_MAX_DEPTH - 1;
	x.path[0].element = element;
	x.path[0].index = index;
	for (int i = 0; i < depth; i++) {
		x.path[i + 1] = inner->path[i];
	}
	x.depth = depth + 1;
	snprintf(x.object, sizeof x.object, "%s", object);
	// The inner message starts with its own location ("bone 2: " or "chain: "); keep the part
	// after an object-level prefix, put ours in front.
	const char *rest = inner->message;
	if (inner->depth == 0) {
		size_t n = strlen(inner->object);
		if (n && strncmp(rest, inner->object, n) == 0 && rest[n] == ':' && rest[n + 1] == ' ') {
			rest += n + 2;
		}
	}
	int used = location_text(x.message, sizeof x.message, object, x.path, 1);
	snprintf(x.message + used, sizeof x.message - (size_t)used, "%s", rest);
	*e = x;
	return inner->result;
}

// ---------------------------------------------------------------------------------------------
// Suggestions for misspelt names

// Levenshtein distance of two names of at most 63 bytes, with one row of the table.
static int edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 63 || m > 63) {
		return 64;
	}
	int row[64];
	for (size_t j = 0; j <= m; j++) {
		row[j] = (int)j;
	}
	for (size_t i = 1; i <= n; i++) {
		int diagonal = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= m; j++) {
			int above = row[j];
			int best = diagonal + (a[i - 1] != b[j - 1]);
			best = above + 1 < best ? above + 1 : best;
			best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
			row[j] = best;
			diagonal = above;
		}
	}
	return row[m];
}

int spring_closest_name(const char *given, const char *const *candidates, int count)
{
	if (!given || !candidates) {
		return -1;
	}
	int best = -1, best_distance = 3;
	for (int i = 0; count < 0 ? candidates[i] != NULL : i < count; i++) {
		if (!candidates[i]) {
			continue;
		}
		int d = edit_distance(given, candidates[i]);
		if (d < best_distance && d <= (int)strlen(candidates[i]) / 2) {
			best = i;
			best_distance = d;
		}
	}
	return best;
}

// ---------------------------------------------------------------------------------------------
// Snapshots

typedef struct snapshot_header {
	char magic[4];     // "SPRS"
	uint32_t version;  // SPRING_SNAPSHOT_VERSION
	uint32_t kind;     // SPRING_SNAPSHOT_*
	uint32_t reserved; // 0
	uint64_t shape;    // hash of the object's layout
	uint64_t size;     // bytes of state after the header
} snapshot_header;

_Static_assert(sizeof(snapshot_header) == SPRING_SNAPSHOT_HEADER_BYTES, "the documented header size");

void spring_internal_snapshot_write_header(unsigned kind, uint64_t shape, size_t body_size, void *blob)
{
	snapshot_header h = {{'S', 'P', 'R', 'S'}, SPRING_SNAPSHOT_VERSION, kind, 0u, shape, (uint64_t)body_size};
	memcpy(blob, &h, sizeof h);
}

spring_result spring_internal_snapshot(const void *object, size_t block_size, size_t owner_offset, unsigned kind, uint64_t shape,
                                       void *blob, size_t size)
{
	if (!object || !blob) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (size < sizeof(snapshot_header) + block_size) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	unsigned char *out = (unsigned char *)blob;
	spring_internal_snapshot_write_header(kind, shape, block_size, blob);
	memcpy(out + sizeof(snapshot_header), object, block_size);
	if (owner_offset != SIZE_MAX) {
		memset(out + sizeof(snapshot_header) + owner_offset, 0, sizeof(spring_internal_owner));
	}
	return SPRING_OK;
}

spring_result spring_internal_snapshot_header(const void *blob, size_t size, unsigned kind, uint64_t shape, size_t block_size,
                                              const char *object, spring_error *error, const unsigned char **body)
{
	if (!blob) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, object, SPRING_ELEMENT_NONE, -1, "blob",
		                               "snapshot: the blob is NULL");
	}
	if (size != sizeof(snapshot_header) + block_size) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, object, SPRING_ELEMENT_NONE, -1, "size",
		                               "snapshot: the blob is %zu bytes, this object's are %zu", size,
		                               sizeof(snapshot_header) + block_size);
	}
	snapshot_header h;
	memcpy(&h, blob, sizeof h);
	const char *field = NULL, *why = NULL;
	if (memcmp(h.magic, "SPRS", 4) != 0) {
		field = "magic", why = "does not start with SPRS";
	} else if (h.version != SPRING_SNAPSHOT_VERSION) {
		field = "version", why = "is of another format version";
	} else if (h.kind != kind) {
		field = "kind", why = "is of another kind of object";
	} else if (h.reserved != 0u) {
		field = "reserved", why = "has a non-zero reserved word";
	} else if (h.shape != shape) {
		field = "shape", why = "is of another shape (counts or settings the layout depends on)";
	} else if (h.size != (uint64_t)block_size) {
		field = "size", why = "gives another size in its header";
	}
	if (field) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, object, SPRING_ELEMENT_NONE, -1, field,
		                               "snapshot: the blob %s", why);
	}
	*body = (const unsigned char *)blob + sizeof h;
	return SPRING_OK;
}

void spring_internal_snapshot_install(void *object, size_t block_size, size_t owner_offset, const unsigned char *body)
{
	spring_internal_owner keep;
	if (owner_offset != SIZE_MAX) {
		memcpy(&keep, (unsigned char *)object + owner_offset, sizeof keep);
	}
	memcpy(object, body, block_size);
	if (owner_offset != SIZE_MAX) {
		memcpy((unsigned char *)object + owner_offset, &keep, sizeof keep);
	}
}

spring_result spring_internal_snapshot_bad(spring_error *error, spring_result r, const char *object, spring_element element,
                                           int index, const char *field, const char *reason)
{
	return spring_internal_fail_at(error, r, object, element, index, field, "snapshot: %s %s", field, reason);
}
