// ncurses for the drumdub demo. What Swift cannot import (function-like macros, attribute
// bit masks, the colour pair macro) is wrapped here as static inline functions.
#ifndef SOUNDSTAGE_CNCURSES_SHIM_H
#define SOUNDSTAGE_CNCURSES_SHIM_H

#include <curses.h>

/// The attribute of colour pair `n` (COLOR_PAIR).
static inline int dd_color_pair(short n) { return (int)COLOR_PAIR(n); }
/// A_BOLD.
static inline int dd_bold(void) { return (int)A_BOLD; }
/// A_REVERSE.
static inline int dd_reverse(void) { return (int)A_REVERSE; }
/// A_DIM.
static inline int dd_dim(void) { return (int)A_DIM; }
/// The standard screen's size (getmaxy/getmaxx).
static inline int dd_lines(void) { return getmaxy(stdscr); }
static inline int dd_columns(void) { return getmaxx(stdscr); }
/// A screen on the process's standard output and input (newterm(NULL, stdout, stdin)):
/// unlike initscr, it returns NULL rather than exiting when the terminal cannot be used.
static inline SCREEN *dd_newterm(void) { return newterm(NULL, stdout, stdin); }
/// keypad(stdscr, TRUE): arrow keys as KEY_UP and its kin.
static inline int dd_keypad_on(void) { return keypad(stdscr, TRUE); }
/// clearok(stdscr, TRUE): the next refresh repaints everything.
static inline int dd_clear_on_refresh(void) { return clearok(stdscr, TRUE); }
/// ERR, KEY_RESIZE and the arrow keys, as ints.
static inline int dd_err(void) { return ERR; }
static inline int dd_key_resize(void) { return KEY_RESIZE; }
static inline int dd_key_up(void) { return KEY_UP; }
static inline int dd_key_down(void) { return KEY_DOWN; }
static inline int dd_key_left(void) { return KEY_LEFT; }
static inline int dd_key_right(void) { return KEY_RIGHT; }

#endif
