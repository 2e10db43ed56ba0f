/// A destination relationship whose record a written rule makes from the source record's values:
/// `folder = Folder(name: trim(folderName), color: folderColor)` makes one `Folder` per source
/// record and links the mapped record to it.
///
/// Made records are found or created when they are written: a record equal on the made entity's
/// uniqueness constraint (or, when it has none, on all its values) is the same record, so one
/// folder name in many source records makes one folder. When the first argument (the record's
/// key) is nil or blank text, no record and no link are made; the other arguments may be nil.
public struct MadeRecordRule: Sendable, CustomStringConvertible {
    /// One `attribute: expression` argument.
    public struct Argument: Sendable {
        /// The made entity's attribute (in the step's destination version).
        public var attribute: String
        public var expression: MappingExpression

        public init(attribute: String, expression: MappingExpression) {
            self.attribute = attribute
            self.expression = expression
        }
    }

    /// The mapped entity's relationship that links to the made record.
    public var relationship: String
    /// The made record's entity: the relationship's destination entity or one of its sub-entities.
    public var entity: String
    public var arguments: [Argument]
    /// What a failing argument does: reject the source record (the default), or make no record.
    public var onFailure: FailurePolicy
    /// Where the rule is written (`Migrations/Workspace 2 to 3.mapping:7:3`), named in rejects.
    public var location: String

    public init(relationship: String, entity: String, arguments: [Argument], onFailure: FailurePolicy, location: String) {
        self.relationship = relationship
        self.entity = entity
        self.arguments = arguments
        self.onFailure = onFailure
        self.location = location
    }

    /// The constructor as written: `Folder(name: trim(folderName), color: folderColor)`.
    public var description: String {
        "\(entity)(\(arguments.map { "\($0.attribute): \($0.expression)" }.joined(separator: ", ")))"
    }

    /// The source attributes the rule reads.
    public var sourceAttributes: [String] {
        Set(arguments.flatMap(\.expression.referencedAttributes)).sorted()
    }
}
