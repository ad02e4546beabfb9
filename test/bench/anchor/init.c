/*
 * test/bench/anchor/init.c: the init of the Linux side of 'make
 * bench-anchor' (tools/bench-anchor). It runs as PID 1 from an
 * initramfs on a stock Debian arm64 kernel under QEMU -icount shift=0,
 * where virtual time advances one nanosecond per instruction, and
 * measures what one traced call of __arm64_sys_getppid costs with each
 * ftrace state:
 *
 *   nop        no tracer: the function's patch site is two instructions
 *   function   the function tracer records one event per call
 *   graph      function_graph records an entry and an exit per call
 *   stopped    the function tracer attached, tracing_on=0: the callback
 *              runs and finds recording off
 *
 * Each state runs ANCHOR_BATCHES batches of ANCHOR_CALLS getppid calls
 * and keeps the cheapest batch by two clocks: CLOCK_MONOTONIC (ns, so
 * instructions under icount) and the PMU's instructions-retired count
 * for this task (perf_event_open, user and kernel). A batch is far
 * shorter than the 4 ms tick, so the cheapest batches hold no interrupt.
 * One line per state:
 *
 *   ANCHOR-MODE name calls min_ns min_insns seen
 *
 * seen is 1 when the trace buffer holds a getppid record afterwards (0
 * for the states that must record nothing). Then it powers off.
 *
 * Freestanding: no C library (the cross compiler has none for Linux
 * unless libc6-dev-arm64-cross is installed), raw system calls with the
 * numbers of the arm64 (generic) system call table.
 */
#include <stddef.h>
#include <stdint.h>

#define ANCHOR_CALLS	1000
#define ANCHOR_BATCHES	200		/* 200,000 calls per state */

/* arm64 system call numbers (the generic table). */
#define NR_ioctl		29
#define NR_mkdirat		34
#define NR_mount		40
#define NR_openat		56
#define NR_close		57
#define NR_read			63
#define NR_write		64
#define NR_clock_gettime	113
#define NR_reboot		142
#define NR_uname		160
#define NR_getppid		173
#define NR_perf_event_open	241

#define AT_FDCWD		-100
#define O_RDONLY		0
#define O_WRONLY		1
#define O_TRUNC			01000
#define CLOCK_MONOTONIC		1
#define REBOOT_MAGIC1		0xfee1dead
#define REBOOT_MAGIC2		672274793
#define REBOOT_POWER_OFF	0x4321fedc

#define TRACEFS "/tracing/"

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory", "cc");
	return x0;
}
#define sys(nr, a, b, c) sys6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* The compiler may emit calls to these for struct copies and clears. */
void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	while (n--)
		*p++ = *q++;
	return d;
}

static size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static void out(const char *s)
{
	sys(NR_write, 1, s, str_len(s));
}

static void out_u64(uint64_t v)
{
	char buf[24];
	int i = sizeof(buf) - 1;

	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out(buf + i);
}

/* Writes text to a tracefs file; 0 on success. */
static int tracefs_write(const char *file, const char *text)
{
	char path[96] = TRACEFS;
	size_t n = str_len(path);

	memcpy(path + n, file, str_len(file) + 1);
	long fd = sys(NR_openat, AT_FDCWD, path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	long w = sys(NR_write, fd, text, str_len(text));
	sys(NR_close, fd, 0, 0);
	return w == (long)str_len(text) ? 0 : -1;
}

/* 1 when the head of the trace buffer names getppid. */
static int trace_names_getppid(void)
{
	static char buf[16384];
	long fd = sys(NR_openat, AT_FDCWD, TRACEFS "trace", O_RDONLY);
	long got = 0, r;

	if (fd < 0)
		return 0;
	while (got < (long)sizeof(buf) - 1 &&
	       (r = sys(NR_read, fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += r;
	sys(NR_close, fd, 0, 0);
	buf[got] = 0;
	for (long i = 0; i + 6 <= got; i++)
		if (buf[i] == 'g' && buf[i + 1] == 'e' && buf[i + 2] == 't' &&
		    buf[i + 3] == 'p' && buf[i + 4] == 'p' && buf[i + 5] == 'i')
			return 1;
	return 0;
}

/* struct perf_event_attr as of its first version (64 bytes). */
struct perf_attr {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t flags;			/* bit 0 disabled; 0: count from open */
	uint32_t wakeup_events, bp_type;
	uint64_t config1;
};

static long insns_fd = -1;

static uint64_t insns_now(void)
{
	uint64_t v = 0;

	if (insns_fd >= 0 && sys(NR_read, insns_fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

static uint64_t ns_now(void)
{
	struct { int64_t sec, nsec; } ts;

	sys(NR_clock_gettime, CLOCK_MONOTONIC, &ts, 0);
	return (uint64_t)ts.sec * 1000000000u + (uint64_t)ts.nsec;
}

/* The cheapest batch by each clock; both include the same constant
 * cost of reading the clocks, which cancels between states. */
static void measure(uint64_t *min_ns, uint64_t *min_insns)
{
	*min_ns = *min_insns = ~0ull;
	for (int b = 0; b < ANCHOR_BATCHES; b++) {
		uint64_t t0 = ns_now(), i0 = insns_now();

		for (int k = 0; k < ANCHOR_CALLS; k++)
			sys(NR_getppid, 0, 0, 0);
		uint64_t i1 = insns_now(), t1 = ns_now();

		if (t1 - t0 < *min_ns)
			*min_ns = t1 - t0;
		if (i1 - i0 < *min_insns)
			*min_insns = i1 - i0;
	}
}

static void run_mode(const char *name, const char *tracer, const char *tracing_on)
{
	uint64_t ns, insns;
	int ok = !tracefs_write("tracing_on", "0") && !tracefs_write("current_tracer", tracer) &&
		 !tracefs_write("trace", "") && !tracefs_write("tracing_on", tracing_on);

	if (!ok) {
		out("ANCHOR-ERROR cannot set up ");
		out(name);
		out("\n");
		return;
	}
	measure(&ns, &insns);
	tracefs_write("tracing_on", "0");
	out("ANCHOR-MODE ");
	out(name);
	out(" ");
	out_u64(ANCHOR_CALLS);
	out(" ");
	out_u64(ns);
	out(" ");
	out_u64(insns_fd >= 0 ? insns : 0);
	out(" ");
	out_u64((uint64_t)trace_names_getppid());
	out("\n");
}

static void open_insns_counter(void)
{
	struct perf_attr a = {
		.type = 0,		/* PERF_TYPE_HARDWARE */
		.size = sizeof(a),
		.config = 1,		/* PERF_COUNT_HW_INSTRUCTIONS */
	};

	/* this task, any CPU, no group, no flags */
	insns_fd = sys6(NR_perf_event_open, (long)&a, 0, -1, -1, 0, 0);
	if (insns_fd < 0 || !insns_now()) {
		out("ANCHOR-NOTE no PMU instruction counter; clock only\n");
		insns_fd = -1;
	}
}

static void say_kernel(void)
{
	static char u[6][65];		/* struct utsname */

	sys(NR_uname, u, 0, 0);
	out("ANCHOR-KERNEL ");
	out(u[2]);
	out(" ");
	out(u[3]);
	out("\n");
}

void init_main(void)
{
	sys(NR_mkdirat, AT_FDCWD, "/tracing", 0755);
	if (sys6(NR_mount, (long)"tracefs", (long)"/tracing", (long)"tracefs", 0, 0, 0) < 0) {
		out("ANCHOR-ERROR cannot mount tracefs\n");
	} else if (tracefs_write("set_ftrace_filter", "__arm64_sys_getppid")) {
		out("ANCHOR-ERROR __arm64_sys_getppid is not traceable\n");
	} else {
		say_kernel();
		open_insns_counter();
		run_mode("nop", "nop", "1");
		run_mode("function", "function", "1");
		run_mode("graph", "function_graph", "1");
		run_mode("stopped", "function", "0");
		tracefs_write("current_tracer", "nop");
		out("ANCHOR-DONE\n");
	}
	sys6(NR_reboot, REBOOT_MAGIC1, REBOOT_MAGIC2, REBOOT_POWER_OFF, 0, 0, 0);
	for (;;)
		;
}

/* Entry from the kernel: sp is 16-byte aligned; no frame to return to. */
__asm__(".globl _start\n"
	"_start:\n"
	"	mov x29, #0\n"
	"	mov x30, #0\n"
	"	bl init_main\n"
	"1:	b 1b\n");
