import FerryFormats

/// A Core Data XML-store document, the form Xcode saves a mapping model's `xcmapping.xml` in
/// (coredata-format.md §10.1): `<database>`, then one `<object type="…" id="…">` per object with
/// `<attribute name type>value</attribute>` and `<relationship name destination idrefs>` children.
/// Objects are looked up by id and followed by reference from a root; objects nothing refers to
/// (Xcode leaves some behind) are never read.
struct CoreDataXMLStore {
    /// One `<object>`.
    struct Object {
        let id: String
        let type: String
        /// The line of its `<object>` element.
        let line: Int
        /// Attribute name → its text.
        let attributes: [String: String]
        /// Relationship name → the ids it refers to, in order.
        let relationships: [String: [String]]
    }

    let file: String
    private let objects: [String: Object]

    /// Parses the document; every object needs a unique id and a type.
    init(bytes: [UInt8], file: String) throws(MappingModelLoadError) {
        self.file = file
        let root: XMLElementTree
        do { root = try SafeXMLParser.parse(bytes, source: file) } catch { throw .xml(error) }
        guard root.name == "database" else {
            throw .notAMappingModel(path: file, reason: "the root element is <\(root.name)>, not a Core Data XML store's <database>")
        }
        var objects: [String: Object] = [:]
        for element in root.children(named: "object") {
            guard let id = element[attribute: "id"], let type = element[attribute: "type"] else {
                throw .invalidObject(file: file, line: element.line, object: element[attribute: "id"] ?? "?", reason: "an object needs an id and a type")
            }
            var attributes: [String: String] = [:]
            for attribute in element.children(named: "attribute") {
                guard let name = attribute[attribute: "name"] else {
                    throw .invalidObject(file: file, line: attribute.line, object: id, reason: "an attribute without a name")
                }
                attributes[name] = attribute.text
            }
            var relationships: [String: [String]] = [:]
            for relationship in element.children(named: "relationship") {
                guard let name = relationship[attribute: "name"] else {
                    throw .invalidObject(file: file, line: relationship.line, object: id, reason: "a relationship without a name")
                }
                relationships[name] = (relationship[attribute: "idrefs"] ?? "").split(separator: " ").map(String.init)
            }
            guard objects.updateValue(Object(id: id, type: type, line: element.line, attributes: attributes,
                                             relationships: relationships), forKey: id) == nil else {
                throw .invalidObject(file: file, line: element.line, object: id, reason: "the id is used twice")
            }
        }
        self.objects = objects
    }

    /// The one object of a type, the document's root.
    func root(ofType type: String) throws(MappingModelLoadError) -> Object {
        let found = objects.values.filter { $0.type == type }
        guard found.count == 1, let root = found.first else {
            throw .notAMappingModel(path: file, reason: "it holds \(found.count) \(type) objects, not one")
        }
        return root
    }

    /// The objects `object`'s relationship refers to, each of which must exist and be of `type`.
    func related(_ object: Object, _ relationship: String, type: String) throws(MappingModelLoadError) -> [Object] {
        var result: [Object] = []
        for id in object.relationships[relationship] ?? [] {
            guard let target = objects[id], target.type == type else {
                throw .invalidObject(file: file, line: object.line, object: object.id,
                                     reason: "\(relationship) refers to \(id), which is not a \(type) object of the document")
            }
            result.append(target)
        }
        return result
    }
}
