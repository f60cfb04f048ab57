#!/bin/sh
# merge-sqlite.sh - the query of doc/likelyprof-merge.md ("Beyond one
# machine") gives merge's sums, run by the sqlite3 command on the CSV of
# `report --format csv` loaded as it is.
#
# Four generated profiles of one program on four machines (bench/
# gen-profile.c: static inline copies, keys repeated in one profile,
# conditions with commas, quotes and escapes) are each reported as CSV and
# loaded into SQLite with .import.  Checked:
#   - the query's rows (key and sums; report orders the rows of a key by
#     their percent, so they are compared as a multiset rather than by
#     k) are exactly those of `merge` of the four CSVs, reported as CSV
#     and loaded back;
#   - summed per key (all copies of a line together), the query equals
#     `merge` of the four profiles themselves, whose records also have a
#     translation unit that CSV does not carry.
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null 2>&1 ||
	skip "no sqlite3 command (apt-get install sqlite3)"
cd "$SCRATCH" || exit 2
"${LP_TEST_CC:-cc}" -O2 -o gen "$ROOT/bench/gen-profile.c" || exit 2
for m in 1 2 3 4; do
	./gen 3000 "$m" > "box$m.lprof" &&
		"$LIKELYPROF" report --format csv "box$m.lprof" > "box$m.csv" ||
		fail "box $m: no profile or CSV"
done
"$LIKELYPROF" merge -o csv.lprof box1.csv box2.csv box3.csv box4.csv &&
	"$LIKELYPROF" report --format csv csv.lprof > merged-csv.csv ||
	fail "merge of the CSVs failed"
"$LIKELYPROF" merge -o all.lprof box1.lprof box2.lprof box3.lprof \
	box4.lprof && "$LIKELYPROF" report --format csv all.lprof \
	> merged.csv || fail "merge of the profiles failed"

# load NAME CSV: the documented loading, with SRC the input's name
load() {
	cat <<SQL
.import --csv $2 t_$1
INSERT INTO rows SELECT '$1', * FROM t_$1 ORDER BY rowid;
DROP TABLE t_$1;
SQL
}

# The query of doc/likelyprof-merge.md, between its markers
query=$(sed -n '/^-- merge, in SQL$/,/^-- end$/p' \
	"$ROOT/doc/likelyprof-merge.md")
[ -n "$query" ] || fail "no query in doc/likelyprof-merge.md"

{
	sed -n '/^CREATE TABLE rows/,/;$/p' "$ROOT/doc/likelyprof-merge.md"
	for m in 1 2 3 4; do load "box$m" "box$m.csv"; done
	echo "CREATE TABLE q AS"
	echo "$query" | sed -n '/^WITH/,/;$/p'
	load merged merged-csv.csv
	load folded merged.csv
	cat <<'SQL'
CREATE TABLE m AS
SELECT file, line, function, expect, condition, correct, incorrect,
       constant, count(*) AS n
FROM rows WHERE src = 'merged'
GROUP BY file, line, function, expect, condition, correct, incorrect,
         constant;
CREATE TABLE qm AS
SELECT file, line, function, expect, condition, correct, incorrect,
       constant, count(*) AS n
FROM q
GROUP BY file, line, function, expect, condition, correct, incorrect,
         constant;
SELECT 'rows', (SELECT count(*) FROM q),
       (SELECT count(*) FROM rows WHERE src = 'merged');
SELECT 'only in the query',
       (SELECT count(*) FROM (SELECT * FROM qm EXCEPT SELECT * FROM m));
SELECT 'only in merge',
       (SELECT count(*) FROM (SELECT * FROM m EXCEPT SELECT * FROM qm));
CREATE TABLE qf AS
SELECT file, line, function, expect, condition, SUM(correct),
       SUM(incorrect), SUM(constant)
FROM q GROUP BY file, line, function, expect, condition;
CREATE TABLE mf AS
SELECT file, line, function, expect, condition, SUM(correct),
       SUM(incorrect), SUM(constant)
FROM rows WHERE src = 'folded'
GROUP BY file, line, function, expect, condition;
SELECT 'folded keys', (SELECT count(*) FROM qf), (SELECT count(*) FROM mf);
SELECT 'folded, only in the query',
       (SELECT count(*) FROM (SELECT * FROM qf EXCEPT SELECT * FROM mf));
SELECT 'folded, only in merge',
       (SELECT count(*) FROM (SELECT * FROM mf EXCEPT SELECT * FROM qf));
SQL
} > check.sql
sqlite3 -batch -separator ' ' fleet.db < check.sql > result 2> err ||
	fail "sqlite3 failed: $(head -n 3 err)"
[ -s err ] && fail "sqlite3 said: $(head -n 3 err)"
rows=$(sed -n 's/^rows //p' result)
folded=$(sed -n 's/^folded keys //p' result)
n=${rows% *}
[ "${n:-0}" -gt 3000 ] && [ "${rows#* }" = "$n" ] ||
	fail "rows of the query and of merge: '$rows'"
[ "${folded% *}" = "${folded#* }" ] && [ "${folded% *}" -gt 0 ] ||
	fail "keys of the query and of merge: '$folded'"
grep -q "only" result || fail "no comparison made"
if grep "only" result | grep -qv ' 0$'; then
	fail "the query and merge differ:"
	grep "only" result | sed 's/^/    /'
fi
note "$rows rows, $folded keys, compared"
finish
