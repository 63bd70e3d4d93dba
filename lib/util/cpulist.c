// SPDX-License-Identifier: MIT
#include "cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPU_MAX (CPULIST_MAX + 1)

static int parse_num(const char *s, size_t *pos, long *out)
{
	long v = 0;
	size_t p = *pos;

	if (!isdigit((unsigned char)s[p]))
		return -EINVAL;
	while (isdigit((unsigned char)s[p])) {
		v = v * 10 + (s[p] - '0');
		if (v >= CPU_MAX)
			return -ERANGE;
		p++;
	}
	*pos = p;
	*out = v;
	return 0;
}

int cpulist_parse(const char *list, int **cpus, size_t *nr, size_t *bad_pos)
{
	unsigned char *set = NULL;
	size_t pos = 0, n = 0;
	int *out, err = -EINVAL;
	long max = -1;

	*cpus = NULL;
	*nr = 0;
	*bad_pos = 0;
	set = calloc(CPU_MAX, 1);
	if (!set)
		return -ENOMEM;
	while (list[pos]) {
		long lo, hi;

		while (list[pos] == ' ')
			pos++;
		if ((err = parse_num(list, &pos, &lo)))
			goto bad;
		hi = lo;
		if (list[pos] == '-') {
			pos++;
			if ((err = parse_num(list, &pos, &hi)) ||
			    (hi < lo && (err = -EINVAL)))
				goto bad;
		}
		for (long c = lo; c <= hi; c++)
			set[c] = 1;
		if (hi > max)
			max = hi;
		while (list[pos] == ' ')
			pos++;
		if (list[pos] == ',') {
			pos++;
			if (!list[pos])
				goto bad;
		} else if (list[pos]) {
			goto bad;
		}
	}
	if (max < 0)
		goto bad;
	for (long c = 0; c <= max; c++)
		n += set[c];
	out = malloc(n * sizeof(*out));
	if (!out) {
		free(set);
		return -ENOMEM;
	}
	n = 0;
	for (long c = 0; c <= max; c++)
		if (set[c])
			out[n++] = (int)c;
	free(set);
	*cpus = out;
	*nr = n;
	return 0;
bad:
	free(set);
	*bad_pos = pos;
	return err == -ERANGE ? -ERANGE : -EINVAL;
}

size_t cpulist_format(const int *cpus, size_t nr, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < nr;) {
		size_t j = i;
		int n;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j == i)
			n = snprintf(buf + len, size > len ? size - len : 0, "%s%d",
				     len ? "," : "", cpus[i]);
		else
			n = snprintf(buf + len, size > len ? size - len : 0, "%s%d-%d",
				     len ? "," : "", cpus[i], cpus[j]);
		if (n > 0)
			len += (size_t)n;
		i = j + 1;
	}
	return len < size ? len : (size ? size - 1 : 0);
}
