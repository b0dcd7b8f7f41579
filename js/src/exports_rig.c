// SPDX-License-Identifier: MIT
// The rig module's export layer (js/rig.js): rigs from rig files, for JavaScript. Built into a
// module of its own (js/CMakeLists.txt) so that each module stays within the size budget;
// only marshalling, as in exports.c.
#include <spring/io.h>

#include <string.h>

static spring_xform2 xform2_of(float x, float y, float angle)
{
	spring_xform2 t = {{x, y}, angle, {1.0f, 1.0f}};
	return t;
}

// -------------------------------------------------------------------------------------------
// Rigs from rig files (spring/io.h, the rig-file reader of the tools): the file's text in, the rig and what the file
// declared (spring_rig_file_info) out.

size_t js_rig_file_info_size(void)
{
	return sizeof(spring_rig_file_info);
}

size_t js_rig_file_error_size(void)
{
	return sizeof(spring_file_error);
}

const char *js_rig_file_error_message(const spring_file_error *e)
{
	return e->message;
}

int js_rig_load(const char *text, size_t length, const char *name, spring_rig **out, spring_rig_file_info *info,
                spring_file_error *error)
{
	return (int)spring_rig_load_json_ex(text, length, name, out, info, error);
}

// What js/index.js reads of spring_rig_file_info: out[0..5] = step, max_steps, root x, y, angle,
// and the counts of clips, IK constraints and chains.
void js_rig_file_info(const spring_rig_file_info *info, float *out)
{
	out[0] = info->step;
	out[1] = (float)info->max_steps;
	out[2] = info->root.position.x;
	out[3] = info->root.position.y;
	out[4] = info->root.angle;
	out[5] = (float)info->clip_count;
	out[6] = (float)info->ik_count;
	out[7] = (float)info->chain_count;
}

// Chain `k` of the file: its name; out[0..4] = type, first bone, last bone, bone count, collider count.
const char *js_rig_file_chain(const spring_rig_file_info *info, int k, int *out)
{
	const spring_rig_file_chain *c = &info->chains[k];
	out[0] = (int)c->type;
	out[1] = c->first_bone;
	out[2] = c->last_bone;
	out[3] = c->bone_count;
	out[4] = c->collider_count;
	return c->name;
}

// IK constraint `k` of the file: its name; out[0..3] = type, first bone, last bone, target bone.
const char *js_rig_file_ik(const spring_rig_file_info *info, int k, int *out)
{
	const spring_rig_file_ik *c = &info->iks[k];
	out[0] = (int)c->type;
	out[1] = c->first_bone;
	out[2] = c->last_bone;
	out[3] = c->target_bone;
	return c->name;
}

// The per-frame calls read their numbers from memory (`args` in js/runtime.js; exports.c says why).
int js_rig_update(spring_rig *rig, const float *args) // dt
{
	return (int)spring_rig_update(rig, args[0]);
}

int js_rig_set_root(spring_rig *rig, const float *args) // x, y, angle
{
	return (int)spring_rig_set_root(rig, xform2_of(args[0], args[1], args[2]));
}

int js_rig_teleport(spring_rig *rig, const float *args) // x, y, angle
{
	return (int)spring_rig_teleport(rig, xform2_of(args[0], args[1], args[2]));
}

int js_rig_set_ik_target(spring_rig *rig, int ik, const float *args) // x, y
{
	return (int)spring_rig_set_ik_target(rig, ik, (spring_vec2){args[0], args[1]});
}

// spring_rig_apply_events; a refusal's sentence (the clip, the event, the chain and the limit)
// stays here for js_rig_events_error (calls are synchronous: one at a time), so the per-frame call
// allocates nothing.
static spring_error rig_events_error;

int js_rig_apply_events(spring_rig *rig)
{
	return (int)spring_rig_apply_events(rig, &rig_events_error);
}

const char *js_rig_events_error(void)
{
	return rig_events_error.message;
}
