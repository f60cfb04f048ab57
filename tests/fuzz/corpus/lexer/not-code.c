/* likely(a) in a comment */ // unlikely(b) too \
 still a comment likely(c)
static const char *s = "likely(d)", c = 'l', *w = L"unlikely(e)";
#if 0
if (likely(dead)) x();
#else
int f(int g) { return likely(g); }
#endif
#include <likely(h).h>
