int table_put(struct table *t, const char *key, long value)
{
	size_t k;

	CHECK_TABLE(t);
	if (GROW_IF(t, 1))
		return -1;
	k = probe(t, key);
	if (tbl_unlikely(t->slot[k].key != NULL)) {
		/* "likely(" in a comment is no annotation */
		t->slot[k].value = value;
		return 0;
	}
	t->slot[k].key = strdup(key);
	if (UNLIKELY(!t->slot[k].key))
		return -1;
	t->slot[k].value = value;
	t->used++;
	return 1;
}

int table_get(struct table *t, const char *key, long *value)
{
	size_t k;

	CHECK_TABLE(t);
	t->lookups++;
	if (UNLIKELY(!t->cap)) {
		t->misses++;
		return 0;
	}
	k = probe(t, key);
	if (LIKELY(t->slot[k].key != NULL)) {
		*value = t->slot[k].value;
		return 1;
	}
	t->misses++;
	return 0;
}

int table_add_all(struct table *t, const char *const *keys, size_t n)
{
	size_t i;

	CHECK_TABLE(t);
	if (GROW_IF(t, n))
		return -1;
	for (i = 0; i < n; i++)
		if (UNLIKELY(table_put(t, keys[i], (long)i) < 0))
			return -1;
	return 0;
}

long table_sum(const struct table *t)
{
	long sum = 0;
	size_t i;

	for (i = 0; LIKELY(i < t->cap); i++)
		if (t->slot[i].key)
			sum += t->slot[i].value;
	return sum;
}

int table_hit_rate(const struct table *t)
{
	if (UNLIKELY(t->lookups == 0))
		return 100;
	return (int)(100 - 100 * t->misses / t->lookups) +
	       !LIKELY(banner[0] != quote);
}

