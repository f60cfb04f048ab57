/*
 * commands.c - a build's compile_commands.json, so that judge preprocesses
 * each file as the build compiled it: with its own compiler, -D, -I,
 * -std and -include, which decide which hints exist and what they are.
 *
 * The format is clang's JSON compilation database: an array of objects
 * with "directory", "file", and "arguments" (an array) or "command" (one
 * string, split as the shell would).  CMake writes it with
 * CMAKE_EXPORT_COMPILE_COMMANDS, meson always, bear for make.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "judge/judge.h"
#include "usage.h"
#include "write-file.h"

struct words {
	char **v;
	size_t nr, alloc;
};

static void words_add(struct words *w, char *s)
{
	if (w->nr + 2 > w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 16;
		w->v = lp_xrealloc(w->v, w->alloc * sizeof(*w->v));
	}
	w->v[w->nr++] = s;
	w->v[w->nr] = NULL;
}

/*
 * POSIX shell words without expansions: blanks separate, '...' keeps
 * everything, "..." keeps all but \" \\ \$ \` and backslash-newline,
 * a bare backslash quotes the next byte.  @return : -1 on an unclosed
 * quote.
 */
static int split_command(const char *s, struct words *w)
{
	char *buf = lp_xmalloc(strlen(s) + 1);

	while (*s) {
		size_t n = 0;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
			char q = *s;

			if (q == '\\' && s[1]) {
				buf[n++] = s[1];
				s += 2;
			} else if (q == '\'' || q == '"') {
				for (s++; *s && *s != q; s++) {
					if (q == '"' && *s == '\\' && s[1] &&
					    strchr("\"\\$`\n", s[1]))
						s++;
					buf[n++] = *s;
				}
				if (!*s) {
					free(buf);
					return -1;
				}
				s++;
			} else {
				buf[n++] = *s++;
			}
		}
		buf[n] = '\0';
		words_add(w, lp_xstrdup(buf));
	}
	free(buf);
	return 0;
}

static const char *str_member(const struct lp_json *e, const char *key)
{
	const struct lp_json *v = lp_json_get(e, key);

	return v && v->type == LP_JSON_STRING && !memchr(v->str, 0, v->len) ?
	       v->str : NULL;
}

static int entry_argv(const struct lp_json *e, struct words *w)
{
	const struct lp_json *args = lp_json_get(e, "arguments");
	const char *cmd = str_member(e, "command");
	size_t i;

	if (args && args->type == LP_JSON_ARRAY) {
		for (i = 0; i < args->nr; i++) {
			if (args->items[i].type != LP_JSON_STRING)
				return -1;
			words_add(w, lp_xstrdup(args->items[i].str));
		}
		return w->nr ? 0 : -1;
	}
	if (!cmd || split_command(cmd, w) < 0)
		return -1;
	return w->nr ? 0 : -1;
}

static int read_entry(const struct lp_json *e, struct lp_compile_cmd *c)
{
	const char *dir = str_member(e, "directory");
	const char *file = str_member(e, "file");
	struct words w = { NULL, 0, 0 };

	if (!dir || !file || entry_argv(e, &w) < 0) {
		while (w.nr)
			free(w.v[--w.nr]);
		free(w.v);
		return -1;
	}
	c->dir = lp_xstrdup(dir);
	c->file = file[0] == '/' ? lp_xstrdup(file) :
		  lp_xstrfmt("%s/%s", dir, file);
	c->argv = w.v;
	c->argc = w.nr;
	return 0;
}

char *lp_judge_slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	char *text;
	int failed, err;

	if (fd < 0)
		return NULL;
	failed = lp_read_all(fd, &text, len);
	err = errno;
	close(fd);
	errno = err;
	return failed ? NULL : text;
}

int lp_compile_db_read(struct lp_compile_db *db, const char *path)
{
	const char *why;
	char *text;
	struct lp_json top;
	size_t len, i;
	long line;

	memset(db, 0, sizeof(*db));
	text = lp_judge_slurp(path, &len);
	if (!text)
		return lp_error("cannot read '%s': %s", path, strerror(errno));
	if (lp_json_parse(&top, text, len, &line, &why) < 0) {
		free(text);
		return lp_error("%s:%ld: %s", path, line, why);
	}
	free(text);
	if (top.type != LP_JSON_ARRAY) {
		lp_json_release(&top);
		return lp_error("%s: not a compilation database (an array of "
				"commands)", path);
	}
	db->v = lp_xcalloc(top.nr + 1, sizeof(*db->v));
	for (i = 0; i < top.nr; i++) {
		if (read_entry(&top.items[i], &db->v[db->nr]) < 0) {
			lp_json_release(&top);
			lp_compile_db_release(db);
			return lp_error("%s: command %zu has no \"directory\", "
					"\"file\" and \"arguments\" or "
					"\"command\"", path, i + 1);
		}
		db->nr++;
	}
	lp_json_release(&top);
	return 0;
}

void lp_compile_db_release(struct lp_compile_db *db)
{
	size_t i, k;

	for (i = 0; db && i < db->nr; i++) {
		for (k = 0; k < db->v[i].argc; k++)
			free(db->v[i].argv[k]);
		free(db->v[i].argv);
		free(db->v[i].dir);
		free(db->v[i].file);
	}
	if (db) {
		free(db->v);
		memset(db, 0, sizeof(*db));
	}
}

/* Options that make output or name it, dropped with their value. */
static int drops_value(const char *a)
{
	return !strcmp(a, "-o") || !strcmp(a, "-MF") || !strcmp(a, "-MT") ||
	       !strcmp(a, "-MQ");
}

static int drops_alone(const char *a)
{
	return !strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E") ||
	       !strcmp(a, "-M") || !strcmp(a, "-MM") || !strcmp(a, "-MD") ||
	       !strcmp(a, "-MMD") || !strcmp(a, "-MP") || !strcmp(a, "-MG") ||
	       (!strncmp(a, "-o", 2) && a[2]) || !strncmp(a, "-MF", 3) ||
	       !strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3) ||
	       !strncmp(a, "-Wp,-M", 6) || !strncmp(a, "-fdump-", 7);
}

const char **lp_compile_cmd_preprocess(const struct lp_compile_cmd *c)
{
	const char **argv = lp_xcalloc(c->argc + 3, sizeof(*argv));
	const char *base = strrchr(c->file, '/');
	size_t i, k = 0;

	base = base ? base + 1 : c->file;
	argv[k++] = c->argv[0];
	for (i = 1; i < c->argc; i++) {
		const char *a = c->argv[i], *ab = strrchr(a, '/');

		if (drops_value(a)) {
			i++;
			continue;
		}
		/* the source itself, however the entry spelled it */
		if (a[0] != '-' && !strcmp(ab ? ab + 1 : a, base))
			continue;
		if (!drops_alone(a))
			argv[k++] = a;
	}
	argv[k++] = "-E";
	argv[k++] = c->file;
	return argv;
}
