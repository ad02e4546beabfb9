/*
 * tools/baretrace/output/json.c: the pieces of JSON that export_chrome.c writes
 * by hand, with the escaping that keeps any name from the wire valid.
 */
#include "../bt.h"

void bt_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);	/* Latin-1 */
		else
			fputc(*p, f);
	}
	fputc('"', f);
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
