/*
 * color.h - gcc's colours for check's diagnostics (tools/color.c)
 */
#ifndef LP_COLOR_H
#define LP_COLOR_H

/* The parts of a diagnostic gcc colours, and their GCC_COLORS names. */
enum lp_color_part {
	LP_COLOR_LOCUS,         /* "file:line:" */
	LP_COLOR_WARNING,       /* "warning:", and the [tag] of a warning */
	LP_COLOR_NOTE,          /* "note:", and the [tag] of a note */
	LP_COLOR_QUOTE,         /* 'quoted' text */
	LP_COLOR_NPARTS
};

/*! lp_color_option() :
 *  Takes --color[=WHEN] or --colour[=WHEN] (auto, always, never; bare
 *  is always) at @arg.  @return : 1 when it was that option, else 0.
 */
int lp_color_option(const char *arg, const char *usage);

/*! lp_color_start() / lp_color_end() :
 *  The escape that starts @part's colour on stdout, and the one that
 *  ends it: both "" when colour is off (--color=never, NO_COLOR, a
 *  TERM of dumb, stdout no terminal under auto, or GCC_COLORS giving
 *  the part no colour).
 */
const char *lp_color_start(enum lp_color_part part);
const char *lp_color_end(enum lp_color_part part);

#endif /* LP_COLOR_H */
