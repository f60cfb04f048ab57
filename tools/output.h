/*
 * output.h - `-o FILE` for commands that write to standard output
 * (tools/output.c)
 */
#ifndef LP_OUTPUT_H
#define LP_OUTPUT_H

/*! lp_output_option() :
 *  Takes -o FILE, -oFILE, --output FILE or --output=FILE at argv[*@i]
 *  (as lp_option_value() does) and sends standard output there.
 *  @return : 1 when argv[*@i] was that option, 0 when not.
 */
int lp_output_option(int argc, const char **argv, int *i, const char *usage);

/*! lp_output_to() :
 *  From now on standard output goes to a new file beside @path, which
 *  lp_output_done() renames over @path, so that a reader never sees half
 *  of it and a failure leaves the old file; a FIFO or device is written
 *  as it is, and "-" is standard output.  Dies with the reason when the
 *  file cannot be made.
 */
void lp_output_to(const char *path);

/*! lp_output_folder() :
 *  After the options: when -o named a folder (ending in '/', or one that
 *  is there), a usage error unless @pages (the command writes a page
 *  and its source views); else makes the folder and sends standard
 *  output to its index.html, as lp_output_to() does.
 *  @return : the folder, or NULL when -o did not name one.
 */
const char *lp_output_folder(int pages, const char *usage);

/*! lp_output_done() :
 *  Standard output has been flushed and closed: with @ok, put the file
 *  in its place; else (or at an exit before this) remove it.
 *  @return : 0, or -1 after saying why the file could not be put.
 */
int lp_output_done(int ok);

#endif /* LP_OUTPUT_H */
