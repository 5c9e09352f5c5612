/* SPDX-License-Identifier: MIT */
/* asm.h - gas macros the x86-64 .S files share: the start and end of a
 * hidden global function, and pushes and pops that tell the unwinder. */

.macro fstart name
	.globl	\name
	.hidden	\name
	.type	\name, @function
	.p2align 6
\name:
	.cfi_startproc
.endm

.macro fend name
	.cfi_endproc
	.size	\name, . - \name
.endm

.macro cpush reg
	pushq	\reg
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset \reg, 0
.endm

.macro cpop reg
	popq	\reg
	.cfi_adjust_cfa_offset -8
	.cfi_restore \reg
.endm
