// SPDX-License-Identifier: MIT
// Spring chains on the final pose: their descriptions built from bone ranges, and each step
// layered on the pose after clips and IK.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "rig_internal.h"

#include "chain_internal.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Chain descriptions (built into caller-provided scratch, no allocation)

spring_xform3 spring_rig_internal_to_xform3(spring_xform2 t)
{
	spring_xform3 r = {spring_vec3_make(t.position.x, t.position.y, 0.0f),
	                   spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), t.angle)};
	return r;
}

// Fills the description of chain c (angle or tip), its bones in s->bones.
int spring_rig_internal_chain_desc(const spring_rig_desc *d, const rig_refs *refs, int c, chain_scratch *s,
                                   spring_chain2d_desc *a, spring_chain_desc *t)
{
	const spring_rig_chain_desc *ch = &d->chains[c];
	int n = spring_rig_internal_range_bones(refs->parent, d->bone_count, refs->chain[c][0], refs->chain[c][1], s->bones,
	                                        SPRING_RIG_MAX_BONES);
	if (n < 1 || n > SPRING_CHAIN_MAX_BONES) {
		return -1;
	}
	spring_clock probe = {0}; // a refused init leaves it: zero, never read as garbage (gcc -flto -Werror saw it)
	spring_clock_init(&probe, d->step, d->max_steps);
	if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
		memset(a, 0, sizeof *a);
		for (int i = 0; i < n; i++) {
			const spring_rig_bone_desc *b = &d->bones[s->bones[i]];
			s->kind.segments[i] = (spring_chain2d_segment){.length = b->length, .rest_angle = b->setup.angle, .limit = ch->limit};
		}
		a->segment_count = n;
		a->segments = s->kind.segments;
		a->params = ch->params;
		a->tip_params = ch->tip_params;
		a->gravity = ch->gravity;
		a->wind = ch->wind;
		a->step = probe.step;
		a->max_steps = 1000; // driven one step per call by the rig
		a->integrator = ch->integrator;
		a->inertia = ch->inertia;
		a->no_inertia = ch->no_inertia;
		a->max_root_speed = ch->max_root_speed;
		a->max_root_angular_speed = ch->max_root_angular_speed;
	} else {
		memset(t, 0, sizeof *t);
		for (int i = 0; i < n; i++) {
			const spring_rig_bone_desc *b = &d->bones[s->bones[i]];
			spring_chain_bone_desc *tb = &s->kind.tip_bones[i];
			memset(tb, 0, sizeof *tb);
			tb->rest_local = spring_rig_internal_to_xform3(spring_rig_internal_clean_xform(b->setup));
			tb->tip = spring_vec3_make(b->length, 0.0f, 0.0f);
			tb->tip_radius = ch->tip_radius;
			tb->cone_limit = ch->cone_limit;
			if (ch->bone_gravity_count > 0) {
				tb->gravity = spring_vec3_make(ch->bone_gravity[i].x, ch->bone_gravity[i].y, 0.0f);
			}
		}
		for (int k = 0; k < ch->collider_count; k++) {
			s->colliders[k] = ch->colliders[k];
			s->colliders[k].a.z = 0.0f;
			if (s->colliders[k].type != SPRING_CHAIN_COLLIDER_PLANE) {
				s->colliders[k].b.z = 0.0f;
			}
		}
		t->bone_count = n;
		t->bones = s->kind.tip_bones;
		t->params = ch->params;
		t->tip_params = ch->tip_params;
		t->gravity = spring_vec3_make(ch->gravity.x, ch->gravity.y, 0.0f);
		t->wind = spring_vec3_make(ch->wind.x, ch->wind.y, 0.0f);
		t->colliders = s->colliders;
		t->collider_count = ch->collider_count;
		t->mode_2d = 1;
		t->integrator = ch->integrator;
		t->projection = ch->projection;
		t->max_root_speed = ch->max_root_speed;
		t->max_root_angular_speed = ch->max_root_angular_speed;
		t->step = probe.step;
		t->max_steps = 1000;
		t->root.rotation = spring_quat_identity();
	}
	return n;
}

// ---------------------------------------------------------------------------------------------
// Chains on the final pose

// The chain's root for this step: the first bone's pivot, oriented like its parent.
spring_xform2 spring_rig_internal_chain_root(const spring_rig *r, const rig_chain *ch, const spring_xform2 *world)
{
	int first = rig_chain_bones(r)[ch->first_index];
	int par = rig_parent(r)[first];
	spring_xform2 root;
	root.position = world[first].position;
	root.angle = par < 0 ? r->root_step.angle : world[par].angle;
	root.scale = spring_vec2_make(1.0f, 1.0f);
	return root;
}

spring_result spring_rig_internal_step_chains(spring_rig *r, spring_xform2 *world)
{
	spring_result result = SPRING_OK;
	float *sim = rig_scratch_angles(r); // the chain's simulated world angles after this step
	spring_xform2 *pose = rig_scratch_xf2(r);
	for (int c = 0; c < r->chain_count; c++) {
		rig_chain *ch = &rig_chains(r)[c];
		const int *bones = &rig_chain_bones(r)[ch->first_index];
		int n = ch->bone_count;
		spring_xform2 root = spring_rig_internal_chain_root(r, ch, world);
		int par = rig_parent(r)[bones[0]];
		spring_result res;
		// One fixed step of the chain at the rig's step, on this step's final pose: its local
		// transforms are the chain's animation.
		if (ch->type == SPRING_RIG_CHAIN_ANGLE) {
			for (int i = 0; i < n; i++) {
				sim[i] = spring_angle_delta(rig_setup(r)[bones[i]].angle, rig_local(r)[bones[i]].angle);
			}
			res = spring_chain2d_internal_step(rig_chain_angle(r, ch), root, sim);
			if (res == SPRING_OK) {
				res = spring_chain2d_internal_stepped_angles(rig_chain_angle(r, ch), sim, n);
			}
		} else {
			for (int i = 0; i < n; i++) {
				pose[i] = rig_local(r)[bones[i]];
			}
			spring_xform2 parent_world = par < 0 ? r->root_step : world[par];
			parent_world.scale = spring_vec2_make(1.0f, 1.0f);
			res = spring_chain_internal_step2d(rig_chain_tip(r, ch), parent_world, pose);
			if (res == SPRING_OK) {
				res = spring_chain_internal_stepped_pose2d(rig_chain_tip(r, ch), pose);
			}
			for (int i = 0; i < n && res == SPRING_OK; i++) {
				sim[i] = pose[i].angle;
			}
		}
		// Simulated world angles -> local angles, blended into the pose by mix.
		float prev_world = par < 0 ? r->root_step.angle : world[par].angle;
		for (int i = 0; i < n && res == SPRING_OK; i++) {
			float sim_local = spring_angle_delta(prev_world, sim[i]);
			float pose_local = rig_local(r)[bones[i]].angle;
			rig_local(r)[bones[i]].angle = pose_local + spring_angle_delta(pose_local, sim_local) * ch->mix;
			prev_world = sim[i];
		}
		ch->root = root;
		if (res != SPRING_OK && result == SPRING_OK) {
			result = res;
		}
		// The chain and everything hanging from it follow.
		spring_rig_internal_forward_subtree(r, r->root_step, rig_local(r), world, bones[0]);
	}
	return result;
}
