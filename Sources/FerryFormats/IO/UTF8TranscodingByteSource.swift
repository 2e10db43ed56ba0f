/// Presents a text stream as UTF-8, deciding by its byte order mark.
///
/// - A UTF-8 BOM (`EF BB BF`) is dropped.
/// - A UTF-16 BOM (`FF FE` little-endian, `FE FF` big-endian) is dropped and the rest is
///   transcoded to UTF-8 as it streams; an unpaired surrogate becomes bytes no UTF-8 reader
///   takes (so the text holding it is refused where it is), and a truncated end is an error.
/// - Anything else passes through untouched (UTF-8, ASCII, or legacy 8-bit text).
public struct UTF8TranscodingByteSource: ByteSource {
    /// The encoding found at the start of the stream.
    public enum Encoding: Sendable, Equatable {
        /// No BOM: bytes pass through.
        case unmarked
        case utf8WithBOM
        case utf16LittleEndian
        case utf16BigEndian
    }

    public var name: String { base.name }
    /// The detected encoding; `nil` until the first read.
    public private(set) var encoding: Encoding?

    /// Not generic: the wrapped source is read once per chunk, so the existential costs nothing,
    /// and readers built on this type stay non-generic (fully optimized across modules).
    private var base: any ByteSource
    /// Bytes read from `base` but not yet used (the BOM probe, or UTF-16 input).
    private var input: [UInt8] = []
    private var inputStart = 0
    /// Offset in `base` of `input[0]`, for error messages.
    private var inputOffset = 0
    /// Transcoded UTF-8 not yet handed out.
    private var output: [UInt8] = []
    private var outputStart = 0
    private var baseEnded = false
    private let chunkSize: Int

    /// Wraps `base`; UTF-16 input is read from it `chunkSize` bytes at a time.
    public init(_ base: some ByteSource, chunkSize: Int = 64 * 1024) {
        self.base = base
        self.chunkSize = max(chunkSize, 4)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !buffer.isEmpty else { return 0 }
        let encoding = try self.encoding ?? detectEncoding()
        switch encoding {
        case .unmarked, .utf8WithBOM:
            if inputStart < input.count { return Self.takeBuffered(input, start: &inputStart, into: buffer) }
            return try base.read(into: buffer)
        case .utf16LittleEndian, .utf16BigEndian:
            while outputStart == output.count {
                guard try transcodeNextChunk(bigEndian: encoding == .utf16BigEndian) else { return 0 }
            }
            return Self.takeBuffered(output, start: &outputStart, into: buffer)
        }
    }

    /// Reads until three bytes are in or the stream ends, then consumes a BOM if one is there.
    private mutating func detectEncoding() throws -> Encoding {
        while input.count < 3, try fillInput() {}
        let detected: Encoding
        let bomLength: Int
        if input.starts(with: [0xEF, 0xBB, 0xBF]) {
            (detected, bomLength) = (.utf8WithBOM, 3)
        } else if input.starts(with: [0xFF, 0xFE]) {
            (detected, bomLength) = (.utf16LittleEndian, 2)
        } else if input.starts(with: [0xFE, 0xFF]) {
            (detected, bomLength) = (.utf16BigEndian, 2)
        } else {
            (detected, bomLength) = (.unmarked, 0)
        }
        inputStart = bomLength
        encoding = detected
        return detected
    }

    /// Appends one chunk from `base` to `input`; returns false at the end of `base`.
    private mutating func fillInput() throws -> Bool {
        guard !baseEnded else { return false }
        let oldCount = input.count
        input.append(contentsOf: repeatElement(0, count: chunkSize))
        let count = try input.withUnsafeMutableBytes { all in
            try base.read(into: UnsafeMutableRawBufferPointer(rebasing: all[oldCount...]))
        }
        input.removeLast(chunkSize - count)
        if count == 0 { baseEnded = true }
        return count > 0
    }

    /// Transcodes the complete UTF-16 code units in `input` into `output`; when there are none,
    /// reads more input instead. Returns false when the input is exhausted.
    private mutating func transcodeNextChunk(bigEndian: Bool) throws -> Bool {
        // Keep the unconsumed tail (an odd byte or a lone high surrogate) in front of new input.
        input.removeFirst(inputStart)
        inputOffset += inputStart
        inputStart = 0
        output.removeAll(keepingCapacity: true)
        outputStart = 0
        var index = 0
        let end = input.count
        while index + 1 < end {
            let unit = codeUnit(at: index, bigEndian: bigEndian)
            var scalar = UInt32(unit)
            var width = 2
            if unit & 0xFC00 == 0xD800 {
                guard index + 3 < end else { break }  // the low surrogate is in the next chunk
                let low = codeUnit(at: index + 2, bigEndian: bigEndian)
                // Paired, the two are one scalar; a lone surrogate is passed on as the three
                // bytes it would take (ED A0–BF …), which no UTF-8 reader takes: the field or
                // string holding it is refused where it is (a reject of its row, with its line),
                // as the same fault in a UTF-8 file is, not the whole file.
                if low & 0xFC00 == 0xDC00 {
                    scalar = 0x10000 + ((UInt32(unit) & 0x3FF) << 10 | (UInt32(low) & 0x3FF))
                    width = 4
                }
            }
            appendUTF8(scalar)
            index += width
        }
        inputStart = index
        if !output.isEmpty { return true }
        if try fillInput() { return true }
        if inputStart == input.count { return false }
        throw ByteSourceError.truncatedUTF16(source: name, byteOffset: inputOffset + inputStart)
    }

    private func codeUnit(at index: Int, bigEndian: Bool) -> UInt16 {
        let first = UInt16(input[index]), second = UInt16(input[index + 1])
        return bigEndian ? first << 8 | second : second << 8 | first
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Copies as much of `bytes[start...]` as fits into `buffer` and advances `start`.
    private static func takeBuffered(_ bytes: [UInt8], start: inout Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - start)
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[start..<start + count]))
        }
        start += count
        return count
    }
}
