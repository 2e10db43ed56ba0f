/// The one codec of values of Binary attributes that allow external storage
/// (`allowsExternalBinaryDataStorage`). Core Data stores such a value tagged by its first byte:
/// `0x01` then the bytes themselves, or, for a value it moved out of the database, `0x02` then
/// the name of a file (ASCII, ended by a NUL) in the store's external data folder
/// (`ExternalDataFolder`). An empty column value reads as empty bytes.
///
/// Every writer of such columns stores `encode`'s form and every reader takes the value through
/// `decode` (or `withBytes`, `bytes`, which also read an external value's file), so no other code
/// knows the tag. SQL cannot see through it: predicates compare these attributes with nil only
/// (`PredicateValueConversion`), which the tag leaves unchanged.
public enum ExternalBinaryData {
    public static let inlineTag: UInt8 = 1
    public static let externalTag: UInt8 = 2
    /// The longest column value a reference can be: the tag, a file name of at most 255 bytes
    /// (`NAME_MAX`), a NUL.
    public static let longestReference = 1 + 255 + 1

    // MARK: Writing

    /// The column value Core Data writes for `bytes` kept in the database.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { source in
            [UInt8](unsafeUninitializedCapacity: encodedCount(source.count)) { buffer, count in
                encode(source, into: UnsafeMutableRawBufferPointer(buffer))
                count = encodedCount(source.count)
            }
        }
    }

    /// The column value Core Data writes for a value it moved out of the database, into the file
    /// `fileName` of the store's external data folder: the tag, the name, a NUL.
    public static func reference(to fileName: String) -> [UInt8] {
        [externalTag] + Array(fileName.utf8) + [0]
    }

    /// The size of the column value of `count` bytes.
    static func encodedCount(_ count: Int) -> Int {
        count + 1
    }

    /// Writes the column value of `bytes` at the start of `buffer`, which holds at least
    /// `encodedCount(bytes.count)` bytes.
    static func encode(_ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer) {
        buffer[0] = inlineTag
        guard !bytes.isEmpty else { return }
        UnsafeMutableRawBufferPointer(rebasing: buffer[1...]).copyMemory(from: bytes)
    }

    // MARK: Reading

    /// What a column value holds: its inline bytes (a slice of `stored`, not a copy) or the name
    /// of the file holding them.
    /// - Throws: `.unknownTag` when the first byte is neither tag, `.invalidFileName` when a
    ///   reference does not name a plain file.
    public static func decode<Stored: Collection<UInt8>>(
        _ stored: Stored
    ) throws(ExternalBinaryDataError) -> ExternalBinaryValue<Stored.SubSequence> {
        guard let tag = stored.first else { return .inline(stored[...]) }
        let rest = stored.dropFirst()
        switch tag {
        case inlineTag:
            return .inline(rest)
        case externalTag:
            let name = String(decoding: rest.prefix { $0 != 0 }, as: UTF8.self)
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { throw .invalidFileName(name) }
            return .external(fileName: name)
        default:
            throw .unknownTag(tag)
        }
    }

    /// Lends `body` the bytes a column value stands for: inline bytes where they are, an external
    /// value's read from its file beside the store at `storePath`.
    public static func withBytes<Value>(
        of stored: UnsafeRawBufferPointer, storePath: String, _ body: (UnsafeRawBufferPointer) -> Value
    ) throws(ExternalBinaryDataError) -> Value {
        switch try decode(stored) {
        case .inline(let bytes):
            return body(UnsafeRawBufferPointer(rebasing: bytes))
        case .external(let name):
            return try ExternalDataFolder.read(fileNamed: name, besideStore: storePath).withUnsafeBytes(body)
        }
    }

    /// The bytes a column value stands for (`withBytes`).
    public static func bytes(of stored: [UInt8], storePath: String) throws(ExternalBinaryDataError) -> [UInt8] {
        // `Array.withUnsafeBytes` does not pass typed errors through: carried out as a `Result`.
        try stored.withUnsafeBytes { stored in
            Result { () throws(ExternalBinaryDataError) in try withBytes(of: stored, storePath: storePath) { Array($0) } }
        }.get()
    }
}
