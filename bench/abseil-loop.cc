/*
 * abseil-loop.cc - the abseil workload of bench/libraries.sh: the
 * ABSL_PREDICT_TRUE/FALSE hints of absl::flat_hash_map, which live in
 * templates and so are compiled into this program (built as the variant
 * is) as well as in the hash and container libraries it links.  Each of
 * THREADS threads, ROUNDS times, inserts 50,000 pseudo-random 64-bit keys
 * and 10,000 string keys, finds each and as many absent ones, and erases
 * half.  Prints a checksum of what was found, which every build must
 * give.
 *
 *	abseil-loop THREADS ROUNDS
 */
#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"

#include "threads.h"

static long rounds;

/* Not inlined: callgrind --toggle-collect=work counts from here. */
__attribute__((noinline)) static void *work(void *arg)
{
	unsigned long sum = 0;
	uint64_t x = (uint64_t)(size_t)arg * 2654435761u + 1;

	for (long r = 0; r < rounds; r++) {
		absl::flat_hash_map<uint64_t, uint64_t> m;
		absl::flat_hash_map<std::string, int> s;
		uint64_t x0 = x;

		for (int i = 0; i < 50000; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			m[x >> 20] += (uint64_t)i;
			if (i % 5 == 0)
				s.emplace("key-" + std::to_string(x >> 40), i);
		}
		x = x0;
		for (int i = 0; i < 50000; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			auto it = m.find(x >> 20);
			if (it != m.end())
				sum += it->second;
			sum += m.count(x >> 19);
			if (i % 5 == 0) {
				auto j = s.find("key-" + std::to_string(x >> 40));
				if (j != s.end())
					sum += (unsigned long)j->second;
			}
			if (i & 1)
				m.erase(x >> 20);
		}
		sum += m.size() + s.size();
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	rounds = argc > 2 ? atol(argv[2]) : 20;
	return run_threads(argc > 1 ? argv[1] : NULL, work);
}
