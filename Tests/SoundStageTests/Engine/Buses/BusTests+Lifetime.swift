import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Testing
import SoundStageTestSupport

extension BusTests {
    @Test("a ducking rule does not keep its engine's voices and buses alive: they go with the engine (LeakSanitizer found the cycle)")
    func duckingRuleLetsThePoolGo() throws {
        weak var pool: VoicePool?
        do {
            let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
            let rule = DuckingRule(trigger: engine.dialogBus, target: engine.musicBus)
            try engine.addDucking(rule)
            try engine.addDucking(DuckingRule(trigger: engine.uiBus, target: engine.effectsBus, depthDB: 6))
            engine.removeDucking(rule)
            _ = try engine.render(frames: 480)
            pool = engine.voices
            #expect(pool != nil)
        }
        #expect(pool == nil, "the voice pool outlived its engine")
    }
}
