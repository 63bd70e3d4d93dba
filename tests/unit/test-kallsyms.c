// SPDX-License-Identifier: MIT
/* The kernel's symbols (lib/sample/kallsyms.c): a copy of kallsyms made by
 * hand parses to the text symbols, sorted and bounded, each of a module
 * with its module's name; the cache of them reads back the same table,
 * and a cache file cut short anywhere, with any byte changed, or of
 * another kernel, is refused; the running kernel's
 * symbols come from the cache on the second load, the same as read. */
#include "sample/sample.h"
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/hwprof-kallsyms-XXXXXX";

static const char copy[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t helper\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000040 T start_kernel\n"
	"ffffffff82000000 D some_data\n"
	"ffffffffc0001000 t mod_fn\t[mymod]\n"
	"ffffffffc0001080 t mod_fn2\t[mymod]\n"
	"ffffffff81000200 W weak_one\n"
	"not a line\n"
	"ffffffff81000300 T";	/* cut short: no name */

static char *write_copy(const char *name, const char *text, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

static const char *name_of(const struct ksyms *k, size_t i)
{
	return k->names + k->syms[i].name;
}

static const char *module_of(const struct ksyms *k, size_t i)
{
	const char *m = ksym_module(k, &k->syms[i]);

	return m ? m : "-";
}

static void check_parse(void)
{
	struct ksyms k;
	static const struct {
		uint64_t addr, end;
		const char *name;
		uint32_t module;
	} want[] = {
		{ 0xffffffff81000000, 0xffffffff81000040, "_text", 0 },
		{ 0xffffffff81000040, 0xffffffff81000100, "start_kernel", 0 },
		{ 0xffffffff81000100, 0xffffffff81000200, "helper", 0 },
		/* the last of the kernel before the modules: a page on */
		{ 0xffffffff81000200, 0xffffffff81002000, "weak_one", 0 },
		{ 0xffffffffc0001000, 0xffffffffc0001080, "mod_fn", 1 },
		{ 0xffffffffc0001080, 0xffffffffc0003000, "mod_fn2", 1 },
	};

	ksyms_load(&k, write_copy("copy", copy, sizeof(copy) - 1), true);
	CHECK(!k.problem && !k.cached, "a copy is read, never cached: %s",
	      k.problem ? k.problem : "cached");
	CHECK(k.nr == ARRAY_SIZE(want), "%zu text symbols", k.nr);
	for (size_t i = 0; i < k.nr && i < ARRAY_SIZE(want); i++)
		CHECK(k.syms[i].addr == want[i].addr && k.syms[i].end == want[i].end &&
		      k.syms[i].module == want[i].module &&
		      !strcmp(name_of(&k, i), want[i].name) &&
		      !strcmp(module_of(&k, i), want[i].module ? "[mymod]" : "-"),
		      "%zu: %s %#lx-%#lx %u, want %s %#lx-%#lx", i, name_of(&k, i),
		      (unsigned long)k.syms[i].addr, (unsigned long)k.syms[i].end,
		      k.syms[i].module, want[i].name, (unsigned long)want[i].addr,
		      (unsigned long)want[i].end);
	ksyms_release(&k);

	ksyms_load(&k, write_copy("hidden", "0000000000000000 T _text\n", 25), false);
	CHECK(k.nr == 0 && k.problem && strstr(k.problem, "kptr_restrict"),
	      "hidden addresses: %s", k.problem ? k.problem : "no problem");
	ksyms_release(&k);
	ksyms_load(&k, "", false);
	CHECK(k.nr == 0 && k.problem && strstr(k.problem, "were asked for"),
	      "none asked for: %s", k.problem ? k.problem : "no problem");
	ksyms_release(&k);
}

static bool same_table(const struct ksyms *a, const struct ksyms *b)
{
	if (a->nr != b->nr)
		return false;
	for (size_t i = 0; i < a->nr; i++)
		if (a->syms[i].addr != b->syms[i].addr ||
		    a->syms[i].end != b->syms[i].end ||
		    a->syms[i].module != b->syms[i].module ||
		    strcmp(name_of(a, i), name_of(b, i)) ||
		    strcmp(module_of(a, i), module_of(b, i)))
			return false;
	return true;
}

/* A cache file's bytes, 8-aligned as a mapping is. */
static uint64_t image_buf[4096];

static void check_cache_file(void)
{
	static const char key[] = "build-id 0123abcd boot x _text ffffffff81000000";
	struct ksyms k;
	size_t size, refused = 0, changes = 0;
	unsigned char *image;
	char path[300];
	struct stat st;
	FILE *f;

	ksyms_load(&k, write_copy("copy", copy, sizeof(copy) - 1), false);
	snprintf(path, sizeof(path), "%s/cache/hwprof/kallsyms-0123abcd", dir);
	CHECK_ERR(ksyms_cache_write(&k, path, key), 0);
	CHECK(!stat(path, &st) && st.st_size == 256 + 6 * 24 + 50 + 2 * 8,
	      "the file: %ld bytes", (long)st.st_size);
	f = fopen(path, "r");
	size = fread(image_buf, 1, sizeof(image_buf), f);
	fclose(f);
	image = (unsigned char *)image_buf;
	CHECK_ERR(ksyms_cache_check(image, size, key), 0);
	CHECK_ERR(ksyms_cache_check(image, size, NULL), 0);
	CHECK_ERR(ksyms_cache_check(image, size, "build-id 0123abcd boot y"), -ESTALE);
	for (size_t len = 0; len < size; len++)
		refused += ksyms_cache_check(image, len, key) != 0;
	CHECK(refused == size, "%zu of %zu truncations refused", refused, size);
	refused = 0;
	for (size_t at = 0; at < size; at++)
		for (unsigned bit = 0; bit < 8; bit++) {
			image[at] ^= (unsigned char)(1u << bit);
			refused += ksyms_cache_check(image, size, key) != 0;
			changes++;
			image[at] ^= (unsigned char)(1u << bit);
		}
	CHECK(refused == changes, "%zu of %zu one-bit changes refused", refused, changes);
	ksyms_release(&k);
}

/* The cache is written only in folders of this user, through no link: a
 * root report with a HOME or XDG_CACHE_HOME someone else controls (sudo -E)
 * must not create files where their links point. */
static void check_cache_links(void)
{
	static const char key[] = "build-id 0123abcd boot x _text ffffffff81000000";
	char victim[300], base[300], other[300], link[320], path[360];
	size_t files = 0;
	struct dirent *e;
	struct ksyms k;
	DIR *d;

	ksyms_load(&k, write_copy("copy", copy, sizeof(copy) - 1), false);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(base, sizeof(base), "%s/links", dir);
	snprintf(link, sizeof(link), "%s/hwprof", base);
	CHECK(!mkdir(victim, 0700) && !mkdir(base, 0700) && !symlink(victim, link),
	      "a cache folder that is a link: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/kallsyms-0123abcd", link);
	CHECK(ksyms_cache_write(&k, path, key) < 0, "written through the link %s", link);
	/* a folder above of another user (the test runs as root: nobody's) */
	snprintf(other, sizeof(other), "%s/others", dir);
	CHECK(!mkdir(other, 0755), "mkdir %s: %s", other, strerror(errno));
	if (geteuid() == 0 && !chown(other, 65534, 65534)) {
		snprintf(path, sizeof(path), "%s/hwprof/kallsyms-0123abcd", other);
		CHECK(ksyms_cache_write(&k, path, key) == -EPERM,
		      "written under another user's folder %s", other);
	}
	d = opendir(victim);
	while (d && (e = readdir(d)))
		files += e->d_name[0] != '.';
	if (d)
		closedir(d);
	CHECK(files == 0, "%zu files made where the link points", files);
	ksyms_release(&k);
}

/* The running kernel's symbols: read and cached, then from the cache, the
 * same; a file damaged in between is read past and rewritten. */
static void check_running_kernel(void)
{
	struct ksyms cold, hit, again;
	char key[256], path[300];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/xdg", dir);
	setenv("XDG_CACHE_HOME", path, 1);
	if (ksyms_cache_key(key, sizeof(key))) {
		t_case_skip("the running kernel's identity is not known here (no build-id, hidden addresses, or no right to list BPF programs)");
		return;
	}
	CHECK_ERR(ksyms_cache_path(path, sizeof(path), key), 0);
	CHECK(!strncmp(path, dir, strlen(dir)) && strstr(path, "/xdg/hwprof/kallsyms-"),
	      "under XDG_CACHE_HOME: %s", path);
	ksyms_load(&cold, "/proc/kallsyms", true);
	CHECK(!cold.cached && cold.nr > 1000, "read: %zu symbols, %s", cold.nr,
	      cold.cached ? "cached" : "not cached");
	CHECK(!stat(path, &st), "written to %s", path);
	ksyms_load(&hit, "/proc/kallsyms", true);
	CHECK(hit.cached && same_table(&cold, &hit),
	      "from the cache (%s), the same table", hit.cached ? "yes" : "no");
	ksyms_release(&hit);

	fd = open(path, O_WRONLY);
	CHECK(fd >= 0 && pwrite(fd, "X", 1, 300) == 1, "damaged");
	close(fd);
	ksyms_load(&again, "/proc/kallsyms", true);
	CHECK(!again.cached && same_table(&cold, &again),
	      "damaged: read again, the same");
	ksyms_release(&again);
	ksyms_load(&again, "/proc/kallsyms", true);
	CHECK(again.cached && same_table(&cold, &again),
	      "rewritten: from the cache again");
	ksyms_release(&again);
	ksyms_load(&again, "/proc/kallsyms", false);
	CHECK(!again.cached && same_table(&cold, &again), "not asked to use it: read");
	ksyms_release(&again);
	ksyms_release(&cold);
	unsetenv("XDG_CACHE_HOME");
}

static void check_modules(void)
{
	static const char *const files[] = {
		"e1000e 290816 0 - Live 0xffffffffc0100000\nip_tables 32768 2 x, Live 0xffffffffc0200000 (E)\n",
		/* references and users change: the same */
		"e1000e 290816 3 a,b, Live 0xffffffffc0100000\nip_tables 32768 0 - Live 0xffffffffc0200000 (E)\n",
		/* loaded elsewhere */
		"e1000e 290816 0 - Live 0xffffffffc0300000\nip_tables 32768 2 x, Live 0xffffffffc0200000 (E)\n",
		/* one more */
		"e1000e 290816 0 - Live 0xffffffffc0100000\nip_tables 32768 2 x, Live 0xffffffffc0200000 (E)\nnf 1 0 - Loading 0xffffffffc0400000\n",
		"not /proc/modules\n",
	};
	uint64_t h[ARRAY_SIZE(files)];
	char path[300];

	snprintf(path, sizeof(path), "%s/nothing", dir);
	CHECK(ksyms_modules_hash(path) == 0, "no file: 0");
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		h[i] = ksyms_modules_hash(write_copy("modules", files[i],
						     strlen(files[i])));
	CHECK(h[0] > 1 && h[0] == h[1], "references do not count: %#lx %#lx",
	      (unsigned long)h[0], (unsigned long)h[1]);
	CHECK(h[2] > 1 && h[2] != h[0], "another address: another key");
	CHECK(h[3] > 1 && h[3] != h[0], "another module: another key");
	CHECK(h[4] == 1, "not /proc/modules: no key");

	/* a module that many use: a line of any length */
	{
		static char users[4096], text[4300];
		uint64_t long_line;

		for (size_t i = 0; i + 8 < sizeof(users); i += 7)
			memcpy(users + i, "user_x,", 7);
		snprintf(text, sizeof(text),
			 "e1000e 290816 3 %s Live 0xffffffffc0100000\n"
			 "ip_tables 32768 0 - Live 0xffffffffc0200000 (E)\n", users);
		long_line = ksyms_modules_hash(write_copy("modules", text, strlen(text)));
		CHECK(long_line == h[0], "a long line: %#lx, want %#lx",
		      (unsigned long)long_line, (unsigned long)h[0]);
	}
}

/* The kernel's reference symbol, as perf's: _text, else _stext (arm64's
 * kallsyms has no _text: Debian's 6.1 begins with a handler at _stext);
 * a hidden address is EACCES, a file with neither ENOENT. */
static void check_ref(void)
{
	static const struct {
		const char *text, *name;
		uint64_t addr;
		int err;
	} files[] = {
		{ "ffffb8a796410000 t bcm2835_handle_irq\n"
		  "ffffb8a796410000 T _stext\n"
		  "ffffb8a796410000 T __irqentry_text_start\n", "_stext",
		  0xffffb8a796410000, 0 },
		{ "ffffffff81000000 T srso_alias_untrain_ret\n"
		  "ffffffff81000000 T _stext\n"
		  "ffffffff81000000 T _text\n", "_text", 0xffffffff81000000, 0 },
		{ "ffffffff81000000 T _text\n"
		  "ffffffff81001000 T _stext\n", "_text", 0xffffffff81000000, 0 },
		{ "0000000000000000 T _stext\n", NULL, 0, -EACCES },
		{ "0000000000000000 T _text\n", NULL, 0, -EACCES },
		{ "ffffffff81000000 T startup_64\n_text\n", NULL, 0, -ENOENT },
		{ "", NULL, 0, -ENOENT },
	};
	uint64_t addr;
	const char *name;
	char path[300];
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		const char *text = files[i].text;

		err = kallsyms_ref(write_copy("ref", text, strlen(text)), &addr, &name);
		CHECK(err == files[i].err && addr == files[i].addr &&
		      (!files[i].name ? !name : name && !strcmp(name, files[i].name)),
		      "file %zu: %d, %s at %#lx", i, err, name ? name : "none",
		      (unsigned long)addr);
	}
	snprintf(path, sizeof(path), "%s/nothing", dir);
	CHECK(kallsyms_ref(path, &addr, &name) == -ENOENT && !name, "no file");

	err = kallsyms_ref(NULL, &addr, &name);
	if (err == -EACCES) {
		t_case_skip("kernel addresses are hidden here (kernel.kptr_restrict)");
		return;
	}
	CHECK(!err && addr && name, "the running kernel's %s at %#lx: %d",
	      name ? name : "none", (unsigned long)addr, err);
}

int main(void)
{
	char cmd[128];

	t_init();
	if (!mkdtemp(dir))
		t_skip("no temporary directory");
	t_run(check_parse);
	t_run(check_cache_file);
	t_run(check_cache_links);
	t_run(check_running_kernel);
	t_run(check_modules);
	t_run(check_ref);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		t_note("could not remove %s", dir);
	return t_done();
}
