#ifndef SOUNDSTAGE_COPUS_SHIM_H
#define SOUNDSTAGE_COPUS_SHIM_H
#include <opusfile.h>
#endif
