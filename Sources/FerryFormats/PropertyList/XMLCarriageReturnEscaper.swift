/// Keeps the carriage returns of an XML property list's text through libxml2.
///
/// An XML parser turns CRLF and a lone CR into LF before the application sees any text (XML 1.0,
/// section 2.11). Apple's property list writer escapes only `&`, `<` and `>`: a CR in a `<string>`
/// or `<key>` is written as a raw byte, and Apple's reader keeps it. So before libxml2 sees the
/// bytes, each CR in character data inside the root element becomes the character reference
/// `&#13;`, which libxml2 passes through as a CR; in a CDATA section it becomes
/// `]]>&#13;<![CDATA[` (libxml2's tree parser turns line ends in CDATA into LF too, its push
/// parser, under the streaming reader, does not: escaped, both keep them). CRs in markup (tags, comments, processing instructions, the XML
/// declaration, the DOCTYPE) and outside the root element stay as they are. A CR between
/// elements (a CRLF line end) becomes whitespace text holding a CR, which the readers skip as
/// before.
///
/// Line numbers are unchanged: libxml2 counts a line at each LF byte of its input (a lone CR
/// starts no line for it), and every LF is kept.
///
/// Works on code units, as ``XMLMarkupTracker`` does: bytes for UTF-8 (and any encoding that
/// keeps ASCII as bytes), 16-bit units for UTF-16, recognized as libxml2 recognizes it (a byte
/// order mark, or `<?` in either byte order). Input that starts like UCS-4 or EBCDIC passes
/// unchanged. State carries from one chunk to the next, so a stream is escaped a chunk at a time.
struct XMLCarriageReturnEscaper {
    private enum Layout {
        case bytes
        case utf16(bigEndian: Bool)
        /// Neither: passed on untouched.
        case unchanged
    }

    /// Decided on the first four bytes (or fewer, at the end of a short input).
    private var layout: Layout?
    /// Bytes held back: the first ones while the layout is undecided, or the first byte of a
    /// UTF-16 unit split between chunks.
    private var held: [UInt8] = []
    private var tracker = XMLMarkupTracker()

    /// A whole document escaped; `bytes` itself when it holds no carriage return.
    static func escaping(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(carriageReturn) else { return bytes }
        var escaper = XMLCarriageReturnEscaper()
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        bytes.withUnsafeBytes { escaper.escape($0, into: &output) }
        escaper.finish(into: &output)
        return output
    }

    /// Escapes the next bytes of the document, appending what is ready to `output`.
    mutating func escape(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        if let layout, held.isEmpty { return escapeUnits(bytes, layout: layout, into: &output) }
        held += bytes
        if layout != nil || held.count >= 4 { escapeHeld(into: &output) }
    }

    /// Ends the document: appends what was held back (a UTF-16 unit cut short is left to libxml2
    /// to report).
    mutating func finish(into output: inout [UInt8]) {
        escapeHeld(into: &output)
        output += held
        held = []
    }

    /// Escapes the bytes held back, deciding the layout by them if it is still open.
    private mutating func escapeHeld(into output: inout [UInt8]) {
        let pending = held
        held = []
        let layout = self.layout ?? Self.layout(of: pending)
        self.layout = layout
        pending.withUnsafeBytes { escapeUnits($0, layout: layout, into: &output) }
    }

    /// Escapes the whole units of `bytes` and holds back a trailing partial one.
    private mutating func escapeUnits(_ bytes: UnsafeRawBufferPointer, layout: Layout, into output: inout [UInt8]) {
        switch layout {
        case .unchanged:
            output += bytes
        case .bytes:
            var copied = 0
            for index in bytes.indices {
                let place = tracker.pass(UInt16(bytes[index]))
                guard bytes[index] == Self.carriageReturn, place != .markup else { continue }
                output += UnsafeRawBufferPointer(rebasing: bytes[copied..<index])
                output += place == .cdata ? Self.cdataReplacement : Self.textReplacement
                copied = index + 1
            }
            output += UnsafeRawBufferPointer(rebasing: bytes[copied...])
        case .utf16(let bigEndian):
            let end = bytes.count & ~1
            var copied = 0
            for index in stride(from: 0, to: end, by: 2) {
                let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                let unit = UInt16(high) << 8 | UInt16(low)
                let place = tracker.pass(unit)
                guard unit == UInt16(Self.carriageReturn), place != .markup else { continue }
                output += UnsafeRawBufferPointer(rebasing: bytes[copied..<index])
                for byte in place == .cdata ? Self.cdataReplacement : Self.textReplacement {
                    output.append(bigEndian ? 0 : byte)
                    output.append(bigEndian ? byte : 0)
                }
                copied = index + 2
            }
            output += UnsafeRawBufferPointer(rebasing: bytes[copied..<end])
            held += bytes[end...]
        }
    }

    /// libxml2's choice of encoding by the first bytes, reduced to what matters here.
    private static func layout(of start: [UInt8]) -> Layout {
        if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return .utf16(bigEndian: true) }
        if start.starts(with: [0xFF, 0xFE]) || start.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return .utf16(bigEndian: false) }
        // UCS-4 in any byte order has zero bytes among its first four; EBCDIC's `<?xm`.
        if start.prefix(4).contains(0) || start.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) { return .unchanged }
        return .bytes
    }

    private static let carriageReturn: UInt8 = 0x0D
    private static let textReplacement = Array("&#13;".utf8)
    private static let cdataReplacement = Array("]]>&#13;<![CDATA[".utf8)
}
