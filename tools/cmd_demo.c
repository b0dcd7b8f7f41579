// SPDX-License-Identifier: MIT
// `spring demo`: prints the conversion table, the secondary-motion section (demo_chain.c) and the
// three objective checks with their figures, and writes the self-contained page
// out/demo/index.html (demo_html.c).
#include "cli.h"
#include "demo.h"

#include <spring/spring.h>
#include <spring/verify.h>
#include <spring/version.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct named_spring {
	const char *name;
	const char *given;
	spring_result result;
	spring_params p;
} named_spring;

static int demo_table(void)
{
	named_spring rows[16];
	int n = 0;
#define ROW(label, desc, call) \
	do {                       \
		rows[n].name = label;  \
		rows[n].given = desc;  \
		rows[n].result = call; \
		n++;                   \
	} while (0)
	ROW("SwiftUI .smooth", "duration 0.5, bounce 0", spring_params_from_duration_bounce(0.5f, 0.0f, &rows[n].p));
	ROW("SwiftUI .snappy", "duration 0.5, bounce 0.15", spring_params_from_duration_bounce(0.5f, 0.15f, &rows[n].p));
	ROW("SwiftUI .bouncy", "duration 0.5, bounce 0.3", spring_params_from_duration_bounce(0.5f, 0.3f, &rows[n].p));
	ROW("SwiftUI overdamped", "duration 0.5, bounce -0.5", spring_params_from_duration_bounce(0.5f, -0.5f, &rows[n].p));
	ROW("physical", "mass 1, stiffness 100, damping 10", spring_params_from_physical(1.0f, 100.0f, 10.0f, &rows[n].p));
	ROW("Motion", "visualDuration 0.5, bounce 0.3", spring_params_from_visual_duration(0.5f, 0.3f, &rows[n].p));
	ROW("react-spring default", "tension 170, friction 26", spring_params_from_tension_friction(170.0f, 26.0f, &rows[n].p));
	ROW("Origami default", "tension 40, friction 7", spring_params_from_origami(40.0f, 7.0f, &rows[n].p));
	ROW("settling", "1 s, ratio 0.7, eps 0.001", spring_params_from_settling(1.0f, 0.7f, 0.001f, &rows[n].p));
	ROW("hair", "2 Hz, ratio 0.3", spring_params_from_frequency(2.0f, 0.3f, &rows[n].p));
	ROW("camera follow", "half-life 0.1 s", spring_params_from_half_life(0.1f, &rows[n].p));
	ROW("per-frame port", "k 0.1, damping 0.7 at 30 fps", spring_params_from_per_frame(0.1f, 0.7f, 30.0f, &rows[n].p));
	ROW("per-frame twin", "same, for the exact integrator", spring_params_from_per_frame_exact(0.1f, 0.7f, 30.0f, &rows[n].p));
#undef ROW
	printf("Spring conversions (mass-normalised; settling for a unit move, epsilon 0.001)\n\n");
	printf("%-21s %-34s %9s %8s %6s %6s %8s %7s %9s %7s %7s\n", "spring", "given", "stiffness", "damping", "ratio", "hertz",
	       "duration", "bounce", "overshoot", "settle~", "settle");
	for (int i = 0; i < n; i++) {
		if (rows[i].result != SPRING_OK) {
			printf("%-21s %-34s error: %s\n", rows[i].name, rows[i].given, spring_result_string(rows[i].result));
			return 1;
		}
		spring_params p = rows[i].p;
		float bounce = spring_bounce(p);
		if (fabsf(bounce) < 5e-4f) {
			bounce = 0.0f; // critical damping computed from floats lands a hair either side
		}
		printf("%-21s %-34s %9.3f %8.3f %6.3f %6.3f %8.4f %7.3f %8.2f%% %7.3f %7.3f\n", rows[i].name, rows[i].given,
		       p.stiffness / p.mass, p.damping / p.mass, spring_damping_ratio(p), spring_frequency_hz(p), spring_duration(p),
		       bounce, 100.0f * spring_overshoot(p), spring_settling_duration(p, 1.0f, 0.0f, 0.001f),
		       spring_settling_time(p, 1.0f, 0.0f, 0.001f));
	}
	printf("\n  settle~ = SwiftUI-compatible envelope estimate (settlingDuration); settle = exact last time\n"
	       "  |x - target| > 0.001. Apple documents 157.9 / 17.6 / ~1.04 s for duration 0.5, bounce 0.3.\n\n");
	return 0;
}

static int demo_checks(demo_report *report)
{
	const float fps[] = {30.0f, 60.0f, 144.0f};
	const struct {
		const char *name;
		float hertz, ratio;
	} cases[] = {{"tail 1.5 Hz / 0.2", 1.5f, 0.2f},
	             {"hair 3 Hz / 0.4", 3.0f, 0.4f},
	             {"ear 6 Hz / 0.1", 6.0f, 0.1f},
	             {"heavy 0.5 Hz / 1.2", 0.5f, 1.2f}};
	const struct {
		const char *name;
		spring_step_fn *step;
	} methods[] = {{"exact", spring_step_fn_exact}, {"semi-implicit", spring_step_fn_semi_implicit}};
	int failures = 0;
	printf("Objective checks (fixed 1/120 s clock, inputs interpolated across sub-steps)\n\n");
	printf("%-20s %-14s %-26s %-24s %-30s\n", "spring", "integrator", "1 energy: peaks, worst", "2 rest: last-second move",
	       "3 envelope 30/60/144/jitter");
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		spring_params p;
		if (spring_params_from_frequency(cases[c].hertz, cases[c].ratio, &p) != SPRING_OK) {
			return 1;
		}
		for (size_t m = 0; m < 2; m++) {
			spring_check_desc desc = {.step = methods[m].step};
			spring_energy_report e;
			spring_rest_report r;
			spring_envelope_report v;
			if (spring_check_energy(p, 60.0f, 600, &desc, &e) != SPRING_OK ||
			    spring_check_rest(p, 60.0f, 60.0f, &desc, &r) != SPRING_OK ||
			    spring_check_envelope(p, fps, 3, 1, &desc, &v) != SPRING_OK) {
				printf("%-20s %-14s error running the checks\n", cases[c].name, methods[m].name);
				failures++;
				continue;
			}
			char energy[64], rest[64], env[64];
			snprintf(energy, sizeof energy, "%s %3d, ratio %.3f", e.passed ? "PASS" : "FAIL", e.peaks,
			         e.peaks > 1 ? e.worst_ratio : 0.0f);
			snprintf(rest, sizeof rest, "%s %.1e", r.passed ? "PASS" : "FAIL", r.last_second_move);
			snprintf(env, sizeof env, "%s max %.3f%% (tol 1%%)", v.passed ? "PASS" : "FAIL", 100.0f * v.worst);
			printf("%-20s %-14s %-26s %-24s %-30s\n", cases[c].name, methods[m].name, energy, rest, env);
			failures += !e.passed + !r.passed + !v.passed;
			if (report->row_count < 16) {
				int k = report->row_count++;
				snprintf(report->rows[k].spring, sizeof report->rows[k].spring, "%s", cases[c].name);
				snprintf(report->rows[k].integrator, sizeof report->rows[k].integrator, "%s", methods[m].name);
				snprintf(report->rows[k].energy, sizeof report->rows[k].energy, "%s", energy);
				snprintf(report->rows[k].rest, sizeof report->rows[k].rest, "%s", rest);
				snprintf(report->rows[k].envelope, sizeof report->rows[k].envelope, "%s", env);
				report->rows[k].passed = e.passed && r.passed && v.passed;
			}
			report->checks += 3;
		}
	}
	printf("\n  energy: every half-cycle peak of a free decay smaller than the last (600 frames at 60 fps)\n"
	       "  rest: motion over the last of 60 s at a fixed target, relative to the initial distance (< 1e-6)\n"
	       "  envelope: worst deviation from a 1 kHz run, relative to the target's amplitude\n\n");
	report->failures += failures;
	return failures ? 1 : 0;
}

static const char demo_help[] =
	"usage: spring demo [--out DIR]\n"
	"\n"
	"Prints the conversion table, the secondary-motion section (an 8-bone, 20-unit tail across frame rates, a\n"
	"teleport with and without reset, rest) and the three objective checks, and writes a\n"
	"self-contained page, out/demo/index.html (relative to the current directory), with SVG figures:\n"
	"the three damping regimes, tween versus spring speed on a retarget, the energy of explicit\n"
	"Euler versus semi-implicit versus exact, the sample character's tail at 30/60/144 fps, and a\n"
	"teleport with and without reset. Exit status 1 when a check fails.\n"
	"\n"
	"  --out DIR          write the page as DIR/index.html instead (DIR is created)\n"
	"\n"
	"The demo is a show for people: it has no --json (the checks themselves are spring verify --json).\n";

int cmd_demo(int argc, char **argv)
{
	cli_args a;
	cli_args_init(&a, "demo", 0);
	cli_add(&a, "--out", CLI_STRING, "DIR", CLI_ANY);
	cli_add(&a, "--json", CLI_FLAG, NULL, CLI_ANY); // only to say what to use instead
	int status;
	if (cli_parse_command(&a, argc, argv, demo_help, &status)) {
		return status;
	}
	if (cli_flag(&a, "--json")) {
		return cli_error("demo", "--json: the demo has no JSON form (spring verify --json gives its checks as JSON)");
	}
	char path[4096];
	const char *dir = cli_str(&a, "--out", "out/demo");
	if (!dir[0] || snprintf(path, sizeof path, "%s/index.html", dir) >= (int)sizeof path) {
		return cli_error("demo", "--out: give a directory (at most 4,000 bytes)");
	}
	demo_report report;
	memset(&report, 0, sizeof report);
	printf("libspring %s demo\n\n", SPRING_VERSION_STRING);
	int rc = demo_table();
	if (rc) {
		return rc;
	}
	int chain_failures = demo_chains(&report);
	int check_failures = demo_checks(&report);
	char message[512] = "", rig_note[512] = "";
	int html = demo_write_html(path, &report, message, sizeof message, rig_note, sizeof rig_note);
	printf("%s\n", rig_note);
	if (html != 0) {
		if (message[0]) {
			cli_error("demo", "%s", message);
		}
	} else {
		printf("wrote %s\n", path);
	}
	int failed = report.failures || chain_failures || check_failures;
	printf("\nverification: %s (%d of %d checks passed)\n", failed ? "SOME CHECKS FAILED" : "all checks passed",
	       report.checks - report.failures, report.checks);
	if (html != 0) {
		return CLI_USAGE;
	}
	return failed ? CLI_FAILED_CHECK : CLI_OK;
}
