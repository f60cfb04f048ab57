# l.s - t.c's jumps laid out by hand: line 5's as a compiler that follows
# the hint does (the expected side falls through), line 7's as gcc does
# when a cold part sits where the fall-through should be: "je" to the hot
# side, then a jmp into f.cold.  There taken means the hint was right.
	.file 1 "t.c"
	.text
	.globl _start
_start:
	.loc 1 5
	test %edi, %edi
	jne 1f
	.loc 1 7
	test %esi, %esi
	je 2f
	jmp f.cold
2:	.loc 1 9
	xor %eax, %eax
	ret
1:	.loc 1 6
	mov $1, %eax
	ret
	.section .text.unlikely,"ax",@progbits
	.type f.cold, @function
f.cold:
	.loc 1 8
	mov $2, %eax
	ret
