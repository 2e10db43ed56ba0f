import FerryModel

/// The identity key of a record, as `IdentityKeyTable` (FerryStore) keeps it: the identity's
/// values encoded into one blob, so that equal values give equal blobs and different values
/// different ones.
enum IdentityKey {
    /// Appends one value of an identity to its key: a type tag, then the value's bytes
    /// (variable-length ones preceded by their length, so that no two lists of values meet).
    static func append(_ value: AttributeValue, to key: inout [UInt8]) {
        switch value {
        case .null: key.append(0)
        case .integer(let number): appendTagged(1, number, to: &key)
        case .double(let number): appendTagged(2, Int64(bitPattern: stored(number).bitPattern), to: &key)
        case .date(let seconds): appendTagged(3, Int64(bitPattern: stored(seconds).bitPattern), to: &key)
        case .bool(let flag): key += [4, flag ? 1 : 0]
        case .decimal(let text): appendBytes(5, text.utf8, to: &key)
        case .string(let text): appendBytes(6, text.utf8, to: &key)
        case .uri(let text): appendBytes(7, text.utf8, to: &key)
        case .binary(let bytes): appendBytes(8, bytes, to: &key)
        case .uuid(let uuid): appendBytes(9, uuid.bytes, to: &key)
        }
    }

    /// A real as SQLite keeps it: -0.0 is stored as 0.0, so the two are one key (they were two,
    /// and `unique … keep first` left both rows, holding the same value).
    private static func stored(_ number: Double) -> Double {
        number == 0 ? 0 : number
    }

    private static func appendTagged(_ tag: UInt8, _ number: Int64, to key: inout [UInt8]) {
        key.append(tag)
        withUnsafeBytes(of: number.bigEndian) { key.append(contentsOf: $0) }
    }

    private static func appendBytes(_ tag: UInt8, _ bytes: some Collection<UInt8>, to key: inout [UInt8]) {
        appendTagged(tag, Int64(bytes.count), to: &key)
        key.append(contentsOf: bytes)
    }
}
