/// Passes a file's bytes on to its reader unchanged and counts its records on the way with a
/// `RecordCensus`, a scanner of its own: the file is read once, and counted twice. The count is
/// left in `census` when the reader reaches the end of the file.
///
/// The census reads code units, as the readers do after their transcoding: a UTF-8 byte order
/// mark is dropped, and a file that starts with a UTF-16 one (or with `<?` in UTF-16, as an XML
/// property list may) is read as UTF-16 units.
public struct CensusTap<Census: RecordCensus>: ByteSource {
    /// Where the count is left.
    public let census = FileCensus()
    public var name: String { source.name }

    private var source: any ByteSource
    private var counter: Census
    private var encoding: Encoding?
    /// The first bytes, until there are enough to decide the encoding.
    private var prefix: [UInt8] = []
    /// UTF-16 input: the first byte of a unit whose second is in the next read.
    private var oddByte: UInt8?
    /// UTF-16 input: the units of the last read, reused.
    private var units: [UInt16] = []
    private var ended = false

    private enum Encoding { case utf8, utf16LittleEndian, utf16BigEndian }

    public init(_ source: some ByteSource, census counter: Census) {
        self.source = source
        self.counter = counter
    }

    public func wholeInputContains(_ byte: UInt8) -> Bool? {
        source.wholeInputContains(byte)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try source.read(into: buffer)
        if count > 0 {
            take(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        } else if !buffer.isEmpty, !ended {
            ended = true
            if encoding == nil { decide() }
            census.publish(oddByte == nil ? counter.finish() : .malformed("the UTF-16 text ends in half a code unit"))
        }
        return count
    }

    private mutating func take(_ bytes: UnsafeRawBufferPointer) {
        guard encoding != nil else {
            prefix.append(contentsOf: bytes)
            if prefix.count >= 4 { decide() }
            return
        }
        scan(bytes)
    }

    /// Decides the encoding from the first bytes and scans them, their byte order mark left out.
    private mutating func decide() {
        let bom: Int
        switch prefix.count >= 2 ? (prefix[0], prefix[1]) : (0, 0) {
        case (0xEF, 0xBB) where prefix.count >= 3 && prefix[2] == 0xBF: (encoding, bom) = (.utf8, 3)
        case (0xFF, 0xFE): (encoding, bom) = (.utf16LittleEndian, 2)
        case (0xFE, 0xFF): (encoding, bom) = (.utf16BigEndian, 2)
        case (0x3C, 0x00) where prefix.count >= 4 && prefix[2] == 0x3F && prefix[3] == 0x00: (encoding, bom) = (.utf16LittleEndian, 0)
        case (0x00, 0x3C) where prefix.count >= 4 && prefix[2] == 0x00 && prefix[3] == 0x3F: (encoding, bom) = (.utf16BigEndian, 0)
        default: (encoding, bom) = (.utf8, 0)
        }
        let first = prefix
        prefix = []
        first.withUnsafeBytes { scan(UnsafeRawBufferPointer(rebasing: $0[min(bom, $0.count)...])) }
    }

    private mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        switch encoding {
        case .utf8?, nil:
            counter.scan(bytes.assumingMemoryBound(to: UInt8.self))
        case .utf16LittleEndian?, .utf16BigEndian?:
            let bigEndian = encoding == .utf16BigEndian
            units.removeAll(keepingCapacity: true)
            var index = 0
            if let first = oddByte {
                units.append(Self.unit(first, bytes[0], bigEndian: bigEndian))
                oddByte = nil
                index = 1
            }
            while index + 1 < bytes.count {
                units.append(Self.unit(bytes[index], bytes[index + 1], bigEndian: bigEndian))
                index += 2
            }
            if index < bytes.count { oddByte = bytes[index] }
            units.withUnsafeBufferPointer { counter.scan($0) }
        }
    }

    private static func unit(_ first: UInt8, _ second: UInt8, bigEndian: Bool) -> UInt16 {
        bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
    }
}
