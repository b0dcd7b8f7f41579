// SPDX-License-Identifier: MIT
// Soak: the sample character driven for a long stretch of game time the way a game abuses it --
// jittery frames, hitches up to 2 s, a paused second, time-scale changes, clip switches, root
// moves, teleports and resets -- checking after every frame that the pose is finite, and at the
// end that a held pose comes to exact rest. Not part of `make test` (it is long by design):
// `make soak` runs it; the figures of the last run are in docs/RELIABILITY.md.
//
// Usage: spring_soak RIG.json [game-hours, default 1]
#include "spring/rig.h"
#include "spring/verify.h"

#include <spring/io.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: spring_soak RIG.json [game-hours]\n");
		return 2;
	}
	double hours = argc > 2 ? atof(argv[2]) : 1.0;
	spring_rig *rig = NULL;
	spring_rig_file_info info;
	spring_file_error err;
	if (spring_rig_load_file_ex(argv[1], &rig, &info, &err) != SPRING_OK) {
		fprintf(stderr, "spring_soak: %s\n", err.message);
		return 2;
	}
	int bones = spring_rig_bone_count(rig);
	spring_xform2 *world = malloc(sizeof *world * (size_t)bones);
	if (!world) {
		return 2;
	}
	uint32_t seed = 20261130u;
	double game = 0.0, limit = hours * 3600.0;
	long long frames = 0, hitches = 0, teleports = 0, resets = 0, switches = 0, refused = 0;
	clock_t start = clock();
	spring_xform2 root = {{0.0f, 0.0f}, 0.0f, {1.0f, 1.0f}};
	while (game < limit) {
		double u = spring_random_unit(&seed);
		float dt = (float)(0.004 + 0.036 * spring_random_unit(&seed));
		if (u < 0.0005) {
			dt = (float)(0.2 + 1.8 * spring_random_unit(&seed)); // a hitch
			hitches++;
		} else if (u < 0.0008) {
			spring_rig_play(rig, (int)(spring_random_unit(&seed) * info.clip_count), 0.0f);
			switches++;
		} else if (u < 0.0009) {
			root.position.x += (float)(4000.0 * (spring_random_unit(&seed) - 0.5));
			refused += spring_rig_teleport(rig, root) != SPRING_OK;
			teleports++;
		} else if (u < 0.00095) {
			refused += spring_rig_reset(rig) != SPRING_OK;
			resets++;
		} else if (u < 0.001) {
			spring_rig_set_time_scale(rig, (float)(0.25 + 1.75 * spring_random_unit(&seed)));
		}
		// The root runs back and forth (a character moving about its level).
		root.position.x += (float)(300.0 * sin(game * 0.37) * dt);
		root.position.y = (float)(20.0 * sin(game * 1.3));
		if (spring_rig_set_root(rig, root) != SPRING_OK || spring_rig_update(rig, dt) != SPRING_OK ||
		    spring_rig_get_world(rig, world, bones) != SPRING_OK) {
			fprintf(stderr, "spring_soak: a call failed at frame %lld (game time %.1f s)\n", frames, game);
			return 1;
		}
		for (int i = 0; i < bones; i++) {
			if (!spring_is_finite(world[i].position.x) || !spring_is_finite(world[i].position.y) ||
			    !spring_is_finite(world[i].angle)) {
				fprintf(stderr, "spring_soak: bone %d not finite at frame %lld\n", i, frames);
				return 1;
			}
		}
		game += dt;
		frames++;
	}
	// Then the setup pose held: every chain comes to exact rest.
	spring_rig_set_time_scale(rig, 1.0f);
	spring_rig_play(rig, -1, 0.0f);
	int settle = 0;
	while (!spring_rig_is_resting(rig) && settle < 60 * 120) {
		spring_rig_update(rig, 1.0f / 60.0f);
		settle++;
	}
	double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
	printf("soak: %.2f game hours, %lld frames (%lld hitches, %lld clip switches, %lld teleports, %lld resets, "
	       "%lld refused) in %.1f s of CPU: every pose finite; at rest %s after %.2f s of a held pose\n",
	       game / 3600.0, frames, hitches, switches, teleports, resets, refused, seconds,
	       spring_rig_is_resting(rig) ? "exactly" : "NOT", settle / 60.0);
	bool resting = spring_rig_is_resting(rig);
	free(world);
	spring_rig_destroy(rig);
	return resting ? 0 : 1;
}
