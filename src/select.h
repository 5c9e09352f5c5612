/* select.h - the library's current kernel, chosen once at first use. */
#ifndef RC4_SELECT_H
#define RC4_SELECT_H

#include "kernels/kernel.h"

/* The kernel new keys use; the first call in a process runs the selection. */
const struct rc4k *rc4_current(void);

#endif
