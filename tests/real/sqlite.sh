# sqlite.sh - sqlite for tests/real/run.sh; sourced, not run.
#
# Debian's source is sqlite's canonical tree; what its users compile is
# the amalgamation, sqlite3.c, and the shell's shell.c, which its
# Makefile generates with tclsh (tool/mksqlite3c.tcl).  prepare makes
# them once in the upstream tree, so that every copy (the builds, and the
# git copies that fix patches) has them: the profile, check and fix speak
# of sqlite3.c.  sqlite defines its hints away, likely(X) and unlikely(X)
# as (X), and so are ALWAYS(X) and NEVER(X) in a release build (a
# condition that is always true, never true): the instrumented build
# names them to `likelyprof cc --hint-macro`, and check, fix and report
# are told the same names.  The workload: an SQL script through the shell
# (its output, a .dump and a CSV export compared), and sqlite's own
# speedtest1 with --verify (its results' hash compared, its times taken
# out).  No hint of sqlite's is wrong on it: check flags none, fix writes
# no patch.

pkg=sqlite3
# the amalgamation, the shell, and speedtest1 are all the build compiles
annot_dirs="sqlite3.c sqlite3.h shell.c test/speedtest1.c"
# the commands prepare needs (COMMAND:APT-PACKAGE)
needs="tclsh:tcl"
# the hints sqlite defines away, NAME[=DIRECTION]: the instrumented build
# names them to cc, and check, fix and report are told the same
hint_macros="likely unlikely ALWAYS NEVER=0"
hint_opts=$(for m in $hint_macros; do printf ' --hint-macro %s' "$m"; done)
hint_opts=${hint_opts# }
tool_opts=$hint_opts

# prepare: in the upstream tree, once: the amalgamation and shell.c,
# configured and made in a folder of their own that is then removed.
prepare() {
	mkdir bld && cd bld &&
	../configure --disable-tcl &&
	make -j"$JOBS" sqlite3.c shell.c &&
	cp sqlite3.c sqlite3.h shell.c .. &&
	cd .. && rm -rf bld
}

# build: the shell and speedtest1 on one sqlite3.o; the hint macros only
# for the instrumented build (LP_REAL_CC set).
build() {
	make -f - -j"$JOBS" CC="${LP_REAL_CC:-cc}${LP_REAL_CC:+ $hint_opts}" \
		<< 'EOF'
CFLAGS = -O2 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I.
all: sqlite3 speedtest1
sqlite3: shell.o sqlite3.o
	$(CC) -o $@ shell.o sqlite3.o -lm
speedtest1: speedtest1.o sqlite3.o
	$(CC) -o $@ speedtest1.o sqlite3.o -lm
speedtest1.o: test/speedtest1.c sqlite3.h
	$(CC) $(CFLAGS) -c -o $@ test/speedtest1.c
sqlite3.o: sqlite3.c
shell.o: shell.c sqlite3.h
EOF
}

# script: the SQL the shell runs; the inserts of a few thousand rows are
# single statements in one transaction, as an application writes them.
script() {
	cat << 'EOF'
.bail on
.headers on
CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT NOT NULL,
	city TEXT, joined INTEGER);
CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT UNIQUE, price REAL);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER
	REFERENCES customer, item INTEGER REFERENCES item, qty INTEGER,
	day INTEGER, note TEXT);
BEGIN;
EOF
	awk 'BEGIN {
		split("Lyon Oslo Quito Perth Accra Lima Kyiv Turku", city)
		for (i = 1; i <= 1500; i++)
			printf "INSERT INTO customer VALUES(%d, %s, %s, %d);\n",
				i, "'\''customer " (i * 7919) % 10007 "'\''",
				"'\''" city[i % 8 + 1] "'\''", 2000 + i % 23
		for (i = 1; i <= 300; i++)
			printf "INSERT INTO item(label, price) " \
				"VALUES('\''item %d'\'', %d.%02d);\n",
				i, (i * 37) % 200, (i * 13) % 100
		x = 1
		for (i = 1; i <= 6000; i++) {
			c = draw() % 1500 + 1
			t = draw() % 300 + 1
			d = draw()
			printf "INSERT INTO orders(customer, item, qty, day, " \
				"note) VALUES(%d, %d, %d, %d, %s);\n",
				c, t, d % 9 + 1, d % 365,
				(d % 5 ? "NULL" : "'\''rush'\''")
		}
	}
	# a generator of its own: the same numbers in every awk
	function draw() {
		x = (x * 69069 + 1) % 4294967296
		return int(x / 65536)
	}'
	cat << 'EOF'
COMMIT;
CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_day ON orders(day, qty);
CREATE INDEX customer_city ON customer(city, joined);
ANALYZE;
SELECT count(*), sum(qty), min(day), max(day) FROM orders;
SELECT c.city, count(*) AS n, sum(o.qty * i.price) AS total
	FROM orders o JOIN customer c ON c.id = o.customer
	JOIN item i ON i.id = o.item
	GROUP BY c.city ORDER BY total DESC;
SELECT day, count(*), sum(qty) FROM orders WHERE day BETWEEN 100 AND 130
	GROUP BY day ORDER BY day;
SELECT c.name, count(o.id) AS n FROM customer c
	LEFT JOIN orders o ON o.customer = c.id
	GROUP BY c.id HAVING n = 0 OR n > 9 ORDER BY n DESC, c.name LIMIT 20;
SELECT i.label, sum(o.qty) AS q FROM item i JOIN orders o ON o.item = i.id
	WHERE o.note IS NOT NULL GROUP BY i.id ORDER BY q DESC, i.label
	LIMIT 10;
WITH spend AS (SELECT customer, sum(qty) AS q FROM orders GROUP BY customer)
SELECT city, joined, count(*), max(q) FROM customer
	JOIN spend ON spend.customer = customer.id
	WHERE city > 'L' GROUP BY city, joined ORDER BY city, joined;
SELECT name, row_number() OVER (PARTITION BY city ORDER BY name) AS r
	FROM customer WHERE joined = 2010 ORDER BY city, r LIMIT 30;
UPDATE orders SET qty = qty + 1 WHERE day % 7 = 0;
UPDATE customer SET city = upper(city) WHERE id % 13 = 0;
DELETE FROM orders WHERE customer IN (SELECT id FROM customer
	WHERE joined = 2003);
DELETE FROM item WHERE id NOT IN (SELECT item FROM orders);
SELECT count(*), sum(qty), total(day) FROM orders;
SELECT city, count(*) FROM customer GROUP BY city ORDER BY city;
SELECT count(*) FROM item;
SELECT group_concat(id, ',') FROM (SELECT id FROM orders
	WHERE day BETWEEN 200 AND 201 ORDER BY id);
PRAGMA integrity_check;
VACUUM;
SELECT count(*) FROM orders o WHERE EXISTS (SELECT 1 FROM orders p
	WHERE p.customer = o.customer AND p.day = o.day AND p.id <> o.id);
EOF
}

# workload OUT LOG: the shell's output, a dump and a CSV export of its
# database, and speedtest1's results (times taken out) go to OUT.
workload() {
	out=$1
	log=$2
	script > "$log/script.sql" || return 1
	rm -f "$log/shell.db"
	./sqlite3 "$log/shell.db" < "$log/script.sql" > "$out/shell.txt" ||
		return 1
	./sqlite3 "$log/shell.db" .dump > "$out/dump.sql" &&
	./sqlite3 -csv "$log/shell.db" 'SELECT * FROM orders ORDER BY id' \
		> "$out/orders.csv" || return 1
	# the CSV imported back into a table of the same columns
	printf '%s\n' 'CREATE TABLE again AS SELECT * FROM orders WHERE 0;' \
		".import --csv $out/orders.csv again" \
		'SELECT count(*), total(qty * day) FROM again;' \
		'SELECT count(*), total(qty * day) FROM orders;' |
		./sqlite3 -bail "$log/shell.db" > "$out/import.txt" || return 1
	for set in "main --size 100" \
		   "main --size 10 --without-rowid --utf16le" \
		   "orm" "cte" "fp --size 50"; do
		f=$(echo "$set" | tr -d -- '-' | tr ' ' '_')
		rm -f "$log/st.db"
		./speedtest1 --verify --testset $set "$log/st.db" \
			> "$log/$f" || return 1
		sed 's/ *[0-9][0-9]*\.[0-9]*s$//' "$log/$f" > "$out/$f"
	done
}
