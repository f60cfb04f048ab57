#!/bin/sh
# The TLS model of the counters: -fPIC code gets initial-exec (GOTTPOFF
# relocations, no TLS call), LIKELYPROF_TLS=dynamic keeps dynamic TLS
# (a TLS descriptor or __tls_get_addr), code that is not -fPIC is left to
# the compiler (local-exec in a program), and any other value is refused
# before anything is compiled.
printf 'int f(int x) { return __builtin_expect(x > 2, 0); }\n' > t.c
model() {
	readelf -rW "$1" | awk '
		/GOTTPOFF/ { m["initial-exec"] = 1 }
		/TLSDESC|TLSGD|TLSLD/ { m["dynamic"] = 1 }
		/TPOFF32/ { m["local-exec"] = 1 }
		END { for (k in m) printf "%s ", k; print "" }'
}
CC=gcc $LIKELYPROF cc -O2 -fPIC -c t.c -o pic.o && echo "-fPIC: $(model pic.o)"
LIKELYPROF_TLS=initial-exec CC=gcc $LIKELYPROF cc -O2 -fPIC -c t.c -o ie.o &&
	echo "initial-exec: $(model ie.o)"
LIKELYPROF_TLS=dynamic CC=gcc $LIKELYPROF cc -O2 -fPIC -c t.c -o dyn.o &&
	echo "dynamic: $(model dyn.o)"
CC=gcc $LIKELYPROF cc -O2 -fno-pic -c t.c -o exe.o && echo "no -fPIC: $(model exe.o)"
LIKELYPROF_TLS=static CC=gcc $LIKELYPROF cc -O2 -fPIC -c t.c -o bad.o
echo "exit $?"
[ -e bad.o ] && echo "bad.o written"
exit 0
