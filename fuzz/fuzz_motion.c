// SPDX-License-Identifier: MIT
// Fuzz target: spring_motion sequences. A fuzzed description, then a fuzzed sequence of
// set_target, set_params, set_value, advance, get, time_to_settle and sample calls, and the
// progress curve of fuzzed params. Promises checked:
//  - every call returns a defined code; a refused call changes nothing (the motion is a plain
//    value, compared byte for byte);
//  - after an accepted call every field is finite, the thresholds positive, `elapsed` >= 0, and
//    a motion at rest sits exactly on its targets with velocity 0;
//  - time_to_settle is never NaN nor negative; sampling writes at most `capacity` finite samples
//    and leaves the motion untouched; a progress curve that was not truncated starts at 0 and
//    ends exactly at 1.
#include "fuzz.h"

#include <spring/motion.h>

#define CH SPRING_MOTION_MAX_CHANNELS
#define MAX_SAMPLES 64

static void check_motion(const void *object, const char *what)
{
	const spring_motion *m = object;
	FZ_CHECK(m->channels >= 1 && m->channels <= CH, "%s: %d channels", what, m->channels);
	FZ_CHECK(isfinite(m->elapsed) && m->elapsed >= 0.0, "%s: elapsed %g", what, m->elapsed);
	FZ_CHECK(spring_params_validate(m->params) == SPRING_OK, "%s: invalid resolved params", what);
	for (int c = 0; c < m->channels; c++) {
		float f[7] = {m->value[c],           m->velocity[c],   m->target[c],    m->anchor_value[c],
		              m->anchor_velocity[c], m->rest_delta[c], m->rest_speed[c]};
		FZ_CHECK(fz_all_finite(f, 7), "%s returned OK but channel %d has value %a velocity %a target %a anchor %a %a rest %a %a",
		         what, c, f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
		FZ_CHECK(m->rest_delta[c] > 0.0f && m->rest_speed[c] > 0.0f, "%s: channel %d thresholds %a %a", what, c, m->rest_delta[c],
		         m->rest_speed[c]);
		if (m->at_rest) {
			FZ_CHECK(m->value[c] == m->target[c] && m->velocity[c] == 0.0f,
			         "%s: at rest but channel %d is at %a (%a/s), target %a", what, c, m->value[c], m->velocity[c], m->target[c]);
		}
	}
	float settle = spring_motion_time_to_settle(m);
	FZ_CHECK(!isnan(settle) && settle >= 0.0f, "%s: time_to_settle %a", what, settle);
}

static void fill(fz_reader *r, float *v)
{
	for (int c = 0; c < CH; c++) {
		v[c] = fz_bool(r) ? fz_float(r) : 0.0f;
	}
}

static spring_result call(fz_reader *r, void *object, int op, const char **name)
{
	spring_motion *m = object;
	float a[CH], b[CH];
	int channels = fz_u8(r) % 8 == 0 ? fz_int(r, -1, CH + 1) : m->channels;
	switch (op) {
	case 0:
		*name = "spring_motion_set_target";
		fill(r, a);
		return spring_motion_set_target(m, fz_u8(r) % 16 == 0 ? NULL : a, channels);
	case 1: *name = "spring_motion_set_params"; return spring_motion_set_params(m, fz_params(r));
	case 2:
		*name = "spring_motion_set_value";
		fill(r, a);
		fill(r, b);
		return spring_motion_set_value(m, a, fz_bool(r) ? NULL : b, channels);
	case 3: {
		*name = "spring_motion_get_value";
		float value[CH + 1], velocity[CH + 1];
		spring_result res = spring_motion_get_value(m, fz_bool(r) ? NULL : value, fz_bool(r) ? NULL : velocity, channels);
		return res;
	}
	case 4: {
		*name = "spring_motion_sample";
		static float values[MAX_SAMPLES * CH], velocities[MAX_SAMPLES * CH];
		float interval = fz_float(r), max_duration = fz_float(r);
		int capacity = fz_int(r, 0, MAX_SAMPLES), count = -1, truncated = -1;
		spring_result res = spring_motion_sample(m, interval, max_duration, values, fz_bool(r) ? NULL : velocities, capacity,
		                                         &count, &truncated);
		if (res == SPRING_OK) {
			FZ_CHECK(count >= 0 && count <= capacity && (truncated == 0 || truncated == 1),
			         "sample: count %d of %d, truncated %d", count, capacity, truncated);
			FZ_CHECK(fz_all_finite(values, (size_t)count * (size_t)m->channels), "sample: a non-finite value");
		}
		return res;
	}
	default: *name = "spring_motion_update"; return spring_motion_update(m, fz_dt(r));
	}
}

static void progress(fz_reader *r)
{
	static float curve[MAX_SAMPLES];
	spring_params p = fz_params(r);
	float velocity = fz_float(r), interval = fz_float(r), max_duration = fz_float(r), rest_delta = fz_float(r);
	int capacity = fz_int(r, 0, MAX_SAMPLES), count = -1, truncated = -1;
	spring_result res = spring_motion_sample_progress(p, velocity, interval, max_duration, rest_delta, curve, capacity, &count,
	                                                  &truncated);
	FZ_CHECK_RESULT(res, "spring_motion_sample_progress");
	if (res != SPRING_OK) {
		return;
	}
	FZ_CHECK(count >= 0 && count <= capacity, "sample_progress: count %d of %d", count, capacity);
	FZ_CHECK(fz_all_finite(curve, (size_t)count), "sample_progress: a non-finite value");
	if (!truncated && count > 0) {
		FZ_CHECK(curve[0] == 0.0f && curve[count - 1] == 1.0f, "sample_progress: curve from %a to %a", curve[0],
		         curve[count - 1]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_reader r = fz_make(data, size);
	if (fz_u8(&r) % 8 == 0) {
		progress(&r);
	}
	spring_motion_desc d;
	memset(&d, 0, sizeof d);
	d.channels = fz_u8(&r) % 16 == 0 ? fz_int(&r, -1, CH + 1) : fz_int(&r, 1, CH);
	d.params = fz_params(&r);
	fill(&r, d.from);
	fill(&r, d.to);
	fill(&r, d.velocity);
	if (fz_u8(&r) % 4 == 0) {
		fill(&r, d.rest_delta);
		fill(&r, d.rest_speed);
	}
	d.clamp_overshoot = fz_bool(&r);

	FZ_TRACE("description: %s", fz_log_take(&r));
	spring_motion m, before;
	memset(&m, 0x5a, sizeof m);
	memcpy(&before, &m, sizeof m); // with the padding
	spring_result res = spring_motion_init(&m, &d);
	FZ_CHECK_RESULT(res, "spring_motion_init");
	if (res != SPRING_OK) {
		FZ_CHECK_UNCHANGED(&before, &m, sizeof m, "spring_motion_init", res);
		return 0;
	}
	check_motion(&m, "spring_motion_init");
	int ops = fz_int(&r, 1, 64);
	for (int i = 0; i < ops && r.n > 0; i++) {
		int op = fz_int(&r, 0, 9);
		fz_checked_call(&r, &m, sizeof m, &before, op > 5 ? 5 : op, 1u << 3 | 1u << 4, call, check_motion); // 3, 4: get, sample
	}
	return 0;
}
