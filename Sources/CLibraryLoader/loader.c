#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int load(struct ss_library *library) {
    void *handle = NULL;
    const char *reason = "no library name to try";
    for (const char *const *name = library->names; *name && !handle; name++) {
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (!handle) reason = dlerror();
    }
    if (!handle) {
        snprintf(library->error, sizeof library->error, "%s", reason ? reason : "dlopen failed");
        return -1;
    }
    for (size_t i = 0; i < library->count; i++) {
        void *symbol = dlsym(handle, library->symbols[i]);
        if (!symbol) {
            const char *why = dlerror();
            snprintf(library->error, sizeof library->error, "%s", why ? why : library->symbols[i]);
            dlclose(handle);
            return -1;
        }
        memcpy((char *)library->table + i * sizeof(void (*)(void)), &symbol, sizeof symbol);
    }
    /* Kept open for the life of the process, as its function pointers are. */
    return 1;
}

const void *ss_library_table(struct ss_library *library) {
    pthread_mutex_lock(&library->lock);
    if (library->state == 0) library->state = load(library);
    int state = library->state;
    pthread_mutex_unlock(&library->lock);
    return state > 0 ? library->table : NULL;
}

const char *ss_library_error(struct ss_library *library) {
    return ss_library_table(library) ? NULL : library->error;
}
