import COpenAL

extension AudioBuffer {
    /// Sets the loop region a looping source plays (`AL_LOOP_POINTS_SOFT`), in frames; the
    /// buffer must not be in use. Needs `AL_SOFT_loop_points`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a region outside the
    ///   buffer or empty, ``SoundStageError/Code-swift.struct/invalidState`` while a source
    ///   uses the buffer.
    package func setLoopPoints(frames: Range<Int>) throws {
        let member = "setLoopPoints(frames:)"
        guard frames.lowerBound >= 0, frames.upperBound <= frameCount, !frames.isEmpty else {
            throw failure(.invalidArgument, member, "frames \(frames) must lie within the buffer's \(frameCount) frames")
        }
        guard !isInUse else {
            throw failure(.invalidState, member, "the buffer is in use by a source")
        }
        var points: [ALint] = [ALint(frames.lowerBound), ALint(frames.upperBound)]
        try OpenAL.withContext(context.handle) { scope in
            try scope.call(Self.operationName(member), on: description) { alBufferiv(name, AL_LOOP_POINTS_SOFT, &points) }
        }
    }
}
