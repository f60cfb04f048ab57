/*
 * fuzz-json.c - the JSON reader and the compilation database on any bytes
 *
 * Part one parses the input with lp_json_parse().  Part two writes it as
 * a compile_commands.json and reads it as judge does, turning each
 * command into its preprocessing form.
 *
 * Properties checked (besides "no crash, no sanitizer report"):
 *  - a failed parse names a line within the input and says why;
 *  - a parsed tree is well formed: strings end in NUL at their length,
 *    numbers are non-empty text, only arrays and objects have items,
 *    every object item has a name, nesting stays within the limit, and
 *    lp_json_get() finds the last item of each name;
 *  - a database that reads has a directory, an absolute or joined file
 *    and a compiler for every command, and the preprocessing command
 *    starts with the compiler and ends in "-E", the file and NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "json.h"
#include "judge/judge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_tree(const struct lp_json *j, int depth)
{
	size_t i;

	FUZZ_CHECK(depth <= 257);
	switch (j->type) {
	case LP_JSON_STRING:
		FUZZ_CHECK(j->str && j->str[j->len] == '\0');
		FUZZ_CHECK(!j->nr && !j->items);
		break;
	case LP_JSON_NUMBER:
		FUZZ_CHECK(j->str && j->len && strlen(j->str) == j->len);
		break;
	case LP_JSON_ARRAY:
	case LP_JSON_OBJECT:
		FUZZ_CHECK(!j->nr || j->items);
		for (i = 0; i < j->nr; i++) {
			if (j->type == LP_JSON_OBJECT) {
				const struct lp_json *last;
				size_t k;

				FUZZ_CHECK(j->keys && j->keys[i]);
				last = lp_json_get(j, j->keys[i]);
				for (k = j->nr; k-- > 0;)
					if (!strcmp(j->keys[k], j->keys[i]))
						break;
				FUZZ_CHECK(last == &j->items[k]);
			}
			check_tree(&j->items[i], depth + 1);
		}
		break;
	default:
		FUZZ_CHECK(!j->nr && !j->str);
	}
}

static void fuzz_parse(const uint8_t *data, size_t size)
{
	struct lp_json j;
	const char *why = NULL;
	long line = 0, lines = 1;
	size_t i;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (lp_json_parse(&j, (const char *)data, size, &line, &why) < 0) {
		FUZZ_CHECK(why && *why);
		FUZZ_CHECK(line >= 1 && line <= lines);
		return;
	}
	check_tree(&j, 0);
	lp_json_release(&j);
}

static void fuzz_database(const uint8_t *data, size_t size)
{
	static char path[64];
	struct lp_compile_db db;
	size_t i, k;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "fuzz-json.%ld.json",
			 (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(data, 1, size, f);
	fclose(f);
	/* its errors go to stderr, as judge's do */
	if (lp_compile_db_read(&db, path) == 0) {
		for (i = 0; i < db.nr; i++) {
			const struct lp_compile_cmd *c = &db.v[i];
			const char **argv;

			FUZZ_CHECK(c->dir && c->file && c->argc >= 1);
			FUZZ_CHECK(c->argv[c->argc] == NULL);
			argv = lp_compile_cmd_preprocess(c);
			for (k = 0; argv[k]; k++)
				;
			FUZZ_CHECK(k >= 3 && argv[0] == c->argv[0]);
			FUZZ_CHECK(!strcmp(argv[k - 2], "-E"));
			FUZZ_CHECK(argv[k - 1] == c->file);
			free(argv);
		}
		lp_compile_db_release(&db);
	}
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(data, size);
	fuzz_database(data, size);
	return 0;
}
