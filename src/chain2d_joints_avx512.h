// SPDX-License-Identifier: MIT
// The angle group's poses on AVX-512 write a block's joints by transposes (chain2d_group_frame.h's
// GROUP_OWN_WRITE_JOINTS), for kernels_avx512.c before its angle instance.
#define K_ATTR_INLINE __attribute__((target("avx512f"), always_inline))

// The sixteen vectors at v as a 16 x 16 matrix of floats, transposed in place.
static inline K_ATTR_INLINE void transpose16_avx512(__m512 *v)
{
	__m512 t[16], u[16];
	for (int k = 0; k < 8; k++) {
		t[2 * k] = _mm512_unpacklo_ps(v[2 * k], v[2 * k + 1]);
		t[2 * k + 1] = _mm512_unpackhi_ps(v[2 * k], v[2 * k + 1]);
	}
	for (int k = 0; k < 4; k++) {
		u[4 * k] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
		u[4 * k + 1] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
		u[4 * k + 2] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
		u[4 * k + 3] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
	}
	for (int k = 0; k < 2; k++) {
		for (int j = 0; j < 4; j++) {
			t[8 * k + j] = _mm512_shuffle_f32x4(u[8 * k + j], u[8 * k + j + 4], 0x88);
			t[8 * k + j + 4] = _mm512_shuffle_f32x4(u[8 * k + j], u[8 * k + j + 4], 0xDD);
		}
	}
	for (int j = 0; j < 8; j++) {
		v[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
		v[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xDD);
	}
}

// write_joints_<suffix> (chain2d_group_frame.h) by transposes: a chain's records are contiguous floats (x, y,
// angle, 1, 1 per joint), so the rows x0 y0 a0 1 1 x1 ... transposed 16 at a time give each chain
// 16 of its floats in one vector and one store (lane-by-lane writes were most of a pose's time).
_Static_assert(sizeof(spring_xform2) == 5 * sizeof(float), "a joint record is five floats");
static inline K_ATTR_INLINE void write_joints_avx512(spring_xform2 *first, int per, size_t live, int count,
                                                     const lanes_avx512_f *xs, const lanes_avx512_f *ys, const lanes_avx512_f *as)
{
	__m512 rows[5 * GROUP_POSE_JOINTS];
	const __m512 one = _mm512_set1_ps(1.0f);
	for (int i = 0; i < count; i++) {
		rows[5 * i] = (__m512)xs[i];
		rows[5 * i + 1] = (__m512)ys[i];
		rows[5 * i + 2] = (__m512)as[i];
		rows[5 * i + 3] = one;
		rows[5 * i + 4] = one;
	}
	const int floats = 5 * count, tiles = (floats + 15) / 16;
	for (int m = floats; m < 16 * tiles; m++) {
		rows[m] = one;
	}
	for (int t = 0; t < tiles; t++) {
		transpose16_avx512(rows + 16 * t);
		const int valid = floats - 16 * t < 16 ? floats - 16 * t : 16;
		const __mmask16 mask = (__mmask16)((1u << valid) - 1u);
		for (size_t q = 0; q < live; q++) {
			_mm512_mask_storeu_ps((float *)(void *)(first + q * (size_t)per) + 16 * t, mask, rows[16 * t + q]);
		}
	}
}
#undef K_ATTR_INLINE
#define GROUP_OWN_WRITE_JOINTS 1
#define GROUP_POSE_BATCH GROUP_POSE_JOINTS
