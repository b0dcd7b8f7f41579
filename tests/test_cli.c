// SPDX-License-Identifier: MIT
/// Tests of the `spring` command-line tool (the built binary, SPRING_CLI_PATH):
/// - golden text and JSON outputs of every command for fixed inputs (tests/cli/golden/);
///   regenerate with SPRING_UPDATE_GOLDEN=1 and review the diff by eye;
/// - every --json output parses as one JSON object (cJSON);
/// - SVG and HTML outputs are well-formed XML (xmllint, Debian's libxml2-utils) and contain the
///   expected series and legend labels;
/// - `spring css`: the printed linear() easing, evaluated piecewise-linearly as CSS does, stays
///   within 0.5% of the closed form at every sample;
/// - the bad-input corpus (tests/cli/bad_input.txt): one-line message naming the flag or file,
///   exit status 2, no output file; and a deterministic argv fuzz;
/// - simulate and verify on the example rigs; verify exits 1 with FAIL on an undamped spring;
/// - file outputs: a symbolic link planted at a temporary's name is not followed, someone else's
///   FILE.tmp is left alone, a device or FIFO target is written in place and stays what it was,
///   names of up to 255 bytes work, permissions are kept, and a command stopped by a signal in the
///   middle of a write leaves no temporary behind;
/// - every row of the parameterisation table (tools/io/param_table.h) is read the same by the
///   CLI's flags and by the rig-file reader: the same spring_params bits, the same defaults for
///   optional values, the same refusal of a missing required one.
#define _XOPEN_SOURCE 700 // POSIX 2008 and mknod (the device-target test)
#include "test_macros.h"

#include <spring/spring.h>

#include "param_table.h"
#include "rig_json_internal.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SPRING_CLI_PATH
#error "SPRING_CLI_PATH must name the built spring binary"
#endif

static char g_base[512]; // scratch directory of this test run
static char g_work[600]; // current directory of the commands (kept empty between cases)
static int g_update;     // SPRING_UPDATE_GOLDEN=1
static long g_fsize;     // when > 0, the file size limit (bytes) of the next commands run

// ---------------------------------------------------------------------------------------------
// Helpers

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			fclose(f);
			return NULL;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n + 1 < cap) {
			break;
		}
		cap *= 2;
		buf = realloc(buf, cap);
	}
	fclose(f);
	buf[n] = '\0';
	if (len) {
		*len = n;
	}
	return buf;
}

static int write_all(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		return -1;
	}
	size_t n = strlen(text);
	int ok = fwrite(text, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

// Replaces every occurrence of `from` with `to` (returns a new string).
static char *replace_all(const char *text, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), count = 0;
	if (fl == 0) {
		char *copy = malloc(strlen(text) + 1);
		if (copy) {
			strcpy(copy, text);
		}
		return copy;
	}
	for (const char *p = strstr(text, from); p; p = strstr(p + fl, from)) {
		count++;
	}
	char *out = malloc(strlen(text) + count * (tl > fl ? tl - fl : 0) + 1);
	if (!out) {
		return NULL;
	}
	char *w = out;
	const char *p = text;
	for (const char *q = strstr(p, from); q; q = strstr(p, from)) {
		memcpy(w, p, (size_t)(q - p));
		w += q - p;
		memcpy(w, to, tl);
		w += tl;
		p = q + fl;
	}
	strcpy(w, p);
	return out;
}

static char *expand(const char *arg)
{
	char *a = replace_all(arg, "@SRC@", SPRING_SOURCE_DIR);
	char *b = replace_all(a, "@TMP@", g_work);
	free(a);
	char *c = replace_all(b, "<nl>", "\n");
	free(b);
	return c;
}

static char *normalise(const char *text)
{
	char *a = replace_all(text, g_work, "@TMP@");
	char *b = replace_all(a, SPRING_SOURCE_DIR, "@SRC@");
	free(a);
	return b;
}

typedef struct run_result {
	int status; // exit status, or 128 + signal
	int signaled;
	char *out, *err;
	size_t out_len, err_len;
} run_result;

static void run_free(run_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof *r);
}

// Runs the CLI with `args` (NULL-terminated, expanded) in directory `cwd`. A cross-built CLI runs
// under the command in SPRING_TEST_EMULATOR (words separated by spaces, at most 8, e.g.
// "qemu-aarch64 -L /usr/aarch64-linux-gnu"; scripts/test-aarch64.sh sets it).
static int run_cli(const char *cwd, const char *const *args, run_result *r)
{
	memset(r, 0, sizeof *r);
	char *argv[64];
	int n = 0;
	static char emulator[512];
	const char *words = getenv("SPRING_TEST_EMULATOR");
	snprintf(emulator, sizeof emulator, "%s", words ? words : "");
	for (char *w = strtok(emulator, " "); w && n < 8; w = strtok(NULL, " ")) {
		argv[n++] = w;
	}
	argv[n++] = (char *)SPRING_CLI_PATH;
	const int first = n;
	for (int i = 0; args[i] && n < 62; i++) {
		argv[n++] = expand(args[i]);
	}
	argv[n] = NULL;
	char out_path[700], err_path[700];
	snprintf(out_path, sizeof out_path, "%s/stdout.txt", g_base);
	snprintf(err_path, sizeof err_path, "%s/stderr.txt", g_base);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || e < 0 || chdir(cwd) != 0) {
			_exit(126);
		}
		if (g_fsize > 0) {
			struct rlimit lim = {(rlim_t)g_fsize, (rlim_t)g_fsize};
			if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
				_exit(126);
			}
		}
		dup2(o, 1);
		dup2(e, 2);
		close(o);
		close(e);
		execv(argv[0], argv);
		_exit(127);
	}
	for (int i = first; i < n; i++) {
		free(argv[i]);
	}
	if (pid < 0) {
		return -1;
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			return -1;
		}
	}
	if (WIFEXITED(st)) {
		r->status = WEXITSTATUS(st);
	} else {
		r->signaled = 1;
		r->status = 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	}
	r->out = read_all(out_path, &r->out_len);
	r->err = read_all(err_path, &r->err_len);
	if (!r->out || !r->err) {
		run_free(r);
		return -1;
	}
	return 0;
}

static int run_in_work(const char *const *args, run_result *r)
{
	return run_cli(g_work, args, r);
}

// Names of the entries of `dir` (excluding . and ..), one per line, into buf.
static int list_dir(const char *dir, char *buf, size_t size)
{
	DIR *d = opendir(dir);
	if (!d) {
		return -1;
	}
	buf[0] = '\0';
	int count = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
			continue;
		}
		count++;
		if (strlen(buf) + strlen(e->d_name) + 2 < size) {
			strcat(buf, e->d_name);
			strcat(buf, " ");
		}
	}
	closedir(d);
	return count;
}

static void remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		if (d) {
			struct dirent *e;
			while ((e = readdir(d)) != NULL) {
				if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
					continue;
				}
				char child[2048];
				snprintf(child, sizeof child, "%s/%s", path, e->d_name);
				remove_tree(child);
			}
			closedir(d);
		}
		rmdir(path);
	} else {
		unlink(path);
	}
}

static void clean_work(void)
{
	DIR *d = opendir(g_work);
	if (!d) {
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
			continue;
		}
		char child[2048];
		snprintf(child, sizeof child, "%s/%s", g_work, e->d_name);
		remove_tree(child);
	}
	closedir(d);
}

static int count_of(const char *text, const char *needle)
{
	int n = 0;
	size_t l = strlen(needle);
	for (const char *p = strstr(text, needle); p; p = strstr(p + l, needle)) {
		n++;
	}
	return n;
}

static int xml_well_formed(const char *path)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
	int rc = system(cmd);
	return rc == 0;
}

static int one_line(const char *text)
{
	size_t n = strlen(text);
	return n > 0 && text[n - 1] == '\n' && strchr(text, '\n') == text + n - 1;
}

// ---------------------------------------------------------------------------------------------
// Golden outputs

typedef struct golden_case {
	const char *name;
	const char *args[24];
} golden_case;

#define TAIL_RIG "@SRC@/tests/cli/rigs/tail.json"

static const golden_case goldens[] = {
	{"params_duration_bounce", {"params", "--duration", "0.5", "--bounce", "0.3"}},
	{"params_duration_bounce_json", {"params", "--duration", "0.5", "--bounce", "0.3", "--json"}},
	{"params_default", {"params"}},
	{"params_undamped_json", {"params", "--frequency", "2", "--damping-ratio", "0", "--json"}},
	{"params_physical_overdamped", {"params", "--stiffness", "100", "--damping", "30", "--mass", "2"}},
	{"params_response", {"params", "--response", "0.4", "--damping-fraction", "0.8"}},
	{"params_settling", {"params", "--settling", "1", "--damping-ratio", "0.7", "--epsilon", "0.01"}},
	{"params_visual_duration", {"params", "--visual-duration", "0.5", "--bounce", "-0.5"}},
	{"params_half_life", {"params", "--half-life", "0.1", "--json"}},
	{"params_tension_friction", {"params", "--tension", "170", "--friction", "26"}},
	{"params_origami", {"params", "--origami-tension", "40", "--origami-friction", "7"}},
	{"params_per_frame", {"params", "--per-frame-stiffness", "0.1", "--per-frame-damping", "0.7", "--per-frame-fps", "30"}},
	{"params_stiffness_damping_ratio", {"params", "--stiffness", "700", "--damping-ratio", "0.9"}},
	{"params_motion_duration", {"params", "--motion-duration", "0.8", "--bounce", "0.25"}},
	{"params_bounce_alone", {"params", "--bounce", "0.3"}},
	{"params_preset_snappy", {"params", "--preset", "snappy"}},
	{"params_preset_material_reduced_json", {"params", "--preset", "expressive-default-spatial", "--reduced-motion", "--json"}},
	{"params_reduced_motion", {"params", "--duration", "0.5", "--bounce", "0.3", "--reduced-motion"}},
	{"code_swiftui", {"code", "--for", "swiftui", "--duration", "0.5", "--bounce", "0.3"}},
	{"code_swiftui_overdamped", {"code", "--for", "swiftui", "--stiffness", "100", "--damping", "40", "--mass", "2"}},
	{"code_compose", {"code", "--for", "compose", "--stiffness", "100", "--damping", "10", "--mass", "2"}},
	{"code_flutter", {"code", "--for", "flutter", "--preset", "standard-default-spatial"}},
	{"code_motion", {"code", "--for", "motion", "--duration", "0.4", "--bounce", "0.2"}},
	{"code_motion_light", {"code", "--for", "motion", "--frequency", "1", "--damping-ratio", "0.01"}},
	{"code_react_spring", {"code", "--for", "react-spring", "--tension", "170", "--friction", "26"}},
	{"code_css", {"code", "--for", "css", "--preset", "smooth", "--reduced-motion"}},
	{"css_fallback_keyframes",
     {"css", "--preset", "snappy", "--resolution", "50", "--fallback", "--keyframes", "pop", "--property", "scale", "--from",
      "0.5", "--to", "1", "--unit", "none"}},
	{"css_fallback_json", {"css", "--duration", "0.4", "--resolution", "40", "--fallback", "--keyframes", "slide", "--json"}},
	{"curve_text", {"curve", "--duration", "0.5", "--bounce", "0.3", "--dt", "0.05"}},
	{"curve_json",
     {"curve", "--frequency", "1", "--damping-ratio", "0.5", "--from", "10", "--to", "-10", "--velocity", "5", "--dt", "0.1",
      "--until", "1", "--json"}},
	{"curve_csv", {"curve", "--half-life", "0.2", "--dt", "0.1", "--until", "0.5", "--csv"}},
	{"curve_undamped_capped", {"curve", "--frequency", "0.5", "--damping-ratio", "0", "--dt", "1"}},
	{"css_text", {"css", "--duration", "0.5", "--bounce", "0.3"}},
	{"css_json", {"css", "--duration", "0.4", "--bounce", "0", "--resolution", "20", "--json"}},
	{"css_truncated", {"css", "--frequency", "1", "--damping-ratio", "0.05", "--max-duration", "1"}},
	{"compare_text", {"compare"}},
	{"compare_json", {"compare", "--duration", "0.4", "--bounce", "0.2", "--dt", "0.05", "--until", "0.6", "--json"}},
	{"simulate_text", {"simulate", TAIL_RIG}},
	{"simulate_csv", {"simulate", TAIL_RIG, "--fps", "30", "--seconds", "0.1", "--csv"}},
	{"simulate_json_teleport",
     {"simulate", TAIL_RIG, "--clip", "still", "--fps", "20", "--seconds", "0.1", "--teleport-at", "0.05", "--teleport-by",
      "-50,10", "--json"}},
	{"verify_spring", {"verify", "--duration", "0.5", "--bounce", "0.3"}},
	{"verify_undamped_json",
     {"verify", "--frequency", "2", "--damping-ratio", "0", "--integrator", "exact", "--fps", "60", "--json"}},
	{"verify_rig", {"verify", TAIL_RIG}},
	{"verify_rig_json", {"verify", TAIL_RIG, "--clip", "hop", "--fps", "24,50", "--seconds", "2", "--json"}},
	{"verify_rig_radian_limits", {"verify", "@SRC@/tests/cli/rigs/radian_limits.json", "--fps", "30", "--seconds", "0.5"}},
	{"verify_rig_radian_limits_json",
     {"verify", "@SRC@/tests/cli/rigs/radian_limits.json", "--fps", "60", "--seconds", "0.5", "--json"}},
	{"simulate_radian_limits_warns", {"simulate", "@SRC@/tests/cli/rigs/radian_limits.json", "--seconds", "0.05", "--csv"}},
	{"error_unknown_command", {"frobnicate"}},
	{"error_no_command", {NULL}},
};

static char *render(const golden_case *g, const run_result *r)
{
	size_t cap = r->out_len + r->err_len + 4096;
	char *text = malloc(cap);
	if (!text) {
		return NULL;
	}
	size_t n = (size_t)snprintf(text, cap, "$ spring");
	for (int i = 0; g->args[i]; i++) {
		n += (size_t)snprintf(text + n, cap - n, " %s", g->args[i]);
	}
	char *out = normalise(r->out), *err = normalise(r->err);
	n += (size_t)snprintf(text + n, cap - n, "\nexit status %d\n--- stdout\n", r->status);
	size_t need = n + strlen(out) + strlen(err) + 64;
	if (need > cap) {
		text = realloc(text, need);
		cap = need;
	}
	n += (size_t)snprintf(text + n, cap - n, "%s--- stderr\n%s", out, err);
	free(out);
	free(err);
	return text;
}

static int check_json(const char *name, const char *text)
{
	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithOpts(text, &end, 1);
	ENSURE_MSG(doc != NULL, "%s: stdout is not valid JSON (near byte %ld)", name, end ? (long)(end - text) : -1L);
	int is_object = cJSON_IsObject(doc);
	cJSON_Delete(doc);
	ENSURE_MSG(is_object, "%s: the JSON output is not one object", name);
	return 0;
}

static int test_golden_outputs(void)
{
	int failures = 0;
	for (size_t i = 0; i < sizeof goldens / sizeof goldens[0]; i++) {
		const golden_case *g = &goldens[i];
		run_result r;
		ENSURE(run_in_work(g->args, &r) == 0);
		char *text = render(g, &r);
		ENSURE(text != NULL);
		char path[1024];
		snprintf(path, sizeof path, "%s/tests/cli/golden/%s.txt", SPRING_SOURCE_DIR, g->name);
		int is_json = 0;
		for (int k = 0; g->args[k]; k++) {
			is_json |= strcmp(g->args[k], "--json") == 0;
		}
		if (is_json && check_json(g->name, r.out) != 0) {
			failures++;
		}
		if (r.signaled || r.status > 2) {
			fprintf(stderr, "  %s: crashed or unexpected status %d\n%s", g->name, r.status, r.err);
			failures++;
		}
		if (g_update) {
			if (write_all(path, text) != 0) {
				fprintf(stderr, "  cannot write %s\n", path);
				failures++;
			}
		} else {
			char *want = read_all(path, NULL);
			if (!want) {
				fprintf(stderr, "  missing golden %s (run with SPRING_UPDATE_GOLDEN=1 to create it)\n", path);
				failures++;
			} else if (strcmp(want, text) != 0) {
				// First differing line.
				int line = 1;
				const char *a = want, *b = text;
				while (*a && *a == *b) {
					if (*a == '\n') {
						line++;
					}
					a++;
					b++;
				}
				const char *la = a, *lb = b;
				while (la > want && la[-1] != '\n') {
					la--;
				}
				while (lb > text && lb[-1] != '\n') {
					lb--;
				}
				fprintf(stderr, "  golden %s differs at line %d:\n    want: %.*s\n    got:  %.*s\n", g->name, line,
				        (int)strcspn(la, "\n"), la, (int)strcspn(lb, "\n"), lb);
				failures++;
			}
			free(want);
		}
		free(text);
		run_free(&r);
		char left[512];
		if (list_dir(g_work, left, sizeof left) != 0) {
			fprintf(stderr, "  %s left files behind: %s\n", g->name, left);
			clean_work();
			failures++;
		}
	}
	ENSURE(failures == 0);
	return 0;
}

// The figures Apple documents for Spring(duration: 0.5, bounce: 0.3).
static int test_params_documented_figures(void)
{
	const char *args[] = {"params", "--duration", "0.5", "--bounce", "0.3", "--json", NULL};
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE(r.status == 0);
	cJSON *doc = cJSON_Parse(r.out);
	ENSURE(doc);
	cJSON *spring = cJSON_GetObjectItemCaseSensitive(doc, "spring");
	cJSON *settling = cJSON_GetObjectItemCaseSensitive(doc, "settling");
	double k = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "stiffness"));
	double c = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "damping"));
	double est = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(settling, "duration_estimate"));
	double exact = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(settling, "time_exact"));
	double zeta = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(doc, "damping_ratio"));
	cJSON_Delete(doc);
	run_free(&r);
	ENSURE_NEAR(k, 157.9, 0.05);
	ENSURE_NEAR(c, 17.6, 0.05);
	ENSURE_NEAR(est, 1.045, 0.001);
	ENSURE_NEAR(exact, 0.819, 0.001);
	ENSURE_NEAR(zeta, 0.7, 1e-6);
	// The same in the text output.
	const char *text_args[] = {"params", "--duration", "0.5", "--bounce", "0.3", NULL};
	ENSURE(run_in_work(text_args, &r) == 0);
	ENSURE(strstr(r.out, "157.914 N/m") && strstr(r.out, "17.5929 N*s/m") && strstr(r.out, "1.04471 s") &&
	       strstr(r.out, "0.818747 s"));
	run_free(&r);
	return 0;
}

// Undamped: JSON null with a reason, never NaN or inf.
static int test_json_infinite_values(void)
{
	const char *args[] = {"params", "--frequency", "2", "--damping-ratio", "0", "--json", NULL};
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE(r.status == 0);
	ENSURE(strstr(r.out, "\"time_exact\": null") != NULL);
	ENSURE(strstr(r.out, "\"time_exact_reason\": \"undamped: never settles\"") != NULL);
	ENSURE(strstr(r.out, "nan") == NULL && strstr(r.out, "inf") == NULL);
	run_free(&r);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// CSS linear(): evaluated as a browser does, against the closed form

typedef struct css_case {
	const char *args[12];
	int truncated;
} css_case;

static int css_check(const css_case *cc)
{
	const char *args[16] = {"css"};
	int n = 1;
	for (int i = 0; cc->args[i]; i++) {
		args[n++] = cc->args[i];
	}
	args[n] = NULL;
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE_MSG(r.status == 0, "css %s: status %d: %s", cc->args[0], r.status, r.err);
	// The spring, from the same flags through `spring params --json` (css-only flags dropped).
	const char *pargs[16] = {"params"};
	int pn = 1;
	for (int i = 1; i < n; i++) {
		if (strcmp(args[i], "--resolution") == 0 || strcmp(args[i], "--max-duration") == 0) {
			i++;
			continue;
		}
		pargs[pn++] = args[i];
	}
	pargs[pn++] = "--json";
	pargs[pn] = NULL;
	run_result pr;
	ENSURE(run_in_work(pargs, &pr) == 0);
	ENSURE(pr.status == 0);
	cJSON *doc = cJSON_Parse(pr.out);
	ENSURE(doc);
	cJSON *sp = cJSON_GetObjectItemCaseSensitive(doc, "spring");
	spring_params p;
	p.stiffness = (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sp, "stiffness"));
	p.damping = (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sp, "damping"));
	p.mass = (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(sp, "mass"));
	cJSON_Delete(doc);
	run_free(&pr);
	// Parse "transition-timing-function: linear(...)" and "transition-duration: Nms".
	const char *lin = strstr(r.out, "transition-timing-function: linear(");
	const char *dur = strstr(r.out, "transition-duration: ");
	ENSURE(lin && dur);
	lin += strlen("transition-timing-function: linear(");
	double duration = strtod(dur + strlen("transition-duration: "), NULL) / 1000.0;
	double *stops = malloc(sizeof(double) * 200000);
	ENSURE(stops);
	int count = 0;
	const char *q = lin;
	while (*q && *q != ')' && count < 200000) {
		char *end;
		stops[count++] = strtod(q, &end);
		ENSURE_MSG(end != q, "bad stop near '%.20s'", q);
		while (*end == ' ') {
			end++;
		}
		ENSURE_MSG(*end == ',' || *end == ')', "unexpected '%c' in linear() (only plain stops are expected)", *end);
		q = *end == ',' ? end + 1 : end;
	}
	ENSURE(count >= 2);
	ENSURE_MSG((strstr(r.out, "truncated at") != NULL) == cc->truncated, "truncation note for %s", cc->args[1]);
	if (!cc->truncated) {
		ENSURE(stops[count - 1] == 1.0);
	}
	ENSURE(stops[0] == 0.0);
	// CSS linear() with plain stops: evenly spaced inputs 0, 1/(n-1), ..., 1 of the duration.
	double worst = 0.0;
	const int samples = 4000;
	for (int i = 0; i <= samples; i++) {
		double t = duration * i / samples;
		double u = t / duration * (count - 1);
		int k = (int)floor(u);
		if (k >= count - 1) {
			k = count - 2;
		}
		double f = u - k;
		double css = stops[k] + (stops[k + 1] - stops[k]) * f;
		double exact = spring_evaluate(p, (spring_state){0.0f, 0.0f}, 1.0f, (float)t).x;
		worst = fmax(worst, fabs(css - exact));
	}
	free(stops);
	ENSURE_MSG(worst <= 0.005, "css %s %s: linear() strays %.3f%% from the spring", cc->args[0], cc->args[1], 100.0 * worst);
	run_free(&r);
	return 0;
}

// cubic-bezier(x1, y1, x2, y2) at progress x, by bisection on the curve parameter.
static double bezier_value(const double b[4], double x)
{
	double lo = 0.0, hi = 1.0;
	for (int i = 0; i < 60; i++) {
		double t = 0.5 * (lo + hi), u = 1.0 - t;
		if (3.0 * u * u * t * b[0] + 3.0 * u * t * t * b[2] + t * t * t < x) {
			lo = t;
		} else {
			hi = t;
		}
	}
	double t = 0.5 * (lo + hi), u = 1.0 - t;
	return 3.0 * u * u * t * b[1] + 3.0 * u * t * t * b[3] + t * t * t;
}

// spring css --keyframes: one keyframe per stop, from + (to - from) * stop, the last exactly --to;
// --fallback: the printed cubic-bezier is as far from the stops as it says, and close for a gentle spring.
static int test_css_keyframes_and_fallback(void)
{
	const char *args[] = {"css",    "--duration", "0.6",  "--bounce", "0.1",    "--fallback", "--keyframes", "k",
	                      "--from", "-20",        "--to", "40",       "--unit", "rem",        "--json",      NULL};
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE_MSG(r.status == 0, "%s", r.err);
	cJSON *doc = cJSON_Parse(r.out);
	run_free(&r);
	ENSURE(doc);
	const cJSON *values = cJSON_GetObjectItemCaseSensitive(doc, "values");
	const char *kf = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "keyframes"));
	const char *fb = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "fallback"), "easing"));
	double said = cJSON_GetNumberValue(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "fallback"), "max_deviation"));
	ENSURE(cJSON_IsArray(values) && kf && fb);
	int n = cJSON_GetArraySize(values);
	ENSURE(n > 10);
	ENSURE(strncmp(kf, "@keyframes k {\n", 15) == 0);
	const char *line = strchr(kf, '\n') + 1;
	for (int i = 0; i < n; i++) {
		double pct = 0.0, v = 0.0;
		char unit[8] = "";
		ENSURE_MSG(sscanf(line, "  %lf%% { translate: %lf%7[a-z]; }", &pct, &v, unit) == 3, "keyframe %d: %.40s", i, line);
		ENSURE(strcmp(unit, "rem") == 0);
		ENSURE(fabs(pct - 100.0 * i / (n - 1)) < 1e-4);
		double stop = cJSON_GetNumberValue(cJSON_GetArrayItem(values, i));
		ENSURE_MSG(fabs(v - (-20.0 + 60.0 * stop)) < 1e-4, "keyframe %d: %g for stop %g", i, v, stop);
		if (i == 0 || i == n - 1) {
			ENSURE(v == (i == 0 ? -20.0 : 40.0));
		}
		line = strchr(line, '\n') + 1;
	}
	ENSURE(strcmp(line, "}\n") == 0);
	double b[4];
	ENSURE(sscanf(fb, "cubic-bezier(%lf, %lf, %lf, %lf)", &b[0], &b[1], &b[2], &b[3]) == 4);
	ENSURE(b[0] >= 0.0 && b[0] <= 1.0 && b[2] >= 0.0 && b[2] <= 1.0);
	double worst = 0.0;
	for (int i = 0; i < n; i++) {
		worst = fmax(worst, fabs(bezier_value(b, (double)i / (n - 1)) - cJSON_GetNumberValue(cJSON_GetArrayItem(values, i))));
	}
	ENSURE_MSG(fabs(worst - said) < 1e-6, "fallback off by %g, says %g", worst, said);
	ENSURE_MSG(worst < 0.05, "the fallback of a gentle spring is %g off", worst);
	cJSON_Delete(doc);
	// The keyframe flags need --keyframes; names and units are checked.
	const char *lone[] = {"css", "--unit", "px", NULL};
	ENSURE(run_in_work(lone, &r) == 0);
	ENSURE(r.status == 2 && strstr(r.err, "--unit needs --keyframes NAME"));
	run_free(&r);
	const char *bad[] = {"css", "--keyframes", "9lives", NULL};
	ENSURE(run_in_work(bad, &r) == 0);
	ENSURE(r.status == 2 && strstr(r.err, "is not a CSS name"));
	run_free(&r);
	return 0;
}

static int test_css_within_half_percent(void)
{
	static const css_case cases[] = {
		{{"--duration", "0.5", "--bounce", "0", NULL}, 0},
		{{"--duration", "0.5", "--bounce", "0.3", NULL}, 0},
		{{"--duration", "0.3", "--bounce", "0.6", NULL}, 0},
		{{"--duration", "0.15", "--bounce", "0.2", NULL}, 0},
		{{"--duration", "1", "--bounce", "-0.5", NULL}, 0},
		{{"--half-life", "0.08", NULL}, 0},
		{{"--duration", "0.5", "--bounce", "0.5", "--resolution", "5", NULL}, 0},
		{{"--stiffness", "300", "--damping", "4", "--resolution", "4", NULL}, 0},
		{{"--frequency", "1", "--damping-ratio", "0.05", "--max-duration", "2", NULL}, 1},
		{{"--stiffness", "300", "--damping", "2", "--max-duration", "0.5", NULL}, 1},
		{{"--frequency", "3", "--damping-ratio", "0", "--max-duration", "1.5", NULL}, 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (css_check(&cases[i]) != 0) {
			return 1;
		}
	}
	return 0;
}

// ---------------------------------------------------------------------------------------------
// SVG and HTML

static int test_svg_outputs_well_formed(void)
{
	ENSURE_MSG(system("xmllint --version >/dev/null 2>&1") == 0, "xmllint not found: install libxml2-utils (make deps-test)");
	char path[1024];
	run_result r;
	// curve: position and velocity panels, target and settle lines.
	const char *curve[] = {"curve", "--duration", "0.5", "--bounce", "0.3", "--svg", "curve.svg", NULL};
	ENSURE(run_in_work(curve, &r) == 0 && r.status == 0);
	ENSURE(strstr(r.out, "wrote curve.svg"));
	run_free(&r);
	snprintf(path, sizeof path, "%s/curve.svg", g_work);
	ENSURE(xml_well_formed(path));
	char *svg = read_all(path, NULL);
	ENSURE(svg);
	ENSURE(count_of(svg, "class=\"series\"") == 2);
	ENSURE(strstr(svg, "position x(t)") && strstr(svg, "velocity v(t)") && strstr(svg, ">target<") &&
	       strstr(svg, "settled (within"));
	ENSURE(count_of(svg, "class=\"hline\"") >= 1 && count_of(svg, "class=\"vline\"") >= 1);
	free(svg);
	// compare: position and speed, tween and spring in each.
	const char *compare[] = {"compare", "--svg", "compare.svg", NULL};
	ENSURE(run_in_work(compare, &r) == 0 && r.status == 0);
	run_free(&r);
	snprintf(path, sizeof path, "%s/compare.svg", g_work);
	ENSURE(xml_well_formed(path));
	svg = read_all(path, NULL);
	ENSURE(svg);
	ENSURE(count_of(svg, "class=\"series\"") == 4);
	ENSURE(count_of(svg, "data-label=\"tween (600 ms ease-in-out, restarted)\"") == 2);
	ENSURE(count_of(svg, "data-label=\"spring (SwiftUI default: duration 0.5 s, bounce 0)\"") == 2);
	ENSURE(strstr(svg, "retarget at 0.3 s") && strstr(svg, "new target"));
	free(svg);
	// simulate: a filmstrip of 12 frames and one tip path per chain.
	const char *sim[] = {"simulate", TAIL_RIG, "--svg", "sim.svg", NULL};
	ENSURE(run_in_work(sim, &r) == 0 && r.status == 0);
	run_free(&r);
	snprintf(path, sizeof path, "%s/sim.svg", g_work);
	ENSURE(xml_well_formed(path));
	svg = read_all(path, NULL);
	ENSURE(svg);
	ENSURE(count_of(svg, "class=\"frame\"") == 12);
	ENSURE(count_of(svg, "class=\"bone\"") == 12 * 6);
	ENSURE(count_of(svg, "class=\"series\"") == 2);
	ENSURE(strstr(svg, "data-label=\"tail\"") && strstr(svg, "data-label=\"ear\""));
	// Every colour of the filmstrip is in its legend: the other bones and each chain.
	ENSURE(count_of(svg, "class=\"legend-swatch\"") == 2 * 2 + 1);
	ENSURE(strstr(svg, ">bones (not in a spring chain)<") && strstr(svg, ">tail<") && strstr(svg, ">ear<"));
	free(svg);
	// --svg - writes the figure to standard output.
	const char *to_stdout[] = {"curve", "--svg", "-", NULL};
	ENSURE(run_in_work(to_stdout, &r) == 0 && r.status == 0);
	snprintf(path, sizeof path, "%s/stdout-copy.svg", g_base);
	ENSURE(write_all(path, r.out) == 0);
	ENSURE(xml_well_formed(path));
	run_free(&r);
	// An existing file is replaced whole, and no temporary file is left.
	snprintf(path, sizeof path, "%s/curve.svg", g_work);
	ENSURE(write_all(path, "old contents that are longer than nothing") == 0);
	const char *again[] = {"curve", "--half-life", "0.1", "--svg", "curve.svg", NULL};
	ENSURE(run_in_work(again, &r) == 0 && r.status == 0);
	run_free(&r);
	ENSURE(xml_well_formed(path));
	char left[512];
	list_dir(g_work, left, sizeof left);
	ENSURE_MSG(strstr(left, ".tmp") == NULL, "left: %s", left);
	clean_work();
	return 0;
}

static int test_demo_page(void)
{
	const char *demo[] = {"demo", NULL};
	run_result r;
	ENSURE(run_in_work(demo, &r) == 0);
	ENSURE_MSG(r.status == 0, "demo exited %d: %s", r.status, r.err);
	ENSURE(strstr(r.out, "Spring conversions") && strstr(r.out, "Objective checks") && strstr(r.out, "Secondary motion"));
	ENSURE(strstr(r.out, "wrote out/demo/index.html"));
	ENSURE(strstr(r.out, "verification: all checks passed"));
	ENSURE(strstr(r.out, "sample rig:"));
	// The teleport figures the terminal prints...
	double before = 0, teleported = 0, reset = 0, naive = 0;
	const char *tl = strstr(r.out, "teleport by 2000 units: peak tip speed ");
	ENSURE(tl && sscanf(tl, "teleport by 2000 units: peak tip speed %lf u/s before; after, %lf teleported, %lf reset", &before,
	                    &teleported, &reset) == 3);
	const char *without = strstr(tl, "twice the peak before), ");
	ENSURE(without && sscanf(without, "twice the peak before), %lf without", &naive) == 1);
	ENSURE(naive > 10.0 * before && teleported < 2.0 * before && reset < 2.0 * before);
	ENSURE(count_of(r.out, "seed") == 0 && count_of(r.out, "Seed") == 0);
	run_free(&r);
	char path[1024];
	snprintf(path, sizeof path, "%s/out/demo/index.html", g_work);
	ENSURE(xml_well_formed(path));
	char *html = read_all(path, NULL);
	ENSURE(html);
	// ...are the page's: one run, one set of figures.
	char figures[300];
	snprintf(figures, sizeof figures,
	         "its tip peaks at %.0f units/s (before the jump the peak was %.0f). Teleporting (the chain moves rigidly "
	         "with the root) keeps the tail swinging as it was, peak %.0f afterwards; resetting puts it at rest under the "
	         "new root, peak %.0f.",
	         naive, before, teleported, reset);
	ENSURE_MSG(strstr(html, figures) != NULL, "the page's teleport figures differ from the terminal's (%s)", figures);
	ENSURE(count_of(html, "seed") == 0 && count_of(html, "Seed") == 0);
	ENSURE(count_of(html, "<svg ") == 5);
	ENSURE(count_of(html, "</svg>") == 5);
	// No external resources.
	ENSURE(strstr(html, "src=") == NULL && strstr(html, "href=") == NULL && strstr(html, "@import") == NULL);
	static const char *const labels[] = {
		// clang-format off
		"underdamped, ratio 0.3", "critically damped, ratio 1", "overdamped, ratio 2",
		"tween (600 ms ease-in-out, restarted)", "spring (duration 0.5 s, bounce 0)",
		"explicit Euler (the trap: not in the library)", "semi-implicit Euler", "exact (closed form)",
		"30 fps (dots)", "60 fps", "144 fps",
		"not told (the jump is seen as motion)", "spring_chain_teleport (keeps its motion)", "spring_chain_reset (snaps to rest)",
		// clang-format on
	};
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		char needle[256];
		snprintf(needle, sizeof needle, "data-label=\"%s", labels[i]);
		ENSURE_MSG(strstr(html, needle) != NULL, "missing series %s", labels[i]);
		snprintf(needle, sizeof needle, ">%s", labels[i]);
		ENSURE_MSG(strstr(html, needle) != NULL, "missing legend %s", labels[i]);
	}
	// Each inline SVG is well-formed on its own too.
	const char *p = html;
	int k = 0;
	for (const char *s = strstr(p, "<svg "); s; s = strstr(p, "<svg ")) {
		const char *e = strstr(s, "</svg>");
		ENSURE(e);
		e += strlen("</svg>");
		char svg_path[1024];
		snprintf(svg_path, sizeof svg_path, "%s/inline%d.svg", g_base, k++);
		FILE *f = fopen(svg_path, "wb");
		ENSURE(f);
		fwrite(s, 1, (size_t)(e - s), f);
		fclose(f);
		ENSURE(xml_well_formed(svg_path));
		p = e;
	}
	ENSURE(strstr(html, "class=\"fail\"") == NULL);
	free(html);
	char left[512];
	snprintf(path, sizeof path, "%s/out/demo", g_work);
	ENSURE(list_dir(path, left, sizeof left) == 1);
	clean_work();
	return 0;
}

// ---------------------------------------------------------------------------------------------
// File outputs (tools/cli_util.c, cli_write_file)

// `spring curve --svg NAME` in the work directory; exit status (or 128 + signal).
static int write_svg(const char *name)
{
	const char *args[] = {"curve", "--svg", name, NULL};
	run_result r;
	if (run_in_work(args, &r) != 0) {
		return -1;
	}
	int status = r.status;
	if (status != 0 && r.err[0]) {
		fprintf(stderr, "  spring curve --svg: %s", r.err);
	}
	run_free(&r);
	return status;
}

static char *work_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", g_work, name);
	return buf;
}

// The SVG every write below must produce (written once to a plain new file; NULL if that fails).
static const char *reference_svg(void)
{
	static char *svg;
	char path[1024];
	if (!svg && write_svg("reference.svg") == 0) {
		svg = read_all(work_path(path, sizeof path, "reference.svg"), NULL);
		unlink(path);
	}
	return svg;
}

// No temporary file left in the work directory.
static int no_temporary_left(void)
{
	char left[4096];
	list_dir(g_work, left, sizeof left);
	if (strstr(left, ".spring-") || strstr(left, ".tmp ")) {
		fprintf(stderr, "  left in the work directory: %s\n", left);
		return 0;
	}
	return 1;
}

static int test_write_planted_symlink_not_followed(void)
{
	clean_work();
	char victim[1024], link[1024], out[1024];
	ENSURE(write_all(work_path(victim, sizeof victim, "victim.txt"), "precious\n") == 0);
	ENSURE(symlink(victim, work_path(link, sizeof link, "out.svg.tmp")) == 0);
	ENSURE(write_svg("out.svg") == 0);
	char *v = read_all(victim, NULL);
	ENSURE(v && strcmp(v, "precious\n") == 0);
	free(v);
	struct stat st;
	ENSURE(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	char *svg = read_all(work_path(out, sizeof out, "out.svg"), NULL);
	ENSURE(svg && strstr(svg, "</svg>"));
	free(svg);
	return 0;
}

// An output never replaces an input: `simulate rig.json --svg rig.json` replaced the rig with the
// picture, and so did a symbolic link or another name of it; refused (status 2, the input named,
// nothing written), and another output works. A dangling symbolic link as the output said only
// "No such file or directory": the message says it is a link to a missing file.
static int test_write_never_over_an_input(void)
{
	clean_work();
	char rig[1024], link[1024], dangling[1024], other[1024];
	char *original = read_all(SPRING_SOURCE_DIR "/tests/cli/rigs/tail.json", NULL);
	ENSURE(original && write_all(work_path(rig, sizeof rig, "rig.json"), original) == 0);
	ENSURE(symlink("rig.json", work_path(link, sizeof link, "link.svg")) == 0);
	const char *outputs[][2] = {{"rig.json", "rig.json"}, {"rig.json", "link.svg"}, {"link.svg", "./rig.json"}};
	for (int i = 0; i < 3; i++) {
		const char *args[] = {"simulate", outputs[i][0], "--seconds", "0.1", "--svg", outputs[i][1], NULL};
		run_result r;
		ENSURE(run_in_work(args, &r) == 0);
		ENSURE_MSG(r.status == 2 && one_line(r.err) && strstr(r.err, "refusing to write") &&
		               strstr(r.err, "it is the input file"),
		           "%s over %s: status %d: %s", outputs[i][1], outputs[i][0], r.status, r.err);
		ENSURE(i != 1 || strstr(r.err, "(through a symbolic link)"));
		run_free(&r);
		char *now = read_all(rig, NULL);
		ENSURE_MSG(now && strcmp(now, original) == 0, "the input was %s", now ? "overwritten" : "removed");
		free(now);
		ENSURE(no_temporary_left());
	}
	ENSURE(symlink("missing/out.svg", work_path(dangling, sizeof dangling, "dangling.svg")) == 0);
	const char *args[] = {"simulate", "rig.json", "--seconds", "0.1", "--svg", "dangling.svg", NULL};
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE_MSG(r.status == 2 && one_line(r.err) &&
	               strstr(r.err, "is a symbolic link to 'missing/out.svg', which does not exist") &&
	               !strstr(r.err, "No such file"),
	           "status %d: %s", r.status, r.err);
	run_free(&r);
	const char *fine[] = {"simulate", "rig.json", "--seconds", "0.1", "--svg", "other.svg", NULL};
	ENSURE(run_in_work(fine, &r) == 0);
	ENSURE_MSG(r.status == 0, "status %d: %s", r.status, r.err);
	run_free(&r);
	char *svg = read_all(work_path(other, sizeof other, "other.svg"), NULL);
	ENSURE(svg && strstr(svg, "</svg>"));
	free(svg);
	free(original);
	clean_work();
	return 0;
}

static int test_write_foreign_tmp_untouched(void)
{
	clean_work();
	char foreign[1024];
	ENSURE(write_all(work_path(foreign, sizeof foreign, "out.svg.tmp"), "someone else's\n") == 0);
	ENSURE(write_svg("out.svg") == 0);
	char *f = read_all(foreign, NULL);
	ENSURE_MSG(f && strcmp(f, "someone else's\n") == 0, "out.svg.tmp was %s", f ? "overwritten" : "removed");
	free(f);
	return 0;
}

static int test_write_device_stays_device(void)
{
	clean_work();
	// A null device of our own (root may create one), so that a broken writer replaces it and not
	// the system's; otherwise /dev/null itself, which an unprivileged broken writer cannot replace.
	char node[1024];
	const char *target = work_path(node, sizeof node, "null");
	int fd = -1;
	if (mknod(node, S_IFCHR | 0666, makedev(1, 3)) != 0 || (fd = open(node, O_WRONLY)) < 0) {
		ENSURE_MSG(geteuid() != 0, "cannot create and open a device node in %s", g_work);
		target = "/dev/null";
	}
	if (fd >= 0) {
		close(fd);
	}
	struct stat before, after;
	ENSURE(stat(target, &before) == 0 && S_ISCHR(before.st_mode));
	ENSURE(write_svg(target) == 0);
	ENSURE(stat(target, &after) == 0);
	ENSURE_MSG(S_ISCHR(after.st_mode) && after.st_ino == before.st_ino && after.st_rdev == before.st_rdev,
	           "%s is no longer the device it was", target);
	ENSURE(no_temporary_left());
	return 0;
}

static int test_write_long_names(void)
{
	clean_work();
	const char *want = reference_svg();
	ENSURE(want);
	for (size_t len = 250; len <= 255; len++) {
		char name[256], path[1024];
		memset(name, 'n', len - 4);
		memcpy(name + len - 4, ".svg", 5);
		ENSURE_MSG(write_svg(name) == 0, "a %zu-byte name fails", len);
		char *got = read_all(work_path(path, sizeof path, name), NULL);
		ENSURE_MSG(got && strcmp(got, want) == 0, "a %zu-byte name: wrong content", len);
		free(got);
		// Replacing the existing file works too.
		ENSURE_MSG(write_svg(name) == 0, "a %zu-byte name fails the second time", len);
	}
	ENSURE(no_temporary_left());
	return 0;
}

static int test_write_fifo_in_place(void)
{
	clean_work();
	const char *want = reference_svg();
	ENSURE(want);
	char fifo[1024], copy[1024];
	ENSURE(mkfifo(work_path(fifo, sizeof fifo, "pipe.svg"), 0644) == 0);
	snprintf(copy, sizeof copy, "%s/fifo-read.svg", g_base);
	// Held open (read-write, which Linux allows on a FIFO) while the command runs: the reader's open
	// returns at once, and the reader sees the end when the command and this are done, whether or
	// not the command ever opened the FIFO.
	int hold = open(fifo, O_RDWR | O_CLOEXEC);
	ENSURE(hold >= 0);
	fflush(stdout);
	fflush(stderr);
	pid_t reader = fork();
	ENSURE(reader >= 0);
	if (reader == 0) {
		close(hold);
		int in = open(fifo, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		char buf[4096];
		ssize_t n;
		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0) {
			if (write(out, buf, (size_t)n) != n) {
				_exit(1);
			}
		}
		_exit(0);
	}
	int status = write_svg("pipe.svg");
	close(hold);
	int st = 0;
	while (waitpid(reader, &st, 0) < 0 && errno == EINTR) {
	}
	ENSURE(status == 0);
	struct stat after;
	ENSURE_MSG(lstat(fifo, &after) == 0 && S_ISFIFO(after.st_mode), "the FIFO was replaced");
	char *got = read_all(copy, NULL);
	ENSURE_MSG(got && strcmp(got, want) == 0, "the reader got %zu bytes, not the SVG", got ? strlen(got) : 0);
	free(got);
	unlink(copy);
	ENSURE(no_temporary_left());
	return 0;
}

static int test_write_keeps_permissions(void)
{
	clean_work();
	char path[1024];
	ENSURE(write_all(work_path(path, sizeof path, "out.svg"), "old\n") == 0);
	ENSURE(chmod(path, 0600) == 0);
	ENSURE(write_svg("out.svg") == 0);
	struct stat st;
	ENSURE(stat(path, &st) == 0);
	ENSURE_MSG((st.st_mode & 0777) == 0600, "mode %o after replacing a 0600 file", (unsigned)(st.st_mode & 0777));
	// A new file: 0666 less the umask, as any program creates one.
	mode_t mask = umask(022);
	ENSURE(write_svg("new.svg") == 0);
	umask(mask);
	ENSURE(stat(work_path(path, sizeof path, "new.svg"), &st) == 0);
	ENSURE_MSG((st.st_mode & 0777) == 0644, "mode %o for a new file (umask 022)", (unsigned)(st.st_mode & 0777));
	return 0;
}

static int test_write_signal_removes_temporary(void)
{
	clean_work();
	// A file size limit below the SVG's size stops the command with SIGXFSZ in the middle of the
	// write: the temporary must go with it, and the old file stay whole.
	char path[1024];
	ENSURE(write_all(work_path(path, sizeof path, "out.svg"), "old\n") == 0);
	g_fsize = 1024;
	int status = write_svg("out.svg");
	g_fsize = 0;
	ENSURE_MSG(status != 0, "the write succeeded despite the 1 KiB limit");
	char *old = read_all(path, NULL);
	ENSURE(old && strcmp(old, "old\n") == 0);
	free(old);
	ENSURE(no_temporary_left());
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Bad input

static int test_bad_input_corpus(void)
{
	clean_work(); // whatever an earlier failing test left behind is not this test's failure
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/cli/bad_input.txt", SPRING_SOURCE_DIR);
	char *text = read_all(path, NULL);
	ENSURE_MSG(text, "cannot read %s", path);
	int cases = 0, failures = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '\0') {
			continue;
		}
		// expected | arg | arg ...
		char *fields[40];
		int nf = 0;
		char *p = line;
		for (;;) {
			char *sep = strstr(p, " | ");
			if (sep) {
				*sep = '\0';
			}
			if (nf < 39) {
				fields[nf++] = p;
			}
			if (!sep) {
				break;
			}
			p = sep + 3;
		}
		const char *args[40];
		for (int i = 1; i < nf; i++) {
			args[i - 1] = strcmp(fields[i], "<empty>") == 0 ? "" : fields[i];
		}
		args[nf - 1] = NULL;
		char *expected = expand(fields[0]);
		run_result r;
		ENSURE(run_in_work(args, &r) == 0);
		cases++;
		char *err = normalise(r.err);
		char *want = normalise(expected);
		int ok = r.status == 2 && !r.signaled && r.out_len == 0 && one_line(r.err) && strncmp(r.err, "spring: ", 8) == 0 &&
		         strstr(err, want) != NULL;
		if (!ok) {
			fprintf(stderr, "  bad-input case '%s' (args from '%s'): status %d, stdout %zu bytes, stderr: %s", fields[0],
			        fields[1], r.status, r.out_len, r.err);
			failures++;
		}
		char left[512];
		if (list_dir(g_work, left, sizeof left) != 0) {
			fprintf(stderr, "  bad-input case '%s' left files: %s\n", fields[0], left);
			clean_work();
			failures++;
		}
		free(err);
		free(want);
		free(expected);
		run_free(&r);
	}
	free(text);
	ENSURE_MSG(cases >= 25, "only %d bad-input cases", cases);
	ENSURE(failures == 0);
	return 0;
}

// Odd argv: never a crash, a status of 0, 1 or 2, and a one-line message with 2.
static int test_fuzz_argv(void)
{
	static const char *const commands[] = {"params", "curve", "css", "compare", "simulate", "verify", "demo", "bogus", "code"};
	static const char *const tokens[] = {
		// clang-format off
		"--duration", "--bounce", "--response", "--damping-fraction", "--frequency", "--damping-ratio", "--stiffness",
		"--damping", "--mass", "--settling", "--visual-duration", "--half-life", "--tension", "--friction",
		"--origami-tension", "--origami-friction", "--per-frame-stiffness", "--per-frame-damping", "--per-frame-fps",
		"--epsilon", "--from", "--to", "--velocity", "--dt", "--until", "--csv", "--json", "--svg", "--resolution",
		"--max-duration", "--retarget-to", "--retarget-at", "--tween-duration", "--clip", "--fps", "--seconds",
		"--teleport-at", "--teleport-by", "--integrator", "--step", "--", "-", "-x", "--=", "--duration=", "---",
		"--preset", "--reduced-motion", "--motion-duration", "--for", "--fallback", "--keyframes", "--unit", "snappy",
		"expressive-fast-spatial", "swiftui", "react-spring", "css", "0.5", "0.3", "2", "-1", "0", "1e40", "-1e-40", "nan", "inf", "abc", "", " ", "30,60", "1,2", ",", "0x10",
		"1e-3", "out.svg", "exact", "hop", TAIL_RIG, "@SRC@/tests/cli/rigs", "\xff\xfe", "caf\xc3\xa9",
		// clang-format on
	};
	const int ntok = (int)(sizeof tokens / sizeof tokens[0]);
	unsigned seed = 2024u;
	int failures = 0;
	for (int run = 0; run < 120; run++) {
		const char *args[12];
		seed = seed * 1103515245u + 12345u;
		int cmd = (int)((seed >> 16) % 9u);
		if (cmd == 6 && (seed & 0x100u) == 0) {
			cmd = 0; // the demo is slower: only about half of its draws
		}
		args[0] = commands[cmd];
		seed = seed * 1103515245u + 12345u;
		int n = 1 + (int)((seed >> 16) % 7u);
		for (int i = 1; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			args[i] = tokens[(seed >> 16) % (unsigned)ntok];
		}
		args[n] = NULL;
		run_result r;
		ENSURE(run_in_work(args, &r) == 0);
		int ok = !r.signaled && r.status <= 2;
		if (r.status == 2) {
			ok = ok && one_line(r.err) && strncmp(r.err, "spring: ", 8) == 0;
		}
		if (!ok) {
			fprintf(stderr, "  fuzz run %d:", run);
			for (int i = 0; i < n; i++) {
				fprintf(stderr, " '%s'", args[i]);
			}
			fprintf(stderr, " -> status %d, stderr: %s\n", r.status, r.err);
			failures++;
		}
		run_free(&r);
		clean_work();
	}
	ENSURE(failures == 0);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Rigs and verification

// simulate on a VRM model: the CSV of the conformance goldens; at 60 fps with three-vrm's length
// rule the same numbers as three-vrm 3.5.5's golden; errors for what a user gets wrong.
static int test_simulate_vrm(void)
{
	run_result r;
	const char *csv[] = {"simulate", SPRING_SOURCE_DIR "/tests/vrm/models/sphere-collider.gltf",
	                     "--motion", SPRING_SOURCE_DIR "/tests/vrm/motions/sway.json",
	                     "--length", "measured",
	                     "--csv",    "-",
	                     NULL};
	ENSURE(run_in_work(csv, &r) == 0);
	ENSURE_MSG(r.status == 0, "%s", r.err);
	FILE *g = fopen(SPRING_SOURCE_DIR "/tests/vrm/golden/sphere-collider-sway-60.csv", "r");
	ENSURE(g != NULL);
	char line[512];
	const char *at = r.out;
	int rows = 0;
	double worst = 0.0;
	while (fgets(line, sizeof line, g)) {
		const char *end = strchr(at, '\n');
		ENSURE(end != NULL);
		if (rows == 0) {
			ENSURE(strncmp(at, line, (size_t)(end - at) + 1) == 0); // the header, exactly
		} else {
			double v[2][7];
			char name[2][64];
			int frame[2];
			ENSURE(sscanf(at, "%*d,%d,%*[^,],%63[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf", &frame[0], name[0], &v[0][0], &v[0][1],
			              &v[0][2], &v[0][3], &v[0][4], &v[0][5], &v[0][6]) == 9);
			ENSURE(sscanf(line, "%*d,%d,%*[^,],%63[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf", &frame[1], name[1], &v[1][0], &v[1][1],
			              &v[1][2], &v[1][3], &v[1][4], &v[1][5], &v[1][6]) == 9);
			ENSURE(frame[0] == frame[1] && strcmp(name[0], name[1]) == 0);
			for (int k = 0; k < 7; k++) {
				worst = fabs(v[0][k] - v[1][k]) > worst ? fabs(v[0][k] - v[1][k]) : worst;
			}
		}
		at = end + 1;
		rows++;
	}
	fclose(g);
	ENSURE(*at == '\0' && rows == 961);
	printf("  simulate --length measured against three-vrm's golden: %d rows within %.2g\n", rows - 1, worst);
	ENSURE(worst <= 1e-6);
	run_free(&r);
	// Errors: no motion, a bad rule, a motion for another model, both --rate and --per-frame.
	static const struct {
		const char *args[8];
		const char *message;
	} bad[] = {
		{{"simulate", SPRING_SOURCE_DIR "/tests/vrm/models/sphere-collider.gltf", NULL}, "needs --motion"},
		{{"simulate", SPRING_SOURCE_DIR "/tests/vrm/models/sphere-collider.gltf", "--motion",
	      SPRING_SOURCE_DIR "/tests/vrm/motions/sway.json", "--length", "constant", NULL},
	     "not a rule"},
		{{"simulate", SPRING_SOURCE_DIR "/tests/vrm/models/sphere-collider.gltf", "--motion",
	      SPRING_SOURCE_DIR "/tests/vrm/motions/godette-shake.json", NULL},
	     "$.tracks[0].node: no node is named \"head_Armature\""},
		{{"simulate", SPRING_SOURCE_DIR "/tests/vrm/models/sphere-collider.gltf", "--motion",
	      SPRING_SOURCE_DIR "/tests/vrm/motions/sway.json", "--rate", "30", "--per-frame", NULL},
	     "not both"},
		{{"simulate", SPRING_SOURCE_DIR "/tests/vrm/motions/sway.json.vrm", "--motion", "x.json", NULL}, "cannot open"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ENSURE(run_in_work(bad[i].args, &r) == 0);
		ENSURE_MSG(r.status == 2 && strstr(r.err, bad[i].message), "case %zu: %d %s", i, r.status, r.err);
		run_free(&r);
	}
	// The plot: well-formed, both panels, three rates each.
	const char *svg[] = {"simulate", SPRING_SOURCE_DIR "/tests/vrm/models/sphere-collider.gltf",
	                     "--motion", SPRING_SOURCE_DIR "/tests/vrm/motions/sway.json",
	                     "--svg",    "vrm.svg",
	                     NULL};
	ENSURE(run_in_work(svg, &r) == 0);
	ENSURE_MSG(r.status == 0 && strstr(r.out, "wrote vrm.svg"), "%d %s", r.status, r.err);
	run_free(&r);
	char svg_path[1024];
	snprintf(svg_path, sizeof svg_path, "%s/vrm.svg", g_work);
	ENSURE(xml_well_formed(svg_path));
	FILE *sf = fopen(svg_path, "rb");
	ENSURE(sf != NULL);
	static char svg_text[1 << 20];
	size_t svg_len = fread(svg_text, 1, sizeof svg_text - 1, sf);
	fclose(sf);
	svg_text[svg_len] = '\0';
	int series = 0;
	for (const char *at2 = svg_text; (at2 = strstr(at2, "class=\"series\"")) != NULL; at2++) {
		series++;
	}
	ENSURE(series == 6 && strstr(svg_text, "stepped once per frame") && strstr(svg_text, "144 fps"));
	clean_work();
	// The summary names what ran.
	const char *text[] = {"simulate", SPRING_SOURCE_DIR "/tests/vrm/models/Godette_vrm_v4.vrm",
	                      "--motion", SPRING_SOURCE_DIR "/tests/vrm/motions/godette-shake.json",
	                      "--fps",    "24",
	                      NULL};
	ENSURE(run_in_work(text, &r) == 0);
	ENSURE_MSG(r.status == 0 && strstr(r.out, "VRM 0.x secondaryAnimation: 71 nodes, 8 springs, 16 bones") &&
	               strstr(r.out, "48 frames at 24 fps, springs stepped at 60 Hz (fixed steps)") &&
	               strstr(r.out, "interpolated pose"),
	           "%s", r.out);
	run_free(&r);
	// verify: Godette's sway passes every check; the plane sample's fast shake seen at 24 fps does
	// not (its envelope is 0.78% RMS, above 0.25%), and the exit status says so.
	const char *ok[] = {"verify", SPRING_SOURCE_DIR "/tests/vrm/models/Godette_vrm_v4.vrm", "--motion",
	                    SPRING_SOURCE_DIR "/tests/vrm/motions/sway.json", NULL};
	ENSURE(run_in_work(ok, &r) == 0);
	ENSURE_MSG(r.status == 0 && strstr(r.out, "PASS: all checks") && strstr(r.out, "2 rest: after 10 s of hold") &&
	               strstr(r.out, "per-frame stepping:"),
	           "%d %s%s", r.status, r.out, r.err);
	run_free(&r);
	const char *fail[] = {"verify",   SPRING_SOURCE_DIR "/tests/vrm/models/plane-collider.gltf",
	                      "--motion", SPRING_SOURCE_DIR "/tests/vrm/motions/shake.json",
	                      "--fps",    "24,30",
	                      NULL};
	ENSURE(run_in_work(fail, &r) == 0);
	ENSURE_MSG(r.status == 1 && strstr(r.out, "24 fps           0.780% / 1.400%: FAIL") &&
	               strstr(r.out, "30 fps           0.106% / 0.220%: PASS") && strstr(r.out, "FAIL: see above"),
	           "%d %s%s", r.status, r.out, r.err);
	run_free(&r);
	return 0;
}

static int test_example_rigs(void)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/examples/rigs", SPRING_SOURCE_DIR);
	DIR *d = opendir(dir);
	if (!d) {
		printf("  (no examples/rigs yet: skipped)\n");
		return 0;
	}
	int count = 0;
	struct dirent *e;
	char names[16][1400];
	while ((e = readdir(d)) != NULL && count < 16) {
		size_t l = strlen(e->d_name);
		if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0) {
			snprintf(names[count++], sizeof names[0], "%s/%s", dir, e->d_name);
		}
	}
	closedir(d);
	for (int i = 0; i < count; i++) {
		run_result r;
		const char *sim[] = {"simulate", names[i], "--svg", "rig.svg", NULL};
		ENSURE(run_in_work(sim, &r) == 0);
		ENSURE_MSG(r.status == 0, "simulate %s: %d %s", names[i], r.status, r.err);
		run_free(&r);
		char path[1024];
		snprintf(path, sizeof path, "%s/rig.svg", g_work);
		ENSURE(xml_well_formed(path));
		const char *csv[] = {"simulate", names[i], "--csv", "--seconds", "0.5", NULL};
		ENSURE(run_in_work(csv, &r) == 0);
		ENSURE(r.status == 0 && strncmp(r.out, "frame,time,bone,x,y,angle\n", 26) == 0);
		run_free(&r);
		const char *json[] = {"simulate", names[i], "--json", "--seconds", "0.5", NULL};
		ENSURE(run_in_work(json, &r) == 0);
		ENSURE(r.status == 0);
		ENSURE(check_json(names[i], r.out) == 0);
		run_free(&r);
		const char *verify[] = {"verify", names[i], NULL};
		ENSURE(run_in_work(verify, &r) == 0);
		ENSURE_MSG(r.status == 0, "verify %s: %d\n%s%s", names[i], r.status, r.out, r.err);
		ENSURE(strstr(r.out, "PASS: all"));
		run_free(&r);
		clean_work();
	}
	return 0;
}

// The reader's warning: a chain limit (degrees) that looks like radians, |limit| < 2 pi with a
// fractional part; the rig still loads as written. Both sides of the bound, and the cap on kept
// warnings.
static int test_rig_reader_radian_warning(void)
{
	static const struct {
		const char *limit;
		int warned;
	} cases[] = {
		{"0.5", 1}, {"6.2831", 1}, {"6.2832", 0}, {"3", 0}, {"6", 0}, {"179.5", 0}, {"0.001", 1}, {"7.5", 0},
	};
	spring_rig_file_info *info = calloc(1, sizeof *info);
	ENSURE(info);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char json[1024];
		snprintf(json, sizeof json,
		         "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [{\"name\": \"a\", \"length\": 10}, "
		         "{\"name\": \"b\", \"parent\": \"a\", \"length\": 10, \"x\": 10}], \"chains\": [{\"name\": \"c\", "
		         "\"type\": \"angle\", \"first\": \"b\", \"last\": \"b\", \"limit\": %s}]}",
		         cases[i].limit);
		spring_rig *rig = NULL;
		spring_file_error e;
		ENSURE_MSG(spring_rig_load_json_ex(json, strlen(json), "w.json", &rig, info, &e) == SPRING_OK, "%s", e.message);
		spring_rig_destroy(rig);
		ENSURE_MSG(info->warning_count == cases[i].warned, "limit %s: %d warnings", cases[i].limit, info->warning_count);
		if (cases[i].warned) {
			ENSURE(strncmp(info->warnings[0], "$.chains[0].limit: ", 19) == 0 && strstr(info->warnings[0], "looks like radians"));
		}
	}
	// Ten chains with a limit of 0.5: ten warnings counted, the first eight kept.
	char json[8192];
	size_t o = (size_t)snprintf(json, sizeof json, "{\"format\": \"libspring-rig\", \"version\": 1, \"bones\": [");
	for (int i = 0; i < 10; i++) {
		o += (size_t)snprintf(json + o, sizeof json - o, "%s{\"name\": \"b%d\", \"length\": 10}", i ? ", " : "", i);
	}
	o += (size_t)snprintf(json + o, sizeof json - o, "], \"chains\": [");
	for (int i = 0; i < 10; i++) {
		o += (size_t)snprintf(
			json + o, sizeof json - o,
			"%s{\"name\": \"c%d\", \"type\": \"tip\", \"first\": \"b%d\", \"last\": \"b%d\", \"cone_limit\": 0.5}", i ? ", " : "",
			i, i, i);
	}
	snprintf(json + o, sizeof json - o, "]}");
	spring_rig *rig = NULL;
	spring_file_error e;
	ENSURE_MSG(spring_rig_load_json_ex(json, strlen(json), "w.json", &rig, info, &e) == SPRING_OK, "%s", e.message);
	spring_rig_destroy(rig);
	ENSURE(info->warning_count == 10);
	ENSURE(strncmp(info->warnings[SPRING_RIG_FILE_MAX_WARNINGS - 1], "$.chains[7].cone_limit", 22) == 0);
	free(info);
	return 0;
}

static int test_verify_fails_undamped(void)
{
	const char *args[] = {"verify", "--frequency", "2", "--damping-ratio", "0", NULL};
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE(r.status == 1);
	ENSURE(strstr(r.out, "2 rest") && strstr(r.out, "FAIL"));
	ENSURE(strstr(r.out, "\nFAIL: "));
	run_free(&r);
	const char *good[] = {"verify", "--duration", "0.5", "--bounce", "0.3", NULL};
	ENSURE(run_in_work(good, &r) == 0);
	ENSURE(r.status == 0 && strstr(r.out, "PASS: all") && !strstr(r.out, "FAIL"));
	run_free(&r);
	return 0;
}

// --teleport-by past where the rig's chains can step is refused, naming the chain and the limit
// (tests/cli/bad_input.txt); before, 2e6,0 passed and every update after it failed. The farthest
// offset the library takes runs to the end.
static int test_teleport_within_chains(void)
{
	// tail.json's chain "ear" reaches 134 units from its root (the clips' translations included),
	// "tail" 120: 998,866 is the farthest offset along x (the clip "still" has no events).
	const char *near[] = {"simulate", TAIL_RIG, "--clip", "still", "--teleport-at", "0.5", "--teleport-by", "998866,0", NULL};
	run_result r;
	ENSURE(run_in_work(near, &r) == 0);
	ENSURE_MSG(r.status == 0 && r.err_len == 0, "status %d: %s", r.status, r.err);
	run_free(&r);
	const char *far[] = {"simulate", TAIL_RIG, "--clip", "still", "--teleport-at", "0.5", "--teleport-by", "998867,0", NULL};
	ENSURE(run_in_work(far, &r) == 0);
	ENSURE_MSG(r.status == 2 && strstr(r.err, "chain \"ear\" up to 999001 units") && strstr(r.err, "at most 999000"),
	           "status %d: %s", r.status, r.err);
	run_free(&r);
	return 0;
}

// The clip events the library defines are the library's to apply (spring_rig_apply_events), and
// one it refuses stops the run with the library's message: "hop" teleports by 100, 0 at 0.75 s
// and 1.75 s. Before, the command applied them itself and skipped a refused one without a word
// (998,866 then ran to the end with the rig left short of where the clip put it).
static int test_teleport_events_within_chains(void)
{
	const char *near[] = {"simulate", TAIL_RIG, "--teleport-at", "0.5", "--teleport-by", "998666,0", "--json", NULL};
	run_result r;
	ENSURE(run_in_work(near, &r) == 0);
	ENSURE_MSG(r.status == 0 && r.err_len == 0, "status %d: %s", r.status, r.err);
	ENSURE_MSG(count_of(r.out, "\"source\": \"clip event\"") == 2, "%.300s", r.out);
	run_free(&r);
	const char *far[] = {"simulate", TAIL_RIG, "--teleport-at", "0.5", "--teleport-by", "998667,0", NULL};
	ENSURE(run_in_work(far, &r) == 0);
	ENSURE_MSG(r.status == 2 && r.out_len == 0 && one_line(r.err) &&
	               strstr(r.err, "at 1.75 s: clip 0: event 0: teleport by (100, 0) of clip \"hop\"") &&
	               strstr(r.err, "root (998867, 0) carries chain \"ear\" up to 999001 units") && strstr(r.err, "at most 999000"),
	           "status %d: %s", r.status, r.err);
	run_free(&r);
	return 0;
}

// The issue's reproduction: the sample character's walk (a "teleport" event by 400, 0 at 0.9 s)
// played through the library with spring_rig_apply_events after each update puts every bone where
// `spring simulate` does at 2 s, bit for bit (the hip at x 800, less the clip's sway); without
// the call the hip stays where it was, at x 0. Before, only the command applied the event.
static int test_teleport_events_library_and_cli_agree(void)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/examples/rigs/character.json", SPRING_SOURCE_DIR);
	const char *args[] = {"simulate", path, "--clip", "walk", "--json", NULL};
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE_MSG(r.status == 0, "status %d: %s", r.status, r.err);
	cJSON *doc = cJSON_Parse(r.out);
	run_free(&r);
	ENSURE(doc != NULL);
	cJSON *poses = cJSON_GetObjectItemCaseSensitive(doc, "poses");
	ENSURE(cJSON_GetArraySize(poses) == 121 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "teleports")) == 2);
	cJSON *last = cJSON_GetArrayItem(poses, 120);
	cJSON *xs = cJSON_GetObjectItemCaseSensitive(last, "x"), *ys = cJSON_GetObjectItemCaseSensitive(last, "y");
	for (int told = 1; told >= 0; told--) {
		spring_rig *rig;
		spring_file_error err;
		ENSURE_MSG(spring_rig_load_file(path, &rig, &err) == SPRING_OK, "%s", err.message);
		ENSURE(spring_rig_play_named(rig, "walk", 0.0f) == SPRING_OK);
		for (int i = 1; i <= 120; i++) { // the command's frames: 60 fps, each (i - 1) / 60 .. i / 60 s
			ENSURE(spring_rig_update(rig, (float)((double)i / 60.0 - (double)(i - 1) / 60.0)) == SPRING_OK);
			ENSURE(!told || spring_rig_apply_events(rig, NULL) == SPRING_OK);
		}
		int n = spring_rig_bone_count(rig), hip = spring_rig_find_bone(rig, "hip");
		spring_xform2 world[SPRING_RIG_MAX_BONES];
		ENSURE(spring_rig_get_world(rig, world, SPRING_RIG_MAX_BONES) == SPRING_OK && cJSON_GetArraySize(xs) == n && hip >= 0);
		float cli_hip = (float)cJSON_GetArrayItem(xs, hip)->valuedouble;
		printf("    hip at 2 s: x %.9g (spring simulate: %.9g)%s\n", (double)world[hip].position.x, (double)cli_hip,
		       told ? "" : ", not told");
		if (told) {
			for (int b = 0; b < n; b++) {
				ENSURE_MSG(world[b].position.x == (float)cJSON_GetArrayItem(xs, b)->valuedouble &&
				               world[b].position.y == (float)cJSON_GetArrayItem(ys, b)->valuedouble,
				           "bone %d: %.9g, %.9g", b, (double)world[b].position.x, (double)world[b].position.y);
			}
			ENSURE(fabsf(cli_hip - 800.0f) < 0.01f);
		} else {
			ENSURE(fabsf(world[hip].position.x) < 0.01f);
		}
		spring_rig_destroy(rig);
	}
	cJSON_Delete(doc);
	return 0;
}

static int test_help_everywhere(void)
{
	static const char *const commands[] = {"params", "curve", "css", "code", "compare", "simulate", "verify", "demo"};
	run_result r;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		const char *args[] = {commands[i], "--help", NULL};
		ENSURE(run_in_work(args, &r) == 0);
		char want[64];
		snprintf(want, sizeof want, "usage: spring %s", commands[i]);
		ENSURE_MSG(r.status == 0 && strncmp(r.out, want, strlen(want)) == 0 && r.err_len == 0, "%s --help", commands[i]);
		// Words for users: the project only.
		ENSURE_MSG(count_of(r.out, "seed") == 0 && count_of(r.out, "Seed") == 0, "%s --help", commands[i]);
		run_free(&r);
		// --help wins over anything else on the line.
		const char *args2[] = {commands[i], "--bogus", "--help", NULL};
		ENSURE(run_in_work(args2, &r) == 0);
		ENSURE(r.status == 0);
		run_free(&r);
	}
	const char *top[] = {"--help", NULL};
	ENSURE(run_in_work(top, &r) == 0);
	ENSURE(r.status == 0 && strstr(r.out, "commands:"));
	run_free(&r);
	const char *version[] = {"--version", NULL};
	ENSURE(run_in_work(version, &r) == 0);
	ENSURE(r.status == 0 && strncmp(r.out, "spring ", 7) == 0);
	run_free(&r);
	return 0;
}

// Every flag a command accepts is explained in its --help: each flag known anywhere is tried on
// each command; when the command does not call it unknown, its help must name it.
// Runs `args` in the work directory; 0 when it exits with `status`, its stdout holds `out` and its
// stderr `err` (NULL: empty), each found by strstr.
static int run_expect(const char *const *args, int status, const char *out, const char *err)
{
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	ENSURE_MSG(r.status == status, "spring %s exited %d: %s", args[0], r.status, r.err);
	ENSURE_MSG(!out || strstr(r.out, out), "spring %s: stdout lacks '%s':\n%s", args[0], out, r.out);
	ENSURE_MSG(err ? strstr(r.err, err) != NULL : r.err_len == 0, "spring %s: stderr '%s', expected '%s'", args[0], r.err,
	           err ? err : "");
	run_free(&r);
	clean_work();
	return 0;
}

// Names in any case (commands, presets, platforms), the note for milliseconds given as seconds on
// both sides of its threshold, JSON numbers as people wrote them, one line for --svg alone,
// code --json and demo --out.
static int test_names_notes_and_outputs(void)
{
	const char *upper[] = {"PARAMS", "--preset", "Bouncy", "--json", NULL};
	ENSURE(run_expect(upper, 0, "\"preset\": \"bouncy\"", NULL) == 0);
	const char *platform[] = {"code", "--for", "SwiftUI", "--duration", "0.5", NULL};
	ENSURE(run_expect(platform, 0, "Spring(duration: 0.5, bounce: 0)", NULL) == 0);
	const char *ms[] = {"params", "--duration", "500", NULL};
	ENSURE(run_expect(ms, 0, "duration 500 s",
	                  "params: note: --duration 500 is 500 seconds; did you mean 0.5 s (500 milliseconds)?\n") == 0);
	const char *below[] = {"params", "--duration", "9.99", NULL};
	ENSURE(run_expect(below, 0, "duration 9.99 s", NULL) == 0);
	const char *at[] = {"curve", "--half-life", "10", NULL};
	ENSURE(run_expect(at, 0, NULL, "note: --half-life 10 is 10 seconds; did you mean 0.01 s") == 0);
	const char *frames[] = {"params", "--per-frame-stiffness", "0.1", "--per-frame-damping",
	                        "0.9",    "--per-frame-fps",       "60",  NULL};
	ENSURE(run_expect(frames, 0, NULL, NULL) == 0); // 60 frames a second is not a time
	const char *json[] = {"params", "--json", "--duration", "0.5", "--bounce", "0.3", NULL};
	ENSURE(run_expect(json, 0, "\"bounce\": 0.3\n", NULL) == 0);
	ENSURE(run_expect(json, 0, "\"damping_ratio\": 0.7\n", NULL) == 0);
	ENSURE(run_expect(json, 0, "\"stiffness\": 157.91367,", NULL) == 0); // 157.913666 before: as many digits as the float needs
	const char *compare[] = {"compare", "--svg", "c.svg", NULL};
	run_result r;
	ENSURE(run_in_work(compare, &r) == 0 && r.status == 0);
	ENSURE_MSG(one_line(r.out) && strncmp(r.out, "wrote c.svg (", 13) == 0, "%s", r.out);
	run_free(&r);
	clean_work();
	const char *simulate[] = {"simulate", "@SRC@/examples/rigs/character.json", "--seconds", "0.5", "--svg", "s.svg", NULL};
	ENSURE(run_in_work(simulate, &r) == 0 && r.status == 0);
	ENSURE_MSG(one_line(r.out) && strstr(r.out, "wrote s.svg (31 frames at 60 fps, 0.5 s)"), "%s", r.out);
	run_free(&r);
	clean_work();
	const char *code[] = {"code", "--for", "compose", "--preset", "snappy", "--json", NULL};
	ENSURE(run_in_work(code, &r) == 0 && r.status == 0);
	ENSURE(check_json("code --json", r.out) == 0);
	ENSURE(strstr(r.out, "\"for\": \"compose\"") && strstr(r.out, "\"code\": \"// spring: preset snappy"));
	run_free(&r);
	clean_work();
	// Angles for people: one turn, -180 to 180 degrees (a walking tail reached 382.8 unwrapped).
	const char *walk[] = {"simulate", "@SRC@/examples/rigs/character.json", "--clip", "walk", "--seconds", "30", "--csv", NULL};
	ENSURE(run_in_work(walk, &r) == 0 && r.status == 0);
	int rows = 0;
	double lowest = 0.0, highest = 0.0;
	for (const char *line = strchr(r.out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		const char *end = strchr(line + 1, '\n'), *angle = end;
		while (angle && angle > line && *angle != ',') {
			angle--;
		}
		if (end && angle > line) {
			double a = strtod(angle + 1, NULL);
			lowest = rows == 0 || a < lowest ? a : lowest;
			highest = rows == 0 || a > highest ? a : highest;
			rows++;
		}
	}
	ENSURE_MSG(rows > 60000 && lowest >= -180.001 && highest <= 180.001, "%d rows, angles %g to %g", rows, lowest, highest);
	ENSURE_MSG(lowest < -179.0 && highest > 179.0, "the walk's tail crosses half a turn: %g to %g", lowest, highest);
	run_free(&r);
	clean_work();
	const char *demo[] = {"demo", "--out", "pages/demo", NULL};
	ENSURE(run_in_work(demo, &r) == 0 && r.status == 0);
	ENSURE(strstr(r.out, "wrote pages/demo/index.html"));
	run_free(&r);
	char path[1024];
	snprintf(path, sizeof path, "%s/pages/demo/index.html", g_work);
	ENSURE(xml_well_formed(path));
	snprintf(path, sizeof path, "%s/out", g_work);
	ENSURE_MSG(access(path, F_OK) != 0, "demo --out also wrote out/");
	clean_work();
	return 0;
}

static int test_help_names_every_flag(void)
{
	static const char *const commands[] = {"params", "curve", "css", "code", "compare", "simulate", "verify", "demo"};
	static const char *const flags[] = {
		// clang-format off
		"--duration", "--bounce", "--response", "--damping-fraction", "--frequency", "--damping-ratio", "--stiffness",
		"--damping", "--mass", "--settling", "--visual-duration", "--motion-duration", "--half-life", "--tension",
		"--friction", "--origami-tension", "--origami-friction", "--per-frame-stiffness", "--per-frame-damping",
		"--per-frame-fps", "--epsilon", "--preset", "--reduced-motion", "--from", "--to", "--velocity", "--dt", "--until",
		"--csv", "--json", "--svg", "--resolution", "--max-duration", "--fallback", "--keyframes", "--property", "--unit",
		"--for", "--retarget-to", "--retarget-at", "--tween-duration", "--clip", "--fps", "--seconds", "--teleport-at",
		"--teleport-by", "--integrator", "--step", "--out",
		// clang-format on
	};
	const size_t spring_flags = 23; // the first ones: every command taking a spring prints the same spring help
	int accepted = 0;
	for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
		const char *help_args[] = {commands[c], "--help", NULL};
		run_result h;
		ENSURE(run_in_work(help_args, &h) == 0 && h.status == 0);
		for (size_t f = c == 0 ? 0 : spring_flags; f < sizeof flags / sizeof flags[0]; f++) {
			const char *args[] = {commands[c], flags[f], NULL};
			run_result r;
			ENSURE(run_in_work(args, &r) == 0);
			int unknown = strstr(r.err, "unknown option") != NULL;
			run_free(&r);
			clean_work();
			if (unknown) {
				continue;
			}
			accepted++;
			int named = 0;
			size_t n = strlen(flags[f]);
			for (const char *p = strstr(h.out, flags[f]); p && !named; p = strstr(p + 1, flags[f])) {
				char next = p[n];
				named = !(next == '-' || (next >= 'a' && next <= 'z'));
			}
			ENSURE_MSG(named, "spring %s accepts %s but its --help does not explain it", commands[c], flags[f]);
		}
		run_free(&h);
	}
	ENSURE(accepted > 50);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// The parameterisation table: CLI flags and rig-file keys agree

// A value for every key of the table (the test's own, so a new row without one fails here).
static const char *sample_value(const char *key)
{
	static const char *const samples[][2] = {
		// clang-format off
		{"mass", "2.5"}, {"stiffness", "150"}, {"damping", "4"}, {"frequency", "1.7"}, {"damping_ratio", "0.25"},
		{"duration", "0.6"}, {"bounce", "-0.3"}, {"response", "0.45"}, {"damping_fraction", "0.6"}, {"settling", "0.9"},
		{"epsilon", "0.01"}, {"visual_duration", "0.3"}, {"half_life", "0.07"}, {"tension", "170"}, {"friction", "26"},
		{"origami_tension", "40"}, {"origami_friction", "7"}, {"per_frame_stiffness", "0.1"}, {"per_frame_damping", "0.7"},
		{"motion_duration", "0.8"},
		// clang-format on
		{"fps", "30"},
	};
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
		if (strcmp(samples[i][0], key) == 0) {
			return samples[i][1];
		}
	}
	return NULL;
}

static int same_bits(spring_params a, spring_params b)
{
	return memcmp(&a.stiffness, &b.stiffness, sizeof(float)) == 0 && memcmp(&a.damping, &b.damping, sizeof(float)) == 0 &&
	       memcmp(&a.mass, &b.mass, sizeof(float)) == 0;
}

// `spring params --json` with the form's fields whose bit is set in `given`: its exit status, and
// on success the canonical parameters and the "given" object (printed JSON, to be freed).
static int cli_params(const spring_param_form *form, unsigned given, int *status, spring_params *p, char **given_json)
{
	const char *args[16];
	int n = 0;
	args[n++] = "params";
	args[n++] = "--json";
	for (int i = 0; i < form->field_count; i++) {
		if (given & (1u << i)) {
			args[n++] = form->fields[i].flag;
			args[n++] = sample_value(form->fields[i].key);
		}
	}
	args[n] = NULL;
	run_result r;
	ENSURE(run_in_work(args, &r) == 0);
	*status = r.status;
	if (r.status != 0) {
		ENSURE_MSG(r.status == 2 && one_line(r.err), "%s: status %d, %s", form->name, r.status, r.err);
		run_free(&r);
		return 0;
	}
	cJSON *doc = cJSON_Parse(r.out);
	run_free(&r);
	ENSURE(doc);
	const cJSON *spring = cJSON_GetObjectItemCaseSensitive(doc, "spring");
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(spring, "parameterisation");
	ENSURE_MSG(cJSON_IsString(kind) && strcmp(kind->valuestring, form->name) == 0, "%s", form->name);
	// "%.9g" of a float reads back as the same float.
	p->mass = (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "mass"));
	p->stiffness = (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "stiffness"));
	p->damping = (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "damping"));
	*given_json = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(spring, "given"));
	cJSON_Delete(doc);
	ENSURE(*given_json);
	return 0;
}

// A rig file's spring object with the same fields: the reader's result.
static spring_result rig_params(const spring_param_form *form, unsigned given, spring_params *p, spring_file_error *e)
{
	char json[512];
	size_t o = (size_t)snprintf(json, sizeof json, "{");
	int first = 1;
	for (int i = 0; i < form->field_count; i++) {
		if (given & (1u << i)) {
			o += (size_t)snprintf(json + o, sizeof json - o, "%s\"%s\": %s", first ? "" : ", ", form->fields[i].key,
			                      sample_value(form->fields[i].key));
			first = 0;
		}
	}
	snprintf(json + o, sizeof json - o, "}");
	return rj_load_spring_json(json, strlen(json), "spring.json", p, e);
}

// --preset NAME: the library's spring, bit for bit, and its "given" object (the form the preset is
// published in) read as a rig file's spring is the same spring.
static int test_presets_cli_and_rig_agree(void)
{
	int n = 0;
	for (; spring_preset_name(n); n++) {
		const char *args[] = {"params", "--preset", spring_preset_name(n), "--json", NULL};
		run_result r;
		ENSURE(run_in_work(args, &r) == 0);
		ENSURE_MSG(r.status == 0, "%s: %s", spring_preset_name(n), r.err);
		cJSON *doc = cJSON_Parse(r.out);
		run_free(&r);
		ENSURE(doc);
		const cJSON *spring = cJSON_GetObjectItemCaseSensitive(doc, "spring");
		spring_params cli = {(float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "stiffness")),
		                     (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "damping")),
		                     (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(spring, "mass"))};
		spring_params lib, rig;
		ENSURE(spring_params_from_preset(spring_preset_name(n), &lib) == SPRING_OK);
		char *given = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(spring, "given"));
		cJSON_Delete(doc);
		ENSURE(given);
		spring_file_error e;
		spring_result res = rj_load_spring_json(given, strlen(given), "given.json", &rig, &e);
		ENSURE_MSG(res == SPRING_OK && same_bits(cli, lib) && same_bits(rig, lib), "%s: given %s (%s)", spring_preset_name(n),
		           given, res == SPRING_OK ? "differs" : e.message);
		free(given);
	}
	ENSURE(n == 15);
	return 0;
}

static int test_param_table_cli_and_rig_agree(void)
{
	// A flag shared by two forms means one thing: the CLI adds it once.
	for (int f = 0; f < SPRING_PARAM_FORM_COUNT; f++) {
		for (int i = 0; i < spring_param_forms[f].field_count; i++) {
			const spring_param_field *a = &spring_param_forms[f].fields[i];
			ENSURE_MSG(sample_value(a->key) != NULL, "no sample value for \"%s\"", a->key);
			for (int g = 0; g < SPRING_PARAM_FORM_COUNT; g++) {
				for (int j = 0; j < spring_param_forms[g].field_count; j++) {
					const spring_param_field *b = &spring_param_forms[g].fields[j];
					if (strcmp(a->flag, b->flag) == 0 || strcmp(a->key, b->key) == 0) {
						ENSURE_MSG(strcmp(a->flag, b->flag) == 0 && strcmp(a->key, b->key) == 0 &&
						               strcmp(a->meta, b->meta) == 0 && memcmp(&a->range, &b->range, sizeof a->range) == 0 &&
						               a->shared_flag == b->shared_flag,
						           "%s / %s differ between %s and %s", a->flag, a->key, spring_param_forms[f].name,
						           spring_param_forms[g].name);
					}
				}
			}
		}
	}
	int runs = 0;
	for (int f = 0; f < SPRING_PARAM_FORM_COUNT; f++) {
		const spring_param_form *form = &spring_param_forms[f];
		const unsigned all = (1u << form->field_count) - 1u;
		// Everything given: the CLI and the reader give the same bits; the CLI's "given" object,
		// read as a rig file's spring, too.
		int status = 0;
		spring_params cli, rig, again;
		char *given = NULL;
		spring_file_error e;
		ENSURE(cli_params(form, all, &status, &cli, &given) == 0);
		ENSURE_MSG(status == 0, "%s: the CLI refused every field given", form->name);
		ENSURE_MSG(rig_params(form, all, &rig, &e) == SPRING_OK, "%s: %s", form->name, e.message);
		ENSURE_MSG(same_bits(cli, rig), "%s: CLI %.9g/%.9g/%.9g, rig %.9g/%.9g/%.9g", form->name, (double)cli.stiffness,
		           (double)cli.damping, (double)cli.mass, (double)rig.stiffness, (double)rig.damping, (double)rig.mass);
		spring_result r = rj_load_spring_json(given, strlen(given), "given.json", &again, &e);
		free(given);
		ENSURE_MSG(r == SPRING_OK && same_bits(cli, again), "%s: the CLI's given object reads otherwise: %s", form->name,
		           e.message);
		runs++;
		// Each field left out: an optional one takes the same default in both (and the spring is the
		// one given with that default written out); a required one is refused by both.
		for (int i = 0; i < form->field_count; i++) {
			if (i == form->primary) {
				continue;
			}
			unsigned without = all & ~(1u << i);
			spring_params cli2 = {0.0f, 0.0f, 0.0f}, rig2 = {0.0f, 0.0f, 0.0f}, want;
			ENSURE(cli_params(form, without, &status, &cli2, &given) == 0);
			r = rig_params(form, without, &rig2, &e);
			runs++;
			if (!spring_param_field_optional(&form->fields[i])) {
				ENSURE_MSG(status == 2 && r != SPRING_OK, "%s without %s: CLI status %d, reader %d", form->name,
				           form->fields[i].key, status, (int)r);
				continue;
			}
			ENSURE_MSG(status == 0 && r == SPRING_OK, "%s without %s: CLI status %d, reader %s", form->name, form->fields[i].key,
			           status, r == SPRING_OK ? "ok" : e.message);
			double v[SPRING_PARAM_MAX_FIELDS] = {0.0, 0.0, 0.0};
			for (int k = 0; k < form->field_count; k++) {
				v[k] = k == i ? form->fields[k].fallback : strtod(sample_value(form->fields[k].key), NULL);
			}
			ENSURE(spring_param_form_convert(form, v, &want) == SPRING_OK);
			ENSURE_MSG(same_bits(cli2, rig2) && same_bits(cli2, want), "%s without %s: CLI, reader and the default differ",
			           form->name, form->fields[i].key);
			cJSON *g = cJSON_Parse(given);
			free(given);
			ENSURE(g);
			double shown = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(g, form->fields[i].key));
			cJSON_Delete(g);
			ENSURE_MSG(shown == form->fields[i].fallback, "%s: the CLI shows %s as %.9g", form->name, form->fields[i].key, shown);
		}
	}
	ENSURE(runs >= 2 * SPRING_PARAM_FORM_COUNT);
	return 0;
}

int main(int argc, char **argv)
{
	TEST_INIT(argc, argv);
	const char *update = getenv("SPRING_UPDATE_GOLDEN");
	g_update = update && strcmp(update, "1") == 0;
	const char *tmp = getenv("TMPDIR");
	snprintf(g_base, sizeof g_base, "%s/spring_cli_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(g_base)) {
		fprintf(stderr, "cannot create a scratch directory\n");
		return 1;
	}
	snprintf(g_work, sizeof g_work, "%s/work", g_base);
	if (mkdir(g_work, 0755) != 0) {
		fprintf(stderr, "cannot create %s\n", g_work);
		return 1;
	}
	RUN_TEST(test_golden_outputs);
	RUN_TEST(test_params_documented_figures);
	RUN_TEST(test_json_infinite_values);
	RUN_TEST(test_css_within_half_percent);
	RUN_TEST(test_css_keyframes_and_fallback);
	RUN_TEST(test_svg_outputs_well_formed);
	RUN_TEST(test_demo_page);
	RUN_TEST(test_bad_input_corpus);
	RUN_TEST(test_fuzz_argv);
	RUN_TEST(test_example_rigs);
	RUN_TEST(test_verify_fails_undamped);
	RUN_TEST(test_teleport_within_chains);
	RUN_TEST(test_teleport_events_within_chains);
	RUN_TEST(test_teleport_events_library_and_cli_agree);
	RUN_TEST(test_rig_reader_radian_warning);
	RUN_TEST(test_simulate_vrm);
	RUN_TEST(test_help_everywhere);
	RUN_TEST(test_help_names_every_flag);
	RUN_TEST(test_names_notes_and_outputs);
	RUN_TEST(test_param_table_cli_and_rig_agree);
	RUN_TEST(test_presets_cli_and_rig_agree);
	// Each write test starts by emptying the work directory and leaves its files (removed below).
	RUN_TEST(test_write_planted_symlink_not_followed);
	RUN_TEST(test_write_foreign_tmp_untouched);
	RUN_TEST(test_write_never_over_an_input);
	RUN_TEST(test_write_device_stays_device);
	RUN_TEST(test_write_long_names);
	RUN_TEST(test_write_fifo_in_place);
	RUN_TEST(test_write_keeps_permissions);
	RUN_TEST(test_write_signal_removes_temporary);
	remove_tree(g_base);
	return TEST_SUMMARY();
}
