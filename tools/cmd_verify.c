// SPDX-License-Identifier: MIT
// `spring verify`: the three objective checks (energy, rest, envelope across frame rates) on the
// user's own spring or rig file, each figure with PASS/FAIL; exit status 1 on a failure.
#include "rig_util.h"

#include <spring/verify.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char verify_help[] =
	"usage: spring verify [SPRING] [--fps LIST] [--integrator exact|semi-implicit|both] [--step S] [--json]\n"
	"       spring verify RIG.json [--clip NAME] [--fps LIST] [--seconds S] [--json]\n"
	"       spring verify MODEL.vrm --motion MOTION.json ... (spring verify MODEL.vrm --help)\n"
	"\n"
	"Runs the three objective checks and prints every figure with PASS or FAIL. Exit status 0 when\n"
	"everything passes, 1 when a check fails, 2 for a usage or input error.\n"
	"\n"
	"On a spring (through a fixed-step spring_clock, inputs interpolated across sub-steps):\n"
	"  1 energy    a free decay from a unit displacement (600 frames at each frame rate): every\n"
	"              half-cycle peak smaller than the one before\n"
	"  2 rest      a minute at a fixed target: motion over the last second below 1e-6 of the move\n"
	"  3 envelope  a moving target at each frame rate and on a jittery clock (4..40 ms frames)\n"
	"              against a 1 kHz run: within 1% of the target's amplitude at common times\n"
	"\n"
	"On a rig file, per spring chain (tip of the chain's last bone):\n"
	"  1 energy    the clip plays for 1 s, then the rig holds its setup pose: from the largest tip\n"
	"              swing on, the largest swing in each 0.5 s window is smaller than in the one before\n"
	"              (until below 1e-5 of the chain length)\n"
	"  2 rest      after a minute at that held pose the tip moves less than 1e-6 of the chain length and\n"
	"              the chain has come to exact rest (on its targets, velocity exactly zero)\n"
	"              over the last second\n"
	"  3 envelope  the clip at each frame rate and on a jittery clock against a 1 kHz run, stopped\n"
	"              dead half way (the clip paused: a sudden stop): tip positions (relative to the rig's\n"
	"              root) within 1% of the chain length every 0.5 s\n"
	"\n"
	"  --fps LIST        frame rates, comma-separated (default 24,30,60,144)\n"
	"  --integrator I    spring: exact (the default integrator), semi-implicit, or both (default both)\n"
	"  --step S          spring: the clock's fixed step in seconds (default 1/120)\n"
	"  --clip NAME       rig: the clip to play (default the first)\n"
	"  --seconds S       rig: length of the envelope runs (default 4)\n"
	"  --json            one JSON object\n"
	"\n";

#define VERIFY_MAX_FPS (SPRING_CHECK_MAX_RATES - 1)

static void pf(sbuf *b, int passed)
{
	sb_puts(b, passed ? "PASS" : "FAIL");
}

// ---------------------------------------------------------------------------------------------
// A spring

typedef struct integrator_result {
	const char *name;
	spring_result energy_error[VERIFY_MAX_FPS], rest_error[VERIFY_MAX_FPS], envelope_error;
	spring_energy_report energy[VERIFY_MAX_FPS];
	spring_rest_report rest[VERIFY_MAX_FPS];
	spring_envelope_report envelope;
} integrator_result;

// Opens one check's object: its frame rate, whether it passed, and the library's error when it
// could not run. 1 when it ran (its figures follow).
static int json_check_begin(jw *w, double fps, spring_result error, int passed)
{
	jw_object(w, NULL);
	jw_num(w, "fps", fps);
	jw_bool(w, "passed", error == SPRING_OK && passed);
	if (error != SPRING_OK) {
		jw_str(w, "error", spring_result_string(error));
		return 0;
	}
	return 1;
}

// The text twin of json_check_begin: "  1 energy     30 fps  " and PASS or FAIL (with the library's
// error when the check could not run). 1 when it ran (its figures follow).
static int text_check_begin(sbuf *b, const char *label, double fps, spring_result error, int passed)
{
	char n[40];
	sb_printf(b, "  %-12s%6s fps  ", label, fmt_num(n, fps, 6));
	if (error != SPRING_OK) {
		sb_printf(b, "FAIL  %s\n", spring_result_string(error));
		return 0;
	}
	pf(b, passed);
	return 1;
}

// One run of the envelope check: its frame rate (0: the jittery clock) and its error.
static void json_envelope_run(jw *w, double fps, double max_error)
{
	jw_object(w, NULL);
	if (fps > 0.0) {
		jw_num(w, "fps", fps);
	} else {
		jw_str(w, "fps", "jittery");
	}
	jw_num(w, "max_error", max_error);
	jw_object_end(w);
}

// The end of every verify document: the counts and the verdict.
static void json_verdict(jw *w, int checks, int failures)
{
	jw_int(w, "checks", checks);
	jw_int(w, "failures", failures);
	jw_bool(w, "passed", failures == 0);
	cli_json_end(w);
}

// The frame rates in text: " 30, 60, 144".
static void text_fps(sbuf *b, const double *fps, int fps_count)
{
	char n[40];
	for (int i = 0; i < fps_count; i++) {
		sb_printf(b, "%s %s", i ? "," : "", fmt_num(n, fps[i], 6));
	}
}

// The end of every verify text: the verdict.
static void text_verdict(sbuf *b, int checks, int failures)
{
	if (failures) {
		sb_printf(b, "\nFAIL: %d of %d checks failed\n", failures, checks);
	} else {
		sb_printf(b, "\nPASS: all %d checks passed\n", checks);
	}
}

// Prints the report (and frees it); exit status 1 when a check failed.
static int verify_output(sbuf *b, int failures)
{
	int rc = cli_output("verify", b);
	return rc != CLI_OK ? rc : failures ? CLI_FAILED_CHECK : CLI_OK;
}

// One integrator's checks as a JSON object.
static void json_integrator(jw *w, const integrator_result *r, const double *fps, int fps_count)
{
	jw_object(w, NULL);
	jw_str(w, "integrator", r->name);
	jw_array(w, "energy", 0);
	for (int i = 0; i < fps_count; i++) {
		if (json_check_begin(w, fps[i], r->energy_error[i], r->energy[i].passed)) {
			jw_int(w, "peaks", r->energy[i].peaks);
			jw_int(w, "growths", r->energy[i].growths);
			jw_num(w, "worst_ratio", r->energy[i].worst_ratio);
			jw_num(w, "first_peak", r->energy[i].first_peak);
			jw_num(w, "last_peak", r->energy[i].last_peak);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_array(w, "rest", 0);
	for (int i = 0; i < fps_count; i++) {
		if (json_check_begin(w, fps[i], r->rest_error[i], r->rest[i].passed)) {
			jw_num(w, "seconds", r->rest[i].seconds);
			jw_num(w, "last_second_move", r->rest[i].last_second_move);
			jw_num(w, "final_offset", r->rest[i].final_offset);
			jw_num(w, "tolerance", 1e-6);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object(w, "envelope");
	jw_bool(w, "passed", r->envelope_error == SPRING_OK && r->envelope.passed);
	if (r->envelope_error != SPRING_OK) {
		jw_str(w, "error", spring_result_string(r->envelope_error));
	} else {
		jw_num(w, "tolerance", r->envelope.tolerance);
		jw_num(w, "worst", r->envelope.worst);
		jw_array(w, "runs", 0);
		for (int i = 0; i < r->envelope.rate_count; i++) {
			json_envelope_run(w, r->envelope.fps[i], r->envelope.max_error[i]);
		}
		jw_array_end(w);
	}
	jw_object_end(w);
	jw_object_end(w);
}

// One integrator's checks in text.
static void text_integrator(sbuf *b, const integrator_result *r, const double *fps, int fps_count)
{
	char n[40];
	sb_printf(b, "\nintegrator: %s\n", r->name);
	for (int i = 0; i < fps_count; i++) {
		if (text_check_begin(b, "1 energy", fps[i], r->energy_error[i], r->energy[i].passed)) {
			sb_printf(b, "  %d peaks, %d grew; largest ratio of a peak to the one before %s (must be < 1)\n", r->energy[i].peaks,
			          r->energy[i].growths, fmt_num(n, r->energy[i].peaks > 1 ? r->energy[i].worst_ratio : 0.0, 4));
		}
	}
	for (int i = 0; i < fps_count; i++) {
		if (text_check_begin(b, "2 rest", fps[i], r->rest_error[i], r->rest[i].passed)) {
			sb_printf(b, "  motion over the last of 60 s: %s of the move (must be < 1e-06)\n",
			          fmt_num(n, r->rest[i].last_second_move, 3));
		}
	}
	if (r->envelope_error != SPRING_OK) {
		sb_printf(b, "  3 envelope             FAIL  %s\n", spring_result_string(r->envelope_error));
		return;
	}
	for (int i = 0; i < r->envelope.rate_count; i++) {
		char rate[48];
		if (r->envelope.fps[i] > 0.0f) {
			snprintf(rate, sizeof rate, "%s fps", fmt_num(n, r->envelope.fps[i], 6));
		} else {
			snprintf(rate, sizeof rate, "jittery");
		}
		sb_printf(b, "  3 envelope  %10s  ", rate);
		pf(b, r->envelope.max_error[i] <= r->envelope.tolerance);
		sb_printf(b, "  worst deviation from 1 kHz: %s%% of the amplitude (tolerance 1%%)\n",
		          fmt_num(n, 100.0 * r->envelope.max_error[i], 3));
	}
}

static int verify_spring(cli_args *a, const double *fps, int fps_count)
{
	const char *cmd = "verify";
	cli_spring s;
	if (cli_resolve_spring(a, 0, &s) != CLI_OK) {
		return CLI_USAGE;
	}
	const char *which = cli_str(a, "--integrator", "both");
	int use_exact = strcmp(which, "exact") == 0 || strcmp(which, "both") == 0;
	int use_semi = strcmp(which, "semi-implicit") == 0 || strcmp(which, "both") == 0;
	if (!use_exact && !use_semi) {
		char shown[160];
		return cli_error(cmd, "--integrator: '%s' is not exact, semi-implicit or both", cli_clean(shown, sizeof shown, which));
	}
	double step = cli_num(a, "--step", 1.0 / SPRING_CLOCK_DEFAULT_RATE);
	integrator_result res[2];
	int count = 0;
	float rates[VERIFY_MAX_FPS];
	for (int i = 0; i < fps_count; i++) {
		rates[i] = (float)fps[i];
	}
	for (int m = 0; m < 2; m++) {
		if ((m == 0 && !use_exact) || (m == 1 && !use_semi)) {
			continue;
		}
		integrator_result *r = &res[count++];
		memset(r, 0, sizeof *r);
		r->name = m == 0 ? "exact" : "semi-implicit";
		spring_check_desc desc = {.step = m == 0 ? spring_step_fn_exact : spring_step_fn_semi_implicit,
		                          .clock_step = (float)step};
		for (int i = 0; i < fps_count; i++) {
			r->energy_error[i] = spring_check_energy(s.p, rates[i], 600, &desc, &r->energy[i]);
			r->rest_error[i] = spring_check_rest(s.p, rates[i], 60.0f, &desc, &r->rest[i]);
		}
		r->envelope_error = spring_check_envelope(s.p, rates, fps_count, 1, &desc, &r->envelope);
	}
	int checks = 0, failures = 0;
	for (int k = 0; k < count; k++) {
		for (int i = 0; i < fps_count; i++) {
			checks += 2;
			failures += !(res[k].energy_error[i] == SPRING_OK && res[k].energy[i].passed);
			failures += !(res[k].rest_error[i] == SPRING_OK && res[k].rest[i].passed);
		}
		checks++;
		failures += !(res[k].envelope_error == SPRING_OK && res[k].envelope.passed);
	}
	sbuf b;
	sb_init(&b);
	char n[3][40];
	if (cli_flag(a, "--json")) {
		jw w;
		cli_json_begin(&w, &b, cmd);
		cli_json_spring(&w, "spring", &s);
		jw_num(&w, "clock_step", step);
		jw_num_array(&w, "fps", fps, fps_count);
		jw_array(&w, "integrators", 0);
		for (int k = 0; k < count; k++) {
			json_integrator(&w, &res[k], fps, fps_count);
		}
		jw_array_end(&w);
		json_verdict(&w, checks, failures);
	} else {
		sb_printf(&b, "spring parameters: %s (stiffness %s, damping %s, mass %s)\n", s.description,
		          fmt_num(n[0], s.p.stiffness, 6), fmt_num(n[1], s.p.damping, 6), fmt_num(n[2], s.p.mass, 6));
		sb_printf(&b, "clock: fixed step %s s, at most %d steps a frame; frame rates", fmt_num(n[0], step, 6),
		          SPRING_CLOCK_DEFAULT_MAX_STEPS);
		text_fps(&b, fps, fps_count);
		sb_puts(&b, " fps and a jittery clock\n");
		for (int k = 0; k < count; k++) {
			text_integrator(&b, &res[k], fps, fps_count);
		}
		text_verdict(&b, checks, failures);
	}
	return verify_output(&b, failures);
}

// ---------------------------------------------------------------------------------------------
// A rig

#define RIG_HOLD_FPS 60.0
#define RIG_MOTION_SECONDS 1.0
#define RIG_HOLD_SECONDS 60.0
#define RIG_WINDOW 0.5
#define RIG_CHECKPOINT 0.5
#define RIG_ENVELOPE_TOL 0.01
#define RIG_REST_TOL 1e-6
#define RIG_QUIET 1e-5

typedef struct chain_result {
	double length;
	// energy
	double peak, peak_time, worst_ratio;
	int windows, energy_passed;
	int finite; // every tip position of the hold was finite (nothing passes otherwise)
	// rest
	double rest_move;
	int rest_passed;
	double rest_time; // seconds into the hold when the chain came to exact rest; < 0: never
	// envelope
	double env[VERIFY_MAX_FPS + 1], env_worst;
	int env_passed;
} chain_result;

// Checks 1 and 2: 1 s of the clip, then the setup pose held for a minute at 60 fps.
static int rig_hold(const char *cmd, rig_file *f, int clip, chain_result *out)
{
	int chains = f->info->chain_count;
	int hold = (int)(RIG_HOLD_SECONDS * RIG_HOLD_FPS);
	float dt = (float)(1.0 / RIG_HOLD_FPS);
	spring_xform2 *world = malloc(sizeof(spring_xform2) * (size_t)f->bone_count);
	double *tips = malloc(sizeof(double) * 2 * (size_t)hold * (size_t)(chains > 0 ? chains : 1));
	if (!world || !tips) {
		free(world);
		free(tips);
		return cli_error(cmd, "out of memory");
	}
	spring_rig_play(f->rig, clip, 0.0f);
	for (int i = 0; i < (int)(RIG_MOTION_SECONDS * RIG_HOLD_FPS); i++) {
		if (rig_file_update(cmd, f, dt, (double)(i + 1) / RIG_HOLD_FPS, NULL, NULL) != CLI_OK) {
			free(world);
			free(tips);
			return CLI_USAGE;
		}
	}
	spring_rig_play(f->rig, -1, 0.0f);
	for (int c = 0; c < chains; c++) {
		out[c].rest_time = -1.0;
	}
	for (int i = 0; i < hold; i++) {
		spring_rig_update(f->rig, dt);
		spring_rig_get_world(f->rig, world, f->bone_count);
		for (int c = 0; c < chains; c++) {
			bool resting = spring_rig_chain_is_resting(f->rig, c);
			out[c].rest_time = !resting ? -1.0 : out[c].rest_time >= 0.0 ? out[c].rest_time : (double)(i + 1) / RIG_HOLD_FPS;
			spring_vec2 tip = rig_chain_tip(f, world, c);
			tips[((size_t)c * hold + i) * 2] = tip.x;
			tips[((size_t)c * hold + i) * 2 + 1] = tip.y;
		}
	}
	for (int c = 0; c < chains; c++) {
		chain_result *r = &out[c];
		const double *tc = tips + (size_t)c * hold * 2;
		double fx = tc[(hold - 1) * 2], fy = tc[(hold - 1) * 2 + 1];
		r->finite = 1;
		for (int i = 0; i < hold * 2; i++) {
			r->finite &= isfinite(tc[i]) != 0;
		}
		int imax = 0;
		double dmax = -1.0;
		for (int i = 0; i < hold; i++) {
			double d = hypot(tc[i * 2] - fx, tc[i * 2 + 1] - fy);
			if (d > dmax) {
				dmax = d;
				imax = i;
			}
		}
		r->peak = dmax;
		r->peak_time = RIG_MOTION_SECONDS + (double)(imax + 1) / RIG_HOLD_FPS;
		int w = (int)(RIG_WINDOW * RIG_HOLD_FPS);
		double prev = -1.0, worst = 0.0;
		int windows = 0, grew = 0;
		for (int start = imax; start < hold; start += w) {
			double m = 0.0;
			for (int i = start; i < start + w && i < hold; i++) {
				m = fmax(m, hypot(tc[i * 2] - fx, tc[i * 2 + 1] - fy));
			}
			if (prev >= 0.0) {
				double ratio = prev > 0.0 ? m / prev : 0.0;
				worst = fmax(worst, ratio);
				grew += !(m < prev);
			}
			windows++;
			prev = m;
			if (m < RIG_QUIET * r->length) {
				break;
			}
		}
		r->windows = windows;
		r->worst_ratio = worst;
		r->energy_passed = grew == 0 && r->finite;
		double move = 0.0;
		for (int i = hold - (int)RIG_HOLD_FPS; i < hold; i++) {
			move = fmax(move, hypot(tc[i * 2] - fx, tc[i * 2 + 1] - fy));
		}
		r->rest_move = move / r->length;
		// Exact rest: the chain lands on its targets with zero velocity (and stays) within the minute.
		r->rest_passed = r->rest_move < RIG_REST_TOL && r->rest_time >= 0.0 && r->finite;
	}
	free(world);
	free(tips);
	return CLI_OK;
}

// The checkpoint of an envelope run of `checkpoints` at which the clip stops dead (is paused).
static int rig_envelope_stop(int checkpoints)
{
	return (checkpoints + 1) / 2;
}

// One envelope run: frames at `fps` (0: jittery), landing exactly on every checkpoint, the clip
// paused at checkpoint rig_envelope_stop (a sudden stop, at the same time at every rate); records
// each chain's tip relative to the root at each checkpoint into out[(k * chains + c) * 2].
static int rig_envelope_run(const char *cmd, const char *path, int clip, double fps, int checkpoints, double *out)
{
	rig_file f;
	if (rig_file_load(cmd, path, &f) != CLI_OK) {
		return CLI_USAGE;
	}
	int chains = f.info->chain_count;
	spring_xform2 *world = malloc(sizeof(spring_xform2) * (size_t)f.bone_count);
	if (!world) {
		rig_file_close(&f);
		return cli_error(cmd, "out of memory");
	}
	spring_rig_play(f.rig, clip, 0.0f);
	spring_frame_clock clock;
	if (spring_frame_clock_init(&clock, fps, RIG_CHECKPOINT, 0) != SPRING_OK) {
		free(world);
		rig_file_close(&f);
		return cli_error(cmd, "frame rate %g out of range", fps);
	}
	while (clock.checkpoints < checkpoints) {
		float dt = spring_frame_clock_next(&clock);
		if (rig_file_update(cmd, &f, dt, clock.time, NULL, NULL) != CLI_OK) {
			free(world);
			rig_file_close(&f);
			return CLI_USAGE;
		}
		if (!clock.at_checkpoint) {
			continue;
		}
		int k = clock.checkpoints - 1;
		spring_rig_get_world(f.rig, world, f.bone_count);
		for (int c = 0; c < chains; c++) {
			spring_vec2 tip = rig_chain_tip(&f, world, c);
			spring_xform2 root = spring_rig_root(f.rig);
			out[((size_t)k * chains + c) * 2] = (double)tip.x - root.position.x;
			out[((size_t)k * chains + c) * 2 + 1] = (double)tip.y - root.position.y;
		}
		if (clock.checkpoints == rig_envelope_stop(checkpoints)) {
			spring_rig_set_paused(f.rig, true);
		}
	}
	free(world);
	rig_file_close(&f);
	return CLI_OK;
}

// One chain's checks as a JSON object.
static void json_chain(jw *w, const spring_rig_file_chain *info, const chain_result *r, const double *fps, int fps_count)
{
	jw_object(w, NULL);
	jw_str(w, "name", info->name);
	jw_str(w, "type", spring_rig_file_chain_type_name(info->type));
	jw_num(w, "length", r->length);
	jw_object(w, "energy");
	jw_bool(w, "passed", r->energy_passed);
	jw_num(w, "largest_swing", r->peak);
	jw_num(w, "largest_swing_time", r->peak_time);
	jw_int(w, "windows", r->windows);
	jw_num(w, "worst_window_ratio", r->worst_ratio);
	jw_object_end(w);
	jw_object(w, "rest");
	jw_bool(w, "passed", r->rest_passed);
	jw_num(w, "last_second_move", r->rest_move);
	jw_bool(w, "exact_rest", r->rest_time >= 0.0);
	jw_bool(w, "finite", r->finite);
	if (r->rest_time >= 0.0) {
		jw_num(w, "exact_rest_after", r->rest_time);
	}
	jw_num(w, "tolerance", RIG_REST_TOL);
	jw_object_end(w);
	jw_object(w, "envelope");
	jw_bool(w, "passed", r->env_passed);
	jw_num(w, "worst", r->env_worst);
	jw_num(w, "tolerance", RIG_ENVELOPE_TOL);
	jw_array(w, "runs", 0);
	for (int i = 0; i <= fps_count; i++) {
		json_envelope_run(w, i < fps_count ? fps[i] : 0.0, r->env[i]);
	}
	jw_array_end(w);
	jw_object_end(w);
	jw_object_end(w);
}

// One chain's checks in text.
static void text_chain(sbuf *b, const spring_rig_file_chain *info, const chain_result *r, const double *fps, int fps_count)
{
	char n[4][40];
	sb_printf(b, "\nchain %s (%s, %d bones, length %s)\n", info->name, spring_rig_file_chain_type_name(info->type),
	          info->bone_count, fmt_num(n[0], r->length, 6));
	if (!r->finite) {
		sb_puts(b, "  the chain's tip left the numbers (NaN or infinite): every check fails\n");
	}
	sb_puts(b, "  1 energy    ");
	pf(b, r->energy_passed);
	sb_printf(b,
	          "  largest tip swing %s (%s%% of the length) at %s s; each 0.5 s window's largest swing over the one "
	          "before: at most %s (must be < 1; %d windows)\n",
	          fmt_num(n[0], r->peak, 4), fmt_num(n[1], 100.0 * r->peak / r->length, 3), fmt_num(n[2], r->peak_time, 4),
	          fmt_num(n[3], r->worst_ratio, 3), r->windows);
	sb_puts(b, "  2 rest      ");
	pf(b, r->rest_passed);
	sb_printf(b, "  tip motion over the last second: %s of the length (must be < 1e-06); ", fmt_num(n[0], r->rest_move, 3));
	if (r->rest_time >= 0.0) {
		sb_printf(b, "exact rest (zero velocity) after %s s\n", fmt_num(n[1], r->rest_time, 3));
	} else {
		sb_puts(b, "never came to exact rest\n");
	}
	sb_puts(b, "  3 envelope  ");
	pf(b, r->env_passed);
	sb_printf(b, "  worst %s%% of the length (tolerance 1%%):", fmt_num(n[0], 100.0 * r->env_worst, 3));
	for (int i = 0; i <= fps_count; i++) {
		if (i < fps_count) {
			sb_printf(b, "%s %s fps %s%%", i ? "," : "", fmt_num(n[0], fps[i], 6), fmt_num(n[1], 100.0 * r->env[i], 3));
		} else {
			sb_printf(b, ", jittery %s%%", fmt_num(n[1], 100.0 * r->env[i], 3));
		}
	}
	sb_putc(b, '\n');
}

static int verify_rig(cli_args *a, const double *fps, int fps_count)
{
	const char *cmd = "verify";
	const char *path = a->positional[0];
	double seconds = cli_num(a, "--seconds", 4.0);
	rig_file f;
	if (rig_file_load(cmd, path, &f) != CLI_OK) { // its warnings go into the report
		return CLI_USAGE;
	}
	int clip = -1;
	if (rig_file_clip(cmd, &f, cli_str(a, "--clip", NULL), &clip) != CLI_OK) {
		rig_file_close(&f);
		return CLI_USAGE;
	}
	int chains = f.info->chain_count;
	if (chains == 0) {
		rig_file_close(&f);
		return cli_error(cmd, "%s has no spring chains to check", path);
	}
	chain_result *res = calloc((size_t)chains, sizeof *res);
	int checkpoints = (int)floor(seconds / RIG_CHECKPOINT + 1e-9);
	if (checkpoints < 1) {
		checkpoints = 1;
	}
	size_t per_run = (size_t)checkpoints * (size_t)chains * 2;
	double *ref = malloc(sizeof(double) * per_run), *run = malloc(sizeof(double) * per_run);
	if (!res || !ref || !run) {
		free(res);
		free(ref);
		free(run);
		rig_file_close(&f);
		return cli_error(cmd, "out of memory");
	}
	for (int c = 0; c < chains; c++) {
		res[c].length = rig_chain_length(&f, c);
	}
	int rc = rig_hold(cmd, &f, clip, res);
	if (rc == CLI_OK) {
		rc = rig_envelope_run(cmd, path, clip, 1000.0, checkpoints, ref);
	}
	for (int i = 0; rc == CLI_OK && i <= fps_count; i++) {
		rc = rig_envelope_run(cmd, path, clip, i < fps_count ? fps[i] : 0.0, checkpoints, run);
		for (int c = 0; rc == CLI_OK && c < chains; c++) {
			double worst = 0.0;
			for (int k = 0; k < checkpoints; k++) {
				size_t o = ((size_t)k * chains + c) * 2;
				worst = fmax(worst, hypot(run[o] - ref[o], run[o + 1] - ref[o + 1]) / res[c].length);
			}
			res[c].env[i] = worst;
			res[c].env_worst = fmax(res[c].env_worst, worst);
		}
	}
	free(ref);
	free(run);
	if (rc != CLI_OK) {
		free(res);
		rig_file_close(&f);
		return rc;
	}
	int checks = 0, failures = 0;
	for (int c = 0; c < chains; c++) {
		res[c].env_passed = res[c].env_worst <= RIG_ENVELOPE_TOL && res[c].finite;
		checks += 3;
		failures += !res[c].energy_passed + !res[c].rest_passed + !res[c].env_passed;
	}
	const char *clip_name = clip >= 0 ? f.info->clips[clip].name : NULL;
	sbuf b;
	sb_init(&b);
	char n[40];
	if (cli_flag(a, "--json")) {
		jw w;
		cli_json_begin(&w, &b, cmd);
		jw_str(&w, "file", path);
		jw_str(&w, "clip", clip_name);
		jw_num(&w, "hold_fps", RIG_HOLD_FPS);
		jw_num(&w, "motion_seconds", RIG_MOTION_SECONDS);
		jw_num(&w, "hold_seconds", RIG_HOLD_SECONDS);
		jw_num(&w, "envelope_seconds", checkpoints * RIG_CHECKPOINT);
		jw_num(&w, "envelope_stop_seconds", rig_envelope_stop(checkpoints) * RIG_CHECKPOINT);
		jw_num_array(&w, "fps", fps, fps_count);
		jw_array(&w, "warnings", 0);
		for (int i = 0; i < f.info->warning_count && i < SPRING_RIG_FILE_MAX_WARNINGS; i++) {
			jw_str(&w, NULL, f.info->warnings[i]);
		}
		jw_array_end(&w);
		jw_array(&w, "chains", 0);
		for (int c = 0; c < chains; c++) {
			json_chain(&w, &f.info->chains[c], &res[c], fps, fps_count);
		}
		jw_array_end(&w);
		json_verdict(&w, checks, failures);
	} else {
		char shown[200];
		sb_printf(&b, "rig: %s (%d chains), clip %s\n", cli_clean(shown, sizeof shown, path), chains,
		          clip_name ? clip_name : "(none)");
		for (int i = 0; i < f.info->warning_count && i < SPRING_RIG_FILE_MAX_WARNINGS; i++) {
			char warning[SPRING_RIG_FILE_WARNING_SIZE];
			sb_printf(&b, "warning: %s\n", cli_clean(warning, sizeof warning, f.info->warnings[i]));
		}
		sb_printf(&b, "energy and rest: 1 s of the clip, then the setup pose held for 60 s at 60 fps\n");
		sb_printf(&b, "envelope: %s s of the clip at", fmt_num(n, checkpoints * RIG_CHECKPOINT, 6));
		text_fps(&b, fps, fps_count);
		sb_printf(&b, " fps and on a jittery clock, stopped dead at %s s, against 1 kHz, every 0.5 s\n",
		          fmt_num(n, rig_envelope_stop(checkpoints) * RIG_CHECKPOINT, 6));
		for (int c = 0; c < chains; c++) {
			text_chain(&b, &f.info->chains[c], &res[c], fps, fps_count);
		}
		text_verdict(&b, checks, failures);
	}
	free(res);
	rig_file_close(&f);
	return verify_output(&b, failures);
}

int cmd_verify(int argc, char **argv)
{
	if (cli_is_vrm_model(argc, argv)) {
		return cmd_verify_vrm(argc, argv);
	}
	const char *cmd = "verify";
	cli_args a;
	cli_args_init(&a, cmd, 1);
	cli_add_spring_options(&a);
	cli_add(&a, "--fps", CLI_STRING, "LIST", CLI_ANY);
	cli_add(&a, "--integrator", CLI_STRING, "I", CLI_ANY);
	cli_add(&a, "--step", CLI_NUMBER, "S", (cli_range){0.0, 1.0, 1, 0});
	cli_add(&a, "--clip", CLI_STRING, "NAME", CLI_ANY);
	cli_add(&a, "--seconds", CLI_NUMBER, "S", (cli_range){0.5, 600.0, 0, 0});
	cli_add_outputs(&a, 0, 0);
	int status;
	if (cli_parse_command(&a, argc, argv, verify_help, &status)) {
		return status;
	}
	double fps[VERIFY_MAX_FPS] = {24.0, 30.0, 60.0, 144.0};
	int fps_count = 4;
	if (cli_flag(&a, "--fps") && cli_parse_list(cmd, "--fps", cli_str(&a, "--fps", ""), fps, VERIFY_MAX_FPS, &fps_count,
	                                            (cli_range){1.0, 10000.0, 0, 0}) != CLI_OK) {
		return CLI_USAGE;
	}
	int springs = cli_spring_flag_count(&a) + cli_flag(&a, "--epsilon");
	if (a.positional_count == 1) {
		if (springs) {
			return cli_error(cmd, "give a rig file or spring parameters, not both");
		}
		if (cli_flag(&a, "--integrator") || cli_flag(&a, "--step")) {
			return cli_error(cmd, "%s applies to a spring, not to a rig file",
			                 cli_flag(&a, "--integrator") ? "--integrator" : "--step");
		}
		return verify_rig(&a, fps, fps_count);
	}
	if (cli_flag(&a, "--clip") || cli_flag(&a, "--seconds")) {
		return cli_error(cmd, "%s applies to a rig file (spring verify RIG.json ...)",
		                 cli_flag(&a, "--clip") ? "--clip" : "--seconds");
	}
	if (!springs) {
		return cli_error(cmd, "give a rig file or spring parameters (for example --duration 0.5 --bounce 0.3; see --help)");
	}
	return verify_spring(&a, fps, fps_count);
}
