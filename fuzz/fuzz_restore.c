// SPDX-License-Identifier: MIT
// fuzz_restore: snapshot restore from untrusted blobs (base.h, "Snapshots"), for every kind of
// object: a motion, an angle chain, an angle group, a tip chain (3D and 2D mode), a tip-chain
// group, a spring-skeleton crowd and a rig with both chain kinds: the snapshot tests' objects (tests/shared/
// snapshot_kinds.c). Each is made once, run into a mid-run state and its genuine blob kept. An
// input picks a kind and either mutates the genuine blob (bit flips, bytes, words, floats: edge
// values, NaN, huge numbers, at fuzzed offsets) or gives the whole body itself behind the genuine
// header; then restores it. The promise: refused with a
// defined error and a filled spring_error, and the object unchanged (a fresh snapshot byte for
// byte the one before); or accepted, and then every later update, pose and state read returns OK
// with finite values, and the genuine blob still restores (nothing got stuck).
#include "fuzz.h"

#include "snapshot_kinds.h"

enum { KIND_COUNT = 8 };
static snapshot_kind g_kinds[KIND_COUNT];
static unsigned char *g_blobs[KIND_COUNT]; // each kind's genuine blob
static size_t g_blob_sizes[KIND_COUNT];

// Drives k's object `frames` frames; every output must be finite and every call keep its promise.
static void drive(const snapshot_kind *k, int frames, const char *what)
{
	const char *broken = k->drive(k->object, frames);
	FZ_CHECK(broken == NULL, "%s (%s): %s", k->name, what, broken);
}

static void setup(void)
{
	static bool done;
	if (done) {
		return;
	}
	done = true;
	const snapshot_kind kinds[KIND_COUNT] = {snapshot_kind_motion(20),           snapshot_kind_chain2d(5, 20),
	                                         snapshot_kind_group2d(3, 4, 0, 20), snapshot_kind_chain(8, false, 20),
	                                         snapshot_kind_chain(4, true, 20),   snapshot_kind_group(3, 3, 20),
	                                         snapshot_kind_skeleton_crowd(20),   snapshot_kind_rig(20)};
	for (int k = 0; k < KIND_COUNT; k++) {
		g_kinds[k] = kinds[k];
		FZ_CHECK(g_kinds[k].object != NULL, "%s: not made", kinds[k].name);
		g_blob_sizes[k] = g_kinds[k].size(g_kinds[k].object);
		g_blobs[k] = malloc(g_blob_sizes[k]);
		FZ_CHECK(g_blobs[k] && g_kinds[k].snapshot(g_kinds[k].object, g_blobs[k], g_blob_sizes[k]) == SPRING_OK,
		         "%s: no genuine blob", kinds[k].name);
	}
}

// One mutation of the blob: at a fuzzed offset of the body, a bit flipped, a byte or a 32-bit word
// set, or a float written (any value fz_float makes: raw bits, edges, NaN, infinities, ordinary).
static void mutate(fz_reader *r, unsigned char *blob, size_t size)
{
	const size_t body = size - SPRING_SNAPSHOT_HEADER_BYTES;
	const size_t at = SPRING_SNAPSHOT_HEADER_BYTES + (size_t)fz_u32(r) % body;
	switch (fz_u8(r) % 4) {
	case 0: blob[at] ^= (unsigned char)(1u << (fz_u8(r) % 8)); break;
	case 1: blob[at] = fz_u8(r); break;
	case 2:
	case 3: {
		const size_t word = at & ~(size_t)3u; // the fields are 4-byte aligned in the body
		if (word + 4u <= size) {
			uint32_t v;
			if (fz_u8(r) % 2) {
				float f = fz_float(r);
				memcpy(&v, &f, sizeof v);
			} else {
				v = fz_u32(r);
			}
			memcpy(blob + word, &v, sizeof v);
		}
		break;
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	fz_reader r = fz_make(data, size);
	const int which = fz_u8(&r) % KIND_COUNT;
	const snapshot_kind *k = &g_kinds[which];
	const unsigned char *genuine = g_blobs[which];
	const size_t genuine_size = g_blob_sizes[which];
	const uint8_t mode = fz_u8(&r);
	unsigned char *blob = malloc(genuine_size), *before = malloc(genuine_size), *after = malloc(genuine_size);
	FZ_CHECK(blob && before && after, "no memory");
	// Back to the genuine state (the last input may have left an accepted one).
	spring_error e;
	spring_result res = k->restore(k->object, genuine, genuine_size, &e);
	FZ_CHECK(res == SPRING_OK, "%s: the genuine blob is refused: %s", k->name, e.message);
	memcpy(blob, genuine, genuine_size);
	size_t blob_size = genuine_size;
	if (mode % 4 == 0) {
		// The body from the input (zeros past its end), behind the genuine header.
		const size_t body = genuine_size - SPRING_SNAPSHOT_HEADER_BYTES;
		const size_t n = r.n < body ? r.n : body;
		memset(blob + SPRING_SNAPSHOT_HEADER_BYTES, 0, body);
		memcpy(blob + SPRING_SNAPSHOT_HEADER_BYTES, r.p, n);
		FZ_TRACE("%s: a body of %zu input bytes", k->name, n);
	} else if (mode % 4 == 1) {
		// The whole blob from the input: any header, any size.
		blob_size = r.n < genuine_size ? r.n : genuine_size;
		memcpy(blob, r.p, blob_size);
		FZ_TRACE("%s: a blob of %zu input bytes", k->name, blob_size);
	} else {
		const int mutations = fz_int(&r, 1, 16);
		for (int m = 0; m < mutations; m++) {
			mutate(&r, blob, genuine_size);
		}
		FZ_TRACE("%s: %d mutations: %s", k->name, mutations, fz_log_take(&r));
	}
	FZ_CHECK(k->snapshot(k->object, before, genuine_size) == SPRING_OK, "%s: snapshot refused", k->name);
	memset(&e, 0, sizeof e);
	res = k->restore(k->object, blob, blob_size, &e);
	FZ_CHECK_RESULT(res, "restore");
	FZ_TRACE("%s: restore: %s %s", k->name, spring_result_string(res), res == SPRING_OK ? "" : e.message);
	if (res != SPRING_OK) {
		FZ_CHECK(e.result == res && e.message[0] != '\0', "%s: a refused restore gave no error report", k->name);
		FZ_CHECK(k->snapshot(k->object, after, genuine_size) == SPRING_OK, "%s: snapshot refused", k->name);
		FZ_CHECK_UNCHANGED(before, after, genuine_size, k->name, res);
	} else {
		drive(k, 6, "after an accepted restore");
	}
	free(blob);
	free(before);
	free(after);
	return 0;
}
