/*
 * tools/baretrace/output/ci/junit.c: writes JUnit XML (the shape: junit.h).
 *
 * Names and texts come from a target's console and from symbol names, so
 * anything may be in them: escaping keeps the file well-formed XML 1.0
 * in UTF-8 whatever the bytes (a consumer that meets one bad byte
 * usually drops the whole report). The file is written only once every
 * case is known; a write that fails leaves no file behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "../../base/util.h"

#include "junit.h"

static char *dup_or_null(const char *s)
{
	return s ? bt_strndup(s, strlen(s)) : NULL;
}

struct bt_junit_case *bt_junit_add(struct bt_junit *j, const char *suite, const char *name,
				   int state, const char *message, const char *text)
{
	struct bt_junit_case *c;

	j->v = bt_grow(j->v, &j->cap, j->n + 1, sizeof(*j->v));
	c = &j->v[j->n++];
	memset(c, 0, sizeof(*c));
	c->suite = dup_or_null(suite);
	c->name = dup_or_null(name);
	c->state = state;
	c->message = dup_or_null(message);
	c->text = dup_or_null(text);
	return c;
}

void bt_junit_free(struct bt_junit *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->v[i].suite);
		free(j->v[i].name);
		free(j->v[i].message);
		free(j->v[i].text);
		free(j->v[i].out);
	}
	free(j->v);
	memset(j, 0, sizeof(*j));
}

/* Length of the UTF-8 sequence at s that XML 1.0 accepts as one
 * character (RFC 3629: no overlong forms, no surrogates, nothing past
 * U+10FFFF; XML: not U+FFFE or U+FFFF), or 0. s[0] >= 0x80. */
static int utf8_char(const unsigned char *s)
{
	unsigned char b = s[0], lo = 0x80, hi = 0xbf;
	int n;

	if (b >= 0xc2 && b <= 0xdf)
		n = 2;
	else if (b >= 0xe0 && b <= 0xef)
		n = 3;
	else if (b >= 0xf0 && b <= 0xf4)
		n = 4;
	else
		return 0;
	if (b == 0xe0)
		lo = 0xa0;
	else if (b == 0xed)
		hi = 0x9f;
	else if (b == 0xf0)
		lo = 0x90;
	else if (b == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	if (b == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf))
		return 0;
	return n;
}

void bt_xml_escape(FILE *f, const char *str, int attr)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		int n;

		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs(attr ? "&quot;" : "\"", f); break;
		/* In an attribute a raw tab or line break would be read back
		 * as a space (attribute-value normalisation). */
		case '\t': fputs(attr ? "&#9;" : "\t", f); break;
		case '\n': fputs(attr ? "&#10;" : "\n", f); break;
		case '\r': fputs("&#13;", f); break;
		default:
			if (*s >= 0x20 && *s < 0x80) {
				fputc(*s, f);
				break;
			}
			n = *s >= 0x80 ? utf8_char(s) : 0;
			if (n) {
				fwrite(s, 1, (size_t)n, f);
				s += n;
				continue;
			}
			/* Not a character XML 1.0 allows, or not UTF-8:
			 * said as text, so nothing is lost from view. */
			fprintf(f, "\\x%02x", *s);
		}
		s++;
	}
}

int bt_junit_check_path(const char *path, const char *who)
{
	struct stat st;
	char *dir, *slash;
	int ok;

	if (!*path) {
		fprintf(stderr, "baretrace: %s: --junit needs a file name\n", who);
		return BT_EXIT_INPUT;
	}
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode) || access(path, W_OK)) {
			fprintf(stderr, "baretrace: %s: cannot write the JUnit file %s: %s\n", who,
				path, S_ISDIR(st.st_mode) ? "a directory" : strerror(errno));
			return BT_EXIT_INPUT;
		}
		return 0;
	}
	dir = bt_strndup(path, strlen(path));
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else
		slash[slash == dir] = 0;	/* "/f": "/" */
	ok = !access(dir, W_OK | X_OK);
	if (!ok)
		fprintf(stderr, "baretrace: %s: cannot write the JUnit file %s: %s: %s\n", who, path,
			dir, strerror(errno));
	free(dir);
	return ok ? 0 : BT_EXIT_INPUT;
}

static void counts(const struct bt_junit_case *c, size_t n, size_t *fail, size_t *skip)
{
	*fail = *skip = 0;
	for (size_t i = 0; i < n; i++) {
		*fail += c[i].state == BT_JUNIT_FAIL;
		*skip += c[i].state == BT_JUNIT_SKIP;
	}
}

static void write_case(FILE *f, const struct bt_junit_case *c)
{
	fputs("    <testcase classname=\"", f);
	bt_xml_escape(f, c->suite, 1);
	fputs("\" name=\"", f);
	bt_xml_escape(f, c->name, 1);
	fputs("\" time=\"0\"", f);
	if (c->state == BT_JUNIT_PASS && !c->out) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (c->state != BT_JUNIT_PASS) {
		fputs(c->state == BT_JUNIT_FAIL ? "      <failure type=\"failure\" message=\""
						: "      <skipped message=\"", f);
		bt_xml_escape(f, c->message ? c->message : "", 1);
		if (c->state == BT_JUNIT_SKIP) {
			fputs("\"/>\n", f);
		} else {
			fputs("\">", f);
			bt_xml_escape(f, c->text ? c->text : "", 0);
			fputs("</failure>\n", f);
		}
	}
	if (c->out) {
		fputs("      <system-out>", f);
		bt_xml_escape(f, c->out, 0);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

static void write_all(FILE *f, const struct bt_junit *j, const char *name)
{
	size_t fail, skip;

	counts(j->v, j->n, &fail, &skip);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	bt_xml_escape(f, name, 1);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
		j->n, fail, skip);
	for (size_t i = 0, end; i < j->n; i = end) {
		for (end = i + 1; end < j->n && !strcmp(j->v[end].suite, j->v[i].suite); end++)
			;
		counts(j->v + i, end - i, &fail, &skip);
		fputs("  <testsuite name=\"", f);
		bt_xml_escape(f, j->v[i].suite, 1);
		fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" "
			"time=\"0\">\n", end - i, fail, skip);
		for (size_t k = i; k < end; k++)
			write_case(f, &j->v[k]);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
}

int bt_junit_write(const struct bt_junit *j, const char *path, const char *name,
		   const char *who)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		fprintf(stderr, "baretrace: %s: cannot write the JUnit file %s: %s\n", who, path,
			strerror(errno));
		return BT_EXIT_INPUT;
	}
	write_all(f, j, name);
	err = ferror(f);
	if (fclose(f) || err) {
		fprintf(stderr, "baretrace: %s: writing the JUnit file %s failed: %s\n", who, path,
			strerror(errno));
		remove(path);
		return BT_EXIT_INPUT;
	}
	return 0;
}
