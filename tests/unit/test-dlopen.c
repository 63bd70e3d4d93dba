// SPDX-License-Identifier: MIT
/* The shared library loads with dlopen() into a process that is already
 * running, as Python's ctypes, a JIT's profiler or a plugin host loads it:
 * its thread-local data must then fit where the loader can still put it
 * (no initial-exec TLS block larger than the static TLS surplus), and each
 * thread keeps its own error message in the loaded copy.
 *
 *   test-dlopen PATH-TO-libhwprof.so
 */
#include <hwprof/hwprof.h>

#include "harness.h"

#include <dlfcn.h>
#include <pthread.h>

struct api {
	const char *(*version)(void);
	const char *(*errmsg)(void);
	int (*evlist_parse)(const char *spec, const void *opts, struct hwp_evlist **out);
};

static void *other_thread(void *arg)
{
	const struct api *a = arg;

	/* a fresh thread has no message of its own yet */
	return (void *)(a->errmsg()[0] == '\0' ? "empty" : a->errmsg());
}

int main(int argc, char **argv)
{
	struct hwp_evlist *list = NULL;
	struct api a;
	pthread_t t;
	void *h, *got = NULL;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBHWPROF.so\n", argv[0]);
		return 2;
	}
	t_case_begin("dlopen into a running process");
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	CHECK(h != NULL, "dlopen(%s): %s", argv[1], dlerror());
	if (!h)
		return t_done();
	*(void **)&a.version = dlsym(h, "hwp_version");
	*(void **)&a.errmsg = dlsym(h, "hwp_errmsg");
	*(void **)&a.evlist_parse = dlsym(h, "hwp_evlist_parse");
	CHECK(a.version && a.errmsg && a.evlist_parse, "dlsym: %s", dlerror());
	if (!a.version || !a.errmsg || !a.evlist_parse)
		return t_done();
	CHECK(strcmp(a.version(), HWPROF_VERSION) == 0, "version %s, header %s",
	      a.version(), HWPROF_VERSION);

	t_case_begin("each thread has its own message in the loaded copy");
	err = a.evlist_parse("no-such-event-xyz", NULL, &list);
	CHECK(err < 0, "an unknown event parsed (%d)", err);
	CHECK(strstr(a.errmsg(), "no-such-event-xyz") != NULL, "message: '%s'",
	      a.errmsg());
	CHECK(pthread_create(&t, NULL, other_thread, &a) == 0, "pthread_create failed");
	CHECK(pthread_join(t, &got) == 0, "pthread_join failed");
	CHECK(got && strcmp(got, "empty") == 0, "the other thread saw '%s'",
	      got ? (char *)got : "(nothing)");
	CHECK(strstr(a.errmsg(), "no-such-event-xyz") != NULL,
	      "message now: '%s'", a.errmsg());
	CHECK(dlclose(h) == 0, "dlclose: %s", dlerror());
	return t_done();
}
