extension JSONScanner {
    /// A string value, or when it is longer than `maxTokenBytes` and `readsPastLongTokens` is
    /// set, null in its place: the string is read past without being kept
    /// (`skipOversizedString`) and `oversizedAt` notes where it starts, so the value around it is
    /// still read whole and the reader can refuse its record alone. Without the flag the value is
    /// ``JSONError/valueTooLarge(limit:at:)``.
    mutating func stringOrSkipped() throws -> JSONValue {
        try stringOrSkipped { .string(String(decoding: $0, as: UTF8.self)) } ?? .null
    }

    /// The string at `position` as `parseString(_:)` hands it to `make`, or nil in place of one
    /// longer than `maxTokenBytes` (as `stringOrSkipped()`).
    mutating func stringOrSkipped<Result>(_ make: (UnsafeBufferPointer<UInt8>) -> Result) throws -> Result? {
        do {
            return try parseString(make)
        } catch let JSONError.valueTooLarge(_, at) where readsPastLongTokens {
            try skipOversizedString(startingAt: at)
            oversizedAt = oversizedAt ?? at
            return nil
        }
    }

    /// A number value, or null in place of one longer than `maxTokenBytes` (as `stringOrSkipped`).
    mutating func numberOrSkipped() throws -> JSONValue {
        try numberOrSkipped { .number(JSONNumber(validatedText: String(decoding: $0, as: UTF8.self), isInteger: $1)) } ?? .null
    }

    /// The number at `position` as `parseNumber(_:)` hands it to `make`, or nil in place of one
    /// longer than `maxTokenBytes` (as `stringOrSkipped()`).
    mutating func numberOrSkipped<Result>(_ make: (UnsafeBufferPointer<UInt8>, Bool) -> Result) throws -> Result? {
        do {
            return try parseNumber(make)
        } catch let JSONError.valueTooLarge(_, at) where readsPastLongTokens {
            try skipOversizedNumber()
            oversizedAt = oversizedAt ?? at
            return nil
        }
    }

    /// A member key, or an empty one in place of a key longer than `maxTokenBytes` (as
    /// `stringOrSkipped`).
    mutating func keyOrSkipped() throws -> String {
        try stringOrSkipped { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Reads past the string whose opening quote is at `position`, to its closing quote, keeping
    /// nothing of it: the window is emptied as it is scanned. Its text is not checked (its record
    /// is refused). `start` is where it began, for the error when it never ends.
    private mutating func skipOversizedString(startingAt start: JSONPosition) throws {
        var index = position + 1
        var escaped = false
        while true {
            while index < filled {
                // Eight bytes at a time while none is a quote, a backslash or a control character.
                if !escaped, index + 8 <= filled,
                   !Self.holdsSpecialByte(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte < 0x20 {
                    // As `parseString` refuses it; an NDJSON reader resumes at this line feed.
                    position = index
                    throw syntaxError(.controlCharacterInString(byte), at: index)
                }
                index += 1
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    position = index
                    shrinkWindow()
                    return
                }
            }
            // Nothing is kept: the window goes back to its base size before it is filled again.
            position = filled
            shrinkWindow()
            guard try refill() else { throw JSONError.syntax(.unterminatedString, at: start) }
            index = position
        }
    }

    /// Reads past the number at `position`: every byte a number may hold (digits, signs, points,
    /// exponents), keeping nothing of it.
    private mutating func skipOversizedNumber() throws {
        while true {
            while position < filled {
                let byte = bytes[position]
                guard byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") else {
                    shrinkWindow()
                    return
                }
                position += 1
            }
            shrinkWindow()
            guard try refill() else { return }
        }
    }
}
