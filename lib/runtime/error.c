/*
 * error.c - names of the library's error codes
 */
#include "likelyprof.h"

LP_API const char *lp_strerror(int code)
{
	static const char *const names[] = {
		[LP_OK] = "no error",
		[LP_ENOMEM] = "out of memory",
		[LP_EIO] = "input/output error",
		[LP_EPARSE] = "malformed input",
		[LP_EVERSION] = "unsupported profile version",
		[LP_EINVAL] = "invalid argument",
		[LP_ETRUNC] = "truncated profile",
		[LP_EBUSY] = "a dump is already in progress",
		[LP_ERANGE] = "number out of range",
		[LP_EEMPTY] = "no site in input",
		[LP_ENOENT] = "no such file",
		[LP_EBINARY] = "binary data",
		[LP_ECONFLICT] = "inputs disagree",
	};

	if (code < 0)
		code = -code;
	if ((unsigned)code >= sizeof(names) / sizeof(names[0]) || !names[code])
		return "unknown error";
	return names[code];
}

LP_API unsigned lp_version_number(void)
{
	return LP_VERSION_NUMBER;
}
