/// A key that appeared more than once in one object of a document: the last value was used.
/// Reported once per key (and nesting) for a whole source, with the first object that had it.
public struct DuplicateKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The key, as written.
    public var key: String
    /// The first object that held it twice: its file, line, and key path inside the record
    /// (`[3].attachments[0]`) when it is nested or an array element.
    public var firstObject: SourceLocation
    /// How many objects held it more than once.
    public var objects: Int

    public init(key: String, firstObject: SourceLocation, objects: Int = 1) {
        self.key = key
        self.firstObject = firstObject
        self.objects = objects
    }

    /// `tasks.json:3 [0]: key "title" appears more than once in an object; the last value is used (in 2 objects)`.
    public var description: String {
        "\(firstObject): key \"\(key)\" appears more than once in an object; the last value is used"
            + (objects > 1 ? " (in \(objects) objects)" : "")
    }
}

/// The duplicate keys met by a document decoder and the decoders of its nested objects, which
/// share one log (a reference), so that a source's keys are reported in one list.
final class DuplicateKeyLog {
    private(set) var keys: [DuplicateKey] = []
    /// Index in `keys`, by key and the nesting it was found at (the key path without indexes).
    private var index: [String: Int] = [:]

    /// Notes that the object at `location` held `key` more than once.
    func note(_ key: String, at location: SourceLocation) {
        let id = Self.nesting(of: location.path ?? "") + "\u{1}" + key
        if let known = index[id] {
            keys[known].objects += 1
        } else {
            index[id] = keys.count
            keys.append(DuplicateKey(key: key, firstObject: location))
        }
    }

    /// A key path without its array indexes: `[3].attachments[0]` → `[].attachments[]`.
    private static func nesting(of path: String) -> String {
        var nesting = ""
        var inIndex = false
        for character in path {
            switch character {
            case "[": inIndex = true; nesting += "[]"
            case "]": inIndex = false
            default: if !inIndex { nesting.append(character) }
            }
        }
        return nesting
    }
}
