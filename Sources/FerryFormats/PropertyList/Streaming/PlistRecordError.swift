/// Why ``PlistRecordReader`` could not read a property list: the problem, as the whole-document
/// readers name it (``PropertyListError``), and the source it was found in.
///
/// XML problems carry the 1-based line (0 when libxml2 gives none), binary problems the byte
/// offset in the file. Errors of the underlying ``ByteSource`` are thrown as they are, not wrapped.
public struct PlistRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source name: a path, `<stdin>`, `<memory>`.
    public let source: String
    public let problem: PropertyListError

    public init(source: String, problem: PropertyListError) {
        self.source = source
        self.problem = problem
    }

    /// The line of an XML problem, when libxml2 gave one; `nil` for other problems.
    public var line: Int? {
        guard case .xml(_, let line) = problem, line > 0 else { return nil }
        return line
    }

    /// `source: XML property list, line N: problem`.
    public var description: String { "\(source): \(problem)" }
}
