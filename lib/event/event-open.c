// SPDX-License-Identifier: MIT
/* Opening events with every fallback, once for counting, recording and
 * probing (event-open.h lists the fallbacks). Failures are sorted as perf
 * sorts them: what this machine cannot count is marked and the list goes
 * on; what no event of the list could get past (permission, descriptors,
 * memory, a process that is not there) fails the whole open. */
#include "event/event-open.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

void targets_release(struct targets *t)
{
	free(t->cpus);
	free(t->tids);
	*t = (struct targets){ 0 };
}

static int one_of(int **v, size_t *nr, int value)
{
	*v = malloc(sizeof(**v));
	if (!*v)
		return fail(-ENOMEM, "out of memory");
	**v = value;
	*nr = 1;
	return 0;
}

int targets_set(struct targets *t, enum hwp_scope scope, pid_t pid, const char *cpulist,
		bool per_cpu)
{
	int err;

	targets_release(t);
	if (scope == HWP_SCOPE_CPUS && cpulist)
		err = cpus_parse(cpulist, &t->cpus, &t->nr_cpus);
	else if (scope == HWP_SCOPE_CPUS || per_cpu)
		err = online_cpus(&t->cpus, &t->nr_cpus);
	else
		err = one_of(&t->cpus, &t->nr_cpus, -1);
	if (err)
		return err == -ENOMEM ? fail(err, "out of memory") : err;
	if (scope == HWP_SCOPE_PROCESS)
		return list_threads(pid ? pid : getpid(), &t->tids, &t->nr_tids);
	if (scope == HWP_SCOPE_CPUS)
		return one_of(&t->tids, &t->nr_tids, -1);
	return one_of(&t->tids, &t->nr_tids, pid ? pid : (pid_t)syscall(SYS_gettid));
}

/* The PMU would not give the counter the user-space read that was asked of
 * it (arm64's config1 bit): the request is all that differs from the event. */
static bool asked_user_read(const struct perf_event_attr *a, const struct event *ev)
{
	return a->config != ev->attr.config || a->config1 != ev->attr.config1 ||
	       a->config2 != ev->attr.config2;
}

static void forget_user_read(struct perf_event_attr *a, const struct event *ev)
{
	a->config = ev->attr.config;
	a->config1 = ev->attr.config1;
	a->config2 = ev->attr.config2;
}

/* Whether a group member the group refused opens on its own: then the
 * group is what the PMU cannot hold (the kernel says only EINVAL). */
static bool fits_alone(const struct open_req *req)
{
	struct perf_event_attr alone = *req->attr;
	long fd;

	alone.disabled = 1;
	alone.enable_on_exec = 0;
	fd = sys_perf_event_open(&alone, req->tid, req->cpu, -1, req->flags);
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

static enum open_outcome failed(int err, struct strbuf *sb)
{
	fail(err, "%s", strbuf_str(sb));
	strbuf_release(sb);
	return OPEN_FAILED;
}

static enum open_outcome not_supported(struct strbuf *sb, struct strbuf *reason)
{
	if (reason)
		strbuf_adds(reason, strbuf_str(sb));
	strbuf_release(sb);
	return OPEN_NOT_SUPPORTED;
}

/* Sort a failed open (@err, after every fallback). */
static enum open_outcome sort_failure(const struct open_req *req, int err,
				      struct strbuf *reason)
{
	const struct event *ev = req->ev;
	struct strbuf sb = STRBUF_INIT;
	struct rlimit rl = { 0 };

	switch (-err) {
	case EACCES:
	case EPERM:
		explain_permission(&sb, ev->name, err, req->scope == HWP_SCOPE_CPUS,
				   req->tid > 0 ? req->tid : req->pid,
				   req->attr->exclude_kernel &&
				   !req->attr->exclude_user);
		/* An event of the kernel alone has no user-space fallback: the
		 * rest of the list may still count. */
		if (req->attr->exclude_user && req->scope != HWP_SCOPE_CPUS)
			return not_supported(&sb, reason);
		return failed(err, &sb);
	case EMFILE:
	case ENFILE:
		getrlimit(RLIMIT_NOFILE, &rl);
		strbuf_addf(&sb, "too many open files: the events need %zu descriptor%s, and the limit is %llu (hard limit %llu); raise it with 'ulimit -n', or open fewer events, on fewer CPUs or threads",
			    req->fds_needed, req->fds_needed == 1 ? "" : "s",
			    (unsigned long long)rl.rlim_cur,
			    (unsigned long long)rl.rlim_max);
		return failed(err, &sb);
	case ESRCH:
		if (req->scope == HWP_SCOPE_PROCESS)
			return OPEN_THREAD_GONE;
		strbuf_addf(&sb, "process %d does not exist", (int)req->pid);
		return failed(err, &sb);
	case ENOMEM:
		strbuf_addf(&sb, "%s: the kernel is out of memory", ev->name);
		return failed(err, &sb);
	}
	if (req->group_fd >= 0 && err == -E2BIG)
		strbuf_addf(&sb, "does not fit in its group: the kernel reads at most %zu members of a group at once (E2BIG), and the group has %zu; split it into groups of %zu or fewer",
			    req->group_opened, req->group_size, req->group_opened);
	else if (req->group_fd >= 0 && fits_alone(req))
		strbuf_addf(&sb, "does not fit in its group: the PMU cannot count the group's %zu events at once, only the %zu that opened before this one (%s); split the group into smaller ones",
			    req->group_size, req->group_opened, errno_text(-err));
	else
		explain_unsupported(&sb, ev, err);
	return not_supported(&sb, reason);
}

enum open_outcome event_open(struct open_req *req, int *fd, int *err,
			     struct strbuf *reason)
{
	struct perf_event_attr *a = req->attr;
	bool raised = false, user_only = false;
	long r;

	*fd = -1;
	*err = 0;
	for (;;) {
		r = sys_perf_event_open(a, req->tid, req->cpu, req->group_fd, req->flags);
		if (r >= 0)
			break;
		if ((r == -EOPNOTSUPP || r == -EINVAL) && a->precise_ip > 0) {
			a->precise_ip--;	/* perf's fallback for :P and :pp */
			continue;
		}
		if (r == -EINVAL && (a->read_format & PERF_FORMAT_LOST)) {
			a->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
			continue;
		}
		if ((r == -EOPNOTSUPP || r == -EINVAL) && asked_user_read(a, req->ev)) {
			forget_user_read(a, req->ev);	/* read() it will be */
			continue;
		}
		if ((r == -EACCES || r == -EPERM) && !a->exclude_kernel &&
		    !a->exclude_user && req->scope != HWP_SCOPE_CPUS) {
			a->exclude_kernel = 1;
			a->exclude_hv = 1;
			user_only = true;
			continue;
		}
		if ((r == -EMFILE || r == -ENFILE) && !raised) {
			raised = true;
			if (raise_nofile())
				continue;
		}
		break;
	}
	if (r < 0) {
		*err = (int)r;
		return sort_failure(req, (int)r, reason);
	}
	*fd = (int)r;
	if (!user_only)
		return OPEN_DONE;
	if (reason)
		strbuf_addf(reason, "counts user space only: kernel.perf_event_paranoid is %d (sysctl -w kernel.perf_event_paranoid=1 counts the kernel too; '%s%su' asks for user space alone)",
			    read_paranoid(), req->ev->name,
			    strchr(req->ev->name, ':') ? "" : ":");
	return OPEN_USER_ONLY;
}
