// SPDX-License-Identifier: MIT
// Snapshots from untrusted sources (base.h): restore refuses a blob that is not a state the object
// could reach by its own calls, and then changes nothing; a blob it accepts keeps every later call
// finite and bounded. The blobs of issue 23 (a count raised in the body, a NaN in a segment's
// state, a bool byte of 2, another channel count, another group's max_steps, a flipped bit of an
// internal offset), and every single-bit flip of every kind's blob body.
#include "spring/chain.h"
#include "spring/motion.h"
#include "spring/rig.h"

#include "chain2d_internal.h"
#include "chain_impl.h"
#include "rig_internal.h"
#include "scenes.h"
#include "snapshot_kinds.h"
#include "test_macros.h"

#include <stddef.h>
#include <stdint.h>

// `*accepted` says which.
static const char *try_blob(const snapshot_kind *k, const unsigned char *blob, size_t size, bool *accepted, spring_error *error)
{
	size_t own = k->size(k->object);
	unsigned char *before = malloc(own), *after = malloc(own);
	const char *broken = NULL;
	if (!before || !after || k->snapshot(k->object, before, own) != SPRING_OK) {
		broken = "no memory";
	} else {
		spring_result r = k->restore(k->object, blob, size, error);
		*accepted = r == SPRING_OK;
		if (r != SPRING_OK) {
			if (r <= SPRING_OK || r >= SPRING_RESULT_COUNT || (error && error->result != r)) {
				broken = "refused without a defined error";
			} else if (k->snapshot(k->object, after, own) != SPRING_OK || memcmp(before, after, own) != 0) {
				broken = "a refused restore changed the object";
			}
		} else {
			broken = k->drive(k->object, 6); // a 0.25 s hitch among them
		}
	}
	free(before);
	free(after);
	return broken;
}

// The object's genuine blob (malloc'd).
static unsigned char *genuine(const snapshot_kind *k, size_t *size)
{
	*size = k->size(k->object);
	unsigned char *blob = malloc(*size);
	if (blob && k->snapshot(k->object, blob, *size) != SPRING_OK) {
		free(blob);
		blob = NULL;
	}
	return blob;
}

// ---------------------------------------------------------------------------------------------
// The figures of issue 23

// A genuine blob restores, for every kind, fresh from creation (never stepped: the angle chains'
// pivot path has one knot and no fit yet) and after a run; a rig loaded and played but not stepped.
static int restores_own(const snapshot_kind *k)
{
	size_t n = k->size(k->object);
	unsigned char *blob = malloc(n);
	spring_error e;
	ENSURE(blob && k->snapshot(k->object, blob, n) == SPRING_OK);
	ENSURE_MSG(k->restore(k->object, blob, n, &e) == SPRING_OK, "%s: %s", k->name, e.message);
	free(blob);
	return 0;
}

static int test_fresh_objects_restore(void)
{
	const snapshot_kind fresh[] = {snapshot_kind_motion(0),           snapshot_kind_chain2d(3, 0),
	                               snapshot_kind_group2d(3, 3, 0, 0), snapshot_kind_chain(3, false, 0),
	                               snapshot_kind_chain(3, true, 0),   snapshot_kind_group(3, 3, 0),
	                               snapshot_kind_skeleton_crowd(0),   snapshot_kind_rig(0)};
	for (size_t j = 0; j < sizeof fresh / sizeof fresh[0]; j++) {
		ENSURE_MSG(fresh[j].object != NULL, "%s: not made", fresh[j].name);
		ENSURE(restores_own(&fresh[j]) == 0);
	}
	const snapshot_kind *rig = &fresh[sizeof fresh / sizeof fresh[0] - 1];
	ENSURE(spring_rig_play((spring_rig *)rig->object, 0, 0.0f) == SPRING_OK);
	ENSURE(restores_own(rig) == 0);
	for (size_t j = 0; j < sizeof fresh / sizeof fresh[0]; j++) {
		fresh[j].destroy(fresh[j].object);
	}
	return 0;
}

// The header: the reserved word, the kind, the version.
static int test_header_is_checked(void)
{
	snapshot_kind k = snapshot_kind_motion(20);
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	ENSURE(blob != NULL);
	spring_error e;
	bool accepted;
	ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted);
	const size_t reserved = 12u, kind_at = 8u, version_at = 4u;
	unsigned char *bad = malloc(size);
	ENSURE(bad != NULL);
	const size_t at[3] = {reserved, kind_at, version_at};
	const char *field[3] = {"reserved", "kind", "version"};
	for (int j = 0; j < 3; j++) {
		memcpy(bad, blob, size);
		bad[at[j]] ^= 1u;
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
		ENSURE(e.result == SPRING_ERROR_INVALID_ARGUMENT && strcmp(e.field, field[j]) == 0);
		ENSURE(strstr(e.message, "snapshot") != NULL);
	}
	// Every bit of the header.
	for (size_t bit = 0; bit < SPRING_SNAPSHOT_HEADER_BYTES * 8u; bit++) {
		memcpy(bad, blob, size);
		bad[bit / 8u] ^= (unsigned char)(1u << (bit % 8u));
		ENSURE_MSG(try_blob(&k, bad, size, &accepted, NULL) == NULL && !accepted, "header bit %zu", bit);
	}
	ENSURE(spring_motion_restore((spring_motion *)k.object, blob, size - 1, &e) == SPRING_ERROR_INVALID_ARGUMENT &&
	       strcmp(e.field, "size") == 0);
	ENSURE(spring_motion_restore((spring_motion *)k.object, NULL, size, &e) == SPRING_ERROR_INVALID_ARGUMENT &&
	       strcmp(e.field, "blob") == 0);
	ENSURE(spring_motion_restore(NULL, blob, size, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	free(bad);
	free(blob);
	return 0;
}

// A motion's bool byte 2, a 3-channel body for a 2-channel motion, a NaN value, flags no motion
// sets, a value in a channel it does not have, and the at-rest flag off the target.
static int test_motion_figures(void)
{
	snapshot_kind k = snapshot_kind_motion(20);
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	unsigned char *bad = malloc(size);
	ENSURE(blob && bad);
	const size_t body = SPRING_SNAPSHOT_HEADER_BYTES;
	spring_error e;
	bool accepted;
	const size_t bools[2] = {offsetof(spring_motion, at_rest), offsetof(spring_motion, clamp_overshoot)};
	for (int j = 0; j < 2; j++) {
		for (unsigned v = 0; v <= 2u; v++) {
			memcpy(bad, blob, size);
			bad[body + bools[j]] = (unsigned char)v;
			spring_motion *m = (spring_motion *)(void *)(bad + body);
			if (j == 0 && v == 1u) { // at rest needs the state on the targets
				for (int c = 0; c < 2; c++) {
					m->value[c] = m->target[c];
					m->velocity[c] = 0.0f;
				}
			}
			ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL);
			ENSURE_MSG(accepted == (v <= 1u), "bool %d = %u", j, v);
		}
	}
	spring_motion m;
	memcpy(&m, blob + body, sizeof m);
	spring_motion n = m;
	n.channels = 3;
	memcpy(bad + body, &n, sizeof n);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "channels") == 0);
	ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted); // not bricked
	n = m;
	n.value[1] = NAN;
	memcpy(bad + body, &n, sizeof n);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
	n = m;
	n.rest_delta[0] = 0.0f;
	memcpy(bad + body, &n, sizeof n);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
	n = m;
	n.derived_rest[0] = 3u; // both derived: accepted
	memcpy(bad + body, &n, sizeof n);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && accepted);
	n.derived_rest[0] = 4u;
	memcpy(bad + body, &n, sizeof n);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "derived_rest") == 0);
	n = m;
	n.target[2] = 1.0f; // channel 2 of a 2-channel motion
	memcpy(bad + body, &n, sizeof n);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
	n = m;
	n.at_rest = true; // off its targets
	memcpy(bad + body, &n, sizeof n);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "at_rest") == 0);
	free(bad);
	free(blob);
	return 0;
}

// Writes float `value` at byte `offset` of the body.
static void put_float(unsigned char *blob, size_t offset, float value)
{
	memcpy(blob + SPRING_SNAPSHOT_HEADER_BYTES + offset, &value, sizeof value);
}

// The angle chain: segment count 5 -> 200, a NaN in a segment's state, an angle past pi, a
// velocity past pi / step, a kept sine that is not its angle's, another length.
static int test_chain2d_figures(void)
{
	snapshot_kind k = snapshot_kind_chain2d(5, 20);
	spring_chain2d *c = (spring_chain2d *)k.object;
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	unsigned char *bad = malloc(size);
	ENSURE(blob && bad);
	spring_error e;
	bool accepted;
	const size_t count_at = SPRING_SNAPSHOT_HEADER_BYTES + offsetof(spring_chain2d, segment_count);
	int count;
	memcpy(&count, blob + count_at, sizeof count);
	ENSURE(count == 5);
	memcpy(bad, blob, size);
	count = 200;
	memcpy(bad + count_at, &count, sizeof count);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
	ENSURE(e.result == SPRING_ERROR_INVALID_ARGUMENT && strcmp(e.field, "segment_count") == 0);
	// The arrays: after the 16-byte-rounded struct, float arrays of 16-byte-rounded rows (5 floats:
	// 32 bytes): angle, velocity, prev_angle, target, deflection, offset, anim_from, sin, cos, key,
	// length, rest, inertia, anim_to.
	const size_t angle_at = (sizeof(spring_chain2d) + 15u) & ~(size_t)15u;
	spring_state s;
	ENSURE(spring_chain2d_get_state(c, 2, &s) == SPRING_OK);
	float stored;
	memcpy(&stored, blob + SPRING_SNAPSHOT_HEADER_BYTES + angle_at + 8u, sizeof stored);
	ENSURE(memcmp(&stored, &s.x, sizeof stored) == 0);
	const size_t row = 32u;
	struct {
		size_t offset;
		float value;
		const char *field;
		spring_result result;
	} cases[] = {
		{angle_at + 2u * 4u, NAN, "angle", SPRING_ERROR_OUT_OF_RANGE},
		{angle_at + 2u * 4u, nextafterf((float)SPRING_PI, INFINITY), "angle", SPRING_ERROR_OUT_OF_RANGE},
		{angle_at + 2u * 4u, -(float)SPRING_PI, "angle", SPRING_ERROR_OUT_OF_RANGE}, // folded onto +pi
		{angle_at + 12u * row + 4u, -0.5f, "inertia", SPRING_ERROR_OUT_OF_RANGE},
		{angle_at + row + 4u, NAN, "velocity", SPRING_ERROR_OUT_OF_RANGE},
		{angle_at + row + 4u, nextafterf(c->max_speed, INFINITY), "velocity", SPRING_ERROR_OUT_OF_RANGE}, // past pi / step
		{angle_at + 2u * row, INFINITY, "angle", SPRING_ERROR_OUT_OF_RANGE},                              // prev_angle
		{angle_at + 5u * row, NAN, "anim_offset", SPRING_ERROR_NOT_FINITE},
		{angle_at + 5u * row, 1e30f, "anim_offset", SPRING_ERROR_OUT_OF_RANGE}, // past SPRING_CHAIN2D_MAX_ANGLE
		{angle_at + 5u * row, -nextafterf(SPRING_CHAIN2D_MAX_ANGLE, INFINITY), "anim_offset", SPRING_ERROR_OUT_OF_RANGE},
		{angle_at + 4u * row + 4u, NAN, "deflection", SPRING_ERROR_OUT_OF_RANGE},
		{angle_at + 4u * row + 4u, 2e6f, "deflection", SPRING_ERROR_OUT_OF_RANGE}, // past the 1e6 rad a step keeps
		{angle_at + 7u * row + 8u, 0.5f, "sin", SPRING_ERROR_INVALID_ARGUMENT},
		{angle_at + 10u * row + 4u, 15.5f, "length", SPRING_ERROR_INVALID_ARGUMENT},
		{angle_at + 12u * row + 4u, 100.5f, "inertia", SPRING_ERROR_OUT_OF_RANGE},
	};
	for (size_t j = 0; j < sizeof cases / sizeof cases[0]; j++) {
		memcpy(bad, blob, size);
		put_float(bad, cases[j].offset, cases[j].value);
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL);
		ENSURE_MSG(!accepted && e.result == cases[j].result && strcmp(e.field, cases[j].field) == 0, "case %zu: %s", j,
		           e.message);
		ENSURE(e.depth == 1 && e.path[0].element == SPRING_ELEMENT_SEGMENT);
	}
	// The bounds themselves are accepted: an angle of pi, a velocity of pi / step, inertia 100, a
	// deflection of 1e6 rad, an animated offset of +-SPRING_CHAIN2D_MAX_ANGLE.
	const struct {
		size_t offset;
		float value;
	} edges[] = {{angle_at + row + 4u, c->max_speed},
	             {angle_at + row + 4u, -c->max_speed},
	             {angle_at + 2u * 4u, (float)SPRING_PI},
	             {angle_at + 12u * row + 4u, 100.0f},
	             {angle_at + 12u * row + 4u, 0.0f},
	             {angle_at + 4u * row + 4u, 1e6f},
	             {angle_at + 4u * row + 4u, -1e6f},
	             {angle_at + 5u * row, SPRING_CHAIN2D_MAX_ANGLE},
	             {angle_at + 5u * row, -SPRING_CHAIN2D_MAX_ANGLE}};
	for (size_t j = 0; j < sizeof edges / sizeof edges[0]; j++) {
		memcpy(bad, blob, size);
		put_float(bad, edges[j].offset, edges[j].value);
		ENSURE_MSG(try_blob(&k, bad, size, &accepted, &e) == NULL && accepted, "edge %zu: %s", j, e.message);
		ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted);
	}
	free(bad);
	free(blob);
	k.destroy(k.object);
	return 0;
}

// The angle group: a genuine blob of a group with the same counts and another max_steps (its
// scratch after the kept bytes is sized by it), the angle chain's kind, another segment count in
// the body, a NaN in a chain's state, a resting mask that is not one.
static int test_chain2d_group_figures(void)
{
	snapshot_kind k = snapshot_kind_group2d(3, 4, 0, 20);
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	ENSURE(blob != NULL);
	spring_error e;
	bool accepted;
	spring_chain2d_group *more = snapshot_new_group2d(3, 4, 16);
	size_t more_size = spring_chain2d_group_snapshot_size(more);
	ENSURE(more_size == size); // the same kept bytes: the header's shape must tell them apart
	unsigned char *other = malloc(size);
	ENSURE(other && spring_chain2d_group_snapshot(more, other, size) == SPRING_OK);
	ENSURE(try_blob(&k, other, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "shape") == 0);
	spring_chain2d_group_destroy(more);
	// Another max_steps in the body's clock, behind the genuine header.
	memcpy(other, blob, size);
	const size_t max_steps_at = SPRING_SNAPSHOT_HEADER_BYTES + offsetof(spring_clock, max_steps);
	int steps = 16;
	memcpy(other + max_steps_at, &steps, sizeof steps);
	ENSURE(try_blob(&k, other, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "clock") == 0);
	// A single angle chain's blob of the same size is of another kind.
	memcpy(other, blob, size);
	const uint32_t chain2d_kind = 2u;
	memcpy(other + 8u, &chain2d_kind, sizeof chain2d_kind);
	ENSURE(try_blob(&k, other, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "kind") == 0);
	// The segment count in the body.
	memcpy(other, blob, size);
	typedef struct group_head { // the start of the group's struct (chain2d_group.c)
		spring_clock clock;
		spring_chain2d_timeline time;
		int chain_count, segment_count;
	} group_head;
	const size_t counts_at = SPRING_SNAPSHOT_HEADER_BYTES + offsetof(group_head, segment_count);
	int n = 200;
	memcpy(other + counts_at, &n, sizeof n);
	ENSURE(try_blob(&k, other, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "chain_count") == 0);
	// Every float of the body made NaN in turn: refused, or (padding, unused slots) harmless.
	long refused = 0;
	for (size_t off = SPRING_SNAPSHOT_HEADER_BYTES; off + 4u <= size; off += 4u) {
		memcpy(other, blob, size);
		const float nan = NAN;
		memcpy(other + off, &nan, sizeof nan);
		const char *broken = try_blob(&k, other, size, &accepted, &e);
		ENSURE_MSG(broken == NULL, "NaN at body byte %zu: %s", off - SPRING_SNAPSHOT_HEADER_BYTES, broken);
		refused += !accepted;
		if (accepted) {
			ENSURE(k.restore(k.object, blob, size, NULL) == SPRING_OK);
		}
	}
	ENSURE(refused > 0);
	ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted);
	free(other);
	free(blob);
	k.destroy(k.object);
	return 0;
}

// The tip chain: the bone count 8 -> 200 and one bit of an internal array offset in the body, a
// collider count past max_colliders, a NaN tip, a params/transition mismatch.
static int test_chain_figures(void)
{
	snapshot_kind k = snapshot_kind_chain(8, false, 20);
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	unsigned char *bad = malloc(size);
	ENSURE(blob && bad);
	spring_error e;
	bool accepted;
	// The header's ints: resting, still, sleep_off, walk, anim_explicit, pose_2d, two caps, accel
	// (3 floats), steps_run (8 bytes, aligned), bone_count, collider_count, max_colliders...
	size_t count_at = 0;
	for (size_t off = 0; off + 12u <= 128u; off += 4u) {
		int v[3];
		memcpy(v, blob + SPRING_SNAPSHOT_HEADER_BYTES + off, sizeof v);
		if (v[0] == 8 && v[1] == 2 && v[2] == 3) {
			count_at = SPRING_SNAPSHOT_HEADER_BYTES + off;
			break;
		}
	}
	ENSURE(count_at > 0);
	const struct {
		size_t at;
		int value;
		const char *field;
	} ints[] = {{count_at, 200, "bone_count"}, {count_at + 4u, 4, "collider_count"}, {count_at + 4u, -1, "collider_count"}};
	for (size_t j = 0; j < sizeof ints / sizeof ints[0]; j++) {
		memcpy(bad, blob, size);
		memcpy(bad + ints[j].at, &ints[j].value, sizeof(int));
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL);
		ENSURE_MSG(!accepted && strcmp(e.field, ints[j].field) == 0, "case %zu: %s", j, e.message);
	}
	// The count of bones with their own gravity (none here), and the group's count of chains
	// with some, which a single chain keeps at 0: each made 1.
	const struct {
		size_t at;
		const char *field;
	} counts[] = {{offsetof(spring_chain, bone_gravity), "bone_gravity"},
	              {offsetof(spring_chain, gravity_lanes), "gravity_lanes"}};
	for (size_t j = 0; j < sizeof counts / sizeof counts[0]; j++) {
		memcpy(bad, blob, size);
		int one = 1, kept;
		memcpy(&kept, blob + SPRING_SNAPSHOT_HEADER_BYTES + counts[j].at, sizeof kept);
		ENSURE(kept == 0);
		memcpy(bad + SPRING_SNAPSHOT_HEADER_BYTES + counts[j].at, &one, sizeof one);
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL);
		ENSURE_MSG(!accepted && strcmp(e.field, counts[j].field) == 0, "%s: %s", counts[j].field, e.message);
	}
	// Both sides of the collider count: max_colliders (3) itself is accepted.
	memcpy(bad, blob, size);
	int three = 3;
	memcpy(bad + count_at + 4u, &three, sizeof three);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && accepted);
	ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted);
	// A tip's bounds: finite, within 1e12 units (both sides), the velocity within 1e15 units/s.
	spring_state_vec3 st;
	ENSURE(k.restore(k.object, blob, size, NULL) == SPRING_OK); // the state the blob holds
	ENSURE(spring_chain_get_state((const spring_chain *)k.object, 5, &st) == SPRING_OK);
	size_t tip_at = 0;
	ENSURE(snapshot_find_floats(blob, size, st.x.x, &tip_at, 1) > 0);
	const float tips[4] = {1e12f, -1e12f, nextafterf(1e12f, INFINITY), NAN};
	for (int j = 0; j < 4; j++) {
		memcpy(bad, blob, size);
		memcpy(bad + tip_at, &tips[j], sizeof tips[j]);
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL);
		ENSURE_MSG(accepted == (j < 2) && (accepted || strcmp(e.field, "tip") == 0), "tip %g: %s", (double)tips[j],
		           accepted ? "accepted" : e.message);
		ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted);
	}
	// Every bit of the layout (the arrays' offsets, at the end of the struct before nothing else).
	const size_t layout_bytes = 25u * sizeof(size_t); // every field of chain_layout
	const size_t struct_end = SPRING_SNAPSHOT_HEADER_BYTES + ((size_t)(count_at - SPRING_SNAPSHOT_HEADER_BYTES) + 600u);
	(void)struct_end;
	size_t total = size - SPRING_SNAPSHOT_HEADER_BYTES, layout_at = 0;
	for (size_t off = SPRING_SNAPSHOT_HEADER_BYTES; off + sizeof total <= size && off < 1024u; off += sizeof(size_t)) {
		size_t v;
		memcpy(&v, blob + off, sizeof v);
		if (v == total) { // the layout's last field
			layout_at = off + sizeof(size_t) - layout_bytes;
			break;
		}
	}
	ENSURE(layout_at > 0);
	for (size_t bit = 0; bit < layout_bytes * 8u; bit++) {
		memcpy(bad, blob, size);
		bad[layout_at + bit / 8u] ^= (unsigned char)(1u << (bit % 8u));
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL);
		ENSURE_MSG(!accepted && strcmp(e.field, "bone_count") == 0, "layout bit %zu: %s", bit, e.message);
	}
	free(bad);
	free(blob);
	k.destroy(k.object);
	return 0;
}

// The tip-chain group (new snapshots): restored into another group of the same description, the
// rest of the run is the same bits (chain 0 animated); a group of another chain count, a chain
// count in the body, a NaN tip and a NaN in an animation are refused.
static int test_chain_group_snapshots(void)
{
	snapshot_kind k = snapshot_kind_group(5, 4, 20);
	spring_chain_group *a = (spring_chain_group *)k.object, *b = snapshot_new_group(5, 4), *other = snapshot_new_group(4, 4);
	ENSURE(a && b && other);
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	unsigned char *bad = malloc(size);
	ENSURE(blob && bad);
	spring_error e;
	bool accepted;
	ENSURE_MSG(spring_chain_group_restore(b, blob, size, &e) == SPRING_OK, "%s", e.message);
	uint64_t ha = SPRING_HASH_INIT, hb = SPRING_HASH_INIT;
	for (int f = 0; f < 300; f++) {
		spring_xform3 roots[5];
		for (int j = 0; j < 5; j++) {
			roots[j] = scene_tail_root(0.02 * f + 0.7 * j);
		}
		const float dt = f % 50 == 7 ? 0.2f : snapshot_frame_dt(f);
		ENSURE(spring_chain_group_update(a, roots, dt) == SPRING_OK && spring_chain_group_update(b, roots, dt) == SPRING_OK);
		spring_xform3 pa[20], pb[20];
		ENSURE(spring_chain_group_get_poses(a, pa, NULL, 20) == SPRING_OK &&
		       spring_chain_group_get_poses(b, pb, NULL, 20) == SPRING_OK);
		ha = spring_hash(ha, pa, sizeof pa);
		hb = spring_hash(hb, pb, sizeof pb);
	}
	ENSURE(ha == hb);
	ENSURE(spring_chain_group_restore(a, blob, size, NULL) == SPRING_OK);
	size_t other_size = spring_chain_group_snapshot_size(other);
	ENSURE(spring_chain_group_restore(other, blob, size, &e) == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(other_size != size && strcmp(e.field, "size") == 0);
	memcpy(bad, blob, size);
	int count = 4;
	memcpy(bad + SPRING_SNAPSHOT_HEADER_BYTES, &count, sizeof count); // the group's chain_count comes first
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "chain_count") == 0);
	// The kind: a single chain's blob is refused by a group.
	memcpy(bad, blob, size);
	const uint32_t chain_kind = 3u;
	memcpy(bad + 8u, &chain_kind, sizeof chain_kind);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "kind") == 0);
	// A NaN in chain 3's tip: its state (the tips sit in the first member's planes, found by value).
	spring_state_vec3 st;
	ENSURE(spring_chain_group_get_state(a, 3, 2, &st) == SPRING_OK);
	size_t tip_at = 0;
	ENSURE(snapshot_find_floats(blob, size, st.x.x, &tip_at, 1) > 0);
	memcpy(bad, blob, size);
	const float nan = NAN;
	memcpy(bad + tip_at, &nan, sizeof nan);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
	ENSURE_MSG(e.depth == 2 && e.path[0].element == SPRING_ELEMENT_CHAIN && e.path[0].index == 3 && strcmp(e.field, "tip") == 0,
	           "%s", e.message);
	// A NaN in chain 0's animated locals (its bone 0's position y, found by value): refused.
	const float posed_y = SNAPSHOT_GROUP_POSE_Y;
	size_t anim_at = 0;
	ENSURE(snapshot_find_floats(blob, size, posed_y, &anim_at, 1) > 0);
	memcpy(bad, blob, size);
	memcpy(bad + anim_at, &nan, sizeof nan);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
	ENSURE_MSG(e.depth == 2 && e.path[0].index == 0 && strcmp(e.field, "anim_local") == 0, "%s", e.message);
	// The count of animated chains lane 0 keeps, one off either way, or kept by another lane.
	const size_t lane0 = SPRING_SNAPSHOT_HEADER_BYTES + spring_chain_group_internal_member_offset(a, 0);
	const size_t lane1 = SPRING_SNAPSHOT_HEADER_BYTES + spring_chain_group_internal_member_offset(a, 1);
	int kept;
	memcpy(&kept, blob + lane0 + offsetof(spring_chain, animated_lanes), sizeof kept);
	ENSURE(kept == 1);
	for (int change = 0; change < 3; change++) {
		memcpy(bad, blob, size);
		const int wrong = change == 0 ? 0 : 2, stray = 1;
		if (change < 2) {
			memcpy(bad + lane0 + offsetof(spring_chain, animated_lanes), &wrong, sizeof wrong);
		} else {
			memcpy(bad + lane1 + offsetof(spring_chain, animated_lanes), &stray, sizeof stray);
		}
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
		ENSURE_MSG(strcmp(e.field, "animated_lanes") == 0, "%s", e.message);
	}
	// Lane 0's count of chains with bones of their own gravity (none): 1, or kept by another
	// lane; and a lane's own count of such bones.
	const size_t lane2 = SPRING_SNAPSHOT_HEADER_BYTES + spring_chain_group_internal_member_offset(a, 2);
	for (int change = 0; change < 3; change++) {
		memcpy(bad, blob, size);
		const int one = 1;
		const size_t at = change == 0   ? lane0 + offsetof(spring_chain, gravity_lanes)
		                  : change == 1 ? lane1 + offsetof(spring_chain, gravity_lanes)
		                                : lane2 + offsetof(spring_chain, bone_gravity);
		memcpy(bad + at, &one, sizeof one);
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
		ENSURE_MSG(strcmp(e.field, change < 2 ? "gravity_lanes" : "bone_gravity") == 0 && (change < 2 || e.path[0].index == 2),
		           "%s", e.message);
	}
	printf("  snapshot of 5 tip chains of 4 bones: %zu bytes\n", size);
	free(bad);
	free(blob);
	spring_chain_group_destroy(b);
	spring_chain_group_destroy(other);
	k.destroy(k.object);
	return 0;
}

// The rig: a bone's parent index 100000 in the body, a NaN in a chain inside it, an event name
// without its terminator, another clip index; and its events name the rig's own bytes after a
// restore into another rig (the blob holds no pointers).
static int test_rig_figures(void)
{
	snapshot_kind k = snapshot_kind_rig(20);
	ENSURE(k.object != NULL);
	spring_rig *rig = (spring_rig *)k.object;
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	unsigned char *bad = malloc(size);
	ENSURE(blob && bad);
	spring_error e;
	bool accepted;
	const rig_offsets *at = &((const struct spring_rig *)rig)->at;
	const size_t body = SPRING_SNAPSHOT_HEADER_BYTES;
	memcpy(bad, blob, size);
	int parent = 100000;
	memcpy(bad + body + at->parent + 2u * sizeof(int), &parent, sizeof parent);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "bones") == 0);
	// The tail's first segment's angle, inside the rig's angle chain.
	const rig_chain *tail = &((const rig_chain *)(const void *)((const unsigned char *)rig + at->chains))[0];
	const size_t angle_at = body + tail->memory + ((sizeof(spring_chain2d) + 15u) & ~(size_t)15u);
	memcpy(bad, blob, size);
	const float nan = NAN;
	memcpy(bad + angle_at, &nan, sizeof nan);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted);
	ENSURE_MSG(e.depth == 2 && e.path[0].element == SPRING_ELEMENT_CHAIN && e.path[0].index == 0 &&
	               e.path[1].element == SPRING_ELEMENT_SEGMENT && strcmp(e.field, "angle") == 0,
	           "%s", e.message);
	// The placement's path: a coefficient that is not the fit of the knots, a NaN knot, a turn's
	// partner that is not 0, a turn of more than half a turn, an infinite knot angle, five knots;
	// each refused by name.
	const size_t path_at = body + offsetof(struct spring_rig, root_path);
	const struct {
		size_t offset;
		float value;
	} path_bad[] = {{offsetof(spring_chain2d_path, coef), 1.0f},
	                {offsetof(spring_chain2d_path, d), NAN},
	                {offsetof(spring_chain2d_path, turn_d) + sizeof(float), 1.0f},
	                {offsetof(spring_chain2d_path, turn_d), 3.2f},
	                {offsetof(spring_chain2d_path, knot) + offsetof(spring_xform2, angle), INFINITY}};
	for (size_t j = 0; j < sizeof path_bad / sizeof path_bad[0]; j++) {
		memcpy(bad, blob, size);
		memcpy(bad + path_at + path_bad[j].offset, &path_bad[j].value, sizeof(float));
		const char *broken = try_blob(&k, bad, size, &accepted, &e);
		ENSURE_MSG(broken == NULL && !accepted && strcmp(e.field, "root_path") == 0, "case %zu: %s", j,
		           broken     ? broken
		           : accepted ? "accepted"
		                      : e.message);
	}
	memcpy(bad, blob, size);
	const int five = 5;
	memcpy(bad + path_at + offsetof(spring_chain2d_path, time) + offsetof(spring_chain2d_timeline, count), &five, sizeof five);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "root_path") == 0);
	ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted);
	// Another clip: -1 and 0 are clips, 1 is not.
	const int clips[3] = {-1, 0, 1};
	for (int j = 0; j < 3; j++) {
		memcpy(bad, blob, size);
		memcpy(bad + body + offsetof(struct spring_rig, clip), &clips[j], sizeof(int));
		ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && accepted == (j < 2));
		ENSURE(try_blob(&k, blob, size, &accepted, &e) == NULL && accepted);
	}
	// An event fired by the last update, its name without a terminator.
	int fired = 1;
	memcpy(bad, blob, size);
	memcpy(bad + body + offsetof(struct spring_rig, fired_count), &fired, sizeof fired);
	memcpy(bad + body + offsetof(struct spring_rig, fired_total), &fired, sizeof fired);
	memset(bad + body + offsetof(struct spring_rig, fired_names), 'x', 64u);
	ENSURE(try_blob(&k, bad, size, &accepted, &e) == NULL && !accepted && strcmp(e.field, "fired") == 0);
	bad[body + offsetof(struct spring_rig, fired_names) + 63u] = '\0';
	ENSURE(spring_rig_restore(rig, bad, size, &e) == SPRING_OK);
	spring_rig_event event;
	ENSURE(spring_rig_get_events(rig, &event, 1, NULL) == 1 && strlen(event.name) == 63u);
	ENSURE((const char *)event.name >= (const char *)rig && (const char *)event.name < (const char *)rig + size);
	// What spring_rig_apply_events reads of the last update: whether it applied its events (0 or
	// 1), the clip they are of (one of the rig's, -1 only without events), each recorded event's
	// index in it (zero past them), the teleports crossed past the record (at most the events past
	// it). One recorded event of clip 0 (which has one) in each case.
	const struct {
		size_t offset;
		int value, total;
		bool taken;
	} fired_cases[] = {
		{offsetof(struct spring_rig, events_applied), 1, 1, true},
		{offsetof(struct spring_rig, events_applied), 2, 1, false},
		{offsetof(struct spring_rig, fired_clip), 0, 1, true},
		{offsetof(struct spring_rig, fired_clip), 1, 1, false},
		{offsetof(struct spring_rig, fired_clip), -1, 1, false},
		{offsetof(struct spring_rig, fired_index), 1, 1, false},
		{offsetof(struct spring_rig, fired_index) + sizeof(int), 1, 1, false},
		{offsetof(struct spring_rig, fired_lost_teleports), 1, 2, true},
		{offsetof(struct spring_rig, fired_lost_teleports), 1, 1, false},
		{offsetof(struct spring_rig, fired_lost_teleports), -1, 2, false},
	};
	for (size_t j = 0; j < sizeof fired_cases / sizeof fired_cases[0]; j++) {
		const int zero = 0;
		memcpy(bad, blob, size);
		memcpy(bad + body + offsetof(struct spring_rig, fired_count), &fired, sizeof fired);
		memcpy(bad + body + offsetof(struct spring_rig, fired_total), &fired_cases[j].total, sizeof(int));
		memcpy(bad + body + offsetof(struct spring_rig, fired_clip), &zero, sizeof zero);
		memcpy(bad + body + fired_cases[j].offset, &fired_cases[j].value, sizeof(int));
		const char *broken = try_blob(&k, bad, size, &accepted, &e);
		ENSURE_MSG(broken == NULL && accepted == fired_cases[j].taken &&
		               (accepted || strcmp(e.field, "fired_count") == 0 || strcmp(e.field, "fired") == 0),
		           "case %zu: %s", j,
		           broken     ? broken
		           : accepted ? "accepted"
		                      : e.message);
	}
	free(bad);
	free(blob);
	k.destroy(k.object);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Every single-bit flip of each kind's blob body

static int sweep(snapshot_kind k, long *flips, long *accepted_count)
{
	size_t size;
	unsigned char *blob = genuine(&k, &size);
	unsigned char *bad = malloc(size);
	ENSURE(blob && bad);
	long accepted_here = 0, flips_here = 0;
	spring_error genuine_error;
	ENSURE_MSG(k.restore(k.object, blob, size, &genuine_error) == SPRING_OK, "%s: the genuine blob refused: %s", k.name,
	           genuine_error.message);
	for (size_t bit = SPRING_SNAPSHOT_HEADER_BYTES * 8u; bit < size * 8u; bit++) {
		memcpy(bad, blob, size);
		bad[bit / 8u] ^= (unsigned char)(1u << (bit % 8u));
		bool accepted = false;
		spring_error e;
		const char *broken = try_blob(&k, bad, size, &accepted, &e);
		ENSURE_MSG(broken == NULL, "%s: body byte %zu bit %zu: %s", k.name, bit / 8u - SPRING_SNAPSHOT_HEADER_BYTES, bit % 8u,
		           broken);
		flips_here++;
		if (accepted) {
			accepted_here++;
			ENSURE(k.restore(k.object, blob, size, NULL) == SPRING_OK); // back to the genuine state
		}
	}
	printf("  %-14s %6zu-byte blob: %6ld flips, %6ld accepted (then stepped finite), %6ld refused unchanged\n", k.name, size,
	       flips_here, accepted_here, flips_here - accepted_here);
	*flips += flips_here;
	*accepted_count += accepted_here;
	free(bad);
	free(blob);
	k.destroy(k.object);
	return 0;
}

// One test per kind (each within the per-test time limit); the totals are printed by the last.
static long g_flips, g_accepted;

static int test_bit_flips_motion(void)
{
	return sweep(snapshot_kind_motion(20), &g_flips, &g_accepted);
}

static int test_bit_flips_chain2d(void)
{
	return sweep(snapshot_kind_chain2d(5, 20), &g_flips, &g_accepted);
}

static int test_bit_flips_chain2d_group(void)
{
	return sweep(snapshot_kind_group2d(2, 3, 0, 20), &g_flips, &g_accepted);
}

static int test_bit_flips_chain(void)
{
	return sweep(snapshot_kind_chain(5, false, 20), &g_flips, &g_accepted);
}

static int test_bit_flips_chain_2d_mode(void)
{
	return sweep(snapshot_kind_chain(3, true, 20), &g_flips, &g_accepted);
}

static int test_bit_flips_chain_group(void)
{
	return sweep(snapshot_kind_group(2, 2, 20), &g_flips, &g_accepted);
}

static int test_bit_flips_skeleton_crowd(void)
{
	return sweep(snapshot_kind_skeleton_crowd(20), &g_flips, &g_accepted);
}

static int test_bit_flips_rig(void)
{
	ENSURE(sweep(snapshot_kind_rig(20), &g_flips, &g_accepted) == 0);
	printf("  all kinds: %ld flips, %ld accepted, %ld refused, no broken promise\n", g_flips, g_accepted, g_flips - g_accepted);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_fresh_objects_restore);
	RUN_TEST(test_header_is_checked);
	RUN_TEST(test_motion_figures);
	RUN_TEST(test_chain2d_figures);
	RUN_TEST(test_chain2d_group_figures);
	RUN_TEST(test_chain_figures);
	RUN_TEST(test_chain_group_snapshots);
	RUN_TEST(test_rig_figures);
	RUN_TEST(test_bit_flips_motion);
	RUN_TEST(test_bit_flips_chain2d);
	RUN_TEST(test_bit_flips_chain2d_group);
	RUN_TEST(test_bit_flips_chain);
	RUN_TEST(test_bit_flips_chain_2d_mode);
	RUN_TEST(test_bit_flips_skeleton_crowd);
	RUN_TEST(test_bit_flips_chain_group);
	RUN_TEST(test_bit_flips_rig);
	return TEST_SUMMARY();
}
