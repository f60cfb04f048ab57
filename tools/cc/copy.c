/*
 * copy.c - compiling the rewritten copy of a source in its place
 *
 * attr.c rewrites a source's [[likely]]/[[unlikely]] into counted hints;
 * the instrumented compile then reads that copy, from the scratch
 * folder, where it must come out as the source's own compile would:
 *
 *   - "..." includes: the copy's folder holds nothing else, and the
 *     source's folder comes first with -iquote, so each header is found
 *     where the source finds it, under the same spelling (__FILE__ in
 *     the header is the same);
 *   - names: a #line on top gives __FILE__; -ffile-prefix-map gives
 *     __BASE_FILE__ (the site's unit) and the debug information;
 *   - outputs: the object is named (the compiler would name it after the
 *     copy), and the dependency file, named too, lists the source where
 *     the compiler wrote the copy.
 *
 * The copy keeps the source's base name, so -save-temps and the dump
 * files are named as they would be.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc/args.h"
#include "cc/copy.h"
#include "usage.h"
#include "write-file.h"

static void push_owned(struct lp_cc_copy *c, char *s)
{
	lp_args_push(&c->args, s);
}

char *lp_cc_with_suffix(const char *path, const char *suffix)
{
	const char *base = lp_cc_base_name(path), *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - path) : strlen(path);

	return lp_xstrfmt("%.*s%s", (int)n, path, suffix);
}

char *lp_cc_deps_file(int argc, const char **argv, const char *out,
		      int *bare)
{
	const char *mf = NULL;
	int i, md = 0;

	*bare = 0;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-MD") || !strcmp(a, "-MMD"))
			md = 1;
		else if (!strcmp(a, "-MF") && i + 1 < argc)
			mf = argv[++i];
		else if (!strncmp(a, "-MF", 3))
			mf = a + 3;
		else if (!strncmp(a, "-Wp,-MD,", 8) ||
			 !strncmp(a, "-Wp,-MMD,", 9))
			mf = strchr(a + 4, ',') + 1;
	}
	if (mf)
		return lp_xstrdup(mf);
	if (!md)
		return NULL;
	*bare = 1;
	return lp_cc_with_suffix(out, ".d");
}

/* The dependency file, named for the copy's compile where it is bare. */
static char *deps_file(struct lp_cc_copy *c, int argc, const char **argv,
		       const char *out)
{
	int bare;
	char *deps = lp_cc_deps_file(argc, argv, out, &bare);

	if (bare) {
		push_owned(c, lp_xstrdup("-MF"));
		push_owned(c, lp_xstrdup(deps));
	}
	return deps;
}

char *lp_cc_object_name(const char *src, int assembly)
{
	return lp_cc_with_suffix(lp_cc_base_name(src), assembly ? ".s" : ".o");
}

/* No byte that make quotes in a dependency file, nor a '=' for a map. */
static int plain_path(const char *s)
{
	return !strpbrk(s, " \t\n#$\\:=");
}

/* The options that make the copy compile as the source at @src would. */
static int copy_options(struct lp_cc_copy *c, const char *src, int clang)
{
	const char *base = lp_cc_base_name(src);

	if (!plain_path(src) || !plain_path(c->path))
		return -1;
	if (base != src) {
		push_owned(c, lp_xstrdup("-iquote"));
		push_owned(c, lp_xstrfmt("%.*s", (int)(base - src - 1) ?
					 (int)(base - src - 1) : 1, src));
	} else {
		/*
		 * Beside a source of the current folder gcc finds "h.h" as
		 * "h.h" and clang as "./h.h": "./." is a spelling of that
		 * folder that only this option gives, so a map can undo it.
		 */
		push_owned(c, lp_xstrdup("-iquote"));
		push_owned(c, lp_xstrdup("./."));
		push_owned(c, lp_xstrdup(clang ? "-ffile-prefix-map=././=./"
					       : "-ffile-prefix-map=././="));
	}
	push_owned(c, lp_xstrfmt("-ffile-prefix-map=%s=%s", c->path, src));
	return 0;
}

int lp_cc_copy_make(struct lp_cc_copy *c, char *dir, const char *text,
		    size_t len, int argc, const char **argv, int src,
		    const char *out, unsigned flags)
{
	int clang = !!(flags & LP_CC_COPY_CLANG), fd;

	memset(c, 0, sizeof(*c));
	c->src = argv[src];
	c->dir = dir;
	c->path = lp_xstrfmt("%s/%s", dir, lp_cc_base_name(argv[src]));
	c->out = out ? lp_xstrdup(out)
		     : lp_cc_object_name(argv[src],
					 flags & LP_CC_COPY_ASSEMBLY);
	if (mkdir(dir, 0700)) {
		/* not ours: another compile of the source may be using it */
		free(c->path);
		free(c->dir);
		c->path = c->dir = NULL;
		lp_cc_copy_done(c, 0);
		return -1;
	}
	if (copy_options(c, argv[src], clang)) {
		lp_cc_copy_done(c, 0);
		return -1;
	}
	c->expanded = !!(flags & LP_CC_COPY_EXPANDED);
	if (c->expanded && !clang) {
		push_owned(c, lp_xstrdup("-fpreprocessed"));
		push_owned(c, lp_xstrdup("-fdirectives-only"));
	}
	if (!c->expanded)
		c->deps = deps_file(c, argc, argv, c->out);
	fd = open(c->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || lp_write_all(fd, text, len) || close(fd)) {
		if (fd >= 0)
			close(fd);
		lp_cc_copy_done(c, 0);
		return -1;
	}
	return 0;
}

/* The dependency file with each mention of the copy made the source's. */
static void mend_deps(const struct lp_cc_copy *c)
{
	char *text = NULL, *at, *from;
	size_t len, n = strlen(c->path);
	int fd = open(c->deps, O_RDWR | O_CLOEXEC);
	FILE *f;

	if (fd < 0 || lp_read_all(fd, &text, &len) ||
	    !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		free(text);
		return;
	}
	if (ftruncate(fileno(f), 0) == 0 && fseek(f, 0, SEEK_SET) == 0) {
		for (from = text; (at = strstr(from, c->path)); from = at + n)
			fprintf(f, "%.*s%s", (int)(at - from), from, c->src);
		fputs(from, f);
	}
	fclose(f);
	free(text);
}

void lp_cc_copy_done(struct lp_cc_copy *c, int ok)
{
	if (ok && c->deps)
		mend_deps(c);
	if (c->path)
		unlink(c->path);
	if (c->dir)
		rmdir(c->dir);
	free(c->dir);
	free(c->path);
	free(c->out);
	free(c->deps);
	lp_args_release_owned(&c->args);
	memset(c, 0, sizeof(*c));
}
