/* ring.S - x86-64 RC4 loops that read S[x] four bytes ahead, from any x
 * (GNU as, AT&T syntax, SysV ABI; AVX-512BW/VL for the masked head and
 * tail, VEX vpinsrb for the gather).
 *
 * void f(struct rc4k_state *st, size_t len, const uint8_t *in, uint8_t *out)
 * for a state of W-byte entries (W = 1 char, 8 long): entry i is
 * 16(%rdi,i,W), as in rc4.S.
 *
 * The idea of rc4.S's ring5 loops: each byte's S[x] is already in a
 * register, loaded before the S[y] stores in between, so y's chain never
 * waits on those stores; a store that lands on a pending entry is caught by
 * one compare of u = y - x - 4 and fixed by cmovs.  What differs:
 *  - four ahead, not five: the ring turns once per 16-byte block, so one
 *    block of code serves every block (on Zen 5 four ahead was also the
 *    faster; see doc/kernels.md);
 *  - no single-byte prologue to align x: blocks stay aligned to x (S[x+k]
 *    are displacements from the block's base), a call enters the block at
 *    x's phase p through a jump table, and the keystream of a partial first
 *    or last block is XORed with AVX-512 masked loads and stores, whose
 *    masked-off bytes (before IN, after its end) are never touched;
 *  - the block where the message ends runs a copy of the block that counts
 *    bytes down and leaves at the last one.
 * So a 16- or 64-byte message gets the lookahead too.
 *
 * Registers:
 *   rdi state   rbx this block's base (x+1 rounded down to 16)
 *   rsi the next block's base (mod 256)   rdx y
 *   rbp u = y - x - 4: its low byte is above 252 exactly when this byte's
 *       S[y] store hits one of the three pending ring entries
 *   r8 r12 r13 r14  the ring: S[x] of block position k is in register k mod 4
 *   r11 ty, then tx + ty (the keystream index)   rcx positions left
 *   eax x at the end   r9 the block's input (IN - p for the first block)
 *   r10 out - in   k1 this block's lanes (from p in the first, then all)
 *   k2 the last block's lanes (below (p + len) mod 16, all if 0)
 *   xmm0 the block's keystream */

#include "asm.h"

	.text

/* One step at block position K; R0 holds this byte's tx, R1..R3 the next
 * three bytes'.  The S[x+4] load at the end comes after this byte's stores,
 * so only the next three bytes' stores can make it stale (their steps fix
 * it).  CHK: count positions down, leave for EXITL at zero. */
.macro r4step w, k, chk, exitl, r0, r1, r2, r3
	addb	\r0\()b, %dl
	leal	-1(%rbp,\r0), %ebp
	movzbl	16(%rdi,%rdx,\w), %r11d
	movb	%r11b, 16+\k*\w(%rdi,%rbx,\w)
	movb	\r0\()b, 16(%rdi,%rdx,\w)
	cmpb	$252, %bpl
	jbe	2f
	cmpb	$253, %bpl
	cmove	\r0\()d, \r1\()d
	cmpb	$254, %bpl
	cmove	\r0\()d, \r2\()d
	cmpb	$255, %bpl
	cmove	\r0\()d, \r3\()d
2:	addb	\r0\()b, %r11b
	vpinsrb	$\k, 16(%rdi,%r11,\w), %xmm0, %xmm0
.if \k + 4 < 16
	movzbl	16+(\k+4)*\w(%rdi,%rbx,\w), \r0\()d
.else
	movzbl	16+(\k-12)*\w(%rdi,%rsi,\w), \r0\()d
.endif
.if \chk
	decq	%rcx
	jz	\exitl
.endif
.endm

/* Step K of a block with its ring registers. */
.macro r4k w, k, chk, exitl
.if \k % 4 == 0
	r4step	\w, \k, \chk, \exitl, %r8, %r12, %r13, %r14
.elseif \k % 4 == 1
	r4step	\w, \k, \chk, \exitl, %r12, %r13, %r14, %r8
.elseif \k % 4 == 2
	r4step	\w, \k, \chk, \exitl, %r13, %r14, %r8, %r12
.else
	r4step	\w, \k, \chk, \exitl, %r14, %r8, %r12, %r13
.endif
.endm

/* S[base + Q] into ring register Q mod 4 (Q < 20; from 16 on, the next
 * block's base, which wraps at 256). */
.macro r4fill w, q
.if \q < 16
	.set	r4d, 16+(\q)*\w
.else
	.set	r4d, 16+((\q)-16)*\w
.endif
.if (\q) % 4 == 0
	.if \q < 16
	movzbl	r4d(%rdi,%rbx,\w), %r8d
	.else
	movzbl	r4d(%rdi,%rsi,\w), %r8d
	.endif
.elseif (\q) % 4 == 1
	.if \q < 16
	movzbl	r4d(%rdi,%rbx,\w), %r12d
	.else
	movzbl	r4d(%rdi,%rsi,\w), %r12d
	.endif
.elseif (\q) % 4 == 2
	.if \q < 16
	movzbl	r4d(%rdi,%rbx,\w), %r13d
	.else
	movzbl	r4d(%rdi,%rsi,\w), %r13d
	.endif
.else
	.if \q < 16
	movzbl	r4d(%rdi,%rbx,\w), %r14d
	.else
	movzbl	r4d(%rdi,%rsi,\w), %r14d
	.endif
.endif
.endm

/* Move to the next block. */
.macro r4next
	addq	$16, %r9
	movl	%esi, %ebx
	addb	$16, %sil
.endm

.macro ring4 name, w
	fstart	\name
	testq	%rsi, %rsi
	jz	.L\name\()_ret
	.irp r, %rbx, %rbp, %r12, %r13, %r14
	cpush	\r
	.endr
	movq	%rdx, %r9
	movq	%rcx, %r10
	subq	%rdx, %r10
	movq	%rsi, %rcx
	movl	(%rdi), %eax
	movl	4(%rdi), %edx
	leal	-4(%rdx), %ebp
	subl	%eax, %ebp
	leal	1(%rax), %r8d
	movzbl	%r8b, %r8d		/* x + 1 */
	addl	%ecx, %eax
	movzbl	%al, %eax		/* x at the end */
	movl	%r8d, %ebx
	andl	$0xf0, %ebx
	andl	$15, %r8d		/* p */
	subq	%r8, %r9
	leaq	rc4k_ring4_masks(%rip), %r11
	kmovw	(%r11,%r8,2), %k1
	leal	(%r8,%rcx), %r12d
	andl	$15, %r12d
	kmovw	32(%r11,%r12,2), %k2
	leal	16(%rbx), %esi
	movzbl	%sil, %esi
	leaq	.L\name\()_tab(%rip), %r11
	addq	%r8, %rcx		/* positions from the block's start */
	cmpq	$16, %rcx
	jb	1f
	movslq	(%r11,%r8,4), %r8
	addq	%r11, %r8
	jmp	*%r8
1:	subq	%r8, %rcx		/* ends in this block: count bytes */
	movslq	64(%r11,%r8,4), %r8
	addq	%r11, %r8
	jmp	*%r8

	.p2align 2
.L\name\()_tab:
	.irp p, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.long	.L\name\()_su\p - .L\name\()_tab
	.endr
	.irp p, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.long	.L\name\()_sc\p - .L\name\()_tab
	.endr
	/* fill the ring for phase p, then enter the block at step p */
	.irp p, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.L\name\()_su\p:
	r4fill	\w, \p
	r4fill	\w, \p+1
	r4fill	\w, \p+2
	r4fill	\w, \p+3
	jmp	.L\name\()_u\p
.L\name\()_sc\p:
	r4fill	\w, \p
	r4fill	\w, \p+1
	r4fill	\w, \p+2
	r4fill	\w, \p+3
	jmp	.L\name\()_c\p
	.endr

	/* whole blocks (the first from p) */
	.p2align 4
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.L\name\()_u\k:
	r4k	\w, \k, 0
	.endr
	vmovdqu8 (%r9), %xmm1{%k1}{z}
	vpxor	%xmm0, %xmm1, %xmm1
	vmovdqu8 %xmm1, (%r9,%r10){%k1}
	kxnorw	%k1, %k1, %k1
	r4next
	subq	$16, %rcx
	cmpq	$16, %rcx
	jae	.L\name\()_u0
	testq	%rcx, %rcx
	jz	.L\name\()_done

	/* the block where the message ends */
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.L\name\()_c\k:
	r4k	\w, \k, 1, .L\name\()_last
	.endr
.L\name\()_last:
	kandw	%k2, %k1, %k1
	vmovdqu8 (%r9), %xmm1{%k1}{z}
	vpxor	%xmm0, %xmm1, %xmm1
	vmovdqu8 %xmm1, (%r9,%r10){%k1}
.L\name\()_done:
	movl	%eax, (%rdi)
	movl	%edx, 4(%rdi)
	.irp r, %r14, %r13, %r12, %rbp, %rbx
	cpop	\r
	.endr
.L\name\()_ret:
	ret
	fend	\name
.endm

	ring4	rc4k_x86_char_ring4_avx512_crypt, 1
	ring4	rc4k_x86_long_ring4_avx512_crypt, 8

/* k1 for phase p: lanes p..15; k2 for end phase e: lanes 0..e-1, all if 0 */
	.section .rodata
	.p2align 6
	.hidden	rc4k_ring4_masks
rc4k_ring4_masks:
	.irp p, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.short	(0xffff << \p) & 0xffff
	.endr
	.short	0xffff
	.irp e, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.short	(1 << \e) - 1
	.endr

	.section .note.GNU-stack,"",@progbits
