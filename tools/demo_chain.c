// SPDX-License-Identifier: MIT
// `spring demo`, chain section: an 8-bone, 20-unit tail (the standard scene of
// tests/shared, with gravity) driven by its animated root at several frame rates, its rest, and a
// teleport with and without reset.
#include "demo.h"
#include "scenes.h"

#include <spring/chain.h>
#include <spring/verify.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

void demo_report_line(demo_report *r, const char *line, int passed)
{
	if (r->line_count < 8) {
		snprintf(r->chain_lines[r->line_count], sizeof r->chain_lines[0], "%s", line);
		r->chain_passed[r->line_count] = passed;
		r->line_count++;
	}
	r->checks++;
	r->failures += !passed;
}

enum { bones = SCENE_TAIL_BONES };
static const float chain_len = SCENE_TAIL_LENGTH;

// The standard tail under gravity, at rest under `root`.
static spring_chain *make_tail(spring_xform3 root)
{
	spring_chain_bone_desc bone_descs[bones];
	spring_chain_desc d = scene_tail_desc(bone_descs, bones);
	d.gravity = spring_vec3_make(0.0f, -100.0f, 0.0f);
	d.root = root;
	spring_chain *c = NULL;
	return spring_chain_create(&d, &c, NULL) == SPRING_OK ? c : NULL;
}

static spring_vec3 tip_of(const spring_chain *c)
{
	spring_vec3 tips[bones];
	spring_chain_get_pose(c, NULL, tips, bones);
	return tips[bones - 1];
}

// Runs 8 s at `fps` (0: the jittery frame clock) and samples the tip every 0.5 s.
static int run(float fps, spring_vec3 out[16])
{
	spring_chain *c = make_tail(scene_tail_root(0.0));
	if (!c) {
		return 1;
	}
	spring_frame_clock clock;
	if (spring_frame_clock_init(&clock, (double)fps, 0.5, 0) != SPRING_OK) {
		spring_chain_destroy(c);
		return 1;
	}
	while (clock.checkpoints < 16) {
		float dt = spring_frame_clock_next(&clock);
		spring_chain_update(c, scene_tail_root(clock.time), dt);
		if (clock.at_checkpoint) {
			out[clock.checkpoints - 1] = tip_of(c);
		}
	}
	spring_chain_destroy(c);
	return 0;
}

// The teleport experiment (demo.h): tip speed per frame of the three tails and their peaks; the
// jump itself is not counted as motion for the two that were told.
static void teleport_run(demo_teleport *out)
{
	memset(out, 0, sizeof *out);
	spring_chain *c[3];
	for (int k = 0; k < 3; k++) {
		c[k] = make_tail(scene_tail_root(0.0));
	}
	if (!c[0] || !c[1] || !c[2]) {
		for (int k = 0; k < 3; k++) {
			spring_chain_destroy(c[k]);
		}
		return;
	}
	double *series[3] = {out->naive, out->teleported, out->reset};
	spring_vec3 prev[3];
	for (int k = 0; k < 3; k++) {
		prev[k] = tip_of(c[k]);
	}
	double time = 0.0;
	for (int f = 0; f < DEMO_TELEPORT_FRAMES; f++) {
		float offset = f >= DEMO_TELEPORT_BEFORE ? 2000.0f : 0.0f;
		if (f == DEMO_TELEPORT_BEFORE) {
			spring_xform3 jumped = scene_tail_root(time);
			jumped.position.x += 2000.0f;
			spring_chain_teleport(c[1], jumped);
			spring_chain_reset(c[2], jumped);
			prev[1] = tip_of(c[1]);
			prev[2] = tip_of(c[2]);
		}
		time += 1.0 / 60.0;
		spring_xform3 r = scene_tail_root(time);
		r.position.x += offset;
		out->t[f] = time;
		for (int k = 0; k < 3; k++) {
			spring_chain_update(c[k], r, 1.0f / 60.0f);
			spring_vec3 now = tip_of(c[k]);
			float dx = now.x - prev[k].x, dy = now.y - prev[k].y;
			series[k][f] = sqrt((double)dx * dx + (double)dy * dy) * 60.0;
			prev[k] = now;
		}
		if (f < DEMO_TELEPORT_BEFORE) {
			out->peak_before = fmax(out->peak_before, out->naive[f]);
		} else {
			out->peak_naive = fmax(out->peak_naive, out->naive[f]);
			out->peak_teleported = fmax(out->peak_teleported, out->teleported[f]);
			out->peak_reset = fmax(out->peak_reset, out->reset[f]);
		}
	}
	for (int k = 0; k < 3; k++) {
		spring_chain_destroy(c[k]);
	}
	out->count = DEMO_TELEPORT_FRAMES;
}

int demo_chains(demo_report *report)
{
	printf("Secondary motion: an 8-bone, 20-unit tail (2 Hz, ratio 0.3, gravity)\n\n");
	spring_vec3 ref[16], out[16];
	if (run(1000.0f, ref)) {
		return 1;
	}
	const float rates[] = {24.0f, 30.0f, 60.0f, 144.0f, 240.0f, 0.0f};
	int failures = 0;
	printf("  tip envelope vs a 1 kHz run (worst over 8 s, %% of the tail length; tolerance 1%%)\n  ");
	char line[sizeof report->chain_lines[0]];
	int used = snprintf(line, sizeof line, "tail tip envelope vs 1 kHz (tolerance 1%% of the length):");
	for (int i = 0; i < 6; i++) {
		if (run(rates[i], out)) {
			return 1;
		}
		float worst = 0.0f;
		for (int k = 0; k < 16; k++) {
			float dx = out[k].x - ref[k].x, dy = out[k].y - ref[k].y, dz = out[k].z - ref[k].z;
			worst = fmaxf(worst, sqrtf(dx * dx + dy * dy + dz * dz) / chain_len);
		}
		if (rates[i] > 0.0f) {
			printf("%g fps %.3f%%   ", (double)rates[i], 100.0 * worst);
		} else {
			printf("jittery %.3f%%\n", 100.0 * worst);
		}
		if (used >= 0 && (size_t)used < sizeof line) {
			if (rates[i] > 0.0f) {
				used += snprintf(line + used, sizeof line - (size_t)used, " %g fps %.3f%%,", (double)rates[i], 100.0 * worst);
			} else {
				used += snprintf(line + used, sizeof line - (size_t)used, " jittery %.3f%%", 100.0 * worst);
			}
		}
		failures += worst > 0.01f;
	}
	demo_report_line(report, line, failures == 0);
	// Teleport: the root jumps 2000 units (the page's figure reads the same run from the report).
	demo_teleport *tp = &report->teleport;
	teleport_run(tp);
	if (tp->count == 0) {
		return 1;
	}
	snprintf(line, sizeof line,
	         "teleport by 2000 units: peak tip speed %.0f u/s before; after, %.0f teleported, %.0f reset (told: under "
	         "twice the peak before), %.0f without telling the chain",
	         tp->peak_before, tp->peak_teleported, tp->peak_reset, tp->peak_naive);
	printf("  %s\n", line);
	int told = tp->peak_teleported < 2.0 * tp->peak_before && tp->peak_reset < 2.0 * tp->peak_before;
	demo_report_line(report, line, told);
	failures += !told;
	// Rest: a minute at a still root.
	spring_chain *c = make_tail(scene_tail_root(0.0));
	if (!c) {
		return 1;
	}
	float lo = INFINITY, hi = -INFINITY;
	for (int f = 0; f < 3600; f++) {
		spring_chain_update(c, scene_tail_root(0.0), 1.0f / 60.0f);
		if (f >= 3540) {
			spring_vec3 p = tip_of(c);
			lo = fminf(lo, p.y);
			hi = fmaxf(hi, p.y);
		}
	}
	spring_chain_destroy(c);
	printf("  rest: tip motion over the last of 60 s at a still root: %.1e of the tail length\n\n",
	       (double)((hi - lo) / chain_len));
	snprintf(line, sizeof line, "rest: tip motion over the last of 60 s at a still root: %.1e of the tail length (< 1e-6)",
	         (double)((hi - lo) / chain_len));
	demo_report_line(report, line, (hi - lo) / chain_len < 1e-6f);
	failures += (hi - lo) / chain_len >= 1e-6f;
	return failures;
}
