#!/bin/sh
# runtime-life.sh - no count lost, no hang, no hole, however a process
# ends or changes: a hint in the program's own signal handler, exec,
# daemon(), pid reuse, a FIFO nobody reads, a closed stderr, a bad
# LIKELYPROF_FILE, the program's own handler for LIKELYPROF_SIGNAL, a
# module dlopen()ed again and again, hints after a thread's exit was
# told, and a set-user-ID program.  Each check compares the profile with
# what the program computed itself.
. "$(dirname "$0")/lib.sh"

cd "$SCRATCH" || exit 1
$LIKELYPROF cc -O2 -Wall -Wextra -Werror $(san_flags) \
	"$E2E_DIR/runtime/life.c" -o life -ldl || { fail "build failed"; finish; }
$LIKELYPROF cc -O2 -Wall -Wextra -Werror $(san_flags) -pthread \
	"$E2E_DIR/runtime/handler.c" -o handler || { fail "build failed"; finish; }

# count()'s site summed over the profiles given: "correct incorrect"
prof() {
	cat "$@" | awk -F'\t' '$1 == "site" && $8 == "count" { c += $2; i += $3 }
		END { print c + 0, i + 0 }'
}
counts() {
	echo "$(( $1 - ($1 + 3) / 4 )) $(( ($1 + 3) / 4 ))"
}

# A hint in a handler, the signal aimed at a thread registering its first
# evaluations: never a hang, and the handler's site counts every run.
hangs=0 lost=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	LIKELYPROF_FILE=$SCRATCH/h.lprof timeout 60 ./handler 20 > h.out
	[ $? = 0 ] || { hangs=$((hangs + 1)); continue; }
	want=$(sed -n 's/^handled //p' h.out)
	got=$(awk -F'\t' '$1 == "site" && $8 == "on_usr1" { print $2 }' h.lprof)
	[ "$got" = "$want" ] || lost=$((lost + 1))
done
[ $hangs = 0 ] || fail "handler: $hangs of 10 runs hung or failed"
[ $lost = 0 ] || fail "handler: $lost of 10 runs lost a handler's count"

# exec: the old image's counts are written before it goes; the new image
# (same pid) writes a file of its own beside it
for how in exec execvp; do
	mkdir $how
	LIKELYPROF_FILE=$SCRATCH/$how/%e.%p.lprof ./life $how 1000 > /dev/null
	[ "$(ls $how | wc -l)" = 2 ] || fail "$how: files $(ls $how)"
	[ "$(prof $how/*)" = "$(counts 2000)" ] ||
		fail "$how: '$(prof $how/*)', want '$(counts 2000)'"
done

# daemon(): the parent leaves through _exit inside it; both halves count
mkdir daemon
LIKELYPROF_FILE=$SCRATCH/daemon/%e.%p.lprof ./life daemon 1000
for i in $(seq 50); do
	[ "$(ls daemon | grep -c 'lprof$')" = 2 ] && break
	sleep 0.1
done
[ "$(prof daemon/*.lprof)" = "$(counts 2000)" ] ||
	fail "daemon: '$(prof daemon/*.lprof)', want '$(counts 2000)'"

# pid reuse: a profile of an earlier process with this pid stays
mkdir reuse
(cd reuse && sh -c 'echo $$ > pid; echo earlier > life.$$.lprof
	exec ../life plain 100' > /dev/null)
pid=$(cat reuse/pid)
[ "$(cat reuse/life.$pid.lprof)" = earlier ] || fail "pid reuse: replaced"
[ "$(prof reuse/life.$pid-2.lprof)" = "$(counts 100)" ] ||
	fail "pid reuse: $(ls reuse)"

# a FIFO nobody reads: the program ends, its output whole, one line
mkfifo fifo
LIKELYPROF_FILE=$SCRATCH/fifo timeout 30 ./life plain 100 > fifo.out 2> fifo.err
status=$?
[ $status = 0 ] || fail "fifo: exit status $status (124: hung)"
[ "$(cat fifo.out)" = "plain 25" ] || fail "fifo: stdout '$(cat fifo.out)'"
[ "$(wc -l < fifo.err)" = 1 ] || fail "fifo: stderr '$(cat fifo.err)'"

# fd 2 closed and reused for the program's data: no error line in it
LIKELYPROF_FILE=/dev/null/x.lprof ./life stderr-reuse 10 "$SCRATCH/data" 2> /dev/null
[ "$(cat data)" = data ] || fail "stderr reuse: data file says '$(cat data)'"

# a LIKELYPROF_FILE longer than PATH_MAX: one line, and the default file
long=$(printf '%05000d' 0)
(mkdir long && cd long && LIKELYPROF_FILE=$long ../life plain 10 > /dev/null 2> ../long.err)
[ "$(wc -l < long.err)" = 1 ] && grep -q 'longer than PATH_MAX' long.err ||
	fail "long name: stderr '$(cat long.err)'"
ls long/life.*.lprof > /dev/null 2>&1 || fail "long name: no default profile"

# the program's own handler for LIKELYPROF_SIGNAL: said once
LIKELYPROF_SIGNAL=USR2 LIKELYPROF_FILE=$SCRATCH/own.lprof ./life own-handler 10 2> own.err
[ "$(grep -c 'own handler for LIKELYPROF_SIGNAL' own.err)" = 1 ] ||
	fail "own handler: stderr '$(cat own.err)'"

# dlopen/dlclose cycles: one record per site, every count kept
printf '#define likely(x) __builtin_expect(!!(x), 1)\nunsigned long mod_work(unsigned long k);\nunsigned long mod_work(unsigned long k) { return likely(k %% 2 == 0) ? 1 : 0; }\n' > mod.c
$LIKELYPROF cc -O2 $(san_flags) -fPIC -shared mod.c -o mod.so ||
	fail "dlopen: module build failed"
LIKELYPROF_FILE=$SCRATCH/cyc.lprof ./life dlopen 2000 "$SCRATCH/mod.so" > cyc.out
[ "$(cat cyc.out)" = "mod 1000" ] || fail "dlopen: program says '$(cat cyc.out)'"
got=$(awk -F'\t' '$1 == "site" && $8 == "mod_work" { n++; c += $2; i += $3 }
	END { print n + 0, c + 0, i + 0 }' cyc.lprof)
[ "$got" = "1 1000 1000" ] || fail "dlopen: records, correct, incorrect '$got'"

# the same in C++, whose records are listed at load: a site that never
# ran stays one row too, at the same or another load address
cat > modx.cc <<'SRC'
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
template <class T> static T never(T k) { return unlikely(k > 1) ? k : 0; }
unsigned long (*volatile keep)(unsigned long) = never<unsigned long>;
extern "C" unsigned long mod_work(unsigned long k)
{
	return likely(k % 2 == 0) ? 1 : 0;
}
SRC
$LIKELYPROF c++ -O2 $(san_flags) -fPIC -shared modx.cc -o modx.so ||
	fail "dlopen c++: module build failed"
LIKELYPROF_FILE=$SCRATCH/cycx.lprof ./life dlopen 2000 "$SCRATCH/modx.so" > cycx.out
[ "$(cat cycx.out)" = "mod 1000" ] || fail "dlopen c++: program says '$(cat cycx.out)'"
got=$(awk -F'\t' '$1 == "site" { n[$8]++; c[$8] += $2; i[$8] += $3 }
	END { print n["mod_work"] + 0, c["mod_work"] + 0, i["mod_work"] + 0,
		n["never"] + 0, c["never"] + 0, i["never"] + 0 }' cycx.lprof)
[ "$got" = "1 1000 1000 1 0 0" ] ||
	fail "dlopen c++: records, correct, incorrect of both '$got'"

# hints after the runtime summed a leaving thread (a destructor of the
# program's in glibc's last round), on stacks unmapped after the join: no
# fault at the dump, and those evaluations counted too.  PIC and not,
# since a library's first counts come through the stub.
for pic in "" -fPIC; do
	$LIKELYPROF cc -O2 -Wall -Wextra -Werror $(san_flags) $pic -pthread \
		"$E2E_DIR/runtime/late.c" -o late$pic ||
		{ fail "late$pic: build failed"; continue; }
	LIKELYPROF_FILE=$SCRATCH/late$pic.lprof ./late$pic 16 1000 > late.out
	status=$?
	[ $status = 0 ] || { fail "late$pic: exit status $status"; continue; }
	got=$(awk -F'\t' '$1 == "site" && $8 == "late" { print "late", $2, $3 }' \
		late$pic.lprof)
	[ "$got" = "$(cat late.out)" ] ||
		fail "late$pic: profile '$got', program '$(cat late.out)'"
done

# where and what it came from: host, time, and the build-id of the
# program and of the module (once, however often it was loaded), as
# readelf reads them from the files
build_of() {
	readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: //p'
}
if command -v readelf > /dev/null 2>&1; then
	want="$(build_of life) $PWD/life
$(build_of modx.so) $SCRATCH/modx.so"
	got=$(awk -F'\t' '$1 == "meta" && $2 == "build" { print $3 }' cycx.lprof |
		sed "s|^\([0-9a-f]*\) .*/life$|\1 $PWD/life|")
	[ "$got" = "$want" ] || fail "build-ids: '$got', want '$want'"
fi
grep -q "^meta	host	$(uname -n)$" cycx.lprof || fail "no host in the profile"
grep -q '^meta	time	20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z$' \
	cycx.lprof || fail "no time in the profile: $(grep time cycx.lprof)"

# set-user-ID: the environment names no file.  Run as nobody, a root
# program must not write where LIKELYPROF_FILE says (a root-only file).
if [ "$(id -u)" != 0 ]; then
	note "skip set-user-ID: needs root to make a set-user-ID program"
elif ! command -v setpriv > /dev/null; then
	note "skip set-user-ID: no setpriv"
else
	suid=$(mktemp -d /tmp/likelyprof-suid.XXXXXX)
	cp life "$suid/life" && chmod 4755 "$suid/life" && chmod 755 "$suid"
	echo secret > "$suid/victim" && chmod 600 "$suid/victim"
	mkdir "$suid/out" && chmod 777 "$suid/out"
	(cd "$suid/out" && LIKELYPROF_FILE=$suid/victim LIKELYPROF_SIGNAL=USR2 \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$suid/life" plain 10 > ../out.txt 2>&1)
	[ "$(cat "$suid/out.txt")" = "plain 3" ] ||
		fail "set-user-ID: program said '$(cat "$suid/out.txt")'"
	[ "$(cat "$suid/victim")" = secret ] &&
		[ "$(stat -c %a "$suid/victim")" = 600 ] ||
		fail "set-user-ID: LIKELYPROF_FILE was written"
	[ -z "$(ls "$suid/out")" ] || fail "set-user-ID: wrote $(ls "$suid/out")"
	rm -rf "$suid"
fi
finish
