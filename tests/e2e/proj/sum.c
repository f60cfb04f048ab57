int checksum(const unsigned char *p, int n);
int checksum(const unsigned char *p, int n)
{
	int s = 0;

	while (__builtin_expect(n-- > 0, 1))
		s = s * 31 + *p++;
	return s;
}
