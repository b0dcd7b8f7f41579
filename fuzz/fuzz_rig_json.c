// SPDX-License-Identifier: MIT
// Fuzz target: the rig reader (tools/io, spring_rig_load_json_ex) followed by stepping the rig.
// The input is a JSON document, optionally followed by a NUL byte and the bytes of a call
// sequence (frames, clips, roots, IK targets and mixes, chain mixes, time scale, pause,
// teleports, resets, clip sampling); a document alone is stepped eight frames of about 1/75 s.
// Promises checked:
//  - the reader returns a defined code; on error `*out` is untouched, nothing stays allocated
//    and the message is a non-empty string;
//  - on success the rig is the one block made through libspring's allocator hooks; every call on
//    it returns a defined code, a refused call leaves the block byte for byte as it was, a
//    sampled clip changes nothing;
//  - after every accepted call the world, local, stepped and base poses are finite, the events
//    fit their count and the clip time is finite; destroying the rig frees its block.
#include "fuzz.h"

#include <spring/io.h>

#define MAX_BONES SPRING_RIG_MAX_BONES

// libspring's allocator hooks, recording the live block (the rig is the only one).
static int live_blocks;
static void *last_block;
static size_t last_size;

static void *fuzz_alloc(size_t size, size_t alignment, void *context)
{
	(void)context;
	void *p = aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
	if (p) {
		live_blocks++;
		last_block = p;
		last_size = size;
	}
	return p;
}

static void fuzz_free(void *pointer, void *context)
{
	(void)context;
	if (pointer) {
		live_blocks--;
	}
	free(pointer);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	spring_set_allocator(&(spring_allocator){fuzz_alloc, fuzz_free, NULL});
	return 0;
}

static void check_pose(const spring_rig *rig, spring_result (*get)(const spring_rig *, spring_xform2 *, int), const char *pose,
                       const char *what)
{
	static spring_xform2 xf[MAX_BONES];
	int n = spring_rig_bone_count(rig);
	FZ_CHECK(get(rig, xf, MAX_BONES) == SPRING_OK, "%s: reading the %s pose failed", what, pose);
	for (int i = 0; i < n; i++) {
		FZ_CHECK(fz_all_finite(&xf[i], FZ_FLOATS(xf[i])), "%s returned OK but bone %d (%s) has a non-finite %s transform", what,
		         i, spring_rig_bone_name(rig, i), pose);
	}
}

static void check_outputs(const void *object, const char *what)
{
	const spring_rig *rig = object;
	check_pose(rig, spring_rig_get_world, "world", what);
	check_pose(rig, spring_rig_get_local, "local", what);
	check_pose(rig, spring_rig_get_stepped_world, "stepped world", what);
	check_pose(rig, spring_rig_get_stepped_local, "stepped local", what);
	check_pose(rig, spring_rig_get_base_world, "base world", what);
	spring_rig_event events[4];
	int total = -1, n = spring_rig_get_events(rig, events, 4, &total);
	FZ_CHECK(n >= 0 && n <= 4 && total >= n, "%s: %d events written, %d in all", what, n, total);
	FZ_CHECK(spring_is_finite(spring_rig_time(rig)), "%s: clip time %a", what, spring_rig_time(rig));
}

static spring_result call(fz_reader *r, void *object, int op, const char **name)
{
	spring_rig *rig = object;
	switch (op) {
	case 1: {
		*name = "spring_rig_play";
		int clip = fz_int(r, -2, spring_rig_clip_count(rig));
		return spring_rig_play(rig, clip, fz_float(r));
	}
	case 2: *name = "spring_rig_set_root"; return spring_rig_set_root(rig, fz_xform2(r));
	case 3: {
		*name = "spring_rig_set_ik_target";
		int ik = fz_int(r, -1, spring_rig_ik_count(rig));
		return spring_rig_set_ik_target(rig, ik, fz_vec2(r));
	}
	case 4: {
		*name = "spring_rig_set_ik_mix";
		int ik = fz_int(r, -1, spring_rig_ik_count(rig));
		return spring_rig_set_ik_mix(rig, ik, fz_float(r));
	}
	case 5: {
		*name = "spring_rig_set_chain_mix";
		int chain = fz_int(r, -1, spring_rig_chain_count(rig));
		return spring_rig_set_chain_mix(rig, chain, fz_float(r));
	}
	case 6: *name = "spring_rig_set_time_scale"; return spring_rig_set_time_scale(rig, fz_float(r));
	case 7: *name = "spring_rig_set_paused"; return spring_rig_set_paused(rig, fz_bool(r));
	case 8: *name = "spring_rig_teleport"; return spring_rig_teleport(rig, fz_xform2(r));
	case 9: *name = "spring_rig_reset"; return spring_rig_reset(rig);
	case 10: {
		*name = "spring_rig_sample_clip";
		static spring_xform2 local[MAX_BONES];
		int clip = fz_int(r, -2, spring_rig_clip_count(rig));
		float time = fz_float(r);
		int capacity = fz_bool(r) ? MAX_BONES : fz_int(r, 0, MAX_BONES);
		spring_result res = spring_rig_sample_clip(rig, clip, time, local, capacity);
		for (int i = 0; res == SPRING_OK && i < spring_rig_bone_count(rig); i++) {
			FZ_CHECK(fz_all_finite(&local[i], FZ_FLOATS(local[i])), "sample_clip(%d, %a): bone %d not finite", clip, time, i);
		}
		return res;
	}
	default: *name = "spring_rig_update"; return spring_rig_update(rig, fz_dt(r));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text = nul ? (size_t)(nul - data) : size;
	fz_reader r = nul ? fz_make(nul + 1, size - text - 1) : fz_make(NULL, 0);

	spring_rig *rig = (spring_rig *)(uintptr_t)0x1;
	static spring_file_error error;
	static spring_rig_file_info info;
	memset(&error, 0, sizeof error);
	last_block = NULL;
	spring_result res = spring_rig_load_json_ex((const char *)data, text, "fuzz.json", &rig, &info, &error);
	FZ_CHECK_RESULT(res, "spring_rig_load_json_ex");
	if (res != SPRING_OK) {
		FZ_CHECK(rig == (spring_rig *)(uintptr_t)0x1, "a refused load wrote *out");
		FZ_CHECK(live_blocks == 0, "a refused load left %d blocks allocated", live_blocks);
		FZ_CHECK(memchr(error.message, '\0', sizeof error.message) && error.message[0] != '\0', "a refused load gave no message");
		FZ_CHECK(error.line >= 0 && error.column >= 0, "error at line %d column %d", error.line, error.column);
		return 0;
	}
	FZ_CHECK(rig == last_block && live_blocks == 1, "the rig is not the one block made through the hooks");
	size_t bytes = last_size;
	FZ_CHECK(spring_rig_bone_count(rig) == info.bone_count && spring_rig_clip_count(rig) == info.clip_count &&
	             spring_rig_ik_count(rig) == info.ik_count && spring_rig_chain_count(rig) == info.chain_count,
	         "the file info disagrees with the rig");
	check_outputs(rig, "spring_rig_load_json_ex");

	void *before = fz_copy_block(bytes);
	if (before) {
		int ops = nul ? fz_int(&r, 1, 48) : 8;
		for (int i = 0; i < ops; i++) {
			if (!nul) {
				r = fz_make((const uint8_t *)"\x01\x22", 2); // the default: a frame of 34/2550 s (about 1/75 s)
			}
			int op = nul ? fz_int(&r, 0, 15) : 0;
			fz_checked_call(&r, rig, bytes, before, op, 1u << 10, call, check_outputs); // 10: sample_clip
		}
	}
	spring_rig_destroy(rig);
	FZ_CHECK(live_blocks == 0, "spring_rig_destroy left %d blocks allocated", live_blocks);
	return 0;
}
