// SPDX-License-Identifier: MIT
// A crowd: a thousand 6-bone tip chains (hair strands, capes) in one group, each under its own
// wandering root, stepped 120 frames at 60 fps in one call a frame (the group runs the chains in
// the widest vectors the processor has, with the bits of single chains). Prints the time a frame
// took on this machine and where the first and last chains' tips ended.
#include <spring/chain.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CHAINS = 1000, BONES = 6 };

int main(void)
{
	spring_chain_bone_desc bones[BONES];
	memset(bones, 0, sizeof bones);
	for (int b = 0; b < BONES; b++) {
		bones[b].rest_local = spring_xform3_identity();
		bones[b].rest_local.position = spring_vec3_make(b == 0 ? 0.0f : 5.0f, 0.0f, 0.0f);
		bones[b].tip = spring_vec3_make(5.0f, 0.0f, 0.0f);
	}
	spring_chain_desc desc = {0};
	desc.bone_count = BONES;
	desc.bones = bones;
	desc.gravity = spring_vec3_make(0.0f, -300.0f, 0.0f);
	spring_chain_group *crowd = NULL;
	spring_error error;
	const spring_chain_group_desc group = {&desc, CHAINS, NULL}; // NULL roots: every chain starts at desc.root
	if (spring_chain_group_create(&group, &crowd, &error) != SPRING_OK) {
		fprintf(stderr, "crowd: %s\n", error.message);
		return 1;
	}
	spring_xform3 *roots = malloc(sizeof *roots * CHAINS);
	spring_vec3 *tips = malloc(sizeof *tips * CHAINS * BONES);
	if (!roots || !tips) {
		return 1;
	}
	const float frame_dt = 1.0f / 60.0f;
	double seconds = 0.0;
	for (int frame = 0; frame < 120; frame++) {
		const double t = frame * frame_dt;
		for (int c = 0; c < CHAINS; c++) { // each root walks its own circle
			roots[c] = spring_xform3_identity();
			roots[c].position = spring_vec3_make((float)(30.0 * spring_det_cos(2.0 * t + 0.01 * c)),
			                                     (float)(10.0 * spring_det_sin(3.0 * t + c)), (float)c);
		}
		clock_t start = clock();
		if (spring_chain_group_update(crowd, roots, frame_dt) != SPRING_OK) {
			return 1;
		}
		seconds += (double)(clock() - start) / CLOCKS_PER_SEC;
	}
	spring_chain_group_get_poses(crowd, NULL, tips, CHAINS * BONES);
	printf("%d chains of %d bones: %.1f us a frame (processor time)\n", CHAINS, BONES, 1e6 * seconds / 120.0);
	printf("tips: chain 0 (%.2f, %.2f, %.2f), chain %d (%.2f, %.2f, %.2f)\n", tips[BONES - 1].x, tips[BONES - 1].y,
	       tips[BONES - 1].z, CHAINS - 1, tips[CHAINS * BONES - 1].x, tips[CHAINS * BONES - 1].y, tips[CHAINS * BONES - 1].z);
	spring_chain_group_destroy(crowd);
	free(roots);
	free(tips);
	return 0;
}
