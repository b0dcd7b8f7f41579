// Validation of rig descriptions: the one judge of what a description means (readers of rig
// files check only their syntax and map this module's error locations to their own).
#include "rig_internal.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Errors

spring_element spring_rig_internal_element_of(const char *kind)
{
	for (int el = 1; el < SPRING_ELEMENT_COUNT; el++) {
		if (strcmp(kind, spring_element_name((spring_element)el)) == 0) {
			return (spring_element)el;
		}
	}
	return SPRING_ELEMENT_NONE;
}

spring_result spring_rig_internal_fail(spring_error *e, spring_result r, const char *kind, int index, const char *field, const char *fmt, ...)
{
	if (e) {
		char text[160];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(text, sizeof text, fmt, ap);
		va_end(ap);
		spring_internal_fail_at(e, r, "rig", index >= 0 ? spring_rig_internal_element_of(kind) : SPRING_ELEMENT_NONE, index, field, "%s %s",
		                        field, text);
	}
	return r;
}

int spring_rig_internal_finite2(spring_vec2 v)
{
	return spring_is_finite(v.x) && spring_is_finite(v.y);
}

int spring_rig_internal_xform2_finite(spring_xform2 t)
{
	return spring_rig_internal_finite2(t.position) && spring_is_finite(t.angle) && spring_rig_internal_finite2(t.scale);
}

spring_xform2 spring_rig_internal_clean_xform(spring_xform2 t)
{
	if (t.scale.x == 0.0f && t.scale.y == 0.0f) {
		t.scale = spring_vec2_make(1.0f, 1.0f);
	}
	return t;
}

int spring_rig_internal_name_ok(const char *name)
{
	if (!name) {
		return 0;
	}
	size_t n = strlen(name);
	return n >= 1 && n <= SPRING_RIG_MAX_NAME;
}

// The bones of a parent-linked range first..last, root first; returns the count or -1.
int spring_rig_internal_range_bones(const spring_rig_desc *d, int first, int last, int *out, int capacity)
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

int spring_rig_internal_params_zero(spring_params p)
{
	return p.stiffness == 0.0f && p.damping == 0.0f && p.mass == 0.0f;
}

// ---------------------------------------------------------------------------------------------
// Validation

spring_result spring_rig_internal_validate(const spring_rig_desc *d, spring_error *e)
{
	if (!d) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "desc", "is NULL");
	}
	if (d->bone_count < 1 || d->bone_count > SPRING_RIG_MAX_BONES) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "bone_count", "must be in 1..%d (got %d)", SPRING_RIG_MAX_BONES,
		            d->bone_count);
	}
	if (!d->bones) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "bones", "is NULL");
	}
	if (d->clip_count < 0 || d->clip_count > SPRING_RIG_MAX_CLIPS || (d->clip_count > 0 && !d->clips)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "clip_count", "must be in 0..%d with clips given (got %d)",
		            SPRING_RIG_MAX_CLIPS, d->clip_count);
	}
	if (d->ik_count < 0 || d->ik_count > SPRING_RIG_MAX_IK || (d->ik_count > 0 && !d->iks)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "ik_count", "must be in 0..%d with iks given (got %d)",
		            SPRING_RIG_MAX_IK, d->ik_count);
	}
	if (d->chain_count < 0 || d->chain_count > SPRING_RIG_MAX_CHAINS || (d->chain_count > 0 && !d->chains)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "chain_count", "must be in 0..%d with chains given (got %d)",
		            SPRING_RIG_MAX_CHAINS, d->chain_count);
	}
	spring_clock probe;
	spring_result r = spring_clock_init(&probe, d->step, d->max_steps);
	if (r != SPRING_OK) {
		return spring_rig_internal_fail(e, r, "rig", -1, "step", "must be in (0, 1] s with max_steps 0..1000 (step %g)", (double)d->step);
	}
	if (!spring_rig_internal_xform2_finite(d->root)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "rig", -1, "root", "must be finite");
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_rig_bone_desc *b = &d->bones[i];
		if (!spring_rig_internal_name_ok(b->name)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "bone", i, "name", "must be 1..%d bytes", SPRING_RIG_MAX_NAME);
		}
		for (int j = 0; j < i; j++) {
			if (strcmp(d->bones[j].name, b->name) == 0) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "name", "\"%s\" is also bone %d", b->name, j);
			}
		}
		if (b->parent == i) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent", "is the bone itself (a cycle)");
		}
		if (b->parent < -1 || b->parent >= i) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent",
			            "must be an earlier bone or -1 (got %d): bones are listed parent before child", b->parent);
		}
		if (!spring_is_finite(b->length) || b->length < 0.0f) {
			return spring_rig_internal_fail(e, spring_is_finite(b->length) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, "bone", i, "length",
			            "must be finite and >= 0 (got %g)", (double)b->length);
		}
		if (!spring_rig_internal_xform2_finite(b->setup)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "bone", i, "setup", "must be finite");
		}
	}
	for (int c = 0; c < d->clip_count; c++) {
		const spring_rig_clip_desc *cl = &d->clips[c];
		if (!spring_rig_internal_name_ok(cl->name)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "name", "must be 1..%d bytes", SPRING_RIG_MAX_NAME);
		}
		for (int j = 0; j < c; j++) {
			if (strcmp(d->clips[j].name, cl->name) == 0) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "clip", c, "name", "\"%s\" is also clip %d", cl->name, j);
			}
		}
		if (!spring_is_finite(cl->duration) || !(cl->duration > 0.0f)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "duration", "must be finite and > 0 (got %g)", (double)cl->duration);
		}
		if (cl->track_count < 0 || cl->track_count > SPRING_RIG_MAX_TRACKS || (cl->track_count > 0 && !cl->tracks)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "track_count", "must be in 0..%d (got %d)", SPRING_RIG_MAX_TRACKS,
			            cl->track_count);
		}
		if (cl->event_count < 0 || cl->event_count > SPRING_RIG_MAX_EVENTS || (cl->event_count > 0 && !cl->events)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "event_count", "must be in 0..%d (got %d)", SPRING_RIG_MAX_EVENTS,
			            cl->event_count);
		}
		for (int t = 0; t < cl->track_count; t++) {
			const spring_rig_track *tr = &cl->tracks[t];
			if (tr->bone < 0 || tr->bone >= d->bone_count) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "clip", c, "tracks", "track %d: bone %d does not exist", t, tr->bone);
			}
			if ((int)tr->type < 0 || (int)tr->type > (int)SPRING_RIG_TRACK_SCALE) {
				return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "tracks", "track %d: unknown type %d", t, (int)tr->type);
			}
			if (tr->key_count < 1 || tr->key_count > SPRING_RIG_MAX_KEYS || !tr->keys) {
				return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "tracks", "track %d: key_count must be in 1..%d (got %d)", t,
				            SPRING_RIG_MAX_KEYS, tr->key_count);
			}
			for (int k = 0; k < tr->key_count; k++) {
				const spring_rig_key *key = &tr->keys[k];
				if (!spring_is_finite(key->time) || key->time < 0.0f || !spring_is_finite(key->value[0]) ||
				    !spring_is_finite(key->value[1])) {
					return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "clip", c, "tracks", "track %d key %d: time and values must be finite, time >= 0",
					            t, k);
				}
				if (k > 0 && !(key->time > tr->keys[k - 1].time)) {
					return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "clip", c, "tracks", "track %d key %d: times must increase (%g after %g)",
					            t, k, (double)key->time, (double)tr->keys[k - 1].time);
				}
				if ((int)key->curve < 0 || (int)key->curve > (int)SPRING_RIG_CURVE_BEZIER) {
					return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "tracks", "track %d key %d: unknown curve %d", t, k,
					            (int)key->curve);
				}
				if (key->curve == SPRING_RIG_CURVE_BEZIER) {
					for (int q = 0; q < 4; q++) {
						if (!spring_is_finite(key->bezier[q])) {
							return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "clip", c, "tracks", "track %d key %d: bezier must be finite", t, k);
						}
					}
					if (key->bezier[0] < 0.0f || key->bezier[0] > 1.0f || key->bezier[2] < 0.0f || key->bezier[2] > 1.0f) {
						return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "tracks", "track %d key %d: bezier x1, x2 must be in [0, 1]", t, k);
					}
				}
			}
		}
		for (int v = 0; v < cl->event_count; v++) {
			const spring_rig_event *ev = &cl->events[v];
			if (!spring_rig_internal_name_ok(ev->name)) {
				return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "clip", c, "events", "event %d: name must be 1..%d bytes", v,
				            SPRING_RIG_MAX_NAME);
			}
			if (!spring_is_finite(ev->time) || ev->time < 0.0f || !spring_is_finite(ev->value[0]) || !spring_is_finite(ev->value[1])) {
				return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "clip", c, "events", "event %d: time and payload must be finite, time >= 0", v);
			}
		}
	}
	for (int k = 0; k < d->ik_count; k++) {
		const spring_rig_ik_desc *ik = &d->iks[k];
		if ((int)ik->type < 0 || (int)ik->type > (int)SPRING_RIG_IK_CCD) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "ik", k, "type", "is unknown (%d)", (int)ik->type);
		}
		int n = spring_rig_internal_range_bones(d, ik->first_bone, ik->last_bone, NULL, 0);
		if (n < 0) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "bones", "%d..%d is not a parent-linked range", ik->first_bone,
			            ik->last_bone);
		}
		if (ik->type == SPRING_RIG_IK_TWO_BONE && n != 2) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "bones", "two-bone IK needs a bone and its child (got %d bones)", n);
		}
		if (ik->target_bone < -1 || ik->target_bone >= d->bone_count) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "target_bone", "does not exist (%d)", ik->target_bone);
		}
		if (ik->mix_set && (!spring_is_finite(ik->mix) || ik->mix < 0.0f || ik->mix > 1.0f)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "mix", "must be in [0, 1] (got %g)", (double)ik->mix);
		}
		if (ik->iterations < 0 || ik->iterations > 1000) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "iterations", "must be in 1..1000 (got %d)", ik->iterations);
		}
		if (!spring_is_finite(ik->tolerance) || ik->tolerance < 0.0f) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "tolerance", "must be finite and >= 0 (got %g)", (double)ik->tolerance);
		}
	}
	for (int c = 0; c < d->chain_count; c++) {
		const spring_rig_chain_desc *ch = &d->chains[c];
		if (!spring_rig_internal_name_ok(ch->name)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "chain", c, "name", "must be 1..%d bytes", SPRING_RIG_MAX_NAME);
		}
		for (int j = 0; j < c; j++) {
			if (strcmp(d->chains[j].name, ch->name) == 0) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "name", "\"%s\" is also chain %d", ch->name, j);
			}
		}
		if ((int)ch->type < 0 || (int)ch->type > (int)SPRING_RIG_CHAIN_TIP) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "chain", c, "type", "is unknown (%d)", (int)ch->type);
		}
		int n = spring_rig_internal_range_bones(d, ch->first_bone, ch->last_bone, NULL, 0);
		if (n < 0) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "bones", "%d..%d is not a parent-linked range", ch->first_bone,
			            ch->last_bone);
		}
		for (int j = 0; j < c; j++) {
			const spring_rig_chain_desc *o = &d->chains[j];
			for (int b = ch->last_bone;; b = d->bones[b].parent) {
				for (int q = o->last_bone;; q = d->bones[q].parent) {
					if (q == b) {
						return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "bones", "bone %d is also in chain %d", b, j);
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
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "mix", "must be in [0, 1] (got %g)", (double)ch->mix);
		}
		if (!spring_rig_internal_params_zero(ch->params) && spring_params_validate(ch->params) != SPRING_OK) {
			return spring_rig_internal_fail(e, spring_params_validate(ch->params), "chain", c, "params", "is not a valid spring");
		}
		if (!spring_rig_internal_params_zero(ch->tip_params) && spring_params_validate(ch->tip_params) != SPRING_OK) {
			return spring_rig_internal_fail(e, spring_params_validate(ch->tip_params), "chain", c, "tip_params", "is not a valid spring");
		}
		float max_limit = ch->type == SPRING_RIG_CHAIN_ANGLE ? (float)SPRING_PI : (float)SPRING_PI * 0.99999f;
		if (!spring_is_finite(ch->limit) || ch->limit < 0.0f || ch->limit > max_limit) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "limit", "must be 0 (none) or in (0, pi] radians (got %g)",
			            (double)ch->limit);
		}
		if (!spring_rig_internal_finite2(ch->gravity) || !spring_rig_internal_finite2(ch->wind)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "chain", c, "gravity", "and wind must be finite");
		}
		if (ch->collider_count < 0 || ch->collider_count > SPRING_CHAIN_MAX_COLLIDERS || (ch->collider_count > 0 && !ch->colliders)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "colliders", "count must be in 0..%d", SPRING_CHAIN_MAX_COLLIDERS);
		}
		if (ch->collider_count > 0 && ch->type != SPRING_RIG_CHAIN_TIP) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "colliders", "need a tip chain");
		}
		if (!spring_is_finite(ch->tip_radius) || ch->tip_radius < 0.0f) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "tip_radius", "must be finite and >= 0");
		}
	}
	return SPRING_OK;
}
