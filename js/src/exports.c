// SPDX-License-Identifier: MIT
// The export layer of the npm package: flat functions over libspring for JavaScript (js/index.js).
//
// Only marshalling: numbers and pointers into wasm memory in, library calls, numbers out. Every
// struct passed by value in the library's API (spring_params, transforms) is read from or written
// to a float array here, because the wasm C ABI passes structs through hidden pointers that
// JavaScript should not have to know about. Functions the JavaScript side can call as they are
// (all arguments numbers or pointers) are exported directly from the library by the build (the
// export lists of js/CMakeLists.txt), not wrapped here, except those called every frame: their numbers
// arrive in memory (`args` in js/runtime.js), as a fractional number passed to wasm as an argument
// costs an allocation on some engines (16 bytes a call on Node 18).
#include "css_linear.h"
#include "param_table.h"
#include "rig_json_internal.h"
#include "spring/chain.h"
#include "spring/motion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// -------------------------------------------------------------------------------------------
// Parameters: spring_params travel as float[3] = {stiffness, damping, mass}.

static spring_params params_of(const float *p)
{
	spring_params s = {p[0], p[1], p[2]};
	return s;
}

static void params_to(spring_params s, float *out)
{
	out[0] = s.stiffness;
	out[1] = s.damping;
	out[2] = s.mass;
}

// A spring object in the rig-file format ({"duration": 0.5, "bounce": 0.3}, any parameterisation
// of param_table.h), read by the rig-file reader's own spring parser: the package accepts exactly
// what rig files accept, with the same messages. `message` receives the reason on failure
// (`message_size` bytes).
int js_spring_from_json(const char *json, size_t length, float *out, char *message, size_t message_size)
{
	spring_file_error error;
	spring_params p = {0.0f, 0.0f, 0.0f};
	spring_result r = rj_load_spring_json(json, length, "spring", &p, &error);
	if (r == SPRING_OK) {
		params_to(p, out);
	} else if (message_size > 0) {
		snprintf(message, message_size, "%s", error.message);
	}
	return (int)r;
}

int js_params_default(float *out)
{
	params_to(spring_params_default(), out);
	return 0;
}

// A named preset (spring_params_from_preset); INVALID_ARGUMENT for a name that is none. The names
// are spring_preset_name's, exported as they are.
int js_params_from_preset(const char *name, float *out)
{
	spring_params p;
	spring_result r = spring_params_from_preset(name, &p);
	if (r == SPRING_OK) {
		params_to(p, out);
	}
	return (int)r;
}

// The reduced-motion form of a spring (spring_params_reduced_motion), as the CLI's --reduced-motion.
int js_params_reduced_motion(const float *p, float *out)
{
	spring_params q;
	spring_result r = spring_params_reduced_motion(params_of(p), &q);
	if (r == SPRING_OK) {
		params_to(q, out);
	}
	return (int)r;
}

// The queries (spring.h), indexed in the order js/index.js lists them.
float js_params_query(const float *p, int query)
{
	spring_params s = params_of(p);
	switch (query) {
	case 0: return spring_damping_ratio(s);
	case 1: return spring_natural_frequency(s);
	case 2: return spring_frequency_hz(s);
	case 3: return spring_duration(s);
	case 4: return spring_bounce(s);
	case 5: return spring_visual_duration(s);
	case 6: return spring_overshoot(s);
	case 7: return spring_half_life(s);
	default: return 0.0f;
	}
}

// out[0..1]: Origami tension and friction.
void js_params_to_origami(const float *p, float *out)
{
	spring_params_to_origami(params_of(p), &out[0], &out[1]);
}

float js_settling_duration(const float *p, float distance, float velocity, float epsilon)
{
	return spring_settling_duration(params_of(p), distance, velocity, epsilon);
}

float js_settling_time(const float *p, float distance, float velocity, float epsilon)
{
	return spring_settling_time(params_of(p), distance, velocity, epsilon);
}

// out[0..1]: position and velocity at time t after (x, v), pulled toward `target`.
void js_evaluate(const float *p, float x, float v, float target, float t, float *out)
{
	spring_state s = spring_evaluate(params_of(p), (spring_state){x, v}, target, t);
	out[0] = s.x;
	out[1] = s.v;
}

// -------------------------------------------------------------------------------------------
// spring_motion. The motion lives in memory the caller allocated (js_motion_size bytes).

size_t js_motion_size(void)
{
	return sizeof(spring_motion);
}

// `arrays` holds five float[4]: from, to, velocity, rest_delta, rest_speed.
int js_motion_init(spring_motion *m, int channels, const float *p, const float *arrays, int clamp_overshoot)
{
	spring_motion_desc d;
	memset(&d, 0, sizeof d);
	d.channels = channels;
	d.params = params_of(p);
	memcpy(d.from, arrays, sizeof d.from);
	memcpy(d.to, arrays + 4, sizeof d.to);
	memcpy(d.velocity, arrays + 8, sizeof d.velocity);
	memcpy(d.rest_delta, arrays + 12, sizeof d.rest_delta);
	memcpy(d.rest_speed, arrays + 16, sizeof d.rest_speed);
	d.clamp_overshoot = clamp_overshoot != 0;
	return (int)spring_motion_init(m, &d);
}

int js_motion_set_params(spring_motion *m, const float *p)
{
	return (int)spring_motion_set_params(m, params_of(p));
}

// out[0..2]: the motion's resolved params.
void js_motion_params(const spring_motion *m, float *out)
{
	params_to(m->params, out);
}

int js_motion_update(spring_motion *m, const float *args)
{
	return (int)spring_motion_update(m, args[0]);
}

int js_motion_sample_progress(const float *p, float initial_velocity, float interval, float max_duration, float rest_delta,
                              float *progress, int capacity, int *count_and_truncated)
{
	return (int)spring_motion_sample_progress(params_of(p), initial_velocity, interval, max_duration, rest_delta, progress,
	                                          capacity, &count_and_truncated[0], &count_and_truncated[1]);
}

// -------------------------------------------------------------------------------------------
// CSS linear() (tools/css_linear.h, the generator `spring css` prints).

// Returns the curve (free with js_css_free) or NULL with *result set; resolution_ms 0 refines
// automatically as the CLI does.
css_linear *js_css_linear(const float *p, double max_duration, double resolution_ms, int *result)
{
	css_linear *c = malloc(sizeof *c);
	if (!c) {
		*result = CSS_LINEAR_OUT_OF_MEMORY;
		return NULL;
	}
	*result = css_linear_make(params_of(p), max_duration, resolution_ms, c);
	if (*result != CSS_LINEAR_OK) {
		free(c);
		return NULL;
	}
	return c;
}

// out[0..4]: stop count, truncated (0/1), resolution in ms, duration in ms, largest deviation.
const char *js_css_linear_info(const css_linear *c, double *out)
{
	out[0] = c->count;
	out[1] = c->truncated;
	out[2] = c->resolution_ms;
	out[3] = c->duration_ms;
	out[4] = c->deviation;
	return c->easing;
}

void js_css_free(css_linear *c)
{
	if (c) {
		css_linear_free(c);
		free(c);
	}
}

// -------------------------------------------------------------------------------------------
// Transforms: spring_xform2 as {x, y, angle} (scale 1), spring_xform3 as float[7] =
// {position x, y, z, rotation x, y, z, w}.

static spring_xform2 xform2_of(float x, float y, float angle)
{
	spring_xform2 t = {{x, y}, angle, {1.0f, 1.0f}};
	return t;
}

static spring_xform3 xform3_of(const float *t)
{
	spring_xform3 x = {{t[0], t[1], t[2]}, {t[3], t[4], t[5], t[6]}};
	return x;
}

static spring_vec3 vec3_of(const float *v)
{
	spring_vec3 x = {v[0], v[1], v[2]};
	return x;
}

// out[0..3]: the unit quaternion of a rotation by `angle` radians about `axis` (float[3]).
void js_quat_from_axis_angle(const float *axis, float angle, float *out)
{
	spring_quat q = spring_quat_from_axis_angle(vec3_of(axis), angle);
	out[0] = q.x;
	out[1] = q.y;
	out[2] = q.z;
	out[3] = q.w;
}

// -------------------------------------------------------------------------------------------
// spring_chain2d. The description travels as floats and ints (js/index.js writes them):
//   f[0..22]: params[3], tip_params[3], gravity[2], wind[2], step, root x, y, angle, inertia,
//             max_root_speed, max_root_angular_speed, rest_delta, rest_angular_speed
//   i[0..3]:  segment_count, max_steps, integrator, no_inertia
//   per segment, sf[8 s ..]: length, rest_angle, params[3], limit, inertia; si[s]: no_inertia

int js_chain2d_create(const float *f, const int *i, const float *sf, const int *si, spring_chain2d **out, spring_error *error)
{
	int n = i[0];
	if (n < 1 || n > SPRING_CHAIN_MAX_BONES) {
		spring_chain2d_desc empty = {0};
		return (int)spring_chain2d_create(&empty, out, error); // the library's own error for the count
	}
	spring_chain2d_segment *segs = calloc((size_t)n, sizeof *segs);
	if (!segs) {
		return (int)SPRING_ERROR_OUT_OF_MEMORY;
	}
	for (int s = 0; s < n; s++) {
		const float *g = sf + 8 * s;
		segs[s].length = g[0];
		segs[s].rest_angle = g[1];
		segs[s].params = params_of(g + 2);
		segs[s].limit = g[5];
		segs[s].inertia = g[6];
		segs[s].no_inertia = si[s] != 0;
	}
	spring_chain2d_desc d;
	memset(&d, 0, sizeof d);
	d.segment_count = n;
	d.segments = segs;
	d.params = params_of(f);
	d.tip_params = params_of(f + 3);
	d.gravity = (spring_vec2){f[6], f[7]};
	d.wind = (spring_vec2){f[8], f[9]};
	d.step = f[10];
	d.root = xform2_of(f[11], f[12], f[13]);
	d.inertia = f[14];
	d.max_root_speed = f[15];
	d.max_root_angular_speed = f[16];
	d.rest_delta = f[17];
	d.rest_angular_speed = f[18];
	d.max_steps = i[1];
	d.integrator = (spring_integrator)i[2];
	d.no_inertia = i[3] != 0;
	spring_result r = spring_chain2d_create(&d, out, error);
	free(segs);
	return (int)r;
}

int js_chain2d_update(spring_chain2d *c, const float *args) // x, y, angle, dt
{
	return (int)spring_chain2d_update(c, xform2_of(args[0], args[1], args[2]), args[3]);
}

int js_chain2d_reset(spring_chain2d *c, float x, float y, float angle)
{
	return (int)spring_chain2d_reset(c, xform2_of(x, y, angle));
}

int js_chain2d_teleport(spring_chain2d *c, float x, float y, float angle)
{
	return (int)spring_chain2d_teleport(c, xform2_of(x, y, angle));
}

int js_chain2d_translate(spring_chain2d *c, float dx, float dy)
{
	return (int)spring_chain2d_translate(c, (spring_vec2){dx, dy});
}

int js_chain2d_rotate(spring_chain2d *c, float angle, float px, float py)
{
	return (int)spring_chain2d_rotate(c, angle, (spring_vec2){px, py});
}

int js_chain2d_set_params(spring_chain2d *c, int segment, const float *p)
{
	return (int)spring_chain2d_set_params(c, segment, params_of(p));
}

int js_chain2d_set_forces(spring_chain2d *c, float gx, float gy, float wx, float wy)
{
	return (int)spring_chain2d_set_forces(c, (spring_vec2){gx, gy}, (spring_vec2){wx, wy});
}

// -------------------------------------------------------------------------------------------
// spring_chain (tip chains). The description travels as floats and ints:
//   f[0..23]: params[3], tip_params[3], gravity[3], wind[3], step, root[7], max_root_speed,
//             max_root_angular_speed, rest_distance, rest_speed
//   i[0..6]:  bone_count, collider_count, max_colliders, mode_2d, projection, max_steps, integrator
//   per bone, bf[15 b ..]: rest_local[7], tip[3], params[3], tip_radius, cone_limit
//   per collider, cf[7 k ..]: a[3], b[3], radius; ci[k]: type

static void colliders_of(const float *cf, const int *ci, int count, spring_chain_collider *out)
{
	for (int k = 0; k < count; k++) {
		const float *g = cf + 7 * k;
		out[k].type = (spring_chain_collider_type)ci[k];
		out[k].a = vec3_of(g);
		out[k].b = vec3_of(g + 3);
		out[k].radius = g[6];
	}
}

int js_chain_create(const float *f, const int *i, const float *bf, const float *cf, const int *ci, spring_chain **out,
                    spring_error *error)
{
	int n = i[0], nc = i[1];
	if (n < 1 || n > SPRING_CHAIN_MAX_BONES || nc < 0 || nc > SPRING_CHAIN_MAX_COLLIDERS) {
		spring_chain_desc bad = {0};
		bad.bone_count = n;
		bad.collider_count = nc;
		return (int)spring_chain_create(&bad, out, error); // the library's own error for the counts
	}
	spring_chain_bone_desc *bones = calloc((size_t)n, sizeof *bones);
	spring_chain_collider *colliders = calloc((size_t)(nc > 0 ? nc : 1), sizeof *colliders);
	if (!bones || !colliders) {
		free(bones);
		free(colliders);
		return (int)SPRING_ERROR_OUT_OF_MEMORY;
	}
	for (int b = 0; b < n; b++) {
		const float *g = bf + 15 * b;
		bones[b].rest_local = xform3_of(g);
		bones[b].tip = vec3_of(g + 7);
		bones[b].params = params_of(g + 10);
		bones[b].tip_radius = g[13];
		bones[b].cone_limit = g[14];
	}
	colliders_of(cf, ci, nc, colliders);
	spring_chain_desc d;
	memset(&d, 0, sizeof d);
	d.bone_count = n;
	d.bones = bones;
	d.params = params_of(f);
	d.tip_params = params_of(f + 3);
	d.gravity = vec3_of(f + 6);
	d.wind = vec3_of(f + 9);
	d.step = f[12];
	d.root = xform3_of(f + 13);
	d.max_root_speed = f[20];
	d.max_root_angular_speed = f[21];
	d.rest_distance = f[22];
	d.rest_speed = f[23];
	d.collider_count = nc;
	d.colliders = nc > 0 ? colliders : NULL;
	d.max_colliders = i[2];
	d.mode_2d = i[3] != 0;
	d.projection = (spring_chain_projection)i[4];
	d.max_steps = i[5];
	d.integrator = (spring_integrator)i[6];
	spring_result r = spring_chain_create(&d, out, error);
	free(bones);
	free(colliders);
	return (int)r;
}

int js_chain_update(spring_chain *c, const float *root, const float *args) // dt
{
	return (int)spring_chain_update(c, xform3_of(root), args[0]);
}

int js_chain_reset(spring_chain *c, const float *root)
{
	return (int)spring_chain_reset(c, xform3_of(root));
}

int js_chain_teleport(spring_chain *c, const float *root)
{
	return (int)spring_chain_teleport(c, xform3_of(root));
}

int js_chain_translate(spring_chain *c, const float *delta)
{
	return (int)spring_chain_translate(c, vec3_of(delta));
}

// rotation_pivot: rotation[4], pivot[3]
int js_chain_rotate(spring_chain *c, const float *rotation_pivot)
{
	const float *q = rotation_pivot;
	return (int)spring_chain_rotate(c, (spring_quat){q[0], q[1], q[2], q[3]}, vec3_of(q + 4));
}

int js_chain_set_params(spring_chain *c, int bone, const float *p)
{
	return (int)spring_chain_set_params(c, bone, params_of(p));
}

// forces: gravity[3], wind[3]
int js_chain_set_forces(spring_chain *c, const float *forces)
{
	return (int)spring_chain_set_forces(c, vec3_of(forces), vec3_of(forces + 3));
}

int js_chain_set_colliders(spring_chain *c, const float *cf, const int *ci, int count)
{
	if (count < 0 || count > SPRING_CHAIN_MAX_COLLIDERS) {
		return (int)spring_chain_set_colliders(c, NULL, count); // the library's own error for the count
	}
	spring_chain_collider colliders[SPRING_CHAIN_MAX_COLLIDERS];
	colliders_of(cf, ci, count, colliders);
	return (int)spring_chain_set_colliders(c, count > 0 ? colliders : NULL, count);
}

// -------------------------------------------------------------------------------------------
// Errors

const char *js_error_message(const spring_error *e)
{
	return e->message;
}

size_t js_error_size(void)
{
	return sizeof(spring_error);
}
