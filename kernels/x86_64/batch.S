/* SPDX-License-Identifier: MIT */
/* batch.S - multi-lane RC4 cores for 8-bit states (GNU as, AT&T, SysV
 * ABI), called by kernels/batch.c, which copies the lanes' states into one
 * block (lane l at l*256) and back, so that every entry is a constant
 * displacement from one register.
 *
 * Why assembly: a step's loads must come before its stores in program
 * order across all lanes (every lane's S[x], S[y] loads, then every lane's
 * stores).  The core does not let a load pass an older store whose address
 * is still unknown unless it predicts no alias, and RC4's real aliases
 * teach it not to; written lane after lane, each lane's loads wait for the
 * previous lane's S[y] store and the lanes form one serial chain.  gcc
 * keeps that order in C but spills the 12 live lane values, and the spill
 * stores undo it.  doc/kernels.md has the figures. */

#include <config.h>
#include "asm.h"
#include "layout.h"

	.text

/* void rc4k_x86_ksa8_char(uint8_t *blk)
 * blk: S of lane l at l*256 (identity), the key repeated to 256 bytes at
 * KX + l*KX_STRIDE.  The 256 KSA steps of 8 lanes, lane after lane: six
 * instructions a lane-step where gcc's 8-lane C loop takes ten (register
 * copies).
 *   rdi blk   rsi i   r8-r15 j (8-bit adds; upper bits stay zero)
 *   eax t = S[i]   edx u = S[j] */
	.set	KX, 2048

.macro ksa_step l, j, jb
	movzbl	256*\l(%rdi,%rsi), %eax
	addb	%al, \jb
	addb	KX+KX_STRIDE*\l(%rdi,%rsi), \jb
	movzbl	256*\l(%rdi,\j), %edx
	movb	%dl, 256*\l(%rdi,%rsi)
	movb	%al, 256*\l(%rdi,\j)
.endm

	fstart	rc4k_x86_ksa8_char
	.irp r, %r12, %r13, %r14, %r15
	cpush	\r
	.endr
	xorl	%esi, %esi
	xorl	%r8d, %r8d
	xorl	%r9d, %r9d
	xorl	%r10d, %r10d
	xorl	%r11d, %r11d
	xorl	%r12d, %r12d
	xorl	%r13d, %r13d
	xorl	%r14d, %r14d
	xorl	%r15d, %r15d
1:
	ksa_step 0, %r8, %r8b
	ksa_step 1, %r9, %r9b
	ksa_step 2, %r10, %r10b
	ksa_step 3, %r11, %r11b
	ksa_step 4, %r12, %r12b
	ksa_step 5, %r13, %r13b
	ksa_step 6, %r14, %r14b
	ksa_step 7, %r15, %r15b
	incl	%esi
	cmpl	$256, %esi
	jne	1b
	.irp r, %r15, %r14, %r13, %r12
	cpop	\r
	.endr
	ret
	fend	rc4k_x86_ksa8_char

/* void rc4k_x86_prga4_char(uint8_t *S, uint32_t xy[5], size_t blocks,
 *                          const uint8_t *const in[4], uint8_t *const out[4])
 * BLOCKS x 16 bytes of 4 lanes in step: xy = x, then each lane's y.  Each
 * lane's 16 keystream bytes are gathered with pinsrb (SSE4.1) and XORed
 * into its output at once.
 *   rdi S     rcx x (incb: wraps mod 256, upper bits zero)   rbp offset
 *   r8-r11 y  eax ebx edx esi  tx    r12-r15 ty, then tx+ty
 *   xmm0-3 the lanes' keystream   stack: xy, in, out, end offset */
	.set	P_XY, 0
	.set	P_IN, 8
	.set	P_OUT, 16
	.set	P_END, 24

.macro prga_load l, tx, txb, y, yb, ty
	movzbl	256*\l(%rdi,%rcx), \tx
	addb	\txb, \yb
	movzbl	256*\l(%rdi,\y), \ty
.endm
.macro prga_store l, txb, y, tyb
	movb	\tyb, 256*\l(%rdi,%rcx)
	movb	\txb, 256*\l(%rdi,\y)
.endm
.macro prga_ks l, b, txb, ty, tyb, xmm
	addb	\txb, \tyb
	pinsrb	$\b, 256*\l(%rdi,\ty), \xmm
.endm
.macro prga_step b
	incb	%cl
	prga_load 0, %eax, %al, %r8, %r8b, %r12d
	prga_load 1, %ebx, %bl, %r9, %r9b, %r13d
	prga_load 2, %edx, %dl, %r10, %r10b, %r14d
	prga_load 3, %esi, %sil, %r11, %r11b, %r15d
	prga_store 0, %al, %r8, %r12b
	prga_store 1, %bl, %r9, %r13b
	prga_store 2, %dl, %r10, %r14b
	prga_store 3, %sil, %r11, %r15b
	prga_ks 0, \b, %al, %r12, %r12b, %xmm0
	prga_ks 1, \b, %bl, %r13, %r13b, %xmm1
	prga_ks 2, \b, %dl, %r14, %r14b, %xmm2
	prga_ks 3, \b, %sil, %r15, %r15b, %xmm3
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

	fstart	rc4k_x86_prga4_char
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
	prga_step \b
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
	fend	rc4k_x86_prga4_char

	.section .note.GNU-stack,"",@progbits
