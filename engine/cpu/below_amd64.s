#include "textflag.h"

// func below64avx2(d *int32, skip int32) uint64
TEXT ·below64avx2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), SI
	MOVL skip+8(FP), AX
	VMOVD AX, X0
	VPBROADCASTD X0, Y0
	XORQ DX, DX // the mask
	XORQ CX, CX // where the next 8 bits go
loop:
	VPCMPGTD (SI), Y0, Y1 // Y1 = skip > d, 8 lanes
	VMOVMSKPS Y1, AX
	SHLQ CX, AX
	ORQ AX, DX
	ADDQ $32, SI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT loop
	VZEROUPPER
	MOVQ DX, ret+16(FP)
	RET
