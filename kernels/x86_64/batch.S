/* SPDX-License-Identifier: MIT */
/* batch.S - multi-lane RC4 cores for 8-, 32- and 64-bit states (GNU as,
 * AT&T, SysV ABI), called by kernels/x86_64/lanes.c, which copies the
 * lanes' states into one block (lane l at l*LANE_BYTES, layout.h) and
 * back, so that every entry is a constant displacement from one register.
 * Each core is one gas macro instantiated for each cell width: wider cells
 * are loaded and stored 32 bits at a time (byte stores into a state the
 * loop also reads can run at half the rate of 32-bit ones:
 * doc/cpus/AuthenticAMD-25-1.md); a 64-bit cell's upper half is zero
 * throughout, so its low half is all the loops read and write.
 *
 * Why assembly: a step's loads must come before its stores in program
 * order across all lanes (every lane's S[x], S[y] loads, then every lane's
 * stores).  The core does not let a load pass an older store whose address
 * is still unknown unless it predicts no alias, and RC4's real aliases
 * teach it not to; written lane after lane, each lane's loads wait for the
 * previous lane's S[y] store and the lanes form one serial chain.  gcc
 * keeps that order in C but spills the 12 live lane values, and the spill
 * stores undo it.  doc/cpus/AuthenticAMD-25-17.md, "Batch kernels", has the
 * figures. */

#include <config.h>
#include "asm.h"
#include "layout.h"

/* Cell IDX of lane L's state, for cells of W bytes: loads zero-extend into
 * a 32-bit register, stores take the register of the cell's width (of its
 * low half, for 64-bit cells). */
.macro cell_load w, l, idx, dst
 .if \w == 1
	movzbl	256*\l(%rdi,\idx), \dst
 .else
	movl	LANE_BYTES(\w)*\l(%rdi,\idx,\w), \dst
 .endif
.endm
.macro cell_store w, l, idx, src, srcb
 .if \w == 1
	movb	\srcb, 256*\l(%rdi,\idx)
 .else
	movl	\src, LANE_BYTES(\w)*\l(%rdi,\idx,\w)
 .endif
.endm

	.text

/* void rc4k_x86_ksa8_{char,int,long}(uint8_t *blk)
 * blk: S of lane l at l*LANE_BYTES(W) (identity), the key repeated to 256
 * bytes at 8*LANE_BYTES(W) + l*KX_STRIDE.  The 256 KSA steps of 8 lanes, lane after
 * lane: six instructions a lane-step where gcc's 8-lane C loop takes ten
 * (register copies).
 *   rdi blk   rsi i   r8-r15 j (8-bit adds; upper bits stay zero)
 *   eax t = S[i]   edx u = S[j] */
.macro ksa_step w, l, j, jb
	cell_load \w, \l, %rsi, %eax
	addb	%al, \jb
	addb	8*LANE_BYTES(\w)+KX_STRIDE*\l(%rdi,%rsi), \jb
	cell_load \w, \l, \j, %edx
	cell_store \w, \l, %rsi, %edx, %dl
	cell_store \w, \l, \j, %eax, %al
.endm

.macro ksa8 name, w
	fstart	\name
	.irp r, %r12, %r13, %r14, %r15
	cpush	\r
	.endr
	xorl	%esi, %esi
	.irp r, %r8d, %r9d, %r10d, %r11d, %r12d, %r13d, %r14d, %r15d
	xorl	\r, \r
	.endr
1:
	ksa_step \w, 0, %r8, %r8b
	ksa_step \w, 1, %r9, %r9b
	ksa_step \w, 2, %r10, %r10b
	ksa_step \w, 3, %r11, %r11b
	ksa_step \w, 4, %r12, %r12b
	ksa_step \w, 5, %r13, %r13b
	ksa_step \w, 6, %r14, %r14b
	ksa_step \w, 7, %r15, %r15b
	incl	%esi
	cmpl	$256, %esi
	jne	1b
	.irp r, %r15, %r14, %r13, %r12
	cpop	\r
	.endr
	ret
	fend	\name
.endm

	ksa8	rc4k_x86_ksa8_char, 1
	ksa8	rc4k_x86_ksa8_int, 4
	ksa8	rc4k_x86_ksa8_long, 8

/* void rc4k_x86_prga4_{char,int,long}(uint8_t *S, uint32_t xy[5],
 *                 size_t blocks, const uint8_t *const in[4],
 *                 uint8_t *const out[4])
 * BLOCKS x 16 bytes of 4 lanes in step: xy = x, then each lane's y.  Each
 * lane's 16 keystream bytes are gathered with pinsrb (SSE4.1; from a
 * 32-bit cell, its low byte) and XORed into its output at once.
 *   rdi S     rcx x (incb: wraps mod 256, upper bits zero)   rbp offset
 *   r8-r11 y  eax ebx edx esi  tx    r12-r15 ty, then tx+ty
 *   xmm0-3 the lanes' keystream   stack: xy, in, out, end offset */
	.set	P_XY, 0
	.set	P_IN, 8
	.set	P_OUT, 16
	.set	P_END, 24

.macro prga_load w, l, tx, txb, y, yb, ty
	cell_load \w, \l, %rcx, \tx
	addb	\txb, \yb
	cell_load \w, \l, \y, \ty
.endm
.macro prga_store w, l, tx, txb, y, ty, tyb
	cell_store \w, \l, %rcx, \ty, \tyb
	cell_store \w, \l, \y, \tx, \txb
.endm
.macro prga_ks w, l, b, txb, ty, tyb, xmm
	addb	\txb, \tyb
	pinsrb	$\b, LANE_BYTES(\w)*\l(%rdi,\ty,\w), \xmm
.endm
.macro prga_step w, b
	incb	%cl
	prga_load \w, 0, %eax, %al, %r8, %r8b, %r12d
	prga_load \w, 1, %ebx, %bl, %r9, %r9b, %r13d
	prga_load \w, 2, %edx, %dl, %r10, %r10b, %r14d
	prga_load \w, 3, %esi, %sil, %r11, %r11b, %r15d
	prga_store \w, 0, %eax, %al, %r8, %r12d, %r12b
	prga_store \w, 1, %ebx, %bl, %r9, %r13d, %r13b
	prga_store \w, 2, %edx, %dl, %r10, %r14d, %r14b
	prga_store \w, 3, %esi, %sil, %r11, %r15d, %r15b
	prga_ks \w, 0, \b, %al, %r12, %r12b, %xmm0
	prga_ks \w, 1, \b, %bl, %r13, %r13b, %xmm1
	prga_ks \w, 2, \b, %dl, %r14, %r14b, %xmm2
	prga_ks \w, 3, \b, %sil, %r15, %r15b, %xmm3
.endm
/* out[l][rbp..+16) = in[l][rbp..+16) ^ xmm */
.macro prga_xor l, xmm
	movq	P_IN(%rsp), %rax
	movq	8*\l(%rax), %rax
	movdqu	(%rax,%rbp), %xmm4
	pxor	%xmm4, \xmm
	movq	P_OUT(%rsp), %rax
	movq	8*\l(%rax), %rax
	movdqu	\xmm, (%rax,%rbp)
.endm

.macro prga4 name, w
	fstart	\name
	testq	%rdx, %rdx
	je	3f
	.irp r, %rbx, %rbp, %r12, %r13, %r14, %r15
	cpush	\r
	.endr
	subq	$32, %rsp
	.cfi_adjust_cfa_offset 32
	movq	%rsi, P_XY(%rsp)
	movq	%rcx, P_IN(%rsp)
	movq	%r8, P_OUT(%rsp)
	shlq	$4, %rdx
	movq	%rdx, P_END(%rsp)
	movl	(%rsi), %ecx
	movl	4(%rsi), %r8d
	movl	8(%rsi), %r9d
	movl	12(%rsi), %r10d
	movl	16(%rsi), %r11d
	xorl	%ebp, %ebp
2:
	.irp	b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	prga_step \w, \b
	.endr
	prga_xor 0, %xmm0
	prga_xor 1, %xmm1
	prga_xor 2, %xmm2
	prga_xor 3, %xmm3
	addq	$16, %rbp
	cmpq	P_END(%rsp), %rbp
	jne	2b
	movq	P_XY(%rsp), %rsi
	movl	%ecx, (%rsi)
	movl	%r8d, 4(%rsi)
	movl	%r9d, 8(%rsi)
	movl	%r10d, 12(%rsi)
	movl	%r11d, 16(%rsi)
	addq	$32, %rsp
	.cfi_adjust_cfa_offset -32
	.irp r, %r15, %r14, %r13, %r12, %rbp, %rbx
	cpop	\r
	.endr
3:
	ret
	fend	\name
.endm

	prga4	rc4k_x86_prga4_char, 1
	prga4	rc4k_x86_prga4_int, 4
	prga4	rc4k_x86_prga4_long, 8

	.section .note.GNU-stack,"",@progbits
