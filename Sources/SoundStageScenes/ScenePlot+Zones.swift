import Foundation
import SoundStageCore
import SoundStageEngine

// The reverb zones on the scene's map: each zone's outer shape dashed and its inner shape
// shaded, named with its reverb's decay time; effects on buses are listed under the map.
extension ScenePlot {
    static let zoneColor = "#6a3d9a"

    /// The corners of every zone's outer shape, so the map shows them whole.
    static func zoneExtents(_ scene: SceneDescription) -> [SIMD3<Float>] {
        scene.effects.zones.flatMap { zone -> [SIMD3<Float>] in
            switch zone.shape {
            case .sphere(let c, _, let outer): return [c - SIMD3(repeating: outer), c + SIMD3(repeating: outer)]
            case .box(let c, _, let outer): return [c - outer, c + outer]
            }
        }
    }

    /// The zones' SVG, drawn with `px` (world to map) at `scale` pixels per metre.
    static func zonesSVG(_ scene: SceneDescription, px: (SIMD3<Float>) -> (Double, Double), scale: Double) -> String {
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var out = ""
        for zone in scene.effects.zones {
            let center: SIMD3<Float>, inner: SIMD3<Float>, outer: SIMD3<Float>, round: Bool
            switch zone.shape {
            case .sphere(let c, let i, let o): (center, inner, outer, round) = (c, SIMD3(repeating: i), SIMD3(repeating: o), true)
            case .box(let c, let i, let o): (center, inner, outer, round) = (c, i, o, false)
            }
            let (x, y) = px(center)
            for (half, style) in [(outer, "fill=\"\(zoneColor)\" fill-opacity=\"0.06\" stroke-dasharray=\"6 4\""), (inner, "fill=\"\(zoneColor)\" fill-opacity=\"0.14\"")] {
                let (w, h) = (Double(half.x) * scale, Double(half.z) * scale)
                out += round
                    ? "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(w))\" stroke=\"\(zoneColor)\" \(style)/>\n"
                    : "<rect x=\"\(f(x - w))\" y=\"\(f(y - h))\" width=\"\(f(2 * w))\" height=\"\(f(2 * h))\" stroke=\"\(zoneColor)\" \(style)/>\n"
            }
            let top = y - Double(inner.z) * scale
            out += "<text x=\"\(f(x))\" y=\"\(f(top + 14))\" text-anchor=\"middle\" fill=\"\(zoneColor)\" font-weight=\"bold\">\(escape(zone.name)) (reverb \(String(format: "%.1f", zone.reverb.decayTime)) s)</text>\n"
        }
        return out
    }

    /// One line under the map naming the zones' key and each bus's effect; empty without them.
    static func effectsLegend(_ scene: SceneDescription) -> String {
        var parts: [String] = []
        if !scene.effects.zones.isEmpty { parts.append("purple: reverb zones (shaded: full; dashed: where it fades out)") }
        for effect in scene.effects.buses { parts.append("bus \(effect.bus): \(effect.settings.label) at \(formatMeters(Double(effect.level)))") }
        return escape(parts.joined(separator: "; "))
    }
}
