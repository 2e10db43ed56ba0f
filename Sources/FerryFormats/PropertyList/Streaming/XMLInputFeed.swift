import CLibXML2

/// What libxml2's reader callbacks need: the bytes to parse (first the ones the prolog guard
/// already read, then the rest of the ``ByteSource``), their carriage returns in text escaped
/// (``XMLCarriageReturnEscaper``), and a place for the errors they meet.
///
/// Reached from C through an unretained pointer; the owning ``XMLPlistStream`` keeps it alive.
final class XMLInputFeed {
    private var source: any ByteSource
    private var replay: [UInt8]
    private var escaper = XMLCarriageReturnEscaper()
    /// Escaped bytes not yet handed to libxml2.
    private var escaped: [UInt8] = []
    private var escapedOffset = 0
    /// A chunk read from `source`, before escaping.
    private var chunk: [UInt8] = []
    private var sourceEnded = false
    /// The error `source` threw; libxml2 only learns that the read failed.
    private(set) var sourceError: (any Error)?
    /// libxml2's first error (later ones are usually consequences of it).
    private(set) var firstError: PropertyListError?

    /// Whether carriage returns are escaped: not for a regular file that holds none (most do
    /// not), whose bytes then go to libxml2 as they are, without following its markup.
    private let escapes: Bool

    init(source: any ByteSource, replaying replay: [UInt8]) {
        self.source = source
        self.replay = replay
        // The replayed bytes are the file's first ones: the scan from its start covers them.
        escapes = source.wholeInputContains(0x0D) != false
    }

    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> XMLInputFeed? {
        pointer.map { Unmanaged<XMLInputFeed>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Fills `buffer`; 0 at the end, -1 when the source failed.
    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer) -> Int32 {
        guard sourceError == nil, !buffer.isEmpty else { return sourceError == nil ? 0 : -1 }
        while escapedOffset == escaped.count {
            guard !sourceEnded else { return 0 }
            escaped.removeAll(keepingCapacity: true)
            escapedOffset = 0
            do {
                try escapeNextChunk(size: buffer.count)
            } catch {
                sourceError = error
                return -1
            }
        }
        let count = min(buffer.count, escaped.count - escapedOffset)
        escaped.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[escapedOffset..<escapedOffset + count])) }
        escapedOffset += count
        return Int32(count)
    }

    /// Escapes the replayed bytes, else up to `size` bytes of the source, into `escaped`; at the
    /// source's end, what the escaper held back.
    private func escapeNextChunk(size: Int) throws {
        if !replay.isEmpty {
            replay.withUnsafeBytes { pass($0) }
            replay = []
            return
        }
        if chunk.count != size { chunk = [UInt8](repeating: 0, count: size) }
        let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        if count == 0 {
            if escapes { escaper.finish(into: &escaped) }
            sourceEnded = true
        } else {
            chunk.withUnsafeBytes { pass(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Puts `bytes` after the ones not yet handed to libxml2, escaped when `escapes`.
    private func pass(_ bytes: UnsafeRawBufferPointer) {
        if escapes { escaper.escape(bytes, into: &escaped) } else { escaped += bytes }
    }

    fileprivate func record(_ error: UnsafeMutablePointer<xmlError>) {
        guard firstError == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
        let trimmed = String(message.reversed().drop { $0 == "\n" || $0 == " " }.reversed())
        let line = Int(error.pointee.line)
        firstError = error.pointee.code == Int32(XML_ERR_UNSUPPORTED_ENCODING.rawValue)
            ? .xml(.unsupportedEncoding(trimmed), line: line)
            : .xml(.malformed(trimmed), line: line)
    }
}

/// `xmlInputReadCallback` over an ``XMLInputFeed``.
let xmlInputFeedRead: xmlInputReadCallback = { context, buffer, length in
    guard let feed = XMLInputFeed.from(context), let buffer, length > 0 else { return -1 }
    return feed.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
}

/// `xmlStructuredErrorFunc` that keeps the first error in an ``XMLInputFeed``.
let xmlInputFeedRecordError: xmlStructuredErrorFunc = { context, error in
    guard let feed = XMLInputFeed.from(context), let error else { return }
    feed.record(error)
}
