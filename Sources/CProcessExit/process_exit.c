#include "CProcessExit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The hook, whether the exit has begun and its status, read and written under `gate`. */
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static void (*exit_hook)(void);
static int exiting;
static int exit_status;

static void ss_exit_run(int status, void *unused) {
    (void)unused;
    pthread_mutex_lock(&gate);
    exiting = 1;
    exit_status = status;
    void (*hook)(void) = exit_hook;
    pthread_mutex_unlock(&gate);
    if (hook) hook();
}

#if defined(__GLIBC__)
/* Before main: glibc registers the dynamic loader's clean-up (every library's destructor)
 * before running constructors, and runs exit handlers last registered first. on_exit hands
 * the handler the status exit() was called with. */
__attribute__((constructor)) static void ss_exit_install(void) { on_exit(ss_exit_run, NULL); }
#else
/* Without on_exit the status is not known: an exit ended early (ss_exit_now) reports 0. */
static void ss_exit_run_plain(void) { ss_exit_run(0, NULL); }
__attribute__((constructor)) static void ss_exit_install(void) { atexit(ss_exit_run_plain); }
#endif

int ss_exit_set_hook(void (*hook)(void)) {
    pthread_mutex_lock(&gate);
    int open = !exiting;
    if (open) exit_hook = hook;
    pthread_mutex_unlock(&gate);
    return open;
}

void ss_exit_now(void) {
    pthread_mutex_lock(&gate);
    int status = exit_status;
    pthread_mutex_unlock(&gate);
    fflush(NULL);
    _exit(status);
}
