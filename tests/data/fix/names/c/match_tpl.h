/* match_tpl.h - one body, compiled once per MATCH_FN */
int MATCH_FN(int x)
{
	int r = 0;

	if (UNLIKELY(x & 1))    /* odd most of the time */
		r = 1;
	return r;
}
