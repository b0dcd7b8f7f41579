// SPDX-License-Identifier: MIT
/// @file base.h
/// Base layer of libspring: export macro, result codes, float validation, allocator hooks and the
/// library's own deterministic transcendental functions.
///
/// Everything in the simulation that needs exp, log, sin, cos or atan2 calls the `spring_det_*`
/// functions below instead of libm, because libm differs between C libraries and compilers while
/// IEEE-754 addition, multiplication, division and square root do not. Built with
/// `-ffp-contract=off`, the library produces bit-identical results under gcc, clang and wasm32.
#ifndef SPRING_BASE_H
#define SPRING_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SPRING_SHARED) && defined(_WIN32)
#if defined(SPRING_BUILDING)
#define SPRING_API __declspec(dllexport)
#else
#define SPRING_API __declspec(dllimport)
#endif
#elif defined(SPRING_BUILDING) && defined(__GNUC__)
#define SPRING_API __attribute__((visibility("default")))
#else
#define SPRING_API
#endif

/// Result of every fallible call. An error leaves every output and every piece of state untouched.
typedef enum spring_result {
	SPRING_OK = 0,
	SPRING_ERROR_INVALID_ARGUMENT, ///< a NULL pointer, a count or an enum value out of range
	SPRING_ERROR_NOT_FINITE,       ///< a NaN or infinite number was passed in
	SPRING_ERROR_OUT_OF_RANGE,     ///< a finite number outside its documented range
	SPRING_ERROR_UNSTABLE,         ///< the chosen integrator is unstable for this (parameters, step)
	SPRING_ERROR_NO_SOLUTION,      ///< the requested parameterisation has no physical spring
	SPRING_ERROR_OUT_OF_MEMORY,    ///< the allocator returned NULL
	SPRING_ERROR_BAD_DEFINITION,   ///< a chain or rig definition is inconsistent (see its message)
	SPRING_ERROR_BUFFER_TOO_SMALL, ///< an output array's capacity is below what the call writes:
	                               ///< the getter's documentation names the count it needs
	SPRING_RESULT_COUNT
} spring_result;

/// What an index in an error location counts.
typedef enum spring_element {
	SPRING_ELEMENT_NONE = 0,       ///< no element: the object itself
	SPRING_ELEMENT_BONE,           ///< a bone (of a rig or of a tip chain)
	SPRING_ELEMENT_SEGMENT,        ///< a segment of an angle chain
	SPRING_ELEMENT_COLLIDER,       ///< a collider of a tip chain
	SPRING_ELEMENT_CLIP,           ///< a clip of a rig
	SPRING_ELEMENT_TRACK,          ///< a track of a clip
	SPRING_ELEMENT_KEY,            ///< a key of a track
	SPRING_ELEMENT_EVENT,          ///< an event of a clip
	SPRING_ELEMENT_IK,             ///< an IK constraint of a rig
	SPRING_ELEMENT_CHAIN,          ///< a spring chain of a rig
	SPRING_ELEMENT_NODE,           ///< a node of a spring skeleton
	SPRING_ELEMENT_SPRING,         ///< a spring of a spring skeleton
	SPRING_ELEMENT_JOINT,          ///< a joint of a spring
	SPRING_ELEMENT_COLLIDER_GROUP, ///< a collider group of a spring skeleton
	SPRING_ELEMENT_COUNT
} spring_element;

/// One step of an error location: an element and its index in its list.
typedef struct spring_error_step {
	spring_element element;
	int index;
} spring_error_step;

#define SPRING_ERROR_MAX_DEPTH 4

/// Details of a rejected definition or call (chains, rigs): where the fault is, as a path a
/// program reads without parsing prose, and a sentence for people. For a rig whose second
/// chain has a bad collider radius: `path` = {chain 1, collider 2}, `depth` 2, `field` "radius".
typedef struct spring_error {
	spring_result result;                           ///< the code also returned by the call
	char object[16];                                ///< the object refusing it: "chain", "chain2d", "rig"
	int depth;                                      ///< number of steps in `path`; 0 when the fault is
	                                                ///< the description as a whole
	spring_error_step path[SPRING_ERROR_MAX_DEPTH]; ///< outermost first
	char field[32];                                 ///< the offending field of the innermost element,
	                                                ///< as named in the description struct ("length");
	                                                ///< empty when the element as a whole is at fault
	spring_error_step other;                        ///< another element of the same list the fault is
	                                                ///< about (the first of two duplicates, a parent
	                                                ///< listed too late); element NONE when none
	char message[200];                              ///< a full sentence: the location ("chain 1:
	                                                ///< collider 2: ", or "rig: " for the whole),
	                                                ///< the field and the reason
} spring_error;

/// The innermost element of an error's location (`SPRING_ELEMENT_NONE`, index -1 when depth is 0).
SPRING_API spring_error_step spring_error_innermost(const spring_error *error);
/// The message without its location prefix: the field and the reason ("radius must be >= 0").
/// Never NULL.
SPRING_API const char *spring_error_reason(const spring_error *error);
/// The lower-case English name of an element ("bone", "collider"...), "" for NONE.
SPRING_API const char *spring_element_name(spring_element element);

/// A sentence describing `r`, for logs and error messages. Never NULL.
SPRING_API const char *spring_result_string(spring_result r);

/// True when `x` is neither NaN nor infinite.
SPRING_API bool spring_is_finite(float x);

/// @name Snapshots
/// Every stateful object (spring_motion, spring_chain2d, spring_chain, their groups, spring_rig)
/// can be copied into a flat byte blob and restored from it, for replays, rollback netcode and
/// save states: `*_snapshot_size`, `*_snapshot(object, blob, size)`,
/// `*_restore(object, blob, size, error)`. A blob starts with a 32-byte header (the bytes "SPRS",
/// the format version, the kind of object, a reserved word 0, the shape: a hash of the counts and
/// settings the object's layout depends on, and the size) and holds the object's whole state, so
/// stepping a restored object reproduces the original run bit for bit.
///
/// Blobs may come from anywhere (the network, an old save file, a flipped bit): restore trusts
/// nothing in them. It refuses a blob whose header does not match the object (INVALID_ARGUMENT),
/// whose structure (counts, internal offsets, bone parents, anything set at creation) differs
/// from the object's own (INVALID_ARGUMENT), or which holds a value the object's setters would
/// refuse or its steps never produce: a NaN or infinity (NOT_FINITE), a number out of its range, a
/// derived value (a transition, a cached sine) that does not match the setting it comes from, a
/// bool other than 0 or 1, a count or index out of range (OUT_OF_RANGE or INVALID_ARGUMENT). A
/// refused restore changes nothing and fills `error` (optional) with the element and field at
/// fault ("segment 3: snapshot: velocity must be finite"). An accepted blob is a state the object
/// could have reached by its own calls' rules, so every later call keeps its promises (finite
/// outputs, bounded work). Blobs are plain bytes in the machine's byte order: save states move
/// between runs and builds of the same library, not between machines of another endianness.
/// @{
#define SPRING_SNAPSHOT_VERSION 3u ///< 3 since restore checks the whole body; older blobs are refused
#define SPRING_SNAPSHOT_HEADER_BYTES 32u
/// @}

/// "Did you mean": the index of the candidate closest to `given` by edit distance (insertions,
/// deletions, substitutions), when it is closer than 3 edits and than half its own length; -1
/// when none is. `count` candidates, or up to a NULL entry when `count` is negative. Names and
/// keys longer than 63 bytes are never suggested. Used for the library's own messages about
/// unknown bone names and by readers of description files for unknown keys.
SPRING_API int spring_closest_name(const char *given, const char *const *candidates, int count);

/// Allocator hooks used once at creation by the objects that allocate (chains, rigs).
/// `alloc` returns memory aligned to `alignment` (a power of two) or NULL.
typedef struct spring_allocator {
	void *(*alloc)(size_t size, size_t alignment, void *context);
	void (*free)(void *pointer, void *context);
	void *context;
} spring_allocator;

/// Replaces the process-wide default allocator (aligned malloc/free). Pass NULL to restore it.
SPRING_API void spring_set_allocator(const spring_allocator *allocator);
/// The allocator currently in force.
SPRING_API spring_allocator spring_get_allocator(void);

/// Assertion hook for debug builds: called with the expression, file and line before abort.
/// Return non-zero from the hook to abort, zero to continue.
typedef int spring_assert_fn(const char *condition, const char *file, int line);
/// Installs the assertion hook (NULL restores the default, which prints and aborts).
SPRING_API void spring_set_assert(spring_assert_fn *fn);
#if !defined(NDEBUG) || defined(SPRING_ENABLE_ASSERT)
/// Called by SPRING_ASSERT on failure (not for direct use): reports through the hook.
SPRING_API int spring_internal_assert(const char *condition, const char *file, int line);
#define SPRING_ASSERT(c) ((c) ? (void)0 : (void)spring_internal_assert(#c, __FILE__, __LINE__))
#else
#define SPRING_ASSERT(c) ((void)0)
#endif

/// @name Deterministic transcendental functions (double precision, the library's own).
/// Accurate to a few units in the last place of a double over their whole domain; results depend
/// only on IEEE-754 basic arithmetic, so they are bit-identical on every conforming platform.
/// Special values: NaN in gives NaN out; `spring_det_exp` saturates to 0 and +inf; trigonometric
/// functions of infinities give NaN. Callers in the library never pass non-finite values.
/// @{
SPRING_API double spring_det_exp(double x);
SPRING_API double spring_det_expm1(double x); ///< exp(x) - 1 without cancellation near 0
SPRING_API double spring_det_log(double x);   ///< natural log; x <= 0 gives -inf (0) or NaN (< 0)
SPRING_API double spring_det_log1p(double x); ///< log(1 + x) without cancellation near 0
SPRING_API double spring_det_sin(double x);
SPRING_API double spring_det_cos(double x);
SPRING_API void spring_det_sincos(double x, double *s, double *c);
SPRING_API double spring_det_atan2(double y, double x);
SPRING_API double spring_det_acos(double x); ///< x clamped to [-1, 1]
/// @}

/// 64-bit FNV-1a over bytes, for determinism goldens.
SPRING_API uint64_t spring_hash(uint64_t hash, const void *data, size_t size);
#define SPRING_HASH_INIT 14695981039346656037ull

#define SPRING_PI 3.14159265358979323846

#ifdef __cplusplus
}
#endif
#endif
