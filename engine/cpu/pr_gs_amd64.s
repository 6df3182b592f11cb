#include "textflag.h"

// func gsLeanAsm(cf *float32, nb *uint32, ends *int64, n int, e int64, own *float32, c0, d float32, four bool) (change, sum float64)
//
// gsLean's loop (pr_gs_piece.go) over n vertices, with its two arc loops aligned to 32 bytes.
// Registers: AX cf, R9 nb, SI the next vertex's arc end (ends), R8 past the last, BX the arc,
// R12 the vertex's arc end, R10 its degree, DX the degree from which four sums run, DI its contribution (own), X0 c0, X1 d, X2 the L1
// change (float32), X3 the score sum (float64), X4 the arcs' sum (X5-X7 the other three of
// four), X8 the float32 sign mask's complement.
TEXT ·gsLeanAsm(SB), NOSPLIT, $0-80
	MOVQ cf+0(FP), AX
	MOVQ nb+8(FP), R9
	MOVQ ends+16(FP), SI
	MOVQ n+24(FP), R8
	LEAQ (SI)(R8*8), R8
	MOVQ e+32(FP), BX
	MOVQ own+40(FP), DI
	MOVSS c0+48(FP), X0
	MOVSS d+52(FP), X1
	MOVQ $0x4000000000000000, DX // the degree from which four sums run: never,
	MOVBLZX four+56(FP), R11
	TESTQ R11, R11
	JEQ start
	MOVQ $8, DX // or 8 arcs
start:
	MOVL $0x7fffffff, R11
	MOVQ R11, X8
	XORPS X2, X2
	XORPS X3, X3
	CMPQ SI, R8
	JAE done

vertex:
	MOVQ (SI), R12
	MOVQ R12, R10
	SUBQ BX, R10 // the degree
	JEQ next     // an isolated vertex: skipped
	XORPS X4, X4
	CMPQ R10, DX
	JAE many
	JMP one

	// One sum: a neighbour and its contribution an arc. Entered with BX < R12.
	PCALIGN $32
one:
	MOVL (R9)(BX*4), R11
	ADDSS (AX)(R11*4), X4
	INCQ BX
	CMPQ BX, R12
	JB one

store:
	// x = c0 + d*s; the contribution becomes x/degree; the change is |x - old contribution *
	// degree|; the sum adds x.
	MULSS X1, X4
	ADDSS X0, X4
	XORPS X5, X5
	CVTSQ2SS R10, X5
	MOVSS (DI), X6
	MULSS X5, X6
	MOVAPS X4, X7
	DIVSS X5, X7
	MOVSS X7, (DI)
	MOVAPS X4, X9
	CVTSS2SD X9, X9
	ADDSD X9, X3
	SUBSS X6, X4
	ANDPS X8, X4
	ADDSS X4, X2

next:
	ADDQ $8, SI
	ADDQ $4, DI
	CMPQ SI, R8
	JB vertex

done:
	CVTSS2SD X2, X2
	MOVSD X2, change+64(FP)
	MOVSD X3, sum+72(FP)
	RET

many:
	// Four sums for 8 arcs or more, four arcs a step, then one for the rest.
	LEAQ -3(R12), R13 // a step while BX+4 <= R12
	XORPS X5, X5
	XORPS X6, X6
	XORPS X7, X7
	PCALIGN $32
four:
	MOVL (R9)(BX*4), R11
	MOVL 4(R9)(BX*4), R14
	MOVL 8(R9)(BX*4), CX
	MOVL 12(R9)(BX*4), R15
	ADDSS (AX)(R11*4), X4
	ADDSS (AX)(R14*4), X5
	ADDSS (AX)(CX*4), X6
	ADDSS (AX)(R15*4), X7
	ADDQ $4, BX
	CMPQ BX, R13
	JB four
	ADDSS X7, X6
	ADDSS X6, X5
	ADDSS X5, X4 // s + (s1 + (s2 + s3)), as gsLean
	CMPQ BX, R12
	JB one
	JMP store
