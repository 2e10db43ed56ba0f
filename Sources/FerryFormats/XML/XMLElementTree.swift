/// An element of a parsed XML document: what Ferry's XML consumers (model files, plists,
/// mapping models) need, detached from libxml2 so no C pointers outlive the parse.
public struct XMLElementTree: Sendable, Equatable {
    /// The element's local name.
    public var name: String
    /// Attributes in document order.
    public var attributes: [(name: String, value: String)]
    /// Child elements in document order.
    public var children: [XMLElementTree]
    /// The concatenated text and CDATA directly inside this element.
    public var text: String
    /// The 1-based line where the element starts.
    public var line: Int

    public init(name: String, attributes: [(name: String, value: String)] = [], children: [XMLElementTree] = [],
                text: String = "", line: Int = 0) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The value of the first attribute with this name.
    public subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The child elements with this name.
    public func children(named name: String) -> [XMLElementTree] {
        children.filter { $0.name == name }
    }

    public static func == (lhs: XMLElementTree, rhs: XMLElementTree) -> Bool {
        lhs.name == rhs.name && lhs.text == rhs.text && lhs.line == rhs.line && lhs.children == rhs.children
            && lhs.attributes.elementsEqual(rhs.attributes) { $0.name == $1.name && $0.value == $1.value }
    }
}
