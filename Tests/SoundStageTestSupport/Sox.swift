import Foundation
import Testing

/// sox on PATH (scripts/test.sh installs it); the calling test stops if it is missing.
package func sox() throws -> URL { try #require(ToolRunner.which("sox")) }
