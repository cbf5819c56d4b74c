#ifndef SOUNDSTAGE_CEXITRACE_H
#define SOUNDSTAGE_CEXITRACE_H

/*
 * The exit race, made to happen every time: an exit handler registered before SoundStage's
 * (a constructor of a higher priority), so it runs after SoundStage's handler and before the
 * shared libraries' destructors (OpenAL Soft's clean-up). It lets a waiting thread make the
 * process's first OpenAL call through SoundStage then, and waits a second for it: a call
 * that returns means OpenAL was called after the exit began, and the process ends with
 * status 3 (without the fix, the same call would land in OpenAL Soft after its clean-up, or
 * before it, by chance).
 */

/* Blocks until the process's exit has run SoundStage's exit handler. */
void ss_race_wait_for_exit(void);

/* Says the thread's OpenAL call returned. */
void ss_race_call_returned(void);

#endif
