// SPDX-License-Identifier: MIT
/// @file param_table.h
/// The spring parameterisations of the tools: one row per form the core library converts from
/// (include/spring/spring.h), giving its name, its CLI flags, its keys in rig files, which values
/// are optional and their defaults, and the library call that converts it. The `spring` command's
/// flags and the rig-file reader both read this table, so a spring means the same in both places.
///
/// Part of the tools (library `spring_io`), not of libspring.
#ifndef SPRING_PARAM_TABLE_H
#define SPRING_PARAM_TABLE_H

#include "spring/spring.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPRING_PARAM_MAX_FIELDS 3

/// Range a CLI flag accepts when it is parsed (the library still judges the combination).
typedef struct spring_param_range {
	double lo, hi;        ///< +-1e30: unbounded
	int lo_open, hi_open; ///< 1: the bound itself is excluded
} spring_param_range;

/// One value of a parameterisation.
typedef struct spring_param_field {
	const char *key;          ///< key in a rig file's spring object, e.g. "bounce"
	const char *flag;         ///< CLI flag, e.g. "--bounce"
	const char *meta;         ///< placeholder in --help, e.g. "B"
	double fallback;          ///< value when left out; NAN: required
	spring_param_range range; ///< what the CLI flag accepts
	int shared_flag;          ///< 1: the flag also serves other purposes (--epsilon): giving it does
	                          ///< not choose this parameterisation and it is not listed in its usage
	int seconds;              ///< 1: a time in seconds (the CLI notes values that look like milliseconds)
} spring_param_field;

/// One parameterisation.
typedef struct spring_param_form {
	const char *name; ///< e.g. "duration-bounce" (printed by the CLI as the parameterisation)
	int primary;      ///< index of the field whose presence chooses this form
	int field_count;
	spring_param_field fields[SPRING_PARAM_MAX_FIELDS]; ///< in the order of the conversion's arguments
	/// The library's conversion, values in field order (already rounded to float).
	spring_result (*convert)(const float *values, spring_params *out);
	const char *summary; ///< printf format, one %s per field in field order
	const char *help;    ///< one line (or more, "\n"-separated) for --help
} spring_param_form;

/// Identifies a row (the index into spring_param_forms).
typedef enum spring_param_form_id {
	SPRING_PARAM_PHYSICAL,
	SPRING_PARAM_FREQUENCY,
	SPRING_PARAM_DURATION,
	SPRING_PARAM_RESPONSE,
	SPRING_PARAM_SETTLING,
	SPRING_PARAM_VISUAL_DURATION,
	SPRING_PARAM_HALF_LIFE,
	SPRING_PARAM_TENSION,
	SPRING_PARAM_ORIGAMI,
	SPRING_PARAM_PER_FRAME,
	SPRING_PARAM_STIFFNESS_RATIO,
	SPRING_PARAM_MOTION_DURATION,
	SPRING_PARAM_FORM_COUNT
} spring_param_form_id;

/// The table, indexed by spring_param_form_id.
extern const spring_param_form spring_param_forms[SPRING_PARAM_FORM_COUNT];

/// SwiftUI's default spring duration, seconds: the duration of a spring given only a bounce (CLI
/// `--bounce 0.3`, a rig file's or JavaScript's `{"bounce": 0.3}`) or nothing where a default is allowed.
#define SPRING_PARAM_DEFAULT_DURATION 0.5

/// 1 when `v` lies in `r`.
int spring_param_range_contains(spring_param_range r, double v);

/// `r` in words for messages: "in (-1, 1]", "> 0", ">= 0" or "a number".
void spring_param_range_text(char *buf, size_t size, spring_param_range r);

/// 1 when the field may be left out (it has a fallback).
int spring_param_field_optional(const spring_param_field *f);

/// The fields in the order they are listed to people: the primary one, then the required ones,
/// then the optional ones (each in field order). Returns the count written to `order`.
int spring_param_form_listing(const spring_param_form *form, int order[SPRING_PARAM_MAX_FIELDS]);

/// Index of the field with this rig-file key, -1 when the form has none.
int spring_param_form_key_index(const spring_param_form *form, const char *key);

/// Converts `values` (field order) with the form's library call: each value is rounded to float
/// first, as the library sees it.
spring_result spring_param_form_convert(const spring_param_form *form, const double *values, spring_params *out);

#ifdef __cplusplus
}
#endif
#endif
