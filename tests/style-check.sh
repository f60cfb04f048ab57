#!/bin/sh
# style-check.sh - what a reviewer would reject at a glance: lines over 80
# columns (tabs count 8; a string literal that crosses column 80 is let
# be, as the kernel lets it), trailing blanks, spaces where a tab indents.
# Prints each offence as FILE:LINE: what, and exits 1 if there is one.
cd "$(dirname "$0")/.." || exit 2
files=$(git ls-files 'include/*.h' 'lib/*.[ch]' 'tools/*.[ch]' 'tools/*/*.[ch]' \
	'tests/unit/*.[ch]' 2>/dev/null)
[ -n "$files" ] || files=$(find include lib tools tests/unit -name '*.[ch]')
awk '
	{
		line = $0
		width = 0
		instr = 0
		over_in_string = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "\t")
				width = width + 8 - width % 8
			else
				width++
			if (c == "\\" && instr)
				i++
			else if (c == "\"")
				instr = !instr
			if (width == 81 && instr)
				over_in_string = 1
		}
		# as the kernel does, a string is not broken to fit
		if (width > 80 && !over_in_string) {
			print FILENAME ":" FNR ": line is " width " columns"
			bad = 1
		}
		if (line ~ /[ \t]$/) {
			print FILENAME ":" FNR ": trailing blank"
			bad = 1
		}
		if (line ~ /^        /) {
			print FILENAME ":" FNR ": indented with spaces"
			bad = 1
		}
	}
	END { exit bad }' $files
