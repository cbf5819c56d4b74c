import CExitRace
import Foundation
import SoundStage

// A thread whose first use of SoundStage's OpenAL gateway comes as the process exits, after
// SoundStage's exit handler ran (target CExitRace holds it back until then). The gateway must
// make no OpenAL call then: OpenAL Soft's clean-up is about to run, and a call after it aborts
// the process (an assertion in OpenAL Soft's LockLists). Exit status: 0 when the thread made
// no call, 3 when its call returned (CExitRace), 134 when OpenAL Soft aborted.
Thread.detachNewThread {
    ss_race_wait_for_exit()
    _ = AudioDevice.outputDevices
    ss_race_call_returned()
}
print("exiting")
exit(0)
