// SPDX-License-Identifier: MIT
// Private helpers of the base layer shared by every module (not installed).
#ifndef SPRING_BASE_INTERNAL_H
#define SPRING_BASE_INTERNAL_H

#include "spring/base.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/// Byte counts of object blocks never wrap: every sum and product of a layout goes through these,
/// which saturate at SIZE_MAX (and stay there: SIZE_MAX plus, times or aligned is SIZE_MAX), and
/// a block fits when spring_internal_size_fits says so. On 32-bit targets (wasm32) a group or rig
/// whose counts are each in range can need more than 4 GB: its memory_size is then 0 and its
/// init and create refuse it.
static inline size_t spring_internal_size_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static inline size_t spring_internal_size_mul(size_t a, size_t b)
{
	return b != 0u && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

/// Rounds a byte count up to the 16-byte alignment every object block uses (SIZE_MAX stays).
static inline size_t spring_internal_align16(size_t x)
{
	return x > SIZE_MAX - 15u ? SIZE_MAX : (x + 15u) & ~(size_t)15u;
}

/// The largest block the library lays out: PTRDIFF_MAX bytes (2^31 - 1 on 32-bit targets), so
/// that every offset inside it is a valid pointer difference.
#define SPRING_INTERNAL_MAX_BLOCK_BYTES ((size_t)PTRDIFF_MAX)

/// Whether a block of `bytes` (computed with the helpers above) can be laid out.
static inline bool spring_internal_size_fits(size_t bytes)
{
	return bytes <= SPRING_INTERNAL_MAX_BLOCK_BYTES;
}

/// The test behind spring_is_finite, inline for loops over many floats: x - x is 0 for a finite x
/// and NaN for an infinity or a NaN, and every comparison with NaN is false.
static inline bool spring_internal_finite(float x)
{
	return (x - x) == 0.0f;
}

/// The one check of an output array's room, for every getter that fills the caller's array: a
/// negative capacity is a bad count (SPRING_ERROR_INVALID_ARGUMENT), one below the `needed`
/// entries the call writes SPRING_ERROR_BUFFER_TOO_SMALL (each getter's documentation names the
/// count query that gives `needed`).
static inline spring_result spring_internal_room(int capacity, int64_t needed)
{
	if (capacity < 0) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return (int64_t)capacity < needed ? SPRING_ERROR_BUFFER_TOO_SMALL : SPRING_OK;
}

/// True when all n floats at `a` are finite.
static inline bool spring_internal_all_finite(const float *a, int n)
{
	for (int i = 0; i < n; i++) {
		if (!spring_internal_finite(a[i])) {
			return false;
		}
	}
	return true;
}

/// True when all `size` bytes at `p` are zero: "not set" for parameter blocks where zero means
/// the default (spring_params, descriptions).
bool spring_internal_is_zero(const void *p, size_t size);

/// Fills `*e` (when not NULL) with a fault at `path` (outermost first, `depth` steps, NULL when
/// depth is 0) of `object`, for `field`, and a message "LOCATION: " followed by the printf-style
/// reason. Returns `r` so callers can `return spring_internal_fail(...)`.
spring_result spring_internal_fail(spring_error *e, spring_result r, const char *object, const spring_error_step *path, int depth,
                                   const char *field, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;

/// spring_internal_fail with the reason's arguments as a va_list, for wrappers.
spring_result spring_internal_fail_v(spring_error *e, spring_result r, const char *object, const spring_error_step *path,
                                     int depth, const char *field, const char *fmt, va_list args);

/// The same for a fault at one element (`element` NONE: the object as a whole).
spring_result spring_internal_fail_at(spring_error *e, spring_result r, const char *object, spring_element element, int index,
                                      const char *field, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;

/// Records the other element a fault is about (the first of two duplicates...).
void spring_internal_error_other(spring_error *e, spring_element element, int index);

/// Re-reports an error of an object nested in another (a rig's chain): the location gets
/// `element index` in front, the object becomes `object`, the message "ELEMENT INDEX: " in
/// front of the inner location. `inner` and `e` may be the same.
spring_result spring_internal_error_nest(spring_error *e, const spring_error *inner, const char *object, spring_element element,
                                         int index);

/// What an object made by `*_create` records: the address of its block (a byte copy of the block
/// sees another address and is never freed) and the allocator that made it (destroy uses it even
/// if the process-wide one changed since). All zero for objects made by `*_init` in caller memory.
typedef struct spring_internal_owner {
	const void *block;
	spring_allocator allocator;
} spring_internal_owner;

/// Frees `object` when `owner` says it is the block its create made; otherwise does nothing.
void spring_internal_destroy(void *object, const spring_internal_owner *owner);

/// Defines PREFIX_create(desc, out, error) for an object TYPE with a member `owner` from its
/// PREFIX_init and PREFIX_memory_size: one allocation through spring_internal_create.
#define SPRING_INTERNAL_DEFINE_CREATE(PREFIX, TYPE, DESC, KIND) \
	SPRING_INTERNAL_DEFINE_CREATE_OWNER(PREFIX, TYPE, DESC, KIND, owner)
/// The same for an object whose spring_internal_owner is the member OWNER (a path: a.owner).
#define SPRING_INTERNAL_DEFINE_CREATE_OWNER(PREFIX, TYPE, DESC, KIND, OWNER)                                                  \
	static spring_result PREFIX##_init_thunk(const void *desc, void *memory, size_t size, void **out, spring_error *error)    \
	{                                                                                                                         \
		TYPE *object = NULL;                                                                                                  \
		spring_result r = PREFIX##_init((const DESC *)desc, memory, size, out ? &object : NULL, error);                       \
		if (r == SPRING_OK) {                                                                                                 \
			*out = object;                                                                                                    \
		}                                                                                                                     \
		return r;                                                                                                             \
	}                                                                                                                         \
	spring_result PREFIX##_create(const DESC *desc, TYPE **out, spring_error *error)                                          \
	{                                                                                                                         \
		void *object = NULL;                                                                                                  \
		spring_allocator used;                                                                                                \
		spring_result r = spring_internal_create(desc, PREFIX##_memory_size(desc), PREFIX##_init_thunk, out ? &object : NULL, \
		                                         &used, KIND, error);                                                         \
		if (r == SPRING_OK) {                                                                                                 \
			*out = (TYPE *)object;                                                                                            \
			(*out)->OWNER.block = object;                                                                                     \
			(*out)->OWNER.allocator = used;                                                                                   \
		}                                                                                                                     \
		return r;                                                                                                             \
	}

/// Kinds of object in a snapshot header.
enum {
	SPRING_SNAPSHOT_MOTION = 1,
	SPRING_SNAPSHOT_CHAIN2D,
	SPRING_SNAPSHOT_CHAIN,
	SPRING_SNAPSHOT_RIG,
	SPRING_SNAPSHOT_CHAIN2D_GROUP,
	SPRING_SNAPSHOT_CHAIN_GROUP,
	SPRING_SNAPSHOT_SKELETON
};

/// The 32-byte header of a snapshot of `body_size` bytes, for objects that write their state
/// field by field after it (spring_skeleton) rather than as one block.
void spring_internal_snapshot_write_header(unsigned kind, uint64_t shape, size_t body_size, void *blob);

/// Writes a snapshot of `block_size` bytes at `object` into `blob` (at least
/// SPRING_SNAPSHOT_HEADER_BYTES + block_size bytes): header, then the block with the owner record
/// at `owner_offset` zeroed (SIZE_MAX: none), so equal states give equal blobs.
spring_result spring_internal_snapshot(const void *object, size_t block_size, size_t owner_offset, unsigned kind, uint64_t shape,
                                       void *blob, size_t size);
/// The first half of every restore: checks the blob's header (magic, version, `kind`, reserved
/// word 0, `shape`, `block_size`) and its size; on success `*body` points at the block image
/// after the header (any alignment: read it with memcpy). Fills `error` (object `object`) and
/// returns INVALID_ARGUMENT otherwise.
spring_result spring_internal_snapshot_header(const void *blob, size_t size, unsigned kind, uint64_t shape, size_t block_size,
                                              const char *object, spring_error *error, const unsigned char **body);
/// The second half, once the kind's own checks accepted the body: copies it over the object,
/// keeping the object's owner record at `owner_offset` (SIZE_MAX: none).
void spring_internal_snapshot_install(void *object, size_t block_size, size_t owner_offset, const unsigned char *body);
/// A refused snapshot value: fills `error` with "snapshot: FIELD REASON" at (element, index).
spring_result spring_internal_snapshot_bad(spring_error *error, spring_result r, const char *object, spring_element element,
                                           int index, const char *field, const char *reason);

/// Reads a value of the block image `body` at byte `offset` (any alignment).
static inline float spring_internal_load_float(const unsigned char *body, size_t offset)
{
	float x;
	memcpy(&x, body + offset, sizeof x);
	return x;
}

/// Builds an object in caller memory: the `*_init` of chains and rigs behind one signature.
typedef spring_result spring_init_thunk(const void *desc, void *memory, size_t size, void **out, spring_error *error);

/// The `*_create` every object shares: one 16-byte-aligned allocation of `size` bytes through
/// the allocator in force (recorded in `*used` for the matching destroy), then `init`. A `size`
/// of 0 (an invalid description) calls `init` without memory so that it reports the reason.
/// On failure nothing stays allocated and `*out` is untouched.
spring_result spring_internal_create(const void *desc, size_t size, spring_init_thunk *init, void **out, spring_allocator *used,
                                     const char *object, spring_error *error);

#endif
