#include "COpus.h"

SS_LIBRARY_DEFINE(opusfile, SS_OPUSFILE_FUNCTIONS, "libopusfile.so.0")
