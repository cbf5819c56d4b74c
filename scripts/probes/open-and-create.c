/* For scripts/restart-probe.sh: opens the default output device and creates a context on it,
 * over and over, for the seconds given, as an engine replacing a lost device does; one line
 * per attempt: the time (seconds since the epoch, to match `date +%s.%N`), the devices
 * listed, and what the open and the context creation gave (ALC error codes in hex). Run without ALSOFT_TRAP_ALC_ERROR: the
 * failures are what it counts. */
#include <AL/alc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 5, start = now();
    while (now() - start < seconds) {
        char listed[512] = "";
        const ALCchar *list = alcGetString(NULL, ALC_ALL_DEVICES_SPECIFIER);
        for (const ALCchar *p = list; p && *p; p += strlen(p) + 1) {
            if (listed[0]) strncat(listed, "|", sizeof listed - strlen(listed) - 1);
            strncat(listed, p, sizeof listed - strlen(listed) - 1);
        }
        if (!listed[0]) {
            printf("%.3f none\n", now());
        } else {
            ALCdevice *device = alcOpenDevice(NULL);
            if (!device) {
                printf("%.3f [%s] open failed 0x%x\n", now(), listed, alcGetError(NULL));
            } else {
                ALCcontext *context = alcCreateContext(device, NULL);
                ALCenum error = alcGetError(device);
                printf("%.3f [%s] opened '%s' context %s 0x%x\n", now(), listed,
                       alcGetString(device, ALC_ALL_DEVICES_SPECIFIER), context ? "made" : "failed", error);
                if (context) alcDestroyContext(context);
                alcCloseDevice(device);
            }
        }
        fflush(stdout);
        usleep(50000);
    }
    return 0;
}
