// SPDX-License-Identifier: MIT
// The half of the lane layer (lanes.h) every vector instruction set shares, over GCC/Clang's
// vector types; included by lanes_<set>.h (no include guard: once per set, the names carry its
// prefix), which first defines
//   LP                 the set's prefix macro (LANES_SSE2), LP(f) and LP(i) its vector types
//   LANES_WIDTH        its lanes (4, 8 or 16), LANES_ATTR its function attribute (may be empty)
//   LANES_SQRT(v), LANES_MIN(a, b), LANES_MAX(a, b)   its instructions for them
//   LANES_ANY(m), LANES_ALL(m)                        with int-vector masks (not LANES_OWN_MASKS)
//   LANES_OWN_MASKS    when it defines LP(m) and the mask operations itself (mask registers)
// and this file undefines them at its end.

#define LANES_FN LANES_INLINE LANES_ATTR

LANES_FN LP(f) LP(splat)(float x)
{
	return x - (LP(f)){0}; // x - 0 is x in every lane, -0 and NaN included
}

LANES_FN LP(i) LP(splati)(int32_t n)
{
	return n + (LP(i)){0};
}

LANES_FN LP(f) LP(load)(const float *p)
{
	LP(f) r;
	memcpy(&r, p, sizeof r);
	return r;
}

LANES_FN void LP(store)(float *p, LP(f) v)
{
	memcpy(p, &v, sizeof v);
}

LANES_FN LP(i) LP(loadi)(const int32_t *p)
{
	LP(i) r;
	memcpy(&r, p, sizeof r);
	return r;
}

LANES_FN void LP(storei)(int32_t *p, LP(i) v)
{
	memcpy(p, &v, sizeof v);
}

LANES_FN LP(f) LP(sqrt)(LP(f) v)
{
	return LANES_SQRT(v);
}

LANES_FN LP(f) LP(abs)(LP(f) v)
{
	return (LP(f))((LP(i))v & 0x7fffffff);
}

LANES_FN LP(i) LP(bits)(LP(f) x)
{
	return (LP(i))x;
}

LANES_FN LP(i) LP(toint)(LP(f) x)
{
	return __builtin_convertvector(x, LP(i));
}

LANES_FN float LP(get)(LP(f) v, int l)
{
	return v[l];
}

LANES_FN void LP(set)(LP(f) * v, int l, float x)
{
	(*v)[l] = x;
}

LANES_FN int32_t LP(geti)(LP(i) v, int l)
{
	return v[l];
}

LANES_FN void LP(seti)(LP(i) * v, int l, int32_t x)
{
	(*v)[l] = x;
}

#if !defined(LANES_OWN_MASKS)
typedef LP(i) LP(m);

LANES_FN LP(m) LP(eq)(LP(f) a, LP(f) b)
{
	return a == b;
}

LANES_FN LP(m) LP(ne)(LP(f) a, LP(f) b)
{
	return a != b;
}

LANES_FN LP(m) LP(lt)(LP(f) a, LP(f) b)
{
	return a < b;
}

LANES_FN LP(m) LP(le)(LP(f) a, LP(f) b)
{
	return a <= b;
}

LANES_FN LP(m) LP(gt)(LP(f) a, LP(f) b)
{
	return a > b;
}

LANES_FN LP(m) LP(ge)(LP(f) a, LP(f) b)
{
	return a >= b;
}

LANES_FN LP(m) LP(ieq)(LP(i) a, LP(i) b)
{
	return a == b;
}

LANES_FN LP(m) LP(ilt)(LP(i) a, LP(i) b)
{
	return a < b;
}

LANES_FN LP(m) LP(itest)(LP(i) a, LP(i) b)
{
	return (a & b) != 0;
}

LANES_FN LP(m) LP (and)(LP(m) m, LP(m) n)
{
	return m & n;
}

LANES_FN LP(m) LP(or)(LP(m) m, LP(m) n)
{
	return m | n;
}

LANES_FN LP(m) LP(not )(LP(m) m)
{
	return ~m;
}

LANES_FN int LP(any)(LP(m) m)
{
	return LANES_ANY(m);
}

LANES_FN int LP(all)(LP(m) m)
{
	return LANES_ALL(m);
}

LANES_FN LP(f) LP(sel)(LP(m) m, LP(f) a, LP(f) b)
{
	return (LP(f))(((LP(i))a & m) | ((LP(i))b & ~m));
}

LANES_FN LP(i) LP(seli)(LP(m) m, LP(i) a, LP(i) b)
{
	return (a & m) | (b & ~m);
}

LANES_FN int LP(has)(LP(m) m, int l)
{
	return m[l] != 0;
}

LANES_FN LP(i) LP(mask)(LP(m) m)
{
	return m;
}
#endif

LANES_FN LP(f) LP(min)(LP(f) a, LP(f) b)
{
	return LANES_MIN(a, b);
}

LANES_FN LP(f) LP(max)(LP(f) a, LP(f) b)
{
	return LANES_MAX(a, b);
}

// The even and odd lanes of a:b, in order, and the cheapest split of interleaved pairs (AVX2's
// shuffles work within 128-bit halves: the pairs come out in the order 0 1 4 5 2 3 6 7).
#if LANES_WIDTH == 4
#define LANES_EVEN 0, 2, 4, 6
#define LANES_ODD 1, 3, 5, 7
#define LP_UNZIP_EVEN LANES_EVEN
#define LP_UNZIP_ODD LANES_ODD
#define LP_UNZIP_PERM 0, 1, 2, 3
#define LP_ZIP_LO 0, 4, 1, 5
#define LP_ZIP_HI 2, 6, 3, 7
#elif LANES_WIDTH == 8
#define LANES_EVEN 0, 2, 4, 6, 8, 10, 12, 14
#define LANES_ODD 1, 3, 5, 7, 9, 11, 13, 15
#define LP_UNZIP_EVEN 0, 2, 8, 10, 4, 6, 12, 14
#define LP_UNZIP_ODD 1, 3, 9, 11, 5, 7, 13, 15
#define LP_UNZIP_PERM 0, 1, 4, 5, 2, 3, 6, 7
#define LP_ZIP_LO 0, 8, 1, 9, 4, 12, 5, 13
#define LP_ZIP_HI 2, 10, 3, 11, 6, 14, 7, 15
#else
#define LANES_EVEN 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
#define LANES_ODD 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
#define LP_UNZIP_EVEN LANES_EVEN
#define LP_UNZIP_ODD LANES_ODD
#define LP_UNZIP_PERM 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define LP_ZIP_LO 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23
#define LP_ZIP_HI 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31
#endif

LANES_FN LP(f) LP(even)(LP(f) a, LP(f) b)
{
	return __builtin_shufflevector(a, b, LANES_EVEN);
}

LANES_FN LP(f) LP(odd)(LP(f) a, LP(f) b)
{
	return __builtin_shufflevector(a, b, LANES_ODD);
}

LANES_FN LP(f) LP(unzip_even)(LP(f) a, LP(f) b)
{
	return __builtin_shufflevector(a, b, LP_UNZIP_EVEN);
}

LANES_FN LP(f) LP(unzip_odd)(LP(f) a, LP(f) b)
{
	return __builtin_shufflevector(a, b, LP_UNZIP_ODD);
}

LANES_FN LP(f) LP(unzip_perm)(LP(f) t)
{
	return __builtin_shufflevector(t, t, LP_UNZIP_PERM);
}

LANES_FN LP(f) LP(zip_lo)(LP(f) a, LP(f) b)
{
	return __builtin_shufflevector(a, b, LP_ZIP_LO);
}

LANES_FN LP(f) LP(zip_hi)(LP(f) a, LP(f) b)
{
	return __builtin_shufflevector(a, b, LP_ZIP_HI);
}

// Which pair lane k of unzip_even and unzip_odd holds.
LANES_FN int LP(unzip_pair)(int k)
{
	static const int order[] = {LP_UNZIP_PERM};
	return order[k];
}

#undef LANES_EVEN
#undef LANES_ODD
#undef LP_UNZIP_PERM
#undef LP_UNZIP_EVEN
#undef LP_UNZIP_ODD
#undef LP_ZIP_LO
#undef LP_ZIP_HI
#undef LANES_FN
#undef LP
#undef LANES_WIDTH
#undef LANES_ATTR
#undef LANES_SQRT
#undef LANES_MIN
#undef LANES_MAX
#undef LANES_ANY
#undef LANES_ALL
#undef LANES_OWN_MASKS
