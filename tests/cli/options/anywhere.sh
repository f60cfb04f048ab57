#!/bin/sh
# Options may come after the operands, with their values apart or after
# '=', as getopt_long() allows; '--' ends them; --version works after
# every subcommand.  Each form must give what the options-first form gives.
seed="$LP_TEST_DATA/seeds/004.txt"
same() {
	if cmp -s a b; then echo "same: $1"; else echo "DIFFERENT: $1"; diff a b; fi
}

"$LIKELYPROF" report --format csv --top 1 "$seed" > a
"$LIKELYPROF" report "$seed" --format csv --top 1 > b
same "report FILE --format csv --top 1"
"$LIKELYPROF" report "$seed" --format=csv --top=1 > b
same "report FILE --format=csv --top=1"

"$LIKELYPROF" check --min-hits 1 --format json "$seed" > a
"$LIKELYPROF" check "$seed" --min-hits 1 --format json > b
same "check FILE --min-hits 1 --format json"

"$LIKELYPROF" merge -o m1.lprof "$seed" "$seed"
"$LIKELYPROF" merge "$seed" --output m2.lprof "$seed"
"$LIKELYPROF" report m1.lprof > a
"$LIKELYPROF" report m2.lprof > b
same "merge FILE --output OUT FILE"

# After '--' a file may start with '-'.
cp "$seed" ./--format
"$LIKELYPROF" report -- --format > b
"$LIKELYPROF" report "$seed" > a
same "report -- --format"
"$LIKELYPROF" report --format=csv -- --format > b
"$LIKELYPROF" report --format=csv "$seed" > a
same "report --format=csv -- --format"

for cmd in report check fix merge run; do
	"$LIKELYPROF" $cmd --version | sed 's/[0-9][0-9.]*/N/g'
done
"$LIKELYPROF" report "$seed" --version | sed 's/[0-9][0-9.]*/N/g'

# An unknown option after an operand is still an option, not a file.
"$LIKELYPROF" report "$seed" --bogus
echo "exit $?"

# run's options end at the program; its value may come apart.
"$LIKELYPROF" run --output o.lprof true 2>&1
echo "exit $?"
"$LIKELYPROF" run -o o.lprof true --output x 2>&1
echo "exit $?"
