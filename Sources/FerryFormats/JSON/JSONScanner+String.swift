extension JSONScanner {
    /// Reads the string whose opening quote is at `position` and hands its text, as checked UTF-8
    /// bytes, to `make`, whose result is returned.
    ///
    /// The whole string is brought into the window first, so it is decoded from one span:
    /// plain ASCII is handed over as is, other text is checked as UTF-8 first, and escapes are
    /// decoded into `scratch`.
    mutating func parseString<Result>(_ make: (UnsafeBufferPointer<UInt8>) -> Result) throws -> Result {
        var length = 1  // bytes of the string scanned so far, from the opening quote
        var escaped = false
        var highBits: UInt8 = 0
        var highWords: UInt64 = 0
        scan: while true {
            let available = filled - position
            let start = bytes + position
            while length < available {
                // Eight bytes at a time while none is a quote, a backslash or a control character.
                if length + 8 <= available {
                    let word = UnsafeRawPointer(start + length).loadUnaligned(as: UInt64.self)
                    if !Self.holdsSpecialByte(word) {
                        highWords |= word
                        length += 8
                        continue
                    }
                }
                let byte = start[length]
                if byte == UInt8(ascii: "\"") { break scan }
                if byte == UInt8(ascii: "\\") {
                    guard length + 1 < available else { break }  // the escaped byte is in the next read
                    // Nothing escapes a line break (or another control character): the string
                    // is refused there, so a broken NDJSON line does not run on into the next.
                    let escapedByte = start[length + 1]
                    if escapedByte < 0x20 { throw syntaxError(.invalidEscape(escapedByte), at: position + length) }
                    escaped = true
                    length += 2
                } else if byte < 0x20 {
                    throw syntaxError(.controlCharacterInString(byte), at: position + length)
                } else {
                    highBits |= byte
                    length += 1
                }
            }
            guard try refill() else { throw syntaxError(.unterminatedString, at: position) }
        }
        try checkTokenLength(length + 1)
        if highWords & 0x8080_8080_8080_8080 != 0 { highBits |= 0x80 }
        let body = UnsafeBufferPointer(start: bytes + position + 1, count: length - 1)
        let quote = position
        position += length + 1
        defer { shrinkWindow() }
        if escaped {
            try decodeEscapes(body, quote: quote)
            return try scratch.withUnsafeBufferPointer { decoded in
                guard Self.isValidUTF8(decoded) else { throw syntaxError(.invalidUTF8, at: quote) }
                return make(decoded)
            }
        }
        guard highBits < 0x80 || Self.isValidUTF8(body) else { throw syntaxError(.invalidUTF8, at: quote) }
        return make(body)
    }

    /// Whether `bytes` are well-formed UTF-8.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        (try? UTF8Span(validating: bytes.span)) != nil
    }

    /// Whether one of the eight bytes of `word` is `"`, `\` or below 0x20 (never false when one
    /// is; the byte loop then looks at them one by one). Each test is the exact "some byte is
    /// zero" (or "below n", n ≤ 128) bit trick on the word.
    @inline(__always)
    static func holdsSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let zeroInQuote = (quote &- ones) & ~quote
        let zeroInBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (zeroInQuote | zeroInBackslash | control) & highs != 0
    }

    /// Decodes `body` (the bytes between the quotes, at `quote + 1` in the window) with its
    /// escapes into `scratch`, not yet checked as UTF-8.
    private mutating func decodeEscapes(_ body: UnsafeBufferPointer<UInt8>, quote: Int) throws {
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\") else {
                scratch.append(byte)
                index += 1
                continue
            }
            let escapeIndex = quote + 1 + index
            let kind = body[index + 1]  // the scan stepped over it, so it is inside the body
            index += 2
            switch kind {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(kind)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                let unit = try hexUnit(body, at: index, escapeIndex: escapeIndex)
                index += 4
                var scalar = UInt32(unit)
                if unit & 0xFC00 == 0xD800 {
                    // A high surrogate must be followed at once by an escaped low surrogate.
                    let low = try lowSurrogate(body, at: index, escapeIndex: escapeIndex + 6)
                    guard let low else { throw syntaxError(.loneSurrogate(unit), at: escapeIndex) }
                    index += 6
                    scalar = 0x10000 + ((UInt32(unit) & 0x3FF) << 10 | (UInt32(low) & 0x3FF))
                }
                // Unicode.Scalar refuses the surrogate range: here only a lone low surrogate.
                guard let decoded = Unicode.Scalar(scalar) else {
                    throw syntaxError(.loneSurrogate(unit), at: escapeIndex)
                }
                UTF8.encode(decoded) { scratch.append($0) }
            default:
                throw syntaxError(.invalidEscape(kind), at: escapeIndex)
            }
        }
    }

    /// The low surrogate escaped at `body[index...]`, or `nil` when no `\uDC00`…`\uDFFF` is there.
    private func lowSurrogate(_ body: UnsafeBufferPointer<UInt8>, at index: Int, escapeIndex: Int) throws -> UInt16? {
        guard index + 1 < body.count, body[index] == UInt8(ascii: "\\"), body[index + 1] == UInt8(ascii: "u") else {
            return nil
        }
        let unit = try hexUnit(body, at: index + 2, escapeIndex: escapeIndex)
        return unit & 0xFC00 == 0xDC00 ? unit : nil
    }

    /// The four hexadecimal digits at `body[index...]` as a UTF-16 code unit.
    private func hexUnit(_ body: UnsafeBufferPointer<UInt8>, at index: Int, escapeIndex: Int) throws -> UInt16 {
        guard index + 4 <= body.count else { throw syntaxError(.invalidUnicodeEscape, at: escapeIndex) }
        var unit: UInt16 = 0
        for byte in body[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntaxError(.invalidUnicodeEscape, at: escapeIndex)
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }
}
