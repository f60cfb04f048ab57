#!/bin/sh
# seeds.sh - Steven Rostedt's December 2010 series, redone by likelyprof fix
#
# For each of seeds 002-011: build a git tree whose file holds the context
# of the seed's diff at the seed's line numbers (with the function header
# the @@ line names, so the function can be found), feed the seed's table
# (tests/data/seeds/NNN.txt, as the kernel printed it, lines drifted as
# they were) to `likelyprof fix`, `git am` the series, and check that
#   - the -/+ lines of the result are the seed's own, in order;
#   - the subject carries the subsystem prefix of the file's history;
#   - a site whose file is not in the tree is refused with its reason
#     (seed 002 also quotes page_mapping() in mm.h) and the rest go on.
. "$(dirname "$0")/lib.sh"

# the seeds' patches as they were mailed, and their tables
SEEDS="$ROOT/tests/data/seeds/patches"
DATA="$ROOT/tests/data/seeds"

# build_tree PATCH DIR: writes each file of PATCH's diff into DIR.
build_tree() {
	awk -v dir="$2" '
	function flush_file(   i, n, out, line, k) {
		if (path == "")
			return
		n = maxline
		for (i = 1; i <= nclose; i++)
			text[closeat[i]] = closetext[i]
		out = dir "/" path
		sub(/\/[^\/]*$/, "", out)
		system("mkdir -p \"" out "\"")
		out = dir "/" path
		printf "" > out
		for (i = 1; i <= n + 2; i++)
			print ((i in text) ? text[i] : "") > out
		close(out)
		delete text
		nclose = 0
		maxline = 0
	}
	function braces(s,   t, o, c) {
		t = s
		o = gsub(/\{/, "", t)
		t = s
		c = gsub(/\}/, "", t)
		return o - c
	}
	function parens(s,   t, o, c) {
		t = s
		o = gsub(/\(/, "", t)
		t = s
		c = gsub(/\)/, "", t)
		return o - c
	}
	# Places the scaffolding of the hunk in ctx[1..nctx] at start.
	function place_hunk(   i, net, has_def, first, k, opened, comment) {
		net = 0
		has_def = 0
		comment = 0
		for (i = 1; i <= nctx; i++) {
			text[start + i - 1] = ctx[i]
			net += braces(ctx[i])
			if (i < nctx && ctx[i] ~ /^[A-Za-z_].*\)[ \t]*$/ &&
			    ctx[i + 1] == "{")
				has_def = 1
			if (ctx[i] ~ /^[ \t]*\*\// && !seen_open)
				comment = 1
			if (ctx[i] ~ /\/\*/)
				seen_open = 1
		}
		seen_open = 0
		if (start + nctx - 1 > maxline)
			maxline = start + nctx - 1
		if (comment)
			text[start - 1] = "\t/*"
		if (has_def || header == "" || header == current)
			return net
		current = header
		k = comment ? start - 2 : start - 1
		if (ctx[1] == "{") {
			k = start - 1
			opened_by_us = 0
		} else {
			text[k] = ""
			text[k - 1] = "{"
			k -= 2
			opened_by_us = 1
		}
		if (parens(header) > 0) {
			text[k] = "\t\tint lp_more_args)"
			k--
		}
		text[k] = header
		return net
	}
	function end_function(   i) {
		for (i = 0; i < depth; i++) {
			nclose++
			closeat[nclose] = last_end + 1 + i
			closetext[nclose] = "}"
			if (last_end + 1 + i > maxline)
				maxline = last_end + 1 + i
		}
		depth = 0
		current = ""
	}
	function end_hunk() {
		if (!in_hunk)
			return
		depth += place_hunk()
		depth += opened_by_us
		opened_by_us = 0
		last_end = start + nctx - 1
		in_hunk = 0
	}
	/^diff --git / {
		end_hunk(); end_function(); flush_file()
		path = $3
		sub(/^a\//, "", path)
		next
	}
	/^-- $/ { end_hunk(); end_function(); flush_file(); path = ""; next }
	/^@@ / {
		end_hunk()
		split($2, r, ",")
		start = substr(r[1], 2) + 0
		header = $0
		sub(/^@@ [^@]*@@ ?/, "", header)
		if (header != current && current != "")
			end_function()
		nctx = 0
		in_hunk = 1
		next
	}
	in_hunk && /^[ -]/ { ctx[++nctx] = substr($0, 2); next }
	in_hunk && /^\+/ { next }
	in_hunk && /^$/ { ctx[++nctx] = ""; next }
	END { end_hunk(); end_function(); flush_file() }
	' "$1"
}

# The -/+ lines of a diff, without the ---/+++ headers.
changes() {
	awk '/^diff --git/ { d = 1 } /^-- $/ { d = 0 }
	     d && /^[-+]/ && !/^(---|\+\+\+) / { print }' "$1"
}

for n in 002 003 004 005 006 007 008 009 010 011; do
	patch=$(ls "$SEEDS"/$n-*.patch 2>/dev/null | head -n 1)
	if [ -z "$patch" ]; then
		fail "seed $n: no patch in $SEEDS"
		continue
	fi
	tree="$SCRATCH/$n"
	mkdir -p "$tree"
	build_tree "$patch" "$tree"
	# (seed 011 came from a web archive: a no-break space after Subject:)
	prefix=$(sed -n 's/^Subject:[^[]*\(\[[^]]*\] *\)*\([^:]*\):.*/\2/p' \
		 "$patch" | head -n 1)
	(cd "$tree" && git init -q && git add -A &&
	 git -c user.name=seed -c user.email=seed@example.com \
		commit -q -m "$prefix: the code as it was") || {
		fail "seed $n: cannot make the git tree"
		continue
	}
	SOURCE_DATE_EPOCH=1291687114 "$LIKELYPROF" fix --src "$tree" \
		"$DATA/$n.txt" > "$SCRATCH/$n.mbox" 2> "$SCRATCH/$n.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "seed $n: fix exited $rc: $(cat "$SCRATCH/$n.err")"
		continue
	fi
	if ! (cd "$tree" && git -c user.name=t -c user.email=t@example.com \
		am -q "$SCRATCH/$n.mbox") > "$SCRATCH/$n.am" 2>&1; then
		fail "seed $n: git am failed: $(cat "$SCRATCH/$n.am")"
		continue
	fi
	changes "$patch" > "$SCRATCH/$n.want"
	(cd "$tree" && git diff HEAD~1 HEAD) > "$SCRATCH/$n.diff"
	changes "$SCRATCH/$n.diff" > "$SCRATCH/$n.got"
	if ! cmp -s "$SCRATCH/$n.want" "$SCRATCH/$n.got"; then
		fail "seed $n: the -/+ lines differ from the seed's:"
		diff "$SCRATCH/$n.want" "$SCRATCH/$n.got" | sed 's/^/    /'
	fi
	subject=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' \
		  "$SCRATCH/$n.mbox" | head -n 1)
	case "$subject" in
	"$prefix: "*) ;;
	*) fail "seed $n: subject '$subject' lacks the prefix '$prefix:'" ;;
	esac
	note "seed $n: $subject"
done

# All ten tables at once against one tree holding every seed's files,
# each file committed with its seed's subsystem: with the default split
# (one patch per function, functions testing the same expression
# together) the series is ten patches, each the -/+ lines of one seed.
all="$SCRATCH/all"
mkdir -p "$all"
(cd "$all" && git init -q)
for n in 002 003 004 005 006 007 008 009 010 011; do
	(cd "$SCRATCH/$n" && git ls-files) | while read -r f; do
		mkdir -p "$all/$(dirname "$f")"
		# the pre-image: the seed trees have had their series applied
		git -C "$SCRATCH/$n" show HEAD~1:"$f" > "$all/$f.seed"
		if [ -f "$all/$f" ]; then
			# two seeds' hunks of one file: disjoint lines
			awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
			     { if ($0 != "" || !(FNR in a)) a[FNR] = $0
			       if (FNR > n) n = FNR }
			     END { for (i = 1; i <= n; i++) print a[i] }' \
				"$all/$f" "$all/$f.seed" > "$all/$f.new"
			mv "$all/$f.new" "$all/$f"
			rm "$all/$f.seed"
		else
			mv "$all/$f.seed" "$all/$f"
		fi
		prefix=$(git -C "$SCRATCH/$n" log -1 --format=%s HEAD~1 |
			 sed 's/:.*//')
		(cd "$all" && git add "$f" &&
		 git -c user.name=seed -c user.email=seed@example.com \
			commit -q -m "$prefix: $f as it was")
	done
done
tables=""
for n in 002 003 004 005 006 007 008 009 010 011; do
	tables="$tables $DATA/$n.txt"
done
SOURCE_DATE_EPOCH=1291687114 "$LIKELYPROF" fix --src "$all" $tables \
	> "$SCRATCH/all.mbox" 2> "$SCRATCH/all.err" ||
	fail "all seeds: fix exited $?: $(cat "$SCRATCH/all.err")"
npatch=$(grep -c '^Subject: ' "$SCRATCH/all.mbox")
[ "$npatch" -eq 10 ] ||
	fail "all seeds: $npatch patches, not 10: $(grep '^Subject: ' "$SCRATCH/all.mbox")"
# each patch's -/+ lines, one line per patch, against each seed's
awk '/^From [0-9a-f]+ / { if (p != "") print p; p = "" }
     /^diff --git/ { d = 1 } /^-- $/ { d = 0 }
     d && /^[-+]/ && !/^(---|\+\+\+) / { p = p "|" $0 }
     END { if (p != "") print p }' "$SCRATCH/all.mbox" | sort > "$SCRATCH/all.got"
for n in 002 003 004 005 006 007 008 009 010 011; do
	awk '{ p = p "|" $0 } END { print p }' "$SCRATCH/$n.want"
done | sort > "$SCRATCH/all.want"
if ! cmp -s "$SCRATCH/all.want" "$SCRATCH/all.got"; then
	fail "all seeds: the patches are not the seeds' ten:"
	diff "$SCRATCH/all.want" "$SCRATCH/all.got" | sed 's/^/    /'
fi
grep -q "$(printf '/tmp\\|/home\\|%s' "$SCRATCH")" "$SCRATCH/all.mbox" &&
	fail "all seeds: a message names a local path"
# the respun form: one patch per subsystem (mm, workqueue, sched, x86, fs)
"$LIKELYPROF" fix --split subsystem --src "$all" $tables \
	> "$SCRATCH/sub.mbox" 2> /dev/null || fail "--split subsystem exited $?"
nsub=$(grep -c '^Subject: ' "$SCRATCH/sub.mbox")
[ "$nsub" -eq 5 ] || fail "--split subsystem: $nsub patches, not 5"
note "all seeds at once: $npatch patches; $nsub with --split subsystem"

# seed 002's table names page_mapping() in mm.h, which its tree lacks
if ! grep -q "page_mapping(): not changed: no file named 'mm.h'" \
	"$SCRATCH/002.err"; then
	fail "seed 002: the page_mapping site was not refused by name:"
	sed 's/^/    /' "$SCRATCH/002.err"
fi
finish
