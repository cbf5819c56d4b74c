import ArgumentParser
import Foundation
import SoundStage

struct Effects: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List what OpenAL offers for effects: EFX, sends, slots, effect types, filters, HRTF sets and the reverb presets.")

    @Flag(help: "Print the reverb presets one per line, with their decay times.")
    var presets = false

    func run() throws {
        let context: AudioContext
        do { context = try AudioContext(device: try AudioDevice.openLoopback()) } catch { fail("\(error)") }
        guard context.hasEFX else {
            print("EFX: no (the device lacks ALC_EXT_EFX): no effects, slots, filters or sends")
            return
        }
        if presets {
            for preset in ReverbPreset.allCases {
                print("\(preset.rawValue) (.\(preset)): decay \(Reverb(preset: preset).decayTime) s")
            }
            return
        }
        print("EFX: yes; \(context.auxiliarySends) auxiliary sends per source by default (ask for up to 16 with ContextAttributes(auxiliarySends:)), \(context.effectSlotLimit) effect slots")
        print("Effects: \(context.availableEffects.joined(separator: ", "))")
        print("Filters: lowpass, highpass, bandpass")
        let hrtfs = context.device.availableHRTFs
        print("HRTF sets: \(hrtfs.isEmpty ? "(none)" : hrtfs.joined(separator: ", "))")
        print("Reverb presets (\(ReverbPreset.allCases.count); --presets for their decay times):")
        var line = " "
        for name in ReverbPreset.allCases.map(\.rawValue) {
            if line.count + name.count + 2 > 100 {
                print(line)
                line = " "
            }
            line += " \(name)"
        }
        print(line)
    }
}
