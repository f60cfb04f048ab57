#!/bin/sh
# deps.sh - data flows one way: no circle between the files of lib/ and
# tools/
#
# A file depends on another when it calls a function or uses a variable
# that the other defines: read from the objects themselves (nm), so the
# check sees what is linked, not what happens to be #included.  Every
# set of files that depend on each other in a ring is printed, with the
# symbols that close it, and the script fails.  The runtime's files are
# one component with one state and one lock (lib/runtime/README.md): they
# count as one node, lib/runtime.  Run by `make check` after the build;
# OBJ is the object folder (default build/obj).
obj=${1:-build/obj}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
files=$( (find "$obj/lib" "$obj/tools" -name '*.o' ! -path '*/pic/*' \
	! -path '*/pic32/*'; find "$obj/pic/lib/runtime" -name '*.o') \
	2>/dev/null | sort)
[ -n "$files" ] || { echo "deps.sh: no objects under '$obj'" >&2; exit 2; }
# the node of an object: its source's path, the runtime's as one
node() {
	f=${1#"$obj"/}
	f=${f#pic/}
	case $f in
	lib/runtime/*) echo lib/runtime ;;
	*) echo "${f%.o}" ;;
	esac
}
for o in $files; do
	nm -g --defined-only "$o" |
		awk -v f="$(node "$o")" '$2 ~ /[TDBRCV]/ { print $3, f }'
done | sort -u > "$tmp/defs"
for o in $files; do
	nm -u "$o" | awk -v f="$(node "$o")" '{ print f, $2 }'
done > "$tmp/uses"
# "FROM TO SYMBOL" for every use of another file's symbol
awk 'NR == FNR { def[$1] = $2; next }
     ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
	"$tmp/defs" "$tmp/uses" | sort > "$tmp/edges"
# the strongly connected components of more than one file (Tarjan)
awk '
{
	if (!(($1, $2) in seen)) {
		seen[$1, $2] = 1
		adj[$1] = adj[$1] " " $2
	}
	why[$1, $2] = why[$1, $2] (why[$1, $2] == "" ? "" : " ") $3
	nodes[$1] = 1
	nodes[$2] = 1
}
function visit(v,   n, k, w, arr, members, cnt, i, j) {
	index_[v] = low[v] = next_index++
	stack[++sp] = v
	onstack[v] = 1
	n = split(adj[v], arr, " ")
	for (k = 1; k <= n; k++) {
		w = arr[k]
		if (!(w in index_)) {
			visit(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (onstack[w] && index_[w] < low[v]) {
			low[v] = index_[w]
		}
	}
	if (low[v] != index_[v])
		return
	cnt = 0
	do {
		w = stack[sp--]
		onstack[w] = 0
		members[++cnt] = w
	} while (w != v)
	if (cnt < 2)
		return
	found = 1
	printf "circle between %d files:\n", cnt
	for (i = 1; i <= cnt; i++)
		for (j = 1; j <= cnt; j++)
			if ((members[i], members[j]) in seen)
				printf "  %s -> %s: %s\n", members[i],
					members[j], why[members[i], members[j]]
}
END {
	for (v in nodes)
		if (!(v in index_))
			visit(v)
	exit found
}' "$tmp/edges"
rc=$?
[ $rc = 0 ] &&
	echo "deps: no circle between $(cut -d' ' -f2 "$tmp/defs" | sort -u |
		wc -l) files (the runtime counted as one)"
exit $rc
