// SPDX-License-Identifier: MIT
/* A JIT as small as one can be (x86-64): code written into anonymous
 * memory, made executable, run, and named in /tmp/perf-PID.map as JITs
 * name theirs for perf. jit::hot runs N iterations, the second function
 * N/4, a third, unnamed, N/4. Built by tests/cli/test_jit.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* uint64_t f(uint64_t n): sum n + (n - 1) + ... + 1, one add a step */
static const unsigned char loop[] = {
	0x31, 0xc0,		/* xor %eax, %eax */
	0x48, 0x85, 0xff,	/* 1: test %rdi, %rdi */
	0x74, 0x08,		/* je 2f */
	0x48, 0x01, 0xf8,	/* add %rdi, %rax */
	0x48, 0xff, 0xcf,	/* dec %rdi */
	0xeb, 0xf3,		/* jmp 1b */
	0xc3,			/* 2: ret */
};

typedef uint64_t (*fn)(uint64_t);

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *map;

	if (code == MAP_FAILED)
		return 1;
	for (int i = 0; i < 3; i++)
		memcpy(code + 64 * i, loop, sizeof(loop));
	/* the kernel's MMAP record of it comes with PROT_EXEC */
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC))
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map)
		return 1;
	fprintf(map, "%lx %zx jit::hot\n", (unsigned long)(uintptr_t)code, sizeof(loop));
	fprintf(map, "%lx %zx LazyCompile:~cold bench.js:12\n",
		(unsigned long)(uintptr_t)(code + 64), sizeof(loop));
	if (fclose(map))
		return 1;
	printf("%s\n", path);
	fflush(stdout);
	n = ((fn)code)(n) + ((fn)(code + 64))(n / 4) + ((fn)(code + 128))(n / 4);
	return (int)(n & 1);
}
