import FerryModel

extension StoreValue {
    /// A typed attribute value in Core Data's storage form: booleans 0/1, dates and decimals as
    /// reals (Core Data stores Decimal in a DECIMAL column and reads it back as a real), UUIDs as
    /// their 16 bytes, URIs as text.
    public init(_ value: AttributeValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .decimal(let text): self = Double(text).map(StoreValue.real) ?? .text(text)
        case .string(let text): self = .text(text)
        case .bool(let flag): self = .integer(flag ? 1 : 0)
        case .date(let seconds): self = .real(seconds)
        case .binary(let bytes): self = .blob(bytes)
        case .uuid(let uuid): self = .blob(uuid.bytes)
        case .uri(let text): self = .text(text)
        }
    }
}

extension StoreValue {
    /// A value of an attribute; binary values of an attribute that allows external storage get
    /// Core Data's inline tag (`ExternalBinaryData`), as Core Data reads such columns.
    public init(_ value: AttributeValue, externallyStorable: Bool) {
        if externallyStorable, case .binary(let bytes) = value {
            self = .blob(ExternalBinaryData.encode(bytes))
        } else {
            self.init(value)
        }
    }
}
