// SPDX-License-Identifier: MIT
// The quaternion operations of the tip kernel (chain_kernel.h, which includes this file), alone
// for chain.c's one-lane readers: the tips they draw are the kernel's bits. L, KERNEL(name) and
// TARGET as for chain_kernel.h (this file undefines none of them).

// The quaternion product a * b, as quat_mul_f.
TARGET static ALWAYS_INLINE void KERNEL(qmul)(L(f) ax, L(f) ay, L(f) az, L(f) aw, L(f) bx, L(f) by, L(f) bz, L(f) bw, L(f) * ox,
                                              L(f) * oy, L(f) * oz, L(f) * ow)
{
	*ox = (aw * bx + ax * bw) + (ay * bz - az * by);
	*oy = (aw * by - ax * bz) + (ay * bw + az * bx);
	*oz = (aw * bz + ax * by) - (ay * bx - az * bw);
	*ow = (aw * bw - ax * bx) - (ay * by + az * bz);
}

// v rotated by the unit quaternion q, as rotate_f.
TARGET static ALWAYS_INLINE void KERNEL(rot)(L(f) qx, L(f) qy, L(f) qz, L(f) qw, L(f) vx, L(f) vy, L(f) vz, L(f) * ox, L(f) * oy,
                                             L(f) * oz)
{
	L(f) tx = 2.0f * (qy * vz - qz * vy), ty = 2.0f * (qz * vx - qx * vz), tz = 2.0f * (qx * vy - qy * vx);
	*ox = vx + qw * tx + (qy * tz - qz * ty);
	*oy = vy + qw * ty + (qz * tx - qx * tz);
	*oz = vz + qw * tz + (qx * ty - qy * tx);
}
