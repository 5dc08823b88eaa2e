// SPDX-License-Identifier: GPL-2.0
/*
 * mmio-count: a QEMU TCG plugin counting the guest kernel's accesses to the
 * emulated LPSS device's registers (make bench).
 *
 * The LPSS "MMIO" page is guest RAM (memmap=), so QEMU has no device model
 * to trap its accesses; this plugin sees every guest memory access instead
 * and keeps those whose physical address is in the page.  It runs only in
 * the boot that measures register traffic: a callback on every memory access
 * slows TCG down several times.
 *
 *   qemu-system-x86_64 ... -plugin mmio-count.so,base=ADDR,out=FILE
 *
 * ADDR is the page's guest physical address, the LPSS_MMIO_BASE of
 * qemu/ssdt.asl (bench/bench.sh reads it there).
 *
 * Counting windows are opened and closed by the guest with user-space reads
 * (busybox devmem) of two marker words in the same page, which the driver
 * never touches:
 *
 *   base + 0xF00   open a window (counters to zero)
 *   base + 0xF04   close it: one line to FILE,
 *                  "window K reads=R writes=W r+0x808=.. w+0x810=.. ..."
 *
 * Only kernel-mode accesses (virtual address in the upper half) are counted,
 * so the guest's own devmem reads of the registers never are.  Accesses
 * outside any window are summed in a last line at exit.
 *
 * Debian 12's QEMU 7.2 is built with plugin support but ships no
 * qemu-plugin.h: the few declarations used are below, for plugin API
 * version 1 (QEMU 4.2 to 8.x).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- QEMU TCG plugin API, version 1: the subset used here ---- */
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_hwaddr;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw, void *userdata);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info,
						  uint64_t vaddr);
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *haddr);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

#define PLUGIN_EXPORT __attribute__((visibility("default")))
PLUGIN_EXPORT int qemu_plugin_version = 1;
PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				      const struct qemu_info_t *info,
				      int argc, char **argv);
/* ---- end of the API subset ---- */

#define PAGE_SIZE	0x1000
#define MARK_OPEN	0xF00
#define MARK_CLOSE	0xF04
#define KERNEL_HALF	0x8000000000000000ULL

static uint64_t base;		/* base=, required */
static FILE *out;
static bool in_window;
static unsigned long window;
/* per page offset (in 4-byte words): [0] reads, [1] writes */
static unsigned long count[2][PAGE_SIZE / 4];
static unsigned long outside[2];

static void close_window(void)
{
	unsigned long total[2] = { 0, 0 };
	unsigned int rw, w;

	for (rw = 0; rw < 2; rw++)
		for (w = 0; w < PAGE_SIZE / 4; w++)
			total[rw] += count[rw][w];
	fprintf(out, "window %lu reads=%lu writes=%lu", window, total[0], total[1]);
	for (w = 0; w < PAGE_SIZE / 4; w++)
		for (rw = 0; rw < 2; rw++)
			if (count[rw][w])
				fprintf(out, " %c+0x%03x=%lu", rw ? 'w' : 'r', w * 4,
					count[rw][w]);
	fputc('\n', out);
	fflush(out);
	window++;
	in_window = false;
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *userdata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	uint64_t pa, off;
	bool store;

	(void)vcpu;
	(void)userdata;
	if (!hw)
		return;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	if (pa < base || pa >= base + PAGE_SIZE)
		return;
	off = pa - base;
	store = qemu_plugin_mem_is_store(info);

	if (!(vaddr & KERNEL_HALF)) {
		/* user space: only the markers mean something */
		if (off == MARK_OPEN) {
			memset(count, 0, sizeof(count));
			in_window = true;
		} else if (off == MARK_CLOSE && in_window) {
			close_window();
		}
		return;
	}
	if (in_window)
		count[store][off / 4]++;
	else
		outside[store]++;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; i < n; i++)
		qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i),
						 mem_access, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	fprintf(out, "outside reads=%lu writes=%lu\n", outside[0], outside[1]);
	fclose(out);
}

PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				      const struct qemu_info_t *info,
				      int argc, char **argv)
{
	const char *file = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "base=", 5))
			base = strtoull(argv[i] + 5, NULL, 0);
		else if (!strncmp(argv[i], "out=", 4))
			file = argv[i] + 4;
		else {
			fprintf(stderr, "mmio-count: unknown argument %s\n", argv[i]);
			return 1;
		}
	}
	if (!file || !base) {
		fprintf(stderr, "mmio-count: base=ADDR and out=FILE are needed\n");
		return 1;
	}
	out = fopen(file, "w");
	if (!out) {
		perror(file);
		return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
