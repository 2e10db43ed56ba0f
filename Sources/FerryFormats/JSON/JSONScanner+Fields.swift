extension JSONScanner {
    /// Reads the object whose `{` is the next token into `fields` (emptied first): keys and plain
    /// values as bytes, arrays and objects as values (`parseValue`). The grammar, the errors and
    /// the values read past for their length are those of `parseValue` reading the same object.
    /// - Parameter depth: containers already open around the object (they count toward the limit).
    mutating func parseObject(depth: Int, into fields: inout JSONRecordFields) throws {
        fields.removeAll()
        guard depth < maxDepth else { throw JSONError.depthLimitExceeded(limit: maxDepth, at: position(at: position)) }
        position += 1
        if try peekToken() == UInt8(ascii: "}") {
            position += 1
            return
        }
        repeat {
            try appendKey(to: &fields)
            let keyEnd = fields.bytes.count
            guard let byte = try peekToken() else {
                throw syntaxError(.unexpectedEnd(expected: "a value"), at: position)
            }
            switch byte {
            case UInt8(ascii: "\""):
                let read: Void? = try stringOrSkipped { fields.bytes.append(contentsOf: $0) }
                fields.appendMember(keyEnd: keyEnd, kind: read == nil ? .null : .string)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let isInteger = try numberOrSkipped { text, isInteger in
                    fields.bytes.append(contentsOf: text)
                    return isInteger
                }
                fields.appendMember(keyEnd: keyEnd, kind: isInteger.map { .number(isInteger: $0) } ?? .null)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                switch try parseLiteral() {
                case .bool(let flag): fields.appendMember(keyEnd: keyEnd, kind: .bool(flag))
                default: fields.appendMember(keyEnd: keyEnd, kind: .null)
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                fields.appendMember(keyEnd: keyEnd, nested: try parseValue(depth: depth + 1))
            default:
                throw syntaxError(.unexpectedByte(byte, expected: "a value"), at: position)
            }
        } while try separator(closing: UInt8(ascii: "}"), expected: "',' or '}'")
    }

    /// Reads a member key and its colon, as `parseKey`, appending the key to the fields' bytes
    /// (nothing for a key read past for its length).
    private mutating func appendKey(to fields: inout JSONRecordFields) throws {
        try expectKey()
        _ = try stringOrSkipped { fields.bytes.append(contentsOf: $0) }
        try expect(UInt8(ascii: ":"), "':'")
    }
}
