#include "CMPG123.h"

static struct ss_mpg123 functions;
static const char *const symbols[] = { SS_MPG123_FUNCTIONS(SS_LIBRARY_NAME) };
static const char *const names[] = { "libmpg123.so.0", NULL };
static struct ss_library library = SS_LIBRARY(names, symbols, functions);
_Static_assert(sizeof functions == sizeof symbols / sizeof *symbols * sizeof(void (*)(void)), "one pointer a symbol");

const struct ss_mpg123 *ss_mpg123(void) { return ss_library_table(&library); }
const char *ss_mpg123_error(void) { return ss_library_error(&library); }
