// SPDX-License-Identifier: MIT
// Loads a rig file through spring::io (spring/io.h) and plays a clip for a second. Valid C and
// C++: the install test builds it both ways. Usage: consumer_io RIG.json
#include <spring/io.h>
#include <spring/rig.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: consumer_io RIG.json\n");
		return 2;
	}
	spring_rig *rig = NULL;
	spring_file_error error;
	if (spring_rig_load_file(argv[1], &rig, &error) != SPRING_OK) {
		fprintf(stderr, "%s\n", error.message);
		return 1;
	}
	int clip = spring_rig_find_clip(rig, "walk");
	int ok = clip >= 0 && spring_rig_play(rig, clip, 0.0f) == SPRING_OK;
	for (int frame = 0; ok && frame < 60; frame++) {
		ok = spring_rig_update(rig, 1.0f / 60.0f) == SPRING_OK;
	}
	printf("rig %s: %d bones, clip walk %s\n", argv[1], spring_rig_bone_count(rig), ok ? "played" : "failed");
	spring_rig_destroy(rig);
	return ok ? 0 : 1;
}
