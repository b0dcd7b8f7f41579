// SPDX-License-Identifier: MIT
// W1's plain C exact loop: what a user writes over a spring_stepper's four coefficients, in an
// array of structs, compiled -O2 in its own library without link-time optimisation (see
// CMakeLists.txt), as the performance targets measure it. Same arithmetic, in the same
// order, as the library's stepper, so its results are bit-identical to spring_stepper_step.
#include "bench.h"

void w1_plain_exact(const spring_stepper *st, spring_state *states, const float *targets, long count)
{
	const float pp = st->pp, pv = st->pv, vp = st->vp, vv = st->vv;
	for (long i = 0; i < count; i++) {
		float e = states[i].x - targets[i];
		float v = states[i].v;
		states[i].x = targets[i] + (pp * e + pv * v);
		states[i].v = vp * e + vv * v;
	}
}
