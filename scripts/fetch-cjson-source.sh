#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Debian's cjson source package once into $BUILD/cjson-source/tree (cJSON.c, cJSON.h)
# with apt-get source, through a private apt configuration (deb-src for the release this machine
# runs; the system's sources are not touched). Used where cJSON must be compiled by us rather
# than linked from libcjson: under ThreadSanitizer (scripts/test-threads.sh) and for wasm32 (the
# npm package, scripts/build-wasm-js.sh). Prints the tree's directory.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
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
	echo "fetch-cjson-source: fetching Debian's cjson $version source" >&2
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
echo "$src/tree"
