// SPDX-License-Identifier: MIT
// Text buffer, number formatting, JSON writer, errors and atomic file output for the CLI.
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// Text buffer

void sb_init(sbuf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}

void sb_free(sbuf *b)
{
	free(b->data);
	sb_init(b);
}

static int sb_reserve(sbuf *b, size_t extra)
{
	if (b->failed) {
		return 0;
	}
	if (b->len + extra + 1 <= b->cap) {
		return 1;
	}
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1) {
		if (cap > ((size_t)1 << 40)) {
			b->failed = 1;
			return 0;
		}
		cap *= 2;
	}
	char *d = realloc(b->data, cap);
	if (!d) {
		b->failed = 1;
		return 0;
	}
	b->data = d;
	b->cap = cap;
	return 1;
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	if (!sb_reserve(b, (size_t)n)) {
		return;
	}
	if ((size_t)n < sizeof small) {
		memcpy(b->data + b->len, small, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void sb_puts(sbuf *b, const char *s)
{
	size_t n = strlen(s);
	if (!sb_reserve(b, n)) {
		return;
	}
	memcpy(b->data + b->len, s, n + 1);
	b->len += n;
}

void sb_putc(sbuf *b, char c)
{
	if (!sb_reserve(b, 1)) {
		return;
	}
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void sb_xml(sbuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': sb_puts(b, "&amp;"); break;
		case '<': sb_puts(b, "&lt;"); break;
		case '>': sb_puts(b, "&gt;"); break;
		case '"': sb_puts(b, "&quot;"); break;
		case '\'': sb_puts(b, "&#39;"); break;
		default:
			// XML 1.0 forbids most control characters even as references: replace them.
			if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') {
				sb_putc(b, '?');
			} else {
				sb_putc(b, (char)*p);
			}
		}
	}
}

char *fmt_num(char *buf, double v, int digits)
{
	if (isnan(v)) {
		strcpy(buf, "nan");
	} else if (isinf(v)) {
		strcpy(buf, v > 0 ? "inf" : "-inf");
	} else {
		if (v == 0.0) {
			v = 0.0; // no "-0"
		}
		snprintf(buf, 40, "%.*g", digits, v);
		if (strcmp(buf, "-0") == 0) {
			strcpy(buf, "0");
		}
	}
	return buf;
}

void sb_num(sbuf *b, double v, int digits)
{
	char buf[40];
	sb_puts(b, fmt_num(buf, v, digits));
}

// ---------------------------------------------------------------------------------------------
// JSON writer

void jw_init(jw *w, sbuf *b)
{
	memset(w, 0, sizeof *w);
	w->b = b;
}

static void jw_json_string(sbuf *b, const char *s)
{
	sb_putc(b, '"');
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			sb_putc(b, '\\');
			sb_putc(b, (char)c);
			p++;
		} else if (c < 0x20) {
			switch (c) {
			case '\n': sb_puts(b, "\\n"); break;
			case '\t': sb_puts(b, "\\t"); break;
			case '\r': sb_puts(b, "\\r"); break;
			default: sb_printf(b, "\\u%04x", c);
			}
			p++;
		} else if (c < 0x80) {
			sb_putc(b, (char)c);
			p++;
		} else {
			// Copy valid UTF-8 sequences; replace anything else with U+FFFD so the output is valid.
			int n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
			if (c >= 0xf5) {
				n = 0;
			}
			int ok = n > 0;
			for (int i = 1; ok && i < n; i++) {
				ok = (p[i] & 0xc0) == 0x80;
			}
			if (ok && n == 3) {
				unsigned cp = ((c & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu);
				ok = cp >= 0x800 && !(cp >= 0xd800 && cp <= 0xdfff);
			} else if (ok && n == 4) {
				unsigned cp = ((c & 0x07u) << 18) | ((p[1] & 0x3fu) << 12) | ((p[2] & 0x3fu) << 6) | (p[3] & 0x3fu);
				ok = cp >= 0x10000 && cp <= 0x10ffff;
			}
			if (ok) {
				for (int i = 0; i < n; i++) {
					sb_putc(b, (char)p[i]);
				}
				p += n;
			} else {
				sb_puts(b, "\\ufffd");
				p++;
			}
		}
	}
	sb_putc(b, '"');
}

static void jw_indent(jw *w)
{
	sb_putc(w->b, '\n');
	for (int i = 0; i < w->depth; i++) {
		sb_puts(w->b, "  ");
	}
}

// Separator and key before a value.
static void jw_pre(jw *w, const char *key)
{
	if (w->depth > 0) {
		if (w->count[w->depth] > 0) {
			sb_putc(w->b, ',');
			if (w->inl[w->depth]) {
				sb_putc(w->b, ' ');
			}
		}
		if (!w->inl[w->depth]) {
			jw_indent(w);
		}
		w->count[w->depth]++;
	}
	if (key) {
		jw_json_string(w->b, key);
		sb_puts(w->b, ": ");
	}
}

static void jw_open(jw *w, const char *key, char c, int inline_elements)
{
	jw_pre(w, key);
	sb_putc(w->b, c);
	if (w->depth < 31) {
		w->depth++;
	}
	w->count[w->depth] = 0;
	w->inl[w->depth] = inline_elements || (w->depth > 1 && w->inl[w->depth - 1]);
}

static void jw_close(jw *w, char c)
{
	int had = w->count[w->depth] > 0, inl = w->inl[w->depth];
	if (w->depth > 0) {
		w->depth--;
	}
	if (had && !inl) {
		jw_indent(w);
	}
	sb_putc(w->b, c);
}

// clang-format off
void jw_object(jw *w, const char *key) { jw_open(w, key, '{', 0); }
void jw_object_end(jw *w) { jw_close(w, '}'); }
void jw_array(jw *w, const char *key, int inline_elements) { jw_open(w, key, '[', inline_elements); }
void jw_array_end(jw *w) { jw_close(w, ']'); }
// clang-format on

// The digits JSON gets for `v`: a value that is a float (every value the library computes) as
// the shortest decimal that reads back to the same float (0.3, not 0.300000012); anything else
// with 9 significant digits.
static int json_digits(double v)
{
	const float f = (float)v;
	if (!isfinite(f) || (double)f != v) {
		return 9;
	}
	char buf[40];
	const int exponent = strchr(fmt_num(buf, v, 9), 'e') != NULL; // 60, not 6e+01
	for (int digits = 1; digits < 9; digits++) {
		if ((float)strtod(fmt_num(buf, v, digits), NULL) == f && (exponent || !strchr(buf, 'e'))) {
			return digits;
		}
	}
	return 9;
}

void jw_num(jw *w, const char *key, double v)
{
	jw_pre(w, key);
	if (!isfinite(v)) {
		sb_puts(w->b, "null");
	} else {
		sb_num(w->b, v, json_digits(v));
	}
}

void jw_num_or_null(jw *w, const char *key, double v, const char *reason)
{
	jw_num(w, key, v);
	if (!isfinite(v) && reason && key) {
		char k[96];
		snprintf(k, sizeof k, "%s_reason", key);
		jw_str(w, k, reason);
	}
}

void jw_int(jw *w, const char *key, long v)
{
	jw_pre(w, key);
	sb_printf(w->b, "%ld", v);
}

void jw_str(jw *w, const char *key, const char *s)
{
	jw_pre(w, key);
	if (s) {
		jw_json_string(w->b, s);
	} else {
		sb_puts(w->b, "null");
	}
}

void jw_bool(jw *w, const char *key, int v)
{
	jw_pre(w, key);
	sb_puts(w->b, v ? "true" : "false");
}

void jw_null(jw *w, const char *key)
{
	jw_pre(w, key);
	sb_puts(w->b, "null");
}

void jw_end(jw *w)
{
	sb_putc(w->b, '\n');
}

void jw_num_array(jw *w, const char *key, const double *v, int n)
{
	jw_array(w, key, 1);
	for (int i = 0; i < n; i++) {
		jw_num(w, NULL, v[i]);
	}
	jw_array_end(w);
}

void cli_json_begin(jw *w, sbuf *b, const char *command)
{
	jw_init(w, b);
	jw_object(w, NULL);
	jw_str(w, "command", command);
}

void cli_json_end(jw *w)
{
	jw_object_end(w);
	jw_end(w);
}

// ---------------------------------------------------------------------------------------------
// Errors

int cli_lookup_name(const char *given, const char *const *names, int count, char *hint, size_t hint_size)
{
	char lower[64];
	size_t n = 0;
	for (; given[n] && n + 1 < sizeof lower; n++) {
		lower[n] = (char)tolower((unsigned char)given[n]);
	}
	lower[n] = '\0';
	hint[0] = '\0';
	for (int i = 0; count < 0 ? names[i] != NULL : i < count; i++) {
		if (given[n] == '\0' && strcmp(lower, names[i]) == 0) {
			return i;
		}
	}
	const int closest = given[n] == '\0' ? spring_closest_name(lower, names, count) : -1;
	if (closest >= 0) {
		snprintf(hint, hint_size, ": did you mean '%s'?", names[closest]);
	}
	return -1;
}

const char *cli_clean(char *buf, size_t size, const char *s)
{
	size_t n = 0, limit = size - 1;
	const size_t cap = 120; // keep messages on one readable line
	if (limit > cap) {
		limit = cap;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p && n < limit; p++) {
		buf[n++] = (*p < 0x20 || *p == 0x7f) ? '?' : (char)*p;
	}
	if (s[n] != '\0' && n == limit && limit > 3) {
		memcpy(buf + limit - 3, "...", 3);
	}
	buf[n] = '\0';
	return buf;
}

int cli_error(const char *command, const char *fmt, ...)
{
	char msg[1024], clean[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	// One line: a newline or other control character inside a name never splits the message.
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)msg; *p && n + 1 < sizeof clean; p++) {
		clean[n++] = (*p < 0x20 || *p == 0x7f) ? '?' : (char)*p;
	}
	clean[n] = '\0';
	fflush(stdout);
	if (command) {
		fprintf(stderr, "spring: %s: %s\n", command, clean);
	} else {
		fprintf(stderr, "spring: %s\n", clean);
	}
	return CLI_USAGE;
}

// ---------------------------------------------------------------------------------------------
// Files

int cli_write_stdout(const char *command, const sbuf *content)
{
	if (content->failed) {
		return cli_error(command, "out of memory");
	}
	if (content->len && fwrite(content->data, 1, content->len, stdout) != content->len) {
		return cli_error(command, "cannot write to standard output");
	}
	if (fflush(stdout) != 0) {
		return cli_error(command, "cannot write to standard output");
	}
	return CLI_OK;
}

int cli_output(const char *command, sbuf *content)
{
	int rc = cli_write_stdout(command, content);
	sb_free(content);
	return rc;
}

int cli_write_plot(const char *command, const char *path, sbuf *svg, int *status)
{
	*status = cli_write_file(command, path, svg);
	sb_free(svg);
	return *status != CLI_OK || strcmp(path, "-") == 0;
}

// Writes all of data to fd (retrying short writes and interruptions); 0, or -1 with errno set.
static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

// The temporary file being written, removed by the signal handler when the command is stopped
// (SIGINT, SIGTERM, SIGHUP; SIGXFSZ when a file size limit cuts the write short).
static const int temp_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
#define TEMP_SIGNALS ((int)(sizeof temp_signals / sizeof temp_signals[0]))
static const char *volatile temp_path;
static struct sigaction temp_saved[TEMP_SIGNALS];

static void temp_on_signal(int sig)
{
	const char *t = temp_path;
	if (t) {
		unlink(t);
	}
	// Die of the signal as if it had not been caught (it is delivered again on return).
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

static void block_temp_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (int i = 0; i < TEMP_SIGNALS; i++) {
		sigaddset(&set, temp_signals[i]);
	}
	sigprocmask(SIG_BLOCK, &set, old);
}

// Names the temporary (NULL: none) for the handler, which is installed while there is one.
static void set_temp(const char *path)
{
	sigset_t old;
	block_temp_signals(&old);
	if (path && !temp_path) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = temp_on_signal;
		sigemptyset(&sa.sa_mask);
		for (int i = 0; i < TEMP_SIGNALS; i++) {
			sigaction(temp_signals[i], NULL, &temp_saved[i]);
			if (temp_saved[i].sa_handler != SIG_IGN) { // an ignored signal stays ignored
				sigaction(temp_signals[i], &sa, NULL);
			}
		}
	} else if (!path && temp_path) {
		for (int i = 0; i < TEMP_SIGNALS; i++) {
			sigaction(temp_signals[i], &temp_saved[i], NULL);
		}
	}
	temp_path = path;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

// Creates a new file "<dir>/.spring-XXXXXX.tmp" (dir is path's directory): never an existing
// name, never through a symbolic link. Returns the descriptor and the name in *tmp (malloc'd),
// or -1 with errno set.
static int create_temp(const char *path, mode_t mode, char **tmp)
{
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
	static const char suffix[] = ".spring-XXXXXX.tmp";
	char *name = malloc(dir_len + sizeof suffix);
	if (!name) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(name, path, dir_len);
	memcpy(name + dir_len, suffix, sizeof suffix);
	char *x = name + dir_len + strlen(".spring-");
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	uint64_t state = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^
	                 (uint64_t)(uintptr_t)name;
	static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	for (int attempt = 0; attempt < 1000; attempt++) {
		// splitmix64: a fresh candidate each attempt; O_EXCL makes any clash harmless.
		state += 0x9e3779b97f4a7c15u;
		uint64_t z = state;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
		z ^= z >> 31;
		for (int i = 0; i < 6; i++, z /= 62) {
			x[i] = digits[z % 62];
		}
		sigset_t old;
		block_temp_signals(&old); // a signal right after the open still finds the name
		int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, mode);
		if (fd >= 0) {
			set_temp(name);
		}
		int e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (fd >= 0) {
			*tmp = name;
			return fd;
		}
		if (e != EEXIST) {
			free(name);
			errno = e;
			return -1;
		}
	}
	free(name);
	errno = EEXIST;
	return -1;
}

// A regular file (new or existing): a new temporary in its directory, written, synced, then
// renamed over it, so readers see the old file or the new one, never a part.
static int write_replacing(const char *path, const struct stat *old, const sbuf *content)
{
	char *tmp = NULL;
	// The permissions of the file replaced, or those a new file gets (0666 less the umask).
	int fd = create_temp(path, old ? (old->st_mode & 0777) : 0666, &tmp);
	if (fd < 0) {
		return -1;
	}
	int ok = (!old || fchmod(fd, old->st_mode & 0777) == 0) && write_all(fd, content->data, content->len) == 0 && fsync(fd) == 0;
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = 0;
		e = errno;
	}
	if (ok && rename(tmp, path) != 0) {
		ok = 0;
		e = errno;
	}
	if (!ok) {
		unlink(tmp);
	}
	set_temp(NULL);
	free(tmp);
	errno = e;
	return ok ? 0 : -1;
}

// Anything else the name leads to (a device, a FIFO, a terminal, or a symbolic link, followed as
// the shell's `>` follows it): written in place; nothing is created.
static int write_in_place(const char *path, const struct stat *st, const sbuf *content)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (S_ISREG(st->st_mode) ? O_TRUNC : 0));
	if (fd < 0) {
		return -1;
	}
	int ok = write_all(fd, content->data, content->len) == 0;
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = 0;
		e = errno;
	}
	errno = e;
	return ok ? 0 : -1;
}

// The files the command reads (cli_note_input): never written over.
enum { MAX_INPUTS = 8 };
static struct {
	dev_t dev;
	ino_t ino;
	char path[160];
} g_inputs[MAX_INPUTS];
static int g_input_count;

void cli_note_input(const char *path)
{
	struct stat st;
	if (g_input_count < MAX_INPUTS && stat(path, &st) == 0) {
		g_inputs[g_input_count].dev = st.st_dev;
		g_inputs[g_input_count].ino = st.st_ino;
		cli_clean(g_inputs[g_input_count].path, sizeof g_inputs[g_input_count].path, path);
		g_input_count++;
	}
}

// What is wrong with writing to `path` before anything is written: it is an input (through a
// link or another name), or a dangling link. CLI_OK when neither.
static int check_target(const char *command, const char *path)
{
	char name[160], target[160];
	struct stat link, st;
	if (lstat(path, &link) != 0) {
		return CLI_OK; // a new file (or an error the write reports)
	}
	int is_link = S_ISLNK(link.st_mode);
	if (stat(path, &st) != 0) {
		if (is_link && errno == ENOENT) {
			char to[4096];
			ssize_t n = readlink(path, to, sizeof to - 1);
			to[n > 0 ? n : 0] = '\0';
			return cli_error(command,
			                 "cannot write '%s': it is a symbolic link to '%s', which does not exist (a link is not "
			                 "followed to create a file: remove the link or name another output)",
			                 cli_clean(name, sizeof name, path), cli_clean(target, sizeof target, to));
		}
		return CLI_OK;
	}
	for (int i = 0; i < g_input_count; i++) {
		if (g_inputs[i].dev == st.st_dev && g_inputs[i].ino == st.st_ino) {
			return cli_error(command, "refusing to write '%s': it is the input file '%s'%s; name another output",
			                 cli_clean(name, sizeof name, path), g_inputs[i].path, is_link ? " (through a symbolic link)" : "");
		}
	}
	return CLI_OK;
}

int cli_write_file(const char *command, const char *path, const sbuf *content)
{
	char name[160];
	if (strcmp(path, "-") == 0) {
		return cli_write_stdout(command, content);
	}
	if (content->failed) {
		return cli_error(command, "out of memory while building '%s'", cli_clean(name, sizeof name, path));
	}
	if (path[0] == '\0') {
		return cli_error(command, "empty output file name");
	}
	if (check_target(command, path) != CLI_OK) {
		return CLI_USAGE;
	}
	struct stat link, st;
	int r;
	if (path[strlen(path) - 1] == '/') {
		errno = EISDIR;
		r = -1;
	} else if (lstat(path, &link) != 0) {
		r = errno == ENOENT ? write_replacing(path, NULL, content) : -1;
	} else if (S_ISREG(link.st_mode)) {
		r = write_replacing(path, &link, content);
	} else if (S_ISDIR(link.st_mode)) {
		errno = EISDIR;
		r = -1;
	} else if (stat(path, &st) != 0) {
		r = -1; // a dangling link: not followed to create a file elsewhere
	} else if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		r = -1;
	} else {
		r = write_in_place(path, &st, content);
	}
	if (r != 0) {
		return cli_error(command, "cannot write '%s': %s", cli_clean(name, sizeof name, path), strerror(errno));
	}
	return CLI_OK;
}

int cli_mkdirs(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof buf) {
		return -1;
	}
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] == '/' || buf[i] == '\0') {
			char c = buf[i];
			buf[i] = '\0';
			if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
				return -1;
			}
			struct stat st;
			if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
				return -1;
			}
			buf[i] = c;
		}
	}
	return 0;
}
