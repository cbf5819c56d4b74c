#ifndef SOUNDSTAGE_CMPG123_H
#define SOUNDSTAGE_CMPG123_H

#include <sys/types.h>
#include <mpg123.h>
#include <CLibraryLoader.h>

/* The libmpg123 functions SoundStage calls, loaded the first time an MP3 file is decoded.
 * (On 64-bit Linux mpg123.h names them without a large-file suffix, as looked up here.) */
#define SS_MPG123_FUNCTIONS(X) \
    X(mpg123_init, initialize) \
    X(mpg123_new, new_handle) \
    X(mpg123_delete, delete_handle) \
    X(mpg123_param2, param2) \
    X(mpg123_replace_reader_handle, replace_reader_handle) \
    X(mpg123_open_handle, open_handle) \
    X(mpg123_getformat, getformat) \
    X(mpg123_format_none, format_none) \
    X(mpg123_format, format) \
    X(mpg123_scan, scan) \
    X(mpg123_length, length) \
    X(mpg123_read, read) \
    X(mpg123_plain_strerror, plain_strerror) \
    X(mpg123_tell_stream, tell_stream) \
    X(mpg123_seek, seek)

/* libmpg123's functions: ss_mpg123() (NULL when it cannot be loaded; ss_mpg123_error() says why). */
SS_LIBRARY_DECLARE(mpg123, SS_MPG123_FUNCTIONS)

#endif
