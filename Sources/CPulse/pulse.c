#include "CPulse.h"

static struct ss_pulse functions;
static const char *const symbols[] = { SS_PULSE_FUNCTIONS(SS_LIBRARY_NAME) };
static const char *const names[] = { "libpulse.so.0", NULL };
static struct ss_library library = SS_LIBRARY(names, symbols, functions);
_Static_assert(sizeof functions == sizeof symbols / sizeof *symbols * sizeof(void (*)(void)), "one pointer a symbol");

const struct ss_pulse *ss_pulse(void) { return ss_library_table(&library); }
const char *ss_pulse_error(void) { return ss_library_error(&library); }
