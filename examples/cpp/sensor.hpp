// examples/cpp/sensor.hpp: sensors behind a virtual interface, a
// registry filled by static constructors, and a fixed-size filter.
#ifndef EXAMPLES_CPP_SENSOR_HPP
#define EXAMPLES_CPP_SENSOR_HPP

#include <stddef.h>
#include <stdint.h>

namespace board {

class Sensor {
public:
	explicit Sensor(const char *name);
	virtual ~Sensor() = default;
	virtual int32_t read(uint32_t tick) = 0;
	const char *name() const { return name_; }
	Sensor *next() const { return next_; }
	static Sensor *first();

private:
	const char *name_;
	Sensor *next_;
};

// A moving average over the last N samples; N is fixed when compiled.
template <typename T, size_t N>
class Filter {
public:
	static constexpr size_t size() { return N; }
	T add(T v)
	{
		sum_ += v - buf_[pos_];
		buf_[pos_] = v;
		pos_ = (pos_ + 1) % N;
		if (count_ < N)
			count_++;
		return sum_ / static_cast<T>(count_);
	}

private:
	T buf_[N] = {};
	T sum_ = 0;
	size_t pos_ = 0;
	size_t count_ = 0;
};

} // namespace board

#endif
