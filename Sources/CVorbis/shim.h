#ifndef SOUNDSTAGE_CVORBIS_SHIM_H
#define SOUNDSTAGE_CVORBIS_SHIM_H
/* SoundStage passes its own callbacks to ov_open_callbacks; the header's static default
   callbacks would only be unused copies in every translation unit. */
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>
/* The encoder, for recordings to Ogg Vorbis. */
#include <vorbis/vorbisenc.h>
#endif
