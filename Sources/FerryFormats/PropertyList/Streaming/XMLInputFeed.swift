import CLibXML2

/// What libxml2's reader callbacks need: the bytes to parse (first the ones the prolog guard
/// already read, then the rest of the ``ByteSource``) and a place for the errors they meet.
///
/// Reached from C through an unretained pointer; the owning ``XMLPlistStream`` keeps it alive.
final class XMLInputFeed {
    private var source: any ByteSource
    private var replay: [UInt8]
    private var replayOffset = 0
    /// The error `source` threw; libxml2 only learns that the read failed.
    private(set) var sourceError: (any Error)?
    /// libxml2's first error (later ones are usually consequences of it).
    private(set) var firstError: PropertyListError?

    init(source: any ByteSource, replaying replay: [UInt8]) {
        self.source = source
        self.replay = replay
    }

    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> XMLInputFeed? {
        pointer.map { Unmanaged<XMLInputFeed>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Fills `buffer`; 0 at the end, -1 when the source failed.
    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer) -> Int32 {
        guard sourceError == nil, !buffer.isEmpty else { return sourceError == nil ? 0 : -1 }
        if replayOffset < replay.count {
            let count = min(buffer.count, replay.count - replayOffset)
            replay.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[replayOffset..<replayOffset + count])) }
            replayOffset += count
            if replayOffset == replay.count { (replay, replayOffset) = ([], 0) }
            return Int32(count)
        }
        do {
            return Int32(try source.read(into: buffer))
        } catch {
            sourceError = error
            return -1
        }
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
