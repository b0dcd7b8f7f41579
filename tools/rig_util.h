// SPDX-License-Identifier: MIT
// Rig files for the CLI commands and the demo: loading through the tools/io reader, chain tips and
// lengths, the per-frame playback loop shared by `simulate`, `verify` and the demo.
#ifndef SPRING_TOOLS_RIG_UTIL_H
#define SPRING_TOOLS_RIG_UTIL_H

#include "cli.h"
#include <spring/io.h>

typedef struct rig_file {
	spring_rig *rig;
	spring_rig_file_info *info; ///< heap (about 15 KB)
	int bone_count;
} rig_file;

/// Loads `path`, or when no such file exists the installed sample rig of that name (`character.json`,
/// `examples/rigs/character.json`: rig_find_sample). On failure prints "spring: <command>: <file:
/// path: reason>" and returns CLI_USAGE.
/// The file's warnings (f->info->warnings: a degree value that looks like radians) go to standard
/// error, "spring: <command>: warning: <file>: <path>: <reason>"; they do not stop the command.
int rig_file_open(const char *command, const char *path, rig_file *out);
/// rig_file_open without printing the warnings (the caller reports them).
int rig_file_load(const char *command, const char *path, rig_file *out);
void rig_file_close(rig_file *f);
/// Clip index by name (NULL -> the first clip, or -1 when the rig has none). CLI_USAGE after an
/// error message when the name is unknown.
int rig_file_clip(const char *command, const rig_file *f, const char *name, int *clip);
/// Sum of the bone lengths of a chain.
double rig_chain_length(const rig_file *f, int chain);
/// World position of the tip of `bone` (its pivot plus its length along its +x).
spring_vec2 rig_bone_tip(const rig_file *f, const spring_xform2 *world, int bone);
/// Tip of the chain's last bone.
spring_vec2 rig_chain_tip(const rig_file *f, const spring_xform2 *world, int chain);
/// Chain index of each bone (-1 when in none), `out` of bone_count entries.
void rig_bone_chains(const rig_file *f, int *out);
/// Teleports the rig by an offset from where it is (spring_rig_root; explicit: chains keep their
/// shape and motion). Refused (-1, nothing changed): `error` (when not NULL) says why, as
/// spring_rig_check_root does.
int rig_file_teleport(rig_file *f, double dx, double dy, spring_error *error);

/// Called for each teleport event rig_file_update's frame applied, with the offset.
typedef void (*rig_teleport_fn)(void *context, double dx, double dy);
/// One frame of playback, ending at `t` seconds (for messages): advances the rig by `dt`
/// (spring_rig_update) and applies the clip events the library defines (spring_rig_apply_events:
/// a "teleport" event teleports the rig by its x, y); `teleported` (optional) is told of each
/// teleport. Returns CLI_OK, or CLI_USAGE after printing "spring: <command>: " and why the update
/// or the events were refused (the library's message: the clip, the event, the chain and the limit).
int rig_file_update(const char *command, rig_file *f, float dt, double t, rig_teleport_fn teleported, void *context);

/// Finds the rig file `relative` (e.g. "examples/rigs/character.json") in the current directory
/// or in the data directory beside the executable (rig_sample_data_dir). Returns the path found
/// (static storage) or NULL.
const char *rig_find_sample(const char *relative);

/// Where the installed sample data lives, relative to the running executable: `BIN/../share/spring`
/// for an installed command (the build tree has the same layout). Static storage; NULL when the
/// executable's location is unknown.
const char *rig_sample_data_dir(void);

#endif
