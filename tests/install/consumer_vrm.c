// SPDX-License-Identifier: MIT
// Reads a VRM spring bone through spring::io (spring/vrm.h) from memory: a tiny glTF document
// whose VRMC_springBone has one spring of two joints, checked against the skeleton it describes.
// Valid C and C++; the install test builds it as C with find_package and with pkg-config.
#include <spring/vrm.h>

#include <stdio.h>
#include <string.h>

static const char model[] =
	"{\"asset\": {\"version\": \"2.0\"},"
	" \"nodes\": [{\"name\": \"root\", \"children\": [1]},"
	"            {\"name\": \"hair\", \"translation\": [0, 1, 0], \"children\": [2]},"
	"            {\"name\": \"tip\", \"translation\": [0, -0.25, 0]}],"
	" \"extensions\": {\"VRMC_springBone\": {\"specVersion\": \"1.0\","
	"   \"springs\": [{\"name\": \"hair\", \"joints\": [{\"node\": 1, \"stiffness\": 2, \"dragForce\": 0.4},"
	"                                              {\"node\": 2}]}]}}}";

int main(void)
{
	spring_vrm_file *f = NULL;
	spring_file_error error;
	if (spring_vrm_load_memory(model, strlen(model), "tiny.gltf", &f, &error) != SPRING_OK) {
		fprintf(stderr, "%s\n", error.message);
		return 1;
	}
	const spring_skeleton_desc *d = spring_vrm_file_desc(f);
	int ok = spring_vrm_file_format(f) == SPRING_VRM_FORMAT_1_0 && spring_skeleton_validate(d, NULL) == SPRING_OK &&
	         d->node_count == 3 && d->spring_count == 1 && d->springs[0].joint_count == 2 && d->springs[0].joints[0].node == 1 &&
	         d->springs[0].joints[1].node == 2 && d->springs[0].joints[0].stiffness == 2.0f &&
	         d->springs[0].joints[0].drag == 0.4f && d->nodes[2].parent == 1 && d->nodes[2].translation.y == -0.25f &&
	         spring_vrm_file_find_node(f, "hair") == 1 && strcmp(spring_vrm_file_node_name(f, 2), "tip") == 0;
	printf("vrm tiny.gltf: %d nodes, %d spring of %d joints %s\n", d->node_count, d->spring_count, d->springs[0].joint_count,
	       ok ? "read" : "wrong");
	spring_vrm_file_destroy(f);
	return ok ? 0 : 1;
}
