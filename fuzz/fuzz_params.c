// SPDX-License-Identifier: MIT
// Fuzz target: parameter conversions and queries (spring.h, "Parameterisations" and "Queries").
// Promises checked:
//  - every spring_params_from_* returns a defined code; on error `*out` is untouched; on OK
//    `*out` is finite and passes spring_params_validate;
//  - spring_params_validate returns a defined code;
//  - each query returns 0 for invalid params and a finite number for valid ones (the settling
//    queries: never NaN, never negative, +inf only when undamped);
//  - spring_params_to_origami gives finite sliders for valid params.
#include "fuzz.h"

typedef spring_result conversion2(float, float, spring_params *);
typedef spring_result conversion3(float, float, float, spring_params *);

static void check_conversion(spring_result r, const spring_params *out, const char *name)
{
	static const spring_params untouched = {-7.0f, -7.0f, -7.0f};
	FZ_CHECK_RESULT(r, name);
	if (r != SPRING_OK) {
		FZ_CHECK_UNCHANGED(&untouched, out, sizeof *out, name, r);
		return;
	}
	FZ_CHECK(fz_all_finite(out, FZ_FLOATS(*out)), "%s: OK with k %g c %g m %g", name, out->stiffness, out->damping, out->mass);
	FZ_CHECK(spring_params_validate(*out) == SPRING_OK, "%s: OK with invalid k %g c %g m %g", name, out->stiffness, out->damping,
	         out->mass);
}

static void conversions(fz_reader *r)
{
	static const struct {
		const char *name;
		conversion2 *fn;
	} two[] = {{"spring_params_from_frequency", spring_params_from_frequency},
	           {"spring_params_from_duration_bounce", spring_params_from_duration_bounce},
	           {"spring_params_from_response", spring_params_from_response},
	           {"spring_params_from_visual_duration", spring_params_from_visual_duration},
	           {"spring_params_from_tension_friction", spring_params_from_tension_friction},
	           {"spring_params_from_origami", spring_params_from_origami}};
	static const struct {
		const char *name;
		conversion3 *fn;
	} three[] = {{"spring_params_from_physical", spring_params_from_physical},
	             {"spring_params_from_settling", spring_params_from_settling},
	             {"spring_params_from_per_frame", spring_params_from_per_frame},
	             {"spring_params_from_per_frame_exact", spring_params_from_per_frame_exact}};
	const int count = (int)(sizeof two / sizeof two[0] + sizeof three / sizeof three[0]) + 1;
	int which = fz_int(r, 0, count - 1);
	float a = fz_float(r), b = fz_float(r), c = fz_float(r);
	spring_params out = {-7.0f, -7.0f, -7.0f};
	if (which < (int)(sizeof two / sizeof two[0])) {
		check_conversion(two[which].fn(a, b, &out), &out, two[which].name);
	} else if (which < count - 1) {
		int k = which - (int)(sizeof two / sizeof two[0]);
		check_conversion(three[k].fn(a, b, c, &out), &out, three[k].name);
	} else {
		check_conversion(spring_params_from_half_life(a, &out), &out, "spring_params_from_half_life");
	}
}

static void queries(fz_reader *r)
{
	spring_params p = fz_params(r);
	spring_result valid = spring_params_validate(p);
	FZ_CHECK_RESULT(valid, "spring_params_validate");
	static const struct {
		const char *name;
		float (*fn)(spring_params);
	} plain[] = {{"spring_damping_ratio", spring_damping_ratio},
	             {"spring_natural_frequency", spring_natural_frequency},
	             {"spring_frequency_hz", spring_frequency_hz},
	             {"spring_duration", spring_duration},
	             {"spring_bounce", spring_bounce},
	             {"spring_visual_duration", spring_visual_duration},
	             {"spring_overshoot", spring_overshoot},
	             {"spring_half_life", spring_half_life}};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		float v = plain[i].fn(p);
		if (valid != SPRING_OK) {
			FZ_CHECK(v == 0.0f, "%s of invalid params (k %g c %g m %g) gave %g, not 0", plain[i].name, p.stiffness, p.damping,
			         p.mass, v);
		} else {
			FZ_CHECK(spring_is_finite(v), "%s of valid params (k %a c %a m %a) gave %g", plain[i].name, p.stiffness, p.damping,
			         p.mass, v);
		}
	}
	float distance = fz_float(r), velocity = fz_float(r), epsilon = fz_float(r);
	float settle[2] = {spring_settling_duration(p, distance, velocity, epsilon),
	                   spring_settling_time(p, distance, velocity, epsilon)};
	static const char *const settle_name[2] = {"spring_settling_duration", "spring_settling_time"};
	for (int i = 0; i < 2; i++) {
		FZ_CHECK(!isnan(settle[i]) && settle[i] >= 0.0f, "%s(k %a c %a m %a, d %a, v %a, eps %a) gave %g", settle_name[i],
		         p.stiffness, p.damping, p.mass, distance, velocity, epsilon, settle[i]);
		FZ_CHECK(spring_is_finite(settle[i]) || (valid == SPRING_OK && p.damping == 0.0f),
		         "%s(k %a c %a m %a, d %a, v %a, eps %a) gave %g for a damped spring", settle_name[i], p.stiffness, p.damping,
		         p.mass, distance, velocity, epsilon, settle[i]);
	}
	if (valid == SPRING_OK) {
		float tension = 0.0f, friction = 0.0f;
		spring_params_to_origami(p, &tension, &friction);
		FZ_CHECK(spring_is_finite(tension) && spring_is_finite(friction), "spring_params_to_origami(k %a c %a m %a) gave %g, %g",
		         p.stiffness, p.damping, p.mass, tension, friction);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_reader r = fz_make(data, size);
	int ops = fz_int(&r, 1, 16);
	for (int i = 0; i < ops && r.n > 0; i++) {
		if (fz_bool(&r)) {
			conversions(&r);
		} else {
			queries(&r);
		}
	}
	return 0;
}
