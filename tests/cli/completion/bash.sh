#!/bin/sh
# The bash completion (completion/likelyprof.bash), sourced as
# bash-completion sources it, answers a TAB from what the command's own
# --help says: "rep" is report; "report --fo" is --format, whose values
# are the usage's kernel|csv|json|lcov|html (also after "--format=");
# check's are text|json|sarif|html; fix --split takes function or
# subsystem; --src a folder; --min-hits a number, so nothing; a profile
# operand is a *.lprof file or a folder; after "run --" a command.
mkdir dir
: > a.lprof
: > b.lprof
: > notes.txt
bash -c '
. "$1"
tab() {
	COMP_WORDS=("$LIKELYPROF" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_likelyprof
	printf "%s:" "$*"
	printf " %s" $(printf "%s\n" "${COMPREPLY[@]}" | sort -u)
	echo
}
tab rep
tab ch
tab report --fo
tab report --format ""
tab report --format = l
tab check --format ""
tab check --no
tab merge -
tab fix --split ""
tab fix --src ""
tab check --min-hits ""
tab report ""
tab check --src dir ""
tab run -- printen
' - "$(dirname "$0")/../../../completion/likelyprof.bash"
