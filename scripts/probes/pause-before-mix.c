/* A source played and paused before the mixer took it up, heard through a loopback device:
 * OpenAL Soft 1.23.1 with HRTF on plays it as a ramp from its full gain over a whole update
 * (about 1,050 frames of a 440 Hz tone, peak 0.29); 1.19.1 plays nothing, and neither does
 * 1.23.1 without HRTF, nor once the source's gain was set to 0 before the pause (what
 * Player.pause does). A pause after the first mix fades over 64 frames (plus the HRTF's own
 * length) with or without the gain set to 0. One line per case: the peak and the last frame
 * above 1e-4.
 *
 *   cc -O1 -o .build/pause-before-mix scripts/probes/pause-before-mix.c -lopenal -lm
 *   ALSOFT_DRIVERS=null LD_LIBRARY_PATH=.build/openal-1.23.1 .build/pause-before-mix
 */
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <math.h>
#include <stdio.h>

static float out[4096 * 2];

/* hrtf: HRTF asked for; silence: gain 0 before the pause; mixedFirst: one update mixed
 * between the play and the pause. */
static void probe(int hrtf, int silence, int mixedFirst) {
    LPALCLOOPBACKOPENDEVICESOFT openLoopback = (LPALCLOOPBACKOPENDEVICESOFT)alcGetProcAddress(NULL, "alcLoopbackOpenDeviceSOFT");
    LPALCRENDERSAMPLESSOFT render = (LPALCRENDERSAMPLESSOFT)alcGetProcAddress(NULL, "alcRenderSamplesSOFT");
    ALCdevice *device = openLoopback(NULL);
    ALCint attributes[] = {ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                           ALC_FREQUENCY, 44100, ALC_HRTF_SOFT, hrtf, 0};
    ALCcontext *context = alcCreateContext(device, attributes);
    alcMakeContextCurrent(context);
    ALCint on = 0;
    alcGetIntegerv(device, ALC_HRTF_SOFT, 1, &on);
    static short pcm[44100];
    for (int i = 0; i < 44100; i++) pcm[i] = (short)(16000 * sin(2 * M_PI * 440 * i / 44100.0));
    ALuint buffer, source;
    alGenBuffers(1, &buffer);
    alBufferData(buffer, AL_FORMAT_MONO16, pcm, sizeof pcm, 44100);
    alGenSources(1, &source);
    alSourcei(source, AL_BUFFER, (ALint)buffer);
    alSourcei(source, AL_LOOPING, AL_TRUE);
    alSourcePlay(source);
    if (mixedFirst) render(device, out, 1024);
    if (silence) alSourcef(source, AL_GAIN, 0);
    alSourcePause(source);
    render(device, out, 4096);
    float peak = 0;
    int last = -1;
    for (int i = 0; i < 4096 * 2; i++) {
        float a = fabsf(out[i]);
        if (a > peak) peak = a;
        if (a > 1e-4f) last = i / 2;
    }
    printf("HRTF %s, gain %s before the pause, %s: peak %.4f, last frame heard %d\n", on ? "on" : "off",
           silence ? "0" : "kept", mixedFirst ? "paused after one update" : "paused before the first update", peak, last);
    alDeleteSources(1, &source);
    alDeleteBuffers(1, &buffer);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(context);
    alcCloseDevice(device);
}

int main(void) {
    for (int mixedFirst = 0; mixedFirst <= 1; mixedFirst++)
        for (int hrtf = 0; hrtf <= 1; hrtf++)
            for (int silence = 0; silence <= 1; silence++) probe(hrtf, silence, mixedFirst);
    return 0;
}
