# t.s - the jumps of t.c laid out by hand, at addresses no compiler moves
# (cc -g -nostdlib -static -no-pie -Wl,-Ttext=0x401000): the fixture
# perf-script.txt names them
	.file 1 "t.c"
	.text
	.globl _start
_start:
	.loc 1 5
	test %edi, %edi
	jne 1f
	.loc 1 7
	test %esi, %esi
	jne 2f
	.loc 1 9
	xor %eax, %eax
	ret
1:	.loc 1 6
	mov $1, %eax
	ret
2:	.loc 1 8
	mov $2, %eax
	ret
