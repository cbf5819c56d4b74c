#define AL_ALEXT_PROTOTYPES
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>
#include <FLAC/stream_decoder.h>
#include <opus/opusfile.h>
#include <mpg123.h>
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

/* Mixing `voices` looping positioned voices; with `reverb`, each sends through both of its
 * two sends to one EAX reverb slot (the GENERIC preset's decay and gain), the second through
 * a lowpass send filter. Returns the seconds taken to render `frames`. */
static double mix(int voices, int frames, int block, int hrtf, int reverb) {
    ALCcontext *context;
    ALCdevice *device = open_loopback(hrtf, voices, &context);
    if (!device) return -1;
    ALuint buffer = sine_buffer(), effect = 0, slot = 0, filter = 0;
    if (reverb) {
        alGenEffects(1, &effect);
        alEffecti(effect, AL_EFFECT_TYPE, AL_EFFECT_EAXREVERB);
        alEffectf(effect, AL_EAXREVERB_DECAY_TIME, 1.49f);
        alEffectf(effect, AL_EAXREVERB_GAIN, 0.3162f);
        alGenAuxiliaryEffectSlots(1, &slot);
        alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, (ALint)effect);
        alGenFilters(1, &filter);
        alFilteri(filter, AL_FILTER_TYPE, AL_FILTER_LOWPASS);
        alFilterf(filter, AL_LOWPASS_GAINHF, 0.5f);
    }
    ALuint *sources = malloc(sizeof(ALuint) * voices);
    alGenSources(voices, sources);
    for (int i = 0; i < voices; i++) {
        float angle = 2 * (float)M_PI * i / voices;
        alSourcei(sources[i], AL_BUFFER, (ALint)buffer);
        alSourcei(sources[i], AL_LOOPING, AL_TRUE);
        alSource3f(sources[i], AL_POSITION, 4 * cosf(angle), 0, 4 * sinf(angle));
        if (reverb) {
            alSource3i(sources[i], AL_AUXILIARY_SEND_FILTER, (ALint)slot, 0, AL_FILTER_NULL);
            alSource3i(sources[i], AL_AUXILIARY_SEND_FILTER, (ALint)slot, 1, (ALint)filter);
        }
    }
    alSourcePlayv(voices, sources);
    if (alGetError() != AL_NO_ERROR) return -1;
    float *out = malloc(sizeof(float) * 2 * block);
    double start = now();
    for (int done = 0; done < frames; done += block)
        alcRenderSamplesSOFT(device, out, block);
    double seconds = now() - start;
    free(out);
    alDeleteSources(voices, sources);
    free(sources);
    if (reverb) {
        alDeleteAuxiliaryEffectSlots(1, &slot);
        alDeleteEffects(1, &effect);
        alDeleteFilters(1, &filter);
    }
    alDeleteBuffers(1, &buffer);
    close_loopback(device, context);
    return seconds;
}

double cbase_mix(int voices, int frames, int block, int hrtf) { return mix(voices, frames, block, hrtf, 0); }

double cbase_mix_reverb(int voices, int frames, int block) { return mix(voices, frames, block, 0, 1); }

static double setters(int count, int frames, int deferred) {
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
        if (deferred) alDeferUpdatesSOFT();
        for (int i = 0; i < count; i++)
            alSource3f(sources[i], AL_POSITION, (float)(i % 17), 0.5f, -(float)(f % 23));
        if (deferred) alProcessUpdatesSOFT();
        spent += now() - start;
        alcRenderSamplesSOFT(device, out, 64);
    }
    alDeleteSources(count, sources);
    free(sources);
    alDeleteBuffers(1, &buffer);
    close_loopback(device, context);
    return spent;
}

double cbase_setters(int count, int frames) { return setters(count, frames, 0); }

double cbase_setters_deferred(int count, int frames) { return setters(count, frames, 1); }

/* A player's volume written `writes` times: one alSourcef each, on a playing source. */
double cbase_volume_writes(int writes) {
    ALCcontext *context;
    ALCdevice *device = open_loopback(0, 4, &context);
    if (!device) return -1;
    ALuint buffer = sine_buffer(), source;
    alGenSources(1, &source);
    alSourcei(source, AL_BUFFER, (ALint)buffer);
    alSourcei(source, AL_LOOPING, AL_TRUE);
    alSourcePlay(source);
    double start = now();
    for (int i = 0; i < writes; i++) alSourcef(source, AL_GAIN, (i & 1) ? 0.25f : 0.5f);
    double spent = now() - start;
    alDeleteSources(1, &source);
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

/* Reads a whole file into memory: the bytes and their count, or NULL. */
static unsigned char *read_file(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(*size);
    if (!bytes || fread(bytes, 1, *size, f) != (size_t)*size) { free(bytes); fclose(f); return NULL; }
    fclose(f);
    return bytes;
}

double cbase_load_wav(const char *path) {
    ALCcontext *context;
    ALCdevice *device = open_loopback(0, 4, &context);
    if (!device) return -1;
    double start = now();
    long size;
    unsigned char *bytes = read_file(path, &size);
    if (!bytes) { close_loopback(device, context); return -1; }
    /* Walk the chunks to "data"; the file is a plain stereo 16-bit PCM WAV. */
    long offset = 12, data = -1, length = 0;
    while (offset + 8 <= size) {
        long chunk = bytes[offset + 4] | bytes[offset + 5] << 8 | bytes[offset + 6] << 16 | (long)bytes[offset + 7] << 24;
        if (memcmp(bytes + offset, "data", 4) == 0) { data = offset + 8; length = chunk < size - data ? chunk : size - data; break; }
        offset += 8 + chunk + (chunk & 1);
    }
    ALuint buffer = 0;
    if (data >= 0) {
        alGenBuffers(1, &buffer);
        alBufferData(buffer, AL_FORMAT_STEREO16, bytes + data, (ALsizei)(length & ~3L), 48000);
    }
    double seconds = now() - start;
    /* Checked while the context is current: with none, alGetError itself reports an error. */
    int ok = data >= 0 && alGetError() == AL_NO_ERROR;
    if (buffer) alDeleteBuffers(1, &buffer);
    free(bytes);
    close_loopback(device, context);
    return ok ? seconds : -1;
}

/* Where a baseline leaves what it decoded: memory written and then freed unread may have its
   stores dropped by the optimiser (the Vorbis loop's interleaving was: its 115 MB were never
   touched, 1,010 page faults where the Swift decoder took 27,161), and the baseline must do
   the work it is compared with. */
void *volatile cbase_sink;

double cbase_decode_vorbis(const char *path) {
    double start = now();
    OggVorbis_File file;
    if (ov_fopen(path, &file) != 0) return -1;
    int channels = ov_info(&file, -1)->channels;
    long total = (long)ov_pcm_total(&file, -1);
    float *out = malloc(sizeof(float) * (size_t)(total + 8192) * channels);
    long frames = 0;
    for (;;) {
        float **pcm;
        int section;
        long n = ov_read_float(&file, &pcm, 4096, &section);
        if (n == OV_HOLE) continue;
        if (n <= 0) break;
        if (frames + n > total + 8192) break;
        for (long i = 0; i < n; i++)
            for (int c = 0; c < channels; c++) out[(frames + i) * channels + c] = pcm[c][i];
        frames += n;
    }
    double seconds = now() - start;
    cbase_sink = out;
    free(out);
    ov_clear(&file);
    return frames > 0 ? seconds : -1;
}

struct flac_out { short *samples; long frames, capacity; int channels; };

static FLAC__StreamDecoderWriteStatus flac_write(const FLAC__StreamDecoder *d, const FLAC__Frame *frame,
                                                 const FLAC__int32 *const buffer[], void *client) {
    (void)d;
    struct flac_out *out = client;
    long n = frame->header.blocksize;
    int channels = (int)frame->header.channels;
    if (out->frames + n > out->capacity) {
        out->capacity = (out->frames + n) * 2;
        out->samples = realloc(out->samples, sizeof(short) * (size_t)out->capacity * channels);
    }
    for (long i = 0; i < n; i++)
        for (int c = 0; c < channels; c++) out->samples[(out->frames + i) * channels + c] = (short)buffer[c][i];
    out->frames += n;
    out->channels = channels;
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void flac_error(const FLAC__StreamDecoder *d, FLAC__StreamDecoderErrorStatus s, void *client) { (void)d; (void)s; (void)client; }

double cbase_decode_flac(const char *path) {
    double start = now();
    FLAC__StreamDecoder *decoder = FLAC__stream_decoder_new();
    struct flac_out out = { NULL, 0, 0, 0 };
    if (!decoder || FLAC__stream_decoder_init_file(decoder, path, flac_write, NULL, flac_error, &out) != FLAC__STREAM_DECODER_INIT_STATUS_OK) return -1;
    FLAC__bool ok = FLAC__stream_decoder_process_until_end_of_stream(decoder);
    double seconds = now() - start;
    FLAC__stream_decoder_delete(decoder);
    free(out.samples);
    return ok && out.frames > 0 ? seconds : -1;
}

double cbase_decode_opus(const char *path) {
    double start = now();
    int error = 0;
    OggOpusFile *file = op_open_file(path, &error);
    if (!file) return -1;
    int channels = op_channel_count(file, -1);
    long total = (long)op_pcm_total(file, -1);
    float *out = malloc(sizeof(float) * (size_t)(total + 5760) * channels);
    long frames = 0;
    for (;;) {
        int n = op_read_float(file, out + frames * channels, 5760 * channels, NULL);
        if (n == OP_HOLE) continue;
        if (n <= 0 || frames + n > total) { if (n > 0) frames += n; break; }
        frames += n;
    }
    double seconds = now() - start;
    free(out);
    op_free(file);
    return frames > 0 ? seconds : -1;
}

double cbase_decode_mp3(const char *path) {
    double start = now();
    mpg123_handle *handle = mpg123_new(NULL, NULL);
    if (!handle) return -1;
    mpg123_param(handle, MPG123_FLAGS, MPG123_GAPLESS | MPG123_FORCE_FLOAT | MPG123_QUIET, 0);
    if (mpg123_open(handle, path) != MPG123_OK) { mpg123_delete(handle); return -1; }
    long rate; int channels, encoding;
    mpg123_getformat(handle, &rate, &channels, &encoding);
    mpg123_format_none(handle);
    mpg123_format(handle, rate, channels, MPG123_ENC_FLOAT_32);
    mpg123_scan(handle);
    long total = (long)mpg123_length(handle);
    float *out = malloc(sizeof(float) * (size_t)(total + 1152) * channels);
    size_t filled = 0, capacity = sizeof(float) * (size_t)total * channels;
    for (;;) {
        size_t done = 0;
        int status = mpg123_read(handle, (unsigned char *)out + filled, capacity - filled, &done);
        filled += done;
        if (status != MPG123_OK || done == 0 || filled >= capacity) break;
    }
    double seconds = now() - start;
    free(out);
    mpg123_delete(handle);
    return filled > 0 ? seconds : -1;
}

/* Loads a PCM WAV file (8 or 16 bit, mono or stereo) into a new buffer: read the file,
   walk the chunks for "fmt " and "data", alBufferData. Returns the buffer, 0 on failure. */
static ALuint load_pcm_wav(const char *path) {
    long size;
    unsigned char *bytes = read_file(path, &size);
    if (!bytes) return 0;
    long offset = 12, data = -1, length = 0;
    int channels = 0, bits = 0, rate = 0;
    while (offset + 8 <= size) {
        long chunk = bytes[offset + 4] | bytes[offset + 5] << 8 | bytes[offset + 6] << 16 | (long)bytes[offset + 7] << 24;
        if (memcmp(bytes + offset, "fmt ", 4) == 0 && chunk >= 16) {
            channels = bytes[offset + 10] | bytes[offset + 11] << 8;
            rate = bytes[offset + 12] | bytes[offset + 13] << 8 | bytes[offset + 14] << 16 | bytes[offset + 15] << 24;
            bits = bytes[offset + 22] | bytes[offset + 23] << 8;
        } else if (memcmp(bytes + offset, "data", 4) == 0) {
            data = offset + 8;
            length = chunk < size - data ? chunk : size - data;
            break;
        }
        offset += 8 + chunk + (chunk & 1);
    }
    ALenum format = channels == 1 ? (bits == 8 ? AL_FORMAT_MONO8 : AL_FORMAT_MONO16)
                                  : (bits == 8 ? AL_FORMAT_STEREO8 : AL_FORMAT_STEREO16);
    ALuint buffer = 0;
    if (data >= 0 && (channels == 1 || channels == 2) && (bits == 8 || bits == 16)) {
        long frame = channels * bits / 8;
        alGenBuffers(1, &buffer);
        alBufferData(buffer, format, bytes + data, (ALsizei)(length / frame * frame), rate);
    }
    free(bytes);
    return buffer;
}

double cbase_engine_start(const char *const *paths, int count) {
    double start = now();
    ALCcontext *context;
    ALCdevice *device = open_loopback(0, 256, &context);
    if (!device) return -1;
    ALuint buffers[16] = {0}, sources[16] = {0};
    int ok = count <= 16;
    for (int i = 0; ok && i < count; i++) {
        buffers[i] = load_pcm_wav(paths[i]);
        if (!buffers[i]) { ok = 0; break; }
        alGenSources(1, &sources[i]);
        alSourcei(sources[i], AL_BUFFER, (ALint)buffers[i]);
    }
    double seconds = now() - start;
    ok = ok && alGetError() == AL_NO_ERROR;
    for (int i = 0; i < count && i < 16; i++) {
        if (sources[i]) alDeleteSources(1, &sources[i]);
        if (buffers[i]) alDeleteBuffers(1, &buffers[i]);
    }
    close_loopback(device, context);
    return ok ? seconds : -1;
}

/* Every source property SoundStage carries to a new device (floats, vectors, integers). */
static const ALenum move_floats[] = {AL_GAIN, AL_MIN_GAIN, AL_MAX_GAIN, AL_PITCH, AL_CONE_INNER_ANGLE, AL_CONE_OUTER_ANGLE,
                                     AL_CONE_OUTER_GAIN, AL_REFERENCE_DISTANCE, AL_MAX_DISTANCE, AL_ROLLOFF_FACTOR, AL_SOURCE_RADIUS};
static const ALenum move_vectors[] = {AL_POSITION, AL_VELOCITY, AL_DIRECTION};
static const ALenum move_ints[] = {AL_SOURCE_RELATIVE, AL_DIRECT_CHANNELS_SOFT, AL_SOURCE_SPATIALIZE_SOFT, AL_DISTANCE_MODEL,
                                   AL_SOURCE_RESAMPLER_SOFT};

double cbase_move(int sources, int buffers, int frames) {
    ALCcontext *old_context = NULL;
    ALCdevice *old_device = open_loopback(0, sources, &old_context);
    if (!old_device) return -1;
    float **kept = malloc(sizeof(float *) * buffers);
    ALuint *old_buffers = malloc(sizeof(ALuint) * buffers), *new_buffers = malloc(sizeof(ALuint) * buffers);
    ALuint *old_sources = malloc(sizeof(ALuint) * sources), *new_sources = malloc(sizeof(ALuint) * sources);
    alGenBuffers(buffers, old_buffers);
    for (int b = 0; b < buffers; b++) {
        kept[b] = malloc(sizeof(float) * frames);
        for (int i = 0; i < frames; i++) kept[b][i] = 0.25f * sinf(2 * (float)M_PI * (220 + b) * i / 48000);
        alBufferData(old_buffers[b], AL_FORMAT_MONO_FLOAT32, kept[b], frames * (ALsizei)sizeof(float), 48000);
    }
    alGenSources(sources, old_sources);
    for (int s = 0; s < sources; s++) {
        float angle = 2 * (float)M_PI * s / sources;
        alSourcei(old_sources[s], AL_BUFFER, (ALint)old_buffers[s % buffers]);
        alSourcei(old_sources[s], AL_LOOPING, AL_TRUE);
        alSource3f(old_sources[s], AL_POSITION, 4 * cosf(angle), 0, 4 * sinf(angle));
        alSourcef(old_sources[s], AL_GAIN, 0.5f);
    }
    alSourcePlayv(sources, old_sources);
    static float out[2 * 4800];
    alcRenderSamplesSOFT(old_device, out, 4800);

    double start = now();
    ALCcontext *context = NULL;
    ALCdevice *device = alcLoopbackOpenDeviceSOFT(NULL);
    ALCint attrs[] = {ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT, ALC_FREQUENCY, 48000,
                      ALC_HRTF_SOFT, ALC_FALSE, ALC_MONO_SOURCES, sources, ALC_STEREO_SOURCES, 0, 0};
    context = alcCreateContext(device, attrs);
    /* The context's and the listener's state, read in the old context, set in the new. */
    ALint model = alGetInteger(AL_DISTANCE_MODEL);
    ALfloat doppler = alGetFloat(AL_DOPPLER_FACTOR), speed = alGetFloat(AL_SPEED_OF_SOUND), gain, v[3][3], orientation[6];
    alGetListenerf(AL_GAIN, &gain);
    alGetListenerfv(AL_POSITION, v[0]);
    alGetListenerfv(AL_VELOCITY, v[1]);
    alGetListenerfv(AL_ORIENTATION, orientation);
    /* Each source's properties and offset, read before the switch. */
    enum { NF = sizeof move_floats / sizeof *move_floats, NV = sizeof move_vectors / sizeof *move_vectors, NI = sizeof move_ints / sizeof *move_ints };
    ALfloat (*floats)[NF] = malloc(sizeof(*floats) * sources);
    ALfloat (*vectors)[NV][3] = malloc(sizeof(*vectors) * sources);
    ALint (*ints)[NI] = malloc(sizeof(*ints) * sources), *offsets = malloc(sizeof(ALint) * sources);
    for (int s = 0; s < sources; s++) {
        for (int k = 0; k < NF; k++) alGetSourcef(old_sources[s], move_floats[k], &floats[s][k]);
        for (int k = 0; k < NV; k++) alGetSourcefv(old_sources[s], move_vectors[k], vectors[s][k]);
        for (int k = 0; k < NI; k++) alGetSourcei(old_sources[s], move_ints[k], &ints[s][k]);
        alGetSourcei(old_sources[s], AL_SAMPLE_OFFSET, &offsets[s]);
    }
    alSourceStopv(sources, old_sources);
    alcMakeContextCurrent(context);
    alDistanceModel(model);
    alDopplerFactor(doppler);
    alSpeedOfSound(speed);
    alListenerf(AL_GAIN, gain);
    alListenerfv(AL_POSITION, v[0]);
    alListenerfv(AL_VELOCITY, v[1]);
    alListenerfv(AL_ORIENTATION, orientation);
    alGenBuffers(buffers, new_buffers);
    for (int b = 0; b < buffers; b++)
        alBufferData(new_buffers[b], AL_FORMAT_MONO_FLOAT32, kept[b], frames * (ALsizei)sizeof(float), 48000);
    alGenSources(sources, new_sources);
    for (int s = 0; s < sources; s++) {
        for (int k = 0; k < NF; k++) alSourcef(new_sources[s], move_floats[k], floats[s][k]);
        for (int k = 0; k < NV; k++) alSourcefv(new_sources[s], move_vectors[k], vectors[s][k]);
        for (int k = 0; k < NI; k++) alSourcei(new_sources[s], move_ints[k], ints[s][k]);
        alSourcei(new_sources[s], AL_BUFFER, (ALint)new_buffers[s % buffers]);
        alSourcei(new_sources[s], AL_LOOPING, AL_TRUE);
        alSourcei(new_sources[s], AL_SAMPLE_OFFSET, offsets[s]);
    }
    alSourcePlayv(sources, new_sources);
    double elapsed = now() - start;
    int ok = alGetError() == AL_NO_ERROR;

    alDeleteSources(sources, new_sources);
    alDeleteBuffers(buffers, new_buffers);
    close_loopback(device, context);
    alcMakeContextCurrent(old_context);
    alDeleteSources(sources, old_sources);
    alDeleteBuffers(buffers, old_buffers);
    close_loopback(old_device, old_context);
    for (int b = 0; b < buffers; b++) free(kept[b]);
    free(kept); free(old_buffers); free(new_buffers); free(old_sources); free(new_sources);
    free(floats); free(vectors); free(ints); free(offsets);
    return ok ? elapsed : -1;
}

/* The voice tick: `voices` looping emitters moving every frame, the `real` most audible
 * holding OpenAL sources. Each tick moves every emitter, scores it (inverse-clamped
 * distance from the listener at the origin), keeps the top `real` in a min-heap, stops the
 * sources of those that left the top, starts the newcomers at their playheads, and sets the
 * position and gain of every real one. Returns the median seconds of a tick. */
static int heap_below(const float *score, const int *heap, int a, int b) {
    return score[heap[a]] < score[heap[b]] || (score[heap[a]] == score[heap[b]] && heap[a] > heap[b]);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Keeps voice `i` in the min-heap `heap` of `n` of the `real` best scores if it is among them;
 * returns the heap's new size. */
static inline __attribute__((always_inline)) int keep_best(const float *score, int *heap, int n, int real, int i) {
    if (n < real) {
        heap[n] = i;
        for (int c = n++; c > 0 && heap_below(score, heap, c, (c - 1) / 2); c = (c - 1) / 2) {
            int p = (c - 1) / 2, k = heap[c]; heap[c] = heap[p]; heap[p] = k;
        }
    } else if (score[heap[0]] < score[i] || (score[heap[0]] == score[i] && heap[0] > i)) {
        heap[0] = i;
        for (int p = 0;;) {
            int l = 2 * p + 1, r = l + 1, m = p;
            if (l < n && heap_below(score, heap, l, m)) m = l;
            if (r < n && heap_below(score, heap, r, m)) m = r;
            if (m == p) break;
            int k = heap[p]; heap[p] = heap[m]; heap[m] = k; p = m;
        }
    }
    return n;
}

/* One move of a game's array of moves, laid out as SoundStage's `(Voice, SIMD3<Float>)`: the
 * handle (its pool, slot and generation), then the point in 16 bytes. */
struct voice_move {
    const void *pool;
    unsigned index, generation;
    float x, y, z, unused;
};

/* Writes each of `count` moves of the pool `pool` to the position lane, the voice live and
 * of the move's generation (`slots` in the table), and marks it moved, as a pool does. */
static void set_positions(const struct voice_move *restrict moves, int count, const void *pool, const unsigned *restrict generation,
                          unsigned short *restrict flags, float *restrict position, int slots) {
    for (int k = 0; k < count; k++) {
        const struct voice_move *m = &moves[k];
        unsigned i = m->index;
        if (!isfinite(m->x) || !isfinite(m->y) || !isfinite(m->z) || i >= (unsigned)slots || generation[i] != m->generation
            || m->pool != pool || !(flags[i] & 1)) continue;
        float *p = &position[4 * i];
        p[0] = m->x; p[1] = m->y; p[2] = m->z; p[3] = 0;
        flags[i] |= 0x48;
    }
}

/* The tick of `cbase_voice_tick_moves`, made once for each of its two forms (`moves_array` a
 * constant in each), so that the plain loop is compiled as if the other were not there. */
static inline __attribute__((always_inline)) double voice_tick(int voices, int real, int ticks, int moves_array);

double cbase_voice_tick(int voices, int real, int ticks) {
    return voice_tick(voices, real, ticks, 0);
}

double cbase_voice_tick_moves(int voices, int real, int ticks, int moves_array) {
    return moves_array ? voice_tick(voices, real, ticks, 1) : voice_tick(voices, real, ticks, 0);
}

static inline __attribute__((always_inline)) double voice_tick(int voices, int real, int ticks, int moves_array) {
    ALCcontext *context = NULL;
    ALCdevice *device = open_loopback(0, real + real / 4 + 1, &context);
    if (!device) return -1;
    ALuint buffer = sine_buffer();
    ALuint *sources = malloc(sizeof(ALuint) * real);
    alGenSources(real, sources);
    int *free_sources = malloc(sizeof(int) * real), free_count = real;
    for (int i = 0; i < real; i++) free_sources[i] = real - 1 - i;
    float *x = malloc(sizeof(float) * voices), *z = malloc(sizeof(float) * voices), *score = malloc(sizeof(float) * voices);
    double *playhead = malloc(sizeof(double) * voices), *times = malloc(sizeof(double) * ticks);
    int *source_of = malloc(sizeof(int) * voices), *heap = malloc(sizeof(int) * real);
    char *chosen = calloc(voices, 1);
    /* With `moves_array`: the game's moves, and the table's generation, flags and position
     * lanes they are written to (the handle checked, as a pool checks it); the ranking reads
     * the position lane. */
    struct voice_move *moves = NULL;
    unsigned *generation = NULL;
    unsigned short *flags = NULL;
    float *position = NULL;
    if (moves_array) {
        moves = malloc(sizeof(struct voice_move) * voices);
        generation = calloc(voices, sizeof(unsigned));
        flags = malloc(sizeof(unsigned short) * voices);
        position = aligned_alloc(16, sizeof(float) * 4 * voices);
    }
    unsigned seed = 1;
    for (int i = 0; i < voices; i++) {
        seed = seed * 1103515245u + 12345u; x[i] = (float)(seed % 20000) / 100 - 100;
        seed = seed * 1103515245u + 12345u; z[i] = (float)(seed % 20000) / 100 - 100;
        playhead[i] = 0; source_of[i] = -1;
        if (moves_array) {
            moves[i] = (struct voice_move){ sources, (unsigned)i, 0, x[i], 0, z[i], 0 };
            flags[i] = 1;
            position[4 * i] = x[i]; position[4 * i + 1] = 0; position[4 * i + 2] = z[i]; position[4 * i + 3] = 0;
        }
    }
    for (int t = 0; t < ticks; t++) {
        double start = now();
        int n = 0;
        if (moves_array) {
            for (int k = 0; k < voices; k++) moves[k].x += 0.01f;
            set_positions(moves, voices, sources, generation, flags, position, voices);
        }
        if (moves_array) {
            for (int i = 0; i < voices; i++) {
                playhead[i] += 480;
                float xi = position[4 * i], zi = position[4 * i + 2];
                float d = sqrtf(xi * xi + zi * zi);
                score[i] = 1 / (d > 1 ? d : 1);
                n = keep_best(score, heap, n, real, i);
            }
        } else {
            for (int i = 0; i < voices; i++) {
                x[i] += 0.01f;
                playhead[i] += 480;
                float d = sqrtf(x[i] * x[i] + z[i] * z[i]);
                score[i] = 1 / (d > 1 ? d : 1);
                n = keep_best(score, heap, n, real, i);
            }
        }
        for (int k = 0; k < n; k++) chosen[heap[k]] = 1;
        for (int i = 0; i < voices; i++) {
            if (source_of[i] >= 0 && !chosen[i]) {
                alSourceStop(sources[source_of[i]]);
                free_sources[free_count++] = source_of[i];
                source_of[i] = -1;
            }
        }
        for (int k = 0; k < n; k++) {
            int i = heap[k];
            chosen[i] = 0;
            ALuint s;
            if (source_of[i] < 0) {
                source_of[i] = free_sources[--free_count];
                s = sources[source_of[i]];
                alSourcei(s, AL_BUFFER, (ALint)buffer);
                alSourcei(s, AL_LOOPING, AL_TRUE);
                alSourcei(s, AL_SAMPLE_OFFSET, (ALint)fmod(playhead[i], 48000));
                alSourcePlay(s);
            }
            s = sources[source_of[i]];
            if (moves_array) alSource3f(s, AL_POSITION, position[4 * i], position[4 * i + 1], position[4 * i + 2]);
            else alSource3f(s, AL_POSITION, x[i], 0, z[i]);
            alSourcef(s, AL_GAIN, 1);
        }
        if (alGetError() != AL_NO_ERROR) return -1;
        times[t] = now() - start;
    }
    qsort(times, ticks, sizeof(double), compare_doubles);
    double median = times[ticks / 2];
    alDeleteSources(real, sources);
    alDeleteBuffers(1, &buffer);
    free(sources); free(free_sources); free(x); free(z); free(score); free(playhead); free(times);
    free(source_of); free(heap); free(chosen);
    free(moves); free(generation); free(flags); free(position);
    close_loopback(device, context);
    return median;
}
