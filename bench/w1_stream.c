// SPDX-License-Identifier: MIT
// W1's streaming limit: a loop that only streams the same arrays as a spring step (reads each
// state and target, writes each state back) with one subtraction and a sign flip, compiled -O3
// -march=native in its own library so it vectorises with the machine's widest vectors. No
// spring can be advanced faster than this.
#include "bench.h"

void w1_stream(spring_state *states, const float *targets, long count)
{
	for (long i = 0; i < count; i++) {
		states[i].x = targets[i] - states[i].x;
		states[i].v = -states[i].v;
	}
}
