/// The right-hand side of a relationship rule in a mapping file that makes a record:
/// `Folder(name: trim(folderName), color: folderColor)`, an entity name (which starts with an
/// upper-case letter, unlike functions and attributes) and `attribute: expression` arguments.
struct ConstructorSyntax {
    var entity: String
    var arguments: [MadeRecordRule.Argument]

    /// Reads `text`, which starts at `column` of `line`; nil when it is not a constructor (an
    /// expression). Errors name the column of the offending part.
    init?(_ text: String, line: Int, column: Int, path: String) throws(MappingError) {
        let bytes = Array(text.utf8)
        func isName(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }
        func skipSpaces(_ index: inout Int) { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        func failure(_ offset: Int, _ reason: String) -> MappingError {
            .file(path: path, line: line, column: column + offset, reason: reason)
        }
        var index = 0
        skipSpaces(&index)
        let nameStart = index
        guard index < bytes.count, bytes[index] >= 0x41, bytes[index] <= 0x5A else { return nil }
        while index < bytes.count, isName(bytes[index]) { index += 1 }
        let entity = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        skipSpaces(&index)
        guard index < bytes.count, bytes[index] == 0x28 else { return nil }
        // Top-level arguments, split at commas outside brackets, strings and backquoted names.
        var segments: [Range<Int>] = []
        var segmentStart = index + 1
        var depth = 0
        var closing: Int?
        var quote: UInt8?
        var position = index
        while position < bytes.count, closing == nil {
            let byte = bytes[position]
            if let open = quote {
                if byte == 0x5C, open == 0x22 { position += 1 } else if byte == open { quote = nil }
            } else {
                switch byte {
                case 0x22, 0x60: quote = byte
                case 0x28, 0x5B, 0x7B: depth += 1
                case 0x29, 0x5D, 0x7D:
                    depth -= 1
                    if depth == 0 {
                        segments.append(segmentStart..<position)
                        closing = position
                    }
                case 0x2C where depth == 1:
                    segments.append(segmentStart..<position)
                    segmentStart = position + 1
                default: break
                }
            }
            position += 1
        }
        guard let closing else { throw failure(index, "\(entity)( is not closed") }
        var after = closing + 1
        skipSpaces(&after)
        guard after == bytes.count else { throw failure(after, "unexpected text after \(entity)(…)") }
        if segments.count == 1, bytes[segments[0]].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            throw failure(nameStart, "\(entity)() needs at least one ATTRIBUTE: EXPRESSION")
        }
        var arguments: [MadeRecordRule.Argument] = []
        for segment in segments {
            var start = segment.lowerBound
            skipSpaces(&start)
            var end = start
            while end < segment.upperBound, isName(bytes[end]) { end += 1 }
            let label = String(decoding: bytes[start..<end], as: UTF8.self)
            var colon = end
            skipSpaces(&colon)
            guard !label.isEmpty, colon < segment.upperBound, bytes[colon] == 0x3A else {
                throw failure(start, "expected ATTRIBUTE: EXPRESSION in \(entity)(…)")
            }
            guard !arguments.contains(where: { $0.attribute == label }) else { throw failure(start, "\(label) is given twice") }
            let expressionText = String(decoding: bytes[(colon + 1)..<segment.upperBound], as: UTF8.self)
            do {
                let expression = try MappingExpression(parsing: expressionText, line: line, column: column + colon + 1)
                arguments.append(MadeRecordRule.Argument(attribute: label, expression: expression))
            } catch {
                throw .file(path: path, line: error.line, column: error.column, reason: error.message)
            }
        }
        self.entity = entity
        self.arguments = arguments
    }
}
