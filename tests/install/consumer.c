// SPDX-License-Identifier: MIT
#include <spring/spring.h>
#include <spring/version.h>
#include <stdio.h>

int main(void)
{
	spring_params p;
	if (spring_params_from_duration_bounce(0.5f, 0.3f, &p) != SPRING_OK) {
		return 1;
	}
	printf("spring %s: stiffness %.1f damping %.1f\n", SPRING_VERSION_STRING, p.stiffness, p.damping);
	return (p.stiffness > 157.8f && p.stiffness < 158.0f) ? 0 : 1;
}
