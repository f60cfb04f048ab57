/* plug.c - the module late.c loads: one hint, wrong for x > 5 */
int plug(int x);
int plug(int x)
{
	return __builtin_expect(x > 5, 0) ? 1 : 0;
}
