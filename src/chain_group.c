// SPDX-License-Identifier: MIT
// spring_chain_group: many tip chains of one shape stepped together (chain.h, "Groups of tip
// chains"). The group is a header, then `chain_count` spring_chain members whose per-bone state
// is stored across the chains (chain.c's lanes): every per-chain call is the spring_chain call on
// the member, and an update steps all members at once, bone by bone over the chains.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "spring/chain.h"

#include "chain_internal.h"
#include "spring_internal.h"

#include <stddef.h>
#include <string.h>

struct spring_chain_group {
	int chain_count;
	int bone_count;
	spring_clock clock;          // the one clock of every chain
	spring_internal_owner owner; // set by create; zero for caller memory
};

// Member 0 sits at the first 16-byte boundary after the header.
static spring_chain *first_member(const spring_chain_group *g)
{
	return (spring_chain *)(void *)((unsigned char *)(uintptr_t)g + spring_internal_align16(sizeof *g));
}

static spring_chain *chain_at(const spring_chain_group *g, int chain)
{
	return spring_chain_internal_lane(first_member(g), chain);
}

static int valid_index(const spring_chain_group *g, int chain)
{
	return g && chain >= 0 && chain < g->chain_count;
}

// What a group refuses beyond spring_chain's own checks: no description, a chain count out of
// range, colliders, a bad root.
static spring_result check_group(const spring_chain_group_desc *gd, spring_error *error)
{
	if (!gd || !gd->chain) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain_group", SPRING_ELEMENT_NONE, -1,
		                               gd ? "chain" : "desc", "%s is NULL", gd ? "chain" : "desc");
	}
	const spring_chain_desc *desc = gd->chain;
	if (gd->chain_count < 1 || gd->chain_count > SPRING_CHAIN_GROUP_MAX_CHAINS) {
		return spring_internal_fail_at(error, SPRING_ERROR_OUT_OF_RANGE, "chain_group", SPRING_ELEMENT_NONE, -1, "chain_count",
		                               "chain_count must be in 1..%d (got %d)", SPRING_CHAIN_GROUP_MAX_CHAINS, gd->chain_count);
	}
	if (desc->collider_count != 0 || desc->max_colliders != 0) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain_group", SPRING_ELEMENT_NONE, -1,
		                               "collider_count",
		                               "a chain group takes no colliders (collider_count and max_colliders must be 0; "
		                               "use spring_chain for chains that collide)");
	}
	for (int j = 0; gd->roots && j < gd->chain_count; j++) {
		spring_xform3 root = gd->roots[j];
		spring_result r = spring_chain_internal_accept_root(&root);
		if (r != SPRING_OK) {
			return spring_internal_fail_at(error, r, "chain_group", SPRING_ELEMENT_CHAIN, j, "roots",
			                               "roots[%d] must be finite with its position within +-%g (SPRING_CHAIN_MAX_COORDINATE)",
			                               j, (double)SPRING_CHAIN_MAX_COORDINATE);
		}
	}
	return SPRING_OK;
}

size_t spring_chain_group_memory_size(const spring_chain_group_desc *desc)
{
	if (check_group(desc, NULL) != SPRING_OK) {
		return 0;
	}
	size_t lanes = spring_chain_internal_lanes_size(desc->chain, desc->chain_count, sizeof(spring_chain_group));
	return lanes ? sizeof(spring_chain_group) + lanes : 0;
}

spring_result spring_chain_group_init(const spring_chain_group_desc *gd, void *memory, size_t size, spring_chain_group **out,
                                      spring_error *error)
{
	if (error) {
		memset(error, 0, sizeof *error);
	}
	if (!out) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain_group", SPRING_ELEMENT_NONE, -1, "out",
		                               "out is NULL");
	}
	spring_result r = check_group(gd, error);
	if (r != SPRING_OK) {
		return r;
	}
	const spring_chain_desc *desc = gd->chain;
	const int chain_count = gd->chain_count;
	size_t need = spring_chain_group_memory_size(gd);
	if (need == 0 && spring_chain_memory_size(desc) == 0) {
		// The description is invalid: let the chain's checks say why.
		spring_chain *ignored;
		return spring_chain_init(desc, NULL, 0, &ignored, error);
	}
	if (need == 0) {
		return spring_internal_fail_at(error, SPRING_ERROR_OUT_OF_RANGE, "chain_group", SPRING_ELEMENT_NONE, -1, "chain_count",
		                               "%d chains of %d bones need more than %zu bytes, the most one block can hold here",
		                               chain_count, desc->bone_count, SPRING_INTERNAL_MAX_BLOCK_BYTES);
	}
	if (!memory || ((uintptr_t)memory & 15u) != 0 || size < need) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain_group", SPRING_ELEMENT_NONE, -1, "memory",
		                               "memory must be 16-byte aligned and at least %zu bytes", need);
	}
	spring_chain_group *g = (spring_chain_group *)memory;
	memset(g, 0, sizeof *g);
	r = spring_chain_internal_lanes_init(desc, chain_count, memory, sizeof *g, error);
	if (r != SPRING_OK) {
		return r;
	}
	g->chain_count = chain_count;
	g->bone_count = desc->bone_count;
	g->clock = *spring_chain_clock(first_member(g));
	for (int j = 0; gd->roots && j < chain_count; j++) {
		spring_chain_reset(chain_at(g, j), gd->roots[j]); // = made at this root (checked)
	}
	*out = g;
	return SPRING_OK;
}

static spring_result group_init_thunk(const void *args, void *memory, size_t size, void **out, spring_error *error)
{
	spring_chain_group *g = NULL;
	spring_result r = spring_chain_group_init((const spring_chain_group_desc *)args, memory, size, out ? &g : NULL, error);
	if (r == SPRING_OK) {
		*out = g;
	}
	return r;
}

spring_result spring_chain_group_create(const spring_chain_group_desc *desc, spring_chain_group **out, spring_error *error)
{
	void *object = NULL;
	spring_allocator used;
	spring_result r = spring_internal_create(desc, spring_chain_group_memory_size(desc), group_init_thunk, out ? &object : NULL,
	                                         &used, "chain_group", error);
	if (r == SPRING_OK) {
		*out = (spring_chain_group *)object;
		(*out)->owner.block = object;
		(*out)->owner.allocator = used;
	}
	return r;
}

void spring_chain_group_destroy(spring_chain_group *group)
{
	if (group) {
		spring_internal_destroy(group, &group->owner);
	}
}

int spring_chain_group_chain_count(const spring_chain_group *group)
{
	return group ? group->chain_count : 0;
}

int spring_chain_group_bone_count(const spring_chain_group *group)
{
	return group ? group->bone_count : 0;
}

spring_result spring_chain_group_update(spring_chain_group *group, const spring_xform3 *roots, float frame_dt)
{
	if (!group || !roots) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_chain_internal_update_lanes(first_member(group), group->chain_count, &group->clock, roots, frame_dt);
}

spring_result spring_chain_group_get_pose(const spring_chain_group *group, int chain, spring_xform3 *bones, spring_vec3 *tips,
                                          int capacity)
{
	if (!valid_index(group, chain)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_chain_internal_pose(chain_at(group, chain), group->clock.alpha, bones, tips, capacity);
}

spring_result spring_chain_group_get_poses(const spring_chain_group *group, spring_xform3 *bones, spring_vec3 *tips, int capacity)
{
	if (!group || (!bones && !tips)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, (int64_t)group->chain_count * group->bone_count);
	if (room != SPRING_OK) {
		return room;
	}
	return spring_chain_internal_lanes_pose(first_member(group), group->chain_count, group->clock.alpha, bones, tips);
}

spring_result spring_chain_group_get_state(const spring_chain_group *group, int chain, int bone, spring_state_vec3 *tip)
{
	if (!valid_index(group, chain)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_chain_get_state(chain_at(group, chain), bone, tip);
}

spring_result spring_chain_group_reset(spring_chain_group *group, int chain, spring_xform3 root)
{
	if (!valid_index(group, chain)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_chain_reset(chain_at(group, chain), root);
}

spring_result spring_chain_group_teleport(spring_chain_group *group, int chain, spring_xform3 root)
{
	if (!valid_index(group, chain)) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	return spring_chain_teleport(chain_at(group, chain), root);
}

// The body of a per-chain setter: CALL (an expression of `j`, the chain's index) on chain `chain`, or with `chain` -1 on every
// chain in turn. Every chain takes the same arguments, so the first one's checks decide: a refused call changes nothing, and once
// chain 0 took it the others cannot fail.
#define EACH_CHAIN(group, chain, CALL)                                             \
	do {                                                                           \
		if (!(group) || ((chain) != -1 && !valid_index((group), (chain)))) {       \
			return SPRING_ERROR_INVALID_ARGUMENT;                                  \
		}                                                                          \
		const int end = (chain) >= 0 ? (chain) + 1 : (group)->chain_count;         \
		spring_result r = SPRING_OK;                                               \
		for (int j = (chain) >= 0 ? (chain) : 0; r == SPRING_OK && j < end; j++) { \
			r = (CALL);                                                            \
		}                                                                          \
		return r;                                                                  \
	} while (0)

spring_result spring_chain_group_set_params(spring_chain_group *group, int chain, int bone, spring_params params)
{
	EACH_CHAIN(group, chain, spring_chain_set_params(chain_at(group, j), bone, params));
}

spring_result spring_chain_group_set_bone_gravity(spring_chain_group *group, int chain, int bone, spring_vec3 gravity)
{
	EACH_CHAIN(group, chain, spring_chain_internal_set_lane_bone_gravity(first_member(group), j, bone, gravity));
}

spring_result spring_chain_group_set_forces(spring_chain_group *group, int chain, spring_vec3 gravity, spring_vec3 wind)
{
	EACH_CHAIN(group, chain, spring_chain_set_forces(chain_at(group, j), gravity, wind));
}

spring_result spring_chain_group_set_animation(spring_chain_group *group, int chain, const spring_xform3 *local, int count)
{
	EACH_CHAIN(group, chain, spring_chain_internal_set_lane_animation(first_member(group), j, local, count));
}

bool spring_chain_group_is_resting(const spring_chain_group *group, int chain)
{
	return valid_index(group, chain) && spring_chain_is_resting(chain_at(group, chain));
}

int spring_chain_group_internal_transition(const spring_chain_group *group, int bone)
{
	return group ? spring_chain_internal_lanes_transition(first_member(group), bone) : -1;
}

size_t spring_chain_group_internal_member_offset(const spring_chain_group *group, int chain)
{
	return valid_index(group, chain) ? (size_t)((const unsigned char *)chain_at(group, chain) - (const unsigned char *)group) : 0;
}

const spring_clock *spring_chain_group_clock(const spring_chain_group *group)
{
	return group ? &group->clock : NULL;
}

// ---------------------------------------------------------------------------------------------
// Snapshots: the whole block (header, members, their lanes' arrays)

static size_t group_bytes(const spring_chain_group *g)
{
	return spring_chain_internal_block_total(first_member(g));
}

static uint64_t group_shape(const spring_chain_group *g)
{
	static const char tag[] = "chain_group";
	uint64_t h = spring_hash(SPRING_HASH_INIT, tag, sizeof tag);
	int counts[2] = {g->chain_count, g->bone_count};
	h = spring_hash(h, counts, sizeof counts);
	uint64_t lanes = spring_chain_internal_shape(first_member(g));
	return spring_hash(h, &lanes, sizeof lanes);
}

size_t spring_chain_group_snapshot_size(const spring_chain_group *group)
{
	return group ? SPRING_SNAPSHOT_HEADER_BYTES + group_bytes(group) : 0;
}

spring_result spring_chain_group_snapshot(const spring_chain_group *group, void *blob, size_t size)
{
	if (!group) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result r = spring_internal_snapshot(group, group_bytes(group), offsetof(spring_chain_group, owner),
	                                           SPRING_SNAPSHOT_CHAIN_GROUP, group_shape(group), blob, size);
	if (r == SPRING_OK) {
		const size_t first = (size_t)((const unsigned char *)first_member(group) - (const unsigned char *)group);
		spring_chain_internal_clear_scratch(first_member(group), (unsigned char *)blob + SPRING_SNAPSHOT_HEADER_BYTES + first);
	}
	return r;
}

spring_result spring_chain_group_restore(spring_chain_group *group, const void *blob, size_t size, spring_error *error)
{
	if (!group) {
		return spring_internal_fail_at(error, SPRING_ERROR_INVALID_ARGUMENT, "chain_group", SPRING_ELEMENT_NONE, -1, "group",
		                               "the group is NULL");
	}
	const size_t bytes = group_bytes(group);
	const unsigned char *body;
	spring_result r = spring_internal_snapshot_header(blob, size, SPRING_SNAPSHOT_CHAIN_GROUP, group_shape(group), bytes,
	                                                  "chain_group", error, &body);
	if (r != SPRING_OK) {
		return r;
	}
	spring_chain_group h;
	memcpy(&h, body, sizeof h);
	if (h.chain_count != group->chain_count || h.bone_count != group->bone_count) {
		return spring_internal_snapshot_bad(error, SPRING_ERROR_INVALID_ARGUMENT, "chain_group", SPRING_ELEMENT_NONE, -1,
		                                    "chain_count", "or bone_count differs from this group's");
	}
	const char *why = spring_internal_clock_check(&group->clock, &h.clock);
	if (why) {
		return spring_internal_snapshot_bad(error, SPRING_ERROR_OUT_OF_RANGE, "chain_group", SPRING_ELEMENT_NONE, -1, "clock",
		                                    why);
	}
	const size_t first = (size_t)((const unsigned char *)first_member(group) - (const unsigned char *)group);
	r = spring_chain_internal_check_lanes_image(first_member(group), group->chain_count, body + first, error);
	if (r == SPRING_OK) {
		spring_internal_snapshot_install(group, bytes, offsetof(spring_chain_group, owner), body);
	}
	return r;
}
