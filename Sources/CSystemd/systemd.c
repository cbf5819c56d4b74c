#include "CSystemd.h"

SS_LIBRARY_DEFINE(systemd, SS_SYSTEMD_FUNCTIONS, "libsystemd.so.0")
