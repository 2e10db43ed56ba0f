/// The form of the names a run gives what it builds aside: a fixed start, a fresh UUID as
/// `FilePath.randomUUIDString()` writes it (upper-case hex digits in groups of 8-4-4-4-12), and a
/// fixed end (`Out.sqlite.ferry-<UUID>.tmp`, a backup's `.incomplete-<UUID>`). Sweeps remove only
/// names of this exact form: a user's `.incomplete-notes.txt` or `Out.sqlite.ferry-old.tmp` starts
/// and ends alike, but no run made it.
public struct TemporaryName: Sendable, Equatable {
    /// What comes before the UUID.
    public let prefix: String
    /// What comes after it.
    public let suffix: String

    public init(prefix: String, suffix: String = "") {
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The longest file name the file systems Ferry runs on allow, in bytes (`NAME_MAX`).
    public static let maxNameBytes = 255

    /// The form of the names of what is built beside `destination`: its name, `marker`, the
    /// UUID and `suffix`, with the destination's name cut short (at a character's boundary) as
    /// far as a name of the form and `reserve` bytes more (SQLite's `-journal` beside a
    /// database) need to fit in `maxNameBytes`: a destination whose own name is valid always has
    /// a temporary name that is (one of 201 to 255 bytes failed with "File name too long").
    public init(beside destination: String, marker: String, suffix: String, reserve: Int = 0) {
        let slash = destination.lastIndex(of: "/").map { destination.index(after: $0) } ?? destination.startIndex
        let budget = max(0, Self.maxNameBytes - marker.utf8.count - Self.uuidLength - suffix.utf8.count - reserve)
        var name = Substring(destination[slash...])
        while name.utf8.count > budget { name = name.dropLast() }
        self.init(prefix: String(destination[..<slash]) + name + marker, suffix: suffix)
    }

    /// A new name of this form.
    public func fresh() -> String {
        prefix + FilePath.randomUUIDString() + suffix
    }

    /// Whether `name` is of this form exactly.
    public func matches(_ name: String) -> Bool {
        let bytes = Array(name.utf8), start = Array(prefix.utf8), end = Array(suffix.utf8)
        guard bytes.count == start.count + Self.uuidLength + end.count, bytes.starts(with: start), bytes.reversed().starts(with: end.reversed()) else {
            return false
        }
        return Self.isUUID(bytes[start.count..<(start.count + Self.uuidLength)])
    }

    /// The part of `name` before a UUID and `suffix` (`ferry-verify-` of a scratch folder's name),
    /// whatever it is; nil when `name` does not end so.
    public static func prefix(of name: String, before suffix: String) -> String? {
        let bytes = Array(name.utf8), end = Array(suffix.utf8)
        guard bytes.count >= uuidLength + end.count, bytes.reversed().starts(with: end.reversed()) else { return nil }
        let uuidStart = bytes.count - end.count - uuidLength
        guard isUUID(bytes[uuidStart..<(uuidStart + uuidLength)]) else { return nil }
        return String(decoding: bytes[..<uuidStart], as: UTF8.self)
    }

    private static let uuidLength = 36

    /// Whether `bytes` are a UUID as `FilePath.randomUUIDString()` writes it.
    private static func isUUID(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == uuidLength && bytes.enumerated().allSatisfy { offset, byte in
            [8, 13, 18, 23].contains(offset) ? byte == UInt8(ascii: "-")
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}
