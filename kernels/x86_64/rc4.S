/* SPDX-License-Identifier: MIT */
/* rc4.S - x86-64 RC4 loops (GNU as, AT&T syntax, SysV ABI).
 *
 * Every function is  void f(struct rc4k_state *st, size_t len,
 *                           const uint8_t *in, uint8_t *out)
 * and is one macro line at the end of this file, generated from an ASM
 * line of registry.def.  The macros generate each loop for a state of
 * W-byte entries (W = 1 char, 4 int, 8 long): entry i is
 * ST_S(%rdi,i,W) in every layout (layout.h).
 *
 * Registers, the same in every loop:
 *   rdi  state            rsi  end of input       r9  input pointer
 *   r10  out - in, so out is (%r9,%r10) and one pointer walks both buffers
 *   rcx  x, rdx  y: 8-bit arithmetic on cl/dl wraps mod 256 and leaves the
 *        upper bits zero, so the full registers index S with no movzb
 *   rax  S[x] (tx)        r11  S[y] (ty), then tx+ty (the keystream index)
 * All of these are caller-saved; only the ring loops at the end use
 * callee-saved registers too, and push them.
 *
 * Each byte's S[y] store has a data-dependent address, and the next bytes'
 * S[x] loads must not pass it unless the CPU predicts no alias: that, not
 * the ports, bounds the loops up to the 16x ones.  The ring5 loops take
 * the S[x] loads out of that chain.  doc/cpus/AuthenticAMD-25-17.md, "What
 * limits the loops up to the 16x ones", has the figures, and doc/tried.md
 * what was tried and dropped. */

#include <config.h>
#include "asm.h"
#include "layout.h"

	.text

/* Load S[IDX] (IDX a register) into a register, zero-extended, or store
 * one there: B, D and Q are its 8-, 32- and 64-bit names.  DISP: the
 * address of entry 0 when IDX indexes S (the default), or of entry k when
 * IDX is a base and k a constant. */
.macro lds w, idx, d, q, disp=ST_S
.if \w == 1
	movzbl	\disp(%rdi,\idx,\w), \d
.elseif \w == 4
	movl	\disp(%rdi,\idx,\w), \d
.else
	movq	\disp(%rdi,\idx,\w), \q
.endif
.endm
.macro sts w, idx, b, d, q, disp=ST_S
.if \w == 1
	movb	\b, \disp(%rdi,\idx,\w)
.elseif \w == 4
	movl	\d, \disp(%rdi,\idx,\w)
.else
	movq	\q, \disp(%rdi,\idx,\w)
.endif
.endm

/* One PRGA step up to the keystream index: x += 1, y += S[x], swap; leaves
 * tx + ty (mod 256) in r11, so the keystream byte is ST_S(%rdi,%r11,W). */
.macro swap w
	incb	%cl
	lds	\w, %rcx, %eax, %rax
	addb	%al, %dl
	lds	\w, %rdx, %r11d, %r11
	sts	\w, %rdx, %al, %eax, %rax
	sts	\w, %rcx, %r11b, %r11d, %r11
	addb	%al, %r11b
.endm

/* The arguments into the registers above. */
.macro args
	movq	%rdx, %r9
	movq	%rcx, %r10
	subq	%rdx, %r10
	leaq	(%rdx,%rsi), %rsi
	movl	ST_X(%rdi), %ecx
	movl	ST_Y(%rdi), %edx
.endm

/* No stack use: the default CFI unwinds these. */
.macro entry name
	fstart	\name
	args
.endm

/* One byte: a step, and the keystream byte XORed from (r9) to (r9,r10). */
.macro onebyte w
	swap	\w
	movzbl	ST_S(%rdi,%r11,\w), %eax
	xorb	(%r9), %al
	movb	%al, (%r9,%r10)
	incq	%r9
.endm

/* Save x and y into the state and return. */
.macro savexy
	movl	%ecx, ST_X(%rdi)
	movl	%edx, ST_Y(%rdi)
	ret
.endm

/* The bytes a block loop left over, one at a time, then save x and y. */
.macro tail w
	cmpq	%rsi, %r9
	je	9f
8:	onebyte	\w
	cmpq	%rsi, %r9
	jne	8b
9:	savexy
.endm

/* The byte loops' ends: nothing to do for no input; else x += 1 and tx =
 * S[x] into TX (movzb with DST, l or q) before the loop at 1; at its end
 * the next byte's, and after the last byte x steps back. */
.macro bytes_open name, dst, tx
	entry	\name
	cmpq	%rsi, %r9
	je	9f
	incb	%cl
	movzb\dst ST_S(%rdi,%rcx), \tx
.endm
.macro bytes_close name
	incq	%r9
	cmpq	%rsi, %r9
	jne	1b
	decb	%cl
9:	savexy
	fend	\name
.endm

/* The folded byte loop, char state (W is 1): the next byte's S[x] load is
 * hoisted to the bottom of the trip, so a trip starts with y += tx.  DST
 * (l or q) and the three registers give the width of the movzb
 * destinations: the 32-bit form can cost an extra uop
 * (doc/cpus/published.md). */
.macro byte1 name, w, dst, tx, ty, k
	bytes_open \name, \dst, \tx
1:	addb	%al, %dl
	movzb\dst ST_S(%rdi,%rdx), \ty
	movb	%al, ST_S(%rdi,%rdx)
	movb	%r11b, ST_S(%rdi,%rcx)
	addb	%al, %r11b
	incb	%cl
	movzb\dst ST_S(%rdi,%rcx), \tx
	movzb\dst ST_S(%rdi,%r11), \k
	xorb	(%r9), %r8b
	movb	%r8b, (%r9,%r10)
	bytes_close \name
.endm

/* Char state (W is 1), S[x+1] loaded before S[y] is stored, so that load
 * never waits on, or is replayed by, this byte's store; when y == x+1 the
 * store changed that entry and tx itself is the next tx. */
.macro preload1 name, w
	bytes_open \name, l, %eax
1:	addb	%al, %dl
	movzbl	ST_S(%rdi,%rdx), %r11d
	movb	%r11b, ST_S(%rdi,%rcx)
	incb	%cl
	movzbl	ST_S(%rdi,%rcx), %r8d
	movb	%al, ST_S(%rdi,%rdx)
	cmpb	%cl, %dl
	cmove	%eax, %r8d
	addb	%al, %r11b
	movzbl	ST_S(%rdi,%r11), %eax
	xorb	(%r9), %al
	movb	%al, (%r9,%r10)
	movl	%r8d, %eax
	bytes_close \name
.endm

/* The block loops' ends: N bytes a trip (the loop at 1) while N are left,
 * else to the tail (7). */
.macro blocks_open name, n
	entry	\name
	leaq	\n(%r9), %rax
	cmpq	%rsi, %rax
	ja	7f
.endm
.macro blocks_close name, w, n
	addq	$\n, %r9
	leaq	\n(%r9), %rax
	cmpq	%rsi, %rax
	jbe	1b
7:	tail	\w
	fend	\name
.endm

/* 8 bytes a trip, the keystream gathered into r8 and XORed with one 8-byte
 * load and store (RC4_CHUNK).  Each byte is zero-extended, shifted and ORed
 * in: merging into r8b and rotating chains two uops a byte through r8. */
.macro chunk8 name, w
	blocks_open \name, 8
1:	swap	\w
	movzbl	ST_S(%rdi,%r11,\w), %r8d
	.irp k, 1, 2, 3, 4, 5, 6, 7
	swap	\w
	movzbl	ST_S(%rdi,%r11,\w), %eax
	shlq	$8*\k, %rax
	orq	%rax, %r8
	.endr
	xorq	(%r9), %r8
	movq	%r8, (%r9,%r10)
	blocks_close \name, \w, 8
.endm

/* Keystream byte K of a 16-byte block into LANE of xmm0 (even K) or xmm1. */
.macro gather ins, k, lane, w
.if \k & 1
	\ins	$\lane, ST_S(%rdi,%r11,\w), %xmm1
.else
	\ins	$\lane, ST_S(%rdi,%r11,\w), %xmm0
.endif
.endm

/* 16 bytes a trip, the keystream gathered into xmm registers and XORed
 * with one 16-byte load and store; the gather leaves the integer ports to
 * the swap.  INS is pinsrb (SSE4.1: byte k into lane k) or pinsrw (SSE2,
 * int and long state only: the 16-bit load of an entry is its byte and a
 * zero, so even bytes fill xmm0's words, odd bytes xmm1's, and xmm1 is
 * shifted up a byte).  Alternating two registers halves the insert
 * chain. */
.macro sse16 name, w, ins
	blocks_open \name, 16
1:
	.ifc \ins, pinsrb
	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
	.endif
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	swap	\w
	.ifc \ins, pinsrb
	gather	pinsrb, \k, \k, \w
	.else
	gather	pinsrw, \k, \k / 2, \w
	.endif
	.endr
	movdqu	(%r9), %xmm2
	.ifc \ins, pinsrw
	psllw	$8, %xmm1
	.endif
	pxor	%xmm0, %xmm2
	pxor	%xmm1, %xmm2
	movdqu	%xmm2, (%r9,%r10)
	blocks_close \name, \w, 16
.endm

/* S[x] read five bytes ahead (the ring): each byte's tx was loaded into a
 * register four bytes earlier, before the S[y] stores in between, so y's
 * chain never waits on those stores or is replayed after them.  The ring
 * holds tx for x+1..x+4; when the S[y] store hits one of them (4 times in
 * 256) cmovs put the stored value there too, off the predicted path: cmovs
 * on every byte would put the fix-up into y's chain.  Five is where the
 * wait for the store stops showing and before the hits cost more than the
 * lookahead wins.  x is first aligned to 16 so S[x+k] are constant
 * displacements from the block's base (rbx) or the next block's (rsi, for
 * reads ahead across the block); and rbp keeps u = y - x - 5, whose low
 * byte is above 251 exactly when y hits the ring, so the test costs one
 * lea and one fused cmp/jbe a byte. */

/* Ring registers r8, r12-r15 (their b/d names derive by suffix). */

/* One step of a ring loop reading S[x] AHEAD (4 or 5) bytes ahead.  R0 is
 * this byte's tx, R1.. the next bytes' (R4 only for 5 ahead); K is the byte
 * in the block, S[x+K] a displacement from the block's base rbx, and from
 * the next block's base rsi past the block's end.  After the swap, a store
 * to S[y] that hit a pending ring entry (u's low byte above 256 - AHEAD)
 * puts the stored value into that entry's register.  The keystream byte
 * goes into lane K of xmm0 (pinsrb, or vpinsrb where VEX is at hand). */
.macro rstep w, k, ahead, gather, r0, r1, r2, r3, r4
	addb	\r0\()b, %dl
	leal	-1(%rbp,\r0), %ebp
	movzbl	ST_S(%rdi,%rdx,\w), %r11d
	movb	%r11b, ST_S+\k*\w(%rdi,%rbx,\w)
	movb	\r0\()b, ST_S(%rdi,%rdx,\w)
	cmpb	$256-\ahead, %bpl
	jbe	2f
	cmpb	$257-\ahead, %bpl
	cmove	\r0\()d, \r1\()d
	cmpb	$258-\ahead, %bpl
	cmove	\r0\()d, \r2\()d
	cmpb	$259-\ahead, %bpl
	cmove	\r0\()d, \r3\()d
.ifnb \r4
	cmpb	$260-\ahead, %bpl
	cmove	\r0\()d, \r4\()d
.endif
2:	addb	\r0\()b, %r11b
.ifc \gather, vpinsrb
	vpinsrb	$\k, ST_S(%rdi,%r11,\w), %xmm0, %xmm0
.else
	pinsrb	$\k, ST_S(%rdi,%r11,\w), %xmm0
.endif
.if \k + \ahead < 16
	movzbl	ST_S+(\k+\ahead)*\w(%rdi,%rbx,\w), \r0\()d
.else
	movzbl	ST_S+(\k+\ahead-16)*\w(%rdi,%rsi,\w), \r0\()d
.endif
.endm

/* Block B (0..4) of a 5-block trip: byte k of the trip uses ring register
 * k mod 5.  Ends with the 16-byte XOR and moves the bases on; leaves the
 * loop for the tail when fewer than 16 bytes are left. */
.macro rblock w, b
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.if (16*\b + \k) % 5 == 0
	rstep	\w, \k, 5, pinsrb, %r8, %r12, %r13, %r14, %r15
	.elseif (16*\b + \k) % 5 == 1
	rstep	\w, \k, 5, pinsrb, %r12, %r13, %r14, %r15, %r8
	.elseif (16*\b + \k) % 5 == 2
	rstep	\w, \k, 5, pinsrb, %r13, %r14, %r15, %r8, %r12
	.elseif (16*\b + \k) % 5 == 3
	rstep	\w, \k, 5, pinsrb, %r14, %r15, %r8, %r12, %r13
	.else
	rstep	\w, \k, 5, pinsrb, %r15, %r8, %r12, %r13, %r14
	.endif
	.endr
	movdqu	(%r9), %xmm1
	pxor	%xmm0, %xmm1
	movdqu	%xmm1, (%r9,%r10)
	addq	$16, %r9
	movl	%esi, %ebx
	addb	$16, %sil
	leaq	16(%r9), %rax
	cmpq	(%rsp), %rax
	ja	6f
.endm

/* A ring loop's entry: inputs under MIN bytes go to SHORT (the 16x loop
 * on the same state), as aligning x and filling the ring cost more than
 * they win there; then every callee-saved register is saved. */
.macro ring_open name, short, min
	fstart	\name
	cmpq	$\min, %rsi
	jb	\short
	.irp r, %rbx, %rbp, %r12, %r13, %r14, %r15
	cpush	\r
	.endr
	args
.endm

/* Single bytes until x+1 is a multiple of 16 (ring_open's MIN leaves
 * room); x+1 is then in eax. */
.macro ring_align w
3:	leal	1(%rcx), %eax
	testb	$15, %al
	jz	4f
	onebyte	\w
	jmp	3b
4:
.endm

.macro ring5 name, w, short, min
	ring_open \name, \short, \min
	pushq	%rsi			/* the end, at (%rsp) */
	.cfi_adjust_cfa_offset 8
	ring_align \w
	leal	-5(%rdx), %ebp
	subl	%ecx, %ebp
	leal	1(%rcx), %ebx
	movzbl	%bl, %ebx
	movl	%ebx, %esi
	addb	$16, %sil
	movzbl	ST_S(%rdi,%rbx,\w), %r8d
	movzbl	ST_S+\w(%rdi,%rbx,\w), %r12d
	movzbl	ST_S+2*\w(%rdi,%rbx,\w), %r13d
	movzbl	ST_S+3*\w(%rdi,%rbx,\w), %r14d
	movzbl	ST_S+4*\w(%rdi,%rbx,\w), %r15d
1:	rblock	\w, 0
	rblock	\w, 1
	rblock	\w, 2
	rblock	\w, 3
	rblock	\w, 4
	jmp	1b
6:	leal	-1(%rbx), %ecx		/* x = base - 1 */
	movzbl	%cl, %ecx
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	.irp r, %r15, %r14, %r13, %r12, %rbp, %rbx
	cpop	\r
	.endr
	tail	\w
	fend	\name
.endm

/* S[x] read four bytes ahead, from any x (AVX-512BW/VL for the masked
 * head and tail, VEX vpinsrb for the gather).  The ring5 idea, but:
 *  - four ahead, not five: the ring turns once per 16-byte block, so one
 *    block of code serves every block;
 *  - no single-byte prologue to align x: blocks stay aligned to x (S[x+k]
 *    are displacements from the block's base), a call enters the block at
 *    x's phase p through a jump table, and the keystream of a partial first
 *    or last block is XORed with AVX-512 masked loads and stores, whose
 *    masked-off bytes (before IN, after its end) are never touched;
 *  - the block where the message ends runs a copy of the block that counts
 *    bytes down and leaves at the last one.
 * So a 16- or 64-byte message gets the lookahead too.
 *
 * Registers (their own, not the loops' above):
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

/* One step at block position K, 4 ahead (rstep).  The S[x+4] load at its
 * end comes after this byte's stores, so only the next three bytes' stores
 * can make it stale (their steps fix it).  CHK: count positions down, leave
 * for EXITL at zero. */
.macro r4step w, k, chk, exitl, r0, r1, r2, r3
	rstep	\w, \k, 4, vpinsrb, \r0, \r1, \r2, \r3
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
	.set	r4d, ST_S+(\q)*\w
	r4load	\w, \q, %rbx
.else
	.set	r4d, ST_S+((\q)-16)*\w
	r4load	\w, \q, %rsi
.endif
.endm

/* r4fill's load, from the block whose base is in BASE. */
.macro r4load w, q, base
.if (\q) % 4 == 0
	movzbl	r4d(%rdi,\base,\w), %r8d
.elseif (\q) % 4 == 1
	movzbl	r4d(%rdi,\base,\w), %r12d
.elseif (\q) % 4 == 2
	movzbl	r4d(%rdi,\base,\w), %r13d
.else
	movzbl	r4d(%rdi,\base,\w), %r14d
.endif
.endm

/* The block's keystream (xmm0) XORed into lanes k1 of the 16 bytes at
 * (r9), written to (r9,r10).  All lanes: plain unaligned accesses.  A
 * masked access whose 16 bytes cross a page can take hundreds of cycles
 * (an assist, even with the other page's lanes masked off; see
 * doc/cpus/AuthenticAMD-26-2.md, "Where the buffer sits"), and every call
 * on a page-aligned buffer would meet one: such a partial block
 * goes through the 16 bytes of the message that hold its lanes instead
 * (the first block's from its first lane, the last block's up to its
 * last), unmasked: the keystream moved to them by vpshufb, and the lanes
 * of the other blocks given back the bytes that OUT holds there (final,
 * or rewritten later by their own block).  Only a message under 16
 * bytes has no such window: it goes a lane at a time, with rax and rcx
 * kept in the red zone (the loop is a leaf; the message's length at
 * LEN_RZ).  In's and out's offsets are tested apart: ORed, they sent one
 * partial block in eleven to the slow path (one in three where both
 * buffers sit at multiples of 64).  r11 and xmm2-3 are free here.  The
 * block's keystream, stored in the red zone for the lane loop, is
 * cleared there before going on: no copy of keystream outlives the
 * call. */
#define LEN_RZ -48
.macro r4xor
	kortestw %k1, %k1
	jnc	3f
	vpxor	(%r9), %xmm0, %xmm1
	vmovdqu	%xmm1, (%r9,%r10)
	jmp	6f
3:	leal	(%r9,%r10), %r11d	/* out's offset in its page */
	andl	$4095, %r11d
	cmpl	$4096-16, %r11d
	ja	4f
	movl	%r9d, %r11d		/* in's */
	andl	$4095, %r11d
	cmpl	$4096-16, %r11d
	ja	4f
	vmovdqu8 (%r9), %xmm1{%k1}{z}
	vpxor	%xmm0, %xmm1, %xmm1
	vmovdqu8 %xmm1, (%r9,%r10){%k1}
	jmp	6f
4:	cmpq	$16, LEN_RZ(%rsp)
	jb	7f
	kmovw	%k1, %r11d		/* the window's start d past r9: */
	testl	$0x8000, %r11d
	jz	5f
	tzcntl	%r11d, %r11d		/* the first lane */
	jmp	8f
5:	bsrl	%r11d, %r11d		/* or the last lane - 15 */
	subl	$15, %r11d
8:	movslq	%r11d, %r11
	movq	%rax, -8(%rsp)
	leaq	rc4k_ring4_shift+16(%rip), %rax
	vmovdqu	(%rax,%r11), %xmm2	/* lane i: keystream lane i + d */
	movq	-8(%rsp), %rax
	vpshufb	%xmm2, %xmm0, %xmm3
	vpmovb2m %xmm2, %k3		/* lanes of other blocks */
	addq	%r9, %r11
	vpxor	(%r11), %xmm3, %xmm1
	vmovdqu	(%r11,%r10), %xmm2
	vmovdqu8 %xmm2, %xmm1{%k3}
	vmovdqu	%xmm1, (%r11,%r10)
	jmp	6f
7:	movq	%rax, -8(%rsp)
	movq	%rcx, -16(%rsp)
	vmovdqu	%xmm0, -32(%rsp)
	kmovw	%k1, %eax
5:	tzcntl	%eax, %ecx
	movzbl	-32(%rsp,%rcx), %r11d
	xorb	(%r9,%rcx), %r11b
	addq	%r10, %rcx
	movb	%r11b, (%r9,%rcx)
	blsrl	%eax, %eax
	jnz	5b
	vpxor	%xmm1, %xmm1, %xmm1
	vmovdqu	%xmm1, -32(%rsp)
	movq	-8(%rsp), %rax
	movq	-16(%rsp), %rcx
6:
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
	movq	%rsi, LEN_RZ(%rsp)
	movq	%rdx, %r9
	movq	%rcx, %r10
	subq	%rdx, %r10
	movq	%rsi, %rcx
	movl	ST_X(%rdi), %eax
	movl	ST_Y(%rdi), %edx
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
	.irp e, u, c
	.irp p, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.long	.L\name\()_s\e\p - .L\name\()_tab
	.endr
	.endr
	/* fill the ring for phase p, then enter the block at step p */
	.irp p, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.L\name\()_su\p:
	.irp q, 0, 1, 2, 3
	r4fill	\w, \p+\q
	.endr
	jmp	.L\name\()_u\p
.L\name\()_sc\p:
	.irp q, 0, 1, 2, 3
	r4fill	\w, \p+\q
	.endr
	jmp	.L\name\()_c\p
	.endr

	/* whole blocks (the first from p) */
	.p2align 4
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.L\name\()_u\k:
	r4k	\w, \k, 0
	.endr
	r4xor
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
	r4xor
.L\name\()_done:
	movl	%eax, ST_X(%rdi)
	movl	%edx, ST_Y(%rdi)
	.irp r, %r14, %r13, %r12, %rbp, %rbx
	cpop	\r
	.endr
.L\name\()_ret:
	ret
	fend	\name
.endm

/* The ring on wide states (W 4 or 8): ring4's lookahead of four, every
 * state access of the entry's width (byte stores into a state the loop
 * also reads can run at half the rate of wider ones:
 * doc/cpus/AuthenticAMD-25-1.md), 16 bytes a block.  Like
 * ring5, single bytes until x + 1 is a multiple of 16 (inputs under MIN go
 * to SHORT), then blocks, then the tail; the fix-up of a hit is out of
 * line, after the function's return, so the predicted path is one fused
 * compare and branch.  G is how the keystream is gathered: gpr, in a
 * general register as chunk8 does, one 8-byte XOR a half block; xmm
 * (SSE4.1, W 4), each entry's 32-bit load into a dword lane by pinsrd, and
 * four registers packed into one 16-byte XOR: fewer uops than a shift and
 * an OR a byte (doc/cpus/GenuineIntel-6-207.md, "wide-cell ring
 * kernels").
 *
 * Registers, in the blocks (the tail's are the byte loops'):
 *   rdi state  r9 input  r10 out - in  rsi end  rdx y
 *   rbx this block's base (x + 1)   rcx the next block's base (mod 256)
 *   rbp u = y - x - 4: its low byte is above 252 exactly when the S[y]
 *       store hits one of the three pending ring entries
 *   r12-r15 the ring: S[x] of block position k in the (k mod 4)th
 *   r11 ty, then tx + ty   r8 the keystream word, rax a keystream byte
 *   (gpr)   xmm0-xmm3 the block's keystream, four bytes each (xmm) */

/* Step K of a block, R0 its tx, R1..R3 the next three steps'. */
.macro wstep name, w, g, k, r0, r1, r2, r3
	addb	\r0\()b, %dl
	leal	-1(%rbp,\r0), %ebp
	lds	\w, %rdx, %r11d, %r11
	sts	\w, %rbx, %r11b, %r11d, %r11, ST_S+\k*\w
	sts	\w, %rdx, \r0\()b, \r0\()d, \r0
	cmpb	$252, %bpl
	ja	.L\name\()_fix\k
.L\name\()_back\k:
	addb	\r0\()b, %r11b
	wgather\g \w, \k
.if \k + 4 < 16
	lds	\w, %rbx, \r0\()d, \r0, ST_S+(\k+4)*\w
.else
	lds	\w, %rcx, \r0\()d, \r0, ST_S+(\k-12)*\w
.endif
.endm

/* The keystream byte of step K (its index in r11), by G. */
.macro wgathergpr w, k
.if \k % 8 == 0
	lds	\w, %r11, %r8d, %r8
.else
	lds	\w, %r11, %eax, %rax
	shlq	$8*(\k % 8), %rax
	orq	%rax, %r8
.endif
.if \k % 8 == 7
	xorq	(\k-7)(%r9), %r8
	movq	%r8, (\k-7)(%r9,%r10)
.endif
.endm

/* Entry r11 into dword lane K mod 4 of X. */
.macro wpin w, k, x
.if \k % 4 == 0
	movd	ST_S(%rdi,%r11,\w), \x
.else
	pinsrd	$\k % 4, ST_S(%rdi,%r11,\w), \x
.endif
.endm
.macro wgatherxmm w, k
.if \k / 4 == 0
	wpin	\w, \k, %xmm0
.elseif \k / 4 == 1
	wpin	\w, \k, %xmm1
.elseif \k / 4 == 2
	wpin	\w, \k, %xmm2
.else
	wpin	\w, \k, %xmm3
.endif
.if \k == 15
	packusdw %xmm1, %xmm0
	packusdw %xmm3, %xmm2
	packuswb %xmm2, %xmm0
	movdqu	(%r9), %xmm1
	pxor	%xmm1, %xmm0
	movdqu	%xmm0, (%r9,%r10)
.endif
.endm

/* Step K's hit: the stored tx into the ring entry it overwrote. */
.macro wfix name, w, g, k, r0, r1, r2, r3
.L\name\()_fix\k:
	cmpb	$253, %bpl
	cmove	\r0, \r1
	cmpb	$254, %bpl
	cmove	\r0, \r2
	cmpb	$255, %bpl
	cmove	\r0, \r3
	jmp	.L\name\()_back\k
.endm

/* OP for step K, with the ring's registers in turn. */
.macro wrot op, name, w, g, k
.if \k % 4 == 0
	\op	\name, \w, \g, \k, %r12, %r13, %r14, %r15
.elseif \k % 4 == 1
	\op	\name, \w, \g, \k, %r13, %r14, %r15, %r12
.elseif \k % 4 == 2
	\op	\name, \w, \g, \k, %r14, %r15, %r12, %r13
.else
	\op	\name, \w, \g, \k, %r15, %r12, %r13, %r14
.endif
.endm

.macro wring name, w, g, short, min
	ring_open \name, \short, \min
	ring_align \w
	leal	-4(%rdx), %ebp
	subl	%ecx, %ebp
	movzbl	%al, %ebx
	leal	16(%rbx), %ecx
	movzbl	%cl, %ecx
	lds	\w, %rbx, %r12d, %r12, ST_S
	lds	\w, %rbx, %r13d, %r13, ST_S+\w
	lds	\w, %rbx, %r14d, %r14, ST_S+2*\w
	lds	\w, %rbx, %r15d, %r15, ST_S+3*\w
	.p2align 4
1:	.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	wrot	wstep, \name, \w, \g, \k
	.endr
	addq	$16, %r9
	movl	%ecx, %ebx
	addb	$16, %cl
	leaq	16(%r9), %rax
	cmpq	%rsi, %rax
	jbe	1b
	leal	-1(%rbx), %ecx		/* x = base - 1 */
	movzbl	%cl, %ecx
	.cfi_remember_state
	.irp r, %r15, %r14, %r13, %r12, %rbp, %rbx
	cpop	\r
	.endr
	tail	\w
	.cfi_restore_state
	.irp k, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	wrot	wfix, \name, \w, \g, \k
	.endr
	fend	\name
.endm

/* One function per ASM line of the registry. */
#define SINGLE(id)
#define BATCH(id)
#define LANES(id, ...)
#define ASM(id, nm, sum, w, needs, loop, ...) loop rc4k_##id##_crypt, w, ##__VA_ARGS__
#include "../registry.def"

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

/* vpshufb indices for r4xor's window: 16 + j holds j, the rest zero a lane */
	.hidden	rc4k_ring4_shift
rc4k_ring4_shift:
	.fill	16, 1, 0x80
	.irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.byte	\j
	.endr
	.fill	16, 1, 0x80

	.section .note.GNU-stack,"",@progbits
