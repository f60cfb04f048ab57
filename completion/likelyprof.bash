# likelyprof.bash - bash completion for likelyprof
#
# The subcommands, their options and the values an option takes are read
# from the command's own --help, so the completion knows every option the
# installed command has, no more.  What an option's value is comes from
# the usage's words: "--src DIR" completes folders, "-o FILE" files,
# "--format kernel|csv|json" those words; a profile operand is a *.lprof
# file (or a folder on the way to one).
#
# make install puts it in $(datadir)/bash-completion/completions, where
# bash-completion loads it on the first TAB after "likelyprof".

# The command as typed, so that ./likelyprof completes from itself.
_likelyprof_run()
{
	command "${COMP_WORDS[0]}" "$@" 2>/dev/null
}

_likelyprof_commands()
{
	_likelyprof_run --help |
		awk '/^commands:/ { f = 1; next }
		     f && /^   [a-z+]/ { print $1; next }
		     f { exit }'
}

# every command takes --help and --version, which its usage leaves out
_likelyprof_options()
{
	{
		echo --help
		echo --version
		_likelyprof_run "$1" --help |
			grep -oE -- '(^|[][ ,])--?[a-z][-a-z]*' |
			sed 's/^[][ ,]*//'
	} | sort -u
}

# What option $2 of command $1 takes: "dir", "file", "none" (a number,
# a name), the words it accepts, or nothing when it takes no value.
_likelyprof_takes()
{
	_likelyprof_run "$1" --help | awk -v opt="$2" '
		{
			n = split($0, w, /[][ ,]+/)
			for (i = 1; i < n; i++) {
				if (w[i] != opt)
					continue
				v = w[i + 1]
				if (v ~ /^[a-z0-9]+(\|[a-z0-9]+)+$/) {
					gsub(/\|/, " ", v)
					print v
				} else if (v ~ /^DIR/) {
					print "dir"
				} else if (v ~ /^(FILE|OUT)/) {
					print "file"
				} else if (v ~ /^[A-Z]/) {
					print "none"
				} else {
					continue
				}
				exit
			}
		}'
}

_likelyprof_profiles()
{
	local IFS=$'\n'

	COMPREPLY=($(compgen -f -X '!*.lprof' -- "$1") $(compgen -d -- "$1"))
	type compopt > /dev/null 2>&1 && compopt -o filenames 2> /dev/null
}

_likelyprof_files()
{
	local IFS=$'\n'

	COMPREPLY=($(compgen -f -- "$1"))
	type compopt > /dev/null 2>&1 && compopt -o filenames 2> /dev/null
}

_likelyprof()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd=${COMP_WORDS[1]} takes i

	COMPREPLY=()
	# bash splits "--format=j" at the "="
	if [ "$prev" = = ] && [ "$COMP_CWORD" -gt 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	if [ "$COMP_CWORD" -eq 1 ]; then
		case $cur in
		-*) COMPREPLY=($(compgen -W '--help --version' -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$(_likelyprof_commands)" -- "$cur")) ;;
		esac
		return
	fi
	case $cmd in
	check | fix | judge | merge | report | run) ;;
	*)
		# cc, c++ and the launcher form take a compiler's arguments
		_likelyprof_files "$cur"
		return
		;;
	esac
	for ((i = 2; i < COMP_CWORD; i++)); do
		[ "${COMP_WORDS[i]}" = -- ] || continue
		case $cmd in
		run | judge)
			if [ "$i" -eq $((COMP_CWORD - 1)) ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				_likelyprof_files "$cur"
			fi
			;;
		*) _likelyprof_profiles "$cur" ;;
		esac
		return
	done
	case $prev in
	-*)
		takes=$(_likelyprof_takes "$cmd" "$prev")
		case $takes in
		"") ;;
		dir)
			COMPREPLY=($(compgen -d -- "$cur"))
			type compopt > /dev/null 2>&1 && compopt -o filenames 2> /dev/null
			return
			;;
		file) _likelyprof_files "$cur"; return ;;
		none) return ;;
		*) COMPREPLY=($(compgen -W "$takes" -- "$cur")); return ;;
		esac
		;;
	esac
	case $cur in
	-*)
		COMPREPLY=($(compgen -W "$(_likelyprof_options "$cmd")" -- "$cur"))
		return
		;;
	esac
	case $cmd in
	run | judge) COMPREPLY=($(compgen -c -- "$cur")) ;;
	*) _likelyprof_profiles "$cur" ;;
	esac
}

complete -F _likelyprof likelyprof
