/*
 * examples/direct/main.c: a direct trampoline on a function.
 *
 *   make APP=examples/direct run-direct
 *
 * trace_direct_attach(func, tramp) makes func's patch site call tramp
 * itself (a BL when within +-128 MiB, otherwise through the trace core's
 * trace_caller_direct), with no ops list and no callback in between.
 * tramp.S calls the original body and then scale_exit() with the
 * argument and the return value: fentry and fexit in one.
 */
#include <stdint.h>
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

void scale_exit_tramp(void);

static int __attribute__((noipa)) scale(int x)
{
	return 3 * x;
}

static unsigned int calls;

/* Runs after scale() returned; what it returns is what the caller sees. */
notrace int scale_exit(int arg, int ret)
{
	calls++;
	return arg < 0 ? 0 : ret;	/* clamp negative inputs to 0 */
}

int main(int argc, char **argv)
{
	(void)argc, (void)argv;
	int before = scale(-2);

	trace_direct_attach(scale, scale_exit_tramp);
	int during = scale(-2) + scale(5);
	trace_direct_detach(scale);
	int after = scale(-2);

	printf("direct: scale(-2) %d before, %d while attached (+ scale(5) = %d), %d after; "
	       "%u exits seen\n", before, during - 15, during, after, calls);
	return before == -6 && during == 15 && after == -6 && calls == 2 ? 0 : 1;
}
