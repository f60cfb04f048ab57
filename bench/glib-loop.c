/*
 * glib-loop.c - the glib workload of bench/libraries.sh: libglib-2.0.so's
 * G_LIKELY/G_UNLIKELY hints run in its hash table and string code, the
 * parts of glib most programs lean on.  Each of THREADS threads, ROUNDS
 * times, builds keys with GString (printf, append, insert, case, erase),
 * inserts 20,000 of them in a GHashTable, looks every one up and as many
 * that are absent, and removes half while walking the table.  Linked against
 * the library under test; prints a checksum of what was found, which
 * every build must give.
 *
 *	glib-loop THREADS ROUNDS
 */
#include <glib.h>

#include "threads.h"

#define KEYS 20000

static long rounds;

/* Not inlined: callgrind --toggle-collect=work counts from here. */
static void make_key(GString *s, unsigned *x, int i)
{
	*x = *x * 1103515245u + 12345u;
	g_string_printf(s, "key-%u-", *x >> 12);
	g_string_append(s, i & 1 ? "Likely" : "unLikely");
	g_string_insert_c(s, 3, (char)('a' + i % 26));
	if (i % 3 == 0)
		g_string_ascii_up(s);
	if (i % 5 == 0)
		g_string_erase(s, 0, 1);
	g_string_append_printf(s, "%d", i);
}

/* Not inlined: callgrind --toggle-collect=work counts from here. */
__attribute__((noinline)) static void *work(void *arg)
{
	GString *s = g_string_new(NULL);
	unsigned long sum = 0;
	unsigned x = (unsigned)(size_t)arg * 2654435761u + 1, x0;
	long r;
	int i;

	for (r = 0; r < rounds; r++) {
		GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal,
						      g_free, NULL);
		GHashTableIter it;
		gpointer k, v;
		int n = 0;

		x0 = x;
		for (i = 0; i < KEYS; i++) {
			make_key(s, &x, i);
			g_hash_table_replace(h, g_strdup(s->str),
					     GINT_TO_POINTER(i + 1));
		}
		sum += g_hash_table_size(h);
		/* every key again, then as many absent ones */
		x = x0;
		for (i = 0; i < KEYS; i++) {
			make_key(s, &x, i);
			sum += (size_t)g_hash_table_lookup(h, s->str);
			g_string_prepend_c(s, '-');
			sum += g_hash_table_contains(h, s->str);
		}
		g_hash_table_iter_init(&it, h);
		while (g_hash_table_iter_next(&it, &k, &v))
			if (n++ & 1)
				g_hash_table_iter_remove(&it);
			else
				sum += g_str_hash(k) & 0xffff;
		sum += g_hash_table_size(h);
		g_hash_table_destroy(h);
	}
	g_string_free(s, TRUE);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	rounds = argc > 2 ? atol(argv[2]) : 20;
	return run_threads(argc > 1 ? argv[1] : NULL, work);
}
