#ifndef SOUNDSTAGE_CLIBRARYLOADER_H
#define SOUNDSTAGE_CLIBRARYLOADER_H

#include <pthread.h>
#include <stddef.h>

/* A C library SoundStage opens (dlopen) the first time a feature needs it, rather than
 * linking it: a game that never uses the feature does not need the library installed.
 * `table` is a struct of `count` function pointers, filled in the order of `symbols`. */
struct ss_library {
    const char *const *names;   /* sonames to try, in order, NULL-terminated */
    const char *const *symbols;
    size_t count;
    void *table;
    pthread_mutex_t lock;
    int state;                  /* 0 not tried yet, 1 loaded, -1 could not be loaded */
    char error[512];
};

#define SS_LIBRARY(names, symbols, table) \
    { (names), (symbols), sizeof(symbols) / sizeof(*(symbols)), &(table), PTHREAD_MUTEX_INITIALIZER, 0, { 0 } }

/* The library's function table, loading it at the first call; NULL when it cannot be loaded
 * (a missing library or symbol: tried once, the reason kept for ss_library_error). */
const void *ss_library_table(struct ss_library *library);
/* Why the library could not be loaded (the loader's message), NULL when it was. */
const char *ss_library_error(struct ss_library *library);

/* X-macro helpers for a library's function table: a field typed from the library's own
 * prototype (the compiler checks it against the header), and the symbol's name. */
#define SS_LIBRARY_FIELD(symbol, field) __typeof__(symbol) *_Nonnull field;
#define SS_LIBRARY_NAME(symbol, field) #symbol,

/* In a library's header: its table `struct ss_NAME` (one field for each X(symbol, field) of
 * FUNCTIONS), `ss_NAME()` giving the table (NULL when the library cannot be loaded) and
 * `ss_NAME_error()` saying why. */
#define SS_LIBRARY_DECLARE(name, FUNCTIONS) \
    struct ss_##name { FUNCTIONS(SS_LIBRARY_FIELD) }; \
    const struct ss_##name *_Nullable ss_##name(void); \
    const char *_Nullable ss_##name##_error(void);

/* In its one .c file: the table, the symbols' names, the sonames to try (the rest of the
 * arguments, in order) and the two functions. */
#define SS_LIBRARY_DEFINE(name, FUNCTIONS, ...) \
    static struct ss_##name ss_##name##_table; \
    static const char *const ss_##name##_symbols[] = { FUNCTIONS(SS_LIBRARY_NAME) }; \
    static const char *const ss_##name##_sonames[] = { __VA_ARGS__, NULL }; \
    static struct ss_library ss_##name##_library = SS_LIBRARY(ss_##name##_sonames, ss_##name##_symbols, ss_##name##_table); \
    _Static_assert(sizeof ss_##name##_table == sizeof ss_##name##_symbols / sizeof *ss_##name##_symbols * sizeof(void (*)(void)), \
                   "one function pointer a symbol"); \
    const struct ss_##name *ss_##name(void) { return ss_library_table(&ss_##name##_library); } \
    const char *ss_##name##_error(void) { return ss_library_error(&ss_##name##_library); }

#endif
