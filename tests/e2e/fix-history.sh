#!/bin/sh
# fix-history.sh - sites the lines cannot settle are settled by git
#
# A git tree of mm/filemap.c in three revisions:
#   r1  grab_page() has likely(page) at line 20 and unlikely(status) at
#       28: a kernel table (no direction, no condition) is made there;
#   r2  a new unlikely(!mapping) goes in at line 16 and two comment lines
#       below it, so line 20 of the table is now 4 lines from it and 4
#       from likely(page) (24): the lines alone are a tie;
#   r3  someone flips unlikely(status) (now 32) to likely(status).
# Checks, on r3 with its history:
#   - the table's site is placed on likely(page) by mapping line 20 of
#     r1 forward (git log -L, done by fix) and removed;
#   - a table row for unlikely(status) (line 28 of r1) whose verdict is
#     flip is refused: its line changed since the profiled revision;
# and on a copy of r3 without history:
#   - the first site is refused, the reason naming both candidates.
. "$(dirname "$0")/lib.sh"

GIT="git -c user.name=t -c user.email=t@example.com"
T="$SCRATCH/tree"
mkdir -p "$T/mm"

body() {
	# body R2 STATUS_HINT: the file at r1, or with r2's lines
	{
		echo '#include "pagemap.h"'
		i=0; while [ $i -lt 12 ]; do echo; i=$((i + 1)); done
		echo 'struct page *grab_page(struct address_space *mapping, long index)'
		echo '{'
		if [ "$1" = r2 ]; then
			echo '	if (unlikely(!mapping))'
			echo '		return NULL;'
		fi
		echo '	struct page *page;'
		echo '	int status;'
		if [ "$1" = r2 ]; then
			echo '	/* the page cache may hand back a locked page */'
			echo '	/* that another thread is about to free */'
		fi
		echo 'repeat:'
		echo '	page = find_lock_page(mapping, index);'
		echo '	if (likely(page))'
		echo '		return page;'
		echo '	page = page_cache_alloc(mapping);'
		echo '	if (!page)'
		echo '		return NULL;'
		echo '	status = add_to_page_cache(page, mapping, index);'
		echo '	if (status > 0)'
		echo '		status = 0;'
		echo "	if ($2(status)) {"
		echo '		page_cache_release(page);'
		echo '		if (status == -EEXIST)'
		echo '			goto repeat;'
		echo '		return NULL;'
		echo '	}'
		echo '	return page;'
		echo '}'
	} > "$T/mm/filemap.c"
}

body r1 unlikely
line_of() { grep -n "$1" "$T/mm/filemap.c" | cut -d: -f1; }
[ "$(line_of 'likely(page)')" = 20 ] &&
[ "$(line_of 'unlikely(status)')" = 28 ] ||
	fail "r1 is not laid out as this test says"
(cd "$T" && git init -q && git add -A && $GIT commit -q -m "mm: add grab_page")
body r2 unlikely
(cd "$T" && git commit -qam "mm: grab_page takes no NULL mapping")
[ "$(line_of 'unlikely(!mapping)')" = 16 ] &&
[ "$(line_of 'likely(page)')" = 24 ] && [ "$(line_of 'unlikely(status)')" = 32 ] ||
	fail "r2 is not laid out as this test says"
body r2 likely
(cd "$T" && git commit -qam "mm: status is likely")

# the kernel's layout: %8s %8s %3d %-30.30s %-20.20s %d
{
	echo ' correct incorrect  %        Function                  File              Line'
	echo ' ------- ---------  -        --------                  ----              ----'
	printf '%8s %8s %3d %-30.30s %-20.20s %d\n' 1924262 71332401 97 grab_page filemap.c 20
	printf '%8s %8s %3d %-30.30s %-20.20s %d\n' 100 900000 99 grab_page filemap.c 28
} > "$SCRATCH/table.txt"

SOURCE_DATE_EPOCH=0 "$LIKELYPROF" fix --src "$T" "$SCRATCH/table.txt" \
	> "$SCRATCH/series.mbox" 2> "$SCRATCH/fix.err" || fail "fix exited $?"
grep '^[-+]	' "$SCRATCH/series.mbox" > "$SCRATCH/changes"
printf -- '-\tif (likely(page))\n+\tif (page)\n' > "$SCRATCH/expected"
cmp -s "$SCRATCH/expected" "$SCRATCH/changes" ||
	fail "with history: not the expected change: $(cat "$SCRATCH/changes") $(cat "$SCRATCH/fix.err")"
grep -q "filemap.c:28: grab_page(): not changed: line 28 of 'mm/filemap.c' changed since [0-9a-f]* (\"mm: add grab_page\"), where the profile's annotation was; not changing it" \
	"$SCRATCH/fix.err" ||
	fail "the flip of a changed line was not refused: $(cat "$SCRATCH/fix.err")"

# the same tree without its history: the lines alone are a tie
cp -R "$T" "$SCRATCH/plain" && rm -rf "$SCRATCH/plain/.git"
"$LIKELYPROF" fix --src "$SCRATCH/plain" "$SCRATCH/table.txt" \
	> /dev/null 2> "$SCRATCH/plain.err" || fail "fix without history exited $?"
grep -q "filemap.c:20: grab_page(): not changed: two annotations are equally likely: 'mm/filemap.c':16 and 'mm/filemap.c':24" \
	"$SCRATCH/plain.err" ||
	fail "without history the tie was not refused naming both: $(cat "$SCRATCH/plain.err")"
finish
