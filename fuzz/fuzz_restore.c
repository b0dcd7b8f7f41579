// SPDX-License-Identifier: MIT
// fuzz_restore: snapshot restore from untrusted blobs (base.h, "Snapshots"), for every kind of
// object: a motion, an angle chain, an angle group, a tip chain (3D and 2D mode), a tip-chain
// group and a rig with both chain kinds. Each kind's object is made once, run into a mid-run
// state and its genuine blob kept. An input picks a kind and either mutates the genuine blob (bit
// flips, bytes, words, floats: edge values, NaN, huge numbers, at fuzzed offsets) or gives the
// whole body itself behind the genuine header; then restores it. The promise: refused with a
// defined error and a filled spring_error, and the object unchanged (a fresh snapshot byte for
// byte the one before); or accepted, and then every later update, pose and state read returns OK
// with finite values, and the genuine blob still restores (nothing got stuck).
#include "fuzz.h"

#include "scenes.h"

#include <spring/chain.h>
#include <spring/motion.h>
#include <spring/rig.h>

typedef struct kind {
	const char *name;
	void *object;
	size_t (*size)(const void *object);
	spring_result (*snapshot)(const void *object, void *blob, size_t size);
	spring_result (*restore)(void *object, const void *blob, size_t size, spring_error *error);
	void (*drive)(void *object, int frames, const char *what); // FZ_CHECKs every output
	unsigned char *blob;                                       // the genuine blob
	size_t blob_size;
} kind;

static void check_finite(const float *f, size_t n, const char *what, const char *call)
{
	for (size_t i = 0; i < n; i++) {
		FZ_CHECK(spring_is_finite(f[i]), "%s: %s gave a non-finite value (float %zu: %g) after an accepted restore", what, call,
		         i, (double)f[i]);
	}
}

static float frame_dt(int frame)
{
	return frame % 5 == 3 ? 0.25f : 1.0f / 60.0f;
}

// --- the kinds' calls

static size_t motion_size(const void *o)
{
	return spring_motion_snapshot_size((const spring_motion *)o);
}
static spring_result motion_snapshot(const void *o, void *b, size_t s)
{
	return spring_motion_snapshot((const spring_motion *)o, b, s);
}
static spring_result motion_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_motion_restore((spring_motion *)o, b, s, e);
}
static void motion_drive(void *o, int frames, const char *what)
{
	spring_motion *m = (spring_motion *)o;
	for (int f = 0; f < frames; f++) {
		spring_result r = spring_motion_advance(m, frame_dt(f));
		FZ_CHECK(r == SPRING_OK || r == SPRING_ERROR_OUT_OF_RANGE, "%s: advance returned %s", what, spring_result_string(r));
		float v[SPRING_MOTION_MAX_CHANNELS], w[SPRING_MOTION_MAX_CHANNELS];
		FZ_CHECK(spring_motion_get(m, v, w, m->channels) == SPRING_OK, "%s: get refused", what);
		check_finite(v, (size_t)m->channels, what, "spring_motion_get");
		check_finite(w, (size_t)m->channels, what, "spring_motion_get");
		float settle = spring_motion_time_to_settle(m);
		FZ_CHECK(settle == settle && settle >= 0.0f, "%s: time_to_settle %g", what, (double)settle);
	}
}

static size_t chain2d_size(const void *o)
{
	return spring_chain2d_snapshot_size((const spring_chain2d *)o);
}
static spring_result chain2d_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain2d_snapshot((const spring_chain2d *)o, b, s);
}
static spring_result chain2d_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain2d_restore((spring_chain2d *)o, b, s, e);
}
static void chain2d_drive(void *o, int frames, const char *what)
{
	spring_chain2d *c = (spring_chain2d *)o;
	const int n = spring_chain2d_segment_count(c);
	for (int f = 0; f < frames; f++) {
		spring_xform2 root = scene_xform2(10.0f * (float)f, (float)(f % 3), 0.3f * (float)f);
		spring_result r = spring_chain2d_update(c, root, frame_dt(f));
		FZ_CHECK(r == SPRING_OK, "%s: update returned %s", what, spring_result_string(r));
		spring_xform2 joints[SPRING_CHAIN_MAX_BONES + 1];
		float local[SPRING_CHAIN_MAX_BONES];
		FZ_CHECK(spring_chain2d_get_pose(c, joints, local, n + 1) == SPRING_OK, "%s: get_pose refused", what);
		check_finite(&joints[0].position.x, (size_t)(n + 1) * sizeof joints[0] / sizeof(float), what, "get_pose");
		check_finite(local, (size_t)n, what, "get_pose");
		for (int i = 0; i < n; i++) {
			spring_state s;
			FZ_CHECK(spring_chain2d_get_state(c, i, &s) == SPRING_OK, "%s: get_state refused", what);
			check_finite(&s.x, 2u, what, "get_state");
			float t = spring_chain2d_get_target(c, i);
			check_finite(&t, 1u, what, "get_target");
		}
	}
}

static size_t group2d_size(const void *o)
{
	return spring_chain2d_group_snapshot_size((const spring_chain2d_group *)o);
}
static spring_result group2d_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain2d_group_snapshot((const spring_chain2d_group *)o, b, s);
}
static spring_result group2d_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain2d_group_restore((spring_chain2d_group *)o, b, s, e);
}
static void group2d_drive(void *o, int frames, const char *what)
{
	spring_chain2d_group *g = (spring_chain2d_group *)o;
	const int count = spring_chain2d_group_chain_count(g), n = spring_chain2d_group_segment_count(g);
	for (int f = 0; f < frames; f++) {
		spring_xform2 roots[3];
		for (int j = 0; j < count; j++) {
			roots[j] = scene_xform2(10.0f * (float)f - 5.0f * (float)j, (float)(f % 3), 0.2f * (float)(f + j));
		}
		spring_result r = spring_chain2d_group_update(g, roots, frame_dt(f));
		FZ_CHECK(r == SPRING_OK, "%s: update returned %s", what, spring_result_string(r));
		spring_xform2 joints[3 * 5];
		FZ_CHECK(spring_chain2d_group_get_poses(g, joints, count * (n + 1)) == SPRING_OK, "%s: get_poses refused", what);
		check_finite(&joints[0].position.x, (size_t)(count * (n + 1)) * sizeof joints[0] / sizeof(float), what, "get_poses");
		for (int j = 0; j < count; j++) {
			for (int i = 0; i < n; i++) {
				spring_state s;
				FZ_CHECK(spring_chain2d_group_get_state(g, j, i, &s) == SPRING_OK, "%s: get_state refused", what);
				check_finite(&s.x, 2u, what, "get_state");
			}
		}
	}
}

static size_t chain_size(const void *o)
{
	return spring_chain_snapshot_size((const spring_chain *)o);
}
static spring_result chain_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain_snapshot((const spring_chain *)o, b, s);
}
static spring_result chain_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain_restore((spring_chain *)o, b, s, e);
}
static void chain_drive(void *o, int frames, const char *what)
{
	spring_chain *c = (spring_chain *)o;
	const int n = spring_chain_bone_count(c);
	for (int f = 0; f < frames; f++) {
		spring_result r = spring_chain_update(c, scene_tail_root(0.1 * f), frame_dt(f));
		FZ_CHECK(r == SPRING_OK, "%s: update returned %s", what, spring_result_string(r));
		spring_xform3 bones[SPRING_CHAIN_MAX_BONES];
		spring_vec3 tips[SPRING_CHAIN_MAX_BONES];
		FZ_CHECK(spring_chain_get_pose(c, bones, tips, n) == SPRING_OK, "%s: get_pose refused", what);
		check_finite(&bones[0].position.x, (size_t)n * sizeof bones[0] / sizeof(float), what, "get_pose");
		check_finite(&tips[0].x, (size_t)n * 3u, what, "get_pose");
		FZ_CHECK(spring_chain_get_stepped_pose(c, bones, tips, n) == SPRING_OK, "%s: get_stepped_pose refused", what);
		check_finite(&bones[0].position.x, (size_t)n * sizeof bones[0] / sizeof(float), what, "get_stepped_pose");
		for (int i = 0; i < n; i++) {
			spring_state_vec3 s;
			FZ_CHECK(spring_chain_get_state(c, i, &s) == SPRING_OK, "%s: get_state refused", what);
			check_finite(&s.x.x, 6u, what, "get_state");
			spring_vec3 t = spring_chain_get_target(c, i);
			check_finite(&t.x, 3u, what, "get_target");
		}
	}
}

static size_t group_size(const void *o)
{
	return spring_chain_group_snapshot_size((const spring_chain_group *)o);
}
static spring_result group_snapshot(const void *o, void *b, size_t s)
{
	return spring_chain_group_snapshot((const spring_chain_group *)o, b, s);
}
static spring_result group_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_chain_group_restore((spring_chain_group *)o, b, s, e);
}
static void group_drive(void *o, int frames, const char *what)
{
	spring_chain_group *g = (spring_chain_group *)o;
	const int count = spring_chain_group_chain_count(g), n = spring_chain_group_bone_count(g);
	for (int f = 0; f < frames; f++) {
		spring_xform3 roots[3];
		for (int j = 0; j < count; j++) {
			roots[j] = scene_tail_root(0.1 * f + 0.5 * j);
		}
		spring_result r = spring_chain_group_update(g, roots, frame_dt(f));
		FZ_CHECK(r == SPRING_OK, "%s: update returned %s", what, spring_result_string(r));
		spring_xform3 bones[3 * 3];
		spring_vec3 tips[3 * 3];
		FZ_CHECK(spring_chain_group_get_poses(g, bones, tips, count * n) == SPRING_OK, "%s: get_poses refused", what);
		check_finite(&bones[0].position.x, (size_t)(count * n) * sizeof bones[0] / sizeof(float), what, "get_poses");
		check_finite(&tips[0].x, (size_t)(count * n) * 3u, what, "get_poses");
		for (int j = 0; j < count; j++) {
			for (int i = 0; i < n; i++) {
				spring_state_vec3 s;
				FZ_CHECK(spring_chain_group_get_state(g, j, i, &s) == SPRING_OK, "%s: get_state refused", what);
				check_finite(&s.x.x, 6u, what, "get_state");
			}
		}
	}
}

static size_t rig_size(const void *o)
{
	return spring_rig_snapshot_size((const spring_rig *)o);
}
static spring_result rig_snapshot(const void *o, void *b, size_t s)
{
	return spring_rig_snapshot((const spring_rig *)o, b, s);
}
static spring_result rig_restore(void *o, const void *b, size_t s, spring_error *e)
{
	return spring_rig_restore((spring_rig *)o, b, s, e);
}
static void rig_read(const spring_rig *rig, const char *what)
{
	enum { MAX = 16 };
	spring_xform2 w[MAX];
	const int n = spring_rig_bone_count(rig);
	const size_t floats = (size_t)n * sizeof w[0] / sizeof(float);
	FZ_CHECK(n <= MAX && spring_rig_get_world(rig, w, MAX) == SPRING_OK, "%s: get_world refused", what);
	check_finite(&w[0].position.x, floats, what, "get_world");
	FZ_CHECK(spring_rig_get_local(rig, w, MAX) == SPRING_OK, "%s: get_local refused", what);
	check_finite(&w[0].position.x, floats, what, "get_local");
	FZ_CHECK(spring_rig_get_stepped_world(rig, w, MAX) == SPRING_OK, "%s: get_stepped_world refused", what);
	check_finite(&w[0].position.x, floats, what, "get_stepped_world");
	FZ_CHECK(spring_rig_get_base_world(rig, w, MAX) == SPRING_OK, "%s: get_base_world refused", what);
	check_finite(&w[0].position.x, floats, what, "get_base_world");
	spring_rig_event events[4];
	int count = spring_rig_get_events(rig, events, 4, NULL);
	for (int i = 0; i < count; i++) {
		FZ_CHECK(strlen(events[i].name) < 64u && spring_is_finite(events[i].time), "%s: a bad event", what);
	}
}
static void rig_drive(void *o, int frames, const char *what)
{
	spring_rig *rig = (spring_rig *)o;
	rig_read(rig, what);
	for (int f = 0; f < frames; f++) {
		FZ_CHECK(spring_rig_set_root(rig, scene_xform2(5.0f * (float)f, 0.0f, 0.05f * (float)f)) == SPRING_OK, "%s: set_root",
		         what);
		spring_result r = spring_rig_update(rig, frame_dt(f));
		FZ_CHECK(r == SPRING_OK, "%s: update returned %s", what, spring_result_string(r));
		rig_read(rig, what);
	}
}

// --- the objects, made once

static spring_motion g_motion;

static void *make_motion(void)
{
	spring_motion_desc d = {0};
	d.channels = 2;
	d.to[0] = 300.0f, d.to[1] = 1.0f;
	d.velocity[1] = -4.0f;
	spring_motion_init(&g_motion, &d);
	spring_motion_advance(&g_motion, 0.07f);
	return &g_motion;
}

static spring_chain2d_desc chain2d_desc(spring_chain2d_segment *segs, int n)
{
	scene_tail_segments(segs, n);
	segs[1].limit = 0.8f;
	spring_chain2d_desc d = {.segment_count = n, .segments = segs, .gravity = {0.0f, -200.0f}, .max_root_speed = 500.0f};
	return d;
}

static void *make_chain2d(void)
{
	spring_chain2d_segment segs[5];
	spring_chain2d_desc d = chain2d_desc(segs, 5);
	spring_chain2d *c = NULL;
	spring_chain2d_create(&d, &c, NULL);
	spring_chain2d_set_params(c, 4, (spring_params){300.0f, 4.0f, 1.0f});
	chain2d_drive(c, 20, "making the angle chain");
	return c;
}

static void *make_group2d(void)
{
	spring_chain2d_segment segs[4];
	spring_chain2d_desc d = chain2d_desc(segs, 4);
	spring_chain2d_group_desc gd = {&d, 3, NULL};
	spring_chain2d_group *g = NULL;
	spring_chain2d_group_create(&gd, &g, NULL);
	spring_chain2d_group_set_params(g, 2, 3, (spring_params){300.0f, 4.0f, 1.0f});
	spring_chain2d_group_set_forces(g, 0, spring_vec2_make(0.0f, -50.0f), spring_vec2_make(3.0f, 0.0f));
	group2d_drive(g, 20, "making the angle group");
	return g;
}

static void *make_chain(bool mode_2d)
{
	spring_chain_bone_desc bones[8];
	const int n = mode_2d ? 4 : 8;
	spring_chain_desc d = scene_tail_desc(bones, n);
	d.gravity = spring_vec3_make(0.0f, -300.0f, 0.0f);
	d.mode_2d = mode_2d;
	spring_chain_collider colliders[2] = {{SPRING_CHAIN_COLLIDER_SPHERE, {30.0f, -20.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 12.0f},
	                                      {SPRING_CHAIN_COLLIDER_CAPSULE, {0.0f, -60.0f, 0.0f}, {40.0f, -60.0f, 0.0f}, 5.0f}};
	d.colliders = colliders;
	d.collider_count = 2;
	d.max_colliders = 3;
	d.max_root_speed = 400.0f;
	bones[n - 1].cone_limit = 0.7f;
	spring_chain *c = NULL;
	spring_chain_create(&d, &c, NULL);
	spring_chain_set_params(c, 1, (spring_params){300.0f, 4.0f, 1.0f});
	chain_drive(c, 20, "making the tip chain");
	return c;
}

static void *make_chain3d(void)
{
	return make_chain(false);
}

static void *make_chain_2d_mode(void)
{
	return make_chain(true);
}

static void *make_group(void)
{
	spring_chain_bone_desc bones[3];
	spring_chain_desc d = scene_tail_desc(bones, 3);
	d.gravity = spring_vec3_make(0.0f, -300.0f, 0.0f);
	spring_chain_group *g = NULL;
	spring_chain_group_create(&d, 3, &g, NULL);
	spring_chain_group_set_params(g, 2, 2, (spring_params){300.0f, 4.0f, 1.0f});
	group_drive(g, 20, "making the tip group");
	return g;
}

static void *make_rig(void)
{
	enum { HIP, T1, T2, T3, UPPER, FORE, RIB1, RIB2, COUNT };
	static const char *const names[COUNT] = {"hip", "tail1", "tail2", "tail3", "upper", "fore", "ribbon1", "ribbon2"};
	static const int parent[COUNT] = {-1, HIP, T1, T2, HIP, UPPER, FORE, RIB1};
	spring_rig_bone_desc bones[COUNT];
	for (int b = 0; b < COUNT; b++) {
		bones[b].name = names[b];
		bones[b].parent = parent[b] < 0 ? NULL : names[parent[b]];
		bones[b].length = 20.0f;
		bones[b].setup = scene_xform2(b == HIP ? 0.0f : 20.0f, 0.0f, b == T1 ? 3.0f : b == UPPER ? 1.2f : 0.1f);
	}
	spring_rig_key keys[3] = {{0.0f, {0.0f, 0.0f}, SPRING_RIG_CURVE_LINEAR, {0}},
	                          {0.5f, {30.0f, 5.0f}, SPRING_RIG_CURVE_LINEAR, {0}},
	                          {1.0f, {0.0f, 0.0f}, SPRING_RIG_CURVE_LINEAR, {0}}};
	spring_rig_track track = {"hip", SPRING_RIG_TRACK_TRANSLATE, 3, keys};
	spring_rig_event event = {0.25f, "step", {1.0f, 2.0f}};
	spring_rig_clip_desc clip = {"walk", 1.0f, true, 1, &track, 1, &event};
	spring_rig_ik_desc ik;
	memset(&ik, 0, sizeof ik);
	ik.name = "arm";
	ik.type = SPRING_RIG_IK_TWO_BONE;
	ik.first = "upper";
	ik.last = "fore";
	spring_rig_chain_desc chains[2];
	memset(chains, 0, sizeof chains);
	chains[0].name = "tail";
	chains[0].type = SPRING_RIG_CHAIN_ANGLE;
	chains[0].first = "tail1";
	chains[0].last = "tail3";
	chains[0].gravity = spring_vec2_make(0.0f, -200.0f);
	chains[1].name = "ribbon";
	chains[1].type = SPRING_RIG_CHAIN_TIP;
	chains[1].first = "ribbon1";
	chains[1].last = "ribbon2";
	chains[1].gravity = spring_vec2_make(0.0f, -200.0f);
	spring_chain_collider ball = {SPRING_CHAIN_COLLIDER_SPHERE, {60.0f, -30.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 10.0f};
	chains[1].collider_count = 1;
	chains[1].colliders = &ball;
	spring_rig_desc d;
	memset(&d, 0, sizeof d);
	d.bone_count = COUNT;
	d.bones = bones;
	d.clip_count = 1;
	d.clips = &clip;
	d.ik_count = 1;
	d.iks = &ik;
	d.chain_count = 2;
	d.chains = chains;
	spring_rig *rig = NULL;
	spring_rig_create(&d, &rig, NULL);
	spring_rig_play(rig, 0, 0.0f);
	spring_rig_set_ik_target(rig, 0, spring_vec2_make(30.0f, 25.0f));
	rig_drive(rig, 20, "making the rig");
	return rig;
}

enum { KIND_COUNT = 7 };
static kind g_kinds[KIND_COUNT];

static void setup(void)
{
	static bool done;
	if (done) {
		return;
	}
	done = true;
	const kind kinds[KIND_COUNT] = {
		{"motion", make_motion(), motion_size, motion_snapshot, motion_restore, motion_drive, NULL, 0},
		{"chain2d", make_chain2d(), chain2d_size, chain2d_snapshot, chain2d_restore, chain2d_drive, NULL, 0},
		{"chain2d_group", make_group2d(), group2d_size, group2d_snapshot, group2d_restore, group2d_drive, NULL, 0},
		{"chain", make_chain3d(), chain_size, chain_snapshot, chain_restore, chain_drive, NULL, 0},
		{"chain (2D mode)", make_chain_2d_mode(), chain_size, chain_snapshot, chain_restore, chain_drive, NULL, 0},
		{"chain_group", make_group(), group_size, group_snapshot, group_restore, group_drive, NULL, 0},
		{"rig", make_rig(), rig_size, rig_snapshot, rig_restore, rig_drive, NULL, 0},
	};
	for (int k = 0; k < KIND_COUNT; k++) {
		g_kinds[k] = kinds[k];
		FZ_CHECK(g_kinds[k].object != NULL, "%s: not made", kinds[k].name);
		g_kinds[k].blob_size = g_kinds[k].size(g_kinds[k].object);
		g_kinds[k].blob = malloc(g_kinds[k].blob_size);
		FZ_CHECK(g_kinds[k].blob && g_kinds[k].snapshot(g_kinds[k].object, g_kinds[k].blob, g_kinds[k].blob_size) == SPRING_OK,
		         "%s: no genuine blob", kinds[k].name);
	}
}

// One mutation of the blob: at a fuzzed offset of the body, a bit flipped, a byte or a 32-bit word
// set, or a float written (any value fz_float makes: raw bits, edges, NaN, infinities, ordinary).
static void mutate(fz_reader *r, unsigned char *blob, size_t size)
{
	const size_t body = size - SPRING_SNAPSHOT_HEADER_BYTES;
	const size_t at = SPRING_SNAPSHOT_HEADER_BYTES + (size_t)fz_u32(r) % body;
	switch (fz_u8(r) % 4) {
	case 0: blob[at] ^= (unsigned char)(1u << (fz_u8(r) % 8)); break;
	case 1: blob[at] = fz_u8(r); break;
	case 2:
	case 3: {
		const size_t word = at & ~(size_t)3u; // the fields are 4-byte aligned in the body
		if (word + 4u <= size) {
			uint32_t v;
			if (fz_u8(r) % 2) {
				float f = fz_float(r);
				memcpy(&v, &f, sizeof v);
			} else {
				v = fz_u32(r);
			}
			memcpy(blob + word, &v, sizeof v);
		}
		break;
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	fz_reader r = fz_make(data, size);
	kind *k = &g_kinds[fz_u8(&r) % KIND_COUNT];
	const uint8_t mode = fz_u8(&r);
	unsigned char *blob = malloc(k->blob_size), *before = malloc(k->blob_size), *after = malloc(k->blob_size);
	FZ_CHECK(blob && before && after, "no memory");
	// Back to the genuine state (the last input may have left an accepted one).
	spring_error e;
	spring_result res = k->restore(k->object, k->blob, k->blob_size, &e);
	FZ_CHECK(res == SPRING_OK, "%s: the genuine blob is refused: %s", k->name, e.message);
	memcpy(blob, k->blob, k->blob_size);
	size_t blob_size = k->blob_size;
	if (mode % 4 == 0) {
		// The body from the input (zeros past its end), behind the genuine header.
		const size_t body = k->blob_size - SPRING_SNAPSHOT_HEADER_BYTES;
		const size_t n = r.n < body ? r.n : body;
		memset(blob + SPRING_SNAPSHOT_HEADER_BYTES, 0, body);
		memcpy(blob + SPRING_SNAPSHOT_HEADER_BYTES, r.p, n);
		FZ_TRACE("%s: a body of %zu input bytes", k->name, n);
	} else if (mode % 4 == 1) {
		// The whole blob from the input: any header, any size.
		blob_size = r.n < k->blob_size ? r.n : k->blob_size;
		memcpy(blob, r.p, blob_size);
		FZ_TRACE("%s: a blob of %zu input bytes", k->name, blob_size);
	} else {
		const int mutations = fz_int(&r, 1, 16);
		for (int m = 0; m < mutations; m++) {
			mutate(&r, blob, k->blob_size);
		}
		FZ_TRACE("%s: %d mutations: %s", k->name, mutations, fz_log_take(&r));
	}
	FZ_CHECK(k->snapshot(k->object, before, k->blob_size) == SPRING_OK, "%s: snapshot refused", k->name);
	memset(&e, 0, sizeof e);
	res = k->restore(k->object, blob, blob_size, &e);
	FZ_CHECK_RESULT(res, "restore");
	FZ_TRACE("%s: restore: %s %s", k->name, spring_result_string(res), res == SPRING_OK ? "" : e.message);
	if (res != SPRING_OK) {
		FZ_CHECK(e.result == res && e.message[0] != '\0', "%s: a refused restore gave no error report", k->name);
		FZ_CHECK(k->snapshot(k->object, after, k->blob_size) == SPRING_OK, "%s: snapshot refused", k->name);
		FZ_CHECK_UNCHANGED(before, after, k->blob_size, k->name, res);
	} else {
		k->drive(k->object, 6, k->name);
	}
	free(blob);
	free(before);
	free(after);
	return 0;
}
