/*
 * tools/baretrace/output/render/json.c: the pieces of JSON that
 * export_chrome.c writes by hand, with the escaping that keeps any name
 * from the wire valid.
 */
#include <string.h>

#include "render.h"

void bt_json_strn(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"' || p[i] == '\\')
			fprintf(f, "\\%c", p[i]);
		else if (!p[i])
			fputc('?', f);			/* a NUL inside a field */
		else if (p[i] < 0x20 || p[i] >= 0x7f)
			fprintf(f, "\\u%04x", p[i]);	/* Latin-1 */
		else
			fputc(p[i], f);
	}
	fputc('"', f);
}

void bt_json_str(FILE *f, const char *s)
{
	bt_json_strn(f, s, strlen(s));
}

void bt_json_ns(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

void bt_json_args(FILE *f, const int64_t *v, unsigned n)
{
	fputs("\"args\":[", f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s\"0x%llx\"", i ? "," : "", (unsigned long long)v[i]);
	fputs("]", f);
}
