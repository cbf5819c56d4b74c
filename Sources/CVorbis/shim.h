#ifndef SOUNDSTAGE_CVORBIS_SHIM_H
#define SOUNDSTAGE_CVORBIS_SHIM_H
#include <vorbis/vorbisfile.h>
#endif
