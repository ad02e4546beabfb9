/*
 * test/target/test_filter_folder.c: "@FOLDER" in a filter chooses
 * functions by the folder of their source (the link map's, through
 * mktables): this image's own functions (test/target, built as the
 * application) are "@app", bootargs_app_argc (kernel/bootinfo/) is
 * "@kernel" and timer_rearm (drivers/gtimer.c) is "@drivers".
 */
#include <stdint.h>
#include <string.h>

#include <baretrace_trace.h>

#include "core/core.h"
#include "kprintf.h"
#include "ktest.h"
#include "symbols.h"

static void no_hit(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		   struct trace_regs *regs)
{
	(void)ip;
	(void)parent;
	(void)ops;
	(void)regs;
}

static int site_named(const char *name)
{
	return trace_site_of(sym_address(name));
}

static unsigned int chosen(const struct trace_ops *o)
{
	unsigned int n = 0;

	for (unsigned int i = 0; o->filter_bits && i < trace_site_count(); i++)
		n += site_bit(o->filter_bits, i);
	return n;
}

KTEST(trace_filter_folder_names_the_source_folder)
{
	int app = site_named("tt_alpha"), kern = site_named("bootargs_app_argc");
	int drv = site_named("timer_rearm");

	if (!KT_EXPECT(t, app >= 0 && kern >= 0 && drv >= 0))
		return;
	KT_STREQ(t, trace_site_folder((unsigned int)app), "app");
	KT_STREQ(t, trace_site_folder((unsigned int)kern), "kernel");
	KT_STREQ(t, trace_site_folder((unsigned int)drv), "drivers");
	KT_STREQ(t, trace_site_folder(trace_site_count()), "");
}

KTEST(trace_filter_at_folder_chooses_by_source)
{
	struct trace_ops o = { .func = no_hit };
	static const struct { const char *pat; const char *yes, *no; } cases[] = {
		{ "@app", "tt_alpha", "bootargs_app_argc" },
		{ "@app", "tt_beta", "timer_rearm" },
		{ "@kernel", "bootargs_app_argc", "tt_alpha" },
		{ "@ap?", "tt_gamma", "timer_rearm" },
		{ "@app !tt_beta", "tt_alpha", "tt_beta" },
		{ "@app,timer_*", "timer_rearm", "bootargs_app_argc" },
		{ "!@app", "bootargs_app_argc", "tt_alpha" },
		{ "@drivers @kernel", "timer_rearm", "tt_alpha" },
	};

	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		KT_EQ(t, trace_ops_set_filter(&o, cases[k].pat), 0);
		int yes = site_named(cases[k].yes), no = site_named(cases[k].no);

		if (!KT_EXPECT(t, yes >= 0 && no >= 0))
			continue;
		if (!KT_EXPECT(t, o.filter_bits && site_bit(o.filter_bits, (unsigned int)yes)) ||
		    !KT_EXPECT(t, !site_bit(o.filter_bits, (unsigned int)no)))
			kprintf("    # pattern \"%s\"\n", cases[k].pat);
	}
	/* "@app" and "!@app" split the sites between them; "@*" is all. */
	KT_EQ(t, trace_ops_set_filter(&o, "@app"), 0);
	unsigned int in_app = chosen(&o);

	KT_EQ(t, trace_ops_set_filter(&o, "!@app"), 0);
	KT_EXPECT(t, in_app > 0 && chosen(&o) > 0);
	KT_EQ(t, in_app + chosen(&o), trace_site_count());
	KT_EQ(t, trace_ops_set_filter(&o, "@*"), 0);
	KT_EQ(t, chosen(&o), trace_site_count());
	/* A folder that does not exist chooses nothing (the boot argument
	 * and the console warn); a bare '@' is refused, nothing changes. */
	KT_EQ(t, trace_ops_set_filter(&o, "@nosuch"), 0);
	KT_EXPECT(t, o.filter_bits != NULL);	/* NULL would be every function */
	KT_EQ(t, chosen(&o), 0);
	KT_EQ(t, trace_ops_set_filter(&o, "@app"), 0);
	KT_EQ(t, trace_ops_set_filter(&o, "tt_* @"), TRACE_EINVAL);
	KT_EQ(t, trace_ops_set_filter(&o, "!@"), TRACE_EINVAL);
	KT_EQ(t, chosen(&o), in_app);
	trace_ops_release(&o);
}
