// SPDX-License-Identifier: MIT
// Validation of rig descriptions: the one judge of what a description means (readers of rig
// files check only their syntax and map this module's error locations to their own).
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "rig_internal.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
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

spring_result spring_rig_internal_fail(spring_error *e, spring_result r, const char *kind, int index, const char *field,
                                       const char *fmt, ...)
{
	spring_error_step at = {index >= 0 ? spring_rig_internal_element_of(kind) : SPRING_ELEMENT_NONE, index};
	va_list args;
	va_start(args, fmt);
	spring_internal_fail_v(e, r, "rig", &at, index >= 0 ? 1 : 0, field, fmt, args);
	va_end(args);
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

// FNV-1a of a name: the first slot to look at.
static unsigned name_hash(const char *name)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h = (h ^ *p) * 16777619u;
	}
	return (unsigned)(h & (RIG_NAME_SLOTS - 1u));
}

// The slot holding `name`, or the empty slot where it would go (linear probing; the index is at
// most half full, so a slot is always found).
static unsigned name_slot(const spring_rig_desc *d, rig_refs *refs, const char *name)
{
	unsigned s = name_hash(name);
	while (refs->name_slot[s] != 0) {
		refs->name_compares++;
		if (strcmp(d->bones[refs->name_slot[s] - 1].name, name) == 0) {
			break;
		}
		s = (s + 1u) & (RIG_NAME_SLOTS - 1u);
	}
	return s;
}

int spring_rig_internal_find_bone(const spring_rig_desc *d, rig_refs *refs, const char *name)
{
	return name ? refs->name_slot[name_slot(d, refs, name)] - 1 : -1;
}

void spring_rig_internal_resolve(const spring_rig_desc *d, rig_refs *refs)
{
	memset(refs->name_slot, 0, sizeof refs->name_slot);
	refs->name_compares = 0;
	for (int i = 0; i < d->bone_count; i++) {
		if (d->bones[i].name) {
			unsigned s = name_slot(d, refs, d->bones[i].name);
			if (refs->name_slot[s] == 0) { // a later bone of the same name is not found by name
				refs->name_slot[s] = (int16_t)(i + 1);
			}
		}
	}
	for (int i = 0; i < d->bone_count; i++) {
		refs->parent[i] = spring_rig_internal_find_bone(d, refs, d->bones[i].parent);
	}
	for (int k = 0; k < d->ik_count; k++) {
		refs->ik[k][0] = spring_rig_internal_find_bone(d, refs, d->iks[k].first);
		refs->ik[k][1] = spring_rig_internal_find_bone(d, refs, d->iks[k].last);
		refs->ik[k][2] = spring_rig_internal_find_bone(d, refs, d->iks[k].target);
	}
	for (int c = 0; c < d->chain_count; c++) {
		refs->chain[c][0] = spring_rig_internal_find_bone(d, refs, d->chains[c].first);
		refs->chain[c][1] = spring_rig_internal_find_bone(d, refs, d->chains[c].last);
	}
}

int spring_rig_internal_range_bones(const int *parent, int bone_count, int first, int last, int *out, int capacity)
{
	if (first < 0 || last < 0 || first >= bone_count || last >= bone_count) {
		return -1;
	}
	int n = 0;
	for (int b = last; b >= 0 && n <= bone_count; b = parent[b]) {
		n++;
		if (b == first) {
			break;
		}
		if (parent[b] < 0) {
			return -1; // reached a root without meeting `first`
		}
	}
	if (n > bone_count || (n > capacity && out)) {
		return -1;
	}
	if (out) {
		int b = last;
		for (int i = n - 1; i >= 0; i--) {
			out[i] = b;
			b = parent[b];
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
	va_list args;
	va_start(args, fmt);
	spring_internal_fail_v(e, r, "rig", path, depth, field, fmt, args);
	va_end(args);
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
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, kind, index, "name",
		                                "name is longer than %d bytes (got %zu)", SPRING_RIG_MAX_NAME, n);
	}
	if (name_has_control(name)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, kind, index, "name",
		                                "name must not contain control characters");
	}
	return SPRING_OK;
}

// The name of element `index` of a list whose elements start at `first`, `stride` bytes apart,
// each with its name at `offset`: present, well formed and unlike every earlier one.
static spring_result check_list_name(spring_error *e, const char *kind, const char *what, int index, const void *first,
                                     size_t stride, size_t offset)
{
	const unsigned char *base = (const unsigned char *)first;
	const char *name = *(const char *const *)(const void *)(base + (size_t)index * stride + offset);
	spring_result r = check_name(e, kind, index, name);
	for (int j = 0; j < index && r == SPRING_OK; j++) {
		const char *other = *(const char *const *)(const void *)(base + (size_t)j * stride + offset);
		if (strcmp(other, name) == 0) {
			char q1[80];
			spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, kind, index, "name", "duplicate %s name %s", what, Q(name));
			spring_internal_error_other(e, spring_rig_internal_element_of(kind), j);
			return SPRING_ERROR_BAD_DEFINITION;
		}
	}
	return r;
}
#define CHECK_LIST_NAME(e, kind, what, list, type, index) \
	check_list_name(e, kind, what, index, list, sizeof(type), offsetof(type, name))

// Is `bone` equal to or a descendant of `ancestor` (parents already validated)?
static bool descends(const int *parent, int bone, int ancestor)
{
	for (int b = bone; b >= 0; b = parent[b]) {
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
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, kind, index, field,
		                                "%s must not be 0 (a zero scale collapses the bone; 0, 0 "
		                                "means 1, 1)",
		                                zero_x ? "x" : "y");
	}
	return SPRING_OK;
}

// A bone reference that names no bone: the message suggests the closest name, which also becomes
// the error's other element.
static spring_result unknown_bone(const spring_rig_desc *d, spring_error *e, const spring_error_step *at, int depth,
                                  const char *field, const char *name)
{
	const char *names[SPRING_RIG_MAX_BONES];
	for (int i = 0; i < d->bone_count; i++) {
		names[i] = d->bones[i].name;
	}
	int hint = spring_closest_name(name, names, d->bone_count);
	char q1[80], q2[80];
	if (hint >= 0) {
		fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, depth, field, "unknown bone %s (did you mean %s?)", Q(name),
		          Q2(names[hint]));
		spring_internal_error_other(e, SPRING_ELEMENT_BONE, hint);
		return SPRING_ERROR_BAD_DEFINITION;
	}
	return fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, depth, field, "unknown bone %s", Q(name));
}

// A required reference (`name` non-NULL) or an optional one (NULL: none) that must name a bone.
static spring_result check_ref(const spring_rig_desc *d, spring_error *e, const spring_error_step *at, int depth,
                               const char *field, const char *name, int resolved, bool required)
{
	if (!name) {
		return required ? fail_path(e, SPRING_ERROR_INVALID_ARGUMENT, at, depth, field, "%s is missing (NULL)", field)
		                : SPRING_OK;
	}
	return resolved < 0 ? unknown_bone(d, e, at, depth, field, name) : SPRING_OK;
}

static spring_result validate_bones(const spring_rig_desc *d, rig_refs *refs, spring_error *e)
{
	char q1[80], q2[80];
	for (int i = 0; i < d->bone_count; i++) {
		// As check_list_name, the earlier bone of the same name found through the index.
		spring_result r = check_name(e, "bone", i, d->bones[i].name);
		if (r != SPRING_OK) {
			return r;
		}
		int first = spring_rig_internal_find_bone(d, refs, d->bones[i].name);
		if (first != i) {
			spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "name", "duplicate bone name %s",
			                         Q(d->bones[i].name));
			spring_internal_error_other(e, SPRING_ELEMENT_BONE, first);
			return SPRING_ERROR_BAD_DEFINITION;
		}
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_rig_bone_desc *b = &d->bones[i];
		spring_error_step at = {SPRING_ELEMENT_BONE, i};
		int parent = refs->parent[i];
		spring_result r = check_ref(d, e, &at, 1, "parent", b->parent, parent, false);
		if (r != SPRING_OK) {
			return r;
		}
		if (parent == i) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent", "bone %s is its own parent",
			                                Q(b->name));
		}
		if (parent > i) {
			// A cycle through this bone, or a parent listed after its child.
			char text[160] = "";
			int p = parent, steps = 0;
			while (p > i && steps++ < d->bone_count) {
				p = refs->parent[p];
			}
			if (p == i) {
				size_t used = (size_t)snprintf(text, sizeof text, "%s", b->name);
				for (int q = parent; used < sizeof text; q = refs->parent[q]) {
					used += (size_t)snprintf(text + used, sizeof text - used, " -> %s", d->bones[q].name);
					if (q == i) {
						break;
					}
				}
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent", "cycle through bones %s", text);
			} else {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "bone", i, "parent",
				                         "parent %s is listed after this bone: list parents before their children", Q(b->parent));
			}
			spring_internal_error_other(e, SPRING_ELEMENT_BONE, parent);
			return SPRING_ERROR_BAD_DEFINITION;
		}
		if (!spring_is_finite(b->length)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "bone", i, "length", "length must be finite");
		}
		if (b->length < 0.0f || b->length > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "bone", i, "length",
			                                "length must be in [0, %g] (got %g)", (double)SPRING_RIG_MAX_COORDINATE,
			                                (double)b->length);
		}
		if (!spring_rig_internal_xform2_finite(b->setup)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "bone", i, "setup", "setup must be finite");
		}
		if (!in_coord(b->setup.position.x) || !in_coord(b->setup.position.y) || !in_coord(b->setup.scale.x) ||
		    !in_coord(b->setup.scale.y)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "bone", i, "setup",
			                                "position and scale must be within +-%g", (double)SPRING_RIG_MAX_COORDINATE);
		}
		r = validate_scale(e, "bone", i, "setup", b->setup.scale);
		if (r != SPRING_OK) {
			return r;
		}
	}
	(void)q2;
	return SPRING_OK;
}

// Per bone and track type, the last track of that kind seen: clip * SPRING_RIG_MAX_TRACKS + track
// + 1 (0: none), so that a duplicate track is found in constant time.
typedef int track_seen[SPRING_RIG_MAX_BONES * 3];

static spring_result validate_track(const spring_rig_desc *d, rig_refs *refs, int *seen, int c, int t, spring_error *e)
{
	const spring_rig_clip_desc *cl = &d->clips[c];
	const spring_rig_track *tr = &cl->tracks[t];
	spring_error_step at[3] = {{SPRING_ELEMENT_CLIP, c}, {SPRING_ELEMENT_TRACK, t}, {SPRING_ELEMENT_KEY, 0}};
	char q1[80], q2[80];
	int bone = spring_rig_internal_find_bone(d, refs, tr->bone);
	spring_result r = check_ref(d, e, at, 2, "bone", tr->bone, bone, true);
	if (r != SPRING_OK) {
		return r;
	}
	if ((int)tr->type < 0 || (int)tr->type >= (int)SPRING_RIG_TRACK_COUNT) {
		return fail_path(e, SPRING_ERROR_INVALID_ARGUMENT, at, 2, "type", "type is unknown (got %d)", (int)tr->type);
	}
	static const char *const type_names[] = {"rotate", "translate", "scale"};
	int *last = &seen[bone * 3 + (int)tr->type], from = c * SPRING_RIG_MAX_TRACKS;
	if (*last > from) { // a track of this clip: the first earlier one of the same bone and kind
		fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, 2, "", "duplicate track: bone %s already has a %s track in this clip",
		          Q(tr->bone), type_names[tr->type]);
		spring_internal_error_other(e, SPRING_ELEMENT_TRACK, *last - 1 - from);
		return SPRING_ERROR_BAD_DEFINITION;
	}
	*last = from + t + 1;
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
			return fail_path(e,
			                 spring_is_finite(key->value[0]) && spring_is_finite(key->value[1]) ? SPRING_ERROR_OUT_OF_RANGE
			                                                                                    : SPRING_ERROR_NOT_FINITE,
			                 at, 3, "value", "value must be finite and within +-%g", (double)SPRING_RIG_MAX_COORDINATE);
		}
		if (tr->type == SPRING_RIG_TRACK_SCALE) {
			spring_vec2 sc = {key->value[0], key->value[1]};
			if ((sc.x == 0.0f) != (sc.y == 0.0f)) {
				return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 3, "value",
				                 "%s must not be 0 (a zero scale collapses the bone)", sc.x == 0.0f ? "x" : "y");
			}
		}
		if ((int)key->curve < 0 || (int)key->curve >= (int)SPRING_RIG_CURVE_COUNT) {
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
					return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 3, q == 0 ? "bezier[0]" : "bezier[2]",
					                 "x%d must be in [0, 1] (got %g)", q / 2 + 1, (double)key->bezier[q]);
				}
			}
		}
	}
	(void)q2;
	return SPRING_OK;
}

static spring_result validate_clips(const spring_rig_desc *d, rig_refs *refs, spring_error *e)
{
	track_seen seen;
	memset(seen, 0, sizeof seen);
	size_t keys = 0; // of the clips so far: at most SPRING_RIG_MAX_TOTAL_KEYS + 2048 * 65536, no wrap
	for (int c = 0; c < d->clip_count; c++) {
		const spring_rig_clip_desc *cl = &d->clips[c];
		spring_result r = CHECK_LIST_NAME(e, "clip", "clip", d->clips, spring_rig_clip_desc, c);
		if (r != SPRING_OK) {
			return r;
		}
		if (!spring_is_finite(cl->duration) || !(cl->duration > 0.0f) || cl->duration > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(
				e, spring_is_finite(cl->duration) ? SPRING_ERROR_OUT_OF_RANGE : SPRING_ERROR_NOT_FINITE, "clip", c, "duration",
				"duration must be in (0, %g] seconds (got %g)", (double)SPRING_RIG_MAX_COORDINATE, (double)cl->duration);
		}
		if (cl->track_count < 0 || cl->track_count > SPRING_RIG_MAX_TRACKS || (cl->track_count > 0 && !cl->tracks)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "track_count",
			                                "track_count must be in 0..%d with tracks given (got %d)", SPRING_RIG_MAX_TRACKS,
			                                cl->track_count);
		}
		if (cl->event_count < 0 || cl->event_count > SPRING_RIG_MAX_EVENTS || (cl->event_count > 0 && !cl->events)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "event_count",
			                                "event_count must be in 0..%d with events given (got %d)", SPRING_RIG_MAX_EVENTS,
			                                cl->event_count);
		}
		// The total first, before any of this clip's keys is looked at (each count is checked by
		// validate_track).
		for (int t = 0; t < cl->track_count; t++) {
			int n = cl->tracks[t].key_count;
			keys += n > 0 && n <= SPRING_RIG_MAX_KEYS ? (size_t)n : 0u;
		}
		if (keys > SPRING_RIG_MAX_TOTAL_KEYS) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "clip", c, "track_count",
			                                "the clips up to this one hold %zu keys in all, more than the %d a rig takes", keys,
			                                SPRING_RIG_MAX_TOTAL_KEYS);
		}
		for (int t = 0; t < cl->track_count; t++) {
			r = validate_track(d, refs, seen, c, t, e);
			if (r != SPRING_OK) {
				return r;
			}
		}
		for (int v = 0; v < cl->event_count; v++) {
			const spring_rig_event *ev = &cl->events[v];
			spring_error_step at[2] = {{SPRING_ELEMENT_CLIP, c}, {SPRING_ELEMENT_EVENT, v}};
			if (!ev->name || !ev->name[0] || strlen(ev->name) > SPRING_RIG_MAX_NAME || name_has_control(ev->name)) {
				return fail_path(e, SPRING_ERROR_INVALID_ARGUMENT, at, 2, "name",
				                 "name must be 1..%d bytes without control characters", SPRING_RIG_MAX_NAME);
			}
			if (!spring_is_finite(ev->time) || !in_coord(ev->value[0]) || !in_coord(ev->value[1])) {
				return fail_path(e,
				                 spring_is_finite(ev->time) && spring_is_finite(ev->value[0]) && spring_is_finite(ev->value[1])
				                     ? SPRING_ERROR_OUT_OF_RANGE
				                     : SPRING_ERROR_NOT_FINITE,
				                 at, 2, "time", "time and payload must be finite (payload within +-%g)",
				                 (double)SPRING_RIG_MAX_COORDINATE);
			}
			if (ev->time < 0.0f || ev->time > cl->duration) {
				return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, at, 2, "time",
				                 "time must be in [0, the clip's duration %.9g] (got %.9g)", (double)cl->duration,
				                 (double)ev->time);
			}
			if (v > 0 && ev->time < cl->events[v - 1].time) {
				return fail_path(e, SPRING_ERROR_BAD_DEFINITION, at, 2, "time", "events must be in time order (%.9g after %.9g)",
				                 (double)ev->time, (double)cl->events[v - 1].time);
			}
		}
	}
	return SPRING_OK;
}

static spring_result validate_iks(const spring_rig_desc *d, const rig_refs *refs, spring_error *e)
{
	char q1[80], q2[80];
	for (int k = 0; k < d->ik_count; k++) {
		const spring_rig_ik_desc *ik = &d->iks[k];
		spring_result r = CHECK_LIST_NAME(e, "ik", "IK", d->iks, spring_rig_ik_desc, k);
		if (r != SPRING_OK) {
			return r;
		}
		if ((int)ik->type < 0 || (int)ik->type >= (int)SPRING_RIG_IK_COUNT) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "ik", k, "type", "type is unknown (%d)",
			                                (int)ik->type);
		}
		spring_error_step at = {SPRING_ELEMENT_IK, k};
		int fb = refs->ik[k][0], lb = refs->ik[k][1], tb = refs->ik[k][2];
		if ((r = check_ref(d, e, &at, 1, "first", ik->first, fb, true)) != SPRING_OK ||
		    (r = check_ref(d, e, &at, 1, "last", ik->last, lb, true)) != SPRING_OK ||
		    (r = check_ref(d, e, &at, 1, "target", ik->target, tb, false)) != SPRING_OK) {
			return r;
		}
		const char *first = ik->first, *last = ik->last;
		if (ik->type == SPRING_RIG_IK_TWO_BONE) {
			const spring_rig_bone_desc *lower = &d->bones[lb];
			if (refs->parent[lb] != fb) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last",
				                                "%s is not a child of %s: a two-bone IK needs a bone and its child", Q(last),
				                                Q2(first));
			}
			if (!(lower->length > 0.0f)) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last",
				                                "%s has length 0: the lower bone of a two-bone IK needs a length > 0", Q(last));
			}
			if (lower->setup.position.x == 0.0f && lower->setup.position.y == 0.0f) {
				return spring_rig_internal_fail(
					e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last",
					"%s sits on the pivot of %s (x = y = 0): the upper bone of a two-bone IK needs a length", Q(last), Q2(first));
			}
		} else if (!descends(refs->parent, lb, fb)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "last",
			                                "%s does not descend from %s: a CCD IK needs a parent-linked range", Q(last),
			                                Q2(first));
		}
		for (int b = lb; tb >= 0; b = refs->parent[b]) {
			if (tb == b) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "target",
				                                "the target %s is one of this IK's bones", Q(ik->target));
			}
			if (descends(refs->parent, tb, b)) {
				return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "ik", k, "target",
				                                "the target %s is moved by this IK (it descends from %s)", Q(ik->target),
				                                Q2(d->bones[b].name));
			}
			if (b == fb) {
				break;
			}
		}
		if (!spring_is_finite(ik->mix) || ik->mix < 0.0f || ik->mix > 1.0f) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "mix", "mix must be in [0, 1] (got %g)",
			                                (double)ik->mix);
		}
		if (ik->iterations < 0 || ik->iterations > 1000) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "iterations",
			                                "iterations must be in 1..1000, 0 for 16 (got %d)", ik->iterations);
		}
		if (!spring_is_finite(ik->tolerance) || ik->tolerance < 0.0f || ik->tolerance > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "ik", k, "tolerance",
			                                "tolerance must be in (0, %g], 0 for 1e-4 (got %g)",
			                                (double)SPRING_RIG_MAX_COORDINATE, (double)ik->tolerance);
		}
	}
	return SPRING_OK;
}

static spring_result validate_chains(const spring_rig_desc *d, const rig_refs *refs, spring_error *e)
{
	char q1[80], q2[80];
	for (int c = 0; c < d->chain_count; c++) {
		const spring_rig_chain_desc *ch = &d->chains[c];
		spring_result r = CHECK_LIST_NAME(e, "chain", "chain", d->chains, spring_rig_chain_desc, c);
		if (r != SPRING_OK) {
			return r;
		}
		if ((int)ch->type < 0 || (int)ch->type >= (int)SPRING_RIG_CHAIN_COUNT) {
			return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "chain", c, "type", "type is unknown (%d)",
			                                (int)ch->type);
		}
		spring_error_step at = {SPRING_ELEMENT_CHAIN, c};
		int fb = refs->chain[c][0], lb = refs->chain[c][1];
		if ((r = check_ref(d, e, &at, 1, "first", ch->first, fb, true)) != SPRING_OK ||
		    (r = check_ref(d, e, &at, 1, "last", ch->last, lb, true)) != SPRING_OK) {
			return r;
		}
		if (!descends(refs->parent, lb, fb)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "last",
			                                "%s does not descend from %s: a chain needs a parent-linked range", Q(ch->last),
			                                Q2(ch->first));
		}
		int n = spring_rig_internal_range_bones(refs->parent, d->bone_count, fb, lb, NULL, 0);
		if (n > SPRING_CHAIN_MAX_BONES) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "last",
			                                "the chain has %d bones (at most %d)", n, SPRING_CHAIN_MAX_BONES);
		}
		for (int b = lb;; b = refs->parent[b]) {
			for (int j = 0; j < c; j++) {
				if (descends(refs->parent, refs->chain[j][1], b) && descends(refs->parent, b, refs->chain[j][0])) {
					spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "",
					                         "bone %s is already in chain %s: chains must not overlap", Q(d->bones[b].name),
					                         Q2(d->chains[j].name));
					spring_internal_error_other(e, SPRING_ELEMENT_CHAIN, j);
					return SPRING_ERROR_BAD_DEFINITION;
				}
			}
			if (!(d->bones[b].length > 0.0f)) {
				spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "",
				                         "bone %s has length 0: every bone of a chain needs a length > 0", Q(d->bones[b].name));
				spring_internal_error_other(e, SPRING_ELEMENT_BONE, b);
				return SPRING_ERROR_BAD_DEFINITION;
			}
			if (b == fb) {
				break;
			}
		}
		if (!spring_is_finite(ch->mix) || ch->mix < 0.0f || ch->mix > 1.0f) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "mix", "mix must be in [0, 1] (got %g)",
			                                (double)ch->mix);
		}
		if (!spring_rig_internal_params_zero(ch->params) && spring_params_validate(ch->params) != SPRING_OK) {
			return spring_rig_internal_fail(e, spring_params_validate(ch->params), "chain", c, "params",
			                                "params is not a valid spring");
		}
		if (!spring_rig_internal_params_zero(ch->tip_params) && spring_params_validate(ch->tip_params) != SPRING_OK) {
			return spring_rig_internal_fail(e, spring_params_validate(ch->tip_params), "chain", c, "tip_params",
			                                "tip_params is not a valid spring");
		}
		// Each kind's own limit (the other kind's must be 0), 0 (none) or in (0, max].
		const bool angle = ch->type == SPRING_RIG_CHAIN_ANGLE;
		const float own = angle ? ch->limit : ch->cone_limit, other = angle ? ch->cone_limit : ch->limit;
		const char *own_name = angle ? "limit" : "cone_limit", *other_name = angle ? "cone_limit" : "limit";
		if (other != 0.0f) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, other_name,
			                                "%s is for %s chains (this one's is %s)", other_name, angle ? "tip" : "angle",
			                                own_name);
		}
		if (!spring_is_finite(own) || own < 0.0f || own > (angle ? (float)SPRING_PI : (float)SPRING_PI * 0.99999f)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, own_name,
			                                "%s must be 0 (none) or in (0, %s] radians (got %g)", own_name,
			                                angle ? "pi" : "0.99999 pi", (double)own);
		}
		if (!spring_rig_internal_finite2(ch->gravity) || !spring_rig_internal_finite2(ch->wind)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "chain", c,
			                                spring_rig_internal_finite2(ch->gravity) ? "wind" : "gravity", "must be finite");
		}
		if (ch->collider_count < 0 || ch->collider_count > SPRING_CHAIN_MAX_COLLIDERS ||
		    (ch->collider_count > 0 && !ch->colliders)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "collider_count",
			                                "collider_count must be in 0..%d with colliders given (got %d)",
			                                SPRING_CHAIN_MAX_COLLIDERS, ch->collider_count);
		}
		if (ch->collider_count > 0 && ch->type != SPRING_RIG_CHAIN_TIP) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "colliders",
			                                "colliders need a tip chain");
		}
		if (!spring_is_finite(ch->tip_radius) || ch->tip_radius < 0.0f || ch->tip_radius > SPRING_RIG_MAX_COORDINATE) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "tip_radius",
			                                "tip_radius must be in [0, %g] (got %g)", (double)SPRING_RIG_MAX_COORDINATE,
			                                (double)ch->tip_radius);
		}
		if (ch->bone_gravity_count != 0 && ch->type != SPRING_RIG_CHAIN_TIP) {
			return spring_rig_internal_fail(e, SPRING_ERROR_BAD_DEFINITION, "chain", c, "bone_gravity",
			                                "bone_gravity needs a tip chain");
		}
		if (ch->bone_gravity_count != 0 && (ch->bone_gravity_count != n || !ch->bone_gravity)) {
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "bone_gravity",
			                                "bone_gravity needs one entry per bone of the chain (%d), got %d", n,
			                                ch->bone_gravity_count);
		}
		for (int i = 0; i < ch->bone_gravity_count; i++) {
			const spring_vec2 g = ch->bone_gravity[i];
			if (!spring_rig_internal_finite2(g)) {
				return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "chain", c, "bone_gravity",
				                                "bone_gravity of the chain's bone %d must be finite", i);
			}
			if (!(fabsf(g.x) <= SPRING_CHAIN_MAX_ACCELERATION && fabsf(g.y) <= SPRING_CHAIN_MAX_ACCELERATION)) {
				return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "chain", c, "bone_gravity",
				                                "bone_gravity of the chain's bone %d must be within +-1e9 units/s^2", i);
			}
		}
	}
	return SPRING_OK;
}

// The largest magnitude a track's value can take between its keys: Bezier easing stays inside its
// control points' hull, so progress runs over [min(0, y1, y2), max(1, y1, y2)].
static double track_extent(const spring_rig_track *tr, int component)
{
	double most = 0.0;
	for (int k = 0; k < tr->key_count; k++) {
		const spring_rig_key *key = &tr->keys[k];
		double a = fabs((double)key->value[component]);
		double over = 1.0;
		if (key->curve == SPRING_RIG_CURVE_BEZIER) {
			over = fmax(over, fmax(fabs((double)key->bezier[1]), fabs((double)key->bezier[3])));
		}
		double b = k + 1 < tr->key_count ? (double)tr->keys[k + 1].value[component] : key->value[component];
		double reach = a + fabs(b - (double)key->value[component]) * over;
		most = fmax(most, reach);
	}
	return most;
}

double spring_rig_internal_reach(const spring_rig_desc *d, rig_refs *refs, int *far_bone, double *chain_reach)
{
	// Per bone, bounds on its world scale and on its pivot's distance from the root; the tip adds
	// scale * length. Rotations (clips, IK, chains) never change a distance.
	// Each bone's own bounds first (setup, then every track of it, in one pass over the tracks:
	// fmax does not depend on the order), then down the hierarchy.
	double scale[SPRING_RIG_MAX_BONES], pivot[SPRING_RIG_MAX_BONES], far_of[SPRING_RIG_MAX_BONES], reach = 0.0;
	double own_scale[SPRING_RIG_MAX_BONES], own_x[SPRING_RIG_MAX_BONES], own_y[SPRING_RIG_MAX_BONES];
	*far_bone = -1;
	for (int i = 0; i < d->bone_count; i++) {
		spring_xform2 setup = spring_rig_internal_clean_xform(d->bones[i].setup);
		own_scale[i] = fmax(fabs((double)setup.scale.x), fabs((double)setup.scale.y));
		own_x[i] = fabs((double)setup.position.x);
		own_y[i] = fabs((double)setup.position.y);
	}
	for (int c = 0; c < d->clip_count; c++) {
		for (int t = 0; t < d->clips[c].track_count; t++) {
			const spring_rig_track *tr = &d->clips[c].tracks[t];
			int i = spring_rig_internal_find_bone(d, refs, tr->bone);
			spring_xform2 setup = spring_rig_internal_clean_xform(d->bones[i].setup);
			if (tr->type == SPRING_RIG_TRACK_SCALE) {
				own_scale[i] = fmax(own_scale[i], fmax(fabs((double)setup.scale.x) * track_extent(tr, 0),
				                                       fabs((double)setup.scale.y) * track_extent(tr, 1)));
			} else if (tr->type == SPRING_RIG_TRACK_TRANSLATE) {
				own_x[i] = fmax(own_x[i], fabs((double)setup.position.x) + track_extent(tr, 0));
				own_y[i] = fmax(own_y[i], fabs((double)setup.position.y) + track_extent(tr, 1));
			}
		}
	}
	for (int i = 0; i < d->bone_count; i++) {
		const spring_rig_bone_desc *b = &d->bones[i];
		double s = own_scale[i], ox = own_x[i], oy = own_y[i];
		int p = refs->parent[i];
		double parent_scale = p < 0 ? 1.0 : scale[p];
		pivot[i] = (p < 0 ? 0.0 : pivot[p]) + parent_scale * sqrt(ox * ox + oy * oy);
		scale[i] = parent_scale * s;
		double far = pivot[i] + scale[i] * (double)b->length;
		far_of[i] = far;
		reach = fmax(reach, far);
		if (*far_bone < 0 && !(far <= (double)SPRING_RIG_MAX_REACH)) {
			*far_bone = i;
		}
	}
	for (int c = 0; chain_reach && c < d->chain_count; c++) {
		int bones[SPRING_RIG_MAX_BONES];
		int n = spring_rig_internal_range_bones(refs->parent, d->bone_count, refs->chain[c][0], refs->chain[c][1], bones,
		                                        SPRING_RIG_MAX_BONES);
		chain_reach[c] = 0.0;
		for (int k = 0; k < n; k++) {
			chain_reach[c] = fmax(chain_reach[c], far_of[bones[k]]);
		}
	}
	return reach;
}

int spring_rig_internal_placement(spring_xform2 root, double reach, const double *chain_reach, int chain_count, double *far)
{
	double position = sqrt((double)root.position.x * root.position.x + (double)root.position.y * root.position.y);
	double scale = fmax(fabs((double)root.scale.x), fabs((double)root.scale.y));
	for (int c = 0; c < chain_count; c++) {
		*far = position + scale * chain_reach[c];
		if (!(*far <= (double)SPRING_RIG_CHAIN_MAX_REACH)) {
			return c;
		}
	}
	*far = position + scale * reach;
	return *far <= (double)SPRING_RIG_MAX_REACH ? RIG_PLACEMENT_FITS : RIG_PLACEMENT_REACH;
}

spring_result spring_rig_internal_placement_error_at(spring_error *e, const spring_error_step *path, int depth, const char *field,
                                                     const char *prefix, spring_xform2 root, int misfit, double far,
                                                     const char *chain_name)
{
	// The rig's own refusal ends with where the chains' limit comes from; one located at an
	// element leaves that out, for the room its location and prefix take in the message.
	const char *why = depth == 0 ? " (the chains' coordinate range)" : "";
	if (misfit >= 0) {
		char q1[80];
		// At the root (what is refused), the chain named in the message.
		return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, path, depth, field,
		                 "%sroot (%.9g, %.9g) carries chain %s up to %.9g units from the origin; a chain's bones may reach at "
		                 "most %.9g%s",
		                 prefix, (double)root.position.x, (double)root.position.y, Q(chain_name), far,
		                 (double)SPRING_RIG_CHAIN_MAX_REACH, why);
	}
	return fail_path(e, SPRING_ERROR_OUT_OF_RANGE, path, depth, field,
	                 "%sroot (%.9g, %.9g) places bones up to %.3g units away; at most %g", prefix, (double)root.position.x,
	                 (double)root.position.y, far, (double)SPRING_RIG_MAX_REACH);
}

spring_result spring_rig_internal_placement_error(spring_error *e, spring_xform2 root, int misfit, double far,
                                                  const char *chain_name)
{
	return spring_rig_internal_placement_error_at(e, NULL, 0, "root", "", root, misfit, far, chain_name);
}

spring_result spring_rig_internal_validate(const spring_rig_desc *d, rig_refs *refs, spring_error *e)
{
	if (!d) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "desc", "desc is NULL");
	}
	if (d->bone_count < 1 || d->bone_count > SPRING_RIG_MAX_BONES) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "bone_count",
		                                "bone_count must be in 1..%d (got %d)", SPRING_RIG_MAX_BONES, d->bone_count);
	}
	if (!d->bones) {
		return spring_rig_internal_fail(e, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "bones", "bones is NULL");
	}
	if (d->clip_count < 0 || d->clip_count > SPRING_RIG_MAX_CLIPS || (d->clip_count > 0 && !d->clips)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "clip_count",
		                                "clip_count must be in 0..%d with clips given (got %d)", SPRING_RIG_MAX_CLIPS,
		                                d->clip_count);
	}
	if (d->ik_count < 0 || d->ik_count > SPRING_RIG_MAX_IK || (d->ik_count > 0 && !d->iks)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "ik_count",
		                                "ik_count must be in 0..%d with iks given (got %d)", SPRING_RIG_MAX_IK, d->ik_count);
	}
	if (d->chain_count < 0 || d->chain_count > SPRING_RIG_MAX_CHAINS || (d->chain_count > 0 && !d->chains)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "rig", -1, "chain_count",
		                                "chain_count must be in 0..%d with chains given (got %d)", SPRING_RIG_MAX_CHAINS,
		                                d->chain_count);
	}
	spring_clock probe;
	spring_result r = spring_clock_init(&probe, d->step, d->max_steps);
	if (r != SPRING_OK) {
		return spring_rig_internal_fail(e, r, "rig", -1, "step", "step must be in (0, 1] s with max_steps 0..1000 (step %g)",
		                                (double)d->step);
	}
	if (!spring_rig_internal_xform2_finite(d->root)) {
		return spring_rig_internal_fail(e, SPRING_ERROR_NOT_FINITE, "rig", -1, "root", "root must be finite");
	}
	r = validate_scale(e, "rig", -1, "root", d->root.scale);
	spring_rig_internal_resolve(d, refs);
	if (r == SPRING_OK) {
		r = validate_bones(d, refs, e);
	}
	if (r == SPRING_OK) {
		r = validate_clips(d, refs, e);
	}
	if (r == SPRING_OK) {
		r = validate_iks(d, refs, e);
	}
	if (r == SPRING_OK) {
		r = validate_chains(d, refs, e);
	}
	if (r == SPRING_OK) {
		int far = -1;
		double chain_reach[SPRING_RIG_MAX_CHAINS];
		double reach = spring_rig_internal_reach(d, refs, &far, chain_reach);
		if (far >= 0) {
			char q1[80];
			return spring_rig_internal_fail(e, SPRING_ERROR_OUT_OF_RANGE, "bone", far, "setup",
			                                "bone %s can reach %.3g units from the root (scales multiply down the "
			                                "hierarchy); at most %g",
			                                Q(d->bones[far].name), reach, (double)SPRING_RIG_MAX_REACH);
		}
		spring_xform2 root = spring_rig_internal_clean_xform(d->root);
		double far_at;
		int misfit = spring_rig_internal_placement(root, reach, chain_reach, d->chain_count, &far_at);
		if (misfit != RIG_PLACEMENT_FITS) {
			return spring_rig_internal_placement_error(e, root, misfit, far_at, misfit >= 0 ? d->chains[misfit].name : NULL);
		}
	}
	return r;
}
