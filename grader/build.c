/* Builds a lab's runner from a submission, vetting its source and its object on the way (build.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "complog.h"
#include "kit_types.h"
#include "sandbox.h"
#include "skel.h"
#include "vet.h"

/* C headers a lab file may include besides kit_lab.h and its lab's `uses` files. */
static const char *const C_HEADERS[] = {"kit_lab.h", "kit_types.h", "stdint.h", "stddef.h", "limits.h", "stdbool.h",
                                        "float.h", "cstdint", "cstddef", "climits", "cfloat"};

/* What one compiler command is for. */
typedef enum step { STEP_PREPROCESS, STEP_OBJECT, STEP_LINK } step;

/* Paths of one build: the harness, its include folders, and the outputs. */
typedef struct paths {
    char src[4200], inc_sub[4200], inc_common[4200], bindir[4200], ii[4300], obj[4300], out[4300], log[4300];
    int from_ii; /* 1: the CPU build's object step compiles ii, the preprocessed file the source check read */
} paths;

/* Runner k > 0 of a lab (build_env.part) is built in bin-k with its log compile-k.log. */
static void paths_for(const build_env *b, const char *lab, const char *scratch, paths *p)
{
    char part[16] = "";
    if (b->part > 0)
        snprintf(part, sizeof part, "-%d", b->part);
    snprintf(p->src, sizeof p->src, "%s/labs/%s/harness/driver.cu", b->kit, lab);
    snprintf(p->inc_sub, sizeof p->inc_sub, "-I%s/scratch", scratch);
    snprintf(p->inc_common, sizeof p->inc_common, "-I%s/common", b->kit);
    snprintf(p->bindir, sizeof p->bindir, "%s/bin%s", scratch, part);
    snprintf(p->ii, sizeof p->ii, "%s/runner.ii", p->bindir);
    p->from_ii = 0;
    snprintf(p->obj, sizeof p->obj, "%s/runner.o", p->bindir);
    snprintf(p->out, sizeof p->out, "%s/runner", p->bindir);
    snprintf(p->log, sizeof p->log, "%s/compile%s.log", scratch, part);
}

void build_runner_path(const build_env *b, const char *scratch, char *path, size_t len)
{
    paths p;
    paths_for(b, "", scratch, &p);
    snprintf(path, len, "%s", p.out);
}

/*
 * The compiler's command for a step. Preprocessing is always the CPU build's (g++ -DKIT_CPU), the
 * one that the source check reads; objects and links are the mode's own. flags is scratch space.
 */
static void command(const build_env *b, step s, const paths *p, char *flags, size_t flen, char **argv)
{
    int argc = 0, cpu = b->cpu || s == STEP_PREPROCESS;
    argv[argc++] = (char *)(s == STEP_PREPROCESS ? b->cxx : b->compiler);
    if (s != STEP_LINK) {
        /* the same sources through g++, kernels run by the kit's CPU emulation; the CPU build's object
           is compiled from the preprocessed file the source check read (same compiler, same flags) */
        int from_ii = b->cpu && s == STEP_OBJECT && p->from_ii;
        if (cpu) {
            argv[argc++] = (char *)"-x";
            argv[argc++] = (char *)(from_ii ? "c++-cpp-output" : "c++");
            argv[argc++] = (char *)"-DKIT_CPU";
        }
        argv[argc++] = (char *)"-std=c++17";
        /* CPU: -Og compiles labs 7 and 9 in half of -O2's time, with the same simulated counts (mk/lab-counts.sh) */
        argv[argc++] = (char *)(cpu ? "-Og" : "-O2");
        if (cpu)
            argv[argc++] = (char *)"-Wall"; /* the student sees those in their own file (student_warnings) */
    }
    snprintf(flags, flen, "%s %s", cpu ? "" : b->nvcc_flags, s == STEP_LINK || !b->defines ? "" : b->defines);
    for (char *save, *w = strtok_r(flags, " ", &save); w && argc < 50; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    if (s == STEP_LINK) {
        argv[argc++] = (char *)p->obj;
        argv[argc++] = (char *)b->libkit;
    } else {
        argv[argc++] = (char *)p->inc_sub;
        argv[argc++] = (char *)p->inc_common;
        argv[argc++] = (char *)(s == STEP_PREPROCESS ? "-E" : "-c");
        argv[argc++] = (char *)(b->cpu && s == STEP_OBJECT && p->from_ii ? p->ii : p->src);
    }
    argv[argc++] = (char *)"-o";
    argv[argc++] = (char *)(s == STEP_PREPROCESS ? p->ii : s == STEP_OBJECT ? p->obj : p->out);
    argv[argc] = NULL;
}

/* The first line of the compiler's log that says "error" (or the linker's "undefined reference"), else its first line. */
static void compile_error_line(const char *log, char *buf, size_t len)
{
    FILE *f = fopen(log, "r");
    char line[400], first[400] = "";
    buf[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!first[0])
            snprintf(first, sizeof first, "%s", line);
        if (strstr(line, "error") || strstr(line, "undefined reference")) {
            const char *base = strstr(line, "/scratch/"); /* shorten the scratch path */
            snprintf(buf, len, "%s", base ? base + 9 : line);
            fclose(f);
            return;
        }
    }
    fclose(f);
    snprintf(buf, len, "%s", first);
}

/* Runs one compiler step on the submission in the sandbox, as the sandbox user; returns 0 or -1 with a reason. */
static int sandboxed(const build_env *b, step s, const paths *p, char *why, size_t len)
{
    char *argv[64], flags[1024], path_env[4200], home_env[4300], dir[4096];
    command(b, s, p, flags, sizeof flags, argv);
    snprintf(dir, sizeof dir, "%s", argv[0]);
    snprintf(path_env, sizeof path_env, "PATH=%s:/usr/local/bin:/usr/bin:/bin", dirname(dir));
    snprintf(home_env, sizeof home_env, "HOME=%s", p->bindir);
    char *envp[] = {path_env, home_env, (char *)"TMPDIR=/tmp", NULL};
    sb_view view; /* the kit's common/ and harnesses, the submitted files, the output folder, the compiler */
    if (sb_view_compile(&view, b->kit, p->inc_sub + 2, p->bindir, argv[0], b->libkit) != 0)
        return kit_err(why, len, "grader could not describe the compiler's view (paths too long)");
    sb_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.timeout_s = b->timeout_s;
    lim.file_bytes = 512LL << 20;
    lim.nproc = 256; /* nvcc runs a pipeline of tools */
    lim.uid = b->uid;
    lim.gid = b->gid;
    lim.no_network = 1;
    lim.cwd = p->bindir;
    lim.stdout_path = p->log;
    lim.stderr_path = p->log;
    lim.envp = envp;
    sandbox_apply(b->box, &lim, 1, b->cpu, view.bind);
    sb_result res;
    if (sb_run(argv, &lim, &res) != 0)
        return kit_err(why, len, "grader could not fork the compiler");
    if (res.kind == SB_EXITED && res.code == 0)
        return 0;
    char line[400], how[160];
    sb_describe(&res, &lim, how, sizeof how);
    compile_error_line(p->log, line, sizeof line);
    return kit_err(why, len, "compile error (%s): %s", how, line[0] ? line : "no message");
}

/* ---- the skeleton's object, which a submission's is compared with ----------------------------- */

/* The newest modification time of the files in a folder (not recursive), or of the file itself. */
static time_t newest(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    time_t t = st.st_mtime;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(path) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        char sub[4400];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (e->d_name[0] != '.' && stat(sub, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime > t)
            t = st.st_mtime;
    }
    if (d)
        closedir(d);
    return t;
}

/* Copies a trusted file. */
static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[65536];
    size_t got;
    int rc = in && out ? 0 : -1;
    while (rc == 0 && (got = fread(buf, 1, sizeof buf, in)) > 0)
        rc = fwrite(buf, 1, got, out) == got ? 0 : -1;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    return rc;
}

/* Runs a trusted compiler command (the skeleton's build) without a sandbox; returns 0 or -1. */
static int trusted(char **argv, const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(log, "w", stdout) || !freopen(log, "a", stderr))
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The grader's own program: a trusted object is stale when the grader that builds it is newer
 * (a new grader may build with other flags). */
#define GRADER_ITSELF "/proc/self/exe"

/* Is the object at obj older than any of the inputs it is built from? */
static int stale(const char *obj, const char *const *inputs)
{
    struct stat st;
    if (stat(obj, &st) != 0)
        return 1;
    for (; *inputs; inputs++)
        if (newest(*inputs) > st.st_mtime)
            return 1;
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path); /* what cannot be removed stays; the rest goes */
    return 0;
}

void build_remove_tree(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The grader's folder of kept objects and readings, work/vet, made if missing; returns dir. */
static const char *vet_folder(const build_env *b, char *dir, size_t len)
{
    snprintf(dir, len, "%s/vet", b->work);
    mkdir(dir, 0755);
    return dir;
}

/*
 * A trusted object the grader compares submissions with, built once and kept in work/vet/<name>/
 * until the kit, the lab or the compiler changes: built exactly as a submission's runner, from
 * @p src with the given files (from, to pairs, NULL-terminated) in its scratch folder.
 */
static int trusted_object(const build_env *b, const char *name, const char *src, const char *const *files,
                          const char *const *inputs, vet_object *out, char *why, size_t len)
{
    /* Read once per grader run: the kit does not change while it grades, and a batch builds each lab many times. */
    static struct {
        char name[80];
        vet_object o;
    } cache[2 * 32 + 2];
    static int cached;
    for (int i = 0; i < cached; i++)
        if (strcmp(cache[i].name, name) == 0) {
            *out = cache[i].o;
            return 0;
        }
    char vet[4300], dir[4400];
    snprintf(dir, sizeof dir, "%s/%s-%s", vet_folder(b, vet, sizeof vet), name, b->cpu ? "cpu" : "gpu");
    paths p;
    paths_for(b, "", dir, &p);
    snprintf(p.src, sizeof p.src, "%s", src);
    if (stale(p.obj, inputs)) {
        /* Built in a folder of its own and moved into place, so that graders sharing the work
           folder (make test's programs, a course's shards) never read a half-written object. */
        char tmp[4500], tsub[4600];
        paths tp;
        snprintf(tmp, sizeof tmp, "%s.XXXXXX", dir);
        int rc = mkdtemp(tmp) ? 0 : -1;
        snprintf(tsub, sizeof tsub, "%s/scratch", tmp);
        paths_for(b, "", tmp, &tp);
        snprintf(tp.src, sizeof tp.src, "%s", src);
        if (rc == 0)
            rc = mkdir(tsub, 0755) == 0 && mkdir(tp.bindir, 0755) == 0 ? 0 : -1;
        for (; rc == 0 && files[0]; files += 2) {
            char to[4700];
            snprintf(to, sizeof to, "%s/%s", tsub, files[1]);
            rc = copy_file(files[0], to);
        }
        char *argv[64], flags[1024];
        command(b, STEP_OBJECT, &tp, flags, sizeof flags, argv);
        if (rc != 0 || trusted(argv, tp.log) != 0)
            return kit_err(why, len, "grader could not build %s for the object check (see %s)", name, tp.log);
        rc = (mkdir(dir, 0755) == 0 || errno == EEXIST) && (mkdir(p.bindir, 0755) == 0 || errno == EEXIST) &&
                     rename(tp.obj, p.obj) == 0
                 ? 0
                 : -1;
        build_remove_tree(tmp);
        if (rc != 0)
            return kit_err(why, len, "grader could not keep the object of %s in %s", name, p.obj);
    }
    if (vet_object_read_kept(p.obj, 0, vet, out, why, len) != 0)
        return -1;
    if (cached < (int)(sizeof cache / sizeof cache[0])) {
        snprintf(cache[cached].name, sizeof cache[cached].name, "%s", name);
        cache[cached++].o = *out;
    }
    return 0;
}

/*
 * The student kit's untouched skeletons (mk/dist-student.sh copies labs/ there): the baseline of
 * the object check, which the student's edits in labs/ must not move.
 */
#define STUDENT_KIT_SKELETONS "grader/skeletons"

/*
 * Where the baseline's copy of the lab's skeleton is: made from the solution by stripping its
 * answers (skel.h) into work/vet/<lab>-skeleton/ when the kit has solutions/, since labs/ may hold a
 * student's edits (make check grades them there); else, in the student kit, its untouched copy in
 * STUDENT_KIT_SKELETONS (or labs/, in a kit without one).
 * Puts that folder in `dir`; returns 0, or -1 with why.
 */
static int skeleton_dir(const build_env *b, const spec_lab *spec, char *dir, size_t dlen, char *why, size_t len)
{
    char sol[4400], path[4500], err[256];
    snprintf(dir, dlen, "%s/vet/%s-skeleton", b->work, spec->lab);
    for (int f = 0; f < spec->nfiles; f++) {
        snprintf(sol, sizeof sol, "%s/solutions/%s/%s", b->kit, spec->lab, spec->files[f]);
        if (access(sol, R_OK) != 0) {
            snprintf(dir, dlen, "%s/%s/%s", b->kit, STUDENT_KIT_SKELETONS, spec->lab);
            if (access(dir, R_OK) != 0)
                snprintf(dir, dlen, "%s/labs/%s", b->kit, spec->lab);
            return 0;
        }
        snprintf(path, sizeof path, "%s/%s", dir, spec->files[f]);
        const char *const inputs[] = {sol, NULL};
        if (!stale(path, inputs))
            continue;
        char vet[4300];
        vet_folder(b, vet, sizeof vet);
        mkdir(dir, 0755);
        char tmp[4600]; /* written aside and moved into place: another grader may be reading it */
        snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
        FILE *in = fopen(sol, "r"), *out = in ? fopen(tmp, "w") : NULL;
        int rc = out && skel_strip(in, out, sol, err, sizeof err) > 0 ? 0 : -1;
        if (in)
            fclose(in);
        if (out && fclose(out) != 0)
            rc = -1;
        if (rc == 0 && rename(tmp, path) != 0)
            rc = -1;
        if (rc != 0) {
            remove(tmp);
            return kit_err(why, len, "grader could not make the skeleton of %s for the object check", sol);
        }
    }
    return 0;
}

/*
 * Where the kit holds the file of one of a lab's uses ("NN-slug/file"): the reference solution, or
 * in the student kit, which has none, its untouched skeleton (else labs/).
 */
static void use_source(const build_env *b, const char *use, char *path, size_t len)
{
    snprintf(path, len, "%s/solutions/%s", b->kit, use);
    if (access(path, R_OK) != 0)
        snprintf(path, len, "%s/%s/%s", b->kit, STUDENT_KIT_SKELETONS, use);
    if (access(path, R_OK) != 0)
        snprintf(path, len, "%s/labs/%s", b->kit, use);
}

/*
 * The lab's runner built from its skeleton (skeleton_dir()) and the reference copies of the labs it
 * uses, or in the student kit, which has none, their untouched skeletons. It is rebuilt when any of
 * them, the harness, common/ or the compiler changes.
 */
/*
 * The lab's runner object built, trusted, from the lab's files in labdir (the skeleton's, or the
 * solution's) and the reference copies of the labs it uses, into work/vet/<name>-<mode>/bin/runner.o
 * (name: the lab, then -KIND when KIND is not "", then the pairs' hash), and its reading into out.
 */
static int lab_object(const build_env *b, const spec_lab *spec, const char *labdir, const char *kind, char *name,
                      size_t nlen, vet_object *out, char *why, size_t len)
{
    char names[2 * (SPEC_MAX_FILES + SPEC_MAX_FILES)][4400], src[4300], common[4200], harness[4300];
    const char *files[2 * (SPEC_MAX_FILES + SPEC_MAX_FILES) + 1], *inputs[SPEC_MAX_FILES + SPEC_MAX_FILES + 5];
    int n = 0, i = 0;
    for (int f = 0; f < spec->nfiles; f++) {
        snprintf(names[n], sizeof names[n], "%s/%s", labdir, spec->files[f]);
        files[n] = names[n], n++;
        files[n++] = spec->files[f];
    }
    for (int u = 0; u < spec->nuses; u++) {
        use_source(b, spec->uses[u], names[n], sizeof names[n]);
        files[n] = names[n], n++;
        files[n++] = strchr(spec->uses[u], '/') + 1;
    }
    files[n] = NULL;
    snprintf(src, sizeof src, "%s/labs/%s/harness/driver.cu", b->kit, spec->lab);
    snprintf(common, sizeof common, "%s/common", b->kit);
    snprintf(harness, sizeof harness, "%s/labs/%s/harness", b->kit, spec->lab);
    for (int f = 0; f < n; f += 2) /* every file copied in */
        inputs[i++] = files[f];
    inputs[i++] = common;
    inputs[i++] = harness;
    inputs[i++] = b->compiler;
    inputs[i++] = GRADER_ITSELF;
    inputs[i] = NULL;
    /* a runner built for some (type, E) pairs alone has an object of its own (spec_runner_pairs()) */
    snprintf(name, nlen, "%s%s%s", spec->lab, kind[0] ? "-" : "", kind);
    if (b->defines && b->defines[0]) {
        unsigned h = 2166136261u; /* FNV-1a of the flags, to name the folder: the kit's own input, not a submission's */
        for (const char *c = b->defines; *c; c++)
            h = (h ^ (unsigned char)*c) * 16777619u;
        snprintf(name + strlen(name), nlen - strlen(name), "-pairs-%08x", h);
    }
    return trusted_object(b, name, src, files, inputs, out, why, len);
}

/* The lab's runner built from its skeleton: what the student's object is compared with. */
static int baseline(const build_env *b, const spec_lab *spec, vet_object *out, char *why, size_t len)
{
    char labdir[4200], name[128];
    if (skeleton_dir(b, spec, labdir, sizeof labdir, why, len) != 0)
        return -1;
    return lab_object(b, spec, labdir, "", name, sizeof name, out, why, len);
}

int build_reference(const build_env *b, const spec_lab *spec, char *path, size_t plen, char *why, size_t len)
{
    char labdir[4300], name[128], vet[4300], dir[4600];
    vet_object o;
    snprintf(labdir, sizeof labdir, "%s/solutions/%s", b->kit, spec->lab);
    if (access(labdir, R_OK) != 0)
        return kit_err(why, len, "grader: no reference solution of %s here", spec->lab);
    if (lab_object(b, spec, labdir, "reference", name, sizeof name, &o, why, len) != 0)
        return -1;
    snprintf(dir, sizeof dir, "%s/%s-%s", vet_folder(b, vet, sizeof vet), name, b->cpu ? "cpu" : "gpu");
    paths p;
    paths_for(b, "", dir, &p);
    const char *const inputs[] = {p.obj, b->libkit, NULL};
    if (stale(p.out, inputs)) {
        char tmp[4700], *argv[64], flags[1024];
        snprintf(tmp, sizeof tmp, "%s.%ld", p.out, (long)getpid()); /* linked aside, moved into place */
        command(b, STEP_LINK, &p, flags, sizeof flags, argv);
        for (int a = 0; argv[a]; a++)
            if (argv[a] == p.out)
                argv[a] = tmp;
        if (trusted(argv, p.log) != 0 || rename(tmp, p.out) != 0) {
            remove(tmp);
            return kit_err(why, len, "grader could not link the reference runner of %s (see %s)", spec->lab, p.log);
        }
    }
    snprintf(path, plen, "%s", p.out);
    return 0;
}

/* The lab API in use (grader/lab_api.cu): what any lab file may reference, whatever its skeleton does. */
static int lab_api(const build_env *b, vet_object *out, char *why, size_t len)
{
    char src[4300], common[4200];
    snprintf(src, sizeof src, "%s/grader/lab_api.cu", b->kit);
    snprintf(common, sizeof common, "%s/common", b->kit);
    const char *const files[] = {NULL}, *const inputs[] = {common, src, b->compiler, GRADER_ITSELF, NULL};
    const char *name = "lab-api";
    return trusted_object(b, name, src, files, inputs, out, why, len);
}

/* The libraries a runner links, whose definitions a submission may not replace: the kit's and the C++ library. */
static int libraries(const build_env *b, vet_object libs[2], char *why, size_t len)
{
    static vet_object cached[2];
    static char cached_for[4096];
    if (strcmp(cached_for, b->libkit) != 0) {
        char cxxlib[4096], *argv[] = {(char *)b->cxx, (char *)"-print-file-name=libstdc++.so", NULL};
        if (vet_tool_first_line(argv, cxxlib, sizeof cxxlib) != 0)
            cxxlib[0] = '\0';
        vet_object_free(&cached[0]);
        vet_object_free(&cached[1]);
        char dir[4400];
        vet_folder(b, dir, sizeof dir);
        if (vet_object_read_kept(b->libkit, 0, dir, &cached[0], why, len) != 0 ||
            (cxxlib[0] == '/' && vet_object_read_kept(cxxlib, 1, dir, &cached[1], why, len) != 0))
            return -1;
        snprintf(cached_for, sizeof cached_for, "%s", b->libkit);
    }
    libs[0] = cached[0];
    libs[1] = cached[1];
    return 0;
}

/* Checks the student's object against the skeleton's; returns 0 or -1 with the refusal. */
static int vet_build(const build_env *b, const spec_lab *spec, const paths *p, char *why, size_t len)
{
    vet_object mine, allowed[2], libs[2];
    memset(allowed, 0, sizeof allowed);
    int rc = baseline(b, spec, &allowed[0], why, len) == 0 && lab_api(b, &allowed[1], why, len) == 0 &&
                     libraries(b, libs, why, len) == 0 && vet_object_read(p->obj, 0, &mine, why, len) == 0
                 ? 0
                 : -1;
    if (rc == 0) {
        rc = vet_compare(&mine, allowed, 2, libs, 2, why, len);
        vet_object_free(&mine);
    }
    return rc; /* the allowed objects stay in trusted_object()'s cache */
}

/* ---- the lab-file checker (grader/labcheck.c): the dialect, on the syntax tree --------------------- */

/* The include guard the lab's skeleton opens with (its first #ifndef), in guard; "" when it has none. */
static void skeleton_guard(const build_env *b, const spec_lab *spec, const char *file, char *guard, size_t glen)
{
    char dir[4400], path[4600], line[512], why[200];
    guard[0] = '\0';
    if (skeleton_dir(b, spec, dir, sizeof dir, why, sizeof why) != 0)
        return;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    while (f && !guard[0] && fgets(line, sizeof line, f)) {
        char name[256];
        if (sscanf(line, " #ifndef %255s", name) == 1)
            snprintf(guard, glen, "%s", name);
    }
    if (f)
        fclose(f);
}

/*
 * labcheck's command line for one file of the lab, found in `dir`, with the files of its uses in
 * `uses_dir`: argv (room for 64) and its strings in buf (48 of them).
 */
static void labcheck_argv(const build_env *b, const spec_lab *spec, const char *file, const char *dir,
                          const char *uses_dir, const char *cache, char (*buf)[4700], char **argv)
{
    int a = 0, k = 0;
    char self[4096], harness[4300];
    ssize_t n = readlink(GRADER_ITSELF, self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    snprintf(buf[k], sizeof buf[k], "%s/labcheck", dirname(self)); /* it is built beside the grader */
    argv[a++] = buf[k++];
    argv[a++] = (char *)"--student";
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, file);
    argv[a++] = buf[k++];
    skeleton_guard(b, spec, file, buf[k], sizeof buf[k]);
    if (buf[k][0]) {
        argv[a++] = (char *)"--guard";
        argv[a++] = buf[k++];
    }
    for (int u = 0; u < spec->nuses; u++) {
        argv[a++] = (char *)"--uses";
        snprintf(buf[k], sizeof buf[k], "%s/%s", uses_dir, strchr(spec->uses[u], '/') + 1);
        argv[a++] = buf[k++];
    }
    /* the lab's given code (harness/<p>_given.cuh), whose names the file may use */
    snprintf(harness, sizeof harness, "%s/labs/%s/harness", b->kit, spec->lab);
    DIR *d = opendir(harness);
    for (struct dirent *e; d && (e = readdir(d)) && k < 36;) {
        size_t l = strlen(e->d_name);
        if (l > 10 && strcmp(e->d_name + l - 10, "_given.cuh") == 0) {
            argv[a++] = (char *)"--given";
            snprintf(buf[k], sizeof buf[k], "%s/%s", harness, e->d_name);
            argv[a++] = buf[k++];
        }
    }
    if (d)
        closedir(d);
    argv[a++] = (char *)"--api";
    snprintf(buf[k], sizeof buf[k], "%s/grader/lab_api.cu", b->kit);
    argv[a++] = buf[k++];
    argv[a++] = (char *)"--api-cache";
    argv[a++] = (char *)cache;
    argv[a++] = (char *)"--";
    argv[a++] = (char *)"-x";
    argv[a++] = (char *)"c++";
    argv[a++] = (char *)"-std=c++17";
    argv[a++] = (char *)"-DKIT_CPU";
    snprintf(buf[k], sizeof buf[k], "-I%s", dir);
    argv[a++] = buf[k++];
    if (strcmp(dir, uses_dir) != 0) {
        snprintf(buf[k], sizeof buf[k], "-I%s", uses_dir);
        argv[a++] = buf[k++];
    }
    snprintf(buf[k], sizeof buf[k], "-I%s/common", b->kit);
    argv[a++] = buf[k++];
    snprintf(buf[k], sizeof buf[k], "%s/driver.cu", harness);
    argv[a++] = buf[k++];
    argv[a] = NULL;
}

/* The first line of a file, without its newline, in line; "" when there is none. */
static void first_line_of(const char *path, char *line, size_t len)
{
    FILE *f = fopen(path, "r");
    line[0] = '\0';
    if (f && fgets(line, (int)len, f))
        line[strcspn(line, "\r\n")] = '\0';
    if (f)
        fclose(f);
}

int build_check_source(const build_env *b, const spec_lab *spec, const char *scratch, char *why, size_t len)
{
    char dir[4300], vet[4300], cache[4400], log[4400], skel[4400], out[4400], api[4400], line[400];
    char buf[48][4700], *argv[80];
    snprintf(dir, sizeof dir, "%s/scratch", scratch);
    snprintf(cache, sizeof cache, "%s/lab-api.labcheck", vet_folder(b, vet, sizeof vet));
    snprintf(log, sizeof log, "%s/labcheck.log", scratch);
    snprintf(out, sizeof out, "%s/labcheck", scratch);
    snprintf(api, sizeof api, "%s/grader/lab_api.cu", b->kit);
    if (mkdir(out, 0755) != 0 && errno != EEXIST)
        return kit_err(why, len, "grader could not make %s: %s", out, strerror(errno));
    if (skeleton_dir(b, spec, skel, sizeof skel, why, len) != 0)
        return -1;
    for (int f = 0; f < spec->nfiles; f++) {
        /* First the skeleton, trusted and outside the sandbox: it must pass, and its run writes the
           lab API's allowlist into the cache, which the student's run then only reads. A stamp in
           work/vet says it passed, until the skeleton, the kit or the checker changes. */
        char stamp[4700], names[SPEC_MAX_FILES + 3][4700];
        const char *inputs[SPEC_MAX_FILES + 8];
        int n = 0;
        snprintf(stamp, sizeof stamp, "%s/labcheck-%s-%s.ok", vet, spec->lab, spec->files[f]);
        snprintf(names[n], sizeof names[n], "%s/%s", skel, spec->files[f]);
        inputs[n] = names[n], n++;
        snprintf(names[n], sizeof names[n], "%s/common", b->kit);
        inputs[n] = names[n], n++;
        snprintf(names[n], sizeof names[n], "%s/labs/%s/harness", b->kit, spec->lab);
        inputs[n] = names[n], n++;
        for (int u = 0; u < spec->nuses; u++, n++) { /* the files of the lab's uses, where the scratch's come from */
            use_source(b, spec->uses[u], names[n], sizeof names[n]);
            inputs[n] = names[n];
        }
        labcheck_argv(b, spec, spec->files[f], skel, dir, cache, buf, argv);
        inputs[n++] = api;
        inputs[n++] = argv[0];
        inputs[n++] = GRADER_ITSELF;
        inputs[n] = NULL;
        if (stale(stamp, inputs)) {
            if (trusted(argv, log) != 0) {
                first_line_of(log, line, sizeof line);
                return kit_err(why, len, "grader: the lab-file checker refuses the skeleton of %s: %s", spec->lab, line);
            }
            FILE *ok = fopen(stamp, "w");
            if (ok)
                fclose(ok);
        }
        labcheck_argv(b, spec, spec->files[f], dir, dir, cache, buf, argv);
        /* What the checker sees: what a compile sees (the kit's common/, the labs' harnesses, the
           submitted files), the checker itself, the API file and its cache, read-only; its empty
           folder, writable. */
        sb_view view;
        if (sb_view_compile(&view, b->kit, dir, out, NULL, NULL) != 0 || sb_view_add(&view, argv[0], NULL, 0) != 0 ||
            sb_view_add(&view, api, NULL, 0) != 0 || sb_view_add(&view, cache, NULL, 0) != 0)
            return kit_err(why, len, "grader could not describe the lab-file checker's view (paths too long)");
        sb_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.timeout_s = b->timeout_s;
        lim.file_bytes = 1 << 20;
        lim.nproc = 16;
        lim.uid = b->uid;
        lim.gid = b->gid;
        lim.no_network = 1;
        lim.cwd = out;
        lim.stdout_path = log;
        lim.stderr_path = log;
        char *envp[] = {(char *)"PATH=/usr/bin:/bin", (char *)"TMPDIR=/tmp", NULL};
        lim.envp = envp;
        sandbox_apply(b->box, &lim, 1, 1, view.bind);
        sb_result res;
        /* A start that fails (SB_ERROR) is the grader's trouble, not the file's: it is tried once more.
           (Seen once in CI, 2026-12-05, as ENOENT; sb_describe() now names the step that failed.) */
        for (int attempt = 0; attempt < 2; attempt++)
            if (sb_run(argv, &lim, &res) != 0)
                return kit_err(why, len, "grader could not fork the lab-file checker");
            else if (res.kind != SB_ERROR)
                break;
        first_line_of(log, line, sizeof line);
        if (res.kind == SB_EXITED && res.code == 0)
            continue;
        if (res.kind == SB_EXITED && res.code == 1)
            return kit_err(why, len, "not accepted: %s", line);
        char how[160];
        sb_describe(&res, &lim, how, sizeof how);
        return kit_err(why, len, "not accepted: the lab-file checker could not check the file (%s)%s%s", how,
                       line[0] ? ": " : "", line);
    }
    return 0;
}

/* Runner 0's compile: the diagnostics in the student's files (complog.h), written to b->warnings. */
static void student_warnings(const build_env *b, const spec_lab *spec, const paths *p)
{
    FILE *f = b->warnings && b->part == 0 ? fopen(b->warnings, "w") : NULL;
    for (int x = 0; f && x < spec->nfiles; x++) {
        char shown[4400], block[2048];
        snprintf(shown, sizeof shown, "%s/%s/%s", b->shown ? b->shown : ".", spec->lab, spec->files[x]);
        if (complog_extract_file(p->log, spec->files[x], shown, block, sizeof block) > 0)
            fputs(block, f);
    }
    if (f)
        fclose(f);
}

int build_runner(const build_env *b, const spec_lab *spec, const char *scratch, char *why, size_t len)
{
    paths p;
    paths_for(b, spec->lab, scratch, &p);
    if (mkdir(p.bindir, 0755) != 0 || (b->uid && chown(p.bindir, b->uid, b->gid) != 0))
        return kit_err(why, len, "grader could not make %s: %s", p.bindir, strerror(errno));
    if (sandboxed(b, STEP_PREPROCESS, &p, why, len) != 0)
        return -1;
    const char *allowed[sizeof C_HEADERS / sizeof C_HEADERS[0] + SPEC_MAX_FILES + 1];
    size_t n = 0;
    for (size_t i = 0; i < sizeof C_HEADERS / sizeof C_HEADERS[0]; i++)
        allowed[n++] = C_HEADERS[i];
    for (int u = 0; u < spec->nuses; u++)
        allowed[n++] = strchr(spec->uses[u], '/') + 1;
    allowed[n] = NULL;
    char common[4200], subdir[4300];
    snprintf(common, sizeof common, "%s/common", b->kit);
    snprintf(subdir, sizeof subdir, "%s/scratch", scratch);
    const char *const dirs[] = {common, subdir, "/usr", NULL};
    for (int f = 0; f < spec->nfiles; f++) {
        char student[4400];
        snprintf(student, sizeof student, "%s/%s", subdir, spec->files[f]);
        if (vet_source(p.ii, student, allowed, dirs, why, len) != 0)
            return -1;
    }
    p.from_ii = b->cpu;
    if (sandboxed(b, STEP_OBJECT, &p, why, len) != 0)
        return -1;
    student_warnings(b, spec, &p);
    if (vet_build(b, spec, &p, why, len) != 0 || sandboxed(b, STEP_LINK, &p, why, len) != 0)
        return -1;
    /* A runner whose static data alone is over the memory limit would die in exec, looking like a crash. */
    long long loaded = b->cpu && b->box->run_mem_bytes ? vet_loaded_bytes(p.out) : 0;
    if (loaded > b->box->run_mem_bytes)
        return kit_err(why, len, "memory limit %lld MiB exceeded by the runner's code and static data (%lld MiB)",
                   b->box->run_mem_bytes >> 20, loaded >> 20);
    return 0;
}
