#include "COpus.h"

static struct ss_opusfile functions;
static const char *const symbols[] = { SS_OPUSFILE_FUNCTIONS(SS_LIBRARY_NAME) };
static const char *const names[] = { "libopusfile.so.0", NULL };
static struct ss_library library = SS_LIBRARY(names, symbols, functions);
_Static_assert(sizeof functions == sizeof symbols / sizeof *symbols * sizeof(void (*)(void)), "one pointer a symbol");

const struct ss_opusfile *ss_opusfile(void) { return ss_library_table(&library); }
const char *ss_opusfile_error(void) { return ss_library_error(&library); }
