// The drumdub terminal's guard: signal handling that must run in C.
//
// - SIGINT, SIGTERM and SIGHUP set a flag the game's loop reads, so it quits through its
//   normal path (audio stopped, terminal restored).
// - SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT, SIGXCPU, SIGXFSZ and SIGSYS
//   (a crash, a Swift runtime trap, OpenAL Soft's error trap, Ctrl-\, a resource limit) put the terminal back as it was before the game took it
//   (saved termios, the normal screen, a visible cursor) with async-signal-safe calls only,
//   then die of the same signal.
#ifndef SOUNDSTAGE_CTERMINALGUARD_H
#define SOUNDSTAGE_CTERMINALGUARD_H

/// Saves the terminal's settings on `fd` and installs the handlers. Returns 0, or -errno.
int dd_guard_install(int fd);
/// The last quit signal received (SIGINT, SIGTERM, SIGHUP), 0 if none; reading clears it.
int dd_guard_take_quit_signal(void);
/// Arms (1) or disarms (0) the crash handlers' terminal restore: armed while the game
/// shows its screen.
void dd_guard_set_screen_active(int active);

/// The descriptor holding the real standard error while fd 2 goes to a log (the game's
/// screen must not be written over by libraries' messages); a crash puts it back first.
/// -1: none.
void dd_guard_set_saved_stderr(int fd);

#endif
