/// One key of a sort order: an attribute key path (through to-one relationships) and a direction.
public struct FetchSort: Sendable, Equatable, CustomStringConvertible {
    public var keyPath: [String]
    public var ascending: Bool

    public init(keyPath: [String], ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// Parses `key[,-key…]`: comma-separated key paths, `-` in front for descending.
    public static func parse(_ text: String) throws(FetchPredicateError) -> [FetchSort] {
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
