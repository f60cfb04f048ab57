/* filler 1 */
/* filler 2 */
/* filler 3 */
/* filler 4 */
/* filler 5 */
/* filler 6 */
/* filler 7 */
/* filler 8 */
/* filler 9 */
/* filler 10 */
/* filler 11 */
/* filler 12 */
/* filler 13 */
/* filler 14 */
/* filler 15 */
/* filler 16 */
/* filler 17 */
/* filler 18 */
/* filler 19 */
/* filler 20 */
/* filler 21 */
/* filler 22 */
extern struct file *alloc_file(struct path *, fmode_t mode,
	const struct file_operations *fop);

static inline void fput_light(struct file *file, int fput_needed)
{
	if (unlikely(fput_needed))
		fput(file);
}

