#define AL_ALEXT_PROTOTYPES
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "CBaseline.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static ALCdevice *open_loopback(int hrtf, int sources, ALCcontext **context) {
    ALCdevice *device = alcLoopbackOpenDeviceSOFT(NULL);
    if (!device) return NULL;
    ALCint attrs[] = {ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                      ALC_FREQUENCY, 48000, ALC_HRTF_SOFT, hrtf ? ALC_TRUE : ALC_FALSE,
                      ALC_MONO_SOURCES, sources, ALC_STEREO_SOURCES, 0, 0};
    *context = alcCreateContext(device, attrs);
    if (!*context) { alcCloseDevice(device); return NULL; }
    alcMakeContextCurrent(*context);
    return device;
}

static void close_loopback(ALCdevice *device, ALCcontext *context) {
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
}

static ALuint sine_buffer(void) {
    static float samples[48000];
    for (int i = 0; i < 48000; i++) samples[i] = 0.25f * sinf(2 * (float)M_PI * 440 * i / 48000);
    ALuint buffer;
    alGenBuffers(1, &buffer);
    alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, samples, sizeof samples, 48000);
    return buffer;
}

double cbase_mix(int voices, int frames, int block, int hrtf) {
    ALCcontext *context;
    ALCdevice *device = open_loopback(hrtf, voices, &context);
    if (!device) return -1;
    ALuint buffer = sine_buffer();
    ALuint *sources = malloc(sizeof(ALuint) * voices);
    alGenSources(voices, sources);
    for (int i = 0; i < voices; i++) {
        float angle = 2 * (float)M_PI * i / voices;
        alSourcei(sources[i], AL_BUFFER, (ALint)buffer);
        alSourcei(sources[i], AL_LOOPING, AL_TRUE);
        alSource3f(sources[i], AL_POSITION, 4 * cosf(angle), 0, 4 * sinf(angle));
    }
    alSourcePlayv(voices, sources);
    float *out = malloc(sizeof(float) * 2 * block);
    double start = now();
    for (int done = 0; done < frames; done += block)
        alcRenderSamplesSOFT(device, out, block);
    double seconds = now() - start;
    free(out);
    alDeleteSources(voices, sources);
    free(sources);
    alDeleteBuffers(1, &buffer);
    close_loopback(device, context);
    return seconds;
}

double cbase_setters(int count, int frames) {
    ALCcontext *context;
    ALCdevice *device = open_loopback(0, count, &context);
    if (!device) return -1;
    ALuint buffer = sine_buffer();
    ALuint *sources = malloc(sizeof(ALuint) * count);
    alGenSources(count, sources);
    for (int i = 0; i < count; i++) {
        alSourcei(sources[i], AL_BUFFER, (ALint)buffer);
        alSourcei(sources[i], AL_LOOPING, AL_TRUE);
    }
    alSourcePlayv(count, sources);
    float out[2 * 64];
    double spent = 0;
    for (int f = 0; f < frames; f++) {
        double start = now();
        for (int i = 0; i < count; i++)
            alSource3f(sources[i], AL_POSITION, (float)(i % 17), 0.5f, -(float)(f % 23));
        spent += now() - start;
        alcRenderSamplesSOFT(device, out, 64);
    }
    alDeleteSources(count, sources);
    free(sources);
    alDeleteBuffers(1, &buffer);
    close_loopback(device, context);
    return spent;
}

int cbase_play_latency(int block) {
    ALCcontext *context;
    ALCdevice *device = open_loopback(0, 4, &context);
    if (!device) return -1;
    ALuint buffer = sine_buffer(), source;
    alGenSources(1, &source);
    alSourcei(source, AL_BUFFER, (ALint)buffer);
    alSource3f(source, AL_POSITION, 0, 0, -1);
    float *out = malloc(sizeof(float) * 2 * block);
    alcRenderSamplesSOFT(device, out, block);
    alSourcePlay(source);
    int latency = -1;
    for (int rendered = 0; rendered < 48000 && latency < 0; rendered += block) {
        alcRenderSamplesSOFT(device, out, block);
        for (int i = 0; i < 2 * block; i++)
            if (out[i] != 0) { latency = rendered + i / 2; break; }
    }
    free(out);
    alDeleteSources(1, &source);
    alDeleteBuffers(1, &buffer);
    close_loopback(device, context);
    return latency;
}
