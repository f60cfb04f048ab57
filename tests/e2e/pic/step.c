/* step.c - the call that hot()'s loop makes, in another unit. */
int hot_step(int v)
{
	return v ^ 1;
}
