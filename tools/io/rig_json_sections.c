// SPDX-License-Identifier: MIT
// The sections of a rig file (docs/rig-format.md): root, bones, clips, IK constraints and chains,
// each element checked and converted into spring_rig_desc (degrees -> radians).
#include "rig_json_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Bone references: names, which the rig resolves (and judges)

// A bone name, or null when `allow_null` (-> NULL).
static spring_result bone_ref_item(rj *c, const cJSON *j, const char *path, int allow_null, const char **out)
{
	if (allow_null && cJSON_IsNull(j)) {
		*out = NULL;
		return SPRING_OK;
	}
	if (!cJSON_IsString(j)) {
		return rj_bad(c, path, "expected a bone name%s, got %s", allow_null ? " or null" : "", rj_type_name(j));
	}
	*out = j->valuestring;
	return SPRING_OK;
}

static spring_result get_bone_ref(rj *c, const cJSON *obj, const char *path, const char *key, int required, const char **out)
{
	char p[RJ_PATH_SIZE];
	const cJSON *j = rj_member(c, obj, path, key, required, p);
	if (!j) {
		*out = NULL;
		return c->result;
	}
	return bone_ref_item(c, j, p, !required, out);
}

// ---------------------------------------------------------------------------------------------
// Sections: each array element is read by an rj_item_reader through rj_read_list

// The placement of the root or of a bone: x, y (default 0), rotation in degrees (default 0),
// scale_x, scale_y (default 1, never 0).
static spring_result read_xform(rj *c, const cJSON *j, const char *path, spring_xform2 *out)
{
	if (rj_get_float(c, j, path, "x", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &out->position.x) ||
	    rj_get_float(c, j, path, "y", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &out->position.y) ||
	    rj_get_degrees(c, j, path, "rotation", 0, &out->angle) ||
	    rj_get_float(c, j, path, "scale_x", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &out->scale.x) ||
	    rj_get_float(c, j, path, "scale_y", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &out->scale.y)) {
		return c->result;
	}
	if (out->scale.x == 0.0f || out->scale.y == 0.0f) {
		char p[256];
		PATH_KEY(p, path, out->scale.x == 0.0f ? "scale_x" : "scale_y");
		return rj_bad(c, p, "must not be 0");
	}
	return SPRING_OK;
}

spring_result rj_read_root(rj *c, const cJSON *doc, spring_xform2 *root)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(doc, "root");
	root->position = spring_vec2_make(0.0f, 0.0f);
	root->angle = 0.0f;
	root->scale = spring_vec2_make(1.0f, 1.0f);
	if (!j) {
		return SPRING_OK;
	}
	const char *path = "$.root";
	static const char *keys[] = {"x", "y", "rotation", "scale_x", "scale_y", NULL};
	if (rj_expect_object(c, j, path, "the root placement") || rj_check_keys(c, j, path, keys, "")) {
		return c->result;
	}
	return read_xform(c, j, path, root);
}

static spring_result read_bone(rj *c, const cJSON *b, const char *path, void *item, const void *context)
{
	(void)context;
	static const char *keys[] = {"name", "parent", "length", "x", "y", "rotation", "scale_x", "scale_y", NULL};
	spring_rig_bone_desc *d = (spring_rig_bone_desc *)item;
	if (rj_expect_object(c, b, path, "a bone") || rj_check_keys(c, b, path, keys, " in a bone") ||
	    rj_get_name(c, b, path, "name", &d->name) || get_bone_ref(c, b, path, "parent", 0, &d->parent) ||
	    rj_get_float(c, b, path, "length", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &d->length)) {
		return c->result;
	}
	return read_xform(c, b, path, &d->setup);
}

spring_result rj_read_bones(rj *c, const cJSON *doc)
{
	c->bones = (spring_rig_bone_desc *)rj_read_list(c, doc, "$", "bones", 1, SPRING_RIG_MAX_BONES, "bones", sizeof *c->bones,
	                                                read_bone, NULL, &c->bone_count);
	if (c->result == SPRING_OK && c->bone_count == 0) {
		return rj_bad(c, "$.bones", "must list at least one bone");
	}
	return c->result;
}

static spring_result read_curve(rj *c, const cJSON *key, const char *path, spring_rig_key *k)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(key, "curve");
	k->curve = SPRING_RIG_CURVE_LINEAR;
	if (!j) {
		return SPRING_OK;
	}
	char p[256];
	PATH_KEY(p, path, "curve");
	if (cJSON_IsString(j)) {
		if (strcmp(j->valuestring, "linear") == 0) {
			return SPRING_OK;
		}
		if (strcmp(j->valuestring, "stepped") == 0) {
			k->curve = SPRING_RIG_CURVE_STEPPED;
			return SPRING_OK;
		}
		char q[96];
		return rj_bad(c, p, "unknown curve %s (expected \"linear\", \"stepped\" or a Bezier [x1, y1, x2, y2])",
		              rj_quoted(q, sizeof q, j->valuestring, 40));
	}
	if (!cJSON_IsArray(j)) {
		return rj_bad(c, p, "expected \"linear\", \"stepped\" or a Bezier [x1, y1, x2, y2], got %s", rj_type_name(j));
	}
	int n = cJSON_GetArraySize(j);
	if (n != 4) {
		return rj_bad(c, p, "a Bezier curve is [x1, y1, x2, y2]: 4 numbers (got %d)", n);
	}
	int i = 0;
	for (const cJSON *e = j->child; e; e = e->next, i++) {
		char pe[256];
		PATH_INDEX(pe, p, i);
		double v = 0.0;
		if (rj_number_item(c, e, pe, -RJ_BIG, RJ_BIG, 0, &v) != SPRING_OK) {
			return c->result;
		}
		k->bezier[i] = (float)v;
	}
	k->curve = SPRING_RIG_CURVE_BEZIER;
	return SPRING_OK;
}

// A key of a track whose type (spring_rig_track_type) is *context.
static spring_result read_key(rj *c, const cJSON *e, const char *path, void *item, const void *context)
{
	static const char *rotate_keys[] = {"time", "value", "curve", NULL};
	static const char *xy_keys[] = {"time", "x", "y", "curve", NULL};
	int type = *(const int *)context;
	spring_rig_key *k = (spring_rig_key *)item;
	const char *what = type == SPRING_RIG_TRACK_ROTATE      ? " in a rotate key"
	                   : type == SPRING_RIG_TRACK_TRANSLATE ? " in a translate key"
	                                                        : " in a scale key";
	if (rj_expect_object(c, e, path, "a key") ||
	    rj_check_keys(c, e, path, type == SPRING_RIG_TRACK_ROTATE ? rotate_keys : xy_keys, what) ||
	    rj_get_float(c, e, path, "time", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &k->time)) {
		return c->result;
	}
	if (type == SPRING_RIG_TRACK_ROTATE) {
		if (rj_get_degrees(c, e, path, "value", 1, &k->value[0])) {
			return c->result;
		}
	} else {
		double def = type == SPRING_RIG_TRACK_SCALE ? 1.0 : 0.0;
		if (rj_get_float(c, e, path, "x", 0, def, -RJ_BIG, RJ_BIG, 0, &k->value[0]) ||
		    rj_get_float(c, e, path, "y", 0, def, -RJ_BIG, RJ_BIG, 0, &k->value[1])) {
			return c->result;
		}
	}
	return read_curve(c, e, path, k);
}

static const char *const track_types[] = {"rotate", "translate", "scale", NULL};

static spring_result read_track(rj *c, const cJSON *t, const char *path, void *item, const void *context)
{
	(void)context;
	static const char *keys[] = {"bone", "type", "keys", NULL};
	spring_rig_track *out = (spring_rig_track *)item;
	int type = 0;
	if (rj_expect_object(c, t, path, "a track") || rj_check_keys(c, t, path, keys, " in a track") ||
	    get_bone_ref(c, t, path, "bone", 1, &out->bone) ||
	    rj_get_enum(c, t, path, "type", track_types, -1, "track type", &type)) {
		return c->result;
	}
	out->type = (spring_rig_track_type)type;
	out->keys = (const spring_rig_key *)rj_read_list(c, t, path, "keys", 1, SPRING_RIG_MAX_KEYS, "keys", sizeof *out->keys,
	                                                 read_key, &type, &out->key_count);
	return c->result;
}

static spring_result read_event(rj *c, const cJSON *e, const char *path, void *item, const void *context)
{
	(void)context;
	static const char *keys[] = {"time", "name", "x", "y", NULL};
	spring_rig_event *ev = (spring_rig_event *)item;
	if (rj_expect_object(c, e, path, "an event") || rj_check_keys(c, e, path, keys, " in an event") ||
	    rj_get_float(c, e, path, "time", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &ev->time) || rj_get_name(c, e, path, "name", &ev->name) ||
	    rj_get_float(c, e, path, "x", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &ev->value[0]) ||
	    rj_get_float(c, e, path, "y", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &ev->value[1])) {
		return c->result;
	}
	return SPRING_OK;
}

static spring_result read_clip(rj *c, const cJSON *j, const char *path, void *item, const void *context)
{
	(void)context;
	static const char *keys[] = {"name", "duration", "loop", "tracks", "events", NULL};
	spring_rig_clip_desc *cl = (spring_rig_clip_desc *)item;
	int loop = 0;
	if (rj_expect_object(c, j, path, "a clip") || rj_check_keys(c, j, path, keys, " in a clip") ||
	    rj_get_name(c, j, path, "name", &cl->name) ||
	    rj_get_float(c, j, path, "duration", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &cl->duration) ||
	    rj_get_bool(c, j, path, "loop", 0, &loop)) {
		return c->result;
	}
	cl->loop = loop != 0;
	cl->tracks = (const spring_rig_track *)rj_read_list(c, j, path, "tracks", 0, SPRING_RIG_MAX_TRACKS, "tracks",
	                                                    sizeof *cl->tracks, read_track, NULL, &cl->track_count);
	if (c->result != SPRING_OK) {
		return c->result;
	}
	cl->events = (const spring_rig_event *)rj_read_list(c, j, path, "events", 0, SPRING_RIG_MAX_EVENTS, "events",
	                                                    sizeof *cl->events, read_event, NULL, &cl->event_count);
	return c->result;
}

spring_result rj_read_clips(rj *c, const cJSON *doc, spring_rig_desc *desc)
{
	desc->clips = (const spring_rig_clip_desc *)rj_read_list(c, doc, "$", "clips", 0, SPRING_RIG_MAX_CLIPS, "clips",
	                                                         sizeof *desc->clips, read_clip, NULL, &desc->clip_count);
	return c->result;
}

static const char *const ik_types[] = {"two-bone", "ccd", NULL};

// The start of an element whose keys depend on its "type": an object (`what`), its type among
// `types` (the index in *type; `type_what` names it in messages), then only the keys allowed for
// that type (keys[*type], named by keys_what[*type]).
static spring_result read_typed(rj *c, const cJSON *j, const char *path, const char *what, const char *const *types,
                                const char *type_what, const char *const *const *keys, const char *const *keys_what, int *type)
{
	if (rj_expect_object(c, j, path, what) || rj_get_enum(c, j, path, "type", types, -1, type_what, type) ||
	    rj_check_keys(c, j, path, keys[*type], keys_what[*type])) {
		return c->result;
	}
	return SPRING_OK;
}

static spring_result read_ik(rj *c, const cJSON *j, const char *path, void *item, const void *context)
{
	(void)context;
	static const char *two_keys[] = {"name", "type", "bones", "target", "bend", "mix", NULL};
	static const char *ccd_keys[] = {"name", "type", "first", "last", "target", "iterations", "tolerance", "mix", NULL};
	static const char *const *keys[] = {two_keys, ccd_keys};
	static const char *what[] = {" for a two-bone IK", " for a CCD IK"};
	static const char *const bends[] = {"positive", "negative", NULL};
	spring_rig_ik_desc *ik = (spring_rig_ik_desc *)item;
	int type = 0;
	if (read_typed(c, j, path, "an IK constraint", ik_types, "IK type", keys, what, &type) ||
	    rj_get_name(c, j, path, "name", &ik->name)) {
		return c->result;
	}
	ik->type = (spring_rig_ik_type)type;
	if (type == SPRING_RIG_IK_TWO_BONE) {
		const cJSON *bones = cJSON_GetObjectItemCaseSensitive(j, "bones");
		char bp[256];
		PATH_KEY(bp, path, "bones");
		if (!bones) {
			return rj_missing(c, path, "bones");
		}
		int nb = cJSON_IsArray(bones) ? cJSON_GetArraySize(bones) : -1;
		if (nb != 2) {
			if (nb < 0) {
				return rj_bad(c, bp, "expected [upper, lower] (2 bone names), got %s", rj_type_name(bones));
			}
			return rj_bad(c, bp, "expected [upper, lower] (2 bone names), got %d", nb);
		}
		char p0[256], p1[256];
		PATH_INDEX(p0, bp, 0);
		PATH_INDEX(p1, bp, 1);
		if (bone_ref_item(c, bones->child, p0, 0, &ik->first) || bone_ref_item(c, bones->child->next, p1, 0, &ik->last)) {
			return c->result;
		}
		int bend = 0;
		if (rj_get_enum(c, j, path, "bend", bends, 0, "bend", &bend)) {
			return c->result;
		}
		ik->bend_positive = bend == 0;
	} else if (get_bone_ref(c, j, path, "first", 1, &ik->first) || get_bone_ref(c, j, path, "last", 1, &ik->last) ||
	           rj_get_int(c, j, path, "iterations", 16, 1, 1000, &ik->iterations) ||
	           rj_get_float(c, j, path, "tolerance", 0, 1e-4, 0.0, RJ_BIG, RJ_LO_OPEN, &ik->tolerance)) {
		return c->result;
	}
	const cJSON *target = cJSON_GetObjectItemCaseSensitive(j, "target");
	ik->target = NULL;
	if (target) {
		char tp[256];
		PATH_KEY(tp, path, "target");
		if (bone_ref_item(c, target, tp, 1, &ik->target)) {
			return c->result;
		}
	}
	if (rj_get_float(c, j, path, "mix", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &ik->mix)) {
		return c->result;
	}
	ik->off = ik->mix == 0.0f; // the rig reads a zero mix as "the default"
	return SPRING_OK;
}

spring_result rj_read_iks(rj *c, const cJSON *doc, spring_rig_desc *desc)
{
	desc->iks = (const spring_rig_ik_desc *)rj_read_list(c, doc, "$", "ik", 0, SPRING_RIG_MAX_IK, "IK constraints",
	                                                     sizeof *desc->iks, read_ik, NULL, &desc->ik_count);
	return c->result;
}

static const char *const chain_types[] = {"angle", "tip", NULL};
// In the order of spring_integrator and spring_chain_projection.
static const char *const integrators[] = {"exact", "semi-implicit", NULL};
static const char *const projections[] = {"remove-velocity", "keep-velocity", NULL};
static const char *const collider_types[] = {"sphere", "capsule", "plane", NULL};

const char *spring_rig_file_chain_type_name(spring_rig_chain_type type)
{
	return chain_types[type == SPRING_RIG_CHAIN_ANGLE ? SPRING_RIG_CHAIN_ANGLE : SPRING_RIG_CHAIN_TIP];
}

static spring_result read_collider(rj *c, const cJSON *j, const char *path, void *item, const void *context)
{
	(void)context;
	static const char *sphere_keys[] = {"type", "x", "y", "radius", NULL};
	static const char *capsule_keys[] = {"type", "a", "b", "radius", NULL};
	static const char *plane_keys[] = {"type", "point", "normal", "radius", NULL};
	static const char *const *keys[] = {sphere_keys, capsule_keys, plane_keys};
	static const char *what[] = {" for a sphere collider", " for a capsule collider", " for a plane collider"};
	spring_chain_collider *out = (spring_chain_collider *)item;
	int type = 0;
	memset(out, 0, sizeof *out);
	const cJSON *named = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "type") : NULL;
	if (cJSON_IsString(named) && strcmp(named->valuestring, "circle") == 0) {
		char tp[256];
		PATH_KEY(tp, path, "type");
		return rj_bad(c, tp, "\"circle\" is called \"sphere\" since 0.2.0 (as SPRING_CHAIN_COLLIDER_SPHERE in C and npm)");
	}
	if (read_typed(c, j, path, "a collider", collider_types, "collider type", keys, what, &type)) {
		return c->result;
	}
	spring_vec2 zero = {0.0f, 0.0f}, a = zero, b = zero;
	if (type == 0) {
		out->type = SPRING_CHAIN_COLLIDER_SPHERE;
		if (rj_get_float(c, j, path, "x", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &a.x) ||
		    rj_get_float(c, j, path, "y", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &a.y) ||
		    rj_get_float(c, j, path, "radius", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &out->radius)) {
			return c->result;
		}
	} else if (type == 1) {
		out->type = SPRING_CHAIN_COLLIDER_CAPSULE;
		if (rj_get_vec2(c, j, path, "a", 1, zero, &a) || rj_get_vec2(c, j, path, "b", 1, zero, &b) ||
		    rj_get_float(c, j, path, "radius", 1, 0.0, -RJ_BIG, RJ_BIG, 0, &out->radius)) {
			return c->result;
		}
	} else {
		out->type = SPRING_CHAIN_COLLIDER_PLANE;
		if (rj_get_vec2(c, j, path, "point", 0, zero, &a) || rj_get_vec2(c, j, path, "normal", 1, zero, &b) ||
		    rj_get_float(c, j, path, "radius", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &out->radius)) {
			return c->result;
		}
	}
	out->a = spring_vec3_make(a.x, a.y, 0.0f);
	out->b = spring_vec3_make(b.x, b.y, 0.0f);
	return SPRING_OK;
}

// One entry of a tip chain's bone_gravity: [x, y] in units/s^2.
static spring_result read_gravity(rj *c, const cJSON *j, const char *path, void *item, const void *context)
{
	(void)context;
	return rj_vec2_item(c, j, path, -RJ_BIG, RJ_BIG, (spring_vec2 *)item);
}

static spring_result read_chain(rj *c, const cJSON *j, const char *path, void *item, const void *context)
{
	(void)context;
	static const char *angle_keys[] = {
		"name",  "type",    "first", "last",       "mix",     "spring",         "tip_spring",
		"limit", "gravity", "wind",  "integrator", "inertia", "max_root_speed", "max_root_angular_speed",
		NULL};
	static const char *tip_keys[] = {
		"name",         "type", "first",     "last",       "mix",        "spring",     "tip_spring",     "cone_limit",
		"gravity",      "wind", "colliders", "tip_radius", "integrator", "projection", "max_root_speed", "max_root_angular_speed",
		"bone_gravity", NULL};
	static const char *const *keys[] = {angle_keys, tip_keys};
	static const char *what[] = {" for an angle chain", " for a tip chain"};
	spring_rig_chain_desc *ch = (spring_rig_chain_desc *)item;
	int type = 0;
	const cJSON *named = cJSON_IsObject(j) ? cJSON_GetObjectItemCaseSensitive(j, "type") : NULL;
	if (cJSON_IsString(named) && strcmp(named->valuestring, "tip") == 0 && cJSON_GetObjectItemCaseSensitive(j, "limit")) {
		char lp[256];
		PATH_KEY(lp, path, "limit");
		return rj_bad(c, lp, "a tip chain's limit is \"cone_limit\" since 0.2.0 (\"limit\" is an angle chain's swing limit)");
	}
	if (read_typed(c, j, path, "a chain", chain_types, "chain type", keys, what, &type) ||
	    rj_get_name(c, j, path, "name", &ch->name)) {
		return c->result;
	}
	ch->type = (spring_rig_chain_type)type;
	spring_vec2 zero = {0.0f, 0.0f};
	if (get_bone_ref(c, j, path, "first", 1, &ch->first) || get_bone_ref(c, j, path, "last", 1, &ch->last) ||
	    rj_get_float(c, j, path, "mix", 0, 1.0, -RJ_BIG, RJ_BIG, 0, &ch->mix) ||
	    rj_get_spring(c, j, path, "spring", &ch->params) || rj_get_spring(c, j, path, "tip_spring", &ch->tip_params) ||
	    rj_get_vec2(c, j, path, "gravity", 0, zero, &ch->gravity) || rj_get_vec2(c, j, path, "wind", 0, zero, &ch->wind)) {
		return c->result;
	}
	ch->off = ch->mix == 0.0f; // the rig reads a zero mix as "the default"
	int integrator = 0, projection = 0;
	if (rj_get_enum(c, j, path, "integrator", integrators, 0, "integrator", &integrator) ||
	    (type == SPRING_RIG_CHAIN_TIP && rj_get_enum(c, j, path, "projection", projections, 0, "projection", &projection))) {
		return c->result;
	}
	ch->integrator = (spring_integrator)integrator;
	ch->projection = (spring_chain_projection)projection;
	// Inertia 0 in a file means none (the rig reads a zero as "the default",
	// SPRING_CHAIN2D_DEFAULT_INERTIA, which a file without the key gets); speeds in the file are
	// units/s and degrees/s, 0 = no cap.
	float angular_degrees = 0.0f;
	if (rj_get_float(c, j, path, "inertia", 0, SPRING_CHAIN2D_DEFAULT_INERTIA, -RJ_BIG, RJ_BIG, 0, &ch->inertia) ||
	    rj_get_float(c, j, path, "max_root_speed", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &ch->max_root_speed) ||
	    rj_get_float(c, j, path, "max_root_angular_speed", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &angular_degrees)) {
		return c->result;
	}
	ch->no_inertia = ch->inertia == 0.0f;
	ch->max_root_angular_speed = (float)((double)angular_degrees * RJ_DEG_TO_RAD);
	// An angle chain's swing limit (`limit`), a tip chain's cone limit (`cone_limit`), as in C.
	const char *limit_key = type == SPRING_RIG_CHAIN_TIP ? "cone_limit" : "limit";
	if (cJSON_GetObjectItemCaseSensitive(j, limit_key)) {
		float deg = 0.0f;
		char p[256];
		PATH_KEY(p, path, limit_key);
		if (rj_get_float(c, j, path, limit_key, 0, 0.0, 0.0, 180.0, type == 0 ? RJ_LO_OPEN : RJ_LO_OPEN | RJ_HI_OPEN, &deg)) {
			return c->result;
		}
		rj_check_degrees(c, p, (double)deg);
		float *out = type == SPRING_RIG_CHAIN_TIP ? &ch->cone_limit : &ch->limit;
		*out = (float)((double)deg * RJ_DEG_TO_RAD);
		if (type == SPRING_RIG_CHAIN_TIP && *out > (float)SPRING_PI * 0.99999f) {
			return rj_bad(c, p, "must be < 180 (got %.9g; a cone limit reaches at most 179.998)", (double)deg);
		}
	}
	if (type == SPRING_RIG_CHAIN_TIP) {
		ch->colliders = (const spring_chain_collider *)rj_read_list(c, j, path, "colliders", 0, SPRING_CHAIN_MAX_COLLIDERS,
		                                                            "colliders", sizeof *ch->colliders, read_collider, NULL,
		                                                            &ch->collider_count);
		if (c->result != SPRING_OK || rj_get_float(c, j, path, "tip_radius", 0, 0.0, -RJ_BIG, RJ_BIG, 0, &ch->tip_radius)) {
			return c->result;
		}
		ch->bone_gravity = (const spring_vec2 *)rj_read_list(c, j, path, "bone_gravity", 0, SPRING_CHAIN_MAX_BONES,
		                                                     "[x, y] gravities", sizeof *ch->bone_gravity, read_gravity, NULL,
		                                                     &ch->bone_gravity_count);
		if (c->result != SPRING_OK) {
			return c->result;
		}
	}
	return SPRING_OK;
}

spring_result rj_read_chains(rj *c, const cJSON *doc, spring_rig_desc *desc)
{
	desc->chains = (const spring_rig_chain_desc *)rj_read_list(c, doc, "$", "chains", 0, SPRING_RIG_MAX_CHAINS, "chains",
	                                                           sizeof *desc->chains, read_chain, NULL, &desc->chain_count);
	return c->result;
}
