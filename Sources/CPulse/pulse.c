#include "CPulse.h"

SS_LIBRARY_DEFINE(pulse, SS_PULSE_FUNCTIONS, "libpulse.so.0")
