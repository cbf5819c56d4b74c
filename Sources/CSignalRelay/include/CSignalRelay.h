#ifndef SOUNDSTAGE_CSIGNALRELAY_H
#define SOUNDSTAGE_CSIGNALRELAY_H

/*
 * Async-signal-safe relay for job-control signals, used by SuspendWatcher.
 *
 * The SIGTSTP handler only touches lock-free atomics and calls write(2) on a
 * non-blocking pipe; the SIGCONT handler only bumps an atomic counter (and
 * chains to a previously installed SIGCONT handler, if any). No Swift code
 * ever runs inside a signal handler. In a fork()ed child (no exec) that
 * inherited the handler, SIGTSTP falls back to its default action.
 *
 * Process-wide: at most one relay can be active. All functions except the
 * handlers themselves must be serialised by the caller (SuspendWatcher does
 * this with a Mutex).
 */

/* pipe2(fds, O_CLOEXEC | O_NONBLOCK); 0 or -1 with errno set. Both ends are
 * non-blocking: the write end so the handler never blocks, the read end so
 * the watcher thread can drain it. */
int ss_relay_make_pipe(int fds[2]);

/* Start relaying. SIGTSTP writes one byte ('Z') to write_fd, which must be
 * the non-blocking write end of a pipe.
 * Returns 0 when armed, 1 when SIGTSTP was ignored (SIG_IGN) by whoever
 * started us, in which case nothing is installed (Ctrl-Z would not stop the
 * process anyway), -EBUSY if another relay is active, or -errno. */
int ss_relay_start(int write_fd);

/* Put SIGTSTP back to SIG_DFL (used right before re-raising it) and wait for
 * relay handlers already running on other threads to finish. */
void ss_relay_set_tstp_default(void);

/* Re-install the SIGTSTP relay handler after a stop/continue cycle. */
void ss_relay_rearm_tstp(void);

/* Restore the original SIGTSTP and SIGCONT dispositions, stop writing to the
 * pipe and wait until no handler can still be writing to it. After this
 * returns the caller may close the pipe. */
void ss_relay_stop(void);

/* Nonzero if a SIGCONT arrived after the most recent SIGTSTP, i.e. the stop
 * requested by that SIGTSTP has already been cancelled (the kernel discards
 * pending stop signals when SIGCONT arrives; we mirror that). */
int ss_relay_continued_since_tstp(void);

/* Diagnostics (used by tests): the current disposition of signo.
 * 0 = SIG_DFL, 1 = SIG_IGN, 2 = this relay's handler, 3 = another handler,
 * -errno on error. */
int ss_relay_disposition(int signo);

#endif
