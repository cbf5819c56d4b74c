import Foundation

extension SceneDescription {
    /// Each place that names a sound file outside the scene's folder, as the problem it is: a
    /// path that is absolute, climbs out with `..`, or leads out through a symbolic link, to a
    /// file that is not below the folder of the scene file. Empty for a scene made in code (no
    /// folder), and where every file is inside. `soundstage render` warns of each unless the
    /// scene says `"allowOutside": true` or it is given `--allow-outside`, and refuses the scene
    /// with `--inside-only`.
    public var filesOutsideFolder: [SceneError] {
        guard let baseURL else { return [] }
        let folder = baseURL.resolvingSymlinksInPath().standardizedFileURL.path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return soundPlaces.compactMap { sound, place in
            guard case .file(let path) = sound else { return nil }
            let file = resolve(path).resolvingSymlinksInPath().standardizedFileURL.path
            guard !file.hasPrefix(prefix) else { return nil }
            return SceneError(file: errorFile, path: place,
                              problem: "\(path) is outside the scene's folder (\(folder)): \(file); a scene says \"allowOutside\": true to read it")
        }
    }
}
