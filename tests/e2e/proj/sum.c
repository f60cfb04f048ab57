unsigned checksum(const unsigned char *p, int n);
unsigned checksum(const unsigned char *p, int n)
{
	unsigned s = 0;

	while (__builtin_expect(n-- > 0, 1))
		s = s * 31 + *p++;
	return s;
}
