# annotations.awk - list the annotated branches of a C source tree
#
#   awk -f annotations.awk [-v hints="NAME..."] pass=1 FILES... \
#       pass=2 FILES...
#
# Pass 1 reads every #define and learns which macros end in
# __builtin_expect: the builtin itself and the names in hints (macros the
# project defines away, which `likelyprof cc --hint-macro` counts:
# sqlite's likely(X) defined as (X)), then, until nothing changes, every
# macro whose body names one of them (lz4's expect() and likely(), zstd's
# LIKELY() and RETURN_ERROR_IF(), whose body holds an UNLIKELY(), and
# object-like ones such as jemalloc's HOOK_PROLOGUE).  Pass 2 prints one
# line per call of such a name outside a #define (for an object-like
# macro, each use):
#
#   call <TAB> file <TAB> first line <TAB> last line <TAB> name
#
# A compiler reports each of these calls at a line between the first (gcc:
# where a macro call spanning lines starts) and the last (clang: where it
# ends); a hint inside a macro's body is reported at the line of the
# outermost call, which is why containers count as calls here.  For the
# same reason a function-like one passed by name as an argument, to an
# X-macro that calls it (LuaJIT's `GPRDEF(MINCOST)`, whose MINCOST holds
# an LJ_LIKELY()), is a call over the lines of the outermost call around
# it (a macro of the project's, not one of -v hints).  Then one line per
# learned name:
#
#   name <TAB> NAME
#
# C++20 attributes are annotations too: `[[likely]]`, `[[unlikely]]` and
# an object-like macro whose body is exactly one of them (scnlib's
# SCN_UNLIKELY_ATTR, `#define`d so under C++20).  A compiler reports such
# a site at the line of the `if`, `while` or `for` it belongs to (clang:
# where the condition ends), also when it stands on the first statement
# of the branch's block (`if (c) {` then `SCN_UNLIKELY_ATTR return e;`)
# or of an `else`'s; on a case label, at the attribute's own line.  So an
# attribute is a call over the lines from the last `if`, `while` or `for`
# of its block (of the enclosing block when its own has none: the first
# statement of a branch's block) to its own line:
#
#   call <TAB> file <TAB> first line <TAB> last line <TAB> name
#
# An attribute that is no hint (on a function's first statement) is
# listed too, and stays absent from the profile.
#
# Comments, string and character literals, other directives and `#if 0`
# groups are skipped.  The lexer is a small one, enough for real code
# bases, and names are global: a name defined with the builtin in one file
# counts in all of them, so the list errs on the side of more lines.

BEGIN {
	FS = "\n"
	is_expect["__builtin_expect"] = 1
	# macros a project defines away (sqlite's likely(X) as (X)), which
	# `likelyprof cc --hint-macro` makes hints: -v hints="NAME..."
	n = split(hints, h, " ")
	for (i = 1; i <= n; i++)
		is_expect[h[i]] = is_hint[h[i]] = 1
}

FNR == 1 {
	# a new file: reset the lexer
	in_comment = 0; in_dir = 0; dir_cont = 0; skip0 = 0
	depth = 0; top = 0; pending = ""; nbare = 0; after_ident = 0
	bdepth = 0; nbracket = 0; delete lastctl
	if (pass == 2 && !closed)
		close_names()
	if (pass == 2)
		printf "file\t%s\n", FILENAME
}

function close_names(    changed, m, n, i, k, ids)
{
	closed = 1
	do {
		changed = 0
		for (m in body) {
			if (m in is_expect)
				continue
			n = split(body[m], ids, " ")
			for (i = 1; i <= n; i++)
				if (ids[i] in is_expect) {
					is_expect[m] = 1
					changed = 1
					break
				}
		}
	} while (changed)
	for (k in is_expect)
		names[k] = 1
}

# An attribute (a macro that spells one, or `[[likely]]`) at this line:
# a call from the line of its if, while or for (see above).
function attribute(name,    first)
{
	if (bdepth in lastctl)
		first = lastctl[bdepth]
	else if ((bdepth - 1) in lastctl)
		first = lastctl[bdepth - 1]
	else
		first = FNR
	printf "call\t%s\t%d\t%d\t%s\n", FILENAME, first, FNR, name
}

# An identifier seen in code (pass 2, outside directives).
function ident(id,    brackets)
{
	brackets = nbracket
	nbracket = 0
	if (pass != 2 || skip0)
		return
	if (id == "if" || id == "while" || id == "for")
		lastctl[bdepth] = FNR
	if (id in attrlike) {
		attribute(id)
		return
	}
	if (brackets >= 2 && (id == "likely" || id == "unlikely")) {
		attribute("[[" id "]]")
		return
	}
	if (!(id in is_expect))
		return
	if ((id in objlike) && !(id in funclike)) {
		# jemalloc's HOOK_PROLOGUE, TSD_DATA_FAST: a call without (
		printf "call\t%s\t%d\t%d\t%s\n", FILENAME, FNR, FNR, id
		return
	}
	pending = id
	pending_line = FNR
}

# A punctuation character in code.
function punct(c,    i)
{
	if (pass != 2 || skip0)
		return
	# brace depth, for the blocks of attributes; a new block has no if
	nbracket = (c == "[") ? nbracket + 1 : 0
	if (c == "{")
		delete lastctl[++bdepth]
	else if (c == "}" && bdepth > 0)
		delete lastctl[bdepth--]
	if (c != "(" && pending != "" && (pending in funclike) &&
	    !(pending in is_hint) && depth > 0) {
		# a macro passed by name, which the outer call expands (not a
		# hint of -v hints: sqlite's INLINE_FUNC(likely, ...) makes
		# the SQL function's name of it)
		bare[++nbare] = pending
	}
	if (c == "(") {
		depth++
		# where the outermost call starts: its name's line
		if (depth == 1)
			outer_line = after_ident ? ident_line : FNR
		if (pending != "") {
			top++
			st_depth[top] = depth
			st_line[top] = pending_line
			st_name[top] = pending
		}
	} else if (c == ")") {
		if (top > 0 && st_depth[top] == depth) {
			printf "call\t%s\t%d\t%d\t%s\n", FILENAME, st_line[top], \
				FNR, st_name[top]
			top--
		}
		if (depth > 0)
			depth--
		if (depth == 0) {
			for (i = 1; i <= nbare; i++)
				printf "call\t%s\t%d\t%d\t%s\n", FILENAME, \
					outer_line, FNR, bare[i]
			nbare = 0
		}
	}
	pending = ""
	after_ident = 0
}

# The start of a directive: its name and, for #define, the macro's name.
function directive(rest,    name, m)
{
	sub(/^[ \t]*#[ \t]*/, "", rest)
	match(rest, /^[A-Za-z_]+/)
	name = substr(rest, 1, RLENGTH)
	rest = substr(rest, RLENGTH + 1)
	dir_kind = name
	dir_macro = ""
	if (name == "if" || name == "ifdef" || name == "ifndef") {
		if (skip0)
			skip0++
		else if (rest ~ /^[ \t]+0[ \t]*(\/[\/*].*)?$/)
			skip0 = 1
	} else if (name == "endif") {
		if (skip0)
			skip0--
	} else if ((name == "else" || name == "elif") && skip0 == 1) {
		skip0 = 0
	} else if (name == "define" && !skip0) {
		sub(/^[ \t]+/, "", rest)
		if (match(rest, /^[A-Za-z_][A-Za-z_0-9]*/)) {
			m = substr(rest, 1, RLENGTH)
			dir_macro = m
			if (substr(rest, RLENGTH + 1, 1) == "(")
				funclike[m] = 1
			else
				objlike[m] = 1
			# a name that spells an attribute: #define U [[unlikely]]
			if (substr(rest, RLENGTH + 1) ~ \
			    /^[ \t]+\[\[[ \t]*(un)?likely[ \t]*\]\][ \t]*(\/[\/*].*)?$/)
				attrlike[m] = names[m] = 1
			if (!(m in body))
				body[m] = ""
			return substr(rest, RLENGTH + 1)
		}
	}
	return rest
}

# Lex one physical line of code or of a directive's text.
function lex(s, in_directive,    i, n, c, c2, j, id)
{
	n = length(s)
	i = 1
	while (i <= n) {
		c = substr(s, i, 1)
		if (in_comment) {
			j = index(substr(s, i), "*/")
			if (!j)
				return
			in_comment = 0
			i += j + 1
			continue
		}
		c2 = substr(s, i, 2)
		if (c2 == "/*") {
			in_comment = 1
			i += 2
			continue
		}
		if (c2 == "//")
			return
		if (c == "\"" || c == "'") {
			# a literal: to its closing quote, escapes skipped
			for (j = i + 1; j <= n; j++) {
				if (substr(s, j, 1) == "\\") {
					j++
					continue
				}
				if (substr(s, j, 1) == c)
					break
			}
			i = j + 1
			if (!in_directive)
				pending = after_ident = ""
			continue
		}
		if (c ~ /[A-Za-z_]/) {
			match(substr(s, i), /^[A-Za-z_][A-Za-z_0-9]*/)
			id = substr(s, i, RLENGTH)
			i += RLENGTH
			if (in_directive) {
				if (dir_macro != "")
					body[dir_macro] = body[dir_macro] " " id
			} else {
				pending = ""
				ident(id)
				after_ident = 1
				ident_line = FNR
			}
			continue
		}
		if (c ~ /[0-9]/) {
			match(substr(s, i), /^[0-9A-Za-z_.]+/)
			i += RLENGTH
			if (!in_directive)
				pending = after_ident = ""
			continue
		}
		if (c == " " || c == "\t" || c == "\r" || c == "\f" || c == "\\") {
			i++
			continue
		}
		if (!in_directive)
			punct(c)
		i++
	}
}

{
	line = $0
	if (dir_cont) {
		# a continuation line of a directive
		dir_cont = (line ~ /\\[ \t\r]*$/)
		if (dir_kind == "define" && pass == 1 && !skip0)
			lex(line, 1)
		else if (dir_kind == "define" || dir_kind == "if")
			lex_comments_only(line)
		next
	}
	if (!in_comment && line ~ /^[ \t]*#/) {
		dir_cont = (line ~ /\\[ \t\r]*$/)
		rest = directive(line)
		if (dir_kind == "define" && pass == 1 && !skip0)
			lex(rest, 1)
		else
			lex_comments_only(rest)
		next
	}
	if (skip0) {
		lex_comments_only(line)
		next
	}
	lex(line, 0)
}

# Only follow comments, so that a /* opened on a directive line is known.
function lex_comments_only(s,    save)
{
	save = dir_macro
	dir_macro = ""
	lex(s, 1)
	dir_macro = save
}

END {
	if (!closed)
		close_names()
	for (k in names)
		printf "name\t%s\n", k
}
