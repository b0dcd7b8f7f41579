// SPDX-License-Identifier: MIT
// Fuzz target: spring_chain (tip springs, 3D and 2D mode). A fuzzed description is sized with
// spring_chain_memory_size and initialised into this target's own memory, then a fuzzed sequence
// of calls runs on it: frames with roots and frame times, update_many, resets, teleports,
// translations, rotations, animation, parameter, cone-limit, force and collider changes.
// Promises checked:
//  - memory_size is 0 exactly for descriptions init refuses; a refused init names the fault in
//    `error` and leaves `*out` untouched;
//  - every call returns a defined code; a refused call leaves the chain's block byte for byte as
//    it was (the block holds no pointers into itself, so it is compared with memcmp);
//  - after every accepted call the interpolated and stepped poses, the tips, the per-bone states
//    and targets are finite and the clock's alpha is in [0, 1).
#include "fuzz.h"

#include <spring/chain.h>

#define MAX_BONES 12
#define MAX_COLLIDERS 6

static spring_chain_collider fz_collider(fz_reader *r)
{
	spring_chain_collider k;
	k.type = (spring_chain_collider_type)fz_int(r, 0, SPRING_CHAIN_COLLIDER_COUNT); // COUNT: an invalid type
	k.a = fz_vec3(r);
	k.b = fz_vec3(r);
	k.radius = fz_float(r);
	return k;
}

static void check_outputs(const void *object, const char *what)
{
	const spring_chain *chain = object;
	static spring_xform3 bones[MAX_BONES];
	static spring_vec3 tips[MAX_BONES];
	int n = spring_chain_bone_count(chain);
	FZ_CHECK(n >= 1 && n <= MAX_BONES, "%s: bone count %d", what, n);
	FZ_CHECK(spring_chain_get_pose(chain, bones, tips, MAX_BONES) == SPRING_OK, "%s: get_pose refused", what);
	for (int i = 0; i < n; i++) {
		FZ_CHECK(fz_all_finite(&bones[i], FZ_FLOATS(bones[i])) && fz_all_finite(&tips[i], 3),
		         "%s returned OK but bone %d's interpolated pose is not finite", what, i);
	}
	FZ_CHECK(spring_chain_get_stepped_pose(chain, bones, tips, MAX_BONES) == SPRING_OK, "%s: get_stepped_pose refused", what);
	for (int i = 0; i < n; i++) {
		FZ_CHECK(fz_all_finite(&bones[i], FZ_FLOATS(bones[i])) && fz_all_finite(&tips[i], 3),
		         "%s returned OK but bone %d's stepped pose is not finite", what, i);
		spring_state_vec3 s;
		FZ_CHECK(spring_chain_get_state(chain, i, &s) == SPRING_OK, "%s: get_state refused", what);
		FZ_CHECK(fz_all_finite(&s, FZ_FLOATS(s)), "%s returned OK but bone %d's tip state is not finite", what, i);
		spring_vec3 target = spring_chain_get_target(chain, i);
		FZ_CHECK(spring_vec3_is_finite(target), "%s returned OK but bone %d's target is not finite", what, i);
	}
	const spring_clock *c = spring_chain_clock(chain);
	FZ_CHECK(c && c->alpha >= 0.0f && c->alpha < 1.0f, "%s: clock alpha out of [0, 1)", what);
}

static spring_result call(fz_reader *r, void *object, int op, const char **name)
{
	spring_chain *chain = object;
	static spring_xform3 anim[MAX_BONES];
	static spring_chain_collider colliders[MAX_COLLIDERS];
	int bones = spring_chain_bone_count(chain);
	switch (op) {
	case 0: *name = "spring_chain_update"; return spring_chain_update(chain, fz_xform3(r), fz_dt(r));
	case 1: {
		*name = "spring_chain_update_many";
		spring_chain *const chains[1] = {chain};
		spring_xform3 root = fz_xform3(r);
		return spring_chain_update_many(chains, &root, fz_int(r, 0, 1), fz_dt(r));
	}
	case 2: *name = "spring_chain_reset"; return spring_chain_reset(chain, fz_xform3(r));
	case 3: *name = "spring_chain_teleport"; return spring_chain_teleport(chain, fz_xform3(r));
	case 4: *name = "spring_chain_translate"; return spring_chain_translate(chain, fz_vec3(r));
	case 5: {
		*name = "spring_chain_rotate";
		spring_quat q = fz_quat(r);
		return spring_chain_rotate(chain, q, fz_vec3(r));
	}
	case 6: {
		*name = "spring_chain_set_animation";
		int count = fz_bool(r) ? bones : fz_count(r, MAX_BONES);
		if (fz_u8(r) % 4 == 0) {
			return spring_chain_set_animation(chain, NULL, count);
		}
		for (int i = 0; i < MAX_BONES; i++) {
			anim[i] = fz_xform3(r);
		}
		return spring_chain_set_animation(chain, anim, count > MAX_BONES ? MAX_BONES : count);
	}
	case 7: {
		*name = "spring_chain_set_params";
		int bone = fz_int(r, -1, bones);
		return spring_chain_set_params(chain, bone, fz_params(r));
	}
	case 8: {
		*name = "spring_chain_set_cone_limit";
		int bone = fz_int(r, -1, bones);
		return spring_chain_set_cone_limit(chain, bone, fz_float(r));
	}
	case 9: {
		*name = "spring_chain_set_forces";
		spring_vec3 g = fz_vec3(r);
		return spring_chain_set_forces(chain, g, fz_vec3(r));
	}
	case 10: {
		*name = "spring_chain_set_bone_gravity";
		int bone = fz_int(r, -1, bones);
		return spring_chain_set_bone_gravity(chain, bone, fz_vec3(r));
	}
	default: {
		*name = "spring_chain_set_colliders";
		int count = fz_int(r, 0, MAX_COLLIDERS);
		for (int i = 0; i < count; i++) {
			colliders[i] = fz_collider(r);
		}
		return spring_chain_set_colliders(chain, fz_u8(r) % 8 == 0 ? NULL : colliders, fz_bool(r) ? count : fz_count(r, 70));
	}
	}
}

// spring_chain_init for fz_drive.
static spring_result init(const void *desc, void *memory, size_t size, void **out, spring_error *error)
{
	spring_chain *object = (spring_chain *)*out;
	spring_result r = spring_chain_init((const spring_chain_desc *)desc, memory, size, &object, error);
	*out = object;
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static spring_chain_bone_desc bones[MAX_BONES];
	static spring_chain_collider colliders[MAX_COLLIDERS];
	fz_reader r = fz_make(data, size);

	spring_chain_desc d;
	memset(&d, 0, sizeof d);
	d.bone_count = fz_count(&r, MAX_BONES);
	int described = d.bone_count < 0 ? 0 : d.bone_count > MAX_BONES ? MAX_BONES : d.bone_count;
	for (int i = 0; i < described; i++) {
		spring_chain_bone_desc *b = &bones[i];
		memset(b, 0, sizeof *b);
		uint8_t fuzzed = fz_u8(&r); // which fields are fuzzed; the others are a plain 20-unit bone
		b->rest_local.position = i == 0 ? spring_vec3_make(0, 0, 0) : spring_vec3_make(20.0f, 0, 0);
		b->tip = spring_vec3_make(20.0f, 0, 0);
		if (fuzzed & 1) {
			b->rest_local = fz_xform3(&r);
		}
		if (fuzzed & 2) {
			b->tip = fz_vec3(&r);
		}
		if (fuzzed & 4) {
			b->params = fz_params(&r);
		}
		if (fuzzed & 8) {
			b->tip_radius = fz_float(&r);
		}
		if (fuzzed & 16) {
			b->cone_limit = fz_float(&r);
		}
		if (fuzzed & 32) {
			b->gravity = fz_vec3(&r);
		}
	}
	// Past MAX_BONES the description points at fewer bones than it claims: keep it honest.
	d.bones = d.bone_count > MAX_BONES ? NULL : bones;
	uint8_t fuzzed = fz_u8(&r);
	if (fuzzed & 1) {
		d.params = fz_params(&r);
	}
	if (fuzzed & 2) {
		d.tip_params = fz_params(&r);
	}
	if (fuzzed & 4) {
		d.gravity = fz_vec3(&r);
		d.wind = fz_vec3(&r);
	}
	if (fuzzed & 8) {
		d.collider_count = fz_int(&r, 0, MAX_COLLIDERS);
		for (int i = 0; i < d.collider_count; i++) {
			colliders[i] = fz_collider(&r);
		}
		d.colliders = colliders;
		d.max_colliders = fz_count(&r, MAX_COLLIDERS);
	}
	if (fuzzed & 16) {
		d.step = fz_float(&r);
		d.max_steps = fz_count(&r, 16);
	}
	if (fuzzed & 32) {
		d.root = fz_xform3(&r);
	}
	d.mode_2d = (fuzzed & 64) != 0;
	d.projection = (spring_chain_projection)fz_int(&r, 0, SPRING_CHAIN_PROJECTION_COUNT - 1);
	d.integrator = (spring_integrator)fz_int(&r, 0, fuzzed & 128 ? SPRING_INTEGRATOR_COUNT : 0); // COUNT: invalid

	fz_drive(&r, "spring_chain_init", &d, spring_chain_memory_size(&d), init, call, check_outputs, 15, 11); // frames most often
	return 0;
}
