/* SPDX-License-Identifier: MIT */
/* libpick.c - for tests/cli/test_differ.sh: the kernels the library picks in
 * this process (RC4TUNE_CONF names the config), through the public API:
 * the single-stream kernel's name, then the batch kernel's, a line each. */
#include <stdio.h>
#include <rc4tune.h>

int main(void)
{
	printf("%s\n%s\n", rc4tune_kernel_name(), rc4tune_batch_kernel_name());
	return 0;
}
