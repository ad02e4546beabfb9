/* examples/firmware/host/dump.c: a host-side helper of this tree (it
 * prints a message's CRC on a PC); not part of the image. */
#include <stdio.h>

int main(void)
{
	puts("host tool");
	return 0;
}
