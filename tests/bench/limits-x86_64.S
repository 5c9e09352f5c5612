/* SPDX-License-Identifier: MIT */
/* limits-x86_64.S - the x86-64 bound loops of tests/bench/limits.c (GNU as,
 * AT&T syntax, SysV ABI).  They compute nothing useful: each times one
 * resource the RC4 loops share, with the instructions the kernels use. */

#include "kernels/x86_64/asm.h"

	.text

/* void lim_ports(const uint8_t *src, uint8_t *dst, size_t trips)
 * Byte loads and stores in RC4's 3:2 mix, at constant addresses and with
 * no dependency between them: what the memory ports sustain.  A trip is
 * 12 loads and 8 stores; loads and stores never meet (other lines). */
fstart lim_ports
1:
	.irp k, 0, 1, 2, 3
	movzbl	\k*192(%rdi), %eax
	movzbl	\k*192+64(%rdi), %ecx
	movzbl	\k*192+128(%rdi), %r8d
	movb	%al, \k*128(%rsi)
	movb	%cl, \k*128+64(%rsi)
	.endr
	decq	%rdx
	jnz	1b
	ret
fend lim_ports

/* void lim_gather16(const uint8_t *s, uint8_t *buf, size_t blocks)
 * The 16x kernels' keystream gather alone: 16 pinsrb from constant,
 * scattered offsets of the 256-byte S into two registers, then one
 * 16-byte XOR into BUF in place, a block of 16 bytes at a time.  No
 * swap and no index chain: what the gather costs a byte.  SSE4.1. */
fstart lim_gather16
1:
	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
	.irp k, 0, 2, 4, 6, 8, 10, 12, 14
	pinsrb	$\k, ((\k*37)&255)(%rdi), %xmm0
	pinsrb	$\k+1, (((\k+1)*37)&255)(%rdi), %xmm1
	.endr
	movdqu	(%rsi), %xmm2
	pxor	%xmm0, %xmm2
	pxor	%xmm1, %xmm2
	movdqu	%xmm2, (%rsi)
	addq	$16, %rsi
	decq	%rdx
	jnz	1b
	ret
fend lim_gather16

	.section .note.GNU-stack,"",@progbits
