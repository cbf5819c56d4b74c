import Foundation
import SoundStageCore
import SoundStageEngine

/// A JSON value, decoded without losing the difference between numbers and booleans.
enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }
}

/// Typed reads from a ``JSONValue``, with errors that name the JSON path.
struct JSONReader {
    let file: String

    func error(_ path: String, _ problem: String) -> SceneError { SceneError(file: file, path: path, problem: problem) }

    func object(_ value: JSONValue, _ path: String, keys: Set<String>) throws -> [String: JSONValue] {
        guard case .object(let o) = value else { throw error(path, "expected an object") }
        if let unknown = o.keys.sorted().first(where: { !keys.contains($0) }) {
            throw error("\(path).\(unknown)", "unknown key \"\(unknown)\" (allowed: \(keys.sorted().joined(separator: ", ")))")
        }
        return o
    }

    func number(_ value: JSONValue, _ path: String) throws -> Double {
        guard case .number(let d) = value else { throw error(path, "expected a number") }
        guard d.isFinite else { throw error(path, "expected a finite number") }
        return d
    }

    func float(_ value: JSONValue, _ path: String, min: Float? = nil, max: Float? = nil) throws -> Float {
        let d = try number(value, path)
        guard abs(d) <= Double(Float.greatestFiniteMagnitude) else { throw error(path, "\(d) is out of range") }
        let f = Float(d)
        if let min, f < min { throw error(path, "must be at least \(min), got \(d)") }
        if let max, f > max { throw error(path, "must be at most \(max), got \(d)") }
        return f
    }

    func integer(_ value: JSONValue, _ path: String) throws -> Int {
        let d = try number(value, path)
        guard d == d.rounded(), abs(d) < 1e15 else { throw error(path, "expected a whole number, got \(d)") }
        return Int(d)
    }

    func bool(_ value: JSONValue, _ path: String) throws -> Bool {
        guard case .bool(let b) = value else { throw error(path, "expected true or false") }
        return b
    }

    func string(_ value: JSONValue, _ path: String) throws -> String {
        guard case .string(let s) = value else { throw error(path, "expected a string") }
        return s
    }

    /// A string naming one of `choices` (each known by `name`); the error lists them all.
    func choice<T>(_ value: JSONValue, _ path: String, of choices: [T], named name: (T) -> String) throws -> T {
        let given = try string(value, path)
        guard let found = choices.first(where: { name($0) == given }) else {
            throw error(path, "must be one of \(choices.map { "\"\(name($0))\"" }.joined(separator: ", ")), got \"\(given)\"")
        }
        return found
    }

    /// A string naming one of an enumeration's cases by its raw value.
    func choice<T: CaseIterable & RawRepresentable>(_ value: JSONValue, _ path: String, of type: T.Type) throws -> T where T.RawValue == String {
        try choice(value, path, of: Array(T.allCases), named: \.rawValue)
    }

    /// `key` of the object `o` at `path`, which must be there.
    func required(_ o: [String: JSONValue], _ key: String, _ path: String) throws -> JSONValue {
        guard let value = o[key] else { throw error(path, "\"\(key)\" is required") }
        return value
    }

    /// An optional array: empty when absent.
    func array(_ value: JSONValue?, _ path: String) throws -> [JSONValue] {
        guard let value else { return [] }
        guard case .array(let list) = value else { throw error(path, "expected an array") }
        return list
    }

    func vector(_ value: JSONValue, _ path: String) throws -> SIMD3<Float> {
        guard case .array(let a) = value, a.count == 3 else { throw error(path, "expected an array of 3 numbers [x, y, z]") }
        return SIMD3(try float(a[0], "\(path)[0]"), try float(a[1], "\(path)[1]"), try float(a[2], "\(path)[2]"))
    }
}
