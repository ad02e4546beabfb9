// examples/cpp/probes.cpp: two sensors built by static constructors
// before main() runs.
#include "sensor.hpp"

namespace {

// A temperature in millidegrees: 20000 plus 250 per tick.
class Thermometer final : public board::Sensor {
public:
	Thermometer() : Sensor("thermometer") {}
	int32_t read(uint32_t tick) override { return 20000 + 250 * static_cast<int32_t>(tick); }
};

// A supply voltage in millivolts that alternates around 3300.
class Supply final : public board::Sensor {
public:
	Supply() : Sensor("supply") {}
	int32_t read(uint32_t tick) override { return tick % 2 ? 3310 : 3290; }
};

Thermometer thermometer;
Supply supply;

} // namespace
