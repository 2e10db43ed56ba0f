#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte level of the JSON reader: a buffer over the source, whitespace, positions, and the
/// scanners for single tokens (in the `JSONScanner+…` files).
///
/// Between tokens the buffer is a fixed-size window that is refilled as the input streams. A token
/// in progress (a string, a number, a literal) is kept whole: when it reaches the end of the
/// window its start moves to the front, and when it fills the window the window doubles. So every
/// token is scanned and decoded from one contiguous span, and memory follows the longest token. A
/// token longer than `maxTokenBytes` is refused before the window grows past that and one window
/// more (a value's or key's is then read past and noted, `oversizedAt`), and a window that grew
/// for a long token shrinks back as soon as that token is decoded.
struct JSONScanner: ~Copyable {
    private var source: UTF8TranscodingByteSource
    /// The window: `bytes[position..<filled]` is read and not yet consumed.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The capacity asked for, which a window grown for a long token returns to.
    private let baseCapacity: Int
    var position = 0
    private(set) var filled = 0
    /// Stream offset of `bytes[0]`.
    private var windowOffset = 0
    /// The current line (1-based) and the stream offset where it starts.
    private(set) var line = 1
    private var lineStart = 0
    /// Whether the last whitespace byte read was a carriage return that ended a line (a document's
    /// lines may end in CR, CRLF or LF): the line feed of a CRLF then ends no second line.
    private var lineEndedByCR = false
    /// Line feeds read so far: NDJSON's line ends (a document's CR-only line ends are not).
    private(set) var lineFeeds = 0
    /// The stream offset of a carriage return that was the last byte the last `peekToken` skipped
    /// (nil: it skipped none, or something else last), however far the window has moved since.
    private var carriageReturnBeforeToken: Int?
    /// Deepest container nesting allowed.
    let maxDepth: Int
    /// The longest token (a string with its quotes and escapes, a number) accepted.
    let maxTokenBytes: Int
    /// When false (inside an NDJSON record), a line feed is not whitespace: it ends the record.
    var lineBreaksAreWhitespace = true
    /// Containers under construction by `parseValue`, kept to reuse their storage.
    var containers: [JSONContainer] = []
    /// Decoded bytes of a string with escapes.
    var scratch: [UInt8] = []
    /// Where the first token longer than `maxTokenBytes` that `parseValue` or `parseKey` read past
    /// began (`JSONScanner+Oversized`); the reader clears it before a record and looks after.
    var oversizedAt: JSONPosition?
    /// Whether a value or key longer than `maxTokenBytes` is read past and noted in `oversizedAt`
    /// (a reader that refuses its record) rather than thrown (`JSONValue(parsing:)`).
    var readsPastLongTokens = false

    init(source: some ByteSource, maxDepth: Int, maxTokenBytes: Int, bufferSize: Int) {
        // The transcoder's chunk size bounds its first read (the byte order mark probe) too.
        self.source = UTF8TranscodingByteSource(source, chunkSize: max(bufferSize, 4))
        self.maxDepth = maxDepth
        self.maxTokenBytes = max(maxTokenBytes, 1)
        capacity = max(bufferSize, 1)
        baseCapacity = capacity
        // The base window's size is the reader's own (`bufferSize`), not the input's: failing to
        // get it is the process running out of memory, as for any allocation.
        guard let window = Self.resized(nil, to: capacity) else { fatalError("no memory for a JSON window of \(capacity) bytes") }
        bytes = window
    }

    deinit {
        free(bytes)
    }

    /// The window's memory comes from the C allocator, so that it grows and shrinks with
    /// `realloc`: a large block changes size where it is (glibc remaps its pages), and a long
    /// token is never held twice while it is copied to a larger window.
    /// Nil when the allocator has no memory for it (the block it was given is then left as it was).
    private static func resized(_ bytes: UnsafeMutablePointer<UInt8>?, to capacity: Int) -> UnsafeMutablePointer<UInt8>? {
        realloc(bytes, capacity)?.assumingMemoryBound(to: UInt8.self)
    }

    var sourceName: String { source.name }

    /// The position of `bytes[index]`.
    func position(at index: Int) -> JSONPosition {
        let offset = windowOffset + index
        return JSONPosition(source: source.name, line: line, column: offset - lineStart + 1, byteOffset: offset)
    }

    func syntaxError(_ reason: JSONError.Reason, at index: Int) -> JSONError {
        .syntax(reason, at: position(at: index))
    }

    /// Reads more input after `filled`, keeping `bytes[position...]` (moved to the front, and the
    /// window doubled when it is full). Returns false at the end of the input.
    /// - Throws: ``JSONError/valueTooLarge(limit:at:)`` when what is kept, a token in progress,
    ///   is already longer than `maxTokenBytes`.
    mutating func refill() throws -> Bool {
        try checkTokenLength(filled - position)
        if position > 0 {
            let kept = filled - position
            if kept > 0 { bytes.update(from: bytes + position, count: kept) }
            windowOffset += position
            filled = kept
            position = 0
        }
        if filled == capacity {
            // Doubled, but never past what tells a token longer than the limit (a window's worth
            // more): a refused token costs about the limit, not twice it.
            let grown = min(capacity * 2, maxTokenBytes + baseCapacity)
            guard let larger = Self.resized(bytes, to: grown) else {
                throw JSONError.outOfMemory(bytes: grown, at: position(at: position))
            }
            bytes = larger
            capacity = grown
        }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: bytes + filled, count: capacity - filled))
        filled += count
        return count > 0
    }

    /// Throws ``JSONError/valueTooLarge(limit:at:)`` when the token at `position` is longer than
    /// `maxTokenBytes`, counting `length` bytes.
    func checkTokenLength(_ length: Int) throws {
        guard length <= maxTokenBytes else { throw JSONError.valueTooLarge(limit: maxTokenBytes, at: position(at: position)) }
    }

    /// Returns a window that grew for a long token (now consumed) to its base capacity, keeping
    /// what is left of it: the memory of a long value is not held while its record is used.
    mutating func shrinkWindow() {
        let kept = filled - position
        guard capacity > 4 * baseCapacity, kept <= baseCapacity else { return }
        if kept > 0 { bytes.update(from: bytes + position, count: kept) }
        // A smaller block that cannot be had leaves the larger one, which still holds the bytes.
        if let smaller = Self.resized(bytes, to: baseCapacity) {
            bytes = smaller
            capacity = baseCapacity
        }
        windowOffset += position
        filled = kept
        position = 0
    }

    /// Skips whitespace and returns the next byte without consuming it; `nil` at the end of input.
    /// With `lineBreaksAreWhitespace` off, a line feed is returned instead of skipped.
    mutating func peekToken() throws -> UInt8? {
        carriageReturnBeforeToken = nil
        while true {
            var index = position
            while index < filled {
                let byte = bytes[index]
                if byte > 0x20 {
                    position = index
                    lineEndedByCR = false
                    return byte
                }
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"):
                    index += 1
                    lineEndedByCR = false
                    carriageReturnBeforeToken = nil
                case UInt8(ascii: "\r"):
                    carriageReturnBeforeToken = windowOffset + index
                    index += 1
                    guard lineBreaksAreWhitespace else { continue }
                    line += 1
                    lineStart = windowOffset + index
                    lineEndedByCR = true
                case UInt8(ascii: "\n") where lineBreaksAreWhitespace:
                    index += 1
                    lineFeeds += 1
                    if !lineEndedByCR { line += 1 }
                    lineEndedByCR = false
                    carriageReturnBeforeToken = nil
                    lineStart = windowOffset + index
                default:
                    position = index
                    lineEndedByCR = false
                    return byte
                }
            }
            position = index
            guard try refill() else { return nil }
        }
    }

    /// Consumes `expected` as the next token, or throws naming `description`.
    mutating func expect(_ expected: UInt8, _ description: String) throws {
        guard let byte = try peekToken() else {
            throw syntaxError(.unexpectedEnd(expected: description), at: position)
        }
        guard byte == expected else {
            throw syntaxError(.unexpectedByte(byte, expected: description), at: position)
        }
        position += 1
    }

    /// Consumes an NDJSON line end: spaces, tabs and CRs, then a line feed or the end of input.
    mutating func finishLine() throws {
        let wasWhitespace = lineBreaksAreWhitespace
        lineBreaksAreWhitespace = false
        defer { lineBreaksAreWhitespace = wasWhitespace }
        guard let byte = try peekToken() else { return }
        guard byte == UInt8(ascii: "\n") else {
            // A carriage return skipped just before the next value ended the line alone (it may
            // have left the window in a refill: its offset is kept).
            if let offset = carriageReturnBeforeToken {
                throw syntaxError(.loneCarriageReturn, at: offset - windowOffset)
            }
            throw syntaxError(.unexpectedByte(byte, expected: "the end of the line"), at: position)
        }
        position += 1
        line += 1
        lineStart = windowOffset + position
    }

    /// Discards everything up to and including the next line feed (or to the end of the input),
    /// so that reading goes on after a malformed NDJSON line.
    mutating func skipRestOfLine() throws {
        while true {
            if position == filled, try !refill() { return }
            var index = position
            while index < filled, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            guard index < filled else {
                position = filled
                continue
            }
            position = index + 1
            line += 1
            lineStart = windowOffset + position
            return
        }
    }

    /// Throws unless only whitespace is left.
    mutating func expectEnd() throws {
        if try peekToken() != nil { throw syntaxError(.trailingContent, at: position) }
    }
}
