import CPulse
import CSystemd
import SoundStageCore

/// libpulse's functions. Only used once ``SoundServerMonitor/start()`` found them loaded.
var libpulse: ss_pulse { ss_pulse()!.pointee }

/// libsystemd's functions. Only used once ``SleepWatcher/start()`` found them loaded.
package var libsystemd: ss_systemd { ss_systemd()!.pointee }
