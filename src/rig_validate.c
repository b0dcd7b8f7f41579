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
		spring_internal_fail_at(e, r, "rig", index >= 0 ? spring_rig_internal_element_of(kind) : SPRING_ELEMENT_NONE, index, field, "%s",
		                        text);
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

#define Q(name) quoted(q1, sizeof q1, name)
#define Q2(name) quoted(q2, sizeof q2, name)

static const char *quoted(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "\"%s\"", name ? name : "");
	return buf;
}

static spring_result fail_path(spring_error *e, spring_result r, const spring_error_step *path, int depth, const char *field,
                               const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

static spring_result fail_path(spring_error *e, spring_result r, const spring_error_step *path, int depth, const char *field,
                               const char *fmt, ...)
{
	if (e) {
		char text[160];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(text, sizeof text, fmt, ap);
		va_end(ap);
		spring_internal_fail(e, r, "rig", path, depth, field, "%s", text);
	}
	return r;
}

static bool in_coord(float x)
{
	return spring_is_finite(x) && x >= -SPRING_RIG_MAX_COORDINATE && x <= SPRING_RIG_MAX_COORDINATE;
}

static bool name_has_control(const char *name)
{
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			return true;
		}
	}
	return false;
}

// A name: present, 1..SPRING_RIG_MAX_NAME bytes, no control characters.
static spring_result check_name(spring_error *e, const char *kind, int index, const char *name)
{
	if (!name) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, kind, index, "name", "name is missing (NULL)");
	}
	size_t n = strlen(name);
	if (n == 0) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, kind, index, "name", "name must not be empty");
	}
	if (n > SPRING_RIG_MAX_NAME) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, kind, index, "name", "name is longer than %d bytes (got %zu)", SPRING_RIG_MAX_NAME, n);
	}
	if (name_has_control(name)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, kind, index, "name", "name must not contain control characters");
	}
	return SPRING_OK;
}

// Is `bone` equal to or a descendant of `ancestor` (parents already validated)?
static bool descends(const spring_rig_desc *d, int bone, int ancestor)
{
	for (int b = bone; b >= 0; b = d->bones[b].parent) {
		if (b == ancestor) {
			return true;
		}
	}
	return false;
}

static spring_result validate_scale(spring_error *e, const char *kind, int index, const char *field, spring_vec2 scale)
{
	bool zero_x = scale.x == 0.0f, zero_y = scale.y == 0.0f;
	if (zero_x != zero_y) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, kind, index, field, "%s must not be 0 (a zero scale collapses the bone; 0, 0 "
		            "means 1, 1)", zero_x ? "x" : "y");
	}
	return SPRING_OK;
}

static spring_result validate_bones(const spring_rig_desc *d, spring_error *e)
{
	char q1[80], q2[80];
	for (int i = 0; i < d->bone_count; i++) {
		const spring_rig_bone_desc *b = &d->bones[i];
		spring_result r = check_name(e, "bone", i, b->name);
		if (r != SPRING_OK) {
			return r;
		}
		for (int j = 0; j < i; j++) {
			if (strcmp(d->bones[j].name, b->name) == 0) {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "name", "duplicate bone name %s", Q(b->name));
				spring_internal_error_other(e, SPRING_ELEMENT_BONE, j);
				return SPRING_ERROR_BAD_DEFINITION;
			}
		}
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_rig_bone_desc *b = &d->bones[i];
		if (b->parent == i) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent", "bone %s is its own parent", Q(b->name));
		}
		if (b->parent < -1 || b->parent >= d->bone_count) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "bone", i, "parent", "parent must be -1 (a root bone) or a bone index (got %d)",
			            b->parent);
		}
		if (b->parent > i) {
			// A cycle through this bone, or a parent listed after its child.
			char text[160] = "";
			int p = b->parent, steps = 0;
			while (p > i && steps++ < d->bone_count) {
				p = d->bones[p].parent;
			}
			if (p == i) {
				size_t used = (size_t)snprintf(text, sizeof text, "%s", b->name);
				for (int q = b->parent; used < sizeof text; q = d->bones[q].parent) {
					used += (size_t)snprintf(text + used, sizeof text - used, " -> %s", d->bones[q].name);
					if (q == i) {
						break;
					}
				}
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent", "cycle through bones %s", text);
			} else {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent", "parent %s is listed after this bone: list parents before their children", Q(d->bones[b->parent].name));
			}
			spring_internal_error_other(e, SPRING_ELEMENT_BONE, b->parent);
			return SPRING_ERROR_BAD_DEFINITION;
		}
		if (!spring_is_finite(b->length)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "bone", i, "length", "length must be finite");
		}
		if (b->length < 0.0f || b->length > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "bone", i, "length", "length must be in [0, %g] (got %g)",
			            (double)SPRING_RIG_MAX_COORDINATE, (double)b->length);
		}
		if (!spring_rig_internal_xform2_finite(b->setup)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "bone", i, "setup", "setup must be finite");
		}
		if (!in_coord(b->setup.position.x) || !in_coord(b->setup.position.y) || !in_coord(b->setup.scale.x) ||
		    !in_coord(b->setup.scale.y)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "bone", i, "setup", "position and scale must be within +-%g",
			            (double)SPRING_RIG_MAX_COORDINATE);
		}
		spring_result r = validate_scale(e, "bone", i, "setup", b->setup.scale);
		if (r != SPRING_OK) {
			return r;
		}
	}
	(void)q2;
	return SPRING_OK;
}

static spring_result validate_track(const spring_rig_desc *d, int c, int t, spring_error *e)
{
	const spring_rig_clip_desc *cl = &d->clips[c];
	const spring_rig_track *tr = &cl->tracks[t];
	spring_error_step at[3] = {{SPRING_ELEMENT_CLIP, c}, {SPRING_ELEMENT_TRACK, t}, {SPRING_ELEMENT_KEY, 0}};
	char q1[80], q2[80];
	if (tr->bone < 0 || tr->bone >= d->bone_count) {
		return fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, 2, "bone", "bone does not exist (got %d)", tr->bone);
	}
	if ((int)tr->type < 0 || (int)tr->type > (int)SPRING_RIG_TRACK_SCALE) {
		return fail_path(e, SPRING_ERROR_INVALID_ARGUMENT, at, 2, "type", "type is unknown (got %d)", (int)tr->type);
	}
	static const char *const type_names[] = {"rotate", "translate", "scale"};
	for (int o = 0; o < t; o++) {
		if (cl->tracks[o].bone == tr->bone && cl->tracks[o].type == tr->type) {
			fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, 2, "", "duplicate track: bone %s already has a %s track in this clip",
			          Q(d->bones[tr->bone].name), type_names[tr->type]);
			spring_internal_error_other(e, SPRING_ELEMENT_TRACK, o);
			return SPRING_ERROR_BAD_DEFINITION;
		}
	}
	if (tr->key_count < 1 || tr->key_count > SPRING_RIG_MAX_KEYS || !tr->keys) {
		return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 2, "keys", "a track needs 1..%d keys (got %d)", SPRING_RIG_MAX_KEYS,
		                 tr->keys ? tr->key_count : 0);
	}
	for (int k = 0; k < tr->key_count; k++) {
		const spring_rig_key *key = &tr->keys[k];
		at[2].index = k;
		if (!spring_is_finite(key->time)) {
			return fail_path(e, SPRING_ERROR_NOT_FINITE, at, 3, "time", "time must be finite");
		}
		if (key->time < 0.0f || key->time > SPRING_RIG_MAX_COORDINATE) {
			return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 3, "time", "time must be in [0, %g] (got %g)",
			                 (double)SPRING_RIG_MAX_COORDINATE, (double)key->time);
		}
		if (k > 0 && !(key->time > tr->keys[k - 1].time)) {
			return fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, 3, "time", "key times must increase (%.9g after %.9g)",
			                 (double)key->time, (double)tr->keys[k - 1].time);
		}
		if (!in_coord(key->value[0]) || !in_coord(key->value[1])) {
			return fail_path(e, spring_is_finite(key->value[0]) && spring_is_finite(key->value[1]) ? SPRING_ERROR_OUT_OF_RANGE
			                                                                                        : SPRING_ERROR_NOT_FINITE,
			                 at, 3, "value", "value must be finite and within +-%g", (double)SPRING_RIG_MAX_COORDINATE);
		}
		if (tr->type == SPRING_RIG_TRACK_SCALE) {
			spring_vec2 sc = {key->value[0], key->value[1]};
			if ((sc.x == 0.0f) != (sc.y == 0.0f)) {
				return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 3, "value", "%s must not be 0 (a zero scale collapses the bone)",
				                 sc.x == 0.0f ? "x" : "y");
			}
		}
		if ((int)key->curve < 0 || (int)key->curve > (int)SPRING_RIG_CURVE_BEZIER) {
			return fail_path(e, SPRING_ERROR_INVALID_ARGUMENT, at, 3, "curve", "curve is unknown (got %d)", (int)key->curve);
		}
		if (key->curve == SPRING_RIG_CURVE_BEZIER) {
			for (int q = 0; q < 4; q++) {
				if (!spring_is_finite(key->bezier[q])) {
					return fail_path(e, SPRING_ERROR_NOT_FINITE, at, 3, "bezier", "bezier must be finite");
				}
			}
			for (int q = 0; q < 4; q += 2) {
				if (key->bezier[q] < 0.0f || key->bezier[q] > 1.0f) {
					return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 3, q == 0 ? "bezier[0]" : "bezier[2]", "x%d must be in [0, 1] (got %g)", q / 2 + 1,
					                 (double)key->bezier[q]);
				}
			}
		}
	}
	(void)q2;
	return SPRING_OK;
}

static spring_result validate_clips(const spring_rig_desc *d, spring_error *e)
{
	for (int c = 0; c < d->clip_count; c++) {
		const spring_rig_clip_desc *cl = &d->clips[c];
		char q1[80];
		spring_result r = check_name(e, "clip", c, cl->name);
		if (r != SPRING_OK) {
			return r;
		}
		for (int j = 0; j < c; j++) {
			if (strcmp(d->clips[j].name, cl->name) == 0) {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "clip", c, "name", "duplicate clip name %s", Q(cl->name));
				spring_internal_error_other(e, SPRING_ELEMENT_CLIP, j);
				return SPRING_ERROR_BAD_DEFINITION;
			}
		}
		if (!spring_is_finite(cl->duration) || !(cl->duration > 0.0f) || cl->duration > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(e, spring_is_finite(cl->duration) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, "clip", c,
			            "duration", "duration must be in (0, %g] seconds (got %g)", (double)SPRING_RIG_MAX_COORDINATE, (double)cl->duration);
		}
		if (cl->track_count < 0 || cl->track_count > SPRING_RIG_MAX_TRACKS || (cl->track_count > 0 && !cl->tracks)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "track_count", "track_count must be in 0..%d with tracks given (got %d)",
			            SPRING_RIG_MAX_TRACKS, cl->track_count);
		}
		if (cl->event_count < 0 || cl->event_count > SPRING_RIG_MAX_EVENTS || (cl->event_count > 0 && !cl->events)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "event_count", "event_count must be in 0..%d with events given (got %d)",
			            SPRING_RIG_MAX_EVENTS, cl->event_count);
		}
		for (int t = 0; t < cl->track_count; t++) {
			r = validate_track(d, c, t, e);
			if (r != SPRING_OK) {
				return r;
			}
		}
		for (int v = 0; v < cl->event_count; v++) {
			const spring_rig_event *ev = &cl->events[v];
			spring_error_step at[2] = {{SPRING_ELEMENT_CLIP, c}, {SPRING_ELEMENT_EVENT, v}};
			if (!ev->name || !ev->name[0] || strlen(ev->name) > SPRING_RIG_MAX_NAME || name_has_control(ev->name)) {
				return fail_path(e, SPRING_ERROR_INVALID_ARGUMENT, at, 2, "name", "name must be 1..%d bytes without control characters", SPRING_RIG_MAX_NAME);
			}
			if (!spring_is_finite(ev->time) || !in_coord(ev->value[0]) || !in_coord(ev->value[1])) {
				return fail_path(e, spring_is_finite(ev->time) && spring_is_finite(ev->value[0]) && spring_is_finite(ev->value[1])
				                        ? SPRING_ERROR_OUT_OF_RANGE
				                        : SPRING_ERROR_NOT_FINITE,
				                 at, 2, "time", "time and payload must be finite (payload within +-%g)", (double)SPRING_RIG_MAX_COORDINATE);
			}
			if (ev->time < 0.0f || ev->time > cl->duration) {
				return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 2, "time", "time must be in [0, the clip's duration %.9g] (got %.9g)",
				                 (double)cl->duration, (double)ev->time);
			}
			if (v > 0 && ev->time < cl->events[v - 1].time) {
				return fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, 2, "time", "events must be in time order (%.9g after %.9g)",
				                 (double)ev->time, (double)cl->events[v - 1].time);
			}
		}
	}
	return SPRING_OK;
}

static spring_result validate_iks(const spring_rig_desc *d, spring_error *e)
{
	char q1[80], q2[80];
	for (int k = 0; k < d->ik_count; k++) {
		const spring_rig_ik_desc *ik = &d->iks[k];
		spring_result r = check_name(e, "ik", k, ik->name);
		if (r != SPRING_OK) {
			return r;
		}
		for (int j = 0; j < k; j++) {
			if (strcmp(d->iks[j].name, ik->name) == 0) {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "name", "duplicate IK name %s", Q(ik->name));
				spring_internal_error_other(e, SPRING_ELEMENT_IK, j);
				return SPRING_ERROR_BAD_DEFINITION;
			}
		}
		if ((int)ik->type < 0 || (int)ik->type > (int)SPRING_RIG_IK_CCD) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "ik", k, "type", "type is unknown (%d)", (int)ik->type);
		}
		if (ik->first_bone < 0 || ik->first_bone >= d->bone_count) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "first_bone", "first_bone does not exist (got %d)", ik->first_bone);
		}
		if (ik->last_bone < 0 || ik->last_bone >= d->bone_count) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last_bone", "last_bone does not exist (got %d)", ik->last_bone);
		}
		const char *first = d->bones[ik->first_bone].name, *last = d->bones[ik->last_bone].name;
		if (ik->type == SPRING_RIG_IK_TWO_BONE) {
			const spring_rig_bone_desc *lower = &d->bones[ik->last_bone];
			if (lower->parent != ik->first_bone) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last_bone", "%s is not a child of %s: a two-bone IK needs a bone and its child", Q(last), Q2(first));
			}
			if (!(lower->length > 0.0f)) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last_bone", "%s has length 0: the lower bone of a two-bone IK needs a length > 0", Q(last));
			}
			if (lower->setup.position.x == 0.0f && lower->setup.position.y == 0.0f) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last_bone", "%s sits on the pivot of %s (x = y = 0): the upper bone of a two-bone IK needs a length", Q(last), Q2(first));
			}
		} else if (!descends(d, ik->last_bone, ik->first_bone)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last_bone", "%s does not descend from %s: a CCD IK needs a parent-linked range", Q(last), Q2(first));
		}
		if (ik->target_bone < -1 || ik->target_bone >= d->bone_count) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "target_bone", "target_bone does not exist (got %d)", ik->target_bone);
		}
		if (ik->target_bone >= 0) {
			for (int b = ik->last_bone;; b = d->bones[b].parent) {
				const char *target = d->bones[ik->target_bone].name;
				if (ik->target_bone == b) {
					return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "target_bone", "the target %s is one of this IK's bones", Q(target));
				}
				if (descends(d, ik->target_bone, b)) {
					return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "target_bone", "the target %s is moved by this IK (it descends from %s)", Q(target), Q2(d->bones[b].name));
				}
				if (b == ik->first_bone) {
					break;
				}
			}
		}
		if (!spring_is_finite(ik->mix) || ik->mix < 0.0f || ik->mix > 1.0f) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "mix", "mix must be in [0, 1] (got %g)", (double)ik->mix);
		}
		if (ik->iterations < 0 || ik->iterations > 1000) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "iterations", "iterations must be in 1..1000, 0 for 16 (got %d)", ik->iterations);
		}
		if (!spring_is_finite(ik->tolerance) || ik->tolerance < 0.0f || ik->tolerance > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "tolerance", "tolerance must be in (0, %g], 0 for 1e-4 (got %g)",
			            (double)SPRING_RIG_MAX_COORDINATE, (double)ik->tolerance);
		}
	}
	return SPRING_OK;
}

static spring_result validate_chains(const spring_rig_desc *d, spring_error *e)
{
	char q1[80], q2[80];
	for (int c = 0; c < d->chain_count; c++) {
		const spring_rig_chain_desc *ch = &d->chains[c];
		spring_result r = check_name(e, "chain", c, ch->name);
		if (r != SPRING_OK) {
			return r;
		}
		for (int j = 0; j < c; j++) {
			if (strcmp(d->chains[j].name, ch->name) == 0) {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "name", "duplicate chain name %s", Q(ch->name));
				spring_internal_error_other(e, SPRING_ELEMENT_CHAIN, j);
				return SPRING_ERROR_BAD_DEFINITION;
			}
		}
		if ((int)ch->type < 0 || (int)ch->type > (int)SPRING_RIG_CHAIN_TIP) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "chain", c, "type", "type is unknown (%d)", (int)ch->type);
		}
		if (ch->first_bone < 0 || ch->first_bone >= d->bone_count) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "first_bone", "first_bone does not exist (got %d)", ch->first_bone);
		}
		if (ch->last_bone < 0 || ch->last_bone >= d->bone_count) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "last_bone", "last_bone does not exist (got %d)", ch->last_bone);
		}
		if (!descends(d, ch->last_bone, ch->first_bone)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "last_bone", "%s does not descend from %s: a chain needs a parent-linked range", Q(d->bones[ch->last_bone].name),
			            Q2(d->bones[ch->first_bone].name));
		}
		int n = spring_rig_internal_range_bones(d, ch->first_bone, ch->last_bone, NULL, 0);
		if (n > SPRING_CHAIN_MAX_BONES) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "last_bone", "the chain has %d bones (at most %d)", n,
			            SPRING_CHAIN_MAX_BONES);
		}
		for (int b = ch->last_bone;; b = d->bones[b].parent) {
			for (int j = 0; j < c; j++) {
				const spring_rig_chain_desc *o = &d->chains[j];
				if (descends(d, o->last_bone, b) && descends(d, b, o->first_bone)) {
					spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "", "bone %s is already in chain %s: chains must not overlap",
					     Q(d->bones[b].name), Q2(o->name));
					spring_internal_error_other(e, SPRING_ELEMENT_CHAIN, j);
					return SPRING_ERROR_BAD_DEFINITION;
				}
			}
			if (!(d->bones[b].length > 0.0f)) {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "", "bone %s has length 0: every bone of a chain needs a length > 0",
				     Q(d->bones[b].name));
				spring_internal_error_other(e, SPRING_ELEMENT_BONE, b);
				return SPRING_ERROR_BAD_DEFINITION;
			}
			if (b == ch->first_bone) {
				break;
			}
		}
		if (!spring_is_finite(ch->mix) || ch->mix < 0.0f || ch->mix > 1.0f) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "mix", "mix must be in [0, 1] (got %g)", (double)ch->mix);
		}
		if (!spring_rig_internal_params_zero(ch->params) && spring_params_validate(ch->params) != SPRING_OK) {
			return spring_rig_internal_fail(e, spring_params_validate(ch->params), "chain", c, "params", "params is not a valid spring");
		}
		if (!spring_rig_internal_params_zero(ch->tip_params) && spring_params_validate(ch->tip_params) != SPRING_OK) {
			return spring_rig_internal_fail(e, spring_params_validate(ch->tip_params), "chain", c, "tip_params", "tip_params is not a valid spring");
		}
		float max_limit = ch->type == SPRING_RIG_CHAIN_ANGLE ? (float)SPRING_PI : (float)SPRING_PI * 0.99999f;
		if (!spring_is_finite(ch->limit) || ch->limit < 0.0f || ch->limit > max_limit) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "limit", "limit must be 0 (none) or in (0, %s] radians (got %g)",
			            ch->type == SPRING_RIG_CHAIN_ANGLE ? "pi" : "0.99999 pi", (double)ch->limit);
		}
		if (!spring_rig_internal_finite2(ch->gravity) || !spring_rig_internal_finite2(ch->wind)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "chain", c, spring_rig_internal_finite2(ch->gravity) ? "wind" : "gravity",
			            "must be finite");
		}
		if (ch->collider_count < 0 || ch->collider_count > SPRING_CHAIN_MAX_COLLIDERS || (ch->collider_count > 0 && !ch->colliders)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "collider_count", "collider_count must be in 0..%d with colliders given (got %d)",
			            SPRING_CHAIN_MAX_COLLIDERS, ch->collider_count);
		}
		if (ch->collider_count > 0 && ch->type != SPRING_RIG_CHAIN_TIP) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "colliders", "colliders need a tip chain");
		}
		if (!spring_is_finite(ch->tip_radius) || ch->tip_radius < 0.0f || ch->tip_radius > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "tip_radius", "tip_radius must be in [0, %g] (got %g)",
			            (double)SPRING_RIG_MAX_COORDINATE, (double)ch->tip_radius);
		}
	}
	return SPRING_OK;
}

spring_result spring_rig_internal_validate(const spring_rig_desc *d, spring_error *e)
{
	if (!d) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "desc", "desc is NULL");
	}
	if (d->bone_count < 1 || d->bone_count > SPRING_RIG_MAX_BONES) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "bone_count", "bone_count must be in 1..%d (got %d)", SPRING_RIG_MAX_BONES,
		            d->bone_count);
	}
	if (!d->bones) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "bones", "bones is NULL");
	}
	if (d->clip_count < 0 || d->clip_count > SPRING_RIG_MAX_CLIPS || (d->clip_count > 0 && !d->clips)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "clip_count", "clip_count must be in 0..%d with clips given (got %d)",
		            SPRING_RIG_MAX_CLIPS, d->clip_count);
	}
	if (d->ik_count < 0 || d->ik_count > SPRING_RIG_MAX_IK || (d->ik_count > 0 && !d->iks)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "ik_count", "ik_count must be in 0..%d with iks given (got %d)",
		            SPRING_RIG_MAX_IK, d->ik_count);
	}
	if (d->chain_count < 0 || d->chain_count > SPRING_RIG_MAX_CHAINS || (d->chain_count > 0 && !d->chains)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "chain_count", "chain_count must be in 0..%d with chains given (got %d)",
		            SPRING_RIG_MAX_CHAINS, d->chain_count);
	}
	spring_clock probe;
	spring_result r = spring_clock_init(&probe, d->step, d->max_steps);
	if (r != SPRING_OK) {
		return spring_rig_internal_fail(e, r, "rig", -1, "step", "step must be in (0, 1] s with max_steps 0..1000 (step %g)", (double)d->step);
	}
	if (!spring_rig_internal_xform2_finite(d->root)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "rig", -1, "root", "root must be finite");
	}
	r = validate_scale(e, "rig", -1, "root", d->root.scale);
	if (r == SPRING_OK) {
		r = validate_bones(d, e);
	}
	if (r == SPRING_OK) {
		r = validate_clips(d, e);
	}
	if (r == SPRING_OK) {
		r = validate_iks(d, e);
	}
	if (r == SPRING_OK) {
		r = validate_chains(d, e);
	}
	return r;
}
