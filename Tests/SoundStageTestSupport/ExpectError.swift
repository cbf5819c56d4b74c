import Foundation
import Testing
import SoundStage

/// Runs `body`, expects a SoundStageError with `code`, and returns it for more checks.
@discardableResult
package func expectError(_ code: SoundStageError.Code, mentioning words: [String] = [], sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> SoundStageError? {
    do {
        try body()
        Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as SoundStageError {
        #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
        for word in words {
            #expect(error.description.contains(word), "'\(error)' should mention '\(word)'", sourceLocation: sourceLocation)
        }
        return error
    } catch {
        Issue.record("expected SoundStageError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
