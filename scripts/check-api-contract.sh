#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the public API against its contract, docs/api-contract.md (ctest api_contract): the
# headers (include/spring/*.h, spring.hpp), the npm declarations (js/index.d.ts, js/rig.d.ts,
# js/vrm.d.ts, js/three-vrm.d.ts), the rig format (docs/rig-format.md) and its reader (tools/io/*.c). The contract's three tables are
# read from the page itself (the layers and their prefixes, what each object has, the concept
# table), so the page and the check cannot disagree. Prints one line per violation, naming the
# file, the name and the rule, and exits 1; prints a summary and exits 0 when there is none.
# Usage: scripts/check-api-contract.sh [ROOT]   (ROOT: a tree laid out as the repository's; default
# the repository; scripts/test-api-contract.sh runs it on trees with planted faults)
set -euo pipefail
if [ $# -gt 0 ]; then cd "$1"; else cd "$(dirname "$0")/.."; fi
contract=docs/api-contract.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/violations"
fail() { echo "check-api-contract: $*" >>"$tmp/violations"; }

shopt -s nullglob
headers=(include/spring/*.h)
public=(include/spring/*.h include/spring/*.hpp)
npm=(js/index.d.ts js/rig.d.ts js/vrm.d.ts js/three-vrm.d.ts)
# (the bracket makes rig.h a pattern, so that nullglob drops it where it is missing)
readers=(tools/io/*.c include/spring/rig.[h] /dev/null)
for f in "$contract" docs/rig-format.md "${npm[@]}"; do
	[ -f "$f" ] || { echo "check-api-contract: $f not found (in $(pwd))" >&2; exit 1; }
done
[ ${#headers[@]} -gt 0 ] || { echo "check-api-contract: no include/spring/*.h in $(pwd)" >&2; exit 1; }

# ---- What the headers declare (comments dropped) ----
# functions: file, line, name, parameters (one line each, joined across lines)
awk '
	FNR == 1 { in_decl = 0 }
	{ code = $0; sub(/\/\/.*/, "", code) }
	in_decl { decl = decl " " code; if (code ~ /;/) emit(); next }
	/^[ \t]*SPRING_API[ \t]/ { decl = code; start = FNR; if (code ~ /;/) emit(); else in_decl = 1 }
	function emit(  name, params) {
		in_decl = 0
		name = decl; sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name)
		params = decl; sub(/^[^(]*\(/, "", params); sub(/\)[^)]*$/, "", params); gsub(/[ \t]+/, " ", params)
		print FILENAME "\t" start "\t" name "\t" params
	}
' "${headers[@]}" >"$tmp/functions"
cut -f3 "$tmp/functions" | sort -u >"$tmp/function_names"
# types: typedef names; fields: struct.field; constants: enum members and macros
sed 's://.*::' "${headers[@]}" | { grep -oE 'typedef (struct|enum) [a-z0-9_]+|\} *[a-z0-9_]+;|typedef [^(]* \**[a-z0-9_]+\(' || true; } |
	{ grep -oE '[a-z0-9_]+[;(]?$' || true; } | tr -d ';(' | sort -u >"$tmp/types"
awk '
	{ code = $0; sub(/\/\/.*/, "", code) }
	!in_s && code ~ /typedef struct [a-z0-9_]+ *\{/ {
		name = code; sub(/.*typedef struct /, "", name); sub(/[ {].*/, "", name)
		body = code; sub(/^[^{]*\{/, "", body); in_s = 1
	}
	in_s && code !~ /typedef struct/ { body = body " " code }
	in_s && body ~ /\}/ { sub(/\}.*/, "", body); fields(); in_s = 0 }
	function fields(  decls, n, i, parts, m, k, id) {
		gsub(/\[[^]]*\]/, "", body)
		n = split(body, decls, ";")
		for (i = 1; i <= n; i++) {
			m = split(decls[i], parts, ",")
			for (k = 1; k <= m; k++) {
				id = parts[k]; sub(/[ \t]+$/, "", id); sub(/.*[^a-z0-9_]/, "", id)
				if (id != "") print name "." id
			}
		}
	}
' "${headers[@]}" | sort -u >"$tmp/fields"
awk -v enums="$tmp/enums" '
	{ code = $0; sub(/\/\/.*/, "", code) }
	code ~ /typedef enum [a-z0-9_]+ *\{/ { name = code; sub(/.*typedef enum /, "", name); sub(/[ {].*/, "", name); in_e = 1; last = ""; start = FNR; next }
	in_e && code ~ /^[ \t]*[A-Z][A-Z0-9_]*/ { m = code; sub(/^[ \t]*/, "", m); sub(/[^A-Z0-9_].*/, "", m); last = m; print m }
	in_e && code ~ /\}/ { in_e = 0; print FILENAME "\t" start "\t" name "\t" last >enums }
	code ~ /^#define [A-Z]/ { m = code; sub(/^#define /, "", m); sub(/[^A-Z0-9_].*/, "", m); print m }
' "${headers[@]}" | sort -u >"$tmp/constants"
touch "$tmp/enums"
has_function() { grep -qxF "$1" "$tmp/function_names"; }

# ---- What the npm declarations declare (comments dropped) ----
# "type T FILE:LINE" for each interface and class, "member T.m" for their members, "name N" for
# every declared type, class, function and constant, "string 'x'" for the string literals
awk '
	{ code = $0; sub(/\/\/.*/, "", code); gsub(/\/\*.*\*\//, "", code) }
	code ~ /^[ \t]*(\*|\/\*)/ { next }
	match(code, /^(export )?(declare )?(interface|class|type|function|const) [A-Za-z0-9_]+/) {
		n = substr(code, RSTART, RLENGTH); sub(/.* /, "", n); print "name " n
		if (depth == 0 && code ~ /(interface|class) / && code ~ /\{/) { type = n; print "type " n " " FILENAME ":" FNR }
	}
	depth == 1 && type != "" && match(code, /^[ \t]*((readonly|static)[ \t]+)*[A-Za-z_$][A-Za-z0-9_$]*\??[ \t]*[:(<]/) {
		m = substr(code, RSTART, RLENGTH); sub(/^[ \t]*((readonly|static)[ \t]+)*/, "", m); sub(/[?:(< \t].*/, "", m)
		print "member " type "." m
	}
	{
		rest = code
		while (match(rest, /\047[^\047]*\047/)) { print "string " substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH) }
		depth += gsub(/\{/, "{", code) - gsub(/\}/, "}", code)
		if (depth == 0) type = ""
	}
' "${npm[@]}" | sort -u >"$tmp/npm"

# ---- The contract's tables ----
# table FIRST_HEADER_CELL: the header row and the rows of the table whose header starts with that
# cell (the separator row dropped), cells separated by $sep (not white space: empty cells count)
sep=$'\x1f'
table() {
	awk -v first="$1" -v sep="$sep" '
		/^\|/ {
			line = $0; sub(/^\|[ \t]*/, "", line); sub(/[ \t]*\|[ \t]*$/, "", line); gsub(/[ \t]*\|[ \t]*/, sep, line)
			if (!in_t) { split(line, c, sep); if (c[1] == first) { in_t = 1; print line }; next }
			if (line !~ /^[- \t\037]*$/) print line
			next
		}
		{ in_t = 0 }
	' "$contract"
}
# ticks CELL: the `quoted` names of a cell, one a line
ticks() { printf '%s\n' "$1" | grep -oE "\`[^\`]+\`" | tr -d '`' || true; }

# 1. Every SPRING_API function carries the prefix of a layer of its header.
table Layer | sed 1d >"$tmp/layers"
[ -s "$tmp/layers" ] || fail "$contract: no layer table (a table whose header starts | Layer |)"
while IFS=$sep read -r _ prefix_cell headers_cell _; do
	mapfile -t prefixes < <(ticks "$prefix_cell")
	mapfile -t in_headers < <(ticks "$headers_cell")
	for p in "${prefixes[@]}"; do
		for h in "${in_headers[@]}"; do printf '%s\t%s\n' "$h" "${p%\*}"; done
	done
done <"$tmp/layers" >"$tmp/prefixes"
awk -F '\t' '
	NR == FNR { allowed[$1] = allowed[$1] " " $2; next }
	{
		h = $1; sub(/.*\//, "", h)
		if (!(h in allowed)) { print $1 ":" $2 ": " $3 ": " h " has no layer in the contract'"'"'s layer table"; next }
		n = split(allowed[h], p, " "); ok = 0; list = ""
		for (i = 1; i <= n; i++) { if (index($3, p[i]) == 1) ok = 1; list = list (i > 1 ? ", " : "") p[i] "*" }
		if (!ok) print $1 ":" $2 ": " $3 ": not prefixed by a layer of " h " (" list ")"
	}
' "$tmp/prefixes" "$tmp/functions" | sed 's/^/check-api-contract: /' >>"$tmp/violations"

# 2. No retired verb, in any public header (comments included: a stale example is a violation).
{ grep -noE '\bspring_[a-z0-9_]+' "${public[@]}" /dev/null || true; } | while IFS=: read -r file line name; do
	case "$name" in
		spring_clock_advance) ;;
		*_advance | *_advance_*) echo "$file:$line: $name: retired verb _advance (spring_clock_advance alone advances; update(dt) for a frame's time, step_n for fixed steps)" ;;
		*_at_rest | *_at_rest_*) echo "$file:$line: $name: retired verb _at_rest (is_resting)" ;;
		spring_motion_get) echo "$file:$line: $name: retired name (spring_motion_get_value)" ;;
	esac
done | sed 's/^/check-api-contract: /' >>"$tmp/violations"

# 3. Every public enum ends with a _COUNT member.
while IFS=$'\t' read -r file line name last; do
	case "$last" in
		*_COUNT) ;;
		*) fail "$file:$line: enum $name: its last member ${last:-(none)} is not a _COUNT" ;;
	esac
done <"$tmp/enums"

# 4. An object with a snapshot has the three calls; 5. an object with update has is_resting,
# update takes a frame time (float dt or frame_dt, last) and step does not.
while IFS=$'\t' read -r file line name params; do
	case "$name" in
		*_snapshot_size) object=${name%_snapshot_size} ;;
		*_snapshot) object=${name%_snapshot} ;;
		*_restore) object=${name%_restore} ;;
		*) object= ;;
	esac
	if [ -n "$object" ]; then
		for f in "${object}_snapshot_size" "${object}_snapshot" "${object}_restore"; do
			has_function "$f" || fail "$file:$line: $name: no $f (an object with a snapshot has _snapshot_size, _snapshot and _restore)"
		done
	fi
	case "$name" in
		*_update) has_function "${name%_update}_is_resting" ||
			fail "$file:$line: $name: no ${name%_update}_is_resting (an object with _update has _is_resting)" ;;
	esac
	case "$name" in
		*_update | *_update_many)
			[[ "$params" =~ (^|,)\ ?float\ (dt|frame_dt)\ ?$ ]] ||
				fail "$file:$line: $name($params): update takes a frame time, its last parameter float dt or frame_dt (seconds)" ;;
		*_step | *_step_many | *_step_n)
			if [[ "$params" =~ (^|[^a-z_])(dt|frame_dt)([^a-z_]|$) ]]; then
				fail "$file:$line: $name($params): step, step_many and step_n take fixed steps, no time"
			fi ;;
	esac
done <"$tmp/functions"

# 6. Each object has exactly the verbs of the contract's table.
table Object >"$tmp/objects"
IFS=$sep read -r -a columns <"$tmp/objects" || true
sed -i 1d "$tmp/objects"
[ -s "$tmp/objects" ] || fail "$contract: no table of what each object has (a table whose header starts | Object |)"
while IFS=$sep read -r -a cells; do
	object=$(ticks "${cells[0]}")
	if [ ${#cells[@]} -ne ${#columns[@]} ]; then
		fail "$contract: $object: ${#cells[@]} cells in a table of ${#columns[@]} columns"
		continue
	fi
	for ((i = 1; i < ${#cells[@]}; i++)); do
		verb=$(ticks "${columns[i]}")
		[ -n "$verb" ] || continue
		case "$verb" in
			snapshot) names=("${object}_snapshot_size" "${object}_snapshot" "${object}_restore") ;;
			*) names=("${object}_$verb") ;;
		esac
		for f in "${names[@]}"; do
			case "${cells[i]}" in
				yes) has_function "$f" || fail "$contract: $object has $verb, but no header declares $f" ;;
				no) if has_function "$f"; then fail "$contract: $object has no $verb, but a header declares $f"; fi ;;
				*) fail "$contract: $object, $verb: '${cells[i]}' is neither yes nor no" ;;
			esac
		done
	done
done <"$tmp/objects"

# 7. The npm declarations: update(dt) and isResting, not advance or atRest.
{ grep -nE '\badvance\(' "${npm[@]}" || true; } | cut -d: -f1,2 | while read -r at; do
	echo "check-api-contract: $at: advance(: retired npm verb (update(dt))"
done >>"$tmp/violations"
{ grep -nE '\batRest\b' "${npm[@]}" || true; } | cut -d: -f1,2 | while read -r at; do
	echo "check-api-contract: $at: atRest: retired npm name (isResting)"
done >>"$tmp/violations"
for m in update isResting; do
	grep -qxF "member SpringMotion.$m" "$tmp/npm" || fail "js/index.d.ts: SpringMotion has no $m"
done
awk '$1 == "type" { print $2, $3 }' "$tmp/npm" | while read -r type at; do
	if grep -qxF "member $type.update" "$tmp/npm" && ! grep -qxF "member $type.isResting" "$tmp/npm"; then
		echo "check-api-contract: $at: $type has update but no isResting"
	fi
done >>"$tmp/violations"

# 8. Every name of the concept table exists where its column says.
table Concept | sed 1d >"$tmp/concepts"
[ -s "$tmp/concepts" ] || fail "$contract: no concept table (a table whose header starts | Concept |)"
while IFS=$sep read -r concept c rig js; do
	mapfile -t names < <(ticks "$c")
	for n in "${names[@]}"; do
		case "$n" in
			*.*) grep -qxF "$n" "$tmp/fields" ;;
			spring_*) has_function "$n" || grep -qxF "$n" "$tmp/types" ;;
			*) grep -qxF "$n" "$tmp/constants" ;;
		esac || fail "$contract: $concept: C $n is not in include/spring/*.h"
	done
	mapfile -t names < <(ticks "$rig")
	for n in "${names[@]}"; do
		key=${n#\"}
		key=${key%\"}
		grep -qF -e "\`$key\`" -e "\"$key\"" docs/rig-format.md || fail "$contract: $concept: rig file $n is not in docs/rig-format.md"
		grep -qF "\"$key\"" "${readers[@]}" || fail "$contract: $concept: rig file $n is not read by tools/io/*.c (nor defined in rig.h)"
	done
	mapfile -t names < <(ticks "$js")
	for n in "${names[@]}"; do
		case "$n" in
			\'*) grep -qxF "string $n" "$tmp/npm" ;;
			*.*) grep -qxF "member $n" "$tmp/npm" ;;
			*) grep -qxF "name $n" "$tmp/npm" ;;
		esac || fail "$contract: $concept: npm $n is not in ${npm[*]}"
	done
done <"$tmp/concepts"

if [ -s "$tmp/violations" ]; then
	cat "$tmp/violations" >&2
	echo "check-api-contract: $(wc -l <"$tmp/violations") violation(s) of $contract" >&2
	exit 1
fi
echo "check-api-contract: $(wc -l <"$tmp/functions") functions in ${#headers[@]} headers, $(wc -l <"$tmp/enums") enums," \
	"$(wc -l <"$tmp/objects") objects and $(wc -l <"$tmp/concepts") concepts follow $contract"
