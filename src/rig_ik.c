// SPDX-License-Identifier: MIT
// Inverse kinematics on the sampled pose: analytic two-bone and CCD, blended by mix.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "rig_internal.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// IK

void spring_rig_ik_two_bone(spring_vec2 pivot, float l1, float l2, spring_vec2 target, bool bend_positive, float fallback_angle,
                            float *angle1, float *angle2)
{
	double dx = (double)target.x - (double)pivot.x, dy = (double)target.y - (double)pivot.y;
	double d = sqrt(dx * dx + dy * dy);
	double a = (double)l1, b = (double)l2;
	if (!(a > 0.0) || !(b > 0.0) || !spring_is_finite(target.x) || !spring_is_finite(target.y) || !(d > 1e-9 * (a + b))) {
		// Degenerate lengths or a target on the pivot: no direction to reach for; keep the
		// fallback angle with the lower bone folded back towards the pivot as far as it can.
		double base = (double)fallback_angle;
		if (angle1) {
			*angle1 = (float)base;
		}
		if (angle2) {
			*angle2 = (float)(base + (bend_positive ? SPRING_PI : -SPRING_PI));
			*angle2 = spring_angle_wrap(*angle2);
		}
		return;
	}
	double base = spring_det_atan2(dy, dx);
	// Clamp the distance to what the two bones can span: beyond it the chain points straight
	// at the target, inside |a - b| it folds as far as it can.
	double reach = fmin(fmax(d, fabs(a - b)), a + b);
	double c1 = (a * a + reach * reach - b * b) / (2.0 * a * reach);
	double inner = spring_det_acos(c1);
	double sign = bend_positive ? 1.0 : -1.0;
	double t1 = base + sign * inner;
	double ex = (double)pivot.x + a * spring_det_cos(t1), ey = (double)pivot.y + a * spring_det_sin(t1);
	double t2 = reach >= a + b ? t1 : spring_det_atan2((double)target.y - ey, (double)target.x - ex);
	if (d > a + b) {
		t2 = t1;
	} else if (d < fabs(a - b)) {
		// Folded: the lower bone points back along the upper one.
		double c2 = (a * a + b * b - reach * reach) / (2.0 * a * b);
		double elbow = spring_det_acos(c2);
		t2 = t1 - sign * (SPRING_PI - elbow);
	}
	if (angle1) {
		*angle1 = spring_angle_wrap((float)t1);
	}
	if (angle2) {
		*angle2 = spring_angle_wrap((float)t2);
	}
}

static spring_vec2 bone_tip(const spring_rig *r, const spring_xform2 *world, int bone)
{
	return spring_xform2_apply(world[bone], spring_vec2_make(rig_length(r)[bone], 0.0f));
}

static spring_vec2 ik_target(const rig_ik *ik, const spring_xform2 *world)
{
	if (ik->has_override || ik->target < 0) {
		return ik->override_target;
	}
	return world[ik->target].position;
}

// Turns `bone` so its world angle becomes `world_angle`, blended from the current pose by mix.
static void set_world_angle(spring_rig *r, const spring_xform2 *world, int bone, float world_angle, float mix)
{
	rig_local(r)[bone].angle += spring_angle_delta(world[bone].angle, world_angle) * mix;
}

void spring_rig_internal_solve_ik(spring_rig *r, spring_xform2 *world)
{
	bool current = false; // world matches the locals
	for (int k = 0; k < r->ik_count; k++) {
		rig_ik *ik = &rig_iks(r)[k];
		if (ik->mix <= 0.0f) {
			continue;
		}
		if (!current) {
			spring_rig_internal_forward(r, r->root_step, rig_local(r), world);
			current = true;
		}
		spring_vec2 target = ik_target(ik, world);
		if (!spring_rig_internal_finite2(target)) {
			continue;
		}
		const int *bones = &rig_ik_bones(r)[ik->first_index];
		if (ik->type == SPRING_RIG_IK_TWO_BONE) {
			int b1 = bones[0], b2 = bones[1];
			spring_vec2 pivot = world[b1].position;
			spring_vec2 elbow = world[b2].position;
			float l1 = spring_vec2_length(spring_vec2_sub(elbow, pivot));
			float l2 = rig_length(r)[b2] * fabsf(world[b2].scale.x);
			if (!(l1 > 0.0f) || !(l2 > 0.0f)) {
				continue;
			}
			// The upper bone's direction differs from pivot->elbow by the child's offset angle.
			float offset = spring_angle_delta(world[b1].angle,
			                                  (float)spring_det_atan2((double)elbow.y - pivot.y, (double)elbow.x - pivot.x));
			float t1, t2;
			spring_rig_ik_two_bone(pivot, l1, l2, target, ik->bend_positive, world[b1].angle + offset, &t1, &t2);
			set_world_angle(r, world, b1, t1 - offset, ik->mix);
			spring_rig_internal_forward_subtree(r, r->root_step, rig_local(r), world, b1);
			set_world_angle(r, world, b2, t2, ik->mix);
		} else {
			// CCD: turn each bone, tip to root, so the effector points at the target; repeat
			// until within tolerance; then blend from the clip pose by mix.
			int n = ik->bone_count;
			float *saved = rig_ik_saved(r);
			for (int j = 0; j < n; j++) {
				saved[j] = rig_local(r)[bones[j]].angle;
			}
			for (int it = 0; it < ik->iterations; it++) {
				spring_vec2 eff = bone_tip(r, world, bones[n - 1]);
				double ex = (double)eff.x - target.x, ey = (double)eff.y - target.y;
				if (sqrt(ex * ex + ey * ey) <= (double)ik->tolerance) {
					break;
				}
				for (int j = n - 1; j >= 0; j--) {
					int b = bones[j];
					spring_vec2 pivot = world[b].position;
					spring_vec2 e2 = bone_tip(r, world, bones[n - 1]);
					double a1 = spring_det_atan2((double)e2.y - pivot.y, (double)e2.x - pivot.x);
					double a2 = spring_det_atan2((double)target.y - pivot.y, (double)target.x - pivot.x);
					float delta = spring_angle_delta((float)a1, (float)a2);
					rig_local(r)[b].angle += delta;
					spring_rig_internal_forward_subtree(r, r->root_step, rig_local(r), world, b);
				}
			}
			for (int j = 0; j < n; j++) {
				float solved = rig_local(r)[bones[j]].angle;
				rig_local(r)[bones[j]].angle = saved[j] + (solved - saved[j]) * ik->mix;
			}
		}
		// The next constraint sees this one's result.
		spring_rig_internal_forward_subtree(r, r->root_step, rig_local(r), world, bones[0]);
	}
}
