#ifndef SOUNDSTAGE_CFLAC_H
#define SOUNDSTAGE_CFLAC_H

#include <FLAC/stream_decoder.h>
#include <CLibraryLoader.h>

/* The libFLAC functions SoundStage calls, loaded the first time a FLAC file is decoded. */
#define SS_FLAC_FUNCTIONS(X) \
    X(FLAC__stream_decoder_new, new_decoder) \
    X(FLAC__stream_decoder_delete, delete_decoder) \
    X(FLAC__stream_decoder_init_stream, init_stream) \
    X(FLAC__stream_decoder_process_until_end_of_metadata, process_until_end_of_metadata) \
    X(FLAC__stream_decoder_process_single, process_single) \
    X(FLAC__stream_decoder_get_state, get_state) \
    X(FLAC__stream_decoder_seek_absolute, seek_absolute) \
    X(FLAC__stream_decoder_flush, flush)

/* libFLAC's functions: ss_flac() (NULL when it cannot be loaded; ss_flac_error() says why). */
SS_LIBRARY_DECLARE(flac, SS_FLAC_FUNCTIONS)

#endif
