#include "textflag.h"

// Delta-stepping's relaxation in assembly (sssp_kernel.go): the loop over popped vertices
// with its prefetch pipeline, and the arc loop with the compare-and-swap and the bin's append,
// every value of the loop in a register.

// The fields of relaxKernel (sssp_kernel.go).
#define K_OFF 0
#define K_NB 8
#define K_WS 16
#define K_DIST 24
#define K_BINS 32
#define K_MASK 40
#define K_NBINS 48
#define K_LO 56
#define K_M 64
#define K_SHIFT 72
#define K_FLOOR 80
#define K_HUBARCS 88
#define K_RELAXED 96
#define K_SCANNED 104
#define K_PUSHED 112
#define K_STALE 120
#define K_NEG 128
#define K_STOP 136
#define K_V 144
#define K_B 152
#define K_E 160
#define K_HI 168
#define K_DU 176
#define K_END 184

// MOST is the most vertices relaxItemsAsm relaxes a call (relaxItemsKernel).
#define MOST 4096

// ARCS relaxes arcs [DX, BX) from distance R13: R9 neighbours, R10 weights, R11 distances,
// R14 the kernel. An improved vertex goes into its bin when that is in the ring and has room;
// otherwise the loop stops at SLOW with the vertex in R12, its bucket in AX and the arc in DX
// (the caller appends it in Go, which may grow the bin). Uses AX, CX, R12, R15.
#define ARCS(TOP, NEXT, TRY, NEG, CLAMP, CLAMPED, DONE, SLOW) \
	CMPQ DX, BX; \
	JGE DONE; \
TOP:; \
	MOVL (R9)(DX*4), R12; \
	MOVLQSX (R10)(DX*4), R15; \
	TESTQ R15, R15; \
	JS NEG; \
	ADDQ R13, R15; \
	CMPQ R15, $0x7ffffffe; \
	JGT CLAMP; \
CLAMPED:; \
	MOVL (R11)(R12*4), AX; \
TRY:; \
	CMPQ R15, AX; \
	JGE NEXT; \
	LOCK; \
	CMPXCHGL R15, (R11)(R12*4); \
	JNE TRY; \
	MOVQ R15, AX; \
	IMULQ K_M(R14), AX; \
	MOVQ K_SHIFT(R14), CX; \
	SHRQ CX, AX; \
	MOVQ AX, CX; \
	SUBQ K_LO(R14), CX; \
	CMPQ CX, K_NBINS(R14); \
	JAE SLOW; \
	MOVQ AX, CX; \
	ANDQ K_MASK(R14), CX; \
	LEAQ (CX)(CX*2), CX; \
	SHLQ $3, CX; \
	ADDQ K_BINS(R14), CX; \
	MOVQ 8(CX), R15; \
	CMPQ R15, 16(CX); \
	JAE SLOW; \
	LEAQ 1(R15), AX; \
	MOVQ AX, 8(CX); \
	MOVQ 0(CX), CX; \
	MOVL R12, (CX)(R15*4); \
	INCQ K_PUSHED(R14); \
NEXT:; \
	INCQ DX; \
	CMPQ DX, BX; \
	JLT TOP; \
	JMP DONE; \
NEG:; \
	MOVQ $1, K_NEG(R14); \
	JMP NEXT; \
CLAMP:; \
	MOVQ $0x7ffffffe, R15; \
	JMP CLAMPED

// func relaxArcsAsm(lo, hi, du int64, k *relaxKernel) int64
TEXT ·relaxArcsAsm(SB), NOSPLIT, $0-40
	MOVQ lo+0(FP), DX
	MOVQ hi+8(FP), BX
	MOVQ du+16(FP), R13
	MOVQ k+24(FP), R14
	MOVQ K_NB(R14), R9
	MOVQ K_WS(R14), R10
	MOVQ K_DIST(R14), R11
	ARCS(atop, anext, atry, aneg, aclamp, aclamped, adone, aslow)
adone:
	MOVQ BX, ret+32(FP)
	RET
aslow:
	MOVQ R12, K_V(R14)
	MOVQ AX, K_B(R14)
	MOVQ DX, ret+32(FP)
	RET

// func relaxItemsAsm(items []uint32, k *relaxKernel) int
//
// It relaxes at most MOST of items (K_STOP 0, the index returned then the first not done) and
// prefetches within all of them (K_END).
// For the vertex at SI, the pipeline first prefetches the offsets and distance of the vertex
// 24 on and the first arc of the one 16 on, unless stale. It then relaxes the vertex, unless
// stale, or stops (K_STOP 2) at a vertex of K_HUBARCS arcs or more; K_STOP 1 is a slow append
// (ARCS).
TEXT ·relaxItemsAsm(SB), NOSPLIT, $0-40
	MOVQ items_base+0(FP), SI
	MOVQ items_len+8(FP), DI
	MOVQ k+24(FP), R14
	LEAQ (SI)(DI*4), AX
	MOVQ AX, K_END(R14)
	CMPQ DI, $MOST
	JLE whole
	MOVQ $MOST, DI
whole:
	LEAQ (SI)(DI*4), DI
	MOVQ K_OFF(R14), R8
	MOVQ K_NB(R14), R9
	MOVQ K_WS(R14), R10
	MOVQ K_DIST(R14), R11
	MOVQ $0, K_STOP(R14)
	CMPQ SI, DI
	JAE idone
item:
	// the offsets and distance of the vertex 24 on
	LEAQ 96(SI), AX
	CMPQ AX, K_END(R14)
	JAE parcs
	MOVL (AX), CX
	PREFETCHT0 (R8)(CX*8)
	PREFETCHT0 (R11)(CX*4)
parcs:
	// the first arc of the vertex 16 on, unless stale
	LEAQ 64(SI), AX
	CMPQ AX, K_END(R14)
	JAE relax
	MOVL (AX), CX
	MOVLQSX (R11)(CX*4), BX
	CMPQ BX, K_FLOOR(R14)
	JLT relax
	MOVQ (R8)(CX*8), BX
	PREFETCHT0 (R9)(BX*4)
	PREFETCHT0 (R10)(BX*4)
relax:
	MOVL (SI), CX
	MOVLQSX (R11)(CX*4), R13
	CMPQ R13, K_FLOOR(R14)
	JLT stale
	MOVQ (R8)(CX*8), DX
	MOVQ 8(R8)(CX*8), BX
	MOVQ BX, AX
	SUBQ DX, AX
	CMPQ AX, K_HUBARCS(R14)
	JGE hub
	INCQ K_RELAXED(R14)
	ADDQ AX, K_SCANNED(R14)
	ARCS(itop, inext, itry, ineg, iclamp, iclamped, iarcs, islow)
iarcs:
	ADDQ $4, SI
	CMPQ SI, DI
	JLT item
	JMP idone
stale:
	INCQ K_STALE(R14)
	ADDQ $4, SI
	CMPQ SI, DI
	JLT item
idone:
	JMP istop
hub:
	MOVQ $2, K_STOP(R14)
	JMP istop
islow:
	MOVQ $1, K_STOP(R14)
	MOVQ R12, K_V(R14)
	MOVQ AX, K_B(R14)
	MOVQ DX, K_E(R14)
	MOVQ BX, K_HI(R14)
	MOVQ R13, K_DU(R14)
istop:
	SUBQ items_base+0(FP), SI
	SHRQ $2, SI
	MOVQ SI, ret+32(FP)
	RET
