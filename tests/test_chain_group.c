// SPDX-License-Identifier: MIT
// spring_chain_group: many tip chains of one shape stepped together give, chain by chain, the
// bits of single spring_chain objects driven by the same calls; no allocation per frame; bad
// input is refused and changes nothing.
#include "chain_internal.h"
#include "scenes.h"
#include "simd_internal.h"
#include "spring/chain.h"
#include "test_macros.h"
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BONES 8
#define CHAINS 37       // not a multiple of the vector width: the last lanes are a partial row
#define MOST_CHAINS 300 // the largest group compared chain by chain (several chunks of lanes)

static spring_chain_bone_desc g_bones[BONES];

// The first of the chains that stand still (group_vs_singles sets it for its chain count).
static int g_still_from = 30;

// Chain c's root at time t: the tail scene's path, offset and phase-shifted per chain; chains
// g_still_from.. stand still (they come to rest and sleep while the others move).
static spring_xform3 root_of(int c, double t)
{
	spring_xform3 r = scene_tail_root(c >= g_still_from ? 0.0 : t + 0.13 * c);
	r.position.x += 40.0f * (float)c;
	r.position.z += c % 3 == 0 ? 5.0f * (float)sin(t * (1.0 + 0.1 * c)) : 0.0f;
	return r;
}

// How the group's chains step (group_desc): every bone in the fast kernel, or a bone or the
// chain in one of the rarer modes, which the kernel runs per bone (a scalar call per lane for the
// cone limit). Groups take no colliders.
enum { MODE_FAST, MODE_CONE, MODE_SEMI_IMPLICIT, MODE_KEEP_VELOCITY, MODE_2D, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = {"every bone fast", "a cone limit on bone 4", "semi-implicit Euler",
                                                   "radial velocity kept", "2D mode"};

// The standard tail in `mode`.
static spring_chain_desc group_desc(int mode)
{
	spring_chain_desc d = scene_tail_desc(g_bones, BONES);
	g_bones[4].cone_limit = mode == MODE_CONE ? 0.6f : 0.0f;
	d.integrator = mode == MODE_SEMI_IMPLICIT ? SPRING_INTEGRATOR_SEMI_IMPLICIT : SPRING_INTEGRATOR_EXACT;
	d.projection = mode == MODE_KEEP_VELOCITY ? SPRING_CHAIN_PROJECTION_KEEP_VELOCITY : SPRING_CHAIN_PROJECTION_REMOVE_VELOCITY;
	d.mode_2d = mode == MODE_2D;
	d.root = root_of(0, 0.0);
	return d;
}

// Frame f's time step: 60 fps with 144 fps frames between (interpolated poses) and hitches (a
// long frame, a zero frame, a capped one).
static float frame_dt(int f)
{
	return f % 97 == 13 ? 0.1f : f % 89 == 7 ? 0.0f : f % 151 == 50 ? 0.5f : f % 5 == 0 ? 1.0f / 144.0f : 1.0f / 60.0f;
}

static int same_pose(const spring_chain_group *g, spring_chain *const *singles, int count)
{
	static spring_xform3 bones[MOST_CHAINS * BONES];
	static spring_vec3 tips[MOST_CHAINS * BONES];
	ENSURE(count <= MOST_CHAINS);
	ENSURE(spring_chain_group_get_poses(g, bones, tips, count * BONES) == SPRING_OK);
	for (int c = 0; c < count; c++) {
		spring_xform3 b[BONES], one[BONES];
		spring_vec3 t[BONES];
		ENSURE(spring_chain_get_pose(singles[c], b, t, BONES) == SPRING_OK);
		ENSURE(memcmp(b, bones + c * BONES, sizeof b) == 0);
		ENSURE(memcmp(t, tips + c * BONES, sizeof t) == 0);
		ENSURE(spring_chain_group_get_pose(g, c, one, NULL, BONES) == SPRING_OK);
		ENSURE(memcmp(one, b, sizeof b) == 0);
		for (int i = 0; i < BONES; i++) {
			spring_state_vec3 s1, s2;
			ENSURE(spring_chain_get_state(singles[c], i, &s1) == SPRING_OK);
			ENSURE(spring_chain_group_get_state(g, c, i, &s2) == SPRING_OK);
			ENSURE(memcmp(&s1, &s2, sizeof s1) == 0);
		}
		ENSURE(spring_chain_is_resting(singles[c]) == spring_chain_group_is_resting(g, c));
	}
	return 0;
}

// An animated pose of the tail (phase `phase`): each bone's rest turned about z by a wave, its
// position nudged along y, its rotation scaled by 1.5 (set_animation normalises it). About z
// only, with z positions kept, so that 2D-mode chains take it too.
static void wave_pose(float phase, spring_xform3 *out)
{
	for (int i = 0; i < BONES; i++) {
		const float a = 0.25f * sinf(phase + 0.7f * (float)i);
		const spring_quat turn = {0.0f, 0.0f, 1.5f * sinf(0.5f * a), 1.5f * cosf(0.5f * a)};
		out[i].rotation = spring_quat_mul(turn, g_bones[i].rest_local.rotation);
		out[i].position = g_bones[i].rest_local.position;
		out[i].position.y += 0.3f * a;
	}
}

// Chain c's animation (NULL: none) on both sides; c -1: every chain.
static int animate(spring_chain_group *g, spring_chain *const *singles, int count, int c, const spring_xform3 *pose)
{
	ENSURE(spring_chain_group_set_animation(g, c, pose, pose ? BONES : 0) == SPRING_OK);
	for (int j = c < 0 ? 0 : c; j < (c < 0 ? count : c + 1); j++) {
		ENSURE(spring_chain_set_animation(singles[j], pose, pose ? BONES : 0) == SPRING_OK);
	}
	return 0;
}

// A group of `count` chains of `d` and as many single chains made from it; 0 on success.
static int make_all(const spring_chain_desc *d, int count, spring_chain_group **g, spring_chain **singles)
{
	ENSURE(spring_chain_group_create(&(spring_chain_group_desc){.chain = d, .chain_count = count}, g, NULL) == SPRING_OK);
	for (int c = 0; c < count; c++) {
		ENSURE(spring_chain_create(d, &singles[c], NULL) == SPRING_OK);
	}
	return 0;
}

// Frees a group and the `count` single chains it was compared with.
static void destroy_all(spring_chain_group *g, spring_chain *const *singles, int count)
{
	for (int c = 0; c < count; c++) {
		spring_chain_destroy(singles[c]);
	}
	spring_chain_group_destroy(g);
}

// The group of `count` (at most CHAINS) chains against single chains over 900 frames, the group's
// kernels on `path` (the batch module's instruction set, which the tip chain groups share); the
// last seven (of CHAINS) or five chains stand still.
static int group_vs_singles(int mode, spring_internal_isa path, int count)
{
	g_still_from = count == CHAINS ? 30 : count - 5;
	const int hanging_chain = g_still_from + 1;
	spring_chain_desc d = group_desc(mode);
	spring_chain_group *g;
	spring_chain *singles[CHAINS];
	ENSURE(make_all(&d, count, &g, singles) == 0);
	ENSURE(spring_chain_group_chain_count(g) == count && spring_chain_group_bone_count(g) == BONES);
	spring_params stiff, soft;
	spring_params_from_frequency(6.0f, 0.5f, &stiff);
	spring_params_from_frequency(1.0f, 0.2f, &soft);
	const spring_vec3 pull = spring_vec3_make(60.0f, -250.0f, 30.0f), down = spring_vec3_make(0.0f, -120.0f, 0.0f);
	const spring_vec3 none = spring_vec3_make(0.0f, 0.0f, 0.0f);
	double t = 0.0;
	int resting = 0, interpolated = 0, hanging = 0;
	static spring_xform3 roots[CHAINS];
	for (int f = 1; f <= 900; f++) {
		float dt = frame_dt(f);
		t += (double)dt;
		for (int c = 0; c < count; c++) {
			roots[c] = root_of(c, t);
		}
		// Per-chain changes, the same on both sides.
		if (f == 100) {
			ENSURE(spring_chain_group_set_forces(g, 5, spring_vec3_make(0.0f, -400.0f, 0.0f),
			                                     spring_vec3_make(30.0f, 0.0f, 0.0f)) == SPRING_OK);
			ENSURE(spring_chain_set_forces(singles[5], spring_vec3_make(0.0f, -400.0f, 0.0f),
			                               spring_vec3_make(30.0f, 0.0f, 0.0f)) == SPRING_OK);
		}
		if (f == 150) {
			ENSURE(spring_chain_group_set_params(g, 7, 2, stiff) == SPRING_OK);
			ENSURE(spring_chain_set_params(singles[7], 2, stiff) == SPRING_OK);
			// and one past the first block of lanes (16)
			ENSURE(spring_chain_group_set_params(g, count - 7, 3, stiff) == SPRING_OK);
			ENSURE(spring_chain_set_params(singles[count - 7], 3, stiff) == SPRING_OK);
			ENSURE(spring_chain_group_set_bone_gravity(g, -1, 1, down) == SPRING_OK);
			for (int c = 0; c < count; c++) {
				ENSURE(spring_chain_set_bone_gravity(singles[c], 1, down) == SPRING_OK);
			}
			ENSURE(spring_chain_group_set_params(g, -1, 6, soft) == SPRING_OK);
			for (int c = 0; c < count; c++) {
				ENSURE(spring_chain_set_params(singles[c], 6, soft) == SPRING_OK);
			}
		}
		// A bone's own gravity: one chain's (not the first: the group counts it), at 150 every
		// chain's too; at 850 the one chain's taken back, at 860 every chain's.
		if (f == 100) {
			ENSURE(spring_chain_group_set_bone_gravity(g, count - 8, 5, pull) == SPRING_OK);
			ENSURE(spring_chain_set_bone_gravity(singles[count - 8], 5, pull) == SPRING_OK);
		}
		if (f == 400 || f == 900) {
			// Its own snapshot restores (the counts of chains with a bone's own gravity hold).
			const size_t size = spring_chain_group_snapshot_size(g);
			unsigned char *blob = malloc(size);
			spring_error e;
			ENSURE(blob && spring_chain_group_snapshot(g, blob, size) == SPRING_OK);
			ENSURE_MSG(spring_chain_group_restore(g, blob, size, &e) == SPRING_OK, "frame %d: %s", f, e.message);
			free(blob);
		}
		if (f == 850) {
			ENSURE(spring_chain_group_set_bone_gravity(g, count - 8, 5, none) == SPRING_OK);
			ENSURE(spring_chain_set_bone_gravity(singles[count - 8], 5, none) == SPRING_OK);
		}
		if (f == 860) { // no bone has its own gravity any more
			ENSURE(spring_chain_group_set_bone_gravity(g, -1, 1, none) == SPRING_OK);
			for (int c = 0; c < count; c++) {
				ENSURE(spring_chain_set_bone_gravity(singles[c], 1, none) == SPRING_OK);
			}
		}
		if (f % 200 == 60) {
			spring_xform3 far = root_of(11, t);
			far.position.y += 300.0f;
			ENSURE(spring_chain_group_teleport(g, 11, far) == SPRING_OK);
			ENSURE(spring_chain_teleport(singles[11], far) == SPRING_OK);
			roots[11] = far;
		}
		for (int c = g_still_from; f == 1 && c < count; c++) {
			// The still chains start at rest under their own roots; one of them hangs under gravity
			// (its rest is the pendulum's equilibrium, which a physics step does not keep to the bit).
			if (c == hanging_chain) {
				spring_vec3 grav = spring_vec3_make(0.0f, -500.0f, 0.0f);
				ENSURE(spring_chain_group_set_forces(g, c, grav, none) == SPRING_OK);
				ENSURE(spring_chain_set_forces(singles[c], grav, none) == SPRING_OK);
				spring_params settles;
				spring_params_from_frequency(4.0f, 1.0f, &settles);
				for (int i = 0; i < BONES; i++) {
					ENSURE(spring_chain_group_set_params(g, c, i, settles) == SPRING_OK);
					ENSURE(spring_chain_set_params(singles[c], i, settles) == SPRING_OK);
				}
			}
			ENSURE(spring_chain_group_reset(g, c, roots[c]) == SPRING_OK);
			ENSURE(spring_chain_reset(singles[c], roots[c]) == SPRING_OK);
		}
		// Animations: a chain of the first block and one past it (then changed every third frame
		// for a while, or cleared); near the end every chain's (it wakes the still chains, which
		// take hundreds of frames to settle again), cleared for all, then lane 0's. A still chain
		// resting on its animation: test_group_rests_animated.
		spring_xform3 pose[BONES];
		wave_pose(0.05f * (float)f, pose);
		if (f == 200 || (f > 250 && f < 330 && f % 3 == 0)) {
			ENSURE(animate(g, singles, count, 2, pose) == 0);
			ENSURE(animate(g, singles, count, count - 9, f == 200 ? pose : NULL) == 0);
		}
		if (f == 860) {
			ENSURE(animate(g, singles, count, -1, pose) == 0);
		}
		if (f == 870) {
			ENSURE(animate(g, singles, count, -1, NULL) == 0);
			ENSURE(animate(g, singles, count, 0, pose) == 0);
		}
		if (f == 420) {
			ENSURE(spring_chain_group_reset(g, 3, roots[3]) == SPRING_OK);
			ENSURE(spring_chain_reset(singles[3], roots[3]) == SPRING_OK);
		}
		ENSURE(spring_internal_isa_force(path));
		ENSURE(spring_chain_group_update(g, roots, dt) == SPRING_OK);
		(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
		for (int c = 0; c < count; c++) {
			ENSURE(spring_chain_update(singles[c], roots[c], dt) == SPRING_OK);
		}
		ENSURE(spring_chain_group_clock(g)->alpha == spring_chain_clock(singles[0])->alpha);
		interpolated += spring_chain_group_clock(g)->alpha > 0.0f;
		if (same_pose(g, singles, count)) {
			printf("    differs at frame %d\n", f);
			return 1;
		}
		resting += spring_chain_group_is_resting(g, count - 2);
		hanging += spring_chain_group_is_resting(g, hanging_chain);
	}
	printf("    %s, %s: %d chains x %d bones, 900 frames: bit-identical; still chains rested %d and %d (under gravity) "
	       "frames\n",
	       spring_internal_isa_name(path), mode_names[mode], count, BONES, resting, hanging);
	ENSURE(interpolated > 100);                          // poses between steps were compared too, not only stepped ones
	ENSURE(hanging > 100 || mode == MODE_KEEP_VELOCITY); // kept, the radial velocity keeps a hanging chain from rest
	ENSURE(resting > 100);                               // the still chains did come to rest (and sleep) among moving ones
	ENSURE(!spring_chain_group_is_resting(g, 0));
	ENSURE(mode == MODE_KEEP_VELOCITY || // (under the bones' gravity kept radial velocity keeps it awake)
	       spring_chain_internal_steps_run(singles[count - 2]) < spring_chain_internal_steps_run(singles[0]) / 2);
	destroy_all(g, singles, count);
	return 0;
}

// `run(path, count)` on every instruction set this machine runs (the batch module's paths, which
// the tip chain groups share); 0 when all pass.
static int on_every_path(int (*run)(spring_internal_isa, int), int count)
{
	int ran = 0;
	for (int p = SPRING_INTERNAL_ISA_SCALAR; p < SPRING_INTERNAL_ISA_COUNT; p++) {
		if (spring_internal_isa_force((spring_internal_isa)p)) {
			(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
			ENSURE(run((spring_internal_isa)p, count) == 0);
			ran++;
		} else {
			printf("    %s: not built for or not run by this machine, skipped\n",
			       spring_internal_isa_name((spring_internal_isa)p));
		}
	}
	ENSURE(ran >= 1);
	return 0;
}

// group_vs_singles with every bone fast.
static int fast_group_vs_singles(spring_internal_isa path, int count)
{
	return group_vs_singles(MODE_FAST, path, count);
}

// group_vs_singles in every rarer mode.
static int rare_group_vs_singles(spring_internal_isa path, int count)
{
	for (int mode = MODE_CONE; mode < MODE_COUNT; mode++) {
		ENSURE_MSG(group_vs_singles(mode, path, count) == 0, "%s", mode_names[mode]);
	}
	return 0;
}

static int test_determinism_group_matches_single_chains(void)
{
	return group_vs_singles(MODE_CONE, SPRING_INTERNAL_ISA_AUTO, CHAINS);
}

// Every bone of every chain runs the kernel, in every mode (a cone limit, semi-implicit
// Euler with per-chain params past the first block of lanes, the radial velocity kept, 2D mode):
// on every instruction set, the single chains' bits.
static int test_determinism_group_every_mode(void)
{
	return on_every_path(rare_group_vs_singles, CHAINS);
}

// Every instruction set this machine runs gives the single chains' bits (the fast kernel over all
// the chains, with a partial last block of lanes).
static int test_determinism_group_every_instruction_set(void)
{
	return on_every_path(fast_group_vs_singles, CHAINS);
}

// A group that fills one block of lanes (12 chains) takes a frame's steps two at a time a bone
// apart, on every instruction set, with moving, settling and resting chains: the single chains' bits.
static int test_determinism_group_one_block(void)
{
	ENSURE(on_every_path(fast_group_vs_singles, 12) == 0);
	g_still_from = 30;
	return 0;
}

// A single chain takes a frame's steps two at a time side by side in vectors (fast_pair_p2), a
// bone apart, and an odd last step alone: against the scalar walk (forced) bit for bit, with
// bones of different lengths and springs (a root-to-tip gradient) swinging and then settling
// under gravity and wind, at `steps` steps a frame (0: frames of 1 to 8 steps).
static int single_steps(float gravity, int steps, int *rested_frames)
{
	spring_chain_bone_desc bones[BONES];
	spring_chain_desc d = scene_tail_desc(bones, BONES);
	for (int i = 0; i < BONES; i++) {
		bones[i].tip.x = 8.0f + 3.0f * (float)i;
		bones[i].rest_local.position.x = i == 0 ? 0.0f : 8.0f + 3.0f * (float)(i - 1);
	}
	spring_params_from_frequency(3.0f, 0.9f, &d.params);
	spring_params_from_frequency(9.0f, 1.0f, &d.tip_params);
	d.gravity = spring_vec3_make(0.0f, gravity, 0.0f);
	d.wind = spring_vec3_make(40.0f, 0.0f, 10.0f);
	spring_chain *vec, *scalar;
	ENSURE(spring_chain_create(&d, &vec, NULL) == SPRING_OK);
	ENSURE(spring_chain_create(&d, &scalar, NULL) == SPRING_OK);
	int rested = 0;
	for (int f = 1; f <= 600; f++) {
		spring_xform3 root = scene_tail_root(f < 120 ? f / 60.0 : 2.0);
		const float dt = steps > 0 ? (float)steps / 120.0f : (float)(1 + f % 8) / 120.0f;
		ENSURE(spring_chain_update(vec, root, dt) == SPRING_OK);
		ENSURE(spring_internal_isa_force(SPRING_INTERNAL_ISA_SCALAR));
		ENSURE(spring_chain_update(scalar, root, dt) == SPRING_OK);
		(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
		spring_xform3 a[BONES], b[BONES];
		ENSURE(spring_chain_get_pose(vec, a, NULL, BONES) == SPRING_OK);
		ENSURE(spring_chain_get_pose(scalar, b, NULL, BONES) == SPRING_OK);
		ENSURE(memcmp(a, b, sizeof a) == 0);
		ENSURE(spring_chain_is_resting(vec) == spring_chain_is_resting(scalar));
		ENSURE(spring_chain_internal_steps_run(vec) == spring_chain_internal_steps_run(scalar));
		rested += spring_chain_is_resting(vec);
	}
	*rested_frames = rested;
	spring_chain_destroy(vec);
	spring_chain_destroy(scalar);
	return 0;
}

static int test_determinism_single_chain_paired_steps(void)
{
	for (int steps = 0; steps <= 4; steps++) {
		for (int k = 0; k < 3; k++) {
			int rested = 0;
			ENSURE(single_steps(-100.0f - 211.0f * (float)k, steps, &rested) == 0);
			char frames[32];
			if (steps == 0) {
				snprintf(frames, sizeof frames, "1 to 8 steps");
			} else {
				snprintf(frames, sizeof frames, "%d step%s", steps, steps == 1 ? "" : "s");
			}
			printf("    %s a frame, gravity %g: 600 frames bit-identical; at rest %d frames\n", frames, -100.0 - 211.0 * k,
			       rested);
			ENSURE(rested > 100);
		}
	}
	return 0;
}

// The rest test under a force of a single chain's second step in the paired walk (fast_pair_p2,
// which runs that step's bone i - 1 beside the first step's bone i): a chain comes to rest at the
// second step of a pair only when its first step found bone 0 still moving, so bone 0 must be
// the last bone to settle. Here it is: a long bone 0, overdamped, creeps toward its sag under
// gravity and wind (its distance is the last threshold to pass) while short stiff bones follow
// it; bone 1 differs from bone 0 in length and spring, so a rest position taken at the wrong bone
// misses (the chain then rests a step late). The root stands still, so the steps do not depend on
// how frames group them: a first frame of fewer steps (`lead`) moves every frame's first step.
static spring_chain_desc settles_at_bone_0(spring_chain_bone_desc *bones)
{
	spring_chain_desc d = scene_tail_desc(bones, BONES);
	for (int i = 0; i < BONES; i++) {
		bones[i].tip.x = i == 0 ? 20.0f : 4.0f + 0.5f * (float)i;
		bones[i].rest_local.position.x = i == 0 ? 0.0f : bones[i - 1].tip.x;
		spring_params_from_frequency(i == 0 ? 3.0f : 20.0f + (float)i, i == 0 ? 6.0f : 1.0f, &bones[i].params);
	}
	d.gravity = spring_vec3_make(0.0f, -100.0f, 0.0f);
	d.wind = spring_vec3_make(0.0f, 0.0f, 15.0f);
	d.rest_distance = 1e-3f;
	d.rest_speed = 0.05f;
	return d;
}

// Frames of `steps` steps (after a first frame of `lead` steps, 0: none) on the paired walk
// against the scalar walk (forced), bit for bit, until the chain rests; *rested: the steps run by
// then.
static int single_settles_at_bone_0(int steps, int lead, long long *rested)
{
	spring_chain_bone_desc bones[BONES];
	const spring_chain_desc d = settles_at_bone_0(bones);
	spring_chain *vec, *scalar;
	ENSURE(spring_chain_create(&d, &vec, NULL) == SPRING_OK);
	ENSURE(spring_chain_create(&d, &scalar, NULL) == SPRING_OK);
	*rested = -1;
	for (int f = 0; f < 900 && *rested < 0; f++) {
		const float dt = (float)(f == 0 && lead ? lead : steps) / 120.0f;
		ENSURE(spring_chain_update(vec, d.root, dt) == SPRING_OK);
		ENSURE(spring_internal_isa_force(SPRING_INTERNAL_ISA_SCALAR));
		ENSURE(spring_chain_update(scalar, d.root, dt) == SPRING_OK);
		(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
		spring_xform3 a[BONES], b[BONES];
		spring_vec3 ta[BONES], tb[BONES];
		ENSURE(spring_chain_get_pose(vec, a, ta, BONES) == SPRING_OK);
		ENSURE(spring_chain_get_pose(scalar, b, tb, BONES) == SPRING_OK);
		ENSURE_MSG(memcmp(a, b, sizeof a) == 0 && memcmp(ta, tb, sizeof ta) == 0, "frame %d differs", f);
		ENSURE(spring_chain_is_resting(vec) == spring_chain_is_resting(scalar));
		ENSURE(spring_chain_internal_steps_run(vec) == spring_chain_internal_steps_run(scalar));
		if (spring_chain_is_resting(scalar)) {
			*rested = spring_chain_internal_steps_run(scalar);
		}
	}
	spring_chain_destroy(vec);
	spring_chain_destroy(scalar);
	return 0;
}

static int test_determinism_single_chain_rests_in_a_pair(void)
{
	// The step at which the chain first rests, one step per frame (none side by side).
	spring_chain_bone_desc bones[BONES];
	const spring_chain_desc d = settles_at_bone_0(bones);
	spring_chain *one;
	ENSURE(spring_chain_create(&d, &one, NULL) == SPRING_OK);
	long long first_rest = -1;
	for (int f = 1; f <= 1800 && first_rest < 0; f++) {
		ENSURE(spring_chain_update(one, d.root, 1.0f / 120.0f) == SPRING_OK);
		ENSURE(spring_chain_internal_steps_run(one) == f);
		first_rest = spring_chain_is_resting(one) ? f : -1;
	}
	spring_chain_destroy(one);
	ENSURE(first_rest > 120); // it hung and crept for a while
	printf("    first at rest at step %lld (one step per frame)\n", first_rest);
	// Frames of 2 to 4 steps, every alignment of the frames to that step: the chain rests at that
	// step, whichever of a frame's steps it is (the step after it does not start beside it), and
	// is seen at rest at the end of that frame, having run one more step if the frame had more (a
	// chain at rest under the same inputs for two steps is asleep: the frame's later steps are not
	// run).
	for (int steps = 2; steps <= 4; steps++) {
		for (int lead = 0; lead < steps; lead++) {
			long long rested, end = lead;
			ENSURE(single_settles_at_bone_0(steps, lead, &rested) == 0);
			while (end < first_rest) {
				end += steps;
			}
			printf("    %d steps a frame, first frame of %d: bit-identical until at rest after step %lld\n", steps,
			       lead ? lead : steps, rested);
			ENSURE(rested == (end < first_rest + 1 ? end : first_rest + 1));
		}
	}
	return 0;
}

// More chains than the fast kernel takes in one pass (it runs a few blocks of lanes at a time
// through the whole chain): 300 chains for 60 frames, every bone fast, against single chains.
static int test_determinism_group_many_chains(void)
{
	enum { MANY = 300, FRAMES = 60 };
	spring_chain_desc d = group_desc(MODE_FAST);
	spring_chain_group *g;
	static spring_chain *singles[MANY];
	static spring_xform3 roots[MANY], bones[MANY * BONES];
	ENSURE(make_all(&d, MANY, &g, singles) == 0);
	for (int f = 1; f <= FRAMES; f++) {
		double t = f / 60.0;
		for (int c = 0; c < MANY; c++) {
			roots[c] = root_of(c % 30, t + 0.01 * c);
			ENSURE(spring_chain_update(singles[c], roots[c], 1.0f / 60.0f) == SPRING_OK);
		}
		ENSURE(spring_chain_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
		ENSURE(spring_chain_group_get_poses(g, bones, NULL, MANY * BONES) == SPRING_OK);
		for (int c = 0; c < MANY; c++) {
			spring_xform3 b[BONES];
			ENSURE(spring_chain_get_pose(singles[c], b, NULL, BONES) == SPRING_OK);
			ENSURE(memcmp(b, bones + c * BONES, sizeof b) == 0);
		}
	}
	destroy_all(g, singles, MANY);
	return 0;
}

// Per-chain springs against single chains, with the kernels' shared transition rows: a group whose
// chains all have the same spring for a bone reads one row of it; when one chain's spring changes,
// the bone's lanes are read again (the single chains' bits say so), and once the chains agree again
// (that chain set back, or every chain set alike one by one or at once) the shared row returns.
static int shared_rows_vs_singles(spring_internal_isa path, int count)
{
	g_still_from = CHAINS; // every chain moves
	spring_chain_desc d = group_desc(MODE_FAST);
	spring_chain_group *g;
	spring_chain *singles[CHAINS];
	ENSURE(make_all(&d, count, &g, singles) == 0);
	for (int i = 0; i < BONES; i++) {
		ENSURE(spring_chain_group_internal_transition(g, i) == 1); // as made: every chain alike
	}
	ENSURE(spring_chain_group_internal_transition(g, BONES) == -1 && spring_chain_group_internal_transition(g, -1) == -1);
	ENSURE(spring_chain_group_internal_transition(NULL, 0) == -1);
	spring_params stiff, soft;
	spring_params_from_frequency(7.0f, 0.4f, &stiff);
	spring_params_from_frequency(1.5f, 0.2f, &soft);
	const int odd = count / 2; // the chain whose spring differs
	static spring_xform3 roots[CHAINS];
	int own = 0;
	for (int f = 1; f <= 200; f++) {
		const double t = f / 60.0;
		for (int c = 0; c < count; c++) {
			roots[c] = root_of(c, t);
		}
		int expect3 = -1, expect5 = -1, expect2 = -1; // after this frame's update (-1: not checked)
		if (f == 20) {
			// One chain's bone 3 differs: its lanes are read again from now on.
			ENSURE(spring_chain_group_set_params(g, odd, 3, stiff) == SPRING_OK);
			ENSURE(spring_chain_set_params(singles[odd], 3, stiff) == SPRING_OK);
			ENSURE(spring_chain_group_internal_transition(g, 3) == 2);
			expect3 = 0;
		}
		if (f == 60) {
			// Set back as described (unset: the chain's gradient), the same bits as the others.
			ENSURE(spring_chain_group_set_params(g, odd, 3, d.bones[3].params) == SPRING_OK);
			ENSURE(spring_chain_set_params(singles[odd], 3, d.bones[3].params) == SPRING_OK);
			expect3 = 1;
		}
		if (f == 90 || f == 91) {
			// Every chain's bone 5 softened one chain at a time, over two frames: the bone is read
			// lane by lane in between, and shared (with the new spring) once all agree.
			for (int c = f == 90 ? 0 : count / 3; c < (f == 90 ? count / 3 : count); c++) {
				ENSURE(spring_chain_group_set_params(g, c, 5, soft) == SPRING_OK);
				ENSURE(spring_chain_set_params(singles[c], 5, soft) == SPRING_OK);
			}
			expect5 = f == 90 ? 0 : 1;
		}
		if (f == 120) {
			// Every chain its own bone 2.
			for (int c = 0; c < count; c++) {
				spring_params p;
				spring_params_from_frequency(2.0f + 0.25f * (float)c, 0.3f, &p);
				ENSURE(spring_chain_group_set_params(g, c, 2, p) == SPRING_OK);
				ENSURE(spring_chain_set_params(singles[c], 2, p) == SPRING_OK);
			}
			expect2 = 0;
		}
		if (f == 160) {
			// ... then all alike at once.
			ENSURE(spring_chain_group_set_params(g, -1, 2, stiff) == SPRING_OK);
			for (int c = 0; c < count; c++) {
				ENSURE(spring_chain_set_params(singles[c], 2, stiff) == SPRING_OK);
			}
			expect2 = 1;
		}
		ENSURE(spring_internal_isa_force(path));
		ENSURE(spring_chain_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
		(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
		for (int c = 0; c < count; c++) {
			ENSURE(spring_chain_update(singles[c], roots[c], 1.0f / 60.0f) == SPRING_OK);
		}
		ENSURE(expect3 < 0 || spring_chain_group_internal_transition(g, 3) == expect3);
		ENSURE(expect5 < 0 || spring_chain_group_internal_transition(g, 5) == expect5);
		ENSURE(expect2 < 0 || spring_chain_group_internal_transition(g, 2) == expect2);
		own += spring_chain_group_internal_transition(g, 3) == 0;
		ENSURE_MSG(same_pose(g, singles, count) == 0, "frame %d differs", f);
	}
	ENSURE(own == 40); // bone 3 read lane by lane for frames 20 .. 59
	ENSURE(!spring_chain_group_is_resting(g, odd));
	printf("    %s, %d chains: bit-identical through per-chain springs; shared rows dropped and back\n",
	       spring_internal_isa_name(path), count);
	destroy_all(g, singles, count);
	g_still_from = 30;
	return 0;
}

// On every instruction set, a group of one block (two steps at a time) and of several.
static int test_determinism_group_per_chain_springs(void)
{
	ENSURE(on_every_path(shared_rows_vs_singles, 12) == 0);
	return on_every_path(shared_rows_vs_singles, CHAINS);
}

// Sleeping chains among awake ones in every chunk of lanes of a large group (their tips and poses
// are copied aside while their chunk steps, into room for one chunk): every 7th chain stands
// still from the start and sleeps while its neighbours in the same block move; against single
// chains bit for bit (poses, tips and velocities), on every instruction set.
static int sleepers_in_every_chunk(spring_internal_isa path, int count)
{
	enum { FRAMES = 90 };
	ENSURE(count <= MOST_CHAINS);
	g_still_from = count;
	spring_chain_desc d = group_desc(MODE_FAST);
	spring_chain_group *g;
	static spring_chain *singles[MOST_CHAINS];
	static spring_xform3 roots[MOST_CHAINS];
	ENSURE(make_all(&d, count, &g, singles) == 0);
	for (int f = 1; f <= FRAMES; f++) {
		const double t = f / 60.0;
		for (int c = 0; c < count; c++) {
			const int still = c % 7 == 3;
			roots[c] = root_of(c % 29, still ? 0.0 : t + 0.01 * c);
			roots[c].position.y += 50.0f * (float)(c / 29);
			if (still) {
				// Unturned: a frame's interpolated roots keep the bits of a root that stands still
				// (a turned one may round to two values that take turns, and never sleep).
				roots[c].rotation = spring_quat_identity();
			}
			if (f == 1 && still) {
				ENSURE(spring_chain_group_reset(g, c, roots[c]) == SPRING_OK);
				ENSURE(spring_chain_reset(singles[c], roots[c]) == SPRING_OK);
			}
			ENSURE(spring_chain_update(singles[c], roots[c], 1.0f / 60.0f) == SPRING_OK);
		}
		ENSURE(spring_internal_isa_force(path));
		ENSURE(spring_chain_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
		(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
		ENSURE_MSG(same_pose(g, singles, count) == 0, "frame %d differs", f);
	}
	// The still chains slept (ran few steps) in every chunk, beside moving neighbours.
	for (int c = 3; c < count; c += 7) {
		ENSURE(spring_chain_group_is_resting(g, c) && !spring_chain_group_is_resting(g, c + 1));
		ENSURE_MSG(spring_chain_internal_steps_run(singles[c]) < 10, "chain %d ran %lld steps", c,
		           spring_chain_internal_steps_run(singles[c]));
	}
	ENSURE(spring_chain_internal_steps_run(singles[1]) == 2 * FRAMES);
	printf("    %s: %d chains (every 7th asleep), %d frames: bit-identical\n", spring_internal_isa_name(path), count, FRAMES);
	destroy_all(g, singles, count);
	g_still_from = 30;
	return 0;
}

static int test_determinism_group_sleepers_in_every_chunk(void)
{
	return on_every_path(sleepers_in_every_chunk, MOST_CHAINS);
}

static int test_group_memory(void)
{
	spring_chain_desc d = group_desc(MODE_CONE);
	scene_alloc_counter count = {0};
	spring_allocator a = scene_counting_allocator(&count);
	spring_set_allocator(&a);
	spring_chain_group *g;
	ENSURE(spring_chain_group_create(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS}, &g, NULL) == SPRING_OK);
	ENSURE(count.allocs == 1);
	static spring_xform3 roots[CHAINS];
	static spring_xform3 bones[CHAINS * BONES];
	for (int f = 0; f < 600; f++) {
		for (int c = 0; c < CHAINS; c++) {
			roots[c] = root_of(c, f / 60.0);
		}
		ENSURE(spring_chain_group_update(g, roots, frame_dt(f)) == SPRING_OK);
		ENSURE(spring_chain_group_get_poses(g, bones, NULL, CHAINS * BONES) == SPRING_OK);
	}
	ENSURE(count.allocs == 1); // nothing per frame
	spring_chain_group_destroy(g);
	ENSURE(count.frees == 1);
	spring_set_allocator(NULL);
	// Caller memory: exactly the queried size works, one byte less or misaligned is refused.
	size_t size = spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS});
	ENSURE(size > 0);
	void *mem = aligned_alloc(16, (size + 15) / 16 * 16);
	ENSURE(mem != NULL);
	ENSURE(spring_chain_group_init(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS}, mem, size - 1, &g, NULL) ==
	       SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_init(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS}, (char *)mem + 8, size - 8, &g,
	                               NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_init(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS}, mem, size, &g, NULL) ==
	       SPRING_OK);
	ENSURE(spring_chain_group_update(g, roots, 0.1f) == SPRING_OK);
	spring_chain_group_destroy(g); // no-op for caller memory
	free(mem);
	return 0;
}

// Each chain starts at rest under its own root (spring_chain_group_desc.roots): the single chains
// made at those roots, bit for bit, at creation and while they move; a bad root is refused naming
// the chain.
// Chains standing still, two of them (in two blocks of lanes) given an animated pose: on every
// instruction set they swing onto it and come to rest there, the single chains' bits all the
// way, while the other chains sleep through it; at rest each posed chain's tips lie where a chain
// whose rest pose is the animation rests.
static int rests_animated(spring_internal_isa path, int count)
{
	enum { FRAMES = 600 };
	const int posed[2] = {3, count - 2};
	spring_chain_desc d = group_desc(MODE_FAST);
	spring_chain_group *g;
	static spring_chain *singles[MOST_CHAINS];
	static spring_xform3 roots[MOST_CHAINS];
	ENSURE(make_all(&d, count, &g, singles) == 0);
	for (int c = 0; c < count; c++) {
		roots[c] = (spring_xform3){{40.0f * (float)c, 0.0f, 0.0f}, spring_quat_identity()};
		ENSURE(spring_chain_group_reset(g, c, roots[c]) == SPRING_OK && spring_chain_reset(singles[c], roots[c]) == SPRING_OK);
	}
	spring_xform3 pose[BONES];
	wave_pose(1.0f, pose);
	for (int q = 0; q < 2; q++) {
		ENSURE(animate(g, singles, count, posed[q], pose) == 0);
	}
	int rested_at = 0;
	for (int f = 1; f <= FRAMES; f++) {
		for (int c = 0; c < count; c++) {
			ENSURE(spring_chain_update(singles[c], roots[c], 1.0f / 60.0f) == SPRING_OK);
		}
		ENSURE(spring_internal_isa_force(path));
		ENSURE(spring_chain_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
		(void)spring_internal_isa_force(SPRING_INTERNAL_ISA_AUTO);
		ENSURE_MSG(same_pose(g, singles, count) == 0, "frame %d differs", f);
		if (!rested_at && spring_chain_group_is_resting(g, posed[0]) && spring_chain_group_is_resting(g, posed[1])) {
			rested_at = f;
		}
	}
	ENSURE(rested_at > 1 && spring_chain_group_is_resting(g, posed[0]) && spring_chain_group_is_resting(g, posed[1]));
	ENSURE(spring_chain_internal_steps_run(singles[1]) < 10); // asleep beside the animated chains
	// The rest pose a chain made with the animation as its rest_local takes.
	spring_chain_bone_desc bones[BONES];
	spring_chain_desc posed_desc = d;
	memcpy(bones, g_bones, sizeof bones);
	for (int i = 0; i < BONES; i++) {
		bones[i].rest_local = pose[i];
	}
	posed_desc.bones = bones;
	for (int q = 0; q < 2; q++) {
		posed_desc.root = roots[posed[q]];
		spring_chain *reference;
		ENSURE(spring_chain_create(&posed_desc, &reference, NULL) == SPRING_OK);
		spring_vec3 want[BONES], got[BONES];
		ENSURE(spring_chain_get_pose(reference, NULL, want, BONES) == SPRING_OK);
		ENSURE(spring_chain_group_get_pose(g, posed[q], NULL, got, BONES) == SPRING_OK);
		for (int i = 0; i < BONES; i++) {
			ENSURE_MSG(spring_vec3_length(spring_vec3_sub(got[i], want[i])) < 1e-3f, "chain %d bone %d", posed[q], i);
		}
		spring_chain_destroy(reference);
	}
	printf("    %s: %d chains, 2 animated: rested on the pose at frame %d, bit-identical\n", spring_internal_isa_name(path),
	       count, rested_at);
	destroy_all(g, singles, count);
	return 0;
}

static int test_group_rests_animated(void)
{
	return on_every_path(rests_animated, 20);
}

static int test_group_initial_roots(void)
{
	enum { N = 21 };
	spring_chain_desc d = group_desc(MODE_FAST);
	spring_xform3 roots[N];
	spring_chain *singles[N];
	for (int c = 0; c < N; c++) {
		roots[c] = root_of(c, 0.0);
		roots[c].rotation = spring_quat_from_axis_angle(spring_vec3_make(0.3f, 0.0f, 1.0f), 0.1f * (float)c);
		spring_chain_desc each = d;
		each.root = roots[c];
		ENSURE(spring_chain_create(&each, &singles[c], NULL) == SPRING_OK);
	}
	spring_chain_group *g;
	const spring_chain_group_desc gd = {&d, N, roots};
	ENSURE(spring_chain_group_create(&gd, &g, NULL) == SPRING_OK);
	ENSURE(same_pose(g, singles, N) == 0);
	static spring_xform3 now[N];
	for (int f = 1; f <= 120; f++) {
		for (int c = 0; c < N; c++) {
			now[c] = roots[c];
			now[c].position.x += (float)(20.0 * sin(f / 15.0 + c));
			ENSURE(spring_chain_update(singles[c], now[c], 1.0f / 60.0f) == SPRING_OK);
		}
		ENSURE(spring_chain_group_update(g, now, 1.0f / 60.0f) == SPRING_OK);
		ENSURE_MSG(same_pose(g, singles, N) == 0, "frame %d", f);
	}
	destroy_all(g, singles, N);
	// A bad root names its chain; the limit itself is taken.
	const float values[3] = {NAN, 2e6f, SPRING_CHAIN_MAX_COORDINATE};
	const spring_result expected[3] = {SPRING_ERROR_NOT_FINITE, SPRING_ERROR_OUT_OF_RANGE, SPRING_OK};
	for (int k = 0; k < 3; k++) {
		spring_xform3 bad[N];
		memcpy(bad, roots, sizeof bad);
		bad[7].position.y = values[k];
		const spring_chain_group_desc bd = {&d, N, bad};
		spring_error e;
		g = NULL;
		ENSURE(spring_chain_group_create(&bd, &g, &e) == expected[k]);
		ENSURE((spring_chain_group_memory_size(&bd) > 0) == (expected[k] == SPRING_OK));
		if (expected[k] != SPRING_OK) {
			ENSURE_MSG(g == NULL && strcmp(e.field, "roots") == 0 && e.depth == 1 && e.path[0].index == 7 &&
			               strcmp(e.object, "chain_group") == 0,
			           "%s", e.message);
		}
		spring_chain_group_destroy(g);
	}
	ENSURE(spring_chain_group_create(NULL, &g, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_create(&(spring_chain_group_desc){NULL, N, NULL}, &g, NULL) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_memory_size(NULL) == 0);
	return 0;
}

static int test_group_bad_input(void)
{
	spring_chain_desc d = group_desc(MODE_CONE);
	spring_error e;
	spring_chain_group *g = NULL;
	// Colliders are refused with a sentence that says so.
	spring_chain_collider col = {SPRING_CHAIN_COLLIDER_SPHERE, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f};
	spring_chain_desc with = d;
	with.colliders = &col;
	with.collider_count = 1;
	ENSURE(spring_chain_group_create(&(spring_chain_group_desc){.chain = &with, .chain_count = 4}, &g, &e) ==
	           SPRING_ERROR_INVALID_ARGUMENT &&
	       g == NULL);
	ENSURE(strstr(e.message, "collider") != NULL);
	ENSURE(spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &with, .chain_count = 4}) == 0);
	with = d;
	with.max_colliders = 2;
	ENSURE(spring_chain_group_create(&(spring_chain_group_desc){.chain = &with, .chain_count = 4}, &g, NULL) ==
	       SPRING_ERROR_INVALID_ARGUMENT);
	// Chain counts at and beyond the bounds.
	ENSURE(spring_chain_group_create(&(spring_chain_group_desc){.chain = &d, .chain_count = 0}, &g, NULL) ==
	       SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain_group_memory_size(
			   &(spring_chain_group_desc){.chain = &d, .chain_count = SPRING_CHAIN_GROUP_MAX_CHAINS + 1}) == 0);
	ENSURE(spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = SPRING_CHAIN_GROUP_MAX_CHAINS}) >
	       0);
	ENSURE(spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = 1}) > 0);
	// The single chain's checks: a bad bone names itself.
	with = d;
	with.bone_count = 0;
	ENSURE(spring_chain_group_create(&(spring_chain_group_desc){.chain = &with, .chain_count = 4}, &g, &e) ==
	       SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(strstr(e.message, "bone_count") != NULL);
	// A refused call leaves the group byte-identical.
	size_t size = spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS});
	void *mem = aligned_alloc(16, (size + 15) / 16 * 16);
	void *copy = malloc(size);
	ENSURE(mem && copy);
	ENSURE(spring_chain_group_init(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS}, mem, size, &g, NULL) ==
	       SPRING_OK);
	static spring_xform3 roots[CHAINS];
	for (int f = 0; f < 30; f++) {
		for (int c = 0; c < CHAINS; c++) {
			roots[c] = root_of(c, f / 60.0);
		}
		ENSURE(spring_chain_group_update(g, roots, 1.0f / 60.0f) == SPRING_OK);
	}
	spring_xform3 pose[BONES];
	wave_pose(0.4f, pose);
	ENSURE(spring_chain_group_set_animation(g, 5, pose, BONES) == SPRING_OK);
	memcpy(copy, mem, size);
	// Animations: a bad one (for one chain or every chain), a wrong count, a bad chain index.
	spring_xform3 bad_pose[BONES];
	memcpy(bad_pose, pose, sizeof pose);
	bad_pose[BONES - 1].rotation.z = NAN;
	ENSURE(spring_chain_group_set_animation(g, 5, bad_pose, BONES) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain_group_set_animation(g, -1, bad_pose, BONES) == SPRING_ERROR_NOT_FINITE);
	bad_pose[BONES - 1] = pose[BONES - 1];
	bad_pose[2].position.x = -2e6f;
	ENSURE(spring_chain_group_set_animation(g, 0, bad_pose, BONES) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain_group_set_animation(g, 5, pose, BONES - 1) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_animation(g, 5, NULL, 3) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_animation(g, CHAINS, pose, BONES) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_animation(g, -2, NULL, 0) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_animation(NULL, 0, pose, BONES) == SPRING_ERROR_INVALID_ARGUMENT);
	roots[CHAINS - 1].rotation.w = NAN;
	ENSURE(spring_chain_group_update(g, roots, 1.0f / 60.0f) == SPRING_ERROR_NOT_FINITE);
	roots[CHAINS - 1] = root_of(0, 0.0);
	roots[CHAINS - 1].position.x = 2e6f;
	ENSURE(spring_chain_group_update(g, roots, 1.0f / 60.0f) == SPRING_ERROR_OUT_OF_RANGE);
	roots[CHAINS - 1] = root_of(0, 0.0);
	ENSURE(spring_chain_group_update(g, roots, NAN) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain_group_update(g, roots, -1.0f) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain_group_update(g, NULL, 1.0f / 60.0f) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_params(g, 0, 2, (spring_params){1.0f, -1.0f, 1.0f}) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain_group_set_params(g, -1, 2, (spring_params){1.0f, -1.0f, 1.0f}) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain_group_set_params(g, CHAINS, 2, spring_params_default()) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_forces(g, -1, spring_vec3_make(NAN, 0.0f, 0.0f), spring_vec3_make(0.0f, 0.0f, 0.0f)) ==
	       SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain_group_set_bone_gravity(g, -1, 3, spring_vec3_make(0.0f, INFINITY, 0.0f)) == SPRING_ERROR_NOT_FINITE);
	ENSURE(spring_chain_group_set_bone_gravity(g, 4, 3, spring_vec3_make(0.0f, 0.0f, -2e9f)) == SPRING_ERROR_OUT_OF_RANGE);
	ENSURE(spring_chain_group_set_bone_gravity(g, CHAINS, 3, spring_vec3_make(0.0f, 0.0f, 0.0f)) ==
	       SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_bone_gravity(g, -1, BONES, spring_vec3_make(0.0f, 0.0f, 0.0f)) ==
	       SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_set_bone_gravity(NULL, 0, 0, spring_vec3_make(0.0f, 0.0f, 0.0f)) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_teleport(g, -1, roots[0]) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_reset(g, CHAINS, roots[0]) == SPRING_ERROR_INVALID_ARGUMENT);
	spring_xform3 bad = roots[0];
	bad.position.y = INFINITY;
	ENSURE(spring_chain_group_reset(g, 2, bad) == SPRING_ERROR_NOT_FINITE);
	spring_xform3 out[BONES];
	ENSURE(spring_chain_group_get_pose(g, 0, out, NULL, BONES - 1) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain_group_get_pose(g, 0, out, NULL, -1) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(spring_chain_group_get_poses(g, out, NULL, BONES) == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(spring_chain_group_get_poses(g, out, NULL, -BONES) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(memcmp(copy, mem, size) == 0);
	ENSURE(!spring_chain_group_is_resting(NULL, 0) && !spring_chain_group_is_resting(g, -1));
	ENSURE(spring_chain_group_chain_count(NULL) == 0 && spring_chain_group_clock(NULL) == NULL);
	free(copy);
	free(mem);
	return 0;
}

// Sizes never wrap: 27 bones x 990,466 chains (both in range) need about 4.3e9 bytes, which a
// 32-bit size_t wrapped to 9,120 (create then wrote out of bounds). Where the block fits
// (64-bit) it is sized in full; where it does not (wasm32) it is refused, and the largest group
// that fits there is accepted.
static int test_group_sizes_never_wrap(void)
{
	enum { N = 27, CHAINS_BIG = 990466 };
	static spring_chain_bone_desc bones[N];
	spring_chain_desc d = scene_tail_desc(bones, N);
	size_t a = spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = 1000}),
		   b = spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = 2000});
	ENSURE(a > 0 && b > a);
	double per_chain = (double)(b - a) / 1000.0, want = per_chain * (CHAINS_BIG - 1000) + (double)a;
	ENSURE_MSG(want > 4.0e9, "%g", want);
	size_t big = spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS_BIG});
	spring_chain_group *g = NULL;
	spring_error e;
	if (want <= (double)PTRDIFF_MAX) {
		ENSURE_MSG(big > 0 && (double)big >= want * 0.98 && (double)big <= want * 1.02, "%zu for %g", big, want);
	} else {
		ENSURE_MSG(big == 0, "%zu", big);
		ENSURE(spring_chain_group_create(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS_BIG}, &g, &e) ==
		           SPRING_ERROR_OUT_OF_RANGE &&
		       g == NULL);
		ENSURE_MSG(strstr(e.message, "990466 chains of 27 bones") != NULL, "%s", e.message);
		static _Alignas(16) unsigned char small[64];
		ENSURE(spring_chain_group_init(&(spring_chain_group_desc){.chain = &d, .chain_count = CHAINS_BIG}, small, SIZE_MAX, &g,
		                               &e) == SPRING_ERROR_OUT_OF_RANGE &&
		       g == NULL);
		// The largest count whose block fits this target (found by bisection: the vector width
		// pads the count) is sized, within a chain of the bound, and one chain more is refused.
		int fit = 1000, refused = CHAINS_BIG;
		while (refused - fit > 1) {
			int mid = fit + (refused - fit) / 2;
			*(spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = mid}) > 0 ? &fit
			                                                                                                  : &refused) = mid;
		}
		size_t near = spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = fit});
		ENSURE_MSG(near > (size_t)PTRDIFF_MAX / 100u * 98u && near <= (size_t)PTRDIFF_MAX, "%d chains: %zu", fit, near);
		ENSURE(spring_chain_group_memory_size(&(spring_chain_group_desc){.chain = &d, .chain_count = fit + 1}) == 0);
	}
	// The most chains of the most bones: sized in full or refused, never a wrapped size.
	static spring_chain_bone_desc most[SPRING_CHAIN_MAX_BONES];
	spring_chain_desc m = scene_tail_desc(most, SPRING_CHAIN_MAX_BONES);
	size_t top = spring_chain_group_memory_size(
		&(spring_chain_group_desc){.chain = &m, .chain_count = SPRING_CHAIN_GROUP_MAX_CHAINS});
	double lower = (double)SPRING_CHAIN_GROUP_MAX_CHAINS * SPRING_CHAIN_MAX_BONES * per_chain / N * 0.8;
	ENSURE_MSG(lower > (double)PTRDIFF_MAX ? top == 0 : (double)top >= lower, "%zu, %g", top, lower);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_determinism_group_matches_single_chains);
	RUN_TEST(test_determinism_group_every_instruction_set);
	RUN_TEST(test_determinism_group_every_mode);
	RUN_TEST(test_determinism_group_one_block);
	RUN_TEST(test_determinism_single_chain_paired_steps);
	RUN_TEST(test_determinism_single_chain_rests_in_a_pair);
	RUN_TEST(test_determinism_group_many_chains);
	RUN_TEST(test_determinism_group_per_chain_springs);
	RUN_TEST(test_determinism_group_sleepers_in_every_chunk);
	RUN_TEST(test_group_memory);
	RUN_TEST(test_group_initial_roots);
	RUN_TEST(test_group_rests_animated);
	RUN_TEST(test_group_bad_input);
	RUN_TEST(test_group_sizes_never_wrap);
	return TEST_SUMMARY();
}
