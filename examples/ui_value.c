// SPDX-License-Identifier: MIT
// A UI value: a card's x slides from 0 to 300 with SwiftUI's .bouncy spring (duration 0.5 s,
// bounce 0.3), is sent back to 100 after 0.2 s keeping its velocity, and stops redrawing at exact
// rest. Prints a line every 50 ms of the 60 fps run.
#include <spring/motion.h>
#include <spring/spring.h>

#include <stdio.h>

int main(void)
{
	spring_motion card;
	spring_motion_desc desc = {0};
	desc.channels = 1;
	desc.from[0] = 0.0f;
	desc.to[0] = 300.0f;
	if (spring_params_from_duration_bounce(0.5f, 0.3f, &desc.params) != SPRING_OK ||
	    spring_motion_init(&card, &desc) != SPRING_OK) {
		return 1;
	}
	const float frame_dt = 1.0f / 60.0f;
	int frame = 0;
	for (; !spring_motion_is_resting(&card) && frame < 600; frame++) {
		if (frame == 12) { // 0.2 s: the user changes their mind
			const float back = 100.0f;
			spring_motion_set_target(&card, &back, 1);
		}
		spring_motion_update(&card, frame_dt);
		float x, v;
		spring_motion_get_value(&card, &x, &v, 1);
		if (frame % 3 == 2) {
			printf("t %.2f s  x %7.2f  speed %8.2f\n", (frame + 1) * frame_dt, x, v);
		}
	}
	float x;
	spring_motion_get_value(&card, &x, NULL, 1);
	printf("at rest on %g after %d frames (%.2f s): stop redrawing\n", x, frame, frame * frame_dt);
	return spring_motion_is_resting(&card) && x == 100.0f ? 0 : 1;
}
