# compare.awk - a profile's sites against the annotations of the source
#
#   awk -f compare.awk ANNOTATIONS PROFILE
#
# ANNOTATIONS is what annotations.awk printed for the tree (`file` lines
# name every file scanned, `call` lines give each annotation's lines).
# PROFILE is a likelyprof profile (doc/FORMAT.md).
#
# A site's path is as the compiler spelled it, relative to a folder we do
# not know (lz4 compiles lib/lz4.c as `lz4.c` in lib/ and as `../lib/lz4.c`
# in programs/) or absolute (CMake).  It is made canonical and matched to
# the scanned file that ends with it; among several, the one with an
# annotation at that line.  A site matches when its line lies within the
# lines of an annotation of that file.  Sites in files outside the tree
# (the C library's headers) are counted apart.
#
# Prints `key=value` lines (sites, evaluations, lines, matched, unmatched,
# outside, annotations, annotated_lines, present, absent), then
# `unmatched`, `outside`, `absent-in` (per file) and `absent-at` lines.

BEGIN { FS = "\t" }

FNR == NR && $1 == "file" {
	files[$2] = 1
	nfiles++
	next
}

FNR == NR && $1 == "call" {
	f = $2
	n = ++ncall[f]
	cstart[f, n] = $3
	cend[f, n] = $4
	for (l = $3 + 0; l <= $4 + 0; l++)
		cover[f, l] = 1
	if (!((f, $3) in ann_line)) {
		ann_line[f, $3] = 1
		nann_lines++
	}
	nann++
	next
}

FNR == NR { next }

# A path made canonical: no `.` or empty parts, `a/..` folded, and any
# leading `..` dropped (they climb out of the unknown build folder).
function canon(p,    n, parts, out, k, i, abs)
{
	abs = (substr(p, 1, 1) == "/")
	n = split(p, parts, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "" || parts[i] == ".")
			continue
		if (parts[i] == ".." && k > 0 && out[k] != "..") {
			k--
			continue
		}
		out[++k] = parts[i]
	}
	p = ""
	for (i = 1; i <= k; i++)
		if (!(out[i] == ".." && p == ""))
			p = p (p == "" ? "" : "/") out[i]
	return (abs ? "/" : "") p
}

# The scanned file a profile path names, or "" when none does.
function resolve(p, line,    c, f, best, tail)
{
	c = canon(p)
	if (c in files)
		return c
	best = ""
	for (f in files) {
		tail = substr(f, length(f) - length(c))
		if (length(f) > length(c) && tail == "/" c) {
			if (best == "" || ((f, line) in cover))
				best = f
		} else if (substr(c, 1, 1) == "/") {
			tail = substr(c, length(c) - length(f))
			if (length(c) > length(f) && tail == "/" f)
				if (best == "" || ((f, line) in cover))
					best = f
		}
	}
	return best
}

$1 == "site" {
	nsites++
	evals += $2 + $3
	f = resolve($6, $7)
	if (f == "") {
		noutside++
		if (!(($6, $7) in seen_out)) {
			seen_out[$6, $7] = 1
			outside_rows = outside_rows "outside\t" $6 ":" $7 \
				"\t" $8 "\n"
		}
		next
	}
	if ((f, $7) in seen)
		next
	seen[f, $7] = 1
	nlines++
	if ((f, $7) in cover) {
		nmatched++
		for (i = 1; i <= ncall[f]; i++)
			if (cstart[f, i] <= $7 + 0 && $7 + 0 <= cend[f, i])
				present[f, i] = 1
	} else {
		nunmatched++
		unmatched_rows = unmatched_rows "unmatched\t" f ":" $7 "\t" \
			$8 "\t" $10 "\n"
	}
}

END {
	for (f in ncall)
		for (i = 1; i <= ncall[f]; i++) {
			if ((f, i) in present) {
				npresent++
				continue
			}
			nabsent++
			absent_in[f]++
			absent_rows = absent_rows sprintf("absent-at\t%s:%d\n", \
				f, cstart[f, i])
		}
	printf "sites=%d\nevaluations=%.0f\nlines=%d\nmatched=%d\n", \
		nsites, evals, nlines, nmatched
	printf "unmatched=%d\noutside=%d\nannotations=%d\n", \
		nunmatched, noutside, nann
	printf "annotated_lines=%d\npresent=%d\nabsent=%d\n", \
		nann_lines, npresent, nabsent
	printf "%s%s", unmatched_rows, outside_rows
	for (f in absent_in)
		printf "absent-in\t%s\t%d of %d\n", f, absent_in[f], ncall[f]
	printf "%s", absent_rows
}
