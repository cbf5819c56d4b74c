// SDL2, for drumdub's window (`drumdub --window`), opened (dlopen) when the window is asked
// for, not linked: the terminal game runs on a machine without SDL2, and `--window` there
// says which package to install. The declarations come from libsdl2-dev's headers.
#ifndef DRUMDUB_CSDL2_H
#define DRUMDUB_CSDL2_H

#include <SDL2/SDL.h>
#include <CLibraryLoader.h>

/* The SDL2 functions the window calls. */
#define DD_SDL2_FUNCTIONS(X) \
    X(SDL_Init, Init) \
    X(SDL_GetCurrentVideoDriver, GetCurrentVideoDriver) \
    X(SDL_Quit, Quit) \
    X(SDL_GetError, GetError) \
    X(SDL_SetHint, SetHint) \
    X(SDL_CreateWindow, CreateWindow) \
    X(SDL_DestroyWindow, DestroyWindow) \
    X(SDL_GetWindowSize, GetWindowSize) \
    X(SDL_SetWindowMinimumSize, SetWindowMinimumSize) \
    X(SDL_CreateRenderer, CreateRenderer) \
    X(SDL_DestroyRenderer, DestroyRenderer) \
    X(SDL_GetRendererOutputSize, GetRendererOutputSize) \
    X(SDL_SetRenderDrawColor, SetRenderDrawColor) \
    X(SDL_RenderClear, RenderClear) \
    X(SDL_RenderFillRect, RenderFillRect) \
    X(SDL_RenderFillRects, RenderFillRects) \
    X(SDL_RenderDrawLine, RenderDrawLine) \
    X(SDL_RenderPresent, RenderPresent) \
    X(SDL_PollEvent, PollEvent)

/* SDL2's functions: ss_sdl2() (NULL when it cannot be loaded; ss_sdl2_error() says why). */
SS_LIBRARY_DECLARE(sdl2, DD_SDL2_FUNCTIONS)

/* Function-like macros Swift cannot import. */
static inline int dd_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }

#endif
