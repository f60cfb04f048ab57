static void *worker(void *arg)
{
	struct job *job = arg;
	struct cache paths, agents;
	char line[256];
	unsigned long i;

	memset(&paths, 0, sizeof(paths));
	memset(&agents, 0, sizeof(agents));
	for (i = 0; i < job->lines; i++) {
		struct request req;
		const char *agent;
		size_t n = gen_line(line, sizeof(line), &job->seed);

		if (unlikely(n == 0 || parse_line(line, &req, &paths) < 0)) {
			job->bad++;
			continue;
		}
		agent = strstr(line, "agent-");
		stats_add(job->stats, &req, &agents, agent ? agent : "");
	}
	return NULL;
}

