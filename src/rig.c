// spring_rig: skeleton + keyframe clips + IK + spring chains, evaluated in that order every
// fixed step.
//
//   for each fixed step (the rig's spring_clock):
//       local  = setup pose + clip tracks sampled at the step's clip time
//       local  = IK solved on it (two-bone analytic, CCD), blended by mix
//       world  = forward kinematics from the (interpolated) rig root      -> base_world
//       chains step on that final pose (root: the chain's parent bone; animation: the pose's
//              local angles), results blended into local by mix
//       world  = forward kinematics again                                  -> world
//   output = the last two steps' locals interpolated by alpha, then forward kinematics.
//
// One block holds the struct, every array and the chains (placed with their *_init in the
// same block). Nothing allocates after creation.
#include "spring/rig.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define NAME_BYTES (SPRING_RIG_MAX_NAME + 1)
#define MAX_FIRED 64

typedef struct rig_clip {
	char name[NAME_BYTES];
	float duration;
	int loop;
	int first_track, track_count;
	int first_event, event_count;
} rig_clip;

typedef struct rig_track {
	int bone;
	spring_rig_track_type type;
	int first_key, key_count;
} rig_track;

typedef struct rig_event {
	float time;
	float value[2];
	char name[NAME_BYTES];
} rig_event;

typedef struct rig_ik {
	spring_rig_ik_desc desc;
	float mix;
	int bone_count;      // bones in the chain (2 for two-bone)
	int first_index;     // into ik_bones
	int has_override;
	spring_vec2 override_target;
} rig_ik;

typedef struct rig_chain {
	char name[NAME_BYTES];
	spring_rig_chain_type type;
	int bone_count;
	int first_index;      // into chain_bones
	float mix;
	spring_chain2d *angle;
	spring_chain *tip;
	spring_xform2 root;   // the chain root passed in the last step
} rig_chain;

struct spring_rig {
	int bone_count, clip_count, track_count, key_count, event_count, ik_count, chain_count;
	int owned;
	spring_allocator allocator; // the one that made this object (create), used by destroy
	spring_clock clock;
	float time_scale;
	int paused;
	int clip;
	double clip_time;           // clip time of the last step
	spring_xform2 root_input;   // root set for the coming update
	spring_xform2 root_prev_input;
	spring_xform2 root_step, root_step_prev;
	int fired_count, fired_total;
	spring_rig_event fired[MAX_FIRED];
	char fired_names[MAX_FIRED][NAME_BYTES];

	char (*names)[NAME_BYTES];
	int *parent;
	float *length;
	spring_xform2 *setup;
	spring_xform2 *local;       // working pose of the current step
	spring_xform2 *world;       // final world of the last step
	spring_xform2 *base_world;  // world of the last step before the springs
	spring_xform2 *final_local, *final_local_prev;
	rig_clip *clips;
	rig_track *tracks;
	spring_rig_key *keys;
	rig_event *events;
	rig_ik *iks;
	int *ik_bones;
	rig_chain *chains;
	int *chain_bones;
	int *bone_chain;            // chain owning each bone, -1 if none
	float *ik_saved;            // CCD: the clip pose's angles of the bones being solved
	// Scratch for chains (max bones of any chain), never allocated per frame.
	float *scratch_angles;
	spring_xform3 *scratch_xf3;
};

// ---------------------------------------------------------------------------------------------
// Errors

static spring_element element_of(const char *kind)
{
	for (int el = 1; el < SPRING_ELEMENT_COUNT; el++) {
		if (strcmp(kind, spring_element_name((spring_element)el)) == 0) {
			return (spring_element)el;
		}
	}
	return SPRING_ELEMENT_NONE;
}

static spring_result fail(spring_error *e, spring_result r, const char *kind, int index, const char *field, const char *fmt, ...)
{
	if (e) {
		char text[160];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(text, sizeof text, fmt, ap);
		va_end(ap);
		spring_internal_fail_at(e, r, "rig", index >= 0 ? element_of(kind) : SPRING_ELEMENT_NONE, index, field, "%s %s",
		                        field, text);
	}
	return r;
}

static int finite2(spring_vec2 v)
{
	return spring_is_finite(v.x) && spring_is_finite(v.y);
}

static int xform2_finite(spring_xform2 t)
{
	return finite2(t.position) && spring_is_finite(t.angle) && finite2(t.scale);
}

static spring_xform2 clean_xform(spring_xform2 t)
{
	if (t.scale.x == 0.0f && t.scale.y == 0.0f) {
		t.scale = spring_vec2_make(1.0f, 1.0f);
	}
	return t;
}

static int name_ok(const char *name)
{
	if (!name) {
		return 0;
	}
	size_t n = strlen(name);
	return n >= 1 && n <= SPRING_RIG_MAX_NAME;
}

// The bones of a parent-linked range first..last, root first; returns the count or -1.
static int range_bones(const spring_rig_desc *d, int first, int last, int *out, int capacity)
{
	if (first < 0 || last < 0 || first >= d->bone_count || last >= d->bone_count) {
		return -1;
	}
	int n = 0;
	for (int b = last; b >= 0; b = d->bones[b].parent) {
		n++;
		if (b == first) {
			break;
		}
		if (d->bones[b].parent < 0) {
			return -1; // reached a root without meeting `first`
		}
	}
	if (n > capacity && out) {
		return -1;
	}
	if (out) {
		int b = last;
		for (int i = n - 1; i >= 0; i--) {
			out[i] = b;
			b = d->bones[b].parent;
		}
	}
	return n;
}

static int params_zero(spring_params p)
{
	return p.stiffness == 0.0f && p.damping == 0.0f && p.mass == 0.0f;
}

// ---------------------------------------------------------------------------------------------
// Validation

static spring_result validate(const spring_rig_desc *d, spring_error *e)
{
	if (!d) {
		return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "desc", "is NULL");
	}
	if (d->bone_count < 1 || d->bone_count > SPRING_RIG_MAX_BONES) {
		return fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "bone_count", "must be in 1..%d (got %d)", SPRING_RIG_MAX_BONES,
		            d->bone_count);
	}
	if (!d->bones) {
		return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "bones", "is NULL");
	}
	if (d->clip_count < 0 || d->clip_count > SPRING_RIG_MAX_CLIPS || (d->clip_count > 0 && !d->clips)) {
		return fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "clip_count", "must be in 0..%d with clips given (got %d)",
		            SPRING_RIG_MAX_CLIPS, d->clip_count);
	}
	if (d->ik_count < 0 || d->ik_count > SPRING_RIG_MAX_IK || (d->ik_count > 0 && !d->iks)) {
		return fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "ik_count", "must be in 0..%d with iks given (got %d)",
		            SPRING_RIG_MAX_IK, d->ik_count);
	}
	if (d->chain_count < 0 || d->chain_count > SPRING_RIG_MAX_CHAINS || (d->chain_count > 0 && !d->chains)) {
		return fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "chain_count", "must be in 0..%d with chains given (got %d)",
		            SPRING_RIG_MAX_CHAINS, d->chain_count);
	}
	spring_clock probe;
	spring_result r = spring_clock_init(&probe, d->step, d->max_steps);
	if (r != SPRING_OK) {
		return fail(e, r, "rig", -1, "step", "must be in (0, 1] s with max_steps 0..1000 (step %g)", (double)d->step);
	}
	if (!xform2_finite(d->root)) {
		return fail(e, SPRING_ERROR_NOT_FINITE, "rig", -1, "root", "must be finite");
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_rig_bone_desc *b = &d->bones[i];
		if (!name_ok(b->name)) {
			return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "bone", i, "name", "must be 1..%d bytes", SPRING_RIG_MAX_NAME);
		}
		for (int j = 0; j < i; j++) {
			if (strcmp(d->bones[j].name, b->name) == 0) {
				return fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "name", "\"%s\" is also bone %d", b->name, j);
			}
		}
		if (b->parent == i) {
			return fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent", "is the bone itself (a cycle)");
		}
		if (b->parent < -1 || b->parent >= i) {
			return fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent",
			            "must be an earlier bone or -1 (got %d): bones are listed parent before child", b->parent);
		}
		if (!spring_is_finite(b->length) || b->length < 0.0f) {
			return fail(e, spring_is_finite(b->length) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, "bone", i, "length",
			            "must be finite and >= 0 (got %g)", (double)b->length);
		}
		if (!xform2_finite(b->setup)) {
			return fail(e, SPRING_ERROR_NOT_FINITE, "bone", i, "setup", "must be finite");
		}
	}
	for (int c = 0; c < d->clip_count; c++) {
		const spring_rig_clip_desc *cl = &d->clips[c];
		if (!name_ok(cl->name)) {
			return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "name", "must be 1..%d bytes", SPRING_RIG_MAX_NAME);
		}
		for (int j = 0; j < c; j++) {
			if (strcmp(d->clips[j].name, cl->name) == 0) {
				return fail(e, SPRING_ERROR_BAD_DEFINITION, "clip", c, "name", "\"%s\" is also clip %d", cl->name, j);
			}
		}
		if (!spring_is_finite(cl->duration) || !(cl->duration > 0.0f)) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "duration", "must be finite and > 0 (got %g)", (double)cl->duration);
		}
		if (cl->track_count < 0 || cl->track_count > SPRING_RIG_MAX_TRACKS || (cl->track_count > 0 && !cl->tracks)) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "track_count", "must be in 0..%d (got %d)", SPRING_RIG_MAX_TRACKS,
			            cl->track_count);
		}
		if (cl->event_count < 0 || cl->event_count > SPRING_RIG_MAX_EVENTS || (cl->event_count > 0 && !cl->events)) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "event_count", "must be in 0..%d (got %d)", SPRING_RIG_MAX_EVENTS,
			            cl->event_count);
		}
		for (int t = 0; t < cl->track_count; t++) {
			const spring_rig_track *tr = &cl->tracks[t];
			if (tr->bone < 0 || tr->bone >= d->bone_count) {
				return fail(e, SPRING_ERROR_BAD_DEFINITION, "clip", c, "tracks", "track %d: bone %d does not exist", t, tr->bone);
			}
			if ((int)tr->type < 0 || (int)tr->type > (int)SPRING_RIG_TRACK_SCALE) {
				return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "tracks", "track %d: unknown type %d", t, (int)tr->type);
			}
			if (tr->key_count < 1 || tr->key_count > SPRING_RIG_MAX_KEYS || !tr->keys) {
				return fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "tracks", "track %d: key_count must be in 1..%d (got %d)", t,
				            SPRING_RIG_MAX_KEYS, tr->key_count);
			}
			for (int k = 0; k < tr->key_count; k++) {
				const spring_rig_key *key = &tr->keys[k];
				if (!spring_is_finite(key->time) || key->time < 0.0f || !spring_is_finite(key->value[0]) ||
				    !spring_is_finite(key->value[1])) {
					return fail(e, SPRING_ERROR_NOT_FINITE, "clip", c, "tracks", "track %d key %d: time and values must be finite, time >= 0",
					            t, k);
				}
				if (k > 0 && !(key->time > tr->keys[k - 1].time)) {
					return fail(e, SPRING_ERROR_BAD_DEFINITION, "clip", c, "tracks", "track %d key %d: times must increase (%g after %g)",
					            t, k, (double)key->time, (double)tr->keys[k - 1].time);
				}
				if ((int)key->curve < 0 || (int)key->curve > (int)SPRING_RIG_CURVE_BEZIER) {
					return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "tracks", "track %d key %d: unknown curve %d", t, k,
					            (int)key->curve);
				}
				if (key->curve == SPRING_RIG_CURVE_BEZIER) {
					for (int q = 0; q < 4; q++) {
						if (!spring_is_finite(key->bezier[q])) {
							return fail(e, SPRING_ERROR_NOT_FINITE, "clip", c, "tracks", "track %d key %d: bezier must be finite", t, k);
						}
					}
					if (key->bezier[0] < 0.0f || key->bezier[0] > 1.0f || key->bezier[2] < 0.0f || key->bezier[2] > 1.0f) {
						return fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "tracks", "track %d key %d: bezier x1, x2 must be in [0, 1]", t, k);
					}
				}
			}
		}
		for (int v = 0; v < cl->event_count; v++) {
			const spring_rig_event *ev = &cl->events[v];
			if (!name_ok(ev->name)) {
				return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "events", "event %d: name must be 1..%d bytes", v,
				            SPRING_RIG_MAX_NAME);
			}
			if (!spring_is_finite(ev->time) || ev->time < 0.0f || !spring_is_finite(ev->value[0]) || !spring_is_finite(ev->value[1])) {
				return fail(e, SPRING_ERROR_NOT_FINITE, "clip", c, "events", "event %d: time and payload must be finite, time >= 0", v);
			}
		}
	}
	for (int k = 0; k < d->ik_count; k++) {
		const spring_rig_ik_desc *ik = &d->iks[k];
		if ((int)ik->type < 0 || (int)ik->type > (int)SPRING_RIG_IK_CCD) {
			return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "ik", k, "type", "is unknown (%d)", (int)ik->type);
		}
		int n = range_bones(d, ik->first_bone, ik->last_bone, NULL, 0);
		if (n < 0) {
			return fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "bones", "%d..%d is not a parent-linked range", ik->first_bone,
			            ik->last_bone);
		}
		if (ik->type == SPRING_RIG_IK_TWO_BONE && n != 2) {
			return fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "bones", "two-bone IK needs a bone and its child (got %d bones)", n);
		}
		if (ik->target_bone < -1 || ik->target_bone >= d->bone_count) {
			return fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "target_bone", "does not exist (%d)", ik->target_bone);
		}
		if (ik->mix_set && (!spring_is_finite(ik->mix) || ik->mix < 0.0f || ik->mix > 1.0f)) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "mix", "must be in [0, 1] (got %g)", (double)ik->mix);
		}
		if (ik->iterations < 0 || ik->iterations > 1000) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "iterations", "must be in 1..1000 (got %d)", ik->iterations);
		}
		if (!spring_is_finite(ik->tolerance) || ik->tolerance < 0.0f) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "tolerance", "must be finite and >= 0 (got %g)", (double)ik->tolerance);
		}
	}
	for (int c = 0; c < d->chain_count; c++) {
		const spring_rig_chain_desc *ch = &d->chains[c];
		if (!name_ok(ch->name)) {
			return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "chain", c, "name", "must be 1..%d bytes", SPRING_RIG_MAX_NAME);
		}
		for (int j = 0; j < c; j++) {
			if (strcmp(d->chains[j].name, ch->name) == 0) {
				return fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "name", "\"%s\" is also chain %d", ch->name, j);
			}
		}
		if ((int)ch->type < 0 || (int)ch->type > (int)SPRING_RIG_CHAIN_TIP) {
			return fail(e, SPRING_ERROR_INVALID_ARGUMENT, "chain", c, "type", "is unknown (%d)", (int)ch->type);
		}
		int n = range_bones(d, ch->first_bone, ch->last_bone, NULL, 0);
		if (n < 0) {
			return fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "bones", "%d..%d is not a parent-linked range", ch->first_bone,
			            ch->last_bone);
		}
		for (int j = 0; j < c; j++) {
			const spring_rig_chain_desc *o = &d->chains[j];
			for (int b = ch->last_bone;; b = d->bones[b].parent) {
				for (int q = o->last_bone;; q = d->bones[q].parent) {
					if (q == b) {
						return fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "bones", "bone %d is also in chain %d", b, j);
					}
					if (q == o->first_bone) {
						break;
					}
				}
				if (b == ch->first_bone) {
					break;
				}
			}
		}
		if (ch->mix_set && (!spring_is_finite(ch->mix) || ch->mix < 0.0f || ch->mix > 1.0f)) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "mix", "must be in [0, 1] (got %g)", (double)ch->mix);
		}
		if (!params_zero(ch->params) && spring_params_validate(ch->params) != SPRING_OK) {
			return fail(e, spring_params_validate(ch->params), "chain", c, "params", "is not a valid spring");
		}
		if (!params_zero(ch->tip_params) && spring_params_validate(ch->tip_params) != SPRING_OK) {
			return fail(e, spring_params_validate(ch->tip_params), "chain", c, "tip_params", "is not a valid spring");
		}
		float max_limit = ch->type == SPRING_RIG_CHAIN_ANGLE ? (float)SPRING_PI : (float)SPRING_PI * 0.99999f;
		if (!spring_is_finite(ch->limit) || ch->limit < 0.0f || ch->limit > max_limit) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "limit", "must be 0 (none) or in (0, pi] radians (got %g)",
			            (double)ch->limit);
		}
		if (!finite2(ch->gravity) || !finite2(ch->wind)) {
			return fail(e, SPRING_ERROR_NOT_FINITE, "chain", c, "gravity", "and wind must be finite");
		}
		if (ch->collider_count < 0 || ch->collider_count > SPRING_CHAIN_MAX_COLLIDERS || (ch->collider_count > 0 && !ch->colliders)) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "colliders", "count must be in 0..%d", SPRING_CHAIN_MAX_COLLIDERS);
		}
		if (ch->collider_count > 0 && ch->type != SPRING_RIG_CHAIN_TIP) {
			return fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "colliders", "need a tip chain");
		}
		if (!spring_is_finite(ch->tip_radius) || ch->tip_radius < 0.0f) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "tip_radius", "must be finite and >= 0");
		}
	}
	return SPRING_OK;
}

// ---------------------------------------------------------------------------------------------
// Chain descriptions (built into caller-provided scratch, no allocation)

typedef struct chain_scratch {
	int bones[SPRING_RIG_MAX_BONES];
	spring_chain2d_segment segments[SPRING_CHAIN_MAX_BONES];
	spring_bone_desc tip_bones[SPRING_CHAIN_MAX_BONES];
	spring_collider colliders[SPRING_CHAIN_MAX_COLLIDERS];
} chain_scratch;

static spring_xform3 to_xform3(spring_xform2 t)
{
	spring_xform3 r = {spring_vec3_make(t.position.x, t.position.y, 0.0f),
	                   spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), t.angle)};
	return r;
}

// Fills the description of chain c (angle or tip), its bones in s->bones.
static int chain_desc(const spring_rig_desc *d, int c, chain_scratch *s, spring_chain2d_desc *a, spring_chain_desc *t)
{
	const spring_rig_chain_desc *ch = &d->chains[c];
	int n = range_bones(d, ch->first_bone, ch->last_bone, s->bones, SPRING_RIG_MAX_BONES);
	if (n < 1 || n > SPRING_CHAIN_MAX_BONES) {
		return -1;
	}
	spring_clock probe;
	spring_clock_init(&probe, d->step, d->max_steps);
	if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
		memset(a, 0, sizeof *a);
		for (int i = 0; i < n; i++) {
			const spring_rig_bone_desc *b = &d->bones[s->bones[i]];
			s->segments[i] = (spring_chain2d_segment){b->length > 0.0f ? b->length : 1e-3f, b->setup.angle, {0.0f, 0.0f, 0.0f}, ch->limit};
		}
		a->segment_count = n;
		a->segments = s->segments;
		a->params = ch->params;
		a->tip_params = ch->tip_params;
		a->gravity = ch->gravity;
		a->wind = ch->wind;
		a->step = probe.step;
		a->max_steps = 1000; // driven one step per call by the rig
	} else {
		memset(t, 0, sizeof *t);
		for (int i = 0; i < n; i++) {
			const spring_rig_bone_desc *b = &d->bones[s->bones[i]];
			spring_bone_desc *tb = &s->tip_bones[i];
			memset(tb, 0, sizeof *tb);
			tb->rest_local = to_xform3(clean_xform(b->setup));
			tb->tip = spring_vec3_make(b->length > 1e-3f ? b->length : 1e-3f, 0.0f, 0.0f);
			tb->tip_radius = ch->tip_radius;
			tb->cone_limit = ch->limit;
		}
		for (int k = 0; k < ch->collider_count; k++) {
			s->colliders[k] = ch->colliders[k];
			s->colliders[k].a.z = 0.0f;
			if (s->colliders[k].type != SPRING_COLLIDER_PLANE) {
				s->colliders[k].b.z = 0.0f;
			}
		}
		t->bone_count = n;
		t->bones = s->tip_bones;
		t->params = ch->params;
		t->tip_params = ch->tip_params;
		t->gravity = spring_vec3_make(ch->gravity.x, ch->gravity.y, 0.0f);
		t->wind = spring_vec3_make(ch->wind.x, ch->wind.y, 0.0f);
		t->colliders = s->colliders;
		t->collider_count = ch->collider_count;
		t->mode_2d = 1;
		t->step = probe.step;
		t->max_steps = 1000;
		t->root.rotation = spring_quat_identity();
	}
	return n;
}

// ---------------------------------------------------------------------------------------------
// Layout

typedef struct rig_layout {
	size_t names, parent, length, setup, local, world, base_world, final_local, final_local_prev;
	size_t clips, tracks, keys, events, iks, ik_bones, ik_saved, chains, chain_bones, bone_chain, scratch_angles, scratch_xf3;
	size_t chain_memory[SPRING_RIG_MAX_CHAINS];
	size_t total;
	int tracks_total, keys_total, events_total, ik_bones_total, chain_bones_total, max_chain;
} rig_layout;

static size_t align16(size_t x)
{
	return (x + 15u) & ~(size_t)15u;
}

static spring_result layout(const spring_rig_desc *d, rig_layout *l, chain_scratch *s, spring_error *e)
{
	memset(l, 0, sizeof *l);
	for (int c = 0; c < d->clip_count; c++) {
		l->tracks_total += d->clips[c].track_count;
		l->events_total += d->clips[c].event_count;
		for (int t = 0; t < d->clips[c].track_count; t++) {
			l->keys_total += d->clips[c].tracks[t].key_count;
		}
	}
	for (int k = 0; k < d->ik_count; k++) {
		l->ik_bones_total += range_bones(d, d->iks[k].first_bone, d->iks[k].last_bone, NULL, 0);
	}
	size_t nb = (size_t)d->bone_count;
	size_t at = align16(sizeof(spring_rig));
#define PLACE(field, bytes)                                                                     \
	do {                                                                                        \
		l->field = at;                                                                          \
		at = align16(at + (bytes));                                                             \
	} while (0)
	PLACE(names, nb * NAME_BYTES);
	PLACE(parent, nb * sizeof(int));
	PLACE(length, nb * sizeof(float));
	PLACE(setup, nb * sizeof(spring_xform2));
	PLACE(local, nb * sizeof(spring_xform2));
	PLACE(world, nb * sizeof(spring_xform2));
	PLACE(base_world, nb * sizeof(spring_xform2));
	PLACE(final_local, nb * sizeof(spring_xform2));
	PLACE(final_local_prev, nb * sizeof(spring_xform2));
	PLACE(clips, (size_t)d->clip_count * sizeof(rig_clip));
	PLACE(tracks, (size_t)l->tracks_total * sizeof(rig_track));
	PLACE(keys, (size_t)l->keys_total * sizeof(spring_rig_key));
	PLACE(events, (size_t)l->events_total * sizeof(rig_event));
	PLACE(iks, (size_t)d->ik_count * sizeof(rig_ik));
	PLACE(ik_bones, (size_t)l->ik_bones_total * sizeof(int));
	PLACE(ik_saved, nb * sizeof(float));
	PLACE(chains, (size_t)d->chain_count * sizeof(rig_chain));
	for (int c = 0; c < d->chain_count; c++) {
		spring_chain2d_desc a;
		spring_chain_desc t;
		int n = chain_desc(d, c, s, &a, &t);
		if (n < 0) {
			return fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "bones", "must be 1..%d bones", SPRING_CHAIN_MAX_BONES);
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
	PLACE(chain_bones, (size_t)l->chain_bones_total * sizeof(int));
	PLACE(bone_chain, nb * sizeof(int));
	PLACE(scratch_angles, (size_t)(l->max_chain + 1) * sizeof(float));
	PLACE(scratch_xf3, (size_t)(l->max_chain + 1) * sizeof(spring_xform3));
#undef PLACE
	l->total = at;
	return SPRING_OK;
}

size_t spring_rig_memory_size(const spring_rig_desc *desc)
{
	if (validate(desc, NULL) != SPRING_OK) {
		return 0;
	}
	chain_scratch scratch; // about 25 KB of stack, only at creation
	rig_layout l;
	if (layout(desc, &l, &scratch, NULL) != SPRING_OK) {
		return 0;
	}
	return l.total;
}

// ---------------------------------------------------------------------------------------------
// Forward kinematics

static void forward(const spring_rig *r, spring_xform2 root, const spring_xform2 *local, spring_xform2 *world)
{
	for (int i = 0; i < r->bone_count; i++) {
		spring_xform2 parent = r->parent[i] < 0 ? root : world[r->parent[i]];
		world[i] = spring_xform2_mul(parent, local[i]);
	}
}

static spring_xform2 xform2_lerp(spring_xform2 a, spring_xform2 b, float t)
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
		return fail(error, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "out", "is NULL");
	}
	spring_result res = validate(desc, error);
	if (res != SPRING_OK) {
		return res;
	}
	chain_scratch scratch;
	rig_layout l;
	res = layout(desc, &l, &scratch, error);
	if (res != SPRING_OK) {
		return res;
	}
	if (!memory || ((uintptr_t)memory & 15u) != 0 || size < l.total) {
		return fail(error, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "memory", "must be 16-byte aligned and at least %zu bytes",
		            l.total);
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
	r->names = (char(*)[NAME_BYTES])(base + l.names);
	r->parent = (int *)(base + l.parent);
	r->length = (float *)(base + l.length);
	r->setup = (spring_xform2 *)(base + l.setup);
	r->local = (spring_xform2 *)(base + l.local);
	r->world = (spring_xform2 *)(base + l.world);
	r->base_world = (spring_xform2 *)(base + l.base_world);
	r->final_local = (spring_xform2 *)(base + l.final_local);
	r->final_local_prev = (spring_xform2 *)(base + l.final_local_prev);
	r->clips = (rig_clip *)(base + l.clips);
	r->tracks = (rig_track *)(base + l.tracks);
	r->keys = (spring_rig_key *)(base + l.keys);
	r->events = (rig_event *)(base + l.events);
	r->iks = (rig_ik *)(base + l.iks);
	r->ik_bones = (int *)(base + l.ik_bones);
	r->chains = (rig_chain *)(base + l.chains);
	r->chain_bones = (int *)(base + l.chain_bones);
	r->bone_chain = (int *)(base + l.bone_chain);
	r->ik_saved = (float *)(base + l.ik_saved);
	r->scratch_angles = (float *)(base + l.scratch_angles);
	r->scratch_xf3 = (spring_xform3 *)(base + l.scratch_xf3);
	for (int i = 0; i < r->bone_count; i++) {
		const spring_rig_bone_desc *b = &desc->bones[i];
		snprintf(r->names[i], NAME_BYTES, "%s", b->name);
		r->parent[i] = b->parent;
		r->length[i] = b->length;
		r->setup[i] = clean_xform(b->setup);
		r->local[i] = r->setup[i];
		r->final_local[i] = r->setup[i];
		r->final_local_prev[i] = r->setup[i];
		r->bone_chain[i] = -1;
	}
	int track = 0, key = 0, event = 0;
	for (int c = 0; c < r->clip_count; c++) {
		const spring_rig_clip_desc *cd = &desc->clips[c];
		rig_clip *cl = &r->clips[c];
		snprintf(cl->name, NAME_BYTES, "%s", cd->name);
		cl->duration = cd->duration;
		cl->loop = cd->loop != 0;
		cl->first_track = track;
		cl->track_count = cd->track_count;
		cl->first_event = event;
		cl->event_count = cd->event_count;
		for (int t = 0; t < cd->track_count; t++, track++) {
			const spring_rig_track *td = &cd->tracks[t];
			r->tracks[track] = (rig_track){td->bone, td->type, key, td->key_count};
			memcpy(&r->keys[key], td->keys, (size_t)td->key_count * sizeof(spring_rig_key));
			key += td->key_count;
		}
		for (int v = 0; v < cd->event_count; v++, event++) {
			r->events[event].time = cd->events[v].time;
			r->events[event].value[0] = cd->events[v].value[0];
			r->events[event].value[1] = cd->events[v].value[1];
			snprintf(r->events[event].name, NAME_BYTES, "%s", cd->events[v].name);
		}
	}
	int ikb = 0;
	for (int k = 0; k < r->ik_count; k++) {
		rig_ik *ik = &r->iks[k];
		ik->desc = desc->iks[k];
		ik->mix = desc->iks[k].mix_set ? desc->iks[k].mix : 1.0f;
		if (ik->desc.iterations == 0) {
			ik->desc.iterations = 16;
		}
		if (ik->desc.tolerance == 0.0f) {
			ik->desc.tolerance = 1e-4f;
		}
		ik->first_index = ikb;
		ik->bone_count = range_bones(desc, ik->desc.first_bone, ik->desc.last_bone, &r->ik_bones[ikb], SPRING_RIG_MAX_BONES);
		ikb += ik->bone_count;
	}
	r->root_input = clean_xform(desc->root);
	r->root_prev_input = r->root_input;
	r->root_step = r->root_input;
	r->root_step_prev = r->root_input;
	forward(r, r->root_step, r->local, r->world);
	memcpy(r->base_world, r->world, (size_t)r->bone_count * sizeof(spring_xform2));
	int cb = 0;
	for (int c = 0; c < r->chain_count; c++) {
		rig_chain *ch = &r->chains[c];
		const spring_rig_chain_desc *cd = &desc->chains[c];
		spring_chain2d_desc a;
		spring_chain_desc t;
		int n = chain_desc(desc, c, &scratch, &a, &t);
		snprintf(ch->name, NAME_BYTES, "%s", cd->name);
		ch->type = cd->type;
		ch->bone_count = n;
		ch->first_index = cb;
		ch->mix = cd->mix_set ? cd->mix : 1.0f;
		memcpy(&r->chain_bones[cb], scratch.bones, (size_t)n * sizeof(int));
		for (int i = 0; i < n; i++) {
			r->bone_chain[scratch.bones[i]] = c;
		}
		cb += n;
		// The chain's root: the first bone's pivot, oriented like its parent.
		int first = scratch.bones[0];
		int par = r->parent[first];
		spring_xform2 parent_world = par < 0 ? r->root_step : r->world[par];
		ch->root.position = r->world[first].position;
		ch->root.angle = parent_world.angle;
		ch->root.scale = spring_vec2_make(1.0f, 1.0f);
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			a.root = ch->root;
			spring_chain2d_init(&a, base + l.chain_memory[c], size - l.chain_memory[c], &ch->angle, NULL);
		} else {
			spring_xform3 root3 = to_xform3(parent_world);
			t.root = root3;
			spring_chain_init(&t, base + l.chain_memory[c], size - l.chain_memory[c], &ch->tip, NULL);
		}
	}
	*out = r;
	return SPRING_OK;
}

static spring_result rig_init_thunk(const void *desc, void *memory, size_t size, void **out, spring_error *error)
{
	spring_rig *r = NULL;
	spring_result res = spring_rig_init((const spring_rig_desc *)desc, memory, size, out ? &r : NULL, error);
	if (res == SPRING_OK) {
		*out = r;
	}
	return res;
}

spring_result spring_rig_create(const spring_rig_desc *desc, spring_rig **out, spring_error *error)
{
	void *object = NULL;
	spring_allocator used;
	spring_result r = spring_internal_create(desc, spring_rig_memory_size(desc), rig_init_thunk, out ? &object : NULL, &used,
	                                         "rig", error);
	if (r == SPRING_OK) {
		*out = (spring_rig *)object;
		(*out)->owned = 1;
		(*out)->allocator = used;
	}
	return r;
}

void spring_rig_destroy(spring_rig *rig)
{
	// With the allocator that made it, even if the process-wide one changed since.
	if (rig && rig->owned) {
		spring_allocator a = rig->allocator;
		a.free(rig, a.context);
	}
}

// ---------------------------------------------------------------------------------------------
// Clips

float spring_cubic_bezier(float x1, float y1, float x2, float y2, float x)
{
	if (!spring_is_finite(x1) || !spring_is_finite(y1) || !spring_is_finite(x2) || !spring_is_finite(y2) || !spring_is_finite(x)) {
		return spring_is_finite(x) ? x : 0.0f;
	}
	if (x <= 0.0f) {
		return 0.0f;
	}
	if (x >= 1.0f) {
		return 1.0f;
	}
	double ax1 = fmin(fmax((double)x1, 0.0), 1.0), ax2 = fmin(fmax((double)x2, 0.0), 1.0);
	// B(s) = 3(1-s)^2 s p1 + 3(1-s) s^2 p2 + s^3, monotone in s for x1, x2 in [0, 1].
	double cx = 3.0 * ax1, bx = 3.0 * (ax2 - ax1) - cx, axx = 1.0 - cx - bx;
	double cy = 3.0 * (double)y1, by = 3.0 * ((double)y2 - (double)y1) - cy, ayy = 1.0 - cy - by;
	double target = (double)x, s = target;
	// Newton from s = x, falling back to bisection when the slope is flat or it leaves [0, 1].
	int converged = 0;
	for (int i = 0; i < 8; i++) {
		double fx = ((axx * s + bx) * s + cx) * s - target;
		if (fabs(fx) < 1e-12) {
			converged = 1;
			break;
		}
		double d = (3.0 * axx * s + 2.0 * bx) * s + cx;
		if (fabs(d) < 1e-9) {
			break;
		}
		double next = s - fx / d;
		if (!(next >= 0.0 && next <= 1.0)) {
			break;
		}
		s = next;
	}
	if (!converged) {
		double lo = 0.0, hi = 1.0;
		s = target;
		for (int i = 0; i < 64; i++) {
			double fx = ((axx * s + bx) * s + cx) * s;
			if (fabs(fx - target) < 1e-12) {
				break;
			}
			if (fx < target) {
				lo = s;
			} else {
				hi = s;
			}
			s = 0.5 * (lo + hi);
		}
	}
	return (float)(((ayy * s + by) * s + cy) * s);
}

// Value of a track at clip time t (within [0, duration] already).
static void track_value(const spring_rig *r, const rig_track *tr, float t, float out[2])
{
	const spring_rig_key *k = &r->keys[tr->first_key];
	int n = tr->key_count;
	if (t <= k[0].time || n == 1) {
		out[0] = k[0].value[0];
		out[1] = k[0].value[1];
		return;
	}
	if (t >= k[n - 1].time) {
		out[0] = k[n - 1].value[0];
		out[1] = k[n - 1].value[1];
		return;
	}
	int lo = 0, hi = n - 1; // k[lo].time <= t < k[hi].time
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;
		if (k[mid].time <= t) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	const spring_rig_key *a = &k[lo], *b = &k[hi];
	float u = (t - a->time) / (b->time - a->time);
	if (a->curve == SPRING_RIG_CURVE_STEPPED) {
		u = 0.0f;
	} else if (a->curve == SPRING_RIG_CURVE_BEZIER) {
		u = spring_cubic_bezier(a->bezier[0], a->bezier[1], a->bezier[2], a->bezier[3], u);
	}
	out[0] = a->value[0] + (b->value[0] - a->value[0]) * u;
	out[1] = a->value[1] + (b->value[1] - a->value[1]) * u;
}

static float clip_local_time(const rig_clip *cl, double t)
{
	if (cl->loop) {
		double d = (double)cl->duration;
		double w = fmod(t, d);
		if (w < 0.0) {
			w += d;
		}
		return (float)w;
	}
	return (float)fmin(fmax(t, 0.0), (double)cl->duration);
}

// The setup pose with clip `clip`'s tracks applied at clip time t, into `local`.
static void sample_clip_into(const spring_rig *r, int clip, double t, spring_xform2 *local)
{
	memcpy(local, r->setup, (size_t)r->bone_count * sizeof(spring_xform2));
	if (clip < 0) {
		return;
	}
	const rig_clip *cl = &r->clips[clip];
	float ct = clip_local_time(cl, t);
	for (int i = 0; i < cl->track_count; i++) {
		const rig_track *tr = &r->tracks[cl->first_track + i];
		float v[2];
		track_value(r, tr, ct, v);
		spring_xform2 *l = &local[tr->bone];
		switch (tr->type) {
		case SPRING_RIG_TRACK_ROTATE:
			l->angle = r->setup[tr->bone].angle + v[0];
			break;
		case SPRING_RIG_TRACK_TRANSLATE:
			l->position = spring_vec2_add(r->setup[tr->bone].position, spring_vec2_make(v[0], v[1]));
			break;
		case SPRING_RIG_TRACK_SCALE:
			l->scale = spring_vec2_make(r->setup[tr->bone].scale.x * v[0], r->setup[tr->bone].scale.y * v[1]);
			break;
		}
	}
}

static void sample_pose(spring_rig *r, double t)
{
	sample_clip_into(r, r->clip, t, r->local);
}

spring_result spring_rig_sample_clip(const spring_rig *rig, int clip, float time, spring_xform2 *local, int capacity)
{
	if (!rig || !local || capacity < rig->bone_count || clip < -1 || clip >= rig->clip_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(time)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	sample_clip_into(rig, clip, (double)time, local);
	return SPRING_OK;
}

// Events of the current clip with time in (from, to] (clip times, unwrapped), in order.
static void fire_events(spring_rig *r, double from, double to)
{
	if (r->clip < 0 || !(to > from)) {
		return;
	}
	const rig_clip *cl = &r->clips[r->clip];
	double d = (double)cl->duration;
	double start = cl->loop ? floor(from / d) * d : 0.0;
	for (double base = start; base <= to; base += d) {
		for (int i = 0; i < cl->event_count; i++) {
			const rig_event *ev = &r->events[cl->first_event + i];
			double t = base + (double)ev->time;
			if ((double)ev->time > d) {
				continue;
			}
			if (t > from && t <= to) {
				if (r->fired_count < MAX_FIRED) {
					int k = r->fired_count++;
					memcpy(r->fired_names[k], ev->name, NAME_BYTES);
					r->fired[k].name = r->fired_names[k];
					r->fired[k].time = ev->time;
					r->fired[k].value[0] = ev->value[0];
					r->fired[k].value[1] = ev->value[1];
				}
				r->fired_total++;
			}
		}
		if (!cl->loop) {
			break;
		}
	}
}

// ---------------------------------------------------------------------------------------------
// IK

void spring_ik_two_bone(spring_vec2 pivot, float l1, float l2, spring_vec2 target, int bend_positive, float fallback_angle,
                        float *angle1, float *angle2)
{
	double dx = (double)target.x - (double)pivot.x, dy = (double)target.y - (double)pivot.y;
	double d = sqrt(dx * dx + dy * dy);
	double a = (double)l1, b = (double)l2;
	if (!(a > 0.0) || !(b > 0.0) || !spring_is_finite(target.x) || !spring_is_finite(target.y) || !(d > 1e-9 * (a + b))) {
		// Degenerate lengths or a target on the pivot: no direction to reach for; keep the
		// fallback angle with the lower bone folded back towards the pivot as far as it can.
		double base = (double)fallback_angle;
		if (angle1) {
			*angle1 = (float)base;
		}
		if (angle2) {
			*angle2 = (float)(base + (bend_positive ? SPRING_PI : -SPRING_PI));
			*angle2 = spring_angle_wrap(*angle2);
		}
		return;
	}
	double base = spring_det_atan2(dy, dx);
	// Clamp the distance to what the two bones can span: beyond it the chain points straight
	// at the target, inside |a - b| it folds as far as it can.
	double reach = fmin(fmax(d, fabs(a - b)), a + b);
	double c1 = (a * a + reach * reach - b * b) / (2.0 * a * reach);
	double inner = spring_det_acos(c1);
	double sign = bend_positive ? 1.0 : -1.0;
	double t1 = base + sign * inner;
	double ex = (double)pivot.x + a * spring_det_cos(t1), ey = (double)pivot.y + a * spring_det_sin(t1);
	double t2 = reach >= a + b ? t1 : spring_det_atan2((double)target.y - ey, (double)target.x - ex);
	if (d > a + b) {
		t2 = t1;
	} else if (d < fabs(a - b)) {
		// Folded: the lower bone points back along the upper one.
		double c2 = (a * a + b * b - reach * reach) / (2.0 * a * b);
		double elbow = spring_det_acos(c2);
		t2 = t1 - sign * (SPRING_PI - elbow);
	}
	if (angle1) {
		*angle1 = spring_angle_wrap((float)t1);
	}
	if (angle2) {
		*angle2 = spring_angle_wrap((float)t2);
	}
}

static spring_vec2 bone_tip(const spring_rig *r, const spring_xform2 *world, int bone)
{
	return spring_xform2_apply(world[bone], spring_vec2_make(r->length[bone], 0.0f));
}

static spring_vec2 ik_target(const rig_ik *ik, const spring_xform2 *world)
{
	if (ik->has_override || ik->desc.target_bone < 0) {
		return ik->override_target;
	}
	return world[ik->desc.target_bone].position;
}

// Turns `bone` so its world angle becomes `world_angle`, blended from the current pose by mix.
static void set_world_angle(spring_rig *r, const spring_xform2 *world, int bone, float world_angle, float mix)
{
	r->local[bone].angle += spring_angle_delta(world[bone].angle, world_angle) * mix;
}

static void solve_ik(spring_rig *r, spring_xform2 *world)
{
	for (int k = 0; k < r->ik_count; k++) {
		rig_ik *ik = &r->iks[k];
		if (ik->mix <= 0.0f) {
			continue;
		}
		forward(r, r->root_step, r->local, world);
		spring_vec2 target = ik_target(ik, world);
		if (!finite2(target)) {
			continue;
		}
		const int *bones = &r->ik_bones[ik->first_index];
		if (ik->desc.type == SPRING_RIG_IK_TWO_BONE) {
			int b1 = bones[0], b2 = bones[1];
			spring_vec2 pivot = world[b1].position;
			spring_vec2 elbow = world[b2].position;
			float l1 = spring_vec2_length(spring_vec2_sub(elbow, pivot));
			float l2 = r->length[b2] * fabsf(world[b2].scale.x);
			if (!(l1 > 0.0f) || !(l2 > 0.0f)) {
				continue;
			}
			// The upper bone's direction differs from pivot->elbow by the child's offset angle.
			float offset = spring_angle_delta(world[b1].angle,
			                                  (float)spring_det_atan2((double)elbow.y - pivot.y, (double)elbow.x - pivot.x));
			float t1, t2;
			spring_ik_two_bone(pivot, l1, l2, target, ik->desc.bend_positive, world[b1].angle + offset, &t1, &t2);
			set_world_angle(r, world, b1, t1 - offset, ik->mix);
			forward(r, r->root_step, r->local, world);
			set_world_angle(r, world, b2, t2, ik->mix);
		} else {
			// CCD: turn each bone, tip to root, so the effector points at the target; repeat
			// until within tolerance; then blend from the clip pose by mix.
			int n = ik->bone_count;
			float *saved = r->ik_saved;
			for (int j = 0; j < n; j++) {
				saved[j] = r->local[bones[j]].angle;
			}
			for (int it = 0; it < ik->desc.iterations; it++) {
				spring_vec2 eff = bone_tip(r, world, bones[n - 1]);
				double ex = (double)eff.x - target.x, ey = (double)eff.y - target.y;
				if (sqrt(ex * ex + ey * ey) <= (double)ik->desc.tolerance) {
					break;
				}
				for (int j = n - 1; j >= 0; j--) {
					int b = bones[j];
					spring_vec2 pivot = world[b].position;
					spring_vec2 e2 = bone_tip(r, world, bones[n - 1]);
					double a1 = spring_det_atan2((double)e2.y - pivot.y, (double)e2.x - pivot.x);
					double a2 = spring_det_atan2((double)target.y - pivot.y, (double)target.x - pivot.x);
					float delta = spring_angle_delta((float)a1, (float)a2);
					r->local[b].angle += delta;
					forward(r, r->root_step, r->local, world);
				}
			}
			for (int j = 0; j < n; j++) {
				float solved = r->local[bones[j]].angle;
				r->local[bones[j]].angle = saved[j] + (solved - saved[j]) * ik->mix;
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Chains on the final pose

// The chain's root for this step: the first bone's pivot, oriented like its parent.
static spring_xform2 chain_root(const spring_rig *r, const rig_chain *ch, const spring_xform2 *world)
{
	int first = r->chain_bones[ch->first_index];
	int par = r->parent[first];
	spring_xform2 root;
	root.position = world[first].position;
	root.angle = par < 0 ? r->root_step.angle : world[par].angle;
	root.scale = spring_vec2_make(1.0f, 1.0f);
	return root;
}

static spring_result step_chains(spring_rig *r, spring_xform2 *world)
{
	spring_result result = SPRING_OK;
	for (int c = 0; c < r->chain_count; c++) {
		rig_chain *ch = &r->chains[c];
		const int *bones = &r->chain_bones[ch->first_index];
		int n = ch->bone_count;
		spring_xform2 root = chain_root(r, ch, world);
		int par = r->parent[bones[0]];
		float parent_angle = par < 0 ? r->root_step.angle : world[par].angle;
		spring_result res;
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			// The pose's local angles become the chain's animation (offsets from the setup).
			float *offsets = r->scratch_angles;
			for (int i = 0; i < n; i++) {
				offsets[i] = spring_angle_delta(r->setup[bones[i]].angle, r->local[bones[i]].angle);
			}
			spring_chain2d_set_animation(ch->angle, offsets, n);
			res = spring_chain2d_update(ch->angle, root, r->clock.step);
			// Simulated world angles -> local angles, blended into the pose by mix.
			float prev_world = parent_angle;
			for (int i = 0; i < n && res == SPRING_OK; i++) {
				spring_state st;
				spring_chain2d_get_state(ch->angle, i, &st);
				float sim_local = spring_angle_delta(prev_world, st.x);
				float pose_local = r->local[bones[i]].angle;
				r->local[bones[i]].angle = pose_local + spring_angle_delta(pose_local, sim_local) * ch->mix;
				prev_world = st.x;
			}
		} else {
			spring_xform3 *anim = r->scratch_xf3;
			for (int i = 0; i < n; i++) {
				anim[i] = to_xform3(r->local[bones[i]]);
				anim[i].position.z = 0.0f;
			}
			spring_chain_set_animation(ch->tip, anim, n);
			spring_xform2 parent_world = par < 0 ? r->root_step : world[par];
			parent_world.scale = spring_vec2_make(1.0f, 1.0f);
			res = spring_chain_update(ch->tip, to_xform3(parent_world), r->clock.step);
			spring_xform3 *pose = r->scratch_xf3;
			if (res == SPRING_OK) {
				res = spring_chain_get_stepped_pose(ch->tip, pose, NULL, n);
			}
			float prev_world = parent_angle;
			for (int i = 0; i < n && res == SPRING_OK; i++) {
				spring_vec3 x = spring_quat_rotate(pose[i].rotation, spring_vec3_make(1.0f, 0.0f, 0.0f));
				float world_angle = (float)spring_det_atan2((double)x.y, (double)x.x);
				float sim_local = spring_angle_delta(prev_world, world_angle);
				float pose_local = r->local[bones[i]].angle;
				r->local[bones[i]].angle = pose_local + spring_angle_delta(pose_local, sim_local) * ch->mix;
				prev_world = world_angle;
			}
		}
		ch->root = root;
		if (res != SPRING_OK && result == SPRING_OK) {
			result = res;
		}
		forward(r, r->root_step, r->local, world); // children of this chain follow it
	}
	return result;
}

// ---------------------------------------------------------------------------------------------
// Update

static spring_result step_rig(spring_rig *r, spring_xform2 root, double clip_time)
{
	r->root_step_prev = r->root_step;
	r->root_step = root;
	memcpy(r->final_local_prev, r->final_local, (size_t)r->bone_count * sizeof(spring_xform2));
	sample_pose(r, clip_time);                         // 1. clips at the step's time
	solve_ik(r, r->world);                             // 2. IK on that pose
	forward(r, r->root_step, r->local, r->world);      // 3. world transforms
	memcpy(r->base_world, r->world, (size_t)r->bone_count * sizeof(spring_xform2));
	spring_result res = step_chains(r, r->world);      // 4. springs last, on the final pose
	memcpy(r->final_local, r->local, (size_t)r->bone_count * sizeof(spring_xform2));
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
	rig->fired_count = 0;
	rig->fired_total = 0;
	float dt = rig->paused ? 0.0f : frame_dt * rig->time_scale;
	if (!spring_is_finite(dt)) {
		dt = 0.0f;
	}
	int n = spring_clock_advance(&rig->clock, dt);
	spring_result result = SPRING_OK;
	for (int i = 0; i < n; i++) {
		float f = spring_clock_substep_fraction(&rig->clock, i, n);
		spring_xform2 root = xform2_lerp(rig->root_prev_input, rig->root_input, f);
		double from = rig->clip_time;
		double to = from + (double)rig->clock.step;
		spring_result res = step_rig(rig, root, to);
		fire_events(rig, from, to);
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
	if (!rig || clip < -1 || clip >= rig->clip_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(time)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	rig->clip = clip;
	rig->clip_time = (double)time;
	return SPRING_OK;
}

int spring_rig_find_clip(const spring_rig *rig, const char *name)
{
	if (!rig || !name) {
		return -1;
	}
	for (int i = 0; i < rig->clip_count; i++) {
		if (strcmp(rig->clips[i].name, name) == 0) {
			return i;
		}
	}
	return -1;
}

int spring_rig_find_bone(const spring_rig *rig, const char *name)
{
	if (!rig || !name) {
		return -1;
	}
	for (int i = 0; i < rig->bone_count; i++) {
		if (strcmp(rig->names[i], name) == 0) {
			return i;
		}
	}
	return -1;
}

spring_result spring_rig_set_root(spring_rig *rig, spring_xform2 root)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!xform2_finite(root)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	rig->root_input = clean_xform(root);
	return SPRING_OK;
}

spring_result spring_rig_set_ik_target(spring_rig *rig, int ik, spring_vec2 target)
{
	if (!rig || ik < 0 || ik >= rig->ik_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (target.x != target.x) {
		rig->iks[ik].has_override = 0; // back to the target bone
		return SPRING_OK;
	}
	if (!finite2(target)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	rig->iks[ik].has_override = 1;
	rig->iks[ik].override_target = target;
	return SPRING_OK;
}

spring_result spring_rig_set_ik_mix(spring_rig *rig, int ik, float mix)
{
	if (!rig || ik < 0 || ik >= rig->ik_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(mix)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (mix < 0.0f || mix > 1.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	rig->iks[ik].mix = mix;
	return SPRING_OK;
}

spring_result spring_rig_set_chain_mix(spring_rig *rig, int chain, float mix)
{
	if (!rig || chain < 0 || chain >= rig->chain_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(mix)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (mix < 0.0f || mix > 1.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	rig->chains[chain].mix = mix;
	return SPRING_OK;
}

spring_result spring_rig_set_time_scale(spring_rig *rig, float scale)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	if (!spring_is_finite(scale)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	if (scale < 0.0f || scale > 1000.0f) {
		return SPRING_ERROR_OUT_OF_RANGE;
	}
	rig->time_scale = scale;
	return SPRING_OK;
}

spring_result spring_rig_set_paused(spring_rig *rig, int paused)
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
	if (!xform2_finite(root)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	root = clean_xform(root);
	// D maps the old root frame onto the new: every chain moves with it.
	float da = spring_angle_delta(rig->root_step.angle, root.angle);
	spring_vec2 from = rig->root_step.position;
	for (int c = 0; c < rig->chain_count; c++) {
		rig_chain *ch = &rig->chains[c];
		spring_xform2 moved = ch->root;
		moved.position = spring_vec2_add(root.position, spring_vec2_rotate(spring_vec2_sub(ch->root.position, from), da));
		moved.angle = spring_angle_wrap(ch->root.angle + da);
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			spring_chain2d_teleport(ch->angle, moved);
		} else {
			spring_vec3 pivot = spring_vec3_make(from.x, from.y, 0.0f);
			spring_chain_rotate(ch->tip, spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), da), pivot);
			spring_vec2 shift = spring_vec2_sub(root.position, from);
			spring_chain_translate(ch->tip, spring_vec3_make(shift.x, shift.y, 0.0f));
		}
		ch->root = moved;
	}
	rig->root_input = root;
	rig->root_prev_input = root;
	rig->root_step = root;
	rig->root_step_prev = root;
	forward(rig, root, rig->final_local, rig->world);
	forward(rig, root, rig->local, rig->base_world);
	return SPRING_OK;
}

spring_result spring_rig_reset(spring_rig *rig)
{
	if (!rig) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	// Snap every chain to rest on the current base pose (clips + IK of the last step).
	for (int c = 0; c < rig->chain_count; c++) {
		rig_chain *ch = &rig->chains[c];
		const int *bones = &rig->chain_bones[ch->first_index];
		spring_xform2 root = chain_root(rig, ch, rig->base_world);
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			spring_chain2d_reset(ch->angle, root);
		} else {
			int par = rig->parent[bones[0]];
			spring_xform2 parent_world = par < 0 ? rig->root_step : rig->base_world[par];
			parent_world.scale = spring_vec2_make(1.0f, 1.0f);
			spring_chain_reset(ch->tip, to_xform3(parent_world));
		}
		ch->root = root;
		for (int i = 0; i < ch->bone_count; i++) {
			rig->final_local[bones[i]] = rig->local[bones[i]];
		}
	}
	// The base pose becomes the output with no interpolation streak.
	sample_pose(rig, rig->clip_time);
	solve_ik(rig, rig->world);
	memcpy(rig->final_local, rig->local, (size_t)rig->bone_count * sizeof(spring_xform2));
	memcpy(rig->final_local_prev, rig->local, (size_t)rig->bone_count * sizeof(spring_xform2));
	rig->root_step_prev = rig->root_step;
	forward(rig, rig->root_step, rig->local, rig->world);
	memcpy(rig->base_world, rig->world, (size_t)rig->bone_count * sizeof(spring_xform2));
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
	return rig && bone >= 0 && bone < rig->bone_count ? rig->names[bone] : NULL;
}

int spring_rig_bone_parent(const spring_rig *rig, int bone)
{
	return rig && bone >= 0 && bone < rig->bone_count ? rig->parent[bone] : -1;
}

float spring_rig_bone_length(const spring_rig *rig, int bone)
{
	return rig && bone >= 0 && bone < rig->bone_count ? rig->length[bone] : 0.0f;
}

spring_result spring_rig_get_local(const spring_rig *rig, spring_xform2 *local, int capacity)
{
	if (!rig || !local || capacity < rig->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	float a = rig->clock.alpha;
	for (int i = 0; i < rig->bone_count; i++) {
		local[i] = xform2_lerp(rig->final_local_prev[i], rig->final_local[i], a);
	}
	return SPRING_OK;
}

spring_result spring_rig_get_world(const spring_rig *rig, spring_xform2 *world, int capacity)
{
	spring_result r = spring_rig_get_local(rig, world, capacity);
	if (r != SPRING_OK) {
		return r;
	}
	spring_xform2 root = xform2_lerp(rig->root_step_prev, rig->root_step, rig->clock.alpha);
	for (int i = 0; i < rig->bone_count; i++) {
		spring_xform2 parent = rig->parent[i] < 0 ? root : world[rig->parent[i]];
		world[i] = spring_xform2_mul(parent, world[i]);
	}
	return SPRING_OK;
}

spring_result spring_rig_get_stepped_world(const spring_rig *rig, spring_xform2 *world, int capacity)
{
	if (!rig || !world || capacity < rig->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	memcpy(world, rig->world, (size_t)rig->bone_count * sizeof(spring_xform2));
	return SPRING_OK;
}

spring_result spring_rig_get_stepped_local(const spring_rig *rig, spring_xform2 *local, int capacity)
{
	if (!rig || !local || capacity < rig->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	memcpy(local, rig->final_local, (size_t)rig->bone_count * sizeof(spring_xform2));
	return SPRING_OK;
}

spring_result spring_rig_get_base_world(const spring_rig *rig, spring_xform2 *world, int capacity)
{
	if (!rig || !world || capacity < rig->bone_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	memcpy(world, rig->base_world, (size_t)rig->bone_count * sizeof(spring_xform2));
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
	return n;
}

int spring_rig_chain_count(const spring_rig *rig)
{
	return rig ? rig->chain_count : 0;
}

const char *spring_rig_chain_name(const spring_rig *rig, int chain)
{
	return rig && chain >= 0 && chain < rig->chain_count ? rig->chains[chain].name : NULL;
}

int spring_rig_chain_bones(const spring_rig *rig, int chain, int *bones, int capacity)
{
	if (!rig || chain < 0 || chain >= rig->chain_count) {
		return 0;
	}
	const rig_chain *ch = &rig->chains[chain];
	for (int i = 0; i < ch->bone_count && i < capacity && bones; i++) {
		bones[i] = rig->chain_bones[ch->first_index + i];
	}
	return ch->bone_count;
}

int spring_rig_clip_count(const spring_rig *rig)
{
	return rig ? rig->clip_count : 0;
}

const char *spring_rig_clip_name(const spring_rig *rig, int clip)
{
	return rig && clip >= 0 && clip < rig->clip_count ? rig->clips[clip].name : NULL;
}

float spring_rig_clip_duration(const spring_rig *rig, int clip)
{
	return rig && clip >= 0 && clip < rig->clip_count ? rig->clips[clip].duration : 0.0f;
}

int spring_rig_ik_count(const spring_rig *rig)
{
	return rig ? rig->ik_count : 0;
}

const spring_clock *spring_rig_clock(const spring_rig *rig)
{
	return rig ? &rig->clock : NULL;
}

float spring_rig_time(const spring_rig *rig)
{
	return rig ? (float)rig->clip_time : 0.0f;
}
