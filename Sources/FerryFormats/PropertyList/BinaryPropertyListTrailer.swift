/// The validated 32-byte trailer of a binary property list.
struct BinaryPropertyListTrailer {
    /// Bytes per offset-table entry (1...8).
    let offsetSize: Int
    /// Bytes per object reference inside containers (1...8).
    let objectReferenceSize: Int
    let objectCount: Int
    let topObject: Int
    /// Where the offset table starts; objects lie in `headerSize..<offsetTableStart`.
    let offsetTableStart: Int

    /// Reads and checks the header and trailer: sizes in range, the offset table between the
    /// objects and the trailer, the top object among the objects.
    init(_ bytes: UnsafeBufferPointer<UInt8>) throws(PropertyListError) {
        let format = BinaryPropertyListFormat.self
        guard bytes.count >= format.headerSize + 1 + 1 + format.trailerSize,
              bytes.prefix(format.magic.count).elementsEqual(format.magic) else {
            throw .binary(.notBinaryPropertyList, offset: 0)
        }
        let start = bytes.count - format.trailerSize
        let offsetSize = Int(bytes[start + 6])
        let referenceSize = Int(bytes[start + 7])
        let objectCount = bytes.bigEndianInteger(at: start + 8, width: 8)
        let topObject = bytes.bigEndianInteger(at: start + 16, width: 8)
        let tableStart = bytes.bigEndianInteger(at: start + 24, width: 8)

        guard (1...8).contains(offsetSize), offsetSize == 8 || tableStart >> (8 * offsetSize) == 0 else {
            throw .binary(.invalidOffsetSize(offsetSize), offset: start + 6)
        }
        guard objectCount >= 1, objectCount <= UInt64(start) else {
            throw .binary(.invalidTrailer("object count \(objectCount)"), offset: start + 8)
        }
        guard (1...8).contains(referenceSize), referenceSize == 8 || (objectCount - 1) >> (8 * referenceSize) == 0 else {
            throw .binary(.invalidObjectReferenceSize(referenceSize), offset: start + 7)
        }
        guard topObject < objectCount else {
            throw .binary(.invalidTrailer("top object \(topObject) of \(objectCount)"), offset: start + 16)
        }
        let tableBytes = objectCount * UInt64(offsetSize) // cannot overflow: both are small
        guard tableStart > UInt64(format.headerSize), tableStart <= UInt64(start), tableBytes <= UInt64(start) - tableStart else {
            throw .binary(.invalidTrailer("offset table at \(tableStart) does not fit before the trailer"), offset: start + 24)
        }
        self.offsetSize = offsetSize
        self.objectReferenceSize = referenceSize
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTableStart = Int(tableStart)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The unsigned big-endian integer of `width` (1...8) bytes at `offset`; the caller checks bounds.
    func bigEndianInteger(at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + width) {
            value = value << 8 | UInt64(self[index])
        }
        return value
    }
}
