%:define ARR(i) a<:i:>
int k(int *a) <% if (unlikely(ARR(0) == 1)) return u8'x'; return 0; %>
int m(void) { return likely("unterminated
); }
#if 1
int n(void) { if (likely(1
#else
int n(void) { if (likely(2
#endif
)) return 1; return 0; }
