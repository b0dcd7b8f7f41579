// SPDX-License-Identifier: MIT
// Keyframe clips: curves (linear, stepped, CSS cubic Bezier), sampling a pose at a clip time,
// and the events a step crosses.
#include "fp_contract.h" // first: no fused multiply-add below (fp_contract.h)

#include "rig_internal.h"

#include "base_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Clips

float spring_rig_cubic_bezier(float x1, float y1, float x2, float y2, float x)
{
	if (!spring_is_finite(x1) || !spring_is_finite(y1) || !spring_is_finite(x2) || !spring_is_finite(y2) ||
	    !spring_is_finite(x)) {
		return spring_is_finite(x) ? x : 0.0f;
	}
	if (x <= 0.0f) {
		return 0.0f;
	}
	if (x >= 1.0f) {
		return 1.0f;
	}
	double ax1 = fmin(fmax((double)x1, 0.0), 1.0), ax2 = fmin(fmax((double)x2, 0.0), 1.0);
	// B(s) = 3(1-s)^2 s p1 + 3(1-s) s^2 p2 + s^3, monotone in s for x1, x2 in [0, 1].
	double cx = 3.0 * ax1, bx = 3.0 * (ax2 - ax1) - cx, axx = 1.0 - cx - bx;
	double cy = 3.0 * (double)y1, by = 3.0 * ((double)y2 - (double)y1) - cy, ayy = 1.0 - cy - by;
	double target = (double)x, s = target;
	// Newton from s = x, falling back to bisection when the slope is flat or it leaves [0, 1].
	int converged = 0;
	for (int i = 0; i < 8; i++) {
		double fx = ((axx * s + bx) * s + cx) * s - target;
		if (fabs(fx) < 1e-12) {
			converged = 1;
			break;
		}
		double d = (3.0 * axx * s + 2.0 * bx) * s + cx;
		if (fabs(d) < 1e-9) {
			break;
		}
		double next = s - fx / d;
		if (!(next >= 0.0 && next <= 1.0)) {
			break;
		}
		s = next;
	}
	if (!converged) {
		double lo = 0.0, hi = 1.0;
		s = target;
		for (int i = 0; i < 64; i++) {
			double fx = ((axx * s + bx) * s + cx) * s;
			if (fabs(fx - target) < 1e-12) {
				break;
			}
			if (fx < target) {
				lo = s;
			} else {
				hi = s;
			}
			s = 0.5 * (lo + hi);
		}
	}
	return (float)(((ayy * s + by) * s + cy) * s);
}

// Value of a track at clip time t (within [0, duration] already).
static void track_value(const spring_rig *r, const rig_track *tr, float t, float out[2])
{
	const spring_rig_key *k = &rig_keys(r)[tr->first_key];
	int n = tr->key_count;
	if (t <= k[0].time || n == 1) {
		out[0] = k[0].value[0];
		out[1] = k[0].value[1];
		return;
	}
	if (t >= k[n - 1].time) {
		out[0] = k[n - 1].value[0];
		out[1] = k[n - 1].value[1];
		return;
	}
	int lo = 0, hi = n - 1; // k[lo].time <= t < k[hi].time
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;
		if (k[mid].time <= t) {
			lo = mid;
		} else {
			hi = mid;
		}
	}
	const spring_rig_key *a = &k[lo], *b = &k[hi];
	float u = (t - a->time) / (b->time - a->time);
	if (a->curve == SPRING_RIG_CURVE_STEPPED) {
		u = 0.0f;
	} else if (a->curve == SPRING_RIG_CURVE_BEZIER) {
		u = spring_rig_cubic_bezier(a->bezier[0], a->bezier[1], a->bezier[2], a->bezier[3], u);
	}
	out[0] = a->value[0] + (b->value[0] - a->value[0]) * u;
	out[1] = a->value[1] + (b->value[1] - a->value[1]) * u;
}

static float clip_local_time(const rig_clip *cl, double t)
{
	if (cl->loop) {
		double d = (double)cl->duration;
		double w = fmod(t, d);
		if (w < 0.0) {
			w += d;
		}
		return (float)w;
	}
	return (float)fmin(fmax(t, 0.0), (double)cl->duration);
}

// The setup pose with clip `clip`'s tracks applied at clip time t, into `local`.
static void sample_clip_into(const spring_rig *r, int clip, double t, spring_xform2 *local)
{
	memcpy(local, rig_setup(r), (size_t)r->bone_count * sizeof(spring_xform2));
	if (clip < 0) {
		return;
	}
	const rig_clip *cl = &rig_clips(r)[clip];
	float ct = clip_local_time(cl, t);
	for (int i = 0; i < cl->track_count; i++) {
		const rig_track *tr = &rig_tracks(r)[cl->first_track + i];
		float v[2];
		track_value(r, tr, ct, v);
		spring_xform2 *l = &local[tr->bone];
		switch (tr->type) {
		case SPRING_RIG_TRACK_ROTATE: l->angle = rig_setup(r)[tr->bone].angle + v[0]; break;
		case SPRING_RIG_TRACK_TRANSLATE:
			l->position = spring_vec2_add(rig_setup(r)[tr->bone].position, spring_vec2_make(v[0], v[1]));
			break;
		case SPRING_RIG_TRACK_SCALE:
			l->scale = spring_vec2_make(rig_setup(r)[tr->bone].scale.x * v[0], rig_setup(r)[tr->bone].scale.y * v[1]);
			break;
		case SPRING_RIG_TRACK_COUNT: break; // not a type: refused at creation
		}
	}
}

void spring_rig_internal_sample_pose(spring_rig *r, double t)
{
	sample_clip_into(r, r->clip, t, rig_local(r));
}

spring_result spring_rig_sample_clip(const spring_rig *rig, int clip, float time, spring_xform2 *local, int capacity)
{
	if (!rig || !local || clip < SPRING_RIG_SETUP_POSE || clip >= rig->clip_count) {
		return SPRING_ERROR_INVALID_ARGUMENT;
	}
	spring_result room = spring_internal_room(capacity, rig->bone_count);
	if (room != SPRING_OK) {
		return room;
	}
	if (!spring_is_finite(time)) {
		return SPRING_ERROR_NOT_FINITE;
	}
	sample_clip_into(rig, clip, (double)time, local);
	return SPRING_OK;
}

bool spring_rig_internal_is_teleport(const char *name)
{
	return strcmp(name, SPRING_RIG_EVENT_TELEPORT) == 0;
}

// Events of the current clip with time in (from, to] (clip times, unwrapped), in order.
void spring_rig_internal_fire_events(spring_rig *r, double from, double to)
{
	if (r->clip < 0 || !(to > from)) {
		return;
	}
	const rig_clip *cl = &rig_clips(r)[r->clip];
	double d = (double)cl->duration;
	double start = cl->loop ? floor(from / d) * d : 0.0;
	for (double base = start; base <= to; base += d) {
		for (int i = 0; i < cl->event_count; i++) {
			const rig_event *ev = &rig_events(r)[cl->first_event + i];
			double t = base + (double)ev->time;
			if ((double)ev->time > d) {
				continue;
			}
			if (t > from && t <= to) {
				if (r->fired_count < MAX_FIRED) {
					int k = r->fired_count++;
					memcpy(r->fired_names[k], ev->name, NAME_BYTES);
					r->fired[k].name = r->fired_names[k];
					r->fired[k].time = ev->time;
					r->fired[k].value[0] = ev->value[0];
					r->fired[k].value[1] = ev->value[1];
					r->fired_index[k] = i;
				} else if (spring_rig_internal_is_teleport(ev->name)) {
					r->fired_lost_teleports++; // apply_events refuses rather than skip it
				}
				r->fired_total++;
			}
		}
		if (!cl->loop) {
			break;
		}
	}
}
