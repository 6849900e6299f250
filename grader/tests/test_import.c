/* Tests of import.h: Gradescope's export, a zip per student, Canvas's files named by student, and safe names. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "import.h"
#include "kit_test.h"

static const import_file FILES[] = {{"01-sequential-merge", "merge_sequential.cuh"}, {"02-co-rank", "co_rank.cuh"}};
#define NFILES 2

static char root[64]; /* this run's folder, made by setup() */

/* Writes text to root/rel, making the folders above it. */
static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    KIT_ASSERT_MSG(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

/* What root/rel holds (its first line), or "(missing)". */
static const char *got(const char *rel)
{
    static char text[256];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "r");
    if (!f || !fgets(text, sizeof text, f))
        snprintf(text, sizeof text, "(missing)");
    if (f)
        fclose(f);
    text[strcspn(text, "\n")] = '\0';
    return text;
}

/* Runs a shell command in root (the fixtures' zips); returns its exit status. */
static int sh(const char *cmd)
{
    char line[1024];
    snprintf(line, sizeof line, "cd '%s' && %s >/dev/null 2>&1", root, cmd);
    return system(line);
}

/* Imports root/export (a folder or a zip) into root/class; returns the students imported, the log in *log. */
static int import(const char *export_rel, char **log)
{
    char export_path[512], class_dir[512], err[512] = "";
    size_t len = 0;
    snprintf(export_path, sizeof export_path, "%s/%s", root, export_rel);
    snprintf(class_dir, sizeof class_dir, "%s/class", root);
    FILE *f = open_memstream(log, &len);
    int n = import_export(export_path, class_dir, FILES, NFILES, f, err, sizeof err);
    fclose(f);
    KIT_ASSERT_MSG(n >= 0, "import of %s failed: %s\nlog:\n%s", export_rel, err, *log);
    return n;
}

static void setup(void)
{
    snprintf(root, sizeof root, "/tmp/kit-import-XXXXXX");
    KIT_ASSERT_MSG(mkdtemp(root) != NULL, "cannot make a folder under /tmp");
}

static void cleanup(void)
{
    build_remove_tree(root);
}

static void test_safe_names(void)
{
    static const char *const cases[][2] = {
        {"Jane Doe", "Jane_Doe"},           {"../../etc/passwd", "etc_passwd"}, {".hidden", "hidden"},
        {"-rf", "rf"},                      {"Jos\xc3\xa9 N\xc3\xba\xc3\xb1" "ez", "Jos_N_ez"}, {"", "student"},
        {"..", "student"},                  {"a\tb\x1b[2Jc", "a_b_2Jc"},       {"ann.o-neil+bob", "ann.o-neil+bob"},
        {"trailing  ", "trailing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[IMPORT_NAME];
        import_safe_name(cases[i][0], out, sizeof out);
        KIT_ASSERT_MSG(strcmp(out, cases[i][1]) == 0, "import_safe_name(\"%s\"): expected \"%s\", got \"%s\"",
                       cases[i][0], cases[i][1], out);
    }
    char longname[200], out[IMPORT_NAME];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    import_safe_name(longname, out, sizeof out);
    KIT_ASSERT_MSG(strlen(out) == IMPORT_NAME - 1, "a 199-character name: expected %d characters, got %zu",
                   IMPORT_NAME - 1, strlen(out));
}

static void test_student_of(void)
{
    static const char *const cases[][2] = {
        {"doejane_12345_67890_", "doejane"},                         /* Canvas */
        {"doejane_LATE_12345_67890_", "doejane"},                    /* Canvas, late */
        {"Jane Doe_123456_assignsubmission_file_", "Jane Doe"},     /* Moodle */
        {"Lab 1_jdoe_attempt_2024-01-31-12-00-00_", "jdoe"},         /* Blackboard */
        {"alice_2", "alice_2"},                                      /* one number: kept */
        {"team 7", "team 7"},
        {"submission_123456", "submission_123456"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[128];
        import_student_of(cases[i][0], out, sizeof out);
        KIT_ASSERT_MSG(strcmp(out, cases[i][1]) == 0, "import_student_of(\"%s\"): expected \"%s\", got \"%s\"",
                       cases[i][0], cases[i][1], out);
    }
}

/* Gradescope's export: submission_N folders named by submission_metadata.yml; the whole kit uploaded. */
static void test_gradescope_export(void)
{
    setup();
    put("export/assignment_9_export/submission_metadata.yml",
        "---\nsubmission_1:\n  :submitters:\n  - :name: Jane Doe\n    :sid: '1'\n    :email: jane@x.edu\n"
        "  :created_at: 2026-01-02 10:00:00.000000000 -08:00\n"
        "submission_2:\n  :submitters:\n  - :name: \"Ann O'Neil\"\n    :sid: '2'\n  - :name: Bob\n    :sid: '3'\n");
    put("export/assignment_9_export/submission_1/merge_sequential.cuh", "jane's merge\n");
    /* Ann and Bob uploaded the whole kit: their labs/ copy, never the kit's skeletons or solutions */
    put("export/assignment_9_export/submission_2/kit/grader/skeletons/01-sequential-merge/merge_sequential.cuh", "skel\n");
    put("export/assignment_9_export/submission_2/kit/solutions/01-sequential-merge/merge_sequential.cuh", "answer\n");
    put("export/assignment_9_export/submission_2/kit/labs/01-sequential-merge/merge_sequential.cuh", "ann's merge\n");
    put("export/assignment_9_export/submission_2/kit/build/x/co_rank.cuh", "a build copy\n");
    put("export/assignment_9_export/submission_2/notes/co_rank.cuh", "ann's loose co_rank\n");
    put("export/assignment_9_export/submission_3/README.md", "nothing\n");
    char *log;
    int n = import("export", &log);
    KIT_ASSERT_MSG(n == 3, "expected 3 students, got %d; log:\n%s", n, log);
    KIT_ASSERT_MSG(strcmp(got("class/Jane_Doe/01-sequential-merge/merge_sequential.cuh"), "jane's merge") == 0,
                   "Jane's lab 1: got '%s'; log:\n%s", got("class/Jane_Doe/01-sequential-merge/merge_sequential.cuh"), log);
    KIT_ASSERT_MSG(strcmp(got("class/Ann_O_Neil+Bob/01-sequential-merge/merge_sequential.cuh"), "ann's merge") == 0,
                   "the group's lab 1 (labs/, not the kit's): got '%s'; log:\n%s",
                   got("class/Ann_O_Neil+Bob/01-sequential-merge/merge_sequential.cuh"), log);
    KIT_ASSERT_MSG(strcmp(got("class/Ann_O_Neil+Bob/02-co-rank/co_rank.cuh"), "ann's loose co_rank") == 0,
                   "the group's lab 2 (not build/'s): got '%s'", got("class/Ann_O_Neil+Bob/02-co-rank/co_rank.cuh"));
    struct stat st;
    char empty[512];
    snprintf(empty, sizeof empty, "%s/class/submission_3", root);
    KIT_ASSERT_MSG(stat(empty, &st) == 0 && S_ISDIR(st.st_mode) && strstr(log, "submission_3: no lab file found"),
                   "a submission without lab files gets its folder (a gradebook row) and a line; log:\n%s", log);
    KIT_ASSERT_MSG(strcmp(got("class/import-names.tsv"), "Ann_O_Neil+Bob\tAnn O'Neil+Bob\tsubmission_2") == 0,
                   "import-names.tsv starts with '%s'", got("class/import-names.tsv"));
    free(log);
    cleanup();
}

/* Canvas's files named by student, as a zip of them; a second upload's "-1" name; files of no student. */
static void test_named_files(void)
{
    setup();
    put("canvas/doejane_12345_67890_merge_sequential.cuh", "jane 1\n");
    put("canvas/doejane_LATE_12345_67891_co_rank-1.cuh", "jane 2\n");
    put("canvas/smithbob_222_333_merge_sequential.cuh", "bob 1\n");
    put("canvas/merge_sequential.cuh", "whose?\n");
    put("canvas/readme.txt", "not a lab file\n");
    if (sh("zip -qr canvas.zip canvas") != 0) {
        cleanup();
        KIT_ASSERT_MSG(0, "zip could not pack the fixture (is Info-ZIP's zip installed?)");
        return;
    }
    char *log;
    int n = import("canvas.zip", &log);
    KIT_ASSERT_MSG(n == 2, "expected 2 students, got %d; log:\n%s", n, log);
    KIT_ASSERT_MSG(strcmp(got("class/doejane/01-sequential-merge/merge_sequential.cuh"), "jane 1") == 0 &&
                       strcmp(got("class/doejane/02-co-rank/co_rank.cuh"), "jane 2") == 0 &&
                       strcmp(got("class/smithbob/01-sequential-merge/merge_sequential.cuh"), "bob 1") == 0,
                   "Canvas's files: got '%s'; log:\n%s", got("class/doejane/02-co-rank/co_rank.cuh"), log);
    KIT_ASSERT_MSG(strstr(log, "skipped (no student's folder, zip or named lab file): merge_sequential.cuh") &&
                       strstr(log, "skipped (no student's folder, zip or named lab file): readme.txt"),
                   "files of no student are not said to be skipped; log:\n%s", log);
    free(log);
    cleanup();
}

/* A zip per student; a zip with a link or "..", never unpacked; two students of one safe name; two copies. */
static void test_zips_and_clashes(void)
{
    setup();
    put("src/alice/labs/01-sequential-merge/merge_sequential.cuh", "alice's\n");
    put("src/alice/02-co-rank/co_rank.cuh", "alice's co_rank, first\n");
    put("src/alice/zz/02-co-rank/co_rank.cuh", "alice's co_rank, second\n");
    put("src/d/x", "outside\n");
    put("export/Jos\xc3\xa9/merge_sequential.cuh", "jose 1\n");
    put("export/Jos\xc3\xa8/merge_sequential.cuh", "jose 2\n");
    int zipped = sh("cd src && zip -qr ../export/alice.zip alice && ln -s /etc alice/etc && zip -qry ../export/linky.zip "
                    "alice && cd d && mkdir -p e && cd e && zip -q ../../../export/dotdot.zip ../x");
    if (zipped != 0) {
        cleanup();
        KIT_ASSERT_MSG(0, "zip could not pack the fixtures (is Info-ZIP's zip installed?)");
        return;
    }
    char *log;
    int n = import("export", &log);
    KIT_ASSERT_MSG(n == 5, "expected 5 students (alice, dotdot, the two Joses, linky), got %d; log:\n%s", n, log);
    KIT_ASSERT_MSG(strcmp(got("class/alice/01-sequential-merge/merge_sequential.cuh"), "alice's") == 0 &&
                       strcmp(got("class/alice/02-co-rank/co_rank.cuh"), "alice's co_rank, first") == 0,
                   "alice's zip: got '%s'; log:\n%s", got("class/alice/02-co-rank/co_rank.cuh"), log);
    KIT_ASSERT_MSG(strstr(log, "warning: alice: two different co_rank.cuh; took alice/02-co-rank/co_rank.cuh, not: "
                              "alice/zz/02-co-rank/co_rank.cuh\n"),
                   "no warning for alice's two different co_rank.cuh; log:\n%s", log);
    KIT_ASSERT_MSG(strstr(log, "warning: linky: a zip not unpacked (it holds a link") &&
                       strstr(log, "warning: dotdot: a zip not unpacked (it holds a link, an absolute path or '..'") &&
                       strcmp(got("class/linky/01-sequential-merge/merge_sequential.cuh"), "(missing)") == 0,
                   "a zip with a link or '..' was unpacked; log:\n%s", log);
    KIT_ASSERT_MSG(strcmp(got("class/Jos/01-sequential-merge/merge_sequential.cuh"), "jose 2") == 0 &&
                       strcmp(got("class/Jos-2/01-sequential-merge/merge_sequential.cuh"), "jose 1") == 0,
                   "two students of one safe name: got '%s' and '%s'; log:\n%s",
                   got("class/Jos/01-sequential-merge/merge_sequential.cuh"),
                   got("class/Jos-2/01-sequential-merge/merge_sequential.cuh"), log);
    char evil[512];
    snprintf(evil, sizeof evil, "%s/x", root);
    KIT_ASSERT_MSG(access(evil, F_OK) != 0, "the '..' zip wrote %s", evil);
    free(log);
    /* a second import replaces the files and keeps the folders */
    put("export/alice.zip", "not a zip any more\n");
    n = import("export", &log);
    KIT_ASSERT_MSG(n == 5 && strstr(log, "warning: alice: a zip not unpacked (unzip could not read it") &&
                       strcmp(got("class/alice/01-sequential-merge/merge_sequential.cuh"), "alice's") == 0,
                   "a broken zip on a second import: %d students; log:\n%s", n, log);
    free(log);
    cleanup();
}

static void register_tests(void)
{
    CU_pSuite names = kit_test_suite("import: names");
    kit_test_add(names, "import_safe_name: safe, never hidden, an option or empty", test_safe_names);
    kit_test_add(names, "import_student_of: Canvas, Moodle and Blackboard decorations off", test_student_of);
    CU_pSuite exports = kit_test_suite("import: exports");
    kit_test_add(exports, "Gradescope's export: named by its metadata, the kit's copies never taken", test_gradescope_export);
    kit_test_add(exports, "Canvas's files named by student, zipped", test_named_files);
    kit_test_add(exports, "a zip per student, unsafe zips, clashing names, two copies", test_zips_and_clashes);
    if (system("unzip -v >/dev/null 2>&1 && zip -v >/dev/null 2>&1") != 0)
        kit_test_skip_suite(exports, "Info-ZIP's zip and unzip are not both installed (apt-get install zip unzip)");
}

int main(void)
{
    return kit_test_main("import tests", register_tests);
}
