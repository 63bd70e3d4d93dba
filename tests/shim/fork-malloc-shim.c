// SPDX-License-Identifier: MIT
/* LD_PRELOAD shim: a child of fork() that allocates memory before it
 * execs exits with status 99 and says so. After fork() in a threaded
 * program only async-signal-safe calls are allowed in the child; malloc
 * is not one (another thread may have held its lock). glibc's own
 * __libc_* allocators do the work. */
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);

static volatile int in_child;

static void caught(void)
{
	static const char msg[] =
		"fork-malloc-shim: memory allocated between fork and exec\n";

	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(99);
}

static void child(void)
{
	in_child = 1;
}

__attribute__((constructor)) static void setup(void)
{
	pthread_atfork(NULL, NULL, child);
}

void *malloc(size_t size)
{
	if (in_child)
		caught();
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (in_child)
		caught();
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	if (in_child)
		caught();
	return __libc_realloc(p, size);
}
