/*
 * tools/baretrace/output/export_svg.c: `export --format=svg`, a flame graph in
 * one self-contained SVG file that a browser opens as it is: no script,
 * no external fonts or styles. The root ("all") is at the bottom and
 * each frame sits on its caller, children sorted by name so stacks line
 * up. Hovering a frame shows its <title>: name, calls, time and share.
 *
 * Widths are exact: a frame's width is its value (flame.c: inclusive
 * ticks, or calls for counts) times the root's width over the root's
 * value, and x positions come from the sum of the values of the frames
 * before it, not from rounded widths, so a frame always lies within its
 * caller. Every <rect> carries data-name, data-calls and data-ticks (its
 * value) for anyone who wants to check. Nothing is left out for being
 * narrow: labels are, when less than three characters would fit.
 */
#include <stdlib.h>
#include <string.h>

#include "../bt.h"

#define SVG_W		1200.0
#define MARGIN		10.0
#define FRAME_H		16.0	/* one stack level, a 1 px gap included */
#define TOP		48.0	/* title and subtitle */
#define CHAR_W		6.7	/* 11 px monospace: a little over 0.6 em */

struct svg {
	FILE *f;
	struct bt_flame *fl;
	uint64_t root_value;
	double height;
	const char *what;	/* "time", "profile" or "calls" */
};

/* Text for XML content and attributes; bytes outside printable ASCII as
 * '?', so any name stays well-formed. At most 'max' characters. */
static void xml_text(FILE *f, const char *s, size_t max)
{
	for (size_t i = 0; s[i] && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else
			fputc(c >= 0x20 && c < 0x7f ? c : '?', f);
	}
}

/*
 * A warm colour for the frame's module: the name up to its first '_',
 * leading underscores skipped ("sensor_read" -> "sensor"). Hue 0-55
 * degrees (red to orange-yellow), saturation and lightness from the same
 * hash, so one module keeps one colour across graphs.
 */
static void colour(const struct bt_flame *fl, uint32_t i, char *buf, size_t n)
{
	const char *name = fl->n[i].name, *p = name;
	uint64_t h = 1469598103934665603ull;

	if (i < BT_FLAME_ROOTS || !strncmp(name, "CPU ", 4)) {
		snprintf(buf, n, "rgb(%d,%d,%d)", i < BT_FLAME_ROOTS ? 208 : 188, 200, 196);
		return;
	}
	while (*p == '_')
		p++;
	for (; *p && *p != '_'; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	double hue = (double)(h % 56), s = 0.70 + (double)((h >> 16) % 26) / 100,
	       l = 0.52 + (double)((h >> 32) % 15) / 100;
	/* HSL to RGB where hue < 60 and lightness > 1/2: red is the largest
	 * component, blue the smallest, green in between by the hue. */
	double c = (2 - 2 * l) * s, m = l - c / 2, x = c * hue / 60;

	snprintf(buf, n, "rgb(%d,%d,%d)", (int)((c + m) * 255), (int)((x + m) * 255),
		 (int)(m * 255));
}

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
	xml_text(g->f, n->name, 4096);
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

/* Draws frame i at 'offset' (in value units from the root's left edge). */
static void draw(struct svg *g, uint32_t i, unsigned depth, uint64_t offset)
{
	const struct bt_fnode *n = &g->fl->n[i];
	double scale = (SVG_W - 2 * MARGIN) / (double)g->root_value;
	double x = MARGIN + (double)offset * scale, w = (double)n->value * scale;
	double y = g->height - MARGIN - (depth + 1) * FRAME_H;
	char fill[32];
	size_t fits = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0, len = strlen(n->name);
	uint32_t *kids = NULL;
	size_t nk = 0, cap = 0;

	colour(g->fl, i, fill, sizeof(fill));
	fputs("<g class=\"f\">", g->f);
	title(g, i);
	fprintf(g->f, "<rect x=\"%.4f\" y=\"%.1f\" width=\"%.4f\" height=\"%.1f\" fill=\"%s\" "
		"data-name=\"", x, y, w, FRAME_H - 1, fill);
	xml_text(g->f, n->name, 4096);
	fprintf(g->f, "\" data-calls=\"%llu\" data-ticks=\"%llu\" data-depth=\"%u\"/>",
		(unsigned long long)n->calls, (unsigned long long)n->value, depth);
	if (fits >= 3) {
		fprintf(g->f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 4.5);
		xml_text(g->f, n->name, len > fits ? fits - 2 : len);
		fputs(len > fits ? "..</text>" : "</text>", g->f);
	}
	fputs("</g>\n", g->f);
	for (uint32_t c = n->child; c; c = g->fl->n[c].next) {
		kids = bt_grow(kids, &cap, nk + 1, sizeof(*kids));
		kids[nk++] = c;
	}
	sorting = g->fl;
	if (nk)
		qsort(kids, nk, sizeof(*kids), by_name);
	for (size_t k = 0; k < nk; k++) {
		draw(g, kids[k], depth + 1, offset);
		offset += g->fl->n[kids[k]].value;
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
	unsigned depth = depth_of(fl, fl->root);

	g->root_value = fl->n[fl->root].value;
	g->what = fl->root == BT_FLAME_GRAPH ? "time" : fl->root == BT_FLAME_OTHER ? "profile" :
									       "calls";
	g->height = TOP + (depth + 1) * FRAME_H + 2 * MARGIN;
	fprintf(g->f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n<title>baretrace flame graph: ",
		SVG_W, g->height, SVG_W, g->height);
	xml_text(g->f, head, 200);
	fprintf(g->f, "</title>\n<style>\n"
		"text { font-family: monospace; font-size: 11px; fill: #000; }\n"
		"text.head { font-size: 15px; }\n"
		".f:hover rect { stroke: #000; stroke-width: 0.7; }\n"
		"</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff9ef\"/>\n"
		"<text class=\"head\" x=\"%.0f\" y=\"22\" text-anchor=\"middle\">", SVG_W, g->height,
		SVG_W / 2);
	xml_text(g->f, head, 200);
	fprintf(g->f, "</text>\n<text x=\"%.0f\" y=\"40\" text-anchor=\"middle\">", SVG_W / 2);
	xml_text(g->f, trace, 200);
	fprintf(g->f, ": %s; hover a frame for its numbers</text>\n",
		fl->per_cpu ? "each CPU on a \"CPU n\" frame" : "all CPUs merged");
	if (g->root_value)
		draw(g, fl->root, 0, 0);
	else
		fprintf(g->f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no function "
			"records in the trace</text>\n", SVG_W / 2, g->height - MARGIN - 4);
	fputs("</svg>\n", g->f);
}

int bt_export_svg(const char *trace, const char *elf, const char *out, int per_cpu)
{
	static struct bt_decoder d;
	static struct bt_flame fl;
	struct svg g = { .fl = &fl };
	int rc = bt_flame_read(&fl, &d, trace, elf, per_cpu);

	if (!rc) {
		g.f = fopen(out, "w");
		if (!g.f)
			bt_die(BT_EXIT_INPUT, "cannot create %s", out);
		if (!fl.n[fl.root].value)
			bt_warn("no function records: %s has no frames", out);
		write_svg(&g, trace);
		if (fclose(g.f))
			bt_die(BT_EXIT_INPUT, "error writing %s", out);
	}
	bt_flame_free(&fl);
	bt_dec_free(&d);
	return rc;
}
