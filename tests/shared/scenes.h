// SPDX-License-Identifier: MIT
/// The standard scenes, written once for the tests, the benchmarks and the wasm test build
/// (like Box2D's shared/): the 8-bone, 20-unit tail as a tip chain and as an angle chain, its
/// animated root, and small helpers every chain test needs.
#ifndef SPRING_TEST_SCENES_H
#define SPRING_TEST_SCENES_H

#include "spring/chain.h"

#define SCENE_TAIL_BONES 8                                            ///< bones (segments) of the standard tail
#define SCENE_TAIL_BONE_LENGTH 20.0f                                  ///< units per bone
#define SCENE_TAIL_LENGTH (SCENE_TAIL_BONES * SCENE_TAIL_BONE_LENGTH) ///< 160 units

/// The tail as a tip chain: `bone_count` (SCENE_TAIL_BONES in the standard scene) bones of 20
/// units along +x, each starting at its parent's tip, written to bones[0 .. bone_count) (every
/// other field zero). The description uses them, with 2 Hz and damping ratio 0.3, an identity
/// root and every other field zero (the defaults).
spring_chain_desc scene_tail_desc(spring_chain_bone_desc *bones, int bone_count);

/// The tail as an angle chain: `segment_count` segments of 20 units, the first hanging back from
/// the root (rest angle 3 rad), the rest bending 0.1 rad each; params zero (the chain's default).
void scene_tail_segments(spring_chain2d_segment *segments, int segment_count);

/// The tail's animated root at t seconds: x = 30 sin(2 pi 0.8 t), y = 10 sin(2 pi 0.3 t) units,
/// turned 0.4 sin(2 pi 0.5 t) rad about +z (the library's deterministic sine).
spring_xform3 scene_tail_root(double t);

/// A 2D transform at (x, y) turned by `angle` radians, unit scale.
spring_xform2 scene_xform2(float x, float y, float angle);

/// Allocation hooks that count their calls; memory comes from aligned_alloc and goes back to free.
typedef struct scene_alloc_counter {
	int allocs, frees; ///< calls seen
	int fail;          ///< non-zero: every allocation returns NULL (still counted)
	size_t alignment;  ///< non-zero: a request for any other alignment returns NULL
} scene_alloc_counter;

/// The hooks, counting into `*counter` (their context).
spring_allocator scene_counting_allocator(scene_alloc_counter *counter);

#endif
