#include <stdio.h>
#include <baretrace.h>

static void hello(void *arg)
{
	printf("hello %s from CPU %u\n", (const char *)arg, smp_cpu_id());
}

int main(int argc, char **argv)
{
	const char *who = argc > 0 ? argv[0] : "world";

	for (unsigned int cpu = 1; cpu < smp_num_cpus(); cpu++) {
		smp_start(cpu, hello, (void *)who);
		smp_wait(cpu);
	}
	return 0;
}
