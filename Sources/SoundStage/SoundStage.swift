// `import SoundStage` gives the whole library: its modules, one along each group of layers
// (ARCHITECTURE.md), each re-exported here. A game that needs less may import only the
// modules it uses (`SoundStageEngine`, say, which brings the ones below it).
@_exported import SoundStageCore
@_exported import SoundStageSession
@_exported import SoundStageRecording
@_exported import SoundStageEngine
@_exported import SoundStageScenes
