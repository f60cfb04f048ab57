#!/bin/sh
# install.sh - make install PREFIX=... DESTDIR=... puts the command, the
# header, both runtimes, pkg-config data, the docs and the bash and zsh
# completion in place (the bash one completes from the installed
# command); the
# installed command finds its header and runtime from where it is and
# builds and profiles a program; make uninstall removes it all.
. "$(dirname "$0")/lib.sh"

dest=$SCRATCH/dest
prefix=/opt/lp
# a sanitized build would need its runtime at install time too: the plain
# tree is what gets installed, with none of the flags of the make that
# runs this test (MAKEFLAGS carries its command-line CFLAGS)
plain_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u LDFLAGS \
		make -s -C "$ROOT" OUT=. OBJ=build/obj "$@"
}
plain_make install PREFIX=$prefix DESTDIR="$dest" \
	> "$SCRATCH/install.log" 2>&1 || { fail "make install failed"; cat "$SCRATCH/install.log"; finish; }
for f in bin/likelyprof include/likelyprof.h lib/liblikelyprof.a \
	 lib/liblikelyprof.so lib/liblikelyprof.so.0 \
	 lib/pkgconfig/likelyprof.pc share/doc/likelyprof/FORMAT.md \
	 share/doc/likelyprof/README.md \
	 share/bash-completion/completions/likelyprof \
	 share/zsh/site-functions/_likelyprof; do
	[ -e "$dest$prefix/$f" ] || fail "not installed: $prefix/$f"
done
grep -q "^libdir=$prefix/lib$" "$dest$prefix/lib/pkgconfig/likelyprof.pc" ||
	fail "likelyprof.pc: wrong libdir"
grep -q "^Version: [0-9]*\.[0-9]*\.[0-9]*$" "$dest$prefix/lib/pkgconfig/likelyprof.pc" ||
	fail "likelyprof.pc: no version"

# A man page per page of doc/, which man finds and groff reads without a
# warning, and which names every option the command's --help names.
man1="$dest$prefix/share/man/man1"
# and one for every name installed in bin/: likelyprof-c++ is cc's page
for b in "$dest$prefix"/bin/*; do
	n=$(basename "$b")
	[ -f "$man1/$n.1" ] || fail "no man page for the installed $n"
done
MANWIDTH=100 man -M "$dest$prefix/share/man" likelyprof-c++ 2>/dev/null |
	grep -q 'likelyprof c++' || fail "man likelyprof-c++ shows no page"
for md in "$ROOT"/doc/likelyprof*.md; do
	page=$(basename "$md" .md)
	[ -f "$man1/$page.1" ] || { fail "no man page: $page.1"; continue; }
	# -z has pages of 11 inches, man one long page: a table longer
	# than 11 inches is no fault
	w=$(groff -man -t -Tutf8 -ww -Wbreak -z "$man1/$page.1" 2>&1 |
	    grep -v 'table text block will not fit on one page')
	[ -z "$w" ] || fail "$page.1: groff: $w"
	cmd=${page#likelyprof-}
	[ "$cmd" = likelyprof ] && continue
	for opt in $("$ROOT/likelyprof" "$cmd" --help 2>/dev/null |
		     grep -o -- '--[a-z][-a-z]*' | sort -u); do
		MANWIDTH=200 man -l "$man1/$page.1" 2>/dev/null |
			grep -q -- "$opt" || fail "$page.1 lacks $opt of --help"
	done
done
if command -v man >/dev/null 2>&1; then
	out=$(MANPATH="$dest$prefix/share/man" MANWIDTH=80 man likelyprof-check 2>&1)
	echo "$out" | grep -q "^SYNOPSIS" || fail "man likelyprof-check: $out"
	echo "$out" | grep -q "likelyprof check \[--flip-at PCT\]" ||
		fail "man likelyprof-check: no synopsis"
fi

# the installed bash completion, asking the installed command
if command -v bash > /dev/null 2>&1; then
	got=$(bash -c '. "$1/share/bash-completion/completions/likelyprof"
		COMP_WORDS=("$1/bin/likelyprof" report --fo); COMP_CWORD=2
		_likelyprof; echo "${COMPREPLY[*]}"' - "$dest$prefix")
	[ "$got" = --format ] ||
		fail "installed completion of 'report --fo': '$got'"
fi
if command -v zsh > /dev/null 2>&1; then
	zsh -n "$dest$prefix/share/zsh/site-functions/_likelyprof" ||
		fail "_likelyprof: zsh cannot read it"
fi

cd "$SCRATCH" || exit 1
printf 'int main(int c, char **v) { (void)v; return __builtin_expect(c > 1, 0); }\n' > p.c
# no LIKELYPROF_* variables: the installed command must find its own files
env -u LIKELYPROF_INCLUDE_DIR -u LIKELYPROF_LIB_DIR \
	"$dest$prefix/bin/likelyprof" cc p.c -o p || fail "installed cc failed"
env -u LIKELYPROF_INCLUDE_DIR -u LIKELYPROF_LIB_DIR \
	"$dest$prefix/bin/likelyprof" run -- ./p 2> run.err || fail "run failed"
grep -q "1 site" run.err || fail "installed run: $(cat run.err)"

plain_make uninstall PREFIX=$prefix DESTDIR="$dest" \
	> /dev/null 2>&1 || fail "make uninstall failed"
left=$(find "$dest" -type f | head -5)
[ -z "$left" ] || fail "left after uninstall: $left"
finish
