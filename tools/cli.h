// SPDX-License-Identifier: MIT
// Shared pieces of the `spring` command-line tool: a growable text buffer, number formatting,
// a JSON writer, argument parsing (including every spring parameterisation), error reporting
// and atomic file output. Tools use only the public API of libspring.
#ifndef SPRING_TOOLS_CLI_H
#define SPRING_TOOLS_CLI_H

#include "css_linear.h"
#include "param_table.h"

#include <spring/spring.h>

#include <stddef.h>
#include <stdio.h>

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

// ---------------------------------------------------------------------------------------------
// Text buffer: everything a command prints or writes is built here first, so a failure half way
// never leaves a partial file. An allocation failure sets `failed` and later appends do nothing.

typedef struct sbuf {
	char *data;
	size_t len, cap;
	int failed;
} sbuf;

void sb_init(sbuf *b);
void sb_free(sbuf *b);
void sb_printf(sbuf *b, const char *fmt, ...) CLI_PRINTF(2, 3);
void sb_puts(sbuf *b, const char *s);
void sb_putc(sbuf *b, char c);
/// Appends `s` escaped for XML text and attribute values (& < > " ' and control characters).
void sb_xml(sbuf *b, const char *s);
/// Appends a number as "%.*g" (digits significant), with -0 printed as 0 and non-finite values as
/// "inf", "-inf" or "nan".
void sb_num(sbuf *b, double v, int digits);
/// The same into a caller buffer (at least 40 bytes); returns `buf`.
char *fmt_num(char *buf, double v, int digits);

// ---------------------------------------------------------------------------------------------
// JSON writer: one pretty-printed document, keys in the order written, numbers as the shortest
// decimal that reads back to the same float ("%.9g" for values that are not floats),
// non-finite numbers as null. Arrays opened "inline" keep their elements on one line.

typedef struct jw {
	sbuf *b;
	int depth;
	int count[32]; // elements written at each depth
	int inl[32];   // inline container at each depth
} jw;

void jw_init(jw *w, sbuf *b);
void jw_object(jw *w, const char *key); // key NULL: at top level or inside an array
void jw_object_end(jw *w);
void jw_array(jw *w, const char *key, int inline_elements);
void jw_array_end(jw *w);
void jw_num(jw *w, const char *key, double v);
/// A number that may be infinite or NaN: written as null and, when `reason` is given and the value
/// is not finite, followed by a "<key>_reason" string.
void jw_num_or_null(jw *w, const char *key, double v, const char *reason);
void jw_int(jw *w, const char *key, long v);
void jw_str(jw *w, const char *key, const char *s);
void jw_bool(jw *w, const char *key, int v);
void jw_null(jw *w, const char *key);
void jw_end(jw *w); // closes nothing; appends the final newline
/// An inline array of `n` numbers under `key`.
void jw_num_array(jw *w, const char *key, const double *v, int n);
/// Starts a command's JSON document in `b`: the top-level object and its "command" key.
void cli_json_begin(jw *w, sbuf *b, const char *command);
/// Closes the document cli_json_begin opened (and appends the final newline).
void cli_json_end(jw *w);

// ---------------------------------------------------------------------------------------------
// Errors: "spring: <command>: <what>" on stderr, one line (control characters in names are
// replaced), exit status 2 for usage and input errors.

enum { CLI_OK = 0, CLI_FAILED_CHECK = 1, CLI_USAGE = 2 };

int cli_error(const char *command, const char *fmt, ...) CLI_PRINTF(2, 3);
/// Copies `s` into `buf` for a one-line message: control characters become '?', long strings are
/// shortened with "...".
const char *cli_clean(char *buf, size_t size, const char *s);
/// Looks `given` up among lower-case `names` (`count` of them, or up to a NULL entry when `count`
/// is negative) ignoring ASCII case: its index, or -1. When none matches, `hint` (at least 96 bytes)
/// gets ": did you mean 'NAME'?" for the closest name by spring_closest_name, or "" when none is
/// close.
int cli_lookup_name(const char *given, const char *const *names, int count, char *hint, size_t hint_size);

/// Writes `content` to `path`, or to stdout when `path` is "-". A regular file (new or existing) is
/// replaced atomically: a new temporary in the same directory (created exclusively, never through
/// a link), synced, then renamed over it, keeping an existing file's permissions. Anything else
/// (a device, a FIFO, a symbolic link, followed) is written in place. On failure, or when SIGINT,
/// SIGTERM, SIGHUP or SIGXFSZ stops the command, the temporary is removed; on failure the error is
/// printed and CLI_USAGE returned. A path that is (after following links) a file the command read
/// (cli_note_input) is refused, and so is a dangling symbolic link, each with what is wrong.
int cli_write_file(const char *command, const char *path, const sbuf *content);
/// Records that the command reads the file at `path` (its device and inode, links followed), so
/// that cli_write_file never writes over it.
void cli_note_input(const char *path);
/// Writes `content` to stdout; CLI_USAGE (message printed) when stdout fails.
int cli_write_stdout(const char *command, const sbuf *content);
/// The end of every command: writes `content` to stdout (cli_write_stdout), frees it and returns
/// the exit status.
int cli_output(const char *command, sbuf *content);
/// Writes a command's --svg plot (`svg`, freed here) to `path` (cli_write_file). Returns 1 when the
/// command is done, with the exit status in *status: the file could not be written, or the plot
/// went to standard output ("-"), which then carries nothing else. 0 to go on.
int cli_write_plot(const char *command, const char *path, sbuf *svg, int *status);
/// Creates the directories of `dir` (like mkdir -p). 0 on success.
int cli_mkdirs(const char *dir);

// ---------------------------------------------------------------------------------------------
// Arguments

typedef enum cli_kind { CLI_FLAG, CLI_NUMBER, CLI_STRING } cli_kind;

/// Allowed range of a number option (both ends may be infinite): the spring table's range type,
/// so that a flag and a rig file's key are checked and described by the same functions.
typedef spring_param_range cli_range;

#define CLI_ANY ((cli_range){-1e30, 1e30, 0, 0})
#define CLI_POSITIVE ((cli_range){0.0, 1e30, 1, 0})
#define CLI_NONNEGATIVE ((cli_range){0.0, 1e30, 0, 0})
#define CLI_VALUE ((cli_range){-1e12, 1e12, 0, 0}) ///< a position or velocity of a move

typedef struct cli_opt {
	const char *name; ///< "--from"
	cli_kind kind;
	const char *meta;   ///< "A" in the help text; NULL for flags
	cli_range range;    ///< numbers only
	double number;      ///< parsed value (numbers)
	const char *string; ///< parsed value (strings)
	int seen;           ///< 1 when given
	int position;       ///< argv index where it was given (0 when not)
} cli_opt;

#define CLI_MAX_OPTS 64
#define CLI_MAX_POSITIONAL 4

typedef struct cli_args {
	const char *command;
	cli_opt opts[CLI_MAX_OPTS];
	int count;
	const char *positional[CLI_MAX_POSITIONAL];
	int positional_count;
	int max_positional;
	int help;
	int has_spring; ///< the spring flags were added (cli_add_spring_options)
} cli_args;

void cli_args_init(cli_args *a, const char *command, int max_positional);
/// Adds an option; returns its index (for cli_opt_at).
int cli_add(cli_args *a, const char *name, cli_kind kind, const char *meta, cli_range range);
cli_opt *cli_find(cli_args *a, const char *name);
/// Parses argv[first..argc). Returns CLI_OK, or CLI_USAGE after printing the error. Sets a->help
/// (and stops) when --help or -h is present anywhere.
int cli_parse(cli_args *a, int argc, char **argv, int first);
/// The start of every command: parses argv[2..argc) and, on --help, prints `help` (followed by the
/// spring flags' help when the command has them). Returns 1 when the command is done, with the
/// exit status in *status; 0 to go on.
int cli_parse_command(cli_args *a, int argc, char **argv, const char *help, int *status);
/// Adds the output flags: --csv (when `csv`), --json, and --svg FILE (when `svg`).
void cli_add_outputs(cli_args *a, int csv, int svg);
/// The output flags a command has (--csv, --json, --svg FILE) checked together: --csv with --json,
/// and --svg - (the plot on standard output) with either, are errors. Returns CLI_OK or CLI_USAGE
/// after printing the error.
int cli_check_outputs(cli_args *a);
/// The option's value when given, otherwise `fallback`.
double cli_num(cli_args *a, const char *name, double fallback);
const char *cli_str(cli_args *a, const char *name, const char *fallback);
int cli_flag(cli_args *a, const char *name);
/// Parses a comma-separated list of numbers for `flag` (each finite, in range). Returns CLI_OK or
/// CLI_USAGE after printing the error.
int cli_parse_list(const char *command, const char *flag, const char *text, double *out, int max, int *count, cli_range range);

// ---------------------------------------------------------------------------------------------
// Spring parameterisations shared by every command (cli_spring.c), from the table the rig-file
// reader uses too (tools/io/param_table.h)

/// Adds every spring flag (and --epsilon, --preset, --reduced-motion) to `a`.
void cli_add_spring_options(cli_args *a);

typedef struct cli_spring {
	spring_params p;
	char kind[32];         ///< "duration-bounce", "frequency", ... or "default"
	char description[160]; ///< "duration 0.5 s, bounce 0.3"
	int given_count;
	const char *given_name[4]; ///< the values' keys in rig files, in the conversion's argument order
	double given_value[4];
	double epsilon;     ///< --epsilon (default 0.001)
	char preset[40];    ///< --preset NAME, "" when none
	int reduced_motion; ///< 1: --reduced-motion turned the spring into its reduced-motion form
} cli_spring;

/// Resolves the spring flags into parameters: one parameterisation of the table, --bounce alone
/// (SwiftUI's default duration 0.5 s), or --preset NAME; then --reduced-motion. With no spring flag:
/// SwiftUI's default spring (duration 0.5, bounce 0) when `allow_default`, otherwise an error.
/// Returns CLI_OK or CLI_USAGE after printing the error.
int cli_resolve_spring(cli_args *a, int allow_default, cli_spring *out);
/// The start of the commands that take one spring (params, curve, css, compare): cli_parse_command,
/// cli_check_outputs, then cli_resolve_spring with SwiftUI's default spring when no spring flag is
/// given. Returns 1 when the command is done (help printed, or an error), with the exit status in
/// *status; 0 to go on with the spring in *out.
int cli_parse_spring_command(cli_args *a, int argc, char **argv, const char *help, cli_spring *out, int *status);
/// Number of spring flags given (excluding --epsilon; counting --preset and --reduced-motion).
int cli_spring_flag_count(cli_args *a);
/// Prints the help text for the spring flags.
void cli_print_spring_help(FILE *f);

/// Writes the spring's description, given values and canonical parameters into a JSON object
/// under `key`.
void cli_json_spring(jw *w, const char *key, const cli_spring *s);

/// Bounce as printed: values within 1e-5 of 0 print as 0 (a critically damped spring converted
/// through floats lands a hair either side).
double cli_clean_bounce(double bounce);

// ---------------------------------------------------------------------------------------------
// The CSS easing of a spring (css_linear.h) and its cubic-bezier() fallback (cmd_css.c), also used
// by `spring code --for css`

/// The cubic-bezier() (x1, y1, x2, y2, rounded to 3 decimals) closest to the curve's stops in the
/// largest distance, and that distance (fraction of the move).
void css_fit_cubic_bezier(const css_linear *c, double out[4], double *deviation);

// ---------------------------------------------------------------------------------------------
// Commands

int cmd_params(int argc, char **argv);
int cmd_curve(int argc, char **argv);
int cmd_css(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
/// `spring simulate` on a VRM model (cmd_simulate_vrm.c): true when the command line names one
/// (a .vrm, .glb or .gltf file); the command then goes to cmd_simulate_vrm.
bool cli_is_vrm_model(int argc, char **argv);
int cmd_simulate_vrm(int argc, char **argv);
/// `spring verify` on a VRM model (cmd_verify_vrm.c).
int cmd_verify_vrm(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_code(int argc, char **argv);

#endif
