// SPDX-License-Identifier: MIT
/* Built against an installed libhwprof, outside this tree:
 *	cc hello.c $(pkg-config --cflags --libs hwprof) -o hello */
#include <hwprof/hwprof.h>

#include <stdio.h>

int main(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_count c;
	int err;

	err = hwp_evlist_parse("page-faults", NULL, &evl);
	if (!err)
		err = hwp_session_new(evl, NULL, &s);
	if (!err)
		err = hwp_session_open(s);
	if (err) {
		fprintf(stderr, "hello: %s\n", hwp_errmsg());
		return 1;
	}
	hwp_session_enable(s);
	for (volatile int i = 0; i < 1000; i++)
		;
	hwp_session_disable(s);
	hwp_session_read(s, &c, 1);
	printf("libhwprof %s (built against %s): %.0f page-faults\n", hwp_version(),
	       HWPROF_VERSION, hwp_count_scaled(&c));
	hwp_session_free(s);
	hwp_evlist_free(evl);
	return 0;
}
