#include "CProcessExit.h"

#include <pthread.h>
#include <stdlib.h>

/* The hook and whether the exit has begun, read and written under `gate`. */
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static void (*exit_hook)(void);
static int exiting;

static void ss_exit_run(void) {
    pthread_mutex_lock(&gate);
    exiting = 1;
    void (*hook)(void) = exit_hook;
    pthread_mutex_unlock(&gate);
    if (hook) hook();
}

/* Before main: glibc registers the dynamic loader's clean-up (every library's destructor)
 * before running constructors, and runs exit handlers last registered first. */
__attribute__((constructor)) static void ss_exit_install(void) { atexit(ss_exit_run); }

int ss_exit_set_hook(void (*hook)(void)) {
    pthread_mutex_lock(&gate);
    int open = !exiting;
    if (open) exit_hook = hook;
    pthread_mutex_unlock(&gate);
    return open;
}
