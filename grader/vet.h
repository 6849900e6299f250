/**
 * @file vet.h
 * Checks a submission mechanically before any of its code runs, as CS:APP's dlc does: what its
 * file includes and writes (from the preprocessor's output), and what its compiled runner object
 * references and defines (from nm and readelf), against the same object built from the lab's
 * skeleton. Each refusal is one line that names the include, word or symbol.
 */
#ifndef VET_H
#define VET_H

#include <stddef.h>

/** The global symbols and load-time sections of one object file. */
typedef struct vet_object {
    char **undefined;      /**< symbols it references but does not define, sorted */
    size_t nundefined;     /**< their number */
    char **defined;        /**< global symbols it defines (any type), sorted */
    size_t ndefined;       /**< their number */
    char **ifuncs;         /**< symbols of type GNU ifunc, whose resolvers run at load time */
    size_t nifuncs;        /**< their number */
    long long load_time_bytes; /**< bytes of .init_array, .fini_array, .preinit_array, .ctors and .dtors */
} vet_object;

/**
 * Reads an object's symbols (`nm -g -P`) and section sizes (`readelf -S -W`).
 * @param[in]  path the object (or, for a library's defined symbols, an archive or shared object)
 * @param[in]  dynamic 1 to read a shared object's dynamic symbols (nm -D)
 * @param[out] out  what was read; release with vet_object_free()
 * @param[out] why  on failure, why
 * @param[in]  len  size of @p why
 * @return 0, or -1 with a reason
 */
int vet_object_read(const char *path, int dynamic, vet_object *out, char *why, size_t len);

/**
 * vet_object_read() for the kit's own files (its libraries, the baseline objects), whose reading is
 * kept as a text file in @p dir, named by a hash of the file's path, device, inode, size and
 * modification time, and checked against them when read back. Never for a submission's object: a
 * grader reads that afresh.
 * @param[in]  path    the file
 * @param[in]  dynamic as for vet_object_read()
 * @param[in]  dir     an existing folder the grader alone writes (work/vet)
 * @param[out] out     what was read; release with vet_object_free()
 * @param[out] why     on failure, why
 * @param[in]  len     size of @p why
 * @return 0, or -1 with a reason
 */
int vet_object_read_kept(const char *path, int dynamic, const char *dir, vet_object *out, char *why, size_t len);

/** Releases what vet_object_read() allocated. */
void vet_object_free(vet_object *o);

/**
 * Compares the runner object built with the student's file against the objects that say what is
 * allowed: first the one built with the skeleton, then others (the lab API in use). Refused: a
 * referenced symbol none of them references (a library call neither the lab's own code nor the
 * lab API makes, such as open, write, atexit or qsort), a defined global
 * symbol that is not a C++ name (extern "C") or that one of @p libs already defines (so it would
 * replace the kit's or the C++ library's), an ifunc, and more load-time sections (a constructor,
 * destructor or global with a dynamic initializer).
 * @param[in]  student  the student's build
 * @param[in]  allowed  the skeleton's build first, then @p nallowed - 1 more allowed objects
 * @param[in]  nallowed their number, at least 1
 * @param[in]  libs     the libraries the runner links (their defined symbols)
 * @param[in]  nlibs    their number
 * @param[out] why      the refusal, naming the symbol
 * @param[in]  len      size of @p why
 * @return 0 when the object is acceptable, else -1
 */
int vet_compare(const vet_object *student, const vet_object *allowed, size_t nallowed, const vet_object *libs,
                size_t nlibs, char *why, size_t len);

/**
 * Checks the preprocessed runner source (g++ -E output, line markers kept) for what the student's
 * file does. Refused: an \#include of anything but @p allowed (plain file names, such as "kit_lab.h"
 * or "stdint.h", matched by the included file's last path component, and only from the kit's
 * common/ folder, the scratch folder or the system's /usr), a forbidden word in the student's
 * lines (asm, syscall, std, __attribute__, __declspec, ...), and any \#pragma but once and unroll.
 * @param[in]  preprocessed the -E output
 * @param[in]  student      the student file's path as the compiler names it in line markers
 * @param[in]  allowed      NULL-terminated list of includable file names
 * @param[in]  dirs         NULL-terminated list of folders an included file may come from
 * @param[out] why          the refusal: "file:line: what"
 * @param[in]  len          size of @p why
 * @return 0 when the source is acceptable, else -1 (also when the output cannot be read)
 */
int vet_source(const char *preprocessed, const char *student, const char *const *allowed, const char *const *dirs,
               char *why, size_t len);

/**
 * Runs a trusted tool (found in PATH; its stderr discarded) and keeps the first line it prints.
 * @param[in]  argv the command
 * @param[out] buf  the line, without its newline ("" when none)
 * @param[in]  len  size of @p buf
 * @return 0 when the tool exited 0 and printed a line, else -1
 */
int vet_tool_first_line(char *const argv[], char *buf, size_t len);

/**
 * The memory a program's loadable segments take when it starts (code, data and zero-filled
 * static data: the sum of its LOAD segments' sizes in memory), from `readelf -l`.
 * @return the bytes, or -1 when the program cannot be read
 */
long long vet_loaded_bytes(const char *exe);

#endif
