// SPDX-License-Identifier: MIT
// `spring`: the command-line tool. Commands: params, curve, css, code, compare, simulate, verify, demo
// (one file each, cmd_*.c); this file finds the command and prints the overall help.
#include "cli.h"

#include <spring/version.h>

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: spring <command> [options]   (spring <command> --help for each)\n\n"
	           "commands:\n"
	           "  params     every equivalent parameterisation, overshoot, settling duration and time\n"
	           "  curve      position and velocity over time (text, --csv, --json, --svg FILE)\n"
	           "  css        a CSS linear() easing and its duration, ready to paste (@keyframes, fallback)\n"
	           "  code       the spring as a SwiftUI, Compose, Flutter, Motion, react-spring or CSS snippet\n"
	           "  compare    tween versus spring when the target changes mid-flight (--svg FILE)\n"
	           "  simulate   play a rig file: per-frame bone transforms (--csv, --json, --svg FILE)\n"
	           "  verify     the three objective checks on a spring or a rig file (exit 1 on FAIL)\n"
	           "  demo       conversions, chains and checks in the terminal; writes out/demo/index.html\n"
	           "  --version  print the version\n"
	           "  --help     this text\n\n"
	           "Commands that take a spring accept any parameterisation of it; see spring params --help.\n"
	           "Errors print one line, spring: <command>: <what>, and exit with status 2.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		return cli_error(NULL, "no command given (try spring --help)");
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return CLI_OK;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("spring %s\n", SPRING_VERSION_STRING);
		return CLI_OK;
	}
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} commands[] = {{"params", cmd_params},     {"curve", cmd_curve},   {"css", cmd_css},   {"compare", cmd_compare},
	                {"simulate", cmd_simulate}, {"verify", cmd_verify}, {"demo", cmd_demo}, {"code", cmd_code}};
	enum { COMMANDS = sizeof commands / sizeof commands[0] };
	const char *names[COMMANDS];
	for (int i = 0; i < COMMANDS; i++) {
		names[i] = commands[i].name;
	}
	char shown[160], hint[96];
	const int which = cli_lookup_name(cmd, names, COMMANDS, hint, sizeof hint);
	if (which >= 0) {
		return commands[which].run(argc, argv);
	}
	return cli_error(NULL, "unknown command '%s'%s (try spring --help)", cli_clean(shown, sizeof shown, cmd), hint);
}
