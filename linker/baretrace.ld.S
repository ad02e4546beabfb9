/*
 * linker/baretrace.ld.S: layout of the baretrace image (preprocessed).
 *
 * The image is a static PIE linked at address 0; boot/head.S applies the
 * R_AARCH64_RELATIVE relocations for wherever it was loaded. Text,
 * read-only data and read-write data each start on a page so the MMU can
 * give them different permissions (kernel/cpu/mmu.c):
 *
 *   _text .. _etext       RX   header, code, patch sites
 *   _etext .. _erodata    R    rodata, generated tables, relocations
 *   _erodata .. _end      RW   data, GOT, BSS, page tables      (XN)
 */
#include "config.h"

OUTPUT_ARCH(aarch64)
ENTRY(_text)

SECTIONS
{
	. = 0;
	.head.text : { KEEP(*(.head.text)) }
	.text : {
		/* Code an asynchronous exception restarts instead of
		 * resuming (kernel/cpu/restart.h): one span, so the entry's
		 * first test is one compare. */
		. = ALIGN(16);
		__restartable_start = .;
		KEEP(*(.text.restartable))
		__restartable_end = .;
		*(.text.hot .text.hot.*)
		*(.text .text.*)
	}
	. = ALIGN(PAGE_SIZE);
	_etext = .;

	.rodata : {
		*(.rodata .rodata.*)
		. = ALIGN(8);
		__kparams_start = .;
		KEEP(*(.kparams))
		__kparams_end = .;
		. = ALIGN(8);
		__kinits_start = .;
		KEEP(*(.kinits))
		__kinits_end = .;
		. = ALIGN(8);
		__ktests_start = .;
		KEEP(*(.ktests))
		__ktests_end = .;
		. = ALIGN(8);
		__bt_formats_start = .;
		KEEP(*(.bt_formats))
		__bt_formats_end = .;
		. = ALIGN(8);
		__bt_events_start = .;
		KEEP(*(.bt_events))
		__bt_events_end = .;
		. = ALIGN(4);
		__bt_tp_sites_start = .;
		KEEP(*(.bt_tp_sites))
		__bt_tp_sites_end = .;
		__bt_tp_calls_start = .;
		KEEP(*(.bt_tp_calls))
		__bt_tp_calls_end = .;
		. = ALIGN(8);
		__shell_cmds_start = .;
		KEEP(*(.shell_cmds))
		__shell_cmds_end = .;
		. = ALIGN(8);
		__fault_fixups_start = .;
		KEEP(*(.fault_fixups))
		__fault_fixups_end = .;
		. = ALIGN(8);
		__restart_table_start = .;
		KEEP(*(.restart_table))
		__restart_table_end = .;
	}
	/* trace_printf formats hold pointers, so the compiler files them
	 * under .data.rel.ro.* too: gather them first. */
	.data.rel.ro : { *(.data.rel.ro .data.rel.ro.*) }
	/* Static constructors (kernel/libc/cxx_init.c): with a priority
	 * first, in its order, then the rest in link order. */
	.init_array : ALIGN(8) {
		__init_array_start = .;
		KEEP(*(SORT_BY_INIT_PRIORITY(.init_array.*)))
		KEEP(*(.init_array))
		__init_array_end = .;
	}
	/* The application's thread-local variables (_Thread_local): the
	 * initial image, read only by kernel/cpu/tls.c, which gives each CPU a
	 * copy in .tls below and points its TPIDR_EL0 at it. AArch64 TLS
	 * variant 1, local-exec: the thread pointer addresses a 16-byte
	 * TCB and the block follows it, at TP + 16 as long as no variable
	 * asks for more than 16-byte alignment (asserted below). .tbss
	 * takes no room here, only in each copy. */
	.tdata : ALIGN(16) {
		__tdata_start = .;
		*(.tdata .tdata.* .gnu.linkonce.td.*)
		__tdata_end = .;
	}
	.tbss : ALIGN(16) {
		*(.tbss .tbss.* .gnu.linkonce.tb.*)
		*(.tcommon)
		. = ALIGN(16);
		__tbss_end = .;
	}
	/* Written by tools/mktables between link 1 and link 2. */
	.bt_tables : ALIGN(8) { KEEP(*(.bt_tables)) }
	/* The data objects' table (tools/mktables_objs.c), outside the
	 * image hash that covers .bt_tables. */
	.bt_objs : ALIGN(8) { KEEP(*(.bt_objs)) }
	/* The bounds come from the output section: relocations the linker
	 * makes itself (GOT entries) are added after symbols inside it are
	 * evaluated, so __rela_end must not be a '.' inside the section. */
	.rela.dyn : ALIGN(8) { *(.rela .rela.*) }
	__rela_start = ADDR(.rela.dyn);
	__rela_end = ADDR(.rela.dyn) + SIZEOF(.rela.dyn);
	.dynsym : { *(.dynsym) }
	.dynstr : { *(.dynstr) }
	.hash : { *(.hash) }
	.gnu.hash : { *(.gnu.hash) }
	. = ALIGN(PAGE_SIZE);
	_erodata = .;

	.data : {
		*(.data .data.*)
	}
	/* One record per patchable function, read by tools/mktables. KEEP:
	 * GCC 12 links every record of a file to the file's first function
	 * (SHF_LINK_ORDER), so when --gc-sections dropped that function the
	 * records of all the others went with it and they could never be
	 * traced. Kept, the records keep the functions they name. */
	__patchable_function_entries : { KEEP(*(__patchable_function_entries)) }
	.dynamic : { *(.dynamic) }
	.got : { *(.got) *(.got.plt) }
	. = ALIGN(16);
	_edata = .;

	.bss (NOLOAD) : ALIGN(16) {
		__bss_start = .;
		*(.bss .bss.*)
		*(COMMON)
		. = ALIGN(16);
		__bss_end = .;
	}
	/* Each CPU's thread-local storage (kernel/cpu/tls.c): TLS_TCB_SIZE
	 * bytes of TCB, then its copy of .tdata and .tbss; filled when the
	 * CPU starts, not cleared with the BSS. */
	.tls (NOLOAD) : ALIGN(16) {
		__tls_areas_start = .;
		. += NR_CPUS * (TLS_TCB_SIZE + (__tbss_end - __tdata_start));
		__tls_areas_end = .;
	}
	/* Every CPU's stacks with their guard pages (boot/head.S); not
	 * cleared at boot. Page-aligned so kernel/cpu/mmu.c can leave the guard
	 * pages unmapped. */
	.stacks (NOLOAD) : ALIGN(PAGE_SIZE) {
		__stacks_start = .;
		KEEP(*(.stacks))
		__stacks_end = .;
	}
	. = ALIGN(PAGE_SIZE);
	_end = .;
	/* For the Image header: 32-bit halves, which a PIE link resolves
	 * statically (a 64-bit word would become a dynamic relocation). */
	_image_size_lo = (_end - _text) & 0xffffffff;
	_image_size_hi = (_end - _text) >> 32;

	/DISCARD/ : {
		*(.interp) *(.note .note.*) *(.comment) *(.eh_frame*)
		*(.gnu.version*) *(.gnu.attributes)
	}
}

ASSERT(_text == 0, "the image is linked at 0; head.S relies on it")
ASSERT((_etext % PAGE_SIZE) == 0, "text must end on a page")
ASSERT((_erodata % PAGE_SIZE) == 0, "rodata must end on a page")
ASSERT((__bss_start % 16) == 0 && (__bss_end % 16) == 0, "BSS alignment")
ASSERT((__stacks_start % PAGE_SIZE) == 0 && cpu_stack_area == __stacks_start &&
       __stacks_end - __stacks_start == NR_CPUS * STACK_SLOT_SIZE,
       "cpu_stack_area: page-aligned, alone in .stacks")
ASSERT((STACK_SLOT_SIZE % PAGE_SIZE) == 0 && (STACK_SIZE % PAGE_SIZE) == 0 &&
       (EMERGENCY_STACK_SIZE % PAGE_SIZE) == 0, "stack slots are whole pages")
ASSERT(_end < 0x10000000, "image larger than 256 MiB")
ASSERT(ALIGNOF(.tdata) <= 16 && ALIGNOF(.tbss) <= 16,
       "a _Thread_local variable asks for more than 16-byte alignment (kernel/cpu/tls.c places blocks at TP + 16)")
ASSERT(__tdata_start % 16 == 0 && __tbss_end % 16 == 0 && __tls_areas_start % 16 == 0,
       "TLS alignment")
