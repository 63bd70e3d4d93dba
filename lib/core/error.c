// SPDX-License-Identifier: MIT
/* Error codes and the per-thread message that explains the last failure. */
#include "core/core.h"

#include <stdio.h>
#include <string.h>

/* A fixed buffer per thread: setting a message can never fail itself. */
static _Thread_local char errmsg[HWP_ERRMSG_MAX];

static const char *const errstr[] = {
	[HWP_ERR_UNKNOWN_EVENT - HWP_ERR_BASE] = "Unknown event",
	[HWP_ERR_SYNTAX - HWP_ERR_BASE] = "Syntax error",
	[HWP_ERR_NO_PMU - HWP_ERR_BASE] = "No hardware PMU for this event",
	[HWP_ERR_NOTHING_COUNTED - HWP_ERR_BASE] = "No event could be counted",
	[HWP_ERR_UNDEFINED - HWP_ERR_BASE] = "Value undefined",
	[HWP_ERR_UNKNOWN_NAME - HWP_ERR_BASE] = "Unknown name in formula",
	[HWP_ERR_EXEC - HWP_ERR_BASE] = "Command could not be started",
	[HWP_ERR_FORMAT - HWP_ERR_BASE] = "Bad input format",
	[HWP_ERR_MISMATCH - HWP_ERR_BASE] = "Results do not match",
	[HWP_ERR_NO_DEBUGINFO - HWP_ERR_BASE] = "No symbols or debug information",
};

HWP_API const char *hwp_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= HWP_ERR_BASE && err < HWP_ERR_END)
		return errstr[err - HWP_ERR_BASE];
	if (err == 0)
		return "Success";
	/* strerror() is not thread-safe for unknown codes; these are known. */
	if (err < HWP_ERR_BASE)
		return strerrordesc_np(err) ? strerrordesc_np(err) : "Unknown error";
	return "Unknown error";
}

const char *errno_text(int err)
{
	/* 0: a failure that left errno as it was, a bug to name, not "Success" */
	return err ? hwp_strerror(err) : "unknown cause (no error code)";
}

HWP_API const char *hwp_errmsg(void)
{
	return errmsg;
}

void clear_error(void)
{
	errmsg[0] = '\0';
}

int fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
	va_end(ap);
	return err;
}

void error_keep(struct kept_error *k, int err)
{
	k->err = err;
	memcpy(k->msg, errmsg, sizeof(k->msg));
}

int error_restore(const struct kept_error *k)
{
	memcpy(errmsg, k->msg, sizeof(errmsg));
	return k->err;
}

int fail_prefix(int err, const char *fmt, ...)
{
	static const char cut[] = "[...]";
	char old[sizeof(errmsg)];
	size_t n, len, room;
	va_list ap;

	memcpy(old, errmsg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
	va_end(ap);
	if (!old[0])
		return err;
	/*
	 * The callee's message holds the reason and the fix: it stays whole.
	 * The context gives way when both do not fit (an input echoed in it
	 * may be as long as the buffer), ending in a mark that it was cut.
	 */
	len = strlen(old);
	if (len + 2 + sizeof(cut) > sizeof(errmsg)) {
		memcpy(errmsg, old, len + 1);	/* no room for any context */
		return err;
	}
	n = strlen(errmsg);
	room = sizeof(errmsg) - 1 - 2 - len;	/* for the context, before ": " and old */
	if (n > room) {
		n = room - (sizeof(cut) - 1);
		memcpy(errmsg + n, cut, sizeof(cut) - 1);
		n += sizeof(cut) - 1;
	}
	memcpy(errmsg + n, ": ", 2);
	memcpy(errmsg + n + 2, old, len + 1);
	return err;
}

const char *write_advice(int err)
{
	switch (-err) {
	case ENOSPC:
		return "the file system is full: free some space, or write the file to another one";
	case EDQUOT:
		return "the disk quota is used up: free some space, or write the file elsewhere";
	case EFBIG:
		return "the file would be larger than this process may write: raise the limit (ulimit -f), or record less";
	case EIO:
		return "the device reported an error: check it (dmesg), or write the file elsewhere";
	case EROFS:
		return "the file system is read-only: write the file elsewhere";
	default:
		return "check the file system, or write the file elsewhere";
	}
}

int stream_check(FILE *f, const char *what)
{
	if (fflush(f) || ferror(f)) {
		int e = errno ? errno : EIO;

		return fail(-e, "writing %s failed: %s; %s", what, strerrordesc_np(e),
				write_advice(-e));
	}
	return 0;
}

int opts_copy(void *dst, size_t dst_sz, size_t known_end, const void *src,
	      const char *what)
{
	size_t src_sz;

	memset(dst, 0, dst_sz);
	if (!src)
		return 0;
	memcpy(&src_sz, src, sizeof(src_sz));
	if (src_sz < sizeof(size_t))
		return fail(-EINVAL,
			    "%s: sz is %zu; set it to sizeof the struct (HWP_OPTS does)",
			    what, src_sz);
	/*
	 * A newer caller's fields beyond ours must be zero: we cannot honour
	 * them. That starts at the end of our last field, not at our sizeof: a
	 * newer field may sit in what is our tail padding.
	 */
	for (size_t i = known_end; i < src_sz; i++)
		if (((const unsigned char *)src)[i])
			return fail(-EOPNOTSUPP,
					"%s: the caller sets options this library version (%s) does not know "
					"(byte %zu of %zu; ours end at %zu): build against this version's "
					"header, or leave them zero (HWP_OPTS does)",
					what, HWPROF_VERSION, i, src_sz, known_end);
	memcpy(dst, src, src_sz < known_end ? src_sz : known_end);
	return 0;
}

int info_fill(void *dst, const void *src, size_t src_sz)
{
	size_t dst_sz;

	if (!dst)
		return fail(-EINVAL, "info struct is NULL");
	memcpy(&dst_sz, dst, sizeof(dst_sz));
	if (dst_sz < sizeof(size_t))
		return fail(-EINVAL,
			    "info struct: sz is %zu; set it to sizeof the struct",
			    dst_sz);
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
	       (dst_sz < src_sz ? dst_sz : src_sz) - sizeof(size_t));
	return 0;
}
