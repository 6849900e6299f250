/* Checks a submission's source and compiled object before any of its code runs (vet.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit_types.h"
#include "vet.h"

/* A growable list of strings. */
typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static int push(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    return (l->v[l->n] = strdup(s)) ? (int)(l->n++ * 0) : -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has(char *const *v, size_t n, const char *s)
{
    return n && bsearch(&s, v, n, sizeof *v, cmp_str) != NULL;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void vet_object_free(vet_object *o)
{
    free_list(o->undefined, o->nundefined);
    free_list(o->defined, o->ndefined);
    free_list(o->ifuncs, o->nifuncs);
    memset(o, 0, sizeof *o);
}

/* Runs a trusted tool (argv, found in PATH) and hands each line of its stdout to fn; returns its exit status or -1. */
static int each_line(char *const argv[], void (*fn)(const char *line, void *arg), void *arg)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        int null = open("/dev/null", O_WRONLY); /* the tools' complaints: a failure is told by the exit status */
        if (null >= 0)
            dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        fn(line, arg);
    }
    if (f)
        fclose(f);
    else
        close(fds[0]);
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* What the nm and readelf readers fill. */
typedef struct reading {
    strlist undefined, defined, ifuncs;
    long long load_time_bytes;
    int failed;
} reading;

/* One line of `nm -P`: "name type [value size]". */
static void nm_line(const char *line, void *arg)
{
    reading *r = arg;
    char name[2048], type;
    if (sscanf(line, "%2047s %c", name, &type) != 2)
        return;
    /* U, w and v are references (w and v weak ones); i an ifunc; the other letters definitions */
    strlist *l = type == 'U' || type == 'w' || type == 'v' ? &r->undefined : type == 'i' ? &r->ifuncs : &r->defined;
    if (push(l, name) != 0)
        r->failed = 1;
}

/* One line of `readelf -S -W`: "[Nr] Name Type Address Off Size ...". Sums the load-time sections. */
static void section_line(const char *line, void *arg)
{
    static const char *const load_time[] = {".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors", ".init", ".fini"};
    reading *r = arg;
    const char *close = strchr(line, ']');
    char name[512], type[64];
    unsigned long long addr, off, size;
    if (!close || sscanf(close + 1, "%511s %63s %llx %llx %llx", name, type, &addr, &off, &size) != 5)
        return;
    for (size_t i = 0; i < sizeof load_time / sizeof load_time[0]; i++) {
        size_t n = strlen(load_time[i]);
        if (strncmp(name, load_time[i], n) == 0 && (name[n] == '\0' || name[n] == '.'))
            r->load_time_bytes += (long long)size;
    }
}

/* Moves a list into a sorted array. */
static char **sorted(strlist *l, size_t *n)
{
    qsort(l->v, l->n, sizeof *l->v, cmp_str);
    *n = l->n;
    return l->v;
}

int vet_object_read(const char *path, int dynamic, vet_object *out, char *why, size_t len)
{
    reading r;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    char *nm[] = {"nm", "-P", dynamic ? "-D" : "-g", (char *)path, NULL};
    if (each_line(nm, nm_line, &r) != 0 || r.failed) {
        free_list(r.undefined.v, r.undefined.n);
        free_list(r.defined.v, r.defined.n);
        free_list(r.ifuncs.v, r.ifuncs.n);
        return kit_err(why, len, "could not list the symbols of %s (is binutils' nm installed?)", path);
    }
    if (!dynamic) {
        char *readelf[] = {"readelf", "-S", "-W", (char *)path, NULL};
        each_line(readelf, section_line, &r); /* an archive lists each member's sections; only objects matter */
    }
    out->undefined = sorted(&r.undefined, &out->nundefined);
    out->defined = sorted(&r.defined, &out->ndefined);
    out->ifuncs = sorted(&r.ifuncs, &out->nifuncs);
    out->load_time_bytes = r.load_time_bytes;
    return 0;
}

/* ---- the kit's own objects, read once and kept as text in the work folder ----------------------- */

/* The line that names what a cache file holds: the file's path, identity and times, and the reading's mode. */
static int cache_key(const char *path, int dynamic, char *key, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    snprintf(key, len, "kit-vet-syms 1 %d %llu %llu %lld %lld.%09ld %s", dynamic, (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
             path);
    return 0;
}

/* s without its line end. */
static char *chomp(char *s)
{
    s[strcspn(s, "\n")] = '\0';
    return s;
}

/* Reads a cache file written by cache_write() for `key`; returns 0, or -1 when it is missing, stale or damaged. */
static int cache_read(const char *file, const char *key, vet_object *out)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return -1;
    reading r;
    memset(&r, 0, sizeof r);
    char *line = NULL;
    size_t cap = 0;
    int ok = getline(&line, &cap, f) > 0 && strcmp(chomp(line), key) == 0 && getline(&line, &cap, f) > 0 &&
             sscanf(line, "load %lld", &r.load_time_bytes) == 1;
    while (ok && getline(&line, &cap, f) > 0) {
        chomp(line);
        strlist *l = line[0] == 'U' ? &r.undefined : line[0] == 'D' ? &r.defined : line[0] == 'I' ? &r.ifuncs : NULL;
        ok = l && line[1] == ' ' && line[2] && push(l, line + 2) == 0;
    }
    free(line);
    ok = ok && !ferror(f);
    fclose(f);
    if (!ok) {
        free_list(r.undefined.v, r.undefined.n);
        free_list(r.defined.v, r.defined.n);
        free_list(r.ifuncs.v, r.ifuncs.n);
        return -1;
    }
    out->undefined = sorted(&r.undefined, &out->nundefined);
    out->defined = sorted(&r.defined, &out->ndefined);
    out->ifuncs = sorted(&r.ifuncs, &out->nifuncs);
    out->load_time_bytes = r.load_time_bytes;
    return 0;
}

/* Writes o under `key` into a file of its own, then renames it to `file` (graders may share the folder). */
static void cache_write(const char *file, const char *key, const vet_object *o)
{
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", file);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd), unlink(tmp);
        return;
    }
    fprintf(f, "%s\nload %lld\n", key, o->load_time_bytes);
    for (size_t i = 0; i < o->nundefined; i++)
        fprintf(f, "U %s\n", o->undefined[i]);
    for (size_t i = 0; i < o->ndefined; i++)
        fprintf(f, "D %s\n", o->defined[i]);
    for (size_t i = 0; i < o->nifuncs; i++)
        fprintf(f, "I %s\n", o->ifuncs[i]);
    if (fclose(f) != 0 || rename(tmp, file) != 0)
        unlink(tmp);
}

int vet_object_read_kept(const char *path, int dynamic, const char *dir, vet_object *out, char *why, size_t len)
{
    char key[4400], file[4300];
    if (cache_key(path, dynamic, key, sizeof key) != 0 || strlen(path) > 4000)
        return vet_object_read(path, dynamic, out, why, len);
    unsigned long long h = 14695981039346656037ull; /* FNV-1a of the key: the file's name; the file holds the key itself */
    for (const char *c = key; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    snprintf(file, sizeof file, "%s/syms-%016llx", dir, h);
    memset(out, 0, sizeof *out);
    if (cache_read(file, key, out) == 0)
        return 0;
    if (vet_object_read(path, dynamic, out, why, len) != 0)
        return -1;
    cache_write(file, key, out);
    return 0;
}

/* Is s among the symbols of any of the n objects, in the list that field selects? */
static int in_any(const vet_object *objs, size_t n, int defined, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (defined ? has(objs[i].defined, objs[i].ndefined, s) : has(objs[i].undefined, objs[i].nundefined, s))
            return 1;
    return 0;
}

/* Where vet_tool_first_line() keeps the first line. */
typedef struct first_line {
    char *buf;
    size_t len;
} first_line;

static void keep_first(const char *line, void *arg)
{
    first_line *f = arg;
    if (!f->buf[0])
        snprintf(f->buf, f->len, "%s", line);
}

int vet_tool_first_line(char *const argv[], char *buf, size_t len)
{
    first_line f = {buf, len};
    buf[0] = '\0';
    return each_line(argv, keep_first, &f) == 0 && buf[0] ? 0 : -1;
}

/* A name's C++ spelling, as c++filt prints it, into buf; the name itself when that fails. */
static const char *demangled(const char *name, char buf[256])
{
    char *argv[] = {"c++filt", (char *)name, NULL};
    if (vet_tool_first_line(argv, buf, 256) != 0)
        snprintf(buf, 256, "%s", name);
    return buf;
}

/*
 * Is s a call the compiler makes by itself: the memcpy family for copies and fills of any object,
 * the checked memory's hooks that the CPU build's instrumentation calls before a load or store or
 * for an index out of an array's bounds (common/kit_cpu_mem.h), or the cheaper form it turns an
 * allowed call into (printf("x\n") into puts, fprintf into fputs)?
 */
static int compiler_made(const char *s, const vet_object *allowed, size_t nallowed)
{
    static const char *const always[] = {"memcmp", "memcpy", "memmove", "memset", "__ubsan_handle_out_of_bounds"};
    if (strncmp(s, "__tsan_", 7) == 0)
        return 1;
    static const char *const forms[][2] = {{"puts", "printf"}, {"putchar", "printf"}, {"fputs", "fprintf"},
                                           {"fputc", "fprintf"}, {"fwrite", "fprintf"}};
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        if (strcmp(s, always[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strcmp(s, forms[i][0]) == 0 && in_any(allowed, nallowed, 0, forms[i][1]))
            return 1;
    return 0;
}

/* Why a definition of a reserved name is refused, in the source check and the object check alike. */
#define RESERVED_WHY "C++ reserves names that begin with __ or with _ and a capital letter for the compiler and CUDA"

/* Does the identifier at p (n characters) begin as C++ reserves for the implementation: __, or _ and a capital? */
static int reserved_word(const char *p, size_t n)
{
    return n >= 2 && p[0] == '_' && (p[1] == '_' || isupper((unsigned char)p[1]));
}

/* Could the mangled name s hold a reserved identifier (a length, then __ or _ and a capital)? Saves running c++filt. */
static int may_name_reserved(const char *s)
{
    for (; *s; s++)
        if (isdigit((unsigned char)s[0]) && s[1] == '_' && (s[2] == '_' || isupper((unsigned char)s[2])))
            return 1;
    return 0;
}

/*
 * The reserved name that a demangled definition names, or NULL. Only the defined name counts (its
 * namespaces, classes and own name): the parts inside <...> and (...) are types it uses. The host
 * stubs nvcc writes for a kernel (__device_stub__...) are the compiler's, not the file's.
 */
static const char *reserved_in(const char *demangled, char word[256])
{
    int depth = 0;
    for (const char *p = demangled; *p && depth >= 0; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if (*p == '>' || *p == ')')
            depth--;
        else if (depth == 0 && (isalpha((unsigned char)*p) || *p == '_') &&
                 (p == demangled || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
            size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
            if (reserved_word(p, n) && strncmp(p, "__device_stub__", 15) != 0) {
                snprintf(word, 256, "%.*s", (int)(n < 255 ? n : 255), p);
                return word;
            }
            p += n - 1;
        }
    }
    return NULL;
}

int vet_compare(const vet_object *student, const vet_object *allowed, size_t nallowed, const vet_object *libs,
                size_t nlibs, char *why, size_t len)
{
    const vet_object *baseline = &allowed[0];
    char name[256];
    if (student->load_time_bytes > baseline->load_time_bytes)
        return kit_err(why, len, "not accepted: the file runs code at load or exit time (a constructor, a destructor, "
                                "or a global with a dynamic initializer)");
    if (student->nifuncs > baseline->nifuncs)
        return kit_err(why, len, "not accepted: the file defines %s as an ifunc, whose resolver runs at load time",
                      student->ifuncs[0]);
    for (size_t i = 0; i < student->nundefined; i++) {
        const char *s = student->undefined[i];
        if (!compiler_made(s, allowed, nallowed) && !in_any(allowed, nallowed, 0, s))
            return kit_err(why, len, "not accepted: the file uses %s, which is neither the lab API nor used by the "
                                    "lab's own code", demangled(s, name));
    }
    for (size_t i = 0; i < student->ndefined; i++) {
        const char *s = student->defined[i];
        if (in_any(allowed, nallowed, 1, s))
            continue;
        char word[256];
        if (strncmp(s, "_Z", 2) == 0 && may_name_reserved(s) && reserved_in(demangled(s, name), word))
            return kit_err(why, len, "not accepted: the file defines %s, and " RESERVED_WHY " (here: %s)", name, word);
        if (strncmp(s, "_Z", 2) != 0)
            return kit_err(why, len, "not accepted: the file defines %s, a name outside C++'s (extern \"C\" or a "
                                    "global of C), which could replace a library's", s);
        if (in_any(libs, nlibs, 1, s))
                return kit_err(why, len, "not accepted: the file defines %s, which a library the runner links "
                                        "already defines", demangled(s, name));
    }
    return 0;
}

/* ---- the source -------------------------------------------------------------- */

/* Words no lab file may write, with the reason shown to the student. */
static const char *forbidden_word(const char *word)
{
    static const char *const words[][2] = {
        {"asm", "inline assembly"},
        {"__asm", "inline assembly"},
        {"__asm__", "inline assembly"},
        {"syscall", "system calls"},
        {"std", "the C++ standard library (it does not run on a GPU)"},
        {"__attribute__", "attributes (constructors, aliases, sections)"},
        {"__declspec", "attributes"},
        {"__builtin_frame_address", "stack inspection"},
        {"__builtin_return_address", "stack inspection"},
        {"__builtin_extract_return_addr", "stack inspection"},
        {"dlsym", "looking up symbols at run time"},
        {"dlopen", "loading libraries"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(word, words[i][0]) == 0)
            return words[i][1];
    return NULL;
}

/*
 * Names a lab file may not write, whoever declares them: the kit's own (kit_...) but its public
 * lab API, and the harness's (labNN_...). Together with the object check, this keeps a student's
 * code away from everything the harness can reach: the references that stage a measurement, the
 * trace and the counters.
 */
static const char *forbidden_name(const char *word)
{
    static const char *const public_api[] = {"kit_shared",          "kit_shared_cast", "kit_value",    "kit_value_t",    "kit_gcd",
                                             "kit_key",             "kit_key_t",       "kit_kv32",     "kit_not_implemented",
                                             "kit_cpu_thread_idx",  "kit_cpu_block_idx", "kit_cpu_block_dim", "kit_cpu_grid_dim"};
    if (strncmp(word, "kit_", 4) == 0 || strncmp(word, "KIT_", 4) == 0) {
        for (size_t i = 0; i < sizeof public_api / sizeof public_api[0]; i++)
            if (strcmp(word, public_api[i]) == 0)
                return NULL;
        return "the kit's internals (only kit_lab.h's API is for lab code)";
    }
    if (strncmp(word, "lab", 3) == 0 && isdigit((unsigned char)word[3]) && isdigit((unsigned char)word[4]) && word[5] == '_')
        return "the harness's functions";
    return NULL;
}

/* The state of a walk through the preprocessed source. */
typedef struct walk {
    const char *student;      /* the student file's name in line markers */
    const char *const *allowed, *const *dirs;
    char current[4096];       /* the file the following lines come from */
    long line;                /* their line number there */
    /* A definition of a reserved name, NAME ( ... ) qualifiers {, followed across lines: 0 nothing,
       1 after a reserved word, 2 inside its parentheses (depth deep), 3 after them */
    int def, deep;
    char def_word[64];
} walk;

static int in_dirs(const char *path, const char *const *dirs)
{
    for (; *dirs; dirs++) {
        size_t n = strlen(*dirs);
        if (strncmp(path, *dirs, n) == 0 && path[n] == '/')
            return 1;
    }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A line marker `# N "file" flags`: follows the file, and checks what the student's file includes. */
static int marker(walk *w, const char *p, char *why, size_t len)
{
    char *end;
    long line = strtol(p, &end, 10);
    const char *q = strchr(end, '"');
    if (!q)
        return 0;
    char file[4096];
    size_t n = 0;
    for (q++; *q && *q != '"' && n + 1 < sizeof file; q++)
        file[n++] = *q == '\\' && q[1] ? *++q : *q;
    file[n] = '\0';
    int entering = strstr(q, " 1") != NULL;
    if (entering && strcmp(w->current, w->student) == 0) {
        int ok = in_dirs(file, w->dirs);
        for (const char *const *a = w->allowed; ok && *a; a++)
            if (strcmp(base_name(file), *a) == 0)
                ok = 2;
        if (ok != 2)
            return kit_err(why, len, "%s:%ld: not accepted: includes %s; a lab file may include only kit_lab.h, the "
                                    "earlier labs' files its lab uses and a few C headers (stdint.h, stddef.h, "
                                    "limits.h, stdbool.h, float.h)", base_name(w->student), w->line - 1, file);
    }
    snprintf(w->current, sizeof w->current, "%s", file);
    w->line = line;
    return 0;
}

/*
 * Follows one token (a word, or one character of punctuation) through the states of walk.def;
 * returns -1 after setting why when it completes a function definition whose name C++ reserves
 * (__syncthreads() { } would stand in for CUDA's barrier). Uses never end in a brace: a call is
 * followed by ;, an operator or a parenthesis.
 */
static int reserved_definition(walk *w, const char *word, char c, char *why, size_t len)
{
    if (word) {
        if (w->def == 2 || w->def == 3)
            return 0; /* a parameter's words, or qualifiers such as const and noexcept */
        w->def = reserved_word(word, strlen(word));
        if (w->def)
            snprintf(w->def_word, sizeof w->def_word, "%s", word);
        return 0;
    }
    if (c == '(' && (w->def == 1 || w->def == 2)) {
        w->deep = w->def == 1 ? 1 : w->deep + 1;
        w->def = 2;
    } else if (c == ')' && w->def == 2) {
        w->def = --w->deep == 0 ? 3 : 2;
    } else if (c == '{' && w->def == 3) {
        return kit_err(why, len, "%s:%ld: not accepted: the file defines %s, and " RESERVED_WHY, base_name(w->student),
                       w->line, w->def_word);
    } else if (w->def != 2 && !(w->def == 3 && strchr("-:>*&", c))) {
        w->def = 0;
    }
    return 0;
}

/* A line of the student's own code: every word, outside string and character literals. */
static int words(walk *w, const char *p, char *why, size_t len)
{
    const char *s = p + strspn(p, " \t");
    if (*s == '#') {
        s += 1 + strspn(s + 1, " \t");
        if (strncmp(s, "pragma", 6) == 0) {
            s += 6 + strspn(s + 6, " \t");
            if (strncmp(s, "once", 4) != 0 && strncmp(s, "unroll", 6) != 0 && strncmp(s, "GCC unroll", 10) != 0)
                return kit_err(why, len, "%s:%ld: not accepted: #pragma %.40s", base_name(w->student), w->line, s);
        }
        return 0;
    }
    while (*p) {
        if (*p == '"' || *p == '\'') { /* a literal: skip to its closing quote */
            char quote = *p++;
            while (*p && *p != quote)
                p += *p == '\\' && p[1] ? 2 : 1;
            p += *p != '\0';
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            char word[64];
            size_t n = 0;
            while (isalnum((unsigned char)*p) || *p == '_') {
                if (n + 1 < sizeof word)
                    word[n++] = *p;
                p++;
            }
            word[n] = '\0';
            const char *what = forbidden_word(word);
            if (!what)
                what = forbidden_name(word);
            if (what)
                return kit_err(why, len, "%s:%ld: not accepted: '%s': %s is not allowed in lab code",
                              base_name(w->student), w->line, word, what);
            if (reserved_definition(w, word, 0, why, len) != 0)
                return -1;
        } else {
            if (!isspace((unsigned char)*p) && reserved_definition(w, NULL, *p, why, len) != 0)
                return -1;
            p++;
        }
    }
    return 0;
}

int vet_source(const char *preprocessed, const char *student, const char *const *allowed, const char *const *dirs,
               char *why, size_t len)
{
    FILE *f = fopen(preprocessed, "r");
    if (!f)
        return kit_err(why, len, "the grader could not read the preprocessed source");
    walk w = {student, allowed, dirs, "", 0, 0, 0, ""};
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' && line[1] == ' ' && isdigit((unsigned char)line[2]))
            rc = marker(&w, line + 2, why, len);
        else {
            if (strcmp(w.current, student) == 0)
                rc = words(&w, line, why, len);
            w.line++;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

/* One line of `readelf -l -W`: adds a LOAD segment's memory size (its 6th field). */
static void load_line(const char *line, void *arg)
{
    char type[32];
    unsigned long long off, vaddr, paddr, filesz, memsz;
    if (sscanf(line, " %31s %llx %llx %llx %llx %llx", type, &off, &vaddr, &paddr, &filesz, &memsz) == 6 &&
        strcmp(type, "LOAD") == 0)
        *(long long *)arg += (long long)memsz;
}

long long vet_loaded_bytes(const char *exe)
{
    long long bytes = 0;
    char *argv[] = {"readelf", "-l", "-W", (char *)exe, NULL};
    return each_line(argv, load_line, &bytes) == 0 ? bytes : -1;
}
