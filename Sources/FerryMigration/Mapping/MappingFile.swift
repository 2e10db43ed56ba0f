import FerryModel

/// A written mapping: the rules between two model versions that inference cannot know, kept as a
/// small text file beside the model (`Migrations/Workspace 2 to 3.mapping`) so it diffs well.
///
/// ```
/// # comments run to the end of the line
/// mapping "Workspace 2" -> "Workspace 3"
///
/// entity Upload -> Upload
///   byteCount = round(decimal(fileSize) * 1048576)      # a value expression over the source record
///   kind = fileType if fileType between 0 and 5 else 5
///   note "fileType kept as 5" if not (fileType between 0 and 5)   # records counted and reported (MappingNote)
///   createdAt = unixtime(time) on error nil             # nil (or the default) when it fails
///   where remotePath != nil                             # only these source records are carried
///   unique keep newest                                  # duplicates on the uniqueness constraints
///   unique uploadID keep first                          # or on attributes the model does not constrain
///   task <- task                                        # links carried from a source relationship
///   folder = Folder(name: trim(folderName), color: folderColor)   # a record made from values, found or created
///   tags = Tag(name: trim($)) for $ in split(tagList, ",")       # one per part of a text, for a to-many
///   color = new Color(hex: hexColor)                    # a record of its own per source record
///   thumbnail = default                                 # the destination's default, whatever inference found
///   owner <- nil                                        # no links carried into owner
///   todo "what the app's policy class did"              # unfinished: records of the entity are refused
///
/// drop Draft                                            # records of source entity Draft are not carried
/// ```
///
/// `entity A -> B` maps source entity A to destination entity B (`entity A` when the names are
/// the same). Rules override what inference found for that entity; everything else stays
/// inferred. Value expressions are described by `MappingExpression`; filters use the store query
/// syntax. Errors name the file, line and column.
public struct MappingFile: Sendable {
    /// One `entity` block.
    public struct EntityBlock: Sendable {
        public var source: String
        public var destination: String
        public var line: Int
        public var rules: [Rule] = []
        public var filter: (text: String, line: Int, column: Int)?
        public var duplicates: DuplicatePolicy?
        /// The line of the `unique` rule.
        public var uniqueLine: Int?
        /// Attributes that identify a record (`unique uploadID keep first`), when the model has no
        /// uniqueness constraint for them.
        public var identity: (attributes: [String], line: Int)?
        /// `RELATIONSHIP <- SOURCE_RELATIONSHIP`; a nil source (`RELATIONSHIP <- nil`) carries no links.
        public var links: [(destination: String, source: String?, line: Int)] = []
        /// `todo "TEXT"`: the block is unfinished, and records of its source entity are refused
        /// with TEXT until the line is deleted.
        public var todo: (text: String, line: Int)?
        /// `RELATIONSHIP = Entity(attribute: EXPRESSION, …)`: records made from the source record.
        public var constructors: [Constructor] = []
        /// `note "TEXT" if CONDITION`: records counted and reported.
        public var notes: [MappingNote] = []
    }

    /// `RELATIONSHIP = Entity(ATTRIBUTE: EXPRESSION, …) [for $ in split(TEXT, "SEPARATOR")] [on error nil|reject]`.
    public struct Constructor: Sendable {
        public var relationship: String
        public var entity: String
        public var arguments: [MadeRecordRule.Argument]
        /// `for $ in split(…)`: one record per part, for a to-many relationship.
        public var parts: MadeRecordRule.Parts?
        /// `new Entity(…)`: a record of its own per source record.
        public var alwaysNew: Bool
        /// nil: the run's default policy.
        public var onFailure: FailurePolicy?
        public var line: Int
        public var column: Int
    }

    /// `ATTRIBUTE = EXPRESSION [on error nil|reject]`, or `ATTRIBUTE = default`.
    public struct Rule: Sendable {
        public var attribute: String
        /// nil: `default`, the destination attribute's default value.
        public var expression: MappingExpression?
        /// nil: the run's default policy.
        public var onFailure: FailurePolicy?
        public var line: Int
        public var column: Int
    }

    public let path: String
    /// The versions named by the `mapping` line, when there is one.
    public var versions: (from: String, to: String)?
    public var entities: [EntityBlock] = []
    /// `drop ENTITY`: source entities whose records are not carried.
    public var dropped: [(entity: String, line: Int)] = []

    /// Parses the text of a mapping file.
    public init(text: String, path: String) throws(MappingError) {
        self.path = path
        var current: EntityBlock?
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = Self.stripComment(String(rawLine))
            let trimmed = line.trimming(" \t\r")
            guard !trimmed.isEmpty else { continue }
            let column = line.utf8.count - line.drop { $0 == " " || $0 == "\t" }.utf8.count + 1
            let words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            switch words[0] {
            case "mapping":
                let names = Self.quotedStrings(trimmed)
                guard names.count == 2, trimmed.contains("->") else {
                    throw .file(path: path, line: number, column: column, reason: #"expected mapping "FROM" -> "TO""#)
                }
                versions = (names[0], names[1])
            case "drop":
                guard words.count == 2 else { throw .file(path: path, line: number, column: column, reason: "expected drop SOURCE_ENTITY") }
                if let block = current { entities.append(block) }
                current = nil
                dropped.append((words[1], number))
            case "entity":
                if let block = current { entities.append(block) }
                guard words.count == 2 || (words.count == 4 && words[2] == "->") else {
                    throw .file(path: path, line: number, column: column, reason: "expected entity SOURCE -> DESTINATION")
                }
                current = EntityBlock(source: words[1], destination: words.count == 4 ? words[3] : words[1], line: number)
            default:
                guard var block = current else {
                    throw .file(path: path, line: number, column: column, reason: "a rule must follow an 'entity' line")
                }
                try Self.parseRule(trimmed, column: column, line: number, path: path, into: &block)
                current = block
            }
        }
        if let block = current { entities.append(block) }
        try Self.refuseConflictingBlocks(entities, path: path)
    }

    /// A second block of a source entity adds its rules to the first (later rules win: a
    /// converted mapping model is completed by a block appended below it), but it may not map
    /// the entity to another destination (the first block was dropped without a word), nor give
    /// a second `where`, `unique` or `todo` (the later one replaced the earlier).
    private static func refuseConflictingBlocks(_ entities: [EntityBlock], path: String) throws(MappingError) {
        for (index, block) in entities.enumerated() {
            for first in entities[..<index] where first.source == block.source {
                guard first.destination == block.destination else {
                    throw .file(path: path, line: block.line, column: 1, reason: "entity \(block.source) is mapped to \(block.destination) here "
                        + "and to \(first.destination) at line \(first.line); a source entity maps to one destination")
                }
                for (what, earlier, later) in [("where", first.filter?.line, block.filter?.line), ("unique", first.uniqueLine, block.uniqueLine),
                                               ("todo", first.todo?.line, block.todo?.line)] {
                    if let earlier, let later {
                        throw .file(path: path, line: later, column: 1, reason: "a second \(what) for entity \(block.source) (the first is at "
                            + "line \(earlier)): keep one")
                    }
                }
            }
        }
    }

    /// Refuses a second `where`, `unique` or `todo` in one block: the later one silently replaced
    /// the earlier (a second `where` dropped the first filter, and records it left out were
    /// written). A second rule for one attribute is allowed, and wins: a converted mapping model
    /// is completed by rules written below the ones it declares.
    private static func refuseSecond(_ what: String, firstAt first: Int?, line: Int, column: Int, path: String,
                                     hint: String) throws(MappingError) {
        guard let first else { return }
        throw .file(path: path, line: line, column: column, reason: "a second \(what) in this entity block (the first is at line \(first)): \(hint)")
    }

    private static func parseRule(_ text: String, column: Int, line: Int, path: String, into block: inout EntityBlock) throws(MappingError) {
        if text.hasPrefix("where ") {
            try refuseSecond("where", firstAt: block.filter?.line, line: line, column: column, path: path,
                             hint: "join the conditions with 'and' in one where")
            block.filter = (String(text.dropFirst(6)).trimming(" "), line, column + 6)
            return
        }
        if text.hasPrefix("todo ") {
            let texts = quotedStrings(text)
            guard texts.count == 1 else { throw .file(path: path, line: line, column: column + 5, reason: #"expected todo "WHAT IS LEFT TO WRITE""#) }
            try refuseSecond("todo", firstAt: block.todo?.line, line: line, column: column, path: path, hint: "say what is left in one todo")
            block.todo = (texts[0], line)
            return
        }
        if text.hasPrefix("note ") {
            let usage = #"expected note "WHAT IS REPORTED" if CONDITION"#
            let rest = text.dropFirst(5).drop { $0 == " " }
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else {
                throw .file(path: path, line: line, column: column + 5, reason: usage)
            }
            let said = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            let condition = after.drop { $0 == " " }
            guard !said.isEmpty, condition.hasPrefix("if ") else { throw .file(path: path, line: line, column: column + 5, reason: usage) }
            let conditionText = String(condition.dropFirst(3))
            let conditionColumn = column + text.utf8.count - conditionText.utf8.count
            do {
                block.notes.append(MappingNote(text: said, condition: try MappingExpression(parsing: conditionText, line: line, column: conditionColumn),
                                               line: line))
            } catch {
                throw .file(path: path, line: error.line, column: error.column, reason: error.message)
            }
            return
        }
        if text.hasPrefix("unique ") {
            try refuseSecond("unique", firstAt: block.uniqueLine, line: line, column: column, path: path,
                             hint: "an entity's records are told apart one way: keep one unique line")
            block.uniqueLine = line
            var words = text.dropFirst(7).split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            let policyStart = words.firstIndex { $0 == "keep" || $0 == "reject" } ?? words.count
            let attributes = Array(words[..<policyStart])
            words.removeFirst(policyStart)
            if !attributes.isEmpty { block.identity = (attributes, line) }
            let policy = words.joined(separator: " ")
            switch policy {
            case "keep newest": block.duplicates = .keepNewest
            case "keep first": block.duplicates = .keepFirst
            case "reject": block.duplicates = .reject
            default: throw .file(path: path, line: line, column: column + 7, reason: "expected unique [ATTRIBUTE, …] keep newest, keep first or reject")
            }
            return
        }
        let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, let first = name.first, !first.isNumber else {
            throw .file(path: path, line: line, column: column, reason: "expected ATTRIBUTE = EXPRESSION, RELATIONSHIP <- RELATIONSHIP, RELATIONSHIP = Entity(…), where, unique, note or todo")
        }
        var rest = text.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        let restColumn = column + text.utf8.count - rest.utf8.count
        if rest.hasPrefix("<-") {
            let source = rest.dropFirst(2).trimming(" \t")
            guard !source.isEmpty, !source.contains(" ") else {
                throw .file(path: path, line: line, column: restColumn, reason: "expected RELATIONSHIP <- SOURCE_RELATIONSHIP")
            }
            block.links.append((String(name), source == "nil" ? nil : source, line))
            return
        }
        guard rest.hasPrefix("="), !rest.hasPrefix("==") else {
            throw .file(path: path, line: line, column: restColumn, reason: "expected '=' after \(name)")
        }
        rest = rest.dropFirst()
        var onFailure: FailurePolicy?
        for policy in FailurePolicy.allCases {
            let suffix = " on error " + (policy == .null ? "nil" : "reject")
            if rest.hasSuffix(suffix) {
                onFailure = policy
                rest = rest.dropLast(suffix.count)
            }
        }
        let expressionText = String(rest)
        if expressionText.trimming(" \t") == "default" {
            block.rules.append(Rule(attribute: String(name), expression: nil, onFailure: onFailure, line: line, column: column))
            return
        }
        let expressionColumn = column + text.utf8.count - rest.utf8.count
        if let constructor = try ConstructorSyntax(expressionText, line: line, column: expressionColumn, path: path) {
            block.constructors.append(Constructor(relationship: String(name), entity: constructor.entity, arguments: constructor.arguments,
                                                  parts: constructor.parts, alwaysNew: constructor.alwaysNew, onFailure: onFailure,
                                                  line: line, column: column))
            return
        }
        let expression: MappingExpression
        do { expression = try MappingExpression(parsing: expressionText, line: line, column: expressionColumn) } catch {
            throw .file(path: path, line: error.line, column: error.column, reason: error.message)
        }
        block.rules.append(Rule(attribute: String(name), expression: expression, onFailure: onFailure, line: line, column: column))
    }

    /// The line without a `#` comment (a `#` inside double quotes is text).
    private static func stripComment(_ line: String) -> String {
        var inString = false
        var escaped = false
        for (index, character) in zip(line.indices, line) {
            if escaped { escaped = false; continue }
            if character == "\\" { escaped = inString; continue }
            if character == "\"" { inString.toggle() }
            if character == "#", !inString { return String(line[..<index]) }
        }
        return line
    }

    private static func quotedStrings(_ text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters of `set`.
    func trimming(_ set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }) else { return "" }
        let last = lastIndex { !characters.contains($0) } ?? first
        return String(self[first...last])
    }
}
