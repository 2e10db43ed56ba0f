extension JSONScanner {
    /// Reads one complete value starting at the next token.
    ///
    /// The parser is iterative: open containers wait in `containers`, not on the call stack, so
    /// hostile nesting hits ``JSONError/depthLimitExceeded(limit:at:)`` instead of a stack overflow.
    /// - Parameter depth: containers already open around this value (they count toward the limit).
    mutating func parseValue(depth: Int) throws -> JSONValue {
        let outerDepth = depth
        containers.removeAll(keepingCapacity: true)
        while true {
            // A value starts at the next token: a scalar completes at once, a container opens.
            guard let byte = try peekToken() else {
                throw syntaxError(.unexpectedEnd(expected: "a value"), at: position)
            }
            var value: JSONValue
            switch byte {
            case UInt8(ascii: "\""):
                value = try stringOrSkipped()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try numberOrSkipped()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                value = try parseLiteral()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard outerDepth + containers.count < maxDepth else {
                    throw JSONError.depthLimitExceeded(limit: maxDepth, at: position(at: position))
                }
                position += 1
                if byte == UInt8(ascii: "[") {
                    if try peekToken() != UInt8(ascii: "]") {
                        containers.append(.array([]))
                        continue
                    }
                    position += 1
                    value = .array([])
                } else {
                    if try peekToken() != UInt8(ascii: "}") {
                        containers.append(.object([], key: try parseKey()))
                        continue
                    }
                    position += 1
                    value = .object([])
                }
            default:
                throw syntaxError(.unexpectedByte(byte, expected: "a value"), at: position)
            }

            // Add the finished value to its container; a closing bracket finishes that one in turn.
            while true {
                switch containers.popLast() {
                case nil:
                    return value
                case var .array(elements):
                    elements.append(value)
                    if try separator(closing: UInt8(ascii: "]"), expected: "',' or ']'") {
                        containers.append(.array(elements))
                    } else {
                        value = .array(elements)
                        continue
                    }
                case .object(var members, let key):
                    members.append((key, value))
                    if try separator(closing: UInt8(ascii: "}"), expected: "',' or '}'") {
                        containers.append(.object(members, key: try parseKey()))
                    } else {
                        value = .object(members)
                        continue
                    }
                }
                break
            }
        }
    }

    /// Consumes the token after a container element: `true` for a comma (another element follows),
    /// `false` for the closing bracket.
    mutating func separator(closing: UInt8, expected: String) throws -> Bool {
        guard let byte = try peekToken() else {
            throw syntaxError(.unexpectedEnd(expected: expected), at: position)
        }
        guard byte == UInt8(ascii: ",") || byte == closing else {
            throw syntaxError(.unexpectedByte(byte, expected: expected), at: position)
        }
        position += 1
        return byte == UInt8(ascii: ",")
    }

    /// Reads a member key and its colon; the value is left for the caller. A key longer than
    /// `maxTokenBytes` is read past and noted (`keyOrSkipped`).
    mutating func parseKey() throws -> String {
        try expectKey()
        let key = try keyOrSkipped()
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    /// Throws unless the next token is a string, as a member key must be.
    mutating func expectKey() throws {
        guard let byte = try peekToken() else {
            throw syntaxError(.unexpectedEnd(expected: "a string key"), at: position)
        }
        guard byte == UInt8(ascii: "\"") else {
            throw syntaxError(.unexpectedByte(byte, expected: "a string key"), at: position)
        }
    }
}
