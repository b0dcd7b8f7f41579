// SPDX-License-Identifier: MIT
// Fuzz target: the `spring` command run in-process on a fuzzed argv (the tool's own main, renamed
// spring_cli_main by fuzz/CMakeLists.txt; the tool never calls exit). The input is the
// arguments after `spring`, separated by NUL bytes.
//
// The tool writes files, and the fuzzer runs as whoever runs it, so the run is confined: the
// working directory is a fresh temporary directory holding copies of the sample rigs under
// rigs/ (named "rigs/character.json", "rigs/undulation.json", "rigs/minimal.json"), an argument
// with a '/' other than those names is not run, nor is a rig name given as the --svg output, nor
// `demo` (it writes a whole page tree and runs for seconds). Standard output and the tool's
// standard error go to /dev/null.
//
// Promises checked (besides no crash, no leak and no undefined behaviour):
//  - the exit status is 0, 1 (a failed check) or 2 (a usage or input error);
//  - a run that failed with status 2 leaves no file behind; any other run leaves at most the
//    file it was asked to write (--svg FILE), and never a temporary file.
#include "cli.h"
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int spring_cli_main(int argc, char **argv);

#define MAX_ARGS 24
#define MAX_ARG_BYTES 512

static const char *const rigs[] = {"rigs/character.json", "rigs/undulation.json", "rigs/minimal.json"};
static const char *const rig_sources[] = {"examples/rigs/character.json", "examples/rigs/undulation.json",
                                          "tests/rigs/good/minimal.json"};
static char scratch[256];

static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	FZ_CHECK(in && out, "cannot copy %s to %s", from, to);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		FZ_CHECK(fwrite(buf, 1, n, out) == n, "cannot write %s", to);
	}
	fclose(in);
	fclose(out);
}

// Removes everything in the working directory but rigs/; `keep` (may be NULL) is the one name a
// successful run may have written. Returns the name of an unexpected entry, or NULL.
static const char *sweep(const char *keep, char *unexpected, size_t size)
{
	const char *found = NULL;
	DIR *d = opendir(".");
	FZ_CHECK(d, "cannot list the scratch directory");
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, "rigs") == 0) {
			continue;
		}
		if (!found && !(keep && strcmp(e->d_name, keep) == 0)) {
			snprintf(unexpected, size, "%s", e->d_name);
			found = unexpected;
		}
		FZ_CHECK(unlink(e->d_name) == 0 || rmdir(e->d_name) == 0, "cannot remove %s from the scratch directory", e->d_name);
	}
	closedir(d);
	return found;
}

static void remove_scratch(void)
{
	if (scratch[0] && chdir(scratch) == 0) {
		char name[256];
		sweep(NULL, name, sizeof name);
		for (size_t i = 0; i < sizeof rigs / sizeof rigs[0]; i++) {
			unlink(rigs[i]);
		}
		rmdir("rigs");
		if (chdir("/") == 0) {
			rmdir(scratch);
		}
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(scratch, sizeof scratch, "%s/spring-fuzz-cli-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	FZ_CHECK(mkdtemp(scratch) != NULL, "cannot make a scratch directory: %s", strerror(errno));
	atexit(remove_scratch);
	char to[512];
	snprintf(to, sizeof to, "%s/rigs", scratch);
	FZ_CHECK(mkdir(to, 0700) == 0, "cannot make %s", to);
	for (size_t i = 0; i < sizeof rigs / sizeof rigs[0]; i++) {
		char from[1024];
		snprintf(from, sizeof from, "%s/%s", SPRING_SOURCE_DIR, rig_sources[i]);
		snprintf(to, sizeof to, "%s/%s", scratch, rigs[i]);
		copy_file(from, to);
	}
	FZ_CHECK(chdir(scratch) == 0, "cannot enter %s", scratch);
	FZ_CHECK(freopen("/dev/null", "w", stdout) != NULL, "cannot silence stdout");
	FILE *null = fopen("/dev/null", "w");
	FZ_CHECK(null != NULL, "cannot open /dev/null");
	stderr = null; // the tool's messages; libFuzzer and the sanitizers keep the real one
	return 0;
}

static bool is_rig(const char *arg)
{
	for (size_t i = 0; i < sizeof rigs / sizeof rigs[0]; i++) {
		if (strcmp(arg, rigs[i]) == 0) {
			return true;
		}
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char args[MAX_ARGS][MAX_ARG_BYTES];
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = "spring";
	size_t at = 0;
	while (at < size) {
		const uint8_t *end = memchr(data + at, '\0', size - at);
		size_t n = end ? (size_t)(end - (data + at)) : size - at;
		if (argc > MAX_ARGS || n >= MAX_ARG_BYTES) {
			return 0;
		}
		memcpy(args[argc - 1], data + at, n);
		args[argc - 1][n] = '\0';
		argv[argc] = args[argc - 1];
		argc++;
		at += n + 1;
	}
	argv[argc] = NULL;

	// Confinement (see the file comment).
	const char *svg = NULL;
	for (int i = 1; i < argc; i++) {
		if (strchr(argv[i], '/') && !is_rig(argv[i])) {
			return 0;
		}
		if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc) {
			if (is_rig(argv[i + 1])) {
				return 0;
			}
			svg = argv[i + 1];
		} else if (strncmp(argv[i], "--svg=", 6) == 0) {
			svg = argv[i] + 6;
		}
	}
	// `demo` writes a directory tree; matched as the tool matches command names (in any case).
	static const char *const demo[] = {"demo"};
	char hint[64];
	if (argc > 1 && cli_lookup_name(argv[1], demo, 1, hint, sizeof hint) == 0) {
		return 0;
	}

	int status = spring_cli_main(argc, argv);
	fflush(stdout);
	FZ_CHECK(status == 0 || status == 1 || status == 2, "spring exited with status %d", status);
	char unexpected[256];
	const char *left = sweep(status == 2 ? NULL : svg, unexpected, sizeof unexpected);
	FZ_CHECK(left == NULL, "spring exited with status %d and left the file '%s' behind", status, left);
	return 0;
}
