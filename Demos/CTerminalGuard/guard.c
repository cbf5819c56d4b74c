#include "CTerminalGuard.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static atomic_int quit_signal = 0;
static atomic_int screen_active = 0;
static int saved_fd = -1;
static struct termios saved;
static int have_saved = 0;
static atomic_int saved_stderr = -1;

/* The dispositions the crash handlers replaced (Swift's backtracer's, or the defaults),
 * put back before the signal is raised again so they still run. */
static struct sigaction previous[NSIG];

static void on_quit(int signo) { atomic_store(&quit_signal, signo); }

static void on_crash(int signo) {
    int err = atomic_load(&saved_stderr);
    if (err >= 0) dup2(err, 2);
    if (atomic_load(&screen_active) && have_saved) {
        /* Normal screen (rmcup), cursor visible, attributes off; then the saved modes. */
        static const char reset[] = "\033[?1049l\033[?25h\033[0m\r\n";
        ssize_t ignored = write(saved_fd, reset, sizeof reset - 1);
        (void)ignored;
        tcsetattr(saved_fd, TCSANOW, &saved);
    }
    sigaction(signo, &previous[signo], NULL);
    raise(signo);
}

int dd_guard_install(int fd) {
    if (tcgetattr(fd, &saved) == 0) { have_saved = 1; saved_fd = fd; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_quit;
    sa.sa_flags = SA_RESTART;
    int quits[] = { SIGINT, SIGTERM, SIGHUP };
    for (unsigned i = 0; i < sizeof quits / sizeof quits[0]; i++)
        if (sigaction(quits[i], &sa, NULL) != 0) return -errno;
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_RESETHAND;
    int crashes[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT, SIGXCPU, SIGXFSZ, SIGSYS };
    for (unsigned i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        if (sigaction(crashes[i], &sa, &previous[crashes[i]]) != 0) return -errno;
    return 0;
}

int dd_guard_take_quit_signal(void) { return atomic_exchange(&quit_signal, 0); }

void dd_guard_set_screen_active(int active) { atomic_store(&screen_active, active); }

void dd_guard_set_saved_stderr(int fd) { atomic_store(&saved_stderr, fd); }
