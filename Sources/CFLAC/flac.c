#include "CFLAC.h"

/* Debian 12 and Ubuntu 24.04 ship libFLAC.so.12; older releases libFLAC.so.8 (the same API). */
SS_LIBRARY_DEFINE(flac, SS_FLAC_FUNCTIONS, "libFLAC.so.12", "libFLAC.so.8")
