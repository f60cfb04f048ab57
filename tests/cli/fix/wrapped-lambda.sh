#!/bin/sh
# A hint in a lambda (the profile's function is g++'s "operator()", which
# names no function of the tree) is placed by its line and condition.
# abseil's spellings hand __builtin_expect `false || (x)`, not x, and the
# profile records that condition: the tree's definitions say so, so it is
# the condition of `ABSL_PREDICT_FALSE(*p != '0')` on that line and fix
# flips it (abseil's parse_digits in str_format/parser.cc).  A condition
# that is another one on that line is still refused, and a wrong
# direction is still no match.
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
mkdir "$t/src"
cat > "$t/src/lambda.cc" <<'C'
#define ABSL_PREDICT_FALSE(x) (__builtin_expect(false || (x), false))
#define ABSL_PREDICT_TRUE(x) (__builtin_expect(false || (x), true))
int digits(const char *p, const char *end) {
  const auto parse_digits = [&] {
    int d = 0;
    for (; p != end; p++, d++)
      if (ABSL_PREDICT_FALSE(*p != '0')) break;
    return d;
  };
  const auto other = [&] {
    if (ABSL_PREDICT_TRUE(p == end)) return 0;
    return 1;
  };
  return parse_digits() + other();
}
C
(cd "$t/src" && git init -q . && git add . &&
	git -c user.name=t -c user.email=t@t commit -qm tree) || exit 2
{
	printf 'likelyprof-profile\t1\n'
	printf "site\t0\t100000\t0\t0\tlambda.cc\t7\toperator()\tlambda.cc\tfalse || (*p != '0')\n"
	printf "site\t0\t100000\t0\t1\tlambda.cc\t11\toperator()\tlambda.cc\tfalse || (p != end)\n"
	printf 'end\t2\n'
} > "$t/p.lprof"
cd "$t/src" || exit 2
"${LIKELYPROF:-likelyprof}" check --src . ../p.lprof 2>&1
echo "check: exit $?"
"${LIKELYPROF:-likelyprof}" fix --src . ../p.lprof > ../fix.mbox 2> ../fix.err
echo "fix: exit $?"
cat ../fix.err
grep '^Subject\|^[-+][^-+]' ../fix.mbox
