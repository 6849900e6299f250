/* Turns a Gradescope or LMS export of submissions into the class layout that grader --batch reads (import.h). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "import.h"
#include "report.h"

#define MAX_FILE_BYTES (1 << 20)                /* a lab file larger than this is no lab file (the grader's limit) */
#define MAX_UNZIPPED_EXPORT (4LL << 30)         /* an export's zip may unpack to this much */
#define MAX_UNZIPPED_STUDENT (64LL << 20)       /* a student's zip to this much */
#define MAX_DEPTH 12                            /* folders looked into below a student's */
#define MAX_LABS 32                             /* lab files looked for */
#define SHOWN 256                               /* room for a name as the export gives it */

/* Folders whose copies of a lab file are the kit's own, never the student's (a whole kit uploaded). */
static const char *const KIT_FOLDERS[] = {"solutions", "grader", "build", "skeletons", "__MACOSX", NULL};

/* ---- names ----------------------------------------------------------------------- */

void import_safe_name(const char *raw, char *out, size_t len)
{
    size_t n = 0, room = (len < IMPORT_NAME ? len : IMPORT_NAME) - 1;
    int gap = 0; /* a run of unsafe bytes is waiting to become one '_' */
    for (const unsigned char *p = (const unsigned char *)raw; *p && n < room; p++) {
        int safe = isascii(*p) && (isalnum(*p) || strchr("._-+", *p));
        if (!safe) {
            gap = 1;
            continue;
        }
        if (gap && n > 0 && n + 1 < room)
            out[n++] = '_';
        gap = 0;
        if (n == 0 && strchr(".-_", *p)) /* never hidden, never an option */
            continue;
        out[n++] = (char)*p;
    }
    while (n > 0 && out[n - 1] == '_')
        n--;
    out[n] = '\0';
    if (n == 0)
        snprintf(out, len, "student");
}

/* Does s end with the text `tail`? */
static int ends_with(const char *s, size_t n, const char *tail)
{
    size_t t = strlen(tail);
    return n >= t && strncmp(s + n - t, tail, t) == 0;
}

/* Cuts a trailing "_<digits>" off s[0..*n), if there is one; returns whether it did. */
static int cut_number(const char *s, size_t *n)
{
    size_t i = *n;
    while (i > 0 && isdigit((unsigned char)s[i - 1]))
        i--;
    if (i == *n || i == 0 || s[i - 1] != '_')
        return 0;
    *n = i - 1;
    return 1;
}

void import_student_of(const char *raw, char *out, size_t len)
{
    size_t n = strlen(raw), start = 0;
    while (n > 0 && strchr(" _-.", raw[n - 1])) /* what joined the name to a file's name */
        n--;
    const char *moodle = strstr(raw, "_assignsubmission_");
    const char *bb = strstr(raw, "_attempt_");
    if (moodle && (size_t)(moodle - raw) < n) { /* Moodle: "Jane Doe_123456_assignsubmission_file_" */
        n = (size_t)(moodle - raw);
        cut_number(raw, &n);
    } else if (bb && (size_t)(bb - raw) < n) { /* Blackboard: "Lab 1_jdoe_attempt_2024-01-31-12-00-00" */
        n = (size_t)(bb - raw);
        const char *last = memrchr(raw, '_', n);
        start = last ? (size_t)(last - raw) + 1 : 0;
    } else {
        size_t m = n; /* Canvas: "doejane_12345_67890", or with _LATE before the numbers */
        if (cut_number(raw, &m) && cut_number(raw, &m)) {
            n = m;
            if (ends_with(raw, n, "_LATE"))
                n -= 5;
        }
    }
    snprintf(out, len, "%.*s", (int)(n - start), raw + start);
}

/*
 * Does `name` end with the lab file `file`, either as it is or with Canvas's "-N" before its
 * extension (a second upload of merge_sequential.cuh is merge_sequential-1.cuh)? Returns the length
 * of what comes before it (0 for the file itself), or -1.
 */
static int match_file(const char *name, const char *file)
{
    size_t n = strlen(name), f = strlen(file);
    if (ends_with(name, n, file))
        return (int)(n - f);
    const char *dot = strrchr(file, '.');
    size_t base = dot ? (size_t)(dot - file) : f, ext = f - base;
    if (n < f + 2 || strncmp(name + n - ext, file + base, ext) != 0)
        return -1;
    size_t i = n - ext; /* past the digits of "-N" */
    while (i > 0 && isdigit((unsigned char)name[i - 1]))
        i--;
    if (i == n - ext || i == 0 || name[i - 1] != '-' || i - 1 < base)
        return -1;
    return strncmp(name + i - 1 - base, file, base) == 0 ? (int)(i - 1 - base) : -1;
}

/* The lab file `name` is (the longest match, so that no file name ends another's), with *prefix the length before it; -1 for none. */
static int which_file(const char *name, const import_file *files, int nfiles, int *prefix)
{
    int best = -1;
    for (int i = 0; i < nfiles; i++) {
        int p = match_file(name, files[i].name);
        if (p >= 0 && (best < 0 || strlen(files[i].name) > strlen(files[best].name)))
            best = i, *prefix = p;
    }
    return best;
}

/* ---- commands and files -------------------------------------------------------------- */

/* Runs argv (a trusted program: unzip) with its output read through *out; returns its pid, or -1. */
static pid_t spawn_reading(char *const argv[], FILE **out)
{
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    *out = pid > 0 ? fdopen(fd[0], "r") : NULL;
    if (!*out) {
        close(fd[0]);
        if (pid > 0)
            waitpid(pid, NULL, 0);
        return -1;
    }
    return pid;
}

/* Waits for a spawned program; returns its exit status, or -1 when it did not exit. */
static int reap(pid_t pid, FILE *out)
{
    char drain[512];
    while (fgets(drain, sizeof drain, out))
        ;
    fclose(out);
    int status;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Unpacks zip into the new folder dest, after reading its listing: refused (-1, with why) when it
 * unpacks to more than `limit` bytes or holds a link, an absolute path or "..", which could write
 * outside dest. unzip is Info-ZIP's, found in PATH.
 */
static int unzip_into(const char *zip, const char *dest, long long limit, char *why, size_t len)
{
    FILE *out;
    char line[PATH_MAX + 64];
    char *total[] = {"unzip", "-Zt", (char *)zip, NULL}, *names[] = {"unzip", "-Z1", (char *)zip, NULL},
         *modes[] = {"unzip", "-Zs", (char *)zip, NULL};
    pid_t pid = spawn_reading(total, &out);
    long long bytes = -1;
    if (pid > 0) {
        const char *comma = fgets(line, sizeof line, out) ? strchr(line, ',') : NULL; /* "N file(s), B bytes uncompressed, ..." */
        if (comma)
            sscanf(comma + 1, " %lld bytes uncompressed", &bytes);
        if (reap(pid, out) != 0)
            bytes = -1;
    }
    if (pid < 0 || bytes < 0)
        return snprintf(why, len, "unzip could not read it (is unzip installed? apt-get install unzip)"), -1;
    if (bytes > limit)
        return snprintf(why, len, "it unpacks to %lld bytes, more than the %lld allowed", bytes, limit), -1;
    int bad = 0;
    if ((pid = spawn_reading(names, &out)) > 0) {
        while (fgets(line, sizeof line, out)) {
            line[strcspn(line, "\n")] = '\0';
            for (char *c = line; *c; c++) /* unzip reads a Windows zip's backslashes as slashes */
                *c = *c == '\\' ? '/' : *c;
            bad |= line[0] == '/' || strcmp(line, "..") == 0 || strncmp(line, "../", 3) == 0 || strstr(line, "/../") ||
                   ends_with(line, strlen(line), "/..");
        }
        bad |= reap(pid, out) != 0;
    }
    if ((pid = spawn_reading(modes, &out)) > 0) {
        while (fgets(line, sizeof line, out))
            bad |= line[0] == 'l' && (line[1] == 'r' || line[1] == '-'); /* "lrwxrwxrwx": a symbolic link */
        bad |= reap(pid, out) != 0;
    }
    if (pid < 0 || bad)
        return snprintf(why, len, "it holds a link, an absolute path or '..', which could land outside its folder"), -1;
    char *unpack[] = {"unzip", "-qq", "-o", (char *)zip, "-d", (char *)dest, NULL};
    if (mkdir(dest, 0700) != 0 || (pid = spawn_reading(unpack, &out)) < 0 || reap(pid, out) != 0)
        return snprintf(why, len, "unzip could not unpack it"), -1;
    return 0;
}

/* buf = a/b; returns 0, or -1 when that does not fit (and the path is not to be used). */
static int join(char *buf, size_t len, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb + 2 > len)
        return -1;
    memcpy(buf, a, la);
    buf[la] = '/';
    memcpy(buf + la + 1, b, lb + 1);
    return 0;
}

/* Do the two files hold the same bytes? (Both are at most MAX_FILE_BYTES.) */
static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Copies the regular file from (no link followed) to `to` through a temporary name; returns 0 or -1. */
static int copy_file(const char *from, const char *to)
{
    char tmp[PATH_MAX + 16], buf[65536];
    snprintf(tmp, sizeof tmp, "%s.import", to);
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), out = -1, rc = -1;
    if (in >= 0 && (out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0) {
        ssize_t got;
        rc = 0;
        while (rc == 0 && (got = read(in, buf, sizeof buf)) > 0)
            rc = write(out, buf, (size_t)got) == got ? 0 : -1;
        rc |= close(out);
        rc |= rc == 0 ? rename(tmp, to) : 0;
    }
    if (in >= 0)
        close(in);
    if (rc != 0)
        remove(tmp);
    return rc;
}

/* ---- a student's lab files ------------------------------------------------------------ */

/* The best copy of one lab file found so far for a student. */
typedef struct pick {
    char path[PATH_MAX];  /* "" while none */
    int rank;             /* 3: under labs/<lab>/, 2: under a folder named like its lab, 1: anywhere else */
    char other[PATH_MAX]; /* a different copy of the same rank that was passed over, or "" */
} pick;

/* What a walk through a student's files needs. */
typedef struct walk {
    const import_file *files;
    int nfiles;
    pick picks[MAX_LABS];
    const char *tmp;  /* where zips are unpacked */
    const char *root; /* the export's entries */
    int zips;        /* zips unpacked so far, to name their folders */
    FILE *log;
    const char *student; /* for warnings */
} walk;

/* A path as the export holds it: below the export's folder, or below the zip it was unpacked from. */
static const char *in_export(const walk *w, const char *path)
{
    size_t t = strlen(w->tmp), r = strlen(w->root);
    if (strncmp(path, w->tmp, t) == 0 && path[t] == '/' && strchr(path + t + 1, '/')) /* tmp/zip-N/... */
        return strchr(path + t + 1, '/') + 1;
    return strncmp(path, w->root, r) == 0 && path[r] == '/' ? path + r + 1 : path;
}

static void warn(const walk *w, const char *what, const char *path)
{
    fputs("  warning: ", w->log);
    report_put_clean(w->log, w->student);
    fprintf(w->log, ": %s", what);
    if (path) {
        fputs(": ", w->log);
        report_put_clean(w->log, path);
    }
    fputc('\n', w->log);
}

/* Weighs a copy of lab file i at `path` against the best so far. */
static void consider(walk *w, int i, const char *path, int rank)
{
    pick *p = &w->picks[i];
    if (rank > p->rank) {
        snprintf(p->path, sizeof p->path, "%s", path);
        p->rank = rank;
        p->other[0] = '\0';
    } else if (rank == p->rank && !p->other[0] && !same_bytes(path, p->path)) {
        snprintf(p->other, sizeof p->other, "%s", path);
    }
}

static int is_kit_folder(const char *name)
{
    for (int i = 0; KIT_FOLDERS[i]; i++)
        if (strcmp(name, KIT_FOLDERS[i]) == 0)
            return 1;
    return 0;
}

static void walk_folder(walk *w, const char *dir, const char *parent, int depth, int allow_zip);

/* A student's zip: unpacked into the walk's temporary folder and walked (zips inside it are not unpacked). */
static void walk_zip(walk *w, const char *zip)
{
    char dest[PATH_MAX], why[200];
    snprintf(dest, sizeof dest, "%s/zip-%d", w->tmp, w->zips++);
    if (unzip_into(zip, dest, MAX_UNZIPPED_STUDENT, why, sizeof why) != 0) {
        char what[300];
        snprintf(what, sizeof what, "a zip not unpacked (%s)", why);
        warn(w, what, strrchr(zip, '/') ? strrchr(zip, '/') + 1 : zip);
        return;
    }
    walk_folder(w, dest, "", 0, 0);
}

/* One entry of a student's folder: a folder to walk, a zip to unpack, a lab file to weigh, or nothing. */
static void walk_entry(walk *w, const char *dir, const char *name, const char *parent, int depth, int allow_zip)
{
    char path[PATH_MAX];
    struct stat st;
    if (name[0] == '.' || join(path, sizeof path, dir, name) != 0 || lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        if (!is_kit_folder(name) && depth < MAX_DEPTH)
            walk_folder(w, path, name, depth + 1, allow_zip);
        return;
    }
    if (!S_ISREG(st.st_mode)) /* links above all: never followed */
        return;
    if (allow_zip && ends_with(name, strlen(name), ".zip")) {
        walk_zip(w, path);
        return;
    }
    int prefix = 0, i = which_file(name, w->files, w->nfiles, &prefix);
    if (i < 0 || prefix != 0)
        return;
    if (st.st_size > MAX_FILE_BYTES) {
        warn(w, "a lab file over 1 MiB, left", name);
        return;
    }
    int in_lab = strcmp(parent, w->files[i].lab) == 0;
    const char *slash = strrchr(dir, '/'), *above = dir; /* the folder above the lab's, for labs/ */
    char grand[PATH_MAX];
    snprintf(grand, sizeof grand, "%.*s", slash ? (int)(slash - dir) : 0, dir);
    above = strrchr(grand, '/') ? strrchr(grand, '/') + 1 : grand;
    consider(w, i, path, in_lab ? (strcmp(above, "labs") == 0 ? 3 : 2) : 1);
}

/* Walks a folder of a student's: its entries in name order, so that the outcome never depends on the disk. */
static void walk_folder(walk *w, const char *dir, const char *parent, int depth, int allow_zip)
{
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    for (int k = 0; k < n; k++) {
        walk_entry(w, dir, list[k]->d_name, parent, depth, allow_zip);
        free(list[k]);
    }
    if (n >= 0)
        free(list);
}

/* ---- the export ------------------------------------------------------------------ */

/* One entry of the export, and the student it belongs to. */
typedef struct entry {
    char student[SHOWN]; /* as the export names them (before import_safe_name()) */
    char path[PATH_MAX];
    char shown[SHOWN];    /* the entry's own name in the export */
    int kind;             /* 0: a folder, 1: a zip, 2: a lab file named by student (its lab file) */
    int file;             /* kind 2: which lab file */
} entry;

/* Gradescope's submission_metadata.yml: each submission_N's submitters, by name. */
typedef struct submitters {
    char id[SHOWN];
    char names[SHOWN];
} submitters;

/* Reads submission_metadata.yml (its "submission_N:" keys and their ":name:" lines) into *list; returns how many. */
static int read_metadata(const char *root, submitters **list)
{
    char path[PATH_MAX], line[1024];
    FILE *f = join(path, sizeof path, root, "submission_metadata.yml") == 0 ? fopen(path, "r") : NULL;
    int n = 0;
    *list = NULL;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *name = strstr(line, ":name:");
        if (strncmp(line, "submission_", 11) == 0 && line[strlen(line) - 1] == ':') {
            submitters *grown = realloc(*list, (size_t)(n + 1) * sizeof **list);
            if (!grown)
                break;
            *list = grown;
            snprintf((*list)[n].id, sizeof (*list)[n].id, "%.*s", (int)strlen(line) - 1, line);
            (*list)[n++].names[0] = '\0';
        } else if (name && n > 0) {
            name += 6;
            name += strspn(name, " \"'");
            size_t len = strlen(name);
            while (len > 0 && strchr(" \"'", name[len - 1]))
                len--;
            char *names = (*list)[n - 1].names;
            size_t used = strlen(names);
            snprintf(names + used, SHOWN - used, "%s%.*s", used ? "+" : "", (int)len, name);
        }
    }
    if (f)
        fclose(f);
    return n;
}

/* The names Gradescope's metadata gives submission folder `id`, or NULL. */
static const char *submitters_of(const submitters *list, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].id, id) == 0 && list[i].names[0])
            return list[i].names;
    return NULL;
}

/* Appends an entry; returns 0 or -1 when out of memory. */
static int add_entry(entry **list, int *n, const char *student, const char *path, const char *shown, int kind, int file)
{
    entry *grown = realloc(*list, (size_t)(*n + 1) * sizeof **list);
    if (!grown)
        return -1;
    *list = grown;
    entry *e = &grown[(*n)++];
    snprintf(e->student, sizeof e->student, "%s", student);
    snprintf(e->path, sizeof e->path, "%s", path);
    snprintf(e->shown, sizeof e->shown, "%s", shown);
    e->kind = kind, e->file = file;
    return 0;
}

static int by_student(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int c = strcmp(x->student, y->student);
    return c ? c : strcmp(x->shown, y->shown);
}

/* The export's entries, each with its student, sorted by student; returns how many, or -1 with why. */
static int list_entries(const char *root, const import_file *files, int nfiles, entry **list, FILE *log, char *err,
                        size_t errlen)
{
    submitters *meta;
    int nmeta = read_metadata(root, &meta), n = 0;
    struct dirent **names;
    int count = scandir(root, &names, NULL, alphasort);
    *list = NULL;
    if (count < 0) {
        free(meta);
        return snprintf(err, errlen, "cannot read %s: %s", root, strerror(errno)), -1;
    }
    int rc = 0;
    for (int k = 0; k < count; k++) {
        const char *name = names[k]->d_name;
        char path[PATH_MAX], student[SHOWN], base[SHOWN];
        struct stat st;
        size_t len = strlen(name);
        int prefix = 0, file;
        if (rc == 0 && name[0] != '.' && join(path, sizeof path, root, name) == 0 &&
            lstat(path, &st) == 0 && strcmp(name, "submission_metadata.yml") != 0) {
            const char *who = submitters_of(meta, nmeta, name);
            if (S_ISDIR(st.st_mode)) {
                import_student_of(who ? who : name, student, sizeof student);
                rc = add_entry(list, &n, who ? who : student, path, name, 0, -1);
            } else if (S_ISREG(st.st_mode) && ends_with(name, len, ".zip")) {
                snprintf(base, sizeof base, "%.*s", (int)(len - 4), name);
                import_student_of(base, student, sizeof student);
                rc = add_entry(list, &n, student, path, name, 1, -1);
            } else if (S_ISREG(st.st_mode) && (file = which_file(name, files, nfiles, &prefix)) >= 0 && prefix > 0) {
                snprintf(base, sizeof base, "%.*s", prefix, name);
                import_student_of(base, student, sizeof student);
                rc = add_entry(list, &n, student, path, name, 2, file);
            } else {
                fputs("  skipped (no student's folder, zip or named lab file): ", log);
                report_put_clean(log, name);
                fputc('\n', log);
            }
        }
        free(names[k]);
    }
    free(names);
    free(meta);
    if (rc != 0)
        return snprintf(err, errlen, "out of memory listing %s", root), -1;
    qsort(*list, (size_t)n, sizeof **list, by_student);
    return n;
}

/*
 * The safe folder name of entry e's student, in `safe`: import_safe_name(), with "-2", "-3", ...
 * when one of the `ntaken` students before it in this import already took it.
 */
static void unique_name(const entry *e, char (*taken)[IMPORT_NAME], int ntaken, char *safe)
{
    char base[IMPORT_NAME];
    import_safe_name(e->student, base, sizeof base);
    snprintf(safe, IMPORT_NAME, "%s", base);
    for (int k = 2;; k++) {
        int clash = 0;
        for (int i = 0; i < ntaken && !clash; i++)
            clash = strcmp(taken[i], safe) == 0;
        if (!clash)
            return;
        snprintf(safe, IMPORT_NAME, "%.*s-%d", IMPORT_NAME - 12, base, k);
    }
}

/* Copies the student's picks into class/<safe>/<lab>/<file> and says what came; returns 0 or -1 with why. */
static int place_student(walk *w, const char *class_dir, const char *safe, const entry *first, int nentries,
                         char *err, size_t errlen)
{
    char dir[PATH_MAX], sub[PATH_MAX], to[PATH_MAX];
    if (join(dir, sizeof dir, class_dir, safe) != 0 || (mkdir(dir, 0755) != 0 && errno != EEXIST))
        return snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno)), -1;
    fprintf(w->log, "  %s:", safe);
    int found = 0;
    for (int i = 0; i < w->nfiles; i++) {
        const pick *p = &w->picks[i];
        if (!p->path[0])
            continue;
        if (join(sub, sizeof sub, dir, w->files[i].lab) != 0 || join(to, sizeof to, sub, w->files[i].name) != 0 ||
            (mkdir(sub, 0755) != 0 && errno != EEXIST) || copy_file(p->path, to) != 0)
            return snprintf(err, errlen, "cannot write %s: %s", to, strerror(errno)), -1;
        fprintf(w->log, "%s %s", found++ ? "," : "", w->files[i].lab);
    }
    if (!found)
        fputs(" no lab file found", w->log);
    fputs(" (from ", w->log);
    report_put_clean(w->log, first->shown);
    if (nentries > 1)
        fprintf(w->log, " and %d more", nentries - 1);
    fputs(")\n", w->log);
    for (int i = 0; i < w->nfiles; i++)
        if (w->picks[i].other[0]) {
            char what[2 * PATH_MAX];
            snprintf(what, sizeof what, "two different %s; took %s, not", w->files[i].name, in_export(w, w->picks[i].path));
            warn(w, what, in_export(w, w->picks[i].other));
        }
    return 0;
}

/* Where the export's entries are: the export folder, or a zip's unpacked folder, entering a wrapper folder. */
static int export_root(const char *export_path, const char *tmp, char *root, size_t len, char *err, size_t errlen)
{
    struct stat st;
    int zipped = 0;
    if (stat(export_path, &st) != 0)
        return snprintf(err, errlen, "cannot read the export %s: %s", export_path, strerror(errno)), -1;
    if (S_ISREG(st.st_mode)) {
        char why[200];
        if (join(root, len, tmp, "export") != 0 || unzip_into(export_path, root, MAX_UNZIPPED_EXPORT, why, sizeof why) != 0)
            return snprintf(err, errlen, "cannot unpack the export %s: %s", export_path, why), -1;
        zipped = 1;
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(root, len, "%s", export_path);
    } else {
        return snprintf(err, errlen, "the export %s is neither a folder nor a zip", export_path), -1;
    }
    /* A single folder at the top: the zip's wrapper, or Gradescope's assignment_N_export/. */
    for (int again = 1; again;) {
        again = 0;
        DIR *d = opendir(root);
        char only[PATH_MAX] = "";
        int entries = 0;
        for (struct dirent *e; d && (e = readdir(d));)
            if (e->d_name[0] != '.' && entries++ == 0 && join(only, sizeof only, root, e->d_name) != 0)
                entries = 2; /* too long a path: not entered */
        if (d)
            closedir(d);
        char meta[PATH_MAX + 32];
        join(meta, sizeof meta, only, "submission_metadata.yml");
        if (entries == 1 && lstat(only, &st) == 0 && S_ISDIR(st.st_mode) &&
            (zipped || ends_with(only, strlen(only), "_export") || access(meta, F_OK) == 0)) {
            snprintf(root, len, "%s", only);
            zipped = 0;
            again = 1;
        }
    }
    return 0;
}

int import_export(const char *export_path, const char *class_dir, const import_file *files, int nfiles, FILE *log,
                  char *err, size_t errlen)
{
    char tmp[PATH_MAX], root[PATH_MAX];
    if (nfiles > MAX_LABS)
        nfiles = MAX_LABS;
    if (mkdir(class_dir, 0755) != 0 && errno != EEXIST)
        return snprintf(err, errlen, "cannot make the class folder %s: %s", class_dir, strerror(errno)), -1;
    snprintf(tmp, sizeof tmp, "%s/.import-XXXXXX", class_dir); /* a dot-folder: --batch never takes it for a student */
    if (!mkdtemp(tmp))
        return snprintf(err, errlen, "cannot make a scratch folder in %s: %s", class_dir, strerror(errno)), -1;
    entry *list = NULL;
    int n = -1, students = 0, rc = 0;
    char (*taken)[IMPORT_NAME] = NULL;
    walk *w = calloc(1, sizeof *w);
    char names_path[PATH_MAX];
    snprintf(names_path, sizeof names_path, "%s/import-names.tsv", class_dir);
    FILE *names = fopen(names_path, "a");
    if (!w || !names) {
        snprintf(err, errlen, "cannot write %s: %s", names_path, strerror(errno));
        rc = -1;
    } else if (export_root(export_path, tmp, root, sizeof root, err, errlen) != 0 ||
               (n = list_entries(root, files, nfiles, &list, log, err, errlen)) < 0) {
        rc = -1;
    } else if (n > 0 && !(taken = calloc((size_t)n, sizeof *taken))) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (int first = 0; rc == 0 && first < n;) {
        int last = first + 1;
        while (last < n && strcmp(list[last].student, list[first].student) == 0)
            last++;
        int zips = w->zips; /* numbers the unpacked zips' folders across students */
        memset(w, 0, sizeof *w);
        w->files = files, w->nfiles = nfiles, w->tmp = tmp, w->root = root, w->zips = zips, w->log = log;
        w->student = list[first].student;
        for (int k = first; k < last; k++) {
            if (list[k].kind == 0)
                walk_folder(w, list[k].path, "", 0, 1);
            else if (list[k].kind == 1)
                walk_zip(w, list[k].path);
            else
                consider(w, list[k].file, list[k].path, 1);
        }
        unique_name(&list[first], taken, students, taken[students]);
        rc = place_student(w, class_dir, taken[students], &list[first], last - first, err, errlen);
        report_put_clean(names, taken[students]);
        fputc('\t', names);
        report_put_clean(names, list[first].student);
        fputc('\t', names);
        report_put_clean(names, list[first].shown);
        fputc('\n', names);
        students++;
        first = last;
    }
    if (names && fclose(names) != 0 && rc == 0) {
        snprintf(err, errlen, "cannot write %s", names_path);
        rc = -1;
    }
    build_remove_tree(tmp);
    free(taken);
    free(list);
    free(w);
    return rc == 0 ? students : -1;
}
