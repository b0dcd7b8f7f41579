// SPDX-License-Identifier: MIT
// Every kind of object that takes snapshots, behind one interface (snapshot_kinds.h).
#include "snapshot_kinds.h"

#include "scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool all_finite(const float *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!spring_is_finite(f[i])) {
			return false;
		}
	}
	return true;
}

float snapshot_frame_dt(int frame)
{
	return frame % 5 == 3 ? 0.25f : 1.0f / 60.0f;
}

// --- motion

static size_t motion_size(const void *o)
{
	return spring_motion_snapshot_size((const spring_motion *)o);
}
static spring_result motion_snapshot(const void *o, void *b, size_t s)
{
	return spring_motion_snapshot((const spring_motion *)o, b, s);
}
static spring_result motion_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_motion_restore((spring_motion *)o, b, s, e);
}
static const char *motion_drive(void *o, int frames)
{
	spring_motion *m = (spring_motion *)o;
	for (int f = 0; f < frames; f++) {
		spring_result r = spring_motion_update(m, snapshot_frame_dt(f));
		if (r != SPRING_OK && r != SPRING_ERROR_OUT_OF_RANGE) {
			return "advance refused a valid frame";
		}
		float v[SPRING_MOTION_MAX_CHANNELS], w[SPRING_MOTION_MAX_CHANNELS];
		if (spring_motion_get_value(m, v, w, m->channels) != SPRING_OK || !all_finite(v, (size_t)m->channels) ||
		    !all_finite(w, (size_t)m->channels)) {
			return "get failed or not finite";
		}
		float settle = spring_motion_time_to_settle(m);
		if (settle != settle || settle < 0.0f) {
			return "time_to_settle NaN or negative";
		}
	}
	float to[2] = {3.0f, -1.0f};
	if (spring_motion_set_target(m, to, m->channels) != SPRING_OK) {
		return "set_target refused after an accepted restore";
	}
	return NULL;
}
static void no_destroy(void *o)
{
	(void)o;
}

static spring_motion g_motion;
snapshot_kind snapshot_kind_motion(int frames)
{
	spring_motion_desc d = {0};
	d.channels = 2;
	d.to[0] = 300.0f, d.to[1] = 1.0f;
	d.velocity[1] = -4.0f;
	d.clamp_overshoot = false;
	spring_motion_init(&g_motion, &d);
	if (frames > 0) {
		spring_motion_update(&g_motion, 0.07f);
	}
	snapshot_kind k = {"motion", &g_motion, motion_size, motion_snapshot, motion_restore, motion_drive, no_destroy};
	return k;
}

// --- angle chain

static size_t chain2d_size(const void *o)
{
	return spring_chain2d_snapshot_size((const spring_chain2d *)o);
}
static spring_result chain2d_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain2d_snapshot((const spring_chain2d *)o, b, s);
}
static spring_result chain2d_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain2d_restore((spring_chain2d *)o, b, s, e);
}
static const char *chain2d_drive(void *o, int frames)
{
	spring_chain2d *c = (spring_chain2d *)o;
	const int n = spring_chain2d_segment_count(c);
	for (int f = 0; f < frames; f++) {
		spring_xform2 root = scene_xform2(10.0f * (float)f, (float)(f % 3), 0.1f * (float)f);
		if (spring_chain2d_update(c, root, snapshot_frame_dt(f)) != SPRING_OK) {
			return "update refused a valid frame";
		}
		spring_xform2 joints[SPRING_CHAIN_MAX_BONES + 1];
		float local[SPRING_CHAIN_MAX_BONES];
		if (spring_chain2d_get_pose(c, joints, local, n + 1) != SPRING_OK ||
		    !all_finite(&joints[0].position.x, (size_t)(n + 1) * sizeof joints[0] / sizeof(float)) ||
		    !all_finite(local, (size_t)n)) {
			return "pose failed or not finite";
		}
		for (int i = 0; i < n; i++) {
			spring_state s;
			if (spring_chain2d_get_state(c, i, &s) != SPRING_OK || !spring_is_finite(s.x) || !spring_is_finite(s.v) ||
			    !spring_is_finite(spring_chain2d_get_target(c, i))) {
				return "state or target not finite";
			}
		}
	}
	return NULL;
}
static void chain2d_destroy(void *o)
{
	spring_chain2d_destroy((spring_chain2d *)o);
}

spring_chain2d_desc snapshot_chain2d_desc(spring_chain2d_segment *segs, int n)
{
	scene_tail_segments(segs, n);
	segs[1].limit = 0.8f;
	spring_chain2d_desc d = {.segment_count = n, .segments = segs, .gravity = {0.0f, -200.0f}, .max_root_speed = 500.0f};
	return d;
}

snapshot_kind snapshot_kind_chain2d(int n, int frames)
{
	spring_chain2d_segment segs[8];
	spring_chain2d_desc d = snapshot_chain2d_desc(segs, n);
	spring_chain2d *c = NULL;
	spring_chain2d_create(&d, &c, NULL);
	spring_chain2d_set_params(c, n - 1, (spring_params){300.0f, 4.0f, 1.0f});
	chain2d_drive(c, frames);
	snapshot_kind k = {"chain2d", c, chain2d_size, chain2d_snapshot, chain2d_restore, chain2d_drive, chain2d_destroy};
	return k;
}

// --- angle group

static size_t group2d_size(const void *o)
{
	return spring_chain2d_group_snapshot_size((const spring_chain2d_group *)o);
}
static spring_result group2d_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain2d_group_snapshot((const spring_chain2d_group *)o, b, s);
}
static spring_result group2d_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain2d_group_restore((spring_chain2d_group *)o, b, s, e);
}
static const char *group2d_drive(void *o, int frames)
{
	spring_chain2d_group *g = (spring_chain2d_group *)o;
	const int count = spring_chain2d_group_chain_count(g), n = spring_chain2d_group_segment_count(g);
	for (int f = 0; f < frames; f++) {
		spring_xform2 roots[4];
		for (int j = 0; j < count; j++) {
			roots[j] = scene_xform2(10.0f * (float)f - 5.0f * (float)j, (float)(f % 3), 0.1f * (float)(f + j));
		}
		if (spring_chain2d_group_update(g, roots, snapshot_frame_dt(f)) != SPRING_OK) {
			return "update refused a valid frame";
		}
		spring_xform2 joints[4 * 9];
		if (spring_chain2d_group_get_poses(g, joints, count * (n + 1)) != SPRING_OK ||
		    !all_finite(&joints[0].position.x, (size_t)(count * (n + 1)) * sizeof joints[0] / sizeof(float))) {
			return "poses failed or not finite";
		}
		for (int j = 0; j < count; j++) {
			for (int i = 0; i < n; i++) {
				spring_state s;
				if (spring_chain2d_group_get_state(g, j, i, &s) != SPRING_OK || !spring_is_finite(s.x) ||
				    !spring_is_finite(s.v)) {
					return "state not finite";
				}
			}
		}
	}
	return NULL;
}
static void group2d_destroy(void *o)
{
	spring_chain2d_group_destroy((spring_chain2d_group *)o);
}

spring_chain2d_group *snapshot_new_group2d(int count, int n, int max_steps)
{
	spring_chain2d_segment segs[8];
	spring_chain2d_desc d = snapshot_chain2d_desc(segs, n);
	d.max_steps = max_steps;
	spring_chain2d_group_desc gd = {&d, count, NULL};
	spring_chain2d_group *g = NULL;
	spring_chain2d_group_create(&gd, &g, NULL);
	return g;
}

snapshot_kind snapshot_kind_group2d(int count, int n, int max_steps, int frames)
{
	spring_chain2d_group *g = snapshot_new_group2d(count, n, max_steps);
	spring_chain2d_group_set_params(g, count - 1, n - 1, (spring_params){300.0f, 4.0f, 1.0f});
	spring_chain2d_group_set_forces(g, 0, (spring_vec2){0.0f, -50.0f}, (spring_vec2){3.0f, 0.0f});
	const float offsets[8] = {0.3f, -0.2f, 0.1f, 0.4f, -0.5f, 0.2f, 0.1f, -0.1f}; // the blobs hold animated offsets
	spring_chain2d_group_set_animation(g, count - 1, offsets, n);
	group2d_drive(g, frames);
	snapshot_kind k = {"chain2d_group", g, group2d_size, group2d_snapshot, group2d_restore, group2d_drive, group2d_destroy};
	return k;
}

// --- tip chain

static size_t chain_size(const void *o)
{
	return spring_chain_snapshot_size((const spring_chain *)o);
}
static spring_result chain_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain_snapshot((const spring_chain *)o, b, s);
}
static spring_result chain_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain_restore((spring_chain *)o, b, s, e);
}
static const char *chain_drive(void *o, int frames)
{
	spring_chain *c = (spring_chain *)o;
	const int n = spring_chain_bone_count(c);
	for (int f = 0; f < frames; f++) {
		spring_xform3 root = scene_tail_root(0.05 * f);
		if (spring_chain_update(c, root, snapshot_frame_dt(f)) != SPRING_OK) {
			return "update refused a valid frame";
		}
		spring_xform3 bones[SPRING_CHAIN_MAX_BONES];
		spring_vec3 tips[SPRING_CHAIN_MAX_BONES];
		if (spring_chain_get_pose(c, bones, tips, n) != SPRING_OK ||
		    !all_finite(&bones[0].position.x, (size_t)n * sizeof bones[0] / sizeof(float)) ||
		    !all_finite(&tips[0].x, (size_t)n * 3u)) {
			return "pose failed or not finite";
		}
		if (spring_chain_get_stepped_pose(c, bones, tips, n) != SPRING_OK ||
		    !all_finite(&bones[0].position.x, (size_t)n * sizeof bones[0] / sizeof(float)) ||
		    !all_finite(&tips[0].x, (size_t)n * 3u)) {
			return "stepped pose failed or not finite";
		}
		for (int i = 0; i < n; i++) {
			spring_state_vec3 s;
			spring_vec3 t = spring_chain_get_target(c, i);
			if (spring_chain_get_state(c, i, &s) != SPRING_OK || !all_finite(&s.x.x, 6u) || !all_finite(&t.x, 3u)) {
				return "state or target not finite";
			}
		}
	}
	return NULL;
}
static void chain_destroy(void *o)
{
	spring_chain_destroy((spring_chain *)o);
}

snapshot_kind snapshot_kind_chain(int n, bool mode_2d, int frames)
{
	spring_chain_bone_desc bones[8];
	spring_chain_desc d = scene_tail_desc(bones, n);
	d.gravity = spring_vec3_make(0.0f, -300.0f, 0.0f);
	d.mode_2d = mode_2d;
	spring_chain_collider colliders[2] = {{SPRING_CHAIN_COLLIDER_SPHERE, {30.0f, -20.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 12.0f},
	                                      {SPRING_CHAIN_COLLIDER_PLANE, {0.0f, -60.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, 0.0f}};
	d.colliders = colliders;
	d.collider_count = 2;
	d.max_colliders = 3;
	d.max_root_speed = 400.0f;
	bones[n - 1].cone_limit = 0.7f;
	spring_chain *c = NULL;
	spring_chain_create(&d, &c, NULL);
	spring_chain_set_params(c, 1, (spring_params){300.0f, 4.0f, 1.0f});
	chain_drive(c, frames);
	snapshot_kind k = {
		mode_2d ? "chain (2D)" : "chain", c, chain_size, chain_snapshot, chain_restore, chain_drive, chain_destroy};
	return k;
}

// --- tip-chain group

static size_t group_size(const void *o)
{
	return spring_chain_group_snapshot_size((const spring_chain_group *)o);
}
static spring_result group_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain_group_snapshot((const spring_chain_group *)o, b, s);
}
static spring_result group_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain_group_restore((spring_chain_group *)o, b, s, e);
}
static const char *group_drive(void *o, int frames)
{
	spring_chain_group *g = (spring_chain_group *)o;
	const int count = spring_chain_group_chain_count(g), n = spring_chain_group_bone_count(g);
	for (int f = 0; f < frames; f++) {
		spring_xform3 roots[5];
		for (int j = 0; j < count; j++) {
			roots[j] = scene_tail_root(0.05 * f + 0.3 * j);
		}
		if (spring_chain_group_update(g, roots, snapshot_frame_dt(f)) != SPRING_OK) {
			return "update refused a valid frame";
		}
		spring_xform3 bones[5 * 4];
		spring_vec3 tips[5 * 4];
		if (spring_chain_group_get_poses(g, bones, tips, count * n) != SPRING_OK ||
		    !all_finite(&bones[0].position.x, (size_t)(count * n) * sizeof bones[0] / sizeof(float)) ||
		    !all_finite(&tips[0].x, (size_t)(count * n) * 3u)) {
			return "poses failed or not finite";
		}
		for (int j = 0; j < count; j++) {
			for (int i = 0; i < n; i++) {
				spring_state_vec3 st;
				if (spring_chain_group_get_state(g, j, i, &st) != SPRING_OK || !all_finite(&st.x.x, 6u)) {
					return "state not finite";
				}
			}
		}
	}
	return NULL;
}
static void group_destroy(void *o)
{
	spring_chain_group_destroy((spring_chain_group *)o);
}

int snapshot_find_floats(const unsigned char *blob, size_t size, float x, size_t *at, int max)
{
	int found = 0;
	for (size_t k = SPRING_SNAPSHOT_HEADER_BYTES; k + sizeof x <= size; k += sizeof x) {
		if (memcmp(blob + k, &x, sizeof x) == 0) {
			if (found < max) {
				at[found] = k;
			}
			found++;
		}
	}
	return found;
}

void snapshot_group_pose(int n, spring_xform3 *pose)
{
	spring_chain_bone_desc bones[4];
	(void)scene_tail_desc(bones, n);
	for (int i = 0; i < n; i++) {
		const float a = 0.2f + 0.1f * (float)i;
		pose[i].rotation = spring_quat_mul((spring_quat){sinf(0.5f * a), 0.0f, 0.0f, cosf(0.5f * a)},
		                                   bones[i].rest_local.rotation);
		pose[i].position = bones[i].rest_local.position;
		pose[i].position.y += SNAPSHOT_GROUP_POSE_Y;
	}
}

spring_chain_group *snapshot_new_group(int count, int n)
{
	spring_chain_bone_desc bones[4];
	spring_chain_desc d = scene_tail_desc(bones, n);
	d.gravity = spring_vec3_make(0.0f, -300.0f, 0.0f);
	bones[n - 1].cone_limit = 0.7f;
	spring_chain_group *g = NULL;
	spring_chain_group_create(&(spring_chain_group_desc){.chain = &d, .chain_count = count}, &g, NULL);
	return g;
}

snapshot_kind snapshot_kind_group(int count, int n, int frames)
{
	spring_chain_group *g = snapshot_new_group(count, n);
	spring_chain_group_set_params(g, count - 1, n - 1, (spring_params){300.0f, 4.0f, 1.0f});
	spring_chain_group_set_forces(g, 0, spring_vec3_make(0.0f, -50.0f, 0.0f), spring_vec3_make(3.0f, 0.0f, 0.0f));
	spring_xform3 pose[4];
	snapshot_group_pose(n, pose);
	spring_chain_group_set_animation(g, 0, pose, n);
	group_drive(g, frames);
	snapshot_kind k = {"chain_group", g, group_size, group_snapshot, group_restore, group_drive, group_destroy};
	return k;
}

// --- rig: a hip walking by a clip with an event, a two-bone arm reaching a target by IK, an angle
// tail and a tip-chain ribbon with a collider.

enum { R_HIP, R_T1, R_T2, R_T3, R_UPPER, R_FORE, R_RIB1, R_RIB2 };
static const char *const g_rig_names[SNAPSHOT_RIG_BONES] = {"hip",   "tail1", "tail2",   "tail3",
                                                            "upper", "fore",  "ribbon1", "ribbon2"};

spring_rig_desc snapshot_rig_desc(void)
{
	static const int parent[SNAPSHOT_RIG_BONES] = {-1, R_HIP, R_T1, R_T2, R_HIP, R_UPPER, R_FORE, R_RIB1};
	static spring_rig_bone_desc bones[SNAPSHOT_RIG_BONES];
	for (int b = 0; b < SNAPSHOT_RIG_BONES; b++) {
		bones[b].name = g_rig_names[b];
		bones[b].parent = parent[b] < 0 ? NULL : g_rig_names[parent[b]];
		bones[b].length = 20.0f;
		bones[b].setup = scene_xform2(b == R_HIP ? 0.0f : 20.0f, 0.0f, b == R_T1 ? 3.0f : b == R_UPPER ? 1.2f : 0.1f);
	}
	static spring_rig_key keys[3] = {{0.0f, {0.0f, 0.0f}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                 {0.5f, {30.0f, 5.0f}, SPRING_RIG_CURVE_LINEAR, {0}},
	                                 {1.0f, {0.0f, 0.0f}, SPRING_RIG_CURVE_LINEAR, {0}}};
	static spring_rig_track track = {"hip", SPRING_RIG_TRACK_TRANSLATE, 3, keys};
	static spring_rig_event event = {0.25f, "step", {1.0f, 2.0f}};
	static spring_rig_clip_desc clip = {"walk", 1.0f, true, 1, &track, 1, &event};
	static spring_rig_ik_desc ik;
	memset(&ik, 0, sizeof ik);
	ik.name = "arm";
	ik.type = SPRING_RIG_IK_TWO_BONE;
	ik.first = "upper";
	ik.last = "fore";
	static spring_rig_chain_desc chains[2];
	memset(chains, 0, sizeof chains);
	chains[0].name = "tail";
	chains[0].type = SPRING_RIG_CHAIN_ANGLE;
	chains[0].first = "tail1";
	chains[0].last = "tail3";
	chains[0].gravity = spring_vec2_make(0.0f, -200.0f);
	chains[1].name = "ribbon";
	chains[1].type = SPRING_RIG_CHAIN_TIP;
	chains[1].first = "ribbon1";
	chains[1].last = "ribbon2";
	chains[1].gravity = spring_vec2_make(0.0f, -200.0f);
	static spring_chain_collider ball = {SPRING_CHAIN_COLLIDER_SPHERE, {60.0f, -30.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 10.0f};
	chains[1].collider_count = 1;
	chains[1].colliders = &ball;
	spring_rig_desc d = {0};
	d.bone_count = SNAPSHOT_RIG_BONES;
	d.bones = bones;
	d.clip_count = 1;
	d.clips = &clip;
	d.ik_count = 1;
	d.iks = &ik;
	d.chain_count = 2;
	d.chains = chains;
	return d;
}

spring_rig *snapshot_new_rig(void)
{
	spring_rig_desc d = snapshot_rig_desc();
	spring_rig *rig = NULL;
	spring_error e;
	if (spring_rig_create(&d, &rig, &e) != SPRING_OK) {
		fprintf(stderr, "  the test rig: %s\n", e.message);
		return NULL;
	}
	return rig;
}

static size_t rig_size(const void *o)
{
	return spring_rig_snapshot_size((const spring_rig *)o);
}
static spring_result rig_snapshot(const void *o, void *b, size_t s)
{
	return spring_rig_snapshot((const spring_rig *)o, b, s);
}
static spring_result rig_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_rig_restore((spring_rig *)o, b, s, e);
}
static const char *rig_read(const spring_rig *rig)
{
	spring_xform2 w[SNAPSHOT_RIG_BONES];
	const float *f = &w[0].position.x;
	const size_t floats = (size_t)SNAPSHOT_RIG_BONES * sizeof w[0] / sizeof(float);
	if (spring_rig_get_world(rig, w, SNAPSHOT_RIG_BONES) != SPRING_OK || !all_finite(f, floats) ||
	    spring_rig_get_local(rig, w, SNAPSHOT_RIG_BONES) != SPRING_OK || !all_finite(f, floats) ||
	    spring_rig_get_stepped_world(rig, w, SNAPSHOT_RIG_BONES) != SPRING_OK || !all_finite(f, floats) ||
	    spring_rig_get_base_world(rig, w, SNAPSHOT_RIG_BONES) != SPRING_OK || !all_finite(f, floats)) {
		return "a pose failed or is not finite";
	}
	spring_rig_event events[8];
	int total = 0, n = spring_rig_get_events(rig, events, 8, &total);
	for (int i = 0; i < n; i++) {
		if (strlen(events[i].name) > 63u || !spring_is_finite(events[i].time)) {
			return "an event is not terminated or not finite";
		}
	}
	return NULL;
}
static const char *rig_drive(void *o, int frames)
{
	spring_rig *rig = (spring_rig *)o;
	const char *broken = rig_read(rig);
	for (int f = 0; f < frames && !broken; f++) {
		spring_result r = spring_rig_set_root(rig, scene_xform2(5.0f * (float)f, 0.0f, 0.05f * (float)f));
		if (r != SPRING_OK) {
			return "set_root refused a valid root";
		}
		r = spring_rig_update(rig, snapshot_frame_dt(f));
		if (r != SPRING_OK) {
			return "update refused a valid frame";
		}
		broken = rig_read(rig);
	}
	return broken;
}
static void rig_destroy(void *o)
{
	spring_rig_destroy((spring_rig *)o);
}

snapshot_kind snapshot_kind_rig(int frames)
{
	spring_rig *rig = snapshot_new_rig();
	if (rig && frames > 0) {
		spring_rig_play(rig, 0, 0.0f);
		spring_rig_set_ik_target(rig, 0, spring_vec2_make(30.0f, 25.0f));
		rig_drive(rig, frames);
	}
	snapshot_kind k = {"rig", rig, rig_size, rig_snapshot, rig_restore, rig_drive, rig_destroy};
	return k;
}

// --- skeleton crowd

// A head under hips (node 1 under 0), a hair strand of three joints under the head (2 -> 3 -> 4,
// its spring centred on the head, colliding with a sphere and a capsule on the head and a plane
// under the hips), an arm with a VRM 0.x end tail (5), an unneeded node (6).
static const spring_skeleton_node skeleton_nodes[7] = {
	{-1, {0.0f, 1.0f, 0.0f}, {0, 0, 0, 0}, {0, 0, 0}},         {0, {0.0f, 0.5f, 0.0f}, {0, 0.14944f, 0, 0.98877f}, {0, 0, 0}},
	{1, {0.0f, 0.1f, 0.0f}, {0, 0, 0, 0}, {1.0f, 2.0f, 1.0f}}, {2, {0.0f, -0.1f, 0.0f}, {0, 0, 0, 0}, {0, 0, 0}},
	{3, {0.0f, -0.1f, 0.0f}, {0, 0, 0, 0}, {0, 0, 0}},         {0, {0.2f, 0.2f, 0.0f}, {0, 0, 0, 0}, {0, 0, 0}},
	{5, {0.1f, 0.0f, 0.0f}, {0, 0, 0, 0}, {0, 0, 0}},
};
static const spring_skeleton_joint skeleton_hair[3] = {
	{2, 1.0f, 0.4f, 0.5f, {0, -1, 0}, 0.02f}, {3, 0.6f, 0.3f, 0.5f, {0, -1, 0}, 0.02f}, {4, 0, 0, 0, {0, 0, 0}, 0}};
static const spring_skeleton_joint skeleton_arm[1] = {{5, 0.8f, 0.5f, 0.0f, {0, -1, 0}, 0.03f}};
static const spring_skeleton_collider skeleton_colliders[3] = {
	{1, SPRING_SKELETON_COLLIDER_SPHERE, {0, 0.1f, 0}, {0, 0, 0}, 0.1f},
	{1, SPRING_SKELETON_COLLIDER_CAPSULE, {0, 0, 0}, {0, 0.2f, 0}, 0.05f},
	{0, SPRING_SKELETON_COLLIDER_PLANE, {0, 0, 0}, {0, 1, 0}, 0.0f}};
static const int skeleton_members[3] = {0, 1, 2}, skeleton_hair_groups[1] = {0};
static const spring_skeleton_collider_group skeleton_groups[1] = {{skeleton_members, 3}};
static const spring_skeleton_spring skeleton_springs[2] = {{skeleton_hair, 3, false, {0, 0, 0}, 1, skeleton_hair_groups, 1},
                                                           {skeleton_arm, 1, true, {0.07f, 0, 0}, -1, NULL, 0}};

#define SKELETON_CROWD 3

static size_t skeleton_size(const void *o)
{
	return spring_skeleton_crowd_snapshot_size((const spring_skeleton_crowd *)o);
}
static spring_result skeleton_snapshot(const void *o, void *blob, size_t size)
{
	return spring_skeleton_crowd_snapshot((const spring_skeleton_crowd *)o, blob, size);
}
static spring_result skeleton_restore(void *o, const void *blob, size_t size, spring_error *error)
{
	return spring_skeleton_crowd_restore((spring_skeleton_crowd *)o, blob, size, error);
}
static const char *skeleton_drive(void *o, int frames)
{
	spring_skeleton_crowd *c = (spring_skeleton_crowd *)o;
	spring_xform3 roots[SKELETON_CROWD], locals[SKELETON_CROWD][7];
	for (int f = 0; f < frames; f++) {
		for (int i = 0; i < SKELETON_CROWD; i++) {
			roots[i] = spring_xform3_identity();
			roots[i].position.x = 0.3f * sinf(0.2f * (float)f + (float)i);
			for (int k = 0; k < 7; k++) {
				locals[i][k].position = skeleton_nodes[k].translation;
				locals[i][k].rotation = spring_quat_from_axis_angle(spring_vec3_make(0, 0, 1), 0.2f * (float)(i + k));
			}
		}
		spring_result r = spring_skeleton_crowd_update(c, roots, &locals[0][0], 7, snapshot_frame_dt(f));
		if (r != SPRING_OK) {
			return "update refused a valid frame";
		}
	}
	for (int i = 0; i < SKELETON_CROWD; i++) {
		spring_quat q[3];
		spring_vec3 t[3];
		if (spring_skeleton_crowd_get_pose(c, i, NULL, q, t, 3) != SPRING_OK ||
		    spring_skeleton_crowd_get_stepped_pose(c, i, NULL, q, t, 3) != SPRING_OK) {
			return "a pose failed";
		}
		for (int b = 0; b < 3; b++) {
			const float f[7] = {q[b].x, q[b].y, q[b].z, q[b].w, t[b].x, t[b].y, t[b].z};
			if (!all_finite(f, 7)) {
				return "a pose is not finite";
			}
		}
	}
	return NULL;
}
static void skeleton_destroy(void *o)
{
	spring_skeleton_crowd_destroy((spring_skeleton_crowd *)o);
}

snapshot_kind snapshot_kind_skeleton_crowd(int frames)
{
	const spring_skeleton_desc d = {
		skeleton_nodes, 7, skeleton_springs, 2, skeleton_colliders, 3, skeleton_groups, 1, 0.0f, SPRING_SKELETON_LENGTH_REST};
	const spring_skeleton_crowd_desc cd = {&d, SKELETON_CROWD};
	spring_skeleton_crowd *c = NULL;
	spring_error e;
	if (spring_skeleton_crowd_create(&cd, &c, &e) != SPRING_OK) {
		fprintf(stderr, "snapshot_kind_skeleton_crowd: %s\n", e.message);
	} else if (frames > 0 && skeleton_drive(c, frames) != NULL) {
		fprintf(stderr, "snapshot_kind_skeleton_crowd: the drive failed\n");
	}
	snapshot_kind k = {"skeleton crowd", c, skeleton_size, skeleton_snapshot, skeleton_restore, skeleton_drive, skeleton_destroy};
	return k;
}
