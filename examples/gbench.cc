// SPDX-License-Identifier: MIT
// Google Benchmark with hwprof readings as user counters: each benchmark
// reports page faults and context switches per iteration next to its time.
#include <benchmark/benchmark.h>
#include <hwprof/hwprof.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>

namespace {

// Counts the calling thread while the benchmark runs.
class Counters {
public:
	Counters()
	{
		if (!hwp_evlist_parse("page-faults,context-switches", nullptr, &evl_) &&
		    !hwp_session_new(evl_, nullptr, &s_) && !hwp_session_open(s_))
			ok_ = true;
	}
	~Counters()
	{
		hwp_session_free(s_);
		hwp_evlist_free(evl_);
	}
	void start() { hwp_session_reset(s_), hwp_session_enable(s_); }
	void stop(benchmark::State &state)
	{
		hwp_count c[2];

		hwp_session_disable(s_);
		if (!ok_ || hwp_session_read(s_, c, 2))
			return;
		state.counters["faults"] =
			benchmark::Counter(hwp_count_scaled(&c[0]),
					   benchmark::Counter::kAvgIterations);
		state.counters["cs"] =
			benchmark::Counter(hwp_count_scaled(&c[1]),
					   benchmark::Counter::kAvgIterations);
	}

private:
	hwp_evlist *evl_ = nullptr;
	hwp_session *s_ = nullptr;
	bool ok_ = false;
};

void BM_TouchPages(benchmark::State &state)
{
	const long pages = state.range(0), page = sysconf(_SC_PAGESIZE);
	Counters counters;

	counters.start();
	for (auto _ : state) {
		char *m = static_cast<char *>(mmap(nullptr, pages * page,
						   PROT_READ | PROT_WRITE,
						   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
		madvise(m, pages * page, MADV_NOHUGEPAGE);
		for (long i = 0; i < pages; i++)
			m[i * page] = 1;
		munmap(m, pages * page);
	}
	counters.stop(state);
}
BENCHMARK(BM_TouchPages)->Arg(16)->Arg(256);

} // namespace

BENCHMARK_MAIN();
