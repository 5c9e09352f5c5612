/* SPDX-License-Identifier: MIT */
/* layout.h - offsets the assembly hard-codes, for the .S files and for the
 * C that checks them against the structs (kernels.c, lanes.c). */
#ifndef RC4K_X86_64_LAYOUT_H
#define RC4K_X86_64_LAYOUT_H

/* struct rc4k_state: x, y, and entry 0 of s. */
#define ST_X 0
#define ST_Y 4
#define ST_S 16

/* lanes.c's key block: each lane's key repeated to KX_LEN bytes, so lane l
 * starts at l * KX_STRIDE. */
#define KX_STRIDE 272

/* batch.S's lane blocks: lane l's S at l * LANE_BYTES(w), for cells of
 * W bytes.  32- and 64-bit lanes are padded by 64 bytes so that lanes
 * 4 KiB apart do not meet at 4 KiB strides, where loads falsely wait for
 * stores (gas takes no comparison in an operand: (w + 4) / 8 is 0 for
 * 8-bit cells, 1 for the others). */
#define LANE_BYTES(w) (256 * (w) + 64 * (((w) + 4) / 8))

#endif
