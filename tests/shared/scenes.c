// SPDX-License-Identifier: MIT
// The standard scenes and chain helpers (see scenes.h).
#include "scenes.h"

#include <stdlib.h>
#include <string.h>

spring_chain_desc scene_tail_desc(spring_chain_bone_desc *bones, int bone_count)
{
	memset(bones, 0, (size_t)bone_count * sizeof *bones);
	for (int i = 0; i < bone_count; i++) {
		bones[i].rest_local.position = spring_vec3_make(i == 0 ? 0.0f : SCENE_TAIL_BONE_LENGTH, 0.0f, 0.0f);
		bones[i].rest_local.rotation = spring_quat_identity();
		bones[i].tip = spring_vec3_make(SCENE_TAIL_BONE_LENGTH, 0.0f, 0.0f);
	}
	spring_chain_desc d = {0};
	d.bone_count = bone_count;
	d.bones = bones;
	spring_params_from_frequency(2.0f, 0.3f, &d.params);
	d.root.rotation = spring_quat_identity();
	return d;
}

void scene_tail_segments(spring_chain2d_segment *segments, int segment_count)
{
	memset(segments, 0, (size_t)segment_count * sizeof *segments);
	for (int i = 0; i < segment_count; i++) {
		segments[i].length = SCENE_TAIL_BONE_LENGTH;
		segments[i].rest_angle = i == 0 ? 3.0f : 0.1f;
	}
}

spring_xform3 scene_tail_root(double t)
{
	float x = (float)(30.0 * spring_det_sin(2.0 * SPRING_PI * 0.8 * t));
	float y = (float)(10.0 * spring_det_sin(2.0 * SPRING_PI * 0.3 * t));
	float a = (float)(0.4 * spring_det_sin(2.0 * SPRING_PI * 0.5 * t));
	spring_xform3 r = {spring_vec3_make(x, y, 0.0f), spring_quat_from_axis_angle(spring_vec3_make(0.0f, 0.0f, 1.0f), a)};
	return r;
}

spring_xform2 scene_xform2(float x, float y, float angle)
{
	spring_xform2 t = {{x, y}, angle, {1.0f, 1.0f}};
	return t;
}

static void *counting_alloc(size_t size, size_t alignment, void *context)
{
	scene_alloc_counter *counter = context;
	counter->allocs++;
	if (counter->fail || (counter->alignment && alignment != counter->alignment)) {
		return NULL;
	}
	return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

static void counting_free(void *pointer, void *context)
{
	scene_alloc_counter *counter = context;
	counter->frees++;
	free(pointer);
}

spring_allocator scene_counting_allocator(scene_alloc_counter *counter)
{
	spring_allocator a = {counting_alloc, counting_free, counter};
	return a;
}
