/* opusfile.h includes <opus_multistream.h>, which pkg-config finds with -I/usr/include/opus;
 * a package cannot add that path without unsafe flags, so this header forwards to it. */
#include <opus/opus_multistream.h>
