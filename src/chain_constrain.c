// SPDX-License-Identifier: MIT
// The constraints of the tip chains' step (chain_impl.h): cone limits, colliders, and the
// inherited-motion caps with the rigid move they share with teleport.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "chain_impl.h"

#include <math.h>

// ---------------------------------------------------------------------------------------------
// Constraints

// Rotation about z taking `from` onto `to` (both in the xy plane), anti-parallel included.
static spring_vec3 any_perpendicular(spring_vec3 d)
{
	spring_vec3 axis = fabsf(d.x) < 0.57f ? spring_vec3_make(1.0f, 0.0f, 0.0f) : spring_vec3_make(0.0f, 1.0f, 0.0f);
	return spring_vec3_normalize(spring_vec3_cross(d, axis));
}

// Keeps direction `dir` (unit) within `limit` radians of `axis` (unit); returns the clamped
// direction and, through `outward`, the unit direction of increasing angle (zero if inside).
spring_vec3 spring_chain_impl_cone_clamp(spring_vec3 dir, spring_vec3 axis, float limit, int mode_2d, spring_vec3 *outward)
{
	*outward = spring_vec3_make(0.0f, 0.0f, 0.0f);
	float cosang = spring_vec3_dot(dir, axis);
	if (cosang >= (float)spring_det_cos((double)limit)) {
		return dir;
	}
	// Unit tangent at the axis pointing towards dir.
	spring_vec3 perp = spring_vec3_sub(dir, spring_vec3_scale(axis, cosang));
	if (spring_vec3_length(perp) < 1e-12f) {
		perp = mode_2d ? spring_vec3_make(-axis.y, axis.x, 0.0f) : any_perpendicular(axis);
	}
	perp = spring_vec3_normalize(perp);
	double s, co;
	spring_det_sincos((double)limit, &s, &co);
	spring_vec3 out = spring_vec3_add(spring_vec3_scale(axis, (float)co), spring_vec3_scale(perp, (float)s));
	// Outward = direction of increasing angle at the clamped point.
	*outward = spring_vec3_sub(spring_vec3_scale(perp, (float)co), spring_vec3_scale(axis, (float)s));
	return spring_vec3_normalize(out);
}

// Pushes a point at distance `len` from `pivot` (direction `dir`) out of a ball (centre, r)
// while keeping the distance: the direction is turned away from the centre until the point is
// on the ball's surface. Returns 1 when it moved; `normal` gets the contact normal.
static int slide_out_of_ball(spring_vec3 pivot, float len, spring_vec3 *dir, spring_vec3 centre, float r, int mode_2d,
                             spring_vec3 *normal)
{
	spring_vec3 tip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
	spring_vec3 d = spring_vec3_sub(tip, centre);
	float dist = spring_vec3_length(d);
	if (dist >= r) {
		return 0;
	}
	spring_vec3 w = spring_vec3_sub(centre, pivot);
	double wl = (double)spring_vec3_length(w);
	if (wl < 1e-9) {
		// The pivot is at the centre: no direction gets out; leave it (the bone is inside).
		return 0;
	}
	spring_vec3 wn = spring_vec3_scale(w, (float)(1.0 / wl));
	// Angle theta between dir and w with |pivot + len dir - centre| = r.
	double cos_min = ((double)len * len + wl * wl - (double)r * r) / (2.0 * len * wl);
	if (cos_min <= -1.0) {
		// The whole length sphere is inside the ball: point straight away from it.
		*dir = spring_vec3_scale(wn, -1.0f);
		*normal = *dir;
		return 1;
	}
	if (cos_min > 1.0) {
		return 0;
	}
	spring_vec3 perp = spring_vec3_sub(*dir, spring_vec3_scale(wn, spring_vec3_dot(*dir, wn)));
	if (spring_vec3_length(perp) < 1e-9f) {
		perp = mode_2d ? spring_vec3_make(-wn.y, wn.x, 0.0f) : any_perpendicular(wn);
	}
	perp = spring_vec3_normalize(perp);
	// A hair beyond the surface so rounding never leaves the tip inside.
	double sin_min = sqrt(fmax(0.0, 1.0 - cos_min * cos_min));
	spring_vec3 nd = spring_vec3_add(spring_vec3_scale(wn, (float)cos_min), spring_vec3_scale(perp, (float)sin_min));
	*dir = spring_vec3_normalize(nd);
	spring_vec3 ntip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
	*normal = spring_vec3_normalize(spring_vec3_sub(ntip, centre));
	return 1;
}

static spring_vec3 closest_on_segment(spring_vec3 p, spring_vec3 a, spring_vec3 b)
{
	spring_vec3 ab = spring_vec3_sub(b, a);
	float den = spring_vec3_dot(ab, ab);
	float t = den > 0.0f ? spring_vec3_dot(spring_vec3_sub(p, a), ab) / den : 0.0f;
	t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
	return spring_vec3_add(a, spring_vec3_scale(ab, t));
}

// Keeps the tip (at distance len from pivot along dir) outside one collider; returns 1 and the
// contact normal when it moved the tip.
int spring_chain_impl_collide(const spring_chain_collider *k, float tip_radius, spring_vec3 pivot, float len, spring_vec3 *dir,
                              int mode_2d, spring_vec3 *normal)
{
	const float margin = 1e-4f; // pushed a hair beyond the surface so tests with 1e-4 hold
	float r = k->radius + tip_radius;
	switch (k->type) {
	case SPRING_CHAIN_COLLIDER_SPHERE: {
		spring_vec3 centre = k->a;
		if (mode_2d) {
			centre.z = 0.0f;
		}
		return slide_out_of_ball(pivot, len, dir, centre, r + margin, mode_2d, normal);
	}
	case SPRING_CHAIN_COLLIDER_CAPSULE: {
		int moved = 0;
		for (int it = 0; it < 4; it++) {
			spring_vec3 tip = spring_vec3_add(pivot, spring_vec3_scale(*dir, len));
			spring_vec3 centre = closest_on_segment(tip, k->a, k->b);
			if (mode_2d) {
				centre.z = 0.0f;
			}
			if (!slide_out_of_ball(pivot, len, dir, centre, r + margin, mode_2d, normal)) {
				break;
			}
			moved = 1;
		}
		return moved;
	}
	case SPRING_CHAIN_COLLIDER_PLANE: {
		spring_vec3 n = spring_vec3_normalize(k->b);
		// Need dot(pivot + len dir - a, n) >= r  <=>  dot(dir, n) >= s.
		float s = (r + 2.0f * margin - spring_vec3_dot(spring_vec3_sub(pivot, k->a), n)) / len;
		float dn = spring_vec3_dot(*dir, n);
		if (dn >= s - margin / len) {
			return 0;
		}
		if (s > 1.0f) {
			*dir = n; // cannot reach the allowed side: get as far out as the bone allows
		} else {
			spring_vec3 perp = spring_vec3_sub(*dir, spring_vec3_scale(n, dn));
			if (spring_vec3_length(perp) < 1e-9f) {
				perp = mode_2d ? spring_vec3_make(-n.y, n.x, 0.0f) : any_perpendicular(n);
			}
			perp = spring_vec3_normalize(perp);
			float c = s < -1.0f ? -1.0f : s;
			*dir = spring_vec3_normalize(
				spring_vec3_add(spring_vec3_scale(n, c), spring_vec3_scale(perp, sqrtf(fmaxf(0.0f, 1.0f - c * c)))));
		}
		*normal = n;
		return 1;
	}
	case SPRING_CHAIN_COLLIDER_COUNT: break; // not a type: refused at creation
	}
	return 0;
}

// Removes the component of v along `n` when it points the way `sign` forbids: sign > 0 removes
// a positive component (moving outwards along n), sign < 0 a negative one (moving into a
// surface whose normal is n), sign == 0 removes the component whatever its sign.
spring_vec3 spring_chain_impl_remove_component(spring_vec3 v, spring_vec3 n, int sign)
{
	float c = spring_vec3_dot(v, n);
	if (sign == 0 || (sign > 0 && c > 0.0f) || (sign < 0 && c < 0.0f)) {
		v = spring_vec3_sub(v, spring_vec3_scale(n, c));
	}
	return v;
}

// Moves everything simulated rigidly with the root from the last step's root to `to`
// (normalised): tips, velocities, both stepped poses, targets and the previous root. The root
// input of the frame is left to the caller.
void spring_chain_impl_move_rigidly(spring_chain *c, spring_xform3 to)
{
	// D maps the old root frame onto the new one; everything simulated moves with it.
	spring_xform3 d = xform3_normalized(spring_xform3_mul(to, spring_xform3_inverse(roots_of(c)->step)));
	if (c->mode_2d) {
		// Keep the plane: only the rotation about z and the xy translation survive.
		d.position.z = 0.0f;
		d.rotation.x = 0.0f;
		d.rotation.y = 0.0f;
		d.rotation = spring_quat_normalize(d.rotation);
	}
	chain_arrays a = arrays(c);
	chain_pose2 d2 = c->pose_2d ? pose2_of_xform3(d) : (chain_pose2){0.0f, 0.0f, 1.0f, 0.0f};
	for (int i = 0; i < c->bone_count; i++) {
		spring_vec3 tip = spring_xform3_apply(d, tip_of(&a, i));
		spring_vec3 vel = spring_quat_rotate(d.rotation, vel_of(&a, i));
		set_tip(&a, i, tip, vel);
		if (c->pose_2d) {
			a.world2[i] = pose2_mul(d2, a.world2[i]);
			a.world2_prev[i] = pose2_mul(d2, a.world2_prev[i]);
		} else {
			xform_set(&a, P_W, i, xform3_normalized(spring_xform3_mul(d, xform_get(&a, P_W, i))));
			xform_set(&a, P_WPREV, i, xform3_normalized(spring_xform3_mul(d, xform_get(&a, P_WPREV, i))));
		}
		vec_set(&a, P_GX, i, spring_xform3_apply(d, vec_get(&a, P_GX, i)));
	}
	roots_of(c)->step_prev = xform3_normalized(spring_xform3_mul(d, roots_of(c)->step_prev));
	roots_of(c)->step = to;
}

// The inherited-motion caps. When this step's root moves or turns further from the last step's
// root than the caps allow in one step, the chain is first moved rigidly by the excess (as by a
// teleport), so the motion it feels is the capped part only and it stays attached to the root.
void spring_chain_impl_cap_root_motion(spring_chain *c, spring_xform3 root)
{
	if (!(c->max_root_speed > 0.0f) && !(c->max_root_angular_speed > 0.0f)) {
		return;
	}
	spring_xform3 from = roots_of(c)->step, start = from;
	int capped = 0;
	if (c->max_root_speed > 0.0f) {
		double dx = (double)root.position.x - from.position.x, dy = (double)root.position.y - from.position.y;
		double dz = (double)root.position.z - from.position.z;
		double len = sqrt(dx * dx + dy * dy + dz * dz);
		if (len > (double)c->cap_distance) {
			double k = (double)c->cap_distance / len;
			start.position = spring_vec3_make((float)(root.position.x - dx * k), (float)(root.position.y - dy * k),
			                                  (float)(root.position.z - dz * k));
			capped = 1;
		}
	}
	if (c->max_root_angular_speed > 0.0f) {
		spring_quat rel = spring_quat_mul(root.rotation, spring_quat_conjugate(from.rotation));
		double sign = rel.w < 0.0f ? -1.0 : 1.0; // the shorter way round
		double x = sign * rel.x, y = sign * rel.y, z = sign * rel.z, w = sign * rel.w;
		double sn = sqrt(x * x + y * y + z * z);
		if (sn > 0.0 && w / sqrt(sn * sn + w * w) < c->cap_cos_half) {
			double s, co;
			spring_det_sincos(0.5 * (double)c->max_root_angular_speed * (double)c->clock.step, &s, &co);
			spring_quat seen = {(float)(x / sn * s), (float)(y / sn * s), (float)(z / sn * s), (float)co};
			start.rotation = spring_quat_normalize(spring_quat_mul(spring_quat_conjugate(seen), root.rotation));
			capped = 1;
		}
	}
	if (capped) {
		spring_chain_impl_move_rigidly(c, start);
	}
}

// ---------------------------------------------------------------------------------------------
// The kernel's scalar calls per lane (chain_impl.h)

static int is_zero3(spring_vec3 v)
{
	return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f;
}

// Where a bone's tip rests: the rigid tip, or under a constant acceleration the equilibrium of
// the pendulum (spring toward the rigid tip plus the force, on the sphere of the bone's length
// `len` about the pivot): the direction of w2 (rigid_tip - pivot) + accel, which never overflows
// (w2: the lane's k / m, T_W2).
spring_vec3 spring_chain_impl_rest_position(const spring_chain *c, float w2_lane, float len, spring_vec3 pivot,
                                            spring_vec3 rigid_tip, spring_vec3 accel)
{
	if (is_zero3(accel)) {
		return rigid_tip;
	}
	double w2 = (double)w2_lane;
	double dx = w2 * ((double)rigid_tip.x - pivot.x) + accel.x;
	double dy = w2 * ((double)rigid_tip.y - pivot.y) + accel.y;
	double dz = c->mode_2d ? 0.0 : w2 * ((double)rigid_tip.z - pivot.z) + accel.z;
	double n = sqrt(dx * dx + dy * dy + dz * dz);
	if (!(n > 0.0)) {
		return rigid_tip; // the force cancels the spring exactly at the pivot: any direction rests
	}
	double k = (double)len / n;
	return spring_vec3_make((float)(pivot.x + dx * k), (float)(pivot.y + dy * k), (float)(pivot.z + dz * k));
}

// The cone limit of one lane: the direction d clamped to within `limit` of the rigid direction u,
// the velocity v's part outward of the cone removed.
void spring_chain_impl_cone_lane(const spring_chain *c, float limit, spring_vec3 u, spring_vec3 *d, spring_vec3 *v)
{
	spring_vec3 outward;
	*d = spring_chain_impl_cone_clamp(*d, spring_vec3_normalize(u), limit, c->mode_2d, &outward);
	if (spring_vec3_length(outward) > 0.0f) {
		*v = spring_chain_impl_remove_component(*v, outward, 1);
	}
}

// The colliders of one lane at bone i: they slide the tip over the length sphere about the pivot
// and remove the velocity into them. They have the last word over the cone limit: a limit may be
// bent, a surface never crossed. A few passes settle tips touching several colliders at once.
void spring_chain_impl_collide_lane(const spring_chain *c, const chain_arrays *a, int i, spring_vec3 pivot, spring_vec3 *d,
                                    spring_vec3 *v)
{
	for (int pass = 0; pass < 4; pass++) {
		int moved = 0;
		for (int q = 0; q < c->collider_count; q++) {
			spring_vec3 normal;
			if (spring_chain_impl_collide(&a->colliders[q], a->tip_radius[i], pivot, a->length[i], d, c->mode_2d, &normal)) {
				*v = spring_chain_impl_remove_component(*v, normal, -1);
				moved = 1;
			}
		}
		if (!moved) {
			break;
		}
	}
}

// Within about 1e-4 rad of anti-parallel the half-way quaternion of the aim is mostly rounding:
// a half turn about an axis perpendicular to the rigid direction u (about z in 2D mode) instead.
spring_quat spring_chain_impl_aim_flip(const spring_chain *c, spring_vec3 u, spring_quat rigid)
{
	spring_quat arc = c->mode_2d ? (spring_quat){0.0f, 0.0f, 1.0f, 0.0f} : spring_quat_from_to(u, spring_vec3_scale(u, -1.0f));
	return spring_quat_normalize(spring_quat_mul(arc, rigid));
}
