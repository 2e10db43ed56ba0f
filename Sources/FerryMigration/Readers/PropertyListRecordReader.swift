import FerryFormats
import FerryModel

/// Reads records of one entity from a property list whose root is an array of dictionaries (or
/// one dictionary), XML or binary. Each element that is not a dictionary is a reject.
public struct PropertyListRecordReader: RecordReader, ~Copyable {
    public let sourceName: String
    private let elements: [PropertyListValue]
    private var position = 0
    private var decoder: DocumentRecordDecoder

    /// Decodes the whole document (binary plists cannot be read piecewise).
    public init(bytes: [UInt8], sourceName: String, decoder: DocumentRecordDecoder) throws(RecordSourceError) {
        self.sourceName = sourceName
        self.decoder = decoder
        let root: PropertyListValue
        do { root = try PropertyList.decode(bytes) } catch {
            throw RecordSourceError(source: sourceName, reason: error.description)
        }
        switch root {
        case .array(let elements): self.elements = elements
        case .dictionary: elements = [root]
        default: throw RecordSourceError(source: sourceName, reason: "the property list's root must be an array of dictionaries or a dictionary")
        }
    }

    public var unknownKeys: [String] { decoder.unknownKeys }

    public mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        guard position < elements.count else { return nil }
        defer { position += 1 }
        let location = SourceLocation(file: sourceName, path: "[\(position)]")
        guard case let .object(members) = DocumentValue(elements[position]) else {
            return .reject(Reject(location: location, entity: decoder.schema.entity.name,
                                  reason: "a record must be a dictionary, not \(DocumentValue(elements[position]).kindName)"))
        }
        return try decoder.decode(members, at: location)
    }
}
