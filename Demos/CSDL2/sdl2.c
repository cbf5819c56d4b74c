#include "CSDL2.h"

SS_LIBRARY_DEFINE(sdl2, DD_SDL2_FUNCTIONS, "libSDL2-2.0.so.0", "libSDL2.so")
