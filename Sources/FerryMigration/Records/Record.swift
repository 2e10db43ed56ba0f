import FerryModel
import FerryStore

/// One record of one entity: its values in `RecordSchema` order, where it came from, its identity
/// in its source (for links from other records), its links to other records, and the records it
/// carries (nested objects of a document, records a mapping makes from its values).
public struct Record: Sendable, Equatable {
    public var values: [AttributeValue]
    public var location: SourceLocation
    public var key: RecordKey?
    public var links: [RecordLink]
    /// Records written with this one, before it, in the same run; its links name them by key.
    public var embedded: [EmbeddedRecord]
    /// The object's `Z_PK` and `Z_OPT` in the store it is migrated from, when the new store keeps
    /// that store's identity (its URIs stay valid); nil for a new object.
    public var identity: ObjectIdentity?

    public init(values: [AttributeValue], location: SourceLocation, key: RecordKey? = nil, links: [RecordLink] = [],
                embedded: [EmbeddedRecord] = [], identity: ObjectIdentity? = nil) {
        self.values = values
        self.location = location
        self.key = key
        self.links = links
        self.embedded = embedded
        self.identity = identity
    }
}

/// A record of another entity that a record carries: a nested object inside a relationship key
/// (`"attachments": [{"remotePath": "/a.jpg"}]`). Its `record.key` is unique within its source
/// (`EmbeddedRecord.key(at:)`), and the carrying record links to it with `.key`.
public struct EmbeddedRecord: Sendable, Equatable {
    /// The entity the record is of (in the model its values are laid out for).
    public var entity: String
    public var record: Record
    /// Whether the record, when its entity has no uniqueness constraint or identity key, is found
    /// by all its values (a record a mapping makes from values: equal values are one record).
    public var findByValues: Bool
    /// Whether the object gave nothing but values of its entity's uniqueness constraints (a
    /// reference, `{"code": "P1"}`): it finds its record and never replaces that record's other
    /// values, keep-newest or not.
    public var onlyNamesItsRecord: Bool

    public init(entity: String, record: Record, findByValues: Bool = false, onlyNamesItsRecord: Bool = false) {
        self.entity = entity
        self.record = record
        self.findByValues = findByValues
        self.onlyNamesItsRecord = onlyNamesItsRecord
    }

    /// The source key of a carried record found at `location` (its carrier's line, and the key
    /// path down to it, `[3].attachments[1]`): a text no file key holds (it starts with U+0001),
    /// unique within the source because every record of a source has its own line or index.
    public static func key(at location: SourceLocation) -> RecordKey {
        .text("\u{1}\(location.line.map(String.init) ?? "")\u{1}\(location.path ?? "")")
    }

    /// How a message names the record whose source key is `text` when Ferry made that key (a
    /// nested object's, `key(at:)`: `the nested object at line 3, [1].items[0]`; a record a
    /// mapping made, `RecordMaker`: `a record a mapping made`); nil for a key a source gave.
    public static func description(ofKey text: String) -> String? {
        if text.hasPrefix("\u{2}") { return "a record a mapping made" }
        guard text.hasPrefix("\u{1}") else { return nil }
        let parts = text.dropFirst().split(separator: "\u{1}", maxSplits: 1, omittingEmptySubsequences: false)
        let line = parts.first.flatMap { $0.isEmpty ? nil : "line \($0)" }
        let path = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
        return "the nested object at " + [line, path].compactMap { $0 }.joined(separator: ", ")
    }

    /// The carried records of `record`, depth first, each before the record that carries it and
    /// listed without the records it carries itself (they are listed before it): a record nested
    /// two levels down is listed, and written, once.
    public static func flattened(_ record: Record) -> [EmbeddedRecord] {
        record.embedded.flatMap { item in
            var own = item
            own.record.embedded = []
            return flattened(item.record) + [own]
        }
    }
}
