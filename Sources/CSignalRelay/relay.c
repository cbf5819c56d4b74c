#define _GNU_SOURCE
#include "CSignalRelay.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* Read by the handlers; must be lock-free atomics to be async-signal-safe. */
static atomic_int relay_fd = -1;          /* -1: not relaying */
static atomic_int tstp_in_flight = 0;     /* TSTP handlers currently running */
static atomic_uint cont_seq = 0;          /* number of SIGCONTs seen */
static atomic_uint cont_seq_at_tstp = 0;  /* cont_seq when last SIGTSTP came */
static atomic_int owner_pid = 0;          /* process that started the relay */

/* Written only while no handler of ours is installed for the signal
 * (ss_relay_start, before sigaction) and read by the SIGCONT handler. */
static struct sigaction old_tstp;
static struct sigaction old_cont;

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic int must be lock-free");

static void relay_tstp(int signo) {
    int saved_errno = errno;
    if (getpid() != atomic_load(&owner_pid)) {
        /* A fork()ed child without exec inherited this handler but not the
         * watcher thread: behave as SIG_DFL. SIGTSTP is blocked while we run,
         * so the re-raised signal is delivered (and stops the child) as soon
         * as the handler returns. */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(signo, &sa, NULL);
        raise(signo);
        errno = saved_errno;
        return;
    }
    atomic_fetch_add(&tstp_in_flight, 1);
    atomic_store(&cont_seq_at_tstp, atomic_load(&cont_seq));
    int fd = atomic_load(&relay_fd);
    if (fd >= 0) {
        char byte = 'Z';
        /* Non-blocking: if the pipe is full, earlier bytes are still unread
         * and this SIGTSTP coalesces with them. */
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
    atomic_fetch_sub(&tstp_in_flight, 1);
    errno = saved_errno;
}

static void relay_cont(int signo, siginfo_t *info, void *context) {
    atomic_fetch_add(&cont_seq, 1);
    /* Chain to a SIGCONT handler that was installed before us. */
    if (old_cont.sa_flags & SA_SIGINFO) {
        if (old_cont.sa_sigaction) old_cont.sa_sigaction(signo, info, context);
    } else if (old_cont.sa_handler != SIG_DFL && old_cont.sa_handler != SIG_IGN) {
        old_cont.sa_handler(signo);
    }
}

static int install_tstp_handler(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = relay_tstp;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return sigaction(SIGTSTP, &sa, NULL) == 0 ? 0 : -errno;
}

static void wait_for_tstp_handlers(void) {
    while (atomic_load(&tstp_in_flight) != 0) sched_yield();
}

int ss_relay_start(int write_fd) {
    if (write_fd < 0) return -EINVAL;
    int expected = -1;
    if (!atomic_compare_exchange_strong(&relay_fd, &expected, write_fd))
        return -EBUSY;
    atomic_store(&owner_pid, (int)getpid());

    if (sigaction(SIGTSTP, NULL, &old_tstp) != 0) {
        int e = errno;
        atomic_store(&relay_fd, -1);
        return -e;
    }
    if (old_tstp.sa_handler == SIG_IGN && !(old_tstp.sa_flags & SA_SIGINFO)) {
        atomic_store(&relay_fd, -1);
        return 1;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = relay_cont;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    if (sigaction(SIGCONT, &sa, &old_cont) != 0) {
        int e = errno;
        atomic_store(&relay_fd, -1);
        return -e;
    }
    int r = install_tstp_handler();
    if (r < 0) {
        sigaction(SIGCONT, &old_cont, NULL);
        atomic_store(&relay_fd, -1);
        return r;
    }
    return 0;
}

void ss_relay_set_tstp_default(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTSTP, &sa, NULL);
    wait_for_tstp_handlers();
}

void ss_relay_rearm_tstp(void) {
    (void)install_tstp_handler();
}

void ss_relay_stop(void) {
    sigaction(SIGTSTP, &old_tstp, NULL);
    sigaction(SIGCONT, &old_cont, NULL);
    /* Dekker-style handshake (all seq_cst): a handler either sees -1 here, or
     * it had already incremented tstp_in_flight, which we then wait out. */
    atomic_store(&relay_fd, -1);
    wait_for_tstp_handlers();
}

int ss_relay_continued_since_tstp(void) {
    return atomic_load(&cont_seq) != atomic_load(&cont_seq_at_tstp);
}

int ss_relay_make_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
}

int ss_relay_disposition(int signo) {
    struct sigaction sa;
    if (sigaction(signo, NULL, &sa) != 0) return -errno;
    if (sa.sa_flags & SA_SIGINFO)
        return sa.sa_sigaction == relay_cont ? 2 : 3;
    if (sa.sa_handler == SIG_DFL) return 0;
    if (sa.sa_handler == SIG_IGN) return 1;
    return sa.sa_handler == relay_tstp ? 2 : 3;
}
