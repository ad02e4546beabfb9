/*
 * tools/baretrace/output/export/export_svg.c: `export --format=svg`, a
 * flame graph in one self-contained SVG file that a browser opens as it is:
 * no external fonts, styles or scripts; its own script (svg_script.c) zooms
 * on a click, searches, and shows the hovered frame on a details line. The
 * root ("all") is at the bottom and each frame sits on its caller, children
 * sorted by name so stacks line up. Hovering a frame shows its <title>:
 * name, calls, time and share.
 *
 * With --per-cpu each CPU gets a panel of its own, one above the other,
 * its "CPU n" frame at the bottom of the panel spanning the full width:
 * a CPU that ran for a moment is as readable as the busiest one (on one
 * shared axis it would be a sliver). Widths and shares are then within
 * the panel, and each <rect> also carries data-panel (the CPU frame's
 * place, from 0).
 *
 * Widths are exact: a frame's width is its value (flame.c: inclusive
 * ticks, or calls for counts) times the root's width over the root's
 * value (the panel's root with --per-cpu), and x positions come from the sum of the values of the frames
 * before it, not from rounded widths, so a frame always lies within its
 * caller. Every <rect> carries data-name, data-calls and data-ticks (its
 * value) for anyone who wants to check. Nothing is left out for being
 * narrow: labels are, when less than three characters would fit.
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../model/flame.h"

#include "export.h"

#define SVG_W		1200.0
#define MARGIN		10.0
#define FRAME_H		16.0	/* one stack level, a 1 px gap included */
#define TOP		48.0	/* title and subtitle */
#define FOOT		16.0	/* the details line */
#define PANEL_GAP	8.0	/* between the CPUs' panels */
#define CHAR_W		6.7	/* 11 px monospace: a little over 0.6 em */

struct svg {
	FILE *f;
	struct bt_flame *fl;
	uint64_t root_value;	/* the drawn root's: "all", or a CPU's */
	double height, base_y;	/* base_y: the bottom of the panel's root */
	int panel;		/* -1: one graph, no panels */
	const char *what;	/* "time", "profile" or "calls" */
};

static unsigned depth_of(const struct bt_flame *fl, uint32_t i)
{
	unsigned deepest = 0;

	for (uint32_t c = fl->n[i].child; c; c = fl->n[c].next) {
		unsigned d = depth_of(fl, c) + 1;

		if (d > deepest)
			deepest = d;
	}
	return deepest;
}

/* The hover text: what the frame is, in the unit of the graph. */
static void title(struct svg *g, uint32_t i)
{
	const struct bt_fnode *n = &g->fl->n[i];
	struct bt_decoder *d = g->fl->d;
	char t[32], sf[32];
	double share = 100.0 * (double)n->value / (double)g->root_value;

	fputs("<title>", g->f);
	bt_svg_text(g->f, n->name, 4096);
	bt_fmt_usecs(t, sizeof(t), n->value, bt_freq(d));
	bt_fmt_usecs(sf, sizeof(sf), n->self, bt_freq(d));
	if ((i < BT_FLAME_ROOTS || !n->calls) && !strcmp(g->what, "calls"))
		fprintf(g->f, ": %llu calls in the frames above (%.2f%%)",
			(unsigned long long)n->value, share);
	else if (i < BT_FLAME_ROOTS || !n->calls)	/* a root, a CPU, a call still running */
		fprintf(g->f, ": %s us in the frames above (%.2f%%)", t, share);
	else if (!strcmp(g->what, "time"))
		fprintf(g->f, ": %llu call%s, %s us (%.2f%%), self %s us",
			(unsigned long long)n->calls, n->calls == 1 ? "" : "s", t, share, sf);
	else if (!strcmp(g->what, "profile"))
		fprintf(g->f, ": %llu call%s, %s us total (%.2f%%)", (unsigned long long)n->calls,
			n->calls == 1 ? "" : "s", t, share);
	else
		fprintf(g->f, ": %llu call%s (%.2f%%)", (unsigned long long)n->calls,
			n->calls == 1 ? "" : "s", share);
	fputs("</title>", g->f);
}

static const struct bt_flame *sorting;	/* qsort's comparator has no context */

static int by_name(const void *a, const void *b)
{
	return strcmp(sorting->n[*(const uint32_t *)a].name, sorting->n[*(const uint32_t *)b].name);
}

/* The callees of frame i sorted by name, *nk of them (free() it). */
static uint32_t *sorted_kids(const struct bt_flame *fl, uint32_t i, size_t *nk)
{
	uint32_t *kids = NULL;
	size_t cap = 0;

	*nk = 0;
	for (uint32_t c = fl->n[i].child; c; c = fl->n[c].next) {
		kids = bt_grow(kids, &cap, *nk + 1, sizeof(*kids));
		kids[(*nk)++] = c;
	}
	sorting = fl;
	if (*nk)
		qsort(kids, *nk, sizeof(*kids), by_name);
	return kids;
}

/* Draws frame i at 'offset' (in value units from the root's left edge). */
static void draw(struct svg *g, uint32_t i, unsigned depth, uint64_t offset)
{
	const struct bt_fnode *n = &g->fl->n[i];
	double scale = (SVG_W - 2 * MARGIN) / (double)g->root_value;
	double x = MARGIN + (double)offset * scale, w = (double)n->value * scale;
	double y = g->base_y - (depth + 1) * FRAME_H;
	char fill[32];
	size_t fits = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0, len = strlen(n->name);
	uint32_t *kids;
	size_t nk;

	bt_svg_colour(g->fl, i, fill, sizeof(fill));
	fputs("<g class=\"f\">", g->f);
	title(g, i);
	fprintf(g->f, "<rect x=\"%.4f\" y=\"%.1f\" width=\"%.4f\" height=\"%.1f\" fill=\"%s\" "
		"data-name=\"", x, y, w, FRAME_H - 1, fill);
	bt_svg_text(g->f, n->name, 4096);
	fprintf(g->f, "\" data-calls=\"%llu\" data-ticks=\"%llu\" data-depth=\"%u\"",
		(unsigned long long)n->calls, (unsigned long long)n->value, depth);
	if (g->panel >= 0)
		fprintf(g->f, " data-panel=\"%d\"", g->panel);
	fputs("/>", g->f);
	if (fits >= 3) {
		fprintf(g->f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 4.5);
		bt_svg_text(g->f, n->name, len > fits ? fits - 2 : len);
		fputs(len > fits ? "..</text>" : "</text>", g->f);
	}
	fputs("</g>\n", g->f);
	kids = sorted_kids(g->fl, i, &nk);
	for (size_t k = 0; k < nk; k++) {
		draw(g, kids[k], depth + 1, offset);
		offset += g->fl->n[kids[k]].value;
	}
	free(kids);
}

/* The height of the frames: one graph, or the CPUs' panels and gaps. */
static double frames_height(const struct bt_flame *fl)
{
	uint32_t *kids;
	size_t nk;
	double h = 0;

	if (!fl->per_cpu)
		return (depth_of(fl, fl->root) + 1) * FRAME_H;
	kids = sorted_kids(fl, fl->root, &nk);
	for (size_t k = 0; k < nk; k++)
		if (fl->n[kids[k]].value)
			h += (h ? PANEL_GAP : 0) + (depth_of(fl, kids[k]) + 1) * FRAME_H;
	free(kids);
	return h;
}

/* One graph on the root, or with --per-cpu a panel per CPU on its own
 * axis, CPU 0 at the top. */
static void draw_frames(struct svg *g)
{
	struct bt_flame *fl = g->fl;
	double top = TOP + MARGIN;
	uint32_t *kids;
	size_t nk;

	g->panel = -1;
	if (!fl->per_cpu) {
		g->base_y = top + (depth_of(fl, fl->root) + 1) * FRAME_H;
		draw(g, fl->root, 0, 0);
		return;
	}
	kids = sorted_kids(fl, fl->root, &nk);
	for (size_t k = 0; k < nk; k++) {
		if (!fl->n[kids[k]].value)
			continue;
		g->panel++;
		g->root_value = fl->n[kids[k]].value;
		g->base_y = top + (depth_of(fl, kids[k]) + 1) * FRAME_H;
		draw(g, kids[k], 0, 0);
		top = g->base_y + PANEL_GAP;
	}
	free(kids);
}

static void write_svg(struct svg *g, const char *trace)
{
	struct bt_flame *fl = g->fl;
	const char *head = fl->root == BT_FLAME_GRAPH ?
		"inclusive time from graph records" : fl->root == BT_FLAME_OTHER ?
		"total time per function from profile dumps (no call stacks)" :
		"call counts from function-entry records (no times; caller below function)";

	g->root_value = fl->n[fl->root].value;
	g->what = fl->root == BT_FLAME_GRAPH ? "time" : fl->root == BT_FLAME_OTHER ? "profile" :
									       "calls";
	g->height = TOP + MARGIN + frames_height(fl) + FOOT + MARGIN;
	fprintf(g->f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-margin=\"%.0f\">\n"
		"<title>baretrace flame graph: ", SVG_W, g->height, SVG_W, g->height, MARGIN);
	bt_svg_text(g->f, head, 200);
	fprintf(g->f, "</title>\n<style>\n"
		"text { font-family: monospace; font-size: 11px; fill: #000; }\n"
		"text.head { font-size: 15px; }\n"
		".f:hover rect { stroke: #000; stroke-width: 0.7; }\n"
		".f, .btn { cursor: pointer; }\n"
		".btn { font-size: 12px; fill: #335; }\n"
		"</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff9ef\"/>\n"
		"<text class=\"head\" x=\"%.0f\" y=\"22\" text-anchor=\"middle\">", SVG_W, g->height,
		SVG_W / 2);
	bt_svg_text(g->f, head, 200);
	fprintf(g->f, "</text>\n<text x=\"%.0f\" y=\"40\" text-anchor=\"middle\">", SVG_W / 2);
	bt_svg_text(g->f, trace, 200);
	fprintf(g->f, ": %s; hover a frame for its numbers, click to zoom</text>\n",
		fl->per_cpu ? "each CPU on its own axis" : "all CPUs merged");
	fprintf(g->f, "<text id=\"unzoom\" class=\"btn\" x=\"%.0f\" y=\"22\" "
		"style=\"visibility:hidden\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"btn\" x=\"%.0f\" y=\"22\" text-anchor=\"end\">"
		"Search</text>\n", MARGIN, SVG_W - MARGIN);
	if (g->root_value)
		draw_frames(g);
	else
		fprintf(g->f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no function "
			"records in the trace</text>\n", SVG_W / 2, g->height - MARGIN - FOOT - 4);
	fprintf(g->f, "<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n"
		"<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n",
		MARGIN, g->height - MARGIN - 3, SVG_W - MARGIN, g->height - MARGIN - 3);
	fputs(bt_svg_script, g->f);
	fputs("</svg>\n", g->f);
}

int bt_export_svg(const char *trace, const char *elf, const char *out, int per_cpu)
{
	static struct bt_decoder d;
	static struct bt_flame fl;
	struct svg g = { .fl = &fl };
	int rc = bt_flame_read(&fl, &d, trace, elf, per_cpu);

	if (!rc) {
		g.f = bt_out_open(out, "w");
		if (!g.f)
			bt_die(BT_EXIT_INPUT, "cannot create %s", out);
		if (!fl.n[fl.root].value)
			bt_warn("no function records: %s has no frames", out);
		write_svg(&g, trace);
		if (bt_out_close(g.f))
			bt_die(BT_EXIT_INPUT, "error writing %s", out);
	}
	bt_flame_free(&fl);
	bt_dec_free(&d);
	return rc;
}
