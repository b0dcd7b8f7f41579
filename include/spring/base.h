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

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SPRING_SHARED) && defined(_WIN32)
#  if defined(SPRING_BUILDING)
#    define SPRING_API __declspec(dllexport)
#  else
#    define SPRING_API __declspec(dllimport)
#  endif
#elif defined(SPRING_BUILDING) && defined(__GNUC__)
#  define SPRING_API __attribute__((visibility("default")))
#else
#  define SPRING_API
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
	SPRING_RESULT_COUNT
} spring_result;

/// Details of a rejected definition (chains, rigs): which element and which field, and why.
typedef struct spring_error {
	spring_result result; ///< the code also returned by the call
	char kind[16];        ///< what `index` counts: "bone", "segment", "collider", "clip", "ik",
	                      ///< "chain", or the object itself ("chain", "chain2d", "rig") when
	                      ///< index is -1
	int index;            ///< bone, segment or collider index; -1 when the error is not about one
	char field[32];       ///< the offending field's name, e.g. "length"; empty when none
	char message[160];    ///< a full sentence naming the element, the field and the reason; it
	                      ///< starts with the kind and index ("bone 3: ", "collider 0: ") or with
	                      ///< the object ("chain: ", "rig: ") when no element is at fault
} spring_error;

/// A sentence describing `r`, for logs and error messages. Never NULL.
SPRING_API const char *spring_result_string(spring_result r);

/// True when `x` is neither NaN nor infinite.
SPRING_API int spring_is_finite(float x);

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
SPRING_API void spring_set_assert(spring_assert_fn *fn);
#if !defined(NDEBUG) || defined(SPRING_ENABLE_ASSERT)
SPRING_API int spring_internal_assert(const char *condition, const char *file, int line);
#  define SPRING_ASSERT(c) ((c) ? (void)0 : (void)spring_internal_assert(#c, __FILE__, __LINE__))
#else
#  define SPRING_ASSERT(c) ((void)0)
#endif

/// @name Deterministic transcendental functions (double precision, the library's own).
/// Accurate to a few units in the last place of a double over their whole domain; results depend
/// only on IEEE-754 basic arithmetic, so they are bit-identical on every conforming platform.
/// Special values: NaN in gives NaN out; `spring_det_exp` saturates to 0 and +inf; trigonometric
/// functions of infinities give NaN. Callers in the library never pass non-finite values.
/// @{
SPRING_API double spring_det_exp(double x);
SPRING_API double spring_det_expm1(double x);  ///< exp(x) - 1 without cancellation near 0
SPRING_API double spring_det_log(double x);    ///< natural log; x <= 0 gives -inf (0) or NaN (< 0)
SPRING_API double spring_det_log1p(double x);  ///< log(1 + x) without cancellation near 0
SPRING_API double spring_det_sin(double x);
SPRING_API double spring_det_cos(double x);
SPRING_API void spring_det_sincos(double x, double *s, double *c);
SPRING_API double spring_det_atan2(double y, double x);
SPRING_API double spring_det_acos(double x);   ///< x clamped to [-1, 1]
/// @}

/// 64-bit FNV-1a over bytes, for determinism goldens.
SPRING_API uint64_t spring_hash(uint64_t hash, const void *data, size_t size);
#define SPRING_HASH_INIT 14695981039346656037ull

#define SPRING_PI 3.14159265358979323846

#ifdef __cplusplus
}
#endif
#endif
