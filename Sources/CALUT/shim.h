#ifndef SOUNDSTAGE_CALUT_SHIM_H
#define SOUNDSTAGE_CALUT_SHIM_H
#include <AL/alut.h>
#endif
