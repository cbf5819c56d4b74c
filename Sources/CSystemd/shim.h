#ifndef SOUNDSTAGE_CSYSTEMD_SHIM_H
#define SOUNDSTAGE_CSYSTEMD_SHIM_H

#include <systemd/sd-bus.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <stdint.h>

/* Wrappers for sd-bus API that Swift cannot import: variadic functions and
 * function-like macros. Keep them trivial. */

/* sd_bus_emit_signal() is variadic; emit a signal with a single boolean
 * argument (signature "b"). Returns >= 0 on success, negative errno. */
static inline int ss_bus_emit_bool_signal(sd_bus *bus, const char *path,
                                          const char *interface,
                                          const char *member, int value) {
    return sd_bus_emit_signal(bus, path, interface, member, "b", value ? 1 : 0);
}

/* SD_BUS_TYPE_BOOLEAN as the plain `char` that sd_bus_message_read_basic()
 * expects (the enum constant imports into Swift as an unrelated integer type). */
static inline char ss_bus_type_boolean(void) {
    return (char)SD_BUS_TYPE_BOOLEAN;
}

#endif
