/*
 * tools/baretrace/output/export/svg_style.c: how export_svg.c's frames look: a
 * colour per module and names made safe inside XML.
 */
#include <string.h>

#include "../../model/flame.h"

#include "export.h"

/* Text for XML content and attributes; bytes outside printable ASCII as
 * '?', so any name stays well-formed. At most 'max' characters. */
void bt_svg_text(FILE *f, const char *s, size_t max)
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
 * A warm colour for the frame's module: the name up to its first '_' or
 * ':', leading underscores skipped ("sensor_read" -> "sensor", a C++
 * "Sensor::read() const" -> "Sensor"). Hue 0-55
 * degrees (red to orange-yellow), saturation and lightness from the same
 * hash, so one module keeps one colour across graphs.
 */
void bt_svg_colour(const struct bt_flame *fl, uint32_t i, char *buf, size_t n)
{
	const char *name = fl->n[i].name, *p = name;
	uint64_t h = 1469598103934665603ull;

	if (i < BT_FLAME_ROOTS || !strncmp(name, "CPU ", 4)) {
		snprintf(buf, n, "rgb(%d,%d,%d)", i < BT_FLAME_ROOTS ? 208 : 188, 200, 196);
		return;
	}
	while (*p == '_')
		p++;
	for (; *p && *p != '_' && *p != ':'; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	double hue = (double)(h % 56), s = 0.70 + (double)((h >> 16) % 26) / 100,
	       l = 0.52 + (double)((h >> 32) % 15) / 100;
	/* HSL to RGB where hue < 60 and lightness > 1/2: red is the largest
	 * component, blue the smallest, green in between by the hue. */
	double c = (2 - 2 * l) * s, m = l - c / 2, x = c * hue / 60;

	snprintf(buf, n, "rgb(%d,%d,%d)", (int)((c + m) * 255), (int)((x + m) * 255),
		 (int)(m * 255));
}
