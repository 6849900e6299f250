/*
 * The lab-file checker (labcheck.h): what a student's file may say is judged on its tokens and its
 * syntax tree, as CS:APP's dlc judges a datalab file, so that no macro, declaration, pointer or
 * call of the student's reaches what measures it. The tree is libclang's (LLVM 14), of the lab's
 * runner source parsed with the CPU build's flags; only code written in the student's file is
 * judged, and every entity it names from elsewhere must be one that grader/lab_api.cu names too.
 */
#define _GNU_SOURCE
#include "labcheck.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- a set of strings, each with flags and an optional note ------------------------------------- */

typedef struct sset_item {
    char *key;
    int flags;
    char *note;
    struct sset_item *next;
} sset_item;

typedef struct sset {
    sset_item **bucket;
    size_t nbuckets;
} sset;

static size_t sset_hash(const char *s)
{
    size_t h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)*s;
    return h;
}

static sset_item *sset_find(const sset *s, const char *key)
{
    if (!s->bucket || !key)
        return NULL;
    for (sset_item *it = s->bucket[sset_hash(key) % s->nbuckets]; it; it = it->next)
        if (strcmp(it->key, key) == 0)
            return it;
    return NULL;
}

/* Adds key (or ORs flags into it); the first note given stays. */
static void sset_add(sset *s, const char *key, int flags, const char *note)
{
    if (!s->bucket) {
        s->nbuckets = 4096;
        s->bucket = calloc(s->nbuckets, sizeof *s->bucket);
        if (!s->bucket)
            abort();
    }
    sset_item *it = sset_find(s, key);
    if (!it) {
        it = calloc(1, sizeof *it);
        if (!it || !(it->key = strdup(key)))
            abort();
        size_t b = sset_hash(key) % s->nbuckets;
        it->next = s->bucket[b];
        s->bucket[b] = it;
    }
    it->flags |= flags;
    if (note && !it->note && !(it->note = strdup(note)))
        abort();
}

static void sset_free(sset *s)
{
    for (size_t b = 0; s->bucket && b < s->nbuckets; b++)
        for (sset_item *it = s->bucket[b], *next; it; it = next) {
            next = it->next;
            free(it->key);
            free(it->note);
            free(it);
        }
    free(s->bucket);
    s->bucket = NULL;
}

/* ---- small helpers -------------------------------------------------------------------------------- */

/* The string of s, copied into buf, and s disposed. */
static const char *cxs(CXString s, char *buf, size_t len)
{
    const char *c = clang_getCString(s);
    snprintf(buf, len, "%s", c ? c : "");
    clang_disposeString(s);
    return buf;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static int starts_with(const char *s, const char *head)
{
    return strncmp(s, head, strlen(head)) == 0;
}

/* 1 when the two paths name one file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The directory of path, resolved, in out ("" when it cannot be). */
static void dir_of(const char *path, char *out, size_t len)
{
    char real[PATH_MAX];
    out[0] = '\0';
    if (!realpath(path, real))
        return;
    char *slash = strrchr(real, '/');
    if (slash)
        *slash = '\0';
    snprintf(out, len, "%s", real);
}

/* ---- what one check holds --------------------------------------------------------------------------- */

/* One refusal: the line of the student's file, the rule, and what was refused. */
typedef struct refusal {
    unsigned line;
    unsigned order;
    char rule[24];
    char *what;
} refusal;

/* A token of the student's file (or of the API file), as libclang's raw lexer sees it. */
typedef struct tok {
    CXTokenKind kind;
    char *text;     /* the spelling; punctuation without its line splices */
    unsigned start; /* byte offsets in the file */
    unsigned end;
    unsigned line;
    int bol; /* first token of a logical line (an unspliced newline since the previous token) */
} tok;

/* An #include of the translation unit: which file holds it, its line there, what it resolved to. */
typedef struct inclusion {
    CXFile from;
    unsigned line;
    CXFile to;
    char name[256]; /* as written */
} inclusion;

typedef struct directive directive;

typedef struct ctx {
    const labcheck_opts *o;
    CXIndex index;
    CXTranslationUnit tu;
    CXFile student;
    const char *student_base;
    CXFile uses[LABCHECK_MAX_FILES];
    CXFile given[64];
    int n_given;
    /* the student's file */
    const char *text;
    size_t size;
    tok *toks;
    unsigned n_toks;
    unsigned *macro_starts; /* offsets of the macro expansions written in it, ascending */
    directive *ds; /* its directives (the raw scan) */
    unsigned nd;
    unsigned n_macro_starts;
    inclusion *incs;
    unsigned n_incs;
    /* the lab API, from the API file */
    sset api;          /* keys of what it references: 1 written in it, 2 through a macro's body */
    sset api_fn;       /* qualified names of the functions it references */
    sset api_fn_short; /* the same, unqualified */
    sset api_members;  /* names of the members it references */
    sset api_reserved; /* reserved identifiers (__x, _X) it spells */
    char kit_dir[PATH_MAX];
    /* the student's translation unit, outside the student's file */
    sset outside;        /* namespace-scope names declared outside the student's file, noted with the file */
    sset outside_macros; /* macro names defined outside it */
    sset own_members;    /* member names declared in the student's, the uses and the given files */
    sset own_fn;         /* function names declared there */
    /* what was refused */
    refusal *refs;
    unsigned n_refs, cap_refs;
} ctx;

static void refuse(ctx *x, unsigned line, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void refuse(ctx *x, unsigned line, const char *rule, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    for (char *p = what; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    for (unsigned i = 0; i < x->n_refs; i++)
        if (x->refs[i].line == line && strcmp(x->refs[i].rule, rule) == 0 && strcmp(x->refs[i].what, what) == 0)
            return;
    if (x->n_refs == x->cap_refs) {
        x->cap_refs = x->cap_refs ? 2 * x->cap_refs : 32;
        x->refs = realloc(x->refs, x->cap_refs * sizeof *x->refs);
        if (!x->refs)
            abort();
    }
    refusal *r = &x->refs[x->n_refs];
    r->line = line;
    r->order = x->n_refs++;
    snprintf(r->rule, sizeof r->rule, "%s", rule);
    if (!(r->what = strdup(what)))
        abort();
}

/* ---- locations ----------------------------------------------------------------------------------- */

/* Where cursor c is, as written or expanded: its file, line and byte offset. */
static CXFile cursor_file(CXCursor c, unsigned *line, unsigned *offset)
{
    CXFile f = NULL;
    unsigned l = 0, off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &l, NULL, &off);
    if (line)
        *line = l;
    if (offset)
        *offset = off;
    return f;
}

static int in_file(CXFile f, CXFile g)
{
    return f && g && clang_File_isEqual(f, g);
}

static int is_student(const ctx *x, CXFile f)
{
    return in_file(f, x->student);
}

/* The student's, a uses or a given file: what is declared there may be called. */
static int is_allowed_file(const ctx *x, CXFile f)
{
    if (!f)
        return 0;
    if (is_student(x, f))
        return 1;
    for (int i = 0; i < x->o->n_uses; i++)
        if (in_file(f, x->uses[i]))
            return 1;
    for (int i = 0; i < x->n_given; i++)
        if (in_file(f, x->given[i]))
            return 1;
    return 0;
}

static int in_system_header(CXCursor c)
{
    return clang_Location_isInSystemHeader(clang_getCursorLocation(c));
}

/* The file position of c: for code from a macro's body, where the macro is expanded. */
static unsigned file_offset(CXCursor c)
{
    unsigned off = 0;
    clang_getFileLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
    return off;
}

static int has_offset(const unsigned *sorted, unsigned n, unsigned off)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (sorted[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && sorted[lo] == off;
}

/* ---- tokens ------------------------------------------------------------------------------------- */

/* Text of [a, b) of the file without its line splices (backslash, spaces, newline). */
static char *unspliced(const char *text, unsigned a, unsigned b)
{
    char *out = malloc(b - a + 1);
    if (!out)
        abort();
    size_t n = 0;
    for (unsigned i = a; i < b; i++) {
        if (text[i] == '\\') {
            unsigned j = i + 1;
            while (j < b && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'))
                j++;
            if (j < b && text[j] == '\n') {
                i = j;
                continue;
            }
        }
        out[n++] = text[i];
    }
    out[n] = '\0';
    return out;
}

/* 1 when the whitespace [a, b) holds a newline that no backslash splices away. */
static int breaks_line(const char *text, unsigned a, unsigned b)
{
    for (unsigned i = a; i < b; i++) {
        if (text[i] != '\n')
            continue;
        unsigned j = i;
        while (j > a && (text[j - 1] == ' ' || text[j - 1] == '\t' || text[j - 1] == '\r'))
            j--;
        if (!(j > a && text[j - 1] == '\\'))
            return 1;
    }
    return 0;
}

/* Every token of file f, comments included, lexed raw (so conditional code is seen too). */
static tok *lex_file(CXTranslationUnit tu, CXFile f, const char **text_out, size_t *size_out, unsigned *n_out)
{
    size_t size = 0;
    const char *text = clang_getFileContents(tu, f, &size);
    *text_out = text;
    *size_out = size;
    *n_out = 0;
    if (!text)
        return NULL;
    CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu, f, 0),
                                       clang_getLocationForOffset(tu, f, (unsigned)size));
    CXToken *t = NULL;
    unsigned n = 0;
    clang_tokenize(tu, all, &t, &n);
    tok *out = calloc(n ? n : 1, sizeof *out);
    if (!out)
        abort();
    unsigned prev_end = 0;
    for (unsigned i = 0; i < n; i++) {
        tok *k = &out[i];
        CXSourceRange r = clang_getTokenExtent(tu, t[i]);
        clang_getFileLocation(clang_getRangeStart(r), NULL, &k->line, NULL, &k->start);
        clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &k->end);
        if (k->end < k->start || k->end > size)
            k->end = k->start;
        k->kind = clang_getTokenKind(t[i]);
        if (k->kind == CXToken_Identifier || k->kind == CXToken_Keyword) {
            CXString s = clang_getTokenSpelling(tu, t[i]);
            k->text = strdup(clang_getCString(s) ? clang_getCString(s) : "");
            clang_disposeString(s);
            if (!k->text)
                abort();
        } else {
            k->text = unspliced(text, k->start, k->end);
        }
        k->bol = i == 0 || breaks_line(text, prev_end, k->start);
        prev_end = k->end;
    }
    clang_disposeTokens(tu, t, n);
    *n_out = n;
    return out;
}

static void free_toks(tok *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        free(t[i].text);
    free(t);
}

/* The index of the first token starting at or after offset off. */
static unsigned tok_at(const ctx *x, unsigned off)
{
    unsigned lo = 0, hi = x->n_toks;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (x->toks[mid].start < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The byte range of c's extent in the student's file (false when it is not in it). */
static int cursor_span(const ctx *x, CXCursor c, unsigned *a, unsigned *b)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1 = NULL, f2 = NULL;
    clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, a);
    clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, b);
    return is_student(x, f1) && is_student(x, f2) && *a <= *b;
}

/* The source text of c's extent (comments left out, each run of spaces one space), cut to len. */
static const char *cursor_text(const ctx *x, CXCursor c, char *buf, size_t len)
{
    unsigned a, b;
    buf[0] = '\0';
    if (!cursor_span(x, c, &a, &b))
        return buf;
    size_t n = 0;
    for (unsigned i = tok_at(x, a); i < x->n_toks && x->toks[i].start < b; i++) {
        if (x->toks[i].kind == CXToken_Comment)
            continue;
        int space = n && x->toks[i].start > x->toks[i - 1].end;
        int w = snprintf(buf + n, len - n, "%s%s", space ? " " : "", x->toks[i].text);
        if (w < 0 || (size_t)w >= len - n) {
            if (len > 4)
                strcpy(buf + len - 4, "...");
            break;
        }
        n += (size_t)w;
    }
    return buf;
}

/* ---- names and keys ------------------------------------------------------------------------------- */

static int is_record_kind(enum CXCursorKind k)
{
    return k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
           k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

static int is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
           k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static int is_namespace_scope(CXCursor c)
{
    enum CXCursorKind p = clang_getCursorKind(clang_getCursorSemanticParent(c));
    return p == CXCursor_TranslationUnit || p == CXCursor_Namespace;
}

/* The primary template of a specialization, the member of a class template of a member of one of
   its specializations; c itself otherwise. */
static CXCursor unspecialized(CXCursor c)
{
    for (int i = 0; i < 8; i++) {
        CXCursor t = clang_getSpecializedCursorTemplate(c);
        if (clang_Cursor_isNull(t) || clang_equalCursors(t, c))
            break;
        c = t;
    }
    return c;
}

/* The qualified name of c as a reader writes it (ns::type::member); len > 0. */
static void display_name(CXCursor c, char *out, size_t len)
{
    char name[256], parent[512] = "";
    c = unspecialized(c);
    cxs(clang_getCursorSpelling(c), name, sizeof name);
    CXCursor p = clang_getCursorSemanticParent(c);
    enum CXCursorKind pk = clang_getCursorKind(p);
    if (is_record_kind(pk) || pk == CXCursor_Namespace)
        display_name(p, parent, sizeof parent);
    snprintf(out, len, "%s%s%s", parent, parent[0] ? "::" : "", name);
}

/* The key of an entity, the same in every translation unit: a member is its class's key and its
   name (so that the members of a class template's specializations are the template's), anything
   else the unspecialized entity's USR. */
static void entity_key(CXCursor c, char *out, size_t len)
{
    char name[256], usr[600];
    c = unspecialized(c);
    CXCursor p = clang_getCursorSemanticParent(c);
    if (is_record_kind(clang_getCursorKind(p))) {
        char parent[700];
        entity_key(p, parent, sizeof parent);
        snprintf(out, len, "%s::%s", parent, cxs(clang_getCursorSpelling(c), name, sizeof name));
        return;
    }
    cxs(clang_getCursorUSR(c), usr, sizeof usr);
    if (usr[0])
        snprintf(out, len, "%s", usr);
    else
        display_name(c, out, len);
}

/* The entities cursor c refers to (several for a name that is overloaded or not yet resolved). */
static unsigned targets_of(CXCursor c, CXCursor *out, unsigned max)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_OverloadedDeclRef) {
        unsigned n = clang_getNumOverloadedDecls(c), m = 0;
        for (unsigned i = 0; i < n && m < max; i++) {
            CXCursor d = clang_getOverloadedDecl(c, i);
            if (!clang_Cursor_isNull(d))
                out[m++] = d;
        }
        return m;
    }
    CXCursor r = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(r) || clang_isInvalid(clang_getCursorKind(r)) ||
        clang_getCursorKind(r) == CXCursor_OverloadedDeclRef || clang_equalCursors(r, c))
        return 0;
    out[0] = r;
    return 1;
}

/* The cursor kinds that name another entity (each judged once: implicit casts repeat their operand). */
static int is_reference_kind(enum CXCursorKind k)
{
    return k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr ||
           k == CXCursor_TypeRef || k == CXCursor_TemplateRef || k == CXCursor_MemberRef ||
           k == CXCursor_VariableRef || k == CXCursor_OverloadedDeclRef;
}

/* A name the implementation reserves: __x or _X. */
static int is_reserved(const char *s)
{
    return s[0] == '_' && (s[1] == '_' || isupper((unsigned char)s[1]));
}

/* ---- the lab API ------------------------------------------------------------------------------------ */

typedef struct api_walk {
    ctx *x;
    CXFile file;
    int phase; /* 0: the macro expansions and includes of the API file; 1: what its code references */
    unsigned *macro_starts;
    unsigned n_macro_starts, cap_macro_starts;
} api_walk;

/* Adds what API cursor c references to the allowlist. */
static void api_note(api_walk *w, CXCursor c)
{
    ctx *x = w->x;
    int via_macro = has_offset(w->macro_starts, w->n_macro_starts, file_offset(c));
    CXCursor t[64];
    unsigned n = targets_of(c, t, 64);
    for (unsigned i = 0; i < n; i++) {
        char key[1200], name[600];
        if (in_file(cursor_file(t[i], NULL, NULL), w->file))
            continue;
        CXCursor u = unspecialized(t[i]);
        if (clang_getCursorKind(u) == CXCursor_Constructor || clang_getCursorKind(u) == CXCursor_Destructor)
            u = unspecialized(clang_getCursorSemanticParent(u)); /* judged by their class */
        entity_key(u, key, sizeof key);
        sset_add(&x->api, key, via_macro ? 2 : 1, NULL);
        if (is_function_kind(clang_getCursorKind(u))) {
            display_name(u, name, sizeof name);
            sset_add(&x->api_fn, name, 1, NULL);
            sset_add(&x->api_fn_short, cxs(clang_getCursorSpelling(u), name, sizeof name), 1, NULL);
        }
        if (is_record_kind(clang_getCursorKind(clang_getCursorSemanticParent(u))))
            sset_add(&x->api_members, cxs(clang_getCursorSpelling(u), name, sizeof name), 1, NULL);
    }
}

static enum CXChildVisitResult api_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    api_walk *w = d;
    if (is_reference_kind(clang_getCursorKind(c)) && in_file(cursor_file(c, NULL, NULL), w->file))
        api_note(w, c);
    return CXChildVisit_Recurse;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static void push_offset(unsigned **v, unsigned *n, unsigned *cap, unsigned off)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        *v = realloc(*v, *cap * sizeof **v);
        if (!*v)
            abort();
    }
    (*v)[(*n)++] = off;
}

static enum CXChildVisitResult api_top(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    api_walk *w = d;
    ctx *x = w->x;
    enum CXCursorKind k = clang_getCursorKind(c);
    unsigned off;
    CXFile f = cursor_file(c, NULL, &off);
    int mine = in_file(f, w->file);
    if (k == CXCursor_MacroExpansion) {
        if (mine && w->phase == 0) {
            char usr[600];
            cxs(clang_getCursorUSR(clang_getCursorReferenced(c)), usr, sizeof usr);
            if (usr[0])
                sset_add(&x->api, usr, 1, NULL);
            push_offset(&w->macro_starts, &w->n_macro_starts, &w->cap_macro_starts, off);
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_InclusionDirective) {
        char name[300], path[PATH_MAX];
        if (mine && w->phase == 0 && strcmp(cxs(clang_getCursorSpelling(c), name, sizeof name), "kit_lab.h") == 0) {
            CXFile to = clang_getIncludedFile(c);
            if (to)
                dir_of(cxs(clang_getFileName(to), path, sizeof path), x->kit_dir, sizeof x->kit_dir);
        }
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_MacroDefinition || w->phase == 0)
        return CXChildVisit_Continue;
    if (mine) {
        clang_visitChildren(c, api_visit, w);
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return in_system_header(c) ? CXChildVisit_Continue : CXChildVisit_Recurse;
    return CXChildVisit_Continue;
}

/* Arguments for the API file: the student's ones less the include folders of the student's and the
   uses files, and the API file in place of the translation unit. */
static const char **api_args(const labcheck_opts *o, int *n)
{
    const char **a = calloc((size_t)o->n_args + 1, sizeof *a);
    if (!a)
        abort();
    char skip[LABCHECK_MAX_FILES + 1][PATH_MAX];
    int n_skip = 0;
    dir_of(o->student, skip[n_skip++], PATH_MAX);
    for (int i = 0; i < o->n_uses; i++)
        dir_of(o->uses[i], skip[n_skip++], PATH_MAX);
    int m = 0;
    for (int i = 0; i < o->n_args - 1; i++) {
        const char *dir = NULL;
        int pair = 0;
        if (strcmp(o->args[i], "-I") == 0 && i + 2 < o->n_args) {
            dir = o->args[i + 1];
            pair = 1;
        } else if (starts_with(o->args[i], "-I")) {
            dir = o->args[i] + 2;
        }
        char real[PATH_MAX];
        int drop = 0;
        if (dir && realpath(dir, real))
            for (int s = 0; s < n_skip; s++)
                drop |= strcmp(real, skip[s]) == 0;
        if (drop) {
            i += pair;
            continue;
        }
        a[m++] = o->args[i];
    }
    a[m++] = o->api;
    *n = m;
    return a;
}


/*
 * The API cache: the allowlist, and what it was made from (the arguments, and the size and
 * modification time of every file the API's translation unit read). It is used only when all of
 * that is unchanged; otherwise the API file is parsed again and the cache rewritten. (A header
 * that appears later in an earlier include folder, shadowing one the API read, goes unnoticed:
 * the kit's folders do not change so.)
 *
 *     labcheck-api 2
 *     args <libclang's version>; <the working folder>; <the arguments, one space between each>
 *     file <real path> <size> <mtime seconds> <mtime nanoseconds>    (one line a file)
 *     kitdir <the folder of kit_lab.h>
 *     <set> <flags> <key>                                       (one line an allowlist entry)
 */
#define API_CACHE_MAGIC "labcheck-api 2"

/* Is an argument a relative path, or an option that names one (-Idir)? */
static int relative_path_arg(const char *a)
{
    if (starts_with(a, "-I") || starts_with(a, "-include"))
        a += starts_with(a, "-I") ? 2 : 8;
    else if (a[0] == '-')
        return 0;
    return a[0] != '\0' && a[0] != '/';
}

/*
 * The "args" line of the cache for these arguments (and this libclang). The working folder is part
 * of it only where an argument is a relative path: the grader's skeleton run and the student's run
 * in the sandbox work in different folders, and with absolute paths they share one cache.
 */
static char *cache_args_line(const char **args, int n)
{
    char version[200], cwd[PATH_MAX] = "-";
    cxs(clang_getClangVersion(), version, sizeof version);
    int relative = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(args[i], "-x") == 0)
            i++; /* its value is a language, not a path */
        else
            relative |= relative_path_arg(args[i]) || (strcmp(args[i], "-I") == 0 && i + 1 < n && args[i + 1][0] != '/');
    if (relative && !getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    size_t len = strlen(version) + strlen(cwd) + 16;
    for (int i = 0; i < n; i++)
        len += strlen(args[i]) + 1;
    char *s = malloc(len);
    if (!s)
        abort();
    snprintf(s, len, "args %s; %s;", version, cwd);
    for (int i = 0; i < n; i++) {
        strcat(s, " ");
        strcat(s, args[i]);
    }
    return s;
}

static sset *api_set(ctx *x, int i)
{
    sset *sets[] = {&x->api, &x->api_fn, &x->api_fn_short, &x->api_members, &x->api_reserved};
    return i >= 0 && i < 5 ? sets[i] : NULL;
}

/* Reads the allowlist from the cache when it is current; 0 when it was, -1 otherwise. */
static int cache_read(ctx *x, const char *args_line)
{
    FILE *f = fopen(x->o->api_cache, "r");
    if (!f)
        return -1;
    static char line[PATH_MAX + 8192];
    int ok = fgets(line, sizeof line, f) && strcmp(line, API_CACHE_MAGIC "\n") == 0 && fgets(line, sizeof line, f) &&
             strncmp(line, args_line, strlen(args_line)) == 0 && line[strlen(args_line)] == '\n';
    while (ok && fgets(line, sizeof line, f) && starts_with(line, "file ")) {
        char name[PATH_MAX];
        long long size, sec, nsec;
        struct stat st;
        ok = sscanf(line, "file %4095s %lld %lld %lld", name, &size, &sec, &nsec) == 4 && stat(name, &st) == 0 &&
             st.st_size == size && st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec;
    }
    if (ok && starts_with(line, "kitdir ")) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(x->kit_dir, sizeof x->kit_dir, "%.*s", (int)sizeof x->kit_dir - 1, line + 7);
        int set, flags, pos;
        while (ok && fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            ok = sscanf(line, "%d %d %n", &set, &flags, &pos) == 2 && api_set(x, set);
            if (ok)
                sset_add(api_set(x, set), line + pos, flags, NULL);
        }
    } else {
        ok = 0;
    }
    fclose(f);
    if (!ok || !x->kit_dir[0]) {
        for (int i = 0; i < 5; i++)
            sset_free(api_set(x, i));
        x->kit_dir[0] = '\0';
        return -1;
    }
    return 0;
}

static void cache_file_line(CXFile included, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
    (void)stack;
    (void)depth;
    char name[PATH_MAX], real[PATH_MAX];
    struct stat st;
    if (realpath(cxs(clang_getFileName(included), name, sizeof name), real) && stat(real, &st) == 0)
        fprintf((FILE *)d, "file %s %lld %lld %lld\n", real, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                (long long)st.st_mtim.tv_nsec);
}

/* Writes the allowlist to the cache (through a temporary file, so that a reader sees all or nothing). */
static void cache_write(ctx *x, CXTranslationUnit tu, const char *args_line)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", x->o->api_cache, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "%s\n%s\n", API_CACHE_MAGIC, args_line);
    clang_getInclusions(tu, cache_file_line, f);
    fprintf(f, "kitdir %s\n", x->kit_dir);
    for (int s = 0; s < 5; s++) {
        sset *set = api_set(x, s);
        for (size_t b = 0; b < set->nbuckets; b++)
            for (sset_item *it = set->bucket[b]; it; it = it->next)
                fprintf(f, "%d %d %s\n", s, it->flags, it->key);
    }
    if (fclose(f) != 0 || rename(tmp, x->o->api_cache) != 0)
        unlink(tmp);
}

/* Builds the allowlist from the API file (or its cache). Returns 0, or -1 with a report line. */
static int load_api(ctx *x, FILE *report)
{
    const labcheck_opts *o = x->o;
    int n = 0;
    const char **args = api_args(o, &n);
    char *args_line = cache_args_line(args, n);
    int rc = 0;
    if (o->api_cache && cache_read(x, args_line) == 0)
        goto done;
    CXTranslationUnit tu = NULL;
    enum CXErrorCode e = clang_parseTranslationUnit2(
        x->index, NULL, args, n, NULL, 0, CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing,
        &tu);
    if (e != CXError_Success || !tu) {
        fprintf(report, "labcheck: libclang could not parse the API file %s (error %d)\n", o->api, (int)e);
        rc = -1;
        goto done;
    }
    for (unsigned i = 0, nd = clang_getNumDiagnostics(tu); i < nd && rc == 0; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            char msg[800];
            fprintf(report, "labcheck: the API file does not compile: %s\n",
                    cxs(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation), msg, sizeof msg));
            rc = -1;
        }
        clang_disposeDiagnostic(d);
    }
    CXFile file = clang_getFile(tu, o->api);
    if (rc == 0) {
        api_walk w = {x, file, 0, NULL, 0, 0};
        clang_visitChildren(clang_getTranslationUnitCursor(tu), api_top, &w);
        if (w.n_macro_starts)
            qsort(w.macro_starts, w.n_macro_starts, sizeof *w.macro_starts, cmp_unsigned);
        w.phase = 1;
        clang_visitChildren(clang_getTranslationUnitCursor(tu), api_top, &w);
        free(w.macro_starts);
        const char *text;
        size_t size;
        unsigned nt;
        tok *t = lex_file(tu, file, &text, &size, &nt);
        for (unsigned i = 0; i < nt; i++)
            if ((t[i].kind == CXToken_Identifier || t[i].kind == CXToken_Keyword) && is_reserved(t[i].text))
                sset_add(&x->api_reserved, t[i].text, 1, NULL);
        free_toks(t, nt);
        if (!x->kit_dir[0]) {
            fprintf(report, "labcheck: the API file %s does not include kit_lab.h\n", o->api);
            rc = -1;
        } else if (o->api_cache) {
            cache_write(x, tu, args_line);
        }
    }
    clang_disposeTranslationUnit(tu);
done:
    free(args_line);
    free(args);
    return rc;
}

/* ---- the student's translation unit: what is declared where ----------------------------------- */

static enum CXChildVisitResult pre_top(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ctx *x = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    unsigned line, off;
    CXFile f = cursor_file(c, &line, &off);
    if (k == CXCursor_InclusionDirective) {
        x->incs = realloc(x->incs, (x->n_incs + 1) * sizeof *x->incs);
        if (!x->incs)
            abort();
        inclusion *in = &x->incs[x->n_incs++];
        *in = (inclusion){f, line, clang_getIncludedFile(c), ""};
        cxs(clang_getCursorSpelling(c), in->name, sizeof in->name);
    } else if (k == CXCursor_MacroDefinition && !is_student(x, f)) {
        char name[256];
        sset_add(&x->outside_macros, cxs(clang_getCursorSpelling(c), name, sizeof name), 1, NULL);
    } else if (k == CXCursor_MacroExpansion && is_student(x, f)) {
        unsigned cap = x->n_macro_starts; /* grown to the next power of two */
        if ((cap & (cap - 1)) == 0) {
            x->macro_starts = realloc(x->macro_starts, (cap ? 2 * cap : 1) * sizeof *x->macro_starts);
            if (!x->macro_starts)
                abort();
        }
        x->macro_starts[x->n_macro_starts++] = off;
    }
    return CXChildVisit_Continue;
}

/* The given files: those named, and the *_given.cuh files they include (lab 9's includes lab 7's). */
static void close_given(ctx *x)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = 0; i < x->n_incs; i++) {
            char name[PATH_MAX];
            inclusion *in = &x->incs[i];
            if (!in->to || !ends_with(cxs(clang_getFileName(in->to), name, sizeof name), "_given.cuh"))
                continue;
            int from_given = 0, known = 0;
            for (int g = 0; g < x->n_given; g++) {
                from_given |= in_file(in->from, x->given[g]);
                known |= in_file(in->to, x->given[g]);
            }
            if (from_given && !known && x->n_given < 64) {
                x->given[x->n_given++] = in->to;
                changed = 1;
            }
        }
    }
}

static enum CXChildVisitResult members_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ctx *x = d;
    char name[256];
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isDeclaration(k) && k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
        k != CXCursor_TemplateTemplateParameter && k != CXCursor_ParmDecl && k != CXCursor_FriendDecl &&
        cxs(clang_getCursorSpelling(c), name, sizeof name)[0])
        sset_add(&x->own_members, name, 1, NULL);
    if (is_record_kind(k))
        clang_visitChildren(c, members_visit, x);
    return CXChildVisit_Continue;
}

/* Namespace-scope declarations: the names outside the student's file, and the functions and the
   members of the student's, uses and given files. */
static enum CXChildVisitResult names_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ctx *x = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!clang_isDeclaration(k))
        return CXChildVisit_Continue;
    CXFile f = cursor_file(c, NULL, NULL);
    char name[256], file[PATH_MAX];
    cxs(clang_getCursorSpelling(c), name, sizeof name);
    if (!is_student(x, f) && name[0] && k != CXCursor_LinkageSpec && k != CXCursor_UnexposedDecl &&
        k != CXCursor_StaticAssert && k != CXCursor_UsingDirective) {
        /* flags 1: a system header's name; 2: the kit's or a harness's, which not even a local may reuse */
        sset_add(&x->outside, name, in_system_header(c) || !f ? 1 : 2,
                 f ? base_name(cxs(clang_getFileName(f), file, sizeof file)) : "the compiler");
        if (k == CXCursor_EnumDecl && !clang_EnumDecl_isScoped(c))
            clang_visitChildren(c, names_visit, x);
    }
    if (is_allowed_file(x, f)) {
        if (is_function_kind(k) && name[0])
            sset_add(&x->own_fn, name, 1, NULL);
        if (is_record_kind(k))
            clang_visitChildren(c, members_visit, x);
    }
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    return CXChildVisit_Continue;
}

/* ---- rule 1: the student's directives, found by a raw scan of the file ----------------------------- */

/*
 * The directives are found before the file is parsed, by a scan of its bytes that knows comments,
 * literals (raw strings too), line splices and digraphs: every # or %: outside a comment or a
 * literal starts one, wherever it stands, and it runs to the end of its logical line. A refused
 * directive is reported and blanked out of the text libclang parses (the line numbers stay), so
 * that no macro of the student's is ever expanded: a macro that expands to 2^28 tokens costs the
 * check nothing. After the parse, any # that libclang's own lexer finds outside an accepted
 * directive is refused too, so that the scan and the compiler cannot disagree unnoticed.
 */

/* A token of a directive: an identifier, a number, a "string", a 'c'haracter, or punctuation. */
typedef struct dtok {
    char kind; /* 'i', 'n', 's', 'c' or 'p' */
    char text[256];
    unsigned end; /* where it ends in the directive's text */
} dtok;

/* A directive: bytes [start, end) of the file (its last byte the end of its logical line). */
struct directive {
    unsigned start, end;
    unsigned line;
    char *text; /* without line splices, comments as one space */
    dtok *t;
    unsigned n;
    int ok; /* accepted */
};

/* The file without its line splices: logical character j is byte at[j] of the file. */
typedef struct logical {
    char *c;
    unsigned *at;
    unsigned n;
} logical;

static logical unsplice(const char *text, size_t size)
{
    logical l = {malloc(size + 1), malloc((size + 1) * sizeof(unsigned)), 0};
    if (!l.c || !l.at)
        abort();
    for (unsigned i = 0; i < size; i++) {
        if (text[i] == '\\') {
            unsigned j = i + 1;
            while (j < size && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'))
                j++;
            if (j < size && text[j] == '\n') {
                i = j;
                continue;
            }
        }
        l.c[l.n] = text[i];
        l.at[l.n++] = i;
    }
    l.c[l.n] = '\0';
    l.at[l.n] = (unsigned)size;
    return l;
}

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* Where the comment or literal at logical j ends (its last character + 1), or j if none starts there. */
static unsigned skip_opaque(const logical *l, unsigned j)
{
    const char *c = l->c;
    unsigned n = l->n;
    if (c[j] == '/' && c[j + 1] == '/') {
        while (j < n && c[j] != '\n')
            j++;
        return j;
    }
    if (c[j] == '/' && c[j + 1] == '*') {
        const char *e = strstr(c + j + 2, "*/");
        return e ? (unsigned)(e - c) + 2 : n;
    }
    /* a raw string: R"delim( ... )delim", after an optional u8, u, U or L */
    unsigned p = j;
    if (j == 0 || !ident_char(c[j - 1])) {
        if (c[p] == 'u' && c[p + 1] == '8')
            p += 2;
        else if (c[p] == 'u' || c[p] == 'U' || c[p] == 'L')
            p++;
        if (c[p] == 'R' && c[p + 1] == '"') {
            char close[24] = ")";
            unsigned d = p + 2, k = 1;
            while (d < n && c[d] != '(' && k < 18 && !strchr(" \\)\t\n", c[d]))
                close[k++] = c[d++];
            if (c[d] == '(') {
                close[k++] = '"';
                close[k] = '\0';
                const char *e = strstr(c + d + 1, close);
                return e ? (unsigned)(e - c) + k : n;
            }
        }
        p = j;
        if (c[p] == 'u' && c[p + 1] == '8')
            p += 2;
        else if (c[p] == 'u' || c[p] == 'U' || c[p] == 'L')
            p++;
        if (c[p] == '"' || (c[p] == '\'' && p > j))
            j = p;
    }
    if (c[j] == '"' || c[j] == '\'') {
        char q = c[j];
        for (j++; j < n && c[j] != q && c[j] != '\n'; j++)
            if (c[j] == '\\' && j + 1 < n)
                j++;
        return j < n && c[j] == q ? j + 1 : j;
    }
    return j;
}

/* The end of the pp-number or identifier at logical j (j itself when neither starts there). */
static unsigned skip_word(const logical *l, unsigned j)
{
    const char *c = l->c;
    if (isdigit((unsigned char)c[j]) || (c[j] == '.' && isdigit((unsigned char)c[j + 1]))) {
        for (j++; c[j]; j++) {
            if ((c[j] == '+' || c[j] == '-') && strchr("eEpP", c[j - 1]))
                continue;
            if (c[j] == '\'' && ident_char(c[j + 1]))
                continue;
            if (!ident_char(c[j]) && c[j] != '.')
                break;
        }
        return j;
    }
    while (ident_char(c[j]))
        j++;
    return j;
}

/* Splits a directive's text into tokens. */
static void directive_tokens(directive *d)
{
    const char *s = d->text;
    size_t len = strlen(s);
    d->t = calloc(len + 1, sizeof *d->t);
    if (!d->t)
        abort();
    for (size_t i = 0; i < len;) {
        if (isspace((unsigned char)s[i])) {
            i++;
            continue;
        }
        dtok *t = &d->t[d->n++];
        size_t e = i + 1;
        if (ident_char(s[i]) && !isdigit((unsigned char)s[i])) {
            while (e < len && ident_char(s[e]))
                e++;
            t->kind = 'i';
        } else if (isdigit((unsigned char)s[i])) {
            while (e < len && (ident_char(s[e]) || s[e] == '.' || s[e] == '\''))
                e++;
            t->kind = 'n';
        } else if (s[i] == '"' || s[i] == '\'') {
            while (e < len && s[e] != s[i])
                e += s[e] == '\\' ? 2 : 1;
            e = e < len ? e + 1 : len;
            t->kind = s[i] == '"' ? 's' : 'c';
        } else {
            if ((s[i] == '%' && s[e] == ':') || (s[i] == '#' && s[e] == '#'))
                e++;
            if (e + 1 < len && s[i] == '%' && s[e] == '%' && s[e + 1] == ':')
                e += 2;
            t->kind = 'p';
        }
        snprintf(t->text, sizeof t->text, "%.*s", (int)(e - i), s + i);
        t->end = (unsigned)e;
        i = e;
    }
}

/* Every directive of the student's file, in order. */
static directive *scan_directives(const char *text, size_t size, unsigned *count)
{
    logical l = unsplice(text, size);
    directive *ds = NULL;
    unsigned nd = 0;
    for (unsigned j = 0; j < l.n;) {
        unsigned e = skip_opaque(&l, j);
        if (e != j) {
            j = e;
            continue;
        }
        e = skip_word(&l, j);
        if (e != j) {
            j = e;
            continue;
        }
        if (!(l.c[j] == '#' || (l.c[j] == '%' && l.c[j + 1] == ':'))) {
            j++;
            continue;
        }
        /* a directive: to the first newline outside a comment */
        char *out = malloc(l.n - j + 1);
        size_t n = 0;
        unsigned k = j;
        while (k < l.n && l.c[k] != '\n') {
            unsigned o = skip_opaque(&l, k);
            if (o != k && l.c[k] == '/') {
                out[n++] = ' ';
                k = o;
            } else if (o != k) {
                memcpy(out + n, l.c + k, o - k);
                n += o - k;
                k = o;
            } else {
                out[n++] = l.c[k++];
            }
        }
        out[n] = '\0';
        ds = realloc(ds, (nd + 1) * sizeof *ds);
        if (!ds)
            abort();
        unsigned line = 1;
        for (unsigned b = 0; b < l.at[j]; b++)
            line += text[b] == '\n';
        ds[nd] = (directive){l.at[j], k < l.n ? l.at[k] : (unsigned)size, line, out, NULL, 0, 0};
        directive_tokens(&ds[nd++]);
        j = k;
    }
    free(l.c);
    free(l.at);
    *count = nd;
    return ds;
}

static void free_directives(directive *ds, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        free(ds[i].text);
        free(ds[i].t);
    }
    free(ds);
}

/* The C headers a lab file may include (besides kit_lab.h, kit_types.h and its uses files). */
static const char *const c_headers[] = {"stdint.h", "stddef.h", "limits.h", "stdbool.h", "float.h",
                                        "cstdint",  "cstddef",  "climits",  "cfloat"};

static const char *dname(const directive *d)
{
    return d->n > 1 && d->t[1].kind == 'i' ? d->t[1].text : "";
}

/* Judges the name of #include line d (its resolution is judged after the parse). */
static void judge_include_name(ctx *x, directive *d)
{
    char name[PATH_MAX] = "";
    int angled = 0;
    if (d->n == 3 && d->t[2].kind == 's') {
        snprintf(name, sizeof name, "%.*s", (int)strlen(d->t[2].text) - 2, d->t[2].text + 1);
    } else if (d->n >= 3 && strcmp(d->t[2].text, "<") == 0 && strcmp(d->t[d->n - 1].text, ">") == 0) {
        const char *a = d->text + d->t[2].end, *b = d->text + d->t[d->n - 1].end - 1;
        snprintf(name, sizeof name, "%.*s", (int)(b - a), a);
        angled = 1;
    }
    if (!name[0] || strchr(name, '>') || strchr(name, '"')) {
        refuse(x, d->line, "preprocessor", "#include without a plain \"name\" or <name>");
        return;
    }
    int known = strcmp(name, "kit_lab.h") == 0 || strcmp(name, "kit_types.h") == 0;
    for (size_t i = 0; !known && i < sizeof c_headers / sizeof *c_headers; i++)
        known = strcmp(name, c_headers[i]) == 0;
    for (int i = 0; !known && i < x->o->n_uses; i++)
        known = strcmp(name, base_name(x->o->uses[i])) == 0;
    if (!known) {
        char allowed[1024] = "kit_lab.h, kit_types.h";
        for (int i = 0; i < x->o->n_uses; i++)
            snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), ", %s", base_name(x->o->uses[i]));
        refuse(x, d->line, "preprocessor",
               "#include %c%s%c: a lab file includes only %s and the C headers stdint.h, stddef.h, limits.h, "
               "stdbool.h, float.h (or cstdint, cstddef, climits, cfloat)",
               angled ? '<' : '"', name, angled ? '>' : '"', allowed);
        return;
    }
    d->ok = 1;
}

/* After the parse: each accepted #include must have found its file where that name must come from. */
static void judge_include_paths(ctx *x, const directive *ds, unsigned nd)
{
    for (unsigned i = 0; i < nd; i++) {
        const directive *d = &ds[i];
        if (!d->ok || strcmp(dname(d), "include") != 0)
            continue;
        CXFile to = NULL;
        char path[PATH_MAX], dir[PATH_MAX], name[PATH_MAX];
        for (unsigned k = 0; k < x->n_incs; k++)
            if (is_student(x, x->incs[k].from) && x->incs[k].line == d->line) {
                to = x->incs[k].to;
                snprintf(name, sizeof name, "%s", x->incs[k].name);
            }
        if (!to)
            continue; /* not found: the compiler's error says so */
        cxs(clang_getFileName(to), path, sizeof path);
        dir_of(path, dir, sizeof dir);
        const char *want = "the system's header";
        int right = 0, c_header = 0;
        for (size_t h = 0; h < sizeof c_headers / sizeof *c_headers; h++)
            c_header |= strcmp(name, c_headers[h]) == 0;
        if (strcmp(name, "kit_lab.h") == 0 || strcmp(name, "kit_types.h") == 0) {
            right = strcmp(dir, x->kit_dir) == 0;
            want = "the kit's header in common/";
        } else if (c_header) {
            right = clang_Location_isInSystemHeader(clang_getLocationForOffset(x->tu, to, 0));
        } else {
            for (int u = 0; u < x->o->n_uses; u++)
                if (strcmp(name, base_name(x->o->uses[u])) == 0) {
                    right = same_file(path, x->o->uses[u]);
                    want = x->o->uses[u];
                }
        }
        if (!right)
            refuse(x, d->line, "preprocessor", "#include \"%s\" found %s, not %s", name, path, want);
    }
}

/* Judges #pragma line d: once, or unroll with an optional count. */
static void judge_pragma(ctx *x, directive *d)
{
    const char *what = d->n > 2 ? d->t[2].text : "";
    if (d->n == 3 && (strcmp(what, "once") == 0 || strcmp(what, "unroll") == 0))
        d->ok = 1;
    else if (d->n == 4 && strcmp(what, "unroll") == 0 && d->t[3].kind == 'n')
        d->ok = 1;
    else
        refuse(x, d->line, "preprocessor", "#pragma %s: the only pragmas are #pragma unroll [count] and #pragma once",
               what);
}

/* 1 when only comments and spaces lie in bytes [a, b) of the file. */
static int only_comments(const char *text, unsigned a, unsigned b)
{
    for (unsigned i = a; i < b; i++) {
        if (isspace((unsigned char)text[i]))
            continue;
        if (text[i] == '/' && i + 1 < b && text[i + 1] == '/') {
            while (i < b && text[i] != '\n')
                i++;
        } else if (text[i] == '/' && i + 1 < b && text[i + 1] == '*') {
            const char *e = strstr(text + i + 2, "*/");
            if (!e || (unsigned)(e - text) + 2 > b)
                return 0;
            i = (unsigned)(e - text) + 1;
        } else {
            return 0;
        }
    }
    return 1;
}

/* Accepts the include guard: #ifndef G and #define G first, #endif last, G the expected name. */
static void judge_guard(ctx *x, directive *ds, unsigned nd)
{
    if (nd < 3)
        return;
    directive *a = &ds[0], *b = &ds[1], *z = &ds[nd - 1];
    if (strcmp(dname(a), "ifndef") != 0 || a->n != 3 || a->t[2].kind != 'i' || strcmp(dname(b), "define") != 0 ||
        b->n != 3 || strcmp(a->t[2].text, b->t[2].text) != 0 || strcmp(dname(z), "endif") != 0 || z->n != 2)
        return;
    if (!only_comments(x->text, 0, a->start) || !only_comments(x->text, a->end, b->start) ||
        !only_comments(x->text, z->end, (unsigned)x->size))
        return;
    const char *g = a->t[2].text;
    a->ok = b->ok = z->ok = 1;
    if (x->o->guard && strcmp(g, x->o->guard) != 0)
        a->ok = b->ok = z->ok = 0, refuse(x, a->line, "preprocessor", "include guard %s: this lab's file is guarded by %s", g,
                                          x->o->guard);
    else if (!x->o->guard && sset_find(&x->outside_macros, g))
        a->ok = b->ok = z->ok = 0, refuse(x, a->line, "preprocessor",
                                          "include guard %s: a macro of that name is defined outside this file", g);
}

/* Judges every directive; refused ones are marked, to be blanked out of the parsed text. */
static void judge_directives(ctx *x, directive *ds, unsigned nd)
{
    judge_guard(x, ds, nd);
    for (unsigned i = 0; i < nd; i++) {
        directive *d = &ds[i];
        const char *name = dname(d), *hash = d->t[0].text;
        if (d->ok || (i == 0 && strcmp(name, "ifndef") == 0 && d->n == 3 && ds[nd - 1].n == 2 && x->o->guard &&
                      strcmp(d->t[2].text, x->o->guard) != 0 && nd >= 3 && strcmp(dname(&ds[1]), "define") == 0 &&
                      strcmp(dname(&ds[nd - 1]), "endif") == 0))
            continue; /* accepted, or a misnamed guard (refused once, at its #ifndef) */
        if (nd >= 3 && x->o->guard && (i == 1 || i == nd - 1) && !ds[0].ok && strcmp(dname(&ds[0]), "ifndef") == 0 &&
            ds[0].n == 3 && strcmp(ds[0].t[2].text, x->o->guard) != 0 && strcmp(dname(&ds[1]), "define") == 0 &&
            ds[1].n == 3 && strcmp(ds[1].t[2].text, ds[0].t[2].text) == 0 && strcmp(dname(&ds[nd - 1]), "endif") == 0)
            continue;
        if (strcmp(name, "include") == 0)
            judge_include_name(x, d);
        else if (strcmp(name, "pragma") == 0)
            judge_pragma(x, d);
        else if (strcmp(name, "define") == 0 || strcmp(name, "undef") == 0)
            refuse(x, d->line, "preprocessor", "%s%s %s: a lab file defines no macros (only its include guard)", hash,
                   name, d->n > 2 ? d->t[2].text : "");
        else if (strcmp(name, "if") == 0 || strcmp(name, "ifdef") == 0 || strcmp(name, "ifndef") == 0 ||
                 strcmp(name, "elif") == 0 || strcmp(name, "else") == 0 || strcmp(name, "endif") == 0)
            refuse(x, d->line, "preprocessor",
                   "%s%s: no conditional compilation in a lab file (only its include guard, around the whole file)",
                   hash, name);
        else
            refuse(x, d->line, "preprocessor",
                   "%s%s: not allowed in a lab file (only #include, #pragma unroll and the include guard)", hash,
                   name[0] ? name : d->n > 1 ? d->t[1].text : " (an empty directive)");
    }
}

/* The text libclang parses: the student's, each refused directive blanked out (its newlines kept). */
static char *blanked(const char *text, size_t size, const directive *ds, unsigned nd)
{
    char *out = malloc(size + 1);
    if (!out)
        abort();
    memcpy(out, text, size);
    out[size] = '\0';
    for (unsigned i = 0; i < nd; i++)
        if (!ds[i].ok)
            for (unsigned b = ds[i].start; b < ds[i].end && b < size; b++)
                if (out[b] != '\n')
                    out[b] = ' ';
    return out;
}

/* ---- rule 3's spellings: the student's tokens, as libclang lexes them ---------------------------- */

/* 1 when byte off of the file lies in an accepted directive. */
static int in_directive(const directive *ds, unsigned nd, unsigned off, int accepted_only)
{
    for (unsigned i = 0; i < nd; i++)
        if (off >= ds[i].start && off < ds[i].end && (ds[i].ok || !accepted_only))
            return 1;
    return 0;
}

/* The rules on spelling (asm, attributes, reserved names, ...), on every token outside the
   accepted directives; and any # there, which the raw scan did not see as a directive. */
static void judge_tokens(ctx *x, const directive *ds, unsigned nd)
{
    unsigned *code = malloc((x->n_toks + 1) * sizeof *code), n_code = 0;
    if (!code)
        abort();
    for (unsigned i = 0; i < x->n_toks; i++)
        if (x->toks[i].kind != CXToken_Comment && !in_directive(ds, nd, x->toks[i].start, 1))
            code[n_code++] = i;
    for (unsigned j = 0; j < n_code; j++) {
        const tok *t = &x->toks[code[j]];
        const char *s = t->text;
        const tok *prev = j > 0 ? &x->toks[code[j - 1]] : NULL, *after = j + 1 < n_code ? &x->toks[code[j + 1]] : NULL;
        if (t->kind == CXToken_Punctuation) {
            if (!strcmp(s, "#") || !strcmp(s, "%:") || !strcmp(s, "##") || !strcmp(s, "%:%:"))
                refuse(x, t->line, "preprocessor", "%s outside a directive", s);
            else if ((strcmp(s, "[") == 0 || strcmp(s, "<:") == 0) && after &&
                     (strcmp(after->text, "[") == 0 || strcmp(after->text, "<:") == 0))
                refuse(x, t->line, "attribute", "%s%s...]]: no attributes in a lab file", s, after->text);
            continue;
        }
        if (t->kind != CXToken_Identifier && t->kind != CXToken_Keyword)
            continue;
        if (!strcmp(s, "asm") || !strcmp(s, "__asm") || !strcmp(s, "__asm__"))
            refuse(x, t->line, "asm", "%s: no assembly in a lab file", s);
        else if (!strcmp(s, "__attribute__") || !strcmp(s, "__attribute") || !strcmp(s, "__declspec") ||
                 !strcmp(s, "alignas") || !strcmp(s, "_Alignas"))
            refuse(x, t->line, "attribute", "%s: no attributes in a lab file", s);
        else if (!strcmp(s, "_Pragma") || !strcmp(s, "__pragma"))
            refuse(x, t->line, "preprocessor", "%s: the only pragmas are #pragma unroll and #pragma once", s);
        else if (!strcmp(s, "__shared__") || !strcmp(s, "__constant__"))
            refuse(x, t->line, "storage",
                   "%s: a lab file takes shared memory from KIT_DYNAMIC_SHARED (in the CPU build a %s variable is "
                   "one static variable for all blocks)",
                   s, s);
        else if (!strcmp(s, "thread_local") || !strcmp(s, "_Thread_local") || !strcmp(s, "__thread"))
            refuse(x, t->line, "storage", "%s: no static, global or thread_local variables", s);
        else if (!strcmp(s, "extern"))
            refuse(x, t->line, "construct", "extern: everything a lab file declares, it defines (no extern, no extern \"C\")");
        else if (!strcmp(s, "union"))
            refuse(x, t->line, "union", "union: no unions in a lab file (they reinterpret memory)");
        else if (!strcmp(s, "reinterpret_cast") || !strcmp(s, "const_cast"))
            refuse(x, t->line, "pointer", "%s: no casts between pointer types", s);
        else if (!strcmp(s, "goto") || !strcmp(s, "throw") || !strcmp(s, "try") || !strcmp(s, "catch") ||
                 !strcmp(s, "typeid") || !strcmp(s, "dynamic_cast"))
            refuse(x, t->line, "construct", "%s: not in the dialect of a lab file", s);
        else if (!strcmp(s, "new") || (!strcmp(s, "delete") && !(prev && !strcmp(prev->text, "="))))
            refuse(x, t->line, "construct", "%s: no dynamic allocation in a lab file (device memory comes from the harness)", s);
        else if (!strcmp(s, "using") && after && !strcmp(after->text, "namespace"))
            refuse(x, t->line, "construct", "using namespace: name what you use");
        else if (is_reserved(s) && !sset_find(&x->api_reserved, s)) {
            if (starts_with(s, "__builtin") || starts_with(s, "__sync") || starts_with(s, "__atomic") ||
                starts_with(s, "__c11_") || starts_with(s, "__scoped_"))
                refuse(x, t->line, "builtin", "%s: a compiler builtin (a lab file calls only the lab API)", s);
            else
                refuse(x, t->line, "reserved", "%s: a name reserved to the compiler and the kit, which the lab API does not use", s);
        }
    }
    free(code);
}

/* ---- rules 2 to 5: the student's syntax tree ------------------------------------------------------- */

typedef struct kids {
    CXCursor c[8];
    unsigned n;
} kids;

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kids *k = d;
    if (k->n < 8)
        k->c[k->n++] = c;
    return CXChildVisit_Continue;
}

/* The expression children of c (TypeRefs and the like left out). */
static kids expr_kids(CXCursor c)
{
    kids all = {.n = 0}, out = {.n = 0};
    clang_visitChildren(c, kids_visit, &all);
    for (unsigned i = 0; i < all.n; i++)
        if (clang_isExpression(clang_getCursorKind(all.c[i])))
            out.c[out.n++] = all.c[i];
    return out;
}

/* The first token of c's extent in the student's file ("" when c is not written there). */
static const char *first_token(const ctx *x, CXCursor c)
{
    unsigned a, b;
    if (!cursor_span(x, c, &a, &b))
        return "";
    unsigned i = tok_at(x, a);
    while (i < x->n_toks && x->toks[i].kind == CXToken_Comment)
        i++;
    return i < x->n_toks && x->toks[i].start == a ? x->toks[i].text : "";
}

static int is_reference_type(CXType t)
{
    return t.kind == CXType_LValueReference || t.kind == CXType_RValueReference;
}

/* A parameter, or a variable of a function (not static): the objects a pointer may point into. */
static int is_own_object(CXCursor r, int allow_reference)
{
    enum CXCursorKind k = clang_getCursorKind(r);
    if (k == CXCursor_ParmDecl)
        return allow_reference || !is_reference_type(clang_getCursorType(r));
    if (k != CXCursor_VarDecl)
        return 0;
    enum CXCursorKind p = clang_getCursorKind(clang_getCursorSemanticParent(r));
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(r);
    return (is_function_kind(p) || p == CXCursor_LambdaExpr) && sc != CX_SC_Static && sc != CX_SC_Extern &&
           clang_getCursorTLSKind(r) == CXTLS_None && (allow_reference || !is_reference_type(clang_getCursorType(r)));
}

static int pointer_ok(const ctx *x, CXCursor e, int depth);
enum type_class { T_OTHER, T_PTR, T_REF, T_NULL, T_BOOL, T_INT, T_FLOAT, T_RECORD, T_ARRAY, T_DEP, T_VOID, T_FN };
static enum type_class classify(CXType t);

/* 1 when the token after expression e is ->: e is the pointer of a member access. */
static int arrow_after(const ctx *x, CXCursor e)
{
    unsigned a, b;
    if (!cursor_span(x, e, &a, &b))
        return 0;
    unsigned i = tok_at(x, b);
    while (i < x->n_toks && x->toks[i].kind == CXToken_Comment)
        i++;
    return i < x->n_toks && strcmp(x->toks[i].text, "->") == 0;
}

/* 1 when &e makes a pointer into the function's own objects: a local variable or parameter (not a
   reference, which may be bound to anything), or an element or member of one. */
static int lvalue_ok(const ctx *x, CXCursor e, int depth)
{
    if (depth > 64)
        return 0;
    enum CXCursorKind k = clang_getCursorKind(e);
    kids ch = expr_kids(e);
    switch (k) {
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
        return ch.n == 1 && lvalue_ok(x, ch.c[0], depth + 1);
    case CXCursor_DeclRefExpr:
        return is_own_object(clang_getCursorReferenced(e), 0);
    case CXCursor_MemberRefExpr: {
        CXCursor r = clang_getCursorReferenced(e);
        if (!clang_Cursor_isNull(r) && !clang_isInvalid(clang_getCursorKind(r)) &&
            (clang_getCursorKind(r) != CXCursor_FieldDecl || is_reference_type(clang_getCursorType(r))))
            return 0;
        if (ch.n == 0)
            return 1; /* a member of this */
        return arrow_after(x, ch.c[0]) ? pointer_ok(x, ch.c[0], depth + 1) : lvalue_ok(x, ch.c[0], depth + 1);
    }
    case CXCursor_ArraySubscriptExpr:
        return ch.n >= 1 && (pointer_ok(x, ch.c[0], depth + 1) || lvalue_ok(x, ch.c[0], depth + 1));
    case CXCursor_UnaryOperator:
        return strcmp(first_token(x, e), "*") == 0 && ch.n == 1 && pointer_ok(x, ch.c[0], depth + 1);
    case CXCursor_ConditionalOperator:
        return ch.n == 3 && lvalue_ok(x, ch.c[1], depth + 1) && lvalue_ok(x, ch.c[2], depth + 1);
    default:
        return 0;
    }
}

/* 1 when e is a pointer made from the function's own pointers and objects. */
static int pointer_ok(const ctx *x, CXCursor e, int depth)
{
    if (depth > 64)
        return 0;
    enum CXCursorKind k = clang_getCursorKind(e);
    kids ch = expr_kids(e);
    switch (k) {
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
        return ch.n >= 1 && pointer_ok(x, ch.c[ch.n - 1], depth + 1);
    case CXCursor_DeclRefExpr:
        return is_own_object(clang_getCursorReferenced(e), 1);
    case CXCursor_CXXThisExpr:
        return 1;
    case CXCursor_BinaryOperator:
        return ch.n == 2 && (pointer_ok(x, ch.c[0], depth + 1) || pointer_ok(x, ch.c[1], depth + 1));
    case CXCursor_UnaryOperator: {
        const char *op = first_token(x, e);
        if (strcmp(op, "&") == 0 || strcmp(op, "bitand") == 0)
            return ch.n == 1 && lvalue_ok(x, ch.c[0], depth + 1);
        return ch.n == 1 && pointer_ok(x, ch.c[0], depth + 1);
    }
    case CXCursor_ArraySubscriptExpr:
        return ch.n >= 1 && (pointer_ok(x, ch.c[0], depth + 1) || lvalue_ok(x, ch.c[0], depth + 1));
    case CXCursor_MemberRefExpr:
        if (ch.n == 0)
            return 1; /* a member of this */
        if (arrow_after(x, ch.c[0]))
            return pointer_ok(x, ch.c[0], depth + 1);
        /* a pointer read from a member holds what was stored there (made by these rules too); an
           array member is part of the object, which must be the function's own */
        if (classify(clang_getCursorType(e)) == T_PTR && pointer_ok(x, ch.c[0], depth + 1))
            return 1;
        return lvalue_ok(x, ch.c[0], depth + 1);
    case CXCursor_ConditionalOperator:
        return ch.n == 3 && pointer_ok(x, ch.c[1], depth + 1) && pointer_ok(x, ch.c[2], depth + 1);
    default:
        return 0;
    }
}

/* The variable an lvalue is part of (through parentheses, dots and array elements), or a null cursor. */
static CXCursor base_variable(const ctx *x, CXCursor e, int depth)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    kids ch = expr_kids(e);
    if (depth > 64)
        return clang_getNullCursor();
    if (k == CXCursor_DeclRefExpr)
        return clang_getCursorReferenced(e);
    if ((k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr) && ch.n == 1)
        return base_variable(x, ch.c[0], depth + 1);
    if (k == CXCursor_MemberRefExpr && ch.n == 1 && !arrow_after(x, ch.c[0]))
        return base_variable(x, ch.c[0], depth + 1);
    if (k == CXCursor_ArraySubscriptExpr && ch.n == 2 && classify(clang_getCursorType(ch.c[0])) == T_ARRAY)
        return base_variable(x, ch.c[0], depth + 1);
    return clang_getNullCursor();
}

/* Refuses an assignment, or ++ or --, to a variable declared outside the student's file
   (threadIdx.x = 0 writes the emulator's state; on a GPU threadIdx is read-only). */
static void judge_write(ctx *x, CXCursor c, unsigned line)
{
    kids ch = expr_kids(c);
    if (ch.n == 0)
        return;
    CXCursor target = ch.c[0];
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
        const char *op = first_token(x, c);
        unsigned a, b;
        int post = 0;
        if (cursor_span(x, c, &a, &b)) {
            unsigned i = tok_at(x, b);
            post = i > 0 && (!strcmp(x->toks[i - 1].text, "++") || !strcmp(x->toks[i - 1].text, "--"));
        }
        if (strcmp(op, "++") != 0 && strcmp(op, "--") != 0 && !post)
            return;
    } else {
        unsigned a, b;
        if (!cursor_span(x, target, &a, &b))
            return;
        unsigned i = tok_at(x, b);
        while (i < x->n_toks && x->toks[i].kind == CXToken_Comment)
            i++;
        const char *op = i < x->n_toks ? x->toks[i].text : "";
        size_t n = strlen(op);
        if (n == 0 || op[n - 1] != '=' || !strcmp(op, "==") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
            !strcmp(op, "!="))
            return;
    }
    CXCursor v = base_variable(x, target, 0);
    if (clang_Cursor_isNull(v) || clang_getCursorKind(v) != CXCursor_VarDecl ||
        is_allowed_file(x, cursor_file(v, NULL, NULL)))
        return;
    char name[300], text[120];
    display_name(v, name, sizeof name);
    refuse(x, line, "internals", "%s: writes to %s, which belongs to the kit, not to the lab file",
           cursor_text(x, target, text, sizeof text), name);
}

static void judge_address_of(ctx *x, CXCursor c, unsigned line)
{
    const char *op = first_token(x, c);
    if (strcmp(op, "&") != 0 && strcmp(op, "bitand") != 0)
        return;
    kids ch = expr_kids(c);
    if (ch.n == 1 && lvalue_ok(x, ch.c[0], 0))
        return;
    char text[120];
    refuse(x, line, "pointer",
           "&%s: a pointer is made only from a local variable or parameter, or an element or member of one",
           ch.n ? cursor_text(x, ch.c[0], text, sizeof text) : "");
}

static enum type_class classify(CXType t)
{
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_Pointer:
    case CXType_MemberPointer:
    case CXType_BlockPointer:
        return T_PTR;
    case CXType_LValueReference:
    case CXType_RValueReference:
        return T_REF;
    case CXType_NullPtr:
        return T_NULL;
    case CXType_Bool:
        return T_BOOL;
    case CXType_Void:
        return T_VOID;
    case CXType_Record:
        return T_RECORD;
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
    case CXType_DependentSizedArray:
        return T_ARRAY;
    case CXType_FunctionProto:
    case CXType_FunctionNoProto:
        return T_FN;
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Half:
    case CXType_Float16:
    case CXType_Float128:
        return T_FLOAT;
    case CXType_Dependent:
    case CXType_Unexposed:
    case CXType_Auto:
    case CXType_Invalid:
        return T_DEP;
    default:
        if ((t.kind >= CXType_Char_U && t.kind <= CXType_Int128) || t.kind == CXType_Enum)
            return T_INT;
        return T_OTHER;
    }
}

/* The canonical spelling of t without its top-level const and volatile. */
static void unqualified(CXType t, char *out, size_t len)
{
    t = clang_getCanonicalType(t);
    cxs(clang_getTypeSpelling(t), out, len);
    for (int again = 1; again;) {
        again = 0;
        size_t n = strlen(out);
        if (t.kind == CXType_Pointer || t.kind == CXType_MemberPointer) {
            const char *tails[] = {" const", " volatile", " __restrict", " restrict"};
            for (int i = 0; i < 4; i++)
                if (ends_with(out, tails[i])) {
                    out[n - strlen(tails[i])] = '\0';
                    again = 1;
                }
        } else {
            const char *heads[] = {"const ", "volatile "};
            for (int i = 0; i < 2; i++)
                if (starts_with(out, heads[i])) {
                    memmove(out, out + strlen(heads[i]), n - strlen(heads[i]) + 1);
                    again = 1;
                }
        }
    }
}

static int same_unqualified(CXType a, CXType b)
{
    char sa[512], sb[512];
    unqualified(a, sa, sizeof sa);
    unqualified(b, sb, sizeof sb);
    return strcmp(sa, sb) == 0;
}

/* Judges an explicit cast: none between pointer types, pointers and integers, or references to
   different types, nor one that a template could turn into one of those. */
static void judge_cast(ctx *x, CXCursor c, unsigned line)
{
    kids ch = expr_kids(c);
    if (ch.n == 0)
        return;
    /* the operand before the compiler's own conversions: (void *)p is a cast over an implicit one */
    CXCursor operand = ch.c[ch.n - 1];
    for (kids in = expr_kids(operand); clang_getCursorKind(operand) == CXCursor_UnexposedExpr && in.n == 1;
         in = expr_kids(operand))
        operand = in.c[0];
    CXType to = clang_getCanonicalType(clang_getCursorType(c));
    CXType from = clang_getCanonicalType(clang_getCursorType(operand));
    enum type_class ct = classify(to), cf = classify(from);
    char ts[200], fs[200], text[120];
    cxs(clang_getTypeSpelling(clang_getCursorType(c)), ts, sizeof ts);
    cxs(clang_getTypeSpelling(clang_getCursorType(operand)), fs, sizeof fs);
    cursor_text(x, c, text, sizeof text);
    const char *why = NULL;
    if (ct == T_VOID || same_unqualified(to, from))
        return;
    if (ct == T_REF) {
        if (!same_unqualified(clang_getPointeeType(to), from))
            why = "a cast to a reference of another type";
    } else if (ct == T_PTR) {
        if (cf == T_PTR) {
            CXType pt = clang_getPointeeType(to), pf = clang_getPointeeType(from);
            if (!same_unqualified(pt, pf) || clang_isConstQualifiedType(pt) < clang_isConstQualifiedType(pf) ||
                clang_isVolatileQualifiedType(pt) < clang_isVolatileQualifiedType(pf))
                why = "a cast between pointer types";
        } else if (cf == T_ARRAY) {
            if (!same_unqualified(clang_getPointeeType(to), clang_getArrayElementType(from)))
                why = "a cast between pointer types";
        } else if (cf == T_INT) {
            why = "an integer made into a pointer";
        } else if (cf != T_NULL && cf != T_RECORD) {
            why = "a cast to a pointer type";
        }
    } else if (cf == T_PTR || cf == T_ARRAY || cf == T_FN) {
        if (ct != T_BOOL)
            why = "a pointer made into a number";
    } else if ((ct == T_DEP && (cf == T_INT || cf == T_DEP || cf == T_NULL)) || (cf == T_DEP && ct == T_INT)) {
        why = "a cast between a template type and a number, which the template could make a pointer cast (let "
              "the conversion be implicit: T v = x;)";
    }
    if (why)
        refuse(x, line, "pointer", "%s: %s (%s to %s)", text, why, fs, ts);
}

/* A namespace-scope declaration of the student's: no operator, and no name declared elsewhere. */
static void judge_name(ctx *x, CXCursor c, unsigned line)
{
    char name[256];
    cxs(clang_getCursorSpelling(c), name, sizeof name);
    if (!name[0])
        return;
    if (starts_with(name, "operator") && !isalnum((unsigned char)name[8]) && name[8] != '_') {
        refuse(x, line, "redeclaration",
               "%s at namespace scope: a lab file defines operators only as members of its own types", name);
        return;
    }
    sset_item *it = sset_find(&x->outside, name);
    if (!it)
        return;
    CXCursor t = clang_getSpecializedCursorTemplate(c);
    if (!clang_Cursor_isNull(t) && !is_student(x, cursor_file(t, NULL, NULL)))
        refuse(x, line, "redeclaration", "a specialization of %s, which %s declares: a lab file specializes only its own templates",
               name, it->note);
    else
        refuse(x, line, "redeclaration",
               "%s is also declared in %s: a lab file does not overload, specialize or shadow a name declared outside it",
               name, it->note);
}

/* A local or a parameter of the student's: it may not reuse a name of the kit's or a harness's. */
static void judge_local_name(ctx *x, CXCursor c, unsigned line)
{
    char name[256];
    cxs(clang_getCursorSpelling(c), name, sizeof name);
    sset_item *it = name[0] ? sset_find(&x->outside, name) : NULL;
    if (it && (it->flags & 2))
        refuse(x, line, "redeclaration",
               "%s is also declared in %s: a lab file does not shadow a name of the kit or the harness, not even in a function",
               name, it->note);
}

static void judge_var(ctx *x, CXCursor c, unsigned line)
{
    char name[256];
    cxs(clang_getCursorSpelling(c), name, sizeof name);
    enum CXCursorKind p = clang_getCursorKind(clang_getCursorSemanticParent(c));
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
    int ns = p == CXCursor_TranslationUnit || p == CXCursor_Namespace;
    unsigned a, b, at;
    int constexpr_ = 0, shared = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &at);
    if (cursor_span(x, c, &a, &b))
        for (unsigned i = tok_at(x, a); i < x->n_toks && x->toks[i].start < at; i++) {
            constexpr_ |= strcmp(x->toks[i].text, "constexpr") == 0;
            shared |= strcmp(x->toks[i].text, "__shared__") == 0 || strcmp(x->toks[i].text, "__constant__") == 0;
        }
    if ((sc == CX_SC_Static || ns || is_record_kind(p)) && !constexpr_ && !shared && sc != CX_SC_Extern)
        refuse(x, line, "storage",
               "%s variable %s: a lab file has no static, global or thread_local variables (constexpr constants are fine)",
               ns ? "global" : is_record_kind(p) ? "static member" : "static", name);
    if (clang_getCursorType(c).kind == CXType_VariableArray)
        refuse(x, line, "construct", "%s: no variable-length arrays", name);
    if (ns)
        judge_name(x, c, line);
}

static void judge_function(ctx *x, CXCursor c, unsigned line)
{
    char name[256];
    unsigned a, b;
    int defaulted = 0; /* = default and = delete define a function too */
    if (cursor_span(x, c, &a, &b))
        for (unsigned i = tok_at(x, a); i + 1 < x->n_toks && x->toks[i + 1].start < b; i++)
            defaulted |= !strcmp(x->toks[i].text, "=") &&
                         (!strcmp(x->toks[i + 1].text, "default") || !strcmp(x->toks[i + 1].text, "delete"));
    if (!clang_isCursorDefinition(c) && !defaulted) {
        CXCursor def = clang_getCursorDefinition(c);
        if (clang_Cursor_isNull(def) || !is_student(x, cursor_file(def, NULL, NULL)))
            refuse(x, line, "construct",
                   "%s is declared but not defined in this file (a lab file defines every function it declares)",
                   cxs(clang_getCursorSpelling(c), name, sizeof name));
    }
    if (is_namespace_scope(c))
        judge_name(x, c, line);
}

/* The name a dependent member or scope reference uses, from the tokens ("" when unknown). */
static void dependent_name(const ctx *x, CXCursor c, char *out, size_t len)
{
    unsigned a, b;
    out[0] = '\0';
    if (!cursor_span(x, c, &a, &b))
        return;
    kids ch = expr_kids(c);
    unsigned from = a;
    int member = clang_getCursorKind(c) == CXCursor_MemberRefExpr;
    if (member && ch.n > 0) {
        unsigned ca, cb;
        if (cursor_span(x, ch.c[0], &ca, &cb))
            from = cb;
    }
    unsigned last = UINT_MAX;
    for (unsigned i = tok_at(x, from); i < x->n_toks && x->toks[i].start <= b; i++) {
        const tok *t = &x->toks[i];
        if (t->kind == CXToken_Identifier && (member ? 1 : (last != UINT_MAX && i == last + 1))) {
            snprintf(out, len, "%s", t->text);
            if (member)
                return;
        }
        if (!member && strcmp(t->text, "::") == 0)
            last = i;
        if (!member && strcmp(t->text, "template") == 0 && last == i - 1)
            last = i;
    }
}

/* Judges entity r, which student cursor c refers to. by_name: r is a candidate of an overloaded name. */
static void judge_entity(ctx *x, CXCursor c, CXCursor r, unsigned line, int from_macro, int by_name)
{
    CXFile rf = cursor_file(r, NULL, NULL);
    enum CXCursorKind rk = clang_getCursorKind(r);
    if (is_allowed_file(x, rf) || rk == CXCursor_Namespace || rk == CXCursor_TemplateTypeParameter ||
        rk == CXCursor_NonTypeTemplateParameter || rk == CXCursor_TemplateTemplateParameter)
        return;
    char name[600], key[1200], spelled[256];
    display_name(r, name, sizeof name);
    cxs(clang_getCursorSpelling(r), spelled, sizeof spelled);
    if (is_reserved(spelled) && !sset_find(&x->api_reserved, spelled))
        return; /* a reserved name: refused with its token where the student spells it */
    if (!rf) {
        refuse(x, line, "builtin", "%s: a compiler builtin (a lab file calls only the lab API)", name);
        return;
    }
    if ((rk == CXCursor_TypedefDecl || rk == CXCursor_TypeAliasDecl) && in_system_header(r))
        return; /* the C headers' types (int32_t, size_t, ...) */
    if (rk == CXCursor_Constructor || rk == CXCursor_Destructor) {
        r = clang_getCursorSemanticParent(r);
        rk = clang_getCursorKind(r);
    }
    entity_key(r, key, sizeof key);
    sset_item *it = sset_find(&x->api, key);
    if (it) {
        if (!(it->flags & 1) && !from_macro)
            refuse(x, line, "api", "%s: the lab API offers it only through its macro", name);
        return;
    }
    if (by_name && is_function_kind(clang_getCursorKind(unspecialized(r))) && sset_find(&x->api_fn, name))
        return;
    (void)c;
    if (is_record_kind(clang_getCursorKind(clang_getCursorSemanticParent(unspecialized(r)))))
        refuse(x, line, "internals", "%s: a member of the kit that the lab API does not use (grader/lab_api.cu)", name);
    else
        refuse(x, line, "api", "%s is not part of the lab API (grader/lab_api.cu), your lab's given code or the files your lab uses", name);
}

static void judge_reference(ctx *x, CXCursor c, unsigned line)
{
    int from_macro = has_offset(x->macro_starts, x->n_macro_starts, file_offset(c));
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor t[64];
    unsigned n = targets_of(c, t, 64);
    char name[256];
    if (k == CXCursor_OverloadedDeclRef) {
        cxs(clang_getCursorSpelling(c), name, sizeof name);
        if (n == 0 && !from_macro && !sset_find(&x->own_fn, name) && !sset_find(&x->api_fn_short, name))
            refuse(x, line, "api", "%s is not part of the lab API (grader/lab_api.cu), your lab's given code or the files your lab uses", name);
        for (unsigned i = 0; i < n; i++)
            judge_entity(x, c, t[i], line, from_macro, 1);
        return;
    }
    if (n > 0) {
        judge_entity(x, c, t[0], line, from_macro, 0);
        return;
    }
    if ((k == CXCursor_MemberRefExpr || k == CXCursor_DeclRefExpr) && !from_macro) {
        char text[120];
        dependent_name(x, c, name, sizeof name);
        if (name[0] && !sset_find(&x->own_members, name) && !sset_find(&x->api_members, name))
            refuse(x, line, "internals", "%s: %s is not a member of the lab API's types or of yours",
                   cursor_text(x, c, text, sizeof text), name);
    }
}

static void judge_macro(ctx *x, CXCursor c, unsigned line)
{
    if (in_directive(x->ds, x->nd, file_offset(c), 0))
        return; /* a name in a directive (#ifndef G): the directive is judged */
    CXCursor def = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(def) || clang_isInvalid(clang_getCursorKind(def)))
        return; /* a builtin macro: its reserved name is refused with its token */
    if (is_allowed_file(x, cursor_file(def, NULL, NULL)) || in_system_header(def))
        return;
    char usr[600], name[256];
    cxs(clang_getCursorSpelling(c), name, sizeof name);
    if (sset_find(&x->api, cxs(clang_getCursorUSR(def), usr, sizeof usr)) ||
        (is_reserved(name) && !sset_find(&x->api_reserved, name)))
        return; /* a reserved name is refused with its token */
    refuse(x, line, "api", "macro %s is not part of the lab API (grader/lab_api.cu)", name);
}

static void judge_cursor(ctx *x, CXCursor c, unsigned line)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (is_reference_kind(k))
        judge_reference(x, c, line);
    switch (k) {
    case CXCursor_UnaryOperator:
        judge_address_of(x, c, line);
        judge_write(x, c, line);
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        judge_write(x, c, line);
        break;
    case CXCursor_AddrLabelExpr:
        refuse(x, line, "pointer", "&&label: no label addresses");
        break;
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXStaticCastExpr:
        judge_cast(x, c, line);
        break;
    case CXCursor_VarDecl:
        judge_var(x, c, line);
        if (!is_namespace_scope(c))
            judge_local_name(x, c, line);
        break;
    case CXCursor_ParmDecl:
        judge_local_name(x, c, line);
        break;
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
    case CXCursor_ConversionFunction:
        judge_function(x, c, line);
        break;
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_UnionDecl:
    case CXCursor_EnumDecl:
    case CXCursor_TypedefDecl:
    case CXCursor_TypeAliasDecl:
    case CXCursor_TypeAliasTemplateDecl:
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
    case CXCursor_Namespace:
    case CXCursor_NamespaceAlias:
        if (is_namespace_scope(c))
            judge_name(x, c, line);
        break;
    case CXCursor_EnumConstantDecl:
        if (is_namespace_scope(clang_getCursorSemanticParent(c)))
            judge_name(x, c, line);
        break;
    case CXCursor_UnexposedDecl: /* a variable template, which libclang does not expose: judged as a variable */
        {
            char name[256];
            cxs(clang_getCursorSpelling(c), name, sizeof name);
            if (name[0] && name[0] != '<')
                judge_var(x, c, line);
        }
        break;
    case CXCursor_UsingDeclaration:
        if (is_namespace_scope(c))
            refuse(x, line, "construct", "a using-declaration at namespace scope: name what you use where you use it");
        break;
    default:
        break;
    }
}

static enum CXChildVisitResult judge_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ctx *x = d;
    unsigned line;
    if (is_student(x, cursor_file(c, &line, NULL)))
        judge_cursor(x, c, line);
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult judge_top(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ctx *x = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    unsigned line;
    CXFile f = cursor_file(c, &line, NULL);
    if (k == CXCursor_MacroExpansion) {
        if (is_student(x, f))
            judge_macro(x, c, line);
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_InclusionDirective || k == CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    if (is_student(x, f)) {
        judge_cursor(x, c, line);
        clang_visitChildren(c, judge_visit, x);
        return CXChildVisit_Continue;
    }
    if ((k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) && !in_system_header(c))
        return CXChildVisit_Recurse;
    return CXChildVisit_Continue;
}

/* ---- compile errors ----------------------------------------------------------------------------- */

/* A compile error in the student's file is refused at its line. One elsewhere (in the harness, or
   in a kit template the student's code instantiated) is refused at the student's line that led
   there when a note names one, else at line 1; only the first such, and only when the student's
   file has no error of its own (the others are then most likely its consequences). */
static void judge_diagnostics(ctx *x)
{
    int own = 0, elsewhere = 0;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0, nd = clang_getNumDiagnostics(x->tu); i < nd; i++) {
            CXDiagnostic d = clang_getDiagnostic(x->tu, i);
            char msg[500], file[PATH_MAX];
            CXFile f = NULL;
            unsigned line = 0;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, NULL, NULL);
            if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error || !f) {
                clang_disposeDiagnostic(d);
                continue;
            }
            cxs(clang_getDiagnosticSpelling(d), msg, sizeof msg);
            if (pass == 0 && is_student(x, f)) {
                refuse(x, line, "compile error", "%s", msg);
                own = 1;
            } else if (pass == 1 && !is_student(x, f) && !own && !elsewhere) {
                unsigned at = 0;
                CXDiagnosticSet notes = clang_getChildDiagnostics(d);
                for (unsigned j = 0, nn = clang_getNumDiagnosticsInSet(notes); j < nn && !at; j++) {
                    CXDiagnostic note = clang_getDiagnosticInSet(notes, j);
                    CXFile nf = NULL;
                    unsigned nl = 0;
                    clang_getExpansionLocation(clang_getDiagnosticLocation(note), &nf, &nl, NULL, NULL);
                    if (is_student(x, nf))
                        at = nl;
                    clang_disposeDiagnostic(note);
                }
                refuse(x, at ? at : 1, "compile error", "%s (in %s:%u)", msg,
                       base_name(cxs(clang_getFileName(f), file, sizeof file)), line);
                elsewhere = 1;
            }
            clang_disposeDiagnostic(d);
        }
}

/* ---- the check ---------------------------------------------------------------------------------------- */

static int cmp_refusal(const void *a, const void *b)
{
    const refusal *p = a, *q = b;
    if (p->line != q->line)
        return p->line < q->line ? -1 : 1;
    return p->order < q->order ? -1 : p->order > q->order;
}

static int readable(const char *path, FILE *report, const char *what)
{
    if (path && access(path, R_OK) == 0)
        return 1;
    fprintf(report, "labcheck: cannot read %s %s\n", what, path ? path : "(none given)");
    return 0;
}

/* The whole file at path, NUL-terminated, or NULL. */
static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap + 1);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap && !(buf = realloc(buf, (cap *= 2) + 1)))
            break;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *size = n;
    return buf;
}

/* The check itself, in the process that runs it (labcheck_run's child). */
static int check(const labcheck_opts *o, FILE *report)
{
    const char *source = o->n_args > 0 ? o->args[o->n_args - 1] : NULL;
    if (!readable(o->student, report, "the student's file") || !readable(o->api, report, "the API file") ||
        !readable(source, report, "the translation unit"))
        return 2;
    for (int i = 0; i < o->n_uses; i++)
        if (!readable(o->uses[i], report, "the uses file"))
            return 2;
    for (int i = 0; i < o->n_given; i++)
        if (!readable(o->given[i], report, "the given file"))
            return 2;
    ctx *x = calloc(1, sizeof *x);
    if (!x)
        abort();
    x->o = o;
    x->student_base = base_name(o->student);
    x->index = clang_createIndex(0, 0);
    int rc = 2;
    size_t size = 0;
    char *original = read_all(o->student, &size), *parsed = NULL;
    if (!original) {
        fprintf(report, "labcheck: cannot read the student's file %s\n", o->student);
        goto out;
    }
    /* rule 1 first, on the raw text; libclang parses the text without the refused directives */
    x->text = original;
    x->size = size;
    x->ds = scan_directives(original, size, &x->nd);
    if (load_api(x, report) != 0)
        goto out;
    judge_directives(x, x->ds, x->nd);
    parsed = blanked(original, size, x->ds, x->nd);
    struct CXUnsavedFile student = {o->student, parsed, (unsigned long)size};
    enum CXErrorCode e = clang_parseTranslationUnit2(
        x->index, NULL, o->args, o->n_args, &student, 1,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &x->tu);
    if (e != CXError_Success || !x->tu) {
        fprintf(report, "labcheck: libclang could not parse %s (error %d)\n", source, (int)e);
        goto out;
    }
    x->student = clang_getFile(x->tu, o->student);
    for (int i = 0; i < o->n_uses; i++)
        x->uses[i] = clang_getFile(x->tu, o->uses[i]);
    for (int i = 0; i < o->n_given; i++)
        if ((x->given[x->n_given] = clang_getFile(x->tu, o->given[i])) != NULL)
            x->n_given++;
    CXCursor top = clang_getTranslationUnitCursor(x->tu);
    clang_visitChildren(top, pre_top, x);
    int included = 0;
    for (unsigned i = 0; i < x->n_incs && x->student; i++)
        included |= in_file(x->incs[i].to, x->student);
    if (!included) {
        fprintf(report, "labcheck: %s does not include %s (check the -I folders)\n", source, o->student);
        goto out;
    }
    if (x->n_macro_starts)
        qsort(x->macro_starts, x->n_macro_starts, sizeof *x->macro_starts, cmp_unsigned);
    close_given(x);
    clang_visitChildren(top, names_visit, x);
    if (!o->guard && x->nd >= 3 && x->ds[0].ok && sset_find(&x->outside_macros, x->ds[0].t[2].text))
        refuse(x, x->ds[0].line, "preprocessor", "include guard %s: a macro of that name is defined outside this file",
               x->ds[0].t[2].text);
    judge_include_paths(x, x->ds, x->nd);
    x->toks = lex_file(x->tu, x->student, &x->text, &x->size, &x->n_toks);
    judge_diagnostics(x);
    judge_tokens(x, x->ds, x->nd);
    clang_visitChildren(top, judge_top, x);

    qsort(x->refs, x->n_refs, sizeof *x->refs, cmp_refusal);
    unsigned max = o->max_refusals > 0 ? (unsigned)o->max_refusals : 20;
    for (unsigned i = 0; i < x->n_refs && i < max; i++)
        fprintf(report, "%s:%u: %s: %s\n", x->student_base, x->refs[i].line, x->refs[i].rule, x->refs[i].what);
    if (x->n_refs > max)
        fprintf(report, "%s:%u: more: %u more refusals from this line on\n", x->student_base, x->refs[max].line,
                x->n_refs - max);
    rc = x->n_refs ? 1 : 0;
out:
    for (unsigned i = 0; i < x->n_refs; i++)
        free(x->refs[i].what);
    free(x->refs);
    free_toks(x->toks, x->n_toks);
    free(x->macro_starts);
    free_directives(x->ds, x->nd);
    free(x->incs);
    sset *sets[] = {&x->api, &x->api_fn, &x->api_fn_short, &x->api_members, &x->api_reserved,
                    &x->outside, &x->outside_macros, &x->own_members, &x->own_fn};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++)
        sset_free(sets[i]);
    if (x->tu)
        clang_disposeTranslationUnit(x->tu);
    clang_disposeIndex(x->index);
    free(original);
    free(parsed);
    free(x);
    return rc;
}

int labcheck_run(const labcheck_opts *o, FILE *report)
{
    /* The check runs in a child under a memory and a CPU limit: a template that instantiates
       without bound must not take the machine (the compiler that builds the runner is limited so too). */
    unsigned long mb = o->memory_mb > 0 ? (unsigned long)o->memory_mb : 2048;
    unsigned long secs = o->cpu_seconds > 0 ? (unsigned long)o->cpu_seconds : 60;
    int fds[2];
    fflush(report);
    if (pipe(fds) != 0) {
        fprintf(report, "labcheck: pipe failed\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        fprintf(report, "labcheck: fork failed\n");
        return 2;
    }
    if (pid == 0) {
        close(fds[0]);
        struct rlimit as = {mb << 20, mb << 20}, cpu = {secs, secs + 1};
        setrlimit(RLIMIT_AS, &as);
        setrlimit(RLIMIT_CPU, &cpu);
        int null = open("/dev/null", O_WRONLY); /* libclang's own complaints: the report says what matters */
        if (null >= 0)
            dup2(null, 2);
        FILE *out = fdopen(fds[1], "w");
        int rc = out ? check(o, out) : 2;
        if (out)
            fclose(out);
        _exit(rc);
    }
    close(fds[1]);
    char buf[4096];
    ssize_t got;
    while ((got = read(fds[0], buf, sizeof buf)) > 0)
        fwrite(buf, 1, (size_t)got, report);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) <= 2)
        return WEXITSTATUS(status);
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (sig == SIGXCPU || sig == SIGKILL)
        fprintf(report, "%s:1: limits: parsing the file took more than %lu s of CPU time (a template instantiated "
                        "without bound?)\n", base_name(o->student), secs);
    else
        fprintf(report, "%s:1: limits: libclang stopped (%s) parsing the file, most likely out of its %lu MiB of "
                        "memory (a template instantiated without bound?)\n", base_name(o->student),
                sig ? strsignal(sig) : "an unexpected exit", mb);
    return 1;
}

/* ---- the command line ------------------------------------------------------------------------------- */

int labcheck_parse_args(int argc, char **argv, labcheck_opts *o, char *err, size_t len)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            o->args = (const char *const *)argv + i + 1;
            o->n_args = argc - i - 1;
            break;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v || strcmp(v, "--") == 0) {
            snprintf(err, len, "%s needs a value", a);
            return -1;
        }
        i++;
        if (strcmp(a, "--student") == 0)
            o->student = v;
        else if (strcmp(a, "--guard") == 0)
            o->guard = v;
        else if (strcmp(a, "--api") == 0)
            o->api = v;
        else if (strcmp(a, "--api-cache") == 0)
            o->api_cache = v;
        else if (strcmp(a, "--max") == 0)
            o->max_refusals = atoi(v);
        else if (strcmp(a, "--memory") == 0)
            o->memory_mb = atoi(v);
        else if (strcmp(a, "--cpu-time") == 0)
            o->cpu_seconds = atoi(v);
        else if (strcmp(a, "--uses") == 0 || strcmp(a, "--given") == 0) {
            int *n = a[2] == 'u' ? &o->n_uses : &o->n_given;
            const char **list = a[2] == 'u' ? o->uses : o->given;
            if (*n == LABCHECK_MAX_FILES) {
                snprintf(err, len, "at most %d %s files", LABCHECK_MAX_FILES, a);
                return -1;
            }
            list[(*n)++] = v;
        } else {
            snprintf(err, len, "unknown option %s", a);
            return -1;
        }
    }
    if (!o->student || !o->api || o->n_args < 1) {
        snprintf(err, len, "usage: labcheck --student PATH [--guard NAME] [--uses PATH]... [--given PATH]... "
                           "--api API.cu [--api-cache FILE] -- <compiler args...> SOURCE");
        return -1;
    }
    return 0;
}
