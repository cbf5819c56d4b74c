/// What was read last of a device's state that OpenAL Soft answers under its device's lock (its
/// integers, such as the HRTF's status; its HRTF sets; the HRTF in use): what a read gives
/// while a round trip to the sound server runs on the device (`DeviceRoundTrip`), which holds
/// that lock until the server answers. OpenAL Soft 1.23 takes it for every integer it is asked;
/// 1.19.1 for the HRTF sets and a few integers.
struct LastDeviceRead {
    var integers: [Int32: Int32] = [:]
    var hrtfs: [String] = []
    var hrtfName: String?
}

extension AudioDevice {
    /// `read()`, a query of this device, unless a round trip runs on it now: then what
    /// `last` takes from `LastDeviceRead`. What is read is kept there (`keep`). Under the
    /// gateway's lock.
    func readUnlessRoundTrip<T>(_ read: () -> T, keep: (inout LastDeviceRead, T) -> Void, last: (LastDeviceRead) -> T) -> T {
        guard let value = DeviceRoundTrip.unlessRunning(on: handle.raw, read) else { return lastRead.withLock { last($0) } }
        lastRead.withLock { keep(&$0, value) }
        return value
    }
}
