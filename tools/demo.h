// SPDX-License-Identifier: MIT
// Sections of `spring demo` (cmd_demo.c), one file each: the secondary-motion section
// (demo_chain.c) and the self-contained page out/demo/index.html (demo_html.c).
#ifndef SPRING_TOOLS_DEMO_H
#define SPRING_TOOLS_DEMO_H

#include <stddef.h>

/// The teleport experiment (demo_chain.c), run once: the terminal line and the page's figure
/// both read these figures. Three tails follow the same animated root for DEMO_TELEPORT_BEFORE
/// frames at 60 fps, then the root jumps 2000 units: one is not told, one is teleported
/// (spring_chain_teleport), one is reset (spring_chain_reset). Tip speeds in units/s per frame.
enum { DEMO_TELEPORT_BEFORE = 120, DEMO_TELEPORT_AFTER = 60, DEMO_TELEPORT_FRAMES = 180 };
typedef struct demo_teleport {
	int count; ///< frames run (DEMO_TELEPORT_FRAMES), 0 when the tails could not be made
	double t[DEMO_TELEPORT_FRAMES], naive[DEMO_TELEPORT_FRAMES], teleported[DEMO_TELEPORT_FRAMES], reset[DEMO_TELEPORT_FRAMES];
	double peak_before;                             ///< the largest tip speed before the jump (all three agree)
	double peak_naive, peak_teleported, peak_reset; ///< the largest after it
} demo_teleport;

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
	demo_teleport teleport; ///< the teleport experiment, as the terminal reported it
} demo_report;

/// Appends a one-line secondary-motion result to the report (demo_chain.c).
void demo_report_line(demo_report *r, const char *line, int passed);

/// Terminal section: the tail across frame rates, teleport, rest. Returns the number of failures.
int demo_chains(demo_report *report);

/// Writes the page to `path` (directories created, atomic). Returns 0, or -1 with a message.
/// `rig_note` receives a sentence about the sample rig (found where, or not found).
int demo_write_html(const char *path, const demo_report *report, char *message, size_t message_size, char *rig_note,
                    size_t rig_note_size);

#endif
