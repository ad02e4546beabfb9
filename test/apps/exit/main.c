/*
 * test/apps/exit/main.c: returns the number given after '--' (0 without
 * one), so a test can see which status reaches the host
 * (test/readme_examples.py: make run's status, as docs/running.md promises).
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int status = argc > 0 ? atoi(argv[0]) : 0;

	printf("exit: main() returns %d\n", status);
	return status;
}
