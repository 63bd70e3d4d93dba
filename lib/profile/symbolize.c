// SPDX-License-Identifier: MIT
/* From a module and an address in it to a symbol, a source line and the
 * function inlined there: ELF modules through dwarf.c (libdw), the kernel
 * through /proc/kallsyms, the vDSO through a copy of our own. A module is
 * opened on its first address and stays open; the caller caches results
 * per address, so each distinct address is resolved once. */
#include "profile/dwarf.h"
#include "profile/symbolize.h"
#include "util/demangle.h"
#include "util/strbuf.h"

#include <elf.h>
#include <pthread.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

struct symbolizer {
	struct machine *m;
	struct strtab strs;
	struct ksyms k;
	bool ksyms_loaded;
	pthread_t loader;	/* reading kallsyms while the samples are read */
	bool loading, prefetched;
	const char *kproblem;
	char *kallsyms;		/* the file of the kernel's symbols; "" for none */
	bool user_kallsyms;	/* @kallsyms is the caller's choice */
	bool no_cache;		/* read /proc/kallsyms, not the cache of it */
	bool no_debug_cache;	/* read debug files, not the copies of them */
	char kproblem_buf[512];
	/* why the recording's kernel is not named, decided before loading */
	char kverdict[640];
	/* The recording's kernel address of a symbol is its address in
	 * @kallsyms less kdelta (KASLR: another boot, another offset), once
	 * relocate_kernel() has placed the two by the reference symbol. */
	uint64_t kdelta;
	bool krelocated;
	/* The kernel's code: from @vmlinux (NULL: /proc/kcore), at its
	 * address of the recording's less kcode_delta; or why not. */
	char *vmlinux;
	struct kcode *kcode;
	bool kcode_tried;
	uint64_t kcode_delta;
	const char *kcode_problem;
	char kcode_buf[512];
	/* Symbol names demangled (the default), each mangled name once:
	 * interned mangled name -> its interned demangled name */
	bool raw_names;
	struct demangled {
		const char *mangled, *name;
	} *demangled;
	size_t nr_demangled, cap_demangled;
	struct hidx demangled_idx;
	struct strbuf dm;
};

int symbolizer_new(struct machine *m, const char *kallsyms, struct symbolizer **out)
{
	struct symbolizer *s = calloc(1, sizeof(*s));

	*out = s;
	if (!s)
		return fail(-ENOMEM, "out of memory");
	s->m = m;
	s->user_kallsyms = kallsyms != NULL;
	s->kallsyms = strdup(kallsyms ? kallsyms : "/proc/kallsyms");
	if (!s->kallsyms) {
		free(s);
		*out = NULL;
		return fail(-ENOMEM, "out of memory");
	}
	return 0;
}

void symbolizer_free(struct symbolizer *s)
{
	if (!s)
		return;
	if (s->loading)
		pthread_join(s->loader, NULL);
	for (size_t i = 0; i < machine_nr_dsos(s->m); i++) {
		struct dso *d = machine_dso(s->m, (uint32_t)i);

		if (d->kind == DSO_JIT)
			jit_map_close(d->sym);
		else
			dw_module_close(d->sym);
		d->sym = NULL;
		d->tried = false;
	}
	ksyms_release(&s->k);
	kcode_close(s->kcode);
	free(s->vmlinux);
	free(s->demangled);
	hidx_release(&s->demangled_idx);
	strbuf_release(&s->dm);
	strtab_release(&s->strs);
	free(s->kallsyms);
	free(s);
}

const char *symbolize_intern(struct symbolizer *s, const char *str)
{
	return str ? strtab_intern(&s->strs, str, strlen(str)) : NULL;
}

void symbolizer_set_demangle(struct symbolizer *s, bool demangle)
{
	s->raw_names = !demangle;
}

void symbolizer_set_kallsyms_cache(struct symbolizer *s, bool use)
{
	s->no_cache = !use;
}

void symbolizer_set_debug_cache(struct symbolizer *s, bool use)
{
	s->no_debug_cache = !use;
}

static bool demangled_eq(size_t idx, const void *key, const void *ctx)
{
	return ((const struct symbolizer *)ctx)->demangled[idx].mangled == key;
}

/* @name as the report shows it: demangled, unless asked not to; interned.
 * Each distinct mangled name is demangled once. */
static const char *symbol_name(struct symbolizer *s, const char *name)
{
	const char *mangled = symbolize_intern(s, name), *out;
	uint64_t h;
	long i;

	if (s->raw_names || !mangled || !demangle_candidate(mangled))
		return mangled;
	h = hash_u64((uint64_t)(uintptr_t)mangled);
	i = hidx_find(&s->demangled_idx, h, demangled_eq, mangled, s);
	if (i >= 0)
		return s->demangled[i].name;
	strbuf_reset(&s->dm);
	out = demangle(mangled, &s->dm) ? symbolize_intern(s, strbuf_str(&s->dm)) :
	      mangled;
	if (!out || vec_reserve(&s->demangled, &s->cap_demangled, s->nr_demangled + 1,
				sizeof(*s->demangled)) ||
	    hidx_add(&s->demangled_idx, h, s->nr_demangled))
		return out ? out : mangled;	/* out of memory: not cached */
	s->demangled[s->nr_demangled++] = (struct demangled){ mangled, out };
	return out;
}

/* ---- the kernel, through kallsyms ---- */

static int load_kallsyms(struct symbolizer *s)
{
	s->ksyms_loaded = true;
	if (s->kverdict[0]) {
		s->kproblem = s->kverdict;
		return 0;
	}
	ksyms_load(&s->k, s->kallsyms, !s->no_cache);
	s->kproblem = s->k.problem;
	return 0;
}

static void *kallsyms_loader(void *arg)
{
	load_kallsyms(arg);
	return NULL;
}

void symbolizer_prefetch_kernel(struct symbolizer *s)
{
	/* Once only: ksyms_loaded is the loader's to set, so ask "tried". */
	if (s->prefetched)
		return;
	s->prefetched = true;
	if (!s->ksyms_loaded && !s->loading)
		s->loading = !pthread_create(&s->loader, NULL, kallsyms_loader, s);
}

/* Place the symbols read at the recording's kernel, as perf does
 * (kallsyms__delta): the kernel map of the file names a symbol and its
 * address then; the same symbol's address here gives the offset between
 * the two boots. Without a reference (an old file, addresses that were
 * hidden), the addresses are taken as they are. */
static void relocate_kernel(struct symbolizer *s)
{
	const char *ref;
	uint64_t addr;

	s->krelocated = true;
	if (!s->k.nr || !machine_kernel_ref(s->m, &ref, &addr))
		return;
	for (size_t i = 0; i < s->k.nr; i++) {
		const struct ksym *k = &s->k.syms[i];

		if (!k->module && !strcmp(s->k.names + k->name, ref)) {
			s->kdelta = k->addr - addr;
			return;
		}
	}
	s->k.nr = 0;
	snprintf(s->kproblem_buf, sizeof(s->kproblem_buf),
		 "'%s' has no symbol %s, by which the recording places its kernel: not that kernel's symbols",
		 s->kallsyms, ref);
	s->kproblem = s->kproblem_buf;
}

/* The kernel's symbols, once: from the loader if one runs, else read now. */
static void kernel_symbols(struct symbolizer *s)
{
	if (s->loading) {
		pthread_join(s->loader, NULL);
		s->loading = false;
	}
	if (!s->ksyms_loaded)
		load_kallsyms(s);
	if (!s->krelocated)
		relocate_kernel(s);
}

/* A module's symbols cannot be placed once the kernel moved (another boot:
 * its modules were loaded elsewhere too, each by itself). */
static bool module_moved(const struct symbolizer *s, const struct dso *d)
{
	return s->kdelta && strcmp(d->path, PD_KERNEL_NAME);
}

static const struct ksym *ksym_find(const struct symbolizer *s, uint64_t addr)
{
	size_t lo = 0, hi = s->k.nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->k.syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &s->k.syms[lo - 1] : NULL;
}

/* Whether kernel symbol @k may name an address of @d, as perf splits
 * kallsyms by module: a module's address only by a symbol of that module
 * (not one loaded there since, or none); the kernel's by its own, never by
 * a module's that the recording did not map there, unless no module is
 * mapped at all (a recording that maps none, not placed by this machine's
 * list: named as before modules were mapped, as the kernel's). Either by
 * BPF programs' and the kernel's trampolines ("[bpf]",
 * "[__builtin__ftrace]": not modules), which the module area holds, within
 * a module's range too (its /proc/modules size, which takes in its freed
 * init memory). */
static bool symbol_of(const struct symbolizer *s, const struct dso *d,
		      const struct ksym *k)
{
	const char *mod = ksym_module(&s->k, k);

	if (mod && (!strcmp(mod, "[bpf]") || !strncmp(mod, "[__builtin__", 12)))
		return true;
	if (strcmp(d->path, PD_KERNEL_NAME))
		return mod && !strcmp(mod, d->path);
	return !mod || !machine_maps_modules(s->m);
}

static void symbolize_kernel(struct symbolizer *s, const struct dso *d, uint64_t addr,
			     struct symbol_info *out)
{
	const struct ksym *k;
	uint64_t at;

	kernel_symbols(s);
	at = addr + s->kdelta;
	if (module_moved(s, d))
		return;
	k = ksym_find(s, at);
	if (!k || at >= k->end || (k->module && s->kdelta) || !symbol_of(s, d, k))
		return;
	out->symbol = symbolize_intern(s, s->k.names + k->name);
	out->sym_start = k->addr - s->kdelta;
	out->sym_size = k->end - k->addr;
}

/* Whose kernel symbols name the recording's, as perf decides
 * (dso__find_kallsyms): a file given for the purpose is the caller's
 * choice; else this machine's, when the recording names the kernel's
 * build-id and it is this kernel's, or names none and no other release;
 * else the copy perf's build-id cache keeps of that kernel's; else none,
 * and the report says why. */
int symbolizer_choose_kernel(struct symbolizer *s, const struct pd_build_id *recorded,
			     const char *osrelease)
{
	char hex[2 * PD_BUILD_ID_MAX + 1], now_hex[2 * PD_BUILD_ID_MAX + 1];
	char path[PATH_MAX];
	const char *home = getenv("HOME");
	struct pd_build_id now;
	struct utsname u;
	int err;

	if (s->user_kallsyms)
		return 0;
	if (!recorded || !recorded->size) {
		if (osrelease && !uname(&u) && strcmp(osrelease, u.release))
			snprintf(s->kverdict, sizeof(s->kverdict),
				 "the recording's kernel, %s, is not this one (%s), and the file names no build-id to find its symbols by: give a copy of the recording machine's /proc/kallsyms (report --kallsyms FILE)",
				 osrelease, u.release);
		return 0;
	}
	err = pd_build_id_of_notes(PD_KERNEL_NOTES, &now);
	if (!err && pd_build_id_eq(recorded, &now))
		return 0;
	pd_build_id_hex(recorded, hex, sizeof(hex));
	snprintf(path, sizeof(path), "%s/.debug/" PD_KERNEL_NAME "/%s/kallsyms",
		 home ? home : "", hex);
	if (home && *home && !access(path, R_OK)) {
		char *copy = strdup(path);

		if (!copy)
			return fail(-ENOMEM, "out of memory");
		free(s->kallsyms);
		s->kallsyms = copy;
		return 0;
	}
	if (err)
		snprintf(now_hex, sizeof(now_hex), "unknown: %s",
			 file_open_problem(err));
	else
		pd_build_id_hex(&now, now_hex, sizeof(now_hex));
	snprintf(s->kverdict, sizeof(s->kverdict),
		 "the recording's kernel (build-id %s) is not this one (%s), and perf's build-id cache has no copy of its symbols (~/.debug/" PD_KERNEL_NAME "/%s/kallsyms): give a copy of the recording machine's /proc/kallsyms (report --kallsyms FILE)",
		 hex, now_hex, hex);
	return 0;
}

const char *symbolizer_kernel_refused(const struct symbolizer *s)
{
	return s->kverdict[0] ? s->kverdict : NULL;
}

int symbolizer_set_vmlinux(struct symbolizer *s, const char *path)
{
	free(s->vmlinux);
	s->vmlinux = path ? strdup(path) : NULL;
	return path && !s->vmlinux ? fail(-ENOMEM, "out of memory") : 0;
}

static const char *open_problem(int err);

static struct kcode *code_problem(struct symbolizer *s, const char *fmt, const char *a,
				  const char *b)
{
	snprintf(s->kcode_buf, sizeof(s->kcode_buf), fmt, a, b);
	s->kcode_problem = s->kcode_buf;
	kcode_close(s->kcode);
	s->kcode = NULL;
	return NULL;
}

/* The kernel's code, once: a vmlinux given, placed at the recording's
 * kernel by the reference symbol as the symbols are; else this kernel's
 * memory (/proc/kcore), when the recording's kernel is this one. */
static struct kcode *kernel_code(struct symbolizer *s)
{
	const char *ref;
	uint64_t then, here;
	int err;

	if (s->kcode_tried)
		return s->kcode;
	s->kcode_tried = true;
	kernel_symbols(s);
	if (s->vmlinux) {
		err = kcode_open(s->vmlinux, &s->kcode);
		if (err)
			return code_problem(s, "'%s': %s", s->vmlinux, open_problem(err));
		if (machine_kernel_ref(s->m, &ref, &then)) {
			if (kcode_symbol(s->kcode, ref, &here))
				return code_problem(s, "'%s' has no symbol %s, by which the recording places its kernel: not that kernel's image",
						    s->vmlinux, ref);
			s->kcode_delta = here - then;
		}
		return s->kcode;
	}
	if (s->kverdict[0] || s->user_kallsyms || strcmp(s->kallsyms, "/proc/kallsyms"))
		return code_problem(s, "the recording's kernel is not known to be this one%s%s: give its uncompressed image (report --vmlinux FILE)",
				    "", "");
	err = kcode_open("/proc/kcore", &s->kcode);
	if (err == -ENOENT)
		return code_problem(s, "this kernel has no /proc/kcore (CONFIG_PROC_KCORE)%s%s: give its uncompressed image (report --vmlinux FILE)",
				    "", "");
	if (err)
		return code_problem(s, "/proc/kcore: %s%s (run as root, or give the kernel's uncompressed image: report --vmlinux FILE)",
				    open_problem(err), "");
	s->kcode_delta = s->kdelta;
	return s->kcode;
}

const char *symbolize_code_problem(struct symbolizer *s, uint32_t dso)
{
	struct dso *d = machine_dso(s->m, dso);

	if (!d || d->kind != DSO_KERNEL)
		return NULL;
	if (!kernel_code(s))
		return s->kcode_problem;
	return module_moved(s, d) ?
		"the module was loaded elsewhere (another boot)" : NULL;
}

/* ---- ELF modules ---- */

/* Our own vDSO, in a memory file: the kernel gives every process the same. */
static int vdso_fd(void)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)getauxval(AT_SYSINFO_EHDR);
	size_t size;
	int fd;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return -ENOENT;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	for (int i = 0; i < eh->e_phnum; i++) {
		const ElfW(Phdr) *ph =
			(const ElfW(Phdr) *)((const char *)eh + eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD && ph->p_offset + ph->p_filesz > size)
			size = ph->p_offset + ph->p_filesz;
	}
	fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, eh, size) != (ssize_t)size) {
		close(fd);
		return -EIO;
	}
	return fd;
}

static const char *open_problem(int err)
{
	switch (-err) {
	case HWP_ERR_FORMAT: return "the file is not an ELF file";
	case EOPNOTSUPP: return "hwprof was built without libdw (elfutils)";
	case ELIBACC: return "libdw (elfutils) cannot be loaded";
	default: return file_open_problem(err);
	}
}

/* Where the recorded build of @d is, when the file at its path is
 * another (another build-id, or none): perf's build-id cache (~/.debug),
 * the debug files of /usr/lib/debug/.build-id (symbols, without code),
 * then the servers of DEBUGINFOD_URLS (the module; libdwfl then finds its
 * debug file, from them too: dwarf.c). 1: the path is the build (or no
 * build-id says otherwise); 0: @buf names a copy, with *@fd
 * open on it where debuginfod sent it (else -1); a negative error when no
 * copy is found, with in @why what debuginfod said. */
static int recorded_build(struct dso *d, char *buf, size_t size, int *fd, char *why,
			  size_t whylen)
{
	const char *home = getenv("HOME");
	struct pd_build_id now, found;
	char hex[2 * PD_BUILD_ID_MAX + 1];
	int err;

	*fd = -1;
	if (!d->build_id.size)
		return 1;	/* none recorded: file_other_build() tells */
	err = pd_build_id_of(d->path, &now);
	if (err != -ENODATA && (err || pd_build_id_eq(&now, &d->build_id)))
		return 1;	/* the build, or no ELF file to tell: its open says why */
	pd_build_id_hex(&d->build_id, hex, sizeof(hex));
	if (home && *home) {
		snprintf(buf, size, "%s/.debug/.build-id/%.2s/%s/elf", home, hex,
			 hex + 2);
		if (!pd_build_id_of(buf, &found) && pd_build_id_eq(&found, &d->build_id))
			return 0;
	}
	snprintf(buf, size, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	if (!access(buf, R_OK))
		return 0;
	/* The module, not its debug file alone: a debug file's segments no
	 * longer say where in the file the code was (their offsets are 0),
	 * and the samples' addresses are file offsets. */
	*fd = debuginfod_fetch(&d->build_id, false, buf, size, why, whylen);
	d->from_debuginfod = *fd >= 0;
	return *fd >= 0 ? 0 : *fd;
}

#define OTHER_BUILD \
	"the file is another build than the one recorded (its build-id differs: rebuilt or replaced since), and the recorded build is in neither ~/.debug nor /usr/lib/debug/.build-id"

/* Why no copy of @d's recorded build was found: @err and @why as
 * recorded_build() left them. */
static const char *no_recorded_build(struct symbolizer *s, int err, const char *why)
{
	char buf[1024];

	if (err == -ENOSYS)
		return OTHER_BUILD " (debuginfod's servers are asked where DEBUGINFOD_URLS names them)";
	snprintf(buf, sizeof(buf), "%s, nor given by debuginfod: %s", OTHER_BUILD, why);
	return symbolize_intern(s, buf);
}

static struct dw_module *module_of(struct symbolizer *s, struct dso *d)
{
	struct dw_module *mod = NULL;
	char other[PATH_MAX], why[768];
	const char *path = d->path;
	int err, fd = -1;

	if (d->kind != DSO_FILE && d->kind != DSO_VDSO)
		return NULL;
	if (d->tried)
		return d->sym;
	d->tried = true;
	if (d->kind == DSO_FILE) {
		err = recorded_build(d, other, sizeof(other), &fd, why, sizeof(why));
		if (err < 0) {
			d->sym_problem = d->dbg_problem = no_recorded_build(s, err, why);
			return NULL;
		}
		if (!err) {
			path = other;
			d->build_copy = symbolize_intern(s, other);
		}
		if (err > 0 && !d->build_id.size &&
		    file_other_build(d, other, sizeof(other))) {
			d->sym_problem = d->dbg_problem = symbolize_intern(s, other);
			return NULL;
		}
	}
	if (d->kind == DSO_VDSO) {
		fd = vdso_fd();
		if (fd < 0) {
			d->sym_problem = d->dbg_problem = "the vDSO cannot be read";
			return NULL;
		}
	}
	err = dw_module_open(path, fd, !s->no_debug_cache, &mod);
	if (err) {
		d->sym_problem = d->dbg_problem = open_problem(err);
		return NULL;
	}
	d->sym = mod;
	d->has_symbols = dw_module_has_symbols(mod);
	if (!d->has_symbols)
		d->sym_problem = "no symbol table, and no debug file found for it";
	return mod;
}

/* A process's JIT map, read on first use. */
static struct jit_map *jit_map_of(struct dso *d)
{
	struct jit_map *j = NULL;

	if (d->tried)
		return d->sym;
	d->tried = true;
	jit_map_open(d->path, &j, &d->sym_problem);
	d->sym = j;
	d->has_symbols = j && !d->sym_problem;
	d->dbg_problem = d->sym_problem ? d->sym_problem :
			 "a JIT's map names functions, not source lines";
	return j;
}

static void symbolize_jit(struct symbolizer *s, struct dso *d, uint64_t addr,
			  struct symbol_info *out)
{
	struct jit_map *j = jit_map_of(d);
	const char *name;

	if (j && !jit_map_symbol(j, addr, &name, &out->sym_start, &out->sym_size))
		out->symbol = symbol_name(s, name);
}

/* Whether kallsyms has a symbol of module @name ("[e1000e]"); the kernel
 * has its own. Once a module, for the report's account of them. */
static bool kallsyms_has_module(const struct symbolizer *s, const char *name)
{
	if (!strcmp(name, PD_KERNEL_NAME))
		return true;
	for (size_t i = 0; i < s->k.nr; i++)
		if (s->k.syms[i].module &&
		    !strcmp(ksym_module(&s->k, &s->k.syms[i]), name))
			return true;
	return false;
}

void symbolize_check(struct symbolizer *s, uint32_t dso, bool lines)
{
	struct dso *d = machine_dso(s->m, dso);
	struct dw_module *mod;

	if (!d)
		return;
	switch (d->kind) {
	case DSO_KERNEL:
		kernel_symbols(s);
		d->has_symbols = s->k.nr > 0 && !module_moved(s, d);
		d->sym_problem = module_moved(s, d) && s->k.nr ?
			"the recording's kernel was loaded elsewhere (another boot), and so was this module: where is not known" :
			s->kproblem;
		if (d->has_symbols && !kallsyms_has_module(s, d->path)) {
			d->has_symbols = false;
			d->sym_problem = "the kernel's symbols have none of this module's (unloaded since the recording?)";
		}
		d->dbg_problem = "hwprof does not read the kernel's source lines";
		break;
	case DSO_FILE:
	case DSO_VDSO:
		mod = module_of(s, d);
		if (mod && lines)
			d->has_debuginfo = dw_module_has_debuginfo(mod);
		if (mod && lines && !d->has_debuginfo)
			d->dbg_problem = d->kind == DSO_VDSO ?
				"the kernel's vDSO carries no debug information (the kernel's build keeps it: vdso64.so.dbg), and no package installs it for hwprof's copy" :
				"no debug information: install its -dbg or -dbgsym package, or build it with -g";
		break;
	case DSO_JIT:
		jit_map_of(d);
		break;
	case DSO_ANON:
		d->sym_problem = d->dbg_problem =
			"anonymous memory (code generated at run time?)";
		break;
	case DSO_UNKNOWN:
		d->sym_problem = d->dbg_problem =
			"no mapping was recorded for these addresses";
		break;
	}
}

int symbolize_vaddr(struct symbolizer *s, uint32_t dso, uint64_t vaddr, bool lines,
		    struct symbol_info *out)
{
	struct dso *d = machine_dso(s->m, dso);
	struct dw_module *mod = d ? module_of(s, d) : NULL;
	const char *name, *file;
	unsigned int line;

	memset(out, 0, sizeof(*out));
	out->vaddr = vaddr;
	if (!d)
		return -EINVAL;
	if (d->kind == DSO_KERNEL)
		symbolize_kernel(s, d, vaddr, out);
	if (d->kind == DSO_JIT)
		symbolize_jit(s, d, vaddr, out);
	if (!mod)
		return 0;
	if (!dw_module_symbol(mod, vaddr, &name, &out->sym_start, &out->sym_size))
		out->symbol = symbol_name(s, name);
	if (lines && !dw_module_srcline(mod, vaddr, &file, &line)) {
		out->file = symbolize_intern(s, file);
		out->line = line;
	}
	return 0;
}

struct inlines {
	struct symbolizer *s;
	struct inline_frame *v;
	size_t nr, cap;
};

static int add_inline(const char *name, const char *call_file, unsigned int call_line,
		      void *ctx)
{
	struct inlines *in = ctx;
	struct inline_frame f = {
		/* as addr2line names a function DWARF does not */
		.name = name ? symbol_name(in->s, name) : symbolize_intern(in->s, "??"),
		.call_file = symbolize_intern(in->s, call_file),
		.call_line = call_line,
	};

	if (!f.name || (call_file && !f.call_file) ||
	    vec_reserve(&in->v, &in->cap, in->nr + 1, sizeof(*in->v)))
		return -ENOMEM;
	in->v[in->nr++] = f;
	return 0;
}

int symbolize_inlines(struct symbolizer *s, uint32_t dso, uint64_t vaddr,
		      struct inline_frame **out, size_t *nr)
{
	struct dso *d = machine_dso(s->m, dso);
	struct dw_module *mod = d ? module_of(s, d) : NULL;
	struct inlines in = { .s = s };
	int err = mod ? dw_module_inlines(mod, vaddr, add_inline, &in) : 0;

	if (err) {
		free(in.v);
		in.v = NULL;
		in.nr = 0;
	}
	*out = in.v;
	*nr = in.nr;
	return err;
}

int symbolize(struct symbolizer *s, const struct location *loc, bool lines,
	      struct symbol_info *out)
{
	struct dso *d = machine_dso(s->m, loc->dso);
	struct dw_module *mod = d ? module_of(s, d) : NULL;
	uint64_t vaddr = loc->addr;

	int err;

	/* A file's address is an offset in it: the segments say where it loads. */
	if (mod && !dw_module_vaddr(mod, loc->addr, &vaddr)) {
		memset(out, 0, sizeof(*out));
		out->vaddr = loc->addr;
		out->no_vaddr = d->kind == DSO_FILE;
		return 0;
	}
	err = symbolize_vaddr(s, loc->dso, vaddr, lines, out);
	out->no_vaddr = d && d->kind == DSO_FILE && !mod;
	return err;
}

ssize_t symbolize_read_code(struct symbolizer *s, uint32_t dso, uint64_t vaddr, void *buf,
			    size_t len)
{
	struct dso *d = machine_dso(s->m, dso);
	struct dw_module *mod = d ? module_of(s, d) : NULL;
	struct kcode *k;

	if (d && d->kind == DSO_KERNEL) {
		k = kernel_code(s);
		return k && !module_moved(s, d) ?
			kcode_read(k, vaddr + s->kcode_delta, buf, len) : -ENOENT;
	}
	return mod ? dw_module_read(mod, vaddr, buf, len) : -ENOENT;
}

int symbolize_elf_machine(struct symbolizer *s, uint32_t dso)
{
	struct dso *d = machine_dso(s->m, dso);
	struct dw_module *mod = d ? module_of(s, d) : NULL;

	if (d && d->kind == DSO_KERNEL)
		return kernel_code(s) ? kcode_machine(s->kcode) : 0;
	return mod ? dw_module_elf_machine(mod) : 0;
}

struct dw_module *symbolize_module(struct symbolizer *s, uint32_t dso)
{
	struct dw_module *mod;
	struct dso *d = machine_dso(s->m, dso);

	if (!d)
		return NULL;
	mod = module_of(s, d);
	/* the reasons why not, for the unwinder's account of modules */
	if (!mod && !d->sym_problem)
		symbolize_check(s, dso, false);
	return mod;
}
