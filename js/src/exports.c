// The export layer of the npm package: flat functions over libspring for JavaScript (js/index.js).
//
// Only marshalling: numbers and pointers into wasm memory in, library calls, numbers out. Every
// struct passed by value in the library's API (spring_params, transforms) is read from or written
// to a float array here, because the wasm C ABI passes structs through hidden pointers that
// JavaScript should not have to know about. Functions the JavaScript side can call as they are
// (all arguments numbers or pointers) are exported directly from the library by the build script
// (scripts/build-wasm-js.sh), not wrapped here.
#include "css_linear.h"
#include "param_table.h"
#include "rig_json.h"
#include "rig_json_internal.h"
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
	spring_rig_file_error error;
	rj c;
	rj_begin(&c, &error, "spring");
	spring_params p = {0.0f, 0.0f, 0.0f};
	char *text = rj_alloc(&c, length + 1u, 1u);
	if (text) {
		memcpy(text, json, length);
		cJSON *doc = cJSON_ParseWithLength(text, length);
		if (!doc) {
			rj_bad(&c, "", "malformed JSON");
		} else {
			rj_spring_item(&c, doc, "$", &p);
			cJSON_Delete(doc);
		}
	}
	spring_result r = rj_finish(&c);
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

int js_params_validate(const float *p)
{
	return (int)spring_params_validate(params_of(p));
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
// Errors

const char *js_error_message(const spring_error *e)
{
	return e->message;
}

size_t js_error_size(void)
{
	return sizeof(spring_error);
}
