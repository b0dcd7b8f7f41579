// SPDX-License-Identifier: MIT
// The lane types and quaternion operations of the fast kernel (chain_kernel.h, which includes
// this file and undefines what it defines), alone for chain.c's one-lane readers: the tips they
// draw are the kernel's bits. KERNEL(name) and TARGET as for chain_kernel.h.

#ifndef VF
#define VF float
#define VI int
#define W 1
#define SPLAT(x) (x)
#define SQRT(v) sqrtf(v)
#define SEL(m, a, b) ((m) ? (a) : (b))
#define NOT(m) (!(m))
#define ANY(m) (m)
#define ABSV(v) fabsf(v)
#define LANE(v, l) (v)
#endif

// The quaternion product a * b, as quat_mul_f.
TARGET static ALWAYS_INLINE void KERNEL(qmul)(VF ax, VF ay, VF az, VF aw, VF bx, VF by, VF bz, VF bw, VF *ox, VF *oy, VF *oz,
                                              VF *ow)
{
	*ox = (aw * bx + ax * bw) + (ay * bz - az * by);
	*oy = (aw * by - ax * bz) + (ay * bw + az * bx);
	*oz = (aw * bz + ax * by) - (ay * bx - az * bw);
	*ow = (aw * bw - ax * bx) - (ay * by + az * bz);
}

// v rotated by the unit quaternion q, as rotate_f.
TARGET static ALWAYS_INLINE void KERNEL(rot)(VF qx, VF qy, VF qz, VF qw, VF vx, VF vy, VF vz, VF *ox, VF *oy, VF *oz)
{
	VF tx = 2.0f * (qy * vz - qz * vy), ty = 2.0f * (qz * vx - qx * vz), tz = 2.0f * (qx * vy - qy * vx);
	*ox = vx + qw * tx + (qy * tz - qz * ty);
	*oy = vy + qw * ty + (qz * tx - qx * tz);
	*oz = vz + qw * tz + (qx * ty - qy * tx);
}
