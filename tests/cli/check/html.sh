#!/bin/sh
# check --format html: the page of check's own verdicts (tests/cli/report/
# html.sh has its markup), with check's exit status: seed 009's
# fget_light(), 85% wrong, is to be removed, so 1; its one site is one
# row, and the threshold given is the one the page states and draws.
"$LIKELYPROF" check --format html --remove-at 50 "$LP_TEST_DATA/seeds/009.txt" > page.html
echo "exit $?"
grep -c '^<tr id="s' page.html
grep -o 'remove at 50%' page.html | sort -u
grep -o '<span class="v [a-z]*">' page.html | sort | uniq -c
