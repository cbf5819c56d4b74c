import Foundation
import SoundStageCore
import SoundStageEngine

/// Draws a scene and its render as one SVG picture: a top-down map (listener with its
/// facing, sources with their paths, reference and max distance rings) above a graph of each
/// output channel's level over time.
public enum ScenePlot {
    static let palette = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]

    /// The SVG document for `scene` and its rendered `audio`.
    public static func svg(scene: SceneDescription, audio: RenderedAudio) -> String {
        svg(scene: scene, audio: audio, realFractions: nil)
    }

    /// The same, marking which sources were real and for how long (`SceneRender.realFractions`):
    /// a source's label gives its share of the render spent real, and the copies of a group are
    /// small dots, filled when real more than half the time, hollow grey when never.
    public static func svg(scene: SceneDescription, audio: RenderedAudio, realFractions: [Double]?) -> String {
        var levels = levelGraph(channels: audio.format.channels, sampleRate: audio.format.sampleRate)
        levels.add(audio)
        return draw(scene: scene, levels: levels, sampleRate: audio.format.sampleRate, names: channelNames(audio.format.channels),
                    realFractions: realFractions)
    }

    /// The graph of levels the plot draws for a render of `channels` at `sampleRate`: RMS over
    /// 20 ms windows. Fill it as the render comes (``LevelGraph``'s `add`) and draw it
    /// with ``svg(scene:levels:sampleRate:realFractions:)``, and no render need be kept.
    public static func levelGraph(channels: ChannelLayout, sampleRate: Int) -> LevelGraph {
        LevelGraph(channels: channels, windowFrames: max(1, sampleRate / 50))
    }

    /// The SVG document for `scene` and the levels of its render at `sampleRate`, taken in a
    /// graph made by ``levelGraph(channels:sampleRate:)``.
    /// The channels are named as the scene's layout names them when the graph has as many.
    public static func svg(scene: SceneDescription, levels graph: LevelGraph, sampleRate: Int, realFractions: [Double]?) -> String {
        let names = scene.channels.channelCount == graph.channels ? channelNames(scene.channels) : (1...graph.channels).map { "\($0)" }
        return draw(scene: scene, levels: graph, sampleRate: sampleRate, names: names, realFractions: realFractions)
    }

    private static func draw(scene: SceneDescription, levels graph: LevelGraph, sampleRate: Int, names: [String], realFractions: [Double]?) -> String {
        let width = 820.0, mapHeight = 520.0, graphHeight = 260.0, margin = 40.0
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(mapHeight + graphHeight + 2 * margin))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(margin)" y="22" font-size="15" font-weight="bold">Scene, seen from above (x to the right, -z up)</text>

        """

        // World bounds: every position and keyframe, with the reference rings.
        // Relative sources are drawn where they are as the render starts, around the listener.
        let listenerStart = scene.listener.path?.position(at: 0) ?? scene.listener.position
        var points: [SIMD3<Float>] = [scene.listener.position] + (scene.listener.path?.keyframes.map(\.position) ?? [])
        for s in scene.sources where !s.relative {
            points.append(s.position)
            points += s.path?.keyframes.map(\.position) ?? []
        }
        points += zoneExtents(scene)
        var minX = points.map(\.x).min()! - 2, maxX = points.map(\.x).max()! + 2
        var minZ = points.map(\.z).min()! - 2, maxZ = points.map(\.z).max()! + 2
        let span = max(maxX - minX, maxZ - minZ, 4)
        let cx = (minX + maxX) / 2, cz = (minZ + maxZ) / 2
        minX = cx - span / 2; maxX = cx + span / 2; minZ = cz - span / 2; maxZ = cz + span / 2
        let mapTop = margin, mapSize = mapHeight - 20
        let mapLeft = (width - mapSize) / 2
        let scale = mapSize / Double(span)
        func px(_ p: SIMD3<Float>) -> (Double, Double) {
            (mapLeft + Double(p.x - minX) * scale, mapTop + Double(p.z - minZ) * scale)
        }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }

        out += "<rect x=\"\(f(mapLeft))\" y=\"\(f(mapTop))\" width=\"\(f(mapSize))\" height=\"\(f(mapSize))\" fill=\"#fafafa\" stroke=\"#999\"/>\n"
        out += "<clipPath id=\"map\"><rect x=\"\(f(mapLeft))\" y=\"\(f(mapTop))\" width=\"\(f(mapSize))\" height=\"\(f(mapSize))\"/></clipPath>\n<g clip-path=\"url(#map)\">\n"
        let step = niceStep(Double(span) / 8)
        var g = (Double(minX) / step).rounded(.up) * step
        while g <= Double(maxX) {
            let x = mapLeft + (g - Double(minX)) * scale
            out += "<line x1=\"\(f(x))\" y1=\"\(f(mapTop))\" x2=\"\(f(x))\" y2=\"\(f(mapTop + mapSize))\" stroke=\"#e4e4e4\"/><text x=\"\(f(x + 2))\" y=\"\(f(mapTop + mapSize - 4))\" fill=\"#888\" font-size=\"10\">x \(formatMeters(g))</text>\n"
            g += step
        }
        g = (Double(minZ) / step).rounded(.up) * step
        while g <= Double(maxZ) {
            let y = mapTop + (g - Double(minZ)) * scale
            out += "<line x1=\"\(f(mapLeft))\" y1=\"\(f(y))\" x2=\"\(f(mapLeft + mapSize))\" y2=\"\(f(y))\" stroke=\"#e4e4e4\"/><text x=\"\(f(mapLeft + 2))\" y=\"\(f(y - 2))\" fill=\"#888\" font-size=\"10\">z \(formatMeters(g))</text>\n"
            g += step
        }

        out += zonesSVG(scene, px: px, scale: scale)

        // Groups: their box, their name, and each copy as a dot marked by how long it was real.
        for (g, group) in scene.groups.enumerated() {
            let color = palette[(g + 5) % palette.count]
            let shift = group.source.relative ? listenerStart : .zero
            let (x0, y0) = px(group.min + shift), (x1, y1) = px(group.max + shift)
            out += "<rect x=\"\(f(min(x0, x1)))\" y=\"\(f(min(y0, y1)))\" width=\"\(f(abs(x1 - x0)))\" height=\"\(f(abs(y1 - y0)))\" fill=\"none\" stroke=\"\(color)\" stroke-dasharray=\"2 2\"/>\n"
            let members = scene.sources.indices.filter { scene.sources[$0].group == g }
            var everReal = 0
            for i in members {
                let (x, y) = px(scene.sources[i].position + shift)
                let fraction = realFractions.map { $0.indices.contains(i) ? $0[i] : 0 }
                if (fraction ?? 0) > 0 { everReal += 1 }
                switch fraction {
                case .none: out += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"1.5\" fill=\"\(color)\"/>\n"
                case .some(let share) where share > 0.5: out += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"2.5\" fill=\"\(color)\"/>\n"
                case .some(let share) where share > 0: out += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"2.5\" fill=\"none\" stroke=\"\(color)\"/>\n"
                default: out += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"1\" fill=\"#bbb\"/>\n"
                }
            }
            let note = realFractions == nil ? "" : ", \(everReal) ever real"
            out += "<text x=\"\(f(min(x0, x1) + 4))\" y=\"\(f(min(y0, y1) + 14))\" fill=\"\(color)\" font-weight=\"bold\">\(escape(group.name)): \(group.count) \(escape(label(group.source.sound)))\(note)</text>\n"
        }

        // Sources: rings, paths, dots and labels.
        for (i, s) in scene.sources.enumerated() where s.group == nil {
            let color = palette[i % palette.count]
            var position = s.path?.position(at: 0) ?? s.position
            if s.relative { position = listenerStart + position }
            let (x, y) = px(position)
            let ref = Double(s.referenceDistance) * scale
            if ref > 1 { out += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(ref))\" fill=\"none\" stroke=\"\(color)\" stroke-dasharray=\"4 3\" opacity=\"0.7\"/>\n" }
            if s.maxDistance < Float(span) * 2 {
                out += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(Double(s.maxDistance) * scale))\" fill=\"none\" stroke=\"\(color)\" stroke-dasharray=\"1 3\" opacity=\"0.7\"/>\n"
            }
            if let path = s.path {
                let pts = path.keyframes.map { px($0.position) }.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
                out += "<polyline points=\"\(pts)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" marker-end=\"url(#arrow)\"/>\n"
                for k in path.keyframes {
                    let (kx, ky) = px(k.position)
                    out += "<circle cx=\"\(f(kx))\" cy=\"\(f(ky))\" r=\"3\" fill=\"\(color)\"/><text x=\"\(f(kx + 5))\" y=\"\(f(ky + 12))\" fill=\"\(color)\" font-size=\"10\">t=\(formatMeters(k.t))s</text>\n"
                }
            }
            let direction = SIMD2<Double>(Double(s.direction.x), Double(s.direction.z))
            let length = (direction * direction).sum().squareRoot()
            if length > 1e-9 && s.coneOuter < 360 {
                let tip = SIMD2(x, y) + direction / length * 30
                out += "<line x1=\"\(f(x))\" y1=\"\(f(y))\" x2=\"\(f(tip.x))\" y2=\"\(f(tip.y))\" stroke=\"\(color)\" stroke-width=\"3\" marker-end=\"url(#arrow)\"/>\n"
            }
            out += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"7\" fill=\"\(color)\" stroke=\"black\"/>\n"
            let real = realFractions.flatMap { $0.indices.contains(i) ? ", real \(Int(($0[i] * 100).rounded())) %" : nil } ?? ""
            let walls = s.occlusion > 0 || s.obstruction > 0 ? ", occluded \(formatMeters(Double(s.occlusion)))/\(formatMeters(Double(s.obstruction)))" : ""
            out += "<text x=\"\(f(x + 10))\" y=\"\(f(y - 8))\" fill=\"\(color)\" font-weight=\"bold\">\(i + 1) \(escape(label(s.sound)))\(s.relative ? " (relative)" : "")\(real)\(walls)</text>\n"
        }

        // Listener: a triangle pointing along its facing, with its path.
        if let path = scene.listener.path {
            let pts = path.keyframes.map { px($0.position) }.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
            out += "<polyline points=\"\(pts)\" fill=\"none\" stroke=\"black\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n"
        }
        let (lx, ly) = px(scene.listener.path?.position(at: 0) ?? scene.listener.position)
        var fwd = SIMD2<Double>(Double(scene.listener.forward.x), Double(scene.listener.forward.z))
        let len = (fwd * fwd).sum().squareRoot()
        fwd = len > 1e-9 ? fwd / len : SIMD2(0, -1)
        let side = SIMD2(-fwd.y, fwd.x)
        let tip = SIMD2(lx, ly) + fwd * 22, left = SIMD2(lx, ly) - fwd * 8 + side * 10, right = SIMD2(lx, ly) - fwd * 8 - side * 10
        out += "<polygon points=\"\(f(tip.x)),\(f(tip.y)) \(f(left.x)),\(f(left.y)) \(f(right.x)),\(f(right.y))\" fill=\"black\"/>\n"
        out += "<text x=\"\(f(lx + 12))\" y=\"\(f(ly + 20))\" font-weight=\"bold\">listener</text>\n</g>\n"
        out += "<text x=\"\(f(mapLeft))\" y=\"\(f(mapTop + mapSize + 14))\" font-size=\"10\" fill=\"#555\">dashed ring: reference distance; dotted ring: max distance; arrow: cone direction; t: keyframe times</text>\n"
        var legendY = mapTop + mapSize + 27
        if realFractions != nil, !scene.groups.isEmpty {
            out += "<text x=\"\(f(mapLeft))\" y=\"\(f(legendY))\" font-size=\"10\" fill=\"#555\">group dots: filled, real most of the render; hollow, real some of it; small grey, never real (virtual)</text>\n"
            legendY += 13
        }
        let effects = effectsLegend(scene)
        if !effects.isEmpty { out += "<text x=\"\(f(mapLeft))\" y=\"\(f(legendY))\" font-size=\"10\" fill=\"\(zoneColor)\">\(effects)</text>\n" }

        // Level graph: RMS of each channel over 20 ms windows, -60...0 dBFS.
        let graphTop = mapTop + mapHeight + margin
        let graphLeft = margin + 20, graphWidth = width - graphLeft - margin
        out += "<text x=\"\(margin)\" y=\"\(f(graphTop - 12))\" font-size=\"15\" font-weight=\"bold\">Output level per channel (RMS over 20 ms, dBFS)</text>\n"
        out += "<rect x=\"\(f(graphLeft))\" y=\"\(f(graphTop))\" width=\"\(f(graphWidth))\" height=\"\(f(graphHeight - 30))\" fill=\"#fafafa\" stroke=\"#999\"/>\n"
        let plotHeight = graphHeight - 30
        for db in stride(from: -60, through: 0, by: 20) {
            let y = graphTop + plotHeight * Double(-db) / 60
            out += "<line x1=\"\(f(graphLeft))\" y1=\"\(f(y))\" x2=\"\(f(graphLeft + graphWidth))\" y2=\"\(f(y))\" stroke=\"#e4e4e4\"/><text x=\"\(f(graphLeft - 4))\" y=\"\(f(y + 4))\" text-anchor=\"end\" font-size=\"10\">\(db)</text>\n"
        }
        let seconds = Double(graph.frameCount) / Double(max(1, sampleRate))
        let tStep = niceStep(seconds / 8)
        var t = 0.0
        while t <= seconds + 1e-9 {
            let x = graphLeft + graphWidth * t / max(seconds, 1e-9)
            out += "<text x=\"\(f(x))\" y=\"\(f(graphTop + plotHeight + 14))\" text-anchor=\"middle\" font-size=\"10\">\(formatMeters(t)) s</text>\n"
            t += tStep
        }
        let channels = graph.channels
        let windows = graph.windows
        let overall = graph.levels
        for c in 0..<channels {
            var pts: [String] = []
            for (w, levels) in windows.enumerated() {
                let db = max(-60, min(0, levels[c].rms))
                let x = graphLeft + graphWidth * (Double(w) + 0.5) / Double(windows.count)
                pts.append("\(f(x)),\(f(graphTop + plotHeight * -db / 60))")
            }
            let color = palette[(c + 3) % palette.count]
            out += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\"/>\n"
            out += "<text x=\"\(f(graphLeft + 8 + Double(c) * 120))\" y=\"\(f(graphTop + plotHeight + 28))\" fill=\"\(color)\" font-weight=\"bold\">\(names[c]) \(String(format: "%.1f", overall[c].rms)) dB</text>\n"
        }
        out += "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"6\" refY=\"3\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"#555\"/></marker></defs>\n</svg>\n"
        return out
    }

    /// Short names of the channels of `layout`, e.g. L and R.
    /// Writes ``svg(scene:audio:realFractions:)`` to `url`, as ``RenderedAudio/writeWAV(to:as:)``
    /// writes: whole or not at all, a device node or FIFO in place.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file.
    public static func writeSVG(scene: SceneDescription, audio: RenderedAudio, realFractions: [Double]?, to url: URL) throws {
        try write(svg(scene: scene, audio: audio, realFractions: realFractions), to: url, member: "writeSVG(scene:audio:realFractions:to:)")
    }

    /// Writes ``svg(scene:levels:sampleRate:realFractions:)`` to `url`, as
    /// ``writeSVG(scene:audio:realFractions:to:)`` does.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file.
    public static func writeSVG(scene: SceneDescription, levels: LevelGraph, sampleRate: Int, realFractions: [Double]?, to url: URL) throws {
        try write(svg(scene: scene, levels: levels, sampleRate: sampleRate, realFractions: realFractions), to: url,
                  member: "writeSVG(scene:levels:sampleRate:realFractions:to:)")
    }

    private static func write(_ svg: String, to url: URL, member: String) throws {
        do {
            try WholeFileWrite.write(Data(svg.utf8), to: url)
        } catch {
            throw SoundStageError(.fileAccess, operation: "ScenePlot.\(member)", object: url.path,
                                  reason: "cannot write the file (\(error.localizedDescription))")
        }
    }

    /// The names the plot gives the channels of `layout`, in order (for example `L`, `R`).
    public static func channelNames(_ layout: ChannelLayout) -> [String] { layout.channelNames }

    static func label(_ sound: SoundDescription) -> String {
        switch sound {
        case .file(let path): return (path as NSString).lastPathComponent
        case .tone(let shape, let f, _): return "\(shape.sceneName) \(formatMeters(Double(f))) Hz"
        }
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0 else { return 1 }
        let p = pow(10, floor(log10(raw)))
        for m in [1.0, 2, 5, 10] where m * p >= raw { return m * p }
        return 10 * p
    }

    static func formatMeters(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.2g", v)
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
