// Small C helpers for the PulseMonitor target.
//
// libpulse exposes a few things that Swift cannot use directly: macros
// (PA_INVALID_INDEX, PA_PROP_*), bit masks over C enums, and function
// pointers stored inside pa_mainloop_api. They are wrapped here as
// static inline functions so the Swift side stays free of casts.
#ifndef SOUNDSTAGE_CPULSE_SHIM_H
#define SOUNDSTAGE_CPULSE_SHIM_H

#include <pulse/pulseaudio.h>
#include <stdint.h>
#include <sys/time.h>

/// PA_INVALID_INDEX ((uint32_t) -1).
static inline uint32_t ss_invalid_index(void) { return PA_INVALID_INDEX; }

/// Property key "media.role" (PA_PROP_MEDIA_ROLE).
static inline const char *ss_prop_media_role(void) { return PA_PROP_MEDIA_ROLE; }

/// Property key "application.name" (PA_PROP_APPLICATION_NAME).
static inline const char *ss_prop_application_name(void) { return PA_PROP_APPLICATION_NAME; }

/// Property key "application.process.id" (PA_PROP_APPLICATION_PROCESS_ID).
static inline const char *ss_prop_application_process_id(void) { return PA_PROP_APPLICATION_PROCESS_ID; }

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
/// Must be called with the mainloop lock held (or before the loop runs).
static inline pa_time_event *ss_timer_new_now(pa_threaded_mainloop *m,
                                              pa_time_event_cb_t cb,
                                              void *userdata) {
    pa_mainloop_api *api = pa_threaded_mainloop_get_api(m);
    struct timeval now;
    pa_gettimeofday(&now);
    return api->time_new(api, &now, cb, userdata);
}

/// Frees a time event created by ss_timer_new_now(); mainloop lock held.
static inline void ss_timer_free(pa_threaded_mainloop *m, pa_time_event *e) {
    pa_mainloop_api *api = pa_threaded_mainloop_get_api(m);
    api->time_free(e);
}

#endif
