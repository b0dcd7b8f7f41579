#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test-deps (part of make test: seconds, no network, no root). The set-up as a new machine
# meets it, without needing one:
#  1. every shell script of the project passes shellcheck;
#  2. scripts/ensure-deps.sh runs against a simulated bare Debian, for each of its targets: a
#     PATH with only the base system's tools (coreutils and bash), a file-system root where no
#     header or CMake package is found, no optional variable set (env -i, under the script's own
#     set -u), and apt-get, sudo and npm replaced by recorders. It must exit 0 and ask for exactly
#     the packages listed below, every one of them a name `ensure-deps.sh packages` prints (the
#     list make test-fresh checks against the Debian archive);
#  3. every npm package pinned by a lock file that make test installs accepts Debian 12's Node.js
#     (18.19, the oldest Node the README's commands meet).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

echo "== test-deps: shellcheck"
mapfile -t scripts < <(git ls-files -- '*.sh' .ci/run ':!third_party')
shellcheck "${scripts[@]}"
echo "test-deps: ${#scripts[@]} scripts pass shellcheck"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "test-deps: FAIL: $*" >&2; failures=$((failures + 1)); }

# A bare system: bash and coreutils only (what mmdebstrap --variant=apt leaves that the script
# uses), a root with no headers, and recorders for the commands that would change the machine.
make_system() { # make_system DIR UID
	local dir=$1 c
	mkdir -p "$dir/bin" "$dir/late" "$dir/sysroot/usr/include" "$dir/repo/scripts" "$dir/repo/web/test"
	cp scripts/ensure-deps.sh "$dir/repo/scripts/"
	for c in bash env cat cut dirname head mktemp rm sort tr; do
		ln -s "$(command -v "$c")" "$dir/bin/$c"
	done
	# shellcheck disable=SC2016 # (scripts written out: their $ expand when they run)
	printf '#!/bin/bash\n[ "${1:-}" = -u ] && { echo %s; exit 0; }\nexec %s "$@"\n' "$2" "$(command -v id)" >"$dir/bin/id"
	# apt-get: `update` does nothing, `install` records the package names (options dropped).
	cat >"$dir/bin/apt-get" <<EOF
#!/bin/bash
[ "\$1" = install ] || exit 0
shift
for a in "\$@"; do case "\$a" in -*) ;; *) echo "\$a" >>"$dir/apt.log" ;; esac; done
# npm, once installed, is the recorder below
"$(command -v grep)" -qx npm "$dir/apt.log" && "$(command -v ln)" -sf "$dir/late/npm" "$dir/bin/npm"
exit 0
EOF
	# shellcheck disable=SC2016
	printf '#!/bin/bash\necho "sudo $*" >>"%s/sudo.log"\nexec "$@"\n' "$dir" >"$dir/bin/sudo"
	# shellcheck disable=SC2016
	printf '#!/bin/bash\necho "npm $* (in ${PWD##*/repo/})" >>"%s/npm.log"\n' "$dir" >"$dir/late/npm"
	chmod +x "$dir/bin/"* "$dir/late/npm"
}

# check TARGET UID EXPECTED...: ensure-deps TARGET on a new bare system asks for EXPECTED.
check() {
	local what=$1 uid=$2 dir
	shift 2
	dir=$tmp/$what-$uid
	make_system "$dir" "$uid"
	if ! env -i PATH="$dir/bin" HOME="$dir" SPRING_DEPS_SYSROOT="$dir/sysroot" \
		bash "$dir/repo/scripts/ensure-deps.sh" "$what" >"$dir/out.log" 2>&1; then
		fail "ensure-deps $what on a bare system (uid $uid) exited non-zero:"
		sed 's/^/    /' "$dir/out.log" >&2
		return
	fi
	local asked expected
	asked=$(sort -u "$dir/apt.log" 2>/dev/null | tr '\n' ' ')
	expected=$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')
	if [ "$asked" != "$expected" ]; then
		fail "ensure-deps $what (uid $uid) asked for: ${asked:-nothing}"
		echo "    expected: $expected" >&2
	fi
	if [ "$uid" -ne 0 ] && [ -n "$asked" ] && ! grep -q '^sudo apt-get install' "$dir/sudo.log" 2>/dev/null; then
		fail "ensure-deps $what (uid $uid) did not install through sudo"
	fi
	local p
	for p in $asked; do
		grep -qx "$p" "$tmp/names" || fail "ensure-deps $what asked for $p, which 'ensure-deps.sh packages' does not list"
	done
	echo "test-deps: ensure-deps $what (uid $uid): ${asked:-nothing}"
}

echo "== test-deps: ensure-deps on a simulated bare Debian"
scripts/ensure-deps.sh packages >"$tmp/names"
build=(cmake make gcc libc6-dev libcjson-dev)
wasm=(clang nodejs wasi-libc lld libclang-rt-14-dev-wasm32 llvm-14)
check build 0 "${build[@]}"
check build 1000 "${build[@]}"
aarch64=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
check test 0 "${build[@]}" "${wasm[@]}" "${aarch64[@]}" g++ pkg-config libxml2-utils clang-format-14 shellcheck libclang-rt-dev \
	libsdl2-dev xvfb xauth
check docs 0 doxygen
check web 0 cmake "${wasm[@]}" npm binaryen
check web-page 0 chromium npm
check fresh 0 mmdebstrap
if ! grep -qx 'npm ci --no-audit --no-fund --loglevel=error (in web/test)' "$tmp/web-page-0/npm.log" 2>/dev/null; then
	fail "ensure-deps web-page did not install the browser tests' npm modules (npm ci in web/test)"
fi

# A gcc that compiles but cannot link (Debian's gcc installed without libc6-dev) asks for libc6-dev.
dir=$tmp/nolibc
make_system "$dir" 0
printf '#!/bin/bash\necho "/usr/bin/ld: cannot find Scrt1.o: No such file or directory" >&2\nexit 1\n' >"$dir/bin/gcc"
for c in cmake make; do printf '#!/bin/bash\n' >"$dir/bin/$c"; done
chmod +x "$dir/bin/"*
mkdir -p "$dir/sysroot/usr/include/cjson" && : >"$dir/sysroot/usr/include/cjson/cJSON.h"
env -i PATH="$dir/bin" HOME="$dir" SPRING_DEPS_SYSROOT="$dir/sysroot" bash "$dir/repo/scripts/ensure-deps.sh" build >/dev/null 2>&1 ||
	fail "ensure-deps build with a gcc that cannot link exited non-zero"
[ "$(cat "$dir/apt.log" 2>/dev/null)" = libc6-dev ] ||
	fail "ensure-deps build with a gcc that cannot link asked for '$(tr '\n' ' ' <"$dir/apt.log" 2>/dev/null)', not libc6-dev"
echo "test-deps: a gcc that cannot link: $(tr '\n' ' ' <"$dir/apt.log" 2>/dev/null)"

# The aarch64 cross gcc installed without its C library (no recommends) asks for
# libc6-dev-arm64-cross alone; with everything else of the test target in place.
dir=$tmp/noarmlibc
make_system "$dir" 0
printf '#!/bin/bash\necho "ld: cannot find crt1.o: No such file or directory" >&2\nexit 1\n' >"$dir/bin/aarch64-linux-gnu-gcc"
# (the compilers read the program piped to them, "-": the writer must not meet a closed pipe)
for c in cmake make gcc g++ pkg-config clang clang++ xmllint clang-format-14 shellcheck qemu-aarch64 aarch64-linux-gnu-g++ node \
	llvm-ar-14 llvm-ranlib-14 xvfb-run xauth; do
	# shellcheck disable=SC2016 # ($a expands when the stub runs)
	printf '#!/bin/bash\nfor a; do [ "$a" = - ] && exec %s >/dev/null; done\nexit 0\n' "$(command -v cat)" >"$dir/bin/$c"
done
chmod +x "$dir/bin/"*
mkdir -p "$dir/sysroot/usr/include/cjson" "$dir/sysroot/usr/include/SDL2" && : >"$dir/sysroot/usr/include/cjson/cJSON.h" &&
	: >"$dir/sysroot/usr/include/SDL2/SDL.h"
env -i PATH="$dir/bin" HOME="$dir" SPRING_DEPS_SYSROOT="$dir/sysroot" bash "$dir/repo/scripts/ensure-deps.sh" test >/dev/null 2>&1 ||
	fail "ensure-deps test with an aarch64 gcc that cannot link exited non-zero"
[ "$(cat "$dir/apt.log" 2>/dev/null)" = libc6-dev-arm64-cross ] ||
	fail "ensure-deps test with an aarch64 gcc that cannot link asked for '$(tr '\n' ' ' <"$dir/apt.log" 2>/dev/null)', not libc6-dev-arm64-cross"
echo "test-deps: an aarch64 gcc that cannot link: $(tr '\n' ' ' <"$dir/apt.log" 2>/dev/null)"

echo "== test-deps: the pinned npm packages run on Debian 12's Node.js"
node - "$repo" <<'EOF' || failures=$((failures + 1))
// The oldest Node.js the README's commands meet: Debian 12's nodejs (18.19 and later).
const oldest = [18, 19, 0];
const fs = require('fs');
const path = require('path');
const cmp = (a, b) => { for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i]; return 0; };
const parse = (v) => v.replace(/^v/, '').split('.').map((x) => (x === 'x' || x === '*' || x === undefined ? 0 : Number(x)));
// A range of the engines field (">=18", "^18.17.0 || >=20", "18 - 22", ...) against one version.
function satisfies(v, range) {
  return range.split('||').some((alt) => {
    alt = alt.trim().replace(/\s+-\s+/, ' - ');
    if (alt === '' || alt === '*') return true;
    const hy = alt.match(/^(\S+) - (\S+)$/);
    if (hy) return cmp(v, parse(hy[1])) >= 0 && cmp(v, parse(hy[2])) <= 0;
    return alt.split(/\s+/).every((c) => {
      const m = c.match(/^(>=|<=|>|<|\^|~|=)?v?([\d.x*]+)$/);
      if (!m) throw new Error(`an engines range this check cannot read: "${range}"`);
      const w = parse(m[2]);
      while (w.length < 3) w.push(0);
      const d = cmp(v, w);
      switch (m[1]) {
        case '>=': return d >= 0;
        case '>': return d > 0;
        case '<=': return d <= 0;
        case '<': return d < 0;
        case '^': return d >= 0 && v[0] === w[0];
        case '~': return d >= 0 && v[0] === w[0] && v[1] === w[1];
        default: return m[2].split('.').every((p, i) => p === 'x' || p === '*' || Number(p) === v[i]);
      }
    });
  });
}
let bad = 0, count = 0;
for (const dir of ['js', 'web/test']) {
  const lock = JSON.parse(fs.readFileSync(path.join(process.argv[2], dir, 'package-lock.json'), 'utf8'));
  for (const [name, pkg] of Object.entries(lock.packages || {})) {
    if (name === '') continue;
    count++;
    const range = pkg.engines && pkg.engines.node;
    if (range && !satisfies(oldest, range)) {
      console.error(`test-deps: FAIL: ${dir}: ${name.replace(/^node_modules\//, '')}@${pkg.version} needs Node.js ${range}; Debian 12 has ${oldest.join('.')}`);
      bad++;
    }
  }
}
if (satisfies([18, 19, 0], '>=20') || !satisfies([18, 19, 0], '>=18') || !satisfies([20, 1, 0], '^18 || >=20')) throw new Error('the range check is broken');
console.log(`test-deps: ${count} pinned packages (js/, web/test/) accept Node.js ${oldest.join('.')}`);
process.exit(bad ? 1 : 0);
EOF

if [ "$failures" -ne 0 ]; then
	echo "test-deps: $failures failure(s)" >&2
	exit 1
fi
echo "test-deps: passed"
