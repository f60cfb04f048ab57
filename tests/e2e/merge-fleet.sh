#!/bin/sh
# merge-fleet.sh - 10,000 profiles merged three ways give the same sums,
# in memory that does not grow with their number.
#
# awk writes 10,000 small profiles (100 records each, from a pool of 120
# keys, each profile without some of them, one key twice in every
# profile so that records pair by their order, counts that differ per
# profile).  Checked:
#   - one `merge` call of the folder (more inputs than may be open at
#     once under `ulimit -n 1024`: merged 256 at a time through
#     temporary files) and a tree of
#     calls (100 merges of 100 inputs from --files-from lists, then one
#     of the 100 results) write the same bytes, and leave no temporary
#     file behind;
#   - the query of doc/likelyprof-merge.md, run by sqlite3 over the same
#     rows, gives exactly the records of the merge (key, k-th record of
#     the key, sums);
#   - the peak resident memory of merging 10,000 inputs is at most 1.5
#     times that of merging 1,000 of them (/usr/bin/time -v), where
#     reading them whole would take ten times as much (not under the
#     sanitizers, whose quarantine keeps freed memory).
. "$(dirname "$0")/lib.sh"

N=10000
cd "$SCRATCH" || exit 2
mkdir fleet || exit 2
awk -v n="$N" 'BEGIN {
	for (i = 1; i <= n; i++) {
		f = sprintf("fleet/p%05d.lprof", i)
		printf "likelyprof-profile\t1\nmeta\thost\tbox%d\n", i > f
		nr = 0
		for (j = 0; j < 120 && nr < 100; j++) {
			if ((i * 7 + j) % 6 == 0)
				continue
			c = (i * 31 + j * 17) % 100000
			w = (i * 13 + j * 7) % 997
			line = sprintf("site\t%d\t%d\t%d\t1\tf%02d.c\t%d\tfn%d\tf%02d.c\tc%d\n", \
				c, w, j % 3, int(j / 10), j % 10 + 1, j, int(j / 10), j)
			printf "%s", line > f
			nr++
			# the same key once more: paired by order
			if (j == 5) {
				printf "site\t%d\t%d\t0\t1\tf%02d.c\t%d\tfn%d\tf%02d.c\tc%d\n", \
					i, 2 * i, int(j / 10), j % 10 + 1, j, \
					int(j / 10), j > f
				nr++
			}
		}
		printf "end\t%d\n", nr > f
		close(f)
	}
}' || exit 2

# --- one call, and a tree of calls
# the default limit of open files: 10,000 inputs must merge under it
ulimit -n 1024 2>/dev/null
"$LIKELYPROF" merge -o one.lprof fleet || fail "merge of the folder failed"
ls fleet | sed 's|^|fleet/|' > all.list
split -l 100 -d -a 3 all.list part. || exit 2
for l in part.*; do
	"$LIKELYPROF" merge -o "$l.lprof" --files-from "$l" ||
		fail "merge of $l failed"
done
"$LIKELYPROF" merge -o tree.lprof part.*.lprof || fail "merge of the tree"
cmp -s one.lprof tree.lprof ||
	fail "one merge and a tree of merges differ: $(cmp one.lprof tree.lprof)"
grep -q "^meta	merged	$N\$" one.lprof || fail "merged is not $N"
left=$(ls -A . fleet | grep -c 'likelyprof-merge')
[ "$left" = 0 ] || fail "$left temporary files left"

# --- the SQLite query over the same rows
if command -v sqlite3 >/dev/null 2>&1; then
	# src, file, line, function, expect, correct, incorrect, constant,
	# condition: the columns of the CSV, from the profiles' records
	awk -F'\t' -v OFS='\t' '$1 == "site" {
		print FILENAME, $6, $7, $8, $5, $2, $3, $4, $10 }' \
		fleet/*.lprof > rows.tsv
	awk -F'\t' -v OFS='\t' '$1 == "site" {
		key = $6 SUBSEP $7 SUBSEP $8 SUBSEP $5 SUBSEP $10
		print $6, $7, $8, $5, $10, ++k[key], $2, $3, $4 }' \
		one.lprof > merged.tsv
	query=$(sed -n '/^-- merge, in SQL$/,/^-- end$/p' \
		"$ROOT/doc/likelyprof-merge.md" | sed -n '/^WITH/,/;$/p')
	{
		sed -n '/^CREATE TABLE rows/,/;$/p' \
			"$ROOT/doc/likelyprof-merge.md"
		cat <<SQL
CREATE TABLE m(file, line INTEGER, function, expect, condition,
               k INTEGER, correct INTEGER, incorrect INTEGER,
               constant INTEGER);
.mode tabs
.import rows.tsv rows
.import merged.tsv m
CREATE TABLE q AS
$query
SELECT 'rows', (SELECT count(*) FROM q), (SELECT count(*) FROM m);
SELECT 'differ', (SELECT count(*) FROM (SELECT * FROM q EXCEPT
                                        SELECT * FROM m)) +
                 (SELECT count(*) FROM (SELECT * FROM m EXCEPT
                                        SELECT * FROM q));
SQL
	} > check.sql
	sqlite3 -batch fleet.db < check.sql > result 2> err ||
		fail "sqlite3 failed: $(head -n 3 err)"
	rows=$(sed -n 's/^rows	//p' result)
	[ -n "$rows" ] && [ "${rows%	*}" = "${rows#*	}" ] &&
		[ "${rows%	*}" -gt 100 ] || fail "rows: '$rows'"
	grep -qx "differ	0" result ||
		fail "the query and merge differ: $(grep differ result)"
	note "sqlite3: $rows rows, the same"
else
	fail "no sqlite3 command (apt-get install sqlite3)"
fi

# --- memory: 1,000 inputs and 10,000
peak() {
	/usr/bin/time -v "$LIKELYPROF" merge -o peak.lprof "$@" 2> time.out ||
		fail "merge $*: $(grep -v '^	' time.out | head -n 2)"
	sed -n 's/^	Maximum resident set size (kbytes): //p' time.out
}
if [ -n "$LP_SANITIZE" ]; then
	# the sanitizer's shadow and quarantine of freed memory are its RSS
	note "sanitized build: memory not checked"
elif /usr/bin/time -v true 2>/dev/null; then
	head -n 1000 all.list > thousand.list
	small=$(peak --files-from thousand.list)
	big=$(peak fleet)
	note "peak memory: $small KiB for 1,000 inputs, $big KiB for $N"
	[ -n "$small" ] && [ -n "$big" ] &&
		[ "$big" -le $((small * 3 / 2)) ] ||
		fail "peak memory grows with the inputs: $small KiB, $big KiB"
else
	note "no GNU /usr/bin/time: memory not checked"
fi
finish
