// SPDX-License-Identifier: MIT
// Rig-file helpers for the CLI: see rig_util.h.
#define _POSIX_C_SOURCE 200809L // readlink
#include "rig_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#elif defined(__unix__)
#include <unistd.h>
#endif

int rig_file_open(const char *command, const char *path, rig_file *out)
{
	int status = rig_file_load(command, path, out);
	if (status == CLI_OK) {
		char shown[160];
		cli_clean(shown, sizeof shown, path);
		for (int i = 0; i < out->info->warning_count && i < SPRING_RIG_FILE_MAX_WARNINGS; i++) {
			char warning[SPRING_RIG_FILE_WARNING_SIZE];
			fprintf(stderr, "spring: %s: warning: %s: %s\n", command, shown,
			        cli_clean(warning, sizeof warning, out->info->warnings[i]));
		}
	}
	return status;
}

// The file a user named: the path as given when it opens; otherwise the installed sample rig of
// that name (`character.json` or `examples/rigs/character.json`, rig_find_sample), so the
// installed command plays its samples from any directory.
static const char *rig_resolve(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (fp || errno != ENOENT || path[0] == '/') {
		if (fp) {
			fclose(fp);
		}
		return path;
	}
	char relative[512];
	const char *found = NULL;
	if (!strchr(path, '/') && snprintf(relative, sizeof relative, "examples/rigs/%s", path) < (int)sizeof relative) {
		found = rig_find_sample(relative);
	} else if (strchr(path, '/')) {
		found = rig_find_sample(path);
	}
	return found ? found : path;
}

int rig_file_load(const char *command, const char *path, rig_file *out)
{
	path = rig_resolve(path);
	memset(out, 0, sizeof *out);
	out->info = calloc(1, sizeof *out->info);
	spring_file_error *err = calloc(1, sizeof *err);
	if (!out->info || !err) {
		free(out->info);
		free(err);
		out->info = NULL;
		return cli_error(command, "out of memory");
	}
	cli_note_input(path);
	spring_result r = spring_rig_load_file_ex(path, &out->rig, out->info, err);
	if (r != SPRING_OK) {
		char shown[160];
		if (err->message[0]) {
			cli_error(command, "%s", err->message);
		} else {
			cli_error(command, "%s: %s", cli_clean(shown, sizeof shown, path), spring_result_string(r));
		}
		free(err);
		free(out->info);
		memset(out, 0, sizeof *out);
		return CLI_USAGE;
	}
	free(err);
	out->bone_count = spring_rig_bone_count(out->rig);
	return CLI_OK;
}

void rig_file_close(rig_file *f)
{
	if (f->rig) {
		spring_rig_destroy(f->rig);
	}
	free(f->info);
	memset(f, 0, sizeof *f);
}

int rig_file_clip(const char *command, const rig_file *f, const char *name, int *clip)
{
	if (!name) {
		*clip = f->info->clip_count > 0 ? spring_rig_find_clip(f->rig, f->info->clips[0].name) : -1;
		return CLI_OK;
	}
	int c = spring_rig_find_clip(f->rig, name);
	if (c < 0) {
		char shown[160], list[512] = "";
		for (int i = 0; i < f->info->clip_count; i++) {
			if (strlen(list) + strlen(f->info->clips[i].name) + 4 >= sizeof list) {
				break;
			}
			strcat(list, i ? ", " : "");
			strcat(list, f->info->clips[i].name);
		}
		return cli_error(command, "--clip: no clip named '%s' (the rig has: %s)", cli_clean(shown, sizeof shown, name),
		                 list[0] ? list : "no clips");
	}
	*clip = c;
	return CLI_OK;
}

double rig_chain_length(const rig_file *f, int chain)
{
	int bones[SPRING_RIG_MAX_BONES];
	int n = spring_rig_chain_bones(f->rig, chain, bones, SPRING_RIG_MAX_BONES);
	double len = 0.0;
	for (int i = n - 1; i >= 0; i--) {
		len += spring_rig_bone_length(f->rig, bones[i]);
	}
	return len;
}

spring_vec2 rig_bone_tip(const rig_file *f, const spring_xform2 *world, int bone)
{
	return spring_xform2_apply(world[bone], spring_vec2_make(spring_rig_bone_length(f->rig, bone), 0.0f));
}

spring_vec2 rig_chain_tip(const rig_file *f, const spring_xform2 *world, int chain)
{
	return rig_bone_tip(f, world, f->info->chains[chain].last_bone);
}

void rig_bone_chains(const rig_file *f, int *out)
{
	for (int i = 0; i < f->bone_count; i++) {
		out[i] = -1;
	}
	for (int c = 0; c < f->info->chain_count; c++) {
		int bones[SPRING_RIG_MAX_BONES];
		int n = spring_rig_chain_bones(f->rig, c, bones, SPRING_RIG_MAX_BONES);
		for (int i = 0; i < n; i++) {
			out[bones[i]] = c;
		}
	}
}

int rig_file_teleport(rig_file *f, double dx, double dy, spring_error *error)
{
	spring_xform2 root = spring_rig_root(f->rig);
	root.position.x = (float)((double)root.position.x + dx);
	root.position.y = (float)((double)root.position.y + dy);
	if (spring_rig_check_root(f->rig, root, error) != SPRING_OK || spring_rig_teleport(f->rig, root) != SPRING_OK) {
		return -1;
	}
	return 0;
}

int rig_file_update(const char *command, rig_file *f, float dt, double t, rig_teleport_fn teleported, void *context)
{
	spring_result r = spring_rig_update(f->rig, dt);
	if (r != SPRING_OK) {
		return cli_error(command, "the rig update failed at %g s: %s", t, spring_result_string(r));
	}
	spring_error why;
	if (spring_rig_apply_events(f->rig, &why) != SPRING_OK) {
		return cli_error(command, "the clip's events at %g s: %s", t, why.message);
	}
	if (teleported) {
		spring_rig_event ev[SPRING_RIG_MAX_UPDATE_EVENTS];
		int got = spring_rig_get_events(f->rig, ev, SPRING_RIG_MAX_UPDATE_EVENTS, NULL);
		for (int e = 0; e < got; e++) {
			if (strcmp(ev[e].name, SPRING_RIG_EVENT_TELEPORT) == 0) { // what the library applied, reported
				teleported(context, ev[e].value[0], ev[e].value[1]);
			}
		}
	}
	return CLI_OK;
}

// The directory of the running executable (no trailing slash) in `dir`; 0 when unknown.
static int executable_dir(char *dir, size_t size)
{
	if (size < 2) {
		return 0;
	}
#if defined(__APPLE__)
	uint32_t n = (uint32_t)size;
	if (_NSGetExecutablePath(dir, &n) != 0) {
		return 0;
	}
#elif defined(__unix__)
	ssize_t n = readlink("/proc/self/exe", dir, size - 1);
	if (n <= 0) {
		return 0;
	}
	dir[n] = '\0';
#else
	return 0;
#endif
	char *slash = strrchr(dir, '/');
	if (!slash) {
		return 0;
	}
	*slash = '\0';
	return 1;
}

const char *rig_sample_data_dir(void)
{
	static char data[4096];
	char exe[3072];
	if (!executable_dir(exe, sizeof exe)) {
		return NULL;
	}
#ifdef SPRING_DATA_FROM_BIN
	snprintf(data, sizeof data, "%s/%s", exe, SPRING_DATA_FROM_BIN);
#else
	snprintf(data, sizeof data, "%s/../share/spring", exe);
#endif
	return data;
}

const char *rig_find_sample(const char *relative)
{
	static char found[4096];
	FILE *fp = fopen(relative, "rb");
	if (fp) {
		fclose(fp);
		snprintf(found, sizeof found, "%s", relative);
		return found;
	}
	const char *data = rig_sample_data_dir();
	if (data) {
		snprintf(found, sizeof found, "%s/%s", data, relative);
		fp = fopen(found, "rb");
		if (fp) {
			fclose(fp);
			return found;
		}
	}
	return NULL;
}
