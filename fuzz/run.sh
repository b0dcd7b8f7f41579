#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (fuzz/CMakeLists.txt, clang) and runs them. See fuzz/README.md.
#
# Usage: fuzz/run.sh [--test] [--seconds N] [--runs N] [TARGET...]
#   (default)  `make fuzz`: every target (TARGET... to choose) for N seconds each
#              (FUZZ_SECONDS, default 600), after replaying its past crashes.
#   --runs N   `make fuzz FUZZ_RUNS=N`: N inputs per target instead, however long they take.
#   --test     `make test`: replays every past crash (fuzz/crashes/TARGET/) and fuzzes each target
#              for N seconds (default 20) from the committed corpus; a target with an open crash
#              (fuzz/crashes-open/TARGET/) is skipped, its open crashes replayed for information.
# Exits non-zero when an input crashes. New crashes are kept in build/fuzz/artifacts/TARGET/;
# new corpus entries in build/fuzz/corpus/TARGET/ (never in the tree).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${FUZZ_BUILD:-$root/build/fuzz}
jobs=${JOBS:-2}

test_mode=0
seconds=
run_count=
targets=()
while [ $# -gt 0 ]; do
	case "$1" in
	--test) test_mode=1 ;;
	--seconds) seconds=$2; shift ;;
	--runs) run_count=$2; shift ;;
	-h | --help) sed -n '2,13p' "$0"; exit 0 ;;
	-*) echo "fuzz/run.sh: unknown option $1" >&2; exit 2 ;;
	*) targets+=("$1") ;;
	esac
	shift
done
if [ -z "$seconds" ]; then
	if [ $test_mode -eq 1 ]; then seconds=20; else seconds=${FUZZ_SECONDS:-600}; fi
fi
all=(params step chain chain2d motion restore rig_json vrm cli)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

mkdir -p "$build"
cmake -S fuzz -B "$build" -DCMAKE_C_COMPILER=clang >"$build.configure.log" 2>&1 || {
	cat "$build.configure.log"
	exit 1
}
mapfile -t fuzz_targets < <(printf 'fuzz_%s\n' "${targets[@]}")
cmake --build "$build" -j "$jobs" --target "${fuzz_targets[@]}"

# Inputs of a directory (notes excluded), one per line.
inputs() {
	[ -d "$1" ] || return 0
	find "$1" -maxdepth 1 -type f ! -name '*.md' | sort
}

# Runs each input once; prints the verdict; returns non-zero when one crashes.
replay() {
	local target=$1 dir=$2 log=$3
	mapfile -t files < <(inputs "$dir")
	[ ${#files[@]} -gt 0 ] || return 0
	if "$build/fuzz_$target" "${files[@]}" >"$log" 2>&1; then
		echo "  replayed ${#files[@]} input(s) of ${dir#"$root"/}: no crash"
		return 0
	fi
	echo "  replaying ${dir#"$root"/} crashed:"
	grep -E -A3 'broken promise|ERROR: (Address|Undefined|Leak)Sanitizer|runtime error|Running: ' "$log" | head -30 | sed 's/^/    /'
	return 1
}

mkdir -p "$build/logs"
passed=0 failed=0 skipped=0
for t in "${targets[@]}"; do
	echo "== fuzz_$t"
	ok=1
	replay "$t" "$root/fuzz/crashes/$t" "$build/logs/$t.replay.log" || ok=0
	if [ $test_mode -eq 1 ] && [ -n "$(inputs "$root/fuzz/crashes-open/$t")" ]; then
		if replay "$t" "$root/fuzz/crashes-open/$t" "$build/logs/$t.open.log" >/dev/null; then
			echo "  the open crashes no longer crash: move them to fuzz/crashes/$t/ to wire the target back in"
		else
			echo "  open crashes still crash (log: ${build#"$root"/}/logs/$t.open.log)"
		fi
		echo "  skipped: open crash (fuzz/crashes-open/README.md)"
		if [ $ok -eq 1 ]; then skipped=$((skipped + 1)); else failed=$((failed + 1)); fi
		continue
	fi
	corpora=("$build/corpus/$t" "$root/fuzz/corpus/$t")
	if [ "$t" = rig_json ]; then
		corpora+=("$root/tests/rigs/good" "$root/tests/rigs/bad" "$root/examples/rigs")
	fi
	# A unit running past the timeout is reported as a hang. The CLI's own limits allow work that
	# takes longer under the sanitizers: `simulate rigs/minimal.json --seconds 3600 --fps 31
	# --json` (111,600 frames, 49 MB of JSON, both within simulate's caps) ran past 38 s in this
	# build, and the caps' worst case (the character rig, 5 million values) is about 110,000 frames
	# at about 1 ms each. So fuzz_cli's hang limit is 300 s; the library's targets keep 30 s.
	timeout=30
	[ "$t" = cli ] && timeout=300
	flags=(-timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/artifacts/$t/")
	if [ $test_mode -eq 1 ]; then
		# `make test` must give the same verdict on every run: a fixed seed and a fixed number of
		# inputs (about 20 s on this machine), with the time as a backstop only.
		flags+=(-seed=1 -runs="${FUZZ_TEST_RUNS:-15000}" -max_total_time=$((seconds * 4)))
	elif [ -n "$run_count" ]; then
		flags+=(-runs="$run_count")
	else
		flags+=(-max_total_time="$seconds")
	fi
	[ -f "$root/fuzz/dict/$t.dict" ] && flags+=(-dict="$root/fuzz/dict/$t.dict")
	mkdir -p "$build/corpus/$t" "$root/fuzz/corpus/$t" "$build/artifacts/$t"
	log=$build/logs/$t.log
	if "$build/fuzz_$t" "${flags[@]}" "${corpora[@]}" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		corpus=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
		echo "  ${runs:-0} runs, corpus ${corpus:-0} inputs: no crash"
	else
		ok=0
		echo "  CRASH (log: ${log#"$root"/}):"
		grep -E -A3 'broken promise|ERROR: (Address|Undefined|Leak)Sanitizer|ERROR: libFuzzer|runtime error' "$log" | head -30 |
			sed 's/^/    /'
		grep -E '^artifact_prefix|Test unit written to' "$log" | sed 's/^/    /'
		echo "    keep the input under fuzz/crashes/$t/ (or fuzz/crashes-open/$t/ with a note) and report it"
	fi
	if [ $ok -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
