// SPDX-License-Identifier: MIT
/// @file io.h
/// Rig files: the JSON format described in docs/rig-format.md, read into a spring_rig.
///
/// The optional component `spring::io` (CMake: `find_package(spring COMPONENTS io)`, target
/// `spring::io`; pkg-config: `spring-io`), a static library built and installed with the tools
/// (SPRING_BUILD_TOOLS). It depends on cJSON; the core library has no dependency beyond libm.
/// It uses only the public API of libspring.
///
/// Every error names the file, the JSON path of the offending element and the reason:
///
///     character.json: $.bones[3].parent: unknown bone "hipz"
///
/// On any error nothing is created, `*out` is left untouched and everything allocated is freed.
/// Temporary memory (the parsed document and the descriptions) goes through cJSON's allocator
/// hooks (cJSON_InitHooks); the rig itself through libspring's (spring_set_allocator).
///
/// Thread-safe: rigs may be loaded on several threads at once (cJSON's parse call, which writes a
/// global, runs under a mutex; other cJSON parses in the same program are not covered by it).
#ifndef SPRING_RIG_JSON_H
#define SPRING_RIG_JSON_H

#include "spring/rig.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPRING_RIG_FILE_MAX_BYTES (16u * 1024u * 1024u) ///< largest rig file accepted (16 MiB)
#define SPRING_RIG_FILE_VERSION 1                       ///< the format version this reader reads
#define SPRING_RIG_FILE_MAX_WARNINGS 8                  ///< warnings kept in spring_rig_file_info
#define SPRING_RIG_FILE_WARNING_SIZE 320                ///< bytes of each, NUL included

/// Why a rig file was rejected. Every string is NUL-terminated (truncated if it had to be).
typedef struct spring_file_error {
	char file[256];    ///< the file name as given, or "<memory>"
	char path[256];    ///< JSON path of the offending element, e.g. "$.bones[3].parent"; "$" for
	                   ///< the whole document; empty for I/O errors and malformed JSON
	char reason[256];  ///< e.g. "unknown bone \"hipz\"", "must be > 0 (got -3)"
	char message[800]; ///< "file: path: reason" (or "file: reason" without a path), ready to print
	int line;          ///< line (1-based) of malformed JSON or of a bad character; 0 otherwise
	int column;        ///< column (1-based, in bytes) with `line`; 0 otherwise
} spring_file_error;

/// A clip as described in the file (the rig knows clips by name: spring_rig_find_clip).
typedef struct spring_rig_file_clip {
	char name[SPRING_RIG_MAX_NAME + 1];
	float duration; ///< seconds
	int loop;
	int track_count;
	int event_count;
} spring_rig_file_clip;

/// An IK constraint as described in the file; its index is the one spring_rig_set_ik_* take.
typedef struct spring_rig_file_ik {
	char name[SPRING_RIG_MAX_NAME + 1];
	spring_rig_ik_type type;
	int first_bone, last_bone;
	int target_bone; ///< -1: set by the program (spring_rig_set_ik_target)
} spring_rig_file_ik;

/// A spring chain as described in the file; its index is the one spring_rig_set_chain_mix takes.
typedef struct spring_rig_file_chain {
	char name[SPRING_RIG_MAX_NAME + 1];
	spring_rig_chain_type type;
	int first_bone, last_bone;
	int bone_count;
	int collider_count;
} spring_rig_file_chain;

/// A chain type as rig files spell it: "angle" or "tip".
const char *spring_rig_file_chain_type_name(spring_rig_chain_type type);

/// What a file declared besides what the rig API answers (about 15 KB: allocate it, or keep it
/// static, rather than putting it on a small stack).
typedef struct spring_rig_file_info {
	int version;
	int bone_count;
	float step;         ///< physics step in seconds (the default filled in)
	int max_steps;      ///< (the default filled in)
	spring_xform2 root; ///< initial root placement, radians
	int clip_count;
	spring_rig_file_clip clips[SPRING_RIG_MAX_CLIPS];
	int ik_count;
	spring_rig_file_ik iks[SPRING_RIG_MAX_IK];
	int chain_count;
	spring_rig_file_chain chains[SPRING_RIG_MAX_CHAINS];
	/// Warnings: what the file may not mean but is allowed to say. Today one kind: a chain `limit`
	/// (degrees) that looks like radians, |limit| < 2 pi with a fractional part (0.5 is most likely
	/// 0.5 radians meant as 28.6 degrees). The rig loads as written.
	int warning_count; ///< warnings raised (at most SPRING_RIG_FILE_MAX_WARNINGS are kept below)
	char warnings[SPRING_RIG_FILE_MAX_WARNINGS][SPRING_RIG_FILE_WARNING_SIZE]; ///< "path: reason", in file order
} spring_rig_file_info;

/// Reads a rig file (at most SPRING_RIG_FILE_MAX_BYTES) and creates the rig with
/// spring_rig_create. `error` is optional. Returns SPRING_OK, or:
/// SPRING_ERROR_INVALID_ARGUMENT (NULL filename or out, unreadable file),
/// SPRING_ERROR_OUT_OF_RANGE (file too big), SPRING_ERROR_OUT_OF_MEMORY,
/// SPRING_ERROR_BAD_DEFINITION (anything wrong in the contents), or the code of a rejection by
/// spring_rig_create (mapped back to a JSON path where possible).
spring_result spring_rig_load_file(const char *filename, spring_rig **out, spring_file_error *error);

/// Same from memory: `text` need not be NUL-terminated (`length` bytes are read).
/// `name_for_errors` (NULL -> "<memory>") is what errors call the document.
spring_result spring_rig_load_json(const char *text, size_t length, const char *name_for_errors, spring_rig **out,
                                   spring_file_error *error);

/// The same, also filling `info` (optional; written only on success) with the file's clips,
/// IK constraints and chains by name.
spring_result spring_rig_load_file_ex(const char *filename, spring_rig **out, spring_rig_file_info *info,
                                      spring_file_error *error);
spring_result spring_rig_load_json_ex(const char *text, size_t length, const char *name_for_errors, spring_rig **out,
                                      spring_rig_file_info *info, spring_file_error *error);

#ifdef __cplusplus
}
#endif
#endif
