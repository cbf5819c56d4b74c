#ifndef SOUNDSTAGE_COPUS_H
#define SOUNDSTAGE_COPUS_H

/* In /usr/include/opus, which pkg-config adds to the search path and a package may not. */
#include <opus/opusfile.h>
#include <CLibraryLoader.h>

/* The libopusfile functions SoundStage calls, loaded the first time an Opus file is decoded. */
#define SS_OPUSFILE_FUNCTIONS(X) \
    X(op_open_callbacks, open_callbacks) \
    X(op_free, free) \
    X(op_channel_count, channel_count) \
    X(op_pcm_total, pcm_total) \
    X(op_read_float, read_float) \
    X(op_pcm_seek, pcm_seek)

/* libopusfile's functions: ss_opusfile() (NULL when it cannot be loaded; ss_opusfile_error() says why). */
SS_LIBRARY_DECLARE(opusfile, SS_OPUSFILE_FUNCTIONS)

#endif
