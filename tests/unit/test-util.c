// SPDX-License-Identifier: MIT
/* Small pieces: CPU lists, edit distance, patterns, strbuf, errors, opts. */
#include "core/core.h"
#include "util/format.h"
#include "util/text.h"
#include "util/cpulist.h"
#include "util/demangle.h"
#include "util/dynlib.h"
#include "util/gzip.h"
#include "util/hash.h"
#include "util/protobuf.h"
#include "harness.h"

#include <zlib.h>

#include <stddef.h>

#include <pthread.h>

/* The signals /proc/PID/status says have a handler: exactly its 16
 * digits, and all of them (UINT64_MAX) whenever the field is not whole. */
static void check_sigcgt(void)
{
	static const struct {
		const char *status;
		uint64_t want;
	} cases[] = {
		{ "Name:\tx\nSigIgn:\t0000000000001000\nSigCgt:\t0000000000004a03\nCapInh:\t0\n",
		  0x4a03 },
		{ "Name:\tx\nSigCgt:\tfffffffe7ffbfeff\n", 0xfffffffe7ffbfeffULL },
		{ "Name:\tx\nSigCgt:\t0000000000000000\n", 0 },
		/* cut by the end of the read: the low digits are missing */
		{ "Name:\tx\nSigCgt:\t00000000000", UINT64_MAX },
		{ "Name:\tx\nSigCgt:\t0000000000004a03", UINT64_MAX },
		/* 128 signals (MIPS): 32 digits */
		{ "Name:\tx\nSigCgt:\t00000000000000000000000000004a03\n", UINT64_MAX },
		{ "Name:\tx\nSigCgt:\t00000000000x4a03\n", UINT64_MAX },
		{ "Name:\tx\nSigIgn:\t0000000000001000\n", UINT64_MAX },
		{ "SigCgt:\t0000000000004a03\n", UINT64_MAX },	/* not a line's start */
		{ "", UINT64_MAX },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(status_sigcgt(cases[i].status) == cases[i].want,
		      "case %zu: %#llx, not %#llx", i,
		      (unsigned long long)status_sigcgt(cases[i].status),
		      (unsigned long long)cases[i].want);
}

static void check_cpulist(void)
{
	int *cpus;
	size_t nr, bad;
	char buf[64];

	CHECK_ERR(cpulist_parse("0-3,6,8-9", &cpus, &nr, &bad), 0);
	CHECK(nr == 7 && cpus[0] == 0 && cpus[3] == 3 && cpus[4] == 6 && cpus[6] == 9,
	      "nr %zu", nr);
	cpulist_format(cpus, nr, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-3,6,8-9"), "round trip: %s", buf);
	free(cpus);
	CHECK_ERR(cpulist_parse("3,1,3,2", &cpus, &nr, &bad), 0);
	CHECK(nr == 3 && cpus[0] == 1 && cpus[2] == 3, "sorted, unique");
	free(cpus);
	CHECK_ERR(cpulist_parse("1-", &cpus, &nr, &bad), -EINVAL);
	CHECK(bad == 2, "bad at %zu", bad);
	CHECK_ERR(cpulist_parse("3-1", &cpus, &nr, &bad), -EINVAL);
	CHECK_ERR(cpulist_parse("a", &cpus, &nr, &bad), -EINVAL);
	CHECK_ERR(cpulist_parse("", &cpus, &nr, &bad), -EINVAL);
	CHECK_ERR(cpulist_parse("1,", &cpus, &nr, &bad), -EINVAL);
	CHECK_ERR(cpulist_parse("99999999", &cpus, &nr, &bad), -ERANGE);
	CHECK_ERR(cpulist_parse("0-65536", &cpus, &nr, &bad), -ERANGE);
	CHECK_ERR(cpulist_parse("0-65535", &cpus, &nr, &bad), 0);
	free(cpus);

	CHECK_ERR(cpus_parse("0", &cpus, &nr), 0);
	CHECK(nr == 1 && cpus[0] == 0, "CPU 0 is online");
	free(cpus);
	CHECK_ERR(cpus_parse("4095", &cpus, &nr), -ENODEV);
	CHECK(strstr(hwp_errmsg(), "online CPUs: 0"), "names the online CPUs: %s",
	      hwp_errmsg());
	CHECK_ERR(cpus_parse("x", &cpus, &nr), -HWP_ERR_SYNTAX);
}

static void check_text(void)
{
	CHECK(edit_distance("cache-mises", "cache-misses", 3) == 1, "insertion");
	CHECK(edit_distance("cahce-misses", "cache-misses", 3) == 1, "transposition");
	CHECK(edit_distance("CYCLES", "cycles", 3) == 0, "case");
	CHECK(edit_distance("abc", "xyz", 2) == 3, "capped at cap + 1");
	CHECK(edit_distance("a", "abcdefgh", 2) == 3, "length gap");
	CHECK(pattern_match("page", "page-faults"), "substring");
	CHECK(pattern_match("PAGE", "page-faults"), "case");
	CHECK(pattern_match("*faults", "page-faults"), "glob");
	CHECK(!pattern_match("cycles*", "page-faults"), "no match");
	CHECK(pattern_match(NULL, "x"), "no pattern");
}

/* Numbers as the text reports show them: grouped digits while they are a
 * count, an exponent past that, never digits cut short. */
static void check_format(void)
{
	static const struct {
		double v;
		bool big;
		const char *want;
	} cases[] = {
		{ 1234567.4, true, "1,234,567" },
		{ 1234567.4, false, "1234567" },
		{ -1234.0, true, "-1,234" },
		{ 18446744073709551615.0, true, "18,446,744,073,709,551,616" },
		{ 1.797e308, true, "1.797e+308" },
		{ 1.797e308, false, "1.797e+308" },
		{ -3e200, true, "-3.000e+200" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_grouped(cases[i].v, cases[i].big, buf, sizeof(buf));
		CHECK(!strcmp(buf, cases[i].want), "%g: '%s', want '%s'", cases[i].v, buf,
		      cases[i].want);
	}
}

/* What escape_put() writes of @in given in pieces of @piece bytes. */
static char *escaped_in_pieces(const char *in, size_t piece)
{
	struct escaper e = { 0 };
	size_t n = strlen(in), size = 0;
	char *out = NULL;
	FILE *f = open_memstream(&out, &size);

	for (size_t i = 0; f && i < n; i += piece)
		escape_put(&e, f, in + i, n - i < piece ? n - i : piece);
	if (f) {
		escape_end(&e, f);
		fclose(f);
	}
	return out;
}

static void check_escape(void)
{
	/* ESC, BEL, DEL, C1 CSI (U+009B), a real UTF-8 letter, newline, tab. */
	const char *in = "a\x1b[31mb\x07\x7f\xc2\x9b\xc3\xa9\n\t\xc2";
	const char *want = "a\\x1b[31mb\\x07\\x7f\\u009b\xc3\xa9\n\t\xc2";
	struct strbuf sb = STRBUF_INIT;
	struct hwp_evlist *evl = NULL;
	char *out = NULL;
	size_t size = 0;
	FILE *f;

	for (size_t piece = 1; piece <= strlen(in); piece++) {
		char *got = escaped_in_pieces(in, piece);

		CHECK(got && !strcmp(got, want), "in pieces of %zu: %s", piece,
		      got ? got : "NULL");
		free(got);
	}
	CHECK(strbuf_add_escaped(&sb, "x\ny\tz", true),
	      "a newline is escaped in a column");
	CHECK(!strcmp(strbuf_str(&sb), "x\\x0ay\tz"), "tabs kept: %s", strbuf_str(&sb));
	strbuf_reset(&sb);
	CHECK(strbuf_add_escaped(&sb, "\t\xc2\x85", false), "tab and NEL");
	CHECK(!strcmp(strbuf_str(&sb), "\\x09\\u0085"), "%s", strbuf_str(&sb));
	strbuf_reset(&sb);
	CHECK(!strbuf_add_escaped(&sb, "caf\xc3\xa9", false), "nothing to escape");
	CHECK(!strcmp(strbuf_str(&sb), "caf\xc3\xa9"), "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	/* The public one, for embedders printing hwp_errmsg(). */
	f = open_memstream(&out, &size);
	CHECK(f && hwpriv_fputs_escaped("event '\x1b]0;x\x07'", f) == 0,
	      "hwpriv_fputs_escaped");
	if (f)
		fclose(f);
	CHECK(out && !strcmp(out, "event '\\x1b]0;x\\x07'"), "%s", out ? out : "NULL");
	free(out);
	CHECK(hwpriv_fputs_escaped(NULL, stderr) == -EINVAL, "NULL string");
	/* Its use: the last failure's message, which it must not clear first. */
	CHECK(hwp_evlist_parse("\x1b[2Jno-such-event", NULL, &evl) < 0 && !evl,
	      "an event list that quotes an escape in its message");
	out = NULL;
	f = open_memstream(&out, &size);
	CHECK(f && hwpriv_fputs_escaped(hwp_errmsg(), f) == 0, "hwp_errmsg() escaped");
	if (f)
		fclose(f);
	CHECK(out && strstr(out, "\\x1b[2J") && !strchr(out, 0x1b), "%s",
	      out ? out : "NULL");
	free(out);
}

static void check_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	CHECK(!strcmp(strbuf_str(&sb), ""), "empty");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	CHECK(sb.len == 3890, "len %zu", sb.len);
	strbuf_reset(&sb);
	strbuf_adds(&sb, "abc");
	strbuf_addch(&sb, 'd');
	s = strbuf_detach(&sb);
	CHECK(!strcmp(s, "abcd"), "%s", s);
	free(s);
	CHECK(sb.buf == NULL, "detach resets");
	s = strbuf_detach(&sb);
	CHECK(s && !*s, "detaching nothing gives an empty string");
	free(s);
}

/* Names as perf report shows them: C++ without its parameters, Rust
 * without its hash; what is not mangled, or malformed, or too long to
 * demangle on the stack, is left alone. */
static void check_demangle(void)
{
	static const struct {
		const char *in, *out;	/* out NULL: not demangled */
	} t[] = {
		{ "_ZN5bench7mapworkEm", "bench::mapwork" },
		{ "_ZN5bench5twiceImEET_S1_", "bench::twice<unsigned long>" },
		{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
		  "std::vector<int, std::allocator<int> >::push_back" },
		{ "_ZN7mycrate6legacy4spin17h0123456789abcdefE",
		  "mycrate::legacy::spin" },
		{ "_RNvNtCs1234_7mycrate5inner4spin", "mycrate::inner::spin" },
		{ "_RNvCs1234_5bench7mapwork", "bench::mapwork" },
		{ "main", NULL },
		{ "_Z", NULL },
		{ "_ZN5bench", NULL },
		{ "_RNvNtC", NULL },
		{ "_R", NULL },
	};
	struct strbuf sb = STRBUF_INIT;
	char *huge;

	if (demangle_unavailable()) {
		t_case_skip("%s", demangle_unavailable());
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		bool ok = demangle(t[i].in, &sb);

		CHECK(ok == (t[i].out != NULL) &&
		      !strcmp(strbuf_str(&sb), t[i].out ? t[i].out : ""),
		      "%s: %d '%s'", t[i].in, ok, strbuf_str(&sb));
		strbuf_reset(&sb);
	}
	/* appended; a failure leaves what was there */
	strbuf_adds(&sb, "x ");
	CHECK(demangle("_ZN5bench7mapworkEm", &sb) &&
	      !strcmp(strbuf_str(&sb), "x bench::mapwork"), "%s", strbuf_str(&sb));
	CHECK(!demangle("_RNvNtCs1234_7mycrate5inner", &sb) &&
	      !strcmp(strbuf_str(&sb), "x bench::mapwork"), "%s", strbuf_str(&sb));
	/* a name of 100,000 nested names: left alone, not on the stack */
	huge = malloc(200004);
	if (huge) {
		memcpy(huge, "_ZN", 3);
		for (size_t i = 0; i < 100000; i++)
			memcpy(huge + 3 + 2 * i, "1a", 2);
		memcpy(huge + 200003, "", 1);
		strbuf_reset(&sb);
		CHECK(!demangle(huge, &sb) && sb.len == 0, "a huge name");
		free(huge);
	}
	strbuf_release(&sb);
}

/* The wire format's bytes, from protobuf.dev's encoding guide: 150 in
 * field 1 is 08 96 01; "testing" in field 2 is 12 07 74 65 73 74 69 6e 67;
 * packed 3, 270, 86942 in field 4 is 22 06 03 8e 02 9e a7 05. */
static void check_protobuf(void)
{
	static const uint8_t want[] = {
		0x08, 0x96, 0x01,
		0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g',
		0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05,
		/* int64 -1: ten bytes; uint64 max: ten bytes too */
		0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		0x30, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		/* an embedded message { 1: 150 } as field 7 */
		0x3a, 0x03, 0x08, 0x96, 0x01,
		/* an empty string is written: a repeated string's element */
		0x42, 0x00,
	};
	static const uint64_t packed[] = { 3, 270, 86942 };
	struct pb_buf pb = { 0 }, msg = { 0 };

	pb_uint(&pb, 1, 150);
	pb_bytes(&pb, 2, "testing", 7);
	pb_packed(&pb, 4, packed, 3);
	pb_int(&pb, 5, -1);
	pb_uint(&pb, 6, UINT64_MAX);
	pb_uint(&msg, 1, 150);
	pb_message(&pb, 7, &msg);
	pb_bytes(&pb, 8, "", 0);
	pb_uint(&pb, 9, 0);	/* proto3's default: left out */
	pb_packed(&pb, 10, packed, 0);
	CHECK(!pb.failed && pb.len == sizeof(want) && !memcmp(pb.b, want, sizeof(want)),
	      "the encoding guide's bytes (%zu of %zu)", pb.len, sizeof(want));
	pb_release(&pb);
	pb_release(&msg);
}

/* gzip's output inflates back to the input, in a stream zlib reads. */
static void check_gzip(void)
{
	char *out = NULL, back[100000];
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	struct gz_writer *gz = NULL;
	static char in[100000];
	z_stream z = { 0 };

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (char)(i * 7 % 251);
	CHECK(f && !gz_begin(f, &gz), "begin");
	CHECK(!gz_write(gz, in, 1) && !gz_write(gz, in + 1, sizeof(in) - 1), "write");
	CHECK(!gz_finish(gz), "finish");
	fclose(f);
	CHECK(size > 18 && (uint8_t)out[0] == 0x1f && (uint8_t)out[1] == 0x8b,
	      "gzip's magic");
	CHECK(inflateInit2(&z, 15 + 16) == Z_OK, "inflate");
	z.next_in = (unsigned char *)out;
	z.avail_in = (uInt)size;
	z.next_out = (unsigned char *)back;
	z.avail_out = sizeof(back);
	CHECK(inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == sizeof(in) &&
	      !memcmp(back, in, sizeof(in)), "inflates back: %lu bytes", z.total_out);
	inflateEnd(&z);
	free(out);
}

/* strtab_index(): the first string is 0, a string seen again keeps its number. */
static void check_strtab_index(void)
{
	struct strtab t = { 0 };

	CHECK(strtab_index(&t, "", 0) == 0, "'' is 0");
	CHECK(strtab_index(&t, "main", 4) == 1, "main is 1");
	CHECK(strtab_index(&t, "mainly", 4) == 1, "a prefix's length counts");
	CHECK(strtab_index(&t, "", 0) == 0 && t.nr == 2, "seen again");
	CHECK(strtab_intern(&t, "main", 4) == t.strs[1], "intern gives the same copy");
	strtab_release(&t);
}

static void *errmsg_thread(void *arg)
{
	fail(-EINVAL, "thread %ld", (long)arg);
	for (int i = 0; i < 1000; i++) {
		char want[32];

		snprintf(want, sizeof(want), "thread %ld", (long)arg);
		if (strcmp(hwp_errmsg(), want))
			return (void *)1;
		sched_yield();
	}
	return NULL;
}

static void check_errors(void)
{
	pthread_t t[4];
	int bad = 0;

	CHECK(!strcmp(hwp_strerror(-HWP_ERR_UNKNOWN_EVENT), "Unknown event"),
	      "lib range");
	CHECK(!strcmp(hwp_strerror(HWP_ERR_SYNTAX), "Syntax error"), "positive too");
	CHECK(!strcmp(hwp_strerror(-ENOENT), "No such file or directory"), "errno range");
	CHECK(!strcmp(hwp_strerror(0), "Success"), "zero");
	CHECK(!strcmp(hwp_strerror(-HWP_ERR_END), "Unknown error"), "past the end");
	CHECK(strlen(hwp_strerror(-99999)) > 0, "never NULL");
	for (int i = HWP_ERR_BASE; i < HWP_ERR_END; i++)
		CHECK(hwp_strerror(-i) && strcmp(hwp_strerror(-i), "Unknown error"),
		      "code %d named", i);
	/* The message is per thread: threads do not see each other's. */
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, errmsg_thread, (void *)i);
	for (int i = 0; i < 4; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		bad += ret != NULL;
	}
	CHECK(bad == 0, "%d threads saw another thread's message", bad);
	CHECK(strcmp(hwp_errmsg(), "thread 0"), "main thread's message is its own");
	CHECK(!strcmp(hwp_version(), HWPROF_VERSION), "version %s", hwp_version());
}

/* Messages print errno_text() of whatever code a call left: never "(null)". */
static void check_errno_text(void)
{
	CHECK(!strcmp(errno_text(-ENOENT), "No such file or directory") &&
	      !strcmp(errno_text(ENOENT), "No such file or directory"), "either sign");
	CHECK(strcmp(errno_text(0), "Success") && strstr(errno_text(0), "no error code"),
	      "0: %s", errno_text(0));
	CHECK(!strcmp(errno_text(-2600), "Unknown error"), "unknown: %s",
	      errno_text(-2600));
	CHECK(!strcmp(errno_text(-HWP_ERR_FORMAT), "Bad input format"), "hwprof's own");
}

/* hwp_doctor_new() is a global function: thread-safe (the hardware-PMU
 * fact it caches is read by every thread; make test-tsan checks the race). */
#define DOCTOR_THREADS 16

static int doctor_pmu(const struct hwp_doctor_item *it, void *ctx)
{
	if (strcmp(it->name, "hardware-pmu"))
		return 0;
	snprintf(ctx, 64, "%s", it->value);
	return 1;	/* found: stop */
}

static void *doctor_thread(void *arg)
{
	struct hwp_doctor *d = NULL;
	char *pmu = arg;
	int ret;

	if (hwp_doctor_new(&d))
		return (void *)1;
	ret = hwp_doctor_foreach(d, doctor_pmu, pmu);
	hwp_doctor_free(d);
	return ret == 1 ? NULL : (void *)1;
}

static void check_doctor_threads(void)
{
	static char pmu[DOCTOR_THREADS][64];
	pthread_t t[DOCTOR_THREADS];
	int bad = 0;

	for (size_t i = 0; i < DOCTOR_THREADS; i++)
		CHECK(!pthread_create(&t[i], NULL, doctor_thread, pmu[i]), "thread %zu",
		      i);
	for (size_t i = 0; i < DOCTOR_THREADS; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		bad += ret != NULL;
	}
	CHECK(bad == 0, "%d of %d threads failed", bad, DOCTOR_THREADS);
	for (size_t i = 0; i < DOCTOR_THREADS; i++)
		CHECK(pmu[i][0] && !strcmp(pmu[i], pmu[0]),
		      "thread %zu: hardware-pmu '%s', '%s'", i, pmu[i], pmu[0]);
}

/* fail_prefix() adds context in front of a callee's message; the callee's
 * part (the reason, the fix) survives however long the context is. */
static void check_error_prefix(void)
{
	static char spec[3 * 2000 + 1];
	const char *msg;

	for (size_t i = 0; i < 2000; i++)
		memcpy(spec + 3 * i, "cs,", 3);
	fail(-HWP_ERR_UNKNOWN_EVENT, "unknown event 'x' (did you mean: cache-misses)");
	CHECK_ERR(fail_prefix(-HWP_ERR_UNKNOWN_EVENT, "the events '%s'", spec),
		  -HWP_ERR_UNKNOWN_EVENT);
	msg = hwp_errmsg();
	CHECK(strlen(msg) < HWP_ERRMSG_MAX, "%zu", strlen(msg));
	CHECK(strncmp(msg, "the events 'cs,cs,", 18) == 0, "%.40s", msg);
	CHECK(strstr(msg, "[...]: unknown event 'x' (did you mean: cache-misses)") &&
		      msg[strlen(msg) - 1] == ')',
	      "...%s", msg + (strlen(msg) > 80 ? strlen(msg) - 80 : 0));
	/* Short: as it was. */
	fail(-ENOENT, "no such file");
	fail_prefix(-ENOENT, "opening '%s'", "a.json");
	CHECK(strcmp(hwp_errmsg(), "opening 'a.json': no such file") == 0, "%s",
	      hwp_errmsg());
	/* A callee's message that fills the buffer alone stays, without context. */
	fail(-EINVAL, "%s reason", spec);
	fail_prefix(-EINVAL, "context");
	msg = hwp_errmsg();
	CHECK(strncmp(msg, "cs,cs,", 6) == 0, "%.20s", msg);
}

static void check_opts_abi(void)
{
	struct {
		struct hwp_evlist_opts o;
		char newer_field;
	} newer = { .o = { .sz = sizeof(newer) }, .newer_field = 1 };
	struct hwp_evlist *evl = NULL;
	struct hwp_evlist_opts old = { .sz = sizeof(size_t) };

	/* A newer caller asking for something we do not know: refused, clearly. */
	CHECK_ERR(hwp_evlist_parse("cs", (struct hwp_evlist_opts *)&newer, &evl),
		  -EOPNOTSUPP);
	newer.newer_field = 0;
	CHECK_ERR(hwp_evlist_parse("cs", (struct hwp_evlist_opts *)&newer, &evl), 0);
	hwp_evlist_free(evl);
	/* An older, smaller caller: defaults for the rest. */
	CHECK_ERR(hwp_evlist_parse("cs", &old, &evl), 0);
	hwp_evlist_free(evl);
	old.sz = 0;
	CHECK_ERR(hwp_evlist_parse("cs", &old, &evl), -EINVAL);
}

/* A newer library may put a field where this one's struct has padding
 * after its last field (size_t :0 keeps that tail): a caller that sets it,
 * with the same sizeof, must be refused, never silently misread. */
static void check_opts_padding(void)
{
	/* hwp_evlist_opts ends in a bool: a tail of padding (hwp_session_opts,
	 * which did, ends in a pointer since 0.2) */
	union {
		struct hwp_evlist_opts o;
		unsigned char bytes[sizeof(struct hwp_evlist_opts)];
	} u;
	size_t end = offsetof(struct hwp_evlist_opts, no_merge) +
		     sizeof(u.o.no_merge);
	struct hwp_evlist *evl = NULL;

	CHECK(end < sizeof(u.o),
	      "hwp_evlist_opts has a tail after its last field: %zu of %zu",
	      end, sizeof(u.o));
	if (end >= sizeof(u.o))
		return;
	memset(&u, 0, sizeof(u));
	u.o.sz = sizeof(u.o);
	u.bytes[end] = 1;	/* a newer field this library does not know */
	CHECK_ERR(hwp_evlist_parse("cs", &u.o, &evl), -EOPNOTSUPP);
	CHECK(strstr(hwp_errmsg(), "does not know"), "%s", hwp_errmsg());
	u.bytes[end] = 0;
	CHECK_ERR(hwp_evlist_parse("cs", &u.o, &evl), 0);
	hwp_evlist_free(evl);
}

/* The field OPTS_COPY takes for the last is the last: what follows it, up
 * to sizeof, is padding alone. A field added after it without moving the
 * __last_field line would be refused as unknown; this says why. */
#define ROUND_UP(n, a) (((n) + (a) - 1) / (a) * (a))
#define CHECK_LAST(TYPE)                                                               \
	CHECK(sizeof(struct TYPE) ==                                                   \
		      ROUND_UP(offsetofend(struct TYPE, TYPE##__last_field),           \
			       _Alignof(struct TYPE)),                                 \
	      #TYPE ": the last field is not " #TYPE "__last_field (lib/core/opts.h)")

static void check_opts_last_field(void)
{
	CHECK_LAST(hwp_evlist_opts);
	CHECK_LAST(hwp_session_opts);
	CHECK_LAST(hwp_workload_opts);
	CHECK_LAST(hwp_stats_test_opts);
	CHECK_LAST(hwp_write_opts);
	CHECK_LAST(hwp_compare_opts);
	CHECK_LAST(hwp_region_opts);
	CHECK_LAST(hwp_record_opts);
	CHECK_LAST(hwp_profile_opts);
	CHECK_LAST(hwp_profile_diff_opts);
}

/* HWP_OPTS zeroes the padding too, whatever the stack held before. */
static __attribute__((noinline)) void dirty_stack(void)
{
	volatile unsigned char junk[512];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

static __attribute__((noinline)) void opts_on_dirty_stack(unsigned char *copy)
{
	HWP_OPTS(hwp_session_opts, o, .no_rdpmc = true);

	memcpy(copy, &o, sizeof(o));
}

static void check_opts_macro(void)
{
	unsigned char copy[sizeof(struct hwp_session_opts)];
	size_t end = offsetof(struct hwp_session_opts, no_rdpmc) + 1;

	dirty_stack();
	opts_on_dirty_stack(copy);
	for (size_t i = end; i < sizeof(copy); i++)
		CHECK(copy[i] == 0, "byte %zu past the last field is %#x", i, copy[i]);
}

#include <stdatomic.h>

static atomic_int log_total;

struct log_seen {
	int n;
	enum hwp_log_level level;
	char msg[256];
};

static void log_cb(enum hwp_log_level level, const char *msg, void *ctx)
{
	struct log_seen *s = ctx;

	atomic_fetch_add(&log_total, 1);
	if (!strcmp(msg, "spam"))
		return;	/* from the other thread: only counted */
	s->n++;
	s->level = level;
	snprintf(s->msg, sizeof(s->msg), "%s", msg);
}

static atomic_int log_stop;

static void *log_spammer(void *arg)
{
	(void)arg;
	while (!log_stop)
		lib_log(HWP_LOG_WARN, "spam");
	return NULL;
}

static void check_log(void)
{
	struct log_seen a = { 0 }, b = { 0 };
	pthread_t t;

	hwp_log_set(log_cb, &a);
	hwp_log_set_level(HWP_LOG_WARN);
	lib_log(HWP_LOG_WARN, "hello %d", 42);
	lib_log(HWP_LOG_DEBUG, "hidden");
	CHECK(a.n == 1 && !strcmp(a.msg, "hello 42") && a.level == HWP_LOG_WARN,
	      "n %d '%s'", a.n, a.msg);
	hwp_log_set_level(HWP_LOG_DEBUG);
	lib_log(HWP_LOG_DEBUG, "shown");
	CHECK(a.n == 2 && !strcmp(a.msg, "shown"), "debug after raising the level");
	/* Swapping while another thread logs: each message goes to one whole pair. */
	atomic_store(&log_total, 0);
	pthread_create(&t, NULL, log_spammer, NULL);
	for (int i = 0; atomic_load(&log_total) < 2000 && i < 100000000; i++)
		hwp_log_set(log_cb, i % 2 ? (void *)&a : (void *)&b);
	log_stop = 1;
	pthread_join(t, NULL);
	CHECK(atomic_load(&log_total) >= 2000, "messages arrived while swapping");
	hwp_log_set(NULL, NULL);
	hwp_log_set_level(HWP_LOG_WARN);
}

/* A library loaded at first use: what a user is told when it is missing,
 * or too old for a function we call. */
static void check_dynlib(void)
{
	char err[512] = "";
	size_t (*len)(const char *) = NULL;
	void *none = NULL;
	struct dynlib_sym ok[] = { { "strlen", (void **)&len } };
	struct dynlib_sym old[] = { { "strlen", (void **)&len },
				    { "hwp_no_such_function", &none } };

	CHECK(dynlib_open("libhwp-missing.so.9", "libmissing", "libmissing9", ok, 1,
			  err, sizeof(err)) == -ELIBACC &&
	      strstr(err, "libmissing (libhwp-missing.so.9) cannot be loaded: ") &&
	      strstr(err, "; install it with: sudo apt-get install libmissing9"),
	      "%s", err);
	err[0] = '\0';
	CHECK(dynlib_open("libc.so.6", "libc", "libc6", ok, 1, err, sizeof(err)) == 0 &&
	      !err[0] && len && len("four") == 4, "%s", err);
	CHECK(dynlib_open("libc.so.6", "libc", "libc6", old, 2, err, sizeof(err)) ==
	      -ELIBACC &&
	      !strcmp(err, "libc.so.6 lacks hwp_no_such_function: libc is too old"),
	      "%s", err);
}

int main(void)
{
	t_init();
	t_run(check_protobuf);
	t_run(check_gzip);
	t_run(check_dynlib);
	t_run(check_strtab_index);
	t_run(check_cpulist);
	t_run(check_sigcgt);
	t_run(check_text);
	t_run(check_escape);
	t_run(check_format);
	t_run(check_strbuf);
	t_run(check_demangle);
	t_run(check_errors);
	t_run(check_errno_text);
	t_run(check_doctor_threads);
	t_run(check_error_prefix);
	t_run(check_opts_abi);
	t_run(check_opts_padding);
	t_run(check_opts_macro);
	t_run(check_opts_last_field);
	t_run(check_log);
	return t_done();
}
