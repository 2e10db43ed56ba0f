/// One key of a sort order: an attribute key path (through to-one relationships) and a direction.
public struct FetchSort: Sendable, Equatable, CustomStringConvertible {
    public var keyPath: [String]
    public var ascending: Bool

    public init(keyPath: [String], ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// The most keys a sort order may have. SQLite refuses an `ORDER BY` of more than 2,000
    /// terms; no order needs more than a few, since later keys only break ties of earlier ones.
    public static let maxKeys = 64

    /// Parses `key[,-key…]`: comma-separated key paths, `-` in front for descending; at most `maxKeys`.
    public static func parse(_ text: String) throws(FetchPredicateError) -> [FetchSort] {
        let count = text.utf8.count(where: { $0 == UInt8(ascii: ",") }) + 1
        guard count <= maxKeys else { throw .tooManySortKeys(count: count, limit: maxKeys) }
        var result: [FetchSort] = []
        var column = 1
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let leading = part.prefix { $0 == " " }.count
            var key = part.drop { $0 == " " }
            while key.last == " " { key.removeLast() }
            let ascending = key.first != "-"
            if !ascending { key.removeFirst() }
            let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !key.isEmpty, components.allSatisfy({ !$0.isEmpty }) else {
                throw .syntax(column: column + leading, expected: "a key path, or -key for descending order",
                              found: key.isEmpty ? "nothing" : String(key))
            }
            result.append(FetchSort(keyPath: components, ascending: ascending))
            column += part.unicodeScalars.count + 1
        }
        return result
    }

    /// `key` or `-key`; `FetchSort.parse` reads it back.
    public var description: String { (ascending ? "" : "-") + keyPath.joined(separator: ".") }
}
