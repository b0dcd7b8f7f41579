#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The test of scripts/check-api-contract.sh (ctest api_contract_check; seconds, no build). A small
# tree laid out as the repository's (a contract page with the three tables, two headers, the npm
# declarations, a rig format and a reader) follows its contract: the check must pass it. Then each
# fault is planted in a fresh copy, and the check must exit 1 and print exactly the lines expected,
# one per violation: a header without a layer, `spring_foo_advance`, an enum without _COUNT, an
# index.d.ts with atRest, a snapshot without restore, an update without dt, and so on.
set -euo pipefail
cd "$(dirname "$0")/.."
check=$(pwd)/scripts/check-api-contract.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "test-api-contract: FAIL: $*" >&2; failures=$((failures + 1)); }

# The clean tree.
clean=$tmp/clean
mkdir -p "$clean/docs" "$clean/include/spring" "$clean/js" "$clean/tools/io"
cat >"$clean/docs/api-contract.md" <<'EOF'
# A contract

| Layer | Prefix | Headers | What it is |
| --- | --- | --- | --- |
| core | `spring_*` | `base.h` | the core |
| thing | `spring_thing_*` | `thing.h` | `spring_thing` |

| Object | `init` | `update` | `is_resting` | `reset` | `snapshot` | Why not |
| --- | --- | --- | --- | --- | --- | --- |
| `spring_thing` | yes | yes | yes | no | yes | nothing to reset |

| Concept | C | Rig file | npm |
| --- | --- | --- | --- |
| rest threshold | `spring_thing_desc.rest_delta`, `spring_thing_update` | `rest_delta` | `SpringMotion.update` |
| collider types | `SPRING_THING_SPHERE`, `spring_thing_kind` | `"sphere"` | `'sphere'`, `Collider` |
EOF
cat >"$clean/include/spring/base.h" <<'EOF'
typedef enum spring_result {
	SPRING_OK = 0,
	SPRING_RESULT_COUNT ///< how many
} spring_result;
/// The clock alone advances.
SPRING_API int spring_clock_advance(spring_clock *c, float frame_dt);
EOF
cat >"$clean/include/spring/thing.h" <<'EOF'
typedef enum spring_thing_kind {
	SPRING_THING_SPHERE = 0, ///< a sphere
	SPRING_THING_KIND_COUNT
} spring_thing_kind;
typedef struct spring_thing_desc {
	float rest_delta; ///< units; 0 -> derived
} spring_thing_desc;
SPRING_API spring_result spring_thing_init(spring_thing *t, const spring_thing_desc *desc);
SPRING_API spring_result spring_thing_update(spring_thing *t,
                                             float dt); ///< any dt
SPRING_API bool spring_thing_is_resting(const spring_thing *t);
SPRING_API size_t spring_thing_snapshot_size(const spring_thing *t);
SPRING_API spring_result spring_thing_snapshot(const spring_thing *t, void *blob, size_t size);
SPRING_API spring_result spring_thing_restore(spring_thing *t, const void *blob, size_t size, spring_error *error);
EOF
cat >"$clean/js/index.d.ts" <<'EOF'
export interface Collider {
	type?: 'sphere' | 'plane';
}
export interface SpringMotion {
	/** Advances by dt seconds. */
	update(dt: number): this;
	readonly isResting: boolean;
}
EOF
cat >"$clean/js/rig.d.ts" <<'EOF'
export declare class Rig {
	update(frameDt: number): this;
	readonly isResting: boolean;
}
EOF
cat >"$clean/js/vrm.d.ts" <<'EOF'
export interface Vrm {
	update(transforms: Float32Array, frameDt: number): this;
	readonly isResting: boolean;
}
EOF
cat >"$clean/js/three-vrm.d.ts" <<'EOF'
export interface LibspringSpringBones {
	update(frameDt: number): void;
	readonly isResting: boolean;
}
EOF
cat >"$clean/docs/rig-format.md" <<'EOF'
| `rest_delta` | number | 0 | the rest threshold |
| `"sphere"` | `x`, `y`, `radius` | a collider |
EOF
cat >"$clean/tools/io/reader.c" <<'EOF'
static const char *keys[] = {"rest_delta", "type", NULL};
static const char *types[] = {"sphere", NULL};
EOF

if out=$("$check" "$clean" 2>&1); then
	echo "test-api-contract: the clean tree passes: $out"
else
	fail "the check refused the clean tree:"
	printf '%s\n' "$out" | sed 's/^/    /' >&2
fi

# planted NAME EDIT EXPECTED...: EDIT (a command run in a fresh copy of the clean tree) plants a
# fault; the check must exit 1 and print exactly one line containing each EXPECTED (and its
# summary line).
planted() {
	local name=$1 edit=$2 dir=$tmp/$1 out e
	shift 2
	cp -r "$clean" "$dir"
	(cd "$dir" && eval "$edit")
	if out=$("$check" "$dir" 2>&1); then
		fail "$name: the check passed"
		return
	fi
	out=$(printf '%s\n' "$out" | grep -v 'violation(s) of' || true)
	for e in "$@"; do
		[ "$(printf '%s\n' "$out" | grep -cF -- "$e")" -eq 1 ] || fail "$name: not one line with: $e"
	done
	if [ "$(printf '%s\n' "$out" | grep -c .)" -ne $# ]; then
		fail "$name: $# violation(s) expected, the check printed:"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		return
	fi
	echo "test-api-contract: $name: reported ($# line(s))"
}

planted fake-header "printf 'SPRING_API spring_result spring_foo_advance(spring_foo *f, float dt);\n' >include/spring/foo.h" \
	"include/spring/foo.h:1: spring_foo_advance: foo.h has no layer in the contract's layer table" \
	"include/spring/foo.h:1: spring_foo_advance: retired verb _advance"
planted no-prefix "printf 'SPRING_API float spring_cubic_bezier(float x);\n' >>include/spring/thing.h" \
	"include/spring/thing.h:15: spring_cubic_bezier: not prefixed by a layer of thing.h (spring_thing_*)"
planted retired-in-comment "printf '/// Each frame: spring_thing_at_rest(t), then spring_motion_get(m, v, NULL, 1).\n' >>include/spring/base.h" \
	"include/spring/base.h:7: spring_thing_at_rest: retired verb _at_rest (is_resting)" \
	"include/spring/base.h:7: spring_motion_get: retired name (spring_motion_get_value)"
planted enum-without-count "printf 'typedef enum spring_thing_mode {\n\tSPRING_THING_MODE_A = 0,\n\tSPRING_THING_MODE_B\n} spring_thing_mode;\n' >>include/spring/thing.h" \
	"include/spring/thing.h:15: enum spring_thing_mode: its last member SPRING_THING_MODE_B is not a _COUNT"
planted snapshot-without-restore "sed -i '/spring_thing_restore/d' include/spring/thing.h" \
	"spring_thing_snapshot_size: no spring_thing_restore (an object with a snapshot has" \
	"spring_thing_snapshot: no spring_thing_restore (an object with a snapshot has" \
	"spring_thing has snapshot, but no header declares spring_thing_restore"
planted update-without-is-resting "sed -i '/spring_thing_is_resting/d' include/spring/thing.h" \
	"include/spring/thing.h:9: spring_thing_update: no spring_thing_is_resting (an object with _update has _is_resting)" \
	"spring_thing has is_resting, but no header declares spring_thing_is_resting"
planted update-without-dt "sed -i 's/float dt); /int steps); /' include/spring/thing.h" \
	"include/spring/thing.h:9: spring_thing_update(spring_thing *t, int steps): update takes a frame time"
planted step-with-dt "printf 'SPRING_API spring_result spring_thing_step(spring_thing *t, float dt);\n' >>include/spring/thing.h" \
	"include/spring/thing.h:15: spring_thing_step(spring_thing *t, float dt): step, step_many and step_n take fixed steps, no time"
planted verb-the-table-denies "printf 'SPRING_API spring_result spring_thing_reset(spring_thing *t);\n' >>include/spring/thing.h" \
	"docs/api-contract.md: spring_thing has no reset, but a header declares spring_thing_reset"
planted npm-at-rest "sed -i 's/isResting/atRest/' js/index.d.ts" \
	"js/index.d.ts:7: atRest: retired npm name (isResting)" \
	"js/index.d.ts: SpringMotion has no isResting" \
	"js/index.d.ts:4: SpringMotion has update but no isResting"
planted npm-advance "sed -i 's/update(dt/advance(dt/' js/index.d.ts" \
	"js/index.d.ts:6: advance(: retired npm verb (update(dt))" \
	"js/index.d.ts: SpringMotion has no update" \
	"docs/api-contract.md: rest threshold: npm SpringMotion.update is not in js/index.d.ts js/rig.d.ts js/vrm.d.ts js/three-vrm.d.ts"
planted concept-renamed-in-c "sed -i 's/rest_delta;/rest_angle;/' include/spring/thing.h" \
	"docs/api-contract.md: rest threshold: C spring_thing_desc.rest_delta is not in include/spring/*.h"
planted concept-renamed-in-files "sed -i 's/\"sphere\"/\"circle\"/' docs/rig-format.md tools/io/reader.c" \
	"collider types: rig file \"sphere\" is not in docs/rig-format.md" \
	"collider types: rig file \"sphere\" is not read by tools/io/*.c (nor defined in rig.h)"
planted concept-renamed-in-npm "sed -i \"s/'sphere'/'circle'/\" js/index.d.ts" \
	"docs/api-contract.md: collider types: npm 'sphere' is not in js/index.d.ts js/rig.d.ts js/vrm.d.ts js/three-vrm.d.ts"
planted no-concept-table "sed -i '/^| Concept/,\$d' docs/api-contract.md" \
	"docs/api-contract.md: no concept table"

if [ "$failures" -ne 0 ]; then
	echo "test-api-contract: $failures failure(s)" >&2
	exit 1
fi
echo "test-api-contract: passed"
