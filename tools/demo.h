// SPDX-License-Identifier: MIT
// Sections of `spring demo` (cmd_demo.c), one file each: the secondary-motion section
// (demo_chain.c) and the self-contained page out/demo/index.html (demo_html.c).
#ifndef SPRING_TOOLS_DEMO_H
#define SPRING_TOOLS_DEMO_H

#include <stddef.h>

/// What the terminal checks found, for the page's verification section.
typedef struct demo_report {
	int row_count;
	struct {
		char spring[32], integrator[16], energy[64], rest[64], envelope[64];
		int passed;
	} rows[16];
	int line_count;
	char chain_lines[8][240];
	int chain_passed[8];
	int checks, failures;
} demo_report;

/// Appends a one-line secondary-motion result to the report (demo_chain.c).
void demo_report_line(demo_report *r, const char *line, int passed);

/// Terminal section: the tail across frame rates, teleport, rest. Returns the number of failures.
int demo_chains(demo_report *report);
/// Tip speed series of three tails around a 2000-unit root jump (see demo_chain.c).
int demo_teleport_series(int before, int after, double *t, double *naive, double *teleported, double *reset);

/// Writes the page to `path` (directories created, atomic). Returns 0, or -1 with a message.
/// `rig_note` receives a sentence about the sample rig (found where, or not found).
int demo_write_html(const char *path, const demo_report *report, char *message, size_t message_size, char *rig_note,
                    size_t rig_note_size);

#endif
