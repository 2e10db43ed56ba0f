import FerryMigration
import FerryModel
import FerryStore

/// Targets of the languages users write: predicates and mapping files.
enum QueryTargets {
    /// Workspace 3 of the project's own model, for compiling predicates (run from the package root).
    private static let workspace: (model: ManagedObjectModel, compiler: PredicateCompiler)? = {
        guard let bundle = try? XcodeModelLoader.loadBundle(at: "Migrations/Workspace.xcdatamodeld"),
              let model = bundle.version(named: "Workspace 3"), let layout = try? StoreLayout(model: model) else { return nil }
        return (model, PredicateCompiler(model: model, layout: layout))
    }()

    static func predicate(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? FetchSort.parse(text)
        guard let predicate = try? FetchPredicate(format: text) else { return }
        // The printed text parses to the same predicate (FetchPredicate's documented promise).
        guard let again = try? FetchPredicate(format: "\(predicate)"), again == predicate else {
            fatalError("\(predicate) does not parse back to itself")
        }
        guard let workspace else { fatalError("run from the package root: Migrations/Workspace.xcdatamodeld is missing") }
        for entity in ["Task", "Upload", "Tag"] {
            _ = try? workspace.compiler.compile(predicate, entity: entity, variables: ["V": .list([.integer(1), .string("a")])])
        }
    }

    static func mapping(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? MappingFile(text: text, path: "fuzz.mapping")
        guard let expression = try? MappingExpression(parsing: text, line: 1, column: 1) else { return }
        // The printed text parses to an expression that prints the same (MappingExpression's promise).
        guard let again = try? MappingExpression(parsing: expression.description, line: 1, column: 1),
              again.description == expression.description else {
            fatalError("\(expression) does not parse back to itself")
        }
        let types: [String: AttributeType] = ["a": .integer64, "s": .string, "d": .date, "x": .decimal, "f": .double, "b": .boolean]
        _ = try? expression.resultType(attributes: types)
        _ = expression.evaluate(FuzzRecord())
    }
}

/// A record with one attribute of each kind the mapping target's type table names.
private struct FuzzRecord: ExpressionContext {
    func value(of attribute: String) -> AttributeValue? {
        switch attribute {
        case "a": .integer(7)
        case "s": .string("2014-01-02 10:00")
        case "d": .date(410_227_200)
        case "x": .decimal("12.5")
        case "f": .double(0.25)
        case "b": .bool(true)
        default: nil
        }
    }

    func variable(_ name: String) -> String? { name == "zone" ? "Asia/Shanghai" : nil }
}
