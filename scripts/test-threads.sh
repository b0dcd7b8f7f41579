#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Loads rig files from four threads at once under ThreadSanitizer (tests/test_io_threads.c).
# cJSON is built from Debian's source package with the same -fsanitize=thread: the installed
# libcjson is not instrumented, and a race inside it (on its global error record) would go unseen.
# The source is fetched once into $BUILD/cjson-source with apt-get source, through a private apt
# configuration (deb-src for the release this machine runs; the system's sources are not touched).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
out=$build/tsan
mkdir -p "$build"
src=$(cd "$build" && pwd)/cjson-source

if [ ! -f "$src/tree/cJSON.c" ]; then
	rm -rf "$src"
	mkdir -p "$src/lists/partial" "$src/cache/archives/partial" "$src/download"
	. /etc/os-release
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian $VERSION_CODENAME main"
		echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian $VERSION_CODENAME-updates main"
		echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian-security $VERSION_CODENAME-security main"
	} > "$src/sources.list"
	apt=(apt-get -q -o "Dir::Etc::SourceList=$src/sources.list" -o "Dir::Etc::SourceParts=$src/none"
	     -o "Dir::State::Lists=$src/lists" -o "Dir::Cache=$src/cache" -o "APT::Sandbox::User=root")
	# The source of the cJSON version installed here (the reader is built against its header).
	version=$(dpkg-query -W -f='${source:Version}' libcjson-dev)
	echo "test-threads: fetching Debian's cjson $version source"
	"${apt[@]}" update >/dev/null
	# (the newest of the release when that exact version has left the archive)
	(cd "$src/download" && { "${apt[@]}" source --download-only "cjson=$version" >/dev/null 2>&1 ||
		"${apt[@]}" source --download-only cjson >/dev/null; })
	# apt checked the files against the signed archive index; dpkg-source may still warn that it
	# cannot check the uploader's signature (no keyring for it here).
	if ! dpkg-source -x "$src/download"/cjson_*.dsc "$src/tree" >"$src/unpack.log" 2>&1; then
		cat "$src/unpack.log" >&2
		exit 1
	fi
	rm -rf "$src/lists" "$src/cache"
fi

cmake -S . -B "$out" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DSPRING_WERROR=ON \
	-DSPRING_BUILD_BENCH=OFF -DSPRING_LTO=OFF "-DSPRING_CJSON_SOURCE_DIR=$src/tree" \
	"-DCMAKE_C_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" \
	"-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread" >/dev/null
cmake --build "$out" -j "${JOBS:-2}" --target test_io_threads
echo "== tsan test_io_threads"
# halt_on_error: the first race fails the run with TSan's report.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" "$out/tests/test_io_threads"
