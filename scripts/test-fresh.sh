#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test-fresh: the README's two commands as a new user meets them. Builds a brand-new Debian 12
# root (mmdebstrap --variant=apt bookworm), clones this repository's HEAD into it, installs make and
# git there and nothing else, then runs `make demo` and `make test` inside it; fails when either
# fails. Needs root (chroot and mounts) and the Debian mirror.
#
# Carried into the root: only what a machine behind a proxy has configured (the host's CA
# certificates, its apt settings, its npm settings, its proxy variables), never a package or a
# file the project needs. The root's proc, sys and dev are mounted for the build and unmounted
# afterwards, also when interrupted; the root is then removed.
#
# Usage: scripts/test-fresh.sh [--keep] [COMMAND...]
#   COMMAND   the commands to run in the clone, in order (default: "make demo" "make test"); after
#             a "make demo", "make demo" once more in a new clone with no network: it needs none
#   --keep    leave the root in place (its path is printed) instead of removing it
# Environment: SPRING_FRESH_SUITE (bookworm), SPRING_FRESH_DIR (where the root goes: /var/tmp).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
suite=${SPRING_FRESH_SUITE:-bookworm}
keep=0
commands=()
for arg in "$@"; do
	case "$arg" in
		--keep) keep=1 ;;
		-h | --help) sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
		-*) echo "test-fresh: unknown option $arg (see --help)" >&2; exit 2 ;;
		*) commands+=("$arg") ;;
	esac
done
[ ${#commands[@]} -gt 0 ] || commands=("make demo" "make test")

if [ "$(id -u)" -ne 0 ]; then
	echo "test-fresh: needs root (it builds a Debian root and runs chroot in it); try: sudo make test-fresh" >&2
	exit 1
fi
"$here/scripts/ensure-deps.sh" fresh

rev=$(git -C "$here" rev-parse HEAD)
if [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
	echo "test-fresh: note: uncommitted changes are not tested (the root gets HEAD, $rev)"
fi

root=$(mktemp -d "${SPRING_FRESH_DIR:-/var/tmp}/libspring-fresh.XXXXXX")
mounts=()
cleanup() {
	local status=$? m
	trap - EXIT INT TERM
	# Whatever the run left behind (a browser, a test) stops before the mounts go.
	for proc in /proc/[0-9]*; do
		if [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ]; then kill -9 "${proc#/proc/}" 2>/dev/null || true; fi
	done
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m=${mounts[$i]}
		umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || true
	done
	if [ "$keep" -eq 1 ]; then
		echo "test-fresh: the root is kept at $root"
	elif grep -q " $root/" /proc/self/mounts; then
		echo "test-fresh: something is still mounted under $root; not removing it" >&2
		status=1
	else
		rm -rf --one-file-system "$root"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

clock() { date +%s; }
took() { local s=$(($(clock) - $1)); printf '%d min %02d s' $((s / 60)) $((s % 60)); }

echo "== test-fresh: a new Debian $suite root in $root"
start=$(clock)
if ! mmdebstrap --quiet --variant=apt "$suite" "$root" >"$root.log" 2>&1; then
	cat "$root.log" >&2
	rm -f "$root.log"
	exit 1
fi
rm -f "$root.log"
echo "test-fresh: root made in $(took "$start")"

# What a machine behind a proxy has configured: CA certificates (the extra ones in
# /usr/local/share/ca-certificates survive the root's own ca-certificates package, the bundle
# serves until then), apt settings that reach the mirror (Acquire::*), npm's settings.
carry() { # carry SRC: copy a host file to the same path in the root when it exists
	[ -e "$1" ] || return 0
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
	echo "test-fresh: carried $1"
}
for f in /usr/local/share/ca-certificates/*; do carry "$f"; done
carry /etc/ssl/certs/ca-certificates.crt
for f in /etc/apt/apt.conf.d/*; do
	grep -q '^[[:space:]]*Acquire' "$f" 2>/dev/null && carry "$f"
done
for f in /etc/apt/auth.conf.d/*; do carry "$f"; done
# npm's settings: the user's, and the global one wherever this host's npm keeps it (Debian's npm
# reads /etc/npmrc).
if [ -e "$HOME/.npmrc" ]; then
	mkdir -p "$root/root"
	cp -L "$HOME/.npmrc" "$root/root/.npmrc"
	echo "test-fresh: carried $HOME/.npmrc into /root/.npmrc"
fi
for f in /etc/npmrc /usr/etc/npmrc /usr/local/etc/npmrc; do
	if [ -e "$f" ]; then
		mkdir -p "$root/etc"
		cat "$f" >>"$root/etc/npmrc"
		echo "test-fresh: carried $f into /etc/npmrc"
	fi
done
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
proxy_env=()
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
	[ -n "${!v:-}" ] && proxy_env+=("$v=${!v}")
done

git clone --quiet --no-checkout --no-hardlinks "$here" "$root/root/libspring"
git -C "$root/root/libspring" checkout --quiet --detach "$rev"
echo "test-fresh: cloned $rev into /root/libspring"

mount_in() { # mount_in TYPE-OR-BIND SRC DIR
	mkdir -p "$root$3"
	if [ "$1" = bind ]; then mount --rbind "$2" "$root$3" && mount --make-rslave "$root$3"; else mount -t "$1" "$2" "$root$3"; fi
	mounts+=("$root$3")
}
mount_in proc proc /proc
mount_in sysfs sysfs /sys
mount_in bind /dev /dev

# in_root CMD: a login-like environment with nothing of the host's but the proxy variables.
# With offline=1, in a network namespace of its own: no network at all.
offline=0
in_root() {
	local net=()
	[ "$offline" -eq 0 ] || net=(unshare --net)
	${net[@]+"${net[@]}"} chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${proxy_env[@]}" \
		/bin/bash -c "$1"
}
packages() { in_root "dpkg-query -W -f '\${Package}\n' | sort"; }

step() { # step TITLE CMD: runs CMD in the root, timed, and lists the packages it installed
	local before after s
	before=$(packages)
	echo "== test-fresh: $1"
	s=$(clock)
	# In the background and waited for: an interrupt reaches the trap at once, not when the step ends.
	in_root "$2" &
	if ! wait $!; then
		echo "test-fresh: FAILED after $(took "$s"): $1" >&2
		return 1
	fi
	after=$(packages)
	timing+=("$(printf '%-46s %s' "$1" "$(took "$s")")")
	installed=$(comm -13 <(echo "$before") <(echo "$after") | wc -l)
	timing+=("$(printf '  %d packages installed' "$installed")")
	# What ensure-deps itself asked for (its own line), beside the count with dependencies.
	echo "test-fresh: $1: $(took "$s"), $installed packages installed"
}
timing=()
step "apt-get install make git" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make git >/dev/null"

# Every Debian package name ensure-deps can ask for exists in this release.
echo "== test-fresh: every package ensure-deps can ask for exists in $suite"
missing=()
for p in $("$here/scripts/ensure-deps.sh" packages); do
	in_root "apt-cache show --no-all-versions $p >/dev/null 2>&1" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
	echo "test-fresh: ensure-deps can ask for packages $suite does not have: ${missing[*]}" >&2
	exit 1
fi
echo "test-fresh: $("$here/scripts/ensure-deps.sh" packages | wc -l) package names checked"

for c in "${commands[@]}"; do
	step "$c" "cd /root/libspring && $c 2>&1 | tee -a /root/fresh.log | sed 's/^/  | /'; exit \${PIPESTATUS[0]}"
	in_root "grep '^ensure-deps: installing' /root/fresh.log" | sed "s/^/test-fresh: $c: /" || true
	in_root ": > /root/fresh.log"
done

# make demo configured the release tree before make test installed g++: the release suite still
# ran its C++ checks (the headers and every doc example compiled as C++).
if printf '%s\n' "${commands[@]}" | grep -qxE 'make test(-release)?'; then
	cxx=$(in_root "cd /root/libspring && ctest --test-dir build/release -N -R '_cxx\$' 2>/dev/null | sed -n 's/^Total Tests: //p'")
	if [ "${cxx:-0}" -eq 0 ]; then
		echo "test-fresh: the release tree has no C++ checks (configured before g++ was installed, and never looked again)" >&2
		exit 1
	fi
	echo "test-fresh: the release suite ran $cxx C++ checks"
fi

# Once its packages are there, make demo needs no network: a new clone, built with none.
if printf '%s\n' "${commands[@]}" | grep -qx 'make demo'; then
	in_root "git clone --quiet /root/libspring /root/offline"
	offline=1
	step "make demo, offline (a new clone, no network)" "if (: </dev/tcp/deb.debian.org/80) 2>/dev/null; then echo 'test-fresh: the offline step reaches the network' >&2; exit 1; fi
		cd /root/offline && make demo >/root/offline.log 2>&1 || { tail -40 /root/offline.log; exit 1; }"
	offline=0
fi

echo "== test-fresh: passed on a new Debian $suite root, in $(took "$start")"
printf '  %s\n' "${timing[@]}"
