#include "CSystemd.h"

static struct ss_systemd functions;
static const char *const symbols[] = { SS_SYSTEMD_FUNCTIONS(SS_LIBRARY_NAME) };
static const char *const names[] = { "libsystemd.so.0", NULL };
static struct ss_library library = SS_LIBRARY(names, symbols, functions);
_Static_assert(sizeof functions == sizeof symbols / sizeof *symbols * sizeof(void (*)(void)), "one pointer a symbol");

const struct ss_systemd *ss_systemd(void) { return ss_library_table(&library); }
const char *ss_systemd_error(void) { return ss_library_error(&library); }
