# md2man.awk - a page of doc/ as a man page, so that the two never disagree:
# `man likelyprof-check` is doc/likelyprof-check.md, made at build time.
#
#   awk -v version=0.1.0 -v date=2026-12-04 -f doc/md2man.awk \
#       doc/likelyprof-check.md > likelyprof-check.1
#
# It reads the Markdown that doc/ is written in, no more: a front matter
# whose Help: line is the NAME, a "# title", the first code block as the
# SYNOPSIS, "##"/"###" sections, paragraphs, "-" and "1." lists (two-space
# continuation lines), tables (through tbl), code blocks, `code`,
# **bold**, *emphasis* and [links](to).  Links to another command's page
# become that page's man name, likelyprof-run(1).

function esc(s) {
	gsub(/\\/, "\\e", s)
	return s
}

# Inline markup: code spans first, so that nothing inside them is read as
# emphasis; their hyphens are minus signs, as options are typed.
function inline(s,    out, pre, code, i) {
	out = ""
	while ((i = index(s, "`")) > 0) {
		pre = substr(s, 1, i - 1)
		s = substr(s, i + 1)
		i = index(s, "`")
		if (!i) {
			s = pre "`" s
			break
		}
		code = esc(substr(s, 1, i - 1))
		gsub(/-/, "\\-", code)
		out = out emph(pre) "\\fB" code "\\fR"
		s = substr(s, i + 1)
	}
	return lead(out emph(s))
}

function emph(s,    name, link, text, to, pre) {
	s = esc(s)
	while (match(s, /\[[^]]*\]\([^)]*\)/)) {
		link = substr(s, RSTART, RLENGTH)
		text = link
		sub(/\]\(.*/, "", text)
		sub(/^\[/, "", text)
		to = link
		sub(/^.*\]\(/, "", to)
		sub(/\)$/, "", to)
		name = to
		sub(/#.*/, "", name)
		sub(/^.*\//, "", name)
		if (name ~ /^likelyprof(-[a-z+]*)?\.md$/) {
			sub(/\.md$/, "", name)
			if (name != page && index(text, name) == 0)
				text = text " (" name "(1))"
		} else if (to ~ /^https?:/)
			text = text " <" to ">"
		s = substr(s, 1, RSTART - 1) text substr(s, RSTART + RLENGTH)
	}
	while (match(s, /(doc\/)?likelyprof-[a-z+]+\.md/)) {
		name = substr(s, RSTART, RLENGTH)
		sub(/^doc\//, "", name)
		sub(/\.md$/, "", name)
		s = substr(s, 1, RSTART - 1) name "(1)" \
		    substr(s, RSTART + RLENGTH)
	}
	while (match(s, /\*\*[^*]+\*\*/))
		s = substr(s, 1, RSTART - 1) "\\fB" \
		    substr(s, RSTART + 2, RLENGTH - 4) "\\fR" \
		    substr(s, RSTART + RLENGTH)
	while (match(s, /(^|[ (])\*[^* ][^*]*\*/)) {
		pre = substr(s, RSTART, 1) == "*" ? "" : substr(s, RSTART, 1)
		s = substr(s, 1, RSTART - 1) pre "\\fI" \
		    substr(s, RSTART + length(pre) + 1, \
			   RLENGTH - length(pre) - 2) "\\fR" \
		    substr(s, RSTART + RLENGTH)
	}
	return s
}

# A line that starts with a dot or a quote would be a request.
function lead(s) {
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}

function flush_para() {
	if (para != "")
		print inline(para)
	para = ""
}

function end_block() {
	flush_para()
	if (in_table)
		end_table()
}

function cells(line, arr,    n, i) {
	sub(/^ *\|/, "", line)
	sub(/\| *$/, "", line)
	n = split(line, arr, /\|/)
	for (i = 1; i <= n; i++) {
		gsub(/^ +| +$/, "", arr[i])
	}
	return n
}

function end_table(    i, j, n, spec, row, c, cell) {
	print ".TS"
	print "tab(\t);"
	spec = ""
	for (j = 1; j <= ncols; j++)
		spec = spec (j > 1 ? " " : "") (j == ncols ? "lx" : "l")
	print spec "."
	for (i = 1; i <= nrows; i++) {
		n = split(rows[i], c, SUBSEP)
		row = ""
		for (j = 1; j <= ncols; j++) {
			cell = (i == 1 ? "\\fB" : "") inline(j <= n ? c[j] : "") \
			       (i == 1 ? "\\fR" : "")
			row = row (j > 1 ? "\t" : "") \
			      "T{\n" cell "\nT}"
		}
		print row
		if (i == 1)
			print "_"
	}
	print ".TE"
	in_table = 0
	nrows = 0
}

BEGIN {
	state = "front"
	para = ""
	page = FILENAME
}

NR == 1 {
	page = FILENAME
	sub(/^.*\//, "", page)
	sub(/\.md$/, "", page)
	title = toupper(page)
}

state == "front" {
	if ($0 == "---" && seen_front) {
		state = "title"
	} else if ($0 == "---") {
		seen_front = 1
	} else if ($0 ~ /^Help: /) {
		help = substr($0, 7)
	}
	next
}

state == "title" && /^# / {
	print "'\\\" t"
	print ".TH " title " 1 " date " \"likelyprof " version \
	      "\" \"likelyprof manual\""
	print ".SH NAME"
	print page " \\- " esc(help)
	state = "synopsis"
	next
}

state == "synopsis" && /^```/ {
	print ".SH SYNOPSIS"
	print ".nf"
	state = "synopsis-code"
	next
}

state == "synopsis-code" {
	if ($0 ~ /^```/) {
		print ".fi"
		print ".SH DESCRIPTION"
		state = "body"
	} else {
		print lead(esc($0))
	}
	next
}

state == "synopsis" && NF {
	print ".SH DESCRIPTION"
	state = "body"
}

state == "synopsis" {
	next
}

in_code {
	if ($0 ~ /^ *```/) {
		print ".fi"
		print ".RE"
		in_code = 0
	} else {
		text = $0
		if (substr(text, 1, fence_indent) ~ /^ *$/)
			text = substr(text, fence_indent + 1)
		print lead(esc(text))
	}
	next
}

# A code block inside a list item is indented with it.
/^ *```/ {
	end_block()
	match($0, /^ */)
	fence_indent = RLENGTH
	if (!in_list || !fence_indent)
		print ".PP"
	print ".RS " (fence_indent && in_list ? 2 : 4)
	print ".nf"
	in_code = 1
	next
}

/^#+ / {
	end_block()
	text = $0
	sub(/^#+ /, "", text)
	print (substr($0, 1, 3) == "## " ? ".SH " : ".SS ") \
	      "\"" inline(substr($0, 1, 3) == "## " ? toupper(text) : text) "\""
	in_list = 0
	next
}

/^ *\|/ {
	flush_para()
	if ($0 ~ /^ *\|[-:| ]+\| *$/)
		next
	n = cells($0, arr)
	if (!in_table) {
		in_table = 1
		ncols = n
	}
	row = ""
	for (j = 1; j <= n; j++)
		row = row (j > 1 ? SUBSEP : "") arr[j]
	rows[++nrows] = row
	next
}

/^[-*] / {
	end_block()
	print ".IP \\(bu 2"
	list_indent = 2
	para = substr($0, 3)
	in_list = 1
	next
}

/^[0-9]+\. / {
	end_block()
	mark = $0
	sub(/ .*/, "", mark)
	print ".IP " mark " 4"
	list_indent = 4
	para = substr($0, length(mark) + 2)
	in_list = 1
	next
}

/^$/ {
	end_block()
	blank = 1
	next
}

{
	if (in_table)
		end_table()
	text = $0
	if (in_list && text ~ /^  +/) {
		sub(/^ +/, "", text)
		if (para == "" && blank)
			print ".IP \"\" " list_indent
		para = para (para == "" ? "" : " ") text
		blank = 0
		next
	}
	if (para == "" && (blank || !in_list)) {
		print ".PP"
		in_list = 0
	}
	blank = 0
	sub(/^ +/, "", text)
	para = para (para == "" ? "" : " ") text
}

END {
	end_block()
	if (in_code)
		print ".fi"
}
