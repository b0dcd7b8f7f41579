// SPDX-License-Identifier: MIT
// spring/spring.hpp, the C++17 header: every owner and value made, stepped, read, moved (the
// moved-from is empty and destroys nothing), each refusal in both forms (a value; an exception
// where the build has them: this file is built with and without -fno-exceptions), spans that
// are too small, and every result bit for bit the plain C calls' on the same inputs.
#include <spring/spring.hpp>

#include "test_macros.h"

extern "C" {
#include "shared/scenes.h"
#include "shared/snapshot_kinds.h"
}

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

// What the owners cost: a pointer; the outcomes: the code (and a getter's needed count).
static_assert(sizeof(spring::chain2d) == sizeof(void *), "an owner is its pointer");
static_assert(sizeof(spring::rig) == sizeof(void *), "an owner is its pointer");
static_assert(sizeof(spring::status) ==
                  sizeof(spring_result) + sizeof(long long) +
                      (alignof(long long) - sizeof(spring_result) % alignof(long long)) % alignof(long long),
              "a status is its code and, for a too-small output, the count it needed");
static_assert(sizeof(spring::motion) == sizeof(spring_motion), "a motion is its C struct");
static_assert(sizeof(spring::batch) == sizeof(spring_batch), "a batch is its C struct");
static_assert(std::is_trivially_copyable_v<spring::status>, "a status copies as its code");
static_assert(!std::is_copy_constructible_v<spring::chain> && !std::is_copy_assignable_v<spring::chain>, "move-only");
static_assert(std::is_nothrow_move_constructible_v<spring::chain_group> && std::is_nothrow_move_assignable_v<spring::chain_group>,
              "moves never throw");
static_assert(std::is_nothrow_move_constructible_v<spring::chain2d_group>, "moves never throw");
static_assert(std::is_copy_constructible_v<spring::motion>, "a motion is a value, as in C");
static_assert(!std::is_constructible_v<spring::span<float>, const std::vector<float> &>, "no writing through a const vector");
static_assert(std::is_constructible_v<spring::span<const float>, std::vector<float> &>, "reading through a vector");

static const float nan_dt = NAN;

// The library's allocations counted while one lives (the default allocator back after it).
struct counting_allocator {
	scene_alloc_counter counter = {};
	counting_allocator()
	{
		spring_allocator hooks = scene_counting_allocator(&counter);
		spring_set_allocator(&hooks);
	}
	~counting_allocator()
	{
		spring_set_allocator(nullptr);
	}
	counting_allocator(const counting_allocator &) = delete;
	counting_allocator &operator=(const counting_allocator &) = delete;
};

// The C objects the tests compare with, destroyed when a test returns.
template <class C, void (*Destroy)(C *)> struct c_object {
	C *object = nullptr;
	~c_object()
	{
		Destroy(object);
	}
};

// The bytes of two arrays (or two snapshots) are the same.
template <class T> static bool same_bytes(const T *a, const T *b, size_t count)
{
	return std::memcmp(a, b, count * sizeof(T)) == 0;
}

// The whole state of two objects of one kind, by their snapshots: equal bytes.
template <class C, class Cxx>
static bool same_state(const C *c_object, const Cxx &cxx_object, size_t (*size_fn)(const C *),
                       spring_result (*snapshot_fn)(const C *, void *, size_t))
{
	size_t size = size_fn(c_object);
	if (size == 0 || size != cxx_object.snapshot_size()) {
		return false;
	}
	std::vector<unsigned char> a(size), b(size);
	return snapshot_fn(c_object, a.data(), size) == SPRING_OK && cxx_object.snapshot(b).ok() && a == b;
}

template <class Cxx> static std::vector<unsigned char> blob_of(const Cxx &object)
{
	std::vector<unsigned char> blob(object.snapshot_size());
	return object.snapshot(blob).ok() ? blob : std::vector<unsigned char>();
}

// Moves of a live owner: the moved-from is empty, the object travels, a move onto a live owner
// destroys that one's object (one free seen by the counting allocator), and every moved-from
// destructor runs safely at the end (ASan sees any double free).
template <class Owner> static int check_moves(Owner live, Owner other, const scene_alloc_counter &counter)
{
	auto *raw = live.get();
	ENSURE(raw && other);
	Owner moved(std::move(live));
	ENSURE(!live && live.get() == nullptr && moved.get() == raw);
	Owner assigned;
	ENSURE(!assigned);
	assigned = std::move(moved);
	ENSURE(!moved && assigned.get() == raw);
	int frees = counter.frees;
	other = std::move(assigned); // other's own object goes
	ENSURE(counter.frees == frees + 1);
	ENSURE(!assigned && other.get() == raw);
	auto *released = other.release();
	ENSURE(released == raw && !other);
	Owner adopted(released);
	ENSURE(adopted.get() == raw);
	return 0;
}

#if defined(__cpp_exceptions)
// The throwing form of a refused factory: spring::error with the C call's code and message.
template <class Owner, class Desc> static int check_throws(const Desc &bad, spring_result code, const char *message)
{
	try {
		Owner never{bad};
		(void)never;
	} catch (const spring::error &e) {
		ENSURE(e.code() == code && e.detail().result == code);
		ENSURE_MSG(std::strcmp(e.what(), message) == 0, "what() \"%s\", C \"%s\"", e.what(), message);
		return 0;
	}
	ENSURE(!"no spring::error thrown");
	return 1;
}

// The throwing form of a refused call: the code and its sentence.
static int check_status_throws(spring::status s, spring_result code)
{
	try {
		s.check();
	} catch (const spring::error &e) {
		ENSURE(e.code() == code && std::strcmp(e.what(), spring_result_string(code)) == 0);
		return 0;
	}
	ENSURE(!"no spring::error thrown");
	return 1;
}
#endif

// The non-throwing form of a refused factory: not ok, the C call's code and message, empty.
template <class Owner> static int check_refused(const spring::expected<Owner> &made, spring_result code, const char *message)
{
	ENSURE(!made && !made.ok() && made.code() == code && made.error().result == code);
	ENSURE_MSG(std::strcmp(made.message(), message) == 0, "message \"%s\", C \"%s\"", made.message(), message);
	return 0;
}

// A description the C create refuses: the owner's create and constructor give its code and its
// message (and, created by neither, nothing to destroy).
template <class Owner, class Desc, class C>
static int check_bad_desc(const Desc &bad, spring_result (*create_fn)(const Desc *, C **, spring_error *))
{
	spring_error error = {};
	C *never = nullptr;
	spring_result code = create_fn(&bad, &never, &error);
	ENSURE(code != SPRING_OK && !never && error.message[0] != '\0');
	auto made = Owner::create(bad);
	ENSURE(check_refused(made, code, error.message) == 0 && !*made);
#if defined(__cpp_exceptions)
	ENSURE((check_throws<Owner>(bad, code, error.message)) == 0);
#endif
	return 0;
}

// A call the C function refuses (`call` makes it): the code in both forms, the object's whole
// state (its snapshot) unchanged.
template <class Cxx, class Call> static int check_refusal(Cxx &object, spring_result code, Call call)
{
	std::vector<unsigned char> before = blob_of(object);
	ENSURE(!before.empty());
	spring::status s = call();
	ENSURE_MSG(!s && s.code() == code, "code %d, expected %d", static_cast<int>(s.code()), static_cast<int>(code));
	ENSURE(std::strcmp(s.message(), spring_result_string(code)) == 0);
	ENSURE(blob_of(object) == before);
#if defined(__cpp_exceptions)
	ENSURE(check_status_throws(call(), code) == 0);
	ENSURE(blob_of(object) == before);
#endif
	return 0;
}

// A blob the C restore refuses: the same code and message in both forms, nothing changed; the
// object's own blob restores.
template <class C, class Cxx>
static int check_restore(C *c_object, Cxx &object, spring_result (*restore_fn)(C *, const void *, size_t, spring_error *))
{
	std::vector<unsigned char> before = blob_of(object), bad = before;
	ENSURE(bad.size() > SPRING_SNAPSHOT_HEADER_BYTES);
	bad[SPRING_SNAPSHOT_HEADER_BYTES - 1] ^= 0x40; // the size in the header
	spring_error error = {};
	ENSURE(restore_fn(c_object, bad.data(), bad.size(), &error) != SPRING_OK && error.message[0] != '\0');
	spring::expected<void> restored = object.restore(bad);
	ENSURE(!restored && restored.code() == error.result);
	ENSURE_MSG(std::strcmp(restored.message(), error.message) == 0, "\"%s\", C \"%s\"", restored.message(), error.message);
	ENSURE(blob_of(object) == before);
#if defined(__cpp_exceptions)
	try {
		object.restore(bad).check();
		ENSURE(!"no spring::error thrown");
	} catch (const spring::error &e) {
		ENSURE(e.code() == error.result && std::strcmp(e.what(), error.message) == 0);
		ENSURE(std::memcmp(&e.detail(), &restored.error(), sizeof error) == 0);
	}
#endif
	ENSURE(object.restore(before.data(), before.size()).ok() && blob_of(object) == before);
	return 0;
}

static int test_span_sources(void)
{
	float c_array[5] = {0};
	std::array<float, 6> std_array{};
	std::vector<float> vector(7);
	spring::span<float> a(c_array), b(std_array), c(vector), d(vector.data(), 3);
	ENSURE(a.data() == c_array && a.size() == 5);
	ENSURE(b.data() == std_array.data() && b.size() == 6);
	ENSURE(c.data() == vector.data() && c.size() == 7);
	ENSURE(d.data() == vector.data() && d.size() == 3 && !d.empty());
	spring::span<const float> e(c), f(c_array);
	const std::vector<float> &constant = vector;
	spring::span<const float> g(constant);
	ENSURE(e.data() == vector.data() && e.size() == 7 && f.size() == 5 && g.size() == 7);
	spring::span<float> none;
	ENSURE(none.data() == nullptr && none.empty());
	// a size past INT_MAX reaches the C call as INT_MAX: the buffer holds at least that many
	ENSURE(spring::detail::count(static_cast<size_t>(INT_MAX) + 1) == INT_MAX && spring::detail::count(7) == 7);
	return 0;
}

// Fills `count` T with a pattern and keeps a copy: an output a refused call must not touch.
template <class T, size_t N> struct guarded {
	T data[N], copy[N];
	guarded()
	{
		std::memset(data, 0x5a, sizeof data);
		std::memcpy(copy, data, sizeof data);
	}
	bool untouched() const
	{
		return std::memcmp(data, copy, sizeof data) == 0;
	}
};

// --- angle chain ---------------------------------------------------------------------------

static const int n = SCENE_TAIL_BONES;
static spring_chain2d_segment tail2d[n];
static spring_chain2d_desc tail2d_desc(void)
{
	scene_tail_segments(tail2d, n);
	spring_chain2d_desc desc = {};
	desc.segment_count = n;
	desc.segments = tail2d;
	return desc;
}

// The standard tail's root in 2D at frame `frame`, and a frame time with hitches.
static spring_xform2 root2d(int frame, float shift)
{
	spring_xform3 r = scene_tail_root(frame / 60.0);
	return scene_xform2(r.position.x + shift, r.position.y, 0.3f * r.position.y);
}
static float frame_dt(int frame)
{
	return frame % 7 == 3 ? 1.0f / 24.0f : 1.0f / 60.0f;
}

static int test_chain2d(void)
{
	counting_allocator counting;
	scene_alloc_counter &counter = counting.counter;
	spring_chain2d_desc desc = tail2d_desc();
	c_object<spring_chain2d, spring_chain2d_destroy> owned_c;
	ENSURE(spring_chain2d_create(&desc, &owned_c.object, nullptr) == SPRING_OK);
	spring_chain2d *c = owned_c.object;
	auto made = spring::chain2d::create(desc);
	ENSURE(made.ok() && made.code() == SPRING_OK && *made);
	spring::chain2d chain = std::move(*made);
	ENSURE(!*made && chain.segment_count() == n);
	float offsets[n];
	for (int i = 0; i < n; i++) {
		offsets[i] = 0.05f * static_cast<float>(i);
	}
	spring_params p;
	ENSURE(spring_params_from_frequency(3.0f, 0.5f, &p) == SPRING_OK);
	int allocs = counter.allocs;
	for (int frame = 0; frame < 240; frame++) {
		spring_xform2 root = root2d(frame < 200 ? frame : 200, 0.0f); // still from frame 200: it rests
		if (frame == 60) {
			ENSURE(spring_chain2d_set_animation(c, offsets, n) == SPRING_OK && chain.set_animation(offsets).ok());
			ENSURE(spring_chain2d_set_params(c, 2, p) == SPRING_OK && chain.set_params(2, p).ok());
			ENSURE(spring_chain2d_set_forces(c, {0, -50}, {3, 0}) == SPRING_OK && chain.set_forces({0, -50}, {3, 0}).ok());
		}
		if (frame == 120) {
			ENSURE(spring_chain2d_set_animation(c, nullptr, 0) == SPRING_OK && chain.clear_animation().ok());
			ENSURE(spring_chain2d_teleport(c, scene_xform2(5, 5, 1)) == SPRING_OK && chain.teleport(scene_xform2(5, 5, 1)).ok());
			ENSURE(spring_chain2d_set_inertia(c, -1, 0.5f) == SPRING_OK && chain.set_inertia(-1, 0.5f).ok());
			ENSURE(spring_chain2d_set_limit(c, 1, 0.4f) == SPRING_OK && chain.set_limit(1, 0.4f).ok());
			ENSURE(spring_chain2d_set_root_limits(c, 500, 20) == SPRING_OK && chain.set_root_limits(500, 20).ok());
		}
		if (frame == 150) {
			ENSURE(spring_chain2d_translate(c, {2, 1}) == SPRING_OK && chain.translate({2, 1}).ok());
			ENSURE(spring_chain2d_rotate(c, 0.5f, {1, 1}) == SPRING_OK && chain.rotate(0.5f, {1, 1}).ok());
		}
		if (frame == 200) {
			ENSURE(spring_chain2d_reset(c, root) == SPRING_OK && chain.reset(root).ok());
		}
		ENSURE(spring_chain2d_update(c, root, frame_dt(frame)) == SPRING_OK && chain.update(root, frame_dt(frame)).ok());
		spring_xform2 cj[n + 1], xj[n + 1];
		float ca[n], xa[n];
		ENSURE(spring_chain2d_get_pose(c, cj, ca, n + 1) == SPRING_OK && chain.get_pose(xj, xa).ok());
		ENSURE(same_bytes(cj, xj, n + 1) && same_bytes(ca, xa, n));
		spring_state cs, xs;
		ENSURE(spring_chain2d_get_state(c, n - 1, &cs) == SPRING_OK && chain.get_state(n - 1, xs).ok());
		ENSURE(same_bytes(&cs, &xs, 1) && chain.get_target(2) == spring_chain2d_get_target(c, 2));
		ENSURE(chain.is_resting() == spring_chain2d_is_resting(c));
	}
	ENSURE(counter.allocs == allocs);
	ENSURE(same_state(c, chain, spring_chain2d_snapshot_size, spring_chain2d_snapshot));
	ENSURE(same_bytes(chain.clock(), spring_chain2d_clock(c), 1));

	ENSURE(check_refusal(chain, SPRING_ERROR_NOT_FINITE, [&] { return chain.update(spring_xform2_identity(), nan_dt); }) == 0);
	ENSURE(check_refusal(chain, spring_chain2d_set_limit(c, n, 0.5f), [&] { return chain.set_limit(n, 0.5f); }) == 0);
	ENSURE(check_refusal(chain, SPRING_ERROR_INVALID_ARGUMENT,
	                     [&] { return chain.set_animation(spring::span<const float>(offsets, n - 1)); }) == 0);
	// spans too small: the C call's BUFFER_TOO_SMALL, nothing written; just big enough: written
	guarded<spring_xform2, n + 1> joints;
	guarded<float, n> angles;
	ENSURE(chain.get_pose(spring::span<spring_xform2>(joints.data, n)).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(chain.get_pose(joints.data, spring::span<float>(angles.data, n - 1)).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(chain.get_pose({}, spring::span<float>(angles.data, n - 1)).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(chain.get_pose(spring::span<spring_xform2>(joints.data, n)).needed() == n + 1);
	ENSURE(chain.get_pose({}, spring::span<float>(angles.data, n - 1)).needed() == n);
	ENSURE(joints.untouched() && angles.untouched());
	ENSURE(chain.get_pose(joints.data).ok() && !joints.untouched());
	ENSURE(chain.get_pose({}, angles.data).ok() && !angles.untouched());
	ENSURE(check_restore(c, chain, spring_chain2d_restore) == 0);

	spring_chain2d_segment bad_segments[n];
	std::memcpy(bad_segments, tail2d, sizeof tail2d);
	bad_segments[2].length = -1.0f;
	spring_chain2d_desc bad = desc;
	bad.segments = bad_segments;
	ENSURE((check_bad_desc<spring::chain2d>(bad, spring_chain2d_create)) == 0);
#if defined(__cpp_exceptions)
	spring::chain2d thrown_form{desc};
	ENSURE(thrown_form && thrown_form.segment_count() == n);
#endif
	ENSURE(check_moves(std::move(chain), *spring::chain2d::create(desc), counter) == 0);
	return 0;
}

// --- tip chain -----------------------------------------------------------------------------

static spring_chain_bone_desc tail_bones[n];

static int test_chain(void)
{
	counting_allocator counting;
	scene_alloc_counter &counter = counting.counter;
	spring_chain_desc desc = scene_tail_desc(tail_bones, n);
	desc.max_colliders = 2;
	c_object<spring_chain, spring_chain_destroy> owned_c;
	ENSURE(spring_chain_create(&desc, &owned_c.object, nullptr) == SPRING_OK);
	spring_chain *c = owned_c.object;
	spring::chain chain = *spring::chain::create(desc);
	ENSURE(chain && chain.bone_count() == n);
	spring_xform3 animation[n];
	for (int i = 0; i < n; i++) {
		animation[i] = tail_bones[i].rest_local;
		animation[i].position.y = 0.5f * static_cast<float>(i);
	}
	spring_chain_collider ball = {};
	ball.type = SPRING_CHAIN_COLLIDER_SPHERE;
	ball.a = spring_vec3_make(60, -10, 0);
	ball.radius = 8;
	spring_quat turn = {0, 0, 0.247403959f, 0.968912422f};
	int allocs = counter.allocs;
	for (int frame = 0; frame < 240; frame++) {
		spring_xform3 root = scene_tail_root(frame / 60.0);
		float dt = frame_dt(frame);
		if (frame == 40) {
			ENSURE(spring_chain_set_animation(c, animation, n) == SPRING_OK && chain.set_animation(animation).ok());
			ENSURE(spring_chain_set_colliders(c, &ball, 1) == SPRING_OK && chain.set_colliders({&ball, 1}).ok());
			ENSURE(spring_chain_set_cone_limit(c, 3, 0.6f) == SPRING_OK && chain.set_cone_limit(3, 0.6f).ok());
			ENSURE(spring_chain_set_bone_gravity(c, 5, {0, -9, 0}) == SPRING_OK && chain.set_bone_gravity(5, {0, -9, 0}).ok());
		}
		if (frame == 100) {
			ENSURE(spring_chain_set_animation(c, nullptr, 0) == SPRING_OK && chain.clear_animation().ok());
			ENSURE(spring_chain_translate(c, {1, 2, 0}) == SPRING_OK && chain.translate({1, 2, 0}).ok());
			ENSURE(spring_chain_rotate(c, turn, {0, 0, 0}) == SPRING_OK && chain.rotate(turn, {0, 0, 0}).ok());
			ENSURE(spring_chain_set_forces(c, {0, -30, 0}, {1, 0, 0}) == SPRING_OK &&
			       chain.set_forces({0, -30, 0}, {1, 0, 0}).ok());
			ENSURE(spring_chain_set_root_limits(c, 400, 10) == SPRING_OK && chain.set_root_limits(400, 10).ok());
		}
		if (frame == 160) {
			ENSURE(spring_chain_set_colliders(c, nullptr, 0) == SPRING_OK && chain.set_colliders({}).ok());
			ENSURE(spring_chain_teleport(c, root) == SPRING_OK && chain.teleport(root).ok());
			ENSURE(spring_chain_set_params(c, 2, desc.params) == SPRING_OK && chain.set_params(2, desc.params).ok());
		}
		if (frame == 200) {
			ENSURE(spring_chain_reset(c, root) == SPRING_OK && chain.reset(root).ok());
		}
		if (frame % 2) {
			ENSURE(spring_chain_update(c, root, dt) == SPRING_OK && chain.update(root, dt).ok());
		} else {
			spring_chain *const raw[1] = {chain.get()};
			ENSURE(spring_chain_update_many(&c, &root, 1, dt) == SPRING_OK && spring::chain::update_many(raw, &root, dt).ok());
		}
		spring_xform3 cb[n], xb[n];
		spring_vec3 ct[n], xt[n];
		ENSURE(spring_chain_get_pose(c, cb, ct, n) == SPRING_OK && chain.get_pose(xb, xt).ok());
		ENSURE(same_bytes(cb, xb, n) && same_bytes(ct, xt, n));
		ENSURE(spring_chain_get_stepped_pose(c, cb, ct, n) == SPRING_OK && chain.get_stepped_pose(xb, xt).ok());
		ENSURE(same_bytes(cb, xb, n) && same_bytes(ct, xt, n));
		spring_state_vec3 cs, xs;
		ENSURE(spring_chain_get_state(c, n - 1, &cs) == SPRING_OK && chain.get_state(n - 1, xs).ok());
		spring_vec3 target_c = spring_chain_get_target(c, 4), target_x = chain.get_target(4);
		ENSURE(same_bytes(&cs, &xs, 1) && same_bytes(&target_c, &target_x, 1));
		ENSURE(chain.is_resting() == spring_chain_is_resting(c));
	}
	ENSURE(counter.allocs == allocs);
	ENSURE(same_state(c, chain, spring_chain_snapshot_size, spring_chain_snapshot));
	ENSURE(same_bytes(chain.clock(), spring_chain_clock(c), 1));

	spring_xform3 far = spring_xform3_identity();
	far.position.x = 2e6f;
	ENSURE(check_refusal(chain, SPRING_ERROR_NOT_FINITE, [&] { return chain.update(spring_xform3_identity(), nan_dt); }) == 0);
	ENSURE(check_refusal(chain, SPRING_ERROR_OUT_OF_RANGE, [&] { return chain.teleport(far); }) == 0);
	ENSURE(check_refusal(chain, SPRING_ERROR_INVALID_ARGUMENT, [&] { return chain.set_animation({animation, n - 1}); }) == 0);
	guarded<spring_xform3, n> bones;
	guarded<spring_vec3, n> tips;
	ENSURE(chain.get_pose({bones.data, n - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(chain.get_pose(bones.data, {tips.data, n - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(chain.get_stepped_pose({}, {tips.data, n - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(chain.get_stepped_pose({}, {tips.data, n - 1}).needed() == n && chain.get_pose({}, {}).needed() == 0);
	ENSURE(bones.untouched() && tips.untouched());
	ENSURE(chain.get_pose(bones.data, tips.data).ok() && !bones.untouched() && !tips.untouched());
	ENSURE(check_restore(c, chain, spring_chain_restore) == 0);

	spring_chain_desc bad = desc;
	bad.bone_count = 0;
	ENSURE((check_bad_desc<spring::chain>(bad, spring_chain_create)) == 0);
	ENSURE(check_moves(std::move(chain), *spring::chain::create(desc), counter) == 0);
	return 0;
}

// --- groups --------------------------------------------------------------------------------

static const int chains = 3;

static int test_chain_group(void)
{
	counting_allocator counting;
	scene_alloc_counter &counter = counting.counter;
	spring_chain_desc shape = scene_tail_desc(tail_bones, n);
	spring_chain_group_desc desc = {};
	desc.chain = &shape;
	desc.chain_count = chains;
	c_object<spring_chain_group, spring_chain_group_destroy> owned_c;
	ENSURE(spring_chain_group_create(&desc, &owned_c.object, nullptr) == SPRING_OK);
	spring_chain_group *c = owned_c.object;
	spring::chain_group group = *spring::chain_group::create(desc);
	ENSURE(group && group.chain_count() == chains && group.bone_count() == n);
	spring_xform3 animation[n];
	for (int i = 0; i < n; i++) {
		animation[i] = tail_bones[i].rest_local;
		animation[i].position.z = 0.25f * static_cast<float>(i);
	}
	int allocs = counter.allocs;
	for (int frame = 0; frame < 200; frame++) {
		spring_xform3 roots[chains];
		for (int i = 0; i < chains; i++) {
			roots[i] = scene_tail_root(frame / 60.0 + 0.1 * i);
		}
		if (frame == 30) {
			ENSURE(spring_chain_group_set_animation(c, 1, animation, n) == SPRING_OK && group.set_animation(1, animation).ok());
			ENSURE(spring_chain_group_set_forces(c, -1, {0, -20, 0}, {2, 0, 0}) == SPRING_OK &&
			       group.set_forces(-1, {0, -20, 0}, {2, 0, 0}).ok());
			ENSURE(spring_chain_group_set_bone_gravity(c, 2, 3, {0, 0, -5}) == SPRING_OK &&
			       group.set_bone_gravity(2, 3, {0, 0, -5}).ok());
		}
		if (frame == 90) {
			ENSURE(spring_chain_group_set_animation(c, 1, nullptr, 0) == SPRING_OK && group.clear_animation(1).ok());
			ENSURE(spring_chain_group_set_params(c, -1, 4, shape.params) == SPRING_OK &&
			       group.set_params(-1, 4, shape.params).ok());
			ENSURE(spring_chain_group_teleport(c, 0, roots[2]) == SPRING_OK && group.teleport(0, roots[2]).ok());
			ENSURE(spring_chain_group_reset(c, 2, roots[0]) == SPRING_OK && group.reset(2, roots[0]).ok());
		}
		ENSURE(spring_chain_group_update(c, roots, frame_dt(frame)) == SPRING_OK && group.update(roots, frame_dt(frame)).ok());
		spring_xform3 cb[chains * n], xb[chains * n];
		spring_vec3 ct[chains * n], xt[chains * n];
		ENSURE(spring_chain_group_get_poses(c, cb, ct, chains * n) == SPRING_OK && group.get_poses(xb, xt).ok());
		ENSURE(same_bytes(cb, xb, chains * n) && same_bytes(ct, xt, chains * n));
		ENSURE(spring_chain_group_get_pose(c, 1, cb, ct, n) == SPRING_OK && group.get_pose(1, {xb, n}, {xt, n}).ok());
		ENSURE(same_bytes(cb, xb, n) && same_bytes(ct, xt, n));
		spring_state_vec3 cs, xs;
		ENSURE(spring_chain_group_get_state(c, 2, n - 1, &cs) == SPRING_OK && group.get_state(2, n - 1, xs).ok());
		ENSURE(same_bytes(&cs, &xs, 1) && group.is_resting(1) == spring_chain_group_is_resting(c, 1));
	}
	ENSURE(counter.allocs == allocs);
	ENSURE(same_state(c, group, spring_chain_group_snapshot_size, spring_chain_group_snapshot));
	ENSURE(same_bytes(group.clock(), spring_chain_group_clock(c), 1));

	spring_xform3 roots[chains] = {spring_xform3_identity(), spring_xform3_identity(), spring_xform3_identity()};
	ENSURE(check_refusal(group, SPRING_ERROR_NOT_FINITE, [&] { return group.update(roots, nan_dt); }) == 0);
	ENSURE(check_refusal(group, SPRING_ERROR_INVALID_ARGUMENT, [&] { return group.reset(chains, roots[0]); }) == 0);
	guarded<spring_xform3, chains * n> bones;
	guarded<spring_vec3, chains * n> tips;
	ENSURE(group.get_poses({bones.data, chains * n - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(group.get_poses(bones.data, {tips.data, chains * n - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(group.get_pose(0, {bones.data, n - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(group.get_poses({bones.data, chains * n - 1}).needed() == chains * n &&
	       group.get_pose(0, {bones.data, 1}).needed() == n);
	ENSURE(bones.untouched() && tips.untouched());
	ENSURE(group.get_poses({}, tips.data).ok() && !tips.untouched());
	ENSURE(check_restore(c, group, spring_chain_group_restore) == 0);

	spring_chain_collider ball = {};
	spring_chain_desc colliding = shape;
	colliding.colliders = &ball;
	colliding.collider_count = 1;
	spring_chain_group_desc bad = desc;
	bad.chain = &colliding;
	ENSURE((check_bad_desc<spring::chain_group>(bad, spring_chain_group_create)) == 0);
	ENSURE(check_moves(std::move(group), *spring::chain_group::create(desc), counter) == 0);
	return 0;
}

static int test_chain2d_group(void)
{
	counting_allocator counting;
	scene_alloc_counter &counter = counting.counter;
	spring_chain2d_desc shape = tail2d_desc();
	spring_chain2d_group_desc desc = {};
	desc.chain = &shape;
	desc.chain_count = chains;
	c_object<spring_chain2d_group, spring_chain2d_group_destroy> owned_c;
	ENSURE(spring_chain2d_group_create(&desc, &owned_c.object, nullptr) == SPRING_OK);
	spring_chain2d_group *c = owned_c.object;
	spring::chain2d_group group = *spring::chain2d_group::create(desc);
	ENSURE(group && group.chain_count() == chains && group.segment_count() == n);
	float offsets[n];
	for (int i = 0; i < n; i++) {
		offsets[i] = -0.04f * static_cast<float>(i);
	}
	int allocs = counter.allocs;
	for (int frame = 0; frame < 200; frame++) {
		spring_xform2 roots[chains];
		for (int i = 0; i < chains; i++) {
			roots[i] = root2d(frame, 40.0f * static_cast<float>(i));
		}
		if (frame == 30) {
			ENSURE(spring_chain2d_group_set_animation(c, 2, offsets, n) == SPRING_OK && group.set_animation(2, offsets).ok());
			ENSURE(spring_chain2d_group_set_forces(c, 0, {0, -40}, {0, 0}) == SPRING_OK &&
			       group.set_forces(0, {0, -40}, {0, 0}).ok());
			ENSURE(spring_chain2d_group_set_inertia(c, -1, 1, 0.7f) == SPRING_OK && group.set_inertia(-1, 1, 0.7f).ok());
		}
		if (frame == 90) {
			ENSURE(spring_chain2d_group_set_animation(c, 2, nullptr, 0) == SPRING_OK && group.clear_animation(2).ok());
			ENSURE(spring_chain2d_group_set_params(c, 1, 3, shape.params) == SPRING_OK &&
			       group.set_params(1, 3, shape.params).ok());
			ENSURE(spring_chain2d_group_teleport(c, 0, roots[2]) == SPRING_OK && group.teleport(0, roots[2]).ok());
			ENSURE(spring_chain2d_group_reset(c, 1, roots[1]) == SPRING_OK && group.reset(1, roots[1]).ok());
		}
		ENSURE(spring_chain2d_group_update(c, roots, frame_dt(frame)) == SPRING_OK && group.update(roots, frame_dt(frame)).ok());
		spring_xform2 cj[chains * (n + 1)], xj[chains * (n + 1)];
		ENSURE(spring_chain2d_group_get_poses(c, cj, chains * (n + 1)) == SPRING_OK && group.get_poses(xj).ok());
		ENSURE(same_bytes(cj, xj, chains * (n + 1)));
		float ca[n], xa[n];
		ENSURE(spring_chain2d_group_get_pose(c, 2, cj, ca, n + 1) == SPRING_OK && group.get_pose(2, {xj, n + 1}, xa).ok());
		ENSURE(same_bytes(cj, xj, n + 1) && same_bytes(ca, xa, n));
		spring_state cs, xs;
		ENSURE(spring_chain2d_group_get_state(c, 1, 2, &cs) == SPRING_OK && group.get_state(1, 2, xs).ok());
		ENSURE(same_bytes(&cs, &xs, 1) && group.is_resting(0) == spring_chain2d_group_is_resting(c, 0));
	}
	ENSURE(counter.allocs == allocs);
	ENSURE(same_state(c, group, spring_chain2d_group_snapshot_size, spring_chain2d_group_snapshot));
	ENSURE(same_bytes(group.clock(), spring_chain2d_group_clock(c), 1));

	spring_xform2 roots[chains] = {spring_xform2_identity(), spring_xform2_identity(), spring_xform2_identity()};
	ENSURE(check_refusal(group, SPRING_ERROR_NOT_FINITE, [&] { return group.update(roots, nan_dt); }) == 0);
	ENSURE(check_refusal(group, SPRING_ERROR_INVALID_ARGUMENT, [&] { return group.set_animation(0, {offsets, n - 1}); }) == 0);
	guarded<spring_xform2, chains *(n + 1)> joints;
	guarded<float, n> angles;
	ENSURE(group.get_poses({joints.data, chains * (n + 1) - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(group.get_pose(1, {joints.data, n + 1}, {angles.data, n - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(group.get_pose(1, {joints.data, n}, angles.data).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(group.get_poses({joints.data, 1}).needed() == chains * (n + 1) &&
	       group.get_pose(1, {joints.data, n}).needed() == n + 1);
	ENSURE(joints.untouched() && angles.untouched());
	ENSURE(group.get_pose(1, {joints.data, n + 1}, angles.data).ok() && !joints.untouched() && !angles.untouched());
	ENSURE(check_restore(c, group, spring_chain2d_group_restore) == 0);

	spring_chain2d_group_desc bad = desc;
	bad.chain_count = 0;
	ENSURE((check_bad_desc<spring::chain2d_group>(bad, spring_chain2d_group_create)) == 0);
	ENSURE(check_moves(std::move(group), *spring::chain2d_group::create(desc), counter) == 0);
	return 0;
}

// --- rig -----------------------------------------------------------------------------------

// The shared test rig (tests/shared/snapshot_kinds.c): a hip walking by a clip with an event, a
// two-bone arm on IK, an angle tail and a tip-chain ribbon with a collider.
static const int rig_bone_count = SNAPSHOT_RIG_BONES;

static int test_rig(void)
{
	counting_allocator counting;
	scene_alloc_counter &counter = counting.counter;
	spring_rig_desc desc = snapshot_rig_desc();
	c_object<spring_rig, spring_rig_destroy> owned_c;
	spring_error why = {};
	ENSURE_MSG(spring_rig_create(&desc, &owned_c.object, &why) == SPRING_OK, "%s", why.message);
	spring_rig *c = owned_c.object;
	spring::rig rig = *spring::rig::create(desc);
	ENSURE(rig && rig.bone_count() == rig_bone_count && rig.chain_count() == 2 && rig.clip_count() == 1 && rig.ik_count() == 1);
	ENSURE(std::strcmp(rig.bone_name(3), "tail3") == 0 && rig.bone_parent(5) == 4 && rig.bone_length(2) == 20.0f);
	ENSURE(std::strcmp(rig.clip_name(0), "walk") == 0 && rig.clip_duration(0) == 1.0f && std::strcmp(rig.ik_name(0), "arm") == 0);
	ENSURE(std::strcmp(rig.chain_name(1), "ribbon") == 0 && rig.find_clip("walk") == 0 && rig.find_bone("fore") == 5);
	ENSURE(rig.find_ik("arm") == 0 && rig.find_clip("run") == SPRING_RIG_NOT_FOUND);
	int chain_bones[3], c_bones[3];
	ENSURE(rig.chain_bones(0, chain_bones) == 3 && spring_rig_chain_bones(c, 0, c_bones, 3) == 3 &&
	       same_bytes(chain_bones, c_bones, 3));
	ENSURE(spring_rig_play(c, 0, 0.1f) == SPRING_OK && rig.play(0, 0.1f).ok());
	int allocs = counter.allocs;
	int events_seen = 0;
	for (int frame = 0; frame < 200; frame++) {
		spring_xform2 root = root2d(frame, 0.0f);
		if (frame == 20) {
			ENSURE(spring_rig_set_ik_target(c, 0, {5, -15}) == SPRING_OK && rig.set_ik_target(0, {5, -15}).ok());
			ENSURE(spring_rig_set_chain_mix(c, 0, 0.5f) == SPRING_OK && rig.set_chain_mix(0, 0.5f).ok());
			ENSURE(spring_rig_set_time_scale(c, 1.5f) == SPRING_OK && rig.set_time_scale(1.5f).ok());
		}
		if (frame == 80) {
			ENSURE(spring_rig_clear_ik_target(c, 0) == SPRING_OK && rig.clear_ik_target(0).ok());
			ENSURE(spring_rig_set_ik_mix(c, 0, 0.3f) == SPRING_OK && rig.set_ik_mix(0, 0.3f).ok());
			ENSURE(spring_rig_teleport(c, scene_xform2(30, 0, 0.2f)) == SPRING_OK &&
			       rig.teleport(scene_xform2(30, 0, 0.2f)).ok());
			ENSURE(spring_rig_play_named(c, "walk", 0.7f) == SPRING_OK && rig.play_named("walk", 0.7f).ok());
		}
		if (frame == 120) {
			ENSURE(spring_rig_set_paused(c, true) == SPRING_OK && rig.set_paused(true).ok());
		}
		if (frame == 130) {
			ENSURE(spring_rig_set_paused(c, false) == SPRING_OK && rig.set_paused(false).ok());
			ENSURE(spring_rig_reset(c) == SPRING_OK && rig.reset().ok());
		}
		ENSURE(spring_rig_set_root(c, root) == SPRING_OK && rig.set_root(root).ok());
		ENSURE(spring_rig_update(c, frame_dt(frame)) == SPRING_OK && rig.update(frame_dt(frame)).ok());
		spring_xform2 cw[rig_bone_count], xw[rig_bone_count];
		ENSURE(spring_rig_get_world(c, cw, rig_bone_count) == SPRING_OK && rig.get_pose(xw).ok() &&
		       same_bytes(cw, xw, rig_bone_count));
		ENSURE(spring_rig_get_local(c, cw, rig_bone_count) == SPRING_OK && rig.get_local(xw).ok() &&
		       same_bytes(cw, xw, rig_bone_count));
		ENSURE(spring_rig_get_stepped_world(c, cw, rig_bone_count) == SPRING_OK && rig.get_stepped_world(xw).ok() &&
		       same_bytes(cw, xw, rig_bone_count));
		ENSURE(spring_rig_get_stepped_local(c, cw, rig_bone_count) == SPRING_OK && rig.get_stepped_local(xw).ok() &&
		       same_bytes(cw, xw, rig_bone_count));
		ENSURE(spring_rig_get_base_world(c, cw, rig_bone_count) == SPRING_OK && rig.get_base_world(xw).ok() &&
		       same_bytes(cw, xw, rig_bone_count));
		ENSURE(spring_rig_sample_clip(c, 0, 0.3f, cw, rig_bone_count) == SPRING_OK && rig.sample_clip(0, 0.3f, xw).ok() &&
		       same_bytes(cw, xw, rig_bone_count));
		spring_rig_event ce[4], xe[4];
		int c_total = -1, x_total = -2;
		int written = rig.get_events(xe, &x_total);
		ENSURE(spring_rig_get_events(c, ce, 4, &c_total) == written && c_total == x_total);
		for (int i = 0; i < written; i++) {
			ENSURE(std::strcmp(ce[i].name, xe[i].name) == 0 && same_bytes(ce[i].value, xe[i].value, 2));
		}
		events_seen += written;
		ENSURE(rig.is_resting() == spring_rig_is_resting(c) && rig.chain_is_resting(1) == spring_rig_chain_is_resting(c, 1));
		ENSURE(rig.time() == spring_rig_time(c));
	}
	ENSURE(events_seen > 0 && counter.allocs == allocs);
	ENSURE(same_state(c, rig, spring_rig_snapshot_size, spring_rig_snapshot));
	ENSURE(same_bytes(rig.clock(), spring_rig_clock(c), 1));

	ENSURE(check_refusal(rig, SPRING_ERROR_NOT_FINITE, [&] { return rig.update(nan_dt); }) == 0);
	ENSURE(check_refusal(rig, SPRING_ERROR_INVALID_ARGUMENT, [&] { return rig.play_named("run", 0.0f); }) == 0);
	spring_xform2 far = scene_xform2(998990.0f, 0.0f, 0.0f);
	spring_error c_error = {};
	spring_result far_code = spring_rig_check_root(c, far, &c_error);
	ENSURE_MSG(far_code == SPRING_ERROR_OUT_OF_RANGE && c_error.message[0] != 0, "%d %s", static_cast<int>(far_code),
	           c_error.message);
	spring::expected<void> checked = rig.check_root(far);
	ENSURE(!checked && checked.code() == far_code && std::strcmp(checked.message(), c_error.message) == 0);
	ENSURE(check_refusal(rig, far_code, [&] { return rig.set_root(far); }) == 0);
	ENSURE(rig.check_root(spring_xform2_identity()).ok());
	guarded<spring_xform2, rig_bone_count> world;
	ENSURE(rig.get_pose({world.data, rig_bone_count - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL);
	ENSURE(rig.sample_clip(0, 0.0f, {world.data, rig_bone_count - 1}).code() == SPRING_ERROR_BUFFER_TOO_SMALL &&
	       world.untouched());
	ENSURE(rig.get_pose({world.data, 4}).needed() == rig_bone_count && rig.get_local({world.data, 4}).needed() == rig_bone_count);
	ENSURE(rig.get_stepped_world({world.data, 4}).needed() == rig_bone_count && rig.get_base_world({}).needed() == 0);
#if defined(__cpp_exceptions)
	try {
		rig.get_pose({world.data, 4}).check();
		ENSURE(!"a too-small pose array threw nothing");
	} catch (const spring::error &e) {
		const std::string needed = "(" + std::to_string(rig_bone_count) + " entries needed)";
		ENSURE(e.code() == SPRING_ERROR_BUFFER_TOO_SMALL && std::strstr(e.what(), needed.c_str()) &&
		       std::strcmp(e.detail().message, e.what()) == 0);
	}
#endif
	ENSURE(world.untouched());
	ENSURE(rig.get_pose(world.data).ok() && !world.untouched());
	ENSURE(check_restore(c, rig, spring_rig_restore) == 0);

	spring_rig_desc bad = desc;
	spring_rig_bone_desc bad_bones[rig_bone_count];
	std::memcpy(bad_bones, desc.bones, sizeof bad_bones);
	bad_bones[5].parent = "uper";
	bad.bones = bad_bones;
	ENSURE((check_bad_desc<spring::rig>(bad, spring_rig_create)) == 0);
	ENSURE(check_moves(std::move(rig), *spring::rig::create(desc), counter) == 0);
	return 0;
}

// --- values: motion and batch --------------------------------------------------------------

static int test_motion(void)
{
	spring_motion_desc desc = {};
	desc.channels = 2;
	desc.from[0] = 0.0f, desc.from[1] = 0.9f;
	desc.to[0] = 300.0f, desc.to[1] = 1.0f;
	ENSURE(spring_params_from_duration_bounce(0.4f, 0.3f, &desc.params) == SPRING_OK);
	spring_motion c;
	ENSURE(spring_motion_init(&c, &desc) == SPRING_OK);
	auto made = spring::motion::create(desc);
	ENSURE(made.ok());
	spring::motion m = *made;
	ENSURE(std::memcmp(m.get(), &c, sizeof c) == 0);
	float tap[2] = {120.0f, 1.0f}, jump[2] = {50.0f, 0.5f}, push[2] = {-400.0f, 0.0f};
	int frame = 0;
	for (; frame < 600 && !spring_motion_is_resting(&c); frame++) {
		if (frame == 10) {
			ENSURE(spring_motion_set_target(&c, tap, 2) == SPRING_OK && m.set_target(tap).ok());
		}
		if (frame == 20) {
			ENSURE(spring_motion_set_value(&c, jump, push, 2) == SPRING_OK && m.set_value(jump, push).ok());
			ENSURE(spring_motion_set_params(&c, spring_params_default()) == SPRING_OK &&
			       m.set_params(spring_params_default()).ok());
		}
		if (frame == 25) {
			ENSURE(spring_motion_set_value(&c, jump, nullptr, 2) == SPRING_OK && m.set_value(jump).ok());
		}
		ENSURE(spring_motion_update(&c, frame_dt(frame)) == SPRING_OK && m.update(frame_dt(frame)).ok());
		float cv[2], cw[2], xv[2], xw[2];
		ENSURE(spring_motion_get_value(&c, cv, cw, 2) == SPRING_OK && m.get_value(xv, xw).ok());
		ENSURE(same_bytes(cv, xv, 2) && same_bytes(cw, xw, 2) && m.is_resting() == spring_motion_is_resting(&c));
		ENSURE(m.time_to_settle() == spring_motion_time_to_settle(&c));
	}
	ENSURE(frame < 600 && m.is_resting() && std::memcmp(m.get(), &c, sizeof c) == 0);
	ENSURE(spring_motion_set_target(&c, desc.to, 2) == SPRING_OK && m.set_target({desc.to, 2}).ok());
	float cs[64], xs[64], cvs[64], xvs[64];
	int c_count = -1, x_count = -2, c_cut = -1, x_cut = -2;
	ENSURE(spring_motion_sample(&c, 1.0f / 30.0f, 2.0f, cs, cvs, 32, &c_count, &c_cut) == SPRING_OK);
	ENSURE(m.sample(1.0f / 30.0f, 2.0f, xs, xvs, x_count, &x_cut).ok());
	ENSURE(c_count == x_count && c_cut == x_cut && same_bytes(cs, xs, 2 * c_count) && same_bytes(cvs, xvs, 2 * c_count));
	ENSURE(spring_motion_sample(&c, 1.0f / 30.0f, 2.0f, cs, nullptr, 5, &c_count, &c_cut) == SPRING_OK);
	ENSURE(m.sample(1.0f / 30.0f, 2.0f, {xs, 11}, {}, x_count, &x_cut).ok()); // 11 floats: 5 samples of 2
	ENSURE(c_count == 5 && x_count == 5 && c_cut == 1 && x_cut == 1 && same_bytes(cs, xs, 10));
	ENSURE(spring_motion_sample_progress(desc.params, 0.0f, 0.01f, 3.0f, 0.0f, cs, 64, &c_count, nullptr) == SPRING_OK);
	ENSURE(spring::motion::sample_progress(desc.params, 0.0f, 0.01f, 3.0f, 0.0f, xs, x_count).ok());
	ENSURE(c_count == x_count && same_bytes(cs, xs, c_count));

	spring::motion copy = m; // a value: copies are the state
	ENSURE(std::memcmp(copy.get(), m.get(), sizeof c) == 0);
	ENSURE(check_refusal(m, SPRING_ERROR_NOT_FINITE, [&] { return m.update(nan_dt); }) == 0);
	ENSURE(check_refusal(m, SPRING_ERROR_INVALID_ARGUMENT, [&] { return m.set_target({tap, 1}); }) == 0);
	ENSURE(check_refusal(m, SPRING_ERROR_INVALID_ARGUMENT, [&] { return m.set_value(jump, {push, 1}); }) == 0);
	guarded<float, 2> value;
	ENSURE(m.get_value({value.data, 3}).code() == SPRING_ERROR_INVALID_ARGUMENT && value.untouched());
	ENSURE(m.get_value({value.data, 1}).ok() && !value.untouched()); // the first channel only
	ENSURE(check_restore(&c, m, spring_motion_restore) == 0);

	spring_motion_desc bad = desc;
	bad.channels = 0;
	spring_result code = spring_motion_init(&c, &bad);
	ENSURE(code == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(check_refused(spring::motion::create(bad), code, spring_result_string(code)) == 0);
#if defined(__cpp_exceptions)
	ENSURE((check_throws<spring::motion>(bad, code, spring_result_string(code))) == 0);
	spring::motion thrown_form{desc};
	ENSURE(thrown_form.get()->channels == 2);
#endif
	return 0;
}

static int test_batch(void)
{
	enum { count = 37 };
	float cx[count], cv[count], xx[count], xv[count], target[count];
	for (int i = 0; i < count; i++) {
		cx[i] = xx[i] = static_cast<float>(i) - 10.0f;
		cv[i] = xv[i] = 0.5f * static_cast<float>(i % 5);
		target[i] = static_cast<float>(i % 3);
	}
	spring_batch_desc desc = {};
	desc.x = cx, desc.v = cv, desc.target = target, desc.count = count;
	desc.rest_delta = 1e-3f, desc.rest_speed = 1e-2f;
	spring_batch c;
	ENSURE(spring_batch_init(&c, &desc) == SPRING_OK);
	desc.x = xx, desc.v = xv;
	spring::batch b = *spring::batch::create(desc);
	ENSURE(b.get()->count == count);
	spring_params p;
	ENSURE(spring_params_from_frequency(1.5f, 0.4f, &p) == SPRING_OK);
	for (int frame = 0; frame < 100; frame++) {
		int c_bad = -2, x_bad = -3;
		if (frame == 30) {
			ENSURE(spring_batch_set_params(&c, p, 1.0f / 90.0f) == SPRING_OK && b.set_params(p, 1.0f / 90.0f).ok());
		}
		if (frame % 3 == 0) {
			ENSURE(spring_batch_step(&c, &c_bad) == SPRING_OK && b.step(&x_bad).ok());
		} else if (frame % 3 == 1) {
			ENSURE(spring_batch_step_range(&c, 5, 20, &c_bad) == SPRING_OK && b.step_range(5, 20, &x_bad).ok());
		} else {
			ENSURE(spring_batch_step_n(&c, 3, 30, 4, &c_bad) == SPRING_OK && b.step_n(3, 30, 4, &x_bad).ok());
		}
		ENSURE(c_bad == x_bad && same_bytes(cx, xx, count) && same_bytes(cv, xv, count));
		ENSURE(b.count_resting(0, count) == spring_batch_count_resting(&c, 0, count));
	}
	// a refused spring: the same code and index, that spring untouched, the others stepped
	cx[11] = xx[11] = NAN;
	int c_bad = -2, x_bad = -3;
	spring_result code = spring_batch_step(&c, &c_bad);
	spring::status s = b.step(&x_bad);
	ENSURE(code == SPRING_ERROR_NOT_FINITE && s.code() == code && c_bad == 11 && x_bad == 11);
	ENSURE(same_bytes(cx, xx, count) && same_bytes(cv, xv, count) && std::isnan(xx[11]));
	spring_batch before = *b.get();
	ENSURE(b.set_params(p, nan_dt).code() == SPRING_ERROR_NOT_FINITE && std::memcmp(&before, b.get(), sizeof before) == 0);
	ENSURE(b.step_range(30, 8).code() == SPRING_ERROR_INVALID_ARGUMENT);
#if defined(__cpp_exceptions)
	ENSURE(check_status_throws(b.set_params(p, nan_dt), SPRING_ERROR_NOT_FINITE) == 0);
#endif

	spring_batch_desc bad = desc;
	bad.count = -1;
	code = spring_batch_init(&c, &bad);
	ENSURE(code == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(check_refused(spring::batch::create(bad), code, spring_result_string(code)) == 0);
#if defined(__cpp_exceptions)
	ENSURE((check_throws<spring::batch>(bad, code, spring_result_string(code))) == 0);
#endif
	return 0;
}

// --- skeleton ------------------------------------------------------------------------------

// A hair strand of three bones under a head, a sphere collider on the head.
static int test_skeleton(void)
{
	spring_skeleton_node nodes[5] = {};
	const float drop[5] = {1.0f, 0.2f, -0.1f, -0.1f, -0.1f};
	for (int i = 0; i < 5; i++) {
		nodes[i].parent = i - 1;
		nodes[i].translation = spring_vec3_make(0.0f, drop[i], 0.0f);
	}
	spring_skeleton_joint joints[4] = {};
	for (int k = 0; k < 4; k++) {
		joints[k].node = k + 1;
		joints[k].stiffness = 1.0f;
		joints[k].drag = 0.4f;
		joints[k].gravity_power = 0.3f;
		joints[k].gravity_dir = spring_vec3_make(1.0f, 0.0f, 0.0f);
		joints[k].hit_radius = 0.01f;
	}
	spring_skeleton_collider collider = {1, SPRING_SKELETON_COLLIDER_SPHERE, {0.0f, 0.1f, 0.0f}, {0, 0, 0}, 0.05f};
	int members[1] = {0}, groups[1] = {0};
	spring_skeleton_collider_group group = {members, 1};
	spring_skeleton_spring spring = {joints + 1, 3, false, {0, 0, 0}, -1, groups, 1};
	spring_skeleton_desc desc = {nodes, 5, &spring, 1, &collider, 1, &group, 1, 0.0f, SPRING_SKELETON_LENGTH_REST};
	c_object<spring_skeleton, spring_skeleton_destroy> owned_c;
	spring_error why = {};
	ENSURE_MSG(spring_skeleton_create(&desc, &owned_c.object, &why) == SPRING_OK, "%s", why.message);
	spring_skeleton *c = owned_c.object;
	spring::skeleton sk = *spring::skeleton::create(desc);
	ENSURE(sk && sk.bone_count() == 2);
	spring_xform3 locals[5];
	for (int i = 0; i < 5; i++) {
		locals[i] = {nodes[i].translation, spring_quat_identity()};
	}
	for (int frame = 0; frame < 120; frame++) {
		spring_xform3 root = spring_xform3_identity();
		root.position.x = 0.2f * std::sin(0.1f * static_cast<float>(frame));
		if (frame == 60) {
			ENSURE(spring_skeleton_teleport(c, root, locals, 5) == SPRING_OK && sk.teleport(root, locals).ok());
		}
		ENSURE(spring_skeleton_update(c, root, locals, 5, frame_dt(frame)) == SPRING_OK &&
		       sk.update(root, locals, frame_dt(frame)).ok());
		int cn[2], xn[2];
		spring_quat cq[2], xq[2];
		spring_vec3 ct[2], xt[2];
		ENSURE(spring_skeleton_get_pose(c, cn, cq, ct, 2) == SPRING_OK && sk.get_pose(xn, xq, xt).ok());
		ENSURE(same_bytes(cn, xn, 2) && same_bytes(cq, xq, 2) && same_bytes(ct, xt, 2));
		ENSURE(spring_skeleton_get_stepped_pose(c, nullptr, nullptr, ct, 2) == SPRING_OK &&
		       sk.get_stepped_pose({}, {}, xt).ok() && same_bytes(ct, xt, 2));
		ENSURE(sk.is_resting() == spring_skeleton_is_resting(c) && sk.clock()->time == spring_skeleton_clock(c)->time);
	}
	// Too small: BUFFER_TOO_SMALL with the count needed; a wrong pose: the C code.
	spring_vec3 one[1];
	spring::status small = sk.get_pose({}, {}, one);
	ENSURE(small.code() == SPRING_ERROR_BUFFER_TOO_SMALL && small.needed() == 2);
	float lengths[2];
	ENSURE(sk.get_rest_lengths(lengths).ok() && lengths[0] == 0.1f);
	ENSURE(sk.update(spring_xform3_identity(), spring::span<const spring_xform3>(locals, 4), 0.1f).code() ==
	       SPRING_ERROR_INVALID_ARGUMENT);
	// Snapshots through the owner, and the description's refusal with its location.
	std::vector<unsigned char> blob(sk.snapshot_size());
	ENSURE(sk.snapshot(blob).ok() && sk.restore(blob.data(), blob.size()).ok());
	// A crowd of three through its owner, byte for byte the C calls: every instance its own root.
	spring_skeleton_crowd_desc crowd_desc = {&desc, 3};
	c_object<spring_skeleton_crowd, spring_skeleton_crowd_destroy> owned_crowd;
	ENSURE(spring_skeleton_crowd_create(&crowd_desc, &owned_crowd.object, &why) == SPRING_OK);
	spring::skeleton_crowd crowd = *spring::skeleton_crowd::create(crowd_desc);
	ENSURE(crowd && crowd.count() == 3 && crowd.bone_count() == 2);
	spring_xform3 roots[3], all_locals[15];
	for (int i = 0; i < 15; i++) {
		all_locals[i] = locals[i % 5];
	}
	for (int frame = 0; frame < 60; frame++) {
		for (int i = 0; i < 3; i++) {
			roots[i] = spring_xform3_identity();
			roots[i].position.x = 0.2f * std::sin(0.1f * static_cast<float>(frame) + static_cast<float>(i));
		}
		if (frame == 30) {
			ENSURE(spring_skeleton_crowd_teleport(owned_crowd.object, 1, roots[1], locals, 5) == SPRING_OK &&
			       crowd.teleport(1, roots[1], locals).ok());
		}
		ENSURE(spring_skeleton_crowd_update(owned_crowd.object, roots, all_locals, 5, frame_dt(frame)) == SPRING_OK &&
		       crowd.update(roots, all_locals, frame_dt(frame)).ok());
		for (int i = 0; i < 3; i++) {
			spring_quat cq[2], xq[2];
			spring_vec3 ct[2], xt[2];
			ENSURE(spring_skeleton_crowd_get_pose(owned_crowd.object, i, nullptr, cq, ct, 2) == SPRING_OK &&
			       crowd.get_pose(i, {}, xq, xt).ok() && same_bytes(cq, xq, 2) && same_bytes(ct, xt, 2));
			ENSURE(spring_skeleton_crowd_get_stepped_pose(owned_crowd.object, i, nullptr, nullptr, ct, 2) == SPRING_OK &&
			       crowd.get_stepped_pose(i, {}, {}, xt).ok() && same_bytes(ct, xt, 2));
			ENSURE(crowd.is_resting(i) == spring_skeleton_crowd_is_resting(owned_crowd.object, i));
		}
	}
	ENSURE(crowd.get_pose(0, {}, {}, one).needed() == 2);
	// Spans that do not fit three instances of five nodes: refused.
	ENSURE(crowd.update(spring::span<const spring_xform3>(roots, 2), all_locals, 0.1f).code() == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(crowd.update(roots, spring::span<const spring_xform3>(all_locals, 14), 0.1f).code() == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(crowd.reset(roots, spring::span<const spring_xform3>(all_locals, 12)).code() == SPRING_ERROR_INVALID_ARGUMENT);
	ENSURE(crowd.reset(roots, all_locals).ok() && crowd.is_resting(2) && crowd.reset_instance(2, roots[2], locals).ok());
	std::vector<unsigned char> crowd_blob(crowd.snapshot_size());
	ENSURE(crowd.snapshot(crowd_blob).ok() && crowd.restore(crowd_blob.data(), crowd_blob.size()).ok());
	crowd_desc.count = 0;
	auto no_crowd = spring::skeleton_crowd::create(crowd_desc);
	ENSURE(!no_crowd && no_crowd.code() == SPRING_ERROR_OUT_OF_RANGE);
	joints[2].drag = 2.0f;
	auto refused = spring::skeleton::create(desc);
	ENSURE(!refused && refused.code() == SPRING_ERROR_OUT_OF_RANGE && std::strstr(refused.message(), "spring 0: joint 1"));
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	RUN_TEST(test_span_sources);
	RUN_TEST(test_chain2d);
	RUN_TEST(test_chain);
	RUN_TEST(test_chain_group);
	RUN_TEST(test_chain2d_group);
	RUN_TEST(test_rig);
	RUN_TEST(test_skeleton);
	RUN_TEST(test_motion);
	RUN_TEST(test_batch);
	return TEST_SUMMARY();
}
