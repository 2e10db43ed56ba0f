/// A destination relationship whose record a written rule makes from the source record's values:
/// `folder = Folder(name: trim(folderName), color: folderColor)` makes one `Folder` per source
/// record and links the mapped record to it.
///
/// Made records are found or created when they are written: a record equal on the made entity's
/// uniqueness constraint (or, when it has none, on all its values) is the same record, so one
/// folder name in many source records makes one folder. When the first argument (the record's
/// key) is nil or blank text, no record and no link are made; the other arguments may be nil.
///
/// For a to-many relationship, `tags = Tag(name: trim($)) for $ in split(tagList, ",")` makes one
/// record per part of a text split on a separator, `$` being the part: nil text makes none, a
/// part whose key is blank makes none, and parts that make equal records (on the entity's
/// uniqueness constraint, or on all values) link once, in the order first seen.
///
/// `color = new Color(colorID: text(uuid(postID)), hex: hexColor)` makes one record per source
/// record (per part with `for $ in split(…)`) that is never found among others: no two source
/// records share it, and it is made even when its first argument is nil. Only the made entity's
/// own uniqueness constraints can still merge it.
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

    /// `for $ in split(text, "separator")`: where the parts of a to-many rule come from.
    public struct Parts: Sendable {
        /// The text that is split; its value is nil or text.
        public var text: MappingExpression
        /// Not empty.
        public var separator: String

        public init(text: MappingExpression, separator: String) {
            self.text = text
            self.separator = separator
        }

        /// As written: `for $ in split(tagList, ",")`.
        public var description: String { "for $ in split(\(text), \(ExpressionLiteral.string(separator).description))" }

        /// The parts of `text` between occurrences of the separator's bytes, empty ones included.
        /// Split by bytes, as texts compare: split by characters, a separator followed by a
        /// combining mark (`a,\u{301}b`) was one character with it, and did not split.
        public func parts(of text: String) -> [String] {
            let bytes = Array(text.utf8), mark = Array(separator.utf8)
            var parts: [String] = []
            var start = 0, index = 0
            while index + mark.count <= bytes.count {
                if bytes[index..<(index + mark.count)].elementsEqual(mark) {
                    parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
                    index += mark.count
                    start = index
                } else {
                    index += 1
                }
            }
            parts.append(String(decoding: bytes[start...], as: UTF8.self))
            return parts
        }
    }

    /// The mapped entity's relationship that links to the made record.
    public var relationship: String
    /// The made record's entity: the relationship's destination entity or one of its sub-entities.
    public var entity: String
    public var arguments: [Argument]
    /// nil: one record (a to-one relationship); else one record per part (a to-many relationship).
    public var parts: Parts?
    /// `new Entity(…)`: every source record (every part) makes a record of its own, never found
    /// by its values.
    public var alwaysNew: Bool
    /// What a failing argument does: reject the source record (the default), or make no record.
    public var onFailure: FailurePolicy
    /// Where the rule is written (`Migrations/Workspace 2 to 3.mapping:7:3`), named in rejects.
    public var location: String

    public init(relationship: String, entity: String, arguments: [Argument], parts: Parts? = nil, alwaysNew: Bool = false,
                onFailure: FailurePolicy, location: String) {
        self.relationship = relationship
        self.entity = entity
        self.arguments = arguments
        self.parts = parts
        self.alwaysNew = alwaysNew
        self.onFailure = onFailure
        self.location = location
    }

    /// The constructor as written: `Folder(name: trim(folderName), color: folderColor)`,
    /// `Tag(name: trim($)) for $ in split(tagList, ",")`, `new Color(hex: hexColor)`.
    public var description: String {
        (alwaysNew ? "new " : "") + "\(entity)(\(arguments.map { "\($0.attribute): \($0.expression)" }.joined(separator: ", ")))" + (parts.map { " " + $0.description } ?? "")
    }

    /// The source attributes the rule reads.
    public var sourceAttributes: [String] {
        Set(expressions.flatMap(\.referencedAttributes)).sorted()
    }

    /// The expressions of the arguments, and the split text.
    var expressions: [MappingExpression] { arguments.map(\.expression) + (parts.map { [$0.text] } ?? []) }
}
