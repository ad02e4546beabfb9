// examples/cpp/main.cpp: a C++ application: classes with virtual
// functions, a template, constexpr, lambdas, objects made by static
// constructors before main() and by new on the kernel heap.
//
//   make APP=examples/cpp run
//
// Prints, for each sensor, its filtered readings over TICKS ticks.
#include <stdio.h>
#include <stdlib.h>

#include <utility>

#include "sensor.hpp"

namespace {

constexpr uint32_t TICKS = 8;
constexpr size_t WINDOW = 4;

// A counter incremented by a constructor with a priority: it runs before
// the sensors' (a plain static object), whatever the link order.
int early_calls;
__attribute__((constructor(200))) void early() { early_calls++; }

template <typename Fn>
int32_t for_each_tick(board::Sensor &s, Fn &&fn)
{
	int32_t last = 0;
	for (uint32_t t = 0; t < TICKS; t++)
		last = fn(s.read(t));
	return last;
}

} // namespace

int main()
{
	printf("cpp: early constructor ran %d time(s)\n", early_calls);
	int sensors = 0;
	int32_t total = 0;
	for (board::Sensor *s = board::Sensor::first(); s; s = s->next()) {
		auto *filter = new board::Filter<int32_t, WINDOW>();
		int32_t last = for_each_tick(*s, [filter](int32_t v) { return filter->add(v); });
		printf("cpp: %s: window %lu, last average %ld\n", s->name(),
		       static_cast<unsigned long>(filter->size()), static_cast<long>(last));
		total += last;
		delete filter;
		sensors++;
	}
	auto pair = std::make_pair(sensors, total);
	printf("cpp: %d sensors, sum of averages %ld\n", pair.first, static_cast<long>(pair.second));
	return pair.first == 2 ? 0 : 1;
}
