#!/bin/sh
# Seed 005's case: the table's line 2206 is in a function with two
# annotations, 15 and 22 lines below it (the tree grew by 15 lines since
# the profile).  The nearest is taken, as doc/likelyprof-fix.md says;
# the table names no direction, so either could have been the one.
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src/mm"
{
	i=1
	while [ $i -lt 2213 ]; do echo; i=$((i + 1)); done
	cat <<'C'
struct page *grab_cache_page_write_begin(struct address_space *mapping,
					pgoff_t index, unsigned flags)
{
	int status;
	struct page *page;
	gfp_t gfp_notmask = 0;
repeat:
	page = find_lock_page(mapping, index);
	if (likely(page))
		return page;

	page = __page_cache_alloc(mapping_gfp_mask(mapping) & ~gfp_notmask);
	if (!page)
		return NULL;
	status = add_to_page_cache_lru(page, mapping, index, GFP_KERNEL);
	if (unlikely(status)) {
		page_cache_release(page);
		return NULL;
	}
	return page;
}
C
} > "$t/src/mm/filemap.c"
cat > "$t/table.txt" <<'T'
 correct incorrect  %        Function                  File              Line
 ------- ---------  -        --------                  ----              ----
 1924262 71332401  97 grab_cache_page_write_begin    filemap.c           2206
T
"${LIKELYPROF:-likelyprof}" fix --apply --src "$t/src" "$t/table.txt" |
	sed "s|$t/||"
grep -n 'if (' "$t/src/mm/filemap.c"
