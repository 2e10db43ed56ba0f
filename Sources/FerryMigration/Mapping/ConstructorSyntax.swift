/// The right-hand side of a relationship rule in a mapping file that makes a record:
/// `Folder(name: trim(folderName), color: folderColor)`, an entity name (which starts with an
/// upper-case letter, unlike functions and attributes) and `attribute: expression` arguments,
/// optionally followed by `for $ in split(TEXT, "SEPARATOR")` (one record per part, `$` in the
/// arguments being the part). `new` before the entity name makes a record per source record
/// (`MadeRecordRule.alwaysNew`).
struct ConstructorSyntax {
    var entity: String
    var arguments: [MadeRecordRule.Argument]
    var parts: MadeRecordRule.Parts?
    var alwaysNew = false

    /// Reads `text`, which starts at `column` of `line`; nil when it is not a constructor (an
    /// expression). Errors name the column of the offending part.
    init?(_ text: String, line: Int, column: Int, path: String) throws(MappingError) {
        let bytes = Array(text.utf8)
        func failure(_ offset: Int, _ reason: String) -> MappingError {
            .file(path: path, line: line, column: column + offset, reason: reason)
        }
        func expression(_ range: Range<Int>) throws(MappingError) -> MappingExpression {
            do {
                return try MappingExpression(parsing: String(decoding: bytes[range], as: UTF8.self), line: line, column: column + range.lowerBound)
            } catch {
                throw .file(path: path, line: error.line, column: error.column, reason: error.message)
            }
        }
        var index = Self.skipSpaces(bytes, from: 0)
        if bytes[index...].starts(with: Array("new ".utf8)) {
            let entityStart = Self.skipSpaces(bytes, from: index + 4)
            if entityStart < bytes.count, bytes[entityStart] >= 0x41, bytes[entityStart] <= 0x5A {
                alwaysNew = true
                index = entityStart
            }
        }
        let nameStart = index
        guard index < bytes.count, bytes[index] >= 0x41, bytes[index] <= 0x5A else { return nil }
        index = Self.skipName(bytes, from: index)
        let entity = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        index = Self.skipSpaces(bytes, from: index)
        guard index < bytes.count, bytes[index] == 0x28 else {
            if alwaysNew { throw failure(index, "expected new \(entity)(ATTRIBUTE: EXPRESSION, …)") }
            return nil
        }
        guard let (segments, closing) = Self.arguments(bytes, openedAt: index) else { throw failure(index, "\(entity)( is not closed") }
        if segments.count == 1, bytes[segments[0]].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            throw failure(nameStart, "\(entity)() needs at least one ATTRIBUTE: EXPRESSION")
        }
        var arguments: [MadeRecordRule.Argument] = []
        for segment in segments {
            let start = Self.skipSpaces(bytes, from: segment.lowerBound)
            let end = Self.skipName(bytes, from: start, upTo: segment.upperBound)
            let label = String(decoding: bytes[start..<end], as: UTF8.self)
            let colon = Self.skipSpaces(bytes, from: end)
            guard !label.isEmpty, colon < segment.upperBound, bytes[colon] == 0x3A else {
                throw failure(start, "expected ATTRIBUTE: EXPRESSION in \(entity)(…)")
            }
            guard !arguments.contains(where: { $0.attribute == label }) else { throw failure(start, "\(label) is given twice") }
            arguments.append(MadeRecordRule.Argument(attribute: label, expression: try expression((colon + 1)..<segment.upperBound)))
        }
        let after = Self.skipSpaces(bytes, from: closing + 1)
        if after < bytes.count {
            parts = try Self.parts(bytes, at: after, failure: failure, expression: expression)
        }
        self.entity = entity
        self.arguments = arguments
    }

    /// `for $ in split(TEXT, "SEPARATOR")` from `start` to the end of the text.
    private static func parts(_ bytes: [UInt8], at start: Int, failure: (Int, String) -> MappingError,
                              expression: (Range<Int>) throws(MappingError) -> MappingExpression) throws(MappingError) -> MadeRecordRule.Parts {
        let expected = #"expected for $ in split(TEXT, "SEPARATOR") after the constructor"#
        var index = start
        for (offset, word) in ["for", "$", "in", "split"].enumerated() {
            let end = offset == 1 ? min(index + 1, bytes.count) : skipName(bytes, from: index)
            guard String(decoding: bytes[index..<end], as: UTF8.self) == word else {
                throw failure(index, index == start ? "unexpected text after the constructor; \(expected)" : expected)
            }
            index = skipSpaces(bytes, from: end)
        }
        guard index < bytes.count, bytes[index] == 0x28, let (segments, closing) = arguments(bytes, openedAt: index) else {
            throw failure(index, expected)
        }
        let after = skipSpaces(bytes, from: closing + 1)
        guard after == bytes.count else { throw failure(after, "unexpected text after split(…)") }
        guard segments.count == 2 else { throw failure(index, #"split needs two arguments: split(TEXT, "SEPARATOR")"#) }
        let text = try expression(segments[0])
        let separatorStart = skipSpaces(bytes, from: segments[1].lowerBound)
        guard case .literal(.string(let separator)) = try expression(segments[1]).root.kind, !separator.isEmpty else {
            throw failure(separatorStart, "the separator of split must be a non-empty string literal")
        }
        return MadeRecordRule.Parts(text: text, separator: separator)
    }

    /// The top-level arguments between the bracket at `open` and its closing bracket, split at
    /// commas outside brackets, strings and backquoted names; nil when it is not closed.
    private static func arguments(_ bytes: [UInt8], openedAt open: Int) -> (segments: [Range<Int>], closing: Int)? {
        var segments: [Range<Int>] = []
        var segmentStart = open + 1
        var depth = 0
        var quote: UInt8?
        var position = open
        while position < bytes.count {
            let byte = bytes[position]
            if let opened = quote {
                if byte == 0x5C, opened == 0x22 { position += 1 } else if byte == opened { quote = nil }
            } else {
                switch byte {
                case 0x22, 0x60: quote = byte
                case 0x28, 0x5B, 0x7B: depth += 1
                case 0x29, 0x5D, 0x7D:
                    depth -= 1
                    if depth == 0 {
                        segments.append(segmentStart..<position)
                        return (segments, position)
                    }
                case 0x2C where depth == 1:
                    segments.append(segmentStart..<position)
                    segmentStart = position + 1
                default: break
                }
            }
            position += 1
        }
        return nil
    }

    private static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index
    }

    /// The end of the name (letters, digits, `_`) at `start`.
    private static func skipName(_ bytes: [UInt8], from start: Int, upTo end: Int? = nil) -> Int {
        let limit = end ?? bytes.count
        var index = start
        while index < limit, bytes[index] >= 0x41 && bytes[index] <= 0x5A || bytes[index] >= 0x61 && bytes[index] <= 0x7A
            || bytes[index] >= 0x30 && bytes[index] <= 0x39 || bytes[index] == 0x5F { index += 1 }
        return index
    }
}
