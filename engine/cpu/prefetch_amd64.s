#include "textflag.h"

// func prefetch(p unsafe.Pointer)
TEXT ·prefetch(SB), NOSPLIT, $0-8
	MOVQ p+0(FP), AX
	PREFETCHT0 (AX)
	RET

// func prefetchVerts(items []uint32, off *int64, dist *int32)
TEXT ·prefetchVerts(SB), NOSPLIT, $0-40
	MOVQ items_base+0(FP), SI
	MOVQ items_len+8(FP), CX
	MOVQ off+24(FP), R8
	MOVQ dist+32(FP), R9
	TESTQ CX, CX
	JEQ vdone
vloop:
	MOVL (SI), AX
	PREFETCHT0 (R8)(AX*8)
	PREFETCHT0 (R9)(AX*4)
	ADDQ $4, SI
	DECQ CX
	JNE vloop
vdone:
	RET

// func prefetchArcs(items []uint32, off *int64, nb *uint32, ws *int32, dist *int32, floor int64)
TEXT ·prefetchArcs(SB), NOSPLIT, $0-64
	MOVQ items_base+0(FP), SI
	MOVQ items_len+8(FP), CX
	MOVQ off+24(FP), R8
	MOVQ nb+32(FP), R9
	MOVQ ws+40(FP), R10
	MOVQ dist+48(FP), R11
	MOVQ floor+56(FP), R12
	TESTQ CX, CX
	JEQ adone
aloop:
	MOVL (SI), AX
	MOVLQSX (R11)(AX*4), BX
	CMPQ BX, R12
	JLT anext
	MOVQ (R8)(AX*8), DX
	PREFETCHT0 (R9)(DX*4)
	PREFETCHT0 (R10)(DX*4)
anext:
	ADDQ $4, SI
	DECQ CX
	JNE aloop
adone:
	RET

// func prefetchNbrDist(items []uint32, off *int64, nb *uint32, dist *int32, floor int64, most int64)
TEXT ·prefetchNbrDist(SB), NOSPLIT, $0-64
	MOVQ items_base+0(FP), SI
	MOVQ items_len+8(FP), CX
	MOVQ off+24(FP), R8
	MOVQ nb+32(FP), R9
	MOVQ dist+40(FP), R10
	MOVQ floor+48(FP), R12
	MOVQ most+56(FP), R11
	TESTQ CX, CX
	JEQ ndone
nloop:
	MOVL (SI), AX
	MOVLQSX (R10)(AX*4), BX
	CMPQ BX, R12
	JLT nnext
	MOVQ (R8)(AX*8), DX
	MOVQ 8(R8)(AX*8), BX
	MOVQ BX, DI
	SUBQ DX, DI
	CMPQ DI, R11
	JGT nnext
	CMPQ DX, BX
	JGE nnext
narc:
	MOVL (R9)(DX*4), AX
	PREFETCHT0 (R10)(AX*4)
	INCQ DX
	CMPQ DX, BX
	JLT narc
nnext:
	ADDQ $4, SI
	DECQ CX
	JNE nloop
ndone:
	RET

// func prefetch2(p, q unsafe.Pointer)
TEXT ·prefetch2(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ q+8(FP), BX
	PREFETCHT0 (AX)
	PREFETCHT0 (BX)
	RET
