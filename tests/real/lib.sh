# lib.sh - helpers of tests/real/run.sh; sourced, not run.
#
# Every project goes through the same steps (run.sh: test_project); what
# differs, how to build and what workload to run, is in tests/real/NAME.sh.

# --- results ---------------------------------------------------------------

# pass WHAT, fail WHAT [LOG]: one line per check; a failure shows the tail
# of the log that explains it.
pass() {
	npass=$((npass + 1))
	echo "  ok:   $1"
}

fail() {
	nfail=$((nfail + 1))
	failed_here=1
	echo "  FAIL: $1"
	if [ -n "${2:-}" ] && [ -f "$2" ]; then
		echo "  ---- last lines of $2:"
		tail -n "${LP_REAL_TAIL:-25}" "$2" | sed 's/^/  | /'
		echo "  ----"
	fi
}

note() {
	echo "  $*"
}

# skip WHAT: a project that cannot be tested here (scnlib without its
# source); neither passed nor failed.
skip() {
	nskip=$((nskip + 1))
	echo "  skip: $*"
}

# --- time -------------------------------------------------------------------

# Seconds since the epoch, with nanoseconds where date(1) has them.
now() {
	date +%s.%N 2>/dev/null | sed 's/\.N$//; s/\.$//'
}

# elapsed START: seconds since START, three decimals.
elapsed() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'
}

# phase WHAT: says on stderr what the run is doing now and how long the
# project has taken so far, on a terminal or with LP_REAL_PROGRESS=1:
# a build or workload can take minutes, and the ok/FAIL lines come after.
phase() {
	if [ -t 2 ] || [ -n "${LP_REAL_PROGRESS:-}" ]; then
		echo "  ..    $name: $1 ($(awk -v a="${t_project:-0}" \
			-v b="$(now)" 'BEGIN { printf "%d", b - a }') s so far)" >&2
	fi
}

# ratio A B: A / B, two decimals ("-" when either is not a time).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0)
			printf "%.2f", a / b
		else
			printf "-"
	}'
}

# --- fetching ---------------------------------------------------------------

# apt-get with a private state: our own sources.list with a deb-src line for
# the machine's release, our own lists and cache; /etc/apt is only read.
apt_private() {
	apt-get -q -o Dir::Etc::SourceList="$APT_DIR/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$APT_DIR/lists" \
		-o Dir::State::status=/dev/null \
		-o Dir::Cache="$APT_DIR/cache" \
		-o APT::Sandbox::User=root "$@"
}

# The deb-src line: the first Debian mirror and release of the machine's
# own apt sources (one-line or deb822 form, security archives skipped),
# else Debian's main mirror and the release os-release names.
deb_src_line() {
	found=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
		# one-line form: deb [options] URI SUITE COMPONENTS...
		$1 == "deb" {
			i = 2
			if ($i ~ /^\[/)
				while ($i !~ /\]$/ && i < NF)
					i++
			if ($i ~ /^\[/ || $i ~ /\]$/)
				i++
			keep($i, $(i + 1))
		}
		# deb822 form: stanzas of Types, URIs, Suites
		/^Types:/ { deb = / deb( |$)/ }
		/^URIs:/ { uri = $2 }
		/^Suites:/ { suite = $2 }
		/^[ \t]*$/ { if (deb) keep(uri, suite); deb = 0 }
		END { if (deb) keep(uri, suite) }
		function keep(u, s) {
			if (!done && u ~ /^http.*\/debian\/?$/ && s != "") {
				print u, s
				done = 1
			}
		}')
	uri=${found% *}
	suite=${found#* }
	if [ -z "$found" ]; then
		uri=http://deb.debian.org/debian
		suite=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release \
			2>/dev/null)
	fi
	[ -n "$suite" ] || return 1
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	if [ -f "$key" ]; then
		echo "deb-src [signed-by=$key] $uri $suite main"
	else
		echo "deb-src $uri $suite main"
	fi
}

# apt_update LOG: the package lists, fetched once and kept.  A failure is
# remembered for the rest of this run ($$ is the run's shell, also in
# subshells), so that each project fails at once.
apt_update() {
	if [ -f "$APT_DIR/failed.$$" ]; then
		cat "$APT_DIR/failed.$$" > "$1"
		return 1
	fi
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	line=$(deb_src_line) || {
		echo "cannot tell this machine's Debian release" > "$1"
		return 1
	}
	echo "$line" > "$APT_DIR/sources.list"
	apt_private update > "$1" 2>&1
	rc=$?
	# apt-get update exits 0 when a list could not be fetched
	if [ $rc -ne 0 ] || grep -q '^\(E\|Err\):' "$1"; then
		cp "$1" "$APT_DIR/failed.$$"
		return 1
	fi
}

# why LOG: the line of an apt log that says what went wrong.
why() {
	grep -i 'could not\|failed\|unable\|^E:\|denied\|not found' "$1" \
		2>/dev/null | grep -v '^W: Some index' | head -n 1 |
		sed 's/^[ \t]*//'
}

# fetch PKG LOG: downloads the source package into $SRC_DIR once; prints
# the path of its upstream tarball.
fetch() {
	orig=$(ls "$SRC_DIR/$1"_*.orig.tar.* 2>/dev/null |
	       grep -v '\.asc$' | tail -n 1)
	if [ -n "$orig" ]; then
		echo "$orig"
		return 0
	fi
	command -v apt-get >/dev/null 2>&1 || {
		echo "apt-get not found" > "$2"
		return 1
	}
	if ! ls "$APT_DIR"/lists/*Sources* >/dev/null 2>&1; then
		apt_update "$2" || return 1
	fi
	mkdir -p "$SRC_DIR"
	if ! (cd "$SRC_DIR" && apt_private source --download-only "$1") \
	     >> "$2" 2>&1; then
		# old lists may name a version the mirror no longer has
		apt_update "$2.update" || { cat "$2.update" >> "$2"; return 1; }
		(cd "$SRC_DIR" && apt_private source --download-only "$1") \
			>> "$2" 2>&1 || return 1
	fi
	orig=$(ls "$SRC_DIR/$1"_*.orig.tar.* 2>/dev/null |
	       grep -v '\.asc$' | tail -n 1)
	[ -n "$orig" ] || return 1
	echo "$orig"
}

# unpack TARBALL DIR: the upstream tree, its one top folder becoming DIR;
# a tarball with no top folder (luajit's: COPYRIGHT, Makefile, src/...)
# is the tree itself.
unpack() {
	rm -rf "$2" "$2.tmp"
	mkdir -p "$2.tmp" &&
	# as root, tar would keep the archive's owners, and git refuses to
	# work in a tree that another user owns
	tar --no-same-owner -xf "$1" -C "$2.tmp" || return 1
	set -- "$2" "$2.tmp"/*
	if [ $# -eq 2 ] && [ -d "$2" ]; then
		mv "$2" "$1" && rmdir "$1.tmp"
	else
		[ -e "$2" ] && mv "$1.tmp" "$1"
	fi
}

# --- sources that are no Debian package --------------------------------------

# local_source_key SRC: what names the contents of SRC (a git directory,
# bare or a work tree's .git: its HEAD commit; a tree: its files' sizes
# and times; a tarball: its size and time), so that a kept tree and plain
# build are made again when it changes; fails when SRC is none of these.
local_source_key() {
	if git_dir "$1"; then
		echo "git $(git --git-dir="$1" rev-parse HEAD)"
	elif [ -d "$1" ]; then
		echo "tree $(cd "$1" && find . -type f ! -path './.git/*' \
			-printf '%s %T@ %p\n' | LC_ALL=C sort | cksum)"
	elif [ -f "$1" ]; then
		echo "tarball $(ls -l --time-style=+%s "$1" | cksum)"
	else
		return 1
	fi
}

# git_dir DIR: DIR is a git directory (HEAD and objects in it).
git_dir() {
	[ -f "$1/HEAD" ] && [ -d "$1/objects" ]
}

# local_source SRC DIR: SRC's tree in DIR: a git directory's HEAD (git
# archive), a tree copied (without its .git), or a tarball unpacked.
local_source() {
	rm -rf "$2"
	if git_dir "$1"; then
		mkdir -p "$2" &&
		git --git-dir="$1" archive HEAD | tar --no-same-owner -xf - -C "$2"
	elif [ -d "$1" ]; then
		mkdir -p "$2" &&
		(cd "$1" && tar -cf - --exclude=./.git .) |
			tar --no-same-owner -xf - -C "$2"
	else
		unpack "$1" "$2"
	fi
}

# --- builds and workloads --------------------------------------------------

# is_function NAME: NAME is a shell function (NAME.sh's optional prepare),
# not a command of the same name.
is_function() {
	type "$1" 2>/dev/null | grep -q 'function'
}

# warnings LOG: the distinct warnings of a build log, for comparing builds.
warnings() {
	grep 'warning:' "$1" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' |
		sed 's/^.*\(warning:.*\)$/\1/' | sort -u
}

# diagnostics LOG TREE: every diagnostic line of a build log (warnings,
# errors, notes and the context lines that head them), TREE's path taken
# out and sorted but not made unique: two builds have the same ones, none
# lost and none doubled, when these are equal.  Sorted because a parallel
# build interleaves its compilers' output in any order; the runs of lines
# of one file stay the compiler's own.  likelyprof's own lines are not the
# compiler's.
diagnostics() {
	sed 's/\x1b\[[0-9;]*m//g' "$1" 2>/dev/null |
		grep -v '^likelyprof: ' |
		grep -E ': (fatal error|error|warning|note):|: In (function|member function|static member function|constructor|destructor|instantiation of|lambda function)|^In file included from|^ +from |required from|: At (global|top level)' |
		sed "s|$2/||g" | LC_ALL=C sort
}

# same_outputs DIR1 DIR2 LOG: every file of one folder is in the other,
# byte for byte.
same_outputs() {
	(cd "$1" && find . -type f | sort) > "$3.a"
	(cd "$2" && find . -type f | sort) > "$3.b"
	if ! cmp -s "$3.a" "$3.b"; then
		echo "the two folders hold different files:" > "$3"
		diff "$3.a" "$3.b" >> "$3"
		return 1
	fi
	: > "$3"
	while read -r f; do
		cmp "$1/$f" "$2/$f" >> "$3" 2>&1
	done < "$3.a"
	[ ! -s "$3" ] || return 1
	[ -s "$3.a" ] || { echo "no output at all" > "$3"; return 1; }
}
