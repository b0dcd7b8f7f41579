#!/bin/sh
# SPDX-License-Identifier: MIT
# Doxygen's input filter for Markdown pages (Doxyfile, FILTER_PATTERNS). A Git host gives every
# heading an anchor ("## The reader's API" -> #the-readers-api; a repeated heading -1, -2, ...)
# and the pages link to them; Doxygen does not, and its labels are shared by all pages. So each
# heading below the title gets that anchor prefixed with its file's path ({#docs-rig-format-bones}
# in docs/rig-format.md), and the page's own #links are rewritten to match. Fenced code blocks and
# headings that already carry an {#id} are left alone.
# Doxygen passes the absolute path: the prefix is the path from the source tree (where it runs).
exec awk -v file="${1#"$PWD"/}" '
BEGIN {
	prefix = tolower(file)
	sub(/^\.\//, "", prefix)
	sub(/\.md$/, "", prefix)
	gsub(/[^a-z0-9]/, "-", prefix)
}
/^[ \t]*```/ { fenced = !fenced; print; next }
fenced { print; next }
/^##+[ \t]+[^ \t]/ && $0 !~ /\{#[^}]*\}[ \t]*$/ {
	title = $0
	sub(/^#+[ \t]+/, "", title)
	sub(/[ \t#]+$/, "", title)
	slug = tolower(title)
	gsub(/[^a-z0-9 _-]/, "", slug)
	gsub(/ /, "-", slug)
	if (slug in seen) { seen[slug]++; slug = slug "-" seen[slug] } else { seen[slug] = 0 }
	print $0 " {#" prefix "-" slug "}"
	next
}
{
	line = $0
	out = ""
	while (match(line, /\]\(#[^)]+\)/)) {
		out = out substr(line, 1, RSTART + 2) prefix "-" substr(line, RSTART + 3, RLENGTH - 3)
		line = substr(line, RSTART + RLENGTH)
	}
	print out line
}
' "$1"
