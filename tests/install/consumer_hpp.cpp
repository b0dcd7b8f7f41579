// SPDX-License-Identifier: MIT
// A C++17 consumer of the installed spring/spring.hpp: an angle chain owned, stepped and read.
#include <spring/spring.hpp>

#include <cstdio>
#include <utility>

int main()
{
	spring_chain2d_segment tail[4] = {};
	for (auto &segment : tail) {
		segment.length = 10.0f;
	}
	spring_chain2d_desc desc = {};
	desc.segment_count = 4;
	desc.segments = tail;
	auto made = spring::chain2d::create(desc);
	if (!made) {
		std::printf("refused: %s\n", made.message());
		return 1;
	}
	spring::chain2d chain = std::move(*made);
	spring_xform2 joints[5];
	for (int frame = 0; frame < 60; frame++) {
		if (!chain.update(spring_xform2_identity(), 1.0f / 60.0f).ok()) {
			return 1;
		}
	}
	if (!chain.get_pose(joints).ok()) {
		return 1;
	}
	std::printf("spring.hpp: tip at %.3f, %.3f\n", static_cast<double>(joints[4].position.x),
	            static_cast<double>(joints[4].position.y));
	return 0;
}
