/// A stored value lent as SQLite holds it, when that is exactly the attribute value a record
/// would have: NULL; an integer of an integer attribute, in its range; ASCII text of a string
/// or URI attribute (other text goes through `String`, which repairs invalid UTF-8); the bytes of
/// a binary attribute (of one that allows external storage, the inline bytes after the tag:
/// `ExternalBinaryData`). See `StoredRecordCursor.forEachPlainValue(at:_:)`.
public enum PlainStoredValue {
    case null
    case integer(Int64)
    /// ASCII text.
    case text(UnsafeRawBufferPointer)
    case bytes(UnsafeRawBufferPointer)

    /// Whether every byte is below 0x80, eight at a time.
    static func isASCII(_ text: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = text.count
        var high: UInt64 = 0
        while index + 8 <= count {
            high |= text.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            high |= UInt64(text[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
