#ifndef SOUNDSTAGE_CPROCESSEXIT_H
#define SOUNDSTAGE_CPROCESSEXIT_H

/*
 * The process's exit, as SoundStage's OpenAL gateway needs to see it.
 *
 * An exit handler registered as the library is loaded (a constructor), so it runs before the
 * shared libraries' destructors, OpenAL Soft's among them, however late the gateway is first
 * used: a handler registered by the gateway itself, on a thread that first touches OpenAL
 * while another thread is already inside exit(), would never run, and that thread's OpenAL
 * call would land after OpenAL Soft's clean-up (an assertion in its LockLists: the process
 * aborts as it exits).
 */

/* Sets the function the exit handler calls (once: the gateway's "close every device and keep
 * the lock"). Returns 1, or 0 when the process is exiting already: the hook will not run,
 * and the caller must make no OpenAL call. */
int ss_exit_set_hook(void (*hook)(void));

/* From inside the hook only: ends the process now with the status exit() was given, its
 * standard streams flushed, the exit handlers registered before this one (the libraries'
 * destructors, OpenAL Soft's clean-up among them) not run. For an exit that would otherwise
 * wait on a sound server that does not answer, with another thread inside OpenAL. */
__attribute__((noreturn)) void ss_exit_now(void);

#endif
