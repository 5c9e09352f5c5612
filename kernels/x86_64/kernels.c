/* kernels.c - descriptors of the x86-64 assembly kernels (rc4.S, ring.S).  Each
 * keeps its state in a C family's layout and so shares that family's key
 * schedule, and a key set up by one can be continued by the other. */
#include "../kernel.h"
#include "../setkey.h"

static int have_sse41(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.1");
}

/* ring.S's loops: AVX-512BW and VL for the masked head and tail (the
 * mask registers need AVX-512F, which both imply); the library checks this
 * at run time, as for SSE4.1. */
static int have_avx512bw_vl(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl");
}

/* SSE2 and everything else these loops use is baseline x86-64: usable is
 * NULL unless the loop needs SSE4.1's pinsrb. */
#define X86K(var, nm, sum, w, use)                                            \
	void var##_crypt(struct rc4k_state *st, size_t len, const uint8_t *in,\
			 uint8_t *out);                                       \
	const struct rc4k var = {                                             \
		.name = nm, .summary = sum, .usable = use, .width = (w),      \
		.set_key = (w) == 1 ? rc4k_char_set_key                       \
			   : (w) == 4 ? rc4k_int_set_key : rc4k_long_set_key, \
		.crypt = var##_crypt,                                         \
	}

X86K(rc4k_x86_char_1x_r32, "char-1x-asm-r32",
     "8-bit state, folded byte loop in asm, 32-bit movzb destinations", 1,
     NULL);
X86K(rc4k_x86_char_1x_r64, "char-1x-asm-r64",
     "8-bit state, folded byte loop in asm, 64-bit movzb destinations", 1,
     NULL);
X86K(rc4k_x86_char_1x_preload, "char-1x-preload-asm",
     "8-bit state, asm, loads S[x+1] before storing S[y], alias fix-up", 1,
     NULL);
X86K(rc4k_x86_int_8x_chunk, "int-8x-chunk-asm",
     "32-bit state, asm, 8 keystream bytes in a register, one 64-bit XOR", 4,
     NULL);
X86K(rc4k_x86_long_8x_chunk, "long-8x-chunk-asm",
     "64-bit state, asm, 8 keystream bytes in a register, one 64-bit XOR", 8,
     NULL);
X86K(rc4k_x86_int_16x_sse2, "int-16x-sse2",
     "32-bit state, asm, 16 bytes gathered by SSE2 pinsrw, one 16-byte XOR",
     4, NULL);
X86K(rc4k_x86_long_16x_sse2, "long-16x-sse2",
     "64-bit state, asm, 16 bytes gathered by SSE2 pinsrw, one 16-byte XOR",
     8, NULL);
X86K(rc4k_x86_char_16x_sse41, "char-16x-sse41",
     "8-bit state, asm, 16 bytes gathered by SSE4.1 pinsrb, one 16-byte XOR",
     1, have_sse41);
X86K(rc4k_x86_int_16x_sse41, "int-16x-sse41",
     "32-bit state, asm, 16 bytes gathered by SSE4.1 pinsrb, one 16-byte XOR",
     4, have_sse41);
X86K(rc4k_x86_long_16x_sse41, "long-16x-sse41",
     "64-bit state, asm, 16 bytes gathered by SSE4.1 pinsrb, one 16-byte XOR",
     8, have_sse41);
X86K(rc4k_x86_char_ring5_sse41, "char-ring5-sse41",
     "8-bit state, asm, S[x] read 5 bytes ahead into registers, pinsrb "
     "gather", 1, have_sse41);
X86K(rc4k_x86_long_ring5_sse41, "long-ring5-sse41",
     "64-bit state, asm, S[x] read 5 bytes ahead into registers, pinsrb "
     "gather", 8, have_sse41);
X86K(rc4k_x86_char_ring4_avx512, "char-ring4-avx512",
     "8-bit state, asm, S[x] read 4 ahead from any x, AVX-512 masked "
     "head and tail", 1, have_avx512bw_vl);
X86K(rc4k_x86_long_ring4_avx512, "long-ring4-avx512",
     "64-bit state, asm, S[x] read 4 ahead from any x, AVX-512 masked "
     "head and tail", 8, have_avx512bw_vl);
