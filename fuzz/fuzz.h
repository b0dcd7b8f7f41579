// SPDX-License-Identifier: MIT
/// The pieces every fuzz target shares: a reader that turns the fuzzer's bytes into numbers,
/// counts and choices, and the checks of the library's promises (an error code in range, an
/// object unchanged by a refused call, finite outputs after an accepted one).
///
/// Numbers: each float costs one mode byte and four payload bytes. Mode 0 takes the payload as
/// raw IEEE-754 bits (any float, NaN and infinities included); mode 1 picks a value from a table
/// of edges (0, -0, the smallest and largest floats, infinities, NaN, 1/120 s...); the other modes
/// make a "reasonable" number in about +-100 or +-1e4, so that most inputs build valid objects and
/// the fuzzer reaches the code behind the validation. Past the end of the input every read is 0.
#ifndef SPRING_FUZZ_H
#define SPRING_FUZZ_H

#define _POSIX_C_SOURCE 200809L

#include <spring/spring.h>

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A broken promise: print where and why on the original standard error (the CLI target silences
/// `stderr`), then abort so that libFuzzer keeps the input.
#define FZ_CHECK(cond, ...)                                                             \
	do {                                                                                \
		if (!(cond)) {                                                                  \
			dprintf(2, "\nbroken promise at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
			dprintf(2, __VA_ARGS__);                                                    \
			dprintf(2, "\n");                                                           \
			abort();                                                                    \
		}                                                                               \
	} while (0)

/// With SPRING_FUZZ_TRACE set in the environment, the targets print each call they make and its
/// arguments (to replay a crash by hand: SPRING_FUZZ_TRACE=1 build/fuzz/fuzz_chain CRASH-FILE).
static inline bool fz_tracing(void)
{
	static int on = -1;
	if (on < 0) {
		on = getenv("SPRING_FUZZ_TRACE") != NULL;
	}
	return on != 0;
}
#define FZ_TRACE(...)                \
	do {                             \
		if (fz_tracing()) {          \
			dprintf(2, __VA_ARGS__); \
			dprintf(2, "\n");        \
		}                            \
	} while (0)

typedef struct fz_reader {
	const uint8_t *p;
	size_t n;
	char log[1024]; ///< with tracing: the numbers read since the last fz_log_take
	size_t logged;
} fz_reader;

static inline fz_reader fz_make(const uint8_t *data, size_t size)
{
	fz_reader r;
	r.p = data;
	r.n = size;
	r.log[0] = '\0';
	r.logged = 0;
	return r;
}

static inline void fz_log(fz_reader *r, const char *fmt, double v)
{
	if (fz_tracing() && r->logged < sizeof r->log - 32) {
		int n = snprintf(r->log + r->logged, sizeof r->log - r->logged, fmt, v);
		r->logged += n > 0 ? (size_t)n : 0;
	}
}

/// The numbers read since the last call, for a trace line; clears the log.
static inline const char *fz_log_take(fz_reader *r)
{
	static char taken[sizeof r->log];
	memcpy(taken, r->log, r->logged + 1);
	r->logged = 0;
	r->log[0] = '\0';
	return taken;
}

static inline uint8_t fz_u8(fz_reader *r)
{
	if (r->n == 0) {
		return 0;
	}
	r->n--;
	return *r->p++;
}

static inline uint32_t fz_u32(fz_reader *r)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		v |= (uint32_t)fz_u8(r) << (8 * i);
	}
	return v;
}

/// A count in [0, max], or (one time in 256) any int.
static inline int fz_count(fz_reader *r, int max)
{
	int count = fz_u8(r) == 0xff ? (int)fz_u32(r) : (int)(fz_u8(r) % (unsigned)(max + 1));
	fz_log(r, "%.0f ", count);
	return count;
}

static inline bool fz_bool(fz_reader *r)
{
	return (fz_u8(r) & 1) != 0;
}

/// An integer in [lo, hi].
static inline int fz_int(fz_reader *r, int lo, int hi)
{
	uint32_t span = (uint32_t)(hi - lo) + 1u;
	uint32_t v = span <= 256u ? fz_u8(r) : fz_u32(r);
	int result = lo + (int)(v % span);
	fz_log(r, "%.0f ", result);
	return result;
}

static inline float fz_bits(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

/// Any float, weighted towards edges and reasonable values (see the file comment).
static inline float fz_float(fz_reader *r)
{
	static const float edges[] = {0.0f,
	                              -0.0f,
	                              1.0f,
	                              -1.0f,
	                              0.5f,
	                              2.0f,
	                              0.3f,
	                              0.999999f,
	                              1.000001f,
	                              1.0f / 120.0f,
	                              1.0f / 60.0f,
	                              1.0f / 30.0f,
	                              (float)SPRING_PI,
	                              (float)(2.0 * SPRING_PI),
	                              -(float)SPRING_PI,
	                              20.0f,
	                              1e-3f,
	                              1e-6f,
	                              1e-20f,
	                              1e-38f,
	                              FLT_MIN,
	                              1.4e-45f,
	                              -1.4e-45f,
	                              1e6f,
	                              -1e6f,
	                              1e19f,
	                              1e30f,
	                              FLT_MAX,
	                              -FLT_MAX,
	                              INFINITY,
	                              -INFINITY,
	                              NAN,
	                              2000.0f,
	                              5000.0f,
	                              1000.0f,
	                              600.0f};
	uint8_t mode = fz_u8(r);
	uint32_t payload = fz_u32(r);
	float v;
	switch (mode % 8) {
	case 0: v = fz_bits(payload); break;
	case 1: v = edges[payload % (sizeof edges / sizeof edges[0])]; break;
	case 2:
	case 3:
	case 4: v = (float)(int16_t)(payload & 0xffffu) / 256.0f; break; // +-128 in steps of 1/256
	case 5: v = (float)(int32_t)payload / 65536.0f / 4.0f; break;    // +-8192, fine steps
	case 6: v = (float)(payload & 0xffffu) / 65536.0f; break;        // [0, 1)
	default: v = (float)(int16_t)(payload & 0xffffu) * 0.01f;        // +-327
	}
	fz_log(r, "%.9g ", v);
	return v;
}

static inline spring_vec2 fz_vec2(fz_reader *r)
{
	spring_vec2 v;
	v.x = fz_float(r);
	v.y = fz_float(r);
	return v;
}

static inline spring_vec3 fz_vec3(fz_reader *r)
{
	spring_vec3 v;
	v.x = fz_float(r);
	v.y = fz_float(r);
	v.z = fz_float(r);
	return v;
}

static inline spring_xform2 fz_xform2(fz_reader *r)
{
	spring_xform2 t;
	t.position = fz_vec2(r);
	t.angle = fz_float(r);
	t.scale = fz_vec2(r);
	return t;
}

static inline spring_quat fz_quat(fz_reader *r)
{
	spring_quat q;
	q.x = fz_float(r);
	q.y = fz_float(r);
	q.z = fz_float(r);
	q.w = fz_float(r);
	return q;
}

static inline spring_xform3 fz_xform3(fz_reader *r)
{
	spring_xform3 t;
	t.position = fz_vec3(r);
	t.rotation = fz_quat(r);
	return t;
}

/// Spring parameters: mostly a valid spring from a frequency and a damping ratio, sometimes zero
/// (the default), sometimes any three floats.
static inline spring_params fz_params(fz_reader *r)
{
	spring_params p = {0.0f, 0.0f, 0.0f};
	size_t logged = r->logged;
	uint8_t mode = fz_u8(r);
	float a = fz_float(r), b = fz_float(r), c = fz_float(r);
	switch (mode % 4) {
	case 0: break;
	case 1: p = (spring_params){a, b, c}; break;
	default:
		if (spring_params_from_frequency(fabsf(a), fabsf(b), &p) != SPRING_OK) {
			p = (spring_params){0.0f, 0.0f, 0.0f};
		}
	}
	r->logged = logged; // the params, not the numbers they were made from
	r->log[logged] = '\0';
	fz_log(r, "{k %.9g ", p.stiffness);
	fz_log(r, "c %.9g ", p.damping);
	fz_log(r, "m %.9g} ", p.mass);
	return p;
}

/// A frame time: usually a plausible one (0 to 0.1 s), sometimes any float.
static inline float fz_dt(fz_reader *r)
{
	uint8_t mode = fz_u8(r);
	if (mode % 4 == 0) {
		return fz_float(r);
	}
	float dt = (float)fz_u8(r) / 2550.0f;
	fz_log(r, "%.9g ", dt);
	return dt;
}

/// Every float in `count` floats at `p` is finite.
static inline bool fz_all_finite(const void *p, size_t count)
{
	const float *f = (const float *)p;
	for (size_t i = 0; i < count; i++) {
		if (!spring_is_finite(f[i])) {
			return false;
		}
	}
	return true;
}
#define FZ_FLOATS(x) (sizeof(x) / sizeof(float))

/// A result is a code the library defines.
#define FZ_CHECK_RESULT(r, what) FZ_CHECK((int)(r) >= 0 && (int)(r) < SPRING_RESULT_COUNT, "%s returned %d", what, (int)(r))

/// A refused call changed nothing: `size` bytes at `now` equal the copy taken before the call.
#define FZ_CHECK_UNCHANGED(before, now, size, what, r) \
	FZ_CHECK(memcmp((before), (now), (size)) == 0, "%s returned %s but changed its object", what, spring_result_string(r))

/// An error report filled by a refused definition is consistent with the result.
static inline void fz_check_error(const spring_error *e, spring_result r, const char *what)
{
	FZ_CHECK(e->result == r, "%s: error.result %d, returned %d", what, (int)e->result, (int)r);
	FZ_CHECK(e->depth >= 0 && e->depth <= SPRING_ERROR_MAX_DEPTH, "%s: error.depth %d", what, e->depth);
	FZ_CHECK(memchr(e->message, '\0', sizeof e->message) != NULL && e->message[0] != '\0', "%s: error.message empty", what);
	FZ_CHECK(memchr(e->field, '\0', sizeof e->field) != NULL, "%s: error.field unterminated", what);
	FZ_CHECK(memchr(e->object, '\0', sizeof e->object) != NULL, "%s: error.object unterminated", what);
}

/// One fuzzed call on an object: reads its arguments from `r` and names itself in `*name`.
typedef spring_result fz_call_fn(fz_reader *r, void *object, int op, const char **name);
/// Checks an object's outputs after an accepted call `what`.
typedef void fz_check_fn(const void *object, const char *what);

/// Makes call `op` on the `bytes`-byte object and checks the general promise: a defined code; the
/// object byte for byte unchanged when the call is refused or is a query (bit `op` of
/// `query_ops`); its outputs `check`ed when accepted. `before` holds `bytes` bytes.
static inline void fz_checked_call(fz_reader *r, void *object, size_t bytes, void *before, int op, unsigned query_ops,
                                   fz_call_fn *call, fz_check_fn *check)
{
	fz_log_take(r);
	memcpy(before, object, bytes);
	const char *name = "";
	spring_result res = call(r, object, op, &name);
	FZ_TRACE("%s(%s) -> %s", name, fz_log_take(r), spring_result_string(res));
	FZ_CHECK_RESULT(res, name);
	if (res != SPRING_OK || (query_ops >> op & 1u) != 0) {
		FZ_CHECK_UNCHANGED(before, object, bytes, name, res);
	}
	if (res == SPRING_OK) {
		check(object, name);
	}
}

/// Memory for an object of `size` bytes, 16-byte aligned, reused between inputs; NULL when the
/// request is unreasonably large (which the caller treats as "skip").
static inline void *fz_block(size_t size)
{
	static void *block;
	static size_t capacity;
	if (size > ((size_t)64 << 20)) {
		return NULL;
	}
	if (size > capacity) {
		free(block);
		capacity = (size + 4095u) & ~(size_t)4095u;
		block = aligned_alloc(16, capacity);
		if (!block) {
			capacity = 0;
			return NULL;
		}
	}
	return block;
}

/// A second block, for the copy taken before each call.
static inline void *fz_copy_block(size_t size)
{
	static void *block;
	static size_t capacity;
	if (size > capacity) {
		free(block);
		capacity = (size + 4095u) & ~(size_t)4095u;
		block = malloc(capacity);
		if (!block) {
			capacity = 0;
			return NULL;
		}
	}
	return block;
}

/// Creates an object in caller memory: `init` is the library's init for `desc` (its *out set to
/// the sentinel 0x1 before the call and copied to `*out`).
typedef spring_result fz_init_fn(const void *desc, void *memory, size_t size, void **out, spring_error *error);

/// The life of a chain-like object: its memory size (`bytes`, 0 allowed), `init` into a block
/// poisoned with 0xa5 (a refused init writes no *out and fills a consistent error), its outputs
/// checked, then up to 48 fuzzed calls, `op` read in [0, op_max] and every op above `call_max`
/// a frame (op 0, the most common call).
static inline void fz_drive(fz_reader *r, const char *what, const void *desc, size_t bytes, fz_init_fn *init, fz_call_fn *call,
                            fz_check_fn *check, int op_max, int call_max)
{
	FZ_TRACE("description: %s", fz_log_take(r));
	const size_t size = bytes ? bytes : 256;
	void *memory = fz_block(size);
	if (!memory) {
		return;
	}
	memset(memory, 0xa5, size);
	void *object = (void *)(uintptr_t)0x1;
	spring_error error;
	memset(&error, 0, sizeof error);
	spring_result res = init(desc, memory, size, &object, &error);
	FZ_TRACE("%s: %zu bytes -> %s", what, bytes, spring_result_string(res));
	FZ_CHECK_RESULT(res, what);
	if (res != SPRING_OK) {
		FZ_CHECK(object == (void *)(uintptr_t)0x1, "a refused %s wrote *out", what);
		fz_check_error(&error, res, what);
		return;
	}
	FZ_CHECK(bytes > 0, "the memory size was 0 for a description %s accepts", what);
	check(object, what);
	void *before = fz_copy_block(bytes);
	if (!before) {
		return;
	}
	int ops = fz_int(r, 1, 48);
	for (int i = 0; i < ops && r->n > 0; i++) {
		int op = fz_int(r, 0, op_max);
		fz_checked_call(r, object, bytes, before, op > call_max ? 0 : op, 0, call, check);
	}
}

#endif
