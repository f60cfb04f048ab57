/*
 * main.c - logstat [THREADS [LINES]]: analyse generated access logs
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logstat.h"

struct job {
	uint64_t seed;
	unsigned long lines;
	struct stats *stats;
	unsigned long bad;
};

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

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	unsigned long lines = argc > 2 ? strtoul(argv[2], NULL, 10) : 400000;
	struct job jobs[16];
	pthread_t tid[16];
	struct stats *total;
	unsigned long bad = 0;
	int i;

	if (threads < 1 || threads > 16) {
		fprintf(stderr, "usage: logstat [THREADS (1-16) [LINES]]\n");
		return 2;
	}
	for (i = 0; i < threads; i++) {
		jobs[i].seed = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
		jobs[i].lines = lines / (unsigned long)threads;
		jobs[i].stats = stats_new(4096);
		jobs[i].bad = 0;
		if (pthread_create(&tid[i], NULL, worker, &jobs[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	total = stats_new(4096);
	for (i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		stats_merge(total, jobs[i].stats);
		bad += jobs[i].bad;
		stats_free(jobs[i].stats);
	}
	stats_print(total);
	if (bad)
		printf("%lu malformed lines\n", bad);
	stats_free(total);
	return 0;
}
