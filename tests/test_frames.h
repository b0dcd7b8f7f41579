/// Frame clocks for the envelope tests: a fixed rate, or jittery frames (uniform in [4, 40] ms
/// from a fixed seed). Frames are cut so that one ends exactly on every checkpoint, where the
/// runs at different rates are compared.
#ifndef SPRING_TEST_FRAMES_H
#define SPRING_TEST_FRAMES_H

#include <stdint.h>

typedef struct test_frames {
	float fps;     ///< > 0: fixed rate; 0: jittery
	double time;   ///< end of the last frame, seconds
	long count;    ///< fixed-rate frames consumed
	uint32_t seed; ///< xorshift state for the jittery clock
} test_frames;

static test_frames test_frames_make(float fps, uint32_t seed)
{
	test_frames f = {fps, 0.0, 0, seed ? seed : 0x9e3779b9u};
	return f;
}

/// Advances to the next frame, never past `checkpoint`; returns the frame's dt and sets
/// *at_checkpoint when the frame ends exactly on it.
static float test_frames_next(test_frames *f, double checkpoint, int *at_checkpoint)
{
	double next;
	if (f->fps > 0.0f) {
		next = (double)(f->count + 1) / (double)f->fps;
	} else {
		f->seed ^= f->seed << 13;
		f->seed ^= f->seed >> 17;
		f->seed ^= f->seed << 5;
		next = f->time + 0.004 + 0.036 * (double)(f->seed >> 8) / 16777216.0;
	}
	*at_checkpoint = next >= checkpoint - 1e-9;
	if (*at_checkpoint) {
		next = checkpoint;
	}
	if (f->fps > 0.0f && (double)(f->count + 1) / (double)f->fps <= checkpoint + 1e-9) {
		f->count++;
	}
	float dt = (float)(next - f->time);
	f->time = next;
	return dt;
}

#endif
