#!/bin/sh
# completion-zsh.sh - the zsh completion (completion/_likelyprof) answers
# from the command's --help as the bash one does (tests/cli/completion/
# bash.sh): the subcommands with their descriptions, an option's values
# from the usage, folders after --src, nothing to offer after a number's
# option, *.lprof operands, a command after "run --".  zsh's completion
# builtins are replaced by functions that print what they were given, so
# no terminal is needed.  Skipped without zsh (CI installs it).
. "$(dirname "$0")/lib.sh"

command -v zsh > /dev/null 2>&1 || skip "no zsh (apt-get install zsh)"
zsh -n "$ROOT/completion/_likelyprof" || fail "zsh cannot parse _likelyprof"
cat > "$SCRATCH/t.zsh" <<'END'
compadd() { [[ $1 == -- ]] && shift; print -r -- "compadd $*"; }
_describe() { print -r -- "describe ${(P)4}"; }
_files() { print -r -- "files $*"; }
_command_names() { print -r -- "commands"; }
_message() { print -r -- "message"; }
fpath=($1 $fpath)
autoload -Uz _likelyprof
t() { words=($LIKELYPROF "$@"); CURRENT=${#words}; _likelyprof; }
t rep
t report --fo
t report --format ''
t check --format ''
t check --src ''
t check --min-hits ''
t report ''
t run -- ''
END
# Under ASan, LeakSanitizer's stop-the-world at the exit of a `likelyprof
# --help` that zsh's completion ran once hung it (its tracer waiting,
# the command spinning: 13 minutes of CI); the command's leaks are the
# CLI tests' to find under ASan, so here they are not looked for, and a
# hang fails in two minutes.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
LIKELYPROF=$LIKELYPROF timeout 120 zsh -f "$SCRATCH/t.zsh" "$ROOT/completion" \
	> "$SCRATCH/got" 2>&1 || fail "zsh: $(cat "$SCRATCH/got")"
cat > "$SCRATCH/want" <<'END'
compadd --help --version --format --group --min-hits --top --width --src --link --rows -o --hint-macro --file --function --output --progress
compadd kernel csv json lcov html
compadd text json sarif html
files -/
message
files -g *.lprof(-.)
commands
END
grep -q '^describe .*report:print the kernel' "$SCRATCH/got" ||
	fail "no subcommand with its description: $(head -1 "$SCRATCH/got")"
tail -n +2 "$SCRATCH/got" | diff "$SCRATCH/want" - > "$SCRATCH/diff" ||
	fail "zsh completion: $(cat "$SCRATCH/diff")"
finish
