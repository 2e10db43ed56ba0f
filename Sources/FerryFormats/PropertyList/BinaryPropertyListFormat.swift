/// Layout facts of Apple's binary property list format (`bplist00`), shared by reader and writer.
///
/// A file is the 8-byte header, the objects, the offset table (one big-endian offset per object)
/// and a 32-byte trailer. An object starts with a marker byte: the high nibble is the kind, the
/// low nibble a size or count (0xF: the count follows as an integer object).
enum BinaryPropertyListFormat {
    static let magic: [UInt8] = Array("bplist0".utf8)
    static let header: [UInt8] = Array("bplist00".utf8)
    static let headerSize = 8
    static let trailerSize = 32
    /// The low nibble that says "the count follows as an integer object".
    static let extendedCount: UInt8 = 0x0F

    static let markerFalse: UInt8 = 0x08
    static let markerTrue: UInt8 = 0x09
    static let markerDate: UInt8 = 0x33
    static let markerReal32: UInt8 = 0x22
    static let markerReal64: UInt8 = 0x23

    /// Object kinds, the high nibble of a marker byte.
    enum Kind: UInt8 {
        case singleton = 0x0, integer = 0x1, real = 0x2, date = 0x3, data = 0x4
        case asciiString = 0x5, utf16String = 0x6, uid = 0x8
        case array = 0xA, set = 0xC, dictionary = 0xD
    }
}
