#!/bin/sh
# JSON: an array of objects with percent_incorrect (null for X), strings
# escaped (control bytes as \u00XX), invalid UTF-8 bytes as \u00XX, valid
# UTF-8 as it is; the output must parse.
printf 'likelyprof-profile\t1\n' > p.lprof
printf 'site\t10\t90\t0\t0\tsrc/\xc3\xa9.c\t3\tf\tu.c\tx == "y\\\\"\\t\\x01\n' >> p.lprof
printf 'site\t0\t0\t0\tif\tbad\xff.c\t9\tg\tu.c\t\n' >> p.lprof
printf 'site\t5\t0\t5\t?\tk.h\t1\th\t\t\n' >> p.lprof
printf 'end\t3\n' >> p.lprof
"$LIKELYPROF" report --format json p.lprof > out.json
cat out.json
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; json.load(open("out.json")); print("valid")'
else
	echo valid
fi
"$LIKELYPROF" report --format json --min-hits 1000000000 p.lprof
