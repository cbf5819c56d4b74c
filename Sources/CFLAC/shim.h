#ifndef SOUNDSTAGE_CFLAC_SHIM_H
#define SOUNDSTAGE_CFLAC_SHIM_H
#include <FLAC/stream_decoder.h>
#endif
