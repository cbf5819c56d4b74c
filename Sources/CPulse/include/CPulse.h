// libpulse for the session's own connection to the sound server, opened (dlopen) when a
// session first watches the server, not linked: a game that never watches it, or a machine
// without libpulse, does without it (and without what it pulls in: libsndfile, X11).
//
// Also small helpers for what Swift cannot use directly: macros (PA_INVALID_INDEX,
// PA_PROP_*), bit masks over C enums, and function pointers stored inside pa_mainloop_api.
#ifndef SOUNDSTAGE_CPULSE_H
#define SOUNDSTAGE_CPULSE_H

#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>
#include <stdint.h>
#include <sys/time.h>
#include <CLibraryLoader.h>

/* The libpulse functions SoundStage calls. */
#define SS_PULSE_FUNCTIONS(X) \
    X(pa_threaded_mainloop_new, threaded_mainloop_new) \
    X(pa_threaded_mainloop_free, threaded_mainloop_free) \
    X(pa_threaded_mainloop_start, threaded_mainloop_start) \
    X(pa_threaded_mainloop_stop, threaded_mainloop_stop) \
    X(pa_threaded_mainloop_lock, threaded_mainloop_lock) \
    X(pa_threaded_mainloop_unlock, threaded_mainloop_unlock) \
    X(pa_threaded_mainloop_set_name, threaded_mainloop_set_name) \
    X(pa_threaded_mainloop_in_thread, threaded_mainloop_in_thread) \
    X(pa_threaded_mainloop_get_api, threaded_mainloop_get_api) \
    X(pa_context_new, context_new) \
    X(pa_context_unref, context_unref) \
    X(pa_context_connect, context_connect) \
    X(pa_context_disconnect, context_disconnect) \
    X(pa_context_get_state, context_get_state) \
    X(pa_context_errno, context_errno) \
    X(pa_context_set_state_callback, context_set_state_callback) \
    X(pa_context_set_subscribe_callback, context_set_subscribe_callback) \
    X(pa_context_subscribe, context_subscribe) \
    X(pa_context_get_server_info, context_get_server_info) \
    X(pa_context_get_sink_info_list, context_get_sink_info_list) \
    X(pa_context_get_sink_info_by_index, context_get_sink_info_by_index) \
    X(pa_context_get_sink_input_info_list, context_get_sink_input_info_list) \
    X(pa_context_get_sink_input_info, context_get_sink_input_info) \
    X(pa_context_set_sink_input_volume, context_set_sink_input_volume) \
    X(pa_context_get_server, context_get_server) \
    X(pa_ext_stream_restore_read, ext_stream_restore_read) \
    X(pa_ext_stream_restore_write, ext_stream_restore_write) \
    X(pa_sw_volume_from_dB, sw_volume_from_dB) \
    X(pa_sw_volume_multiply, sw_volume_multiply) \
    X(pa_channel_map_init_auto, channel_map_init_auto) \
    X(pa_context_rttime_restart, context_rttime_restart) \
    X(pa_operation_unref, operation_unref) \
    X(pa_operation_get_state, operation_get_state) \
    X(pa_operation_set_state_callback, operation_set_state_callback) \
    X(pa_strerror, strerror) \
    X(pa_rtclock_now, rtclock_now) \
    X(pa_proplist_gets, proplist_gets) \
    X(pa_gettimeofday, gettimeofday) \
    X(pa_stream_new, stream_new) \
    X(pa_stream_unref, stream_unref) \
    X(pa_stream_set_monitor_stream, stream_set_monitor_stream) \
    X(pa_stream_connect_record, stream_connect_record) \
    X(pa_stream_disconnect, stream_disconnect) \
    X(pa_stream_set_read_callback, stream_set_read_callback) \
    X(pa_stream_set_state_callback, stream_set_state_callback) \
    X(pa_stream_get_state, stream_get_state) \
    X(pa_stream_peek, stream_peek) \
    X(pa_stream_drop, stream_drop)

/* libpulse's functions: ss_pulse() (NULL when it cannot be loaded; ss_pulse_error() says why). */
SS_LIBRARY_DECLARE(pulse, SS_PULSE_FUNCTIONS)

/// PA_INVALID_INDEX ((uint32_t) -1).
static inline uint32_t ss_invalid_index(void) { return PA_INVALID_INDEX; }

/// Property key "media.role" (PA_PROP_MEDIA_ROLE).
static inline const char *_Nonnull ss_prop_media_role(void) { return PA_PROP_MEDIA_ROLE; }

/// Property key "application.name" (PA_PROP_APPLICATION_NAME).
static inline const char *_Nonnull ss_prop_application_name(void) { return PA_PROP_APPLICATION_NAME; }

/// Property key "application.process.id" (PA_PROP_APPLICATION_PROCESS_ID).
static inline const char *_Nonnull ss_prop_application_process_id(void) { return PA_PROP_APPLICATION_PROCESS_ID; }

/// Property key "module-stream-restore.id": the name under which the server remembers a
/// stream's volume for the application's next stream (PulseAudio's module-stream-restore,
/// and pipewire-pulse).
static inline const char *_Nonnull ss_prop_stream_restore_id(void) { return "module-stream-restore.id"; }

/// Channel `i` of a volume (0 past its channels).
static inline uint32_t ss_cvolume_value(const pa_cvolume *_Nonnull v, unsigned i) {
    return i < v->channels && i < PA_CHANNELS_MAX ? v->values[i] : 0;
}

/// A volume of `channels` channels (at most PA_CHANNELS_MAX) from their values.
static inline pa_cvolume ss_cvolume_make(const uint32_t *_Nonnull values, unsigned channels) {
    pa_cvolume v;
    v.channels = (uint8_t)(channels < PA_CHANNELS_MAX ? channels : PA_CHANNELS_MAX);
    for (unsigned i = 0; i < v.channels; i++) v.values[i] = values[i];
    return v;
}

/// The default channel map of `channels` channels; 0 when libpulse knows none. Only once
/// ss_pulse() has loaded libpulse.
static inline int ss_channel_map_default(pa_channel_map *_Nonnull map, unsigned channels) {
    return ss_pulse()->channel_map_init_auto(map, channels, PA_CHANNEL_MAP_DEFAULT) != NULL;
}

/// The sample format a playback stream's own monitor is recorded in: 32-bit float, native
/// endianness, `channels` channels (1 to PA_CHANNELS_MAX) at `rate` Hz.
static inline pa_sample_spec ss_float_spec(uint32_t rate, uint8_t channels) {
    pa_sample_spec spec;
    spec.format = PA_SAMPLE_FLOAT32NE;
    spec.rate = rate;
    spec.channels = channels;
    return spec;
}

/// Buffer attributes for a record stream: at most `maximum` bytes held by the server, handed
/// over in fragments of `fragment` bytes (the other fields are the server's to choose).
static inline pa_buffer_attr ss_record_buffer(uint32_t maximum, uint32_t fragment) {
    pa_buffer_attr attr;
    attr.maxlength = maximum;
    attr.fragsize = fragment;
    attr.tlength = (uint32_t)-1;
    attr.prebuf = (uint32_t)-1;
    attr.minreq = (uint32_t)-1;
    return attr;
}

/// The flags of a playback stream's own monitor: it stays on the stream it watches
/// (PA_STREAM_DONT_MOVE) and asks for the fragment it gave (PA_STREAM_ADJUST_LATENCY).
static inline pa_stream_flags_t ss_monitor_stream_flags(void) {
    return (pa_stream_flags_t)(PA_STREAM_DONT_MOVE | PA_STREAM_ADJUST_LATENCY);
}

/// The subscription mask used by the monitor: SERVER | SINK | SINK_INPUT.
static inline pa_subscription_mask_t ss_monitor_subscription_mask(void) {
    return (pa_subscription_mask_t)(PA_SUBSCRIPTION_MASK_SERVER |
                                    PA_SUBSCRIPTION_MASK_SINK |
                                    PA_SUBSCRIPTION_MASK_SINK_INPUT);
}

/// Facility part of a subscription event (PA_SUBSCRIPTION_EVENT_SINK, ...).
static inline uint32_t ss_event_facility(pa_subscription_event_type_t t) {
    return (uint32_t)(t & PA_SUBSCRIPTION_EVENT_FACILITY_MASK);
}

/// Non-zero when a subscription event announces removal of the object.
static inline int ss_event_is_removal(pa_subscription_event_type_t t) {
    return (t & PA_SUBSCRIPTION_EVENT_TYPE_MASK) == PA_SUBSCRIPTION_EVENT_REMOVE;
}

/// Creates a time event on the threaded mainloop that fires as soon as the
/// loop runs (its deadline is "now"). Later deadlines are set with
/// pa_context_rttime_restart(), which uses the monotonic clock.
/// Must be called with the mainloop lock held (or before the loop runs), and only once
/// ss_pulse() has loaded libpulse.
static inline pa_time_event *_Nullable ss_timer_new_now(pa_threaded_mainloop *_Nonnull m,
                                                        pa_time_event_cb_t _Nullable cb,
                                                        void *_Nullable userdata) {
    const struct ss_pulse *pulse = ss_pulse();
    pa_mainloop_api *api = pulse->threaded_mainloop_get_api(m);
    struct timeval now;
    pulse->gettimeofday(&now);
    return api->time_new(api, &now, cb, userdata);
}

/// Frees a time event created by ss_timer_new_now(); mainloop lock held.
static inline void ss_timer_free(pa_threaded_mainloop *_Nonnull m, pa_time_event *_Nonnull e) {
    pa_mainloop_api *api = ss_pulse()->threaded_mainloop_get_api(m);
    api->time_free(e);
}

#endif
