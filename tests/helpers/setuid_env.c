/* SPDX-License-Identifier: MIT */
/* setuid_env.c - for test_setuid.sh: the kernel the library chose (and so
 * whether it read RC4TUNE_KERNEL, RC4TUNE_CONF), then whether the kernel
 * ran this program in secure mode (AT_SECURE: setuid, setgid, caps). */
#include <config.h>

#include <stdio.h>
#include <sys/auxv.h>
#include "rc4tune.h"

int main(void)
{
	printf("%s %lu\n", rc4tune_kernel_name(), getauxval(AT_SECURE));
	return fflush(stdout) == 0 ? 0 : 1;
}
