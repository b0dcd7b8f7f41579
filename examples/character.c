// SPDX-License-Identifier: MIT
// The sample character (examples/rigs/character.json: 34 bones, idle, walk and run clips, IK,
// a tail, a cape and hair) loaded from its rig file and stepped at 60 fps: two seconds of the walk
// clip (whose "teleport" event, applied by spring_rig_apply_events, moves it 400 units a loop),
// then two of idle, printing the tail's tip every half second. Usage: character [RIG.json]
#include <spring/io.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "examples/rigs/character.json";
	spring_rig *rig = NULL;
	spring_file_error error;
	if (spring_rig_load_file(path, &rig, &error) != SPRING_OK) {
		fprintf(stderr, "%s\n", error.message);
		return 1;
	}
	const int walk = spring_rig_find_clip(rig, "walk"), idle = spring_rig_find_clip(rig, "idle");
	const int tail = spring_rig_find_bone(rig, "tail6");
	if (walk < 0 || idle < 0 || tail < 0 || spring_rig_play(rig, walk, 0.0f) != SPRING_OK) {
		fprintf(stderr, "%s: no walk and idle clips, or no tail6 bone\n", path);
		spring_rig_destroy(rig);
		return 1;
	}
	spring_xform2 world[SPRING_RIG_MAX_BONES];
	const float frame_dt = 1.0f / 60.0f;
	for (int frame = 0; frame < 240; frame++) {
		if (frame == 120) {
			spring_rig_play(rig, idle, 0.0f);
		}
		if (spring_rig_update(rig, frame_dt) != SPRING_OK || spring_rig_apply_events(rig, NULL) != SPRING_OK ||
		    spring_rig_get_world(rig, world, SPRING_RIG_MAX_BONES) != SPRING_OK) {
			spring_rig_destroy(rig);
			return 1;
		}
		if (frame % 30 == 29) {
			printf("t %.1f s  %s  tail tip (%7.2f, %7.2f)\n", (frame + 1) * frame_dt, frame < 120 ? "walk" : "idle",
			       world[tail].position.x, world[tail].position.y);
		}
	}
	printf("%d bones, %d chains\n", spring_rig_bone_count(rig), spring_rig_chain_count(rig));
	spring_rig_destroy(rig);
	return 0;
}
