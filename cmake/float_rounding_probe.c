// SPDX-License-Identifier: MIT
/* Configure-time probe (cmake/float_rounding.cmake): exits 0 when the compiler keeps the
   rounding that (double)(float)x requires for a pair of values computed side by side, 1 when it
   drops it. gcc 12 at -O2 and above drops it: its SLP vectoriser turns the two lanes into one
   (vector(2) float) conversion followed by a (vector(2) double) one, and its folder then removes
   the pair as if it were a no-op, so out[] holds the unrounded double. The shape is that of
   spring_vec2_lerp inlined into a caller that widens the result again. */
typedef struct pair {
	float x, y;
} pair;

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
lerp_widened(const pair *a, const pair *b, float t, double *out)
{
	double dt = t;
	pair r = {(float)(a->x + ((double)b->x - a->x) * dt), (float)(a->y + ((double)b->y - a->y) * dt)};
	out[0] = r.x;
	out[1] = r.y;
}

int main(void)
{
	volatile float in[5] = {0.1f, 0.2f, 0.7f, 0.9f, 0.3f}; // volatile: nothing folds at compile time
	pair a = {in[0], in[1]}, b = {in[2], in[3]};
	double out[2];
	lerp_widened(&a, &b, in[4], out);
	volatile float x = (float)(a.x + ((double)b.x - a.x) * (double)in[4]); // rounded through memory
	volatile float y = (float)(a.y + ((double)b.y - a.y) * (double)in[4]);
	return out[0] == (double)x && out[1] == (double)y ? 0 : 1;
}
