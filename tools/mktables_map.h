/* tools/mktables_map.h: the folder of each function, from a link map
 * (mktables_map.c). */
#ifndef TOOLS_MKTABLES_MAP_H
#define TOOLS_MKTABLES_MAP_H

#include <stddef.h>

#define MAP_FOLDERS_MAX	255

/* Reads the GNU ld map at 'path' and sets folder[i] to the index in
 * names[] of the folder of the object that holds address addrs[i]:
 * the first folder of the object's path under the build's obj/ folder
 * ("boot", "kernel", "drivers", ...), "app" for the application's
 * objects, "other" for anything else (library members, no object).
 * names[] gets at most MAP_FOLDERS_MAX entries, in order of first use;
 * returns how many, or dies with a message on a map it cannot read. */
size_t map_folders(const char *path, const unsigned long *addrs, size_t n,
		   unsigned char *folder, const char **names);

#endif /* TOOLS_MKTABLES_MAP_H */
