// SPDX-License-Identifier: MIT
// A tail on a moving hip: an 8-segment, 80-unit angle chain hanging back from a hip that walks
// right at 120 units/s with a bob, turns a little, and stops dead after 2 s. The tail swings,
// settles, and comes to exact rest (after which an update costs a comparison). Prints the tip
// every 0.25 s of the 60 fps run.
#include <spring/chain.h>

#include <stdio.h>

int main(void)
{
	enum { SEGMENTS = 8 };
	spring_chain2d_segment segments[SEGMENTS] = {{0}};
	for (int i = 0; i < SEGMENTS; i++) {
		segments[i].length = 10.0f;
		segments[i].rest_angle = i == 0 ? 2.9f : 0.08f; // back from the hip, curling a little
	}
	spring_chain2d_desc desc = {0};
	desc.segment_count = SEGMENTS;
	desc.segments = segments;
	desc.gravity = spring_vec2_make(0.0f, -300.0f);
	spring_chain2d *tail = NULL;
	spring_error error;
	if (spring_chain2d_create(&desc, &tail, &error) != SPRING_OK) {
		fprintf(stderr, "tail: %s\n", error.message);
		return 1;
	}
	const float frame_dt = 1.0f / 60.0f;
	int frame = 0;
	for (; frame < 600 && !(frame > 120 && spring_chain2d_is_resting(tail)); frame++) {
		const float t = frame * frame_dt, walk = t < 2.0f ? t : 2.0f;
		spring_xform2 hip = spring_xform2_identity();
		hip.position = spring_vec2_make(120.0f * walk, 4.0f * (float)spring_det_sin(12.0 * walk));
		hip.angle = 0.15f * (float)spring_det_sin(3.0 * walk);
		if (spring_chain2d_update(tail, hip, frame_dt) != SPRING_OK) {
			return 1;
		}
		if (frame % 15 == 14) {
			spring_xform2 joints[SEGMENTS + 1];
			spring_chain2d_get_pose(tail, joints, NULL, SEGMENTS + 1);
			const spring_vec2 tip = joints[SEGMENTS].position;
			printf("t %.2f s  hip x %6.1f  tip (%7.2f, %7.2f)\n", t + frame_dt, hip.position.x, tip.x, tip.y);
		}
	}
	const int resting = spring_chain2d_is_resting(tail);
	printf("%s after %.2f s\n", resting ? "at exact rest" : "still moving", frame * frame_dt);
	spring_chain2d_destroy(tail);
	return resting ? 0 : 1;
}
