// examples/cpp/sensor.cpp: the registry. Each Sensor's constructor puts
// it at the end of the list, so the list is in construction order: the
// order of the static objects in each file, files in link order.
#include <stdio.h>

#include "sensor.hpp"

namespace board {

static Sensor *head;

Sensor::Sensor(const char *name) : name_(name), next_(nullptr)
{
	Sensor **p = &head;
	while (*p)
		p = &(*p)->next_;
	*p = this;
	printf("constructed %s\n", name);
}

Sensor *Sensor::first()
{
	return head;
}

} // namespace board
