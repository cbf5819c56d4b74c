#ifndef SOUNDSTAGE_COPENAL_SHIM_H
#define SOUNDSTAGE_COPENAL_SHIM_H
/* Declare the extension entry points (loopback, HRTF, latency, pause, ...). OpenAL Soft
   exports them from libopenal, so they can be called directly instead of through
   alGetProcAddress. */
#define AL_ALEXT_PROTOTYPES
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <AL/efx.h>
#endif
