// SPDX-License-Identifier: MIT
/* libpfm4 at the boundary: its PFM_ERR_* codes overlap errno values, so
 * they are translated here and never leave this file.
 *
 * libpfm4 is loaded on first use. Linked in, it costs every process start
 * ~41,000 relocations and ~200 page faults for its event tables, which
 * tripled the time of 'hwprof stat -- true' on perf's generic names. */
#include "core/core.h"
#include "event/event.h"
#include "util/text.h"

/* The kernel's header first, so that libpfm4 uses its struct. */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PFM_LIBRARY "libpfm.so.4"

/* The libpfm4 functions we use, resolved at the first use. */
static struct {
	pfm_err_t (*initialize)(void);
	const char *(*strerror)(int code);
	pfm_err_t (*get_pmu_info)(pfm_pmu_t pmu, pfm_pmu_info_t *output);
	int (*get_event_next)(int idx);
	int (*find_event)(const char *str);
	pfm_err_t (*get_event_info)(int idx, pfm_os_t os, pfm_event_info_t *output);
	pfm_err_t (*get_os_event_encoding)(const char *str, int dfl_plm, pfm_os_t os,
					   void *args);
	pfm_err_t (*get_event_attr_info)(int eidx, int aidx, pfm_os_t os,
					 pfm_event_attr_info_t *output);
} pfm;

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static char pfm_init_error[512];

static void pfm_init_once(void)
{
	void *h = dlopen(PFM_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	int ret;

	if (!h) {
		snprintf(pfm_init_error, sizeof(pfm_init_error),
			 "libpfm4 (%s) cannot be loaded: %s; install it with: sudo apt-get install libpfm4",
			 PFM_LIBRARY, dlerror());
		return;
	}
#define RESOLVE(field, sym)                                                            \
	do {                                                                           \
		*(void **)&pfm.field = dlsym(h, #sym);                                 \
		if (!pfm.field) {                                                      \
			snprintf(pfm_init_error, sizeof(pfm_init_error),               \
				 "%s lacks %s: libpfm4 is too old (4.10 or later needed)", \
				 PFM_LIBRARY, #sym);                                   \
			return;                                                        \
		}                                                                      \
	} while (0)
	RESOLVE(initialize, pfm_initialize);
	RESOLVE(strerror, pfm_strerror);
	RESOLVE(get_pmu_info, pfm_get_pmu_info);
	RESOLVE(get_event_next, pfm_get_event_next);
	RESOLVE(find_event, pfm_find_event);
	RESOLVE(get_event_info, pfm_get_event_info);
	RESOLVE(get_os_event_encoding, pfm_get_os_event_encoding);
	RESOLVE(get_event_attr_info, pfm_get_event_attr_info);
#undef RESOLVE
	ret = pfm.initialize();
	if (ret != PFM_SUCCESS)
		snprintf(pfm_init_error, sizeof(pfm_init_error),
			 "libpfm4 failed to initialize: %s", pfm.strerror(ret));
	/* The handle stays open for the life of the process, as the tables do. */
}

int libpfm_init(void)
{
	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_init_error[0])
		return fail(-ELIBACC, "%s", pfm_init_error);
	return 0;
}

static bool pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm.get_pmu_info(pmu, info) == PFM_SUCCESS;
}

/* Whether libpfm4 counts @name (a PMU of its tables: "icl") as this
 * machine's, detected or forced with LIBPFM_FORCE_PMU. */
bool libpfm_pmu_present(const char *name)
{
	pfm_pmu_info_t info;
	pfm_pmu_t pmu;

	if (libpfm_init())
		return false;
	pfm_for_all_pmus(pmu)
		if (pmu_info(pmu, &info) && info.name && !strcmp(info.name, name))
			return info.is_present;
	return false;
}

/* For "icl::X" on a machine whose CPU is not an Ice Lake: say so. */
static int inactive_pmu_error(const char *name)
{
	const char *sep = strstr(name, "::");
	pfm_pmu_info_t info;
	pfm_pmu_t pmu;

	if (!sep)
		return -ENOENT;
	pfm_for_all_pmus(pmu) {
		if (!pmu_info(pmu, &info) || !info.name)
			continue;
		if (strlen(info.name) == (size_t)(sep - name) &&
		    !strncmp(info.name, name, (size_t)(sep - name)) && !info.is_present)
			return fail(-HWP_ERR_NO_PMU,
					"event '%s': libpfm4 knows PMU '%s' (%s) but this CPU is not one; "
					"LIBPFM_FORCE_PMU=%s makes libpfm4 encode its events anyway",
					name, info.name, info.desc ? info.desc : "",
					info.name);
	}
	return -ENOENT;
}

/* For "MEM_LOAD_RETIRED" without a unit mask: list the ones it takes. */
static int umask_error(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	pfm_event_info_t einfo;
	char base[256];
	size_t n = 0;
	int idx;

	snprintf(base, sizeof(base), "%s", name);
	base[strcspn(base, ":")] = '\0';
	if (strstr(name, "::")) {
		const char *p = strstr(name, "::") + 2;

		snprintf(base, sizeof(base), "%.*s%.*s", (int)(p - name), name,
			 (int)strcspn(p, ":"), p);
	}
	idx = pfm.find_event(base);
	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	if (idx >= 0 &&
	    pfm.get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &einfo) == PFM_SUCCESS) {
		for (int a = 0; a < einfo.nattrs && n < 24; a++) {
			pfm_event_attr_info_t ainfo;

			memset(&ainfo, 0, sizeof(ainfo));
			ainfo.size = sizeof(ainfo);
			if (pfm.get_event_attr_info(idx, a, PFM_OS_PERF_EVENT_EXT,
						    &ainfo) ||
			    ainfo.type != PFM_ATTR_UMASK)
				continue;
			strbuf_addf(&sb, "%s%s", n++ ? ", " : "", ainfo.name);
		}
	}
	if (n)
		fail(-HWP_ERR_SYNTAX,
		     "event '%s': invalid or missing unit mask; it takes: %s",
		     name, strbuf_str(&sb));
	else
		fail(-HWP_ERR_SYNTAX, "event '%s': invalid or missing unit mask", name);
	strbuf_release(&sb);
	return -HWP_ERR_SYNTAX;
}

static int translate(int ret, const char *name)
{
	switch (ret) {
	case PFM_ERR_NOTFOUND:
		return inactive_pmu_error(name);
	case PFM_ERR_UMASK:
		return umask_error(name);
	case PFM_ERR_ATTR:
	case PFM_ERR_ATTR_VAL:
	case PFM_ERR_ATTR_SET:
	case PFM_ERR_FEATCOMB:
		return fail(-HWP_ERR_SYNTAX, "event '%s': %s (libpfm4)", name,
				pfm.strerror(ret));
	case PFM_ERR_NOMEM:
		return fail(-ENOMEM, "event '%s': out of memory in libpfm4", name);
	case PFM_ERR_NOTSUPP:
		return fail(-EOPNOTSUPP, "event '%s': %s (libpfm4)", name,
			    pfm.strerror(ret));
	case PFM_ERR_TOOMANY:
	case PFM_ERR_TOOSMALL:
	case PFM_ERR_INVAL:
	default:
		return fail(-EINVAL, "event '%s': %s (libpfm4)", name, pfm.strerror(ret));
	}
}

int libpfm_resolve(const char *name, struct event *ev, struct event_names *n)
{
	struct perf_event_attr a, *attr = &ev->attr;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t einfo;
	pfm_pmu_info_t pinfo;
	const char *plain;
	char *fstr = NULL;
	int ret;

	ret = libpfm_init();
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	ret = pfm.get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
					&arg);
	free(fstr);
	if (ret != PFM_SUCCESS)
		return translate(ret, name);

	/* Keep what identifies the event and its privilege levels; the
	 * session decides the rest (read format, inheritance, sampling). */
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = a.type;
	attr->config = a.config;
	attr->config1 = a.config1;
	attr->config2 = a.config2;
	attr->exclude_user = a.exclude_user;
	attr->exclude_kernel = a.exclude_kernel;
	attr->exclude_hv = a.exclude_hv;
	attr->exclude_guest = a.exclude_guest;
	attr->exclude_host = a.exclude_host;
	attr->precise_ip = a.precise_ip;

	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	if (pfm.get_event_info(arg.idx, PFM_OS_PERF_EVENT_EXT, &einfo) != PFM_SUCCESS ||
	    !pmu_info(einfo.pmu, &pinfo))
		return fail(-EIO, "event '%s': libpfm4 encoded it but cannot describe it",
			    name);
	plain = strstr(name, "::") ? strstr(name, "::") + 2 : name;
	ret = snprintf(n->buf, sizeof(n->buf), "%s::%s", pinfo.name, plain);
	if (ret < 0 || (size_t)ret >= sizeof(n->buf))
		return fail(-EINVAL, "event '%s': a name of more than %zu characters",
			    name, sizeof(n->buf) - 1);
	ev->source = HWP_SOURCE_PFM;
	ev->is_hardware = attr->type != PERF_TYPE_SOFTWARE &&
			  attr->type != PERF_TYPE_TRACEPOINT;
	n->canonical = n->buf;
	n->desc = einfo.desc ? einfo.desc : "";
	return 0;
}

/* Walk the events of the PMUs libpfm4 found (or was forced to). */
static int pfm_walk(int (*fn)(const char *pmu, const pfm_event_info_t *ev, void *ctx),
		    void *ctx)
{
	pfm_pmu_info_t pinfo;
	pfm_pmu_t pmu;

	if (libpfm_init())
		return 0;	/* no libpfm4 events: the other sources still list */
	pfm_for_all_pmus(pmu) {
		if (!pmu_info(pmu, &pinfo) || !pinfo.is_present)
			continue;
		for (int idx = pinfo.first_event; idx != -1;
		     idx = pfm.get_event_next(idx)) {
			pfm_event_info_t einfo;
			int ret;

			memset(&einfo, 0, sizeof(einfo));
			einfo.size = sizeof(einfo);
			if (pfm.get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &einfo) !=
			    PFM_SUCCESS)
				continue;
			ret = fn(pinfo.name, &einfo, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}

struct foreach_ctx {
	const char *pattern;
	hwp_event_fn fn;
	void *ctx;
};

static int foreach_one(const char *pmu, const pfm_event_info_t *ev, void *arg)
{
	struct foreach_ctx *fc = arg;
	char name[512];
	struct hwp_event_desc d = {
		.name = name,
		.desc = ev->desc ? ev->desc : "",
		.pmu = pmu,
		.source = HWP_SOURCE_PFM,
	};

	snprintf(name, sizeof(name), "%s::%s", pmu, ev->name);
	if (fc->pattern && !pattern_match(fc->pattern, name))
		return 0;
	return fc->fn(&d, fc->ctx);
}

int libpfm_foreach(const char *pattern, hwp_event_fn fn, void *ctx)
{
	struct foreach_ctx fc = { pattern, fn, ctx };

	return pfm_walk(foreach_one, &fc);
}

struct names_ctx {
	int (*fn)(const char *name, void *ctx);
	void *ctx;
};

static int names_one(const char *pmu, const pfm_event_info_t *ev, void *arg)
{
	struct names_ctx *nc = arg;

	(void)pmu;
	return nc->fn(ev->name, nc->ctx);
}

int libpfm_names(int (*fn)(const char *name, void *ctx), void *ctx)
{
	struct names_ctx nc = { fn, ctx };

	return pfm_walk(names_one, &nc);
}
