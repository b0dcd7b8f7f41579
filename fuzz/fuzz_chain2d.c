// SPDX-License-Identifier: MIT
// Fuzz target: spring_chain2d (angle springs). A fuzzed description is sized with
// spring_chain2d_memory_size and initialised into this target's own memory, then a fuzzed
// sequence of calls runs on it: frames with roots and frame times, resets, teleports,
// translations, rotations, animation, parameter, limit and force changes.
// Promises checked:
//  - memory_size is 0 exactly for descriptions init refuses; a refused init names the fault in
//    `error` and leaves `*out` untouched;
//  - every call returns a defined code; a refused call leaves the chain's block byte for byte as
//    it was (the block holds no pointers into itself, so it is compared with memcmp);
//  - after every accepted call the joints, local angles, per-segment states and targets are
//    finite and the clock's alpha is in [0, 1).
#include "fuzz.h"

#include <spring/chain.h>

#define MAX_SEGMENTS 12

static void check_outputs(const void *object, const char *what)
{
	const spring_chain2d *chain = object;
	static spring_xform2 joints[MAX_SEGMENTS + 1];
	static float local[MAX_SEGMENTS + 1];
	int n = spring_chain2d_segment_count(chain);
	FZ_CHECK(n >= 1 && n <= MAX_SEGMENTS, "%s: segment count %d", what, n);
	FZ_CHECK(spring_chain2d_get_pose(chain, joints, local, MAX_SEGMENTS + 1) == SPRING_OK, "%s: get_pose refused", what);
	for (int i = 0; i <= n; i++) {
		FZ_CHECK(fz_all_finite(&joints[i], FZ_FLOATS(joints[i])), "%s returned OK but joint %d is not finite", what, i);
	}
	for (int i = 0; i < n; i++) {
		FZ_CHECK(spring_is_finite(local[i]), "%s returned OK but segment %d's local angle is not finite", what, i);
		spring_state s;
		FZ_CHECK(spring_chain2d_get_state(chain, i, &s) == SPRING_OK, "%s: get_state refused", what);
		FZ_CHECK(fz_all_finite(&s, FZ_FLOATS(s)), "%s returned OK but segment %d's state is not finite", what, i);
		FZ_CHECK(spring_is_finite(spring_chain2d_get_target(chain, i)), "%s returned OK but segment %d's target is not finite",
		         what, i);
	}
	const spring_clock *c = spring_chain2d_clock(chain);
	FZ_CHECK(c && c->alpha >= 0.0f && c->alpha < 1.0f, "%s: clock alpha out of [0, 1)", what);
}

static spring_result call(fz_reader *r, void *object, int op, const char **name)
{
	spring_chain2d *chain = object;
	static float anim[MAX_SEGMENTS];
	int segments = spring_chain2d_segment_count(chain);
	switch (op) {
	case 0: *name = "spring_chain2d_update"; return spring_chain2d_update(chain, fz_xform2(r), fz_dt(r));
	case 1: *name = "spring_chain2d_reset"; return spring_chain2d_reset(chain, fz_xform2(r));
	case 2: *name = "spring_chain2d_teleport"; return spring_chain2d_teleport(chain, fz_xform2(r));
	case 3: *name = "spring_chain2d_translate"; return spring_chain2d_translate(chain, fz_vec2(r));
	case 4: {
		*name = "spring_chain2d_rotate";
		float angle = fz_float(r);
		return spring_chain2d_rotate(chain, angle, fz_vec2(r));
	}
	case 5: {
		*name = "spring_chain2d_set_animation";
		int count = fz_bool(r) ? segments : fz_count(r, MAX_SEGMENTS);
		if (fz_u8(r) % 4 == 0) {
			return spring_chain2d_set_animation(chain, NULL, count);
		}
		for (int i = 0; i < MAX_SEGMENTS; i++) {
			anim[i] = fz_float(r);
		}
		return spring_chain2d_set_animation(chain, anim, count > MAX_SEGMENTS ? MAX_SEGMENTS : count);
	}
	case 6: {
		*name = "spring_chain2d_set_params";
		int segment = fz_int(r, -1, segments);
		return spring_chain2d_set_params(chain, segment, fz_params(r));
	}
	case 7: {
		*name = "spring_chain2d_set_limit";
		int segment = fz_int(r, -1, segments);
		return spring_chain2d_set_limit(chain, segment, fz_float(r));
	}
	default: {
		*name = "spring_chain2d_set_forces";
		spring_vec2 g = fz_vec2(r);
		return spring_chain2d_set_forces(chain, g, fz_vec2(r));
	}
	}
}

// spring_chain2d_init for fz_drive.
static spring_result init(const void *desc, void *memory, size_t size, void **out, spring_error *error)
{
	spring_chain2d *object = (spring_chain2d *)*out;
	spring_result r = spring_chain2d_init((const spring_chain2d_desc *)desc, memory, size, &object, error);
	*out = object;
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static spring_chain2d_segment segments[MAX_SEGMENTS];
	fz_reader r = fz_make(data, size);

	spring_chain2d_desc d;
	memset(&d, 0, sizeof d);
	d.segment_count = fz_count(&r, MAX_SEGMENTS);
	int described = d.segment_count < 0 ? 0 : d.segment_count > MAX_SEGMENTS ? MAX_SEGMENTS : d.segment_count;
	for (int i = 0; i < described; i++) {
		spring_chain2d_segment *s = &segments[i];
		memset(s, 0, sizeof *s);
		uint8_t fuzzed = fz_u8(&r); // which fields are fuzzed; the others are a plain 20-unit segment
		s->length = fuzzed & 1 ? fz_float(&r) : 20.0f;
		if (fuzzed & 2) {
			s->rest_angle = fz_float(&r);
		}
		if (fuzzed & 4) {
			s->params = fz_params(&r);
		}
		if (fuzzed & 8) {
			s->limit = fz_float(&r);
		}
	}
	d.segments = d.segment_count > MAX_SEGMENTS ? NULL : segments;
	uint8_t fuzzed = fz_u8(&r);
	if (fuzzed & 1) {
		d.params = fz_params(&r);
	}
	if (fuzzed & 2) {
		d.tip_params = fz_params(&r);
	}
	if (fuzzed & 4) {
		d.gravity = fz_vec2(&r);
		d.wind = fz_vec2(&r);
	}
	if (fuzzed & 16) {
		d.step = fz_float(&r);
		d.max_steps = fz_count(&r, 16);
	}
	if (fuzzed & 32) {
		d.root = fz_xform2(&r);
	}
	d.integrator = (spring_integrator)fz_int(&r, 0, fuzzed & 128 ? 2 : 1);

	fz_drive(&r, "spring_chain2d_init", &d, spring_chain2d_memory_size(&d), init, call, check_outputs, 12,
	         8); // frames most often
	return 0;
}
