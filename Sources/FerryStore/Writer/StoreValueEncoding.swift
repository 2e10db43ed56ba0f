import FerryModel

extension StoreValue {
    /// A typed attribute value in Core Data's storage form: booleans 0/1, dates and decimals as
    /// reals (Core Data stores Decimal in a DECIMAL column and reads it back as a real), UUIDs as
    /// their 16 bytes, URIs as text, binary values as their bytes, tagged
    /// (`ExternalBinaryData.encode`) when `externallyStorable`: the attribute allows external
    /// storage. Every value bound to an attribute's column, or compared with one in SQL, takes
    /// this form; `externallyStorable` has no default so that no caller forgets the tag.
    public init(_ value: AttributeValue, externallyStorable: Bool) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .decimal(let text): self = Double(text).map(StoreValue.real) ?? .text(text)
        case .string(let text): self = .text(text)
        case .bool(let flag): self = .integer(flag ? 1 : 0)
        case .date(let seconds): self = .real(seconds)
        case .binary(let bytes): self = .blob(externallyStorable ? ExternalBinaryData.encode(bytes) : bytes)
        case .uuid(let uuid): self = .blob(uuid.bytes)
        case .uri(let text): self = .text(text)
        }
    }
}
