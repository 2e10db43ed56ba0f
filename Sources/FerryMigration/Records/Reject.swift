/// A record that was not written, with where it came from and why.
public struct Reject: Sendable, Equatable, Codable {
    public var location: SourceLocation
    public var entity: String
    /// The attribute at fault, when one is.
    public var attribute: String?
    /// The offending value, shortened, when there is one.
    public var value: String?
    public var reason: String

    public init(location: SourceLocation, entity: String, attribute: String? = nil, value: String? = nil, reason: String) {
        self.location = location
        self.entity = entity
        self.attribute = attribute
        self.value = value
        self.reason = reason
    }

    /// One line for a terminal: `uploads.csv:14: UploadEntity.fileType: 'abc' is not an integer`.
    /// Characters a terminal would act on or not show, which a value quoted in the reason may
    /// hold, are escaped as names in messages are (`'4\r5' is not an integer`, `NameListText`).
    public var summary: String {
        NameListText.visible("\(location): \(entity)\(attribute.map { ".\($0)" } ?? ""): \(reason)")
    }
}
