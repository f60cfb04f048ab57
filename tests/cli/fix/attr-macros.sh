#!/bin/sh
# A function whose parameter list is followed by attribute macros before
# its body -- mimalloc's "void mi_free(void* p) mi_attr_noexcept {",
# "ATTR(pure)", glibc's "__THROW" -- is still found, so its annotation is
# fixed; "struct s {" and an initializer "= {" are no functions.
mkdir src
cat > src/alloc.c <<'C'
#define mi_attr_noexcept
#define ATTR(x)
#define __THROW
struct s {
	int a;
};
static const int table[] = { 1, 2 };

void mi_free(void *p) mi_attr_noexcept
{
	if (likely(p != 0))
		table_free(p);
}

static int pure_fn(int x) ATTR(pure) __THROW {
	return unlikely(x > 3) ? 1 : 0;
}
C
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t400000\t600000\t0\t1\talloc.c\t11\tmi_free\t\t\n'
	printf 'site\t0\t900000\t0\t0\talloc.c\t17\tpure_fn\t\t\n'
	printf 'end\t2\n'
} > a.lprof
"$LIKELYPROF" fix --apply --src src a.lprof
echo "exit $?"
sed -n '11p;16p' src/alloc.c
