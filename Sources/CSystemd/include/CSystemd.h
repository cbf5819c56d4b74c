// sd-bus (libsystemd), for the session's sleep watcher (logind's PrepareForSleep) and the
// system music player (MPRIS on the session bus), opened (dlopen) when first needed, not
// linked: a machine without libsystemd plays without them.
#ifndef SOUNDSTAGE_CSYSTEMD_H
#define SOUNDSTAGE_CSYSTEMD_H

#include <systemd/sd-bus.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <stdint.h>
#include <CLibraryLoader.h>

/* The libsystemd functions SoundStage (and its tests' fake logind) call. */
#define SS_SYSTEMD_FUNCTIONS(X) \
    X(sd_bus_open_system, open_system) \
    X(sd_bus_new, new_bus) \
    X(sd_bus_set_address, set_address) \
    X(sd_bus_set_bus_client, set_bus_client) \
    X(sd_bus_start, start) \
    X(sd_bus_request_name, request_name) \
    X(sd_bus_set_method_call_timeout, set_method_call_timeout) \
    X(sd_bus_match_signal_async, match_signal_async) \
    X(sd_bus_message_read_basic, message_read_basic) \
    X(sd_bus_message_is_method_error, message_is_method_error) \
    X(sd_bus_message_get_errno, message_get_errno) \
    X(sd_bus_process, process) \
    X(sd_bus_get_fd, get_fd) \
    X(sd_bus_get_events, get_events) \
    X(sd_bus_get_timeout, get_timeout) \
    X(sd_bus_flush, flush) \
    X(sd_bus_close_unref, close_unref) \
    X(sd_bus_flush_close_unref, flush_close_unref) \
    X(sd_bus_emit_signal, emit_signal) \
    X(sd_bus_open_user, open_user) \
    X(sd_bus_message_new_method_call, message_new_method_call) \
    X(sd_bus_message_append_basic, message_append_basic) \
    X(sd_bus_message_open_container, message_open_container) \
    X(sd_bus_message_close_container, message_close_container) \
    X(sd_bus_message_enter_container, message_enter_container) \
    X(sd_bus_message_exit_container, message_exit_container) \
    X(sd_bus_message_peek_type, message_peek_type) \
    X(sd_bus_message_skip, message_skip) \
    X(sd_bus_message_get_sender, message_get_sender) \
    X(sd_bus_message_get_error, message_get_error) \
    X(sd_bus_message_unref, message_unref) \
    X(sd_bus_call_async, call_async)

/* libsystemd's functions: ss_systemd() (NULL when it cannot be loaded; ss_systemd_error() says why). */
SS_LIBRARY_DECLARE(systemd, SS_SYSTEMD_FUNCTIONS)

/* Wrappers for sd-bus API that Swift cannot import: variadic functions and
 * function-like macros. Keep them trivial. */

/* sd_bus_emit_signal() is variadic; emit a signal with a single boolean
 * argument (signature "b"). Returns >= 0 on success, negative errno (-ENOSYS without
 * libsystemd). */
static inline int ss_bus_emit_bool_signal(sd_bus *_Nullable bus, const char *_Nonnull path,
                                          const char *_Nonnull interface,
                                          const char *_Nonnull member, int value) {
    const struct ss_systemd *systemd = ss_systemd();
    if (!systemd) return -38; /* ENOSYS */
    return systemd->emit_signal(bus, path, interface, member, "b", value ? 1 : 0);
}

/* sd_bus_emit_signal() again: `PropertiesChanged` on `path` for interface `interface`, one
 * string property `property` changed to `value` and none invalidated (signature "sa{sv}as"),
 * as an MPRIS player announces its PlaybackStatus (the tests' flooding peer). Returns as
 * ss_bus_emit_bool_signal() does. */
static inline int ss_bus_emit_string_property_changed(sd_bus *_Nullable bus, const char *_Nonnull path,
                                                      const char *_Nonnull interface,
                                                      const char *_Nonnull property,
                                                      const char *_Nonnull value) {
    const struct ss_systemd *systemd = ss_systemd();
    if (!systemd) return -38; /* ENOSYS */
    return systemd->emit_signal(bus, path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                "sa{sv}as", interface, 1, property, "s", value, 0);
}

/* SD_BUS_TYPE_BOOLEAN as the plain `char` that sd_bus_message_read_basic()
 * expects (the enum constant imports into Swift as an unrelated integer type). */
static inline char ss_bus_type_boolean(void) {
    return (char)SD_BUS_TYPE_BOOLEAN;
}

/* The text of an error reply (sd_bus_message_get_error's name and message), or NULL. */
static inline const char *_Nullable ss_bus_error_name(sd_bus_message *_Nonnull m) {
    const struct ss_systemd *systemd = ss_systemd();
    const sd_bus_error *error = systemd ? systemd->message_get_error(m) : NULL;
    return error ? error->name : NULL;
}
static inline const char *_Nullable ss_bus_error_message(sd_bus_message *_Nonnull m) {
    const struct ss_systemd *systemd = ss_systemd();
    const sd_bus_error *error = systemd ? systemd->message_get_error(m) : NULL;
    return error ? error->message : NULL;
}

#endif
