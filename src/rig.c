// SPDX-License-Identifier: MIT
// spring_rig: skeleton + keyframe clips + IK + spring chains, evaluated in that order every
// fixed step.
//
//   for each fixed step (the rig's spring_clock):
//       local  = setup pose + clip tracks sampled at the step's clip time
//       local  = IK solved on it (two-bone analytic, CCD), blended by mix
//       world  = forward kinematics from the rig root (on its path)        -> base_world
//       chains step on that final pose (root: the chain's parent bone; animation: the pose's
//              local angles), results blended into local by mix
//       world  = forward kinematics again                                  -> world
//   output = the last two steps' locals interpolated by alpha, then forward kinematics.
//
// One block holds the struct, every array and the chains (placed with their *_init in the
// same block). Nothing allocates after creation.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "rig_internal.h"

#include "base_internal.h"
#include "chain2d_internal.h"
#include "chain_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Layout

typedef struct rig_layout {
	rig_offsets at;
	size_t chain_memory[SPRING_RIG_MAX_CHAINS];
	size_t total;
	// Bounded by the description's limits (SPRING_RIG_MAX_TOTAL_KEYS and the per-clip counts).
	int tracks_total, keys_total, events_total, ik_bones_total, chain_bones_total, max_chain;
} rig_layout;

// Every byte count saturates (base_internal.h): a rig too large for this target's size_t gets a
// total no check lets fit.
static size_t bytes_of(size_t count, size_t each)
{
	return spring_internal_size_mul(count, each);
}

static spring_result layout(const spring_rig_desc *d, const rig_refs *refs, rig_layout *l, chain_scratch *s, spring_error *e)
{
	memset(l, 0, sizeof *l);
	size_t tracks = 0, keys = 0, events = 0, ik_bones = 0;
	for (int c = 0; c < d->clip_count; c++) {
		tracks += (size_t)d->clips[c].track_count;
		events += (size_t)d->clips[c].event_count;
		for (int t = 0; t < d->clips[c].track_count; t++) {
			keys += (size_t)d->clips[c].tracks[t].key_count;
		}
	}
	for (int k = 0; k < d->ik_count; k++) {
		ik_bones += (size_t)spring_rig_internal_range_bones(refs->parent, d->bone_count, refs->ik[k][0], refs->ik[k][1], NULL, 0);
	}
	// Validated: keys within SPRING_RIG_MAX_TOTAL_KEYS, the rest within the per-clip limits.
	SPRING_ASSERT(keys <= SPRING_RIG_MAX_TOTAL_KEYS && tracks <= (size_t)SPRING_RIG_MAX_CLIPS * SPRING_RIG_MAX_TRACKS);
	l->tracks_total = (int)tracks;
	l->keys_total = (int)keys;
	l->events_total = (int)events;
	l->ik_bones_total = (int)ik_bones;
	size_t nb = (size_t)d->bone_count;
	size_t at = spring_internal_align16(sizeof(spring_rig));
#define PLACE(field, bytes)                                                  \
	do {                                                                     \
		l->field = at;                                                       \
		at = spring_internal_align16(spring_internal_size_add(at, (bytes))); \
	} while (0)
	PLACE(at.names, nb * NAME_BYTES);
	PLACE(at.parent, nb * sizeof(int));
	PLACE(at.length, nb * sizeof(float));
	PLACE(at.setup, nb * sizeof(spring_xform2));
	PLACE(at.local, nb * sizeof(spring_xform2));
	PLACE(at.world, nb * sizeof(spring_xform2));
	PLACE(at.base_world, nb * sizeof(spring_xform2));
	PLACE(at.final_local, nb * sizeof(spring_xform2));
	PLACE(at.final_local_prev, nb * sizeof(spring_xform2));
	PLACE(at.clips, (size_t)d->clip_count * sizeof(rig_clip));
	PLACE(at.tracks, bytes_of(tracks, sizeof(rig_track)));
	PLACE(at.keys, bytes_of(keys, sizeof(spring_rig_key)));
	PLACE(at.events, bytes_of(events, sizeof(rig_event)));
	PLACE(at.iks, (size_t)d->ik_count * sizeof(rig_ik));
	PLACE(at.ik_bones, bytes_of(ik_bones, sizeof(int)));
	PLACE(at.ik_saved, nb * sizeof(float));
	PLACE(at.chains, (size_t)d->chain_count * sizeof(rig_chain));
	for (int c = 0; c < d->chain_count; c++) {
		spring_chain2d_desc a;
		spring_chain_desc t;
		int n = spring_rig_internal_chain_desc(d, refs, c, s, &a, &t);
		if (n < 0) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "bones", "must be 1..%d bones",
			                                SPRING_CHAIN_MAX_BONES);
		}
		l->chain_bones_total += n;
		l->max_chain = n > l->max_chain ? n : l->max_chain;
		spring_error inner;
		size_t size;
		if (d->chains[c].type == SPRING_RIG_CHAIN_ANGLE) {
			size = spring_chain2d_memory_size(&a);
			if (!size) {
				spring_chain2d *dummy;
				spring_chain2d_init(&a, NULL, 0, &dummy, &inner);
			}
		} else {
			size = spring_chain_memory_size(&t);
			if (!size) {
				spring_chain *dummy;
				spring_chain_init(&t, NULL, 0, &dummy, &inner);
			}
		}
		if (!size) {
			return spring_internal_error_nest(e, &inner, "rig", SPRING_ELEMENT_CHAIN, c);
		}
		PLACE(chain_memory[c], size);
	}
	PLACE(at.chain_bones, (size_t)l->chain_bones_total * sizeof(int));
	PLACE(at.bone_chain, nb * sizeof(int));
	PLACE(at.scratch_angles, (size_t)(l->max_chain + 1) * sizeof(float));
	PLACE(at.scratch_xf2, (size_t)(l->max_chain + 1) * sizeof(spring_xform2));
	PLACE(at.fk_mark, nb);
#undef PLACE
	l->total = at;
	if (!spring_internal_size_fits(at)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "clips",
		                                "the rig needs more than %zu bytes, the most one block can hold here (%zu keys in all)",
		                                SPRING_INTERNAL_MAX_BLOCK_BYTES, keys);
	}
	return SPRING_OK;
}

size_t spring_rig_memory_size(const spring_rig_desc *desc)
{
	rig_refs refs;
	if (spring_rig_internal_validate(desc, &refs, NULL) != SPRING_OK) {
		return 0;
	}
	chain_scratch scratch;
	rig_layout l;
	if (layout(desc, &refs, &l, &scratch, NULL) != SPRING_OK) {
		return 0;
	}
	return l.total;
}

// ---------------------------------------------------------------------------------------------
// Interpolation (forward kinematics: rig_internal.h)

spring_xform2 spring_rig_internal_xform2_lerp(spring_xform2 a, spring_xform2 b, float t)
{
	spring_xform2 r;
	r.position = spring_vec2_lerp(a.position, b.position, t);
	r.angle = a.angle + spring_angle_delta(a.angle, b.angle) * t;
	r.scale = spring_vec2_lerp(a.scale, b.scale, t);
	return r;
}

// ---------------------------------------------------------------------------------------------
// Creation

spring_result spring_rig_init(const spring_rig_desc *desc, void *memory, size_t size, spring_rig **out, spring_error *error)
{
	if (error) {
		memset(error, 0, sizeof *error);
	}
	if (!out) {
		return spring_rig_internal_fail(error, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "out", "is NULL");
	}
	rig_refs refs;
	spring_result res = spring_rig_internal_validate(desc, &refs, error);
	if (res != SPRING_OK) {
		return res;
	}
	chain_scratch scratch;
	rig_layout l;
	res = layout(desc, &refs, &l, &scratch, error);
	if (res != SPRING_OK) {
		return res;
	}
	if (!memory || ((uintptr_t)memory & 15u) != 0 || size < l.total) {
		return spring_rig_internal_fail(error, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "memory",
		                                "must be 16-byte aligned and at least %zu bytes", l.total);
	}
	unsigned char *base = (unsigned char *)memory;
	memset(base, 0, l.total);
	spring_rig *r = (spring_rig *)base;
	r->bone_count = desc->bone_count;
	r->clip_count = desc->clip_count;
	r->ik_count = desc->ik_count;
	r->chain_count = desc->chain_count;
	r->track_count = l.tracks_total;
	r->key_count = l.keys_total;
	r->event_count = l.events_total;
	spring_clock_init(&r->clock, desc->step, desc->max_steps);
	r->time_scale = 1.0f;
	r->clip = -1;
	r->fired_clip = -1;
	r->at = l.at;
	r->total = l.total;
	for (int i = 0; i < r->bone_count; i++) {
		const spring_rig_bone_desc *b = &desc->bones[i];
		snprintf(rig_names(r)[i], NAME_BYTES, "%s", b->name);
		rig_parent(r)[i] = refs.parent[i];
		rig_length(r)[i] = b->length;
		rig_setup(r)[i] = spring_rig_internal_clean_xform(b->setup);
		rig_local(r)[i] = rig_setup(r)[i];
		rig_final_local(r)[i] = rig_setup(r)[i];
		rig_final_local_prev(r)[i] = rig_setup(r)[i];
		rig_bone_chain(r)[i] = -1;
	}
	int track = 0, key = 0, event = 0;
	for (int c = 0; c < r->clip_count; c++) {
		const spring_rig_clip_desc *cd = &desc->clips[c];
		rig_clip *cl = &rig_clips(r)[c];
		snprintf(cl->name, NAME_BYTES, "%s", cd->name);
		cl->duration = cd->duration;
		cl->loop = cd->loop != 0;
		cl->first_track = track;
		cl->track_count = cd->track_count;
		cl->first_event = event;
		cl->event_count = cd->event_count;
		for (int t = 0; t < cd->track_count; t++, track++) {
			const spring_rig_track *td = &cd->tracks[t];
			rig_tracks(r)[track] = (rig_track){spring_rig_internal_find_bone(desc, &refs, td->bone), td->type, key,
			                                   td->key_count};
			memcpy(&rig_keys(r)[key], td->keys, (size_t)td->key_count * sizeof(spring_rig_key));
			key += td->key_count;
		}
		for (int v = 0; v < cd->event_count; v++, event++) {
			rig_events(r)[event].time = cd->events[v].time;
			rig_events(r)[event].value[0] = cd->events[v].value[0];
			rig_events(r)[event].value[1] = cd->events[v].value[1];
			snprintf(rig_events(r)[event].name, NAME_BYTES, "%s", cd->events[v].name);
		}
	}
	int ikb = 0;
	for (int k = 0; k < r->ik_count; k++) {
		rig_ik *ik = &rig_iks(r)[k];
		const spring_rig_ik_desc *kd = &desc->iks[k];
		snprintf(ik->name, NAME_BYTES, "%s", kd->name);
		ik->type = kd->type;
		ik->target = refs.ik[k][2];
		ik->bend_positive = kd->bend_positive;
		ik->iterations = kd->iterations == 0 ? 16 : kd->iterations;
		ik->tolerance = kd->tolerance == 0.0f ? 1e-4f : kd->tolerance;
		ik->mix = kd->off ? 0.0f : kd->mix == 0.0f ? 1.0f : kd->mix;
		ik->first_index = ikb;
		ik->bone_count = spring_rig_internal_range_bones(refs.parent, desc->bone_count, refs.ik[k][0], refs.ik[k][1],
		                                                 &rig_ik_bones(r)[ikb], SPRING_RIG_MAX_BONES);
		ikb += ik->bone_count;
	}
	int far_bone;
	r->reach = spring_rig_internal_reach(desc, &refs, &far_bone, r->chain_reach);
	r->root_input = spring_rig_internal_clean_xform(desc->root);
	r->root_prev_input = r->root_input;
	r->root_step = r->root_input;
	r->root_step_prev = r->root_input;
	spring_chain2d_internal_path_restart(&r->root_path, r->root_input);
	spring_rig_internal_forward(r, r->root_step, rig_local(r), rig_world(r));
	memcpy(rig_base_world(r), rig_world(r), (size_t)r->bone_count * sizeof(spring_xform2));
	int cb = 0;
	for (int c = 0; c < r->chain_count; c++) {
		rig_chain *ch = &rig_chains(r)[c];
		const spring_rig_chain_desc *cd = &desc->chains[c];
		spring_chain2d_desc a;
		spring_chain_desc t;
		int n = spring_rig_internal_chain_desc(desc, &refs, c, &scratch, &a, &t);
		snprintf(ch->name, NAME_BYTES, "%s", cd->name);
		ch->type = cd->type;
		ch->bone_count = n;
		ch->first_index = cb;
		ch->mix = cd->off ? 0.0f : cd->mix == 0.0f ? 1.0f : cd->mix;
		memcpy(&rig_chain_bones(r)[cb], scratch.bones, (size_t)n * sizeof(int));
		for (int i = 0; i < n; i++) {
			rig_bone_chain(r)[scratch.bones[i]] = c;
		}
		cb += n;
		// The chain's root: the first bone's pivot, oriented like its parent.
		int first = scratch.bones[0];
		int par = rig_parent(r)[first];
		spring_xform2 parent_world = par < 0 ? r->root_step : rig_world(r)[par];
		ch->root.position = rig_world(r)[first].position;
		ch->root.angle = parent_world.angle;
		ch->root.scale = spring_vec2_make(1.0f, 1.0f);
		ch->memory = l.chain_memory[c];
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			spring_chain2d *angle;
			a.root = ch->root;
			spring_chain2d_init(&a, base + l.chain_memory[c], size - l.chain_memory[c], &angle, NULL);
		} else {
			spring_xform3 root3 = spring_rig_internal_to_xform3(parent_world);
			t.root = root3;
			spring_chain *tip;
			spring_chain_init(&t, base + l.chain_memory[c], size - l.chain_memory[c], &tip, NULL);
		}
	}
	*out = r;
	return SPRING_OK;
}

SPRING_INTERNAL_DEFINE_CREATE(spring_rig, spring_rig, spring_rig_desc, "rig")

void spring_rig_destroy(spring_rig *rig)
{
	if (rig) {
		spring_internal_destroy(rig, &rig->owner);
	}
}

// ---------------------------------------------------------------------------------------------
// Update

// Whether the rig may be placed at `root` (clean): spring_rig_internal_placement's rule.
static bool placed_within(const spring_rig *r, spring_xform2 root)
{
	double far;
	return spring_rig_internal_placement(root, r->reach, r->chain_reach, r->chain_count, &far) == RIG_PLACEMENT_FITS;
}

static spring_result step_rig(spring_rig *r, spring_xform2 root, double clip_time)
{
	r->root_step_prev = r->root_step;
	r->root_step = root;
	memcpy(rig_final_local_prev(r), rig_final_local(r), (size_t)r->bone_count * sizeof(spring_xform2));
	spring_rig_internal_sample_pose(r, clip_time);                            // 1. clips at the step's time
	spring_rig_internal_solve_ik(r, rig_world(r));                            // 2. IK on that pose
	spring_rig_internal_forward(r, r->root_step, rig_local(r), rig_world(r)); // 3. world transforms
	memcpy(rig_base_world(r), rig_world(r), (size_t)r->bone_count * sizeof(spring_xform2));
	spring_result res = spring_rig_internal_step_chains(r, rig_world(r)); // 4. springs last, on the final pose
	memcpy(rig_final_local(r), rig_local(r), (size_t)r->bone_count * sizeof(spring_xform2));
	return res;
}

spring_result spring_rig_update(spring_rig *rig, float frame_dt)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(frame_dt)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (frame_dt < 0.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	// The steps' roots lie between these two (the placement rule holds on the segment between
	// two roots that keep it), so no chain refuses its root: the update cannot fail from here.
	// Checked all the same before anything changes, for a block whose inputs came from elsewhere.
	if (!placed_within(rig, rig->root_input) || !placed_within(rig, rig->root_prev_input)) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	rig->fired_count = 0;
	rig->fired_total = 0;
	rig->fired_clip = rig->clip;
	rig->fired_lost_teleports = 0;
	rig->events_applied = 0;
	float dt = rig->paused ? 0.0f : frame_dt * rig->time_scale;
	if (!spring_is_finite(dt)) {
		dt = 0.0f;
	}
	int n = spring_clock_advance(&rig->clock, dt);
	const double begin = spring_chain2d_internal_path_frame(&rig->root_path, (double)dt, n, &rig->clock, rig->root_input);
	spring_result result = SPRING_OK;
	for (int i = 0; i < n; i++) {
		float f = spring_clock_substep_fraction(&rig->clock, i, n);
		// The step's root on the placement's path (as a stand-alone chain's pivot moves between
		// the roots of its frames); where the path would leave the placement rule near its
		// limit, on the straight line between the frame's two roots, which keeps it.
		spring_xform2 root = spring_chain2d_internal_path_at(&rig->root_path, begin + (double)f * (double)dt);
		root.scale = spring_vec2_lerp(rig->root_prev_input.scale, rig->root_input.scale, f);
		if (!placed_within(rig, root)) {
			root = spring_rig_internal_xform2_lerp(rig->root_prev_input, rig->root_input, f);
		}
		double from = rig->clip_time;
		double to = from + (double)rig->clock.step;
		spring_result res = step_rig(rig, root, to);
		spring_rig_internal_fire_events(rig, from, to);
		rig->clip_time = to;
		if (res != SPRING_OK && result == SPRING_OK) {
			result = res;
		}
	}
	if (n > 0 || !rig->paused) {
		rig->root_prev_input = rig->root_input;
	}
	return result;
}

// ---------------------------------------------------------------------------------------------
// Control

spring_result spring_rig_play(spring_rig *rig, int clip, float time)
{
	if (!rig || clip < SPRING_RIG_SETUP_POSE || clip >= rig->clip_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(time)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	rig->clip = clip;
	rig->clip_time = (double)time;
	return SPRING_OK;
}

spring_result spring_rig_play_named(spring_rig *rig, const char *name, float time)
{
	return spring_rig_play(rig, spring_rig_find_clip(rig, name), time); // NOT_FOUND is refused there
}

int spring_rig_find_clip(const spring_rig *rig, const char *name)
{
	if (!rig || !name) {
		return SPRING_RIG_NOT_FOUND;
	}
	for (int i = 0; i < rig->clip_count; i++) {
		if (strcmp(rig_clips(rig)[i].name, name) == 0) {
			return i;
		}
	}
	return SPRING_RIG_NOT_FOUND;
}

int spring_rig_find_bone(const spring_rig *rig, const char *name)
{
	if (!rig || !name) {
		return SPRING_RIG_NOT_FOUND;
	}
	for (int i = 0; i < rig->bone_count; i++) {
		if (strcmp(rig_names(rig)[i], name) == 0) {
			return i;
		}
	}
	return SPRING_RIG_NOT_FOUND;
}

// A root for `rig`: finite, and placing no bone beyond SPRING_RIG_MAX_REACH (*root cleaned). The
// rule of set_root, teleport and restore.
static spring_result check_root(const spring_rig *rig, spring_xform2 *root)
{
	if (!spring_rig_internal_xform2_finite(*root)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	*root = spring_rig_internal_clean_xform(*root);
	return placed_within(rig, *root) ? SPRING_OK : SPRING_ERROR_OUT_OF_RANGE;
}

spring_result spring_rig_set_root(spring_rig *rig, spring_xform2 root)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_root(rig, &root);
	if (r != SPRING_OK) {
		return r;
	}
	rig->root_input = root;
	return SPRING_OK;
}

spring_result spring_rig_check_root(const spring_rig *rig, spring_xform2 root, spring_error *error)
{
	if (error) {
		memset(error, 0, sizeof *error);
	}
	if (!rig) {
		return spring_rig_internal_fail(error, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "rig", "is NULL");
	}
	if (!spring_rig_internal_xform2_finite(root)) {
		return spring_rig_internal_fail(error, SPRING_ERROR_NOT_FINITE, "rig", -1, "root", "root must be finite (got %g, %g, %g)",
		                                (double)root.position.x, (double)root.position.y, (double)root.angle);
	}
	root = spring_rig_internal_clean_xform(root);
	double far;
	int misfit = spring_rig_internal_placement(root, rig->reach, rig->chain_reach, rig->chain_count, &far);
	if (misfit == RIG_PLACEMENT_FITS) {
		return SPRING_OK;
	}
	return spring_rig_internal_placement_error(error, root, misfit, far, misfit >= 0 ? rig_chains(rig)[misfit].name : NULL);
}

spring_result spring_rig_set_ik_target(spring_rig *rig, int ik, spring_vec2 target)
{
	if (!rig || ik < 0 || ik >= rig->ik_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_rig_internal_finite2(target)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	rig_iks(rig)[ik].has_override = 1;
	rig_iks(rig)[ik].override_target = target;
	return SPRING_OK;
}

spring_result spring_rig_clear_ik_target(spring_rig *rig, int ik)
{
	if (!rig || ik < 0 || ik >= rig->ik_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	rig_iks(rig)[ik].has_override = 0;
	return SPRING_OK;
}

static spring_result check_mix(float mix)
{
	if (!spring_is_finite(mix)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return mix < 0.0f || mix > 1.0f ? SPRING_ERROR_OUT_OF_RANGE : SPRING_OK;
}

// A mix in [0, 1] for element `index` of a list of `count`: stored only when valid.
static spring_result set_mix(float *mix_of_index, int index, int count, float mix)
{
	if (index < 0 || index >= count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_mix(mix);
	if (r == SPRING_OK) {
		*mix_of_index = mix;
	}
	return r;
}

spring_result spring_rig_set_ik_mix(spring_rig *rig, int ik, float mix)
{
	float unused;
	return !rig ? SPRING_ERROR_INVALID_ARGUMENT
	            : set_mix(ik >= 0 && ik < rig->ik_count ? &rig_iks(rig)[ik].mix : &unused, ik, rig->ik_count, mix);
}

spring_result spring_rig_set_chain_mix(spring_rig *rig, int chain, float mix)
{
	float unused;
	return !rig ? SPRING_ERROR_INVALID_ARGUMENT
	            : set_mix(chain >= 0 && chain < rig->chain_count ? &rig_chains(rig)[chain].mix : &unused, chain, rig->chain_count,
	                      mix);
}

static spring_result check_time_scale(float scale)
{
	if (!spring_is_finite(scale)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	return scale < 0.0f || scale > 1000.0f ? SPRING_ERROR_OUT_OF_RANGE : SPRING_OK;
}

spring_result spring_rig_set_time_scale(spring_rig *rig, float scale)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_time_scale(scale);
	if (r == SPRING_OK) {
		rig->time_scale = scale;
	}
	return r;
}

spring_result spring_rig_set_paused(spring_rig *rig, bool paused)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	rig->paused = paused != 0;
	return SPRING_OK;
}

spring_result spring_rig_teleport(spring_rig *rig, spring_xform2 root)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = check_root(rig, &root);
	if (r != SPRING_OK) {
		return r;
	}
	// D maps the old root frame onto the new: every chain moves with it.
	float da = spring_angle_delta(rig->root_step.angle, root.angle);
	spring_vec2 from = rig->root_step.position;
	for (int c = 0; c < rig->chain_count; c++) {
		rig_chain *ch = &rig_chains(rig)[c];
		spring_xform2 moved = ch->root;
		moved.position = spring_vec2_add(root.position, spring_vec2_rotate(spring_vec2_sub(ch->root.position, from), da));
		moved.angle = spring_angle_wrap(ch->root.angle + da);
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			spring_chain2d_teleport(rig_chain_angle(rig, ch), moved);
		} else {
			spring_vec3 pivot = spring_vec3_make(from.x, from.y, 0.0f);
			spring_chain_rotate(rig_chain_tip(rig, ch), spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), da),
			                    pivot);
			spring_vec2 shift = spring_vec2_sub(root.position, from);
			spring_chain_translate(rig_chain_tip(rig, ch), spring_vec3_make(shift.x, shift.y, 0.0f));
		}
		ch->root = moved;
	}
	rig->root_input = root;
	rig->root_prev_input = root;
	rig->root_step = root;
	rig->root_step_prev = root;
	spring_chain2d_internal_path_restart(&rig->root_path, root);
	spring_rig_internal_forward(rig, root, rig_final_local(rig), rig_world(rig));
	spring_rig_internal_forward(rig, root, rig_local(rig), rig_base_world(rig));
	return SPRING_OK;
}

spring_result spring_rig_reset(spring_rig *rig)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	// The base pose of the current step (clips + IK): what every chain snaps onto.
	spring_rig_internal_sample_pose(rig, rig->clip_time);
	spring_rig_internal_solve_ik(rig, rig_world(rig));
	spring_rig_internal_forward(rig, rig->root_step, rig_local(rig), rig_world(rig));
	memcpy(rig_base_world(rig), rig_world(rig), (size_t)rig->bone_count * sizeof(spring_xform2));
	for (int c = 0; c < rig->chain_count; c++) {
		rig_chain *ch = &rig_chains(rig)[c];
		const int *bones = &rig_chain_bones(rig)[ch->first_index];
		spring_xform2 root = spring_rig_internal_chain_root(rig, ch, rig_base_world(rig));
		int n = ch->bone_count;
		// At rest on the pose: the pose's locals are the chain's animation.
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			float *offsets = rig_scratch_angles(rig);
			for (int i = 0; i < n; i++) {
				offsets[i] = spring_angle_delta(rig_setup(rig)[bones[i]].angle, rig_local(rig)[bones[i]].angle);
			}
			spring_chain2d_set_animation(rig_chain_angle(rig, ch), offsets, n);
			spring_chain2d_reset(rig_chain_angle(rig, ch), root);
			spring_chain2d_set_animation(rig_chain_angle(rig, ch), NULL, 0);
		} else {
			spring_xform3 anim[SPRING_CHAIN_MAX_BONES];
			for (int i = 0; i < n; i++) {
				anim[i] = spring_rig_internal_to_xform3(rig_local(rig)[bones[i]]);
			}
			int par = rig_parent(rig)[bones[0]];
			spring_xform2 parent_world = par < 0 ? rig->root_step : rig_base_world(rig)[par];
			parent_world.scale = spring_vec2_make(1.0f, 1.0f);
			spring_chain_set_animation(rig_chain_tip(rig, ch), anim, n);
			spring_chain_reset(rig_chain_tip(rig, ch), spring_rig_internal_to_xform3(parent_world));
			spring_chain_set_animation(rig_chain_tip(rig, ch), NULL, 0);
		}
		ch->root = root;
	}
	// The base pose becomes the output with no interpolation streak.
	memcpy(rig_final_local(rig), rig_local(rig), (size_t)rig->bone_count * sizeof(spring_xform2));
	memcpy(rig_final_local_prev(rig), rig_local(rig), (size_t)rig->bone_count * sizeof(spring_xform2));
	rig->root_step_prev = rig->root_step;
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Output

int spring_rig_bone_count(const spring_rig *rig)
{
	return rig ? rig->bone_count : 0;
}

const char *spring_rig_bone_name(const spring_rig *rig, int bone)
{
	return rig && bone >= 0 && bone < rig->bone_count ? rig_names(rig)[bone] : NULL;
}

int spring_rig_bone_parent(const spring_rig *rig, int bone)
{
	return rig && bone >= 0 && bone < rig->bone_count ? rig_parent(rig)[bone] : -1;
}

float spring_rig_bone_length(const spring_rig *rig, int bone)
{
	return rig && bone >= 0 && bone < rig->bone_count ? rig_length(rig)[bone] : 0.0f;
}

spring_result spring_rig_get_local(const spring_rig *rig, spring_xform2 *local, int capacity)
{
	if (!rig || !local) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, rig->bone_count);
	if (room != SPRING_OK) {
		return room;
	}
	float a = rig->clock.alpha;
	for (int i = 0; i < rig->bone_count; i++) {
		local[i] = spring_rig_internal_xform2_lerp(rig_final_local_prev(rig)[i], rig_final_local(rig)[i], a);
	}
	return SPRING_OK;
}

spring_result spring_rig_get_world(const spring_rig *rig, spring_xform2 *world, int capacity)
{
	spring_result r = spring_rig_get_local(rig, world, capacity);
	if (r != SPRING_OK) {
		return r;
	}
	spring_xform2 root = spring_rig_internal_xform2_lerp(rig->root_step_prev, rig->root_step, rig->clock.alpha);
	for (int i = 0; i < rig->bone_count; i++) {
		spring_xform2 parent = rig_parent(rig)[i] < 0 ? root : world[rig_parent(rig)[i]];
		world[i] = spring_xform2_mul(parent, world[i]);
	}
	return SPRING_OK;
}

spring_result spring_rig_get_stepped_world(const spring_rig *rig, spring_xform2 *world, int capacity)
{
	if (!rig || !world) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, rig->bone_count);
	if (room != SPRING_OK) {
		return room;
	}
	memcpy(world, rig_world(rig), (size_t)rig->bone_count * sizeof(spring_xform2));
	return SPRING_OK;
}

spring_result spring_rig_get_stepped_local(const spring_rig *rig, spring_xform2 *local, int capacity)
{
	if (!rig || !local) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, rig->bone_count);
	if (room != SPRING_OK) {
		return room;
	}
	memcpy(local, rig_final_local(rig), (size_t)rig->bone_count * sizeof(spring_xform2));
	return SPRING_OK;
}

spring_result spring_rig_get_base_world(const spring_rig *rig, spring_xform2 *world, int capacity)
{
	if (!rig || !world) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, rig->bone_count);
	if (room != SPRING_OK) {
		return room;
	}
	memcpy(world, rig_base_world(rig), (size_t)rig->bone_count * sizeof(spring_xform2));
	return SPRING_OK;
}

int spring_rig_get_events(const spring_rig *rig, spring_rig_event *events, int capacity, int *total)
{
	if (total) {
		*total = rig ? rig->fired_total : 0;
	}
	if (!rig || !events || capacity <= 0) {
		return 0;
	}
	int n = rig->fired_count < capacity ? rig->fired_count : capacity;
	memcpy(events, rig->fired, (size_t)n * sizeof *events);
	for (int i = 0; i < n; i++) {
		events[i].name = rig->fired_names[i]; // this rig's own (a byte copy's stored pointers are another's)
	}
	return n;
}

int spring_rig_chain_count(const spring_rig *rig)
{
	return rig ? rig->chain_count : 0;
}

const char *spring_rig_chain_name(const spring_rig *rig, int chain)
{
	return rig && chain >= 0 && chain < rig->chain_count ? rig_chains(rig)[chain].name : NULL;
}

int spring_rig_chain_bones(const spring_rig *rig, int chain, int *bones, int capacity)
{
	if (!rig || chain < 0 || chain >= rig->chain_count) {
		return 0;
	}
	const rig_chain *ch = &rig_chains(rig)[chain];
	for (int i = 0; i < ch->bone_count && i < capacity && bones; i++) {
		bones[i] = rig_chain_bones(rig)[ch->first_index + i];
	}
	return ch->bone_count;
}

bool spring_rig_chain_is_resting(const spring_rig *rig, int chain)
{
	if (!rig || chain < 0 || chain >= rig->chain_count) {
		return false;
	}
	const rig_chain *ch = &rig_chains(rig)[chain];
	return ch->type == SPRING_RIG_CHAIN_ANGLE ? spring_chain2d_is_resting(rig_chain_angle(rig, ch))
	                                          : spring_chain_is_resting(rig_chain_tip(rig, ch));
}

bool spring_rig_is_resting(const spring_rig *rig)
{
	if (!rig) {
		return false;
	}
	for (int c = 0; c < rig->chain_count; c++) {
		if (!spring_rig_chain_is_resting(rig, c)) {
			return false;
		}
	}
	return true;
}

int spring_rig_clip_count(const spring_rig *rig)
{
	return rig ? rig->clip_count : 0;
}

const char *spring_rig_clip_name(const spring_rig *rig, int clip)
{
	return rig && clip >= 0 && clip < rig->clip_count ? rig_clips(rig)[clip].name : NULL;
}

float spring_rig_clip_duration(const spring_rig *rig, int clip)
{
	return rig && clip >= 0 && clip < rig->clip_count ? rig_clips(rig)[clip].duration : 0.0f;
}

int spring_rig_ik_count(const spring_rig *rig)
{
	return rig ? rig->ik_count : 0;
}

const char *spring_rig_ik_name(const spring_rig *rig, int ik)
{
	return rig && ik >= 0 && ik < rig->ik_count ? rig_iks(rig)[ik].name : NULL;
}

int spring_rig_find_ik(const spring_rig *rig, const char *name)
{
	if (!rig || !name) {
		return -1;
	}
	for (int i = 0; i < rig->ik_count; i++) {
		if (strcmp(rig_iks(rig)[i].name, name) == 0) {
			return i;
		}
	}
	return -1;
}

const spring_clock *spring_rig_clock(const spring_rig *rig)
{
	return rig ? &rig->clock : NULL;
}

float spring_rig_time(const spring_rig *rig)
{
	return rig ? (float)rig->clip_time : 0.0f;
}

spring_xform2 spring_rig_root(const spring_rig *rig)
{
	return rig ? rig->root_input : spring_xform2_identity();
}

// ---------------------------------------------------------------------------------------------
// Snapshots (the chains live inside the block, so they travel with it)

static uint64_t rig_shape(const spring_rig *r)
{
	uint64_t h = spring_hash(SPRING_HASH_INIT, &r->at, sizeof r->at);
	int counts[7] = {r->bone_count, r->clip_count, r->track_count, r->key_count, r->event_count, r->ik_count, r->chain_count};
	h = spring_hash(h, counts, sizeof counts);
	return spring_hash(h, &r->total, sizeof r->total);
}

size_t spring_rig_snapshot_size(const spring_rig *rig)
{
	return rig ? SPRING_SNAPSHOT_HEADER_BYTES + rig->total : 0;
}

spring_result spring_rig_snapshot(const spring_rig *rig, void *blob, size_t size)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_internal_snapshot(rig, rig->total, offsetof(spring_rig, owner), SPRING_SNAPSHOT_RIG, rig_shape(rig),
	                                           blob, size);
	if (r == SPRING_OK) {
		// Not state: the events' name pointers (into this rig; get_events names fired_names) and the
		// slots past the last update's events (never read). Zero, so equal states give equal blobs.
		unsigned char *body = (unsigned char *)blob + SPRING_SNAPSHOT_HEADER_BYTES;
		for (int c = 0; c < rig->chain_count; c++) {
			const rig_chain *ch = &rig_chains(rig)[c];
			if (ch->type == SPRING_RIG_CHAIN_TIP) { // its scratch: zeros, as a tip chain's snapshot stores it
				spring_chain_internal_clear_scratch(rig_chain_tip(rig, ch), body + ch->memory);
			}
		}
		for (int k = 0; k < MAX_FIRED; k++) {
			unsigned char *event = body + offsetof(spring_rig, fired) + (size_t)k * sizeof(spring_rig_event);
			if (k < rig->fired_count) {
				memset(event + offsetof(spring_rig_event, name), 0, sizeof(const char *));
			} else {
				memset(event, 0, sizeof(spring_rig_event));
				memset(body + offsetof(spring_rig, fired_names) + (size_t)k * NAME_BYTES, 0, NAME_BYTES);
				memset(body + offsetof(spring_rig, fired_index) + (size_t)k * sizeof(int), 0, sizeof(int));
			}
		}
	}
	return r;
}

// Restore's checks of a snapshot's rig (`image`, any alignment) against the live rig: its
// structure and everything its description decided (counts, layout, names, parents, setup, clips,
// keys, events, IK and chain definitions, reach) must be the live rig's; each setting a call can
// change passes that call's check (roots, time scale, clip, mixes, IK targets); the pose arrays
// hold finite transforms whose forward kinematics stay within SPRING_RIG_MAX_REACH; the fired
// events' names are terminated; each chain passes its own kind's restore checks.
static spring_result rig_bad(spring_error *error, spring_result r, spring_element element, int index, const char *field,
                             const char *why)
{
	return spring_internal_snapshot_bad(error, r, "rig", index >= 0 ? element : SPRING_ELEMENT_NONE, index, field, why);
}

static bool image_same(const spring_rig *live, const unsigned char *image, size_t offset, size_t bytes)
{
	return memcmp(image + offset, (const unsigned char *)live + offset, bytes) == 0;
}

// `count` transforms of the image at `offset`, finite and within the reach, into `out`.
static bool image_poses(const unsigned char *image, size_t offset, int count, spring_xform2 *out)
{
	memcpy(out, image + offset, (size_t)count * sizeof *out);
	for (int i = 0; i < count; i++) {
		const spring_xform2 t = out[i];
		if (!spring_rig_internal_xform2_finite(t) || !(fabsf(t.position.x) <= 2.0f * SPRING_RIG_MAX_REACH) ||
		    !(fabsf(t.position.y) <= 2.0f * SPRING_RIG_MAX_REACH)) {
			return false;
		}
	}
	return true;
}

static spring_result rig_check_image(spring_rig *live, const unsigned char *image, spring_error *error)
{
	spring_rig h;
	memcpy(&h, image, sizeof h);
	const int counts[7] = {h.bone_count, h.clip_count, h.track_count, h.key_count, h.event_count, h.ik_count, h.chain_count};
	const int own[7] = {live->bone_count,  live->clip_count, live->track_count, live->key_count,
	                    live->event_count, live->ik_count,   live->chain_count};
	if (memcmp(counts, own, sizeof own) != 0 || memcmp(&h.at, &live->at, sizeof h.at) != 0 || h.total != live->total ||
	    memcmp(&h.reach, &live->reach, sizeof h.reach) != 0 ||
	    memcmp(h.chain_reach, live->chain_reach, sizeof h.chain_reach) != 0) {
		return rig_bad(error, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "bone_count",
		               "(or another count, the layout or the reach of the rig or a chain) differs from this rig's");
	}
	const int nb = live->bone_count;
	const rig_offsets *at = &live->at;
	const struct {
		size_t offset, bytes;
	} fixed[] = {{at->names, (size_t)nb * sizeof(rig_name)},
	             {at->parent, (size_t)nb * sizeof(int)},
	             {at->length, (size_t)nb * sizeof(float)},
	             {at->setup, (size_t)nb * sizeof(spring_xform2)},
	             {at->clips, (size_t)live->clip_count * sizeof(rig_clip)},
	             {at->tracks, (size_t)live->track_count * sizeof(rig_track)},
	             {at->keys, (size_t)live->key_count * sizeof(spring_rig_key)},
	             {at->events, (size_t)live->event_count * sizeof(rig_event)},
	             {at->bone_chain, (size_t)nb * sizeof(int)},
	             {at->fk_mark, (size_t)nb}};
	for (size_t f = 0; f < sizeof fixed / sizeof fixed[0]; f++) {
		if (!image_same(live, image, fixed[f].offset, fixed[f].bytes)) {
			return rig_bad(error, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_NONE, -1, "bones",
			               "(names, parents, lengths, setup, clips, keys or events) differ from this rig's");
		}
	}
	const char *why = spring_internal_clock_check(&live->clock, &h.clock);
	if (why) {
		return rig_bad(error, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "clock", why);
	}
	if (check_time_scale(h.time_scale) != SPRING_OK || (h.paused != 0 && h.paused != 1) || h.clip < -1 ||
	    h.clip >= h.clip_count || !(h.clip_time - h.clip_time == 0.0)) {
		return rig_bad(error, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "time_scale",
		               "(or paused, clip, clip_time) is not a value its call accepts");
	}
	// The placement's roots, its path's newest knot among them: each one set_root accepts.
	spring_xform2 roots[5] = {h.root_input, h.root_prev_input, h.root_step, h.root_step_prev, h.root_path.knot};
	for (int k = 0; k < 5; k++) {
		spring_xform2 cleaned = roots[k];
		if (check_root(live, &cleaned) != SPRING_OK || memcmp(&cleaned, &roots[k], sizeof cleaned) != 0) {
			return rig_bad(error, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, k < 4 ? "root" : "root_path",
			               "is not one set_root accepts (finite, within the rig's reach and its chains' limit)");
		}
	}
	if (!spring_chain2d_internal_path_valid(&h.root_path, h.clock.step, (float)(2.0 * SPRING_RIG_MAX_REACH))) {
		return rig_bad(error, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "root_path",
		               "(the placement's path between frames) is not one updates leave");
	}
	if (h.fired_count < 0 || h.fired_count > MAX_FIRED || h.fired_total < h.fired_count || h.fired_clip < -1 ||
	    h.fired_clip >= h.clip_count || (h.fired_clip < 0 && h.fired_total != 0) || h.fired_lost_teleports < 0 ||
	    h.fired_lost_teleports > h.fired_total - h.fired_count || (h.events_applied != 0 && h.events_applied != 1)) {
		return rig_bad(error, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "fired_count",
		               "(or fired_clip, fired_lost_teleports, events_applied) is out of range");
	}
	const int fired_events = h.fired_clip >= 0 ? rig_clips(live)[h.fired_clip].event_count : 0;
	for (int k = 0; k < MAX_FIRED; k++) {
		static const rig_name zero_name;
		spring_rig_event zero_event;
		memset(&zero_event, 0, sizeof zero_event);
		zero_event.name = h.fired[k].name; // not state (snapshots store it zero)
		bool ok = k < h.fired_count ? memchr(h.fired_names[k], 0, NAME_BYTES) != NULL && spring_is_finite(h.fired[k].time) &&
		                                  spring_is_finite(h.fired[k].value[0]) && spring_is_finite(h.fired[k].value[1]) &&
		                                  h.fired_index[k] >= 0 && h.fired_index[k] < fired_events
		                            : memcmp(&h.fired[k], &zero_event, sizeof zero_event) == 0 &&
		                                  memcmp(h.fired_names[k], zero_name, NAME_BYTES) == 0 && h.fired_index[k] == 0;
		if (!ok) {
			return rig_bad(error, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_EVENT, k, "fired",
			               "(an event of the last update) is not terminated and finite, or a slot past them not zero");
		}
	}
	for (int k = 0; k < live->ik_count; k++) {
		// Read field by field (bend_positive is a bool): the settings set_ik_mix and set_ik_target
		// change, then the rest byte for byte as the live rig's.
		const rig_ik *mine = &rig_iks(live)[k];
		unsigned char ik[sizeof(rig_ik)];
		memcpy(ik, image + at->iks + (size_t)k * sizeof(rig_ik), sizeof ik);
		float mix;
		int has_override;
		spring_vec2 target;
		memcpy(&mix, ik + offsetof(rig_ik, mix), sizeof mix);
		memcpy(&has_override, ik + offsetof(rig_ik, has_override), sizeof has_override);
		memcpy(&target, ik + offsetof(rig_ik, override_target), sizeof target);
		spring_result r = check_mix(mix);
		if (r != SPRING_OK || (has_override != 0 && has_override != 1) || !spring_rig_internal_finite2(target)) {
			return rig_bad(error, r != SPRING_OK ? r : SPRING_ERROR_NOT_FINITE, SPRING_ELEMENT_IK, k, "mix",
			               "(or the target override) is not one its call accepts");
		}
		memcpy(ik + offsetof(rig_ik, mix), &mine->mix, sizeof mix);
		memcpy(ik + offsetof(rig_ik, has_override), &mine->has_override, sizeof has_override);
		memcpy(ik + offsetof(rig_ik, override_target), &mine->override_target, sizeof target);
		if (memcmp(ik, mine, sizeof ik) != 0 || !image_same(live, image, at->ik_bones + (size_t)mine->first_index * sizeof(int),
		                                                    (size_t)mine->bone_count * sizeof(int))) {
			return rig_bad(error, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_IK, k, "bones", "differ from this rig's");
		}
	}
	for (int c = 0; c < live->chain_count; c++) {
		const rig_chain *mine = &rig_chains(live)[c];
		rig_chain ch;
		memcpy(&ch, image + at->chains + (size_t)c * sizeof ch, sizeof ch);
		spring_result r = check_mix(ch.mix);
		if (r != SPRING_OK || !spring_rig_internal_xform2_finite(ch.root) ||
		    !(fabsf(ch.root.position.x) <= 2.0f * SPRING_RIG_MAX_REACH) ||
		    !(fabsf(ch.root.position.y) <= 2.0f * SPRING_RIG_MAX_REACH)) {
			return rig_bad(error, r != SPRING_OK ? r : SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_CHAIN, c, "mix",
			               "(or the chain's root) is not finite and in range");
		}
		if (memcmp(mine->name, ch.name, sizeof ch.name) != 0 || mine->type != ch.type || mine->bone_count != ch.bone_count ||
		    mine->first_index != ch.first_index || mine->memory != ch.memory ||
		    !image_same(live, image, at->chain_bones + (size_t)mine->first_index * sizeof(int),
		                (size_t)mine->bone_count * sizeof(int))) {
			return rig_bad(error, SPRING_ERROR_INVALID_ARGUMENT, SPRING_ELEMENT_CHAIN, c, "bones", "differ from this rig's");
		}
		spring_error inner;
		r = mine->type == SPRING_RIG_CHAIN_ANGLE
		        ? spring_chain2d_internal_check_own_image(rig_chain_angle(live, mine), image + mine->memory,
		                                                  error ? &inner : NULL)
		        : spring_chain_internal_check_image(rig_chain_tip(live, mine), image + mine->memory, error ? &inner : NULL);
		if (r != SPRING_OK) {
			return error ? spring_internal_error_nest(error, &inner, "rig", SPRING_ELEMENT_CHAIN, c) : r;
		}
	}
	// The poses: finite, and what get_world draws from them (forward kinematics from the roots)
	// within the reach.
	spring_xform2 local[SPRING_RIG_MAX_BONES], world[SPRING_RIG_MAX_BONES];
	const size_t poses[3] = {at->local, at->world, at->base_world};
	for (int k = 0; k < 3; k++) {
		if (!image_poses(image, poses[k], nb, local)) {
			return rig_bad(error, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "pose", "holds a transform out of range");
		}
	}
	const size_t drawn[2] = {at->final_local, at->final_local_prev};
	const spring_xform2 from[2] = {h.root_step, h.root_step_prev};
	for (int k = 0; k < 2; k++) {
		bool ok = image_poses(image, drawn[k], nb, local);
		if (ok) {
			spring_rig_internal_forward(live, from[k], local, world);
			for (int i = 0; i < nb && ok; i++) {
				ok = spring_rig_internal_xform2_finite(world[i]) && fabsf(world[i].position.x) <= 2.0f * SPRING_RIG_MAX_REACH &&
				     fabsf(world[i].position.y) <= 2.0f * SPRING_RIG_MAX_REACH;
			}
		}
		if (!ok) {
			return rig_bad(error, SPRING_ERROR_OUT_OF_RANGE, SPRING_ELEMENT_NONE, -1, "final_local",
			               "(the drawn pose) places a bone out of range");
		}
	}
	return SPRING_OK;
}

spring_result spring_rig_restore(spring_rig *rig, const void *blob, size_t size, spring_error *error)
{
	if (!rig) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "rig", SPRING_ELEMENT_NONE, -1, "rig",
		                               "the rig is NULL");
	}
	const unsigned char *body;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_RIG, rig_shape(rig), rig->total, "rig", error,
	                                                  &body);
	if (r == SPRING_OK) {
		r = rig_check_image(rig, body, error);
	}
	if (r == SPRING_OK) {
		spring_internal_snapshot_install(rig, rig->total, offsetof(spring_rig, owner), body);
	}
	return r;
}
