#include "CFLAC.h"

static struct ss_flac functions;
static const char *const symbols[] = { SS_FLAC_FUNCTIONS(SS_LIBRARY_NAME) };
/* Debian 12 and Ubuntu 24.04 ship libFLAC.so.12; older releases libFLAC.so.8 (the same API). */
static const char *const names[] = { "libFLAC.so.12", "libFLAC.so.8", NULL };
static struct ss_library library = SS_LIBRARY(names, symbols, functions);
_Static_assert(sizeof functions == sizeof symbols / sizeof *symbols * sizeof(void (*)(void)), "one pointer a symbol");

const struct ss_flac *ss_flac(void) { return ss_library_table(&library); }
const char *ss_flac_error(void) { return ss_library_error(&library); }
