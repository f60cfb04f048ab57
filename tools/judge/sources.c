/*
 * sources.c - which sources judge reads its hints from, and how each is
 * preprocessed: every .c file under the source folder with the -I/-D
 * options given, or each of the tree's units by its own command of the
 * build's compilation database (hints.c scans what the preprocessor
 * writes)
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "judge/judge.h"
#include "usage.h"

/* The .c files under @dir, in the order readdir gives them. */
static int walk(const char *dir, char ***paths, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return lp_error("cannot read '%s'", dir);
	while (!ret && (e = readdir(d))) {
		char *path;
		struct stat st;
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		path = lp_xstrfmt("%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0) {
			free(path);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			ret = walk(path, paths, n, cap);
		} else if (S_ISREG(st.st_mode) && len > 2 &&
			   !strcmp(e->d_name + len - 2, ".c")) {
			if (*n == *cap)
				*paths = lp_xrealloc(*paths, (*cap = *cap * 2 +
							      16) *
						     sizeof(**paths));
			(*paths)[(*n)++] = path;
			continue;
		}
		free(path);
	}
	closedir(d);
	return ret;
}

/* `@cc -E -I<its folder> @flags @path`, malloc'd, with its -I string. */
static const char **preprocess_argv(const char *path, const char *cc,
				    const char *const *flags, char **idir)
{
	const char **argv;
	size_t n = 0, i, k = 0;
	char *dir = lp_xstrdup(path), *slash;

	while (flags && flags[n])
		n++;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	*idir = lp_xstrfmt("-I%s", dir);
	free(dir);
	argv = lp_xcalloc(n + 6, sizeof(*argv));
	argv[k++] = cc;
	argv[k++] = "-E";
	argv[k++] = *idir;
	for (i = 0; i < n; i++)
		argv[k++] = flags[i];
	argv[k++] = path;
	return argv;
}

int lp_hints_find(struct lp_hints *out, const char *src, const char *cc,
		  const char *const *flags)
{
	char *real = realpath(src, NULL), *root, **paths = NULL, **idirs;
	size_t n = 0, cap = 0, i;
	struct lp_capture *c;
	int ret;

	if (!real)
		return lp_error("cannot read source folder '%s'", src);
	root = lp_xstrfmt("%s/", real);
	ret = walk(real, &paths, &n, &cap);
	c = lp_xcalloc(n + 1, sizeof(*c));
	idirs = lp_xcalloc(n + 1, sizeof(*idirs));
	for (i = 0; i < n; i++) {
		c[i].argv = preprocess_argv(paths[i], cc, flags, &idirs[i]);
		c[i].arg = paths[i];
	}
	if (!ret)
		ret = lp_hints_scan_units(out, root, c, n);
	for (i = 0; i < n; i++) {
		free((void *)c[i].argv);
		free(idirs[i]);
		free(paths[i]);
	}
	free(idirs);
	free(paths);
	free(c);
	free(real);
	free(root);
	return ret;
}

static int is_c_source(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".c");
}

/*
 * clang's own front end (clang -cc1 ...), which bear records beside the
 * driver's command that ran it: it does not run as a command of its own
 * ("error reading 'pic'"), and the driver's entry says all of it.  Kept
 * where the file has no other entry, as in a build that calls the front
 * end itself.
 */
static int frontend_twin(const struct lp_compile_db *db, char *const *real,
			 size_t i)
{
	const struct lp_compile_cmd *c = &db->v[i];
	size_t k;

	if (c->argc < 2 || strcmp(c->argv[1], "-cc1") || !real[i])
		return 0;
	for (k = 0; k < db->nr; k++)
		if (real[k] && !strcmp(real[k], real[i]) &&
		    (db->v[k].argc < 2 || strcmp(db->v[k].argv[1], "-cc1")))
			return 1;
	return 0;
}

int lp_hints_find_db(struct lp_hints *out, const char *src,
		     const struct lp_compile_db *db)
{
	char *real = realpath(src, NULL), *root, **file;
	size_t i, nroot, n = 0;
	struct lp_capture *c;
	int ret;

	if (!real)
		return lp_error("cannot read source folder '%s'", src);
	root = lp_xstrfmt("%s/", real);
	nroot = strlen(root);
	file = lp_xcalloc(db->nr + 1, sizeof(*file));
	c = lp_xcalloc(db->nr + 1, sizeof(*c));
	for (i = 0; i < db->nr; i++)
		file[i] = realpath(db->v[i].file, NULL);
	for (i = 0; i < db->nr; i++) {
		/* a unit outside the tree, or gone since the build */
		if (!file[i] || strncmp(file[i], root, nroot) ||
		    !is_c_source(file[i]) || frontend_twin(db, file, i))
			continue;
		c[n].argv = lp_compile_cmd_preprocess(&db->v[i]);
		c[n].dir = db->v[i].dir;
		c[n++].arg = file[i];
	}
	ret = lp_hints_scan_units(out, root, c, n);
	for (i = 0; i < n; i++)
		free((void *)c[i].argv);
	for (i = 0; i < db->nr; i++)
		free(file[i]);
	free(c);
	free(file);
	free(real);
	free(root);
	return ret;
}
