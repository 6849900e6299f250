/* Turns a reference solution into the student's skeleton by stripping its marked answer regions. */
#include <string.h>

#include "skel.h"

enum { OUTSIDE, IN_ANSWER, IN_SKELETON };

/* Returns the text after leading blanks, and its offset in *indent. */
static const char *skip_blanks(const char *line, size_t *indent)
{
    size_t i = 0;
    while (line[i] == ' ' || line[i] == '\t')
        i++;
    *indent = i;
    return line + i;
}

/* Is the (blank-stripped) text exactly the marker, up to the end of the line? */
static int is_marker(const char *text, const char *marker)
{
    size_t len = strlen(marker);
    if (strncmp(text, marker, len) != 0)
        return 0;
    text += len;
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
        text++;
    return *text == '\0';
}

int skel_strip(FILE *in, FILE *out, const char *name, char *err, size_t errlen)
{
    char line[4096];
    int state = OUTSIDE, regions = 0;
    unsigned lineno = 0, opened = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        if (strlen(line) == sizeof line - 1 && line[sizeof line - 2] != '\n') {
            snprintf(err, errlen, "%s:%u: line longer than %zu characters", name, lineno, sizeof line - 2);
            return -1;
        }
        size_t indent;
        const char *text = skip_blanks(line, &indent);
        int answer = is_marker(text, "//@answer"), skeleton = is_marker(text, "//@skeleton"),
            end = is_marker(text, "//@end");
        const char *what = NULL;
        switch (state) {
        case OUTSIDE:
            if (answer) {
                state = IN_ANSWER;
                opened = lineno;
            } else if (skeleton || end) {
                what = "marker outside an answer region";
            } else if (strncmp(text, "//@", 3) == 0) {
                what = "unknown //@ marker";
            } else {
                fputs(line, out);
            }
            break;
        case IN_ANSWER:
            if (skeleton)
                state = IN_SKELETON;
            else if (answer || end)
                what = "answer region needs //@skeleton before this marker";
            break;
        case IN_SKELETON:
            if (end) {
                state = OUTSIDE;
                regions++;
            } else if (answer || skeleton) {
                what = "skeleton part needs //@end before this marker";
            } else if (strncmp(text, "//@", 3) != 0) {
                what = "skeleton line must start with //@";
            } else {
                const char *body = text + 3;
                if (*body == ' ')
                    body++;
                fprintf(out, "%.*s%s", (int)indent, line, *body ? body : "\n");
            }
            break;
        }
        if (what) {
            snprintf(err, errlen, "%s:%u: %s", name, lineno, what);
            return -1;
        }
    }
    if (state != OUTSIDE) {
        snprintf(err, errlen, "%s:%u: answer region opened here is never closed with //@end", name, opened);
        return -1;
    }
    return regions;
}
