/*
 * Tests of labcheck (grader/labcheck.c), the checker of a lab file's syntax tree: every solution
 * and skeleton is accepted; each rule, in each spelling, is refused at its line; the broken
 * submissions whose trick is in the source are refused; the API cache and the limits work.
 * Run from the kit's root; make test sets KIT_BUILD.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kit_test.h"
#include "labcheck.h"

static const char *build_dir(void)
{
    const char *v = getenv("KIT_BUILD");
    return v && *v ? v : "build";
}

/* The untouched skeletons: the student's kit keeps them in grader/skeletons/ (its labs/ are the student's). */
static const char *skeleton_root(void)
{
    return access("grader/skeletons", F_OK) == 0 ? "grader/skeletons" : "labs";
}

/* What labcheck needs to know of a lab, from its grading.spec and its skeleton. */
typedef struct lab_info {
    char lab[64];
    char file[64];
    char guard[96];
    char uses[4][128]; /* NN-slug/file.cuh */
    int n_uses;
    char given[4][256];
    int n_given;
} lab_info;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static int spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Reads lab's file, uses and given files; the guard is the skeleton's #ifndef. Returns 0 or -1. */
static int load_lab(const char *lab, lab_info *li)
{
    char path[512], line[512];
    memset(li, 0, sizeof *li);
    snprintf(li->lab, sizeof li->lab, "%s", lab);
    snprintf(path, sizeof path, "labs/%s/grading.spec", lab);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "file ", 5) == 0)
            snprintf(li->file, sizeof li->file, "%.63s", line + 5);
        else if (strncmp(line, "uses ", 5) == 0 && li->n_uses < 4)
            snprintf(li->uses[li->n_uses++], sizeof li->uses[0], "%.127s", line + 5);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/%s/%s", skeleton_root(), lab, li->file);
    if (!(f = fopen(path, "r")))
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "#ifndef %95s", li->guard) == 1)
            break;
    fclose(f);
    glob_t g;
    snprintf(path, sizeof path, "labs/%s/harness/*_given.cuh", lab);
    if (glob(path, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc && li->n_given < 4; i++)
            snprintf(li->given[li->n_given++], sizeof li->given[0], "%s", g.gl_pathv[i]);
        globfree(&g);
    }
    return li->file[0] && li->guard[0] ? 0 : -1;
}

/*
 * Checks a lab file as the grader would: a scratch folder holds the student's file (text) and the
 * uses files (from root), the translation unit is the lab's driver in the CPU build. Returns
 * labcheck_run's result, its report in out, and the equivalent command line in cmd.
 */
static int run_check(const lab_info *li, const char *root, const char *text, const char *extra_file,
                     const char *extra_text, char *out, size_t len, char *cmd, size_t cmd_len)
{
    char scratch[512], student[700], uses[4][700], inc[600], cache[512], path[700];
    snprintf(scratch, sizeof scratch, "%s/labcheck-tests/scratch", build_dir());
    char rm[1100];
    snprintf(rm, sizeof rm, "rm -rf '%s' && mkdir -p '%s'", scratch, scratch);
    if (system(rm) != 0)
        return -1;
    snprintf(student, sizeof student, "%s/%s", scratch, li->file);
    if (spit(student, text) != 0)
        return -1;
    if (extra_file) {
        snprintf(path, sizeof path, "%s/%s", scratch, extra_file);
        spit(path, extra_text);
    }
    labcheck_opts o;
    memset(&o, 0, sizeof o);
    o.student = student;
    o.guard = li->guard;
    o.api = "grader/lab_api.cu";
    snprintf(cache, sizeof cache, "%s/labcheck-tests/api.cache", build_dir());
    o.api_cache = cache;
    o.max_refusals = 100;
    for (int i = 0; i < li->n_uses; i++) {
        snprintf(path, sizeof path, "%s/%s", root, li->uses[i]);
        char *u = slurp(path);
        snprintf(uses[i], sizeof uses[i], "%s/%s", scratch, strrchr(li->uses[i], '/') + 1);
        if (!u || spit(uses[i], u) != 0) {
            free(u);
            return -1;
        }
        free(u);
        o.uses[o.n_uses++] = uses[i];
    }
    for (int i = 0; i < li->n_given; i++)
        o.given[o.n_given++] = li->given[i];
    char source[256];
    snprintf(inc, sizeof inc, "-I%s", scratch);
    snprintf(source, sizeof source, "labs/%s/harness/driver.cu", li->lab);
    const char *args[] = {"-x", "c++", "-std=c++17", "-DKIT_CPU", inc, "-Icommon", source};
    o.args = args;
    o.n_args = 7;
    size_t n = (size_t)snprintf(cmd, cmd_len, "build/grader/labcheck --student %s --guard %s", student, li->guard);
    for (int i = 0; i < o.n_uses && n < cmd_len; i++)
        n += (size_t)snprintf(cmd + n, cmd_len - n, " --uses %s", o.uses[i]);
    for (int i = 0; i < o.n_given && n < cmd_len; i++)
        n += (size_t)snprintf(cmd + n, cmd_len - n, " --given %s", o.given[i]);
    if (n < cmd_len)
        snprintf(cmd + n, cmd_len - n, " --api grader/lab_api.cu -- -x c++ -std=c++17 -DKIT_CPU %s -Icommon %s", inc,
                 source);
    FILE *rep = tmpfile();
    int rc = labcheck_run(&o, rep);
    rewind(rep);
    size_t got = fread(out, 1, len - 1, rep);
    out[got] = '\0';
    fclose(rep);
    return rc;
}

/* Lab folder names, from labs/ * /grading.spec. */
static int lab_names(char names[16][64])
{
    glob_t g;
    int n = 0;
    if (glob("labs/*/grading.spec", 0, NULL, &g) != 0)
        return 0;
    for (size_t i = 0; i < g.gl_pathc && n < 16; i++) {
        const char *p = g.gl_pathv[i] + 5;
        snprintf(names[n++], 64, "%.*s", (int)(strchr(p, '/') - p), p);
    }
    globfree(&g);
    return n;
}

/* Every lab's file under root is accepted. */
static void accepted_under(const char *root)
{
    char names[16][64], out[8192], cmd[2048], path[512];
    int n = lab_names(names);
    KIT_ASSERT_MSG(n >= 9, "found %d labs in labs/", n);
    for (int i = 0; i < n; i++) {
        lab_info li;
        KIT_ASSERT_MSG(load_lab(names[i], &li) == 0, "%s: cannot read its grading.spec or skeleton", names[i]);
        snprintf(path, sizeof path, "%s/%s/%s", root, li.lab, li.file);
        char *text = slurp(path);
        KIT_ASSERT_MSG(text != NULL, "cannot read %s", path);
        if (!text)
            continue;
        int rc = run_check(&li, root, text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
        KIT_ASSERT_MSG(rc == 0 && out[0] == '\0', "%s: expected accepted, got exit %d:\n%srerun: %s", path, rc, out, cmd);
        free(text);
    }
}

static void test_solutions_accepted(void)
{
    accepted_under("solutions");
}

static void test_skeletons_accepted(void)
{
    accepted_under(skeleton_root());
}

/* Lab 1's skeleton with text inserted after its #include "kit_lab.h" line; *first is the first inserted line. */
static char *with_snippet(const lab_info *li, const char *snippet, unsigned *first)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", skeleton_root(), li->lab, li->file);
    char *base = slurp(path);
    if (!base)
        return NULL;
    char *at = strstr(base, "#include \"kit_lab.h\"\n");
    if (!at) {
        free(base);
        return NULL;
    }
    at += strlen("#include \"kit_lab.h\"\n");
    *first = 1;
    for (char *p = base; p < at; p++)
        *first += *p == '\n';
    char *out = malloc(strlen(base) + strlen(snippet) + 2);
    sprintf(out, "%.*s%s\n%s", (int)(at - base), base, snippet, at);
    free(base);
    return out;
}

/* One refused example: the snippet, the line of it refused (1 = its first), the rule, and a word of the message. */
typedef struct refused_case {
    const char *name;
    const char *snippet;
    unsigned line;
    const char *rule;
    const char *says;
} refused_case;

static const refused_case refused[] = {
    /* rule 1: directives, in every spelling */
    {"#define", "#define SPEED 1", 1, "preprocessor", "#define SPEED"},
    {"digraph define", "%:define SPEED 1", 1, "preprocessor", "%:define SPEED"},
    {"line-splice define", "#def\\\nine SPEED 1", 1, "preprocessor", "#define SPEED"},
    {"splice after the hash", "#\\\ndefine SPEED 1", 1, "preprocessor", "#define SPEED"},
    {"#undef", "#undef KIT_HD", 1, "preprocessor", "#undef KIT_HD"},
    {"#line", "#line 400 \"other.cu\"", 1, "preprocessor", "#line"},
    {"_Pragma", "_Pragma(\"GCC optimize(\\\"O0\\\")\")", 1, "preprocessor", "_Pragma"},
    {"#if 0 region", "#if 0\n#define HIDDEN 1\n#endif", 1, "preprocessor", "#if"},
    {"#define inside #if 0", "#if 0\n#define HIDDEN 1\n#endif", 2, "preprocessor", "#define HIDDEN"},
    {"#pragma GCC", "#pragma GCC optimize(\"O0\")", 1, "preprocessor", "#pragma GCC"},
    {"#include <stdio.h>", "#include <stdio.h>", 1, "preprocessor", "#include <stdio.h>"},
    {"#include by path", "#include \"../../common/kit_cpu.h\"", 1, "preprocessor", "kit_cpu.h"},
    {"#include_next", "#include_next <stdint.h>", 1, "preprocessor", "#include_next"},
    {"#error", "#error stop", 1, "preprocessor", "#error"},
    /* rule 2: pointers */
    {"&threadIdx", "inline const void *p_tid() { return &threadIdx; }", 1, "pointer", "&threadIdx"},
    /* threadIdx and its siblings are values (common/kit_cpu.h): their address, or a write to them, does not compile */
    {"&threadIdx.x", "inline const unsigned *p_tidx() { return &threadIdx.x; }", 1, "compile error", "address of an rvalue"},
    {"(long)ptr", "inline long p_long(int *p) { return (long)p; }", 1, "pointer", "(long)p: a pointer made into a number"},
    {"(int *)charptr", "inline int *p_cast(char *c) { return (int *)c; }", 1, "pointer", "(int *)c: a cast between pointer types"},
    {"(int *)0", "inline int *p_zero() { return (int *)0; }", 1, "pointer", "an integer made into a pointer"},
    {"reinterpret_cast", "inline int *p_rc(char *c) { return reinterpret_cast<int *>(c); }", 1, "pointer", "reinterpret_cast"},
    {"const_cast", "inline int *p_cc(const int *c) { return const_cast<int *>(c); }", 1, "pointer", "const_cast"},
    {"template cast", "template <typename T>\nT p_t(long a) { return (T)a; }", 2, "pointer", "(T)a"},
    {"&function", "inline int twice(int v) { return 2 * v; }\ninline bool p_fn() { return &twice != nullptr; }", 2,
     "pointer", "&twice"},
    {"&reference", "inline unsigned *p_ref(unsigned &r) { return &r; }", 1, "pointer", "&r"},
    {"&&label", "inline void *p_label() { here: return &&here; }", 1, "pointer", "&&label"},
    {"union", "union pun { int i; float f; };", 1, "union", "union"},
    /* rule 3: storage, asm, attributes, builtins, constructs */
    {"static local", "inline int s_loc() { static int calls = 0; return ++calls; }", 1, "storage", "static variable calls"},
    {"__shared__", "__device__ inline int s_sh() { __shared__ int x[32]; x[0] = 1; return x[0]; }", 1, "storage",
     "KIT_DYNAMIC_SHARED"},
    {"global", "int g_count;", 1, "storage", "global variable g_count"},
    {"thread_local", "thread_local int t_count;", 1, "storage", "thread_local"},
    {"static member", "struct s_holder { static int count; };", 1, "storage", "static member variable count"},
    {"variable template", "template <typename T>\nint s_vt = 1;", 2, "storage", "global variable s_vt"},
    {"__asm__", "inline void a_nop() { __asm__(\"nop\"); }", 1, "asm", "__asm__"},
    {"file-scope asm", "asm(\".globl a_sym\");", 1, "asm", "asm"},
    {"[[gnu::...]]", "[[gnu::always_inline]] inline int at_f() { return 1; }", 1, "attribute", "[[...]]"},
    {"__attribute__", "__attribute__((constructor)) inline void at_c() {}", 1, "attribute", "__attribute__"},
    {"alignas", "struct at_a { alignas(16) int v; };", 1, "attribute", "alignas"},
    {"__builtin_memcpy", "inline void b_cp(int *d, const int *s) { __builtin_memcpy(d, s, 4); }", 1, "builtin",
     "__builtin_memcpy"},
    {"__sync builtin", "inline int b_sync(int *p) { return __sync_fetch_and_add(p, 1); }", 1, "builtin", "__sync_fetch_and_add"},
    {"__COUNTER__", "constexpr int r_counter = __COUNTER__;", 1, "reserved", "__COUNTER__"},
    {"new", "inline int c_new() { int *p = new int(3); return *p; }", 1, "construct", "new"},
    {"goto", "inline int c_goto(int n) { if (n) goto out; n = 2; out: return n; }", 1, "construct", "goto"},
    {"throw", "inline int c_throw(int n) { if (n) throw 1; return 0; }", 1, "construct", "throw"},
    {"variable-length array", "inline int c_vla(int n) { int a[n]; a[0] = n; return a[0]; }", 1, "construct",
     "variable-length"},
    {"extern", "extern int e_x;", 1, "construct", "extern"},
    {"extern \"C\"", "extern \"C\" { inline int e_c() { return 0; } }", 1, "construct", "extern"},
    {"using namespace", "using namespace std;", 1, "construct", "using namespace"},
    {"namespace-scope using", "using std::size_t;", 1, "construct", "using-declaration"},
    {"declared, not defined", "int helper_decl(int);", 1, "construct", "declared but not defined"},
    /* rule 4: declarations that reach names outside the file, and the kit's internals */
    {"overload of min", "inline int min(int a, int b, int c) { return a < b ? a : c; }", 1, "redeclaration",
     "min is also declared in kit_cpu.h"},
    {"specialization of a kit template", "template <>\nstruct kit_value<float> { typedef float type; };", 2,
     "redeclaration", "a specialization of kit_value"},
    {"redeclared kit_cpu_thread_idx", "inline int kit_cpu_thread_idx() { return 0; }", 1, "redeclaration", "kit_cpu_thread_idx"},
    {"fopen declared", "inline int fopen(const char *p) { return p != nullptr; }", 1, "redeclaration",
     "fopen is also declared in stdio.h"},
    {"operator< for kit_kv32", "inline bool operator<(kit_kv32 a, int b) { return kit_key(&a, 0) < b; }", 1,
     "redeclaration", "operator< at namespace scope"},
    {"threadIdx.x = 0", "__device__ inline void i_w() { threadIdx.x = 0; }", 1, "compile error", "not assignable"},
    {"++blockIdx.y", "__device__ inline void i_inc() { ++blockIdx.y; }", 1, "compile error", "not assignable"},
    {"kit_kv32's key", "inline int i_key(kit_kv32 v) { return v.key; }", 1, "internals", "kit_kv32::key"},
    {"kit_shared's offset", "template <typename T>\nlong long i_off(kit_shared<T> s) { return s.off_ + 0; }", 2,
     "internals", "off_"},
    /* rule 5: references outside the allowlist */
    {"kit_cpu_shared_load", "__device__ inline void i_load(int *out) { kit_cpu_shared_load(0, out, 4); }", 1, "api",
     "kit_cpu_shared_load is not part of the lab API"},
    {"memcpy", "inline void i_mc(int *d, const int *s) { memcpy(d, s, 4); }", 1, "api", "memcpy"},
    {"kit_cpu_thread_idx spelled", "inline unsigned i_now() { return kit_cpu_thread_idx().x; }", 1, "api",
     "only through its macro"},
    {"a macro outside the API", "inline int i_nomem() { return KIT_EXIT_NOMEM; }", 1, "api", "macro KIT_EXIT_NOMEM"},
    {"a name found by its argument", "template <typename T>\nint i_adl(T x) { return secret_helper(x); }", 2, "api",
     "secret_helper"},
    {"a kernel launch", "__global__ void i_k(int *p) { p[0] = 1; }\ninline void i_launch(int *p) { KIT_LAUNCH(i_k, 1, 1, 0, p); }",
     2, "api", "KIT_LAUNCH"},
    {"a local named as the kit's", "__device__ inline int i_sh() { int kit_key = 1; return kit_key; }", 1, "redeclaration",
     "not even in a function"},
    {"a parameter named as the kit's", "__device__ inline int i_pa(int kit_gen_name) { return kit_gen_name; }", 1,
     "redeclaration", "kit_gen_name is also declared in"},
    /* what does not compile */
    {"compile error", "inline int ce() { return 1 }", 1, "compile error", "expected ';'"},
};

static void test_refused(void)
{
    lab_info li;
    KIT_ASSERT_MSG(load_lab("01-sequential-merge", &li) == 0, "cannot read lab 1");
    char out[16384], cmd[2048];
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        const refused_case *c = &refused[i];
        unsigned first = 0, lines = 1;
        for (const char *p = c->snippet; *p; p++)
            lines += *p == '\n';
        char *text = with_snippet(&li, c->snippet, &first);
        KIT_ASSERT_MSG(text != NULL, "cannot build the file of case %s", c->name);
        if (!text)
            continue;
        int rc = run_check(&li, skeleton_root(), text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
        char want[256];
        snprintf(want, sizeof want, "%s:%u: %s: ", li.file, first + c->line - 1, c->rule);
        int found = 0, stray = 0;
        for (char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
            unsigned at = 0;
            size_t eol = strcspn(l, "\n");
            if (strncmp(l, want, strlen(want)) == 0 && memmem(l, eol, c->says, strlen(c->says)))
                found = 1;
            if (sscanf(l + strlen(li.file), ":%u:", &at) != 1 || at < first || at >= first + lines)
                stray = 1;
        }
        KIT_ASSERT_MSG(rc == 1 && found && !stray,
                       "case %s: expected exit 1 and a line '%s...%s...', nothing outside lines %u-%u; got exit %d:\n%s"
                       "the file: %s; rerun: %s",
                       c->name, want, c->says, first, first + lines - 1, rc, out,
                       "build/labcheck-tests/scratch/merge_sequential.cuh", cmd);
        free(text);
    }
}

/* The dialect's everyday forms, which must all pass. */
static void test_dialect_accepted(void)
{
    static const char snippet[] =
        "constexpr const char *raw_text = R\"(\n#define E 5\n)\";\n"
        "constexpr int table[4] = {1, 2, 3, 4};\n"
        "struct pair_view {\n"
        "    int a, b;\n"
        "    KIT_HD bool operator<(const pair_view &o) const { return a < o.a; }\n"
        "    pair_view &operator=(const pair_view &) = default;\n"
        "    void nope() = delete;\n"
        "    static constexpr int width = 4;\n"
        "};\n"
        "template <typename T>\nstruct own_box { T v; };\n"
        "template <>\nstruct own_box<int> { int v; };\n"
        "template <typename T>\n"
        "__device__ inline T pick(const T *p, int n, kit_shared<T> s)\n"
        "{\n"
        "    T loc[4] = {p[0], p[1], p[2], p[3]};\n"
        "    const T *q = &p[n];\n"
        "    T *r = &loc[1];\n"
        "    const T *c = (const T *)r;\n"
        "    T best = kit_key(p, 0) < kit_key(s, 0) ? p[0] : q[0];\n"
        "#pragma unroll\n"
        "    for (int i = 0; i < 4; i++)\n"
        "        best = loc[i] < best ? loc[i] : best;\n"
        "#pragma unroll 4\n"
        "    for (int i = 0; i < 4; i++)\n"
        "        best = c[i] < best ? c[i] : best;\n"
        "    auto pick_first = [&](int k) { return loc[k]; };\n"
        "    int t = (int)threadIdx.x + static_cast<int>(blockDim.x) + table[n & 3] + pair_view::width;\n"
        "    long long u = (long long)t * min(t, 3);\n"
        "    (void)u;\n"
        "    loc[0] += 1; ++t; n--;\n"
        "    (void)raw_text;\n"
        "    return pick_first(t & 3) < best ? pick_first(0) : best;\n"
        "}\n"
        "KIT_HD inline int own_helper(int x) { return kit_gcd(x, 6) + (x > 0 ? x : -x); }\n"
        "__host__ __device__ inline int *no_null() { return nullptr; }\n"
        "__device__ inline int shared_sum(kit_shared<int> s) { kit_shared<int> t = KIT_DYNAMIC_SHARED(int);\n"
        "    int v = s[0] + t[1]; s[1] = v; __syncthreads(); return v; }\n";
    lab_info li;
    KIT_ASSERT_MSG(load_lab("01-sequential-merge", &li) == 0, "cannot read lab 1");
    unsigned first = 0;
    char *text = with_snippet(&li, snippet, &first);
    char out[8192], cmd[2048];
    int rc = run_check(&li, skeleton_root(), text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
    KIT_ASSERT_MSG(rc == 0 && !out[0], "the dialect's forms (from line %u) were refused, exit %d:\n%srerun: %s", first,
                   rc, out, cmd);
    free(text);
}

/* Whole files: a guard named like the harness's, code before the guard, an include found in the wrong place. */
static void test_guard_and_includes(void)
{
    lab_info li;
    KIT_ASSERT_MSG(load_lab("01-sequential-merge", &li) == 0, "cannot read lab 1");
    char path[512], out[8192], cmd[2048], want[256];
    snprintf(path, sizeof path, "%s/%s/%s", skeleton_root(), li.lab, li.file);
    char *base = slurp(path);
    KIT_ASSERT_MSG(base != NULL, "cannot read %s", path);
    if (!base)
        return;
    unsigned guard_line = 1;
    char *g = strstr(base, "#ifndef ");
    for (char *p = base; p < g; p++)
        guard_line += *p == '\n';

    /* the harness's guard name: were it accepted, the harness's own header would be skipped */
    char *text = malloc(strlen(base) + 64), *w = text;
    for (const char *p = base; *p;) {
        if (strncmp(p, li.guard, strlen(li.guard)) == 0) {
            w += sprintf(w, "LAB01_HARNESS_CUH");
            p += strlen(li.guard);
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    int rc = run_check(&li, skeleton_root(), text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
    snprintf(want, sizeof want, "%s:%u: preprocessor: include guard LAB01_HARNESS_CUH: this lab's file is guarded by %s\n",
             li.file, guard_line, li.guard);
    KIT_ASSERT_MSG(rc == 1 && strcmp(out, want) == 0, "a harness's guard: expected\n%sgot exit %d:\n%srerun: %s", want,
                   rc, out, cmd);
    free(text);

    /* code before the guard: the guard is then no guard */
    text = malloc(strlen(base) + 64);
    sprintf(text, "constexpr int before = 1;\n%s", base);
    rc = run_check(&li, skeleton_root(), text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
    snprintf(want, sizeof want, "%s:%u: preprocessor: #ifndef: no conditional compilation", li.file, guard_line + 1);
    KIT_ASSERT_MSG(rc == 1 && strncmp(out, want, strlen(want)) == 0, "code before the guard: expected %s..., got exit %d:\n%s",
                   want, rc, out);
    free(text);

    /* kit_types.h found beside the student's file, not in common/ */
    text = with_snippet(&li, "#include \"kit_types.h\"", &guard_line);
    rc = run_check(&li, skeleton_root(), text, "kit_types.h", "#include \"../../../common/kit_types.h\"\n", out,
                   sizeof out, cmd, sizeof cmd);
    snprintf(want, sizeof want, "%s:%u: preprocessor: #include \"kit_types.h\" found ", li.file, guard_line);
    KIT_ASSERT_MSG(rc == 1 && strncmp(out, want, strlen(want)) == 0 && strstr(out, "not the kit's header"),
                   "a kit header found in the scratch folder: expected %s..., got exit %d:\n%s", want, rc, out);
    free(text);
    free(base);
}

/* The broken submissions whose trick is in the source, and the line that refuses each (the first one). */
typedef struct fixture_case {
    const char *name;
    int rc;           /* 1 refused, 0 accepted (a trick no rule on the source can see) */
    const char *first; /* the first line of the report, up to the rule */
} fixture_case;

static const fixture_case fixtures[] = {
    {"borrow-include-solution", 1, "co_rank.cuh:9: preprocessor:"},
    {"borrow-merge-ref", 1, "merge_sequential.cuh:32: compile error:"},
    {"borrow-qsort", 1, "merge_sequential.cuh:10: construct:"},
    {"borrow-std-merge", 1, "merge_sequential.cuh:32: compile error:"},
    {"borrow-worst-ref", 1, "worst_case.cuh:93: compile error:"},
    {"forge-atexit", 1, "merge_sequential.cuh:10: construct:"},
    {"forge-constructor", 1, "cf_merge.cuh:20: attribute:"},
    {"forge-counter", 1, "co_rank.cuh:64: compile error:"},
    {"forge-global-init", 1, "cf_merge.cuh:20: storage:"},
    {"forge-hidden-stores", 1, "merge_basic.cuh:38: api:"},
    {"forge-out-param", 0, ""},
    {"forge-raw-shared", 1, "cf_merge.cuh:20: compile error:"},
    {"hidden-include-spec", 1, "co_rank.cuh:9: preprocessor:"},
    {"hidden-note-leak", 0, ""},
    {"hidden-open-spec", 1, "co_rank.cuh:10: construct:"},
    {"harm-interpose", 1, "merge_basic.cuh:12: redeclaration:"},
    {"include-secret", 1, "merge_sequential.cuh:9: preprocessor:"},
    {"read-secret", 1, "merge_sequential.cuh:9: preprocessor:"},
    {"sleep-timeout", 1, "co_rank.cuh:9: preprocessor:"},
    {"escape-write-tmp", 1, "merge_sequential.cuh:10: construct:"},
    {"fork-bomb", 1, "merge_sequential.cuh:9: preprocessor:"},
    {"exhaust-compile", 1, "co_rank.cuh:10: preprocessor:"},
    {"exhaust-memory", 1, "merge_sequential.cuh:10: storage:"},
};

static void test_fixtures(void)
{
    char dir[512], cmdline[4096], out[16384], cmd[2048];
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        const fixture_case *f = &fixtures[i];
        char patch[512], lab[64] = "", file[128] = "";
        snprintf(patch, sizeof patch, "grader/tests/submissions/%s/patch.diff", f->name);
        char *diff = slurp(patch);
        KIT_ASSERT_MSG(diff != NULL, "%s: no %s", f->name, patch);
        if (!diff)
            continue;
        char *b = strstr(diff, "\n+++ b/");
        KIT_ASSERT_MSG(b && sscanf(b + 7, "%63[^/]/%127s", lab, file) == 2, "%s: no +++ b/ line in its patch", f->name);
        free(diff);
        snprintf(dir, sizeof dir, "%s/labcheck-tests/fixture", build_dir());
        snprintf(cmdline, sizeof cmdline,
                 "rm -rf '%s' && mkdir -p '%s/%s' && cp solutions/%s/%s '%s/%s/' && "
                 "patch -s -p1 -F0 --no-backup-if-mismatch -d '%s' < '%s' >/dev/null 2>&1",
                 dir, dir, lab, lab, file, dir, lab, dir, patch);
        KIT_ASSERT_MSG(system(cmdline) == 0, "%s: its patch does not apply to solutions/ (%s)", f->name, cmdline);
        lab_info li;
        KIT_ASSERT_MSG(load_lab(lab, &li) == 0, "%s: cannot read lab %s", f->name, lab);
        char path[700];
        snprintf(path, sizeof path, "%s/%s/%s", dir, lab, file);
        char *text = slurp(path);
        if (!text)
            continue;
        int rc = run_check(&li, "solutions", text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
        KIT_ASSERT_MSG(rc == f->rc && strncmp(out, f->first, strlen(f->first)) == 0 && (f->rc || !out[0]),
                       "fixture %s: expected exit %d and a first line '%s...', got exit %d:\n%s(the file: %s; rerun: %s)",
                       f->name, f->rc, f->first, rc, out, path, cmd);
        free(text);
    }
}

/* The API cache is used when current (a planted change shows), and remade when a file it was made from changes. */
/*
 * With absolute paths the cache does not depend on the working folder: the grader checks the
 * skeleton from its own folder and the student's file from the sandbox's, and both read one cache.
 * Lab 1's skeleton is checked from the kit's folder, then from /, with a cache of its own; the
 * second run must find the cache current and leave it as it was.
 */
static void test_api_cache_any_folder(void)
{
    char root[PATH_MAX], cache[PATH_MAX + 64], student[PATH_MAX + 64], api[PATH_MAX + 32], inc[PATH_MAX + 16],
        source[PATH_MAX + 64], line[PATH_MAX + 256] = "";
    KIT_ASSERT_MSG(getcwd(root, sizeof root) != NULL, "getcwd failed");
    snprintf(cache, sizeof cache, "%s/%s/labcheck-tests/api-any-folder.cache", root, build_dir());
    snprintf(student, sizeof student, "%s/labs/01-sequential-merge/merge_sequential.cuh", root);
    snprintf(api, sizeof api, "%s/grader/lab_api.cu", root);
    snprintf(inc, sizeof inc, "-I%s/common", root);
    snprintf(source, sizeof source, "%s/labs/01-sequential-merge/harness/driver.cu", root);
    char lab_inc[PATH_MAX + 64];
    snprintf(lab_inc, sizeof lab_inc, "-I%s/labs/01-sequential-merge", root);
    const char *args[] = {"-x", "c++", "-std=c++17", "-DKIT_CPU", lab_inc, inc, source};
    labcheck_opts o;
    memset(&o, 0, sizeof o);
    o.student = student;
    o.api = api;
    o.api_cache = cache;
    o.max_refusals = 100;
    o.args = args;
    o.n_args = 7;
    remove(cache);
    FILE *rep = tmpfile();
    int first = rep ? labcheck_run(&o, rep) : -1;
    struct stat before, after;
    int made = stat(cache, &before) == 0;
    int moved = chdir("/");
    int second = moved == 0 && rep ? labcheck_run(&o, rep) : -1;
    KIT_ASSERT_MSG(chdir(root) == 0, "cannot return to %s", root);
    int kept = made && stat(cache, &after) == 0 && after.st_ino == before.st_ino &&
               after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_mtime == before.st_mtime;
    FILE *f = fopen(cache, "r");
    if (f && fgets(line, sizeof line, f))
        (void)!fgets(line, sizeof line, f); /* the args line */
    if (f)
        fclose(f);
    if (rep)
        fclose(rep);
    KIT_ASSERT_MSG(first == 0 && second == 0 && kept && strstr(line, "; -; "),
                   "with absolute paths: exits %d then %d, cache made %d and kept %d, args line '%.120s' (expected no folder, '; -; ')",
                   first, second, made, kept, line);
}

static void test_api_cache(void)
{
    lab_info li;
    KIT_ASSERT_MSG(load_lab("01-sequential-merge", &li) == 0, "cannot read lab 1");
    char cache[512], out[8192], cmd[2048], edit[2400];
    snprintf(cache, sizeof cache, "%s/labcheck-tests/api.cache", build_dir());
    unsigned first;
    char *text = with_snippet(&li, "inline int c_min(int a) { return min(a, 2); }", &first);
    int rc = run_check(&li, skeleton_root(), text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
    KIT_ASSERT_MSG(rc == 0, "min(int, int) refused: %s", out);
    /* plant: remove every allowlist line of min from the cache; the check must then refuse min */
    snprintf(edit, sizeof edit, "grep -v ' c:@F@min#I#I#$' '%s' > '%s.new' && mv '%s.new' '%s'", cache, cache, cache, cache);
    KIT_ASSERT_MSG(system(edit) == 0, "cannot edit %s", cache);
    rc = run_check(&li, skeleton_root(), text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
    KIT_ASSERT_MSG(rc == 1 && strstr(out, "min is not part of the lab API"),
                   "the check did not read the cache (min still accepted): exit %d\n%s", rc, out);
    /* the cache names the files it was made from: a newer mtime of one of them makes it stale */
    snprintf(edit, sizeof edit,
             "f=$(sed -n 's/^file \\([^ ]*kit_lab.h\\) .*/\\1/p' '%s') && [ -n \"$f\" ] && "
             "sed -i \"s|^file $f \\([0-9]*\\) [0-9]* [0-9]*$|file $f \\1 1 1|\" '%s'",
             cache, cache);
    KIT_ASSERT_MSG(system(edit) == 0, "the cache %s names no kit_lab.h", cache);
    rc = run_check(&li, skeleton_root(), text, NULL, NULL, out, sizeof out, cmd, sizeof cmd);
    KIT_ASSERT_MSG(rc == 0 && !out[0], "a stale cache was used: exit %d\n%s", rc, out);
    free(text);
}

/* A check that runs out of its memory limit says so in one line, at line 1. */
static void test_limits(void)
{
    lab_info li;
    KIT_ASSERT_MSG(load_lab("01-sequential-merge", &li) == 0, "cannot read lab 1");
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", skeleton_root(), li.lab, li.file);
    char *text = slurp(path);
    char dir[512], student[700], out[4096];
    snprintf(dir, sizeof dir, "%s/labcheck-tests/limits", build_dir());
    mkdir(dir, 0755);
    snprintf(student, sizeof student, "%s/%s", dir, li.file);
    spit(student, text);
    char inc[600];
    snprintf(inc, sizeof inc, "-I%s", dir);
    const char *args[] = {"-x", "c++", "-std=c++17", "-DKIT_CPU", inc, "-Icommon", "labs/01-sequential-merge/harness/driver.cu"};
    labcheck_opts o;
    memset(&o, 0, sizeof o);
    o.student = student;
    o.guard = li.guard;
    o.api = "grader/lab_api.cu";
    o.args = args;
    o.n_args = 7;
    o.memory_mb = 200; /* enough to start, not to parse */
    FILE *rep = tmpfile();
    int rc = labcheck_run(&o, rep);
    rewind(rep);
    size_t got = fread(out, 1, sizeof out - 1, rep);
    out[got] = '\0';
    fclose(rep);
    char want[256];
    snprintf(want, sizeof want, "%s:1: limits: ", li.file);
    KIT_ASSERT_MSG(rc == 1 && strncmp(out, want, strlen(want)) == 0 && strchr(out, '\n') == out + strlen(out) - 1,
                   "with 200 MiB: expected exit 1 and one line '%s...', got exit %d:\n%s", want, rc, out);
    free(text);
}

/* labcheck_parse_args: the command line, and its mistakes. */
static void test_parse_args(void)
{
    labcheck_opts o;
    char err[512];
    char *ok[] = {"--student", "s.cuh", "--guard", "G", "--uses", "a.cuh", "--uses", "b.cuh", "--given", "g.cuh",
                  "--api", "api.cu", "--api-cache", "c", "--", "-x", "c++", "drv.cu"};
    int rc = labcheck_parse_args(18, ok, &o, err, sizeof err);
    KIT_ASSERT_MSG(rc == 0 && strcmp(o.student, "s.cuh") == 0 && strcmp(o.guard, "G") == 0 && o.n_uses == 2 &&
                       strcmp(o.uses[1], "b.cuh") == 0 && o.n_given == 1 && strcmp(o.api, "api.cu") == 0 &&
                       strcmp(o.api_cache, "c") == 0 && o.n_args == 3 && strcmp(o.args[2], "drv.cu") == 0,
                   "a full command line: rc %d, %s", rc, rc ? err : "fields wrong");
    char *no_api[] = {"--student", "s.cuh", "--", "drv.cu"};
    rc = labcheck_parse_args(4, no_api, &o, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "usage: labcheck"), "no --api: rc %d, '%s'", rc, err);
    char *no_source[] = {"--student", "s.cuh", "--api", "a.cu", "--"};
    rc = labcheck_parse_args(5, no_source, &o, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strstr(err, "usage: labcheck"), "no translation unit: rc %d, '%s'", rc, err);
    char *unknown[] = {"--studnet", "s.cuh"};
    rc = labcheck_parse_args(2, unknown, &o, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strcmp(err, "unknown option --studnet") == 0, "a misspelled option: rc %d, '%s'", rc, err);
    char *no_value[] = {"--student"};
    rc = labcheck_parse_args(1, no_value, &o, err, sizeof err);
    KIT_ASSERT_MSG(rc == -1 && strcmp(err, "--student needs a value") == 0, "a missing value: rc %d, '%s'", rc, err);
}

/* labcheck_run: a file that cannot be read, or a translation unit that does not include the student's file, is exit 2. */
static void test_run_cannot_check(void)
{
    char out[2048];
    const char *args[] = {"-x", "c++", "-std=c++17", "-DKIT_CPU", "-Icommon", "labs/01-sequential-merge/harness/driver.cu"};
    labcheck_opts o;
    memset(&o, 0, sizeof o);
    o.student = "no/such/file.cuh";
    o.api = "grader/lab_api.cu";
    o.args = args;
    o.n_args = 6;
    FILE *rep = tmpfile();
    int rc = labcheck_run(&o, rep);
    rewind(rep);
    out[fread(out, 1, sizeof out - 1, rep)] = '\0';
    fclose(rep);
    KIT_ASSERT_MSG(rc == 2 && strcmp(out, "labcheck: cannot read the student's file no/such/file.cuh\n") == 0,
                   "a missing student file: exit %d, '%s'", rc, out);
    o.student = "solutions/03-basic-merge/merge_basic.cuh"; /* lab 1's driver does not include it */
    if (access(o.student, R_OK) != 0)
        o.student = "labs/03-basic-merge/merge_basic.cuh";
    rep = tmpfile();
    rc = labcheck_run(&o, rep);
    rewind(rep);
    out[fread(out, 1, sizeof out - 1, rep)] = '\0';
    fclose(rep);
    KIT_ASSERT_MSG(rc == 2 && strstr(out, "labcheck: labs/01-sequential-merge/harness/driver.cu does not include ") == out,
                   "a translation unit without the student's file: exit %d, '%s'", rc, out);
}

static void register_tests(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "mkdir -p '%s/labcheck-tests'", build_dir());
    if (system(dir) != 0)
        fprintf(stderr, "test_labcheck: cannot make %s/labcheck-tests\n", build_dir());
    CU_pSuite ok = kit_test_suite("labcheck: accepted");
    kit_test_add(ok, "every skeleton", test_skeletons_accepted);
    kit_test_add(ok, "the dialect's everyday forms", test_dialect_accepted);
    CU_pSuite sol = kit_test_suite("labcheck: the solutions");
    kit_test_add(sol, "every solution, with its uses", test_solutions_accepted);
    kit_test_add(sol, "the broken submissions whose trick is in the source", test_fixtures);
    if (access("solutions", F_OK) != 0)
        kit_test_skip_suite(sol, "no solutions/ here (the student's kit)");
    CU_pSuite no = kit_test_suite("labcheck: refused");
    kit_test_add(no, "each rule in each spelling, at its line", test_refused);
    kit_test_add(no, "include guards and where includes are found", test_guard_and_includes);
    CU_pSuite run = kit_test_suite("labcheck: the command");
    kit_test_add(run, "labcheck_parse_args", test_parse_args);
    kit_test_add(run, "files it cannot check: exit 2", test_run_cannot_check);
    kit_test_add(run, "the API cache", test_api_cache);
    kit_test_add(run, "the API cache serves every working folder where paths are absolute", test_api_cache_any_folder);
    kit_test_add(run, "the memory limit", test_limits);
}

int main(void)
{
    return kit_test_main("labcheck tests", register_tests);
}
