import FerryModel

/// Finds the attribute a source key (a CSV column, a JSON or plist key) stands for.
///
/// In order: an explicit key map entry, the exact attribute name, the name ignoring case, then
/// the attribute's renaming identifier (exactly, then ignoring case), so that files written by
/// an older app version still match after a rename; last, the same for the key without the
/// spaces around it (a spreadsheet's `"size "` header, a non-breaking space), which would
/// otherwise leave the whole column out. The first rule that matches decides; one that matches
/// several attributes (`FILENAME` for `fileName` and `filename`) is an `AmbiguousKey`.
public struct PropertyKeyMatcher: Sendable {
    private let schema: RecordSchema
    private let keyMap: [String: String]

    /// - Parameter keyMap: source key → attribute name, for keys nothing else would match.
    public init(schema: RecordSchema, keyMap: [String: String] = [:]) {
        self.schema = schema
        self.keyMap = keyMap
    }

    /// Whether the user mapped `key` (or it without the spaces around it) to an attribute by name.
    public func isMapped(_ key: String) -> Bool {
        keyMap[key] != nil || keyMap[key.trimmingSpaces] != nil
    }

    /// The attribute position for a key, or nil when no attribute matches.
    public func attributeIndex(forKey key: String) throws(AmbiguousKey) -> Int? {
        if let found = try matchingIndex(forKey: key) { return found }
        let trimmed = key.trimmingSpaces
        return trimmed != key && !trimmed.isEmpty ? try matchingIndex(forKey: trimmed) : nil
    }

    private func matchingIndex(forKey key: String) throws(AmbiguousKey) -> Int? {
        if let mapped = keyMap[key] { return schema.index(of: mapped) }
        if let exact = schema.index(of: key) { return exact }
        let folded = key.lowercased()
        let attributes = schema.attributes
        let rules: [(name: String, matches: (Attribute) -> Bool)] = [
            ("ignoring case", { $0.name.lowercased() == folded }),
            ("by renaming identifier", { $0.renamingIdentifier == key }),
            ("by renaming identifier, ignoring case", { $0.renamingIdentifier?.lowercased() == folded }),
        ]
        for rule in rules {
            let found = attributes.indices.filter { rule.matches(attributes[$0]) }
            guard found.count < 2 else { throw AmbiguousKey(key: key, attributes: found.map { attributes[$0].name }, rule: rule.name) }
            if let index = found.first { return index }
        }
        return nil
    }
}

extension String {
    /// The text without the whitespace (spaces, tabs, non-breaking spaces, line breaks) at its ends.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
