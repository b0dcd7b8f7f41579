// SPDX-License-Identifier: MIT
// The clip events the library defines, acted on after an update (spring_rig_apply_events): today
// SPRING_RIG_EVENT_TELEPORT. The one rule for programs, the `spring` command and the npm package.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "rig_internal.h"

#include "base_internal.h"

#include <stdio.h>
#include <string.h>

// `root` moved by an event's payload, world units (summed in double, rounded once to float).
static spring_xform2 moved_by(spring_xform2 root, const spring_rig_event *event)
{
	root.position.x = (float)((double)root.position.x + (double)event->value[0]);
	root.position.y = (float)((double)root.position.y + (double)event->value[1]);
	return root;
}

// The refusal of recorded event k (a teleport to `root`): located at its clip and its index there.
static spring_result refuse(const spring_rig *rig, int k, spring_xform2 root, spring_error *error)
{
	const rig_clip *clip = &rig_clips(rig)[rig->fired_clip];
	const spring_rig_event *event = &rig->fired[k];
	const spring_error_step at[2] = {{SPRING_ELEMENT_CLIP, rig->fired_clip}, {SPRING_ELEMENT_EVENT, rig->fired_index[k]}};
	char prefix[200]; // 43 bytes, a name of at most 63 and three numbers of at most 16
	snprintf(prefix, sizeof prefix, "teleport by (%.9g, %.9g) of clip \"%s\" at %g s: ", (double)event->value[0],
	         (double)event->value[1], clip->name, (double)event->time);
	if (!spring_rig_internal_xform2_finite(root)) {
		return spring_internal_fail(error, SPRING_ERROR_NOT_FINITE, "rig", at, 2, "value", "%sthe root would not be finite",
		                            prefix);
	}
	double far = 0.0;
	int misfit = spring_rig_internal_placement(root, rig->reach, rig->chain_reach, rig->chain_count, &far);
	return spring_rig_internal_placement_error_at(error, at, 2, "value", prefix, root, misfit, far,
	                                              misfit >= 0 ? rig_chains(rig)[misfit].name : NULL);
}

spring_result spring_rig_apply_events(spring_rig *rig, spring_error *error)
{
	if (error) {
		memset(error, 0, sizeof *error);
	}
	if (!rig) {
		return spring_rig_internal_fail(error, SPRING_ERROR_INVALID_ARGUMENT, "rig", -1, "rig", "is NULL");
	}
	if (rig->events_applied) {
		return SPRING_OK; // once per update
	}
	if (rig->fired_lost_teleports > 0) {
		const spring_error_step at = {SPRING_ELEMENT_CLIP, rig->fired_clip};
		return spring_internal_fail(error, SPRING_ERROR_OUT_OF_RANGE, "rig", &at, 1, "events",
		                            "the last update crossed %d teleport events of clip \"%s\" past the %d events an "
		                            "update records; none applied",
		                            rig->fired_lost_teleports, rig_clips(rig)[rig->fired_clip].name, MAX_FIRED);
	}
	// Every teleport checked first, each from where the one before leaves the root: all or none.
	spring_xform2 root = rig->root_input;
	for (int k = 0; k < rig->fired_count; k++) {
		if (spring_rig_internal_is_teleport(rig->fired_names[k])) {
			root = moved_by(root, &rig->fired[k]);
			double far;
			if (!spring_rig_internal_xform2_finite(root) ||
			    spring_rig_internal_placement(root, rig->reach, rig->chain_reach, rig->chain_count, &far) != RIG_PLACEMENT_FITS) {
				return refuse(rig, k, root, error);
			}
		}
	}
	for (int k = 0; k < rig->fired_count; k++) {
		if (spring_rig_internal_is_teleport(rig->fired_names[k])) {
			spring_result r = spring_rig_teleport(rig, moved_by(rig->root_input, &rig->fired[k]));
			SPRING_ASSERT(r == SPRING_OK); // the same roots, checked above
			(void)r;
		}
	}
	rig->events_applied = 1;
	return SPRING_OK;
}
