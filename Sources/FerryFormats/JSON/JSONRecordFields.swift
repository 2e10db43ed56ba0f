/// One record of a JSON input read without building a value tree (``JSONReader/nextFields()``).
///
/// When the record is an object, its members' keys and plain values (strings, numbers, `true`,
/// `false`, `null`) are bytes in one buffer that is reused from record to record, so reading a
/// record of plain values allocates nothing once the buffer has grown. Only a member whose value
/// is an array or an object is parsed into a ``JSONValue``. Strings are unescaped and checked
/// UTF-8, numbers keep their exact text, and members stay in input order, duplicate keys
/// included, as in ``JSONValue``. A record that is not an object is kept as its value
/// (``nonObject``).
public struct JSONRecordFields: Sendable {
    /// What a member's value is.
    public enum Kind: Sendable, Equatable {
        /// A string; its text is the member's value bytes.
        case string
        /// A number; its exact text is the member's value bytes.
        case number(isInteger: Bool)
        case bool(Bool)
        /// `null`, or a value longer than the reader's limit, which was read past (the reader
        /// refuses the record).
        case null
        /// An array or an object, at this index of the parsed values.
        case nested(Int)
    }

    @usableFromInline
    struct Member: Sendable {
        @usableFromInline var keyEnd: Int
        @usableFromInline var kind: Kind
        @usableFromInline var valueEnd: Int
    }

    /// Where the record starts.
    public internal(set) var location = JSONRecordLocation(position: JSONPosition(source: "", line: 1, column: 1, byteOffset: 0), index: nil)
    /// The record when it is not an object; nil for an object.
    public internal(set) var nonObject: JSONValue?
    /// Keys and plain values, one after another: a member's key ends at its `keyEnd`, its value
    /// at its `valueEnd`, and the next member's key starts there.
    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline var members: [Member] = []
    var nestedValues: [JSONValue] = []

    public init() {}

    /// Empties the fields for the next record, keeping their storage.
    mutating func removeAll() {
        nonObject = nil
        bytes.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        nestedValues.removeAll(keepingCapacity: true)
    }

    /// Adds a member whose key and plain value were just appended to `bytes`.
    mutating func appendMember(keyEnd: Int, kind: Kind) {
        members.append(Member(keyEnd: keyEnd, kind: kind, valueEnd: bytes.count))
    }

    /// Adds a member whose key was just appended to `bytes` and whose value is an array or object.
    mutating func appendMember(keyEnd: Int, nested value: JSONValue) {
        nestedValues.append(value)
        appendMember(keyEnd: keyEnd, kind: .nested(nestedValues.count - 1))
    }

    /// The number of members (0 for a record that is not an object).
    @inlinable public var count: Int { members.count }

    /// What the value of member `index` is.
    @inlinable public func kind(at index: Int) -> Kind { members[index].kind }

    /// Calls `body` with the UTF-8 bytes of member `index`'s key.
    @inlinable public func withKey<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withBytes(from: keyStart(of: index), to: members[index].keyEnd, body)
    }

    /// Calls `body` with the bytes of member `index`'s plain value: a string's UTF-8 text or a
    /// number's text (empty for the other kinds).
    @inlinable public func withValue<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withBytes(from: members[index].keyEnd, to: members[index].valueEnd, body)
    }

    /// Member `index`'s key.
    public func key(at index: Int) -> String {
        withKey(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Member `index`'s value as a ``JSONValue``.
    public func value(at index: Int) -> JSONValue {
        switch members[index].kind {
        case .string: .string(withValue(at: index) { String(decoding: $0, as: UTF8.self) })
        case .number(let isInteger):
            .number(JSONNumber(validatedText: withValue(at: index) { String(decoding: $0, as: UTF8.self) }, isInteger: isInteger))
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .nested(let position): nestedValues[position]
        }
    }

    /// The whole record as a ``JSONValue``.
    public var value: JSONValue {
        nonObject ?? .object(members.indices.map { (key(at: $0), value(at: $0)) })
    }

    @inlinable func keyStart(of index: Int) -> Int {
        index == 0 ? 0 : members[index - 1].valueEnd
    }

    @inlinable func withBytes<Result>(from start: Int, to end: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }
}
