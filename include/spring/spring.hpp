// SPDX-License-Identifier: MIT
/// @file spring.hpp
/// The C++17 face of libspring, header-only: owners for every object the C API creates, array
/// arguments as spans, errors as values or as exceptions by the caller's choice.
///
/// - Owners (`spring::chain2d`, `chain`, `chain_group`, `chain2d_group`, `rig`) hold the pointer a
///   `spring_*_create` returned and call `spring_*_destroy` when they go: move-only, a moved-from
///   owner is empty (`get()` is NULL) and its destructor does nothing. `spring::motion` and
///   `spring::batch` wrap the C values of the same names (`spring_motion_init`,
///   `spring_batch_init` allocate nothing), so they copy like the C structs do.
/// - Every member function is one C call with the same meaning: every check stays in the C
///   function (an invalid call returns its code and changes nothing, exactly as in C).
/// - Errors as values: a fallible call returns `spring::status` (the `spring_result`), a factory
///   or a call that fills a `spring_error` returns `spring::expected<T>` (the object or the
///   error with its message). Both are [[nodiscard]]. Exceptions, where the build has them
///   (`__cpp_exceptions`): `status::check()`, `expected<T>::value()` and the owners' constructors
///   from a description throw `spring::error` (a std::runtime_error with the code, the
///   `spring_error` and its message). With -fno-exceptions the non-throwing API is all there is.
/// - Spans: `spring::span<T>` (a pointer and a size, made from a C array, std::array,
///   std::vector or any container with data() and size(), or a pointer and a count) carries an
///   output's capacity or an input's count to the C call. Sizes past INT_MAX are passed as
///   INT_MAX (the buffer holds at least that many).
/// - Nothing allocates beyond the C API's own `*_create` (the throwing path allocates what any
///   thrown exception does); every function is inline and costs the C call.
///
/// Names: every method is the C function's name without its prefix (docs/api-contract.md): every
/// object has `update`, `is_resting`, `get_pose` (a motion `get_value` beside `set_value`),
/// `reset`, `teleport`, `snapshot`/`restore`; `get()` is the raw C object everywhere.
///
/// ```cpp
/// spring_chain2d_segment tail[6] = {};
/// for (auto &s : tail)
///     s.length = 15.0f;
/// spring_chain2d_desc desc = {};
/// desc.segment_count = 6;
/// desc.segments = tail;
/// auto made = spring::chain2d::create(desc);   // or spring::chain2d chain{desc}; (throws)
/// if (!made)
///     std::puts(made.message());               // "chain2d: segment 2: length must be ..."
/// spring::chain2d chain = std::move(*made);
/// spring_xform2 joints[7];
/// if (chain.update(spring_xform2_identity(), 1.0f / 60.0f).ok())
///     (void)chain.get_pose(joints);            // capacity 7 passed for you
/// ```
#ifndef SPRING_SPRING_HPP
#define SPRING_SPRING_HPP

#if !defined(__cplusplus) || (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "spring/spring.hpp needs C++17"
#endif

#include "batch.h"
#include "motion.h"
#include "rig.h"
#include "skeleton.h"

#include <climits>
#include <cstddef>
#include <cstdio>
#include <type_traits>
#include <utility>
#if defined(__cpp_exceptions)
#include <stdexcept>
#include <string>
#endif

namespace spring {

/// A view of `size()` contiguous T: a pointer and a count, nothing owned (C++17 has no
/// std::span). Default-constructed: NULL and 0, which the C calls read as "not wanted" where an
/// output is optional.
template <class T> class span {
public:
	constexpr span() noexcept = default;
	constexpr span(T *data, std::size_t size) noexcept : data_(data), size_(size)
	{
	}
	template <std::size_t N> constexpr span(T (&array)[N]) noexcept : data_(array), size_(N)
	{
	}
	/// From std::array, std::vector, another span (span<float> -> span<const float>), anything
	/// whose data() points to T (or to a T with fewer qualifiers) and which has size().
	template <class C, class P = decltype(std::declval<C &>().data()),
	          class = std::enable_if_t<!std::is_array_v<C> && std::is_pointer_v<P> &&
	                                   std::is_convertible_v<std::remove_pointer_t<P> (*)[], T (*)[]>>>
	constexpr span(C &c) noexcept : data_(c.data()), size_(static_cast<std::size_t>(c.size()))
	{
	}
	constexpr T *data() const noexcept
	{
		return data_;
	}
	constexpr std::size_t size() const noexcept
	{
		return size_;
	}
	constexpr bool empty() const noexcept
	{
		return size_ == 0;
	}
	constexpr T *begin() const noexcept
	{
		return data_;
	}
	constexpr T *end() const noexcept
	{
		return data_ + size_;
	}
	constexpr T &operator[](std::size_t i) const noexcept
	{
		return data_[i];
	}

private:
	T *data_ = nullptr;
	std::size_t size_ = 0;
};

/// The outcome of a call that returns a spring_result: SPRING_OK or the reason nothing changed.
class [[nodiscard]] status {
public:
	constexpr status(spring_result code = SPRING_OK) noexcept : code_(code)
	{
	}
	/// A getter's outcome: `needed` (the entries its output must hold) is kept only with
	/// SPRING_ERROR_BUFFER_TOO_SMALL.
	constexpr status(spring_result code, long long needed) noexcept
		: code_(code), needed_(code == SPRING_ERROR_BUFFER_TOO_SMALL ? needed : 0)
	{
	}
	constexpr bool ok() const noexcept
	{
		return code_ == SPRING_OK;
	}
	constexpr explicit operator bool() const noexcept
	{
		return ok();
	}
	constexpr spring_result code() const noexcept
	{
		return code_;
	}
	/// spring_result_string of the code: a sentence, never NULL.
	const char *message() const noexcept
	{
		return spring_result_string(code_);
	}
	/// For SPRING_ERROR_BUFFER_TOO_SMALL: the entries the output needed (the thrown error's
	/// message says it too); 0 for any other code.
	constexpr long long needed() const noexcept
	{
		return needed_;
	}
#if defined(__cpp_exceptions)
	/// Throws spring::error unless ok().
	inline void check() const;
#endif

private:
	spring_result code_;
	long long needed_ = 0;
};

namespace detail {
/// The sentence for a refusal: the spring_error's message where the C call wrote one, else the
/// code's sentence.
inline const char *message(spring_result code, const spring_error &error) noexcept
{
	return error.message[0] != '\0' ? error.message : spring_result_string(code);
}
} // namespace detail

#if defined(__cpp_exceptions)
/// What the throwing forms throw: the code, the spring_error the C call filled (for calls that
/// fill none, only its `result`) and, as what(), its message.
class error : public std::runtime_error {
public:
	explicit error(const spring_error &fault) : std::runtime_error(detail::message(fault.result, fault)), detail_(fault)
	{
	}
	explicit error(spring_result code) : std::runtime_error(spring_result_string(code)), detail_()
	{
		detail_.result = code;
	}
	/// A getter's too-small output: the message names the entries it needed.
	error(spring_result code, long long needed) : std::runtime_error(sized(code, needed)), detail_()
	{
		detail_.result = code;
		std::snprintf(detail_.message, sizeof detail_.message, "%s", what());
	}
	spring_result code() const noexcept
	{
		return detail_.result;
	}
	const spring_error &detail() const noexcept
	{
		return detail_;
	}

private:
	static std::string sized(spring_result code, long long needed)
	{
		std::string text = spring_result_string(code);
		if (code == SPRING_ERROR_BUFFER_TOO_SMALL) {
			text += " (" + std::to_string(needed) + " entries needed)";
		}
		return text;
	}
	spring_error detail_;
};

inline void status::check() const
{
	if (!ok()) {
		throw error(code_, needed_);
	}
}
#endif

namespace detail {
/// What every spring::expected holds: ok, or the code with the element, field and message of
/// the fault.
class outcome {
public:
	outcome(spring_result code, const spring_error &fault) noexcept : error_(fault)
	{
		error_.result = code;
	}
	bool ok() const noexcept
	{
		return error_.result == SPRING_OK;
	}
	explicit operator bool() const noexcept
	{
		return ok();
	}
	spring_result code() const noexcept
	{
		return error_.result;
	}
	/// The spring_error as the C call left it (zero but `result` when the call fills none).
	const spring_error &error() const noexcept
	{
		return error_;
	}
	/// The spring_error's message, or the code's sentence when it has none; "" never.
	const char *message() const noexcept
	{
		return detail::message(error_.result, error_);
	}
#if defined(__cpp_exceptions)
	/// Throws spring::error (with this error) unless ok().
	void check() const
	{
		if (!ok()) {
			throw spring::error(error_);
		}
	}
#endif

private:
	spring_error error_;
};
} // namespace detail

/// A factory's outcome: the object, or the code and spring_error of the refusal (the object is
/// then empty). `*` and `->` reach the object (only when ok()); value() throws when not ok.
template <class T> class [[nodiscard]] expected : public detail::outcome {
public:
	expected(T value, spring_result code, const spring_error &fault) noexcept
		: detail::outcome(code, fault), value_(std::move(value))
	{
	}
	T &operator*() &
	{
		return value_;
	}
	T &&operator*() &&
	{
		return std::move(value_);
	}
	const T &operator*() const &
	{
		return value_;
	}
	T *operator->() noexcept
	{
		return &value_;
	}
	const T *operator->() const noexcept
	{
		return &value_;
	}
#if defined(__cpp_exceptions)
	T &value() &
	{
		check();
		return value_;
	}
	T &&value() &&
	{
		check();
		return std::move(value_);
	}
#endif

private:
	T value_;
};

/// The outcome of a call that fills a spring_error (restore, spring_rig_check_root): ok, or the
/// code with the element, field and message of the fault.
template <> class [[nodiscard]] expected<void> : public detail::outcome {
public:
	using outcome::outcome;
};

namespace detail {
/// A C capacity or count from a size: at most INT_MAX.
constexpr int count(std::size_t size) noexcept
{
	return size > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(size);
}

/// The one capacity a C call takes for two optional outputs: the first needs `extra` more
/// entries than the second (an angle chain's joints: one per segment and the tip; its local
/// angles: one per segment), so both hold what the call writes whenever the C check passes.
/// A NULL output does not count.
template <class A, class B> constexpr int capacity(span<A> a, span<B> b, std::size_t extra) noexcept
{
	if (!a.data()) {
		return count(b.size());
	}
	if (!b.data()) {
		return count(a.size());
	}
	return count(a.size() < b.size() + extra ? a.size() : b.size() + extra);
}

/// The one capacity of three optional outputs of one entry a bone each (a skeleton's nodes,
/// rotations and tails): the smallest given; a NULL output does not count.
template <class A, class B, class C> inline int capacity3(span<A> a, span<B> b, span<C> c) noexcept
{
	std::size_t n = SIZE_MAX;
	n = a.data() && a.size() < n ? a.size() : n;
	n = b.data() && b.size() < n ? b.size() : n;
	n = c.data() && c.size() < n ? c.size() : n;
	return n == SIZE_MAX ? 0 : count(n);
}

/// The pointer a `spring_*_create` made, destroyed with it: move-only, empty when moved from.
/// The C destroy functions do nothing for NULL.
template <class T, void (*Destroy)(T *)> class handle {
public:
	handle() noexcept = default;
	/// Adopts `object` (from the matching `spring_*_create`, or a reader such as
	/// spring_rig_load_file): destroyed with the owner.
	explicit handle(T *object) noexcept : object_(object)
	{
	}
	handle(handle &&other) noexcept : object_(std::exchange(other.object_, nullptr))
	{
	}
	handle &operator=(handle &&other) noexcept
	{
		if (this != &other) {
			Destroy(std::exchange(object_, std::exchange(other.object_, nullptr)));
		}
		return *this;
	}
	handle(const handle &) = delete;
	handle &operator=(const handle &) = delete;
	~handle()
	{
		Destroy(object_);
	}
	/// The C object, for every C call (NULL when empty).
	T *get() const noexcept
	{
		return object_;
	}
	/// Gives the object up: the caller destroys it.
	T *release() noexcept
	{
		return std::exchange(object_, nullptr);
	}
	explicit operator bool() const noexcept
	{
		return object_ != nullptr;
	}

private:
	T *object_ = nullptr;
};

/// An owner made by a `spring_*_create(desc, &out, &error)`.
template <class Owner, class Desc, class T>
expected<Owner> create(spring_result (*fn)(const Desc *, T **, spring_error *), const Desc &desc) noexcept
{
	spring_error error = {};
	T *object = nullptr;
	spring_result code = fn(&desc, &object, &error);
	return expected<Owner>(Owner(object), code, error);
}

/// Snapshots (base.h) of an object, for every kind: snapshot_size, snapshot into a blob,
/// restore from one. `Derived::get()` gives the C object.
template <class Derived, class T, std::size_t (*Size)(const T *), spring_result (*Snapshot)(const T *, void *, std::size_t),
          spring_result (*Restore)(T *, const void *, std::size_t, spring_error *)>
class snapshots {
public:
	std::size_t snapshot_size() const noexcept
	{
		return Size(self());
	}
	status snapshot(void *blob, std::size_t size) const noexcept
	{
		return Snapshot(self(), blob, size);
	}
	status snapshot(span<unsigned char> blob) const noexcept
	{
		return Snapshot(self(), blob.data(), blob.size());
	}
	/// A refused blob changes nothing; the error names the element and field at fault.
	expected<void> restore(const void *blob, std::size_t size) noexcept
	{
		spring_error error = {};
		spring_result code = Restore(self(), blob, size, &error);
		return expected<void>(code, error);
	}
	expected<void> restore(span<const unsigned char> blob) noexcept
	{
		return restore(blob.data(), blob.size());
	}

private:
	const T *self() const noexcept
	{
		return static_cast<const Derived *>(this)->get();
	}
	T *self() noexcept
	{
		return static_cast<Derived *>(this)->get();
	}
};
} // namespace detail

/// An angle chain (spring_chain2d, chain.h): one angle spring per segment.
class chain2d : public detail::handle<spring_chain2d, spring_chain2d_destroy>,
				public detail::snapshots<chain2d, spring_chain2d, spring_chain2d_snapshot_size, spring_chain2d_snapshot,
                                         spring_chain2d_restore> {
public:
	using handle::handle;
	chain2d() noexcept = default;
	/// spring_chain2d_create: the chain, or the refusal with the segment and field at fault.
	static expected<chain2d> create(const spring_chain2d_desc &desc) noexcept
	{
		return detail::create<chain2d>(spring_chain2d_create, desc);
	}
#if defined(__cpp_exceptions)
	/// spring_chain2d_create; throws spring::error on a refusal.
	explicit chain2d(const spring_chain2d_desc &desc) : chain2d(create(desc).value())
	{
	}
#endif
	status update(spring_xform2 root, float frame_dt) noexcept
	{
		return spring_chain2d_update(get(), root, frame_dt);
	}
	/// `local_offsets` holds one offset per segment (its size is the C count).
	status set_animation(span<const float> local_offsets) noexcept
	{
		return spring_chain2d_set_animation(get(), local_offsets.data(), detail::count(local_offsets.size()));
	}
	status clear_animation() noexcept
	{
		return spring_chain2d_set_animation(get(), nullptr, 0);
	}
	status reset(spring_xform2 root) noexcept
	{
		return spring_chain2d_reset(get(), root);
	}
	status teleport(spring_xform2 root) noexcept
	{
		return spring_chain2d_teleport(get(), root);
	}
	status translate(spring_vec2 delta) noexcept
	{
		return spring_chain2d_translate(get(), delta);
	}
	status rotate(float angle, spring_vec2 pivot) noexcept
	{
		return spring_chain2d_rotate(get(), angle, pivot);
	}
	status set_params(int segment, spring_params params) noexcept
	{
		return spring_chain2d_set_params(get(), segment, params);
	}
	status set_limit(int segment, float limit) noexcept
	{
		return spring_chain2d_set_limit(get(), segment, limit);
	}
	status set_forces(spring_vec2 gravity, spring_vec2 wind) noexcept
	{
		return spring_chain2d_set_forces(get(), gravity, wind);
	}
	status set_inertia(int segment, float inertia) noexcept
	{
		return spring_chain2d_set_inertia(get(), segment, inertia);
	}
	status set_root_limits(float max_root_speed, float max_root_angular_speed) noexcept
	{
		return spring_chain2d_set_root_limits(get(), max_root_speed, max_root_angular_speed);
	}
	bool is_resting() const noexcept
	{
		return spring_chain2d_is_resting(get());
	}
	int segment_count() const noexcept
	{
		return spring_chain2d_segment_count(get());
	}
	/// `joints` (segment_count + 1) and/or `local_angles` (segment_count); an empty span is not
	/// wanted. Too small: the C call's BUFFER_TOO_SMALL (status::needed() says how many), nothing
	/// written.
	status get_pose(span<spring_xform2> joints, span<float> local_angles = {}) const noexcept
	{
		return {spring_chain2d_get_pose(get(), joints.data(), local_angles.data(), detail::capacity(joints, local_angles, 1)),
		        segment_count() + (joints.data() ? 1 : 0)};
	}
	status get_state(int segment, spring_state &world_angle) const noexcept
	{
		return spring_chain2d_get_state(get(), segment, &world_angle);
	}
	float get_target(int segment) const noexcept
	{
		return spring_chain2d_get_target(get(), segment);
	}
	const spring_clock *clock() const noexcept
	{
		return spring_chain2d_clock(get());
	}
};

/// A tip chain (spring_chain, chain.h): tip springs, 3D or 2D.
class chain
	: public detail::handle<spring_chain, spring_chain_destroy>,
	  public detail::snapshots<chain, spring_chain, spring_chain_snapshot_size, spring_chain_snapshot, spring_chain_restore> {
public:
	using handle::handle;
	chain() noexcept = default;
	/// spring_chain_create: the chain, or the refusal with the bone and field at fault.
	static expected<chain> create(const spring_chain_desc &desc) noexcept
	{
		return detail::create<chain>(spring_chain_create, desc);
	}
#if defined(__cpp_exceptions)
	/// spring_chain_create; throws spring::error on a refusal.
	explicit chain(const spring_chain_desc &desc) : chain(create(desc).value())
	{
	}
#endif
	status update(spring_xform3 root, float frame_dt) noexcept
	{
		return spring_chain_update(get(), root, frame_dt);
	}
	/// spring_chain_update_many: chains[i] follows roots[i] (chains.size() of each).
	static status update_many(span<spring_chain *const> chains, const spring_xform3 *roots, float frame_dt) noexcept
	{
		return spring_chain_update_many(chains.data(), roots, detail::count(chains.size()), frame_dt);
	}
	status reset(spring_xform3 root) noexcept
	{
		return spring_chain_reset(get(), root);
	}
	status teleport(spring_xform3 root) noexcept
	{
		return spring_chain_teleport(get(), root);
	}
	status translate(spring_vec3 delta) noexcept
	{
		return spring_chain_translate(get(), delta);
	}
	status rotate(spring_quat rotation, spring_vec3 pivot) noexcept
	{
		return spring_chain_rotate(get(), rotation, pivot);
	}
	/// `local` holds one transform per bone (its size is the C count).
	status set_animation(span<const spring_xform3> local) noexcept
	{
		return spring_chain_set_animation(get(), local.data(), detail::count(local.size()));
	}
	status clear_animation() noexcept
	{
		return spring_chain_set_animation(get(), nullptr, 0);
	}
	status set_params(int bone, spring_params params) noexcept
	{
		return spring_chain_set_params(get(), bone, params);
	}
	status set_cone_limit(int bone, float cone_limit) noexcept
	{
		return spring_chain_set_cone_limit(get(), bone, cone_limit);
	}
	status set_forces(spring_vec3 gravity, spring_vec3 wind) noexcept
	{
		return spring_chain_set_forces(get(), gravity, wind);
	}
	status set_bone_gravity(int bone, spring_vec3 gravity) noexcept
	{
		return spring_chain_set_bone_gravity(get(), bone, gravity);
	}
	status set_colliders(span<const spring_chain_collider> colliders) noexcept
	{
		return spring_chain_set_colliders(get(), colliders.data(), detail::count(colliders.size()));
	}
	status set_root_limits(float max_root_speed, float max_root_angular_speed) noexcept
	{
		return spring_chain_set_root_limits(get(), max_root_speed, max_root_angular_speed);
	}
	bool is_resting() const noexcept
	{
		return spring_chain_is_resting(get());
	}
	int bone_count() const noexcept
	{
		return spring_chain_bone_count(get());
	}
	/// `bones` and/or `tips`, bone_count each; an empty span is not wanted.
	status get_pose(span<spring_xform3> bones, span<spring_vec3> tips = {}) const noexcept
	{
		return {spring_chain_get_pose(get(), bones.data(), tips.data(), detail::capacity(bones, tips, 0)), bone_count()};
	}
	status get_stepped_pose(span<spring_xform3> bones, span<spring_vec3> tips = {}) const noexcept
	{
		return {spring_chain_get_stepped_pose(get(), bones.data(), tips.data(), detail::capacity(bones, tips, 0)), bone_count()};
	}
	status get_state(int bone, spring_state_vec3 &tip) const noexcept
	{
		return spring_chain_get_state(get(), bone, &tip);
	}
	spring_vec3 get_target(int bone) const noexcept
	{
		return spring_chain_get_target(get(), bone);
	}
	const spring_clock *clock() const noexcept
	{
		return spring_chain_clock(get());
	}
};

/// A spring skeleton (spring_skeleton, skeleton.h): an avatar's spring bones at their authoring rate.
class skeleton : public detail::handle<spring_skeleton, spring_skeleton_destroy>,
				 public detail::snapshots<skeleton, spring_skeleton, spring_skeleton_snapshot_size, spring_skeleton_snapshot,
                                          spring_skeleton_restore> {
public:
	using handle::handle;
	skeleton() noexcept = default;
	/// spring_skeleton_create: the skeleton, or the refusal with the node, spring, joint or
	/// collider at fault.
	static expected<skeleton> create(const spring_skeleton_desc &desc) noexcept
	{
		return detail::create<skeleton>(spring_skeleton_create, desc);
	}
#if defined(__cpp_exceptions)
	/// spring_skeleton_create; throws spring::error on a refusal.
	explicit skeleton(const spring_skeleton_desc &desc) : skeleton(create(desc).value())
	{
	}
#endif
	/// `locals`: every node's local transform (its size is the C count).
	status update(spring_xform3 root, span<const spring_xform3> locals, float frame_dt) noexcept
	{
		return spring_skeleton_update(get(), root, locals.data(), detail::count(locals.size()), frame_dt);
	}
	status reset(spring_xform3 root, span<const spring_xform3> locals) noexcept
	{
		return spring_skeleton_reset(get(), root, locals.data(), detail::count(locals.size()));
	}
	status teleport(spring_xform3 root, span<const spring_xform3> locals) noexcept
	{
		return spring_skeleton_teleport(get(), root, locals.data(), detail::count(locals.size()));
	}
	int bone_count() const noexcept
	{
		return spring_skeleton_bone_count(get());
	}
	/// `nodes`, `rotations` and/or `tails`, bone_count each; an empty span is not wanted.
	status get_pose(span<int> nodes, span<spring_quat> rotations, span<spring_vec3> tails = {}) const noexcept
	{
		return {spring_skeleton_get_pose(get(), nodes.data(), rotations.data(), tails.data(), room(nodes, rotations, tails)),
		        bone_count()};
	}
	status get_stepped_pose(span<int> nodes, span<spring_quat> rotations, span<spring_vec3> tails = {}) const noexcept
	{
		return {
			spring_skeleton_get_stepped_pose(get(), nodes.data(), rotations.data(), tails.data(), room(nodes, rotations, tails)),
			bone_count()};
	}
	status get_rest_lengths(span<float> lengths) const noexcept
	{
		return {spring_skeleton_get_rest_lengths(get(), lengths.data(), detail::count(lengths.size())), bone_count()};
	}
	bool is_resting() const noexcept
	{
		return spring_skeleton_is_resting(get());
	}
	const spring_clock *clock() const noexcept
	{
		return spring_skeleton_clock(get());
	}

private:
	static int room(span<int> a, span<spring_quat> b, span<spring_vec3> c) noexcept
	{
		return detail::capacity3(a, b, c);
	}
};

/// Instances of one spring skeleton stepped side by side (spring_skeleton_crowd, skeleton.h).
class skeleton_crowd : public detail::handle<spring_skeleton_crowd, spring_skeleton_crowd_destroy>,
					   public detail::snapshots<skeleton_crowd, spring_skeleton_crowd, spring_skeleton_crowd_snapshot_size,
                                                spring_skeleton_crowd_snapshot, spring_skeleton_crowd_restore> {
public:
	using handle::handle;
	skeleton_crowd() noexcept = default;
	/// spring_skeleton_crowd_create: the crowd, or the refusal with its location.
	static expected<skeleton_crowd> create(const spring_skeleton_crowd_desc &desc) noexcept
	{
		return detail::create<skeleton_crowd>(spring_skeleton_crowd_create, desc);
	}
#if defined(__cpp_exceptions)
	/// spring_skeleton_crowd_create; throws spring::error on a refusal.
	explicit skeleton_crowd(const spring_skeleton_crowd_desc &desc) : skeleton_crowd(create(desc).value())
	{
	}
#endif
	int count() const noexcept
	{
		return spring_skeleton_crowd_count(get());
	}
	int bone_count() const noexcept
	{
		return spring_skeleton_crowd_bone_count(get());
	}
	/// `roots`: one per instance; `locals`: every instance's node transforms, instance by instance
	/// (count() x the node count). Spans of other sizes: INVALID_ARGUMENT.
	status update(span<const spring_xform3> roots, span<const spring_xform3> locals, float frame_dt) noexcept
	{
		int nodes = node_count(roots, locals);
		return nodes < 0 ? status(SPRING_ERROR_INVALID_ARGUMENT)
		                 : status(spring_skeleton_crowd_update(get(), roots.data(), locals.data(), nodes, frame_dt));
	}
	status reset(span<const spring_xform3> roots, span<const spring_xform3> locals) noexcept
	{
		int nodes = node_count(roots, locals);
		return nodes < 0 ? status(SPRING_ERROR_INVALID_ARGUMENT)
		                 : status(spring_skeleton_crowd_reset(get(), roots.data(), locals.data(), nodes));
	}
	/// One instance: `locals` its node transforms.
	status reset_instance(int instance, spring_xform3 root, span<const spring_xform3> locals) noexcept
	{
		return spring_skeleton_crowd_reset_instance(get(), instance, root, locals.data(), detail::count(locals.size()));
	}
	status teleport(int instance, spring_xform3 root, span<const spring_xform3> locals) noexcept
	{
		return spring_skeleton_crowd_teleport(get(), instance, root, locals.data(), detail::count(locals.size()));
	}
	/// One instance's `nodes`, `rotations` and/or `tails`, bone_count each; an empty span is not wanted.
	status get_pose(int instance, span<int> nodes, span<spring_quat> rotations, span<spring_vec3> tails = {}) const noexcept
	{
		return {spring_skeleton_crowd_get_pose(get(), instance, nodes.data(), rotations.data(), tails.data(),
		                                       detail::capacity3(nodes, rotations, tails)),
		        bone_count()};
	}
	status get_stepped_pose(int instance, span<int> nodes, span<spring_quat> rotations,
	                        span<spring_vec3> tails = {}) const noexcept
	{
		return {spring_skeleton_crowd_get_stepped_pose(get(), instance, nodes.data(), rotations.data(), tails.data(),
		                                               detail::capacity3(nodes, rotations, tails)),
		        bone_count()};
	}
	bool is_resting(int instance) const noexcept
	{
		return spring_skeleton_crowd_is_resting(get(), instance);
	}
	const spring_clock *clock() const noexcept
	{
		return spring_skeleton_crowd_clock(get());
	}

private:
	// One instance's node count from the spans, -1 when they do not fit the crowd.
	int node_count(span<const spring_xform3> roots, span<const spring_xform3> locals) const noexcept
	{
		if (roots.size() != static_cast<std::size_t>(count()) || roots.empty() || locals.size() % roots.size() != 0) {
			return -1;
		}
		return detail::count(locals.size() / roots.size());
	}
};

/// Tip chains of one shape stepped together (spring_chain_group, chain.h).
class chain_group : public detail::handle<spring_chain_group, spring_chain_group_destroy>,
					public detail::snapshots<chain_group, spring_chain_group, spring_chain_group_snapshot_size,
                                             spring_chain_group_snapshot, spring_chain_group_restore> {
public:
	using handle::handle;
	chain_group() noexcept = default;
	static expected<chain_group> create(const spring_chain_group_desc &desc) noexcept
	{
		return detail::create<chain_group>(spring_chain_group_create, desc);
	}
#if defined(__cpp_exceptions)
	explicit chain_group(const spring_chain_group_desc &desc) : chain_group(create(desc).value())
	{
	}
#endif
	int chain_count() const noexcept
	{
		return spring_chain_group_chain_count(get());
	}
	int bone_count() const noexcept
	{
		return spring_chain_group_bone_count(get());
	}
	/// `roots`: chain_count transforms (the C call takes no count).
	status update(const spring_xform3 *roots, float frame_dt) noexcept
	{
		return spring_chain_group_update(get(), roots, frame_dt);
	}
	status get_pose(int chain, span<spring_xform3> bones, span<spring_vec3> tips = {}) const noexcept
	{
		return {spring_chain_group_get_pose(get(), chain, bones.data(), tips.data(), detail::capacity(bones, tips, 0)),
		        bone_count()};
	}
	/// Every chain's: chain c's bone b at [c * bone_count + b].
	status get_poses(span<spring_xform3> bones, span<spring_vec3> tips = {}) const noexcept
	{
		return {spring_chain_group_get_poses(get(), bones.data(), tips.data(), detail::capacity(bones, tips, 0)),
		        static_cast<long long>(chain_count()) * bone_count()};
	}
	status get_state(int chain, int bone, spring_state_vec3 &tip) const noexcept
	{
		return spring_chain_group_get_state(get(), chain, bone, &tip);
	}
	status reset(int chain, spring_xform3 root) noexcept
	{
		return spring_chain_group_reset(get(), chain, root);
	}
	status teleport(int chain, spring_xform3 root) noexcept
	{
		return spring_chain_group_teleport(get(), chain, root);
	}
	status set_params(int chain, int bone, spring_params params) noexcept
	{
		return spring_chain_group_set_params(get(), chain, bone, params);
	}
	status set_forces(int chain, spring_vec3 gravity, spring_vec3 wind) noexcept
	{
		return spring_chain_group_set_forces(get(), chain, gravity, wind);
	}
	status set_bone_gravity(int chain, int bone, spring_vec3 gravity) noexcept
	{
		return spring_chain_group_set_bone_gravity(get(), chain, bone, gravity);
	}
	status set_animation(int chain, span<const spring_xform3> local) noexcept
	{
		return spring_chain_group_set_animation(get(), chain, local.data(), detail::count(local.size()));
	}
	status clear_animation(int chain) noexcept
	{
		return spring_chain_group_set_animation(get(), chain, nullptr, 0);
	}
	bool is_resting(int chain) const noexcept
	{
		return spring_chain_group_is_resting(get(), chain);
	}
	const spring_clock *clock() const noexcept
	{
		return spring_chain_group_clock(get());
	}
};

/// Angle chains of one shape stepped together (spring_chain2d_group, chain.h).
class chain2d_group : public detail::handle<spring_chain2d_group, spring_chain2d_group_destroy>,
					  public detail::snapshots<chain2d_group, spring_chain2d_group, spring_chain2d_group_snapshot_size,
                                               spring_chain2d_group_snapshot, spring_chain2d_group_restore> {
public:
	using handle::handle;
	chain2d_group() noexcept = default;
	static expected<chain2d_group> create(const spring_chain2d_group_desc &desc) noexcept
	{
		return detail::create<chain2d_group>(spring_chain2d_group_create, desc);
	}
#if defined(__cpp_exceptions)
	explicit chain2d_group(const spring_chain2d_group_desc &desc) : chain2d_group(create(desc).value())
	{
	}
#endif
	int chain_count() const noexcept
	{
		return spring_chain2d_group_chain_count(get());
	}
	int segment_count() const noexcept
	{
		return spring_chain2d_group_segment_count(get());
	}
	/// `roots`: chain_count transforms (the C call takes no count).
	status update(const spring_xform2 *roots, float frame_dt) noexcept
	{
		return spring_chain2d_group_update(get(), roots, frame_dt);
	}
	status get_pose(int chain, span<spring_xform2> joints, span<float> local_angles = {}) const noexcept
	{
		return {spring_chain2d_group_get_pose(get(), chain, joints.data(), local_angles.data(),
		                                      detail::capacity(joints, local_angles, 1)),
		        segment_count() + (joints.data() ? 1 : 0)};
	}
	/// Every chain's joints: chain i's at [i * (segment_count + 1)].
	status get_poses(span<spring_xform2> joints) const noexcept
	{
		return {spring_chain2d_group_get_poses(get(), joints.data(), detail::count(joints.size())),
		        static_cast<long long>(chain_count()) * (segment_count() + 1)};
	}
	status get_state(int chain, int segment, spring_state &world_angle) const noexcept
	{
		return spring_chain2d_group_get_state(get(), chain, segment, &world_angle);
	}
	status reset(int chain, spring_xform2 root) noexcept
	{
		return spring_chain2d_group_reset(get(), chain, root);
	}
	status teleport(int chain, spring_xform2 root) noexcept
	{
		return spring_chain2d_group_teleport(get(), chain, root);
	}
	status set_params(int chain, int segment, spring_params params) noexcept
	{
		return spring_chain2d_group_set_params(get(), chain, segment, params);
	}
	status set_inertia(int chain, int segment, float inertia) noexcept
	{
		return spring_chain2d_group_set_inertia(get(), chain, segment, inertia);
	}
	status set_forces(int chain, spring_vec2 gravity, spring_vec2 wind) noexcept
	{
		return spring_chain2d_group_set_forces(get(), chain, gravity, wind);
	}
	status set_animation(int chain, span<const float> local_offsets) noexcept
	{
		return spring_chain2d_group_set_animation(get(), chain, local_offsets.data(), detail::count(local_offsets.size()));
	}
	status clear_animation(int chain) noexcept
	{
		return spring_chain2d_group_set_animation(get(), chain, nullptr, 0);
	}
	bool is_resting(int chain) const noexcept
	{
		return spring_chain2d_group_is_resting(get(), chain);
	}
	const spring_clock *clock() const noexcept
	{
		return spring_chain2d_group_clock(get());
	}
};

/// A 2D skeleton with clips, IK and spring chains (spring_rig, rig.h). A rig read by
/// spring_rig_load_file (spring/io.h) is adopted with `spring::rig owner{raw};`.
class rig : public detail::handle<spring_rig, spring_rig_destroy>,
			public detail::snapshots<rig, spring_rig, spring_rig_snapshot_size, spring_rig_snapshot, spring_rig_restore> {
public:
	using handle::handle;
	rig() noexcept = default;
	/// spring_rig_create: the rig, or the refusal with the element, index and field at fault.
	static expected<rig> create(const spring_rig_desc &desc) noexcept
	{
		return detail::create<rig>(spring_rig_create, desc);
	}
#if defined(__cpp_exceptions)
	explicit rig(const spring_rig_desc &desc) : rig(create(desc).value())
	{
	}
#endif
	status sample_clip(int clip, float time, span<spring_xform2> local) const noexcept
	{
		return {spring_rig_sample_clip(get(), clip, time, local.data(), detail::count(local.size())), bone_count()};
	}
	status play(int clip, float time) noexcept
	{
		return spring_rig_play(get(), clip, time);
	}
	status play_named(const char *name, float time) noexcept
	{
		return spring_rig_play_named(get(), name, time);
	}
	int find_clip(const char *name) const noexcept
	{
		return spring_rig_find_clip(get(), name);
	}
	int find_bone(const char *name) const noexcept
	{
		return spring_rig_find_bone(get(), name);
	}
	int find_ik(const char *name) const noexcept
	{
		return spring_rig_find_ik(get(), name);
	}
	status set_root(spring_xform2 root) noexcept
	{
		return spring_rig_set_root(get(), root);
	}
	/// Whether set_root and teleport take `root`; refused: the chain (or rig) and its reach.
	expected<void> check_root(spring_xform2 root) const noexcept
	{
		spring_error error = {};
		spring_result code = spring_rig_check_root(get(), root, &error);
		return expected<void>(code, error);
	}
	status set_ik_target(int ik, spring_vec2 target) noexcept
	{
		return spring_rig_set_ik_target(get(), ik, target);
	}
	status clear_ik_target(int ik) noexcept
	{
		return spring_rig_clear_ik_target(get(), ik);
	}
	status set_ik_mix(int ik, float mix) noexcept
	{
		return spring_rig_set_ik_mix(get(), ik, mix);
	}
	status set_chain_mix(int chain, float mix) noexcept
	{
		return spring_rig_set_chain_mix(get(), chain, mix);
	}
	status set_time_scale(float scale) noexcept
	{
		return spring_rig_set_time_scale(get(), scale);
	}
	status set_paused(bool paused) noexcept
	{
		return spring_rig_set_paused(get(), paused);
	}
	status update(float frame_dt) noexcept
	{
		return spring_rig_update(get(), frame_dt);
	}
	status teleport(spring_xform2 root) noexcept
	{
		return spring_rig_teleport(get(), root);
	}
	status reset() noexcept
	{
		return spring_rig_reset(get());
	}
	int bone_count() const noexcept
	{
		return spring_rig_bone_count(get());
	}
	const char *bone_name(int bone) const noexcept
	{
		return spring_rig_bone_name(get(), bone);
	}
	int bone_parent(int bone) const noexcept
	{
		return spring_rig_bone_parent(get(), bone);
	}
	float bone_length(int bone) const noexcept
	{
		return spring_rig_bone_length(get(), bone);
	}
	/// The interpolated world transforms: the rig's get_pose (spring_rig_get_world).
	status get_pose(span<spring_xform2> world) const noexcept
	{
		return {spring_rig_get_world(get(), world.data(), detail::count(world.size())), bone_count()};
	}
	status get_local(span<spring_xform2> local) const noexcept
	{
		return {spring_rig_get_local(get(), local.data(), detail::count(local.size())), bone_count()};
	}
	status get_stepped_world(span<spring_xform2> world) const noexcept
	{
		return {spring_rig_get_stepped_world(get(), world.data(), detail::count(world.size())), bone_count()};
	}
	status get_stepped_local(span<spring_xform2> local) const noexcept
	{
		return {spring_rig_get_stepped_local(get(), local.data(), detail::count(local.size())), bone_count()};
	}
	status get_base_world(span<spring_xform2> world) const noexcept
	{
		return {spring_rig_get_base_world(get(), world.data(), detail::count(world.size())), bone_count()};
	}
	/// The events the last update crossed: the number written; `total` (optional) how many.
	int get_events(span<spring_rig_event> events, int *total = nullptr) const noexcept
	{
		return spring_rig_get_events(get(), events.data(), detail::count(events.size()), total);
	}
	int chain_count() const noexcept
	{
		return spring_rig_chain_count(get());
	}
	bool chain_is_resting(int chain) const noexcept
	{
		return spring_rig_chain_is_resting(get(), chain);
	}
	bool is_resting() const noexcept
	{
		return spring_rig_is_resting(get());
	}
	const char *chain_name(int chain) const noexcept
	{
		return spring_rig_chain_name(get(), chain);
	}
	/// The chain's bones, root first: the number written.
	int chain_bones(int chain, span<int> bones) const noexcept
	{
		return spring_rig_chain_bones(get(), chain, bones.data(), detail::count(bones.size()));
	}
	int clip_count() const noexcept
	{
		return spring_rig_clip_count(get());
	}
	const char *clip_name(int clip) const noexcept
	{
		return spring_rig_clip_name(get(), clip);
	}
	float clip_duration(int clip) const noexcept
	{
		return spring_rig_clip_duration(get(), clip);
	}
	int ik_count() const noexcept
	{
		return spring_rig_ik_count(get());
	}
	const char *ik_name(int ik) const noexcept
	{
		return spring_rig_ik_name(get(), ik);
	}
	const spring_clock *clock() const noexcept
	{
		return spring_rig_clock(get());
	}
	float time() const noexcept
	{
		return spring_rig_time(get());
	}
};

/// An interruptible UI value (spring_motion, motion.h): a plain value, as in C (copies copy the
/// state; nothing allocates). get() gives the C struct.
class motion : public detail::snapshots<motion, spring_motion, spring_motion_snapshot_size, spring_motion_snapshot,
                                        spring_motion_restore> {
public:
	/// Zero, as a zeroed spring_motion: every call refuses it until it is assigned a made one.
	motion() noexcept = default;
	/// spring_motion_init: the motion, or the code (the error's message is the code's sentence).
	static expected<motion> create(const spring_motion_desc &desc) noexcept
	{
		motion m;
		spring_error error = {};
		spring_result code = spring_motion_init(&m.motion_, &desc);
		return expected<motion>(m, code, error);
	}
#if defined(__cpp_exceptions)
	explicit motion(const spring_motion_desc &desc) : motion(create(desc).value())
	{
	}
#endif
	spring_motion *get() noexcept
	{
		return &motion_;
	}
	const spring_motion *get() const noexcept
	{
		return &motion_;
	}
	/// One target per channel (the span's size is the C channel count).
	status set_target(span<const float> target) noexcept
	{
		return spring_motion_set_target(&motion_, target.data(), detail::count(target.size()));
	}
	status set_params(spring_params params) noexcept
	{
		return spring_motion_set_params(&motion_, params);
	}
	/// spring_motion_set_value: `value` and `velocity` (empty: 0) one per channel.
	status set_value(span<const float> value, span<const float> velocity = {}) noexcept
	{
		return spring_motion_set_value(&motion_, value.data(), velocity.data(), detail::capacity(value, velocity, 0));
	}
	/// spring_motion_update.
	status update(float dt) noexcept
	{
		return spring_motion_update(&motion_, dt);
	}
	/// spring_motion_is_resting.
	bool is_resting() const noexcept
	{
		return spring_motion_is_resting(&motion_);
	}
	/// spring_motion_get_value: the first channels (the spans' size; `velocity` optional).
	status get_value(span<float> value, span<float> velocity = {}) const noexcept
	{
		return spring_motion_get_value(&motion_, value.data(), velocity.data(), detail::capacity(value, velocity, 0));
	}
	float time_to_settle() const noexcept
	{
		return spring_motion_time_to_settle(&motion_);
	}
	/// spring_motion_sample: capacity is the samples the spans hold (channels floats each).
	status sample(float interval, float max_duration, span<float> values, span<float> velocities, int &count,
	              int *truncated = nullptr) const noexcept
	{
		int channels = motion_.channels > 0 ? motion_.channels : 1;
		return spring_motion_sample(&motion_, interval, max_duration, values.data(), velocities.data(),
		                            detail::capacity(values, velocities, 0) / channels, &count, truncated);
	}
	/// spring_motion_sample_progress: capacity is progress.size().
	static status sample_progress(spring_params params, float initial_velocity, float interval, float max_duration,
	                              float rest_delta, span<float> progress, int &count, int *truncated = nullptr) noexcept
	{
		return spring_motion_sample_progress(params, initial_velocity, interval, max_duration, rest_delta, progress.data(),
		                                     detail::count(progress.size()), &count, truncated);
	}

private:
	spring_motion motion_ = {};
};

/// Springs stored as a structure of arrays (spring_batch, batch.h): a plain value, as in C (the
/// arrays stay the caller's). get() gives the C struct.
class batch {
public:
	batch() noexcept = default;
	/// spring_batch_init: the batch, or the code (the error's message is the code's sentence).
	static expected<batch> create(const spring_batch_desc &desc) noexcept
	{
		batch b;
		spring_error error = {};
		spring_result code = spring_batch_init(&b.batch_, &desc);
		return expected<batch>(b, code, error);
	}
#if defined(__cpp_exceptions)
	explicit batch(const spring_batch_desc &desc) : batch(create(desc).value())
	{
	}
#endif
	spring_batch *get() noexcept
	{
		return &batch_;
	}
	const spring_batch *get() const noexcept
	{
		return &batch_;
	}
	status set_params(spring_params params, float step) noexcept
	{
		return spring_batch_set_params(&batch_, params, step);
	}
	/// One step of every spring; `bad_index` (optional) the first refused one, -1 when none.
	status step(int *bad_index = nullptr) const noexcept
	{
		return spring_batch_step(&batch_, bad_index);
	}
	status step_range(int first, int count, int *bad_index = nullptr) const noexcept
	{
		return spring_batch_step_range(&batch_, first, count, bad_index);
	}
	/// `steps` steps of springs [first, first + count) (spring_batch_step_n).
	status step_n(int first, int count, int steps, int *bad_index = nullptr) const noexcept
	{
		return spring_batch_step_n(&batch_, first, count, steps, bad_index);
	}
	int count_resting(int first, int count) const noexcept
	{
		return spring_batch_count_resting(&batch_, first, count);
	}

private:
	spring_batch batch_ = {};
};

} // namespace spring

#endif
