/* SPDX-License-Identifier: BSD-2-Clause */
/* ELF side of the symbolizer: sections, symbol tables, GNU build-id (libelf). */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/sym_internal.h"

struct raw_sym {
	GElf_Sym sym;
	const char *name;
	uint32_t order;
	int rank;               /* lower is preferred among aliases */
};

static int bind_rank(const GElf_Sym *sym)
{
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL:
		return 0;
	case STB_WEAK:
		return 1;
	default:
		return 2;
	}
}

static int cmp_raw_addr(const void *a, const void *b)
{
	const struct raw_sym *x = a, *y = b;
	if (x->sym.st_value != y->sym.st_value)
		return x->sym.st_value < y->sym.st_value ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_fallback(const void *a, const void *b)
{
	const struct sym_fallback *x = a, *y = b;
	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Reorder n elements of size sz (a) by keys sorted with sym_sort_keys, whose vals are the
 * elements' places: a radix sort by address in place of qsort's indirect comparisons.
 * -1 if out of memory (a unchanged). */
static int permute(void *a, size_t n, size_t sz, const struct sym_key *k)
{
	char *tmp = malloc(n * sz + 1);
	if (!tmp)
		return -1;
	for (size_t i = 0; i < n; i++)
		memcpy(tmp + i * sz, (const char *)a + (size_t)k[i].val * sz, sz);
	memcpy(a, tmp, n * sz);
	free(tmp);
	return 0;
}

/* raw by (address, rank, order); raw is in symbol-table order. */
static void sort_raw(struct raw_sym *raw, size_t n)
{
	struct sym_key *k = malloc((n ? n : 1) * sizeof(*k));
	if (!k || n > UINT32_MAX) {
		free(k);
		qsort(raw, n, sizeof(*raw), cmp_raw_addr);
		return;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct sym_key){ raw[i].sym.st_value, (uint32_t)i };
	sym_sort_keys(k, n);   /* equal addresses stay in table order */
	if (permute(raw, n, sizeof(*raw), k) < 0) {
		qsort(raw, n, sizeof(*raw), cmp_raw_addr);
	} else {
		/* aliases of one address by rank, then order: a few at most */
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0 && cmp_raw_addr(&raw[j], &raw[j - 1]) < 0; j--) {
				struct raw_sym t = raw[j];
				raw[j] = raw[j - 1];
				raw[j - 1] = t;
			}
	}
	free(k);
}

/* fb by (section, address, order); fb is in symbol-table order: by address (stable),
 * then by section (stable). */
static void sort_fallback(struct sym_fallback *fb, size_t n)
{
	struct sym_key *k = malloc((n ? n : 1) * sizeof(*k));
	if (!k || n > UINT32_MAX) {
		free(k);
		qsort(fb, n, sizeof(*fb), cmp_fallback);
		return;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct sym_key){ fb[i].addr, (uint32_t)i };
	sym_sort_keys(k, n);
	int rc = permute(fb, n, sizeof(*fb), k);
	for (size_t i = 0; i < n && !rc; i++)
		k[i] = (struct sym_key){ fb[i].shndx, (uint32_t)i };
	if (!rc) {
		sym_sort_keys(k, n);
		rc = permute(fb, n, sizeof(*fb), k);
	}
	if (rc)
		qsort(fb, n, sizeof(*fb), cmp_fallback);
	free(k);
}

static const struct sym_section *section_by_index(const struct symbolizer *s, size_t index)
{
	if (index && index <= s->nsecs && s->secs[index - 1].index == index)
		return &s->secs[index - 1];
	for (size_t i = 0; i < s->nsecs; i++)
		if (s->secs[i].index == index)
			return &s->secs[i];
	return NULL;
}

/* First allocated section in header order holding addr, as addr2line walks them. */
static const struct sym_section *section_scan(const struct symbolizer *s, uint64_t addr)
{
	for (size_t i = 0; i < s->nsecs; i++) {
		const struct sym_section *sec = &s->secs[i];
		if ((sec->flags & SHF_ALLOC) && addr >= sec->addr && addr - sec->addr < sec->size)
			return sec;
	}
	return NULL;
}

/* The allocated sections' starts and ends, each with the section found from there on. */
static int section_intervals(struct symbolizer *s)
{
	uint64_t *b = malloc((2 * s->nsecs + 1) * sizeof(*b));
	size_t nb = 0, m = 0;

	if (!b)
		return -1;
	for (size_t i = 0; i < s->nsecs; i++) {
		const struct sym_section *sec = &s->secs[i];
		if (!(sec->flags & SHF_ALLOC) || !sec->size)
			continue;
		b[nb++] = sec->addr;
		if (sec->addr + sec->size > sec->addr)
			b[nb++] = sec->addr + sec->size;
	}
	sym_sort_u64(b, nb);
	for (size_t i = 0; i < nb; i++)
		if (!m || b[m - 1] != b[i])
			b[m++] = b[i];
	s->sec_iv = malloc((m ? m : 1) * sizeof(*s->sec_iv));
	if (!s->sec_iv) {
		free(b);
		return -1;
	}
	for (size_t i = 0; i < m; i++)
		s->sec_iv[i] = section_scan(s, b[i]);
	s->sec_iv_lo = b;
	s->nsec_iv = m;
	return 0;
}

const struct sym_section *sym_section_at(const struct symbolizer *s, uint64_t addr)
{
	size_t i = sym_interval(s->sec_iv_lo, s->nsec_iv, addr);
	return i == SIZE_MAX ? NULL : s->sec_iv[i];
}

uint64_t sym_section_span_end(const struct symbolizer *s, uint64_t addr)
{
	size_t i = sym_interval(s->sec_iv_lo, s->nsec_iv, addr);

	if (i == SIZE_MAX)
		return s->nsec_iv ? s->sec_iv_lo[0] : UINT64_MAX;
	return i + 1 < s->nsec_iv ? s->sec_iv_lo[i + 1] : UINT64_MAX;
}

/* A symbol that can name code: functions, and untyped labels in executable sections. */
static bool is_code_symbol(const struct symbolizer *s, const GElf_Sym *sym, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE || !name[0])
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC)
		return true;
	if (type != STT_NOTYPE || name[0] == '$' || !strncmp(name, ".L", 2))
		return false;
	const struct sym_section *sec = section_by_index(s, sym->st_shndx);
	return sec && (sec->flags & SHF_EXECINSTR);
}

/* Arm's and RISC-V's mapping symbols ($x, $d, $x.N, $xrv64i2p1_...), which binutils'
 * target-special-symbol hooks keep addr2line from naming code by. */
static bool is_mapping_symbol(const GElf_Sym *sym, const char *name)
{
	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && name[0] == '$' && name[1] &&
	       strchr("adtx", name[1]) && (!name[2] || name[2] == '.' || !strncmp(name, "$xrv", 4));
}

/* binutils' _bfd_elf_maybe_function_sym: which symbols addr2line may name code by. BFD keeps
 * symbol values relative to their section, so one below its section start never matches. */
static bool is_fallback_symbol(const struct symbolizer *s, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_TLS ||
	    type == STT_COMMON)
		return false;
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	const struct sym_section *sec = section_by_index(s, sym->st_shndx);
	if (sec && sym->st_value < sec->addr)
		return false;
	/* annobin's hidden local zero-size markers are not functions */
	return !(sym->st_size == 0 && GELF_ST_BIND(sym->st_info) == STB_LOCAL &&
		 type == STT_NOTYPE && GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN);
}

static uint64_t section_end(const struct symbolizer *s, size_t shndx)
{
	const struct sym_section *sec = section_by_index(s, shndx);
	return sec ? sec->addr + sec->size : UINT64_MAX;
}

/* Deduplicate aliases (best rank first after sorting) and give zero sizes the distance to
 * the next symbol. */
static int build_funcs(struct symbolizer *s, struct raw_sym *raw, size_t n)
{
	sort_raw(raw, n);
	s->funcs = calloc(n ? n : 1, sizeof(*s->funcs));
	s->byname = calloc(n ? n : 1, sizeof(*s->byname));
	if (!s->funcs || !s->byname)
		return -1;
	size_t nf = 0;
	for (size_t i = 0; i < n; i++) {
		if (nf && s->funcs[nf - 1].addr == raw[i].sym.st_value) {
			if (!s->funcs[nf - 1].size)
				s->funcs[nf - 1].size = raw[i].sym.st_size;
			continue;
		}
		s->funcs[nf++] = (struct sym_func){ raw[i].sym.st_value, raw[i].sym.st_size,
						    raw[i].name };
	}
	for (size_t i = 0, j = 0; i < n; i++) {
		while (s->funcs[j].addr != raw[i].sym.st_value)
			j++;
		if (!s->funcs[j].size) {
			uint64_t end = section_end(s, raw[i].sym.st_shndx);
			if (j + 1 < nf && s->funcs[j + 1].addr < end)
				end = s->funcs[j + 1].addr;
			s->funcs[j].size = end > s->funcs[j].addr && end != UINT64_MAX ?
						   end - s->funcs[j].addr : 1;
		}
		uint64_t size = raw[i].sym.st_size ? raw[i].sym.st_size : s->funcs[j].size;
		s->byname[i] = (struct sym_named){ { raw[i].sym.st_value, size, raw[i].name },
						   raw[i].rank, raw[i].order };
	}
	s->nfuncs = nf;
	s->nbyname = n;
	return 0;
}

static int cmp_named(const void *a, const void *b)
{
	const struct sym_named *x = a, *y = b;
	int c = strcmp(x->f.name, y->f.name);
	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->order < y->order ? -1 : x->order > y->order;
}

const struct sym_func *sym_func_named(struct symbolizer *s, const char *name)
{
	if (!s->byname_sorted && s->nbyname) {
		qsort(s->byname, s->nbyname, sizeof(*s->byname), cmp_named);
		s->byname_sorted = true;
	}
	size_t lo = 0, hi = s->nbyname;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(s->byname[mid].f.name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->nbyname || strcmp(s->byname[lo].f.name, name))
		return NULL;
	return &s->byname[lo].f;
}

static Elf_Scn *find_symtab(Elf *elf, Elf_Scn **dynsym)
{
	Elf_Scn *scn = NULL, *symtab = NULL;
	*dynsym = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && !symtab)
			symtab = scn;
		if (sh.sh_type == SHT_DYNSYM && !*dynsym)
			*dynsym = scn;
	}
	return symtab;
}

static int load_symbols(struct symbolizer *s, Elf_Scn *scn)
{
	GElf_Shdr sh;
	Elf_Data *data = gelf_getshdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
	if (!data || !sh.sh_entsize)
		return -1;
	size_t n = sh.sh_size / sh.sh_entsize;
	struct raw_sym *raw = calloc(n ? n : 1, sizeof(*raw));
	s->fb = calloc(n ? n : 1, sizeof(*s->fb));
	if (!raw || !s->fb) {
		free(raw);
		return -1;
	}
	size_t nraw = 0, nfb = 0;
	const char *file = NULL;
	enum { NOTHING, SYMBOL, FILE_AFTER_SYMBOL } state = NOTHING;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		const char *name = elf_strptr(s->elf, sh.sh_link, sym.st_name);
		if (!name)
			name = "";
		/* 32-bit Arm: a Thumb function's value has bit 0 set; its code starts below */
		if (s->machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			sym.st_value &= ~1ull;
		if (s->machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_NOTYPE &&
		    sym_armmap_kind(name)) {
			const struct sym_section *sec = section_by_index(s, sym.st_shndx);

			if (sec && (sec->flags & SHF_ALLOC) &&
			    sym_armmap_add(s, sym.st_value, sec->addr + sec->size, sym.st_shndx,
					   sym_armmap_kind(name))) {
				free(raw);
				return -1;
			}
		}
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = name;
			if (state == SYMBOL)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING)
			state = SYMBOL;
		bool local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
		if (is_fallback_symbol(s, &sym) && !is_mapping_symbol(&sym, name))
			s->fb[nfb++] = (struct sym_fallback){
				.addr = sym.st_value,
				.size = sym.st_size ? sym.st_size : 1,
				.name = name,
				.file = file && (local || state != FILE_AFTER_SYMBOL) ? file : NULL,
				.shndx = sym.st_shndx,
				.order = (uint32_t)i,
			};
		if (is_code_symbol(s, &sym, name)) {
			int rank = bind_rank(&sym) + (GELF_ST_TYPE(sym.st_info) == STT_NOTYPE ? 3 : 0);
			raw[nraw++] = (struct raw_sym){ sym, name, (uint32_t)i, rank };
		}
	}
	sort_fallback(s->fb, nfb);
	s->nfb = nfb;
	int rc = build_funcs(s, raw, nraw);
	free(raw);
	return rc;
}

static void read_build_id(struct symbolizer *s, Elf_Data *data)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(name, "GNU", 4) &&
		    nh.n_descsz && nh.n_descsz <= sizeof(s->build_id)) {
			memcpy(s->build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
			s->build_id_len = nh.n_descsz;
			return;
		}
	}
}

static void find_build_id(struct symbolizer *s)
{
	Elf_Scn *scn = NULL;
	while (!s->build_id_len && (scn = elf_nextscn(s->elf, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (d)
				read_build_id(s, d);
		}
	}
	size_t nph = 0;
	if (s->build_id_len || elf_getphdrnum(s->elf, &nph) < 0)
		return;
	for (size_t i = 0; i < nph && !s->build_id_len; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(s->elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(s->elf, (int64_t)ph.p_offset, ph.p_filesz,
						   ELF_T_NHDR);
		if (d)
			read_build_id(s, d);
	}
}

/* A name from the file that can go into a one-line message as it is. */
static bool printable(const char *name)
{
	size_t n = 0;

	if (!name)
		return false;
	for (; name[n]; n++)
		if (n == 64 || name[n] < 0x20 || name[n] > 0x7e)
			return false;
	return n > 0;
}

static int load_sections(struct symbolizer *s, uint64_t file_size, char *err, size_t errlen)
{
	size_t shnum, shstrndx;
	if (elf_getshdrnum(s->elf, &shnum) < 0 || elf_getshdrstrndx(s->elf, &shstrndx) < 0) {
		snprintf(err, errlen, "corrupt ELF section headers (%s)", elf_errmsg(-1));
		return -1;
	}
	s->secs = calloc(shnum ? shnum : 1, sizeof(*s->secs));
	if (!s->secs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(s->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh)) {
			snprintf(err, errlen, "corrupt ELF section header (%s)", elf_errmsg(-1));
			return -1;
		}
		const char *name = elf_strptr(s->elf, shstrndx, sh.sh_name);
		if (sh.sh_type != SHT_NOBITS && sh.sh_size &&
		    (sh.sh_offset > file_size || sh.sh_size > file_size - sh.sh_offset)) {
			snprintf(err, errlen,
				 "truncated ELF file: section [%zu] %s extends past the end; copy "
				 "the complete file again",
				 elf_ndxscn(scn), printable(name) ? name : "?");
			return -1;
		}
		/* the section-name table names itself ".shstrtab": anything else is damage */
		if (elf_ndxscn(scn) == shstrndx &&
		    (sh.sh_type != SHT_STRTAB || !name || strcmp(name, ".shstrtab")))
			s->bad_shstrtab = true;
		s->secs[s->nsecs++] = (struct sym_section){
			.addr = sh.sh_addr,
			.size = sh.sh_size,
			.offset = sh.sh_offset,
			.flags = sh.sh_flags,
			.type = sh.sh_type,
			.index = elf_ndxscn(scn),
			.name = name ? name : "",
		};
	}
	return 0;
}

static uint64_t hdr_field(const unsigned char *h, size_t off, unsigned n, bool be)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)h[off + i] << (be ? 8 * (n - 1 - i) : 8 * i);
	return v;
}

int sym_elf_check(int fd, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file; give the path of the ELF image");
		return -1;
	}
	unsigned char h[64];
	ssize_t got = pread(fd, h, sizeof(h), 0);
	if (got < 4 || memcmp(h, ELFMAG, SELFMAG)) {
		snprintf(err, errlen, "not an ELF file; give the ELF image itself (not a raw "
				      "binary, PE or hex file)");
		return -1;
	}
	bool is64 = got > EI_CLASS && h[EI_CLASS] == ELFCLASS64;
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if ((size_t)got < ehsize) {
		snprintf(err, errlen, "truncated ELF file (%zd bytes, shorter than its header); "
				      "copy the complete file again", got);
		return -1;
	}
	bool be = h[EI_DATA] == ELFDATA2MSB;
	uint64_t shoff = is64 ? hdr_field(h, 0x28, 8, be) : hdr_field(h, 0x20, 4, be);
	uint64_t shentsize = hdr_field(h, is64 ? 0x3a : 0x2e, 2, be);
	uint64_t shnum = hdr_field(h, is64 ? 0x3c : 0x30, 2, be);
	uint64_t size = (uint64_t)st.st_size;
	if (shoff && (shoff > size || shentsize * shnum > size - shoff)) {
		snprintf(err, errlen, "truncated ELF file: its section headers lie past the end "
				      "(%" PRIu64 " bytes); copy the complete file again", size);
		return -1;
	}
	return 0;
}

int sym_elf_load(struct symbolizer *s, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(s->fd, &st) < 0) {
		snprintf(err, errlen, "cannot stat the file");
		return -1;
	}
	if (elf_kind(s->elf) != ELF_K_ELF) {
		snprintf(err, errlen, "not an ELF file");
		return -1;
	}
	GElf_Ehdr eh;
	if (!gelf_getehdr(s->elf, &eh)) {
		snprintf(err, errlen, "truncated or corrupt ELF header");
		return -1;
	}
	if (eh.e_type == ET_REL) {
		snprintf(err, errlen, "a relocatable object (.o); symbolize the linked image");
		return -1;
	}
	s->machine = eh.e_machine;
	s->be = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if (load_sections(s, (uint64_t)st.st_size, err, errlen) < 0)
		return -1;
	if (section_intervals(s) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	find_build_id(s);
	Elf_Scn *dynsym, *symtab = find_symtab(s->elf, &dynsym);
	if (!symtab)
		symtab = dynsym;
	if (symtab && load_symbols(s, symtab) < 0) {
		snprintf(err, errlen, "corrupt ELF symbol table");
		return -1;
	}
	return 0;
}

const struct sym_func *sym_func_at(const struct symbolizer *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nfuncs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct sym_func *f = &s->funcs[lo - 1];
	return addr - f->addr < f->size ? f : NULL;
}

const struct sym_fallback *sym_fallback_at(const struct symbolizer *s, uint64_t addr,
					   size_t shndx)
{
	/* Last candidate in the section at or below addr: its address group decides. */
	size_t lo = 0, hi = s->nfb;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sym_fallback *f = &s->fb[mid];
		if (f->shndx < shndx || (f->shndx == shndx && f->addr <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || s->fb[lo - 1].shndx != shndx)
		return NULL;
	size_t first = lo - 1;
	uint64_t a = s->fb[first].addr;
	while (first > 0 && s->fb[first - 1].shndx == shndx && s->fb[first - 1].addr == a)
		first--;
	/* Within one address, symbol-table order; a larger size replaces a smaller one. */
	const struct sym_fallback *best = &s->fb[first];
	for (size_t i = first + 1; i < lo; i++)
		if (s->fb[i].size > best->size)
			best = &s->fb[i];
	return best;
}

const uint8_t *sym_section_data(struct symbolizer *s, const char *name, size_t *len)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	*len = 0;
	if (elf_getshdrstrndx(s->elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(s->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		const char *n = elf_strptr(s->elf, shstrndx, sh.sh_name);
		if (!n || strcmp(n, name))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			return NULL;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			return NULL;
		*len = d->d_size;
		return d->d_buf;
	}
	return NULL;
}
