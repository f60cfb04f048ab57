#!/bin/sh
# run.sh - `make check-real`: real C and C++ projects, fetched as Debian source
# packages, built unmodified with `likelyprof cc`, run on their own tests
# and benchmarks, and checked (README.md in this folder says what).
#
#   tests/real/run.sh [NAME...]        default: every project below
#
# Environment: LIKELYPROF (the command; the Makefile sets it, with
# LIKELYPROF_INCLUDE_DIR and LIKELYPROF_LIB_DIR), LP_REAL_DIR (downloads
# and work, default build/real in the repository), LP_REAL_JOBS (make -j,
# default 2).  Needs the network the first time: the downloads are kept.
# Exits 0 when every check passed, 1 when one failed.

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"

ALL_PROJECTS="lz4 zstd mimalloc jemalloc rapidjson abseil sqlite libev luajit scnlib"
: "${LIKELYPROF:=$ROOT/likelyprof}"
REAL_DIR=${LP_REAL_DIR:-$ROOT/build/real}
APT_DIR=$REAL_DIR/apt
SRC_DIR=$REAL_DIR/src
JOBS=${LP_REAL_JOBS:-2}
# the policy of the stress series: many more sites changed, flips too
STRESS="--flip-at 50 --remove-at 5 --min-hits 100"
# fix's refusals that mean it could not find a site (likelyprof-fix.md)
LOST="no function\\|no file named\\|files named\\|cannot tell which"
LOST="$LOST\\|has no annotation left\\|leads outside"
export LIKELYPROF JOBS
# the runtime's profiles of a plain run must not land anywhere
unset LIKELYPROF_FILE LIKELYPROF_SIGNAL

if ! "$LIKELYPROF" report --help > /dev/null 2>&1; then
	echo "run.sh: '$LIKELYPROF' does not run; build it first (make)" >&2
	exit 2
fi
for p in ${*:-$ALL_PROJECTS}; do
	[ -f "$HERE/$p.sh" ] || {
		echo "run.sh: no project '$p' (have: $ALL_PROJECTS)" >&2
		exit 2
	}
done

npass=0
nfail=0
nskip=0
summary=""

# run_build TREE LOG: the project's build in TREE; its time in $secs.
run_build() {
	phase "building $(basename "$1")${LP_REAL_CC:+ with $LP_REAL_CC}"
	t=$(now)
	(cd "$1" && build) > "$2" 2>&1
	rc=$?
	secs=$(elapsed "$t")
	return $rc
}

# cpu_total: user + system seconds of this shell's finished children, in
# $cpu_now.  Not a command substitution: `times` there would report the
# subshell's children.
cpu_total() {
	times > "$W/times"
	cpu_now=$(sed -n '2p' "$W/times" | tr 'ms' '  ' |
		awk '{ printf "%.3f", $1 * 60 + $2 + $3 * 60 + $4 }')
}

# run_workload TREE RUNDIR [PROFILE]: the workload, under `likelyprof run`
# when a profile is asked for; wall and CPU seconds in $wall, $cpu.
run_workload() {
	rw_tree=$1
	rw_dir=$2
	rw_prof=${3:-}
	phase "workload on $(basename "$rw_tree")${rw_prof:+ under likelyprof run}"
	rm -rf "$rw_dir"
	mkdir -p "$rw_dir"
	# a workload that hangs is stopped after half an hour (timeout
	# signals its whole process group)
	rw_limit=
	command -v timeout > /dev/null && rw_limit="timeout 1800"
	cpu_total
	c0=$cpu_now
	t=$(now)
	if [ -n "$rw_prof" ]; then
		(cd "$rw_tree" && $rw_limit "$LIKELYPROF" run -o "$rw_prof" -- \
			sh "$HERE/workload.sh" "$name" "$rw_tree" "$rw_dir")
	else
		(cd "$rw_tree" && $rw_limit \
			sh "$HERE/workload.sh" "$name" "$rw_tree" "$rw_dir")
	fi > "$rw_dir/stdout" 2> "$rw_dir/stderr"
	rc=$?
	wall=$(elapsed "$t")
	cpu_total
	cpu=$(awk -v a="$c0" -v b="$cpu_now" 'BEGIN { printf "%.3f", b - a }')
	return $rc
}

# A fresh copy of the upstream tree (times kept: make must not rebuild
# generated files).
fresh_copy() {
	rm -rf "$2" && cp -Rp "$1" "$2"
}

# git_copy DIR: a fresh copy of the upstream tree in a git repository of
# its own, one commit.
git_copy() {
	fresh_copy "$W/pristine" "$1" &&
	(cd "$1" && git init -q && git add -A &&
	 git -c user.name=check-real -c user.email=check-real@localhost \
		commit -q -m "${pkg:-$name} as released") > "$L/git-init.log" 2>&1
}

# make_series MBOX ERR [POLICY...]: `likelyprof fix` on a git copy of the
# tree; patches in $nseries, refusals in $nrefused.
make_series() {
	ms_out=$1
	ms_err=$2
	shift 2
	phase "likelyprof fix${*:+ $*}"
	git_copy "$W/series" ||
		{ fail "git init of the tree copy" "$L/git-init.log"; return 1; }
	"$LIKELYPROF" fix $tool_opts --src "$W/series" "$@" "$prof" \
		> "$ms_out" 2> "$ms_err"
	rc=$?
	nseries=$(grep -c '^Subject: \[PATCH' "$ms_out")
	nrefused=$(grep -c 'warning' "$ms_err")
	# refusals that say a site is not where it is: on the very tree the
	# profile was made from, each one is a bug; a site of a system header
	# (/usr/include/c++/12/streambuf) is in no file of the tree, rightly
	grep "$LOST" "$ms_err" | awk -v w="$W/" '{
		p = $0; sub(/^likelyprof: warning: /, "", p); sub(/:.*/, "", p)
		if (substr(p, 1, 1) == "/" && index(p, w) != 1) next
		print }' > "$ms_err.lost"
	# the changed lines alone, to compare two series
	grep '^[-+][^-+]' "$ms_out" > "${ms_out%.mbox}.diff"
	if [ $rc -ne 0 ]; then
		fail "fix${*:+ $*} exited $rc" "$ms_err"
		return 1
	fi
	if [ -s "$ms_err.lost" ]; then
		fail "fix${*:+ $*} cannot place $(wc -l < \
			"$ms_err.lost") sites" "$ms_err.lost"
	fi
}

# apply_series NAME MBOX: `git am` on a git copy of the tree in $W/NAME,
# then a plain build, the workload and the comparison of its outputs
# with the plain build's; CPU seconds in $cpu.
apply_series() {
	git_copy "$W/$1" ||
		{ fail "git init of the tree copy" "$L/git-init.log"; return 1; }
	if (cd "$W/$1" && git -c user.name=check-real \
		-c user.email=check-real@localhost am -q "$2") \
	   > "$L/git-am-$1.log" 2>&1; then
		n=$(grep -c '^Subject: \[PATCH' "$2")
		pass "$1: git am applied the series:$(cd "$W/$1" &&
			git diff --shortstat "HEAD~$n")"
	else
		fail "$1: git am" "$L/git-am-$1.log"
		return 1
	fi
	LP_REAL_CC=
	if run_build "$W/$1" "$L/build-$1.log"; then
		pass "$1: the patched tree builds ($secs s)"
	else
		fail "$1: plain build of the patched tree" "$L/build-$1.log"
		return 1
	fi
	if run_workload "$W/$1" "$W/runs/$1"; then
		pass "$1: workload (${wall} s)"
	else
		fail "$1: workload on the patched tree" "$W/runs/$1/stderr"
		return 1
	fi
	if same_outputs "$W/runs/plain/out" "$W/runs/$1/out" \
			"$L/outputs-$1.diff"; then
		pass "$1: outputs byte-identical to the plain build's"
	else
		fail "$1: outputs differ from the plain build's" \
			"$L/outputs-$1.diff"
	fi
}

project_steps() {
	W=$REAL_DIR/work/$name
	L=$W/logs
	pkg= annot_dirs= all_branches=no needs= hint_macros= tool_opts=
	src_var= src_path= annot_glob='*.[ch]' build_key=
	unset -f prepare
	. "$HERE/$name.sh"
	mkdir -p "$L"
	rm -rf "$W/instr" "$W/fixed" "$W/stress" "$W/series" "$W/allbr" \
		"$L"/*
	mkdir -p "$W/runs"
	if [ -n "$src_var" ]; then
		echo "== $name (not a Debian package: the tree in $src_var)"
	else
		echo "== $name (Debian source package $pkg)"
	fi
	for n in $needs; do
		command -v "${n%%:*}" > /dev/null 2>&1 && continue
		fail "$name needs ${n%%:*} (apt-get install ${n#*:})"
		headline="$name: needs ${n%%:*}"
		return
	done

	# --- fetch and unpack ------------------------------------------------
	if [ -n "$src_var" ]; then
		# not packaged: a tree, a git directory or a tarball that the
		# user names (lib.sh: local_source); without it, a skip
		eval "orig=\${$src_var:-}"
		if [ -z "$orig" ]; then
			skip "$name: set $src_var to its source (a tree, a" \
			     "git directory or a tarball) to test it"
			headline="$name: skipped ($src_var not set)"
			return
		fi
		if ! from=$(local_source_key "$orig"); then
			fail "$src_var=$orig: no tree, git directory or tarball"
			headline="$name: no source in $src_var"
			return
		fi
		src_path=$orig
		orig="$orig $from"
	elif ! orig=$(fetch "$pkg" "$L/fetch.log"); then
		fail "cannot fetch $name (source package $pkg): $(why \
			"$L/fetch.log")"
		headline="$name: cannot fetch $pkg"
		return
	fi
	# a project whose build compiles generated sources (sqlite's
	# amalgamation) makes them once in the upstream tree (its prepare), so
	# that fix patches them too; kept while the tarball and NAME.sh are
	# the same
	from=$orig
	is_function prepare &&
		from="$orig prepare $(cksum < "$HERE/$name.sh")"
	if [ "$(cat "$W/pristine.from" 2>/dev/null)" != "$from" ]; then
		rm -rf "$W/plain" "$W/plain.ok" "$W/pristine.from"
		if [ -n "$src_var" ]; then
			local_source "$src_path" "$W/pristine"
		else
			unpack "$orig" "$W/pristine"
		fi || {
			fail "cannot unpack $(basename "${src_path:-$orig}")"
			return
		}
		if is_function prepare; then
			phase "prepare: sources generated in the upstream tree"
			(cd "$W/pristine" && prepare) > "$L/prepare.log" 2>&1 ||
			{
				fail "prepare (the generated sources)" \
					"$L/prepare.log"
				return
			}
		fi
		echo "$from" > "$W/pristine.from"
	fi
	CORPUS=$W/corpus.tar
	if [ ! -s "$CORPUS" ]; then
		case $orig in
		*" git "*|*" tree "*|*" tarball "*)
			tar -cf - -C "$W/pristine" . ;;
		*.gz)	gzip -dc "$orig" ;;
		*.xz)	xz -dc "$orig" ;;
		*.bz2)	bzip2 -dc "$orig" ;;
		*)	cat "$orig" ;;
		esac > "$CORPUS.tmp" && mv "$CORPUS.tmp" "$CORPUS"
	fi
	PRISTINE=$W/pristine
	export CORPUS PRISTINE
	if [ -n "$src_var" ]; then
		note "source: $orig"
	else
		note "tarball: $(basename "$orig")"
	fi

	# --- build: plain (kept between runs) and instrumented -------------
	# the plain build is kept while the tarball and NAME.sh are the same
	key="$orig $(cksum < "$HERE/$name.sh")${build_key:+ $build_key}"
	LP_REAL_CC=
	export LP_REAL_CC
	if [ "$(sed -n 1p "$W/plain.ok" 2>/dev/null)" != "$key" ]; then
		rm -f "$W/plain.ok"
		fresh_copy "$W/pristine" "$W/plain"
		if run_build "$W/plain" "$L/build-plain.log"; then
			cp "$L/build-plain.log" "$W/plain.log"
			printf '%s\n%s\n' "$key" "$secs" > "$W/plain.ok"
		else
			fail "plain build" "$L/build-plain.log"
			return
		fi
	fi
	plain_build_secs=$(sed -n 2p "$W/plain.ok")
	pass "plain build (${plain_build_secs} s)"

	LP_REAL_CC="$LIKELYPROF cc"
	fresh_copy "$W/pristine" "$W/instr"
	if ! run_build "$W/instr" "$L/build-instr.log"; then
		fail "make CC=\"likelyprof cc\"" "$L/build-instr.log"
		return
	fi
	instr_build_secs=$secs
	pass "build with CC=\"likelyprof cc\" ($secs s)"
	warnings "$W/plain.log" > "$L/warnings-plain"
	warnings "$L/build-instr.log" > "$L/warnings-instr"
	comm -13 "$L/warnings-plain" "$L/warnings-instr" > "$L/warnings-added"
	if [ -s "$L/warnings-added" ]; then
		fail "the instrumented build has $(wc -l < \
			"$L/warnings-added") warnings the plain one has not" \
			"$L/warnings-added"
	else
		pass "no warning added"
	fi
	diagnostics "$W/plain.log" "$W/plain" > "$L/diag-plain"
	diagnostics "$L/build-instr.log" "$W/instr" > "$L/diag-instr"
	if cmp -s "$L/diag-plain" "$L/diag-instr"; then
		pass "diagnostics: the plain build's, line for line ($(wc -l \
			< "$L/diag-plain") lines)"
	else
		diff "$L/diag-plain" "$L/diag-instr" > "$L/diag-diff"
		fail "diagnostics differ from the plain build's: $(grep -c \
			'^<' "$L/diag-diff") lost, $(grep -c '^>' \
			"$L/diag-diff") added" "$L/diag-diff"
	fi
	# cc's notes: a file it could not instrument (or whose attributes
	# its copy could not count), or forms it left
	unprofiled='compiled without profiling|did not compile'
	grep '^likelyprof: note:' "$L/build-instr.log" |
		grep -E "$unprofiled" > "$L/notes-unprofiled"
	[ -s "$L/notes-unprofiled" ] &&
		note "$(wc -l < "$L/notes-unprofiled") files compiled" \
		     "without profiling or their attributes:" "$(sed 's/^likelyprof: note: //;
			s/:.*//' "$L/notes-unprofiled" | tr '\n' ' ')"
	nleft=$(grep '^likelyprof: note:' "$L/build-instr.log" |
		grep -cvE "$unprofiled")
	[ "$nleft" -eq 0 ] ||
		note "$nleft notes of hint forms left uncounted (in" \
		     "$L/build-instr.log)"

	# --- the workload: plain, then under likelyprof run ----------------
	LP_REAL_CC=
	if run_workload "$W/plain" "$W/runs/plain"; then
		pass "workload, plain build (${wall} s)"
	else
		fail "workload on the plain build" "$W/runs/plain/stderr"
		return
	fi
	plain_wall=$wall
	plain_cpu=$cpu
	LP_REAL_CC="$LIKELYPROF cc"
	prof=$W/runs/$name.lprof
	if run_workload "$W/instr" "$W/runs/instr" "$prof"; then
		pass "workload under likelyprof run (${wall} s)"
	else
		fail "workload under likelyprof run" "$W/runs/instr/stderr"
		return
	fi
	instr_wall=$wall
	instr_cpu=$cpu
	grep '^likelyprof: [0-9]* process' "$W/runs/instr/stderr" |
		sed 's/^/  /'
	if same_outputs "$W/runs/plain/out" "$W/runs/instr/out" \
			"$L/outputs.diff"; then
		pass "outputs byte-identical to the plain build's" \
		     "($(find "$W/runs/plain/out" -type f | wc -l) files)"
	else
		fail "outputs differ from the plain build's" "$L/outputs.diff"
	fi

	# --- the profile against the source's annotations ------------------
	if [ ! -s "$prof" ]; then
		fail "no profile written" "$W/runs/instr/stderr"
		return
	fi
	set -f
	ag=
	for g in $annot_glob; do
		ag="$ag${ag:+ -o} -name $g"
	done
	set +f
	(cd "$W/instr" && files=$(set -f && find $annot_dirs \( $ag \) |
		LC_ALL=C sort) && awk -f "$HERE/annotations.awk" \
		-v hints="$(echo "$hint_macros" | sed 's/=[^ ]*//g')" \
		pass=1 $files pass=2 $files) > "$L/annotations" ||
		fail "cannot scan the sources for annotations"
	awk -f "$HERE/compare.awk" "$L/annotations" "$prof" > "$L/compare"
	val() { sed -n "s/^$1=//p" "$L/compare"; }
	sites=$(val sites)
	evals=$(val evaluations)
	present=$(val present)
	annotations=$(val annotations)
	note "profile: $sites sites, $evals evaluations," \
	     "$(val lines) distinct (file, line), $(val outside) sites" \
	     "outside the tree"
	note "source: $(val annotations) annotations at" \
	     "$(val annotated_lines) lines ($(grep -c '^file' \
	     "$L/annotations") files of $annot_dirs), spelled" \
	     "$(sed -n 's/^name\t//p' "$L/annotations" | LC_ALL=C sort |
		tr '\n' ' ')"
	note "annotations in the profile: $(val present) present," \
	     "$(val absent) absent (not compiled in, or in dropped code)"
	if [ "$(val absent)" -le 5 ]; then
		grep '^absent-at' "$L/compare" | sed 's/^/    /'
	else
		grep '^absent-in' "$L/compare" | LC_ALL=C sort -t '	' -k 3nr |
			head -n 8 | sed 's/^/    /'
	fi
	[ "$(val outside)" -eq 0 ] ||
		grep '^outside' "$L/compare" | head -n 5 | sed 's/^/    /'
	if [ "$sites" -gt 0 ] && [ "$(val unmatched)" -eq 0 ]; then
		pass "every profiled (file, line) is an annotated line"
	elif [ "$sites" -eq 0 ]; then
		fail "the profile has no site"
	else
		grep '^unmatched' "$L/compare" > "$L/unmatched"
		fail "$(val unmatched) profiled lines are no annotation" \
			"$L/unmatched"
	fi

	# --- report, check ---------------------------------------------------
	if "$LIKELYPROF" report $tool_opts "$prof" > "$L/report" \
		2> "$L/report.err" &&
	   head -n 1 "$L/report" | grep -q '^ correct incorrect  %' &&
	   [ "$(wc -l < "$L/report")" -eq $((sites + 2)) ]; then
		pass "report: the table, $sites rows"
		head -n 6 "$L/report" | sed 's/^/    /'
	else
		cat "$L/report.err" >> "$L/report"
		fail "report" "$L/report"
	fi
	"$LIKELYPROF" check $tool_opts "$prof" > "$L/check" 2>&1
	rc=$?
	check_summary=$(tail -n 1 "$L/check")
	flagged=$(grep -c ': warning: ' "$L/check")
	if [ $rc -le 1 ] && echo "$check_summary" | grep -q '^likelyprof: '
	then
		pass "check (exit $rc): $flagged warnings"
		note "$check_summary"
		grep ': warning: ' "$L/check" | head -n 5 | sed 's/^/    /'
	else
		fail "check exited $rc" "$L/check"
	fi
	"$LIKELYPROF" check $tool_opts --src "$W/instr" --all --format json \
		"$prof" > "$L/check-src" 2> "$L/check-src.err"
	rc=$?
	grep '"verdict": "\(remove\|flip\)"' "$L/check-src" \
		> "$L/check-src.flagged"
	grep '"not_found"' "$L/check-src.flagged" > "$L/check-src.lost"
	if [ $rc -gt 1 ]; then
		cat "$L/check-src.err" >> "$L/check-src"
		fail "check --src exited $rc" "$L/check-src"
	elif [ "$(wc -l < "$L/check-src.flagged")" -ne "$flagged" ]; then
		n=$(wc -l < "$L/check-src.flagged")
		fail "check --src flags $n sites, check $flagged" \
			"$L/check-src"
	elif [ -s "$L/check-src.lost" ]; then
		fail "check --src cannot place $(wc -l < \
			"$L/check-src.lost") of its $flagged sites in the tree" \
			"$L/check-src.lost"
	else
		pass "check --src places its $flagged sites in the tree"
	fi
	# the sites not flagged too (sqlite's ALWAYS, NEVER: only with its
	# tool_opts); a site of code that never ran may stay unplaced
	note "check --src --all: $(grep -c '"verdict"' "$L/check-src") sites," \
	     "$(grep -c '"not_found"' "$L/check-src") of them not found"
	# Placed in the tree, the copies of one annotation are one site
	# (likelyprof-check.md, "The verdicts"): one hint of one line must
	# not be judged twice.
	# file, line, function and condition of each site the JSON lists
	q='"\([^"]*\)"'
	str='"\([^"\\]\|\\.\)*"'
	pat="^ *{\"file\": $q, \"line\": \([0-9]*\), \"function\": $q,"
	pat="$pat.*\"condition\": \(null\|$str\).*"
	sed -n "s/$pat/\1	\2	\3	\4/p" "$L/check-src" |
		sed "s|^$W/instr/||" |
		awk -f "$HERE/twice.awk" > "$L/check-twice"
	if [ -s "$L/check-twice" ]; then
		n=$(wc -l < "$L/check-twice")
		fail "check --src judges $n annotations more than once" \
			"$L/check-twice"
	else
		pass "check --src judges each annotation once"
	fi

	# --- fix: the series, applied to a git copy, built, run --------------
	# The default policy's series, and a stress series (--flip-at 50
	# --remove-at 5 --min-hits 100) that rewrites many more of the
	# project's spellings, flips included; each is applied to its own
	# copy, which must build and pass the workload.
	series=$W/runs/fixes.mbox
	make_series "$series" "$L/fix.err" || return
	npatches=$nseries
	if [ "$npatches" -eq 0 ] && [ "$flagged" -gt 0 ]; then
		fail "check flagged $flagged sites, fix wrote no patch" \
			"$L/fix.err"
	else
		pass "fix: $npatches patches ($nrefused sites refused)"
		grep '^Subject:' "$series" | head -n 5 | sed 's/^/    /'
	fi
	[ "$nrefused" -eq 0 ] || sed -n '1,5s/^/    /p' "$L/fix.err"
	fixed_ratio="-"
	if [ "$npatches" -gt 0 ]; then
		apply_series fixed "$series" || return
		fixed_ratio=$(ratio "$cpu" "$plain_cpu")
	fi
	stress=$W/runs/stress.mbox
	make_series "$stress" "$L/fix-stress.err" $STRESS || return
	nstress=$nseries
	note "stress series ($STRESS): $nstress patches," \
	     "$nrefused sites refused"
	[ "$nrefused" -eq 0 ] || sed -n '1,5s/^/    /p' "$L/fix-stress.err"
	if [ "$nstress" -gt 0 ] && ! cmp -s "$W/runs/fixes.diff" \
			"$W/runs/stress.diff"; then
		apply_series stress "$stress" || return
	elif [ "$nstress" -gt 0 ]; then
		note "stress series: the same changes as the default one"
	fi
	[ "${all_branches:-no}" = yes ] && all_branches_steps
}

# all_branches_steps: the project built again with
# -DLIKELYPROF_ALL_BRANCHES, so every if is counted too; it must build
# with no warning added, give the plain build's outputs, count if sites
# besides the hints, and check must read it.
all_branches_steps() {
	LP_REAL_CC="$LIKELYPROF cc -DLIKELYPROF_ALL_BRANCHES"
	fresh_copy "$W/pristine" "$W/allbr"
	if ! run_build "$W/allbr" "$L/build-allbr.log"; then
		fail "all branches: the build" "$L/build-allbr.log"
		return
	fi
	warnings "$L/build-allbr.log" > "$L/warnings-allbr"
	comm -13 "$L/warnings-plain" "$L/warnings-allbr" \
		> "$L/warnings-allbr-added"
	if [ -s "$L/warnings-allbr-added" ]; then
		fail "all branches: $(wc -l < "$L/warnings-allbr-added") warnings added" \
		     "$L/warnings-allbr-added"
	else
		pass "all branches: built, no warning added ($secs s)"
	fi
	ab_prof=$W/runs/allbr.lprof
	if ! run_workload "$W/allbr" "$W/runs/allbr" "$ab_prof"; then
		fail "all branches: the workload" "$W/runs/allbr/stderr"
		return
	fi
	if same_outputs "$W/runs/plain/out" "$W/runs/allbr/out" \
			"$L/outputs-allbr.diff"; then
		ab_ratio=$(ratio "$cpu" "$plain_cpu")
		pass "all branches: outputs byte-identical (${wall} s, x$ab_ratio cpu)"
	else
		fail "all branches: outputs differ" "$L/outputs-allbr.diff"
	fi
	nif=$(awk -F'\t' '$1 == "site" && $5 == "if"' "$ab_prof" | wc -l)
	nhint=$(awk -F'\t' '$1 == "site" && $5 != "if"' "$ab_prof" | wc -l)
	if [ "$nif" -gt 0 ] && [ "$nhint" -eq "$sites" ]; then
		pass "all branches: $nif if sites, and the $nhint hints of the plain profile"
	else
		fail "all branches: $nif if sites, $nhint hints (want $sites)" \
		     "$W/runs/allbr/stderr"
	fi
	"$LIKELYPROF" check $tool_opts "$ab_prof" > "$L/check-allbr" 2>&1
	rc=$?
	if [ $rc -le 1 ] && tail -n 1 "$L/check-allbr" |
			grep -q 'unannotated branches could take a hint$'; then
		pass "all branches: check (exit $rc): $(grep -c \
		     'likelyprof-suggest' "$L/check-allbr") suggestions"
		grep 'likelyprof-suggest' "$L/check-allbr" | head -n 3 |
			cut -c 1-150 | sed 's/^/    /'
	else
		fail "all branches: check exited $rc" "$L/check-allbr"
	fi
}

# test_project NAME: every step, then the project's summary line (also
# when a step failed early: what is not known is "-").
test_project() {
	name=$1
	failed_here=0
	t_project=$(now)
	for v in sites evals flagged npatches nstress plain_wall instr_wall \
		 plain_cpu instr_cpu fixed_ratio plain_build_secs \
		 instr_build_secs present annotations; do
		eval "$v=-"
	done
	headline=
	project_steps
	line=$(printf '%s: %s sites (%s of %s annotations), %s evaluations,' \
		"$name" "$sites" "$present" "$annotations" "$evals")
	line="$line $flagged flagged, $npatches patches ($nstress stress);"
	line="$line workload"
	line="$line ${plain_wall}s plain, ${instr_wall}s likelyprof"
	line="$line (x$(ratio "$instr_wall" "$plain_wall") wall,"
	line="$line x$(ratio "$instr_cpu" "$plain_cpu") cpu;"
	line="$line patched x$fixed_ratio cpu); build"
	line="$line ${plain_build_secs}s/${instr_build_secs}s;"
	line="$line $(elapsed "$t_project")s in all"
	[ $failed_here -eq 0 ] || line="$line; FAILED"
	[ -z "$headline" ] || line=$headline
	summary="$summary$line
"
}

t_all=$(now)
for p in ${*:-$ALL_PROJECTS}; do
	test_project "$p"
done
echo
echo "== summary ($(elapsed "$t_all") s)"
printf '%s' "$summary"
rm -f "$APT_DIR/failed.$$"
skipped=
[ "$nskip" -eq 0 ] || skipped=", $nskip skipped"
echo "check-real: $npass passed, $nfail failed$skipped"
[ $nfail -eq 0 ]
