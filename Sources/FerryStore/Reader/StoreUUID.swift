import FoundationEssentials

/// A store's UUID as its `Z_METADATA.Z_UUID` spells it. The text is part of every object's URI
/// (`x-coredata://<Z_UUID>/Entity/pN`), so a store that keeps its identity keeps the text byte for
/// byte: a tool may have written it in lowercase, and `UUID.uuidString` would give it back in
/// uppercase, another URI. Equality is of the text; `names(sameStoreAs:)` compares the UUIDs,
/// whatever their case.
public struct StoreUUID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The text as the store holds it, written back as it is.
    public let text: String
    /// The UUID the text spells.
    public let value: UUID

    /// The UUID `text` spells, kept as `text` spells it; nil when it is not a UUID.
    public init?(_ text: String) {
        guard let value = UUID(uuidString: text) else { return nil }
        self.text = text
        self.value = value
    }

    /// `value` (a new UUID by default), spelled as Core Data spells the UUIDs it makes (uppercase).
    public init(_ value: UUID = UUID()) {
        self.value = value
        text = value.uuidString.uppercased()
    }

    /// Whether `other` is the same UUID, spelled alike or not.
    public func names(sameStoreAs other: StoreUUID) -> Bool { value == other.value }

    public var description: String { text }

    /// Encoded as its text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = StoreUUID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a UUID")
        }
        self = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
