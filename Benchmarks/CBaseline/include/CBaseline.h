#ifndef SOUNDSTAGE_CBASELINE_H
#define SOUNDSTAGE_CBASELINE_H
/* The raw OpenAL Soft baseline the benchmarks compare SoundStage with: the same work done
   with plain C calls, as a careful C programmer would write it. Each function returns the
   wall-clock seconds of the measured part, or a negative value on failure. */

/* Renders `frames` frames (in blocks of `block`) of `voices` looping positioned mono voices
   through a 48 kHz stereo float loopback device, HRTF on or off. */
double cbase_mix(int voices, int frames, int block, int hrtf);

/* Sets the position of each of `sources` sources once per frame for `frames` frames
   (alSource3f), rendering 64 samples between frames; returns the seconds spent in the
   alSource3f calls alone. */
double cbase_setters(int sources, int frames);
/// The same, each frame's changes between alDeferUpdatesSOFT and alProcessUpdatesSOFT, as an
/// update batch applies them (the same work as SoundStage's batch).
double cbase_setters_deferred(int sources, int frames);
/* A source's gain written `writes` times (alSourcef), as a player's volume is. */
double cbase_volume_writes(int writes);

/* From alSourcePlay to the first non-zero rendered sample, in frames, rendering blocks of
   `block` frames on a 48 kHz stereo float loopback device. */
int cbase_play_latency(int block);

/* Loads a stereo 16-bit PCM WAV file into an OpenAL buffer: read the file, find the data
   chunk, alBufferData. */
double cbase_load_wav(const char *path);

/* Decodes an Ogg Vorbis file to interleaved floats in memory with libvorbisfile
   (ov_fopen, ov_read_float). */
double cbase_decode_vorbis(const char *path);
/* Decodes a 16-bit FLAC file with libFLAC into interleaved int16; returns the seconds it
   took, -1 on failure. */
double cbase_decode_flac(const char *path);
/* Decodes an Ogg Opus file with libopusfile into interleaved floats; seconds, -1 on failure. */
double cbase_decode_opus(const char *path);
/* Decodes an MP3 file with libmpg123 (gapless, scanned, floats); seconds, -1 on failure. */
double cbase_decode_mp3(const char *path);
/* Opens a 48 kHz stereo float loopback device and context, loads `count` PCM WAV files into
   buffers and gives each a source: what a game does before its first sound. */
double cbase_engine_start(const char *const *paths, int count);
/* Moves `sources` playing looping sources over `buffers` buffers of `frames` mono float
   frames from one loopback device to a new one, as an engine moving to another device must:
   a new device and context, the context's and listener's state, every buffer uploaded
   again from the kept samples, every source made again with its properties and offset,
   all started together. Returns the seconds of the move. */
double cbase_move(int sources, int buffers, int frames);

/* The voice tick: `voices` moving emitters, the `real` most audible on OpenAL sources,
   scored, chosen and updated each tick. Returns the median seconds of a tick over `ticks`. */
double cbase_voice_tick(int voices, int real, int ticks);
/* The same tick with `moves_array` non-zero as SoundStage's `setPositions` gets it: the game
   moves each emitter in its own array of 32-byte moves (a handle, then the point), and every
   move is checked against its voice's slot and written to a position lane that the scoring
   reads. */
double cbase_voice_tick_moves(int voices, int real, int ticks, int moves_array);

/* Mixing `voices` looping positioned voices, each sending through both of its two sends to
   one EAX reverb slot (the second send through a lowpass filter). Seconds for `frames`. */
double cbase_mix_reverb(int voices, int frames, int block);
#endif
