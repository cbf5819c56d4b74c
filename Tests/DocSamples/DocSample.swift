/// One code block of the documentation, compiled as written: where it is, and its body.
struct DocSample: Sendable {
    /// `README.md:39`: the file and the line of the block's opening fence.
    let id: String
    let run: @Sendable () async throws -> Void

    init(_ id: String, _ run: @escaping @Sendable () async throws -> Void) {
        self.id = id
        self.run = run
    }
}
