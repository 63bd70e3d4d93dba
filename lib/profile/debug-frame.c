// SPDX-License-Identifier: MIT
/* .debug_frame rewritten as .eh_frame, with a sorted table of its FDEs,
 * for modules that have no .eh_frame (built -fno-asynchronous-unwind-tables
 * -g, or whose tables live in a separate debug file). libunwind reads only
 * .eh_frame remotely: the .debug_frame reader it has for local unwinding is
 * left out of x86-64 builds (Debian's among them). The rewrite is of the
 * headers alone; the CFA programs are copied as they are, being the same
 * in both sections:
 *  - a CIE's id is 0, not 0xffffffff; its version 3 (the return address
 *    column a ULEB128); DWARF 4's address and segment sizes dropped; and
 *    augmentation "zR" says how FDEs write addresses: relative to the
 *    "data" base (DW_EH_PE_datarel), which the unwinder sets to the
 *    module's load bias, so that one rewrite serves every process;
 *  - an FDE's CIE pointer is the distance back to its CIE (all CIEs are
 *    written first), and an empty augmentation follows its address range.
 * The input is a file's: every length and offset is checked. */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>

#define DW_EH_PE_UDATA4 0x03
#define DW_EH_PE_UDATA8 0x04
#define DW_EH_PE_DATAREL 0x30

struct cursor {
	const uint8_t *p, *end;
};

static bool take(struct cursor *c, void *v, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return false;
	memcpy(v, c->p, n);
	c->p += n;
	return true;
}

/* The bytes of one LEB128 number, whatever its value. */
static bool skip_leb(struct cursor *c)
{
	for (int i = 0; i < 10 && c->p < c->end; i++)
		if (!(*c->p++ & 0x80))
			return true;
	return false;
}

static bool read_uleb(struct cursor *c, uint64_t *v)
{
	*v = 0;
	for (unsigned int shift = 0; shift < 64 && c->p < c->end; shift += 7) {
		uint8_t b = *c->p++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

struct out {
	uint8_t *data;
	size_t size, cap;
	bool failed;
};

static void put(struct out *o, const void *v, size_t n)
{
	if (o->failed || vec_reserve(&o->data, &o->cap, o->size + n, 1)) {
		o->failed = true;
		return;
	}
	memcpy(o->data + o->size, v, n);
	o->size += n;
}

static void put_u8(struct out *o, uint8_t v)
{
	put(o, &v, 1);
}

static void put_u32(struct out *o, uint32_t v)
{
	put(o, &v, 4);
}

static void put_uleb(struct out *o, uint64_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		put_u8(o, b | (v ? 0x80 : 0));
	} while (v);
}

/* One entry of the section: its header's length and id, and its body. */
struct entry {
	size_t at;		/* its offset in the section */
	uint32_t id;		/* 0xffffffff: a CIE; else its CIE's offset */
	struct cursor body;	/* after the id */
};

static bool next_entry(struct cursor *c, const uint8_t *start, struct entry *e)
{
	uint32_t len;

	e->at = (size_t)(c->p - start);
	if (!take(c, &len, 4) || len == 0xffffffff)	/* 64-bit DWARF: not written */
		return false;
	if (len < 4 || (size_t)(c->end - c->p) < len)
		return false;
	memcpy(&e->id, c->p, 4);
	e->body = (struct cursor){ c->p + 4, c->p + len };
	c->p += len;
	return true;
}

/* The CIEs written so far: where each was in the section, and where it is
 * in the rewrite (0 past the end: one that could not be rewritten). */
struct cie {
	size_t from, to;
	unsigned int addr_size;
};

static int cie_cmp(const void *a, const void *b)
{
	const struct cie *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

static void patch_length(struct out *o, size_t at)
{
	uint32_t len = (uint32_t)(o->size - at - 4);

	if (!o->failed)
		memcpy(o->data + at, &len, 4);
}

static uint8_t address_encoding(unsigned int addr_size)
{
	return DW_EH_PE_DATAREL | (addr_size == 8 ? DW_EH_PE_UDATA8 : DW_EH_PE_UDATA4);
}

static bool rewrite_cie(struct out *o, const struct entry *e, unsigned int addr_size,
			struct cie *cie)
{
	struct cursor c = e->body;
	const uint8_t *align;
	size_t nalign;
	uint8_t version, asize = (uint8_t)addr_size, ssize = 0;
	uint64_t ra;
	size_t at = o->size;

	/* an augmentation string: none is known in .debug_frame */
	if (!take(&c, &version, 1) || (version != 1 && version != 3 && version != 4) ||
	    c.p >= c.end || *c.p++)
		return false;
	if (version == 4 && (!take(&c, &asize, 1) || !take(&c, &ssize, 1)))
		return false;
	if ((asize != 4 && asize != 8) || ssize)
		return false;
	align = c.p;		/* the code and data alignments, copied */
	if (!skip_leb(&c) || !skip_leb(&c))
		return false;
	nalign = (size_t)(c.p - align);
	if (version == 1) {
		uint8_t r;

		if (!take(&c, &r, 1))
			return false;
		ra = r;
	} else if (!read_uleb(&c, &ra)) {
		return false;
	}
	cie->from = e->at;
	cie->to = at;
	cie->addr_size = asize;
	put_u32(o, 0);		/* the length, patched below */
	put_u32(o, 0);		/* .eh_frame's CIE id */
	put_u8(o, 3);
	put(o, "zR", 3);
	put(o, align, nalign);
	put_uleb(o, ra);
	put_uleb(o, 1);		/* the augmentation's size: R's encoding */
	put_u8(o, address_encoding(asize));
	put(o, c.p, (size_t)(c.end - c.p));	/* the initial instructions */
	patch_length(o, at);
	return !o->failed;
}

struct fde {
	uint64_t start;		/* module address */
	uint32_t at;		/* in the rewrite */
};

static int fde_cmp(const void *a, const void *b)
{
	const struct fde *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static bool rewrite_fde(struct out *o, const struct entry *e, const struct cie *cie,
			uint64_t lo, uint64_t hi, struct fde *f)
{
	struct cursor c = e->body;
	uint64_t start = 0, range = 0;
	size_t at = o->size;

	if (!take(&c, &start, cie->addr_size) || !take(&c, &range, cie->addr_size))
		return false;
	/* functions the linker dropped keep FDEs at 0; addresses past the
	 * module's are not its */
	if (!start || start < lo || start >= hi || range > hi - start)
		return false;
	f->start = start;
	f->at = (uint32_t)at;
	put_u32(o, 0);
	put_u32(o, (uint32_t)(at + 4 - cie->to));	/* back to the CIE */
	put(o, &start, cie->addr_size);
	put(o, &range, cie->addr_size);
	put_uleb(o, 0);		/* the FDE's augmentation: none */
	put(o, c.p, (size_t)(c.end - c.p));
	patch_length(o, at);
	return !o->failed;
}

int debug_frame_rewrite(const void *section, size_t size, unsigned int addr_size,
			uint64_t lo, uint64_t hi, struct eh_rewrite *out)
{
	struct cursor c = { section, (const uint8_t *)section + size };
	struct out o = { 0 };
	struct cie *cies = NULL, key;
	struct fde *fdes = NULL;
	size_t nr_cies = 0, cap_cies = 0, nr_fdes = 0, cap_fdes = 0;
	struct entry e;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (size > UINT32_MAX / 2)
		return -EFBIG;	/* offsets of the rewrite are 32-bit */
	/* the CIEs first, so that every FDE points back to its own */
	while (c.p < c.end && next_entry(&c, section, &e)) {
		struct cie cie;

		if (e.id != 0xffffffff || !rewrite_cie(&o, &e, addr_size, &cie))
			continue;
		if (vec_reserve(&cies, &cap_cies, nr_cies + 1, sizeof(*cies)))
			goto out;
		cies[nr_cies++] = cie;
	}
	if (o.failed)
		goto out;
	err = -ENOENT;
	if (!nr_cies)
		goto out;
	err = -ENOMEM;
	c.p = section;
	while (c.p < c.end && next_entry(&c, section, &e)) {
		const struct cie *cie;

		if (e.id == 0xffffffff)
			continue;
		key.from = e.id;
		cie = bsearch(&key, cies, nr_cies, sizeof(*cies), cie_cmp);
		if (!cie)
			continue;
		if (vec_reserve(&fdes, &cap_fdes, nr_fdes + 1, sizeof(*fdes)))
			goto out;
		if (rewrite_fde(&o, &e, cie, lo, hi, &fdes[nr_fdes]))
			nr_fdes++;
		else if (o.failed)
			goto out;
	}
	err = -ENOENT;
	if (!nr_fdes)
		goto out;
	/* the table: (start - lo, FDE offset) pairs of int32, by start */
	qsort(fdes, nr_fdes, sizeof(*fdes), fde_cmp);
	err = -ENOMEM;
	while (o.size % 8)
		put_u8(&o, 0);
	out->table = o.size;
	for (size_t i = 0; i < nr_fdes; i++) {
		if (fdes[i].start - lo > INT32_MAX) {
			err = -EFBIG;
			goto out;
		}
		put_u32(&o, (uint32_t)(fdes[i].start - lo));
		put_u32(&o, fdes[i].at);
	}
	put(&o, "\0\0\0\0\0\0\0\0", 8);	/* libunwind reads whole words */
	if (o.failed)
		goto out;
	out->data = o.data;
	out->size = o.size;
	out->nr = nr_fdes;
	o.data = NULL;
	err = 0;
out:
	free(o.data);
	free(cies);
	free(fdes);
	return err;
}
