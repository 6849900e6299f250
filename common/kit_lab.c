/* The "not implemented" marker that skeletons call, and the type helpers of kit_types.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kit_lab.h"

static char not_implemented_task[128];
static int announced; /* stderr hears about it once per process, however often tests reset */

void kit_not_implemented(const char *task)
{
    if (not_implemented_task[0] != '\0')
        return; /* record the first task only; later calls add nothing */
    snprintf(not_implemented_task, sizeof not_implemented_task, "%s", task ? task : "?");
    if (!announced)
        fprintf(stderr, "not implemented: %s\n", not_implemented_task);
    announced = 1;
}

const char *kit_not_implemented_task(void)
{
    return not_implemented_task[0] ? not_implemented_task : NULL;
}

void kit_not_implemented_reset(void)
{
    not_implemented_task[0] = '\0';
}

size_t kit_type_size(kit_type t)
{
    switch (t) {
    case KIT_TYPE_I32: return sizeof(int32_t);
    case KIT_TYPE_I64: return sizeof(int64_t);
    case KIT_TYPE_KV32: return sizeof(kit_kv32);
    }
    return 0;
}

const char *kit_type_name(kit_type t)
{
    switch (t) {
    case KIT_TYPE_I32: return "i32";
    case KIT_TYPE_I64: return "i64";
    case KIT_TYPE_KV32: return "kv32";
    }
    return "?";
}

int kit_type_parse(const char *name, kit_type *out)
{
    static const kit_type all[] = {KIT_TYPE_I32, KIT_TYPE_I64, KIT_TYPE_KV32};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (name && strcmp(name, kit_type_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    }
    return -1;
}

int kit_name_index(const char *const *names, int count, const char *name)
{
    for (int i = 0; name && i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const char *kit_name_at(const char *const *names, int count, int i)
{
    return i >= 0 && i < count ? names[i] : "?";
}

int kit_err(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && len)
        vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* The comparisons counted on kit_counted keys (kit_counted.h): here, in the library, where lab code cannot reach them. */
long long kit_comparisons_add(int made)
{
    static long long comparisons;
    return comparisons += made;
}
